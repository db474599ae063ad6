/* The iWarp network (Warfel 1996, chapter 3; doc/design/iwarp-tcs.md,
 * sections 2 and 3).  Steps 1 and 2 of the design's plan (section 10.6).
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
 * (an upstream PCT naming a through PCT that does not name it back)
 * and blocks whose declared endpoint is not where the chain leads; a
 * destination PCT that ends another connection holds the words back
 * until it is reconfigured for this one (design 8.10).  A
 * block starts no earlier than the time the last configuration of its
 * chain takes effect; a block on a chain that is not yet complete waits
 * until the missing configuration arrives.
 *
 * Flows (section 3.2).  Each connection is a fluid flow of words into its
 * first link: a block written at ts offers its words from base = ts +
 * gate_op + gate_in (the writer and the spools are never slower than a
 * link, gate_op <= word_time); words enter at the connection's rate, and
 * a word fully entered at t is readable at the destination at t + H +
 * gate_out.  Uncontended, the rate is one word per word_time and word k
 * of a block is readable at base + k word_time + H + gate_out (step 1's
 * times, Figures 3.5-3.8).  The rates of the active flows come from
 * iwarp_fluid.c (section 3.3: PCT groups, skip on shared links, DQ caps)
 * and are recomputed at every instant where a flow starts, stops or
 * resumes.
 *
 * Capacity (sections 3.4-3.5).  The C = pct_words x (PCTs of the chain)
 * words of a path include the pct_words of the source PCT, so at most C -
 * pct_words words beyond what the reader has taken may have entered the
 * first link.  The reader's MCEI_IW_READ (words it takes now or as they
 * arrive) reaches the source one path latency H later; a flow at its
 * limit stops (rate 0) and resumes then.  Words posted by a reader are
 * counted when the post reaches the source, not when each word arrives:
 * exact while 2 H + word_time + gate_out <= (C - pct_words) x word_time
 * (a posted stream never fills the path), which every chain of iwarp.conf
 * satisfies; the model refuses a chain that does not (section 3.7).
 *
 * The cells learn the flows' progress from MCEI_IW_SEG notices (rate
 * segments, to both ends, at the time of each change): the writer's PCT
 * frees a slot when a word starts into the first link, the reader's word
 * is readable at entered + H + gate_out; a segment at t changes nothing
 * before t, so a cell at clock c knows every time up to c exactly.
 *
 * Lookahead: gate_op + gate_in (section 2.2).  Injections only create
 * events at ts + lookahead or later (block bases, configurations at ts +
 * max(lookahead, pct_config), reads at ts + max(lookahead, H)); rates
 * change only at such events, and every rank runs the same integer
 * arithmetic in the same order. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/engine.h" /* mcei_msg_release: the model consumes CFG */
#include "../core/heap.h"
#include "../core/mcei.h"
#include "../core/net.h"
#include "../core/trace.h"
#include "iwarp.h"
#include "iwarp_dep.h"
#include "iwarp_fluid.h"
#include "iwarp_sru.h"
#include "keys.h"

typedef unsigned __int128 u128;

typedef struct pct_entry {
    int configured;
    int in_port, in_pct, out_port, out_pct, endpoint;
    int throttle;        /* a source PCT's TCS throttle (CFG aux[1]) */
    mce_time_t cfg_time; /* when the configuration takes effect */
} pct_entry_t;

/* Internal events: a block's words become available, a read reaches the
 * source.  Ordered by (time, sequence). */
enum { IEV_BASE, IEV_FREED };
typedef struct ievent {
    mce_time_t t;
    uint64_t seq;
    int kind, key;
    uint64_t words;
    struct ievent *next; /* on the free list */
} ievent_t;

typedef struct parked {
    mcei_msg_t *msg;
    struct parked *next;
} parked_t;

#define MAXLINKS 256

typedef struct chain {
    int nlinks, end_cell, end_pct, ncells;
    int link[MAXLINKS];    /* directed link ids: cell x 4 + port - 1 */
    int group[MAXLINKS];   /* PCT group of the sending cell's PCT */
    int cell[MAXLINKS];    /* intermediate cells */
    int pct[MAXLINKS + 1]; /* the PCT in each cell of the path, source first */
    unsigned char turn[MAXLINKS];
    mce_time_t H, ready; /* total latency; latest configuration */
} chain_t;

typedef struct block {
    mcei_msg_t *msg;
    uint64_t first; /* the connection's number of its first word */
    struct block *next;
} block_t;

/* The fields every event scans (the live flows' rates, heads, progress)
 * first, the 4 KB route last: the scans touch one or two cache lines of a
 * flow instead of lines 4 KB apart. */
typedef struct flow {
    int key, dkey, src, spct;
    block_t *head, *tail; /* first word not yet readable */
    uint64_t assigned;    /* words of all blocks so far */
    uint64_t offered;     /* words whose block reached its base time */
    uint64_t freed;       /* words its reader took (known at the source) */
    u128 entered;         /* work units into the first link */
    uint64_t rate, told;
    int told_valid, force, full;
    mce_time_t last_base;
    chain_t ch;
} flow_t;

