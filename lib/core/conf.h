/* Run configuration and key = value description files. */
#ifndef MCEI_CONF_H
#define MCEI_CONF_H

#include "mcei.h"

/* One "key = value" entry of a description file. */
typedef struct mcei_kv {
    char *key;
    char *value;
    char *origin;      /* "file:line" for messages */
    int used;          /* consumed by some reader; unused keys are typos */
    char *note;        /* the comment that labels it in its file, or NULL */
    const char *label; /* "input", "derived", "assumed" from note, or NULL */
} mcei_kv_t;

/* Items in insertion order, with a hash index from a key to its last
 * item, so that loading n keys takes time linear in n. */
typedef struct mcei_kvlist {
    mcei_kv_t *items;
    size_t count, cap;
    size_t *index; /* open addressing: item number + 1, 0 = empty */
    size_t icap;   /* a power of two above twice the count */
} mcei_kvlist_t;

/* Description files larger than this are refused (they are a few KiB;
 * the limit keeps a wrong file from exhausting memory). */
#define MCEI_KV_MAX_FILE (16u << 20)

/* "input", "derived", "assumed" or NULL: the first label a comment of a
 * machine file gives ("input:", "[assumed]", iWarp's [S]/[D]/[C]). */
const char *mcei_label_in_text(const char *text);
/* Record the labelling comment of @p key (copied). */
int mcei_kv_set_note(mcei_kvlist_t *list, const char *key, const char *note,
                     const char *label);

/* Parse a description file (a key's note is its own comment if that
 * carries a label, else the nearest comment above it in its paragraph
 * that does); later duplicates override earlier ones. */
int mcei_kv_load(mcei_kvlist_t *list, const char *path, char *err,
                 size_t errlen);
int mcei_kv_set(mcei_kvlist_t *list, const char *key, const char *value,
                const char *origin);
mcei_kv_t *mcei_kv_find(mcei_kvlist_t *list, const char *key);
void mcei_kv_free(mcei_kvlist_t *list);

typedef enum mcei_placement {
    MCEI_PLACE_BLOCK = 0,
    MCEI_PLACE_CYCLIC = 1,
    MCEI_PLACE_ONE = 2,     /* one node per rank: no two nodes share a heap */
    MCEI_PLACE_TOPOLOGY = 3 /* blocks of the machine's topology */
} mcei_placement_t;

typedef enum mcei_privatize {
    MCEI_PRIV_AUTO = 0, /* privatise when several nodes share a process */
    MCEI_PRIV_ON = 1,
    MCEI_PRIV_OFF = 2 /* the program declares itself reentrant */
} mcei_privatize_t;

/* --mce-windows: whether windows include the protocol's send delay and
 * the deliveries the network model has committed beyond them. */
#define MCEI_WINDOWS_COMMITTED 0
#define MCEI_WINDOWS_NARROW    1
#define MCEI_WINDOWS_WIDE      2
/* --mce-exchange: how ranks exchange windows' summaries and payloads. */
#define MCEI_EXCHANGE_AUTO 0 /* shared memory on one host, payloads read */
#define MCEI_EXCHANGE_MPI  1 /* MPI collectives and messages */
#define MCEI_EXCHANGE_SHM  2 /* shared memory, payloads as MPI messages */
/* --mce-compute not given: counted for an instrumented program, explicit
 * otherwise (mcei_engine_boot decides). */
#define MCEI_COMPUTE_DEFAULT ((mce_compute_mode_t)-1)

typedef struct mcei_config {
    uint64_t nodes; /* 0: one per rank */
    char *machine;
    char *machine_path;
    char *trace;
    char *stats;        /* --mce-stats file, .csv or .json */
    char *trace_events; /* calls,proto,net */
    char *trace_nodes;  /* A-B */
    char *config_file;
    char *place_weights; /* --mce-place-weights: a --mce-stats file */
    char *window_log;    /* --mce-window-log: per-window work and messages */
    mce_compute_mode_t compute;
    mcei_placement_t placement;
    mcei_privatize_t privatize;
    uint64_t privatize_copies; /* 0: MCEI_PRIV_COPIES_DEFAULT */
    uint64_t stack_size;
    uint64_t seed;
    int summary;
    int help;
    int version; /* --mce-version */
    int verbose;
    int windows;             /* MCEI_WINDOWS_* */
    int progress;            /* 0 auto, 1 on, 2 off */
    int oversub;             /* 0 pack, 1 spread */
    int exchange;            /* MCEI_EXCHANGE_* */
    mce_time_t livelock;     /* polling with no progress this long: livelock */
    mce_time_t max_vtime;    /* 0 or the virtual time at which a run stops */
    mce_time_t max_wall;     /* 0 or the wall-clock time (ps) it may take */
    mcei_kvlist_t overrides; /* --mce-set=key=value for the machine file */
    mcei_kvlist_t plugin_opts; /* plug-ins' options given: name = choice */
} mcei_config_t;

/* An option a plug-in adds to the --mce-* options (the TCS personality's
 * --mce-tcs=run|link): one word of a list, also MCE_NAME in the
 * environment and "name = word" in a --mce-config file.  Personalities
 * declare theirs in their mcei_api_info_t; the core keeps the value by
 * name, so that it knows no plug-in's options. */
typedef struct mcei_plugin_opt {
    const char *name;           /* NAME of --mce-NAME */
    const char *const *choices; /* NULL-terminated; the first is the default */
    const char *arg;            /* the choices for --mce-help: "run|link" */
    const char *help;
} mcei_plugin_opt_t;
typedef struct mcei_optlist {
    const mcei_plugin_opt_t *opt;
    size_t n;
} mcei_optlist_t;
extern const mcei_optlist_t mcei_options_none;
/* The registry of plug-in options (lib/core/registry.c): MCE_OK, or
 * MCE_ERR_INVAL for a name already taken (by the core or a plug-in). */
int mcei_register_option(const mcei_plugin_opt_t *opt);
/* Registered options in order; NULL past the last. */
const mcei_plugin_opt_t *mcei_option_at(size_t i);
/* Is @p name (@p len bytes) one of the core's own options? */
int mcei_config_is_core_option(const char *name, size_t len);
/* The index in @p opt's choices of the value @p cfg holds for it (0, the
 * default, when none was given). */
int mcei_config_choice(mcei_config_t *cfg, const mcei_plugin_opt_t *opt);

void mcei_config_defaults(mcei_config_t *cfg);
void mcei_config_free(mcei_config_t *cfg);

/*
 * Fill @p cfg from the config file, the MCE_* variables of @p envp and the
 * --mce-* options of argv (increasing precedence), removing the options
 * from argv (argc updated).  On error writes a message naming the option
 * into err and returns MCE_ERR_CONFIG.
 */
int mcei_config_parse(mcei_config_t *cfg, int *argc, char **argv, char **envp,
                      char *err, size_t errlen);

/* Print the option list (for --mce-help). */
#include <stdio.h>
void mcei_config_help(FILE *out);

#endif
