/* --mce-trace=FILE.otf2: the merged Chrome JSON events (one a line, in the
 * formats trace.c writes) converted into an OTF2 archive: a location per
 * node's calls, per node's protocol track, per network resource and per
 * resource of a node (location groups "calls", "protocol", "network",
 * "node resources"); a region per slice name; Enter/Leave per slice (nested as
 * the slices nest); the flows as MPI-like point-to-point records (MpiSend at
 * the send, MpiRecv at the receiving call's end) on one communicator of the
 * nodes.  Timestamps are virtual picoseconds (1e12 ticks a second). */
#include "config.h"

#include "trace.h"

#ifdef HAVE_OTF2
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct slice {
    uint64_t t0, t1;
    uint32_t region;
    uint32_t order; /* file order: ties keep it */
} slice_t;

typedef struct point { /* a message record */
    uint64_t t;
    int send; /* 1: MpiSend, 0: MpiRecv */
    uint32_t peer;
    uint64_t id; /* flow id, for the matching */
} point_t;

typedef struct loc {
    int pid, tid;
    char *name;
    slice_t *s;
    size_t ns, caps;
    point_t *p;
    size_t np, capp;
    /* open B events */
    slice_t *open;
    size_t nopen, capopen;
} loc_t;

/* The processes of trace.c: calls, protocol, network, node resources. */
#define NPROC 4

typedef struct conv {
    loc_t *locs;
    size_t nlocs, caplocs;
    char **names;
    size_t nnames, capnames;
    uint64_t tmax;
    int bad; /* out of memory */
    /* (pid, tid) -> location index + 1, per pid: no search per event */
    size_t *map[NPROC];
    size_t mapcap[NPROC];
} conv_t;

static void *grow(void *p, size_t *cap, size_t n, size_t size, int *bad)
{
    if (n < *cap)
        return p;
    size_t c = *cap ? 2 * *cap : 16;
    void *q = realloc(p, c * size);
    if (q == NULL) {
        *bad = 1;
        return p;
    }
    *cap = c;
    return q;
}

static loc_t *loc_of(conv_t *c, int pid, int tid)
{
    size_t *slot = NULL;
    if (pid >= 0 && pid < NPROC && tid >= 0) {
        if ((size_t)tid >= c->mapcap[pid]) {
            size_t n = c->mapcap[pid] ? c->mapcap[pid] : 64;
            while (n <= (size_t)tid)
                n *= 2;
            size_t *m = realloc(c->map[pid], n * sizeof(*m));
            if (m == NULL) {
                c->bad = 1;
                return NULL;
            }
            memset(m + c->mapcap[pid], 0, (n - c->mapcap[pid]) * sizeof(*m));
            c->map[pid] = m;
            c->mapcap[pid] = n;
        }
        slot = &c->map[pid][tid];
        if (*slot != 0)
            return &c->locs[*slot - 1];
    } else {
        for (size_t i = 0; i < c->nlocs; i++)
            if (c->locs[i].pid == pid && c->locs[i].tid == tid)
                return &c->locs[i];
    }
    c->locs = grow(c->locs, &c->caplocs, c->nlocs, sizeof(loc_t), &c->bad);
    if (c->bad)
        return NULL;
    loc_t *l = &c->locs[c->nlocs++];
    memset(l, 0, sizeof(*l));
    l->pid = pid;
    l->tid = tid;
    if (slot != NULL)
        *slot = c->nlocs;
    return l;
}

static uint32_t name_id(conv_t *c, const char *s, size_t n)
{
    for (size_t i = 0; i < c->nnames; i++)
        if (strlen(c->names[i]) == n && memcmp(c->names[i], s, n) == 0)
            return (uint32_t)i;
    c->names = grow(c->names, &c->capnames, c->nnames, sizeof(char *), &c->bad);
    if (c->bad || (c->names[c->nnames] = strndup(s, n)) == NULL) {
        c->bad = 1;
        return 0;
    }
    return (uint32_t)c->nnames++;
}

/* The string value of "key":"..." in @p line (escapes kept as written). */
static const char *str_of(const char *line, const char *key, size_t *len)
{
    const char *p = strstr(line, key), *e;
    if (p == NULL)
        return NULL;
    p += strlen(key);
    for (e = p; *e && !(*e == '"' && e[-1] != '\\'); e++)
        ;
    *len = (size_t)(e - p);
    return p;
}

