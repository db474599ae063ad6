/* Binary min-heaps, the run queue and a set of address ranges. */
#include "heap.h"

#include <stdlib.h>
#include <string.h>

void mcei_heap_init(mcei_heap_t *h, mcei_heap_less_fn less)
{
    h->items = NULL;
    h->count = h->cap = 0;
    h->less = less;
}

void mcei_heap_fini(mcei_heap_t *h)
{
    free(h->items);
    h->items = NULL;
    h->count = h->cap = 0;
}

int mcei_heap_push(mcei_heap_t *h, void *item)
{
    size_t i;
    MCEI_ASSERT(item != NULL); /* NULL is pop's "empty" */
    if (h->count == h->cap) {
        size_t ncap = h->cap ? 2 * h->cap : 64;
        void **n = realloc(h->items, ncap * sizeof(*n));
        if (n == NULL)
            return MCE_ERR_NOMEM;
        h->items = n;
        h->cap = ncap;
    }
    i = h->count++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!h->less(item, h->items[p]))
            break;
        h->items[i] = h->items[p];
        i = p;
    }
    h->items[i] = item;
    return MCE_OK;
}

void *mcei_heap_pop(mcei_heap_t *h)
{
    void *top, *last;
    size_t i = 0, n;
    if (h->count == 0)
        return NULL;
    top = h->items[0];
    last = h->items[--h->count];
    n = h->count;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = l;
        if (l >= n)
            break;
        if (r < n && h->less(h->items[r], h->items[l]))
            m = r;
        if (!h->less(h->items[m], last))
            break;
        h->items[i] = h->items[m];
        i = m;
    }
    if (n)
        h->items[i] = last;
    /* heap order: nothing left may come before what is returned */
    MCEI_ASSERT(n == 0 || !h->less(h->items[0], top));
    return top;
}

void mcei_kheap_init(mcei_kheap_t *h)
{
    h->e = NULL;
    h->count = h->cap = 0;
}

void mcei_kheap_fini(mcei_kheap_t *h)
{
    free(h->e);
    mcei_kheap_init(h);
}

int mcei_kheap_push(mcei_kheap_t *h, uint64_t k0, uint64_t k1, uint64_t k2,
                    void *item)
{
    mcei_kentry_t x = {k0, k1, k2, item};
    size_t i;
    if (h->count == h->cap) {
        size_t ncap = h->cap ? 2 * h->cap : 64;
        mcei_kentry_t *n = realloc(h->e, ncap * sizeof(*n));
        if (n == NULL)
            return MCE_ERR_NOMEM;
        h->e = n;
        h->cap = ncap;
    }
    i = h->count++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!mcei_kentry_less(&x, &h->e[p]))
            break;
        h->e[i] = h->e[p];
        i = p;
    }
    h->e[i] = x;
    return MCE_OK;
}

void mcei_kheap_pop(mcei_kheap_t *h)
{
    /* Bottom-up: the hole at the root goes down the smaller children to
     * a leaf (one comparison per level), then the last entry rises from
     * there (usually not far).  Half the comparisons of the textbook. */
    size_t i = 0, n = --h->count;
    mcei_kentry_t last = h->e[n];
    mcei_kentry_t *e = h->e;
    if (n == 0)
        return;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1;
        if (r < n) {
            size_t m = mcei_kentry_less(&e[r], &e[l]) ? r : l;
            e[i] = e[m];
            i = m;
        } else {
            if (l < n) {
                e[i] = e[l];
                i = l;
            }
            break;
        }
    }
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!mcei_kentry_less(&last, &e[p]))
            break;
        e[i] = e[p];
        i = p;
    }
    e[i] = last;
}

/* Children per entry: 4 (one cache line of them) measured no better than
 * 2 on the 64- to 1024-node rings. */
#define MCEI_RHEAP_D 2

void mcei_rheap_init(mcei_rheap_t *h)
{
    h->e = NULL;
    h->count = h->cap = 0;
}

void mcei_rheap_fini(mcei_rheap_t *h)
{
    free(h->e);
    mcei_rheap_init(h);
}

int mcei_rheap_push(mcei_rheap_t *h, uint64_t t, uint32_t id, uint32_t local)
{
    mcei_rentry_t x = {t, id, local};
    size_t i;
    if (h->count == h->cap) {
        size_t ncap = h->cap ? 2 * h->cap : 64;
        mcei_rentry_t *n = realloc(h->e, ncap * sizeof(*n));
        if (n == NULL)
            return MCE_ERR_NOMEM;
        h->e = n;
        h->cap = ncap;
    }
    i = h->count++;
    while (i > 0) {
        size_t p = (i - 1) / MCEI_RHEAP_D;
        if (!mcei_rentry_less(&x, &h->e[p]))
            break;
        h->e[i] = h->e[p];
        i = p;
    }
    h->e[i] = x;
    return MCE_OK;
}

