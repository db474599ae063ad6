/* tcs_primitives: the four TCS control primitives of Warfel 1996, chapter
 * 5 (barrier, connection-set reconfiguration, task start, task end), run
 * by the TCS run time (include/tcs.h; doc/design/iwarp-tcs.md, s.8.4 and
 * 10.4) on the 8 x 8 array.
 *
 *   whole      the whole array, 2D barrier rings (W Figure 5.2), two
 *              netgroups of one connection each
 *     soloN    N cells (2x1, 2x2, 4x2, 4x4, 8x4, 8x8 at the corner), 1D
 *              rings (the 64-cell one declared TCS_RING1D: Figure 5.1),
 *              two netgroups
 *     leftN, rightN  the two halves of the same rectangle, joined by an
 *              external connection of 'whole' (leftN.out -> rightN.in):
 *              a connected component of N cells (Figures 5.3, 5.4)
 *
 * Every measurement starts on all its cells at one virtual time t0
 * (iwarp_align): the barrier (tcs_barrier) and the reconfiguration
 * (tcs_switch) of soloN and of whole; the task start (t0 -> the child's
 * code begins) and the task end (every cell's child code returns at t1 ->
 * the parent's code resumes) of leftN/rightN.  The time of a primitive is
 * the last cell's; the cells' times are gathered on cell 0 through the
 * SRU.  Printed with the chapter-5 predictions: with Figure 4.19's PCT
 * barrier (40 + (N-1) 11.5, 2D: 40 + 14 x 11.5) and with the emulated
 * barrier time of the same ring (W uses its measured reconfiguration for
 * the task start prediction, so does the "emu" column).
 *
 * usage: tcs_primitives --mce-nodes=64 [--cells=2,4,8,16,32,64] [--no-2d]
 *        [--format=table|csv|json]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tcs.h>

#include "../iwarp/iwapp.h"
#include "opts.h"

#define PROG   "tcs_primitives"
#define NSIZES 6
#define GAP    1500ull   /* clocks between two gathered SRU words */
#define SLOT   140000ull /* clocks per measurement (gather included) */
#define MAXC   1024

static const int sizes[NSIZES][3] = {{2, 2, 1},  {4, 2, 2},  {8, 4, 2},
                                     {16, 4, 4}, {32, 8, 4}, {64, 8, 8}};

static tcs_task_t t_whole, t_solo[NSIZES], t_left[NSIZES], t_right[NSIZES];
static tcs_ng_t ng_whole[2], ng_solo[NSIZES][2];

/* Per-cell results (the cells of a process share this file's statics). */
static unsigned long long t_entry[MAXC];

typedef struct params {
    unsigned long long t0; /* the measurement's start */
    int size;              /* index in sizes */
} params_t;

static long param(const char *key)
{
    int64_t v;
    char msg[160];
    if (mce_machine_param(key, &v) == 0)
        return (long)v;
    snprintf(msg, sizeof(msg), "the machine file has no key '%s'", key);
    iwapp_die(PROG, msg);
}

static void check(int rc, const char *what)
{
    iwapp_check(PROG, rc, what);
}

/* ---- gathering on cell 0 through the SRU ------------------------------- */

/* Member @p idx (or -1) of @p n sends @p v (< 2^31) at tg + GAP idx; cell
 * 0 (member 0) returns the maxima of the two 16-bit halves of the words. */
static unsigned gather(int n, int idx, unsigned v, unsigned long long tg)
{
    unsigned hi = 0, lo = 0;
    if (idx >= 0) {
        if (iwarp_vtime() >= tg + GAP * (unsigned long long)idx) {
            fprintf(stderr, "%s: cell %d missed its gather slot\n", PROG,
                    iwarp_cell());
            exit(1);
        }
        iwarp_align(tg + GAP * (unsigned long long)idx);
        check(iwarp_sru_broadcast(v + 1), "iwarp_sru_broadcast");
    }
    if (iwarp_cell() != 0)
        return 0;
    for (int c = 0; c < n; c++) {
        uint32_t w;
        int jam;
        check(iwarp_sru_recv(&w, &jam), "iwarp_sru_recv");
        if (jam || w == 0) {
            fprintf(stderr, "%s: gather failed\n", PROG);
            exit(1);
        }
        w--;
        if ((w >> 16) > hi)
            hi = w >> 16;
        if ((w & 0xffff) > lo)
            lo = w & 0xffff;
    }
    return hi << 16 | lo;
}

