/* The communication patterns of Warfel 1996, chapter 6 (doc/design/
 * iwarp-tcs.md, section 8.5): scatter/gather, reduction/broadcast and
 * all-to-all, run on the member rectangle W x H at the array's corner and
 * timed against the chapter 6 models.
 *
 *   sg   scatter/gather (W 6.2.1): the root (0,0) deposits a block into
 *        every other member in id order, a barrier, then every member
 *        deposits a block back (the words it received, xor its id) at its
 *        slot of the root's buffer; the root waits for them one by one
 *   rb   reduction/broadcast (W 6.3.1): log2 N stages of reduction (the
 *        receiver adds the incoming vector to its own, word by word),
 *        then log2 N stages of broadcast of the sum, then the 2-D global
 *        barrier over the whole array; natural mapping (ids row-major,
 *        stage k pairs i and i + N/2^(k+1)) or --remap (ids in Z order,
 *        stage k pairs i and i + 2^k: every stage's routes are disjoint)
 *   a2a  all-to-all (W 6.4.1): every member deposits a distinct block into
 *        every other member's buffer, in a random order drawn per cell and
 *        run from --mce-seed, waits for the N-1 blocks addressed to it,
 *        then a barrier
 *
 * Implementations: --impl=dep, deposit message passing (iwarp_dep_*; the
 * barriers are PCT rings configured beforehand, W 6.4.1's "Barrier_time":
 * the 1D ring over the members along the snake for sg and a2a, the 2-D
 * rings over the whole array for rb).  --impl=tcs (TCS connections) is
 * apps/tcs/tcs_patterns_tcs (a TCS program: include/tcs.h).
 *
 * Costs charged by the program (machine file): app.mp_constant at the
 * start on every member (the root only for sg), app.mp_iteration per
 * reduction/broadcast stage and per all-to-all send; the barriers as
 * apps/iwarp/iwarp_barrier (app.barrier_startup, app.barrier_loop).
 * Combining in the reduction costs nothing beyond app.mp_iteration (W's
 * model has no per-byte term).
 *
 * A run starts at a common virtual time on every cell and ends on cell 0:
 * after its last gather receive (sg) or at its exit from the final
 * barrier (rb, a2a).  Printed per (array, size): the average over the
 * runs (emulated), the chapter 6 prediction with W's constants (app.mp_*
 * prediction keys, never charged) floored, their ratio, and data=ok once
 * every member has checked the data it received.
 *
 * usage: tcs_patterns --mce-nodes=64 --pattern=sg|rb|a2a --impl=dep
 *        [--remap] [--array=2x2,4x4,8x8] [--sizes=16,...,32768] [--runs=R]
 *        [--format=table|csv|json]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iwarp.h>

#include "../iwarp/iwapp.h"
#include "opts.h"
#include "patterns.h"

#define PROG "tcs_patterns"

#define MAXC     64  /* members */
#define MAXCELLS 256 /* the array */
#define MAXCON   512 /* connections of one barrier */
#define MAXCFG   16
#define MAXSIZE  32768

enum { SG, RB, A2A };
static const char *const patterns[] = {"sg", "rb", "a2a"};

/* ---- state (per cell: the globals are privatised) ----------------------- */

static int aw, ah, me;      /* the array, my cell */
static int rw, rh, n, lg;   /* the member rectangle */
static int mi = -1;         /* my member id (-1: not a member) */
static int remap;           /* rb: Z-order ids */
static int id_cell[MAXC];   /* member id -> cell */
static int snake[MAXCELLS]; /* ring position -> cell */
static int ring_n, ri = -1; /* ring length, my position */
static int ring2d;          /* the barrier: 2-D rings over the array */
static iwapp_conn_t *con;   /* this cell's, MAXCON (iwapp_conn_table) */
static iwapp_conns_t cs;    /* the barrier rings */
static int pct_base, npcts;
static long k_const, k_iter, k_startup, k_loop;
static int h_ctl, h_data, h_slot[2 * 6];
static uint64_t ctl_word;
static unsigned ctl_got, data_got, slot_got[2 * 6];
static size_t slot_words;
static uint32_t *rbuf, *sbuf, *acc;

