/* Unit tests for the ideal network model (lib/net/ideal.c) driven through
 * the model registry and the mcei_net_ops_t interface. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "msg.h"
#include "net.h"

/* Model parameters used by most tests, in picoseconds. */
#define LAT_TEXT "1.234567 us"
#define LAT_PS   1234567ULL
#define PB_TEXT  "0.789 ns"
#define PB_PS    789ULL

/* ---- delivery collector ------------------------------------------------ */

#define MAX_MSGS 4096

typedef struct collector {
    mcei_msg_t *msgs[MAX_MSGS];
    mce_time_t arrivals[MAX_MSGS];
    size_t n;
    mcei_net_t *net; /* to check in_flight from inside the callback */
    size_t in_flight_seen[MAX_MSGS];
} collector_t;

static void collect(void *ctx, mcei_msg_t *msg, mce_time_t arrival)
{
    collector_t *c = ctx;
    assert_true(c->n < MAX_MSGS);
    c->msgs[c->n] = msg;
    c->arrivals[c->n] = arrival;
    c->in_flight_seen[c->n] = c->net->ops->in_flight(c->net);
    c->n++;
}

/* ---- fixture ----------------------------------------------------------- */

typedef struct fixture {
    mcei_machine_t machine;
    mcei_net_t net;
    collector_t col;
    mcei_msg_t *all[MAX_MSGS]; /* every message allocated, freed at the end */
    size_t nall;
} fixture_t;

static void machine_with(mcei_machine_t *m, const char *latency,
                         const char *per_byte)
{
    memset(m, 0, sizeof(*m));
    m->name = strdup("unit-ideal");
    assert_non_null(m->name);
    assert_int_equal(mcei_kv_set(&m->kv, "network", "ideal", "test"), MCE_OK);
    if (latency)
        assert_int_equal(mcei_kv_set(&m->kv, "latency", latency, "test"),
                         MCE_OK);
    if (per_byte)
        assert_int_equal(mcei_kv_set(&m->kv, "per_byte", per_byte, "test"),
                         MCE_OK);
}

static void net_open(fixture_t *f, const char *latency, const char *per_byte)
{
    char err[512] = "";
    machine_with(&f->machine, latency, per_byte);
    memset(&f->net, 0, sizeof(f->net));
    f->net.ops = mcei_net_lookup("ideal");
    assert_non_null(f->net.ops);
    f->net.nodes = 64;
    f->net.deliver = collect;
    f->net.deliver_ctx = &f->col;
    f->col.net = &f->net;
    int rc = f->net.ops->init(&f->net, &f->machine, err, sizeof(err));
    if (rc != MCE_OK)
        print_error("init: %s\n", err);
    assert_int_equal(rc, MCE_OK);
    assert_non_null(f->net.priv);
}

static int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof(*f));
    if (f == NULL)
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture_t *f = *state;
    if (f->net.ops != NULL && f->net.priv != NULL)
        f->net.ops->fini(&f->net);
    for (size_t i = 0; i < f->nall; i++)
        free(f->all[i]);
    mcei_machine_free(&f->machine);
    free(f);
    return 0;
}

static mcei_msg_t *new_msg(fixture_t *f, mce_time_t ts, int src, int dst,
                           uint64_t seq, uint64_t size)
{
    mcei_msg_t *m = calloc(1, sizeof(*m));
    assert_non_null(m);
    assert_true(f->nall < MAX_MSGS);
    f->all[f->nall++] = m;
    m->w.ts = ts;
    m->w.src = src;
    m->w.dst = dst;
    m->w.seq = seq;
    m->w.size = size;
    return m;
}

static int inject(fixture_t *f, mcei_msg_t *m)
{
    return f->net.ops->inject(&f->net, m);
}

/* Independent statement of the contract: arrival, then source, then
 * sequence. */
static int ref_cmp(const void *pa, const void *pb)
{
    const mcei_msg_t *a = *(mcei_msg_t *const *)pa;
    const mcei_msg_t *b = *(mcei_msg_t *const *)pb;
    mce_time_t ta = a->w.ts + LAT_PS + a->w.size * PB_PS;
    mce_time_t tb = b->w.ts + LAT_PS + b->w.size * PB_PS;
    if (ta != tb)
        return ta < tb ? -1 : 1;
    if (a->w.src != b->w.src)
        return a->w.src < b->w.src ? -1 : 1;
    if (a->w.seq != b->w.seq)
        return a->w.seq < b->w.seq ? -1 : 1;
    return 0;
}

