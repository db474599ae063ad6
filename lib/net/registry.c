/* The network models of this layer, registered into the core (which looks
 * them up by the machine file's "network" key). */
#include "registry.h"

extern const mcei_net_ops_t mcei_net_ideal_ops;
extern const mcei_net_ops_t mcei_net_ipsc_ops;
extern const mcei_net_ops_t mcei_net_paragon_ops;
extern const mcei_net_ops_t mcei_net_iwarp_ops;

int mcei_net_register_all(void)
{
    static const mcei_net_ops_t *const models[] = {
        &mcei_net_ideal_ops,
        &mcei_net_ipsc_ops,
        &mcei_net_paragon_ops,
        &mcei_net_iwarp_ops,
    };
    int rc = MCE_OK;
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(models) && rc == MCE_OK; i++)
        rc = mcei_register_net(models[i]);
    return rc;
}
