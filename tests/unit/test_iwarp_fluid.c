/* Unit tests for iWarp link sharing (lib/net/iwarp_fluid.c) and for the
 * capacity rule of the iwarp network model (lib/net/iwarp.c), against
 * doc/design/iwarp-tcs.md sections 3.3-3.5 and Warfel 1996, sections
 * 3.1.5.1-3 and 6.4.2.  Expected rates and times are computed here from
 * the constants (word_time 2 clocks of 50 ns, skip_period 1000, ...). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "machine.h"
#include "msg.h"
#include "net.h"

#include "../../lib/net/iwarp.h"
#include "../../lib/net/iwarp_fluid.h"

#define CLK  50000ULL  /* ps per clock (iwarp.clock = 50 ns) */
#define WT   (2 * CLK) /* iwarp.word_time = 2 clocks */
#define SKIP 1000ULL   /* iwarp.skip_period */

static uint64_t gcd(uint64_t a, uint64_t b)
{
    return b ? gcd(b, a % b) : a;
}

/* U: the word time (ps) times a multiple of 1..20 and of skip_period + 1,
 * so that a link's capacity per ps divides by every share below. */
static uint64_t expected_unit(void)
{
    uint64_t u = 1;
    for (uint64_t k = 2; k <= 20; k++)
        u = u / gcd(u, k) * k;
    return u / gcd(u, SKIP + 1) * (SKIP + 1) * WT;
}

static mcei_iwf_params_t params(int dq)
{
    mcei_iwf_params_t p;
    memset(&p, 0, sizeof(p));
    p.link_cap = expected_unit() / WT;
    p.skip_period = SKIP;
    p.dq_on = dq;
    p.dq_fair_max = 2;
    p.unfair_min_micro = 500000;
    p.seed = 1;
    return p;
}

/* A flow on the given links (all with the same PCT group), no cells. */
static mcei_iwf_flow_t flow(const int *links, int n, const int *groups)
{
    mcei_iwf_flow_t f;
    memset(&f, 0, sizeof(f));
    f.nlinks = n;
    f.link = links;
    f.group = groups;
    return f;
}

static void test_unit(void **state)
{
    uint64_t u = expected_unit();
    (void)state;
    assert_int_equal(mcei_iwf_unit(WT, SKIP), u);
    /* every share of the tests below is exact */
    assert_int_equal(u % WT, 0);
    for (uint64_t k = 1; k <= 20; k++)
        assert_int_equal((u / WT) % k, 0);
    assert_int_equal((u / WT) % (SKIP + 1), 0);
}

/* A workspace kept between calls (the model's) gives the same rates as
 * none, as it grows and when a later call needs less of it. */
static void test_workspace_reuse(void **state)
{
    static const int l1[] = {5}, l2[] = {5, 6, 7}, l3[] = {6, 7},
                     g0[] = {0, 0, 0}, g1[] = {1, 1, 1};
    mcei_iwf_params_t p = params(1);
    mcei_iwf_ws_t ws = {0};
    mcei_iwf_flow_t a[4], b[4];
    const int sizes[] = {1, 4, 2, 3};
    (void)state;
    for (int k = 0; k < 4; k++) {
        int n = sizes[k];
        a[0] = flow(l1, 1, g0);
        a[1] = flow(l2, 3, g1);
        a[2] = flow(l3, 2, g0);
        a[3] = flow(l2, 3, g0);
        memcpy(b, a, sizeof(a));
        assert_int_equal(mcei_iwf_rates(a, n, &p, NULL), MCE_OK);
        assert_int_equal(mcei_iwf_rates(b, n, &p, &ws), MCE_OK);
        for (int i = 0; i < n; i++) {
            assert_true(a[i].rate > 0);
            assert_int_equal(a[i].rate, b[i].rate);
            assert_int_equal(a[i].kappa, b[i].kappa);
        }
    }
    assert_non_null(ws.buf);
    mcei_iwf_ws_free(&ws);
    assert_null(ws.buf);
}

