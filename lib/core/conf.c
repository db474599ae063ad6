/* Configuration: config file < MCE_* environment < --mce-* options. */
#include "conf.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- key = value files ------------------------------------------------ */

static char *trim(char *s)
{
    char *e;
    while (*s && isspace((unsigned char)*s))
        s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

static size_t key_hash(const char *k)
{
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
    for (; *k; k++)
        h = (h ^ (unsigned char)*k) * 0x100000001b3ULL;
    return (size_t)h;
}

/* The index slot of @p key: its item's, or the empty one to fill. */
static size_t *kv_slot(const mcei_kvlist_t *list, const char *key)
{
    size_t mask = list->icap - 1, i = key_hash(key) & mask;
    while (list->index[i] != 0 &&
           strcmp(list->items[list->index[i] - 1].key, key) != 0)
        i = (i + 1) & mask;
    return &list->index[i];
}

static int kv_index_grow(mcei_kvlist_t *list)
{
    size_t ncap = list->icap ? 2 * list->icap : 64;
    size_t *old = list->index, ocap = list->icap;
    if ((list->index = calloc(ncap, sizeof(*list->index))) == NULL) {
        list->index = old;
        return MCE_ERR_NOMEM;
    }
    list->icap = ncap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i] != 0)
            *kv_slot(list, list->items[old[i] - 1].key) = old[i];
    free(old);
    return MCE_OK;
}

mcei_kv_t *mcei_kv_find(mcei_kvlist_t *list, const char *key)
{
    size_t *slot;
    if (list->icap == 0)
        return NULL;
    slot = kv_slot(list, key);
    return *slot ? &list->items[*slot - 1] : NULL;
}

static int kv_add(mcei_kvlist_t *list, const char *key, const char *value,
                  const char *origin, int dedup)
{
    mcei_kv_t *kv = dedup ? mcei_kv_find(list, key) : NULL;
    char *v = strdup(value), *o = strdup(origin ? origin : "");
    if (v == NULL || o == NULL)
        goto err_nomem;
    if (kv != NULL) {
        free(kv->value);
        free(kv->origin);
        free(kv->note);
        kv->value = v;
        kv->origin = o;
        kv->note = NULL;
        kv->label = NULL;
        return MCE_OK;
    }
    if (list->count == list->cap) {
        size_t ncap = list->cap ? 2 * list->cap : 16;
        mcei_kv_t *n = realloc(list->items, ncap * sizeof(*n));
        if (n == NULL)
            goto err_nomem;
        list->items = n;
        list->cap = ncap;
    }
    if (2 * (list->count + 1) > list->icap && kv_index_grow(list) != MCE_OK)
        goto err_nomem;
    kv = &list->items[list->count];
    if ((kv->key = strdup(key)) == NULL)
        goto err_nomem;
    kv->value = v;
    kv->origin = o;
    kv->used = 0;
    kv->note = NULL;
    kv->label = NULL;
    list->count++;
    /* The last of equal keys is the one found. */
    *kv_slot(list, key) = list->count;
    return MCE_OK;
err_nomem:
    free(v);
    free(o);
    return MCE_ERR_NOMEM;
}

int mcei_kv_set(mcei_kvlist_t *list, const char *key, const char *value,
                const char *origin)
{
    return kv_add(list, key, value, origin, 1);
}

void mcei_kv_free(mcei_kvlist_t *list)
{
    for (size_t i = 0; i < list->count; i++) {
        free(list->items[i].key);
        free(list->items[i].value);
        free(list->items[i].origin);
        free(list->items[i].note);
    }
    free(list->items);
    free(list->index);
    memset(list, 0, sizeof(*list));
}

int mcei_kv_set_note(mcei_kvlist_t *list, const char *key, const char *note,
                     const char *label)
{
    mcei_kv_t *kv = mcei_kv_find(list, key);
    char *n;
    if (kv == NULL)
        return MCE_ERR_INVAL;
    if ((n = note ? strdup(note) : NULL) == NULL && note != NULL)
        return MCE_ERR_NOMEM;
    free(kv->note);
    kv->note = n;
    kv->label = label;
    return MCE_OK;
}

