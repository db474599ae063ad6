/* Unit tests for the Vertex communication buffer pool
 * (lib/machines/ncube/pool.c).  Expected offsets are worked out by hand
 * from the policy of Mudge et al. 1987, section 2: first fit over the
 * address-ordered list, a free buffer exceeding the request by split_min
 * or more is split and the request carved from its far end, freed buffers
 * coalesce with free neighbours, waiting requests are served in FIFO
 * order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "mcei.h"

#include "../../lib/machines/ncube/pool.h"

#define SENTINEL 0xdeadbeefu

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
static uint32_t rng_below(uint32_t n)
{
    return rng_next() % n;
}

static void expect_stats(const mcei_ncube_pool_t *p, uint32_t free_bytes,
                         uint32_t largest, uint32_t free_blocks)
{
    uint32_t fb = SENTINEL, lg = SENTINEL, nb = SENTINEL;
    mcei_ncube_pool_stats(p, &fb, &lg, &nb);
    assert_int_equal(fb, free_bytes);
    assert_int_equal(lg, largest);
    assert_int_equal(nb, free_blocks);
}

static uint32_t alloc_ok(mcei_ncube_pool_t *p, uint32_t bytes)
{
    uint32_t off = SENTINEL;
    assert_int_equal(mcei_ncube_pool_alloc(p, bytes, &off), MCE_OK);
    assert_int_not_equal(off, SENTINEL);
    return off;
}

static void alloc_fails(mcei_ncube_pool_t *p, uint32_t bytes)
{
    uint32_t off = SENTINEL;
    assert_int_equal(mcei_ncube_pool_alloc(p, bytes, &off), MCE_ERR_RESOURCE);
    assert_int_equal(off, SENTINEL); /* untouched on failure */
}

static void no_grant(mcei_ncube_pool_t *p)
{
    void *cookie = &rng_state;
    uint32_t off = SENTINEL;
    assert_int_equal(mcei_ncube_pool_grant(p, &cookie, &off), 0);
    assert_ptr_equal(cookie, &rng_state); /* untouched */
    assert_int_equal(off, SENTINEL);
}

static void grant_ok(mcei_ncube_pool_t *p, void *want_cookie, uint32_t want_off)
{
    void *cookie = NULL;
    uint32_t off = SENTINEL;
    assert_int_equal(mcei_ncube_pool_grant(p, &cookie, &off), 1);
    assert_ptr_equal(cookie, want_cookie);
    assert_int_equal(off, want_off);
}

/* total 1000, split_min 32, header 16: the paper's configuration scaled to
 * a pool whose offsets are easy to compute. */
static void init_1000(mcei_ncube_pool_t *p)
{
    assert_int_equal(mcei_ncube_pool_init(p, 1000, 32, 16), MCE_OK);
}

/* Five allocations that fill the 1000-byte pool exactly:
 *   E [0,600)  D [600,700)  C [700,800)  B [800,900)  A [900,1000)
 * Each 84-byte request needs 100 bytes and is carved from the far end; the
 * last request (584 + 16 == 600) takes the remaining buffer whole. */
enum { E_OFF = 0, D_OFF = 600, C_OFF = 700, B_OFF = 800, A_OFF = 900 };
static void fill_five(mcei_ncube_pool_t *p)
{
    init_1000(p);
    assert_int_equal(alloc_ok(p, 84), A_OFF);
    assert_int_equal(alloc_ok(p, 84), B_OFF);
    assert_int_equal(alloc_ok(p, 84), C_OFF);
    assert_int_equal(alloc_ok(p, 84), D_OFF);
    expect_stats(p, 600, 584, 1);
    assert_int_equal(alloc_ok(p, 584), E_OFF);
    expect_stats(p, 0, 0, 0);
}

static void test_pool_init_args(void **state)
{
    (void)state;
    mcei_ncube_pool_t p;

    assert_int_equal(mcei_ncube_pool_init(&p, 0, 32, 16), MCE_ERR_INVAL);
    mcei_ncube_pool_fini(&p); /* safe after a failed init */
    assert_int_equal(mcei_ncube_pool_init(&p, 0, 32, 0), MCE_ERR_INVAL);
    mcei_ncube_pool_fini(&p);
    assert_int_equal(mcei_ncube_pool_init(&p, 16, 32, 16), MCE_ERR_INVAL);
    mcei_ncube_pool_fini(&p);
    assert_int_equal(mcei_ncube_pool_init(&p, 16, 32, 17), MCE_ERR_INVAL);
    mcei_ncube_pool_fini(&p);
    assert_int_equal(mcei_ncube_pool_init(&p, 100, 32, UINT32_MAX),
                     MCE_ERR_INVAL);
    mcei_ncube_pool_fini(&p);

    /* The smallest valid pool: one data byte behind the header. */
    assert_int_equal(mcei_ncube_pool_init(&p, 17, 32, 16), MCE_OK);
    expect_stats(&p, 17, 1, 1);
    assert_true(mcei_ncube_pool_fits(&p, 1));
    assert_false(mcei_ncube_pool_fits(&p, 2));
    assert_int_equal(alloc_ok(&p, 1), 0);
    expect_stats(&p, 0, 0, 0);
    mcei_ncube_pool_fini(&p);

    /* The pool begins as a single free buffer. */
    init_1000(&p);
    assert_int_equal(p.total, 1000);
    assert_int_equal(p.split_min, 32);
    assert_int_equal(p.header, 16);
    expect_stats(&p, 1000, 984, 1);
    assert_int_equal(mcei_ncube_pool_waiting(&p), 0);
    no_grant(&p);
    mcei_ncube_pool_fini(&p);

    /* Every buffer needs a header (distinct handles) and splits must leave
     * at least one byte. */
    assert_int_equal(mcei_ncube_pool_init(&p, 100, 32, 0), MCE_ERR_INVAL);
    mcei_ncube_pool_fini(&p);
    assert_int_equal(mcei_ncube_pool_init(&p, 100, 0, 16), MCE_ERR_INVAL);
    mcei_ncube_pool_fini(&p);
}

