/* Unit tests for the binary min-heap (lib/core/heap.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "heap.h"

typedef struct item {
    uint32_t key;
    size_t id;  /* index in the test's array */
    int popped; /* set when the heap hands it back */
} item_t;

static int item_less(const void *a, const void *b)
{
    const item_t *x = a, *y = b;
    return x->key < y->key;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Fixed-seed generator so every run sees the same sequence. */
static uint64_t rng_state;
static void rng_seed(uint64_t s)
{
    rng_state = s;
}
static uint32_t rng_next(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(rng_state >> 33);
}

/* Push all n items, then pop everything and compare with a sorted copy of
 * the keys; every item must come back exactly once. */
static void push_pop_check(item_t *items, size_t n)
{
    mcei_heap_t h;
    uint32_t *ref = malloc(n * sizeof(*ref));
    assert_non_null(ref);
    mcei_heap_init(&h, item_less);
    for (size_t i = 0; i < n; i++) {
        items[i].id = i;
        items[i].popped = 0;
        ref[i] = items[i].key;
        assert_int_equal(mcei_heap_push(&h, &items[i]), MCE_OK);
        assert_int_equal(h.count, i + 1);
        assert_true(h.cap >= h.count);
    }
    qsort(ref, n, sizeof(*ref), cmp_u32);
    for (size_t i = 0; i < n; i++) {
        item_t *top = mcei_heap_top(&h);
        item_t *it = mcei_heap_pop(&h);
        assert_non_null(it);
        assert_ptr_equal(top, it);
        assert_int_equal(it->key, ref[i]);
        assert_false(it->popped);
        it->popped = 1;
        assert_int_equal(h.count, n - i - 1);
    }
    for (size_t i = 0; i < n; i++)
        assert_true(items[i].popped);
    assert_null(mcei_heap_top(&h));
    assert_null(mcei_heap_pop(&h));
    mcei_heap_fini(&h);
    free(ref);
}

static void test_heap_empty(void **state)
{
    (void)state;
    mcei_heap_t h;
    mcei_heap_init(&h, item_less);
    assert_int_equal(h.count, 0);
    assert_null(mcei_heap_top(&h));
    assert_null(mcei_heap_pop(&h));
    assert_null(mcei_heap_pop(&h));
    assert_int_equal(h.count, 0);

    item_t one = {.key = 5};
    assert_int_equal(mcei_heap_push(&h, &one), MCE_OK);
    assert_ptr_equal(mcei_heap_top(&h), &one);
    assert_ptr_equal(mcei_heap_pop(&h), &one);
    assert_null(mcei_heap_pop(&h));
    assert_int_equal(h.count, 0);
    mcei_heap_fini(&h);
    assert_null(h.items);
    assert_int_equal(h.count, 0);
    assert_int_equal(h.cap, 0);
    /* usable again after fini */
    assert_int_equal(mcei_heap_push(&h, &one), MCE_OK);
    assert_ptr_equal(mcei_heap_pop(&h), &one);
    mcei_heap_fini(&h);
}

static void test_heap_random(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 3, 7, 63, 64, 65, 100, 1000, 5000};
    rng_seed(12345);
    for (size_t s = 0; s < MCEI_ARRAY_SIZE(sizes); s++) {
        size_t n = sizes[s];
        item_t *items = calloc(n, sizeof(*items));
        assert_non_null(items);
        for (size_t i = 0; i < n; i++)
            items[i].key = rng_next();
        push_pop_check(items, n);
        free(items);
    }
}

static void test_heap_sorted_inputs(void **state)
{
    (void)state;
    enum { N = 300 };
    item_t items[N];
    for (size_t i = 0; i < N; i++)
        items[i].key = (uint32_t)i; /* ascending */
    push_pop_check(items, N);
    for (size_t i = 0; i < N; i++)
        items[i].key = (uint32_t)(N - i); /* descending */
    push_pop_check(items, N);
    for (size_t i = 0; i < N; i++)
        items[i].key = 7; /* all equal */
    push_pop_check(items, N);
}

