/* The TCS personality's boot hook (lib/api/registry.c): its option
 * (--mce-tcs=run|link), the program's tcs_declare linked at boot, and
 * again in every node's copy of a privatised program. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../core/privatize.h"
#include "../registry.h"
#include "tcs_link.h"

/* ---- the personality's boot hook and entry ---------------------------- */

static const char *const tcs_choices[] = {"run", "link", NULL};
enum { TCS_OPT_RUN = 0, TCS_OPT_LINK = 1 };
static const mcei_plugin_opt_t tcs_opts[] = {
    {.name = "tcs",
     .choices = tcs_choices,
     .arg = "run|link",
     .help = "TCS programs: run (default), or link only: print the "
             "linker's report and exit"},
};
const mcei_optlist_t mcei_tcs_options = {tcs_opts, MCEI_ARRAY_SIZE(tcs_opts)};

extern void tcs_declare(tcs_decl_t *d) __attribute__((weak));
/* The program's tcs_declare: the executable's, or copy 0's of its node
 * program (mcecc -mce-privatize=dlopen); NULL without one. */
static void (*program_declare(void))(tcs_decl_t *)
{
    void *own = (void *)(uintptr_t)tcs_declare;
    uintptr_t a = (uintptr_t)mcei_api_program_data(own, "tcs_declare");
    return a != 0 ? (void (*)(tcs_decl_t *))a : NULL;
}

/* tcs_declare keeps the handles its calls return in the program's
 * globals: with one copy of the program per node, run it again in every
 * copy but the first (whose declaration boot linked), each on a scratch
 * declaration that must come out the same size. */
int mcei_tcs_privatized(mcei_engine_t *eng, char *err, size_t errlen)
{
    size_t copies = mcei_priv_image_copies();
    void (*declare)(tcs_decl_t *) = program_declare();
    mcei_tcs_machine_t mc;
    int rc = MCE_OK;
    if (copies < 2 || declare == NULL || mcei_tcs_kept == NULL)
        return MCE_OK;
    if ((rc = mcei_tcs_machine(&eng->machine, &mc, err, errlen)) != MCE_OK)
        return rc;
    for (size_t k = 1; k < copies && rc == MCE_OK; k++) {
        tcs_decl_t d;
        void (*mine)(tcs_decl_t *);
        mcei_priv_switch(k);
        mine = (void (*)(tcs_decl_t *))mcei_priv_node_addr((uintptr_t)declare);
        mcei_tcs_decl_init(&d, &mc);
        d.argc = eng->user_argc;
        d.argv = eng->user_argv;
        mine(&d);
        if (d.ntasks != mcei_tcs_kept->d.ntasks ||
            d.nports != mcei_tcs_kept->d.nports) {
            snprintf(err, errlen,
                     "tcs_declare declared %d tasks and %d ports in the "
                     "node program's copy %zu, %d and %d in the first: a "
                     "declaration must not depend on the program's state",
                     d.ntasks, d.nports, k, mcei_tcs_kept->d.ntasks,
                     mcei_tcs_kept->d.nports);
            rc = MCE_ERR_CONFIG;
        }
        mcei_tcs_decl_free(&d);
    }
    mcei_priv_switch(0);
    return rc;
}

int mcei_tcs_boot(mcei_engine_t *eng, char *err, size_t errlen)
{
    mcei_tcs_machine_t mc;
    tcs_decl_t d;
    int rc, link;
    /* the protocol is iwarp: the personality's declared pairing
     * (lib/api/registry.c), checked by the core before boot */
    if ((rc = mcei_tcs_machine(&eng->machine, &mc, err, errlen)) != MCE_OK)
        return rc;
    void (*declare)(tcs_decl_t *) = program_declare();
    if (declare == NULL) {
        snprintf(err, errlen,
                 "the TCS program defines no tcs_declare (include/tcs.h)");
        return MCE_ERR_CONFIG;
    }
    link = mcei_config_choice(&eng->cfg, &tcs_opts[0]) == TCS_OPT_LINK;
    mcei_tcs_decl_init(&d, &mc);
    /* the program's options, for a declaration that depends on them */
    d.argc = eng->user_argc;
    d.argv = eng->user_argv;
    declare(&d);
    if (link)
        rc = mcei_tcs_link(&d, eng->rank == 0 ? stdout : NULL, NULL, err,
                           errlen);
    else if ((rc = mcei_tcs_link_keep(&d, eng->rank == 0 ? stderr : NULL, err,
                                      errlen, &mcei_tcs_kept)) == MCE_OK &&
             (rc = mcei_tcs_rt_init(eng->nodes)) != MCE_OK)
        snprintf(err, errlen, "out of memory");
    mcei_tcs_decl_free(&d);
    if (rc != MCE_OK) {
        char msg[64];
        snprintf(msg, sizeof(msg), "tcs-link: ");
        size_t n = strlen(msg), m = strlen(err);
        if (m + n < errlen) { /* prefix the refusal with who refuses */
            memmove(err + n, err, m + 1);
            memcpy(err, msg, n);
        }
        return rc;
    }
    if (link) {
        fflush(stdout);
        return MCEI_BOOT_DONE;
    }
    return MCE_OK;
}
