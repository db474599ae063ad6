/* The Intel Paragon network (Bokhari and Nicol 1996, sections 2 and 6;
 * constants and their derivation in share/machines/paragon.conf).
 *
 * Topology.  A W x H mesh, node = row x W + col, row-column routing: along
 * the source's row to the destination's column, then along that column
 * (oblivious and deterministic).  Resources: each node's injection and
 * ejection, each directed link.
 *
 * Switching: wormhole with lanes.  A message's data is a worm that streams
 * at the rate of the slowest resource on its route (the node's injection,
 * 0.022 us/byte, Table 1's slope).  A resource k times faster than that
 * interleaves at most k = floor(stream / own per-byte time) worms at once,
 * each at the full rate: a link (175 MB/s) carries 3, "2 or 3 messages
 * share a communication link with minor overhead" (section 2, abstract); a
 * node injects one worm and ejects one at a time.  A worm takes a lane of
 * each resource of its route in order (injection, the links, ejection);
 * when a resource has no free lane it waits there, first come first
 * served, holding every lane it already has (a blocked worm holds the
 * links behind it), and streams only once it holds its whole route.  When
 * its tail is out it frees them all.  Lanes are taken in routing order,
 * which on a mesh with row-column routing admits no cycle of waits, so
 * there is no deadlock.  Because a resource never carries more worms than
 * it has bandwidth for at the stream rate, every streaming worm runs at
 * exactly that rate: no sharing needs to be computed, and events cost
 * O(route length).
 *
 * Software, serial on each node's message co-processor (section 2: one of
 * the two i860s of a node "serves as a communication processor"): it
 * starts the node's sends one at a time (coproc_start each) and completes
 * its arrivals one at a time (the tail: the copy out of system buffers
 * and the completion), first come first served; the other fixed parts are
 * latencies.  For a user send at time t:
 *   t + start_up         the message reaches the co-processor (user-level
 *                        set-up: the engine's lookahead);
 *   + coproc_start       the co-processor starts it (after any earlier work);
 *   long (UNFORCED, size > short_max): a control message to the
 *                        destination and its answer (2 x control: system
 *                        buffer allocation), then the worm;
 *   short, FORCED:       the worm at once;
 *   worm streams         once it holds its route: size x stream per byte;
 *   tail out             the sender's NX send completes (MCEI_NET_SENT);
 *   + tail               on the destination's co-processor: short_latency
 *                        - start_up - coproc_start for short messages,
 *                        long_latency - start_up - coproc_start - 2 control
 *                        otherwise (the Paragon copied FORCED messages
 *                        through system buffers too, section 6);
 *                        then the message is delivered.
 * Uncontended: short b_s + m x inject, long b_l + m x inject, FORCED
 * b_l - 2 control + m x inject, exactly.
 *
 * Packets (paragon.packet; 0: a message is one worm).  A message longer
 * than a packet travels as successive worms of at most paragon.packet
 * bytes.  The sender's co-processor streams one message at a time, so it
 * keeps its lane from the first packet to the last; each further packet
 * frees the links and the ejection it held and takes them again, first
 * come first served behind the worms already waiting there, so a null
 * message or another worm passes between two packets of a long message.
 * Per-message costs stay per message: coproc_start and the control pair
 * before the first packet, the tail after the last.  Uncontended, the
 * packets follow each other without a gap: the same m x stream as one
 * worm, so every formula above stays exact.
 *
 * Every rank runs the same events in the same (time, class, source,
 * sequence, kind) order, so times are bit-identical everywhere. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/heap.h"
#include "../core/net.h"
#include "../core/trace.h"
#include "keys.h"

enum { K_SHORT, K_FORCED, K_LONG };
/* Event kinds; internal ones (class 0) come before notifications and
 * deliveries (class 1) at the same time. */
enum { EV_ENTER, EV_WORM, EV_FREE, EV_SENT, EV_DELIVER };
enum { DIR_E, DIR_W, DIR_S, DIR_N };

/* A message goes through three phases, each a run of lanes it takes in
 * order, holds for a time and frees: its start on the sender's
 * co-processor (res[0], coproc_start), its worm (res[0 .. nres-1]: the
 * sender's co-processor, which feeds the injection, the links, the
 * destination's ejection; size x stream per byte) and its completion on
 * the destination's co-processor (res[nres], the tail). */