static void test_pool_fits(void **state)
{
    (void)state;
    mcei_ncube_pool_t p;
    init_1000(&p);
    assert_true(mcei_ncube_pool_fits(&p, 0));
    assert_true(mcei_ncube_pool_fits(&p, 984));
    assert_false(mcei_ncube_pool_fits(&p, 985));
    assert_false(mcei_ncube_pool_fits(&p, 1000));
    /* bytes + header must not wrap around. */
    assert_false(mcei_ncube_pool_fits(&p, UINT32_MAX));
    assert_false(mcei_ncube_pool_fits(&p, UINT32_MAX - 15));
    /* "Could ever fit": independent of what is allocated now. */
    assert_int_equal(alloc_ok(&p, 900), 1000 - 916);
    assert_true(mcei_ncube_pool_fits(&p, 984));
    alloc_fails(&p, 100);
    mcei_ncube_pool_fini(&p);
}

static void test_pool_alloc_split(void **state)
{
    (void)state;
    mcei_ncube_pool_t p;
    init_1000(&p);

    /* 100 + 16 bytes carved from the far end of [0,1000). */
    assert_int_equal(alloc_ok(&p, 100), 1000 - 116);
    expect_stats(&p, 884, 868, 1);
    /* The remaining free buffer is at the front: [0,884). */
    assert_int_equal(alloc_ok(&p, 200), 884 - 216);
    expect_stats(&p, 668, 652, 1);
    /* A zero-byte request still costs a header. */
    assert_int_equal(alloc_ok(&p, 0), 668 - 16);
    expect_stats(&p, 652, 636, 1);
    /* The rest exactly: no remainder, so handed out whole from offset 0. */
    assert_int_equal(alloc_ok(&p, 636), 0);
    expect_stats(&p, 0, 0, 0);
    alloc_fails(&p, 0);
    alloc_fails(&p, 1);
    alloc_fails(&p, 985);
    alloc_fails(&p, UINT32_MAX);
    assert_int_equal(p.allocs, 4);
    assert_int_equal(p.failures, 4);
    expect_stats(&p, 0, 0, 0);
    mcei_ncube_pool_fini(&p);
}

static void test_pool_split_threshold(void **state)
{
    (void)state;
    mcei_ncube_pool_t p;

    /* Excess 31 < 32: the whole buffer is handed out, nothing stays free. */
    init_1000(&p);
    assert_int_equal(alloc_ok(&p, 1000 - 16 - 31), 0);
    expect_stats(&p, 0, 0, 0);
    alloc_fails(&p, 0);
    /* ... and all 1000 bytes come back when it is freed. */
    assert_int_equal(mcei_ncube_pool_free(&p, 0), MCE_OK);
    expect_stats(&p, 1000, 984, 1);
    mcei_ncube_pool_fini(&p);

    /* Excess exactly 32: split; the request takes [32,1000). */
    init_1000(&p);
    assert_int_equal(alloc_ok(&p, 1000 - 16 - 32), 32);
    expect_stats(&p, 32, 16, 1);
    /* The 32-byte remainder holds 16 data bytes, handed out whole. */
    alloc_fails(&p, 17);
    assert_int_equal(alloc_ok(&p, 16), 0);
    expect_stats(&p, 0, 0, 0);
    mcei_ncube_pool_fini(&p);

    /* Excess 33: split as well. */
    init_1000(&p);
    assert_int_equal(alloc_ok(&p, 1000 - 16 - 33), 33);
    expect_stats(&p, 33, 17, 1);
    mcei_ncube_pool_fini(&p);

    /* The threshold applies to a buffer in the middle of the list too:
     * free C [700,800) and ask for 100 - 16 - 31 = 53 bytes (excess 31). */
    fill_five(&p);
    assert_int_equal(mcei_ncube_pool_free(&p, C_OFF), MCE_OK);
    assert_int_equal(alloc_ok(&p, 53), C_OFF);
    expect_stats(&p, 0, 0, 0);
    assert_int_equal(mcei_ncube_pool_free(&p, C_OFF), MCE_OK);
    expect_stats(&p, 100, 84, 1);
    /* ... excess 32: split, carved from the end: 800 - 68 = 732. */
    assert_int_equal(alloc_ok(&p, 52), 732);
    expect_stats(&p, 32, 16, 1);
    mcei_ncube_pool_fini(&p);

    /* A different threshold is honoured: split_min 100. */
    assert_int_equal(mcei_ncube_pool_init(&p, 1000, 100, 16), MCE_OK);
    assert_int_equal(alloc_ok(&p, 1000 - 16 - 99), 0);
    expect_stats(&p, 0, 0, 0);
    assert_int_equal(mcei_ncube_pool_free(&p, 0), MCE_OK);
    assert_int_equal(alloc_ok(&p, 1000 - 16 - 100), 100);
    expect_stats(&p, 100, 84, 1);
    mcei_ncube_pool_fini(&p);
}

