/* Unit tests for the placement of virtual nodes on ranks
 * (lib/core/place.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
        {4, 2, 4}, /* no such policy */
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

/* ---- topology placement ---------------------------------------------------
 */

static void build(mcei_place_t *p, int nodes, int ranks, const mcei_topo_t *t,
                  const uint64_t *w)
{
    char err[256];
    memset(p, 0, sizeof(*p));
    assert_int_equal(mcei_place_build(p, nodes, ranks, MCEI_PLACE_TOPOLOGY, t,
                                      w, err, sizeof(err)),
                     MCE_OK);
    check_consistent(p);
}

static void check_counts_even(const mcei_place_t *p)
{
    int minc = p->nodes, maxc = 0;
    for (int r = 0; r < p->ranks; r++) {
        int c = mcei_place_count(p, r);
        minc = c < minc ? c : minc;
        maxc = c > maxc ? c : maxc;
    }
    assert_true(maxc - minc <= 1);
}

/* Links of the mesh (or torus) between nodes on different ranks. */
static int mesh_cut(const mcei_place_t *p, const mcei_topo_t *t)
{
    int cut = 0;
    for (int v = 0; v < p->nodes; v++) {
        int x = v % t->width, y = v / t->width;
        /* each link once: to the right and downwards */
        if (x + 1 < t->width || (t->wrap_x && t->width > 2)) {
            int u = y * t->width + (x + 1) % t->width;
            cut += mcei_place_rank_of(p, u) != mcei_place_rank_of(p, v);
        }
        if (y + 1 < t->height || (t->wrap_y && t->height > 2)) {
            int u = ((y + 1) % t->height) * t->width + x;
            cut += mcei_place_rank_of(p, u) != mcei_place_rank_of(p, v);
        }
    }
    return cut;
}

/* Is every rank's set a bw x bh (or bh x bw) rectangle? */
static void check_blocks(const mcei_place_t *p, const mcei_topo_t *t, int bw,
                         int bh)
{
    for (int r = 0; r < p->ranks; r++) {
        int n = mcei_place_count(p, r);
        int x0 = t->width, x1 = -1, y0 = t->height, y1 = -1;
        for (int i = 0; i < n; i++) {
            int v = mcei_place_node(p, r, i), x = v % t->width,
                y = v / t->width;
            x0 = x < x0 ? x : x0;
            x1 = x > x1 ? x : x1;
            y0 = y < y0 ? y : y0;
            y1 = y > y1 ? y : y1;
        }
        assert_int_equal(n, bw * bh);
        assert_int_equal((x1 - x0 + 1) * (y1 - y0 + 1), n);
        assert_true((x1 - x0 + 1 == bw && y1 - y0 + 1 == bh) ||
                    (x1 - x0 + 1 == bh && y1 - y0 + 1 == bw));
    }
}

/* Without a known topology, topology placement is block placement. */
static void test_topology_none(void **state)
{
    (void)state;
    mcei_topo_t none = {MCEI_TOPO_NONE, 0, 0, 0, 0};
    for (int n = 1; n <= 40; n++)
        for (int r = 1; r <= n; r++) {
            mcei_place_t p;
            build(&p, n, r, &none, NULL);
            check_block(&p);
            mcei_place_fini(&p);
        }
}

/* Meshes: balanced counts for every shape; rectangles (and fewer links
 * cut than block placement's strips) where the counts allow. */
static void test_topology_mesh(void **state)
{
    (void)state;
    static const struct {
        int w, h, wrap, r, bw, bh; /* bw = 0: no rectangles expected */
    } shapes[] = {
        {12, 12, 0, 4, 6, 6}, {16, 4, 0, 4, 4, 4},   {8, 8, 1, 4, 4, 4},
        {8, 8, 1, 16, 2, 2},  {8, 8, 0, 2, 4, 8},    {16, 8, 0, 8, 4, 4},
        {4, 4, 0, 4, 2, 2},   {8, 8, 1, 3, 0, 0},    {12, 12, 0, 5, 0, 0},
        {5, 7, 0, 6, 0, 0},   {16, 32, 0, 64, 4, 2},
    };
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(shapes); i++) {
        mcei_topo_t t = {MCEI_TOPO_MESH, shapes[i].w, shapes[i].h,
                         shapes[i].wrap, shapes[i].wrap};
        int n = t.width * t.height;
        mcei_place_t p, b;
        build(&p, n, shapes[i].r, &t, NULL);
        check_counts_even(&p);
        if (shapes[i].bw > 0)
            check_blocks(&p, &t, shapes[i].bw, shapes[i].bh);
        assert_int_equal(mcei_place_init(&b, n, shapes[i].r, MCEI_PLACE_BLOCK),
                         MCE_OK);
        assert_true(mesh_cut(&p, &t) <= mesh_cut(&b, &t));
        mcei_place_fini(&p);
    }
}

/* Hypercubes: 2^k ranks get subcubes (ids equal outside d - k free bits);
 * other counts are balanced. */
