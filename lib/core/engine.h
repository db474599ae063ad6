/* The virtual-time engine: virtual nodes, scheduler, conservative windows. */
#ifndef MCEI_ENGINE_H
#define MCEI_ENGINE_H

#include <string.h>
#include <time.h>

#include "conf.h"
#include "fiber.h"
#include "heap.h"
#include "machine.h"
#include "msg.h"
#include "net.h"
#include "place.h"

typedef struct mcei_vn mcei_vn_t;

typedef enum mcei_vn_state {
    MCEI_VN_NEW = 0,
    MCEI_VN_RUNNABLE,
    MCEI_VN_BLOCKED,
    MCEI_VN_DONE
} mcei_vn_state_t;

/* A blocked node's condition, re-checked after every arrival it processes. */
typedef int (*mcei_ready_fn)(mcei_vn_t *vn, void *arg);
/* Formats what a blocked node waits for (only when a deadlock is reported,
 * never on the hot path); @p arg is what mcei_wait_for was given. */
typedef void (*mcei_what_fn)(const void *arg, char *buf, size_t len);

typedef struct mcei_msgq {
    mcei_msg_t *head, *tail;
    size_t count;
} mcei_msgq_t;

struct mcei_vn {
    /* Laid out by use: what a node's activation touches (scheduling,
     * matching, accounting, the call in progress) comes first and fills
     * about six cache lines, the fiber's hot words after it; what boot,
     * reports and rare modes use comes last.  With thousands of nodes the
     * records do not stay in the caches, and the old order spread one
     * activation over all ten lines of the record. */
    int id;    /* global node number */
    int local; /* index on this rank (privatisation slot) */
    mcei_vn_state_t state;
    int in_runq; /* in the run queue or the ahead queue */
    int staged;  /* has arrivals staged at a window's start (engine.c) */
    int trace_on;
    int polling;       /* inside a polling call (the livelock guard below) */
    unsigned api_args; /* MCEI_ARG_* set by mcei_api_args */
    mce_time_t clock;
    uint64_t send_seq;
    mce_time_t runq_key;   /* clock when queued: never above the clock */
    mce_time_t busy_until; /* end of the last protocol handler's CPU use */
    mcei_msgq_t arrivals;  /* delivered, not yet processed in node time */
    mcei_msgq_t inbox;     /* processed, matchable */
    size_t runq_pos;
    /* Committed deliveries (--mce-windows=committed): nothing reaches the
     * node before this time but what it was handed already, so it may
     * run up to it whatever the window's horizon. */
    mce_time_t ahead;
    /* wait state, for blocking and for the deadlock report */
    mcei_ready_fn ready;
    void *ready_arg;
    const char *wait_call;
    /* What is waited for, kept as data and formatted only for a deadlock
     * report (the blocked node's frame stays alive while it is blocked). */
    mcei_what_fn wait_what_fn;
    const void *wait_what_arg;
    mce_time_t wait_since;
    /* statistics: written only by the accounting functions below, so
     * that t_compute + t_comm + t_wait + t_stolen == clock */
    mce_time_t t_compute, t_wait, t_comm, t_stolen;
    mce_time_t stolen_mark;          /* t_stolen when the node last blocked */
    uint64_t nsent, nrecv;           /* the program's messages */
    uint64_t bytes_sent, bytes_recv; /* and their payload bytes */
    uint64_t digest;
    void *proto;          /* machine protocol per-node state */
    unsigned char *slots; /* personalities' per-node state (mcei_vn_slot) */
    const char *api_call; /* personality call in progress (tracing) */
    mce_time_t api_t0;
    int64_t api_bytes, api_peer, api_type;
    size_t nflow_in; /* (source, sequence) pairs received in the call */
    /* polling streak, for the livelock guard: consecutive polling calls
     * with nothing else in between (no compute, no message) */
    const char *poll_call; /* the last polling call, NULL: none */
    mce_time_t poll_since; /* start of the streak */
    mce_time_t poll_work;  /* clock less stolen time at the last one's end */
    uint64_t poll_msgs;    /* sent + received at the last one's end */
    mce_time_t now_exit;   /* clock when mce_now last returned */
    uint32_t now_repeats;  /* mce_now calls in a row with nothing between */
    int trace_depth;
    mcei_fiber_t fiber; /* its switch-time words first (fiber.h) */
    /* ---- colder: boot, reports, tracing, rare modes ---- */
    uint64_t timer_seq;
    /* Page ranges of receive buffers already mapped (mcei_vn_prefault),
     * so that a buffer received into again costs no system call. */
    mcei_ranges_t prefaulted;
    int exit_status;
    uint64_t cpu_mark; /* measured mode: host CPU ns at last return */
    /* counted mode: the node's operations by class (MCEI_COV_*), and the
     * time charged for them so far (charged as the running total, so
     * that where the node's calls fall never changes the sum) */
    uint64_t cov[4];
    mce_time_t cov_charged;
    char **argv;
    uint64_t *flow_in; /* the pairs of nflow_in, for the trace's arrows */
    size_t capflow_in;
};

