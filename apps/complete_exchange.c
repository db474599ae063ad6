/* complete_exchange: the complete exchange (every node sends a block of m
 * bytes to every other node) on a Paragon mesh, after Bokhari and Nicol
 * (1996): the naive algorithm, Scott's contention-free schedule (a
 * barrier after every permutation) and the bounded-contention algorithm,
 * which removes barriers from Scott's collapsible schedule: a barrier
 * after every g permutations gives link contention g and node contention
 * max(1, g / (n/4)).  Receives of a stretch are posted before its barrier
 * (so FORCED messages would be safe, as the paper notes); the naive
 * algorithm posts all N-1 receives at once.  All sends are UNFORCED and
 * asynchronous, the scheme Table 1's communication cost was measured with.
 *
 *   complete_exchange --mce-machine=paragon --mce-nodes=64
 *       [--alg=naive,scott,bounded] [--sizes=8640,16384] [--groups=1,2,4,...]
 *       [--forced] [--naive=index|shifted] [--format=table|csv|json]
 *
 * By default the barriers come every c permutations for each c dividing
 * n/4 (Table 2's link contention c, c = 3 on 12 x 12), then every (n/4) 2^j
 * permutations (node contention 2^j), then never.  --forced sends Scott's
 * and the bounded algorithm's messages FORCED (section 6: the bounded
 * algorithm "has a completely determined communication requirement and we
 * could thus use FORCED messages"); the naive algorithm stays UNFORCED.
 *
 * The naive algorithm "simply transmits blocks of data from each processor
 * to the remaining processors without regard for link or node contention"
 * (section 6): by default (--naive=index) every node sends to the others in
 * node order, 0, 1, ..., N-1 (skipping itself), so all start on node 0.
 * --naive=shifted sends to me+1, me+2, ... (mod N) instead: each round is a
 * permutation, a schedule that already avoids node contention, so it is
 * not the paper's naive algorithm; it is kept for comparison.
 *
 * Node 0 prints, per algorithm, (node contention, link contention) and
 * size: the emulated time (last node's end after a common start) and the
 * paper's bounds (section 7, Figure 13), from Table 1 (comm = 231 + 0.022 m,
 * sync = 27.1 log2 N - 134 us, taken as 0 where the fit is negative):
 * lower = Table 2's steps x comm + barriers x sync, where Table 2's steps
 * are n^3/4 / c for link contention c up to n/4 and stay at n^3/4 / (n/4)
 * beyond (Table 2 stops there: further collapsing only removes barriers
 * and adds node contention, whose overhead "the lower bound does not
 * include"; the 4 x 4 slice's "communication time fraction ... is
 * constant" for the same reason); upper = all n^3/4 permutations one
 * after another + barriers x sync.  The paper defines no bounds for the
 * naive algorithm. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cx/schedule.h"
#include "nx.h"
#include "opts.h"

#define MAXL 32

static long me, N;
static int side;

/* This node's senders in each step of a schedule, in node order (the
 * order in which run() posts their receives): from[start[p]] ..
 * from[start[p + 1] - 1] in step p.  Found once per schedule, not once
 * per stretch of every run. */
typedef struct senders {
    long *start, *from;
} senders_t;

static int senders_of(const cx_schedule_t *s, senders_t *out)
{
    long k = 0;
    if ((out->start = malloc(((size_t)s->nsteps + 1) * sizeof(long))) == NULL)
        return -1;
    for (long p = 0; p < s->nsteps; p++) { /* counted, then listed */
        out->start[p] = k;
        for (long i = 0; i < N; i++)
            k += *cx_slots(s, (int)p, (int)i) == me;
    }
    out->start[s->nsteps] = k;
    if ((out->from = malloc(((size_t)k + 1) * sizeof(long))) == NULL)
        return -1;
    k = 0;
    for (long p = 0; p < s->nsteps; p++)
        for (long i = 0; i < N; i++)
            if (*cx_slots(s, (int)p, (int)i) == me)
                out->from[k++] = i;
    return 0;
}

/* Run one exchange; returns the time (ps) of the last node's end after a
 * common start, on every node. */
