/* The TCS linker's step 6, second part (tcs_link.c): barrier slots per
 * cell. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcs_linker.h"

/* ---- step 6 (second part): barrier slots ------------------------------- */

/* Which of the @p n barriers bi[] with a member on one cell can be
 * pending together: adj[i * n + j].  Two barriers of one task each both
 * hold the cell, so their tasks overlap and they coexist exactly when one
 * task is an ancestor of the other: those pairs are found by walking up
 * the tree (n x depth, not n x n tests); barriers of several tasks are
 * tested against every other.  @p local_of: ntasks entries, all -1 on
 * entry and on return. */
static void barrier_adjacency(const link_t *L, const int *bi, int n,
                              int *local_of, unsigned char *adj)
{
    memset(adj, 0, (size_t)n * (size_t)n);
    for (int i = 0; i < n; i++) {
        const barrier_t *x = &L->bars[bi[i]];
        if (x->nset == 1 && x->set[0] >= 0 && local_of[x->set[0]] < 0) {
            local_of[x->set[0]] = i;
            continue;
        }
        desc_t a = {x->set, x->nset, -1};
        for (int j = 0; j < n; j++) {
            const barrier_t *y = &L->bars[bi[j]];
            desc_t b = {y->set, y->nset, -1};
            adj[i * n + j] = adj[j * n + i] = i != j && desc_coexist(L, &a, &b);
        }
    }
    for (int i = 0; i < n; i++) {
        const barrier_t *x = &L->bars[bi[i]];
        if (x->nset != 1 || x->set[0] < 0 || local_of[x->set[0]] != i)
            continue;
        for (int p = L->d->tasks[x->set[0]].parent; p >= 0;
             p = L->d->tasks[p].parent) {
            int j = local_of[p];
            if (j >= 0)
                adj[i * n + j] = adj[j * n + i] = 1;
        }
    }
    for (int i = 0; i < n; i++) {
        const barrier_t *x = &L->bars[bi[i]];
        if (x->nset == 1 && x->set[0] >= 0 && local_of[x->set[0]] == i)
            local_of[x->set[0]] = -1;
    }
}

int mcei_tcsl_assign_slots(link_t *L)
{
    int *bi = malloc((size_t)(L->nbars + 1) * sizeof(int));
    int *pos = malloc((size_t)(L->nbars + 1) * sizeof(int));
    int *w = malloc((size_t)(L->nbars + 1) * sizeof(int));
    int *best = malloc((size_t)(L->nbars + 1) * sizeof(int));
    int *local_of = malloc((size_t)(L->d->ntasks + 1) * sizeof(int));
    unsigned char *adj = NULL;
    int rc = MCE_OK, slots = L->mc->barrier_slots;
    if (!bi || !pos || !w || !best || !local_of) {
        rc = refuse(L, "out of memory");
        goto out;
    }
    for (int t = 0; t < L->d->ntasks; t++)
        local_of[t] = -1;
    for (int c = 0; c < L->cells && rc == MCE_OK; c++) {
        int n = 0, bn = 0;
        for (int b = 0; b < L->nbars; b++)
            for (int m = 0; m < L->bars[b].nm; m++)
                if (L->bars[b].members[m] == c) {
                    bi[n] = b;
                    pos[n++] = m;
                }
        if (n == 0)
            continue;
        free(adj);
        adj = malloc((size_t)n * (size_t)n);
        if (adj == NULL) {
            rc = refuse(L, "out of memory");
            break;
        }
        barrier_adjacency(L, bi, n, local_of, adj);
        for (int i = 0; i < n; i++)
            w[i] = 1;
        if (mcei_tcsl_clique(n, w, adj, best, &bn, NULL, NULL, NULL, 0) !=
            MCE_OK) {
            rc = refuse(L, "out of memory");
            break;
        }
        sort_ints(best, bn);
        if (bn > slots) {
            char list[512], cell[32];
            size_t o = 0;
            list[0] = '\0';
            for (int i = 0; i < bn && o < sizeof(list); i++)
                o += (size_t)snprintf(list + o, sizeof(list) - o, "%s'%s'",
                                      i ? ", " : "", L->bars[bi[best[i]]].name);
            fmt_cell(L, c, cell, sizeof(cell));
            rc = refuse(L,
                        "cell %s: member of %d barriers that can be pending "
                        "together (%s); at most %d (tcs.barrier_slots)",
                        cell, bn, list, slots);
            break;
        }
        for (int i = 0; i < n; i++) {
            int s;
            for (s = 0; s < slots; s++) {
                int taken = 0;
                for (int j = 0; j < i && !taken; j++)
                    taken = adj[i * n + j] && L->bars[bi[j]].slot[pos[j]] == s;
                if (!taken)
                    break;
            }
            if (s == slots) {
                char cell[32];
                fmt_cell(L, c, cell, sizeof(cell));
                rc = refuse(L,
                            "cell %s: the greedy slot assignment found no "
                            "free barrier slot for '%s' although at most %d "
                            "barriers can be pending together",
                            cell, L->bars[bi[i]].name, bn);
                break;
            }
            L->bars[bi[i]].slot[pos[i]] = s;
        }
    }
out:
    free(bi);
    free(pos);
    free(w);
    free(best);
    free(adj);
    free(local_of);
    return rc;
}
