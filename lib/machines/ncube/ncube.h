/* The NCUBE machine protocol: standard Vertex (buffer pool, three-way
 * handshake, store-and-forward routing, spanning-tree broadcast) and
 * extended Vertex (bufferless send/rcvreq, per-channel mode, neighbour
 * broadcast), with the interrupts each step causes on the nodes. */
#ifndef MCEI_NCUBE_H
#define MCEI_NCUBE_H

#include "../../core/engine.h"

#define MCEI_NCUBE_MAXDIM 16

typedef struct mcei_ncube_costs {
    mce_time_t latency, per_byte; /* wire (same keys as the network) */
    mce_time_t nwrite_trap, nread_trap, copy_per_byte, ntest_cost, trap_cost;
    mce_time_t len_interrupt, ack_interrupt;
    mce_time_t dma_send_interrupt, dma_recv_interrupt;
    mce_time_t xsend_trap, rcvreq_trap, flag_poll, chanmode_cost;
    mce_time_t xdma_send_interrupt, xdma_recv_interrupt;
    uint64_t ctl_bytes, pool_bytes, split_min, buffer_header;
    mce_time_t tick; /* node clock unit: 1024 cycles */
} mcei_ncube_costs_t;

/* The protocol (registered by lib/machines/registry.c). */
extern const mcei_proto_ops_t mcei_proto_ncube_ops;

/* Is the machine of this run an NCUBE?  Sets *costs when it is. */
int mcei_ncube_active(const mcei_ncube_costs_t **costs);
int mcei_ncube_dim(void);

/* Standard Vertex on the calling node (vn is mcei_enter()'s). */
int mcei_ncube_nwrite(mcei_vn_t *vn, const void *buf, uint32_t n, int dest,
                      int type);
/* Waits for a matching message; copies min(cap, length) bytes. */
int mcei_ncube_nread(mcei_vn_t *vn, void *buf, uint32_t cap, int *src,
                     int *type, uint32_t *len);
/* Length of a matching queued message or -1 (wildcards written back). */
int mcei_ncube_ntest(mcei_vn_t *vn, int *src, int *type);

/* Extended Vertex. */
int mcei_ncube_xsend(mcei_vn_t *vn, const void *buf, uint32_t n, int dest,
                     int type, int *flag);
int mcei_ncube_rcvreq(mcei_vn_t *vn, void *buf, uint32_t n, int src, int type,
                      int *flag);
int mcei_ncube_bcast(mcei_vn_t *vn, const void *buf, uint32_t n, unsigned mask,
                     int type, int *flag);
int mcei_ncube_chanmode(mcei_vn_t *vn, int neighbour, int mode);
int mcei_ncube_flagwait(mcei_vn_t *vn, int *flag);

#endif
