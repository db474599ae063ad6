/* The iWarp System Reporting Unit and the anonymous-destination ring, node
 * side (doc/design/iwarp-tcs.md, sections 7.1-7.2; Feldmann, Gross,
 * O'Hallaron, Stricker, sections 2-3).
 *
 * SRU: every bus message reaches every cell (lib/net/iwarp_sru.c); the
 * arrival overwrites the cell's one-word buffer without CPU time (a newer
 * message discards an unread one).  A broadcast costs sru.send_sw, then
 * waits for its own message's end on the bus (jammed: IW_JAMMED, the
 * program rebroadcasts); a receive waits for a full buffer, empties it
 * and costs sru.recv_sw.
 *
 * Ring: the pathway of a cell is express unless a message is held there
 * or the CPU has split it (sending or consuming).  An arriving message
 * while express either matches a valid CAM entry (held: the pathway stops
 * behind it) or is forwarded at its arrival time, cam.hop later at the
 * successor (the model).  Arrivals while the pathway is held or split
 * queue in order and are matched or forwarded when it is express again.
 * A message coming back to the cell that sent it unmatched has gone all
 * round the ring and is dropped.  selective_send = compose + split, the
 * message leaves, words x word + join + backlog; selective_receive = load
 * + (wait for a held message) split + words x word + join + backlog. */
#include "cam.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../net/iwarp_sru.h"
#include "cpu.h"
#include "state.h"

#define CAM_MAX   16
#define RING_MAXW 7

typedef struct mcei_iw_cam_node {
    /* SRU */
    int full, jam, done, done_jam, attempt;
    uint32_t word;
    uint64_t lost;
    /* ring */
    uint32_t cam[CAM_MAX];
    int valid[CAM_MAX];
    int busy;
    mcei_msg_t *held;
    mcei_msgq_t queue;
    uint64_t queued_words;
    uint64_t forwarded; /* messages this cell's pathway passed on */
} cam_node_t;

static const mcei_iw_cam_k_t *cam_k(void)
{
    return &mcei_iw_state()->cam;
}

static cam_node_t *cn(mcei_vn_t *vn)
{
    return mcei_iw_slots(vn)->cam;
}

static int get_clocks(mcei_machine_t *m, const char *key, mce_time_t clock,
                      mce_time_t *out, char *err, size_t errlen)
{
    uint64_t v;
    int rc = mcei_key_u64(m, key, &v, err, errlen);
    if (rc != MCE_OK)
        return rc;
    if (v > 1000000) {
        snprintf(err, errlen, "machine '%s': %s must be at most 1000000 clocks",
                 m->name, key);
        return MCE_ERR_MACHINE;
    }
    *out = v * clock;
    return MCE_OK;
}

int mcei_iw_cam_init(mcei_iw_cam_k_t *k, mcei_machine_t *m, int width,
                     mce_time_t clock, char *err, size_t errlen)
{
    uint64_t entries;
    int rc;
    memset(k, 0, sizeof(*k));
    if ((rc = get_clocks(m, "sru.send_sw", clock, &k->send_sw, err, errlen)) ||
        (rc = get_clocks(m, "sru.recv_sw", clock, &k->recv_sw, err, errlen)) ||
        (rc = get_clocks(m, "cam.load", clock, &k->load, err, errlen)) ||
        (rc = get_clocks(m, "cam.compose", clock, &k->compose, err, errlen)) ||
        (rc = get_clocks(m, "cam.split", clock, &k->split, err, errlen)) ||
        (rc = get_clocks(m, "cam.join", clock, &k->join, err, errlen)) ||
        (rc = get_clocks(m, "cam.word", clock, &k->word, err, errlen)) ||
        (rc = get_clocks(m, "cam.backlog_word", clock, &k->backlog, err,
                         errlen)) ||
        (rc = mcei_key_u64(m, "cam.entries", &entries, err, errlen)))
        return rc;
    if (entries < 1 || entries > CAM_MAX) {
        snprintf(err, errlen, "machine '%s': cam.entries must be 1 .. %d",
                 m->name, CAM_MAX);
        return MCE_ERR_MACHINE;
    }
    k->entries = (int)entries;
    k->width = width;
    return MCE_OK;
}

int mcei_iw_cam_node_init(mcei_vn_t *vn)
{
    if ((mcei_iw_slots(vn)->cam = calloc(1, sizeof(cam_node_t))) == NULL)
        return MCE_ERR_NOMEM;
    return MCE_OK;
}

void mcei_iw_cam_node_fini(mcei_vn_t *vn)
{
    cam_node_t *c;
    mcei_msg_t *m;
    if ((c = cn(vn)) == NULL)
        return;
    if (c->held)
        mcei_msg_release(c->held);
    while ((m = c->queue.head) != NULL) {
        mcei_msgq_remove(&c->queue, m);
        mcei_msg_release(m);
    }
    free(c);
    mcei_iw_slots(vn)->cam = NULL;
}

