/* The iPSC/860 network (Seidel and Davis 1992, section 2): a hypercube
 * with circuit switching.  Every transfer holds its source's send port,
 * its destination's receive port and the links of its e-cube route for
 * its whole duration; a transfer that finds any of them busy waits and
 * then takes its full time.  Protocols by message:
 *   short  (<= short_max bytes): one transfer of b_s + a m
 *   forced (MCEI_MSG_FORCED):   one transfer of b_s + a m
 *   long:  PROBE (b_l/2) src->dst, REQUEST (b_l/2) dst->src sent by the
 *          destination's system as soon as the PROBE is in, then the data
 *          (a m) src->dst; b_l is split between PROBE and REQUEST as the
 *          seed's figures do.
 * A user send reaches the ports start_up after the call (the header's
 * software set-up, part of b_s and b_l): that is the model's lookahead.
 * The sender's part of a short-protocol transfer (a short message, a
 * PROBE or a REQUEST) is over when its csend returns, s after the call:
 * its send port is free from then on while the circuit and the receiving
 * port stay held until delivery; data transfers hold the send port to the
 * end.
 * Circuits longer than one hop add hop_setup per extra link.  Senders are
 * told when their send completes: short messages after s + a m, forced
 * and long ones when the data is out.
 * Forward flow control of the system's header buffers (section 2.4, on
 * with ipsc.fc): a short message or a PROBE from x to y takes one of the
 * fc_window buffers y keeps for x; y frees it when the message is
 * delivered and returns one freed buffer to x on the header of each
 * short message or PROBE it sends to x.  A sender with no buffer left is
 * refused: its header goes to y (a REFUSED leg), y's system answers with a
 * RELEASE message carrying the freed buffers, and the sender tries
 * again.  Forced messages, REQUESTs and data bypass it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/heap.h"
#include "../core/net.h"
#include "../core/trace.h"
#include "keys.h"

enum {
    LEG_SHORT,
    LEG_FORCED,
    LEG_PROBE,
    LEG_REQUEST,
    LEG_DATA,
    LEG_REFUSED,
    LEG_RELEASE
}; /* < 7: the event key keeps 7 for sender notices */
enum {
    EV_END = 0,
    EV_SENDFREE = 1,
    EV_SENT = 2,
    EV_REQ = 3
}; /* same-time order */

#define MAXRES 40

typedef struct leg {
    mcei_msg_t *msg;
    int kind, from, to, nres;
    mce_time_t req_time, start, dur, send_hold;
    int send_freed, granted;
    struct leg *retry; /* REFUSED, RELEASE: the leg to try again */
    uint32_t res[MAXRES];
    struct leg *next; /* waiting list */
} leg_t;

/* Events live in a keyed heap, ordered by (time, kind, source node,
 * sequence x 8 + leg kind): k0 = time, k1 = kind << 32 | source, k2 the
 * rest; the item is the leg (EV_END, EV_SENDFREE, EV_REQ) or the message
 * (EV_SENT).  Keys in the entries: no call or load through an item per
 * comparison, no allocation per event. */
#define EV_SEQ_MAX (UINT64_MAX / 8)

typedef struct ipsc {
    mce_time_t a, bs, bl, s, start_up, hop_setup;
    uint64_t short_max;
    int nodes, dim;
    unsigned char *busy; /* resources: ports then links */
    mcei_kheap_t events;
    leg_t *waiting; /* by (request time, source, sequence, leg) */
    size_t in_flight;
    /* flow control: credit[x][y] buffers x may still use at y; owed[y][x]
     * buffers y freed for x and has not returned (rows made on demand) */
    uint64_t fc, fc_window;
    uint32_t **credit, **owed;
} ipsc_t;

