/* Unit tests for the placement of virtual nodes on ranks
 * (lib/core/place.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "place.h"

typedef struct np {
    int nodes, ranks;
} np_t;

/* Hand-picked shapes: N == P, N == P + 1, prime N, one rank, many ranks. */
static const np_t special[] = {
    {1, 1},   {2, 2},      {7, 7},   {64, 64},   {2, 1},     {8, 7},
    {65, 64}, {1000, 999}, {97, 2},  {97, 3},    {97, 7},    {97, 10},
    {97, 96}, {97, 97},    {101, 4}, {101, 100}, {1009, 16}, {1009, 1000},
    {13, 5},  {12, 5},     {10, 3},  {1024, 1},  {1024, 3},  {4096, 64},
};

/* Checks common to both policies. */
static void check_consistent(const mcei_place_t *p)
{
    int n = p->nodes, r = p->ranks, total = 0;
    char *seen = calloc((size_t)n, 1);
    assert_non_null(seen);
    for (int rank = 0; rank < r; rank++) {
        int c = mcei_place_count(p, rank);
        assert_true(c >= 1); /* nodes >= ranks: nobody is idle */
        total += c;
        for (int i = 0; i < c; i++) {
            int node = mcei_place_node(p, rank, i);
            assert_in_range(node, 0, n - 1);
            assert_false(seen[node]);
            seen[node] = 1;
            assert_int_equal(mcei_place_rank_of(p, node), rank);
            assert_int_equal(mcei_place_local_index(p, node), i);
            /* increasing id order within a rank */
            if (i > 0)
                assert_true(node > mcei_place_node(p, rank, i - 1));
        }
    }
    assert_int_equal(total, n);
    for (int node = 0; node < n; node++) {
        int rank = mcei_place_rank_of(p, node);
        int li = mcei_place_local_index(p, node);
        assert_true(seen[node]);
        assert_in_range(rank, 0, r - 1);
        assert_in_range(li, 0, mcei_place_count(p, rank) - 1);
        assert_int_equal(mcei_place_node(p, rank, li), node);
    }
    free(seen);
}

static void check_block(const mcei_place_t *p)
{
    int n = p->nodes, r = p->ranks, minc = n + 1, maxc = 0, next = 0;
    for (int rank = 0; rank < r; rank++) {
        int c = mcei_place_count(p, rank);
        /* contiguous ranges in rank order, starting where the previous one
         * ended */
        assert_int_equal(mcei_place_node(p, rank, 0), next);
        for (int i = 0; i < c; i++)
            assert_int_equal(mcei_place_node(p, rank, i), next + i);
        next += c;
        if (c < minc)
            minc = c;
        if (c > maxc)
            maxc = c;
        /* the bigger ranges come first */
        if (rank > 0)
            assert_true(c <= mcei_place_count(p, rank - 1));
    }
    assert_int_equal(next, n);
    assert_true(maxc - minc <= 1);
    /* sizes: floor(n/r) or ceil(n/r), with exactly n mod r big ones */
    int big = 0;
    for (int rank = 0; rank < r; rank++)
        if (mcei_place_count(p, rank) * r > n)
            big++;
    assert_int_equal(big, n % r);
    /* rank_of is monotone in the node id */
    for (int node = 1; node < n; node++)
        assert_true(mcei_place_rank_of(p, node) >=
                    mcei_place_rank_of(p, node - 1));
}

static void check_cyclic(const mcei_place_t *p)
{
    int n = p->nodes, r = p->ranks;
    /* deal the nodes out one by one like cards and compare */
    int *dealt = calloc((size_t)r, sizeof(int));
    assert_non_null(dealt);
    for (int node = 0, rank = 0; node < n; node++) {
        assert_int_equal(mcei_place_rank_of(p, node), rank);
        assert_int_equal(mcei_place_local_index(p, node), dealt[rank]);
        assert_int_equal(mcei_place_node(p, rank, dealt[rank]), node);
        dealt[rank]++;
        rank = rank + 1 == r ? 0 : rank + 1;
    }
    for (int rank = 0; rank < r; rank++)
        assert_int_equal(mcei_place_count(p, rank), dealt[rank]);
    free(dealt);
}

static void run_shape(int nodes, int ranks, mcei_placement_t policy)
{
    mcei_place_t p;
    memset(&p, 0xa5, sizeof(p));
    assert_int_equal(mcei_place_init(&p, nodes, ranks, policy), MCE_OK);
    assert_int_equal(p.nodes, nodes);
    assert_int_equal(p.ranks, ranks);
    assert_int_equal(p.policy, policy);
    check_consistent(&p);
    if (policy == MCEI_PLACE_BLOCK)
        check_block(&p);
    else
        check_cyclic(&p);
}

static void run_all(mcei_placement_t policy)
{
    for (int n = 1; n <= 80; n++)
        for (int r = 1; r <= n; r++)
            run_shape(n, r, policy);
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(special); i++)
        run_shape(special[i].nodes, special[i].ranks, policy);
}

static void test_place_block(void **state)
{
    (void)state;
    run_all(MCEI_PLACE_BLOCK);
}

static void test_place_cyclic(void **state)
{
    (void)state;
    run_all(MCEI_PLACE_CYCLIC);
}