static int successor(mcei_vn_t *vn)
{
    int pos = mcei_iw_ring_pos(vn->id, cam_k()->width);
    return mcei_iw_ring_cell((pos + 1) % mcei_nnodes(), cam_k()->width);
}

static int matches(const cam_node_t *c, uint32_t h)
{
    for (int i = 0; i < cam_k()->entries; i++)
        if (c->valid[i] && c->cam[i] == h)
            return 1;
    return 0;
}

static void forward(mcei_vn_t *vn, mcei_msg_t *m, mce_time_t t)
{
    if (m->w.aux[1] != (uint64_t)vn->id) {
        if (mcei_send_at(vn, t, successor(vn), MCEI_CTX_PROTOCOL, MCEI_IW_RING,
                         mcei_msg_data(m), m->w.size, m->w.aux, NULL) != MCE_OK)
            mcei_vn_fatal_at(vn, t,
                             "iwarp: out of memory forwarding a message");
        cn(vn)->forwarded++;
    }
    mcei_msg_release(m);
}

/* The pathway is express again at @p t: match or forward the queue. */
static void drain(mcei_vn_t *vn, mce_time_t t)
{
    cam_node_t *c = cn(vn);
    mcei_msg_t *m;
    while (!c->busy && c->held == NULL && (m = c->queue.head) != NULL) {
        mcei_msgq_remove(&c->queue, m);
        c->queued_words -= m->w.size / 4;
        if (matches(c, (uint32_t)m->w.aux[0]))
            c->held = m;
        else
            forward(vn, m, t);
    }
}

int mcei_iw_cam_arrival(mcei_vn_t *vn, mcei_msg_t *m)
{
    cam_node_t *c = cn(vn);
    if (m->w.ctx != MCEI_CTX_PROTOCOL)
        return 0;
    if (m->w.type == MCEI_IW_SRU_WORD) {
        if (c->full)
            c->lost++;
        c->full = 1;
        c->word = (uint32_t)m->w.aux[0];
        c->jam = (m->w.aux[1] & MCEI_IW_SRU_JAM) != 0;
        if (m->w.aux[1] & MCEI_IW_SRU_DONE) {
            c->done = 1;
            c->done_jam = c->jam;
            c->attempt = c->jam ? c->attempt + 1 : 0;
            if (c->jam)
                c->jam = 2; /* this cell's own message was jammed */
        }
        mcei_msg_release(m);
        return 1;
    }
    if (m->w.type != MCEI_IW_RING)
        return 0;
    if (c->busy || c->held != NULL || c->queue.head != NULL) {
        mcei_msgq_push(&c->queue, m);
        c->queued_words += m->w.size / 4;
    } else if (matches(c, (uint32_t)m->w.aux[0])) {
        c->held = m;
    } else {
        forward(vn, m, m->arrival);
    }
    return 1;
}

/* ---- SRU ---------------------------------------------------------------- */

static int sru_done(mcei_vn_t *vn, void *arg)
{
    (void)arg;
    return cn(vn)->done;
}

static int sru_full(mcei_vn_t *vn, void *arg)
{
    (void)arg;
    return cn(vn)->full;
}

int mcei_iw_sru_broadcast(mcei_vn_t *vn, uint32_t word, int *jammed, int wait)
{
    cam_node_t *c = cn(vn);
    uint64_t aux[2];
    mcei_sync(vn);
    mcei_iw_cpu(vn, cam_k()->send_sw);
    mcei_sync(vn);
    c->done = 0;
    aux[0] = word;
    aux[1] = (uint64_t)c->attempt;
    if (mcei_send(vn, vn->id, MCEI_CTX_PROTOCOL, MCEI_IW_SRU, NULL, 0, aux,
                  NULL) != MCE_OK)
        mcei_vn_fatal(vn, "iwarp: out of memory on the SRU");
    mcei_count_sent(vn, 4); /* one word */
    if (!wait)
        return MCE_OK;
    mcei_wait(vn, sru_done, NULL, "iwarp_sru_broadcast",
              "the end of this cell's message on the SRU bus");
    c->done = 0;
    *jammed = c->done_jam;
    return MCE_OK;
}

int mcei_iw_sru_recv(mcei_vn_t *vn, uint32_t *word, int *jammed, int wait)
{
    cam_node_t *c = cn(vn);
    mcei_sync(vn);
    if (!wait && !c->full) {
        mcei_iw_cpu(vn, mcei_probe_cost());
        return 0;
    }
    mcei_wait(vn, sru_full, NULL, "iwarp_sru_recv",
              "a message in this cell's SRU buffer");
    *word = c->word;
    *jammed = c->jam;
    c->full = 0;
    mcei_count_recv(vn, 4);
    mcei_iw_cpu(vn, cam_k()->recv_sw);
    return 1;
}

uint64_t mcei_iw_sru_lost(mcei_vn_t *vn)
{
    return cn(vn)->lost;
}

/* ---- CAM and ring ------------------------------------------------------- */

