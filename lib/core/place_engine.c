/* The engine's placement: the machine's topology (from the network model,
 * else the protocol), --mce-placement and --mce-place-weights, checked to
 * be the same on every rank; and, with --mce-verbose, the count of
 * messages whose source and destination ranks differ and each rank's
 * share of the context switches, printed by rank 0 when the run ends.
 *
 * The engine notes each message its nodes send (mcei_place_note_msg, in
 * the window loop) and calls mcei_place_report_run at the end of the run;
 * the report sums the ranks' counts.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "transport.h"

void mcei_net_no_topology(const mcei_net_t *net, mcei_topo_t *out)
{
    (void)net;
    memset(out, 0, sizeof(*out));
    out->kind = MCEI_TOPO_NONE;
}

int mcei_net_commit_none(mcei_net_t *net, mce_time_t horizon)
{
    (void)net;
    (void)horizon;
    return MCE_OK;
}

mce_time_t mcei_net_first_event_lookahead(const mcei_net_t *net,
                                          const mcei_wire_t *w)
{
    mce_time_t t;
    if (mcei_time_add(w->ts, net->ops->lookahead(net), &t) != MCE_OK)
        return MCEI_TIME_INF;
    return t;
}

void mcei_proto_no_topology(const mcei_engine_t *eng, mcei_topo_t *out)
{
    (void)eng;
    memset(out, 0, sizeof(*out));
    out->kind = MCEI_TOPO_NONE;
}

/* ---- setup ----------------------------------------------------------------
 */

/* FNV-1a over the owner table: equal on every rank or the ranks would
 * exchange with the wrong peers. */
static int place_hash(const mcei_place_t *p)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int v = 0; v < p->nodes; v++) {
        h ^= (uint64_t)(uint32_t)mcei_place_rank_of(p, v);
        h *= 0x100000001b3ULL;
    }
    return (int)((h ^ (h >> 31)) & 0x3fffffff);
}

int mcei_place_setup(mcei_engine_t *eng, char *err, size_t errlen)
{
    mcei_topo_t topo;
    uint64_t *w = NULL;
    int rc = MCE_OK, bad, anybad = 0;
    const char *wpath = eng->cfg.place_weights;

    eng->net.ops->topology(&eng->net, &topo);
    if (topo.kind == MCEI_TOPO_NONE)
        eng->proto->topology(eng, &topo);
    if (wpath != NULL && *wpath != '\0') {
        rc = mcei_place_read_weights(wpath, eng->nodes, &w, err, errlen);
        if (rc != MCE_OK) {
            char tmp[768];
            snprintf(tmp, sizeof(tmp), "option --mce-place-weights: %s", err);
            snprintf(err, errlen, "%s", tmp);
        }
    }
    if (rc == MCE_OK) {
        char why[256];
        rc = mcei_place_build(&eng->place, eng->nodes, eng->nranks,
                              eng->cfg.placement, &topo, w, why, sizeof(why));
        if (rc != MCE_OK)
            snprintf(err, errlen, "placement %s of %d nodes on %d ranks: %s",
                     mcei_place_policy_name(eng->cfg.placement), eng->nodes,
                     eng->nranks, why);
    }
    free(w);
    if (wpath != NULL && *wpath != '\0') {
        /* Every rank read its own copy of the file: all must agree (a
         * failure on one rank fails them all, in step). */
        int h = rc == MCE_OK ? place_hash(&eng->place) : 0, hmax = 0, hneg = 0;
        bad = rc != MCE_OK;
        mcei_transport_max_int(bad, &anybad);
        mcei_transport_max_int(h, &hmax);
        mcei_transport_max_int(-h, &hneg);
        if (!anybad && (hmax != h || -hneg != h)) {
            snprintf(err, errlen,
                     "option --mce-place-weights: '%s' gives different "
                     "placements on different ranks (is it the same file "
                     "on every host?)",
                     wpath);
            rc = MCE_ERR_CONFIG;
        } else if (anybad && !bad) {
            snprintf(err, errlen,
                     "option --mce-place-weights: '%s' cannot be used on "
                     "every rank",
                     wpath);
            rc = MCE_ERR_CONFIG;
        }
    }
    return rc;
}

int mcei_place_init(mcei_place_t *p, int nodes, int ranks,
                    mcei_placement_t policy)
{
    char err[1024];
    mcei_engine_t *eng = mcei_eng;
    if (eng != NULL && p == &eng->place && !eng->started &&
        nodes == eng->nodes && ranks == eng->nranks &&
        policy == eng->cfg.placement) {
        int rc = mcei_place_setup(eng, err, sizeof(err));
        if (rc != MCE_OK && eng->rank == 0)
            mcei_log("%s", err);
        return rc;
    }
    return mcei_place_build(p, nodes, ranks, policy, NULL, NULL, err,
                            sizeof(err));
}

/* ---- the end-of-run report ----------------------------------------------- */

typedef struct rank_rec {
    uint64_t switches, msgs, cross;
} rank_rec_t;

void mcei_place_report_run(mcei_engine_t *eng)
{
    rank_rec_t mine = {eng->switches, eng->place.msgs, eng->place.cross};
    void *all = NULL;
    size_t n = 0;
    if (mcei_transport_gather(&mine, 1, sizeof(mine), &all, &n) != MCE_OK)
        return;
    if (eng->rank == 0 && n > 0) {
        const rank_rec_t *r = all;
        const mcei_place_t *p = &eng->place;
        uint64_t sum = 0, max = 0, msgs = 0, cross = 0;
        char list[512] = "";
        size_t at = 0;
        for (size_t i = 0; i < n; i++) {
            sum += r[i].switches;
            msgs += r[i].msgs;
            cross += r[i].cross;
            max = r[i].switches > max ? r[i].switches : max;
            if (at < sizeof(list))
                at +=
                    (size_t)snprintf(list + at, sizeof(list) - at, "%s%" PRIu64,
                                     i ? "," : "", r[i].switches);
        }
        /* One line, so that scripts find both numbers: cross_rank counts
         * the messages (program and protocol) whose source and
         * destination ranks differ, switch_max_share the busiest rank's
         * share of the context switches (1/ranks is perfect balance). */
        printf("mcemu: placement %s: cross_rank=%" PRIu64 " messages=%" PRIu64
               " switches_per_rank=%s switch_max_share=%.3f\n",
               mcei_place_policy_name(p->policy), cross, msgs, list,
               sum ? (double)max / (double)sum : 0.0);
        fflush(stdout);
    }
    free(all);
}