typedef struct iwnet {
    int width, height, board_w, board_h, cells, pcts, pct_words, pct_groups;
    mce_time_t clock, word_time, hop_board, hop_cross, hop_turn, hop_wrap;
    mce_time_t gate_op, gate_in, gate_out, pct_config, lookahead;
    mcei_iwf_params_t fp;
    /* recompute's arrays, kept between calls (grown, never shrunk) */
    mcei_iwf_ws_t ws;
    mcei_iwf_flow_t *ff;
    int *ff_idx, ff_cap;
    uint64_t unit;
    pct_entry_t *mirror; /* cells x pcts */
    flow_t **flows;      /* by source key, NULL until used */
    flow_t **live;       /* flows in key order */
    int nlive;
    /* the live flows with a rate, in key order: rates change only in
     * recompute, which rebuilds it; what scans for progress and the next
     * crossing (every event) need, where most flows idle */
    flow_t **moving;
    int nmoving;
    uint64_t *pend;   /* by destination key: reads before any flow */
    int *dflow;       /* by destination key: the flow ending there, -1 */
    mce_time_t *dq_h; /* by destination key: path latency of its chain */
    /* Deliveries keyed (time, source, sequence), the contract's order,
     * and internal events keyed (time, sequence): the keys in the heap
     * entries, compared without calls or loads through the items. */
    mcei_kheap_t events, ievents;
    ievent_t *iev_free;
    uint64_t iseq, nseq;
    mce_time_t now;
    int dirty;
    parked_t *parked, **parked_tail;
    size_t in_flight;
    mcei_iwsru_t *sru; /* SRU bus and ring hops (iwarp_sru.c) */
    mcei_iwdep_t *dep; /* deposit and RTS (iwarp_dep.c) */
    /* the trace's view of each link: its connections moving and stalled
     * and their summed rate, as last written (only when tracing) */
    uint32_t *tr_moving, *tr_stalled;
    uint64_t *tr_load;
    /* and of each PCT's queue (cells x pcts, as last written, then the
     * new states): words in it, the writer's words waiting for room */
    uint64_t *tr_words, *tr_waiting;
} iwnet_t;

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

static int group_of(const iwnet_t *st, int pct)
{
    return st->pct_groups > 0
               ? pct / ((st->pcts + st->pct_groups - 1) / st->pct_groups)
               : 0;
}

/* 1: complete, 0: incomplete (a PCT on the way is not configured yet),
 * < 0: an error already logged. */
