/* mce-info: what this mcemu knows, from the same key tables the machine
 * loader checks files against (lib/core/machine.h):
 *   mce-info                     machines, network models, protocols,
 *                                personalities
 *   mce-info --machine=NAME      every key of a machine: value, unit,
 *                                range, default, label and source
 *   mce-info --keys              every key table, plug-in by plug-in
 *   mce-info --check[=NAME]      every key a machine file sets is in a
 *                                table and the table's label is the file's
 * It registers the plug-ins as the library's main() does (lib/main.c). */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/registry.h"
#include "core/engine.h"
#include "machines/registry.h"
#include "net/registry.h"

enum { MAX_MACHINES = 256 };

static const char *search_path; /* --machine-path */
static int tsv;                 /* --tsv: tab-separated rows for scripts */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mce-info [--machine=NAME|PATH] [--keys] [--check[=NAME]]\n"
            "                [--machine-path=DIRS] [--version] [--help]\n"
            "  (no option)          list the machines, network models, "
            "protocols and\n"
            "                       personalities\n"
            "  --machine=NAME|PATH  every key of a machine: value, unit, "
            "range, default,\n"
            "                       label (input/derived/assumed) and "
            "source\n"
            "  --keys               every key table, plug-in by plug-in\n"
            "  --tsv                with --machine or --keys: one "
            "tab-separated row per key\n"
            "                       (key, value, unit, range, default, "
            "label, source)\n"
            "  --check[=NAME|PATH]  check that every key a machine file "
            "sets is in a\n"
            "                       table and that the table's label is "
            "the file's\n"
            "                       (all machines found, or one); exit 1 "
            "if not\n"
            "  --machine-path=DIRS  colon-separated directories searched "
            "first\n"
            "  --version            print the version and exit\n");
}

/* ---- machines found ---------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The machine names of every NAME.conf in the search directories (the
 * first directory holding a name wins, as for the loader). */
static size_t find_machines(char **names, size_t cap)
{
    const char *dirs[MCEI_MACHINE_NDIRS];
    size_t n = 0;
    mcei_machine_dirs(search_path, dirs);
    for (size_t d = 0; d < MCEI_MACHINE_NDIRS; d++) {
        const char *p = dirs[d];
        while (p != NULL && *p) {
            size_t len = strcspn(p, ":");
            char dir[4096];
            DIR *dh;
            struct dirent *e;
            snprintf(dir, sizeof(dir), "%.*s", (int)len, p);
            p += len;
            if (*p == ':')
                p++;
            if (len == 0 || (dh = opendir(dir)) == NULL)
                continue;
            while ((e = readdir(dh)) != NULL) {
                size_t l = strlen(e->d_name), i;
                if (l <= 5 || strcmp(e->d_name + l - 5, ".conf") != 0)
                    continue;
                for (i = 0; i < n; i++)
                    if (strlen(names[i]) == l - 5 &&
                        strncmp(names[i], e->d_name, l - 5) == 0)
                        break;
                if (i < n || n == cap)
                    continue;
                if ((names[n] = strndup(e->d_name, l - 5)) != NULL)
                    n++;
            }
            closedir(dh);
        }
    }
    qsort(names, n, sizeof(*names), cmp_str);
    return n;
}

/* ---- one machine --------------------------------------------------------- */

typedef struct loaded {
    mcei_machine_t m;
    const mcei_keytab_t *tabs[MCEI_MACHINE_MAX_TABS];
    size_t ntabs;
    const char *net, *proto;
} loaded_t;

/* Does the file set a key of @p t? */
static int sets_key_of(mcei_machine_t *m, const mcei_keytab_t *t)
{
    for (size_t i = 0; i < t->n; i++)
        if (mcei_kv_find(&m->kv, t->keys[i].name) != NULL)
            return 1;
    return 0;
}

/* Load a machine and find the tables of the plug-ins it uses: the
 * engine's, its network model's and protocol's, and the personalities'
 * that default to it or whose keys it sets. */
