/* Unit tests for the engine's building blocks: the (time, source,
 * sequence) order, message queues (lib/core/engine.c) and fibers
 * (lib/core/fiber.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine.h"

/* ---- mcei_order_less --------------------------------------------------- */

static mcei_wire_t wire(int src, uint64_t seq)
{
    mcei_wire_t w;
    memset(&w, 0, sizeof(w));
    w.src = src;
    w.seq = seq;
    return w;
}

static void test_order_less_rules(void **state)
{
    (void)state;
    mcei_wire_t a, b;

    /* time decides first, whatever source and sequence say */
    a = wire(9, 9);
    b = wire(0, 0);
    assert_true(mcei_order_less(1, &a, 2, &b));
    assert_false(mcei_order_less(2, &b, 1, &a));
    assert_true(mcei_order_less(0, &a, MCEI_TIME_INF, &b));

    /* same time: the lower source first, whatever the sequence */
    a = wire(1, 100);
    b = wire(2, 0);
    assert_true(mcei_order_less(5, &a, 5, &b));
    assert_false(mcei_order_less(5, &b, 5, &a));
    a = wire(-1, 0); /* signed comparison of sources */
    assert_true(mcei_order_less(5, &a, 5, &b));

    /* same time and source: the lower sequence first */
    a = wire(3, 7);
    b = wire(3, 8);
    assert_true(mcei_order_less(5, &a, 5, &b));
    assert_false(mcei_order_less(5, &b, 5, &a));
    a = wire(3, 0);
    b = wire(3, UINT64_MAX); /* unsigned comparison of sequences */
    assert_true(mcei_order_less(5, &a, 5, &b));

    /* equal keys: neither is less (irreflexive) */
    a = wire(3, 7);
    b = wire(3, 7);
    assert_false(mcei_order_less(5, &a, 5, &b));
    assert_false(mcei_order_less(5, &b, 5, &a));
    assert_false(mcei_order_less(5, &a, 5, &a));

    /* fields other than (time, src, seq) do not matter */
    a = wire(3, 7);
    b = wire(3, 7);
    a.dst = 1;
    b.dst = 0;
    a.type = 99;
    a.size = 1000;
    a.ts = 0;
    b.ts = 50;
    assert_false(mcei_order_less(5, &a, 5, &b));
    assert_false(mcei_order_less(5, &b, 5, &a));
}

/* Over random keys, order_less is a strict total order on (t, src, seq)
 * that agrees with a lexicographic comparison written out here. */
static void test_order_less_total(void **state)
{
    (void)state;
    enum { N = 60 };
    mce_time_t t[N];
    mcei_wire_t w[N];
    uint64_t rng = 42;
    for (int i = 0; i < N; i++) {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        uint32_t r = (uint32_t)(rng >> 33);
        t[i] = r % 4;
        w[i] = wire((int)((r >> 4) % 3), (r >> 8) % 3);
    }
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            int lex = t[i] != t[j]           ? t[i] < t[j]
                      : w[i].src != w[j].src ? w[i].src < w[j].src
                                             : w[i].seq < w[j].seq;
            int lij = mcei_order_less(t[i], &w[i], t[j], &w[j]);
            int lji = mcei_order_less(t[j], &w[j], t[i], &w[i]);
            assert_int_equal(lij, lex);
            assert_false(lij && lji); /* asymmetric */
            int same =
                t[i] == t[j] && w[i].src == w[j].src && w[i].seq == w[j].seq;
            assert_int_equal(lij || lji, !same); /* total */
            for (int k = 0; k < N; k += 7)       /* transitive (sampled) */
                if (lij && mcei_order_less(t[j], &w[j], t[k], &w[k]))
                    assert_true(mcei_order_less(t[i], &w[i], t[k], &w[k]));
        }
    }
}

static void test_msg_data(void **state)
{
    (void)state;
    mcei_msg_t m;
    char big[100];
    memset(&m, 0, sizeof(m));
    m.payload = big;
    m.w.size = 0;
    assert_ptr_equal(mcei_msg_data(&m), m.w.data);
    m.w.size = MCEI_INLINE;
    assert_ptr_equal(mcei_msg_data(&m), m.w.data);
    m.w.size = MCEI_INLINE + 1;
    assert_ptr_equal(mcei_msg_data(&m), big);
}

