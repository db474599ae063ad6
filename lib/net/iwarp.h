/* The iWarp message kinds shared by the network model (lib/net/iwarp.c)
 * and the node protocol (lib/machines/iwarp): type values of messages of
 * ctx MCEI_CTX_PROTOCOL and their aux packing (doc/design/iwarp-tcs.md,
 * section 2.3).  Steps 1-2 of the design: PCT configuration, data
 * blocks, link sharing and back-pressure. */
#ifndef MCEI_NET_IWARP_H
#define MCEI_NET_IWARP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Ports of a PCT: the CPU (a gate) or the link on one side of the cell. */
enum { MCEI_IW_CPU = 0, MCEI_IW_XP, MCEI_IW_XM, MCEI_IW_YP, MCEI_IW_YM };

enum {
    /* node -> model (dst = the cell itself), consumed by the model:
     * aux[0] = mcei_iw_cfg_pack(...), aux[1] = 0 */
    MCEI_IW_CFG = 0x49570001,
    /* node -> model -> node: a block of words on the connection whose
     * source PCT is aux[0] (dst = the connection's endpoint cell).  The
     * model delivers it when its first word is readable, with aux[0] =
     * destination PCT | source PCT << 8 and aux[1] = the connection's
     * number of its first word (from 1). */
    MCEI_IW_DATA = 0x49570002,
    /* node -> model (dst = the reader itself), consumed: the reader of
     * destination PCT aux[0] takes aux[1] more words (read now or on
     * arrival); frees path capacity one path latency later. */
    MCEI_IW_READ = 0x49570003,
    /* model -> node: a rate segment of a connection, at the message's
     * time, sent to both ends: aux[0] = the recipient's PCT | side << 8
     * (MCEI_IW_SRC_SIDE or MCEI_IW_DST_SIDE) | MCEI_IW_SEG_FULL when the
     * flow stops because its path is full; aux[1] = words the reader
     * had taken (as known at the source); payload mcei_iw_seg_t. */
    MCEI_IW_SEG = 0x49570004
};

enum { MCEI_IW_SRC_SIDE = 0, MCEI_IW_DST_SIDE = 1 };
#define MCEI_IW_SEG_FULL 0x10000u

/* From the message's time on, the connection has entered @c e work units
 * (mcei_iwf_unit() per word) into its first link and enters @c rate units
 * per ps; a word entered at t is readable at t + @c delay. */
typedef struct mcei_iw_seg {
    uint64_t e_lo, e_hi, rate, delay;
} mcei_iw_seg_t;

/* A PCT entry: in port and upstream PCT, out port and downstream PCT,
 * endpoint cell (-1: none) and the release flag. */
static inline uint64_t mcei_iw_cfg_pack(int pct, int in_port, int in_pct,
                                        int out_port, int out_pct, int endpoint,
                                        int release)
{
    return (uint64_t)(uint8_t)pct | (uint64_t)(uint8_t)in_port << 8 |
           (uint64_t)(uint8_t)in_pct << 16 | (uint64_t)(uint8_t)out_port << 24 |
           (uint64_t)(uint8_t)out_pct << 32 |
           (uint64_t)(uint16_t)(endpoint + 1) << 40 |
           (uint64_t)(release != 0) << 56;
}

#define MCEI_IW_CFG_PCT(a)      ((int)((a)&0xff))
#define MCEI_IW_CFG_IN_PORT(a)  ((int)(((a) >> 8) & 0xff))
#define MCEI_IW_CFG_IN_PCT(a)   ((int)(((a) >> 16) & 0xff))
#define MCEI_IW_CFG_OUT_PORT(a) ((int)(((a) >> 24) & 0xff))
#define MCEI_IW_CFG_OUT_PCT(a)  ((int)(((a) >> 32) & 0xff))
#define MCEI_IW_CFG_ENDPOINT(a) ((int)(((a) >> 40) & 0xffff) - 1)
#define MCEI_IW_CFG_RELEASE(a)  ((int)(((a) >> 56) & 1))

/* The trace track name of directed link @p link (cell x 4 + side, sides
 * X+, X-, Y+, Y-) of a torus @p width cells wide: "link (x,y) X+", the
 * link leaving cell (x,y) on that side.  Shared by the PCT connections'
 * model and the deposits' (one track per physical link). */
static inline void mcei_iw_link_label(char *buf, size_t len, int width,
                                      int link)
{
    static const char *const side[] = {"X+", "X-", "Y+", "Y-"};
    int cell = link / 4;
    snprintf(buf, len, "link (%d,%d) %s", cell % width, cell / width,
             side[link % 4]);
}

#endif