static _Noreturn void fail_cell(const char *what)
{
    fprintf(stderr, "%s: cell (%d,%d): %s\n", PROG, me % aw, me / aw, what);
    exit(1);
}

static int cell_of(int x, int y)
{
    return y * aw + x;
}

/* ---- barrier rings (connection sets: apps/iwarp/iwapp.c) ---------------- */

static void build_conns(void)
{
    cs.n = 0;
    if (!ring2d) {
        for (int k = 0; k < ring_n; k++)
            iwapp_conn_straight(&cs, snake[k], snake[(k + 1) % ring_n]);
        return;
    }
    for (int y = 0; y < ah; y++)
        for (int x = 0; x < aw; x++)
            iwapp_conn_ring_edge(&cs, cell_of(x, y), x, aw, 1, IW_XP, IW_XM);
    for (int y = 0; y < ah; y++)
        for (int x = 0; x < aw; x++) {
            iwapp_conn_ring_edge(&cs, cell_of(x, y), y, ah, 1, IW_YP, IW_YM);
            con[cs.n - 1].share = cell_of(x, y); /* one out PCT: the row's */
        }
}

/* Bind gates W0 (the out PCT: 1D ring, or 2D rows and then columns), R0
 * (row or 1D ring) and R1 (columns) to my rings. */
static int outdim; /* 2D: the dimension my out PCT serves */
static void bind_gates(int unbind)
{
    int from = 0;
    outdim = 0;
    for (int g = 0; g < (ring2d ? 2 : 1); g++) {
        int to = ring2d ? from + aw * ah : cs.n;
        if (unbind) {
            if (g == 0)
                iwapp_check(PROG, iwarp_gate_unbind(IW_W0), "gate_unbind");
            iwapp_check(PROG, iwarp_gate_unbind(IW_R0 + g), "gate_unbind");
            continue;
        }
        for (int c = from; c < to; c++) {
            if (con[c].src == me && g == 0)
                iwapp_check(PROG, iwarp_gate_bind(IW_W0 + g, con[c].pct[0]),
                            "iwarp_gate_bind");
            if (con[c].dst == me)
                iwapp_check(PROG,
                            iwarp_gate_bind(IW_R0 + g, con[c].pct[con[c].hops]),
                            "iwarp_gate_bind");
        }
        from = to;
    }
}

/* 2D: point my out PCT at the row (@p dim 0) or column (1) connection
 * once its last word has left (iwarp_pct_repoint: W 4.5.3.3 "a single
 * additional PCT"; design s.6.4). */
static void point_out(int dim)
{
    if (outdim == dim)
        return;
    iwapp_conn_repoint(&cs, dim * aw * ah + me);
    outdim = dim;
}

static void ring_stages(int len, int g, long stage)
{
    for (int s = 0; s < len - 1; s++) {
        uint32_t w = 0;
        iwarp_compute((unsigned long)stage);
        iwapp_check(PROG, iwarp_gate_write(IW_W0, 1), "iwarp_gate_write");
        iwapp_check(PROG, iwarp_gate_read(IW_R0 + g, &w), "iwarp_gate_read");
        if (w != 1)
            fail_cell("barrier word corrupted");
    }
}

static void barrier(void)
{
    iwarp_compute((unsigned long)k_startup);
    if (!ring2d) {
        ring_stages(ring_n, 0, k_loop);
    } else {
        point_out(0); /* back to the row after the previous barrier */
        ring_stages(aw, 0, k_loop);
        point_out(1);
        ring_stages(ah, 1, k_loop);
    }
}

/* ---- data ---------------------------------------------------------------- */

