/* The node side of NX.  Sends go to the network at once and complete
 * when the network model says the sender is free (iPSC/860: s after a
 * short send, end of the data for long and forced ones).  Receives are
 * message ids too: an arrival fills the oldest matching posted receive;
 * otherwise it waits in the unexpected queue, except a FORCED message,
 * which is discarded as the Paragon did.  Handler receives (hrecv) run
 * their handler on the node's own stack at its next NX call.
 * With nxs()->irq the node's processor also serves interrupts: a timer tick
 * of irq_cost every irq_period, and (irq_msg > 0) a message-arrival
 * interrupt of irq_msg ending when the message is in, which a running
 * tick postpones; a send the network marks MCEI_MSG_SENDER_CPU is the
 * processor's own work, so ticks and arrival interrupts during it delay
 * its return. */
#include "nxproto.h"
#include "../keys.h"

#include "../../core/trace.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { R_SEND = 1, R_RECV = 2, R_MERGE = 3 };
enum { NX_HLOG = 8 };
enum { NX_T_WAKE = 1 }; /* timer: the end of a sleep (nx_sleep) */

typedef struct nx_req nx_req_t;
struct nx_req {
    long id;
    int kind, done, ignore, err, handled;
    int cpu; /* R_SEND: the processor did the whole send */
    mce_time_t done_at;
    uint64_t seq; /* R_SEND */
    uint32_t ctx;
    long typesel, nodesel, ptypesel, count; /* R_RECV */
    void *buf;
    mcei_nx_handler_t handler;
    mcei_nx_info_t info;
    long m1, m2;             /* R_MERGE */
    long *info_out;          /* irecvx's info[] */
    int *info_out32;         /* the same, of the 32-bit forms */
    int handler32;           /* handler is a mcei_nx_handler32_t */
    nx_req_t *next;          /* all requests of the node */
    nx_req_t *prev;          /* (so that a release needs no search) */
    nx_req_t *hnext;         /* the next of its hash bucket (by id) */
    nx_req_t *pnext;         /* posted receives, in post order */
    nx_req_t *snext, *sprev; /* sends on the wire, oldest first */
    int on_wire;             /* in that list */
};

typedef struct nx_node {
    nx_req_t *reqs;
    /* Requests by id: msgwait and msgdone look them up at every check,
     * and a node may have hundreds outstanding (a naive exchange). */
    nx_req_t **bucket;
    size_t nbucket;     /* a power of two, or 0 */
    nx_req_t *reqs_old; /* the oldest request (the list's tail) */
    long nhandlers;     /* requests with a handler (hrecv): most have none */
    nx_req_t *posted, *posted_tail;
    /* Sends whose completion the network has not yet notified, in the
     * order they were made: a notification finds its send without
     * walking every request (a naive exchange has hundreds). */
    nx_req_t *wire_old, *wire_new;
    long next_id, nreqs, nposted, ptype;
    uint64_t posted_bytes; /* operating-system buffer space they reserve */
    mcei_nx_info_t last;
    mce_time_t irq_next, irq_phase;
    mce_time_t hbusy; /* end of the last message-arrival interrupt */
    /* the last few arrival interrupts, [end - irq_msg, end): a send's own
     * processor work that they overlap is preempted by them */
    mce_time_t hend[NX_HLOG];
    unsigned hcount;
    int masked, in_handler, warned_forced;
    int waiting; /* in an NX wait: arrivals do not delay computation */
    uint64_t discarded;
} nx_node_t;

/* The protocol's global state: the engine's proto_state while nx runs. */
typedef struct nx_state {
    uint64_t max_posted, os_buffer, max_reqs, irq;
    mce_time_t irq_period, irq_cost, irq_msg, probe_cost;
    int notifies;
    uint64_t seed;
} nx_state_t;

/* NULL unless the running protocol is nxs()-> */
static const nx_state_t *nxs(void)
{
    return mcei_proto_state_of(&mcei_proto_nx_ops);
}

int mcei_nx_active(void)
{
    return nxs() != NULL;
}

mce_time_t mcei_nx_probe_cost(void)
{
    const nx_state_t *s = nxs();
    return s != NULL ? s->probe_cost : 0;
}

static nx_node_t *node_of(mcei_vn_t *vn)
{
    return vn->proto;
}

static nx_req_t *find(nx_node_t *nd, long id)
{
    if (nd->nbucket == 0)
        return NULL;
    for (nx_req_t *r = nd->bucket[(size_t)id & (nd->nbucket - 1)]; r != NULL;
         r = r->hnext)
        if (r->id == id)
            return r;
    return NULL;
}

static void wire_add(nx_node_t *nd, nx_req_t *r)
{
    r->snext = NULL;
    r->sprev = nd->wire_new;
    if (nd->wire_new)
        nd->wire_new->snext = r;
    else
        nd->wire_old = r;
    nd->wire_new = r;
    r->on_wire = 1;
}

