/* The NX half of split_main.c. */
#include <stdio.h>
#include <nx.h>

void work()
{
    long me = mynode(), n = numnodes(), x[1], w[1];
    x[0] = me + 1;
    gisum(x, 1L, w);
    if (me == 0)
        printf("split: %ld nodes, gisum %ld (want %ld)\n", n, x[0],
               n * (n + 1) / 2);
}