static double run(const cx_schedule_t *sched, const senders_t *from, long g,
                  long m, int forced, char *sbuf, char *rbuf, long *ids)
{
    long type = 300 | (forced ? FORCE_TYPE : 0);
    double v[2], w[2];
    gsync();
    mce_compute(MCE_MS); /* the barrier's messages are over */
    mce_time_t t0 = mce_now();
    if (g == 0) {
        /* naive: every receive at once, then every send */
        long k = 0;
        for (long j = 0; j < N - 1; j++)
            ids[k++] = irecv(type, rbuf + j * m, m);
        for (long p = 0; p < sched->nsteps; p++) {
            int d = *cx_slots(sched, (int)p, (int)me);
            if (d >= 0)
                ids[k++] = isend(type, sbuf + (long)d * m, m, d, 0);
        }
        for (long i = 0; i < k; i++)
            msgwait(ids[i]);
    } else {
        for (long p0 = 0; p0 < sched->nsteps; p0 += g) {
            long k = 0, p1 = p0 + g < sched->nsteps ? p0 + g : sched->nsteps;
            /* receives of this stretch: one per sender aimed at me */
            for (long j = from->start[p0]; j < from->start[p1]; j++) {
                long i = from->from[j];
                ids[k++] = irecvx(type, rbuf + i * m, m, i, -1, NULL);
            }
            gsync();
            for (long p = p0; p < p1; p++) {
                int d = *cx_slots(sched, (int)p, (int)me);
                if (d >= 0)
                    ids[k++] = isend(type, sbuf + (long)d * m, m, d, 0);
            }
            for (long i = 0; i < k; i++)
                msgwait(ids[i]);
        }
    }
    v[0] = (double)(mce_now() - t0);
    v[1] = 0;
    gdhigh(v, 2, w);
    mce_compute(MCE_MS);
    return v[0];
}