/* ---- message queues ---------------------------------------------------- */

/* The queue holds exactly @p want (n entries) in order, linked both ways. */
static void expect_queue(const mcei_msgq_t *q, mcei_msg_t *const *want,
                         size_t n)
{
    size_t i = 0;
    assert_int_equal(q->count, n);
    if (n == 0) {
        assert_null(q->head);
        assert_null(q->tail);
        return;
    }
    assert_ptr_equal(q->head, want[0]);
    assert_ptr_equal(q->tail, want[n - 1]);
    assert_null(q->head->prev);
    assert_null(q->tail->next);
    for (mcei_msg_t *m = q->head; m != NULL; m = m->next, i++) {
        assert_true(i < n);
        assert_ptr_equal(m, want[i]);
        if (m->next)
            assert_ptr_equal(m->next->prev, m);
    }
    assert_int_equal(i, n);
    i = n;
    for (mcei_msg_t *m = q->tail; m != NULL; m = m->prev)
        assert_ptr_equal(m, want[--i]);
    assert_int_equal(i, 0);
}

static void test_msgq_push_remove(void **state)
{
    (void)state;
    mcei_msg_t m[6];
    mcei_msgq_t q = {0};
    memset(m, 0, sizeof(m));
    expect_queue(&q, NULL, 0);

    for (size_t i = 0; i < 5; i++) {
        /* stale links must not matter */
        m[i].prev = &m[5];
        m[i].next = &m[5];
        mcei_msgq_push(&q, &m[i]);
    }
    mcei_msg_t *all[] = {&m[0], &m[1], &m[2], &m[3], &m[4]};
    expect_queue(&q, all, 5);

    /* middle */
    mcei_msgq_remove(&q, &m[2]);
    assert_null(m[2].prev);
    assert_null(m[2].next);
    mcei_msg_t *w1[] = {&m[0], &m[1], &m[3], &m[4]};
    expect_queue(&q, w1, 4);

    /* head */
    mcei_msgq_remove(&q, &m[0]);
    assert_null(m[0].prev);
    assert_null(m[0].next);
    mcei_msg_t *w2[] = {&m[1], &m[3], &m[4]};
    expect_queue(&q, w2, 3);

    /* tail */
    mcei_msgq_remove(&q, &m[4]);
    assert_null(m[4].next);
    assert_null(m[4].prev);
    mcei_msg_t *w3[] = {&m[1], &m[3]};
    expect_queue(&q, w3, 2);

    /* re-push a removed message: it goes to the tail */
    mcei_msgq_push(&q, &m[0]);
    mcei_msg_t *w4[] = {&m[1], &m[3], &m[0]};
    expect_queue(&q, w4, 3);

    /* drain: tail, head, the last one */
    mcei_msgq_remove(&q, &m[0]);
    mcei_msgq_remove(&q, &m[1]);
    mcei_msg_t *w5[] = {&m[3]};
    expect_queue(&q, w5, 1);
    mcei_msgq_remove(&q, &m[3]);
    expect_queue(&q, NULL, 0);

    /* usable again after becoming empty */
    mcei_msgq_push(&q, &m[4]);
    mcei_msgq_push(&q, &m[2]);
    mcei_msg_t *w6[] = {&m[4], &m[2]};
    expect_queue(&q, w6, 2);
}

/* Random pushes and removals against an array model. */
static void test_msgq_random(void **state)
{
    (void)state;
    enum { N = 64, OPS = 3000 };
    mcei_msg_t *pool = calloc(N, sizeof(*pool));
    mcei_msg_t *model[N];
    int inq[N] = {0};
    size_t n = 0;
    mcei_msgq_t q = {0};
    uint64_t rng = 7;
    assert_non_null(pool);
    for (int op = 0; op < OPS; op++) {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        uint32_t r = (uint32_t)(rng >> 33);
        int k = (int)(r % N);
        if (!inq[k]) {
            mcei_msgq_push(&q, &pool[k]);
            model[n++] = &pool[k];
            inq[k] = 1;
        } else {
            mcei_msgq_remove(&q, &pool[k]);
            size_t i = 0;
            while (model[i] != &pool[k])
                i++;
            memmove(&model[i], &model[i + 1], (n - i - 1) * sizeof(model[0]));
            n--;
            inq[k] = 0;
        }
        expect_queue(&q, model, n);
    }
    free(pool);
}

