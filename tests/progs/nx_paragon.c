/* Transfers on the emulated Intel Paragon (tests/fidelity/paragon.sh).
 * Every node starts at time 0; the operation's times are measured from 0
 * and node 0 prints them (maximum and minimum over the nodes taking part),
 * in ps:
 *   nx_paragon oneway M SRC DST [forced]  SRC sends M bytes to DST, whose
 *       receive is posted at 0: recv = DST's completion, send = SRC's
 *   nx_paragon pingpong M SRC DST         round trip SRC -> DST -> SRC
 *   nx_paragon share K M     nodes 0..K-1 of row 0 send to K..2K-1 of row 0:
 *       the link between columns K-1 and K carries all K messages
 *   nx_paragon fanout K M    node N/2 sends to nodes N/2+1 .. N/2+K at once
 *   nx_paragon fanin K M     nodes 1..K send to node 0 at once
 *   nx_paragon gsync         the cost of one gsync (after a first one)
 *   nx_paragon discard       a FORCED message to a node without a posted
 *       receive (the node computes 1 ms), then an UNFORCED one
 *   nx_paragon naive M       naive complete exchange: every node posts its
 *       N-1 receives, then sends to every other node */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nx.h"

#define REPORT_TYPE 99

static char *sbuf, *rbuf;

/* Node 0 prints the maximum and minimum of @p v over the nodes with
 * @p part set (each call has its own message type). */
static void report(const char *op, const char *what, int part, mce_time_t v)
{
    static long round;
    long me = mynode(), n = numnodes(), type = REPORT_TYPE + round++;
    long long msg[2] = {part, (long long)v};
    /* Reports are messages, which occupy the message co-processors: hold
     * them back until every node has measured (no measured operation
     * takes a second). */
    if (round == 1) {
        mce_compute(1000 * MCE_MS);
        gsync();
    }
    if (me != 0) {
        csend(type, msg, sizeof(msg), 0, 0);
        return;
    }
    mce_time_t hi = part ? v : 0, lo = part ? v : UINT64_MAX;
    long cnt = part != 0;
    for (long i = 1; i < n; i++) {
        crecv(type, msg, sizeof(msg));
        if (!msg[0])
            continue;
        cnt++;
        if ((mce_time_t)msg[1] > hi)
            hi = (mce_time_t)msg[1];
        if ((mce_time_t)msg[1] < lo)
            lo = (mce_time_t)msg[1];
    }
    printf("nx_paragon: op=%s nodes=%ld %s_max_ps=%" PRIu64
           " %s_min_ps=%" PRIu64 " %s_count=%ld\n",
           op, n, what, hi, what, cnt ? lo : 0, what, cnt);
}

static long arg(int argc, char **argv, int i)
{
    if (i >= argc) {
        fprintf(stderr, "nx_paragon: missing argument %d\n", i);
        exit(2);
    }
    return atol(argv[i]);
}

static void buffers(long m)
{
    sbuf = calloc(1, (size_t)m + 1);
    rbuf = calloc(1, (size_t)m + 1);
    if (sbuf == NULL || rbuf == NULL) {
        fprintf(stderr, "nx_paragon: out of memory\n");
        exit(2);
    }
}

