/* The TCS linker's checks (tcs_link.c): step 1, the tree of tasks,
 * ports and connections; step 5, the phases (maximal sets of netgroups
 * that can be active together) with their link loads, reservations,
 * congestion, throttles, bandwidth and latency. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcs_linker.h"

/* ---- step 1: the tree ------------------------------------------------- */

int mcei_tcsl_check_tree(link_t *L)
{
    const tcs_decl_t *d = L->d;
    char a[128], b[128], c[64];
    for (int t = 0; t < d->ntasks; t++) {
        const mcei_tcs_task_t *k = &d->tasks[t];
        L->depth[t] = k->parent < 0 ? 0 : L->depth[k->parent] + 1;
        for (int p = k->parent; p >= 0; p = d->tasks[p].parent) {
            if (d->tasks[p].fn != k->fn)
                continue;
            /* the path from the ancestor down to t */
            char path[512];
            int chain[256], n = 0;
            size_t o = 0;
            for (int q = t; q != p && n < 255; q = d->tasks[q].parent)
                chain[n++] = q;
            o += (size_t)snprintf(path, sizeof(path), "'%s'", d->tasks[p].name);
            for (int i = n - 1; i >= 0 && o < sizeof(path); i--)
                o += (size_t)snprintf(path + o, sizeof(path) - o, " -> '%s'",
                                      d->tasks[chain[i]].name);
            return refuse(L,
                          "task '%s' runs the code of its ancestor '%s' (via "
                          "%s): recursion and reentrancy are not allowed, the "
                          "invocation depth must be known at link time",
                          k->name, d->tasks[p].name, path);
        }
        if (k->parent >= 0)
            for (int i = 0; i < k->ncells; i++)
                if (!L->in[k->parent * L->cells + k->cells[i]]) {
                    fmt_alloc(L, k->parent, a, sizeof(a));
                    fmt_cell(L, k->cells[i], c, sizeof(c));
                    return refuse(L,
                                  "task '%s': cell %s is outside its parent "
                                  "'%s' (cells %s)",
                                  k->name, c, d->tasks[k->parent].name, a);
                }
    }
    for (int i = 0; i < d->nconns; i++) {
        const mcei_tcs_conn_t *k = &d->conns[i];
        int t = d->nets[k->net].task, n = d->tasks[t].ncells;
        const char *which = NULL;
        int cell = 0;
        if (k->src_cell < 0 || k->src_cell >= n)
            which = "source", cell = k->src_cell;
        else if (k->dst_cell < 0 || k->dst_cell >= n)
            which = "destination", cell = k->dst_cell;
        if (which != NULL)
            return refuse(L,
                          "connection '%s.c%d' of task '%s': %s cell %d is "
                          "outside the task (%d cells)",
                          d->nets[k->net].name, k->index, d->tasks[t].name,
                          which, cell, n);
    }
    for (int i = 0; i < d->nexts; i++) {
        const mcei_tcs_ext_t *e = &d->exts[i];
        const mcei_tcs_port_t *po = &d->ports[e->out], *pi = &d->ports[e->in];
        port_full(L, e->out, a, sizeof(a));
        port_full(L, e->in, b, sizeof(b));
        for (int k = 0; k < 2; k++) {
            const mcei_tcs_port_t *p = k ? pi : po;
            if (d->tasks[p->task].parent != e->parent)
                return refuse(L,
                              "external connection from '%s' to '%s': '%s' is "
                              "not a child of %s%s%s, which declares the "
                              "connection",
                              a, b, d->tasks[p->task].name,
                              e->parent < 0 ? "" : "'", tname(L, e->parent),
                              e->parent < 0 ? " level" : "'");
            if (p->inherits >= 0)
                return refuse(L,
                              "external connection from '%s' to '%s': port "
                              "'%s' is inherited, its connection is its "
                              "parent's",
                              a, b, k ? b : a);
        }
        if (po->dir == pi->dir)
            return refuse(L,
                          "external connection from '%s' to '%s': both are "
                          "%s",
                          a, b, po->dir == TCS_OUT ? "outputs" : "inputs");
        if (po->dir != TCS_OUT)
            return refuse(L,
                          "external connection from '%s' to '%s': '%s' is an "
                          "input and '%s' an output (give the output first)",
                          a, b, a, b);
    }
    for (int p = 0; p < d->nports; p++) {
        int uses = 0;
        if (d->ports[p].inherits >= 0)
            continue;
        for (int i = 0; i < d->nexts; i++)
            uses += (d->exts[i].out == p) + (d->exts[i].in == p);
        if (uses == 0)
            return refuse(L,
                          "port '%s' of task '%s' is neither connected by its "
                          "parent nor inherited",
                          d->ports[p].name, d->tasks[d->ports[p].task].name);
        if (uses > 1)
            return refuse(L,
                          "port '%s' of task '%s' is connected %d times (a "
                          "port is one end of one connection)",
                          d->ports[p].name, d->tasks[d->ports[p].task].name,
                          uses);
    }
    for (int i = 0; i < d->nexts; i++) {
        int ta = d->ports[d->exts[i].out].task;
        int tb = d->ports[d->exts[i].in].task;
        if (ta == tb)
            continue;
        for (int k = 0; k < d->tasks[ta].ncells; k++) {
            int cell = d->tasks[ta].cells[k];
            if (!L->in[tb * L->cells + cell])
                continue;
            fmt_cell(L, cell, c, sizeof(c));
            return refuse(L,
                          "tasks '%s' and '%s' are connected (%s -> %s) but "
                          "both use cell %s",
                          d->tasks[ta].name, d->tasks[tb].name,
                          port_full(L, d->exts[i].out, a, sizeof(a)),
                          port_full(L, d->exts[i].in, b, sizeof(b)), c);
        }
    }
    return MCE_OK;
}

