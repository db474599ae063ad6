/* Loading machine description files. */
#include "machine.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef MCE_MACHINEDIR
#define MCE_MACHINEDIR "/usr/local/share/mcemu/machines"
#endif

/* The directory of @p path, in place ("" if it has none). */
static void cut_dir(char *path)
{
    char *slash = strrchr(path, '/');
    if (slash == NULL)
        path[0] = '\0';
    else if (slash == path)
        path[1] = '\0';
    else
        *slash = '\0';
}

/* The first line of @p dir/MCEI_UNINSTALLED_FILE into @p out. */
static int read_marker(const char *dir, char *out, size_t cap)
{
    char file[PATH_MAX + 32];
    FILE *f;
    int ok = 0;
    snprintf(file, sizeof(file), "%s/%s", dir, MCEI_UNINSTALLED_FILE);
    if ((f = fopen(file, "r")) == NULL)
        return 0;
    if (fgets(out, (int)cap, f) != NULL) {
        out[strcspn(out, "\n")] = '\0';
        ok = out[0] == '/';
    }
    fclose(f);
    return ok;
}

const char *mcei_machine_srcdir(void)
{
    /* Looked up once per process: the answer cannot change. */
    static int done;
    static char found[PATH_MAX];
    static const char *result;
    char dir[PATH_MAX];
    Dl_info info;
    if (done)
        return result;
    done = 1;
    /* The file that holds this code: the shared library, or a program
     * linked with the library's objects (then /proc/self/exe when dladdr
     * gives only argv[0]). */
    if (dladdr((void *)&mcei_machine_srcdir, &info) == 0 ||
        info.dli_fname == NULL || realpath(info.dli_fname, dir) == NULL) {
        if (realpath("/proc/self/exe", dir) == NULL)
            return NULL;
    }
    cut_dir(dir);
    {
        size_t n = strlen(dir);
        if (n >= 6 && strcmp(dir + n - 6, "/.libs") == 0)
            cut_dir(dir);
    }
    for (int up = 0; up < 3 && dir[0] != '\0'; up++) {
        if (read_marker(dir, found, sizeof(found))) {
            result = found;
            return result;
        }
        if (strcmp(dir, "/") == 0)
            break;
        cut_dir(dir);
    }
    return NULL;
}

void mcei_machine_dirs(const char *search_path,
                       const char *dirs[MCEI_MACHINE_NDIRS])
{
    dirs[0] = search_path;
    dirs[1] = mcei_machine_srcdir();
    dirs[2] = MCE_MACHINEDIR;
}

static int looks_like_path(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') != NULL || (n > 5 && strcmp(s + n - 5, ".conf") == 0);
}

static int valid_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' || *s == '.'))
            return 0;
    return 1;
}

static void append(char *dst, size_t cap, const char *s)
{
    size_t dl = strlen(dst), sl = strlen(s);
    if (dl + 1 >= cap)
        return;
    if (sl > cap - dl - 1)
        sl = cap - dl - 1;
    memcpy(dst + dl, s, sl);
    dst[dl + sl] = '\0';
}

/* Resolve a name to a readable file; writes the tried places into err. */
static int resolve(const char *name, const char *search_path, char *out,
                   size_t outlen, char *err, size_t errlen)
{
    char tried[2048] = "";
    const char *dirs[MCEI_MACHINE_NDIRS];

    mcei_machine_dirs(search_path, dirs);

    if (looks_like_path(name)) {
        if (access(name, R_OK) == 0) {
            snprintf(out, outlen, "%s", name);
            return MCE_OK;
        }
        snprintf(err, errlen,
                 "machine description '%s' not found or unreadable", name);
        return MCE_ERR_MACHINE;
    }
    if (!valid_name(name)) {
        snprintf(err, errlen, "invalid machine name '%s'", name);
        return MCE_ERR_MACHINE;
    }
    for (size_t d = 0; d < MCEI_ARRAY_SIZE(dirs); d++) {
        const char *p = dirs[d];
        if (p == NULL || !*p)
            continue;
        while (*p) {
            size_t len = strcspn(p, ":");
            if (len > 0) {
                snprintf(out, outlen, "%.*s/%s.conf", (int)len, p, name);
                if (access(out, R_OK) == 0)
                    return MCE_OK;
                if (tried[0])
                    append(tried, sizeof(tried), ", ");
                append(tried, sizeof(tried), out);
            }
            p += len;
            if (*p == ':')
                p++;
        }
    }
    snprintf(err, errlen, "unknown machine '%s' (looked for %s)", name, tried);
    return MCE_ERR_MACHINE;
}

