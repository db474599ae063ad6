/* The iWarp network (Warfel 1996, chapter 3; doc/design/iwarp-tcs.md,
 * sections 2 and 3).  Step 1 of the design's plan (section 10.6).
 *
 * Topology.  A W x H torus of cells (cell = y x W + x), grouped into
 * board_w x board_h boards.  A link between neighbours costs hop_board
 * clocks inside a board, hop_cross between boards and hop_wrap on a torus
 * wrap link; a connection turning a corner inside a cell (changing axis or
 * direction) pays hop_turn there.
 *
 * PCT mirror.  Every cell configures its own PCTs (direct configuration);
 * each configuration reaches the model as an MCEI_IW_CFG injection, which
 * the model consumes.  A connection is the chain of PCTs from a source
 * PCT whose input is the CPU (a write gate) to a destination PCT whose
 * output is the CPU (a read gate).  The model walks the chain of every
 * data block and refuses (ends the run) chains that loop or are misrouted
 * (an upstream PCT naming a downstream PCT that does not name it back)
 * and blocks whose declared endpoint is not where the chain leads.  A
 * block starts no earlier than the time the last configuration of its
 * chain takes effect; a block on a chain that is not yet complete waits
 * until the missing configuration arrives.
 *
 * Timing of a block of n words written at ts (section 3.4), for a
 * connection whose links no other connection uses at the same time: word
 * k (1..n) starts on the first link at l_k = base + (k-1) word_time with
 * base = max(ts + gate_op + gate_in, previous word of the connection +
 * word_time); it is readable at the destination at l_k + word_time + H +
 * gate_out, H = the chain's hop latencies plus its turns.  The block is
 * delivered when its first word is readable, carrying the readable time
 * of its last word and the interval between words.
 *
 * Not modelled in step 1 (step 2 of the plan): link sharing (word-by-word
 * multiplexing, PCT groups, skipped words, DQ congestion) and FIFO
 * back-pressure (a reader that does not read never slows the writer).  A
 * block that would use a link during the time another connection's block
 * uses it is refused with MCE_ERR_UNSUPPORTED (the run ends with a
 * message) rather than timed wrongly.
 *
 * Lookahead: gate_op + gate_in (section 2.2): a block's first word enters
 * its first link no earlier; configurations take effect at ts +
 * max(lookahead, pct_config). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/engine.h" /* mcei_msg_release: the model consumes CFG */
#include "../core/heap.h"
#include "../core/net.h"
#include "iwarp.h"
#include "iwarp_dep.h"
#include "iwarp_sru.h"

typedef struct pct_entry {
    int configured;
    int in_port, in_pct, out_port, out_pct, endpoint;
    mce_time_t cfg_time; /* when the configuration takes effect */
} pct_entry_t;

typedef struct link_use {
    int owner; /* source cell x pcts + source PCT, -1 none */
    mce_time_t busy_until;
} link_use_t;

typedef struct event {
    mce_time_t t;
    mcei_msg_t *msg;
} event_t;

typedef struct parked {
    mcei_msg_t *msg;
    struct parked *next;
} parked_t;

typedef struct iwnet {
    int width, height, board_w, board_h, cells, pcts;
    mce_time_t clock, word_time, hop_board, hop_cross, hop_turn, hop_wrap;
    mce_time_t gate_op, gate_in, gate_out, pct_config, lookahead;
    pct_entry_t *mirror;   /* cells x pcts */
    mce_time_t *conn_last; /* per source PCT: last word's link start */
    int *conn_used;        /* per source PCT: conn_last is valid */
    link_use_t *links;     /* cells x 4 directed links */
    mcei_heap_t events;
    parked_t *parked, **parked_tail;
    size_t in_flight;
    mcei_iwsru_t *sru; /* SRU bus and ring hops (iwarp_sru.c) */
    mcei_iwdep_t *dep; /* deposit and RTS (iwarp_dep.c) */
} iwnet_t;

static int ev_less(const void *x, const void *y)
{
    const event_t *a = x, *b = y;
    return mcei_order_less(a->t, &a->msg->w, b->t, &b->msg->w);
}