typedef struct mcei_engine mcei_engine_t;

/*
 * A machine protocol (lib/machines): node-local protocol state machines
 * driven by arrivals.  on_arrival runs in the node's own timeline, at the
 * arrival's virtual time, in (time, source, sequence) order and before the
 * node acts at any later time; it may keep the message (push it to the
 * inbox), release it, charge handler time with mcei_vn_steal() and send
 * with mcei_send_at() no earlier than the arrival.  It runs on the
 * scheduler's stack and must not block.
 */
typedef struct mcei_proto_ops {
    const char *name;
    const char *description;
    int (*init)(mcei_engine_t *eng, mcei_machine_t *m, char *err,
                size_t errlen);
    void (*fini)(mcei_engine_t *eng);
    int (*node_init)(mcei_vn_t *vn);
    void (*node_fini)(mcei_vn_t *vn);
    void (*on_arrival)(mcei_vn_t *vn, mcei_msg_t *msg);
    /* Least virtual time between any event of a node (the start of a call
     * of the personality that drives the protocol, an arrival, a timer)
     * and the send time of any message the event makes the protocol send:
     * the software that must run before a node's action can leave it.  The
     * engine adds it to the network's lookahead when the personality sends
     * only through the protocol, and checks it at every send. */
    mce_time_t (*send_delay)(const struct mcei_engine *eng);
    /* The machine-file keys the protocol reads (never NULL). */
    const mcei_keytab_t *keys;
    /* The network model it runs on (the machine's "network" key), or
     * MCEI_ANY_NET; the pairing is checked before either is initialised
     * (mcei_proto_pairing). */
    const char *requires_net;
    /* The interconnect, for topology placement, when the protocol models
     * it (the network model's comes first); mcei_proto_no_topology
     * otherwise.  Called after init. */
    void (*topology)(const struct mcei_engine *eng, mcei_topo_t *out);
} mcei_proto_ops_t;
#define MCEI_ANY_NET "*"
void mcei_proto_no_topology(const struct mcei_engine *eng, mcei_topo_t *out);

/* Protocols are found by the machine file's "protocol" key (default
 * "native") among those registered (lib/core/registry.c); the machines
 * layer registers its own (lib/machines/registry.c). */
const mcei_proto_ops_t *mcei_proto_lookup(const char *name);
const char *mcei_proto_names(void);
int mcei_register_proto(const mcei_proto_ops_t *ops);
const mcei_proto_ops_t *mcei_proto_at(size_t i);
/* MCE_OK if protocol @p proto runs on network model @p net as declared by
 * its requires_net; else MCE_ERR_MACHINE with a message naming machine
 * @p machine, both plug-ins and the model the protocol needs. */
int mcei_proto_pairing(const mcei_proto_ops_t *proto, const char *net,
                       const char *machine, char *err, size_t errlen);

/* What the API layer declares of each personality, for the key check,
 * --mce-help and mce-info. */