/* ---- step 5: phases, bandwidth and congestion --------------------------- */

int mcei_tcsl_find_phases(link_t *L)
{
    int n = L->ngroups, bn = 0, rc;
    int *w = malloc((size_t)(n + 1) * sizeof(int));
    int *best = malloc((size_t)(n + 1) * sizeof(int));
    unsigned char *adj = malloc((size_t)n * (size_t)n + 1);
    if (n == 0) { /* no connection: no phase */
        rc = MCE_OK;
        goto out;
    }
    if (!w || !best || !adj) {
        rc = refuse(L, "out of memory");
        goto out;
    }
    for (int i = 0; i < n; i++) {
        const group_t *a = &L->groups[i];
        desc_t da = {&a->task, 1, a->ng};
        w[i] = 1;
        for (int j = 0; j < n; j++) {
            const group_t *b = &L->groups[j];
            desc_t db = {&b->task, 1, b->ng};
            adj[i * n + j] = i != j && desc_coexist(L, &da, &db);
        }
    }
    rc = mcei_tcsl_clique(n, w, adj, best, &bn, &L->phases, &L->phase_n,
                          &L->nphases, MAX_PHASES);
    if (rc == MCE_ERR_RESOURCE)
        rc = refuse(L,
                    "more than %d phases (sets of netgroups that can be "
                    "active together): the linker checks at most %d",
                    MAX_PHASES, MAX_PHASES);
    else if (rc != MCE_OK)
        rc = refuse(L, "out of memory");
    /* phases in a stable order: each sorted, then lexicographically */
    for (int i = 0; i < L->nphases; i++)
        sort_ints(L->phases[i], L->phase_n[i]);
    for (int i = 1; i < L->nphases; i++)
        for (int j = i; j > 0; j--) {
            int *a = L->phases[j - 1], *b = L->phases[j];
            int na = L->phase_n[j - 1], nb = L->phase_n[j], k;
            for (k = 0; k < na && k < nb && a[k] == b[k]; k++)
                ;
            if (!(k < na && k < nb ? b[k] < a[k] : nb < na))
                break;
            L->phases[j - 1] = b;
            L->phases[j] = a;
            L->phase_n[j - 1] = nb;
            L->phase_n[j] = na;
        }
out:
    free(w);
    free(best);
    free(adj);
    return rc;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a ? a : 1;
}

