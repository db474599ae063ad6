/* The native personality's messaging (mcemu.h): mce_send, mce_recv,
 * mce_probe and mce_iprobe in the user context, on the core's services
 * (lib/core/engine.h).  The services every personality shares (mce_node,
 * mce_now, mce_compute, tracing, ...) are the core's (lib/core/api.c). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../../core/engine.h"
#include "../../core/trace.h"

/* Wait condition of mce_recv/mce_probe: a matching message in the inbox. */
typedef struct match_arg {
    int src;
    int64_t type;
    uint32_t ctx;
} match_arg_t;

static int match_ready(mcei_vn_t *vn, void *arg)
{
    match_arg_t *a = arg;
    return mcei_match(vn, a->src, a->type, a->ctx) != NULL;
}

/* The deadlock report's "what": formatted only if one is reported. */
static void describe(const void *arg, char *buf, size_t len)
{
    const match_arg_t *a = arg;
    char s[24], t[24];
    if (a->src < 0)
        snprintf(s, sizeof(s), "any");
    else
        snprintf(s, sizeof(s), "%d", a->src);
    if (a->type < 0)
        snprintf(t, sizeof(t), "any");
    else
        snprintf(t, sizeof(t), "%" PRId64, a->type);
    snprintf(buf, len, "a message from node %s of type %s", s, t);
}

static int check_selectors(int src, long type)
{
    if (src < MCE_ANY_SOURCE || src >= mcei_nnodes())
        return MCE_ERR_NODE;
    if (type < MCE_ANY_TYPE || type > MCE_TYPE_MAX)
        return MCE_ERR_TYPE;
    return MCE_OK;
}

static void fill_info(const mcei_msg_t *m, mce_msg_info_t *info)
{
    if (info == NULL)
        return;
    info->source = m->w.src;
    info->type = (long)m->w.type;
    info->bytes = m->w.size;
    info->sent = m->w.ts;
    info->arrived = m->arrival;
}

MCE_EXPORT int mce_send(int dest, long type, const void *buf, size_t bytes)
{
    mcei_vn_t *vn = mcei_enter();
    mcei_msg_t *m;
    mce_time_t t0;
    int rc;
    if (vn == NULL)
        return MCE_ERR_NOT_IN_NODE;
    if (mcei_send_delay() > 0) {
        /* The personality sends through its machine protocol only (a
         * Vertex program: nwrite); a raw message would break the windows'
         * send delay. */
        rc = MCE_ERR_STATE;
        goto out;
    }
    if (dest < 0 || dest >= mcei_nnodes()) {
        rc = MCE_ERR_NODE;
        goto out;
    }
    if (type < 0 || type > MCE_TYPE_MAX) {
        rc = MCE_ERR_TYPE;
        goto out;
    }
    if (bytes > 0 && buf == NULL) {
        rc = MCE_ERR_INVAL;
        goto out;
    }
    mcei_sync(vn);
    t0 = vn->clock;
    rc = mcei_send(vn, dest, MCEI_CTX_USER, type, buf, bytes, NULL, &m);
    if (rc != MCE_OK)
        goto out;
    mcei_charge_comm(vn, mcei_send_overhead());
    mcei_trace_send(vn, m, t0, vn->clock);
out:
    mcei_leave(vn);
    return rc;
}

/* Shared body of mce_recv and mce_probe. */
static int recv_common(int source, long type, void *buf, size_t cap,
                       mce_msg_info_t *info, int consume, const char *call)
{
    mcei_vn_t *vn = mcei_enter();
    match_arg_t arg = {.src = source, .type = type, .ctx = MCEI_CTX_USER};
    mcei_msg_t *m;
    mce_time_t t0;
    int rc;

    if (vn == NULL)
        return MCE_ERR_NOT_IN_NODE;
    if ((rc = check_selectors(source, type)) != MCE_OK)
        goto out;
    if (consume && cap > 0 && buf == NULL) {
        rc = MCE_ERR_INVAL;
        goto out;
    }
    mcei_sync(vn);
    t0 = vn->clock;
    mcei_wait_for(vn, match_ready, &arg, call, describe, &arg);
    m = mcei_match(vn, source, type, MCEI_CTX_USER);
    if (consume && m->w.size > cap) {
        rc = MCE_ERR_TRUNCATE;
        goto out;
    }
    fill_info(m, info);
    if (consume) {
        if (m->w.size > 0)
            mcei_msg_copy(m, buf, m->w.size);
        mcei_charge_comm(vn, mcei_recv_overhead());
        mcei_trace_recv(vn, m, call, t0, vn->clock);
        mcei_consume(vn, m);
    } else {
        mcei_charge_comm(vn, mcei_probe_cost());
    }
out:
    mcei_leave(vn);
    return rc;
}

MCE_EXPORT int mce_recv(int source, long type, void *buf, size_t cap,
                        mce_msg_info_t *info)
{
    return recv_common(source, type, buf, cap, info, 1, "mce_recv");
}

MCE_EXPORT int mce_probe(int source, long type, mce_msg_info_t *info)
{
    return recv_common(source, type, NULL, 0, info, 0, "mce_probe");
}

MCE_EXPORT int mce_iprobe(int source, long type, int *flag,
                          mce_msg_info_t *info)
{
    mcei_vn_t *vn = mcei_enter();
    mcei_msg_t *m;
    int rc;
    if (vn == NULL)
        return MCE_ERR_NOT_IN_NODE;
    if (flag == NULL) {
        rc = MCE_ERR_INVAL;
        goto out;
    }
    if ((rc = check_selectors(source, type)) != MCE_OK)
        goto out;
    mcei_poll_begin(vn, "mce_iprobe");
    mcei_sync(vn);
    m = mcei_match(vn, source, type, MCEI_CTX_USER);
    fill_info(m ? m : NULL, m ? info : NULL);
    *flag = m != NULL;
    /* Charged every call: a polling loop always advances. */
    mcei_charge_comm(vn, mcei_probe_cost());
    mcei_poll_end(vn);
out:
    mcei_leave(vn);
    return rc;
}