const char *mcei_label_in_text(const char *text)
{
    static const struct {
        const char *token, *label;
    } tokens[] = {
        {"input", "input"}, {"derived", "derived"}, {"assumed", "assumed"},
        {"[S]", "input"},   {"[D]", "derived"},     {"[C]", "assumed"},
    };
    const char *best = NULL, *label = NULL;
    if (text == NULL)
        return NULL;
    /* The first token in the text wins: "[assumed, Table 1 sum]". */
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(tokens); i++) {
        size_t n = strlen(tokens[i].token);
        for (const char *p = text; *p; p++) {
            if (strncasecmp(p, tokens[i].token, n) != 0)
                continue;
            if (best == NULL || p < best) {
                best = p;
                label = tokens[i].label;
            }
            break;
        }
    }
    return label;
}

/* The comments of one paragraph of a description file (lines since the
 * last blank one): runs of comment lines and keys' own comments. */
typedef struct para {
    char *units[64];
    size_t n;
    int last_was_comment;
} para_t;

static void para_clear(para_t *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->units[i]);
    p->n = 0;
    p->last_was_comment = 0;
}

/* Add a comment to the paragraph: appended to the current run of comment
 * lines, or a new unit. */
static void para_add(para_t *p, const char *text, int join)
{
    if (join && p->n > 0) {
        size_t a = strlen(p->units[p->n - 1]), b = strlen(text);
        char *u = realloc(p->units[p->n - 1], a + b + 2);
        if (u == NULL)
            return; /* a label is a help, not a requirement */
        u[a] = ' ';
        memcpy(u + a + 1, text, b + 1);
        p->units[p->n - 1] = u;
        return;
    }
    if (p->n == MCEI_ARRAY_SIZE(p->units)) {
        free(p->units[0]);
        memmove(p->units, p->units + 1, (p->n - 1) * sizeof(p->units[0]));
        p->n--;
    }
    if ((p->units[p->n] = strdup(text)) != NULL)
        p->n++;
}

static int valid_key(const char *k)
{
    if (!*k)
        return 0;
    for (; *k; k++)
        if (!isalnum((unsigned char)*k) && *k != '_' && *k != '-' && *k != '.')
            return 0;
    return 1;
}

static int kv_load(mcei_kvlist_t *list, const char *path, int dedup, char *err,
                   size_t errlen)
{
    char line[4096], origin[4200];
    para_t para = {0};
    unsigned lineno = 0;
    int rc = MCE_OK;
    FILE *f;
    struct stat st;
    /* Non-blocking open: a FIFO must not wait for a writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return MCE_ERR_IO;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "'%s' is not a regular file", path);
        close(fd);
        return MCE_ERR_IO;
    }
    if ((uint64_t)st.st_size > MCEI_KV_MAX_FILE) {
        snprintf(err, errlen,
                 "'%s' has %" PRIu64 " bytes, more than the %u MiB a "
                 "description file may have",
                 path, (uint64_t)st.st_size, MCEI_KV_MAX_FILE >> 20);
        close(fd);
        return MCE_ERR_IO;
    }
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
        (f = fdopen(fd, "r")) == NULL) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        close(fd);
        return MCE_ERR_IO;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        char *s, *eq, *key, *val, *hash;
        lineno++;
        if (strchr(line, '\n') == NULL && !feof(f)) {
            snprintf(err, errlen, "%s:%u: line too long", path, lineno);
            rc = MCE_ERR_CONFIG;
            goto out;
        }
        const char *comment = "";
        if ((hash = strchr(line, '#')) != NULL) {
            *hash = '\0';
            comment = trim(hash + 1);
        }
        s = trim(line);
        if (!*s) {
            if (hash == NULL)
                para_clear(&para);
            else {
                para_add(&para, comment, para.last_was_comment);
                para.last_was_comment = 1;
            }
            continue;
        }
        if ((eq = strchr(s, '=')) == NULL) {
            snprintf(err, errlen, "%s:%u: expected 'key = value', got '%s'",
                     path, lineno, s);
            rc = MCE_ERR_CONFIG;
            goto out;
        }
        *eq = '\0';
        key = trim(s);
        val = trim(eq + 1);
        if (!valid_key(key)) {
            snprintf(err, errlen, "%s:%u: invalid key '%s'", path, lineno, key);
            rc = MCE_ERR_CONFIG;
            goto out;
        }
        if (!*val) {
            snprintf(err, errlen, "%s:%u: key '%s' has no value", path, lineno,
                     key);
            rc = MCE_ERR_CONFIG;
            goto out;
        }
        snprintf(origin, sizeof(origin), "%s:%u", path, lineno);
        if ((rc = kv_add(list, key, val, origin, dedup)) != MCE_OK) {
            snprintf(err, errlen, "%s", mce_strerror(rc));
            goto out;
        }
        {
            /* Its label: its own comment's, else the nearest above. */
            const char *note = comment, *label = mcei_label_in_text(comment);
            for (size_t u = para.n; label == NULL && u-- > 0;)
                if ((label = mcei_label_in_text(para.units[u])) != NULL)
                    note = para.units[u];
            if (dedup && (*note || label) &&
                (rc = mcei_kv_set_note(list, key, note, label)) != MCE_OK) {
                snprintf(err, errlen, "%s", mce_strerror(rc));
                goto out;
            }
            if (*comment)
                para_add(&para, comment, 0);
            para.last_was_comment = 0;
        }
    }
    if (ferror(f)) {
        snprintf(err, errlen, "error reading '%s'", path);
        rc = MCE_ERR_IO;
    }
