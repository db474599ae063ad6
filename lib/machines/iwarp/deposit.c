/* iWarp deposit and RTS message passing, node side (doc/design/iwarp-tcs.md,
 * sections 4 and 5; Warfel 1996, sections 3.1.4.2-3.1.4.3, 3.2.2-3.2.3).
 *
 * Deposit.  iwarp_dep_init reserves dep.pcts PCTs of the cell (the
 * deposit system's; its dep.spools spools are the model's send and
 * receive spools).  Buffers are registered in order: cells that register
 * in the same order get the same handles, which senders name.  Send
 * (foreground): dep.send_header, inject the deposit; for more than one
 * word dep.send_spool, then (after any interrupt handler that ran during
 * the set-up) tell the model the spool starts (MCEI_IW_DEP_GO), wait
 * until it reports the spool done, dep.send_finish.  Receive
 * (background): when the header has the receive spool the handler steals
 * dep.recv_irq and tells the model it has ended (MCEI_IW_DEP_READY); when
 * the data has drained (MCEI_IW_DEP_DRAIN: from the later of the two) a
 * second handler steals dep.recv_finish, copies the data into the buffer
 * and counts the arrival.  A cell that sends and receives at once thus
 * pays its receive handler inside its own spool set-up, which delays its
 * spool (Warfel 1996 3.2.3: such patterns "cannot hide the receive
 * cost").  4-byte
 * deposits: dep4.recv_irq + dep4.recv_finish at the word's arrival, no
 * spool.  iwarp_dep_wait waits for the count, then (re-arm of a buffer
 * whose last arrival was spooled) dep.rearm.
 *
 * RTS.  Send: rts.send_call, then the request for the token (the model);
 * the call returns once the message is handed over.  At the destination
 * the interrupt steals rts.recv_irq and sends the acknowledgement; at the
 * source the acknowledgement's interrupt steals rts.ack_irq and re-injects
 * the token.  iwarp_rts_recv returns a message (in arrival order, matching
 * source and type, -1 wildcards) rts.recv_wake after its interrupt ended
 * (or at once, plus rts.recv_wake, if it was already there). */
#include "deposit.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../net/iwarp_dep.h"
#include "cpu.h"
#include "iwarp.h"
#include "state.h"

#include "../../core/trace.h"

#define DEP_MAXBUF 256

typedef struct dep_buf {
    uint8_t *p;
    size_t bytes;
    unsigned count;
    int spooled;
    mce_time_t last; /* end of the handler of the last arrival */
} dep_buf_t;

typedef struct mcei_iw_dep_node {
    int on, nbuf;
    dep_buf_t buf[DEP_MAXBUF];
    uint64_t sent_want, sent_seen;
    mce_time_t sent_t;
    /* deposits given the receive spool, oldest first: the head drains
     * (the next one's header may come at the same time as its end) */
    mcei_msgq_t rx;
    mcei_msgq_t rts; /* RTS messages received, aux[1] = interrupt end */
} dep_node_t;

static const mcei_iw_dep_k_t *dep_k(void)
{
    return &mcei_iw_state()->dep;
}

static dep_node_t *dn(mcei_vn_t *vn)
{
    return mcei_iw_slots(vn)->dep;
}

static void advance_to(mcei_vn_t *vn, mce_time_t t)
{
    if (t > vn->clock)
        mcei_charge_comm(vn, t - vn->clock);
}

static int get_clocks(mcei_machine_t *m, const char *key, mce_time_t clock,
                      mce_time_t *out, char *err, size_t errlen)
{
    uint64_t v;
    int rc = mcei_key_u64(m, key, &v, err, errlen);
    if (rc != MCE_OK)
        return rc;
    if (v > 1000000) {
        snprintf(err, errlen, "machine '%s': %s must be at most 1000000 clocks",
                 m->name, key);
        return MCE_ERR_MACHINE;
    }
    *out = v * clock;
    return MCE_OK;
}