typedef struct mcei_api_info {
    const char *name;            /* "native", "vertex", ... */
    const char *default_machine; /* without --mce-machine */
    const char *header;          /* the header a program includes */
    const mcei_keytab_t *keys;   /* keys it reads (never NULL) */
    /* The machine protocol its calls run on (the machine's "protocol"
     * key), or MCEI_ANY_PROTO; checked at boot before any plug-in is
     * initialised (mcei_api_pairing), as a protocol's requires_net. */
    const char *requires_proto;
    /* --mce-* options it adds (mcei_options_none: none) */
    const mcei_optlist_t *options;
    /* its per-node state (mcei_node_slot_none: none) */
    const struct mcei_node_slot *node_slot;
} mcei_api_info_t;
#define MCEI_ANY_PROTO "*"
int mcei_register_api(const mcei_api_info_t *info);
/* Per-node state of the personalities (NX's count of global operations):
 * each declares a slot of @p size bytes in its mcei_api_info_t; every node
 * gets all registered slots in one zeroed block, made with the node and
 * freed with it, so the state lives in the node, never in a file-scope
 * variable, and any personality's calls find it (a Fortran program's NX
 * calls too). */
typedef struct mcei_node_slot {
    const char *name;
    size_t size;
} mcei_node_slot_t;
extern const mcei_node_slot_t mcei_node_slot_none;
int mcei_register_node_slot(const mcei_node_slot_t *slot);
/* Bytes of all registered slots (the engine allocates them per node). */
size_t mcei_node_slots_size(void);
/* The node's part for @p slot, or NULL when it is not registered. */
void *mcei_vn_slot(mcei_vn_t *vn, const mcei_node_slot_t *slot);
/* MCE_OK if personality @p api runs on protocol @p proto as declared by
 * its requires_proto; else MCE_ERR_MACHINE with a message naming machine
 * @p machine, the personality and the protocol it needs. */
int mcei_api_pairing(const mcei_api_info_t *api, const char *proto,
                     const char *machine, char *err, size_t errlen);
const mcei_api_info_t *mcei_api_at(size_t i);
const mcei_api_info_t *mcei_api_lookup(const char *name);

/* The program's entry point and the machine its personality defaults to;
 * resolved by the API layer from the renamed main the program defines. */
typedef int (*mcei_main_fn)(int argc, char **argv);
/* What the engine calls of a personality: one const table per
 * personality in the API layer (lib/api/registry.c), with designated
 * initialisers and every slot set (a personality without a step gives a
 * no-op), so the engine calls each slot without a NULL check. */
typedef struct mcei_personality_ops {
    /* Each node's program: the program's main (in the node's copy of a
     * privatised program), then what the personality leaves pending. */
    mcei_main_fn main;
    /* Once per process after the machine, network and protocol are
     * loaded, before nodes exist (deterministic: identical on every rank).
     * MCE_OK: run; MCEI_BOOT_DONE: the personality's work is done (exit
     * 0); < 0: refuse with the message in err (exit 2). */
    int (*boot)(struct mcei_engine *eng, char *err, size_t errlen);
    /* Once per process after privatisation: the state boot left in the
     * program's globals made again in each node's copy of a program
     * built with mcecc -mce-privatize=dlopen (TCS: tcs_declare's task
     * handles).  MCE_OK, or < 0 with the message in err (exit 2). */
    int (*privatized)(struct mcei_engine *eng, char *err, size_t errlen);
    /* Whenever a node resumes, before its fiber runs: a personality with
     * per-node state in one library global the program reads (NX's
     * msginfo) restores the node's own there. */
    void (*on_resume)(mcei_vn_t *vn);
    /* Every message the program causes goes through the machine protocol
     * (none through mce_send), so the protocol's send delay holds. */
    int protocol_sends;
} mcei_personality_ops_t;
typedef struct mcei_personality {
    const char *name;                  /* "native", ... */
    const char *default_machine;       /* used without --mce-machine */
    const mcei_personality_ops_t *ops; /* never NULL once resolved */
} mcei_personality_t;
#define MCEI_BOOT_DONE 1
/* The API layer registers the function that resolves the program's
 * personality (lib/api/registry.c); mcei_api_resolve calls it. */
