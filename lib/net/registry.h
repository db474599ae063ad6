/* Registration of the network layer's models into the core. */
#ifndef MCEI_NET_REGISTRY_H
#define MCEI_NET_REGISTRY_H

#include "../core/net.h"

/* Registers every model of lib/net: MCE_OK or the core's error. */
int mcei_net_register_all(void);

#endif
