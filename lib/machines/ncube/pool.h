/* The Vertex communication buffer pool (Mudge et al. 1987, section 2):
 * one region, initially a single free buffer; first fit over the
 * address-ordered list; a free buffer that exceeds the request by at
 * least split_min bytes is split and the request is carved from the end
 * furthest from the front; freed buffers coalesce with free neighbours;
 * requests that cannot be met wait in FIFO order. */
#ifndef MCEI_VX_POOL_H
#define MCEI_VX_POOL_H

#include <stddef.h>
#include <stdint.h>

typedef struct mcei_ncube_block {
    uint32_t off, size;
    int32_t prev, next; /* address order, -1 at the ends */
    int free;
} mcei_ncube_block_t;

typedef struct mcei_ncube_request {
    uint32_t size;
    void *cookie;
} mcei_ncube_request_t;

typedef struct mcei_ncube_pool {
    uint32_t total, split_min, header;
    mcei_ncube_block_t *blocks; /* slots; unused ones chained by next */
    int32_t nslots, head, spare;
    mcei_ncube_request_t *waitq;
    size_t nwait, capwait, waithead;
    uint64_t allocs, frees, failures, waits;
} mcei_ncube_pool_t;

/* @p header bytes of bookkeeping precede every buffer (the link fields). */
int mcei_ncube_pool_init(mcei_ncube_pool_t *p, uint32_t total,
                         uint32_t split_min, uint32_t header);
void mcei_ncube_pool_fini(mcei_ncube_pool_t *p);
/* First fit for @p bytes of data; *off (the buffer's handle) set only on
 * success.  MCE_ERR_RESOURCE when no free buffer is large enough. */
int mcei_ncube_pool_alloc(mcei_ncube_pool_t *p, uint32_t bytes, uint32_t *off);
/* Release a buffer; MCE_ERR_INVAL for a handle that is not allocated. */
int mcei_ncube_pool_free(mcei_ncube_pool_t *p, uint32_t off);
/* Could @p bytes ever fit (in an empty pool)? */
int mcei_ncube_pool_fits(const mcei_ncube_pool_t *p, uint32_t bytes);
/* Queue a request that could not be met now. */
int mcei_ncube_pool_wait(mcei_ncube_pool_t *p, uint32_t bytes, void *cookie);
/* After a free: satisfy the oldest waiting request if it fits now
 * (requests are served in order, none overtakes the head).  Returns 1 and
 * sets *cookie and *off when one was granted, 0 otherwise. */
int mcei_ncube_pool_grant(mcei_ncube_pool_t *p, void **cookie, uint32_t *off);
size_t mcei_ncube_pool_waiting(const mcei_ncube_pool_t *p);
/* Free bytes, largest free buffer (data bytes it could hold), free blocks. */
void mcei_ncube_pool_stats(const mcei_ncube_pool_t *p, uint32_t *free_bytes,
                           uint32_t *largest, uint32_t *free_blocks);

#endif
