/* mce-predict, Bokhari and Nicol 1996 (Paragon): Table 1, the complete
 * exchange steps of Table 2 and its predicted time. */
#include "predict.h"

/* Bokhari and Nicol 1996, Table 1. */
struct constant paragon[] = {
    {"sync_slope", C_TIME, 0, 271000000, "us/log2(nodes)",
     "Bokhari-Nicol-1996:Table_1"},
    {"sync_offset", C_TIME, 0, 1340000000, "us", "Bokhari-Nicol-1996:Table_1"},
    {"comm_fixed", C_TIME, 0, 2310000000, "us", "Bokhari-Nicol-1996:Table_1"},
    {"comm_per_byte", C_TIME, 0, 220000, "us/byte",
     "Bokhari-Nicol-1996:Table_1"},
    {"comm_min_m", C_COUNT, 0, 8640, "bytes", "Bokhari-Nicol-1996:Table_1"},
    {NULL, 0, 0, 0, NULL, NULL}};
enum { PSLOPE, POFF, PFIX, PPB, PMIN };

/* ---- Paragon (Bokhari and Nicol 1996)
 * ------------------------------------------------- */

#define MAX_SIDE 4096

/* 27.1 log2 N - 134, exact when N is a power of two; else log2 is
 * rounded to long double and the result to the nearest unit. */
static int64_t paragon_sync(int64_t nodes, int *exact, long double *lg)
{
    int64_t k = 0;
    while (((int64_t)1 << k) < nodes)
        k++;
    if (((int64_t)1 << k) == nodes) {
        *exact = 1;
        *lg = (long double)k;
        return sub(mul(k, C(paragon, PSLOPE)), C(paragon, POFF));
    }
    *exact = 0;
    *lg = log2l((long double)nodes);
    {
        long double v = (long double)C(paragon, PSLOPE) * *lg -
                        (long double)C(paragon, POFF);
        if (v > 9.2e18L || v < -9.2e18L)
            die("the inputs are too large: a result overflows 64 bits");
        return (int64_t)llroundl(v);
    }
}

/* The synchronisation term for `nodes`, then printed by kv_sync(). */
struct sync_term {
    int64_t v;
    int exact;
    long double lg;
};

static struct sync_term sync_term(int64_t nodes)
{
    struct sync_term t;
    t.v = paragon_sync(nodes, &t.exact, &t.lg);
    return t;
}

static void kv_sync(const struct sync_term *t)
{
    key("log2_nodes");
    if (t->exact)
        printf("%.0Lf", t->lg);
    else
        printf("%.6Lf", t->lg);
    kv_t("sync", t->v);
    kv_s("sync_fit", t->v < 0 ? "negative" : "ok");
}

void cmd_paragon_sync(int argc, char **argv)
{
    struct opts o = {{"nodes", "side", NULL}, {0}};
    int64_t nodes;
    struct sync_term st;
    parse_opts(argc, argv, &o, paragon);
    if (opt_get(&o, "nodes") && opt_get(&o, "side"))
        die("give --nodes or --side, not both");
    if (opt_get(&o, "side")) {
        int64_t n = opt_int(&o, "side", 1, MAX_SIDE, 0, 1);
        nodes = n * n;
    } else {
        nodes = opt_int(&o, "nodes", 1, (int64_t)1 << 40, 0, 1);
    }
    st = sync_term(nodes);
    kv_i("nodes", nodes);
    kv_s("formula", "sync_slope*log2(nodes)-sync_offset");
    kv_sync(&st);
    kv_end();
}

static int64_t paragon_comm(int64_t m)
{
    return add(C(paragon, PFIX), mul(m, C(paragon, PPB)));
}

void cmd_paragon_comm(int argc, char **argv)
{
    struct opts o = {{"m", NULL}, {0}};
    int64_t m;
    parse_opts(argc, argv, &o, paragon);
    m = opt_int(&o, "m", 0, INT64_MAX / 2, 0, 1);
    kv_i("m", m);
    kv_s("formula", "comm_fixed+comm_per_byte*m");
    kv_t("comm", paragon_comm(m));
    kv_s("m_ok", m >= C(paragon, PMIN) ? "yes" : "no");
    kv_end();
}

/* Table 2 of Bokhari and Nicol 1996 as printed. */
static const struct {
    int n, c, steps;
} table2_paper[] = {
    {4, 1, 16},    {8, 1, 128},   {8, 2, 64},    {12, 1, 432},  {12, 3, 144},
    {16, 1, 1024}, {16, 2, 512},  {16, 4, 256},  {20, 1, 2000}, {20, 2, 1000},
    {20, 5, 400},  {24, 1, 3456}, {24, 2, 1728}, {24, 3, 1152}, {24, 6, 576},
    {28, 1, 5488}, {28, 7, 784},  {32, 1, 8192}, {32, 2, 4096}, {32, 4, 2048},
    {32, 8, 1024},
};

