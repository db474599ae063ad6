/* The iWarp node protocol (doc/design/iwarp-tcs.md, steps 1-2 of its
 * plan).
 *
 * Per cell: iwarp.pcts PCTs (free, allocated or configured, with their
 * input and output: the CPU or a link side and the PCT of the neighbour),
 * two read and two write gates bound to PCTs, and per destination PCT the
 * blocks delivered and not yet read (the local FIFO view).
 *
 * Direct configuration: each cell configures its own PCTs; every change
 * costs pct_config and is mirrored to the network model (MCEI_IW_CFG).
 *
 * Writes: consecutive single-word writes to one gate with no other call
 * in between are coalesced into one block (one injection) started at the
 * first write, which is exactly the schedule of the individual writes
 * (section 3.4).  The writer blocks while its source PCT is full: word k
 * enters the PCT once word k - pct_words has started into the first link;
 * the call that ends a block waits until its last word is in.
 *
 * Progress of a connection: the model sends both ends its rate segments
 * (MCEI_IW_SEG) when they change, so a cell at clock c knows exactly when
 * each word started into the first link or became readable, up to c.  A
 * time beyond c is waited for with a node timer at the predicted time,
 * re-predicted if a new segment arrives first; a stopped connection (its
 * path full: the reader is not reading) waits for the next segment.
 *
 * Reads: a read of n words tells the model how many words the reader
 * takes (MCEI_IW_READ: path capacity), waits until the blocks holding
 * them are delivered (payload) and until the last one is readable; the
 * CPU reads word j at max(previous read, readable) + gate_op, which ends
 * at max(start + n gate_op, last readable + gate_op) since words are at
 * least word_time >= gate_op apart.  Block calls add block_send before
 * the first word and block_recv after the last. */
#include "iwarp.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../net/iwarp.h"
#include "../../net/iwarp_fluid.h"
#include "../keys.h"
#include "cam.h"
#include "cpu.h"
#include "deposit.h"
#include "spool.h"
#include "state.h"
#include "video.h"

enum { PCT_FREE = 0, PCT_ALLOCATED, PCT_CONFIGURED };

#define T_SEG_WAKE 0x4958 /* timer: a predicted time of a connection */

typedef unsigned __int128 u128;

typedef struct seg {
    mce_time_t t;
    u128 e;
    uint64_t r;
} seg_t;

/* The rate segments of one connection (the model's flow @c key: source
 * cell x pcts + source PCT), with its word numbers from 1. */
typedef struct seglist {
    int64_t key; /* -1: unused */
    seg_t *seg;
    size_t nseg, capseg;
    uint64_t freed; /* words its reader had taken, as known at the source */
    int full;       /* stopped: its path is full */
    mce_time_t delay;
} seglist_t;

typedef struct iw_pct {
    int state, in_port, in_pct, out_port, out_pct, endpoint;
    /* destination side: delivered blocks and unread words */
    mcei_msgq_t rx;
    uint64_t rx_used, rx_words;
    /* source side: words written into this PCT (the connection's word
     * numbers, kept across reconfigurations like the model's) */
    uint64_t words;
    int throttle, next_throttle; /* TCS (mcei_iw_pct_set_throttle) */
    /* the connections' progress: a source PCT has its own; a destination
     * PCT the one it reads and the next */
    seglist_t sl[2];
    uint64_t segv, token, fired;
} iw_pct_t;

_Static_assert((int)MCEI_IW_PORT_CPU == (int)MCEI_IW_CPU &&
                   (int)MCEI_IW_PORT_XP == (int)MCEI_IW_XP &&
                   (int)MCEI_IW_PORT_XM == (int)MCEI_IW_XM &&
                   (int)MCEI_IW_PORT_YP == (int)MCEI_IW_YP &&
                   (int)MCEI_IW_PORT_YM == (int)MCEI_IW_YM,
               "the protocol's ports are the network model's");

typedef struct iw_node {
    mcei_iw_slots_t slots; /* first: the modules' records (state.h) */
    iw_pct_t *pct;
    int gate[MCEI_IW_GATES]; /* bound PCT or -1 */
    int pend_gate;           /* pending coalesced block, -1 none */
    mce_time_t pend_start;
    uint32_t *pend_w;
    size_t pend_n, pend_cap;
    int cfg_free; /* PCT and gate set-up charged by the caller (TCS) */
} iw_node_t;

/* The machine's costs, while the iwarp protocol runs. */
static const mcei_iw_costs_t *iwc(void)
{
    return &mcei_iw_state()->costs;
}

int mcei_iw_active(const mcei_iw_costs_t **c)
{
    mcei_iw_state_t *st = mcei_iw_state();
    if (st == NULL)
        return 0;
    if (c != NULL)
        *c = &st->costs;
    return 1;
}

static iw_node_t *node_of(mcei_vn_t *vn)
{
    return vn->proto;
}

static const char *gate_name(int g)
{
    static const char *const names[] = {"R0", "R1", "W0", "W1"};
    return g >= 0 && g < MCEI_IW_GATES ? names[g] : "?";
}

static const char *port_name(int port)
{
    static const char *const names[] = {"CPU", "X+", "X-", "Y+", "Y-"};
    return port >= 0 && port <= MCEI_IW_YM ? names[port] : "?";
}

/* CPU work (gate operations, set-up): stretched by the active spools. */
static void charge_cpu(mcei_vn_t *vn, mce_time_t t)
{
    mcei_iw_cpu(vn, t);
}

/* PCT configuration and gate binding: free while a caller that charges
 * them as a whole (the TCS switch and barrier lookup) holds cfg_free. */
