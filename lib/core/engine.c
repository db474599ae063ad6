/* The virtual-time engine.
 *
 * Conservative windows: T is the earliest next action of any node or the
 * network; every node may act while its clock is below H = T + L (L the
 * model's lookahead), because nothing sent at or after T can affect
 * anything before H.  Within a window nodes never interact, so the order
 * they run in cannot change any timestamp.  At the window's end every
 * rank learns every injection, feeds the replicated network model in
 * (time, source, sequence) order and the model delivers arrivals before
 * the next horizon.  A single rank makes no MPI call at all. */
#define _GNU_SOURCE 1
#include "engine.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "hwinfo.h"
#include "privatize.h"
#include "stats.h"
#include "trace.h"
#include "transport.h"

mcei_engine_t *mcei_eng;
static mcei_engine_t engine_storage;

/* Defined (weak, one copy) by every object that tools/mce-cov instrumented
 * (mcecc/mcef77 -mce-compute=counted): the address of the program's
 * thread-local operation counters.  Absent: the program is not
 * instrumented. */
extern uint64_t *mce_cov_acc_addr(void) __attribute__((weak));

/* ---- queues -------------------------------------------------------------- */

void mcei_msgq_push(mcei_msgq_t *q, mcei_msg_t *m)
{
    m->next = NULL;
    m->prev = q->tail;
    if (q->tail)
        q->tail->next = m;
    else
        q->head = m;
    q->tail = m;
    q->count++;
}

void mcei_msgq_remove(mcei_msgq_t *q, mcei_msg_t *m)
{
    if (m->prev)
        m->prev->next = m->next;
    else
        q->head = m->next;
    if (m->next)
        m->next->prev = m->prev;
    else
        q->tail = m->prev;
    m->prev = m->next = NULL;
    q->count--;
}

/* ---- messages ------------------------------------------------------------ */

static mcei_msg_t *msg_alloc(mcei_engine_t *eng)
{
    mcei_msg_t *m = eng->free_msgs;
    if (m != NULL) {
        eng->free_msgs = m->next;
    } else if ((m = malloc(sizeof(*m))) == NULL) {
        return NULL;
    }
    memset(m, 0, offsetof(mcei_msg_t, w.data));
    m->arrival = 0;
    m->payload = NULL;
    m->raddr = 0;
    m->rrank = 0;
    m->unread_slot = 0;
    m->prev = m->next = NULL;
    m->net_state = NULL;
    m->cookie = NULL;
    return m;
}

/* A message holding a copy of @p size bytes of @p buf (inline when small). */
static mcei_msg_t *msg_with_payload(mcei_engine_t *eng, const void *buf,
                                    size_t size)
{
    mcei_msg_t *m = msg_alloc(eng);
    if (m == NULL)
        return NULL;
    if (size > MCEI_INLINE) {
        if ((m->payload = malloc(size)) == NULL) {
            mcei_msg_release(m);
            return NULL;
        }
        memcpy(m->payload, buf, size);
    } else if (size > 0) {
        memcpy(m->w.data, buf, size);
    }
    return m;
}

void mcei_msg_release(mcei_msg_t *m)
{
    if (m->unread_slot != 0) { /* consumed unread, or read straight */
        mcei_eng->unread[m->unread_slot - 1] = NULL;
        m->unread_slot = 0;
    }
    m->raddr = 0;
    free(m->payload);
    m->payload = NULL;
    m->next = mcei_eng->free_msgs;
    mcei_eng->free_msgs = m;
}

const void *mcei_msg_fetch(mcei_msg_t *m)
{
    int rc = mcei_transport_fetch(m);
    if (rc != MCE_OK)
        mcei_fatal("cannot read a %" PRIu64
                   "-byte payload from rank %d's memory: %s",
                   (uint64_t)m->w.size, (int)m->rrank, mce_strerror(rc));
    return m->payload;
}

void mcei_msg_copy(const mcei_msg_t *m, void *dst, size_t n)
{
    if (n == 0)
        return;
    /* A refused read (a bad buffer: EFAULT) falls back to the copy, which
     * then fails as it would in one process. */
    if (m->w.size > MCEI_INLINE && m->raddr != 0 &&
        mcei_transport_read(m, dst, n) == MCE_OK)
        return;
    memcpy(dst, mcei_msg_data(m), n);
}

/* Before the window exchange: read what the nodes did not take straight
 * (unexpected messages, arrivals a busy node has not processed yet). */
static void read_unread(mcei_engine_t *eng)
{
    for (size_t i = 0; i < eng->nunread; i++) {
        mcei_msg_t *m = eng->unread[i];
        if (m == NULL)
            continue;
        m->unread_slot = 0;
        if (m->raddr != 0)
            (void)mcei_msg_fetch(m);
    }
    eng->nunread = 0;
}

/* A descriptor-only message (remote injections, model notifications). */
mcei_msg_t *mcei_msg_from_wire(const mcei_wire_t *w)
{
    mcei_msg_t *m = msg_alloc(mcei_eng);
    if (m != NULL)
        m->w = *w;
    return m;
}

/* ---- run queue ----------------------------------------------------------- */

/* Ordered by (clock at queueing time, node): protocol handlers may later
 * push a queued node's clock forward, which only makes the key
 * conservative (earlier), never wrong. */
static void runq_push(mcei_engine_t *eng, mcei_vn_t *vn)
{
    if (vn->in_runq)
        return;
    if (vn->clock >= eng->horizon && vn->clock < vn->ahead) {
        /* woken by a committed delivery: runs in this window */
        eng->aheadq[eng->naheadq++] = vn->local;
        vn->in_runq = 1;
        return;
    }
    vn->runq_key = vn->clock;
    if (mcei_runq_push(&eng->runq, vn->clock, (uint32_t)vn->id,
                       (uint32_t)vn->local) != MCE_OK)
        mcei_fatal("out of memory in the scheduler");
    vn->in_runq = 1;
}

/* How far @p vn may run in this window: the horizon, or beyond it up to
 * the limit of the committed deliveries it was handed. */
static mce_time_t vn_horizon(const mcei_engine_t *eng, const mcei_vn_t *vn)
{
    return mcei_time_max(eng->horizon, vn->ahead);
}

/* ---- arrivals in node time ----------------------------------------------- */

static void process_arrival(mcei_engine_t *eng, mcei_vn_t *vn, mcei_msg_t *m)
{
    mcei_msgq_remove(&vn->arrivals, m);
    eng->proto->on_arrival(vn, m);
}

/* Process every pending arrival at or before the node's clock. */
static void process_until_clock(mcei_engine_t *eng, mcei_vn_t *vn)
{
    while (vn->arrivals.head && vn->arrivals.head->arrival <= vn->clock)
        process_arrival(eng, vn, vn->arrivals.head);
}

static void acct_add(mcei_vn_t *vn, mce_time_t *counter, mce_time_t t);

/* The end of a block at @p at: the clock, the time waited, runnable. */
static void unblock(mcei_engine_t *eng, mcei_vn_t *vn, mce_time_t at)
{
    mce_time_t c = mcei_time_max(mcei_time_max(vn->clock, at), vn->busy_until);
    /* The time blocked, less what protocol handlers used meanwhile (that
     * is counted as stolen), was idle waiting. */
    mce_time_t blocked = c - vn->clock;
    mce_time_t handlers = vn->t_stolen - vn->stolen_mark;
    /* A handler that began before the node blocked (an NX arrival
     * interrupt runs in the message's last microseconds) is counted only
     * for the part the node spent blocked: the sum stays the clock. */
    if (handlers > blocked) {
        vn->t_stolen -= handlers - blocked;
        handlers = blocked;
    }
    vn->clock = c;
    acct_add(vn, &vn->t_wait, blocked - handlers);
    if (vn->state == MCEI_VN_BLOCKED)
        eng->nblocked--;
    vn->state = MCEI_VN_RUNNABLE;
}

static void wake(mcei_engine_t *eng, mcei_vn_t *vn, mce_time_t at)
{
    unblock(eng, vn, at);
    runq_push(eng, vn);
}

static void vn_of(mcei_engine_t *eng, int node, mcei_vn_t **out)
{
    int32_t i = eng->local_of[node]; /* a table: no division per message */
    *out = i < 0 ? NULL : &eng->vns[i];
}

static void accept_arrival(mcei_engine_t *eng, mcei_vn_t *vn, mcei_msg_t *m);
static void settle(mcei_engine_t *eng, mcei_vn_t *vn);

/* Network model delivery callback (scheduler context). */
static void deliver(void *ctx, mcei_msg_t *m, mce_time_t arrival)
{
    mcei_engine_t *eng = ctx;
    mcei_vn_t *vn;
    uint64_t h;

    eng->delivered_all++;
    vn_of(eng, m->w.dst, &vn);
    if (vn == NULL) {
        if (eng->rank_got != NULL)
            eng->rank_got[mcei_place_rank_of(&eng->place, m->w.dst)] = 1;
        /* Our node's payload stays until that rank has read it. */
        mcei_transport_retire(eng, m);
        mcei_msg_release(m); /* another rank's node: it accounts for it */
        return;
    }
    if (eng->rank_got != NULL)
        eng->rank_got[eng->rank] = 1;
    if (m->raddr != 0) { /* read by its consumer, or before the exchange */
        if (eng->nunread == eng->unread_cap) {
            size_t nc;
            if (eng->unread_cap >= (size_t)INT32_MAX / 2)
                mcei_vn_fatal(vn, "too many unread payloads");
            nc = eng->unread_cap ? 2 * eng->unread_cap : 64;
            mcei_msg_t **u = realloc(eng->unread, nc * sizeof(*u));
            if (u == NULL)
                mcei_vn_fatal(vn, "out of memory");
            eng->unread = u;
            eng->unread_cap = nc;
        }
        eng->unread[eng->nunread++] = m;
        m->unread_slot = (int32_t)eng->nunread;
    }
    m->arrival = arrival;
    h = vn->digest;
    h = mcei_mix64(h, (uint64_t)m->w.src);
    h = mcei_mix64(h, m->w.seq);
    h = mcei_mix64(h, m->w.ts);
    h = mcei_mix64(h, arrival);
    h = mcei_mix64(h, m->w.size);
    vn->digest = h;
    eng->msgs_total++;

    accept_arrival(eng, vn, m);
}

/* A delivery the model committed before its time (ops->commit): the node
 * may run on to @p until, before which nothing else reaches it. */
static void deliver_committed(void *ctx, mcei_msg_t *m, mce_time_t arrival,
                              mce_time_t until)
{
    mcei_engine_t *eng = ctx;
    mcei_vn_t *vn;
    vn_of(eng, m->w.dst, &vn);
    if (vn != NULL && until > vn->ahead)
        vn->ahead = until;
    deliver(ctx, m, arrival);
}