int mcei_iw_dep_module_init(mcei_iw_dep_k_t *k, mcei_machine_t *m,
                            mce_time_t clock, char *err, size_t errlen)
{
    static const struct {
        const char *key;
        size_t off;
    } keys[] = {
#define T(key, f) {key, offsetof(mcei_iw_dep_k_t, f)}
        T("dep.send_header", send_header), T("dep.send_spool", send_spool),
        T("dep.send_finish", send_finish), T("dep.recv_irq", recv_irq),
        T("dep.recv_finish", recv_finish), T("dep.rearm", rearm),
        T("dep4.recv_irq", d4_irq),        T("dep4.recv_finish", d4_finish),
        T("iwarp.spool_word", spool_word), T("rts.send_call", rts_send),
        T("rts.recv_irq", rts_recv_irq),   T("rts.ack_irq", rts_ack_irq),
        T("rts.recv_wake", rts_wake),
#undef T
    };
    uint64_t on;
    int rc;
    memset(k, 0, sizeof(*k));
    k->clock = clock;
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(keys); i++)
        if ((rc = get_clocks(m, keys[i].key, clock,
                             (mce_time_t *)((char *)k + keys[i].off), err,
                             errlen)))
            return rc;
    if ((rc = mcei_key_u64(m, "dep.pcts", &k->pcts, err, errlen)) ||
        (rc = mcei_key_u64(m, "dep.spools", &k->spools, err, errlen)) ||
        (rc = mcei_key_u64(m, "rts.enable", &on, err, errlen)) ||
        (rc = mcei_key_u64(m, "rts.pcts", &k->rts_pcts, err, errlen)))
        return rc;
    if (k->spools != 2 || k->pcts > 32 || k->rts_pcts > 8) {
        snprintf(err, errlen,
                 "machine '%s': dep.spools must be 2 (one send and one "
                 "receive spool), dep.pcts at most 32, rts.pcts at most 8",
                 m->name);
        return MCE_ERR_MACHINE;
    }
    k->rts_on = on != 0;
    return MCE_OK;
}

int mcei_iw_dep_node_init(mcei_vn_t *vn)
{
    if ((mcei_iw_slots(vn)->dep = calloc(1, sizeof(dep_node_t))) == NULL)
        return MCE_ERR_NOMEM;
    return MCE_OK;
}

void mcei_iw_dep_node_fini(mcei_vn_t *vn)
{
    dep_node_t *d;
    mcei_msg_t *m;
    if ((d = dn(vn)) == NULL)
        return;
    while ((m = d->rx.head) != NULL) {
        mcei_msgq_remove(&d->rx, m);
        mcei_msg_release(m);
    }
    while ((m = d->rts.head) != NULL) {
        mcei_msgq_remove(&d->rts, m);
        mcei_msg_release(m);
    }
    free(d);
    mcei_iw_slots(vn)->dep = NULL;
}

/* Copy a deposit into its buffer and count it. */
static void deposit(mcei_vn_t *vn, const mcei_msg_t *m, mce_time_t done,
                    int spooled)
{
    dep_node_t *d = dn(vn);
    int h = MCEI_IW_DEP_HANDLE(m->w.aux[0]);
    size_t off = MCEI_IW_DEP_OFFSET(m->w.aux[0]);
    dep_buf_t *b;
    const mcei_iw_costs_t *c = NULL;
    mcei_iw_active(&c);
    if (!d->on || h >= d->nbuf)
        mcei_vn_fatal_at(vn, m->arrival,
                         "iwarp: a deposit from (%d,%d) names buffer %d, "
                         "which this cell has not registered",
                         m->w.src % c->width, m->w.src / c->width, h);
    b = &d->buf[h];
    if (off > b->bytes || m->w.size > b->bytes - off)
        mcei_vn_fatal_at(vn, m->arrival,
                         "iwarp: a deposit of %" PRIu64 " bytes at offset %zu "
                         "overruns buffer %d (%zu bytes)",
                         m->w.size, off, h, b->bytes);
    mcei_vn_memory(vn);
    memcpy(b->p + off, mcei_msg_data(m), m->w.size);
    b->count++;
    b->spooled = spooled;
    b->last = done;
    mcei_count_recv(vn, m->w.size);
    mcei_trace_flow_in(vn, m->w.src, m->w.seq);
}

