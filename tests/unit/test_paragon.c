/* Unit tests for the Paragon network model (lib/net/paragon.c) driven
 * through the mcei_net_ops_t interface, without the engine: messages are
 * injected by hand and the delivery times compared with
 *  - the paper's formula for one uncontended transfer (Bokhari and Nicol
 *    1996, Table 1: 231 + 0.022 m us), computed here from the printed
 *    numbers, and
 *  - the mechanisms the model states (a node injects one worm at a time; a
 *    link carries floor(link rate / stream rate) worms; a worm that cannot
 *    advance holds the links behind it), with expected times derived here
 *    from those statements and the paper's numbers, not read from the
 *    model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "engine.h"
#include "machine.h"
#include "msg.h"
#include "net.h"

extern const mcei_net_ops_t mcei_net_paragon_ops;

#define US 1000000ULL /* ps per microsecond */
#define M 15232ULL    /* the paper's slice size, bytes */
/* Table 1, from the paper's printed numbers: 231 us + 0.022 us/byte. */
#define COMM(m) (231ULL * US + (m) * 22000ULL)
#define STREAM(m) ((m) * 22000ULL) /* 0.022 us per byte */

#define MAXD 256

typedef struct fx {
    mcei_engine_t eng;
    mcei_machine_t mach;
    mcei_net_t net;
    mcei_msg_t *data[MAXD]; /* deliveries of data messages, in order */
    mce_time_t at[MAXD];
    size_t n;
    size_t sent; /* sender notifications */
} fx_t;

static void collect(void *ctx, mcei_msg_t *m, mce_time_t arrival)
{
    fx_t *f = ctx;
    if (m->w.ctx == MCEI_CTX_PROTOCOL && m->w.type == MCEI_NET_SENT) {
        f->sent++;
        mcei_msg_release(m);
        return;
    }
    assert_true(f->n < MAXD);
    f->data[f->n] = m;
    f->at[f->n++] = arrival;
}

/* Open the shipped paragon.conf with @p width columns and optional
 * overrides (key=value pairs, NULL-terminated). */
static fx_t *open_net(int nodes, const char *width, const char *const *set)
{
    fx_t *f = calloc(1, sizeof(*f));
    char err[512] = "", path[1024];
    mcei_kvlist_t ov;
    assert_non_null(f);
    mcei_eng = &f->eng; /* message allocation and release */
    memset(&ov, 0, sizeof(ov));
    assert_int_equal(mcei_kv_set(&ov, "paragon.width", width, "test"), MCE_OK);
    for (; set && set[0]; set += 2)
        assert_int_equal(mcei_kv_set(&ov, set[0], set[1], "test"), MCE_OK);
    snprintf(path, sizeof(path), "%s/share/machines/paragon.conf",
             MCE_SRCDIR);
    int rc = mcei_machine_load(&f->mach, path, NULL, &ov, err, sizeof(err));
    if (rc != MCE_OK)
        print_error("load: %s\n", err);
    assert_int_equal(rc, MCE_OK);
    mcei_kv_free(&ov);
    f->net.ops = &mcei_net_paragon_ops;
    f->net.nodes = nodes;
    f->net.deliver = collect;
    f->net.deliver_ctx = f;
    rc = f->net.ops->init(&f->net, &f->mach, err, sizeof(err));
    if (rc != MCE_OK)
        print_error("init: %s\n", err);
    assert_int_equal(rc, MCE_OK);
    return f;
}

static void close_net(fx_t *f)
{
    f->net.ops->fini(&f->net);
    for (size_t i = 0; i < f->n; i++)
        mcei_msg_release(f->data[i]);
    mcei_machine_free(&f->mach);
    while (f->eng.free_msgs) {
        mcei_msg_t *m = f->eng.free_msgs;
        f->eng.free_msgs = m->next;
        free(m);
    }
    mcei_eng = NULL;
    free(f);
}

static void send(fx_t *f, mce_time_t ts, int src, int dst, uint64_t seq,
                 uint64_t size)
{
    mcei_msg_t *m = calloc(1, sizeof(*m));
    assert_non_null(m);
    m->w.ts = ts;
    m->w.src = src;
    m->w.dst = dst;
    m->w.seq = seq;
    m->w.size = size;
    m->w.ctx = MCEI_CTX_USER; /* no payload: the model never reads it */
    assert_int_equal(f->net.ops->inject(&f->net, m), MCE_OK);
}

static void run(fx_t *f)
{
    assert_int_equal(f->net.ops->advance(&f->net, MCEI_TIME_INF), MCE_OK);
    assert_int_equal(f->net.ops->in_flight(&f->net), 0);
}

/* Arrival of the message from @p src. */
static mce_time_t arrival_of(const fx_t *f, int src)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->data[i]->w.src == src)
            return f->at[i];
    fail_msg("no message from node %d delivered", src);
    return 0;
}

/* ---- the paper's formula ------------------------------------------------ */

/* Table 1: one uncontended UNFORCED transfer of m >= 8640 bytes costs
 * 231 + 0.022 m us, wherever it goes on the mesh. */
