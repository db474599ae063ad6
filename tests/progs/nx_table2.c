/* The operations of Table II of Seidel and Davis (1992) on the emulated
 * iPSC/860, with a start skew: prints the cost (first start to last end,
 * in ps of the global virtual clock).
 *   nx_table2 OP M DELTA_US      OP: send-short send-long send-forced
 *     exchange (long), sync-exchange (long), sync-exchange-forced,
 *     shift (long), shift-forced
 * For the exchanges node 1 starts DELTA later than node 0; for the shifts
 * node 1 of the ring is the late one.  All nodes post their receives at
 * time 0 (the receive is ready when a forced message arrives). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nx.h"

static char sbuf[1 << 20], rbuf[1 << 20], nul[1];

static int gray(int i)
{
    return i ^ (i >> 1);
}

int main(int argc, char **argv)
{
    long me = mynode(), n = numnodes(), m;
    double delta_us;
    mce_time_t start, delta, end;
    const char *op;
    long rid, t_data = 10, t_null = 20;

    if (argc != 4) {
        if (me == 0)
            fprintf(stderr, "usage: nx_table2 OP M DELTA_US\n");
        return 2;
    }
    op = argv[1];
    m = atol(argv[2]);
    delta_us = atof(argv[3]);
    delta = (mce_time_t)(delta_us * 1e6 + 0.5);
    if (strstr(op, "forced"))
        t_data |= FORCE_TYPE;

    /* Receives first, at time 0, so forced messages find them. */
    int pos = 0;
    while (gray(pos) != me)
        pos++;
    long right = gray((pos + 1) % n), left = gray((int)((pos + n - 1) % n));
    int late = strncmp(op, "shift", 5) == 0 ? (me == gray(1)) : (me == 1);
    long partner = me ^ 1;

    if (strncmp(op, "send", 4) == 0) {
        if (me == 1)
            rid = irecv(t_data, rbuf, m);
        if (me == 0)
            csend(t_data, sbuf, m, 1, 0);
        if (me == 1)
            msgwait(rid);
    } else if (strncmp(op, "shift", 5) == 0) {
        rid = irecv(t_data, rbuf, m);
        if (late)
            mce_compute(delta);
        csend(t_data, sbuf, m, right, 0);
        msgwait(rid);
        (void)left;
    } else if (me <= 1) {
        rid = irecv(t_data, rbuf, m);
        if (late)
            mce_compute(delta);
        if (strncmp(op, "sync-", 5) == 0) {
            /* null exchange: send, then wait for the partner's */
            csend(t_null, nul, 0, partner, 0);
            crecv(t_null, nul, 0);
        }
        csend(t_data, sbuf, m, partner, 0);
        msgwait(rid);
    }
    end = mce_now();
    start = 0;
    /* node 0 reports the maximum end over the nodes taking part */
    long e = (long)((end - start) / 1000); /* ns fits a long */
    long ps = (long)((end - start) % 1000);
    long work[2];
    long both[2] = {e, ps};
    if (strncmp(op, "send", 4) == 0 || strncmp(op, "shift", 5) == 0 ||
        me <= 1) {
        /* fall through */
    } else {
        both[0] = 0;
        both[1] = 0;
    }
    (void)work;
    if (me != 0) {
        csend(99, both, sizeof(both), 0, 0);
    } else {
        mce_time_t worst = end - start;
        for (long i = 1; i < n; i++) {
            long got[2];
            crecv(99, got, sizeof(got));
            mce_time_t t = (mce_time_t)got[0] * 1000 + (mce_time_t)got[1];
            if (t > worst)
                worst = t;
        }
        printf("nx_table2: op=%s m=%ld delta_us=%.6f cost_ps=%" PRIu64 "\n", op,
               m, delta_us, worst);
    }
    return 0;
}