static int push_event(ipsc_t *st, mce_time_t t, int kind, leg_t *leg,
                      mcei_msg_t *msg)
{
    const mcei_msg_t *m = leg ? leg->msg : msg;
    if (m->w.seq > EV_SEQ_MAX)
        return MCE_ERR_OVERFLOW;
    return mcei_kheap_push(&st->events, t,
                           (uint64_t)kind << 32 | (uint64_t)(uint32_t)m->w.src,
                           m->w.seq * 8 + (leg ? (uint64_t)leg->kind : 7),
                           leg ? (void *)leg : (void *)msg);
}

static int ev_kind(const mcei_kentry_t *e)
{
    return (int)(e->k1 >> 32);
}

static uint32_t send_port(int node)
{
    return 2u * (uint32_t)node;
}

static uint32_t recv_port(int node)
{
    return 2u * (uint32_t)node + 1;
}

static uint32_t link_res(const ipsc_t *st, int node, int d)
{
    return 2u * (uint32_t)st->nodes + (uint32_t)node * (uint32_t)st->dim +
           (uint32_t)d;
}

static uint32_t *fc_row(ipsc_t *st, uint32_t **rows, int node, uint32_t init)
{
    if (rows[node] == NULL) {
        uint32_t *r = malloc((size_t)st->nodes * sizeof(*r));
        if (r == NULL)
            return NULL;
        for (int i = 0; i < st->nodes; i++)
            r[i] = init;
        rows[node] = r;
    }
    return rows[node];
}

/* Legs that pass through the header buffers (section 2.4: "the short
 * message protocol and the PROBE message of the long message protocol
 * consume flow control buffers"). */
static int fc_leg(const ipsc_t *st, const leg_t *l)
{
    return st->fc && (l->kind == LEG_SHORT || l->kind == LEG_PROBE);
}

static leg_t *leg_new(ipsc_t *st, mcei_msg_t *m, int kind, int from, int to,
                      mce_time_t dur)
{
    leg_t *l = calloc(1, sizeof(*l));
    int hops = 0, at = from;
    if (l == NULL)
        return NULL;
    l->msg = m;
    l->kind = kind;
    l->from = from;
    l->to = to;
    l->res[l->nres++] = send_port(from);
    l->res[l->nres++] = recv_port(to);
    /* e-cube route: lowest differing dimension first */
    for (int d = 0; d < st->dim; d++) {
        if (((from ^ to) >> d) & 1) {
            l->res[l->nres++] = link_res(st, at, d);
            at ^= 1 << d;
            hops++;
        }
    }
    l->dur = dur + (hops > 1 ? (mce_time_t)(hops - 1) * st->hop_setup : 0);
    l->send_hold = l->dur;
    if (kind == LEG_SHORT || kind == LEG_PROBE || kind == LEG_REQUEST ||
        kind == LEG_REFUSED || kind == LEG_RELEASE) {
        /* held while the sender pushes the message out: until its csend
         * returns (s after the call, plus a m for the bytes) */
        mce_time_t h =
            st->s - st->start_up + (kind == LEG_SHORT ? m->w.size * st->a : 0);
        if (h < l->send_hold)
            l->send_hold = h;
    }
    return l;
}

/* Arbitration among simultaneous requests depends on where the legs go,
 * never on how many messages a node sent before (sequence numbers). */
static int leg_less(const leg_t *a, const leg_t *b)
{
    if (a->req_time != b->req_time)
        return a->req_time < b->req_time;
    if (a->from != b->from)
        return a->from < b->from;
    if (a->to != b->to)
        return a->to < b->to;
    if (a->kind != b->kind)
        return a->kind < b->kind;
    if (a->msg->w.src != b->msg->w.src)
        return a->msg->w.src < b->msg->w.src;
    return a->msg->w.seq < b->msg->w.seq;
}

static int all_free(const ipsc_t *st, const leg_t *l)
{
    for (int i = 0; i < l->nres; i++)
        if (st->busy[l->res[i]])
            return 0;
    return 1;
}

