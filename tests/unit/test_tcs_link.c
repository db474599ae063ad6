/* Unit tests for the TCS declarations and linker (lib/api/tcs): the
 * argument checks of the declaration calls, the refusals of the linker's
 * first step that tests/core/tcs_link.sh does not cover, the PCT
 * reservations and a route worked out by hand.  The machine figures are
 * those of share/machines/iwarp.conf: 8 x 8 torus of 2 x 2 boards
 * (W 3.1.1, 3.2.1), 20 PCTs (W 3.1.2), 2 RTS PCTs (W 3.1.4.2), 9 deposit
 * PCTs (W 3.1.4.3), four barrier slots (W 4.5.4), hops 4 / 6 / 6 and a
 * turn 1 (W 3.2.1), one 4-byte word per 2 clocks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcei.h"

#include "../../lib/api/tcs/tcs_link.h"

static void f0(tcs_ctx_t *c, const void *p)
{
    (void)c;
    (void)p;
}
static void f1(tcs_ctx_t *c, const void *p)
{
    (void)c;
    (void)p;
}
static void f2(tcs_ctx_t *c, const void *p)
{
    (void)c;
    (void)p;
}

static void init(tcs_decl_t *d)
{
    mcei_tcs_machine_t mc = {
        .width = 8,
        .height = 8,
        .board_w = 2,
        .board_h = 2,
        .pcts = 20,
        .rts_pcts = 2,
        .dep_pcts = 9,
        .barrier_slots = 4,
        .dq_fair_max = 2,
        .hop_board = 4,
        .hop_cross = 6,
        .hop_wrap = 6,
        .hop_turn = 1,
        .word_bytes = 4,
        .word_time = 2,
    };
    mcei_tcs_decl_init(d, &mc);
}

/* Link @p d; expect status @p want and, if given, the message. */
static void expect_link(tcs_decl_t *d, int want, const char *msg)
{
    char err[1024] = "";
    int rc = mcei_tcs_link(d, NULL, NULL, err, sizeof(err));
    if (rc != want || (msg != NULL && strcmp(err, msg) != 0))
        fail_msg("link: rc %d (want %d), message '%s' (want '%s')", rc, want,
                 err, msg ? msg : "");
    mcei_tcs_decl_free(d);
}

static void test_decl_errors(void **state)
{
    tcs_decl_t d;
    tcs_task_t t, u;
    tcs_net_t n;
    (void)state;

    init(&d);
    t = tcs_task(&d, "a", TCS_NONE, 0, 0, 2, 2, f0, 0, 0);
    assert_int_equal(t, 0);
    assert_int_equal(tcs_task(&d, "a", TCS_NONE, 2, 0, 1, 1, f1, 0, 0),
                     TCS_EDECL);
    expect_link(&d, MCE_ERR_CONFIG,
                "tcs_declare: tcs_task: task 'a' is declared twice");

    init(&d);
    t = tcs_task(&d, "t", TCS_NONE, 0, 0, 2, 1, f0, 0, 0);
    n = tcs_network(&d, t, "n");
    assert_int_equal(tcs_connect(&d, n, 0, "o", 1, "i", 3, 2), TCS_EDECL);
    expect_link(&d, MCE_ERR_CONFIG,
                "tcs_declare: tcs_connect: bandwidth 3/2: give 0/0 (no "
                "reservation) or a fraction of a link between 0 and 1");

    init(&d);
    t = tcs_task(&d, "t", TCS_NONE, 0, 0, 2, 1, f0, 0, 0);
    u = tcs_task(&d, "u", TCS_NONE, 2, 0, 2, 1, f1, 0, 0);
    n = tcs_network(&d, u, "n");
    assert_int_equal(tcs_netgroup(&d, t, "g", &n, 1), TCS_EDECL);
    expect_link(&d, MCE_ERR_CONFIG,
                "tcs_declare: tcs_netgroup: netgroup 'g' of task 't': network "
                "0 is not one of the task's");

    init(&d);
    t = tcs_task(&d, "t", TCS_NONE, 0, 0, 2, 1, f0, 0, 0);
    assert_int_equal(tcs_port(&d, t, "p", 2, TCS_OUT), TCS_EDECL);
    expect_link(&d, MCE_ERR_CONFIG,
                "tcs_declare: tcs_port: port 'p' of task 't': cell 2 is "
                "outside the task (2 cells)");

    init(&d);
    {
        static const int cells[] = {3, 9, 3};
        assert_int_equal(tcs_task_cells(&d, "l", TCS_NONE, cells, 3, f0, 0, 0),
                         TCS_EDECL);
    }
    expect_link(&d, MCE_ERR_CONFIG,
                "tcs_declare: tcs_task_cells: task 'l': cell 3 is listed "
                "twice");

    /* the parent's port is on (3,0), the child is (0,0)-(1,0) */
    init(&d);
    t = tcs_task(&d, "p", TCS_NONE, 0, 0, 4, 1, f0, 0, 0);
    u = tcs_task(&d, "c", t, 0, 0, 2, 1, f1, 0, 0);
    assert_int_equal(
        tcs_inherit(&d, u, "x", tcs_port(&d, t, "out", 3, TCS_OUT)), TCS_EDECL);
    expect_link(&d, MCE_ERR_CONFIG,
                "tcs_declare: tcs_inherit: task 'c' cannot inherit port 'out' "
                "of 'p': the port is on cell (3,0), outside the child");

    init(&d);
    assert_int_equal(tcs_task(&d, "t", TCS_NONE, 0, 0, 1, 1, NULL, 0, 0),
                     TCS_EDECL);
    expect_link(&d, MCE_ERR_CONFIG,
                "tcs_declare: tcs_task: task 't' has no code (fn is NULL)");

    init(&d);
    expect_link(&d, MCE_ERR_CONFIG, "tcs_declare declared no task");
}

