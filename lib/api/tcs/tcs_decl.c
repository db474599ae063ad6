/* TCS declarations (include/tcs.h; doc/design/iwarp-tcs.md, section 8.2):
 * the calls tcs_declare makes fill the tables of a tcs_decl_t.  Argument
 * errors are recorded (the first one) and refused by the link; the
 * checks that need the whole declaration (recursion, allocations,
 * connections, ports) are the linker's (tcs_link.c). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcs_link.h"

/* The machine-file keys of the TCS personality (lib/core/machine.h); it
 * also reads the iwarp network model's and protocol's keys by name. */
static const mcei_key_t api_tcs_keys[] = {
    {"tcs.barrier_lookup", MCEI_KEY_COUNT, "clocks", 0, UINT64_MAX, NULL,
     MCEI_LABEL_INPUT, "Warfel 1996 5.2.2 'Barrier_lookup_time was measured"},
    {"tcs.barrier_loop", MCEI_KEY_COUNT, "clocks", 0, UINT64_MAX, NULL,
     MCEI_LABEL_ASSUMED, "per-stage loop overhead of the run time's"},
    {"tcs.barrier_slots", MCEI_KEY_COUNT, "PCTs", 0, UINT64_MAX, NULL,
     MCEI_LABEL_INPUT, "Warfel 1996 4.5.4 'one PCT per possible pending"},
    {"tcs.barrier_startup", MCEI_KEY_COUNT, "clocks", 0, UINT64_MAX, NULL,
     MCEI_LABEL_INPUT, "Warfel 1996 4.5.2 'Startup ... measured at 40 clocks'"},
    {"tcs.light_change", MCEI_KEY_COUNT, "clocks", 0, UINT64_MAX, NULL,
     MCEI_LABEL_ASSUMED, "Warfel 1996 7.3.1 light task start (TCS_LIGHT):"},
    {"tcs.light_restore", MCEI_KEY_COUNT, "clocks", 0, UINT64_MAX, NULL,
     MCEI_LABEL_ASSUMED, "Warfel 1996 7.3.1 light task end: barrier(2) + 8 ="},
    {"tcs.solo_end", MCEI_KEY_COUNT, "clocks", 0, UINT64_MAX, NULL,
     MCEI_LABEL_INPUT, "Warfel 1996 7.3.1 'compute task end - 20 clocks'"},
    {"tcs.solo_start", MCEI_KEY_COUNT, "clocks", 0, UINT64_MAX, NULL,
     MCEI_LABEL_INPUT, "Warfel 1996 7.3.1 'compute task start - 20 clocks'"},
    {"tcs.switch", MCEI_KEY_COUNT, "clocks", 0, UINT64_MAX, NULL,
     MCEI_LABEL_INPUT, "Warfel 1996 5.2.2 'switch_reconfiguration_time was"},
    {"tcs.task_change", MCEI_KEY_COUNT, "clocks", 0, UINT64_MAX, NULL,
     MCEI_LABEL_INPUT, "Warfel 1996 5.3.2 'Task change overhead was"},
    {"tcs.task_restore", MCEI_KEY_COUNT, "clocks", 0, UINT64_MAX, NULL,
     MCEI_LABEL_INPUT, "Warfel 1996 5.4.2 'Parent_task_restoration_time"},
};
const mcei_keytab_t mcei_tcs_keytab =
    MCEI_KEYTAB("personality tcs", api_tcs_keys);