/* ---- fibers ------------------------------------------------------------ */

#define STACK (64 * 1024)

static mcei_fiber_t main_fiber;

typedef struct pingpong {
    mcei_fiber_t self;
    mcei_fiber_t *back;
    int counter;
    void *arg_seen;
    char *local_addr; /* address of a local on the fiber's stack */
} pingpong_t;

static void pingpong_fn(void *arg)
{
    pingpong_t *p = arg;
    int mine = 0; /* lives on the fiber's stack across switches */
    p->arg_seen = arg;
    p->local_addr = (char *)&mine;
    for (;;) {
        mine++;
        p->counter = mine;
        mcei_fiber_switch(&p->self, p->back);
    }
}

static void test_fiber_pingpong(void **state)
{
    (void)state;
    pingpong_t *p = calloc(1, sizeof(*p));
    assert_non_null(p);
    mcei_fiber_init_main(&main_fiber);
    assert_null(main_fiber.map);
    p->back = &main_fiber;
    assert_int_equal(mcei_fiber_create(&p->self, STACK, pingpong_fn, p),
                     MCE_OK);
    assert_int_equal(p->counter, 0); /* not started by create */
    int mine = 1000;                 /* on the main stack */
    for (int i = 1; i <= 10; i++) {
        mcei_fiber_switch(&main_fiber, &p->self);
        mine++;
        assert_int_equal(p->counter, i);
        assert_int_equal(mine, 1000 + i);
    }
    assert_ptr_equal(p->arg_seen, p);
    /* the fiber ran on its own stack, above the guard */
    assert_true(p->local_addr >= p->self.map + p->self.guard_len);
    assert_true(p->local_addr < p->self.map + p->self.map_len);
    mcei_fiber_destroy(&p->self);
    assert_null(p->self.map);
    mcei_fiber_destroy(&main_fiber);
    free(p);
}

#if defined(__x86_64__) && !defined(MCE_PORTABLE_CONTEXT)
/* The floating-point control words are each fiber's own (the switch
 * loads them only where they differ from the running fiber's). */
typedef struct fpc {
    mcei_fiber_t self;
    uint32_t mxcsr_seen[3];
    uint16_t cw_seen[3];
} fpc_t;

static fpc_t *fpc;

static uint32_t get_mxcsr(void)
{
    uint32_t v;
    __asm__ volatile("stmxcsr %0" : "=m"(v));
    return v;
}

static uint16_t get_cw(void)
{
    uint16_t v;
    __asm__ volatile("fnstcw %0" : "=m"(v));
    return v;
}

static void fpc_fn(void *arg)
{
    (void)arg;
    /* round up (RC = 10) in both units */
    uint32_t m = (get_mxcsr() & ~0x6000u) | 0x4000u;
    uint16_t c = (uint16_t)((get_cw() & ~0x0c00u) | 0x0800u);
    __asm__ volatile("ldmxcsr %0" : : "m"(m));
    __asm__ volatile("fldcw %0" : : "m"(c));
    for (int k = 0;; k++) {
        fpc->mxcsr_seen[k % 3] = get_mxcsr();
        fpc->cw_seen[k % 3] = get_cw();
        mcei_fiber_switch(&fpc->self, &main_fiber);
    }
}

