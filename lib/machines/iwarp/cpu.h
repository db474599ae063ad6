/* The iWarp cell's CPU cycles, which its active spools steal (Warfel
 * 1996, section 3.1.3): every module of lib/machines/iwarp and the
 * personalities charge the cell's CPU work here.  A file of its own below
 * the modules, so that the cell's gates and the spools that stretch their
 * work need not refer to each other. */
#ifndef MCEI_IWARP_CPU_H
#define MCEI_IWARP_CPU_H

#include "../../core/engine.h"

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