static void dep_wait_one(int h, unsigned *got)
{
    iwapp_check(PROG, iwarp_dep_wait(h, ++*got, 1), "iwarp_dep_wait");
}

static void send_to(int id, int h, size_t off, size_t bytes)
{
    iwapp_check(PROG, iwarp_dep_send(id_cell[id], h, off, sbuf, bytes),
                "iwarp_dep_send");
}

/* ---- the patterns (deposit implementation) ------------------------------ */

static void dep_sg(size_t bytes, int r)
{
    size_t nw = bytes / 4;
    if (mi == 0) {
        iwarp_compute((unsigned long)k_const);
        for (int j = 1; j < n; j++) {
            for (size_t w = 0; w < nw; w++)
                sbuf[w] = pat_word(0, j, w, r);
            send_to(j, h_data, 0, bytes);
        }
        barrier();
        for (int j = 1; j < n; j++)
            dep_wait_one(h_data, &data_got);
        return;
    }
    dep_wait_one(h_data, &data_got);
    barrier();
    for (size_t w = 0; w < nw; w++)
        sbuf[w] = rbuf[w] ^ (uint32_t)mi;
    send_to(0, h_data, (size_t)mi * bytes, bytes);
}

static int sg_check(size_t bytes, int r)
{
    size_t nw = bytes / 4;
    if (mi != 0)
        return 1;
    for (int j = 1; j < n; j++)
        for (size_t w = 0; w < nw; w++)
            if (rbuf[(size_t)j * nw + w] !=
                (pat_word(0, j, w, r) ^ (uint32_t)j))
                return 0;
    return 1;
}

/* Stage k of the reduction: my partner id and role (1 receive, -1 send,
 * 0 idle). */
static int rb_role(int k, int *partner)
{
    if (!remap) {
        int half = n >> (k + 1);
        if (mi >= 2 * half)
            return 0;
        *partner = mi < half ? mi + half : mi - half;
        return mi < half ? 1 : -1;
    }
    return pat_rb_role_z(mi, k, partner);
}

static void dep_rb(size_t bytes, int r)
{
    size_t nw = bytes / 4;
    int partner = 0, role;
    iwarp_compute((unsigned long)k_const);
    for (size_t w = 0; w < nw; w++)
        acc[w] = pat_word(mi, -1, w, r);
    for (int k = 0; k < lg; k++) { /* reduction */
        iwarp_compute((unsigned long)k_iter);
        role = rb_role(k, &partner);
        if (role > 0) {
            const uint32_t *in = rbuf + (size_t)k * slot_words;
            dep_wait_one(h_slot[k], &slot_got[k]);
            for (size_t w = 0; w < nw; w++)
                acc[w] += in[w];
        } else if (role < 0) {
            memcpy(sbuf, acc, bytes);
            send_to(partner, h_slot[k], 0, bytes);
            break;
        }
    }
    for (int k = lg - 1; k >= 0; k--) { /* broadcast: the reverse */
        role = rb_role(k, &partner);
        if (role == 0)
            continue;
        iwarp_compute((unsigned long)k_iter);
        if (role > 0) {
            memcpy(sbuf, acc, bytes);
            send_to(partner, h_slot[lg + k], 0, bytes);
        } else {
            dep_wait_one(h_slot[lg + k], &slot_got[lg + k]);
            memcpy(acc, rbuf + (size_t)(lg + k) * slot_words, bytes);
        }
    }
}

static int rb_check(size_t bytes, int r)
{
    for (size_t w = 0; w < bytes / 4; w++) {
        uint32_t sum = 0;
        for (int j = 0; j < n; j++)
            sum += pat_word(j, -1, w, r);
        if (acc[w] != sum)
            return 0;
    }
    return 1;
}

