/* The Intel Paragon network (Bokhari and Nicol 1996, sections 2 and 6;
 * constants and their derivation in share/machines/paragon.conf).
 *
 * Topology.  A W x H mesh, node = row x W + col, row-column routing: along
 * the source's row to the destination's column, then along that column
 * (oblivious and deterministic).  Resources: each node's injection and
 * ejection, each directed link.
 *
 * Switching.  Wormhole routing with link sharing as a fluid model: while
 * its data streams a message is a flow holding its source's injection,
 * every directed link of its route and its destination's ejection at once.
 * The rates of the active flows are the max-min fair allocation
 * (progressive filling) over those resources, recomputed once per instant
 * at which flows start or end; the earliest completion follows from them.
 * Links are faster than injection, so 2 or 3 flows share a link without
 * slowing down; a node's concurrent sends share its injection bandwidth,
 * concurrent arrivals its ejection bandwidth.  The fluid model has no
 * head-of-line blocking (a blocked worm holding its links): it is the
 * optimistic limit of wormhole sharing.
 *
 * Protocols, for a user send at time t (the fixed parts other than the
 * co-processor's start are pure latencies, holding no resource):
 *   t + start_up         the message reaches the node's communication
 *                        co-processor (user-level set-up: the lookahead);
 *   + coproc_start       the co-processor starts it; it starts one message
 *                        at a time (FIFO), so a burst of sends is staggered;
 *   short (size <= short_max, FORCED or not): the data flow starts at once;
 *   FORCED (MCEI_MSG_FORCED, larger): the data flow starts at once;
 *   long (UNFORCED, larger): a control message to the destination, whose
 *                        system allocates buffer space and answers with a
 *                        control message (2 x control), then the data flow;
 *   last byte injected   the sender's NX send completes (MCEI_NET_SENT);
 *   + tail               the message is delivered: short_latency - start_up
 *                        - coproc_start for short messages, long_latency -
 *                        start_up - coproc_start - 2 control otherwise (the
 *                        copy through system buffers, which the Paragon
 *                        did for FORCED messages too).
 * Uncontended: short b_s + m x inject, long b_l + m x inject, FORCED
 * b_l - 2 control + m x inject.
 *
 * Arithmetic: integers only.  Data is counted in work units of 1/U byte,
 * rates in units per picosecond (uint64), remaining work in 128 bits.  U
 * is the least common multiple of the three per-byte times (in ps) times
 * lcm(1..k) for the largest k that keeps U below 2^62, so every capacity
 * (U / per-byte time) is an exact integer and so is its fair share among
 * up to k flows: the uncontended and evenly shared cases are exact to the
 * picosecond.  Other shares are rounded down (a flow never gets more than
 * its share); completion times are rounded up to the picosecond.  Every
 * rank runs the same operations in the same order, so times are
 * bit-identical everywhere. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/heap.h"
#include "../core/net.h"

typedef unsigned __int128 u128;

enum { K_SHORT, K_FORCED, K_LONG };
/* Event kinds; internal ones (class 0) come before notifications and
 * deliveries (class 1) at the same time. */
enum { EV_ENTER, EV_COPROC, EV_FLOW, EV_SENT, EV_DELIVER };
enum { DIR_E, DIR_W, DIR_S, DIR_N };

typedef struct pmsg {
    mcei_msg_t *msg;
    int kind;
    u128 rem;      /* work units left to stream */
    uint64_t rate; /* units per ps */
    int frozen;    /* progressive filling */
    int nres;
    uint32_t res[]; /* injection, links in route order, ejection */
} pmsg_t;

typedef struct pev {
    mce_time_t t;
    int cls, kind;
    uint64_t k1, k2; /* source node, sequence */
    uint32_t ctx;    /* EV_SENT: the message's context */
    pmsg_t *pm;      /* NULL for EV_SENT */
} pev_t;

/* A resource's fair share when it was queued: rem / cnt. */
typedef struct share {
    uint64_t rem;
    uint32_t cnt, r;
} share_t;