static int load_rec(mcei_machine_t *m, const char *name, const char *search,
                    int depth, char *err, size_t errlen)
{
    char path[4096];
    mcei_kvlist_t kv = {0};
    mcei_kv_t *inh;
    int rc;

    if (depth > 8) {
        snprintf(err, errlen,
                 "machine '%s': 'inherit' chain too deep (a loop?)", name);
        return MCE_ERR_MACHINE;
    }
    if ((rc = resolve(name, search, path, sizeof(path), err, errlen)) != MCE_OK)
        return rc;
    if ((rc = mcei_kv_load(&kv, path, err, errlen)) != MCE_OK) {
        mcei_kv_free(&kv);
        return MCE_ERR_MACHINE;
    }
    if ((inh = mcei_kv_find(&kv, "inherit")) != NULL) {
        inh->used = 1;
        if ((rc = load_rec(m, inh->value, search, depth + 1, err, errlen)) !=
            MCE_OK) {
            mcei_kv_free(&kv);
            return rc;
        }
    }
    for (size_t i = 0; i < kv.count; i++) {
        if (strcmp(kv.items[i].key, "inherit") == 0)
            continue;
        if ((rc = mcei_kv_set(&m->kv, kv.items[i].key, kv.items[i].value,
                              kv.items[i].origin)) != MCE_OK ||
            (rc = mcei_kv_set_note(&m->kv, kv.items[i].key, kv.items[i].note,
                                   kv.items[i].label)) != MCE_OK) {
            mcei_kv_free(&kv);
            return rc;
        }
    }
    if (depth == 0) {
        mcei_kv_t *nm = mcei_kv_find(&kv, "name");
        const char *b = strrchr(path, '/');
        b = b ? b + 1 : path;
        /* A variant without a name of its own is named after its file. */
        if ((m->path = strdup(path)) == NULL ||
            (m->name = nm ? strdup(nm->value) : strndup(b, strcspn(b, "."))) ==
                NULL)
            rc = MCE_ERR_NOMEM;
    }
    mcei_kv_free(&kv);
    return rc;
}

int mcei_machine_load(mcei_machine_t *m, const char *name_or_path,
                      const char *search_path, const mcei_kvlist_t *overrides,
                      char *err, size_t errlen)
{
    mcei_machine_t tmp = {0};
    const char *nm;
    int rc;

    if ((rc = load_rec(&tmp, name_or_path, search_path, 0, err, errlen)) !=
        MCE_OK)
        goto fail;
    if (overrides != NULL) {
        for (size_t i = 0; i < overrides->count; i++) {
            if ((rc = mcei_kv_set(&tmp.kv, overrides->items[i].key,
                                  overrides->items[i].value,
                                  overrides->items[i].origin)) != MCE_OK)
                goto fail;
        }
    }
    mcei_machine_str(&tmp, "name", NULL); /* consumed: it is tmp.name */
    for (size_t i = 0; overrides != NULL && i < overrides->count; i++) {
        if (strcmp(overrides->items[i].key, "name") != 0)
            continue;
        if ((nm = strdup(overrides->items[i].value)) == NULL) {
            rc = MCE_ERR_NOMEM;
            goto fail;
        }
        free(tmp.name);
        tmp.name = (char *)nm;
    }
    *m = tmp;
    return MCE_OK;
fail:
    mcei_machine_free(&tmp);
    return rc;
}

void mcei_machine_free(mcei_machine_t *m)
{
    free(m->name);
    free(m->path);
    mcei_kv_free(&m->kv);
    memset(m, 0, sizeof(*m));
}

