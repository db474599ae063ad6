/* Deposit message-passing ping-pong on the iWarp (Warfel 1996, section
 * 3.2.3, Figures 3.10 and 3.11; doc/design/iwarp-tcs.md, section 4).
 * Cells A = (x0,0) and B = (x0+d,0) deposit into each other's buffer 0.
 *
 *   single   A reads the counter, deposits, waits for B's reply without
 *            re-arming, reads the counter, then re-arms; B waits, replies
 *            and re-arms after the reply: half the difference (Fig 3.10)
 *   sixteen  sixteen exchanges between two counter reads, each side
 *            looping wait(re-arm); reply: divided by 32 (Fig 3.11)
 *
 * Run r starts at virtual time phase r mod 8 (the counter ticks every 8
 * clocks).  Prints per (mode, size, distance) the average, maximum and
 * minimum (floored, as the figures print them), the exact average and
 * Warfel's prediction floor(O + bytes/1.998 + 5 d), O = 253 for 4 bytes
 * and 359 above (design 4.2).
 *
 *   exchange A and B deposit into each other at the same time, sixteen
 *            times between two counter reads (both read the counter),
 *            each looping send; wait(re-arm): divided by 16, the time of
 *            one stage in which a cell both sends and receives (Warfel
 *            3.2.3 item 4: such patterns "cannot hide the receive
 *            cost"); predicted floor(359 + 230 + bytes/1.998 + 5 d)
 *            (Msg_Send_Time + Msg_Recv_Time, W 6.2.1), 4 bytes: the
 *            ping's floor(253 + bytes/1.998 + 5 d), Figure 4.19's
 *            message_time of a handshake stage (design 4.3)
 *   spool    (a check of the spools of section 3.6, not a figure) A
 *            spools 256 words to B = (x0+1,0) over a PCT connection while
 *            computing 300 clocks (stretched by the spool's cycle
 *            stealing), B spools them in; prints the times.  Then A
 *            writes a burst of 8 single words to C = (x0,1) through a
 *            gate while its spool is still active, and 8 more after it
 *            is done; C reads them; prints both bursts' times (Warfel
 *            3.1.3: the spool steals cycles from every CPU client, gate
 *            writes included)
 *
 * usage: deposit_pingpong --mce-nodes=64
 *        [--mode=all|single|sixteen|spool|exchange]
 *        [--sizes=4,16,...] [--dist=1..7] [--runs=N] [--x0=X]
 *        [--format=table|csv|json]  (--mode=spool: rows from cells A and B,
 *        in JSON one object each)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iwarp.h>

#include "iwapp.h"
#include "opts.h"

#define PROG "deposit_pingpong"

#define MAXD 16

static const char *const modes[] = {"single", "sixteen", "exchange"};

static uint32_t out[4096], in[4096];

#define BURST 8 /* words: they fit in the source PCT (no wait for room) */

/* Spool check: A = (x0,0) spools 256 words to B = (x0+1,0) over PCT 0;
 * A's gate bursts go to C = (x0,1) over PCT 1. */
