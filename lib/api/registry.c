/* Personalities: each header renames the program's main to its own entry
 * symbol (mcemu.h: mce_user_main), so the library learns which API the
 * program was written against, and hence its default machine, from the
 * one entry point the executable defines (program.c finds it).  This file
 * dispatches to the personalities; the helpers they call back (the
 * program's entry and symbols) are program.c's, so that the references go
 * one way. */
#include <stdio.h>
#include <string.h>

#include "registry.h"
#include "tcs/tcs_link.h"

/* lib/api/iwarp: mce_iw_main, then the writes it left pending. */
int mcei_iw_entry(int argc, char **argv);
/* lib/api/tcs: mce_tcs_main, then the same. */
int mcei_tcs_entry(int argc, char **argv);
/* lib/api/nx: the node's NX state (its count of global operations), for
 * NX programs and Fortran ones (which reach NX through nx_f77.c). */
extern const mcei_node_slot_t mcei_nx_node_slot;
/* lib/api/nx: a resuming node's msginfo (NX programs, Fortran ones). */
void mcei_nx_on_resume(mcei_vn_t *vn);
/* mcef77 records the personality's machine (program.c: its entry). */
extern const char *mce_f77_default_machine __attribute__((weak));
/* ncube2.h (the NCUBE 2 flavour of Vertex) names its machine. */
extern const char *mce_vx_default_machine __attribute__((weak));

/* Personalities without a boot step leave the TCS keys of the iwarp
 * machine file to the TCS personality (lib/api/tcs). */
static int boot_plain(mcei_engine_t *eng, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    mcei_machine_skip_prefix(&eng->machine, "tcs.");
    return MCE_OK;
}

/* Boot leaves nothing in the program's globals. */
static int privatized_plain(mcei_engine_t *eng, char *err, size_t errlen)
{
    (void)eng;
    (void)err;
    (void)errlen;
    return MCE_OK;
}

/* Personalities whose nodes keep no state in library globals. */
static void resume_plain(mcei_vn_t *vn)
{
    (void)vn;
}

/* The native personality: its messaging calls are lib/api/native's, the
 * services it shares with the others the core's (lib/core/api.c). */
static const mcei_personality_ops_t native_ops = {
    .main = mcei_api_call_main,
    .boot = boot_plain,
    .privatized = privatized_plain,
    .on_resume = resume_plain,
    .protocol_sends = 0,
};
/* Vertex programs send only through the machine protocol (vertex.h
 * exposes no mce_send). */
static const mcei_personality_ops_t vertex_ops = {
    .main = mcei_api_call_main,
    .boot = boot_plain,
    .privatized = privatized_plain,
    .on_resume = resume_plain,
    .protocol_sends = 1,
};
/* NX (and Fortran, whose calls reach NX through nx_f77.c): msginfo is
 * one global of the library, the running node's. */
static const mcei_personality_ops_t nx_ops = {
    .main = mcei_api_call_main,
    .boot = boot_plain,
    .privatized = privatized_plain,
    .on_resume = mcei_nx_on_resume,
    .protocol_sends = 0,
};
/* iWarp and TCS: the program's main, then the writes it left pending
 * (lib/api/iwarp, lib/api/tcs); TCS links the program at boot. */
static const mcei_personality_ops_t iwarp_ops = {
    .main = mcei_iw_entry,
    .boot = boot_plain,
    .privatized = privatized_plain,
    .on_resume = resume_plain,
    .protocol_sends = 0,
};
static const mcei_personality_ops_t tcs_ops = {
    .main = mcei_tcs_entry,
    .boot = mcei_tcs_boot,
    .privatized = mcei_tcs_privatized,
    .on_resume = resume_plain,
    .protocol_sends = 0,
};

