/* The key tables of this layer's plug-ins (keys.h).  A key belongs to
 * the table of the lowest layer that reads it; its label and source are
 * those of the machine files' comments (tests/core/info.sh checks them). */
#include <stdint.h>

#include "keys.h"

/* network model ideal (lib/net/ideal.c) */
static const mcei_key_t net_ideal_keys[] = {
    {"latency", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, NULL,
     MCEI_LABEL_MACHINE, "wire latency, also the engine's lookahead"},
    {"per_byte", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, NULL,
     MCEI_LABEL_MACHINE, "100 MB/s"},
};
const mcei_keytab_t mcei_net_ideal_keytab =
    MCEI_KEYTAB("network model ideal", net_ideal_keys);

/* network model ipsc (lib/net/ipsc.c) */
static const mcei_key_t net_ipsc_keys[] = {
    {"ipsc.a", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, NULL,
     MCEI_LABEL_INPUT, "Seidel and Davis 1992, Table I, per byte"},
    {"ipsc.b_l", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, NULL,
     MCEI_LABEL_INPUT, "Seidel and Davis 1992, Table I, long-protocol latency"},
    {"ipsc.b_s", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, NULL,
     MCEI_LABEL_INPUT,
     "Seidel and Davis 1992, Table I, short-protocol latency"},
    {"ipsc.fc", MCEI_KEY_COUNT, "", 0, 1, "0", MCEI_LABEL_SETTING,
     "1: forward flow control on (section 2.4)"},
    {"ipsc.fc_window", MCEI_KEY_COUNT, "buffers", 0, UINT64_MAX, "0",
     MCEI_LABEL_ASSUMED,
     "buffers a node keeps for each sender.  The paper says only 'a small set "
     "..."},
    {"ipsc.hop_setup", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, "0",
     MCEI_LABEL_ASSUMED,
     "circuit building per link beyond the first; the paper says only that it "
     "..."},
    {"ipsc.s", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, NULL,
     MCEI_LABEL_INPUT,
     "Seidel and Davis 1992, Table I, sender's return from a null csend"},
    {"ipsc.short_max", MCEI_KEY_COUNT, "bytes", 0, UINT64_MAX, NULL,
     MCEI_LABEL_INPUT,
     "Seidel and Davis 1992, section 2.1, 'less than or equal to 100 bytes'"},
    {"ipsc.start_up", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, NULL,
     MCEI_LABEL_ASSUMED,
     "software set-up before a header reaches the ports (part of b_s and b_l; "
     "..."},
};
const mcei_keytab_t mcei_net_ipsc_keytab =
    MCEI_KEYTAB("network model ipsc", net_ipsc_keys);

/* network model paragon (lib/net/paragon.c) */
static const mcei_key_t net_paragon_keys[] = {
    {"paragon.control", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, NULL,
     MCEI_LABEL_DERIVED,
     "Bokhari and Nicol 1996, one control message of the long protocol, sent "
     "by the co-processor: a ..."},
    {"paragon.coproc_start", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, NULL,
     MCEI_LABEL_ASSUMED,
     "the co-processor's start of one message ('[the Paragon] can also ..."},
    {"paragon.eject_per_byte", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, NULL,
     MCEI_LABEL_ASSUMED,
     "receiving streams at the same rate as sending (the node's DMA path, ..."},
    {"paragon.height", MCEI_KEY_COUNT, "rows", 0, UINT64_MAX, "32",
     MCEI_LABEL_INPUT,
     "Bokhari and Nicol 1996, '512 compute nodes organized in a 16 x 32 array' "
     "(section 2)."},
    {"paragon.inject_per_byte", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, NULL,
     MCEI_LABEL_INPUT,
     "Bokhari and Nicol 1996, Table 1: 231 + 0.022 m us, the per-byte term"},
    {"paragon.link_per_byte", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, NULL,
     MCEI_LABEL_ASSUMED,
     "links are faster than injection (sections 2 and 8, which give no ..."},
    {"paragon.long_latency", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, NULL,
     MCEI_LABEL_INPUT,
     "Bokhari and Nicol 1996, Table 1: 231 + 0.022 m us, the fixed term"},
    {"paragon.packet", MCEI_KEY_COUNT, "bytes", 0, UINT64_MAX, "0",
     MCEI_LABEL_ASSUMED,
     "the largest worm: longer messages travel as several packets, each "
     "taking the links and the ejection again.  Not in the paper ..."},
    {"paragon.short_latency", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, NULL,
     MCEI_LABEL_ASSUMED,
     "calibrated on Table 1's gsync fit 27.1 log2 n - 134 us (16 x 16, 16 x "
     "32)"},
    {"paragon.short_max", MCEI_KEY_COUNT, "bytes", 0, UINT64_MAX, NULL,
     MCEI_LABEL_ASSUMED,
     "the largest message sent with the short protocol.  Not in the paper ..."},
    {"paragon.start_up", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, NULL,
     MCEI_LABEL_ASSUMED,
     "user-level software set-up before a message reaches the co-processor: "
     "..."},
    {"paragon.width", MCEI_KEY_COUNT, "columns", 0, UINT64_MAX, "16",
     MCEI_LABEL_INPUT,
     "Bokhari and Nicol 1996, '512 compute nodes organized in a 16 x 32 array' "
     "(section 2)."},
};
const mcei_keytab_t mcei_net_paragon_keytab =
    MCEI_KEYTAB("network model paragon", net_paragon_keys);

