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
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--sizes=", 8) == 0) {
            char *end;
            m1 = strtol(argv[i] + 8, &end, 10);
            m2 = *end == ',' ? strtol(end + 1, NULL, 10) : 0;
        } else if (strncmp(argv[i], "--reps=", 7) == 0) {
            reps = atol(argv[i] + 7);
        } else {
            m1 = 0;
        }
    }
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
        printf("calibrate_nx: dclock() costs %.3f us\n", c * 1e6);
        printf("calibrate_nx: a   = %.4f us/byte (Table I: 0.36)\n", a * 1e6);
        printf("calibrate_nx: b_l = %.2f us (Table I: 136)\n", bl * 1e6);
        printf("calibrate_nx: b_s = %.2f us (Table I: 75)\n", bs * 1e6);
        printf("calibrate_nx: s   = %.2f us (Table I: 44)\n", s * 1e6);
        printf("calibrate_nx: ring of %ld-byte messages: %.2f us per hop "
               "(a m + b_l = %.2f)\n",
               m1, ring * 1e6, (a * (double)m1 + bl) * 1e6);
    }
    return 0;
}
