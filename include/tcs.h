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
 * This is step 7 of the design (section 10.6): declarations and the
 * linker.  The run-time primitives (tcs_run, tcs_start, tcs_switch,
 * barriers, ports) come with step 8; until then main runs once per cell
 * as an iWarp program (include/iwarp.h) and may use the iWarp calls.
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
/** A declaration call's arguments are wrong (the link will refuse). */
#define TCS_EDECL (-1)

/** Port directions. */
enum { TCS_IN = 0, TCS_OUT = 1 };
/** Task flags. */
enum {
    TCS_LIGHT = 1, /**< chapter-7 light task start and end */
    TCS_RING1D = 2 /**< 1D barrier ring even on the whole array */
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
MCE_EXPORT tcs_task_t tcs_task(tcs_decl_t *d, const char *name,
                               tcs_task_t parent, int x, int y, int w, int h,
                               tcs_fn fn, size_t param_size, int flags);
/** Declare a task on the @p n absolute cells @p cells (y x width + x),
 * numbered in that order. */
MCE_EXPORT tcs_task_t tcs_task_cells(tcs_decl_t *d, const char *name,
                                     tcs_task_t parent, const int *cells, int n,
                                     tcs_fn fn, size_t param_size, int flags);
/** An external port of @p task on its cell number @p cell (TCS_IN or
 * TCS_OUT), to be joined by its parent's tcs_external. */
MCE_EXPORT tcs_port_t tcs_port(tcs_decl_t *d, tcs_task_t task, const char *name,
                               int cell, int dir);
/** The parent's external port @p parent_port, passed down to @p child
 * under the name @p name (the child must contain its cell). */
MCE_EXPORT tcs_port_t tcs_inherit(tcs_decl_t *d, tcs_task_t child,
                                  const char *name, tcs_port_t parent_port);
/** A network (a set of internal connections) of @p task. */
MCE_EXPORT tcs_net_t tcs_network(tcs_decl_t *d, tcs_task_t task,
                                 const char *name);
/** An internal connection of the network's task from port @p src_port of
 * its cell number @p src_cell to port @p dst_port of cell @p dst_cell,
 * reserving @p bw_num / @p bw_den of a link (0, 0: no reservation).
 * Returns its index in the network (its name is NETWORK.cINDEX). */
MCE_EXPORT int tcs_connect(tcs_decl_t *d, tcs_net_t net, int src_cell,
                           const char *src_port, int dst_cell,
                           const char *dst_port, unsigned bw_num,
                           unsigned bw_den);
/** A netgroup of @p task: the @p n networks @p nets, active together. */
MCE_EXPORT tcs_ng_t tcs_netgroup(tcs_decl_t *d, tcs_task_t task,
                                 const char *name, const tcs_net_t *nets,
                                 int n);
/** An external connection made by @p parent (TCS_NONE: the application)
 * from the output port @p out of one of its children to the input port
 * @p in of another, reserving @p bw_num / @p bw_den of a link. */
MCE_EXPORT int tcs_external(tcs_decl_t *d, tcs_task_t parent, tcs_port_t out,
                            tcs_port_t in, unsigned bw_num, unsigned bw_den);
/** The program uses deposit message passing: reserve its PCTs
 * (dep.pcts) on every cell. */
MCE_EXPORT void tcs_uses_deposit(tcs_decl_t *d);
/** PCTs of @p cell (absolute) left for connections after the RTS,
 * deposit (if declared so far) and barrier reservations, for programs
 * sizing their phases; < 0 for a bad cell. */
MCE_EXPORT int tcs_free_pcts(tcs_decl_t *d, int cell);

/* The program's main runs once per cell as the TCS entry point. */
#ifdef main
#undef main
#endif
#define main mce_tcs_main

#ifdef __cplusplus
}
#endif

#endif /* MCEMU_TCS_H */