/* Queue an arrival (or timer) in (time, source, sequence) order and
 * process it at once when the node's state allows. */
static void accept_arrival(mcei_engine_t *eng, mcei_vn_t *vn, mcei_msg_t *m)
{
    mce_time_t arrival = m->arrival;
    mcei_msg_t *after = vn->arrivals.tail;
    while (after != NULL &&
           mcei_order_less(arrival, &m->w, after->arrival, &after->w))
        after = after->prev;
    if (after == vn->arrivals.tail) {
        mcei_msgq_push(&vn->arrivals, m);
    } else {
        mcei_msg_t *next = after ? after->next : vn->arrivals.head;
        m->prev = after;
        m->next = next;
        next->prev = m;
        if (after)
            after->next = m;
        else
            vn->arrivals.head = m;
        vn->arrivals.count++;
    }
    if (eng->staging) {
        if (!vn->staged) {
            vn->staged = 1;
            eng->staged_nodes[eng->nstaged++] = vn->local;
        }
        return;
    }
    /* A node's state only changes when it acts, so an arrival no later than
     * its clock (or any arrival while it is blocked or finished) can be
     * processed now with exactly the state it had at the arrival time. */
    if (vn->arrivals.head != m)
        return;
    settle(eng, vn);
}

/* After staging: process a node's arrivals as accept_arrival would have,
 * in (time, source, sequence) order. */
static void settle(mcei_engine_t *eng, mcei_vn_t *vn)
{
    mcei_msg_t *m;
    while ((m = vn->arrivals.head) != NULL) {
        mce_time_t arrival = m->arrival;
        if (vn->state == MCEI_VN_BLOCKED) {
            process_arrival(eng, vn, m);
            if (vn->state == MCEI_VN_BLOCKED && vn->ready(vn, vn->ready_arg))
                wake(eng, vn, arrival);
        } else if (vn->state == MCEI_VN_DONE || arrival <= vn->clock) {
            process_arrival(eng, vn, m);
        } else {
            break;
        }
    }
}

static int timer_less(const void *a, const void *b)
{
    const mcei_msg_t *x = a, *y = b;
    return mcei_order_less(x->arrival, &x->w, y->arrival, &y->w);
}

int mcei_timer_at(mcei_vn_t *vn, mce_time_t t, int64_t kind,
                  const uint64_t aux[2], void *cookie, const void *buf,
                  size_t size)
{
    mcei_engine_t *eng = mcei_eng;
    mcei_msg_t *m;
    if (t < eng->window_start)
        mcei_vn_fatal(vn,
                      "protocol timer at %" PRIu64 " ps, before the "
                      "window start %" PRIu64 " ps (causality)",
                      t, eng->window_start);
    if ((m = msg_with_payload(eng, buf, size)) == NULL)
        return MCE_ERR_NOMEM;
    m->w.size = size;
    m->w.ts = t;
    m->w.seq = vn->timer_seq++;
    m->w.type = kind;
    m->w.src = m->w.dst = vn->id;
    m->w.ctx = MCEI_CTX_TIMER;
    if (aux != NULL) {
        m->w.aux[0] = aux[0];
        m->w.aux[1] = aux[1];
    }
    m->arrival = t;
    m->cookie = cookie;
    /* Before the horizon (the node's) it belongs to this window's
     * node-time order. */
    if (t < vn_horizon(eng, vn)) {
        accept_arrival(eng, vn, m);
        return MCE_OK;
    }
    return mcei_heap_push(&eng->timers, m);
}

void mcei_vn_memory(mcei_vn_t *vn)
{
    mcei_priv_switch((size_t)vn->local);
}

/* Ranges a node remembers at most: beyond, the two closest merge and the
 * gap between them counts as mapped (pages there that a receive uses
 * fault in at the delivery instead).  With room for 16, a node receiving
 * into the slices of one array in a schedule's order (the complete
 * exchange on 16 x 16) kept many apart until the gaps filled, and every
 * receive beyond the 16 asked the kernel again: 178,000 madvise calls in
 * complete_exchange.sh's 16 x 16 runs. */
#define MCEI_PREFAULT_RANGES 256

void mcei_vn_prefault(mcei_vn_t *vn, void *buf, size_t n)
{
#ifdef MADV_POPULATE_WRITE
    mcei_engine_t *eng = mcei_eng;
    size_t ps = mcei_fiber_page_size();
    uintptr_t a, e;
    if (eng->prefault_off || n < 2 * ps || n > UINTPTR_MAX - ps ||
        (uintptr_t)buf > UINTPTR_MAX - ps - n)
        return;
    a = (uintptr_t)buf & ~(uintptr_t)(ps - 1);
    e = ((uintptr_t)buf + n + ps - 1) & ~(uintptr_t)(ps - 1);
    /* A range seen before stays mapped unless the program unmapped it
     * since: then its first touches come at the delivery, as without
     * this. */
    if (mcei_ranges_seen(&vn->prefaulted, a, e, MCEI_PREFAULT_RANGES))
        return;
    /* Kernels before 5.14 do not know the advice: asked once.  Other
     * failures (memory that cannot be written) are the receive's to
     * report when it copies. */
    if (madvise((void *)a, e - a, MADV_POPULATE_WRITE) != 0 && errno == EINVAL)
        eng->prefault_off = 1;
#else
    (void)vn;
    (void)buf;
    (void)n;
#endif
}

mce_time_t mcei_vn_steal(mcei_vn_t *vn, mce_time_t at, mce_time_t dur)
{
    mce_time_t start = mcei_time_max(at, vn->busy_until), end;
    if (mcei_time_add(start, dur, &end) != MCE_OK)
        mcei_vn_fatal(vn, "virtual clock overflow in a protocol handler");
    vn->busy_until = end;
    /* A program that was computing at that time is delayed by it; a
     * blocked one waits less; a finished one has no time left to lose. */
    if (vn->state == MCEI_VN_RUNNABLE && vn->clock >= at)
        mcei_charge_stolen(vn, dur);
    else if (vn->state == MCEI_VN_BLOCKED)
        mcei_note_stolen_blocked(vn, dur);
    return end;
}

/* ---- node services ------------------------------------------------------- */

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The operations the running node's code counted since the last take
 * become the node's.  Nodes are fibers of one thread, so the counters
 * hold only the code of the node that ran since then. */
static void cov_take(mcei_engine_t *eng, mcei_vn_t *vn)
{
    uint64_t *acc = eng->cov_acc;
    for (int c = 0; c < MCEI_COV_N; c++) {
        vn->cov[c] += acc[c]; /* 2^64 operations: never reached */
        acc[c] = 0;
    }
}

/* Counted mode: the node's clock has all its operations so far, each
 * class at the machine's cycles per operation.  The total is recomputed
 * from the counts and only its growth charged, so the sum does not depend
 * on where the node's calls cut its code. */
static void charge_counted(mcei_engine_t *eng, mcei_vn_t *vn)
{
    unsigned __int128 cyc = 0, ps;
    for (int c = 0; c < MCEI_COV_N; c++) /* < 2^64 x 2^30 each */
        cyc += (unsigned __int128)vn->cov[c] * eng->costs.cpi_micro[c];
    if (__builtin_mul_overflow(cyc, (unsigned __int128)eng->costs.cycle_time,
                               &ps) ||
        (ps /= 1000000u) >= MCEI_TIME_INF)
        mcei_vn_fatal(vn, "virtual clock overflow in counted compute time");
    if (ps > vn->cov_charged) {
        mcei_charge_compute(vn, (mce_time_t)ps - vn->cov_charged);
        vn->cov_charged = (mce_time_t)ps;
    }
}

mcei_vn_t *mcei_enter(void)
{
    mcei_engine_t *eng = mcei_eng;
    mcei_vn_t *vn;
    if (eng == NULL || (vn = eng->current) == NULL)
        return NULL;
    if (eng->cov_acc != NULL) {
        cov_take(eng, vn);
        if (eng->cfg.compute == MCE_COMPUTE_COUNTED)
            charge_counted(eng, vn);
    }
    if (eng->cfg.compute == MCE_COMPUTE_MEASURED && vn->cpu_mark != 0) {
        uint64_t now = thread_cpu_ns(), ns = now - vn->cpu_mark;
        /* host ns x 1000 ps/ns x machine/host ratio */
        unsigned __int128 ps = (unsigned __int128)ns * 1000u *
                               eng->costs.cpu_scale_micro / 1000000u;
        if (ps >= MCEI_TIME_INF)
            mcei_vn_fatal(vn,
                          "virtual clock overflow in measured compute time");
        mcei_charge_compute(vn, (mce_time_t)ps);
        vn->cpu_mark = 0;
    }
    return vn;
}

void mcei_api_begin(mcei_vn_t *vn, const char *call)
{
    if (vn->api_call == NULL) {
        vn->api_call = call;
        vn->api_t0 = vn->clock;
        vn->api_args = 0;
    }
}

void mcei_api_args(mcei_vn_t *vn, unsigned which, int64_t bytes, int64_t peer,
                   int64_t type)
{
    vn->api_args = which;
    vn->api_bytes = bytes;
    vn->api_peer = peer;
    vn->api_type = type;
}

void mcei_leave(mcei_vn_t *vn)
{
    if (vn->api_call != NULL) {
        mcei_trace_span(vn, vn->api_call, vn->api_t0, vn->clock);
        vn->api_call = NULL;
    }
    mcei_trace_flows_end(vn, vn->clock);
    if (mcei_eng->cfg.compute == MCE_COMPUTE_MEASURED)
        vn->cpu_mark = thread_cpu_ns();
}

void mcei_charge(mcei_vn_t *vn, mce_time_t t)
{
    mce_time_t c;
    if (mcei_time_add(vn->clock, t, &c) != MCE_OK)
        mcei_vn_fatal(vn,
                      "virtual clock overflow (clock %" PRIu64 " ps + %" PRIu64
                      " ps)",
                      vn->clock, t);
    vn->clock = c;
}

/* ---- accounting ---------------------------------------------------------- */

/* Counters never exceed the clock they add up to, so only the clock's
 * own overflow needs a message; the check is kept for a broken caller. */
static void acct_add(mcei_vn_t *vn, mce_time_t *counter, mce_time_t t)
{
    mce_time_t v;
    if (mcei_time_add(*counter, t, &v) != MCE_OK)
        mcei_vn_fatal(vn,
                      "statistics overflow (%" PRIu64 " ps + %" PRIu64 " ps)",
                      *counter, t);
    *counter = v;
}

static void charge_to(mcei_vn_t *vn, mce_time_t *counter, mce_time_t t)
{
    mcei_charge(vn, t);
    acct_add(vn, counter, t);
}

void mcei_charge_compute(mcei_vn_t *vn, mce_time_t t)
{
    charge_to(vn, &vn->t_compute, t);
}