int mcei_iw_dep_arrival(mcei_vn_t *vn, mcei_msg_t *m)
{
    dep_node_t *d = dn(vn);
    if (m->w.ctx != MCEI_CTX_PROTOCOL)
        return 0;
    switch (m->w.type) {
    case MCEI_IW_DEP:
        if (m->w.size <= 4) {
            mce_time_t f = mcei_vn_steal(vn, m->arrival,
                                         dep_k()->d4_irq + dep_k()->d4_finish);
            deposit(vn, m, f, 0);
            mcei_msg_release(m);
        } else {
            mce_time_t e = mcei_vn_steal(vn, m->arrival, dep_k()->recv_irq);
            uint64_t aux[2] = {m->w.aux[0], 0};
            mcei_msgq_push(&d->rx, m);
            if (mcei_send_at(vn, e, vn->id, MCEI_CTX_PROTOCOL,
                             MCEI_IW_DEP_READY, NULL, 0, aux, NULL) != MCE_OK)
                mcei_vn_fatal(vn, "iwarp: out of memory receiving a deposit");
        }
        return 1;
    case MCEI_IW_DEP_DRAIN: {
        mce_time_t f = mcei_vn_steal(vn, m->arrival, dep_k()->recv_finish);
        mcei_msg_t *dm = d->rx.head;
        mcei_msg_release(m);
        if (dm == NULL)
            mcei_vn_fatal(vn, "iwarp: a deposit's data without its header");
        mcei_msgq_remove(&d->rx, dm);
        deposit(vn, dm, f, 1);
        mcei_msg_release(dm);
        return 1;
    }
    case MCEI_IW_DEP_SENT:
        d->sent_seen++;
        d->sent_t = m->arrival;
        mcei_msg_release(m);
        return 1;
    case MCEI_IW_RTS: {
        mce_time_t e = mcei_vn_steal(vn, m->arrival, dep_k()->rts_recv_irq);
        uint64_t aux[2] = {0, 0};
        if (mcei_send_at(vn, e, m->w.src, MCEI_CTX_PROTOCOL, MCEI_IW_RTS_ACK,
                         NULL, 0, aux, NULL) != MCE_OK)
            mcei_vn_fatal(vn, "iwarp: out of memory acknowledging a message");
        m->w.aux[1] = e;
        mcei_msgq_push(&d->rts, m);
        return 1;
    }
    case MCEI_IW_RTS_ACK: {
        mce_time_t f = mcei_vn_steal(vn, m->arrival, dep_k()->rts_ack_irq);
        uint64_t aux[2] = {0, 0};
        if (mcei_send_at(vn, f, vn->id, MCEI_CTX_PROTOCOL, MCEI_IW_RTS_REL,
                         NULL, 0, aux, NULL) != MCE_OK)
            mcei_vn_fatal(vn, "iwarp: out of memory releasing the token");
        mcei_msg_release(m);
        return 1;
    }
    default:
        return 0;
    }
}

/* ---- deposit calls ------------------------------------------------------ */

static int need_init(dep_node_t *d, char *why, size_t len)
{
    if (!d->on) {
        snprintf(why, len,
                 "deposit message passing is not initialised on this cell "
                 "(call iwarp_dep_init first)");
        return MCE_ERR_STATE;
    }
    return MCE_OK;
}

int mcei_iw_dep_init(mcei_vn_t *vn, char *why, size_t len)
{
    dep_node_t *d = dn(vn);
    int p;
    if (d->on) {
        snprintf(why, len, "deposit message passing is already initialised");
        return MCE_ERR_STATE;
    }
    for (uint64_t i = 0; i < dep_k()->pcts; i++)
        if (mcei_iw_pct_alloc(vn, &p, why, len) != MCE_OK) {
            snprintf(why, len,
                     "deposit message passing needs %" PRIu64
                     " free PCTs (dep.pcts); this cell has only %" PRIu64,
                     dep_k()->pcts, i);
            return MCE_ERR_RESOURCE;
        }
    d->on = 1;
    return MCE_OK;
}

int mcei_iw_dep_enabled(mcei_vn_t *vn)
{
    return mcei_iw_state() != NULL && dn(vn) != NULL && dn(vn)->on;
}

int mcei_iw_dep_buffer(mcei_vn_t *vn, void *buf, size_t bytes, int *handle,
                       char *why, size_t len)
{
    dep_node_t *d = dn(vn);
    int rc = need_init(d, why, len);
    if (rc != MCE_OK)
        return rc;
    if (d->nbuf == DEP_MAXBUF) {
        snprintf(why, len, "all %d buffer handles are in use", DEP_MAXBUF);
        return MCE_ERR_RESOURCE;
    }
    d->buf[d->nbuf].p = buf;
    d->buf[d->nbuf].bytes = bytes;
    *handle = d->nbuf++;
    return MCE_OK;
}

