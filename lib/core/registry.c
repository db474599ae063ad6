/* The plug-ins of this process: network models, machine protocols and the
 * personality resolver, registered by their layers before the engine boots
 * (lib/main.c), so that the core defines everything it declares and no
 * lower layer refers to an upper one, in the sources or at link time.
 * Registration happens once, before any node exists; the tables are the
 * process's catalogue of code, not run state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "net.h"

enum { MAX_PLUGINS = 32 };

static struct {
    const mcei_net_ops_t *nets[MAX_PLUGINS];
    const mcei_proto_ops_t *protos[MAX_PLUGINS];
    size_t nnets, nprotos;
    mcei_api_resolver_fn resolver;
    char net_names[256], proto_names[256];
} reg;

/* "a, b, c" into @p buf (cut at its size). */
static void join(char *buf, size_t cap, const char *name)
{
    size_t len = strlen(buf);
    if (len > 0 && len + 2 < cap) {
        memcpy(buf + len, ", ", 3);
        len += 2;
    }
    strncat(buf, name, cap - len - 1);
}

int mcei_register_net(const mcei_net_ops_t *ops)
{
    if (ops == NULL || ops->name == NULL || mcei_net_lookup(ops->name))
        return MCE_ERR_INVAL;
    if (reg.nnets == MAX_PLUGINS)
        return MCE_ERR_NOMEM;
    reg.nets[reg.nnets++] = ops;
    join(reg.net_names, sizeof(reg.net_names), ops->name);
    return MCE_OK;
}

const mcei_net_ops_t *mcei_net_lookup(const char *name)
{
    for (size_t i = 0; i < reg.nnets; i++)
        if (strcmp(reg.nets[i]->name, name) == 0)
            return reg.nets[i];
    return NULL;
}

const char *mcei_net_names(void)
{
    return reg.net_names;
}

int mcei_register_proto(const mcei_proto_ops_t *ops)
{
    if (ops == NULL || ops->name == NULL || mcei_proto_lookup(ops->name))
        return MCE_ERR_INVAL;
    if (reg.nprotos == MAX_PLUGINS)
        return MCE_ERR_NOMEM;
    reg.protos[reg.nprotos++] = ops;
    join(reg.proto_names, sizeof(reg.proto_names), ops->name);
    return MCE_OK;
}

const mcei_proto_ops_t *mcei_proto_lookup(const char *name)
{
    for (size_t i = 0; i < reg.nprotos; i++)
        if (strcmp(reg.protos[i]->name, name) == 0)
            return reg.protos[i];
    return NULL;
}

const char *mcei_proto_names(void)
{
    return reg.proto_names;
}

int mcei_register_api_resolver(mcei_api_resolver_fn fn)
{
    if (fn == NULL || reg.resolver != NULL)
        return MCE_ERR_INVAL;
    reg.resolver = fn;
    return MCE_OK;
}

int mcei_api_resolve(mcei_personality_t *out, char *err, size_t errlen)
{
    if (reg.resolver == NULL) {
        snprintf(err, errlen, "no personality layer is registered");
        return MCE_ERR_CONFIG;
    }
    return reg.resolver(out, err, errlen);
}