const char *mcei_machine_str(mcei_machine_t *m, const char *key,
                             const char *def)
{
    mcei_kv_t *kv = mcei_kv_find(&m->kv, key);
    if (kv == NULL)
        return def;
    kv->used = 1;
    return kv->value;
}

typedef int (*parse_fn)(const char *s, uint64_t *out);

/* No machine constant comes near 1000 s; the bound keeps sums and
 * products of a few of them (latency + size x per-byte cost, 1024 cycles)
 * far from the 2^64 ps clock limit. */
#define MACHINE_TIME_MAX (1000 * MCE_S)

static int parse_time_us(const char *s, uint64_t *out)
{
    uint64_t v;
    /* Bare numbers in machine files are microseconds, the seeds' unit. */
    int rc = mcei_time_parse(s, MCE_US, &v);
    if (rc != MCE_OK)
        return rc;
    if (v > MACHINE_TIME_MAX)
        return MCE_ERR_OVERFLOW;
    *out = v;
    return MCE_OK;
}

static int get_num(mcei_machine_t *m, const char *key, int required,
                   uint64_t def, uint64_t *out, parse_fn fn, const char *what,
                   char *err, size_t errlen)
{
    mcei_kv_t *kv = mcei_kv_find(&m->kv, key);
    uint64_t v;
    if (kv == NULL) {
        if (required) {
            snprintf(err, errlen,
                     "machine '%s' (%s): required key '%s' missing",
                     m->name ? m->name : "?", m->path ? m->path : "?", key);
            return MCE_ERR_MACHINE;
        }
        *out = def;
        return MCE_OK;
    }
    kv->used = 1;
    if (fn(kv->value, &v) != MCE_OK) {
        snprintf(err, errlen, "%s: key '%s': '%s' is not %s", kv->origin, key,
                 kv->value, what);
        return MCE_ERR_MACHINE;
    }
    *out = v;
    return MCE_OK;
}

int mcei_machine_time(mcei_machine_t *m, const char *key, int required,
                      mce_time_t def, mce_time_t *out, char *err, size_t errlen)
{
    return get_num(m, key, required, def, out, parse_time_us,
                   "a time (number with unit ps, ns, us, ms or s; bare numbers "
                   "are us; exact to 1 ps; at most 1000 s)",
                   err, errlen);
}

int mcei_machine_u64(mcei_machine_t *m, const char *key, int required,
                     uint64_t def, uint64_t *out, char *err, size_t errlen)
{
    return get_num(m, key, required, def, out, mcei_parse_u64,
                   "a non-negative integer", err, errlen);
}

int mcei_machine_micro(mcei_machine_t *m, const char *key, int required,
                       uint64_t def, uint64_t *out, char *err, size_t errlen)
{
    return get_num(m, key, required, def, out, mcei_parse_micro,
                   "a non-negative decimal number (at most 6 decimals)", err,
                   errlen);
}

void mcei_machine_skip_prefix(mcei_machine_t *m, const char *prefix)
{
    size_t n = strlen(prefix);
    for (size_t i = 0; i < m->kv.count; i++)
        if (strncmp(m->kv.items[i].key, prefix, n) == 0)
            m->kv.items[i].used = 1;
}

int mcei_machine_check_unused(mcei_machine_t *m, char *err, size_t errlen)
{
    for (size_t i = 0; i < m->kv.count; i++) {
        if (strncmp(m->kv.items[i].key, "app.", 4) == 0)
            continue; /* read by programs through mce_machine_param() */
        if (!m->kv.items[i].used) {
            mcei_kv_t *net = mcei_kv_find(&m->kv, "network");
            snprintf(err, errlen,
                     "%s: unknown key '%s' for machine '%s' (network model "
                     "'%s')",
                     m->kv.items[i].origin, m->kv.items[i].key, m->name,
                     net ? net->value : "?");
            return MCE_ERR_MACHINE;
        }
    }
    return MCE_OK;
}

/* ---- key tables -------------------------------------------------------- */

const mcei_keytab_t mcei_keys_none = {"nothing", NULL, 0};

