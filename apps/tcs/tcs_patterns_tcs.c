/* The communication patterns of Warfel 1996, chapter 6, with TCS
 * connections (W 6.2.2, 6.3.2, 6.4.2; doc/design/iwarp-tcs.md, sections 8.5 and
 * 8.9): the TCS half of apps/tcs/tcs_patterns (a TCS program: include/
 * tcs.h, so a program of its own; tcs_patterns --impl=dep is the deposit
 * half).  Run on the member rectangle W x H at the corner of the 8 x 8
 * array (W and H 2, 4 or 8: W 6.4.1 names 2x2, 2x4, 4x4, 4x8 and 8x8
 * without saying which side is the row, so both orientations), each
 * rectangle a task of its own (1D barrier ring: W measured his
 * reconfiguration times on 1D rings).  tcs_declare reads --array from
 * the program's arguments (tcs_args) and declares the tasks of those
 * rectangles only.
 *
 *   sg   scatter/gather: the root (rank 0, cell (0,0)) writes a block to
 *        every other member over its own connection, then every member
 *        writes back the words it received xor its rank and the root
 *        reads them in rank order.  The root's connections are split into
 *        netgroups of k, k the PCTs the root has free (tcs_free_pcts):
 *        phases = 2 ceil((N-1)/k), each entered with tcs_switch.
 *   rb   reduction/broadcast (W 6.3.2): log2 N reduction stages (Z-order
 *        ids, stage k pairs i and i + 2^k: the routes of a stage are
 *        disjoint, W's "no link congestion"), the receiver adds the
 *        incoming vector to its own; then log2 N broadcast stages of the
 *        sum; a cell only sends or only receives in a stage (W 6.4.2).
 *        W's Number_of_phases (not listed) read as two netgroups: all
 *        reduction connections, all broadcast connections, each entered
 *        with the full reconfiguration of W 5.2 (tcs_switch: W's
 *        Reconfiguration_time is chapter 5's measured one; the fast
 *        switch is 6.4.2's), 2 a run; no barrier besides the switches'
 *        (W's formula has none).  Why two: share/machines/iwarp.conf.
 *   a2a  all-to-all as W 6.4.2 wrote it (--a2a-phases=aapc, the default):
 *        the link-optimal AAPC phases (W's "dragon router" phases of
 *        Hinrichs et al. 1994; aapc_1d below): 3, 8, 16, 32, 64 phases
 *        for 2x2, 4x2 and 2x4, 4x4 and 8x2 and 2x8, 8x4 and 4x8, 8x8,
 *        each using every link of the rectangle at most
 *        once; a task on the whole array (its 2D barrier: W's 432 is the
 *        global barrier), per phase one barrier, a fast switch, the spool
 *        set-up, a background spooled receive and a foreground block
 *        write.  --a2a-phases=shifts: the N-1 torus shifts of the
 *        rectangle on its own 1D ring, two barriers a phase (a 1D ring
 *        releases its cells a hop apart), all but 8x8 (at 8 x 8 the
 *        shifts need more PCTs than the 2D rings leave).  The tasks are
 *        TCS_THROTTLE (the linker's throttles apply); the prediction comes
 *        from the linker's phase report (mce-predict tcs-a2a
 *        --phases=FILE), so the line has no predicted column.
 *
 * Costs charged by the program: app.tcs_sg_constant on the root, or
 * app.tcs_rb_constant on every member and app.tcs_rb_iteration per
 * reduction stage a member takes part in (log2 N on the critical path, as
 * W's Log2(N) x Per_iteration_overhead; the combining adds are not
 * charged: W's formula has no term for them), or app.tcs_a2a_constant
 * and app.tcs_a2a_other per phase; everything else is the TCS run time
 * (tcs_switch) and the network model (gate block writes and reads).
 *
 * A run starts at a common virtual time on every member and ends at the
 * last member's end (gathered on cell 0 through the SRU).  Printed per
 * (array, size): the average over the runs, the predicted time with the
 * emulator's constants (the reconfiguration time measured here at the
 * start of the array: an aligned tcs_switch, as tcs_primitives; the
 * linker's mean connection latency 36 + mean H, 36 = block_send +
 * block_recv + 2 gate_op + gate_in + gate_out; the link rate), their
 * ratio, and the prediction with W's constants (2x2, 4x4, 8x8 only).
 *
 * usage: tcs_patterns_tcs --mce-nodes=64 --pattern=sg|rb|a2a --impl=tcs
 *        [--array=WxH,...] [--sizes=16,...,32768] [--runs=R]
 *        [--phase-conns=max|1] [--a2a-phases=aapc|shifts] [--blocks]
 *        [--format=table|csv|json]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tcs.h>

#include "../iwarp/iwapp.h"
#include "opts.h"
#include "patterns.h"

#define PROG    "tcs_patterns"
#define NCFG    9 /* the shapes --array accepts (cfgs) */
#define NDFLT   5 /* the default list: cfgs[0 .. NDFLT - 1] */
#define MAXC    64
#define MAXG    64 /* sg netgroups per direction */
#define MAXSIZE 32768
#define GAP     1500ull /* clocks between two gathered SRU words */

enum { SG, RB, A2A };
enum { AAPC, SHIFTS }; /* --a2a-phases */
static const char *const patterns[] = {"sg", "rb", "a2a"};
/* Every rectangle W x H, W and H 2, 4 or 8: the default five first (the
 * order of the declaration: a run's tasks are declared in this order,
 * whatever the order of --array), then the other orientations. */
static const int cfgs[NCFG][2] = {{2, 2}, {4, 2}, {4, 4}, {8, 4}, {8, 8},
                                  {2, 4}, {4, 8}, {2, 8}, {8, 2}};

/* ---- the declaration (shared by the cells: written before main) -------- */

/* sg in two variants: v = 0, k connections per netgroup (the root's free
 * PCTs); v = 1, one connection per netgroup (every transfer a phase) */
static tcs_task_t t_whole, t_sg[2][NCFG], t_rb[NCFG], t_a2a[NCFG];
/* The declaration's netgroup tables, on the heap like the schedules
 * below (read only after the declaration; 14 KB that every node switch
 * would otherwise copy twice): a2a, shifts: sh[c][s - 1] = the torus
 * shift s (dx, dy) = (s mod W, s / W); aapc: ap[c][p] = phase p of the
 * AAPC schedule (aapc); sg: sc[v][c][g] and ga[v][c][g], the scatter's
 * and the gather's netgroup g. */
typedef struct ng_tables {
    tcs_ng_t sh[NCFG][MAXG], ap[NCFG][MAXG];
    tcs_ng_t sc[2][NCFG][MAXG], ga[2][NCFG][MAXG];
} ng_tables_t;
static ng_tables_t *ngt;
static tcs_task_t t_aapc[NCFG];
static int ap_phases[NCFG];
/* aapc[c]->to[p][m]: the member m sends to in phase p (m: itself, no
 * transfer); from: the member it receives from.  On the heap, built once
 * by the declaration and only read after: in the data segment these 72 KB
 * would be copied for every cell (privatised globals), and a segment over
 * 64 KB is switched by remapping it at every context switch. */