static int walk(const iwnet_t *st, int cell, int pct, chain_t *ch)
{
    const pct_entry_t *e = &st->mirror[cell * st->pcts + pct];
    int x0 = cell % st->width, y0 = cell / st->width, p0 = pct;
    ch->nlinks = 0;
    ch->ncells = 0;
    ch->H = 0;
    if (!e->configured)
        return 0;
    ch->ready = e->cfg_time;
    ch->pct[0] = pct;
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
        ch->group[ch->nlinks] = group_of(st, pct);
        ch->nlinks++;
        ch->H += hop_latency(st, cell, e->out_port);
        ch->pct[ch->nlinks] = q;
        f = &st->mirror[n * st->pcts + q];
        if (!f->configured)
            return 0;
        /* a destination PCT still ending another connection (a TCS
         * barrier's in PCT before the latecomer's lookup re-points it):
         * the words wait upstream until it is reconfigured */
        if ((f->in_port != opposite(e->out_port) || f->in_pct != pct) &&
            f->out_port == MCEI_IW_CPU)
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
        if (f->out_port != MCEI_IW_CPU) {
            int turn = f->out_port != opposite(f->in_port);
            ch->cell[ch->ncells] = n;
            ch->turn[ch->ncells] = (unsigned char)turn;
            ch->ncells++;
            if (turn)
                ch->H += st->hop_turn;
        }
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

static int same_path(const chain_t *a, const chain_t *b)
{
    return a->nlinks == b->nlinks && a->end_pct == b->end_pct && a->H == b->H &&
           memcmp(a->link, b->link, (size_t)a->nlinks * sizeof(int)) == 0;
}

/* *dst = *src, but only the used part of the arrays (a chain is 4 KB, a
 * path a few links; start_block copies one for every block it queues). */
static void chain_copy(chain_t *dst, const chain_t *src)
{
    dst->nlinks = src->nlinks;
    dst->end_cell = src->end_cell;
    dst->end_pct = src->end_pct;
    dst->ncells = src->ncells;
    dst->H = src->H;
    dst->ready = src->ready;
    memcpy(dst->link, src->link, (size_t)src->nlinks * sizeof(*dst->link));
    memcpy(dst->group, src->group, (size_t)src->nlinks * sizeof(*dst->group));
    memcpy(dst->pct, src->pct, (size_t)(src->nlinks + 1) * sizeof(*dst->pct));
    memcpy(dst->cell, src->cell, (size_t)src->ncells * sizeof(*dst->cell));
    memcpy(dst->turn, src->turn, (size_t)src->ncells * sizeof(*dst->turn));
}

/* ---- flows ------------------------------------------------------------ */

static uint64_t path_words(const iwnet_t *st, const flow_t *f)
{
    return (uint64_t)st->pct_words * (uint64_t)(f->ch.nlinks + 1);
}

/* Words that may have entered the first link: what the reader took plus
 * the path's PCTs beyond the source PCT. */
static uint64_t limit_of(const iwnet_t *st, const flow_t *f)
{
    return f->freed + path_words(st, f) - (uint64_t)st->pct_words;
}

static u128 stop_of(const iwnet_t *st, const flow_t *f)
{
    uint64_t lim = limit_of(st, f), w = f->offered < lim ? f->offered : lim;
    return (u128)w * st->unit;
}

static int push_iev(iwnet_t *st, mce_time_t t, int kind, int key,
                    uint64_t words)
{
    ievent_t *e = st->iev_free;
    if (e != NULL)
        st->iev_free = e->next;
    else if ((e = malloc(sizeof(*e))) == NULL)
        return MCE_ERR_NOMEM;
    e->t = t;
    e->seq = st->iseq++;
    e->kind = kind;
    e->key = key;
    e->words = words;
    if (mcei_kheap_push(&st->ievents, t, e->seq, 0, e) != MCE_OK) {
        free(e);
        return MCE_ERR_NOMEM;
    }
    return MCE_OK;
}

static int push_msg(iwnet_t *st, mcei_msg_t *m, mce_time_t t)
{
    if (mcei_kheap_push(&st->events, t, (uint64_t)(uint32_t)m->w.src, m->w.seq,
                        m) != MCE_OK)
        return MCE_ERR_NOMEM;
    st->in_flight++;
    return MCE_OK;
}

static flow_t *flow_get(iwnet_t *st, int key)
{
    flow_t *f = st->flows[key];
    int i;
    if (f != NULL)
        return f;
    if ((f = calloc(1, sizeof(*f))) == NULL)
        return NULL;
    f->key = key;
    f->dkey = -1;
    f->src = key / st->pcts;
    f->spct = key % st->pcts;
    /* keep the live list in key order (deterministic rate computation) */
    flow_t **l = realloc(st->live, (size_t)(st->nlive + 1) * sizeof(*l));
    if (l == NULL) {
        free(f);
        return NULL;
    }
    st->live = l;
    for (i = st->nlive; i > 0 && st->live[i - 1]->key > key; i--)
        st->live[i] = st->live[i - 1];
    st->live[i] = f;
    st->nlive++;
    st->flows[key] = f;
    return f;
}

/* Queue a block whose chain is complete. */
static int start_block(iwnet_t *st, mcei_msg_t *m, const chain_t *ch,
                       mce_time_t not_before)
{
    int src = m->w.src, spct = (int)m->w.aux[0];
    int key = src * st->pcts + spct, dkey;
    uint64_t n = m->w.size / 4, room;
    mce_time_t base = m->w.ts + st->gate_op + st->gate_in;
    flow_t *f;
    block_t *b;
    if (base < not_before)
        base = not_before;
    if (ch->end_cell != m->w.dst) {
        mcei_log("iwarp: the connection from (%d,%d) PCT %d was declared to "
                 "end at (%d,%d) but its PCTs lead to (%d,%d)",
                 src % st->width, src / st->width, spct, m->w.dst % st->width,
                 m->w.dst / st->width, ch->end_cell % st->width,
                 ch->end_cell / st->width);
        return MCE_ERR_STATE;
    }
    room = (uint64_t)st->pct_words * (uint64_t)ch->nlinks;
    if (2 * ch->H + st->word_time + st->gate_out > room * st->word_time) {
        mcei_log("iwarp: the connection from (%d,%d) PCT %d has a path "
                 "latency of %" PRIu64 " ps for %" PRIu64
                 " words of room: the capacity model (posted reads counted "
                 "when the post reaches the source) needs 2 H + word_time + "
                 "gate_out <= %d x links x word_time",
                 src % st->width, src / st->width, spct, ch->H, room,
                 st->pct_words);
        return MCE_ERR_UNSUPPORTED;
    }
    if ((f = flow_get(st, key)) == NULL)
        return MCE_ERR_NOMEM;
    dkey = ch->end_cell * st->pcts + ch->end_pct;
    if (f->dkey != dkey || !same_path(&f->ch, ch)) {
        if (f->dkey >= 0 && f->entered != (u128)f->assigned * st->unit) {
            mcei_log("iwarp: the connection from (%d,%d) PCT %d changed its "
                     "path while words were on it",
                     src % st->width, src / st->width, spct);
            return MCE_ERR_STATE;
        }
        if (f->dkey >= 0 && st->dflow[f->dkey] == key)
            st->dflow[f->dkey] = -1;
        /* a new path: what went before is not the new reader's to take */
        chain_copy(&f->ch, ch);
        f->dkey = dkey;
        f->freed = f->assigned + st->pend[dkey];
        st->pend[dkey] = 0;
        st->dflow[dkey] = key;
        st->dq_h[dkey] = ch->H;
    } else if (f->entered == (u128)f->assigned * st->unit) {
        /* the same links; its PCTs (groups) may differ */
        chain_copy(&f->ch, ch);
    }
    if (base < f->last_base)
        base = f->last_base;
    f->last_base = base;
    if ((b = malloc(sizeof(*b))) == NULL)
        return MCE_ERR_NOMEM;
    b->msg = m;
    b->first = f->assigned + 1;
    b->next = NULL;
    if (f->tail)
        f->tail->next = b;
    else
        f->head = b;
    f->tail = b;
    f->assigned += n;
    m->w.aux[0] = (uint64_t)(uint8_t)ch->end_pct | (uint64_t)(uint8_t)spct << 8;
    m->w.aux[1] = b->first;
    return push_iev(st, base, IEV_BASE, key, n);
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
        *pp = p->next;
        free(p);
    }
    st->parked_tail = pp;
    return MCE_OK;
}