static void test_heap_duplicates(void **state)
{
    (void)state;
    enum { N = 777 };
    item_t items[N];
    size_t hist[10] = {0};
    rng_seed(99);
    for (size_t i = 0; i < N; i++) {
        items[i].key = rng_next() % 10;
        hist[items[i].key]++;
    }
    push_pop_check(items, N);

    /* the same with explicit checks of the per-key multiplicity */
    mcei_heap_t h;
    size_t seen[10] = {0};
    uint32_t last = 0;
    mcei_heap_init(&h, item_less);
    for (size_t i = 0; i < N; i++)
        assert_int_equal(mcei_heap_push(&h, &items[i]), MCE_OK);
    for (item_t *it; (it = mcei_heap_pop(&h)) != NULL;) {
        assert_true(it->key >= last);
        last = it->key;
        seen[it->key]++;
    }
    for (size_t k = 0; k < 10; k++)
        assert_int_equal(seen[k], hist[k]);
    mcei_heap_fini(&h);
}

static void test_heap_growth(void **state)
{
    (void)state;
    /* far past the initial allocation, forcing several reallocations */
    enum { N = 64 * 16 + 3 };
    item_t *items = calloc(N, sizeof(*items));
    mcei_heap_t h;
    size_t grows = 0, lastcap = 0;
    assert_non_null(items);
    mcei_heap_init(&h, item_less);
    rng_seed(7);
    for (size_t i = 0; i < N; i++) {
        items[i].key = rng_next() % 1000;
        assert_int_equal(mcei_heap_push(&h, &items[i]), MCE_OK);
        if (h.cap != lastcap) {
            grows++;
            lastcap = h.cap;
        }
        assert_true(h.cap >= h.count);
    }
    assert_int_equal(h.count, N);
    /* reallocated at least once after the first allocation */
    assert_true(grows >= 2);
    /* pops are non-decreasing and return every item once */
    uint32_t last = 0;
    size_t popped = 0;
    for (item_t *it; (it = mcei_heap_pop(&h)) != NULL; popped++) {
        assert_true(it->key >= last);
        last = it->key;
        assert_false(it->popped);
        it->popped = 1;
    }
    assert_int_equal(popped, N);
    mcei_heap_fini(&h);
    free(items);
}

/* Interleaved pushes and pops against a simple sorted-array model. */
static void test_heap_interleaved(void **state)
{
    (void)state;
    enum { OPS = 4000 };
    item_t *items = calloc(OPS, sizeof(*items));
    uint32_t *model = calloc(OPS, sizeof(*model));
    size_t nmodel = 0, nitems = 0;
    mcei_heap_t h;
    assert_non_null(items);
    assert_non_null(model);
    mcei_heap_init(&h, item_less);
    rng_seed(2024);
    for (size_t op = 0; op < OPS; op++) {
        if (rng_next() % 3 != 0 || nmodel == 0) {
            item_t *it = &items[nitems++];
            it->key = rng_next() % 500;
            assert_int_equal(mcei_heap_push(&h, it), MCE_OK);
            /* insert into the model keeping it sorted */
            size_t k = nmodel++;
            while (k > 0 && model[k - 1] > it->key) {
                model[k] = model[k - 1];
                k--;
            }
            model[k] = it->key;
        } else {
            item_t *it = mcei_heap_pop(&h);
            assert_non_null(it);
            assert_int_equal(it->key, model[0]);
            memmove(model, model + 1, (nmodel - 1) * sizeof(*model));
            nmodel--;
        }
        assert_int_equal(h.count, nmodel);
        if (nmodel)
            assert_int_equal(((item_t *)mcei_heap_top(&h))->key, model[0]);
        else
            assert_null(mcei_heap_top(&h));
    }
    mcei_heap_fini(&h);
    free(items);
    free(model);
}

