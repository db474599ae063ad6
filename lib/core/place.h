/* Placement of virtual nodes on MPI ranks. */
#ifndef MCEI_PLACE_H
#define MCEI_PLACE_H

#include <stddef.h>
#include <stdint.h>

#include "conf.h"
#include "topo.h"

typedef struct mcei_place {
    int nodes, ranks;
    mcei_placement_t policy;
    mcei_topo_t topo; /* what the placement followed (NONE: ids) */
    /* Explicit tables (topology placements, weighted placements); NULL
     * for block and cyclic, which are arithmetic. */
    int32_t *owner; /* node -> rank */
    int32_t *index; /* node -> index among its rank's nodes */
    int32_t *start; /* rank -> offset in list (ranks + 1 entries) */
    int32_t *list;  /* each rank's nodes in increasing id order */
    /* Node weights (measured activations) when known, else NULL. */
    uint64_t *weight;
    uint64_t total_weight;
    /* Messages counted by mcei_place_note_msg, and those whose source and
     * destination are on different ranks. */
    uint64_t msgs, cross;
} mcei_place_t;

/*
 * Place @p nodes nodes on @p ranks ranks.  BLOCK: contiguous id ranges
 * (the first nodes % ranks ranks one node more); CYCLIC: round-robin; ONE:
 * one node per rank; TOPOLOGY: recursive bisection of @p topo (NULL or
 * NONE: as block), each cut where it splits the nodes (or their weights)
 * in proportion to the ranks on each side, along the axis that cuts the
 * fewest links.  @p weights (may be NULL; nodes entries, each >= 1)
 * balances BLOCK and TOPOLOGY by weight instead of node count (BLOCK
 * stays contiguous ranges).  Deterministic: the same arguments give the
 * same placement on every rank.  Errors (MCE_ERR_INVAL, MCE_ERR_NOMEM)
 * with a message in err.
 */
int mcei_place_build(mcei_place_t *p, int nodes, int ranks,
                     mcei_placement_t policy, const mcei_topo_t *topo,
                     const uint64_t *weights, char *err, size_t errlen);
/* The same without topology or weights, except for the engine's own
 * placement (lib/core/place_engine.c), which gets the machine's topology
 * and --mce-place-weights. */
int mcei_place_init(mcei_place_t *p, int nodes, int ranks,
                    mcei_placement_t policy);
void mcei_place_fini(mcei_place_t *p);

/* The engine's own placement (lib/core/place_engine.c): the machine's
 * topology (the network model's, else the protocol's), the configured
 * policy and --mce-place-weights, the same on every rank (collective when
 * weights are read).  Error message in err. */
struct mcei_engine;
int mcei_place_setup(struct mcei_engine *eng, char *err, size_t errlen);
/* Rank 0 prints the messages that crossed ranks and each rank's share of
 * the context switches (collective; --mce-verbose). */
void mcei_place_report_run(struct mcei_engine *eng);

/* Rank hosting node @p node. */
static inline int mcei_place_rank_of(const mcei_place_t *p, int node)
{
    if (p->owner != NULL)
        return p->owner[node];
    if (p->policy == MCEI_PLACE_CYCLIC)
        return node % p->ranks;
    int q = p->nodes / p->ranks, r = p->nodes % p->ranks;
    int big = r * (q + 1); /* nodes held by the ranks with one extra */
    if (node < big)
        return node / (q + 1);
    return r + (node - big) / q;
}
/* Number of nodes on @p rank. */
int mcei_place_count(const mcei_place_t *p, int rank);
/* The @p i-th node (in increasing id order) on @p rank. */
int mcei_place_node(const mcei_place_t *p, int rank, int i);
/* Index of @p node among the nodes of its rank. */
int mcei_place_local_index(const mcei_place_t *p, int node);

/* Count one message from @p src to @p dst (cross_rank when their ranks
 * differ); ids outside the nodes (a host) are not counted. */
static inline void mcei_place_note_msg(mcei_place_t *p, int src, int dst)
{
    if (src < 0 || dst < 0 || src >= p->nodes || dst >= p->nodes)
        return;
    p->msgs++;
    if (mcei_place_rank_of(p, src) != mcei_place_rank_of(p, dst))
        p->cross++;
}

/* "block", "cyclic", "one", "topology". */
const char *mcei_place_policy_name(mcei_placement_t policy);
/* What @p rank holds, for the --mce-verbose report: its count, id range
 * and shape ("block 4x4 at (0,4)", "subcube of dimension 4: ids
 * 16..31", "ids 0..21"), and its share of the weights when known. */
void mcei_place_describe(const mcei_place_t *p, int rank, char *buf,
                         size_t len);
/* The weight of @p rank's nodes (0 without weights). */
uint64_t mcei_place_rank_weight(const mcei_place_t *p, int rank);

/*
 * Read the per-node "activations" column of a --mce-stats file (CSV or
 * JSON, by its extension) of a run with @p nodes nodes into a new array
 * (*out, nodes entries, each at least 1: a node never switched to still
 * costs its start).  Errors name the file and what is wrong (no such
 * column, a node missing or out of range, another node count).
 */
int mcei_place_read_weights(const char *path, int nodes, uint64_t **out,
                            char *err, size_t errlen);

#endif
