/* The engine symbols the parser and TCS sources reference, for the fuzz
 * harnesses, which link those sources without the engine: the registry's
 * key tables are the layers' (lib/net/keys.c, lib/machines/keys.c, the
 * TCS personality's), linked without the models. */
#include <stdlib.h>

#include "mcei.h"

#include "../../lib/api/tcs/tcs_link.h"
#include "../../lib/machines/keys.h"
#include "../../lib/net/keys.h"

/* mcei_fatal's exit: no fatal error is expected from a parser. */
void mcei_engine_abort(int status)
{
    (void)status;
    abort();
}

/* Reached only from mcei_tcs_boot, which the harnesses never call. */
int mcei_tcs_rt_init(int nodes)
{
    (void)nodes;
    abort();
}

size_t mcei_keytabs_all(const mcei_keytab_t **out, size_t cap)
{
    const mcei_keytab_t *all[] = {
        &mcei_keys_core,          &mcei_net_ideal_keytab,
        &mcei_net_ipsc_keytab,    &mcei_net_paragon_keytab,
        &mcei_net_iwarp_keytab,   &mcei_proto_nx_keytab,
        &mcei_proto_ncube_keytab, &mcei_proto_ncube2_keytab,
        &mcei_proto_iwarp_keytab,
        &mcei_tcs_keytab,
    };
    size_t n = 0;
    for (; n < cap && n < MCEI_ARRAY_SIZE(all); n++)
        out[n] = all[n];
    return n;
}

/* The plug-ins' own options (lib/core/registry.c): the harnesses register
 * no plug-in, so the parser sees the core's options alone. */
const mcei_plugin_opt_t *mcei_option_at(size_t i)
{
    (void)i;
    return NULL;
}