static int load(loaded_t *l, const char *name, char *err, size_t errlen)
{
    const mcei_net_ops_t *net;
    const mcei_proto_ops_t *proto;
    const mcei_api_info_t *api;
    mcei_kv_t *kv;
    memset(l, 0, sizeof(*l));
    if (mcei_machine_load(&l->m, name, search_path, NULL, err, errlen) !=
        MCE_OK)
        return MCE_ERR_MACHINE;
    kv = mcei_kv_find(&l->m.kv, "network");
    l->net = kv ? kv->value : "(none)";
    kv = mcei_kv_find(&l->m.kv, "protocol");
    l->proto = kv ? kv->value : "native";
    if ((net = mcei_net_lookup(l->net)) == NULL ||
        (proto = mcei_proto_lookup(l->proto)) == NULL) {
        snprintf(err, errlen, "machine '%s' (%s): unknown %s '%s'", l->m.name,
                 l->m.path, net ? "protocol" : "network model",
                 net ? l->proto : l->net);
        return MCE_ERR_MACHINE;
    }
    if (mcei_proto_pairing(proto, l->net, l->m.name, err, errlen) != MCE_OK)
        return MCE_ERR_MACHINE;
    l->tabs[l->ntabs++] = &mcei_keys_core;
    l->tabs[l->ntabs++] = net->keys;
    l->tabs[l->ntabs++] = proto->keys;
    for (size_t i = 0; (api = mcei_api_at(i)) != NULL; i++)
        if (api->keys->n > 0 && l->ntabs < MCEI_MACHINE_MAX_TABS &&
            (strcmp(api->default_machine, l->m.name) == 0 ||
             sets_key_of(&l->m, api->keys)))
            l->tabs[l->ntabs++] = api->keys;
    return mcei_machine_bind(&l->m, l->tabs, l->ntabs, err, errlen);
}

static void format_value(const mcei_key_t *k, uint64_t v, char *buf, size_t len)
{
    if (k->kind == MCEI_KEY_TIME)
        mcei_key_format_time(v, buf, len);
    else if (k->kind == MCEI_KEY_MICRO && v % 1000000 == 0)
        snprintf(buf, len, "%" PRIu64, v / 1000000);
    else if (k->kind == MCEI_KEY_MICRO)
        snprintf(buf, len, "%" PRIu64 ".%06" PRIu64, v / 1000000, v % 1000000);
    else
        snprintf(buf, len, "%" PRIu64, v);
}

static void format_range(const mcei_key_t *k, char *buf, size_t len)
{
    char lo[48], hi[48];
    if (k->kind == MCEI_KEY_STRING) {
        snprintf(buf, len, "-");
        return;
    }
    format_value(k, k->min, lo, sizeof(lo));
    if (k->max == UINT64_MAX)
        snprintf(hi, sizeof(hi), "any");
    else
        format_value(k, k->max, hi, sizeof(hi));
    snprintf(buf, len, "%s..%s", lo, hi);
}

/* The key's label: the table's, or for a per-machine key the file's. */
static const char *label_of(const mcei_key_t *k, const mcei_kv_t *kv)
{
    if (k->label != MCEI_LABEL_MACHINE)
        return mcei_label_name(k->label);
    if (kv != NULL && kv->label != NULL)
        return kv->label;
    return kv != NULL ? "unlabelled" : "-";
}

static void print_key(const mcei_key_t *k, const mcei_kv_t *kv)
{
    char range[128], source[128];
    const char *unit = k->kind == MCEI_KEY_TIME ? "time" : k->unit;
    const char *src = k->source;
    /* A per-machine key's source is its file's comment. */
    if (k->label == MCEI_LABEL_MACHINE && kv != NULL && kv->note != NULL &&
        kv->label != NULL)
        src = kv->note;
    snprintf(source, sizeof(source), "%s", src);
    if (strlen(src) >= sizeof(source))
        memcpy(source + sizeof(source) - 5, " ...", 5);
    format_range(k, range, sizeof(range));
    if (tsv) {
        printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k->name,
               kv ? kv->value : "(default)", *unit ? unit : "-", range,
               k->def ? (*k->def ? k->def : "\"\"") : "required",
               label_of(k, kv), src);
        return;
    }
    printf("  %-24s %-14s %-12s %-18s %-12s %-10s %s\n", k->name,
           kv ? kv->value : "(default)", *unit ? unit : "-", range,
           k->def ? (*k->def ? k->def : "\"\"") : "required", label_of(k, kv),
           source);
}