int mcei_tcs_machine(mcei_machine_t *m, mcei_tcs_machine_t *mc, char *err,
                     size_t errlen)
{
    static const struct {
        const char *key;
        size_t off;
    } keys[] = {
        {"iwarp.width", offsetof(mcei_tcs_machine_t, width)},
        {"iwarp.height", offsetof(mcei_tcs_machine_t, height)},
        {"iwarp.board_w", offsetof(mcei_tcs_machine_t, board_w)},
        {"iwarp.board_h", offsetof(mcei_tcs_machine_t, board_h)},
        {"iwarp.pcts", offsetof(mcei_tcs_machine_t, pcts)},
        {"dep.pcts", offsetof(mcei_tcs_machine_t, dep_pcts)},
        {"tcs.barrier_slots", offsetof(mcei_tcs_machine_t, barrier_slots)},
        {"iwarp.dq_fair_max", offsetof(mcei_tcs_machine_t, dq_fair_max)},
    };
    static const struct {
        const char *key;
        size_t off;
    } clocks[] = {
        {"iwarp.hop_board", offsetof(mcei_tcs_machine_t, hop_board)},
        {"iwarp.hop_cross", offsetof(mcei_tcs_machine_t, hop_cross)},
        {"iwarp.hop_wrap", offsetof(mcei_tcs_machine_t, hop_wrap)},
        {"iwarp.hop_turn", offsetof(mcei_tcs_machine_t, hop_turn)},
        {"iwarp.word_bytes", offsetof(mcei_tcs_machine_t, word_bytes)},
        {"iwarp.word_time", offsetof(mcei_tcs_machine_t, word_time)},
        {"tcs.barrier_startup", offsetof(mcei_tcs_machine_t, startup)},
        {"tcs.barrier_loop", offsetof(mcei_tcs_machine_t, loop)},
        {"tcs.barrier_lookup", offsetof(mcei_tcs_machine_t, lookup)},
        {"tcs.switch", offsetof(mcei_tcs_machine_t, sw)},
        {"tcs.task_change", offsetof(mcei_tcs_machine_t, task_change)},
        {"tcs.task_restore", offsetof(mcei_tcs_machine_t, task_restore)},
        {"tcs.light_change", offsetof(mcei_tcs_machine_t, light_change)},
        {"tcs.light_restore", offsetof(mcei_tcs_machine_t, light_restore)},
        {"tcs.solo_start", offsetof(mcei_tcs_machine_t, solo_start)},
        {"tcs.solo_end", offsetof(mcei_tcs_machine_t, solo_end)},
    };
    uint64_t v, rts_on, rts;
    int rc;
    memset(mc, 0, sizeof(*mc));
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        if ((rc = mcei_key_u64(m, keys[i].key, &v, err, errlen)))
            return rc;
        if (v > 4096) {
            snprintf(err, errlen, "machine '%s': %s = %llu is too large",
                     m->name, keys[i].key, (unsigned long long)v);
            return MCE_ERR_MACHINE;
        }
        *(int *)(void *)((char *)mc + keys[i].off) = (int)v;
    }
    for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
        if ((rc = mcei_key_u64(m, clocks[i].key,
                               (uint64_t *)(void *)((char *)mc + clocks[i].off),
                               err, errlen)))
            return rc;
    if ((rc = mcei_key_u64(m, "rts.enable", &rts_on, err, errlen)) ||
        (rc = mcei_key_u64(m, "rts.pcts", &rts, err, errlen)))
        return rc;
    mc->rts_pcts = rts_on ? (int)(rts > 4096 ? 4096 : rts) : 0;
    if (mc->width < 1 || mc->height < 1 || mc->board_w < 1 || mc->board_h < 1 ||
        mc->word_time == 0 || mc->barrier_slots < 1) {
        snprintf(err, errlen,
                 "machine '%s': the TCS linker needs a positive array size, "
                 "board size, iwarp.word_time and tcs.barrier_slots",
                 m->name);
        return MCE_ERR_MACHINE;
    }
    return MCE_OK;
}

void mcei_tcs_decl_init(tcs_decl_t *d, const mcei_tcs_machine_t *mc)
{
    memset(d, 0, sizeof(*d));
    d->mc = *mc;
}

void mcei_tcs_decl_free(tcs_decl_t *d)
{
    for (int i = 0; i < d->ntasks; i++)
        free(d->tasks[i].cells);
    for (int i = 0; i < d->nngs; i++)
        free(d->ngs[i].nets);
    free(d->tasks);
    free(d->ports);
    free(d->conns);
    free(d->nets);
    free(d->ngs);
    free(d->exts);
    free(d->task_ix);
    memset(d, 0, sizeof(*d));
}

__attribute__((format(printf, 3, 4))) static int
bad(tcs_decl_t *d, const char *call, const char *fmt, ...)
{
    if (!d->failed) {
        va_list ap;
        int n = snprintf(d->err, sizeof(d->err), "tcs_declare: %s: ", call);
        va_start(ap, fmt);
        if (n > 0 && (size_t)n < sizeof(d->err))
            vsnprintf(d->err + n, sizeof(d->err) - (size_t)n, fmt, ap);
        va_end(ap);
        d->failed = 1;
    }
    return TCS_EDECL;
}

