/* iWarp deposit and RTS message passing, model side (doc/design/iwarp-tcs.md,
 * sections 4 and 5; Warfel 1996, sections 3.1.4.2-3.1.4.3, 3.2.2-3.2.3),
 * part of the replicated network model "iwarp" (lib/net/iwarp.c calls in).
 *
 * Deposit.  A deposit injected at ts (the end of the sender's
 * dep.send_header) follows X then Y without wrap links (dep.routing =
 * mesh).  Its header enters the first link at ts + gate_op + gate_in and
 * must acquire each link of the route in turn: a link carries one deposit
 * at a time, and a header waiting for a link holds the ones it has
 * (wormhole).  It reaches the destination word_time + gate_out after the
 * last link: 5 + H clocks without contention, H the route's hop latencies
 * plus hop_turn at its corner.  Spooled deposits (more than one word) then
 * need the destination's receive spool (one at a time; a header waits for
 * it holding its links); the receive handler (dep.recv_irq, charged by the
 * node) starts when it is acquired, and the data drains into memory from
 * the handler's end, or from the start of the sender's spool (ts +
 * dep.send_spool) if later, at iwarp.spool_word a word.  The links and the
 * receive spool are free when the last word is in (the trailer's hop by
 * hop release is not modelled: every link is held until then).  The sender
 * is told (MCEI_IW_DEP_SENT) when its spool has sent the last word: the
 * drain end less the path (5 + H), or its spool start + n words, whichever
 * is later.  A 4-byte deposit carries its word right behind the header
 * (word_time later), uses no spool and frees the links on arrival.
 *
 * RTS.  One token on the 65-cell ring of mcei_iw_rts_pos (lib/net/
 * iwarp_dep.h); ring latency R = the sum of the ring's hop latencies (the
 * two links of the host cell cost iwarp.hop_host).  The idle token
 * released at position p at time t passes position q at t + lat(p, q) +
 * k R; a request injected at ts (after rts.send_call) is effective at ts +
 * lookahead and is granted at the first passage at or after that; when
 * several cells wait, the first the token reaches wins.  The holder's
 * message reaches the destination lat(A, B) + bytes / 4 x word_time after
 * the grant; the destination's handler sends the acknowledgement, which
 * reaches the source lat(B, A) later; the source's handler re-injects the
 * token (MCEI_IW_RTS_REL).  Requests are decided only when the model has
 * advanced past the grant, so every request that could win is known. */
#include "iwarp_dep.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/engine.h"
#include "../core/heap.h"
#include "../core/trace.h"
#include "iwarp.h"

typedef struct dev {
    mce_time_t t;
    mcei_msg_t *msg;
} dep_ev_t;

typedef struct rreq {
    mcei_msg_t *msg;
    mce_time_t eff;
} rreq_t;

struct mcei_iwdep {
    int cells, width, height, board_w, board_h, torus;
    mce_time_t clock, lookahead, word_time, spool_word, hop_board, hop_cross,
        hop_turn, hop_wrap, hop_host, gate_op, gate_in, gate_out;
    mce_time_t send_spool, recv_irq;
    mce_time_t *link_free;  /* cells x 4 directed links */
    mce_time_t *spool_free; /* per cell: receive spool */
    /* RTS */
    int ring_n;
    mce_time_t *ring_off; /* latency from position 0 to position i */
    mce_time_t ring_R;
    int tok_busy, tok_pos;
    mce_time_t tok_time;
    rreq_t *req;
    size_t nreq, capreq;
    mcei_heap_t events;
    size_t in_flight;
};

static int dev_less(const void *x, const void *y)
{
    const dep_ev_t *a = x, *b = y;
    return mcei_order_less(a->t, &a->msg->w, b->t, &b->msg->w);
}

static int get_clocks(mcei_machine_t *m, const char *key, mce_time_t clock,
                      mce_time_t *out, char *err, size_t errlen)
{
    uint64_t v;
    int rc = mcei_key_u64(m, key, &v, err, errlen);
    if (rc != MCE_OK)
        return rc;
    if (v > 1000000) {
        snprintf(err, errlen, "machine '%s': %s must be at most 1000000 clocks",
                 m->name, key);
        return MCE_ERR_MACHINE;
    }
    *out = v * clock;
    return MCE_OK;
}