/* ---- tests ------------------------------------------------------------- */

static void test_ideal_lookup(void **state)
{
    (void)state;
    const mcei_net_ops_t *ops = mcei_net_lookup("ideal");
    assert_non_null(ops);
    assert_string_equal(ops->name, "ideal");
    assert_non_null(ops->init);
    assert_non_null(ops->fini);
    assert_non_null(ops->lookahead);
    assert_non_null(ops->inject);
    assert_non_null(ops->next_event);
    assert_non_null(ops->advance);
    assert_non_null(ops->in_flight);
    assert_null(mcei_net_lookup("nope"));
    assert_null(mcei_net_lookup(""));
    assert_null(mcei_net_lookup("Ideal"));
    assert_non_null(strstr(mcei_net_names(), "ideal"));
}

static void test_ideal_idle(void **state)
{
    fixture_t *f = *state;
    net_open(f, LAT_TEXT, PB_TEXT);
    assert_int_equal(f->net.ops->lookahead(&f->net), LAT_PS);
    assert_int_equal(f->net.ops->next_event(&f->net), MCEI_TIME_INF);
    assert_int_equal(f->net.ops->in_flight(&f->net), 0);
    assert_int_equal(f->net.ops->advance(&f->net, MCEI_TIME_INF), MCE_OK);
    assert_int_equal(f->col.n, 0);
    /* every key the model needs was read */
    char err[256];
    assert_non_null(mcei_machine_str(&f->machine, "network", NULL));
    assert_int_equal(mcei_machine_check_unused(&f->machine, err, sizeof(err)),
                     MCE_OK);
}

static void test_ideal_arrival_times(void **state)
{
    fixture_t *f = *state;
    static const uint64_t sizes[] = {0, 1, 100, 4096, 1 << 20};
    static const mce_time_t sends[] = {0, 1, 5000000, 123456789012ULL};
    net_open(f, LAT_TEXT, PB_TEXT);
    uint64_t seq = 0;
    for (size_t t = 0; t < MCEI_ARRAY_SIZE(sends); t++) {
        for (size_t s = 0; s < MCEI_ARRAY_SIZE(sizes); s++) {
            mcei_msg_t *m = new_msg(f, sends[t], 3, 4, seq++, sizes[s]);
            mce_time_t want = sends[t] + LAT_PS + sizes[s] * PB_PS;
            size_t before = f->net.ops->in_flight(&f->net);
            assert_int_equal(inject(f, m), MCE_OK);
            assert_int_equal(m->arrival, want);
            assert_int_equal(f->net.ops->in_flight(&f->net), before + 1);
            /* the earliest pending event is the minimum so far */
            assert_true(f->net.ops->next_event(&f->net) <= want);
        }
    }
    /* smallest arrival is the first send with no payload */
    assert_int_equal(f->net.ops->next_event(&f->net), sends[0] + LAT_PS);
    assert_int_equal(f->net.ops->advance(&f->net, MCEI_TIME_INF), MCE_OK);
    assert_int_equal(f->col.n, MCEI_ARRAY_SIZE(sends) * MCEI_ARRAY_SIZE(sizes));
    for (size_t i = 0; i < f->col.n; i++) {
        mcei_msg_t *m = f->col.msgs[i];
        mce_time_t want = m->w.ts + LAT_PS + m->w.size * PB_PS;
        assert_int_equal(f->col.arrivals[i], want);
        assert_int_equal(m->arrival, want);
        if (i > 0)
            assert_true(f->col.arrivals[i] >= f->col.arrivals[i - 1]);
    }
    assert_int_equal(f->net.ops->in_flight(&f->net), 0);
    assert_int_equal(f->net.ops->next_event(&f->net), MCEI_TIME_INF);
}

/* Arrival time from a machine loaded with plain units. */
static void test_ideal_units(void **state)
{
    fixture_t *f = *state;
    net_open(f, "5", "10 ns"); /* bare number: microseconds */
    assert_int_equal(f->net.ops->lookahead(&f->net), 5ULL * 1000 * 1000);
    mcei_msg_t *m = new_msg(f, 7, 0, 1, 0, 1000);
    assert_int_equal(inject(f, m), MCE_OK);
    /* 7 ps + 5 us + 1000 x 10 ns = 7 + 5,000,000 + 10,000,000 */
    assert_int_equal(m->arrival, 15000007ULL);
}