#define T_MAX MCEI_TIME_MAX_KEY
static const mcei_key_t core_keys[] = {
    {"name", MCEI_KEY_STRING, "", 0, 0, "(file name)", MCEI_LABEL_SETTING,
     "the machine's name"},
    {"description", MCEI_KEY_STRING, "", 0, 0, "", MCEI_LABEL_SETTING,
     "one line for listings"},
    {"network", MCEI_KEY_STRING, "", 0, 0, NULL, MCEI_LABEL_SETTING,
     "network model (mce-info lists them)"},
    {"protocol", MCEI_KEY_STRING, "", 0, 0, "native", MCEI_LABEL_SETTING,
     "node protocol (mce-info lists them)"},
    {"nodes", MCEI_KEY_COUNT, "nodes", 0, 1u << 30, "0", MCEI_LABEL_SETTING,
     "--mce-nodes default of a machine of fixed size (0: one per rank)"},
    {"send_overhead", MCEI_KEY_TIME, "us", 0, T_MAX, "0", MCEI_LABEL_MACHINE,
     "charged to the sender per native send"},
    {"recv_overhead", MCEI_KEY_TIME, "us", 0, T_MAX, "0", MCEI_LABEL_MACHINE,
     "charged to the receiver per native receive"},
    {"probe_cost", MCEI_KEY_TIME, "us", 0, T_MAX, NULL, MCEI_LABEL_MACHINE,
     "one poll (probe, clock read); positive so polling loops advance"},
    {"cycle_time", MCEI_KEY_TIME, "us", 0, T_MAX, NULL, MCEI_LABEL_MACHINE,
     "one processor cycle, for mce_compute_cycles"},
    {"cpu_scale", MCEI_KEY_MICRO, "", 0, UINT64_MAX, "1.0", MCEI_LABEL_MACHINE,
     "--mce-compute=measured: emulated time per host CPU time"},
    /* Counted mode: cycles per operation of each class (tools/mce-cov). */
    {"cpu.cpi_int", MCEI_KEY_MICRO, "cycles", 0, 1000000000, "1.0",
     MCEI_LABEL_MACHINE,
     "--mce-compute=counted: cycles per integer (and other) operation"},
    {"cpu.cpi_mem", MCEI_KEY_MICRO, "cycles", 0, 1000000000, "1.0",
     MCEI_LABEL_MACHINE, "--mce-compute=counted: cycles per load or store"},
    {"cpu.cpi_fp", MCEI_KEY_MICRO, "cycles", 0, 1000000000, "1.0",
     MCEI_LABEL_MACHINE,
     "--mce-compute=counted: cycles per floating-point operation"},
    {"cpu.cpi_branch", MCEI_KEY_MICRO, "cycles", 0, 1000000000, "1.0",
     MCEI_LABEL_MACHINE,
     "--mce-compute=counted: cycles per jump, call or return"},
};
#undef T_MAX
const mcei_keytab_t mcei_keys_core = MCEI_KEYTAB("the engine", core_keys);

const char *mcei_label_name(mcei_key_label_t l)
{
    switch (l) {
    case MCEI_LABEL_INPUT:
        return "input";
    case MCEI_LABEL_DERIVED:
        return "derived";
    case MCEI_LABEL_ASSUMED:
        return "assumed";
    case MCEI_LABEL_MACHINE:
        return "per-machine";
    case MCEI_LABEL_SETTING:
        return "setting";
    }
    return "?";
}

const char *mcei_kind_name(mcei_key_kind_t k)
{
    switch (k) {
    case MCEI_KEY_TIME:
        return "time";
    case MCEI_KEY_COUNT:
        return "integer";
    case MCEI_KEY_MICRO:
        return "decimal";
    case MCEI_KEY_STRING:
        return "word";
    }
    return "?";
}

static const mcei_key_t *tab_find(const mcei_keytab_t *t, const char *key)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->keys[i].name, key) == 0)
            return &t->keys[i];
    return NULL;
}