static void wire_del(nx_node_t *nd, nx_req_t *r)
{
    if (!r->on_wire)
        return;
    if (r->sprev)
        r->sprev->snext = r->snext;
    else
        nd->wire_old = r->snext;
    if (r->snext)
        r->snext->sprev = r->sprev;
    else
        nd->wire_new = r->sprev;
    r->on_wire = 0;
}

static void release(nx_node_t *nd, nx_req_t *r)
{
    wire_del(nd, r);
    nx_req_t **pp = &nd->bucket[(size_t)r->id & (nd->nbucket - 1)];
    while (*pp != r)
        pp = &(*pp)->hnext;
    *pp = r->hnext;
    if (r->prev)
        r->prev->next = r->next;
    else
        nd->reqs = r->next;
    if (r->next)
        r->next->prev = r->prev;
    else
        nd->reqs_old = r->prev;
    if (r->handler != NULL)
        nd->nhandlers--;
    nd->nreqs--;
    free(r);
}

/* Room for one more request in the table (twice the size when full). */
static int grow_buckets(nx_node_t *nd)
{
    size_t n = nd->nbucket ? 2 * nd->nbucket : 64;
    nx_req_t **b;
    if ((size_t)nd->nreqs < nd->nbucket)
        return MCE_OK;
    if ((b = calloc(n, sizeof(*b))) == NULL)
        return MCE_ERR_NOMEM;
    for (nx_req_t *r = nd->reqs; r != NULL; r = r->next) {
        nx_req_t **head = &b[(size_t)r->id & (n - 1)];
        r->hnext = *head;
        *head = r;
    }
    free(nd->bucket);
    nd->bucket = b;
    nd->nbucket = n;
    return MCE_OK;
}

static int new_req(nx_node_t *nd, int kind, nx_req_t **out)
{
    nx_req_t *r, **head;
    if (nxs()->max_reqs && (uint64_t)nd->nreqs >= nxs()->max_reqs)
        return MCE_ERR_RESOURCE;
    if (grow_buckets(nd) != MCE_OK || (r = calloc(1, sizeof(*r))) == NULL)
        return MCE_ERR_NOMEM;
    r->id = ++nd->next_id;
    r->kind = kind;
    r->next = nd->reqs;
    if (nd->reqs)
        nd->reqs->prev = r;
    else
        nd->reqs_old = r;
    nd->reqs = r;
    head = &nd->bucket[(size_t)r->id & (nd->nbucket - 1)];
    r->hnext = *head;
    *head = r;
    nd->nreqs++;
    *out = r;
    return MCE_OK;
}

static int sel_match(long sel, long v)
{
    return sel == -1 || sel == v;
}

static int msg_matches(const mcei_msg_t *m, uint32_t ctx, long typesel,
                       long nodesel, long ptypesel)
{
    return m->w.ctx == ctx && sel_match(typesel, (long)m->w.type) &&
           sel_match(nodesel, m->w.src) &&
           sel_match(ptypesel, (long)m->w.aux[0]);
}

static void fill_info(const mcei_msg_t *m, mcei_nx_info_t *info)
{
    info->type = (long)m->w.type;
    info->count = (long)m->w.size;
    info->node = m->w.src;
    info->ptype = (long)m->w.aux[0];
    info->pid = (long)m->w.aux[0];
}

/* Deliver @p m into receive @p r (node memory live). */
static void complete_recv(mcei_vn_t *vn, nx_req_t *r, const mcei_msg_t *m,
                          mce_time_t at)
{
    long n = (long)m->w.size;
    mcei_vn_memory(vn);
    fill_info(m, &r->info);
    if (n > r->count) {
        r->err = MCE_ERR_TRUNCATE;
        n = r->count;
    }
    if (n > 0)
        mcei_msg_copy(m, r->buf, (size_t)n);
    r->done = 1;
    r->done_at = at;
    /* The program received it, whether it waits for the id, tests it,
     * ignores it or has a handler take it (global operations' own
     * messages are no messages of the program). */
    if (r->ctx == MCEI_CTX_USER) {
        mcei_count_recv(vn, (uint64_t)n);
        mcei_trace_flow_in(vn, m->w.src, m->w.seq);
    }
}

static void unpost(nx_node_t *nd, nx_req_t *r)
{
    nx_req_t *prev = NULL;
    for (nx_req_t *p = nd->posted; p != NULL; prev = p, p = p->pnext) {
        if (p != r)
            continue;
        if (prev)
            prev->pnext = p->pnext;
        else
            nd->posted = p->pnext;
        if (nd->posted_tail == p)
            nd->posted_tail = prev;
        nd->nposted--;
        nd->posted_bytes -= (uint64_t)p->count;
        return;
    }
}

/* ---- the processor: timer ticks and message interrupts ---------------- */

/* a + b, or MCEI_TIME_INF (never reached) if it overflows. */
static mce_time_t tadd(mce_time_t a, mce_time_t b)
{
    mce_time_t r;
    return mcei_time_add(a, b, &r) == MCE_OK ? r : MCEI_TIME_INF;
}

