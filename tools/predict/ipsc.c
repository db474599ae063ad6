/* mce-predict, Seidel and Davis 1992 (iPSC/860): Tables II and III,
 * gsync(), sync0() and RDS, RDS waits. */
#include "predict.h"

/* Seidel and Davis 1992, Table I, and the busy-loop fit of section 3.3. */
struct constant ipsc[] = {
    {"a", C_TIME, 1, 3600000, "us/byte", "Seidel-Davis-1992:Table_I"},
    {"bl", C_TIME, 0, 1360000000, "us", "Seidel-Davis-1992:Table_I"},
    {"bs", C_TIME, 0, 750000000, "us", "Seidel-Davis-1992:Table_I"},
    {"s", C_TIME, 0, 440000000, "us", "Seidel-Davis-1992:Table_I"},
    {"kper", C_TIME, 1, 1260000, "us/iteration", "Seidel-Davis-1992:sec3.3"},
    {"kfix", C_TIME, 0, 20000000, "us", "Seidel-Davis-1992:sec3.3"},
    {NULL, 0, 0, 0, NULL, NULL}};
enum { IA, IBL, IBS, IS, IKPER, IKFIX };

/* ---- iPSC/860 (Seidel and Davis 1992)
 * ------------------------------------------------ */

#define MAX_D 30

/* Table II, one line per row, plus the section 2.2 continuation of row
 * 2-2 and the mechanism line. */
