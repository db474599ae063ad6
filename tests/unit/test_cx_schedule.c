/* Unit tests for the complete-exchange schedules (apps/cx/schedule.c):
 * Scott's permutations in collapsible order (Bokhari & Nicol 1996), the
 * naive schedule, collapsing and the contention/coverage checker. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "schedule.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------------- */
/* Independent reference helpers (do not use the checker)                  */

/* Maximum directed-link load of steps [p0, p1) under row-column routing,
 * computed on (row, col, direction) coordinates; *from / *to receive the
 * first link (in scan order) with that load. */
static int ref_link_max(const cx_schedule_t *s, int p0, int p1, int *from,
                        int *to)
{
    int n = s->n, best = 0;
    /* load[(r * n + c) * 4 + d], d: 0 east, 1 west, 2 south, 3 north */
    int *load = calloc((size_t)n * n * 4, sizeof(int));
    assert_non_null(load);
    for (int p = p0; p < p1; p++) {
        for (int i = 0; i < s->nnodes; i++) {
            const int *d = cx_slots(s, p, i);
            for (int k = 0; k < s->width && d[k] >= 0; k++) {
                int r0 = i / n, c0 = i % n, r1 = d[k] / n, c1 = d[k] % n;
                for (int c = c0; c < c1; c++)
                    load[(r0 * n + c) * 4 + 0]++;
                for (int c = c0; c > c1; c--)
                    load[(r0 * n + c) * 4 + 1]++;
                for (int r = r0; r < r1; r++)
                    load[(r * n + c1) * 4 + 2]++;
                for (int r = r0; r > r1; r--)
                    load[(r * n + c1) * 4 + 3]++;
            }
        }
    }
    for (int l = 0; l < n * n * 4; l++) {
        if (load[l] > best) {
            static const int step[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
            int node = l / 4, dir = l % 4;
            best = load[l];
            if (from)
                *from = node;
            if (to)
                *to = (node / n + step[dir][0]) * n + node % n + step[dir][1];
        }
    }
    free(load);
    return best;
}

/* Count how often every ordered pair is sent; returns the number of pairs
 * i != j not sent exactly once (self messages count as errors too). */
static long ref_cover_errors(const cx_schedule_t *s)
{
    size_t N = (size_t)s->nnodes;
    long bad = 0;
    unsigned *cnt = calloc(N * N, sizeof(unsigned));
    assert_non_null(cnt);
    for (int p = 0; p < s->nsteps; p++)
        for (int i = 0; i < s->nnodes; i++) {
            const int *d = cx_slots(s, p, i);
            for (int k = 0; k < s->width; k++)
                if (d[k] >= 0)
                    cnt[(size_t)i * N + (size_t)d[k]]++;
        }
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++)
            if ((i == j && cnt[i * N + j] != 0) ||
                (i != j && cnt[i * N + j] != 1))
                bad++;
    free(cnt);
    return bad;
}

/* Max number of messages sent by one node, and received by one node, in
 * the union of steps [p0, p1). */
static void ref_node_max(const cx_schedule_t *s, int p0, int p1, int *snd,
                         int *rcv)
{
    int *a = calloc((size_t)s->nnodes, sizeof(int));
    int *b = calloc((size_t)s->nnodes, sizeof(int));
    assert_non_null(a);
    assert_non_null(b);
    *snd = *rcv = 0;
    for (int p = p0; p < p1; p++)
        for (int i = 0; i < s->nnodes; i++) {
            const int *d = cx_slots(s, p, i);
            for (int k = 0; k < s->width; k++)
                if (d[k] >= 0) {
                    a[i]++;
                    b[d[k]]++;
                }
        }
    for (int i = 0; i < s->nnodes; i++) {
        if (a[i] > *snd)
            *snd = a[i];
        if (b[i] > *rcv)
            *rcv = b[i];
    }
    free(a);
    free(b);
}

static void copy_schedule(const cx_schedule_t *src, int extra_steps,
                          cx_schedule_t *dst)
{
    size_t cnt = (size_t)src->nsteps * src->nnodes * src->width;
    assert_int_equal(
        cx_schedule_init(dst, src->n, src->nsteps + extra_steps, src->width),
        CX_OK);
    memcpy(dst->dest, src->dest, cnt * sizeof(int));
}

/* ---------------------------------------------------------------------- */
/* Scott / collapsible schedule                                            */