typedef struct paragon {
    /* machine constants (ps, bytes) */
    mce_time_t start_up, coproc, control, bs, bl;
    mce_time_t inject_pb, eject_pb, link_pb;
    uint64_t short_max;
    int width, height, nodes;
    /* fluid model */
    uint64_t unit; /* work units per byte */
    uint64_t cap_inject, cap_eject, cap_link;
    pmsg_t **flows; /* active flows */
    size_t nflows, capflows;
    mce_time_t now;       /* flows' progress is counted to now */
    mce_time_t next_done; /* earliest flow completion */
    int dirty;            /* rates need recomputing */
    /* per resource (6 x nodes: injection, ejection, 4 links per node) */
    uint32_t nres;
    uint64_t *rem;        /* capacity not yet given out */
    uint32_t *cnt;        /* flows not yet frozen */
    uint32_t *off, *fill; /* flows of a resource: lst[off..] */
    pmsg_t **lst;
    size_t caplst;
    uint32_t *touched, ntouched; /* resources used by some flow */
    uint32_t *mark, stamp;
    unsigned char *live; /* still limiting unfrozen flows */
    share_t *hp;         /* heap of resources by fair share */
    size_t nh, caph;
    /* per node */
    mce_time_t *coproc_free;
    mcei_heap_t events;
    size_t in_flight;
} paragon_t;

/* ---- events ------------------------------------------------------------- */

static int ev_less(const void *x, const void *y)
{
    const pev_t *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t;
    if (a->cls != b->cls)
        return a->cls < b->cls;
    if (a->k1 != b->k1)
        return a->k1 < b->k1;
    if (a->k2 != b->k2)
        return a->k2 < b->k2;
    return a->kind < b->kind;
}

static int push_ev(paragon_t *st, mce_time_t t, int kind, pmsg_t *pm,
                   const mcei_msg_t *m)
{
    pev_t *e = malloc(sizeof(*e));
    if (e == NULL)
        return MCE_ERR_NOMEM;
    e->t = t;
    e->kind = kind;
    e->cls = kind >= EV_SENT;
    e->k1 = (uint64_t)(uint32_t)m->w.src;
    e->k2 = m->w.seq;
    e->ctx = m->w.ctx;
    e->pm = kind == EV_SENT ? NULL : pm;
    return mcei_heap_push(&st->events, e);
}

static int notify_sender(mcei_net_t *net, const pev_t *e)
{
    mcei_wire_t w;
    mcei_msg_t *n;
    memset(&w, 0, sizeof(w));
    w.ts = e->t;
    w.seq = e->k2;
    w.src = (int32_t)e->k1;
    w.dst = (int32_t)e->k1;
    w.ctx = MCEI_CTX_PROTOCOL;
    w.type = MCEI_NET_SENT;
    w.aux[0] = e->k2;
    w.aux[1] = e->ctx;
    if ((n = mcei_msg_from_wire(&w)) == NULL)
        return MCE_ERR_NOMEM;
    net->deliver(net->deliver_ctx, n, e->t);
    return MCE_OK;
}

/* ---- arithmetic --------------------------------------------------------- */

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* lcm(a, b) when it is at most @p limit, else 0. */
static uint64_t lcm_upto(uint64_t a, uint64_t b, uint64_t limit)
{
    uint64_t q = a / gcd64(a, b), r;
    if (__builtin_mul_overflow(q, b, &r) || r > limit)
        return 0;
    return r;
}

static mce_time_t sat_add(mce_time_t a, u128 b)
{
    u128 s = (u128)a + b;
    return s >= MCEI_TIME_INF ? MCEI_TIME_INF - 1 : (mce_time_t)s;
}

/* ---- the fluid model ---------------------------------------------------- */

static uint64_t capacity(const paragon_t *st, uint32_t r)
{
    uint32_t n = (uint32_t)st->nodes;
    if (r < n)
        return st->cap_inject;
    if (r < 2 * n)
        return st->cap_eject;
    return st->cap_link;
}