void cmd_ipsc_table2(int argc, char **argv)
{
    struct opts o = {{"m", "delta", "boundary-us", NULL}, {0}};
    int64_t a, bl, bs, m, dl, am, B, late;
    parse_opts(argc, argv, &o, ipsc);
    a = C(ipsc, IA), bl = C(ipsc, IBL), bs = C(ipsc, IBS);
    m = opt_int(&o, "m", 0, INT64_MAX / 2, 0, 1);
    dl = opt_us(&o, "delta", 0, 1);
    B = opt_us(&o, "boundary-us", bl / 2, 0);
    am = mul(a, m);
    late = add(am, bl / 2); /* section 2.2: where row 2-2 ends */
    {
        int64_t two_am = mul(2, am), bl32 = mul(3, bl) / 2;
        int short_ok = m <= 100, long_ok = m > 100;
        struct row {
            const char *row, *op, *proto, *range, *formula, *source;
            int m_ok, d_ok;
            int64_t cost;
        } rows[] = {
            /* Table II prints b_s for a short send; the a m of its at most
             * 100 bytes still crosses the wire (the emulator charges it),
             * so the cost is am+bs and printed_formula keeps the paper's. */
            {"send-short", "send", "short", "any", "am+bs", "table2", short_ok,
             1, add(am, bs)},
            {"send-long", "send", "long", "any", "am+bl", "table2", long_ok, 1,
             add(am, bl)},
            {"send-forced", "send", "forced", "any", "am+bs", "table2", long_ok,
             1, add(am, bs)},
            {"2-1", "simple_exchange", "long", "delta<bs", "am+bl+delta",
             "table2", long_ok, dl < bs, add(add(am, bl), dl)},
            {"2-2", "simple_exchange", "long", "bs<=delta<=am", "2am+3/2bl",
             "table2", long_ok, bs <= dl && dl <= am, add(two_am, bl32)},
            {"2-3", "synch_simple_exchange", "long", "delta>=0",
             "am+bl+bs+delta", "table2", long_ok, 1,
             add(add(add(am, bl), bs), dl)},
            {"2-4", "synch_simple_exchange", "forced", "delta>=0",
             "am+2bs+delta", "table2", long_ok, 1,
             add(add(am, mul(2, bs)), dl)},
            {"2-5", "shift", "long", "delta<bs", "am+bl+delta", "table2",
             long_ok, dl < bs, add(add(am, bl), dl)},
            {"2-6", "shift", "long", "bs<=delta<=am", "2am+3/2bl", "table2",
             long_ok, bs <= dl && dl <= am, add(two_am, bl32)},
            {"2-7", "shift", "forced", "delta>=0", "am+bs+delta", "table2",
             long_ok, 1, add(add(am, bs), dl)},
            {"2-2-late", "simple_exchange", "long", "delta>am+bl/2",
             "2am+3/2bl+delta-(am+bl/2)", "sec2.2", long_ok, dl > late,
             add(add(two_am, bl32), sub(dl, late))},
        };
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            const struct row *r = &rows[i];
            kv_s("row", r->row);
            kv_s("op", r->op);
            kv_s("protocol", r->proto);
            kv_s("range", r->range);
            kv_s("formula", r->formula);
            kv_s("printed_formula", i == 0 ? "bs" : r->formula);
            kv_s("source", r->source);
            kv_i("m", m);
            kv_t("delta", dl);
            kv_s("m_ok", r->m_ok ? "yes" : "no");
            kv_s("delta_ok", r->d_ok ? "yes" : "no");
            if (r->m_ok && r->d_ok)
                kv_t("cost", r->cost);
            else
                kv_t_na("cost");
            kv_end();
        }

        /* Which range delta falls in, with the paper's boundary b_s and
         * with the mechanism's boundary B; the cost of the rule that
         * applies (exchange: section 2.2's ranges; shift: Table II's). */
        {
            const char *xs, *xm, *ss, *sm, *xr, *sr;
            int64_t xc, sc;
            xs = dl < bs ? "concurrent" : dl <= late ? "sequential" : "late";
            ss = dl < bs ? "concurrent" : dl <= am ? "sequential" : "beyond";
            xm = dl < B ? "concurrent" : dl <= late ? "sequential" : "late";
            sm = dl < B ? "concurrent" : dl <= am ? "sequential" : "beyond";
            if (dl < B)
                xr = "2-1", xc = add(add(am, bl), dl);
            else if (dl <= late)
                xr = "2-2", xc = add(two_am, bl32);
            else
                xr = "2-2-late", xc = add(add(two_am, bl32), sub(dl, late));
            if (dl < B)
                sr = "2-5", sc = add(add(am, bl), dl);
            else if (dl <= am)
                sr = "2-6", sc = add(two_am, bl32);
            else
                sr = "none", sc = -1;
            kv_s("row", "mechanism");
            kv_i("m", m);
            kv_t("delta", dl);
            kv_t("boundary", B);
            kv_t("am", am);
            kv_s("paper_exchange_case", xs);
            kv_s("exchange_case", xm);
            kv_s("exchange_rule", xr);
            if (long_ok)
                kv_t("exchange_cost", xc);
            else
                kv_t_na("exchange_cost");
            kv_s("paper_shift_case", ss);
            kv_s("shift_case", sm);
            kv_s("shift_rule", sr);
            if (long_ok && sc >= 0)
                kv_t("shift_cost", sc);
            else
                kv_t_na("shift_cost");
            kv_s("agree",
                 strcmp(xs, xm) == 0 && strcmp(ss, sm) == 0 ? "yes" : "no");
            kv_end();
        }
    }
}

/* Table III as printed in Seidel and Davis 1992. */
static const int64_t table3_paper[] = {0, 0, 645, 1062, 1478, 1895, 2312, 2728};

void cmd_ipsc_table3(int argc, char **argv)
{
    struct opts o = {{"d", NULL}, {0}};
    int64_t d0 = 2, d1 = 7, a, bl, bs;
    parse_opts(argc, argv, &o, ipsc);
    a = C(ipsc, IA), bl = C(ipsc, IBL), bs = C(ipsc, IBS);
    if (opt_get(&o, "d"))
        d0 = d1 = opt_int(&o, "d", 1, MAX_D, 0, 1);
    for (int64_t d = d0; d <= d1; d++) {
        int64_t num = sub(mul(mul(2, d), bs), bl / 2), min_m;
        min_m = num > 0 ? cdiv(num, a) : 0;
        kv_i("d", d);
        kv_s("formula", "m>=(2d*bs-bl/2)/a");
        kv_ratio("m_exact", num, a, 2);
        kv_i("min_m", min_m);
        if (d >= 2 && d <= 7) {
            kv_i("paper", table3_paper[d]);
            kv_s("match", table3_paper[d] == min_m ? "yes" : "no");
        } else {
            kv_s("paper", "n/a");
        }
        kv_end();
    }
}

