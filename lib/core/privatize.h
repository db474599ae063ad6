/* Per-node copies of the user program's writable globals. */
#ifndef MCEI_PRIVATIZE_H
#define MCEI_PRIVATIZE_H

#include "mcei.h"

typedef struct mcei_priv_info {
    uintptr_t start; /* writable data of the main executable */
    size_t len;
    int method; /* MCEI_PRIV_COPY or MCEI_PRIV_MMAP */
} mcei_priv_info_t;

#define MCEI_PRIV_COPY  1 /* swap contents with memcpy: small segments */
#define MCEI_PRIV_MMAP  2 /* remap a memfd slice: large segments */
#define MCEI_PRIV_IMAGE 3 /* one loaded copy of the image per slot */

/* Copies of an image loaded per process unless --mce-privatize-copies
 * says otherwise: each takes about five memory mappings (the kernel
 * allows 65,530, and node stacks need theirs). */
#define MCEI_PRIV_COPIES_DEFAULT 4096

/*
 * Snapshot the executable's writable data (.data, .bss, lazily bound GOT)
 * and make @p slots private copies of it.  Slot 0 is live afterwards.
 * With an image (mcei_priv_image_open), load one copy of it per slot
 * instead (MCEI_PRIV_IMAGE) when @p max_copies and memory allow, else
 * privatise copy 0's writable data as the executable's.
 */
int mcei_priv_init(size_t slots, size_t max_copies, char *err, size_t errlen);

/* Does the executable carry its node program as an image (mcecc
 * -mce-privatize=dlopen)?  Its size in bytes (0 without). */
int mcei_priv_has_image(void);
size_t mcei_priv_image_size(void);
/* Load copy 0 of the image (nothing without one): before the program's
 * symbols are looked up. */
int mcei_priv_image_open(char *err, size_t errlen);
/* A symbol of the image's copy 0; NULL without an image or symbol. */
void *mcei_priv_image_sym(const char *name);
/* The address in the live slot's copy of @p addr in copy 0 (an entry or a
 * function the program declared at boot); @p addr itself unless each slot
 * has its copy. */
uintptr_t mcei_priv_node_addr(uintptr_t addr);
/* The number of slots with a copy of the image each (MCEI_PRIV_IMAGE),
 * else 0. */
size_t mcei_priv_image_copies(void);
/* Make slot @p s live (no-op if it already is). */
void mcei_priv_switch(size_t s);
void mcei_priv_fini(void);
/* Segment found by mcei_priv_init (or by a dry probe when not initialised). */
int mcei_priv_probe(mcei_priv_info_t *info);

#endif
