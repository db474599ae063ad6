/**
 * @file mcemu.h
 * @brief mcemu native API: virtual nodes, virtual time and message passing.
 *
 * A program written against this header is compiled with `mcecc` and run
 * as one *virtual node* (VN) per instance of its `main`.  The library
 * provides the process's real `main`: it boots the emulator, parses and
 * removes the `--mce-*` options, and then runs the program's `main` once
 * per virtual node, each with its own copy of `argv`.
 *
 * All times are virtual and counted in integer picoseconds
 * (::mce_time_t).  Every function returns an ::mce_status_t (0 on success,
 * a negative code on error, see mce_strerror()); output parameters are
 * written only on success.
 */
#ifndef MCEMU_H
#define MCEMU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(MCE_BUILDING_LIBRARY)
#define MCE_EXPORT __attribute__((visibility("default")))
#else
#define MCE_EXPORT
#endif

/**
 * The mcemu version.  These three lines are its only source: configure
 * takes its version from them (version.sh), and `--mce-version` prints it.
 */
#define MCE_VERSION_MAJOR 0
#define MCE_VERSION_MINOR 1
#define MCE_VERSION_PATCH 0
#define MCE_VERSION_STR_(x) #x
#define MCE_VERSION_STR(x) MCE_VERSION_STR_(x)
/** "MAJOR.MINOR.PATCH" */
#define MCE_VERSION_STRING                                                    \
    MCE_VERSION_STR(MCE_VERSION_MAJOR)                                        \
    "." MCE_VERSION_STR(MCE_VERSION_MINOR) "." MCE_VERSION_STR(               \
        MCE_VERSION_PATCH)

/** Virtual time in picoseconds. */
typedef uint64_t mce_time_t;

/** Picoseconds per nanosecond, microsecond, millisecond and second. */
#define MCE_NS ((mce_time_t)1000)
#define MCE_US ((mce_time_t)1000000)
#define MCE_MS ((mce_time_t)1000000000)
#define MCE_S  ((mce_time_t)1000000000000)

/** Status codes: 0 is success, every error is negative. */
typedef enum mce_status {
    MCE_OK = 0,                /**< success */
    MCE_ERR_INVAL = -1,        /**< invalid argument */
    MCE_ERR_NOMEM = -2,        /**< out of memory */
    MCE_ERR_NODE = -3,         /**< node number out of range */
    MCE_ERR_SIZE = -4,         /**< negative or unsupported size */
    MCE_ERR_TRUNCATE = -5,     /**< receive buffer shorter than message */
    MCE_ERR_TYPE = -6,         /**< message type out of range */
    MCE_ERR_OVERFLOW = -7,     /**< virtual clock would overflow */
    MCE_ERR_NOT_IN_NODE = -8,  /**< called outside a virtual node */
    MCE_ERR_CONFIG = -9,       /**< bad configuration or option */
    MCE_ERR_MACHINE = -10,     /**< bad or missing machine description */
    MCE_ERR_IO = -11,          /**< file or system I/O error */
    MCE_ERR_MPI = -12,         /**< MPI transport failure */
    MCE_ERR_DEADLOCK = -13,    /**< every node blocked, nothing in flight */
    MCE_ERR_UNSUPPORTED = -14, /**< operation not supported by the model */
    MCE_ERR_RESOURCE = -15,    /**< emulated machine resource exhausted */
    MCE_ERR_STATE = -16,       /**< call not valid in the current state */
    MCE_ERR_NOT_FOUND = -17,   /**< no such item */
    MCE_ERR_LAST = -18         /**< one past the most negative code */
} mce_status_t;

/** Wildcards for mce_recv() and friends. */
#define MCE_ANY_SOURCE (-1)
#define MCE_ANY_TYPE   (-1L)
/** Largest message type (types are 0 .. MCE_TYPE_MAX). */
#define MCE_TYPE_MAX 0x7fffffffL

/** Description of a received or probed message. */
typedef struct mce_msg_info {
    int source;         /**< sending node */
    long type;          /**< message type */
    size_t bytes;       /**< payload length */
    mce_time_t sent;    /**< virtual time the send was issued */
    mce_time_t arrived; /**< virtual time the message arrived */
} mce_msg_info_t;

/** Compute-time modes (see the user guide). */
typedef enum mce_compute_mode {
    MCE_COMPUTE_NONE = 0,     /**< computation is free */
    MCE_COMPUTE_EXPLICIT = 1, /**< only mce_compute() charges time */
    MCE_COMPUTE_MEASURED = 2, /**< host CPU time x machine speed ratio */
    MCE_COMPUTE_COUNTED = 3   /**< the program's own operations, counted by
                                   mcecc/mcef77 -mce-compute=counted, x the
                                   machine's cycles per operation */
} mce_compute_mode_t;

