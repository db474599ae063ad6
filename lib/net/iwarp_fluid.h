/* Link sharing of the iWarp network (doc/design/iwarp-tcs.md, section
 * 3.3): the rates of the active connections, as a pure function of their
 * links, PCT groups and intermediate cells, so that the unit tests check
 * it without an engine.  Rates are integer work units per picosecond
 * (mcei_iwf_unit() units = one word). */
#ifndef MCEI_NET_IWARP_FLUID_H
#define MCEI_NET_IWARP_FLUID_H

#include <stdint.h>

#include "mcemu.h"

typedef struct mcei_iwf_flow {
    int nlinks;
    const int *link;  /* directed link ids, in path order */
    const int *group; /* the sending cell's PCT group on each link */
    int ncells;
    const int *cell; /* intermediate cells (enter and leave by links) */
    const unsigned char *turn; /* the connection turns in that cell */
    uint64_t key;              /* connection, for the unfairness draw */
    int throttle;  /* TCS: at most 1/throttle of a link, fairly; 0 none */
    int kappa;     /* out: DQ congestion (1: none) */
    uint64_t rate; /* out: units per ps */
} mcei_iwf_flow_t;

typedef struct mcei_iwf_params {
    uint64_t link_cap; /* units per ps of one link (one word per word_time) */
    uint64_t skip_period;      /* a word skipped every skip_period; 0 never */
    int dq_on;                 /* iwarp.dq_model = cell */
    uint64_t dq_fair_max;      /* kappa above this is unfair */
    uint64_t unfair_min_micro; /* dq_unfair_min in millionths */
    uint64_t seed, epoch;      /* the unfairness draw */
} mcei_iwf_params_t;

/* Work units per word: the word time in ps times a multiple of 1..20 and
 * of skip_period + 1, so that the shares of section 3.3 are exact. */
uint64_t mcei_iwf_unit(mce_time_t word_time, uint64_t skip_period);

/* The DQ congestion of every flow (section 3.3): for a cell X that at
 * least two flows pass through, at least one turning there, kappa(X) is
 * their number; a flow's kappa is the maximum over its cells. */
void mcei_iwf_kappa(mcei_iwf_flow_t *f, int n);

/* Scratch memory of mcei_iwf_rates, kept by its caller between calls:
 * the rates are recomputed at every start and end of a transfer, and
 * nine allocations a call were a tenth of a run's time.  Zero-initialise;
 * mcei_iwf_ws_free releases it. */
typedef struct mcei_iwf_ws {
    void *buf;
    size_t cap;
} mcei_iwf_ws_t;

void mcei_iwf_ws_free(mcei_iwf_ws_t *ws);

/* Rates of @p n active flows: two-level max-min (equal among the PCT
 * groups with an active flow on a link, then among the group's flows),
 * skip on links with two flows or more, DQ caps.  @p ws: scratch memory
 * to reuse, or NULL (allocated and freed in the call).  MCE_OK or
 * MCE_ERR_NOMEM. */
int mcei_iwf_rates(mcei_iwf_flow_t *f, int n, const mcei_iwf_params_t *p,
                   mcei_iwf_ws_t *ws);

#endif
