/* Unit tests for exact time/size parsing, checked clock arithmetic and time
 * formatting (lib/core/time.c, lib/core/mcei.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "mcei.h"

#define SENTINEL ((uint64_t)0xdeadbeefcafef00dULL)

typedef struct time_case {
    const char *text;
    mce_time_t default_unit;
    mce_time_t expect;
} time_case_t;

/* ---- mcei_time_parse: accepted input ----------------------------------- */

static void test_time_parse_units(void **state)
{
    (void)state;
    /* Expected values are built from the unit constants in ps, never from
     * the parser: 1 ns = 10^3 ps, 1 us = 10^6 ps, 1 ms = 10^9, 1 s = 10^12. */
    const uint64_t ns = 1000ULL, us = ns * 1000ULL, ms = us * 1000ULL,
                   s = ms * 1000ULL;
    const time_case_t cases[] = {
        {"7 ps", us, 7},
        {"7ps", us, 7},
        {"0 ps", us, 0},
        {"12 ns", 1, 12 * ns},
        {"2.5ns", 1, 2 * ns + ns / 2},
        {"0.001 ns", 1, 1},
        {"136us", 1, 136 * us},
        {"136 us", 1, 136 * us},
        {"0.36 us", 1, 36 * us / 100},
        {".5 us", 1, us / 2},
        {"1.5 ms", 1, ms + ms / 2},
        {"0.000001 ms", 1, ns},
        {"3 s", 1, 3 * s},
        {"0.000000000001 s", 1, 1},
        {"0.123456789012 s", 1, 123456789012ULL},
        {"1.000000000000000000000000 s", 1, s}, /* trailing zeros are exact */
        {"18446744 s", 1, 18446744ULL * s},
        {"  42 us  ", 1, 42 * us},
        {"42\tns\n", 1, 42 * ns},
        /* bare numbers take the default unit */
        {"42", us, 42 * us},
        {"42", 1, 42},
        {"42", ns, 42 * ns},
        {"0.25", ms, ms / 4},
        {"1.5", s, s + s / 2},
        {"0", us, 0},
        /* the largest representable finite time */
        {"18446744073709551614 ps", us, UINT64_MAX - 1},
        {"18446744073709551614", 1, UINT64_MAX - 1},
    };
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(cases); i++) {
        mce_time_t out = SENTINEL;
        int rc = mcei_time_parse(cases[i].text, cases[i].default_unit, &out);
        if (rc != MCE_OK || out != cases[i].expect)
            print_error("case '%s': rc %d, got %llu, want %llu\n",
                        cases[i].text, rc, (unsigned long long)out,
                        (unsigned long long)cases[i].expect);
        assert_int_equal(rc, MCE_OK);
        assert_int_equal(out, cases[i].expect);
    }
}

/* Every unit applied to the same number scales by exactly its factor. */
static void test_time_parse_unit_ratios(void **state)
{
    (void)state;
    static const char *const names[] = {"ps", "ns", "us", "ms", "s"};
    uint64_t factor = 1;
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(names); i++) {
        char buf[64];
        mce_time_t out = SENTINEL;
        snprintf(buf, sizeof(buf), "17 %s", names[i]);
        assert_int_equal(mcei_time_parse(buf, 1, &out), MCE_OK);
        assert_int_equal(out, 17 * factor);
        /* the bare number with this unit as default gives the same value */
        out = SENTINEL;
        assert_int_equal(mcei_time_parse("17", factor, &out), MCE_OK);
        assert_int_equal(out, 17 * factor);
        factor *= 1000;
    }
    assert_int_equal(MCE_NS, 1000);
    assert_int_equal(MCE_US, 1000000);
    assert_int_equal(MCE_MS, 1000000000);
    assert_int_equal(MCE_S, 1000000000000ULL);
}

/* ---- mcei_time_parse: rejected input ----------------------------------- */

typedef struct bad_case {
    const char *text;
    int expect_rc;
} bad_case_t;