static int int_of(const char *line, const char *key, long *out)
{
    const char *p = strstr(line, key);
    if (p == NULL)
        return 0;
    *out = strtol(p + strlen(key), NULL, 10);
    return 1;
}

/* "123.456789" microseconds into picoseconds, exactly. */
static int ps_of(const char *line, const char *key, uint64_t *out)
{
    const char *p = strstr(line, key);
    char *e;
    if (p == NULL)
        return 0;
    p += strlen(key);
    uint64_t us = strtoull(p, &e, 10), frac = 0;
    int digits = 0;
    if (*e == '.')
        for (e++; *e >= '0' && *e <= '9' && digits < 6; e++, digits++)
            frac = frac * 10 + (uint64_t)(*e - '0');
    while (digits++ < 6)
        frac *= 10;
    *out = us * 1000000u + frac;
    return 1;
}

static uint64_t flow_id(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a of "src.seq" */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static void add_point(conv_t *c, loc_t *l, uint64_t t, int send, uint64_t id)
{
    l->p = grow(l->p, &l->capp, l->np, sizeof(point_t), &c->bad);
    if (!c->bad)
        l->p[l->np++] = (point_t){.t = t, .send = send, .id = id};
}

static void add_slice(conv_t *c, loc_t *l, uint64_t t0, uint64_t t1,
                      uint32_t region)
{
    l->s = grow(l->s, &l->caps, l->ns, sizeof(slice_t), &c->bad);
    if (!c->bad)
        l->s[l->ns] = (slice_t){t0, t1, region, (uint32_t)l->ns}, l->ns++;
    if (t1 > c->tmax)
        c->tmax = t1;
}

static void read_line(conv_t *c, const char *line)
{
    size_t n;
    const char *ph = str_of(line, "\"ph\":\"", &n), *name;
    long pid = 0, tid = 0;
    uint64_t t0, d;
    loc_t *l;
    if (ph == NULL || n != 1)
        return;
    int_of(line, "\"pid\":", &pid);
    if (!int_of(line, "\"tid\":", &tid))
        return; /* process metadata */
    if ((l = loc_of(c, (int)pid, (int)tid)) == NULL)
        return;
    name = str_of(line, "\"name\":\"", &n);
    if (*ph == 'M') {
        size_t m;
        const char *a = strstr(line, "\"args\":{\"name\":\"");
        if (name != NULL && n == 11 && memcmp(name, "thread_name", 11) == 0 &&
            a != NULL && (a = str_of(a, "\"name\":\"", &m)) != NULL)
            l->name = strndup(a, m);
        return;
    }
    if (!ps_of(line, "\"ts\":", &t0))
        return;
    switch (*ph) {
    case 'X':
        if (name != NULL && ps_of(line, "\"dur\":", &d))
            add_slice(c, l, t0, t0 + d, name_id(c, name, n));
        break;
    case 'B':
        l->open =
            grow(l->open, &l->capopen, l->nopen, sizeof(slice_t), &c->bad);
        if (!c->bad && name != NULL)
            l->open[l->nopen++] = (slice_t){t0, 0, name_id(c, name, n), 0};
        break;
    case 'E':
        if (l->nopen > 0) {
            slice_t *b = &l->open[--l->nopen];
            add_slice(c, l, b->t0, t0, b->region);
        }
        break;
    case 's':
    case 'f': {
        const char *id = str_of(line, "\"id\":\"", &n);
        if (id != NULL)
            add_point(c, l, t0, *ph == 's', flow_id(id, n));
        break;
    }
    default:
        break; /* instants have no OTF2 counterpart here */
    }
}

static int slice_less(const void *a, const void *b)
{
    const slice_t *x = a, *y = b;
    if (x->t0 != y->t0)
        return x->t0 < y->t0 ? -1 : 1;
    if (x->t1 != y->t1)
        return x->t1 > y->t1 ? -1 : 1; /* the enclosing one first */
    return x->order < y->order ? -1 : x->order > y->order;
}

static int point_less(const void *a, const void *b)
{
    const point_t *x = a, *y = b;
    return (x->t > y->t) - (x->t < y->t);
}

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l,
                                void *cd, bool final)
{
    (void)u, (void)ft, (void)l, (void)cd, (void) final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l)
{
    (void)u, (void)ft, (void)l;
    return 0;
}