/* Fair share a below b?  (rem/cnt exactly, then the resource index) */
static int share_less(const share_t *a, const share_t *b)
{
    u128 x = (u128)a->rem * b->cnt, y = (u128)b->rem * a->cnt;
    if (x != y)
        return x < y;
    return a->r < b->r;
}

static void hdown(paragon_t *st, size_t i)
{
    share_t *h = st->hp;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < st->nh && share_less(&h[l], &h[m]))
            m = l;
        if (r < st->nh && share_less(&h[r], &h[m]))
            m = r;
        if (m == i)
            return;
        share_t t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static void hpop(paragon_t *st)
{
    st->hp[0] = st->hp[--st->nh];
    hdown(st, 0);
}

static int hpush(paragon_t *st, uint32_t r)
{
    size_t i;
    if (st->nh == st->caph) {
        size_t ncap = st->caph ? 2 * st->caph : 1024;
        share_t *n = realloc(st->hp, ncap * sizeof(*n));
        if (n == NULL)
            return MCE_ERR_NOMEM;
        st->hp = n;
        st->caph = ncap;
    }
    i = st->nh++;
    st->hp[i] = (share_t){st->rem[r], st->cnt[r], r};
    while (i > 0) {
        size_t p = (i - 1) / 2;
        share_t t;
        if (!share_less(&st->hp[i], &st->hp[p]))
            break;
        t = st->hp[i];
        st->hp[i] = st->hp[p];
        st->hp[p] = t;
        i = p;
    }
    return MCE_OK;
}

/* Max-min fair rates of the active flows (progressive filling): the
 * resource with the smallest fair share freezes its flows at that share,
 * which is taken from the other resources they cross; repeat.
 *
 * Every flow crosses one injection and one ejection, so no flow can go
 * faster than rmax = min(injection, ejection capacity): adding that bound
 * per flow leaves the allocation unchanged, and makes redundant every
 * resource whose flows could not fill it even at rmax each (a link with at
 * most 3 flows, a node with one).  Those are left out; flows that no
 * remaining resource limits below rmax get rmax. */
static int recompute(paragon_t *st)
{
    size_t total = 0;
    uint64_t rmax =
        st->cap_inject < st->cap_eject ? st->cap_inject : st->cap_eject;
    st->next_done = MCEI_TIME_INF;
    st->dirty = 0;
    if (st->nflows == 0)
        return MCE_OK;
    if (++st->stamp == 0) {
        memset(st->mark, 0, st->nres * sizeof(*st->mark));
        st->stamp = 1;
    }
    st->ntouched = 0;
    for (size_t i = 0; i < st->nflows; i++) {
        pmsg_t *f = st->flows[i];
        f->frozen = 0;
        for (int k = 0; k < f->nres; k++) {
            uint32_t r = f->res[k];
            if (st->mark[r] != st->stamp) {
                st->mark[r] = st->stamp;
                st->cnt[r] = 0;
                st->touched[st->ntouched++] = r;
            }
            st->cnt[r]++;
        }
    }
    uint32_t pos = 0;
    st->nh = 0;
    for (uint32_t i = 0; i < st->ntouched; i++) {
        uint32_t r = st->touched[i];
        uint64_t cap = capacity(st, r);
        st->live[r] = (u128)st->cnt[r] * rmax > cap;
        if (!st->live[r])
            continue; /* cannot limit anybody */
        st->off[r] = st->fill[r] = pos;
        pos += st->cnt[r];
        st->rem[r] = cap;
        if (hpush(st, r) != MCE_OK)
            return MCE_ERR_NOMEM;
    }
    total = pos;
    if (total > st->caplst) {
        size_t ncap = total > 2 * st->caplst ? total : 2 * st->caplst;
        pmsg_t **n = realloc(st->lst, ncap * sizeof(*n));
        if (n == NULL)
            return MCE_ERR_NOMEM;
        st->lst = n;
        st->caplst = ncap;
    }
    for (size_t i = 0; i < st->nflows; i++) {
        pmsg_t *f = st->flows[i];
        for (int k = 0; k < f->nres; k++)
            if (st->live[f->res[k]])
                st->lst[st->fill[f->res[k]]++] = f;
    }
    /* Lazy heap: shares only grow as flows freeze, so an entry whose
     * resource changed since it was queued is requeued with its current
     * share when it comes up; an up-to-date entry on top is the least. */
    while (st->nh > 0) {
        share_t top = st->hp[0];
        uint32_t r = top.r;
        uint64_t rate;
        if (!st->live[r]) {
            hpop(st);
            continue;
        }
        if (top.rem != st->rem[r] || top.cnt != st->cnt[r]) {
            hpop(st);
            if (hpush(st, r) != MCE_OK)
                return MCE_ERR_NOMEM;
            continue;
        }
        rate = st->rem[r] / st->cnt[r];
        if (rate >= rmax)
            break; /* everybody left runs at rmax */
        if (rate == 0)
            rate = 1; /* cannot happen with sane capacities; never stall */
        hpop(st);
        st->live[r] = 0;
        for (uint32_t j = st->off[r]; j < st->fill[r]; j++) {
            pmsg_t *f = st->lst[j];
            if (f->frozen)
                continue;
            f->frozen = 1;
            f->rate = rate;
            for (int k = 0; k < f->nres; k++) {
                uint32_t q = f->res[k];
                if (!st->live[q])
                    continue;
                st->rem[q] = st->rem[q] > rate ? st->rem[q] - rate : 0;
                if (--st->cnt[q] == 0)
                    st->live[q] = 0;
            }
        }
    }
    for (size_t i = 0; i < st->nflows; i++) {
        pmsg_t *f = st->flows[i];
        if (!f->frozen)
            f->rate = rmax;
        u128 d = (f->rem + f->rate - 1) / f->rate;
        mce_time_t t = sat_add(st->now, d);
        if (t < st->next_done)
            st->next_done = t;
    }
    return MCE_OK;
}