static unsigned long long since(unsigned long long t0)
{
    unsigned long long t = iwarp_vtime() - t0;
    if (t > 0xffff) {
        fprintf(stderr, "%s: a primitive took %llu clocks\n", PROG, t);
        exit(1);
    }
    return t;
}

/* ---- predictions (tenths of a clock) ------------------------------------ */

static long long b419_10(int n, int ring2d) /* Figure 4.19, PCT */
{
    long long mt10 = param("app.barrier_mt_pct") * 10 / param("iwarp.clock");
    long long msgs = ring2d ? 7 + 7 : n - 1;
    return param("tcs.barrier_startup") * 10 + msgs * mt10;
}

static long long reconfig10(long long barrier10) /* W s.5.2.1 */
{
    return param("tcs.switch") * 10 +
           3 * (param("tcs.barrier_lookup") * 10 + barrier10);
}

/* Appends " label=V.V" (tenths of a clock) to @p buf. */
static void pr10(char *buf, size_t size, const char *label, long long v10)
{
    size_t len = strlen(buf);
    snprintf(buf + len, size - len, " %s=%lld.%lld", label, v10 / 10, v10 % 10);
}

/* Appends " label=V" to @p buf. */
static void pru(char *buf, size_t size, const char *label, unsigned long long v)
{
    size_t len = strlen(buf);
    snprintf(buf + len, size - len, " %s=%llu", label, v);
}

/* ---- the tasks ------------------------------------------------------------
 */

static unsigned long long r_barrier[NSIZES + 1], r_reconfig[NSIZES + 1];

/* soloN: a barrier and a reconfiguration, from t0 + 6000 and t0 + 9000
 * (the first switch, at t0 + 1000, sets the netgroup up).  The barrier
 * time is the tcs_barrier call's less its lookup (W's barrier_time). */
static void solo(tcs_ctx_t *ctx, const void *p)
{
    const params_t *q = p;
    unsigned long long t0 = q->t0, b, r;
    unsigned v;
    int s = q->size, n = sizes[s][0];
    iwarp_align(t0 + 1000);
    check(tcs_switch(ctx, ng_solo[s][0]), "tcs_switch");
    iwarp_align(t0 + 6000);
    check(tcs_barrier(ctx), "tcs_barrier");
    b = since(t0 + 6000) - (unsigned long long)param("tcs.barrier_lookup");
    iwarp_align(t0 + 9000);
    check(tcs_switch(ctx, ng_solo[s][1]), "tcs_switch");
    r = since(t0 + 9000);
    v = gather(n, tcs_rank(ctx), (unsigned)(b << 16 | r), t0 + 20000);
    if (iwarp_cell() == 0) {
        r_barrier[s] = v >> 16;
        r_reconfig[s] = v & 0xffff;
    }
}

/* leftN / rightN: record when the code begins, end at t0 + 8000. */
static void child(tcs_ctx_t *ctx, const void *p)
{
    const params_t *q = p;
    (void)ctx;
    t_entry[iwarp_cell()] = iwarp_vtime();
    iwarp_align(q->t0 + 8000);
}

static int opt_2d = 1, nlist = NSIZES, list[NSIZES] = {0, 1, 2, 3, 4, 5};