static int spool_check(int x, int y, int x0)
{
    unsigned long long t0, t1, t2, t3, t4, t5;
    int h, w = iwarp_width();
    if (y == 1) {
        uint32_t v;
        iwapp_check(PROG, iwarp_pct_config(1, IW_YM, 1, IW_CPU, 0, x0),
                    "config");
        iwapp_check(PROG, iwarp_gate_bind(IW_R0, 1), "bind");
        for (int i = 0; i < 2 * BURST; i++) {
            iwapp_check(PROG, iwarp_gate_read(IW_R0, &v), "gate_read");
            if (v != (uint32_t)(1000 + i))
                iwapp_die(PROG, "wrong burst word");
        }
        return 0;
    }
    if (x == x0) {
        iwapp_check(PROG, iwarp_pct_config(0, IW_CPU, 0, IW_XP, 0, x0 + 1),
                    "config");
        iwapp_check(PROG, iwarp_pct_config(1, IW_CPU, 0, IW_YP, 1, w + x0),
                    "config");
        iwapp_check(PROG, iwarp_gate_bind(IW_W0, 1), "bind");
    } else if (x == x0 + 1)
        iwapp_check(PROG, iwarp_pct_config(0, IW_XM, 0, IW_CPU, 0, x0),
                    "config");
    else
        return 0;
    for (int i = 0; i < 256; i++)
        out[i] = (uint32_t)(i * 7 + 1);
    iwarp_align(1000);
    t0 = iwarp_vtime();
    if (x == x0) {
        iwapp_check(PROG, h = iwarp_spool_out(0, out, 256), "spool_out");
        iwarp_compute(300);
        t1 = iwarp_vtime();
        for (int i = 0; i < BURST; i++)
            iwapp_check(PROG, iwarp_gate_write(IW_W0, (uint32_t)(1000 + i)),
                        "gate_write");
        t3 = iwarp_vtime();
        iwapp_check(PROG, iwarp_spool_wait(h), "spool_wait");
        t2 = iwarp_vtime();
        for (int i = BURST; i < 2 * BURST; i++)
            iwapp_check(PROG, iwarp_gate_write(IW_W0, (uint32_t)(1000 + i)),
                        "gate_write");
        t5 = iwarp_vtime();
        t4 = t2;
        app_row("deposit_spool",
                APP_FIELDS(APP_S("side", "out"), APP_S("what", "spool"),
                           APP_U("compute_end", t1 - t0),
                           APP_U("done", t2 - t0)),
                "deposit_pingpong: mode=spool out compute_end=%llu "
                "done=%llu\n",
                t1 - t0, t2 - t0);
        app_row("deposit_spool_burst",
                APP_FIELDS(APP_I("words", BURST), APP_U("during", t3 - t1),
                           APP_U("after", t5 - t4),
                           APP_U("spool_left", t2 > t3 ? t2 - t3 : 0ULL)),
                "deposit_pingpong: mode=spool burst words=%d during=%llu "
                "after=%llu spool_left=%llu\n",
                BURST, t3 - t1, t5 - t4, t2 > t3 ? t2 - t3 : 0ULL);
    } else {
        iwapp_check(PROG, h = iwarp_spool_in(0, in, 256), "spool_in");
        t1 = iwarp_vtime();
        iwapp_check(PROG, iwarp_spool_wait(h), "spool_wait");
        t2 = iwarp_vtime();
        for (int i = 0; i < 256; i++)
            if (in[i] != (uint32_t)(i * 7 + 1))
                iwapp_die(PROG, "wrong data spooled");
        app_row("deposit_spool",
                APP_FIELDS(APP_S("side", "in"), APP_S("what", "spool"),
                           APP_U("started", t1 - t0), APP_U("done", t2 - t0)),
                "deposit_pingpong: mode=spool in started=%llu done=%llu "
                "data=ok\n",
                t1 - t0, t2 - t0);
    }
    app_finish_any();
    return 0;
}

/* Exchange mode: both cells start each run at the same exact time (a
 * period long enough for 16 exchanges), read the counter, then send and
 * wait sixteen times; A prints the average per exchange. */