/* A leg's circuit on the trace: the sender's port for as long as the
 * leg holds it, the receiver's port for the whole leg, with the leg's
 * kind, ends, bytes, hops and how long it waited for its resources. */
static void trace_leg(const ipsc_t *st, const leg_t *l, mce_time_t now)
{
    static const char *const kinds[] = {"short", "forced",  "PROBE",  "REQUEST",
                                        "data",  "REFUSED", "RELEASE"};
    char args[200];
    const char *k = l->kind >= 0 && l->kind < 7 ? kinds[l->kind] : "?";
    snprintf(args, sizeof(args),
             "\"src\":%d,\"dst\":%d,\"bytes\":%" PRIu64
             ",\"hops\":%d,\"waited_ps\":%" PRIu64,
             l->from, l->to,
             l->kind == LEG_DATA || l->kind == LEG_SHORT ||
                     l->kind == LEG_FORCED
                 ? l->msg->w.size
                 : 0,
             l->nres - 2, now - l->req_time);
    (void)st;
    mcei_trace_net("send port", l->from, k, now,
                   now + (l->send_hold < l->dur ? l->send_hold : l->dur), args);
    mcei_trace_net("receive port", l->to, k, now, now + l->dur, args);
}

/* Start every waiting leg whose resources are all free, oldest first. */
static int try_start(ipsc_t *st, mce_time_t now)
{
    leg_t **pp = &st->waiting;
    while (*pp != NULL) {
        leg_t *l = *pp;
        if (!all_free(st, l)) {
            pp = &l->next;
            continue;
        }
        *pp = l->next;
        for (int i = 0; i < l->nres; i++)
            st->busy[l->res[i]] = 1;
        l->start = now;
        if (mcei_trace_net_on())
            trace_leg(st, l, now);
        if (push_event(st, now + l->dur, EV_END, l, NULL) != MCE_OK)
            return MCE_ERR_NOMEM;
        if (l->send_hold < l->dur &&
            push_event(st, now + l->send_hold, EV_SENDFREE, l, NULL) != MCE_OK)
            return MCE_ERR_NOMEM;
        if (l->kind == LEG_SHORT) {
            /* The sender returns before the message is delivered. */
            mce_time_t ret =
                now + (st->s - st->start_up) + l->msg->w.size * st->a;
            if (push_event(st, ret, EV_SENT, NULL, l->msg) != MCE_OK)
                return MCE_ERR_NOMEM;
        }
    }
    return MCE_OK;
}

static void wait_leg(ipsc_t *st, leg_t *l)
{
    leg_t **pp = &st->waiting;
    while (*pp != NULL && !leg_less(l, *pp))
        pp = &(*pp)->next;
    l->next = *pp;
    *pp = l;
}

static int notify_sender(mcei_net_t *net, const mcei_msg_t *m, mce_time_t t,
                         uint32_t flags)
{
    mcei_wire_t w;
    mcei_msg_t *n;
    memset(&w, 0, sizeof(w));
    w.ts = t;
    w.seq = m->w.seq;
    w.src = m->w.src;
    w.dst = m->w.src;
    w.ctx = MCEI_CTX_PROTOCOL;
    w.type = MCEI_NET_SENT;
    w.flags = flags;
    w.aux[0] = m->w.seq;
    w.aux[1] = m->w.ctx;
    if ((n = mcei_msg_from_wire(&w)) == NULL)
        return MCE_ERR_NOMEM;
    net->deliver(net->deliver_ctx, n, t);
    return MCE_OK;
}

static int request(ipsc_t *st, leg_t *l, mce_time_t t)
{
    l->req_time = t;
    return push_event(st, t, EV_REQ, l, NULL);
}

/* y returns to x buffers it freed for x: all of them on a release
 * message, at most one on the header of a message (so traffic that is
 * balanced message for message never runs out, section 2.4). */
