/* TCS declarations and the linker (doc/design/iwarp-tcs.md, sections 8.2
 * and 8.3): the declaration tables tcs_declare fills (tcs_decl.c), the
 * link (tcs_link.c) and the personality's boot hook. */
#ifndef MCEI_TCS_LINK_H
#define MCEI_TCS_LINK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../core/engine.h"
#include "tcs.h"
#undef main /* tcs.h renames the program's main, not ours */

#define MCEI_TCS_NAME 32

typedef struct mcei_tcs_task {
    char name[MCEI_TCS_NAME];
    int parent;           /* -1: top level */
    int *cells, ncells;   /* absolute, in the task's own cell order */
    int rect, x, y, w, h; /* rect: the absolute rectangle (wraps) */
    tcs_fn fn;
    size_t param_size;
    int flags;
} mcei_tcs_task_t;

typedef struct mcei_tcs_port {
    char name[MCEI_TCS_NAME];
    int task, cell; /* cell: number in the task */
    int dir;        /* TCS_IN, TCS_OUT */
    int inherits;   /* parent's port, or -1 (an own external port) */
} mcei_tcs_port_t;

typedef struct mcei_tcs_conn { /* an internal connection */
    int net, index;            /* index in the network */
    int src_cell, dst_cell;    /* numbers in the task */
    char src[MCEI_TCS_NAME], dst[MCEI_TCS_NAME];
    unsigned bw_num, bw_den;
} mcei_tcs_conn_t;

typedef struct mcei_tcs_net {
    char name[MCEI_TCS_NAME];
    int task;
} mcei_tcs_net_t;

typedef struct mcei_tcs_ng {
    char name[MCEI_TCS_NAME];
    int task;
    int *nets, n;
} mcei_tcs_ng_t;

typedef struct mcei_tcs_ext {
    int parent, out, in; /* parent -1: the application */
    unsigned bw_num, bw_den;
} mcei_tcs_ext_t;

/* The machine figures the declaration and the linker need (iwarp.conf). */
typedef struct mcei_tcs_machine {
    int width, height, board_w, board_h, pcts;
    int rts_pcts, dep_pcts, barrier_slots, dq_fair_max;
    uint64_t hop_board, hop_cross, hop_wrap, hop_turn; /* clocks */
    uint64_t word_bytes, word_time;
    uint64_t startup, loop, lookup, sw, task_change, task_restore;
    uint64_t light_change, light_restore, solo_start, solo_end;
} mcei_tcs_machine_t;

/* Room for item @p n of an array grown one item at a time: the capacity
 * doubles at each power of two, so n items cost O(n) copying even where
 * realloc always copies (sanitizers).  0, or -1 out of memory. */
static inline int mcei_tcs_grow(void **p, size_t n, size_t size)
{
    void *q;
    if (n != 0 && (n & (n - 1)) != 0)
        return 0;
    if ((q = realloc(*p, (n ? 2 * n : 1) * size)) == NULL)
        return -1;
    *p = q;
    return 0;
}

struct tcs_decl {
    mcei_tcs_machine_t mc;
    mcei_tcs_task_t *tasks;
    mcei_tcs_port_t *ports;
    mcei_tcs_conn_t *conns;
    mcei_tcs_net_t *nets;
    mcei_tcs_ng_t *ngs;
    mcei_tcs_ext_t *exts;
    int ntasks, nports, nconns, nnets, nngs, nexts;
    int *task_ix;  /* task names hashed: task + 1, 0 empty (open addressing) */
    int task_icap; /* a power of two above twice ntasks */
    int uses_deposit;
    /* the program's arguments (its --mce-* options removed; tcs_args):
     * set by the boot hook, 0 and NULL elsewhere (tcs-link's unit tests,
     * the fuzz harness) */
    int argc;
    char **argv;
    int failed; /* a declaration call failed: err holds the first */
    char err[512];
};

/* ---- the link result the run time keeps (tcs_run.c) ------------------- */

enum { MCEI_TCS_USE_INT, MCEI_TCS_USE_EXT, MCEI_TCS_USE_BAR };

/* One routed use of PCTs: an internal connection in one netgroup, an
 * external connection, or a hop of a 1D barrier ring. */