/* ---- topology --------------------------------------------------------- */

static int neighbour(const iwnet_t *st, int cell, int port)
{
    int x = cell % st->width, y = cell / st->width;
    switch (port) {
    case MCEI_IW_XP:
        x = (x + 1) % st->width;
        break;
    case MCEI_IW_XM:
        x = (x + st->width - 1) % st->width;
        break;
    case MCEI_IW_YP:
        y = (y + 1) % st->height;
        break;
    case MCEI_IW_YM:
        y = (y + st->height - 1) % st->height;
        break;
    default:
        return -1;
    }
    return y * st->width + x;
}

static int opposite(int port)
{
    static const int opp[] = {MCEI_IW_CPU, MCEI_IW_XM, MCEI_IW_XP, MCEI_IW_YM,
                              MCEI_IW_YP};
    return opp[port];
}

/* Hop latency of the link leaving @p cell on side @p port. */
static mce_time_t hop_latency(const iwnet_t *st, int cell, int port)
{
    int x = cell % st->width, y = cell / st->width;
    int n = neighbour(st, cell, port);
    int nx = n % st->width, ny = n / st->width;
    int wrap = (port == MCEI_IW_XP && x == st->width - 1) ||
               (port == MCEI_IW_XM && x == 0) ||
               (port == MCEI_IW_YP && y == st->height - 1) ||
               (port == MCEI_IW_YM && y == 0);
    if (wrap)
        return st->hop_wrap;
    if (x / st->board_w == nx / st->board_w &&
        y / st->board_h == ny / st->board_h)
        return st->hop_board;
    return st->hop_cross;
}

static const char *port_name(int port)
{
    static const char *const names[] = {"CPU", "X+", "X-", "Y+", "Y-"};
    return port >= 0 && port <= MCEI_IW_YM ? names[port] : "?";
}

/* ---- chains ----------------------------------------------------------- */

#define MAXLINKS 256

typedef struct chain {
    int nlinks, end_cell, end_pct;
    int link[MAXLINKS];       /* directed link ids: cell x 4 + port - 1 */
    mce_time_t off[MAXLINKS]; /* latency before the link */
    mce_time_t H, ready;      /* total latency; latest configuration */
} chain_t;

/* 1: complete, 0: incomplete (a PCT on the way is not configured yet),
 * < 0: an error already logged. */
static int walk(const iwnet_t *st, int cell, int pct, chain_t *ch)
{
    const pct_entry_t *e = &st->mirror[cell * st->pcts + pct];
    int x0 = cell % st->width, y0 = cell / st->width, p0 = pct;
    ch->nlinks = 0;
    ch->H = 0;
    if (!e->configured)
        return 0;
    ch->ready = e->cfg_time;
    if (e->in_port != MCEI_IW_CPU) {
        mcei_log("iwarp: cell (%d,%d) wrote into PCT %d through a gate, but "
                 "that PCT's input is the %s link",
                 x0, y0, pct, port_name(e->in_port));
        return MCE_ERR_STATE;
    }
    while (e->out_port != MCEI_IW_CPU) {
        int n = neighbour(st, cell, e->out_port), q = e->out_pct;
        const pct_entry_t *f;
        if (ch->nlinks == MAXLINKS) {
            mcei_log("iwarp: the connection from (%d,%d) PCT %d loops or is "
                     "longer than %d links",
                     x0, y0, p0, MAXLINKS);
            return MCE_ERR_STATE;
        }
        ch->link[ch->nlinks] = cell * 4 + e->out_port - 1;
        ch->off[ch->nlinks] = ch->H;
        ch->nlinks++;
        ch->H += hop_latency(st, cell, e->out_port);
        f = &st->mirror[n * st->pcts + q];
        if (!f->configured)
            return 0;
        if (f->in_port != opposite(e->out_port) || f->in_pct != pct) {
            mcei_log("iwarp: words of the connection from (%d,%d) PCT %d "
                     "would be misrouted at (%d,%d) PCT %d: the upstream PCT "
                     "sends them there from the %s side, but that PCT takes "
                     "its input from %s PCT %d",
                     x0, y0, p0, n % st->width, n / st->width, q,
                     port_name(opposite(e->out_port)), port_name(f->in_port),
                     f->in_pct);
            return MCE_ERR_STATE;
        }
        if (f->out_port != MCEI_IW_CPU && f->out_port != opposite(f->in_port))
            ch->H += st->hop_turn;
        if (f->cfg_time > ch->ready)
            ch->ready = f->cfg_time;
        cell = n;
        pct = q;
        e = f;
    }
    ch->end_cell = cell;
    ch->end_pct = pct;
    return 1;
}