out:
    para_clear(&para);
    fclose(f);
    return rc;
}

int mcei_kv_load(mcei_kvlist_t *list, const char *path, char *err,
                 size_t errlen)
{
    return kv_load(list, path, 1, err, errlen);
}

/* ---- options ----------------------------------------------------------- */

typedef enum opt_kind {
    OPT_COUNT, /* positive integer */
    OPT_U64,   /* non-negative integer */
    OPT_SIZE,  /* bytes with K/M/G */
    OPT_STRING,
    OPT_FLAG, /* bare, or =yes/no/1/0/true/false/on/off */
    OPT_ENUM,
    OPT_TIME,  /* a time with unit, bare numbers are seconds */
    OPT_SET,   /* key=value, accumulated */
    OPT_PLUGIN /* a plug-in's (mcei_plugin_opt_t): a word, kept by name */
} opt_kind_t;

typedef struct opt_desc {
    const char *name; /* without "--mce-" */
    opt_kind_t kind;
    size_t offset;
    const char *const *choices; /* OPT_ENUM: index = stored value */
    const char *arg;
    const char *help;
} opt_desc_t;

static const char *const compute_choices[] = {"none", "explicit", "measured",
                                              "counted", NULL};
static const char *const placement_choices[] = {"block", "cyclic", "one",
                                                "topology", NULL};
static const char *const privatize_choices[] = {"auto", "on", "off", NULL};
static const char *const windows_choices[] = {"committed", "narrow", "wide",
                                              NULL};
static const char *const progress_choices[] = {"auto", "on", "off", NULL};
static const char *const exchange_choices[] = {"auto", "mpi", "shm", NULL};
static const char *const oversub_choices[] = {"pack", "spread", NULL};

