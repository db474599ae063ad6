/* Unit tests for the Paragon network model (lib/net/paragon.c) driven
 * through the mcei_net_ops_t interface, without the engine: messages are
 * injected by hand and the delivery times compared with
 *  - the paper's formula for one uncontended transfer (Bokhari and Nicol
 *    1996, Table 1: 231 + 0.022 m us), computed here from the printed
 *    numbers, and
 *  - the mechanisms the model states (a node injects one message at a
 *    time; a link carries floor(link rate / stream rate) worms; a worm
 *    that cannot advance holds the links behind it; a message longer than
 *    paragon.packet travels as several worms, each taking the links and
 *    the ejection again), with expected times derived here from those
 *    statements and the paper's numbers, not read from the model.  The
 *    lane tests send each message as one worm (paragon.packet = 0) so that
 *    they test the lanes alone; the packet tests set the packet size they
 *    derive their times with. */
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
#define M  15232ULL   /* the paper's slice size, bytes */
/* Table 1, from the paper's printed numbers: 231 us + 0.022 us/byte. */
#define COMM(m)   (231ULL * US + (m)*22000ULL)
#define STREAM(m) ((m)*22000ULL) /* 0.022 us per byte */

#define MAXD 256

typedef struct fx {
    mcei_engine_t eng;
    mcei_machine_t mach;
    mcei_net_t net;
    mcei_msg_t *data[MAXD]; /* deliveries of data messages, in order */
    mce_time_t at[MAXD];
    size_t n;
    size_t sent;              /* sender notifications */
    mce_time_t sent_at[MAXD]; /* the last one's time, by sending node */
} fx_t;