typedef int (*mcei_api_resolver_fn)(mcei_personality_t *out, char *err,
                                    size_t errlen);
int mcei_register_api_resolver(mcei_api_resolver_fn fn);
int mcei_api_resolve(mcei_personality_t *out, char *err, size_t errlen);

/* Operation classes of counted mode (tools/mce-cov's counter order). */
enum { MCEI_COV_INT, MCEI_COV_MEM, MCEI_COV_FP, MCEI_COV_BRANCH, MCEI_COV_N };

typedef struct mcei_costs {
    mce_time_t send_overhead, recv_overhead, probe_cost, cycle_time;
    uint64_t cpu_scale_micro; /* measured mode: machine/host time x 1e6 */
    /* counted mode: cycles per operation of each class x 1e6 */
    uint64_t cpi_micro[MCEI_COV_N];
} mcei_costs_t;

struct mcei_engine {
    mcei_config_t cfg;
    mcei_machine_t machine;
    mcei_net_t net;
    mcei_place_t place;
    const mcei_proto_ops_t *proto;
    mcei_costs_t costs;
    int rank, nranks, nodes, nlocal;
    int world_ranks; /* MPI ranks started (nranks: those hosting nodes) */
    int use_mpi;
    mcei_vn_t *vns;    /* nlocal entries */
    int32_t *local_of; /* node -> index in vns, or -1 on another rank */
    mcei_vn_t *current;
    mcei_fiber_t sched;
    mcei_runq_t runq;   /* runnable nodes by (clock, id), keys inline */
    mcei_heap_t timers; /* local timers beyond the current horizon */
    mce_time_t window_start, horizon, lookahead;
    /* The protocol's send delay when it holds (else 0): every send is at
     * window_start + send_delay or later, and lookahead includes it. */
    mce_time_t send_delay;
    /* At a window's start, deliveries and timers are staged in their
     * nodes' queues first and processed after (staged_nodes lists the
     * nodes that got any), so that a node processes everything before
     * the horizon in node-time order whatever the window's size. */
    int staging;
    int32_t *staged_nodes;
    size_t nstaged;
    /* Nodes woken beyond the horizon by a committed delivery, to run up
     * to their own limit (vn->ahead) in this window; per node at most
     * once, so nlocal entries. */
    int32_t *aheadq;
    size_t naheadq;
    /* --mce-progress: the last report (wall seconds, windows, deliveries) */
    double progress_at;
    uint64_t model_ns; /* wall time in the network model (the benchmarks) */
    uint64_t progress_windows, progress_msgs;
    /* --mce-window-log: the file and each local node's activations at the
     * last window's end */
    FILE *wlog;
    uint64_t *wlog_resumes;
    mcei_msg_t **inj; /* this window's injections */
    size_t ninj, capinj;
    mcei_msg_t *free_msgs;
    int user_argc;
    char **user_argv;
    int started, finished;
    uint64_t windows, msgs_total, switches;
    /* Deliveries the model made, to any rank's nodes (equal on every rank
     * for a replicated model): ends the model's run ahead of a window. */
    uint64_t delivered_all;
    /* Replicated models on several ranks: which ranks' nodes got a
     * delivery since the last window exchange (one flag a rank, set by
     * every rank's model alike; the exchange clears them); with each
     * rank's last published next event it tells every rank which ranks
     * will do nothing in the window and need not be waited for
     * (transport.c, quiet ranks). */
    uint8_t *rank_got;
    /* Delivered messages whose payload is still in another rank's memory
     * (NULL: read or released since): read before the next exchange, so
     * that the sender may free it two exchanges after the delivery. */
    mcei_msg_t **unread;
    size_t nunread, unread_cap;
    int prefault_off; /* the kernel cannot populate pages (mcei_vn_prefault) */
    int nblocked, ndone; /* local nodes in those states (no scan per window) */
    struct timespec wall_start;
    mcei_personality_t personality;
    void *proto_state; /* the machine protocol's global state */
    /* the last name mcei_proto_state_named matched (by address): the
     * iWarp cell looks its state up on every gate operation */
    const char *proto_named;
    /* A protocol's sleep (sleep.c): the node's clock to until, running
     * what the machine runs meanwhile (NX handlers); NULL: just wait. */
    void (*on_sleep)(mcei_vn_t *vn, mce_time_t until);
    /* Counted mode: the instrumented program's thread-local operation
     * counters (NULL: the program is not instrumented).  The code of
     * whichever node runs adds to them; the engine moves them into that
     * node's cov[] at each of its calls and when it switches away. */
    uint64_t *cov_acc;
};