static void test_external_refusals(void **state)
{
    tcs_decl_t d;
    tcs_task_t p, a, b;
    tcs_port_t pa, pb, pc;
    (void)state;

    /* output given second */
    init(&d);
    a = tcs_task(&d, "a", TCS_NONE, 0, 0, 1, 1, f0, 0, 0);
    b = tcs_task(&d, "b", TCS_NONE, 1, 0, 1, 1, f1, 0, 0);
    tcs_external(&d, TCS_NONE, tcs_port(&d, b, "in", 0, TCS_IN),
                 tcs_port(&d, a, "out", 0, TCS_OUT), 0, 0);
    expect_link(&d, MCE_ERR_RESOURCE,
                "external connection from 'b.in' to 'a.out': 'b.in' is an "
                "input and 'a.out' an output (give the output first)");

    /* both inputs */
    init(&d);
    a = tcs_task(&d, "a", TCS_NONE, 0, 0, 1, 1, f0, 0, 0);
    b = tcs_task(&d, "b", TCS_NONE, 1, 0, 1, 1, f1, 0, 0);
    tcs_external(&d, TCS_NONE, tcs_port(&d, a, "p", 0, TCS_IN),
                 tcs_port(&d, b, "q", 0, TCS_IN), 0, 0);
    expect_link(&d, MCE_ERR_RESOURCE,
                "external connection from 'a.p' to 'b.q': both are inputs");

    /* a port connected twice */
    init(&d);
    a = tcs_task(&d, "a", TCS_NONE, 0, 0, 1, 1, f0, 0, 0);
    b = tcs_task(&d, "b", TCS_NONE, 1, 0, 2, 1, f1, 0, 0);
    pa = tcs_port(&d, a, "out", 0, TCS_OUT);
    tcs_external(&d, TCS_NONE, pa, tcs_port(&d, b, "i0", 0, TCS_IN), 0, 0);
    tcs_external(&d, TCS_NONE, pa, tcs_port(&d, b, "i1", 1, TCS_IN), 0, 0);
    expect_link(&d, MCE_ERR_RESOURCE,
                "port 'out' of task 'a' is connected 2 times (a port is one "
                "end of one connection)");

    /* an endpoint that is not a child of the declaring parent */
    init(&d);
    p = tcs_task(&d, "p", TCS_NONE, 0, 0, 2, 1, f0, 0, 0);
    a = tcs_task(&d, "a", p, 0, 0, 1, 1, f1, 0, 0);
    b = tcs_task(&d, "b", TCS_NONE, 2, 0, 1, 1, f2, 0, 0);
    tcs_external(&d, p, tcs_port(&d, a, "o", 0, TCS_OUT),
                 tcs_port(&d, b, "i", 0, TCS_IN), 0, 0);
    expect_link(&d, MCE_ERR_RESOURCE,
                "external connection from 'a.o' to 'b.i': 'b' is not a child "
                "of 'p', which declares the connection");

    /* an inherited port is its parent's connection, not the child's */
    init(&d);
    p = tcs_task(&d, "p", TCS_NONE, 0, 0, 2, 1, f0, 0, 0);
    a = tcs_task(&d, "a", p, 0, 0, 1, 1, f1, 0, 0);
    b = tcs_task(&d, "b", p, 1, 0, 1, 1, f2, 0, 0);
    pc = tcs_port(&d, p, "pin", 0, TCS_OUT);
    pb = tcs_inherit(&d, a, "x", pc);
    tcs_external(&d, p, pb, tcs_port(&d, b, "i", 0, TCS_IN), 0, 0);
    expect_link(&d, MCE_ERR_RESOURCE,
                "external connection from 'a.x' to 'b.i': port 'a.x' is "
                "inherited, its connection is its parent's");
}

