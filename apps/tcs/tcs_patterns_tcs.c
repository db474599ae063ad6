/* The communication patterns of Warfel 1996, chapter 6, with TCS
 * connections (W 6.2.2, 6.3.2, 6.4.2; doc/design/iwarp-tcs.md, sections 8.5 and
 * 8.9): the TCS half of apps/tcs/tcs_patterns (a TCS program: include/
 * tcs.h, so a program of its own; tcs_patterns --impl=dep is the deposit
 * half).  Run on the member rectangle W x H at the corner of the 8 x 8
 * array, each rectangle a task of its own (1D barrier ring: W measured
 * his reconfiguration times on 1D rings).
 *
 *   sg   scatter/gather: the root (rank 0, cell (0,0)) writes a block to
 *        every other member over its own connection, then every member
 *        writes back the words it received xor its rank and the root
 *        reads them in rank order.  The root's connections are split into
 *        netgroups of k, k the PCTs the root has free (tcs_free_pcts):
 *        phases = 2 ceil((N-1)/k), each entered with tcs_switch.
 *   rb   reduction/broadcast: log2 N reduction stages (Z-order ids, stage
 *        k pairs i and i + 2^k: the routes of a stage are disjoint), the
 *        receiver adds the incoming vector to its own; then log2 N
 *        broadcast stages of the sum.  Two netgroups: all reduction
 *        connections, all broadcast connections (phases = 2).
 *   a2a  all-to-all: N-1 netgroups, the torus shifts of the rectangle;
 *        per phase a barrier, a fast switch, a second barrier, the spool
 *        set-up, a background spooled receive and a foreground block
 *        write.  The task is TCS_THROTTLE (the linker's throttles apply);
 *        its prediction comes from the linker's phase report (mce-predict
 *        tcs-a2a --phases=FILE), so its line has no predicted column.
 *
 * Costs charged by the program: app.tcs_sg_constant on the root, or
 * app.tcs_rb_constant on every member and app.tcs_rb_iteration per
 * reduction stage, or app.tcs_a2a_constant and app.tcs_a2a_other per
 * phase; everything else is the TCS run time (tcs_switch) and
 * the network model (gate block writes and reads).
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
 *        [--array=2x2,4x2,4x4,8x4,8x8] [--sizes=16,...,32768] [--runs=R]
 *        [--phase-conns=max|1] [--format=table|csv|json]
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
#define NCFG    5
#define MAXC    64
#define MAXG    64 /* sg netgroups per direction */
#define MAXSIZE 32768
#define GAP     1500ull /* clocks between two gathered SRU words */

enum { SG, RB, A2A };
static const char *const patterns[] = {"sg", "rb", "a2a"};
static const int cfgs[NCFG][2] = {{2, 2}, {4, 2}, {4, 4}, {8, 4}, {8, 8}};

/* ---- the declaration (shared by the cells: written before main) -------- */

/* sg in two variants: v = 0, k connections per netgroup (the root's free
 * PCTs); v = 1, one connection per netgroup (every transfer a phase) */
static tcs_task_t t_whole, t_sg[2][NCFG], t_rb[NCFG], t_a2a[NCFG];
/* a2a: netgroup s - 1 = the torus shift s (dx, dy) = (s mod W, s / W) */
static tcs_ng_t ng_sh[NCFG][MAXG];
static tcs_ng_t ng_sc[2][NCFG][MAXG], ng_ga[2][NCFG][MAXG], ng_red[NCFG],
    ng_bc[NCFG];
static int sg_k[2][NCFG], sg_groups[2][NCFG];

/* ---- options and per-cell state (privatised per cell) -------------------- */

static int pattern = -1, sgv, runs = 1, ncl = NCFG, cl[NCFG] = {0, 1, 2, 3, 4};
static long sizes[32] = {16, 64, 256, 1024, 4096, 16384, 32768};
static int nsizes = 7;
static uint32_t *rbuf, *sbuf, *acc, *tmp;

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

/* ---- the schedule (the same on every cell) ----------------------------- */

static int phases(int c)
{
    return pattern == SG    ? 2 * sg_groups[sgv][c]
           : pattern == A2A ? cfgs[c][0] * cfgs[c][1] - 1
                            : 2;
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
    return GAP * (unsigned long long)(cfgs[c][0] * cfgs[c][1]) + 2000ull;
}