static void test_pool_first_fit(void **state)
{
    (void)state;
    mcei_ncube_pool_t p;

    /* Free D [600,700) and B [800,900): two 100-byte buffers, C between.
     * 50 + 16 = 66 fits the first one (front of the list) with excess 34:
     * split, carved from its end: 700 - 66 = 634, not from B. */
    fill_five(&p);
    assert_int_equal(mcei_ncube_pool_free(&p, D_OFF), MCE_OK);
    assert_int_equal(mcei_ncube_pool_free(&p, B_OFF), MCE_OK);
    expect_stats(&p, 200, 84, 2);
    assert_int_equal(alloc_ok(&p, 50), 634);
    expect_stats(&p, 134, 84, 2);
    /* [600,634) is still first: 10 + 16 = 26 fits with excess 8, whole. */
    assert_int_equal(alloc_ok(&p, 10), 600);
    expect_stats(&p, 100, 84, 1);
    /* Only B is left. */
    assert_int_equal(alloc_ok(&p, 84), B_OFF);
    expect_stats(&p, 0, 0, 0);
    mcei_ncube_pool_fini(&p);

    /* First fit, not best fit: free E [0,600) and C [700,800); a 100-byte
     * buffer would fit C exactly, but E comes first: 600 - 100 = 500. */
    fill_five(&p);
    assert_int_equal(mcei_ncube_pool_free(&p, E_OFF), MCE_OK);
    assert_int_equal(mcei_ncube_pool_free(&p, C_OFF), MCE_OK);
    expect_stats(&p, 700, 584, 2);
    assert_int_equal(alloc_ok(&p, 84), 500);
    expect_stats(&p, 600, 484, 2);
    mcei_ncube_pool_fini(&p);

    /* Too-small buffers at the front are skipped: free D (100 bytes), then
     * B and A (coalesced to [800,1000), 200 bytes).  150 + 16 = 166 skips D
     * and is carved from the end of [800,1000): 834. */
    fill_five(&p);
    assert_int_equal(mcei_ncube_pool_free(&p, D_OFF), MCE_OK);
    assert_int_equal(mcei_ncube_pool_free(&p, B_OFF), MCE_OK);
    assert_int_equal(mcei_ncube_pool_free(&p, A_OFF), MCE_OK);
    expect_stats(&p, 300, 184, 2);
    assert_int_equal(alloc_ok(&p, 150), 834);
    expect_stats(&p, 134, 84, 2);
    /* D is still first and fits 84 + 16 exactly. */
    assert_int_equal(alloc_ok(&p, 84), D_OFF);
    expect_stats(&p, 34, 18, 1);
    assert_int_equal(alloc_ok(&p, 18), B_OFF);
    expect_stats(&p, 0, 0, 0);
    mcei_ncube_pool_fini(&p);
}

static void test_pool_coalesce_next(void **state)
{
    (void)state;
    mcei_ncube_pool_t p;
    fill_five(&p);
    assert_int_equal(mcei_ncube_pool_free(&p, C_OFF), MCE_OK);
    expect_stats(&p, 100, 84, 1);
    /* D's next neighbour C is free: one buffer [600,800). */
    assert_int_equal(mcei_ncube_pool_free(&p, D_OFF), MCE_OK);
    expect_stats(&p, 200, 184, 1);
    /* C is no longer a buffer of its own. */
    assert_int_equal(mcei_ncube_pool_free(&p, C_OFF), MCE_ERR_INVAL);
    /* The merged buffer is usable as a whole from its start. */
    assert_int_equal(alloc_ok(&p, 184), D_OFF);
    expect_stats(&p, 0, 0, 0);
    mcei_ncube_pool_fini(&p);

    /* The head of the list merging with its next neighbour. */
    fill_five(&p);
    assert_int_equal(mcei_ncube_pool_free(&p, D_OFF), MCE_OK);
    assert_int_equal(mcei_ncube_pool_free(&p, E_OFF), MCE_OK);
    expect_stats(&p, 700, 684, 1);
    assert_int_equal(alloc_ok(&p, 684), E_OFF);
    mcei_ncube_pool_fini(&p);
}