/* Grow an array of @p size-byte items to hold @p n + 1. */
static int grow(void **p, int n, size_t size)
{
    return mcei_tcs_grow(p, (size_t)n, size);
}

static int name_ok(tcs_decl_t *d, const char *call, const char *name)
{
    if (name == NULL || name[0] == '\0' || strlen(name) >= MCEI_TCS_NAME) {
        bad(d, call, "a name must have 1 to %d characters", MCEI_TCS_NAME - 1);
        return 0;
    }
    return 1;
}

static int task_ok(tcs_decl_t *d, const char *call, tcs_task_t t)
{
    if (t < 0 || t >= d->ntasks) {
        bad(d, call, "no task %d (%d declared)", t, d->ntasks);
        return 0;
    }
    return 1;
}

static int bw_ok(tcs_decl_t *d, const char *call, unsigned num, unsigned den)
{
    if ((den == 0 && num != 0) || (den != 0 && (num == 0 || num > den))) {
        bad(d, call,
            "bandwidth %u/%u: give 0/0 (no reservation) or a fraction of a "
            "link between 0 and 1",
            num, den);
        return 0;
    }
    return 1;
}

static unsigned name_hash(const char *k)
{
    unsigned h = 2166136261u; /* FNV-1a */
    for (; *k; k++)
        h = (h ^ (unsigned char)*k) * 16777619u;
    return h;
}

/* The index slot of task @p name: its task's, or the empty one. */
static int *task_slot(tcs_decl_t *d, const char *name)
{
    unsigned mask = (unsigned)d->task_icap - 1, i = name_hash(name) & mask;
    while (d->task_ix[i] != 0 &&
           strcmp(d->tasks[d->task_ix[i] - 1].name, name) != 0)
        i = (i + 1) & mask;
    return &d->task_ix[i];
}

/* Room in the name index for one more task (duplicate names are found in
 * constant time: declaring n tasks stays linear). */
static int task_index_grow(tcs_decl_t *d)
{
    int *old = d->task_ix, ocap = d->task_icap;
    if (2 * (d->ntasks + 1) <= d->task_icap)
        return 0;
    if (ocap > (1 << 28) || (d->task_ix = calloc((size_t)(ocap ? 2 * ocap : 64),
                                                 sizeof(int))) == NULL) {
        d->task_ix = old;
        return -1;
    }
    d->task_icap = ocap ? 2 * ocap : 64;
    for (int i = 0; i < ocap; i++)
        if (old[i] != 0)
            *task_slot(d, d->tasks[old[i] - 1].name) = old[i];
    free(old);
    return 0;
}

static tcs_task_t add_task(tcs_decl_t *d, const char *call, const char *name,
                           tcs_task_t parent, int *cells, int n, tcs_fn fn,
                           size_t param_size, int flags)
{
    mcei_tcs_task_t *t;
    if (!name_ok(d, call, name) ||
        (parent != TCS_NONE && !task_ok(d, call, parent)))
        goto fail;
    if (task_index_grow(d)) {
        bad(d, call, "out of memory");
        goto fail;
    }
    if (*task_slot(d, name) != 0) {
        bad(d, call, "task '%s' is declared twice", name);
        goto fail;
    }
    if (fn == NULL) {
        bad(d, call, "task '%s' has no code (fn is NULL)", name);
        goto fail;
    }
    if (flags & ~(TCS_LIGHT | TCS_RING1D | TCS_THROTTLE)) {
        bad(d, call, "task '%s': unknown flags %#x", name, (unsigned)flags);
        goto fail;
    }
    if (grow((void **)&d->tasks, d->ntasks, sizeof(*d->tasks))) {
        bad(d, call, "out of memory");
        goto fail;
    }
    t = &d->tasks[d->ntasks];
    memset(t, 0, sizeof(*t));
    snprintf(t->name, sizeof(t->name), "%s", name);
    t->parent = parent;
    t->cells = cells;
    t->ncells = n;
    t->fn = fn;
    t->param_size = param_size;
    t->flags = flags;
    *task_slot(d, t->name) = d->ntasks + 1;
    return d->ntasks++;
fail:
    free(cells);
    return TCS_EDECL;
}