static void test_time_parse_rejects(void **state)
{
    (void)state;
    const bad_case_t cases[] = {
        {"", MCE_ERR_INVAL},
        {"   ", MCE_ERR_INVAL},
        {"abc", MCE_ERR_INVAL},
        {"us", MCE_ERR_INVAL},
        {".", MCE_ERR_INVAL},
        {"1.2.3", MCE_ERR_INVAL},
        {"1.2.3 us", MCE_ERR_INVAL},
        {"5 parsec", MCE_ERR_INVAL},
        {"5 usec", MCE_ERR_INVAL},
        {"5 US", MCE_ERR_INVAL},
        {"5 u", MCE_ERR_INVAL},
        {"1e3 us", MCE_ERR_INVAL},
        {"1e3", MCE_ERR_INVAL},
        {"75e-6 s", MCE_ERR_INVAL},
        {"-1 us", MCE_ERR_INVAL},
        {"-1", MCE_ERR_INVAL},
        {"+1 us", MCE_ERR_INVAL},
        {"1 us 2", MCE_ERR_INVAL},
        {"1 us us", MCE_ERR_INVAL},
        {"0x10 ps", MCE_ERR_INVAL},
        /* finer than one picosecond */
        {"0.0001 ps", MCE_ERR_INVAL},
        {"0.5 ps", MCE_ERR_INVAL},
        {"1.0001 ns", MCE_ERR_INVAL},
        {"0.1234567890123 s", MCE_ERR_INVAL},
        {"0.5", MCE_ERR_INVAL}, /* default unit 1 ps */
        /* overflow of 64-bit picoseconds */
        {"99999999999 s", MCE_ERR_OVERFLOW},
        {"18446745 s", MCE_ERR_OVERFLOW},
        {"99999999999999999999 ps", MCE_ERR_OVERFLOW},
        {"18446744073709551616 ps", MCE_ERR_OVERFLOW},
        /* exactly UINT64_MAX is "never", not a time */
        {"18446744073709551615 ps", MCE_ERR_OVERFLOW},
    };
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(cases); i++) {
        mce_time_t out = SENTINEL;
        int rc = mcei_time_parse(cases[i].text, 1, &out);
        if (rc != cases[i].expect_rc || out != SENTINEL)
            print_error("case '%s': rc %d (want %d), out %llu\n", cases[i].text,
                        rc, cases[i].expect_rc, (unsigned long long)out);
        assert_int_equal(rc, cases[i].expect_rc);
        assert_int_equal(out, SENTINEL); /* untouched on error */
    }
    mce_time_t out = SENTINEL;
    assert_int_not_equal(mcei_time_parse(NULL, 1, &out), MCE_OK);
    assert_int_equal(out, SENTINEL);
}

/* ---- mcei_time_add / mcei_time_mul ------------------------------------- */

static void test_time_add(void **state)
{
    (void)state;
    mce_time_t out = SENTINEL;
    assert_int_equal(mcei_time_add(1, 2, &out), MCE_OK);
    assert_int_equal(out, 3);
    assert_int_equal(mcei_time_add(0, 0, &out), MCE_OK);
    assert_int_equal(out, 0);
    assert_int_equal(mcei_time_add(UINT64_MAX - 1, 0, &out), MCE_OK);
    assert_int_equal(out, UINT64_MAX - 1);
    assert_int_equal(mcei_time_add(UINT64_MAX - 3, 2, &out), MCE_OK);
    assert_int_equal(out, UINT64_MAX - 1);

    /* results equal to MCEI_TIME_INF and wrap-arounds are refused, and
     * the output is left alone */
    const mce_time_t bad[][2] = {
        {UINT64_MAX - 1, 1},
        {1, UINT64_MAX - 1},
        {0, UINT64_MAX},
        {UINT64_MAX, 0},
        {UINT64_MAX, 1},
        {UINT64_MAX, UINT64_MAX},
        {UINT64_MAX / 2 + 1, UINT64_MAX / 2 + 1},
        {UINT64_MAX / 2, UINT64_MAX / 2 + 1}, /* == UINT64_MAX */
    };
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(bad); i++) {
        out = SENTINEL;
        assert_int_equal(mcei_time_add(bad[i][0], bad[i][1], &out),
                         MCE_ERR_OVERFLOW);
        assert_int_equal(out, SENTINEL);
    }
    assert_int_equal(MCEI_TIME_INF, UINT64_MAX);
}

