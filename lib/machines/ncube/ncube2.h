/* The NCUBE 2 machine protocol (nCX's Vertex calls): messages go by DMA
 * straight from the sender's memory through the hardware router
 * (wormhole, e-cube) into a system buffer of the destination; nread
 * copies them out.  No buffer handshake and no store-and-forward by the
 * nodes' software: those are NCUBE/ten's (ncube.c). */
#ifndef MCEI_NCUBE2_H
#define MCEI_NCUBE2_H

#include "../../core/engine.h"

typedef struct mcei_ncube2_costs {
    mce_time_t latency, per_byte; /* wire (same keys as the network) */
    mce_time_t hop, send_overhead, recv_interrupt, recv_overhead;
    mce_time_t copy_per_byte, ntest_cost, trap_cost, combine;
    mce_time_t cycle; /* the node's clock period */
} mcei_ncube2_costs_t;

/* The per-node state the personality keeps on this machine. */
typedef struct mcei_ncube2_api {
    int global_io;    /* nglobal() (1) or nlocal() (0) */
    uint64_t gop_seq; /* global operations begun: the type of their traffic */
    int last_error;   /* nperror: the last failed call's code (0: none) */
    char last_msg[320];
} mcei_ncube2_api_t;

/* Is the machine of this run an NCUBE 2?  Sets *costs when it is. */
int mcei_ncube2_active(const mcei_ncube2_costs_t **costs);
int mcei_ncube2_dim(void);
mcei_ncube2_api_t *mcei_ncube2_api(mcei_vn_t *vn);

/* Send @p n bytes to @p dest (0xffff: every other node, relayed along the
 * binomial spanning tree) in context @p ctx (MCEI_CTX_USER for nwrite,
 * MCEI_CTX_SYSTEM for the global operations); returns once the DMA has
 * read the buffer. */
int mcei_ncube2_write(mcei_vn_t *vn, const void *buf, uint32_t n, int dest,
                      int64_t type, uint32_t ctx);
/* Wait for a matching message of @p ctx (-1 wildcards written back);
 * copies min(cap, length) bytes. */
int mcei_ncube2_read(mcei_vn_t *vn, void *buf, uint32_t cap, int *src,
                     int64_t *type, uint32_t ctx, uint32_t *len);
/* Length of a matching queued user message or -1. */
int mcei_ncube2_test(mcei_vn_t *vn, int *src, int *type);

#endif