/* @p t, or the end of the tick running at @p t. */
static mce_time_t tick_free(const nx_node_t *nd, mce_time_t t)
{
    mce_time_t start, end;
    if (t < nd->irq_phase)
        return t;
    start = t - (t - nd->irq_phase) % nxs()->irq_period;
    end = tadd(start, nxs()->irq_cost);
    return t < end ? end : t;
}

/* The first tick starting after @p t. */
static mce_time_t tick_after(const nx_node_t *nd, mce_time_t t)
{
    if (t < nd->irq_phase)
        return nd->irq_phase;
    return tadd(t - (t - nd->irq_phase) % nxs()->irq_period, nxs()->irq_period);
}

/* When @p dur of processor work started at @p t ends: every tick that
 * falls in it preempts it for irq_cost. */
static mce_time_t cpu_run(const nx_node_t *nd, mce_time_t t, mce_time_t dur)
{
    t = tick_free(nd, t);
    while (t != MCEI_TIME_INF) {
        mce_time_t next = tick_after(nd, t);
        if (next - t >= dur)
            return tadd(t, dur);
        dur -= next - t;
        t = tadd(next, nxs()->irq_cost);
    }
    return t;
}

/* The message-arrival interrupt of a message in at @p arrival: it takes
 * the processor for the last irq_msg of the message's latency (so it
 * costs nothing more on an idle node) unless a tick or an earlier
 * arrival's interrupt holds the processor; returns when the program can
 * see the message. */
static mce_time_t msg_interrupt(mcei_vn_t *vn, mce_time_t arrival)
{
    nx_node_t *nd = node_of(vn);
    mce_time_t from, end;
    if (!nxs()->irq || nxs()->irq_msg == 0)
        return arrival;
    from = arrival > nxs()->irq_msg ? arrival - nxs()->irq_msg : 0;
    if (from < nd->hbusy)
        from = nd->hbusy;
    if ((end = cpu_run(nd, from, nxs()->irq_msg)) == MCEI_TIME_INF)
        mcei_vn_fatal(vn, "virtual clock overflow in an arrival interrupt");
    nd->hbusy = end;
    nd->hend[nd->hcount++ % NX_HLOG] = end;
    mcei_trace_proto(vn, "interrupt", "message arrival interrupt",
                     end - nxs()->irq_msg, end, NULL);
    if (vn->busy_until < end)
        vn->busy_until = end;
    /* A computing program loses the handler's time; a waiting one only
     * sees its message when the handler is over (a blocked node's wait
     * shrinks by it; one waiting in its own time catches up with
     * busy_until when its wait ends). */
    if (!nd->waiting && vn->state == MCEI_VN_RUNNABLE &&
        vn->clock >= end - nxs()->irq_msg)
        mcei_charge_stolen(vn, nxs()->irq_msg);
    else if (vn->state == MCEI_VN_BLOCKED)
        mcei_note_stolen_blocked(vn, nxs()->irq_msg);
    return end;
}

/* A node that exited has no receives any more: whatever it left posted
 * is cancelled (its buffers may be freed), and later messages wait in
 * its queue like any other. */
static void cancel_posted(nx_node_t *nd)
{
    while (nd->posted != NULL) {
        nx_req_t *r = nd->posted;
        unpost(nd, r);
        release(nd, r);
    }
}

static void nx_on_arrival(mcei_vn_t *vn, mcei_msg_t *m)
{
    nx_node_t *nd = node_of(vn);
    mce_time_t seen;
    if (m->w.ctx == MCEI_CTX_TIMER && m->w.type == NX_T_WAKE) {
        *(int *)m->cookie = 1; /* nx_sleep's flag, on its waiting stack */
        mcei_msg_release(m);
        return;
    }
    if (m->w.ctx == MCEI_CTX_PROTOCOL && m->w.type == MCEI_NET_SENT) {
        /* Sends complete mostly in the order they were made: oldest first. */
        for (nx_req_t *r = nd->wire_old; r != NULL; r = r->snext)
            if (r->seq == m->w.aux[0] && r->ctx == (uint32_t)m->w.aux[1]) {
                wire_del(nd, r);
                r->done = 1;
                r->done_at = m->arrival;
                r->cpu = (m->w.flags & MCEI_MSG_SENDER_CPU) != 0;
                if (r->ignore && r->handler == NULL)
                    release(nd, r);
                break;
            }
        mcei_msg_release(m);
        return;
    }
    if (vn->state == MCEI_VN_DONE)
        cancel_posted(nd); /* its buffers may be gone with the node */
    seen = msg_interrupt(vn, m->arrival);
    for (nx_req_t *r = nd->posted; r != NULL; r = r->pnext) {
        if (!msg_matches(m, r->ctx, r->typesel, r->nodesel, r->ptypesel))
            continue;
        unpost(nd, r);
        complete_recv(vn, r, m, seen);
        if (r->ignore && r->handler == NULL)
            release(nd, r);
        mcei_msg_release(m);
        return;
    }
    if (m->w.flags & MCEI_MSG_FORCED) {
        /* Nobody was ready for it: the machine drops it. */
        char args[96];
        snprintf(args, sizeof(args),
                 "\"src\":%d,\"type\":%" PRId64 ",\"bytes\":%" PRIu64, m->w.src,
                 m->w.type, m->w.size);
        mcei_trace_proto(vn, "discard", "FORCED message discarded", seen, seen,
                         args);
        nd->discarded++;
        if (!nd->warned_forced++)
            mcei_log("node %d: FORCED message of type %" PRId64 " from node %d "
                     "discarded: no receive was posted (further discards on "
                     "this node are not reported)",
                     vn->id, m->w.type, m->w.src);
        mcei_msg_release(m);
        return;
    }
    mcei_msgq_push(&vn->inbox, m);
}