static void test_time_mul(void **state)
{
    (void)state;
    mce_time_t out = SENTINEL;
    assert_int_equal(mcei_time_mul(3, 4, &out), MCE_OK);
    assert_int_equal(out, 12);
    assert_int_equal(mcei_time_mul(12345, 0, &out), MCE_OK);
    assert_int_equal(out, 0);
    assert_int_equal(mcei_time_mul(0, UINT64_MAX, &out), MCE_OK);
    assert_int_equal(out, 0);
    assert_int_equal(mcei_time_mul(1ULL << 32, 1ULL << 31, &out), MCE_OK);
    assert_int_equal(out, 1ULL << 63);
    assert_int_equal(mcei_time_mul(UINT64_MAX - 1, 1, &out), MCE_OK);
    assert_int_equal(out, UINT64_MAX - 1);
    /* 10 ns per byte x 1 MiB */
    assert_int_equal(mcei_time_mul(10 * MCE_NS, 1ULL << 20, &out), MCE_OK);
    assert_int_equal(out, 10000ULL * 1048576ULL);

    const uint64_t bad[][2] = {
        {UINT64_MAX, 1},          /* == INF */
        {1, UINT64_MAX},          /* == INF */
        {UINT64_MAX / 3, 3},      /* 0x5555... x 3 == UINT64_MAX */
        {UINT64_MAX / 5, 5},      /* 0x3333... x 5 == UINT64_MAX */
        {1ULL << 32, 1ULL << 32}, /* wraps to 0 */
        {1ULL << 63, 2},          /* wraps to 0 */
        {UINT64_MAX, UINT64_MAX},
    };
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(bad); i++) {
        out = SENTINEL;
        assert_int_equal(mcei_time_mul(bad[i][0], bad[i][1], &out),
                         MCE_ERR_OVERFLOW);
        assert_int_equal(out, SENTINEL);
    }
}

static void test_time_min_max(void **state)
{
    (void)state;
    assert_int_equal(mcei_time_max(3, 5), 5);
    assert_int_equal(mcei_time_max(5, 3), 5);
    assert_int_equal(mcei_time_min(3, 5), 3);
    assert_int_equal(mcei_time_min(MCEI_TIME_INF, 5), 5);
    assert_int_equal(mcei_time_max(MCEI_TIME_INF, 5), MCEI_TIME_INF);
}

/* ---- mcei_time_format -------------------------------------------------- */

static void test_time_format(void **state)
{
    (void)state;
    char buf[48];
    memset(buf, 'x', sizeof(buf));
    assert_ptr_equal(mcei_time_format(0, buf, sizeof(buf)), buf);
    assert_string_equal(buf, "0.000000000000 s");
    assert_string_equal(mcei_time_format(1, buf, sizeof(buf)),
                        "0.000000000001 s");
    assert_string_equal(mcei_time_format(5 * MCE_US, buf, sizeof(buf)),
                        "0.000005000000 s");
    assert_string_equal(mcei_time_format(MCE_S + MCE_S / 2, buf, sizeof(buf)),
                        "1.500000000000 s");
    assert_string_equal(mcei_time_format(12 * MCE_S + 345, buf, sizeof(buf)),
                        "12.000000000345 s");
    assert_string_equal(mcei_time_format(UINT64_MAX, buf, sizeof(buf)),
                        "18446744.073709551615 s");
    /* 32 bytes (the documented minimum) hold the longest value */
    char small[32];
    mcei_time_format(UINT64_MAX - 1, small, sizeof(small));
    assert_string_equal(small, "18446744.073709551614 s");
    /* round trip through the parser */
    const mce_time_t samples[] = {
        0, 1, 999, 360000, 5 * MCE_US + 7, 123456789012345ULL, UINT64_MAX - 1};
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(samples); i++) {
        mce_time_t back = SENTINEL;
        mcei_time_format(samples[i], buf, sizeof(buf));
        assert_int_equal(mcei_time_parse(buf, 1, &back), MCE_OK);
        assert_int_equal(back, samples[i]);
    }
}

/* ---- sizes, integers, millionths --------------------------------------- */

typedef struct u64_case {
    const char *text;
    uint64_t expect;
} u64_case_t;

