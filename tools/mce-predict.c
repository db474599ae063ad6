/*
 * mce-predict: the analytic cost formulas of mcemu's source papers,
 * computed independently of the emulator (no MPI, no libmcemu), so that
 * the tests can compare emulated times against them.
 *
 *   Seidel and Davis 1992, iPSC/860: Tables I, II, III, the gsync(),
 *     sync0() and RDS costs and precisions, RDS waits.
 *   Bokhari and Nicol 1996, Paragon: Table 1, Table 2 (complete exchange
 *     steps n^3/4c) and the predicted (lower bound) time.
 *   Mudge, Buzzard and Abdel-Rahman 1987, NCUBE: Table 1 and
 *     t'_comm = 4 t_comm(m) / m (Table 2).
 *   Warfel 1996 (iWarp, TCS) and Feldmann, Gross, O'Hallaron and Stricker
 *     1992 (iWarp subset barriers).
 *
 * Output: key=value lines (default), CSV or JSON (--format); "compare"
 * reads a program's CSV or JSON rows and prints emulated, predicted and
 * their difference per row (see compare.c's part below).
 *
 * Arithmetic is exact: decimal inputs (at most 6 decimals, 1 ps) become
 * integers counting 0.1 ps, so that b_l/2 and 3b_l/2 stay exact.  The
 * only rounded values are quotients (Table III's m, the RDS loop count,
 * t'_comm) and log2 of a node count that is not a power of two.
 * See usage() for the interface.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quote.h"

#define UNITS_PER_US 10000000LL /* internal time unit: 0.1 ps */
#define UNIT_DIGITS  7          /* decimals of a microsecond in a unit */
#define INPUT_DIGITS 6          /* decimals accepted on input (1 ps) */

static const char *cmd_name; /* the subcommand, for error messages */
static int out_ps;           /* --ps: print times in picoseconds */
static int out_format;       /* --format: 0 key=value, 1 csv, 2 json */

static void usage(FILE *f);

/* ---- errors and checked arithmetic ------------------------------------ */

static void die(const char *fmt, ...)
{
    va_list ap;
    fputs("mce-predict: ", stderr);
    if (cmd_name)
        fprintf(stderr, "%s: ", cmd_name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs(" (see mce-predict --help)\n", stderr);
    exit(2);
}

static int64_t add(int64_t a, int64_t b)
{
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        die("the inputs are too large: a result overflows 64 bits");
    return a + b;
}

static int64_t sub(int64_t a, int64_t b)
{
    if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b))
        die("the inputs are too large: a result overflows 64 bits");
    return a - b;
}

static int64_t mul(int64_t a, int64_t b)
{
    if (a != 0 && b != 0) {
        int over;
        if (a > 0)
            over = b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a;
        else
            over = b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b;
        if (over)
            die("the inputs are too large: a result overflows 64 bits");
    }
    return a * b;
}

/* num / den rounded to the nearest integer, halves away from zero. */
static int64_t rdiv(int64_t num, int64_t den)
{
    int neg = (num < 0) != (den < 0);
    uint64_t n = num < 0 ? -(uint64_t)num : (uint64_t)num;
    uint64_t d = den < 0 ? -(uint64_t)den : (uint64_t)den;
    uint64_t q = n / d, r = n % d;
    if (r >= d - r)
        q++;
    return neg ? -(int64_t)q : (int64_t)q;
}

/* ceil(num / den) for den > 0. */
static int64_t cdiv(int64_t num, int64_t den)
{
    int64_t q = num / den;
    if (num % den != 0 && num > 0)
        q++;
    return q;
}

/* ---- parsing ------------------------------------------------------------ */

/* A non-negative integer in [min, max]. */
static int64_t parse_int(const char *opt, const char *s, int64_t min,
                         int64_t max)
{
    int64_t v = 0;
    const char *p = s;
    if (!*p)
        die("%s: empty value, want an integer", opt);
    for (; *p; p++) {
        if (*p < '0' || *p > '9')
            die("%s: '%s' is not a non-negative integer", opt, s);
        if (v > (INT64_MAX - (*p - '0')) / 10)
            die("%s: '%s' is too large", opt, s);
        v = v * 10 + (*p - '0');
    }
    if (v < min || v > max)
        die("%s: %s is out of range [%" PRId64 ", %" PRId64 "]", opt, s, min,
            max);
    return v;
}

/* A non-negative decimal number of microseconds, at most 6 decimals
 * (further digits must be zeros), into units. */
static int64_t parse_us(const char *opt, const char *s)
{
    int64_t ip = 0, fp = 0;
    int nd = 0, nf = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++, nd++) {
        if (ip > (INT64_MAX / UNITS_PER_US - 9) / 10)
            die("%s: '%s' is too large", opt, s);
        ip = ip * 10 + (*p - '0');
    }
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++, nd++) {
            if (nf < INPUT_DIGITS) {
                fp = fp * 10 + (*p - '0');
                nf++;
            } else if (*p != '0') {
                die("%s: '%s' has more than %d decimals (1 ps)", opt, s,
                    INPUT_DIGITS);
            }
        }
    if (nd == 0 || *p)
        die("%s: '%s' is not a non-negative decimal number", opt, s);
    for (; nf < UNIT_DIGITS; nf++)
        fp *= 10;
    return ip * UNITS_PER_US + fp;
}

/* ---- output: one "key=value ..." line per result ------------------------ */

static int line_first = 1;

static void key(const char *k)
{
    if (!line_first)
        putchar(' ');
    line_first = 0;
    fputs(k, stdout);
    putchar('=');
}

static void kv_end(void)
{
    putchar('\n');
    line_first = 1;
}

static void kv_s(const char *k, const char *v)
{
    key(k);
    fputs(v, stdout);
}

static void kv_i(const char *k, int64_t v)
{
    key(k);
    printf("%" PRId64, v);
}

/* Print v (units) exactly in microseconds or picoseconds: at least 2
 * decimals for microseconds, none for picoseconds, trailing zeros beyond
 * that trimmed. */
static void put_time(int64_t v)
{
    uint64_t m = v < 0 ? -(uint64_t)v : (uint64_t)v;
    uint64_t per = out_ps ? 10 : (uint64_t)UNITS_PER_US;
    int digits = out_ps ? 1 : UNIT_DIGITS, keep = out_ps ? 0 : 2;
    char frac[32];
    if (v < 0)
        putchar('-');
    snprintf(frac, sizeof frac, "%0*" PRIu64, digits, m % per);
    while (digits > keep && frac[digits - 1] == '0')
        digits--;
    printf("%" PRIu64, m / per);
    if (digits > 0)
        printf(".%.*s", digits, frac);
}

/* A time: the key gets the suffix _us or _ps. */
static void kv_t(const char *k, int64_t v)
{
    char name[64];
    snprintf(name, sizeof name, "%s_%s", k, out_ps ? "ps" : "us");
    key(name);
    put_time(v);
}

static void kv_t_na(const char *k)
{
    char name[64];
    snprintf(name, sizeof name, "%s_%s", k, out_ps ? "ps" : "us");
    kv_s(name, "n/a");
}

/* num / den rounded to the nearest 0.1 ps, as a time. */
static void kv_t_ratio(const char *k, int64_t num, int64_t den)
{
    kv_t(k, rdiv(num, den));
}

/* num / den rounded half away from zero to `dec` decimals (a pure number,
 * not a time). */
static void kv_ratio(const char *k, int64_t num, int64_t den, int dec)
{
    int64_t p = 1, q;
    uint64_t m;
    for (int i = 0; i < dec; i++)
        p *= 10;
    q = rdiv(mul(num, p), den);
    m = q < 0 ? -(uint64_t)q : (uint64_t)q;
    key(k);
    printf("%s%" PRIu64, q < 0 ? "-" : "", m / (uint64_t)p);
    if (dec > 0)
        printf(".%0*" PRIu64, dec, m % (uint64_t)p);
}

/* ---- named constants (--constants k=v,...) ------------------------------ */

enum { C_TIME, C_COUNT };

struct constant {
    const char *key;
    int kind;     /* C_TIME: decimal us (or us/byte); C_COUNT: integer */
    int positive; /* must be > 0 (it divides) */
    int64_t val;  /* units, or the count */
    const char *unit, *source;
};

/* Seed 000, Table I, and the busy-loop fit of section 3.3. */
static struct constant ipsc[] = {
    {"a", C_TIME, 1, 3600000, "us/byte", "Seidel-Davis-1992:Table_I"},
    {"bl", C_TIME, 0, 1360000000, "us", "Seidel-Davis-1992:Table_I"},
    {"bs", C_TIME, 0, 750000000, "us", "Seidel-Davis-1992:Table_I"},
    {"s", C_TIME, 0, 440000000, "us", "Seidel-Davis-1992:Table_I"},
    {"kper", C_TIME, 1, 1260000, "us/iteration", "Seidel-Davis-1992:sec3.3"},
    {"kfix", C_TIME, 0, 20000000, "us", "Seidel-Davis-1992:sec3.3"},
    {NULL, 0, 0, 0, NULL, NULL}};
enum { IA, IBL, IBS, IS, IKPER, IKFIX };

/* Seed 001, Table 1. */
static struct constant paragon[] = {
    {"sync_slope", C_TIME, 0, 271000000, "us/log2(nodes)",
     "Bokhari-Nicol-1996:Table_1"},
    {"sync_offset", C_TIME, 0, 1340000000, "us", "Bokhari-Nicol-1996:Table_1"},
    {"comm_fixed", C_TIME, 0, 2310000000, "us", "Bokhari-Nicol-1996:Table_1"},
    {"comm_per_byte", C_TIME, 0, 220000, "us/byte",
     "Bokhari-Nicol-1996:Table_1"},
    {"comm_min_m", C_COUNT, 0, 8640, "bytes", "Bokhari-Nicol-1996:Table_1"},
    {NULL, 0, 0, 0, NULL, NULL}};
enum { PSLOPE, POFF, PFIX, PPB, PMIN };