static void test_uncontended_formula(void **state)
{
    static const uint64_t sizes[] = {8640, M, 65536, 1 << 20};
    static const int pairs[][2] = {{0, 1}, {0, 255}, {137, 3}, {200, 200 - 16}};
    (void)state;
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
        for (size_t p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++) {
            fx_t *f = open_net(256, "16", NULL);
            mce_time_t t0 = 7 * US + 123;
            send(f, t0, pairs[p][0], pairs[p][1], 0, sizes[s]);
            run(f);
            assert_int_equal(f->n, 1);
            assert_int_equal(f->at[0], t0 + COMM(sizes[s]));
            assert_int_equal(f->sent, 1);
            close_net(f);
        }
}

/* ---- mechanisms --------------------------------------------------------- */

/* A node injects one worm at a time: two long messages a node sends at
 * once to different nodes arrive one stream time apart. */
static void test_one_worm_per_node(void **state)
{
    (void)state;
    fx_t *f = open_net(16, "4", NULL);
    send(f, 0, 5, 0, 0, M);
    send(f, 0, 5, 15, 1, M);
    run(f);
    assert_int_equal(f->n, 2);
    assert_int_equal(f->at[0], COMM(M));
    assert_int_equal(f->at[1], COMM(M) + STREAM(M));
    close_net(f);
}

/* "2 or 3 messages [can] share a communication link with minor overhead"
 * (the paper's abstract): with links 3.85 times faster than a stream,
 * three worms cross one link at the full rate; a fourth waits for one of
 * them.  Nodes 0-3 of a row of 8 send to 4-7: every route crosses the link
 * 3 -> 4. */
static void test_three_worms_per_link(void **state)
{
    (void)state;
    fx_t *f = open_net(64, "8", NULL);
    for (int i = 0; i < 4; i++)
        send(f, 0, i, 4 + i, 0, M);
    run(f);
    assert_int_equal(f->n, 4);
    int late = 0;
    for (int i = 0; i < 4; i++) {
        mce_time_t t = arrival_of(f, i);
        if (t == COMM(M) + STREAM(M))
            late++;
        else
            assert_int_equal(t, COMM(M));
    }
    assert_int_equal(late, 1);
    close_net(f);
}

/* Two or three worms on a link: no overhead at all. */
static void test_two_worms_share_a_link(void **state)
{
    (void)state;
    fx_t *f = open_net(64, "8", NULL);
    send(f, 0, 0, 6, 0, M);
    send(f, 0, 1, 7, 0, M);
    run(f);
    assert_int_equal(arrival_of(f, 0), COMM(M));
    assert_int_equal(arrival_of(f, 1), COMM(M));
    close_net(f);
}

/* Wormhole blocking: a worm that cannot advance holds the links behind
 * it.  Links as slow as a stream carry one worm each here.  X (6 -> 2)
 * holds node 2's ejection; W1 (0 -> 2, sent 1 us later) takes the links
 * 0 -> 1 -> 2 and waits for the ejection, holding them; W2 (1 -> 3, sent
 * with W1) needs the link 1 -> 2 that W1 holds, so it waits for W1's whole
 * stream although its own destination is free: W1 streams when X's ends,
 * W2 when W1's ends. */
static void test_blocked_worm_holds_links(void **state)
{
    static const char *const one_lane[] = {"paragon.link_per_byte", "22 ns",
                                           NULL};
    (void)state;
    fx_t *f = open_net(16, "4", one_lane);
    send(f, 0, 6, 2, 0, M);
    send(f, 1 * US, 0, 2, 0, M);
    send(f, 1 * US, 1, 3, 0, M);
    run(f);
    assert_int_equal(f->n, 3);
    mce_time_t x = arrival_of(f, 6);
    assert_int_equal(x, COMM(M));
    assert_int_equal(arrival_of(f, 0), x + STREAM(M));
    assert_int_equal(arrival_of(f, 1), x + 2 * STREAM(M));
    close_net(f);
}

/* Without the blocked worm in the way, W2 alone is uncontended. */
static void test_unblocked_control(void **state)
{
    static const char *const one_lane[] = {"paragon.link_per_byte", "22 ns",
                                           NULL};
    (void)state;
    fx_t *f = open_net(16, "4", one_lane);
    send(f, 1 * US, 1, 3, 0, M);
    run(f);
    assert_int_equal(arrival_of(f, 1), 1 * US + COMM(M));
    close_net(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uncontended_formula),
        cmocka_unit_test(test_one_worm_per_node),
        cmocka_unit_test(test_two_worms_share_a_link),
        cmocka_unit_test(test_three_worms_per_link),
        cmocka_unit_test(test_blocked_worm_holds_links),
        cmocka_unit_test(test_unblocked_control),
    };
    /* The core knows only the models registered into it: this one. */
    if (mcei_register_net(&mcei_net_paragon_ops) != MCE_OK)
        return 1;
    return cmocka_run_group_tests(tests, NULL, NULL);
}
