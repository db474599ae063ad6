/* The NCUBE 2 machine protocol: nCX's standard Vertex calls on the NCUBE 2
 * hardware.
 *
 * nwrite: a trap and the DMA set-up (send_overhead), then the sender's
 * output channel of the first dimension of the e-cube route streams the
 * message from the program's buffer; the hardware router cuts it through
 * every node on the way (wormhole: latency, plus hop for each further
 * hop, plus the bytes at the channel's rate) into a system buffer of the
 * destination, whose kernel takes the arrival interrupt (recv_interrupt)
 * and queues it.  nwrite returns once the DMA has read the buffer.
 * nread: a trap and queue search (recv_overhead) and the copy out of the
 * system buffer (copy_per_byte).  A channel carries one message at a time;
 * links inside the router are not modelled (no contention between
 * messages that cross the same link from different sources).
 * Broadcasts (dest 0xffff) and the global operations of the personality
 * are ordinary messages: a broadcast is relayed by the receiving kernels
 * along the binomial spanning tree, each relay an interrupt and a send.
 * Every constant comes from the machine file (share/machines/ncube2.conf). */
#include "ncube2.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/trace.h"
#include "../keys.h"
#include "ncube.h"

typedef struct node2 {
    mce_time_t out_free[MCEI_NCUBE_MAXDIM]; /* each output DMA channel */
    mcei_ncube2_api_t api;
} node2_t;

extern const mcei_proto_ops_t mcei_proto_ncube2_ops;

/* The protocol's global state: the engine's proto_state while it runs. */
typedef struct ncube2_state {
    mcei_ncube2_costs_t costs;
    int dim; /* the hypercube's dimension */
} ncube2_state_t;

/* NULL unless the running protocol is ncube2. */
static const ncube2_state_t *nst2(void)
{
    return mcei_proto_state_of(&mcei_proto_ncube2_ops);
}

int mcei_ncube2_active(const mcei_ncube2_costs_t **c)
{
    if (nst2() == NULL)
        return 0;
    if (c != NULL)
        *c = &nst2()->costs;
    return 1;
}

int mcei_ncube2_dim(void)
{
    return nst2() != NULL ? nst2()->dim : 0;
}

mcei_ncube2_api_t *mcei_ncube2_api(mcei_vn_t *vn)
{
    return &((node2_t *)vn->proto)->api;
}

/* Children of @p me in the binomial spanning tree rooted at @p root. */
static int tree_children(int me, int root, int *kids)
{
    unsigned rel = (unsigned)(me ^ root);
    int n = 0, first = rel ? 32 - __builtin_clz(rel) : 0;
    for (int j = first; j < nst2()->dim; j++)
        kids[n++] = me ^ (1 << j);
    return n;
}

/* One message from @p vn to @p dest starting no earlier than @p t on the
 * channel of the route's first dimension; returns when the DMA has read
 * the last byte (the channel stays busy until the tail arrives). */
static int inject(mcei_vn_t *vn, mce_time_t t, const void *buf, uint32_t n,
                  int dest, int64_t type, const uint64_t aux[2],
                  mce_time_t *read_done)
{
    node2_t *nd = vn->proto;
    mce_time_t body, route, s = t;
    unsigned diff = (unsigned)(vn->id ^ dest);
    int hops = __builtin_popcount(diff), d = diff ? __builtin_ctz(diff) : -1;
    if (mcei_time_mul(nst2()->costs.per_byte, n, &body) != MCE_OK ||
        mcei_time_mul(nst2()->costs.hop, hops > 1 ? (uint64_t)(hops - 1) : 0,
                      &route) != MCE_OK)
        return MCE_ERR_OVERFLOW;
    if (d >= 0)
        s = mcei_time_max(s, nd->out_free[d]);
    /* The ideal network adds latency + bytes x per_byte; the router's
     * further hops delay the head before that. */
    if (mcei_send_at(vn, s + route, dest, MCEI_CTX_PROTOCOL, type, buf, n, aux,
                     NULL) != MCE_OK)
        return MCE_ERR_NOMEM;
    if (d >= 0)
        nd->out_free[d] = s + route + nst2()->costs.latency + body;
    *read_done = s + body;
    return MCE_OK;
}

