/* Chrome trace-event JSON: one track (tid) per virtual node for the
 * program's calls (pid 0, with their arguments), one per node for its
 * machine protocol's events (pid 1), one per network resource (pid 2,
 * written by rank 0 only: every rank runs the same replicated model) and
 * one per resource of a node (pid 3, tid = node x MCEI_TRACE_RES_SLOTS +
 * slot, written by the node's rank: NCUBE channels, iWarp spools);
 * virtual timestamps in microseconds with picosecond decimals; message
 * flows from the sending call to the receiving one.  Each rank buffers its
 * events in a temporary file; rank 0 writes the final file in rank order,
 * after the run's provenance.  A run that ends in an error still leaves
 * the events buffered so far (a partial trace). */
#include "trace.h"

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats.h"
#include "transport.h"

static FILE *tf;
static unsigned events = MCEI_TRACE_ALL;     /* --mce-trace-events */
static int64_t node_lo, node_hi = INT64_MAX; /* --mce-trace-nodes */
static int net_writer; /* this rank writes the network's events */
static int otf2;       /* FILE.otf2: convert at the end */
/* Network tracks already named: a resource name and index each, and the
 * state open on it (mcei_trace_net_open).  Found through a hash table of
 * track numbers + 1 (a run may have thousands of PCTs and links). */
static struct net_track {
    const char *res;
    int index;
    int open;
    mce_time_t t0;
    char *name, *args;
    /* a state inside the open one (mcei_trace_net_inner_open) */
    int iopen;
    mce_time_t it0;
    char *iname, *iargs;
} * net_tracks;
static size_t n_net_tracks, cap_net_tracks;
static uint32_t *net_hash;
static size_t net_hash_cap; /* a power of two, or 0 */
static mce_time_t run_end;  /* mcei_trace_set_end */
static int trace_nodes;     /* the run's node count */
static uint8_t *res_named;  /* node resource tracks named, a bit each */

static const char *us(mce_time_t t, char *buf, size_t len)
{
    snprintf(buf, len, "%" PRIu64 ".%06" PRIu64, t / MCE_US, t % MCE_US);
    return buf;
}

static void put_json_str(const char *str)
{
    mcei_json_str(tf, str);
}

/* "calls,proto,net" (any subset, or "all") into a mask. */
static int parse_events(const char *spec, unsigned *out)
{
    unsigned m = 0;
    const char *p = spec;
    while (*p) {
        size_t n = strcspn(p, ",");
        if (n == 5 && strncmp(p, "calls", 5) == 0)
            m |= MCEI_TRACE_CALLS;
        else if (n == 5 && strncmp(p, "proto", 5) == 0)
            m |= MCEI_TRACE_PROTO;
        else if (n == 3 && strncmp(p, "net", 3) == 0)
            m |= MCEI_TRACE_NET;
        else if (n == 3 && strncmp(p, "all", 3) == 0)
            m |= MCEI_TRACE_ALL;
        else
            return MCE_ERR_CONFIG;
        p += n;
        if (*p == ',')
            p++;
    }
    if (m == 0)
        return MCE_ERR_CONFIG;
    *out = m;
    return MCE_OK;
}

/* "A-B" or "A" into an inclusive node range. */
static int parse_nodes(const char *spec, int64_t *lo, int64_t *hi)
{
    char *end;
    long long a, b;
    errno = 0;
    a = strtoll(spec, &end, 10);
    if (end == spec || a < 0 || errno)
        return MCE_ERR_CONFIG;
    b = a;
    if (*end == '-') {
        const char *q = end + 1;
        b = strtoll(q, &end, 10);
        if (end == q || b < a || errno)
            return MCE_ERR_CONFIG;
    }
    if (*end != '\0')
        return MCE_ERR_CONFIG;
    *lo = a;
    *hi = b;
    return MCE_OK;
}

