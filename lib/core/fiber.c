/* Context switching: a few instructions of assembly on x86-64, ucontext
 * elsewhere.  Stacks are mmap'ed with a PROT_NONE guard below them so an
 * overflow faults instead of corrupting a neighbour's stack. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "fiber.h"

#include <pthread.h>
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
 * MXCSR and the x87 control word on the old stack, then the new one. */
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
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  ldmxcsr (%rsp)\n"
        "  fldcw 4(%rsp)\n"
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
    f->guard_len = MCEI_GUARD_LEN;
    f->fn = fn;
    f->arg = arg;
    f->vg_id = VALGRIND_STACK_REGISTER(map + MCEI_GUARD_LEN, map + f->map_len);
#ifdef MCEI_ASM_SWITCH
    {
        /* Frame popped by mcei_ctx_switch: fp control, r15..rbp, return
         * address = trampoline, which calls r12(r13) on a 16-aligned stack. */
        uint64_t *top = (uint64_t *)(void *)(map + f->map_len);
        uint64_t *sp = top - 2; /* keep 16-byte alignment after "ret" */
        uint32_t csr[2];
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
        if (uc == NULL) {
            munmap(map, f->map_len);
            return MCE_ERR_NOMEM;
        }
        getcontext(uc);
        uc->uc_stack.ss_sp = map + MCEI_GUARD_LEN;
        uc->uc_stack.ss_size = len;
        uc->uc_link = NULL;
        makecontext(uc, uctx_entry, 0);
        f->uctx = uc;
    }
#endif
    return MCE_OK;
}

void mcei_fiber_destroy(mcei_fiber_t *f)
{
    if (f->map != NULL) {
        VALGRIND_STACK_DEREGISTER(f->vg_id);
        munmap(f->map, f->map_len);
    }
    free(f->uctx);
    memset(f, 0, sizeof(*f));
}

void mcei_fiber_switch(mcei_fiber_t *from, mcei_fiber_t *to)
{
    MCEI_ASSERT(from != to);
#ifdef MCEI_ASAN
    if (to->map)
        __sanitizer_start_switch_fiber(&from->asan_fake,
                                       to->map + to->guard_len,
                                       to->map_len - to->guard_len);
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
    /* Only the guard itself: below it lies another node's stack. */
    if (f->map == NULL)
        return 0;
    return a >= f->map && a < f->map + f->guard_len;
}

size_t mcei_fiber_stack_size(const mcei_fiber_t *f)
{
    return f->map_len - f->guard_len;
}