static void test_pool_coalesce_prev(void **state)
{
    (void)state;
    mcei_ncube_pool_t p;
    fill_five(&p);
    assert_int_equal(mcei_ncube_pool_free(&p, C_OFF), MCE_OK);
    /* B's previous neighbour C is free: one buffer [700,900). */
    assert_int_equal(mcei_ncube_pool_free(&p, B_OFF), MCE_OK);
    expect_stats(&p, 200, 184, 1);
    assert_int_equal(mcei_ncube_pool_free(&p, B_OFF), MCE_ERR_INVAL);
    assert_int_equal(alloc_ok(&p, 184), C_OFF);
    expect_stats(&p, 0, 0, 0);
    mcei_ncube_pool_fini(&p);

    /* The tail of the list merging with its previous neighbour. */
    fill_five(&p);
    assert_int_equal(mcei_ncube_pool_free(&p, B_OFF), MCE_OK);
    assert_int_equal(mcei_ncube_pool_free(&p, A_OFF), MCE_OK);
    expect_stats(&p, 200, 184, 1);
    assert_int_equal(mcei_ncube_pool_free(&p, A_OFF), MCE_ERR_INVAL);
    assert_int_equal(alloc_ok(&p, 184), B_OFF);
    mcei_ncube_pool_fini(&p);
}

static void test_pool_coalesce_both(void **state)
{
    (void)state;
    mcei_ncube_pool_t p;
    fill_five(&p);
    assert_int_equal(mcei_ncube_pool_free(&p, D_OFF), MCE_OK);
    assert_int_equal(mcei_ncube_pool_free(&p, B_OFF), MCE_OK);
    expect_stats(&p, 200, 84, 2);
    /* C joins D before it and B after it: one buffer [600,900). */
    assert_int_equal(mcei_ncube_pool_free(&p, C_OFF), MCE_OK);
    expect_stats(&p, 300, 284, 1);
    assert_int_equal(mcei_ncube_pool_free(&p, C_OFF), MCE_ERR_INVAL);
    assert_int_equal(mcei_ncube_pool_free(&p, B_OFF), MCE_ERR_INVAL);
    /* Both outer neighbours of the merged buffer are still allocated. */
    assert_int_equal(alloc_ok(&p, 284), D_OFF);
    expect_stats(&p, 0, 0, 0);
    /* Free everything in a scrambled order: back to one 1000-byte buffer. */
    assert_int_equal(mcei_ncube_pool_free(&p, A_OFF), MCE_OK);
    assert_int_equal(mcei_ncube_pool_free(&p, E_OFF), MCE_OK);
    expect_stats(&p, 700, 584, 2);
    assert_int_equal(mcei_ncube_pool_free(&p, D_OFF), MCE_OK);
    expect_stats(&p, 1000, 984, 1);
    assert_int_equal(p.frees, 6);
    assert_int_equal(alloc_ok(&p, 984), 0);
    mcei_ncube_pool_fini(&p);
}

static void test_pool_free_invalid(void **state)
{
    (void)state;
    mcei_ncube_pool_t p;
    init_1000(&p);
    /* The initial free buffer is not allocated. */
    assert_int_equal(mcei_ncube_pool_free(&p, 0), MCE_ERR_INVAL);
    uint32_t a = alloc_ok(&p, 100); /* 884 */
    assert_int_equal(a, 884);
    assert_int_equal(mcei_ncube_pool_free(&p, 0), MCE_ERR_INVAL);
    assert_int_equal(mcei_ncube_pool_free(&p, a + 1), MCE_ERR_INVAL);
    assert_int_equal(mcei_ncube_pool_free(&p, a - 1), MCE_ERR_INVAL);
    assert_int_equal(mcei_ncube_pool_free(&p, a + 16), MCE_ERR_INVAL);
    assert_int_equal(mcei_ncube_pool_free(&p, 1000), MCE_ERR_INVAL);
    assert_int_equal(mcei_ncube_pool_free(&p, 5000), MCE_ERR_INVAL);
    assert_int_equal(mcei_ncube_pool_free(&p, UINT32_MAX), MCE_ERR_INVAL);
    /* Nothing changed. */
    expect_stats(&p, 884, 868, 1);
    assert_int_equal(p.frees, 0);
    assert_int_equal(mcei_ncube_pool_free(&p, a), MCE_OK);
    expect_stats(&p, 1000, 984, 1);
    /* Freeing twice. */
    assert_int_equal(mcei_ncube_pool_free(&p, a), MCE_ERR_INVAL);
    assert_int_equal(p.frees, 1);
    expect_stats(&p, 1000, 984, 1);
    mcei_ncube_pool_fini(&p);

    /* Freeing twice where the buffer was not merged away. */
    fill_five(&p);
    assert_int_equal(mcei_ncube_pool_free(&p, C_OFF), MCE_OK);
    assert_int_equal(mcei_ncube_pool_free(&p, C_OFF), MCE_ERR_INVAL);
    expect_stats(&p, 100, 84, 1);
    mcei_ncube_pool_fini(&p);
}

