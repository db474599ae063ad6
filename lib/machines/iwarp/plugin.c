/* The iWarp node protocol's plug-in (lib/machines/registry.c registers
 * its ops table): the machine's costs and each module's constants from
 * the machine file, the cells' records (each module's, then the cell's),
 * the arrivals (the modules', then the cell's). */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../net/iwarp_fluid.h"
#include "../keys.h"
#include "cam.h"
#include "cell.h"
#include "deposit.h"
#include "iwarp.h"
#include "spool.h"
#include "state.h"
#include "video.h"

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

static int iw_init(mcei_engine_t *eng, mcei_machine_t *m, char *err,
                   size_t errlen)
{
    static const struct {
        const char *key;
        size_t off;
    } times[] = {
#define T(k) {"iwarp." #k, offsetof(mcei_iw_costs_t, k)}
        T(gate_op),    T(gate_in),    T(word_time), T(block_send),
        T(block_recv), T(pct_config), T(gate_bind), T(timer_read),
#undef T
    };
    uint64_t w, h, pcts, words, rg, wg, wb, skip;
    mcei_iw_state_t *st = calloc(1, sizeof(*st));
    mcei_iw_costs_t *costs;
    int rc;
    if (st == NULL)
        return MCE_ERR_NOMEM;
    costs = &st->costs;
    if ((rc = mcei_key_time(m, "iwarp.clock", &costs->clock, err, errlen)))
        goto fail;
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(times); i++)
        if ((rc = get_clocks(m, times[i].key, costs->clock,
                             (mce_time_t *)((char *)costs + times[i].off), err,
                             errlen)))
            goto fail;
    if ((rc = mcei_key_u64(m, "iwarp.width", &w, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.height", &h, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.pcts", &pcts, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.pct_words", &words, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.read_gates", &rg, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.write_gates", &wg, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.word_bytes", &wb, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.timer_tick", &costs->timer_tick, err,
                           errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.skip_period", &skip, err, errlen)))
        goto fail;
    if (costs->clock == 0 || costs->gate_op == 0 || costs->word_time == 0 ||
        pcts == 0 || pcts > 255 || words == 0 || words > 1024 || rg != 2 ||
        wg != 2 || wb != 4 || costs->timer_tick == 0 || w * h == 0 ||
        w * h != (uint64_t)eng->nodes) {
        snprintf(err, errlen,
                 "machine '%s': need positive iwarp.clock, gate_op, word_time "
                 "and timer_tick, 1 <= iwarp.pcts <= 255, 1 <= pct_words <= "
                 "1024, 2 read and 2 write gates, 4-byte words and width x "
                 "height = the node count",
                 m->name);
        rc = MCE_ERR_MACHINE;
        goto fail;
    }
    costs->width = (int)w;
    costs->height = (int)h;
    costs->pcts = (int)pcts;
    costs->pct_words = (int)words;
    costs->unit = mcei_iwf_unit(costs->word_time, skip);
    if ((rc = mcei_iw_cam_init(&st->cam, m, costs->width, costs->clock, err,
                               errlen)) ||
        (rc =
             mcei_iw_dep_module_init(&st->dep, m, costs->clock, err, errlen)) ||
        (rc = mcei_iw_spool_module_init(&st->spool, m, costs->clock, err,
                                        errlen)) ||
        (rc = mcei_iw_video_init(&st->video, m, costs->clock, costs->width, err,
                                 errlen)))
        goto fail;
    eng->proto_state = st;
    return MCE_OK;
fail:
    free(st);
    return rc;
}

static void iw_fini(mcei_engine_t *eng)
{
    free(eng->proto_state);
    eng->proto_state = NULL;
}

static int iw_node_init(mcei_vn_t *vn)
{
    if (mcei_iw_cell_node_init(vn) != MCE_OK)
        return MCE_ERR_NOMEM;
    if (mcei_iw_cam_node_init(vn) != MCE_OK ||
        mcei_iw_spool_node_init(vn) != MCE_OK ||
        mcei_iw_video_node_init(vn) != MCE_OK)
        return MCE_ERR_NOMEM;
    return mcei_iw_dep_node_init(vn);
}

static void iw_node_fini(mcei_vn_t *vn)
{
    if (mcei_iw_slots(vn) == NULL)
        return;
    mcei_iw_cam_node_fini(vn);
    mcei_iw_dep_node_fini(vn);
    mcei_iw_spool_node_fini(vn);
    mcei_iw_video_node_fini(vn);
    mcei_iw_cell_node_fini(vn);
}

/* Every message and timer: the modules' (cam.c: the SRU and rings;
 * deposit.c: the deposit system), then the cell's (iwarp.c). */
static void iw_on_arrival(mcei_vn_t *vn, mcei_msg_t *m)
{
    if (mcei_iw_cam_arrival(vn, m) || mcei_iw_dep_arrival(vn, m))
        return;
    mcei_iw_cell_arrival(vn, m);
}

/* The iWarp network's lookahead already holds the gate operations. */
static mce_time_t iw_send_delay(const mcei_engine_t *eng)
{
    (void)eng;
    return 0;
}

const mcei_proto_ops_t mcei_proto_iwarp_ops = {
    .name = MCEI_IW_PROTO_NAME,
    .description = "CMU iWarp cells: PCTs by direct configuration, gates, "
                   "coalesced gate writes",
    .init = iw_init,
    .fini = iw_fini,
    .node_init = iw_node_init,
    .node_fini = iw_node_fini,
    .on_arrival = iw_on_arrival,
    .send_delay = iw_send_delay,
    .keys = &mcei_proto_iwarp_keytab,
    .requires_net = "iwarp",
    .topology = mcei_proto_no_topology,
};
