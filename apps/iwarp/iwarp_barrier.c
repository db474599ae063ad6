/* Chapter 4 barriers on the iWarp (Warfel 1996, sections 4.3.2 and 4.5,
 * Figure 4.19; doc/design/iwarp-tcs.md, section 6) over the three
 * physical signallings.
 *
 *   token2x  token twice around the ring (W 4.3.2.2.1.3): the master sends,
 *            receives, sends, receives; the others receive and send twice
 *   ring1d   (N-1) send/recv on a 1D ring (W 4.3.2.2.1.2)
 *   ring2d   ring1d over each row, then over each column (W 4.3.2.2.1.4)
 *   cube     handshakes on the embedded hypercube: send to and receive
 *            from member me ^ 2^j for every dimension j
 *   tree     reduction up the embedded binomial tree, broadcast down
 *
 *   pct      one word through a gate on a PCT connection configured
 *            beforehand (1D rings: neighbours along the snake; others:
 *            routes X then Y without wrap links, except a 2D ring over a
 *            whole row or column, which uses the torus wrap link); the 2D
 *            ring's rows and columns share one out PCT (W 4.5.3.3 "a
 *            single additional PCT"), re-pointed from the row to the
 *            column once its last row word has left (iwarp_pct_repoint:
 *            the drain, then iwarp.pct_config; design s.6.4) and back to
 *            the row after the barrier, outside the timed region
 *   dep      a 4-byte deposit into the partner's barrier buffer; receive =
 *            iwarp_dep_wait on that buffer's arrival counter
 *   rts      iwarp_rts_send / iwarp_rts_recv on the runtime system's ring
 *
 * Members: the first N cells of the rectangle list 2x2, 4x2, 4x4, 8x4,
 * 8x8 (W columns x H rows at the array's corner); ring order is the snake
 * (row 0 left to right, rows 1..H-1 boustrophedon over columns 1..W-1,
 * back up column 0); cube and tree index a member as y W + x.  Each
 * barrier begins with app.barrier_startup; each loop stage costs
 * app.barrier_loop (a 2D stage as a 1D one: its messages are the same
 * one-word gate transfers over one-hop connections; design s.6.4).
 *
 * A run: every member waits until a common virtual time t0, the straggler
 * (the last cell of the snake) D clocks more, all enter; each records its
 * exit time; the exit times are gathered on cell 0 through the SRU.
 * Printed per (scheme, signal, N, straggler): time = last exit - last
 * entry, the Figure 4.19 prediction (parallel column for pct and dep,
 * sequential for rts; message times app.barrier_mt_*), the error, and the
 * skew = last exit - first exit.  A PCT configuration that needs more PCTs
 * in some cell than it has is reported and skipped.
 *
 * usage: iwarp_barrier --mce-nodes=64 --scheme=token2x|ring1d|ring2d|cube|
 *        tree --signal=pct|dep|rts [--cells=4,8,16,32,64] [--runs=R]
 *        [--straggler=D] [--format=table|csv|json]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iwarp.h>

#include "iwapp.h"
#include "opts.h"

#define PROG "iwarp_barrier"

enum { TOKEN2X, RING1D, RING2D, CUBE, TREE };
static const char *const schemes[] = {"token2x", "ring1d", "ring2d", "cube",
                                      "tree"};
enum { PCT, DEP, RTS };
static const char *const signals[] = {"pct", "dep", "rts"};

#define MAXC     64   /* members */
#define MAXCELLS 1024 /* the array */
#define MAXCON   512  /* connections of one configuration */
#define NTAG     8    /* buffers / message types: dims 0..6, broadcast 7 */
#define TAG_BC   7
#define GAP      1500 /* clocks between two gathered SRU words */