/* Hop latency of the link from cell a to its neighbour b (as
 * lib/net/iwarp.c: board, cross or wrap). */
static mce_time_t hop(const mcei_iwdep_t *s, int a, int b)
{
    int ax = a % s->width, ay = a / s->width, bx = b % s->width,
        by = b / s->width;
    int dx = abs(ax - bx), dy = abs(ay - by);
    if (dx + dy != 1)
        return (mce_time_t)(dx + dy) * s->hop_wrap; /* wrap links */
    if (ax / s->board_w == bx / s->board_w &&
        ay / s->board_h == by / s->board_h)
        return s->hop_board;
    return s->hop_cross;
}

static int ring_cell(const mcei_iwdep_t *s, int pos)
{
    for (int c = 0; c < s->cells; c++)
        if (mcei_iw_rts_pos(c, s->width, s->height) == pos)
            return c;
    return -1;
}

int mcei_iwdep_init(mcei_iwdep_t **out, mcei_machine_t *m, int cells,
                    mce_time_t clock, mce_time_t lookahead, char *err,
                    size_t errlen)
{
    mcei_iwdep_t *s = calloc(1, sizeof(*s));
    uint64_t w, h, bw, bh;
    const char *routing;
    int rc, *bycell = NULL;
    if (s == NULL)
        return MCE_ERR_NOMEM;
    s->clock = clock;
    if ((rc = mcei_key_u64(m, "iwarp.width", &w, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.height", &h, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.board_w", &bw, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.board_h", &bh, err, errlen)) ||
        (rc = get_clocks(m, "iwarp.word_time", clock, &s->word_time, err,
                         errlen)) ||
        (rc = get_clocks(m, "iwarp.spool_word", clock, &s->spool_word, err,
                         errlen)) ||
        (rc = get_clocks(m, "iwarp.hop_board", clock, &s->hop_board, err,
                         errlen)) ||
        (rc = get_clocks(m, "iwarp.hop_cross", clock, &s->hop_cross, err,
                         errlen)) ||
        (rc = get_clocks(m, "iwarp.hop_turn", clock, &s->hop_turn, err,
                         errlen)) ||
        (rc = get_clocks(m, "iwarp.hop_wrap", clock, &s->hop_wrap, err,
                         errlen)) ||
        (rc = get_clocks(m, "iwarp.hop_host", clock, &s->hop_host, err,
                         errlen)) ||
        (rc =
             get_clocks(m, "iwarp.gate_op", clock, &s->gate_op, err, errlen)) ||
        (rc =
             get_clocks(m, "iwarp.gate_in", clock, &s->gate_in, err, errlen)) ||
        (rc = get_clocks(m, "iwarp.gate_out", clock, &s->gate_out, err,
                         errlen)) ||
        (rc = get_clocks(m, "dep.send_spool", clock, &s->send_spool, err,
                         errlen)) ||
        (rc = get_clocks(m, "dep.recv_irq", clock, &s->recv_irq, err, errlen)))
        goto fail;
    routing = mcei_key_str(m, "dep.routing");
    if (routing == NULL || strcmp(routing, "mesh") != 0) {
        snprintf(err, errlen,
                 "machine '%s': dep.routing must be 'mesh' (X then Y without "
                 "wrap links; the torus routing of the design note is not "
                 "implemented)",
                 m->name);
        rc = MCE_ERR_MACHINE;
        goto fail;
    }
    if (w < 2 || h < 2 || bw == 0 || bh == 0 || s->spool_word == 0) {
        snprintf(err, errlen,
                 "machine '%s': deposit and RTS message passing need at "
                 "least 2 x 2 cells and a positive iwarp.spool_word",
                 m->name);
        rc = MCE_ERR_MACHINE;
        goto fail;
    }
    s->cells = cells;
    s->width = (int)w;
    s->height = (int)h;
    s->board_w = (int)bw;
    s->board_h = (int)bh;
    s->lookahead = lookahead;
    s->ring_n = cells + 1;
    s->link_free = calloc((size_t)cells * 4, sizeof(*s->link_free));
    s->spool_free = calloc((size_t)cells, sizeof(*s->spool_free));
    s->ring_off = calloc((size_t)s->ring_n + 1, sizeof(*s->ring_off));
    bycell = malloc((size_t)s->ring_n * sizeof(*bycell));
    if (!s->link_free || !s->spool_free || !s->ring_off || !bycell) {
        rc = MCE_ERR_NOMEM;
        goto fail;
    }
    for (int p = 0; p < cells; p++)
        if ((bycell[p] = ring_cell(s, p)) < 0) {
            snprintf(err, errlen, "machine '%s': no RTS ring for %d x %d",
                     m->name, s->width, s->height);
            rc = MCE_ERR_MACHINE;
            goto fail;
        }
    for (int p = 1; p <= s->ring_n; p++) {
        mce_time_t l;
        if (p == cells || p == s->ring_n) /* to and from the host cell */
            l = s->hop_host;
        else
            l = hop(s, bycell[p - 1], bycell[p]);
        s->ring_off[p] = s->ring_off[p - 1] + l;
    }
    s->ring_R = s->ring_off[s->ring_n];
    free(bycell);
    s->tok_pos = cells; /* the host injects the token at boot */
    mcei_heap_init(&s->events, dev_less);
    *out = s;
    return MCE_OK;
fail:
    free(bycell);
    free(s->link_free);
    free(s->spool_free);
    free(s->ring_off);
    free(s);
    return rc;
}

void mcei_iwdep_fini(mcei_iwdep_t *s)
{
    dep_ev_t *e;
    if (s == NULL)
        return;
    while ((e = mcei_heap_pop(&s->events)) != NULL) {
        mcei_msg_release(e->msg);
        free(e);
    }
    for (size_t i = 0; i < s->nreq; i++)
        mcei_msg_release(s->req[i].msg);
    mcei_heap_fini(&s->events);
    free(s->req);
    free(s->link_free);
    free(s->spool_free);
    free(s->ring_off);
    free(s);
}

static int push(mcei_iwdep_t *s, mcei_msg_t *m, mce_time_t t)
{
    dep_ev_t *e = malloc(sizeof(*e));
    if (e == NULL)
        return MCE_ERR_NOMEM;
    e->t = t;
    e->msg = m;
    s->in_flight++;
    return mcei_heap_push(&s->events, e) == 0 ? MCE_OK : MCE_ERR_NOMEM;
}

/* ---- deposit ---------------------------------------------------------- */

/* A deposit on the trace: each link of its route from when its header
 * acquired it until it is free again (the tracks of the PCT connections'
 * links), and the destination's receive spool while it drains. */
static void trace_dep(const mcei_iwdep_t *s, const mcei_msg_t *m,
                      const int *links, const mce_time_t *acq, int nl,
                      mce_time_t end, mce_time_t spool_from)
{
    char label[48], args[96];
    snprintf(args, sizeof(args), "\"src\":%d,\"dst\":%d,\"bytes\":%" PRIu64,
             m->w.src, m->w.dst, m->w.size);
    for (int i = 0; i < nl; i++) {
        mcei_iw_link_label(label, sizeof(label), s->width, links[i]);
        mcei_trace_net_named("link", links[i], label, "deposit", acq[i], end,
                             args);
    }
    if (spool_from != MCEI_TIME_INF) {
        snprintf(label, sizeof(label), "node %d deposit receive spool",
                 m->w.dst);
        mcei_trace_net_named("deposit receive spool", m->w.dst, label,
                             "deposit", spool_from, end, args);
    }
}

static int on_dep(mcei_iwdep_t *s, mcei_msg_t *m)
{
    int cell = m->w.src, dst = m->w.dst, nl = 0, turned = 0, axis = -1;
    int links[1024];
    mce_time_t lat[1024], acq[1024], t, h, H = 0;
    uint64_t n = (m->w.size + 3) / 4;
    int cx = cell % s->width, cy = cell / s->width;
    int dx = dst % s->width, dy = dst / s->width;
    if (m->w.size == 0) {
        mcei_log("iwarp: node %d sent an empty deposit", cell);
        return MCE_ERR_INVAL;
    }
    /* X then Y, mesh: no wrap links */
    while (cx != dx || cy != dy) {
        int port, ncell, ax;
        if (cx != dx) {
            port = dx > cx ? 0 : 1; /* X+ / X- */
            ax = 0;
        } else {
            port = dy > cy ? 2 : 3; /* Y+ / Y- */
            ax = 1;
        }
        if (axis >= 0 && ax != axis)
            turned++;
        axis = ax;
        ncell = (cy + (port == 2) - (port == 3)) * s->width + cx + (port == 0) -
                (port == 1);
        links[nl] = (cy * s->width + cx) * 4 + port;
        lat[nl] = hop(s, cy * s->width + cx, ncell);
        H += lat[nl];
        nl++;
        cx = ncell % s->width;
        cy = ncell / s->width;
    }
    /* the header acquires the links in turn, holding those it has */
    t = m->w.ts + s->gate_op + s->gate_in;
    for (int i = 0; i < nl; i++) {
        if (s->link_free[links[i]] > t)
            t = s->link_free[links[i]];
        acq[i] = t;
        t += lat[i];
    }
    t += (mce_time_t)turned * s->hop_turn;
    H += (mce_time_t)turned * s->hop_turn;
    h = t + s->word_time + s->gate_out; /* header readable at dst */
    if (n == 1) {
        mce_time_t a = h + s->word_time; /* the word behind it */
        for (int i = 0; i < nl; i++)
            s->link_free[links[i]] = a;
        if (mcei_trace_net_on())
            trace_dep(s, m, links, acq, nl, a, MCEI_TIME_INF);
        m->w.aux[1] = a;
        return push(s, m, a);
    }
    {
        mce_time_t acq_spool = h > s->spool_free[dst] ? h : s->spool_free[dst];
        mce_time_t from = acq_spool + s->recv_irq, end, sent;
        mce_time_t spool = m->w.ts + s->send_spool;
        mcei_wire_t w;
        mcei_msg_t *nm;
        int rc;
        if (spool > from)
            from = spool;
        end = from + (mce_time_t)n * s->spool_word;
        s->spool_free[dst] = end;
        for (int i = 0; i < nl; i++)
            s->link_free[links[i]] = end;
        if (mcei_trace_net_on())
            trace_dep(s, m, links, acq, nl, end, acq_spool);
        sent = spool + (mce_time_t)n * s->spool_word;
        if (end > sent + (mce_time_t)5 * s->clock + H)
            sent = end - (mce_time_t)5 * s->clock - H;
        if (sent < m->w.ts + s->lookahead)
            sent = m->w.ts + s->lookahead;
        memset(&w, 0, sizeof(w));
        w.ts = sent;
        w.seq = m->w.seq;
        w.src = dst;
        w.dst = m->w.src;
        w.ctx = MCEI_CTX_PROTOCOL;
        w.type = MCEI_IW_DEP_SENT;
        w.aux[0] = m->w.aux[0];
        w.aux[1] = sent;
        if ((nm = mcei_msg_from_wire(&w)) == NULL)
            return MCE_ERR_NOMEM;
        if ((rc = push(s, nm, sent)) != MCE_OK)
            return rc;
        m->w.aux[1] = end;
        return push(s, m, acq_spool);
    }
}

/* ---- RTS -------------------------------------------------------------- */

static int rpos(const mcei_iwdep_t *s, int cell)
{
    return mcei_iw_rts_pos(cell, s->width, s->height);
}

/* Ring latency from position a forward to position b (0 when equal). */
static mce_time_t rlat(const mcei_iwdep_t *s, int a, int b)
{
    mce_time_t l = s->ring_off[b] - s->ring_off[a];
    return b >= a ? l : l + s->ring_R;
}

/* First passage of the free token at q at or after t. */
static mce_time_t passage(const mcei_iwdep_t *s, int q, mce_time_t t)
{
    mce_time_t p = s->tok_time + rlat(s, s->tok_pos, q);
    if (p < t)
        p += (t - p + s->ring_R - 1) / s->ring_R * s->ring_R;
    return p;
}

/* The request the free token serves next (-1: none) and its grant time. */
static long next_grant(const mcei_iwdep_t *s, mce_time_t *when)
{
    long best = -1;
    mce_time_t bt = MCEI_TIME_INF;
    if (s->tok_busy)
        return -1;
    for (size_t i = 0; i < s->nreq; i++) {
        mce_time_t g = passage(s, rpos(s, s->req[i].msg->w.src), s->req[i].eff);
        if (g < bt) {
            bt = g;
            best = (long)i;
        }
    }
    *when = bt;
    return best;
}

static int on_rts(mcei_iwdep_t *s, mcei_msg_t *m)
{
    if (m->w.type == MCEI_IW_RTS) {
        if (s->nreq == s->capreq) {
            size_t cap = s->capreq ? 2 * s->capreq : 16;
            rreq_t *p = realloc(s->req, cap * sizeof(*p));
            if (p == NULL)
                return MCE_ERR_NOMEM;
            s->req = p;
            s->capreq = cap;
        }
        s->req[s->nreq].msg = m;
        s->req[s->nreq].eff = m->w.ts + s->lookahead;
        s->nreq++;
        return MCE_OK;
    }
    if (m->w.type == MCEI_IW_RTS_ACK)
        return push(s, m,
                    m->w.ts + rlat(s, rpos(s, m->w.src), rpos(s, m->w.dst)));
    /* MCEI_IW_RTS_REL */
    if (!s->tok_busy || s->tok_pos != rpos(s, m->w.src)) {
        mcei_log("iwarp: node %d released an RTS token it does not hold",
                 m->w.src);
        return MCE_ERR_STATE;
    }
    s->tok_busy = 0;
    s->tok_time = m->w.ts;
    mcei_trace_net_close("RTS token", 0, m->w.ts);
    mcei_msg_release(m);
    return MCE_OK;
}

int mcei_iwdep_inject(mcei_iwdep_t *s, mcei_msg_t *m)
{
    int rc;
    switch (m->w.type) {
    case MCEI_IW_DEP:
        rc = on_dep(s, m);
        break;
    case MCEI_IW_RTS:
    case MCEI_IW_RTS_ACK:
    case MCEI_IW_RTS_REL:
        rc = on_rts(s, m);
        break;
    default:
        return 0;
    }
    return rc == MCE_OK ? 1 : rc;
}

mce_time_t mcei_iwdep_next_event(const mcei_iwdep_t *s)
{
    const dep_ev_t *e = mcei_heap_top(&s->events);
    mce_time_t g = MCEI_TIME_INF;
    next_grant(s, &g);
    return e != NULL && e->t < g ? e->t : g;
}

int mcei_iwdep_advance(mcei_iwdep_t *s, mcei_net_t *net, mce_time_t horizon)
{
    for (;;) {
        dep_ev_t *e = mcei_heap_top(&s->events);
        mce_time_t g = MCEI_TIME_INF;
        long i = next_grant(s, &g);
        if (i >= 0 && g < horizon && (e == NULL || g <= e->t)) {
            mcei_msg_t *m = s->req[i].msg;
            int rc;
            s->req[i] = s->req[--s->nreq];
            s->tok_busy = 1;
            s->tok_pos = rpos(s, m->w.src);
            if (mcei_trace_net_on()) {
                /* held from the grant until the sender releases it */
                char name[32], args[96];
                snprintf(name, sizeof(name), "held by node %d", m->w.src);
                snprintf(args, sizeof(args),
                         "\"src\":%d,\"dst\":%d,\"bytes\":%" PRIu64, m->w.src,
                         m->w.dst, m->w.size);
                mcei_trace_net_open("RTS token", 0, "RTS token", name, g, args);
            }
            rc = push(s, m,
                      g + rlat(s, s->tok_pos, rpos(s, m->w.dst)) +
                          (mce_time_t)((m->w.size + 3) / 4) * s->word_time);
            if (rc != MCE_OK)
                return rc;
            continue;
        }
        if (e == NULL || e->t >= horizon)
            return MCE_OK;
        mcei_heap_pop(&s->events);
        s->in_flight--;
        net->deliver(net->deliver_ctx, e->msg, e->t);
        free(e);
    }
}

size_t mcei_iwdep_in_flight(const mcei_iwdep_t *s)
{
    return s->in_flight + s->nreq;
}
