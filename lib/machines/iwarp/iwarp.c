/* The iWarp node protocol (doc/design/iwarp-tcs.md, step 1 of its plan).
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
 * enters the PCT once word k - pct_words has left it for the first link;
 * the call that ends a block waits until its last word is in.  Step 1 has
 * no back-pressure from the reader (words always drain at link rate) and
 * no link sharing (the model refuses it).
 *
 * Reads: a read of n words waits until blocks holding them are delivered;
 * word j is readable at the time the model gave, and the CPU reads it at
 * max(previous read, readable) + gate_op.  Block calls add block_send
 * before the first word and block_recv after the last. */
#include "iwarp.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../net/iwarp.h"
#include "cam.h"
#include "deposit.h"
#include "spool.h"

enum { PCT_FREE = 0, PCT_ALLOCATED, PCT_CONFIGURED };

typedef struct iw_pct {
    int state, in_port, in_pct, out_port, out_pct, endpoint;
    /* destination side: delivered blocks and unread words */
    mcei_msgq_t rx;
    uint64_t rx_used, rx_words;
    /* source side: link start times of the last pct_words words */
    mce_time_t last_l;
    int last_valid;
    mce_time_t *ring;
    int ring_pos;
    uint64_t ring_n;
} iw_pct_t;

typedef struct iw_node {
    iw_pct_t *pct;
    int gate[MCEI_IW_GATES]; /* bound PCT or -1 */
    int pend_gate;           /* pending coalesced block, -1 none */
    mce_time_t pend_start;
    uint32_t *pend_w;
    size_t pend_n, pend_cap;
} iw_node_t;

static mcei_iw_costs_t costs;
static int iw_on;

