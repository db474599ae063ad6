/* The TCS linker's step 4 (tcs_link.c): PCTs per cell, the heaviest set
 * of coexisting uses checked against the PCTs left, then assigned. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcs_linker.h"

/* ---- step 4: PCTs -------------------------------------------------------- */

typedef struct item {
    int use, pos;
} item_t;

/* One entry of the refusal's list: a group of the cell's items. */
static void item_label(const link_t *L, const item_t *it, char *buf, size_t len)
{
    const use_t *u = &L->uses[it->use];
    if (u->kind == USE_INT)
        snprintf(buf, len, "task '%s' netgroup '%s'", tname(L, u->task),
                 L->d->ngs[u->ng].name);
    else if (u->kind == USE_EXT)
        snprintf(buf, len, u->task < 0 ? "%s external" : "parent '%s' external",
                 tname(L, u->task));
    else
        snprintf(buf, len, "barrier '%s' ring", L->bars[u->item].name);
}

int mcei_tcsl_assign_pcts(link_t *L)
{
    item_t *it = malloc((size_t)(L->nuses + 1) * sizeof(*it));
    int *w = malloc((size_t)(L->nuses + 1) * sizeof(int));
    int *best = malloc((size_t)(L->nuses + 1) * sizeof(int));
    unsigned char *adj = NULL;
    int rc = MCE_OK;
    if (!it || !w || !best) {
        rc = refuse(L, "out of memory");
        goto out;
    }
    for (int c = 0; c < L->cells && rc == MCE_OK; c++) {
        int n = 0, bn = 0, weight = 0, hoisted = 0;
        for (int i = 0; i < L->nuses; i++) {
            const use_t *u = &L->uses[i];
            for (int k = 0; k <= u->n; k++)
                if (u->cells[k] == c &&
                    (u->kind != USE_BAR || (k > 0 && k < u->n)))
                    it[n++] = (item_t){i, k};
        }
        if (n == 0)
            continue;
        free(adj);
        adj = malloc((size_t)n * (size_t)n);
        if (adj == NULL) {
            rc = refuse(L, "out of memory");
            break;
        }
        for (int i = 0; i < n; i++) {
            w[i] = 1;
            for (int j = 0; j < n; j++) {
                desc_t a = use_desc(L, &L->uses[it[i].use], it[i].pos);
                desc_t b = use_desc(L, &L->uses[it[j].use], it[j].pos);
                adj[i * n + j] = i != j && desc_coexist(L, &a, &b);
            }
        }
        if (mcei_tcsl_clique(n, w, adj, best, &bn, NULL, NULL, NULL, 0) !=
            MCE_OK) {
            rc = refuse(L, "out of memory");
            break;
        }
        sort_ints(best, bn); /* the refusal lists in declaration order */
        for (int i = 0; i < bn; i++) {
            weight++;
            hoisted += L->uses[it[best[i]].use].hoisted[it[best[i]].pos];
        }
        int avail = L->mc->pcts - L->rts - L->bar - L->dep;
        if (weight > avail) {
            char msg[1024], lab[160], cell[32];
            size_t o = 0;
            int *done = calloc((size_t)bn, sizeof(int));
            if (done == NULL) {
                rc = refuse(L, "out of memory");
                break;
            }
            msg[0] = '\0';
            /* the non-hoisted members, grouped, largest first */
            for (;;) {
                int pick = -1, cnt = 0;
                for (int i = 0; i < bn; i++) {
                    const item_t *x = &it[best[i]];
                    int k = 0;
                    char l1[160], l2[160];
                    if (done[i] || L->uses[x->use].hoisted[x->pos])
                        continue;
                    item_label(L, x, l1, sizeof(l1));
                    for (int j = 0; j < bn; j++) {
                        const item_t *y = &it[best[j]];
                        if (done[j] || L->uses[y->use].hoisted[y->pos])
                            continue;
                        item_label(L, y, l2, sizeof(l2));
                        k += strcmp(l1, l2) == 0;
                    }
                    if (k > cnt)
                        cnt = k, pick = i;
                }
                if (pick < 0)
                    break;
                item_label(L, &it[best[pick]], lab, sizeof(lab));
                for (int j = 0; j < bn; j++) {
                    char l2[160];
                    const item_t *y = &it[best[j]];
                    if (done[j] || L->uses[y->use].hoisted[y->pos])
                        continue;
                    item_label(L, y, l2, sizeof(l2));
                    if (strcmp(lab, l2) == 0)
                        done[j] = 1;
                }
                if (o < sizeof(msg))
                    o += (size_t)snprintf(msg + o, sizeof(msg) - o, "%s%s (%d)",
                                          o ? ", " : "", lab, cnt);
            }
            free(done);
            fmt_cell(L, c, cell, sizeof(cell));
            rc = refuse(L,
                        "cell %s: needs %d PCTs at once but %d are free (%d - "
                        "RTS %d - barriers %d - deposit %d - hoisted %d): %s",
                        cell, weight - hoisted, avail - hoisted, L->mc->pcts,
                        L->rts, L->bar, L->dep, hoisted, msg);
            break;
        }
        /* greedy assignment in use order */
        for (int i = 0; i < n; i++) {
            int p;
            for (p = L->base; p < L->mc->pcts; p++) {
                int taken = 0;
                for (int j = 0; j < i && !taken; j++)
                    taken = adj[i * n + j] &&
                            L->uses[it[j].use].pct[it[j].pos] == p;
                if (!taken)
                    break;
            }
            if (p >= L->mc->pcts) {
                char cell[32];
                fmt_cell(L, c, cell, sizeof(cell));
                rc = refuse(L,
                            "cell %s: the greedy PCT assignment found no free "
                            "PCT for %s although at most %d are needed at "
                            "once; declare fewer connections or netgroups",
                            cell, L->uses[it[i].use].name, weight);
                break;
            }
            L->uses[it[i].use].pct[it[i].pos] = p;
        }
    }
out:
    free(it);
    free(w);
    free(best);
    free(adj);
    return rc;
}