static void test_lone_flow_full_rate(void **state)
{
    static const int l[] = {7, 8, 9}, g[] = {0, 0, 0};
    mcei_iwf_params_t p = params(1);
    mcei_iwf_flow_t f = flow(l, 3, g);
    (void)state;
    assert_int_equal(mcei_iwf_rates(&f, 1, &p, NULL), MCE_OK);
    /* no skip on a link with one flow: one word per word_time */
    assert_int_equal(f.rate, expected_unit() / WT);
}

static void test_two_flows_half(void **state)
{
    static const int l[] = {5}, g0[] = {0}, g1[] = {1};
    mcei_iwf_params_t p = params(1);
    uint64_t ls = expected_unit() / WT / (SKIP + 1) * SKIP;
    mcei_iwf_flow_t f[2];
    (void)state;
    /* same group, then different groups: 1/2 each of the skipped link */
    f[0] = flow(l, 1, g0);
    f[1] = flow(l, 1, g0);
    assert_int_equal(mcei_iwf_rates(f, 2, &p, NULL), MCE_OK);
    assert_int_equal(f[0].rate, ls / 2);
    assert_int_equal(f[1].rate, ls / 2);
    f[1] = flow(l, 1, g1);
    assert_int_equal(mcei_iwf_rates(f, 2, &p, NULL), MCE_OK);
    assert_int_equal(f[0].rate, ls / 2);
    assert_int_equal(f[1].rate, ls / 2);
    /* skip_period 0: never skipped */
    p.skip_period = 0;
    assert_int_equal(mcei_iwf_rates(f, 2, &p, NULL), MCE_OK);
    assert_int_equal(f[0].rate, expected_unit() / WT / 2);
}