static int sizes[] = {4, 8, 12, 16, 20, 24, 28, 32};

static void test_scott_size(void **state)
{
    int n = *(int *)*state;
    int q = n / 4, N = n * n;
    long P = (long)n * n * n / 4; /* n^3/4, independent of the library */
    cx_schedule_t s;
    cx_report_t r;

    assert_int_equal(cx_scott_collapsible(n, &s), CX_OK);
    assert_int_equal(s.n, n);
    assert_int_equal(s.nnodes, N);
    assert_int_equal(s.width, 1);
    assert_int_equal(s.nsteps, P);

    /* Every ordered pair exactly once, no self messages (reference). */
    assert_int_equal(ref_cover_errors(&s), 0);

    /* Each permutation: link contention 1, node contention 1 (reference
     * on a sample of permutations, the whole schedule for small n). */
    for (int p = 0; p < s.nsteps; p += n <= 16 ? 1 : 97) {
        int snd, rcv;
        assert_int_equal(ref_link_max(&s, p, p + 1, NULL, NULL), 1);
        ref_node_max(&s, p, p + 1, &snd, &rcv);
        assert_int_equal(snd, 1);
        assert_int_equal(rcv, 1);
    }

    for (int c = 1; c <= q; c++) {
        cx_schedule_t col;
        long steps = (long)n * n * n / (4 * c); /* n^3/4c */
        if (q % c != 0)
            continue;
        assert_int_equal(cx_check(&s, c, &r), CX_OK);
        assert_int_equal(r.status, CX_OK);
        assert_int_equal(r.ngroups, steps);
        assert_true(r.max_link <= c);
        assert_int_equal(r.max_link, c); /* bisection links saturated */
        assert_int_equal(r.max_send, 1);
        assert_int_equal(r.max_recv, 1);
        assert_int_equal(r.messages, (long)N * (N - 1));
        assert_int_equal(r.dup.count, 0);
        assert_int_equal(r.missing.count, 0);
        assert_int_equal(r.link.count, 0);
        assert_int_equal(r.send.count + r.recv.count + r.dest.count, 0);
        assert_string_equal(cx_strerror(cx_check(&s, c, &r)), "CX_OK");

        /* The collapsed schedule itself: n^3/4c steps, each a (partial)
         * permutation with link contention <= c. */
        assert_int_equal(cx_collapse(&s, c, &col), CX_OK);
        assert_int_equal(col.nsteps, steps);
        assert_int_equal(col.width, c);
        assert_int_equal(cx_check_ex(&col, 1, c, 1, &r), CX_OK);
        assert_int_equal(r.ngroups, steps);
        assert_int_equal(r.max_link, c);
        assert_int_equal(r.max_send, 1);
        assert_int_equal(r.max_recv, 1);
        if (n <= 12) {
            for (int g = 0; g < col.nsteps; g++) {
                int snd, rcv;
                assert_true(ref_link_max(&col, g, g + 1, NULL, NULL) <= c);
                ref_node_max(&col, g, g + 1, &snd, &rcv);
                assert_int_equal(snd, 1);
                assert_int_equal(rcv, 1);
            }
        }
        cx_schedule_free(&col);
    }
    cx_schedule_free(&s);
}

/* The full Table-2-like matrix for c = 1..8.  The paper's rule is c | n/4;
 * this ordering collapses for every c <= n/4 that divides n/2 (a group that
 * straddles two blocks joins classes 2t and 2t+1, which live on the same
 * line partition, with distinct shifts), which adds 12x12 c=2, 20x20 c=2
 * (an entry the paper's Table 2 does list), 24x24 c=4 and 28x28 c=2.  Every
 * other c makes some node send twice. */
static void test_scott_table2_matrix(void **state)
{
    (void)state;
    for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
        int n = sizes[k];
        cx_schedule_t s;
        assert_int_equal(cx_scott_collapsible(n, &s), CX_OK);
        print_message("%2dx%-2d:", n, n);
        for (int c = 1; c <= 8; c++) {
            cx_report_t r;
            int ok = (n / 2) % c == 0 && c <= n / 4;
            int rc = cx_check(&s, c, &r);
            if (ok) {
                assert_int_equal(rc, CX_OK);
                assert_int_equal(r.ngroups, n * n * n / (4 * c));
                assert_int_equal(r.max_link, c);
                assert_int_equal(r.max_send, 1);
                assert_int_equal(r.max_recv, 1);
                print_message(" %5d", r.ngroups);
            } else {
                assert_int_equal(rc, CX_ESEND);
                assert_true(r.max_link <= c);
                print_message(" %5s", "-");
            }
        }
        print_message("\n");
        cx_schedule_free(&s);
    }
}