static void charge_cfg(mcei_vn_t *vn, mce_time_t t)
{
    if (!node_of(vn)->cfg_free)
        charge_cpu(vn, t);
}

void mcei_iw_cfg_free(mcei_vn_t *vn, int on)
{
    node_of(vn)->cfg_free = on;
}

int mcei_iw_pct_state(mcei_vn_t *vn, int pct, int *in_port, int *in_pct,
                      int *out_port, int *out_pct, int *endpoint)
{
    const iw_pct_t *p = &node_of(vn)->pct[pct];
    if (p->state != PCT_CONFIGURED)
        return 0;
    *in_port = p->in_port;
    *in_pct = p->in_pct;
    *out_port = p->out_port;
    *out_pct = p->out_pct;
    *endpoint = p->endpoint;
    return 1;
}

int mcei_iw_gate_pct(mcei_vn_t *vn, int gate)
{
    return node_of(vn)->gate[gate];
}

static void advance_to(mcei_vn_t *vn, mce_time_t t)
{
    if (t > vn->clock)
        mcei_charge_comm(vn, t - vn->clock);
}

/* ---- connection progress (rate segments) ------------------------------ */

static seglist_t *seg_list(iw_pct_t *p, int64_t key)
{
    for (int i = 0; i < 2; i++)
        if (p->sl[i].key == key)
            return &p->sl[i];
    return NULL;
}

/* The flow key of the block at the head of a destination PCT. */
static int64_t block_key(const mcei_msg_t *m)
{
    return (int64_t)m->w.src * iwc()->pcts +
           (int64_t)((m->w.aux[0] >> 8) & 0xff);
}

static void seg_add(mcei_vn_t *vn, iw_pct_t *p, const mcei_msg_t *m)
{
    mcei_iw_seg_t in;
    int64_t key = (int64_t)(m->w.aux[0] >> 32);
    seglist_t *l = seg_list(p, key);
    seg_t *s;
    memcpy(&in, mcei_msg_data(m), sizeof(in));
    if (l == NULL) {
        /* a new connection: replace the list the reader no longer needs */
        int keep = p->rx.head != NULL
                       ? (p->sl[0].key == block_key(p->rx.head)   ? 0
                          : p->sl[1].key == block_key(p->rx.head) ? 1
                                                                  : -1)
                       : -1;
        l = &p->sl[keep == 0 ? 1 : 0];
        if (keep < 0)
            p->sl[1].key = -1;
        l->key = key;
        l->nseg = 0;
    }
    if (l->nseg > 0 && l->seg[l->nseg - 1].t == m->arrival) {
        s = &l->seg[l->nseg - 1];
    } else {
        if (l->nseg == l->capseg) {
            size_t cap = l->capseg ? 2 * l->capseg : 8;
            seg_t *n = realloc(l->seg, cap * sizeof(*n));
            if (n == NULL)
                mcei_vn_fatal(vn, "iwarp: out of memory");
            l->seg = n;
            l->capseg = cap;
        }
        s = &l->seg[l->nseg++];
    }
    s->t = m->arrival;
    s->e = (u128)in.e_hi << 64 | in.e_lo;
    s->r = in.rate;
    l->delay = in.delay;
    l->freed = m->w.aux[1];
    l->full = (m->w.aux[0] & MCEI_IW_SEG_FULL) != 0;
    p->segv++;
}

static mce_time_t at_rate(const seg_t *s, u128 x)
{
    u128 q = (x - s->e + s->r - 1) / s->r;
    if (q >= MCEI_TIME_INF - s->t)
        return MCEI_TIME_INF;
    return s->t + (mce_time_t)q;
}

/* When the connection's entered work reaches @p x (@p start 0) or is at
 * @p x and moving (@p start 1: the next word starts into the link), by
 * the segments known; MCEI_TIME_INF when they do not say. */
static mce_time_t seg_time(seglist_t *l, u128 x, int start)
{
    if (l == NULL)
        return MCEI_TIME_INF;
    /* earlier segments are of no use to later questions */
    while (l->nseg >= 2 && l->seg[1].e < x) {
        memmove(l->seg, l->seg + 1, (l->nseg - 1) * sizeof(*l->seg));
        l->nseg--;
    }
    for (size_t j = 0; j < l->nseg; j++) {
        const seg_t *s = &l->seg[j];
        int last = j + 1 == l->nseg;
        if (!start) {
            if (s->e >= x)
                return s->t;
            if (!last && l->seg[j + 1].e < x)
                continue;
            return s->r == 0 ? MCEI_TIME_INF : at_rate(s, x);
        }
        if (!last && l->seg[j + 1].e <= x)
            continue;
        if (s->r == 0)
            continue;
        return s->e >= x ? s->t : at_rate(s, x);
    }
    return MCEI_TIME_INF;
}

typedef struct seg_wait {
    iw_pct_t *p;
    uint64_t v, token;
} seg_wait_t;

static int seg_news(mcei_vn_t *vn, void *arg)
{
    seg_wait_t *w = arg;
    (void)vn;
    return w->p->segv != w->v || w->p->fired == w->token;
}

/* The exact time word @p k of connection @p key started into its first
 * link (@p start 1) or had fully entered it (@p start 0), waiting until it
 * is known: on return it is at most the node's clock.  @p call and
 * @p what(@p what_arg) describe the wait (formatted only for a deadlock
 * report). */
/* A literal or caller-frame string as a wait description. */
static void str_what(const void *arg, char *buf, size_t len)
{
    snprintf(buf, len, "%s", (const char *)arg);
}