int mcei_ncube2_write(mcei_vn_t *vn, const void *buf, uint32_t n, int dest,
                      int64_t type, uint32_t ctx)
{
    int kids[MCEI_NCUBE_MAXDIM], nk, bc = dest == 0xffff, rc;
    uint64_t aux[2] = {((uint64_t)(uint32_t)vn->id << 32) | ctx,
                       bc ? (uint64_t)vn->id + 1 : 0};
    mce_time_t done = 0, d1;

    mcei_sync(vn);
    mcei_charge_comm(vn, nst2()->costs.send_overhead);
    if (ctx == MCEI_CTX_USER)
        mcei_count_sent(vn, n);
    if (!bc) {
        rc = inject(vn, vn->clock, buf, n, dest, type, aux, &done);
    } else {
        nk = tree_children(vn->id, vn->id, kids);
        rc = MCE_OK;
        for (int i = 0; i < nk && rc == MCE_OK; i++) {
            rc = inject(vn, vn->clock, buf, n, kids[i], type, aux, &d1);
            done = mcei_time_max(done, d1);
        }
    }
    if (rc == MCE_OK)
        mcei_wait_until(vn, done);
    return rc;
}

static void on_arrival(mcei_vn_t *vn, mcei_msg_t *m)
{
    int root = (int)m->w.aux[1] - 1, kids[MCEI_NCUBE_MAXDIM], nk;
    uint32_t ctx = (uint32_t)m->w.aux[0];
    int src = (int)(m->w.aux[0] >> 32);
    mce_time_t e, done;
    if (m->w.ctx != MCEI_CTX_PROTOCOL) {
        mcei_msgq_push(&vn->inbox, m); /* native API traffic */
        return;
    }
    e = mcei_vn_steal(vn, m->arrival, nst2()->costs.recv_interrupt);
    if (mcei_trace_proto_on(vn)) {
        /* the receiving kernel's interrupt, on the protocol track */
        char args[48];
        snprintf(args, sizeof(args), "\"src\":%d,\"bytes\":%zu", src,
                 (size_t)m->w.size);
        mcei_trace_proto(vn, "interrupt", "receive interrupt",
                         e - nst2()->costs.recv_interrupt, e, args);
    }
    if (root >= 0) {
        /* The kernel relays a broadcast to its subtree. */
        nk = tree_children(vn->id, root, kids);
        for (int i = 0; i < nk; i++)
            if (inject(vn, e, mcei_msg_data(m), (uint32_t)m->w.size, kids[i],
                       m->w.type, m->w.aux, &done) != MCE_OK)
                mcei_vn_fatal_at(vn, m->arrival,
                                 "nwrite: out of memory relaying a broadcast");
    }
    m->w.src = src;
    m->w.ctx = ctx;
    mcei_msgq_push(&vn->inbox, m);
}

typedef struct match2 {
    int src;
    int64_t type;
    uint32_t ctx;
} match2_t;

static int ready(mcei_vn_t *vn, void *arg)
{
    match2_t *a = arg;
    return mcei_match(vn, a->src, a->type, a->ctx) != NULL;
}

static void what(const void *arg, char *buf, size_t len)
{
    const match2_t *a = arg;
    char sbuf[24] = "any node", tbuf[64] = "any type";
    if (a->src >= 0)
        snprintf(sbuf, sizeof(sbuf), "node %d", a->src);
    if (a->ctx != MCEI_CTX_USER)
        snprintf(tbuf, sizeof(tbuf), "global operation %" PRId64 " step %d",
                 a->type >> 8, (int)(a->type & 0xff));
    else if (a->type >= 0)
        snprintf(tbuf, sizeof(tbuf), "type %" PRId64, a->type);
    snprintf(buf, len, "a message from %s of %s", sbuf, tbuf);
}

int mcei_ncube2_read(mcei_vn_t *vn, void *buf, uint32_t cap, int *src,
                     int64_t *type, uint32_t ctx, uint32_t *len)
{
    match2_t a = {.src = *src, .type = *type, .ctx = ctx};
    mcei_msg_t *m;
    mce_time_t copy;
    uint32_t n, ncopy;

    mcei_sync(vn);
    mcei_wait_for(vn, ready, &a, ctx == MCEI_CTX_USER ? "nread" : "global",
                  what, &a);
    m = mcei_match(vn, a.src, a.type, ctx);
    n = (uint32_t)m->w.size;
    ncopy = n < cap ? n : cap;
    if (mcei_time_mul(nst2()->costs.copy_per_byte, ncopy, &copy) != MCE_OK)
        return MCE_ERR_OVERFLOW;
    mcei_charge_comm(vn, nst2()->costs.recv_overhead + copy);
    if (ncopy)
        memcpy(buf, mcei_msg_data(m), ncopy);
    *src = m->w.src;
    *type = m->w.type;
    *len = n;
    if (ctx == MCEI_CTX_USER)
        mcei_count_recv(vn, n);
    mcei_consume(vn, m);
    return MCE_OK;
}