static int scheme = -1, signal_ = -1;
static int aw, ah;      /* the array */
static int rw, rh, n;   /* the rectangle of members */
static int snake[MAXC]; /* ring position -> cell */
static int me = -1;     /* my cell */
static int ri = -1;     /* my ring position (-1: not a member) */
static int mi = -1;     /* my row-major index y rw + x */
static long startup, loop_;
static int64_t clock_ps, mt_ps[3];
static int npcts;

static iwapp_conn_t *con; /* this cell's, MAXCON (iwapp_conn_table) */
static iwapp_conns_t cs;  /* the PCT configuration */
static int wgate[2] = {-1, -1}, rgate[2] = {-1, -1}; /* bound PCTs */
static int outdim; /* ring2d: the dimension the shared out PCT serves */

/* Dry run: the barrier's first peer per gate slot (out, in), so that the
 * gates are bound before the timed region. */
static int dry, first_peer[2][2];

static int dep_h[NTAG];
static unsigned dep_exp[NTAG];
static uint32_t dep_buf[NTAG];

static int cell_of(int x, int y)
{
    return y * aw + x;
}

static int member_cell(int idx) /* row-major index -> cell */
{
    return cell_of(idx % rw, idx / rw);
}

/* ---- PCT connections ------------------------------------------------- */

static void build_conns(void)
{
    cs.n = 0;
    switch (scheme) {
    case TOKEN2X:
    case RING1D:
        for (int k = 0; k < n; k++)
            iwapp_conn_straight(&cs, snake[k], snake[(k + 1) % n]);
        break;
    case RING2D:
        for (int y = 0; y < rh; y++)
            for (int x = 0; x < rw; x++)
                iwapp_conn_ring_edge(&cs, cell_of(x, y), x, rw, rw == aw, IW_XP,
                                     IW_XM);
        for (int y = 0; y < rh; y++)
            for (int x = 0; x < rw; x++) {
                iwapp_conn_ring_edge(&cs, cell_of(x, y), y, rh, rh == ah, IW_YP,
                                     IW_YM);
                /* the column's source PCT is the row's (same cell) */
                con[cs.n - 1].share = y * rw + x;
            }
        break;
    case CUBE:
        for (int j = 0; j < iwapp_log2(n); j++)
            for (int i = 0; i < n; i++)
                iwapp_conn_straight(&cs, member_cell(i),
                                    member_cell(i ^ (1 << j)));
        break;
    default: /* tree: child -> parent, then parent -> child */
        for (int j = 0; j < iwapp_log2(n); j++)
            for (int i = 0; i < n; i += 2 << j)
                if (i + (1 << j) < n) {
                    iwapp_conn_straight(&cs, member_cell(i + (1 << j)),
                                        member_cell(i));
                    iwapp_conn_straight(&cs, member_cell(i),
                                        member_cell(i + (1 << j)));
                }
        break;
    }
}

/* The PCT of my connection to (out) or from (in) @p peer; for the 2D
 * ring, @p dim picks the row (0) or column (1) connection. */
static int conn_pct(int peer, int out, int dim)
{
    int from = scheme == RING2D ? dim * n : 0;
    int to = scheme == RING2D ? from + n : cs.n;
    for (int c = from; c < to; c++) {
        if (out && con[c].src == me && con[c].dst == peer)
            return con[c].pct[0];
        if (!out && con[c].dst == me && con[c].src == peer)
            return con[c].pct[con[c].hops];
    }
    fprintf(stderr, "%s: no connection between cells %d and %d\n", PROG, me,
            peer);
    exit(1);
}

/* ring2d: point my shared out PCT at the row (@p dim 0) or column (1)
 * connection, if it serves the other one. */
static void point_out(int dim)
{
    if (outdim == dim)
        return;
    iwapp_conn_repoint(&cs, dim * n + mi);
    outdim = dim;
}

