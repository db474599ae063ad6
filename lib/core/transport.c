/* MPI transport: window exchange of descriptors (allgather), payloads
 * point to point, gathers for the summary and reports.  With one rank
 * (or no launcher) none of these functions calls MPI. */
#include "transport.h"

#include "hwinfo.h"

#include <mpi.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/uio.h>
#endif

static int mpi_on;
/* The ranks that host nodes: all, or one per core (mcei_transport_pack). */
static MPI_Comm comm = MPI_COMM_NULL;
static int my_rank, n_ranks;
static MPI_Datatype wire_type = MPI_DATATYPE_NULL;
static MPI_Op summary_op = MPI_OP_NULL;
/* Counters of what crossed ranks (the transport is process-wide state:
 * MPI itself is). */
static mcei_transport_stats_t xstats;
/* Ranks on this host, and whether they outnumber its cores: then waiting
 * ranks sleep at once instead of spinning first. */
static int local_ranks = 1, local_index, host_cores;
static int oversubscribed;

/* The window summaries through shared memory, when every working rank is
 * on one host (--mce-exchange=auto): each rank has a slot of a window
 * MPI_Win_allocate_shared made, holding a generation counter (the last
 * exchange it published), a read counter (the last exchange it finished
 * reading) and a ring of buffers, so that a rank may publish
 * while slower ranks still read its earlier buffers.  An exchange is a
 * store, a release of the counter and an acquire per rank read: about a
 * microsecond where an MPI collective costs several.  A rank that will do
 * nothing in a window (a quiet rank, mcei_transport_window) publishes
 * nothing and the others do not wait for it: it follows behind, reading
 * what they published; a writer waits only when the ring is full. */
#define SHM_HDR 128 /* the generation's cache line, the read counter's */
/* The ring's depth: 64 buffers, fewer when a buffer is large (it holds a
 * count per rank for the partitioned reduction), so that a slot stays
 * within SHM_RING_BYTES: 1024 ranks on one host would otherwise map 540
 * MB.  Any depth is correct (a writer waits for the readers); depth only
 * bounds how far a quiet rank may trail. */
#define SHM_RING_MAX   64
#define SHM_RING_BYTES (64 * 1024)
static struct {
    int state; /* 0 not tried, 1 on, -1 off */
    MPI_Win win;
    char **base; /* each rank's slot */
    size_t max;  /* bytes of one buffer */
    uint64_t gen;
    uint64_t ring;     /* buffers in a slot */
    uint64_t min_read; /* every other rank's read counter was at least this */
} shm = {.win = MPI_WIN_NULL};

#define SHM_GEN(r)  ((_Atomic uint64_t *)(void *)shm.base[r])
#define SHM_READ(r) ((_Atomic uint64_t *)(void *)(shm.base[r] + 64))

/* Payloads read from the sender's memory (cross-memory attach, as Open
 * MPI's shared-memory transport does for large messages): with the
 * shared-memory exchange a payload bound for another rank's node stays
 * in the sending rank's memory, its address in the descriptor's unused
 * inline bytes, and the destination's rank reads it (process_vm_readv)
 * when the replicated model delivers the message.  The window's end then
 * moves descriptors only: a window whose nodes send many large messages
 * at once (a complete exchange) no longer waits for their copies, and
 * the reads happen as the messages arrive, into buffers freed by earlier
 * deliveries.  The sender sees the same delivery in its own copy of the
 * model, at the same exchange, and frees the payload once the
 * destination's rank has finished reading two exchanges later. */
typedef struct retired {
    void *p;
    int rank;   /* the destination's */
    uint64_t g; /* the exchange before the delivery */
} retired_t;
static struct {
    int on;
    pid_t *pids;
    retired_t *q; /* a FIFO in exchange order */
    size_t head, n, cap;
} cma;

/* The replicated window's buffers of a fixed size (per rank): kept from
 * window to window (a window costs about a microsecond; seven
 * allocations were a tenth of it). */
static struct {
    struct window_block *blocks, *mb;
    int *counts, *displs;
    uint8_t *active; /* the ranks that publish in this exchange */
    int primed;      /* blocks hold every rank's last summary */
} scratch;

static void scratch_free(void)
{
    free(scratch.blocks);
    free(scratch.mb);
    free(scratch.counts);
    free(scratch.displs);
    free(scratch.active);
    memset(&scratch, 0, sizeof(scratch));
}

void mcei_transport_set_cores(int cores)
{
    host_cores = cores;
    oversubscribed = cores > 0 && local_ranks > cores;
}

/* Set when some ranks were set aside (mcei_transport_pack): every rank
 * then joins one MPI_Ibarrier on MPI_COMM_WORLD before MPI_Finalize. */
static int packed, end_barrier_done;

/* A rank set aside waits for the working ranks' end asleep: MPI_Finalize
 * would wait for them too, but Open MPI's waits there poll and yield
 * (sched_yield), and 62 ranks doing that on 2 cores left the 2 working
 * ranks a small share of them (mpirun -np 64 sobel_edge: 3 s in the
 * engine instead of 0.05).  The barrier progresses only when tested, so
 * the sleeps stay short enough not to hold the others' exit long. */