#define OFF(f) offsetof(mcei_config_t, f)
static const opt_desc_t options[] = {
    {"nodes", OPT_COUNT, OFF(nodes), NULL, "N",
     "number of virtual nodes (default: the machine's nodes key if it "
     "sets one, 64 on the iWarp; else one per MPI rank; shown below)"},
    {"machine", OPT_STRING, OFF(machine), NULL, "NAME|PATH",
     "machine description, by name or file path (default: the program's "
     "personality's machine, shown below)"},
    {"machine-path", OPT_STRING, OFF(machine_path), NULL, "DIRS",
     "colon-separated directories searched for NAME.conf first"},
    {"set", OPT_SET, OFF(overrides), NULL, "KEY=VALUE",
     "override one machine description key (repeatable)"},
    {"compute", OPT_ENUM, OFF(compute), compute_choices,
     "none|explicit|measured|counted",
     "compute-time mode (default: counted for a program compiled with "
     "mcecc/mcef77 -mce-compute=counted, explicit otherwise)"},
    {"placement", OPT_ENUM, OFF(placement), placement_choices,
     "block|cyclic|one|topology",
     "placement of virtual nodes on ranks (default: block; one: one node "
     "per rank, as many ranks as nodes, so that no two nodes share a heap; "
     "topology: subcubes of a hypercube, blocks of a mesh)"},
    {"place-weights", OPT_STRING, OFF(place_weights), NULL,
     "FILE.csv|FILE.json",
     "balance block or topology placement by the activations of each node "
     "in a previous run's --mce-stats file"},
    {"privatize", OPT_ENUM, OFF(privatize), privatize_choices, "auto|on|off",
     "per-node copies of the program's globals (default: auto)"},
    {"privatize-copies", OPT_COUNT, OFF(privatize_copies), NULL, "N",
     "most copies of a program built with mcecc -mce-privatize=dlopen "
     "loaded in one process, one per node (default: 4096); beyond it one "
     "copy is loaded and its globals are switched at every node switch"},
    {"stack-size", OPT_SIZE, OFF(stack_size), NULL, "BYTES",
     "stack per virtual node, K/M/G suffixes (default: 1M)"},
    {"seed", OPT_U64, OFF(seed), NULL, "N",
     "seed of machine models' deterministic noise, e.g. interrupts "
     "(default: 1; models without noise ignore it)"},
    {"trace", OPT_STRING, OFF(trace), NULL, "FILE",
     "write a timeline to FILE: Chrome trace-event JSON, or an OTF2 "
     "archive when FILE ends in .otf2"},
    {"trace-events", OPT_STRING, OFF(trace_events), NULL, "calls,proto,net",
     "trace only these event classes: personality calls with their "
     "messages, machine protocol events, network resources (default: all)"},
    {"trace-nodes", OPT_STRING, OFF(trace_nodes), NULL, "A-B",
     "trace only the calls and protocol events of nodes A to B"},
    {"stats", OPT_STRING, OFF(stats), NULL, "FILE.csv|FILE.json",
     "write one row of statistics per node (virtual time, compute, comm, "
     "wait, stolen, messages and bytes) with the run's provenance"},
    {"window-log", OPT_STRING, OFF(window_log), NULL, "FILE",
     "write each synchronisation window's node activations and messages "
     "(one process only; bench/project.sh simulates the window protocol "
     "on more ranks from it)"},
    {"summary", OPT_FLAG, OFF(summary), NULL, NULL,
     "rank 0 prints a summary line with the virtual-time digest at exit"},
    {"verbose", OPT_FLAG, OFF(verbose), NULL, NULL,
     "report placement (hwloc) and per-run statistics"},
    {"config", OPT_STRING, OFF(config_file), NULL, "FILE",
     "read options from FILE (key = value lines)"},
    {"progress", OPT_ENUM, OFF(progress), progress_choices, "auto|on|off",
     "rank 0 reports the virtual time reached, windows and deliveries per "
     "wall second every 2 s (default auto: when stderr is a terminal)"},
    {"oversubscribed", OPT_ENUM, OFF(oversub), oversub_choices, "pack|spread",
     "when a host's MPI ranks outnumber its cores: pack (default) runs the "
     "virtual nodes on one rank per core while the others wait asleep; "
     "spread runs nodes on every rank"},
    {"exchange", OPT_ENUM, OFF(exchange), exchange_choices, "auto|mpi|shm",
     "how ranks exchange each window's summary and payloads: auto "
     "(default: summaries through shared memory when every rank runs on "
     "one host, payloads then read from the sender's memory at delivery "
     "where the kernel allows it; else MPI), shm (shared memory, payloads "
     "as MPI messages) or mpi (MPI collectives and messages always)"},
    {"windows", OPT_ENUM, OFF(windows), windows_choices,
     "committed|wide|narrow",
     "synchronisation windows: wide (the network's least latency plus the "
     "protocol's least send delay), committed (default: wide, and a node "
     "whose next arrival the network model has already fixed beyond the "
     "window, e.g. on the Paragon's co-processor, takes it and runs on to "
     "it) or narrow (the network's latency alone); virtual times are the "
     "same, only the windows differ"},
    {"livelock", OPT_TIME, OFF(livelock), NULL, "TIME",
     "report a livelock after TIME of only polling, nothing in flight "
     "(default: 10 s; 0: never)"},
    {"max-vtime", OPT_TIME, OFF(max_vtime), NULL, "TIME",
     "stop the run when virtual time passes TIME (default: no limit)"},
    {"max-wall", OPT_TIME, OFF(max_wall), NULL, "TIME",
     "stop the run after TIME of wall-clock time (default: no limit)"},
    {"help", OPT_FLAG, OFF(help), NULL, NULL, "print this list and exit"},
    {"version", OPT_FLAG, OFF(version), NULL, NULL,
     "print mcemu's version and exit"},
};
#undef OFF