/* Groups that cross a block of n/4 permutations make nodes send twice. */
static void test_scott_invalid_collapse_factor(void **state)
{
    static const int cases[][2] = {{4, 2},  {8, 4},  {12, 4},
                                   {16, 3}, {16, 8}, {24, 5}};
    (void)state;
    for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
        int n = cases[k][0], c = cases[k][1], snd, rcv;
        cx_schedule_t s;
        cx_report_t r;
        assert_int_equal(cx_scott_collapsible(n, &s), CX_OK);
        assert_int_equal(cx_check(&s, c, &r), CX_ESEND);
        assert_int_equal(r.status, CX_ESEND);
        assert_true(r.max_send >= 2);
        assert_true(r.max_link <= c); /* link bound still holds */
        assert_int_equal(r.link.count, 0);
        assert_int_equal(r.dup.count + r.missing.count, 0);
        /* the reported node really sends that often in that step */
        ref_node_max(&s, r.send.step * c, r.send.step * c + c, &snd, &rcv);
        assert_true(snd >= r.send.load);
        assert_true(r.send.load >= 2);
        assert_non_null(strstr(r.msg, "sends"));
        cx_schedule_free(&s);
    }
}

/* Figure 5 of the paper (8 x 8): two permutations that collapse into the
 * third.  Entries are destinations row*8+col, -1 = idle; transcribed from
 * the paper's "row,col" cells. */
static const int fig5[3][8][8] = {
    {{9, 15, -1, -1, -1, -1, 8, 14},
     {57, 63, -1, -1, -1, -1, 56, 62},
     {-1, -1, 27, 29, 26, 28, -1, -1},
     {-1, -1, 43, 45, 42, 44, -1, -1},
     {-1, -1, 19, 21, 18, 20, -1, -1},
     {-1, -1, 35, 37, 34, 36, -1, -1},
     {1, 7, -1, -1, -1, -1, 0, 6},
     {49, 55, -1, -1, -1, -1, 48, 54}},
    {{-1, -1, 11, 13, 10, 12, -1, -1},
     {-1, -1, 59, 61, 58, 60, -1, -1},
     {25, 31, -1, -1, -1, -1, 24, 30},
     {41, 47, -1, -1, -1, -1, 40, 46},
     {17, 23, -1, -1, -1, -1, 16, 22},
     {33, 39, -1, -1, -1, -1, 32, 38},
     {-1, -1, 3, 5, 2, 4, -1, -1},
     {-1, -1, 51, 53, 50, 52, -1, -1}},
    {{9, 15, 11, 13, 10, 12, 8, 14},
     {57, 63, 59, 61, 58, 60, 56, 62},
     {25, 31, 27, 29, 26, 28, 24, 30},
     {41, 47, 43, 45, 42, 44, 40, 46},
     {17, 23, 19, 21, 18, 20, 16, 22},
     {33, 39, 35, 37, 34, 36, 32, 38},
     {1, 7, 3, 5, 2, 4, 0, 6},
     {49, 55, 51, 53, 50, 52, 48, 54}},
};

/* Figure 4 of the paper: three of Scott's 128 permutations for 8 x 8. */
static const int fig4[3][8][8] = {
    {{-1, -1, 12, 10, 13, 11, -1, -1},
     {-1, -1, 60, 58, 61, 59, -1, -1},
     {30, 24, -1, -1, -1, -1, 31, 25},
     {46, 40, -1, -1, -1, -1, 47, 41},
     {22, 16, -1, -1, -1, -1, 23, 17},
     {38, 32, -1, -1, -1, -1, 39, 33},
     {-1, -1, 4, 2, 5, 3, -1, -1},
     {-1, -1, 52, 50, 53, 51, -1, -1}},
    {{17, 23, -1, -1, -1, -1, 16, 22},
     {-1, -1, 35, 37, 34, 36, -1, -1},
     {57, 63, -1, -1, -1, -1, 56, 62},
     {-1, -1, 11, 13, 10, 12, -1, -1},
     {-1, -1, 51, 53, 50, 52, -1, -1},
     {1, 7, -1, -1, -1, -1, 0, 6},
     {-1, -1, 27, 29, 26, 28, -1, -1},
     {41, 47, -1, -1, -1, -1, 40, 46}},
    {{29, -1, 24, -1, -1, 31, -1, 26},
     {-1, 19, -1, 22, 17, -1, 20, -1},
     {-1, 51, -1, 54, 49, -1, 52, -1},
     {61, -1, 56, -1, -1, 63, -1, 58},
     {5, -1, 0, -1, -1, 7, -1, 2},
     {-1, 11, -1, 14, 9, -1, 12, -1},
     {-1, 43, -1, 46, 41, -1, 44, -1},
     {37, -1, 32, -1, -1, 39, -1, 34}},
};

