/* User-level execution contexts with guard-paged stacks. */
#ifndef MCEI_FIBER_H
#define MCEI_FIBER_H

#include "mcei.h"

typedef void (*mcei_fiber_fn)(void *arg);

typedef struct mcei_fiber {
    void *sp;   /* saved stack pointer (assembly switch) */
    void *uctx; /* ucontext_t when the portable switch is used */
    char *map;  /* whole mapping: guard + stack */
    size_t map_len;
    size_t guard_len;
    mcei_fiber_fn fn;
    void *arg;
    unsigned vg_id;    /* valgrind stack id */
    void *asan_fake;   /* AddressSanitizer fake-stack handle */
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
/* Save the current context into @p from and resume @p to. */
void mcei_fiber_switch(mcei_fiber_t *from, mcei_fiber_t *to);
/* Does @p addr fall in the guard region (or just below the stack)? */
int mcei_fiber_is_overflow(const mcei_fiber_t *f, const void *addr);
size_t mcei_fiber_stack_size(const mcei_fiber_t *f);
size_t mcei_fiber_page_size(void);

#endif
