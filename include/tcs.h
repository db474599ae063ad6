/**
 * @file tcs.h
 * @brief TCS (Tasks and Connection Sets) on the emulated iWarp: the
 * declaration API and the linker (Warfel 1996, chapter 2;
 * doc/design/iwarp-tcs.md, section 8).
 *
 * A TCS program includes this header in the file that defines main and
 * defines one more function, tcs_declare(), which declares the whole
 * application: tasks on cell allocations (a child inside its parent),
 * the internal connections of each task grouped into networks and
 * netgroups, the external ports of tasks, the external connections a
 * parent (or the application) makes between its children's ports, and
 * the ports children inherit from their parent.  Connections name their
 * endpoints and an optional bandwidth only: routes and PCTs are the
 * linker's business.
 *
 * At start-up, before any cell runs, the library calls tcs_declare once
 * and links the declaration: it routes every connection of every
 * netgroup over the torus, assigns PCTs on every cell, computes link
 * loads, DQ congestion and throttles per phase, and allocates barrier
 * resources.  A declaration that cannot fit is refused with a message
 * naming the task, cell, netgroup or link and the numbers involved; the
 * run then exits with status 2 before any cell runs.  With
 * --mce-tcs=link (or the tcs-link tool) the program prints the linker's
 * report and exits 0 without running.
 *
 * The program's main runs once per cell (an iWarp program: it may use the
 * iWarp calls) and starts the top-level task of its cell with tcs_run.
 * A task's code runs on every cell of its allocation with a context
 * (tcs_ctx_t); it starts children with tcs_start (on the child's cells:
 * the parent's code waits there until the child ends), switches its
 * netgroup with tcs_switch (the reconfiguration of W chapter 5: three
 * barriers and the switch), synchronises with tcs_barrier and moves data
 * through its ports (tcs_port_handle, tcs_write, tcs_read, the spools).
 * The costs are the tcs.* keys of the machine file (W chapters 4-5).
 *
 * Example (two stages on neighbouring cells of a 1 x 2 allocation):
 * @code
 * #include <tcs.h>
 * static void stage(tcs_ctx_t *ctx, const void *params) { ... }
 * void tcs_declare(tcs_decl_t *d)
 * {
 *     tcs_task_t t = tcs_task(d, "pipe", TCS_NONE, 0, 0, 2, 1, stage, 0, 0);
 *     tcs_net_t n = tcs_network(d, t, "fwd");
 *     tcs_connect(d, n, 0, "out", 1, "in", 0, 0);
 *     tcs_netgroup(d, t, "run", &n, 1);
 * }
 * int main(int argc, char **argv) { ... }
 * @endcode
 * Errors in the arguments of a declaration call (an unknown task, a
 * rectangle larger than the array, a repeated name) make the call return
 * TCS_EDECL and the link refuse the program with that message.
 */
#ifndef MCEMU_TCS_H
#define MCEMU_TCS_H

#define MCE_TCS_PROGRAM 1

#include <stddef.h>

#include "iwarp.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The declaration being built (opaque; valid inside tcs_declare). */
typedef struct tcs_decl tcs_decl_t;
/** A task's run-time context (opaque; used by the step-8 run time). */
typedef struct tcs_ctx tcs_ctx_t;
/** Handles returned by the declaration calls (>= 0), or TCS_EDECL. */
typedef int tcs_task_t, tcs_port_t, tcs_net_t, tcs_ng_t;
/** A task's code: runs on every cell of its allocation. */
typedef void (*tcs_fn)(tcs_ctx_t *ctx, const void *params);