/* The keyed heap: entries come back in lexicographic (k0, k1, k2) order,
 * each exactly once, with pushes and pops interleaved (keys drawn from
 * small ranges so that ties on k0 and k1 are common). */
static int cmp_kentry(const void *a, const void *b)
{
    const mcei_kentry_t *x = a, *y = b;
    return mcei_kentry_less(x, y) ? -1 : mcei_kentry_less(y, x) ? 1 : 0;
}

static void test_kheap_order(void **state)
{
    enum { N = 5000 };
    mcei_kentry_t *ref = malloc(N * sizeof(*ref)),
                  *out = malloc(N * sizeof(*out));
    int *seen = calloc(N, sizeof(*seen));
    mcei_kheap_t h;
    size_t nout = 0;
    (void)state;
    assert_non_null(ref);
    assert_non_null(out);
    assert_non_null(seen);
    rng_seed(7);
    mcei_kheap_init(&h);
    assert_null(mcei_kheap_top(&h));
    for (size_t i = 0; i < N; i++) {
        ref[i].k0 = rng_next() % 16;
        ref[i].k1 = rng_next() % 4;
        ref[i].k2 = rng_next();
        ref[i].item = &seen[i];
        assert_int_equal(
            mcei_kheap_push(&h, ref[i].k0, ref[i].k1, ref[i].k2, ref[i].item),
            MCE_OK);
    }
    while (h.count > 0) {
        const mcei_kentry_t *t = mcei_kheap_top(&h);
        out[nout++] = *t;
        (*(int *)t->item)++;
        mcei_kheap_pop(&h);
    }
    assert_int_equal(nout, N);
    qsort(ref, N, sizeof(*ref), cmp_kentry);
    for (size_t i = 0; i < N; i++) {
        assert_int_equal(out[i].k0, ref[i].k0);
        assert_int_equal(out[i].k1, ref[i].k1);
        assert_int_equal(out[i].k2, ref[i].k2);
        assert_int_equal(seen[i], 1);
    }
    mcei_kheap_fini(&h);
    free(ref);
    free(out);
    free(seen);
}

/* The run queue's heap: (t, id) order, every entry back once. */
static void test_rheap_order(void **state)
{
    enum { N = 5000 };
    mcei_rentry_t *ref = malloc(N * sizeof(*ref));
    int *seen = calloc(N, sizeof(*seen));
    mcei_rheap_t h;
    size_t k = 0;
    (void)state;
    assert_non_null(ref);
    assert_non_null(seen);
    rng_seed(11);
    mcei_rheap_init(&h);
    assert_null(mcei_rheap_top(&h));
    for (uint32_t i = 0; i < N; i++) {
        ref[i].t = rng_next() % 32;
        ref[i].id = rng_next() % 1000;
        ref[i].local = i;
        assert_int_equal(mcei_rheap_push(&h, ref[i].t, ref[i].id, i), MCE_OK);
        /* interleave: pop one after every third push */
        if (i % 3 == 2) {
            const mcei_rentry_t *t = mcei_rheap_top(&h);
            for (size_t j = 0; j < h.count; j++)
                assert_false(mcei_rentry_less(&h.e[j], t));
            seen[t->local]++;
            mcei_rheap_pop(&h);
            k++;
        }
    }
    {
        mcei_rentry_t prev = {0, 0, 0};
        int first = 1;
        while (h.count > 0) {
            mcei_rentry_t t = *mcei_rheap_top(&h);
            if (!first)
                assert_false(mcei_rentry_less(&t, &prev));
            prev = t;
            first = 0;
            seen[t.local]++;
            mcei_rheap_pop(&h);
            k++;
        }
    }
    assert_int_equal(k, N);
    for (size_t i = 0; i < N; i++)
        assert_int_equal(seen[i], 1);
    mcei_rheap_fini(&h);
    free(ref);
    free(seen);
}

/* The run queue (staged batches, sorted runs and the heap) against a
 * reference list: every pop is the smallest (t, id) queued, each entry
 * comes back once, whether batches arrive nearly sorted (a run) or
 * shuffled (the heap), with pushes between pops. */
