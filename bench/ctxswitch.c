/* Context-switch cost of the virtual-node fibers: a scheduler and one
 * fiber bounce control N times; also the cost of creating a fiber. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fiber.h"
#include "mcei.h"

static mcei_fiber_t main_ctx, fib;
static volatile long bounces;

static void body(void *arg)
{
    (void)arg;
    for (;;) {
        bounces++;
        mcei_fiber_switch(&fib, &main_ctx);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time: on a shared machine, what the switches themselves cost. */
static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000000;
    mcei_fiber_init_main(&main_ctx);
    if (mcei_fiber_create(&fib, 64 * 1024, body, NULL) != MCE_OK)
        return 1;
    double t0 = now(), c0 = cpu();
    for (long i = 0; i < n; i++)
        mcei_fiber_switch(&main_ctx, &fib);
    double t1 = now(), c1 = cpu();
    printf("ctxswitch: %ld round trips, %.1f ns per switch (%.1f ns CPU)\n", n,
           (t1 - t0) / (double)(2 * n) * 1e9,
           (c1 - c0) / (double)(2 * n) * 1e9);
    long m = 10000;
    mcei_fiber_t *fs = calloc((size_t)m, sizeof(*fs));
    t0 = now();
    for (long i = 0; i < m; i++)
        mcei_fiber_create(&fs[i], 1 << 20, body, NULL);
    for (long i = 0; i < m; i++)
        mcei_fiber_destroy(&fs[i]);
    t1 = now();
    printf("ctxswitch: create+destroy of a 1 MiB guarded stack: %.2f us\n",
           (t1 - t0) / (double)m * 1e6);
    free(fs);
    mcei_fiber_destroy(&fib);
    return 0;
}