/** No parent: a top-level task, or an application-level connection. */
#define TCS_NONE (-1)
/** Success of a run-time call. */
#define TCS_OK 0
/** A declaration call's arguments are wrong (the link will refuse). */
#define TCS_EDECL (-1)
/** A run-time call's argument is wrong (bad context, netgroup, ...). */
#define TCS_EINVAL (-2)
/** The port's connection is not in the task's active netgroup. */
#define TCS_EINACTIVE (-3)
/** tcs_start: the task is not a child of the running task. */
#define TCS_ENOTCHILD (-4)
/** tcs_start: the child's allocation does not hold this cell. */
#define TCS_EOUTSIDE (-5)
/** No such port of the task on this cell. */
#define TCS_EPORT (-6)
/** tcs_spool_*: no free spool, or no such active spool handle. */
#define TCS_ESPOOL (-7)

/** Port directions. */
enum { TCS_IN = 0, TCS_OUT = 1 };
/** Task flags. */
enum {
    TCS_LIGHT = 1,  /**< chapter-7 light task start and end */
    TCS_RING1D = 2, /**< 1D barrier ring even on the whole array */
    /** apply the linker's throttles (1/kappa max of a phase whose DQ
     * congestion exceeds iwarp.dq_fair_max) to the task's connections;
     * without it they are reported only (a program that serialises its
     * transfers needs none) */
    TCS_THROTTLE = 4
};

/** The program's declaration function, called once at start-up. */
void tcs_declare(tcs_decl_t *d);

/** Declare a task on the rectangle of @p w x @p h cells whose lower-left
 * cell is (@p x, @p y) relative to the parent's rectangle (absolute for a
 * top-level task or a parent declared by cells; coordinates wrap around
 * the torus).  @p fn is the task's code (one function may be the code of
 * several instances, never of a task and its descendant); @p param_size
 * the size of its invocation parameters; @p flags TCS_LIGHT, TCS_RING1D.
 * Cells of the task are numbered row by row from the lower-left. */
MCE_EXPORT tcs_task_t mce_tcs_task(tcs_decl_t *d, const char *name,
                                   tcs_task_t parent, int x, int y, int w,
                                   int h, tcs_fn fn, size_t param_size,
                                   int flags);
/** Declare a task on the @p n absolute cells @p cells (y x width + x),
 * numbered in that order. */
MCE_EXPORT tcs_task_t mce_tcs_task_cells(tcs_decl_t *d, const char *name,
                                         tcs_task_t parent, const int *cells,
                                         int n, tcs_fn fn, size_t param_size,
                                         int flags);
/** An external port of @p task on its cell number @p cell (TCS_IN or
 * TCS_OUT), to be joined by its parent's tcs_external. */
MCE_EXPORT tcs_port_t mce_tcs_port(tcs_decl_t *d, tcs_task_t task,
                                   const char *name, int cell, int dir);
/** The parent's external port @p parent_port, passed down to @p child
 * under the name @p name (the child must contain its cell). */
MCE_EXPORT tcs_port_t mce_tcs_inherit(tcs_decl_t *d, tcs_task_t child,
                                      const char *name, tcs_port_t parent_port);
/** A network (a set of internal connections) of @p task. */
MCE_EXPORT tcs_net_t mce_tcs_network(tcs_decl_t *d, tcs_task_t task,
                                     const char *name);
/** An internal connection of the network's task from port @p src_port of
 * its cell number @p src_cell to port @p dst_port of cell @p dst_cell,
 * reserving @p bw_num / @p bw_den of a link (0, 0: no reservation).
 * Returns its index in the network (its name is NETWORK.cINDEX). */
MCE_EXPORT int mce_tcs_connect(tcs_decl_t *d, tcs_net_t net, int src_cell,
                               const char *src_port, int dst_cell,
                               const char *dst_port, unsigned bw_num,
                               unsigned bw_den);
/** A netgroup of @p task: the @p n networks @p nets, active together. */
MCE_EXPORT tcs_ng_t mce_tcs_netgroup(tcs_decl_t *d, tcs_task_t task,
                                     const char *name, const tcs_net_t *nets,
                                     int n);
/** An external connection made by @p parent (TCS_NONE: the application)
 * from the output port @p out of one of its children to the input port
 * @p in of another, reserving @p bw_num / @p bw_den of a link. */
