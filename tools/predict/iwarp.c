/* mce-predict, Warfel 1996 (iWarp): PCT and deposit message times
 * (Figures 3.7-3.11) and the barriers of Figure 4.19. */
#include "predict.h"

/* ---- iWarp, Warfel 1996 -------------------------------------- */

/* Figures 3.7/3.8 "(predict)" row as printed (both figures print the same
 * one): sizes 4..16384 bytes by distance 1..7 cells. */
static const int iw_sizes[7] = {4, 16, 64, 256, 1024, 4096, 16384};
static const int iw_printed[7][7] = {
    {43, 48, 53, 58, 63, 68, 73},
    {49, 54, 59, 64, 69, 74, 79},
    {73, 78, 83, 88, 93, 98, 103},
    {169, 174, 179, 184, 189, 194, 199},
    {553, 558, 563, 568, 573, 578, 583},
    {2091, 2096, 2101, 2106, 2111, 2116, 2121},
    {8241, 8246, 8251, 8256, 8261, 8266, 8271}};

/* W 3.2.1: (Send_Overhead + Recv_Overhead) + Msg_size / Network_BW + Dist x
 * cost_per_cell_hop = 36 + bytes / 1.998 + 5 d clocks, floored as the
 * figures print it; value to 3 decimals (truncated). */
/* One row of the per-hop cost: (overhead x 1998 + bytes x 1000 + d x 9990)
 * / 1998 clocks; the deposit rows also print their overhead. */
static void iw_hop_line(int64_t bytes, int64_t d, int64_t o, int show_o,
                        int printed)
{
    int64_t num = add(add(mul(o, 1998), mul(bytes, 1000)), mul(d, 9990));
    int64_t milli = mul(num, 1000) / 1998;
    kv_i("bytes", bytes);
    kv_i("dist", d);
    if (show_o)
        kv_i("overhead", o);
    key("value_clocks");
    printf("%" PRId64 ".%03" PRId64, milli / 1000, milli % 1000);
    kv_i("predicted_clocks", num / 1998);
    if (printed >= 0) {
        kv_i("printed", printed);
        kv_s("match", printed == num / 1998 ? "yes" : "no");
    }
    kv_end();
}

static void iw_pct_line(int64_t bytes, int64_t d, int printed)
{
    iw_hop_line(bytes, d, 36, 0, printed);
}

void cmd_iwarp_pct(int argc, char **argv)
{
    struct opts o = {{"bytes", "dist", "table", NULL}, {0}};
    parse_opts(argc, argv, &o, NULL);
    if (opt_get(&o, "table")) {
        for (int i = 0; i < 7; i++)
            for (int d = 1; d <= 7; d++)
                iw_pct_line(iw_sizes[i], d, iw_printed[i][d - 1]);
        return;
    }
    iw_pct_line(opt_int(&o, "bytes", 0, INT64_MAX / 4000, 0, 1),
                opt_int(&o, "dist", 0, INT64_MAX / 40000, 0, 1), -1);
}

/* Figures 3.10/3.11 "(predict)" row as printed (both figures print the
 * same one): (Send_overhead + Recv_overhead) + bytes / 1.998 + 5 d with
 * overhead 253 for 4 bytes and 359 (W 6.2.1's Msg_Send_Time) above
 * (doc/design/iwarp-tcs.md 4.2), floored. */
static const int iw_dep_printed[7][7] = {
    {260, 265, 270, 275, 280, 285, 290},
    {372, 377, 382, 387, 392, 397, 402},
    {396, 401, 406, 411, 416, 421, 426},
    {492, 497, 502, 507, 512, 517, 522},
    {876, 881, 886, 891, 896, 901, 906},
    {2414, 2419, 2424, 2429, 2434, 2439, 2444},
    {8564, 8569, 8574, 8579, 8584, 8589, 8594}};

static void iw_dep_line(int64_t bytes, int64_t d, int printed)
{
    iw_hop_line(bytes, d, bytes <= 4 ? 253 : 359, 1, printed);
}