/* Schedule a block whose chain is complete. */
static int start_block(iwnet_t *st, mcei_msg_t *m, const chain_t *ch,
                       mce_time_t not_before)
{
    int src = m->w.src, spct = (int)m->w.aux[0];
    int key = src * st->pcts + spct;
    uint64_t n = m->w.size / 4;
    mce_time_t base = m->w.ts + st->gate_op + st->gate_in, last;
    event_t *ev;
    if (base < not_before)
        base = not_before;
    if (st->conn_used[key] && st->conn_last[key] + st->word_time > base)
        base = st->conn_last[key] + st->word_time;
    last = base + (n - 1) * st->word_time;
    if (ch->end_cell != m->w.dst) {
        mcei_log("iwarp: the connection from (%d,%d) PCT %d was declared to "
                 "end at (%d,%d) but its PCTs lead to (%d,%d)",
                 src % st->width, src / st->width, spct, m->w.dst % st->width,
                 m->w.dst / st->width, ch->end_cell % st->width,
                 ch->end_cell / st->width);
        return MCE_ERR_STATE;
    }
    for (int i = 0; i < ch->nlinks; i++) {
        link_use_t *u = &st->links[ch->link[i]];
        mce_time_t from = base + ch->off[i];
        if (u->owner >= 0 && u->owner != key && u->busy_until > from) {
            int c = ch->link[i] / 4, p = ch->link[i] % 4 + 1;
            int o = u->owner / st->pcts;
            mcei_log("iwarp: the connection from (%d,%d) PCT %d would share "
                     "the %s link of cell (%d,%d) with the connection from "
                     "(%d,%d) PCT %d at %" PRIu64 " ps: link sharing is not "
                     "modelled yet (step 2 of doc/design/iwarp-tcs.md)",
                     src % st->width, src / st->width, spct, port_name(p),
                     c % st->width, c / st->width, o % st->width, o / st->width,
                     u->owner % st->pcts, from);
            return MCE_ERR_UNSUPPORTED;
        }
    }
    for (int i = 0; i < ch->nlinks; i++) {
        link_use_t *u = &st->links[ch->link[i]];
        u->owner = key;
        u->busy_until = last + st->word_time + ch->off[i];
    }
    st->conn_used[key] = 1;
    st->conn_last[key] = last;
    m->w.aux[0] = (uint64_t)(uint8_t)ch->end_pct |
                  (uint64_t)(uint8_t)spct << 8 | (uint64_t)st->word_time << 16;
    m->w.aux[1] = last + st->word_time + ch->H + st->gate_out;
    if ((ev = malloc(sizeof(*ev))) == NULL)
        return MCE_ERR_NOMEM;
    ev->t = base + st->word_time + ch->H + st->gate_out;
    ev->msg = m;
    return mcei_heap_push(&st->events, ev);
}

/* Retry the parked blocks in their order; each starts no earlier than the
 * configuration that completed its chain. */
static int retry_parked(iwnet_t *st)
{
    parked_t **pp = &st->parked;
    int rc;
    while (*pp != NULL) {
        parked_t *p = *pp;
        chain_t ch;
        rc = walk(st, p->msg->w.src, (int)p->msg->w.aux[0], &ch);
        if (rc < 0)
            return rc;
        if (rc == 0) {
            pp = &p->next;
            continue;
        }
        if ((rc = start_block(st, p->msg, &ch, ch.ready)) != MCE_OK)
            return rc;
        st->in_flight++;
        *pp = p->next;
        free(p);
    }
    st->parked_tail = pp;
    return MCE_OK;
}

