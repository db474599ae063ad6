/* iWarp deposit and RTS message passing (doc/design/iwarp-tcs.md, sections
 * 4 and 5): message kinds shared by the network model (lib/net/iwarp_dep.c)
 * and the node protocol (lib/machines/iwarp/deposit.c), and the model's
 * entry points called by lib/net/iwarp.c. */
#ifndef MCEI_NET_IWARP_DEP_H
#define MCEI_NET_IWARP_DEP_H

#include <stddef.h>
#include <stdint.h>

#include "../core/net.h"

enum {
    /* node -> model -> destination: a deposit (header then data).  Sent
     * at the end of the sender's dep.send_header; aux[0] = buffer handle |
     * offset << 16; payload = the data.  Delivered when the receive
     * handler starts (receive spool acquired; aux[1] = 0: the data
     * follows, MCEI_IW_DEP_DRAIN) or, 4-byte, when the word is there
     * (aux[1] = that time, ps). */
    MCEI_IW_DEP = 0x49570020,
    /* model -> sender: its spool has sent the last word (aux[1] = time) */
    MCEI_IW_DEP_SENT = 0x49570021,
    /* node -> model -> destination: an RTS message (after rts.send_call);
     * aux[0] = the program's type.  Delivered when it has arrived. */
    MCEI_IW_RTS = 0x49570022,
    /* destination -> model -> source: the acknowledgement */
    MCEI_IW_RTS_ACK = 0x49570023,
    /* source -> model (consumed): re-inject the token (dst = self) */
    MCEI_IW_RTS_REL = 0x49570024,
    /* sender -> model (consumed): its spool starts now, at the end of its
     * dep.send_spool set-up (later when an interrupt handler ran during
     * it); dst = the deposit's destination */
    MCEI_IW_DEP_GO = 0x49570025,
    /* destination -> model (consumed): its receive handler ended now
     * (dep.recv_irq, later when delayed or stretched); dst = self */
    MCEI_IW_DEP_READY = 0x49570026,
    /* model -> destination: the deposit's last word is in memory (aux[1] =
     * that time, ps): the end-of-data handler runs */
    MCEI_IW_DEP_DRAIN = 0x49570027
};

#define MCEI_IW_DEP_PACK(h, off) ((uint64_t)(h) | (uint64_t)(off) << 16)
#define MCEI_IW_DEP_HANDLE(a)    ((int)((a)&0xffff))
#define MCEI_IW_DEP_OFFSET(a)    ((size_t)((a) >> 16))

/* The RTS ring (section 5): the snake of section 6.3 (row 0 left to right,
 * rows 1 .. H-1 boustrophedon over columns 1 .. W-1, back up column 0)
 * with the host-interface cell between (0,1) and (0,0).  Position of a
 * cell 0 .. W*H-1; the host is position W*H. */
static inline int mcei_iw_rts_pos(int cell, int width, int height)
{
    int x = cell % width, y = cell / width;
    if (y == 0)
        return x;
    if (x == 0)
        return width + (height - 1) * (width - 1) + (height - 1 - y);
    return width + (y - 1) * (width - 1) + (y % 2 ? width - 1 - x : x - 1);
}

typedef struct mcei_iwdep mcei_iwdep_t;

int mcei_iwdep_init(mcei_iwdep_t **out, mcei_machine_t *m, int cells,
                    mce_time_t clock, mce_time_t lookahead, char *err,
                    size_t errlen);
void mcei_iwdep_fini(mcei_iwdep_t *s);
/* 1: one of this module's kinds (handled), 0: not, < 0: an error. */
int mcei_iwdep_inject(mcei_iwdep_t *s, mcei_msg_t *m);
mce_time_t mcei_iwdep_next_event(const mcei_iwdep_t *s);
int mcei_iwdep_advance(mcei_iwdep_t *s, mcei_net_t *net, mce_time_t horizon);
size_t mcei_iwdep_in_flight(const mcei_iwdep_t *s);

#endif
