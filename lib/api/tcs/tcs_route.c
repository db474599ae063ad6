/* The TCS linker's routes (tcs_link.c): step 2, every connection's
 * route; step 6's first part, the barriers with their ring order and
 * the routes of their ring hops. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcs_linker.h"

/* ---- step 2: routes --------------------------------------------------- */

/* The nearest rectangle among @p t and its ancestors (-1: the array). */
static int region_of(const link_t *L, int t)
{
    for (; t >= 0; t = L->d->tasks[t].parent)
        if (L->d->tasks[t].rect)
            return t;
    return NO_TASK;
}

static int in_task(const link_t *L, int t, int cell)
{
    return t < 0 || L->in[t * L->cells + cell];
}

/* Route @p u from src to dst inside @p region; @p loaded: count the
 * coexisting data uses already routed on each link. */
static int route(link_t *L, use_t *u, int region, int loaded)
{
    const mcei_tcs_machine_t *mc = L->mc;
    int W = mc->width, H = mc->height;
    int dxp = ((cx(L, u->dst) - cx(L, u->src)) % W + W) % W;
    int dyp = ((cy(L, u->dst) - cy(L, u->src)) % H + H) % H;
    int best_cost[2] = {0, 0}, found = 0, maxn = W + H;
    int *cells = malloc((size_t)(maxn + 1) * sizeof(int));
    int *ports = malloc((size_t)maxn * sizeof(int));
    int *bc = malloc((size_t)(maxn + 1) * sizeof(int));
    int *bp = malloc((size_t)maxn * sizeof(int));
    int bn = 0, rc = MCE_OK, nco = 0;
    /* The routed uses that coexist with u, found once: deciding it walks
     * both uses' descriptions, too dear to repeat for every hop of every
     * candidate (the 8 x 8 all-to-all's 4,096 uses made the linker
     * quadratic in it). */
    int *co = loaded ? malloc((size_t)(L->nuses ? L->nuses : 1) * sizeof(int))
                     : NULL;
    if (!cells || !ports || !bc || !bp || (loaded && !co)) {
        rc = refuse(L, "out of memory routing");
        goto out;
    }
    for (int k = 0; loaded && k < L->nuses; k++) {
        const use_t *v = &L->uses[k];
        if (v != u && v->cells != NULL && v->kind != USE_BAR &&
            uses_coexist(L, u, v))
            co[nco++] = k;
    }
    for (int order = 0; order < 2; order++)
        for (int xs = 0; xs < 2; xs++)
            for (int ys = 0; ys < 2; ys++) {
                int nxs = dxp == 0 ? 0 : xs ? W - dxp : dxp;
                int nys = dyp == 0 ? 0 : ys ? H - dyp : dyp;
                int xport = xs ? P_XM : P_XP, yport = ys ? P_YM : P_YP;
                int n = 0, ok = 1, load = 0;
                if ((dxp == 0 && xs) || (dyp == 0 && ys) ||
                    (order == 1 && (dxp == 0 || dyp == 0)))
                    continue; /* duplicates of an earlier candidate */
                cells[0] = u->src;
                for (int leg = 0; leg < 2; leg++) {
                    int x_leg = (leg == 0) == (order == 0);
                    int steps = x_leg ? nxs : nys;
                    for (int s = 0; s < steps; s++) {
                        ports[n] = x_leg ? xport : yport;
                        cells[n + 1] = neighbour(L, cells[n], ports[n]);
                        n++;
                    }
                }
                for (int i = 0; i <= n; i++)
                    if (!in_task(L, region, cells[i]))
                        ok = 0;
                if (!ok)
                    continue;
                if (loaded)
                    for (int i = 0; i < n; i++) {
                        int l = 0;
                        for (int j = 0; j < nco; j++)
                            l += use_on_link(&L->uses[co[j]], cells[i],
                                             ports[i]);
                        if (l > load)
                            load = l;
                    }
                if (!found || load < best_cost[0] ||
                    (load == best_cost[0] && n < best_cost[1])) {
                    found = 1;
                    best_cost[0] = load;
                    best_cost[1] = n;
                    bn = n;
                    memcpy(bc, cells, (size_t)(n + 1) * sizeof(int));
                    memcpy(bp, ports, (size_t)n * sizeof(int));
                }
            }
    if (!found) {
        char s[32], t[32];
        fmt_cell(L, u->src, s, sizeof(s));
        fmt_cell(L, u->dst, t, sizeof(t));
        rc = refuse(L, "%s: no route from %s to %s inside '%s'", u->name, s, t,
                    tname(L, region));
        goto out;
    }
    u->n = bn;
    u->cells = bc;
    u->ports = bp;
    bc = bp = NULL;
    u->pct = calloc((size_t)bn + 1, sizeof(int));
    u->owner = calloc((size_t)bn + 1, sizeof(int));
    u->hoisted = calloc((size_t)bn + 1, sizeof(int));
    if (!u->pct || !u->owner || !u->hoisted) {
        rc = refuse(L, "out of memory routing");
        goto out;
    }
    for (int i = 0; i < bn; i++)
        u->latency +=
            hop(L, u->cells[i], u->ports[i]) +
            (i > 0 && u->ports[i] != u->ports[i - 1] ? mc->hop_turn : 0);
out:
    free(co);
    free(cells);
    free(ports);
    free(bc);
    free(bp);
    return rc;
}

