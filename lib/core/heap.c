/* Binary min-heap. */
#include "heap.h"

#include <stdlib.h>

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