/* Seed 003, Table 1. */
static struct constant ncube[] = {
    {"std_fixed", C_TIME, 0, 4664000000, "us",
     "Mudge-Buzzard-Abdel-Rahman-1987:Table_1"},
    {"std_per_byte", C_TIME, 0, 31400000, "us/byte",
     "Mudge-Buzzard-Abdel-Rahman-1987:Table_1"},
    {"ext_fixed", C_TIME, 0, 832000000, "us",
     "Mudge-Buzzard-Abdel-Rahman-1987:Table_1"},
    {"ext_per_byte", C_TIME, 0, 12900000, "us/byte",
     "Mudge-Buzzard-Abdel-Rahman-1987:Table_1"},
    {NULL, 0, 0, 0, NULL, NULL}};
enum { NSF, NSB, NEF, NEB };

static void apply_constants(struct constant *tab, const char *spec)
{
    char buf[512], *item, *next;
    if (!tab)
        die("--constants: this command has no constants");
    if (strlen(spec) >= sizeof buf)
        die("--constants: value too long");
    strcpy(buf, spec);
    for (item = buf; item; item = next) {
        char *eq, opt[96];
        struct constant *c;
        next = strchr(item, ',');
        if (next)
            *next++ = '\0';
        eq = strchr(item, '=');
        if (!eq)
            die("--constants: '%s' is not KEY=VALUE", item);
        *eq = '\0';
        for (c = tab; c->key && strcmp(c->key, item) != 0; c++)
            ;
        if (!c->key) {
            char known[256] = "";
            for (c = tab; c->key; c++) {
                strcat(known, c == tab ? "" : ", ");
                strcat(known, c->key);
            }
            die("--constants: unknown constant '%s' (known: %s)", item, known);
        }
        snprintf(opt, sizeof opt, "--constants %s", c->key);
        c->val = c->kind == C_COUNT ? parse_int(opt, eq + 1, 0, INT64_MAX)
                                    : parse_us(opt, eq + 1);
        if (c->positive && c->val == 0)
            die("%s: must be positive", opt);
    }
}

/* ---- options ------------------------------------------------------------ */

#define MAX_OPTS 8

struct opts {
    const char *name[MAX_OPTS]; /* allowed, without "--"; NULL-terminated */
    const char *val[MAX_OPTS];
};

/* Parse argv[2..] against the allowed options: --name=value or
 * --name value (last one wins); --constants goes to `tab`. */
static void parse_opts(int argc, char **argv, struct opts *o,
                       struct constant *tab)
{
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i], *eq, *val;
        size_t len;
        int k;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            exit(0);
        }
        if (strcmp(arg, "--ps") == 0) {
            out_ps = 1;
            continue;
        }
        if (strncmp(arg, "--", 2) != 0)
            die("unexpected argument '%s'", arg);
        eq = strchr(arg, '=');
        len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
        if (len == 9 && strncmp(arg + 2, "constants", 9) == 0)
            k = -1;
        else
            for (k = 0; o->name[k]; k++)
                if (strlen(o->name[k]) == len &&
                    strncmp(o->name[k], arg + 2, len) == 0)
                    break;
        if (k >= 0 && !o->name[k])
            die("unknown option '%s'", arg);
        if (eq) {
            val = eq + 1;
        } else {
            if (i + 1 >= argc)
                die("option '%s' needs a value", arg);
            val = argv[++i];
        }
        if (k < 0)
            apply_constants(tab, val);
        else
            o->val[k] = val;
    }
}

static const char *opt_get(const struct opts *o, const char *name)
{
    for (int k = 0; o->name[k]; k++)
        if (strcmp(o->name[k], name) == 0)
            return o->val[k];
    return NULL;
}

static const char *opt_need(const struct opts *o, const char *name)
{
    const char *v = opt_get(o, name);
    if (!v)
        die("option --%s is required", name);
    return v;
}

static int64_t opt_int(const struct opts *o, const char *name, int64_t min,
                       int64_t max, int64_t dflt, int required)
{
    char opt[64];
    const char *v = required ? opt_need(o, name) : opt_get(o, name);
    snprintf(opt, sizeof opt, "--%s", name);
    return v ? parse_int(opt, v, min, max) : dflt;
}

static int64_t opt_us(const struct opts *o, const char *name, int64_t dflt,
                      int required)
{
    char opt[64];
    const char *v = required ? opt_need(o, name) : opt_get(o, name);
    snprintf(opt, sizeof opt, "--%s", name);
    return v ? parse_us(opt, v) : dflt;
}

/* Index of the option's value in the list "a|b|c", or dflt if absent. */
static int opt_choice(const struct opts *o, const char *name,
                      const char *const *choices, int dflt)
{
    const char *v = opt_get(o, name);
    char list[256] = "";
    if (!v) {
        if (dflt < 0)
            die("option --%s is required", name);
        return dflt;
    }
    for (int i = 0; choices[i]; i++) {
        if (strcmp(choices[i], v) == 0)
            return i;
        strcat(list, i ? "|" : "");
        strcat(list, choices[i]);
    }
    die("--%s: '%s' is not one of %s", name, v, list);
    return -1;
}

/* ---- iPSC/860 (Seidel and Davis 1992)
 * ------------------------------------------------ */

#define MAX_D 30

static int64_t C(const struct constant *t, int i)
{
    return t[i].val;
}

/* Table II, one line per row, plus the section 2.2 continuation of row
 * 2-2 and the mechanism line. */
static void cmd_ipsc_table2(int argc, char **argv)
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

static void cmd_ipsc_table3(int argc, char **argv)
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

static void cmd_ipsc_sync(int argc, char **argv)
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

static void cmd_rds_waits(int argc, char **argv)
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

static void cmd_paragon_sync(int argc, char **argv)
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

static void cmd_paragon_comm(int argc, char **argv)
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

static void cmd_cx_steps(int argc, char **argv)
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

static void cmd_cx_time(int argc, char **argv)
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

/* ---- NCUBE (Mudge, Buzzard and Abdel-Rahman 1987)
 * --------------------------------------------------- */

static const char *const schemes[] = {"standard", "extended", "both", NULL};

static void ncube_line(int scheme, int64_t m, int paper_hundredths)
{
    int64_t f = C(ncube, scheme ? NEF : NSF), x = C(ncube, scheme ? NEB : NSB);
    int64_t t = add(f, mul(m, x)), t4 = mul(4, t);
    kv_s("scheme", schemes[scheme]);
    kv_i("m", m);
    kv_t("fixed", f);
    kv_t("per_byte", x);
    kv_t("tcomm", t);
    if (m > 0)
        kv_t_ratio("tcomm_word", t4, m);
    else
        kv_t_na("tcomm_word");
    if (paper_hundredths >= 0) {
        int64_t p = (int64_t)paper_hundredths * (UNITS_PER_US / 100);
        kv_t("paper", p);
        kv_t("diff", rdiv(t4, m) - p);
    }
    kv_end();
}

static void cmd_ncube(int argc, char **argv)
{
    struct opts o = {{"m", "scheme", NULL}, {0}};
    int sch;
    int64_t m;
    parse_opts(argc, argv, &o, ncube);
    m = opt_int(&o, "m", 0, INT64_MAX / 2, 0, 1);
    sch = opt_choice(&o, "scheme", schemes, 2);
    for (int i = 0; i < 2; i++)
        if (sch == 2 || sch == i)
            ncube_line(i, m, -1);
}

static void cmd_ncube_table2(int argc, char **argv)
{
    /* Table 2 of Mudge, Buzzard and Abdel-Rahman 1987, NCUBE columns, in
     * hundredths of a us. */
    static const int rows[][3] = {
        {8, 24576, 4676}, {64, 4179, 1037}, {256, 1988, 645}};
    struct opts o = {{NULL}, {0}};
    parse_opts(argc, argv, &o, ncube);
    for (int i = 0; i < 3; i++)
        for (int s = 0; s < 2; s++)
            ncube_line(s, rows[i][0], rows[i][1 + s]);
}

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
static void iw_pct_line(int64_t bytes, int64_t d, int printed)
{
    int64_t num = add(add(36 * 1998, mul(bytes, 1000)), mul(d, 9990));
    int64_t milli = mul(num, 1000) / 1998;
    kv_i("bytes", bytes);
    kv_i("dist", d);
    key("value_clocks");
    printf("%" PRId64 ".%03" PRId64, milli / 1000, milli % 1000);
    kv_i("predicted_clocks", num / 1998);
    if (printed >= 0) {
        kv_i("printed", printed);
        kv_s("match", printed == num / 1998 ? "yes" : "no");
    }
    kv_end();
}

static void cmd_iwarp_pct(int argc, char **argv)
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
    int64_t o = bytes <= 4 ? 253 : 359;
    int64_t num = add(add(mul(o, 1998), mul(bytes, 1000)), mul(d, 9990));
    int64_t milli = mul(num, 1000) / 1998;
    kv_i("bytes", bytes);
    kv_i("dist", d);
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

static void cmd_iwarp_deposit(int argc, char **argv)
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
static void cmd_iwarp_barrier(int argc, char **argv)
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

/* ---- iWarp SRU and anonymous-destination ring (Feldmann et al. 1992)
 * ---------------- */

/* Feldmann, Gross, O'Hallaron, Stricker, sections 3 and 5, in clocks
 * (share/machines/iwarp.conf): SRU bit 16, 36 bits, software 337 + 337;
 * ring compose 20, split 240, join 240, load 12, word 4, hop 4. */
static int64_t ceil_to(int64_t v, int64_t q)
{
    return (v + q - 1) / q * q;
}