typedef struct aapc_sched {
    signed char to[MAXG][MAXC], from[MAXG][MAXC];
} aapc_sched_t;
static aapc_sched_t *aapc[NCFG];
static tcs_ng_t ng_red[NCFG], ng_bc[NCFG];
static int sg_k[2][NCFG], sg_groups[2][NCFG];
static int declared[NCFG]; /* the rectangles tcs_declare declared */

/* ---- options and per-cell state (privatised per cell) -------------------- */

static int pattern = -1, sgv, a2av = AAPC, runs = 1, ncl = NDFLT,
           cl[NCFG] = {0, 1, 2, 3, 4}, blocks;
static long sizes[32] = {16, 64, 256, 1024, 4096, 16384, 32768};
static int nsizes = 7;
static uint32_t *rbuf, *sbuf, *acc, *tmp;
/* --blocks (sg): a member's spool write of its gathered block (absolute
 * clocks, the time tcs_spool_out injected it); on the root, per gather
 * phase, its clock before and after the read of the phase's first block
 * (on the heap, with --blocks only: the globals are copied at every node
 * switch) */
static unsigned long long blk_ts, *blk_c0, *blk_ret;

typedef struct params {
    unsigned long long t0;
    int cfg;
} params_t;

static void check(int rc, const char *what)
{
    iwapp_check(PROG, rc, what);
}

static _Noreturn void fail_cell(const char *what)
{
    int x, y;
    iwarp_coords(&x, &y);
    fprintf(stderr, "%s: cell (%d,%d): %s\n", PROG, x, y, what);
    exit(1);
}

/* ---- rectangles, Z order ---------------------------------------------- */

static int lg2(int v)
{
    int l = 0;
    while ((1 << l) < v)
        l++;
    return l;
}

static int z_id(int rank, int w, int h)
{
    for (int id = 0; id < w * h; id++)
        if (pat_z_rank(id, w, h) == rank)
            return id;
    return -1;
}

/* --array=@p s into @p list (cfgs indices, in the order given) and
 * *@p n: NULL, or what is wrong.  tcs_declare and main parse the same
 * text (the program's arguments), so they agree on the rectangles. */
static const char *parse_array(const char *s, int list[NCFG], int *n)
{
    *n = 0;
    while (*s) {
        char *e;
        int w = (int)strtol(s, &e, 10), h, c = -1;
        if (e == s || *e != 'x')
            return "a list such as 2x2,2x4,8x8";
        s = e + 1;
        h = (int)strtol(s, &e, 10);
        if (e == s)
            return "a list such as 2x2,2x4,8x8";
        for (int k = 0; k < NCFG; k++)
            if (cfgs[k][0] == w && cfgs[k][1] == h)
                c = k;
        if (c < 0)
            return "each rectangle W x H with W and H 2, 4 or 8 (2x2 .. "
                   "8x8)";
        for (int k = 0; k < *n; k++)
            if (list[k] == c)
                return "each rectangle at most once";
        list[(*n)++] = c;
        if (*e == ',')
            e++;
        else if (*e)
            return "a list such as 2x2,2x4,8x8";
        s = e;
    }
    return *n > 0 ? NULL : "a list such as 2x2,2x4,8x8";
}

/* ---- the AAPC schedule (W 6.4.2) ------------------------------------- */

/* W's phases came from the "dragon router" AAPC code of Hinrichs et al.
 * 1994: link-optimal phases on the torus, every message on a shortest
 * route, every directed link used at most once per phase.  We build them
 * as that paper's 2D schedule is built, from one dimension's: phase (p, q)
 * sends (x, y) to (X_p(x), Y_q(y)), x first; in row y only row y's cells
 * use the x links (X_p's routes, disjoint), and column c receives exactly
 * one cell per row (X_p is a permutation), which then follows Y_q's
 * disjoint routes.  Over all (p, q) each cell meets every cell once.
 *
 * One dimension of @p n cells (ring: it wraps, the array's width or
 * height): phases dst[p][x], each a permutation whose shortest routes use
 * every directed link at most once.  Returns the phase count, or -1. */
static int aapc_1d(int n, int ring, int dst[8][8])
{
    static const int line4[4][4] = {
        {3, 1, 2, 0}, {0, 2, 1, 3}, {2, 0, 3, 1}, {1, 3, 0, 2}};
    /* ring of 8, offsets by x mod 4 of the rotated phase: +3 -3 -1 +1 */
    static const int rot[4] = {3, -3, -1, 1};
    if (n == 2 && !ring) { /* exchange, then stay */
        dst[0][0] = 1, dst[0][1] = 0, dst[1][0] = 0, dst[1][1] = 1;
        return 2;
    }
    if (n == 4 && !ring) { /* the middle link crossed once each way */
        for (int p = 0; p < 4; p++)
            for (int x = 0; x < 4; x++)
                dst[p][x] = line4[p][x];
        return 4;
    }
    if (n != 8 || !ring)
        return -1;
    /* 128 link-hops of 8 x 8 shortest messages over 16 directed links:
     * 8 phases, each using every link once in each direction */
    for (int x = 0; x < 8; x++) {
        dst[0][x] = (x + (x % 2 ? 6 : 2)) % 8; /* evens +2, odds -2 */
        dst[1][x] = (x + (x % 2 ? 2 : 6)) % 8; /* odds +2, evens -2 */
        dst[2][x] = x % 2 ? x : (x + 4) % 8;   /* evens 4 away (0, 4 +) */
        dst[3][x] = x % 2 ? (x + 4) % 8 : x;   /* odds 4 away */
        for (int r = 0; r < 4; r++)
            dst[4 + r][x] = (x + 8 + rot[(x - r + 4) % 4]) % 8;
    }
    return 8;
}

/* The schedule of rectangle @p c into aapc[c]; the number of phases
 * (all-stay phases left out), or -1 (no schedule, no memory, or a check
 * failed: every phase a permutation, every pair once). */
static int aapc_build(int c)
{
    int w = cfgs[c][0], h = cfgs[c][1], n = w * h, px, py, np = 0;
    int X[8][8], Y[8][8];
    unsigned char seen[MAXC][MAXC];
    aapc_sched_t *a;
    px = aapc_1d(w, w == 8, X);
    py = aapc_1d(h, h == 8, Y);
    if (px < 0 || py < 0 || px * py > MAXG)
        return -1;
    if (aapc[c] == NULL && (aapc[c] = calloc(1, sizeof(*aapc[c]))) == NULL)
        return -1;
    a = aapc[c];
    memset(seen, 0, sizeof(seen));
    for (int p = 0; p < px; p++)
        for (int q = 0; q < py; q++) {
            int moves = 0;
            for (int m = 0; m < n; m++)
                a->from[np][m] = -1;
            for (int m = 0; m < n; m++) {
                int t = Y[q][m / w] * w + X[p][m % w];
                if (a->from[np][t] >= 0 || seen[m][t])
                    return -1;
                a->to[np][m] = (signed char)t;
                a->from[np][t] = (signed char)m;
                seen[m][t] = 1;
                moves += t != m;
            }
            if (moves > 0)
                np++;
        }
    for (int m = 0; m < n; m++)
        for (int t = 0; t < n; t++)
            if (!seen[m][t])
                return -1;
    return np <= MAXG ? np : -1;
}

/* ---- SRU gather of a maximum on cell 0 (as tcs_primitives) -------------- */

