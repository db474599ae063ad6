/* The native API of mcemu.h, on the engine's services. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "trace.h"

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
    if (src < MCE_ANY_SOURCE || src >= mce_nodes())
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

MCE_EXPORT int mce_node(void)
{
    mcei_vn_t *vn = mcei_eng ? mcei_eng->current : NULL;
    return vn ? vn->id : -1;
}

MCE_EXPORT int mce_nodes(void)
{
    return mcei_eng ? mcei_eng->nodes : 0;
}

MCE_EXPORT const char *mce_machine_name(void)
{
    return mcei_eng && mcei_eng->machine.name ? mcei_eng->machine.name : "";
}

MCE_EXPORT uint64_t mce_seed(void)
{
    return mcei_eng ? mcei_eng->cfg.seed : 1;
}

MCE_EXPORT mce_time_t mce_now(void)
{
    mcei_vn_t *vn = mcei_enter();
    mce_time_t t;
    if (vn == NULL)
        return 0;
    mcei_free_clock_read(vn, "mce_now", mcei_charge_comm,
                         mcei_eng->costs.probe_cost);
    t = vn->clock;
    mcei_leave(vn);
    return t;
}

MCE_EXPORT double mce_wtime(void)
{
    return (double)mce_now() / (double)MCE_S;
}

MCE_EXPORT mce_compute_mode_t mce_compute_mode(void)
{
    return mcei_eng ? mcei_eng->cfg.compute : MCE_COMPUTE_EXPLICIT;
}

MCE_EXPORT int mce_compute(mce_time_t ps)
{
    mcei_vn_t *vn = mcei_enter();
    if (vn == NULL)
        return MCE_ERR_NOT_IN_NODE;
    if (mcei_eng->cfg.compute != MCE_COMPUTE_NONE) {
        mce_time_t c;
        if (mcei_time_add(vn->clock, ps, &c) != MCE_OK) {
            mcei_leave(vn);
            return MCE_ERR_OVERFLOW;
        }
        (void)c; /* overflow checked above: a status, not a fatal error */
        mcei_charge_compute(vn, ps);
    }
    mcei_leave(vn);
    return MCE_OK;
}

MCE_EXPORT int mce_compute_cycles(uint64_t cycles)
{
    mce_time_t t;
    if (mcei_eng == NULL || mcei_eng->current == NULL)
        return MCE_ERR_NOT_IN_NODE;
    if (mcei_time_mul(mcei_eng->costs.cycle_time, cycles, &t) != MCE_OK)
        return MCE_ERR_OVERFLOW;
    return mce_compute(t);
}

MCE_EXPORT int mce_send(int dest, long type, const void *buf, size_t bytes)
{
    mcei_vn_t *vn = mcei_enter();
    mcei_msg_t *m;
    mce_time_t t0;
    int rc;
    if (vn == NULL)
        return MCE_ERR_NOT_IN_NODE;
    if (mcei_eng->send_delay > 0) {
        /* The personality sends through its machine protocol only (a
         * Vertex program: nwrite); a raw message would break the windows'
         * send delay. */
        rc = MCE_ERR_STATE;
        goto out;
    }
    if (dest < 0 || dest >= mcei_eng->nodes) {
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
    mcei_charge_comm(vn, mcei_eng->costs.send_overhead);
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
            memcpy(buf, mcei_msg_data(m), m->w.size);
        mcei_charge_comm(vn, mcei_eng->costs.recv_overhead);
        mcei_trace_recv(vn, m, call, t0, vn->clock);
        mcei_consume(vn, m);
    } else {
        mcei_charge_comm(vn, mcei_eng->costs.probe_cost);
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
    mcei_charge_comm(vn, mcei_eng->costs.probe_cost);
    mcei_poll_end(vn);
out:
    mcei_leave(vn);
    return rc;
}

MCE_EXPORT void mce_exit(int status)
{
    mcei_vn_t *vn = mcei_enter();
    if (vn == NULL) {
        fflush(NULL);
        _Exit(status);
    }
    mcei_vn_exit(vn, status);
}

MCE_EXPORT int mce_trace_enable(int on)
{
    mcei_vn_t *vn = mcei_enter();
    if (vn == NULL)
        return MCE_ERR_NOT_IN_NODE;
    vn->trace_on = on != 0;
    mcei_leave(vn);
    return MCE_OK;
}

MCE_EXPORT int mce_trace_mark(const char *name)
{
    mcei_vn_t *vn = mcei_enter();
    if (vn == NULL)
        return MCE_ERR_NOT_IN_NODE;
    if (name == NULL) {
        mcei_leave(vn);
        return MCE_ERR_INVAL;
    }
    mcei_trace_instant(vn, name, vn->clock);
    mcei_leave(vn);
    return MCE_OK;
}

MCE_EXPORT int mce_trace_begin(const char *name)
{
    mcei_vn_t *vn = mcei_enter();
    if (vn == NULL)
        return MCE_ERR_NOT_IN_NODE;
    if (name == NULL) {
        mcei_leave(vn);
        return MCE_ERR_INVAL;
    }
    vn->trace_depth++;
    mcei_trace_edge(vn, name, 1, vn->clock);
    mcei_leave(vn);
    return MCE_OK;
}

MCE_EXPORT int mce_trace_end(void)
{
    mcei_vn_t *vn = mcei_enter();
    int rc = MCE_OK;
    if (vn == NULL)
        return MCE_ERR_NOT_IN_NODE;
    if (vn->trace_depth == 0)
        rc = MCE_ERR_STATE;
    else {
        vn->trace_depth--;
        mcei_trace_edge(vn, NULL, 0, vn->clock);
    }
    mcei_leave(vn);
    return rc;
}

MCE_EXPORT int mce_machine_param(const char *key, int64_t *value)
{
    mcei_kv_t *kv;
    uint64_t v;
    int rc, rc2;
    if (mcei_eng == NULL)
        return MCE_ERR_STATE;
    if (key == NULL || value == NULL)
        return MCE_ERR_INVAL;
    if ((kv = mcei_kv_find(&mcei_eng->machine.kv, key)) == NULL)
        return MCE_ERR_NOT_FOUND;
    /* Unitless integers as written; anything with a unit as a time. */
    if ((rc = mcei_parse_u64(kv->value, &v)) != MCE_OK &&
        (rc2 = mcei_time_parse(kv->value, MCE_US, &v)) != MCE_OK)
        /* Too large as either reading: an overflow, not a typo. */
        return rc == MCE_ERR_OVERFLOW || rc2 == MCE_ERR_OVERFLOW
                   ? MCE_ERR_OVERFLOW
                   : MCE_ERR_INVAL;
    if (v > INT64_MAX)
        return MCE_ERR_OVERFLOW;
    *value = (int64_t)v;
    return MCE_OK;
}

MCE_EXPORT int mce_stats(mce_node_stats_t *stats)
{
    mcei_vn_t *vn = mcei_enter();
    if (vn == NULL)
        return MCE_ERR_NOT_IN_NODE;
    if (stats == NULL) {
        mcei_leave(vn);
        return MCE_ERR_INVAL;
    }
    stats->now = vn->clock;
    stats->compute = vn->t_compute;
    stats->comm = vn->t_comm;
    stats->wait = vn->t_wait;
    stats->stolen = vn->t_stolen;
    stats->sent = vn->nsent;
    stats->received = vn->nrecv;
    mcei_leave(vn);
    return MCE_OK;
}