static mce_time_t tail_of(const paragon_t *st, const pmsg_t *pm)
{
    if (pm->kind == K_SHORT)
        return st->bs - st->start_up - st->coproc;
    return st->bl - st->start_up - st->coproc - 2 * st->control;
}

/* The last byte of @p pm is out at @p t: the sender is done, the
 * destination gets it after the protocol's tail. */
static int flow_done(paragon_t *st, pmsg_t *pm, mce_time_t t)
{
    int rc = push_ev(st, t, EV_SENT, pm, pm->msg);
    if (rc == MCE_OK)
        rc = push_ev(st, t + tail_of(st, pm), EV_DELIVER, pm, pm->msg);
    return rc;
}

/* Count the flows' progress up to @p t and finish those that are done. */
static int progress(paragon_t *st, mce_time_t t)
{
    mce_time_t dt = t - st->now;
    int rc = MCE_OK;
    if (t <= st->now) {
        return MCE_OK;
    }
    st->now = t;
    for (size_t i = 0; i < st->nflows;) {
        pmsg_t *f = st->flows[i];
        u128 d = (u128)f->rate * dt;
        f->rem = f->rem > d ? f->rem - d : 0;
        if (f->rem != 0) {
            i++;
            continue;
        }
        st->flows[i] = st->flows[--st->nflows];
        st->dirty = 1;
        if (rc == MCE_OK)
            rc = flow_done(st, f, t);
    }
    return rc;
}