static void test_ideal_horizon(void **state)
{
    fixture_t *f = *state;
    net_open(f, LAT_TEXT, PB_TEXT);
    /* arrivals at LAT + 0, +1000, +2000, ... (sizes chosen so that
     * size x per_byte is a known step) */
    enum { N = 10 };
    mcei_msg_t *m[N];
    mce_time_t arr[N];
    for (int i = 0; i < N; i++) {
        /* ts steps by 1000 ps, no payload */
        m[i] = new_msg(f, (mce_time_t)i * 1000, i % 3, 0, (uint64_t)i, 0);
        arr[i] = (mce_time_t)i * 1000 + LAT_PS;
        assert_int_equal(inject(f, m[i]), MCE_OK);
    }
    assert_int_equal(f->net.ops->in_flight(&f->net), N);
    assert_int_equal(f->net.ops->next_event(&f->net), arr[0]);

    /* a horizon at or below the first arrival delivers nothing */
    assert_int_equal(f->net.ops->advance(&f->net, 0), MCE_OK);
    assert_int_equal(f->net.ops->advance(&f->net, arr[0]), MCE_OK);
    assert_int_equal(f->col.n, 0);
    assert_int_equal(f->net.ops->in_flight(&f->net), N);

    /* strictly below: h == arr[3] delivers 0, 1, 2 only */
    assert_int_equal(f->net.ops->advance(&f->net, arr[3]), MCE_OK);
    assert_int_equal(f->col.n, 3);
    for (int i = 0; i < 3; i++) {
        assert_ptr_equal(f->col.msgs[i], m[i]);
        assert_int_equal(f->col.arrivals[i], arr[i]);
    }
    assert_int_equal(f->net.ops->in_flight(&f->net), N - 3);
    assert_int_equal(f->net.ops->next_event(&f->net), arr[3]);
    /* in_flight already excludes a message while it is being delivered */
    assert_int_equal(f->col.in_flight_seen[0], N - 1);
    assert_int_equal(f->col.in_flight_seen[2], N - 3);

    /* the same horizon again is a no-op */
    assert_int_equal(f->net.ops->advance(&f->net, arr[3]), MCE_OK);
    assert_int_equal(f->col.n, 3);

    /* one past an arrival includes it */
    assert_int_equal(f->net.ops->advance(&f->net, arr[5] + 1), MCE_OK);
    assert_int_equal(f->col.n, 6);
    assert_ptr_equal(f->col.msgs[5], m[5]);
    assert_int_equal(f->net.ops->next_event(&f->net), arr[6]);

    /* an injection earlier than the pending ones is delivered first */
    mcei_msg_t *early = new_msg(f, 5500, 9, 0, 100, 0);
    assert_int_equal(inject(f, early), MCE_OK);
    assert_int_equal(f->net.ops->next_event(&f->net), 5500 + LAT_PS);
    assert_int_equal(f->net.ops->in_flight(&f->net), N - 6 + 1);

    assert_int_equal(f->net.ops->advance(&f->net, MCEI_TIME_INF), MCE_OK);
    assert_int_equal(f->col.n, N + 1);
    assert_ptr_equal(f->col.msgs[6], early);
    for (int i = 6; i < N; i++)
        assert_ptr_equal(f->col.msgs[i + 1], m[i]);
    assert_int_equal(f->net.ops->in_flight(&f->net), 0);
    assert_int_equal(f->net.ops->next_event(&f->net), MCEI_TIME_INF);
}

