/* PCT-connection ping-pong on the iWarp (Warfel 1996, section 3.2.1,
 * Figures 3.5-3.8).  Cells A = (x0,0) and B = (x0+d,0) exchange over two
 * connections, A->B along X+ and B->A along X-, configured directly by
 * every cell on the row (PCTs 2(d-1) and 2(d-1)+1 for distance d).
 *
 *   single       A reads the counter, writes a block, reads B's reply
 *                block, reads the counter: half the difference (Fig 3.7)
 *   eight        eight such exchanges between two counter reads, divided
 *                by 16 (Fig 3.8)
 *   word-single  the same with one word through single gate calls (3.5)
 *   word-eight   eight single-word exchanges (Fig 3.6)
 *
 * Run r starts at virtual time phase r mod 8 (the counter ticks every 8
 * clocks).  Prints per (mode, size, distance) the average, maximum and
 * minimum (floored, as the figures print them), the exact average and
 * Warfel's prediction floor(36 + bytes/1.998 + 5 d) for block modes.
 *
 * usage: pct_pingpong --mce-nodes=64 [--mode=all|single|eight|word-single|
 *        word-eight] [--sizes=4,16,...] [--dist=1,2,...] [--runs=N] [--x0=X]
 *        [--format=table|csv|json]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iwarp.h>

#include "iwapp.h"
#include "opts.h"

#define PROG "pct_pingpong"

#define MAXD 16

static const char *const modes[] = {"single", "eight", "word-single",
                                    "word-eight"};

/* Direct configuration of this cell's PCTs for distance d. */
static void configure(int x, int x0, int d, int w)
{
    int i = (x - x0 + w) % w, a = 2 * (d - 1), b = a + 1;
    int cell_a = x0, cell_b = (x0 + d) % w;
    if (i > d)
        return;
    if (i == 0) {
        iwapp_check(PROG, iwarp_pct_config(a, IW_CPU, 0, IW_XP, a, cell_b),
                    "config");
        iwapp_check(PROG, iwarp_pct_config(b, IW_XP, b, IW_CPU, 0, cell_b),
                    "config");
    } else if (i == d) {
        iwapp_check(PROG, iwarp_pct_config(a, IW_XM, a, IW_CPU, 0, cell_a),
                    "config");
        iwapp_check(PROG, iwarp_pct_config(b, IW_CPU, 0, IW_XM, b, cell_a),
                    "config");
    } else {
        iwapp_check(PROG, iwarp_pct_config(a, IW_XM, a, IW_XP, a, -1),
                    "config");
        iwapp_check(PROG, iwarp_pct_config(b, IW_XP, b, IW_XM, b, -1),
                    "config");
    }
}

static uint32_t buf[4096];

/* One exchange from A's side (send then receive) or B's (the reverse). */
static void exchange(int is_a, int word, size_t n)
{
    if (word) {
        uint32_t v = 0x1234u;
        if (is_a) {
            iwapp_check(PROG, iwarp_gate_write(IW_W0, v), "write");
            iwapp_check(PROG, iwarp_gate_read(IW_R0, &v), "read");
        } else {
            iwapp_check(PROG, iwarp_gate_read(IW_R0, &v), "read");
            iwapp_check(PROG, iwarp_gate_write(IW_W0, v), "write");
        }
        return;
    }
    if (is_a) {
        iwapp_check(PROG, iwarp_gate_write_block(IW_W0, buf, n), "write");
        iwapp_check(PROG, iwarp_gate_read_block(IW_R0, buf, n), "read");
    } else {
        iwapp_check(PROG, iwarp_gate_read_block(IW_R0, buf, n), "read");
        iwapp_check(PROG, iwarp_gate_write_block(IW_W0, buf, n), "write");
    }
}