/* network model iwarp (lib/net/iwarp.c, iwarp_dep.c, iwarp_sru.c) */
static const mcei_key_t net_iwarp_keys[] = {
    {"cam.hop", MCEI_KEY_COUNT, "clocks", 0, MCEI_CLOCKS_MAX, NULL,
     MCEI_LABEL_INPUT, "Feldmann et al. 3.2 express travel 0.2 us/hop"},
    {"dep.recv_irq", MCEI_KEY_COUNT, "clocks", 0, MCEI_CLOCKS_MAX, NULL,
     MCEI_LABEL_ASSUMED, "header interrupt, context switch, receive"},
    {"dep.routing", MCEI_KEY_STRING, "", 0, 0, "mesh", MCEI_LABEL_ASSUMED,
     "only mesh (X then Y, no wrap links)"},
    {"dep.send_spool", MCEI_KEY_COUNT, "clocks", 0, MCEI_CLOCKS_MAX, NULL,
     MCEI_LABEL_ASSUMED, "sender spool set-up (overlaps the receiver)"},
    {"iwarp.board_h", MCEI_KEY_COUNT, "cells", 0, UINT64_MAX, NULL,
     MCEI_LABEL_DERIVED,
     "'cells are grouped four to a board' (Warfel 1996 3.2.1);"},
    {"iwarp.board_w", MCEI_KEY_COUNT, "cells", 0, UINT64_MAX, NULL,
     MCEI_LABEL_DERIVED,
     "'cells are grouped four to a board' (Warfel 1996 3.2.1);"},
    {"iwarp.clock", MCEI_KEY_TIME, "us", 0, MCEI_TIME_MAX_KEY, NULL,
     MCEI_LABEL_INPUT, "Warfel 1996 3.2 '20MHz system clock'"},
    {"iwarp.dq_fair_max", MCEI_KEY_COUNT, "connections", 0, UINT64_MAX, "2",
     MCEI_LABEL_INPUT, "Warfel 1996 6.4.2 'DQ congestion greater than 2 is"},
    {"iwarp.dq_model", MCEI_KEY_STRING, "", 0, 0, "cell", MCEI_LABEL_ASSUMED,
     "cell (the design's DQ congestion rule) or off"},
    {"iwarp.dq_unfair_min", MCEI_KEY_MICRO, "", 0, UINT64_MAX, "0.5",
     MCEI_LABEL_ASSUMED, "connections through a cell with DQ"},
    {"iwarp.gate_in", MCEI_KEY_COUNT, "clocks", 0, MCEI_CLOCKS_MAX, NULL,
     MCEI_LABEL_ASSUMED, "gate -> source PCT -> link entry"},
    {"iwarp.gate_op", MCEI_KEY_COUNT, "clocks", 0, MCEI_CLOCKS_MAX, NULL,
     MCEI_LABEL_ASSUMED, "CPU cost of one gate read or write"},
    {"iwarp.gate_out", MCEI_KEY_COUNT, "clocks", 0, MCEI_CLOCKS_MAX, NULL,
     MCEI_LABEL_ASSUMED, "destination PCT -> readable at the gate"},
    {"iwarp.height", MCEI_KEY_COUNT, "cells", 0, UINT64_MAX, NULL,
     MCEI_LABEL_INPUT, "Warfel 1996 3.1.1 '64 processing cells arranged as"},
    {"iwarp.hop_board", MCEI_KEY_COUNT, "clocks", 0, MCEI_CLOCKS_MAX, NULL,
     MCEI_LABEL_INPUT, "Warfel 1996 3.2.1 '4 clocks/cell' within a board"},
    {"iwarp.hop_cross", MCEI_KEY_COUNT, "clocks", 0, MCEI_CLOCKS_MAX, NULL,
     MCEI_LABEL_INPUT, "Warfel 1996 3.2.1 '6 clocks/cell' between boards"},
    {"iwarp.hop_host", MCEI_KEY_COUNT, "clocks", 0, MCEI_CLOCKS_MAX, NULL,
     MCEI_LABEL_ASSUMED, "each link to/from the host-interface cell"},
    {"iwarp.hop_turn", MCEI_KEY_COUNT, "clocks", 0, MCEI_CLOCKS_MAX, NULL,
     MCEI_LABEL_INPUT, "Warfel 1996 3.2.1 'additional 1 clock penalty' per"},
    {"iwarp.hop_wrap", MCEI_KEY_COUNT, "clocks", 0, MCEI_CLOCKS_MAX, NULL,
     MCEI_LABEL_ASSUMED, "torus wrap ('backloop') link: an"},
    {"iwarp.pct_config", MCEI_KEY_COUNT, "clocks", 0, MCEI_CLOCKS_MAX, NULL,
     MCEI_LABEL_ASSUMED, "CPU writes one PCT entry"},
    {"iwarp.pct_groups", MCEI_KEY_COUNT, "groups", 0, UINT64_MAX, "4",
     MCEI_LABEL_INPUT, "Warfel 1996 3.1.5.1 'four groups of five PCTs'"},
    {"iwarp.pct_words", MCEI_KEY_COUNT, "words", 0, UINT64_MAX, NULL,
     MCEI_LABEL_INPUT, "same place"},
    {"iwarp.pcts", MCEI_KEY_COUNT, "PCTs", 0, UINT64_MAX, NULL,
     MCEI_LABEL_INPUT, "Warfel 1996 3.1.2 '20 eight-word FIFOs known as PCTs'"},
    {"iwarp.skip_period", MCEI_KEY_COUNT, "words", 0, UINT64_MAX, "1000",
     MCEI_LABEL_INPUT, "Warfel 1996 3.1.5.3 the scheduler 'skip[s] sending a"},
    {"iwarp.spool_word", MCEI_KEY_COUNT, "clocks", 0, MCEI_CLOCKS_MAX, NULL,
     MCEI_LABEL_ASSUMED, "spool DMA: one word per 2 clocks (link"},
    {"iwarp.width", MCEI_KEY_COUNT, "cells", 0, UINT64_MAX, NULL,
     MCEI_LABEL_INPUT, "Warfel 1996 3.1.1 '64 processing cells arranged as"},
    {"iwarp.word_time", MCEI_KEY_COUNT, "clocks", 0, MCEI_CLOCKS_MAX, NULL,
     MCEI_LABEL_DERIVED, "40 MB/s per link (Warfel 1996 3.1.2) = 10 Mwords/s"},
    {"sru.backoff_max", MCEI_KEY_COUNT, "doublings", 0, UINT64_MAX, NULL,
     MCEI_LABEL_ASSUMED, "design default 6; 8 keeps 64 contenders'"},
    {"sru.backoff_slot", MCEI_KEY_COUNT, "clocks", 0, MCEI_CLOCKS_MAX, NULL,
     MCEI_LABEL_ASSUMED, "after a collision, or when the bus frees,"},
    {"sru.bit_time", MCEI_KEY_COUNT, "clocks", 0, MCEI_CLOCKS_MAX, NULL,
     MCEI_LABEL_INPUT, "Feldmann et al. 3.1 'One bit ... every 0.8 us'"},
    {"sru.bits", MCEI_KEY_COUNT, "bits", 0, UINT64_MAX, NULL, MCEI_LABEL_INPUT,
     "Feldmann et al. 3.1 'a message contains 36 bits' (29 us)"},
};
const mcei_keytab_t mcei_net_iwarp_keytab =
    MCEI_KEYTAB("network model iwarp", net_iwarp_keys);
