/* One outgoing DMA channel of an NCUBE node under standard Vertex: the
 * three-way handshake as a state machine (Mudge et al. 1987, Figure 1).
 * A message waits for the channel, sends its 2-byte length (step 4),
 * waits for the acknowledgement (step 6), transfers (step 7), and the
 * end-of-DMA interrupt frees the channel for the next queued message.
 * The wire itself is shared by lengths, acknowledgements and data in
 * transmission order (free_at). */
#ifndef MCEI_VX_CHAN_H
#define MCEI_VX_CHAN_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/mcei.h"

typedef enum mcei_vx_chan_state {
    MCEI_VX_IDLE = 0,      /* no message in the handshake */
    MCEI_VX_AWAIT_ACK = 1, /* length sent, waiting for the acknowledgement */
    MCEI_VX_DMA = 2        /* data transfer in progress */
} mcei_vx_chan_state_t;

typedef enum mcei_vx_action {
    MCEI_VX_NONE = 0,
    MCEI_VX_SEND_LEN = 1, /* send the length request of chan->current */
    MCEI_VX_START_DMA = 2 /* transfer chan->current */
} mcei_vx_action_t;

typedef struct mcei_vx_item mcei_vx_item_t;
struct mcei_vx_item {
    mcei_vx_item_t *next;
    void *data; /* owned by the protocol */
};

typedef struct mcei_vx_chan {
    mcei_vx_chan_state_t state;
    mcei_vx_item_t *current;
    mcei_vx_item_t *head, *tail; /* waiting for the channel */
    size_t queued;
    mce_time_t free_at; /* wire busy until */
} mcei_vx_chan_t;

void mcei_vx_chan_init(mcei_vx_chan_t *c);
/* A message wants the channel. */
mcei_vx_action_t mcei_vx_chan_submit(mcei_vx_chan_t *c, mcei_vx_item_t *it);
/* The acknowledgement arrived; MCEI_VX_NONE (and *bad set) if none was
 * expected. */
mcei_vx_action_t mcei_vx_chan_ack(mcei_vx_chan_t *c, int *bad);
/* The end-of-DMA interrupt: *done is the finished message; the next one,
 * if any, becomes current. */
mcei_vx_action_t mcei_vx_chan_dma_done(mcei_vx_chan_t *c, mcei_vx_item_t **done,
                                       int *bad);
/* Reserve the wire for @p dur from @p t at the earliest; returns start. */
mce_time_t mcei_vx_chan_wire(mcei_vx_chan_t *c, mce_time_t t, mce_time_t dur);

#endif