void mcei_config_defaults(mcei_config_t *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->compute = MCEI_COMPUTE_DEFAULT; /* resolved at boot */
    cfg->placement = MCEI_PLACE_BLOCK;
    cfg->privatize = MCEI_PRIV_AUTO;
    cfg->stack_size = 1ULL << 20;
    cfg->seed = 1;
    cfg->livelock = 10 * MCE_S;
}

void mcei_config_free(mcei_config_t *cfg)
{
    free(cfg->machine);
    free(cfg->machine_path);
    free(cfg->trace);
    free(cfg->stats);
    free(cfg->trace_events);
    free(cfg->trace_nodes);
    free(cfg->config_file);
    free(cfg->place_weights);
    free(cfg->window_log);
    mcei_kv_free(&cfg->overrides);
    mcei_kv_free(&cfg->plugin_opts);
    memset(cfg, 0, sizeof(*cfg));
}

const mcei_optlist_t mcei_options_none = {NULL, 0};

int mcei_config_choice(mcei_config_t *cfg, const mcei_plugin_opt_t *opt)
{
    const mcei_kv_t *kv = mcei_kv_find(&cfg->plugin_opts, opt->name);
    for (int i = 0; kv != NULL && opt->choices[i] != NULL; i++)
        if (strcmp(kv->value, opt->choices[i]) == 0)
            return i;
    return 0; /* not given (a value given was checked when parsed) */
}

void mcei_config_help(FILE *out)
{
    fprintf(out, "mcemu options (also MCE_<NAME> environment variables and "
                 "'name = value' lines in a --mce-config file;\n"
                 "options override the environment, which overrides the "
                 "file):\n");
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(options); i++) {
        char lhs[64];
        if (options[i].arg)
            snprintf(lhs, sizeof(lhs), "--mce-%s=%s", options[i].name,
                     options[i].arg);
        else
            snprintf(lhs, sizeof(lhs), "--mce-%s", options[i].name);
        fprintf(out, "  %-36s %s\n", lhs, options[i].help);
    }
    const mcei_plugin_opt_t *p;
    for (size_t i = 0; (p = mcei_option_at(i)) != NULL; i++) {
        char lhs[64];
        snprintf(lhs, sizeof(lhs), "--mce-%s=%s", p->name, p->arg);
        fprintf(out, "  %-36s %s\n", lhs, p->help);
    }
}

int mcei_config_is_core_option(const char *name, size_t len)
{
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(options); i++)
        if (strlen(options[i].name) == len &&
            strncmp(options[i].name, name, len) == 0)
            return 1;
    return 0;
}

/* The option called @p name (@p len bytes): the core's, or a plug-in's
 * described in @p tmp. */
