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
 * 7. The report. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/privatize.h"
#include "../../machines/iwarp/iwarp.h"
#include "../registry.h"
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

static int cx(const link_t *L, int c)
{
    return c % L->mc->width;
}

static int cy(const link_t *L, int c)
{
    return c / L->mc->width;
}

static int neighbour(const link_t *L, int cell, int port)
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
static uint64_t hop(const link_t *L, int cell, int port)
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

__attribute__((format(printf, 2, 3))) static int refuse(link_t *L,
                                                        const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(L->err, L->errlen, fmt, ap);
    va_end(ap);
    return MCE_ERR_RESOURCE;
}

static const char *tname(const link_t *L, int t)
{
    return t < 0 ? "application" : L->d->tasks[t].name;
}

static int is_ancestor(const link_t *L, int a, int t)
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
static int tasks_overlap(const link_t *L, int a, int b)
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

static int tasks_coexist(const link_t *L, int a, int b)
{
    if (a == b || a == NO_TASK || b == NO_TASK)
        return 1;
    if (!tasks_overlap(L, a, b))
        return 1;
    return is_ancestor(L, a, b) || is_ancestor(L, b, a);
}

static int desc_coexist(const link_t *L, const desc_t *u, const desc_t *v)
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
static desc_t use_desc(const link_t *L, const use_t *u, int pos)
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

static int uses_coexist(const link_t *L, const use_t *u, const use_t *v)
{
    desc_t a = use_desc(L, u, -1), b = use_desc(L, v, -1);
    return desc_coexist(L, &a, &b);
}

static void fmt_cell(const link_t *L, int c, char *buf, size_t len)
{
    snprintf(buf, len, "(%d,%d)", cx(L, c), cy(L, c));
}

/* "WxH at (x,y)" for a rectangle, else the first cells. */
static void fmt_alloc(const link_t *L, int t, char *buf, size_t len)
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

static const char *port_full(const link_t *L, int p, char *buf, size_t len)
{
    snprintf(buf, len, "%s.%s", L->d->tasks[L->d->ports[p].task].name,
             L->d->ports[p].name);
    return buf;
}

/* ---- step 1: the tree ------------------------------------------------- */

static int check_tree(link_t *L)
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