static void test_groups_three_plus_one(void **state)
{
    /* W s.3.1.5.1: three PCTs of one group and one of another on a link:
     * 1/6, 1/6, 1/6 and 1/2 */
    static const int l[] = {12}, g0[] = {0}, g1[] = {1};
    mcei_iwf_params_t p = params(1);
    uint64_t ls = expected_unit() / WT / (SKIP + 1) * SKIP;
    mcei_iwf_flow_t f[4] = {flow(l, 1, g0), flow(l, 1, g0), flow(l, 1, g0),
                            flow(l, 1, g1)};
    (void)state;
    assert_int_equal(mcei_iwf_rates(f, 4, &p, NULL), MCE_OK);
    assert_int_equal(f[0].rate, ls / 6);
    assert_int_equal(f[1].rate, ls / 6);
    assert_int_equal(f[2].rate, ls / 6);
    assert_int_equal(f[3].rate, ls / 2);
    assert_int_equal(ls % 6, 0);
    /* pct_groups = 0 is one group for all: plain max-min, 1/4 each */
    f[3] = flow(l, 1, g0);
    assert_int_equal(mcei_iwf_rates(f, 4, &p, NULL), MCE_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(f[i].rate, ls / 4);
}

static void test_skip_only_on_shared_links(void **state)
{
    /* A on links 1 and 2, B on link 1, C, D, E on link 2 (four groups on
     * link 2): A and C-E get 1/4 of skipped link 2; B gets the rest of
     * skipped link 1 (3/4): max-min redistribution across links */
    static const int a[] = {1, 2}, b[] = {1}, c[] = {2};
    static const int ga[] = {0, 0}, g0[] = {0}, g1[] = {1}, g2[] = {2},
                     g3[] = {3};
    mcei_iwf_params_t p = params(1);
    uint64_t ls = expected_unit() / WT / (SKIP + 1) * SKIP;
    mcei_iwf_flow_t f[5] = {flow(a, 2, ga), flow(b, 1, g1), flow(c, 1, g1),
                            flow(c, 1, g2), flow(c, 1, g3)};
    (void)state;
    (void)g0;
    assert_int_equal(mcei_iwf_rates(f, 5, &p, NULL), MCE_OK);
    assert_int_equal(f[0].rate, ls / 4);
    assert_int_equal(f[1].rate, ls - ls / 4);
    assert_int_equal(f[2].rate, ls / 4);
    assert_int_equal(f[3].rate, ls / 4);
    assert_int_equal(f[4].rate, ls / 4);
    /* two flows on two different links: each alone, full and unskipped */
    f[1] = flow(c, 1, g1);
    f[0] = flow(b, 1, g0);
    assert_int_equal(mcei_iwf_rates(f, 2, &p, NULL), MCE_OK);
    assert_int_equal(f[0].rate, expected_unit() / WT);
    assert_int_equal(f[1].rate, expected_unit() / WT);
}

static void test_dq_caps(void **state)
{
    /* Two connections through cell 9 on different links, one turning
     * there: DQ congestion 2 (W s.6.4.2 "half-bandwidth (where DQ
     * congestion = 2)"), capped at 1/2 of the link, fairly. */
    static const int l1[] = {1, 2}, l2[] = {3, 4}, l3[] = {5, 6};
    static const int g[] = {0, 0}, cell[] = {9};
    static const unsigned char turn[] = {1}, straight[] = {0};
    mcei_iwf_params_t p = params(1);
    uint64_t L = expected_unit() / WT;
    mcei_iwf_flow_t f[3] = {flow(l1, 2, g), flow(l2, 2, g), flow(l3, 2, g)};
    uint64_t r1, r2;
    (void)state;
    for (int i = 0; i < 3; i++) {
        f[i].ncells = 1;
        f[i].cell = cell;
        f[i].turn = i == 0 ? turn : straight;
        f[i].key = (uint64_t)i;
    }
    assert_int_equal(mcei_iwf_rates(f, 2, &p, NULL), MCE_OK);
    assert_int_equal(f[0].kappa, 2);
    assert_int_equal(f[0].rate, L / 2);
    assert_int_equal(f[1].rate, L / 2);
    /* no corner in the cell: no DQ congestion */
    f[0].turn = straight;
    assert_int_equal(mcei_iwf_rates(f, 2, &p, NULL), MCE_OK);
    assert_int_equal(f[0].kappa, 1);
    assert_int_equal(f[0].rate, L);
    /* dq_model = off: no cap */
    f[0].turn = turn;
    p.dq_on = 0;
    assert_int_equal(mcei_iwf_rates(f, 2, &p, NULL), MCE_OK);
    assert_int_equal(f[0].rate, L);
    /* three through the cell: kappa 3 > dq_fair_max 2 is unfair: each
     * gets a factor in [dq_unfair_min, 1] of L / 3, the same for the same
     * (seed, connection, epoch) */
    p.dq_on = 1;
    assert_int_equal(mcei_iwf_rates(f, 3, &p, NULL), MCE_OK);
    r1 = f[1].rate;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(f[i].kappa, 3);
        assert_true(f[i].rate >= L / 3 / 2 && f[i].rate <= L / 3);
    }
    assert_int_equal(mcei_iwf_rates(f, 3, &p, NULL), MCE_OK);
    r2 = f[1].rate;
    assert_int_equal(r1, r2);
}

static void test_throttle(void **state)
{
    /* A TCS throttle (design s.3.3, W s.6.4.2 "throttle all links down to
     * 1/3"): a lone connection throttled to 1/4 gets L / 4; three through
     * a cell with a corner (kappa 3 > dq_fair_max 2) throttled to 1/3 get
     * exactly L / 3 each, fairly, where unthrottled they get the seeded
     * unfair share; a throttle below the congestion (1/2 < kappa 3) leaves
     * them unfair and below L / 2. */
    static const int l1[] = {1, 2}, l2[] = {3, 4}, l3[] = {5, 6};
    static const int g[] = {0, 0}, cell[] = {9};
    static const unsigned char turn[] = {1}, straight[] = {0};
    mcei_iwf_params_t p = params(1);
    uint64_t L = expected_unit() / WT;
    mcei_iwf_flow_t f[3] = {flow(l1, 2, g), flow(l2, 2, g), flow(l3, 2, g)};
    int unfair = 0;
    (void)state;
    f[0].throttle = 4;
    assert_int_equal(mcei_iwf_rates(f, 1, &p, NULL), MCE_OK);
    assert_int_equal(f[0].rate, L / 4);
    for (int i = 0; i < 3; i++) {
        f[i].ncells = 1;
        f[i].cell = cell;
        f[i].turn = i == 0 ? turn : straight;
        f[i].key = (uint64_t)i;
        f[i].throttle = 3;
    }
    assert_int_equal(mcei_iwf_rates(f, 3, &p, NULL), MCE_OK);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(f[i].kappa, 3);
        assert_int_equal(f[i].rate, L / 3);
    }
    for (int i = 0; i < 3; i++)
        f[i].throttle = 0;
    assert_int_equal(mcei_iwf_rates(f, 3, &p, NULL), MCE_OK);
    for (int i = 0; i < 3; i++)
        unfair += f[i].rate < L / 3;
    assert_true(unfair > 0);
    for (int i = 0; i < 3; i++)
        f[i].throttle = 2;
    assert_int_equal(mcei_iwf_rates(f, 3, &p, NULL), MCE_OK);
    for (int i = 0; i < 3; i++)
        assert_true(f[i].rate >= L / 3 / 2 && f[i].rate <= L / 3);
}

