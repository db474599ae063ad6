/* The machine protocols of this layer, registered into the core (which
 * looks them up by the machine file's "protocol" key). */
#include "registry.h"

extern const mcei_proto_ops_t mcei_proto_native_ops;
extern const mcei_proto_ops_t mcei_proto_ncube_ops;
extern const mcei_proto_ops_t mcei_proto_ncube2_ops;
extern const mcei_proto_ops_t mcei_proto_nx_ops;
extern const mcei_proto_ops_t mcei_proto_iwarp_ops;

int mcei_proto_register_all(void)
{
    static const mcei_proto_ops_t *const protocols[] = {
        &mcei_proto_native_ops,
        &mcei_proto_ncube_ops,
        &mcei_proto_ncube2_ops,
        &mcei_proto_nx_ops,
        &mcei_proto_iwarp_ops,
    };
    int rc = MCE_OK;
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(protocols) && rc == MCE_OK; i++)
        rc = mcei_register_proto(protocols[i]);
    return rc;
}