static void collect(void *ctx, mcei_msg_t *m, mce_time_t arrival)
{
    fx_t *f = ctx;
    if (m->w.ctx == MCEI_CTX_PROTOCOL && m->w.type == MCEI_NET_SENT) {
        f->sent++;
        assert_true(m->w.src >= 0 && m->w.src < MAXD);
        f->sent_at[m->w.src] = arrival;
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
    snprintf(path, sizeof(path), "%s/share/machines/paragon.conf", MCE_SRCDIR);
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
 * 231 + 0.022 m us, wherever it goes on the mesh, whatever the packet size
 * (the shipped one, one worm a message, or an odd one): the packets of a
 * message alone follow each other without a gap. */
static void test_uncontended_formula(void **state)
{
    static const uint64_t sizes[] = {8640, M, 65536, 1 << 20};
    static const int pairs[][2] = {{0, 1}, {0, 255}, {137, 3}, {200, 200 - 16}};
    static const char *const packets[][3] = {{NULL},
                                             {"paragon.packet", "0", NULL},
                                             {"paragon.packet", "1000", NULL}};
    (void)state;
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
        for (size_t p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++)
            for (size_t k = 0; k < sizeof(packets) / sizeof(packets[0]); k++) {
                fx_t *f = open_net(256, "16", packets[k]);
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

/* A node injects one message at a time: two long messages a node sends at
 * once to different nodes arrive one stream time apart.  With the shipped
 * packets too: the sender's co-processor stays with a message from its
 * first packet to its last. */
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
    static const char *const whole[] = {"paragon.packet", "0", NULL};
    (void)state;
    fx_t *f = open_net(64, "8", whole);
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
    static const char *const whole[] = {"paragon.packet", "0", NULL};
    (void)state;
    fx_t *f = open_net(64, "8", whole);
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
                                           "paragon.packet", "0", NULL};
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

/* ---- packets ------------------------------------------------------------ */

#define P 4096ULL /* the packet size these tests set */

/* A null message to a node that is receiving a long message waits for the
 * packet being ejected, not for the whole message.  X (6 -> 2) is
 * streaming its first packet into node 2 when N (0 -> 2, 0 bytes) reaches
 * the ejection.  The times are read against X's send completion s_x, when
 * its last byte is out (the sender's notification): X's stream began at
 * s_x - STREAM(M).  Sent as one worm, X holds the ejection to the end: N's
 * worm (its own notification) passes at s_x.  In packets of P bytes, N
 * takes the ejection as X's first packet ends, at s_x - STREAM(M) +
 * STREAM(P), and X, waiting behind a worm of no bytes, loses nothing. */
static void null_behind(const char *packet, mce_time_t *s_x, mce_time_t *s_n)
{
    const char *const set[] = {"paragon.packet", packet, NULL};
    fx_t *f = open_net(16, "4", set);
    send(f, 0, 6, 2, 0, M);
    send(f, 100 * US, 0, 2, 0, 0); /* X's first packet ends after 110 us */
    run(f);
    assert_int_equal(f->n, 2);
    assert_int_equal(arrival_of(f, 6), COMM(M));
    *s_x = f->sent_at[6];
    *s_n = f->sent_at[0];
    close_net(f);
}

static void test_null_passes_between_packets(void **state)
{
    char p[32];
    mce_time_t s_x, s_n;
    (void)state;
    snprintf(p, sizeof(p), "%llu", (unsigned long long)P);
    null_behind("0", &s_x, &s_n);
    assert_int_equal(s_n, s_x);
    null_behind(p, &s_x, &s_n);
    assert_int_equal(s_n, s_x - STREAM(M) + STREAM(P));
}

/* Two messages through a link that carries one worm at a time take turns,
 * packet by packet.  A (0 -> 2) and B (1 -> 3) both cross 1 -> 2; A, the
 * lower source, gets the link first.  M = 3 P + r: A's packets go first,
 * second, ..., so A's last packet waits for B's first three (STREAM(3 P));
 * B's last waits for all of A's (STREAM(M)) as it would for one worm. */
static void test_packets_take_turns_on_a_link(void **state)
{
    char p[32];
    (void)state;
    snprintf(p, sizeof(p), "%llu", (unsigned long long)P);
    const char *const set[] = {"paragon.link_per_byte", "22 ns",
                               "paragon.packet", p, NULL};
    fx_t *f = open_net(16, "4", set);
    assert_true(M > 3 * P && M < 4 * P);
    send(f, 0, 0, 2, 0, M);
    send(f, 0, 1, 3, 0, M);
    run(f);
    assert_int_equal(arrival_of(f, 0), COMM(M) + STREAM(3 * P));
    assert_int_equal(arrival_of(f, 1), COMM(M) + STREAM(M));
    close_net(f);
}

/* ---- committed deliveries ----------------------------------------------- */

/* One event a node hears of: a delivery (kind 0) or a sender notice (1). */
typedef struct cev {
    int node, kind;
    int src;
    uint64_t seq;
    mce_time_t t, until; /* until: committed events only */
    int committed;
} cev_t;

#define MAXE 2048
typedef struct clog {
    fx_t *f;
    cev_t ev[MAXE];
    size_t n;
    const struct clog *ref; /* the run without commitments */
    mce_time_t horizon;     /* of the last commit call */
} clog_t;

static clog_t *clog_of; /* the callbacks' context is the fixture */

static void clog_add(clog_t *c, mcei_msg_t *m, mce_time_t t, int committed,
                     mce_time_t until)
{
    cev_t *e;
    int sent = m->w.ctx == MCEI_CTX_PROTOCOL && m->w.type == MCEI_NET_SENT;
    assert_true(c->n < MAXE);
    e = &c->ev[c->n++];
    e->kind = sent;
    e->node = m->w.dst;
    e->src = m->w.src;
    e->seq = sent ? m->w.aux[0] : m->w.seq;
    e->t = t;
    e->committed = committed;
    e->until = until;
    mcei_msg_release(m);
}

static void clog_deliver(void *ctx, mcei_msg_t *m, mce_time_t t)
{
    (void)ctx;
    clog_add(clog_of, m, t, 0, 0);
}

/* A committed event: at or after the horizon, and every event of the
 * reference run at its node before @p until has been reported already
 * (counting this one). */
static void clog_committed(void *ctx, mcei_msg_t *m, mce_time_t t,
                           mce_time_t until)
{
    clog_t *c = clog_of;
    (void)ctx;
    assert_true(t >= c->horizon);
    assert_true(until > t);
    clog_add(c, m, t, 1, until);
    for (size_t i = 0; i < c->ref->n; i++) {
        const cev_t *r = &c->ref->ev[i];
        size_t j;
        if (r->node != c->ev[c->n - 1].node || r->t >= until)
            continue;
        for (j = 0; j < c->n; j++)
            if (c->ev[j].kind == r->kind && c->ev[j].src == r->src &&
                c->ev[j].seq == r->seq)
                break;
        if (j == c->n)
            fail_msg("node %d: an event at %llu ps (from %d) not reported "
                     "before a commitment until %llu ps",
                     r->node, (unsigned long long)r->t, r->src,
                     (unsigned long long)until);
    }
}

/* A mixed load on 4 x 4: a hot spot, random pairs, self messages, short,
 * long and FORCED messages of several packets, sent over 2 ms; message i
 * is sent at i x 9 us. */
#define NLOAD 400
static void load_msg(int i, mcei_msg_t *m)
{
    static const uint64_t sizes[] = {0, 100, 8192, 8193, M, 40000};
    uint64_t x = (uint64_t)i * 6364136223846793005ULL + 1442695040888963407ULL;
    memset(m, 0, sizeof(*m));
    m->w.ts = (uint64_t)i * 9 * US;
    m->w.src = (int)((x >> 33) % 16);
    m->w.dst = i % 5 == 0 ? 0 : i % 17 == 0 ? m->w.src : (int)((x >> 45) % 16);
    m->w.seq = (uint64_t)i;
    m->w.size = sizes[(x >> 20) % 6];
    m->w.flags = (x >> 50) % 3 == 0 ? MCEI_MSG_FORCED : 0;
    m->w.ctx = MCEI_CTX_USER;
}

static void inject_load(fx_t *f, int from, int to)
{
    for (int i = from; i < to; i++) {
        mcei_msg_t *m = calloc(1, sizeof(*m));
        assert_non_null(m);
        load_msg(i, m);
        assert_int_equal(f->net.ops->inject(&f->net, m), MCE_OK);
    }
}

static int cev_same(const cev_t *a, const cev_t *b)
{
    return a->kind == b->kind && a->src == b->src && a->seq == b->seq;
}

/* Committing changes no time: the same events at the same times as a run
 * that never commits, each once, although messages are still injected
 * (with later send times) after commitments; and nothing reaches a node
 * before a commitment's limit that it was not handed already. */
static void test_commit_changes_no_time(void **state)
{
    static clog_t ref, got;
    fx_t *f;
    int next = 0, commits = 0;
    (void)state;
    memset(&ref, 0, sizeof(ref));
    memset(&got, 0, sizeof(got));

    clog_of = &ref;
    f = open_net(16, "4", NULL);
    f->net.deliver = clog_deliver;
    inject_load(f, 0, NLOAD);
    run(f);
    close_net(f);
    assert_true(ref.n == 2 * NLOAD);

    clog_of = &got;
    got.ref = &ref;
    f = open_net(16, "4", NULL);
    f->net.deliver = clog_deliver;
    f->net.committed = clog_committed;
    /* Windows of 4 us (the engine's lookahead): each injects what is sent
     * in it, advances, commits. */
    for (mce_time_t h = 4 * US;; h += 4 * US) {
        int upto = next;
        while (upto < NLOAD && (mce_time_t)upto * 9 * US < h)
            upto++;
        inject_load(f, next, upto);
        next = upto;
        assert_int_equal(f->net.ops->advance(&f->net, h), MCE_OK);
        got.horizon = h;
        assert_int_equal(f->net.ops->commit(&f->net, h), MCE_OK);
        if (next == NLOAD && f->net.ops->next_event(&f->net) == MCEI_TIME_INF)
            break;
    }
    assert_int_equal(f->net.ops->in_flight(&f->net), 0);
    close_net(f);

    assert_int_equal(got.n, ref.n);
    for (size_t i = 0; i < ref.n; i++) {
        size_t hits = 0;
        for (size_t j = 0; j < got.n; j++)
            if (cev_same(&ref.ev[i], &got.ev[j])) {
                hits++;
                assert_int_equal(got.ev[j].t, ref.ev[i].t);
                assert_int_equal(got.ev[j].node, ref.ev[i].node);
            }
        assert_int_equal(hits, 1);
    }
    for (size_t j = 0; j < got.n; j++)
        commits += got.ev[j].committed;
    /* The load keeps co-processors busy: most events are committed. */
    assert_true(commits > (int)got.n / 2);
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
        cmocka_unit_test(test_null_passes_between_packets),
        cmocka_unit_test(test_packets_take_turns_on_a_link),
        cmocka_unit_test(test_commit_changes_no_time),
    };
    /* The core knows only the models registered into it: this one. */
    if (mcei_register_net(&mcei_net_paragon_ops) != MCE_OK)
        return 1;
    return cmocka_run_group_tests(tests, NULL, NULL);
}
