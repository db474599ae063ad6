/* Shared option parser and result emitter of the programs in apps/ (see
 * opts.h).  The state is in globals, so each virtual node has its own
 * copy (privatisation); only the node that prints uses the emitter. */
/* open_memstream (POSIX 2008) */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include "opts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcemu.h"
#include "quote.h"

static app_format_t format = APP_TABLE;
static const char *prog_name = "?";
static int nargs;
static char **args;
static int started, finished, nrows;
/* CSV: the header row printed last (table name and columns), on the
 * heap: globals are copied at every switch between the nodes of a
 * process, and this buffer was two thirds of a small program's. */
#define HEADER_MAX 1024
static char *last_header;
/* JSON: notes kept until app_finish(). */
static char *notes;
static size_t notes_len;
/* Where CSV and JSON go: stdout, or (several printing nodes, JSON) a
 * buffer that app_finish() writes at once, so that two nodes' objects do
 * not interleave. */
static FILE *out;
static int several;
static char *obuf;
static size_t olen;

app_format_t app_format(void)
{
    return format;
}

/* Parses "4,16,64" or "1..7" (or a mix); -1 on a malformed list, a value
 * below @p min or more than @p max values. */
static int parse_list(const char *s, long *out, int max, long min)
{
    int n = 0;
    if (*s == '\0')
        return -1;
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s)
            return -1;
        if (end[0] == '.' && end[1] == '.') {
            s = end + 2;
            b = strtol(s, &end, 10);
            if (end == s || b < a)
                return -1;
        }
        for (long v = a; v <= b; v++) {
            if (n >= max || v < min)
                return -1;
            out[n++] = v;
        }
        s = end;
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return n;
}

static int choice_index(const char *choices, const char *v)
{
    size_t len = strlen(v);
    int k = 0;
    for (const char *c = choices; c != NULL; k++) {
        const char *bar = strchr(c, '|');
        size_t cl = bar ? (size_t)(bar - c) : strlen(c);
        if (cl == len && strncmp(c, v, len) == 0)
            return k;
        c = bar ? bar + 1 : NULL;
    }
    return -1;
}

static void print_help(const char *prog, const char *about,
                       const char *synopsis, const app_opt_t *opts)
{
    printf("usage: %s %s\n\n%s\n\nOptions:\n", prog, synopsis, about);
    for (const app_opt_t *o = opts; o->name != NULL; o++) {
        char head[96];
        const char *arg = o->kind == APPO_CHOICE ? o->choices : o->arg;
        if (o->kind == APPO_OPTLONG)
            snprintf(head, sizeof(head), "--%s[=%s]", o->name, arg ? arg : "N");
        else
            snprintf(head, sizeof(head), "--%s%s%s", o->name,
                     o->kind == APPO_FLAG ? "" : "=",
                     o->kind == APPO_FLAG ? ""
                     : arg                ? arg
                                          : "VALUE");
        printf("  %-26s %s\n", head, o->help ? o->help : "");
    }
    printf("  %-26s %s\n", "--format=table|csv|json",
           "result rows as the program's table (default), CSV (a header "
           "row, then one row per result) or JSON (program, arguments, rows)");
    printf("  %-26s %s\n", "--help", "print this help and exit");
    printf("\nThe --mce-* options of the emulator are described by "
           "--mce-help.\n");
}

static int bad(const char *prog, const char *synopsis, const char *opt,
               const char *why)
{
    if (mce_node() <= 0) {
        fprintf(stderr, "%s: %s: %s\n", prog, opt, why);
        fprintf(stderr, "usage: %s %s\n", prog, synopsis);
    }
    return APP_PARSE_ERROR;
}

int app_parse(const char *prog, const char *about, const char *synopsis,
              int argc, char **argv, const app_opt_t *opts)
{
    prog_name = prog;
    nargs = argc;
    args = argv;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0) {
            if (mce_node() <= 0)
                print_help(prog, about, synopsis, opts);
            return APP_PARSE_HELP;
        }
        if (strncmp(a, "--format=", 9) == 0) {
            int k = choice_index("table|csv|json", a + 9);
            if (k < 0)
                return bad(prog, synopsis, "--format", "table, csv or json");
            format = (app_format_t)k;
            continue;
        }
        const app_opt_t *o = opts;
        size_t nl = 0;
        if (strncmp(a, "--", 2) == 0)
            for (; o->name != NULL; o++) {
                nl = strlen(o->name);
                if (strncmp(a + 2, o->name, nl) == 0 &&
                    (a[2 + nl] == '\0' || a[2 + nl] == '='))
                    break;
            }
        if (strncmp(a, "--", 2) != 0 || o->name == NULL)
            return bad(prog, synopsis, a, "unknown option");
        const char *v = a[2 + nl] == '=' ? a + 3 + nl : NULL;
        char *end;
        if (o->kind == APPO_OPTLONG) {
            if (v != NULL) {
                long x = strtol(v, &end, 10);
                if (end == v || *end || x < o->min)
                    return bad(prog, synopsis, a, "not a valid number");
                *(long *)o->dst = x;
            }
            *o->count = 1;
            continue;
        }
        if ((o->kind == APPO_FLAG) != (v == NULL))
            return bad(prog, synopsis, a,
                       v ? "takes no value" : "needs a value (--opt=VALUE)");
        switch (o->kind) {
        case APPO_LONG: {
            long x = strtol(v, &end, 10);
            if (end == v || *end || x < o->min)
                return bad(prog, synopsis, a, "not a valid number");
            *(long *)o->dst = x;
            break;
        }
        case APPO_DOUBLE: {
            double x = strtod(v, &end);
            if (end == v || *end || !isfinite(x) || x < (double)o->min)
                return bad(prog, synopsis, a, "not a valid number");
            *(double *)o->dst = x;
            break;
        }
        case APPO_LIST: {
            int n = parse_list(v, (long *)o->dst, o->max, o->min);
            if (n <= 0)
                return bad(prog, synopsis, a,
                           "not a valid list (A,B,... or "
                           "A..B)");
            if (o->count)
                *o->count = n;
            break;
        }
        case APPO_STR:
            *(const char **)o->dst = v;
            break;
        case APPO_FLAG:
            *(int *)o->dst = 1;
            break;
        case APPO_CHOICE: {
            int k = choice_index(o->choices, v);
            if (k < 0)
                return bad(prog, synopsis, a, o->choices);
            *(int *)o->dst = k;
            break;
        }
        case APPO_OPTLONG:
            break; /* handled above */
        }
    }
    return APP_PARSE_OK;
}