static int fc_return(ipsc_t *st, int y, int x, int all)
{
    uint32_t *cr, k;
    if (st->owed[y] == NULL || st->owed[y][x] == 0)
        return MCE_OK;
    if ((cr = fc_row(st, st->credit, x, (uint32_t)st->fc_window)) == NULL)
        return MCE_ERR_NOMEM;
    k = all ? st->owed[y][x] : 1;
    cr[y] += k;
    st->owed[y][x] -= k;
    return MCE_OK;
}

/* A delivered message that took a buffer frees it at its destination. */
static int fc_free(ipsc_t *st, const mcei_msg_t *m)
{
    uint32_t *ow;
    if (!st->fc || m->w.flags & MCEI_MSG_FORCED)
        return MCE_OK;
    if ((ow = fc_row(st, st->owed, m->w.dst, 0)) == NULL)
        return MCE_ERR_NOMEM;
    ow[m->w.src]++;
    return MCE_OK;
}

/* A requested leg joins the waiting list, unless it needs a header buffer
 * its sender has no more of: then its header is refused. */
static int admit(ipsc_t *st, leg_t *l, mce_time_t t)
{
    uint32_t *cr;
    leg_t *r;
    if (!fc_leg(st, l) || l->granted) {
        wait_leg(st, l);
        return MCE_OK;
    }
    if ((cr = fc_row(st, st->credit, l->from, (uint32_t)st->fc_window)) == NULL)
        return MCE_ERR_NOMEM;
    if (cr[l->to] > 0) {
        cr[l->to]--;
        l->granted = 1;
        wait_leg(st, l);
        return MCE_OK;
    }
    /* The refused header is a null short message. */
    if ((r = leg_new(st, l->msg, LEG_REFUSED, l->from, l->to,
                     st->bs - st->start_up)) == NULL)
        return MCE_ERR_NOMEM;
    r->retry = l;
    r->req_time = t;
    wait_leg(st, r);
    return MCE_OK;
}

static int on_end(mcei_net_t *net, ipsc_t *st, leg_t *l, mce_time_t t)
{
    mcei_msg_t *m = l->msg;
    leg_t *n = NULL;
    int rc = MCE_OK;
    for (int i = 0; i < l->nres; i++)
        if (!(i == 0 && l->send_freed)) /* res[0] is the send port */
            st->busy[l->res[i]] = 0;
    /* A header carries back a buffer its sender freed for its
     * destination. */
    if (fc_leg(st, l) && (rc = fc_return(st, l->from, l->to, 0)) != MCE_OK)
        return rc;
    switch (l->kind) {
    case LEG_REFUSED:
        /* The destination's system tells the sender what it has freed. */
        n = leg_new(st, m, LEG_RELEASE, l->to, l->from, st->bs - st->start_up);
        if (n == NULL)
            return MCE_ERR_NOMEM;
        n->retry = l->retry;
        rc = request(st, n, t);
        break;
    case LEG_RELEASE:
        if ((rc = fc_return(st, l->from, l->to, 1)) == MCE_OK)
            rc = request(st, l->retry, t);
        break;
    case LEG_PROBE:
        /* The destination's system answers at once. */
        n = leg_new(st, m, LEG_REQUEST, l->to, l->from, st->bl / 2);
        rc = n ? request(st, n, t) : MCE_ERR_NOMEM;
        break;
    case LEG_REQUEST:
        n = leg_new(st, m, LEG_DATA, l->to, l->from, m->w.size * st->a);
        rc = n ? request(st, n, t) : MCE_ERR_NOMEM;
        break;
    case LEG_DATA:
    case LEG_FORCED:
        st->in_flight--;
        if ((rc = fc_free(st, m)) == MCE_OK &&
            (rc = notify_sender(net, m, t, 0)) == MCE_OK)
            net->deliver(net->deliver_ctx, m, t);
        break;
    case LEG_SHORT:
        st->in_flight--;
        if ((rc = fc_free(st, m)) == MCE_OK)
            net->deliver(net->deliver_ctx, m, t);
        break;
    }
    free(l);
    return rc;
}