static void exchange(const long *sizes, int nsizes, int runs, int d, int x0,
                     int is_a, int peer, int h, unsigned *got,
                     unsigned long long base)
{
    for (int s = 0; s < nsizes; s++) {
        size_t bytes = (size_t)sizes[s];
        unsigned long long period = 16ull * (2000 + bytes);
        unsigned long sum = 0, max = 0, min = ~0ul;
        for (int r = 0; r < runs; r++) {
            unsigned long t0, t1, t;
            iwarp_align(base + (unsigned long long)r * period +
                        (unsigned)r % 8);
            t0 = iwarp_clock();
            for (int e = 0; e < 16; e++) {
                iwapp_check(PROG, iwarp_dep_send(peer, h, 0, out, bytes),
                            "send");
                iwapp_check(PROG, iwarp_dep_wait(h, ++*got, 1), "wait");
                if (in[bytes / 4 - 1] !=
                    (uint32_t)(peer * 65536 + (long)bytes / 4 - 1))
                    iwapp_die(PROG, "wrong data deposited");
            }
            t1 = iwarp_clock();
            t = t1 - t0;
            sum += t;
            if (t > max)
                max = t;
            if (t < min)
                min = t;
        }
        base += (unsigned long long)runs * period;
        if (is_a) {
            long o = bytes == 4 ? 253 : 359 + 230;
            long pred = (o * 1998 + 1000 * (long)bytes + 9990L * d) / 1998;
            app_row("deposit_pingpong",
                    APP_FIELDS(APP_S("mode", "exchange"), APP_U("bytes", bytes),
                               APP_I("dist", d), APP_I("x0", x0),
                               APP_U("avg", sum / runs / 16),
                               APP_U("max", max / 16), APP_U("min", min / 16),
                               APP_F("avg_exact", (double)sum / runs / 16.0),
                               APP_I("runs", runs), APP_I("predicted", pred)),
                    "deposit_pingpong: mode=exchange bytes=%zu dist=%d "
                    "x0=%d avg=%lu max=%lu min=%lu avg_exact=%.3f "
                    "runs=%d predicted=%ld\n",
                    bytes, d, x0, sum / runs / 16, max / 16, min / 16,
                    (double)sum / runs / 16.0, runs, pred);
        }
    }
}