static int same_step(const cx_schedule_t *s, int p, const int grid[8][8])
{
    for (int i = 0; i < 64; i++)
        if (cx_slots(s, p, i)[0] != grid[i / 8][i % 8])
            return 0;
    return 1;
}

static void test_scott_paper_figures(void **state)
{
    cx_schedule_t s, col;
    cx_report_t r;
    (void)state;
    assert_int_equal(cx_scott_collapsible(8, &s), CX_OK);
    /* Figure 5: our first two permutations and their collapse. */
    assert_true(same_step(&s, 0, fig5[0]));
    assert_true(same_step(&s, 1, fig5[1]));
    assert_int_equal(cx_collapse(&s, 2, &col), CX_OK);
    for (int i = 0; i < 64; i++) {
        assert_int_equal(cx_slots(&col, 0, i)[0], fig5[2][i / 8][i % 8]);
        assert_int_equal(cx_slots(&col, 0, i)[1], -1);
    }
    cx_schedule_free(&col);
    /* Figure 4: Scott's permutations belong to our set of 128. */
    for (int f = 0; f < 3; f++) {
        int found = 0;
        for (int p = 0; p < s.nsteps; p++)
            found += same_step(&s, p, fig4[f]);
        assert_int_equal(found, 1);
    }
    /* The figures' permutations themselves satisfy the checker's bounds:
     * Figure 5's pair as a 2-step schedule (coverage is of course partial).
     */
    assert_int_equal(cx_schedule_init(&col, 8, 2, 1), CX_OK);
    for (int i = 0; i < 64; i++) {
        cx_slots(&col, 0, i)[0] = fig5[0][i / 8][i % 8];
        cx_slots(&col, 1, i)[0] = fig5[1][i / 8][i % 8];
    }
    assert_int_equal(cx_check(&col, 2, &r), CX_EMISSING);
    assert_int_equal(r.max_link, 2);
    assert_int_equal(r.max_send, 1);
    assert_int_equal(r.max_recv, 1);
    assert_int_equal(r.messages, 64);
    cx_schedule_free(&col);
    cx_schedule_free(&s);
}

static void test_scott_rejects_bad_sizes(void **state)
{
    static const int bad[] = {
        -8, -4, 0, 1, 2, 3, 5, 6, 7, 9, 10, 14, 18, 30, CX_SCOTT_MAX_N + 4};
    cx_schedule_t s, keep;
    (void)state;
    memset(&s, 0xab, sizeof(s));
    keep = s;
    for (size_t k = 0; k < ARRAY_SIZE(bad); k++) {
        assert_int_equal(cx_scott_collapsible(bad[k], &s), CX_EINVAL);
        assert_memory_equal(&s, &keep, sizeof(s)); /* output untouched */
    }
    assert_int_equal(cx_scott_collapsible(8, NULL), CX_EINVAL);
    assert_int_equal(cx_naive(1, &s), CX_EINVAL);
    assert_int_equal(cx_naive(0, &s), CX_EINVAL);
    assert_int_equal(cx_naive(4, NULL), CX_EINVAL);
    assert_memory_equal(&s, &keep, sizeof(s));
}

/* ---------------------------------------------------------------------- */
/* Checker: corrupted schedules                                            */

/* Find a node active in permutation p. */
static int active_node(const cx_schedule_t *s, int p)
{
    for (int i = 0; i < s->nnodes; i++)
        if (cx_slots(s, p, i)[0] >= 0)
            return i;
    fail_msg("permutation %d has no active node", p);
    return -1;
}