const mcei_key_t *mcei_key_find(const mcei_machine_t *m, const char *key)
{
    const mcei_keytab_t *all[64];
    const mcei_key_t *k;
    size_t n;
    for (size_t i = 0; i < m->ntabs; i++)
        if ((k = tab_find(m->tabs[i], key)) != NULL)
            return k;
    if (m->ntabs > 0)
        return NULL;
    /* Unbound (a unit test's hand-made machine): every registered table. */
    n = mcei_keytabs_all(all, MCEI_ARRAY_SIZE(all));
    for (size_t i = 0; i < n; i++)
        if ((k = tab_find(all[i], key)) != NULL)
            return k;
    return NULL;
}

int mcei_key_parse(const mcei_key_t *k, const char *value, uint64_t *out,
                   char *err, size_t errlen)
{
    uint64_t v = 0;
    int rc = MCE_OK;
    const char *what = "";
    switch (k->kind) {
    case MCEI_KEY_TIME:
        rc = parse_time_us(value, &v);
        what = "a time (number with unit ps, ns, us, ms or s; bare numbers "
               "are us; exact to 1 ps; at most 1000 s)";
        break;
    case MCEI_KEY_COUNT:
        rc = mcei_parse_u64(value, &v);
        what = "a non-negative integer";
        break;
    case MCEI_KEY_MICRO:
        rc = mcei_parse_micro(value, &v);
        what = "a non-negative decimal number (at most 6 decimals)";
        break;
    case MCEI_KEY_STRING:
        *out = 0;
        return MCE_OK;
    }
    if (rc != MCE_OK) {
        snprintf(err, errlen, "key '%s': '%s' is not %s", k->name, value, what);
        return MCE_ERR_MACHINE;
    }
    if (v < k->min || v > k->max) {
        char lo[48], hi[48];
        if (k->kind == MCEI_KEY_TIME) {
            mcei_key_format_time(k->min, lo, sizeof(lo));
            mcei_key_format_time(k->max, hi, sizeof(hi));
        } else {
            snprintf(lo, sizeof(lo), "%" PRIu64, k->min);
            snprintf(hi, sizeof(hi), "%" PRIu64, k->max);
        }
        snprintf(err, errlen, "key '%s' = %s is out of range (%s .. %s%s%s)",
                 k->name, value, lo, hi,
                 *k->unit && k->kind != MCEI_KEY_TIME ? " " : "",
                 k->kind == MCEI_KEY_TIME ? "" : k->unit);
        return MCE_ERR_MACHINE;
    }
    *out = v;
    return MCE_OK;
}

/* A time in its largest exact unit, for messages and listings. */
void mcei_key_format_time(uint64_t ps, char *buf, size_t len)
{
    static const struct {
        uint64_t unit;
        const char *name;
    } units[] = {{MCE_S, "s"}, {MCE_MS, "ms"}, {MCE_US, "us"}, {MCE_NS, "ns"}};
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(units); i++)
        if (ps != 0 && ps % units[i].unit == 0) {
            snprintf(buf, len, "%" PRIu64 " %s", ps / units[i].unit,
                     units[i].name);
            return;
        }
    snprintf(buf, len, "%" PRIu64 " ps", ps);
}

/* Edit distance of two short keys (for "did you mean"). */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[128];
    if (la >= MCEI_ARRAY_SIZE(row) || lb >= MCEI_ARRAY_SIZE(row))
        return SIZE_MAX;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

