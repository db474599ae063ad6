/* Exact decimal parsing of times and sizes; formatting of times. */
#include "mcei.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *skip_space(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return s;
}

/*
 * Parse "<digits>[.<digits>]" into its integer part, its fraction digits
 * (up to 18, further digits must be zeros) and their count.
 */
static int parse_decimal(const char *s, const char **end, uint64_t *ipart,
                         uint64_t *frac, unsigned *fdigits)
{
    uint64_t ip = 0, fp = 0;
    unsigned nd = 0, nf = 0;
    while (isdigit((unsigned char)*s)) {
        if (__builtin_mul_overflow(ip, 10, &ip) ||
            __builtin_add_overflow(ip, (uint64_t)(*s - '0'), &ip))
            return MCE_ERR_OVERFLOW;
        s++;
        nd++;
    }
    if (*s == '.') {
        s++;
        while (isdigit((unsigned char)*s)) {
            if (nf < 18) {
                fp = fp * 10 + (uint64_t)(*s - '0');
                nf++;
            } else if (*s != '0') {
                return MCE_ERR_INVAL; /* more precision than we can carry */
            }
            s++;
            nd++;
        }
    }
    if (nd == 0)
        return MCE_ERR_INVAL;
    *ipart = ip;
    *frac = fp;
    *fdigits = nf;
    *end = s;
    return MCE_OK;
}

static uint64_t pow10u(unsigned n)
{
    uint64_t p = 1;
    while (n--)
        p *= 10;
    return p;
}

/* ipart.frac x unit, exact or MCE_ERR_INVAL if the result is fractional. */
static int scale_exact(uint64_t ip, uint64_t fp, unsigned nf, uint64_t unit,
                       uint64_t *out)
{
    uint64_t whole, part;
    uint64_t den = pow10u(nf);
    if (__builtin_mul_overflow(ip, unit, &whole))
        return MCE_ERR_OVERFLOW;
    /* fp/den * unit must be an integer: fp*unit fits since fp < 10^18 and
     * unit <= 10^12 could overflow, so divide by the gcd first. */
    uint64_t a = fp, b = den, g;
    while (b) {
        g = a % b;
        a = b;
        b = g;
    }
    g = a ? a : 1;
    uint64_t n = fp / g, d = den / g;
    if (unit % d != 0)
        return MCE_ERR_INVAL;
    if (__builtin_mul_overflow(n, unit / d, &part))
        return MCE_ERR_OVERFLOW;
    if (__builtin_add_overflow(whole, part, out))
        return MCE_ERR_OVERFLOW;
    return MCE_OK;
}

int mcei_time_parse(const char *s, mce_time_t default_unit_ps, mce_time_t *out)
{
    static const struct {
        const char *name;
        mce_time_t ps;
    } units[] = {
        {"ps", 1}, {"ns", MCE_NS}, {"us", MCE_US}, {"ms", MCE_MS}, {"s", MCE_S},
    };
    uint64_t ip, fp, val;
    unsigned nf;
    const char *p;
    int rc;

    if (s == NULL)
        return MCE_ERR_INVAL;
    s = skip_space(s);
    if ((rc = parse_decimal(s, &p, &ip, &fp, &nf)) != MCE_OK)
        return rc;
    p = skip_space(p);
    mce_time_t unit = default_unit_ps;
    if (*p) {
        size_t i, n = strcspn(p, " \t\r\n");
        for (i = 0; i < MCEI_ARRAY_SIZE(units); i++)
            if (strlen(units[i].name) == n && strncmp(p, units[i].name, n) == 0)
                break;
        if (i == MCEI_ARRAY_SIZE(units))
            return MCE_ERR_INVAL;
        unit = units[i].ps;
        p = skip_space(p + n);
        if (*p)
            return MCE_ERR_INVAL;
    }
    if ((rc = scale_exact(ip, fp, nf, unit, &val)) != MCE_OK)
        return rc;
    if (val == MCEI_TIME_INF)
        return MCE_ERR_OVERFLOW;
    *out = val;
    return MCE_OK;
}

char *mcei_time_format(mce_time_t t, char *buf, size_t len)
{
    snprintf(buf, len, "%" PRIu64 ".%012" PRIu64 " s", t / MCE_S, t % MCE_S);
    return buf;
}

int mcei_parse_u64(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (s == NULL)
        return MCE_ERR_INVAL;
    s = skip_space(s);
    if (!isdigit((unsigned char)*s))
        return MCE_ERR_INVAL;
    while (isdigit((unsigned char)*s)) {
        if (__builtin_mul_overflow(v, 10, &v) ||
            __builtin_add_overflow(v, (uint64_t)(*s - '0'), &v))
            return MCE_ERR_OVERFLOW;
        s++;
    }
    s = skip_space(s);
    if (*s)
        return MCE_ERR_INVAL;
    *out = v;
    return MCE_OK;
}

int mcei_parse_size(const char *s, uint64_t *out)
{
    uint64_t ip, fp, val, unit = 1;
    unsigned nf;
    const char *p;
    int rc;
    if (s == NULL)
        return MCE_ERR_INVAL;
    s = skip_space(s);
    if ((rc = parse_decimal(s, &p, &ip, &fp, &nf)) != MCE_OK)
        return rc;
    p = skip_space(p);
    switch (*p) {
    case 'k':
    case 'K':
        unit = 1ULL << 10;
        p++;
        break;
    case 'm':
    case 'M':
        unit = 1ULL << 20;
        p++;
        break;
    case 'g':
    case 'G':
        unit = 1ULL << 30;
        p++;
        break;
    default:
        break;
    }
    if (unit != 1 && (*p == 'i' || *p == 'I'))
        p++;
    if (unit != 1 && (*p == 'b' || *p == 'B'))
        p++;
    p = skip_space(p);
    if (*p)
        return MCE_ERR_INVAL;
    if ((rc = scale_exact(ip, fp, nf, unit, &val)) != MCE_OK)
        return rc;
    *out = val;
    return MCE_OK;
}

int mcei_parse_micro(const char *s, uint64_t *out)
{
    uint64_t ip, fp, val;
    unsigned nf;
    const char *p;
    int rc;
    if (s == NULL)
        return MCE_ERR_INVAL;
    s = skip_space(s);
    if ((rc = parse_decimal(s, &p, &ip, &fp, &nf)) != MCE_OK)
        return rc;
    p = skip_space(p);
    if (*p)
        return MCE_ERR_INVAL;
    if ((rc = scale_exact(ip, fp, nf, 1000000, &val)) != MCE_OK)
        return rc;
    *out = val;
    return MCE_OK;
}
