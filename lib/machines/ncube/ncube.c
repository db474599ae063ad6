/* The NCUBE machine protocol (Mudge, Buzzard and Abdel-Rahman 1987).
 *
 * Standard Vertex, per hop (Figure 1): the sender allocates a buffer from
 * its pool and copies the data (nwrite returns), sends a 2-byte length
 * when the channel is free; the receiver's length interrupt allocates a
 * buffer and acknowledges (or queues the request, and until the
 * acknowledgement goes the channel back to the sender is lost); the
 * sender's acknowledgement interrupt starts the DMA; the end-of-DMA
 * interrupts on both sides release the sender's buffer and the channel and
 * queue the message as unclaimed (or forward it one hop further on the e-cube
 * route).  nread copies it out and frees the buffer.
 *
 * Extended Vertex: send() starts the DMA at once to a neighbour whose
 * channel is in extended mode; the receiver must have posted rcvreq() for
 * exactly that many bytes; end-of-DMA interrupts set the flags.
 *
 * Every interrupt steals its cost from the node's program
 * (mcei_vn_steal); all the constants come from the machine file. */
#include "ncube.h"

#include "../../core/trace.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../keys.h"
#include "chan.h"
#include "pool.h"

enum { K_LEN = 1, K_ACK = 2, K_DATA = 3, K_XDATA = 4 };
enum { T_DMA_DONE = 1, T_XDONE = 2, T_SELF = 3 };

/* A pool buffer shared by the inbox copy and broadcast relays; every
 * live one is on its node's list, so that a node's end frees those its
 * program never read. */
typedef struct vbuf {
    uint32_t off;
    int refs;
    struct vbuf *prev, *next;
} vbuf_t;

/* A standard-Vertex message on its way out of this node. */
typedef struct out_msg {
    mcei_ncube_item_t item;
    vbuf_t *vb;
    void *payload;
    uint32_t len;
    int orig_src, dest, type, bcast_root;
    uint64_t flow; /* trace arrow id (0: a broadcast's, none) */
} out_msg_t;

/* A wait for a pool buffer: the node's own nwrite or a neighbour's length
 * request. */
typedef struct pool_req {
    int remote, dim, granted;
    uint32_t len, off;
    mce_time_t since; /* the wait's start (for the trace) */
} pool_req_t;

typedef struct xreq {
    struct xreq *next;
    void *buf;
    uint32_t len;
    int type;
    int *flag;
} xreq_t;

typedef struct ncube_node {
    uint64_t flows; /* program messages sent: trace arrow numbers */
    mcei_ncube_pool_t pool;
    mcei_ncube_chan_t out[MCEI_NCUBE_MAXDIM];
    struct {
        int expecting;
        vbuf_t *vb;
    } in[MCEI_NCUBE_MAXDIM];
    int mode[MCEI_NCUBE_MAXDIM];
    xreq_t *xhead[MCEI_NCUBE_MAXDIM], *xtail[MCEI_NCUBE_MAXDIM];
    vbuf_t *vbufs; /* live pool buffers */
} ncube_node_t;

/* The protocol's global state: the engine's proto_state while ncube
 * runs. */
typedef struct ncube_state {
    mcei_ncube_costs_t costs;
    int dim; /* the hypercube's dimension */
} ncube_state_t;

/* NULL unless the running protocol is ncube. */
static const ncube_state_t *nst(void)
{
    return mcei_proto_state_of(&mcei_proto_ncube_ops);
}

/* The costs, while ncube runs. */
static const mcei_ncube_costs_t *cst(void)
{
    return &nst()->costs;
}

int mcei_ncube_active(const mcei_ncube_costs_t **c)
{
    const ncube_state_t *s = nst();
    if (s == NULL)
        return 0;
    if (c != NULL)
        *c = &s->costs;
    return 1;
}

int mcei_ncube_dim(void)
{
    const ncube_state_t *s = nst();
    return s != NULL ? s->dim : 0;
}

/* ---- helpers -------------------------------------------------------- */

static ncube_node_t *node_of(mcei_vn_t *vn)
{
    return vn->proto;
}

/* A buffer record for pool offset @p off, with @p refs references. */
static vbuf_t *vbuf_new(mcei_vn_t *vn, uint32_t off, int refs)
{
    ncube_node_t *nd = node_of(vn);
    vbuf_t *vb = malloc(sizeof(*vb));
    if (vb == NULL)
        mcei_vn_fatal(vn, "Vertex: out of memory");
    vb->off = off;
    vb->refs = refs;
    vb->prev = NULL;
    vb->next = nd->vbufs;
    if (nd->vbufs != NULL)
        nd->vbufs->prev = vb;
    nd->vbufs = vb;
    return vb;
}

static void vbuf_unlink(ncube_node_t *nd, vbuf_t *vb)
{
    if (vb->prev != NULL)
        vb->prev->next = vb->next;
    else
        nd->vbufs = vb->next;
    if (vb->next != NULL)
        vb->next->prev = vb->prev;
}

static int lowest_bit(unsigned x)
{
    return __builtin_ctz(x);
}

static mce_time_t wire_time(uint64_t bytes)
{
    return cst()->latency + bytes * cst()->per_byte;
}

static void *dup_bytes(const void *p, uint32_t n)
{
    void *d = malloc(n ? n : 1);
    if (d != NULL && n)
        memcpy(d, p, n);
    return d;
}