static void test_check_duplicate_pair(void **state)
{
    cx_schedule_t s, t;
    cx_report_t r;
    int P, i, d;
    (void)state;
    assert_int_equal(cx_scott_collapsible(8, &s), CX_OK);
    P = s.nsteps;
    /* Append a step that repeats one message of permutation 5. */
    copy_schedule(&s, 1, &t);
    i = active_node(&s, 5);
    d = cx_slots(&s, 5, i)[0];
    cx_slots(&t, P, i)[0] = d;
    assert_int_equal(cx_check(&t, 1, &r), CX_EDUP);
    assert_int_equal(r.status, CX_EDUP);
    assert_int_equal(r.dup.count, 1);
    assert_int_equal(r.dup.step, P);
    assert_int_equal(r.dup.a, i);
    assert_int_equal(r.dup.b, d);
    assert_int_equal(r.dup.load, 2);
    assert_int_equal(r.missing.count, 0);
    assert_int_equal(r.link.count + r.send.count + r.recv.count, 0);
    assert_int_equal(r.max_link, 1);
    assert_non_null(strstr(r.msg, "sent again"));
    cx_schedule_free(&t);
    cx_schedule_free(&s);
}

static void test_check_missing_pair(void **state)
{
    cx_schedule_t s;
    cx_report_t r;
    int i, d;
    (void)state;
    assert_int_equal(cx_scott_collapsible(12, &s), CX_OK);
    i = active_node(&s, 100);
    d = cx_slots(&s, 100, i)[0];
    cx_slots(&s, 100, i)[0] = -1;
    assert_int_equal(cx_check(&s, 3, &r), CX_EMISSING);
    assert_int_equal(r.missing.count, 1);
    assert_int_equal(r.missing.a, i);
    assert_int_equal(r.missing.b, d);
    assert_int_equal(r.dup.count + r.link.count + r.send.count, 0);
    assert_non_null(strstr(r.msg, "never sent"));
    cx_schedule_free(&s);
}

/* Merge permutation 1 into permutation 0 (their senders and receivers are
 * disjoint): node contention stays 1, coverage stays exact, but the
 * merged step loads links twice. */
static void test_check_overloaded_link(void **state)
{
    cx_schedule_t s;
    cx_report_t r;
    int from = -1, to = -1;
    (void)state;
    assert_int_equal(cx_scott_collapsible(8, &s), CX_OK);
    for (int i = 0; i < s.nnodes; i++) {
        int *d1 = cx_slots(&s, 1, i);
        if (*d1 >= 0) {
            assert_int_equal(cx_slots(&s, 0, i)[0], -1);
            cx_slots(&s, 0, i)[0] = *d1;
            *d1 = -1;
        }
    }
    assert_int_equal(cx_check(&s, 1, &r), CX_ELINK);
    assert_int_equal(r.status, CX_ELINK);
    assert_int_equal(r.link.step, 0);
    assert_int_equal(r.link.load, 2);
    assert_int_equal(r.max_link, 2);
    assert_true(r.link.count > 0);
    assert_int_equal(r.send.count + r.recv.count, 0);
    assert_int_equal(r.dup.count + r.missing.count, 0);
    /* the reported link is a real mesh link with that load (reference) */
    assert_int_equal(ref_link_max(&s, 0, 1, &from, &to), 2);
    assert_int_equal(r.link.a, from);
    assert_int_equal(r.link.b, to);
    assert_non_null(strstr(r.msg, "step 0: link"));
    /* with a barrier after every 2 permutations the load 2 is allowed */
    assert_int_equal(cx_check(&s, 2, &r), CX_OK);
    cx_schedule_free(&s);
}

/* Hand-made 4 x 4 steps: (0,0)->(0,3) and (0,1)->(0,2) share the east link
 * (0,1)->(0,2); a column pair shares (1,2)->(2,2) going south. */