static const OTF2_FlushCallbacks flush_cb = {.otf2_pre_flush = pre_flush,
                                             .otf2_post_flush = post_flush};

/* Messages with time <= t (or < t) before the next Enter/Leave. */
/* OTF2 wants each location's timestamps non-decreasing: slices that
 * overlap without nesting (a user span ending inside a call) leave at
 * the later of their end and the last time written. */
static uint64_t last_t;

static uint64_t mono(uint64_t t)
{
    if (t < last_t)
        return last_t;
    return last_t = t;
}

static uint64_t emit_points(OTF2_EvtWriter *w, loc_t *l, size_t *pi, uint64_t t,
                            int inclusive)
{
    uint64_t n = 0;
    while (*pi < l->np && (inclusive ? l->p[*pi].t <= t : l->p[*pi].t < t)) {
        point_t *p = &l->p[*pi];
        if (p->peer != UINT32_MAX) {
            if (p->send)
                OTF2_EvtWriter_MpiSend(w, NULL, mono(p->t), p->peer, 0, 0, 0);
            else
                OTF2_EvtWriter_MpiRecv(w, NULL, mono(p->t), p->peer, 0, 0, 0);
            n++;
        }
        (*pi)++;
    }
    return n;
}

static uint64_t write_loc(OTF2_EvtWriter *w, loc_t *l)
{
    slice_t **stack = malloc((l->ns + 1) * sizeof(*stack));
    size_t top = 0, pi = 0;
    uint64_t n = 0;
    if (stack == NULL)
        return 0;
    last_t = 0;
    if (l->ns > 0) /* (qsort wants a non-null array even when empty) */
        qsort(l->s, l->ns, sizeof(slice_t), slice_less);
    if (l->np > 0)
        qsort(l->p, l->np, sizeof(point_t), point_less);
    for (size_t i = 0; i < l->ns; i++) {
        slice_t *s = &l->s[i];
        /* close what ended before this one starts (nesting otherwise) */
        while (top > 0 && stack[top - 1]->t1 <= s->t0 &&
               !(stack[top - 1]->t0 == s->t0 && s->t1 <= stack[top - 1]->t1 &&
                 stack[top - 1]->t1 > s->t0)) {
            n += emit_points(w, l, &pi, stack[top - 1]->t1, 1);
            OTF2_EvtWriter_Leave(w, NULL, mono(stack[top - 1]->t1),
                                 stack[top - 1]->region);
            top--, n++;
        }
        n += emit_points(w, l, &pi, s->t0, 0);
        OTF2_EvtWriter_Enter(w, NULL, mono(s->t0), s->region);
        n++;
        stack[top++] = s;
    }
    while (top > 0) {
        n += emit_points(w, l, &pi, stack[top - 1]->t1, 1);
        OTF2_EvtWriter_Leave(w, NULL, mono(stack[top - 1]->t1),
                             stack[top - 1]->region);
        top--, n++;
    }
    n += emit_points(w, l, &pi, UINT64_MAX, 1);
    free(stack);
    return n;
}

typedef struct recv_ref {
    uint64_t id;
    point_t *p;
    uint32_t node;
} recv_ref_t;

