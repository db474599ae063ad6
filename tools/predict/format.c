/* mce-predict --format=csv|json: the key=value lines as data. */
#include "predict.h"

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

/* Split one "k=v k=v" line in place; a value runs up to the next " key="
 * (so a last value such as paper=Bokhari and Nicol 1996 may hold spaces).
 * Returns the number of pairs. */
int split_kv(char *line, char **k, char **v)
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
void emit_as_data(char *buf, const char *cmd, int argc, char **argv)
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