static const struct {
    const char *symbol;
    mcei_api_info_t info;
    const mcei_personality_ops_t *ops;
} entries[] = {
    {"mce_user_main",
     {.name = "native",
      .default_machine = "ideal",
      .header = "mcemu.h",
      .keys = &mcei_keys_none,
      .requires_proto = MCEI_ANY_PROTO,
      .options = &mcei_options_none,
      .node_slot = &mcei_node_slot_none},
     .ops = &native_ops},
    {"mce_vx_main",
     {.name = "vertex",
      .default_machine = "ncube",
      .header = "vertex.h",
      .keys = &mcei_keys_none,
      .requires_proto = MCEI_ANY_PROTO,
      .options = &mcei_options_none,
      .node_slot = &mcei_node_slot_none},
     .ops = &vertex_ops},
    {"mce_nx_main",
     {.name = "nx",
      .default_machine = "ipsc860",
      .header = "nx.h",
      .keys = &mcei_keys_none,
      .requires_proto = MCEI_ANY_PROTO,
      .options = &mcei_options_none,
      .node_slot = &mcei_nx_node_slot},
     .ops = &nx_ops},
    /* mcef77 links in the machine of the Fortran objects' calls. */
    {"mce_f77_main",
     {.name = "fortran",
      .default_machine = "ideal",
      .header = "mcef77",
      .keys = &mcei_keys_none,
      .requires_proto = MCEI_ANY_PROTO,
      .options = &mcei_options_none,
      .node_slot = &mcei_nx_node_slot},
     .ops = &nx_ops},
    /* iWarp calls check their machine at the call (a node's message),
     * so that a program may probe it; TCS links the whole program at
     * boot and needs the iwarp protocol's cells first. */
    {"mce_iw_main",
     {.name = "iwarp",
      .default_machine = "iwarp",
      .header = "iwarp.h",
      .keys = &mcei_keys_none,
      .requires_proto = MCEI_ANY_PROTO,
      .options = &mcei_options_none,
      .node_slot = &mcei_node_slot_none},
     .ops = &iwarp_ops},
    {"mce_tcs_main",
     {.name = "tcs",
      .default_machine = "iwarp",
      .header = "tcs.h",
      .keys = &mcei_tcs_keytab,
      .requires_proto = "iwarp",
      .options = &mcei_tcs_options,
      .node_slot = &mcei_node_slot_none},
     .ops = &tcs_ops},
    /* the same personalities, entered through a main without a status */
    {"mce_user_main_void",
     {.name = "native",
      .default_machine = "ideal",
      .header = "mcemu.h",
      .keys = &mcei_keys_none,
      .requires_proto = MCEI_ANY_PROTO,
      .options = &mcei_options_none,
      .node_slot = &mcei_node_slot_none},
     .ops = &native_ops},
    {"mce_vx_main_void",
     {.name = "vertex",
      .default_machine = "ncube",
      .header = "vertex.h",
      .keys = &mcei_keys_none,
      .requires_proto = MCEI_ANY_PROTO,
      .options = &mcei_options_none,
      .node_slot = &mcei_node_slot_none},
     .ops = &vertex_ops},
    {"mce_nx_main_void",
     {.name = "nx",
      .default_machine = "ipsc860",
      .header = "nx.h",
      .keys = &mcei_keys_none,
      .requires_proto = MCEI_ANY_PROTO,
      .options = &mcei_options_none,
      .node_slot = &mcei_nx_node_slot},
     .ops = &nx_ops},
};

static int resolve(mcei_personality_t *out, char *err, size_t errlen)
{
    const char *sym;
    const char *const *f77_machine = mcei_api_program_data(
        (void *)&mce_f77_default_machine, "mce_f77_default_machine");
    const char *const *vx_machine = mcei_api_program_data(
        (void *)&mce_vx_default_machine, "mce_vx_default_machine");
    int found = -1;
    int rc = mcei_api_find_entry(&sym, err, errlen);
    if (rc != MCE_OK)
        return rc;
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(entries) && found < 0; i++)
        if (strcmp(entries[i].symbol, sym) == 0)
            found = (int)i;
    if (found < 0) {
        snprintf(err, errlen, "no personality has the entry %s", sym);
        return MCE_ERR_CONFIG;
    }
    out->name = entries[found].info.name;
    out->default_machine = entries[found].info.default_machine;
    if (strcmp(sym, "mce_f77_main") == 0 && f77_machine != NULL &&
        *f77_machine != NULL)
        out->default_machine = *f77_machine;
    if (strcmp(out->name, "vertex") == 0 && vx_machine != NULL &&
        *vx_machine != NULL)
        out->default_machine = *vx_machine;
    out->ops = entries[found].ops;
    return MCE_OK;
}

int mcei_api_register_all(void)
{
    int rc = mcei_register_api_resolver(resolve);
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(entries) && rc == MCE_OK; i++) {
        int seen = 0; /* each personality once (the _void entries repeat) */
        for (size_t k = 0; k < i; k++)
            seen |= strcmp(entries[k].info.name, entries[i].info.name) == 0;
        if (!seen)
            rc = mcei_register_api(&entries[i].info);
    }
    return rc;
}