int main(int argc, char **argv)
{
    long me = mynode(), n = numnodes();
    const char *op;
    if (argc < 2) {
        if (me == 0)
            fprintf(stderr, "usage: nx_paragon OP ARGS...\n");
        return 2;
    }
    op = argv[1];

    if (strcmp(op, "oneway") == 0 || strcmp(op, "pingpong") == 0) {
        long m = arg(argc, argv, 2), src = arg(argc, argv, 3),
             dst = arg(argc, argv, 4), type = 10, rid = 0;
        mce_time_t sent = 0, got = 0;
        if (argc > 5 && strcmp(argv[5], "forced") == 0)
            type |= FORCE_TYPE;
        buffers(m);
        if (me == dst)
            rid = irecv(type, rbuf, m);
        if (me == src) {
            csend(type, sbuf, m, dst, 0);
            sent = mce_now();
        }
        if (me == dst) {
            msgwait(rid);
            got = mce_now();
        }
        if (op[0] == 'o') {
            report(op, "send", me == src, sent);
            report(op, "recv", me == dst, got);
        } else {
            if (me == dst)
                csend(type + 1, rbuf, m, src, 0);
            if (me == src) {
                crecv(type + 1, rbuf, m);
                got = mce_now();
            }
            report(op, "rtt", me == src, got);
        }
    } else if (strcmp(op, "share") == 0 || strcmp(op, "fanout") == 0 ||
               strcmp(op, "fanin") == 0) {
        long k = arg(argc, argv, 2), m = arg(argc, argv, 3);
        long ids[64], nid = 0;
        int snd = 0, rcv = 0;
        mce_time_t sent = 0, got = 0;
        if (k < 1 || k > 64 || 2 * k > n) {
            if (me == 0)
                fprintf(stderr, "nx_paragon: K must be in 1..min(64, N/2)\n");
            return 2;
        }
        buffers(k * m);
        if (op[0] == 's') {
            /* row 0 (the test sets the width to at least 2K) */
            snd = me < k;
            rcv = me >= k && me < 2 * k;
            if (rcv)
                ids[nid++] = irecv(20, rbuf, m);
            if (snd)
                ids[nid++] = isend(20, sbuf, m, me + k, 0);
        } else if (op[3] == 'o') {
            long c = n / 2;
            snd = me == c;
            rcv = me > c && me <= c + k;
            if (rcv)
                ids[nid++] = irecv(20, rbuf, m);
            for (long j = 0; snd && j < k; j++)
                ids[nid++] = isend(20, sbuf + j * m, m, c + 1 + j, 0);
        } else {
            snd = me >= 1 && me <= k;
            rcv = me == 0;
            for (long j = 0; rcv && j < k; j++)
                ids[nid++] = irecv(20 + 1 + j, rbuf + j * m, m);
            if (snd)
                ids[nid++] = isend(20 + me, sbuf, m, 0, 0);
        }
        for (long j = 0; j < nid; j++)
            msgwait(ids[j]);
        if (snd)
            sent = mce_now();
        if (rcv)
            got = mce_now();
        report(op, "send", snd, sent);
        report(op, "recv", rcv, got);
    } else if (strcmp(op, "gsync") == 0) {
        gsync();
        mce_time_t t0 = mce_now();
        gsync();
        report(op, "gsync", 1, mce_now() - t0);
    } else if (strcmp(op, "discard") == 0) {
        long found = -1;
        buffers(64);
        if (me == 0) {
            csend(FORCE_TYPE | 5, sbuf, 64, 1, 0);
            csend(6, sbuf, 64, 1, 0);
        } else if (me == 1) {
            mce_compute(1000 * MCE_US); /* no receive posted meanwhile */
            crecv(6, rbuf, 64);
            found = iprobe(FORCE_TYPE | 5);
            printf("nx_paragon: op=discard node=1 forced_found=%ld\n", found);
        }
    } else if (strcmp(op, "naive") == 0) {
        long m = arg(argc, argv, 2);
        long *rids = calloc((size_t)n, sizeof(long)),
             *sids = calloc((size_t)n, sizeof(long));
        buffers(m * n);
        for (long j = 1; j < n; j++) {
            long from = (me + n - j) % n;
            rids[j] = irecv(1000 + from, rbuf + from * m, m);
        }
        for (long j = 1; j < n; j++)
            sids[j] = isend(1000 + me, sbuf, m, (me + j) % n, 0);
        for (long j = 1; j < n; j++) {
            msgwait(sids[j]);
            msgwait(rids[j]);
        }
        report(op, "done", 1, mce_now());
        free(rids);
        free(sids);
    } else {
        if (me == 0)
            fprintf(stderr, "nx_paragon: unknown operation '%s'\n", op);
        return 2;
    }
    free(sbuf);
    free(rbuf);
    return 0;
}