MCE_EXPORT int mce_tcs_external(tcs_decl_t *d, tcs_task_t parent,
                                tcs_port_t out, tcs_port_t in, unsigned bw_num,
                                unsigned bw_den);
/** The program uses deposit message passing: reserve its PCTs
 * (dep.pcts) on every cell. */
MCE_EXPORT void mce_tcs_uses_deposit(tcs_decl_t *d);
/** PCTs of @p cell (absolute) left for connections after the RTS,
 * deposit (if declared so far) and barrier reservations, for programs
 * sizing their phases; < 0 for a bad cell. */
MCE_EXPORT int mce_tcs_free_pcts(tcs_decl_t *d, int cell);

/** The program's arguments, its --mce-* options removed (the argv its
 * main gets): for a declaration that depends on the program's options
 * (every copy of the program sees the same).  Returns argc and sets
 * *@p argv, or -1 (NULL arguments).  argc 0 (argv NULL) where there is
 * no command line (a declaration linked by a test harness). */
MCE_EXPORT int mce_tcs_args(tcs_decl_t *d, char *const **argv);

/* ---- run time (on every cell; errors print "cell (x,y): CALL: reason") */

/** Run the top-level task @p top on this cell if its allocation holds the
 * cell (its code gets a context and @p params); returns TCS_OK when it
 * ends, at once on other cells. */
MCE_EXPORT int mce_tcs_run(tcs_task_t top, const void *params);
/** Start the child task @p child of the running task on this cell (task
 * start: tcs.task_change, then a reconfiguration over the child's
 * connected component that sets up its external connections), run its
 * code, and end it (the component's barrier, tcs.task_restore).
 * TCS_ENOTCHILD, TCS_EOUTSIDE. */
MCE_EXPORT int mce_tcs_start(tcs_ctx_t *ctx, tcs_task_t child,
                             const void *params);
/** This cell's number in the task (0 .. size - 1). */
MCE_EXPORT int mce_tcs_rank(tcs_ctx_t *ctx);
/** The number of cells of the task. */
MCE_EXPORT int mce_tcs_size(tcs_ctx_t *ctx);
/** A barrier over the task's cells (its ring: tcs.barrier_lookup, then
 * the (N-1) send/receive ring of W 4.3.2.2.1.2, 2D on the whole array). */
MCE_EXPORT int mce_tcs_barrier(tcs_ctx_t *ctx);
/** Make @p ng the task's active netgroup: barrier, barrier, switch
 * (tcs.switch; the PCTs of this cell), barrier (W 5.2). */
MCE_EXPORT int mce_tcs_switch(tcs_ctx_t *ctx, tcs_ng_t ng);
/** The switch alone (W 6.4.2): the caller has just passed a barrier. */
MCE_EXPORT int mce_tcs_switch_fast(tcs_ctx_t *ctx, tcs_ng_t ng);
/** A handle (>= 0) for this cell's port @p name of the task: an endpoint
 * of an internal connection or an external port (own or inherited). */
MCE_EXPORT int mce_tcs_port_handle(tcs_ctx_t *ctx, const char *name);
/** Write @p n words to an output port (gate W0, bound lazily: a rebinding
 * costs iwarp.gate_bind).  TCS_EINACTIVE when its connection is not in
 * the active netgroup. */
MCE_EXPORT int mce_tcs_write(tcs_ctx_t *ctx, int port, const uint32_t *w,
                             size_t n);
/** Read @p n words from an input port (gate R0). */
MCE_EXPORT int mce_tcs_read(tcs_ctx_t *ctx, int port, uint32_t *w, size_t n);
/** Spool @p n words out of / into a port (iwarp_spool_out/in on its PCT);
 * >= 0: a handle for tcs_spool_wait.  Errors are TCS codes: TCS_EPORT,
 * TCS_EINACTIVE for the port, TCS_EINVAL for a bad argument (a NULL
 * buffer), TCS_ESPOOL for no free spool or no such handle. */