/* ---- plug-in ---------------------------------------------------------- */

static int get_clocks(mcei_machine_t *m, const char *key, int positive,
                      mce_time_t clock, mce_time_t *out, char *err,
                      size_t errlen)
{
    uint64_t v;
    int rc = mcei_machine_u64(m, key, 1, 0, &v, err, errlen);
    if (rc != MCE_OK)
        return rc;
    if ((positive && v == 0) || v > 1000000) {
        snprintf(err, errlen, "machine '%s': %s must be %s 1000000 clocks",
                 m->name, key, positive ? "in 1 .." : "at most");
        return MCE_ERR_MACHINE;
    }
    *out = v * clock;
    return MCE_OK;
}

static int iw_init(mcei_net_t *net, mcei_machine_t *m, char *err, size_t errlen)
{
    iwnet_t *st = calloc(1, sizeof(*st));
    uint64_t w, h, bw, bh, pcts;
    int rc;
    if (st == NULL)
        return MCE_ERR_NOMEM;
    if ((rc = mcei_machine_time(m, "iwarp.clock", 1, 0, &st->clock, err,
                                errlen)) ||
        (rc = mcei_machine_u64(m, "iwarp.width", 1, 0, &w, err, errlen)) ||
        (rc = mcei_machine_u64(m, "iwarp.height", 1, 0, &h, err, errlen)) ||
        (rc = mcei_machine_u64(m, "iwarp.board_w", 1, 0, &bw, err, errlen)) ||
        (rc = mcei_machine_u64(m, "iwarp.board_h", 1, 0, &bh, err, errlen)) ||
        (rc = mcei_machine_u64(m, "iwarp.pcts", 1, 0, &pcts, err, errlen)))
        goto fail;
    if (st->clock == 0) {
        snprintf(err, errlen, "machine '%s': iwarp.clock must be positive",
                 m->name);
        rc = MCE_ERR_MACHINE;
        goto fail;
    }
    if ((rc = get_clocks(m, "iwarp.word_time", 1, st->clock, &st->word_time,
                         err, errlen)) ||
        (rc = get_clocks(m, "iwarp.hop_board", 1, st->clock, &st->hop_board,
                         err, errlen)) ||
        (rc = get_clocks(m, "iwarp.hop_cross", 1, st->clock, &st->hop_cross,
                         err, errlen)) ||
        (rc = get_clocks(m, "iwarp.hop_turn", 0, st->clock, &st->hop_turn, err,
                         errlen)) ||
        (rc = get_clocks(m, "iwarp.hop_wrap", 1, st->clock, &st->hop_wrap, err,
                         errlen)) ||
        (rc = get_clocks(m, "iwarp.gate_op", 1, st->clock, &st->gate_op, err,
                         errlen)) ||
        (rc = get_clocks(m, "iwarp.gate_in", 0, st->clock, &st->gate_in, err,
                         errlen)) ||
        (rc = get_clocks(m, "iwarp.gate_out", 0, st->clock, &st->gate_out, err,
                         errlen)) ||
        (rc = get_clocks(m, "iwarp.pct_config", 0, st->clock, &st->pct_config,
                         err, errlen)))
        goto fail;
    if (w < 2 || h < 1 || w > 256 || h > 256 || bw == 0 || bh == 0 ||
        pcts == 0 || pcts > 255) {
        snprintf(err, errlen,
                 "machine '%s': need 2 <= iwarp.width <= 256, 1 <= "
                 "iwarp.height <= 256, positive board sizes and 1 <= "
                 "iwarp.pcts <= 255",
                 m->name);
        rc = MCE_ERR_MACHINE;
        goto fail;
    }
    if (st->gate_op > st->word_time) {
        /* Blocks then leave at the writer's pace after a backlog: the
         * delivery notice's constant word interval would not hold. */
        snprintf(err, errlen,
                 "machine '%s': iwarp.gate_op above iwarp.word_time is not "
                 "supported",
                 m->name);
        rc = MCE_ERR_MACHINE;
        goto fail;
    }
    if ((uint64_t)net->nodes != w * h) {
        snprintf(err, errlen,
                 "machine '%s' is a %" PRIu64 " x %" PRIu64
                 " torus of cells: run it with --mce-nodes=%" PRIu64
                 " (or set iwarp.width and iwarp.height to match %d nodes)",
                 m->name, w, h, w * h, net->nodes);
        rc = MCE_ERR_CONFIG;
        goto fail;
    }
    st->width = (int)w;
    st->height = (int)h;
    st->board_w = (int)bw;
    st->board_h = (int)bh;
    st->cells = net->nodes;
    st->pcts = (int)pcts;
    st->lookahead = st->gate_op + st->gate_in;
    st->mirror = calloc((size_t)st->cells * st->pcts, sizeof(*st->mirror));
    st->conn_last =
        calloc((size_t)st->cells * st->pcts, sizeof(*st->conn_last));
    st->conn_used =
        calloc((size_t)st->cells * st->pcts, sizeof(*st->conn_used));
    st->links = calloc((size_t)st->cells * 4, sizeof(*st->links));
    if (!st->mirror || !st->conn_last || !st->conn_used || !st->links) {
        rc = MCE_ERR_NOMEM;
        goto fail;
    }
    for (int i = 0; i < st->cells * 4; i++)
        st->links[i].owner = -1;
    if ((rc = mcei_iwsru_init(&st->sru, m, st->cells, st->clock, st->lookahead,
                              err, errlen)) != MCE_OK)
        goto fail;
    if ((rc = mcei_iwdep_init(&st->dep, m, st->cells, st->clock, st->lookahead,
                              err, errlen)) != MCE_OK) {
        mcei_iwsru_fini(st->sru);
        goto fail;
    }
    mcei_heap_init(&st->events, ev_less);
    st->parked_tail = &st->parked;
    net->priv = st;
    return MCE_OK;
fail:
    if (st) {
        free(st->mirror);
        free(st->conn_last);
        free(st->conn_used);
        free(st->links);
    }
    free(st);
    return rc;
}

