/* exit() interposed for the whole process, so that a node calling it ends
 * only itself, as on the real machines; outside a node it is libc's. */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"

MCE_EXPORT void exit(int status)
{
    typedef void (*exit_fn)(int) __attribute__((noreturn));
    static exit_fn real_exit;
    if (mcei_eng != NULL && mcei_eng->current != NULL)
        mcei_vn_exit(mcei_eng->current, status);
    if (real_exit == NULL)
        real_exit = (exit_fn)dlsym(RTLD_NEXT, "exit");
    if (real_exit == NULL) {
        fflush(NULL);
        _Exit(status);
    }
    real_exit(status);
}
