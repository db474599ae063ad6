/* The option parser and result emitter shared by the experiment programs
 * in apps/: one table of options per program, and one call per result row
 * that prints the program's own table line (--format=table, the default),
 * a CSV row or a JSON object (--format=csv|json).
 *
 * CSV: the first column is always "table"; a header row precedes the first
 * row of each table (and is repeated when the columns change).  JSON: one
 * object {"program", "arguments", "rows": [...], "notes": [...]} where each
 * row is an object whose "table" member names its table.  Only the node
 * that calls app_row() prints (the programs call it on node 0). */
#ifndef APPS_OPTS_H
#define APPS_OPTS_H

#include <stdarg.h>

typedef enum { APP_TABLE, APP_CSV, APP_JSON } app_format_t;

typedef enum {
    APPO_LONG,   /* --name=N: long (dst long *), >= min */
    APPO_LIST,   /* --name=A,B or A..B: longs (dst long[max]), each >= min */
    APPO_STR,    /* --name=TEXT: dst const char ** (points into argv) */
    APPO_FLAG,   /* --name: dst int * set to 1 */
    APPO_DOUBLE, /* --name=X: dst double *, >= min */
    APPO_CHOICE, /* --name=a|b|c: dst int * gets the index of the choice */
    APPO_OPTLONG /* --name or --name=N: *count set to 1, dst long * to N
                    (left as it is without =N), N >= min */
} app_opt_kind_t;

typedef struct app_opt {
    const char *name; /* without the leading "--"; NULL ends the table */
    app_opt_kind_t kind;
    void *dst;
    int *count;          /* APPO_LIST: number of values parsed (may be NULL);
                            APPO_OPTLONG: set to 1 when given (required) */
    int max;             /* APPO_LIST: capacity of dst */
    long min;            /* APPO_LONG/LIST/DOUBLE: smallest accepted value */
    const char *choices; /* APPO_CHOICE: "a|b|c" */
    const char *arg;     /* metavariable shown by --help, e.g. "N" */
    const char *help;    /* one line for --help */
} app_opt_t;

enum { APP_PARSE_OK = 0, APP_PARSE_HELP = 1, APP_PARSE_ERROR = 2 };

/* Parse argv (the --mce-* options are already gone) against @p opts plus
 * the shared --format=table|csv|json and --help.  On a bad option, node 0
 * prints "prog: --opt: reason" and "usage: prog SYNOPSIS" to stderr and
 * APP_PARSE_ERROR is returned (the program exits with status 2); --help
 * prints the option list to stdout on node 0 and returns APP_PARSE_HELP
 * (exit status 0).  @p about is the first line of --help. */
int app_parse(const char *prog, const char *about, const char *synopsis,
              int argc, char **argv, const app_opt_t *opts);

/* The status main() returns for app_parse()'s result. */
#define APP_PARSE_EXIT(rc) ((rc) == APP_PARSE_HELP ? 0 : 2)

app_format_t app_format(void);

/* ---- result rows --------------------------------------------------------- */

typedef struct app_field {
    const char *name; /* NULL ends a row */
    char type;        /* 'i' integer, 'u' unsigned, 'f' double, 's' text */
    long long i;
    unsigned long long u;
    double f;
    const char *s;
} app_field_t;

#define APP_I(n, v)                                                            \
    {                                                                          \
        (n), 'i', (long long)(v), 0, 0, NULL                                   \
    }
#define APP_U(n, v)                                                            \
    {                                                                          \
        (n), 'u', 0, (unsigned long long)(v), 0, NULL                          \
    }
#define APP_F(n, v)                                                            \
    {                                                                          \
        (n), 'f', 0, 0, (double)(v), NULL                                      \
    }
#define APP_S(n, v)                                                            \
    {                                                                          \
        (n), 's', 0, 0, 0, (v)                                                 \
    }
#define APP_END                                                                \
    {                                                                          \
        NULL, 0, 0, 0, 0, NULL                                                 \
    }
#define APP_FIELDS(...) ((const app_field_t[]){__VA_ARGS__, APP_END})

/* One result: in table format prints @p fmt (printf-style, the program's
 * own line, newline included); in CSV or JSON the fields, under table name
 * @p table.  A NULL @p fmt prints nothing in table format. */
void app_row(const char *table, const app_field_t *fields, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Text that is not a row (headings, remarks): printed in table format,
 * kept as a "notes" string in JSON, dropped in CSV. */
void app_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Ends the output (closes the JSON object).  Call once on the node that
 * printed, before main returns; harmless elsewhere and when repeated. */
void app_finish(void);
/* For programs whose rows come from several nodes; call after app_parse()
 * on every node.  Each printing node then writes its own output: in JSON
 * its own object, written at once by app_finish_any() (objects one after
 * another: a stream of JSON texts, as jq reads them); in CSV every row
 * under its header row (another node's rows may come between). */
void app_several_nodes(void);
/* As app_finish(), but a node that printed neither a row nor a note prints
 * nothing: with app_several_nodes(), call it on every node. */
void app_finish_any(void);

#endif
