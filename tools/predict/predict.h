/*
 * mce-predict's parts (one file per paper, see main.c): the shared
 * definitions.  Every part includes this header first.
 */
#ifndef MCE_PREDICT_H
#define MCE_PREDICT_H

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

extern const char *cmd_name; /* the subcommand, for error messages */
extern int out_ps;           /* --ps: print times in picoseconds */
extern int out_format;       /* --format: 0 key=value, 1 csv, 2 json */

enum { C_TIME, C_COUNT };

struct constant {
    const char *key;
    int kind;     /* C_TIME: decimal us (or us/byte); C_COUNT: integer */
    int positive; /* must be > 0 (it divides) */
    int64_t val;  /* units, or the count */
    const char *unit, *source;
};

#define MAX_OPTS 8

struct opts {
    const char *name[MAX_OPTS]; /* allowed, without "--"; NULL-terminated */
    const char *val[MAX_OPTS];
};

/* common.c: errors, checked arithmetic, parsing, output, constants, options */
extern int line_first;
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
int64_t add(int64_t a, int64_t b);
int64_t sub(int64_t a, int64_t b);
int64_t mul(int64_t a, int64_t b);
int64_t rdiv(int64_t num, int64_t den);
int64_t cdiv(int64_t num, int64_t den);
int64_t parse_int(const char *opt, const char *s, int64_t min, int64_t max);
void key(const char *k);
void kv_end(void);
void kv_s(const char *k, const char *v);
void kv_i(const char *k, int64_t v);
void put_time(int64_t v);
void kv_t(const char *k, int64_t v);
void kv_t_na(const char *k);
void kv_t_ratio(const char *k, int64_t num, int64_t den);
void kv_ratio(const char *k, int64_t num, int64_t den, int dec);
void parse_opts(int argc, char **argv, struct opts *o, struct constant *tab);
const char *opt_get(const struct opts *o, const char *name);
const char *opt_need(const struct opts *o, const char *name);
int64_t opt_int(const struct opts *o, const char *name, int64_t min,
                int64_t max, int64_t dflt, int required);
int64_t opt_us(const struct opts *o, const char *name, int64_t dflt,
               int required);
int opt_choice(const struct opts *o, const char *name,
               const char *const *choices, int dflt);
int64_t C(const struct constant *t, int i);

/* ipsc.c: iPSC/860, Seidel and Davis 1992 */
extern struct constant ipsc[];
void cmd_ipsc_table2(int argc, char **argv);
void cmd_ipsc_table3(int argc, char **argv);
void cmd_ipsc_sync(int argc, char **argv);
void cmd_rds_waits(int argc, char **argv);

/* paragon.c: Paragon, Bokhari and Nicol 1996 */
extern struct constant paragon[];
void cmd_paragon_sync(int argc, char **argv);
void cmd_paragon_comm(int argc, char **argv);
void cmd_cx_steps(int argc, char **argv);
void cmd_cx_time(int argc, char **argv);

/* ncube.c: NCUBE, Mudge, Buzzard and Abdel-Rahman 1987 */
extern struct constant ncube[];
void cmd_ncube(int argc, char **argv);
void cmd_ncube_table2(int argc, char **argv);

/* iwarp.c: iWarp messages and barriers, Warfel 1996 */
void cmd_iwarp_pct(int argc, char **argv);
void cmd_iwarp_deposit(int argc, char **argv);
void cmd_iwarp_barrier(int argc, char **argv);

/* subset.c: iWarp SRU and CAM ring, Feldmann, Gross, O'Hallaron and Stricker
 * 1992 */
void cmd_subset(int argc, char **argv);

/* tcs.c: TCS and chapters 5-7, Warfel 1996 */
extern struct constant iwarp[];
void cmd_tcs_reconfig(int argc, char **argv);
void cmd_tcs_start(int argc, char **argv);
void cmd_tcs_end(int argc, char **argv);
void cmd_tcs_sg(int argc, char **argv);
void cmd_tcs_rb(int argc, char **argv);
void cmd_tcs_a2a(int argc, char **argv);
void cmd_motion(int argc, char **argv);

/* format.c: --format=csv|json */
#define MAX_KV 64 /* fields of one line or row */
int split_kv(char *line, char **k, char **v);
void emit_as_data(char *buf, const char *cmd, int argc, char **argv);

/* compare.c: a program's rows against the formulas */
void cmd_compare(int argc, char **argv);

/* main.c: constants, usage, main */
void usage(FILE *f);

#endif