static int start_flow(paragon_t *st, pmsg_t *pm, mce_time_t t)
{
    int rc;
    if (pm->msg->w.size == 0)
        return flow_done(st, pm, t);
    if ((rc = progress(st, t)) != MCE_OK)
        return rc;
    if (st->nflows == st->capflows) {
        size_t ncap = st->capflows ? 2 * st->capflows : 256;
        pmsg_t **n = realloc(st->flows, ncap * sizeof(*n));
        if (n == NULL)
            return MCE_ERR_NOMEM;
        st->flows = n;
        st->capflows = ncap;
    }
    pm->rem = (u128)pm->msg->w.size * st->unit;
    st->flows[st->nflows++] = pm;
    st->dirty = 1;
    return MCE_OK;
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
    pmsg_t *pm = calloc(1, sizeof(*pm) + (size_t)(hops + 2) * sizeof(uint32_t));
    if (pm == NULL)
        return NULL;
    pm->msg = m;
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
    pev_t *e;
    if (st == NULL)
        return;
    if (st->events.items != NULL) {
        /* each message's state is in exactly one event or in the flows */
        while ((e = mcei_heap_pop(&st->events)) != NULL) {
            free(e->pm); /* NULL for EV_SENT */
            free(e);
        }
        mcei_heap_fini(&st->events);
    }
    for (size_t i = 0; i < st->nflows; i++)
        free(st->flows[i]);
    free(st->flows);
    free(st->rem);
    free(st->cnt);
    free(st->off);
    free(st->fill);
    free(st->lst);
    free(st->touched);
    free(st->mark);
    free(st->hp);
    free(st->live);
    free(st->coproc_free);
    free(st);
}

