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
 *             began and when the parent's resumed. */
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
    tcs_task_t t = tcs_task(d, "t", TCS_NONE, 0, 0, 2, 1, ports, 0, 0);
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
    return tcs_run(tp, NULL) == TCS_OK ? 0 : 1;
}