extern mcei_engine_t *mcei_eng;

/* ---- the running engine as the upper layers see it --------------------
 * lib/net, lib/machines and lib/api read the engine only through these,
 * never through mcei_eng-> (tests/core/layers.sh checks it), so that the
 * engine's layout stays the core's own.  Each one works without an engine
 * (before boot, in a unit test of a model alone), giving 0 or "". */
/* An engine exists (mcemu's main has started to boot it). */
static inline int mcei_engine_up(void)
{
    return mcei_eng != NULL;
}
/* The number of nodes of the run. */
static inline int mcei_nnodes(void)
{
    return mcei_eng != NULL ? mcei_eng->nodes : 0;
}
/* The machine's name (its file's name, for messages). */
static inline const char *mcei_machine_name(void)
{
    return mcei_eng != NULL && mcei_eng->machine.name != NULL
               ? mcei_eng->machine.name
               : "";
}
/* The run's seed (--mce-seed), for models that draw pseudo-random
 * choices deterministically. */
static inline uint64_t mcei_run_seed(void)
{
    return mcei_eng != NULL ? mcei_eng->cfg.seed : 0;
}
/* The node whose fiber runs now, or NULL (the scheduler, no engine). */
static inline mcei_vn_t *mcei_current_vn(void)
{
    return mcei_eng != NULL ? mcei_eng->current : NULL;
}
/* The machine's costs of the native calls: a probe's, and one processor
 * cycle (the unit of hardware clock reads). */
static inline mce_time_t mcei_probe_cost(void)
{
    return mcei_eng != NULL ? mcei_eng->costs.probe_cost : 0;
}
static inline mce_time_t mcei_cycle_time(void)
{
    return mcei_eng != NULL ? mcei_eng->costs.cycle_time : 0;
}
/* The machine's overheads of a native send and of a native receive
 * (lib/api/native: mce_send, mce_recv). */
static inline mce_time_t mcei_send_overhead(void)
{
    return mcei_eng != NULL ? mcei_eng->costs.send_overhead : 0;
}
static inline mce_time_t mcei_recv_overhead(void)
{
    return mcei_eng != NULL ? mcei_eng->costs.recv_overhead : 0;
}
/* The running protocol's send delay when it holds (engine.h: every send
 * is at window_start + it or later), else 0. */
static inline mce_time_t mcei_send_delay(void)
{
    return mcei_eng != NULL ? mcei_eng->send_delay : 0;
}
/* The running machine protocol's global state, if @p ops is the running
 * protocol, else NULL.  A protocol keeps its state there (its init sets
 * eng->proto_state, its fini frees it) and its per-node state in
 * vn->proto, never in file-scope variables (tests/core/layers.sh). */
static inline void *mcei_proto_state_of(const mcei_proto_ops_t *ops)
{
    return mcei_eng != NULL && mcei_eng->proto == ops ? mcei_eng->proto_state
                                                      : NULL;
}
/* The same by the protocol's name: for a protocol whose files cannot all
 * refer to its ops table, since the file that holds the table refers to
 * them (lib/machines/iwarp: its modules would form a link-time circle with
 * the table's file). */
