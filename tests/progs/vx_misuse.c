/* Vertex misuse: every bad call gets its negative return and a message
 * naming the call and the node; the program ends normally.  With an
 * argument it commits one fatal misuse instead: "nopost" (extended
 * message with no rcvreq posted), "length" (rcvreq length mismatch) or
 * "pool" (a receiver whose pool is full and never reads: deadlock) or
 * "poll" (nodes polling with ntest and ntime forever: livelock).
 * "nullbuf" checks NULL buffers and extreme arguments, no misuse.
 * "exited": node 1 posts rcvreq into a buffer of its stack and returns;
 * node 0's extended message then arrives after node 1 exited (lost, an
 * error naming it; never written into node 1's dead stack).
 * "hold" is no misuse: node 0's pool is full, so its acknowledgement of
 * node 1's seventh message is postponed, and the channel from node 0 to
 * node 1 is lost meanwhile (Mudge et al. 1987, section 3): node 0's own
 * message to node 1 cannot leave before node 0 frees a buffer. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "vertex.h"

#define EXPECT(call, want)                                                     \
    do {                                                                       \
        int rc_ = (call);                                                      \
        if (rc_ != (want)) {                                                   \
            printf("vx_misuse: node %d: %s returned %d, expected %d\n", me,    \
                   #call, rc_, (want));                                        \
            return 1;                                                          \
        }                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    int me, pid, host, dim, flag = 5, s, t;
    static char buf[40000];
    whoami(&me, &pid, &host, &dim);
    int n = ncubesize(), nb = me ^ 1, far = me ^ 3;

    if (argc > 1 && strcmp(argv[1], "nopost") == 0) {
        chanmode(nb, VX_EXTENDED);
        if (me == 0) {
            send(buf, 10, nb, 1, &flag);
            flagwait(&flag);
        }
        mce_compute(MCE_MS);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "nullbuf") == 0) {
        /* NULL buffers with a length, extreme lengths, nodes and types:
         * each call fails alone (no flag written, nothing sent), and the
         * message that follows arrives intact. */
        char msg[8], got[8] = "";
        flag = 5;
        s = t = -1;
        EXPECT(nwrite(NULL, 8, nb, 1, NULL), VX_EINVAL);
        EXPECT(nread(NULL, 8, &s, &t, NULL), VX_EINVAL);
        EXPECT(nwrite(buf, INT_MIN, nb, 1, NULL), VX_EINVAL);
        EXPECT(nwrite(buf, 4, INT_MIN, 1, NULL), VX_ENODE);
        EXPECT(nwrite(buf, 4, INT_MAX, 1, NULL), VX_ENODE);
        EXPECT(nwrite(buf, 4, nb, -1, NULL), VX_EINVAL);
        EXPECT(send(NULL, 8, nb, 1, &flag), VX_EINVAL);
        EXPECT(send(buf, 8, nb, 1, NULL), VX_EINVAL);
        EXPECT(rcvreq(NULL, 8, nb, 1, &flag), VX_EINVAL);
        EXPECT(rcvreq(buf, 8, INT_MAX, 1, &flag), VX_ENODE);
        EXPECT(bcast(NULL, 8, 1, 1, &flag), VX_EINVAL);
        EXPECT(bcast(buf, 8, INT_MIN, 1, &flag), VX_ENOTNN);
        if (flag != 5) {
            printf("vx_misuse: node %d: flag written by a failed call\n", me);
            return 1;
        }
        snprintf(msg, sizeof(msg), "from %d", me);
        EXPECT(nwrite(msg, sizeof(msg), nb, 2, NULL), (int)sizeof(msg));
        s = nb;
        t = -1;
        EXPECT(nread(got, sizeof(got), &s, &t, NULL), (int)sizeof(got));
        if (t != 2 || strncmp(got, "from ", 5) != 0 || got[5] - '0' != nb) {
            printf("vx_misuse: node %d: got '%s' type %d\n", me, got, t);
            return 1;
        }
        s = t = -1;
        EXPECT(ntest(&s, &t), VX_EINVAL); /* nothing else came */
        printf("vx_misuse: node %d ok\n", me);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "poll") == 0) {
        /* node 0 polls with ntest for a message nobody sends, node 1
         * with ntime for a time it never reaches: a livelock */
        if (me == 0) {
            s = t = -1;
            while (ntest(&s, &t) < 0)
                s = t = -1;
        } else if (me == 1) {
            while (ntime() >= 0)
                ;
        }
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "exited") == 0) {
        chanmode(nb, VX_EXTENDED);
        if (me == 1) {
            char mine[16];
            rcvreq(mine, 10, 0, 1, &flag);
            return 0; /* mine and flag die with the node */
        }
        mce_compute(10 * MCE_MS); /* long after node 1 exited */
        if (me == 0)
            send(buf, 10, 1, 1, &flag);
        mce_compute(10 * MCE_MS);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "length") == 0) {
        chanmode(nb, VX_EXTENDED);
        if (me == 1)
            rcvreq(buf, 20, 0, 1, &flag);
        mce_compute(MCE_MS); /* the receive is posted before the send */
        if (me == 0)
            send(buf, 10, 1, 1, &flag);
        mce_compute(MCE_MS);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "hold") == 0) {
        /* 7 x (4000 + 16) bytes > the 27648-byte pool: 6 fit. */
        const mce_time_t fill = 100 * MCE_MS, hold = 100 * MCE_MS;
        if (me == 0) {
            mce_compute(fill); /* all 7 length requests have arrived */
            nwrite("x", 1, 1, 2, NULL);
            mce_compute(hold); /* the channel to node 1 stays lost */
            for (int i = 0; i < 7; i++) {
                s = 1;
                t = 1;
                nread(buf, 4000, &s, &t, NULL);
            }
        } else if (me == 1) {
            for (int i = 0; i < 7; i++)
                nwrite(buf, 4000, 0, 1, NULL);
            s = 0;
            t = 2;
            nread(buf, 10, &s, &t, NULL);
            mce_time_t at = mce_now();
            printf("vx_misuse hold: node 1 got node 0's message at %.3f ms: "
                   "%s\n",
                   (double)at / MCE_MS,
                   at > fill + hold ? "after node 0 freed a buffer"
                                    : "TOO EARLY");
            return at > fill + hold ? 0 : 1;
        }
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "pool") == 0) {
        /* Node 1 fills node 0's pool and then waits for a reply node 0
         * never sends: node 0 waits forever in nread for type 99. */
        if (me == 1)
            for (int i = 0; i < 20; i++)
                nwrite(buf, 4000, 0, 1, NULL);
        if (me <= 1) {
            s = -1;
            t = 99;
            nread(buf, 10, &s, &t, NULL);
        }
        return 0;
    }

    EXPECT(nwrite(buf, -1, nb, 1, NULL), VX_EINVAL);
    EXPECT(nwrite(buf, 10, n, 1, NULL), VX_ENODE);
    EXPECT(nwrite(buf, 10, -5, 1, NULL), VX_ENODE);
    EXPECT(nwrite(buf, 10, nb, 70000, NULL), VX_EINVAL);
    EXPECT(nwrite(buf, 30000, nb, 1, NULL), VX_ETOOBIG);
    s = n;
    t = 1;
    EXPECT(nread(buf, 10, &s, &t, NULL), VX_ENODE);
    s = -1;
    t = -2;
    EXPECT(nread(buf, 10, &s, &t, NULL), VX_EINVAL);
    EXPECT(nread(buf, 10, NULL, &t, NULL), VX_EINVAL);
    s = -1;
    t = 0x10000;
    EXPECT(ntest(&s, &t), VX_EINVAL); /* with a diagnostic (issue 19) */
    EXPECT(send(buf, 10, far, 1, &flag), VX_ENOTNN);
    EXPECT(send(buf, 10, nb, 1, &flag), VX_EMODE);
    EXPECT(send(buf, 10, nb, 1, NULL), VX_EINVAL);
    EXPECT(rcvreq(buf, 10, far, 1, &flag), VX_ENOTNN);
    EXPECT(rcvreq(buf, 10, nb, 1, &flag), VX_EMODE);
    EXPECT(chanmode(far, VX_EXTENDED), VX_ENOTNN);
    EXPECT(chanmode(nb, 3), VX_EINVAL);
    EXPECT(bcast(buf, 10, 0, 1, &flag), VX_ENOTNN);
    EXPECT(bcast(buf, 10, 1 << dim, 1, &flag), VX_ENOTNN);
    EXPECT(flagwait(NULL), VX_EINVAL);
    if (flag != 5) {
        printf("vx_misuse: node %d: flag written by a failed call\n", me);
        return 1;
    }
    /* Truncation: a 100-byte message into a 10-byte buffer gives 10 bytes
     * and the message length. */
    EXPECT(nwrite(buf, 100, nb, 42, NULL), 100);
    s = nb;
    t = 42;
    memset(buf, 0, 20);
    EXPECT(nread(buf, 10, &s, &t, NULL), 100);
    /* Extended Vertex used properly, including a neighbour broadcast. */
    EXPECT(chanmode(nb, VX_EXTENDED), 0);
    int rflag, sflag;
    char small[16] = "hello", got[16] = "";
    EXPECT(rcvreq(got, 6, nb, 9, &rflag), 0);
    EXPECT(ntest(&s, &t), -1); /* extended traffic is not in the queue */
    mce_compute(MCE_MS);
    EXPECT(send(small, 6, nb, 9, &sflag), 6);
    flagwait(&rflag);
    flagwait(&sflag);
    if (strcmp(got, "hello") != 0) {
        printf("vx_misuse: node %d: extended payload '%s'\n", me, got);
        return 1;
    }
    int mask = 0;
    for (int d = 0; d < dim; d++) {
        chanmode(me ^ (1 << d), VX_EXTENDED);
        mask |= 1 << d;
    }
    char bin[8][8];
    int bflags[8];
    for (int d = 0; d < dim; d++)
        EXPECT(rcvreq(bin[d], 4, me ^ (1 << d), 3, &bflags[d]), 0);
    mce_compute(MCE_MS);
    EXPECT(bcast("abc", 4, mask, 3, &sflag), 4);
    for (int d = 0; d < dim; d++) {
        flagwait(&bflags[d]);
        if (strcmp(bin[d], "abc") != 0) {
            printf("vx_misuse: node %d: bcast from dim %d '%s'\n", me, d,
                   bin[d]);
            return 1;
        }
    }
    flagwait(&sflag);
    printf("vx_misuse: node %d ok\n", me);
    return 0;
}