static void iw_fini(mcei_net_t *net)
{
    iwnet_t *st = net->priv;
    event_t *e;
    if (st == NULL)
        return;
    while ((e = mcei_heap_pop(&st->events)) != NULL) {
        mcei_msg_release(e->msg);
        free(e);
    }
    while (st->parked) {
        parked_t *p = st->parked;
        st->parked = p->next;
        mcei_msg_release(p->msg);
        free(p);
    }
    mcei_heap_fini(&st->events);
    mcei_iwsru_fini(st->sru);
    mcei_iwdep_fini(st->dep);
    free(st->mirror);
    free(st->conn_last);
    free(st->conn_used);
    free(st->links);
    free(st);
    net->priv = NULL;
}

static mce_time_t iw_lookahead(const mcei_net_t *net)
{
    const iwnet_t *st = net->priv;
    return st->lookahead;
}

static int on_cfg(iwnet_t *st, mcei_msg_t *m)
{
    uint64_t a = m->w.aux[0];
    int cell = m->w.src, pct = MCEI_IW_CFG_PCT(a);
    pct_entry_t *e;
    mce_time_t eff =
        st->pct_config > st->lookahead ? st->pct_config : st->lookahead;
    if (pct >= st->pcts || MCEI_IW_CFG_IN_PORT(a) > MCEI_IW_YM ||
        MCEI_IW_CFG_OUT_PORT(a) > MCEI_IW_YM) {
        mcei_log("iwarp: malformed PCT configuration from node %d", cell);
        return MCE_ERR_INVAL;
    }
    e = &st->mirror[cell * st->pcts + pct];
    memset(e, 0, sizeof(*e));
    if (!MCEI_IW_CFG_RELEASE(a)) {
        e->configured = 1;
        e->in_port = MCEI_IW_CFG_IN_PORT(a);
        e->in_pct = MCEI_IW_CFG_IN_PCT(a);
        e->out_port = MCEI_IW_CFG_OUT_PORT(a);
        e->out_pct = MCEI_IW_CFG_OUT_PCT(a);
        e->endpoint = MCEI_IW_CFG_ENDPOINT(a);
        e->cfg_time = m->w.ts + eff;
    } else {
        st->conn_used[cell * st->pcts + pct] = 0;
    }
    mcei_msg_release(m);
    return retry_parked(st);
}