/* Bind gate slot @p g (W0/R0 or W1/R1) to @p pct, rebinding if needed. */
static void bind(int write, int g, int pct)
{
    int *cur = write ? &wgate[g] : &rgate[g];
    int gate = write ? IW_W0 + g : IW_R0 + g;
    if (*cur == pct)
        return;
    if (*cur >= 0)
        iwapp_check(PROG, iwarp_gate_unbind(gate), "iwarp_gate_unbind");
    iwapp_check(PROG, iwarp_gate_bind(gate, pct), "iwarp_gate_bind");
    *cur = pct;
}

static void unbind_all(void)
{
    for (int g = 0; g < 2; g++) {
        if (wgate[g] >= 0)
            iwapp_check(PROG, iwarp_gate_unbind(IW_W0 + g),
                        "iwarp_gate_unbind");
        if (rgate[g] >= 0)
            iwapp_check(PROG, iwarp_gate_unbind(IW_R0 + g),
                        "iwarp_gate_unbind");
        wgate[g] = rgate[g] = -1;
    }
}

/* ---- send / receive over the chosen signalling -------------------------- */

static void bsend(int peer, int tag)
{
    uint32_t w = (uint32_t)(tag + 1);
    if (dry) {
        if (first_peer[1][0] < 0)
            first_peer[1][0] = peer;
        return;
    }
    if (signal_ == PCT) {
        /* one write gate: the 2D ring's out PCT is shared (point_out) */
        bind(1, 0, conn_pct(peer, 1, scheme == RING2D ? tag : 0));
        iwapp_check(PROG, iwarp_gate_write(IW_W0, w), "iwarp_gate_write");
    } else if (signal_ == DEP) {
        iwapp_check(PROG, iwarp_dep_send(peer, dep_h[tag], 0, &w, 4),
                    "iwarp_dep_send");
    } else {
        iwapp_check(PROG, iwarp_rts_send(peer, 100 + tag, &w, 4),
                    "iwarp_rts_send");
    }
}

static void brecv(int peer, int tag)
{
    uint32_t w = 0;
    if (dry) {
        int g = scheme == RING2D ? tag : 0;
        if (first_peer[0][g] < 0)
            first_peer[0][g] = peer;
        return;
    }
    if (signal_ == PCT) {
        int g = scheme == RING2D ? tag : 0;
        bind(0, g, conn_pct(peer, 0, g));
        iwapp_check(PROG, iwarp_gate_read(IW_R0 + g, &w), "iwarp_gate_read");
    } else if (signal_ == DEP) {
        iwapp_check(PROG, iwarp_dep_wait(dep_h[tag], ++dep_exp[tag], 0),
                    "iwarp_dep_wait");
        w = dep_buf[tag];
    } else {
        int src = peer, type = 100 + tag;
        size_t len;
        iwapp_check(PROG, iwarp_rts_recv(&src, &type, &w, sizeof(w), &len),
                    "iwarp_rts_recv");
    }
    if (w != (uint32_t)(tag + 1)) {
        fprintf(stderr, "%s: cell %d received %u from cell %d, want %d\n", PROG,
                me, (unsigned)w, peer, tag + 1);
        exit(1);
    }
}

/* ---- the barriers -------------------------------------------------------- */

static void compute(long clocks)
{
    if (!dry)
        iwarp_compute((unsigned long)clocks);
}

static void ring(int len, int down, int up, int tag, long stage)
{
    for (int s = 0; s < len - 1; s++) {
        compute(stage);
        bsend(down, tag);
        brecv(up, tag);
    }
}

