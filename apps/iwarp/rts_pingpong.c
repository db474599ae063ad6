/* RTS message-passing ping-pong on the iWarp (Warfel 1996, section 3.2.2,
 * Figure 3.9; doc/design/iwarp-tcs.md, section 5).  Cells A = (x0,0) and
 * B = (x0+d,0) exchange messages through the runtime system's token ring:
 * A reads the counter, sends, receives B's reply, reads the counter: half
 * the difference (single-ping).  Run r starts at virtual time phase r mod 8.
 * One untimed exchange per distance comes first (the token starts at
 * the host cell).  Prints per (size, distance) the average, maximum, minimum
 * (floored) and the exact average.
 *
 * usage: rts_pingpong --mce-nodes=64 [--sizes=32,64,...] [--dist=1..7]
 *        [--runs=N] [--x0=X] [--format=table|csv|json]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iwarp.h>

#include "iwapp.h"
#include "opts.h"

#define PROG "rts_pingpong"

#define MAXD 16

static uint32_t buf[4096];

int main(int argc, char **argv)
{
    long sizes[32] = {32, 64, 256, 1024, 4096, 16384}, dist[MAXD];
    int nsizes = 6, ndist = 7, runs = 8, x0 = 0;
    int x, y, w = iwarp_width();
    for (int i = 0; i < 7; i++)
        dist[i] = i + 1;
    long lruns = 8, lx0 = 0;
    const app_opt_t opts[] = {
        {"sizes", APPO_LIST, sizes, &nsizes, 32, 4, NULL, "A,B,...",
         "message sizes in bytes, multiples of 4 up to 16384 (default "
         "32,64,256,1024,4096,16384)"},
        {"dist", APPO_LIST, dist, &ndist, MAXD, 1, NULL, "A,B|A..B",
         "distances in cells, 1 .. width-1 (default 1..7)"},
        {"runs", APPO_LONG, &lruns, NULL, 0, 1, NULL, "N",
         "runs per entry, phases 0..7 of the counter (default 8)"},
        {"x0", APPO_LONG, &lx0, NULL, 0, 0, NULL, "X",
         "column of cell A (default 0)"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc = app_parse(PROG,
                        "RTS message-passing ping-pong on the iWarp (Warfel "
                        "1996, 3.2.2, Figure 3.9): average, maximum and "
                        "minimum message time in clocks.",
                        "--mce-nodes=64 [--sizes=LIST] [--dist=LIST] "
                        "[--runs=N] [--x0=X] [--format=table|csv|json]",
                        argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    iwapp_check_sizes(PROG, sizes, nsizes);
    if (lx0 >= w)
        iwapp_die(PROG, "--x0: a column of the array");
    runs = lruns > 1000000 ? 1000000 : (int)lruns;
    x0 = (int)lx0;
    for (int k = 0; k < ndist; k++)
        if (dist[k] < 1 || dist[k] >= w)
            iwapp_die(PROG, "--dist: 1 .. width-1");
    iwarp_coords(&x, &y);
    if (y != 0)
        return 0;
    iwarp_align(1000);
    for (int k = 0; k < ndist; k++) {
        int d = (int)dist[k], b = (x0 + d) % w;
        int is_a = x == x0, is_b = x == b, peer = is_a ? b : x0;
        if (!is_a && !is_b)
            continue;
        { /* one untimed exchange: the token leaves the host cell */
            int src = peer, type = -1;
            size_t len;
            if (is_a)
                iwapp_check(PROG, iwarp_rts_send(peer, 99, buf, 4), "send");
            iwapp_check(PROG,
                        iwarp_rts_recv(&src, &type, buf, sizeof(buf), &len),
                        "recv");
            if (is_b)
                iwapp_check(PROG, iwarp_rts_send(peer, 99, buf, 4), "send");
        }
        for (int s = 0; s < nsizes; s++) {
            size_t bytes = (size_t)sizes[s], len;
            unsigned long sum = 0, max = 0, min = ~0ul;
            for (int r = 0; r < runs; r++) {
                int src = peer, type = s;
                if (is_a) {
                    unsigned long t0, t1, t;
                    iwarp_dither(r % 8);
                    t0 = iwarp_clock();
                    iwapp_check(PROG, iwarp_rts_send(peer, s, buf, bytes),
                                "send");
                    iwapp_check(
                        PROG,
                        iwarp_rts_recv(&src, &type, buf, sizeof(buf), &len),
                        "recv");
                    t1 = iwarp_clock();
                    t = t1 - t0;
                    sum += t;
                    if (t > max)
                        max = t;
                    if (t < min)
                        min = t;
                } else {
                    iwapp_check(
                        PROG,
                        iwarp_rts_recv(&src, &type, buf, sizeof(buf), &len),
                        "recv");
                    if (len != bytes)
                        iwapp_die(PROG, "wrong message length");
                    iwapp_check(PROG, iwarp_rts_send(peer, s, buf, bytes),
                                "send");
                }
            }
            if (is_a)
                app_row("rts_pingpong",
                        APP_FIELDS(APP_U("bytes", bytes), APP_I("dist", d),
                                   APP_I("x0", x0),
                                   APP_U("avg", sum / runs / 2),
                                   APP_U("max", max / 2), APP_U("min", min / 2),
                                   APP_F("avg_exact", (double)sum / runs / 2.0),
                                   APP_I("runs", runs)),
                        "rts_pingpong: bytes=%zu dist=%d x0=%d avg=%lu "
                        "max=%lu min=%lu avg_exact=%.3f runs=%d\n",
                        bytes, d, x0, sum / runs / 2, max / 2, min / 2,
                        (double)sum / runs / 2.0, runs);
        }
    }
    if (x == x0)
        app_finish();
    return 0;
}