static mce_time_t seg_wait(mcei_vn_t *vn, int pct, int64_t key, uint64_t k,
                           int start, const char *call, mcei_what_fn what,
                           const void *what_arg)
{
    iw_node_t *nd = node_of(vn);
    iw_pct_t *p = &nd->pct[pct];
    u128 x = (u128)(start ? k - 1 : k) * iwc()->unit;
    for (;;) {
        mce_time_t t;
        seg_wait_t w;
        seglist_t *l;
        char full[96];
        mcei_sync(vn);
        l = seg_list(p, key);
        t = seg_time(l, x, start);
        if (t <= vn->clock)
            return t;
        w.p = p;
        w.v = p->segv;
        w.token = ++p->token;
        if (t != MCEI_TIME_INF) {
            uint64_t aux[2] = {(uint64_t)pct, w.token};
            if (mcei_timer_at(vn, t, T_SEG_WAKE, aux, NULL, NULL, 0) != MCE_OK)
                mcei_vn_fatal(vn, "iwarp: out of memory");
        } else if (start && l != NULL && l->full && l->nseg > 0) {
            /* the words the source PCT and the rest of the path hold */
            uint64_t in = (uint64_t)(l->seg[l->nseg - 1].e / iwc()->unit) +
                          (uint64_t)iwc()->pct_words - l->freed;
            snprintf(full, sizeof(full),
                     "PCT %d full (connection to (%d,%d), %" PRIu64
                     " words in its path: the reader is not reading)",
                     pct, p->endpoint % iwc()->width,
                     p->endpoint / iwc()->width, in);
            mcei_wait(vn, seg_news, &w, call, full);
            continue;
        }
        mcei_wait_for(vn, seg_news, &w, call, what, what_arg);
    }
}

/* The word number and connection of the @p n-th word not yet read from a
 * destination PCT (its blocks are delivered). */
static uint64_t nth_word(const iw_pct_t *p, size_t n, int64_t *key,
                         mce_time_t *delay)
{
    const mcei_msg_t *m = p->rx.head;
    uint64_t used = p->rx_used;
    for (;;) {
        uint64_t left = m->w.size / 4 - used;
        if (n <= left) {
            const seglist_t *l;
            *key = block_key(m);
            l = p->sl[0].key == *key   ? &p->sl[0]
                : p->sl[1].key == *key ? &p->sl[1]
                                       : NULL;
            *delay = l != NULL ? l->delay : 0;
            return m->w.aux[1] + used + n - 1;
        }
        n -= left;
        used = 0;
        m = m->next;
    }
}

static int64_t own_key(const mcei_vn_t *vn, int pct)
{
    return (int64_t)vn->id * iwc()->pcts + pct;
}

/* ---- writes ----------------------------------------------------------- */

/* Inject @p n words written from @p ts on through source PCT @p pct. */
static void inject_pct(mcei_vn_t *vn, int pct, mce_time_t ts, const uint32_t *w,
                       size_t n)
{
    iw_node_t *nd = node_of(vn);
    iw_pct_t *p = &nd->pct[pct];
    uint64_t aux[2] = {(uint64_t)pct, 0};
    if (mcei_send_at(vn, ts, p->endpoint, MCEI_CTX_PROTOCOL, MCEI_IW_DATA, w,
                     n * 4, aux, NULL) != MCE_OK)
        mcei_vn_fatal(vn, "iwarp: out of memory sending a block");
    mcei_count_sent(vn, (uint64_t)n * 4);
    p->words += n;
}

/* The writer's last word of the block just injected is in the source PCT
 * once word words - pct_words has started into the first link: returns
 * that start (0 when the block fits), waiting until it is known. */
static mce_time_t wait_room(mcei_vn_t *vn, int pct)
{
    iw_pct_t *p = &node_of(vn)->pct[pct];
    char what[96];
    if (p->words <= (uint64_t)iwc()->pct_words)
        return 0;
    snprintf(what, sizeof(what), "room in PCT %d (connection to (%d,%d))", pct,
             p->endpoint % iwc()->width, p->endpoint / iwc()->width);
    return seg_wait(vn, pct, own_key(vn, pct),
                    p->words - (uint64_t)iwc()->pct_words, 1,
                    "iwarp_gate_write", str_what, what);
}

void mcei_iw_flush(mcei_vn_t *vn)
{
    iw_node_t *nd = node_of(vn);
    mce_time_t done, room;
    int pct;
    if (nd == NULL || nd->pend_gate < 0)
        return;
    pct = nd->gate[nd->pend_gate];
    inject_pct(vn, pct, nd->pend_start, nd->pend_w, nd->pend_n);
    nd->pend_gate = -1;
    nd->pend_n = 0;
    done = vn->clock;
    room = wait_room(vn, pct);
    if (room != 0 && mcei_iw_cpu_end(vn, room, iwc()->gate_op) > done)
        done = mcei_iw_cpu_end(vn, room, iwc()->gate_op);
    advance_to(vn, done);
}

static int check_gate(iw_node_t *nd, int gate, int write, char *why, size_t len)
{
    if (gate < 0 || gate >= MCEI_IW_GATES) {
        snprintf(why, len, "no gate %d (IW_R0, IW_R1, IW_W0 or IW_W1)", gate);
        return MCE_ERR_INVAL;
    }
    if (write != (gate >= MCEI_IW_W0)) {
        snprintf(why, len, "gate %s is a %s gate", gate_name(gate),
                 write ? "read" : "write");
        return MCE_ERR_INVAL;
    }
    if (nd->gate[gate] < 0) {
        snprintf(why, len, "gate %s is not bound to a PCT", gate_name(gate));
        return MCE_ERR_STATE;
    }
    return MCE_OK;
}

