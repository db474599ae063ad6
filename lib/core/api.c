/* The core services of mcemu.h that every personality uses: the node,
 * the machine, virtual time, computation, exit, tracing and statistics.
 * The native personality's messaging (mce_send, mce_recv, mce_probe,
 * mce_iprobe) is lib/api/native/native.c's. */
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"
#include "trace.h"

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
