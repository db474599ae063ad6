/* Context switching: a few instructions of assembly on x86-64, ucontext
 * elsewhere.  Stacks lie in one mapping, each above a guard so that an
 * overflow faults instead of corrupting a neighbour's stack: a guard
 * marker where the kernel has them (Linux 6.13), else a PROT_NONE range,
 * which splits the mapping: two memory mappings per stack, and the
 * kernel allows about 65,530 (vm.max_map_count), so beyond its budget
 * such stacks are pooled: many per mapping, each with a canary zone below
 * it that is checked at every switch, each chunk of them above a
 * PROT_NONE guard. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "fiber.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#else
#define VALGRIND_STACK_REGISTER(a, b) 0
#define VALGRIND_STACK_DEREGISTER(id) ((void)(id))
#endif

#ifdef MCEI_ASAN
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom,
                                    size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save,
                                     const void **bottom_old, size_t *size_old);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#endif

#define MCEI_GUARD_LEN (64 * 1024)

size_t mcei_fiber_page_size(void)
{
    static size_t ps;
    if (ps == 0)
        ps = (size_t)sysconf(_SC_PAGESIZE);
    return ps;
}

#if defined(__x86_64__) && !defined(MCE_PORTABLE_CONTEXT)
#define MCEI_ASM_SWITCH 1
/* mcei_ctx_switch(void **save_sp, void *new_sp): callee-saved registers,
 * MXCSR and the x87 control word on the old stack, then the new one.
 * The control words are loaded only when they differ (nodes rarely change
 * them): ldmxcsr and fldcw serialise, so the new stack's cache miss could
 * not overlap anything, and they took nine tenths of the switch's samples
 * in a 4096-node ring. */
__asm__(".text\n"
        ".globl mcei_ctx_switch\n"
        ".hidden mcei_ctx_switch\n"
        ".type mcei_ctx_switch,@function\n"
        "mcei_ctx_switch:\n"
        "  pushq %rbp\n"
        "  pushq %rbx\n"
        "  pushq %r12\n"
        "  pushq %r13\n"
        "  pushq %r14\n"
        "  pushq %r15\n"
        "  subq $8, %rsp\n"
        "  stmxcsr (%rsp)\n"
        "  fnstcw 4(%rsp)\n"
        "  movl (%rsp), %eax\n"
        "  movzwl 4(%rsp), %ecx\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  cmpl (%rsp), %eax\n"
        "  je 1f\n"
        "  ldmxcsr (%rsp)\n"
        "1:\n"
        "  cmpw 4(%rsp), %cx\n"
        "  je 2f\n"
        "  fldcw 4(%rsp)\n"
        "2:\n"
        "  addq $8, %rsp\n"
        "  popq %r15\n"
        "  popq %r14\n"
        "  popq %r13\n"
        "  popq %r12\n"
        "  popq %rbx\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size mcei_ctx_switch,.-mcei_ctx_switch\n"
        ".globl mcei_ctx_trampoline\n"
        ".hidden mcei_ctx_trampoline\n"
        ".type mcei_ctx_trampoline,@function\n"
        "mcei_ctx_trampoline:\n"
        "  movq %r13, %rdi\n"
        "  callq *%r12\n"
        "  ud2\n"
        ".size mcei_ctx_trampoline,.-mcei_ctx_trampoline\n");
void mcei_ctx_switch(void **save_sp, void *new_sp);
void mcei_ctx_trampoline(void);
#endif

static void fiber_entry(void *arg)
{
    mcei_fiber_t *f = arg;
#ifdef MCEI_ASAN
    __sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
    f->fn(f->arg);
    abort(); /* fn must switch away for good */
}

#ifndef MCEI_ASM_SWITCH
static __thread mcei_fiber_t *start_fiber; /* ucontext entry hand-off */

static void uctx_entry(void)
{
    fiber_entry(start_fiber);
}
#endif

void mcei_fiber_init_main(mcei_fiber_t *f)
{
    memset(f, 0, sizeof(*f));
#ifdef MCEI_ASAN
    {
        pthread_attr_t attr;
        void *lo;
        size_t sz;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            if (pthread_attr_getstack(&attr, &lo, &sz) == 0) {
                f->asan_bottom = lo;
                f->asan_size = sz;
            }
            pthread_attr_destroy(&attr);
        }
    }
#endif
#ifndef MCEI_ASM_SWITCH
    f->uctx = calloc(1, sizeof(ucontext_t));
#endif
}

