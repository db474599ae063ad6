/* Back-pressure and link sharing of PCT connections on the iWarp
 * (doc/design/iwarp-tcs.md, sections 3.3-3.5; Warfel 1996, sections
 * 3.1.3 and 3.1.5).  Cells on row 0, PCTs configured directly.
 *
 *   stall  (default) (0,0) writes --words single words through PCT 3 to
 *          (3,0), three hops away, and prints the time each write ends.
 *          Without --read-after the reader never reads: the writer ends
 *          exactly C = pct_words x 4 PCTs = 32 writes and the run ends in
 *          the deadlock report (exit status 3).  With --read-after=T the
 *          reader starts reading single words at clock T, which unblocks
 *          the writer; it prints when it has read them all.
 *   share  two connections share the link (1,0) -> (2,0): (0,0) -> (2,0)
 *          through PCT 2 of cell (1,0) (PCT group 0) and (1,0) -> (3,0)
 *          from PCT 5 (group 1); one block of --words words each, written
 *          at the same clock, each read by its own cell (a reader reading
 *          another connection first would hold its path full).
 *   groups four connections share (1,0) -> (2,0), three in the PCT group
 *          0 of cell (1,0) (PCTs 0, 1, 2: (6,0) -> (4,0), (7,0) -> (3,0),
 *          (0,0) -> (2,0)) and one in group 1 (PCT 5: (1,0) -> (5,0)); all
 *          go straight along X+ (no corner: no DQ congestion); --words a
 *          multiple of 3.
 *   dq     DQ congestion without shared links: (0,0) -> (2,0) straight
 *          through (1,0), and (1,1) -> (1,0) -> (0,0) -> (7,0), which
 *          turns in (1,0): two connections through a cell, one turning,
 *          is DQ congestion 2 (half bandwidth each, W s.6.4.2).
 * In share, groups and dq modes each reader prints the exact virtual time
 * (ps) at which its block read ended.
 *
 * usage: backpressure --mce-nodes=64 [--mode=stall|share|groups|dq]
 *        [--words=N] [--read-after=T] [--format=table|csv|json]
 *        (rows from several cells: in JSON one object each; stall mode
 *        without --read-after ends in the deadlock report, before the JSON
 *        objects are closed)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iwarp.h>

#include "iwapp.h"
#include "opts.h"

#define PROG  "backpressure"
#define START 1000 /* clock at which the writers start */

static void cfg(int pct, int in, int in_pct, int out, int out_pct, int end)
{
    iwapp_check(PROG, iwarp_pct_config(pct, in, in_pct, out, out_pct, end),
                "iwarp_pct_config");
}

static void stall(int x, long words, long read_after)
{
    if (x == 0) {
        cfg(3, IW_CPU, 0, IW_XP, 3, 3);
    } else if (x == 1 || x == 2) {
        cfg(3, IW_XM, 3, IW_XP, 3, -1);
    } else if (x == 3) {
        cfg(3, IW_XM, 3, IW_CPU, 0, 0);
    }
    iwarp_align(START);
    if (x == 0) {
        iwapp_check(PROG, iwarp_gate_bind(IW_W0, 3), "bind");
        for (long k = 1; k <= words; k++) {
            iwapp_check(PROG, iwarp_gate_write(IW_W0, (uint32_t)k), "write");
            unsigned long long t = iwarp_vtime();
            app_row("backpressure_write",
                    APP_FIELDS(APP_I("word", k), APP_U("written_at", t)),
                    "backpressure: word %ld written at %llu\n", k, t);
            fflush(stdout);
        }
    } else if (x == 3 && read_after >= 0) {
        uint32_t v = 0;
        long bad = 0;
        iwapp_check(PROG, iwarp_gate_bind(IW_R0, 3), "bind");
        iwarp_align((unsigned long long)read_after);
        for (long k = 1; k <= words; k++) {
            iwapp_check(PROG, iwarp_gate_read(IW_R0, &v), "read");
            bad += v != (uint32_t)k;
        }
        unsigned long long t = iwarp_vtime();
        app_row("backpressure_read",
                APP_FIELDS(APP_I("words", words), APP_I("wrong", bad),
                           APP_U("read_by", t)),
                "backpressure: read %ld words (%ld wrong) by %llu\n", words,
                bad, t);
    }
}

/* A connection of the share/groups modes: along X+ from cell src to cell
 * dst of row 0, PCT pct in every cell of its path, gates W0 and R0. */
typedef struct conn {
    int src, dst, pct;
} conn_t;

static const conn_t share_conns[] = {{0, 2, 2}, {1, 3, 5}};
static const conn_t group_conns[] = {
    {6, 4, 0}, {7, 3, 1}, {0, 2, 2}, {1, 5, 5}};

static void report(int i, int src, int pct, int dst, long words)
{
    unsigned long long t = (unsigned long long)mce_now();
    app_row("backpressure",
            APP_FIELDS(APP_I("connection", i), APP_I("src_x", src % 8),
                       APP_I("src_y", src / 8), APP_I("pct", pct),
                       APP_I("dst_x", dst), APP_I("dst_y", 0),
                       APP_I("words", words), APP_U("read_by_ps", t)),
            "backpressure: connection %d (%d,%d) PCT %d -> (%d,0): %ld words "
            "read by %llu ps\n",
            i, src % 8, src / 8, pct, dst, words, t);
}