/* ---- the fluid model -------------------------------------------------- */

static mce_time_t ceil_div_time(u128 num, uint64_t rate)
{
    u128 q = (num + rate - 1) / rate;
    return q >= MCEI_TIME_INF ? MCEI_TIME_INF : (mce_time_t)q;
}

/* The next instant a flow reaches its stop point or the first word of
 * its next block. */
static mce_time_t next_crossing(const iwnet_t *st)
{
    mce_time_t best = MCEI_TIME_INF;
    for (int i = 0; i < st->nmoving; i++) {
        const flow_t *f = st->moving[i];
        u128 stop, x;
        mce_time_t t;
        stop = stop_of(st, f);
        x = stop;
        if (f->head != NULL && (u128)f->head->first * st->unit < x)
            x = (u128)f->head->first * st->unit;
        if (x <= f->entered)
            continue;
        t = ceil_div_time(x - f->entered, f->rate);
        if (t < MCEI_TIME_INF - st->now && st->now + t < best)
            best = st->now + t;
    }
    return best;
}

static void progress(iwnet_t *st, mce_time_t t)
{
    mce_time_t dt = t - st->now;
    for (int i = 0; i < st->nmoving && dt > 0; i++) {
        flow_t *f = st->moving[i];
        u128 stop, e;
        stop = stop_of(st, f);
        e = f->entered + (u128)f->rate * dt;
        if (e > stop) {
            /* the rate stops here (or, if more words arrive at this
             * instant, the cells must restart their segment from it) */
            e = stop;
            f->force = 1;
        }
        f->entered = e;
    }
    st->now = t;
}

static int notify(iwnet_t *st, const flow_t *f, int side)
{
    mcei_wire_t w;
    mcei_iw_seg_t seg;
    mcei_msg_t *m;
    memset(&w, 0, sizeof(w));
    w.ts = st->now;
    w.seq = st->nseq++;
    w.src = f->src;
    w.dst = side == MCEI_IW_SRC_SIDE ? f->src : f->ch.end_cell;
    w.ctx = MCEI_CTX_PROTOCOL;
    w.type = MCEI_IW_SEG;
    w.aux[0] = (uint64_t)(side == MCEI_IW_SRC_SIDE ? f->spct : f->ch.end_pct) |
               (uint64_t)side << 8 | (f->full ? MCEI_IW_SEG_FULL : 0) |
               (uint64_t)f->key << 32;
    w.aux[1] = f->freed;
    seg.e_lo = (uint64_t)f->entered;
    seg.e_hi = (uint64_t)(f->entered >> 64);
    seg.rate = f->rate;
    seg.delay = f->ch.H + st->gate_out;
    w.size = sizeof(seg);
    memcpy(w.data, &seg, sizeof(seg));
    if ((m = mcei_msg_from_wire(&w)) == NULL)
        return MCE_ERR_NOMEM;
    return push_msg(st, m, st->now);
}

/* The links' states on their trace tracks: a slice for as long as a
 * link carries the same connections at the same rates ("connection",
 * "shared by N", or "stalled (path full)" while back-pressure holds every
 * connection on it), with "flows", "moving" and "load_permille" (the
 * summed rates in thousandths of the link's). */