static unsigned long long gather_max(int n, int idx, unsigned long long v,
                                     unsigned long long tg)
{
    unsigned long long mx = 0;
    if (v >= 0x7fffffffull)
        fail_cell("a time does not fit one SRU word");
    if (iwarp_vtime() >= tg + GAP * (unsigned long long)idx)
        fail_cell("missed its gather slot (a run overran its slot)");
    iwarp_align(tg + GAP * (unsigned long long)idx);
    check(iwarp_sru_broadcast((uint32_t)v + 1), "iwarp_sru_broadcast");
    if (iwarp_cell() != 0)
        return 0;
    for (int c = 0; c < n; c++) {
        uint32_t w;
        int jam;
        check(iwarp_sru_recv(&w, &jam), "iwarp_sru_recv");
        if (jam || w == 0)
            fail_cell("the SRU gather failed");
        if (w - 1 > mx)
            mx = w - 1;
    }
    return mx;
}

/* The same SRU gather of one value per task member (--blocks): cell 0
 * gets member idx's @p v in @p out[idx] (each word carries its sender's
 * index, so the order of arrival does not matter). */
static void gather_each(int n, int idx, unsigned long long v,
                        unsigned long long tg, unsigned long long *out)
{
    if (v >= (1ull << 24) || idx >= 64)
        fail_cell("a block time does not fit its SRU word");
    if (iwarp_vtime() >= tg + GAP * (unsigned long long)idx)
        fail_cell("missed its gather slot (a run overran its slot)");
    iwarp_align(tg + GAP * (unsigned long long)idx);
    check(iwarp_sru_broadcast(((uint32_t)idx << 24 | (uint32_t)v) + 1),
          "iwarp_sru_broadcast");
    if (iwarp_cell() != 0)
        return;
    for (int c = 0; c < n; c++) {
        uint32_t w;
        int jam;
        check(iwarp_sru_recv(&w, &jam), "iwarp_sru_recv");
        if (jam || w == 0 || (int)((w - 1) >> 24) >= n)
            fail_cell("the SRU gather failed");
        out[(w - 1) >> 24] = (w - 1) & 0xffffff;
    }
}

/* ---- the schedule (the same on every cell) ----------------------------- */

static int phases(int c)
{
    return pattern == SG ? 2 * sg_groups[sgv][c]
           : pattern == A2A
               ? (a2av == AAPC ? ap_phases[c] : cfgs[c][0] * cfgs[c][1] - 1)
               : 2;
}

/* The cells of the task of rectangle @p c: the AAPC all-to-all runs on the
 * whole array (its 2D barrier), the members at the corner. */
static int task_cells(int c)
{
    return pattern == A2A && a2av == AAPC ? 64 : cfgs[c][0] * cfgs[c][1];
}

/* The task rank (row-major on the 8 x 8 array) of AAPC member @p m. */
static int ap_rank(int c, int m)
{
    return (m / cfgs[c][0]) * 8 + m % cfgs[c][0];
}

/* A bound on one run (clocks): every phase a 64-cell reconfiguration
 * (2577) rounded up, every transfer 200 + s/2 with s/2 doubled. */
static unsigned long long run_slot(int c, long s)
{
    int n = cfgs[c][0] * cfgs[c][1];
    unsigned long long xfers =
        pattern == SG    ? 2ull * (unsigned long long)(n - 1)
        : pattern == A2A ? 4ull * (unsigned long long)(n - 1)
                         : 2ull * (unsigned long long)lg2(n);
    return 2 * (4000ull * (unsigned long long)phases(c) +
                xfers * (200ull + (unsigned long long)s) + 2000ull);
}

static unsigned long long gather_span(int c)
{
    return GAP * (unsigned long long)task_cells(c) + 2000ull;
}

/* Clocks from a configuration's t0 to the end of its last gather. */
static unsigned long long cfg_span(int c)
{
    unsigned long long t = 6000 + gather_span(c);
    for (int s = 0; s < nsizes; s++)
        t += (unsigned long long)runs *
             (run_slot(c, sizes[s]) + (blocks ? 2 : 1) * gather_span(c));
    return t;
}

/* ---- predictions (clocks, doubles: printed floored) -------------------- */

static long k_tcs(const char *key)
{
    return iwapp_param(PROG, key);
}

/* @p lat clocks per connection latency, @p rc per reconfiguration,
 * @p bw bytes per clock */
static double predict(int c, long s, double lat, double rc, double bw)
{
    int n = cfgs[c][0] * cfgs[c][1], l = lg2(n);
    if (pattern == SG) /* W 6.2.2 */
        return (double)k_tcs("app.tcs_sg_constant") +
               (n - 1) * 2.0 * (lat + (double)s / bw) + rc * phases(c);
    /* W 6.3.2 */
    return (double)k_tcs("app.tcs_rb_constant") +
           l * ((double)k_tcs("app.tcs_rb_iteration") +
                2.0 * (lat + (double)s / bw)) +
           rc * phases(c);
}

/* W 6.2.2's reading of its own error ("the added latency per phase ...
 * really isn't an average, but a worst case"): per phase one whole
 * latency, the worst of the phase's connections (36 + its largest H), and
 * per transfer only the root's own call (block_send + gate_op; a gate
 * block write returns once its last word is queued, so the next one
 * starts while the previous words are in flight, and a gather's blocks
 * wait in their paths until the root reads them).  @p fixed 36, @p rc the
 * reconfiguration, @p bw bytes per clock. */
static double predict_phase(int c, long s, double fixed, double rc, double bw)
{
    int n = cfgs[c][0] * cfgs[c][1];
    double call = (double)(k_tcs("iwarp.block_send") + k_tcs("iwarp.gate_op"));
    double v = (double)k_tcs("app.tcs_sg_constant") +
               (n - 1) * 2.0 * (call + (double)s / bw) + rc * phases(c);
    for (int g = 0; g < sg_groups[sgv][c]; g++) {
        tcs_ng_t two[2] = {ngt->sc[sgv][c][g], ngt->ga[sgv][c][g]};
        for (int i = 0; i < 2; i++) {
            unsigned long long sum, mx;
            int k;
            check(tcs_netgroup_paths(two[i], &k, &sum, &mx),
                  "tcs_netgroup_paths");
            v += fixed + (double)mx - call;
        }
    }
    return v;
}

/* The linker's mean H over the connections of the pattern's netgroups. */
static double mean_h(int c)
{
    unsigned long long sum = 0;
    int cnt = 0, ngs[2 * MAXG], m = 0;
    if (pattern == SG) {
        for (int g = 0; g < sg_groups[sgv][c]; g++) {
            ngs[m++] = ngt->sc[sgv][c][g];
            ngs[m++] = ngt->ga[sgv][c][g];
        }
    } else {
        ngs[m++] = ng_red[c];
        ngs[m++] = ng_bc[c];
    }
    for (int i = 0; i < m; i++) {
        unsigned long long s, mx;
        int k;
        check(tcs_netgroup_paths(ngs[i], &k, &s, &mx), "tcs_netgroup_paths");
        sum += s;
        cnt += k;
    }
    return cnt ? (double)sum / cnt : 0.0;
}

