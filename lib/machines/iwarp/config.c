/* The iWarp cell's PCTs and gates: allocation, configuration,
 * release, gate binding (doc/design/iwarp-tcs.md, sections 2.1 and
 * 3.1-3.3).
 *
 * Direct configuration: each cell configures its own PCTs; every change
 * costs pct_config and is mirrored to the network model (MCEI_IW_CFG). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell.h"

static const char *port_name(int port)
{
    static const char *const names[] = {"CPU", "X+", "X-", "Y+", "Y-"};
    return port >= 0 && port <= MCEI_IW_YM ? names[port] : "?";
}

/* PCT configuration and gate binding: free while a caller that charges
 * them as a whole (the TCS switch and barrier lookup) holds cfg_free. */
static void charge_cfg(mcei_vn_t *vn, mce_time_t t)
{
    if (!node_of(vn)->cfg_free)
        charge_cpu(vn, t);
}

void mcei_iw_cfg_free(mcei_vn_t *vn, int on)
{
    node_of(vn)->cfg_free = on;
}

int mcei_iw_pct_state(mcei_vn_t *vn, int pct, int *in_port, int *in_pct,
                      int *out_port, int *out_pct, int *endpoint)
{
    const iw_pct_t *p = &node_of(vn)->pct[pct];
    if (p->state != PCT_CONFIGURED)
        return 0;
    *in_port = p->in_port;
    *in_pct = p->in_pct;
    *out_port = p->out_port;
    *out_pct = p->out_pct;
    *endpoint = p->endpoint;
    return 1;
}

int mcei_iw_gate_pct(mcei_vn_t *vn, int gate)
{
    return node_of(vn)->gate[gate];
}

/* ---- PCTs and gates --------------------------------------------------- */

int mcei_iw_pct_alloc(mcei_vn_t *vn, int *pct, char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    mcei_iw_flush(vn);
    for (int i = 0; i < iwc()->pcts; i++)
        if (nd->pct[i].state == PCT_FREE) {
            nd->pct[i].state = PCT_ALLOCATED;
            *pct = i;
            return MCE_OK;
        }
    snprintf(why, len, "out of PCTs: all %d PCTs of this cell are in use",
             iwc()->pcts);
    return MCE_ERR_RESOURCE;
}

static int check_pct(int pct, char *why, size_t len)
{
    if (pct < 0 || pct >= iwc()->pcts) {
        snprintf(why, len, "no PCT %d (the cell has PCTs 0..%d)", pct,
                 iwc()->pcts - 1);
        return MCE_ERR_INVAL;
    }
    return MCE_OK;
}

/* The cell at the other end of a connection that ends in this PCT. */
static int check_endpoint(int endpoint, char *why, size_t len)
{
    if (endpoint < 0 || endpoint >= mcei_nnodes()) {
        snprintf(why, len,
                 "an end PCT of a connection needs the cell at the other "
                 "end (0..%d), not %d",
                 mcei_nnodes() - 1, endpoint);
        return MCE_ERR_INVAL;
    }
    return MCE_OK;
}

/* PCT @p pct's configuration, as it now stands, to the network model
 * (which applies it max(lookahead, pct_config) later); @p what names the
 * operation for the out-of-memory diagnostic. */
static void send_cfg(mcei_vn_t *vn, int pct, const iw_pct_t *p,
                     const char *what)
{
    uint64_t aux[2];
    aux[0] = mcei_iw_cfg_pack(pct, p->in_port, p->in_pct, p->out_port,
                              p->out_pct, p->endpoint, 0);
    aux[1] = (uint64_t)p->throttle;
    if (mcei_send(vn, vn->id, MCEI_CTX_PROTOCOL, MCEI_IW_CFG, NULL, 0, aux,
                  NULL) != MCE_OK)
        mcei_vn_fatal(vn, "iwarp: out of memory %s a PCT", what);
}

