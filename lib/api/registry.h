/* Registration of the API layer's personality resolver into the core
 * (registry.c), and the program's entry and symbols (program.c), which
 * the personalities call back. */
#ifndef MCEI_API_REGISTRY_H
#define MCEI_API_REGISTRY_H

#include "../core/engine.h"

/* Registers the resolver of lib/api: MCE_OK or the core's error. */
int mcei_api_register_all(void);
/* program.c: the entry symbol the program defines (mce_user_main, ...)
 * in *sym, which mcei_api_call_main will call; MCE_ERR_CONFIG with a
 * reason if it defines none or two. */
int mcei_api_find_entry(const char **sym, char *err, size_t errlen);
/* Does the executable define an entry point for mcemu (a renamed main)?
 * 0: its own main runs instead of mcemu's. */
int mcei_api_has_entry(void);
/* Run the program's main in the running node's copy of the program (see
 * lib/core/privatize.c: an executable built with mcecc
 * -mce-privatize=dlopen loads one per node). */
int mcei_api_call_main(int argc, char **argv);
/* A data symbol or function the program defines: @p own (the address of a
 * weak reference) or, without it, copy 0's @p name in the program's image;
 * NULL without either. */
void *mcei_api_program_data(void *own, const char *name);

#endif