/* ---- interrupt noise ---------------------------------------------------- */

void mcei_nx_enter(mcei_vn_t *vn)
{
    nx_node_t *nd = node_of(vn);
    if (!nxs()->irq)
        return;
    /* Every irq_period the node services an interrupt of irq_cost. */
    while (nd->irq_next <= vn->clock) {
        mcei_vn_steal(vn, nd->irq_next, nxs()->irq_cost);
        nd->irq_next += nxs()->irq_period;
    }
}

/* After an idle wait: interrupts that fell into it cost nothing, except
 * one still running when the node resumes. */
static void after_idle(mcei_vn_t *vn, mce_time_t idle_from)
{
    nx_node_t *nd = node_of(vn);
    if (!nxs()->irq || vn->clock <= idle_from)
        return;
    while (nd->irq_next + nxs()->irq_cost <= vn->clock)
        nd->irq_next += nxs()->irq_period;
    if (nd->irq_next <= vn->clock) {
        mcei_stolen_until(vn, nd->irq_next + nxs()->irq_cost);
        nd->irq_next += nxs()->irq_period;
    }
}

/* Processor time that the recent arrival interrupts ended before @p to
 * took after @p from.  Only interrupts over before @p to count: their
 * messages arrived before the node resumed, so every layout of the
 * nodes on MPI ranks has seen them. */
static mce_time_t handlers_in(const nx_node_t *nd, mce_time_t from,
                              mce_time_t to)
{
    mce_time_t sum = 0;
    for (unsigned i = 0; i < NX_HLOG && i < nd->hcount; i++) {
        mce_time_t hi = nd->hend[i], lo = hi - nxs()->irq_msg;
        if (hi >= to)
            continue;
        if (lo < from)
            lo = from;
        if (hi > lo)
            sum += hi - lo;
    }
    return sum;
}

/* A send that was the processor's work from @p from to now: every tick
 * that started meanwhile delays its return by irq_cost, and every
 * message-arrival interrupt that ran meanwhile by its irq_msg (one
 * processor: an interrupt preempts the send's software). */
static void cpu_send(mcei_vn_t *vn, mce_time_t from)
{
    nx_node_t *nd = node_of(vn);
    mce_time_t end =
        cpu_run(nd, from, vn->clock - from + handlers_in(nd, from, vn->clock));
    if (end == MCEI_TIME_INF)
        mcei_vn_fatal(vn, "virtual clock overflow in a send");
    mcei_stolen_until(vn, end);
    while (nd->irq_next < vn->clock)
        nd->irq_next += nxs()->irq_period;
}

/* ---- operations --------------------------------------------------------- */

int mcei_nx_isend(mcei_vn_t *vn, uint32_t ctx, long type, const void *buf,
                  long count, long node, long ptype, mcei_nx_handler_t handler,
                  long *id)
{
    nx_node_t *nd = node_of(vn);
    /* The receiver sees the sender's process type; the destination's is
     * carried along (one process per node: it selects nothing). */
    uint64_t aux[2] = {(uint64_t)nd->ptype, (uint64_t)ptype};
    mcei_msg_t *m;
    nx_req_t *r;
    int rc;
    if ((rc = new_req(nd, R_SEND, &r)) != MCE_OK)
        return rc;
    mcei_sync(vn);
    if ((rc = mcei_send(vn, (int)node, ctx, type, buf, (size_t)count, aux,
                        &m)) != MCE_OK) {
        release(nd, r);
        return rc;
    }
    if (type & MCEI_NX_FORCE_TYPE)
        m->w.flags |= MCEI_MSG_FORCED;
    r->seq = m->w.seq;
    r->ctx = ctx;
    r->handler = handler;
    nd->nhandlers += handler != NULL;
    r->info.type = type;
    r->info.count = count;
    r->info.node = node;
    r->info.ptype = ptype;
    r->info.pid = ptype;
    if (!nxs()->notifies) {
        /* A network without sender notifications: done at once. */
        r->done = 1;
        r->done_at = vn->clock;
    } else {
        wire_add(nd, r);
    }
    *id = r->id;
    return MCE_OK;
}