/* Who configures the PCT of @p u on route position @p i. */
static void set_owner(link_t *L, use_t *u, int i)
{
    int cell = u->cells[i], home;
    if (u->kind == USE_INT) {
        home = in_task(L, u->task, cell) ? u->task : -2;
    } else if (u->kind == USE_EXT) {
        const mcei_tcs_ext_t *e = &L->d->exts[u->item];
        int ta = L->d->ports[e->out].task, tb = L->d->ports[e->in].task;
        home = in_task(L, ta, cell) ? ta : in_task(L, tb, cell) ? tb : -2;
    } else {
        const barrier_t *b = &L->bars[u->item];
        home = -2;
        for (int k = 0; k < b->nset; k++)
            if (in_task(L, b->set[k], cell))
                home = b->set[k];
    }
    u->owner[i] = home;
    u->hoisted[i] = 0;
    if (home != -2)
        return;
    /* through-PCT hoisting: the nearest ancestor holding the whole route */
    int a = u->kind == USE_INT   ? L->d->tasks[u->task].parent
            : u->kind == USE_EXT ? u->task
                                 : L->bars[u->item].task;
    if (u->kind == USE_BAR && L->bars[u->item].nset == 1)
        a = L->d->tasks[a].parent;
    for (; a >= 0; a = L->d->tasks[a].parent) {
        int all = 1;
        for (int k = 0; k <= u->n; k++)
            all &= in_task(L, a, u->cells[k]);
        if (all)
            break;
    }
    u->owner[i] = a < 0 ? NO_TASK : a;
    u->hoisted[i] = 1;
}

static int add_use(link_t *L, use_t **out)
{
    if (mcei_tcs_grow((void **)&L->uses, (size_t)L->nuses, sizeof(use_t)))
        return refuse(L, "out of memory");
    *out = &L->uses[L->nuses++];
    memset(*out, 0, sizeof(**out));
    return MCE_OK;
}

static int group_of(link_t *L, int kind, int task, int ng)
{
    for (int i = 0; i < L->ngroups; i++)
        if (L->groups[i].kind == kind && L->groups[i].task == task &&
            L->groups[i].ng == ng)
            return i;
    if (mcei_tcs_grow((void **)&L->groups, (size_t)L->ngroups, sizeof(group_t)))
        return -1;
    L->groups[L->ngroups] = (group_t){.kind = kind, .task = task, .ng = ng};
    return L->ngroups++;
}