enum { PH_START, PH_WORM, PH_TAIL };
typedef struct pmsg {
    mcei_msg_t *msg;
    struct pmsg *next; /* in the wait queue of res[at] */
    uint64_t left;     /* bytes of the worm phase not yet streamed */
    uint64_t cur;      /* bytes of the packet streaming (or waiting) */
    mce_time_t end;    /* the end of the phase holding its lanes */
    int kind, phase;
    int early;      /* EARLY_*: handed over by paragon_commit */
    int nres;       /* the worm's route length */
    int lo, at, hi; /* this phase's lanes: res[lo..hi-1], held below at */
    uint32_t res[]; /* co-processor, links in route order, ejection, and
                       the destination's co-processor */
} pmsg_t;

/* Events live in a keyed heap, ordered by (time, class, source node,
 * sequence, kind): k0 = time, k1 = class << 32 | source, k2 = sequence
 * << 3 | kind (EV_SENT's item is the message's context, the others' the
 * worm).  Keys in the entries: no call or load through an item per
 * comparison (the model's hottest loop on large meshes). */
#define EV_KIND_BITS 3
#define EV_SEQ_MAX   (UINT64_MAX >> EV_KIND_BITS)

enum { EARLY_SENT = 1, EARLY_DELIVER = 2 };

/* A resource: free lanes and the worms waiting for one, in arrival order;
 * a co-processor's (one lane) holder. */
typedef struct lane {
    uint32_t free;
    pmsg_t *head, *tail;
    pmsg_t *holder;
} lane_t;

typedef struct paragon {
    /* machine constants (ps, bytes) */
    mce_time_t start_up, coproc, control, bs, bl;
    mce_time_t stream_pb; /* a worm's per-byte time */
    uint64_t short_max;
    uint64_t packet; /* a worm's largest size in bytes; 0: whole messages */
    int width, height, nodes;
    uint32_t nres;       /* 6 x nodes: injection, ejection, 4 links per node */
    uint32_t link_lanes; /* worms a link carries at once */
    /* The least time from the end of a co-processor's phase to the end
     * of a later phase that reaches its node (paragon_commit); 0: the
     * model commits nothing. */
    mce_time_t gap;
    lane_t *lanes; /* per resource */
    mcei_kheap_t events;
    size_t in_flight;
} paragon_t;

/* Times past the end of virtual time stay just below it (a run that long
 * fails elsewhere with a clear message). */
static mce_time_t sat_add(mce_time_t a, mce_time_t b)
{
    mce_time_t r;
    return mcei_time_add(a, b, &r) == MCE_OK ? r : MCEI_TIME_INF - 1;
}

/* ---- events ------------------------------------------------------------- */

static int ev_kind(const mcei_kentry_t *e)
{
    return (int)(e->k2 & ((1u << EV_KIND_BITS) - 1));
}

static int push_ev(paragon_t *st, mce_time_t t, int kind, pmsg_t *pm)
{
    const mcei_msg_t *m = pm->msg;
    uint64_t cls = kind >= EV_SENT;
    if (m->w.seq > EV_SEQ_MAX)
        return MCE_ERR_OVERFLOW;
    return mcei_kheap_push(
        &st->events, t, cls << 32 | (uint64_t)(uint32_t)m->w.src,
        m->w.seq << EV_KIND_BITS | (uint64_t)kind,
        kind == EV_SENT ? (void *)(uintptr_t)m->w.ctx : (void *)pm);
}

/* The notice to node @p src that its send @p seq (context @p ctx) ended
 * at @p t; handed over as committed until @p until when that is not 0
 * (paragon_commit). */
