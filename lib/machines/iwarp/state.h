/* The iWarp machine's state, in the context the engine passes: nothing of
 * it lives in file-scope variables (tests/core/layers.sh checks it).
 * Each module of this directory keeps its constants in its part of the
 * machine's state (mcei_iw_state_t: the engine's proto_state while the
 * iwarp protocol runs) and its per-cell records in its slot of the cell's
 * state (mcei_iw_slots_t: the first member of vn->proto). */
#ifndef MCEI_IWARP_STATE_H
#define MCEI_IWARP_STATE_H

#include "cam.h"
#include "deposit.h"
#include "iwarp.h"
#include "spool.h"
#include "video.h"

typedef struct mcei_iw_state {
    mcei_iw_costs_t costs; /* read by plugin.c */
    mcei_iw_cam_k_t cam;
    mcei_iw_dep_k_t dep;
    mcei_iw_spool_k_t spool;
    mcei_iw_video_k_t video;
} mcei_iw_state_t;

/* Each module's per-cell record, its own type (NULL: none). */
typedef struct mcei_iw_slots {
    struct mcei_iw_cam_node *cam;
    struct mcei_iw_dep_node *dep;
    struct mcei_iw_spool_node *spool;
    struct mcei_iw_video_node *video; /* the camera and display cells */
} mcei_iw_slots_t;

/* The protocol's name (plugin.c's ops table has it). */
#define MCEI_IW_PROTO_NAME "iwarp"

/* The running iWarp machine's state, NULL if the protocol is not iwarp.
 * Found by the protocol's name, not by the ops table's address: the
 * table's file (plugin.c) refers to every module of this directory, so a
 * module that referred to the table would close a link-time circle
 * (tests/core/layers.sh checks there is none). */
static inline mcei_iw_state_t *mcei_iw_state(void)
{
    return mcei_proto_state_named(MCEI_IW_PROTO_NAME);
}

/* A cell's module records (only while the iwarp protocol runs). */
static inline mcei_iw_slots_t *mcei_iw_slots(mcei_vn_t *vn)
{
    return (mcei_iw_slots_t *)vn->proto;
}

#endif
