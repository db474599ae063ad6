/**
 * @file cube.h
 * @brief iPSC/860 <cube.h> on mcemu: the NX node calls of nx.h, plus the
 * host idioms of the iPSC's cube programs, with what they can honestly
 * mean in an emulator that has no host processor.
 *
 * On the iPSC/860 a host program (on the System Resource Manager)
 * allocated a cube (getcube), loaded node programs into it (load), fed
 * them messages, waited for them (waitall) and released the cube
 * (killcube, relcube); node programs could switch their board's LED
 * (led).  mcemu runs the node program itself on every node from the
 * start (--mce-nodes=N), so:
 *   led(on)              a documented no-op (no visible board; no time)
 *   getcube, attachcube, relcube, load, setpid, waitall, waitone,
 *   killcube             host calls: the run stops (status 1) with a
 *                        message that says what to do instead (run the
 *                        node program with --mce-nodes, and move the
 *                        host's part into node 0 or a node of its own).
 * See the user guide, section "iPSC/860 host programs and <cube.h>".
 */
#ifndef MCEMU_CUBE_H
#define MCEMU_CUBE_H

#include "nx.h"

#ifdef __cplusplus
extern "C" {
#endif

MCE_EXPORT void mce_cube_led(long on);
MCE_EXPORT long mce_cube_getcube(const char *name, const char *type,
                                 const char *srm, long keep);
MCE_EXPORT long mce_cube_attachcube(const char *name);
MCE_EXPORT long mce_cube_relcube(const char *name);
MCE_EXPORT long mce_cube_load(const char *file, long node, long pid);
MCE_EXPORT long mce_cube_setpid(long pid);
MCE_EXPORT long mce_cube_waitall(long node, long pid);
MCE_EXPORT long mce_cube_waitone(long node, long pid, long *cnode,
                                 long *cpid, long *ccode);
MCE_EXPORT long mce_cube_killcube(long node, long pid);
/* waitone with int out-parameters (MCE_NX_LONG32, nx.h) */
MCE_EXPORT long mce_cube_waitone32(long node, long pid, int *cnode, int *cpid,
                                   int *ccode);

#define led mce_cube_led
#define getcube mce_cube_getcube
#define attachcube mce_cube_attachcube
#define relcube mce_cube_relcube
#define load mce_cube_load
#define setpid mce_cube_setpid
#define waitall mce_cube_waitall
#define waitone MCE_NX_L32(mce_cube_waitone)
#define killcube mce_cube_killcube

#ifdef __cplusplus
}
#endif

#endif /* MCEMU_CUBE_H */