int mcei_trace_open(mcei_engine_t *eng, char *err, size_t errlen)
{
    int bad = 0, anybad = 0;
    events = MCEI_TRACE_ALL;
    node_lo = 0;
    node_hi = INT64_MAX;
    /* Option errors: the same verdict on every rank, no collective. */
    if (eng->cfg.trace_events != NULL &&
        parse_events(eng->cfg.trace_events, &events) != MCE_OK) {
        snprintf(err, errlen,
                 "option --mce-trace-events: '%s' is not a list of calls, "
                 "proto, net",
                 eng->cfg.trace_events);
        return MCE_ERR_CONFIG;
    }
    if (eng->cfg.trace_nodes != NULL &&
        parse_nodes(eng->cfg.trace_nodes, &node_lo, &node_hi) != MCE_OK) {
        snprintf(err, errlen,
                 "option --mce-trace-nodes: '%s' is not a node or a range "
                 "A-B",
                 eng->cfg.trace_nodes);
        return MCE_ERR_CONFIG;
    }
    {
        size_t n = strlen(eng->cfg.trace);
        otf2 = n > 5 && strcmp(eng->cfg.trace + n - 5, ".otf2") == 0;
    }
#ifndef HAVE_OTF2
    if (otf2) {
        snprintf(err, errlen,
                 "option --mce-trace: '%s': this mcemu was built without "
                 "OTF2 (install libopen-trace-format2-dev and reconfigure)",
                 eng->cfg.trace);
        return MCE_ERR_CONFIG;
    }
#endif
    if (eng->rank == 0 && otf2 &&
        mcei_trace_otf2_clear(eng->cfg.trace, 0, err, errlen) != MCE_OK) {
        /* Something at the archive's path that is not an OTF2 archive:
         * refused before it is touched. */
        bad = 1;
    } else if (eng->rank == 0 && otf2 && access(eng->cfg.trace, F_OK) == 0) {
        /* A previous archive, replaced at the end: its anchor stays
         * until then (a run that fails leaves it whole). */
        if (access(eng->cfg.trace, W_OK) != 0) {
            snprintf(err, errlen, "option --mce-trace: cannot write '%s': %s",
                     eng->cfg.trace, strerror(errno));
            bad = 1;
        }
    } else if (eng->rank == 0) {
        /* Fail early if the file cannot be written. */
        FILE *f = fopen(eng->cfg.trace, "w");
        if (f == NULL) {
            snprintf(err, errlen, "option --mce-trace: cannot write '%s': %s",
                     eng->cfg.trace, strerror(errno));
            bad = 1;
        } else {
            fclose(f);
            if (otf2) /* OTF2 creates the archive's anchor itself */
                remove(eng->cfg.trace);
        }
    }
    /* Every rank learns rank 0's verdict, so all of them stop together. */
    mcei_transport_max_int(bad, &anybad);
    if (anybad)
        return MCE_ERR_IO;
    if ((tf = tmpfile()) == NULL) {
        snprintf(err, errlen, "option --mce-trace: no temporary file: %s",
                 strerror(errno));
        return MCE_ERR_IO;
    }
    net_writer = eng->rank == 0;
    trace_nodes = eng->nodes;
    for (int i = 0; i < eng->nlocal; i++) {
        int id = eng->vns[i].id;
        if (id < node_lo || id > node_hi)
            continue;
        for (int pid = 0; pid < 2; pid++)
            fprintf(tf,
                    ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,"
                    "\"tid\":%d,\"args\":{\"name\":\"node %d%s\"}}"
                    ",\n{\"ph\":\"M\",\"name\":\"thread_sort_index\","
                    "\"pid\":%d,\"tid\":%d,\"args\":{\"sort_index\":%d}}",
                    pid, id, id, pid ? " protocol" : "", pid, id, id);
    }
    return MCE_OK;
}

static inline int node_on(const mcei_vn_t *vn)
{
    return tf != NULL && vn->trace_on && vn->id >= node_lo && vn->id <= node_hi;
}

static inline int on(const mcei_vn_t *vn)
{
    return (events & MCEI_TRACE_CALLS) && node_on(vn);
}

/* The hot calls below test on() and write in a function of their own
 * (noinline, cold): its frame (the number buffers) would otherwise reach
 * stack lines the untraced call has no use for, at every send and
 * receive of every node. */

__attribute__((noinline, cold)) static void
send_out(mcei_vn_t *vn, const mcei_msg_t *m, mce_time_t t0, mce_time_t t1)
{
    char a[32], b[32];
    fprintf(
        tf,
        ",\n{\"ph\":\"X\",\"name\":\"send\",\"cat\":\"msg\",\"pid\":0,"
        "\"tid\":%d,\"ts\":%s,\"dur\":%s,\"args\":{\"dst\":%d,\"type\":%" PRId64
        ",\"bytes\":%" PRIu64 ",\"seq\":%" PRIu64 "}}",
        vn->id, us(t0, a, sizeof(a)), us(t1 - t0, b, sizeof(b)), m->w.dst,
        m->w.type, m->w.size, m->w.seq);
}