/* Clocks from a configuration's t0 to the end of its last gather. */
static unsigned long long cfg_span(int c)
{
    unsigned long long t = 6000 + gather_span(c);
    for (int s = 0; s < nsizes; s++)
        t +=
            (unsigned long long)runs * (run_slot(c, sizes[s]) + gather_span(c));
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

/* The linker's mean H over the connections of the pattern's netgroups. */
static double mean_h(int c)
{
    unsigned long long sum = 0;
    int cnt = 0, ngs[2 * MAXG], m = 0;
    if (pattern == SG) {
        for (int g = 0; g < sg_groups[sgv][c]; g++) {
            ngs[m++] = ng_sc[sgv][c][g];
            ngs[m++] = ng_ga[sgv][c][g];
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
                           APP_S("array", arr), APP_I("cells", n),
                           APP_I("bytes", s), APP_I("runs", runs),
                           APP_I("phases", phases(c)), APP_U("reconfig", rc),
                           APP_U("emulated", avg)),
                "%s: pattern=a2a impl=tcs array=%dx%d cells=%d bytes=%ld "
                "runs=%d phases=%d reconfig=%llu emulated=%llu data=ok\n",
                PROG, cfgs[c][0], cfgs[c][1], n, s, runs, phases(c), rc, avg);
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
    char ptxt[48];
    snprintf(ptxt, sizeof(ptxt), "%.0f", p - 0.5); /* as printed */
    app_row("tcs_patterns_tcs",
            APP_FIELDS(
                APP_S("pattern", patterns[pattern]), APP_S("impl", "tcs"),
                APP_S("mapping", pattern == RB ? "remap" : ""),
                APP_S("array", arr), APP_I("cells", n), APP_I("bytes", s),
                APP_I("runs", runs), APP_I("phase_conns", conns),
                APP_I("phases", phases(c)), APP_U("reconfig", rc),
                APP_F("latency", lat), APP_F("mean_h", mh),
                APP_U("emulated", avg), APP_F("predicted", strtod(ptxt, NULL)),
                APP_F("ratio", (double)avg / p), APP_F("predicted_w", pwv)),
            "%s: pattern=%s impl=tcs%s array=%dx%d cells=%d bytes=%ld "
            "runs=%d phase_conns=%d phases=%d reconfig=%llu latency=%.3f "
            "mean_h=%.3f "
            "emulated=%llu predicted=%s ratio=%.3f predicted_w=%s "
            "data=ok\n",
            PROG, patterns[pattern], pattern == RB ? " mapping=remap" : "",
            cfgs[c][0], cfgs[c][1], n, s, runs, conns, phases(c), rc, lat, mh,
            avg, ptxt, (double)avg / p, pw);
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
        check(tcs_switch(ctx, ng_sc[sgv][c][g]), "tcs_switch");
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
        check(tcs_switch(ctx, ng_ga[sgv][c][g]), "tcs_switch");
        if (mi == 0) {
            for (int j = lo; j < hi; j++)
                check(tcs_read(ctx, port(ctx, "f%d", j - lo),
                               rbuf + (size_t)j * nw, nw),
                      "tcs_read");
        } else if (mi >= lo && mi < hi) {
            int hs;
            for (size_t w = 0; w < nw; w++)
                sbuf[w] = rbuf[w] ^ (uint32_t)mi;
            hs = tcs_spool_out(ctx, port(ctx, "out", 0), sbuf, nw);
            check(hs, "tcs_spool_out");
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
        check(tcs_switch_fast(ctx, ng_sh[c][sh - 1]), "tcs_switch_fast");
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

/* The task of one rectangle: measure the reconfiguration, then the runs. */
static void rect_task(tcs_ctx_t *ctx, const void *p)
{
    const params_t *q = p;
    int c = q->cfg, n = tcs_size(ctx), mi = tcs_rank(ctx);
    unsigned long long T = q->t0, rc;
    iwarp_align(T);
    check(tcs_switch(ctx, pattern == SG ? ng_ga[sgv][c][sg_groups[sgv][c] - 1]
                          : pattern == A2A ? ng_sh[c][0]
                                           : ng_bc[c]),
          "tcs_switch");
    rc = gather_max(n, mi, iwarp_vtime() - T, T + 6000);
    T += 6000 + gather_span(c);
    for (int s = 0; s < nsizes; s++) {
        unsigned long long sum = 0;
        for (int r = 0; r < runs; r++) {
            int ok;
            iwarp_align(T);
            ok = pattern == SG    ? run_sg(ctx, c, (size_t)sizes[s], r)
                 : pattern == A2A ? run_a2a(ctx, c, (size_t)sizes[s], r)
                                  : run_rb(ctx, c, (size_t)sizes[s], r);
            if (!ok)
                fail_cell("wrong data received");
            sum +=
                gather_max(n, mi, iwarp_vtime() - T, T + run_slot(c, sizes[s]));
            T += run_slot(c, sizes[s]) + gather_span(c);
        }
        if (iwarp_cell() == 0)
            print_line(c, sizes[s], sum / (unsigned long long)runs, rc);
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
        if (x < cfgs[c][0] && y < cfgs[c][1])
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

static void declare_sg(tcs_decl_t *d, int c, int v)
{
    int w = cfgs[c][0], h = cfgs[c][1], n = w * h, k;
    char name[32], pn[32];
    snprintf(name, sizeof(name), "sg%s%dx%d", v ? "1_" : "", w, h);
    t_sg[v][c] = tcs_task(d, name, t_whole, 0, 0, w, h, rect_task,
                          sizeof(params_t), n == 64 ? TCS_RING1D : 0);
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
        ng_sc[v][c][g] = tcs_netgroup(d, t_sg[v][c], name, &a, 1);
        snprintf(name, sizeof(name), "gga%s%dx%d_%d", v ? "1_" : "", w, h, g);
        ng_ga[v][c][g] = tcs_netgroup(d, t_sg[v][c], name, &b, 1);
    }
}

static void declare_rb(tcs_decl_t *d, int c)
{
    int w = cfgs[c][0], h = cfgs[c][1], n = w * h;
    char name[32], pn[32];
    tcs_net_t a, b;
    snprintf(name, sizeof(name), "rb%dx%d", w, h);
    t_rb[c] = tcs_task(d, name, t_whole, 0, 0, w, h, rect_task,
                       sizeof(params_t), n == 64 ? TCS_RING1D : 0);
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
    snprintf(name, sizeof(name), "a2a%dx%d", w, h);
    t_a2a[c] =
        tcs_task(d, name, t_whole, 0, 0, w, h, rect_task, sizeof(params_t),
                 TCS_THROTTLE | (n == 64 ? TCS_RING1D : 0));
    for (int sh = 1; sh < n; sh++) {
        tcs_net_t a;
        snprintf(name, sizeof(name), "sh%dx%d_%d", w, h, sh);
        a = tcs_network(d, t_a2a[c], name);
        for (int r = 0; r < n; r++)
            tcs_connect(d, a, r, "o", shifted(c, r, sh, 1), "i", 0, 0);
        snprintf(name, sizeof(name), "gsh%dx%d_%d", w, h, sh);
        ng_sh[c][sh - 1] = tcs_netgroup(d, t_a2a[c], name, &a, 1);
    }
}

void tcs_declare(tcs_decl_t *d)
{
    t_whole = tcs_task(d, "whole", TCS_NONE, 0, 0, 8, 8, whole, 0, TCS_RING1D);
    for (int c = 0; c < NCFG; c++) {
        declare_sg(d, c, 0);
        declare_sg(d, c, 1);
        declare_rb(d, c);
        declare_a2a(d, c);
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
        {"array", APPO_STR, &o_array, NULL, 0, 0, NULL, "WxH,...",
         "member rectangles 2x2, 4x2, 4x4, 8x4, 8x8 (default all)"},
        {"sizes", APPO_LIST, sizes, &nsizes, 32, 0, NULL, "A,B,...",
         "bytes per cell, multiples of 4 from 16 to 32768 (default "
         "16,64,...,32768)"},
        {"runs", APPO_LONG, &lruns, NULL, 0, 1, NULL, "R",
         "runs per entry (default 1)"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc = app_parse("tcs_patterns_tcs",
                        "Chapter 6 communication patterns of Warfel 1996 over "
                        "TCS connections: emulated time in clocks against the "
                        "chapter's prediction.",
                        "--mce-nodes=64 --pattern=sg|rb|a2a --impl=tcs "
                        "[--phase-conns=max|1] [--array=2x2,4x2,4x4,8x4,8x8] "
                        "[--sizes=16,...,32768] [--runs=R] "
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
        const char *s = o_array;
        ncl = 0;
        while (*s) {
            char *e;
            int w = (int)strtol(s, &e, 10), h, c = -1;
            if (*e != 'x')
                iwapp_die(PROG, "--array: a list such as 2x2,4x4,8x8");
            h = (int)strtol(e + 1, &e, 10);
            for (int k = 0; k < NCFG; k++)
                if (cfgs[k][0] == w && cfgs[k][1] == h)
                    c = k;
            if (c < 0 || ncl >= NCFG)
                iwapp_die(PROG, "--array: 2x2, 4x2, 4x4, 8x4 or 8x8, each "
                                "at most once");
            cl[ncl++] = c;
            if (*e == ',')
                e++;
            else if (*e)
                iwapp_die(PROG, "--array: a list such as 2x2,4x4,8x8");
            s = e;
        }
        if (ncl == 0)
            iwapp_die(PROG, "--array: a list such as 2x2,4x4,8x8");
    }
    if (sgv && pattern != SG)
        iwapp_die(PROG, "--phase-conns: only for --pattern=sg");
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
        if (sg_groups[0][c] > MAXG || sg_groups[1][c] > MAXG)
            iwapp_die(PROG, "too many scatter netgroups");
    rbuf = calloc((size_t)MAXC * maxbytes / 4, 4);
    sbuf = calloc(maxbytes / 4, 4);
    acc = calloc(maxbytes / 4, 4);
    tmp = calloc(maxbytes / 4, 4);
    if (!rbuf || !sbuf || !acc || !tmp)
        fail_cell("out of memory for the buffers");
    check(tcs_run(t_whole, NULL), "tcs_run");
    free(rbuf);
    free(sbuf);
    free(acc);
    free(tmp);
    if (iwarp_cell() == 0)
        app_finish();
    return 0;
}
