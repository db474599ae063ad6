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
 * it holding its links); the deposit goes to the destination when it is
 * acquired (its receive handler, dep.recv_irq, starts).  The data drains
 * into memory at iwarp.spool_word a word from the later of two times the
 * cells report: the sender's spool start (MCEI_IW_DEP_GO, the end of its
 * dep.send_spool set-up, later if an interrupt handler ran during it) and
 * the receive handler's end (MCEI_IW_DEP_READY).  Until both are known the
 * deposit's links and the receive spool are held with no known end, and a
 * deposit that needs one of them waits (deposits move on in injection
 * order).  The destination is told when the last word is in
 * (MCEI_IW_DEP_DRAIN); the links and the receive spool are free then (the
 * trailer's hop by hop release is not modelled).  The sender is told
 * (MCEI_IW_DEP_SENT) when its spool has sent the last word: the drain end
 * less the path (5 + H), or its spool start + n words, whichever is later.
 * A 4-byte deposit carries its word right behind the header (word_time
 * later), uses no spool and frees the links on arrival.
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

/* A deposit the model has not finished deciding: its header acquiring the
 * links of its route (one may be held by a deposit whose end is not known
 * yet), waiting for the destination's receive spool, or holding both until
 * the sender's spool starts (MCEI_IW_DEP_GO) and the receive handler has
 * ended (MCEI_IW_DEP_READY). */
enum { DP_LINKS, DP_SPOOL, DP_DRAIN };
typedef struct dpend {
    mcei_msg_t *m; /* until delivered to the destination */
    mcei_wire_t w; /* its header, for what follows */
    int state, nl, next_link, turned;
    int *links;
    char *pre; /* per link: claimed ahead (prev: its
                * free time before the claim) */
    int pre_spool;
    mce_time_t prev_spool;
    mce_time_t *lat, *acq, *prev;
    mce_time_t t, H, acq_spool, go,
        ready; /* go, ready: MCEI_TIME_INF = not yet */
    struct dpend *next;
} dpend_t;

struct mcei_iwdep {
    int cells, width, height, board_w, board_h, torus;
    mce_time_t clock, lookahead, word_time, spool_word, hop_board, hop_cross,
        hop_turn, hop_wrap, hop_host, gate_op, gate_in, gate_out;
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
    /* deposits not decided yet, in the order they were injected; per cell
     * the one whose sender has not started its spool and the one holding
     * its receive spool before the handler's end */
    dpend_t *pend, **pend_tail;
    size_t npend;
    dpend_t **sending, **receiving;
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
        (rc =
             get_clocks(m, "iwarp.gate_out", clock, &s->gate_out, err, errlen)))
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
    s->sending = calloc((size_t)cells, sizeof(*s->sending));
    s->receiving = calloc((size_t)cells, sizeof(*s->receiving));
    s->pend_tail = &s->pend;
    s->ring_off = calloc((size_t)s->ring_n + 1, sizeof(*s->ring_off));
    bycell = malloc((size_t)s->ring_n * sizeof(*bycell));
    if (!s->link_free || !s->spool_free || !s->ring_off || !bycell ||
        !s->sending || !s->receiving) {
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
    free(s->sending);
    free(s->receiving);
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
    while (s->pend != NULL) {
        dpend_t *p = s->pend;
        s->pend = p->next;
        if (p->m != NULL)
            mcei_msg_release(p->m);
        free(p);
    }
    free(s->sending);
    free(s->receiving);
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
static void trace_dep(const mcei_iwdep_t *s, const mcei_wire_t *m,
                      const int *links, const mce_time_t *acq, int nl,
                      mce_time_t end, mce_time_t spool_from)
{
    char label[48], args[96];
    snprintf(args, sizeof(args), "\"src\":%d,\"dst\":%d,\"bytes\":%" PRIu64,
             m->src, m->dst, m->size);
    for (int i = 0; i < nl; i++) {
        mcei_iw_link_label(label, sizeof(label), s->width, links[i]);
        mcei_trace_net_named("link", links[i], label, "deposit", acq[i], end,
                             args);
    }
    if (spool_from != MCEI_TIME_INF) {
        snprintf(label, sizeof(label), "node %d deposit receive spool", m->dst);
        mcei_trace_net_named("deposit receive spool", m->dst, label, "deposit",
                             spool_from, end, args);
    }
}

/* A message from the model to a cell at t (aux[0] of the deposit). */
static int tell(mcei_iwdep_t *s, const mcei_wire_t *m, int to, int64_t type,
                mce_time_t t, mce_time_t val)
{
    mcei_wire_t w;
    mcei_msg_t *nm;
    memset(&w, 0, sizeof(w));
    w.ts = t;
    w.seq = m->seq;
    w.src = to == m->src ? m->dst : m->src;
    w.dst = to;
    w.ctx = MCEI_CTX_PROTOCOL;
    w.type = type;
    w.aux[0] = m->aux[0];
    w.aux[1] = val;
    if ((nm = mcei_msg_from_wire(&w)) == NULL)
        return MCE_ERR_NOMEM;
    return push(s, nm, t);
}

/* Take the deposit as far as the known resources allow.  @p now: the
 * time of the injection being processed (events are never earlier than
 * now + lookahead).  Returns 1 when it is decided (p freed), 0 when it
 * waits, < 0 on an error. */
static int progress(mcei_iwdep_t *s, dpend_t *p, mce_time_t now)
{
    mcei_msg_t *m = p->m;
    const mcei_wire_t *w = &p->w;
    int dst = w->dst, rc;
    uint64_t n = (w->size + 3) / 4;
    mce_time_t h, end, sent, floor_t = now + s->lookahead;
    if (p->state == DP_LINKS) {
        /* the header acquires the links in turn, holding those it has */
        for (; p->next_link < p->nl; p->next_link++) {
            int j = p->next_link;
            mce_time_t f = p->pre[j] ? p->prev[j] : s->link_free[p->links[j]];
            if (f == MCEI_TIME_INF) {
                /* held by a deposit not decided yet: the header waits.
                 * It keeps its place on the rest of its route and at the
                 * receive spool, as if decided now (links and spools are
                 * granted in injection order, as before deposits waited
                 * for their ends): claim what is free of them. */
                for (int k = j + 1; k < p->nl; k++)
                    if (!p->pre[k] &&
                        s->link_free[p->links[k]] != MCEI_TIME_INF) {
                        p->pre[k] = 1;
                        p->prev[k] = s->link_free[p->links[k]];
                        s->link_free[p->links[k]] = MCEI_TIME_INF;
                    }
                if (w->size > 4 && !p->pre_spool &&
                    s->spool_free[dst] != MCEI_TIME_INF) {
                    p->pre_spool = 1;
                    p->prev_spool = s->spool_free[dst];
                    s->spool_free[dst] = MCEI_TIME_INF;
                }
                return 0;
            }
            if (f > p->t)
                p->t = f;
            p->acq[p->next_link] = p->t;
            s->link_free[p->links[p->next_link]] = MCEI_TIME_INF;
            p->t += p->lat[p->next_link];
        }
        p->t += (mce_time_t)p->turned * s->hop_turn;
        h = p->t + s->word_time + s->gate_out; /* header readable at dst */
        p->t = h;
        if (n == 1) {
            mce_time_t a = h + s->word_time; /* the word behind it */
            for (int i = 0; i < p->nl; i++)
                s->link_free[p->links[i]] = a;
            if (mcei_trace_net_on())
                trace_dep(s, w, p->links, p->acq, p->nl, a, MCEI_TIME_INF);
            m->w.aux[1] = a;
            if ((rc = push(s, m, a)) != MCE_OK)
                return rc;
            p->m = NULL;
            return 1;
        }
        p->state = DP_SPOOL;
    }
    if (p->state == DP_SPOOL) {
        mce_time_t f = p->pre_spool ? p->prev_spool : s->spool_free[dst];
        if (f == MCEI_TIME_INF)
            return 0; /* another deposit drains into this cell */
        p->acq_spool = p->t > f ? p->t : f;
        s->spool_free[dst] = MCEI_TIME_INF;
        s->receiving[dst] = p;
        p->state = DP_DRAIN;
        /* the receive handler starts; the data waits for its end (the
         * destination keeps the message until MCEI_IW_DEP_DRAIN) */
        m->w.aux[1] = 0;
        p->m = NULL;
        if ((rc = push(s, m, p->acq_spool)) != MCE_OK)
            return rc;
    }
    if (p->go == MCEI_TIME_INF || p->ready == MCEI_TIME_INF)
        return 0;
    /* the data drains from the later of the sender's spool start and the
     * receive handler's end, a word per spool_word */
    end = (p->go > p->ready ? p->go : p->ready) + (mce_time_t)n * s->spool_word;
    s->spool_free[dst] = end;
    for (int i = 0; i < p->nl; i++)
        s->link_free[p->links[i]] = end;
    if (mcei_trace_net_on())
        trace_dep(s, w, p->links, p->acq, p->nl, end, p->acq_spool);
    sent = p->go + (mce_time_t)n * s->spool_word;
    if (end > sent + (mce_time_t)5 * s->clock + p->H)
        sent = end - (mce_time_t)5 * s->clock - p->H;
    if (sent < floor_t)
        sent = floor_t;
    if ((rc = tell(s, w, w->src, MCEI_IW_DEP_SENT, sent, sent)) != MCE_OK ||
        (rc = tell(s, w, dst, MCEI_IW_DEP_DRAIN, end > floor_t ? end : floor_t,
                   end)) != MCE_OK)
        return rc;
    return 1;
}

static void pend_free(mcei_iwdep_t *s, dpend_t *p)
{
    dpend_t **pp = &s->pend;
    while (*pp != p)
        pp = &(*pp)->next;
    *pp = p->next;
    if (s->pend_tail == &p->next)
        s->pend_tail = pp;
    s->npend--;
    free(p);
}

/* After a deposit was decided: every waiting one that can move on does,
 * in injection order, until none moves. */
static int progress_all(mcei_iwdep_t *s, mce_time_t now)
{
    int moved;
    do {
        moved = 0;
        for (dpend_t *p = s->pend, *nx; p != NULL; p = nx) {
            int st = p->state, nl = p->next_link, rc;
            nx = p->next;
            if (p->state == DP_DRAIN &&
                (p->go == MCEI_TIME_INF || p->ready == MCEI_TIME_INF))
                continue;
            rc = progress(s, p, now);
            if (rc < 0)
                return rc;
            if (rc == 1) {
                pend_free(s, p);
                moved = 1;
            } else if (p->state != st || p->next_link != nl)
                moved = 1;
        }
    } while (moved);
    return MCE_OK;
}

static int on_dep(mcei_iwdep_t *s, mcei_msg_t *m)
{
    int cell = m->w.src, dst = m->w.dst, nl = 0, turned = 0, axis = -1;
    int cx = cell % s->width, cy = cell / s->width;
    int dx = dst % s->width, dy = dst / s->width, rc;
    size_t maxl = (size_t)(s->width + s->height);
    dpend_t *p;
    if (m->w.size == 0) {
        mcei_log("iwarp: node %d sent an empty deposit", cell);
        return MCE_ERR_INVAL;
    }
    p = calloc(1, sizeof(*p) + maxl * (3 * sizeof(mce_time_t) + sizeof(int) +
                                       sizeof(char)));
    if (p == NULL)
        return MCE_ERR_NOMEM;
    p->lat = (mce_time_t *)(p + 1);
    p->acq = p->lat + maxl;
    p->prev = p->acq + maxl;
    p->links = (int *)(p->prev + maxl);
    p->pre = (char *)(p->links + maxl);
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
        p->links[nl] = (cy * s->width + cx) * 4 + port;
        p->lat[nl] = hop(s, cy * s->width + cx, ncell);
        p->H += p->lat[nl];
        nl++;
        cx = ncell % s->width;
        cy = ncell / s->width;
    }
    p->m = m;
    p->w = m->w;
    p->nl = nl;
    p->turned = turned;
    p->H += (mce_time_t)turned * s->hop_turn;
    p->t = m->w.ts + s->gate_op + s->gate_in;
    p->go = p->ready = MCEI_TIME_INF;
    if (m->w.size > 4) {
        if (s->sending[cell] != NULL) {
            mcei_log("iwarp: node %d started a deposit before its previous "
                     "one's spool",
                     cell);
            free(p);
            return MCE_ERR_STATE;
        }
        s->sending[cell] = p;
    }
    p->state = DP_LINKS;
    *s->pend_tail = p;
    s->pend_tail = &p->next;
    s->npend++;
    rc = progress(s, p, m->w.ts);
    if (rc == 1)
        pend_free(s, p);
    return rc < 0 ? rc : MCE_OK;
}

/* The sender's spool starts (GO) or the receive handler ended (READY):
 * consumed here; the deposit is decided once it has both. */
static int on_dep_ctl(mcei_iwdep_t *s, mcei_msg_t *m)
{
    int cell = m->w.src, rc;
    dpend_t *p;
    mce_time_t now = m->w.ts;
    if (m->w.type == MCEI_IW_DEP_GO) {
        p = s->sending[cell];
        s->sending[cell] = NULL;
        if (p != NULL)
            p->go = now;
    } else {
        p = s->receiving[cell];
        s->receiving[cell] = NULL;
        if (p != NULL)
            p->ready = now;
    }
    mcei_msg_release(m);
    if (p == NULL) {
        mcei_log("iwarp: node %d reported a deposit spool it does not have",
                 cell);
        return MCE_ERR_STATE;
    }
    if (p->state != DP_DRAIN)
        return MCE_OK;
    if ((rc = progress(s, p, now)) < 0)
        return rc;
    if (rc == 1) {
        pend_free(s, p);
        return progress_all(s, now);
    }
    return MCE_OK;
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
    case MCEI_IW_DEP_GO:
    case MCEI_IW_DEP_READY:
        rc = on_dep_ctl(s, m);
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
    return s->in_flight + s->nreq + s->npend;
}