static const char *const sync_algs[] = {"gsync", "sync0", "rds", "all", NULL};

static void sync_line(int alg, int64_t d, int64_t dl)
{
    int64_t bs = C(ipsc, IBS), s = C(ipsc, IS);
    int64_t dbs = mul(d, bs), imprecise = mul(d, sub(bs, s));
    const char *range, *formula, *pformula, *seed, *kind = "formula";
    int64_t cost, prec;
    if (alg == 0) { /* gsync, section 3.1 */
        if (dl < bs) {
            range = "delta<bs", formula = "d*bs+delta", seed = "stated";
            cost = add(dbs, dl), prec = dl, pformula = "delta";
        } else if (dl <= dbs) {
            range = "bs<=delta<=d*bs", formula = "2d*bs", seed = "approx";
            cost = mul(2, dbs), prec = imprecise, pformula = "d(bs-s)";
            kind = "worst"; /* "In the worst case, shown in the figure" */
        } else {
            range = "delta>d*bs", formula = "d*bs+delta", seed = "stated";
            cost = add(dbs, dl), prec = imprecise, pformula = "d(bs-s)";
        }
    } else if (alg == 1) { /* sync0, section 3.2 */
        if (dl < bs) {
            range = "delta<bs", formula = "(d+1)bs+delta", seed = "stated";
            cost = add(mul(d + 1, bs), dl), prec = dl, pformula = "delta";
        } else {
            range = "delta>=bs", formula = "(2d+1)bs";
            seed = dl == bs ? "stated" : "example";
            cost = mul(2 * d + 1, bs), prec = imprecise, pformula = "d(bs-s)";
            kind = "worst"; /* "can be blocked at steps 2 and 3" */
        }
    } else { /* RDS, section 3.3 */
        range = "delta>=0", formula = "2d*bs+delta", seed = "stated";
        cost = add(mul(2, dbs), dl), prec = 0, pformula = "0";
    }
    kv_s("alg", sync_algs[alg]);
    kv_i("d", d);
    kv_t("delta", dl);
    kv_s("range", range);
    kv_s("formula", formula);
    kv_t("cost", cost);
    kv_s("precision_formula", pformula);
    kv_t("precision", prec);
    kv_s("paper_says", seed);
    kv_s("case", kind);
    if (alg == 2) {
        kv_t("phase1", add(dbs, dl));
        kv_t("phase2", dbs);
    }
    kv_end();
}

void cmd_ipsc_sync(int argc, char **argv)
{
    struct opts o = {{"alg", "d", "delta", NULL}, {0}};
    int alg;
    int64_t d, dl;
    parse_opts(argc, argv, &o, ipsc);
    alg = opt_choice(&o, "alg", sync_algs, 3);
    d = opt_int(&o, "d", 1, MAX_D, 0, 1);
    dl = opt_us(&o, "delta", 0, 1);
    for (int i = 0; i < 3; i++)
        if (alg == 3 || alg == i)
            sync_line(i, d, dl);
}

void cmd_rds_waits(int argc, char **argv)
{
    struct opts o = {{"d", NULL}, {0}};
    int64_t d, step, kper, kfix;
    parse_opts(argc, argv, &o, ipsc);
    d = opt_int(&o, "d", 1, 16, 0, 1);
    step = sub(C(ipsc, IBS), C(ipsc, IS));
    kper = C(ipsc, IKPER), kfix = C(ipsc, IKFIX);
    for (int64_t i = 0; i < ((int64_t)1 << d); i++) {
        int64_t ones = 0, w, k;
        for (int64_t b = i; b; b >>= 1)
            ones += b & 1;
        w = mul(d - ones, step);
        k = w > kfix ? rdiv(w - kfix, kper) : 0;
        kv_i("node", i);
        kv_i("ones", ones);
        kv_t("w", w);
        kv_ratio("k", w - kfix, kper, 2);
        kv_i("iters", k);
        kv_t("loop", k > 0 ? add(mul(k, kper), kfix) : 0);
        kv_end();
    }
}