static void test_topology_hypercube(void **state)
{
    (void)state;
    mcei_topo_t t = {MCEI_TOPO_HYPERCUBE, 0, 0, 0, 0};
    for (int d = 0; d <= 10; d++)
        for (int r = 1; r <= (1 << d) && r <= 70; r++) {
            mcei_place_t p;
            build(&p, 1 << d, r, &t, NULL);
            check_counts_even(&p);
            if ((r & (r - 1)) == 0)
                for (int k = 0; k < r; k++) {
                    unsigned a = ~0u, o = 0;
                    int c = mcei_place_count(&p, k);
                    for (int i = 0; i < c; i++) {
                        a &= (unsigned)mcei_place_node(&p, k, i);
                        o |= (unsigned)mcei_place_node(&p, k, i);
                    }
                    assert_int_equal(1 << __builtin_popcount(a ^ o), c);
                }
            mcei_place_fini(&p);
        }
}

/* Weights: the cuts follow the weight, not the count; ids in order
 * without a topology, rectangles of a mesh otherwise; identical on
 * every call. */
static void test_topology_weights(void **state)
{
    (void)state;
    char err[256];
    mcei_place_t p, q;
    mcei_topo_t none = {MCEI_TOPO_NONE, 0, 0, 0, 0};
    /* 100 1 1 1 on 2 ranks: the heavy node alone */
    static const uint64_t w4[4] = {100, 1, 1, 1};
    assert_int_equal(mcei_place_build(&p, 4, 2, MCEI_PLACE_BLOCK, NULL, w4, err,
                                      sizeof(err)),
                     MCE_OK);
    check_consistent(&p);
    assert_int_equal(mcei_place_count(&p, 0), 1);
    assert_int_equal(mcei_place_rank_weight(&p, 0), 100);
    assert_int_equal(mcei_place_rank_weight(&p, 1), 3);
    mcei_place_fini(&p);
    /* 10 1 1 1 1 1 1 10 on 2 ranks: halves of 13 */
    static const uint64_t w8[8] = {10, 1, 1, 1, 1, 1, 1, 10};
    build(&p, 8, 2, &none, w8);
    assert_int_equal(mcei_place_count(&p, 0), 4);
    assert_int_equal(mcei_place_rank_weight(&p, 0), 13);
    mcei_place_fini(&p);
    /* 8x8 torus, the work in the two lowest rows (like motion_detect):
     * 4 ranks of about a quarter each */
    mcei_topo_t t = {MCEI_TOPO_MESH, 8, 8, 1, 1};
    uint64_t w[64];
    for (int v = 0; v < 64; v++)
        w[v] = v < 16 ? 100 : 1;
    build(&p, 64, 4, &t, w);
    build(&q, 64, 4, &t, w);
    for (int r = 0; r < 4; r++) {
        uint64_t s = mcei_place_rank_weight(&p, r);
        assert_in_range(s, (1648 / 4) - 100, (1648 / 4) + 100);
    }
    for (int v = 0; v < 64; v++)
        assert_int_equal(mcei_place_rank_of(&p, v), mcei_place_rank_of(&q, v));
    mcei_place_fini(&p);
    mcei_place_fini(&q);
    /* weights are for contiguous placements only */
    assert_int_equal(mcei_place_build(&p, 4, 2, MCEI_PLACE_CYCLIC, NULL, w4,
                                      err, sizeof(err)),
                     MCE_ERR_INVAL);
}

/* --mce-place-weights reads the activations column of a stats file. */
static void test_read_weights(void **state)
{
    (void)state;
    char err[512], path[] = "/tmp/mce_place_wXXXXXX.csv";
    uint64_t *w = NULL;
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# machine: x\nnode,vtime_ps,exit_status,activations\n"
          "1,5,0,7\n0,5,0,3\n2,5,0,0\n",
          f);
    fclose(f);
    assert_int_equal(mcei_place_read_weights(path, 3, &w, err, sizeof(err)),
                     MCE_OK);
    assert_int_equal(w[0], 3);
    assert_int_equal(w[1], 7);
    assert_int_equal(w[2], 1); /* never below 1 */
    free(w);
    /* another node count: refused, naming the file */
    assert_int_equal(mcei_place_read_weights(path, 4, &w, err, sizeof(err)),
                     MCE_ERR_CONFIG);
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, "node 3"));
    assert_int_equal(mcei_place_read_weights(path, 2, &w, err, sizeof(err)),
                     MCE_ERR_CONFIG);
    unlink(path);
    /* JSON, as --mce-stats writes it */
    char jpath[] = "/tmp/mce_place_wXXXXXX.json";
    fd = mkstemps(jpath, 5);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    fputs("{\"provenance\":{\"nodes\":2},\n\"columns\":[\"node\"],\n"
          "\"nodes\":[\n{\"node\":0,\"vtime_ps\":1,\"activations\":12},\n"
          "{\"node\":1,\"vtime_ps\":1,\"activations\":5}\n]}\n",
          f);
    fclose(f);
    assert_int_equal(mcei_place_read_weights(jpath, 2, &w, err, sizeof(err)),
                     MCE_OK);
    assert_int_equal(w[0], 12);
    assert_int_equal(w[1], 5);
    free(w);
    unlink(jpath);
    assert_int_equal(
        mcei_place_read_weights("/nonexistent/x.csv", 2, &w, err, sizeof(err)),
        MCE_ERR_IO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_place_block),
        cmocka_unit_test(test_place_cyclic),
        cmocka_unit_test(test_place_examples),
        cmocka_unit_test(test_place_init_rejects),
        cmocka_unit_test(test_place_one),
        cmocka_unit_test(test_topology_none),
        cmocka_unit_test(test_topology_mesh),
        cmocka_unit_test(test_topology_hypercube),
        cmocka_unit_test(test_topology_weights),
        cmocka_unit_test(test_read_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