static void barrier(void)
{
    int x = me % aw, y = me / aw, lg = iwapp_log2(n);
    compute(startup);
    switch (scheme) {
    case TOKEN2X: {
        int down = snake[(ri + 1) % n], up = snake[(ri + n - 1) % n];
        if (ri == 0) {
            bsend(down, 0);
            brecv(up, 0);
            bsend(down, 0);
            brecv(up, 0);
        } else {
            brecv(up, 0);
            bsend(down, 0);
            brecv(up, 0);
            bsend(down, 0);
        }
        break;
    }
    case RING1D:
        ring(n, snake[(ri + 1) % n], snake[(ri + n - 1) % n], 0, loop_);
        break;
    case RING2D:
        ring(rw, cell_of((x + 1) % rw, y), cell_of((x + rw - 1) % rw, y), 0,
             loop_);
        if (signal_ == PCT && !dry)
            point_out(1); /* the last row word has left: on to the column */
        ring(rh, cell_of(x, (y + 1) % rh), cell_of(x, (y + rh - 1) % rh), 1,
             loop_);
        break;
    case CUBE:
        for (int j = 0; j < lg; j++) {
            int p = member_cell(mi ^ (1 << j));
            compute(loop_);
            bsend(p, j);
            brecv(p, j);
        }
        break;
    default: { /* tree */
        int j, top = lg;
        for (j = 0; j < lg; j++) {
            compute(loop_);
            if (mi & (1 << j)) {
                bsend(member_cell(mi - (1 << j)), j);
                top = j;
                break;
            }
            if (mi + (1 << j) < n)
                brecv(member_cell(mi + (1 << j)), j);
        }
        if (top < lg)
            brecv(member_cell(mi - (1 << top)), TAG_BC);
        for (j = top - 1; j >= 0; j--)
            if (mi + (1 << j) < n) {
                compute(loop_);
                bsend(member_cell(mi + (1 << j)), TAG_BC);
            }
        break;
    }
    }
}

/* Message times of Figure 4.19 for the prediction (parallel or
 * sequential), in message times. */
static int64_t mtimes(int seq)
{
    int lg = iwapp_log2(n);
    switch (scheme) {
    case TOKEN2X:
        return 2 * n;
    case RING1D:
        return seq ? (int64_t)n * (n - 1) : n - 1;
    case RING2D:
        return seq ? (int64_t)n * (rw + rh - 2) : rw - 1 + rh - 1;
    case CUBE:
        return seq ? (int64_t)n * lg : lg;
    default:
        return seq ? 2 * n : 2 * lg;
    }
}

static const int rects[][3] = {
    {4, 2, 2}, {8, 4, 2}, {16, 4, 4}, {32, 8, 4}, {64, 8, 8}};