static void test_fiber_fp_control(void **state)
{
    (void)state;
    uint32_t m0 = get_mxcsr();
    uint16_t c0 = get_cw();
    fpc = calloc(1, sizeof(*fpc));
    assert_non_null(fpc);
    mcei_fiber_init_main(&main_fiber);
    assert_int_equal(mcei_fiber_create(&fpc->self, STACK, fpc_fn, NULL),
                     MCE_OK);
    for (int k = 0; k < 3; k++) {
        mcei_fiber_switch(&main_fiber, &fpc->self);
        /* back in main: main's own words */
        assert_int_equal(get_mxcsr(), m0);
        assert_int_equal(get_cw(), c0);
        /* the fiber kept its rounding mode across the switches */
        assert_int_equal(fpc->mxcsr_seen[k] & 0x6000u, 0x4000u);
        assert_int_equal(fpc->cw_seen[k] & 0x0c00u, 0x0800u);
    }
    mcei_fiber_destroy(&fpc->self);
    mcei_fiber_destroy(&main_fiber);
    free(fpc);
}
#endif

/* Two fibers, A switching straight to B and B back to main. */
typedef struct duo {
    mcei_fiber_t a, b;
    char log[64][16];
    int nlog;
} duo_t;

static duo_t *duo;

static void duo_a(void *arg)
{
    (void)arg;
    for (int k = 0;; k++) {
        snprintf(duo->log[duo->nlog++], sizeof(duo->log[0]), "A%d", k);
        mcei_fiber_switch(&duo->a, &duo->b);
    }
}

static void duo_b(void *arg)
{
    (void)arg;
    for (int k = 0;; k++) {
        snprintf(duo->log[duo->nlog++], sizeof(duo->log[0]), "B%d", k);
        mcei_fiber_switch(&duo->b, &main_fiber);
    }
}

static void test_fiber_two_interleaved(void **state)
{
    (void)state;
    char want[16];
    duo = calloc(1, sizeof(*duo));
    assert_non_null(duo);
    mcei_fiber_init_main(&main_fiber);
    assert_int_equal(mcei_fiber_create(&duo->a, STACK, duo_a, NULL), MCE_OK);
    assert_int_equal(mcei_fiber_create(&duo->b, STACK, duo_b, NULL), MCE_OK);
    for (int r = 0; r < 8; r++) {
        mcei_fiber_switch(&main_fiber, &duo->a);
        assert_int_equal(duo->nlog, 2 * (r + 1));
        snprintf(want, sizeof(want), "A%d", r);
        assert_string_equal(duo->log[2 * r], want);
        snprintf(want, sizeof(want), "B%d", r);
        assert_string_equal(duo->log[2 * r + 1], want);
    }
    mcei_fiber_destroy(&duo->a);
    mcei_fiber_destroy(&duo->b);
    mcei_fiber_destroy(&main_fiber);
    free(duo);
    duo = NULL;
}

/* Main alternates between two independent ping-pong fibers. */
static void test_fiber_alternating(void **state)
{
    (void)state;
    pingpong_t *p = calloc(2, sizeof(*p));
    assert_non_null(p);
    mcei_fiber_init_main(&main_fiber);
    for (int i = 0; i < 2; i++) {
        p[i].back = &main_fiber;
        assert_int_equal(
            mcei_fiber_create(&p[i].self, STACK, pingpong_fn, &p[i]), MCE_OK);
    }
    /* 0, 1, 1, 0, 1, ... by a fixed pattern; counts follow independently */
    static const int pattern[] = {0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 1, 0};
    int expect[2] = {0, 0};
    for (size_t s = 0; s < MCEI_ARRAY_SIZE(pattern); s++) {
        int k = pattern[s];
        mcei_fiber_switch(&main_fiber, &p[k].self);
        expect[k]++;
        assert_int_equal(p[0].counter, expect[0]);
        assert_int_equal(p[1].counter, expect[1]);
    }
    /* distinct stacks */
    assert_true(p[0].self.map != p[1].self.map);
    assert_true(p[0].local_addr >= p[0].self.map + p[0].self.guard_len &&
                p[0].local_addr < p[0].self.map + p[0].self.map_len);
    assert_true(p[1].local_addr >= p[1].self.map + p[1].self.guard_len &&
                p[1].local_addr < p[1].self.map + p[1].self.map_len);
    for (int i = 0; i < 2; i++)
        mcei_fiber_destroy(&p[i].self);
    mcei_fiber_destroy(&main_fiber);
    free(p);
}