static int iw_inject(mcei_net_t *net, mcei_msg_t *m)
{
    iwnet_t *st = net->priv;
    chain_t ch;
    int rc;
    if (m->w.dst < 0 || m->w.dst >= st->cells)
        return MCE_ERR_NODE;
    if (m->w.ctx != MCEI_CTX_PROTOCOL) {
        mcei_log("iwarp: node %d sent a message outside the iWarp protocol "
                 "(the iwarp network carries only PCT connections)",
                 m->w.src);
        return MCE_ERR_UNSUPPORTED;
    }
    if (m->w.type == MCEI_IW_CFG)
        return on_cfg(st, m);
    if ((rc = mcei_iwsru_inject(st->sru, m)) != 0)
        return rc < 0 ? rc : MCE_OK;
    if ((rc = mcei_iwdep_inject(st->dep, m)) != 0)
        return rc < 0 ? rc : MCE_OK;
    if (m->w.type != MCEI_IW_DATA || m->w.size == 0 || m->w.size % 4 != 0 ||
        m->w.aux[0] >= (uint64_t)st->pcts) {
        mcei_log("iwarp: node %d sent a malformed message (type %" PRId64
                 ", %" PRIu64 " bytes)",
                 m->w.src, m->w.type, m->w.size);
        return MCE_ERR_INVAL;
    }
    rc = walk(st, m->w.src, (int)m->w.aux[0], &ch);
    if (rc < 0)
        return rc;
    if (rc == 0) {
        /* Words wait at the last configured PCT until the chain is
         * complete (not counted in flight: a reader waiting for them is
         * reported as a deadlock if nothing completes the chain). */
        parked_t *p = malloc(sizeof(*p));
        if (p == NULL)
            return MCE_ERR_NOMEM;
        p->msg = m;
        p->next = NULL;
        *st->parked_tail = p;
        st->parked_tail = &p->next;
        return MCE_OK;
    }
    if ((rc = start_block(st, m, &ch, ch.ready)) != MCE_OK)
        return rc;
    st->in_flight++;
    return MCE_OK;
}

static mce_time_t iw_next_event(const mcei_net_t *net)
{
    const iwnet_t *st = net->priv;
    const event_t *e = mcei_heap_top(&st->events);
    mce_time_t t = mcei_iwsru_next_event(st->sru),
               d = mcei_iwdep_next_event(st->dep);
    if (d < t)
        t = d;
    return e && e->t < t ? e->t : t;
}

static int iw_advance(mcei_net_t *net, mce_time_t horizon)
{
    iwnet_t *st = net->priv;
    event_t *e;
    int rc;
    while ((e = mcei_heap_top(&st->events)) != NULL && e->t < horizon) {
        mcei_heap_pop(&st->events);
        st->in_flight--;
        net->deliver(net->deliver_ctx, e->msg, e->t);
        free(e);
    }
    if ((rc = mcei_iwdep_advance(st->dep, net, horizon)) != MCE_OK)
        return rc;
    return mcei_iwsru_advance(st->sru, net, horizon);
}

static size_t iw_in_flight(const mcei_net_t *net)
{
    const iwnet_t *st = net->priv;
    return st->in_flight + mcei_iwsru_in_flight(st->sru) +
           mcei_iwdep_in_flight(st->dep);
}

const mcei_net_ops_t mcei_net_iwarp_ops = {
    .name = "iwarp",
    .description = "CMU iWarp torus: PCT connections with board and corner "
                   "latencies (unshared links only)",
    .init = iw_init,
    .fini = iw_fini,
    .lookahead = iw_lookahead,
    .inject = iw_inject,
    .next_event = iw_next_event,
    .advance = iw_advance,
    .in_flight = iw_in_flight,
    .notifies_senders = 0,
};