static void test_parse_size(void **state)
{
    (void)state;
    const uint64_t K = 1024, M = K * 1024, G = M * 1024;
    const u64_case_t good[] = {
        {"0", 0},
        {"4096", 4096},
        {" 4096 ", 4096},
        {"1K", K},
        {"1k", K},
        {"64K", 64 * K},
        {"2M", 2 * M},
        {"2m", 2 * M},
        {"3G", 3 * G},
        {"3g", 3 * G},
        {"1KiB", K},
        {"1kib", K},
        {"4MiB", 4 * M},
        {"2GiB", 2 * G},
        {"1KB", K},
        {"8MB", 8 * M},
        {"1Ki", K},
        {"1.5M", M + M / 2},
        {"0.5K", K / 2},
        {"0.25G", G / 4},
        {"256K ", 256 * K},
        {"16G", 16 * G},
        {"17179869183G", 17179869183ULL * G},
    };
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(good); i++) {
        uint64_t out = SENTINEL;
        int rc = mcei_parse_size(good[i].text, &out);
        if (rc != MCE_OK || out != good[i].expect)
            print_error("size '%s': rc %d out %llu\n", good[i].text, rc,
                        (unsigned long long)out);
        assert_int_equal(rc, MCE_OK);
        assert_int_equal(out, good[i].expect);
    }
    const char *const bad[] = {
        "",     "K",     "abc",   "12Q",  "12KQ", "1T",  "1B",
        "1iB",  "1KiBx", "1KBB",  "-1K",  "+1K",  "1.5", "1.3K",
        "0.1M", "1e3",   "1.2.3", "0x10", "1 2",  "K1",  NULL,
    };
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(bad); i++) {
        uint64_t out = SENTINEL;
        int rc = mcei_parse_size(bad[i], &out);
        if (rc == MCE_OK)
            print_error("size '%s' accepted as %llu\n",
                        bad[i] ? bad[i] : "(null)", (unsigned long long)out);
        assert_int_not_equal(rc, MCE_OK);
        assert_int_equal(out, SENTINEL);
    }
    uint64_t out = SENTINEL;
    /* 2^34 G == 2^64 */
    assert_int_equal(mcei_parse_size("17179869184G", &out), MCE_ERR_OVERFLOW);
    assert_int_equal(mcei_parse_size("99999999999999999999", &out),
                     MCE_ERR_OVERFLOW);
    assert_int_equal(out, SENTINEL);
}

static void test_parse_u64(void **state)
{
    (void)state;
    const u64_case_t good[] = {
        {"0", 0},   {"42", 42},           {" 7 ", 7},
        {"007", 7}, {"1000000", 1000000}, {"18446744073709551615", UINT64_MAX},
    };
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(good); i++) {
        uint64_t out = SENTINEL;
        assert_int_equal(mcei_parse_u64(good[i].text, &out), MCE_OK);
        assert_int_equal(out, good[i].expect);
    }
    const char *const bad[] = {"",    " ",    "-1",  "+1", "1.0", "12a",
                               "a12", "0x10", "1 2", "1K", NULL};
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(bad); i++) {
        uint64_t out = SENTINEL;
        assert_int_equal(mcei_parse_u64(bad[i], &out), MCE_ERR_INVAL);
        assert_int_equal(out, SENTINEL);
    }
    uint64_t out = SENTINEL;
    assert_int_equal(mcei_parse_u64("18446744073709551616", &out),
                     MCE_ERR_OVERFLOW);
    assert_int_equal(mcei_parse_u64("99999999999999999999999", &out),
                     MCE_ERR_OVERFLOW);
    assert_int_equal(out, SENTINEL);
}

static void test_parse_micro(void **state)
{
    (void)state;
    const u64_case_t good[] = {
        {"0", 0},
        {"1", 1000000},
        {"2.5", 2500000},
        {"1.0", 1000000},
        {" 1.25 ", 1250000},
        {"0.000001", 1},
        {"3.14159", 3141590},
        {"1.0000000", 1000000}, /* a 7th decimal that is zero is exact */
        {".5", 500000},
        {"18446744073709", 18446744073709000000ULL},
    };
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(good); i++) {
        uint64_t out = SENTINEL;
        assert_int_equal(mcei_parse_micro(good[i].text, &out), MCE_OK);
        assert_int_equal(out, good[i].expect);
    }
    const char *const bad[] = {"",   "abc", "0.0000001", "1.2.3", "-1",
                               "+1", "1x",  "1 us",      "1e6",   NULL};
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(bad); i++) {
        uint64_t out = SENTINEL;
        assert_int_equal(mcei_parse_micro(bad[i], &out), MCE_ERR_INVAL);
        assert_int_equal(out, SENTINEL);
    }
    uint64_t out = SENTINEL;
    assert_int_equal(mcei_parse_micro("18446744073710", &out),
                     MCE_ERR_OVERFLOW);
    assert_int_equal(out, SENTINEL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_parse_units),
        cmocka_unit_test(test_time_parse_unit_ratios),
        cmocka_unit_test(test_time_parse_rejects),
        cmocka_unit_test(test_time_add),
        cmocka_unit_test(test_time_mul),
        cmocka_unit_test(test_time_min_max),
        cmocka_unit_test(test_time_format),
        cmocka_unit_test(test_parse_size),
        cmocka_unit_test(test_parse_u64),
        cmocka_unit_test(test_parse_micro),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
