/* Registration of the API layer's personality resolver into the core. */
#ifndef MCEI_API_REGISTRY_H
#define MCEI_API_REGISTRY_H

#include "../core/engine.h"

/* Registers the resolver of lib/api: MCE_OK or the core's error. */
int mcei_api_register_all(void);
/* Does the executable define an entry point for mcemu (a renamed main)?
 * 0: its own main runs instead of mcemu's. */
int mcei_api_has_entry(void);

#endif