int mcei_iw_pct_config(mcei_vn_t *vn, int pct, int in_port, int in_pct,
                       int out_port, int out_pct, int endpoint, char *why,
                       size_t len)
{
    iw_node_t *nd = node_of(vn);
    iw_pct_t *p;
    int rc = check_pct(pct, why, len);
    mcei_iw_flush(vn);
    if (rc != MCE_OK)
        return rc;
    p = &nd->pct[pct];
    if (in_port < MCEI_IW_CPU || in_port > MCEI_IW_YM ||
        out_port < MCEI_IW_CPU || out_port > MCEI_IW_YM) {
        snprintf(why, len,
                 "ports must be IW_CPU, IW_XP, IW_XM, IW_YP or "
                 "IW_YM");
        return MCE_ERR_INVAL;
    }
    if (in_port == MCEI_IW_CPU && out_port == MCEI_IW_CPU) {
        snprintf(why, len,
                 "PCT %d would take its words from the CPU and "
                 "give them back to it: no connection",
                 pct);
        return MCE_ERR_INVAL;
    }
    if ((in_port != MCEI_IW_CPU && (rc = check_pct(in_pct, why, len))) ||
        (out_port != MCEI_IW_CPU && (rc = check_pct(out_pct, why, len))))
        return rc;
    if ((in_port == MCEI_IW_CPU || out_port == MCEI_IW_CPU) &&
        (rc = check_endpoint(endpoint, why, len)) != MCE_OK)
        return rc;
    if (p->state == PCT_CONFIGURED) {
        snprintf(why, len,
                 "PCT %d is already configured (%s PCT %d -> %s PCT %d): "
                 "release it first",
                 pct, port_name(p->in_port), p->in_pct, port_name(p->out_port),
                 p->out_pct);
        return MCE_ERR_RESOURCE;
    }
    mcei_sync(vn);
    charge_cfg(vn, iwc()->pct_config);
    p->state = PCT_CONFIGURED;
    p->in_port = in_port;
    p->in_pct = in_port == MCEI_IW_CPU ? 0 : in_pct;
    p->out_port = out_port;
    p->out_pct = out_port == MCEI_IW_CPU ? 0 : out_pct;
    p->endpoint =
        in_port == MCEI_IW_CPU || out_port == MCEI_IW_CPU ? endpoint : -1;
    p->throttle = in_port == MCEI_IW_CPU ? p->next_throttle : 0;
    p->next_throttle = 0;
    send_cfg(vn, pct, p, "configuring");
    return MCE_OK;
}

int mcei_iw_pct_repoint(mcei_vn_t *vn, int pct, int out_port, int out_pct,
                        int endpoint, char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    iw_pct_t *p;
    char what[96];
    int rc = check_pct(pct, why, len);
    mcei_iw_flush(vn);
    if (rc != MCE_OK)
        return rc;
    p = &nd->pct[pct];
    if (p->state != PCT_CONFIGURED || p->in_port != MCEI_IW_CPU) {
        snprintf(why, len,
                 "PCT %d is not a configured source PCT (input from the CPU): "
                 "only a source PCT can be re-pointed",
                 pct);
        return MCE_ERR_STATE;
    }
    if (out_port < MCEI_IW_XP || out_port > MCEI_IW_YM) {
        snprintf(why, len,
                 "a re-pointed PCT sends to IW_XP, IW_XM, IW_YP or "
                 "IW_YM");
        return MCE_ERR_INVAL;
    }
    if ((rc = check_pct(out_pct, why, len)) != MCE_OK)
        return rc;
    if ((rc = check_endpoint(endpoint, why, len)) != MCE_OK)
        return rc;
    /* the PCT's words must have left it: wait (idle) until the last word
     * written into it has fully entered its link, as the model knows it
     * (the model refuses a path change while words are on the old one) */
    if (p->words > 0) {
        snprintf(what, sizeof(what),
                 "PCT %d to drain (connection to (%d,%d)) before re-pointing",
                 pct, p->endpoint % iwc()->width, p->endpoint / iwc()->width);
        (void)mcei_iw_seg_wait(vn, pct, mcei_iw_own_key(vn, pct), p->words, 0,
                               "iwarp_pct_repoint", mcei_iw_str_what, what);
    }
    mcei_sync(vn);
    charge_cfg(vn, iwc()->pct_config);
    p->out_port = out_port;
    p->out_pct = out_pct;
    p->endpoint = endpoint;
    send_cfg(vn, pct, p, "re-pointing");
    return MCE_OK;
}

void mcei_iw_pct_set_throttle(mcei_vn_t *vn, int pct, int throttle)
{
    if (pct >= 0 && pct < iwc()->pcts)
        node_of(vn)->pct[pct].next_throttle = throttle > 0 ? throttle : 0;
}

int mcei_iw_pct_throttle(mcei_vn_t *vn, int pct)
{
    if (pct < 0 || pct >= iwc()->pcts ||
        node_of(vn)->pct[pct].state != PCT_CONFIGURED)
        return 0;
    return node_of(vn)->pct[pct].throttle;
}

uint64_t mcei_iw_pct_unread(mcei_vn_t *vn, int pct)
{
    if (pct < 0 || pct >= iwc()->pcts)
        return 0;
    mcei_iw_flush(vn);
    mcei_sync(vn);
    return node_of(vn)->pct[pct].rx_words;
}

/* 1 if every unread block of @p p came from cell @p from (none: 0). */
static int unread_from(const iw_pct_t *p, int from)
{
    if (p->rx_words == 0 || from < 0)
        return 0;
    for (const mcei_msg_t *m = p->rx.head; m != NULL; m = m->next)
        if (m->w.src != from)
            return 0;
    return 1;
}

