/* The iWarp node protocol (doc/design/iwarp-tcs.md, sections 2.1 and
 * 3.1-3.4; step 1 of its plan): per-cell PCT and gate tables, direct PCT
 * configuration mirrored to the network model, gate reads and writes with
 * the coalescing of consecutive single-word writes into blocks, the cycle
 * counter.  Functions return MCE_OK or an MCE_ERR_* code with a reason in
 * @p why (the personality adds the cell and the call). */
#ifndef MCEI_IWARP_H
#define MCEI_IWARP_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/engine.h"

/* Ports of a PCT, as mcei_iw_pct_config takes them: the CPU (a gate) or
 * the link on one side of the cell.  The network model's numbering (the
 * personalities see only this header; cell.h checks that they agree),
 * and include/iwarp.h's IW_CPU .. IW_YM. */
enum {
    MCEI_IW_PORT_CPU = 0,
    MCEI_IW_PORT_XP,
    MCEI_IW_PORT_XM,
    MCEI_IW_PORT_YP,
    MCEI_IW_PORT_YM
};

/* Gates: two read gates, then two write gates (include/iwarp.h). */
enum { MCEI_IW_R0 = 0, MCEI_IW_R1, MCEI_IW_W0, MCEI_IW_W1, MCEI_IW_GATES };

typedef struct mcei_iw_costs {
    mce_time_t clock; /* one clock, ps */
    mce_time_t gate_op, gate_in, word_time, block_send, block_recv;
    mce_time_t pct_config, gate_bind, timer_read;
    uint64_t timer_tick; /* counter resolution, clocks */
    int width, height, pcts, pct_words;
    uint64_t unit; /* fluid work units per word (lib/net/iwarp_fluid.h) */
} mcei_iw_costs_t;

/* The protocol (registered by lib/machines/registry.c). */
extern const mcei_proto_ops_t mcei_proto_iwarp_ops;

/* Is the machine of this run an iWarp?  Sets *costs when it is. */
int mcei_iw_active(const mcei_iw_costs_t **costs);

/* Inject the node's pending coalesced block, if any (every call but a
 * single-word write to the same gate does it first). */
void mcei_iw_flush(mcei_vn_t *vn);
/* Idle until virtual time t: protocol handlers meanwhile run in the idle
 * time; the node resumes at t or when the last of them ends. */
void mcei_iw_align(mcei_vn_t *vn, mce_time_t t);

/* While @p on, PCT configuration and gate binding are not charged: the
 * caller (the TCS switch, a barrier lookup) charges its own total. */
void mcei_iw_cfg_free(mcei_vn_t *vn, int on);
/* 1 and the configuration of PCT @p pct if it is configured, else 0. */
int mcei_iw_pct_state(mcei_vn_t *vn, int pct, int *in_port, int *in_pct,
                      int *out_port, int *out_pct, int *endpoint);
/* The PCT gate @p gate is bound to, or -1. */
int mcei_iw_gate_pct(mcei_vn_t *vn, int gate);
int mcei_iw_pct_alloc(mcei_vn_t *vn, int *pct, char *why, size_t len);
int mcei_iw_pct_config(mcei_vn_t *vn, int pct, int in_port, int in_pct,
                       int out_port, int out_pct, int endpoint, char *why,
                       size_t len);
/* Re-point configured source PCT @p pct (input: the CPU) at @p out_port
 * and the neighbour's PCT @p out_pct, ending at @p endpoint: waits until
 * the last word written into it has fully entered its link, then costs
 * pct_config (one entry write; the gate bound to it stays bound). */
int mcei_iw_pct_repoint(mcei_vn_t *vn, int pct, int out_port, int out_pct,
                        int endpoint, char *why, size_t len);
/* The TCS throttle the next configuration of source PCT @p pct carries to
 * the network model (1/throttle of a link at most; 0 none), and the one
 * it has. */
void mcei_iw_pct_set_throttle(mcei_vn_t *vn, int pct, int throttle);
int mcei_iw_pct_throttle(mcei_vn_t *vn, int pct);
int mcei_iw_pct_release(mcei_vn_t *vn, int pct, char *why, size_t len);
/* As mcei_iw_pct_release, except that unread words which all came from
 * cell @p from stay in the PCT for its next configuration: the caller
 * configures it for the connection from @p from again (a TCS barrier slot
 * PCT pointed at nothing between two uses of its barrier, while the
 * upstream member's word for the next use was already on its way). */
int mcei_iw_pct_release_keep(mcei_vn_t *vn, int pct, int from, char *why,
                             size_t len);
/* The words destination PCT @p pct holds that its reader has not taken,
 * by the node's clock. */
uint64_t mcei_iw_pct_unread(mcei_vn_t *vn, int pct);
int mcei_iw_gate_bind(mcei_vn_t *vn, int gate, int pct, char *why, size_t len);
int mcei_iw_gate_unbind(mcei_vn_t *vn, int gate, char *why, size_t len);
/* @p block: a block call (block_send / block_recv); otherwise n is 1. */
int mcei_iw_gate_write(mcei_vn_t *vn, int gate, const uint32_t *w, size_t n,
                       int block, char *why, size_t len);
int mcei_iw_gate_read(mcei_vn_t *vn, int gate, uint32_t *w, size_t n, int block,
                      char *why, size_t len);

/* Spools (spool.c; their PCT side, spool_pct.c): @p n words from @p w through
 * the source PCT @p pct, a word per @p word; *done: when the last would be in
 * the PCT at full link rate; *mark: for mcei_iw_spool_put_end. */
int mcei_iw_spool_put(mcei_vn_t *vn, int pct, const uint32_t *w, size_t n,
                      mce_time_t word, mce_time_t *done, uint64_t *mark,
                      char *why, size_t len);
/* When the spool out's last word (@p mark) is in its source PCT, in
 * *end (0: at once): 1, or with @p test 0 if not known by the clock;
 * otherwise waits until it is. */
int mcei_iw_spool_put_end(mcei_vn_t *vn, int pct, uint64_t mark, int test,
                          mce_time_t *end);
/* The reader takes @p n more words of destination PCT @p pct (a spool
 * in posts them): frees their room in the connection's path. */
void mcei_iw_take(mcei_vn_t *vn, int pct, size_t n);
/* Take @p n words of the destination PCT @p pct into @p w, a word per
 * @p word from @p start: 1 and *done (the last is in memory); with
 * @p test 0 (and nothing taken) unless done by the node's clock;
 * otherwise waits for the words.  < 0: an error. */
int mcei_iw_spool_take(mcei_vn_t *vn, int pct, mce_time_t start,
                       mce_time_t word, uint32_t *w, size_t n, int test,
                       mce_time_t *done, char *why, size_t len);

#endif
