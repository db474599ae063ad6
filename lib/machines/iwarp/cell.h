/* The iWarp cell's records, shared by the protocol's files of
 * lib/machines/iwarp (doc/design/iwarp-tcs.md, steps 1-2 of its plan):
 * iwarp.c (the cell: its records, arrivals and idling), conn.c (the
 * connections' progress), gate.c (gate writes and reads), spool_pct.c
 * (the PCT side of the spools), config.c (PCTs and gates) and plugin.c
 * (the protocol's plug-in).  Not for the personalities: they use
 * iwarp.h. */
#ifndef MCEI_IWARP_CELL_H
#define MCEI_IWARP_CELL_H

#include <stddef.h>
#include <stdint.h>

#include "../../net/iwarp.h"
#include "cpu.h"
#include "iwarp.h"
#include "state.h"

enum { PCT_FREE = 0, PCT_ALLOCATED, PCT_CONFIGURED };

#define T_SEG_WAKE 0x4958 /* timer: a predicted time of a connection */

typedef unsigned __int128 u128;

typedef struct seg {
    mce_time_t t;
    u128 e;
    uint64_t r;
} seg_t;

/* The rate segments of one connection (the model's flow @c key: source
 * cell x pcts + source PCT), with its word numbers from 1. */
typedef struct seglist {
    int64_t key; /* -1: unused */
    seg_t *seg;
    size_t nseg, capseg;
    uint64_t freed; /* words its reader had taken, as known at the source */
    int full;       /* stopped: its path is full */
    mce_time_t delay;
} seglist_t;

typedef struct iw_pct {
    int state, in_port, in_pct, out_port, out_pct, endpoint;
    /* destination side: delivered blocks and unread words */
    mcei_msgq_t rx;
    uint64_t rx_used, rx_words;
    uint64_t untold; /* unread words kept across a release: reads not posted
                        (mcei_iw_pct_release_keep) */
    /* source side: words written into this PCT (the connection's word
     * numbers, kept across reconfigurations like the model's) */
    uint64_t words;
    int throttle, next_throttle; /* TCS (mcei_iw_pct_set_throttle) */
    /* the connections' progress: a source PCT has its own; a destination
     * PCT the one it reads and the next */
    seglist_t sl[2];
    uint64_t segv, token, fired;
} iw_pct_t;

_Static_assert((int)MCEI_IW_PORT_CPU == (int)MCEI_IW_CPU &&
                   (int)MCEI_IW_PORT_XP == (int)MCEI_IW_XP &&
                   (int)MCEI_IW_PORT_XM == (int)MCEI_IW_XM &&
                   (int)MCEI_IW_PORT_YP == (int)MCEI_IW_YP &&
                   (int)MCEI_IW_PORT_YM == (int)MCEI_IW_YM,
               "the protocol's ports are the network model's");

typedef struct iw_node {
    mcei_iw_slots_t slots; /* first: the modules' records (state.h) */
    iw_pct_t *pct;
    int gate[MCEI_IW_GATES]; /* bound PCT or -1 */
    int pend_gate;           /* pending coalesced block, -1 none */
    mce_time_t pend_start;
    uint32_t *pend_w;
    size_t pend_n, pend_cap;
    int cfg_free; /* PCT and gate set-up charged by the caller (TCS) */
} iw_node_t;

/* The machine's costs, while the iwarp protocol runs. */
static inline const mcei_iw_costs_t *iwc(void)
{
    return &mcei_iw_state()->costs;
}

static inline iw_node_t *node_of(mcei_vn_t *vn)
{
    return vn->proto;
}

static inline const char *gate_name(int g)
{
    static const char *const names[] = {"R0", "R1", "W0", "W1"};
    return g >= 0 && g < MCEI_IW_GATES ? names[g] : "?";
}

/* CPU work (gate operations, set-up): stretched by the active spools. */
static inline void charge_cpu(mcei_vn_t *vn, mce_time_t t)
{
    mcei_iw_cpu(vn, t);
}

/* A read's wait (gate.c, spool_pct.c). */
typedef struct rd_wait {
    iw_pct_t *p;
    uint64_t n;
    size_t words; /* for the deadlock report: the call's count */
    int gate, pct;
} rd_wait_t;

/* ---- the cell (iwarp.c) ---- */
/* Allocates the cell's records into vn->proto (the modules' follow). */
int mcei_iw_cell_node_init(mcei_vn_t *vn);
/* Frees them (after the modules'). */
void mcei_iw_cell_node_fini(mcei_vn_t *vn);
/* A message or timer of the cell itself (all but the modules'): takes it. */
void mcei_iw_cell_arrival(mcei_vn_t *vn, mcei_msg_t *m);

/* ---- connection progress (conn.c) ---- */
seglist_t *mcei_iw_seg_list(iw_pct_t *p, int64_t key);
void mcei_iw_seg_add(mcei_vn_t *vn, iw_pct_t *p, const mcei_msg_t *m);
mce_time_t mcei_iw_seg_time(seglist_t *l, u128 x, int start);
void mcei_iw_str_what(const void *arg, char *buf, size_t len);
mce_time_t mcei_iw_seg_wait(mcei_vn_t *vn, int pct, int64_t key, uint64_t k,
                            int start, const char *call, mcei_what_fn what,
                            const void *what_arg);
uint64_t mcei_iw_nth_word(const iw_pct_t *p, size_t n, int64_t *key,
                          mce_time_t *delay);
int64_t mcei_iw_own_key(const mcei_vn_t *vn, int pct);

/* ---- gates (gate.c) ---- */
void mcei_iw_inject_pct(mcei_vn_t *vn, int pct, mce_time_t ts,
                        const uint32_t *w, size_t n);
int mcei_iw_enough_words(mcei_vn_t *vn, void *arg);

#endif
