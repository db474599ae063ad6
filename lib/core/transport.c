/* MPI transport: window exchange of descriptors (allgather), payloads
 * point to point, gathers for the summary and reports.  With one rank
 * (or no launcher) none of these functions calls MPI. */
#include "transport.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int mpi_on;
static int my_rank, n_ranks;
static MPI_Datatype wire_type = MPI_DATATYPE_NULL;

#define TAG_PAYLOAD 7
#define TAG_STREAM  8
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

int mcei_transport_init(int *argc, char ***argv, int *rank, int *nranks,
                        int *use_mpi)
{
    if (!launched_by_mpi()) {
        *rank = 0;
        *nranks = 1;
        *use_mpi = 0;
        return MCE_OK;
    }
    if (MPI_Init(argc, argv) != MPI_SUCCESS)
        return MCE_ERR_MPI;
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n_ranks);
    MPI_Type_contiguous((int)sizeof(mcei_wire_t), MPI_BYTE, &wire_type);
    MPI_Type_commit(&wire_type);
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
    if (wire_type != MPI_DATATYPE_NULL)
        MPI_Type_free(&wire_type);
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
                      MPI_COMM_WORLD, r);
        else
            MPI_Irecv((char *)buf + off, (int)len, MPI_BYTE, peer, TAG_PAYLOAD,
                      MPI_COMM_WORLD, r);
    }
    return MCE_OK;
}

int mcei_transport_window(mcei_engine_t *eng, const mcei_window_info_t *mine,
                          mcei_window_info_t *global, mcei_msg_t ***all,
                          size_t *nall)
{
    mcei_window_info_t *infos = NULL;
    mcei_wire_t *wmine = NULL, *wall = NULL;
    int *counts = NULL, *displs = NULL;
    mcei_msg_t **out = NULL;
    reqvec_t reqs = {0};
    size_t total = 0, k = 0;
    int rc = MCE_ERR_NOMEM;

    infos = malloc((size_t)n_ranks * sizeof(*infos));
    counts = malloc((size_t)n_ranks * sizeof(int));
    displs = malloc((size_t)n_ranks * sizeof(int));
    wmine = malloc((eng->ninj ? eng->ninj : 1) * sizeof(*wmine));
    if (!infos || !counts || !displs || !wmine)
        goto out;

    /* Payloads first, in injection order: MPI keeps per-pair order, and
     * receivers post in the same order from the gathered descriptors. */
    for (size_t i = 0; i < eng->ninj; i++) {
        mcei_msg_t *m = eng->inj[i];
        int peer = mcei_place_rank_of(&eng->place, m->w.dst);
        wmine[i] = m->w;
        if (peer != my_rank && m->w.size > MCEI_INLINE &&
            post_chunks(&reqs, m->payload, m->w.size, peer, 1) != MCE_OK)
            goto out;
    }
    if (MPI_Allgather(mine, (int)sizeof(*mine), MPI_BYTE, infos,
                      (int)sizeof(*mine), MPI_BYTE,
                      MPI_COMM_WORLD) != MPI_SUCCESS) {
        rc = MCE_ERR_MPI;
        goto out;
    }
    memset(global, 0, sizeof(*global));
    global->next = MCEI_TIME_INF;
    for (int r = 0; r < n_ranks; r++) {
        if (infos[r].ninj > (uint64_t)INT32_MAX - total) {
            rc = MCE_ERR_RESOURCE;
            goto out;
        }
        counts[r] = (int)infos[r].ninj;
        displs[r] = (int)total;
        total += infos[r].ninj;
        global->ninj += infos[r].ninj;
        global->blocked += infos[r].blocked;
        global->done += infos[r].done;
        global->polling += infos[r].polling;
        global->stop += infos[r].stop;
        if (infos[r].next < global->next)
            global->next = infos[r].next;
    }
    wall = malloc((total ? total : 1) * sizeof(*wall));
    out = malloc((total ? total : 1) * sizeof(*out));
    if (!wall || !out)
        goto out;
    /* Windows in which nobody sent anything need no second collective. */
    if (total > 0 &&
        MPI_Allgatherv(wmine, (int)eng->ninj, wire_type, wall, counts, displs,
                       wire_type, MPI_COMM_WORLD) != MPI_SUCCESS) {
        rc = MCE_ERR_MPI;
        goto out;
    }
    for (int r = 0; r < n_ranks; r++) {
        for (int i = 0; i < counts[r]; i++) {
            const mcei_wire_t *w = &wall[displs[r] + i];
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
                if ((m->payload = malloc(w->size)) == NULL)
                    goto out;
                if (post_chunks(&reqs, m->payload, w->size, r, 0) != MCE_OK)
                    goto out;
            }
        }
    }
    if (reqs.n &&
        MPI_Waitall((int)reqs.n, reqs.r, MPI_STATUSES_IGNORE) != MPI_SUCCESS) {
        rc = MCE_ERR_MPI;
        goto out;
    }
    /* Sent payloads are no longer needed here. */
    for (size_t i = 0; i < eng->ninj; i++) {
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
    free(wall);
    free(wmine);
    free(displs);
    free(counts);
    free(infos);
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
    MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (my_rank == 0) {
        for (int r = 0; r < n_ranks; r++) {
            displs[r] = (int)total;
            total += (size_t)counts[r];
        }
        if ((buf = malloc(total + 1)) == NULL)
            mcei_fatal("out of memory in gather");
    }
    MPI_Gatherv(recs, n, MPI_BYTE, buf, counts, displs, MPI_BYTE, 0,
                MPI_COMM_WORLD);
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
                MPI_Recv(buf, (int)sizeof(buf), MPI_BYTE, r, TAG_STREAM,
                         MPI_COMM_WORLD, &st);
                MPI_Get_count(&st, MPI_BYTE, &cnt);
                if (cnt == 0)
                    break;
                fwrite(buf, 1, (size_t)cnt, out);
            }
        }
    } else {
        while ((n = fread(buf, 1, sizeof(buf), mine)) > 0)
            MPI_Send(buf, (int)n, MPI_BYTE, 0, TAG_STREAM, MPI_COMM_WORLD);
        MPI_Send(buf, 0, MPI_BYTE, 0, TAG_STREAM, MPI_COMM_WORLD);
    }
    return MCE_OK;
}

int mcei_transport_max_int(int v, int *out)
{
    if (!mpi_on || n_ranks == 1) {
        *out = v;
        return MCE_OK;
    }
    MPI_Allreduce(&v, out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return MCE_OK;
}
