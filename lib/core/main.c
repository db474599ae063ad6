/* The process's main(): boot the engine and run the program's main once
 * per virtual node.  Also interposes exit() so that a node calling it
 * ends only itself, as on the real machines. */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"

extern char **environ;

MCE_EXPORT int main(int argc, char **argv)
{
    if (mcei_engine_boot(&argc, &argv, environ) != MCE_OK)
        return 2;
    return mcei_engine_run();
}

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