MCE_EXPORT tcs_task_t mce_tcs_task(tcs_decl_t *d, const char *name,
                                   tcs_task_t parent, int x, int y, int w,
                                   int h, tcs_fn fn, size_t param_size,
                                   int flags)
{
    static const char call[] = "tcs_task";
    const mcei_tcs_machine_t *mc = &d->mc;
    int *cells, x0, y0, id;
    if (parent != TCS_NONE && !task_ok(d, call, parent))
        return TCS_EDECL;
    if (w < 1 || h < 1 || w > mc->width || h > mc->height) {
        return bad(d, call,
                   "task '%s': a %d x %d rectangle does not fit the %d x %d "
                   "array",
                   name ? name : "?", w, h, mc->width, mc->height);
    }
    /* Reduced before the parent's offset is added: x near INT_MAX must
     * wrap round the torus, not overflow. */
    x0 = x % mc->width;
    y0 = y % mc->height;
    if (parent != TCS_NONE && d->tasks[parent].rect) {
        x0 += d->tasks[parent].x;
        y0 += d->tasks[parent].y;
    }
    x0 = ((x0 % mc->width) + mc->width) % mc->width;
    y0 = ((y0 % mc->height) + mc->height) % mc->height;
    cells = malloc((size_t)w * (size_t)h * sizeof(*cells));
    if (cells == NULL)
        return bad(d, call, "out of memory");
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++)
            cells[j * w + i] =
                ((y0 + j) % mc->height) * mc->width + (x0 + i) % mc->width;
    id = add_task(d, call, name, parent, cells, w * h, fn, param_size, flags);
    if (id >= 0) {
        mcei_tcs_task_t *t = &d->tasks[id];
        t->rect = 1;
        t->x = x0;
        t->y = y0;
        t->w = w;
        t->h = h;
    }
    return id;
}

MCE_EXPORT tcs_task_t mce_tcs_task_cells(tcs_decl_t *d, const char *name,
                                         tcs_task_t parent, const int *cells,
                                         int n, tcs_fn fn, size_t param_size,
                                         int flags)
{
    static const char call[] = "tcs_task_cells";
    int total = d->mc.width * d->mc.height, *copy;
    if (cells == NULL || n < 1 || n > total)
        return bad(d, call, "task '%s': give 1 to %d cells", name ? name : "?",
                   total);
    for (int i = 0; i < n; i++) {
        if (cells[i] < 0 || cells[i] >= total)
            return bad(d, call,
                       "task '%s': cell %d is not in the %d x %d array",
                       name ? name : "?", cells[i], d->mc.width, d->mc.height);
        for (int j = 0; j < i; j++)
            if (cells[j] == cells[i])
                return bad(d, call, "task '%s': cell %d is listed twice",
                           name ? name : "?", cells[i]);
    }
    copy = malloc((size_t)n * sizeof(*copy));
    if (copy == NULL)
        return bad(d, call, "out of memory");
    memcpy(copy, cells, (size_t)n * sizeof(*copy));
    return add_task(d, call, name, parent, copy, n, fn, param_size, flags);
}

static tcs_port_t add_port(tcs_decl_t *d, const char *call, tcs_task_t task,
                           const char *name, int cell, int dir, int inherits)
{
    mcei_tcs_port_t *p;
    if (!task_ok(d, call, task) || !name_ok(d, call, name))
        return TCS_EDECL;
    for (int i = 0; i < d->nports; i++)
        if (d->ports[i].task == task && strcmp(d->ports[i].name, name) == 0)
            return bad(d, call, "task '%s' has two ports named '%s'",
                       d->tasks[task].name, name);
    if (grow((void **)&d->ports, d->nports, sizeof(*d->ports)))
        return bad(d, call, "out of memory");
    p = &d->ports[d->nports];
    memset(p, 0, sizeof(*p));
    snprintf(p->name, sizeof(p->name), "%s", name);
    p->task = task;
    p->cell = cell;
    p->dir = dir;
    p->inherits = inherits;
    return d->nports++;
}

