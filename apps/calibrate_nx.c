/* calibrate_nx: measure the iPSC/860 communication constants of Seidel and
 * Davis's Table I on the emulator the way they were measured on the
 * machine (section 2.1 and 3.3): the cost of dclock() itself, the
 * sender's return time s of a null csend, b_s as half a null ping-pong,
 * a and b_l from ping-pongs of two long messages (t = a m + b_l), and a
 * check on a ring of long messages.  Run on 2 or more nodes:
 *   calibrate_nx --mce-nodes=2 [--sizes=4096,32768] [--reps=10]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nx.h"
#include "opts.h"

static char buf[1 << 20];

/* Before a measurement: a barrier, then quiet, so the barrier's own
 * messages are over before it starts (the seed balanced its traffic the
 * same way). */
static void settle(void)
{
    gsync();
    mce_compute(MCE_MS);
}

/* After one: nodes that took no part wait for node 0 to say it is done,
 * so their next barrier cannot cross the measured messages. */
static void done(long me)
{
    char c = 0;
    if (me == 0)
        csend(9, &c, 0, -1, 0);
    else
        crecv(9, &c, 0);
}

static double dclock_cost(void)
{
    double t1 = dclock(), t2 = dclock();
    return t2 - t1;
}

/* Half the round trip of m bytes between nodes 0 and 1, seconds. */
static double pingpong(long me, long m, long reps, double c)
{
    double t0 = 0, t1 = 0;
    settle();
    if (me == 0)
        t0 = dclock();
    for (long r = 0; r < reps; r++) {
        if (me == 0) {
            csend(1, buf, m, 1, 0);
            crecv(2, buf, m);
        } else if (me == 1) {
            crecv(1, buf, m);
            csend(2, buf, m, 0, 0);
        }
    }
    if (me == 0)
        t1 = dclock();
    done(me);
    return (t1 - t0 - c) / (2.0 * (double)reps);
}

int main(int argc, char **argv)
{
    long me = mynode(), n = numnodes(), m1 = 4096, m2 = 32768, reps = 10;
    long msz[2] = {m1, m2};
    int nsz = 2;
    const app_opt_t opts[] = {
        {"sizes", APPO_LIST, msz, &nsz, 2, 0, NULL, "M1,M2",
         "two long-message sizes, 100 < M1 < M2 <= 1 MiB (default "
         "4096,32768)"},
        {"reps", APPO_LONG, &reps, NULL, 0, 1, NULL, "R",
         "round trips per measurement (default 10)"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc = app_parse("calibrate_nx",
                        "Measures the iPSC/860 message constants a, b_l, b_s "
                        "and s of Seidel and Davis 1992 (Table I) with "
                        "dclock(), as the paper did.",
                        "[--sizes=M1,M2] [--reps=R] [--format=table|csv|json] "
                        "(2+ nodes, 100 < M1 < M2 <= 1 MiB)",
                        argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    m1 = msz[0];
    m2 = nsz == 2 ? msz[1] : 0;
    if (n < 2 || m1 <= 100 || m2 <= m1 || m2 > (long)sizeof(buf) || reps <= 0) {
        if (me == 0)
            fprintf(stderr, "usage: calibrate_nx [--sizes=M1,M2] [--reps=R] "
                            "(2+ nodes, 100 < M1 < M2 <= 1 MiB)\n");
        return 2;
    }
    double c = dclock_cost();

    /* s: the sender's return from a null csend (receiver waiting). */
    double s = 0;
    settle();
    if (me == 1)
        crecv(3, buf, 0);
    if (me == 0) {
        double t0 = dclock();
        csend(3, buf, 0, 1, 0);
        s = dclock() - t0 - c;
    }
    done(me);
    double bs = pingpong(me, 0, reps, c);
    double l1 = pingpong(me, m1, reps, c), l2 = pingpong(me, m2, reps, c);
    double a = (l2 - l1) / (double)(m2 - m1), bl = l1 - a * (double)m1;

    /* ring of long messages between neighbours (a Gray-code ring): every
     * hop costs a m + b_l */
    double ring = 0;
    long pos = 0;
    while ((pos ^ (pos >> 1)) != me && pos < n)
        pos++;
    long next = ((pos + 1) % n) ^ (((pos + 1) % n) >> 1);
    settle();
    double t0 = dclock();
    for (long r = 0; r < reps; r++) {
        if (me == 0) {
            csend(4, buf, m1, next, 0);
            crecv(4, buf, m1);
        } else {
            crecv(4, buf, m1);
            csend(4, buf, m1, next, 0);
        }
    }
    ring = (dclock() - t0 - c) / (double)(reps * n);

    if (me == 0) {
        static const struct {
            const char *name, *unit, *fmt;
            double paper;
        } k[] = {
            {"a", "us/byte",
             "calibrate_nx: a   = %.4f us/byte "
             "(Table I: 0.36)\n",
             0.36},
            {"b_l", "us", "calibrate_nx: b_l = %.2f us (Table I: 136)\n", 136},
            {"b_s", "us", "calibrate_nx: b_s = %.2f us (Table I: 75)\n", 75},
            {"s", "us", "calibrate_nx: s   = %.2f us (Table I: 44)\n", 44}};
        double v[] = {a * 1e6, bl * 1e6, bs * 1e6, s * 1e6};
        app_note("calibrate_nx: dclock() costs %.3f us\n", c * 1e6);
        for (int i = 0; i < 4; i++) {
            char line[96];
            snprintf(line, sizeof(line), k[i].fmt, v[i]);
            app_row("calibrate_nx",
                    APP_FIELDS(
                        APP_S("constant", k[i].name), APP_S("unit", k[i].unit),
                        APP_F("emulated", v[i]), APP_F("paper", k[i].paper)),
                    "%s", line);
        }
        app_row("calibrate_nx_ring",
                APP_FIELDS(APP_I("bytes", m1), APP_F("us_per_hop", ring * 1e6),
                           APP_F("formula_us", (a * (double)m1 + bl) * 1e6)),
                "calibrate_nx: ring of %ld-byte messages: %.2f us per hop "
                "(a m + b_l = %.2f)\n",
                m1, ring * 1e6, (a * (double)m1 + bl) * 1e6);
        app_finish();
    }
    return 0;
}
