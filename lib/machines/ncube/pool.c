/* The Vertex communication buffer pool. */
#include "pool.h"

#include <stdlib.h>
#include <string.h>

#include "../../core/mcei.h"

static int32_t slot_new(mcei_ncube_pool_t *p)
{
    if (p->spare < 0) {
        int32_t n = p->nslots ? 2 * p->nslots : 16;
        mcei_ncube_block_t *b = realloc(p->blocks, (size_t)n * sizeof(*b));
        if (b == NULL)
            return -1;
        p->blocks = b;
        for (int32_t i = n - 1; i >= p->nslots; i--) {
            b[i].next = p->spare;
            p->spare = i;
        }
        p->nslots = n;
    }
    int32_t s = p->spare;
    p->spare = p->blocks[s].next;
    return s;
}

static void slot_release(mcei_ncube_pool_t *p, int32_t s)
{
    p->blocks[s].next = p->spare;
    p->spare = s;
}

int mcei_ncube_pool_init(mcei_ncube_pool_t *p, uint32_t total,
                         uint32_t split_min, uint32_t header)
{
    memset(p, 0, sizeof(*p));
    p->spare = -1;
    /* A header gives every buffer a distinct handle; a split needs at
     * least one byte left over. */
    if (total == 0 || header == 0 || header >= total || split_min == 0)
        return MCE_ERR_INVAL;
    p->total = total;
    p->split_min = split_min;
    p->header = header;
    if ((p->head = slot_new(p)) < 0)
        return MCE_ERR_NOMEM;
    p->blocks[p->head] = (mcei_ncube_block_t){
        .off = 0, .size = total, .prev = -1, .next = -1, .free = 1};
    return MCE_OK;
}

void mcei_ncube_pool_fini(mcei_ncube_pool_t *p)
{
    free(p->blocks);
    free(p->waitq);
    memset(p, 0, sizeof(*p));
}

static int need(const mcei_ncube_pool_t *p, uint32_t bytes, uint32_t *out)
{
    uint64_t n = (uint64_t)bytes + p->header;
    if (n > p->total)
        return 0;
    *out = (uint32_t)n;
    return 1;
}

int mcei_ncube_pool_fits(const mcei_ncube_pool_t *p, uint32_t bytes)
{
    uint32_t n;
    return need(p, bytes, &n);
}

int mcei_ncube_pool_alloc(mcei_ncube_pool_t *p, uint32_t bytes, uint32_t *off)
{
    uint32_t n;
    if (!need(p, bytes, &n)) {
        p->failures++;
        return MCE_ERR_RESOURCE;
    }
    for (int32_t i = p->head; i >= 0; i = p->blocks[i].next) {
        mcei_ncube_block_t *b = &p->blocks[i];
        if (!b->free || b->size < n)
            continue;
        if (b->size - n >= p->split_min) {
            /* Carve the request from the far end of the free buffer. */
            int32_t s = slot_new(p);
            if (s < 0)
                return MCE_ERR_NOMEM;
            b = &p->blocks[i]; /* slot_new may have moved the array */
            mcei_ncube_block_t *nb = &p->blocks[s];
            nb->off = b->off + b->size - n;
            nb->size = n;
            nb->free = 0;
            nb->prev = i;
            nb->next = b->next;
            if (b->next >= 0)
                p->blocks[b->next].prev = s;
            b->next = s;
            b->size -= n;
            *off = nb->off;
        } else {
            b->free = 0;
            *off = b->off;
        }
        p->allocs++;
        return MCE_OK;
    }
    p->failures++;
    return MCE_ERR_RESOURCE;
}

int mcei_ncube_pool_free(mcei_ncube_pool_t *p, uint32_t off)
{
    int32_t i;
    for (i = p->head; i >= 0; i = p->blocks[i].next)
        if (p->blocks[i].off == off)
            break;
    if (i < 0 || p->blocks[i].free)
        return MCE_ERR_INVAL;
    p->blocks[i].free = 1;
    p->frees++;
    /* Coalesce with the next, then with the previous free neighbour. */
    int32_t nx = p->blocks[i].next;
    if (nx >= 0 && p->blocks[nx].free) {
        p->blocks[i].size += p->blocks[nx].size;
        p->blocks[i].next = p->blocks[nx].next;
        if (p->blocks[nx].next >= 0)
            p->blocks[p->blocks[nx].next].prev = i;
        slot_release(p, nx);
    }
    int32_t pv = p->blocks[i].prev;
    if (pv >= 0 && p->blocks[pv].free) {
        p->blocks[pv].size += p->blocks[i].size;
        p->blocks[pv].next = p->blocks[i].next;
        if (p->blocks[i].next >= 0)
            p->blocks[p->blocks[i].next].prev = pv;
        slot_release(p, i);
    }
    return MCE_OK;
}

int mcei_ncube_pool_wait(mcei_ncube_pool_t *p, uint32_t bytes, void *cookie)
{
    if (p->nwait == p->capwait) {
        size_t nc = p->capwait ? 2 * p->capwait : 8;
        mcei_ncube_request_t *q = malloc(nc * sizeof(*q));
        if (q == NULL)
            return MCE_ERR_NOMEM;
        for (size_t i = 0; i < p->nwait; i++)
            q[i] = p->waitq[(p->waithead + i) % p->capwait];
        free(p->waitq);
        p->waitq = q;
        p->capwait = nc;
        p->waithead = 0;
    }
    p->waitq[(p->waithead + p->nwait) % p->capwait] =
        (mcei_ncube_request_t){.size = bytes, .cookie = cookie};
    p->nwait++;
    p->waits++;
    return MCE_OK;
}

int mcei_ncube_pool_grant(mcei_ncube_pool_t *p, void **cookie, uint32_t *off)
{
    mcei_ncube_request_t *r;
    if (p->nwait == 0)
        return 0;
    r = &p->waitq[p->waithead];
    int rc = mcei_ncube_pool_alloc(p, r->size, off);
    if (rc != MCE_OK) {
        if (rc == MCE_ERR_RESOURCE)
            p->failures--; /* a retry is not a new failure */
        return 0;
    }
    *cookie = r->cookie;
    p->waithead = (p->waithead + 1) % p->capwait;
    p->nwait--;
    return 1;
}

size_t mcei_ncube_pool_waiting(const mcei_ncube_pool_t *p)
{
    return p->nwait;
}

void mcei_ncube_pool_stats(const mcei_ncube_pool_t *p, uint32_t *free_bytes,
                           uint32_t *largest, uint32_t *free_blocks)
{
    uint32_t fb = 0, lg = 0, nb = 0;
    for (int32_t i = p->head; i >= 0; i = p->blocks[i].next) {
        if (!p->blocks[i].free)
            continue;
        fb += p->blocks[i].size;
        nb++;
        if (p->blocks[i].size > lg)
            lg = p->blocks[i].size;
    }
    *free_bytes = fb;
    *largest = lg > p->header ? lg - p->header : 0;
    *free_blocks = nb;
}