static int idle_until_end(void)
{
    MPI_Request req;
    long ns = 100000;
    if (MPI_Ibarrier(MPI_COMM_WORLD, &req) != MPI_SUCCESS)
        return -1;
    for (;;) {
        int flag = 0;
        struct timespec ts = {0, ns};
        if (MPI_Test(&req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return -1;
        if (flag) {
            end_barrier_done = 1;
            return 0;
        }
        nanosleep(&ts, NULL);
        if (ns < 2000000)
            ns *= 2;
    }
}

int mcei_transport_pack(int *rank, int *nranks)
{
    MPI_Comm work;
    int active = !oversubscribed || local_index < host_cores;
    if (!mpi_on || !oversubscribed)
        return 0;
    /* Collective over every rank: the first ranks of each host (as many
     * as it has cores) keep working, in their world order. */
    if (MPI_Comm_split(MPI_COMM_WORLD, active ? 0 : MPI_UNDEFINED, my_rank,
                       &work) != MPI_SUCCESS)
        return -1;
    packed = 1;
    if (!active)
        return idle_until_end() < 0 ? -1 : 1;
    comm = work;
    oversubscribed = 0; /* the working ranks have a core each */
    MPI_Comm_rank(comm, &my_rank);
    MPI_Comm_size(comm, &n_ranks);
    *rank = my_rank;
    *nranks = n_ranks;
    return 0;
}

int mcei_transport_local_ranks(void)
{
    return local_ranks;
}

/* Waiting without holding a core: spin for a while (the other ranks are
 * usually a few microseconds behind), then sleep, longer and longer, so
 * that a rank that waits gives its core to the rank that works (a loaded
 * or oversubscribed host).  The spin is bounded in time, not in tries
 * (a test of a shared-memory counter costs nanoseconds, an MPI test a
 * microsecond): 100 us, or a few tries when ranks outnumber cores. */
typedef struct backoff {
    unsigned it, slept;
    long sleep_ns, max_ns;
    struct timespec t0;
} backoff_t;

#define SPIN_NS 100000L

static backoff_t backoff_start(void)
{
    backoff_t b = {0, 0, 2000, oversubscribed ? 1000000 : 100000, {0, 0}};
    clock_gettime(CLOCK_MONOTONIC, &b.t0);
    return b;
}

static int spinning(backoff_t *b)
{
    struct timespec now;
    if (oversubscribed)
        return b->it < 8;
    if (b->it % 16 != 0)
        return 1;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - b->t0.tv_sec) * 1000000000L + now.tv_nsec -
               b->t0.tv_nsec <
           SPIN_NS;
}

/* Yields before the first sleep when ranks outnumber cores: the rank we
 * wait for is often runnable on our core, and a yield hands it the core
 * at once where the shortest sleep costs the timer's slack (50 us). */
#define YIELDS 256

static void backoff_pause(backoff_t *b)
{
    if (!b->slept && spinning(b)) {
        b->it++;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        return;
    }
    if (oversubscribed && !b->slept && b->it < 8 + YIELDS) {
        b->it++;
        sched_yield();
        return;
    }
    struct timespec ts = {0, b->sleep_ns};
    b->slept = 1;
    nanosleep(&ts, NULL);
    if (b->sleep_ns < b->max_ns)
        b->sleep_ns *= 2;
}

static int wait_all(int n, MPI_Request *r)
{
    for (backoff_t b = backoff_start();; backoff_pause(&b)) {
        int flag = 0;
        if (MPI_Testall(n, r, &flag, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
            return MCE_ERR_MPI;
        if (flag)
            return MCE_OK;
    }
}

/* MPI_Probe, the same way. */
static int probe_any(int tag, MPI_Status *st)
{
    for (backoff_t b = backoff_start();; backoff_pause(&b)) {
        int flag = 0;
        if (MPI_Iprobe(MPI_ANY_SOURCE, tag, comm, &flag, st) != MPI_SUCCESS)
            return MCE_ERR_MPI;
        if (flag)
            return MCE_OK;
    }
}

#define TAG_PAYLOAD 7
#define TAG_STREAM  8
#define TAG_PART    9
/* Payloads are sent in pieces MPI's int counts can express. */
#define CHUNK ((size_t)1 << 30)

static int launched_by_mpi(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                       "PMIX_RANK", "MPI_LOCALNRANKS",
                                       "HYDRA_CONTROL_FD"};
    for (size_t i = 0; i < MCEI_ARRAY_SIZE(vars); i++)
        if (getenv(vars[i]) != NULL)
            return 1;
    return 0;
}

/* The partitioned window's reduction: a summary (minima and sums) then
 * one count per rank (sums), all uint64_t. */
#define SUM_FIELDS 8
static void summary_reduce(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const uint64_t *a = in;
    uint64_t *b = inout;
    (void)dt;
    for (int i = 0; i < *len; i++) {
        /* fields 1 and 6 (next, model_next) are minima */
        if (i == 1 || i == 6)
            b[i] = a[i] < b[i] ? a[i] : b[i];
        else
            b[i] += a[i];
    }
}

void mcei_transport_get_stats(mcei_transport_stats_t *out)
{
    *out = xstats;
}

int mcei_transport_init(int *argc, char ***argv, int *rank, int *nranks,
                        int *use_mpi)
{
    if (!launched_by_mpi()) {
        *rank = 0;
        *nranks = 1;
        *use_mpi = 0;
        return MCE_OK;
    }
    /* Before MPI starts its threads: hwloc's discovery may set an
     * environment variable for its own duration (hwinfo.c). */
    (void)mcei_hw_cores();
    if (MPI_Init(argc, argv) != MPI_SUCCESS)
        return MCE_ERR_MPI;
    comm = MPI_COMM_WORLD;
    MPI_Comm_rank(comm, &my_rank);
    MPI_Comm_size(comm, &n_ranks);
    MPI_Type_contiguous((int)sizeof(mcei_wire_t), MPI_BYTE, &wire_type);
    MPI_Type_commit(&wire_type);
    MPI_Op_create(summary_reduce, 1, &summary_op);
    {
        MPI_Comm host;
        if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                                &host) == MPI_SUCCESS) {
            MPI_Comm_size(host, &local_ranks);
            MPI_Comm_rank(host, &local_index);
            MPI_Comm_free(&host);
        }
    }
    mpi_on = 1;
    *rank = my_rank;
    *nranks = n_ranks;
    *use_mpi = 1;
    return MCE_OK;
}

