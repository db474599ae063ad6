/* Privatisation cost by size of the writable globals (make bench): a ring
 * of 8-byte messages in which every node, each time it runs, writes one
 * word of its GLOBALS-byte global array (one of four pages spread over it,
 * in turn) and checks the word it wrote last time.  Built once per size; the
 * ring is the same as apps/ring's, so the difference in time per switch against
 * --mce-privatize=off (pass "shared" after the rounds: no check) is the
 * cost of switching the globals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcemu.h"

#ifndef GLOBALS
#define GLOBALS 4096
#endif

static unsigned long big[GLOBALS / sizeof(unsigned long)];

int main(int argc, char **argv)
{
    const size_t words = sizeof(big) / sizeof(big[0]), stride = 4096 / 8;
    int me = mce_node(), n = mce_nodes();
    long rounds = argc > 1 ? atol(argv[1]) : 10000;
    int check = !(argc > 2 && strcmp(argv[2], "shared") == 0);
    size_t last = 0;
    char buf[8] = {0};
    for (long r = 0; r < rounds; r++) {
        /* four pages in turn, spread over the array */
        size_t w = ((size_t)(r % 4) * (words / 4) + (size_t)r % stride) % words;
        if (check && r > 0 && big[last] != (unsigned long)me + 1) {
            fprintf(stderr, "privswitch: node %d: globals not private\n", me);
            return 1;
        }
        big[w] = (unsigned long)me + 1;
        last = w;
        if (mce_send((me + 1) % n, 1, buf, sizeof(buf)) != MCE_OK ||
            mce_recv((me + n - 1) % n, 1, buf, sizeof(buf), NULL) != MCE_OK)
            return 1;
    }
    return 0;
}
