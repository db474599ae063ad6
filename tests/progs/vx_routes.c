/* Standard Vertex end to end: every node sends a checked message to every
 * other node (multi-hop routes are stored and forwarded), node 3 (or 0)
 * broadcasts with dest 0xffff, wildcard nread writes source and type
 * back, ntest sees queued messages, messages to oneself work, and a burst
 * larger than the receiver's buffer pool completes because senders and
 * the receiver wait for buffers as on the machine. */
#include <stdio.h>
#include <string.h>

#include "vertex.h"

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            printf("vx_routes: node %d: ", me);                                \
            printf(__VA_ARGS__);                                               \
            printf("\n");                                                      \
            return 1;                                                          \
        }                                                                      \
    } while (0)

static void fill(char *b, int n, int from, int to)
{
    for (int i = 0; i < n; i++)
        b[i] = (char)(from * 7 + to * 13 + i);
}

int main(void)
{
    int me, pid, host, dim, n = ncubesize();
    static char out[4096], in[4096], want[4096];
    whoami(&me, &pid, &host, &dim);
    CHECK((1 << dim) == n, "dim %d for %d nodes", dim, n);

    /* All to all, 300 bytes, type = source. */
    for (int d = 0; d < n; d++) {
        fill(out, 300, me, d);
        CHECK(nwrite(out, 300, d, me, NULL) == 300, "nwrite to %d", d);
    }
    for (int k = 0; k < n; k++) {
        int src = -1, type = -1, len = nread(in, sizeof(in), &src, &type, NULL);
        CHECK(len == 300, "nread length %d", len);
        CHECK(src == type && src >= 0 && src < n, "source %d type %d", src,
              type);
        fill(want, 300, src, me);
        CHECK(memcmp(in, want, 300) == 0, "corrupt message from %d", src);
    }

    /* Broadcast from the root; everybody else receives one copy. */
    int root = n > 3 ? 3 : 0;
    if (me == root) {
        fill(out, 1000, root, 999);
        CHECK(nwrite(out, 1000, 0xffff, 500, NULL) == 1000, "broadcast");
    } else {
        int src = root, type = 500;
        CHECK(nread(in, sizeof(in), &src, &type, NULL) == 1000, "bcast nread");
        fill(want, 1000, root, 999);
        CHECK(memcmp(in, want, 1000) == 0, "corrupt broadcast");
    }

    /* ntest: a message from the left neighbour in the ring of ids. */
    int left = (me + n - 1) % n, right = (me + 1) % n;
    CHECK(nwrite(out, 64, right, 600, NULL) == 64, "nwrite ntest");
    int s = left, t = 600;
    while (ntest(&s, &t) < 0)
        ntime(); /* polling advances virtual time */
    CHECK(s == left && t == 600, "ntest wrote back %d %d", s, t);
    s = -1;
    t = 600;
    CHECK(nread(in, 64, &s, &t, NULL) == 64 && s == left, "nread after ntest");

    /* To oneself. */
    CHECK(nwrite("selfish", 8, me, 700, NULL) == 8, "self nwrite");
    s = me;
    t = 700;
    CHECK(nread(in, 8, &s, &t, NULL) == 8 && strcmp(in, "selfish") == 0,
          "self nread");

    /* A burst of 12 x 4 KB (48 KB > the 27 KB pool) from node 1 to node 0,
     * read only after a long computation on node 0. */
    if (n > 1 && me == 1)
        for (int i = 0; i < 12; i++) {
            fill(out, 4096, i, 0);
            CHECK(nwrite(out, 4096, 0, 800 + i, NULL) == 4096, "burst %d", i);
        }
    if (n > 1 && me == 0) {
        mce_compute(50 * MCE_MS);
        for (int i = 0; i < 12; i++) {
            s = 1;
            t = 800 + i;
            CHECK(nread(in, 4096, &s, &t, NULL) == 4096, "burst read %d", i);
            fill(want, 4096, i, 0);
            CHECK(memcmp(in, want, 4096) == 0, "burst %d corrupt", i);
        }
    }
    printf("vx_routes: node %d ok\n", me);
    return 0;
}