static void cmd_subset(int argc, char **argv)
{
    static const char *const algs[] = {"bcast", "ring",  "ring1",
                                       "ring2", "ring3", NULL};
    struct opts o = {{"alg", "n", "hops", "words", "spread", "stride", NULL},
                     {0}};
    const int64_t bit = 16, msg = 36 * 16, S = 337, R = 337, L = 2;
    const int64_t compose = 20, split = 240, join = 240, load = 12;
    const int64_t word = 4, hop = 4, N = 64, lgN = 6;
    int alg, lg = 0;
    int64_t n, h, k, t, stride;
    parse_opts(argc, argv, &o, NULL);
    alg = opt_choice(&o, "alg", algs, -1);
    n = opt_int(&o, "n", 2, 64, 64, 0);
    h = opt_int(&o, "hops", 1, 63, 1, 0);
    k = opt_int(&o, "words", 0, 7, 2, 0);
    t = opt_int(&o, "spread", 0, 100000000, 0, 0);
    stride = opt_int(&o, "stride", 1, 64, 1, 0);
    while (((int64_t)1 << lg) < n)
        lg++;
    kv_s("alg", algs[alg]);
    kv_i("n", n);
    if (alg == 0) {
        /* one broadcast step: send_sw, the message, recv_sw; emulated:
         * the request starts at the next bit boundary after the 2-clock
         * lookahead (starts aligned to a bit boundary) */
        kv_i("message_clocks", msg);
        kv_i("step_clocks", S + msg + R);
        kv_i("step_emulated_clocks", ceil_to(S + L, bit) + msg + R);
        /* Algorithm 1 with n arrivals: at least n messages on the bus */
        kv_i("bus_bound_clocks", n * msg + S + R);
        /* one straggler: "two broadcasts (125 us)" (F 5) */
        kv_i("straggler_clocks", 2 * (S + msg + R));
        /* emulated: the straggler's reached(b), then every counter's
         * complete(b) (identical words merge on the wired-OR bus), each
         * starting on a bit boundary */
        kv_i("straggler_emulated_clocks",
             ceil_to(S + L, bit) + msg + ceil_to(R + S + L, bit) + msg + R);
        kv_i("straggler_paper_clocks", 2500);
        /* F 5: all participants leave Phase 2 at once; timers agree to
         * 800 ns (16 clocks) */
        kv_i("exit_spread_paper_clocks", 16);
    } else {
        int64_t send = compose + split + k * word + join;
        int64_t recv = load + split + k * word + join;
        /* Theorem 9: t_r = once round the ring, t_s = receive and send
         * (the receive's split, words and join, then compose and split
         * until the message is on the ring again) */
        int64_t tr = N * hop, ts = split + k * word + join + compose + split;
        int64_t polls = t / (tr + ts);
        int64_t k2 = 0;
        kv_i("words", k);
        kv_i("hops", h);
        kv_i("selective_send_clocks", send);
        kv_i("selective_receive_clocks", recv);
        /* a message to a waiting receiver h hops away (its CAM loaded):
         * compose + split, the hops, then split + words + join */
        kv_i("step_clocks",
             compose + split + h * hop + split + k * word + join);
        kv_i("rounds_ring1", n);
        kv_i("rounds_ring2", 2 * lg);
        /* one straggler: "one message plus the cost for Phase 2 (305 us)" */
        kv_i("straggler_paper_clocks", 6100);
        /* message counts (F 4.3.4, Theorem 9), N = 64 cells on the ring;
         * spread = t, the first to the last arrival */
        kv_i("spread", t);
        kv_i("t_r", tr);
        kv_i("t_s", ts);
        kv_i("polls_max", polls);
        kv_i("messages1_min", n);
        kv_i("messages1_max", 2 * n + polls);
        kv_i("wires_max", N * (n + (alg == 2 ? 1 : lgN) + polls));
        /* Lemma 6: every (2^k)-th cell, nothing between: log N - k */
        while (((int64_t)1 << k2) < stride)
            k2++;
        kv_i("stride", stride);
        kv_i("rounds1_every_max", lgN - k2);
        /* Lemma 5: bit-reversed Ids, at most 2 sqrt(N) and n + 1 */
        kv_i("rounds1_max", 2 * 8 < n + 1 ? 2 * 8 : n + 1);
    }
    kv_end();
}

/* ---- TCS and the chapter 6-7 models (Warfel 1996) -------------- */

/* Constants of the models, in clocks (or as noted); the chapter 6 ones are
 * also the app.mp_* prediction keys of share/machines/iwarp.conf. */
static struct constant iwarp[] = {
    {"mp_constant", C_COUNT, 0, 100, "clocks", "Warfel-1996:W6.2.1"},
    {"mp_iteration", C_COUNT, 0, 40, "clocks", "Warfel-1996:W6.3.1"},
    {"mp_send", C_COUNT, 0, 359, "clocks", "Warfel-1996:W6.2.1"},
    {"mp_recv", C_COUNT, 0, 230, "clocks", "Warfel-1996:W6.2.1"},
    {"mp_latency", C_COUNT, 0, 20, "clocks", "Warfel-1996:W6.2.1"},
    {"net_bw_milli", C_COUNT, 1, 1998, "bytes/1000clocks",
     "Warfel-1996:W6.2.1"},
    {"mp_barrier_2d", C_COUNT, 0, 448, "clocks", "Warfel-1996:W6.3.1"},
    {"tcs_sg_constant", C_COUNT, 0, 398, "clocks", "Warfel-1996:W6.2.2"},
    {"tcs_rb_constant", C_COUNT, 0, 302, "clocks", "Warfel-1996:W6.3.2"},
    {"tcs_rb_iteration", C_COUNT, 0, 40, "clocks", "design:8.5[C]"},
    {"tcs_a2a_constant", C_COUNT, 0, 10, "clocks", "Warfel-1996:W6.4.2"},
    {"tcs_a2a_barrier", C_COUNT, 0, 432, "clocks", "Warfel-1996:W6.4.2"},
    {"tcs_fast_switch", C_COUNT, 0, 162, "clocks", "Warfel-1996:W6.4.2"},
    {"tcs_a2a_other", C_COUNT, 0, 459, "clocks", "Warfel-1996:W6.4.2"},
    {"switch", C_COUNT, 0, 162, "clocks", "Warfel-1996:W5.2.2"},
    {"barrier_lookup", C_COUNT, 0, 12, "clocks", "Warfel-1996:W5.2.2"},
    {"task_change", C_COUNT, 0, 130, "clocks", "Warfel-1996:W5.3.2"},
    {"task_restore", C_COUNT, 0, 70, "clocks", "Warfel-1996:W5.4.2"},
    {"barrier_startup", C_COUNT, 0, 40, "clocks", "Warfel-1996:W4.5.2"},
    {"barrier_mt_tenths", C_COUNT, 0, 115, "clocks/10", "Warfel-1996:W4.5.2"},
    {"md_loading", C_COUNT, 0, 1280, "clocks", "Warfel-1996:W7.3.1"},
    {"md_line", C_COUNT, 1, 1336, "clocks", "Warfel-1996:W7.2.3"},
    {"md_lines", C_COUNT, 1, 240, "lines", "Warfel-1996:W7.2.1"},
    {"md_pixels", C_COUNT, 1, 256, "pixels/line", "Warfel-1996:W7.2.1"},
    {"md_vblank", C_COUNT, 0, 12000, "clocks", "Warfel-1996:W7.2.1"},
    {"md_light_start", C_COUNT, 0, 225, "clocks", "Warfel-1996:W7.3.1"},
    {"md_light_end", C_COUNT, 0, 60, "clocks", "Warfel-1996:W7.3.1"},
    {"md_solo", C_COUNT, 0, 20, "clocks", "Warfel-1996:W7.3.1"},
    {"md_out_words", C_COUNT, 0, 64, "words/line", "Warfel-1996:W7.2.3"},
    {"md_word_time", C_COUNT, 0, 2, "clocks", "design:8.6[D]"},
    {NULL, 0, 0, 0, NULL, NULL}};
enum {
    KMC,
    KMI,
    KMS,
    KMR,
    KML,
    KBW,
    KB2D,
    KTSG,
    KTRB,
    KTRBI,
    KTA,
    KTAB,
    KTFS,
    KTAO,
    KSW,
    KLOOK,
    KTCH,
    KTRS,
    KBST,
    KBMT,
    KMDL,
    KMDLINE,
    KMDLINES,
    KMDPIX,
    KMDVB,
    KMDLS,
    KMDLE,
    KMDSOLO,
    KMDOW,
    KMDWT
};

/* W's tables by cell count (4, 8, 16, 32, 64; 0 = not given). */
static const int64_t tab_n[5] = {4, 8, 16, 32, 64};
static const int64_t tab_mp_barrier[5] = {77, 127, 219, 404, 780}; /* W6.4.1 */
static const int64_t tab_latency[5] = {38, 0, 59, 0, 66}; /* W6.2.2, 6.3.2 */
static const int64_t tab_reconf_sg[5] = {444, 0, 872, 0, 2551}; /* W6.2.2 */
static const int64_t tab_reconf_rb[5] = {441, 0, 869, 0, 2550}; /* W6.3.2 */

static int64_t tab_get(const int64_t *t, int64_t n)
{
    for (int i = 0; i < 5; i++)
        if (tab_n[i] == n)
            return t[i];
    return 0;
}

/* An exact fraction (den > 0). */
typedef struct {
    int64_t num, den;
} frac_t;

static int64_t gcd64(int64_t a, int64_t b)
{
    if (a < 0)
        a = -a;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a ? a : 1;
}

static frac_t fr(int64_t num, int64_t den)
{
    int64_t g = gcd64(num, den);
    frac_t f = {num / g, den / g};
    return f;
}

static frac_t fr_add(frac_t a, frac_t b)
{
    int64_t g = gcd64(a.den, b.den);
    return fr(add(mul(a.num, b.den / g), mul(b.num, a.den / g)),
              mul(a.den / g, b.den));
}

static frac_t fr_mul(frac_t a, int64_t k)
{
    return fr(mul(a.num, k), a.den);
}

/* bytes / Network_BW = bytes x 1000 / 1998 clocks */
static frac_t fr_bytes(int64_t bytes)
{
    return fr(mul(bytes, 1000), C(iwarp, KBW));
}

/* value_clocks truncated to 3 decimals, predicted_clocks floored (the
 * terms are non-negative). */
static void kv_clocks(frac_t v)
{
    int64_t milli = mul(v.num, 1000) / v.den;
    key("value_clocks");
    printf("%" PRId64 ".%03" PRId64, milli / 1000, milli % 1000);
    kv_i("predicted_clocks", v.num / v.den);
}

/* A clock count with at most one decimal (74.5), in tenths. */
static int64_t parse_tenths(const char *opt, const char *s)
{
    const char *dot = strchr(s, '.');
    char ip[32];
    int64_t v;
    if (!dot)
        return mul(parse_int(opt, s, 0, INT64_MAX / 100), 10);
    if ((size_t)(dot - s) >= sizeof ip || dot == s || dot[1] < '0' ||
        dot[1] > '9' || dot[2] != '\0')
        die("%s: '%s' is not a number of clocks with at most one decimal", opt,
            s);
    memcpy(ip, s, (size_t)(dot - s));
    ip[dot - s] = '\0';
    v = parse_int(opt, ip, 0, INT64_MAX / 100);
    return add(mul(v, 10), dot[1] - '0');
}