static int in_phase(const link_t *L, int ph, const use_t *u)
{
    if (u->kind == USE_BAR)
        return 0;
    for (int i = 0; i < L->phase_n[ph]; i++)
        if (L->phases[ph][i] == u->group)
            return 1;
    return 0;
}

static void group_label(const link_t *L, int g, char *buf, size_t len)
{
    const group_t *x = &L->groups[g];
    if (x->kind == USE_INT)
        snprintf(buf, len, "'%s'/'%s'", tname(L, x->task),
                 L->d->ngs[x->ng].name);
    else
        snprintf(buf, len, "'%s'/external", tname(L, x->task));
}

/* Per phase: loads, reservations, kappa, bandwidth; @p out may be NULL. */
int mcei_tcsl_phase_check(link_t *L, int ph, FILE *out)
{
    int nl = L->cells * 4, rc = MCE_OK;
    int *fwd = calloc((size_t)nl, sizeof(int));
    int *unres = calloc((size_t)nl, sizeof(int));
    uint64_t *rnum = calloc((size_t)nl, sizeof(uint64_t));
    uint64_t *rden = malloc((size_t)nl * sizeof(uint64_t));
    int *thru = calloc((size_t)L->cells, sizeof(int));
    int *turn = calloc((size_t)L->cells, sizeof(int));
    int kmax = 1;
    uint64_t maxlat = 0;
    char lab[128], a[32], b[32];
    if (!fwd || !unres || !rnum || !rden || !thru || !turn) {
        rc = refuse(L, "out of memory");
        goto out;
    }
    for (int l = 0; l < nl; l++)
        rden[l] = 1;
    for (int i = 0; i < L->nuses; i++) {
        const use_t *u = &L->uses[i];
        if (!in_phase(L, ph, u))
            continue;
        if (u->latency > maxlat)
            maxlat = u->latency;
        for (int k = 0; k < u->n; k++) {
            int l = u->cells[k] * 4 + u->ports[k] - 1;
            fwd[l]++;
            if (u->bw_den == 0) {
                unres[l]++;
            } else {
                uint64_t n =
                    rnum[l] * u->bw_den + (uint64_t)u->bw_num * rden[l];
                uint64_t dd = rden[l] * u->bw_den, g = gcd64(n, dd);
                rnum[l] = n / g;
                rden[l] = dd / g;
            }
            if (k > 0) {
                thru[u->cells[k]]++;
                turn[u->cells[k]] |= u->ports[k] != u->ports[k - 1];
            }
        }
    }
    for (int l = 0; l < nl; l++) {
        if (rnum[l] <= rden[l])
            continue;
        char list[768];
        size_t o = 0;
        int cell = l / 4, port = l % 4 + 1;
        char where[96] = "";
        list[0] = '\0';
        for (int i = 0; i < L->nuses; i++) {
            const use_t *u = &L->uses[i];
            if (!in_phase(L, ph, u) || u->bw_den == 0 ||
                !use_on_link(u, cell, port))
                continue;
            if (o < sizeof(list))
                o += (size_t)snprintf(list + o, sizeof(list) - o,
                                      "%s%s (%u/%u)", o ? ", " : "", u->name,
                                      u->bw_num, u->bw_den);
            if (u->kind == USE_INT)
                snprintf(where, sizeof(where), "netgroup '%s'",
                         L->d->ngs[u->ng].name);
            else
                snprintf(where, sizeof(where),
                         "the external connections of "
                         "%s%s%s",
                         u->task < 0 ? "the " : "'", tname(L, u->task),
                         u->task < 0 ? "" : "'");
        }
        fmt_cell(L, cell, a, sizeof(a));
        fmt_cell(L, neighbour(L, cell, port), b, sizeof(b));
        rc = refuse(L,
                    "link %s->%s %s: connections %s request %" PRIu64
                    "/%" PRIu64 " of the link in %s",
                    a, b, port_names[port], list, rnum[l], rden[l], where);
        goto out;
    }
    /* DQ congestion (design s.3.3): >= 2 connections through a cell and
     * one of them turning there */
    for (int c = 0; c < L->cells; c++)
        if (thru[c] >= 2 && turn[c] && thru[c] > kmax)
            kmax = thru[c];
    /* the throttle the run time sets on the phase's connections */
    for (int i = 0; i < L->nuses && kmax > L->mc->dq_fair_max; i++)
        if (in_phase(L, ph, &L->uses[i]) && L->uses[i].throttle < kmax)
            L->uses[i].throttle = kmax;
    if (out == NULL) {
        if (L->warn != NULL && kmax > L->mc->dq_fair_max) {
            fprintf(L->warn,
                    "mcemu: tcs-link: warning: phase %d has DQ congestion %d "
                    "> iwarp.dq_fair_max %d: its connections are throttled to "
                    "1/%d (tcs-link prints the phase)\n",
                    ph, kmax, L->mc->dq_fair_max, kmax);
        }
        goto out;
    }
    fprintf(out, "phase %d:", ph);
    for (int i = 0; i < L->phase_n[ph]; i++) {
        group_label(L, L->phases[ph][i], lab, sizeof(lab));
        fprintf(out, " %s", lab);
    }
    fprintf(out, "\n");
    for (int l = 0; l < nl; l++) {
        if (fwd[l] == 0)
            continue;
        fmt_cell(L, l / 4, a, sizeof(a));
        fmt_cell(L, neighbour(L, l / 4, l % 4 + 1), b, sizeof(b));
        fprintf(out,
                "  link %s->%s %s load %d reserved %" PRIu64 "/%" PRIu64 "\n",
                a, b, port_names[l % 4 + 1], fwd[l], rnum[l], rden[l]);
    }
    for (int c = 0; c < L->cells; c++)
        if (thru[c] >= 2 && turn[c]) {
            fmt_cell(L, c, a, sizeof(a));
            fprintf(out, "  kappa %s %d\n", a, thru[c]);
        }
    for (int i = 0; i < L->nuses; i++) {
        const use_t *u = &L->uses[i];
        if (!in_phase(L, ph, u))
            continue;
        /* share of the link: reserved fraction, or an equal part of what
         * the reservations leave; capped by 1 / kappa */
        double share = 1.0;
        int kap = 1;
        for (int k = 0; k < u->n; k++) {
            int l = u->cells[k] * 4 + u->ports[k] - 1;
            double s = u->bw_den ? (double)u->bw_num / u->bw_den
                                 : (1.0 - (double)rnum[l] / (double)rden[l]) /
                                       unres[l];
            if (s < share)
                share = s;
            if (k > 0 && thru[u->cells[k]] >= 2 && turn[u->cells[k]] &&
                thru[u->cells[k]] > kap)
                kap = thru[u->cells[k]];
        }
        if (1.0 / kap < share)
            share = 1.0 / kap;
        fprintf(out,
                "  conn %s hops %d latency %" PRIu64
                " kappa %d bandwidth %.3f bytes/clock\n",
                u->name, u->n, u->latency, kap,
                share * (double)L->mc->word_bytes / (double)L->mc->word_time);
    }
    fprintf(out, "  max path latency %" PRIu64 " clocks, kappa max %d", maxlat,
            kmax);
    if (kmax > L->mc->dq_fair_max)
        fprintf(out,
                ", warning: DQ congestion %d > iwarp.dq_fair_max %d, every "
                "connection of the phase throttled to 1/%d\n",
                kmax, L->mc->dq_fair_max, kmax);
    else
        fprintf(out, ", no throttling\n");
out:
    free(fwd);
    free(unres);
    free(rnum);
    free(rden);
    free(thru);
    free(turn);
    return rc;
}
