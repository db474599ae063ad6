/* --mce-stats=FILE: one row per node (final virtual time, where it went,
 * messages and bytes sent and received, activations: how many times the
 * engine switched to the node) as CSV or JSON by the file's extension,
 * with the run's provenance.  The rows depend only on the program,
 * machine and options, never on the number of ranks (activations depend
 * on the windows too: --mce-windows changes them). */
#include "stats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "transport.h"

static char **prov_argv;
static int prov_argc;

void mcei_prov_save_argv(int argc, char **argv)
{
    mcei_prov_free();
    if ((prov_argv = calloc((size_t)argc + 1, sizeof(char *))) == NULL)
        return; /* provenance then lists no command line */
    for (int i = 0; i < argc; i++)
        if ((prov_argv[prov_argc] = strdup(argv[i])) != NULL)
            prov_argc++;
}

void mcei_prov_free(void)
{
    for (int i = 0; i < prov_argc; i++)
        free(prov_argv[i]);
    free(prov_argv);
    prov_argv = NULL;
    prov_argc = 0;
}

static uint64_t hash_str(uint64_t h, const char *s)
{
    /* FNV-1a over the bytes, then a terminator so "ab","c" != "a","bc" */
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return mcei_mix64(h, 0xff);
}

uint64_t mcei_prov_machine_hash(mcei_machine_t *m)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < m->kv.count; i++) {
        mcei_kv_t *kv = &m->kv.items[i];
        /* Only each key's final value: what the run used. */
        if (mcei_kv_find(&m->kv, kv->key) != kv)
            continue;
        h = hash_str(h, kv->key);
        h = hash_str(h, kv->value);
    }
    return h;
}

/* Length of the well-formed UTF-8 sequence at @p s (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), 0 if none.
 * Stops at the terminating NUL, which is no continuation byte. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        return (s[1] & 0xc0) == 0x80 ? 2 : 0;
    if (c >= 0xe0 && c <= 0xef) {
        if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 ||
            (c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0))
            return 0;
        return 3;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 ||
            (s[3] & 0xc0) != 0x80 || (c == 0xf0 && s[1] < 0x90) ||
            (c == 0xf4 && s[1] >= 0x90))
            return 0;
        return 4;
    }
    return 0;
}

void mcei_json_str(FILE *out, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    while (*s) {
        unsigned char c = *s;
        size_t n = utf8_len(s);
        if (n == 0) {
            fputs("\\ufffd", out); /* the file stays valid JSON */
            s++;
            continue;
        }
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fwrite(s, 1, n, out);
        s += n;
    }
}

/* The machine file's absolute path without "..": what a reader finds. */
static const char *machine_file(mcei_engine_t *eng, char *buf, size_t len)
{
    char *r;
    if (eng->machine.path == NULL)
        return "";
    if ((r = realpath(eng->machine.path, NULL)) == NULL)
        return eng->machine.path;
    snprintf(buf, len, "%s", r);
    free(r);
    return buf;
}

void mcei_prov_json(mcei_engine_t *eng, FILE *out)
{
    char path[4096];
    const mcei_kvlist_t *ov = &eng->cfg.overrides;
    fprintf(out, "\"mcemu_version\":\"%s\",\"command_line\":[",
            PACKAGE_VERSION);
    for (int i = 0; i < prov_argc; i++) {
        fprintf(out, "%s\"", i ? "," : "");
        mcei_json_str(out, prov_argv[i]);
        fputc('"', out);
    }
    fprintf(out, "],\"machine\":\"");
    mcei_json_str(out, eng->machine.name ? eng->machine.name : "");
    fprintf(out, "\",\"machine_file\":\"");
    mcei_json_str(out, machine_file(eng, path, sizeof(path)));
    fprintf(out, "\",\"machine_hash\":\"%016" PRIx64 "\",\"overrides\":{",
            mcei_prov_machine_hash(&eng->machine));
    for (size_t i = 0; i < ov->count; i++) {
        fprintf(out, "%s\"", i ? "," : "");
        mcei_json_str(out, ov->items[i].key);
        fprintf(out, "\":\"");
        mcei_json_str(out, ov->items[i].value);
        fputc('"', out);
    }
    fprintf(out,
            "},\"seed\":%" PRIu64 ",\"nodes\":%d,\"ranks\":%d,"
            "\"placement\":\"%s\"",
            eng->cfg.seed, eng->nodes, eng->nranks,
            mcei_place_policy_name(eng->cfg.placement));
}