MCE_EXPORT tcs_port_t mce_tcs_port(tcs_decl_t *d, tcs_task_t task,
                                   const char *name, int cell, int dir)
{
    static const char call[] = "tcs_port";
    if (!task_ok(d, call, task))
        return TCS_EDECL;
    if (cell < 0 || cell >= d->tasks[task].ncells)
        return bad(d, call,
                   "port '%s' of task '%s': cell %d is outside the "
                   "task (%d cells)",
                   name ? name : "?", d->tasks[task].name, cell,
                   d->tasks[task].ncells);
    if (dir != TCS_IN && dir != TCS_OUT)
        return bad(d, call, "port '%s': direction must be TCS_IN or TCS_OUT",
                   name ? name : "?");
    return add_port(d, call, task, name, cell, dir, -1);
}

MCE_EXPORT tcs_port_t mce_tcs_inherit(tcs_decl_t *d, tcs_task_t child,
                                      const char *name, tcs_port_t parent_port)
{
    static const char call[] = "tcs_inherit";
    const mcei_tcs_port_t *pp;
    const mcei_tcs_task_t *c, *pt;
    int abs, cell = -1;
    if (!task_ok(d, call, child))
        return TCS_EDECL;
    c = &d->tasks[child];
    if (parent_port < 0 || parent_port >= d->nports)
        return bad(d, call, "no port %d (%d declared)", parent_port, d->nports);
    pp = &d->ports[parent_port];
    if (pp->task != c->parent)
        return bad(d, call,
                   "task '%s' cannot inherit port '%s' of '%s': it is not "
                   "its parent",
                   c->name, pp->name, d->tasks[pp->task].name);
    pt = &d->tasks[pp->task];
    abs = pt->cells[pp->cell];
    for (int i = 0; i < c->ncells; i++)
        if (c->cells[i] == abs)
            cell = i;
    if (cell < 0)
        return bad(d, call,
                   "task '%s' cannot inherit port '%s' of '%s': the port is "
                   "on cell (%d,%d), outside the child",
                   c->name, pp->name, pt->name, abs % d->mc.width,
                   abs / d->mc.width);
    return add_port(d, call, child, name, cell, pp->dir, parent_port);
}

MCE_EXPORT tcs_net_t mce_tcs_network(tcs_decl_t *d, tcs_task_t task,
                                     const char *name)
{
    static const char call[] = "tcs_network";
    mcei_tcs_net_t *n;
    if (!task_ok(d, call, task) || !name_ok(d, call, name))
        return TCS_EDECL;
    for (int i = 0; i < d->nnets; i++)
        if (d->nets[i].task == task && strcmp(d->nets[i].name, name) == 0)
            return bad(d, call, "task '%s' has two networks named '%s'",
                       d->tasks[task].name, name);
    if (grow((void **)&d->nets, d->nnets, sizeof(*d->nets)))
        return bad(d, call, "out of memory");
    n = &d->nets[d->nnets];
    memset(n, 0, sizeof(*n));
    snprintf(n->name, sizeof(n->name), "%s", name);
    n->task = task;
    return d->nnets++;
}

MCE_EXPORT int mce_tcs_connect(tcs_decl_t *d, tcs_net_t net, int src_cell,
                               const char *src_port, int dst_cell,
                               const char *dst_port, unsigned bw_num,
                               unsigned bw_den)
{
    static const char call[] = "tcs_connect";
    mcei_tcs_conn_t *c;
    int index = 0;
    if (net < 0 || net >= d->nnets)
        return bad(d, call, "no network %d (%d declared)", net, d->nnets);
    if (!name_ok(d, call, src_port) || !name_ok(d, call, dst_port) ||
        !bw_ok(d, call, bw_num, bw_den))
        return TCS_EDECL;
    for (int i = 0; i < d->nconns; i++)
        if (d->conns[i].net == net)
            index++;
    if (grow((void **)&d->conns, d->nconns, sizeof(*d->conns)))
        return bad(d, call, "out of memory");
    c = &d->conns[d->nconns++];
    memset(c, 0, sizeof(*c));
    c->net = net;
    c->index = index;
    c->src_cell = src_cell; /* range checked by the linker (step 1) */
    c->dst_cell = dst_cell;
    snprintf(c->src, sizeof(c->src), "%s", src_port);
    snprintf(c->dst, sizeof(c->dst), "%s", dst_port);
    c->bw_num = bw_num;
    c->bw_den = bw_den;
    return index;
}

