/* The iWarp System Reporting Unit and anonymous-destination ring, node
 * side (doc/design/iwarp-tcs.md, sections 7.1 and 7.2): the one-word SRU
 * buffer, the address-match CAM, the pathway state and its queue.
 * Functions return MCE_OK or an MCE_ERR_* code with a reason in @p why. */
#ifndef MCEI_IWARP_CAM_H
#define MCEI_IWARP_CAM_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/engine.h"

/* The SRU's and the ring's constants (in the machine's state, state.h). */
typedef struct mcei_iw_cam_k {
    mce_time_t send_sw, recv_sw, load, compose, split, join, word, backlog;
    int entries, width;
} mcei_iw_cam_k_t;

int mcei_iw_cam_init(mcei_iw_cam_k_t *k, mcei_machine_t *m, int width,
                     mce_time_t clock, char *err, size_t errlen);
int mcei_iw_cam_node_init(mcei_vn_t *vn);
void mcei_iw_cam_node_fini(mcei_vn_t *vn);
/* 1: the arrival was an SRU or ring message (handled). */
int mcei_iw_cam_arrival(mcei_vn_t *vn, mcei_msg_t *m);

/* @p wait: until the message's end on the bus (*jammed: collided);
 * otherwise return once it is requested. */
int mcei_iw_sru_broadcast(mcei_vn_t *vn, uint32_t word, int *jammed, int wait);
int mcei_iw_sru_recv(mcei_vn_t *vn, uint32_t *word, int *jammed, int wait);
/* Messages that were overwritten unread in this cell's SRU buffer. */
uint64_t mcei_iw_sru_lost(mcei_vn_t *vn);
int mcei_iw_cam_entries(void);
int mcei_iw_cam_set(mcei_vn_t *vn, int entry, uint32_t header, int valid,
                    char *why, size_t len);
int mcei_iw_selective_send(mcei_vn_t *vn, uint32_t header, const uint32_t *w,
                           size_t n, char *why, size_t len);
int mcei_iw_selective_receive(mcei_vn_t *vn, const uint32_t *headers, int nh,
                              uint32_t *header, uint32_t *w, size_t cap,
                              size_t *n, char *why, size_t len);
int mcei_iw_ring_position(mcei_vn_t *vn);
/* Ring messages this cell passed on unmatched (express) so far. */
uint64_t mcei_iw_ring_forwarded(mcei_vn_t *vn);

#endif