/* ---- the capacity rule through the model (lib/net/iwarp.c) ------------ */

#define MAXD 256

typedef struct collector {
    mcei_msg_t *m[MAXD];
    mce_time_t t[MAXD];
    size_t n;
} collector_t;

static void collect(void *ctx, mcei_msg_t *msg, mce_time_t arrival)
{
    collector_t *c = ctx;
    assert_true(c->n < MAXD);
    c->m[c->n] = msg;
    c->t[c->n++] = arrival;
}

static mcei_msg_t *msg(mce_time_t ts, int src, int dst, int64_t type,
                       uint64_t a0, uint64_t a1, uint64_t size, uint64_t seq)
{
    mcei_msg_t *m = calloc(1, sizeof(*m));
    assert_non_null(m);
    m->w.ts = ts;
    m->w.src = src;
    m->w.dst = dst;
    m->w.seq = seq;
    m->w.ctx = MCEI_CTX_PROTOCOL;
    m->w.type = type;
    m->w.aux[0] = a0;
    m->w.aux[1] = a1;
    m->w.size = size;
    return m;
}

/* The segment (rate, entered words) of source-side notice i. */
static void seg_of(const mcei_msg_t *m, uint64_t *rate, uint64_t *words)
{
    mcei_iw_seg_t s;
    memcpy(&s, m->w.data, sizeof(s));
    *rate = s.rate;
    *words = (uint64_t)(((unsigned __int128)s.e_hi << 64 | s.e_lo) /
                        expected_unit());
}