static void test_pool_fragmentation(void **state)
{
    (void)state;
    mcei_ncube_pool_t p;
    uint32_t off[10];
    init_1000(&p);
    /* Ten 100-byte buffers: 900, 800, ..., 100, then 0 taken whole. */
    for (int i = 0; i < 10; i++) {
        off[i] = alloc_ok(&p, 84);
        assert_int_equal(off[i], 900 - 100 * i);
    }
    expect_stats(&p, 0, 0, 0);
    /* Free every other one: 900, 700, 500, 300, 100. */
    for (int i = 0; i < 10; i += 2)
        assert_int_equal(mcei_ncube_pool_free(&p, off[i]), MCE_OK);
    expect_stats(&p, 500, 84, 5);
    /* 500 bytes are free, but no single buffer holds 200 + 16. */
    assert_true(mcei_ncube_pool_fits(&p, 200));
    alloc_fails(&p, 200);
    alloc_fails(&p, 85);
    expect_stats(&p, 500, 84, 5);
    /* Freeing 800 merges [700,1000); now 216 is carved from its end. */
    assert_int_equal(mcei_ncube_pool_free(&p, off[1]), MCE_OK);
    expect_stats(&p, 600, 284, 4);
    assert_int_equal(alloc_ok(&p, 200), 1000 - 216);
    expect_stats(&p, 384, 84, 4);
    mcei_ncube_pool_fini(&p);
}

static void test_pool_wait_fifo(void **state)
{
    (void)state;
    mcei_ncube_pool_t p;
    int c1, c2, c3;
    fill_five(&p);
    assert_int_equal(mcei_ncube_pool_wait(&p, 84, &c1), MCE_OK);
    assert_int_equal(mcei_ncube_pool_wait(&p, 84, &c2), MCE_OK);
    assert_int_equal(mcei_ncube_pool_wait(&p, 84, &c3), MCE_OK);
    assert_int_equal(mcei_ncube_pool_waiting(&p), 3);
    assert_int_equal(p.waits, 3);
    /* Nothing free: no grant, nothing dequeued, not a new failure. */
    uint64_t failures = p.failures;
    no_grant(&p);
    assert_int_equal(mcei_ncube_pool_waiting(&p), 3);
    assert_int_equal(p.failures, failures);

    /* One buffer back: the oldest request gets exactly that buffer. */
    assert_int_equal(mcei_ncube_pool_free(&p, C_OFF), MCE_OK);
    grant_ok(&p, &c1, C_OFF);
    assert_int_equal(mcei_ncube_pool_waiting(&p), 2);
    expect_stats(&p, 0, 0, 0);
    no_grant(&p);
    assert_int_equal(mcei_ncube_pool_waiting(&p), 2);

    assert_int_equal(mcei_ncube_pool_free(&p, A_OFF), MCE_OK);
    assert_int_equal(mcei_ncube_pool_free(&p, D_OFF), MCE_OK);
    /* Two separate 100-byte buffers; first fit gives D to c2, A to c3. */
    grant_ok(&p, &c2, D_OFF);
    grant_ok(&p, &c3, A_OFF);
    assert_int_equal(mcei_ncube_pool_waiting(&p), 0);
    no_grant(&p);
    expect_stats(&p, 0, 0, 0);
    /* The granted buffers are real allocations. */
    assert_int_equal(mcei_ncube_pool_free(&p, D_OFF), MCE_OK);
    assert_int_equal(mcei_ncube_pool_free(&p, D_OFF), MCE_ERR_INVAL);
    mcei_ncube_pool_fini(&p);
}

static void test_pool_wait_no_overtaking(void **state)
{
    (void)state;
    mcei_ncube_pool_t p;
    int big, small;
    fill_five(&p);
    /* The head needs 300 + 16; the one behind it only 10 + 16. */
    assert_int_equal(mcei_ncube_pool_wait(&p, 300, &big), MCE_OK);
    assert_int_equal(mcei_ncube_pool_wait(&p, 10, &small), MCE_OK);
    assert_int_equal(mcei_ncube_pool_free(&p, A_OFF), MCE_OK);
    /* 100 free bytes would serve the small request, but it may not
     * overtake the head. */
    no_grant(&p);
    assert_int_equal(mcei_ncube_pool_waiting(&p), 2);
    expect_stats(&p, 100, 84, 1);
    assert_int_equal(mcei_ncube_pool_free(&p, C_OFF), MCE_OK);
    no_grant(&p);
    expect_stats(&p, 200, 84, 2);
    /* B joins C and A: [700,1000) is 300 bytes, the head needs 316. */
    assert_int_equal(mcei_ncube_pool_free(&p, B_OFF), MCE_OK);
    expect_stats(&p, 300, 284, 1);
    no_grant(&p);
    assert_int_equal(mcei_ncube_pool_waiting(&p), 2);
    /* D joins too: [600,1000), 400 bytes; 316 carved from the end: 684. */
    assert_int_equal(mcei_ncube_pool_free(&p, D_OFF), MCE_OK);
    grant_ok(&p, &big, 684);
    assert_int_equal(mcei_ncube_pool_waiting(&p), 1);
    /* [600,684) is 84 bytes: 26 needed, excess 58 -> 684 - 26 = 658. */
    grant_ok(&p, &small, 658);
    assert_int_equal(mcei_ncube_pool_waiting(&p), 0);
    expect_stats(&p, 58, 42, 1);
    mcei_ncube_pool_fini(&p);
}