static const opt_desc_t *find_option(const char *name, size_t len,
                                     opt_desc_t *tmp)
{
    const mcei_plugin_opt_t *p;
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(options); i++)
        if (strlen(options[i].name) == len &&
            strncmp(options[i].name, name, len) == 0)
            return &options[i];
    for (size_t i = 0; (p = mcei_option_at(i)) != NULL; i++)
        if (strlen(p->name) == len && strncmp(p->name, name, len) == 0) {
            *tmp = (opt_desc_t){.name = p->name,
                                .kind = OPT_PLUGIN,
                                .offset = offsetof(mcei_config_t, plugin_opts),
                                .choices = p->choices,
                                .arg = p->arg,
                                .help = p->help};
            return tmp;
        }
    return NULL;
}

static int parse_flag(const char *v, int *out)
{
    static const char *const yes[] = {"1", "yes", "true", "on"};
    static const char *const no[] = {"0", "no", "false", "off"};
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(yes); i++) {
        if (strcmp(v, yes[i]) == 0) {
            *out = 1;
            return MCE_OK;
        }
        if (strcmp(v, no[i]) == 0) {
            *out = 0;
            return MCE_OK;
        }
    }
    return MCE_ERR_INVAL;
}

static int apply_set(mcei_config_t *cfg, const opt_desc_t *o, const char *value,
                     const char *who, char *err, size_t errlen);

/* Apply one option; @p who names it for messages ("option --mce-x"). */
static int apply(mcei_config_t *cfg, const opt_desc_t *o, const char *value,
                 const char *who, char *err, size_t errlen)
{
    char *base = (char *)cfg + o->offset;
    uint64_t u;
    int rc;

    if (value == NULL && o->kind != OPT_FLAG) {
        snprintf(err, errlen, "%s needs a value (%s)", who,
                 o->arg ? o->arg : "value");
        return MCE_ERR_CONFIG;
    }
    switch (o->kind) {
    case OPT_COUNT:
        rc = mcei_parse_u64(value, &u);
        if (rc != MCE_OK || u == 0 || u > (1u << 30)) {
            snprintf(err, errlen,
                     "%s: '%s' is not a positive integer (1 .. 2^30)", who,
                     value);
            return MCE_ERR_CONFIG;
        }
        *(uint64_t *)base = u;
        return MCE_OK;
    case OPT_U64:
        if (mcei_parse_u64(value, &u) != MCE_OK) {
            snprintf(err, errlen, "%s: '%s' is not a non-negative integer", who,
                     value);
            return MCE_ERR_CONFIG;
        }
        *(uint64_t *)base = u;
        return MCE_OK;
    case OPT_SIZE:
        if (mcei_parse_size(value, &u) != MCE_OK || u < 16384 ||
            u > (1ULL << 32)) {
            snprintf(err, errlen,
                     "%s: '%s' is not a size between 16K and 4G (e.g. 256K, "
                     "2M)",
                     who, value);
            return MCE_ERR_CONFIG;
        }
        *(uint64_t *)base = u;
        return MCE_OK;
    case OPT_STRING: {
        char *dup;
        if (!*value) {
            snprintf(err, errlen, "%s: empty value", who);
            return MCE_ERR_CONFIG;
        }
        if ((dup = strdup(value)) == NULL)
            return MCE_ERR_NOMEM;
        free(*(char **)base);
        *(char **)base = dup;
        return MCE_OK;
    }
    case OPT_FLAG: {
        int f = 1;
        if (value != NULL && parse_flag(value, &f) != MCE_OK) {
            snprintf(err, errlen,
                     "%s: '%s' is not yes/no/true/false/1/0/on/off", who,
                     value);
            return MCE_ERR_CONFIG;
        }
        *(int *)base = f;
        return MCE_OK;
    }
    case OPT_ENUM:
    case OPT_PLUGIN:
        for (int i = 0; o->choices[i]; i++)
            if (strcmp(value, o->choices[i]) == 0) {
                if (o->kind == OPT_PLUGIN)
                    return mcei_kv_set((mcei_kvlist_t *)base, o->name, value,
                                       who);
                *(int *)base = i;
                return MCE_OK;
            }
        snprintf(err, errlen, "%s: '%s' is not one of %s", who, value, o->arg);
        return MCE_ERR_CONFIG;
    case OPT_TIME: {
        mce_time_t t;
        if (mcei_time_parse(value, MCE_S, &t) != MCE_OK) {
            snprintf(err, errlen,
                     "%s: '%s' is not a time (number with unit ps, ns, us, "
                     "ms or s; bare numbers are s)",
                     who, value);
            return MCE_ERR_CONFIG;
        }
        *(mce_time_t *)base = t;
        return MCE_OK;
    }
    case OPT_SET: {
        /* KEY=VALUE,KEY=VALUE: one setting after the other (a loop: any
         * number of them in constant stack). */
        const char *comma;
        while ((comma = strchr(value, ',')) != NULL) {
            char *first = strndup(value, (size_t)(comma - value));
            int rc2;
            if (first == NULL)
                return MCE_ERR_NOMEM;
            rc2 = apply_set(cfg, o, first, who, err, errlen);
            free(first);
            if (rc2 != MCE_OK)
                return rc2;
            value = comma + 1;
        }
        return apply_set(cfg, o, value, who, err, errlen);
    }
    }
    return MCE_ERR_CONFIG;
}

