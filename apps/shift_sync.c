/* shift_sync: global synchronisation before a ring shift on the iPSC/860
 * (Seidel and Davis 1992, sections 3 and 4).
 *
 * Each trial: every node idles a pseudo-random skew (0 .. --skew-us,
 * the same on every layout; or only node NODE idles US with --late),
 * synchronises with gsync(), PICL's
 * sync0() or the recursive doubling synchronisation (RDS, with its busy
 * waits w_i = (d - |i|_1)(b_s - s)), then shifts a message to its right
 * neighbour in a Gray-code ring with the long or the forced protocol.
 * Node 0 prints, per (algorithm, protocol, size): the emulated shift cost
 * (mean over trials of last end - first start), the predicted minimum
 * (am + b_l or am + b_s), the synchronisation cost and precision, and the
 * success rate: a trial succeeds when the shift costs less than the
 * predicted minimum + 1 ms (the seed's section 4.2 criterion).  Run with
 * --mce-set=nx.irq=1 for the system interrupts of section 3.4.
 *
 *   shift_sync --mce-nodes=32 [--sync=gsync,sync0,rds] [--protocol=long,forced]
 *              [--sizes=4096,16384,65536] [--trials=20] [--skew-us=500]
 *              [--late=NODE:US | --back-to-back] [--busy=exact|loop]
 *              [--per-trial] [--table3]
 *
 * The figures are collected (one global maximum) after all the trials of
 * a row, so nothing but the synchronisation and the shift passes between
 * neighbours during the trials.  --per-trial prints every trial's cost.
 * --back-to-back runs the seed's own loop instead: no common start, no
 * injected skew and no pause, each trial's synchronisation starting
 * where the last shift left the node.
 * For the section 4 conditions also turn on the iPSC/860's forward flow
 * control of message buffers: --mce-set=nx.irq=1 --mce-set=ipsc.fc=1.
 *
 * --table3 measures the pieces of the seed's inequality on the emulator
 * (RDS cost, concurrent and contended long shifts at two sizes) and prints
 * the minimum message length for which RDS pays, for this d.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nx.h"
#include "opts.h"

#define MAXN 16

static long me, n, d;
static mce_time_t a_ps, bl_ps, bs_ps, s_ps;
static int loop_busy, per_trial, chain;
static char *sbuf, *rbuf;
static long counter; /* global-operation-free deterministic random state */
static long late_node = -1;
static mce_time_t late_ps;

static long gray(long i)
{
    return i ^ (i >> 1);
}

static long popcount(long x)
{
    return __builtin_popcountl((unsigned long)x);
}

/* Busy wait of w ps: exact, or the seed's empty loop of k iterations
 * costing 0.126 k + 2.0 us. */
static void busy_wait(mce_time_t w)
{
    if (w == 0)
        return;
    if (!loop_busy) {
        mce_compute(w);
        return;
    }
    long long k = ((long long)w - 2000000LL + 63000LL) / 126000LL;
    if (k < 0)
        k = 0;
    mce_compute((mce_time_t)(126000LL * k + 2000000LL));
}

static void sync_gsync(void)
{
    gsync();
}

/* PICL sync0: the high half reports to the low half, which runs the
 * butterfly on its subcube (dimensions in reverse order), then tells the
 * high half. */
static void sync_sync0(void)
{
    long hi = 1L << (d - 1), t = 3000 + (counter++ & 0xff) * 8;
    char c = 0;
    if (d == 0)
        return;
    if (me & hi) {
        csend(t, &c, 0, me ^ hi, 0);
        crecvx(t + 1, &c, 0, me ^ hi, -1, NULL);
        return;
    }
    crecvx(t, &c, 0, me ^ hi, -1, NULL);
    for (long k = 0; k < d - 1; k++) {
        csend(t + 2, &c, 0, me ^ (1L << k), 0);
        crecvx(t + 2, &c, 0, me ^ (1L << k), -1, NULL);
    }
    csend(t + 1, &c, 0, me ^ hi, 0);
}

/* RDS: reverse broadcast (fan-in to node 0), broadcast from node 0 along
 * the tree in which node i sits at level |i|_1, then the busy wait. */
static void sync_rds(void)
{
    long t = 5000 + (counter++ & 0xff) * 8, msb = -1;
    char c = 0;
    for (long k = 0; k < d; k++)
        if (me & (1L << k))
            msb = k;
    /* phase 1: children i + 2^k (k > msb), highest first, then parent */
    for (long k = d - 1; k > msb; k--)
        crecvx(t, &c, 0, me + (1L << k), -1, NULL);
    if (me != 0)
        csend(t, &c, 0, me - (1L << msb), 0);
    /* phase 2: from the parent, then to the children, lowest first */
    if (me != 0)
        crecvx(t + 1, &c, 0, me - (1L << msb), -1, NULL);
    for (long k = msb + 1; k < d; k++)
        csend(t + 1, &c, 0, me + (1L << k), 0);
    /* phase 3 */
    busy_wait((mce_time_t)(d - popcount(me)) * (bs_ps - s_ps));
}

