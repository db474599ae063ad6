/* Shared parts of mce-predict: errors, checked arithmetic, parsing,
 * the key=value output, --constants and the options. */
#include "predict.h"

const char *cmd_name; /* the subcommand, for error messages */
int out_ps;           /* --ps: print times in picoseconds */
int out_format;       /* --format: 0 key=value, 1 csv, 2 json */

/* ---- errors and checked arithmetic ------------------------------------ */

void die(const char *fmt, ...)
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

int64_t add(int64_t a, int64_t b)
{
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        die("the inputs are too large: a result overflows 64 bits");
    return a + b;
}

int64_t sub(int64_t a, int64_t b)
{
    if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b))
        die("the inputs are too large: a result overflows 64 bits");
    return a - b;
}

int64_t mul(int64_t a, int64_t b)
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
int64_t rdiv(int64_t num, int64_t den)
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
int64_t cdiv(int64_t num, int64_t den)
{
    int64_t q = num / den;
    if (num % den != 0 && num > 0)
        q++;
    return q;
}

/* ---- parsing ------------------------------------------------------------ */

/* A non-negative integer in [min, max]. */
int64_t parse_int(const char *opt, const char *s, int64_t min, int64_t max)
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

int line_first = 1;

void key(const char *k)
{
    if (!line_first)
        putchar(' ');
    line_first = 0;
    fputs(k, stdout);
    putchar('=');
}

void kv_end(void)
{
    putchar('\n');
    line_first = 1;
}

void kv_s(const char *k, const char *v)
{
    key(k);
    fputs(v, stdout);
}

void kv_i(const char *k, int64_t v)
{
    key(k);
    printf("%" PRId64, v);
}

/* Print v (units) exactly in microseconds or picoseconds: at least 2
 * decimals for microseconds, none for picoseconds, trailing zeros beyond
 * that trimmed. */
void put_time(int64_t v)
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
void kv_t(const char *k, int64_t v)
{
    char name[64];
    snprintf(name, sizeof name, "%s_%s", k, out_ps ? "ps" : "us");
    key(name);
    put_time(v);
}

void kv_t_na(const char *k)
{
    char name[64];
    snprintf(name, sizeof name, "%s_%s", k, out_ps ? "ps" : "us");
    kv_s(name, "n/a");
}

/* num / den rounded to the nearest 0.1 ps, as a time. */
void kv_t_ratio(const char *k, int64_t num, int64_t den)
{
    kv_t(k, rdiv(num, den));
}

/* num / den rounded half away from zero to `dec` decimals (a pure number,
 * not a time). */
void kv_ratio(const char *k, int64_t num, int64_t den, int dec)
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

/* Parse argv[2..] against the allowed options: --name=value or
 * --name value (last one wins); --constants goes to `tab`. */
void parse_opts(int argc, char **argv, struct opts *o, struct constant *tab)
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

const char *opt_get(const struct opts *o, const char *name)
{
    for (int k = 0; o->name[k]; k++)
        if (strcmp(o->name[k], name) == 0)
            return o->val[k];
    return NULL;
}

const char *opt_need(const struct opts *o, const char *name)
{
    const char *v = opt_get(o, name);
    if (!v)
        die("option --%s is required", name);
    return v;
}

int64_t opt_int(const struct opts *o, const char *name, int64_t min,
                int64_t max, int64_t dflt, int required)
{
    char opt[64];
    const char *v = required ? opt_need(o, name) : opt_get(o, name);
    snprintf(opt, sizeof opt, "--%s", name);
    return v ? parse_int(opt, v, min, max) : dflt;
}

int64_t opt_us(const struct opts *o, const char *name, int64_t dflt,
               int required)
{
    char opt[64];
    const char *v = required ? opt_need(o, name) : opt_get(o, name);
    snprintf(opt, sizeof opt, "--%s", name);
    return v ? parse_us(opt, v) : dflt;
}

/* Index of the option's value in the list "a|b|c", or dflt if absent. */
int opt_choice(const struct opts *o, const char *name,
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

int64_t C(const struct constant *t, int i)
{
    return t[i].val;
}
