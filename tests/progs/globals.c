/* Each node increments its own copies of globals; with privatisation every
 * node sees only its own updates.  Prints one line per node; exits 1 on a
 * mismatch. */
#include <stdio.h>
#include <string.h>

#include "mcemu.h"

static int counter;          /* .bss */
int initialised = 1000;      /* .data */
static char big[256 * 1024]; /* forces the memfd method when large */
static char name[32] = "unset";

int main(int argc, char **argv)
{
    int me = mce_node(), ok = 1,
        use_big = argc > 1 && strcmp(argv[1], "big") == 0;
    snprintf(name, sizeof(name), "node-%d", me);
    for (int r = 0; r < 5; r++) {
        counter++;
        initialised += me;
        if (use_big)
            big[me] += 1;
        /* Let every other node run in between. */
        mce_send((me + 1) % mce_nodes(), 1, NULL, 0);
        mce_recv((me + mce_nodes() - 1) % mce_nodes(), 1, NULL, 0, NULL);
    }
    char want[32];
    snprintf(want, sizeof(want), "node-%d", me);
    if (counter != 5 || initialised != 1000 + 5 * me ||
        strcmp(name, want) != 0 || (use_big && big[me] != 5))
        ok = 0;
    printf("globals: node %d counter=%d initialised=%d name=%s %s\n", me,
           counter, initialised, name, ok ? "ok" : "MIXED");
    return ok ? 0 : 1;
}