static int64_t opt_tenths(const struct opts *o, const char *name, int64_t dflt)
{
    char opt[64];
    const char *v = opt_get(o, name);
    snprintf(opt, sizeof opt, "--%s", name);
    return v ? parse_tenths(opt, v) : dflt;
}

/* --array=WxH: the cell count (W, H >= 1). */
static int64_t opt_array(const struct opts *o, int64_t *w, int64_t *h)
{
    const char *v = opt_need(o, "array"), *x = strchr(v, 'x');
    char a[32];
    if (!x || (size_t)(x - v) >= sizeof a || x == v)
        die("--array: '%s' is not WxH (e.g. 8x8)", v);
    memcpy(a, v, (size_t)(x - v));
    a[x - v] = '\0';
    *w = parse_int("--array", a, 1, 1024);
    *h = parse_int("--array", x + 1, 1, 1024);
    return *w * *h;
}

static int ilog2_exact(int64_t n)
{
    int l = 0;
    while (((int64_t)1 << l) < n)
        l++;
    if (((int64_t)1 << l) != n)
        die("--array: the cell count %" PRId64 " is not a power of two", n);
    return l;
}

/* Figure 4.19's PCT 1D ring, 40 + (N-1) x 11.5, in tenths (W 5.2.1 uses
 * it for barrier_time(N)). */
static int64_t fig419_tenths(int64_t n)
{
    return add(mul(C(iwarp, KBST), 10), mul(n - 1, C(iwarp, KBMT)));
}

static void kv_tenths(const char *k, int64_t v)
{
    key(k);
    printf("%" PRId64 ".%" PRId64, v / 10, v % 10);
}

/* barrier_time(N) for the chapter 5 primitives, in tenths: Figure 4.19's
 * PCT row on a 1D ring (40 + (N-1) 11.5), or on the 2D rings of an N-cell
 * power-of-two rectangle W x H (40 + (W-1 + H-1) 11.5), or --barrier (e.g.
 * a measured one). */
static const char *const prim_rings[] = {"1d", "2d", NULL};
static int64_t prim_barrier_tenths(const struct opts *o, int64_t n, int *ring)
{
    int64_t b10 = fig419_tenths(n);
    *ring = opt_choice(o, "ring", prim_rings, 0);
    if (*ring == 1) {
        int lg = 0;
        int64_t w, h;
        while (((int64_t)1 << lg) < n)
            lg++;
        w = (int64_t)1 << ((lg + 1) / 2);
        h = n / w;
        if (w * h != n)
            die("--n: 2D rings need a power of two");
        b10 = add(mul(C(iwarp, KBST), 10), mul(w - 1 + h - 1, C(iwarp, KBMT)));
    }
    return opt_tenths(o, "barrier", b10);
}

/* W 5.2.1: switch + 3 x (barrier_lookup + barrier_time(N)), in tenths. */
static int64_t reconfig_tenths(int64_t barrier10)
{
    return add(mul(C(iwarp, KSW), 10),
               mul(3, add(mul(C(iwarp, KLOOK), 10), barrier10)));
}

static void cmd_tcs_reconfig(int argc, char **argv)
{
    struct opts o = {{"n", "ring", "barrier", NULL}, {0}};
    int ring;
    int64_t n, b10, seed;
    parse_opts(argc, argv, &o, iwarp);
    n = opt_int(&o, "n", 2, 1 << 20, 0, 1);
    b10 = prim_barrier_tenths(&o, n, &ring);
    kv_i("n", n);
    kv_s("ring", prim_rings[ring]);
    kv_tenths("barrier_clocks", b10);
    kv_tenths("reconfig_clocks", reconfig_tenths(b10));
    seed = tab_get(tab_reconf_sg, n);
    if (seed && ring == 0) /* W measured 1D rings (Figure 5.1) */
        kv_i("measured_paper", seed);
    kv_tenths("predicted_clocks", reconfig_tenths(b10));
    kv_end();
}

static void cmd_tcs_start(int argc, char **argv)
{
    struct opts o = {{"n", "ring", "barrier", "reconfig", NULL}, {0}};
    int ring;
    int64_t n, r10, v;
    parse_opts(argc, argv, &o, iwarp);
    n = opt_int(&o, "n", 2, 1 << 20, 0, 1);
    r10 = opt_tenths(&o, "reconfig",
                     reconfig_tenths(prim_barrier_tenths(&o, n, &ring)));
    v = add(mul(C(iwarp, KTCH), 10), r10);
    kv_i("n", n);
    kv_s("ring", prim_rings[ring]);
    kv_tenths("reconfig_clocks", r10);
    kv_tenths("start_clocks", v);
    kv_tenths("predicted_clocks", v);
    kv_end();
}

static void cmd_tcs_end(int argc, char **argv)
{
    struct opts o = {{"n", "ring", "barrier", NULL}, {0}};
    int ring;
    int64_t n, b10, v;
    parse_opts(argc, argv, &o, iwarp);
    n = opt_int(&o, "n", 2, 1 << 20, 0, 1);
    b10 = prim_barrier_tenths(&o, n, &ring);
    v = add(b10, mul(C(iwarp, KTRS), 10));
    kv_i("n", n);
    kv_s("ring", prim_rings[ring]);
    kv_tenths("barrier_clocks", b10);
    kv_tenths("end_clocks", v);
    kv_tenths("predicted_clocks", v);
    kv_end();
}

static const char *const impls[] = {"dep", "tcs", NULL};

/* A constant of W's table for N cells, or the option overriding it. */
static int64_t table_or_opt(const struct opts *o, const char *name,
                            const int64_t *t, int64_t n)
{
    int64_t v = tab_get(t, n);
    if (opt_get(o, name) || !v) {
        if (!opt_get(o, name))
            die("W gives no %s for %" PRId64 " cells: give --%s", name, n,
                name);
        v = opt_int(o, name, 0, INT64_MAX / 4000, 0, 1);
    }
    return v;
}

/* The keys common to the pattern commands. */
static void pattern_head(int impl, int64_t w, int64_t h, int64_t bytes)
{
    kv_s("impl", impls[impl]);
    key("array");
    printf("%" PRId64 "x%" PRId64, w, h);
    kv_i("cells", w * h);
    kv_i("bytes", bytes);
}

static void cmd_tcs_sg(int argc, char **argv)
{
    struct opts o = {{"impl", "array", "bytes", "phases", "reconfig", "latency",
                      "barrier", NULL},
                     {0}};
    int impl;
    int64_t w, h, n, s, b = 0, lat = 0, rc = 0, ph = 0;
    frac_t v;
    parse_opts(argc, argv, &o, iwarp);
    impl = opt_choice(&o, "impl", impls, -1);
    n = opt_array(&o, &w, &h);
    if (n < 2)
        die("--array: at least 2 cells");
    s = opt_int(&o, "bytes", 0, INT64_MAX / 4000, 0, 1);
    if (impl == 0) {
        /* W 6.2.1: C + (N-1)(send + lat + s/BW) + B + (N-1)(recv + lat +
         * s/BW) */
        frac_t snd = fr_add(fr(C(iwarp, KMS) + C(iwarp, KML), 1), fr_bytes(s));
        frac_t rcv = fr_add(fr(C(iwarp, KMR) + C(iwarp, KML), 1), fr_bytes(s));
        b = table_or_opt(&o, "barrier", tab_mp_barrier, n);
        v = fr(add(C(iwarp, KMC), b), 1);
        v = fr_add(v, fr_mul(fr_add(snd, rcv), n - 1));
    } else {
        /* W 6.2.2: 398 + (N-1) 2 (lat + s/BW) + reconfig x phases */
        lat = table_or_opt(&o, "latency", tab_latency, n);
        rc = table_or_opt(&o, "reconfig", tab_reconf_sg, n);
        ph = opt_int(&o, "phases", 1, 1 << 20, 2, 0);
        v = fr(add(C(iwarp, KTSG), mul(rc, ph)), 1);
        v = fr_add(v, fr_mul(fr_add(fr(lat, 1), fr_bytes(s)), 2 * (n - 1)));
    }
    pattern_head(impl, w, h, s);
    if (impl == 0) {
        kv_i("barrier", b);
    } else {
        kv_i("latency", lat);
        kv_i("reconfig", rc);
        kv_i("phases", ph);
    }
    kv_clocks(v);
    kv_end();
}

static void cmd_tcs_rb(int argc, char **argv)
{
    struct opts o = {
        {"impl", "array", "bytes", "phases", "reconfig", "latency", NULL}, {0}};
    int impl, lg;
    int64_t w, h, n, s, lat = 0, rc = 0, ph = 0;
    frac_t v;
    parse_opts(argc, argv, &o, iwarp);
    impl = opt_choice(&o, "impl", impls, -1);
    n = opt_array(&o, &w, &h);
    lg = ilog2_exact(n);
    s = opt_int(&o, "bytes", 0, INT64_MAX / 4000, 0, 1);
    if (impl == 0) {
        /* W 6.3.1: C + 2 log2 N (iter + send + lat + s/BW) + 448 */
        frac_t st = fr_add(fr(C(iwarp, KMI) + C(iwarp, KMS) + C(iwarp, KML), 1),
                           fr_bytes(s));
        v = fr(add(C(iwarp, KMC), C(iwarp, KB2D)), 1);
        v = fr_add(v, fr_mul(st, 2 * lg));
    } else {
        /* W 6.3.2: 302 + log2 N (iter + 2 (lat + s/BW)) + reconfig x
         * phases */
        frac_t st;
        lat = table_or_opt(&o, "latency", tab_latency, n);
        rc = table_or_opt(&o, "reconfig", tab_reconf_rb, n);
        ph = opt_int(&o, "phases", 1, 1 << 20, 2, 0);
        st = fr_add(fr(C(iwarp, KTRBI), 1),
                    fr_mul(fr_add(fr(lat, 1), fr_bytes(s)), 2));
        v = fr(add(C(iwarp, KTRB), mul(rc, ph)), 1);
        v = fr_add(v, fr_mul(st, lg));
    }
    pattern_head(impl, w, h, s);
    kv_i("stages", 2 * lg);
    if (impl == 0) {
        kv_i("barrier", C(iwarp, KB2D));
    } else {
        kv_i("latency", lat);
        kv_i("reconfig", rc);
        kv_i("phases", ph);
    }
    kv_clocks(v);
    kv_end();
}