void mcei_transport_finalize(void)
{
    if (!mpi_on)
        return;
    if (shm.win != MPI_WIN_NULL) {
        MPI_Win_unlock_all(shm.win);
        MPI_Win_free(&shm.win); /* collective: every read is over */
    }
    for (size_t i = 0; i < cma.n; i++)
        free(cma.q[(cma.head + i) % cma.cap].p);
    free(cma.q);
    free(cma.pids);
    memset(&cma, 0, sizeof(cma));
    free(shm.base);
    shm.base = NULL;
    scratch_free();
    if (wire_type != MPI_DATATYPE_NULL)
        MPI_Type_free(&wire_type);
    if (summary_op != MPI_OP_NULL)
        MPI_Op_free(&summary_op);
    if (comm != MPI_COMM_WORLD && comm != MPI_COMM_NULL)
        MPI_Comm_free(&comm);
    if (packed && !end_barrier_done) {
        /* the ranks set aside wait in this barrier (idle_until_end) */
        MPI_Request req;
        if (MPI_Ibarrier(MPI_COMM_WORLD, &req) == MPI_SUCCESS)
            (void)wait_all(1, &req);
    }
    MPI_Finalize();
    mpi_on = 0;
}

void mcei_transport_abort(int status)
{
    if (mpi_on)
        MPI_Abort(MPI_COMM_WORLD, status);
    _exit(status);
}

typedef struct reqvec {
    MPI_Request *r;
    size_t n, cap;
} reqvec_t;

static MPI_Request *req_new(reqvec_t *v)
{
    if (v->n == v->cap) {
        size_t nc = v->cap ? 2 * v->cap : 64;
        MPI_Request *r = realloc(v->r, nc * sizeof(*r));
        if (r == NULL)
            return NULL;
        v->r = r;
        v->cap = nc;
    }
    return &v->r[v->n++];
}

static int post_chunks(reqvec_t *v, void *buf, size_t size, int peer, int send)
{
    for (size_t off = 0; off < size; off += CHUNK) {
        size_t len = size - off < CHUNK ? size - off : CHUNK;
        MPI_Request *r = req_new(v);
        if (r == NULL)
            return MCE_ERR_NOMEM;
        if (send)
            MPI_Isend((char *)buf + off, (int)len, MPI_BYTE, peer, TAG_PAYLOAD,
                      comm, r);
        else
            MPI_Irecv((char *)buf + off, (int)len, MPI_BYTE, peer, TAG_PAYLOAD,
                      comm, r);
    }
    return MCE_OK;
}

/* Descriptors that ride in the window's first collective with the
 * summary: most windows send few messages and need no second one. */
#define INLINE_WIRES 8
typedef struct window_block {
    mcei_window_info_t info;
    mcei_wire_t w[INLINE_WIRES];
} window_block_t;

/* Collective over comm (from shm_setup): on when every rank can read a
 * word of the next rank's memory.  Yama's default policy lets a process
 * read only its descendants': each rank allows its peers first, as Open
 * MPI's shared-memory transport does. */
#define CMA_PROBE(rank) (UINT64_C(0x6d63656d75000000) | (uint64_t)(rank))
static void cma_setup(void)
{
#if defined(__linux__) && defined(PR_SET_PTRACER)
    /* A word each rank reads from the next one (alive until the
     * reduction: every read is over by then). */
    volatile uint64_t probe = CMA_PROBE(my_rank);
    struct {
        int64_t pid;
        uint64_t addr;
    } me = {(int64_t)getpid(), (uint64_t)(uintptr_t)&probe}, *all;
    int peer = (my_rank + 1) % n_ranks, ok = 0, all_ok = 0;
    uint64_t got = 0;

    (void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    all = calloc((size_t)n_ranks, sizeof(*all));
    cma.pids = calloc((size_t)n_ranks, sizeof(*cma.pids));
    if (all == NULL || cma.pids == NULL)
        mcei_fatal("out of memory setting up the window exchange");
    MPI_Allgather(&me, (int)sizeof(me), MPI_BYTE, all, (int)sizeof(me),
                  MPI_BYTE, comm);
    {
        struct iovec l = {&got, sizeof(got)};
        struct iovec r = {(void *)(uintptr_t)all[peer].addr, sizeof(got)};
        ok = process_vm_readv((pid_t)all[peer].pid, &l, 1, &r, 1, 0) ==
                 (ssize_t)sizeof(got) &&
             got == CMA_PROBE(peer);
    }
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    for (int r = 0; r < n_ranks; r++)
        cma.pids[r] = (pid_t)all[r].pid;
    free(all);
    cma.on = all_ok;
#endif
}

/* Collective over comm, at the first window (every rank reaches it with
 * the same configuration): on when the option allows it and every rank of
 * comm shares this host's memory. */
static void shm_setup(const mcei_engine_t *eng)
{
    MPI_Comm host;
    int hn = 0;
    size_t part = (SUM_FIELDS + (size_t)n_ranks) * sizeof(uint64_t);
    MPI_Aint size;
    char *mine;

    shm.state = -1;
    if (eng->cfg.exchange == MCEI_EXCHANGE_MPI || n_ranks < 2)
        return;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                            &host) != MPI_SUCCESS)
        return;
    MPI_Comm_size(host, &hn);
    MPI_Comm_free(&host);
    if (hn != n_ranks) /* the same answer on every rank */
        return;
    shm.max = sizeof(window_block_t) > part ? sizeof(window_block_t) : part;
    shm.max = (shm.max + 63) / 64 * 64;
    shm.ring = SHM_RING_BYTES / shm.max;
    shm.ring = shm.ring < 2              ? 2
               : shm.ring > SHM_RING_MAX ? SHM_RING_MAX
                                         : shm.ring;
    size = (MPI_Aint)(SHM_HDR + shm.ring * shm.max);
    shm.base = calloc((size_t)n_ranks, sizeof(*shm.base));
    if (shm.base == NULL ||
        MPI_Win_allocate_shared(size, 64, MPI_INFO_NULL, comm, &mine,
                                &shm.win) != MPI_SUCCESS)
        mcei_fatal("cannot allocate the shared-memory window exchange");
    for (int r = 0; r < n_ranks; r++) {
        MPI_Aint sz;
        int du;
        if (MPI_Win_shared_query(shm.win, r, &sz, &du, &shm.base[r]) !=
            MPI_SUCCESS)
            mcei_fatal("cannot map rank %d's window-exchange slot", r);
    }
    atomic_init((_Atomic uint64_t *)(void *)mine, 0);
    atomic_init((_Atomic uint64_t *)(void *)(mine + 64), 0);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, shm.win);
    MPI_Barrier(comm); /* every slot initialised before the first use */
    shm.state = 1;
    /* Only a replicated model delivers every message on every rank, so
     * that a sender knows when its payload has been read. */
    if (eng->cfg.exchange == MCEI_EXCHANGE_AUTO && !eng->net.ops->partitioned)
        cma_setup();
}

