/* Message descriptors as the engine, the transport and the network models
 * see them. */
#ifndef MCEI_MSG_H
#define MCEI_MSG_H

#include "mcei.h"

/* Payloads up to this size travel inside the descriptor. */
#define MCEI_INLINE 32

/* Communication contexts keep personalities' internal traffic apart. */
enum {
    MCEI_CTX_USER = 0,     /* native and personality user messages */
    MCEI_CTX_SYSTEM = 1,   /* collectives and system messages */
    MCEI_CTX_PROTOCOL = 2, /* machine protocol control (PROBE, ACK, ...) */
    MCEI_CTX_TIMER = 3     /* node-local timer (never crosses the network) */
};

/* Fixed-size descriptor exchanged between ranks. */
typedef struct mcei_wire {
    mce_time_t ts; /* virtual send time */
    uint64_t seq;  /* per-source-node send sequence */
    uint64_t size; /* payload bytes */
    int64_t type;
    int32_t src, dst;
    uint32_t ctx;
    uint32_t flags;
    uint64_t aux[2]; /* for machine protocols */
    uint64_t flow;   /* trace arrow of a program message a protocol
                        carries (MCEI_FLOW_PROTO | n), else 0 */
    uint8_t data[MCEI_INLINE];
} mcei_wire_t;

typedef struct mcei_msg mcei_msg_t;
struct mcei_msg {
    mcei_wire_t w;
    mce_time_t arrival;
    void *payload; /* NULL when size <= MCEI_INLINE */
    /* A payload still in the sending rank's memory (the shared-memory
     * exchange): its address there, read once delivered (by its receive,
     * on first look, or before the next exchange); 0 otherwise. */
    uint64_t raddr;
    int32_t rrank;
    /* Its place + 1 in the engine's list of payloads to read before the
     * next window exchange (delivered, not yet read); 0, as in a zeroed
     * message: not listed. */
    int32_t unread_slot;
    mcei_msg_t *prev, *next; /* queue links */
    void *net_state;         /* owned by the network model */
    void *cookie;            /* owned by the machine protocol (local) */
};

/* Reads a delivered payload that is still in another rank's memory into
 * a buffer of the message's own (fatal if the kernel refuses). */
const void *mcei_msg_fetch(mcei_msg_t *m);

static inline const void *mcei_msg_data(const mcei_msg_t *m)
{
    if (m->w.size <= MCEI_INLINE)
        return m->w.data;
    /* Read on first look: the message's contents do not change, only
     * where they are held, so a const message may be fetched. */
    if (m->raddr != 0)
        return mcei_msg_fetch((mcei_msg_t *)(uintptr_t)m);
    return m->payload;
}

/* Copy the first @p n bytes of @p m's payload to @p dst: a payload still
 * in another rank's memory goes straight there, in one copy. */
void mcei_msg_copy(const mcei_msg_t *m, void *dst, size_t n);

/* (time, source, sequence): the fixed tie-break of the contract. */
static inline int mcei_order_less(mce_time_t ta, const mcei_wire_t *a,
                                  mce_time_t tb, const mcei_wire_t *b)
{
    if (ta != tb)
        return ta < tb;
    if (a->src != b->src)
        return a->src < b->src;
    return a->seq < b->seq;
}

#endif
