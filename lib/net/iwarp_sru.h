/* The iWarp System Reporting Unit bus and the anonymous-destination ring
 * (doc/design/iwarp-tcs.md, section 7): message kinds shared by the
 * network model (lib/net/iwarp_sru.c) and the node protocol
 * (lib/machines/iwarp/cam.c), and the model's entry points called by
 * lib/net/iwarp.c. */
#ifndef MCEI_NET_IWARP_SRU_H
#define MCEI_NET_IWARP_SRU_H

#include <stddef.h>
#include <stdint.h>

#include "../core/net.h"

enum {
    /* node -> model (dst = the cell itself), consumed by the model:
     * aux[0] = the 32-bit word, aux[1] = the attempt (0 first). */
    MCEI_IW_SRU = 0x49570010,
    /* model -> every cell at the end of a message on the bus: aux[0] =
     * the word (wired-OR of the colliding words when jammed), aux[1] =
     * MCEI_IW_SRU_JAM | MCEI_IW_SRU_DONE (the cell's own request). */
    MCEI_IW_SRU_WORD = 0x49570011,
    /* node -> model -> ring successor: one express hop of a ring message;
     * aux[0] = header, aux[1] = the sending cell; payload = the words. */
    MCEI_IW_RING = 0x49570012
};

#define MCEI_IW_SRU_JAM  0x1
#define MCEI_IW_SRU_DONE 0x2

/* Ring position <-> cell: the boustrophedon snake through the rows. */
static inline int mcei_iw_ring_cell(int pos, int width)
{
    int y = pos / width, x = pos % width;
    return y * width + (y % 2 ? width - 1 - x : x);
}
static inline int mcei_iw_ring_pos(int cell, int width)
{
    int y = cell / width, x = cell % width;
    return y * width + (y % 2 ? width - 1 - x : x);
}

typedef struct mcei_iwsru mcei_iwsru_t;

int mcei_iwsru_init(mcei_iwsru_t **out, mcei_machine_t *m, int cells,
                    mce_time_t clock, mce_time_t lookahead, char *err,
                    size_t errlen);
void mcei_iwsru_fini(mcei_iwsru_t *s);
/* 1: the message was one of this module's kinds (handled), 0: not,
 * < 0: an error. */
int mcei_iwsru_inject(mcei_iwsru_t *s, mcei_msg_t *m);
mce_time_t mcei_iwsru_next_event(const mcei_iwsru_t *s);
int mcei_iwsru_advance(mcei_iwsru_t *s, mcei_net_t *net, mce_time_t horizon);
size_t mcei_iwsru_in_flight(const mcei_iwsru_t *s);

#endif