/* The initial context of @p f: fn(arg) on the stack [lo, top). */
static int fiber_setup(mcei_fiber_t *f, char *lo, char *top, mcei_fiber_fn fn,
                       void *arg)
{
    f->stack_lo = lo;
    f->stack_len = (size_t)(top - lo);
    f->fn = fn;
    f->arg = arg;
    f->vg_id = VALGRIND_STACK_REGISTER(lo, top);
#ifdef MCEI_ASM_SWITCH
    {
        /* Frame popped by mcei_ctx_switch: fp control, r15..rbp, return
         * address = trampoline, which calls r12(r13) on a 16-aligned stack. */
        uint64_t *sp = (uint64_t *)(void *)top;
        uint32_t csr[2];
        sp -= 2; /* keep 16-byte alignment after "ret" */
        __asm__ volatile("stmxcsr %0" : "=m"(csr[0]));
        __asm__ volatile("fnstcw %0" : "=m"(csr[1]));
        *--sp = (uint64_t)(uintptr_t)mcei_ctx_trampoline;
        *--sp = 0;                                /* rbp */
        *--sp = 0;                                /* rbx */
        *--sp = (uint64_t)(uintptr_t)fiber_entry; /* r12 */
        *--sp = (uint64_t)(uintptr_t)f;           /* r13 */
        *--sp = 0;                                /* r14 */
        *--sp = 0;                                /* r15 */
        --sp;
        memcpy(sp, csr, sizeof(csr));
        f->sp = sp;
    }
#else
    {
        ucontext_t *uc = calloc(1, sizeof(*uc));
        if (uc == NULL)
            return MCE_ERR_NOMEM;
        getcontext(uc);
        uc->uc_stack.ss_sp = lo;
        uc->uc_stack.ss_size = f->stack_len;
        uc->uc_link = NULL;
        makecontext(uc, uctx_entry, 0);
        f->uctx = uc;
    }
#endif
    return MCE_OK;
}

