/* Per-node copies of the user program's writable globals. */
#ifndef MCEI_PRIVATIZE_H
#define MCEI_PRIVATIZE_H

#include "mcei.h"

typedef struct mcei_priv_info {
    uintptr_t start; /* writable data of the main executable */
    size_t len;
    int method; /* MCEI_PRIV_COPY or MCEI_PRIV_MMAP */
} mcei_priv_info_t;

#define MCEI_PRIV_COPY 1 /* swap contents with memcpy: small segments */
#define MCEI_PRIV_MMAP 2 /* remap a memfd slice: large segments */

/*
 * Snapshot the executable's writable data (.data, .bss, lazily bound GOT)
 * and make @p slots private copies of it.  Slot 0 is live afterwards.
 */
int mcei_priv_init(size_t slots, char *err, size_t errlen);
/* Make slot @p s live (no-op if it already is). */
void mcei_priv_switch(size_t s);
void mcei_priv_fini(void);
/* Segment found by mcei_priv_init (or by a dry probe when not initialised). */
int mcei_priv_probe(mcei_priv_info_t *info);

#endif
