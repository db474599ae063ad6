/* The native protocol: the network model's arrivals are the messages;
 * nothing happens on a node but queueing them for mce_recv. */
#include "../core/engine.h"

static int native_init(mcei_engine_t *eng, mcei_machine_t *m, char *err,
                       size_t errlen)
{
    (void)eng;
    (void)m;
    (void)err;
    (void)errlen;
    return MCE_OK;
}

static void native_fini(mcei_engine_t *eng)
{
    (void)eng;
}

static int native_node_init(mcei_vn_t *vn)
{
    (void)vn;
    return MCE_OK;
}

static void native_node_fini(mcei_vn_t *vn)
{
    (void)vn;
}

static void native_on_arrival(mcei_vn_t *vn, mcei_msg_t *m)
{
    mcei_msgq_push(&vn->inbox, m);
}

/* Messages leave at the start of mce_send. */
static mce_time_t native_send_delay(const mcei_engine_t *eng)
{
    (void)eng;
    return 0;
}

const mcei_proto_ops_t mcei_proto_native_ops = {
    .name = "native",
    .description = "arrivals are queued for mce_recv as they are",
    .init = native_init,
    .fini = native_fini,
    .node_init = native_node_init,
    .node_fini = native_node_fini,
    .on_arrival = native_on_arrival,
    .send_delay = native_send_delay,
    .keys = &mcei_keys_none,
    .requires_net = MCEI_ANY_NET,
    .topology = mcei_proto_no_topology,
};