/* One TCS all-to-all phase: max path latency, share P/Q of Network_BW. */
static frac_t a2a_phase(int64_t s, int64_t lat, int64_t p, int64_t q)
{
    frac_t v = fr(
        add(add(lat, C(iwarp, KTAB)), add(C(iwarp, KTFS), C(iwarp, KTAO))), 1);
    return fr_add(v, fr(mul(mul(s, 1000), q), mul(C(iwarp, KBW), p)));
}

static void parse_share(const char *opt, const char *t, int64_t *p, int64_t *q)
{
    const char *sl = strchr(t, '/');
    char a[32];
    if (!sl) {
        *p = parse_int(opt, t, 1, 1 << 20);
        *q = 1;
        return;
    }
    if ((size_t)(sl - t) >= sizeof a || sl == t)
        die("%s: '%s' is not P/Q", opt, t);
    memcpy(a, t, (size_t)(sl - t));
    a[sl - t] = '\0';
    *p = parse_int(opt, a, 1, 1 << 20);
    *q = parse_int(opt, sl + 1, 1, 1 << 20);
    if (*p > *q)
        die("%s: a share of the link is at most 1", opt);
}

static void cmd_tcs_a2a(int argc, char **argv)
{
    struct opts o = {{"impl", "array", "bytes", "phases", "latency", "share",
                      "barrier", NULL},
                     {0}};
    int impl;
    int64_t w, h, n, s;
    frac_t v;
    parse_opts(argc, argv, &o, iwarp);
    impl = opt_choice(&o, "impl", impls, -1);
    n = opt_array(&o, &w, &h);
    if (n < 2)
        die("--array: at least 2 cells");
    s = opt_int(&o, "bytes", 0, INT64_MAX / 4000, 0, 1);
    if (impl == 0) {
        /* W 6.4.1: C + (N-1)(iter + send + lat + s/BW) + (N-1)(recv + lat +
         * s/BW) + Barrier_time(N) */
        int64_t b = table_or_opt(&o, "barrier", tab_mp_barrier, n);
        frac_t snd = fr_add(
            fr(C(iwarp, KMI) + C(iwarp, KMS) + C(iwarp, KML), 1), fr_bytes(s));
        frac_t rcv = fr_add(fr(C(iwarp, KMR) + C(iwarp, KML), 1), fr_bytes(s));
        v = fr(add(C(iwarp, KMC), b), 1);
        v = fr_add(v, fr_mul(fr_add(snd, rcv), n - 1));
        pattern_head(impl, w, h, s);
        kv_i("barrier", b);
    } else {
        /* W 6.4.2: 10 + sum over phases (max latency + s / BW_phase + 432
         * + 162 + 459); --phases=K uniform phases (--latency, --share) or
         * a file of lines "LATENCY [P/Q]" */
        const char *ph = opt_need(&o, "phases");
        int64_t k = 0;
        v = fr(C(iwarp, KTA), 1);
        if (strspn(ph, "0123456789") == strlen(ph)) {
            int64_t p = 1, q = 1, lat;
            k = parse_int("--phases", ph, 1, 1 << 20);
            lat = opt_int(&o, "latency", 0, 1 << 30, 0, 1);
            if (opt_get(&o, "share"))
                parse_share("--share", opt_get(&o, "share"), &p, &q);
            v = fr_add(v, fr_mul(a2a_phase(s, lat, p, q), k));
        } else {
            FILE *f = fopen(ph, "r");
            char line[256];
            if (!f)
                die("--phases: cannot open '%s'", ph);
            while (fgets(line, sizeof line, f)) {
                char *tok = strtok(line, " \t\r\n"), *sh;
                int64_t p = 1, q = 1, lat;
                if (!tok || tok[0] == '#')
                    continue;
                lat = parse_int("--phases latency", tok, 0, 1 << 30);
                sh = strtok(NULL, " \t\r\n");
                if (sh)
                    parse_share("--phases share", sh, &p, &q);
                v = fr_add(v, a2a_phase(s, lat, p, q));
                k++;
            }
            fclose(f);
            if (k == 0)
                die("--phases: '%s' lists no phase", ph);
        }
        pattern_head(impl, w, h, s);
        kv_i("phases", k);
    }
    kv_clocks(v);
    kv_end();
}

/* W 7.3.1 latency: light_end + loading + (b-1) line + light_end + solo +
 * b x pixels x p + solo + light_start; completion of F frames [D]:
 * (F-1) T_frame + (lines - b) line + latency + out_words x word_time x b,
 * T_frame = lines x line + vblank (design 8.6). */
static void cmd_motion(int argc, char **argv)
{
    struct opts o = {{"block", "p", "loading", "frames", NULL}, {0}};
    int64_t b, p, load, lat, line = C(iwarp, KMDLINE);
    parse_opts(argc, argv, &o, iwarp);
    b = opt_int(&o, "block", 1, C(iwarp, KMDLINES), 0, 1);
    p = opt_int(&o, "p", 1, 1 << 20, 0, 1);
    load = opt_int(&o, "loading", 0, 1 << 30, C(iwarp, KMDL), 0);
    lat = C(iwarp, KMDLE) + load + mul(b - 1, line) + C(iwarp, KMDLE) +
          C(iwarp, KMDSOLO) + mul(mul(b, C(iwarp, KMDPIX)), p) +
          C(iwarp, KMDSOLO) + C(iwarp, KMDLS);
    kv_i("block", b);
    kv_i("p", p);
    kv_i("loading", load);
    kv_i("latency_clocks", lat);
    if (opt_get(&o, "frames")) {
        int64_t f = opt_int(&o, "frames", 1, 1 << 20, 1, 1);
        int64_t tf = add(mul(C(iwarp, KMDLINES), line), C(iwarp, KMDVB));
        kv_i("frames", f);
        kv_i("frame_clocks", tf);
        kv_i("completion_clocks",
             add(add(mul(f - 1, tf), mul(C(iwarp, KMDLINES) - b, line)),
                 add(lat, mul(mul(C(iwarp, KMDOW), C(iwarp, KMDWT)), b))));
    }
    kv_end();
}

/* ---- the constants ------------------------------------------------------ */

static void print_constants(const char *machine, const struct constant *t)
{
    for (; t->key; t++) {
        kv_s("machine", machine);
        kv_s("key", t->key);
        if (t->kind == C_COUNT) {
            kv_i("value", t->val);
        } else {
            key("value");
            {
                int save = out_ps;
                out_ps = 0;
                put_time(t->val);
                out_ps = save;
            }
        }
        kv_s("unit", t->unit);
        kv_s("source", t->source);
        kv_end();
    }
}

static void cmd_constants(int argc, char **argv)
{
    struct opts o = {{NULL}, {0}};
    parse_opts(argc, argv, &o, NULL);
    print_constants("ipsc860", ipsc);
    print_constants("paragon", paragon);
    print_constants("ncube", ncube);
    print_constants("iwarp", iwarp);
}

/* ---- --format=csv|json: the key=value lines as data ---------------------- */

/* The paper of each command, named by author and year. */
static const char *paper_of(const char *cmd)
{
    if (strncmp(cmd, "ipsc", 4) == 0 || strcmp(cmd, "rds-waits") == 0)
        return "Seidel and Davis 1992";
    if (strncmp(cmd, "paragon", 7) == 0 || strncmp(cmd, "cx-", 3) == 0)
        return "Bokhari and Nicol 1996";
    if (strncmp(cmd, "ncube", 5) == 0)
        return "Mudge, Buzzard and Abdel-Rahman 1987";
    if (strcmp(cmd, "subset") == 0)
        return "Feldmann, Gross, O'Hallaron and Stricker 1992";
    if (strncmp(cmd, "iwarp", 5) == 0 || strncmp(cmd, "tcs", 3) == 0 ||
        strcmp(cmd, "motion") == 0)
        return "Warfel 1996";
    return "Seidel and Davis 1992; Bokhari and Nicol 1996; Mudge, Buzzard "
           "and Abdel-Rahman 1987; Warfel 1996";
}

#define MAX_KV 64

/* Split one "k=v k=v" line in place; a value runs up to the next " key="
 * (so a last value such as paper=Bokhari and Nicol 1996 may hold spaces).
 * Returns the number of pairs. */
static int split_kv(char *line, char **k, char **v)
{
    int n = 0;
    char *p = line;
    while (*p && n < MAX_KV) {
        char *eq = strchr(p, '=');
        if (eq == NULL)
            break;
        *eq = '\0';
        k[n] = p;
        v[n] = eq + 1;
        /* the value ends before " word=" */
        char *q = eq + 1, *end = NULL;
        for (; *q; q++) {
            if (*q != ' ')
                continue;
            char *w = q + 1;
            while (*w &&
                   (isalnum((unsigned char)*w) || *w == '_' || *w == '\''))
                w++;
            if (w > q + 1 && *w == '=') {
                end = q;
                break;
            }
        }
        n++;
        if (end == NULL)
            break;
        *end = '\0';
        p = end + 1;
    }
    return n;
}

static int is_number(const char *s)
{
    char *end;
    if (*s == '\0' || isspace((unsigned char)*s))
        return 0;
    strtod(s, &end);
    return *end == '\0';
}

static void put_json_string(const char *s)
{
    quote_json(stdout, s);
}

static void put_csv(const char *s)
{
    quote_csv(stdout, s);
}

/* Print the key=value text @p buf as CSV (a header row whenever the keys
 * change; first columns table and paper) or JSON (provenance and rows). */