static void test_check_link_small(void **state)
{
    cx_schedule_t s;
    cx_report_t r;
    (void)state;
    assert_int_equal(cx_schedule_init(&s, 4, 2, 1), CX_OK);
    cx_slots(&s, 0, 0)[0] = 3;
    cx_slots(&s, 0, 1)[0] = 2;
    cx_slots(&s, 1, 2)[0] = 14; /* (0,2) -> (3,2) */
    cx_slots(&s, 1, 5)[0] = 10; /* (1,1) -> (1,2) -> (2,2) */
    assert_int_equal(cx_check(&s, 1, &r), CX_ELINK);
    assert_int_equal(r.link.count, 2);
    assert_int_equal(r.link.step, 0);
    assert_int_equal(r.link.a, 1);
    assert_int_equal(r.link.b, 2);
    assert_int_equal(r.link.load, 2);
    assert_true(r.missing.count > 0); /* reported, lower priority */
    /* the second step's overload, found alone with check_ex */
    assert_int_equal(cx_check_ex(&s, 2, 3, 2, &r), CX_EMISSING);
    assert_int_equal(r.max_link, 2);
    cx_slots(&s, 0, 0)[0] = -1;
    cx_slots(&s, 0, 1)[0] = -1;
    assert_int_equal(cx_check(&s, 1, &r), CX_ELINK);
    assert_int_equal(r.link.step, 1);
    assert_int_equal(r.link.a, 6); /* (1,2) */
    assert_int_equal(r.link.b, 10);
    cx_schedule_free(&s);
}

static void test_check_node_sends_twice(void **state)
{
    cx_schedule_t s, t;
    cx_report_t r;
    (void)state;
    /* width-2 step: node 5 sends to 6 and to 9 */
    assert_int_equal(cx_schedule_init(&s, 4, 1, 2), CX_OK);
    cx_slots(&s, 0, 5)[0] = 6;
    cx_slots(&s, 0, 5)[1] = 9;
    assert_int_equal(cx_check(&s, 1, &r), CX_ESEND);
    assert_int_equal(r.send.count, 1);
    assert_int_equal(r.send.step, 0);
    assert_int_equal(r.send.a, 5);
    assert_int_equal(r.send.load, 2);
    assert_int_equal(r.max_send, 2);
    assert_int_equal(r.recv.count + r.link.count + r.dup.count, 0);
    cx_schedule_free(&s);

    /* Swap permutations 1 and 2 of the 8 x 8 schedule: the group {0, 2}
     * mixes two blocks and nodes send twice; link contention stays <= 2. */
    assert_int_equal(cx_scott_collapsible(8, &s), CX_OK);
    copy_schedule(&s, 0, &t);
    memcpy(cx_slots(&t, 1, 0), cx_slots(&s, 2, 0), 64 * sizeof(int));
    memcpy(cx_slots(&t, 2, 0), cx_slots(&s, 1, 0), 64 * sizeof(int));
    assert_int_equal(cx_check(&t, 1, &r), CX_OK); /* order is irrelevant */
    assert_int_equal(cx_check(&t, 2, &r), CX_ESEND);
    assert_int_equal(r.send.step, 0);
    assert_int_equal(r.send.load, 2);
    assert_true(cx_slots(&t, 0, r.send.a)[0] >= 0);
    assert_true(cx_slots(&t, 1, r.send.a)[0] >= 0);
    assert_int_equal(r.link.count, 0);
    assert_non_null(strstr(r.msg, "sends 2 messages"));
    cx_schedule_free(&t);
    cx_schedule_free(&s);
}

static void test_check_node_receives_twice(void **state)
{
    cx_schedule_t s;
    cx_report_t r;
    int i, j, di;
    (void)state;
    assert_int_equal(cx_scott_collapsible(8, &s), CX_OK);
    i = active_node(&s, 7);
    di = cx_slots(&s, 7, i)[0];
    for (j = i + 1; j < s.nnodes; j++)
        if (cx_slots(&s, 7, j)[0] >= 0 && j != di)
            break;
    assert_true(j < s.nnodes);
    cx_slots(&s, 7, j)[0] = di;
    assert_int_equal(cx_check(&s, 1, &r), CX_ERECV);
    assert_int_equal(r.recv.step, 7);
    assert_int_equal(r.recv.a, di);
    assert_int_equal(r.recv.load, 2);
    assert_int_equal(r.send.count, 0);
    assert_true(r.missing.count == 1); /* j's old pair is gone */
    assert_non_null(strstr(r.msg, "receives 2"));
    cx_schedule_free(&s);
}

