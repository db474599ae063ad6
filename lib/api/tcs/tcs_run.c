/* The TCS run time (include/tcs.h; doc/design/iwarp-tcs.md, sections 8.4
 * and 10.3; Warfel 1996, chapter 5) over the link result kept at boot
 * (tcs_link.c) and the iWarp cell calls.
 *
 * Barriers are the (N-1) send/receive rings of iwarp_barrier (design
 * s.6.3/6.4) on the linker's rings: one shared out PCT, one in PCT per
 * slot, the linker's through-PCTs; whole-array barriers of tasks not
 * declared TCS_RING1D run over the rows and then the columns (2D rings:
 * one more PCT per cell, the column's in PCT; the out PCT serves both
 * dimensions, re-pointed from the row to the column once its last row
 * word has left, W s.4.5.3.3 "a single additional PCT").  The ring PCTs
 * are configured when the cell program is loaded (before main); a
 * barrier lookup (tcs.barrier_lookup) points the out PCT at the
 * barrier's next member (a 2D ring's: in its row) and binds the gates
 * W1/R1 (and R0 for a 2D column ring).
 *
 * Reconfiguration: barrier; events off; barrier; switch; barrier; events
 * on (W s.5.2), every barrier preceded by its lookup; the switch charges
 * tcs.switch and writes every PCT of the new connection set on this cell
 * (a PCT whose configuration changes is released and configured: IW_CFG
 * to the network model).  The emulated machine has no global events, so
 * turning them off and on costs nothing.  Task start: tcs.task_change,
 * then the reconfiguration over the connected component (its switch sets
 * up the external connections and the PCTs the task holds for routes
 * through its cells); task end: the component's barrier, then
 * tcs.task_restore.  Tasks run as function calls on the cells of their
 * allocation, the parent's code waiting on those cells. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/privatize.h"
#include "../../machines/iwarp/cpu.h"
#include "../../machines/iwarp/iwarp.h"
#include "../registry.h"
#include "tcs_link.h"

#define MAX_HANDLES 256 /* a cell may serve many sequential tasks */

typedef struct handle {
    int task, rank, dir, port; /* port: external port index, or -1 */
    char name[MCEI_TCS_NAME];
} handle_t;

typedef struct rt_node {
    handle_t h[MAX_HANDLES];
    int nh;
} rt_node_t;

struct tcs_ctx {
    int task, rank, cell;
    int ng;        /* active netgroup, -1 none */
    int bar, comp; /* own barrier; the component's (or own) */
    tcs_ctx_t *up; /* the parent's context on this cell, or NULL */
};

static rt_node_t *nodes; /* per cell: its port handles */

static void free_nodes(void)
{
    free(nodes);
    nodes = NULL;
    mcei_tcs_result_free(mcei_tcs_kept);
    mcei_tcs_kept = NULL;
}

int mcei_tcs_rt_init(int n)
{
    free(nodes);
    nodes = calloc((size_t)n, sizeof(*nodes));
    if (nodes == NULL)
        return MCE_ERR_NOMEM;
    atexit(free_nodes);
    return MCE_OK;
}

/* ---- small helpers ------------------------------------------------------ */

static const mcei_tcs_result_t *R(void)
{
    return mcei_tcs_kept;
}

static mcei_vn_t *enter(const char *call)
{
    mcei_vn_t *vn = mcei_enter();
    if (vn == NULL) {
        mcei_log("%s: called outside a node program", call);
        return NULL;
    }
    mcei_api_begin(vn, call);
    if (R() == NULL || !mcei_iw_active(NULL))
        mcei_vn_fatal(vn,
                      "%s: the TCS run time needs a linked TCS program "
                      "(include/tcs.h) on an iWarp machine",
                      call);
    return vn;
}