/* Trace tracks of a node's resources: its outgoing channel of each
 * dimension (slot d) and its buffer pool. */
enum { SLOT_POOL = MCEI_NCUBE_MAXDIM };
_Static_assert(SLOT_POOL < MCEI_TRACE_RES_SLOTS, "a trace slot per channel");

/* The wire of channel @p d busy from @p s for @p dur. */
static void trace_wire(mcei_vn_t *vn, int d, const char *what, mce_time_t s,
                       mce_time_t dur, uint32_t bytes)
{
    char label[64], args[64];
    if (!mcei_trace_res_on(vn))
        return;
    snprintf(label, sizeof(label), "node %d channel %d (to node %d)", vn->id, d,
             vn->id ^ (1 << d));
    snprintf(args, sizeof(args), "\"peer\":%d,\"bytes\":%u", vn->id ^ (1 << d),
             bytes);
    mcei_trace_res(vn, d, label, what, s, s + dur, args);
}

/* A wait for a buffer of the pool, from its start to @p t (the grant):
 * on the pool's track and, as the node's protocol waits with it (an
 * acknowledgement held back, or its own nwrite), on its protocol track. */
static void trace_pool_wait(mcei_vn_t *vn, const pool_req_t *r, mce_time_t t)
{
    char label[48], name[64], args[96];
    if (!mcei_trace_res_on(vn) && !mcei_trace_proto_on(vn))
        return;
    snprintf(label, sizeof(label), "node %d buffer pool", vn->id);
    if (r->remote) {
        /* its acknowledgement waited, and with it the channel back */
        snprintf(name, sizeof(name), "length request of node %d waits",
                 vn->id ^ (1 << r->dim));
        snprintf(args, sizeof(args),
                 "\"bytes\":%u,\"peer\":%d,\"channel_held\":%d", r->len,
                 vn->id ^ (1 << r->dim), r->dim);
    } else {
        snprintf(name, sizeof(name), "nwrite waits");
        snprintf(args, sizeof(args), "\"bytes\":%u", r->len);
    }
    mcei_trace_res(vn, SLOT_POOL, label, name, r->since, t, args);
    mcei_trace_proto(vn, "buffer pool", name, r->since, t, args);
}

/* An interrupt handler of the protocol (mcei_vn_steal: it starts when
 * the message is in and the node's previous handler has ended), on the
 * node's protocol track with the channel @p d it serves (-1: none
 * known); returns its end. */
static mce_time_t steal(mcei_vn_t *vn, const mcei_msg_t *m, mce_time_t dur,
                        const char *what, int d)
{
    mce_time_t e = mcei_vn_steal(vn, m->arrival, dur);
    if (mcei_trace_proto_on(vn)) {
        char args[48];
        snprintf(args, sizeof(args), "\"channel\":%d", d);
        mcei_trace_proto(vn, "interrupt", what, e - dur, e,
                         d >= 0 ? args : NULL);
    }
    return e;
}

static void send_ctl(mcei_vn_t *vn, int d, int kind, uint32_t len, mce_time_t t)
{
    ncube_node_t *nd = node_of(vn);
    uint8_t bytes[64] = {(uint8_t)(len & 0xff), (uint8_t)((len >> 8) & 0xff)};
    uint64_t aux[2] = {len, 0};
    mce_time_t s =
        mcei_ncube_chan_wire(&nd->out[d], t, wire_time(cst()->ctl_bytes));
    /* The control message is ctl_bytes long, so the wire time matches. */
    if (mcei_send_at(vn, s, vn->id ^ (1 << d), MCEI_CTX_PROTOCOL, kind, bytes,
                     (size_t)cst()->ctl_bytes, aux, NULL) != MCE_OK)
        mcei_vn_fatal(vn, "Vertex: out of memory sending a control message");
    {
        /* Steps 1 and 2 of the three-way handshake (Mudge, Buzzard and
         * Abdel-Rahman 1987): the length request, the acknowledgement. */
        char args[64];
        snprintf(args, sizeof(args), "\"peer\":%d,\"bytes\":%u",
                 vn->id ^ (1 << d), len);
        mcei_trace_proto(vn, "handshake",
                         kind == K_LEN ? "length request" : "acknowledgement",
                         s, s + wire_time(cst()->ctl_bytes), args);
        trace_wire(vn, d, kind == K_LEN ? "length request" : "acknowledgement",
                   s, wire_time(cst()->ctl_bytes), len);
    }
}

static void vbuf_release(mcei_vn_t *vn, vbuf_t *vb, mce_time_t t);
static void chan_do(mcei_vn_t *vn, int d, mcei_ncube_action_t a, mce_time_t t);

static void grant_loop(mcei_vn_t *vn, mce_time_t t)
{
    ncube_node_t *nd = node_of(vn);
    void *cookie;
    uint32_t off;
    while (mcei_ncube_pool_grant(&nd->pool, &cookie, &off)) {
        pool_req_t *r = cookie;
        r->granted = 1;
        r->off = off;
        trace_pool_wait(vn, r, t);
        if (r->remote) {
            vbuf_t *vb = vbuf_new(vn, off, 1);
            nd->in[r->dim].expecting = 1;
            nd->in[r->dim].vb = vb;
            send_ctl(vn, r->dim, K_ACK, r->len, t);
            /* The channel back is ours again: what waited goes after
             * the acknowledgement on the wire. */
            chan_do(vn, r->dim, mcei_ncube_chan_release(&nd->out[r->dim]), t);
            free(r);
        }
    }
}