/* CSV comment lines: the same provenance, one "# key: value" a line. */
static void prov_csv(mcei_engine_t *eng, FILE *out)
{
    char path[4096];
    const mcei_kvlist_t *ov = &eng->cfg.overrides;
    fprintf(out, "# mcemu_version: %s\n# command_line:", PACKAGE_VERSION);
    for (int i = 0; i < prov_argc; i++)
        fprintf(out, " %s", prov_argv[i]);
    fprintf(out,
            "\n# machine: %s\n# machine_file: %s\n"
            "# machine_hash: %016" PRIx64 "\n# overrides:",
            eng->machine.name ? eng->machine.name : "",
            machine_file(eng, path, sizeof(path)),
            mcei_prov_machine_hash(&eng->machine));
    for (size_t i = 0; i < ov->count; i++)
        fprintf(out, " %s=%s", ov->items[i].key, ov->items[i].value);
    fprintf(out,
            "\n# seed: %" PRIu64 "\n# nodes: %d\n# ranks: %d\n"
            "# placement: %s\n",
            eng->cfg.seed, eng->nodes, eng->nranks,
            mcei_place_policy_name(eng->cfg.placement));
}

typedef enum { FMT_CSV, FMT_JSON, FMT_BAD } stats_fmt_t;

static stats_fmt_t format_of(const char *path)
{
    size_t n = strlen(path);
    if (n >= 4 && strcmp(path + n - 4, ".csv") == 0)
        return FMT_CSV;
    if (n >= 5 && strcmp(path + n - 5, ".json") == 0)
        return FMT_JSON;
    return FMT_BAD;
}

int mcei_stats_open(mcei_engine_t *eng, char *err, size_t errlen)
{
    int bad = 0, anybad = 0;
    if (format_of(eng->cfg.stats) == FMT_BAD) {
        /* The same verdict on every rank: no collective needed. */
        snprintf(err, errlen,
                 "option --mce-stats: '%s' ends in neither .csv nor .json",
                 eng->cfg.stats);
        return MCE_ERR_CONFIG;
    }
    if (eng->rank == 0) {
        FILE *f = fopen(eng->cfg.stats, "w");
        if (f == NULL) {
            snprintf(err, errlen, "option --mce-stats: cannot write '%s': %s",
                     eng->cfg.stats, strerror(errno));
            bad = 1;
        } else {
            fclose(f);
        }
    }
    mcei_transport_max_int(bad, &anybad);
    if (anybad && !bad)
        snprintf(err, errlen, "option --mce-stats: rank 0 cannot write it");
    return anybad ? MCE_ERR_IO : MCE_OK;
}

typedef struct stats_rec {
    uint64_t node, clock, compute, comm, wait, stolen;
    uint64_t sent, recv, bytes_sent, bytes_recv;
    int64_t status;
    uint64_t activations;
} stats_rec_t;

static int by_node(const void *a, const void *b)
{
    const stats_rec_t *x = a, *y = b;
    return (x->node > y->node) - (x->node < y->node);
}