/* Keep MPI progressing while we wait: a payload receive that completed
 * here may still owe its sender an acknowledgement queued in our
 * transport (a rendezvous's FIN when the shared-memory FIFO was full);
 * without progress the sender waits for it and never publishes. */
static void shm_progress(const backoff_t *b)
{
    int flag;
    if (b->slept || b->it % 64 == 0) /* a probe: 64 spins */
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, MPI_STATUS_IGNORE);
}

/* Before writing exchange @p g into ring buffer g % ring: every other
 * rank has finished reading exchange g - ring, the buffer's last use
 * (read counters only grow, so a minimum seen once holds). */
static void shm_wait_ring(uint64_t g)
{
    if (g <= shm.ring || shm.min_read >= g - shm.ring)
        return;
    for (backoff_t b = backoff_start();; backoff_pause(&b)) {
        uint64_t lo = UINT64_MAX;
        for (int r = 0; r < n_ranks; r++) {
            uint64_t v;
            if (r == my_rank)
                continue;
            v = atomic_load_explicit(SHM_READ(r), memory_order_acquire);
            lo = v < lo ? v : lo;
        }
        if (lo >= g - shm.ring) {
            shm.min_read = lo;
            return;
        }
        shm_progress(&b);
    }
}

/* Allgather of @p bytes (<= shm.max) from the ranks @p active marks
 * (NULL: all) into @p all; a rank not marked publishes nothing and its
 * block in @p all is left as it was.  Of each block only used(block)
 * bytes are copied (NULL: all of them): most windows carry no
 * descriptor, and copying the unused ones moved a kilobyte of cache
 * lines between cores per rank and window. */
static void shm_allgather(const void *mine, size_t bytes, void *all,
                          size_t (*used)(const void *), const uint8_t *active)
{
    uint64_t g = ++shm.gen;
    size_t off = SHM_HDR + (size_t)(g % shm.ring) * shm.max;
    size_t mine_bytes = used ? used(mine) : bytes;
    if (active == NULL || active[my_rank]) {
        shm_wait_ring(g);
        memcpy(shm.base[my_rank] + off, mine, mine_bytes);
        atomic_store_explicit(SHM_GEN(my_rank), g, memory_order_release);
    }
    for (int r = 0; r < n_ranks; r++) {
        char *dst = (char *)all + (size_t)r * bytes;
        if (active != NULL && !active[r])
            continue;
        if (r == my_rank) { /* from @p mine: reading the slot back cost */
            memcpy(dst, mine, mine_bytes);
            continue;
        }
        /* Usually published already: no clock read for the backoff. */
        if (atomic_load_explicit(SHM_GEN(r), memory_order_acquire) < g)
            for (backoff_t b = backoff_start();
                 atomic_load_explicit(SHM_GEN(r), memory_order_acquire) < g;
                 backoff_pause(&b))
                shm_progress(&b);
        if (used != NULL) {
            size_t head = used(NULL); /* the part that says how much */
            memcpy(dst, shm.base[r] + off, head);
            memcpy(dst + head, shm.base[r] + off + head, used(dst) - head);
        } else {
            memcpy(dst, shm.base[r] + off, bytes);
        }
    }
    atomic_store_explicit(SHM_READ(my_rank), g, memory_order_release);
}

/* A window block's used bytes: its summary and its inline descriptors
 * (NULL: the summary's size, which holds the count). */
static size_t block_used(const void *p)
{
    const window_block_t *b = p;
    uint64_t n;
    if (b == NULL)
        return offsetof(window_block_t, w);
    n = b->info.ninj < INLINE_WIRES ? b->info.ninj : INLINE_WIRES;
    return offsetof(window_block_t, w) + (size_t)n * sizeof(mcei_wire_t);
}

