/* The machine protocols this build knows, looked up by the machine file's
 * "protocol" key. */
#include <string.h>

#include "../core/engine.h"

extern const mcei_proto_ops_t mcei_proto_native_ops;
extern const mcei_proto_ops_t mcei_proto_ncube_ops;
extern const mcei_proto_ops_t mcei_proto_nx_ops;
extern const mcei_proto_ops_t mcei_proto_iwarp_ops;

static const mcei_proto_ops_t *const protocols[] = {
    &mcei_proto_native_ops,
    &mcei_proto_ncube_ops,
    &mcei_proto_nx_ops,
    &mcei_proto_iwarp_ops,
};

const mcei_proto_ops_t *mcei_proto_lookup(const char *name)
{
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(protocols); i++)
        if (strcmp(protocols[i]->name, name) == 0)
            return protocols[i];
    return NULL;
}

const char *mcei_proto_names(void)
{
    static char buf[256];
    if (!buf[0]) {
        size_t len = 0;
        for (size_t i = 0; i < MCEI_ARRAY_SIZE(protocols); i++) {
            size_t n = strlen(protocols[i]->name);
            if (len + n + 3 >= sizeof(buf))
                break;
            if (i) {
                memcpy(buf + len, ", ", 2);
                len += 2;
            }
            memcpy(buf + len, protocols[i]->name, n);
            len += n;
            buf[len] = '\0';
        }
    }
    return buf;
}