int mcei_tcsl_route_all(link_t *L)
{
    const tcs_decl_t *d = L->d;
    char a[2 * MCEI_TCS_NAME], b[2 * MCEI_TCS_NAME];
    int rc;
    for (int i = 0; i < d->nconns; i++) {
        const mcei_tcs_conn_t *k = &d->conns[i];
        int t = d->nets[k->net].task;
        for (int g = 0; g < d->nngs; g++) {
            int member = 0;
            use_t *u;
            for (int j = 0; j < d->ngs[g].n; j++)
                member |= d->ngs[g].nets[j] == k->net;
            if (!member)
                continue;
            if ((rc = add_use(L, &u)) != MCE_OK)
                return rc;
            u->kind = USE_INT;
            u->item = i;
            u->task = t;
            u->ng = g;
            u->group = group_of(L, USE_INT, t, g);
            u->src = d->tasks[t].cells[k->src_cell];
            u->dst = d->tasks[t].cells[k->dst_cell];
            u->bw_num = k->bw_num;
            u->bw_den = k->bw_den;
            snprintf(u->name, sizeof(u->name), "%s.c%d", d->nets[k->net].name,
                     k->index);
            if (u->group < 0)
                return refuse(L, "out of memory");
            if ((rc = route(L, u, region_of(L, t), 1)) != MCE_OK)
                return rc;
        }
    }
    for (int i = 0; i < d->nexts; i++) {
        const mcei_tcs_ext_t *e = &d->exts[i];
        const mcei_tcs_port_t *po = &d->ports[e->out], *pi = &d->ports[e->in];
        use_t *u;
        if ((rc = add_use(L, &u)) != MCE_OK)
            return rc;
        u->kind = USE_EXT;
        u->item = i;
        u->task = e->parent;
        u->ng = -1;
        u->group = group_of(L, USE_EXT, e->parent, -1);
        u->src = d->tasks[po->task].cells[po->cell];
        u->dst = d->tasks[pi->task].cells[pi->cell];
        u->bw_num = e->bw_num;
        u->bw_den = e->bw_den;
        snprintf(u->name, sizeof(u->name), "%s->%s",
                 port_full(L, e->out, a, sizeof(a)),
                 port_full(L, e->in, b, sizeof(b)));
        if (u->group < 0)
            return refuse(L, "out of memory");
        if ((rc = route(L, u, region_of(L, e->parent), 1)) != MCE_OK)
            return rc;
    }
    for (int i = 0; i < L->nuses; i++)
        for (int k = 0; k <= L->uses[i].n; k++)
            set_owner(L, &L->uses[i], k);
    return MCE_OK;
}

/* ---- step 6 (first part): barriers and their ring hops ----------------- */

static int add_barrier(link_t *L, const char *name, int task, const int *set,
                       int nset, const int *order, int norder)
{
    barrier_t *b;
    if (mcei_tcs_grow((void **)&L->bars, (size_t)L->nbars, sizeof(barrier_t)))
        return refuse(L, "out of memory");
    b = &L->bars[L->nbars++];
    memset(b, 0, sizeof(*b));
    snprintf(b->name, sizeof(b->name), "%s", name);
    b->task = task;
    b->set = malloc((size_t)nset * sizeof(int));
    b->members = malloc((size_t)norder * sizeof(int));
    b->slot = malloc((size_t)norder * sizeof(int));
    if (!b->set || !b->members || !b->slot)
        return refuse(L, "out of memory");
    memcpy(b->set, set, (size_t)nset * sizeof(int));
    b->nset = nset;
    /* members: the cells of the set's tasks, in @p order */
    for (int i = 0; i < norder; i++)
        for (int k = 0; k < nset; k++)
            if (in_task(L, set[k], order[i])) {
                b->members[b->nm++] = order[i];
                break;
            }
    b->ring2d = nset == 1 && b->nm == L->cells &&
                !(L->d->tasks[task].flags & TCS_RING1D);
    return MCE_OK;
}

/* Ring order of task @p t on a rectangle: the snake of iwarp_barrier
 * (design s.6.3) when it has an even number (>= 2) of rows and at least
 * two columns: row 0 left to right, rows 1..h-1 boustrophedon over
 * columns 1..w-1, back down column 0, so every ring hop joins neighbours;
 * otherwise rows from the bottom, alternating direction.  Else the
 * task's own cell order. */
static void ring_order(const link_t *L, int t, int *out)
{
    const mcei_tcs_task_t *k = &L->d->tasks[t];
    int n = 0;
    if (!k->rect) {
        memcpy(out, k->cells, (size_t)k->ncells * sizeof(int));
        return;
    }
    if (k->h % 2 == 0 && k->w >= 2) {
        for (int i = 0; i < k->w; i++)
            out[n++] = k->cells[i];
        for (int j = 1; j < k->h; j++)
            for (int i = 1; i < k->w; i++)
                out[n++] = k->cells[j * k->w + (j % 2 ? k->w - i : i)];
        for (int j = k->h - 1; j >= 1; j--)
            out[n++] = k->cells[j * k->w];
        return;
    }
    for (int j = 0; j < k->h; j++)
        for (int i = 0; i < k->w; i++)
            out[j * k->w + i] = k->cells[j * k->w + (j % 2 ? k->w - 1 - i : i)];
}