static void test_ideal_ties(void **state)
{
    fixture_t *f = *state;
    net_open(f, LAT_TEXT, PB_TEXT);
    /* All of these arrive at T = 10000 + LAT + 10 x PB:
     *  - sources 5, 2, 7, 0 with the same ts and size,
     *  - source 2 again with sequences 9, 3, 6,
     *  - source 1 sending 10 bytes fewer, 10 x PB earlier. */
    const mce_time_t ts = 10000, T = ts + LAT_PS + 10 * PB_PS;
    struct {
        mce_time_t ts;
        int src;
        uint64_t seq, size;
    } in[] = {
        {ts, 5, 1, 10},
        {ts, 2, 9, 10},
        {ts, 7, 0, 10},
        {ts, 2, 3, 10},
        {ts, 0, 4, 10},
        {ts, 2, 6, 10},
        {ts + 10 * PB_PS, 1, 2, 0},
        /* one just before and one just after T */
        {ts - 1, 9, 0, 10},
        {ts + 1, 0, 0, 10},
    };
    /* expected order, written out: (T-1,9) then at T sources 0,1,2(3,6,9),
     * 5, 7, then (T+1,0) */
    const int want_src[] = {9, 0, 1, 2, 2, 2, 5, 7, 0};
    const uint64_t want_seq[] = {0, 4, 2, 3, 6, 9, 1, 0, 0};
    const mce_time_t want_t[] = {T - 1, T, T, T, T, T, T, T, T + 1};
    size_t n = MCEI_ARRAY_SIZE(in);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(inject(f, new_msg(f, in[i].ts, in[i].src, 0, in[i].seq,
                                           in[i].size)),
                         MCE_OK);
    assert_int_equal(f->net.ops->next_event(&f->net), T - 1);
    /* h == T + 1: everything except the last */
    assert_int_equal(f->net.ops->advance(&f->net, T + 1), MCE_OK);
    assert_int_equal(f->col.n, n - 1);
    assert_int_equal(f->net.ops->advance(&f->net, T + 2), MCE_OK);
    assert_int_equal(f->col.n, n);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(f->col.msgs[i]->w.src, want_src[i]);
        assert_int_equal(f->col.msgs[i]->w.seq, want_seq[i]);
        assert_int_equal(f->col.arrivals[i], want_t[i]);
    }
}

/* Many messages, many horizons: the concatenated deliveries are the sorted
 * reference, each batch strictly below its horizon and at or above the
 * previous one. */
static void test_ideal_random(void **state)
{
    fixture_t *f = *state;
    enum { N = 1500 };
    mcei_msg_t *ref[N];
    uint64_t seqs[16] = {0};
    uint64_t rng = 0x1234567;
    net_open(f, LAT_TEXT, PB_TEXT);
    for (int i = 0; i < N; i++) {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        uint32_t r = (uint32_t)(rng >> 33);
        int src = (int)(r % 16);
        /* coarse send times and a few sizes make many exact ties */
        mce_time_t ts = (mce_time_t)((r >> 4) % 50) * 789;
        uint64_t size = ((r >> 12) % 4) == 0 ? 1 : 0;
        ref[i] = new_msg(f, ts, src, (int)((r >> 16) % 16), seqs[src]++, size);
    }
    /* inject in (ts, src, seq) order as the engine does */
    mcei_msg_t *order[N];
    memcpy(order, ref, sizeof(order));
    for (int i = 1; i < N; i++) {
        mcei_msg_t *x = order[i];
        int j = i;
        while (j > 0 && (order[j - 1]->w.ts > x->w.ts ||
                         (order[j - 1]->w.ts == x->w.ts &&
                          (order[j - 1]->w.src > x->w.src ||
                           (order[j - 1]->w.src == x->w.src &&
                            order[j - 1]->w.seq > x->w.seq))))) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = x;
    }
    for (int i = 0; i < N; i++)
        assert_int_equal(inject(f, order[i]), MCE_OK);
    assert_int_equal(f->net.ops->in_flight(&f->net), N);
    qsort(ref, N, sizeof(ref[0]), ref_cmp);

    mce_time_t prev_h = 0;
    size_t done = 0;
    for (mce_time_t h = LAT_PS; done < N; h += 3000) {
        size_t before = f->col.n;
        assert_int_equal(f->net.ops->advance(&f->net, h), MCE_OK);
        for (size_t i = before; i < f->col.n; i++) {
            assert_true(f->col.arrivals[i] < h);
            assert_true(f->col.arrivals[i] >= prev_h);
        }
        done = f->col.n;
        assert_int_equal(f->net.ops->in_flight(&f->net), N - done);
        if (done < N)
            assert_true(f->net.ops->next_event(&f->net) >= h);
        prev_h = h;
    }
    for (size_t i = 0; i < N; i++) {
        if (f->col.msgs[i] != ref[i])
            print_error("position %zu: got (src %d seq %llu), want (src %d "
                        "seq %llu)\n",
                        i, f->col.msgs[i]->w.src,
                        (unsigned long long)f->col.msgs[i]->w.seq,
                        ref[i]->w.src, (unsigned long long)ref[i]->w.seq);
        assert_ptr_equal(f->col.msgs[i], ref[i]);
    }
}

