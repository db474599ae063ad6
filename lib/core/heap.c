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
