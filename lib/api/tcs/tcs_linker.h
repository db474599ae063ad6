/* The TCS linker's own declarations, shared by its files (tcs_link.c:
 * the steps in order and the result; tcs_check.c: steps 1 and 5, the
 * tree and the phases; tcs_route.c: step 2, routes, and step 6's
 * barrier rings; tcs_pct.c: step 4, PCTs; tcs_slots.c: step 6's barrier
 * slots; tcs_clique.c: the cliques steps 4, 5 and 6 search; tcs_report.c:
 * step 7).  The steps are described in tcs_link.c.  Only the linker's
 * files include this header. */
#ifndef MCEI_TCS_LINKER_H
#define MCEI_TCS_LINKER_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tcs_link.h"

#define MAX_PHASES 1024
#define NO_TASK    (-1) /* the application (above every top-level task) */

enum {
    USE_INT = MCEI_TCS_USE_INT,
    USE_EXT = MCEI_TCS_USE_EXT,
    USE_BAR = MCEI_TCS_USE_BAR
};
static const char *const port_names[] = {"CPU", "X+", "X-", "Y+", "Y-"};
enum { P_XP = 1, P_XM, P_YP, P_YM };

typedef mcei_tcs_use_t use_t;
typedef mcei_tcs_bar_t barrier_t;

typedef struct group {
    int kind, task, ng; /* USE_INT (task, ng) or USE_EXT (parent) */
} group_t;

typedef struct desc { /* who holds a use (or a barrier), for coexistence */
    const int *set;
    int nset, ng;
} desc_t;

typedef struct link {
    const tcs_decl_t *d;
    const mcei_tcs_machine_t *mc;
    int cells;
    int *depth;
    unsigned char *in; /* ntasks x cells: membership */
    use_t *uses;
    int nuses;
    barrier_t *bars;
    int nbars;
    group_t *groups;
    int ngroups;
    int **phases, *phase_n, nphases;
    int rts, dep, bar, base;
    FILE *warn; /* start-up warnings (throttled phases), or NULL */
    char *err;
    size_t errlen;
} link_t;

/* ---- small helpers ------------------------------------------------------ */

static inline int cx(const link_t *L, int c)
{
    return c % L->mc->width;
}

static inline int cy(const link_t *L, int c)
{
    return c / L->mc->width;
}

static inline int neighbour(const link_t *L, int cell, int port)
{
    int W = L->mc->width, H = L->mc->height, x = cx(L, cell), y = cy(L, cell);
    switch (port) {
    case P_XP:
        x = (x + 1) % W;
        break;
    case P_XM:
        x = (x + W - 1) % W;
        break;
    case P_YP:
        y = (y + 1) % H;
        break;
    default:
        y = (y + H - 1) % H;
        break;
    }
    return y * W + x;
}

/* Hop latency of the link leaving @p cell on side @p port: the network
 * model's rule (lib/net/iwarp.c), from the same keys. */
static inline uint64_t hop(const link_t *L, int cell, int port)
{
    const mcei_tcs_machine_t *mc = L->mc;
    int x = cx(L, cell), y = cy(L, cell), n = neighbour(L, cell, port);
    int nx = cx(L, n), ny = cy(L, n);
    if ((port == P_XP && x == mc->width - 1) || (port == P_XM && x == 0) ||
        (port == P_YP && y == mc->height - 1) || (port == P_YM && y == 0))
        return mc->hop_wrap;
    if (x / mc->board_w == nx / mc->board_w &&
        y / mc->board_h == ny / mc->board_h)
        return mc->hop_board;
    return mc->hop_cross;
}

__attribute__((format(printf, 2, 3))) static inline int
refuse(link_t *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(L->err, L->errlen, fmt, ap);
    va_end(ap);
    return MCE_ERR_RESOURCE;
}

static inline const char *tname(const link_t *L, int t)
{
    return t < 0 ? "application" : L->d->tasks[t].name;
}

static inline int is_ancestor(const link_t *L, int a, int t)
{
    if (a == NO_TASK)
        return 1;
    for (int p = t < 0 ? -1 : L->d->tasks[t].parent; p >= 0;
         p = L->d->tasks[p].parent)
        if (p == a)
            return 1;
    return 0;
}

/* Do the allocations of tasks @p a and @p b share a cell?  Looked up in
 * the membership rows (no ntasks x ntasks table: linking stays linear in
 * the number of tasks where the declaration allows it). */
static inline int tasks_overlap(const link_t *L, int a, int b)
{
    const mcei_tcs_task_t *ka = &L->d->tasks[a], *kb = &L->d->tasks[b];
    if (kb->ncells < ka->ncells) {
        const mcei_tcs_task_t *k = ka;
        ka = kb;
        kb = k;
        b = a;
    }
    for (int i = 0; i < ka->ncells; i++)
        if (L->in[(size_t)b * (size_t)L->cells + (size_t)ka->cells[i]])
            return 1;
    return 0;
}

