/* Binary min-heap of pointers ordered by a caller-supplied "less", the
 * keyed heaps and queues built like it, and a set of address ranges. */
#ifndef MCEI_HEAP_H
#define MCEI_HEAP_H

#include "mcei.h"

typedef int (*mcei_heap_less_fn)(const void *a, const void *b);

typedef struct mcei_heap {
    void **items;
    size_t count, cap;
    mcei_heap_less_fn less;
} mcei_heap_t;

void mcei_heap_init(mcei_heap_t *h, mcei_heap_less_fn less);
void mcei_heap_fini(mcei_heap_t *h);
int mcei_heap_push(mcei_heap_t *h, void *item);
/* Smallest item, or NULL when empty. */
static inline void *mcei_heap_top(const mcei_heap_t *h)
{
    return h->count ? h->items[0] : NULL;
}
void *mcei_heap_pop(mcei_heap_t *h);

/* Min-heap whose keys live in the entries: (k0, k1, k2) compared
 * lexicographically without calls or loads through the item, for the
 * engine's hot queues (run queue, ideal network). */
typedef struct mcei_kentry {
    uint64_t k0, k1, k2;
    void *item;
} mcei_kentry_t;

typedef struct mcei_kheap {
    mcei_kentry_t *e;
    size_t count, cap;
} mcei_kheap_t;

static inline int mcei_kentry_less(const mcei_kentry_t *a,
                                   const mcei_kentry_t *b)
{
    if (a->k0 != b->k0)
        return a->k0 < b->k0;
    if (a->k1 != b->k1)
        return a->k1 < b->k1;
    return a->k2 < b->k2;
}

void mcei_kheap_init(mcei_kheap_t *h);
void mcei_kheap_fini(mcei_kheap_t *h);
int mcei_kheap_push(mcei_kheap_t *h, uint64_t k0, uint64_t k1, uint64_t k2,
                    void *item);
/* Smallest entry, or NULL when empty. */
static inline const mcei_kentry_t *mcei_kheap_top(const mcei_kheap_t *h)
{
    return h->count ? &h->e[0] : NULL;
}
/* Remove the smallest entry (the heap must not be empty). */
void mcei_kheap_pop(mcei_kheap_t *h);

/* The run queue's heap: 16-byte entries (time, node, local index), half
 * the memory of mcei_kheap's, which matters with thousands of nodes. */
typedef struct mcei_rentry {
    uint64_t t;
    uint32_t id, local;
} mcei_rentry_t;

typedef struct mcei_rheap {
    mcei_rentry_t *e;
    size_t count, cap;
} mcei_rheap_t;

static inline int mcei_rentry_less(const mcei_rentry_t *a,
                                   const mcei_rentry_t *b)
{
    return a->t != b->t ? a->t < b->t : a->id < b->id;
}

void mcei_rheap_init(mcei_rheap_t *h);
void mcei_rheap_fini(mcei_rheap_t *h);
int mcei_rheap_push(mcei_rheap_t *h, uint64_t t, uint32_t id, uint32_t local);
static inline const mcei_rentry_t *mcei_rheap_top(const mcei_rheap_t *h)
{
    return h->count ? &h->e[0] : NULL;
}
/* Remove the smallest entry (the heap must not be empty). */
void mcei_rheap_pop(mcei_rheap_t *h);

/* The run queue: an mcei_rheap plus a sorted run.  Pushes are staged; a
 * staged batch that finds the run used up and sorts with few moves (the
 * usual case: a window's wake-ups come nearly in order) becomes the new
 * run, consumed in order at no heap cost; otherwise it goes into the
 * heap.  Pops take the smaller of the run's head and the heap's top, so
 * the order is always exactly (t, id). */
typedef struct mcei_runq {
    mcei_rheap_t heap;
    mcei_rentry_t *run, *batch;
    size_t run_head, run_n, run_cap, nbatch, batch_cap;
} mcei_runq_t;

void mcei_runq_init(mcei_runq_t *q);
void mcei_runq_fini(mcei_runq_t *q);
int mcei_runq_push(mcei_runq_t *q, uint64_t t, uint32_t id, uint32_t local);
/* Smallest entry (NULL when empty); valid until the next push or pop. */
const mcei_rentry_t *mcei_runq_top(mcei_runq_t *q);
/* Remove the entry mcei_runq_top returned. */
void mcei_runq_pop(mcei_runq_t *q);

/* The same staging over an mcei_kheap (the ideal network's messages). */
typedef struct mcei_kq {
    mcei_kheap_t heap;
    mcei_kentry_t *run, *batch;
    size_t run_head, run_n, run_cap, nbatch, batch_cap;
} mcei_kq_t;

void mcei_kq_init(mcei_kq_t *q);
void mcei_kq_fini(mcei_kq_t *q);
int mcei_kq_push(mcei_kq_t *q, uint64_t k0, uint64_t k1, uint64_t k2,
                 void *item);
const mcei_kentry_t *mcei_kq_top(mcei_kq_t *q);
void mcei_kq_pop(mcei_kq_t *q);
/* Entries queued (run, heap and staged). */
static inline size_t mcei_kq_count(const mcei_kq_t *q)
{
    return q->heap.count + (q->run_n - q->run_head) + q->nbatch;
}

/* A set of address ranges [start, end): kept sorted and apart (ranges
 * that overlap or touch are one), found by bisection.  Zeroed: empty. */
typedef struct mcei_ranges {
    uintptr_t *r; /* n [start, end) pairs of cap */
    int n, cap;
} mcei_ranges_t;

/* 1 if [a, e) (a < e) lies within one range of @p s; otherwise adds it,
 * merged with the ranges it overlaps or touches, and returns 0.  When @p s
 * holds @p max (at least 2) ranges already, the two with the smallest gap
 * between them merge first, so the gap then counts as in the set.  Out of
 * memory: returns 0 and adds nothing. */
int mcei_ranges_seen(mcei_ranges_t *s, uintptr_t a, uintptr_t e, int max);
void mcei_ranges_fini(mcei_ranges_t *s);

#endif