int mcei_nx_irecv(mcei_vn_t *vn, uint32_t ctx, long typesel, void *buf,
                  long count, long nodesel, long ptypesel,
                  mcei_nx_handler_t handler, long *info_out, long *id)
{
    nx_node_t *nd = node_of(vn);
    nx_req_t *r;
    int rc;
    mcei_sync(vn);
    if ((rc = new_req(nd, R_RECV, &r)) != MCE_OK)
        return rc;
    r->ctx = ctx;
    r->typesel = typesel;
    r->nodesel = nodesel;
    r->ptypesel = ptypesel;
    r->buf = buf;
    r->count = count;
    r->handler = handler;
    nd->nhandlers += handler != NULL;
    r->info_out = info_out;
    /* An unexpected message that already arrived is taken at once. */
    for (mcei_msg_t *m = vn->inbox.head; m != NULL; m = m->next) {
        if (!msg_matches(m, ctx, typesel, nodesel, ptypesel))
            continue;
        complete_recv(vn, r, m, vn->clock);
        mcei_msgq_remove(&vn->inbox, m); /* counted when the id completes */
        mcei_msg_release(m);
        *id = r->id;
        return MCE_OK;
    }
    /* The operating system sets buffer space aside for every message a
     * posted receive expects (Bokhari and Nicol 1996, section 6). */
    if ((nxs()->max_posted && (uint64_t)nd->nposted >= nxs()->max_posted) ||
        (nxs()->os_buffer &&
         (uint64_t)count > nxs()->os_buffer - nd->posted_bytes)) {
        release(nd, r);
        return MCE_ERR_RESOURCE;
    }
    if (nd->posted_tail)
        nd->posted_tail->pnext = r;
    else
        nd->posted = r;
    nd->posted_tail = r;
    if (count > 0)
        mcei_vn_prefault(vn, buf, (size_t)count);
    nd->nposted++;
    nd->posted_bytes += (uint64_t)count;
    *id = r->id;
    return MCE_OK;
}

/* A merged id is done when its parts are, merged ids among them too. */
static int req_complete(nx_node_t *nd, const nx_req_t *r)
{
    nx_req_t *a, *b;
    if (r->kind != R_MERGE)
        return r->done;
    a = find(nd, r->m1);
    b = find(nd, r->m2);
    return (a == NULL || req_complete(nd, a)) &&
           (b == NULL || req_complete(nd, b));
}

static int req_done(mcei_vn_t *vn, void *arg)
{
    nx_node_t *nd = node_of(vn);
    nx_req_t *r = find(nd, (long)(intptr_t)arg);
    return r == NULL || req_complete(nd, r);
}

/* An NX value for the 32-bit forms: types are 31-bit, nodes fewer than
 * 2^31; a count or process type beyond int (which a 32-bit program
 * cannot give) saturates. */
static int int32_of(long v)
{
    return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v;
}

/* A completed user receive becomes "the last message" (infocount & co)
 * and fills the x-form's info[]; global operations' receives do not. */
static void record_recv(nx_node_t *nd, nx_req_t *r)
{
    if (r->ctx != MCEI_CTX_USER)
        return; /* (the count is kept at completion: complete_recv) */
    nd->last = r->info;
    if (r->info_out != NULL) {
        r->info_out[0] = r->info.type;
        r->info_out[1] = r->info.count;
        r->info_out[2] = r->info.node;
        r->info_out[3] = r->info.ptype;
    }
    if (r->info_out32 != NULL) {
        r->info_out32[0] = int32_of(r->info.type);
        r->info_out32[1] = int32_of(r->info.count);
        r->info_out32[2] = int32_of(r->info.node);
        r->info_out32[3] = int32_of(r->info.ptype);
    }
}

static int finish_req(mcei_vn_t *vn, nx_req_t *r, mcei_nx_info_t *info)
{
    nx_node_t *nd = node_of(vn);
    int rc = r->err;
    if (r->kind == R_MERGE) {
        /* Parts first, merged ids among them too; the last error wins. */
        long part[2] = {r->m1, r->m2};
        for (int k = 0; k < 2; k++) {
            nx_req_t *p = find(nd, part[k]);
            int prc;
            if (p != NULL && (prc = finish_req(vn, p, NULL)) != MCE_OK)
                rc = prc;
        }
    }
    if (r->kind == R_RECV) {
        record_recv(nd, r);
        if (info != NULL)
            *info = r->info;
    }
    release(nd, r);
    return rc;
}

/* The earliest handler receive whose message is in and whose handler may
 * run now (traps not masked, no handler running), or NULL. */
static nx_req_t *handler_due(nx_node_t *nd)
{
    nx_req_t *due = NULL;
    if (nd->masked || nd->in_handler || nd->nhandlers == 0)
        return NULL;
    for (nx_req_t *r = nd->reqs; r != NULL; r = r->next)
        if (r->handler != NULL && r->done &&
            (due == NULL || r->done_at < due->done_at))
            due = r;
    return due;
}

/* Handler receives still waiting for their message or for the traps to
 * be unmasked: the deadlock report names them. */