static void vbuf_release(mcei_vn_t *vn, vbuf_t *vb, mce_time_t t)
{
    if (--vb->refs > 0)
        return;
    if (mcei_ncube_pool_free(&node_of(vn)->pool, vb->off) != MCE_OK)
        mcei_vn_fatal(vn, "Vertex: buffer pool corrupted (free of %u)",
                      vb->off);
    vbuf_unlink(node_of(vn), vb);
    free(vb);
    grant_loop(vn, t);
}

static void submit(mcei_vn_t *vn, int d, out_msg_t *om, mce_time_t t)
{
    ncube_node_t *nd = node_of(vn);
    om->item.data = om;
    chan_do(vn, d, mcei_ncube_chan_submit(&nd->out[d], &om->item), t);
}

static out_msg_t *out_new(mcei_vn_t *vn, vbuf_t *vb, const void *data,
                          uint32_t len, int src, int dest, int type, int root)
{
    out_msg_t *om = calloc(1, sizeof(*om));
    if (om == NULL || (om->payload = dup_bytes(data, len)) == NULL)
        mcei_vn_fatal(vn, "Vertex: out of memory");
    om->vb = vb;
    om->len = len;
    om->orig_src = src;
    om->dest = dest;
    om->type = type;
    om->bcast_root = root;
    return om;
}

static void out_free(out_msg_t *om)
{
    free(om->payload);
    free(om);
}

/* Children of @p me in the binomial spanning tree rooted at @p root. */
static int bcast_children(int me, int root, int *kids)
{
    unsigned rel = (unsigned)(me ^ root);
    int n = 0, first = rel ? 32 - __builtin_clz(rel) : 0;
    for (int j = first; j < nst()->dim; j++)
        kids[n++] = me ^ (1 << j);
    return n;
}

/* ---- arrivals --------------------------------------------------------- */

static void to_inbox(mcei_vn_t *vn, mcei_msg_t *m, int src, int type,
                     vbuf_t *vb)
{
    m->w.src = src;
    m->w.type = type;
    m->w.ctx = MCEI_CTX_USER;
    m->cookie = vb;
    mcei_msgq_push(&vn->inbox, m);
}

static void on_len(mcei_vn_t *vn, mcei_msg_t *m, int d)
{
    ncube_node_t *nd = node_of(vn);
    uint32_t len = (uint32_t)m->w.aux[0], off;
    mce_time_t e =
        steal(vn, m, cst()->len_interrupt, "length request interrupt", d);
    if (nd->in[d].expecting)
        mcei_vn_fatal_at(vn, m->arrival,
                         "Vertex: second length request from node %d while "
                         "a transfer on that channel is pending",
                         m->w.src);
    /* Section 2: a request is satisfied by a linear search for a free
     * buffer large enough, and queued only if there is none (it may
     * overtake queued larger requests). */
    if (mcei_ncube_pool_alloc(&nd->pool, len, &off) == MCE_OK) {
        vbuf_t *vb = vbuf_new(vn, off, 1);
        nd->in[d].expecting = 1;
        nd->in[d].vb = vb;
        send_ctl(vn, d, K_ACK, len, e);
        return;
    }
    /* No buffer: the acknowledgement waits for one (step 5), and until
     * it is sent the channel back to that neighbour is lost (section
     * 3): this node starts nothing on it. */
    pool_req_t *r = calloc(1, sizeof(*r));
    if (r == NULL || mcei_ncube_pool_wait(&nd->pool, len, r) != MCE_OK)
        mcei_vn_fatal_at(vn, m->arrival, "Vertex: out of memory");
    r->remote = 1;
    r->dim = d;
    r->len = len;
    r->since = e;
    mcei_ncube_chan_hold(&nd->out[d]);
}

/* Step 7: the DMA of the channel's current message, from @p t. */
static void start_dma(mcei_vn_t *vn, int d, mce_time_t t)
{
    mcei_msg_t *dm;
    ncube_node_t *nd = node_of(vn);
    out_msg_t *om = nd->out[d].current->data;
    mce_time_t dur = wire_time(om->len);
    mce_time_t s = mcei_ncube_chan_wire(&nd->out[d], t, dur);
    uint64_t aux[2] = {
        ((uint64_t)(uint32_t)om->orig_src << 32) | (uint32_t)om->type,
        ((uint64_t)(uint32_t)om->bcast_root << 32) | (uint32_t)om->dest};
    uint64_t taux[2] = {(uint64_t)d, 0};
    {
        char args[64]; /* step 3 of the handshake: the data */
        snprintf(args, sizeof(args), "\"peer\":%d,\"bytes\":%u",
                 vn->id ^ (1 << d), om->len);
        mcei_trace_proto(vn, "handshake", "data (DMA)", s, s + dur, args);
        trace_wire(vn, d, "data", s, dur, om->len);
    }
    if (mcei_send_at(vn, s, vn->id ^ (1 << d), MCEI_CTX_PROTOCOL, K_DATA,
                     om->payload, om->len, aux, &dm) != MCE_OK ||
        mcei_timer_at(vn, s + dur, T_DMA_DONE, taux, NULL, NULL, 0) != MCE_OK)
        mcei_vn_fatal_at(vn, t, "Vertex: out of memory starting a transfer");
    dm->w.flow = om->flow; /* the program message's arrow, hop to hop */
    free(om->payload);
    om->payload = NULL;
}