static void trace_links(iwnet_t *st)
{
    size_t nl = (size_t)st->cells * 4;
    uint32_t *mv, *sl;
    uint64_t *ld;
    if (st->tr_moving == NULL) {
        st->tr_moving = calloc(2 * nl, sizeof(*st->tr_moving));
        st->tr_stalled = calloc(2 * nl, sizeof(*st->tr_stalled));
        st->tr_load = calloc(2 * nl, sizeof(*st->tr_load));
        if (!st->tr_moving || !st->tr_stalled || !st->tr_load) {
            free(st->tr_moving); /* no link tracks, never a failed run */
            free(st->tr_stalled);
            free(st->tr_load);
            st->tr_moving = st->tr_stalled = NULL;
            st->tr_load = NULL;
            return;
        }
    }
    mv = st->tr_moving + nl; /* the new states, beside the written ones */
    sl = st->tr_stalled + nl;
    ld = st->tr_load + nl;
    memset(mv, 0, nl * sizeof(*mv));
    memset(sl, 0, nl * sizeof(*sl));
    memset(ld, 0, nl * sizeof(*ld));
    for (int i = 0; i < st->nlive; i++) {
        const flow_t *f = st->live[i];
        if (f->dkey < 0 || (f->rate == 0 && !f->full))
            continue;
        for (int k = 0; k < f->ch.nlinks; k++) {
            int l = f->ch.link[k];
            if (f->rate > 0) {
                mv[l]++;
                ld[l] += f->rate;
            } else {
                sl[l]++;
            }
        }
    }
    for (size_t l = 0; l < nl; l++) {
        char label[48], name[32], args[96];
        uint32_t n = mv[l] + sl[l];
        if (mv[l] == st->tr_moving[l] && sl[l] == st->tr_stalled[l] &&
            ld[l] == st->tr_load[l])
            continue;
        st->tr_moving[l] = mv[l];
        st->tr_stalled[l] = sl[l];
        st->tr_load[l] = ld[l];
        if (n == 0) {
            mcei_trace_net_close("link", (int)l, st->now);
            continue;
        }
        mcei_iw_link_label(label, sizeof(label), st->width, (int)l);
        if (mv[l] == 0)
            snprintf(name, sizeof(name), "stalled (path full)");
        else if (n == 1)
            snprintf(name, sizeof(name), "connection");
        else
            snprintf(name, sizeof(name), "shared by %u", n);
        snprintf(args, sizeof(args),
                 "\"flows\":%u,\"moving\":%u,\"load_permille\":%" PRIu64, n,
                 mv[l], st->fp.link_cap ? ld[l] * 1000 / st->fp.link_cap : 0);
        mcei_trace_net_open("link", (int)l, label, name, st->now, args);
    }
}

/* The PCTs' queues on their trace tracks, inside their configuration
 * slices, as the model counts the words of a connection: its source PCT
 * holds the words the writer offered that have not entered the first
 * link (at most pct_words; the rest of the writer's block waits for
 * room), and while the connection is stopped (its words all in, or its
 * path full) the words it has in its path -- entered, not yet taken by
 * the reader as known at the source -- wait in its other PCTs, the
 * destination's first.  A state ("queued", or "full" at pct_words) with
 * "words" and "writer_waiting_words" lasts until these change at one of
 * the model's instants (a block offered, a stop, a read reaching the
 * source); a moving connection's other PCTs pass its words on. */
static void trace_pcts(iwnet_t *st)
{
    size_t np = (size_t)st->cells * (size_t)st->pcts;
    uint64_t *nw, *nwait;
    if (st->tr_words == NULL) {
        st->tr_words = calloc(2 * np, sizeof(*st->tr_words));
        st->tr_waiting = calloc(2 * np, sizeof(*st->tr_waiting));
        if (!st->tr_words || !st->tr_waiting) {
            free(st->tr_words); /* no queue states, never a failed run */
            free(st->tr_waiting);
            st->tr_words = st->tr_waiting = NULL;
            return;
        }
    }
    nw = st->tr_words + np;
    nwait = st->tr_waiting + np;
    memset(nw, 0, np * sizeof(*nw));
    memset(nwait, 0, np * sizeof(*nwait));
    for (int i = 0; i < st->nlive; i++) {
        const flow_t *f = st->live[i];
        uint64_t in = (uint64_t)(f->entered / st->unit), backlog, path;
        size_t k;
        if (f->dkey < 0)
            continue;
        backlog = f->offered > in ? f->offered - in : 0;
        k = (size_t)f->src * (size_t)st->pcts + (size_t)f->spct;
        nw[k] = backlog < (uint64_t)st->pct_words ? backlog
                                                  : (uint64_t)st->pct_words;
        nwait[k] = backlog - nw[k];
        if (f->rate > 0)
            continue;
        path = in > f->freed ? in - f->freed : 0;
        for (int h = f->ch.nlinks; h >= 1 && path > 0; h--) {
            int l = f->ch.link[h - 1];
            int cell = neighbour(st, l / 4, l % 4 + 1);
            uint64_t w =
                path < (uint64_t)st->pct_words ? path : (uint64_t)st->pct_words;
            k = (size_t)cell * (size_t)st->pcts + (size_t)f->ch.pct[h];
            nw[k] = w;
            path -= w;
        }
    }
    for (size_t k = 0; k < np; k++) {
        char label[48], args[96];
        if (nw[k] == st->tr_words[k] && nwait[k] == st->tr_waiting[k])
            continue;
        st->tr_words[k] = nw[k];
        st->tr_waiting[k] = nwait[k];
        if (nw[k] == 0) {
            mcei_trace_net_inner_close("PCT", (int)k, st->now);
            continue;
        }
        snprintf(label, sizeof(label), "PCT %d of cell (%d,%d)",
                 (int)(k % (size_t)st->pcts),
                 (int)(k / (size_t)st->pcts) % st->width,
                 (int)(k / (size_t)st->pcts) / st->width);
        snprintf(args, sizeof(args),
                 "\"words\":%" PRIu64 ",\"writer_waiting_words\":%" PRIu64,
                 nw[k], nwait[k]);
        mcei_trace_net_inner_open("PCT", (int)k, label,
                                  nw[k] == (uint64_t)st->pct_words ? "full"
                                                                   : "queued",
                                  st->now, args);
    }
}

