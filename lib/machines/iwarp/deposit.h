/* iWarp deposit and RTS message passing, node side
 * (doc/design/iwarp-tcs.md, sections 4 and 5): the buffer registry and its
 * arrival counters, the send and receive handlers, the RTS interrupts.
 * Functions return MCE_OK or an MCE_ERR_* code with a reason in @p why. */
#ifndef MCEI_IWARP_DEPOSIT_H
#define MCEI_IWARP_DEPOSIT_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/engine.h"

/* The deposit and RTS systems' constants (in the machine's state,
 * state.h). */
typedef struct mcei_iw_dep_k {
    mce_time_t clock, send_header, send_spool, send_finish, recv_irq,
        recv_finish, rearm, d4_irq, d4_finish, spool_word;
    mce_time_t rts_send, rts_recv_irq, rts_ack_irq, rts_wake;
    uint64_t pcts, spools, rts_pcts;
    int rts_on;
} mcei_iw_dep_k_t;

int mcei_iw_dep_module_init(mcei_iw_dep_k_t *k, mcei_machine_t *m,
                            mce_time_t clock, char *err, size_t errlen);
int mcei_iw_dep_node_init(mcei_vn_t *vn);
void mcei_iw_dep_node_fini(mcei_vn_t *vn);
/* 1: the arrival was a deposit or RTS message or timer (handled). */
int mcei_iw_dep_arrival(mcei_vn_t *vn, mcei_msg_t *m);

int mcei_iw_dep_init(mcei_vn_t *vn, char *why, size_t len);
/* Has this cell called iwarp_dep_init (its two spools are reserved)? */
int mcei_iw_dep_enabled(mcei_vn_t *vn);
int mcei_iw_dep_buffer(mcei_vn_t *vn, void *buf, size_t bytes, int *handle,
                       char *why, size_t len);
int mcei_iw_dep_send(mcei_vn_t *vn, int dst, int handle, size_t offset,
                     const void *data, size_t bytes, char *why, size_t len);
int mcei_iw_dep_wait(mcei_vn_t *vn, int handle, unsigned count, int rearm,
                     char *why, size_t len);
int mcei_iw_dep_rearm(mcei_vn_t *vn, int handle, char *why, size_t len);
int mcei_iw_dep_count(mcei_vn_t *vn, int handle, unsigned *count, char *why,
                      size_t len);

int mcei_iw_rts_send(mcei_vn_t *vn, int dst, int type, const void *buf,
                     size_t bytes, char *why, size_t len);
/* -1 wildcards for src and type; MCE_ERR_TRUNCATE when longer than cap. */
int mcei_iw_rts_recv(mcei_vn_t *vn, int *src, int *type, void *buf, size_t cap,
                     size_t *got, char *why, size_t len);

#endif
