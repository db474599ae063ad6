/* Sizes 0 B .. 64 MiB between every pair of neighbours, then messages
 * received late, contents checked. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mcemu.h"

int main(void)
{
    static const size_t sizes[] = {0, 1, 31, 32, 33, 4096, 1 << 20, 64u << 20};
    int me = mce_node(), n = mce_nodes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    unsigned char *buf = malloc(64u << 20), *in = malloc(64u << 20);
    mce_msg_info_t info;
    if (!buf || !in)
        return 1;
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        for (size_t i = 0; i < sizes[s]; i++)
            buf[i] = (unsigned char)(i * 13 + (size_t)me);
        if (mce_send(right, (long)s, buf, sizes[s]) != MCE_OK ||
            mce_recv(left, (long)s, in, sizes[s], &info) != MCE_OK ||
            info.bytes != sizes[s]) {
            printf("bigmsg: node %d size %zu failed\n", me, sizes[s]);
            return 1;
        }
        for (size_t i = 0; i < sizes[s]; i++)
            if (in[i] != (unsigned char)(i * 13 + (size_t)left)) {
                printf("bigmsg: node %d size %zu byte %zu corrupt\n", me,
                       sizes[s], i);
                return 1;
            }
    }
    /* Late receives: each round's message is received two rounds later,
     * after the next two are sent and long computations, so it waits
     * unread across window exchanges (between ranks: read from the
     * sender's memory before the next exchange, while the sender frees
     * that copy and reuses the memory for the next round's). */
    for (int r = 0; r <= 9; r++) {
        for (size_t i = 0; i < 20000; i++)
            buf[i] = (unsigned char)(i * 7 + (size_t)(r * 31 + me));
        if (r < 8 && mce_send(right, 100 + r, buf, 20000) != MCE_OK)
            return 1;
        if (mce_compute((mce_time_t)500000000) != MCE_OK) /* 500 us */
            return 1;
        if (r < 2)
            continue;
        if (mce_recv(left, 100 + r - 2, in, 20000, &info) != MCE_OK ||
            info.bytes != 20000) {
            printf("bigmsg: node %d late round %d failed\n", me, r - 2);
            return 1;
        }
        for (size_t i = 0; i < 20000; i++)
            if (in[i] !=
                (unsigned char)(i * 7 + (size_t)((r - 2) * 31 + left))) {
                printf("bigmsg: node %d late round %d byte %zu corrupt\n", me,
                       r - 2, i);
                return 1;
            }
    }
    if (me == 0)
        printf("bigmsg: ok\n");
    free(buf);
    free(in);
    return 0;
}