/* ---- emitter ---------------------------------------------------------------
 */

static void putc_out(int c)
{
    putc(c, out);
}

static void json_string(const char *s)
{
    quote_json(out, s);
}

static void csv_string(const char *s)
{
    quote_csv(out, s);
}

static void value(const app_field_t *f)
{
    switch (f->type) {
    case 'i':
        fprintf(out, "%lld", f->i);
        break;
    case 'u':
        fprintf(out, "%llu", f->u);
        break;
    case 'f':
        if (isfinite(f->f))
            fprintf(out, "%.10g", f->f);
        else
            fputs(format == APP_JSON ? "null" : "", out);
        break;
    default:
        if (format == APP_JSON)
            json_string(f->s ? f->s : "");
        else
            csv_string(f->s ? f->s : "");
    }
}

static void start(void)
{
    if (started)
        return;
    started = 1;
    out = stdout;
    if (format != APP_JSON)
        return;
    if (several) {
        FILE *m = open_memstream(&obuf, &olen);
        if (m != NULL) /* else straight to stdout */
            out = m;
    }
    fprintf(out, "{\"program\": ");
    json_string(prog_name);
    fprintf(out, ", \"arguments\": [");
    for (int i = 1; i < nargs; i++) {
        if (i > 1)
            fprintf(out, ", ");
        json_string(args[i]);
    }
    fprintf(out, "],\n \"rows\": [");
}

void app_row(const char *table, const app_field_t *fields, const char *fmt, ...)
{
    if (format == APP_TABLE) {
        if (fmt != NULL) {
            va_list ap;
            va_start(ap, fmt);
            vprintf(fmt, ap);
            va_end(ap);
        }
        return;
    }
    start();
    if (format == APP_CSV) {
        char head[HEADER_MAX];
        size_t len = (size_t)snprintf(head, sizeof(head), "table");
        for (const app_field_t *f = fields; f->name && len < sizeof(head); f++)
            len += (size_t)snprintf(head + len, sizeof(head) - len, ",%s",
                                    f->name);
        /* several nodes: every row under its header (another node's rows
         * may come between two of this one's) */
        if (last_header == NULL || strcmp(head, last_header) != 0 ||
            nrows == 0 || several) {
            fprintf(out, "%s\n", head);
            if (last_header == NULL)
                last_header = malloc(HEADER_MAX);
            if (last_header != NULL)
                memcpy(last_header, head, sizeof(head));
        }
        csv_string(table);
        for (const app_field_t *f = fields; f->name; f++) {
            putc_out(',');
            value(f);
        }
        putc_out('\n');
        if (several)
            fflush(out);
    } else {
        fprintf(out, "%s\n  {\"table\": ", nrows ? "," : "");
        json_string(table);
        for (const app_field_t *f = fields; f->name; f++) {
            fprintf(out, ", ");
            json_string(f->name);
            fprintf(out, ": ");
            value(f);
        }
        putc_out('}');
    }
    nrows++;
}

void app_note(const char *fmt, ...)
{
    va_list ap;
    char buf[1024];
    va_start(ap, fmt);
    if (format == APP_TABLE) {
        vprintf(fmt, ap);
        va_end(ap);
        return;
    }
    int n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (format != APP_JSON || n <= 0)
        return;
    size_t len = strlen(buf);
    char *p = realloc(notes, notes_len + len + 1);
    if (p == NULL)
        return; /* a note is not worth failing the run for */
    notes = p;
    memcpy(notes + notes_len, buf, len + 1);
    notes_len += len;
}

void app_finish(void)
{
    free(last_header);
    last_header = NULL;
    if (format != APP_JSON || finished)
        return;
    start();
    finished = 1;
    fprintf(out, "\n ],\n \"notes\": [");
    /* one string per line of the notes */
    int first = 1;
    for (char *line = notes; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        fprintf(out, "%s\n  ", first ? "" : ",");
        json_string(line);
        first = 0;
        line = nl ? nl + 1 : NULL;
    }
    fprintf(out, "]}\n");
    free(notes);
    notes = NULL;
    notes_len = 0;
    if (out != stdout) { /* the object at once */
        fclose(out);
        fwrite(obuf, 1, olen, stdout);
        free(obuf);
        obuf = NULL;
        out = stdout;
    }
    fflush(stdout);
}

void app_several_nodes(void)
{
    several = 1;
}

void app_finish_any(void)
{
    if (started || notes_len > 0)
        app_finish();
}