typedef struct mcei_tcs_use {
    int kind;
    int item;     /* conn, ext or barrier index */
    int task;     /* instance; ext: declaring parent; bar: barrier's task */
    int ng;       /* internal: netgroup, else -1 */
    int group;    /* data groups (phases); -1 for barrier hops */
    int src, dst; /* absolute cells */
    unsigned bw_num, bw_den;
    int n;              /* links */
    int *cells, *ports; /* n + 1 cells, n ports (out side of cells[i]) */
    int *pct, *owner, *hoisted; /* per route cell */
    uint64_t latency;
    int throttle; /* 1/throttle of a link at most (the largest kappa above
                     iwarp.dq_fair_max of its phases), 0: none */
    char name[6 * MCEI_TCS_NAME];
} mcei_tcs_use_t;

typedef struct mcei_tcs_bar {
    char name[2 * MCEI_TCS_NAME + 24];
    int task;         /* the instance, or the siblings' parent */
    int *set, nset;   /* tasks whose lifetime the barrier serves */
    int *members, nm; /* ring order */
    int ring2d;
    int *slot; /* per member */
    int *hop;  /* 1D: per member, its use to the next member (or -1) */
} mcei_tcs_bar_t;

typedef struct mcei_tcs_result {
    tcs_decl_t d; /* the declaration (owned) */
    mcei_tcs_use_t *uses;
    int nuses;
    mcei_tcs_bar_t *bars;
    int nbars;
    int rts, bar, dep; /* PCT numbering: RTS, barriers, deposit, then
                          connections */
    /* Each cell's places on the routes: uses[at_use[j]].cells[at_k[j]] is
     * cell c for j in [at_start[c], at_start[c + 1]), in (use, place)
     * order, for c < ncells.  A cell's switch visits only these. */
    int *at_start, *at_use, *at_k;
    int ncells;
} mcei_tcs_result_t;

/* Read the tcs.* keys and the iwarp.* figures the linker uses. */
int mcei_tcs_machine(mcei_machine_t *m, mcei_tcs_machine_t *mc, char *err,
                     size_t errlen);
void mcei_tcs_decl_init(tcs_decl_t *d, const mcei_tcs_machine_t *mc);
void mcei_tcs_decl_free(tcs_decl_t *d);
/* PCTs reserved on every cell before connections: RTS, deposit,
 * barriers (1 + slots, + 1 where a whole-array 2D barrier may run). */
int mcei_tcs_reserved(const tcs_decl_t *d, int cell, int *rts, int *dep,
                      int *bar);

/* Link @p d: MCE_OK, or MCE_ERR_RESOURCE / MCE_ERR_CONFIG with the
 * refusal in err.  With @p report non-NULL, print the report there; with
 * @p warn non-NULL, the warnings (throttled phases). */
int mcei_tcs_link(const tcs_decl_t *d, FILE *report, FILE *warn, char *err,
                  size_t errlen);

/* Link @p d and keep the result: on MCE_OK *res owns @p d's tables (the
 * caller's @p d is emptied); free it with mcei_tcs_result_free. */
int mcei_tcs_link_keep(tcs_decl_t *d, FILE *warn, char *err, size_t errlen,
                       mcei_tcs_result_t **res);
void mcei_tcs_result_free(mcei_tcs_result_t *r);
/* The result kept at boot (NULL before, or with --mce-tcs=link). */
extern mcei_tcs_result_t *mcei_tcs_kept;

/* The run time (tcs_run.c): per-node state for @p nodes nodes. */
int mcei_tcs_rt_init(int nodes);

/* The personality's boot hook (lib/api/registry.c). */
int mcei_tcs_boot(mcei_engine_t *eng, char *err, size_t errlen);
/* ... and its hook after privatisation: tcs_declare again in each copy of
 * a node program built with mcecc -mce-privatize=dlopen. */
int mcei_tcs_privatized(mcei_engine_t *eng, char *err, size_t errlen);

/* The keys the TCS personality reads (tcs.*). */
extern const mcei_keytab_t mcei_tcs_keytab;
/* The personality's option: --mce-tcs=run|link (link: print the linker's
 * report and exit). */
extern const mcei_optlist_t mcei_tcs_options;

#endif
