/* Everything that crosses ranks.  The only part of the library that
 * includes <mpi.h>. */
#ifndef MCEI_TRANSPORT_H
#define MCEI_TRANSPORT_H

#include "engine.h"

/* Per-rank window summary, combined over all ranks. */
typedef struct mcei_window_info {
    uint64_t ninj;    /* injections this window (sum) */
    uint64_t next;    /* earliest runnable node clock (min) */
    uint64_t blocked; /* blocked nodes (sum) */
    uint64_t done;    /* finished nodes (sum) */
    uint64_t polling; /* nodes only polling for the livelock budget (sum) */
    uint64_t stop;    /* ranks past a run limit (sum) */
    /* Partitioned network models (each rank holds its nodes' part): */
    uint64_t model_next; /* earliest model event, or lower bound (min) */
    uint64_t in_flight;  /* messages in the models (sum) */
} mcei_window_info_t;

/* Start MPI when launched by mpirun/srun (detected from the launcher's
 * environment); otherwise run as a single rank without MPI. */
int mcei_transport_init(int *argc, char ***argv, int *rank, int *nranks,
                        int *use_mpi);
void mcei_transport_finalize(void);
void mcei_transport_abort(int status) __attribute__((noreturn));

/*
 * End of a window: exchange every rank's injections (descriptors to all,
 * payloads point to point to the destination's rank) and combine the
 * window summaries.  On return *all holds every injection of the window,
 * local and remote, as messages owned by the engine.
 */
int mcei_transport_window(mcei_engine_t *eng, const mcei_window_info_t *mine,
                          mcei_window_info_t *global, mcei_msg_t ***all,
                          size_t *nall);

/*
 * Payloads between ranks of one host (the shared-memory exchange, where
 * the kernel allows one process to read another's memory): the
 * destination's rank reads each payload from the sender's memory when the
 * message is delivered, instead of receiving a copy at the window's end:
 * straight into the receiving buffer (mcei_transport_read) or into a
 * buffer of the message's own (mcei_transport_fetch), at the latest
 * before the next window exchange; the sender keeps it until then
 * (mcei_transport_retire, called for every delivery to another rank's
 * node, takes a payload this rank must keep and frees it once the
 * destination's rank has passed the delivery).
 */
void mcei_transport_retire(mcei_engine_t *eng, mcei_msg_t *m);
int mcei_transport_read(const mcei_msg_t *m, void *dst, size_t bytes);
int mcei_transport_fetch(mcei_msg_t *m);

/*
 * The same for a partitioned network model: one reduction of the
 * summaries (with the number of descriptors bound for each rank), then
 * each rank's injections for another rank travel to it alone, with their
 * payloads, in one message per pair of ranks.  On return *mine holds the
 * window's injections bound for this rank's nodes (local and remote).
 */
int mcei_transport_window_part(mcei_engine_t *eng,
                               const mcei_window_info_t *mine,
                               mcei_window_info_t *global, mcei_msg_t ***local,
                               size_t *nlocal);

/* What crossed ranks so far (for --mce-verbose and the benchmarks). */
typedef struct mcei_transport_stats {
    uint64_t collectives; /* collective calls in windows */
    uint64_t quiet;       /* windows in which this rank published nothing */
    uint64_t p2p;         /* point-to-point messages sent in windows */
    uint64_t p2p_bytes;
} mcei_transport_stats_t;
void mcei_transport_get_stats(mcei_transport_stats_t *out);

/* Ranks of this job on this host (1 without MPI). */
int mcei_transport_local_ranks(void);
/* The host's cores (hwloc): more local ranks than cores makes waiting
 * ranks sleep at once rather than spin. */
void mcei_transport_set_cores(int cores);
/* Collective: when the host's ranks outnumber its cores, keep one working
 * rank per core.  0: this rank works (*rank, *nranks now count the working
 * ranks); 1: it has nothing to do; < 0: MPI failed. */
int mcei_transport_pack(int *rank, int *nranks);

/* Gather fixed-size records from every rank to rank 0 (*out malloc'ed on
 * rank 0 only, *nout records). */
int mcei_transport_gather(const void *recs, size_t nrec, size_t recsize,
                          void **out, size_t *nout);
/* Stream every rank's file contents to rank 0's @p out, in rank order. */
int mcei_transport_gather_stream(FILE *mine, FILE *out);
/* Maximum over ranks. */
int mcei_transport_max_int(int v, int *out);

#endif
