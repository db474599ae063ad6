/* Machine descriptions: share/machines/NAME.conf files of key = value. */
#ifndef MCEI_MACHINE_H
#define MCEI_MACHINE_H

#include "conf.h"

/* ---- key tables ---------------------------------------------------------
 * Every plug-in (the engine, each network model, protocol and
 * personality) declares the machine-file keys it reads in one static
 * table, registered with its ops (lib/core/registry.c).  The loader checks
 * every key of a machine file against the tables of the plug-ins the
 * machine uses (mcei_machine_bind), the plug-ins read their values
 * through the tables (mcei_key_*: default, required, range), and mce-info
 * prints them.  One entry per key; a key belongs to one table (the lowest
 * layer that reads it), the others read it by name. */
typedef enum mcei_key_kind {
    MCEI_KEY_TIME,  /* a time with unit (bare numbers: us), stored in ps */
    MCEI_KEY_COUNT, /* a non-negative integer (bytes, clocks, a count) */
    MCEI_KEY_MICRO, /* a decimal number, at most 6 decimals, stored x 1e6 */
    MCEI_KEY_STRING /* a word; min and max unused */
} mcei_key_kind_t;

typedef enum mcei_key_label {
    MCEI_LABEL_INPUT,   /* printed in a paper */
    MCEI_LABEL_DERIVED, /* computed from inputs */
    MCEI_LABEL_ASSUMED, /* in no source */
    MCEI_LABEL_MACHINE, /* per machine: the machine file labels its value */
    MCEI_LABEL_SETTING  /* not a constant: a name, a switch, a model choice */
} mcei_key_label_t;

typedef struct mcei_key {
    const char *name;
    mcei_key_kind_t kind;
    const char *unit;  /* as shown to users: "us", "clocks", "bytes", "" */
    uint64_t min, max; /* inclusive, in the stored unit (ps, x 1e6) */
    const char *def;   /* default, written as in a file; NULL: required */
    mcei_key_label_t label;
    const char *source; /* short: paper and place, or why assumed */
} mcei_key_t;

typedef struct mcei_keytab {
    const char *owner; /* "network model ipsc", for messages */
    const mcei_key_t *keys;
    size_t n;
} mcei_keytab_t;

#define MCEI_KEYTAB(owner, arr)                                                \
    {                                                                          \
        (owner), (arr), MCEI_ARRAY_SIZE(arr)                                   \
    }
/* Shorthands for table entries. */
#define MCEI_TIME_MAX_KEY (1000 * MCE_S) /* no machine time is near 1000 s */
#define MCEI_CLOCKS_MAX   1000000        /* clock counts of the iWarp keys */

/* The table of a plug-in that reads no key. */
extern const mcei_keytab_t mcei_keys_none;
/* The engine's own keys (name, network, cycle_time, ...). */
extern const mcei_keytab_t mcei_keys_core;

const char *mcei_label_name(mcei_key_label_t l);
const char *mcei_kind_name(mcei_key_kind_t k);

enum { MCEI_MACHINE_MAX_TABS = 16 };

typedef struct mcei_machine {
    char *name; /* "name" key, or the file's base name */
    char *path; /* file it was loaded from */
    mcei_kvlist_t kv;
    const mcei_keytab_t *tabs[MCEI_MACHINE_MAX_TABS]; /* bound key tables */
    size_t ntabs;
} mcei_machine_t;

/*
 * Load a machine by name (searched as NAME.conf in the directories of
 * mcei_machine_dirs) or by path (contains '/' or ends in .conf).
 * "inherit = OTHER" loads OTHER first.  @p overrides (may be NULL) are
 * applied last.
 */
int mcei_machine_load(mcei_machine_t *m, const char *name_or_path,
                      const char *search_path, const mcei_kvlist_t *overrides,
                      char *err, size_t errlen);
void mcei_machine_free(mcei_machine_t *m);

/* The places machine names are looked up in, in order (each a
 * colon-separated list, or NULL): @p search_path (--mce-machine-path),
 * then, for a program that runs from a build tree, the source tree's
 * share/machines (mcei_machine_srcdir), then the installed
 * $(pkgdatadir)/machines. */
#define MCEI_MACHINE_NDIRS 3
void mcei_machine_dirs(const char *search_path,
                       const char *dirs[MCEI_MACHINE_NDIRS]);
/* The source tree's machine directory when this code runs uninstalled,
 * else NULL.  Uninstalled: the object holding this function (the shared
 * library, or the program linking the library's objects) lies in a build
 * tree, i.e. MCEI_UNINSTALLED_FILE, which make writes at the top of the
 * build tree with the source tree's machine directory in it, is in its
 * directory (or, for libtool's .libs, the one above) or the two above
 * that.  The installed library and programs carry no source path. */
#define MCEI_UNINSTALLED_FILE "mcemu-uninstalled"
const char *mcei_machine_srcdir(void);

/*
 * Bind the key tables of the plug-ins the machine uses and check every key
 * of the description against them: a key in no table is an error naming
 * its file:line and the nearest known key; a value that does not parse or
 * lies outside the table's range, an error naming the key.  Keys of
 * programs ("app.*") are not checked.
 */
int mcei_machine_bind(mcei_machine_t *m, const mcei_keytab_t *const *tabs,
                      size_t ntabs, char *err, size_t errlen);
/* Every registered key table (the engine's, then the network models',
 * protocols' and personalities'), at most @p cap of them; the count. */
size_t mcei_keytabs_all(const mcei_keytab_t **out, size_t cap);
/* The entry of @p key in the bound tables (or, unbound, in every
 * registered table), or NULL. */
const mcei_key_t *mcei_key_find(const mcei_machine_t *m, const char *key);

/* Read a key through its table entry: its default when the file does not
 * set it (MCE_ERR_MACHINE if it has none), range-checked; a key in no
 * table or of another kind is an error (a plug-in reading an undeclared
 * key).  Keys read are marked used. */
int mcei_key_time(mcei_machine_t *m, const char *key, mce_time_t *out,
                  char *err, size_t errlen);
int mcei_key_u64(mcei_machine_t *m, const char *key, uint64_t *out, char *err,
                 size_t errlen);
int mcei_key_micro(mcei_machine_t *m, const char *key, uint64_t *out, char *err,
                   size_t errlen);
/* A string key: its value, or the table's default (NULL if none). */
const char *mcei_key_str(mcei_machine_t *m, const char *key);
/* "20 ns", "1000 s", "0 ps": a time in its largest exact unit. */
void mcei_key_format_time(uint64_t ps, char *buf, size_t len);
/* Parse @p value as a value of @p k (range-checked); a message in err. */
int mcei_key_parse(const mcei_key_t *k, const char *value, uint64_t *out,
                   char *err, size_t errlen);

/* Typed getters without a table (kept for descriptions that are not
 * machine files).  A missing key gives the default when @p required is 0,
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
