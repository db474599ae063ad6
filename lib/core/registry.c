/* The plug-ins of this process: network models, machine protocols and the
 * personality resolver, registered by their layers before the engine boots
 * (lib/main.c), so that the core defines everything it declares and no
 * lower layer refers to an upper one, in the sources or at link time.
 * Registration happens once, before any node exists; the tables are the
 * process's catalogue of code, not run state. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "net.h"

enum { MAX_PLUGINS = 32 };

static struct {
    const mcei_net_ops_t *nets[MAX_PLUGINS];
    const mcei_proto_ops_t *protos[MAX_PLUGINS];
    const mcei_api_info_t *apis[MAX_PLUGINS];
    const mcei_plugin_opt_t *opts[MAX_PLUGINS];
    const mcei_node_slot_t *slots[MAX_PLUGINS];
    size_t nnets, nprotos, napis, nopts, nslots;
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
    if (ops == NULL || ops->name == NULL || ops->keys == NULL ||
        mcei_net_lookup(ops->name))
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
    if (ops == NULL || ops->name == NULL || ops->keys == NULL ||
        ops->requires_net == NULL || mcei_proto_lookup(ops->name))
        return MCE_ERR_INVAL;
    if (reg.nprotos == MAX_PLUGINS)
        return MCE_ERR_NOMEM;
    reg.protos[reg.nprotos++] = ops;
    join(reg.proto_names, sizeof(reg.proto_names), ops->name);
    return MCE_OK;
}

int mcei_proto_pairing(const mcei_proto_ops_t *proto, const char *net,
                       const char *machine, char *err, size_t errlen)
{
    if (strcmp(proto->requires_net, MCEI_ANY_NET) == 0 ||
        strcmp(proto->requires_net, net) == 0)
        return MCE_OK;
    snprintf(err, errlen,
             "machine '%s': protocol '%s' runs on network model '%s' only "
             "(network = %s), not on '%s'",
             machine, proto->name, proto->requires_net, proto->requires_net,
             net);
    return MCE_ERR_MACHINE;
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

const mcei_net_ops_t *mcei_net_at(size_t i)
{
    return i < reg.nnets ? reg.nets[i] : NULL;
}

const mcei_proto_ops_t *mcei_proto_at(size_t i)
{
    return i < reg.nprotos ? reg.protos[i] : NULL;
}

int mcei_register_option(const mcei_plugin_opt_t *opt)
{
    if (opt == NULL || opt->name == NULL || opt->choices == NULL ||
        opt->choices[0] == NULL || opt->arg == NULL || opt->help == NULL ||
        mcei_config_is_core_option(opt->name, strlen(opt->name)))
        return MCE_ERR_INVAL;
    for (size_t i = 0; i < reg.nopts; i++)
        if (strcmp(reg.opts[i]->name, opt->name) == 0)
            return MCE_ERR_INVAL;
    if (reg.nopts == MAX_PLUGINS)
        return MCE_ERR_NOMEM;
    reg.opts[reg.nopts++] = opt;
    return MCE_OK;
}

const mcei_plugin_opt_t *mcei_option_at(size_t i)
{
    return i < reg.nopts ? reg.opts[i] : NULL;
}

const mcei_node_slot_t mcei_node_slot_none = {"none", 0};

/* Slots lie one after the other in a node's block, each at a multiple of
 * the largest alignment. */
static size_t slot_span(const mcei_node_slot_t *s)
{
    const size_t a = _Alignof(max_align_t);
    return (s->size + a - 1) / a * a;
}

int mcei_register_node_slot(const mcei_node_slot_t *slot)
{
    if (slot == NULL || slot->name == NULL || slot->size == 0 ||
        slot->size > (1u << 20))
        return MCE_ERR_INVAL;
    for (size_t i = 0; i < reg.nslots; i++)
        if (reg.slots[i] == slot)
            return MCE_OK; /* shared by several personalities */
    if (reg.nslots == MAX_PLUGINS)
        return MCE_ERR_NOMEM;
    reg.slots[reg.nslots++] = slot;
    return MCE_OK;
}

size_t mcei_node_slots_size(void)
{
    size_t total = 0;
    for (size_t i = 0; i < reg.nslots; i++)
        total += slot_span(reg.slots[i]);
    return total;
}

void *mcei_vn_slot(mcei_vn_t *vn, const mcei_node_slot_t *slot)
{
    size_t off = 0;
    if (vn->slots == NULL)
        return NULL;
    for (size_t i = 0; i < reg.nslots; off += slot_span(reg.slots[i]), i++)
        if (reg.slots[i] == slot)
            return vn->slots + off;
    return NULL;
}

int mcei_register_api(const mcei_api_info_t *info)
{
    int rc;
    if (info == NULL || info->name == NULL || info->keys == NULL ||
        info->requires_proto == NULL || info->options == NULL ||
        info->node_slot == NULL || mcei_api_lookup(info->name) != NULL)
        return MCE_ERR_INVAL;
    if (reg.napis == MAX_PLUGINS)
        return MCE_ERR_NOMEM;
    for (size_t i = 0; i < info->options->n; i++)
        if ((rc = mcei_register_option(&info->options->opt[i])) != MCE_OK)
            return rc;
    if (info->node_slot->size > 0 &&
        (rc = mcei_register_node_slot(info->node_slot)) != MCE_OK)
        return rc;
    reg.apis[reg.napis++] = info;
    return MCE_OK;
}

int mcei_api_pairing(const mcei_api_info_t *api, const char *proto,
                     const char *machine, char *err, size_t errlen)
{
    if (strcmp(api->requires_proto, MCEI_ANY_PROTO) == 0 ||
        strcmp(api->requires_proto, proto) == 0)
        return MCE_OK;
    /* The personality's default machine runs on its protocol: name it. */
    snprintf(err, errlen,
             "machine '%s': personality '%s' (%s) runs on protocol '%s' "
             "only (protocol = %s), not on '%s' (use --mce-machine=%s)",
             machine, api->name, api->header, api->requires_proto,
             api->requires_proto, proto, api->default_machine);
    return MCE_ERR_MACHINE;
}

const mcei_api_info_t *mcei_api_at(size_t i)
{
    return i < reg.napis ? reg.apis[i] : NULL;
}

const mcei_api_info_t *mcei_api_lookup(const char *name)
{
    for (size_t i = 0; i < reg.napis; i++)
        if (strcmp(reg.apis[i]->name, name) == 0)
            return reg.apis[i];
    return NULL;
}

size_t mcei_keytabs_all(const mcei_keytab_t **out, size_t cap)
{
    size_t n = 0;
    if (n < cap)
        out[n++] = &mcei_keys_core;
    for (size_t i = 0; i < reg.nnets && n < cap; i++)
        out[n++] = reg.nets[i]->keys;
    for (size_t i = 0; i < reg.nprotos && n < cap; i++)
        out[n++] = reg.protos[i]->keys;
    for (size_t i = 0; i < reg.napis && n < cap; i++)
        out[n++] = reg.apis[i]->keys;
    return n;
}
