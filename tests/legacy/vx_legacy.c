/* An NCUBE Vertex program with the era's declarations (void whoami();
 * int nwrite(), nread();) and a K&R main without a return: every node
 * sends its number to node 0, which prints the sum. */
#include <stdio.h>
#include <vertex.h>

void whoami();
int nwrite(), nread(), ncubesize();

main()
{
    int me, pid, host, dim, n, src, type, v, sum, i, flag;

    whoami(&me, &pid, &host, &dim);
    n = ncubesize();
    if (me != 0) {
        nwrite((char *)&me, sizeof(me), 0, 7, &flag);
    } else {
        sum = 0;
        for (i = 1; i < n; i++) {
            src = -1;
            type = 7;
            nread((char *)&v, sizeof(v), &src, &type, &flag);
            sum += v;
        }
        printf("vx_legacy: %d nodes, dim %d, sum %d (want %d)\n", n, dim, sum,
               n * (n - 1) / 2);
    }
}
