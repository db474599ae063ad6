/* mce-predict, Warfel 1996 chapters 5-7: TCS reconfiguration, task
 * start and end, the communication patterns and the motion detector. */
#include "predict.h"

/* ---- TCS and the chapter 6-7 models (Warfel 1996) -------------- */

/* Constants of the models, in clocks (or as noted); the chapter 6 ones are
 * also the app.mp_* prediction keys of share/machines/iwarp.conf. */
struct constant iwarp[] = {
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
    /* W 6.3.2 lists no Per_iteration_overhead: 6.3.1's 40, assumed */
    {"tcs_rb_iteration", C_COUNT, 0, 40, "clocks", "Warfel-1996:W6.3.1[C]"},
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

void cmd_tcs_reconfig(int argc, char **argv)
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

void cmd_tcs_start(int argc, char **argv)
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

void cmd_tcs_end(int argc, char **argv)
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

void cmd_tcs_sg(int argc, char **argv)
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

void cmd_tcs_rb(int argc, char **argv)
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
         * phases; reconfig W's full chapter 5 reconfiguration, phases by
         * default 2 (a reduction and a broadcast netgroup: W lists no
         * Number_of_phases), iter 40 (W lists none: 6.3.1's) */
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
        kv_i("iteration", C(iwarp, KTRBI));
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

void cmd_tcs_a2a(int argc, char **argv)
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
void cmd_motion(int argc, char **argv)
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