static int paper_steps(int64_t n, int64_t c)
{
    for (size_t i = 0; i < sizeof table2_paper / sizeof table2_paper[0]; i++)
        if (table2_paper[i].n == n && table2_paper[i].c == c)
            return table2_paper[i].steps;
    return -1;
}

static void steps_line(int64_t n, int64_t c)
{
    int64_t n3 = mul(mul(n, n), n);
    int ps = paper_steps(n, c);
    kv_i("n", n);
    kv_i("nodes", n * n);
    kv_i("c", c);
    kv_s("formula", "n^3/4c");
    kv_i("steps", n3 / (4 * c));
    kv_i("scott_steps", n3 / 4);
    kv_i("naive_steps", n * n - 1);
    kv_i("min_steps", n * n);
    kv_s("rule", (n / 4) % c == 0 ? "ok" : "violated");
    if (ps >= 0)
        kv_i("paper", ps);
    else
        kv_s("paper", "n/a");
    kv_end();
}

static int64_t need_side(const struct opts *o)
{
    int64_t n = opt_int(o, "n", 4, MAX_SIDE, 0, 1);
    if (n % 4 != 0)
        die("--n: %" PRId64 " is not a multiple of 4 (Scott's schedules)", n);
    return n;
}

static int64_t need_c(const struct opts *o, int64_t n)
{
    int64_t c = opt_int(o, "c", 1, MAX_SIDE, 1, 0);
    if ((n / 4) % c != 0)
        die("--c: %" PRId64 " does not divide n/4 = %" PRId64, c, n / 4);
    return c;
}

void cmd_cx_steps(int argc, char **argv)
{
    struct opts o = {{"n", "c", NULL}, {0}};
    parse_opts(argc, argv, &o, NULL);
    if (!opt_get(&o, "n")) {
        if (opt_get(&o, "c"))
            die("--c needs --n");
        /* Table 2: n = 4..32, every c the rule allows or the paper prints */
        for (int64_t n = 4; n <= 32; n += 4)
            for (int64_t c = 1; c <= n / 4; c++)
                if ((n / 4) % c == 0 || paper_steps(n, c) >= 0)
                    steps_line(n, c);
    } else {
        int64_t n = need_side(&o);
        if (opt_get(&o, "c")) {
            steps_line(n, need_c(&o, n));
        } else {
            for (int64_t c = 1; c <= n / 4; c++)
                if ((n / 4) % c == 0)
                    steps_line(n, c);
        }
    }
}

static const char *const cx_algs[] = {"bounded", "scott", "naive", NULL};

void cmd_cx_time(int argc, char **argv)
{
    struct opts o = {{"n", "c", "m", "alg", NULL}, {0}};
    int alg;
    int64_t n, c = 1, m, steps, barriers, upper = -1, comm, total;
    int64_t comm_total, sync_total;
    struct sync_term st;
    parse_opts(argc, argv, &o, paragon);
    alg = opt_choice(&o, "alg", cx_algs, -1);
    m = opt_int(&o, "m", 0, INT64_MAX / 2, 0, 1);
    if (alg == 2) {
        n = opt_int(&o, "n", 2, MAX_SIDE, 0, 1);
        if (opt_get(&o, "c") && opt_int(&o, "c", 1, MAX_SIDE, 1, 0) != 1)
            die("--c: the naive algorithm has no contention parameter");
        steps = n * n - 1, barriers = 0;
    } else {
        n = need_side(&o);
        if (alg == 1) {
            if (opt_get(&o, "c") && opt_int(&o, "c", 1, MAX_SIDE, 1, 0) != 1)
                die("--c: Scott's algorithm has contention 1");
        } else {
            c = need_c(&o, n);
        }
        steps = mul(mul(n, n), n) / (4 * c), barriers = steps;
    }
    comm = paragon_comm(m);
    st = sync_term(n * n);
    comm_total = mul(steps, comm);
    sync_total = mul(barriers, st.v);
    total = add(comm_total, sync_total);
    if (alg != 2)
        upper = add(mul(mul(mul(n, n), n) / 4, comm), sync_total);
    kv_s("alg", cx_algs[alg]);
    kv_i("n", n);
    kv_i("nodes", n * n);
    kv_i("c", c);
    kv_i("m", m);
    kv_s("m_ok", m >= C(paragon, PMIN) ? "yes" : "no");
    kv_i("steps", steps);
    kv_i("barriers", barriers);
    kv_t("comm", comm);
    kv_sync(&st);
    kv_t("comm_total", comm_total);
    kv_t("sync_total", sync_total);
    kv_t("total", total);
    if (upper >= 0)
        kv_t("upper", upper);
    else
        kv_t_na("upper");
    if (alg == 2)
        kv_s("paper_ran", n <= 12 ? "yes" : "no");
    kv_end();
}