static void test_ideal_overflow(void **state)
{
    fixture_t *f = *state;
    net_open(f, LAT_TEXT, PB_TEXT);
    /* arrival would be exactly MCEI_TIME_INF, or wrap */
    mcei_msg_t *a = new_msg(f, MCEI_TIME_INF - LAT_PS, 0, 1, 0, 0);
    mcei_msg_t *b = new_msg(f, MCEI_TIME_INF - 1, 0, 1, 1, 0);
    mcei_msg_t *c = new_msg(f, 0, 0, 1, 2, UINT64_MAX / PB_PS + 1);
    mcei_msg_t *ok = new_msg(f, MCEI_TIME_INF - LAT_PS - 1, 0, 1, 3, 0);
    assert_int_equal(inject(f, a), MCE_ERR_OVERFLOW);
    assert_int_equal(inject(f, b), MCE_ERR_OVERFLOW);
    assert_int_equal(inject(f, c), MCE_ERR_OVERFLOW);
    assert_int_equal(f->net.ops->in_flight(&f->net), 0);
    assert_int_equal(f->net.ops->next_event(&f->net), MCEI_TIME_INF);
    assert_int_equal(inject(f, ok), MCE_OK);
    assert_int_equal(ok->arrival, MCEI_TIME_INF - 1);
    assert_int_equal(f->net.ops->in_flight(&f->net), 1);
    assert_int_equal(f->net.ops->advance(&f->net, MCEI_TIME_INF), MCE_OK);
    assert_int_equal(f->col.n, 1);
    assert_ptr_equal(f->col.msgs[0], ok);
}

static void test_ideal_zero_per_byte(void **state)
{
    fixture_t *f = *state;
    net_open(f, "3 ns", "0");
    assert_int_equal(f->net.ops->lookahead(&f->net), 3000);
    mcei_msg_t *m = new_msg(f, 100, 0, 1, 0, 1 << 20);
    assert_int_equal(inject(f, m), MCE_OK);
    assert_int_equal(m->arrival, 3100);
}

static void test_ideal_init_rejects(void **state)
{
    (void)state;
    static const struct {
        const char *latency, *per_byte;
        const char *want;
    } cases[] = {
        {"0", "10 ns", "latency must be positive"},
        {"0 us", "10 ns", "latency must be positive"},
        {"0.000 s", "1 ps", "latency must be positive"},
        {NULL, "10 ns", "'latency'"},
        {"5 us", NULL, "'per_byte'"},
        {NULL, NULL, "'latency'"},
        {"fast", "10 ns", "'latency'"},
        {"5 us", "-1", "'per_byte'"},
        {"0.1 ps", "1 ns", "'latency'"},
    };
    const mcei_net_ops_t *ops = mcei_net_lookup("ideal");
    assert_non_null(ops);
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(cases); i++) {
        mcei_machine_t m;
        mcei_net_t net;
        char err[512] = "";
        machine_with(&m, cases[i].latency, cases[i].per_byte);
        memset(&net, 0, sizeof(net));
        net.ops = ops;
        net.deliver = collect;
        int rc = ops->init(&net, &m, err, sizeof(err));
        if (rc != MCE_ERR_MACHINE || strstr(err, cases[i].want) == NULL)
            print_error("case %zu: rc %d, message '%s'\n", i, rc, err);
        assert_int_equal(rc, MCE_ERR_MACHINE);
        assert_non_null(strstr(err, cases[i].want));
        assert_null(net.priv);
        mcei_machine_free(&m);
    }
}

static void test_ideal_fini(void **state)
{
    fixture_t *f = *state;
    net_open(f, LAT_TEXT, PB_TEXT);
    /* fini with messages still pending: they remain the caller's */
    for (int i = 0; i < 100; i++)
        assert_int_equal(inject(f, new_msg(f, (mce_time_t)i, i, 0, 0, 8)),
                         MCE_OK);
    f->net.ops->fini(&f->net);
    assert_null(f->net.priv);
    f->net.ops->fini(&f->net); /* harmless twice */
    assert_null(f->net.priv);
}

/* The core knows only the models registered into it: this one. */
extern const mcei_net_ops_t mcei_net_ideal_ops;

int main(void)
{
    if (mcei_register_net(&mcei_net_ideal_ops) != MCE_OK)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ideal_lookup),
        cmocka_unit_test_setup_teardown(test_ideal_idle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ideal_arrival_times, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_ideal_units, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ideal_horizon, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ideal_ties, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ideal_random, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ideal_overflow, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ideal_zero_per_byte, setup,
                                        teardown),
        cmocka_unit_test(test_ideal_init_rejects),
        cmocka_unit_test_setup_teardown(test_ideal_fini, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