static void runq_case(int shuffled)
{
    enum { N = 4000 };
    mcei_rentry_t *ref = malloc(N * sizeof(*ref));
    int *seen = calloc(N, sizeof(*seen));
    mcei_runq_t q;
    uint32_t next = 0;
    size_t k = 0, nref = 0;
    uint64_t base = 0;
    assert_non_null(ref);
    assert_non_null(seen);
    rng_seed(shuffled ? 5 : 9);
    mcei_runq_init(&q);
    assert_null(mcei_runq_top(&q));
    while (k < N) {
        uint32_t b = rng_next() % 40;
        for (uint32_t j = 0; j < b && next < N; j++, next++) {
            mcei_rentry_t e = {base + (shuffled ? rng_next() % 8 : j / 8),
                               /* unique, as node numbers are */
                               shuffled ? next * 7919u % N : next, next};
            ref[nref++] = e;
            assert_int_equal(mcei_runq_push(&q, e.t, e.id, e.local), MCE_OK);
        }
        for (uint32_t j = rng_next() % 50; j > 0; j--) {
            const mcei_rentry_t *t = mcei_runq_top(&q);
            size_t m = 0;
            if (t == NULL) {
                assert_int_equal(nref, 0);
                break;
            }
            for (size_t r = 1; r < nref; r++)
                if (mcei_rentry_less(&ref[r], &ref[m]))
                    m = r;
            assert_int_equal(t->local, ref[m].local);
            base = t->t;
            seen[t->local]++;
            ref[m] = ref[--nref];
            mcei_runq_pop(&q);
            k++;
        }
    }
    assert_int_equal(k, N);
    assert_null(mcei_runq_top(&q));
    for (size_t i = 0; i < N; i++)
        assert_int_equal(seen[i], 1);
    mcei_runq_fini(&q);
    free(ref);
    free(seen);
}

static void test_runq_sorted(void **state)
{
    (void)state;
    runq_case(0);
}

static void test_runq_shuffled(void **state)
{
    (void)state;
    runq_case(1);
}

/* The staged queue over the keyed heap, against a reference list. */
static void test_kq(void **state)
{
    enum { N = 3000 };
    mcei_kentry_t *ref = malloc(N * sizeof(*ref));
    mcei_kq_t q;
    uint64_t next = 0, base = 0;
    size_t k = 0, nref = 0;
    (void)state;
    assert_non_null(ref);
    rng_seed(3);
    mcei_kq_init(&q);
    assert_null(mcei_kq_top(&q));
    while (k < N) {
        uint32_t b = rng_next() % 30, shuffled = rng_next() % 2;
        for (uint32_t j = 0; j < b && next < N; j++, next++) {
            mcei_kentry_t e = {base + (shuffled ? rng_next() % 4 : j / 4),
                               shuffled ? rng_next() % 16 : j % 16, next, NULL};
            ref[nref++] = e;
            assert_int_equal(mcei_kq_push(&q, e.k0, e.k1, e.k2, NULL), MCE_OK);
        }
        assert_int_equal(mcei_kq_count(&q), nref);
        for (uint32_t j = rng_next() % 40; j > 0; j--) {
            const mcei_kentry_t *t = mcei_kq_top(&q);
            size_t m = 0;
            if (t == NULL) {
                assert_int_equal(nref, 0);
                break;
            }
            for (size_t r = 1; r < nref; r++)
                if (mcei_kentry_less(&ref[r], &ref[m]))
                    m = r;
            assert_int_equal(t->k2, ref[m].k2);
            base = t->k0;
            ref[m] = ref[--nref];
            mcei_kq_pop(&q);
            k++;
        }
    }
    assert_int_equal(k, N);
    assert_int_equal(mcei_kq_count(&q), 0);
    mcei_kq_fini(&q);
    free(ref);
}

/* The range set: what it answers and holds, against a page bitmap of the
 * same operations (no limit reached), then with a small limit. */