static int ipsc_init(mcei_net_t *net, mcei_machine_t *m, char *err,
                     size_t errlen)
{
    ipsc_t *st = calloc(1, sizeof(*st));
    int rc;
    if (st == NULL)
        return MCE_ERR_NOMEM;
    if ((rc = mcei_key_time(m, "ipsc.a", &st->a, err, errlen)) ||
        (rc = mcei_key_time(m, "ipsc.b_l", &st->bl, err, errlen)) ||
        (rc = mcei_key_time(m, "ipsc.b_s", &st->bs, err, errlen)) ||
        (rc = mcei_key_time(m, "ipsc.s", &st->s, err, errlen)) ||
        (rc = mcei_key_time(m, "ipsc.start_up", &st->start_up, err, errlen)) ||
        (rc =
             mcei_key_time(m, "ipsc.hop_setup", &st->hop_setup, err, errlen)) ||
        (rc = mcei_key_u64(m, "ipsc.short_max", &st->short_max, err, errlen)) ||
        (rc = mcei_key_u64(m, "ipsc.fc", &st->fc, err, errlen)) ||
        (rc = mcei_key_u64(m, "ipsc.fc_window", &st->fc_window, err, errlen)))
        goto fail;
    if (st->fc && (st->fc_window == 0 || st->fc_window > 0xffff)) {
        snprintf(err, errlen,
                 "machine '%s': ipsc.fc = 1 needs ipsc.fc_window in 1 .. 65535 "
                 "(buffers per sender)",
                 m->name);
        rc = MCE_ERR_MACHINE;
        goto fail;
    }
    if (st->start_up == 0 || st->start_up >= st->s || st->s > st->bs ||
        st->start_up >= st->bl / 2) {
        snprintf(err, errlen,
                 "machine '%s': need 0 < ipsc.start_up < ipsc.s <= ipsc.b_s "
                 "and start_up < b_l/2",
                 m->name);
        rc = MCE_ERR_MACHINE;
        goto fail;
    }
    if (net->nodes & (net->nodes - 1)) {
        snprintf(err, errlen,
                 "machine '%s' is a hypercube: the node count must be a power "
                 "of two, not %d",
                 m->name, net->nodes);
        rc = MCE_ERR_CONFIG;
        goto fail;
    }
    st->nodes = net->nodes;
    st->dim = __builtin_ctz((unsigned)net->nodes);
    if (st->dim + 2 > MAXRES) {
        snprintf(err, errlen, "machine '%s': at most 2^%d nodes", m->name,
                 MAXRES - 2);
        rc = MCE_ERR_CONFIG;
        goto fail;
    }
    st->busy = calloc((size_t)st->nodes * (2 + (size_t)st->dim), 1);
    st->credit = calloc((size_t)st->nodes, sizeof(*st->credit));
    st->owed = calloc((size_t)st->nodes, sizeof(*st->owed));
    if (st->busy == NULL || st->credit == NULL || st->owed == NULL) {
        free(st->busy);
        free(st->credit);
        free(st->owed);
        rc = MCE_ERR_NOMEM;
        goto fail;
    }
    mcei_kheap_init(&st->events);
    net->priv = st;
    return MCE_OK;
fail:
    free(st);
    return rc;
}

static void ipsc_fini(mcei_net_t *net)
{
    ipsc_t *st = net->priv;
    if (st == NULL)
        return;
    for (size_t i = 0; i < st->events.count; i++) {
        const mcei_kentry_t *e = &st->events.e[i];
        if (ev_kind(e) == EV_END || ev_kind(e) == EV_REQ) {
            leg_t *l = e->item;
            free(l->retry);
            free(l);
        }
    }
    while (st->waiting) {
        leg_t *l = st->waiting;
        st->waiting = l->next;
        free(l->retry);
        free(l);
    }
    mcei_kheap_fini(&st->events);
    for (int i = 0; i < st->nodes; i++) {
        free(st->credit[i]);
        free(st->owed[i]);
    }
    free(st->credit);
    free(st->owed);
    free(st->busy);
    free(st);
    net->priv = NULL;
}

