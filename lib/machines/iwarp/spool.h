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
/* The cell's cycles (Warfel 1996, 3.1.3: each active spool "steals up to
 * one-third" of them).  Every client of the CPU's cycles -- computation,
 * gate reads and writes, the software of foreground sends and receives,
 * PCT and gate set-up, counter reads, polls -- goes through these.
 *
 * mcei_iw_cpu_end: CPU work of @p t started at @p from ends at the
 * returned time, stretched by the cell's active spools (while k are
 * active, each steals 1/iwarp.spool_steal of the cycles until its
 * expected end; k capped at spool_steal - 1). */
mce_time_t mcei_iw_cpu_end(mcei_vn_t *vn, mce_time_t from, mce_time_t t);
/* The same from the clock: returns the stretched time (the clock does not
 * move). */
mce_time_t mcei_iw_spool_stretch(mcei_vn_t *vn, mce_time_t t);
/* Foreground CPU work of @p t from the clock: the clock advances by the
 * stretched time; t counts as communication, the stretch as stolen. */
void mcei_iw_cpu(mcei_vn_t *vn, mce_time_t t);

#endif