/* One KEY=VALUE of --mce-set. */
static int apply_set(mcei_config_t *cfg, const opt_desc_t *o, const char *value,
                     const char *who, char *err, size_t errlen)
{
    char *base = (char *)cfg + o->offset;
    char key[256];
    const char *eq = strchr(value, '=');
    size_t klen = eq ? (size_t)(eq - value) : 0;
    if (eq == NULL || klen == 0 || klen >= sizeof(key) || !eq[1]) {
        snprintf(err, errlen, "%s: '%s' is not KEY=VALUE", who, value);
        return MCE_ERR_CONFIG;
    }
    memcpy(key, value, klen);
    key[klen] = '\0';
    if (!valid_key(key)) {
        snprintf(err, errlen, "%s: invalid key '%s'", who, key);
        return MCE_ERR_CONFIG;
    }
    return mcei_kv_set((mcei_kvlist_t *)base, key, eq + 1, who);
}

/* Environment name MCE_STACK_SIZE -> option name stack-size. */
static int env_to_option(const char *env, size_t len, char *out, size_t outlen)
{
    if (len >= outlen)
        return MCE_ERR_INVAL;
    for (size_t i = 0; i < len; i++) {
        char c = env[i];
        if (c == '_')
            c = '-';
        else if (isupper((unsigned char)c))
            c = (char)tolower((unsigned char)c);
        else if (!isdigit((unsigned char)c))
            return MCE_ERR_INVAL;
        out[i] = c;
    }
    out[len] = '\0';
    return MCE_OK;
}

static int is_mce_arg(const char *a)
{
    return strncmp(a, "--mce-", 6) == 0;
}

