/* The network models this build knows, looked up by the machine file's
 * "network" key. */
#include <string.h>

#include "../core/net.h"

extern const mcei_net_ops_t mcei_net_ideal_ops;
extern const mcei_net_ops_t mcei_net_ipsc_ops;
extern const mcei_net_ops_t mcei_net_paragon_ops;
extern const mcei_net_ops_t mcei_net_iwarp_ops;

static const mcei_net_ops_t *const models[] = {
    &mcei_net_ideal_ops,
    &mcei_net_ipsc_ops,
    &mcei_net_paragon_ops,
    &mcei_net_iwarp_ops,
};

const mcei_net_ops_t *mcei_net_lookup(const char *name)
{
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(models); i++)
        if (strcmp(models[i]->name, name) == 0)
            return models[i];
    return NULL;
}

const char *mcei_net_names(void)
{
    static char buf[256];
    if (!buf[0]) {
        for (size_t i = 0; i < MCEI_ARRAY_SIZE(models); i++) {
            if (i)
                strncat(buf, ", ", sizeof(buf) - strlen(buf) - 1);
            strncat(buf, models[i]->name, sizeof(buf) - strlen(buf) - 1);
        }
    }
    return buf;
}