/* Deep calls on the fiber use its stack without faulting. */
static volatile int keep_recursing = 1;

static size_t recurse(size_t depth, size_t max)
{
    volatile char buf[256];
    buf[0] = (char)depth;
    buf[255] = (char)depth;
    if (keep_recursing && depth < max)
        return recurse(depth + 1, max) + (size_t)buf[0] - (size_t)buf[255] + 1;
    return 1;
}

typedef struct deep {
    mcei_fiber_t self;
    size_t max, result;
} deep_t;

static void deep_fn(void *arg)
{
    deep_t *d = arg;
    for (;;) {
        d->result = recurse(1, d->max);
        mcei_fiber_switch(&d->self, &main_fiber);
    }
}

static void test_fiber_stack_use(void **state)
{
    (void)state;
    deep_t d = {.max = 100}; /* ~30 KiB of frames on a 64 KiB stack */
    mcei_fiber_init_main(&main_fiber);
    assert_int_equal(mcei_fiber_create(&d.self, STACK, deep_fn, &d), MCE_OK);
    mcei_fiber_switch(&main_fiber, &d.self);
    assert_int_equal(d.result, 100);
    mcei_fiber_destroy(&d.self);
    mcei_fiber_destroy(&main_fiber);
}

static void test_fiber_layout(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 4096, 16384, 65536, 100000, 1 << 20};
    size_t ps = mcei_fiber_page_size();
    assert_true(ps >= 4096);
    assert_int_equal(ps & (ps - 1), 0);
    assert_int_equal(ps, (size_t)sysconf(_SC_PAGESIZE));
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(sizes); i++) {
        mcei_fiber_t f;
        size_t want = (sizes[i] + ps - 1) / ps * ps; /* whole pages */
        assert_int_equal(mcei_fiber_create(&f, sizes[i], pingpong_fn, NULL),
                         MCE_OK);
        assert_non_null(f.map);
        assert_true(f.guard_len > 0);
        assert_int_equal(f.guard_len % ps, 0);
        assert_int_equal(mcei_fiber_stack_size(&f), want);
        assert_int_equal(f.map_len, want + f.guard_len);
        mcei_fiber_destroy(&f);
        assert_null(f.map);
    }
}

static int global_object;

static const void *addr_at(uintptr_t a)
{
    return (const void *)a;
}

static void test_fiber_is_overflow(void **state)
{
    (void)state;
    pingpong_t *p = calloc(1, sizeof(*p));
    mcei_fiber_t *f;
    int on_main_stack = 0;
    assert_non_null(p);
    mcei_fiber_init_main(&main_fiber);
    p->back = &main_fiber;
    assert_int_equal(mcei_fiber_create(&p->self, STACK, pingpong_fn, p),
                     MCE_OK);
    mcei_fiber_switch(&main_fiber, &p->self); /* record a stack address */
    f = &p->self;
    uintptr_t map = (uintptr_t)f->map;

    /* the guard region [map, map + guard_len) */
    assert_true(mcei_fiber_is_overflow(f, f->map));
    assert_true(mcei_fiber_is_overflow(f, f->map + 1));
    assert_true(mcei_fiber_is_overflow(f, f->map + f->guard_len / 2));
    assert_true(mcei_fiber_is_overflow(f, f->map + f->guard_len - 1));
    /* just below the mapping is another node's stack, not ours */
    assert_false(mcei_fiber_is_overflow(f, addr_at(map - 1)));
    assert_false(mcei_fiber_is_overflow(f, addr_at(map - 4096)));

    /* the usable stack */
    assert_false(mcei_fiber_is_overflow(f, f->map + f->guard_len));
    assert_false(mcei_fiber_is_overflow(f, f->map + f->guard_len + STACK / 2));
    assert_false(mcei_fiber_is_overflow(f, f->map + f->map_len - 1));
    assert_false(mcei_fiber_is_overflow(f, p->local_addr));
    /* unrelated addresses */
    assert_false(mcei_fiber_is_overflow(f, addr_at(map + f->map_len)));
    assert_false(mcei_fiber_is_overflow(f, &global_object));
    assert_false(mcei_fiber_is_overflow(f, &on_main_stack));
    {
        void *heap = malloc(64);
        assert_false(mcei_fiber_is_overflow(f, heap));
        free(heap);
    }
    assert_false(mcei_fiber_is_overflow(f, NULL));
    assert_false(mcei_fiber_is_overflow(f, addr_at(map - (64u << 20))));
    /* the main context has no guard: never an overflow */
    assert_false(mcei_fiber_is_overflow(&main_fiber, f->map));
    assert_false(mcei_fiber_is_overflow(&main_fiber, &on_main_stack));

    mcei_fiber_destroy(f);
    mcei_fiber_destroy(&main_fiber);
    free(p);
}