/* Carry out what the channel state machine asks for, at @p t. */
static void chan_do(mcei_vn_t *vn, int d, mcei_ncube_action_t a, mce_time_t t)
{
    ncube_node_t *nd = node_of(vn);
    if (a == MCEI_VX_SEND_LEN)
        send_ctl(vn, d, K_LEN, ((out_msg_t *)nd->out[d].current->data)->len, t);
    else if (a == MCEI_VX_START_DMA)
        start_dma(vn, d, t);
}

static void on_ack(mcei_vn_t *vn, mcei_msg_t *m, int d)
{
    ncube_node_t *nd = node_of(vn);
    int bad;
    mce_time_t e =
        steal(vn, m, cst()->ack_interrupt, "acknowledgement interrupt", d);
    mcei_ncube_action_t a = mcei_ncube_chan_ack(&nd->out[d], &bad);
    if (bad)
        mcei_vn_fatal_at(vn, m->arrival,
                         "Vertex: unexpected acknowledgement from node %d",
                         m->w.src);
    chan_do(vn, d, a, e); /* NONE: deferred while the channel is held */
}

static void on_dma_done(mcei_vn_t *vn, mcei_msg_t *m)
{
    ncube_node_t *nd = node_of(vn);
    int d = (int)m->w.aux[0], bad;
    mcei_ncube_item_t *done = NULL;
    mce_time_t e = steal(vn, m, cst()->dma_send_interrupt,
                         "end of DMA interrupt (sender)", d);
    mcei_ncube_action_t a = mcei_ncube_chan_dma_done(&nd->out[d], &done, &bad);
    if (bad)
        mcei_vn_fatal_at(vn, m->arrival,
                         "Vertex: end of DMA on an idle channel");
    out_msg_t *om = done->data;
    vbuf_release(vn, om->vb, e);
    free(om);
    chan_do(vn, d, a, e);
}

static void on_data(mcei_vn_t *vn, mcei_msg_t *m, int d)
{
    ncube_node_t *nd = node_of(vn);
    int src = (int)(uint32_t)(m->w.aux[0] >> 32);
    int type = (int)(uint32_t)m->w.aux[0];
    int root = (int)(int32_t)(uint32_t)(m->w.aux[1] >> 32);
    int dest = (int)(uint32_t)m->w.aux[1];
    mce_time_t e = steal(vn, m, cst()->dma_recv_interrupt,
                         "end of DMA interrupt (receiver)", d);
    vbuf_t *vb = nd->in[d].vb;
    if (!nd->in[d].expecting)
        mcei_vn_fatal_at(vn, m->arrival,
                         "Vertex: data from node %d without a handshake",
                         m->w.src);
    nd->in[d].expecting = 0;
    nd->in[d].vb = NULL;
    if (root >= 0) {
        int kids[MCEI_NCUBE_MAXDIM], n = bcast_children(vn->id, root, kids);
        vb->refs = 1 + n;
        for (int i = 0; i < n; i++) {
            out_msg_t *om = out_new(vn, vb, mcei_msg_data(m),
                                    (uint32_t)m->w.size, src, dest, type, root);
            om->flow = m->w.flow; /* the broadcast's arrows, relayed */
            submit(vn, lowest_bit((unsigned)(vn->id ^ kids[i])), om, e);
        }
        to_inbox(vn, m, src, type, vb);
        return;
    }
    if (dest == vn->id) {
        to_inbox(vn, m, src, type, vb);
        return;
    }
    /* Store and forward: the same buffer goes out on the next hop. */
    out_msg_t *fw = out_new(vn, vb, mcei_msg_data(m), (uint32_t)m->w.size, src,
                            dest, type, -1);
    fw->flow = m->w.flow;
    submit(vn, lowest_bit((unsigned)(vn->id ^ dest)), fw, e);
    mcei_msg_release(m);
}

/* Receive requests a node left posted: gone with the node. */
static void drop_xreqs(ncube_node_t *nd)
{
    for (int d = 0; d < MCEI_NCUBE_MAXDIM; d++) {
        while (nd->xhead[d] != NULL) {
            xreq_t *r = nd->xhead[d];
            nd->xhead[d] = r->next;
            free(r);
        }
        nd->xtail[d] = NULL;
    }
}

