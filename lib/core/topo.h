/* The machine's interconnect as placement sees it.  The core defines the
 * description; the network model fills it (mcei_net_ops_t.topology) or,
 * when the model knows none (the NCUBE's channels are the protocol's),
 * the machine protocol (mcei_proto_ops_t.topology).  The core never names
 * a machine. */
#ifndef MCEI_TOPO_H
#define MCEI_TOPO_H

typedef enum mcei_topo_kind {
    MCEI_TOPO_NONE = 0,  /* no neighbourhood known: node ids in order */
    MCEI_TOPO_HYPERCUBE, /* nodes whose ids differ in one bit are linked */
    MCEI_TOPO_MESH       /* node = y x width + x; links to x+-1 and y+-1 */
} mcei_topo_kind_t;

typedef struct mcei_topo {
    mcei_topo_kind_t kind;
    int width, height;  /* MESH: columns and rows, width x height = nodes */
    int wrap_x, wrap_y; /* MESH: the rows / columns close into rings */
} mcei_topo_t;

#endif