static void handlers_note(const nx_node_t *nd, char *buf, size_t len)
{
    int waiting = 0, masked = 0;
    long type = 0;
    for (const nx_req_t *r = nd->reqs; r != NULL; r = r->next) {
        if (r->handler == NULL || r->kind != R_RECV)
            continue;
        if (r->done)
            masked++;
        else if (waiting++ == 0)
            type = r->typesel;
    }
    if (masked > 0)
        snprintf(buf, len, " (%d handler message%s arrived, held by masktrap)",
                 masked, masked > 1 ? "s" : "");
    else if (waiting > 0)
        snprintf(buf, len,
                 " (%d handler receive%s pending: hrecv of type %ld%s)",
                 waiting, waiting > 1 ? "s" : "", type,
                 waiting > 1 ? " and others" : "");
    else if (len > 0)
        buf[0] = '\0';
}

/* What msgwait waits for, formatted only for a deadlock report. */
typedef struct wait_what {
    long id, typesel, nodesel;
    int kind;
    const nx_node_t *nd;
} wait_what_t;

static void wait_what(const void *arg, char *buf, size_t len)
{
    const wait_what_t *w = arg;
    char h[128];
    handlers_note(w->nd, h, sizeof(h));
    if (w->kind == R_RECV)
        snprintf(buf, len,
                 "message id %ld: a message of type %ld from node %ld%s", w->id,
                 w->typesel, w->nodesel, h);
    else
        snprintf(buf, len, "message id %ld (%s)%s", w->id,
                 w->kind == R_SEND ? "send" : "merged", h);
}

/* A blocked NX wait wakes up for its condition or for a handler whose
 * message came in: on NX the handler runs when its message arrives. */
typedef struct hwait {
    mcei_ready_fn ready;
    void *arg;
} hwait_t;

static int ready_or_handler(mcei_vn_t *vn, void *arg)
{
    const hwait_t *w = arg;
    return w->ready(vn, w->arg) || handler_due(node_of(vn)) != NULL;
}

/* Wait until ready(vn, arg), running the handlers whose messages arrive
 * meanwhile, each at its message's time, then checking again. */
static void wait_running_handlers(mcei_vn_t *vn, mcei_ready_fn ready, void *arg,
                                  const char *call, mcei_what_fn what,
                                  const void *what_arg)
{
    nx_node_t *nd = node_of(vn);
    hwait_t w = {ready, arg};
    for (;;) {
        nx_req_t *r;
        nd->waiting = 1;
        mcei_wait_for(vn, ready_or_handler, &w, call, what, what_arg);
        nd->waiting = 0;
        if (ready(vn, arg) || (r = handler_due(nd)) == NULL)
            return;
        mcei_wait_until(vn, r->done_at);
        mcei_nx_run_handlers(vn);
    }
}

static int woke(mcei_vn_t *vn, void *arg)
{
    (void)vn;
    return *(int *)arg;
}

static void sleep_what(const void *arg, char *buf, size_t len)
{
    (void)arg;
    snprintf(buf, len, "the end of its sleep");
}

/* sleep, usleep, nanosleep in a node (lib/core/sleep.c): a handler whose
 * message arrives during the sleep runs at its message's time, as on NX,
 * and the node sleeps on to the end. */
static void nx_sleep(mcei_vn_t *vn, mce_time_t until)
{
    nx_node_t *nd = node_of(vn);
    int over = 0, handlers = nd->nhandlers > 0;
    if (!handlers || nd->masked || nd->in_handler || until <= vn->clock) {
        mcei_wait_until(vn, until);
        return;
    }
    if (mcei_timer_at(vn, until, NX_T_WAKE, NULL, &over, NULL, 0) != MCE_OK)
        mcei_vn_fatal(vn, "sleep: out of memory");
    wait_running_handlers(vn, woke, &over, "sleep", sleep_what, NULL);
    mcei_wait_until(vn, until);
}

int mcei_nx_wait(mcei_vn_t *vn, long id, mcei_nx_info_t *info)
{
    nx_node_t *nd = node_of(vn);
    nx_req_t *r = find(nd, id);
    wait_what_t what;
    mce_time_t from;
    if (r == NULL || r->ignore || r->handler != NULL)
        return MCE_ERR_NOT_FOUND;
    mcei_sync(vn);
    from = vn->clock;
    what.id = id;
    what.typesel = r->typesel;
    what.nodesel = r->nodesel;
    what.kind = (int)r->kind;
    what.nd = nd;
    wait_running_handlers(vn, req_done, (void *)(intptr_t)id, "msgwait",
                          wait_what, &what);
    r = find(nd, id);
    /* completed in our future (not waited) */
    mcei_wait_until(vn, r->done_at);
    if (nxs()->irq && r->kind == R_SEND && r->cpu)
        cpu_send(vn, from);
    else
        after_idle(vn, from);
    /* An arrival interrupt still running holds the program back. */
    if (nxs()->irq && nxs()->irq_msg)
        mcei_stolen_until(vn, vn->busy_until);
    return finish_req(vn, r, info);
}

int mcei_nx_done(mcei_vn_t *vn, long id, int *done)
{
    nx_node_t *nd = node_of(vn);
    nx_req_t *r = find(nd, id);
    if (r == NULL || r->ignore || r->handler != NULL)
        return MCE_ERR_NOT_FOUND;
    mcei_sync(vn);
    /* Polling costs time, so a msgdone loop progresses. */
    mcei_charge_comm(vn, nxs()->probe_cost);
    mcei_sync(vn);
    r = find(nd, id);
    if (!req_done(vn, (void *)(intptr_t)id)) {
        *done = 0;
        return MCE_OK;
    }
    *done = 1;
    return finish_req(vn, r, NULL);
}