/* Free the kept payloads whose destination's rank has finished reading
 * two exchanges past their delivery's (the delivery, hence the read,
 * happens between the exchange it follows and the next one on every
 * rank; the second is a margin). */
static void cma_reclaim(void)
{
    while (cma.n > 0) {
        retired_t *e = &cma.q[cma.head];
        if (atomic_load_explicit(SHM_READ(e->rank), memory_order_acquire) <
            e->g + 2)
            return;
        free(e->p);
        cma.head = (cma.head + 1) % cma.cap;
        cma.n--;
    }
}

void mcei_transport_retire(mcei_engine_t *eng, mcei_msg_t *m)
{
    int dst;
    if (!cma.on || m->payload == NULL ||
        mcei_place_rank_of(&eng->place, m->w.src) != my_rank ||
        (dst = mcei_place_rank_of(&eng->place, m->w.dst)) == my_rank)
        return;
    if (cma.n == cma.cap) { /* grow, unwrapping the FIFO */
        size_t nc = cma.cap ? 2 * cma.cap : 256;
        retired_t *q = malloc(nc * sizeof(*q));
        if (q == NULL)
            mcei_fatal("out of memory keeping payloads for other ranks");
        for (size_t i = 0; i < cma.n; i++)
            q[i] = cma.q[(cma.head + i) % cma.cap];
        free(cma.q);
        cma.q = q;
        cma.cap = nc;
        cma.head = 0;
    }
    cma.q[(cma.head + cma.n) % cma.cap] =
        (retired_t){.p = m->payload, .rank = dst, .g = shm.gen};
    cma.n++;
    m->payload = NULL;
}

int mcei_transport_read(const mcei_msg_t *m, void *dst, size_t bytes)
{
#if defined(__linux__) && defined(PR_SET_PTRACER)
    size_t done = 0;
    if (bytes > m->w.size)
        return MCE_ERR_INVAL;
    while (done < bytes) { /* a read may stop short */
        struct iovec l = {(char *)dst + done, bytes - done};
        struct iovec r = {(void *)(uintptr_t)(m->raddr + done), bytes - done};
        ssize_t n = process_vm_readv(cma.pids[m->rrank], &l, 1, &r, 1, 0);
        if (n <= 0)
            return MCE_ERR_MPI;
        done += (size_t)n;
    }
    xstats.p2p++;
    xstats.p2p_bytes += bytes;
    return MCE_OK;
#else
    (void)m;
    (void)dst;
    (void)bytes;
    return MCE_ERR_MPI;
#endif
}

int mcei_transport_fetch(mcei_msg_t *m)
{
    size_t size = (size_t)m->w.size;
    char *buf = malloc(size);
    int rc;
    if (buf == NULL)
        return MCE_ERR_NOMEM;
    if ((rc = mcei_transport_read(m, buf, size)) != MCE_OK) {
        free(buf);
        return rc;
    }
    m->payload = buf;
    m->raddr = 0;
    return MCE_OK;
}

static void combine(mcei_window_info_t *g, const mcei_window_info_t *r)
{
    g->ninj += r->ninj;
    g->blocked += r->blocked;
    g->done += r->done;
    g->polling += r->polling;
    g->stop += r->stop;
    g->in_flight += r->in_flight;
    if (r->next < g->next)
        g->next = r->next;
    if (r->model_next < g->model_next)
        g->model_next = r->model_next;
}