int main(int argc, char **argv)
{
    long list[8] = {4, 8, 16, 32, 64}, delay = 2000;
    int nlist = 5, runs = 1, cell, cx, cy;
    unsigned long long t0 = 2000;
    aw = iwarp_width();
    ah = iwarp_height();
    cs = (iwapp_conns_t){.cap = MAXCON, .aw = aw, .ah = ah, .prog = PROG};
    me = cell = iwarp_cell();
    iwarp_coords(&cx, &cy);
    long lruns = 1;
    const app_opt_t opts[] = {
        {"scheme", APPO_CHOICE, &scheme, NULL, 0, 0,
         "token2x|ring1d|ring2d|cube|tree", NULL,
         "the barrier algorithm (W 4.3.2; required)"},
        {"signal", APPO_CHOICE, &signal_, NULL, 0, 0, "pct|dep|rts", NULL,
         "the physical signalling (required)"},
        {"cells", APPO_LIST, list, &nlist, 8, 4, NULL, "A,B,...",
         "member counts: 4, 8, 16, 32, 64 (default all)"},
        {"runs", APPO_LONG, &lruns, NULL, 0, 1, NULL, "R",
         "runs per entry (default 1)"},
        {"straggler", APPO_LONG, &delay, NULL, 0, 0, NULL, "D",
         "the second row's straggler delay, 0 .. 1000000 clocks (default "
         "2000)"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc = app_parse(PROG,
                        "Chapter 4 barriers on the iWarp (Warfel 1996, 4.3.2 "
                        "and 4.5, Figure 4.19): time from the last entry to "
                        "the last exit, against the figure's prediction.",
                        "--mce-nodes=64 --scheme=token2x|ring1d|ring2d|cube|"
                        "tree --signal=pct|dep|rts [--cells=4,8,16,32,64] "
                        "[--runs=R] [--straggler=D] [--format=table|csv|json]",
                        argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    if (delay > 1000000)
        iwapp_die(PROG, "--straggler: a delay of 0 .. 1000000 clocks");
    runs = lruns > 1000000 ? 1000000 : (int)lruns;
    if (aw * ah > MAXCELLS)
        iwapp_die(PROG, "the array has more than 1024 cells");
    if (scheme < 0 || signal_ < 0)
        iwapp_die(PROG, "--scheme and --signal are required");
    for (int k = 0; k < nlist; k++) {
        int ok = 0;
        for (int r = 0; r < 5; r++)
            ok |= list[k] == rects[r][0] && rects[r][1] <= aw &&
                  rects[r][2] <= ah;
        if (!ok)
            iwapp_die(PROG, "--cells: 4, 8, 16, 32 or 64 (2x2, 4x2, 4x4, "
                            "8x4, 8x8 at the array's corner)");
    }
    startup = iwapp_param(PROG, "app.barrier_startup");
    loop_ = iwapp_param(PROG, "app.barrier_loop");
    clock_ps = iwapp_param(PROG, "iwarp.clock");
    mt_ps[PCT] = iwapp_param(PROG, "app.barrier_mt_pct");
    mt_ps[DEP] = iwapp_param(PROG, "app.barrier_mt_dep");
    mt_ps[RTS] = iwapp_param(PROG, "app.barrier_mt_rts");
    npcts = (int)iwapp_param(PROG, "iwarp.pcts");
    if (clock_ps <= 0)
        iwapp_die(PROG, "iwarp.clock must be positive");
    /* once the options and keys are checked: a refusal exits with nothing
     * allocated */
    cs.con = con = iwapp_conn_table(PROG, MAXCON);
    if (signal_ == DEP) {
        iwapp_check(PROG, iwarp_dep_init(), "iwarp_dep_init");
        for (int t = 0; t < NTAG; t++)
            iwapp_check(PROG, dep_h[t] = iwarp_dep_buffer(&dep_buf[t], 4),
                        "iwarp_dep_buffer");
    }

    for (int k = 0; k < nlist; k++) {
        int worst = 0, need;
        int64_t seqmt;
        unsigned long long bound;
        for (int r = 0; r < 5; r++)
            if (list[k] == rects[r][0]) {
                rw = rects[r][1];
                rh = rects[r][2];
            }
        n = rw * rh;
        iwapp_snake(aw, rw, rh, snake);
        ri = mi = -1;
        if (cx < rw && cy < rh) {
            mi = cy * rw + cx;
            for (int p = 0; p < n; p++)
                if (snake[p] == cell)
                    ri = p;
        }
        if (signal_ == PCT) {
            build_conns();
            need = iwapp_conn_pcts(&cs, 0, &worst);
            if (need > npcts) {
                if (cell == 0)
                    app_note("%s: scheme=%s signal=%s cells=%d not "
                             "configurable: cell (%d,%d) needs %d PCTs (a "
                             "cell has %d)\n",
                             PROG, schemes[scheme], signals[signal_], n,
                             worst % aw, worst / aw, need, npcts);
                continue;
            }
            iwapp_conn_configure(&cs, me, 0);
            outdim = 0;
            /* bind the gates the barrier uses first (untimed) */
            dry = 1;
            memset(first_peer, -1, sizeof(first_peer));
            if (ri >= 0)
                barrier();
            dry = 0;
            for (int g = 0; g < 2; g++) {
                if (first_peer[1][g] >= 0)
                    bind(1, g, conn_pct(first_peer[1][g], 1, g));
                if (first_peer[0][g] >= 0)
                    bind(0, g, conn_pct(first_peer[0][g], 0, g));
            }
        }
        /* the run's span: four times the fully sequential prediction */
        seqmt = mtimes(1) * ((mt_ps[signal_] + clock_ps - 1) / clock_ps);
        bound = 4ull * (unsigned long long)(startup + seqmt) + 20000ull;
        for (int s = 0; s < 2; s++) {
            unsigned long long d = s ? (unsigned long long)delay : 0;
            unsigned long long sum = 0, sumskew = 0;
            for (int r = 0; r < runs; r++) {
                unsigned long long t1, tout = 0;
                t0 += 1000; /* after the configurations */
                t1 = t0 + d + bound;
                if (ri >= 0) {
                    iwarp_align(t0 + (ri == n - 1 ? d : 0));
                    barrier();
                    tout = iwarp_vtime();
                    if (tout >= t1 + GAP * (unsigned long long)ri) {
                        fprintf(stderr,
                                "%s: cell (%d,%d) left the barrier after "
                                "its gather slot\n",
                                PROG, cx, cy);
                        exit(1);
                    }
                    /* the 2D ring's out PCT back to the row (untimed) */
                    if (scheme == RING2D && signal_ == PCT)
                        point_out(0);
                    iwarp_align(t1 + GAP * (unsigned long long)ri);
                    iwapp_check(PROG,
                                iwarp_sru_broadcast((uint32_t)(tout - t0 + 1)),
                                "iwarp_sru_broadcast");
                }
                if (cell == 0) {
                    unsigned long long hi = 0, lo = ~0ull;
                    for (int c = 0; c < n; c++) {
                        uint32_t w;
                        int jam;
                        iwapp_check(PROG, iwarp_sru_recv(&w, &jam),
                                    "iwarp_sru_recv");
                        if (jam || w == 0) {
                            fprintf(stderr, "%s: gather failed\n", PROG);
                            exit(1);
                        }
                        if (w - 1 > hi)
                            hi = w - 1;
                        if (w - 1 < lo)
                            lo = w - 1;
                    }
                    sum += hi - d;
                    sumskew += hi - lo;
                }
                t0 = t1 + GAP * (unsigned long long)n + 2000;
                iwarp_align(t0);
            }
            if (cell == 0) {
                int seq = signal_ == RTS;
                int64_t p10 =
                    (startup * clock_ps + mtimes(seq) * mt_ps[signal_]) * 10 /
                    clock_ps;
                int64_t e10 =
                    (int64_t)(sum * 10 / (unsigned long long)runs) - p10;
                app_row("iwarp_barrier",
                        APP_FIELDS(
                            APP_S("scheme", schemes[scheme]),
                            APP_S("signal", signals[signal_]),
                            APP_I("cells", n), APP_U("straggler", d),
                            APP_U("time", sum / (unsigned long long)runs),
                            APP_F("predicted", (double)p10 / 10.0),
                            APP_F("error", (double)e10 / 10.0),
                            APP_U("skew", sumskew / (unsigned long long)runs),
                            APP_S("column", seq ? "sequential" : "parallel"),
                            APP_I("runs", runs)),
                        "%s: scheme=%s signal=%s cells=%d straggler=%llu "
                        "time=%llu predicted=%lld.%lld error=%s%lld.%lld "
                        "skew=%llu column=%s runs=%d\n",
                        PROG, schemes[scheme], signals[signal_], n, d,
                        sum / (unsigned long long)runs, (long long)(p10 / 10),
                        (long long)(p10 % 10), e10 < 0 ? "-" : "",
                        (long long)((e10 < 0 ? -e10 : e10) / 10),
                        (long long)((e10 < 0 ? -e10 : e10) % 10),
                        sumskew / (unsigned long long)runs,
                        seq ? "sequential" : "parallel", runs);
            }
        }
        if (signal_ == PCT) {
            unbind_all();
            iwapp_conn_configure(&cs, me, 1);
        }
    }
    free(con);
    if (cell == 0)
        app_finish();
    return 0;
}
