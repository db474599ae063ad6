/* Internal definitions shared by every part of the library. */
#ifndef MCEI_H
#define MCEI_H

#define MCE_NO_MAIN_RENAME 1
#include "mcemu.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__SANITIZE_ADDRESS__)
#define MCEI_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MCEI_ASAN 1
#endif
#endif

#define MCEI_HIDDEN        __attribute__((visibility("hidden")))
#define MCEI_LIKELY(x)     __builtin_expect(!!(x), 1)
#define MCEI_UNLIKELY(x)   __builtin_expect(!!(x), 0)
#define MCEI_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* "Never" in virtual time. */
#define MCEI_TIME_INF UINT64_MAX

/* Internal consistency checks, compiled in only by configure --enable-debug
 * (which defines MCE_DEBUG): a failed check names the condition and its
 * place and ends the run.  Otherwise the condition is not evaluated. */
#ifdef MCE_DEBUG
#define MCEI_ASSERT(cond)                                                      \
    (MCEI_LIKELY(cond) ? (void)0                                               \
                       : mcei_fatal("internal check failed: %s (%s:%d, %s)",   \
                                    #cond, __FILE__, __LINE__, __func__))
#else
#define MCEI_ASSERT(cond) ((void)sizeof(!(cond)))
#endif

/* Diagnostics go to stderr prefixed with "mcemu: ". */
void mcei_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void mcei_vlog(const char *fmt, va_list ap);
/* Print and terminate the whole run (all ranks) with exit status 1. */
void mcei_fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

/* Overflow-checked clock arithmetic: MCE_OK or MCE_ERR_OVERFLOW, *out set only
 * on success. */
static inline int mcei_time_add(mce_time_t a, mce_time_t b, mce_time_t *out)
{
    mce_time_t r;
    if (__builtin_add_overflow(a, b, &r) || r == MCEI_TIME_INF)
        return MCE_ERR_OVERFLOW;
    *out = r;
    return MCE_OK;
}

static inline int mcei_time_mul(mce_time_t a, uint64_t n, mce_time_t *out)
{
    mce_time_t r;
    if (__builtin_mul_overflow(a, n, &r) || r == MCEI_TIME_INF)
        return MCE_ERR_OVERFLOW;
    *out = r;
    return MCE_OK;
}

/* Overflow-checked byte counts (n elements of esz bytes, or a sum of
 * lengths) as the long the personalities pass around: MCE_OK or
 * MCE_ERR_SIZE, *out set only on success. */
static inline int mcei_bytes_mul(long n, size_t esz, long *out)
{
    long r;
    if (n < 0 || esz > (size_t)LONG_MAX ||
        __builtin_mul_overflow(n, (long)esz, &r))
        return MCE_ERR_SIZE;
    *out = r;
    return MCE_OK;
}

static inline int mcei_bytes_add(long a, long b, long *out)
{
    long r;
    if (a < 0 || b < 0 || __builtin_add_overflow(a, b, &r))
        return MCE_ERR_SIZE;
    *out = r;
    return MCE_OK;
}

static inline mce_time_t mcei_time_max(mce_time_t a, mce_time_t b)
{
    return a > b ? a : b;
}

static inline mce_time_t mcei_time_min(mce_time_t a, mce_time_t b)
{
    return a < b ? a : b;
}

/*
 * Parse a time such as "136 us", "0.36us", "75e-6 s" is NOT accepted:
 * decimal number, optional unit ps|ns|us|ms|s (default @p default_unit_ps
 * per unit).  Exact: no floating point.  Returns MCE_OK or MCE_ERR_INVAL /
 * MCE_ERR_OVERFLOW.
 */
int mcei_time_parse(const char *s, mce_time_t default_unit_ps, mce_time_t *out);
/* Format @p t as seconds with picosecond precision into buf (>= 32 bytes). */
char *mcei_time_format(mce_time_t t, char *buf, size_t len);

/* Parse a non-negative decimal integer with optional K/M/G (binary) suffix. */
int mcei_parse_size(const char *s, uint64_t *out);
/* Parse a plain non-negative decimal integer. */
int mcei_parse_u64(const char *s, uint64_t *out);
/* Parse a fixed-point decimal into millionths ("2.5" -> 2500000). */
int mcei_parse_micro(const char *s, uint64_t *out);

/* 64-bit mixing used by the digest. */
static inline uint64_t mcei_mix64(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 31;
    return h;
}

#endif