static void test_reservations(void **state)
{
    tcs_decl_t d;
    (void)state;
    init(&d);
    /* 20 - RTS 2 - (1 + 4) */
    assert_int_equal(tcs_free_pcts(&d, 0), 13);
    tcs_task(&d, "all", TCS_NONE, 0, 0, 8, 8, f0, 0, TCS_RING1D);
    assert_int_equal(tcs_free_pcts(&d, 63), 13);
    tcs_task(&d, "all2d", TCS_NONE, 0, 0, 8, 8, f1, 0, 0);
    /* a whole-array barrier on 2D rings: one PCT more, the column ring's
     * in PCT (its out PCT is the row's, re-pointed: W 4.5.4's "a single
     * additional PCT"; design 6.4, 8.8) */
    assert_int_equal(tcs_free_pcts(&d, 63), 12);
    tcs_uses_deposit(&d);
    assert_int_equal(tcs_free_pcts(&d, 63), 12 - 9);
    assert_int_equal(tcs_free_pcts(&d, 64), -1);
    assert_int_equal(tcs_free_pcts(&d, -1), -1);
    mcei_tcs_decl_free(&d);
}

/* A report on a small declaration: the route and the PCTs by hand.
 * Task 2 x 2 at (1,1): cells (1,1) (2,1) (1,2) (2,2).  Connection cell 0
 * -> cell 3, (1,1) -> (2,2): X-then-Y first; X+ (1,1)->(2,1) crosses
 * boards (x 0 -> 1 in board units): 6; Y+ (2,1)->(2,2) crosses (y): 6;
 * one turn: 1; H = 13. */
static void test_report(void **state)
{
    tcs_decl_t d;
    char err[256], *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tcs_task_t t;
    tcs_net_t n;
    (void)state;
    assert_non_null(f);
    init(&d);
    t = tcs_task(&d, "sq", TCS_NONE, 1, 1, 2, 2, f0, 0, 0);
    n = tcs_network(&d, t, "n");
    tcs_connect(&d, n, 0, "o", 3, "i", 1, 4);
    tcs_netgroup(&d, t, "g", &n, 1);
    assert_int_equal(mcei_tcs_link(&d, f, NULL, err, sizeof(err)), MCE_OK);
    fclose(f);
    assert_non_null(strstr(buf, "route 'sq'/'g' n.c0: (1,1) X+ (2,1) Y+ "
                                "(2,2); latency 13; bw 1/4; pcts (1,1):7 "
                                "(2,1):7 (2,2):7\n"));
    /* a quarter of a 2 bytes/clock link */
    assert_non_null(strstr(buf, "conn n.c0 hops 2 latency 13 kappa 1 "
                                "bandwidth 0.500 bytes/clock\n"));
    /* the snake ring of 2 x 2: (1,1) (2,1) (2,2) (1,2), all slot 0 */
    assert_non_null(strstr(buf, "barrier 'sq' members 4 ring 1d: (1,1)/0 "
                                "(2,1)/0 (2,2)/0 (1,2)/0\n"));
    free(buf);
    mcei_tcs_decl_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decl_errors),
        cmocka_unit_test(test_external_refusals),
        cmocka_unit_test(test_reservations),
        cmocka_unit_test(test_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