static void emit_as_data(char *buf, const char *cmd, int argc, char **argv)
{
    char header[4096] = "", *k[MAX_KV], *v[MAX_KV];
    int nrows = 0;
    if (out_format == 2) {
        printf("{\"program\": \"mce-predict\", \"command\": ");
        put_json_string(cmd);
        printf(", \"arguments\": [");
        for (int i = 2; i < argc; i++) {
            printf(i > 2 ? ", " : "");
            put_json_string(argv[i]);
        }
        printf("],\n \"paper\": ");
        put_json_string(paper_of(cmd));
        printf(",\n \"rows\": [");
    }
    for (char *line = buf, *nl; line && *line; line = nl) {
        nl = strchr(line, '\n');
        if (nl)
            *nl++ = '\0';
        int n = split_kv(line, k, v);
        const char *paper = paper_of(cmd);
        for (int i = 0; i < n; i++)
            if (strcmp(k[i], "paper") == 0 && !is_number(v[i]))
                paper = v[i];
        if (out_format == 1) {
            char h[sizeof header];
            size_t len = (size_t)snprintf(h, sizeof h, "table,paper");
            for (int i = 0; i < n && len < sizeof h; i++)
                if (!(strcmp(k[i], "paper") == 0 && !is_number(v[i])))
                    len +=
                        (size_t)snprintf(h + len, sizeof h - len, ",%s", k[i]);
            if (strcmp(h, header) != 0) {
                puts(h);
                memcpy(header, h, sizeof h);
            }
            put_csv(cmd);
            putchar(',');
            put_csv(paper);
            for (int i = 0; i < n; i++) {
                if (strcmp(k[i], "paper") == 0 && !is_number(v[i]))
                    continue;
                putchar(',');
                put_csv(strcmp(v[i], "n/a") == 0 ? "" : v[i]);
            }
            putchar('\n');
        } else {
            printf("%s\n  {\"table\": ", nrows ? "," : "");
            put_json_string(cmd);
            printf(", \"paper\": ");
            put_json_string(paper);
            for (int i = 0; i < n; i++) {
                if (strcmp(k[i], "paper") == 0 && !is_number(v[i]))
                    continue;
                printf(", ");
                put_json_string(k[i]);
                printf(": ");
                if (strcmp(v[i], "n/a") == 0)
                    fputs("null", stdout);
                else if (is_number(v[i]))
                    fputs(v[i], stdout);
                else
                    put_json_string(v[i]);
            }
            putchar('}');
        }
        nrows++;
    }
    if (out_format == 2)
        printf("\n ]}\n");
}

/* ---- compare: a program's rows against the formulas -----------------------
 */

/* One row of a program's CSV or JSON output: names and values as text. */
struct row {
    int n;
    char *k[MAX_KV], *v[MAX_KV];
};

static const char *row_get(const struct row *r, const char *key)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->k[i], key) == 0)
            return r->v[i];
    return NULL;
}

/* Run a subcommand with its output captured; returns the value of @p key
 * on the first line that has it (malloc'd), or NULL. */
static char *predict_value(void (*run)(int, char **), const char *cmd,
                           char **args, int nargs, const char *key,
                           const char *match)
{
    char *argv[16], *buf = NULL, *res = NULL;
    size_t len = 0;
    int argc = 0;
    argv[argc++] = "mce-predict";
    argv[argc++] = (char *)cmd;
    for (int i = 0; i < nargs && argc < 15; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;
    FILE *mem = open_memstream(&buf, &len), *real = stdout;
    if (mem == NULL)
        die("out of memory");
    const char *saved = cmd_name;
    int saved_ps = out_ps;
    cmd_name = cmd;
    out_ps = 0;
    stdout = mem;
    run(argc, argv);
    fflush(mem);
    stdout = real;
    fclose(mem);
    cmd_name = saved;
    out_ps = saved_ps;
    for (char *line = buf, *nl; line && *line && !res; line = nl) {
        char *k[MAX_KV], *v[MAX_KV];
        nl = strchr(line, '\n');
        if (nl)
            *nl++ = '\0';
        if (match && strstr(line, match) != line)
            continue;
        int n = split_kv(line, k, v);
        for (int i = 0; i < n; i++)
            if (strcmp(k[i], key) == 0 && strcmp(v[i], "n/a") != 0) {
                res = strdup(v[i]);
                break;
            }
    }
    free(buf);
    return res;
}

static void cmp_line(const struct row *r, const char *table, const char *what,
                     const char *unit, double emu, const char *pred,
                     const char *formula, const char *paper)
{
    kv_s("program", table);
    /* the row's own keys ("alg=scott nodes=16 ..."), as they are */
    if (!line_first)
        putchar(' ');
    line_first = 0;
    fputs(what, stdout);
    kv_s("unit", unit);
    key("emulated");
    printf("%.6g", emu);
    if (pred) {
        double p = strtod(pred, NULL);
        key("predicted");
        printf("%.6g", p);
        key("diff");
        printf("%.6g", emu - p);
        key("ratio");
        if (p != 0)
            printf("%.4f", emu / p);
        else
            fputs("n/a", stdout);
    } else {
        kv_s("predicted", "n/a");
        kv_s("diff", "n/a");
        kv_s("ratio", "n/a");
    }
    kv_s("formula", formula);
    kv_s("paper", paper);
    kv_end();
    (void)r;
}

static void compare_row(const struct row *r, const char *machine)
{
    const char *t = row_get(r, "table");
    char a1[64], a2[64], a3[64], a4[64], what[160];
    char *args[4] = {a1, a2, a3, a4}, *p;
    if (t == NULL)
        return;
    if (strcmp(t, "complete_exchange") == 0) {
        const char *alg = row_get(r, "alg"), *nodes = row_get(r, "nodes"),
                   *m = row_get(r, "bytes"), *g = row_get(r, "linkC"),
                   *e = row_get(r, "emulated_ms");
        if (!alg || !nodes || !m || !e)
            return;
        long side = lround(sqrt(strtod(nodes, NULL)));
        int na = 3;
        snprintf(a1, sizeof a1, "--alg=%s", alg);
        snprintf(a2, sizeof a2, "--n=%ld", side);
        snprintf(a3, sizeof a3, "--m=%s", m);
        if (strcmp(alg, "bounded") == 0 && g && *g) {
            /* the program's g counts permutations between barriers; the
             * paper's c = g for g <= n/4 (node contention 1) */
            if (strtol(g, NULL, 10) > side / 4)
                na = -1;
            snprintf(a4, sizeof a4, "--c=%s", g);
            na = na < 0 ? -1 : 4;
        }
        snprintf(what, sizeof what, "alg=%s nodes=%s linkC=%s bytes=%s", alg,
                 nodes, g && *g ? g : "-", m);
        p = na < 0 ? NULL
                   : predict_value(cmd_cx_time, "cx-time", args, na, "total_us",
                                   NULL);
        char ms[64];
        if (p) {
            snprintf(ms, sizeof ms, "%.6f", strtod(p, NULL) / 1000.0);
            free(p);
        }
        cmp_line(r, t, what, "ms", strtod(e, NULL), p ? ms : NULL,
                 "steps*comm+barriers*sync (lower bound)",
                 "Bokhari and Nicol 1996");
    } else if (strcmp(t, "ring_vertex") == 0) {
        const char *s = row_get(r, "scheme"), *m = row_get(r, "bytes"),
                   *e = row_get(r, "us_per_message");
        if (!s || !m || !e)
            return;
        snprintf(a1, sizeof a1, "--m=%s", m);
        snprintf(a2, sizeof a2, "--scheme=%s", s);
        p = predict_value(cmd_ncube, "ncube", args, 2, "tcomm_us", NULL);
        snprintf(what, sizeof what, "scheme=%s bytes=%s", s, m);
        cmp_line(r, t, what, "us", strtod(e, NULL), p, "t_comm=f+x*m",
                 "Mudge, Buzzard and Abdel-Rahman 1987");
        free(p);
    } else if (strcmp(t, "shift_sync") == 0) {
        const char *s = row_get(r, "sync"), *pr = row_get(r, "proto"),
                   *m = row_get(r, "bytes"), *e = row_get(r, "shift_us");
        if (!s || !pr || !m || !e)
            return;
        int forced = strcmp(pr, "forced") == 0;
        snprintf(a1, sizeof a1, "--m=%s", m);
        snprintf(a2, sizeof a2, "--delta=0");
        p = predict_value(cmd_ipsc_table2, "ipsc-table2", args, 2, "cost_us",
                          forced ? "row=2-7 " : "row=2-5 ");
        snprintf(what, sizeof what, "sync=%s proto=%s bytes=%s", s, pr, m);
        cmp_line(r, t, what, "us", strtod(e, NULL), p,
                 forced ? "Table II 2-7 am+bs" : "Table II 2-5 am+bl",
                 "Seidel and Davis 1992");
        free(p);
    } else if (strcmp(t, "shift_sync_table3") == 0) {
        const char *d = row_get(r, "d"), *e = row_get(r, "min_m");
        if (!d || !e)
            return;
        snprintf(a1, sizeof a1, "--d=%s", d);
        p = predict_value(cmd_ipsc_table3, "ipsc-table3", args, 1, "min_m",
                          NULL);
        snprintf(what, sizeof what, "d=%s", d);
        cmp_line(r, t, what, "bytes", strtod(e, NULL), p,
                 "Table III m>=(2d*bs-bl/2)/a", "Seidel and Davis 1992");
        free(p);
    } else if (strcmp(t, "pingpong") == 0) {
        const char *m = row_get(r, "bytes"), *e = row_get(r, "round_trip_ps");
        if (!m || !e || machine == NULL)
            return;
        double us = strtod(e, NULL) / 1e6;
        char rt[64];
        snprintf(what, sizeof what, "bytes=%s machine=%s", m, machine);
        snprintf(a1, sizeof a1, "--m=%s", m);
        if (strcmp(machine, "ipsc860") == 0) {
            long mm = strtol(m, NULL, 10);
            snprintf(a2, sizeof a2, "--delta=0");
            p = predict_value(cmd_ipsc_table2, "ipsc-table2", args, 2,
                              "cost_us",
                              mm <= 100 ? "row=send-short " : "row=send-long ");
            if (p)
                snprintf(rt, sizeof rt, "%.6f", 2 * strtod(p, NULL));
            cmp_line(r, t, what, "us", us, p ? rt : NULL,
                     mm <= 100 ? "2(am+bs)" : "2(am+bl)",
                     "Seidel and Davis 1992");
        } else if (strcmp(machine, "paragon") == 0) {
            p = predict_value(cmd_paragon_comm, "paragon-comm", args, 1,
                              "comm_us", "m=");
            if (p)
                snprintf(rt, sizeof rt, "%.6f", 2 * strtod(p, NULL));
            cmp_line(r, t, what, "us", us, p ? rt : NULL,
                     "2(231+0.022m), m>=8640", "Bokhari and Nicol 1996");
        } else if (strcmp(machine, "ncube") == 0) {
            snprintf(a2, sizeof a2, "--scheme=standard");
            p = predict_value(cmd_ncube, "ncube", args, 2, "tcomm_us", NULL);
            if (p)
                snprintf(rt, sizeof rt, "%.6f", 2 * strtod(p, NULL));
            cmp_line(r, t, what, "us", us, p ? rt : NULL, "2(f+x*m) standard",
                     "Mudge, Buzzard and Abdel-Rahman 1987");
        } else {
            return;
        }
        free(p);
    }
}

/* A minimal reader of the flat rows that apps/opts.c writes. */
static int read_csv_rows(char *buf, const char *machine)
{
    char *hdr[MAX_KV];
    int nh = 0, rows = 0;
    for (char *line = buf, *nl; line && *line; line = nl) {
        nl = strchr(line, '\n');
        if (nl)
            *nl++ = '\0';
        char *f[MAX_KV];
        int n = 0;
        for (char *p = line; n < MAX_KV;) {
            f[n++] = p;
            if (*p == '"') { /* quoted: "" is a quote */
                char *w = p, *q = p + 1;
                for (; *q && !(*q == '"' && q[1] != '"'); q++) {
                    if (*q == '"')
                        q++;
                    *w++ = *q;
                }
                *w = '\0';
                p = *q ? q + 1 : q;
            }
            p = strchr(p, ',');
            if (p == NULL)
                break;
            *p++ = '\0';
        }
        if (n > 0 && strcmp(f[0], "table") == 0) {
            nh = n;
            memcpy(hdr, f, sizeof(char *) * (size_t)n);
            continue;
        }
        if (nh == 0 || n != nh)
            continue; /* not a row: a summary or other text */
        struct row r = {.n = n};
        for (int i = 0; i < n; i++)
            r.k[i] = hdr[i], r.v[i] = f[i];
        compare_row(&r, machine);
        rows++;
    }
    return rows;
}

/* The next JSON string or bare value (number, null) at *pp, copied. */
static char *json_token(char **pp)
{
    char *p = *pp, *res;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '"') {
        char *start = ++p, *w = p;
        for (; *p && *p != '"'; p++) {
            if (*p == '\\' && p[1])
                p++;
            *w++ = *p;
        }
        if (*p)
            p++;
        res = strndup(start, (size_t)(w - start));
    } else {
        char *start = p;
        while (*p && !strchr(",}] \n\t", *p))
            p++;
        res = strndup(start, (size_t)(p - start));
    }
    if (res == NULL)
        die("out of memory");
    *pp = p;
    return res;
}