static void print_line(int c, long s, unsigned long long avg,
                       unsigned long long rc)
{
    char arr[24];
    snprintf(arr, sizeof(arr), "%dx%d", cfgs[c][0], cfgs[c][1]);
    if (pattern == A2A) { /* predicted from the linker's phase report */
        int n = cfgs[c][0] * cfgs[c][1];
        app_row("tcs_patterns_tcs_a2a",
                APP_FIELDS(APP_S("pattern", "a2a"), APP_S("impl", "tcs"),
                           APP_S("schedule", a2av == AAPC ? "aapc" : "shifts"),
                           APP_S("array", arr), APP_I("cells", n),
                           APP_I("bytes", s), APP_I("runs", runs),
                           APP_I("phases", phases(c)), APP_U("reconfig", rc),
                           APP_U("emulated", avg)),
                "%s: pattern=a2a impl=tcs schedule=%s array=%dx%d cells=%d "
                "bytes=%ld runs=%d phases=%d reconfig=%llu emulated=%llu "
                "data=ok\n",
                PROG, a2av == AAPC ? "aapc" : "shifts", cfgs[c][0], cfgs[c][1],
                n, s, runs, phases(c), rc, avg);
        return;
    }
    int n = cfgs[c][0] * cfgs[c][1];
    double fixed =
        (double)(k_tcs("iwarp.block_send") + k_tcs("iwarp.block_recv") +
                 2 * k_tcs("iwarp.gate_op") + k_tcs("iwarp.gate_in") +
                 k_tcs("iwarp.gate_out"));
    double mh = mean_h(c), lat = fixed + mh;
    double bw =
        (double)k_tcs("iwarp.word_bytes") / (double)k_tcs("iwarp.word_time");
    double p = predict(c, s, lat, (double)rc, bw);
    char key[64], pw[48] = "-";
    double pwv = NAN;
    if (n == 4 || n == 16 || n == 64) {
        long wl, wr;
        snprintf(key, sizeof(key), "app.tcs_w_latency_%d", n);
        wl = k_tcs(key);
        snprintf(key, sizeof(key), "app.tcs_w_reconfig_%s_%d",
                 patterns[pattern], n);
        wr = k_tcs(key);
        snprintf(pw, sizeof(pw), "%.0f",
                 predict(c, s, (double)wl, (double)wr,
                         (double)k_tcs("app.net_bw_milli") / 1000.0) -
                     0.5);
        pwv = strtod(pw, NULL);
    }
    int conns = pattern == SG ? sg_k[sgv][c] : n - 1;
    char ptxt[48], pph[48] = "-";
    snprintf(ptxt, sizeof(ptxt), "%.0f", p - 0.5); /* as printed */
    if (pattern == SG)
        snprintf(pph, sizeof(pph), "%.0f",
                 predict_phase(c, s, fixed, (double)rc, bw) - 0.5);
    app_row(
        "tcs_patterns_tcs",
        APP_FIELDS(
            APP_S("pattern", patterns[pattern]), APP_S("impl", "tcs"),
            APP_S("mapping", pattern == RB ? "remap" : ""), APP_S("array", arr),
            APP_I("cells", n), APP_I("bytes", s), APP_I("runs", runs),
            APP_I("phase_conns", conns), APP_I("phases", phases(c)),
            APP_U("reconfig", rc), APP_F("latency", lat), APP_F("mean_h", mh),
            APP_U("emulated", avg), APP_F("predicted", strtod(ptxt, NULL)),
            APP_F("ratio", (double)avg / p), APP_F("predicted_w", pwv),
            APP_F("predicted_phase", pattern == SG ? strtod(pph, NULL) : NAN)),
        "%s: pattern=%s impl=tcs%s array=%dx%d cells=%d bytes=%ld "
        "runs=%d phase_conns=%d phases=%d reconfig=%llu latency=%.3f "
        "mean_h=%.3f "
        "emulated=%llu predicted=%s ratio=%.3f predicted_w=%s "
        "predicted_phase=%s data=ok\n",
        PROG, patterns[pattern], pattern == RB ? " mapping=remap" : "",
        cfgs[c][0], cfgs[c][1], n, s, runs, conns, phases(c), rc, lat, mh, avg,
        ptxt, (double)avg / p, pw, pph);
}

/* --blocks: per gather phase, how late the first block the root reads
 * arrives against its uncontended connection (W 6.2.2's "latency
 * explosion"), from times the cells observe: member j's spool write at
 * @p ts[j] (clocks after @p T, gathered through the SRU), the root's
 * clock when its read starts (blk_c0, the gate already bound) and after
 * it (blk_ret), the route's H and links (the linker's,
 * tcs_connection_path and tcs_connection_links) and the machine's
 * constants.  Uncontended, the block's last word is readable at
 *   base-limited:   base + s/2 + H + gate_out, base = ts + gate_op +
 *                   gate_in (lib/net/iwarp.c), or later if the root reads
 *                   late:
 *   reader-limited: R + max(H, gate_op + gate_in) + (n - links x
 *                   pct_words) word_time + H + gate_out, when the block's
 *                   n words are more than its path holds (links x
 *                   pct_words beyond what the root has taken): the rest
 *                   enters once the read, posted at R, reaches the source
 *                   (max(H, lookahead) later, lib/net/iwarp.c);
 * the read returns at max(R + n gate_op, last readable + gate_op) +
 * block_recv (lib/machines/iwarp/gate.c).  So E = (blk_ret - block_recv -
 * gate_op) - base-limited, exact when the read waited for the data
 * (bound=exact), else an upper bound (bound=upper); E_wait = how much
 * later the reader-limited time is (the block waiting for a root not yet
 * reading, 0 if it is not later) and E_cong = E - E_wait, the part no
 * uncontended connection would show: link congestion. */