typedef void (*sync_fn)(void);

/* Idle until every node's shift is surely over, so the collection of the
 * figures (a global operation) cannot contend with a late node's shift. */
static void quiet(long m)
{
    mce_compute(4 * ((mce_time_t)m * a_ps + bl_ps) + MCE_MS);
}

static unsigned long long mix(unsigned long long x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* One trial; stores this node's clock readings in v[0..4] (shift start
 * and end, sync start, sync end twice), signed so that a global maximum
 * gives the first start and the last end.  Nothing is exchanged to
 * collect them until every trial is over: like the seed's measurements,
 * the loop sends only the synchronisation and the shift, so the message
 * traffic between neighbours is what those make it (section 2.4). */
static void trial(sync_fn sync, int forced, long m, mce_time_t skew,
                  long trial_no, double v[5])
{
    long pos = 0;
    while (gray(pos) != me)
        pos++;
    long right = gray((pos + 1) % n);
    long type = 77 | (forced ? FORCE_TYPE : 0);
    mce_time_t t1, t2, t3;

    /* A common start, outside the measurement: RDS leaves every node at
     * the same instant, so the skew below is exactly the one injected.
     * Back to back (the seed's loop) the nodes start where the last
     * trial left them. */
    if (!chain) {
        sync_rds();
        if (late_node >= 0) {
            if (me == late_node)
                mce_compute(late_ps);
        } else if (skew) {
            mce_compute(mix((unsigned long long)trial_no * 1000003ULL +
                            (unsigned long long)me) %
                        (skew + 1));
        }
    }
    /* Forced receives must be posted before anyone can send. */
    long rid = irecv(type, rbuf, m);
    t1 = mce_now();
    sync();
    t2 = mce_now();
    csend(type, sbuf, m, right, 0);
    msgwait(rid);
    t3 = mce_now();
    if (!chain)
        quiet(m);
    v[0] = -(double)t2; /* shift start */
    v[1] = (double)t3;  /* shift end */
    v[2] = -(double)t1; /* sync start */
    v[3] = (double)t2;  /* sync end (latest) */
    v[4] = -(double)t2; /* sync end (earliest) */
}

static int get(const char *key, mce_time_t *out)
{
    int64_t v;
    if (mce_machine_param(key, &v) != MCE_OK)
        return -1;
    *out = (mce_time_t)v;
    return 0;
}

static void table3(void)
{
    /* Pieces of the seed's inequality, measured: RDS cost from a skewed
     * start; the concurrent long shift after RDS; the contended long shift
     * of unsynchronised nodes (one node late by delta, b_s <= delta <= am),
     * each at two sizes. */
    const long m1 = 2048, m2 = 8192;
    mce_time_t delta = 100 * MCE_US;
    double c[2][2], r[3], rds_cost;
    for (int i = 0; i < 2; i++) {
        long m = i ? m2 : m1;
        for (int sync = 0; sync < 2; sync++) {
            long pos = 0;
            while (gray(pos) != me)
                pos++;
            long right = gray((pos + 1) % n);
            double v[4], w[4];
            sync_rds(); /* exact common start */
            long rid = irecv(78, rbuf, m);
            mce_time_t t0 = mce_now();
            /* The last node is the slowest: its phase-1 chain is longest. */
            if (me == n - 1)
                mce_compute(delta);
            if (sync)
                sync_rds();
            mce_time_t t2 = mce_now();
            csend(78, sbuf, m, right, 0);
            msgwait(rid);
            mce_time_t tend = mce_now();
            quiet(m);
            v[0] = -(double)t0;
            v[1] = (double)tend;
            v[2] = (double)t2;
            v[3] = 0;
            gdhigh(v, 4, w);
            c[i][sync] = v[1] + v[0];
            if (sync)
                r[i] = v[2] + v[0];
        }
    }
    rds_cost = r[0];
    /* cost(m) = I + S m for each; RDS pays when nosync + delta >= rds +
     * sync shift, as the seed writes it (delta on both sides). */
    double s_no = (c[1][0] - c[0][0]) / (double)(m2 - m1);
    double i_no = c[0][0] - s_no * (double)m1;
    double s_sy = (c[1][1] - rds_cost - (c[0][1] - r[0])) / (double)(m2 - m1);
    double i_sy = (c[0][1] - r[0]) - s_sy * (double)m1;
    /* seed: 2am + 3/2 b_l + delta >= am + b_l + 2 d b_s + delta, where
     * the RDS cost measured here is 2 d b_s + delta. */
    double need = ((rds_cost - (double)delta) + i_sy - i_no) / (s_no - s_sy);
    long mmin = (long)need;
    if ((double)mmin < need)
        mmin++;
    double formula = (double)(2 * d * (long long)bs_ps + (long long)delta);
    if (me == 0)
        app_row("shift_sync_table3",
                APP_FIELDS(APP_I("d", d), APP_F("rds_cost_us", rds_cost / 1e6),
                           APP_F("rds_formula_us", formula / 1e6),
                           APP_I("min_m", mmin), APP_F("min_m_exact", need)),
                "shift_sync: table3 d=%ld rds_cost_us=%.6f (2d*b_s + delta = "
                "%.6f) min_m=%ld (exact %.4f)\n",
                d, rds_cost / 1e6, formula / 1e6, mmin, need);
}

