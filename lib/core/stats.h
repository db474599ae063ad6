/* Per-node statistics as data (--mce-stats) and the provenance of a run,
 * shared by the statistics and trace files. */
#ifndef MCEI_STATS_H
#define MCEI_STATS_H

#include <stdio.h>

#include "engine.h"

/* Keep the command line as given (before --mce-* options are removed):
 * it is part of the provenance.  Called once at boot. */
void mcei_prov_save_argv(int argc, char **argv);
void mcei_prov_free(void);
/* 64-bit hash of the machine description as resolved (every key's final
 * value, after inherit and --mce-set), identical on every rank. */
uint64_t mcei_prov_machine_hash(mcei_machine_t *m);
/* The provenance as the members of a JSON object (no braces):
 * "mcemu_version":..., "command_line":[...], ... */
void mcei_prov_json(mcei_engine_t *eng, FILE *out);
/* A JSON string body (escaped, invalid UTF-8 replaced). */
void mcei_json_str(FILE *out, const char *s);

/* Fail early (all ranks agree) if the --mce-stats file cannot be
 * written or has an unknown extension (.csv or .json). */
int mcei_stats_open(mcei_engine_t *eng, char *err, size_t errlen);
/* Gather every node's statistics and write the file (collective);
 * MCE_ERR_IO, reported, if it could not be written. */
int mcei_stats_write(mcei_engine_t *eng);

#endif