void mcei_trace_send(mcei_vn_t *vn, const mcei_msg_t *m, mce_time_t t0,
                     mce_time_t t1)
{
    if (on(vn))
        send_out(vn, m, t0, t1);
}

__attribute__((noinline, cold)) static void
recv_out(mcei_vn_t *vn, const mcei_msg_t *m, const char *call, mce_time_t t0,
         mce_time_t t1)
{
    char a[32], b[32], c[32], d[32];
    fprintf(
        tf,
        ",\n{\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"msg\",\"pid\":0,"
        "\"tid\":%d,\"ts\":%s,\"dur\":%s,\"args\":{\"src\":%d,\"type\":%" PRId64
        ",\"bytes\":%" PRIu64 ",\"sent\":%s,\"arrived\":%s}}",
        call, vn->id, us(t0, a, sizeof(a)), us(t1 - t0, b, sizeof(b)), m->w.src,
        m->w.type, m->w.size, us(m->w.ts, c, sizeof(c)),
        us(m->arrival, d, sizeof(d)));
}

void mcei_trace_recv(mcei_vn_t *vn, const mcei_msg_t *m, const char *call,
                     mce_time_t t0, mce_time_t t1)
{
    if (on(vn))
        recv_out(vn, m, call, t0, t1);
}

__attribute__((noinline, cold)) static void flow_out(mcei_vn_t *vn,
                                                     const mcei_msg_t *m)
{
    char a[32];
    fprintf(tf,
            ",\n{\"ph\":\"s\",\"name\":\"msg\",\"cat\":\"msg\",\"pid\":0,"
            "\"tid\":%d,\"ts\":%s,\"id\":\"%d.%" PRIu64 "\"}",
            vn->id, us(m->w.ts, a, sizeof(a)), m->w.src, m->w.seq);
}

void mcei_trace_flow_out(mcei_vn_t *vn, const mcei_msg_t *m)
{
    if (on(vn))
        flow_out(vn, m);
}

void mcei_trace_flow_start(mcei_vn_t *vn, mce_time_t t, uint64_t id)
{
    char a[32];
    if (!on(vn))
        return;
    fprintf(tf,
            ",\n{\"ph\":\"s\",\"name\":\"msg\",\"cat\":\"msg\",\"pid\":0,"
            "\"tid\":%d,\"ts\":%s,\"id\":\"%d.v%" PRIu64 "\"}",
            vn->id, us(t, a, sizeof(a)), vn->id, id & ~MCEI_FLOW_PROTO);
}

void mcei_trace_flow_bcast(mcei_vn_t *vn, mce_time_t t, uint64_t id,
                           const int *dests, int n)
{
    char a[32];
    if (!on(vn))
        return;
    us(t, a, sizeof(a));
    for (int i = 0; i < n; i++) {
        int d = dests != NULL ? dests[i] : i;
        if (d == vn->id)
            continue;
        fprintf(tf,
                ",\n{\"ph\":\"s\",\"name\":\"msg\",\"cat\":\"msg\",\"pid\":0,"
                "\"tid\":%d,\"ts\":%s,\"id\":\"%d.v%" PRIu64 ">%d\"}",
                vn->id, a, vn->id, id & ~(MCEI_FLOW_PROTO | MCEI_FLOW_BCAST),
                d);
    }
}

void mcei_trace_flow_in(mcei_vn_t *vn, int src, uint64_t seq)
{
    if (!on(vn))
        return;
    if (vn->nflow_in == vn->capflow_in) {
        size_t n = vn->capflow_in ? 2 * vn->capflow_in : 4;
        uint64_t *f = realloc(vn->flow_in, n * 2 * sizeof(*f));
        if (f == NULL)
            return; /* an arrow less, never a failed run */
        vn->flow_in = f;
        vn->capflow_in = n;
    }
    vn->flow_in[2 * vn->nflow_in] = (uint64_t)src;
    vn->flow_in[2 * vn->nflow_in + 1] = seq;
    vn->nflow_in++;
}