static int show_machine(const char *name)
{
    loaded_t l;
    char err[2048];
    mcei_kv_t *kv;
    int header = 0;
    if (load(&l, name, err, sizeof(err)) != MCE_OK) {
        fprintf(stderr, "mce-info: %s\n", err);
        mcei_machine_free(&l.m);
        return 1;
    }
    kv = mcei_kv_find(&l.m.kv, "description");
    if (!tsv)
        printf("machine %s (%s)\n  %s\n  network model %s, protocol "
               "%s\n\n  %-24s %-14s %-12s %-18s %-12s %-10s %s\n",
               l.m.name, l.m.path, kv ? kv->value : "", l.net, l.proto, "KEY",
               "VALUE", "UNIT", "RANGE", "DEFAULT", "LABEL", "SOURCE");
    for (size_t t = 0; t < l.ntabs; t++) {
        if (l.tabs[t]->n == 0)
            continue;
        if (!tsv)
            printf("# %s\n", l.tabs[t]->owner);
        for (size_t i = 0; i < l.tabs[t]->n; i++)
            print_key(&l.tabs[t]->keys[i],
                      mcei_kv_find(&l.m.kv, l.tabs[t]->keys[i].name));
    }
    for (size_t i = 0; i < l.m.kv.count; i++) {
        kv = &l.m.kv.items[i];
        if (strncmp(kv->key, "app.", 4) != 0)
            continue;
        if (!header++ && !tsv)
            printf("# programs' own parameters (mce_machine_param)\n");
        if (tsv) {
            printf("%s\t%s\t-\t-\t-\t%s\t%s\n", kv->key, kv->value,
                   kv->label ? kv->label : "unlabelled",
                   kv->note ? kv->note : "");
            continue;
        }
        printf("  %-24s %-14s %-12s %-18s %-12s %-10s %.100s\n", kv->key,
               kv->value, "-", "-", "-", kv->label ? kv->label : "unlabelled",
               kv->note ? kv->note : "");
    }
    mcei_machine_free(&l.m);
    return 0;
}

/* ---- --check ------------------------------------------------------------- */

/* Every key the file sets is in a table (load binds and checks that);
 * a table's fixed label is the one the file gives. */
static int check_machine(const char *name)
{
    loaded_t l;
    char err[2048];
    int bad = 0;
    if (load(&l, name, err, sizeof(err)) != MCE_OK) {
        printf("FAIL %s: %s\n", name, err);
        mcei_machine_free(&l.m);
        return 1;
    }
    for (size_t i = 0; i < l.m.kv.count; i++) {
        mcei_kv_t *kv = &l.m.kv.items[i];
        const mcei_key_t *k;
        const char *want;
        if (strncmp(kv->key, "app.", 4) == 0)
            continue;
        k = mcei_key_find(&l.m, kv->key);
        if (k == NULL) { /* bind refuses these; kept for clarity */
            printf("FAIL %s: key '%s' is in no table\n", kv->origin, kv->key);
            bad = 1;
            continue;
        }
        if (k->label == MCEI_LABEL_MACHINE || k->label == MCEI_LABEL_SETTING)
            continue;
        want = mcei_label_name(k->label);
        if (kv->label == NULL) {
            printf("FAIL %s: key '%s': the table says %s, the file gives "
                   "no label\n",
                   kv->origin, kv->key, want);
            bad = 1;
        } else if (strcmp(kv->label, want) != 0) {
            printf("FAIL %s: key '%s': the table says %s, the file says "
                   "%s\n",
                   kv->origin, kv->key, want, kv->label);
            bad = 1;
        }
    }
    if (!bad)
        printf("ok %s (%s): every key in a table, labels agree\n", l.m.name,
               l.m.path);
    mcei_machine_free(&l.m);
    return bad;
}

/* ---- listings ------------------------------------------------------------ */