int mcei_iw_gate_write(mcei_vn_t *vn, int gate, const uint32_t *w, size_t n,
                       int block, char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    int rc = check_gate(nd, gate, 1, why, len);
    if (rc != MCE_OK)
        return rc;
    if (block || nd->pend_gate != gate)
        mcei_iw_flush(vn);
    if (block) {
        mce_time_t ts, done, room;
        mcei_sync(vn);
        charge_cpu(vn, iwc()->block_send);
        ts = vn->clock;
        charge_cpu(vn, (mce_time_t)n * iwc()->gate_op);
        inject_pct(vn, nd->gate[gate], ts, w, n);
        done = vn->clock;
        room = wait_room(vn, nd->gate[gate]);
        if (room != 0 && mcei_iw_cpu_end(vn, room, iwc()->gate_op) > done)
            done = mcei_iw_cpu_end(vn, room, iwc()->gate_op);
        advance_to(vn, done);
        return MCE_OK;
    }
    if (nd->pend_gate < 0) {
        /* The block's injection time is its first write: no yield may
         * happen before it is injected (the window stays at or before). */
        mcei_sync(vn);
        nd->pend_gate = gate;
        nd->pend_start = vn->clock;
        nd->pend_n = 0;
    }
    if (nd->pend_n == nd->pend_cap) {
        size_t cap = nd->pend_cap ? 2 * nd->pend_cap : 64;
        uint32_t *p = realloc(nd->pend_w, cap * sizeof(*p));
        if (p == NULL)
            mcei_vn_fatal(vn, "iwarp: out of memory");
        nd->pend_w = p;
        nd->pend_cap = cap;
    }
    nd->pend_w[nd->pend_n++] = w[0];
    charge_cpu(vn, iwc()->gate_op);
    return MCE_OK;
}

/* ---- reads ------------------------------------------------------------ */

typedef struct rd_wait {
    iw_pct_t *p;
    uint64_t n;
    size_t words; /* for the deadlock report: the call's count */
    int gate, pct;
} rd_wait_t;

/* What a read waits for, formatted only for a deadlock report. */
static void rd_what(const void *arg, char *buf, size_t len)
{
    const rd_wait_t *r = arg;
    snprintf(buf, len, "%zu word(s) at gate %s (PCT %d)", r->words,
             gate_name(r->gate), r->pct);
}

static int enough_words(mcei_vn_t *vn, void *arg)
{
    rd_wait_t *r = arg;
    (void)vn;
    return r->p->rx_words >= r->n;
}

/* The reader takes @p n more words of destination PCT @p pct (now or as
 * they arrive): the model frees their room in the path. */
static void take_words(mcei_vn_t *vn, int pct, size_t n)
{
    uint64_t aux[2] = {(uint64_t)pct, (uint64_t)n};
    if (mcei_send(vn, vn->id, MCEI_CTX_PROTOCOL, MCEI_IW_READ, NULL, 0, aux,
                  NULL) != MCE_OK)
        mcei_vn_fatal(vn, "iwarp: out of memory");
    /* not counted in words: those are the source side's word numbers (a
     * PCT read here may be a source PCT after a reconfiguration) */
}

int mcei_iw_gate_read(mcei_vn_t *vn, int gate, uint32_t *w, size_t n, int block,
                      char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    int rc = check_gate(nd, gate, 0, why, len), pct;
    const char *call = block ? "iwarp_gate_read_block" : "iwarp_gate_read";
    iw_pct_t *p;
    rd_wait_t r;
    mce_time_t t, ready;
    if (rc != MCE_OK)
        return rc;
    if (n == 0)
        return MCE_OK;
    mcei_iw_flush(vn);
    mcei_sync(vn);
    pct = nd->gate[gate];
    p = &nd->pct[pct];
    t = mcei_iw_cpu_end(vn, vn->clock, (mce_time_t)n * iwc()->gate_op);
    take_words(vn, pct, n);
    r.p = p;
    r.n = n;
    r.words = n;
    r.gate = gate;
    r.pct = pct;
    mcei_wait_for(vn, enough_words, &r, call, rd_what, &r);
    {
        int64_t key;
        mce_time_t delay;
        uint64_t k = nth_word(p, n, &key, &delay);
        ready = seg_wait(vn, pct, key, k, 0, call, rd_what, &r);
        /* the list (and its delay) is known once the time is */
        nth_word(p, n, &key, &delay);
        ready += delay;
    }
    if (mcei_iw_cpu_end(vn, ready, iwc()->gate_op) > t)
        t = mcei_iw_cpu_end(vn, ready, iwc()->gate_op);
    for (size_t k = 0; k < n; k++) {
        mcei_msg_t *m = p->rx.head;
        const uint8_t *data = mcei_msg_data(m);
        memcpy(&w[k], data + 4 * p->rx_used, 4);
        p->rx_words--;
        if (++p->rx_used == m->w.size / 4) {
            mcei_msgq_remove(&p->rx, m);
            mcei_count_recv(vn, m->w.size);
            mcei_msg_release(m);
            p->rx_used = 0;
        }
    }
    advance_to(vn, t);
    if (block)
        charge_cpu(vn, iwc()->block_recv);
    return MCE_OK;
}

/* ---- spools (design 3.6; lib/machines/iwarp/spool.c) ------------------ */