int mcei_machine_bind(mcei_machine_t *m, const mcei_keytab_t *const *tabs,
                      size_t ntabs, char *err, size_t errlen)
{
    if (ntabs > MCEI_MACHINE_MAX_TABS) {
        snprintf(err, errlen, "machine '%s': too many key tables", m->name);
        return MCE_ERR_MACHINE;
    }
    for (size_t i = 0; i < ntabs; i++)
        m->tabs[i] = tabs[i];
    m->ntabs = ntabs;
    for (size_t i = 0; i < m->kv.count; i++) {
        mcei_kv_t *kv = &m->kv.items[i];
        const mcei_key_t *k;
        char why[1024];
        uint64_t v;
        if (strncmp(kv->key, "app.", 4) == 0)
            continue; /* read by programs through mce_machine_param() */
        if ((k = mcei_key_find(m, kv->key)) == NULL) {
            const char *near = NULL;
            char owners[512] = "";
            size_t best = SIZE_MAX;
            for (size_t t = 0; t < ntabs; t++) {
                for (size_t j = 0; j < tabs[t]->n; j++) {
                    size_t d = distance(kv->key, tabs[t]->keys[j].name);
                    if (d < best) {
                        best = d;
                        near = tabs[t]->keys[j].name;
                    }
                }
                if (tabs[t]->n > 0) {
                    if (owners[0])
                        append(owners, sizeof(owners), ", ");
                    append(owners, sizeof(owners), tabs[t]->owner);
                }
            }
            snprintf(err, errlen,
                     "%s: unknown key '%s' for machine '%s': no key of %s "
                     "(nearest: '%s'; mce-info --machine=%s lists them)",
                     kv->origin, kv->key, m->name, owners, near ? near : "-",
                     m->name);
            return MCE_ERR_MACHINE;
        }
        if (mcei_key_parse(k, kv->value, &v, why, sizeof(why)) != MCE_OK) {
            snprintf(err, errlen, "%s: machine '%s': %s", kv->origin, m->name,
                     why);
            return MCE_ERR_MACHINE;
        }
    }
    return MCE_OK;
}

/* The entry of @p key, of @p kind, or an error naming the reader's bug. */
static const mcei_key_t *key_entry(mcei_machine_t *m, const char *key,
                                   mcei_key_kind_t kind, char *err,
                                   size_t errlen)
{
    const mcei_key_t *k = mcei_key_find(m, key);
    if (k == NULL || k->kind != kind) {
        snprintf(err, errlen,
                 "machine '%s': internal error: key '%s' is %s (a plug-in "
                 "reads a key its table does not declare)",
                 m->name ? m->name : "?", key,
                 k ? "of another kind in its key table" : "in no key table");
        return NULL;
    }
    return k;
}

static int key_num(mcei_machine_t *m, const char *key, mcei_key_kind_t kind,
                   uint64_t *out, char *err, size_t errlen)
{
    const mcei_key_t *k = key_entry(m, key, kind, err, errlen);
    mcei_kv_t *kv;
    char why[1024];
    uint64_t v;
    if (k == NULL)
        return MCE_ERR_MACHINE;
    if ((kv = mcei_kv_find(&m->kv, key)) == NULL && k->def == NULL) {
        snprintf(err, errlen, "machine '%s' (%s): required key '%s' missing",
                 m->name ? m->name : "?", m->path ? m->path : "?", key);
        return MCE_ERR_MACHINE;
    }
    if (kv != NULL)
        kv->used = 1;
    if (mcei_key_parse(k, kv ? kv->value : k->def, &v, why, sizeof(why)) !=
        MCE_OK) {
        snprintf(err, errlen, "%s: machine '%s': %s",
                 kv ? kv->origin : "key table", m->name ? m->name : "?", why);
        return MCE_ERR_MACHINE;
    }
    *out = v;
    return MCE_OK;
}

int mcei_key_time(mcei_machine_t *m, const char *key, mce_time_t *out,
                  char *err, size_t errlen)
{
    return key_num(m, key, MCEI_KEY_TIME, out, err, errlen);
}

int mcei_key_u64(mcei_machine_t *m, const char *key, uint64_t *out, char *err,
                 size_t errlen)
{
    return key_num(m, key, MCEI_KEY_COUNT, out, err, errlen);
}

int mcei_key_micro(mcei_machine_t *m, const char *key, uint64_t *out, char *err,
                   size_t errlen)
{
    return key_num(m, key, MCEI_KEY_MICRO, out, err, errlen);
}

const char *mcei_key_str(mcei_machine_t *m, const char *key)
{
    const mcei_key_t *k = mcei_key_find(m, key);
    const char *v = mcei_machine_str(m, key, NULL);
    if (v != NULL)
        return v;
    return k != NULL && k->kind == MCEI_KEY_STRING ? k->def : NULL;
}