static int recompute(iwnet_t *st)
{
    mcei_iwf_flow_t *ff;
    int *idx, n = 0, rc;
    if (st->ff_cap < st->nlive + 1) {
        int nc = 2 * st->nlive + 16;
        flow_t **mv;
        if ((ff = realloc(st->ff, (size_t)nc * sizeof(*ff))) == NULL)
            return MCE_ERR_NOMEM;
        st->ff = ff;
        if ((idx = realloc(st->ff_idx, (size_t)nc * sizeof(*idx))) == NULL)
            return MCE_ERR_NOMEM;
        st->ff_idx = idx;
        if ((mv = realloc(st->moving, (size_t)nc * sizeof(*mv))) == NULL)
            return MCE_ERR_NOMEM;
        st->moving = mv;
        st->ff_cap = nc;
    }
    ff = st->ff;
    idx = st->ff_idx;
    for (int i = 0; i < st->nlive; i++) {
        flow_t *f = st->live[i];
        u128 stop;
        f->rate = 0;
        f->full = 0;
        if (f->dkey < 0)
            continue;
        stop = stop_of(st, f);
        f->full = f->entered >= stop && f->offered > limit_of(st, f);
        if (f->entered >= stop)
            continue;
        memset(&ff[n], 0, sizeof(ff[n]));
        ff[n].nlinks = f->ch.nlinks;
        ff[n].link = f->ch.link;
        ff[n].group = f->ch.group;
        ff[n].ncells = f->ch.ncells;
        ff[n].cell = f->ch.cell;
        ff[n].turn = f->ch.turn;
        ff[n].key = (uint64_t)f->key;
        ff[n].throttle = st->mirror[f->key].throttle;
        idx[n++] = i;
    }
    rc = mcei_iwf_rates(ff, n, &st->fp, &st->ws);
    st->fp.epoch++;
    st->nmoving = 0;
    for (int j = 0; j < n && rc == MCE_OK; j++)
        if ((st->live[idx[j]]->rate = ff[j].rate) > 0)
            st->moving[st->nmoving++] = st->live[idx[j]];
    if (rc == MCE_OK && mcei_trace_net_on()) {
        trace_links(st);
        trace_pcts(st);
    }
    for (int i = 0; i < st->nlive && rc == MCE_OK; i++) {
        flow_t *f = st->live[i];
        if (f->dkey < 0 || (f->told_valid && f->told == f->rate && !f->force))
            continue;
        f->told = f->rate;
        f->told_valid = 1;
        f->force = 0;
        if ((rc = notify(st, f, MCEI_IW_SRC_SIDE)) == MCE_OK)
            rc = notify(st, f, MCEI_IW_DST_SIDE);
    }
    st->dirty = 0;
    return rc;
}

/* Blocks whose first word has entered: delivered when it is readable.
 * Only a moving flow's words enter (progress), and a block queued since
 * starts past every word assigned before it (first = assigned + 1), so the
 * flows that moved up to now are the only ones to look at. */
static int crossings(iwnet_t *st)
{
    int rc;
    for (int i = 0; i < st->nmoving; i++) {
        flow_t *f = st->moving[i];
        block_t *b;
        while ((b = f->head) != NULL &&
               f->entered >= (u128)b->first * st->unit) {
            f->head = b->next;
            if (f->head == NULL)
                f->tail = NULL;
            if ((rc = push_msg(st, b->msg, st->now + f->ch.H + st->gate_out)) !=
                MCE_OK)
                return rc;
            free(b);
        }
        if (f->rate > 0 && f->entered >= stop_of(st, f))
            st->dirty = 1;
    }
    return MCE_OK;
}

static int apply(iwnet_t *st, ievent_t *e)
{
    if (e->kind == IEV_BASE) {
        flow_t *f = st->flows[e->key];
        if (f != NULL)
            f->offered += e->words;
    } else if (st->dflow[e->key] >= 0) {
        st->flows[st->dflow[e->key]]->freed += e->words;
    } else {
        st->pend[e->key] += e->words;
    }
    st->dirty = 1;
    return MCE_OK;
}

static mce_time_t fluid_next(const iwnet_t *st)
{
    const mcei_kentry_t *e = mcei_kheap_top(&st->events);
    const mcei_kentry_t *i = mcei_kheap_top(&st->ievents);
    mce_time_t t = next_crossing(st);
    if (e && e->k0 < t)
        t = e->k0;
    if (i && i->k0 < t)
        t = i->k0;
    return t;
}