static int use_on_link(const use_t *u, int cell, int port)
{
    for (int i = 0; i < u->n; i++)
        if (u->cells[i] == cell && u->ports[i] == port)
            return 1;
    return 0;
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
    int bn = 0, rc = MCE_OK;
    if (!cells || !ports || !bc || !bp) {
        rc = refuse(L, "out of memory routing");
        goto out;
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
                        for (int k = 0; k < L->nuses; k++) {
                            const use_t *v = &L->uses[k];
                            if (v != u && v->cells != NULL &&
                                v->kind != USE_BAR && uses_coexist(L, u, v) &&
                                use_on_link(v, cells[i], ports[i]))
                                l++;
                        }
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

static int route_all(link_t *L)
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

static int build_barriers(link_t *L)
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
static int clique(int n, const int *w, const unsigned char *adj, int *best,
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

static void sort_ints(int *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            int t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

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

static int assign_pcts(link_t *L)
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
        if (clique(n, w, adj, best, &bn, NULL, NULL, NULL, 0) != MCE_OK) {
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

static int assign_slots(link_t *L)
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
        if (clique(n, w, adj, best, &bn, NULL, NULL, NULL, 0) != MCE_OK) {
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

/* ---- step 5: phases, bandwidth and congestion --------------------------- */

static int find_phases(link_t *L)
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
    rc = clique(n, w, adj, best, &bn, &L->phases, &L->phase_n, &L->nphases,
                MAX_PHASES);
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
static int phase_check(link_t *L, int ph, FILE *out)
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

/* ---- step 7: the report ------------------------------------------------ */

static void print_route(const link_t *L, const use_t *u, FILE *out)
{
    char a[32];
    for (int k = 0; k <= u->n; k++) {
        fmt_cell(L, u->cells[k], a, sizeof(a));
        fprintf(out, "%s%s", k ? " " : "", a);
        if (k < u->n)
            fprintf(out, " %s", port_names[u->ports[k]]);
    }
}

static void report(link_t *L, FILE *out)
{
    const tcs_decl_t *d = L->d;
    char a[128], b[32];
    int maxdepth = 0, maxused = 0, maxcell = 0;
    fprintf(out,
            "tcs-link: %d x %d cells, %d PCTs per cell: RTS %d, barriers %d, "
            "deposit %d, connections %d (PCTs %d-%d)\n",
            L->mc->width, L->mc->height, L->mc->pcts, L->rts, L->bar, L->dep,
            L->mc->pcts - L->base, L->base, L->mc->pcts - 1);
    fprintf(out,
            "reserved PCTs: RTS 0-%d, barrier out %d, barrier in %d-%d "
            "(slots 0-%d)",
            L->rts - 1, L->rts, L->rts + 1, L->rts + L->mc->barrier_slots,
            L->mc->barrier_slots - 1);
    if (L->bar > 1 + L->mc->barrier_slots)
        fprintf(out, ", 2D rings %d-%d", L->rts + L->bar - 2,
                L->rts + L->bar - 1);
    if (L->dep > 0)
        fprintf(out, ", deposit %d-%d", L->rts + L->bar,
                L->rts + L->bar + L->dep - 1);
    fputc('\n', out);
    for (int t = 0; t < d->ntasks; t++) {
        fmt_alloc(L, t, a, sizeof(a));
        if (L->depth[t] > maxdepth)
            maxdepth = L->depth[t];
        fprintf(out, "task '%s' parent %s%s%s depth %d cells %d: %s\n",
                d->tasks[t].name, d->tasks[t].parent < 0 ? "" : "'",
                d->tasks[t].parent < 0 ? "-" : tname(L, d->tasks[t].parent),
                d->tasks[t].parent < 0 ? "" : "'", L->depth[t],
                d->tasks[t].ncells, a);
    }
    for (int i = 0; i < L->nuses; i++) {
        const use_t *u = &L->uses[i];
        if (u->kind == USE_BAR)
            continue;
        if (u->kind == USE_INT)
            fprintf(out, "route '%s'/'%s' %s:", tname(L, u->task),
                    d->ngs[u->ng].name, u->name);
        else
            fprintf(out, "route '%s'/external %s:", tname(L, u->task), u->name);
        fputc(' ', out);
        print_route(L, u, out);
        fprintf(out, "; latency %" PRIu64 "; bw ", u->latency);
        if (u->bw_den)
            fprintf(out, "%u/%u", u->bw_num, u->bw_den);
        else
            fprintf(out, "-");
        fprintf(out, "; pcts");
        for (int k = 0; k <= u->n; k++) {
            fmt_cell(L, u->cells[k], b, sizeof(b));
            fprintf(out, " %s:%d", b, u->pct[k]);
            if (u->hoisted[k])
                fprintf(out, "(hoisted by '%s')", tname(L, u->owner[k]));
        }
        fputc('\n', out);
    }
    for (int i = 0; i < L->nbars; i++) {
        const barrier_t *x = &L->bars[i];
        fprintf(out, "barrier '%s' members %d ring %s:", x->name, x->nm,
                x->ring2d ? "2d (rows and columns)" : "1d");
        for (int m = 0; m < x->nm; m++) {
            fmt_cell(L, x->members[m], b, sizeof(b));
            fprintf(out, " %s/%d", b, x->slot[m]);
        }
        fputc('\n', out);
    }
    for (int i = 0; i < L->nuses; i++) {
        const use_t *u = &L->uses[i];
        int through = 0;
        if (u->kind != USE_BAR)
            continue;
        for (int k = 1; k < u->n; k++)
            through = 1;
        if (!through)
            continue;
        fprintf(out, "ring %s: ", u->name);
        print_route(L, u, out);
        fprintf(out, "; through pcts");
        for (int k = 1; k < u->n; k++) {
            fmt_cell(L, u->cells[k], b, sizeof(b));
            fprintf(out, " %s:%d", b, u->pct[k]);
            if (u->hoisted[k])
                fprintf(out, "(hoisted by '%s')", tname(L, u->owner[k]));
        }
        fputc('\n', out);
    }
    for (int p = 0; p < L->nphases; p++)
        phase_check(L, p, out);
    for (int c = 0; c < L->cells; c++) {
        int used = 0, first = 1;
        for (int p = L->base; p < L->mc->pcts; p++) {
            int any = 0;
            for (int i = 0; i < L->nuses && !any; i++) {
                const use_t *u = &L->uses[i];
                for (int k = 0; k <= u->n; k++)
                    if (u->cells[k] == c && u->pct[k] == p &&
                        (u->kind != USE_BAR || (k > 0 && k < u->n)))
                        any = 1;
            }
            used += any;
        }
        if (used > maxused)
            maxused = used, maxcell = c;
        for (int i = 0; i < L->nuses; i++) {
            const use_t *u = &L->uses[i];
            for (int k = 0; k <= u->n; k++) {
                if (u->cells[k] != c ||
                    (u->kind == USE_BAR && (k == 0 || k == u->n)))
                    continue;
                if (first) {
                    fmt_cell(L, c, b, sizeof(b));
                    fprintf(out, "cell %s:", b);
                    first = 0;
                }
                fprintf(out, " %d=%s%s", u->pct[k], u->name,
                        k == 0      ? "[src]"
                        : k == u->n ? "[dst]"
                                    : "");
            }
        }
        if (!first)
            fputc('\n', out);
    }
    fmt_cell(L, maxcell, b, sizeof(b));
    fprintf(out,
            "summary: %d tasks, depth %d, %d routes and ring hops, %d phases, "
            "%d barriers, "
            "at most %d connection PCTs on a cell (%s)\n",
            d->ntasks, maxdepth, L->nuses, L->nphases, L->nbars, maxused, b);
}

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
    if ((rc = check_tree(&L)) != MCE_OK || (rc = route_all(&L)) != MCE_OK ||
        (rc = build_barriers(&L)) != MCE_OK ||
        (rc = assign_pcts(&L)) != MCE_OK || (rc = find_phases(&L)) != MCE_OK)
        goto out;
    for (int p = 0; p < L.nphases; p++)
        if ((rc = phase_check(&L, p, NULL)) != MCE_OK)
            goto out;
    if ((rc = assign_slots(&L)) != MCE_OK)
        goto out;
    if (out != NULL)
        report(&L, out);
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
    free(r);
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
    r->d = *d; /* the tables move to the result */
    memset(d, 0, sizeof(*d));
    *res = r;
    return MCE_OK;
}

/* ---- the personality's boot hook and entry ---------------------------- */

static const char *const tcs_choices[] = {"run", "link", NULL};
enum { TCS_OPT_RUN = 0, TCS_OPT_LINK = 1 };
static const mcei_plugin_opt_t tcs_opts[] = {
    {.name = "tcs",
     .choices = tcs_choices,
     .arg = "run|link",
     .help = "TCS programs: run (default), or link only: print the "
             "linker's report and exit"},
};
const mcei_optlist_t mcei_tcs_options = {tcs_opts, MCEI_ARRAY_SIZE(tcs_opts)};

extern void tcs_declare(tcs_decl_t *d) __attribute__((weak));
/* The program's tcs_declare: the executable's, or copy 0's of its node
 * program (mcecc -mce-privatize=dlopen); NULL without one. */
static void (*program_declare(void))(tcs_decl_t *)
{
    void *own = (void *)(uintptr_t)tcs_declare;
    uintptr_t a = (uintptr_t)mcei_api_program_data(own, "tcs_declare");
    return a != 0 ? (void (*)(tcs_decl_t *))a : NULL;
}

/* tcs_declare keeps the handles its calls return in the program's
 * globals: with one copy of the program per node, run it again in every
 * copy but the first (whose declaration boot linked), each on a scratch
 * declaration that must come out the same size. */
int mcei_tcs_privatized(mcei_engine_t *eng, char *err, size_t errlen)
{
    size_t copies = mcei_priv_image_copies();
    void (*declare)(tcs_decl_t *) = program_declare();
    mcei_tcs_machine_t mc;
    int rc = MCE_OK;
    if (copies < 2 || declare == NULL || mcei_tcs_kept == NULL)
        return MCE_OK;
    if ((rc = mcei_tcs_machine(&eng->machine, &mc, err, errlen)) != MCE_OK)
        return rc;
    for (size_t k = 1; k < copies && rc == MCE_OK; k++) {
        tcs_decl_t d;
        void (*mine)(tcs_decl_t *);
        mcei_priv_switch(k);
        mine = (void (*)(tcs_decl_t *))mcei_priv_node_addr((uintptr_t)declare);
        mcei_tcs_decl_init(&d, &mc);
        mine(&d);
        if (d.ntasks != mcei_tcs_kept->d.ntasks ||
            d.nports != mcei_tcs_kept->d.nports) {
            snprintf(err, errlen,
                     "tcs_declare declared %d tasks and %d ports in the "
                     "node program's copy %zu, %d and %d in the first: a "
                     "declaration must not depend on the program's state",
                     d.ntasks, d.nports, k, mcei_tcs_kept->d.ntasks,
                     mcei_tcs_kept->d.nports);
            rc = MCE_ERR_CONFIG;
        }
        mcei_tcs_decl_free(&d);
    }
    mcei_priv_switch(0);
    return rc;
}

int mcei_tcs_boot(mcei_engine_t *eng, char *err, size_t errlen)
{
    mcei_tcs_machine_t mc;
    tcs_decl_t d;
    int rc, link;
    /* the protocol is iwarp: the personality's declared pairing
     * (lib/api/registry.c), checked by the core before boot */
    if ((rc = mcei_tcs_machine(&eng->machine, &mc, err, errlen)) != MCE_OK)
        return rc;
    void (*declare)(tcs_decl_t *) = program_declare();
    if (declare == NULL) {
        snprintf(err, errlen,
                 "the TCS program defines no tcs_declare (include/tcs.h)");
        return MCE_ERR_CONFIG;
    }
    link = mcei_config_choice(&eng->cfg, &tcs_opts[0]) == TCS_OPT_LINK;
    mcei_tcs_decl_init(&d, &mc);
    declare(&d);
    if (link)
        rc = mcei_tcs_link(&d, eng->rank == 0 ? stdout : NULL, NULL, err,
                           errlen);
    else if ((rc = mcei_tcs_link_keep(&d, eng->rank == 0 ? stderr : NULL, err,
                                      errlen, &mcei_tcs_kept)) == MCE_OK &&
             (rc = mcei_tcs_rt_init(eng->nodes)) != MCE_OK)
        snprintf(err, errlen, "out of memory");
    mcei_tcs_decl_free(&d);
    if (rc != MCE_OK) {
        char msg[64];
        snprintf(msg, sizeof(msg), "tcs-link: ");
        size_t n = strlen(msg), m = strlen(err);
        if (m + n < errlen) { /* prefix the refusal with who refuses */
            memmove(err + n, err, m + 1);
            memcpy(err, msg, n);
        }
        return rc;
    }
    if (link) {
        fflush(stdout);
        return MCEI_BOOT_DONE;
    }
    return MCE_OK;
}