static void print_blocks(int c, long s, unsigned long long T,
                         const unsigned long long *ts)
{
    int w = cfgs[c][0], n = w * cfgs[c][1], k = sg_k[sgv][c];
    long long op = k_tcs("iwarp.gate_op"), wt = k_tcs("iwarp.word_time");
    long long gin = k_tcs("iwarp.gate_in"), gout = k_tcs("iwarp.gate_out");
    long long nw = s / 4, xfer = nw * wt;
    char arr[24], key[64], rw[32] = "-", rwc[32] = "-";
    long wl = 0;
    snprintf(arr, sizeof(arr), "%dx%d", w, cfgs[c][1]);
    if (n == 4 || n == 16 || n == 64) {
        snprintf(key, sizeof(key), "app.tcs_w_latency_%d", n);
        wl = k_tcs(key);
    }
    for (int g = 0; g < sg_groups[sgv][c]; g++) {
        int j = 1 + g * k, cell = j % w + (j / w) * iwarp_width(), links;
        unsigned long long h;
        long long base, ready, late, c0, spent, hold, rlim, wait, cong;
        const char *bound;
        check(tcs_connection_path(ngt->ga[sgv][c][g], cell, 0, &h),
              "tcs_connection_path");
        check(tcs_connection_links(ngt->ga[sgv][c][g], cell, 0, &links),
              "tcs_connection_links");
        base = (long long)ts[j] + op + gin;
        ready = (long long)(blk_ret[g] - T) - k_tcs("iwarp.block_recv") - op;
        c0 = (long long)(blk_c0[g] - T);
        late = ready - (base + xfer + (long long)h + gout);
        /* the reader-limited time, only when the path cannot hold it all */
        hold = (long long)links * k_tcs("iwarp.pct_words");
        wait = 0;
        if (nw > hold) {
            long long d = (long long)h > op + gin ? (long long)h : op + gin;
            rlim = c0 + d + (nw - hold) * wt + (long long)h + gout;
            if (rlim > base + xfer + (long long)h + gout)
                wait = rlim - (base + xfer + (long long)h + gout);
        }
        cong = late - wait;
        /* the CPU's own part of the read: n gate_op */
        spent = c0 + (nw - 1) * op;
        bound = ready > spent ? "exact" : "upper";
        if (wl > 0) {
            snprintf(rw, sizeof(rw), "%.3f", (double)(wl + late) / wl);
            snprintf(rwc, sizeof(rwc), "%.3f", (double)(wl + cong) / wl);
        }
        app_row(
            "tcs_patterns_tcs_blocks",
            APP_FIELDS(
                APP_S("pattern", "sg"), APP_S("array", arr), APP_I("cells", n),
                APP_I("bytes", s), APP_I("gather", g + 1),
                APP_I("gathers", sg_groups[sgv][c]), APP_I("first", j),
                APP_U("h", h), APP_I("links", links), APP_I("base", base),
                APP_I("read", c0), APP_I("readable", ready), APP_I("e", late),
                APP_I("e_wait", wait), APP_I("e_cong", cong),
                APP_S("bound", bound),
                APP_F("e_ratio_w", wl > 0 ? (double)(wl + late) / wl : NAN),
                APP_F("e_cong_ratio_w",
                      wl > 0 ? (double)(wl + cong) / wl : NAN),
                APP_F("e_frac", (double)late / (double)xfer)),
            "%s: blocks pattern=sg array=%s cells=%d bytes=%ld "
            "gather=%d gathers=%d first=%d h=%llu links=%d base=%lld "
            "read=%lld readable=%lld e=%lld e_wait=%lld e_cong=%lld bound=%s "
            "e_ratio_w=%s e_cong_ratio_w=%s e_frac=%.4f\n",
            PROG, arr, n, s, g + 1, sg_groups[sgv][c], j, h, links, base, c0,
            ready, late, wait, cong, bound, rw, rwc,
            (double)late / (double)xfer);
    }
}

/* ---- the patterns ----------------------------------------------------- */

static int port(tcs_ctx_t *ctx, const char *fmt, int i)
{
    char name[32];
    int h;
    snprintf(name, sizeof(name), fmt, i);
    h = tcs_port_handle(ctx, name);
    check(h, "tcs_port_handle");
    return h;
}

static int run_sg(tcs_ctx_t *ctx, int c, size_t bytes, int r)
{
    int mi = tcs_rank(ctx), n = tcs_size(ctx), k = sg_k[sgv][c];
    size_t nw = bytes / 4;
    if (mi == 0)
        iwarp_compute((unsigned long)k_tcs("app.tcs_sg_constant"));
    for (int g = 0; g < sg_groups[sgv][c]; g++) { /* scatter */
        int lo = 1 + g * k, hi = lo + k < n ? lo + k : n;
        check(tcs_switch(ctx, ngt->sc[sgv][c][g]), "tcs_switch");
        if (mi == 0) {
            for (int j = lo; j < hi; j++) {
                for (size_t w = 0; w < nw; w++)
                    sbuf[w] = pat_word(0, j, w, r);
                check(tcs_write(ctx, port(ctx, "t%d", j - lo), sbuf, nw),
                      "tcs_write");
            }
        } else if (mi >= lo && mi < hi) {
            check(tcs_read(ctx, port(ctx, "in", 0), rbuf, nw), "tcs_read");
        }
    }
    for (int g = 0; g < sg_groups[sgv][c]; g++) { /* gather */
        int lo = 1 + g * k, hi = lo + k < n ? lo + k : n;
        check(tcs_switch(ctx, ngt->ga[sgv][c][g]), "tcs_switch");
        if (mi == 0) {
            for (int j = lo; j < hi; j++) {
                int pt = port(ctx, "f%d", j - lo);
                if (blocks && j == lo) {
                    /* bind the gate first (the read would, at the same
                     * clock), so that blk_c0 is when the read starts */
                    check(tcs_read(ctx, pt, rbuf, 0), "tcs_read");
                    blk_c0[g] = iwarp_vtime();
                }
                check(tcs_read(ctx, pt, rbuf + (size_t)j * nw, nw), "tcs_read");
                if (blocks && j == lo)
                    blk_ret[g] = iwarp_vtime();
            }
        } else if (mi >= lo && mi < hi) {
            int hs;
            for (size_t w = 0; w < nw; w++)
                sbuf[w] = rbuf[w] ^ (uint32_t)mi;
            hs = tcs_spool_out(ctx, port(ctx, "out", 0), sbuf, nw);
            check(hs, "tcs_spool_out");
            if (blocks) /* the spool injected its block now */
                blk_ts = iwarp_vtime();
            check(tcs_spool_wait(ctx, hs), "tcs_spool_wait");
        }
    }
    if (mi != 0)
        return 1;
    for (int j = 1; j < n; j++)
        for (size_t w = 0; w < nw; w++)
            if (rbuf[(size_t)j * nw + w] !=
                (pat_word(0, j, w, r) ^ (uint32_t)j))
                return 0;
    return 1;
}

static int run_rb(tcs_ctx_t *ctx, int c, size_t bytes, int r)
{
    int w = cfgs[c][0], h = cfgs[c][1], n = w * h, l = lg2(n);
    int mi = z_id(tcs_rank(ctx), w, h), partner = 0, role;
    size_t nw = bytes / 4;
    iwarp_compute((unsigned long)k_tcs("app.tcs_rb_constant"));
    for (size_t i = 0; i < nw; i++)
        acc[i] = pat_word(mi, -1, i, r);
    /* phase 1 of 2 (W 6.3.2): every reduction connection, entered with
     * the full reconfiguration (the previous run ended in the broadcast
     * netgroup); the stages follow the data, no barrier between them */
    check(tcs_switch(ctx, ng_red[c]), "tcs_switch");
    for (int k = 0; k < l; k++) {
        role = pat_rb_role_z(mi, k, &partner);
        if (role == 0)
            break;
        iwarp_compute((unsigned long)k_tcs("app.tcs_rb_iteration"));
        if (role > 0) {
            check(tcs_read(ctx, port(ctx, "r%d", k), tmp, nw), "tcs_read");
            for (size_t i = 0; i < nw; i++)
                acc[i] += tmp[i];
        } else {
            check(tcs_write(ctx, port(ctx, "s", 0), acc, nw), "tcs_write");
            break;
        }
    }
    /* phase 2 of 2: every broadcast connection */
    check(tcs_switch(ctx, ng_bc[c]), "tcs_switch");
    for (int k = l - 1; k >= 0; k--) {
        role = pat_rb_role_z(mi, k, &partner);
        if (role > 0)
            check(tcs_write(ctx, port(ctx, "o%d", k), acc, nw), "tcs_write");
        else if (role < 0)
            check(tcs_read(ctx, port(ctx, "i", 0), acc, nw), "tcs_read");
    }
    for (size_t i = 0; i < nw; i++) {
        uint32_t sum = 0;
        for (int j = 0; j < n; j++)
            sum += pat_word(j, -1, i, r);
        if (acc[i] != sum)
            return 0;
    }
    return 1;
}