/* In a child process: the guard really is inaccessible, the stack is
 * writable. */
static int child_status(void (*fn)(void *), void *arg)
{
    int status;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* cmocka's own fault handlers must not run in the child */
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        signal(SIGILL, SIG_DFL);
        signal(SIGFPE, SIG_DFL);
        fn(arg);
        _exit(0);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

static void poke(void *addr)
{
    *(volatile char *)addr = 1;
}

static void test_fiber_guard_faults(void **state)
{
    (void)state;
    mcei_fiber_t f;
    int st;
    assert_int_equal(mcei_fiber_create(&f, STACK, pingpong_fn, NULL), MCE_OK);
    st = child_status(poke, f.map + f.guard_len); /* first stack byte */
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    st = child_status(poke, f.map + f.map_len - 1);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    st = child_status(poke, f.map + f.guard_len - 1); /* last guard byte */
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
    st = child_status(poke, f.map);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
    mcei_fiber_destroy(&f);
}

/* End to end: unbounded recursion on a fiber faults in the guard and the
 * fault address is recognised as an overflow (as the crash handler does). */
static deep_t *overflowing;

static void overflow_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    _exit(mcei_fiber_is_overflow(&overflowing->self, si->si_addr) ? 42 : 43);
}

static void overflow_child(void *arg)
{
    static char altstack[64 * 1024];
    stack_t ss;
    struct sigaction sa;
    (void)arg;
    memset(&ss, 0, sizeof(ss));
    ss.ss_sp = altstack;
    ss.ss_size = sizeof(altstack);
    if (sigaltstack(&ss, NULL) != 0)
        _exit(44);
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = overflow_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    mcei_fiber_switch(&main_fiber, &overflowing->self);
    _exit(45); /* the recursion never comes back */
}

static void test_fiber_overflow_detected(void **state)
{
    (void)state;
    overflowing = calloc(1, sizeof(*overflowing));
    assert_non_null(overflowing);
    overflowing->max = SIZE_MAX; /* until it faults */
    mcei_fiber_init_main(&main_fiber);
    assert_int_equal(
        mcei_fiber_create(&overflowing->self, STACK, deep_fn, overflowing),
        MCE_OK);
    int st = child_status(overflow_child, NULL);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 42);
    mcei_fiber_destroy(&overflowing->self);
    mcei_fiber_destroy(&main_fiber);
    free(overflowing);
    overflowing = NULL;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_less_rules),
        cmocka_unit_test(test_order_less_total),
        cmocka_unit_test(test_msg_data),
        cmocka_unit_test(test_msgq_push_remove),
        cmocka_unit_test(test_msgq_random),
        cmocka_unit_test(test_fiber_pingpong),
        cmocka_unit_test(test_fiber_two_interleaved),
#if defined(__x86_64__) && !defined(MCE_PORTABLE_CONTEXT)
        cmocka_unit_test(test_fiber_fp_control),
#endif
        cmocka_unit_test(test_fiber_alternating),
        cmocka_unit_test(test_fiber_stack_use),
        cmocka_unit_test(test_fiber_layout),
        cmocka_unit_test(test_fiber_is_overflow),
        cmocka_unit_test(test_fiber_guard_faults),
        cmocka_unit_test(test_fiber_overflow_detected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