static void on_xdata(mcei_vn_t *vn, mcei_msg_t *m, int d)
{
    ncube_node_t *nd = node_of(vn);
    int type = (int)m->w.aux[0];
    steal(vn, m, cst()->xdma_recv_interrupt,
          "end of extended DMA interrupt (receiver)", d);
    if (nd->mode[d] != 1)
        mcei_vn_fatal_at(vn, m->arrival,
                         "Vertex send: extended message (type %d, %" PRIu64
                         " bytes) from node %d arrived on a channel in "
                         "standard mode: it is lost",
                         type, m->w.size, m->w.src);
    xreq_t *r = nd->xhead[d];
    if (r == NULL)
        mcei_vn_fatal_at(vn, m->arrival,
                         "Vertex send: extended message (type %d, %" PRIu64
                         " bytes) from node %d arrived with no rcvreq "
                         "posted: it is lost",
                         type, m->w.size, m->w.src);
    if (r->len != m->w.size || (r->type >= 0 && r->type != type))
        mcei_vn_fatal_at(vn, m->arrival,
                         "Vertex rcvreq: posted %u bytes of type %d, but "
                         "node %d sent %" PRIu64 " bytes of type %d",
                         r->len, r->type, m->w.src, m->w.size, type);
    if (vn->state == MCEI_VN_DONE) {
        /* The program has ended: its buffers and flags may be gone with
         * it, so the requests it left posted are cancelled, never
         * written into. */
        drop_xreqs(nd);
        mcei_vn_fatal_at(vn, m->arrival,
                         "Vertex send: extended message (type %d, %" PRIu64
                         " bytes) from node %d arrived after node %d's "
                         "program ended (the rcvreq it left posted was "
                         "cancelled): it is lost",
                         type, m->w.size, m->w.src, vn->id);
    }
    nd->xhead[d] = r->next;
    if (nd->xhead[d] == NULL)
        nd->xtail[d] = NULL;
    /* The DMA wrote into the program's memory. */
    mcei_vn_memory(vn);
    if (m->w.size)
        memcpy(r->buf, mcei_msg_data(m), m->w.size);
    *r->flag = 1;
    mcei_count_recv(vn, m->w.size); /* a posted receive completed */
    if (m->w.flow != 0)
        mcei_trace_flow_in(vn, m->w.src, m->w.flow);
    free(r);
    mcei_msg_release(m);
}

static void ncube_on_arrival(mcei_vn_t *vn, mcei_msg_t *m)
{
    if (m->w.ctx == MCEI_CTX_TIMER) {
        switch (m->w.type) {
        case T_DMA_DONE:
            on_dma_done(vn, m);
            break;
        case T_XDONE:
            steal(vn, m, cst()->xdma_send_interrupt,
                  "end of extended DMA interrupt (sender)", -1);
            mcei_vn_memory(vn);
            *(int *)m->cookie = 1;
            break;
        case T_SELF:
            /* A message to oneself is queued at once, still buffered. */
            to_inbox(vn, m, vn->id, (int)m->w.aux[0], m->cookie);
            return;
        }
        mcei_msg_release(m);
        return;
    }
    if (m->w.ctx != MCEI_CTX_PROTOCOL) {
        mcei_msgq_push(&vn->inbox, m); /* native API traffic */
        return;
    }
    int d = lowest_bit((unsigned)(vn->id ^ m->w.src));
    switch (m->w.type) {
    case K_LEN:
        on_len(vn, m, d);
        break;
    case K_ACK:
        on_ack(vn, m, d);
        break;
    case K_DATA:
        on_data(vn, m, d);
        return; /* kept or released by on_data */
    case K_XDATA:
        on_xdata(vn, m, d);
        return;
    default:
        mcei_vn_fatal(vn, "Vertex: unknown protocol message %" PRId64,
                      m->w.type);
    }
    mcei_msg_release(m);
}

/* ---- the program's calls ------------------------------------------------ */

static int pool_granted(mcei_vn_t *vn, void *arg)
{
    (void)vn;
    return ((pool_req_t *)arg)->granted;
}

int mcei_ncube_nwrite(mcei_vn_t *vn, const void *buf, uint32_t n, int dest,
                      int type)
{
    ncube_node_t *nd = node_of(vn);
    pool_req_t req = {0};
    int kids[MCEI_NCUBE_MAXDIM], nkids = 0, bc = dest == 0xffff;
    uint32_t off;
    char what[128];

    if (!mcei_ncube_pool_fits(&nd->pool, n))
        return MCE_ERR_SIZE;
    mcei_sync(vn);
    mcei_charge_comm(vn, cst()->nwrite_trap);
    if (bc && (nkids = bcast_children(vn->id, vn->id, kids)) == 0)
        return MCE_OK; /* a one-node cube: nobody to tell */
    /* Step 2: a communication buffer, waiting for one if need be. */
    if (mcei_ncube_pool_alloc(&nd->pool, n, &off) == MCE_OK) {
        req.off = off; /* found by the search, even if others wait */
    } else {
        uint32_t fb, lg, nb;
        mcei_ncube_pool_stats(&nd->pool, &fb, &lg, &nb);
        req.len = n;
        req.since = vn->clock;
        if (mcei_ncube_pool_wait(&nd->pool, n, &req) != MCE_OK)
            return MCE_ERR_NOMEM;
        snprintf(what, sizeof(what),
                 "a %u-byte communication buffer (%u bytes free in %u "
                 "blocks, largest %u)",
                 n, fb, nb, lg);
        mcei_wait(vn, pool_granted, &req, "nwrite", what);
    }
    vbuf_t *vb = vbuf_new(vn, req.off, bc ? nkids : 1);
    /* Step 3: copy, then the caller is released. */
    mce_time_t copy = (mce_time_t)n * cst()->copy_per_byte;
    mcei_charge_comm(vn, copy);
    mcei_count_sent(vn, n);
    if (bc) {
        /* an arrow to every other node, carried down the tree */
        uint64_t flow = MCEI_FLOW_PROTO | MCEI_FLOW_BCAST | ++nd->flows;
        mcei_trace_flow_bcast(vn, vn->clock, flow, NULL, 1 << nst()->dim);
        for (int i = 0; i < nkids; i++) {
            out_msg_t *om = out_new(vn, vb, buf, n, vn->id, dest, type, vn->id);
            om->flow = flow;
            submit(vn, lowest_bit((unsigned)(vn->id ^ kids[i])), om, vn->clock);
        }
    } else if (dest == vn->id) {
        uint64_t aux[2] = {(uint64_t)(uint32_t)type, 0};
        /* Queued locally at once, still holding its buffer. */
        if (mcei_timer_at(vn, vn->clock, T_SELF, aux, vb, buf, n) != MCE_OK)
            return MCE_ERR_NOMEM;
    } else {
        out_msg_t *om = out_new(vn, vb, buf, n, vn->id, dest, type, -1);
        om->flow = MCEI_FLOW_PROTO | ++nd->flows;
        mcei_trace_flow_start(vn, vn->clock, om->flow);
        submit(vn, lowest_bit((unsigned)(vn->id ^ dest)), om, vn->clock);
    }
    return MCE_OK;
}

