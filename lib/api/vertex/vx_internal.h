/* Shared by the Vertex personality's files (vertex.c, ncube2.c). */
#ifndef MCEI_VX_INTERNAL_H
#define MCEI_VX_INTERNAL_H

#include "../../core/engine.h"

/* The calling node on an NCUBE machine (either flavour), its trace span
 * open; NULL outside a node.  Ends the run on other machines. */
mcei_vn_t *mcei_vx_enter(const char *call);
/* Log a failed call naming it and the node, remember it for nperror,
 * leave the library; returns @p code. */
int mcei_vx_fail(mcei_vn_t *vn, const char *call, int code, const char *msg);
/* The machine's simple-trap cost and ntime's tick (1024 cycles). */
mce_time_t mcei_vx_trap_cost(void);
mce_time_t mcei_vx_tick(void);

#endif