int mcei_iw_cam_entries(void)
{
    return cam_k()->entries;
}

/* The CAM changed at the node's clock: a held message no longer matched
 * goes on. */
static void rematch(mcei_vn_t *vn)
{
    cam_node_t *c = cn(vn);
    if (c->held != NULL && !matches(c, (uint32_t)c->held->w.aux[0])) {
        mcei_msg_t *m = c->held;
        c->held = NULL;
        forward(vn, m, vn->clock);
    }
    drain(vn, vn->clock);
}

int mcei_iw_cam_set(mcei_vn_t *vn, int entry, uint32_t header, int valid,
                    char *why, size_t len)
{
    cam_node_t *c = cn(vn);
    if (entry < 0 || entry >= cam_k()->entries) {
        snprintf(why, len,
                 "no CAM entry %d: the address-match CAM has %d entries "
                 "(0..%d)",
                 entry, cam_k()->entries, cam_k()->entries - 1);
        return MCE_ERR_RESOURCE;
    }
    mcei_sync(vn);
    mcei_iw_cpu(vn, cam_k()->load);
    mcei_sync(vn);
    c->cam[entry] = header;
    c->valid[entry] = valid;
    rematch(vn);
    return MCE_OK;
}

int mcei_iw_selective_send(mcei_vn_t *vn, uint32_t header, const uint32_t *w,
                           size_t n, char *why, size_t len)
{
    cam_node_t *c = cn(vn);
    uint64_t aux[2] = {header, (uint64_t)vn->id};
    if (n > RING_MAXW) {
        snprintf(why, len, "at most %d words per message, not %zu", RING_MAXW,
                 n);
        return MCE_ERR_INVAL;
    }
    mcei_sync(vn);
    mcei_iw_cpu(vn, cam_k()->compose);
    mcei_charge_comm(vn, cam_k()->split);
    mcei_sync(vn);
    c->busy = 1;
    if (mcei_send_at(vn, vn->clock, successor(vn), MCEI_CTX_PROTOCOL,
                     MCEI_IW_RING, w, n * 4, aux, NULL) != MCE_OK)
        mcei_vn_fatal(vn, "iwarp: out of memory on the ring");
    mcei_count_sent(vn, (uint64_t)n * 4);
    mcei_charge_comm(vn, (mce_time_t)n * cam_k()->word + cam_k()->join);
    mcei_sync(vn);
    mcei_charge_comm(vn, c->queued_words * cam_k()->backlog);
    mcei_sync(vn);
    c->busy = 0;
    drain(vn, vn->clock);
    return MCE_OK;
}

/* The receive set is the CAM itself (loaded by the call); the program's
 * memory is not touched here (wait conditions run on any node's turn). */
static int held_in_set(mcei_vn_t *vn, void *arg)
{
    cam_node_t *c = cn(vn);
    (void)arg;
    return c->held != NULL && matches(c, (uint32_t)c->held->w.aux[0]);
}

int mcei_iw_selective_receive(mcei_vn_t *vn, const uint32_t *headers, int nh,
                              uint32_t *header, uint32_t *w, size_t cap,
                              size_t *n, char *why, size_t len)
{
    cam_node_t *c = cn(vn);
    mcei_msg_t *m;
    size_t words;
    if (nh < 1 || nh > cam_k()->entries) {
        snprintf(why, len,
                 "%d headers: the address-match CAM holds 1 .. %d entries", nh,
                 cam_k()->entries);
        return MCE_ERR_RESOURCE;
    }
    mcei_sync(vn);
    mcei_iw_cpu(vn, cam_k()->load);
    mcei_sync(vn);
    for (int i = 0; i < cam_k()->entries; i++) {
        c->valid[i] = i < nh;
        c->cam[i] = i < nh ? headers[i] : 0;
    }
    rematch(vn);
    mcei_wait(vn, held_in_set, NULL, "iwarp_selective_receive",
              "a ring message matching this cell's CAM");
    m = c->held;
    c->busy = 1;
    c->held = NULL;
    words = m->w.size / 4;
    *header = (uint32_t)m->w.aux[0];
    memcpy(w, mcei_msg_data(m), (words < cap ? words : cap) * 4);
    *n = words;
    mcei_msg_release(m);
    mcei_count_recv(vn, (uint64_t)words * 4);
    mcei_charge_comm(vn, cam_k()->split + (mce_time_t)words * cam_k()->word +
                             cam_k()->join);
    mcei_sync(vn);
    mcei_charge_comm(vn, c->queued_words * cam_k()->backlog);
    mcei_sync(vn);
    c->busy = 0;
    drain(vn, vn->clock);
    return words > cap ? MCE_ERR_TRUNCATE : MCE_OK;
}

uint64_t mcei_iw_ring_forwarded(mcei_vn_t *vn)
{
    mcei_sync(vn);
    return cn(vn)->forwarded;
}

int mcei_iw_ring_position(mcei_vn_t *vn)
{
    return mcei_iw_ring_pos(vn->id, cam_k()->width);
}
