/*
 * matmul.c -- C = A x B with A distributed by blocks of rows.
 *
 * Every node makes its own N/P rows of A; node 0 makes B and sends it to
 * all the others with csend(..., -1, ...); each node multiplies its rows;
 * node 0 collects the blocks of C (placing each by infonode()), checks
 * them against a sequential product and the global checksum (gdsum), and
 * prints OK.  Usage: matmul [N]   (N a multiple of the number of nodes)
 *
 * A legacy-style iPSC/860 NX node program: it uses only <nx.h>.
 */
#include <stdio.h>
#include <stdlib.h>

#include "nx.h"

#define BTYPE 100 /* B, from node 0 */
#define CTYPE 200 /* blocks of C, to node 0 */

#define A(i, j) ((double)(((i) + 2 * (j)) % 7 - 3))
#define B(i, j) ((double)((3 * (i) + (j)) % 5 - 1))

int main(int argc, char *argv[])
{
    long me, p, n, rows, first, i, j, k, bytes, from, bad;
    double *a, *b, *c, *all, sum, check, work, t0, t1;

    me = mynode();
    p = numnodes();
    n = argc > 1 ? atol(argv[1]) : 64;
    if (n <= 0 || n % p != 0) {
        if (me == 0)
            printf("matmul: N=%ld is not a multiple of %ld nodes\n", n, p);
        return 1;
    }
    rows = n / p;
    first = me * rows;
    a = (double *)malloc(rows * n * sizeof(double));
    b = (double *)malloc(n * n * sizeof(double));
    c = (double *)malloc(rows * n * sizeof(double));
    if (a == NULL || b == NULL || c == NULL) {
        printf("matmul: node %ld: out of memory\n", me);
        return 1;
    }
    for (i = 0; i < rows; i++)
        for (j = 0; j < n; j++)
            a[i * n + j] = A(first + i, j);

    gsync();
    t0 = dclock();
    bytes = n * n * sizeof(double);
    if (me == 0) {
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++)
                b[i * n + j] = B(i, j);
        if (p > 1)
            csend(BTYPE, (char *)b, bytes, -1, 0);
    } else {
        crecv(BTYPE, (char *)b, bytes);
    }

    sum = 0.0;
    for (i = 0; i < rows; i++)
        for (j = 0; j < n; j++) {
            c[i * n + j] = 0.0;
            for (k = 0; k < n; k++)
                c[i * n + j] += a[i * n + k] * b[k * n + j];
            sum += c[i * n + j];
        }
    gdsum(&sum, 1, &work);
    t1 = dclock();

    bytes = rows * n * sizeof(double);
    if (me != 0) {
        csend(CTYPE, (char *)c, bytes, 0, 0);
        free(a);
        free(b);
        free(c);
        return 0;
    }

    all = (double *)malloc(n * n * sizeof(double));
    if (all == NULL) {
        printf("matmul: node 0: out of memory\n");
        return 1;
    }
    for (i = 0; i < rows * n; i++)
        all[i] = c[i];
    for (k = 1; k < p; k++) {
        crecv(CTYPE, (char *)c, bytes);
        from = infonode();
        for (i = 0; i < rows * n; i++)
            all[from * rows * n + i] = c[i];
    }

    bad = 0;
    check = 0.0;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double s = 0.0;
            for (k = 0; k < n; k++)
                s += A(i, k) * B(k, j);
            if (s != all[i * n + j])
                bad++;
            check += s;
        }
    if (check != sum)
        bad++;
    printf("matmul: %ld x %ld on %ld nodes, checksum %.0f, %.3f ms\n", n, n, p,
           sum, (t1 - t0) * 1e3);
    printf("matmul: %s\n", bad == 0 ? "OK" : "FAILED");
    free(all);
    free(a);
    free(b);
    free(c);
    return bad != 0;
}