typedef struct match_arg {
    int src, type;
} match_arg_t;

static int user_ready(mcei_vn_t *vn, void *arg)
{
    match_arg_t *a = arg;
    return mcei_match(vn, a->src, a->type, MCEI_CTX_USER) != NULL;
}

/* What nread waits for, formatted only for a deadlock report. */
static void user_what(const void *arg, char *buf, size_t len)
{
    const match_arg_t *a = arg;
    char sbuf[16] = "any node", tbuf[16] = "any type";
    if (a->src >= 0)
        snprintf(sbuf, sizeof(sbuf), "node %d", a->src);
    if (a->type >= 0)
        snprintf(tbuf, sizeof(tbuf), "type %d", a->type);
    snprintf(buf, len, "a message from %s of %s", sbuf, tbuf);
}

int mcei_ncube_nread(mcei_vn_t *vn, void *buf, uint32_t cap, int *src,
                     int *type, uint32_t *len)
{
    match_arg_t a = {.src = *src, .type = *type};
    mcei_msg_t *m;

    mcei_sync(vn);
    mcei_wait_for(vn, user_ready, &a, "nread", user_what, &a);
    m = mcei_match(vn, a.src, a.type, MCEI_CTX_USER);
    uint32_t n = (uint32_t)m->w.size, ncopy = n < cap ? n : cap;
    mce_time_t c = cst()->nread_trap + (mce_time_t)ncopy * cst()->copy_per_byte;
    mcei_charge_comm(vn, c);
    if (ncopy)
        memcpy(buf, mcei_msg_data(m), ncopy);
    *src = m->w.src;
    *type = (int)m->w.type;
    *len = n;
    if (m->cookie != NULL)
        vbuf_release(vn, m->cookie, vn->clock);
    mcei_consume(vn, m);
    return MCE_OK;
}

int mcei_ncube_ntest(mcei_vn_t *vn, int *src, int *type)
{
    mcei_msg_t *m;
    mcei_sync(vn);
    m = mcei_match(vn, *src, *type, MCEI_CTX_USER);
    mcei_charge_comm(vn, cst()->ntest_cost);
    if (m == NULL)
        return -1;
    *src = m->w.src;
    *type = (int)m->w.type;
    return (int)m->w.size;
}

static int xstart(mcei_vn_t *vn, const void *buf, uint32_t n, unsigned mask,
                  int type, int *flag)
{
    mcei_msg_t *xm;
    ncube_node_t *nd = node_of(vn);
    mce_time_t dur = wire_time(n), s = vn->clock;
    uint64_t aux[2] = {(uint64_t)(uint32_t)type, 0};
    uint64_t flow = MCEI_FLOW_PROTO | ++nd->flows;
    int dests[MCEI_NCUBE_MAXDIM], ndests = 0;
    /* One DMA action drives every selected channel together. */
    for (int d = 0; d < nst()->dim; d++)
        if (mask & (1u << d)) {
            s = mcei_time_max(s, nd->out[d].free_at);
            dests[ndests++] = vn->id ^ (1 << d);
        }
    if (ndests == 1) /* one neighbour: an arrow */
        mcei_trace_flow_start(vn, vn->clock, flow);
    else { /* several: an arrow to each */
        flow |= MCEI_FLOW_BCAST;
        mcei_trace_flow_bcast(vn, vn->clock, flow, dests, ndests);
    }
    for (int d = 0; d < nst()->dim; d++) {
        if (!(mask & (1u << d)))
            continue;
        mcei_ncube_chan_wire(&nd->out[d], s, dur);
        trace_wire(vn, d, "extended data", s, dur, n);
        if (mcei_send_at(vn, s, vn->id ^ (1 << d), MCEI_CTX_PROTOCOL, K_XDATA,
                         buf, n, aux, &xm) != MCE_OK)
            return MCE_ERR_NOMEM;
        xm->w.flow = flow;
    }
    *flag = 0;
    mcei_count_sent(vn, n);
    return mcei_timer_at(vn, s + dur, T_XDONE, NULL, flag, NULL, 0);
}

int mcei_ncube_xsend(mcei_vn_t *vn, const void *buf, uint32_t n, int dest,
                     int type, int *flag)
{
    unsigned diff = (unsigned)(vn->id ^ dest);
    if (diff == 0 || (diff & (diff - 1)) != 0)
        return MCE_ERR_NODE; /* not a nearest neighbour */
    if (node_of(vn)->mode[lowest_bit(diff)] != 1)
        return MCE_ERR_STATE;
    mcei_sync(vn);
    mcei_charge_comm(vn, cst()->xsend_trap);
    return xstart(vn, buf, n, diff, type, flag);
}

