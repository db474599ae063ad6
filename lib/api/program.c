/* The program's side of the personality layer: the entry point it
 * defines (each personality header renames main to its own entry
 * symbol), the one each node calls, and the program's data symbols.  The
 * personalities call these back (mcei_api_has_entry, mcei_api_call_main,
 * mcei_api_program_data); registry.c, which dispatches to the
 * personalities, finds the program's personality here: the references go
 * one way (tests/core/layers.sh checks lib/api/registry.c is in no
 * link-time circle). */
#include <stdio.h>
#include <string.h>

#include "../core/privatize.h"
#include "registry.h"

extern int mce_user_main(int argc, char **argv) __attribute__((weak));
extern int mce_vx_main(int argc, char **argv) __attribute__((weak));
extern int mce_nx_main(int argc, char **argv) __attribute__((weak));
extern int mce_iw_main(int argc, char **argv) __attribute__((weak));
extern int mce_tcs_main(int argc, char **argv) __attribute__((weak));
/* mcef77 renames gfortran's main() (registry.c: the machine it records). */
extern int mce_f77_main(int argc, char **argv) __attribute__((weak));
/* mcecc names a main whose value is no exit status (void main(), a C89
 * main falling off its end) with a _void suffix: it ends with status 0. */
extern void mce_user_main_void(int argc, char **argv) __attribute__((weak));
extern void mce_vx_main_void(int argc, char **argv) __attribute__((weak));
extern void mce_nx_main_void(int argc, char **argv) __attribute__((weak));

/* The program's entry: in the executable, or in copy 0 of the node
 * program an executable built with mcecc -mce-privatize=dlopen carries;
 * each node calls it in its own copy. */
static uintptr_t prog_entry;
static int prog_void; /* a main without a status (the _void entries) */

int mcei_api_call_main(int argc, char **argv)
{
    uintptr_t f = mcei_priv_node_addr(prog_entry);
    if (prog_void) {
        void (*v)(int, char **) = (void (*)(int, char **))f;
        v(argc, argv);
        return 0;
    }
    return ((mcei_main_fn)f)(argc, argv);
}

/* A symbol of the program: the executable's (a weak reference, @p own) or
 * copy 0's of its image. */
static uintptr_t program_sym(uintptr_t own, const char *name)
{
    return own != 0 ? own : (uintptr_t)mcei_priv_image_sym(name);
}

void *mcei_api_program_data(void *own, const char *name)
{
    return own != NULL ? own : mcei_priv_image_sym(name);
}

int mcei_api_find_entry(const char **sym, char *err, size_t errlen)
{
    /* the entry symbols, in the order of registry.c's entries[] */
    static const char *const names[] = {
        "mce_user_main",      "mce_vx_main",      "mce_nx_main",
        "mce_f77_main",       "mce_iw_main",      "mce_tcs_main",
        "mce_user_main_void", "mce_vx_main_void", "mce_nx_main_void",
    };
    uintptr_t fns[] = {
        program_sym((uintptr_t)mce_user_main, "mce_user_main"),
        program_sym((uintptr_t)mce_vx_main, "mce_vx_main"),
        program_sym((uintptr_t)mce_nx_main, "mce_nx_main"),
        program_sym((uintptr_t)mce_f77_main, "mce_f77_main"),
        program_sym((uintptr_t)mce_iw_main, "mce_iw_main"),
        program_sym((uintptr_t)mce_tcs_main, "mce_tcs_main"),
        program_sym((uintptr_t)mce_user_main_void, "mce_user_main_void"),
        program_sym((uintptr_t)mce_vx_main_void, "mce_vx_main_void"),
        program_sym((uintptr_t)mce_nx_main_void, "mce_nx_main_void"),
    };
    int found = -1;
    _Static_assert(MCEI_ARRAY_SIZE(fns) == MCEI_ARRAY_SIZE(names),
                   "one symbol per entry");
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(names); i++) {
        if (fns[i] == 0)
            continue;
        if (found >= 0) {
            snprintf(err, errlen,
                     "the program defines both %s and %s: include only one "
                     "personality header in the file that defines main",
                     names[found], names[i]);
            return MCE_ERR_CONFIG;
        }
        found = (int)i;
    }
    if (found < 0) {
        snprintf(err, errlen,
                 "the program has no main for mcemu: include mcemu.h (or a "
                 "personality header) in the file that defines main");
        return MCE_ERR_CONFIG;
    }
    prog_entry = fns[found];
    prog_void = strstr(names[found], "_void") != NULL;
    *sym = names[found];
    return MCE_OK;
}

int mcei_api_has_entry(void)
{
    const char *sym;
    char err[256];
    return mcei_api_find_entry(&sym, err, sizeof(err)) == MCE_OK;
}