void mcei_charge_comm(mcei_vn_t *vn, mce_time_t t)
{
    charge_to(vn, &vn->t_comm, t);
}

void mcei_charge_wait(mcei_vn_t *vn, mce_time_t t)
{
    charge_to(vn, &vn->t_wait, t);
}

void mcei_charge_stolen(mcei_vn_t *vn, mce_time_t t)
{
    charge_to(vn, &vn->t_stolen, t);
}

void mcei_wait_until(mcei_vn_t *vn, mce_time_t t)
{
    if (t > vn->clock)
        mcei_charge_wait(vn, t - vn->clock);
}

void mcei_stolen_until(mcei_vn_t *vn, mce_time_t t)
{
    if (t > vn->clock)
        mcei_charge_stolen(vn, t - vn->clock);
}

void mcei_note_stolen_blocked(mcei_vn_t *vn, mce_time_t t)
{
    acct_add(vn, &vn->t_stolen, t);
}

void mcei_count_sent(mcei_vn_t *vn, uint64_t bytes)
{
    vn->nsent++;
    vn->bytes_sent += bytes; /* 2^64 bytes: never reached */
}

void mcei_count_recv(mcei_vn_t *vn, uint64_t bytes)
{
    vn->nrecv++;
    vn->bytes_recv += bytes;
}

static void yield(mcei_engine_t *eng, mcei_vn_t *vn)
{
    eng->switches++;
    mcei_fiber_switch(&vn->fiber, &eng->sched);
}

void mcei_sync(mcei_vn_t *vn)
{
    mcei_engine_t *eng = mcei_eng;
    do {
        while (vn->clock >= vn_horizon(eng, vn)) {
            /* Everything delivered so far is before the horizon (ours),
             * hence before our clock: process it with the state of our
             * last action. */
            while (vn->arrivals.head)
                process_arrival(eng, vn, vn->arrivals.head);
            runq_push(eng, vn);
            yield(eng, vn);
        }
        process_until_clock(eng, vn);
        /* A handler may have pushed the clock to the horizon or past it:
         * then arrivals not delivered yet may be due before it. */
    } while (vn->clock >= vn_horizon(eng, vn));
}

void mcei_poll_begin(mcei_vn_t *vn, const char *call)
{
    /* The streak goes on if nothing but stolen time (interrupts) moved the
     * clock and no message went or came since the last poll ended. */
    if (vn->poll_call == NULL || vn->clock - vn->t_stolen != vn->poll_work ||
        vn->nsent + vn->nrecv != vn->poll_msgs)
        vn->poll_since = vn->clock;
    vn->poll_call = call;
    vn->polling = 1;
}

void mcei_poll_end(mcei_vn_t *vn)
{
    vn->polling = 0;
    vn->poll_work = vn->clock - vn->t_stolen;
    vn->poll_msgs = vn->nsent + vn->nrecv;
}

void mcei_free_clock_read(mcei_vn_t *vn, const char *call,
                          void (*charge)(mcei_vn_t *vn, mce_time_t t),
                          mce_time_t cost)
{
    if (vn->clock != vn->now_exit)
        vn->now_repeats = 0;
    else if (vn->now_repeats < 1000)
        vn->now_repeats++;
    if (vn->now_repeats >= 1000) {
        mcei_poll_begin(vn, call);
        mcei_sync(vn);
        charge(vn, cost);
        mcei_poll_end(vn);
    }
    vn->now_exit = vn->clock;
}

static void what_string(const void *arg, char *buf, size_t len)
{
    snprintf(buf, len, "%s", arg != NULL ? (const char *)arg : "?");
}

void mcei_wait_for(mcei_vn_t *vn, mcei_ready_fn ready, void *arg,
                   const char *call, mcei_what_fn what, const void *what_arg)
{
    mcei_engine_t *eng = mcei_eng;
    mcei_msg_t *m;
    mcei_sync(vn);
    if (ready(vn, arg))
        return;
    vn->ready = ready;
    vn->ready_arg = arg;
    vn->wait_call = call;
    vn->wait_what_fn = what;
    vn->wait_what_arg = what_arg;
    vn->wait_since = vn->clock;
    vn->stolen_mark = vn->t_stolen;
    vn->state = MCEI_VN_BLOCKED;
    eng->nblocked++;
    /* Arrivals already queued (later than the clock) are processed as if
     * they came while blocked, as later ones will be: how many are known
     * yet depends on the window, so they must not be treated otherwise. */
    while ((m = vn->arrivals.head) != NULL && vn->state == MCEI_VN_BLOCKED) {
        mce_time_t at = m->arrival;
        process_arrival(eng, vn, m);
        if (ready(vn, arg))
            unblock(eng, vn, at);
    }
    if (vn->state == MCEI_VN_BLOCKED)
        yield(eng, vn); /* until an arrival wakes us (accept_arrival) */
    /* Woken: the handlers of arrivals due by the new clock run before the
     * program goes on, whether they were known at the wake or not. */
    mcei_sync(vn);
    vn->ready = NULL;
    vn->wait_call = NULL;
}

void mcei_wait(mcei_vn_t *vn, mcei_ready_fn ready, void *arg, const char *call,
               const char *what)
{
    mcei_wait_for(vn, ready, arg, call, what_string, what);
}

int mcei_send(mcei_vn_t *vn, int dst, uint32_t ctx, int64_t type,
              const void *buf, size_t size, const uint64_t aux[2],
              mcei_msg_t **out)
{
    return mcei_send_at(vn, vn->clock, dst, ctx, type, buf, size, aux, out);
}

int mcei_send_at(mcei_vn_t *vn, mce_time_t t, int dst, uint32_t ctx,
                 int64_t type, const void *buf, size_t size,
                 const uint64_t aux[2], mcei_msg_t **out)
{
    mcei_engine_t *eng = mcei_eng;
    mcei_msg_t *m;

    if (dst < 0 || dst >= eng->nodes)
        return MCE_ERR_NODE;
    if (size > 0 && buf == NULL)
        return MCE_ERR_INVAL;
    if ((m = msg_with_payload(eng, buf, size)) == NULL)
        return MCE_ERR_NOMEM;
    if (t < eng->window_start)
        mcei_vn_fatal(vn,
                      "protocol sent at %" PRIu64 " ps, before the window "
                      "start %" PRIu64 " ps (causality)",
                      t, eng->window_start);
    if (t - eng->window_start < eng->send_delay)
        mcei_vn_fatal(vn,
                      "protocol '%s' sent at %" PRIu64 " ps, less than its "
                      "declared send delay %" PRIu64 " ps after the window "
                      "start %" PRIu64 " ps (a protocol bug)",
                      eng->proto->name, t, eng->send_delay, eng->window_start);
    m->w.ts = t;
    m->w.seq = vn->send_seq++;
    m->w.size = size;
    m->w.type = type;
    m->w.src = vn->id;
    m->w.dst = dst;
    m->w.ctx = ctx;
    if (aux != NULL) {
        m->w.aux[0] = aux[0];
        m->w.aux[1] = aux[1];
    }
    if (eng->ninj == eng->capinj) {
        size_t ncap = eng->capinj ? 2 * eng->capinj : 1024;
        mcei_msg_t **n = realloc(eng->inj, ncap * sizeof(*n));
        if (n == NULL) {
            mcei_msg_release(m);
            return MCE_ERR_NOMEM;
        }
        eng->inj = n;
        eng->capinj = ncap;
    }
    eng->inj[eng->ninj++] = m;
    if (ctx == MCEI_CTX_USER) { /* the program's own, not protocol traffic */
        mcei_count_sent(vn, size);
        m->w.flags |= MCEI_MSG_FLOW;
        mcei_trace_flow_out(vn, m);
    }
    if (out != NULL)
        *out = m;
    return MCE_OK;
}

static int matches(const mcei_msg_t *m, int src, int64_t type, uint32_t ctx)
{
    return m->w.ctx == ctx && (src < 0 || m->w.src == src) &&
           (type < 0 || m->w.type == type);
}

mcei_msg_t *mcei_match(mcei_vn_t *vn, int src, int64_t type, uint32_t ctx)
{
    for (mcei_msg_t *m = vn->inbox.head; m != NULL; m = m->next)
        if (matches(m, src, type, ctx))
            return m;
    return NULL;
}

void mcei_consume(mcei_vn_t *vn, mcei_msg_t *m)
{
    mcei_msgq_remove(&vn->inbox, m);
    if (m->w.ctx == MCEI_CTX_USER) {
        mcei_count_recv(vn, m->w.size);
        if (m->w.flow != 0) /* carried by a protocol (Vertex) */
            mcei_trace_flow_in(vn, m->w.src, m->w.flow);
        else if (m->w.flags & MCEI_MSG_FLOW)
            mcei_trace_flow_in(vn, m->w.src, m->w.seq);
    }
    mcei_msg_release(m);
}

void mcei_vn_exit(mcei_vn_t *vn, int status)
{
    mcei_engine_t *eng = mcei_eng;
    /* Computation after the node's last call counts too (measured mode). */
    mcei_enter();
    vn->exit_status = status;
    vn->state = MCEI_VN_DONE;
    eng->ndone++;
    /* Pending arrivals are processed (and kept) for the record. */
    while (vn->arrivals.head)
        process_arrival(eng, vn, vn->arrivals.head);
    eng->switches++;
    mcei_fiber_switch(&vn->fiber, &eng->sched);
    abort(); /* a finished node is never resumed */
}

static void vn_vfatal(mcei_vn_t *vn, mce_time_t at, const char *fmt, va_list ap)
    __attribute__((noreturn));
static void vn_vfatal(mcei_vn_t *vn, mce_time_t at, const char *fmt, va_list ap)
{
    char msg[768], t[48];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    mcei_log("node %d at virtual time %s: %s", vn->id,
             mcei_time_format(at, t, sizeof(t)), msg);
    mcei_engine_abort(1);
}

void mcei_vn_fatal(mcei_vn_t *vn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vn_vfatal(vn, vn->clock, fmt, ap);
}

void mcei_vn_fatal_at(mcei_vn_t *vn, mce_time_t t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vn_vfatal(vn, t, fmt, ap);
}

/* ---- signals: stack overflows and crashes name the node ----------------- */

static char altstack[64 * 1024];

/* What the crash report needs, in static memory: a program that corrupts
 * the heap may have overwritten the engine's own structures there. */
static volatile int crash_node = -1; /* the node running now, -1: none */
static volatile int crash_last = -1; /* the node that ran last */
static volatile mce_time_t crash_last_clock; /* its clock when it left */
static volatile sig_atomic_t crashing;

/* The crash path uses only async-signal-safe calls (write, signal, raise):
 * no stdio, no strsignal, which may lock or allocate. */
typedef struct sig_buf {
    char b[512];
    size_t n;
} sig_buf_t;

