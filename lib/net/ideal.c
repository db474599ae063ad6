/* The ideal network: arrival = send time + latency + bytes x per_byte, no
 * contention.  Pending messages wait in a heap ordered by (arrival,
 * source, sequence). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "../core/heap.h"
#include "../core/net.h"
#include "keys.h"

typedef struct ideal {
    mce_time_t latency, per_byte;
    mcei_kq_t pending; /* (arrival, source, sequence), keys inline */
} ideal_t;

static int ideal_init(mcei_net_t *net, mcei_machine_t *m, char *err,
                      size_t errlen)
{
    ideal_t *s = calloc(1, sizeof(*s));
    int rc;
    if (s == NULL)
        return MCE_ERR_NOMEM;
    if ((rc = mcei_key_time(m, "latency", &s->latency, err, errlen)) !=
            MCE_OK ||
        (rc = mcei_key_time(m, "per_byte", &s->per_byte, err, errlen)) !=
            MCE_OK) {
        free(s);
        return rc;
    }
    if (s->latency == 0) {
        snprintf(err, errlen,
                 "machine '%s': latency must be positive (it is the engine's "
                 "lookahead)",
                 m->name);
        free(s);
        return MCE_ERR_MACHINE;
    }
    mcei_kq_init(&s->pending);
    net->priv = s;
    return MCE_OK;
}

static void ideal_fini(mcei_net_t *net)
{
    ideal_t *s = net->priv;
    if (s == NULL)
        return;
    mcei_kq_fini(&s->pending);
    free(s);
    net->priv = NULL;
}

static mce_time_t ideal_lookahead(const mcei_net_t *net)
{
    const ideal_t *s = net->priv;
    return s->latency;
}

/* Arrival time of @p bytes sent at @p ts (exported for tests and tools). */
int mcei_net_ideal_arrival(mce_time_t latency, mce_time_t per_byte,
                           mce_time_t ts, uint64_t bytes, mce_time_t *out);
int mcei_net_ideal_arrival(mce_time_t latency, mce_time_t per_byte,
                           mce_time_t ts, uint64_t bytes, mce_time_t *out)
{
    mce_time_t wire, t;
    if (mcei_time_mul(per_byte, bytes, &wire) != MCE_OK ||
        mcei_time_add(ts, latency, &t) != MCE_OK ||
        mcei_time_add(t, wire, &t) != MCE_OK)
        return MCE_ERR_OVERFLOW;
    *out = t;
    return MCE_OK;
}

/* A message's one event is its arrival, known at its send. */
static mce_time_t ideal_first_event(const mcei_net_t *net,
                                    const mcei_wire_t *w)
{
    const ideal_t *s = net->priv;
    mce_time_t a;
    if (mcei_net_ideal_arrival(s->latency, s->per_byte, w->ts, w->size, &a) !=
        MCE_OK)
        return MCEI_TIME_INF;
    return a;
}

static int ideal_inject(mcei_net_t *net, mcei_msg_t *msg)
{
    ideal_t *s = net->priv;
    mce_time_t a;
    int rc = mcei_net_ideal_arrival(s->latency, s->per_byte, msg->w.ts,
                                    msg->w.size, &a);
    if (rc != MCE_OK)
        return rc;
    msg->arrival = a;
    /* the order of mcei_order_less; sources are never negative */
    return mcei_kq_push(&s->pending, a, (uint64_t)msg->w.src, msg->w.seq, msg);
}

static mce_time_t ideal_next_event(const mcei_net_t *net)
{
    ideal_t *s = net->priv; /* the queue settles its staged entries */
    const mcei_kentry_t *e = mcei_kq_top(&s->pending);
    return e ? e->k0 : MCEI_TIME_INF;
}

static int ideal_advance(mcei_net_t *net, mce_time_t horizon)
{
    ideal_t *s = net->priv;
    const mcei_kentry_t *e;
    while ((e = mcei_kq_top(&s->pending)) != NULL && e->k0 < horizon) {
        mcei_msg_t *m = e->item;
        mcei_kq_pop(&s->pending);
        net->deliver(net->deliver_ctx, m, m->arrival);
    }
    return MCE_OK;
}

static size_t ideal_in_flight(const mcei_net_t *net)
{
    const ideal_t *s = net->priv;
    return mcei_kq_count(&s->pending);
}

const mcei_net_ops_t mcei_net_ideal_ops = {
    .name = "ideal",
    .description = "latency + bytes x per_byte, no contention",
    .init = ideal_init,
    .fini = ideal_fini,
    .lookahead = ideal_lookahead,
    .inject = ideal_inject,
    .next_event = ideal_next_event,
    .advance = ideal_advance,
    .in_flight = ideal_in_flight,
    .notifies_senders = 0,
    .partitioned = 1,
    .first_event = ideal_first_event,
    .keys = &mcei_net_ideal_keytab,
    .topology = mcei_net_no_topology,
    .commit = mcei_net_commit_none,
};