int main(int argc, char **argv)
{
    long sizes[32] = {4, 16, 64, 256, 1024, 4096, 16384}, dist[MAXD];
    int nsizes = 7, ndist = 7, runs = 8, x0 = 0, mode_mask = 15;
    int x, y, w = iwarp_width();
    for (int i = 0; i < 7; i++)
        dist[i] = i + 1;
    long lruns = 8, lx0 = 0;
    int mode = 0;
    const app_opt_t opts[] = {
        {"mode", APPO_CHOICE, &mode, NULL, 0, 0,
         "all|single|eight|word-single|word-eight", NULL,
         "the measurements (Figures 3.5-3.8; default all)"},
        {"sizes", APPO_LIST, sizes, &nsizes, 32, 4, NULL, "A,B,...",
         "block sizes in bytes, multiples of 4 up to 16384 (default "
         "4,16,...,16384)"},
        {"dist", APPO_LIST, dist, &ndist, MAXD, 1, NULL, "A,B|A..B",
         "distances in cells, 1..7 (default 1..7)"},
        {"runs", APPO_LONG, &lruns, NULL, 0, 1, NULL, "N",
         "runs per entry, phases 0..7 of the counter (default 8)"},
        {"x0", APPO_LONG, &lx0, NULL, 0, 0, NULL, "X",
         "column of cell A (default 0)"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc = app_parse(PROG,
                        "PCT-connection ping-pong on the iWarp (Warfel 1996, "
                        "3.2.1, Figures 3.5-3.8): average, maximum and "
                        "minimum message time in clocks.",
                        "--mce-nodes=64 [--mode=...] [--sizes=LIST] "
                        "[--dist=LIST] [--runs=N] [--x0=X] "
                        "[--format=table|csv|json]",
                        argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    mode_mask = mode == 0 ? 15 : 1 << (mode - 1);
    iwapp_check_sizes(PROG, sizes, nsizes);
    for (int k = 0; k < ndist; k++)
        if (dist[k] >= w || dist[k] > 7)
            iwapp_die(PROG, "--dist: distances 1..7, below the array width");
    if (lx0 >= w)
        iwapp_die(PROG, "--x0: a column of the array");
    runs = lruns > 1000000 ? 1000000 : (int)lruns;
    x0 = (int)lx0;
    iwarp_coords(&x, &y);
    if (y != 0)
        return 0;
    for (int k = 0; k < ndist; k++)
        configure(x, x0, (int)dist[k], w);
    iwarp_align(1000); /* every cell has configured its PCTs */

    for (int k = 0; k < ndist; k++) {
        int d = (int)dist[k], is_a = x == x0, is_b = x == (x0 + d) % w;
        int a = 2 * (d - 1), b = a + 1;
        if (!is_a && !is_b)
            continue;
        iwapp_check(PROG, iwarp_gate_bind(IW_W0, is_a ? a : b), "bind");
        iwapp_check(PROG, iwarp_gate_bind(IW_R0, is_a ? b : a), "bind");
        for (int m = 0; m < 4; m++) {
            int word = m >= 2, reps = m % 2 ? 8 : 1;
            if (!(mode_mask & (1 << m)))
                continue;
            for (int s = 0; s < (word ? 1 : nsizes); s++) {
                size_t n = word ? 1 : (size_t)sizes[s] / 4;
                unsigned long sum = 0, max = 0, min = ~0ul;
                for (int r = 0; r < runs; r++) {
                    unsigned long t0, t1, t;
                    if (is_a) {
                        iwarp_dither(r % 8);
                        t0 = iwarp_clock();
                        for (int e = 0; e < reps; e++)
                            exchange(1, word, n);
                        t1 = iwarp_clock();
                        /* sums in 1/(2 reps) clocks */
                        t = t1 - t0;
                        sum += t;
                        if (t > max)
                            max = t;
                        if (t < min)
                            min = t;
                    } else {
                        for (int e = 0; e < reps; e++)
                            exchange(0, word, n);
                    }
                }
                if (is_a) {
                    unsigned long q = 2ul * (unsigned long)reps;
                    long bytes = word ? 4 : sizes[s];
                    long pred = (36 * 1998 + 1000 * bytes + 9990L * d) / 1998;
                    char ptxt[32] = "";
                    if (!word)
                        snprintf(ptxt, sizeof(ptxt), " predicted=%ld", pred);
                    app_row(
                        "pct_pingpong",
                        APP_FIELDS(
                            APP_S("mode", modes[m]), APP_I("bytes", bytes),
                            APP_I("dist", d), APP_I("x0", x0),
                            APP_U("avg", sum / runs / q), APP_U("max", max / q),
                            APP_U("min", min / q),
                            APP_F("avg_exact", (double)sum / runs / (double)q),
                            APP_I("runs", runs),
                            APP_F("predicted", word ? NAN : (double)pred)),
                        "pct_pingpong: mode=%s bytes=%ld dist=%d x0=%d "
                        "avg=%lu max=%lu min=%lu avg_exact=%.3f "
                        "runs=%d%s\n",
                        modes[m], bytes, d, x0, sum / runs / q, max / q,
                        min / q, (double)sum / runs / (double)q, runs, ptxt);
                }
            }
        }
        iwapp_check(PROG, iwarp_gate_unbind(IW_W0), "unbind");
        iwapp_check(PROG, iwarp_gate_unbind(IW_R0), "unbind");
    }
    if (x == x0)
        app_finish();
    return 0;
}