/* The rank at shift @p sh (torus shift within the rectangle) of rank
 * @p r, forward (dir 1) or backward (dir -1). */
static int shifted(int c, int r, int sh, int dir)
{
    int w = cfgs[c][0], h = cfgs[c][1];
    int dx = sh % w, dy = sh / w, x = r % w, y = r / w;
    x = (x + dir * dx + w) % w;
    y = (y + dir * dy + h) % h;
    return y * w + x;
}

/* W 6.4.2: per phase a barrier, a fast reconfiguration, a second barrier
 * (below), the spool set-up (app.tcs_a2a_other), a background spooled
 * receive and a foreground block write; the N-1 phases are the torus
 * shifts. */
static int run_a2a(tcs_ctx_t *ctx, int c, size_t bytes, int r)
{
    int mi = tcs_rank(ctx), n = tcs_size(ctx);
    size_t nw = bytes / 4;
    iwarp_compute((unsigned long)k_tcs("app.tcs_a2a_constant"));
    for (int sh = 1; sh < n; sh++) {
        int to = shifted(c, mi, sh, 1), from = shifted(c, mi, sh, -1), h;
        check(tcs_barrier(ctx), "tcs_barrier");
        check(tcs_switch_fast(ctx, ngt->sh[c][sh - 1]), "tcs_switch_fast");
        /* the ring releases its cells one hop apart after the last
         * arrival (up to N-1 hops): no write before every cell is
         * configured */
        check(tcs_barrier(ctx), "tcs_barrier");
        /* W 6.4.2's 459 is "Spool_setup + Other_overhead": tcs_spool_in
         * charges the spool set-up itself (iwarp.spool_setup) */
        iwarp_compute((unsigned long)(k_tcs("app.tcs_a2a_other") -
                                      k_tcs("iwarp.spool_setup")));
        h = tcs_spool_in(ctx, port(ctx, "i", 0), rbuf + (size_t)from * nw, nw);
        check(h, "tcs_spool_in");
        for (size_t w = 0; w < nw; w++)
            sbuf[w] = pat_word(mi, to, w, r);
        check(tcs_write(ctx, port(ctx, "o", 0), sbuf, nw), "tcs_write");
        check(tcs_spool_wait(ctx, h), "tcs_spool_wait");
    }
    for (int j = 0; j < n; j++)
        for (size_t w = 0; w < nw && j != mi; w++)
            if (rbuf[(size_t)j * nw + w] != pat_word(j, mi, w, r))
                return 0;
    return 1;
}

/* W 6.4.2 as W wrote it: per phase of the AAPC schedule one barrier (the
 * whole array's, 2D: W's 432 is the global barrier of Figure 4.22), the
 * fast reconfiguration (162), the spool set-up and other overhead (459),
 * a background spooled receive and a foreground block write.  Cells
 * outside the rectangle take part in the barriers only; a member whose
 * phase keeps it in place moves nothing. */
static int run_aapc(tcs_ctx_t *ctx, int c, size_t bytes, int r)
{
    int w = cfgs[c][0], h = cfgs[c][1], tr = tcs_rank(ctx);
    int x = tr % 8, y = tr / 8, mi = x < w && y < h ? y * w + x : -1;
    size_t nw = bytes / 4;
    iwarp_compute((unsigned long)k_tcs("app.tcs_a2a_constant"));
    for (int p = 0; p < ap_phases[c]; p++) {
        int to, from, hs;
        check(tcs_barrier(ctx), "tcs_barrier");
        check(tcs_switch_fast(ctx, ngt->ap[c][p]), "tcs_switch_fast");
        if (mi < 0 || (to = aapc[c]->to[p][mi]) == mi)
            continue;
        from = aapc[c]->from[p][mi];
        /* W's 459 is "Spool_setup + Other_overhead": tcs_spool_in charges
         * the spool set-up itself (iwarp.spool_setup) */
        iwarp_compute((unsigned long)(k_tcs("app.tcs_a2a_other") -
                                      k_tcs("iwarp.spool_setup")));
        hs = tcs_spool_in(ctx, port(ctx, "i", 0), rbuf + (size_t)from * nw, nw);
        check(hs, "tcs_spool_in");
        for (size_t k = 0; k < nw; k++)
            sbuf[k] = pat_word(mi, to, k, r);
        check(tcs_write(ctx, port(ctx, "o", 0), sbuf, nw), "tcs_write");
        check(tcs_spool_wait(ctx, hs), "tcs_spool_wait");
    }
    for (int j = 0; mi >= 0 && j < w * h; j++)
        for (size_t k = 0; k < nw && j != mi; k++)
            if (rbuf[(size_t)j * nw + k] != pat_word(j, mi, k, r))
                return 0;
    return 1;
}

/* The task of one rectangle: measure the reconfiguration, then the runs. */
static void rect_task(tcs_ctx_t *ctx, const void *p)
{
    const params_t *q = p;
    int c = q->cfg, n = tcs_size(ctx), mi = tcs_rank(ctx);
    unsigned long long T = q->t0, rc, tb = 0, ts[MAXC];
    iwarp_align(T);
    check(tcs_switch(ctx, pattern == SG ? ngt->ga[sgv][c][sg_groups[sgv][c] - 1]
                          : pattern == A2A
                              ? (a2av == AAPC ? ngt->ap[c][0] : ngt->sh[c][0])
                              : ng_bc[c]),
          "tcs_switch");
    rc = gather_max(n, mi, iwarp_vtime() - T, T + 6000);
    T += 6000 + gather_span(c);
    for (int s = 0; s < nsizes; s++) {
        unsigned long long sum = 0;
        for (int r = 0; r < runs; r++) {
            int ok;
            iwarp_align(T);
            ok = pattern == SG ? run_sg(ctx, c, (size_t)sizes[s], r)
                 : pattern == A2A
                     ? (a2av == AAPC ? run_aapc(ctx, c, (size_t)sizes[s], r)
                                     : run_a2a(ctx, c, (size_t)sizes[s], r))
                     : run_rb(ctx, c, (size_t)sizes[s], r);
            if (!ok)
                fail_cell("wrong data received");
            sum +=
                gather_max(n, mi, iwarp_vtime() - T, T + run_slot(c, sizes[s]));
            if (blocks) { /* the members' write times, in a slot of their own */
                gather_each(n, mi, mi ? blk_ts - T : 0,
                            T + run_slot(c, sizes[s]) + gather_span(c), ts);
                tb = T; /* the last run's (the runs' times are the same) */
                T += gather_span(c);
            }
            T += run_slot(c, sizes[s]) + gather_span(c);
        }
        if (iwarp_cell() == 0)
            print_line(c, sizes[s], sum / (unsigned long long)runs, rc);
        if (iwarp_cell() == 0 && blocks)
            print_blocks(c, sizes[s], tb, ts);
    }
}

static void whole(tcs_ctx_t *ctx, const void *p)
{
    unsigned long long T = 20000;
    int x, y;
    (void)p;
    iwarp_coords(&x, &y);
    for (int k = 0; k < ncl; k++) {
        int c = cl[k];
        params_t q = {T + 3000, c};
        iwarp_align(T);
        if (pattern == A2A && a2av == AAPC)
            check(tcs_start(ctx, t_aapc[c], &q), "tcs_start");
        else if (x < cfgs[c][0] && y < cfgs[c][1])
            check(tcs_start(ctx,
                            pattern == SG    ? t_sg[sgv][c]
                            : pattern == A2A ? t_a2a[c]
                                             : t_rb[c],
                            &q),
                  "tcs_start");
        T += 3000 + cfg_span(c) + 3000;
    }
}

