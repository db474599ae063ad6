/* The iWarp cell's gates: writes (coalesced into blocks) and reads
 * (doc/design/iwarp-tcs.md, sections 3.1-3.4).
 *
 * Writes: consecutive single-word writes to one gate with no other call
 * in between are coalesced into one block (one injection) started at the
 * first write, which is exactly the schedule of the individual writes
 * (section 3.4).  The writer blocks while its source PCT is full: word k
 * enters the PCT once word k - pct_words has started into the first link;
 * the call that ends a block waits until its last word is in.
 *
 * Reads: a read of n words tells the model how many words the reader
 * takes (MCEI_IW_READ: path capacity), waits until the blocks holding
 * them are delivered (payload) and until the last one is readable; the
 * CPU reads word j at max(previous read, readable) + gate_op, which ends
 * at max(start + n gate_op, last readable + gate_op) since words are at
 * least word_time >= gate_op apart.  Block calls add block_send before
 * the first word and block_recv after the last. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell.h"

static void advance_to(mcei_vn_t *vn, mce_time_t t)
{
    if (t > vn->clock)
        mcei_charge_comm(vn, t - vn->clock);
}

/* ---- writes ----------------------------------------------------------- */

/* Inject @p n words written from @p ts on through source PCT @p pct. */
void mcei_iw_inject_pct(mcei_vn_t *vn, int pct, mce_time_t ts,
                        const uint32_t *w, size_t n)
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
typedef struct room_wait {
    int pct, endpoint;
} room_wait_t;

/* Formatted only for a deadlock report: a flush can wait once a block. */
static void room_what(const void *arg, char *buf, size_t len)
{
    const room_wait_t *r = arg;
    snprintf(buf, len, "room in PCT %d (connection to (%d,%d))", r->pct,
             r->endpoint % iwc()->width, r->endpoint / iwc()->width);
}

static mce_time_t wait_room(mcei_vn_t *vn, int pct)
{
    iw_pct_t *p = &node_of(vn)->pct[pct];
    room_wait_t r = {.pct = pct, .endpoint = p->endpoint};
    if (p->words <= (uint64_t)iwc()->pct_words)
        return 0;
    return mcei_iw_seg_wait(vn, pct, mcei_iw_own_key(vn, pct),
                            p->words - (uint64_t)iwc()->pct_words, 1,
                            "iwarp_gate_write", room_what, &r);
}

void mcei_iw_flush(mcei_vn_t *vn)
{
    iw_node_t *nd = node_of(vn);
    mce_time_t done, room;
    int pct;
    if (nd == NULL || nd->pend_gate < 0)
        return;
    pct = nd->gate[nd->pend_gate];
    mcei_iw_inject_pct(vn, pct, nd->pend_start, nd->pend_w, nd->pend_n);
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
        mcei_iw_inject_pct(vn, nd->gate[gate], ts, w, n);
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

/* What a read waits for, formatted only for a deadlock report. */
static void rd_what(const void *arg, char *buf, size_t len)
{
    const rd_wait_t *r = arg;
    snprintf(buf, len, "%zu word(s) at gate %s (PCT %d)", r->words,
             gate_name(r->gate), r->pct);
}

int mcei_iw_enough_words(mcei_vn_t *vn, void *arg)
{
    rd_wait_t *r = arg;
    (void)vn;
    return r->p->rx_words >= r->n;
}

/* The reader takes @p n more words of destination PCT @p pct (now or as
 * they arrive): the model frees their room in the path. */
static void take_words(mcei_vn_t *vn, int pct, size_t n)
{
    iw_pct_t *p = &node_of(vn)->pct[pct];
    uint64_t quiet = p->untold < n ? p->untold : n;
    uint64_t aux[2];
    /* words kept across a release were counted as taken by the model */
    p->untold -= quiet;
    n -= (size_t)quiet;
    if (n == 0)
        return;
    aux[0] = (uint64_t)pct;
    aux[1] = (uint64_t)n;
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
    mcei_wait_for(vn, mcei_iw_enough_words, &r, call, rd_what, &r);
    {
        int64_t key;
        mce_time_t delay;
        uint64_t k = mcei_iw_nth_word(p, n, &key, &delay);
        ready = mcei_iw_seg_wait(vn, pct, key, k, 0, call, rd_what, &r);
        /* the list (and its delay) is known once the time is */
        mcei_iw_nth_word(p, n, &key, &delay);
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

void mcei_iw_take(mcei_vn_t *vn, int pct, size_t n)
{
    take_words(vn, pct, n);
}