int main(int argc, char **argv)
{
    long sizes[32] = {4, 16, 64, 256, 1024, 4096, 16384}, dist[MAXD];
    int nsizes = 7, ndist = 7, runs = 8, x0 = 0, mode_mask = 3, h;
    int x, y, w = iwarp_width();
    unsigned got = 0;
    for (int i = 0; i < 7; i++)
        dist[i] = i + 1;
    long lruns = 8, lx0 = 0;
    int mode = 0;
    const app_opt_t opts[] = {
        {"mode", APPO_CHOICE, &mode, NULL, 0, 0,
         "all|single|sixteen|spool|exchange", NULL,
         "Figures 3.10 and 3.11, the spool check of 3.6, or simultaneous "
         "sending and receiving (default all: single and sixteen)"},
        {"sizes", APPO_LIST, sizes, &nsizes, 32, 4, NULL, "A,B,...",
         "message sizes in bytes, multiples of 4 up to 16384 (default "
         "4,16,...,16384)"},
        {"dist", APPO_LIST, dist, &ndist, MAXD, 1, NULL, "A,B|A..B",
         "distances in cells, 1 .. width-1-x0 (default 1..7)"},
        {"runs", APPO_LONG, &lruns, NULL, 0, 1, NULL, "N",
         "runs per entry, phases 0..7 of the counter (default 8)"},
        {"x0", APPO_LONG, &lx0, NULL, 0, 0, NULL, "X",
         "column of cell A (default 0)"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc = app_parse(PROG,
                        "Deposit message-passing ping-pong on the iWarp "
                        "(Warfel 1996, 3.2.3, Figures 3.10 and 3.11): "
                        "average, maximum and minimum message time in clocks.",
                        "--mce-nodes=64 "
                        "[--mode=all|single|sixteen|spool|exchange] "
                        "[--sizes=LIST] [--dist=LIST] [--runs=N] [--x0=X] "
                        "[--format=table|csv|json]",
                        argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    mode_mask = mode == 0 ? 3 : mode == 4 ? 8 : 1 << (mode - 1);
    iwapp_check_sizes(PROG, sizes, nsizes);
    if (lx0 >= w)
        iwapp_die(PROG, "--x0: a column of the array");
    runs = lruns > 1000000 ? 1000000 : (int)lruns;
    x0 = (int)lx0;
    for (int k = 0; k < ndist; k++)
        if (dist[k] < 1 || x0 + dist[k] >= w)
            iwapp_die(PROG,
                      "--dist: 1 .. width-1-x0 (deposits route without wrap "
                      "links)");
    iwarp_coords(&x, &y);
    if (mode_mask == 4 && (y == 0 || (y == 1 && x == x0))) {
        app_several_nodes(); /* cells A and B print */
        return spool_check(x, y, x0);
    }
    if (y != 0)
        return 0;
    iwapp_check(PROG, iwarp_dep_init(), "iwarp_dep_init");
    iwapp_check(PROG, h = iwarp_dep_buffer(in, sizeof(in)), "iwarp_dep_buffer");
    for (int i = 0; i < 4096; i++)
        out[i] = (uint32_t)(x * 65536 + i);
    iwarp_align(1000);

    for (int k = 0; k < ndist; k++) {
        int d = (int)dist[k], is_a = x == x0, is_b = x == x0 + d;
        int peer = is_a ? x0 + d : x0;
        if (!is_a && !is_b)
            continue;
        if (mode_mask & 8) {
            unsigned long long per = 0;
            for (int s = 0; s < nsizes; s++)
                per += 16ull * (2000 + (unsigned long long)sizes[s]);
            /* the same start on both cells: distances before this one */
            exchange(sizes, nsizes, runs, d, x0, is_a, peer, h, &got,
                     2000 + (unsigned long long)k * (unsigned long long)runs *
                                per);
            continue;
        }
        for (int m = 0; m < 2; m++) {
            int reps = m ? 16 : 1;
            if (!(mode_mask & (1 << m)))
                continue;
            for (int s = 0; s < nsizes; s++) {
                size_t bytes = (size_t)sizes[s];
                unsigned long sum = 0, max = 0, min = ~0ul;
                for (int r = 0; r < runs; r++) {
                    if (is_a) {
                        unsigned long t0, t1, t;
                        iwarp_dither(r % 8);
                        t0 = iwarp_clock();
                        for (int e = 0; e < reps; e++) {
                            iwapp_check(PROG,
                                        iwarp_dep_send(peer, h, 0, out, bytes),
                                        "send");
                            iwapp_check(PROG,
                                        iwarp_dep_wait(h, ++got, reps > 1),
                                        "wait");
                        }
                        t1 = iwarp_clock();
                        if (reps == 1)
                            iwapp_check(PROG, iwarp_dep_rearm(h), "rearm");
                        t = t1 - t0;
                        sum += t;
                        if (t > max)
                            max = t;
                        if (t < min)
                            min = t;
                    } else {
                        for (int e = 0; e < reps; e++) {
                            iwapp_check(PROG,
                                        iwarp_dep_wait(h, ++got, reps > 1),
                                        "wait");
                            if (in[bytes / 4 - 1] !=
                                (uint32_t)(peer * 65536 + (long)bytes / 4 - 1))
                                iwapp_die(PROG, "wrong data deposited");
                            iwapp_check(PROG,
                                        iwarp_dep_send(peer, h, 0, out, bytes),
                                        "send");
                        }
                        if (reps == 1)
                            iwapp_check(PROG, iwarp_dep_rearm(h), "rearm");
                    }
                }
                if (is_a) {
                    unsigned long q = 2ul * (unsigned long)reps;
                    long o = bytes == 4 ? 253 : 359;
                    long pred =
                        (o * 1998 + 1000 * (long)bytes + 9990L * d) / 1998;
                    app_row(
                        "deposit_pingpong",
                        APP_FIELDS(
                            APP_S("mode", modes[m]), APP_U("bytes", bytes),
                            APP_I("dist", d), APP_I("x0", x0),
                            APP_U("avg", sum / runs / q), APP_U("max", max / q),
                            APP_U("min", min / q),
                            APP_F("avg_exact", (double)sum / runs / (double)q),
                            APP_I("runs", runs), APP_I("predicted", pred)),
                        "deposit_pingpong: mode=%s bytes=%zu dist=%d "
                        "x0=%d avg=%lu max=%lu min=%lu avg_exact=%.3f "
                        "runs=%d predicted=%ld\n",
                        modes[m], bytes, d, x0, sum / runs / q, max / q,
                        min / q, (double)sum / runs / (double)q, runs, pred);
                }
            }
        }
    }
    if (x == x0)
        app_finish();
    return 0;
}