/* ---- declaration and main ------------------------------------------------ */

/* The tasks of rectangle @p c: the two sg, rb, the shifts (not at 8 x 8:
 * too few PCTs) and the AAPC all-to-all, every pattern's (the sg
 * netgroups are sized by the root's free PCTs, which the AAPC tasks' 2D
 * barrier rings reduce). */
static void declare_tasks(tcs_decl_t *d, int c)
{
    int w = cfgs[c][0], h = cfgs[c][1], n = w * h;
    int fl = n == 64 ? TCS_RING1D : 0;
    char name[32];
    for (int v = 0; v < 2; v++) {
        snprintf(name, sizeof(name), "sg%s%dx%d", v ? "1_" : "", w, h);
        t_sg[v][c] = tcs_task(d, name, t_whole, 0, 0, w, h, rect_task,
                              sizeof(params_t), fl);
    }
    snprintf(name, sizeof(name), "rb%dx%d", w, h);
    t_rb[c] =
        tcs_task(d, name, t_whole, 0, 0, w, h, rect_task, sizeof(params_t), fl);
    if (n < 64) {
        snprintf(name, sizeof(name), "a2a%dx%d", w, h);
        t_a2a[c] = tcs_task(d, name, t_whole, 0, 0, w, h, rect_task,
                            sizeof(params_t), TCS_THROTTLE | fl);
    }
    snprintf(name, sizeof(name), "aapc%dx%d", w, h);
    t_aapc[c] = tcs_task(d, name, t_whole, 0, 0, 8, 8, rect_task,
                         sizeof(params_t), TCS_THROTTLE);
}

static void declare_sg(tcs_decl_t *d, int c, int v)
{
    int w = cfgs[c][0], h = cfgs[c][1], n = w * h, k;
    char name[32], pn[32];
    /* the root's PCTs bound the connections of one netgroup */
    k = v ? 1 : tcs_free_pcts(d, 0);
    if (k < 1)
        k = 1;
    if (k > n - 1)
        k = n - 1;
    sg_k[v][c] = k;
    sg_groups[v][c] = (n - 1 + k - 1) / k;
    for (int g = 0; g < sg_groups[v][c] && g < MAXG; g++) {
        tcs_net_t a, b;
        snprintf(name, sizeof(name), "sc%s%dx%d_%d", v ? "1_" : "", w, h, g);
        a = tcs_network(d, t_sg[v][c], name);
        snprintf(name, sizeof(name), "ga%s%dx%d_%d", v ? "1_" : "", w, h, g);
        b = tcs_network(d, t_sg[v][c], name);
        for (int j = 1 + g * k; j < 1 + (g + 1) * k && j < n; j++) {
            snprintf(pn, sizeof(pn), "t%d", j - 1 - g * k);
            tcs_connect(d, a, 0, pn, j, "in", 0, 0);
            snprintf(pn, sizeof(pn), "f%d", j - 1 - g * k);
            tcs_connect(d, b, j, "out", 0, pn, 0, 0);
        }
        snprintf(name, sizeof(name), "gsc%s%dx%d_%d", v ? "1_" : "", w, h, g);
        ngt->sc[v][c][g] = tcs_netgroup(d, t_sg[v][c], name, &a, 1);
        snprintf(name, sizeof(name), "gga%s%dx%d_%d", v ? "1_" : "", w, h, g);
        ngt->ga[v][c][g] = tcs_netgroup(d, t_sg[v][c], name, &b, 1);
    }
}

static void declare_rb(tcs_decl_t *d, int c)
{
    int w = cfgs[c][0], h = cfgs[c][1], n = w * h;
    char name[32], pn[32];
    tcs_net_t a, b;
    snprintf(name, sizeof(name), "red%dx%d", w, h);
    a = tcs_network(d, t_rb[c], name);
    snprintf(name, sizeof(name), "bc%dx%d", w, h);
    b = tcs_network(d, t_rb[c], name);
    for (int k = 0; (1 << k) < n; k++)
        for (int id = 0; id < n; id++) {
            int partner;
            if (pat_rb_role_z(id, k, &partner) >= 0)
                continue;
            snprintf(pn, sizeof(pn), "r%d", k);
            tcs_connect(d, a, pat_z_rank(id, w, h), "s",
                        pat_z_rank(partner, w, h), pn, 0, 0);
            snprintf(pn, sizeof(pn), "o%d", k);
            tcs_connect(d, b, pat_z_rank(partner, w, h), pn,
                        pat_z_rank(id, w, h), "i", 0, 0);
        }
    snprintf(name, sizeof(name), "gred%dx%d", w, h);
    ng_red[c] = tcs_netgroup(d, t_rb[c], name, &a, 1);
    snprintf(name, sizeof(name), "gbc%dx%d", w, h);
    ng_bc[c] = tcs_netgroup(d, t_rb[c], name, &b, 1);
}

static void declare_a2a(tcs_decl_t *d, int c)
{
    int w = cfgs[c][0], h = cfgs[c][1], n = w * h;
    char name[32];
    for (int sh = 1; sh < n; sh++) {
        tcs_net_t a;
        snprintf(name, sizeof(name), "sh%dx%d_%d", w, h, sh);
        a = tcs_network(d, t_a2a[c], name);
        for (int r = 0; r < n; r++)
            tcs_connect(d, a, r, "o", shifted(c, r, sh, 1), "i", 0, 0);
        snprintf(name, sizeof(name), "gsh%dx%d_%d", w, h, sh);
        ngt->sh[c][sh - 1] = tcs_netgroup(d, t_a2a[c], name, &a, 1);
    }
}

/* The AAPC all-to-all of rectangle @p c: a task on the whole array (the
 * rectangle's cells at its corner), one netgroup per phase. */
static void declare_aapc(tcs_decl_t *d, int c)
{
    int w = cfgs[c][0], h = cfgs[c][1], n = w * h;
    char name[32];
    ap_phases[c] = aapc_build(c);
    if (ap_phases[c] < 0) {
        fprintf(stderr, "%s: no AAPC schedule for %dx%d\n", PROG, w, h);
        exit(1);
    }
    for (int p = 0; p < ap_phases[c]; p++) {
        tcs_net_t a;
        snprintf(name, sizeof(name), "ap%dx%d_%d", w, h, p);
        a = tcs_network(d, t_aapc[c], name);
        for (int m = 0; m < n; m++)
            if (aapc[c]->to[p][m] != m)
                tcs_connect(d, a, ap_rank(c, m), "o",
                            ap_rank(c, aapc[c]->to[p][m]), "i", 0, 0);
        snprintf(name, sizeof(name), "gap%dx%d_%d", w, h, p);
        ngt->ap[c][p] = tcs_netgroup(d, t_aapc[c], name, &a, 1);
    }
}

/* Only the rectangles of --array (the program's arguments, parsed as
 * main parses them; the default five without it), in the order of cfgs:
 * every task first, so that the root's free PCTs the sg netgroups are
 * sized by count the AAPC tasks' 2D rings whatever the rectangles, then
 * their networks.  A bad --array declares none: main refuses it. */
