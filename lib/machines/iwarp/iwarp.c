/* The iWarp node protocol (doc/design/iwarp-tcs.md, steps 1-2 of its
 * plan): the cell.
 *
 * Per cell: iwarp.pcts PCTs (free, allocated or configured, with their
 * input and output: the CPU or a link side and the PCT of the neighbour),
 * two read and two write gates bound to PCTs, and per destination PCT the
 * blocks delivered and not yet read (the local FIFO view).
 *
 * The protocol's files (cell.h): this one holds the cell's records, its
 * arrivals and its idling; conn.c the connections' progress, gate.c the
 * gate writes and reads, spool_pct.c the PCT side of the spools, config.c
 * the PCTs and gates, plugin.c the ops table and the plug-in.  cpu.c
 * charges the cell's CPU work, stretched by the spools. */
#include "iwarp.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell.h"

int mcei_iw_active(const mcei_iw_costs_t **c)
{
    mcei_iw_state_t *st = mcei_iw_state();
    if (st == NULL)
        return 0;
    if (c != NULL)
        *c = &st->costs;
    return 1;
}

/* ---- idling until a time ------------------------------------------------ */

#define T_ALIGN 0x4941

static int reached(mcei_vn_t *vn, void *arg)
{
    (void)vn;
    return *(const int *)arg;
}

/* A wait on a node-local timer rather than a charge: a handler that
 * arrives meanwhile takes idle time instead of delaying the program. */
void mcei_iw_align(mcei_vn_t *vn, mce_time_t t)
{
    int done = 0;
    mcei_iw_flush(vn);
    if (t <= vn->clock)
        return;
    if (mcei_timer_at(vn, t, T_ALIGN, NULL, &done, NULL, 0) != MCE_OK)
        mcei_vn_fatal(vn, "iwarp: out of memory in iwarp_align");
    mcei_wait(vn, reached, &done, "iwarp_align", "its alignment time");
}

/* ---- arrivals ----------------------------------------------------------- */

/* The modules (cam.c, deposit.c) take only protocol messages, before
 * this (plugin.c): the timers are the cell's. */
void mcei_iw_cell_arrival(mcei_vn_t *vn, mcei_msg_t *m)
{
    iw_node_t *nd = node_of(vn);
    if (m->w.ctx == MCEI_CTX_TIMER && m->w.type == T_ALIGN) {
        *(int *)m->cookie = 1;
        mcei_msg_release(m);
        return;
    }
    if (m->w.ctx == MCEI_CTX_TIMER && m->w.type == T_SEG_WAKE) {
        int pct = (int)m->w.aux[0];
        if (pct >= 0 && pct < iwc()->pcts)
            nd->pct[pct].fired = m->w.aux[1];
        mcei_msg_release(m);
        return;
    }
    if (m->w.ctx == MCEI_CTX_PROTOCOL && m->w.type == MCEI_IW_SEG) {
        int pct = (int)(m->w.aux[0] & 0xff);
        if (pct < iwc()->pcts && m->w.size == sizeof(mcei_iw_seg_t))
            mcei_iw_seg_add(vn, &nd->pct[pct], m);
        mcei_msg_release(m);
        return;
    }
    if (m->w.ctx == MCEI_CTX_PROTOCOL && m->w.type == MCEI_IW_DATA) {
        int dpct = (int)(m->w.aux[0] & 0xff);
        iw_pct_t *p = &nd->pct[dpct];
        if (dpct >= iwc()->pcts || p->state != PCT_CONFIGURED ||
            p->out_port != MCEI_IW_CPU)
            mcei_vn_fatal_at(vn, m->arrival,
                             "iwarp: words from (%d,%d) reached PCT %d, which "
                             "no longer ends a connection: on iWarp they "
                             "would be lost",
                             m->w.src % iwc()->width, m->w.src / iwc()->width,
                             dpct);
        mcei_msgq_push(&p->rx, m);
        p->rx_words += m->w.size / 4;
        return;
    }
    /* Nothing else travels on the iwarp network. */
    mcei_msg_release(m);
}

/* ---- the cell's records ------------------------------------------------- */

int mcei_iw_cell_node_init(mcei_vn_t *vn)
{
    iw_node_t *nd = calloc(1, sizeof(*nd));
    if (nd == NULL ||
        (nd->pct = calloc((size_t)iwc()->pcts, sizeof(*nd->pct))) == NULL) {
        free(nd);
        return MCE_ERR_NOMEM;
    }
    for (int i = 0; i < iwc()->pcts; i++)
        nd->pct[i].sl[0].key = nd->pct[i].sl[1].key = -1;
    for (int g = 0; g < MCEI_IW_GATES; g++)
        nd->gate[g] = -1;
    nd->pend_gate = -1;
    vn->proto = nd;
    return MCE_OK;
}

void mcei_iw_cell_node_fini(mcei_vn_t *vn)
{
    iw_node_t *nd = node_of(vn);
    if (nd == NULL)
        return;
    for (int i = 0; i < iwc()->pcts; i++) {
        mcei_msg_t *m;
        while ((m = nd->pct[i].rx.head) != NULL) {
            mcei_msgq_remove(&nd->pct[i].rx, m);
            mcei_msg_release(m);
        }
        free(nd->pct[i].sl[0].seg);
        free(nd->pct[i].sl[1].seg);
    }
    free(nd->pct);
    free(nd->pend_w);
    free(nd);
    vn->proto = NULL;
}