static inline void *mcei_proto_state_named(const char *name)
{
    mcei_engine_t *e = mcei_eng;
    if (e == NULL || e->proto == NULL)
        return NULL;
    if (e->proto_named != name) {
        if (strcmp(e->proto->name, name) != 0)
            return NULL;
        e->proto_named = name;
    }
    return e->proto_state;
}

/* Boot: config, machine, model, placement, nodes.  Returns 0 or an error
 * already printed. */
int mcei_engine_boot(int *argc, char ***argv, char **envp);
/* Run every node to completion; returns the process exit status. */
int mcei_engine_run(void);
/* Terminate everything (all ranks) with @p status. */
void mcei_engine_abort(int status) __attribute__((noreturn));

/* ---- services for the API layers (called on a node's fiber) ---------- */

/* The calling node, or NULL outside a node; counts the call for measured
 * mode and charges host CPU time since the node last left the library. */
mcei_vn_t *mcei_enter(void);
/* Leave the library back to user code (measured-mode bookkeeping, and
 * the trace span of a personality call opened by mcei_api_begin). */
void mcei_leave(mcei_vn_t *vn);
/* A personality call starts (its trace span ends at mcei_leave). */
void mcei_api_begin(mcei_vn_t *vn, const char *call);
/* The call's arguments shown on its trace slice (@p which: MCEI_ARG_*
 * bits; a receive sets them again when it knows the message). */
#define MCEI_ARG_BYTES 1u
#define MCEI_ARG_PEER  2u
#define MCEI_ARG_TYPE  4u
void mcei_api_args(mcei_vn_t *vn, unsigned which, int64_t bytes, int64_t peer,
                   int64_t type);
/* Wait until the window reaches the node's clock and process arrivals up
 * to it: required before any action that others can observe. */
void mcei_sync(mcei_vn_t *vn);
/* Charge time to the node's clock (MCE_ERR_OVERFLOW aborts the node).
 * Prefer the accounting calls below, which also say where it went. */
void mcei_charge(mcei_vn_t *vn, mce_time_t t);

/* ---- accounting: the one owner of a node's statistics -----------------
 * Every layer moves a node's clock through these, so that compute + comm
 * + wait + stolen equals the clock at all times (--mce-stats, mce_stats).
 * Overflow of the clock or of a counter aborts the node with a message. */
/* The clock advances by @p t, counted as the program's computation, as a
 * communication call's own overhead, as idle waiting, or as protocol
 * handlers' time taken from the program. */
void mcei_charge_compute(mcei_vn_t *vn, mce_time_t t);
void mcei_charge_comm(mcei_vn_t *vn, mce_time_t t);
void mcei_charge_wait(mcei_vn_t *vn, mce_time_t t);
void mcei_charge_stolen(mcei_vn_t *vn, mce_time_t t);
/* The clock moves forward to @p t (nothing if already there), the
 * difference counted as waiting or as stolen. */
void mcei_wait_until(mcei_vn_t *vn, mce_time_t t);
void mcei_stolen_until(mcei_vn_t *vn, mce_time_t t);
/* A protocol handler used @p t of a blocked node's processor: counted as
 * stolen now, and no longer as waiting when the node wakes. */
void mcei_note_stolen_blocked(mcei_vn_t *vn, mce_time_t t);
/* The program sent / received one message of @p bytes payload bytes
 * (user messages only: never protocol or system traffic). */
void mcei_count_sent(mcei_vn_t *vn, uint64_t bytes);
void mcei_count_recv(mcei_vn_t *vn, uint64_t bytes);
/* A polling call (probe, test, clock read) starts / ends: a node whose
 * unfinished calls are only these, with nothing in flight anywhere, is
 * livelocked (the --mce-livelock budget). */
void mcei_poll_begin(mcei_vn_t *vn, const char *call);
void mcei_poll_end(mcei_vn_t *vn);
/* A read of the clock that costs nothing (mce_now, iwarp_vtime): a loop
 * that only reads it would never let virtual time pass, so from the 1000th
 * read in a row with nothing in between each read is a poll (@p call)
 * charged @p cost through @p charge. */
