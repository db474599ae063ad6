/* Binary min-heap of pointers ordered by a caller-supplied "less". */
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

#endif