#define RPAGES 512
static void ranges_check(const mcei_ranges_t *s, const unsigned char *in)
{
    /* sorted, apart, and exactly the pages marked */
    unsigned char got[RPAGES] = {0};
    for (int i = 0; i < s->n; i++) {
        assert_true(s->r[2 * i] < s->r[2 * i + 1]);
        if (i > 0)
            assert_true(s->r[2 * i - 1] < s->r[2 * i]); /* not touching */
        for (uintptr_t p = s->r[2 * i]; p < s->r[2 * i + 1]; p++)
            got[p] = 1;
    }
    assert_memory_equal(got, in, RPAGES);
}

static void test_ranges_reference(void **state)
{
    (void)state;
    mcei_ranges_t s = {0};
    unsigned char in[RPAGES] = {0};
    uint64_t x = 12345;
    for (int step = 0; step < 20000; step++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        uintptr_t a = (uintptr_t)((x >> 33) % (RPAGES - 8));
        uintptr_t e = a + 1 + (uintptr_t)((x >> 20) % 8);
        int want = 1;
        for (uintptr_t p = a; p < e; p++)
            want &= in[p];
        /* within one range: all marked and no unmarked page between */
        int seen = mcei_ranges_seen(&s, a, e, 1 << 20);
        assert_int_equal(seen, want);
        for (uintptr_t p = a; p < e; p++)
            in[p] = 1;
        ranges_check(&s, in);
        if (step % 4000 == 3999) { /* start again */
            mcei_ranges_fini(&s);
            memset(in, 0, sizeof(in));
        }
    }
    mcei_ranges_fini(&s);
}

static void test_ranges_limit(void **state)
{
    (void)state;
    mcei_ranges_t s = {0};
    /* four ranges apart, gaps 10, 2, 5 */
    assert_int_equal(mcei_ranges_seen(&s, 0, 10, 4), 0);
    assert_int_equal(mcei_ranges_seen(&s, 20, 30, 4), 0);
    assert_int_equal(mcei_ranges_seen(&s, 32, 40, 4), 0);
    assert_int_equal(mcei_ranges_seen(&s, 45, 50, 4), 0);
    assert_int_equal(s.n, 4);
    assert_int_equal(mcei_ranges_seen(&s, 33, 35, 4), 1);
    /* touching ranges are one */
    assert_int_equal(mcei_ranges_seen(&s, 10, 12, 4), 0);
    assert_int_equal(s.n, 4);
    assert_int_equal(mcei_ranges_seen(&s, 5, 12, 4), 1);
    /* full: a fifth range merges the closest two (30..32) first */
    assert_int_equal(mcei_ranges_seen(&s, 60, 70, 4), 0);
    assert_int_equal(s.n, 4);
    assert_int_equal(mcei_ranges_seen(&s, 25, 35, 4), 1); /* the gap */
    assert_int_equal(mcei_ranges_seen(&s, 60, 70, 4), 1);
    /* a new range spanning several swallows them */
    assert_int_equal(mcei_ranges_seen(&s, 8, 65, 4), 0);
    assert_int_equal(s.n, 1);
    assert_int_equal(mcei_ranges_seen(&s, 0, 70, 4), 1);
    mcei_ranges_fini(&s);
    assert_int_equal(s.n, 0);
    assert_null(s.r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heap_empty),
        cmocka_unit_test(test_heap_random),
        cmocka_unit_test(test_heap_sorted_inputs),
        cmocka_unit_test(test_heap_duplicates),
        cmocka_unit_test(test_heap_growth),
        cmocka_unit_test(test_heap_interleaved),
        cmocka_unit_test(test_kheap_order),
        cmocka_unit_test(test_rheap_order),
        cmocka_unit_test(test_runq_sorted),
        cmocka_unit_test(test_runq_shuffled),
        cmocka_unit_test(test_kq),
        cmocka_unit_test(test_ranges_reference),
        cmocka_unit_test(test_ranges_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