void mcei_free_clock_read(mcei_vn_t *vn, const char *call,
                          void (*charge)(mcei_vn_t *vn, mce_time_t t),
                          mce_time_t cost);
/* Block until ready(vn, arg) holds, processing arrivals in time order.
 * @p call and @p what describe the wait for the deadlock report; @p what
 * is kept by pointer, so it must live until mcei_wait returns (a string
 * literal or a buffer in the caller's frame). */
void mcei_wait(mcei_vn_t *vn, mcei_ready_fn ready, void *arg, const char *call,
               const char *what);
/* The same, with what is waited for as data: @p what(@p what_arg, ...)
 * formats it only if a deadlock is reported.  @p what_arg must live until
 * mcei_wait_for returns.  Hot paths use this: no formatting per call. */
void mcei_wait_for(mcei_vn_t *vn, mcei_ready_fn ready, void *arg,
                   const char *call, mcei_what_fn what, const void *what_arg);
/* Inject a message sent now by @p vn; copies the payload. */
int mcei_send(mcei_vn_t *vn, int dst, uint32_t ctx, int64_t type,
              const void *buf, size_t size, const uint64_t aux[2],
              mcei_msg_t **out);
/* The same at an explicit time @p t, for protocol handlers (t no earlier
 * than the arrival being handled) and for deferred sends. */
int mcei_send_at(mcei_vn_t *vn, mce_time_t t, int dst, uint32_t ctx,
                 int64_t type, const void *buf, size_t size,
                 const uint64_t aux[2], mcei_msg_t **out);
/* A node-local event at time @p t (>= the current window start): the
 * protocol's on_arrival receives a message with ctx MCEI_CTX_TIMER, type
 * @p kind, the given aux words, cookie and a copy of @p size bytes of
 * @p buf (may be NULL/0), in the node's time order. */
int mcei_timer_at(mcei_vn_t *vn, mce_time_t t, int64_t kind,
                  const uint64_t aux[2], void *cookie, const void *buf,
                  size_t size);
/* Make @p vn's private globals live before a protocol handler or a wait
 * condition touches the node's memory (flags, receive buffers). */
void mcei_vn_memory(mcei_vn_t *vn);
/* A receive of @p n bytes into @p buf was posted on @p vn: map its pages
 * for writing now, without changing them (MADV_POPULATE_WRITE), so that
 * their first-touch cost falls in the window that posts, where every rank
 * works, rather than at the delivery.  Buffers under two pages are left
 * alone (a system call would cost more than their faults), and so are
 * pages this node's receives mapped before. */
void mcei_vn_prefault(mcei_vn_t *vn, void *buf, size_t n);
/* A protocol handler on @p vn wants the CPU at @p at for @p dur: it runs
 * once earlier handlers finish; the time is stolen from the user program
 * if that was computing.  Returns when the handler ends. */
mce_time_t mcei_vn_steal(mcei_vn_t *vn, mce_time_t at, mce_time_t dur);

/* First inbox message matching (src, type, ctx); -1 wildcards. */
mcei_msg_t *mcei_match(mcei_vn_t *vn, int src, int64_t type, uint32_t ctx);
/* Remove a message from the inbox and release it. */
void mcei_consume(mcei_vn_t *vn, mcei_msg_t *msg);
void mcei_msg_release(mcei_msg_t *msg);
/* Finish the node: never returns. */
void mcei_vn_exit(mcei_vn_t *vn, int status) __attribute__((noreturn));
/* Report an emulated-program error on @p vn and end the run. */
void mcei_vn_fatal(mcei_vn_t *vn, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
/* The same for an event at virtual time @p t (a protocol handler). */
void mcei_vn_fatal_at(mcei_vn_t *vn, mce_time_t t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));

/* Queue helpers. */
void mcei_msgq_push(mcei_msgq_t *q, mcei_msg_t *m);
void mcei_msgq_remove(mcei_msgq_t *q, mcei_msg_t *m);

#endif
