/* What tcs_patterns (deposit message passing) and tcs_patterns_tcs (TCS
 * connections) share: the data the patterns move and check, and the
 * Z-order numbering of the remapped reduction/broadcast. */
#ifndef TCS_PATTERNS_H
#define TCS_PATTERNS_H

#include <stddef.h>
#include <stdint.h>

/* splitmix64's finaliser: the patterns' seeded choices. */
uint64_t pat_mix(uint64_t z);

/* Word @p w of the block member @p a sends to member @p b (a2a, sg) or of
 * a's vector (rb: b = -1), in run @p r. */
uint32_t pat_word(int a, int b, size_t w, int r);

/* The row-major rank in the w x h rectangle (powers of two) of Z-order id
 * @p id: x and y bits alternate, x first. */
int pat_z_rank(int id, int w, int h);

/* Stage @p k of the reduction in Z order for id @p mi: 1 receive from,
 * -1 send to *@p partner, 0 idle (the broadcast reverses it). */
int pat_rb_role_z(int mi, int k, int *partner);

#endif