static int notify_sender(mcei_net_t *net, mce_time_t t, int32_t src,
                         uint64_t seq, uint32_t ctx, mce_time_t until)
{
    mcei_wire_t w;
    mcei_msg_t *n;
    memset(&w, 0, sizeof(w));
    w.ts = t;
    w.seq = seq;
    w.src = src;
    w.dst = src;
    w.ctx = MCEI_CTX_PROTOCOL;
    w.type = MCEI_NET_SENT;
    w.aux[0] = seq;
    w.aux[1] = ctx;
    if ((n = mcei_msg_from_wire(&w)) == NULL)
        return MCE_ERR_NOMEM;
    if (until != 0)
        net->committed(net->deliver_ctx, n, t, until);
    else
        net->deliver(net->deliver_ctx, n, t);
    return MCE_OK;
}

/* ---- worms -------------------------------------------------------------- */

static mce_time_t tail_of(const paragon_t *st, int kind)
{
    if (kind == K_SHORT)
        return st->bs - st->start_up - st->coproc;
    return st->bl - st->start_up - st->coproc - 2 * st->control;
}

/* The worm's (one packet's) occupancy of each link of its route, with how
 * many worms the link carries at its start (this one included) of how many
 * it can (Bokhari and Nicol 1996, section 2: "2 or 3 messages share a
 * communication link"). */
static void trace_worm(const paragon_t *st, const pmsg_t *pm, mce_time_t t,
                       mce_time_t d)
{
    static const char *const names[] = {"link E", "link W", "link S", "link N"};
    char args[192];
    for (int k = 1; k < pm->nres - 1; k++) {
        uint32_t r = pm->res[k], l = r - 2u * (uint32_t)st->nodes;
        snprintf(args, sizeof(args),
                 "\"src\":%d,\"dst\":%d,\"bytes\":%" PRIu64
                 ",\"msg_bytes\":%" PRIu64 ",\"worms\":%u,\"lanes\":%u",
                 pm->msg->w.src, pm->msg->w.dst, pm->cur, pm->msg->w.size,
                 st->link_lanes - st->lanes[r].free, st->link_lanes);
        mcei_trace_net(names[l % 4], (int)(l / 4), "worm", t, sat_add(t, d),
                       args);
    }
}

/* The next packet's size: at most paragon.packet bytes of what is left. */
static void next_packet(const paragon_t *st, pmsg_t *pm)
{
    pm->cur = st->packet != 0 && pm->left > st->packet ? st->packet : pm->left;
}

/* Take this phase's lanes from res[at] on; wait in the first resource
 * without a free lane (behind earlier waiters), or, holding them all, hold
 * them for the phase's time. */
static int take_lanes(paragon_t *st, pmsg_t *pm, mce_time_t t)
{
    mce_time_t d;
    while (pm->at < pm->hi) {
        lane_t *l = &st->lanes[pm->res[pm->at]];
        if (l->free == 0 || l->head != NULL) {
            pm->next = NULL;
            if (l->tail != NULL)
                l->tail->next = pm;
            else
                l->head = pm;
            l->tail = pm;
            return MCE_OK;
        }
        l->free--;
        if (pm->res[pm->at] < (uint32_t)st->nodes)
            l->holder = pm; /* a co-processor */
        pm->at++;
    }
    switch (pm->phase) {
    case PH_START:
        d = st->coproc;
        break;
    case PH_WORM:
        if (mcei_time_mul(st->stream_pb, pm->cur, &d) != MCE_OK)
            return MCE_ERR_OVERFLOW;
        if (mcei_trace_net_on())
            trace_worm(st, pm, t, d);
        break;
    default:
        d = tail_of(st, pm->kind);
        break;
    }
    pm->end = sat_add(t, d);
    return push_ev(st, pm->end, EV_FREE, pm);
}

static int begin_phase(paragon_t *st, pmsg_t *pm, int phase, mce_time_t t)
{
    pm->phase = phase;
    if (phase == PH_WORM)
        next_packet(st, pm);
    pm->lo = phase == PH_TAIL ? pm->nres : 0;
    pm->hi = phase == PH_START ? 1 : phase == PH_WORM ? pm->nres : pm->nres + 1;
    pm->at = pm->lo;
    return take_lanes(st, pm, t);
}

/* @p pm frees its lanes of res[from..to-1] at @p t: the waiters of each
 * freed resource, in route order, take them. */
