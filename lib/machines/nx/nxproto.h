/* The node side of NX (iPSC/860 NX/2 and Paragon NX): message ids,
 * posted receives matched in post order, unexpected messages queued,
 * FORCED messages without a posted receive discarded, sends completed
 * when the network says so, a limit on outstanding receives, and optional
 * deterministic interrupt noise. */
#ifndef MCEI_NXPROTO_H
#define MCEI_NXPROTO_H

#include "../../core/engine.h"

#define MCEI_NX_FORCE_TYPE 0x40000000L

typedef struct mcei_nx_info {
    long type, count, node, ptype, pid;
} mcei_nx_info_t;

typedef void (*mcei_nx_handler_t)(long type, long count, long node, long ptype);
/* A handler of the 32-bit NX forms (mcecc -mce-nx-long=32). */
typedef void (*mcei_nx_handler32_t)(int type, int count, int node, int ptype);

/* The protocol (registered by lib/machines/registry.c). */
extern const mcei_proto_ops_t mcei_proto_nx_ops;

/* Is the NX protocol active?  (Machine "protocol = nx".) */
int mcei_nx_active(void);

/* All return MCE_OK or a negative status; ids are positive. */
int mcei_nx_isend(mcei_vn_t *vn, uint32_t ctx, long type, const void *buf,
                  long count, long node, long ptype, mcei_nx_handler_t handler,
                  long *id);
/* @p info_out (may be NULL): the x-forms' info[] array, filled when the
 * receive completes (type, count, node, ptype). */
int mcei_nx_irecv(mcei_vn_t *vn, uint32_t ctx, long typesel, void *buf,
                  long count, long nodesel, long ptypesel,
                  mcei_nx_handler_t handler, long *info_out, long *id);
/* The 32-bit forms: request @p id, just posted, fills the int array
 * @p info32 (may be NULL) instead of a long one when it completes, and,
 * when @p handler32, its handler (given to the post cast to
 * mcei_nx_handler_t through void (*)(void)) is a mcei_nx_handler32_t.
 * Values beyond int saturate (a count over 2 GiB, a process type set
 * beyond 2^31: no 32-bit program can give either). */
int mcei_nx_set32(mcei_vn_t *vn, long id, int *info32, int handler32);
/* Wait for @p id; *info (may be NULL) describes a receive. */
int mcei_nx_wait(mcei_vn_t *vn, long id, mcei_nx_info_t *info);
/* 1 done (and released), 0 pending. */
int mcei_nx_done(mcei_vn_t *vn, long id, int *done);
int mcei_nx_cancel(mcei_vn_t *vn, long id);
int mcei_nx_ignore(mcei_vn_t *vn, long id);
int mcei_nx_merge(mcei_vn_t *vn, long id1, long id2, long *id);
/* Probe the unexpected-message queue; blocking when @p block. */
int mcei_nx_probe(mcei_vn_t *vn, uint32_t ctx, long typesel, long nodesel,
                  long ptypesel, int block, int *found, mcei_nx_info_t *info);
/* Info of the last message received or probed (infocount & co). */
const mcei_nx_info_t *mcei_nx_last(mcei_vn_t *vn);
long mcei_nx_ptype(mcei_vn_t *vn);
void mcei_nx_set_ptype(mcei_vn_t *vn, long ptype);
/* Interrupt noise: account interrupts up to the node's clock; call on
 * entry to every NX call. */
void mcei_nx_enter(mcei_vn_t *vn);
/* Run completed handler receives (hrecv) on the node's own stack. */
void mcei_nx_run_handlers(mcei_vn_t *vn);
/* Trap mask for handlers (masktrap): returns the previous state. */
long mcei_nx_masktrap(mcei_vn_t *vn, long state);
/* The machine's per-call costs. */
mce_time_t mcei_nx_probe_cost(void);

#endif