static void print_1d(int s, unsigned start, unsigned end)
{
    int n = sizes[s][0];
    long long b10 = (long long)r_barrier[s] * 10;
    long long rc10 = (long long)r_reconfig[s] * 10;
    long long bp = b419_10(n, 0), rp = reconfig10(bp), rpe = reconfig10(b10);
    long long sp = param("tcs.task_change") * 10 + rp;
    long long spe = param("tcs.task_change") * 10 + rc10;
    long long ep = bp + param("tcs.task_restore") * 10;
    long long epe = b10 + param("tcs.task_restore") * 10;
    char line[400];
    snprintf(line, sizeof(line), "%s: rings=1d cells=%d", PROG, n);
    pru(line, sizeof(line), "barrier", r_barrier[s]);
    pr10(line, sizeof(line), "predicted", bp);
    pru(line, sizeof(line), "reconfig", r_reconfig[s]);
    pr10(line, sizeof(line), "predicted", rp);
    pr10(line, sizeof(line), "predicted_emu", rpe);
    pru(line, sizeof(line), "start", start);
    pr10(line, sizeof(line), "predicted", sp);
    pr10(line, sizeof(line), "predicted_emu", spe);
    pru(line, sizeof(line), "end", end);
    pr10(line, sizeof(line), "predicted", ep);
    pr10(line, sizeof(line), "predicted_emu", epe);
    app_row("tcs_primitives",
            APP_FIELDS(APP_S("rings", "1d"), APP_I("cells", n),
                       APP_U("barrier", r_barrier[s]),
                       APP_F("barrier_predicted", bp / 10.0),
                       APP_U("reconfig", r_reconfig[s]),
                       APP_F("reconfig_predicted", rp / 10.0),
                       APP_F("reconfig_predicted_emu", rpe / 10.0),
                       APP_U("start", start),
                       APP_F("start_predicted", sp / 10.0),
                       APP_F("start_predicted_emu", spe / 10.0),
                       APP_U("end", end), APP_F("end_predicted", ep / 10.0),
                       APP_F("end_predicted_emu", epe / 10.0)),
            "%s\n", line);
}

static void whole(tcs_ctx_t *ctx, const void *p)
{
    unsigned long long t = 10000;
    int me = iwarp_cell(), x, y;
    (void)p;
    iwarp_coords(&x, &y);
    iwarp_align(t);
    check(tcs_switch(ctx, ng_whole[0]), "tcs_switch");
    t += 5000;
    if (opt_2d) {
        unsigned long long b, r;
        unsigned v;
        iwarp_align(t);
        check(tcs_barrier(ctx), "tcs_barrier");
        b = since(t) - (unsigned long long)param("tcs.barrier_lookup");
        iwarp_align(t + 3000);
        check(tcs_switch(ctx, ng_whole[1]), "tcs_switch");
        r = since(t + 3000);
        v = gather(64, tcs_rank(ctx), (unsigned)(b << 16 | r), t + 20000);
        if (me == 0) {
            long long bp = b419_10(64, 1), rp = reconfig10(bp);
            long long rpe = reconfig10((long long)(v >> 16) * 10);
            char line[200];
            snprintf(line, sizeof(line), "%s: rings=2d cells=64", PROG);
            pru(line, sizeof(line), "barrier", v >> 16);
            pr10(line, sizeof(line), "predicted", bp);
            pru(line, sizeof(line), "reconfig", v & 0xffff);
            pr10(line, sizeof(line), "predicted", rp);
            pr10(line, sizeof(line), "predicted_emu", rpe);
            app_row("tcs_primitives_2d",
                    APP_FIELDS(APP_S("rings", "2d"), APP_I("cells", 64),
                               APP_U("barrier", v >> 16),
                               APP_F("barrier_predicted", bp / 10.0),
                               APP_U("reconfig", v & 0xffff),
                               APP_F("reconfig_predicted", rp / 10.0),
                               APP_F("reconfig_predicted_emu", rpe / 10.0)),
                    "%s\n", line);
        }
        t += SLOT;
    }
    for (int k = 0; k < nlist; k++) {
        int s = list[k], w = sizes[s][1], h = sizes[s][2], n = sizes[s][0];
        int in = x < w && y < h, left = x < w / 2, idx = -1;
        params_t q = {t, s};
        unsigned v = 0;
        /* the reconfiguration of soloN (1D rings) */
        iwarp_align(t);
        if (in)
            check(tcs_start(ctx, t_solo[s], &q), "tcs_start");
        t += SLOT;
        /* start and end of the component leftN + rightN */
        q.t0 = t;
        iwarp_align(t);
        if (in) {
            unsigned long long st, en;
            check(tcs_start(ctx, left ? t_left[s] : t_right[s], &q),
                  "tcs_start");
            en = since(t + 8000);
            st = t_entry[me] - t;
            idx = left ? y * (w / 2) + x : n / 2 + y * (w / 2) + x - w / 2;
            v = (unsigned)(st << 16 | en);
        }
        v = gather(n, idx, v, t + 20000);
        if (me == 0)
            print_1d(s, v >> 16, v & 0xffff);
        t += SLOT;
    }
}