static void sb_str(sig_buf_t *sb, const char *s)
{
    while (*s && sb->n < sizeof(sb->b) - 1)
        sb->b[sb->n++] = *s++;
}

static void sb_u64(sig_buf_t *sb, uint64_t v, unsigned base, unsigned width)
{
    char d[24];
    unsigned k = 0;
    do {
        d[k++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v != 0 && k < sizeof(d));
    while (k < width && k < sizeof(d))
        d[k++] = '0';
    while (k > 0 && sb->n < sizeof(sb->b) - 1)
        sb->b[sb->n++] = d[--k];
}

/* "12.345678901234 s", as mcei_time_format writes it. */
static void sb_time(sig_buf_t *sb, mce_time_t t)
{
    sb_u64(sb, t / MCE_S, 10, 1);
    sb_str(sb, ".");
    sb_u64(sb, t % MCE_S, 10, 12);
    sb_str(sb, " s");
}

static const char *sig_name(int sig)
{
    switch (sig) {
    case SIGSEGV:
        return "SIGSEGV, segmentation fault";
    case SIGBUS:
        return "SIGBUS, bus error";
    case SIGFPE:
        return "SIGFPE, arithmetic exception";
    case SIGILL:
        return "SIGILL, illegal instruction";
    case SIGABRT:
        return "SIGABRT, aborted";
    default:
        return "?";
    }
}

static void crash_handler(int sig, siginfo_t *si, void *uc)
{
    mcei_engine_t *eng = mcei_eng;
    sig_buf_t sb = {.n = 0};
    (void)uc;
    if (crashing) {
        /* The report itself faulted on the engine's state: the memory is
         * corrupted.  Say so from static memory alone. */
        sb_str(&sb, "mcemu: ");
        if (crash_node >= 0) {
            sb_str(&sb, "node ");
            sb_u64(&sb, (uint64_t)crash_node, 10, 1);
            sb_str(&sb, " crashed and ");
        }
        sb_str(&sb, "the emulator's own state is damaged (signal ");
        sb_u64(&sb, (uint64_t)sig, 10, 1);
        sb_str(&sb, "): the program may have corrupted memory");
        if (crash_node < 0 && crash_last >= 0) {
            sb_str(&sb, "; node ");
            sb_u64(&sb, (uint64_t)crash_last, 10, 1);
            sb_str(&sb, " ran last");
        }
        sb_str(&sb, " (the nodes of one process share its heap: "
                    "--mce-placement=one runs each on its own rank)\n");
        if (write(STDERR_FILENO, sb.b, sb.n) < 0)
            _exit(128 + sig);
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    crashing = 1;
    sb_str(&sb, "mcemu: ");
    if (crash_node >= 0 && eng != NULL && eng->current != NULL) {
        mcei_vn_t *vn = eng->current;
        sb_str(&sb, "node ");
        sb_u64(&sb, (uint64_t)vn->id, 10, 1);
        if ((sig == SIGSEGV || sig == SIGBUS) &&
            mcei_fiber_is_overflow(&vn->fiber, si->si_addr)) {
            sb_str(&sb, " overflowed its ");
            sb_u64(&sb, mcei_fiber_stack_size(&vn->fiber), 10, 1);
            sb_str(&sb, "-byte stack at virtual time ");
            sb_time(&sb, vn->clock);
            sb_str(&sb, " (raise --mce-stack-size)\n");
        } else {
            sb_str(&sb, " crashed with signal ");
            sb_u64(&sb, (uint64_t)sig, 10, 1);
            sb_str(&sb, " (");
            sb_str(&sb, sig_name(sig));
            sb_str(&sb, ") at virtual time ");
            sb_time(&sb, vn->clock);
            sb_str(&sb, ", fault address 0x");
            sb_u64(&sb, (uint64_t)(uintptr_t)si->si_addr, 16, 1);
            sb_str(&sb, "\n");
        }
    } else {
        /* Outside any node: most often a node's program corrupted memory
         * that the nodes of this process share (the heap: malloc finds
         * its lists broken) and the fault shows later, in the emulator. */
        sb_str(&sb, "crashed outside any node with signal ");
        sb_u64(&sb, (uint64_t)sig, 10, 1);
        sb_str(&sb, " (");
        sb_str(&sb, sig_name(sig));
        sb_str(&sb, "): the program may have corrupted memory");
        if (crash_last >= 0) {
            sb_str(&sb, "; node ");
            sb_u64(&sb, (uint64_t)crash_last, 10, 1);
            sb_str(&sb, " ran last, until virtual time ");
            sb_time(&sb, crash_last_clock);
        }
        sb_str(&sb, " (the nodes of one process share its heap: "
                    "--mce-placement=one runs each on its own rank)\n");
    }
    if (write(STDERR_FILENO, sb.b, sb.n) < 0)
        _exit(128 + sig);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* --mce-max-wall when a node never returns to the emulator (a loop that
 * calls nothing): one second after the limit the window loop has not
 * stopped the run itself, so the process ends here, async-signal-safely. */
static void wall_handler(int sig)
{
    static const char msg[] =
        "mcemu: wall-clock limit (--mce-max-wall) passed and the emulator "
        "did not regain control (a node computing without any call?); "
        "stopping\n";
    (void)sig;
    if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
        _exit(4);
    _exit(4);
}

static void install_wall_limit(mce_time_t limit)
{
    struct itimerval it;
    uint64_t us = limit / MCE_US + 1000000u;
    if (limit == 0)
        return;
    memset(&it, 0, sizeof(it));
    it.it_value.tv_sec = (time_t)(us / 1000000u);
    it.it_value.tv_usec = (suseconds_t)(us % 1000000u);
    signal(SIGALRM, wall_handler);
    setitimer(ITIMER_REAL, &it, NULL);
}

static void install_signals(void)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    stack_t ss = {
        .ss_sp = altstack, .ss_size = sizeof(altstack), .ss_flags = 0};
    struct sigaction sa;
    sigaltstack(&ss, NULL);
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = crash_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(sigs); i++)
        sigaction(sigs[i], &sa, NULL);
}

/* ---- boot ---------------------------------------------------------------- */

static void vn_main(void *arg)
{
    mcei_vn_t *vn = arg;
    mcei_leave(vn);
    int status = mcei_eng->personality.ops->main(mcei_eng->user_argc, vn->argv);
    mcei_vn_exit(vn, status);
}

void mcei_engine_abort(int status)
{
    static int aborting;
    /* An error ends the run: keep the trace so far (once: writing it
     * might fail too). */
    if (mcei_eng != NULL && mcei_eng->cfg.trace != NULL && !aborting++)
        mcei_trace_abort(mcei_eng);
    fflush(stdout);
    fflush(stderr);
    if (mcei_eng != NULL && mcei_eng->use_mpi && mcei_eng->nranks > 1)
        mcei_transport_abort(status);
    _exit(status);
}

/* Leave during boot: every rank reaches the same verdict from the same
 * inputs, so each one exits on its own without a collective. */
static void boot_exit(mcei_engine_t *eng, int status, const char *msg)
{
    if (msg != NULL && eng->rank == 0)
        mcei_log("%s", msg);
    if (eng->use_mpi)
        mcei_transport_finalize();
    exit(status);
}

static void wlog_open(mcei_engine_t *eng);

static int load_costs(mcei_engine_t *eng, char *err, size_t errlen)
{
    mcei_machine_t *m = &eng->machine;
    mcei_costs_t *c = &eng->costs;
    int rc;
    if ((rc = mcei_key_time(m, "send_overhead", &c->send_overhead, err,
                            errlen)) ||
        (rc = mcei_key_time(m, "recv_overhead", &c->recv_overhead, err,
                            errlen)) ||
        (rc = mcei_key_time(m, "probe_cost", &c->probe_cost, err, errlen)) ||
        (rc = mcei_key_time(m, "cycle_time", &c->cycle_time, err, errlen)) ||
        (rc = mcei_key_micro(m, "cpu_scale", &c->cpu_scale_micro, err,
                             errlen)) ||
        (rc = mcei_key_micro(m, "cpu.cpi_int", &c->cpi_micro[MCEI_COV_INT], err,
                             errlen)) ||
        (rc = mcei_key_micro(m, "cpu.cpi_mem", &c->cpi_micro[MCEI_COV_MEM], err,
                             errlen)) ||
        (rc = mcei_key_micro(m, "cpu.cpi_fp", &c->cpi_micro[MCEI_COV_FP], err,
                             errlen)) ||
        (rc = mcei_key_micro(m, "cpu.cpi_branch",
                             &c->cpi_micro[MCEI_COV_BRANCH], err, errlen)))
        return rc;
    if (c->cycle_time == 0) {
        snprintf(err, errlen,
                 "machine '%s': cycle_time must be positive (clocks count "
                 "cycles)",
                 m->name);
        return MCE_ERR_MACHINE;
    }
    if (c->probe_cost == 0) {
        snprintf(err, errlen,
                 "machine '%s': probe_cost must be positive so that polling "
                 "loops advance in virtual time",
                 m->name);
        return MCE_ERR_MACHINE;
    }
    return MCE_OK;
}

/* --mce-help's last lines: this program's personality and the machine it
 * runs on by default, with that machine's network model and protocol, and
 * the node count and compute mode it gets without options. */
static void print_personality_help(mcei_engine_t *eng)
{
    mcei_personality_t p;
    mcei_machine_t m = {0};
    const mcei_api_info_t *api;
    const char *nodes = NULL;
    char err[1024];
    if (mcei_priv_image_open(err, sizeof(err)) != MCE_OK ||
        mcei_api_resolve(&p, err, sizeof(err)) != MCE_OK) {
        printf("\nThis program: %s\n", err);
        return;
    }
    api = mcei_api_lookup(p.name);
    printf("\nThis program: personality %s (%s); default machine %s", p.name,
           api ? api->header : "?", p.default_machine);
    if (mcei_machine_load(&m, p.default_machine, eng->cfg.machine_path, NULL,
                          err, sizeof(err)) == MCE_OK) {
        const char *net = mcei_machine_str(&m, "network", NULL);
        const char *proto = mcei_machine_str(&m, "protocol", NULL);
        nodes = mcei_machine_str(&m, "nodes", NULL);
        printf(" (network model %s, protocol %s)", net ? net : "?",
               proto ? proto : "native");
    }
    /* The defaults that depend on the program: the node count the default
     * machine names (the iWarp array's 64) and the compute mode
     * (counted for an instrumented program), as boot resolves them. */
    if (nodes != NULL && strcmp(nodes, "0") != 0)
        printf(".\nIts defaults: --mce-nodes=%s (%s's nodes key)", nodes,
               p.default_machine);
    else
        printf(".\nIts defaults: --mce-nodes: one node per MPI rank");
    printf(", --mce-compute=%s", mce_cov_acc_addr != NULL
                                     ? "counted (instrumented by mcecc)"
                                     : "explicit");
    mcei_machine_free(&m);
    printf(".\nDefault machines of the personalities:");
    for (size_t i = 0; (api = mcei_api_at(i)) != NULL; i++)
        printf("%s %s: %s", i ? "," : "", api->name, api->default_machine);
    printf(".\n'mce-info' lists the machines, models and protocols; "
           "'mce-info --machine=NAME' every key of a machine.\n");
}

int mcei_engine_boot(int *argc, char ***argv, char **envp)
{
    mcei_engine_t *eng = &engine_storage;
    char err[2048], msg[2300];
    const mcei_net_ops_t *ops;
    const char *model;
    int rc;

    memset(eng, 0, sizeof(*eng));
    mcei_eng = eng;
    mcei_config_defaults(&eng->cfg);
    if (mcei_transport_init(argc, argv, &eng->rank, &eng->nranks,
                            &eng->use_mpi) != MCE_OK)
        boot_exit(eng, 1, "cannot initialise MPI");
    clock_gettime(CLOCK_MONOTONIC, &eng->wall_start); /* after MPI start-up */
    mcei_prov_save_argv(*argc, *argv); /* before the options are removed */

    if (mcei_config_parse(&eng->cfg, argc, *argv, envp, err, sizeof(err)) !=
        MCE_OK) {
        snprintf(msg, sizeof(msg), "%s", err);
        boot_exit(eng, 2, msg);
    }
    if (eng->cfg.version) {
        if (eng->rank == 0) {
            printf("mcemu %s\n", MCE_VERSION_STRING);
            fflush(stdout);
        }
        boot_exit(eng, 0, NULL);
    }
    if (eng->cfg.help) {
        if (eng->rank == 0) {
            printf("usage: %s [program options] [--mce-OPTION...]\n",
                   (*argv)[0]);
            mcei_config_help(stdout);
            print_personality_help(eng);
            fflush(stdout);
        }
        boot_exit(eng, 0, NULL);
    }

    eng->world_ranks = eng->nranks;
    if (eng->use_mpi && eng->nranks > 1) {
        int cores = mcei_hw_cores(), here = mcei_transport_local_ranks();
        int pack = here > cores && eng->cfg.oversub == 0 &&
                   eng->cfg.placement != MCEI_PLACE_ONE;
        mcei_transport_set_cores(cores);
        if (pack) {
            int r = mcei_transport_pack(&eng->rank, &eng->nranks);
            if (r < 0)
                boot_exit(eng, 1, "cannot split the MPI ranks");
            if (r > 0)
                boot_exit(eng, 0, NULL); /* the run is over: they slept */
        }
        if (here > cores && eng->rank == 0 && pack)
            fprintf(stderr,
                    "mcemu: warning: %d MPI ranks share the %d cores of this "
                    "host: the virtual nodes run on %d of them, one per "
                    "core, and the others wait asleep "
                    "(--mce-oversubscribed=spread uses every rank)\n",
                    here, cores, cores);
        else if (here > cores && eng->rank == 0 && eng->cfg.oversub == 0)
            /* (--mce-placement=one: every rank needs its node; an explicit
             * --mce-oversubscribed=spread is the user's choice) */
            fprintf(stderr,
                    "mcemu: warning: %d MPI ranks share the %d cores of this "
                    "host: waiting ranks sleep rather than spin, but one "
                    "rank per core is faster (a rank hosts any number of "
                    "virtual nodes)\n",
                    here, cores);
    }
    /* Counted mode needs the program's operation counters; an
     * instrumented program counts unless told otherwise. */
    eng->cov_acc = mce_cov_acc_addr != NULL ? mce_cov_acc_addr() : NULL;
    if (eng->cfg.compute == MCEI_COMPUTE_DEFAULT)
        eng->cfg.compute =
            eng->cov_acc ? MCE_COMPUTE_COUNTED : MCE_COMPUTE_EXPLICIT;
    else if (eng->cfg.compute == MCE_COMPUTE_COUNTED && eng->cov_acc == NULL)
        boot_exit(eng, 2,
                  "--mce-compute=counted: this program has no operation "
                  "counts: compile and link it with mcecc "
                  "-mce-compute=counted (mcef77 -mce-compute=counted for "
                  "Fortran)");
    /* A program built with mcecc -mce-privatize=dlopen: its symbols are
     * those of the node program's first copy. */
    if (mcei_priv_image_open(err, sizeof(err)) != MCE_OK) {
        snprintf(msg, sizeof(msg), "cannot load the node program: %s", err);
        boot_exit(eng, 1, msg);
    }
    if (mcei_api_resolve(&eng->personality, err, sizeof(err)) != MCE_OK)
        boot_exit(eng, 2, err);
    rc = mcei_machine_load(
        &eng->machine,
        eng->cfg.machine ? eng->cfg.machine : eng->personality.default_machine,
        eng->cfg.machine_path, &eng->cfg.overrides, err, sizeof(err));
    if (rc != MCE_OK)
        boot_exit(eng, 2, err);
    model = mcei_key_str(&eng->machine, "network");
    if (model == NULL) {
        snprintf(msg, sizeof(msg), "machine '%s' (%s) has no 'network' key",
                 eng->machine.name, eng->machine.path);
        boot_exit(eng, 2, msg);
    }
    mcei_key_str(&eng->machine, "name");
    mcei_key_str(&eng->machine, "description");
    if ((ops = mcei_net_lookup(model)) == NULL) {
        snprintf(msg, sizeof(msg),
                 "machine '%s': unknown network model '%s' (known: %s)",
                 eng->machine.name, model, mcei_net_names());
        boot_exit(eng, 2, msg);
    }
    {
        const char *pname = mcei_key_str(&eng->machine, "protocol");
        if ((eng->proto = mcei_proto_lookup(pname)) == NULL) {
            snprintf(msg, sizeof(msg),
                     "machine '%s': unknown protocol '%s' (known: %s)",
                     eng->machine.name, pname, mcei_proto_names());
            boot_exit(eng, 2, msg);
        }
        if (mcei_proto_pairing(eng->proto, ops->name, eng->machine.name, msg,
                               sizeof(msg)) != MCE_OK)
            boot_exit(eng, 2, msg);
        /* and the personality on the protocol (TCS needs the iWarp's) */
        const mcei_api_info_t *api = mcei_api_lookup(eng->personality.name);
        if (api != NULL &&
            mcei_api_pairing(api, eng->proto->name, eng->machine.name, msg,
                             sizeof(msg)) != MCE_OK)
            boot_exit(eng, 2, msg);
    }
    {
        /* Every key of the file must be one of the plug-ins' it uses
         * (personalities' keys are allowed in any file: the TCS keys of
         * the iwarp machine when the program is not a TCS one). */
        const mcei_keytab_t *tabs[MCEI_MACHINE_MAX_TABS];
        const mcei_api_info_t *api;
        size_t n = 0;
        tabs[n++] = &mcei_keys_core;
        tabs[n++] = ops->keys;
        tabs[n++] = eng->proto->keys;
        for (size_t i = 0;
             (api = mcei_api_at(i)) != NULL && n < MCEI_ARRAY_SIZE(tabs); i++)
            if (api->keys->n > 0)
                tabs[n++] = api->keys;
        if (mcei_machine_bind(&eng->machine, tabs, n, err, sizeof(err)) !=
            MCE_OK)
            boot_exit(eng, 2, err);
    }
    {
        /* A machine of fixed size (the iWarp array) names its node count;
         * --mce-nodes overrides it, and without either a run has one node
         * per rank. */
        uint64_t dflt = 0;
        if (mcei_key_u64(&eng->machine, "nodes", &dflt, err, sizeof(err)) !=
            MCE_OK)
            boot_exit(eng, 2, err);
        if (dflt > 1u << 30) {
            snprintf(msg, sizeof(msg),
                     "machine '%s': nodes = %" PRIu64 " is not a node count",
                     eng->machine.name, dflt);
            boot_exit(eng, 2, msg);
        }
        eng->nodes = eng->cfg.nodes ? (int)eng->cfg.nodes
                     : dflt != 0    ? (int)dflt
                                    : eng->world_ranks;
    }
    eng->net.ops = ops;
    eng->net.nodes = eng->nodes;
    eng->net.deliver = deliver;
    eng->net.committed = deliver_committed;
    eng->net.deliver_ctx = eng;
    if (ops->init(&eng->net, &eng->machine, err, sizeof(err)) != MCE_OK ||
        eng->proto->init(eng, &eng->machine, err, sizeof(err)) != MCE_OK ||
        load_costs(eng, err, sizeof(err)) != MCE_OK)
        boot_exit(eng, 2, err);
    /* the program's arguments (the --mce-* options removed): the
     * personality's boot may read them (a TCS declaration, tcs_args) */
    eng->user_argc = *argc;
    eng->user_argv = *argv;
    rc = eng->personality.ops->boot(eng, err, sizeof(err));
    if (rc < 0 ||
        mcei_machine_check_unused(&eng->machine, err, sizeof(err)) != MCE_OK)
        boot_exit(eng, 2, err);
    if (rc == MCEI_BOOT_DONE)
        boot_exit(eng, 0, NULL);
    eng->lookahead = ops->lookahead(&eng->net);
    if (eng->lookahead == 0) {
        snprintf(msg, sizeof(msg),
                 "machine '%s': network model '%s' declares a zero lookahead "
                 "(give it a positive latency)",
                 eng->machine.name, model);
        boot_exit(eng, 2, msg);
    }
    /* Windows widen by the software every send must run first (checked
     * at every send); windows never change a timestamp (section 5.2 of
     * doc/ARCHITECTURE.md), only how often ranks meet. */
    if (eng->personality.ops->protocol_sends &&
        eng->cfg.windows != MCEI_WINDOWS_NARROW)
        eng->send_delay = eng->proto->send_delay(eng);
    if (mcei_time_add(eng->lookahead, eng->send_delay, &eng->lookahead) !=
        MCE_OK)
        eng->lookahead = MCEI_TIME_INF;

    if (eng->nodes < eng->nranks) {
        snprintf(msg, sizeof(msg),
                 "%d virtual nodes cannot fill %d MPI ranks: use "
                 "--mce-nodes=N with N >= %d",
                 eng->nodes, eng->nranks, eng->nranks);
        boot_exit(eng, 2, msg);
    }
    if (eng->cfg.placement == MCEI_PLACE_ONE && eng->nodes != eng->nranks) {
        snprintf(msg, sizeof(msg),
                 "--mce-placement=one runs one virtual node per MPI rank, so "
                 "that no two nodes share a heap: run %d ranks (mpirun -np "
                 "%d) for --mce-nodes=%d",
                 eng->nodes, eng->nodes, eng->nodes);
        boot_exit(eng, 2, msg);
    }
    if (mcei_place_init(&eng->place, eng->nodes, eng->nranks,
                        eng->cfg.placement) != MCE_OK)
        boot_exit(eng, 2, "invalid placement");
    eng->nlocal = mcei_place_count(&eng->place, eng->rank);

    if ((eng->nlocal > 1 && eng->cfg.privatize == MCEI_PRIV_AUTO) ||
        eng->cfg.privatize == MCEI_PRIV_ON) {
        size_t max = eng->cfg.privatize_copies > 0
                         ? (size_t)eng->cfg.privatize_copies
                         : MCEI_PRIV_COPIES_DEFAULT;
        mcei_priv_info_t pi;
        if (mcei_priv_init((size_t)eng->nlocal, max, err, sizeof(err)) !=
            MCE_OK) {
            snprintf(msg, sizeof(msg),
                     "%d virtual nodes share this process but their globals "
                     "cannot be privatised (%s): run one node per rank, or "
                     "pass --mce-privatize=off if the program keeps no "
                     "state in writable globals",
                     eng->nlocal, err);
            boot_exit(eng, 2, msg);
        }
        if (eng->personality.ops->privatized(eng, err, sizeof(err)) != MCE_OK)
            boot_exit(eng, 2, err);
        if (mcei_priv_has_image() && mcei_priv_probe(&pi) == MCE_OK &&
            pi.method != MCEI_PRIV_IMAGE && eng->rank == 0)
            mcei_log("note: %d nodes in this process need more copies of "
                     "the node program (%zu bytes each) than "
                     "--mce-privatize-copies (%zu) or a quarter of the "
                     "memory allows: one copy is loaded and its globals are "
                     "switched at every node switch (slower)",
                     eng->nlocal, mcei_priv_image_size(), max);
    }

    eng->vns = calloc((size_t)eng->nlocal, sizeof(*eng->vns));
    if (eng->vns == NULL)
        boot_exit(eng, 1, "out of memory allocating virtual nodes");
    mcei_runq_init(&eng->runq);
    eng->local_of = malloc((size_t)eng->nodes * sizeof(*eng->local_of));
    eng->staged_nodes =
        malloc(((size_t)eng->nlocal + 1) * sizeof(*eng->staged_nodes));
    eng->aheadq = malloc(((size_t)eng->nlocal + 1) * sizeof(*eng->aheadq));
    if (eng->use_mpi && eng->nranks > 1 && !eng->net.ops->partitioned)
        eng->rank_got = calloc((size_t)eng->nranks, 1);
    if (eng->local_of == NULL || eng->staged_nodes == NULL ||
        eng->aheadq == NULL ||
        (eng->use_mpi && eng->nranks > 1 && !eng->net.ops->partitioned &&
         eng->rank_got == NULL))
        boot_exit(eng, 1, "out of memory allocating virtual nodes");
    for (int n = 0; n < eng->nodes; n++)
        eng->local_of[n] = mcei_place_rank_of(&eng->place, n) == eng->rank
                               ? mcei_place_local_index(&eng->place, n)
                               : -1;
    mcei_heap_init(&eng->timers, timer_less);
    mcei_fiber_init_main(&eng->sched);
    if (mcei_fiber_stacks_init((size_t)eng->nlocal, eng->cfg.stack_size, err,
                               sizeof(err)) != MCE_OK) {
        snprintf(msg, sizeof(msg), "%d virtual nodes in one process: %s",
                 eng->nlocal, err);
        boot_exit(eng, 1, msg);
    }
    for (int i = 0; i < eng->nlocal; i++) {
        mcei_vn_t *vn = &eng->vns[i];
        vn->id = mcei_place_node(&eng->place, eng->rank, i);
        vn->local = i;
        vn->state = MCEI_VN_RUNNABLE;
        vn->trace_on = 1;
        vn->digest = mcei_mix64(0x6d63656d75ULL, (uint64_t)vn->id);
        /* Each node gets its own argv array: programs modify it. */
        vn->argv = calloc((size_t)*argc + 1, sizeof(char *));
        if (vn->argv == NULL)
            boot_exit(eng, 1, "out of memory allocating virtual nodes");
        memcpy(vn->argv, *argv, (size_t)*argc * sizeof(char *));
        if (eng->proto->node_init(vn) != MCE_OK)
            boot_exit(eng, 1, "out of memory initialising node protocol state");
        if (mcei_node_slots_size() > 0 &&
            (vn->slots = calloc(1, mcei_node_slots_size())) == NULL)
            boot_exit(eng, 1,
                      "out of memory allocating node personality state");
        rc = mcei_fiber_create_slot(&vn->fiber, (size_t)i, vn_main, vn);
        if (rc != MCE_OK) {
            snprintf(msg, sizeof(msg),
                     "cannot map a %" PRIu64 "-byte stack for node %d",
                     eng->cfg.stack_size, vn->id);
            boot_exit(eng, 1, msg);
        }
        runq_push(eng, vn);
    }
    if (eng->cfg.trace != NULL &&
        mcei_trace_open(eng, err, sizeof(err)) != MCE_OK)
        boot_exit(eng, 2, err);
    if (eng->cfg.stats != NULL &&
        mcei_stats_open(eng, err, sizeof(err)) != MCE_OK)
        boot_exit(eng, 2, err);
    if (eng->cfg.window_log != NULL)
        wlog_open(eng);
    install_signals();
    install_wall_limit(eng->cfg.max_wall);
    if (eng->cfg.verbose)
        mcei_hwinfo_report(eng);
    eng->started = 1;
    return MCE_OK;
}

/* ---- the window log (--mce-window-log) ----------------------------------- */

/* The raw material of bench/project.sh, which replays a one-process run's
 * windows on P ranks: per window its start, each node's activations in it
 * and each message sent (source and destination).  One line a window:
 *   w INDEX START_PS a NODE:COUNT ... m SRC:DST ...
 * One process only: the windows of a run on several ranks are the same
 * windows, and the file would need a merge. */
static void wlog_open(mcei_engine_t *eng)
{
    char msg[1200];
    if (eng->nranks > 1)
        boot_exit(eng, 2,
                  "option --mce-window-log records a one-process run: run "
                  "the program without mpirun (or with one rank)");
    eng->wlog_resumes = calloc((size_t)eng->nlocal, sizeof(uint64_t));
    eng->wlog = eng->wlog_resumes ? fopen(eng->cfg.window_log, "w") : NULL;
    if (eng->wlog == NULL) {
        snprintf(msg, sizeof(msg),
                 "option --mce-window-log: cannot write '%s': %s",
                 eng->cfg.window_log, strerror(errno));
        boot_exit(eng, 2, msg);
    }
    fprintf(eng->wlog,
            "# mcemu window log 1: nodes=%d lookahead_ps=%" PRIu64 "\n",
            eng->nodes, eng->lookahead);
}

static void wlog_window(mcei_engine_t *eng)
{
    FILE *f = eng->wlog;
    fprintf(f, "w %" PRIu64 " %" PRIu64 " a", eng->windows, eng->window_start);
    for (int i = 0; i < eng->nlocal; i++) {
        uint64_t r = eng->vns[i].fiber.resumes;
        if (r != eng->wlog_resumes[i])
            fprintf(f, " %d:%" PRIu64, eng->vns[i].id,
                    r - eng->wlog_resumes[i]);
        eng->wlog_resumes[i] = r;
    }
    fputs(" m", f);
    for (size_t i = 0; i < eng->ninj; i++)
        fprintf(f, " %d:%d", eng->inj[i]->w.src, eng->inj[i]->w.dst);
    fputc('\n', f);
}

static void wlog_close(mcei_engine_t *eng)
{
    if (eng->wlog == NULL)
        return;
    if (ferror(eng->wlog) | fclose(eng->wlog))
        mcei_log("option --mce-window-log: writing '%s' failed",
                 eng->cfg.window_log);
    eng->wlog = NULL;
    free(eng->wlog_resumes);
    eng->wlog_resumes = NULL;
}

/* ---- the window loop ----------------------------------------------------- */

static int inj_less(const void *a, const void *b)
{
    const mcei_msg_t *x = *(const mcei_msg_t *const *)a;
    const mcei_msg_t *y = *(const mcei_msg_t *const *)b;
    if (mcei_order_less(x->w.ts, &x->w, y->w.ts, &y->w))
        return -1;
    if (mcei_order_less(y->w.ts, &y->w, x->w.ts, &x->w))
        return 1;
    return 0;
}

/* A pooled stack's canary found damaged when its node switched away. */
static void stack_overflow(mcei_vn_t *vn) __attribute__((noreturn, cold));
static void stack_overflow(mcei_vn_t *vn)
{
    char t[48];
    mcei_log("node %d overflowed its %zu-byte stack at virtual time %s "
             "(raise --mce-stack-size)",
             vn->id, mcei_fiber_stack_size(&vn->fiber),
             mcei_time_format(vn->clock, t, sizeof(t)));
    mcei_engine_abort(1);
}

/* Nodes run in (clock, node) order and send at their clocks, so a
 * window's injections usually arrive sorted already: check before
 * sorting. */
static int inj_sorted(mcei_msg_t *const *m, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (!mcei_order_less(m[i - 1]->w.ts, &m[i - 1]->w, m[i]->w.ts,
                             &m[i]->w))
            return 0;
    return 1;
}

static void run_node(mcei_engine_t *eng, mcei_vn_t *vn)
{
    mcei_priv_switch((size_t)vn->local);
    eng->current = vn;
    crash_node = crash_last = vn->id;
    eng->switches++;
    eng->personality.ops->on_resume(vn);
    if (eng->cov_acc != NULL) /* the scheduler's counts are no node's */
        memset(eng->cov_acc, 0, MCEI_COV_N * sizeof(uint64_t));
    mcei_fiber_switch(&eng->sched, &vn->fiber);
    if (!mcei_fiber_intact(&vn->fiber))
        stack_overflow(vn);
    if (eng->cov_acc != NULL) /* charged at the node's next call */
        cov_take(eng, vn);
    eng->current = NULL;
    crash_node = -1;
    crash_last_clock = vn->clock;
}

static void run_window(mcei_engine_t *eng)
{
    const mcei_rentry_t *e;
    while ((e = mcei_runq_top(&eng->runq)) != NULL && e->t < eng->horizon) {
        mcei_vn_t *vn = &eng->vns[e->local];
        mcei_runq_pop(&eng->runq);
        vn->in_runq = 0;
        run_node(eng, vn);
    }
    /* Nodes woken beyond the horizon by committed deliveries: nodes
     * interact only through the model, so their order does not matter.
     * Each runs until it blocks or passes its limit. */
    while (eng->naheadq > 0) {
        mcei_vn_t *vn = &eng->vns[eng->aheadq[--eng->naheadq]];
        vn->in_runq = 0;
        run_node(eng, vn);
    }
}

typedef struct deadlock_rec {
    int32_t node;
    char text[220];
} deadlock_rec_t;

static int report_states(mcei_engine_t *eng, const char *headline)
{
    deadlock_rec_t *mine = calloc((size_t)eng->nlocal + 1, sizeof(*mine));
    void *all = NULL;
    size_t n = 0, nall = 0;
    char t[48];
    if (mine == NULL)
        return MCE_ERR_NOMEM;
    for (int i = 0; i < eng->nlocal; i++) {
        mcei_vn_t *vn = &eng->vns[i];
        mine[n].node = vn->id;
        if (vn->state == MCEI_VN_BLOCKED) {
            char what[128] = "?";
            if (vn->wait_what_fn != NULL)
                vn->wait_what_fn(vn->wait_what_arg, what, sizeof(what));
            snprintf(mine[n].text, sizeof(mine[n].text),
                     "node %d: blocked in %s waiting for %s since virtual "
                     "time %s",
                     vn->id, vn->wait_call ? vn->wait_call : "?", what,
                     mcei_time_format(vn->wait_since, t, sizeof(t)));
        } else if (vn->state != MCEI_VN_DONE && vn->polling) {
            char t2[48];
            snprintf(mine[n].text, sizeof(mine[n].text),
                     "node %d: polling in %s since virtual time %s, now %s",
                     vn->id, vn->poll_call,
                     mcei_time_format(vn->poll_since, t, sizeof(t)),
                     mcei_time_format(vn->clock, t2, sizeof(t2)));
        } else if (vn->state != MCEI_VN_DONE) {
            snprintf(mine[n].text, sizeof(mine[n].text),
                     "node %d: running at virtual time %s", vn->id,
                     mcei_time_format(vn->clock, t, sizeof(t)));
        } else
            snprintf(mine[n].text, sizeof(mine[n].text),
                     "node %d: finished with status %d at virtual time %s",
                     vn->id, vn->exit_status,
                     mcei_time_format(vn->clock, t, sizeof(t)));
        n++;
    }
    mcei_transport_gather(mine, n, sizeof(*mine), &all, &nall);
    if (eng->rank == 0) {
        deadlock_rec_t *r = all;
        deadlock_rec_t **order = calloc(nall ? nall : 1, sizeof(*order));
        mcei_log("%s", headline);
        if (order != NULL) {
            for (size_t i = 0; i < nall; i++)
                order[r[i].node] = &r[i];
            for (size_t i = 0; i < nall; i++)
                if (order[i] != NULL)
                    fprintf(stderr, "mcemu:   %s\n", order[i]->text);
        }
        fflush(stderr);
        free(order);
    }
    free(all);
    free(mine);
    return MCE_OK;
}

typedef struct final_rec {
    uint64_t node, clock, digest;
    int64_t status;
} final_rec_t;

/* "nodes 0-63 exited with status 2": runs of equal non-zero statuses. */
static void report_statuses(const final_rec_t *r, size_t n, int nodes)
{
    int64_t *st = calloc((size_t)nodes, sizeof(*st));
    if (st == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        st[r[i].node] = r[i].status;
    for (int i = 0; i < nodes;) {
        int j = i;
        while (j + 1 < nodes && st[j + 1] == st[i])
            j++;
        if (st[i] != 0) {
            if (j > i)
                mcei_log("nodes %d-%d exited with status %" PRId64, i, j,
                         st[i]);
            else
                mcei_log("node %d exited with status %" PRId64, i, st[i]);
        }
        i = j + 1;
    }
    free(st);
}

static int finish(mcei_engine_t *eng)
{
    final_rec_t *mine = calloc((size_t)eng->nlocal + 1, sizeof(*mine));
    void *all = NULL;
    size_t nall = 0;
    int status = 0;

    if (mine == NULL)
        mcei_fatal("out of memory at finalisation");
    for (int i = 0; i < eng->nlocal; i++) {
        mcei_vn_t *vn = &eng->vns[i];
        mine[i].node = (uint64_t)vn->id;
        mine[i].clock = vn->clock;
        mine[i].digest = mcei_mix64(vn->digest, vn->clock);
        mine[i].status = vn->exit_status;
    }
    mcei_transport_gather(mine, (size_t)eng->nlocal, sizeof(*mine), &all,
                          &nall);
    if (eng->rank == 0) {
        final_rec_t *r = all;
        uint64_t *dig = calloc((size_t)eng->nodes, sizeof(*dig));
        uint64_t d = 0x6d63656d75ULL, tmax = 0;
        uint64_t first_bad = UINT64_MAX;
        for (size_t i = 0; i < nall; i++) {
            /* The lowest-numbered failing node decides, whatever the
             * layout; only rank 0 exits with it. */
            if (r[i].status != 0 && r[i].node < first_bad) {
                first_bad = r[i].node;
                status = r[i].status & 0xff ? (int)(r[i].status & 0xff) : 1;
            }
            if (dig != NULL)
                dig[r[i].node] = r[i].digest;
            if (r[i].clock > tmax)
                tmax = r[i].clock;
        }
        for (int i = 0; i < eng->nodes && dig != NULL; i++)
            d = mcei_mix64(d, dig[i]);
        if (eng->cfg.trace != NULL) /* network states still open end here */
            mcei_trace_set_end(tmax);
        report_statuses(r, nall, eng->nodes);
        free(dig);
        fflush(stdout);
        if (eng->cfg.summary)
            printf("mcemu: machine=%s nodes=%d ranks=%d vtime_max_ps=%" PRIu64
                   " digest=%016" PRIx64 "\n",
                   eng->machine.name, eng->nodes, eng->nranks, tmax, d);
        if (eng->cfg.verbose) {
            struct rusage ru;
            struct timespec now;
            getrusage(RUSAGE_SELF, &ru);
            clock_gettime(CLOCK_MONOTONIC, &now);
            mcei_transport_stats_t xs;
            mcei_transport_get_stats(&xs);
            printf("mcemu: rank 0: windows=%" PRIu64 " deliveries=%" PRIu64
                   " context_switches=%" PRIu64 " collectives=%" PRIu64
                   " quiet_windows=%" PRIu64 " p2p_msgs=%" PRIu64
                   " p2p_bytes=%" PRIu64
                   " model_s=%.6f wall_s=%.6f peak_rss_kib=%ld\n",
                   eng->windows, eng->msgs_total, eng->switches, xs.collectives,
                   xs.quiet, xs.p2p, xs.p2p_bytes, 1e-9 * (double)eng->model_ns,
                   (double)(now.tv_sec - eng->wall_start.tv_sec) +
                       1e-9 * (double)(now.tv_nsec - eng->wall_start.tv_nsec),
                   ru.ru_maxrss);
            if (eng->cov_acc != NULL) {
                uint64_t n[MCEI_COV_N] = {0};
                for (int i = 0; i < eng->nlocal; i++)
                    for (int c = 0; c < MCEI_COV_N; c++)
                        n[c] += eng->vns[i].cov[c];
                printf("mcemu: rank 0: counted operations of its %d nodes: "
                       "integer=%" PRIu64 " memory=%" PRIu64 " fp=%" PRIu64
                       " branch=%" PRIu64 "\n",
                       eng->nlocal, n[MCEI_COV_INT], n[MCEI_COV_MEM],
                       n[MCEI_COV_FP], n[MCEI_COV_BRANCH]);
            }
        }
        fflush(stdout);
    }
    free(all);
    free(mine);
    /* So does a statistics file (collective, like the trace). */
    if (eng->cfg.stats != NULL && mcei_stats_write(eng) != MCE_OK &&
        status == 0)
        status = 1;
    /* A trace that could not be written fails the run (status 1). */
    if (eng->cfg.trace != NULL && mcei_trace_close(eng) != MCE_OK &&
        status == 0)
        status = 1;
    return status;
}

/* Release everything (the process is about to exit; this keeps leak
 * checkers meaningful). */
static void cleanup(mcei_engine_t *eng)
{
    mcei_msg_t *m;
    for (int i = 0; i < eng->nlocal; i++) {
        mcei_vn_t *vn = &eng->vns[i];
        while ((m = vn->inbox.head) != NULL) {
            mcei_msgq_remove(&vn->inbox, m);
            mcei_msg_release(m);
        }
        eng->proto->node_fini(vn);
        free(vn->slots);
        mcei_fiber_destroy(&vn->fiber);
        free(vn->argv);
        free(vn->flow_in);
        mcei_ranges_fini(&vn->prefaulted);
    }
    eng->proto->fini(eng);
    eng->net.ops->fini(&eng->net);
    while ((m = eng->free_msgs) != NULL) {
        eng->free_msgs = m->next;
        free(m);
    }
    mcei_fiber_stacks_fini();
    free(eng->vns);
    free(eng->inj);
    mcei_runq_fini(&eng->runq);
    free(eng->local_of);
    eng->local_of = NULL;
    free(eng->staged_nodes);
    eng->staged_nodes = NULL;
    free(eng->aheadq);
    eng->aheadq = NULL;
    free(eng->rank_got);
    eng->rank_got = NULL;
    free(eng->unread);
    eng->unread = NULL;
    eng->nunread = eng->unread_cap = 0;
    mcei_heap_fini(&eng->timers);
    mcei_fiber_destroy(&eng->sched);
    mcei_machine_free(&eng->machine);
    mcei_config_free(&eng->cfg);
    mcei_prov_free();
    eng->vns = NULL;
    eng->nlocal = 0;
}

/* Print every node's state under @p headline and end the run with
 * @p status (collective: every rank calls it in the same window). */
static void stop_run(mcei_engine_t *eng, const char *headline, int status)
    __attribute__((noreturn));
static void stop_run(mcei_engine_t *eng, const char *headline, int status)
{
    report_states(eng, headline);
    if (eng->cfg.trace != NULL) {
        /* network states still open end at the last window's start, the
         * same on every layout */
        mcei_trace_set_end(eng->window_start);
        mcei_trace_close(eng);
    }
    if (eng->use_mpi)
        mcei_transport_finalize();
    fflush(stdout);
    _exit(status);
}

/* --mce-progress: rank 0, every 2 s of wall time, where the run is. */
static void progress(mcei_engine_t *eng, mce_time_t T)
{
    struct timespec now;
    double wall, dt;
    char t[48];
    if (eng->rank != 0 || eng->cfg.progress != 1)
        return;
    clock_gettime(CLOCK_MONOTONIC, &now);
    wall = (double)(now.tv_sec - eng->wall_start.tv_sec) +
           1e-9 * (double)(now.tv_nsec - eng->wall_start.tv_nsec);
    if (wall < eng->progress_at + 2.0)
        return;
    dt = wall - eng->progress_at;
    fprintf(stderr,
            "mcemu: progress: virtual time %s, %" PRIu64 " windows (%.0f/s), "
            "%" PRIu64 " deliveries on rank 0 (%.0f/s), %.1f s wall\n",
            T == MCEI_TIME_INF ? "end" : mcei_time_format(T, t, sizeof(t)),
            eng->windows, (double)(eng->windows - eng->progress_windows) / dt,
            eng->msgs_total,
            (double)(eng->msgs_total - eng->progress_msgs) / dt, wall);
    eng->progress_at = wall;
    eng->progress_windows = eng->windows;
    eng->progress_msgs = eng->msgs_total;
}

/* This rank's part of the livelock guard and of --mce-max-wall. */
static void window_limits(mcei_engine_t *eng, mcei_window_info_t *mine)
{
    if (eng->cfg.livelock != 0 && eng->timers.count == 0) {
        for (int i = 0; i < eng->nlocal; i++) {
            const mcei_vn_t *vn = &eng->vns[i];
            /* Stopped inside a polling call, polling for the whole
             * budget, with no arrival still to come to it. */
            mine->polling += vn->state == MCEI_VN_RUNNABLE && vn->polling &&
                             vn->arrivals.head == NULL &&
                             vn->clock - vn->poll_since >= eng->cfg.livelock;
        }
    }
    if (eng->cfg.max_wall != 0) {
        struct timespec now;
        uint64_t ns;
        clock_gettime(CLOCK_MONOTONIC, &now);
        ns = (uint64_t)(now.tv_sec - eng->wall_start.tv_sec) * 1000000000u +
             (uint64_t)now.tv_nsec - (uint64_t)eng->wall_start.tv_nsec;
        mine->stop += ns >= eng->cfg.max_wall / 1000;
    }
}

/* Livelock (every unfinished node polling or blocked, nothing in flight,
 * nothing sent in the window) and the run limits, on the window's
 * combined summary: every rank reaches the same verdict. */
static void check_limits(mcei_engine_t *eng, const mcei_window_info_t *all,
                         size_t nmsgs, uint64_t in_flight, mce_time_t T)
{
    char msg[200], t[48];
    if (all->polling > 0 && nmsgs == 0 &&
        all->polling + all->blocked + all->done == (uint64_t)eng->nodes &&
        in_flight == 0) {
        snprintf(msg, sizeof(msg),
                 "livelock: every unfinished node is polling or blocked and "
                 "no message is in flight (polling for --mce-livelock=%s); "
                 "node states:",
                 mcei_time_format(eng->cfg.livelock, t, sizeof(t)));
        stop_run(eng, msg, 3);
    }
    if (eng->cfg.max_vtime != 0 && T != MCEI_TIME_INF &&
        T > eng->cfg.max_vtime) {
        snprintf(msg, sizeof(msg),
                 "virtual-time limit --mce-max-vtime=%s reached; node states:",
                 mcei_time_format(eng->cfg.max_vtime, t, sizeof(t)));
        stop_run(eng, msg, 4);
    }
    if (all->stop > 0) {
        snprintf(msg, sizeof(msg),
                 "wall-clock limit --mce-max-wall=%s reached; node states:",
                 mcei_time_format(eng->cfg.max_wall, t, sizeof(t)));
        stop_run(eng, msg, 4);
    }
}

/* The next window's start with a replicated model (every rank holds the
 * whole model and feeds it the same injections): the model's events that
 * deliver nothing need no window, so every rank runs them here, alone and
 * identically, up to the nodes' next event @p next.  The first event that
 * delivers a message (or notifies a sender) starts the window at its
 * time; its deliveries are staged as the window's own would be (the
 * window's advance continues from there).  Virtual times do not change:
 * nodes see the same arrivals in the same order; only windows in which no
 * node could act are gone (motion_detect: 42 % of its windows). */
static mce_time_t model_run_ahead(mcei_engine_t *eng, mce_time_t next)
{
    mce_time_t e = eng->net.ops->next_event(&eng->net), h;
    uint64_t before = eng->delivered_all;

    eng->staging = 1;
    eng->nstaged = 0;
    while (e < next && mcei_time_add(e, 1, &h) == MCE_OK) {
        if (eng->net.ops->advance(&eng->net, h) != MCE_OK)
            mcei_fatal("network model '%s' failed", eng->net.ops->name);
        if (eng->delivered_all != before)
            return e; /* deliveries at e: a window starts there */
        e = eng->net.ops->next_event(&eng->net);
    }
    return mcei_time_min(next, e);
}

int mcei_engine_run(void)
{
    mcei_engine_t *eng = mcei_eng;
    mce_time_t T;
    int status, rc;

    eng->window_start = 0;
    eng->horizon = eng->lookahead;
    /* Decided once: isatty() is a system call, and a window can take
     * under a microsecond. */
    if (eng->cfg.progress == 0)
        eng->cfg.progress = eng->rank == 0 && isatty(2) ? 1 : 2;
    for (;;) {
        mcei_window_info_t mine = {0}, all;
        mcei_msg_t **msgs;
        size_t nmsgs;
        const mcei_rentry_t *top;
        uint64_t in_flight;
        int part;
        struct timespec m0 = {0}, m1;

        run_window(eng);
        eng->windows++;
        if (eng->wlog != NULL)
            wlog_window(eng);
        if (eng->cfg.verbose) /* this rank's sends; the report sums ranks */
            for (size_t i = 0; i < eng->ninj; i++)
                mcei_place_note_msg(&eng->place, eng->inj[i]->w.src,
                                    eng->inj[i]->w.dst);

        top = mcei_runq_top(&eng->runq);
        mine.ninj = eng->ninj;
        mine.next = top ? top->t : MCEI_TIME_INF;
        if (eng->timers.count) {
            const mcei_msg_t *tm = mcei_heap_top(&eng->timers);
            mine.next = mcei_time_min(mine.next, tm->arrival);
        }
        mine.blocked = (uint64_t)eng->nblocked;
        mine.done = (uint64_t)eng->ndone;
        window_limits(eng, &mine);
        part = eng->use_mpi && eng->nranks > 1 && eng->net.ops->partitioned;
        if (part) {
            /* Each rank's model holds its nodes' messages: the next model
             * event anywhere is a pending one of some rank or the first
             * event of one of this window's sends. */
            mine.model_next = eng->net.ops->next_event(&eng->net);
            mine.in_flight = eng->net.ops->in_flight(&eng->net);
            for (size_t i = 0; i < eng->ninj; i++)
                mine.model_next = mcei_time_min(
                    mine.model_next,
                    eng->net.ops->first_event(&eng->net, &eng->inj[i]->w));
            if (mcei_transport_window_part(eng, &mine, &all, &msgs, &nmsgs) !=
                MCE_OK)
                mcei_fatal("window exchange failed");
        } else if (eng->use_mpi && eng->nranks > 1) {
            if (eng->nunread > 0)
                read_unread(eng);
            if (mcei_transport_window(eng, &mine, &all, &msgs, &nmsgs) !=
                MCE_OK)
                mcei_fatal("window exchange failed");
        } else {
            all = mine;
            msgs = eng->inj;
            nmsgs = eng->ninj;
        }
        if (eng->cfg.verbose) /* the model's share, reported as model_s */
            clock_gettime(CLOCK_MONOTONIC, &m0);
        if (nmsgs > 1 && !inj_sorted(msgs, nmsgs))
            qsort(msgs, nmsgs, sizeof(*msgs), inj_less);
        for (size_t i = 0; i < nmsgs; i++)
            if ((rc = eng->net.ops->inject(&eng->net, msgs[i])) != MCE_OK)
                mcei_fatal("network model '%s' rejected a message of %" PRIu64
                           " bytes from node %d to node %d sent at %" PRIu64
                           " ps: %s",
                           eng->net.ops->name, (uint64_t)msgs[i]->w.size,
                           msgs[i]->w.src, msgs[i]->w.dst, msgs[i]->w.ts,
                           mce_strerror(rc));
        if (msgs != eng->inj)
            free(msgs);
        eng->ninj = 0;

        if (part) {
            T = mcei_time_min(all.next, all.model_next);
            in_flight = all.in_flight + all.ninj;
            nmsgs = all.ninj;
        } else {
            T = model_run_ahead(eng, all.next);
            in_flight = eng->net.ops->in_flight(&eng->net);
        }
        if (T == MCEI_TIME_INF) {
            if (all.blocked > 0)
                stop_run(eng,
                         "deadlock: every node is blocked or finished and no "
                         "message is in flight; wait states:",
                         3);
            if (in_flight != 0)
                mcei_fatal("network model '%s' idle with %" PRIu64
                           " messages in flight (model bug)",
                           eng->net.ops->name, in_flight);
            break; /* every node finished, nothing in flight */
        }
        check_limits(eng, &all, nmsgs, in_flight, T);
        progress(eng, T);
        eng->window_start = T;
        if (mcei_time_add(T, eng->lookahead, &eng->horizon) != MCE_OK)
            eng->horizon = MCEI_TIME_INF;
        /* Everything before the horizon enters the nodes' queues first
         * (messages and timers), then each node processes its queue
         * (model_run_ahead may have staged the first deliveries). */
        if (part) {
            eng->staging = 1;
            eng->nstaged = 0;
        }
        if (eng->net.ops->advance(&eng->net, eng->horizon) != MCE_OK)
            mcei_fatal("network model '%s' failed", eng->net.ops->name);
        if (eng->cfg.verbose) {
            clock_gettime(CLOCK_MONOTONIC, &m1);
            eng->model_ns += (uint64_t)(m1.tv_sec - m0.tv_sec) * 1000000000u +
                             (uint64_t)m1.tv_nsec - (uint64_t)m0.tv_nsec;
        }
        for (;;) {
            mcei_msg_t *tm = mcei_heap_top(&eng->timers);
            mcei_vn_t *tv;
            if (tm == NULL || tm->arrival >= eng->horizon)
                break;
            mcei_heap_pop(&eng->timers);
            vn_of(eng, tm->w.dst, &tv);
            accept_arrival(eng, tv, tm);
        }
        /* Committed deliveries beyond the horizon, except while timers
         * wait in the heap (a node's committed arrival must not overtake
         * its own timer there). */
        if (!part && eng->cfg.windows == MCEI_WINDOWS_COMMITTED &&
            eng->timers.count == 0 &&
            eng->net.ops->commit(&eng->net, eng->horizon) != MCE_OK)
            mcei_fatal("network model '%s' failed", eng->net.ops->name);
        eng->staging = 0;
        for (size_t i = 0; i < eng->nstaged; i++) {
            mcei_vn_t *sv = &eng->vns[eng->staged_nodes[i]];
            sv->staged = 0;
            settle(eng, sv);
        }
    }
    eng->finished = 1;
    status = finish(eng);
    wlog_close(eng);
    if (eng->cfg.verbose)
        mcei_place_report_run(eng); /* collective */
    mcei_priv_fini();
    cleanup(eng);
    if (eng->use_mpi)
        mcei_transport_finalize();
    return status;
}
