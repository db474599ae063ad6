/* pingpong: node 0 and node 1 bounce a message REPS times per size and
 * node 0 prints the virtual round-trip time in picoseconds.  Other nodes
 * idle.
 *
 *   ./pingpong --mce-nodes=2 --sizes=0,1,100,4096,1048576 --reps=10
 *       [--format=table|csv|json]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcemu.h"
#include "opts.h"

#define MAX_SIZES 64

int main(int argc, char **argv)
{
    long sizes[MAX_SIZES], reps = 10, maxsize = 0;
    int nsizes = 0, me = mce_node();
    char *buf;

    const app_opt_t opts[] = {
        {"sizes", APPO_LIST, sizes, &nsizes, MAX_SIZES, 0, NULL, "A,B,...",
         "message sizes in bytes (default 0,1,100,4096,1048576)"},
        {"reps", APPO_LONG, &reps, NULL, 0, 1, NULL, "R",
         "round trips per size (default 10)"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc =
        app_parse("pingpong",
                  "Node 0 and node 1 bounce a message REPS times per "
                  "size; node 0 prints the virtual round-trip time.",
                  "[--sizes=A,B,...] [--reps=R] [--format=table|csv|json]",
                  argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    for (int s = 0; s < nsizes; s++)
        if (sizes[s] > maxsize)
            maxsize = sizes[s];
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
        if (me == 0) {
            mce_time_t rt = (mce_now() - t0) / (mce_time_t)reps;
            app_row("pingpong",
                    APP_FIELDS(APP_I("bytes", n), APP_I("reps", reps),
                               APP_U("round_trip_ps", rt)),
                    "pingpong: size %zu reps %ld round_trip_ps %" PRIu64 "\n",
                    n, reps, rt);
        }
    }
    free(buf);
    if (me == 0)
        app_finish();
    return 0;
}
