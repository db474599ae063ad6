/* The TCS linker (doc/design/iwarp-tcs.md, section 8.3; Warfel 1996,
 * sections 2.3-2.5, 4.5.4, 5.3, 6.4.2).  Deterministic: every rank links
 * the same declaration to the same result.
 *
 * 1. Tree checks: recursion (a task running an ancestor's code), cells
 *    outside the parent, connection cells outside the task, external
 *    connections (children of the declaring parent, an output to an
 *    input), ports connected exactly once, connected siblings disjoint.
 * 2. Routes: every internal connection once per netgroup containing its
 *    network, every external connection once; candidates X-then-Y and
 *    Y-then-X, each way round the torus in each dimension, inside the
 *    nearest rectangle among the owner and its ancestors; the candidate
 *    with the smallest (largest load of coexisting uses on its links,
 *    hops, candidate order) wins.
 * 3. Coexistence: two uses can be active together unless they are
 *    internal connections of one task in different netgroups, or their
 *    tasks overlap and neither is an ancestor of the other.
 * 4. PCTs per cell: the heaviest set of uses of the cell that can be
 *    active together must fit the PCTs left after the RTS, deposit and
 *    barrier reservations; PCTs are then assigned greedily (coexisting
 *    uses get different PCTs).  A PCT on a cell outside the using task is
 *    "hoisted": configured by the nearest ancestor containing the whole
 *    route and held for that ancestor's lifetime.
 * 5. Phases (maximal sets of netgroups that can be active together):
 *    link loads, reservations (at most one link), DQ congestion kappa,
 *    throttles, predicted bandwidth and the longest path latency.
 * 6. Barriers: one per task and one per set of siblings joined by
 *    external connections; ring order (snake on rectangles, 2D rows and
 *    columns on the whole array unless TCS_RING1D), ring hops through
 *    other cells routed (their through-PCTs join step 4), slots per cell
 *    (at most tcs.barrier_slots barriers that can be pending together).
 * 7. The report.
 *
 * The steps live in their own files (tcs_linker.h): steps 1 and 5 in
 * tcs_check.c, 2 and 6's rings in tcs_route.c, 4 in tcs_pct.c, 6's slots
 * in tcs_slots.c, the cliques of 4, 5 and 6 in tcs_clique.c, 7 in
 * tcs_report.c.  This file runs them and keeps their result for the run
 * time (tcs_run.c); the personality's boot hook is tcs_boot.c. */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcs_linker.h"

/* ---- the link ------------------------------------------------------------ */

static void link_free(link_t *L)
{
    for (int i = 0; i < L->nuses; i++) {
        free(L->uses[i].cells);
        free(L->uses[i].ports);
        free(L->uses[i].pct);
        free(L->uses[i].owner);
        free(L->uses[i].hoisted);
    }
    free(L->uses);
    for (int i = 0; i < L->nbars; i++) {
        free(L->bars[i].set);
        free(L->bars[i].members);
        free(L->bars[i].slot);
        free(L->bars[i].hop);
    }
    free(L->bars);
    free(L->groups);
    for (int i = 0; i < L->nphases; i++)
        free(L->phases[i]);
    free(L->phases);
    free(L->phase_n);
    free(L->depth);
    free(L->in);
}

mcei_tcs_result_t *mcei_tcs_kept;

/* Hand the routes and barriers over to @p r, with the endpoint PCTs of
 * the ring hops (out PCT, the destination's slot) and each member's hop. */
static int keep_result(link_t *L, mcei_tcs_result_t *r)
{
    for (int b = 0; b < L->nbars; b++)
        if ((L->bars[b].hop =
                 malloc((size_t)(L->bars[b].nm + 1) * sizeof(int))) == NULL)
            return refuse(L, "out of memory");
        else
            for (int m = 0; m < L->bars[b].nm; m++)
                L->bars[b].hop[m] = -1;
    for (int i = 0; i < L->nuses; i++) {
        use_t *u = &L->uses[i];
        barrier_t *b;
        if (u->kind != USE_BAR)
            continue;
        b = &L->bars[u->item];
        for (int m = 0; m < b->nm; m++) {
            if (b->members[m] == u->src)
                b->hop[m] = i;
            if (b->members[m] == u->dst)
                u->pct[u->n] = L->rts + 1 + b->slot[m];
        }
        u->pct[0] = L->rts;
    }
    r->uses = L->uses;
    r->nuses = L->nuses;
    r->bars = L->bars;
    r->nbars = L->nbars;
    r->rts = L->rts;
    r->bar = L->bar;
    r->dep = L->dep;
    L->uses = NULL;
    L->nuses = 0;
    L->bars = NULL;
    L->nbars = 0;
    return MCE_OK;
}