void cmd_iwarp_deposit(int argc, char **argv)
{
    struct opts o = {{"bytes", "dist", "table", NULL}, {0}};
    parse_opts(argc, argv, &o, NULL);
    if (opt_get(&o, "table")) {
        for (int i = 0; i < 7; i++)
            for (int d = 1; d <= 7; d++)
                iw_dep_line(iw_sizes[i], d, iw_dep_printed[i][d - 1]);
        return;
    }
    iw_dep_line(opt_int(&o, "bytes", 0, INT64_MAX / 4000, 0, 1),
                opt_int(&o, "dist", 0, INT64_MAX / 40000, 0, 1), -1);
}

/* Figure 4.19 (W 4.5.2): barrier execution time = startup + k x
 * message_time, k the message times of the scheme with fully parallel or
 * fully sequential messaging; startup 40, message_time 11.5 (PCT), 260
 * (deposit), 28 340 (RTS) clocks [S W 4.5.2].  The 2D rings (W 4.3.2.2.1.4,
 * W columns x H rows) as a fifth row.  Arithmetic in tenths of a clock. */
void cmd_iwarp_barrier(int argc, char **argv)
{
    static const char *const schemes[] = {"ring1d", "cube",   "token2x",
                                          "tree",   "ring2d", NULL};
    static const char *const signals[] = {"pct", "dep", "rts", NULL};
    static const int64_t mt10[] = {115, 2600, 283400};
    struct opts o = {{"scheme", "signal", "n", "seq", NULL}, {0}};
    int scheme, signal, lg = 0, seq;
    int64_t n, w, h, par, sq, msgs, startup10 = 400, v;
    parse_opts(argc, argv, &o, NULL);
    scheme = opt_choice(&o, "scheme", schemes, -1);
    signal = opt_choice(&o, "signal", signals, -1);
    n = opt_int(&o, "n", 2, 1 << 20, 0, 1);
    seq = (int)opt_int(&o, "seq", 0, 1, signal == 2, 0);
    while (((int64_t)1 << lg) < n)
        lg++;
    if (scheme != 0 && scheme != 2 && ((int64_t)1 << lg) != n)
        die("--n: the %s scheme needs a power of two", schemes[scheme]);
    w = (int64_t)1 << ((lg + 1) / 2); /* 2x2, 4x2, 4x4, 8x4, 8x8, ... */
    h = n / w;
    switch (scheme) {
    case 0: /* 1D ring, (N-1) send/receives */
        msgs = n * (n - 1), par = n - 1, sq = n * (n - 1);
        break;
    case 1: /* fully-embedded hypercube, handshakes on each dimension */
        msgs = n * lg, par = lg, sq = n * lg;
        break;
    case 2: /* 1D ring, token 2x around */
        msgs = 2 * n, par = 2 * n, sq = 2 * n;
        break;
    case 3: /* fully-embedded reduction / broadcast tree */
        msgs = 2 * (n - 1), par = 2 * lg, sq = 2 * n;
        break;
    default: /* 2D rings: (N-1) send/recv over the rows, then the columns */
        msgs = n * (w + h - 2), par = w - 1 + h - 1, sq = n * (w + h - 2);
        break;
    }
    kv_s("scheme", schemes[scheme]);
    kv_s("signal", signals[signal]);
    kv_i("n", n);
    if (scheme == 4) {
        kv_i("w", w);
        kv_i("h", h);
    }
    kv_i("messages", msgs);
    key("message_time");
    printf("%" PRId64 ".%" PRId64, mt10[signal] / 10, mt10[signal] % 10);
    v = add(startup10, mul(par, mt10[signal]));
    key("parallel_clocks");
    printf("%" PRId64 ".%" PRId64, v / 10, v % 10);
    v = add(startup10, mul(sq, mt10[signal]));
    key("sequential_clocks");
    printf("%" PRId64 ".%" PRId64, v / 10, v % 10);
    v = add(startup10, mul(seq ? sq : par, mt10[signal]));
    key("predicted_clocks");
    printf("%" PRId64 ".%" PRId64, v / 10, v % 10);
    kv_s("column", seq ? "sequential" : "parallel");
    kv_end();
}
