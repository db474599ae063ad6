/* Small TCS programs for tests/core/tcs_run.sh (the run time, include/
 * tcs.h): TCS_CASE picks one.
 *   ports     task 't' (2 x 1): netgroups g1 = {n1: cell 0 'o' -> cell 1
 *             'i'} and g2 = {n2: cell 0 'p' -> cell 1 'q'}.  Cell 0 writes
 *             to 'o' before any switch (inactive), switches to g1, writes
 *             to 'p' (inactive: n2 is in g2) and a word to 'o'; cell 1
 *             reads it and prints it with the time it took.
 *   start     task 'p' (2 x 1) with child 'c' on (0,0) and grandchild 'g'
 *             in 'c'.  p starts g (not its child), starts c on (1,0)
 *             (outside c), then starts c on (0,0); c starts g.
 *   light     task 'p' (2 x 1) with light children 'l' (2 x 1, netgroup
 *             'g': cell 0 'o' -> cell 1 'i') started at 1000 and ending
 *             at 3000, and 's' (1 x 1 on (0,0)) started at 5000 and
 *             ending at 6000; each cell prints when the child's code
 *             began and when the parent's resumed.
 *   badargs   task 't' as in "ports", whose code first calls the run time
 *             with contexts, tasks, netgroups, ports, spools and buffers
 *             that are NULL or out of range (each fails alone with its
 *             code), then carries one word from cell 0 to cell 1; main
 *             first runs tasks that do not exist. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tcs.h>

static tcs_ng_t g1, g2;
static tcs_task_t tp, tc, tg;

static void ports(tcs_ctx_t *ctx, const void *params)
{
    uint32_t w = 42;
    (void)params;
    if (tcs_rank(ctx) == 0) {
        int o = tcs_port_handle(ctx, "o"), p = tcs_port_handle(ctx, "p");
        printf("tcs_rt: size %d, handles o %d p %d\n", tcs_size(ctx), o, p);
        printf("tcs_rt: write before a switch: %d\n", tcs_write(ctx, o, &w, 1));
        fflush(stdout);
        tcs_switch(ctx, g1);
        printf("tcs_rt: write to an inactive port: %d\n",
               tcs_write(ctx, p, &w, 1));
        printf("tcs_rt: read from an output port: %d\n",
               tcs_read(ctx, o, &w, 1));
        fflush(stdout);
        iwarp_align(10000);
        printf("tcs_rt: write to 'o': %d\n", tcs_write(ctx, o, &w, 1));
    } else {
        int i = tcs_port_handle(ctx, "i");
        uint32_t got = 0;
        tcs_switch(ctx, g1);
        iwarp_align(9000);
        if (tcs_read(ctx, i, &got, 1) == TCS_OK)
            printf("tcs_rt: cell 1 read %u at %llu\n", (unsigned)got,
                   iwarp_vtime());
    }
    fflush(stdout);
}

static void code_g(tcs_ctx_t *ctx, const void *params)
{
    (void)params;
    printf("tcs_rt: g runs on cell %d (rank %d of %d)\n", iwarp_cell(),
           tcs_rank(ctx), tcs_size(ctx));
    fflush(stdout);
}

static void code_c(tcs_ctx_t *ctx, const void *params)
{
    (void)params;
    printf("tcs_rt: c runs on cell %d\n", iwarp_cell());
    fflush(stdout);
    printf("tcs_rt: c starts g: %d\n", tcs_start(ctx, tg, NULL));
    fflush(stdout);
}

static void code_p(tcs_ctx_t *ctx, const void *params)
{
    (void)params;
    if (tcs_rank(ctx) == 0) {
        printf("tcs_rt: p starts g: %d\n", tcs_start(ctx, tg, NULL));
        fflush(stdout);
        printf("tcs_rt: p starts c: %d\n", tcs_start(ctx, tc, NULL));
    } else {
        iwarp_align(100);
        printf("tcs_rt: p starts c on cell 1: %d\n", tcs_start(ctx, tc, NULL));
    }
    fflush(stdout);
}

static tcs_task_t tl, ts;

static void code_l(tcs_ctx_t *ctx, const void *params)
{
    uint32_t w = 7;
    (void)params;
    printf("tcs_rt: l began on cell %d at %llu\n", iwarp_cell(), iwarp_vtime());
    if (tcs_rank(ctx) == 0)
        tcs_write(ctx, tcs_port_handle(ctx, "o"), &w, 1);
    else if (tcs_read(ctx, tcs_port_handle(ctx, "i"), &w, 1) == TCS_OK)
        printf("tcs_rt: l read %u\n", (unsigned)w);
    fflush(stdout);
    iwarp_align(3000);
}

static void code_s(tcs_ctx_t *ctx, const void *params)
{
    (void)ctx;
    (void)params;
    printf("tcs_rt: s began at %llu\n", iwarp_vtime());
    fflush(stdout);
    iwarp_align(6000);
}

static void code_lp(tcs_ctx_t *ctx, const void *params)
{
    (void)params;
    iwarp_align(1000);
    tcs_start(ctx, tl, NULL);
    printf("tcs_rt: p resumed on cell %d at %llu\n", iwarp_cell(),
           iwarp_vtime());
    if (tcs_rank(ctx) == 0) {
        iwarp_align(5000);
        tcs_start(ctx, ts, NULL);
        printf("tcs_rt: p resumed after s at %llu\n", iwarp_vtime());
    }
    fflush(stdout);
}

#define EXPECT(call, want)                                                     \
    do {                                                                       \
        int rc_ = (call);                                                      \
        if (rc_ != (want)) {                                                   \
            printf("tcs_rt: %s returned %d, expected %d\n", #call, rc_,        \
                   (want));                                                    \
            fails++;                                                           \
        }                                                                      \
    } while (0)

static int fails;

static void bad_args(tcs_ctx_t *ctx, const void *params)
{
    uint32_t w = 42, got = 0;
    int me = tcs_rank(ctx), o, i;
    (void)params;
    EXPECT(tcs_rank(NULL), TCS_EINVAL);
    EXPECT(tcs_size(NULL), TCS_EINVAL);
    EXPECT(tcs_barrier(NULL), TCS_EINVAL);
    EXPECT(tcs_switch(ctx, 999), TCS_EINVAL);
    EXPECT(tcs_switch(ctx, -1), TCS_EINVAL);
    EXPECT(tcs_switch_fast(ctx, 999), TCS_EINVAL);
    EXPECT(tcs_switch(NULL, g1), TCS_EINVAL);
    EXPECT(tcs_port_handle(ctx, NULL), TCS_EINVAL);
    EXPECT(tcs_port_handle(ctx, "nosuch"), TCS_EPORT);
    EXPECT(tcs_write(ctx, 99, &w, 1), TCS_EPORT);
    EXPECT(tcs_read(ctx, -1, &w, 1), TCS_EPORT);
    EXPECT(tcs_spool_wait(ctx, -1), TCS_ESPOOL);
    EXPECT(tcs_spool_wait(ctx, 99), TCS_ESPOOL);
    EXPECT(tcs_start(ctx, 999, NULL), TCS_EINVAL);
    EXPECT(tcs_start(ctx, -1, NULL), TCS_EINVAL);
    EXPECT(tcs_start(NULL, tp, NULL), TCS_EINVAL);
    EXPECT(tcs_switch(ctx, g1), TCS_OK);
    if (me == 0) {
        o = tcs_port_handle(ctx, "o");
        EXPECT(tcs_write(ctx, o, NULL, 1), TCS_EINVAL);
        EXPECT(tcs_spool_out(ctx, o, NULL, 4), TCS_EINVAL);
        EXPECT(tcs_write(ctx, o, &w, 1), TCS_OK);
    } else {
        i = tcs_port_handle(ctx, "i");
        EXPECT(tcs_read(ctx, i, NULL, 1), TCS_EINVAL);
        EXPECT(tcs_spool_in(ctx, i, NULL, 4), TCS_EINVAL);
        EXPECT(tcs_read(ctx, i, &got, 1), TCS_OK);
        if (got != 42) {
            printf("tcs_rt: cell 1 got %u\n", (unsigned)got);
            fails++;
        }
    }
    if (fails == 0)
        printf("tcs_rt: badargs cell %d ok\n", me);
    fflush(stdout);
}

void tcs_declare(tcs_decl_t *d)
{
    const char *c = getenv("TCS_CASE");
    if (c != NULL && strcmp(c, "light") == 0) {
        tcs_net_t n;
        tp = tcs_task(d, "p", TCS_NONE, 0, 0, 2, 1, code_lp, 0, 0);
        tl = tcs_task(d, "l", tp, 0, 0, 2, 1, code_l, 0, TCS_LIGHT);
        ts = tcs_task(d, "s", tp, 0, 0, 1, 1, code_s, 0, TCS_LIGHT);
        n = tcs_network(d, tl, "n");
        tcs_connect(d, n, 0, "o", 1, "i", 0, 0);
        tcs_netgroup(d, tl, "g", &n, 1);
        return;
    }
    if (c != NULL && strcmp(c, "start") == 0) {
        tp = tcs_task(d, "p", TCS_NONE, 0, 0, 2, 1, code_p, 0, 0);
        tc = tcs_task(d, "c", tp, 0, 0, 1, 1, code_c, 0, 0);
        tg = tcs_task(d, "g", tc, 0, 0, 1, 1, code_g, 0, 0);
        return;
    }
    tcs_task_t t = tcs_task(
        d, "t", TCS_NONE, 0, 0, 2, 1,
        c != NULL && strcmp(c, "badargs") == 0 ? bad_args : ports, 0, 0);
    tcs_net_t n1 = tcs_network(d, t, "n1"), n2 = tcs_network(d, t, "n2");
    tcs_connect(d, n1, 0, "o", 1, "i", 0, 0);
    tcs_connect(d, n2, 0, "p", 1, "q", 0, 0);
    g1 = tcs_netgroup(d, t, "g1", &n1, 1);
    g2 = tcs_netgroup(d, t, "g2", &n2, 1);
    tp = t;
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    const char *c = getenv("TCS_CASE");
    if (c != NULL && strcmp(c, "badargs") == 0) {
        EXPECT(tcs_run(-1, NULL), TCS_EINVAL);
        EXPECT(tcs_run(999, NULL), TCS_EINVAL);
    }
    return tcs_run(tp, NULL) == TCS_OK && fails == 0 ? 0 : 1;
}