int main(int argc, char **argv)
{
    const char *syncs = "gsync,sync0,rds", *protos = "long,forced";
    long sizes[MAXN] = {4096, 16384, 65536}, nsizes = 3, trials = 20;
    double skew_us = 500;
    int do_table3 = 0;

    me = mynode();
    n = numnodes();
    for (d = 0; (1L << d) < n; d++)
        ;
    const char *late = NULL;
    int busy = 0, nsz = (int)nsizes;
    const app_opt_t opts[] = {
        {"sync", APPO_STR, &syncs, NULL, 0, 0, NULL, "gsync,sync0,rds",
         "synchronisations to run (default all three)"},
        {"protocol", APPO_STR, &protos, NULL, 0, 0, NULL, "long,forced",
         "shift protocols (default both)"},
        {"sizes", APPO_LIST, sizes, &nsz, MAXN, 0, NULL, "A,B,...",
         "shift sizes in bytes (default 4096,16384,65536)"},
        {"trials", APPO_LONG, &trials, NULL, 0, 1, NULL, "T",
         "trials per row, at most 100000 (default 20)"},
        {"skew-us", APPO_DOUBLE, &skew_us, NULL, 0, 0, NULL, "X",
         "largest pseudo-random start skew in us (default 500)"},
        {"late", APPO_STR, &late, NULL, 0, 0, NULL, "NODE:US",
         "only NODE starts late, by US microseconds"},
        {"back-to-back", APPO_FLAG, &chain, NULL, 0, 0, NULL, NULL,
         "the paper's own loop: no common start, no skew, no pause"},
        {"busy", APPO_CHOICE, &busy, NULL, 0, 0, "exact|loop", NULL,
         "RDS busy waits as exact virtual time or a counted loop"},
        {"per-trial", APPO_FLAG, &per_trial, NULL, 0, 0, NULL, NULL,
         "also print every trial's cost"},
        {"table3", APPO_FLAG, &do_table3, NULL, 0, 0, NULL, NULL,
         "measure the pieces of Table 3's inequality instead"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc = app_parse(
        "shift_sync",
        "Global synchronisation before a ring shift on the iPSC/860 (Seidel "
        "and Davis 1992): shift cost, predicted minimum, synchronisation "
        "cost and precision, success rate.",
        "[--sync=gsync,sync0,rds] [--protocol=long,forced] [--sizes=A,B] "
        "[--trials=T] [--skew-us=X | --late=NODE:US | --back-to-back] "
        "[--busy=exact|loop] [--per-trial] [--table3] "
        "[--format=table|csv|json]; the node count must be a power of two",
        argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    nsizes = nsz;
    loop_busy = busy;
    if (late != NULL) {
        char *colon = strchr(late, ':');
        late_node = atol(late);
        late_ps = colon ? (mce_time_t)(atof(colon + 1) * 1e6 + 0.5) : 0;
        if (colon == NULL || late_node < 0)
            nsizes = -1;
    }
    if (nsizes <= 0 || trials <= 0 || trials > 100000 || skew_us < 0 ||
        (1L << d) != n || late_node >= n) {
        if (me == 0)
            fprintf(stderr,
                    "usage: shift_sync [--sync=gsync,sync0,rds] "
                    "[--protocol=long,forced] [--sizes=A,B] [--trials=T] "
                    "[--skew-us=X | --late=NODE:US | --back-to-back] "
                    "[--busy=exact|loop] "
                    "[--per-trial] [--table3]; the node "
                    "count must be a power of two\n");
        return 2;
    }
    if (get("ipsc.a", &a_ps) || get("ipsc.b_l", &bl_ps) ||
        get("ipsc.b_s", &bs_ps) || get("ipsc.s", &s_ps)) {
        if (me == 0)
            fprintf(stderr, "shift_sync: needs the iPSC/860 machine "
                            "(--mce-machine=ipsc860)\n");
        return 2;
    }
    double *v = malloc(5 * (size_t)trials * sizeof(*v)),
           *w = malloc(5 * (size_t)trials * sizeof(*w));
    if (v == NULL || w == NULL)
        return 1;
    long maxm = 0;
    for (long i = 0; i < nsizes; i++)
        if (sizes[i] > maxm)
            maxm = sizes[i];
    if (maxm < 8192)
        maxm = 8192;
    sbuf = calloc(1, (size_t)maxm);
    rbuf = calloc(1, (size_t)maxm);
    if (!sbuf || !rbuf)
        return 1;
    if (do_table3) {
        table3();
        if (me == 0)
            app_finish();
        free(v);
        free(w);
        free(sbuf);
        free(rbuf);
        return 0;
    }
    int64_t irq = 0, fc = 0;
    char start[64];
    mce_machine_param("nx.irq", &irq);
    mce_machine_param("ipsc.fc", &fc);
    if (chain)
        snprintf(start, sizeof(start), "back to back");
    else if (late_node >= 0)
        snprintf(start, sizeof(start), "node %ld late by %.1f us", late_node,
                 (double)late_ps / 1e6);
    else
        snprintf(start, sizeof(start), "skew up to %.1f us", skew_us);
    if (me == 0)
        app_note("shift_sync: d=%ld (%ld nodes), %ld trials, %s, "
                 "interrupts %s, flow control %s, busy waits %s\n"
                 "shift_sync: %-5s %-6s %6s %12s %12s %10s %10s %8s\n",
                 d, n, trials, start, irq ? "on" : "off", fc ? "on" : "off",
                 loop_busy ? "loop" : "exact", "sync", "proto", "bytes",
                 "shift_us", "predict_us", "sync_us", "prec_us", "success");
    static const struct {
        const char *name;
        sync_fn fn;
    } algs[] = {
        {"gsync", sync_gsync}, {"sync0", sync_sync0}, {"rds", sync_rds}};
    for (size_t a = 0; a < 3; a++) {
        if (!strstr(syncs, algs[a].name))
            continue;
        for (int forced = 0; forced < 2; forced++) {
            if (!strstr(protos, forced ? "forced" : "long"))
                continue;
            for (long si = 0; si < nsizes; si++) {
                long m = sizes[si];
                double pred = (double)(a_ps * (mce_time_t)m) +
                              (double)(forced ? bs_ps : bl_ps);
                double shift = 0, sync = 0, prec = 0;
                long ok = 0;
                for (long t = 0; t < trials; t++)
                    trial(algs[a].fn, forced, m,
                          (mce_time_t)(skew_us * 1e6 + 0.5), t, v + 5 * t);
                gdhigh(v, 5 * trials, w);
                for (long t = 0; t < trials; t++) {
                    const double *r = v + 5 * t;
                    double cost = r[1] + r[0];
                    shift += cost;
                    sync += r[3] + r[2];
                    prec += r[3] + r[4];
                    if (cost < pred + 1e9)
                        ok++;
                    if (per_trial && me == 0)
                        app_row(
                            "shift_sync_trial",
                            APP_FIELDS(
                                APP_S("sync", algs[a].name),
                                APP_S("proto", forced ? "forced" : "long"),
                                APP_I("bytes", m), APP_I("trial", t),
                                APP_F("shift_us", cost / 1e6),
                                APP_S("result", cost < pred + 1e9 ? "success"
                                                                  : "failure")),
                            "shift_sync: trial %-5s %-6s %6ld %4ld %12.2f "
                            "%s\n",
                            algs[a].name, forced ? "forced" : "long", m, t,
                            cost / 1e6,
                            cost < pred + 1e9 ? "success" : "failure");
                }
                if (me == 0)
                    app_row(
                        "shift_sync",
                        APP_FIELDS(APP_S("sync", algs[a].name),
                                   APP_S("proto", forced ? "forced" : "long"),
                                   APP_I("bytes", m), APP_I("nodes", n),
                                   APP_F("shift_us", shift / trials / 1e6),
                                   APP_F("predict_us", pred / 1e6),
                                   APP_F("sync_us", sync / trials / 1e6),
                                   APP_F("prec_us", prec / trials / 1e6),
                                   APP_F("success_pct",
                                         100.0 * (double)ok / (double)trials)),
                        "shift_sync: %-5s %-6s %6ld %12.2f %12.2f %10.2f "
                        "%10.2f %7.1f%%\n",
                        algs[a].name, forced ? "forced" : "long", m,
                        shift / trials / 1e6, pred / 1e6, sync / trials / 1e6,
                        prec / trials / 1e6,
                        100.0 * (double)ok / (double)trials);
            }
        }
    }
    free(v);
    free(w);
    free(sbuf);
    free(rbuf);
    if (me == 0)
        app_finish();
    return 0;
}