static int free_range(paragon_t *st, const pmsg_t *pm, int from, int to,
                      mce_time_t t)
{
    int rc = MCE_OK;
    for (int k = from; k < to; k++) {
        st->lanes[pm->res[k]].free++;
        if (st->lanes[pm->res[k]].holder == pm)
            st->lanes[pm->res[k]].holder = NULL;
    }
    for (int k = from; k < to && rc == MCE_OK; k++) {
        lane_t *l = &st->lanes[pm->res[k]];
        while (rc == MCE_OK && l->free > 0 && l->head != NULL) {
            pmsg_t *w = l->head;
            if ((l->head = w->next) == NULL)
                l->tail = NULL;
            l->free--;
            if (pm->res[k] < (uint32_t)st->nodes)
                l->holder = w; /* a co-processor */
            w->at++;
            rc = take_lanes(st, w, t);
        }
    }
    return rc;
}

/* @p pm's phase ends at @p t: free its lanes. */
static int free_lanes(paragon_t *st, pmsg_t *pm, mce_time_t t)
{
    return free_range(st, pm, pm->lo, pm->hi, t);
}

/* ---- routes ------------------------------------------------------------- */

static uint32_t link_res(const paragon_t *st, int node, int dir)
{
    return 2u * (uint32_t)st->nodes + 4u * (uint32_t)node + (uint32_t)dir;
}

static pmsg_t *pmsg_new(paragon_t *st, mcei_msg_t *m)
{
    int src = m->w.src, dst = m->w.dst;
    int sr = src / st->width, sc = src % st->width;
    int dr = dst / st->width, dc = dst % st->width;
    int hops = abs(dc - sc) + abs(dr - sr), at = src;
    pmsg_t *pm = calloc(1, sizeof(*pm) + (size_t)(hops + 3) * sizeof(uint32_t));
    if (pm == NULL)
        return NULL;
    pm->msg = m;
    pm->left = m->w.size;
    pm->res[pm->nres++] = (uint32_t)src;
    /* along the source's row to the destination's column ... */
    while (at % st->width != dc) {
        int east = at % st->width < dc;
        pm->res[pm->nres++] = link_res(st, at, east ? DIR_E : DIR_W);
        at += east ? 1 : -1;
    }
    /* ... then along that column */
    while (at != dst) {
        int south = at / st->width < dr;
        pm->res[pm->nres++] = link_res(st, at, south ? DIR_S : DIR_N);
        at += south ? st->width : -st->width;
    }
    pm->res[pm->nres++] = (uint32_t)st->nodes + (uint32_t)dst;
    pm->res[pm->nres] = (uint32_t)dst; /* its co-processor */
    if (m->w.size <= st->short_max)
        pm->kind = K_SHORT;
    else if (m->w.flags & MCEI_MSG_FORCED)
        pm->kind = K_FORCED;
    else
        pm->kind = K_LONG;
    return pm;
}

/* ---- plug-in ------------------------------------------------------------ */

static void paragon_free(paragon_t *st)
{
    if (st == NULL)
        return;
    /* a worm is in exactly one event or one wait queue */
    for (size_t i = 0; i < st->events.count; i++)
        if (ev_kind(&st->events.e[i]) != EV_SENT)
            free(st->events.e[i].item);
    mcei_kheap_fini(&st->events);
    for (uint32_t r = 0; st->lanes != NULL && r < st->nres; r++)
        for (pmsg_t *w = st->lanes[r].head, *n; w != NULL; w = n) {
            n = w->next;
            free(w);
        }
    free(st->lanes);
    free(st);
}

/* Lanes of a resource of per-byte time @p pb: the worms it can carry at
 * once at the stream rate. */
static uint32_t lanes_of(mce_time_t stream_pb, mce_time_t pb)
{
    uint64_t k = stream_pb / pb;
    return k == 0 ? 1 : k > UINT32_MAX ? UINT32_MAX : (uint32_t)k;
}

