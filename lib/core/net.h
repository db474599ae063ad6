/* Network model plug-in interface (implemented by lib/net).  The model is
 * replicated: every rank feeds it the same injections in the same order
 * and gets the same arrival times. */
#ifndef MCEI_NET_H
#define MCEI_NET_H

#include "machine.h"
#include "msg.h"
#include "topo.h"

typedef struct mcei_net mcei_net_t;

/* Called by the model for each message it delivers, in (time, source,
 * sequence) order, with the virtual arrival time. */
typedef void (*mcei_net_deliver_fn)(void *ctx, mcei_msg_t *msg,
                                    mce_time_t arrival);
/* Called by a model's commit for a delivery (or sender notice) it hands
 * over before its time: @p arrival is at or after the horizon, and
 * nothing else reaches the message's node before @p until (> arrival). */
typedef void (*mcei_net_commit_fn)(void *ctx, mcei_msg_t *msg,
                                   mce_time_t arrival, mce_time_t until);

typedef struct mcei_net_ops {
    const char *name;
    const char *description;
    /* Read the model's keys from the machine description. */
    int (*init)(mcei_net_t *net, mcei_machine_t *m, char *err, size_t errlen);
    void (*fini)(mcei_net_t *net);
    /* Least virtual time between an injection and its earliest effect
     * (> 0): the conservative synchronisation window. */
    mce_time_t (*lookahead)(const mcei_net_t *net);
    /* Accept a message sent at msg->w.ts; called in (ts, src, seq) order
     * with ts never below the last horizon's window start. */
    int (*inject)(mcei_net_t *net, mcei_msg_t *msg);
    /* Time of the earliest pending event, MCEI_TIME_INF when idle. */
    mce_time_t (*next_event)(const mcei_net_t *net);
    /* Process every event before @p horizon, delivering messages. */
    int (*advance)(mcei_net_t *net, mce_time_t horizon);
    /* Messages injected and not yet delivered. */
    size_t (*in_flight)(const mcei_net_t *net);
    /* Does the model tell senders when their send completes locally (a
     * message of ctx MCEI_CTX_PROTOCOL, type MCEI_NET_SENT, aux[0] = the
     * message's sequence number, delivered to the sender)? */
    int notifies_senders;
    /* Does a message's arrival depend on no other message (no shared
     * resource)?  Then each rank runs the model on the messages to its own
     * nodes alone, and descriptors travel only to their destination's
     * rank.  Such a model must not notify senders. */
    int partitioned;
    /* The earliest event a message sent now will cause (a lower bound;
     * a partitioned model's exact arrival keeps the windows those of one
     * process): mcei_net_first_event_lookahead for replicated models. */
    mce_time_t (*first_event)(const mcei_net_t *net, const mcei_wire_t *w);
    /* The machine-file keys the model reads (never NULL). */
    const mcei_keytab_t *keys;
    /* The interconnect the model's nodes form, for topology placement
     * (called after init); mcei_net_no_topology when it knows none. */
    void (*topology)(const mcei_net_t *net, mcei_topo_t *out);
    /* Committed deliveries (called after advance(@p horizon), with no
     * injection since): hand over through net->committed every delivery
     * or sender notice at or after @p horizon whose time no injection or
     * event to come can change, with the time before which nothing else
     * can reach its node, each once.  Its node may then run beyond the
     * window, and the model must not deliver it again; later injections
     * may then carry send times beyond the horizon, in any order.
     * mcei_net_commit_none for models that commit nothing. */
    int (*commit)(mcei_net_t *net, mce_time_t horizon);
} mcei_net_ops_t;

/* A topology slot for models whose nodes have no neighbourhood (kind
 * MCEI_TOPO_NONE): the protocol may know one. */
void mcei_net_no_topology(const mcei_net_t *net, mcei_topo_t *out);
/* A commit slot for models that hand over nothing ahead of time. */
int mcei_net_commit_none(mcei_net_t *net, mce_time_t horizon);
/* A first_event slot: the send time plus the model's lookahead. */
mce_time_t mcei_net_first_event_lookahead(const mcei_net_t *net,
                                          const mcei_wire_t *w);

/* Type of the sender notification of models with notifies_senders. */
#define MCEI_NET_SENT 0x53454e54

/* Message flags the models read (mcei_wire_t.flags). */
#define MCEI_MSG_FORCED 0x1 /* no PROBE/REQUEST: the receive is posted */
/* On a sender notice: the sender's processor did the whole send (from the
 * call to the notice), so interrupts meanwhile delay its completion. */
#define MCEI_MSG_SENDER_CPU 0x2
/* A program message whose send started a trace flow (the engine's, not
 * read by models): its receive ends the arrow. */
#define MCEI_MSG_FLOW 0x4

/* A message created by a model (e.g. a sender notification); the engine
 * owns it as if injected. */
mcei_msg_t *mcei_msg_from_wire(const mcei_wire_t *w);

struct mcei_net {
    const mcei_net_ops_t *ops;
    void *priv;
    int nodes;
    mcei_net_deliver_fn deliver;
    mcei_net_commit_fn committed; /* same ctx */
    void *deliver_ctx;
};

/* Models are found by name among those registered (lib/core/registry.c);
 * the network layer registers its own (lib/net/registry.c). */
const mcei_net_ops_t *mcei_net_lookup(const char *name);
/* Comma-separated list of known model names, for messages. */
const char *mcei_net_names(void);
/* MCE_OK, or MCE_ERR_INVAL for a name registered twice, MCE_ERR_NOMEM. */
int mcei_register_net(const mcei_net_ops_t *ops);
/* The @p i-th registered model (registration order), NULL past the end. */
const mcei_net_ops_t *mcei_net_at(size_t i);

#endif