static int find(int *uf, int a)
{
    while (uf[a] != a)
        a = uf[a] = uf[uf[a]];
    return a;
}

int mcei_tcsl_build_barriers(link_t *L)
{
    const tcs_decl_t *d = L->d;
    int *order = malloc((size_t)L->cells * sizeof(int));
    int *uf = malloc((size_t)(d->ntasks + 1) * sizeof(int));
    int *set = malloc((size_t)(d->ntasks + 1) * sizeof(int));
    int *start = malloc((size_t)(d->ntasks + 2) * sizeof(int));
    int rc = MCE_OK;
    char name[2 * MCEI_TCS_NAME + 24];
    if (!order || !uf || !set || !start) {
        rc = refuse(L, "out of memory");
        goto out;
    }
    for (int t = 0; t < d->ntasks && rc == MCE_OK; t++) {
        ring_order(L, t, order);
        rc = add_barrier(L, d->tasks[t].name, t, &t, 1, order,
                         d->tasks[t].ncells);
    }
    /* components of communicating siblings (W s.5.3) */
    for (int t = 0; t < d->ntasks; t++)
        uf[t] = t;
    for (int i = 0; i < d->nexts; i++) {
        int a = find(uf, d->ports[d->exts[i].out].task);
        int b = find(uf, d->ports[d->exts[i].in].task);
        if (a != b)
            uf[a > b ? a : b] = a < b ? a : b;
    }
    /* Members of each component in task order, by a counting sort on
     * their roots (one pass, not one per component). */
    for (int t = 0; t <= d->ntasks; t++)
        start[t] = 0;
    for (int t = 0; t < d->ntasks; t++)
        start[find(uf, t) + 1]++;
    for (int t = 0; t < d->ntasks; t++)
        start[t + 1] += start[t];
    for (int t = 0; t < d->ntasks; t++)
        set[start[find(uf, t)]++] = t;
    for (int r = d->ntasks; r > 0; r--)
        start[r] = start[r - 1];
    start[0] = 0;
    for (int r = 0; r < d->ntasks && rc == MCE_OK; r++) {
        int n = start[r + 1] - start[r], parent = d->tasks[r].parent;
        if (find(uf, r) != r || n < 2)
            continue;
        snprintf(name, sizeof(name), "%s:%s+%d", tname(L, parent),
                 d->tasks[r].name, n - 1);
        if (parent >= 0) {
            ring_order(L, parent, order);
            rc = add_barrier(L, name, parent, set + start[r], n, order,
                             d->tasks[parent].ncells);
        } else {
            for (int c = 0; c < L->cells; c++)
                order[c] = c;
            rc = add_barrier(L, name, NO_TASK, set + start[r], n, order,
                             L->cells);
        }
    }
    /* ring hops of 1D rings between members that are not neighbours */
    for (int bi = 0; bi < L->nbars && rc == MCE_OK; bi++) {
        barrier_t *b = &L->bars[bi];
        if (b->ring2d || b->nm < 2)
            continue;
        for (int i = 0; i < b->nm && rc == MCE_OK; i++) {
            int from = b->members[i], to = b->members[(i + 1) % b->nm];
            use_t *u;
            if ((rc = add_use(L, &u)) != MCE_OK)
                break;
            u->kind = USE_BAR;
            u->item = bi;
            u->task = b->task;
            u->ng = -1;
            u->group = -1;
            u->src = from;
            u->dst = to;
            snprintf(u->name, sizeof(u->name), "barrier '%s' hop %d", b->name,
                     i);
            rc = route(L, u, b->task >= 0 ? region_of(L, b->task) : NO_TASK, 0);
            for (int k = 0; rc == MCE_OK && k <= u->n; k++)
                set_owner(L, u, k);
        }
    }
out:
    free(order);
    free(uf);
    free(set);
    free(start);
    return rc;
}