static int paragon_init(mcei_net_t *net, mcei_machine_t *m, char *err,
                        size_t errlen)
{
    paragon_t *st = calloc(1, sizeof(*st));
    uint64_t w, h;
    mce_time_t inject_pb, eject_pb, link_pb, worm;
    int rc;
    if (st == NULL)
        return MCE_ERR_NOMEM;
    if ((rc = mcei_key_u64(m, "paragon.width", &w, err, errlen)) ||
        (rc = mcei_key_u64(m, "paragon.height", &h, err, errlen)) ||
        (rc = mcei_key_time(m, "paragon.start_up", &st->start_up, err,
                            errlen)) ||
        (rc = mcei_key_time(m, "paragon.coproc_start", &st->coproc, err,
                            errlen)) ||
        (rc =
             mcei_key_time(m, "paragon.short_latency", &st->bs, err, errlen)) ||
        (rc = mcei_key_time(m, "paragon.long_latency", &st->bl, err, errlen)) ||
        (rc = mcei_key_time(m, "paragon.control", &st->control, err, errlen)) ||
        (rc = mcei_key_u64(m, "paragon.short_max", &st->short_max, err,
                           errlen)) ||
        (rc = mcei_key_u64(m, "paragon.packet", &st->packet, err, errlen)) ||
        (rc = mcei_key_time(m, "paragon.inject_per_byte", &inject_pb, err,
                            errlen)) ||
        (rc = mcei_key_time(m, "paragon.eject_per_byte", &eject_pb, err,
                            errlen)) ||
        (rc = mcei_key_time(m, "paragon.link_per_byte", &link_pb, err, errlen)))
        goto fail;
    rc = MCE_ERR_MACHINE;
    if (st->start_up == 0) {
        snprintf(err, errlen,
                 "machine '%s': paragon.start_up must be positive (it is the "
                 "engine's lookahead)",
                 m->name);
        goto fail;
    }
    if (st->start_up + st->coproc > st->bs ||
        st->start_up + st->coproc + 2 * st->control > st->bl) {
        snprintf(err, errlen,
                 "machine '%s': need paragon.start_up + coproc_start <= "
                 "short_latency and start_up + coproc_start + 2 control <= "
                 "long_latency",
                 m->name);
        goto fail;
    }
    if (inject_pb == 0 || eject_pb == 0 || link_pb == 0 ||
        inject_pb > (1ULL << 40) || eject_pb > (1ULL << 40) ||
        link_pb > (1ULL << 40)) {
        snprintf(err, errlen,
                 "machine '%s': paragon.inject_per_byte, eject_per_byte and "
                 "link_per_byte must be positive and below 1 s",
                 m->name);
        goto fail;
    }
    rc = MCE_ERR_CONFIG;
    if (w == 0 || w > (1u << 20) || h > (1u << 20)) {
        snprintf(err, errlen,
                 "machine '%s': paragon.width must be in 1..2^20 and "
                 "paragon.height in 0..2^20",
                 m->name);
        goto fail;
    }
    /* The run's nodes form a partition of W columns and N/W rows. */
    if (net->nodes % (int)w != 0) {
        snprintf(err, errlen,
                 "machine '%s' is a mesh of %" PRIu64 " columns: %d nodes do "
                 "not fill whole rows; set the width to a divisor of the node "
                 "count (e.g. --mce-nodes=144 --mce-set paragon.width=12 for "
                 "12 x 12)",
                 m->name, w, net->nodes);
        goto fail;
    }
    if (h != 0 && (uint64_t)net->nodes > w * h) {
        snprintf(err, errlen,
                 "machine '%s' is a %" PRIu64 " x %" PRIu64 " mesh: %d nodes "
                 "do not fit (a larger machine: --mce-set paragon.height=%d)",
                 m->name, w, h, net->nodes, net->nodes / (int)w);
        goto fail;
    }
    st->width = (int)w;
    st->height = net->nodes / (int)w;
    st->nodes = net->nodes;
    if ((uint64_t)st->nodes * 6 > UINT32_MAX / 2) {
        snprintf(err, errlen, "machine '%s': too many nodes", m->name);
        goto fail;
    }

    /* A worm streams at its slowest resource's rate; each resource has
     * the lanes that rate leaves it (see the header). */
    st->stream_pb = inject_pb;
    if (eject_pb > st->stream_pb)
        st->stream_pb = eject_pb;
    if (link_pb > st->stream_pb)
        st->stream_pb = link_pb;
    rc = MCE_ERR_NOMEM;
    st->nres = 6u * (uint32_t)st->nodes;
    if ((st->lanes = calloc(st->nres, sizeof(*st->lanes))) == NULL)
        goto fail;
    for (uint32_t r = 0; r < st->nres; r++) {
        mce_time_t pb = r < (uint32_t)st->nodes        ? inject_pb
                        : r < 2u * (uint32_t)st->nodes ? eject_pb
                                                       : link_pb;
        st->lanes[r].free = lanes_of(st->stream_pb, pb);
    }
    st->link_lanes = lanes_of(st->stream_pb, link_pb);
    /* paragon_commit's gap: what can reach a node once its co-processor's
     * phase ends is a later phase on it: a short or FORCED send's start
     * and worm (at least coproc_start), a long send's worm (at least
     * short_max + 1 bytes), a tail (short or long).  A co-processor with
     * more than one lane has no single holder: no commitments then. */
    st->gap = mcei_time_min(
        st->coproc, mcei_time_min(tail_of(st, K_SHORT), tail_of(st, K_LONG)));
    if (mcei_time_mul(st->stream_pb, st->short_max + 1, &worm) == MCE_OK)
        st->gap = mcei_time_min(st->gap, worm);
    if (lanes_of(st->stream_pb, inject_pb) != 1)
        st->gap = 0;
    mcei_kheap_init(&st->events);
    net->priv = st;
    return MCE_OK;
fail:
    paragon_free(st);
    return rc;
}