static int list_all(void)
{
    char *names[MAX_MACHINES];
    size_t n = find_machines(names, MAX_MACHINES);
    const mcei_net_ops_t *net;
    const mcei_proto_ops_t *proto;
    const mcei_api_info_t *api;
    printf("machines (mce-info --machine=NAME lists a machine's keys):\n");
    for (size_t i = 0; i < n; i++) {
        loaded_t l;
        char err[2048];
        if (load(&l, names[i], err, sizeof(err)) == MCE_OK) {
            mcei_kv_t *kv = mcei_kv_find(&l.m.kv, "description");
            printf("  %-10s network %-8s protocol %-7s %s\n", names[i], l.net,
                   l.proto, kv ? kv->value : "");
        } else {
            printf("  %-10s (cannot load: %s)\n", names[i], err);
        }
        mcei_machine_free(&l.m);
        free(names[i]);
    }
    printf("\nnetwork models:\n");
    for (size_t i = 0; (net = mcei_net_at(i)) != NULL; i++)
        printf("  %-10s %2zu keys  %s\n", net->name, net->keys->n,
               net->description);
    printf("\nprotocols:\n");
    for (size_t i = 0; (proto = mcei_proto_at(i)) != NULL; i++)
        printf("  %-10s %2zu keys  %s\n", proto->name, proto->keys->n,
               proto->description);
    printf("\npersonalities:\n");
    for (size_t i = 0; (api = mcei_api_at(i)) != NULL; i++)
        printf("  %-10s %2zu keys  header %-9s default machine %s\n", api->name,
               api->keys->n, api->header, api->default_machine);
    return 0;
}

static void print_table(const mcei_keytab_t *t)
{
    if (t->n == 0)
        return;
    if (!tsv)
        printf("# %s\n", t->owner);
    for (size_t i = 0; i < t->n; i++)
        print_key(&t->keys[i], NULL);
}

static int list_keys(void)
{
    const mcei_net_ops_t *net;
    const mcei_proto_ops_t *proto;
    const mcei_api_info_t *api;
    printf("  %-24s %-14s %-12s %-18s %-12s %-10s %s\n", "KEY", "VALUE", "UNIT",
           "RANGE", "DEFAULT", "LABEL", "SOURCE");
    print_table(&mcei_keys_core);
    for (size_t i = 0; (net = mcei_net_at(i)) != NULL; i++)
        print_table(net->keys);
    for (size_t i = 0; (proto = mcei_proto_at(i)) != NULL; i++)
        print_table(proto->keys);
    for (size_t i = 0; (api = mcei_api_at(i)) != NULL; i++)
        print_table(api->keys);
    return 0;
}

static int check(const char *one)
{
    char *names[MAX_MACHINES];
    size_t n;
    int bad = 0;
    if (one != NULL)
        return check_machine(one);
    n = find_machines(names, MAX_MACHINES);
    if (n == 0) {
        printf("FAIL no machine files found\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        bad |= check_machine(names[i]);
        free(names[i]);
    }
    return bad;
}

int main(int argc, char **argv)
{
    const char *machine = NULL, *check_one = NULL;
    int keys = 0, do_check = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--machine=", 10) == 0)
            machine = a + 10;
        else if (strncmp(a, "--machine-path=", 15) == 0)
            search_path = a + 15;
        else if (strcmp(a, "--tsv") == 0)
            tsv = 1;
        else if (strcmp(a, "--keys") == 0)
            keys = 1;
        else if (strcmp(a, "--check") == 0)
            do_check = 1;
        else if (strncmp(a, "--check=", 8) == 0) {
            do_check = 1;
            check_one = a + 8;
        } else if (strcmp(a, "--version") == 0) {
            printf("mce-info (mcemu) %s\n", MCE_VERSION_STRING);
            return 0;
        } else if (strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "mce-info: unknown argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (mcei_net_register_all() != MCE_OK ||
        mcei_proto_register_all() != MCE_OK ||
        mcei_api_register_all() != MCE_OK) {
        fprintf(stderr, "mce-info: cannot register the plug-ins\n");
        return 2;
    }
    if (do_check)
        return check(check_one);
    if (machine != NULL)
        return show_machine(machine);
    if (keys)
        return list_keys();
    return list_all();
}