int mcei_ncube_bcast(mcei_vn_t *vn, const void *buf, uint32_t n, unsigned mask,
                     int type, int *flag)
{
    if (mask == 0 || (nst()->dim < 32 && (mask >> nst()->dim) != 0))
        return MCE_ERR_NODE;
    for (int d = 0; d < nst()->dim; d++)
        if ((mask & (1u << d)) && node_of(vn)->mode[d] != 1)
            return MCE_ERR_STATE;
    mcei_sync(vn);
    mcei_charge_comm(vn, cst()->xsend_trap);
    return xstart(vn, buf, n, mask, type, flag);
}

int mcei_ncube_rcvreq(mcei_vn_t *vn, void *buf, uint32_t n, int src, int type,
                      int *flag)
{
    ncube_node_t *nd = node_of(vn);
    unsigned diff = (unsigned)(vn->id ^ src);
    xreq_t *r;
    if (diff == 0 || (diff & (diff - 1)) != 0)
        return MCE_ERR_NODE;
    int d = lowest_bit(diff);
    if (nd->mode[d] != 1)
        return MCE_ERR_STATE;
    if ((r = calloc(1, sizeof(*r))) == NULL)
        return MCE_ERR_NOMEM;
    mcei_sync(vn);
    mcei_charge_comm(vn, cst()->rcvreq_trap);
    r->buf = buf;
    r->len = n;
    r->type = type;
    r->flag = flag;
    *flag = 0;
    if (nd->xtail[d])
        nd->xtail[d]->next = r;
    else
        nd->xhead[d] = r;
    nd->xtail[d] = r;
    return MCE_OK;
}

int mcei_ncube_chanmode(mcei_vn_t *vn, int neighbour, int mode)
{
    unsigned diff = (unsigned)(vn->id ^ neighbour);
    if (diff == 0 || (diff & (diff - 1)) != 0)
        return MCE_ERR_NODE;
    mcei_sync(vn);
    mcei_charge_comm(vn, cst()->chanmode_cost);
    node_of(vn)->mode[lowest_bit(diff)] = mode;
    return MCE_OK;
}

static int flag_set(mcei_vn_t *vn, void *arg)
{
    mcei_vn_memory(vn);
    return *(volatile int *)arg != 0;
}

int mcei_ncube_flagwait(mcei_vn_t *vn, int *flag)
{
    mcei_sync(vn);
    mcei_wait(vn, flag_set, flag, "flagwait", "a completion flag to be set");
    mcei_charge_comm(vn, cst()->flag_poll);
    return MCE_OK;
}

/* ---- plug-in ------------------------------------------------------------ */

static int ncube_init(mcei_engine_t *eng, mcei_machine_t *m, char *err,
                      size_t errlen)
{
    static const struct {
        const char *key;
        size_t off;
    } times[] = {
#define T(k) {#k, offsetof(mcei_ncube_costs_t, k)}
        T(latency),
        T(per_byte),
        T(nwrite_trap),
        T(nread_trap),
        T(copy_per_byte),
        T(ntest_cost),
        T(trap_cost),
        T(len_interrupt),
        T(ack_interrupt),
        T(dma_send_interrupt),
        T(dma_recv_interrupt),
        T(xsend_trap),
        T(rcvreq_trap),
        T(flag_poll),
        T(chanmode_cost),
        T(xdma_send_interrupt),
        T(xdma_recv_interrupt),
#undef T
    };
    char key[64];
    mce_time_t cycle;
    ncube_state_t *st = calloc(1, sizeof(*st));
    mcei_ncube_costs_t *costs;
    int rc;

    if (st == NULL)
        return MCE_ERR_NOMEM;
    costs = &st->costs;
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(times); i++) {
        /* latency and per_byte are the wire's, shared with the network. */
        snprintf(key, sizeof(key), "%s%s", i < 2 ? "" : "vx.", times[i].key);
        if ((rc = mcei_key_time(m, key,
                                (mce_time_t *)((char *)costs + times[i].off),
                                err, errlen)) != MCE_OK)
            goto fail;
    }
    if ((rc =
             mcei_key_u64(m, "vx.ctl_bytes", &costs->ctl_bytes, err, errlen)) ||
        (rc = mcei_key_u64(m, "vx.pool_bytes", &costs->pool_bytes, err,
                           errlen)) ||
        (rc =
             mcei_key_u64(m, "vx.split_min", &costs->split_min, err, errlen)) ||
        (rc = mcei_key_u64(m, "vx.buffer_header", &costs->buffer_header, err,
                           errlen)) ||
        (rc = mcei_key_time(m, "cycle_time", &cycle, err, errlen)))
        goto fail;
    if (costs->pool_bytes == 0 || costs->pool_bytes > UINT32_MAX ||
        costs->buffer_header == 0 ||
        costs->buffer_header >= costs->pool_bytes || costs->split_min == 0 ||
        costs->split_min > UINT32_MAX || costs->ctl_bytes == 0 ||
        costs->ctl_bytes > 64) {
        snprintf(err, errlen,
                 "machine '%s': need 0 < vx.buffer_header < vx.pool_bytes < 4 "
                 "GiB, 0 < vx.split_min < 4 GiB and 0 < vx.ctl_bytes <= 64",
                 m->name);
        rc = MCE_ERR_MACHINE;
        goto fail;
    }
    if (eng->nodes & (eng->nodes - 1)) {
        snprintf(err, errlen,
                 "machine '%s' is a hypercube: the node count must be a power "
                 "of two, not %d",
                 m->name, eng->nodes);
        rc = MCE_ERR_CONFIG;
        goto fail;
    }
    st->dim = __builtin_ctz((unsigned)eng->nodes);
    if (st->dim > MCEI_NCUBE_MAXDIM) {
        snprintf(err, errlen, "machine '%s': at most 2^%d nodes", m->name,
                 MCEI_NCUBE_MAXDIM);
        rc = MCE_ERR_CONFIG;
        goto fail;
    }
    /* ntime counts ticks of 1024 cycles. */
    if (cycle == 0 || mcei_time_mul(cycle, 1024, &costs->tick) != MCE_OK) {
        snprintf(err, errlen,
                 "machine '%s': cycle_time must be positive and 1024 cycles "
                 "must fit the clock",
                 m->name);
        rc = MCE_ERR_MACHINE;
        goto fail;
    }
    eng->proto_state = st;
    return MCE_OK;