/** Where a node's virtual time went (see mce_stats()). */
typedef struct mce_node_stats {
    mce_time_t now;     /**< current virtual time */
    mce_time_t compute; /**< charged computation */
    mce_time_t comm;    /**< send/receive/probe overheads of API calls */
    mce_time_t wait;    /**< blocked waiting for messages or completions */
    mce_time_t stolen;  /**< protocol interrupt handlers (machine models) */
    uint64_t sent;      /**< messages sent by the program */
    uint64_t received;  /**< messages received by the program */
} mce_node_stats_t;

/** Text of a status code (never NULL). */
MCE_EXPORT const char *mce_strerror(int status);

/** Number of the calling virtual node (0 .. mce_nodes()-1), or -1 outside a
 * node. */
MCE_EXPORT int mce_node(void);
/** Number of virtual nodes in the run. */
MCE_EXPORT int mce_nodes(void);
/** Name of the emulated machine (from its description file). */
MCE_EXPORT const char *mce_machine_name(void);
/** The run's seed (--mce-seed, default 1), for programs whose own choices
 * (e.g. a randomised schedule) must be deterministic and reproducible. */
MCE_EXPORT uint64_t mce_seed(void);
/** Current virtual time of the calling node, in picoseconds. */
MCE_EXPORT mce_time_t mce_now(void);
/** Current virtual time of the calling node, in seconds. */
MCE_EXPORT double mce_wtime(void);

/**
 * Charge @p ps picoseconds of computation to the calling node.
 * Charged in the explicit and measured modes, ignored in mode none.
 */
MCE_EXPORT int mce_compute(mce_time_t ps);
/** Charge @p cycles processor cycles of the emulated machine. */
MCE_EXPORT int mce_compute_cycles(uint64_t cycles);
/** The compute mode of this run. */
MCE_EXPORT mce_compute_mode_t mce_compute_mode(void);

/**
 * Send @p bytes bytes from @p buf to node @p dest with message type @p type
 * (0 .. MCE_TYPE_MAX).  The buffer may be reused as soon as the call
 * returns.  Charges the machine's send overhead.
 */
MCE_EXPORT int mce_send(int dest, long type, const void *buf, size_t bytes);

/**
 * Receive the first message (in virtual-arrival order, ties broken by
 * source node then send order) that matches @p source and @p type, either
 * of which may be a wildcard.  Blocks in virtual time until one arrives.
 * If the message is longer than @p cap, nothing is received and
 * ::MCE_ERR_TRUNCATE is returned.  @p info may be NULL.
 */
MCE_EXPORT int mce_recv(int source, long type, void *buf, size_t cap,
                        mce_msg_info_t *info);

/** Block until a matching message has arrived and describe it without
 * receiving it; charges the machine's probe cost once. */
MCE_EXPORT int mce_probe(int source, long type, mce_msg_info_t *info);

/**
 * Test, at the current virtual time, whether a matching message has
 * arrived.  Sets *@p flag to 1 (and fills @p info if not NULL) or 0.  Each
 * call charges the machine's probe cost, so a polling loop always advances.
 */
MCE_EXPORT int mce_iprobe(int source, long type, int *flag,
                          mce_msg_info_t *info);

/** Statistics of the calling node so far. */
MCE_EXPORT int mce_stats(mce_node_stats_t *stats);

/** Finish the calling node with exit status @p status; does not return. */
MCE_EXPORT void mce_exit(int status) __attribute__((noreturn));

/** Turn tracing of the calling node on (1) or off (0); no effect without
 * --mce-trace. */
MCE_EXPORT int mce_trace_enable(int on);
/** Record a named instant event on the calling node's trace track. */
MCE_EXPORT int mce_trace_mark(const char *name);
/** Open a named span on the calling node's trace track (closed by
 * mce_trace_end()). */
MCE_EXPORT int mce_trace_begin(const char *name);
/** Close the span opened by the last mce_trace_begin(). */
MCE_EXPORT int mce_trace_end(void);

/**
 * Read a numeric parameter of the machine description: a value written
 * with a time unit (ps, ns, us, ms, s) comes back in picoseconds, a
 * unitless integer as written (so give times their unit).  Keys
 * named "app.*" are reserved for programs (e.g. app.sobel_pixel = 40 us)
 * and are not checked by the library.
 */
MCE_EXPORT int mce_machine_param(const char *key, int64_t *value);

#ifndef MCE_NO_MAIN_RENAME
/* The library owns the process's main(); the program's main, renamed
 * mce_user_main, runs once per node.  It is deliberately not declared here
 * so that both "int main(void)" and "int main(int, char **)" compile. */
#ifdef MCE_MCECC
/* mcecc renames main in the object instead (see nx.h); the mark names
 * the personality. */
static const char mce_user_header_mark[] __attribute__((used, unused)) =
    "native";
#else
#define main mce_user_main
#endif
#endif

#ifdef __cplusplus
}
#endif

#endif /* MCEMU_H */