static void test_check_bad_destination(void **state)
{
    cx_schedule_t s;
    cx_report_t r;
    (void)state;
    assert_int_equal(cx_scott_collapsible(4, &s), CX_OK);
    cx_slots(&s, 3, 6)[0] = 6; /* to itself */
    assert_int_equal(cx_check(&s, 1, &r), CX_EDEST);
    assert_int_equal(r.dest.step, 3);
    assert_int_equal(r.dest.a, 6);
    assert_int_equal(r.dest.b, 6);
    cx_slots(&s, 3, 6)[0] = 16; /* out of range */
    assert_int_equal(cx_check(&s, 1, &r), CX_EDEST);
    assert_int_equal(r.dest.b, 16);
    cx_slots(&s, 3, 6)[0] = -2;
    assert_int_equal(cx_check(&s, 1, &r), CX_EDEST);
    cx_schedule_free(&s);
}

static void test_check_bad_arguments(void **state)
{
    cx_schedule_t s, o, keep;
    cx_report_t r, rkeep;
    (void)state;
    assert_int_equal(cx_scott_collapsible(4, &s), CX_OK);
    memset(&r, 0x5a, sizeof(r));
    rkeep = r;
    assert_int_equal(cx_check(NULL, 1, &r), CX_EINVAL);
    assert_int_equal(cx_check(&s, 0, &r), CX_EINVAL);
    assert_int_equal(cx_check(&s, -1, &r), CX_EINVAL);
    assert_int_equal(cx_check(&s, 1, NULL), CX_EINVAL);
    assert_int_equal(cx_check_ex(&s, 1, -1, 1, &r), CX_EINVAL);
    assert_memory_equal(&r, &rkeep, sizeof(r));
    o = s;
    o.nnodes = 15;
    assert_int_equal(cx_check(&o, 1, &r), CX_EINVAL);
    memset(&o, 0x3c, sizeof(o));
    keep = o;
    assert_int_equal(cx_collapse(&s, 0, &o), CX_EINVAL);
    assert_int_equal(cx_collapse(NULL, 2, &o), CX_EINVAL);
    assert_int_equal(cx_collapse(&s, 2, NULL), CX_EINVAL);
    assert_memory_equal(&o, &keep, sizeof(o));
    assert_int_equal(cx_schedule_init(&o, 0, 1, 1), CX_EINVAL);
    assert_int_equal(cx_schedule_init(&o, 4, -1, 1), CX_EINVAL);
    assert_int_equal(cx_schedule_init(&o, 4, 1, 0), CX_EINVAL);
    assert_memory_equal(&o, &keep, sizeof(o));
    assert_string_equal(cx_strerror(CX_ELINK), "CX_ELINK");
    assert_string_equal(cx_strerror(CX_EMISSING), "CX_EMISSING");
    assert_string_equal(cx_strerror(12345), "unknown cx error");
    cx_schedule_free(&s);
    assert_null(s.dest);
    cx_schedule_free(&s); /* twice is fine */
    cx_schedule_free(NULL);
}

/* ---------------------------------------------------------------------- */
/* Naive schedule and collapsing                                           */

static void test_naive(void **state)
{
    static const int ns[] = {2, 4, 8, 12, 16};
    (void)state;
    for (size_t k = 0; k < ARRAY_SIZE(ns); k++) {
        int n = ns[k], N = n * n, worst = 0;
        cx_schedule_t s;
        cx_report_t r;
        assert_int_equal(cx_naive(n, &s), CX_OK);
        assert_int_equal(s.nsteps, N - 1);
        assert_int_equal(s.width, 1);
        for (int p = 0; p < s.nsteps; p++)
            for (int i = 0; i < N; i++)
                assert_int_equal(cx_slots(&s, p, i)[0], (i + p + 1) % N);
        assert_int_equal(ref_cover_errors(&s), 0);
        for (int p = 0; p < s.nsteps; p++) {
            int l = ref_link_max(&s, p, p + 1, NULL, NULL);
            if (l > worst)
                worst = l;
        }
        if (n >= 4) {
            assert_int_equal(cx_check(&s, 1, &r), CX_ELINK);
            assert_true(r.max_link > 1);
        } else {
            assert_int_equal(cx_check(&s, 1, &r), worst > 1 ? CX_ELINK : 0);
        }
        assert_int_equal(r.max_link, worst);
        assert_int_equal(r.max_send, 1);
        assert_int_equal(r.max_recv, 1);
        assert_int_equal(r.dup.count + r.missing.count, 0);
        assert_int_equal(r.send.count + r.recv.count, 0);
        assert_int_equal(r.ngroups, N - 1);
        /* with no link bound the naive schedule is a valid exchange */
        assert_int_equal(cx_check_ex(&s, 1, INT_MAX, 1, &r), CX_OK);
        print_message("naive %2dx%-2d: %4d steps, max link contention %d\n", n,
                      n, s.nsteps, worst);
        cx_schedule_free(&s);
    }
}