int mcei_iw_spool_put(mcei_vn_t *vn, int pct, const uint32_t *w, size_t n,
                      mce_time_t word, mce_time_t *done, uint64_t *mark,
                      char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    iw_pct_t *p;
    if (pct < 0 || pct >= iwc()->pcts || nd->pct[pct].state != PCT_CONFIGURED ||
        nd->pct[pct].in_port != MCEI_IW_CPU) {
        snprintf(why, len,
                 "PCT %d is not a configured source PCT (input: the "
                 "CPU)",
                 pct);
        return MCE_ERR_STATE;
    }
    p = &nd->pct[pct];
    mcei_sync(vn);
    inject_pct(vn, pct, vn->clock, w, n);
    /* expected end (the exact one: mcei_iw_spool_put_end) */
    *done = vn->clock + (mce_time_t)n * word;
    *mark = p->words;
    return MCE_OK;
}

int mcei_iw_spool_put_end(mcei_vn_t *vn, int pct, uint64_t mark, int test,
                          mce_time_t *end)
{
    iw_pct_t *p = &node_of(vn)->pct[pct];
    mce_time_t t;
    /* the spool's last word is in the PCT once word mark - pct_words + 1
     * has started into the first link */
    if (mark < (uint64_t)iwc()->pct_words) {
        *end = 0;
        return 1;
    }
    mcei_sync(vn);
    if (test) {
        t = seg_time(seg_list(p, own_key(vn, pct)),
                     (u128)(mark - (uint64_t)iwc()->pct_words) * iwc()->unit,
                     1);
        if (t > vn->clock)
            return 0;
    } else {
        t = seg_wait(vn, pct, own_key(vn, pct),
                     mark - (uint64_t)iwc()->pct_words + 1, 1,
                     "iwarp_spool_wait", str_what, "a spool out");
    }
    *end = t;
    return 1;
}

void mcei_iw_take(mcei_vn_t *vn, int pct, size_t n)
{
    take_words(vn, pct, n);
}

int mcei_iw_spool_take(mcei_vn_t *vn, int pct, mce_time_t start,
                       mce_time_t word, uint32_t *w, size_t n, int test,
                       mce_time_t *done, char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    iw_pct_t *p;
    rd_wait_t r;
    mce_time_t t = start + (mce_time_t)n * word, m, delay;
    int64_t key;
    uint64_t k;
    if (pct < 0 || pct >= iwc()->pcts || nd->pct[pct].state != PCT_CONFIGURED ||
        nd->pct[pct].out_port != MCEI_IW_CPU) {
        snprintf(why, len,
                 "PCT %d is not a configured destination PCT "
                 "(output: the CPU)",
                 pct);
        return MCE_ERR_STATE;
    }
    p = &nd->pct[pct];
    mcei_sync(vn);
    r.p = p;
    r.n = n;
    if (n == 0) {
        *done = start;
        return 1;
    }
    if (test && !enough_words(vn, &r))
        return 0;
    if (!test)
        mcei_wait(vn, enough_words, &r, "iwarp_spool_wait",
                  "the words of a spool in");
    /* the completion time, before taking anything (test may refuse); the
     * spool takes a word per @p word, words arrive word_time apart */
    k = nth_word(p, n, &key, &delay);
    if (test) {
        m = seg_time(seg_list(p, key), (u128)k * iwc()->unit, 0);
        if (m > vn->clock)
            return 0;
    } else {
        m = seg_wait(vn, pct, key, k, 0, "iwarp_spool_wait", str_what,
                     "the words of a spool in");
        nth_word(p, n, &key, &delay);
    }
    if (m + delay + word > t)
        t = m + delay + word;
    if (test && t > vn->clock)
        return 0;
    for (size_t k = 0; k < n; k++) {
        mcei_msg_t *h = p->rx.head;
        memcpy(&w[k], (const uint8_t *)mcei_msg_data(h) + 4 * p->rx_used, 4);
        p->rx_words--;
        if (++p->rx_used == h->w.size / 4) {
            mcei_msgq_remove(&p->rx, h);
            mcei_count_recv(vn, h->w.size);
            mcei_msg_release(h);
            p->rx_used = 0;
        }
    }
    *done = t;
    return 1;
}

/* ---- PCTs and gates --------------------------------------------------- */

int mcei_iw_pct_alloc(mcei_vn_t *vn, int *pct, char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    mcei_iw_flush(vn);
    for (int i = 0; i < iwc()->pcts; i++)
        if (nd->pct[i].state == PCT_FREE) {
            nd->pct[i].state = PCT_ALLOCATED;
            *pct = i;
            return MCE_OK;
        }
    snprintf(why, len, "out of PCTs: all %d PCTs of this cell are in use",
             iwc()->pcts);
    return MCE_ERR_RESOURCE;
}

static int check_pct(int pct, char *why, size_t len)
{
    if (pct < 0 || pct >= iwc()->pcts) {
        snprintf(why, len, "no PCT %d (the cell has PCTs 0..%d)", pct,
                 iwc()->pcts - 1);
        return MCE_ERR_INVAL;
    }
    return MCE_OK;
}