static int fluid_advance(mcei_net_t *net, iwnet_t *st, mce_time_t horizon)
{
    int rc;
    for (;;) {
        mce_time_t t = fluid_next(st);
        const mcei_kentry_t *top;
        if (t >= horizon)
            return MCE_OK;
        progress(st, t);
        while ((top = mcei_kheap_top(&st->ievents)) != NULL && top->k0 == t) {
            ievent_t *ie = top->item;
            mcei_kheap_pop(&st->ievents);
            rc = apply(st, ie);
            ie->next = st->iev_free;
            st->iev_free = ie;
            if (rc != MCE_OK)
                return rc;
        }
        if ((rc = crossings(st)) != MCE_OK)
            return rc;
        if (st->dirty && (rc = recompute(st)) != MCE_OK)
            return rc;
        while ((top = mcei_kheap_top(&st->events)) != NULL && top->k0 == t) {
            mcei_msg_t *m = top->item;
            mcei_kheap_pop(&st->events);
            st->in_flight--;
            net->deliver(net->deliver_ctx, m, t);
        }
    }
}

/* ---- plug-in ---------------------------------------------------------- */

static int get_clocks(mcei_machine_t *m, const char *key, int positive,
                      mce_time_t clock, mce_time_t *out, char *err,
                      size_t errlen)
{
    uint64_t v;
    int rc = mcei_key_u64(m, key, &v, err, errlen);
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
    uint64_t w, h, bw, bh, pcts, words, groups, skip, fair, unfair;
    const char *dq;
    int rc;
    if (st == NULL)
        return MCE_ERR_NOMEM;
    if ((rc = mcei_key_time(m, "iwarp.clock", &st->clock, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.width", &w, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.height", &h, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.board_w", &bw, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.board_h", &bh, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.pcts", &pcts, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.pct_words", &words, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.pct_groups", &groups, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.skip_period", &skip, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.dq_fair_max", &fair, err, errlen)) ||
        (rc = mcei_key_micro(m, "iwarp.dq_unfair_min", &unfair, err, errlen)))
        goto fail;
    dq = mcei_key_str(m, "iwarp.dq_model");
    if (strcmp(dq, "cell") != 0 && strcmp(dq, "off") != 0) {
        snprintf(err, errlen,
                 "machine '%s': iwarp.dq_model must be cell or off, not '%s'",
                 m->name, dq);
        rc = MCE_ERR_MACHINE;
        goto fail;
    }
    if (words == 0 || words > 1024 || groups > pcts || skip > 999999 ||
        fair == 0 || unfair > 1000000) {
        snprintf(err, errlen,
                 "machine '%s': need 1 <= iwarp.pct_words <= 1024, "
                 "iwarp.pct_groups <= iwarp.pcts, iwarp.skip_period < "
                 "1000000, iwarp.dq_fair_max >= 1 and 0 <= "
                 "iwarp.dq_unfair_min <= 1",
                 m->name);
        rc = MCE_ERR_MACHINE;
        goto fail;
    }
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
    st->pct_words = (int)words;
    st->pct_groups = (int)groups;
    st->lookahead = st->gate_op + st->gate_in;
    st->unit = mcei_iwf_unit(st->word_time, skip);
    st->fp.link_cap = st->unit / st->word_time;
    st->fp.skip_period = skip;
    st->fp.dq_on = strcmp(dq, "cell") == 0;
    st->fp.dq_fair_max = fair;
    st->fp.unfair_min_micro = unfair;
    st->fp.seed = mcei_run_seed();
    st->mirror = calloc((size_t)st->cells * st->pcts, sizeof(*st->mirror));
    st->flows = calloc((size_t)st->cells * st->pcts, sizeof(*st->flows));
    st->pend = calloc((size_t)st->cells * st->pcts, sizeof(*st->pend));
    st->dflow = calloc((size_t)st->cells * st->pcts, sizeof(*st->dflow));
    st->dq_h = calloc((size_t)st->cells * st->pcts, sizeof(*st->dq_h));
    if (!st->mirror || !st->flows || !st->pend || !st->dflow || !st->dq_h) {
        rc = MCE_ERR_NOMEM;
        goto fail;
    }
    for (int i = 0; i < st->cells * st->pcts; i++)
        st->dflow[i] = -1;
    if ((rc = mcei_iwsru_init(&st->sru, m, st->cells, st->clock, st->lookahead,
                              err, errlen)) != MCE_OK)
        goto fail;
    if ((rc = mcei_iwdep_init(&st->dep, m, st->cells, st->clock, st->lookahead,
                              err, errlen)) != MCE_OK) {
        mcei_iwsru_fini(st->sru);
        goto fail;
    }
    mcei_kheap_init(&st->events);
    mcei_kheap_init(&st->ievents);
    st->parked_tail = &st->parked;
    net->priv = st;
    return MCE_OK;
fail:
    if (st) {
        free(st->mirror);
        free(st->flows);
        free(st->pend);
        free(st->dflow);
        free(st->dq_h);
    }
    free(st);
    return rc;
}

static void iw_fini(mcei_net_t *net)
{
    iwnet_t *st = net->priv;
    if (st == NULL)
        return;
    for (size_t i = 0; i < st->events.count; i++)
        mcei_msg_release(st->events.e[i].item);
    for (size_t i = 0; i < st->ievents.count; i++)
        free(st->ievents.e[i].item);
    while (st->iev_free != NULL) {
        ievent_t *ie = st->iev_free;
        st->iev_free = ie->next;
        free(ie);
    }
    for (int i = 0; i < st->nlive; i++) {
        flow_t *f = st->live[i];
        while (f->head) {
            block_t *b = f->head;
            f->head = b->next;
            mcei_msg_release(b->msg);
            free(b);
        }
        free(f);
    }
    free(st->live);
    free(st->moving);
    mcei_iwf_ws_free(&st->ws);
    free(st->ff);
    free(st->ff_idx);
    while (st->parked) {
        parked_t *p = st->parked;
        st->parked = p->next;
        mcei_msg_release(p->msg);
        free(p);
    }
    mcei_kheap_fini(&st->events);
    mcei_kheap_fini(&st->ievents);
    mcei_iwsru_fini(st->sru);
    mcei_iwdep_fini(st->dep);
    free(st->mirror);
    free(st->flows);
    free(st->pend);
    free(st->dflow);
    free(st->dq_h);
    free(st->tr_moving);
    free(st->tr_stalled);
    free(st->tr_load);
    free(st->tr_words);
    free(st->tr_waiting);
    free(st);
    net->priv = NULL;
}

static mce_time_t iw_lookahead(const mcei_net_t *net)
{
    const iwnet_t *st = net->priv;
    return st->lookahead;
}

/* A PCT's configuration on its trace track, from when it takes effect
 * until the next one or its release: "IN -> OUT" (ports: CPU, X+, ...),
 * with the PCTs upstream and downstream and the connection's endpoint. */
static void trace_pct(const iwnet_t *st, int cell, int pct,
                      const pct_entry_t *e, mce_time_t t)
{
    char label[48], name[24], args[96];
    int index = cell * st->pcts + pct;
    if (!e->configured) {
        mcei_trace_net_close("PCT", index, t);
        return;
    }
    snprintf(label, sizeof(label), "PCT %d of cell (%d,%d)", pct,
             cell % st->width, cell / st->width);
    snprintf(name, sizeof(name), "%s -> %s", port_name(e->in_port),
             port_name(e->out_port));
    snprintf(args, sizeof(args),
             "\"in_pct\":%d,\"out_pct\":%d,\"endpoint\":%d,\"throttle\":%d",
             e->in_pct, e->out_pct, e->endpoint, e->throttle);
    mcei_trace_net_open("PCT", index, label, name, e->cfg_time, args);
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
        e->throttle = m->w.aux[1] <= 20 ? (int)m->w.aux[1] : 20;
        e->cfg_time = m->w.ts + eff;
    } else {
        /* a released destination PCT: reads posted later are for the
         * next connection ending there (a flow keeps its word numbers) */
        int k = cell * st->pcts + pct;
        if (st->dflow[k] >= 0)
            st->flows[st->dflow[k]]->dkey = -1;
        st->dflow[k] = -1;
        st->pend[k] = 0;
    }
    if (mcei_trace_net_on())
        trace_pct(st, cell, pct, e, m->w.ts + eff);
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
    if (m->w.type == MCEI_IW_READ) {
        /* the reader's take reaches the source one path latency later */
        int dkey = m->w.src * st->pcts + (int)(m->w.aux[0] % st->pcts);
        mce_time_t d =
            st->dq_h[dkey] > st->lookahead ? st->dq_h[dkey] : st->lookahead;
        uint64_t n = m->w.aux[1];
        mce_time_t ts = m->w.ts;
        mcei_msg_release(m);
        return push_iev(st, ts + d, IEV_FREED, dkey, n);
    }
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
    return start_block(st, m, &ch, ch.ready);
}

static mce_time_t iw_next_event(const mcei_net_t *net)
{
    const iwnet_t *st = net->priv;
    mce_time_t t = mcei_iwsru_next_event(st->sru),
               d = mcei_iwdep_next_event(st->dep), f = fluid_next(st);
    if (d < t)
        t = d;
    return f < t ? f : t;
}

static int iw_advance(mcei_net_t *net, mce_time_t horizon)
{
    iwnet_t *st = net->priv;
    int rc;
    if ((rc = fluid_advance(net, st, horizon)) != MCE_OK)
        return rc;
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

/* The torus of cells, cell = y x width + x, wrap links both ways. */
static void iw_topology(const mcei_net_t *net, mcei_topo_t *out)
{
    const iwnet_t *st = net->priv;
    memset(out, 0, sizeof(*out));
    out->kind = MCEI_TOPO_MESH;
    out->width = st->width;
    out->height = st->height;
    out->wrap_x = out->wrap_y = 1;
}

const mcei_net_ops_t mcei_net_iwarp_ops = {
    .name = "iwarp",
    .description = "CMU iWarp torus: PCT connections with board and corner "
                   "latencies, shared links (PCT groups, skip, DQ) and "
                   "back-pressure",
    .init = iw_init,
    .fini = iw_fini,
    .lookahead = iw_lookahead,
    .inject = iw_inject,
    .next_event = iw_next_event,
    .advance = iw_advance,
    .in_flight = iw_in_flight,
    .notifies_senders = 0,
    .first_event = mcei_net_first_event_lookahead,
    .keys = &mcei_net_iwarp_keytab,
    .topology = iw_topology,
    .commit = mcei_net_commit_none,
};