static inline int tasks_coexist(const link_t *L, int a, int b)
{
    if (a == b || a == NO_TASK || b == NO_TASK)
        return 1;
    if (!tasks_overlap(L, a, b))
        return 1;
    return is_ancestor(L, a, b) || is_ancestor(L, b, a);
}

static inline int desc_coexist(const link_t *L, const desc_t *u,
                               const desc_t *v)
{
    if (u->ng >= 0 && v->ng >= 0 && u->nset == 1 && v->nset == 1 &&
        u->set[0] == v->set[0] && u->ng != v->ng)
        return 0;
    for (int i = 0; i < u->nset; i++)
        for (int j = 0; j < v->nset; j++)
            if (!tasks_coexist(L, u->set[i], v->set[j]))
                return 0;
    return 1;
}

/* The holder of use @p u at route position @p pos (hoisted PCTs belong to
 * their owner for its whole lifetime). */
static inline desc_t use_desc(const link_t *L, const use_t *u, int pos)
{
    desc_t r;
    if (pos >= 0 && u->hoisted[pos]) {
        r.set = &u->owner[pos];
        r.nset = 1;
        r.ng = -1;
    } else if (u->kind == USE_BAR) {
        r.set = L->bars[u->item].set;
        r.nset = L->bars[u->item].nset;
        r.ng = -1;
    } else {
        r.set = &u->task;
        r.nset = 1;
        r.ng = u->ng;
    }
    return r;
}

static inline int uses_coexist(const link_t *L, const use_t *u, const use_t *v)
{
    desc_t a = use_desc(L, u, -1), b = use_desc(L, v, -1);
    return desc_coexist(L, &a, &b);
}

static inline void fmt_cell(const link_t *L, int c, char *buf, size_t len)
{
    snprintf(buf, len, "(%d,%d)", cx(L, c), cy(L, c));
}

/* "WxH at (x,y)" for a rectangle, else the first cells. */
static inline void fmt_alloc(const link_t *L, int t, char *buf, size_t len)
{
    const mcei_tcs_task_t *k = &L->d->tasks[t];
    if (k->rect) {
        snprintf(buf, len, "%dx%d at (%d,%d)", k->w, k->h, k->x, k->y);
        return;
    }
    size_t o = 0;
    buf[0] = '\0';
    for (int i = 0; i < k->ncells && o + 16 < len; i++) {
        if (i == 8) {
            snprintf(buf + o, len - o, " ...");
            break;
        }
        o += (size_t)snprintf(buf + o, len - o, "%s(%d,%d)", i ? " " : "",
                              cx(L, k->cells[i]), cy(L, k->cells[i]));
    }
}

static inline const char *port_full(const link_t *L, int p, char *buf,
                                    size_t len)
{
    snprintf(buf, len, "%s.%s", L->d->tasks[L->d->ports[p].task].name,
             L->d->ports[p].name);
    return buf;
}

static inline int use_on_link(const use_t *u, int cell, int port)
{
    for (int i = 0; i < u->n; i++)
        if (u->cells[i] == cell && u->ports[i] == port)
            return 1;
    return 0;
}

static inline void sort_ints(int *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            int t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

/* ---- the steps (tcs_link.c runs them in this order) ------------------- */

/* Step 1 (tcs_check.c). */
int mcei_tcsl_check_tree(link_t *L);
/* Step 2 (tcs_route.c). */
int mcei_tcsl_route_all(link_t *L);
/* Step 6, first part (tcs_route.c). */
int mcei_tcsl_build_barriers(link_t *L);
/* Step 4 (tcs_pct.c). */
int mcei_tcsl_assign_pcts(link_t *L);
/* Step 5 (tcs_check.c): the phases, then each phase's check (with @p out
 * non-NULL, its lines of the report). */
int mcei_tcsl_find_phases(link_t *L);
int mcei_tcsl_phase_check(link_t *L, int ph, FILE *out);
/* Step 6, second part (tcs_slots.c). */
int mcei_tcsl_assign_slots(link_t *L);
/* Step 7 (tcs_report.c). */
void mcei_tcsl_report(link_t *L, FILE *out);

/* Heaviest clique of the n items (weights w, adjacency adj); its members
 * in best (n entries); with @p all non-NULL, every maximal clique too, at
 * most @p cap (tcs_clique.c). */
int mcei_tcsl_clique(int n, const int *w, const unsigned char *adj, int *best,
                     int *best_n, int ***all, int **all_n, int *nall, int cap);

#endif