static int paragon_init(mcei_net_t *net, mcei_machine_t *m, char *err,
                        size_t errlen)
{
    paragon_t *st = calloc(1, sizeof(*st));
    uint64_t w, h, u;
    int rc;
    if (st == NULL)
        return MCE_ERR_NOMEM;
    if ((rc = mcei_machine_u64(m, "paragon.width", 0, 16, &w, err, errlen)) ||
        (rc = mcei_machine_u64(m, "paragon.height", 0, 32, &h, err, errlen)) ||
        (rc = mcei_machine_time(m, "paragon.start_up", 1, 0, &st->start_up, err,
                                errlen)) ||
        (rc = mcei_machine_time(m, "paragon.coproc_start", 1, 0, &st->coproc,
                                err, errlen)) ||
        (rc = mcei_machine_time(m, "paragon.short_latency", 1, 0, &st->bs, err,
                                errlen)) ||
        (rc = mcei_machine_time(m, "paragon.long_latency", 1, 0, &st->bl, err,
                                errlen)) ||
        (rc = mcei_machine_time(m, "paragon.control", 1, 0, &st->control, err,
                                errlen)) ||
        (rc = mcei_machine_u64(m, "paragon.short_max", 1, 0, &st->short_max,
                               err, errlen)) ||
        (rc = mcei_machine_time(m, "paragon.inject_per_byte", 1, 0,
                                &st->inject_pb, err, errlen)) ||
        (rc = mcei_machine_time(m, "paragon.eject_per_byte", 1, 0,
                                &st->eject_pb, err, errlen)) ||
        (rc = mcei_machine_time(m, "paragon.link_per_byte", 1, 0, &st->link_pb,
                                err, errlen)))
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
    if (st->inject_pb == 0 || st->eject_pb == 0 || st->link_pb == 0 ||
        st->inject_pb > (1ULL << 40) || st->eject_pb > (1ULL << 40) ||
        st->link_pb > (1ULL << 40)) {
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

    /* Work units per byte: see the header. */
    u = lcm_upto(st->inject_pb, st->eject_pb, 1ULL << 62);
    u = u ? lcm_upto(u, st->link_pb, 1ULL << 62) : 0;
    if (u == 0) {
        u = 1ULL << 62; /* no small common multiple: shares are rounded */
    } else {
        /* times lcm(1..k): shares among up to k flows stay exact */
        uint64_t l = 1;
        for (uint64_t k = 2; k <= 64; k++) {
            uint64_t v = lcm_upto(l, k, 1ULL << 62), p;
            if (v == 0 || __builtin_mul_overflow(u, v, &p) || p > 1ULL << 62)
                break;
            l = v;
        }
        u *= l;
    }
    st->unit = u;
    st->cap_inject = u / st->inject_pb;
    st->cap_eject = u / st->eject_pb;
    st->cap_link = u / st->link_pb;

    rc = MCE_ERR_NOMEM;
    st->nres = 6u * (uint32_t)st->nodes;
    if ((st->rem = calloc(st->nres, sizeof(*st->rem))) == NULL ||
        (st->cnt = calloc(st->nres, sizeof(*st->cnt))) == NULL ||
        (st->off = calloc(st->nres, sizeof(*st->off))) == NULL ||
        (st->fill = calloc(st->nres, sizeof(*st->fill))) == NULL ||
        (st->touched = calloc(st->nres, sizeof(*st->touched))) == NULL ||
        (st->mark = calloc(st->nres, sizeof(*st->mark))) == NULL ||
        (st->live = calloc(st->nres, sizeof(*st->live))) == NULL ||
        (st->coproc_free =
             calloc((size_t)st->nodes, sizeof(*st->coproc_free))) == NULL)
        goto fail;
    mcei_heap_init(&st->events, ev_less);
    st->next_done = MCEI_TIME_INF;
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
    if ((rc = push_ev(st, m->w.ts + st->start_up, EV_ENTER, pm, m)) != MCE_OK) {
        free(pm);
        return rc;
    }
    st->in_flight++;
    return MCE_OK;
}

static mce_time_t paragon_next_event(const mcei_net_t *net)
{
    const paragon_t *st = net->priv;
    const pev_t *e = mcei_heap_top(&st->events);
    mce_time_t t = e ? e->t : MCEI_TIME_INF;
    return st->next_done < t ? st->next_done : t;
}

static int on_event(mcei_net_t *net, paragon_t *st, pev_t *e)
{
    pmsg_t *pm = e->pm;
    int src = (int)e->k1;
    switch (e->kind) {
    case EV_ENTER: {
        /* the co-processor starts one message at a time */
        mce_time_t start =
            e->t > st->coproc_free[src] ? e->t : st->coproc_free[src];
        st->coproc_free[src] = start + st->coproc;
        return push_ev(st, start + st->coproc, EV_COPROC, pm, pm->msg);
    }
    case EV_COPROC:
        if (pm->kind == K_LONG)
            return push_ev(st, e->t + 2 * st->control, EV_FLOW, pm, pm->msg);
        return start_flow(st, pm, e->t);
    case EV_FLOW:
        return start_flow(st, pm, e->t);
    case EV_SENT:
        return notify_sender(net, e);
    case EV_DELIVER: {
        mcei_msg_t *m = pm->msg;
        free(pm);
        st->in_flight--;
        net->deliver(net->deliver_ctx, m, e->t);
        return MCE_OK;
    }
    }
    return MCE_ERR_INVAL;
}

static int paragon_advance(mcei_net_t *net, mce_time_t horizon)
{
    paragon_t *st = net->priv;
    int rc = MCE_OK;
    for (;;) {
        pev_t *e = mcei_heap_top(&st->events);
        mce_time_t te = e ? e->t : MCEI_TIME_INF;
        /* Rates are recomputed once all events of the moment are in. */
        if (st->dirty && te > st->now && (rc = recompute(st)) != MCE_OK)
            return rc;
        if (!st->dirty && st->next_done <= te) {
            /* flows end before (or with) the next event */
            if (st->next_done >= horizon)
                break;
            if ((rc = progress(st, st->next_done)) != MCE_OK)
                return rc;
            continue;
        }
        if (te >= horizon)
            break;
        mcei_heap_pop(&st->events);
        rc = on_event(net, st, e);
        free(e);
        if (rc != MCE_OK)
            return rc;
    }
    return MCE_OK;
}

static size_t paragon_in_flight(const mcei_net_t *net)
{
    const paragon_t *st = net->priv;
    return st->in_flight;
}

const mcei_net_ops_t mcei_net_paragon_ops = {
    .name = "paragon",
    .description = "Intel Paragon 2D mesh: row-column wormhole routing, "
                   "max-min fair link, injection and ejection sharing, "
                   "short/long/forced NX protocols",
    .init = paragon_init,
    .fini = paragon_fini,
    .lookahead = paragon_lookahead,
    .inject = paragon_inject,
    .next_event = paragon_next_event,
    .advance = paragon_advance,
    .in_flight = paragon_in_flight,
    .notifies_senders = 1,
};