/* ---- declaration and main ---------------------------------------------------
 */

void tcs_declare(tcs_decl_t *d)
{
    char name[32];
    tcs_net_t a, b;
    t_whole = tcs_task(d, "whole", TCS_NONE, 0, 0, 8, 8, whole, 0, 0);
    a = tcs_network(d, t_whole, "wa");
    b = tcs_network(d, t_whole, "wb");
    tcs_connect(d, a, 0, "a", 1, "a", 0, 0);
    tcs_connect(d, b, 1, "b", 0, "b", 0, 0);
    ng_whole[0] = tcs_netgroup(d, t_whole, "ga", &a, 1);
    ng_whole[1] = tcs_netgroup(d, t_whole, "gb", &b, 1);
    for (int s = 0; s < NSIZES; s++) {
        int n = sizes[s][0], w = sizes[s][1], h = sizes[s][2];
        tcs_port_t out, in;
        snprintf(name, sizeof(name), "solo%d", n);
        t_solo[s] = tcs_task(d, name, t_whole, 0, 0, w, h, solo,
                             sizeof(params_t), n == 64 ? TCS_RING1D : 0);
        snprintf(name, sizeof(name), "sa%d", n);
        a = tcs_network(d, t_solo[s], name);
        snprintf(name, sizeof(name), "sb%d", n);
        b = tcs_network(d, t_solo[s], name);
        tcs_connect(d, a, 0, "a", 1, "a", 0, 0);
        tcs_connect(d, b, 1, "b", 0, "b", 0, 0);
        snprintf(name, sizeof(name), "ga%d", n);
        ng_solo[s][0] = tcs_netgroup(d, t_solo[s], name, &a, 1);
        snprintf(name, sizeof(name), "gb%d", n);
        ng_solo[s][1] = tcs_netgroup(d, t_solo[s], name, &b, 1);
        snprintf(name, sizeof(name), "left%d", n);
        t_left[s] = tcs_task(d, name, t_whole, 0, 0, w / 2, h, child,
                             sizeof(params_t), 0);
        snprintf(name, sizeof(name), "right%d", n);
        t_right[s] = tcs_task(d, name, t_whole, w / 2, 0, w / 2, h, child,
                              sizeof(params_t), 0);
        out = tcs_port(d, t_left[s], "out", 0, TCS_OUT);
        in = tcs_port(d, t_right[s], "in", 0, TCS_IN);
        tcs_external(d, t_whole, out, in, 0, 0);
    }
}

int main(int argc, char **argv)
{
    long v[NSIZES];
    int m = 0, no2d = 0;
    const app_opt_t opts[] = {
        {"cells", APPO_LIST, v, &m, NSIZES, 2, NULL, "A,B,...",
         "the 1D rows: cell counts 2, 4, 8, 16, 32, 64 (default all)"},
        {"no-2d", APPO_FLAG, &no2d, NULL, 0, 0, NULL, NULL,
         "leave out the whole array's 2D-ring row"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc = app_parse(PROG,
                        "The TCS control primitives of Warfel 1996, chapter 5 "
                        "(barrier, reconfiguration, task start, task end) "
                        "against the chapter's predictions, in clocks.",
                        "--mce-nodes=64 [--cells=2,4,8,16,32,64] [--no-2d] "
                        "[--format=table|csv|json]",
                        argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    opt_2d = !no2d;
    if (m > 0) {
        nlist = 0;
        for (int k = 0; k < m; k++) {
            int s = -1;
            for (int j = 0; j < NSIZES; j++)
                if (sizes[j][0] == v[k])
                    s = j;
            if (s < 0)
                iwapp_die(PROG, "--cells: 2, 4, 8, 16, 32 or 64");
            list[nlist++] = s;
        }
    }
    if (iwarp_width() != 8 || iwarp_height() != 8)
        iwapp_die(PROG, "needs the 8 x 8 array (--mce-nodes=64)");
    check(tcs_run(t_whole, NULL), "tcs_run");
    if (iwarp_cell() == 0)
        app_finish();
    return 0;
}
