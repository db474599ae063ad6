/* Registration of the machines layer's protocols into the core. */
#ifndef MCEI_MACHINES_REGISTRY_H
#define MCEI_MACHINES_REGISTRY_H

#include "../core/engine.h"

/* Registers every protocol of lib/machines: MCE_OK or the core's error. */
int mcei_proto_register_all(void);

#endif