MCE_EXPORT tcs_ng_t mce_tcs_netgroup(tcs_decl_t *d, tcs_task_t task,
                                     const char *name, const tcs_net_t *nets,
                                     int n)
{
    static const char call[] = "tcs_netgroup";
    mcei_tcs_ng_t *g;
    int *copy;
    if (!task_ok(d, call, task) || !name_ok(d, call, name))
        return TCS_EDECL;
    if (n < 0 || (n > 0 && nets == NULL))
        return bad(d, call, "netgroup '%s': bad network list", name);
    for (int i = 0; i < d->nngs; i++)
        if (d->ngs[i].task == task && strcmp(d->ngs[i].name, name) == 0)
            return bad(d, call, "task '%s' has two netgroups named '%s'",
                       d->tasks[task].name, name);
    for (int i = 0; i < n; i++)
        if (nets[i] < 0 || nets[i] >= d->nnets || d->nets[nets[i]].task != task)
            return bad(d, call,
                       "netgroup '%s' of task '%s': network %d is not one of "
                       "the task's",
                       name, d->tasks[task].name, nets[i]);
    copy = malloc((size_t)(n > 0 ? n : 1) * sizeof(*copy));
    if (copy == NULL || grow((void **)&d->ngs, d->nngs, sizeof(*d->ngs))) {
        free(copy);
        return bad(d, call, "out of memory");
    }
    if (n > 0)
        memcpy(copy, nets, (size_t)n * sizeof(*copy));
    g = &d->ngs[d->nngs];
    memset(g, 0, sizeof(*g));
    snprintf(g->name, sizeof(g->name), "%s", name);
    g->task = task;
    g->nets = copy;
    g->n = n;
    return d->nngs++;
}

MCE_EXPORT int mce_tcs_external(tcs_decl_t *d, tcs_task_t parent,
                                tcs_port_t out, tcs_port_t in, unsigned bw_num,
                                unsigned bw_den)
{
    static const char call[] = "tcs_external";
    mcei_tcs_ext_t *e;
    if ((parent != TCS_NONE && !task_ok(d, call, parent)) ||
        !bw_ok(d, call, bw_num, bw_den))
        return TCS_EDECL;
    if (out < 0 || out >= d->nports || in < 0 || in >= d->nports)
        return bad(d, call, "no port %d (%d declared)",
                   out < 0 || out >= d->nports ? out : in, d->nports);
    if (grow((void **)&d->exts, d->nexts, sizeof(*d->exts)))
        return bad(d, call, "out of memory");
    e = &d->exts[d->nexts];
    e->parent = parent;
    e->out = out;
    e->in = in;
    e->bw_num = bw_num;
    e->bw_den = bw_den;
    return d->nexts++;
}

MCE_EXPORT void mce_tcs_uses_deposit(tcs_decl_t *d)
{
    d->uses_deposit = 1;
}

int mcei_tcs_reserved(const tcs_decl_t *d, int cell, int *rts, int *dep,
                      int *bar)
{
    int total = d->mc.width * d->mc.height, ring2d = 0;
    if (cell < 0 || cell >= total)
        return MCE_ERR_INVAL;
    /* A whole-array barrier on 2D rings needs one more PCT on every cell,
     * the column ring's in PCT: the out PCT serves the row and then the
     * column (W s.4.5.3.3 "requiring only a single additional PCT"; W
     * s.4.5.4 counts the PCTs of the 1D ring; design s.6.4, s.8.8). */
    for (int i = 0; i < d->ntasks; i++)
        if (d->tasks[i].ncells == total && !(d->tasks[i].flags & TCS_RING1D))
            ring2d = 1;
    *rts = d->mc.rts_pcts;
    *dep = d->uses_deposit ? d->mc.dep_pcts : 0;
    *bar = 1 + d->mc.barrier_slots + ring2d;
    return MCE_OK;
}

MCE_EXPORT int mce_tcs_args(tcs_decl_t *d, char *const **argv)
{
    if (d == NULL || argv == NULL || d->argc < 0)
        return -1;
    *argv = d->argv;
    return d->argc;
}

MCE_EXPORT int mce_tcs_free_pcts(tcs_decl_t *d, int cell)
{
    int rts, dep, bar;
    if (d == NULL || mcei_tcs_reserved(d, cell, &rts, &dep, &bar) != MCE_OK)
        return -1;
    return d->mc.pcts - rts - dep - bar;
}