__attribute__((noinline, cold)) static void flows_end(mcei_vn_t *vn,
                                                      mce_time_t t)
{
    char a[32];
    for (size_t i = 0; i < vn->nflow_in; i++) {
        uint64_t f = vn->flow_in[2 * i + 1];
        fprintf(tf,
                ",\n{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"msg\","
                "\"cat\":\"msg\",\"pid\":0,\"tid\":%d,\"ts\":%s,"
                "\"id\":\"%" PRIu64 ".%s%" PRIu64,
                vn->id, us(t, a, sizeof(a)), vn->flow_in[2 * i],
                f & MCEI_FLOW_PROTO ? "v" : "",
                f & ~(MCEI_FLOW_PROTO | MCEI_FLOW_BCAST));
        if (f & MCEI_FLOW_BCAST) /* this receiver's arrow */
            fprintf(tf, ">%d", vn->id);
        fprintf(tf, "\"}");
    }
}

void mcei_trace_flows_end(mcei_vn_t *vn, mce_time_t t)
{
    if (vn->nflow_in == 0)
        return;
    if (on(vn))
        flows_end(vn, t);
    vn->nflow_in = 0;
}

void mcei_trace_instant(mcei_vn_t *vn, const char *name, mce_time_t t)
{
    char a[32];
    if (!on(vn))
        return;
    fprintf(tf, ",\n{\"ph\":\"i\",\"s\":\"t\",\"name\":\"");
    put_json_str(name);
    fprintf(tf, "\",\"pid\":0,\"tid\":%d,\"ts\":%s}", vn->id,
            us(t, a, sizeof(a)));
}

void mcei_trace_edge(mcei_vn_t *vn, const char *name, int begin, mce_time_t t)
{
    char a[32];
    if (!on(vn))
        return;
    fprintf(tf, ",\n{\"ph\":\"%s\",\"name\":\"", begin ? "B" : "E");
    put_json_str(name ? name : "");
    fprintf(tf, "\",\"pid\":0,\"tid\":%d,\"ts\":%s}", vn->id,
            us(t, a, sizeof(a)));
}

void mcei_trace_span(mcei_vn_t *vn, const char *name, mce_time_t t0,
                     mce_time_t t1)
{
    char a[32], b[32];
    if (!on(vn))
        return;
    fprintf(tf, ",\n{\"ph\":\"X\",\"name\":\"");
    put_json_str(name);
    fprintf(tf, "\",\"cat\":\"call\",\"pid\":0,\"tid\":%d,\"ts\":%s,\"dur\":%s",
            vn->id, us(t0, a, sizeof(a)), us(t1 - t0, b, sizeof(b)));
    if (vn->api_args != 0) {
        const char *sep = "";
        fprintf(tf, ",\"args\":{");
        if (vn->api_args & MCEI_ARG_BYTES) {
            fprintf(tf, "\"bytes\":%" PRId64, vn->api_bytes);
            sep = ",";
        }
        if (vn->api_args & MCEI_ARG_PEER) {
            fprintf(tf, "%s\"peer\":%" PRId64, sep, vn->api_peer);
            sep = ",";
        }
        if (vn->api_args & MCEI_ARG_TYPE)
            fprintf(tf, "%s\"type\":%" PRId64, sep, vn->api_type);
        fputc('}', tf);
    }
    fputc('}', tf);
}

int mcei_trace_proto_on(const mcei_vn_t *vn)
{
    return (events & MCEI_TRACE_PROTO) && node_on(vn);
}

void mcei_trace_proto(mcei_vn_t *vn, const char *track, const char *name,
                      mce_time_t t0, mce_time_t t1, const char *args)
{
    char a[32], b[32];
    if (!mcei_trace_proto_on(vn))
        return;
    fprintf(tf, ",\n{\"ph\":\"X\",\"name\":\"");
    put_json_str(name);
    fprintf(tf, "\",\"cat\":\"");
    put_json_str(track);
    fprintf(tf, "\",\"pid\":1,\"tid\":%d,\"ts\":%s,\"dur\":%s", vn->id,
            us(t0, a, sizeof(a)), us(t1 >= t0 ? t1 - t0 : 0, b, sizeof(b)));
    if (args != NULL)
        fprintf(tf, ",\"args\":{%s}", args);
    fputc('}', tf);
}

