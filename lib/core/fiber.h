/* User-level execution contexts with overflow-checked stacks. */
#ifndef MCEI_FIBER_H
#define MCEI_FIBER_H

#include "mcei.h"

typedef void (*mcei_fiber_fn)(void *arg);

typedef struct mcei_fiber {
    /* What a switch reads first (one cache line with the node record's
     * hot part, engine.h): */
    void *sp; /* saved stack pointer (assembly switch) */
    /* Pooled stacks: the canary zone right below stack_lo (checked at
     * every switch); NULL for a stack with its own guard. */
    const uint64_t *canary;
    char *stack_lo; /* lowest usable byte */
    /* Times this context was switched to: a node's activations (the
     * engine's work per node, for --mce-stats and weighted placement). */
    uint64_t resumes;
    void *asan_fake;  /* AddressSanitizer fake-stack handle */
    void *uctx;       /* ucontext_t when the portable switch is used */
    size_t stack_len; /* usable bytes from stack_lo */
    char *map;        /* own mapping (mcei_fiber_create); NULL for a slot */
    size_t map_len;
    size_t guard_len;
    size_t size; /* the size asked for, page-rounded (for reports) */
    /* The lowest address of the stack's guard (its own mapping's, its
     * slot's), or pooled, of its chunk, guard included: a fault from
     * there up to the stack is an overflow. */
    const char *chunk_lo;
    mcei_fiber_fn fn;
    void *arg;
    unsigned vg_id;    /* valgrind stack id */
    void *asan_bottom; /* main context's stack, for AddressSanitizer */
    size_t asan_size;
} mcei_fiber_t;

/* The calling thread's own context (the scheduler); no stack allocated. */
void mcei_fiber_init_main(mcei_fiber_t *f);
/* A new context running fn(arg) on a fresh stack of @p stack_size bytes
 * below a PROT_NONE guard region.  fn must never return. */
int mcei_fiber_create(mcei_fiber_t *f, size_t stack_size, mcei_fiber_fn fn,
                      void *arg);
void mcei_fiber_destroy(mcei_fiber_t *f);

/* Stacks for @p n fibers of @p stack_size bytes, laid out within the
 * kernel's budget of memory mappings (vm.max_map_count): one guarded
 * mapping per fiber when it allows (two mappings each), else pooled
 * stacks, many per mapping, each below a canary zone checked at every
 * switch and each chunk above a PROT_NONE guard.  Fails, with the limit
 * named in @p err, when neither fits. */
int mcei_fiber_stacks_init(size_t n, size_t stack_size, char *err,
                           size_t errlen);
/* Fiber number @p slot (< n) of mcei_fiber_stacks_init. */
int mcei_fiber_create_slot(mcei_fiber_t *f, size_t slot, mcei_fiber_fn fn,
                           void *arg);
void mcei_fiber_stacks_fini(void);

#define MCEI_CANARY       0x5354414b43414e59ULL /* "STAKCANY" */
#define MCEI_CANARY_WORDS 32 /* 256 bytes below each pooled stack */

/* Overflow check after @p f switched away: its saved stack pointer is
 * within its stack and the ends of its canary zone are intact.  Always 1
 * for a stack with its own guard (an overflow faults there). */
static inline int mcei_fiber_intact(const mcei_fiber_t *f)
{
    const uint64_t *c = f->canary;
    if (c == NULL)
        return 1;
    return (f->sp == NULL || (const char *)f->sp >= f->stack_lo) &&
           c[0] == MCEI_CANARY && c[MCEI_CANARY_WORDS / 2] == MCEI_CANARY &&
           c[MCEI_CANARY_WORDS - 1] == MCEI_CANARY;
}
/* Save the current context into @p from and resume @p to. */
void mcei_fiber_switch(mcei_fiber_t *from, mcei_fiber_t *to);
/* Is a fault at @p addr (or a damaged canary) an overflow of @p f? */
int mcei_fiber_is_overflow(const mcei_fiber_t *f, const void *addr);
size_t mcei_fiber_stack_size(const mcei_fiber_t *f);
size_t mcei_fiber_page_size(void);

#endif
