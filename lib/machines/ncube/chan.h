/* One outgoing DMA channel of an NCUBE node under standard Vertex: the
 * three-way handshake as a state machine (Mudge et al. 1987, Figure 1).
 * A message waits for the channel, sends its 2-byte length (step 4),
 * waits for the acknowledgement (step 6), transfers (step 7), and the
 * end-of-DMA interrupt frees the channel for the next queued message.
 * The wire itself is shared by lengths, acknowledgements and data in
 * transmission order (free_at).
 *
 * The channel is also the one on which this node acknowledges the
 * neighbour's length requests.  While such an acknowledgement is
 * postponed for want of a buffer (Figure 1, "at 5 for remote buffer"),
 * the channel is held: section 3 of the paper names "the loss of the use
 * of the channel from the receiving node to the sending node" until the
 * acknowledgement is back, so no length request or data transfer of this
 * node may start on it; the action that would have started is deferred
 * and handed back by mcei_ncube_chan_release(). */
#ifndef MCEI_VX_CHAN_H
#define MCEI_VX_CHAN_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/mcei.h"

typedef enum mcei_ncube_chan_state {
    MCEI_VX_IDLE = 0,      /* no message in the handshake */
    MCEI_VX_AWAIT_ACK = 1, /* length sent, waiting for the acknowledgement */
    MCEI_VX_DMA = 2        /* data transfer in progress */
} mcei_ncube_chan_state_t;

typedef enum mcei_ncube_action {
    MCEI_VX_NONE = 0,
    MCEI_VX_SEND_LEN = 1, /* send the length request of chan->current */
    MCEI_VX_START_DMA = 2 /* transfer chan->current */
} mcei_ncube_action_t;

typedef struct mcei_ncube_item mcei_ncube_item_t;
struct mcei_ncube_item {
    mcei_ncube_item_t *next;
    void *data; /* owned by the protocol */
};

typedef struct mcei_ncube_chan {
    mcei_ncube_chan_state_t state;
    mcei_ncube_item_t *current;
    mcei_ncube_item_t *head, *tail; /* waiting for the channel */
    size_t queued;
    mce_time_t free_at;           /* wire busy until */
    int held;                     /* an acknowledgement owed is postponed */
    mcei_ncube_action_t deferred; /* what could not start while held */
} mcei_ncube_chan_t;

void mcei_ncube_chan_init(mcei_ncube_chan_t *c);
/* A message wants the channel (MCEI_VX_NONE if queued or held). */
mcei_ncube_action_t mcei_ncube_chan_submit(mcei_ncube_chan_t *c,
                                           mcei_ncube_item_t *it);
/* The acknowledgement arrived; MCEI_VX_NONE (and *bad set) if none was
 * expected, MCEI_VX_NONE with *bad clear if the channel is held (the
 * transfer is deferred). */
mcei_ncube_action_t mcei_ncube_chan_ack(mcei_ncube_chan_t *c, int *bad);
/* The end-of-DMA interrupt: *done is the finished message; the next one,
 * if any, becomes current. */
mcei_ncube_action_t mcei_ncube_chan_dma_done(mcei_ncube_chan_t *c,
                                             mcei_ncube_item_t **done,
                                             int *bad);
/* An acknowledgement owed on this channel is postponed: hold it. */
void mcei_ncube_chan_hold(mcei_ncube_chan_t *c);
/* The postponed acknowledgement goes out: the channel is free again;
 * returns the action deferred while it was held (MCEI_VX_NONE if none),
 * to be carried out after the acknowledgement. */
mcei_ncube_action_t mcei_ncube_chan_release(mcei_ncube_chan_t *c);
/* Reserve the wire for @p dur from @p t at the earliest; returns start. */
mce_time_t mcei_ncube_chan_wire(mcei_ncube_chan_t *c, mce_time_t t,
                                mce_time_t dur);

#endif