int mcei_transport_window(mcei_engine_t *eng, const mcei_window_info_t *mine,
                          mcei_window_info_t *global, mcei_msg_t ***all,
                          size_t *nall)
{
    window_block_t *blocks = NULL, *mb = NULL;
    MPI_Request coll;
    mcei_wire_t wstack[INLINE_WIRES]; /* most windows: no allocation */
    mcei_wire_t *wmine = NULL, *wover = NULL;
    int *counts = NULL, *displs = NULL;
    mcei_msg_t **out = NULL;
    reqvec_t reqs = {0};
    size_t total = 0, over = 0, k = 0;
    int rc = MCE_ERR_NOMEM;

    if (scratch.mb == NULL) {
        scratch.blocks = calloc((size_t)n_ranks, sizeof(*scratch.blocks));
        scratch.mb = calloc(1, sizeof(*scratch.mb));
        scratch.counts = calloc((size_t)n_ranks, sizeof(int));
        scratch.displs = calloc((size_t)n_ranks, sizeof(int));
        scratch.active = calloc((size_t)n_ranks, 1);
        if (!scratch.blocks || !scratch.mb || !scratch.counts ||
            !scratch.displs || !scratch.active) {
            scratch_free();
            goto out;
        }
    }
    blocks = scratch.blocks;
    mb = scratch.mb;
    counts = scratch.counts;
    displs = scratch.displs;
    wmine =
        eng->ninj <= INLINE_WIRES ? wstack : malloc(eng->ninj * sizeof(*wmine));
    if (!wmine)
        goto out;

    if (shm.state == 0)
        shm_setup(eng);
    if (cma.on)
        cma_reclaim();
    /* Payloads first, in injection order: MPI keeps per-pair order, and
     * receivers post in the same order from the gathered descriptors.
     * Or only their addresses, read at delivery (cma). */
    for (size_t i = 0; i < eng->ninj; i++) {
        mcei_msg_t *m = eng->inj[i];
        int peer = mcei_place_rank_of(&eng->place, m->w.dst);
        wmine[i] = m->w;
        if (peer != my_rank && m->w.size > MCEI_INLINE) {
            if (cma.on) {
                uint64_t a = (uint64_t)(uintptr_t)m->payload;
                memcpy(wmine[i].data, &a, sizeof(a));
                continue;
            }
            if (post_chunks(&reqs, m->payload, m->w.size, peer, 1) != MCE_OK)
                goto out;
            xstats.p2p++;
            xstats.p2p_bytes += m->w.size;
        }
    }
    mb->info = *mine;
    for (size_t i = 0; i < eng->ninj && i < INLINE_WIRES; i++)
        mb->w[i] = wmine[i];
    if (shm.state > 0) {
        uint8_t *act = scratch.active;
        /* Quiet ranks: a rank whose nodes got no delivery staged for the
         * window just run and whose last published next event (earliest
         * runnable node or timer) was at or after its horizon ran nothing
         * in it; its state, hence its summary, is what it last published,
         * and it injected nothing.  Every rank decides this alike from
         * the replicated model's deliveries (rank_got) and the summaries
         * it read, so nobody waits for a quiet rank's block: it keeps its
         * last one, with no descriptors. */
        for (int r = 0; r < n_ranks; r++) {
            act[r] = !scratch.primed || eng->rank_got == NULL ||
                     eng->rank_got[r] || blocks[r].info.next < eng->horizon;
            if (!act[r])
                blocks[r].info.ninj = 0;
        }
        scratch.primed = 1;
        if (eng->rank_got != NULL) /* marked anew until the next exchange */
            memset(eng->rank_got, 0, (size_t)n_ranks);
        if (!act[my_rank] && eng->ninj != 0)
            mcei_fatal("window exchange: this rank was to be quiet but "
                       "sent %zu messages (engine bug)",
                       eng->ninj);
        if (act[my_rank])
            xstats.collectives++;
        else
            xstats.quiet++;
        shm_allgather(mb, sizeof(*mb), blocks, block_used, act);
    } else {
        xstats.collectives++;
        if (MPI_Iallgather(mb, (int)sizeof(*mb), MPI_BYTE, blocks,
                           (int)sizeof(*mb), MPI_BYTE, comm,
                           &coll) != MPI_SUCCESS ||
            wait_all(1, &coll) != MCE_OK) {
            rc = MCE_ERR_MPI;
            goto out;
        }
    }
    memset(global, 0, sizeof(*global));
    global->next = global->model_next = MCEI_TIME_INF;
    for (int r = 0; r < n_ranks; r++) {
        uint64_t n = blocks[r].info.ninj;
        uint64_t extra = n > INLINE_WIRES ? n - INLINE_WIRES : 0;
        if (n > (uint64_t)INT32_MAX - total) {
            rc = MCE_ERR_RESOURCE;
            goto out;
        }
        counts[r] = (int)extra;
        displs[r] = (int)over;
        over += extra;
        total += n;
        combine(global, &blocks[r].info);
    }
    wover = over ? malloc(over * sizeof(*wover)) : NULL;
    out = malloc((total ? total : 1) * sizeof(*out));
    if ((over && !wover) || !out)
        goto out;
    /* Only windows with more descriptors than ride inline need a second
     * collective. */
    if (over > 0) {
        int mine_extra = counts[my_rank];
        xstats.collectives++;
        if (MPI_Iallgatherv(wmine + (mine_extra ? INLINE_WIRES : 0), mine_extra,
                            wire_type, wover, counts, displs, wire_type, comm,
                            &coll) != MPI_SUCCESS ||
            wait_all(1, &coll) != MCE_OK) {
            rc = MCE_ERR_MPI;
            goto out;
        }
    }
    for (int r = 0; r < n_ranks; r++) {
        uint64_t n = blocks[r].info.ninj;
        for (uint64_t i = 0; i < n; i++) {
            const mcei_wire_t *w =
                i < INLINE_WIRES ? &blocks[r].w[i]
                                 : &wover[displs[r] + (int)(i - INLINE_WIRES)];
            mcei_msg_t *m;
            if (r == my_rank) {
                /* Our own messages keep their payload until the sends
                 * complete (below). */
                out[k++] = eng->inj[i];
                continue;
            }
            if ((m = mcei_msg_from_wire(w)) == NULL)
                goto out;
            out[k++] = m;
            if (mcei_place_rank_of(&eng->place, w->dst) == my_rank &&
                w->size > MCEI_INLINE) {
                if (cma.on) { /* read at delivery */
                    memcpy(&m->raddr, w->data, sizeof(m->raddr));
                    m->rrank = r;
                    continue;
                }
                if ((m->payload = malloc(w->size)) == NULL)
                    goto out;
                if (post_chunks(&reqs, m->payload, w->size, r, 0) != MCE_OK)
                    goto out;
            }
        }
    }
    if (reqs.n && wait_all((int)reqs.n, reqs.r) != MCE_OK) {
        rc = MCE_ERR_MPI;
        goto out;
    }
    /* Sent payloads are no longer needed here (cma: until delivery). */
    for (size_t i = 0; i < eng->ninj && !cma.on; i++) {
        mcei_msg_t *m = eng->inj[i];
        if (mcei_place_rank_of(&eng->place, m->w.dst) != my_rank) {
            free(m->payload);
            m->payload = NULL;
        }
    }
    *all = out;
    *nall = total;
    out = NULL;
    rc = MCE_OK;
out:
    free(reqs.r);
    free(out);
    free(wover);
    if (wmine != wstack)
        free(wmine);
    return rc;
}

/* One packed message per pair of ranks: [bytes][count][descriptors]
 * [payloads over MCEI_INLINE bytes, in descriptor order]. */
typedef struct packhdr {
    uint64_t bytes, count;
} packhdr_t;