static int read_json_rows(char *buf, const char *machine)
{
    char *p = strstr(buf, "\"rows\"");
    int rows = 0;
    if (p == NULL || (p = strchr(p, '[')) == NULL)
        die("no \"rows\" array in the JSON input");
    p++;
    for (;;) {
        while (*p && *p != '{' && *p != ']')
            p++;
        if (*p != '{')
            break;
        p++;
        struct row r = {.n = 0};
        char *owned[2 * MAX_KV];
        int no = 0;
        while (*p) {
            while (isspace((unsigned char)*p) || *p == ',')
                p++;
            if (*p == '}') {
                p++;
                break;
            }
            char *k = json_token(&p);
            while (isspace((unsigned char)*p) || *p == ':')
                p++;
            char *v = json_token(&p);
            owned[no++] = k;
            owned[no++] = v;
            if (strcmp(v, "null") == 0)
                v[0] = '\0';
            if (r.n < MAX_KV) {
                r.k[r.n] = k;
                r.v[r.n] = v;
                r.n++;
            }
            if (no >= 2 * MAX_KV)
                break;
        }
        compare_row(&r, machine);
        rows++;
        for (int i = 0; i < no; i++)
            free(owned[i]);
    }
    return rows;
}

static void cmd_compare(int argc, char **argv)
{
    const char *file = NULL, *machine = NULL;
    for (int i = 2; i < argc; i++) {
        if (strncmp(argv[i], "--machine=", 10) == 0)
            machine = argv[i] + 10;
        else if (strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            exit(0);
        } else if (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)
            file = argv[i];
        else
            die("unknown option '%s'", argv[i]);
    }
    if (file == NULL)
        die("which file? (compare FILE.csv|FILE.json|-)");
    if (machine && strcmp(machine, "ipsc860") && strcmp(machine, "paragon") &&
        strcmp(machine, "ncube"))
        die("--machine: ipsc860, paragon or ncube");
    FILE *f = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
    if (f == NULL)
        die("cannot open '%s'", file);
    char *buf = NULL;
    size_t cap = 0, len = 0, got;
    char chunk[4096];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + got + 1 > cap) {
            cap = 2 * (len + got + 1);
            char *nb = realloc(buf, cap);
            if (nb == NULL)
                die("out of memory");
            buf = nb;
        }
        memcpy(buf + len, chunk, got);
        len += got;
    }
    if (f != stdin)
        fclose(f);
    if (buf == NULL)
        die("'%s' is empty", file);
    buf[len] = '\0';
    char *p = buf;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '{')
        read_json_rows(p, machine);
    else
        read_csv_rows(p, machine);
    free(buf);
}

/* ---- main --------------------------------------------------------------- */

