/* pingpong: node 0 and node 1 bounce a message REPS times per size and
 * node 0 prints the virtual round-trip time in picoseconds.  Other nodes
 * idle.
 *
 *   ./pingpong --mce-nodes=2 --sizes=0,1,100,4096,1048576 --reps=10
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcemu.h"

#define MAX_SIZES 64

int main(int argc, char **argv)
{
    long sizes[MAX_SIZES], reps = 10, maxsize = 0;
    int nsizes = 0, me = mce_node();
    char *buf;

    for (int i = 1; i < argc; i++) {
        char *p, *end;
        if (strncmp(argv[i], "--reps=", 7) == 0) {
            reps = strtol(argv[i] + 7, &end, 10);
            if (*end || reps <= 0)
                goto usage;
        } else if (strncmp(argv[i], "--sizes=", 8) == 0) {
            for (p = argv[i] + 8; *p && nsizes < MAX_SIZES; p = end) {
                sizes[nsizes] = strtol(p, &end, 10);
                if (end == p || sizes[nsizes] < 0)
                    goto usage;
                if (sizes[nsizes] > maxsize)
                    maxsize = sizes[nsizes];
                nsizes++;
                if (*end == ',')
                    end++;
            }
        } else {
            goto usage;
        }
    }
    if (nsizes == 0) {
        static const long def[] = {0, 1, 100, 4096, 1048576};
        for (nsizes = 0; nsizes < 5; nsizes++) {
            sizes[nsizes] = def[nsizes];
            if (def[nsizes] > maxsize)
                maxsize = def[nsizes];
        }
    }
    if (mce_nodes() < 2) {
        if (me == 0)
            fprintf(stderr,
                    "pingpong: needs at least 2 nodes (--mce-nodes=2)\n");
        return 2;
    }
    if (me > 1)
        return 0;
    if ((buf = calloc(1, (size_t)maxsize + 1)) == NULL)
        return 1;
    for (int s = 0; s < nsizes; s++) {
        size_t n = (size_t)sizes[s];
        mce_time_t t0 = mce_now();
        for (long r = 0; r < reps; r++) {
            int rc;
            if (me == 0) {
                buf[0] = (char)r;
                rc = mce_send(1, s, buf, n);
                if (rc == MCE_OK)
                    rc = mce_recv(1, s, buf, n, NULL);
            } else {
                rc = mce_recv(0, s, buf, n, NULL);
                if (rc == MCE_OK)
                    rc = mce_send(0, s, buf, n);
            }
            if (rc != MCE_OK) {
                fprintf(stderr, "pingpong: node %d: %s\n", me,
                        mce_strerror(rc));
                return 1;
            }
        }
        if (me == 0)
            printf("pingpong: size %zu reps %ld round_trip_ps %" PRIu64 "\n", n,
                   reps, (mce_now() - t0) / (mce_time_t)reps);
    }
    free(buf);
    return 0;
usage:
    if (me == 0)
        fprintf(stderr, "usage: pingpong [--sizes=A,B,...] [--reps=R]\n");
    return 2;
}