static void dep_a2a(size_t bytes, int r, int cfg)
{
    size_t nw = bytes / 4;
    int order[MAXC], m = 0;
    uint64_t s = pat_mix(pat_mix(mce_seed() ^ ((uint64_t)cfg << 48)) ^
                         ((uint64_t)r << 16) ^ (uint64_t)mi);
    for (int j = 0; j < n; j++)
        if (j != mi)
            order[m++] = j;
    for (int i = m - 1; i > 0; i--) { /* Fisher-Yates */
        int j, t;
        s = pat_mix(s);
        j = (int)(s % (uint64_t)(i + 1));
        t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    iwarp_compute((unsigned long)k_const);
    for (int i = 0; i < m; i++) {
        iwarp_compute((unsigned long)k_iter);
        for (size_t w = 0; w < nw; w++)
            sbuf[w] = pat_word(mi, order[i], w, r);
        send_to(order[i], h_data, (size_t)mi * bytes, bytes);
    }
    for (int i = 0; i < m; i++)
        dep_wait_one(h_data, &data_got);
    barrier();
}

static int a2a_check(size_t bytes, int r)
{
    size_t nw = bytes / 4;
    for (int j = 0; j < n; j++)
        for (size_t w = 0; w < nw && j != mi; w++)
            if (rbuf[(size_t)j * nw + w] != pat_word(j, mi, w, r))
                return 0;
    return 1;
}

/* The implementations of the patterns (TCS connections: the TCS program
 * tcs_patterns_tcs). */
typedef struct impl_ops {
    const char *name;
    void (*run)(int pattern, size_t bytes, int r, int cfg);
} impl_ops_t;

static void dep_run(int pattern, size_t bytes, int r, int cfg)
{
    if (mi < 0) { /* not a member: only the 2-D barrier of rb */
        if (pattern == RB)
            barrier();
        return;
    }
    if (pattern == SG) {
        dep_sg(bytes, r);
    } else if (pattern == RB) {
        dep_rb(bytes, r);
        barrier();
    } else {
        dep_a2a(bytes, r, cfg);
    }
}

static const impl_ops_t impls[] = {{.name = "dep", .run = dep_run}};

/* ---- the chapter 6 predictions (W 6.2.1, 6.3.1, 6.4.1), in thousandths
 * of a clock: the app.mp_* prediction keys, never charged ---------------- */

static long long predict_milli(int pattern, long long s)
{
    long long c = iwapp_param(PROG, "app.mp_constant"),
              it = iwapp_param(PROG, "app.mp_iteration");
    long long snd = iwapp_param(PROG, "app.mp_send"),
              rcv = iwapp_param(PROG, "app.mp_recv");
    long long lat = iwapp_param(PROG, "app.mp_net_latency"),
              bw = iwapp_param(PROG, "app.net_bw_milli");
    long long N = n, num, den = bw, bar;
    char key[64];
    if (pattern == RB) {
        bar = iwapp_param(PROG, "app.mp_barrier_2d");
        num = (c + bar) * bw + 2LL * lg * ((it + snd + lat) * bw + s * 1000);
    } else {
        snprintf(key, sizeof(key), "app.mp_barrier_%d", n);
        bar = iwapp_param(PROG, key);
        num = (c + bar) * bw + (N - 1) * ((snd + lat) * bw + s * 1000) +
              (N - 1) * ((rcv + lat) * bw + s * 1000);
        if (pattern == A2A)
            num += (N - 1) * it * bw;
    }
    return num * 1000 / den; /* floor: the terms are non-negative */
}

/* ---- main -----------------------------------------------------------------
 */

static void set_members(int pattern, int w, int h)
{
    rw = w;
    rh = h;
    n = w * h;
    lg = iwapp_log2(n);
    mi = -1;
    for (int id = 0; id < n; id++) {
        int rank = pattern == RB && remap ? pat_z_rank(id, w, h) : id;
        id_cell[id] = cell_of(rank % w, rank / w);
        if (id_cell[id] == me)
            mi = id;
    }
}

static void setup_barrier(int pattern)
{
    ring2d = pattern == RB;
    if (ring2d)
        ring_n = iwapp_snake(aw, aw, ah, snake); /* unused by the 2-D rings */
    else
        ring_n = iwapp_snake(aw, rw, rh, snake);
    ri = -1;
    for (int p = 0; p < ring_n; p++)
        if (snake[p] == me)
            ri = p;
    build_conns();
    if (pct_base + iwapp_conn_pcts(&cs, pct_base, NULL) > npcts)
        iwapp_die(PROG, "the barrier's PCT rings need more PCTs than a cell "
                        "has left beside the deposit system's");
}

int main(int argc, char **argv)
{
    long sizes[32] = {16, 64, 256, 1024, 4096, 16384, 32768};
    int nsizes = 7, runs = 1, pattern = -1, impl = -1, ncfg = 3;
    int cfgw[MAXCFG] = {2, 4, 8}, cfgh[MAXCFG] = {2, 4, 8};
    size_t maxbytes = 0, maxn = 0;
    unsigned long long T;
    aw = iwarp_width();
    ah = iwarp_height();
    cs = (iwapp_conns_t){.cap = MAXCON, .aw = aw, .ah = ah, .prog = PROG};
    me = iwarp_cell();
    const char *o_pattern = NULL, *o_impl = NULL, *o_array = NULL;
    long lruns = 1;
    const app_opt_t opts[] = {
        {"pattern", APPO_STR, &o_pattern, NULL, 0, 0, NULL, "sg|rb|a2a",
         "scatter/gather, reduction/broadcast or all-to-all (required)"},
        {"impl", APPO_STR, &o_impl, NULL, 0, 0, NULL, "dep",
         "the deposit implementation (W 6.2.1, 6.3.1, 6.4.1; required; "
         "TCS connections: tcs_patterns_tcs)"},
        {"remap", APPO_FLAG, &remap, NULL, 0, 0, NULL, NULL,
         "--pattern=rb: the remapped tree"},
        {"array", APPO_STR, &o_array, NULL, 0, 0, NULL, "WxH,...",
         "member rectangles at the array's corner (default 2x2,4x4,8x8)"},
        {"sizes", APPO_LIST, sizes, &nsizes, 32, 0, NULL, "A,B,...",
         "bytes per cell, multiples of 4 from 16 to 32768 (default "
         "16,64,...,32768)"},
        {"runs", APPO_LONG, &lruns, NULL, 0, 1, NULL, "R",
         "runs per entry (default 1)"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc = app_parse(PROG,
                        "Chapter 6 communication patterns of Warfel 1996 with "
                        "deposit message passing: emulated time in clocks "
                        "against the chapter's prediction.",
                        "--mce-nodes=64 --pattern=sg|rb|a2a --impl=dep "
                        "[--remap] [--array=2x2,4x4,8x8] "
                        "[--sizes=16,...,32768] [--runs=R] "
                        "[--format=table|csv|json]",
                        argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    runs = lruns > 1000000 ? 1000000 : (int)lruns;
    if (o_pattern != NULL) {
        for (int k = 0; k < 3; k++)
            if (strcmp(o_pattern, patterns[k]) == 0)
                pattern = k;
        if (pattern < 0)
            iwapp_die(PROG, "--pattern: sg, rb or a2a");
    }
    if (o_impl != NULL) {
        if (strcmp(o_impl, "tcs") == 0)
            iwapp_die(PROG, "--impl=tcs: TCS connections are a TCS "
                            "program of their own: run tcs_patterns_tcs "
                            "--impl=tcs");
        for (size_t k = 0; k < sizeof(impls) / sizeof(impls[0]); k++)
            if (strcmp(o_impl, impls[k].name) == 0)
                impl = (int)k;
        if (impl < 0)
            iwapp_die(PROG, "--impl: dep");
    }
    if (o_array != NULL) {
        const char *p = o_array;
        ncfg = 0;
        while (*p && ncfg < MAXCFG) {
            char *e;
            cfgw[ncfg] = (int)strtol(p, &e, 10);
            if (*e != 'x')
                iwapp_die(PROG, "--array: a list such as 2x2,4x4,8x8");
            cfgh[ncfg] = (int)strtol(e + 1, &e, 10);
            ncfg++;
            if (*e == ',')
                e++;
            else if (*e)
                iwapp_die(PROG, "--array: a list such as 2x2,4x4,8x8");
            p = e;
        }
        if (ncfg == 0)
            iwapp_die(PROG, "--array: a list such as 2x2,4x4,8x8");
    }
    if (pattern < 0 || impl < 0)
        iwapp_die(PROG, "--pattern and --impl are required");
    if (remap && pattern != RB)
        iwapp_die(PROG, "--remap: only for --pattern=rb");
    if (aw * ah > MAXCELLS)
        iwapp_die(PROG, "the array has more than 256 cells");
    for (int c = 0; c < ncfg; c++) {
        int w = cfgw[c], h = cfgh[c];
        /* any power-of-two rectangle: the thesis's 2x2, 2x4, 4x4, 4x8 and
         * 8x8 (W 6.4.1) in either orientation, and the others of 4 to 64
         * cells (the predictions' Barrier_time is W's for the cell count) */
        if (w < 2 || h < 2 || w > aw || h > ah || (w & (w - 1)) ||
            (h & (h - 1)) || w * h > MAXC)
            iwapp_die(PROG, "--array: W x H, columns x rows at the array's "
                            "corner, each a power of two from 2, at most 64 "
                            "cells, within the array (e.g. 2x2,4x2,2x4,8x8)");
        if ((size_t)(w * h) > maxn)
            maxn = (size_t)(w * h);
        if (maxn < 2 * 6) /* rb: 2 log2 N stage slots */
            maxn = 2 * 6;
    }
    for (int k = 0; k < nsizes; k++) {
        if (sizes[k] < 16 || sizes[k] > MAXSIZE || sizes[k] % 4)
            iwapp_die(PROG,
                      "--sizes: multiples of 4 from 16 to 32768 (W 6.2.1: "
                      "4-byte deposits take another path)");
        if ((size_t)sizes[k] > maxbytes)
            maxbytes = (size_t)sizes[k];
    }
    if (pattern == RB && (aw * ah > MAXC || aw != ah))
        iwapp_die(PROG, "--pattern=rb: the 2-D barrier needs a square array "
                        "of at most 64 cells");
    k_const = iwapp_param(PROG, "app.mp_constant");
    k_iter = iwapp_param(PROG, "app.mp_iteration");
    k_startup = iwapp_param(PROG, "app.barrier_startup");
    k_loop = iwapp_param(PROG, "app.barrier_loop");
    pct_base = (int)iwapp_param(PROG, "dep.pcts");
    npcts = (int)iwapp_param(PROG, "iwarp.pcts");

    /* buffers (once the options and keys are checked: a refusal exits
     * with nothing allocated): the connection table, the received blocks
     * (N slots, or 2 log2 N stages), the block being sent and the
     * reduction's accumulator */
    cs.con = con = iwapp_conn_table(PROG, MAXCON);
    rbuf = calloc(maxn * maxbytes / 4, 4);
    sbuf = calloc(maxbytes / 4, 4);
    acc = calloc(maxbytes / 4, 4);
    if (!rbuf || !sbuf || !acc)
        fail_cell("out of memory for the buffers");
    iwapp_check(PROG, iwarp_dep_init(), "iwarp_dep_init");
    iwapp_check(PROG, h_ctl = iwarp_dep_buffer(&ctl_word, sizeof(ctl_word)),
                "iwarp_dep_buffer");
    iwapp_check(PROG, h_data = iwarp_dep_buffer(rbuf, maxn * maxbytes),
                "iwarp_dep_buffer");
    /* rb: one buffer per stage (slots of rbuf), so that an early arrival
     * for a later stage is not taken for this stage's */
    slot_words = maxbytes / 4;
    for (int k = 0; k < 2 * 6; k++)
        iwapp_check(PROG,
                    h_slot[k] = iwarp_dep_buffer(rbuf + (size_t)k * slot_words,
                                                 maxbytes),
                    "iwarp_dep_buffer");

    T = 20000;
    for (int c = 0; c < ncfg; c++) {
        set_members(pattern, cfgw[c], cfgh[c]);
        iwarp_align(T);
        setup_barrier(pattern);
        if (ri >= 0) {
            iwapp_conn_configure(&cs, me, 0);
            bind_gates(0);
        }
        T += 2000;
        for (int s = 0; s < nsizes; s++) {
            size_t bytes = (size_t)sizes[s];
            unsigned long long sum = 0;
            for (int r = 0; r < runs; r++) {
                unsigned long long t1;
                int last = c == ncfg - 1 && s == nsizes - 1 && r == runs - 1;
                iwarp_align(T);
                impls[impl].run(pattern, bytes, r, c);
                t1 = iwarp_vtime();
                if (mi >= 0) {
                    int good = pattern == SG   ? sg_check(bytes, r)
                               : pattern == RB ? rb_check(bytes, r)
                                               : a2a_check(bytes, r);
                    if (!good)
                        fail_cell("wrong data received");
                }
                /* cell 0 ends last (sg: its last gather receive; rb, a2a:
                 * the barrier): it sets the next start for every cell */
                if (me == 0) {
                    sum += t1 - T;
                    T = t1 + 500ull * (unsigned long long)(aw * ah) + 5000;
                    if (!last)
                        for (int d = 1; d < aw * ah; d++)
                            iwapp_check(
                                PROG,
                                iwarp_dep_send(d, h_ctl, 0, &T, sizeof(T)),
                                "iwarp_dep_send");
                } else if (!last) {
                    dep_wait_one(h_ctl, &ctl_got);
                    T = ctl_word;
                }
            }
            if (me == 0) {
                long long p = predict_milli(pattern, (long long)bytes);
                unsigned long long avg = sum / (unsigned long long)runs;
                char arr[24];
                snprintf(arr, sizeof(arr), "%dx%d", rw, rh);
                const char *mapping = pattern != RB ? ""
                                      : remap       ? "remap"
                                                    : "natural";
                app_row("tcs_patterns",
                        APP_FIELDS(
                            APP_S("pattern", patterns[pattern]),
                            APP_S("impl", impls[impl].name),
                            APP_S("mapping", mapping), APP_S("array", arr),
                            APP_I("cells", n), APP_U("bytes", bytes),
                            APP_I("runs", runs), APP_U("emulated", avg),
                            APP_I("predicted", p / 1000),
                            APP_F("ratio", (double)avg * 1000.0 / (double)p)),
                        "%s: pattern=%s impl=%s%s%s array=%dx%d cells=%d "
                        "bytes=%zu runs=%d emulated=%llu predicted=%lld "
                        "ratio=%.3f data=ok\n",
                        PROG, patterns[pattern], impls[impl].name,
                        *mapping ? " mapping=" : "", mapping, rw, rh, n, bytes,
                        runs, avg, p / 1000, (double)avg * 1000.0 / (double)p);
            }
        }
        if (c < ncfg - 1) { /* tear the barrier down at the next start */
            iwarp_align(T);
            if (ri >= 0) {
                bind_gates(1);
                iwapp_conn_configure(&cs, me, 1);
            }
            T += 2000;
        }
    }
    free(rbuf);
    free(sbuf);
    free(acc);
    free(con);
    if (me == 0)
        app_finish();
    return 0;
}