void tcs_declare(tcs_decl_t *d)
{
    char *const *argv;
    const char *arr = NULL;
    int argc = tcs_args(d, &argv), list[NCFG], n = NDFLT;
    if (ngt == NULL && (ngt = calloc(1, sizeof(*ngt))) == NULL)
        iwapp_die(PROG, "out of memory for the netgroup tables");
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], "--array=", 8) == 0)
            arr = argv[i] + 8; /* the last one counts (app_parse) */
    for (int k = 0; k < NDFLT; k++)
        list[k] = k;
    if (arr != NULL && parse_array(arr, list, &n) != NULL)
        n = 0;
    for (int k = 0; k < n; k++)
        declared[list[k]] = 1;
    t_whole = tcs_task(d, "whole", TCS_NONE, 0, 0, 8, 8, whole, 0, TCS_RING1D);
    for (int c = 0; c < NCFG; c++)
        if (declared[c])
            declare_tasks(d, c);
    for (int c = 0; c < NCFG; c++) {
        if (!declared[c])
            continue;
        declare_sg(d, c, 0);
        declare_sg(d, c, 1);
        declare_rb(d, c);
        if (cfgs[c][0] * cfgs[c][1] < 64) /* 8 x 8 shifts: too few PCTs */
            declare_a2a(d, c);
        declare_aapc(d, c);
    }
}

int main(int argc, char **argv)
{
    int impl = 0;
    size_t maxbytes = 0;
    const char *o_pattern = NULL, *o_impl = NULL, *o_array = NULL;
    long lruns = 1;
    int pc = 0;
    const app_opt_t opts[] = {
        {"pattern", APPO_STR, &o_pattern, NULL, 0, 0, NULL, "sg|rb|a2a",
         "scatter/gather, reduction/broadcast or all-to-all (required)"},
        {"impl", APPO_STR, &o_impl, NULL, 0, 0, NULL, "tcs",
         "TCS connections (W 6.2.2, 6.3.2, 6.4.2; required; deposits: "
         "tcs_patterns)"},
        {"phase-conns", APPO_CHOICE, &pc, NULL, 0, 0, "max|1", NULL,
         "--pattern=sg: connections per phase (default max)"},
        {"a2a-phases", APPO_CHOICE, &a2av, NULL, 0, 0, "aapc|shifts", NULL,
         "--pattern=a2a: W's AAPC phases, one barrier each (default), or "
         "the N-1 torus shifts, two barriers each"},
        {"array", APPO_STR, &o_array, NULL, 0, 0, NULL, "WxH,...",
         "member rectangles, W and H 2, 4 or 8 (default "
         "2x2,4x2,4x4,8x4,8x8)"},
        {"sizes", APPO_LIST, sizes, &nsizes, 32, 0, NULL, "A,B,...",
         "bytes per cell, multiples of 4 from 16 to 32768 (default "
         "16,64,...,32768)"},
        {"runs", APPO_LONG, &lruns, NULL, 0, 1, NULL, "R",
         "runs per entry (default 1)"},
        {"blocks", APPO_FLAG, &blocks, NULL, 0, 0, NULL, NULL,
         "--pattern=sg: per gather phase, how late the first block the "
         "root reads arrives (W 6.2.2's first-gather transient)"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc = app_parse("tcs_patterns_tcs",
                        "Chapter 6 communication patterns of Warfel 1996 over "
                        "TCS connections: emulated time in clocks against the "
                        "chapter's prediction.",
                        "--mce-nodes=64 --pattern=sg|rb|a2a --impl=tcs "
                        "[--phase-conns=max|1] [--a2a-phases=aapc|shifts] "
                        "[--array=WxH,...] "
                        "[--sizes=16,...,32768] [--runs=R] [--blocks] "
                        "[--format=table|csv|json]",
                        argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    sgv = pc;
    runs = lruns > 1000000 ? 1000000 : (int)lruns;
    if (o_pattern != NULL) {
        for (int k = 0; k < 3; k++)
            if (strcmp(o_pattern, patterns[k]) == 0)
                pattern = k;
        if (pattern < 0)
            iwapp_die(PROG, "--pattern: sg, rb or a2a");
    }
    if (o_impl != NULL) {
        if (strcmp(o_impl, "tcs") != 0)
            iwapp_die(PROG, "--impl: tcs (the deposit implementation "
                            "is tcs_patterns --impl=dep)");
        impl = 1;
    }
    if (o_array != NULL) {
        const char *why = parse_array(o_array, cl, &ncl);
        char msg[160];
        if (why != NULL) {
            snprintf(msg, sizeof(msg), "--array=%s: %s", o_array, why);
            iwapp_die(PROG, msg);
        }
    }
    for (int k = 0; k < ncl; k++)
        if (!declared[cl[k]]) /* tcs_declare read other arguments */
            iwapp_die(PROG, "--array: a rectangle tcs_declare did not "
                            "declare");
    if (sgv && pattern != SG)
        iwapp_die(PROG, "--phase-conns: only for --pattern=sg");
    if (blocks && pattern != SG)
        iwapp_die(PROG, "--blocks: only for --pattern=sg");
    if (a2av != AAPC && pattern != A2A)
        iwapp_die(PROG, "--a2a-phases: only for --pattern=a2a");
    for (int k = 0; k < ncl && a2av == SHIFTS; k++)
        if (cfgs[cl[k]][0] * cfgs[cl[k]][1] == 64)
            iwapp_die(PROG, "--a2a-phases=shifts: not 8x8 (--array); the "
                            "8x8 shifts need more PCTs than there are");
    if (pattern < 0 || !impl)
        iwapp_die(PROG, "--pattern and --impl=tcs are required");
    if (iwarp_width() != 8 || iwarp_height() != 8)
        iwapp_die(PROG, "needs the 8 x 8 array (--mce-nodes=64)");
    for (int k = 0; k < nsizes; k++) {
        if (sizes[k] < 16 || sizes[k] > MAXSIZE || sizes[k] % 4)
            iwapp_die(PROG, "--sizes: multiples of 4 from 16 to 32768");
        if ((size_t)sizes[k] > maxbytes)
            maxbytes = (size_t)sizes[k];
    }
    for (int c = 0; c < NCFG; c++)
        if (declared[c] && (sg_groups[0][c] > MAXG || sg_groups[1][c] > MAXG))
            iwapp_die(PROG, "too many scatter netgroups");
    rbuf = calloc((size_t)MAXC * maxbytes / 4, 4);
    sbuf = calloc(maxbytes / 4, 4);
    acc = calloc(maxbytes / 4, 4);
    tmp = calloc(maxbytes / 4, 4);
    if (blocks) {
        blk_c0 = calloc(MAXG, sizeof(*blk_c0));
        blk_ret = calloc(MAXG, sizeof(*blk_ret));
    }
    if (!rbuf || !sbuf || !acc || !tmp || (blocks && (!blk_c0 || !blk_ret)))
        fail_cell("out of memory for the buffers");
    check(tcs_run(t_whole, NULL), "tcs_run");
    free(rbuf);
    free(sbuf);
    free(acc);
    free(tmp);
    free(blk_c0);
    free(blk_ret);
    if (iwarp_cell() == 0)
        app_finish();
    return 0;
}