static size_t track_hash(const char *res, int index)
{
    uint64_t h = 1469598103934665603ULL;
    for (const char *p = res; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    h = (h ^ (uint32_t)index) * 1099511628211ULL;
    return (size_t)(h ^ (h >> 29));
}

static int net_rehash(size_t cap)
{
    uint32_t *t = calloc(cap, sizeof(*t));
    if (t == NULL)
        return -1;
    for (size_t i = 0; i < n_net_tracks; i++) {
        size_t j = track_hash(net_tracks[i].res, net_tracks[i].index);
        while (t[j & (cap - 1)] != 0)
            j++;
        t[j & (cap - 1)] = (uint32_t)i + 1;
    }
    free(net_hash);
    net_hash = t;
    net_hash_cap = cap;
    return 0;
}

/* The track number of a network resource, named at its first event (by
 * @p label, or "RES INDEX"). */
static int net_tid(const char *res, int index, const char *label, int create)
{
    size_t i, j;
    if (net_hash_cap == 0 && net_rehash(64) < 0)
        return -1;
    for (j = track_hash(res, index);; j++) {
        uint32_t k = net_hash[j & (net_hash_cap - 1)];
        if (k == 0)
            break;
        if (net_tracks[k - 1].index == index &&
            strcmp(net_tracks[k - 1].res, res) == 0)
            return (int)k - 1;
    }
    if (!create)
        return -1;
    if (n_net_tracks == cap_net_tracks) {
        size_t n = cap_net_tracks ? 2 * cap_net_tracks : 16;
        struct net_track *t = realloc(net_tracks, n * sizeof(*t));
        if (t == NULL)
            return -1;
        net_tracks = t;
        cap_net_tracks = n;
    }
    i = n_net_tracks;
    memset(&net_tracks[i], 0, sizeof(net_tracks[i]));
    net_tracks[i].res = res;
    net_tracks[i].index = index;
    n_net_tracks++;
    if (2 * n_net_tracks > net_hash_cap) {
        if (net_rehash(2 * net_hash_cap) < 0) {
            n_net_tracks--;
            return -1;
        }
    } else {
        net_hash[j & (net_hash_cap - 1)] = (uint32_t)i + 1;
    }
    fprintf(tf,
            ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2,\"tid\":%zu,"
            "\"args\":{\"name\":\"",
            i);
    if (label != NULL) {
        put_json_str(label);
        fprintf(tf, "\"}}");
    } else {
        put_json_str(res);
        fprintf(tf, " %d\"}}", index);
    }
    return (int)i;
}

int mcei_trace_net_on(void)
{
    return tf != NULL && net_writer && (events & MCEI_TRACE_NET);
}

static void slice(int pid, int tid, const char *cat, const char *name,
                  mce_time_t t0, mce_time_t t1, const char *args)
{
    char a[32], b[32];
    fprintf(tf, ",\n{\"ph\":\"X\",\"name\":\"");
    put_json_str(name);
    fprintf(tf, "\",\"cat\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%s,\"dur\":%s",
            cat, pid, tid, us(t0, a, sizeof(a)),
            us(t1 >= t0 ? t1 - t0 : 0, b, sizeof(b)));
    if (args != NULL && *args)
        fprintf(tf, ",\"args\":{%s}", args);
    fputc('}', tf);
}

void mcei_trace_net_named(const char *res, int index, const char *label,
                          const char *name, mce_time_t t0, mce_time_t t1,
                          const char *args)
{
    int tid;
    if (!mcei_trace_net_on() || (tid = net_tid(res, index, label, 1)) < 0)
        return;
    slice(2, tid, "net", name, t0, t1, args);
}

void mcei_trace_net(const char *res, int index, const char *name, mce_time_t t0,
                    mce_time_t t1, const char *args)
{
    mcei_trace_net_named(res, index, NULL, name, t0, t1, args);
}

static void net_inner_end(int tid, mce_time_t t1)
{
    struct net_track *k = &net_tracks[tid];
    if (!k->iopen)
        return;
    slice(2, tid, "net", k->iname, k->it0, t1, k->iargs);
    free(k->iname);
    free(k->iargs);
    k->iname = k->iargs = NULL;
    k->iopen = 0;
}

static void net_end(int tid, mce_time_t t1)
{
    struct net_track *k = &net_tracks[tid];
    net_inner_end(tid, t1); /* what is inside ends with it */
    if (!k->open)
        return;
    slice(2, tid, "net", k->name, k->t0, t1, k->args);
    free(k->name);
    free(k->args);
    k->name = k->args = NULL;
    k->open = 0;
}

void mcei_trace_net_open(const char *res, int index, const char *label,
                         const char *name, mce_time_t t0, const char *args)
{
    int tid;
    struct net_track *k;
    if (!mcei_trace_net_on() || (tid = net_tid(res, index, label, 1)) < 0)
        return;
    net_end(tid, t0);
    k = &net_tracks[tid];
    k->name = strdup(name);
    k->args = args != NULL ? strdup(args) : NULL;
    if (k->name == NULL || (args != NULL && k->args == NULL)) {
        free(k->name); /* a state less, never a failed run */
        free(k->args);
        k->name = k->args = NULL;
        return;
    }
    k->t0 = t0;
    k->open = 1;
}

void mcei_trace_net_close(const char *res, int index, mce_time_t t1)
{
    int tid;
    if (!mcei_trace_net_on() || (tid = net_tid(res, index, NULL, 0)) < 0)
        return;
    net_end(tid, t1);
}

void mcei_trace_net_inner_open(const char *res, int index, const char *label,
                               const char *name, mce_time_t t0,
                               const char *args)
{
    int tid;
    struct net_track *k;
    if (!mcei_trace_net_on() || (tid = net_tid(res, index, label, 1)) < 0)
        return;
    net_inner_end(tid, t0);
    k = &net_tracks[tid];
    k->iname = strdup(name);
    k->iargs = args != NULL ? strdup(args) : NULL;
    if (k->iname == NULL || (args != NULL && k->iargs == NULL)) {
        free(k->iname); /* a state less, never a failed run */
        free(k->iargs);
        k->iname = k->iargs = NULL;
        return;
    }
    k->it0 = t0;
    k->iopen = 1;
}

void mcei_trace_net_inner_close(const char *res, int index, mce_time_t t1)
{
    int tid;
    if (!mcei_trace_net_on() || (tid = net_tid(res, index, NULL, 0)) < 0)
        return;
    net_inner_end(tid, t1);
}

void mcei_trace_set_end(mce_time_t t)
{
    run_end = t;
}

int mcei_trace_res_on(const mcei_vn_t *vn)
{
    return (events & MCEI_TRACE_NET) && node_on(vn);
}

void mcei_trace_res(mcei_vn_t *vn, int slot, const char *label,
                    const char *name, mce_time_t t0, mce_time_t t1,
                    const char *args)
{
    size_t tid;
    if (!mcei_trace_res_on(vn) || slot < 0 || slot >= MCEI_TRACE_RES_SLOTS)
        return;
    tid = (size_t)vn->id * MCEI_TRACE_RES_SLOTS + (size_t)slot;
    if (res_named == NULL &&
        (res_named = calloc(
             ((size_t)trace_nodes * MCEI_TRACE_RES_SLOTS + 7) / 8, 1)) == NULL)
        return;
    if (!(res_named[tid / 8] & (1u << (tid % 8)))) {
        res_named[tid / 8] |= (uint8_t)(1u << (tid % 8));
        fprintf(tf,
                ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":3,"
                "\"tid\":%zu,\"args\":{\"name\":\"",
                tid);
        put_json_str(label);
        fprintf(tf,
                "\"}},\n{\"ph\":\"M\",\"name\":\"thread_sort_index\","
                "\"pid\":3,\"tid\":%zu,\"args\":{\"sort_index\":%zu}}",
                tid, tid);
    }
    slice(3, (int)tid, "net", name, t0, t1, args);
}

/* States still open at the end of the run end there. */
static void net_flush(void)
{
    for (size_t i = 0; i < n_net_tracks; i++) {
        const struct net_track *k = &net_tracks[i];
        mce_time_t t = run_end > k->t0 ? run_end : k->t0;
        if (k->iopen && k->it0 > t)
            t = k->it0;
        net_end((int)i, t);
    }
}

static void net_free(void)
{
    for (size_t i = 0; i < n_net_tracks; i++) {
        free(net_tracks[i].name);
        free(net_tracks[i].args);
        free(net_tracks[i].iname);
        free(net_tracks[i].iargs);
    }
    free(net_tracks);
    net_tracks = NULL;
    n_net_tracks = cap_net_tracks = 0;
    free(net_hash);
    net_hash = NULL;
    net_hash_cap = 0;
    free(res_named);
    res_named = NULL;
    run_end = 0;
}

static void header(mcei_engine_t *eng, FILE *out, int partial)
{
    fprintf(out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{");
    mcei_prov_json(eng, out);
    fprintf(out,
            ",\"time_unit\":\"virtual microseconds\",\"events\":\"%s%s%s\","
            "\"trace_nodes\":\"%" PRId64 "-%" PRId64 "\",\"partial\":%s},\n"
            "\"traceEvents\":[\n"
            "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,"
            "\"args\":{\"name\":\"mcemu %d nodes: calls\"}},\n"
            "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,"
            "\"args\":{\"name\":\"protocol\"}},\n"
            "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2,"
            "\"args\":{\"name\":\"network\"}},\n"
            "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":3,"
            "\"args\":{\"name\":\"node resources\"}}",
            events & MCEI_TRACE_CALLS ? "calls," : "",
            events & MCEI_TRACE_PROTO ? "proto," : "",
            events & MCEI_TRACE_NET ? "net" : "", node_lo,
            node_hi < eng->nodes ? node_hi : (int64_t)eng->nodes - 1,
            partial ? "true" : "false", eng->nodes);
}

void mcei_trace_abort(mcei_engine_t *eng)
{
    /* The run ends in an error: no collective is possible any more, so
     * this rank writes what it buffered (rank 0 to the trace file, the
     * others beside it as FILE.rankN), marked partial. */
    char path[4096];
    FILE *out;
    if (tf == NULL)
        return;
    if (eng->rank == 0 && !otf2)
        snprintf(path, sizeof(path), "%s", eng->cfg.trace);
    else if (eng->rank == 0)
        snprintf(path, sizeof(path), "%s.json", eng->cfg.trace);
    else
        snprintf(path, sizeof(path), "%s.rank%d", eng->cfg.trace, eng->rank);
    if ((out = fopen(path, "w")) != NULL) {
        char buf[8192];
        size_t n;
        header(eng, out, 1);
        fflush(tf);
        rewind(tf);
        while ((n = fread(buf, 1, sizeof(buf), tf)) > 0)
            fwrite(buf, 1, n, out);
        fprintf(out, "\n]}\n");
        if (fclose(out) != 0)
            mcei_log("cannot write the partial trace '%s': %s", path,
                     strerror(errno));
        else
            mcei_log("partial trace (events up to the error) in '%s'", path);
    }
    fclose(tf);
    tf = NULL;
    net_free();
}

int mcei_trace_close(mcei_engine_t *eng)
{
    FILE *out = NULL;
    int rc = MCE_OK;
    if (tf == NULL)
        return MCE_OK;
    net_flush();
    if (fflush(tf) != 0 || ferror(tf)) {
        /* This rank's buffered events are incomplete. */
        mcei_log("trace '%s': rank %d could not buffer its events: %s",
                 eng->cfg.trace, eng->rank, strerror(errno));
        rc = MCE_ERR_IO;
    }
    if (eng->rank == 0) {
        /* An OTF2 archive is converted from the merged JSON events. */
        if ((out = otf2 ? tmpfile() : fopen(eng->cfg.trace, "w")) == NULL) {
            mcei_log("cannot write trace '%s': %s", eng->cfg.trace,
                     strerror(errno));
            rc = MCE_ERR_IO;
            out = fopen("/dev/null", "w");
        }
        header(eng, out, 0);
    }
    mcei_transport_gather_stream(tf, out);
    if (eng->rank == 0) {
        fprintf(out, "\n]}\n");
        /* A full device or a failing file: say so, never a silent 0. */
        if ((fflush(out) != 0 || ferror(out)) && rc == MCE_OK) {
            mcei_log("cannot write trace '%s': %s", eng->cfg.trace,
                     strerror(errno));
            rc = MCE_ERR_IO;
        }
        if (otf2 && rc == MCE_OK) {
            char why[512];
            if (mcei_trace_otf2_write(out, eng->cfg.trace, eng->nodes, why,
                                      sizeof(why)) != MCE_OK) {
                mcei_log("%s", why);
                rc = MCE_ERR_IO;
            }
        }
        if (fclose(out) != 0 && rc == MCE_OK) {
            mcei_log("cannot write trace '%s': %s", eng->cfg.trace,
                     strerror(errno));
            rc = MCE_ERR_IO;
        }
    }
    fclose(tf);
    tf = NULL;
    net_free();
    return rc;
}