static int fail(mcei_vn_t *vn, const char *call, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(mcei_vn_t *vn, const char *call, int code, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    int w = R()->d.mc.width;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    mcei_log("cell (%d,%d): %s: %s", vn->id % w, vn->id / w, call, msg);
    mcei_leave(vn);
    return code;
}

static void charge(mcei_vn_t *vn, uint64_t clocks)
{
    const mcei_iw_costs_t *c;
    mce_time_t t;
    mcei_iw_active(&c);
    if (mcei_time_mul(c->clock, clocks, &t) != MCE_OK)
        mcei_vn_fatal(vn, "TCS: %" PRIu64 " clocks overflow the virtual clock",
                      clocks);
    mcei_iw_flush(vn);
    mcei_iw_cpu(vn, t);
}

static int rank_in(int task, int cell)
{
    const mcei_tcs_task_t *t = &R()->d.tasks[task];
    for (int i = 0; i < t->ncells; i++)
        if (t->cells[i] == cell)
            return i;
    return -1;
}

static int is_member(int bar, int cell)
{
    const mcei_tcs_bar_t *b = &R()->bars[bar];
    for (int m = 0; m < b->nm; m++)
        if (b->members[m] == cell)
            return m;
    return -1;
}

/* The barrier of a started task's connected component (W s.5.3), or the
 * task's own when it has no external connections to siblings. */
static int comp_barrier(int task)
{
    const mcei_tcs_result_t *r = R();
    for (int b = r->d.ntasks; b < r->nbars; b++)
        for (int k = 0; k < r->bars[b].nset; k++)
            if (r->bars[b].set[k] == task)
                return b;
    return task; /* bars[t] is task t's own barrier (tcs_route.c) */
}

/* The configuration park_slot gives a slot's in PCT: from a PCT numbered
 * like itself on the X+ side, which no link feeds. */
static int parked(mcei_vn_t *vn, int pct, int in, int inp, int out, int end)
{
    return in == MCEI_IW_PORT_XP && inp == pct && out == MCEI_IW_PORT_CPU &&
           end == vn->id;
}

/* Set PCT @p pct of this cell to the given configuration; nothing when it
 * has it already.  Free of charge (the caller charges the switch or the
 * lookup as a whole); a PCT holding unread words ends the run, except a
 * parked slot PCT configured again for the connection they came on. */
static int set_pct(mcei_vn_t *vn, int pct, int in, int inp, int out, int outp,
                   int end, int throttle)
{
    int a, b, c, d, e;
    char why[256];
    if (mcei_iw_pct_state(vn, pct, &a, &b, &c, &d, &e)) {
        int keep;
        if (a == in && (in == MCEI_IW_PORT_CPU || b == inp) && c == out &&
            (out == MCEI_IW_PORT_CPU || d == outp) && e == end &&
            mcei_iw_pct_throttle(vn, pct) == throttle)
            return 0;
        for (int g = 0; g < MCEI_IW_GATES; g++)
            if (mcei_iw_gate_pct(vn, g) == pct)
                mcei_iw_gate_unbind(vn, g, why, sizeof(why));
        /* words that reached a parked PCT were on their way when it was
         * parked: the upstream member's for the barrier's next use (it
         * left the barrier and entered the next before this cell read its
         * last word); they are that use's if the PCT ends their
         * connection again */
        keep =
            parked(vn, pct, a, b, c, e) && out == MCEI_IW_PORT_CPU ? end : -1;
        if (mcei_iw_pct_release_keep(vn, pct, keep, why, sizeof(why)) != MCE_OK)
            mcei_vn_fatal(vn, "tcs: PCT %d: %s", pct, why);
    }
    mcei_iw_pct_set_throttle(vn, pct, throttle);
    if (mcei_iw_pct_config(vn, pct, in, inp, out, outp, end, why,
                           sizeof(why)) != MCE_OK)
        mcei_vn_fatal(vn, "tcs: PCT %d: %s", pct, why);
    return 1;
}

static int opposite(int port)
{
    static const int opp[] = {MCEI_IW_PORT_CPU, MCEI_IW_PORT_XM,
                              MCEI_IW_PORT_XP, MCEI_IW_PORT_YM,
                              MCEI_IW_PORT_YP};
    return opp[port];
}

/* Configure position @p k of use @p u (on this cell); 1 if it changed. */
static int set_use(mcei_vn_t *vn, const mcei_tcs_use_t *u, int k)
{
    int in = k == 0 ? MCEI_IW_PORT_CPU : opposite(u->ports[k - 1]);
    int out = k == u->n ? MCEI_IW_PORT_CPU : u->ports[k];
    int end = k == 0 ? u->dst : k == u->n ? u->src : -1;
    /* the linker's throttle on the source PCT (design s.3.3), for the
     * tasks that ask for it (TCS_THROTTLE) */
    int thr = k == 0 && u->kind == MCEI_TCS_USE_INT &&
                      (R()->d.tasks[u->task].flags & TCS_THROTTLE)
                  ? u->throttle
                  : 0;
    return set_pct(vn, u->pct[k], in, k > 0 ? u->pct[k - 1] : 0, out,
                   k < u->n ? u->pct[k + 1] : 0, end, thr);
}

static void bind_free(mcei_vn_t *vn, int gate, int pct)
{
    char why[256];
    if (mcei_iw_gate_pct(vn, gate) == pct)
        return;
    for (int g = 0; g < MCEI_IW_GATES; g++)
        if (mcei_iw_gate_pct(vn, g) == pct || g == gate)
            if (mcei_iw_gate_pct(vn, g) >= 0)
                mcei_iw_gate_unbind(vn, g, why, sizeof(why));
    if (mcei_iw_gate_bind(vn, gate, pct, why, sizeof(why)) != MCE_OK)
        mcei_vn_fatal(vn, "tcs: gate %d: %s", gate, why);
}

/* ---- barriers ------------------------------------------------------------ */

static int cell_at(int x, int y)
{
    const mcei_tcs_machine_t *mc = &R()->d.mc;
    x = (x + mc->width) % mc->width;
    y = (y + mc->height) % mc->height;
    return y * mc->width + x;
}

/* The column in PCT of a 2D whole-array ring (the last barrier PCT); the
 * out PCT serves the row and then the column, the row in PCT is the
 * slot's in PCT. */
static int ring2d_col_in(void)
{
    const mcei_tcs_result_t *r = R();
    return r->rts + r->bar - 1;
}

/* The in PCTs of barrier @p b on this cell (member @p m). */
static void set_ring_in(mcei_vn_t *vn, int b, int m)
{
    const mcei_tcs_result_t *r = R();
    const mcei_tcs_bar_t *x = &r->bars[b];
    if (x->ring2d) {
        int cx = vn->id % r->d.mc.width, cy = vn->id / r->d.mc.width;
        set_pct(vn, r->rts + 1 + x->slot[m], MCEI_IW_PORT_XM, r->rts,
                MCEI_IW_PORT_CPU, 0, cell_at(cx - 1, cy), 0);
        set_pct(vn, ring2d_col_in(), MCEI_IW_PORT_YM, r->rts, MCEI_IW_PORT_CPU,
                0, cell_at(cx, cy - 1), 0);
        return;
    }
    if (x->nm < 2)
        return;
    {
        const mcei_tcs_use_t *u = &r->uses[x->hop[(m + x->nm - 1) % x->nm]];
        set_use(vn, u, u->n);
    }
}

/* Load time: every cell configures its in PCTs (the first barrier of each
 * slot) and the through-PCTs of the ring hops crossing it. */
static void load(mcei_vn_t *vn)
{
    const mcei_tcs_result_t *r = R();
    int a, b, c, d, e;
    mcei_iw_cfg_free(vn, 1);
    for (int i = 0; i < r->nbars; i++) {
        int m = is_member(i, vn->id), pct;
        if (m < 0)
            continue;
        pct = r->rts + 1 + r->bars[i].slot[m];
        if (!mcei_iw_pct_state(vn, pct, &a, &b, &c, &d, &e))
            set_ring_in(vn, i, m);
    }
    for (int i = 0; i < r->nuses; i++) {
        const mcei_tcs_use_t *u = &r->uses[i];
        if (u->kind != MCEI_TCS_USE_BAR)
            continue;
        for (int k = 1; k < u->n; k++)
            if (u->cells[k] == vn->id &&
                !mcei_iw_pct_state(vn, u->pct[k], &a, &b, &c, &d, &e))
                set_use(vn, u, k);
    }
    /* routes held by the application (hoisted, owner: none) */
    for (int i = 0; i < r->nuses; i++) {
        const mcei_tcs_use_t *u = &r->uses[i];
        if (u->kind == MCEI_TCS_USE_BAR)
            continue;
        for (int k = 0; k <= u->n; k++)
            if (u->cells[k] == vn->id && u->hoisted[k] && u->owner[k] < 0)
                set_use(vn, u, k);
    }
    mcei_iw_cfg_free(vn, 0);
}

/* The lookup: charge tcs.barrier_lookup; point the out PCT(s) at the
 * barrier's next member, make sure the in PCTs are this barrier's, bind
 * the gates. */
static void lookup(mcei_vn_t *vn, int b, int m, int charged)
{
    const mcei_tcs_result_t *r = R();
    const mcei_tcs_bar_t *x = &r->bars[b];
    if (charged)
        charge(vn, r->d.mc.lookup);
    mcei_iw_cfg_free(vn, 1);
    set_ring_in(vn, b, m);
    if (x->ring2d) {
        int cx = vn->id % r->d.mc.width, cy = vn->id / r->d.mc.width;
        int right = cell_at(cx + 1, cy);
        /* the out PCT at the row; the column comes after the row ring */
        set_pct(vn, r->rts, MCEI_IW_PORT_CPU, 0, MCEI_IW_PORT_XP,
                r->rts + 1 + x->slot[is_member(b, right)], right, 0);
        bind_free(vn, MCEI_IW_W1, r->rts);
        bind_free(vn, MCEI_IW_R1, r->rts + 1 + x->slot[m]);
        bind_free(vn, MCEI_IW_R0, ring2d_col_in());
    } else if (x->nm >= 2) {
        set_use(vn, &r->uses[x->hop[m]], 0);
        bind_free(vn, MCEI_IW_W1, r->rts);
        bind_free(vn, MCEI_IW_R1, r->rts + 1 + x->slot[m]);
    }
    mcei_iw_cfg_free(vn, 0);
}

static void ring(mcei_vn_t *vn, int len, int wg, int rg, uint64_t stage)
{
    char why[256];
    for (int s = 0; s < len - 1; s++) {
        uint32_t w = 1;
        charge(vn, stage);
        if (mcei_iw_gate_write(vn, wg, &w, 1, 0, why, sizeof(why)) != MCE_OK ||
            mcei_iw_gate_read(vn, rg, &w, 1, 0, why, sizeof(why)) != MCE_OK)
            mcei_vn_fatal(vn, "tcs: barrier ring: %s", why);
    }
}

/* After a 1D barrier whose in PCT other barriers of this cell share:
 * point it at no upstream PCT (free; the gate stays bound), so that a
 * member that enters the next barrier using the slot before this cell's
 * lookup has its word held back upstream (lib/net/iwarp.c) instead of
 * delivered into a stale configuration that matches it (design 8.10). */
static void park_slot(mcei_vn_t *vn, int b, int m)
{
    const mcei_tcs_result_t *r = R();
    int slot = r->bars[b].slot[m], pct = r->rts + 1 + slot, shared = 0;
    for (int i = 0; i < r->nbars && !shared; i++) {
        int mi = i == b ? -1 : is_member(i, vn->id);
        shared = mi >= 0 && !r->bars[i].ring2d && r->bars[i].slot[mi] == slot;
    }
    /* a word already here is the upstream member's for this barrier's
     * next use (it left the barrier and entered the next one before this
     * cell read its last word): the configuration stays, for that use */
    if (!shared || mcei_iw_pct_unread(vn, pct) > 0)
        return;
    mcei_iw_cfg_free(vn, 1);
    /* no PCT numbered like a slot's in PCT feeds a link */
    set_pct(vn, pct, MCEI_IW_PORT_XP, pct, MCEI_IW_PORT_CPU, 0, vn->id, 0);
    bind_free(vn, MCEI_IW_R1, pct);
    mcei_iw_cfg_free(vn, 0);
}

/* One barrier of @p b on this cell: lookup (charged or not), startup,
 * the ring(s). */
static void barrier(mcei_vn_t *vn, int b, int charged)
{
    const mcei_tcs_result_t *r = R();
    const mcei_tcs_bar_t *x = &r->bars[b];
    int m = is_member(b, vn->id);
    if (m < 0)
        mcei_vn_fatal(vn, "tcs: cell %d is not a member of barrier '%s'",
                      vn->id, x->name);
    lookup(vn, b, m, charged);
    charge(vn, r->d.mc.startup);
    if (x->ring2d) {
        /* a 2D stage costs what a 1D stage costs: the same gate operations
         * over a one-hop connection (W 6.3.1's measured 448 is not
         * reproduced: design s.6.4); between the dimensions the out PCT
         * is re-pointed at the column once its last row word has left
         * (the drain, then iwarp.pct_config; W1 stays bound to it) */
        char why[256];
        int cx = vn->id % r->d.mc.width, cy = vn->id / r->d.mc.width;
        ring(vn, r->d.mc.width, MCEI_IW_W1, MCEI_IW_R1, r->d.mc.loop);
        if (mcei_iw_pct_repoint(vn, r->rts, MCEI_IW_PORT_YP, ring2d_col_in(),
                                cell_at(cx, cy + 1), why,
                                sizeof(why)) != MCE_OK)
            mcei_vn_fatal(vn, "tcs: barrier column: %s", why);
        ring(vn, r->d.mc.height, MCEI_IW_W1, MCEI_IW_R0, r->d.mc.loop);
    } else {
        ring(vn, x->nm, MCEI_IW_W1, MCEI_IW_R1, r->d.mc.loop);
        if (x->nm >= 2)
            park_slot(vn, b, m);
    }
}

/* ---- switching ----------------------------------------------------------- */

/* Write the PCTs of this cell for: the internal connections of @p task in
 * netgroup @p ng (if >= 0), its external connections (if @p ext), and the
 * through-PCTs it holds.  Returns the number of PCTs that changed. */
static int switch_pcts(mcei_vn_t *vn, int task, int ng, int ext)
{
    const mcei_tcs_result_t *r = R();
    int changed = 0, j = 0, end = 0;
    if (vn->id < r->ncells) { /* the cell's places, in (use, place) order */
        j = r->at_start[vn->id];
        end = r->at_start[vn->id + 1];
    }
    mcei_iw_cfg_free(vn, 1);
    for (; j < end; j++) {
        const mcei_tcs_use_t *u = &r->uses[r->at_use[j]];
        int k = r->at_k[j], mine;
        if (u->hoisted[k])
            mine = u->owner[k] == task && u->kind != MCEI_TCS_USE_BAR;
        else if (u->kind == MCEI_TCS_USE_INT)
            mine = u->task == task && u->ng == ng && ng >= 0;
        else if (u->kind == MCEI_TCS_USE_EXT)
            mine = ext && u->owner[k] == task;
        else
            mine = 0;
        if (mine)
            changed += set_use(vn, u, k);
    }
    mcei_iw_cfg_free(vn, 0);
    return changed;
}

static void reconfigure(mcei_vn_t *vn, int b, int task, int ng, int ext)
{
    barrier(vn, b, 1);
    /* global events off: the emulated RTS has none */
    barrier(vn, b, 1);
    charge(vn, R()->d.mc.sw);
    switch_pcts(vn, task, ng, ext);
    barrier(vn, b, 1);
    /* global events back on */
}

/* ---- the API ----------------------------------------------------- */

static int check_ctx(mcei_vn_t *vn, const char *call, tcs_ctx_t *ctx)
{
    if (ctx == NULL || ctx->cell != vn->id)
        return fail(vn, call, TCS_EINVAL,
                    "not a task context of this cell (the ctx argument of "
                    "the task's code)");
    return TCS_OK;
}

static void run_task(mcei_vn_t *vn, tcs_ctx_t *c, const void *params)
{
    /* declared at boot by copy 0 of a program built with mcecc
     * -mce-privatize=dlopen: the node runs its own copy's */
    tcs_fn fn =
        (tcs_fn)mcei_priv_node_addr((uintptr_t)R()->d.tasks[c->task].fn);
    mcei_leave(vn);
    fn(c, params);
}

MCE_EXPORT int mce_tcs_run(tcs_task_t top, const void *params)
{
    mcei_vn_t *vn = enter("tcs_run");
    tcs_ctx_t c;
    int rank;
    if (vn == NULL)
        return TCS_EINVAL;
    if (top < 0 || top >= R()->d.ntasks || R()->d.tasks[top].parent >= 0)
        return fail(vn, "tcs_run", TCS_EINVAL,
                    "task %d is not a top-level task of the declaration", top);
    if ((rank = rank_in(top, vn->id)) < 0) {
        mcei_leave(vn);
        return TCS_OK; /* not on this cell */
    }
    c = (tcs_ctx_t){.task = top,
                    .rank = rank,
                    .cell = vn->id,
                    .ng = -1,
                    .bar = top,
                    .comp = top,
                    .up = NULL};
    /* a top-level task starts with the program: its external connections
     * and the routes it holds are set up with the cell's load */
    switch_pcts(vn, top, -1, 1);
    run_task(vn, &c, params);
    return TCS_OK;
}

MCE_EXPORT int mce_tcs_start(tcs_ctx_t *ctx, tcs_task_t child,
                             const void *params)
{
    mcei_vn_t *vn = enter("tcs_start");
    const mcei_tcs_result_t *r;
    tcs_ctx_t c;
    int rank, rc, light, solo, k;
    if (vn == NULL)
        return TCS_EINVAL;
    if ((rc = check_ctx(vn, "tcs_start", ctx)) != TCS_OK)
        return rc;
    r = R();
    if (child < 0 || child >= r->d.ntasks)
        return fail(vn, "tcs_start", TCS_EINVAL, "no task %d", child);
    if (r->d.tasks[child].parent != ctx->task)
        return fail(vn, "tcs_start", TCS_ENOTCHILD,
                    "task '%s' is not a child of the running task '%s' (its "
                    "parent is %s%s%s)",
                    r->d.tasks[child].name, r->d.tasks[ctx->task].name,
                    r->d.tasks[child].parent < 0 ? "the application" : "'",
                    r->d.tasks[child].parent < 0
                        ? ""
                        : r->d.tasks[r->d.tasks[child].parent].name,
                    r->d.tasks[child].parent < 0 ? "" : "'");
    if ((rank = rank_in(child, vn->id)) < 0)
        return fail(vn, "tcs_start", TCS_EOUTSIDE,
                    "task '%s' does not run on this cell: its allocation "
                    "does not hold (%d,%d)",
                    r->d.tasks[child].name, vn->id % r->d.mc.width,
                    vn->id / r->d.mc.width);
    c = (tcs_ctx_t){.task = child,
                    .rank = rank,
                    .cell = vn->id,
                    .ng = -1,
                    .bar = child,
                    .comp = comp_barrier(child),
                    .up = ctx};
    light = r->d.tasks[child].flags & TCS_LIGHT;
    solo = r->bars[c.comp].nm == 1;
    if (light) {
        /* light task start (W s.7.3.1): one cell: solo_start; else
         * light_change, the PCTs of the task's first netgroup and its
         * external connections (pct_config each), the lookup and one
         * barrier over the component */
        const mcei_iw_costs_t *ic;
        for (int g = r->d.nngs - 1; g >= 0; g--)
            if (r->d.ngs[g].task == child)
                c.ng = g;
        mcei_iw_active(&ic);
        charge(vn, solo ? r->d.mc.solo_start : r->d.mc.light_change);
        k = switch_pcts(vn, child, c.ng, 1);
        if (!solo) {
            mcei_iw_flush(vn);
            mcei_iw_cpu(vn, (mce_time_t)k * ic->pct_config);
            barrier(vn, c.comp, 1);
        }
    } else {
        /* task start (W s.5.3.1): context change, then the
         * reconfiguration over the connected component with its external
         * connections */
        charge(vn, r->d.mc.task_change);
        reconfigure(vn, c.comp, child, -1, 1);
    }
    run_task(vn, &c, params);
    /* task end (W s.5.4.1): the component's barrier, then the parent's
     * context back; the barrier's PCTs were looked up at the start (a
     * lookup after a child's barriers is charged) */
    vn = enter("tcs_start");
    if (light && solo) {
        charge(vn, r->d.mc.solo_end);
        mcei_leave(vn);
        return TCS_OK;
    }
    {
        int m = is_member(c.comp, vn->id);
        int lk = mcei_iw_gate_pct(vn, MCEI_IW_R1) !=
                 r->rts + 1 + r->bars[c.comp].slot[m];
        if (!lk && !r->bars[c.comp].ring2d && r->bars[c.comp].nm >= 2) {
            int a, b, cc, d, e;
            const mcei_tcs_use_t *u = &r->uses[r->bars[c.comp].hop[m]];
            lk = !mcei_iw_pct_state(vn, r->rts, &a, &b, &cc, &d, &e) ||
                 cc != u->ports[0] || (u->n > 0 && d != u->pct[1]) ||
                 e != u->dst;
        }
        barrier(vn, c.comp, lk);
    }
    charge(vn, light ? r->d.mc.light_restore : r->d.mc.task_restore);
    mcei_leave(vn);
    return TCS_OK;
}

MCE_EXPORT int mce_tcs_rank(tcs_ctx_t *ctx)
{
    return ctx != NULL ? ctx->rank : TCS_EINVAL;
}

MCE_EXPORT int mce_tcs_size(tcs_ctx_t *ctx)
{
    if (ctx == NULL || R() == NULL)
        return TCS_EINVAL;
    return R()->d.tasks[ctx->task].ncells;
}

MCE_EXPORT int mce_tcs_barrier(tcs_ctx_t *ctx)
{
    mcei_vn_t *vn = enter("tcs_barrier");
    int rc;
    if (vn == NULL)
        return TCS_EINVAL;
    if ((rc = check_ctx(vn, "tcs_barrier", ctx)) != TCS_OK)
        return rc;
    barrier(vn, ctx->bar, 1);
    mcei_leave(vn);
    return TCS_OK;
}

static int check_ng(mcei_vn_t *vn, const char *call, tcs_ctx_t *ctx,
                    tcs_ng_t ng)
{
    const mcei_tcs_result_t *r = R();
    int rc;
    if ((rc = check_ctx(vn, call, ctx)) != TCS_OK)
        return rc;
    if (ng < 0 || ng >= r->d.nngs || r->d.ngs[ng].task != ctx->task)
        return fail(vn, call, TCS_EINVAL,
                    "netgroup %d is not a netgroup of task '%s'", ng,
                    r->d.tasks[ctx->task].name);
    return TCS_OK;
}

MCE_EXPORT int mce_tcs_switch(tcs_ctx_t *ctx, tcs_ng_t ng)
{
    mcei_vn_t *vn = enter("tcs_switch");
    int rc;
    if (vn == NULL)
        return TCS_EINVAL;
    if ((rc = check_ng(vn, "tcs_switch", ctx, ng)) != TCS_OK)
        return rc;
    reconfigure(vn, ctx->bar, ctx->task, ng, 0);
    ctx->ng = ng;
    mcei_leave(vn);
    return TCS_OK;
}

MCE_EXPORT int mce_tcs_switch_fast(tcs_ctx_t *ctx, tcs_ng_t ng)
{
    mcei_vn_t *vn = enter("tcs_switch_fast");
    int rc;
    if (vn == NULL)
        return TCS_EINVAL;
    if ((rc = check_ng(vn, "tcs_switch_fast", ctx, ng)) != TCS_OK)
        return rc;
    charge(vn, R()->d.mc.sw);
    switch_pcts(vn, ctx->task, ng, 0);
    ctx->ng = ng;
    mcei_leave(vn);
    return TCS_OK;
}

/* ---- ports ------------------------------------------------------- */

/* The external port of @p task named @p name on its cell @p rank (own or
 * inherited), resolved to the port the external connection joins. */
static int ext_port(int task, int rank, const char *name)
{
    const tcs_decl_t *d = &R()->d;
    for (int p = 0; p < d->nports; p++) {
        const mcei_tcs_port_t *q = &d->ports[p];
        int root = p;
        if (q->task != task || strcmp(q->name, name) != 0)
            continue;
        while (d->ports[root].inherits >= 0)
            root = d->ports[root].inherits;
        if (rank_in(task,
                    d->tasks[d->ports[root].task].cells[d->ports[root].cell]) ==
            rank)
            return p;
    }
    return -1;
}

MCE_EXPORT int mce_tcs_port_handle(tcs_ctx_t *ctx, const char *name)
{
    mcei_vn_t *vn = enter("tcs_port_handle");
    const tcs_decl_t *d;
    rt_node_t *nd;
    int rc, dir = -1, port;
    if (vn == NULL)
        return TCS_EINVAL;
    if ((rc = check_ctx(vn, "tcs_port_handle", ctx)) != TCS_OK)
        return rc;
    d = &R()->d;
    nd = &nodes[vn->id];
    if (name == NULL || strlen(name) >= MCEI_TCS_NAME)
        return fail(vn, "tcs_port_handle", TCS_EINVAL, "bad port name");
    port = ext_port(ctx->task, ctx->rank, name);
    if (port >= 0) {
        int root = port;
        while (d->ports[root].inherits >= 0)
            root = d->ports[root].inherits;
        dir = d->ports[root].dir;
    }
    for (int i = 0; i < d->nconns && dir < 0; i++) {
        const mcei_tcs_conn_t *k = &d->conns[i];
        if (d->nets[k->net].task != ctx->task)
            continue;
        if (k->src_cell == ctx->rank && strcmp(k->src, name) == 0)
            dir = TCS_OUT;
        else if (k->dst_cell == ctx->rank && strcmp(k->dst, name) == 0)
            dir = TCS_IN;
    }
    if (dir < 0)
        return fail(vn, "tcs_port_handle", TCS_EPORT,
                    "task '%s' has no port '%s' on its cell %d",
                    d->tasks[ctx->task].name, name, ctx->rank);
    for (int h = 0; h < nd->nh; h++)
        if (nd->h[h].task == ctx->task && nd->h[h].rank == ctx->rank &&
            strcmp(nd->h[h].name, name) == 0) {
            mcei_leave(vn);
            return h;
        }
    if (nd->nh == MAX_HANDLES)
        return fail(vn, "tcs_port_handle", TCS_EINVAL,
                    "more than %d port handles on this cell", MAX_HANDLES);
    nd->h[nd->nh] = (handle_t){
        .task = ctx->task, .rank = ctx->rank, .dir = dir, .port = port};
    snprintf(nd->h[nd->nh].name, MCEI_TCS_NAME, "%s", name);
    mcei_leave(vn);
    return nd->nh++;
}

/* The PCT of this cell's end of the active connection of handle @p h, or
 * an error (the run-time errors of design s.10.3). */
static int port_pct(mcei_vn_t *vn, const char *call, tcs_ctx_t *ctx, int h,
                    int dir, int *pct)
{
    const mcei_tcs_result_t *r = R();
    const tcs_decl_t *d = &r->d;
    const handle_t *x;
    const mcei_tcs_use_t *other = NULL;
    int found = -1, nfound = 0, rc;
    if ((rc = check_ctx(vn, call, ctx)) != TCS_OK)
        return rc;
    if (h < 0 || h >= nodes[vn->id].nh ||
        nodes[vn->id].h[h].task != ctx->task ||
        nodes[vn->id].h[h].rank != ctx->rank)
        return fail(vn, call, TCS_EPORT,
                    "%d is not a port handle of task '%s' on this cell", h,
                    d->tasks[ctx->task].name);
    x = &nodes[vn->id].h[h];
    if (x->dir != dir)
        return fail(vn, call, TCS_EINVAL, "port '%s' (task '%s' cell %d) is %s",
                    x->name, d->tasks[ctx->task].name, ctx->rank,
                    dir == TCS_OUT ? "an input" : "an output");
    for (int i = 0; i < r->nuses; i++) {
        const mcei_tcs_use_t *u = &r->uses[i];
        int match = 0;
        if (u->kind == MCEI_TCS_USE_INT && u->task == ctx->task &&
            x->port < 0) {
            const mcei_tcs_conn_t *k = &d->conns[u->item];
            match =
                dir == TCS_OUT
                    ? k->src_cell == ctx->rank && strcmp(k->src, x->name) == 0
                    : k->dst_cell == ctx->rank && strcmp(k->dst, x->name) == 0;
            if (match && u->ng != ctx->ng) {
                other = u;
                match = 0;
            }
        } else if (u->kind == MCEI_TCS_USE_EXT && x->port >= 0) {
            int root = x->port;
            while (d->ports[root].inherits >= 0)
                root = d->ports[root].inherits;
            match = d->exts[u->item].out == root || d->exts[u->item].in == root;
        }
        if (match) {
            found = i;
            nfound++;
        }
    }
    if (nfound == 0 && other != NULL)
        return fail(vn, call, TCS_EINACTIVE,
                    "port '%s' (task '%s' cell %d): connection '%s' is in "
                    "netgroup '%s'; %s%s%s",
                    x->name, d->tasks[ctx->task].name, ctx->rank, other->name,
                    d->ngs[other->ng].name,
                    ctx->ng < 0 ? "no netgroup is active"
                                : "the active "
                                  "netgroup is '",
                    ctx->ng < 0 ? "" : d->ngs[ctx->ng].name,
                    ctx->ng < 0 ? "" : "'");
    if (nfound == 0)
        return fail(vn, call, TCS_EINACTIVE,
                    "port '%s' (task '%s' cell %d) is not connected", x->name,
                    d->tasks[ctx->task].name, ctx->rank);
    if (nfound > 1)
        return fail(vn, call, TCS_EINVAL,
                    "port '%s' (task '%s' cell %d) names %d active "
                    "connections",
                    x->name, d->tasks[ctx->task].name, ctx->rank, nfound);
    *pct = dir == TCS_OUT ? r->uses[found].pct[0]
                          : r->uses[found].pct[r->uses[found].n];
    return TCS_OK;
}

/* Bind @p gate to @p pct lazily (a rebinding is charged gate_bind). */
static int port_gate(mcei_vn_t *vn, const char *call, int gate, int pct)
{
    char why[256];
    if (mcei_iw_gate_pct(vn, gate) == pct)
        return TCS_OK;
    for (int g = 0; g < MCEI_IW_GATES; g++)
        if (mcei_iw_gate_pct(vn, g) == pct)
            mcei_iw_gate_unbind(vn, g, why, sizeof(why));
    if (mcei_iw_gate_pct(vn, gate) >= 0)
        mcei_iw_gate_unbind(vn, gate, why, sizeof(why));
    if (mcei_iw_gate_bind(vn, gate, pct, why, sizeof(why)) != MCE_OK)
        return fail(vn, call, TCS_EINVAL, "%s", why);
    return TCS_OK;
}

static int port_io(const char *call, tcs_ctx_t *ctx, int port, uint32_t *w,
                   size_t n, int dir)
{
    mcei_vn_t *vn = enter(call);
    int pct, rc, gate = dir == TCS_OUT ? MCEI_IW_W0 : MCEI_IW_R0;
    char why[256];
    if (vn == NULL)
        return TCS_EINVAL;
    if ((rc = port_pct(vn, call, ctx, port, dir, &pct)) != TCS_OK ||
        (rc = port_gate(vn, call, gate, pct)) != TCS_OK)
        return rc;
    if (n == 0) {
        mcei_leave(vn);
        return TCS_OK;
    }
    /* The checks of iwarp_gate_write_block and _read_block, which these
     * calls bypass (a NULL buffer was dereferenced: issue 19). */
    if (w == NULL || n > ((size_t)1 << 28))
        return fail(vn, call, TCS_EINVAL,
                    "need a buffer and at most 2^28 words, not %zu%s", n,
                    w == NULL ? " at NULL" : "");
    rc = dir == TCS_OUT
             ? mcei_iw_gate_write(vn, gate, w, n, n > 1, why, sizeof(why))
             : mcei_iw_gate_read(vn, gate, w, n, n > 1, why, sizeof(why));
    if (rc != MCE_OK)
        return fail(vn, call, TCS_EINVAL, "%s", why);
    mcei_leave(vn);
    return TCS_OK;
}

MCE_EXPORT int mce_tcs_write(tcs_ctx_t *ctx, int port, const uint32_t *w,
                             size_t n)
{
    return port_io("tcs_write", ctx, port, (uint32_t *)(uintptr_t)w, n,
                   TCS_OUT);
}

MCE_EXPORT int mce_tcs_read(tcs_ctx_t *ctx, int port, uint32_t *w, size_t n)
{
    return port_io("tcs_read", ctx, port, w, n, TCS_IN);
}

/* This cell's PCT of the active connection of port handle @p port, for
 * the spool calls; < 0: an error (reported). */
static int spool_pct(const char *call, tcs_ctx_t *ctx, int port, int dir)
{
    mcei_vn_t *vn = enter(call);
    int pct, rc;
    if (vn == NULL)
        return TCS_EINVAL;
    if ((rc = port_pct(vn, call, ctx, port, dir, &pct)) != TCS_OK)
        return rc;
    mcei_leave(vn);
    return pct;
}

/* The spool's own errors (IW_E* of iwarp_spool_*) as TCS codes, so that
 * a caller of tcs_spool_* sees one code space: IW_EINVAL and IW_ESPOOL
 * would otherwise read as TCS_EINACTIVE (-3) and no TCS code (-7). */
static int spool_code(int rc)
{
    if (rc >= 0)
        return rc;
    return rc == IW_ESPOOL ? TCS_ESPOOL : TCS_EINVAL;
}

MCE_EXPORT int mce_tcs_spool_out(tcs_ctx_t *ctx, int port, const void *buf,
                                 size_t n)
{
    int pct = spool_pct("tcs_spool_out", ctx, port, TCS_OUT);
    return pct < 0 ? pct : spool_code(mce_iw_spool_out(pct, buf, n));
}

MCE_EXPORT int mce_tcs_spool_in(tcs_ctx_t *ctx, int port, void *buf, size_t n)
{
    int pct = spool_pct("tcs_spool_in", ctx, port, TCS_IN);
    return pct < 0 ? pct : spool_code(mce_iw_spool_in(pct, buf, n));
}

MCE_EXPORT int mce_tcs_spool_wait(tcs_ctx_t *ctx, int h)
{
    (void)ctx;
    return spool_code(mce_iw_spool_wait(h));
}

MCE_EXPORT int mce_tcs_netgroup_paths(tcs_ng_t ng, int *count,
                                      unsigned long long *sum_h,
                                      unsigned long long *max_h)
{
    const mcei_tcs_result_t *r = R();
    unsigned long long sum = 0, max = 0;
    int c = 0;
    if (r == NULL || ng < 0 || ng >= r->d.nngs || count == NULL ||
        sum_h == NULL || max_h == NULL)
        return TCS_EINVAL;
    for (int i = 0; i < r->nuses; i++) {
        const mcei_tcs_use_t *u = &r->uses[i];
        if (u->kind != MCEI_TCS_USE_INT || u->ng != ng)
            continue;
        c++;
        sum += u->latency;
        if (u->latency > max)
            max = u->latency;
    }
    *count = c;
    *sum_h = sum;
    *max_h = max;
    return TCS_OK;
}

/* The linked route of netgroup @p ng's connection @p src -> @p dst, or
 * NULL (a bad netgroup, no such connection, before the link). */
static const mcei_tcs_use_t *conn_use(tcs_ng_t ng, int src, int dst)
{
    const mcei_tcs_result_t *r = R();
    if (r == NULL || ng < 0 || ng >= r->d.nngs)
        return NULL;
    for (int i = 0; i < r->nuses; i++) {
        const mcei_tcs_use_t *u = &r->uses[i];
        if (u->kind == MCEI_TCS_USE_INT && u->ng == ng && u->src == src &&
            u->dst == dst)
            return u;
    }
    return NULL;
}

MCE_EXPORT int mce_tcs_connection_path(tcs_ng_t ng, int src_cell, int dst_cell,
                                       unsigned long long *h)
{
    const mcei_tcs_use_t *u = conn_use(ng, src_cell, dst_cell);
    if (u == NULL || h == NULL)
        return TCS_EINVAL;
    *h = u->latency;
    return TCS_OK;
}

MCE_EXPORT int mce_tcs_connection_links(tcs_ng_t ng, int src_cell, int dst_cell,
                                        int *links)
{
    const mcei_tcs_use_t *u = conn_use(ng, src_cell, dst_cell);
    if (u == NULL || links == NULL)
        return TCS_EINVAL;
    *links = u->n;
    return TCS_OK;
}

/* ---- the entry --------------------------------------------------- */

/* The personality's entry (lib/api/registry.c): load the cell's barrier
 * rings, run the program's main, then inject the block its last gate
 * writes left pending (as for iWarp programs). */
int mcei_tcs_entry(int argc, char **argv);
int mcei_tcs_entry(int argc, char **argv)
{
    int rc;
    mcei_vn_t *vn = mcei_enter();
    if (vn != NULL) {
        if (R() != NULL && mcei_iw_active(NULL))
            load(vn);
        mcei_leave(vn);
    }
    rc = mcei_api_call_main(argc, argv);
    vn = mcei_enter();
    if (vn != NULL) {
        mcei_iw_flush(vn);
        mcei_leave(vn);
    }
    return rc;
}