static void write_rows(mcei_engine_t *eng, FILE *out, const stats_rec_t *r,
                       size_t n)
{
    static const char *const cols[] = {
        "node",      "vtime_ps",   "compute_ps",  "comm_ps",
        "wait_ps",   "stolen_ps",  "msgs_sent",   "bytes_sent",
        "msgs_recv", "bytes_recv", "exit_status", "activations"};
    const size_t ncols = sizeof(cols) / sizeof(cols[0]);
    int json = format_of(eng->cfg.stats) == FMT_JSON;
    if (json) {
        fprintf(out, "{\"provenance\":{");
        mcei_prov_json(eng, out);
        fprintf(out, "},\n\"columns\":[");
        for (size_t c = 0; c < ncols; c++)
            fprintf(out, "%s\"%s\"", c ? "," : "", cols[c]);
        fprintf(out, "],\n\"nodes\":[");
    } else {
        prov_csv(eng, out);
        for (size_t c = 0; c < ncols; c++)
            fprintf(out, "%s%s", c ? "," : "", cols[c]);
        fputc('\n', out);
    }
    for (size_t i = 0; i < n; i++) {
        const stats_rec_t *x = &r[i];
        if (json)
            fprintf(out,
                    "%s\n{\"node\":%" PRIu64 ",\"vtime_ps\":%" PRIu64
                    ",\"compute_ps\":%" PRIu64 ",\"comm_ps\":%" PRIu64
                    ",\"wait_ps\":%" PRIu64 ",\"stolen_ps\":%" PRIu64
                    ",\"msgs_sent\":%" PRIu64 ",\"bytes_sent\":%" PRIu64
                    ",\"msgs_recv\":%" PRIu64 ",\"bytes_recv\":%" PRIu64
                    ",\"exit_status\":%" PRId64 ",\"activations\":%" PRIu64 "}",
                    i ? "," : "", x->node, x->clock, x->compute, x->comm,
                    x->wait, x->stolen, x->sent, x->bytes_sent, x->recv,
                    x->bytes_recv, x->status, x->activations);
        else
            fprintf(out,
                    "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                    ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                    ",%" PRId64 ",%" PRIu64 "\n",
                    x->node, x->clock, x->compute, x->comm, x->wait, x->stolen,
                    x->sent, x->bytes_sent, x->recv, x->bytes_recv, x->status,
                    x->activations);
    }
    if (json)
        fprintf(out, "\n]}\n");
}

int mcei_stats_write(mcei_engine_t *eng)
{
    stats_rec_t *mine = calloc((size_t)eng->nlocal + 1, sizeof(*mine));
    void *all = NULL;
    size_t nall = 0;
    int rc = MCE_OK;
    if (mine == NULL)
        mcei_fatal("out of memory writing --mce-stats");
    for (int i = 0; i < eng->nlocal; i++) {
        const mcei_vn_t *vn = &eng->vns[i];
        stats_rec_t *x = &mine[i];
        x->node = (uint64_t)vn->id;
        x->clock = vn->clock;
        x->compute = vn->t_compute;
        x->comm = vn->t_comm;
        x->wait = vn->t_wait;
        x->stolen = vn->t_stolen;
        x->sent = vn->nsent;
        x->recv = vn->nrecv;
        x->bytes_sent = vn->bytes_sent;
        x->bytes_recv = vn->bytes_recv;
        x->status = vn->exit_status;
        /* Times the engine switched to the node: its share of the
         * engine's work (--mce-place-weights reads it back). */
        x->activations = vn->fiber.resumes;
    }
    if (mcei_transport_gather(mine, (size_t)eng->nlocal, sizeof(*mine), &all,
                              &nall) != MCE_OK)
        rc = MCE_ERR_IO;
    if (eng->rank == 0 && rc == MCE_OK) {
        FILE *out = fopen(eng->cfg.stats, "w");
        qsort(all, nall, sizeof(stats_rec_t), by_node);
        if (out == NULL) {
            mcei_log("cannot write --mce-stats file '%s': %s", eng->cfg.stats,
                     strerror(errno));
            rc = MCE_ERR_IO;
        } else {
            write_rows(eng, out, all, nall);
            /* A full device or a failing file: say so, never a silent 0. */
            if (fflush(out) != 0 || ferror(out)) {
                mcei_log("cannot write --mce-stats file '%s': %s",
                         eng->cfg.stats, strerror(errno));
                rc = MCE_ERR_IO;
            }
            if (fclose(out) != 0 && rc == MCE_OK) {
                mcei_log("cannot write --mce-stats file '%s': %s",
                         eng->cfg.stats, strerror(errno));
                rc = MCE_ERR_IO;
            }
        }
    }
    free(all);
    free(mine);
    return rc;
}
