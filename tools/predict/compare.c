/* mce-predict compare: a program's CSV or JSON rows against the
 * formulas. */
#include "predict.h"

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

void cmd_compare(int argc, char **argv)
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