/* A few layouts spelled out by hand. */
static void test_place_examples(void **state)
{
    (void)state;
    mcei_place_t p;
    /* block, 10 nodes on 4 ranks: 3 3 2 2 -> {0,1,2} {3,4,5} {6,7} {8,9} */
    static const int block_rank[10] = {0, 0, 0, 1, 1, 1, 2, 2, 3, 3};
    static const int block_idx[10] = {0, 1, 2, 0, 1, 2, 0, 1, 0, 1};
    assert_int_equal(mcei_place_init(&p, 10, 4, MCEI_PLACE_BLOCK), MCE_OK);
    for (int node = 0; node < 10; node++) {
        assert_int_equal(mcei_place_rank_of(&p, node), block_rank[node]);
        assert_int_equal(mcei_place_local_index(&p, node), block_idx[node]);
    }
    assert_int_equal(mcei_place_count(&p, 0), 3);
    assert_int_equal(mcei_place_count(&p, 1), 3);
    assert_int_equal(mcei_place_count(&p, 2), 2);
    assert_int_equal(mcei_place_count(&p, 3), 2);
    assert_int_equal(mcei_place_node(&p, 2, 1), 7);
    assert_int_equal(mcei_place_node(&p, 3, 0), 8);

    /* cyclic, 10 nodes on 4 ranks: {0,4,8} {1,5,9} {2,6} {3,7} */
    assert_int_equal(mcei_place_init(&p, 10, 4, MCEI_PLACE_CYCLIC), MCE_OK);
    static const int cyc_rank[10] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1};
    static const int cyc_idx[10] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2};
    for (int node = 0; node < 10; node++) {
        assert_int_equal(mcei_place_rank_of(&p, node), cyc_rank[node]);
        assert_int_equal(mcei_place_local_index(&p, node), cyc_idx[node]);
    }
    assert_int_equal(mcei_place_count(&p, 1), 3);
    assert_int_equal(mcei_place_count(&p, 2), 2);
    assert_int_equal(mcei_place_node(&p, 1, 2), 9);
    assert_int_equal(mcei_place_node(&p, 3, 1), 7);

    /* N == P: one node per rank, node i on rank i, both policies */
    for (int pol = MCEI_PLACE_BLOCK; pol <= MCEI_PLACE_CYCLIC; pol++) {
        assert_int_equal(mcei_place_init(&p, 9, 9, (mcei_placement_t)pol),
                         MCE_OK);
        for (int node = 0; node < 9; node++) {
            assert_int_equal(mcei_place_rank_of(&p, node), node);
            assert_int_equal(mcei_place_local_index(&p, node), 0);
            assert_int_equal(mcei_place_count(&p, node), 1);
            assert_int_equal(mcei_place_node(&p, node, 0), node);
        }
    }
    /* N == P + 1: rank 0 gets two nodes; block {0,1}, cyclic {0,P} */
    assert_int_equal(mcei_place_init(&p, 6, 5, MCEI_PLACE_BLOCK), MCE_OK);
    assert_int_equal(mcei_place_node(&p, 0, 1), 1);
    assert_int_equal(mcei_place_rank_of(&p, 5), 4);
    assert_int_equal(mcei_place_init(&p, 6, 5, MCEI_PLACE_CYCLIC), MCE_OK);
    assert_int_equal(mcei_place_node(&p, 0, 1), 5);
    assert_int_equal(mcei_place_rank_of(&p, 1), 1);
}

static void test_place_init_rejects(void **state)
{
    (void)state;
    static const struct {
        int nodes, ranks, policy;
    } bad[] = {
        {3, 4, MCEI_PLACE_BLOCK}, /* fewer nodes than ranks */
        {0, 1, MCEI_PLACE_CYCLIC},
        {1, 2, MCEI_PLACE_CYCLIC},
        {4, 0, MCEI_PLACE_BLOCK}, /* ranks <= 0 */
        {4, -1, MCEI_PLACE_BLOCK},
        {0, 0, MCEI_PLACE_BLOCK},
        {-5, -5, MCEI_PLACE_CYCLIC},
        {4, 2, MCEI_PLACE_ONE}, /* one node per rank: nodes == ranks */
        {3, 4, MCEI_PLACE_ONE},
        {4, 2, 3}, /* no such policy */
        {4, 2, -1},
        {4, 2, 99},
    };
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(bad); i++) {
        mcei_place_t p;
        assert_int_equal(mcei_place_init(&p, bad[i].nodes, bad[i].ranks,
                                         (mcei_placement_t)bad[i].policy),
                         MCE_ERR_INVAL);
    }
    /* the boundary cases just inside are accepted */
    mcei_place_t p;
    assert_int_equal(mcei_place_init(&p, 4, 4, MCEI_PLACE_BLOCK), MCE_OK);
    assert_int_equal(mcei_place_init(&p, 1, 1, MCEI_PLACE_CYCLIC), MCE_OK);
}

/* --mce-placement=one: node r alone on rank r. */
static void test_place_one(void **state)
{
    mcei_place_t p;
    (void)state;
    assert_int_equal(mcei_place_init(&p, 4, 4, MCEI_PLACE_ONE), MCE_OK);
    for (int r = 0; r < 4; r++) {
        assert_int_equal(mcei_place_count(&p, r), 1);
        assert_int_equal(mcei_place_node(&p, r, 0), r);
        assert_int_equal(mcei_place_rank_of(&p, r), r);
        assert_int_equal(mcei_place_local_index(&p, r), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_place_block),
        cmocka_unit_test(test_place_cyclic),
        cmocka_unit_test(test_place_examples),
        cmocka_unit_test(test_place_init_rejects),
        cmocka_unit_test(test_place_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
