/* Block placement gives rank r a contiguous run of nodes (the first
 * nodes % ranks ranks one extra); cyclic deals nodes out round-robin;
 * one is block with exactly one node per rank. */
#include "place.h"

int mcei_place_init(mcei_place_t *p, int nodes, int ranks,
                    mcei_placement_t policy)
{
    if (ranks <= 0 || nodes < ranks)
        return MCE_ERR_INVAL;
    if (policy != MCEI_PLACE_BLOCK && policy != MCEI_PLACE_CYCLIC &&
        policy != MCEI_PLACE_ONE)
        return MCE_ERR_INVAL;
    /* One node per rank: the block placement of as many nodes as ranks. */
    if (policy == MCEI_PLACE_ONE && nodes != ranks)
        return MCE_ERR_INVAL;
    p->nodes = nodes;
    p->ranks = ranks;
    p->policy = policy;
    return MCE_OK;
}

static int block_first(const mcei_place_t *p, int rank)
{
    int q = p->nodes / p->ranks, r = p->nodes % p->ranks;
    return rank * q + (rank < r ? rank : r);
}

int mcei_place_count(const mcei_place_t *p, int rank)
{
    int q = p->nodes / p->ranks, r = p->nodes % p->ranks;
    return q + (rank < r ? 1 : 0);
}

int mcei_place_rank_of(const mcei_place_t *p, int node)
{
    if (p->policy == MCEI_PLACE_CYCLIC)
        return node % p->ranks;
    int q = p->nodes / p->ranks, r = p->nodes % p->ranks;
    int big = r * (q + 1); /* nodes held by the ranks with one extra */
    if (node < big)
        return node / (q + 1);
    return r + (node - big) / q;
}

int mcei_place_node(const mcei_place_t *p, int rank, int i)
{
    if (p->policy == MCEI_PLACE_CYCLIC)
        return rank + i * p->ranks;
    return block_first(p, rank) + i;
}

int mcei_place_local_index(const mcei_place_t *p, int node)
{
    if (p->policy == MCEI_PLACE_CYCLIC)
        return node / p->ranks;
    return node - block_first(p, mcei_place_rank_of(p, node));
}