static void paragon_fini(mcei_net_t *net)
{
    paragon_free(net->priv);
    net->priv = NULL;
}

static mce_time_t paragon_lookahead(const mcei_net_t *net)
{
    const paragon_t *st = net->priv;
    return st->start_up;
}

static int paragon_inject(mcei_net_t *net, mcei_msg_t *m)
{
    paragon_t *st = net->priv;
    pmsg_t *pm;
    int rc;
    if (m->w.dst < 0 || m->w.dst >= st->nodes || m->w.src < 0 ||
        m->w.src >= st->nodes)
        return MCE_ERR_NODE;
    if ((pm = pmsg_new(st, m)) == NULL)
        return MCE_ERR_NOMEM;
    rc = push_ev(st, sat_add(m->w.ts, st->start_up), EV_ENTER, pm);
    if (rc != MCE_OK) {
        free(pm);
        return rc;
    }
    st->in_flight++;
    return MCE_OK;
}

static mce_time_t paragon_next_event(const mcei_net_t *net)
{
    const paragon_t *st = net->priv;
    const mcei_kentry_t *e = mcei_kheap_top(&st->events);
    return e ? e->k0 : MCEI_TIME_INF;
}

static int on_event(mcei_net_t *net, paragon_t *st, const mcei_kentry_t *e)
{
    mce_time_t t = e->k0;
    int kind = ev_kind(e);
    pmsg_t *pm = e->item;
    int rc;
    switch (kind) {
    case EV_ENTER:
        return begin_phase(st, pm, PH_START, t);
    case EV_WORM:
        return begin_phase(st, pm, PH_WORM, t);
    case EV_FREE:
        if (pm->phase == PH_START && pm->kind != K_LONG) {
            /* the co-processor goes on with the worm it started */
            pm->phase = PH_WORM;
            pm->hi = pm->nres;
            next_packet(st, pm);
            return take_lanes(st, pm, t);
        }
        if (pm->phase == PH_WORM && (pm->left -= pm->cur) > 0) {
            /* Another packet: the co-processor stays with this message;
             * the links and the ejection are taken again, behind the
             * worms waiting for them. */
            if ((rc = free_range(st, pm, 1, pm->nres, t)) != MCE_OK)
                return rc;
            pm->at = 1;
            next_packet(st, pm);
            return take_lanes(st, pm, t);
        }
        if ((rc = free_lanes(st, pm, t)) != MCE_OK)
            return rc;
        switch (pm->phase) {
        case PH_START: /* it waits for the answer to its control message */
            return push_ev(st, sat_add(t, 2 * st->control), EV_WORM, pm);
        case PH_WORM:
            if (!(pm->early & EARLY_SENT) &&
                (rc = push_ev(st, t, EV_SENT, pm)) != MCE_OK)
                return rc;
            return begin_phase(st, pm, PH_TAIL, t);
        default:
            if (pm->early & EARLY_DELIVER) { /* handed over before */
                free(pm);
                return MCE_OK;
            }
            return push_ev(st, t, EV_DELIVER, pm);
        }
    case EV_SENT:
        return notify_sender(net, t, (int32_t)(uint32_t)e->k1,
                             e->k2 >> EV_KIND_BITS,
                             (uint32_t)(uintptr_t)e->item, 0);
    case EV_DELIVER: {
        mcei_msg_t *m = pm->msg;
        free(pm);
        st->in_flight--;
        net->deliver(net->deliver_ctx, m, t);
        return MCE_OK;
    }
    }
    return MCE_ERR_INVAL;
}