int mcei_iw_active(const mcei_iw_costs_t **c)
{
    if (!iw_on)
        return 0;
    if (c != NULL)
        *c = &costs;
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

static void charge_comm(mcei_vn_t *vn, mce_time_t t)
{
    mcei_charge(vn, t);
    vn->t_comm += t;
}

static void advance_to(mcei_vn_t *vn, mce_time_t t)
{
    if (t > vn->clock)
        charge_comm(vn, t - vn->clock);
}

/* ---- writes ----------------------------------------------------------- */

/* Inject @p n words written from @p ts on through @p gate; returns the
 * time the writer is done (its last word entered the source PCT). */
static mce_time_t inject_pct(mcei_vn_t *vn, int pct, mce_time_t ts,
                             const uint32_t *w, size_t n)
{
    iw_node_t *nd = node_of(vn);
    iw_pct_t *p = &nd->pct[pct];
    uint64_t aux[2] = {(uint64_t)pct, 0};
    mce_time_t base = ts + costs.gate_op + costs.gate_in, wr = ts;
    if (p->last_valid && p->last_l + costs.word_time > base)
        base = p->last_l + costs.word_time;
    for (size_t k = 0; k < n; k++) {
        mce_time_t l = base + (mce_time_t)k * costs.word_time;
        mce_time_t *slot = &p->ring[p->ring_pos];
        if (p->ring_n >= (uint64_t)costs.pct_words && *slot > wr)
            wr = *slot; /* the source PCT is full until word k-P leaves */
        wr += costs.gate_op;
        *slot = l;
        p->ring_pos = (p->ring_pos + 1) % costs.pct_words;
        p->ring_n++;
    }
    p->last_l = base + (mce_time_t)(n - 1) * costs.word_time;
    p->last_valid = 1;
    if (mcei_send_at(vn, ts, p->endpoint, MCEI_CTX_PROTOCOL, MCEI_IW_DATA, w,
                     n * 4, aux, NULL) != MCE_OK)
        mcei_vn_fatal(vn, "iwarp: out of memory sending a block");
    vn->nsent++;
    return wr;
}

void mcei_iw_flush(mcei_vn_t *vn)
{
    iw_node_t *nd = node_of(vn);
    mce_time_t done;
    if (nd == NULL || nd->pend_gate < 0)
        return;
    done = inject_pct(vn, nd->gate[nd->pend_gate], nd->pend_start, nd->pend_w,
                      nd->pend_n);
    nd->pend_gate = -1;
    nd->pend_n = 0;
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
        mce_time_t ts, done;
        mcei_sync(vn);
        charge_comm(vn, costs.block_send);
        ts = vn->clock;
        charge_comm(vn, (mce_time_t)n * costs.gate_op);
        done = inject_pct(vn, nd->gate[gate], ts, w, n);
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
    charge_comm(vn, costs.gate_op);
    return MCE_OK;
}

/* ---- reads ------------------------------------------------------------ */

typedef struct rd_wait {
    iw_pct_t *p;
    uint64_t n;
} rd_wait_t;

static int enough_words(mcei_vn_t *vn, void *arg)
{
    rd_wait_t *r = arg;
    (void)vn;
    return r->p->rx_words >= r->n;
}

int mcei_iw_gate_read(mcei_vn_t *vn, int gate, uint32_t *w, size_t n, int block,
                      char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    int rc = check_gate(nd, gate, 0, why, len);
    iw_pct_t *p;
    rd_wait_t r;
    mce_time_t t;
    char what[96];
    if (rc != MCE_OK)
        return rc;
    mcei_iw_flush(vn);
    mcei_sync(vn);
    p = &nd->pct[nd->gate[gate]];
    t = vn->clock;
    r.p = p;
    r.n = n;
    snprintf(what, sizeof(what), "%zu word(s) at gate %s (PCT %d)", n,
             gate_name(gate), nd->gate[gate]);
    mcei_wait(vn, enough_words, &r,
              block ? "iwarp_gate_read_block" : "iwarp_gate_read", what);
    for (size_t k = 0; k < n; k++) {
        mcei_msg_t *m = p->rx.head;
        const uint8_t *data = mcei_msg_data(m);
        mce_time_t interval = (mce_time_t)(m->w.aux[0] >> 16);
        mce_time_t ready = m->arrival + p->rx_used * interval;
        if (ready > t)
            t = ready;
        t += costs.gate_op;
        memcpy(&w[k], data + 4 * p->rx_used, 4);
        p->rx_words--;
        if (++p->rx_used == m->w.size / 4) {
            mcei_msgq_remove(&p->rx, m);
            mcei_msg_release(m);
            p->rx_used = 0;
            vn->nrecv++;
        }
    }
    advance_to(vn, t);
    if (block)
        charge_comm(vn, costs.block_recv);
    return MCE_OK;
}

/* ---- spools (design 3.6; lib/machines/iwarp/spool.c) ------------------ */

int mcei_iw_spool_put(mcei_vn_t *vn, int pct, const uint32_t *w, size_t n,
                      mce_time_t word, mce_time_t *done, char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    iw_pct_t *p;
    mce_time_t last;
    if (pct < 0 || pct >= costs.pcts || nd->pct[pct].state != PCT_CONFIGURED ||
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
    /* the spool writes a word per spool_word; the PCT holds pct_words */
    last = p->last_l - (mce_time_t)(costs.pct_words - 1) * costs.word_time;
    *done = vn->clock + (mce_time_t)n * word;
    if (last > *done)
        *done = last;
    return MCE_OK;
}

int mcei_iw_spool_take(mcei_vn_t *vn, int pct, mce_time_t start,
                       mce_time_t word, uint32_t *w, size_t n, int test,
                       mce_time_t *done, char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    iw_pct_t *p;
    rd_wait_t r;
    mce_time_t t = start;
    uint64_t used;
    const mcei_msg_t *m;
    if (pct < 0 || pct >= costs.pcts || nd->pct[pct].state != PCT_CONFIGURED ||
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
    if (test && !enough_words(vn, &r))
        return 0;
    if (!test)
        mcei_wait(vn, enough_words, &r, "iwarp_spool_wait",
                  "the words of a spool in");
    /* the completion time, before taking anything (test may refuse) */
    m = p->rx.head;
    used = p->rx_used;
    for (size_t k = 0; k < n; k++) {
        mce_time_t interval = (mce_time_t)(m->w.aux[0] >> 16);
        mce_time_t ready = m->arrival + used * interval;
        if (ready > t)
            t = ready;
        t += word;
        if (++used == m->w.size / 4) {
            m = m->next;
            used = 0;
        }
    }
    if (test && t > vn->clock)
        return 0;
    for (size_t k = 0; k < n; k++) {
        mcei_msg_t *h = p->rx.head;
        memcpy(&w[k], (const uint8_t *)mcei_msg_data(h) + 4 * p->rx_used, 4);
        p->rx_words--;
        if (++p->rx_used == h->w.size / 4) {
            mcei_msgq_remove(&p->rx, h);
            mcei_msg_release(h);
            p->rx_used = 0;
            vn->nrecv++;
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
    for (int i = 0; i < costs.pcts; i++)
        if (nd->pct[i].state == PCT_FREE) {
            nd->pct[i].state = PCT_ALLOCATED;
            *pct = i;
            return MCE_OK;
        }
    snprintf(why, len, "out of PCTs: all %d PCTs of this cell are in use",
             costs.pcts);
    return MCE_ERR_RESOURCE;
}

static int check_pct(int pct, char *why, size_t len)
{
    if (pct < 0 || pct >= costs.pcts) {
        snprintf(why, len, "no PCT %d (the cell has PCTs 0..%d)", pct,
                 costs.pcts - 1);
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
        (endpoint < 0 || endpoint >= mcei_eng->nodes)) {
        snprintf(why, len,
                 "an end PCT of a connection needs the cell at the other "
                 "end (0..%d), not %d",
                 mcei_eng->nodes - 1, endpoint);
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
    charge_comm(vn, costs.pct_config);
    p->state = PCT_CONFIGURED;
    p->in_port = in_port;
    p->in_pct = in_port == MCEI_IW_CPU ? 0 : in_pct;
    p->out_port = out_port;
    p->out_pct = out_port == MCEI_IW_CPU ? 0 : out_pct;
    p->endpoint =
        in_port == MCEI_IW_CPU || out_port == MCEI_IW_CPU ? endpoint : -1;
    p->last_valid = 0;
    p->ring_n = 0;
    p->ring_pos = 0;
    aux[0] = mcei_iw_cfg_pack(pct, p->in_port, p->in_pct, p->out_port,
                              p->out_pct, p->endpoint, 0);
    aux[1] = 0;
    if (mcei_send(vn, vn->id, MCEI_CTX_PROTOCOL, MCEI_IW_CFG, NULL, 0, aux,
                  NULL) != MCE_OK)
        mcei_vn_fatal(vn, "iwarp: out of memory configuring a PCT");
    return MCE_OK;
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
        charge_comm(vn, costs.pct_config);
        if (mcei_send(vn, vn->id, MCEI_CTX_PROTOCOL, MCEI_IW_CFG, NULL, 0, aux,
                      NULL) != MCE_OK)
            mcei_vn_fatal(vn, "iwarp: out of memory releasing a PCT");
    }
    p->state = PCT_FREE;
    p->last_valid = 0;
    p->ring_n = 0;
    p->ring_pos = 0;
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
    charge_comm(vn, costs.gate_bind);
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
    charge_comm(vn, costs.gate_bind);
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
    if (m->w.ctx == MCEI_CTX_PROTOCOL && m->w.type == MCEI_IW_DATA) {
        int dpct = (int)(m->w.aux[0] & 0xff);
        iw_pct_t *p = &nd->pct[dpct];
        if (dpct >= costs.pcts || p->state != PCT_CONFIGURED ||
            p->out_port != MCEI_IW_CPU)
            mcei_vn_fatal_at(vn, m->arrival,
                             "iwarp: words from (%d,%d) reached PCT %d, which "
                             "no longer ends a connection: on iWarp they "
                             "would be lost",
                             m->w.src % costs.width, m->w.src / costs.width,
                             dpct);
        mcei_msgq_push(&p->rx, m);
        p->rx_words += m->w.size / 4;
        return;
    }
    /* Nothing else travels on the iwarp network. */
    mcei_msg_release(m);
}

/* ---- plug-in ------------------------------------------------------------ */

static int get_clocks(mcei_machine_t *m, const char *key, mce_time_t *out,
                      char *err, size_t errlen)
{
    uint64_t v;
    int rc = mcei_machine_u64(m, key, 1, 0, &v, err, errlen);
    if (rc != MCE_OK)
        return rc;
    if (v > 1000000) {
        snprintf(err, errlen, "machine '%s': %s must be at most 1000000 clocks",
                 m->name, key);
        return MCE_ERR_MACHINE;
    }
    *out = v * costs.clock;
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
    uint64_t w, h, pcts, words, rg, wg, wb;
    int rc;
    memset(&costs, 0, sizeof(costs));
    if ((rc = mcei_machine_time(m, "iwarp.clock", 1, 0, &costs.clock, err,
                                errlen)))
        return rc;
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(times); i++)
        if ((rc = get_clocks(m, times[i].key,
                             (mce_time_t *)((char *)&costs + times[i].off), err,
                             errlen)))
            return rc;
    if ((rc = mcei_machine_u64(m, "iwarp.width", 1, 0, &w, err, errlen)) ||
        (rc = mcei_machine_u64(m, "iwarp.height", 1, 0, &h, err, errlen)) ||
        (rc = mcei_machine_u64(m, "iwarp.pcts", 1, 0, &pcts, err, errlen)) ||
        (rc = mcei_machine_u64(m, "iwarp.pct_words", 1, 0, &words, err,
                               errlen)) ||
        (rc =
             mcei_machine_u64(m, "iwarp.read_gates", 1, 0, &rg, err, errlen)) ||
        (rc = mcei_machine_u64(m, "iwarp.write_gates", 1, 0, &wg, err,
                               errlen)) ||
        (rc =
             mcei_machine_u64(m, "iwarp.word_bytes", 1, 0, &wb, err, errlen)) ||
        (rc = mcei_machine_u64(m, "iwarp.timer_tick", 1, 0, &costs.timer_tick,
                               err, errlen)))
        return rc;
    if (strcmp(eng->net.ops->name, "iwarp") != 0) {
        snprintf(err, errlen,
                 "machine '%s': the iwarp protocol needs network = iwarp, not "
                 "'%s'",
                 m->name, eng->net.ops->name);
        return MCE_ERR_MACHINE;
    }
    if (costs.clock == 0 || costs.gate_op == 0 || costs.word_time == 0 ||
        pcts == 0 || pcts > 255 || words == 0 || words > 1024 || rg != 2 ||
        wg != 2 || wb != 4 || costs.timer_tick == 0 || w * h == 0 ||
        w * h != (uint64_t)eng->nodes) {
        snprintf(err, errlen,
                 "machine '%s': need positive iwarp.clock, gate_op, word_time "
                 "and timer_tick, 1 <= iwarp.pcts <= 255, 1 <= pct_words <= "
                 "1024, 2 read and 2 write gates, 4-byte words and width x "
                 "height = the node count",
                 m->name);
        return MCE_ERR_MACHINE;
    }
    costs.width = (int)w;
    costs.height = (int)h;
    costs.pcts = (int)pcts;
    costs.pct_words = (int)words;
    if ((rc = mcei_iw_cam_init(m, costs.width, costs.clock, err, errlen)) ||
        (rc = mcei_iw_dep_module_init(m, costs.clock, err, errlen)) ||
        (rc = mcei_iw_spool_module_init(m, costs.clock, err, errlen)))
        return rc;
    iw_on = 1;
    return MCE_OK;
}

static void iw_fini(mcei_engine_t *eng)
{
    (void)eng;
    mcei_iw_cam_fini();
    mcei_iw_dep_module_fini();
    mcei_iw_spool_module_fini();
    iw_on = 0;
}

static int iw_node_init(mcei_vn_t *vn)
{
    iw_node_t *nd = calloc(1, sizeof(*nd));
    if (nd == NULL ||
        (nd->pct = calloc((size_t)costs.pcts, sizeof(*nd->pct))) == NULL) {
        free(nd);
        return MCE_ERR_NOMEM;
    }
    for (int i = 0; i < costs.pcts; i++)
        if ((nd->pct[i].ring =
                 calloc((size_t)costs.pct_words, sizeof(mce_time_t))) == NULL) {
            for (int j = 0; j < i; j++)
                free(nd->pct[j].ring);
            free(nd->pct);
            free(nd);
            return MCE_ERR_NOMEM;
        }
    for (int g = 0; g < MCEI_IW_GATES; g++)
        nd->gate[g] = -1;
    nd->pend_gate = -1;
    vn->proto = nd;
    if (mcei_iw_cam_node_init(vn) != MCE_OK)
        return MCE_ERR_NOMEM;
    return mcei_iw_dep_node_init(vn);
}

static void iw_node_fini(mcei_vn_t *vn)
{
    iw_node_t *nd = node_of(vn);
    mcei_iw_cam_node_fini(vn);
    mcei_iw_dep_node_fini(vn);
    if (nd == NULL)
        return;
    for (int i = 0; i < costs.pcts; i++) {
        mcei_msg_t *m;
        while ((m = nd->pct[i].rx.head) != NULL) {
            mcei_msgq_remove(&nd->pct[i].rx, m);
            mcei_msg_release(m);
        }
        free(nd->pct[i].ring);
    }
    free(nd->pct);
    free(nd->pend_w);
    free(nd);
    vn->proto = NULL;
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
};