int mcei_nx_cancel(mcei_vn_t *vn, long id)
{
    nx_node_t *nd = node_of(vn);
    nx_req_t *r = find(nd, id);
    /* An in-flight send already cancelled is no longer the program's. */
    if (r == NULL || r->ignore)
        return MCE_ERR_NOT_FOUND;
    if (r->kind == R_MERGE) {
        /* Cancelling a merged id cancels its parts. */
        long a = r->m1, b = r->m2;
        release(nd, r);
        if (find(nd, a) != NULL)
            mcei_nx_cancel(vn, a);
        if (find(nd, b) != NULL)
            mcei_nx_cancel(vn, b);
        return MCE_OK;
    }
    if (r->kind == R_RECV && !r->done)
        unpost(nd, r);
    if (r->kind == R_SEND && !r->done) {
        /* Already on the wire: it completes, nobody waits for it. */
        r->ignore = 1;
        return MCE_OK;
    }
    release(nd, r);
    return MCE_OK;
}

int mcei_nx_ignore(mcei_vn_t *vn, long id)
{
    nx_node_t *nd = node_of(vn);
    nx_req_t *r = find(nd, id);
    if (r == NULL || r->ignore)
        return MCE_ERR_NOT_FOUND;
    if (r->kind == R_MERGE) {
        long a = r->m1, b = r->m2;
        release(nd, r);
        if (find(nd, a) != NULL)
            mcei_nx_ignore(vn, a);
        if (find(nd, b) != NULL)
            mcei_nx_ignore(vn, b);
        return MCE_OK;
    }
    if (r->done)
        release(nd, r);
    else
        r->ignore = 1;
    return MCE_OK;
}

int mcei_nx_merge(mcei_vn_t *vn, long id1, long id2, long *id)
{
    nx_node_t *nd = node_of(vn);
    nx_req_t *r;
    int rc;
    if (find(nd, id1) == NULL || find(nd, id2) == NULL || id1 == id2)
        return MCE_ERR_NOT_FOUND;
    if ((rc = new_req(nd, R_MERGE, &r)) != MCE_OK)
        return rc;
    r->m1 = id1;
    r->m2 = id2;
    *id = r->id;
    return MCE_OK;
}

int mcei_nx_set32(mcei_vn_t *vn, long id, int *info32, int handler32)
{
    nx_req_t *r = find(node_of(vn), id);
    if (r == NULL)
        return MCE_ERR_NOT_FOUND;
    r->info_out32 = info32;
    r->handler32 = handler32 && r->handler != NULL;
    return MCE_OK;
}

typedef struct probe_arg {
    uint32_t ctx;
    long typesel, nodesel, ptypesel;
    const nx_node_t *nd;
} probe_arg_t;

static void probe_what(const void *arg, char *buf, size_t len)
{
    const probe_arg_t *a = arg;
    char h[128];
    handlers_note(a->nd, h, sizeof(h));
    snprintf(buf, len, "a message of type %ld from node %ld%s", a->typesel,
             a->nodesel, h);
}

static mcei_msg_t *probe_find(mcei_vn_t *vn, const probe_arg_t *a)
{
    for (mcei_msg_t *m = vn->inbox.head; m != NULL; m = m->next)
        if (msg_matches(m, a->ctx, a->typesel, a->nodesel, a->ptypesel))
            return m;
    return NULL;
}

static int probe_ready(mcei_vn_t *vn, void *arg)
{
    return probe_find(vn, arg) != NULL;
}

int mcei_nx_probe(mcei_vn_t *vn, uint32_t ctx, long typesel, long nodesel,
                  long ptypesel, int block, int *found, mcei_nx_info_t *info)
{
    nx_node_t *nd = node_of(vn);
    probe_arg_t a = {ctx, typesel, nodesel, ptypesel, nd};
    mcei_msg_t *m;
    mcei_sync(vn);
    if (block) {
        mce_time_t from = vn->clock;
        wait_running_handlers(vn, probe_ready, &a, "cprobe", probe_what, &a);
        after_idle(vn, from);
        if (nxs()->irq && nxs()->irq_msg) /* the arrival's interrupt */
            mcei_stolen_until(vn, vn->busy_until);
    }
    m = probe_find(vn, &a);
    mcei_charge_comm(vn, nxs()->probe_cost);
    if (m == NULL) {
        *found = 0;
        return MCE_OK;
    }
    *found = 1;
    fill_info(m, &nd->last);
    if (info != NULL)
        *info = nd->last;
    return MCE_OK;
}

const mcei_nx_info_t *mcei_nx_last(mcei_vn_t *vn)
{
    return &node_of(vn)->last;
}

long mcei_nx_ptype(mcei_vn_t *vn)
{
    return node_of(vn)->ptype;
}

