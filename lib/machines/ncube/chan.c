/* Standard Vertex channel handshake state machine. */
#include "chan.h"

void mcei_ncube_chan_init(mcei_ncube_chan_t *c)
{
    c->state = MCEI_VX_IDLE;
    c->current = c->head = c->tail = NULL;
    c->queued = 0;
    c->free_at = 0;
    c->held = 0;
    c->deferred = MCEI_VX_NONE;
}

/* Start @p a now, or keep it for mcei_ncube_chan_release if held. */
static mcei_ncube_action_t gate(mcei_ncube_chan_t *c, mcei_ncube_action_t a)
{
    if (!c->held || a == MCEI_VX_NONE)
        return a;
    c->deferred = a;
    return MCEI_VX_NONE;
}

static mcei_ncube_action_t start_next(mcei_ncube_chan_t *c)
{
    mcei_ncube_item_t *it = c->head;
    if (it == NULL) {
        c->state = MCEI_VX_IDLE;
        c->current = NULL;
        return MCEI_VX_NONE;
    }
    c->head = it->next;
    if (c->head == NULL)
        c->tail = NULL;
    it->next = NULL;
    c->queued--;
    c->current = it;
    c->state = MCEI_VX_AWAIT_ACK;
    return MCEI_VX_SEND_LEN;
}

mcei_ncube_action_t mcei_ncube_chan_submit(mcei_ncube_chan_t *c,
                                           mcei_ncube_item_t *it)
{
    it->next = NULL;
    if (c->tail)
        c->tail->next = it;
    else
        c->head = it;
    c->tail = it;
    c->queued++;
    if (c->state != MCEI_VX_IDLE)
        return MCEI_VX_NONE; /* queued behind the message in progress */
    return gate(c, start_next(c));
}

mcei_ncube_action_t mcei_ncube_chan_ack(mcei_ncube_chan_t *c, int *bad)
{
    if (c->state != MCEI_VX_AWAIT_ACK) {
        *bad = 1;
        return MCEI_VX_NONE;
    }
    *bad = 0;
    c->state = MCEI_VX_DMA;
    return gate(c, MCEI_VX_START_DMA);
}

mcei_ncube_action_t mcei_ncube_chan_dma_done(mcei_ncube_chan_t *c,
                                             mcei_ncube_item_t **done, int *bad)
{
    if (c->state != MCEI_VX_DMA) {
        *bad = 1;
        return MCEI_VX_NONE;
    }
    *bad = 0;
    *done = c->current;
    return gate(c, start_next(c));
}

void mcei_ncube_chan_hold(mcei_ncube_chan_t *c)
{
    c->held = 1;
}

mcei_ncube_action_t mcei_ncube_chan_release(mcei_ncube_chan_t *c)
{
    mcei_ncube_action_t a = c->deferred;
    c->held = 0;
    c->deferred = MCEI_VX_NONE;
    return a;
}

mce_time_t mcei_ncube_chan_wire(mcei_ncube_chan_t *c, mce_time_t t,
                                mce_time_t dur)
{
    mce_time_t start = t > c->free_at ? t : c->free_at;
    if (mcei_time_add(start, dur, &c->free_at) != MCE_OK)
        c->free_at =
            MCEI_TIME_INF - 1; /* saturate: the clock check fails later */
    return start;
}