static int ready_sent(mcei_vn_t *vn, void *arg)
{
    (void)arg;
    return dn(vn)->sent_seen >= dn(vn)->sent_want;
}

int mcei_iw_dep_send(mcei_vn_t *vn, int dst, int handle, size_t offset,
                     const void *data, size_t bytes, char *why, size_t len)
{
    dep_node_t *d = dn(vn);
    uint64_t aux[2];
    mcei_msg_t *m;
    int rc = need_init(d, why, len);
    if (rc != MCE_OK)
        return rc;
    if (dst < 0 || dst >= mcei_nnodes() || dst == vn->id) {
        snprintf(why, len, "no destination cell %d (another cell, 0..%d)", dst,
                 mcei_nnodes() - 1);
        return MCE_ERR_INVAL;
    }
    if (handle < 0 || handle >= DEP_MAXBUF || offset >= (1ull << 47) ||
        bytes == 0 || bytes % 4 != 0) {
        snprintf(why, len,
                 "need a buffer handle, and a positive multiple of 4 bytes");
        return MCE_ERR_INVAL;
    }
    mcei_sync(vn);
    mcei_iw_cpu(vn, dep_k()->send_header);
    aux[0] = MCEI_IW_DEP_PACK(handle, offset);
    aux[1] = 0;
    if (mcei_send(vn, dst, MCEI_CTX_PROTOCOL, MCEI_IW_DEP, data, bytes, aux,
                  &m) != MCE_OK)
        mcei_vn_fatal(vn, "iwarp: out of memory sending a deposit");
    mcei_count_sent(vn, bytes);
    mcei_trace_flow_out(vn, m);
    if (bytes <= 4)
        return MCE_OK; /* the word follows the header: no spool */
    d->sent_want++;
    mcei_iw_cpu(vn, dep_k()->send_spool);
    /* interrupt handlers that ran during the set-up delay the spool */
    mcei_sync(vn);
    aux[1] = 0;
    if (mcei_send(vn, dst, MCEI_CTX_PROTOCOL, MCEI_IW_DEP_GO, NULL, 0, aux,
                  NULL) != MCE_OK)
        mcei_vn_fatal(vn, "iwarp: out of memory starting a send spool");
    mcei_wait(vn, ready_sent, NULL, "iwarp_dep_send",
              "the end of its send spool");
    advance_to(vn, d->sent_t);
    mcei_iw_cpu(vn, dep_k()->send_finish);
    return MCE_OK;
}

static int check_handle(dep_node_t *d, int handle, char *why, size_t len)
{
    int rc = need_init(d, why, len);
    if (rc != MCE_OK)
        return rc;
    if (handle < 0 || handle >= d->nbuf) {
        snprintf(why, len, "no buffer handle %d (%d registered)", handle,
                 d->nbuf);
        return MCE_ERR_INVAL;
    }
    return MCE_OK;
}

typedef struct {
    dep_buf_t *b;
    unsigned n;
    int handle; /* for the deadlock report */
} dwait_t;

/* What iwarp_dep_wait waits for, formatted only for a deadlock report. */
static void dwait_what(const void *arg, char *buf, size_t len)
{
    const dwait_t *w = arg;
    snprintf(buf, len, "%u arrival(s) in buffer %d", w->n, w->handle);
}

static int ready_count(mcei_vn_t *vn, void *arg)
{
    const dwait_t *w = arg;
    (void)vn;
    return w->b->count >= w->n;
}

int mcei_iw_dep_wait(mcei_vn_t *vn, int handle, unsigned count, int rearm,
                     char *why, size_t len)
{
    dep_node_t *d = dn(vn);
    dwait_t w;
    int rc = check_handle(d, handle, why, len);
    if (rc != MCE_OK)
        return rc;
    mcei_sync(vn);
    w.b = &d->buf[handle];
    w.n = count;
    w.handle = handle;
    mcei_wait_for(vn, ready_count, &w, "iwarp_dep_wait", dwait_what, &w);
    advance_to(vn, w.b->last);
    if (rearm && w.b->spooled)
        mcei_iw_cpu(vn, dep_k()->rearm);
    return MCE_OK;
}

