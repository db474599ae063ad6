/* ring: every node sends B bytes to its right neighbour and receives from
 * its left, R times.  The payload carries (sender, round) so that every
 * delivery is checked.
 *
 *   ./ring --mce-nodes=64 --rounds=10 --bytes=1024 --mce-summary
 *   mpirun -np 4 ./ring --mce-nodes=64 --rounds=10 --bytes=1024 --mce-summary
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcemu.h"
#include "opts.h"

static void fill(unsigned char *buf, long bytes, int node, long round)
{
    for (long i = 0; i < bytes; i++)
        buf[i] = (unsigned char)(node * 31 + round * 7 + i);
}

int main(int argc, char **argv)
{
    long rounds = 10, bytes = 8, compute_ns = 0;
    int me = mce_node(), n = mce_nodes();
    unsigned char *out, *in, *want;
    mce_msg_info_t info;

    const app_opt_t opts[] = {
        {"rounds", APPO_LONG, &rounds, NULL, 0, 0, NULL, "R",
         "rounds around the ring (default 10)"},
        {"bytes", APPO_LONG, &bytes, NULL, 0, 0, NULL, "B",
         "bytes per message (default 8)"},
        {"compute-ns", APPO_LONG, &compute_ns, NULL, 0, 0, NULL, "NS",
         "virtual computation per round in ns (default 0)"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc = app_parse("ring",
                        "Every node sends B bytes to its right neighbour and "
                        "receives from its left, R times; node 0 prints the "
                        "virtual time.",
                        "[--rounds=R] [--bytes=B] [--compute-ns=NS] "
                        "[--format=table|csv|json]",
                        argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    out = malloc((size_t)bytes + 1);
    in = malloc((size_t)bytes + 1);
    want = malloc((size_t)bytes + 1);
    if (!out || !in || !want) {
        fprintf(stderr, "ring: node %d: out of memory\n", me);
        return 1;
    }
    int right = (me + 1) % n, left = (me + n - 1) % n;
    mce_time_t t0 = mce_now();
    for (long r = 0; r < rounds; r++) {
        int rc;
        fill(out, bytes, me, r);
        if ((rc = mce_send(right, 1, out, (size_t)bytes)) != MCE_OK ||
            (rc = mce_recv(left, 1, in, (size_t)bytes, &info)) != MCE_OK) {
            fprintf(stderr, "ring: node %d round %ld: %s\n", me, r,
                    mce_strerror(rc));
            return 1;
        }
        fill(want, bytes, left, r);
        if (info.bytes != (size_t)bytes || info.source != left ||
            memcmp(in, want, (size_t)bytes) != 0) {
            fprintf(stderr, "ring: node %d round %ld: corrupt message\n", me,
                    r);
            return 1;
        }
        if (compute_ns > 0)
            mce_compute((mce_time_t)compute_ns * MCE_NS);
    }
    mce_time_t t = mce_now() - t0;
    if (me == 0) {
        double total_us = (double)t / MCE_US;
        double round_us = rounds ? total_us / (double)rounds : 0.0;
        app_row("ring",
                APP_FIELDS(
                    APP_I("nodes", n), APP_I("rounds", rounds),
                    APP_I("bytes", bytes), APP_S("machine", mce_machine_name()),
                    APP_F("total_us", total_us), APP_F("round_us", round_us)),
                "ring: %d nodes, %ld rounds of %ld bytes on '%s': %.3f us "
                "virtual (%.3f us per round)\n",
                n, rounds, bytes, mce_machine_name(), total_us, round_us);
        app_finish();
    }
    free(out);
    free(in);
    free(want);
    return 0;
}