static int send_packed(reqvec_t *v, char *buf, size_t bytes, int peer)
{
    for (size_t off = 0; off < bytes; off += CHUNK) {
        size_t len = bytes - off < CHUNK ? bytes - off : CHUNK;
        MPI_Request *r = req_new(v);
        if (r == NULL)
            return MCE_ERR_NOMEM;
        MPI_Isend(buf + off, (int)len, MPI_BYTE, peer, TAG_PART, comm, r);
        xstats.p2p++;
    }
    xstats.p2p_bytes += bytes;
    return MCE_OK;
}

/* Receive one packed message from whoever sent first; append its
 * messages to out[*k]. */
static int recv_packed(mcei_msg_t **out, size_t *k, size_t cap)
{
    MPI_Status st;
    int n;
    char *buf;
    packhdr_t h;
    size_t pos;
    if (probe_any(TAG_PART, &st) != MCE_OK)
        return MCE_ERR_MPI;
    MPI_Get_count(&st, MPI_BYTE, &n);
    if (n < (int)sizeof(h) || (buf = malloc((size_t)n)) == NULL)
        return MCE_ERR_NOMEM;
    MPI_Recv(buf, n, MPI_BYTE, st.MPI_SOURCE, TAG_PART, comm,
             MPI_STATUS_IGNORE);
    memcpy(&h, buf, sizeof(h));
    if (h.bytes > (size_t)n) { /* the rest follows in chunks */
        char *nb = realloc(buf, h.bytes);
        if (nb == NULL) {
            free(buf);
            return MCE_ERR_NOMEM;
        }
        buf = nb;
        for (size_t off = (size_t)n; off < h.bytes; off += CHUNK) {
            size_t len = h.bytes - off < CHUNK ? h.bytes - off : CHUNK;
            MPI_Recv(buf + off, (int)len, MPI_BYTE, st.MPI_SOURCE, TAG_PART,
                     comm, MPI_STATUS_IGNORE);
        }
    }
    if (h.count > cap - *k) {
        free(buf);
        return MCE_ERR_RESOURCE;
    }
    pos = sizeof(h) + h.count * sizeof(mcei_wire_t);
    for (uint64_t i = 0; i < h.count; i++) {
        mcei_wire_t w;
        mcei_msg_t *m;
        memcpy(&w, buf + sizeof(h) + i * sizeof(w), sizeof(w));
        if ((m = mcei_msg_from_wire(&w)) == NULL) {
            free(buf);
            return MCE_ERR_NOMEM;
        }
        out[(*k)++] = m;
        if (w.size > MCEI_INLINE) {
            if ((m->payload = malloc(w.size)) == NULL) {
                free(buf);
                return MCE_ERR_NOMEM;
            }
            memcpy(m->payload, buf + pos, w.size);
            pos += w.size;
        }
    }
    free(buf);
    return MCE_OK;
}