static void test_capacity_stall_and_resume(void **state)
{
    static mcei_engine_t eng;
    mcei_machine_t mach;
    mcei_net_t net;
    collector_t col;
    char err[512] = "", path[1024];
    const uint64_t H = 4 + 6 + 4, L = expected_unit() / WT;
    const mce_time_t T = 1000 * CLK, base = T + 2 * CLK, R = 5000 * CLK;
    uint64_t seq = 0, rate, words;
    int stalls = 0, resumes = 0, ends = 0, data = 0;
    (void)state;
    memset(&eng, 0, sizeof(eng));
    mcei_eng = &eng; /* message allocation and release */
    snprintf(path, sizeof(path), "%s/share/machines/iwarp.conf", MCE_SRCDIR);
    memset(&mach, 0, sizeof(mach));
    assert_int_equal(
        mcei_machine_load(&mach, path, NULL, NULL, err, sizeof(err)), MCE_OK);
    memset(&net, 0, sizeof(net));
    memset(&col, 0, sizeof(col));
    net.ops = mcei_net_lookup("iwarp");
    assert_non_null(net.ops);
    net.nodes = 64;
    net.deliver = collect;
    net.deliver_ctx = &col;
    assert_int_equal(net.ops->init(&net, &mach, err, sizeof(err)), MCE_OK);
    /* (0,0) PCT 3 -> X+ -> (1,0) -> (2,0) -> (3,0) PCT 3 -> CPU */
    assert_int_equal(
        net.ops->inject(
            &net, msg(0, 0, 0, MCEI_IW_CFG,
                      mcei_iw_cfg_pack(3, MCEI_IW_CPU, 0, MCEI_IW_XP, 3, 3, 0),
                      0, 0, seq++)),
        MCE_OK);
    for (int c = 1; c <= 2; c++)
        assert_int_equal(
            net.ops->inject(&net, msg(0, c, c, MCEI_IW_CFG,
                                      mcei_iw_cfg_pack(3, MCEI_IW_XM, 3,
                                                       MCEI_IW_XP, 3, -1, 0),
                                      0, 0, seq++)),
            MCE_OK);
    assert_int_equal(
        net.ops->inject(
            &net, msg(0, 3, 3, MCEI_IW_CFG,
                      mcei_iw_cfg_pack(3, MCEI_IW_XM, 3, MCEI_IW_CPU, 0, 0, 0),
                      0, 0, seq++)),
        MCE_OK);
    /* 64 words written at clock 1000, nobody reading */
    assert_int_equal(net.ops->advance(&net, T), MCE_OK);
    assert_int_equal(
        net.ops->inject(&net, msg(T, 0, 3, MCEI_IW_DATA, 3, 0, 256, seq++)),
        MCE_OK);
    assert_int_equal(net.ops->advance(&net, R), MCE_OK);
    /* the reader takes the 64 words at clock 5000 */
    assert_int_equal(
        net.ops->inject(&net, msg(R, 3, 3, MCEI_IW_READ, 3, 64, 0, seq++)),
        MCE_OK);
    assert_int_equal(net.ops->advance(&net, MCEI_TIME_INF - 1), MCE_OK);
    assert_int_equal(net.ops->next_event(&net), MCEI_TIME_INF);
    for (size_t i = 0; i < col.n; i++) {
        mcei_msg_t *m = col.m[i];
        if (m->w.type == MCEI_IW_DATA) {
            /* first word readable: entered at base + word_time, + H +
             * gate_out */
            assert_int_equal(col.t[i], base + WT + (H + 1) * CLK);
            data++;
        } else if (m->w.type == MCEI_IW_SEG &&
                   (m->w.aux[0] >> 8 & 1) == MCEI_IW_SRC_SIDE) {
            seg_of(m, &rate, &words);
            if (col.t[i] == base) {
                assert_int_equal(rate, L); /* alone: full rate */
                assert_int_equal(words, 0);
            } else if (col.t[i] == base + 24 * WT) {
                /* C - pct_words = 8 x 4 - 8 = 24 words in: full */
                assert_int_equal(rate, 0);
                assert_int_equal(words, 24);
                assert_true(m->w.aux[0] & MCEI_IW_SEG_FULL);
                stalls++;
            } else if (col.t[i] == R + H * CLK) {
                /* the read reaches the source one path latency later */
                assert_int_equal(rate, L);
                assert_int_equal(words, 24);
                resumes++;
            } else if (col.t[i] == R + H * CLK + 40 * WT) {
                assert_int_equal(rate, 0);
                assert_int_equal(words, 64);
                assert_false(m->w.aux[0] & MCEI_IW_SEG_FULL);
                ends++;
            } else if (rate != 0) {
                fail_msg("unexpected segment at %llu ps",
                         (unsigned long long)col.t[i]);
            }
        }
    }
    assert_int_equal(data, 1);
    assert_int_equal(stalls, 1);
    assert_int_equal(resumes, 1);
    assert_int_equal(ends, 1);
    for (size_t i = 0; i < col.n; i++)
        mcei_msg_release(col.m[i]);
    net.ops->fini(&net);
    mcei_machine_free(&mach);
    while (eng.free_msgs) {
        mcei_msg_t *m = eng.free_msgs;
        eng.free_msgs = m->next;
        free(m);
    }
    mcei_eng = NULL;
}

/* The core knows only the models registered into it: this one. */
extern const mcei_net_ops_t mcei_net_iwarp_ops;

int main(void)
{
    if (mcei_register_net(&mcei_net_iwarp_ops) != MCE_OK)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unit),
        cmocka_unit_test(test_workspace_reuse),
        cmocka_unit_test(test_lone_flow_full_rate),
        cmocka_unit_test(test_two_flows_half),
        cmocka_unit_test(test_groups_three_plus_one),
        cmocka_unit_test(test_skip_only_on_shared_links),
        cmocka_unit_test(test_dq_caps),
        cmocka_unit_test(test_throttle),
        cmocka_unit_test(test_capacity_stall_and_resume),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
