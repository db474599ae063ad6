/* iPSC/860 <cube.h>: host calls, which have no meaning without a host
 * processor, stop the run with what to do instead; led is a no-op. */
#include <stdio.h>
#include <stdlib.h>

#include "../../core/engine.h"
#include "cube.h"

static void host_call(const char *call, const char *instead)
    __attribute__((noreturn));
static void host_call(const char *call, const char *instead)
{
    mcei_vn_t *vn = mcei_enter();
    char msg[512];
    snprintf(msg, sizeof(msg),
             "%s is an iPSC/860 host call, and mcemu has no host: every node "
             "runs the node program from the start (--mce-nodes=N).  %s "
             "(see the user guide, 'iPSC/860 host programs and <cube.h>')",
             call, instead);
    if (vn != NULL)
        mcei_vn_fatal(vn, "%s", msg);
    fprintf(stderr, "mcemu: %s\n", msg);
    exit(2);
}

MCE_EXPORT void mce_cube_led(long on)
{
    /* The board's LED: nothing a program or its results can observe. */
    (void)on;
}

MCE_EXPORT long mce_cube_getcube(const char *name, const char *type,
                                 const char *srm, long keep)
{
    (void)name;
    (void)type;
    (void)srm;
    (void)keep;
    host_call("getcube", "The cube is --mce-nodes's; drop the call");
}

MCE_EXPORT long mce_cube_attachcube(const char *name)
{
    (void)name;
    host_call("attachcube", "The cube is --mce-nodes's; drop the call");
}

MCE_EXPORT long mce_cube_relcube(const char *name)
{
    (void)name;
    host_call("relcube", "The cube ends with the program; drop the call");
}

MCE_EXPORT long mce_cube_load(const char *file, long node, long pid)
{
    (void)file;
    (void)node;
    (void)pid;
    host_call("load", "Build the node program with mcecc and run it; put "
                      "the host program's work in node 0");
}

MCE_EXPORT long mce_cube_setpid(long pid)
{
    (void)pid;
    host_call("setpid", "Node programs have process id 0; drop the call");
}

MCE_EXPORT long mce_cube_waitall(long node, long pid)
{
    (void)node;
    (void)pid;
    host_call("waitall", "The run ends when every node has ended");
}

MCE_EXPORT long mce_cube_waitone(long node, long pid, long *cnode, long *cpid,
                                 long *ccode)
{
    (void)node;
    (void)pid;
    (void)cnode;
    (void)cpid;
    (void)ccode;
    host_call("waitone", "The run ends when every node has ended; a node's "
                         "exit status is reported by mcemu");
}

MCE_EXPORT long mce_cube_waitone32(long node, long pid, int *cnode, int *cpid,
                                   int *ccode)
{
    (void)cnode;
    (void)cpid;
    (void)ccode;
    return mce_cube_waitone(node, pid, NULL, NULL, NULL);
}

MCE_EXPORT long mce_cube_killcube(long node, long pid)
{
    (void)node;
    (void)pid;
    host_call("killcube", "To end every node at once, call exit() in any "
                          "node (mcemu reports its status)");
}