int mcei_iw_pct_config(mcei_vn_t *vn, int pct, int in_port, int in_pct,
                       int out_port, int out_pct, int endpoint, char *why,
                       size_t len)
{
    iw_node_t *nd = node_of(vn);
    iw_pct_t *p;
    uint64_t aux[2];
    int rc = check_pct(pct, why, len);
    mcei_iw_flush(vn);
    if (rc != MCE_OK)
        return rc;
    p = &nd->pct[pct];
    if (in_port < MCEI_IW_CPU || in_port > MCEI_IW_YM ||
        out_port < MCEI_IW_CPU || out_port > MCEI_IW_YM) {
        snprintf(why, len,
                 "ports must be IW_CPU, IW_XP, IW_XM, IW_YP or "
                 "IW_YM");
        return MCE_ERR_INVAL;
    }
    if (in_port == MCEI_IW_CPU && out_port == MCEI_IW_CPU) {
        snprintf(why, len,
                 "PCT %d would take its words from the CPU and "
                 "give them back to it: no connection",
                 pct);
        return MCE_ERR_INVAL;
    }
    if ((in_port != MCEI_IW_CPU && (rc = check_pct(in_pct, why, len))) ||
        (out_port != MCEI_IW_CPU && (rc = check_pct(out_pct, why, len))))
        return rc;
    if ((in_port == MCEI_IW_CPU || out_port == MCEI_IW_CPU) &&
        (endpoint < 0 || endpoint >= mcei_nnodes())) {
        snprintf(why, len,
                 "an end PCT of a connection needs the cell at the other "
                 "end (0..%d), not %d",
                 mcei_nnodes() - 1, endpoint);
        return MCE_ERR_INVAL;
    }
    if (p->state == PCT_CONFIGURED) {
        snprintf(why, len,
                 "PCT %d is already configured (%s PCT %d -> %s PCT %d): "
                 "release it first",
                 pct, port_name(p->in_port), p->in_pct, port_name(p->out_port),
                 p->out_pct);
        return MCE_ERR_RESOURCE;
    }
    mcei_sync(vn);
    charge_cfg(vn, iwc()->pct_config);
    p->state = PCT_CONFIGURED;
    p->in_port = in_port;
    p->in_pct = in_port == MCEI_IW_CPU ? 0 : in_pct;
    p->out_port = out_port;
    p->out_pct = out_port == MCEI_IW_CPU ? 0 : out_pct;
    p->endpoint =
        in_port == MCEI_IW_CPU || out_port == MCEI_IW_CPU ? endpoint : -1;
    aux[0] = mcei_iw_cfg_pack(pct, p->in_port, p->in_pct, p->out_port,
                              p->out_pct, p->endpoint, 0);
    p->throttle = in_port == MCEI_IW_CPU ? p->next_throttle : 0;
    p->next_throttle = 0;
    aux[1] = (uint64_t)p->throttle;
    if (mcei_send(vn, vn->id, MCEI_CTX_PROTOCOL, MCEI_IW_CFG, NULL, 0, aux,
                  NULL) != MCE_OK)
        mcei_vn_fatal(vn, "iwarp: out of memory configuring a PCT");
    return MCE_OK;
}

void mcei_iw_pct_set_throttle(mcei_vn_t *vn, int pct, int throttle)
{
    if (pct >= 0 && pct < iwc()->pcts)
        node_of(vn)->pct[pct].next_throttle = throttle > 0 ? throttle : 0;
}

int mcei_iw_pct_throttle(mcei_vn_t *vn, int pct)
{
    if (pct < 0 || pct >= iwc()->pcts ||
        node_of(vn)->pct[pct].state != PCT_CONFIGURED)
        return 0;
    return node_of(vn)->pct[pct].throttle;
}

int mcei_iw_pct_release(mcei_vn_t *vn, int pct, char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    iw_pct_t *p;
    int rc = check_pct(pct, why, len);
    mcei_iw_flush(vn);
    if (rc != MCE_OK)
        return rc;
    p = &nd->pct[pct];
    if (p->state == PCT_FREE) {
        snprintf(why, len, "PCT %d is not in use", pct);
        return MCE_ERR_STATE;
    }
    for (int g = 0; g < MCEI_IW_GATES; g++)
        if (nd->gate[g] == pct) {
            snprintf(why, len,
                     "gate %s is still bound to PCT %d: unbind it "
                     "first",
                     gate_name(g), pct);
            return MCE_ERR_STATE;
        }
    mcei_sync(vn);
    if (p->rx_words > 0)
        mcei_vn_fatal(vn,
                      "iwarp_pct_release: PCT %d holds %" PRIu64
                      " unread word(s); on iWarp these words would be lost",
                      pct, p->rx_words);
    if (p->state == PCT_CONFIGURED) {
        uint64_t aux[2] = {mcei_iw_cfg_pack(pct, 0, 0, 0, 0, -1, 1), 0};
        charge_cfg(vn, iwc()->pct_config);
        if (mcei_send(vn, vn->id, MCEI_CTX_PROTOCOL, MCEI_IW_CFG, NULL, 0, aux,
                      NULL) != MCE_OK)
            mcei_vn_fatal(vn, "iwarp: out of memory releasing a PCT");
    }
    p->state = PCT_FREE;
    return MCE_OK;
}