int mcei_iw_dep_rearm(mcei_vn_t *vn, int handle, char *why, size_t len)
{
    dep_node_t *d = dn(vn);
    int rc = check_handle(d, handle, why, len);
    if (rc != MCE_OK)
        return rc;
    if (d->buf[handle].spooled)
        mcei_iw_cpu(vn, dep_k()->rearm);
    return MCE_OK;
}

int mcei_iw_dep_count(mcei_vn_t *vn, int handle, unsigned *count, char *why,
                      size_t len)
{
    dep_node_t *d = dn(vn);
    int rc = check_handle(d, handle, why, len);
    if (rc != MCE_OK)
        return rc;
    mcei_sync(vn);
    mcei_iw_cpu(vn, mcei_probe_cost());
    mcei_sync(vn);
    *count = d->buf[handle].count;
    return MCE_OK;
}

/* ---- RTS calls ---------------------------------------------------------- */

int mcei_iw_rts_send(mcei_vn_t *vn, int dst, int type, const void *buf,
                     size_t bytes, char *why, size_t len)
{
    uint64_t aux[2] = {(uint64_t)(uint32_t)type, 0};
    mcei_msg_t *m;
    if (!dep_k()->rts_on) {
        snprintf(why, len, "RTS message passing is off (rts.enable = 0)");
        return MCE_ERR_STATE;
    }
    if (dst < 0 || dst >= mcei_nnodes() || dst == vn->id || type < 0) {
        snprintf(why, len, "need another cell (0..%d) and a non-negative type",
                 mcei_nnodes() - 1);
        return MCE_ERR_INVAL;
    }
    if (bytes > PTRDIFF_MAX) {
        /* no object is that large: a negative length passed as size_t */
        snprintf(why, len, "a length of %zu bytes (more than any buffer)",
                 bytes);
        return MCE_ERR_SIZE;
    }
    mcei_sync(vn);
    mcei_iw_cpu(vn, dep_k()->rts_send);
    if (mcei_send(vn, dst, MCEI_CTX_PROTOCOL, MCEI_IW_RTS, buf, bytes, aux,
                  &m) != MCE_OK)
        mcei_vn_fatal(vn, "iwarp: out of memory sending an RTS message");
    mcei_count_sent(vn, bytes);
    mcei_trace_flow_out(vn, m);
    return MCE_OK;
}

typedef struct {
    int src, type;
    mcei_msg_t *m;
} rwait_t;

static int ready_rts(mcei_vn_t *vn, void *arg)
{
    rwait_t *r = arg;
    for (mcei_msg_t *m = dn(vn)->rts.head; m != NULL; m = m->next)
        if ((r->src < 0 || m->w.src == r->src) &&
            (r->type < 0 || (int)m->w.aux[0] == r->type)) {
            r->m = m;
            return 1;
        }
    return 0;
}

int mcei_iw_rts_recv(mcei_vn_t *vn, int *src, int *type, void *buf, size_t cap,
                     size_t *got, char *why, size_t len)
{
    dep_node_t *d = dn(vn);
    rwait_t r;
    int rc = MCE_OK;
    if (!dep_k()->rts_on) {
        snprintf(why, len, "RTS message passing is off (rts.enable = 0)");
        return MCE_ERR_STATE;
    }
    mcei_sync(vn);
    r.src = src ? *src : -1;
    r.type = type ? *type : -1;
    r.m = NULL;
    mcei_wait(vn, ready_rts, &r, "iwarp_rts_recv", "an RTS message");
    advance_to(vn, (mce_time_t)r.m->w.aux[1]);
    mcei_iw_cpu(vn, dep_k()->rts_wake);
    mcei_msgq_remove(&d->rts, r.m);
    if (src)
        *src = r.m->w.src;
    if (type)
        *type = (int)r.m->w.aux[0];
    *got = r.m->w.size;
    if (r.m->w.size > cap) {
        *got = cap;
        rc = MCE_ERR_TRUNCATE;
    }
    if (*got > 0)
        memcpy(buf, mcei_msg_data(r.m), *got);
    mcei_count_recv(vn, r.m->w.size);
    mcei_trace_flow_in(vn, r.m->w.src, r.m->w.seq);
    mcei_msg_release(r.m);
    return rc;
}