void mcei_nx_set_ptype(mcei_vn_t *vn, long ptype)
{
    node_of(vn)->ptype = ptype;
}

long mcei_nx_masktrap(mcei_vn_t *vn, long state)
{
    nx_node_t *nd = node_of(vn);
    long old = nd->masked;
    nd->masked = state != 0;
    return old;
}

void mcei_nx_run_handlers(mcei_vn_t *vn)
{
    nx_node_t *nd = node_of(vn);
    if (nd->masked || nd->in_handler)
        return;
    while (nd->nhandlers > 0) {
        nx_req_t *r;
        for (r = nd->reqs; r != NULL; r = r->next)
            if (r->handler != NULL && r->done && r->done_at <= vn->clock)
                break;
        if (r == NULL)
            return;
        /* The handler runs in the node's time, like an interrupt. */
        mcei_nx_info_t info = r->info;
        mcei_nx_handler_t h = r->handler;
        int h32 = r->handler32;
        if (r->kind == R_RECV)
            nd->last = info;
        release(nd, r);
        nd->in_handler = 1;
        if (h32)
            ((mcei_nx_handler32_t)(void (*)(void))h)(
                int32_of(info.type), int32_of(info.count), int32_of(info.node),
                int32_of(info.ptype));
        else
            h(info.type, info.count, info.node, info.ptype);
        nd->in_handler = 0;
    }
}

/* ---- plug-in ------------------------------------------------------------ */

static int nx_init(mcei_engine_t *eng, mcei_machine_t *m, char *err,
                   size_t errlen)
{
    nx_state_t *nx = calloc(1, sizeof(*nx));
    int rc;
    if (nx == NULL)
        return MCE_ERR_NOMEM;
    if ((rc = mcei_key_u64(m, "nx.max_posted", &nx->max_posted, err, errlen)) ||
        (rc = mcei_key_u64(m, "nx.os_buffer", &nx->os_buffer, err, errlen)) ||
        (rc = mcei_key_u64(m, "nx.max_requests", &nx->max_reqs, err, errlen)) ||
        (rc = mcei_key_u64(m, "nx.irq", &nx->irq, err, errlen)) ||
        (rc =
             mcei_key_time(m, "nx.irq_period", &nx->irq_period, err, errlen)) ||
        (rc = mcei_key_time(m, "nx.irq_cost", &nx->irq_cost, err, errlen)) ||
        (rc = mcei_key_time(m, "nx.irq_msg", &nx->irq_msg, err, errlen)) ||
        (rc = mcei_key_time(m, "probe_cost", &nx->probe_cost, err, errlen)))
        goto fail;
    /* Interrupts are accounted one by one: a period under 1 us would
     * make a second of virtual time cost over a million steps. */
    if (nx->irq &&
        (nx->irq_period < MCE_US || nx->irq_cost >= nx->irq_period)) {
        snprintf(err, errlen,
                 "machine '%s': nx.irq_period must be at least 1 us and "
                 "nx.irq_cost below it",
                 m->name);
        rc = MCE_ERR_MACHINE;
        goto fail;
    }
    nx->notifies = eng->net.ops->notifies_senders;
    eng->on_sleep = nx_sleep;
    nx->seed = eng->cfg.seed;
    eng->proto_state = nx;
    return MCE_OK;
fail:
    free(nx);
    return rc;
}

static void nx_fini(mcei_engine_t *eng)
{
    free(eng->proto_state);
    eng->proto_state = NULL;
}

static int nx_node_init(mcei_vn_t *vn)
{
    nx_node_t *nd = calloc(1, sizeof(*nd));
    if (nd == NULL)
        return MCE_ERR_NOMEM;
    if (nxs()->irq) {
        /* Each node's interrupts have their own, seeded phase. */
        uint64_t h = mcei_mix64(nxs()->seed, (uint64_t)vn->id);
        nd->irq_next = nd->irq_phase = h % nxs()->irq_period;
    }
    vn->proto = nd;
    return MCE_OK;
}

static void nx_node_fini(mcei_vn_t *vn)
{
    nx_node_t *nd = node_of(vn);
    if (nd == NULL)
        return;
    while (nd->reqs)
        release(nd, nd->reqs);
    free(nd->bucket);
    free(nd);
    vn->proto = NULL;
}

/* NX sends leave at the call (the networks' lookahead already holds the
 * software set-up before the wire). */
static mce_time_t nx_send_delay(const mcei_engine_t *eng)
{
    (void)eng;
    return 0;
}

const mcei_proto_ops_t mcei_proto_nx_ops = {
    .name = "nx",
    .description = "NX message ids, posted and unexpected receives, FORCED "
                   "discard, interrupt noise",
    .init = nx_init,
    .fini = nx_fini,
    .node_init = nx_node_init,
    .node_fini = nx_node_fini,
    .on_arrival = nx_on_arrival,
    .send_delay = nx_send_delay,
    .keys = &mcei_proto_nx_keytab,
    .requires_net = MCEI_ANY_NET,
    .topology = mcei_proto_no_topology,
};