int mcei_iw_gate_bind(mcei_vn_t *vn, int gate, int pct, char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    int rc = check_pct(pct, why, len), write = gate >= MCEI_IW_W0;
    mcei_iw_flush(vn);
    if (rc != MCE_OK)
        return rc;
    if (gate < 0 || gate >= MCEI_IW_GATES) {
        snprintf(why, len, "no gate %d (IW_R0, IW_R1, IW_W0 or IW_W1)", gate);
        return MCE_ERR_INVAL;
    }
    if (nd->gate[gate] >= 0) {
        int other = write ? MCEI_IW_W0 + MCEI_IW_W1 - gate
                          : MCEI_IW_R0 + MCEI_IW_R1 - gate;
        if (nd->gate[other] >= 0)
            snprintf(why, len,
                     "out of gates: both %s gates are bound (%s to PCT %d, "
                     "%s to PCT %d)",
                     write ? "write" : "read", gate_name(MCEI_IW_W0 * write),
                     nd->gate[MCEI_IW_W0 * write],
                     gate_name(MCEI_IW_W0 * write + 1),
                     nd->gate[MCEI_IW_W0 * write + 1]);
        else
            snprintf(why, len,
                     "gate %s is already bound to PCT %d (unbind it first, or "
                     "use %s)",
                     gate_name(gate), nd->gate[gate], gate_name(other));
        return MCE_ERR_RESOURCE;
    }
    if (nd->pct[pct].state != PCT_CONFIGURED) {
        snprintf(why, len, "PCT %d is not configured", pct);
        return MCE_ERR_STATE;
    }
    if (write && nd->pct[pct].in_port != MCEI_IW_CPU) {
        snprintf(why, len,
                 "PCT %d takes its words from the %s link, not from the CPU: "
                 "a write gate cannot feed it",
                 pct, port_name(nd->pct[pct].in_port));
        return MCE_ERR_STATE;
    }
    if (!write && nd->pct[pct].out_port != MCEI_IW_CPU) {
        snprintf(why, len,
                 "PCT %d sends its words to the %s link, not to the CPU: a "
                 "read gate cannot read it",
                 pct, port_name(nd->pct[pct].out_port));
        return MCE_ERR_STATE;
    }
    for (int g = 0; g < MCEI_IW_GATES; g++)
        if (nd->gate[g] == pct) {
            snprintf(why, len, "PCT %d is already bound to gate %s", pct,
                     gate_name(g));
            return MCE_ERR_RESOURCE;
        }
    charge_cfg(vn, iwc()->gate_bind);
    nd->gate[gate] = pct;
    return MCE_OK;
}

int mcei_iw_gate_unbind(mcei_vn_t *vn, int gate, char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    mcei_iw_flush(vn);
    if (gate < 0 || gate >= MCEI_IW_GATES) {
        snprintf(why, len, "no gate %d (IW_R0, IW_R1, IW_W0 or IW_W1)", gate);
        return MCE_ERR_INVAL;
    }
    if (nd->gate[gate] < 0) {
        snprintf(why, len, "gate %s is not bound", gate_name(gate));
        return MCE_ERR_STATE;
    }
    charge_cfg(vn, iwc()->gate_bind);
    nd->gate[gate] = -1;
    return MCE_OK;
}

/* ---- idling until a time ------------------------------------------------ */

#define T_ALIGN 0x4941

static int reached(mcei_vn_t *vn, void *arg)
{
    (void)vn;
    return *(const int *)arg;
}

/* A wait on a node-local timer rather than a charge: a handler that
 * arrives meanwhile takes idle time instead of delaying the program. */
void mcei_iw_align(mcei_vn_t *vn, mce_time_t t)
{
    int done = 0;
    mcei_iw_flush(vn);
    if (t <= vn->clock)
        return;
    if (mcei_timer_at(vn, t, T_ALIGN, NULL, &done, NULL, 0) != MCE_OK)
        mcei_vn_fatal(vn, "iwarp: out of memory in iwarp_align");
    mcei_wait(vn, reached, &done, "iwarp_align", "its alignment time");
}

/* ---- arrivals ----------------------------------------------------------- */

static void iw_on_arrival(mcei_vn_t *vn, mcei_msg_t *m)
{
    iw_node_t *nd = node_of(vn);
    if (m->w.ctx == MCEI_CTX_TIMER && m->w.type == T_ALIGN) {
        *(int *)m->cookie = 1;
        mcei_msg_release(m);
        return;
    }
    if (mcei_iw_cam_arrival(vn, m) || mcei_iw_dep_arrival(vn, m))
        return;
    if (m->w.ctx == MCEI_CTX_TIMER && m->w.type == T_SEG_WAKE) {
        int pct = (int)m->w.aux[0];
        if (pct >= 0 && pct < iwc()->pcts)
            nd->pct[pct].fired = m->w.aux[1];
        mcei_msg_release(m);
        return;
    }
    if (m->w.ctx == MCEI_CTX_PROTOCOL && m->w.type == MCEI_IW_SEG) {
        int pct = (int)(m->w.aux[0] & 0xff);
        if (pct < iwc()->pcts && m->w.size == sizeof(mcei_iw_seg_t))
            seg_add(vn, &nd->pct[pct], m);
        mcei_msg_release(m);
        return;
    }
    if (m->w.ctx == MCEI_CTX_PROTOCOL && m->w.type == MCEI_IW_DATA) {
        int dpct = (int)(m->w.aux[0] & 0xff);
        iw_pct_t *p = &nd->pct[dpct];
        if (dpct >= iwc()->pcts || p->state != PCT_CONFIGURED ||
            p->out_port != MCEI_IW_CPU)
            mcei_vn_fatal_at(vn, m->arrival,
                             "iwarp: words from (%d,%d) reached PCT %d, which "
                             "no longer ends a connection: on iWarp they "
                             "would be lost",
                             m->w.src % iwc()->width, m->w.src / iwc()->width,
                             dpct);
        mcei_msgq_push(&p->rx, m);
        p->rx_words += m->w.size / 4;
        return;
    }
    /* Nothing else travels on the iwarp network. */
    mcei_msg_release(m);
}

/* ---- plug-in ------------------------------------------------------------ */

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

