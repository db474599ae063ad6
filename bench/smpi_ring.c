/* The ring of apps/ring as a plain MPI program, for the side-by-side
 * comparison with SimGrid's SMPI in bench/run.sh (built there with smpicc
 * when it is installed; not part of the build).  Each rank fills an
 * 8-byte message, sends it right, receives from the left and checks it,
 * ROUNDS times: the same work per message as apps/ring.
 *
 *   smpirun -np N -platform P -hostfile H ./smpi_ring ROUNDS BYTES */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static void fill(unsigned char *b, long n, int node, long r)
{
    for (long i = 0; i < n; i++)
        b[i] = (unsigned char)(node * 31 + r * 7 + i);
}
int main(int argc, char **argv)
{
    int me, n;
    long rounds = argc > 1 ? atol(argv[1]) : 1000,
         bytes = argc > 2 ? atol(argv[2]) : 8;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    unsigned char *out = malloc(bytes + 1), *in = malloc(bytes + 1),
                  *want = malloc(bytes + 1);
    int right = (me + 1) % n, left = (me + n - 1) % n;
    double t0 = MPI_Wtime();
    for (long r = 0; r < rounds; r++) {
        MPI_Request rq;
        MPI_Status st;
        int cnt;
        fill(out, bytes, me, r);
        MPI_Isend(out, (int)bytes, MPI_BYTE, right, 1, MPI_COMM_WORLD, &rq);
        MPI_Recv(in, (int)bytes, MPI_BYTE, left, 1, MPI_COMM_WORLD, &st);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        fill(want, bytes, left, r);
        if (cnt != bytes || st.MPI_SOURCE != left ||
            memcmp(in, want, (size_t)bytes) != 0) {
            fprintf(stderr, "smpi_ring: rank %d round %ld: corrupt message\n",
                    me, r);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    if (me == 0)
        printf(
            "smpi_ring: %d ranks, %ld rounds of %ld bytes: %.3f us simulated\n",
            n, rounds, bytes, (MPI_Wtime() - t0) * 1e6);
    free(out);
    free(in);
    free(want);
    MPI_Finalize();
    return 0;
}