fail:
    free(st);
    return rc;
}

static void ncube_fini(mcei_engine_t *eng)
{
    free(eng->proto_state);
    eng->proto_state = NULL;
}

static int ncube_node_init(mcei_vn_t *vn)
{
    ncube_node_t *nd = calloc(1, sizeof(*nd));
    if (nd == NULL ||
        mcei_ncube_pool_init(&nd->pool, (uint32_t)cst()->pool_bytes,
                             (uint32_t)cst()->split_min,
                             (uint32_t)cst()->buffer_header) != MCE_OK) {
        free(nd);
        return MCE_ERR_NOMEM;
    }
    for (int d = 0; d < MCEI_NCUBE_MAXDIM; d++)
        mcei_ncube_chan_init(&nd->out[d]);
    vn->proto = nd;
    return MCE_OK;
}

static void ncube_node_fini(mcei_vn_t *vn)
{
    ncube_node_t *nd = node_of(vn);
    if (nd == NULL)
        return;
    drop_xreqs(nd);
    /* What a finished run left: buffers of messages never read, their
     * relays and transfers still queued, requests still waiting for a
     * buffer (a neighbour's are the node's to free; its own nwrite's
     * lived on its stack). */
    while (nd->vbufs != NULL) {
        vbuf_t *vb = nd->vbufs;
        nd->vbufs = vb->next;
        free(vb);
    }
    for (int d = 0; d < MCEI_NCUBE_MAXDIM; d++) {
        mcei_ncube_item_t *it = nd->out[d].head, *next;
        if (nd->out[d].current != NULL)
            out_free(nd->out[d].current->data);
        for (; it != NULL; it = next) {
            next = it->next;
            out_free(it->data);
        }
        nd->out[d].current = nd->out[d].head = nd->out[d].tail = NULL;
    }
    for (size_t i = 0; i < nd->pool.nwait; i++) {
        pool_req_t *r =
            nd->pool.waitq[(nd->pool.waithead + i) % nd->pool.capwait].cookie;
        if (r != NULL && r->remote)
            free(r);
    }
    mcei_ncube_pool_fini(&nd->pool);
    free(nd);
    vn->proto = NULL;
}

/* Every Vertex send follows a trap or an interrupt on its node: nwrite's
 * trap (then the length request), nread's trap (then the acknowledgement
 * of a freed buffer), xsend's and nbroadcast's trap (then the DMA), the
 * length-request, acknowledgement, DMA-received and DMA-sent interrupts
 * (then the acknowledgement, the DMA, a forwarded broadcast, the next
 * message of the channel).  The least of them is the least time between
 * a node's event and a send it causes. */
static mce_time_t ncube_send_delay(const mcei_engine_t *eng)
{
    (void)eng;
    const mce_time_t c[] = {cst()->nwrite_trap,       cst()->nread_trap,
                            cst()->xsend_trap,        cst()->len_interrupt,
                            cst()->ack_interrupt,     cst()->dma_recv_interrupt,
                            cst()->dma_send_interrupt};
    mce_time_t d = c[0];
    for (size_t i = 1; i < MCEI_ARRAY_SIZE(c); i++)
        d = mcei_time_min(d, c[i]);
    return d;
}

/* The NCUBE's DMA channels (modelled here, not by the network) link the
 * nodes whose ids differ in one bit. */
static void ncube_topology(const mcei_engine_t *eng, mcei_topo_t *out)
{
    (void)eng;
    memset(out, 0, sizeof(*out));
    out->kind = MCEI_TOPO_HYPERCUBE;
}

const mcei_proto_ops_t mcei_proto_ncube_ops = {
    .name = "ncube",
    .description = "NCUBE Vertex: buffer pool, three-way handshake, "
                   "store-and-forward, extended bufferless channels",
    .init = ncube_init,
    .fini = ncube_fini,
    .node_init = ncube_node_init,
    .node_fini = ncube_node_fini,
    .on_arrival = ncube_on_arrival,
    .send_delay = ncube_send_delay,
    .keys = &mcei_proto_ncube_keytab,
    /* it drives the point-to-point DMA channels itself */
    .requires_net = "ideal",
    .topology = ncube_topology,
};