int mcei_fiber_create(mcei_fiber_t *f, size_t stack_size, mcei_fiber_fn fn,
                      void *arg)
{
    size_t ps = mcei_fiber_page_size();
    size_t len = (stack_size + ps - 1) / ps * ps;
    char *map;

    memset(f, 0, sizeof(*f));
    map = mmap(NULL, len + MCEI_GUARD_LEN, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (map == MAP_FAILED)
        return MCE_ERR_NOMEM;
    if (mprotect(map, MCEI_GUARD_LEN, PROT_NONE) != 0) {
        munmap(map, len + MCEI_GUARD_LEN);
        return MCE_ERR_NOMEM;
    }
    f->map = map;
    f->map_len = len + MCEI_GUARD_LEN;
    f->chunk_lo = map;
    f->guard_len = MCEI_GUARD_LEN;
    f->size = len;
    if (fiber_setup(f, map + MCEI_GUARD_LEN, map + f->map_len, fn, arg) !=
        MCE_OK) {
        munmap(map, f->map_len);
        memset(f, 0, sizeof(*f));
        return MCE_ERR_NOMEM;
    }
    return MCE_OK;
}

/* ---- stacks within the mapping budget ------------------------------------ */

/* Pooled stacks per chunk: an overflow that runs down through its
 * neighbours' stacks meets the chunk's guard within this many stacks. */
#define MCEI_POOL_CHUNK 64
/* Mappings left for everything else (malloc'ed large payloads, MPI,
 * privatisation, the program's own). */
#define MCEI_MAP_HEADROOM 8192
#define MCEI_CANARY_LEN   (MCEI_CANARY_WORDS * sizeof(uint64_t))

static struct {
    size_t n, size, slot_len, chunk_len, nchunks;
    char **chunks; /* pooled: guard + pad page + slots, each */
    int pooled;
    /* Unless pooled: one mapping of n slots, each a guard and a stack (a
     * mapping and an unmapping per stack made 4096 stacks cost 53 ms to
     * make and free, one mapping with PROT_NONE guards 37 ms). */
    char *region;
    size_t region_len;
    int marked; /* the region's guards are page-table markers */
} stacks;

static size_t kernel_map_limit(void)
{
    unsigned long v = 65530; /* the kernel's default */
    FILE *fp = fopen("/proc/sys/vm/max_map_count", "r");
    if (fp != NULL) {
        if (fscanf(fp, "%lu", &v) != 1)
            v = 65530;
        fclose(fp);
    }
    return (size_t)v;
}

static size_t maps_in_use(void)
{
    size_t n = 0;
    int c;
    FILE *fp = fopen("/proc/self/maps", "r");
    if (fp == NULL)
        return 1024; /* unknown: assume a typical process */
    while ((c = getc(fp)) != EOF)
        n += c == '\n';
    fclose(fp);
    return n;
}

/* Guard regions as page-table markers (Linux 6.13 and later): a fault
 * there is a SIGSEGV as in a PROT_NONE page, but the mapping is not
 * split, so every stack keeps a guard of its own at any node count,
 * within the kernel's mapping budget, and installing one costs less than
 * an mprotect (4096 stacks made and freed in 18 ms instead of 37). */
#if defined(__linux__) && !defined(MADV_GUARD_INSTALL)
#define MADV_GUARD_INSTALL 102
#endif

/* The guard at @p guard: a marker, or PROT_NONE. */
static int guard_slot(char *guard)
{
#ifdef MADV_GUARD_INSTALL
    if (stacks.marked)
        return madvise(guard, MCEI_GUARD_LEN, MADV_GUARD_INSTALL);
#endif
    return mprotect(guard, MCEI_GUARD_LEN, PROT_NONE);
}

int mcei_fiber_stacks_init(size_t n, size_t stack_size, char *err,
                           size_t errlen)
{
    size_t ps = mcei_fiber_page_size();
    size_t size = (stack_size + ps - 1) / ps * ps;
    size_t limit = kernel_map_limit(), used = maps_in_use(), guarded;
    /* tests: the pooled layout, or guards by mprotect only */
    const char *force = getenv("MCEMU_POOLED_STACKS");
    const char *markers = getenv("MCEMU_GUARD_MARKERS");
    int pooled = force != NULL && force[0] == '1';

    memset(&stacks, 0, sizeof(stacks));
    stacks.n = n;
    stacks.size = size;
    if (__builtin_mul_overflow(n, (size_t)2, &guarded) ||
        __builtin_add_overflow(guarded, used + MCEI_MAP_HEADROOM, &guarded))
        guarded = SIZE_MAX;
    if (!pooled) {
        if (__builtin_add_overflow(size, (size_t)MCEI_GUARD_LEN,
                                   &stacks.slot_len) ||
            __builtin_mul_overflow(stacks.slot_len, n, &stacks.region_len)) {
            snprintf(err, errlen, "%zu stacks of %zu bytes overflow", n, size);
            return MCE_ERR_OVERFLOW;
        }
        if (n == 0)
            return MCE_OK;
        stacks.region = mmap(
            NULL, stacks.region_len, PROT_READ | PROT_WRITE,
            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
        if (stacks.region == MAP_FAILED) {
            stacks.region = NULL;
            snprintf(err, errlen, "cannot map %zu stacks of %zu bytes", n,
                     size);
            return MCE_ERR_NOMEM;
        }
#ifdef MADV_GUARD_INSTALL
        /* Older kernels refuse the advice (EINVAL): mprotect, then. */
        if (!(markers != NULL && markers[0] == '0') &&
            madvise(stacks.region, MCEI_GUARD_LEN, MADV_GUARD_INSTALL) == 0) {
            stacks.marked = 1;
            return MCE_OK;
        }
#else
        (void)markers;
#endif
        if (guarded <= limit)
            return MCE_OK;
        munmap(stacks.region, stacks.region_len);
        stacks.region = NULL;
        stacks.region_len = 0;
    }
    /* Slots: the stack, then the canary zone of the slot above in the
     * same page as this stack's top, so it costs no memory of its own. */
    stacks.slot_len = (size + MCEI_CANARY_LEN + ps - 1) / ps * ps;
    stacks.nchunks = (n + MCEI_POOL_CHUNK - 1) / MCEI_POOL_CHUNK;
    if (2 * stacks.nchunks + used + MCEI_MAP_HEADROOM > limit) {
        snprintf(err, errlen,
                 "%zu stacks need %zu memory mappings even pooled, above the "
                 "kernel's limit vm.max_map_count = %zu (%zu in use): raise it "
                 "(sysctl vm.max_map_count) or run more MPI ranks",
                 n, 2 * stacks.nchunks, limit, used);
        return MCE_ERR_NOMEM;
    }
    if (__builtin_mul_overflow(stacks.slot_len, (size_t)MCEI_POOL_CHUNK,
                               &stacks.chunk_len) ||
        __builtin_add_overflow(stacks.chunk_len, MCEI_GUARD_LEN + ps,
                               &stacks.chunk_len)) {
        snprintf(err, errlen, "stack size %zu overflows", size);
        return MCE_ERR_OVERFLOW;
    }
    stacks.chunks = calloc(stacks.nchunks, sizeof(*stacks.chunks));
    if (stacks.chunks == NULL) {
        snprintf(err, errlen, "out of memory for %zu stacks", n);
        return MCE_ERR_NOMEM;
    }
    stacks.pooled = 1;
    return MCE_OK;
}

int mcei_fiber_create_slot(mcei_fiber_t *f, size_t slot, mcei_fiber_fn fn,
                           void *arg)
{
    size_t ps = mcei_fiber_page_size();
    size_t c = slot / MCEI_POOL_CHUNK, j = slot % MCEI_POOL_CHUNK;
    char *chunk, *base, *lo, *top;
    uint64_t *canary;

    if (slot >= stacks.n)
        return MCE_ERR_INVAL;
    memset(f, 0, sizeof(*f));
    if (!stacks.pooled) {
        chunk = stacks.region + slot * stacks.slot_len;
        if (guard_slot(chunk) != 0)
            return MCE_ERR_NOMEM;
        f->chunk_lo = chunk;
        f->guard_len = MCEI_GUARD_LEN;
        f->size = stacks.size;
        return fiber_setup(f, chunk + MCEI_GUARD_LEN, chunk + stacks.slot_len,
                           fn, arg);
    }
    if ((chunk = stacks.chunks[c]) == NULL) {
        chunk = mmap(NULL, stacks.chunk_len, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                     -1, 0);
        if (chunk == MAP_FAILED)
            return MCE_ERR_NOMEM;
        if (mprotect(chunk, MCEI_GUARD_LEN, PROT_NONE) != 0) {
            munmap(chunk, stacks.chunk_len);
            return MCE_ERR_NOMEM;
        }
        stacks.chunks[c] = chunk;
    }
    /* chunk: guard | pad page (slot 0's canary) | slot 0 | slot 1 | ...;
     * slot j: stack [lo, top), then slot j+1's canary zone. */
    base = chunk + MCEI_GUARD_LEN + ps;
    lo = base + j * stacks.slot_len;
    top = lo + stacks.slot_len - MCEI_CANARY_LEN;
    canary = (uint64_t *)(void *)(lo - MCEI_CANARY_LEN);
    for (size_t i = 0; i < MCEI_CANARY_WORDS; i++)
        canary[i] = MCEI_CANARY;
    f->canary = canary;
    f->chunk_lo = chunk;
    f->guard_len = MCEI_GUARD_LEN;
    f->size = stacks.size;
    return fiber_setup(f, lo, top, fn, arg);
}

void mcei_fiber_stacks_fini(void)
{
    for (size_t c = 0; c < stacks.nchunks && stacks.chunks != NULL; c++)
        if (stacks.chunks[c] != NULL)
            munmap(stacks.chunks[c], stacks.chunk_len);
    free(stacks.chunks);
    if (stacks.region != NULL)
        munmap(stacks.region, stacks.region_len);
    memset(&stacks, 0, sizeof(stacks));
}

void mcei_fiber_destroy(mcei_fiber_t *f)
{
#ifdef MCEI_ASAN
    /* A fiber left in mid-call leaves its frames' redzones poisoned, and
     * the next stack mapped at that address would inherit them. */
    if (f->stack_lo != NULL)
        __asan_unpoison_memory_region(f->stack_lo, f->stack_len);
#endif
    if (f->stack_lo != NULL)
        VALGRIND_STACK_DEREGISTER(f->vg_id);
    if (f->map != NULL)
        munmap(f->map, f->map_len); /* pooled stacks go with their chunk */
    free(f->uctx);
    memset(f, 0, sizeof(*f));
}

void mcei_fiber_switch(mcei_fiber_t *from, mcei_fiber_t *to)
{
    MCEI_ASSERT(from != to);
    to->resumes++;
#ifdef MCEI_ASAN
    if (to->stack_lo)
        __sanitizer_start_switch_fiber(&from->asan_fake, to->stack_lo,
                                       to->stack_len);
    else
        __sanitizer_start_switch_fiber(&from->asan_fake, to->asan_bottom,
                                       to->asan_size);
#endif
#ifdef MCEI_ASM_SWITCH
    mcei_ctx_switch(&from->sp, to->sp);
#else
    start_fiber = to;
    swapcontext(from->uctx, to->uctx);
#endif
#ifdef MCEI_ASAN
    __sanitizer_finish_switch_fiber(from->asan_fake, NULL, NULL);
#endif
}

int mcei_fiber_is_overflow(const mcei_fiber_t *f, const void *addr)
{
    const char *a = addr;
    if (f->canary != NULL) {
        /* Pooled: anywhere from the chunk's guard up to the stack (the
         * neighbours' stacks below it included), or a damaged canary. */
        if (a >= f->chunk_lo && a < f->stack_lo)
            return 1;
        return f->canary[0] != MCEI_CANARY ||
               f->canary[MCEI_CANARY_WORDS - 1] != MCEI_CANARY;
    }
    /* Only the guard itself: below it lies another node's stack. */
    if (f->chunk_lo == NULL)
        return 0;
    return a >= f->chunk_lo && a < f->chunk_lo + f->guard_len;
}

size_t mcei_fiber_stack_size(const mcei_fiber_t *f)
{
    return f->size;
}
