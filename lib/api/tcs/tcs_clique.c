/* The TCS linker's cliques (tcs_link.c): the heaviest set of items that
 * can be active together (steps 4 and 6) and every maximal one (step 5's
 * phases). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcs_linker.h"

/* ---- cliques (Bron-Kerbosch with pivot) over small weighted sets ------- */

typedef struct clq {
    int n;
    const int *w;             /* weights */
    const unsigned char *adj; /* n x n: 1 = coexist */
    int best, *best_set, best_n;
    int *cur, ncur;
    /* every maximal clique (phases) */
    int **all, *all_n, nall, cap_all, overflow;
} clq_t;

static void bk(clq_t *q, int *P, int np, int *X, int nx)
{
    if (np == 0 && nx == 0) {
        int w = 0;
        for (int i = 0; i < q->ncur; i++)
            w += q->w[q->cur[i]];
        if (w > q->best) {
            q->best = w;
            q->best_n = q->ncur;
            memcpy(q->best_set, q->cur, (size_t)q->ncur * sizeof(int));
        }
        if (q->all != NULL) {
            if (q->nall == q->cap_all) {
                q->overflow = 1;
                return;
            }
            q->all[q->nall] = malloc(((size_t)q->ncur + 1) * sizeof(int));
            if (q->all[q->nall] == NULL) {
                q->overflow = 1;
                return;
            }
            memcpy(q->all[q->nall], q->cur, (size_t)q->ncur * sizeof(int));
            q->all_n[q->nall++] = q->ncur;
        }
        return;
    }
    /* pivot: the vertex of P u X with most neighbours in P */
    int pivot = np ? P[0] : X[0], pd = -1;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < (s ? nx : np); i++) {
            int v = s ? X[i] : P[i], deg = 0;
            for (int j = 0; j < np; j++)
                deg += q->adj[v * q->n + P[j]];
            if (deg > pd)
                pd = deg, pivot = v;
        }
    int *cand = malloc(((size_t)np + 1) * sizeof(int)), nc = 0;
    int *P2 = malloc(((size_t)np + 1) * sizeof(int));
    int *X2 = malloc(((size_t)np + (size_t)nx + 1) * sizeof(int));
    if (!cand || !P2 || !X2) {
        q->overflow = 1;
        goto out;
    }
    for (int i = 0; i < np; i++)
        if (!q->adj[pivot * q->n + P[i]] || P[i] == pivot)
            cand[nc++] = P[i];
    for (int ci = 0; ci < nc && !q->overflow; ci++) {
        int v = cand[ci], np2 = 0, nx2 = 0;
        for (int i = 0; i < np; i++)
            if (P[i] != v && q->adj[v * q->n + P[i]])
                P2[np2++] = P[i];
        for (int i = 0; i < nx; i++)
            if (q->adj[v * q->n + X[i]])
                X2[nx2++] = X[i];
        q->cur[q->ncur++] = v;
        bk(q, P2, np2, X2, nx2);
        q->ncur--;
        /* move v from P to X */
        for (int i = 0; i < np; i++)
            if (P[i] == v) {
                memmove(&P[i], &P[i + 1], (size_t)(np - i - 1) * sizeof(int));
                np--;
                break;
            }
        X[nx++] = v;
    }
out:
    free(cand);
    free(P2);
    free(X2);
}

/* Heaviest clique of the n items (weights w, adjacency adj); its members
 * in best (n entries). */
int mcei_tcsl_clique(int n, const int *w, const unsigned char *adj, int *best,
                     int *best_n, int ***all, int **all_n, int *nall, int cap)
{
    clq_t q;
    int *P = malloc(((size_t)n + 1) * sizeof(int));
    int *X = malloc(((size_t)n + 1) * sizeof(int));
    int *cur = malloc(((size_t)n + 1) * sizeof(int));
    int rc = MCE_OK;
    memset(&q, 0, sizeof(q));
    if (!P || !X || !cur) {
        rc = MCE_ERR_NOMEM;
        goto out;
    }
    q.n = n;
    q.w = w;
    q.adj = adj;
    q.best_set = best;
    q.cur = cur;
    if (all != NULL) {
        q.cap_all = cap;
        q.all = calloc((size_t)cap, sizeof(int *));
        q.all_n = calloc((size_t)cap, sizeof(int));
        if (!q.all || !q.all_n) {
            free(q.all);
            free(q.all_n);
            rc = MCE_ERR_NOMEM;
            goto out;
        }
    }
    for (int i = 0; i < n; i++)
        P[i] = i;
    bk(&q, P, n, X, 0);
    *best_n = q.best_n;
    if (all != NULL) {
        *all = q.all;
        *all_n = q.all_n;
        *nall = q.nall;
    }
    if (q.overflow)
        rc = MCE_ERR_RESOURCE;
out:
    free(P);
    free(X);
    free(cur);
    return rc;
}
