/* Matrix multiply as an iPSC/860 code of the era wrote it: K&R C, NX
 * calls declared by the program, a main that falls off its end, and its
 * own timing with dclock.  Each node makes the rows lo..hi-1 of
 * C = A x B (n x n, n from the command line, the product done reps
 * times); node 0 prints the checksum and the slowest node's time.  No
 * mcemu call: with --mce-compute=counted the time is the count of the
 * program's own operations at the machine's cycles per operation. */
#include <stdio.h>
#include <stdlib.h>
#include <nx.h>

#define MAXN 200

double a[MAXN][MAXN], b[MAXN][MAXN], c[MAXN][MAXN];
extern double dclock();
extern long mynode(), numnodes();

main(argc, argv)
int argc;
char **argv;
{
    int n, reps, i, j, k, r, me, np, lo, hi;
    double t0, t, s, sum, work[1];

    n = argc > 1 ? atoi(argv[1]) : 32;
    reps = argc > 2 ? atoi(argv[2]) : 1;
    if (n < 1 || n > MAXN)
        n = 32;
    me = mynode();
    np = numnodes();
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            a[i][j] = (i + j) % 5;
            b[i][j] = (i * j) % 3 + 1;
        }
    lo = me * n / np;
    hi = (me + 1) * n / np;
    gsync();
    t0 = dclock();
    for (r = 0; r < reps; r++)
        for (i = lo; i < hi; i++)
            for (j = 0; j < n; j++) {
                s = 0.0;
                for (k = 0; k < n; k++)
                    s += a[i][k] * b[k][j];
                c[i][j] = s;
            }
    t = dclock() - t0;
    sum = 0.0;
    for (i = lo; i < hi; i++)
        for (j = 0; j < n; j++)
            sum += c[i][j];
    gdsum(&sum, 1L, work);
    gdhigh(&t, 1L, work);
    if (me == 0)
        printf("matmul: n %d reps %d checksum %.0f time %.9f\n", n, reps,
               sum, t);
}