int main(int argc, char **argv)
{
    const char *algs = "naive,scott,bounded";
    long sizes[MAXL] = {8640, 32768}, groups[MAXL];
    int nsizes = 2, ngroups = 0, forced = 0, shifted = 0;
    int64_t width = 0;

    me = mynode();
    N = numnodes();
    int naive_order = 0;
    const app_opt_t opts[] = {
        {"alg", APPO_STR, &algs, NULL, 0, 0, NULL, "naive,scott,bounded",
         "algorithms to run (default all three)"},
        {"sizes", APPO_LIST, sizes, &nsizes, MAXL, 1, NULL, "M,...",
         "block sizes in bytes (default 8640,32768)"},
        {"groups", APPO_LIST, groups, &ngroups, MAXL, 1, NULL, "G,...",
         "permutations between barriers (default: every divisor c of n/4, "
         "then (n/4) 2^j, then none)"},
        {"forced", APPO_FLAG, &forced, NULL, 0, 0, NULL, NULL,
         "FORCED messages for scott and bounded"},
        {"naive", APPO_CHOICE, &naive_order, NULL, 0, 0, "index|shifted", NULL,
         "naive order: node order (the paper's) or me+k (default index)"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc = app_parse("complete_exchange",
                        "The complete exchange of Bokhari and Nicol 1996 on a "
                        "Paragon mesh: naive, Scott's and bounded-contention "
                        "algorithms against the paper's bounds.",
                        "[--alg=naive,scott,bounded] [--sizes=M,...] "
                        "[--groups=G,...] [--forced] [--naive=index|shifted] "
                        "[--format=table|csv|json] on an n x n mesh, n a "
                        "multiple of 4",
                        argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    shifted = naive_order;
    side = (int)lround(sqrt((double)N));
    if (nsizes <= 0 || ngroups < 0 || (long)side * side != N || side % 4) {
        if (me == 0)
            fprintf(stderr, "usage: complete_exchange [--alg=naive,scott,"
                            "bounded] [--sizes=M,...] [--groups=G,...] "
                            "[--forced] [--naive=index|shifted] on an n x n "
                            "mesh, n a multiple of 4\n");
        return 2;
    }
    if (mce_machine_param("paragon.width", &width) != MCE_OK || width != side) {
        if (me == 0)
            fprintf(stderr,
                    "complete_exchange: needs a square Paragon mesh: "
                    "--mce-machine=paragon --mce-set=paragon.width=%d\n",
                    side);
        return 2;
    }
    long q = side / 4, total = (long)side * side * side / 4;
    if (ngroups == 0) {
        /* Barriers every c permutations for each c dividing n/4 (link
         * contention c, none at the nodes: Table 2, e.g. c = 3 on 12 x 12),
         * then every (n/4) 2^j (node contention 2^j), then none. */
        for (long c = 1; c <= q; c++)
            if (q % c == 0)
                groups[ngroups++] = c;
        for (long g = 2 * q; g < total && ngroups < MAXL - 1; g *= 2)
            groups[ngroups++] = g;
        if (groups[ngroups - 1] != total)
            groups[ngroups++] = total;
    }
    long maxm = 0;
    for (int i = 0; i < nsizes; i++)
        maxm = sizes[i] > maxm ? sizes[i] : maxm;
    char *sbuf = calloc((size_t)N, (size_t)maxm);
    char *rbuf = calloc((size_t)N, (size_t)maxm);
    long *ids = calloc((size_t)(2 * N + 2), sizeof(long));
    cx_schedule_t scott, naive;
    senders_t from = {NULL, NULL};
    if (!sbuf || !rbuf || !ids || cx_scott_collapsible(side, &scott) != CX_OK ||
        (shifted ? cx_naive(side, &naive) : cx_naive_index(side, &naive)) !=
            CX_OK ||
        ((strstr(algs, "scott") || strstr(algs, "bounded")) &&
         senders_of(&scott, &from) != 0)) {
        fprintf(stderr, "complete_exchange: node %ld: out of memory\n", me);
        return 1;
    }
    double sync_us = 27.1 * log2((double)N) - 134.0;
    const char *scheme = forced ? "FORCED" : "UNFORCED";
    if (me == 0)
        app_note("complete_exchange: %dx%d mesh, %ld permutations, sync fit "
                 "%.1f us, %s messages for scott and bounded, naive in %s "
                 "order\n"
                 "complete_exchange: %-8s %6s %6s %8s %12s %12s %12s\n",
                 side, side, total, sync_us, scheme,
                 shifted ? "shifted (me+k)" : "node", "alg", "nodeC", "linkC",
                 "bytes", "emulated_ms", "lower_ms", "upper_ms");
    for (int si = 0; si < nsizes; si++) {
        long m = sizes[si];
        double comm_us = 231.0 + 0.022 * (double)m;
        if (strstr(algs, "naive")) {
            double t = run(&naive, NULL, 0, m, 0, sbuf, rbuf, ids);
            if (me == 0)
                app_row(
                    "complete_exchange",
                    APP_FIELDS(APP_S("alg", "naive"), APP_I("nodes", N),
                               APP_I("nodeC", N - 1), APP_F("linkC", NAN),
                               APP_I("bytes", m), APP_F("emulated_ms", t / 1e9),
                               APP_F("lower_ms", NAN), APP_F("upper_ms", NAN)),
                    "complete_exchange: %-8s %6ld %6s %8ld %12.3f %12s "
                    "%12s\n",
                    "naive", N - 1, "-", m, t / 1e9, "-", "-");
        }
        for (int gi = 0; gi < ngroups; gi++) {
            long g = groups[gi];
            const char *name = g == 1 ? "scott" : "bounded";
            if (!strstr(algs, name))
                continue;
            double t = run(&scott, &from, g, m, forced, sbuf, rbuf, ids);
            long steps = (total + g - 1) / g, nodec = g > q ? g / q : 1;
            long csteps = g > q ? (total + q - 1) / q : steps; /* Table 2 */
            double sync_total = (double)steps * (sync_us > 0 ? sync_us : 0);
            double lower = ((double)csteps * comm_us + sync_total) / 1e3;
            double upper = ((double)total * comm_us + sync_total) / 1e3;
            if (me == 0)
                app_row("complete_exchange",
                        APP_FIELDS(
                            APP_S("alg", name), APP_I("nodes", N),
                            APP_I("nodeC", nodec), APP_I("linkC", g),
                            APP_I("bytes", m), APP_F("emulated_ms", t / 1e9),
                            APP_F("lower_ms", lower), APP_F("upper_ms", upper)),
                        "complete_exchange: %-8s %6ld %6ld %8ld %12.3f %12.3f "
                        "%12.3f\n",
                        name, nodec, g, m, t / 1e9, lower, upper);
        }
    }
    if (me == 0)
        app_finish();
    cx_schedule_free(&scott);
    cx_schedule_free(&naive);
    free(from.start);
    free(from.from);
    free(sbuf);
    free(rbuf);
    free(ids);
    return 0;
}
