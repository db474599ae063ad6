/* Machine descriptions: share/machines/NAME.conf files of key = value. */
#ifndef MCEI_MACHINE_H
#define MCEI_MACHINE_H

#include "conf.h"

typedef struct mcei_machine {
    char *name; /* "name" key, or the file's base name */
    char *path; /* file it was loaded from */
    mcei_kvlist_t kv;
} mcei_machine_t;

/*
 * Load a machine by name (searched as NAME.conf in @p search_path, then the
 * installed and source-tree machine directories) or by path (contains '/'
 * or ends in .conf).  "inherit = OTHER" loads OTHER first.  @p overrides
 * (may be NULL) are applied last.
 */
int mcei_machine_load(mcei_machine_t *m, const char *name_or_path,
                      const char *search_path, const mcei_kvlist_t *overrides,
                      char *err, size_t errlen);
void mcei_machine_free(mcei_machine_t *m);

/* Typed getters.  A missing key gives the default when @p required is 0,
 * else MCE_ERR_MACHINE with a message in err.  Keys read are marked used. */
int mcei_machine_time(mcei_machine_t *m, const char *key, int required,
                      mce_time_t def, mce_time_t *out, char *err,
                      size_t errlen);
int mcei_machine_u64(mcei_machine_t *m, const char *key, int required,
                     uint64_t def, uint64_t *out, char *err, size_t errlen);
int mcei_machine_micro(mcei_machine_t *m, const char *key, int required,
                       uint64_t def, uint64_t *out, char *err, size_t errlen);
const char *mcei_machine_str(mcei_machine_t *m, const char *key,
                             const char *def);
/* Mark every key starting with @p prefix as used: keys of a module this
 * run does not load (the TCS keys when the program is not a TCS one). */
void mcei_machine_skip_prefix(mcei_machine_t *m, const char *prefix);
/* MCE_ERR_MACHINE naming the first key no reader consumed (a typo). */
int mcei_machine_check_unused(mcei_machine_t *m, char *err, size_t errlen);

#endif