int mcei_ncube2_test(mcei_vn_t *vn, int *src, int *type)
{
    mcei_msg_t *m;
    mcei_sync(vn);
    m = mcei_match(vn, *src, *type, MCEI_CTX_USER);
    mcei_charge_comm(vn, nst2()->costs.ntest_cost);
    if (m == NULL)
        return -1;
    *src = m->w.src;
    *type = (int)m->w.type;
    return (int)m->w.size;
}

/* ---- plug-in ------------------------------------------------------------ */

static int ncube2_init(mcei_engine_t *eng, mcei_machine_t *m, char *err,
                       size_t errlen)
{
    static const struct {
        const char *key;
        size_t off;
    } times[] = {
#define T(k, f) {k, offsetof(mcei_ncube2_costs_t, f)}
        T("latency", latency),
        T("per_byte", per_byte),
        T("cycle_time", cycle),
        T("nc2.hop", hop),
        T("nc2.send_overhead", send_overhead),
        T("nc2.recv_interrupt", recv_interrupt),
        T("nc2.recv_overhead", recv_overhead),
        T("nc2.copy_per_byte", copy_per_byte),
        T("nc2.ntest_cost", ntest_cost),
        T("nc2.trap_cost", trap_cost),
        T("nc2.combine", combine),
#undef T
    };
    int rc;
    ncube2_state_t *st = calloc(1, sizeof(*st));

    if (st == NULL)
        return MCE_ERR_NOMEM;
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(times); i++)
        if ((rc = mcei_key_time(
                 m, times[i].key,
                 (mce_time_t *)((char *)&st->costs + times[i].off), err,
                 errlen)) != MCE_OK) {
            free(st);
            return rc;
        }
    if (eng->nodes & (eng->nodes - 1)) {
        free(st);
        snprintf(err, errlen,
                 "machine '%s' is a hypercube: the node count must be a power "
                 "of two, not %d",
                 m->name, eng->nodes);
        return MCE_ERR_CONFIG;
    }
    st->dim = __builtin_ctz((unsigned)eng->nodes);
    if (st->dim > MCEI_NCUBE_MAXDIM || st->costs.cycle == 0) {
        free(st);
        snprintf(err, errlen,
                 "machine '%s': at most 2^%d nodes, and cycle_time must be "
                 "positive",
                 m->name, MCEI_NCUBE_MAXDIM);
        return MCE_ERR_CONFIG;
    }
    eng->proto_state = st;
    return MCE_OK;
}

static void ncube2_fini(mcei_engine_t *eng)
{
    free(eng->proto_state);
    eng->proto_state = NULL;
}

static int ncube2_node_init(mcei_vn_t *vn)
{
    node2_t *nd = calloc(1, sizeof(*nd));
    if (nd == NULL)
        return MCE_ERR_NOMEM;
    vn->proto = nd;
    return MCE_OK;
}

static void ncube2_node_fini(mcei_vn_t *vn)
{
    free(vn->proto);
    vn->proto = NULL;
}

/* Every send follows the send call's overhead or the receive interrupt
 * of the broadcast it relays. */
static mce_time_t ncube2_send_delay(const mcei_engine_t *eng)
{
    (void)eng;
    return mcei_time_min(nst2()->costs.send_overhead,
                         nst2()->costs.recv_interrupt);
}

/* The NCUBE 2's hypercube (its router is modelled here, not by the
 * network): nodes whose ids differ in one bit are linked. */
static void ncube2_topology(const mcei_engine_t *eng, mcei_topo_t *out)
{
    (void)eng;
    memset(out, 0, sizeof(*out));
    out->kind = MCEI_TOPO_HYPERCUBE;
}

const mcei_proto_ops_t mcei_proto_ncube2_ops = {
    .name = "ncube2",
    .description = "NCUBE 2 nCX: DMA from the program's buffer, wormhole "
                   "router, system receive buffers",
    .init = ncube2_init,
    .fini = ncube2_fini,
    .node_init = ncube2_node_init,
    .node_fini = ncube2_node_fini,
    .on_arrival = on_arrival,
    .send_delay = ncube2_send_delay,
    .requires_net = "ideal",
    .keys = &mcei_proto_ncube2_keytab,
    .topology = ncube2_topology,
};