int mcei_transport_window_part(mcei_engine_t *eng,
                               const mcei_window_info_t *mine,
                               mcei_window_info_t *global, mcei_msg_t ***local,
                               size_t *nlocal)
{
    size_t nvec = SUM_FIELDS + (size_t)n_ranks, k = 0, expect, nmine = 0;
    MPI_Request coll;
    uint64_t *vec = calloc(nvec, sizeof(*vec));
    size_t *bytes = calloc((size_t)n_ranks, sizeof(*bytes));
    char **bufs = calloc((size_t)n_ranks, sizeof(*bufs));
    size_t *fill = calloc((size_t)n_ranks, sizeof(*fill));
    mcei_msg_t **out = NULL;
    reqvec_t reqs = {0};
    int rc = MCE_ERR_NOMEM;

    if (!vec || !bytes || !bufs || !fill)
        goto out;
    _Static_assert(sizeof(mcei_window_info_t) == SUM_FIELDS * sizeof(uint64_t),
                   "the summary is SUM_FIELDS words");
    memcpy(vec, mine, sizeof(*mine));
    for (size_t i = 0; i < eng->ninj; i++) {
        const mcei_msg_t *m = eng->inj[i];
        int r = mcei_place_rank_of(&eng->place, m->w.dst);
        if (r == my_rank) {
            nmine++;
            continue;
        }
        if (bytes[r] == 0)
            bytes[r] = sizeof(packhdr_t);
        bytes[r] +=
            sizeof(mcei_wire_t) + (m->w.size > MCEI_INLINE ? m->w.size : 0);
        vec[SUM_FIELDS + (size_t)r]++;
    }
    xstats.collectives++;
    if (shm.state == 0)
        shm_setup(eng);
    if (shm.state > 0) {
        /* Every rank reduces the same vectors in the same order. */
        uint64_t *allv = malloc((size_t)n_ranks * nvec * sizeof(*allv));
        int len = (int)nvec;
        if (allv == NULL)
            goto out;
        shm_allgather(vec, nvec * sizeof(*vec), allv, NULL, NULL);
        memcpy(vec, allv, nvec * sizeof(*vec));
        for (int r = 1; r < n_ranks; r++)
            summary_reduce(allv + (size_t)r * nvec, vec, &len, NULL);
        free(allv);
    } else if (MPI_Iallreduce(MPI_IN_PLACE, vec, (int)nvec, MPI_UINT64_T,
                              summary_op, comm, &coll) != MPI_SUCCESS ||
               wait_all(1, &coll) != MCE_OK) {
        rc = MCE_ERR_MPI;
        goto out;
    }
    memcpy(global, vec, sizeof(*global));
    expect = vec[SUM_FIELDS + (size_t)my_rank];
    /* Pack and send what goes to each other rank. */
    for (int r = 0; r < n_ranks; r++) {
        packhdr_t h = {bytes[r], 0};
        if (bytes[r] == 0)
            continue;
        if ((bufs[r] = malloc(bytes[r])) == NULL)
            goto out;
        fill[r] = sizeof(h);
        for (size_t i = 0; i < eng->ninj; i++) /* descriptors */
            if (mcei_place_rank_of(&eng->place, eng->inj[i]->w.dst) == r) {
                memcpy(bufs[r] + fill[r], &eng->inj[i]->w, sizeof(mcei_wire_t));
                fill[r] += sizeof(mcei_wire_t);
                h.count++;
            }
        for (size_t i = 0; i < eng->ninj; i++) { /* then payloads */
            const mcei_msg_t *m = eng->inj[i];
            if (m->w.size > MCEI_INLINE &&
                mcei_place_rank_of(&eng->place, m->w.dst) == r) {
                memcpy(bufs[r] + fill[r], m->payload, m->w.size);
                fill[r] += m->w.size;
            }
        }
        memcpy(bufs[r], &h, sizeof(h));
        if (send_packed(&reqs, bufs[r], bytes[r], r) != MCE_OK)
            goto out;
    }
    if ((out = malloc((nmine + expect + 1) * sizeof(*out))) == NULL)
        goto out;
    for (size_t i = 0; i < eng->ninj; i++) {
        mcei_msg_t *m = eng->inj[i];
        if (mcei_place_rank_of(&eng->place, m->w.dst) == my_rank)
            out[k++] = m;
    }
    while (k < nmine + expect)
        if ((rc = recv_packed(out, &k, nmine + expect)) != MCE_OK)
            goto out;
    rc = MCE_ERR_NOMEM;
    if (reqs.n && wait_all((int)reqs.n, reqs.r) != MCE_OK) {
        rc = MCE_ERR_MPI;
        goto out;
    }
    /* What went to other ranks is theirs now. */
    for (size_t i = 0; i < eng->ninj; i++) {
        mcei_msg_t *m = eng->inj[i];
        if (mcei_place_rank_of(&eng->place, m->w.dst) != my_rank)
            mcei_msg_release(m);
    }
    *local = out;
    *nlocal = k;
    out = NULL;
    rc = MCE_OK;
out:
    if (out != NULL) /* received messages not handed over */
        for (size_t i = 0; i < k; i++)
            if (mcei_place_rank_of(&eng->place, out[i]->w.src) != my_rank)
                mcei_msg_release(out[i]);
    free(out);
    for (int r = 0; bufs && r < n_ranks; r++)
        free(bufs[r]);
    free(reqs.r);
    free(fill);
    free(bufs);
    free(bytes);
    free(vec);
    return rc;
}

int mcei_transport_gather(const void *recs, size_t nrec, size_t recsize,
                          void **out, size_t *nout)
{
    int *counts = NULL, *displs = NULL, n = (int)(nrec * recsize);
    size_t total = 0;
    char *buf = NULL;

    if (!mpi_on || n_ranks == 1) {
        if ((buf = malloc(nrec * recsize + 1)) == NULL)
            return MCE_ERR_NOMEM;
        memcpy(buf, recs, nrec * recsize);
        *out = buf;
        *nout = nrec;
        return MCE_OK;
    }
    if (my_rank == 0) {
        counts = malloc((size_t)n_ranks * sizeof(int));
        displs = malloc((size_t)n_ranks * sizeof(int));
        if (!counts || !displs)
            mcei_fatal("out of memory in gather");
    }
    MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, comm);
    if (my_rank == 0) {
        for (int r = 0; r < n_ranks; r++) {
            displs[r] = (int)total;
            total += (size_t)counts[r];
        }
        if ((buf = malloc(total + 1)) == NULL)
            mcei_fatal("out of memory in gather");
    }
    MPI_Gatherv(recs, n, MPI_BYTE, buf, counts, displs, MPI_BYTE, 0, comm);
    free(counts);
    free(displs);
    *out = buf;
    *nout = my_rank == 0 ? total / recsize : 0;
    return MCE_OK;
}

int mcei_transport_gather_stream(FILE *mine, FILE *out)
{
    char buf[1 << 16];
    size_t n;
    rewind(mine);
    if (my_rank == 0) {
        while ((n = fread(buf, 1, sizeof(buf), mine)) > 0)
            fwrite(buf, 1, n, out);
    }
    if (!mpi_on || n_ranks == 1)
        return MCE_OK;
    if (my_rank == 0) {
        for (int r = 1; r < n_ranks; r++) {
            for (;;) {
                MPI_Status st;
                int cnt;
                MPI_Recv(buf, (int)sizeof(buf), MPI_BYTE, r, TAG_STREAM, comm,
                         &st);
                MPI_Get_count(&st, MPI_BYTE, &cnt);
                if (cnt == 0)
                    break;
                fwrite(buf, 1, (size_t)cnt, out);
            }
        }
    } else {
        while ((n = fread(buf, 1, sizeof(buf), mine)) > 0)
            MPI_Send(buf, (int)n, MPI_BYTE, 0, TAG_STREAM, comm);
        MPI_Send(buf, 0, MPI_BYTE, 0, TAG_STREAM, comm);
    }
    return MCE_OK;
}

int mcei_transport_max_int(int v, int *out)
{
    if (!mpi_on || n_ranks == 1) {
        *out = v;
        return MCE_OK;
    }
    MPI_Allreduce(&v, out, 1, MPI_INT, MPI_MAX, comm);
    return MCE_OK;
}