static int paragon_advance(mcei_net_t *net, mce_time_t horizon)
{
    paragon_t *st = net->priv;
    for (;;) {
        const mcei_kentry_t *top = mcei_kheap_top(&st->events);
        mcei_kentry_t e;
        int rc;
        if (top == NULL || top->k0 >= horizon)
            return MCE_OK;
        e = *top; /* on_event pushes: the heap may move */
        mcei_kheap_pop(&st->events);
        if ((rc = on_event(net, st, &e)) != MCE_OK)
            return rc;
    }
}

/* Committed deliveries.  A node hears of the network only when a phase on
 * its co-processor ends (its send's worm: the sender notice; a tail: the
 * delivery), and the co-processor serves one phase at a time, first come
 * first served.  So a phase that holds it with a fixed end (a tail, or
 * the last packet of a worm that holds its whole route: it streams at
 * the fixed rate) ends when it is scheduled to whatever is injected
 * later, and nothing else reaches that node before the end plus the
 * least time of a later phase (st->gap).  Hand those ends over now. */
static int paragon_commit(mcei_net_t *net, mce_time_t horizon)
{
    paragon_t *st = net->priv;
    int rc = MCE_OK;
    if (st->gap == 0)
        return MCE_OK;
    for (int n = 0; n < st->nodes && rc == MCE_OK; n++) {
        pmsg_t *pm = st->lanes[n].holder;
        if (pm == NULL || pm->at != pm->hi || pm->end < horizon)
            continue;
        if (pm->phase == PH_TAIL && !(pm->early & EARLY_DELIVER)) {
            mcei_msg_t *m = pm->msg;
            pm->early |= EARLY_DELIVER;
            pm->msg = NULL; /* the engine's from now on */
            st->in_flight--;
            net->committed(net->deliver_ctx, m, pm->end,
                           sat_add(pm->end, st->gap));
        } else if (pm->phase == PH_WORM && pm->left == pm->cur &&
                   !(pm->early & EARLY_SENT)) {
            pm->early |= EARLY_SENT;
            rc = notify_sender(net, pm->end, pm->msg->w.src, pm->msg->w.seq,
                               pm->msg->w.ctx, sat_add(pm->end, st->gap));
        }
    }
    return rc;
}

static size_t paragon_in_flight(const mcei_net_t *net)
{
    const paragon_t *st = net->priv;
    return st->in_flight;
}

/* The run's partition: width columns, nodes / width rows, no wrap. */
static void paragon_topology(const mcei_net_t *net, mcei_topo_t *out)
{
    const paragon_t *st = net->priv;
    memset(out, 0, sizeof(*out));
    out->kind = MCEI_TOPO_MESH;
    out->width = st->width;
    out->height = st->height;
}

const mcei_net_ops_t mcei_net_paragon_ops = {
    .name = "paragon",
    .description = "Intel Paragon 2D mesh: row-column wormhole routing with "
                   "lanes and blocking, serial message co-processors, "
                   "short/long/forced NX protocols",
    .init = paragon_init,
    .fini = paragon_fini,
    .lookahead = paragon_lookahead,
    .inject = paragon_inject,
    .next_event = paragon_next_event,
    .advance = paragon_advance,
    .in_flight = paragon_in_flight,
    .notifies_senders = 1,
    .first_event = mcei_net_first_event_lookahead,
    .keys = &mcei_net_paragon_keytab,
    .topology = paragon_topology,
    .commit = paragon_commit,
};