static int link_run(const tcs_decl_t *d, FILE *out, FILE *warn, char *err,
                    size_t errlen, mcei_tcs_result_t *keep)
{
    link_t L;
    int rc, nt = d->ntasks;
    memset(&L, 0, sizeof(L));
    L.d = d;
    L.mc = &d->mc;
    L.cells = d->mc.width * d->mc.height;
    L.warn = warn;
    L.err = err;
    L.errlen = errlen;
    if (d->failed) {
        snprintf(err, errlen, "%s", d->err);
        return MCE_ERR_CONFIG;
    }
    if (nt == 0) {
        snprintf(err, errlen, "tcs_declare declared no task");
        return MCE_ERR_CONFIG;
    }
    L.depth = calloc((size_t)nt, sizeof(int));
    L.in = calloc((size_t)nt * (size_t)L.cells, 1);
    if (!L.depth || !L.in) {
        rc = refuse(&L, "out of memory");
        goto out;
    }
    for (int t = 0; t < nt; t++)
        for (int i = 0; i < d->tasks[t].ncells; i++)
            L.in[(size_t)t * (size_t)L.cells + (size_t)d->tasks[t].cells[i]] =
                1;
    mcei_tcs_reserved(d, 0, &L.rts, &L.dep, &L.bar);
    L.base = L.rts + L.bar + L.dep;
    if (L.base > d->mc.pcts) {
        rc = refuse(&L,
                    "the reservations need %d PCTs per cell (RTS %d, barriers "
                    "%d, deposit %d) but a cell has %d",
                    L.base, L.rts, L.bar, L.dep, d->mc.pcts);
        goto out;
    }
    if ((rc = mcei_tcsl_check_tree(&L)) != MCE_OK ||
        (rc = mcei_tcsl_route_all(&L)) != MCE_OK ||
        (rc = mcei_tcsl_build_barriers(&L)) != MCE_OK ||
        (rc = mcei_tcsl_assign_pcts(&L)) != MCE_OK ||
        (rc = mcei_tcsl_find_phases(&L)) != MCE_OK)
        goto out;
    for (int p = 0; p < L.nphases; p++)
        if ((rc = mcei_tcsl_phase_check(&L, p, NULL)) != MCE_OK)
            goto out;
    if ((rc = mcei_tcsl_assign_slots(&L)) != MCE_OK)
        goto out;
    if (out != NULL)
        mcei_tcsl_report(&L, out);
    if (keep != NULL)
        rc = keep_result(&L, keep);
out:
    link_free(&L);
    return rc;
}

int mcei_tcs_link(const tcs_decl_t *d, FILE *out, FILE *warn, char *err,
                  size_t errlen)
{
    return link_run(d, out, warn, err, errlen, NULL);
}

void mcei_tcs_result_free(mcei_tcs_result_t *r)
{
    link_t L;
    if (r == NULL)
        return;
    memset(&L, 0, sizeof(L));
    L.uses = r->uses;
    L.nuses = r->nuses;
    L.bars = r->bars;
    L.nbars = r->nbars;
    link_free(&L);
    mcei_tcs_decl_free(&r->d);
    free(r->at_start);
    free(r->at_use);
    free(r->at_k);
    free(r);
}

/* The result's per-cell index of route places (at_start, at_use, at_k). */
static int index_cells(mcei_tcs_result_t *r)
{
    size_t total = 0;
    int ncells = 0;
    for (int i = 0; i < r->nuses; i++)
        for (int k = 0; k <= r->uses[i].n; k++) {
            ncells = r->uses[i].cells[k] >= ncells ? r->uses[i].cells[k] + 1
                                                   : ncells;
            total++;
        }
    if (total > INT_MAX)
        return MCE_ERR_NOMEM;
    r->at_start = calloc((size_t)ncells + 1, sizeof(int));
    r->at_use = malloc((total ? total : 1) * sizeof(int));
    r->at_k = malloc((total ? total : 1) * sizeof(int));
    if (r->at_start == NULL || r->at_use == NULL || r->at_k == NULL)
        return MCE_ERR_NOMEM;
    r->ncells = ncells;
    /* counted per cell, then listed in (use, place) order */
    for (int i = 0; i < r->nuses; i++)
        for (int k = 0; k <= r->uses[i].n; k++)
            r->at_start[r->uses[i].cells[k] + 1]++;
    for (int c = 0; c < ncells; c++)
        r->at_start[c + 1] += r->at_start[c];
    {
        int *fill = calloc((size_t)ncells + 1, sizeof(int));
        if (fill == NULL)
            return MCE_ERR_NOMEM;
        for (int i = 0; i < r->nuses; i++)
            for (int k = 0; k <= r->uses[i].n; k++) {
                int c = r->uses[i].cells[k], j = r->at_start[c] + fill[c]++;
                r->at_use[j] = i;
                r->at_k[j] = k;
            }
        free(fill);
    }
    return MCE_OK;
}

int mcei_tcs_link_keep(tcs_decl_t *d, FILE *warn, char *err, size_t errlen,
                       mcei_tcs_result_t **res)
{
    mcei_tcs_result_t *r = calloc(1, sizeof(*r));
    int rc;
    if (r == NULL) {
        snprintf(err, errlen, "out of memory");
        return MCE_ERR_NOMEM;
    }
    if ((rc = link_run(d, NULL, warn, err, errlen, r)) != MCE_OK) {
        mcei_tcs_result_free(r);
        return rc;
    }
    if ((rc = index_cells(r)) != MCE_OK) {
        snprintf(err, errlen, "out of memory indexing the linked routes");
        mcei_tcs_result_free(r);
        return rc;
    }
    r->d = *d; /* the tables move to the result */
    memset(d, 0, sizeof(*d));
    *res = r;
    return MCE_OK;
}
