/* The TCS linker's step 7 (tcs_link.c): the report of --mce-tcs=link. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcs_linker.h"

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

void mcei_tcsl_report(link_t *L, FILE *out)
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
        fprintf(out, ", 2D column in %d", L->rts + L->bar - 1);
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
        mcei_tcsl_phase_check(L, p, out);
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