static int iw_init(mcei_engine_t *eng, mcei_machine_t *m, char *err,
                   size_t errlen)
{
    static const struct {
        const char *key;
        size_t off;
    } times[] = {
#define T(k) {"iwarp." #k, offsetof(mcei_iw_costs_t, k)}
        T(gate_op),    T(gate_in),    T(word_time), T(block_send),
        T(block_recv), T(pct_config), T(gate_bind), T(timer_read),
#undef T
    };
    uint64_t w, h, pcts, words, rg, wg, wb, skip;
    mcei_iw_state_t *st = calloc(1, sizeof(*st));
    mcei_iw_costs_t *costs;
    int rc;
    if (st == NULL)
        return MCE_ERR_NOMEM;
    costs = &st->costs;
    if ((rc = mcei_key_time(m, "iwarp.clock", &costs->clock, err, errlen)))
        goto fail;
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(times); i++)
        if ((rc = get_clocks(m, times[i].key, costs->clock,
                             (mce_time_t *)((char *)costs + times[i].off), err,
                             errlen)))
            goto fail;
    if ((rc = mcei_key_u64(m, "iwarp.width", &w, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.height", &h, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.pcts", &pcts, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.pct_words", &words, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.read_gates", &rg, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.write_gates", &wg, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.word_bytes", &wb, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.timer_tick", &costs->timer_tick, err,
                           errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.skip_period", &skip, err, errlen)))
        goto fail;
    if (costs->clock == 0 || costs->gate_op == 0 || costs->word_time == 0 ||
        pcts == 0 || pcts > 255 || words == 0 || words > 1024 || rg != 2 ||
        wg != 2 || wb != 4 || costs->timer_tick == 0 || w * h == 0 ||
        w * h != (uint64_t)eng->nodes) {
        snprintf(err, errlen,
                 "machine '%s': need positive iwarp.clock, gate_op, word_time "
                 "and timer_tick, 1 <= iwarp.pcts <= 255, 1 <= pct_words <= "
                 "1024, 2 read and 2 write gates, 4-byte words and width x "
                 "height = the node count",
                 m->name);
        rc = MCE_ERR_MACHINE;
        goto fail;
    }
    costs->width = (int)w;
    costs->height = (int)h;
    costs->pcts = (int)pcts;
    costs->pct_words = (int)words;
    costs->unit = mcei_iwf_unit(costs->word_time, skip);
    if ((rc = mcei_iw_cam_init(&st->cam, m, costs->width, costs->clock, err,
                               errlen)) ||
        (rc =
             mcei_iw_dep_module_init(&st->dep, m, costs->clock, err, errlen)) ||
        (rc = mcei_iw_spool_module_init(&st->spool, m, costs->clock, err,
                                        errlen)) ||
        (rc = mcei_iw_video_init(&st->video, m, costs->clock, costs->width, err,
                                 errlen)))
        goto fail;
    eng->proto_state = st;
    return MCE_OK;
fail:
    free(st);
    return rc;
}

static void iw_fini(mcei_engine_t *eng)
{
    free(eng->proto_state);
    eng->proto_state = NULL;
}

static int iw_node_init(mcei_vn_t *vn)
{
    iw_node_t *nd = calloc(1, sizeof(*nd));
    if (nd == NULL ||
        (nd->pct = calloc((size_t)iwc()->pcts, sizeof(*nd->pct))) == NULL) {
        free(nd);
        return MCE_ERR_NOMEM;
    }
    for (int i = 0; i < iwc()->pcts; i++)
        nd->pct[i].sl[0].key = nd->pct[i].sl[1].key = -1;
    for (int g = 0; g < MCEI_IW_GATES; g++)
        nd->gate[g] = -1;
    nd->pend_gate = -1;
    vn->proto = nd;
    if (mcei_iw_cam_node_init(vn) != MCE_OK ||
        mcei_iw_spool_node_init(vn) != MCE_OK ||
        mcei_iw_video_node_init(vn) != MCE_OK)
        return MCE_ERR_NOMEM;
    return mcei_iw_dep_node_init(vn);
}

static void iw_node_fini(mcei_vn_t *vn)
{
    iw_node_t *nd = node_of(vn);
    if (nd == NULL)
        return;
    mcei_iw_cam_node_fini(vn);
    mcei_iw_dep_node_fini(vn);
    mcei_iw_spool_node_fini(vn);
    mcei_iw_video_node_fini(vn);
    for (int i = 0; i < iwc()->pcts; i++) {
        mcei_msg_t *m;
        while ((m = nd->pct[i].rx.head) != NULL) {
            mcei_msgq_remove(&nd->pct[i].rx, m);
            mcei_msg_release(m);
        }
        free(nd->pct[i].sl[0].seg);
        free(nd->pct[i].sl[1].seg);
    }
    free(nd->pct);
    free(nd->pend_w);
    free(nd);
    vn->proto = NULL;
}

/* The iWarp network's lookahead already holds the gate operations. */
static mce_time_t iw_send_delay(const mcei_engine_t *eng)
{
    (void)eng;
    return 0;
}

const mcei_proto_ops_t mcei_proto_iwarp_ops = {
    .name = "iwarp",
    .description = "CMU iWarp cells: PCTs by direct configuration, gates, "
                   "coalesced gate writes",
    .init = iw_init,
    .fini = iw_fini,
    .node_init = iw_node_init,
    .node_fini = iw_node_fini,
    .on_arrival = iw_on_arrival,
    .send_delay = iw_send_delay,
    .keys = &mcei_proto_iwarp_keytab,
    .requires_net = "iwarp",
    .topology = mcei_proto_no_topology,
};