static int release(mcei_vn_t *vn, int pct, int keep_from, char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    iw_pct_t *p;
    int rc = check_pct(pct, why, len);
    mcei_iw_flush(vn);
    if (rc != MCE_OK)
        return rc;
    p = &nd->pct[pct];
    if (p->state == PCT_FREE) {
        snprintf(why, len, "PCT %d is not in use", pct);
        return MCE_ERR_STATE;
    }
    for (int g = 0; g < MCEI_IW_GATES; g++)
        if (nd->gate[g] == pct) {
            snprintf(why, len,
                     "gate %s is still bound to PCT %d: unbind it "
                     "first",
                     gate_name(g), pct);
            return MCE_ERR_STATE;
        }
    mcei_sync(vn);
    if (unread_from(p, keep_from)) {
        /* the words stay for the next configuration; the model took them
         * as read when this release reached it (a flow's next block on a
         * new path starts from all its words taken), so their reads are
         * not posted again */
        p->untold = p->rx_words;
    } else if (p->rx_words > 0)
        mcei_vn_fatal(vn,
                      "iwarp_pct_release: PCT %d holds %" PRIu64
                      " unread word(s); on iWarp these words would be lost",
                      pct, p->rx_words);
    if (p->state == PCT_CONFIGURED) {
        uint64_t aux[2] = {mcei_iw_cfg_pack(pct, 0, 0, 0, 0, -1, 1), 0};
        charge_cfg(vn, iwc()->pct_config);
        if (mcei_send(vn, vn->id, MCEI_CTX_PROTOCOL, MCEI_IW_CFG, NULL, 0, aux,
                      NULL) != MCE_OK)
            mcei_vn_fatal(vn, "iwarp: out of memory releasing a PCT");
    }
    p->state = PCT_FREE;
    return MCE_OK;
}

int mcei_iw_pct_release(mcei_vn_t *vn, int pct, char *why, size_t len)
{
    return release(vn, pct, -1, why, len);
}

int mcei_iw_pct_release_keep(mcei_vn_t *vn, int pct, int from, char *why,
                             size_t len)
{
    return release(vn, pct, from, why, len);
}

int mcei_iw_gate_bind(mcei_vn_t *vn, int gate, int pct, char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    int rc = check_pct(pct, why, len), write = gate >= MCEI_IW_W0;
    mcei_iw_flush(vn);
    if (rc != MCE_OK)
        return rc;
    if (gate < 0 || gate >= MCEI_IW_GATES) {
        snprintf(why, len, "no gate %d (IW_R0, IW_R1, IW_W0 or IW_W1)", gate);
        return MCE_ERR_INVAL;
    }
    if (nd->gate[gate] >= 0) {
        int other = write ? MCEI_IW_W0 + MCEI_IW_W1 - gate
                          : MCEI_IW_R0 + MCEI_IW_R1 - gate;
        if (nd->gate[other] >= 0)
            snprintf(why, len,
                     "out of gates: both %s gates are bound (%s to PCT %d, "
                     "%s to PCT %d)",
                     write ? "write" : "read", gate_name(MCEI_IW_W0 * write),
                     nd->gate[MCEI_IW_W0 * write],
                     gate_name(MCEI_IW_W0 * write + 1),
                     nd->gate[MCEI_IW_W0 * write + 1]);
        else
            snprintf(why, len,
                     "gate %s is already bound to PCT %d (unbind it first, or "
                     "use %s)",
                     gate_name(gate), nd->gate[gate], gate_name(other));
        return MCE_ERR_RESOURCE;
    }
    if (nd->pct[pct].state != PCT_CONFIGURED) {
        snprintf(why, len, "PCT %d is not configured", pct);
        return MCE_ERR_STATE;
    }
    if (write && nd->pct[pct].in_port != MCEI_IW_CPU) {
        snprintf(why, len,
                 "PCT %d takes its words from the %s link, not from the CPU: "
                 "a write gate cannot feed it",
                 pct, port_name(nd->pct[pct].in_port));
        return MCE_ERR_STATE;
    }
    if (!write && nd->pct[pct].out_port != MCEI_IW_CPU) {
        snprintf(why, len,
                 "PCT %d sends its words to the %s link, not to the CPU: a "
                 "read gate cannot read it",
                 pct, port_name(nd->pct[pct].out_port));
        return MCE_ERR_STATE;
    }
    for (int g = 0; g < MCEI_IW_GATES; g++)
        if (nd->gate[g] == pct) {
            snprintf(why, len, "PCT %d is already bound to gate %s", pct,
                     gate_name(g));
            return MCE_ERR_RESOURCE;
        }
    charge_cfg(vn, iwc()->gate_bind);
    nd->gate[gate] = pct;
    return MCE_OK;
}

int mcei_iw_gate_unbind(mcei_vn_t *vn, int gate, char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    mcei_iw_flush(vn);
    if (gate < 0 || gate >= MCEI_IW_GATES) {
        snprintf(why, len, "no gate %d (IW_R0, IW_R1, IW_W0 or IW_W1)", gate);
        return MCE_ERR_INVAL;
    }
    if (nd->gate[gate] < 0) {
        snprintf(why, len, "gate %s is not bound", gate_name(gate));
        return MCE_ERR_STATE;
    }
    charge_cfg(vn, iwc()->gate_bind);
    nd->gate[gate] = -1;
    return MCE_OK;
}