int mcei_config_parse(mcei_config_t *cfg, int *argc, char **argv, char **envp,
                      char *err, size_t errlen)
{
    char who[512], name[128];
    const char *file = NULL;
    int rc, i, j;

    /* 1. Find the config file: the option wins over MCE_CONFIG. */
    const char *file_who = "option --mce-config";
    for (i = 1; i < *argc && strcmp(argv[i], "--") != 0; i++) {
        if (strncmp(argv[i], "--mce-config=", 13) == 0)
            file = argv[i] + 13;
        else if (strcmp(argv[i], "--mce-config") == 0 && i + 1 < *argc &&
                 !is_mce_arg(argv[i + 1]))
            file = argv[++i];
    }
    if (file == NULL && envp != NULL)
        for (char **e = envp; *e; e++)
            if (strncmp(*e, "MCE_CONFIG=", 11) == 0) {
                file = *e + 11;
                file_who = "environment variable MCE_CONFIG";
            }
    if (file != NULL) {
        mcei_kvlist_t kv = {0};
        if (!*file) {
            snprintf(err, errlen, "%s: empty file name", file_who);
            return MCE_ERR_CONFIG;
        }
        /* Every line counts: "set" may appear several times. */
        rc = kv_load(&kv, file, 0, err, errlen);
        if (rc != MCE_OK) {
            char tmp[1024];
            snprintf(tmp, sizeof(tmp), "config file: %s", err);
            snprintf(err, errlen, "%s", tmp);
            mcei_kv_free(&kv);
            return MCE_ERR_CONFIG;
        }
        for (size_t k = 0; k < kv.count; k++) {
            opt_desc_t tmp;
            const opt_desc_t *o =
                find_option(kv.items[k].key, strlen(kv.items[k].key), &tmp);
            snprintf(who, sizeof(who), "config file %s: key '%s'",
                     kv.items[k].origin, kv.items[k].key);
            if (o == NULL || strcmp(o->name, "config") == 0) {
                snprintf(err, errlen, "%s is not an mcemu option", who);
                mcei_kv_free(&kv);
                return MCE_ERR_CONFIG;
            }
            if ((rc = apply(cfg, o, kv.items[k].value, who, err, errlen)) !=
                MCE_OK) {
                mcei_kv_free(&kv);
                return MCE_ERR_CONFIG;
            }
        }
        mcei_kv_free(&kv);
        free(cfg->config_file);
        if ((cfg->config_file = strdup(file)) == NULL)
            return MCE_ERR_NOMEM;
    }

    /* 2. MCE_* environment variables. */
    if (envp != NULL) {
        for (char **e = envp; *e; e++) {
            const char *eq;
            const opt_desc_t *o;
            opt_desc_t tmp;
            if (strncmp(*e, "MCE_", 4) != 0 || (eq = strchr(*e, '=')) == NULL)
                continue;
            snprintf(who, sizeof(who), "environment variable %.*s",
                     (int)(eq - *e), *e);
            if (env_to_option(*e + 4, (size_t)(eq - *e - 4), name,
                              sizeof(name)) != MCE_OK ||
                (o = find_option(name, strlen(name), &tmp)) == NULL) {
                snprintf(err, errlen,
                         "%s is not an mcemu setting (see --mce-help)", who);
                return MCE_ERR_CONFIG;
            }
            if (strcmp(o->name, "config") == 0)
                continue; /* handled above */
            if ((rc = apply(cfg, o, eq + 1, who, err, errlen)) != MCE_OK)
                return MCE_ERR_CONFIG;
        }
    }

    /* 3. --mce-* options, removed from argv. */
    for (i = 1, j = 1; i < *argc; i++) {
        const char *a = argv[i], *eq;
        const opt_desc_t *o;
        opt_desc_t tmp;
        size_t len;
        if (strcmp(a, "--") == 0) {
            /* Everything after "--" belongs to the program. */
            for (; i < *argc; i++)
                argv[j++] = argv[i];
            break;
        }
        if (!is_mce_arg(a)) {
            argv[j++] = argv[i];
            continue;
        }
        eq = strchr(a, '=');
        len = eq ? (size_t)(eq - a - 6) : strlen(a + 6);
        o = find_option(a + 6, len, &tmp);
        snprintf(who, sizeof(who), "option %.*s", (int)(len + 6), a);
        if (o == NULL) {
            snprintf(err, errlen, "unknown option '%s' (see --mce-help)", a);
            return MCE_ERR_CONFIG;
        }
        if (strcmp(o->name, "config") == 0 && eq != NULL) {
            if ((rc = apply(cfg, o, eq + 1, who, err, errlen)) != MCE_OK)
                return MCE_ERR_CONFIG;
            continue;
        }
        if (eq == NULL && o->kind != OPT_FLAG && i + 1 < *argc &&
            !is_mce_arg(argv[i + 1])) {
            /* "--mce-nodes 64" form. */
            rc = apply(cfg, o, argv[++i], who, err, errlen);
        } else {
            rc = apply(cfg, o, eq ? eq + 1 : NULL, who, err, errlen);
        }
        if (rc != MCE_OK)
            return MCE_ERR_CONFIG;
    }
    argv[j] = NULL;
    *argc = j;
    return MCE_OK;
}