MCE_EXPORT int mce_tcs_spool_out(tcs_ctx_t *ctx, int port, const void *buf,
                                 size_t n);
MCE_EXPORT int mce_tcs_spool_in(tcs_ctx_t *ctx, int port, void *buf, size_t n);
MCE_EXPORT int mce_tcs_spool_wait(tcs_ctx_t *ctx, int h);
/** The linked routes of netgroup @p ng's connections: their count,
 * the sum and the largest of their hop latencies H in clocks (the
 * linker's report: "latency"), for programs predicting their times.
 * TCS_OK, or TCS_EINVAL for a bad netgroup or before the link. */
MCE_EXPORT int mce_tcs_netgroup_paths(tcs_ng_t ng, int *count,
                                      unsigned long long *sum_h,
                                      unsigned long long *max_h);
/** The hop latency H in clocks of the linked route of netgroup @p ng's
 * connection from cell @p src_cell to cell @p dst_cell (absolute cells,
 * iwarp_cell() numbering), e.g. to compare a block's arrival with its
 * uncontended time.  TCS_OK (*h set), or TCS_EINVAL for a bad netgroup,
 * no such connection in it, NULL @p h or before the link. */
MCE_EXPORT int mce_tcs_connection_path(tcs_ng_t ng, int src_cell, int dst_cell,
                                       unsigned long long *h);
/** The number of links of the same linked route (the connection
 * tcs_connection_path() names): its path holds iwarp.pct_words words a
 * PCT, so @p *links x pct_words words may wait in it beyond what the
 * reader has taken (doc/design/iwarp-tcs.md 3.2, 3.7), e.g. to tell a
 * block's wait for its reader from link congestion.  TCS_OK (*links set),
 * or TCS_EINVAL as tcs_connection_path(). */
MCE_EXPORT int mce_tcs_connection_links(tcs_ng_t ng, int src_cell, int dst_cell,
                                        int *links);

/* ---- legacy names --------------------------------------------------- */

/* The TCS calls under their legacy names (tcs_task, tcs_run, ...):
 * object-like macros over the exported mce_tcs_ functions, as in
 * iwarp.h.  tcs_declare is no library function but the program's own,
 * which the library calls: it keeps its name. */

#define tcs_args             mce_tcs_args
#define tcs_barrier          mce_tcs_barrier
#define tcs_connect          mce_tcs_connect
#define tcs_connection_links mce_tcs_connection_links
#define tcs_connection_path  mce_tcs_connection_path
#define tcs_external         mce_tcs_external
#define tcs_free_pcts        mce_tcs_free_pcts
#define tcs_inherit          mce_tcs_inherit
#define tcs_netgroup         mce_tcs_netgroup
#define tcs_netgroup_paths   mce_tcs_netgroup_paths
#define tcs_network          mce_tcs_network
#define tcs_port             mce_tcs_port
#define tcs_port_handle      mce_tcs_port_handle
#define tcs_rank             mce_tcs_rank
#define tcs_read             mce_tcs_read
#define tcs_run              mce_tcs_run
#define tcs_size             mce_tcs_size
#define tcs_spool_in         mce_tcs_spool_in
#define tcs_spool_out        mce_tcs_spool_out
#define tcs_spool_wait       mce_tcs_spool_wait
#define tcs_start            mce_tcs_start
#define tcs_switch           mce_tcs_switch
#define tcs_switch_fast      mce_tcs_switch_fast
#define tcs_task             mce_tcs_task
#define tcs_task_cells       mce_tcs_task_cells
#define tcs_uses_deposit     mce_tcs_uses_deposit
#define tcs_write            mce_tcs_write

/* The program's main runs once per cell as the TCS entry point. */
#ifdef main
#undef main
#endif
#define main mce_tcs_main

#ifdef __cplusplus
}
#endif

#endif /* MCEMU_TCS_H */