void mcei_rheap_pop(mcei_rheap_t *h)
{
    /* Bottom-up, as mcei_kheap_pop. */
    size_t i = 0, n = --h->count;
    mcei_rentry_t last = h->e[n];
    mcei_rentry_t *e = h->e;
    if (n == 0)
        return;
    for (;;) {
        size_t c = MCEI_RHEAP_D * i + 1, m = c,
               end = c + MCEI_RHEAP_D < n ? c + MCEI_RHEAP_D : n;
        if (c >= n)
            break;
        for (size_t k = c + 1; k < end; k++)
            if (mcei_rentry_less(&e[k], &e[m]))
                m = k;
        e[i] = e[m];
        i = m;
    }
    while (i > 0) {
        size_t p = (i - 1) / MCEI_RHEAP_D;
        if (!mcei_rentry_less(&last, &e[p]))
            break;
        e[i] = e[p];
        i = p;
    }
    e[i] = last;
}

/* The staged queues (see heap.h): one implementation for both entry
 * types, expanded below, so that each keeps its inline comparisons.
 * PFX is the queue's prefix, Q its type, E its entry type, LESS the entry
 * order, HEAP the heap's prefix; PUSH_E(heap, entry) pushes an entry. */
#define MCEI_STAGED_QUEUE(PFX, Q, E, LESS, HEAP, PUSH_E)                       \
    void PFX##_init(Q *q)                                                      \
    {                                                                          \
        memset(q, 0, sizeof(*q));                                              \
        HEAP##_init(&q->heap);                                                 \
    }                                                                          \
                                                                               \
    void PFX##_fini(Q *q)                                                      \
    {                                                                          \
        HEAP##_fini(&q->heap);                                                 \
        free(q->run);                                                          \
        free(q->batch);                                                        \
        PFX##_init(q);                                                         \
    }                                                                          \
                                                                               \
    static int PFX##_stage(Q *q, const E *x)                                   \
    {                                                                          \
        if (q->nbatch == q->batch_cap) {                                       \
            size_t ncap = q->batch_cap ? 2 * q->batch_cap : 64;                \
            E *n = realloc(q->batch, ncap * sizeof(*n));                       \
            if (n == NULL)                                                     \
                return MCE_ERR_NOMEM;                                          \
            q->batch = n;                                                      \
            q->batch_cap = ncap;                                               \
        }                                                                      \
        q->batch[q->nbatch++] = *x;                                            \
        return MCE_OK;                                                         \
    }                                                                          \
                                                                               \
    /* Insertion sort of @p e, giving up (0) after @p budget moves. */         \
    static int PFX##_sort_few_moves(E *e, size_t n, size_t budget)             \
    {                                                                          \
        for (size_t i = 1; i < n; i++) {                                       \
            E x = e[i];                                                        \
            size_t j = i;                                                      \
            while (j > 0 && LESS(&x, &e[j - 1])) {                             \
                if (budget-- == 0) {                                           \
                    e[j] = x; /* fill the hole: a permutation again */         \
                    return 0;                                                  \
                }                                                              \
                e[j] = e[j - 1];                                               \
                j--;                                                           \
            }                                                                  \
            e[j] = x;                                                          \
        }                                                                      \
        return 1;                                                              \
    }                                                                          \
                                                                               \
    /* Place the staged batch: as the new run, or into the heap. */            \
    static int PFX##_settle(Q *q)                                              \
    {                                                                          \
        if (q->nbatch == 0)                                                    \
            return MCE_OK;                                                     \
        if (q->run_head == q->run_n &&                                         \
            PFX##_sort_few_moves(q->batch, q->nbatch, 8 * q->nbatch + 64)) {   \
            E *r = q->run;                                                     \
            size_t cap = q->run_cap;                                           \
            q->run = q->batch;                                                 \
            q->run_cap = q->batch_cap;                                         \
            q->run_head = 0;                                                   \
            q->run_n = q->nbatch;                                              \
            q->batch = r;                                                      \
            q->batch_cap = cap;                                                \
            q->nbatch = 0;                                                     \
            return MCE_OK;                                                     \
        }                                                                      \
        for (size_t i = 0; i < q->nbatch; i++)                                 \
            if (PUSH_E(&q->heap, &q->batch[i]) != MCE_OK) {                    \
                /* the rest stays staged */                                    \
                memmove(q->batch, q->batch + i, (q->nbatch - i) * sizeof(E));  \
                q->nbatch -= i;                                                \
                return MCE_ERR_NOMEM;                                          \
            }                                                                  \
        q->nbatch = 0;                                                         \
        return MCE_OK;                                                         \
    }                                                                          \
                                                                               \
    const E *PFX##_top(Q *q)                                                   \
    {                                                                          \
        const E *h, *r;                                                        \
        if (PFX##_settle(q) != MCE_OK)                                         \
            mcei_fatal("out of memory in the scheduler");                      \
        h = HEAP##_top(&q->heap);                                              \
        r = q->run_head < q->run_n ? &q->run[q->run_head] : NULL;              \
        if (r == NULL)                                                         \
            return h;                                                          \
        if (h == NULL || !LESS(h, r))                                          \
            return r;                                                          \
        return h;                                                              \
    }                                                                          \
                                                                               \
    void PFX##_pop(Q *q)                                                       \
    {                                                                          \
        const E *h = HEAP##_top(&q->heap);                                     \
        const E *r = q->run_head < q->run_n ? &q->run[q->run_head] : NULL;     \
        if (r != NULL && (h == NULL || !LESS(h, r)))                           \
            q->run_head++;                                                     \
        else                                                                   \
            HEAP##_pop(&q->heap);                                              \
    }

static int rheap_push_e(mcei_rheap_t *h, const mcei_rentry_t *x)
{
    return mcei_rheap_push(h, x->t, x->id, x->local);
}

static int kheap_push_e(mcei_kheap_t *h, const mcei_kentry_t *x)
{
    return mcei_kheap_push(h, x->k0, x->k1, x->k2, x->item);
}

MCEI_STAGED_QUEUE(mcei_runq, mcei_runq_t, mcei_rentry_t, mcei_rentry_less,
                  mcei_rheap, rheap_push_e)
MCEI_STAGED_QUEUE(mcei_kq, mcei_kq_t, mcei_kentry_t, mcei_kentry_less,
                  mcei_kheap, kheap_push_e)

int mcei_runq_push(mcei_runq_t *q, uint64_t t, uint32_t id, uint32_t local)
{
    mcei_rentry_t x = {t, id, local};
    return mcei_runq_stage(q, &x);
}

int mcei_kq_push(mcei_kq_t *q, uint64_t k0, uint64_t k1, uint64_t k2,
                 void *item)
{
    mcei_kentry_t x = {k0, k1, k2, item};
    return mcei_kq_stage(q, &x);
}

/* ---- a set of address ranges --------------------------------------------- */

int mcei_ranges_seen(mcei_ranges_t *s, uintptr_t a, uintptr_t e, int max)
{
    uintptr_t *r = s->r;
    int n = s->n, lo = 0, hi = n;
    /* lo: the first range that ends at or after a (those before it end
     * before a: apart from [a, e)) */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (r[2 * mid + 1] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < n && r[2 * lo] <= a && e <= r[2 * lo + 1])
        return 1;
    /* hi: past the ranges from lo on that overlap or touch [a, e) */
    for (hi = lo; hi < n && r[2 * hi] <= e; hi++)
        ;
    if (lo == hi && n >= max && n >= 2) {
        /* full: the two ranges with the smallest gap become one */
        int g = 0;
        for (int k = 1; k + 1 < n; k++)
            if (r[2 * k + 2] - r[2 * k + 1] < r[2 * g + 2] - r[2 * g + 1])
                g = k;
        r[2 * g + 1] = r[2 * g + 3];
        memmove(&r[2 * g + 2], &r[2 * g + 4],
                (size_t)(n - g - 2) * 2 * sizeof(*r));
        s->n = n - 1;
        return mcei_ranges_seen(s, a, e, max); /* [a, e) may lie in it */
    }
    if (lo == hi && n == s->cap) {
        int cap = n ? 2 * n : 16; /* n < max here */
        if (cap > max)
            cap = max;
        if ((r = realloc(r, (size_t)cap * 2 * sizeof(*r))) == NULL)
            return 0;
        s->r = r;
        s->cap = cap;
    }
    if (lo < hi) {
        a = r[2 * lo] < a ? r[2 * lo] : a;
        e = r[2 * hi - 1] > e ? r[2 * hi - 1] : e;
    }
    /* ranges [lo, hi) become the one range at lo */
    memmove(&r[2 * lo + 2], &r[2 * hi], (size_t)(n - hi) * 2 * sizeof(*r));
    r[2 * lo] = a;
    r[2 * lo + 1] = e;
    s->n = n + 1 - (hi - lo);
    return 0;
}

void mcei_ranges_fini(mcei_ranges_t *s)
{
    free(s->r);
    s->r = NULL;
    s->n = s->cap = 0;
}