static void usage(FILE *f)
{
    fputs(
        "usage: mce-predict COMMAND [OPTIONS]\n"
        "\n"
        "Prints the analytic cost formulas of mcemu's source papers (Seidel\n"
        "and Davis 1992; Bokhari and Nicol 1996; Mudge, Buzzard and\n"
        "Abdel-Rahman 1987; Warfel 1996; Feldmann, Gross, O'Hallaron and\n"
        "Stricker 1992), one \"key=value ...\" line per result.  Options take "
        "--opt=VALUE or\n"
        "--opt VALUE.  Times are given and printed in microseconds.\n"
        "\n"
        "iPSC/860, Seidel and Davis 1992:\n"
        "  ipsc-table2 --m=BYTES --delta=US [--boundary-us=US]\n"
        "      One line per Table II row (send short/long/forced, figures\n"
        "      2-1 to 2-7) with its printed range and formula; cost_us=n/a\n"
        "      when delta is outside the row's range (delta_ok=no) or the\n"
        "      protocol does not carry m bytes (m_ok=no: short is m<=100,\n"
        "      long and forced m>100).  The short send costs am+bs: the\n"
        "      paper prints bs (printed_formula=bs), but its at most 100\n"
        "      bytes still cross the wire (at most 36 us, as the emulator\n"
        "      charges).  Row 2-2-late is section 2.2's\n"
        "      delta > am+bl/2 case.  A last line, row=mechanism, says which\n"
        "      range delta falls in with the paper's boundary b_s and with\n"
        "      the port-occupancy boundary --boundary-us (default b_l/2),\n"
        "      and the cost of the applicable rule (exchange: concurrent\n"
        "      below the boundary, sequential up to am+bl/2, late beyond;\n"
        "      shift: concurrent, sequential up to am, n/a beyond).\n"
        "  ipsc-table3 [--d=D]\n"
        "      Table III, m >= (2 d b_s - b_l/2)/a, for d=2..7 or one d:\n"
        "      m_exact (2 decimals), min_m = the smallest integer m (ceil),\n"
        "      and the printed value.\n"
        "  ipsc-sync --d=D --delta=US [--alg=gsync|sync0|rds|all]\n"
        "      Cost and precision of gsync() (3.1), sync0() (3.2), RDS\n"
        "      (3.3; with its phases).  paper_says=stated|approx|example\n"
        "      tells whether the paper states the formula, calls it "
        "approximate,\n"
        "      or derives it only for delta = b_s; case=worst marks the\n"
        "      paper's worst case (the late node's message blocked at every\n"
        "      later step), an upper bound on the cost.\n"
        "  rds-waits --d=D\n"
        "      Per node i: w_i = (d - |i|_1)(b_s - s), the busy-loop count\n"
        "      k = (w_i - 2.0)/0.126, iters = k rounded to the nearest\n"
        "      integer (0 when w_i <= 2.0) and loop_us = 0.126 iters + 2.0.\n"
        "  Constants: --constants a=0.36,bl=136,bs=75,s=44,kper=0.126,kfix=2\n"
        "\n"
        "Paragon, Bokhari and Nicol 1996:\n"
        "  paragon-sync --nodes=N | --side=n\n"
        "      Table 1 synchronisation 27.1 log2 N - 134 (N = node count,\n"
        "      n x n = N); sync_fit=negative below 32 nodes.\n"
        "  paragon-comm --m=BYTES\n"
        "      Table 1 communication 231 + 0.022 m; m_ok=no below 8640.\n"
        "  cx-steps [--n=n [--c=C]]\n"
        "      Complete exchange steps n^3/4c on an n x n mesh (n a\n"
        "      multiple of 4, c dividing n/4), with Scott's n^3/4, naive\n"
        "      N-1 and the minimum n^2.  Without --c: every valid c; without\n"
        "      --n: Table 2 (n = 4..32) with the printed values.\n"
        "  cx-time --alg=bounded|scott|naive --n=n --m=BYTES [--c=C]\n"
        "      Predicted time = steps x comm + barriers x sync (the paper's\n"
        "      lower bound), one barrier per step for bounded and scott,\n"
        "      none for naive (N-1 steps); upper = n^3/4 x comm + barriers\n"
        "      x sync (every permutation serial).\n"
        "  Constants: --constants sync_slope=27.1,sync_offset=134,\n"
        "      comm_fixed=231,comm_per_byte=0.022,comm_min_m=8640\n"
        "\n"
        "NCUBE, Mudge, Buzzard and Abdel-Rahman 1987:\n"
        "  ncube --m=BYTES [--scheme=standard|extended|both]\n"
        "      Table 1 t_comm = f + x m and t'_comm = 4 t_comm(m)/m.\n"
        "  ncube-table2\n"
        "      t'_comm for Table 2's sizes against its printed values.\n"
        "  Constants: --constants std_fixed=466.40,std_per_byte=3.14,\n"
        "      ext_fixed=83.20,ext_per_byte=1.29\n"
        "\n"
        "iWarp, Warfel 1996, in clocks (20 MHz):\n"
        "  iwarp-pct --bytes=BYTES --dist=CELLS | --table=1\n"
        "      PCT connection time 36 + bytes/1.998 + 5 dist (W 3.2.1),\n"
        "      value_clocks truncated to 3 decimals and predicted_clocks\n"
        "      floored as Figures 3.7/3.8 print it; --table: every entry of\n"
        "      the figures' (predict) row with the printed value.\n"
        "  iwarp-deposit --bytes=BYTES --dist=CELLS | --table=1\n"
        "      Deposit message passing O + bytes/1.998 + 5 dist, O = 253 for\n"
        "      4 bytes and 359 above (W 3.2.3, 6.2.1), floored as Figures\n"
        "      3.10/3.11 print it; --table: every (predict) entry with the\n"
        "      printed value.\n"
        "  iwarp-barrier --scheme=ring1d|cube|token2x|tree|ring2d\n"
        "      --signal=pct|dep|rts --n=CELLS [--seq=0|1]\n"
        "      Figure 4.19 (W 4.5.2): startup 40 + k x message_time (11.5,\n"
        "      260, 28340 clocks), k for fully parallel and fully\n"
        "      sequential messaging; predicted_clocks is the parallel column\n"
        "      for pct and dep and the sequential one for rts (--seq\n"
        "      chooses).  ring2d: 2D rings over W x H = 2x2, 4x2, 4x4, ...\n"
        "\n"
        "iWarp SRU and CAM ring, Feldmann, Gross, O'Hallaron and Stricker "
        "1992, in clocks:\n"
        "  subset --alg=bcast|ring|ring1|ring2|ring3 [--n=N] [--hops=H] [--words=K]\n"
        "         [--spread=T] [--stride=S]\n"
        "      Primitive costs: SRU broadcast step send_sw + 36 bits x 16 +\n"
        "      recv_sw (and as emulated, starting on a bit boundary), the\n"
        "      bus bound of Algorithm 1, the straggler's two broadcasts\n"
        "      (125 us); selective_send/receive (compose/load + split + 4 k\n"
        "      + join), one ring step over H hops, and the rounds of RING1\n"
        "      (n) and RING2 (2 log2 n); the paper's straggler figures.\n"
        "\n"
        "TCS and chapters 5-7, Warfel 1996, in clocks:\n"
        "  tcs-reconfig --n=CELLS [--ring=1d|2d] [--barrier=CLOCKS]\n"
        "      W 5.2.1: switch 162 + 3 x (lookup 12 + barrier), barrier by\n"
        "      default Figure 4.19's PCT ring: 1D 40 + (N-1) x 11.5, 2D 40\n"
        "      + (W-1 + H-1) x 11.5; measured_paper: W 6.2.2's 444 / 872 /\n"
        "      2551 for 4 / 16 / 64.\n"
        "  tcs-start --n=CELLS [--ring=1d|2d] [--barrier=CLOCKS]\n"
        "      [--reconfig=CLOCKS]\n"
        "      W 5.3.1: task change 130 + reconfiguration(N) (--reconfig:\n"
        "      the one to add; W uses the measured one).\n"
        "  tcs-end --n=CELLS [--ring=1d|2d] [--barrier=CLOCKS]\n"
        "      W 5.4.1: barrier(N) + parent restoration 70.\n"
        "  tcs-sg --impl=dep|tcs --array=WxH --bytes=BYTES [--barrier=B]\n"
        "      [--latency=L] [--reconfig=R] [--phases=K]\n"
        "      Scatter/gather: dep W 6.2.1, 100 + (N-1)(359 + 20 + s/BW) +\n"
        "      B + (N-1)(230 + 20 + s/BW), B = W 6.4.1's 77 / 127 / 219 /\n"
        "      404 / 780; tcs W 6.2.2, 398 + (N-1) 2 (L + s/BW) + R x K, L\n"
        "      38 / 59 / 66, R 444 / 872 / 2551 for 4 / 16 / 64 cells, K 2.\n"
        "  tcs-rb --impl=dep|tcs --array=WxH --bytes=BYTES [--latency=L]\n"
        "      [--reconfig=R] [--phases=K]\n"
        "      Reduction/broadcast: dep W 6.3.1, 100 + 2 log2 N (40 + 359\n"
        "      + 20 + s/BW) + 448; tcs W 6.3.2, 302 + log2 N (40 + 2 (L +\n"
        "      s/BW)) + R x K, R 441 / 869 / 2550, K 2.\n"
        "  tcs-a2a --impl=dep|tcs --array=WxH --bytes=BYTES [--barrier=B]\n"
        "      [--phases=K --latency=L [--share=P/Q] | --phases=FILE]\n"
        "      All-to-all: dep W 6.4.1, 100 + (N-1)(40 + 359 + 20 + s/BW)\n"
        "      + (N-1)(230 + 20 + s/BW) + B; tcs W 6.4.2, 10 + the sum over\n"
        "      the phases of (L + s/(BW x P/Q) + 432 + 162 + 459), phases K\n"
        "      alike or one per FILE line \"LATENCY [P/Q]\".\n"
        "      BW = 1.998 bytes/clock; value_clocks truncated to 3\n"
        "      decimals, predicted_clocks floored.\n"
        "  motion --block=LINES --p=CLOCKS [--loading=1280|1024]\n"
        "      [--frames=F]\n"
        "      W 7.3.1 latency 60 + loading + (b-1) 1336 + 60 + 20 + b 256\n"
        "      p + 20 + 225; with --frames the completion time (F-1)\n"
        "      T_frame + (240-b) 1336 + latency + 128 b, T_frame = 240 x\n"
        "      1336 + 12000 (design 8.6).\n"
        "  Constants: --constants mp_send=359,... (see constants)\n"
        "\n"
        "  constants   the default constants of every machine.\n"
        "\n"
        "Comparing a program's results with the formulas:\n"
        "  compare FILE|- [--machine=ipsc860|paragon|ncube]\n"
        "      Reads the CSV or JSON that a program of apps/ writes with\n"
        "      --format=csv|json and prints per row the emulated value, the\n"
        "      predicted one, diff = emulated - predicted, ratio and the\n"
        "      paper: complete_exchange (cx-time's lower bound; bounded only\n"
        "      for c <= n/4), ring_vertex (ncube),\n"
        "      shift_sync (Table II 2-5 / 2-7 at delta 0: the shift alone),\n"
        "      shift_sync_table3 (ipsc-table3) and pingpong (2 x one send on\n"
        "      --machine: ipsc860 Table II, paragon Table 1, ncube standard\n"
        "      Vertex).  Other rows are skipped.\n"
        "\n"
        "Common options:\n"
        "  --constants KEY=VALUE[,...]  override a machine's constants\n"
        "  --ps                         print times in picoseconds (keys\n"
        "                               end in _ps instead of _us)\n"
        "  --format=kv|csv|json         key=value lines (default), CSV (a\n"
        "                               header row, first columns table and\n"
        "                               paper) or JSON (command, arguments,\n"
        "                               paper, rows)\n"
        "  --help                       this text\n"
        "\n"
        "Numbers: inputs are exact decimals of at most 6 decimals (1 ps);\n"
        "sizes and counts are non-negative integers.  All arithmetic is\n"
        "exact (integers of 0.1 ps) and times are printed exactly, with at\n"
        "least 2 decimals and as many more as exactness needs (ps: none\n"
        "or one).  Rounded are only quotients (m_exact and k to 2\n"
        "decimals; t'_comm to 0.1 ps), min_m (ceil) and iters (nearest),\n"
        "and log2 of a node count that is not a power of two (the sync\n"
        "term to 0.1 ps).  Errors name the option and exit with status 2.\n",
        f);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(int, char **);
    } cmds[] = {
        {"ipsc-table2", cmd_ipsc_table2},
        {"ipsc-table3", cmd_ipsc_table3},
        {"ipsc-sync", cmd_ipsc_sync},
        {"rds-waits", cmd_rds_waits},
        {"paragon-sync", cmd_paragon_sync},
        {"paragon-comm", cmd_paragon_comm},
        {"cx-steps", cmd_cx_steps},
        {"cx-time", cmd_cx_time},
        {"ncube", cmd_ncube},
        {"ncube-table2", cmd_ncube_table2},
        {"iwarp-pct", cmd_iwarp_pct},
        {"iwarp-deposit", cmd_iwarp_deposit},
        {"iwarp-barrier", cmd_iwarp_barrier},
        {"subset", cmd_subset},
        {"tcs-reconfig", cmd_tcs_reconfig},
        {"tcs-start", cmd_tcs_start},
        {"tcs-end", cmd_tcs_end},
        {"tcs-sg", cmd_tcs_sg},
        {"tcs-rb", cmd_tcs_rb},
        {"tcs-a2a", cmd_tcs_a2a},
        {"motion", cmd_motion},
        {"constants", cmd_constants},
        {"compare", cmd_compare},
    };
    /* --format applies to every command: take it out before they parse */
    int kept = 1;
    for (int i = 1; i < argc; i++) {
        const char *f = NULL;
        if (strncmp(argv[i], "--format=", 9) == 0)
            f = argv[i] + 9;
        else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc)
            f = argv[++i];
        if (f == NULL) {
            argv[kept++] = argv[i];
            continue;
        }
        if (strcmp(f, "kv") == 0)
            out_format = 0;
        else if (strcmp(f, "csv") == 0)
            out_format = 1;
        else if (strcmp(f, "json") == 0)
            out_format = 2;
        else
            die("--format: kv, csv or json");
    }
    argc = kept;
    argv[argc] = NULL;
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(argv[1], cmds[i].name) == 0) {
            char *buf = NULL;
            size_t len = 0;
            FILE *mem = NULL, *real = stdout;
            cmd_name = cmds[i].name;
            if (out_format != 0) {
                /* run on key=value lines, then print them as data */
                if ((mem = open_memstream(&buf, &len)) == NULL)
                    die("out of memory");
                stdout = mem;
            }
            cmds[i].run(argc, argv);
            if (mem != NULL) {
                fflush(mem);
                stdout = real;
                fclose(mem);
                emit_as_data(buf, cmds[i].name, argc, argv);
                free(buf);
            }
            if (fflush(stdout) != 0 || ferror(stdout)) {
                fputs("mce-predict: error writing the output\n", stderr);
                return 1;
            }
            return 0;
        }
    die("unknown command '%s'", argv[1]);
    return 2;
}