static int ref_less(const void *a, const void *b)
{
    const recv_ref_t *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

/* Every flow's two ends: the peer rank (node) of each.  A flow id
 * (source.sequence) names one message: one send, at most one receive;
 * matched through the receives sorted by id (n log n). */
static int match_flows(conv_t *c)
{
    size_t n = 0, k = 0;
    recv_ref_t *refs;
    for (size_t i = 0; i < c->nlocs; i++)
        for (size_t q = 0; q < c->locs[i].np; q++) {
            c->locs[i].p[q].peer = UINT32_MAX;
            n += !c->locs[i].p[q].send;
        }
    if ((refs = malloc((n + 1) * sizeof(*refs))) == NULL)
        return MCE_ERR_NOMEM;
    for (size_t i = 0; i < c->nlocs; i++)
        for (size_t q = 0; q < c->locs[i].np; q++)
            if (!c->locs[i].p[q].send)
                refs[k++] = (recv_ref_t){c->locs[i].p[q].id, &c->locs[i].p[q],
                                         (uint32_t)c->locs[i].tid};
    if (n > 0)
        qsort(refs, n, sizeof(*refs), ref_less);
    for (size_t i = 0; i < c->nlocs; i++)
        for (size_t q = 0; q < c->locs[i].np; q++) {
            point_t *p = &c->locs[i].p[q];
            recv_ref_t key = {.id = p->id}, *r;
            if (!p->send || n == 0 ||
                (r = bsearch(&key, refs, n, sizeof(*refs), ref_less)) == NULL)
                continue;
            p->peer = r->node;
            r->p->peer = (uint32_t)c->locs[i].tid;
        }
    free(refs);
    return MCE_OK;
}

static int loc_less(const void *a, const void *b)
{
    const loc_t *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return (x->tid > y->tid) - (x->tid < y->tid);
}

typedef struct name_ref {
    const char *name;
    uint32_t old;
} name_ref_t;

static int name_less(const void *a, const void *b)
{
    return strcmp(((const name_ref_t *)a)->name, ((const name_ref_t *)b)->name);
}

/* The same archive from every layout: the merged events come in rank
 * order, so number the locations by (process, track) and the regions by
 * name rather than by first appearance. */
static int canonical(conv_t *c)
{
    name_ref_t *refs = malloc((c->nnames + 1) * sizeof(*refs));
    uint32_t *to = malloc((c->nnames + 1) * sizeof(*to));
    char **names = malloc((c->nnames + 1) * sizeof(*names));
    if (refs == NULL || to == NULL || names == NULL) {
        free(refs);
        free(to);
        free(names);
        return MCE_ERR_NOMEM;
    }
    if (c->nlocs > 0)
        qsort(c->locs, c->nlocs, sizeof(loc_t), loc_less);
    for (size_t i = 0; i < c->nnames; i++)
        refs[i] = (name_ref_t){c->names[i], (uint32_t)i};
    if (c->nnames > 0)
        qsort(refs, c->nnames, sizeof(*refs), name_less);
    for (size_t i = 0; i < c->nnames; i++) {
        to[refs[i].old] = (uint32_t)i;
        names[i] = c->names[refs[i].old];
    }
    memcpy(c->names, names, c->nnames * sizeof(*names));
    for (size_t i = 0; i < c->nlocs; i++)
        for (size_t k = 0; k < c->locs[i].ns; k++)
            c->locs[i].s[k].region = to[c->locs[i].s[k].region];
    free(refs);
    free(to);
    free(names);
    return MCE_OK;
}

/* ---- a previous archive at the same path ------------------------------ */

/* The pieces of archive FILE.otf2: the anchor FILE.otf2, the global
 * definitions FILE.def and the directory FILE/ of the locations' files. */
typedef struct pieces {
    char *anchor, *def, *dir;
} pieces_t;

static int pieces_of(const char *path, pieces_t *p)
{
    size_t n = strlen(path);
    p->anchor = strdup(path);
    p->def = malloc(n + 1);
    p->dir = malloc(n + 1);
    if (p->anchor == NULL || p->def == NULL || p->dir == NULL)
        return MCE_ERR_NOMEM;
    /* FILE.otf2 (trace.c only takes names that end so) */
    memcpy(p->dir, path, n - 5);
    p->dir[n - 5] = '\0';
    snprintf(p->def, n + 1, "%s.def", p->dir);
    return MCE_OK;
}

static void pieces_free(pieces_t *p)
{
    free(p->anchor);
    free(p->def);
    free(p->dir);
}

/* 1 if @p file is a regular file that starts as OTF2's files do (the
 * endianness record, 0x03 then 'B' or 'L'; the anchor then "OTF2"). */
static int is_otf2_file(const char *file, int anchor)
{
    unsigned char b[7];
    struct stat sb;
    FILE *f;
    size_t n;
    if (lstat(file, &sb) != 0 || !S_ISREG(sb.st_mode) ||
        (f = fopen(file, "rb")) == NULL)
        return 0;
    n = fread(b, 1, sizeof(b), f);
    fclose(f);
    return n >= 2 && b[0] == 0x03 && (b[1] == 'B' || b[1] == 'L') &&
           (!anchor || (n == 7 && memcmp(b + 2, "OTF2", 5) == 0));
}

/* 1 if @p name is a location's file: digits, then .evt, .def or .snap. */
static int is_location_file(const char *name)
{
    const char *p = name;
    while (*p >= '0' && *p <= '9')
        p++;
    return p > name && (strcmp(p, ".evt") == 0 || strcmp(p, ".def") == 0 ||
                        strcmp(p, ".snap") == 0);
}

/* Check (and with @p rm, remove) the archive that FILE.otf2 names.  Only
 * pieces that are an OTF2 archive's are removed: an anchor and a FILE.def
 * in OTF2's format, and a directory FILE/ that holds only locations'
 * OTF2 files; anything else there is refused (MCE_ERR_IO, @p err says
 * what), and nothing is removed. */
int mcei_trace_otf2_clear(const char *path, int rm, char *err, size_t errlen)
{
    pieces_t p = {0};
    struct stat sb;
    DIR *d = NULL;
    struct dirent *de;
    int rc = pieces_of(path, &p);
    if (rc != MCE_OK) {
        snprintf(err, errlen, "option --mce-trace: out of memory");
        goto out;
    }
    rc = MCE_ERR_IO;
    if (lstat(p.anchor, &sb) == 0 && !is_otf2_file(p.anchor, 1)) {
        snprintf(err, errlen,
                 "option --mce-trace: '%s' exists and is not an OTF2 "
                 "archive's anchor: not overwritten (remove it or choose "
                 "another name)",
                 p.anchor);
        goto out;
    }
    if (lstat(p.def, &sb) == 0 && !is_otf2_file(p.def, 0)) {
        snprintf(err, errlen,
                 "option --mce-trace: '%s' exists and is not an OTF2 "
                 "archive's definitions: not overwritten (remove it or "
                 "choose another name)",
                 p.def);
        goto out;
    }
    if (lstat(p.dir, &sb) == 0) {
        if (!S_ISDIR(sb.st_mode) || (d = opendir(p.dir)) == NULL) {
            snprintf(err, errlen,
                     "option --mce-trace: '%s' exists and is not an OTF2 "
                     "archive's directory: not overwritten (remove it or "
                     "choose another name)",
                     p.dir);
            goto out;
        }
        /* first pass: everything in it is a location's OTF2 file */
        while ((de = readdir(d)) != NULL) {
            char *f;
            int ok;
            if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                continue;
            if ((f = malloc(strlen(p.dir) + strlen(de->d_name) + 2)) == NULL)
                goto nomem;
            sprintf(f, "%s/%s", p.dir, de->d_name);
            ok = is_location_file(de->d_name) && is_otf2_file(f, 0);
            free(f);
            if (!ok) {
                snprintf(err, errlen,
                         "option --mce-trace: '%s/' holds '%s', which is not "
                         "part of an OTF2 archive: not overwritten (remove "
                         "it or choose another name)",
                         p.dir, de->d_name);
                goto out;
            }
        }
        if (rm) {
            rewinddir(d);
            while ((de = readdir(d)) != NULL) {
                char *f;
                if (strcmp(de->d_name, ".") == 0 ||
                    strcmp(de->d_name, "..") == 0)
                    continue;
                if ((f = malloc(strlen(p.dir) + strlen(de->d_name) + 2)) ==
                    NULL)
                    goto nomem;
                sprintf(f, "%s/%s", p.dir, de->d_name);
                if (unlink(f) != 0) {
                    snprintf(err, errlen,
                             "cannot remove '%s' of the previous OTF2 "
                             "archive: %s",
                             f, strerror(errno));
                    free(f);
                    goto out;
                }
                free(f);
            }
            if (rmdir(p.dir) != 0) {
                snprintf(err, errlen,
                         "cannot remove the previous OTF2 archive's "
                         "directory '%s': %s",
                         p.dir, strerror(errno));
                goto out;
            }
        }
    }
    if (rm) {
        /* the anchor last: what is left of a failed removal is still
         * recognisably an archive */
        if ((remove(p.def) != 0 && errno != ENOENT) ||
            (remove(p.anchor) != 0 && errno != ENOENT)) {
            snprintf(err, errlen,
                     "cannot remove the previous OTF2 archive '%s': %s",
                     p.anchor, strerror(errno));
            goto out;
        }
    }
    rc = MCE_OK;
    goto out;
nomem:
    snprintf(err, errlen, "option --mce-trace: out of memory");
    rc = MCE_ERR_NOMEM;
out:
    if (d != NULL)
        closedir(d);
    pieces_free(&p);
    return rc;
}

int mcei_trace_otf2_write(FILE *json, const char *path, int nodes, char *err,
                          size_t errlen)
{
    conv_t c = {0};
    char *line = NULL, *dir = NULL, *base = NULL, *slash, *dot;
    size_t cap = 0;
    OTF2_Archive *ar = NULL;
    int rc = MCE_ERR_IO;
    rewind(json);
    while (getline(&line, &cap, json) > 0 && !c.bad)
        read_line(&c, line);
    free(line);
    if (c.bad)
        goto out;
    if (canonical(&c) != MCE_OK || match_flows(&c) != MCE_OK)
        goto out;
    /* A previous archive at this path (checked at the start): OTF2 will
     * not write over it. */
    if (mcei_trace_otf2_clear(path, 1, err, errlen) != MCE_OK) {
        err = NULL; /* said */
        goto out;
    }
    /* FILE.otf2 is the archive's anchor: FILE/ holds the events. */
    if ((dir = strdup(path)) == NULL)
        goto out;
    slash = strrchr(dir, '/');
    base = slash ? slash + 1 : dir;
    if ((dot = strrchr(base, '.')) != NULL)
        *dot = '\0';
    ar = OTF2_Archive_Open(slash ? (*slash = '\0', dir[0] ? dir : "/") : ".",
                           base, OTF2_FILEMODE_WRITE, 1024 * 1024,
                           4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX,
                           OTF2_COMPRESSION_NONE);
    if (ar == NULL)
        goto out;
    OTF2_Archive_SetCreator(ar, "mcemu " PACKAGE_VERSION);
    if (OTF2_Archive_SetFlushCallbacks(ar, &flush_cb, NULL) != OTF2_SUCCESS ||
        OTF2_Archive_SetSerialCollectiveCallbacks(ar) != OTF2_SUCCESS ||
        OTF2_Archive_OpenEvtFiles(ar) != OTF2_SUCCESS)
        goto out;
    uint64_t *nev = calloc(c.nlocs + 1, sizeof(*nev));
    if (nev == NULL)
        goto out;
    for (size_t i = 0; i < c.nlocs; i++) {
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, i);
        if (w == NULL) {
            free(nev);
            goto out;
        }
        nev[i] = write_loc(w, &c.locs[i]);
        OTF2_Archive_CloseEvtWriter(ar, w);
    }
    OTF2_Archive_CloseEvtFiles(ar);
    /* Readers expect a (here empty) local definition file per location. */
    if (OTF2_Archive_OpenDefFiles(ar) == OTF2_SUCCESS) {
        for (size_t i = 0; i < c.nlocs; i++) {
            OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(ar, i);
            if (dw != NULL)
                OTF2_Archive_CloseDefWriter(ar, dw);
        }
        OTF2_Archive_CloseDefFiles(ar);
    }
    {
        OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
        /* strings: the region names, then "", "mcemu", the processes,
         * the location names, the communicator */
        uint32_t s = (uint32_t)c.nnames, empty = s++, machine = s++;
        uint32_t proc[NPROC] = {s, s + 1, s + 2, s + 3}, comm_name, loc0;
        static const char *const pname[NPROC] = {"calls", "protocol", "network",
                                                 "node resources"};
        uint64_t *members = calloc((size_t)nodes + 1, sizeof(*members));
        s += NPROC;
        comm_name = s++;
        loc0 = s;
        OTF2_GlobalDefWriter_WriteClockProperties(
            g, 1000000000000ULL, 0, c.tmax + 1, OTF2_UNDEFINED_TIMESTAMP);
        for (size_t i = 0; i < c.nnames; i++)
            OTF2_GlobalDefWriter_WriteString(g, (uint32_t)i, c.names[i]);
        OTF2_GlobalDefWriter_WriteString(g, empty, "");
        OTF2_GlobalDefWriter_WriteString(g, machine, "mcemu");
        for (int k = 0; k < NPROC; k++)
            OTF2_GlobalDefWriter_WriteString(g, proc[k], pname[k]);
        OTF2_GlobalDefWriter_WriteString(g, comm_name, "nodes");
        for (size_t i = 0; i < c.nlocs; i++) {
            char nm[64];
            if (c.locs[i].name == NULL)
                snprintf(nm, sizeof(nm), "track %d.%d", c.locs[i].pid,
                         c.locs[i].tid);
            OTF2_GlobalDefWriter_WriteString(
                g, loc0 + (uint32_t)i, c.locs[i].name ? c.locs[i].name : nm);
        }
        for (size_t i = 0; i < c.nnames; i++)
            OTF2_GlobalDefWriter_WriteRegion(
                g, (uint32_t)i, (uint32_t)i, (uint32_t)i, empty,
                OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER,
                OTF2_REGION_FLAG_NONE, empty, 0, 0);
        OTF2_GlobalDefWriter_WriteSystemTreeNode(
            g, 0, machine, machine, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
        for (int k = 0; k < NPROC; k++)
            OTF2_GlobalDefWriter_WriteLocationGroup(
                g, (uint32_t)k, proc[k], OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                OTF2_UNDEFINED_LOCATION_GROUP);
        for (size_t i = 0; i < c.nlocs; i++) {
            int pid = c.locs[i].pid;
            OTF2_GlobalDefWriter_WriteLocation(
                g, i, loc0 + (uint32_t)i, OTF2_LOCATION_TYPE_CPU_THREAD, nev[i],
                (uint32_t)(pid >= 0 && pid < NPROC ? pid : 2));
            if (pid == 0 && members != NULL && c.locs[i].tid >= 0 &&
                c.locs[i].tid < nodes)
                members[c.locs[i].tid] = i;
        }
        if (members != NULL) {
            /* rank r of the communicator = node r (its calls' location) */
            uint64_t *ranks = calloc((size_t)nodes + 1, sizeof(*ranks));
            if (ranks != NULL) {
                for (int r = 0; r < nodes; r++)
                    ranks[r] = (uint64_t)r;
                OTF2_GlobalDefWriter_WriteGroup(
                    g, 0, comm_name, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)nodes,
                    members);
                OTF2_GlobalDefWriter_WriteGroup(
                    g, 1, comm_name, OTF2_GROUP_TYPE_COMM_GROUP,
                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)nodes,
                    ranks);
                OTF2_GlobalDefWriter_WriteComm(g, 0, comm_name, 1,
                                               OTF2_UNDEFINED_COMM,
                                               OTF2_COMM_FLAG_NONE);
                free(ranks);
            }
            free(members);
        }
        OTF2_Archive_CloseGlobalDefWriter(ar, g);
    }
    free(nev);
    rc = MCE_OK;
out:
    if (ar != NULL && OTF2_Archive_Close(ar) != OTF2_SUCCESS)
        rc = MCE_ERR_IO;
    for (size_t i = 0; i < c.nlocs; i++) {
        free(c.locs[i].name);
        free(c.locs[i].s);
        free(c.locs[i].p);
        free(c.locs[i].open);
    }
    free(c.locs);
    for (int k = 0; k < NPROC; k++)
        free(c.map[k]);
    for (size_t i = 0; i < c.nnames; i++)
        free(c.names[i]);
    free(c.names);
    free(dir);
    if (rc != MCE_OK && err != NULL)
        snprintf(err, errlen, "cannot write the OTF2 trace archive '%s'", path);
    return rc;
}
#else
int mcei_trace_otf2_clear(const char *path, int rm, char *err, size_t errlen)
{
    (void)path, (void)rm, (void)err, (void)errlen;
    return MCE_OK;
}

int mcei_trace_otf2_write(FILE *json, const char *path, int nodes, char *err,
                          size_t errlen)
{
    (void)json, (void)nodes;
    snprintf(err, errlen, "cannot write the OTF2 trace archive '%s'", path);
    return MCE_ERR_IO;
}
#endif