static mce_time_t ipsc_lookahead(const mcei_net_t *net)
{
    const ipsc_t *st = net->priv;
    return st->start_up;
}

static int ipsc_inject(mcei_net_t *net, mcei_msg_t *m)
{
    ipsc_t *st = net->priv;
    mce_time_t t = m->w.ts + st->start_up;
    leg_t *l;
    if (m->w.dst < 0 || m->w.dst >= st->nodes)
        return MCE_ERR_NODE;
    if (m->w.flags & MCEI_MSG_FORCED)
        l = leg_new(st, m, LEG_FORCED, m->w.src, m->w.dst,
                    st->bs - st->start_up + m->w.size * st->a);
    else if (m->w.size <= st->short_max)
        l = leg_new(st, m, LEG_SHORT, m->w.src, m->w.dst,
                    st->bs - st->start_up + m->w.size * st->a);
    else
        l = leg_new(st, m, LEG_PROBE, m->w.src, m->w.dst,
                    st->bl / 2 - st->start_up);
    if (l == NULL)
        return MCE_ERR_NOMEM;
    st->in_flight++;
    return request(st, l, t);
}

static mce_time_t ipsc_next_event(const mcei_net_t *net)
{
    const ipsc_t *st = net->priv;
    const mcei_kentry_t *e = mcei_kheap_top(&st->events);
    return e ? e->k0 : MCEI_TIME_INF;
}

static int ipsc_advance(mcei_net_t *net, mce_time_t horizon)
{
    ipsc_t *st = net->priv;
    const mcei_kentry_t *top;
    int rc = MCE_OK;
    while (rc == MCE_OK && (top = mcei_kheap_top(&st->events)) != NULL &&
           top->k0 < horizon) {
        mcei_kentry_t e = *top; /* handlers push: the heap may move */
        leg_t *l = e.item;
        mcei_kheap_pop(&st->events);
        switch (ev_kind(&e)) {
        case EV_END:
            rc = on_end(net, st, l, e.k0);
            break;
        case EV_SENT:
            /* A short csend is the sender's own work from call to
             * return. */
            rc = notify_sender(net, e.item, e.k0, MCEI_MSG_SENDER_CPU);
            break;
        case EV_SENDFREE:
            st->busy[l->res[0]] = 0;
            l->send_freed = 1;
            break;
        case EV_REQ:
            rc = admit(st, l, e.k0);
            break;
        }
        if (rc == MCE_OK)
            rc = try_start(st, e.k0);
    }
    return rc;
}

static size_t ipsc_in_flight(const mcei_net_t *net)
{
    const ipsc_t *st = net->priv;
    return st->in_flight;
}

/* Nodes whose ids differ in one bit share a channel. */
static void ipsc_topology(const mcei_net_t *net, mcei_topo_t *out)
{
    (void)net;
    memset(out, 0, sizeof(*out));
    out->kind = MCEI_TOPO_HYPERCUBE;
}

const mcei_net_ops_t mcei_net_ipsc_ops = {
    .name = "ipsc",
    .description = "iPSC/860 hypercube: circuit switching, one send and one "
                   "receive port per node, short/long/forced protocols",
    .init = ipsc_init,
    .fini = ipsc_fini,
    .lookahead = ipsc_lookahead,
    .inject = ipsc_inject,
    .next_event = ipsc_next_event,
    .advance = ipsc_advance,
    .in_flight = ipsc_in_flight,
    .notifies_senders = 1,
    .first_event = mcei_net_first_event_lookahead,
    .keys = &mcei_net_ipsc_keytab,
    .topology = ipsc_topology,
    .commit = mcei_net_commit_none,
};