static void test_pool_grant_several(void **state)
{
    (void)state;
    mcei_ncube_pool_t p;
    int c[5];
    init_1000(&p);
    assert_int_equal(alloc_ok(&p, 984), 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(mcei_ncube_pool_wait(&p, 100, &c[i]), MCE_OK);
    assert_int_equal(mcei_ncube_pool_wait(&p, 600, &c[4]), MCE_OK);
    no_grant(&p);

    /* One big free serves the first four (116 bytes each, carved from the
     * end), the fifth (616) no longer fits in the 536 left. */
    assert_int_equal(mcei_ncube_pool_free(&p, 0), MCE_OK);
    grant_ok(&p, &c[0], 884);
    grant_ok(&p, &c[1], 768);
    grant_ok(&p, &c[2], 652);
    grant_ok(&p, &c[3], 536);
    no_grant(&p);
    assert_int_equal(mcei_ncube_pool_waiting(&p), 1);
    expect_stats(&p, 536, 520, 1);

    /* Fragmented: [0,536) and then [652,1000); neither holds 616. */
    assert_int_equal(mcei_ncube_pool_free(&p, 884), MCE_OK);
    no_grant(&p);
    assert_int_equal(mcei_ncube_pool_free(&p, 768), MCE_OK);
    no_grant(&p);
    assert_int_equal(mcei_ncube_pool_free(&p, 652), MCE_OK);
    expect_stats(&p, 884, 520, 2);
    no_grant(&p);
    /* The last free merges everything. */
    assert_int_equal(mcei_ncube_pool_free(&p, 536), MCE_OK);
    expect_stats(&p, 1000, 984, 1);
    grant_ok(&p, &c[4], 1000 - 616);
    assert_int_equal(mcei_ncube_pool_waiting(&p), 0);
    no_grant(&p);
    mcei_ncube_pool_fini(&p);
}

/* FIFO order survives the wait queue wrapping around and growing. */
static void test_pool_wait_wraparound(void **state)
{
    (void)state;
    mcei_ncube_pool_t p;
    int c[18];
    init_1000(&p);
    assert_int_equal(alloc_ok(&p, 984), 0);
    for (int i = 0; i < 6; i++)
        assert_int_equal(mcei_ncube_pool_wait(&p, 84, &c[i]), MCE_OK);
    assert_int_equal(mcei_ncube_pool_free(&p, 0), MCE_OK);
    for (int i = 0; i < 6; i++)
        grant_ok(&p, &c[i], (uint32_t)(900 - 100 * i));
    assert_int_equal(mcei_ncube_pool_waiting(&p), 0);
    /* [0,400) left; take it whole. */
    assert_int_equal(alloc_ok(&p, 384), 0);
    for (int i = 6; i < 18; i++) {
        assert_int_equal(mcei_ncube_pool_wait(&p, 84, &c[i]), MCE_OK);
        no_grant(&p);
    }
    assert_int_equal(mcei_ncube_pool_waiting(&p), 12);
    /* Each freed 100-byte buffer goes whole to the next request. */
    for (int i = 6; i < 12; i++) {
        uint32_t off = (uint32_t)(900 - 100 * (i - 6));
        assert_int_equal(mcei_ncube_pool_free(&p, off), MCE_OK);
        grant_ok(&p, &c[i], off);
        no_grant(&p);
    }
    /* Freeing [0,400) serves four more from its end. */
    assert_int_equal(mcei_ncube_pool_free(&p, 0), MCE_OK);
    grant_ok(&p, &c[12], 300);
    grant_ok(&p, &c[13], 200);
    grant_ok(&p, &c[14], 100);
    grant_ok(&p, &c[15], 0);
    no_grant(&p);
    assert_int_equal(mcei_ncube_pool_waiting(&p), 2);
    assert_int_equal(mcei_ncube_pool_free(&p, 500), MCE_OK);
    grant_ok(&p, &c[16], 500);
    assert_int_equal(mcei_ncube_pool_free(&p, 300), MCE_OK);
    grant_ok(&p, &c[17], 300);
    assert_int_equal(mcei_ncube_pool_waiting(&p), 0);
    assert_int_equal(p.waits, 18);
    mcei_ncube_pool_fini(&p);
}

/* ---- Randomized comparison with a byte-map reference model. ---- */

/* owner[b] is 0 for a free byte, else 1 + the index of the live buffer. */
typedef struct ref {
    uint32_t total, split_min, header;
    uint32_t *owner;
    uint32_t *loff, *lsize; /* live buffers: handle and size incl. header */
    size_t nlive;
    uint32_t *wsize; /* waiting requests, FIFO */
    size_t whead, nwait;
} ref_t;

/* The reference allocator: maximal free runs of the byte map are the free
 * buffers (coalescing is complete), scanned from address 0. */
static int ref_alloc(const ref_t *r, uint32_t bytes, uint32_t *off,
                     uint32_t *size, int *split)
{
    uint64_t n = (uint64_t)bytes + r->header;
    uint32_t b = 0;
    while (b < r->total) {
        if (r->owner[b]) {
            b++;
            continue;
        }
        uint32_t e = b;
        while (e < r->total && !r->owner[e])
            e++;
        uint32_t len = e - b;
        if (len >= n) {
            if (len - n >= r->split_min) {
                *off = e - (uint32_t)n;
                *size = (uint32_t)n;
                *split = 1;
            } else {
                *off = b;
                *size = len;
                *split = 0;
            }
            return 1;
        }
        b = e;
    }
    return 0;
}

static void ref_take(ref_t *r, uint32_t off, uint32_t size)
{
    /* Inside the pool, and overlapping no live buffer. */
    assert_true((uint64_t)off + size <= r->total);
    assert_true(size > 0);
    for (uint32_t b = off; b < off + size; b++) {
        assert_int_equal(r->owner[b], 0);
        r->owner[b] = (uint32_t)r->nlive + 1;
    }
    r->loff[r->nlive] = off;
    r->lsize[r->nlive] = size;
    r->nlive++;
}

static void ref_release(ref_t *r, size_t i)
{
    for (uint32_t b = r->loff[i]; b < r->loff[i] + r->lsize[i]; b++)
        r->owner[b] = 0;
    r->nlive--;
    if (i != r->nlive) {
        r->loff[i] = r->loff[r->nlive];
        r->lsize[i] = r->lsize[r->nlive];
        for (uint32_t b = r->loff[i]; b < r->loff[i] + r->lsize[i]; b++)
            r->owner[b] = (uint32_t)i + 1;
    }
}

static int ref_is_live(const ref_t *r, uint32_t off)
{
    for (size_t i = 0; i < r->nlive; i++)
        if (r->loff[i] == off)
            return 1;
    return 0;
}

static void ref_check(const ref_t *r, const mcei_ncube_pool_t *p)
{
    uint32_t fb = 0, lg = 0, nb = 0;
    uint64_t live = 0;
    for (uint32_t b = 0; b < r->total;) {
        if (r->owner[b]) {
            b++;
            continue;
        }
        uint32_t e = b;
        while (e < r->total && !r->owner[e])
            e++;
        fb += e - b;
        nb++;
        if (e - b > lg)
            lg = e - b;
        b = e;
    }
    for (size_t i = 0; i < r->nlive; i++)
        live += r->lsize[i];
    assert_int_equal(fb + live, r->total);
    expect_stats(p, fb, lg > r->header ? lg - r->header : 0, nb);
    assert_int_equal(mcei_ncube_pool_waiting(p), r->nwait);
}

static void stress(uint32_t total, uint32_t split_min, uint32_t header,
                   uint64_t seed, int steps)
{
    mcei_ncube_pool_t p;
    ref_t r = {.total = total, .split_min = split_min, .header = header};
    /* Every live buffer has at least one byte. */
    size_t maxlive = total;
    size_t maxwait = (size_t)steps + 1;
    uint32_t *cookies = malloc(maxwait * sizeof(*cookies));
    r.owner = calloc(total, sizeof(*r.owner));
    r.loff = malloc(maxlive * sizeof(*r.loff));
    r.lsize = malloc(maxlive * sizeof(*r.lsize));
    r.wsize = malloc(maxwait * sizeof(*r.wsize));
    assert_non_null(cookies);
    assert_non_null(r.owner);
    assert_non_null(r.loff);
    assert_non_null(r.lsize);
    assert_non_null(r.wsize);
    size_t nextcookie = 0;
    uint32_t maxreq = total / 6;
    int grants = 0, splits = 0, wholes = 0, waits = 0, fails = 0;

    rng_seed(seed);
    assert_int_equal(mcei_ncube_pool_init(&p, total, split_min, header),
                     MCE_OK);
    ref_check(&r, &p);
    for (int step = 0; step < steps; step++) {
        uint32_t op = rng_below(100);
        if (op < 50) {
            /* Allocate; on failure queue the request now and then. */
            uint32_t bytes = rng_below(maxreq + 1);
            uint32_t eoff, esize, off = SENTINEL;
            int split;
            int ok = ref_alloc(&r, bytes, &eoff, &esize, &split);
            int rc = mcei_ncube_pool_alloc(&p, bytes, &off);
            if (ok) {
                assert_int_equal(rc, MCE_OK);
                assert_int_equal(off, eoff);
                ref_take(&r, off, esize);
                if (split)
                    splits++;
                else if (esize > bytes + header)
                    wholes++; /* handed out whole with some slack */
            } else {
                assert_int_equal(rc, MCE_ERR_RESOURCE);
                assert_int_equal(off, SENTINEL);
                fails++;
                if (rng_below(4) == 0) {
                    assert_int_equal(
                        mcei_ncube_pool_wait(&p, bytes, &cookies[nextcookie]),
                        MCE_OK);
                    cookies[nextcookie] = (uint32_t)nextcookie;
                    r.wsize[(r.whead + r.nwait) % maxwait] = bytes;
                    r.nwait++;
                    nextcookie++;
                    waits++;
                }
            }
        } else if (op < 90 && r.nlive > 0) {
            /* Free a live buffer, then serve waiting requests in order. */
            size_t i = rng_below((uint32_t)r.nlive);
            assert_int_equal(mcei_ncube_pool_free(&p, r.loff[i]), MCE_OK);
            uint32_t freed = r.loff[i];
            ref_release(&r, i);
            if (rng_below(8) == 0 && !ref_is_live(&r, freed))
                assert_int_equal(mcei_ncube_pool_free(&p, freed),
                                 MCE_ERR_INVAL);
            for (;;) {
                void *cookie = NULL;
                uint32_t off = SENTINEL, eoff, esize;
                int split;
                int expect = r.nwait > 0 && ref_alloc(&r, r.wsize[r.whead],
                                                      &eoff, &esize, &split);
                int got = mcei_ncube_pool_grant(&p, &cookie, &off);
                assert_int_equal(got, expect);
                if (!got) {
                    assert_int_equal(off, SENTINEL);
                    break;
                }
                assert_int_equal(off, eoff);
                assert_non_null(cookie);
                /* The cookie of the oldest request: its index equals the
                 * number of requests ever dequeued. */
                size_t want = nextcookie - r.nwait;
                assert_ptr_equal(cookie, &cookies[want]);
                ref_take(&r, off, esize);
                r.whead = (r.whead + 1) % maxwait;
                r.nwait--;
                grants++;
            }
        } else {
            /* Free something that is not a live handle. */
            uint32_t off = rng_below(total + 64);
            if (!ref_is_live(&r, off))
                assert_int_equal(mcei_ncube_pool_free(&p, off), MCE_ERR_INVAL);
        }
        ref_check(&r, &p);
    }
    /* The run exercised every path. */
    assert_true(grants > 0);
    assert_true(splits > 0);
    if (split_min > 1)
        assert_true(wholes > 0);
    assert_true(waits > 0);
    assert_true(fails > 0);

    /* Drain: free everything; the pool is one buffer again. */
    while (r.nlive > 0) {
        assert_int_equal(mcei_ncube_pool_free(&p, r.loff[r.nlive - 1]), MCE_OK);
        ref_release(&r, r.nlive - 1);
    }
    r.nwait = 0; /* still-waiting requests go away with the pool */
    expect_stats(&p, total, total - header, 1);

    mcei_ncube_pool_fini(&p);
    free(r.owner);
    free(r.loff);
    free(r.lsize);
    free(r.wsize);
    free(cookies);
}

static void test_pool_stress_paper(void **state)
{
    (void)state;
    stress(4096, 32, 16, 0x5eed0001ULL, 20000);
}

static void test_pool_stress_small(void **state)
{
    (void)state;
    stress(700, 8, 4, 0x5eed0002ULL, 20000);
}

static void test_pool_stress_tight(void **state)
{
    (void)state;
    stress(300, 1, 2, 0x5eed0003ULL, 20000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pool_init_args),
        cmocka_unit_test(test_pool_fits),
        cmocka_unit_test(test_pool_alloc_split),
        cmocka_unit_test(test_pool_split_threshold),
        cmocka_unit_test(test_pool_first_fit),
        cmocka_unit_test(test_pool_coalesce_next),
        cmocka_unit_test(test_pool_coalesce_prev),
        cmocka_unit_test(test_pool_coalesce_both),
        cmocka_unit_test(test_pool_free_invalid),
        cmocka_unit_test(test_pool_fragmentation),
        cmocka_unit_test(test_pool_wait_fifo),
        cmocka_unit_test(test_pool_wait_no_overtaking),
        cmocka_unit_test(test_pool_grant_several),
        cmocka_unit_test(test_pool_wait_wraparound),
        cmocka_unit_test(test_pool_stress_paper),
        cmocka_unit_test(test_pool_stress_small),
        cmocka_unit_test(test_pool_stress_tight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