static void share(int x, int w, long words, const conn_t *c, int n)
{
    uint32_t *buf = calloc((size_t)words, sizeof(*buf));
    if (buf == NULL)
        iwapp_die(PROG, "out of memory");
    for (int i = 0; i < n; i++) {
        int d = (c[i].dst - c[i].src + w) % w, at = (x - c[i].src + w) % w;
        int p = c[i].pct;
        if (at > d)
            continue;
        if (at == 0) {
            cfg(p, IW_CPU, 0, IW_XP, p, c[i].dst);
            iwapp_check(PROG, iwarp_gate_bind(IW_W0, p), "bind");
        } else if (at == d) {
            cfg(p, IW_XM, p, IW_CPU, 0, c[i].src);
            iwapp_check(PROG, iwarp_gate_bind(IW_R0, p), "bind");
        } else {
            cfg(p, IW_XM, p, IW_XP, p, -1);
        }
    }
    iwarp_align(START);
    for (int i = 0; i < n; i++)
        if (x == c[i].src)
            iwapp_check(PROG, iwarp_gate_write_block(IW_W0, buf, (size_t)words),
                        "write");
    for (int i = 0; i < n; i++)
        if (x == c[i].dst) {
            iwapp_check(PROG, iwarp_gate_read_block(IW_R0, buf, (size_t)words),
                        "read");
            report(i, c[i].src, c[i].pct, c[i].dst, words);
        }
    free(buf);
}

static void dq(int cell, long words)
{
    uint32_t *buf = calloc((size_t)words, sizeof(*buf));
    if (buf == NULL)
        iwapp_die(PROG, "out of memory");
    switch (cell) {
    case 0: /* A's source, B passes */
        cfg(2, IW_CPU, 0, IW_XP, 2, 2);
        cfg(3, IW_XP, 3, IW_XM, 3, -1);
        iwapp_check(PROG, iwarp_gate_bind(IW_W0, 2), "bind");
        break;
    case 1: /* both pass, B turns from Y to X */
        cfg(2, IW_XM, 2, IW_XP, 2, -1);
        cfg(3, IW_YP, 3, IW_XM, 3, -1);
        break;
    case 2: /* A's reader */
        cfg(2, IW_XM, 2, IW_CPU, 0, 0);
        iwapp_check(PROG, iwarp_gate_bind(IW_R0, 2), "bind");
        break;
    case 7: /* B's reader */
        cfg(3, IW_XP, 3, IW_CPU, 0, 9);
        iwapp_check(PROG, iwarp_gate_bind(IW_R0, 3), "bind");
        break;
    case 9: /* B's source, (1,1) */
        cfg(3, IW_CPU, 0, IW_YM, 3, 7);
        iwapp_check(PROG, iwarp_gate_bind(IW_W0, 3), "bind");
        break;
    default:
        free(buf);
        return;
    }
    iwarp_align(START);
    if (cell == 0 || cell == 9)
        iwapp_check(PROG, iwarp_gate_write_block(IW_W0, buf, (size_t)words),
                    "write");
    else if (cell == 2 || cell == 7) {
        iwapp_check(PROG, iwarp_gate_read_block(IW_R0, buf, (size_t)words),
                    "read");
        report(cell == 2 ? 0 : 1, cell == 2 ? 0 : 9, cell == 2 ? 2 : 3, cell,
               words);
    }
    free(buf);
}

int main(int argc, char **argv)
{
    long words = 64, read_after = -1;
    int mode = 0, x, y;
    const app_opt_t opts[] = {
        {"mode", APPO_CHOICE, &mode, NULL, 0, 0, "stall|share|groups|dq", NULL,
         "back-pressure of one connection (default), two or four "
         "connections sharing a link, or DQ congestion"},
        {"words", APPO_LONG, &words, NULL, 0, 1, NULL, "N",
         "words per connection, 1..1000000 (a multiple of 3 for groups; "
         "default 64)"},
        {"read-after", APPO_LONG, &read_after, NULL, 0, 0, NULL, "T",
         "stall: the reader starts at clock T (default: never, the run "
         "ends in the deadlock report)"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc = app_parse(PROG,
                        "Back-pressure and link sharing of PCT connections on "
                        "the iWarp (Warfel 1996, 3.1.3 and 3.1.5).",
                        "--mce-nodes=64 [--mode=stall|share|groups|dq] "
                        "[--words=N] [--read-after=T] "
                        "[--format=table|csv|json]",
                        argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    app_several_nodes(); /* the writer and the readers print */
    if (words < 1 || words > 1000000 || (mode == 2 && words % 3 != 0))
        iwapp_die(PROG, "--words: a count from 1 to 1000000 (a multiple of 3 "
                        "in groups mode)");
    if (iwarp_width() != 8)
        iwapp_die(PROG, "needs the 8-cell-wide array");
    iwarp_coords(&x, &y);
    if (mode == 3)
        dq(iwarp_cell(), words);
    else if (y == 0 && mode == 0 && x <= 3)
        stall(x, words, read_after);
    else if (y == 0 && mode == 1)
        share(x, 8, words, share_conns, 2);
    else if (y == 0 && mode == 2)
        share(x, 8, words, group_conns, 4);
    app_finish_any();
    return 0;
}
