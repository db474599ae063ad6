/* The process's main(): register the plug-ins of every layer into the
 * core, boot the engine and run the program's main once per virtual node.
 * This file is the top of the layers: the only one that knows them all.
 * (exit() is interposed in lib/core/exit.c.) */
#include <stdio.h>
#include <stdlib.h>

#include "api/registry.h"
#include "core/engine.h"
#include "machines/registry.h"
#include "net/registry.h"

extern char **environ;

MCE_EXPORT int main(int argc, char **argv)
{
    if (mcei_net_register_all() != MCE_OK ||
        mcei_proto_register_all() != MCE_OK ||
        mcei_api_register_all() != MCE_OK) {
        mcei_log("cannot register the plug-ins");
        return 2;
    }
    if (mcei_engine_boot(&argc, &argv, environ) != MCE_OK)
        return 2;
    return mcei_engine_run();
}