static void test_collapse_layout(void **state)
{
    cx_schedule_t s, col;
    cx_report_t r;
    (void)state;
    /* 15 naive permutations of a 4 x 4 mesh, barrier every 4: 4 steps, the
     * last one holding 3 permutations. */
    assert_int_equal(cx_naive(4, &s), CX_OK);
    assert_int_equal(cx_collapse(&s, 4, &col), CX_OK);
    assert_int_equal(col.nsteps, 4);
    assert_int_equal(col.width, 4);
    for (int g = 0; g < 4; g++)
        for (int i = 0; i < 16; i++)
            for (int k = 0; k < 4; k++) {
                int p = g * 4 + k;
                int want = p < 15 ? (i + p + 1) % 16 : -1;
                assert_int_equal(cx_slots(&col, g, i)[k], want);
            }
    assert_int_equal(cx_check_ex(&col, 1, INT_MAX, 4, &r), CX_OK);
    assert_int_equal(r.max_send, 4);
    assert_int_equal(cx_check(&col, 1, &r), CX_ESEND);
    assert_int_equal(r.send.load, 4);
    cx_schedule_free(&col);
    /* collapsing by 1 is a copy */
    assert_int_equal(cx_collapse(&s, 1, &col), CX_OK);
    assert_int_equal(col.nsteps, s.nsteps);
    assert_memory_equal(col.dest, s.dest, 15 * 16 * sizeof(int));
    cx_schedule_free(&col);
    cx_schedule_free(&s);

    /* Scott 16 x 16 collapsed by 2 then by 2 again == collapsed by 4 (up to
     * slot order, which is permutation order in both). */
    {
        cx_schedule_t a, b, c4;
        assert_int_equal(cx_scott_collapsible(16, &s), CX_OK);
        assert_int_equal(cx_collapse(&s, 2, &a), CX_OK);
        assert_int_equal(cx_collapse(&a, 2, &b), CX_OK);
        assert_int_equal(cx_collapse(&s, 4, &c4), CX_OK);
        assert_int_equal(b.nsteps, 256);
        assert_int_equal(c4.nsteps, 256);
        assert_int_equal(b.width, 4);
        assert_memory_equal(b.dest, c4.dest, 256 * 256 * 4 * sizeof(int));
        assert_int_equal(cx_check_ex(&a, 2, 4, 1, &r), CX_OK);
        assert_int_equal(r.ngroups, 256);
        assert_int_equal(r.max_link, 4);
        cx_schedule_free(&a);
        cx_schedule_free(&b);
        cx_schedule_free(&c4);
        cx_schedule_free(&s);
    }
}

/* cmocka_unit_test_prestate with a per-size test name. */
#define SCOTT_TEST(k, nstr)                                                    \
    {                                                                          \
        "test_scott_size_n" nstr, test_scott_size, NULL, NULL, &sizes[k]       \
    }

int main(void)
{
    const struct CMUnitTest tests[] = {
        SCOTT_TEST(0, "4"),
        SCOTT_TEST(1, "8"),
        SCOTT_TEST(2, "12"),
        SCOTT_TEST(3, "16"),
        SCOTT_TEST(4, "20"),
        SCOTT_TEST(5, "24"),
        SCOTT_TEST(6, "28"),
        SCOTT_TEST(7, "32"),
        cmocka_unit_test(test_scott_table2_matrix),
        cmocka_unit_test(test_scott_invalid_collapse_factor),
        cmocka_unit_test(test_scott_paper_figures),
        cmocka_unit_test(test_scott_rejects_bad_sizes),
        cmocka_unit_test(test_check_duplicate_pair),
        cmocka_unit_test(test_check_missing_pair),
        cmocka_unit_test(test_check_overloaded_link),
        cmocka_unit_test(test_check_link_small),
        cmocka_unit_test(test_check_node_sends_twice),
        cmocka_unit_test(test_check_node_receives_twice),
        cmocka_unit_test(test_check_bad_destination),
        cmocka_unit_test(test_check_bad_arguments),
        cmocka_unit_test(test_naive),
        cmocka_unit_test(test_collapse_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
