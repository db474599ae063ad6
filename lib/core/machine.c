/* Loading machine description files. */
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef MCE_MACHINEDIR
#define MCE_MACHINEDIR "/usr/local/share/mcemu/machines"
#endif
#ifndef MCE_SRC_MACHINEDIR
#define MCE_SRC_MACHINEDIR ""
#endif

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
    const char *dirs[3] = {search_path, MCE_MACHINEDIR, MCE_SRC_MACHINEDIR};

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
                              kv.items[i].origin)) != MCE_OK) {
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
