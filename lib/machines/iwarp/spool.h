/* iWarp spools (doc/design/iwarp-tcs.md, section 3.6): block transfers
 * between memory and a PCT beside the CPU, stealing CPU cycles.
 * Functions return MCE_OK or an MCE_ERR_* code with a reason in @p why. */
#ifndef MCEI_IWARP_SPOOL_H
#define MCEI_IWARP_SPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/engine.h"

/* The spools' constants (in the machine's state, state.h). */
typedef struct mcei_iw_spool_k {
    mce_time_t clock, setup, word, word_time;
    uint64_t spools, steal;
} mcei_iw_spool_k_t;

/* A cell's spools (spool.c; cpu.c reads them to stretch the CPU's work). */
#define MCEI_IW_SPOOL_MAX 16
typedef struct mcei_iw_spool {
    int busy, out, pct;
    uint32_t *buf;
    size_t n;
    mce_time_t start, end; /* end: expected completion */
    uint64_t mark;         /* out: the connection's number of its last word */
} mcei_iw_spool_t;
typedef struct mcei_iw_spool_node {
    mcei_iw_spool_t s[MCEI_IW_SPOOL_MAX];
} mcei_iw_spool_node_t;

int mcei_iw_spool_module_init(mcei_iw_spool_k_t *k, mcei_machine_t *m,
                              mce_time_t clock, char *err, size_t errlen);
int mcei_iw_spool_node_init(mcei_vn_t *vn);
void mcei_iw_spool_node_fini(mcei_vn_t *vn);
/* >= 0 in *h: the spool's handle. */
int mcei_iw_spool_start(mcei_vn_t *vn, int out, int pct, void *buf,
                        size_t nwords, int *h, char *why, size_t len);
/* @p test: 1 done (the spool is free again), 0 not yet; otherwise wait. */
int mcei_iw_spool_finish(mcei_vn_t *vn, int h, int test, int *done, char *why,
                         size_t len);

#endif
