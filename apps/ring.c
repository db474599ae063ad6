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

static int parse_opt(const char *arg, const char *name, long *out)
{
    size_t n = strlen(name);
    char *end;
    if (strncmp(arg, name, n) != 0 || arg[n] != '=')
        return 0;
    *out = strtol(arg + n + 1, &end, 10);
    if (*end != '\0' || *out < 0) {
        fprintf(stderr, "ring: bad value in '%s'\n", arg);
        exit(2);
    }
    return 1;
}

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

    for (int i = 1; i < argc; i++) {
        if (parse_opt(argv[i], "--rounds", &rounds) ||
            parse_opt(argv[i], "--bytes", &bytes) ||
            parse_opt(argv[i], "--compute-ns", &compute_ns))
            continue;
        if (me == 0)
            fprintf(stderr,
                    "usage: ring [--rounds=R] [--bytes=B] [--compute-ns=NS]\n");
        return 2;
    }
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
    if (me == 0)
        printf("ring: %d nodes, %ld rounds of %ld bytes on '%s': %.3f us "
               "virtual (%.3f us per round)\n",
               n, rounds, bytes, mce_machine_name(), (double)t / MCE_US,
               rounds ? (double)t / MCE_US / (double)rounds : 0.0);
    free(out);
    free(in);
    free(want);
    return 0;
}
