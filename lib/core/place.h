/* Placement of virtual nodes on MPI ranks. */
#ifndef MCEI_PLACE_H
#define MCEI_PLACE_H

#include "conf.h"

typedef struct mcei_place {
    int nodes, ranks;
    mcei_placement_t policy;
} mcei_place_t;

int mcei_place_init(mcei_place_t *p, int nodes, int ranks,
                    mcei_placement_t policy);
/* Rank hosting node @p node. */
int mcei_place_rank_of(const mcei_place_t *p, int node);
/* Number of nodes on @p rank. */
int mcei_place_count(const mcei_place_t *p, int rank);
/* The @p i-th node (in increasing id order) on @p rank. */
int mcei_place_node(const mcei_place_t *p, int rank, int i);
/* Index of @p node among the nodes of its rank. */
int mcei_place_local_index(const mcei_place_t *p, int node);

#endif
