/* ring_vertex: the ring experiment of Mudge, Buzzard and Abdel-Rahman
 * (1987, section 5, Table 1).  The nodes form a ring embedded in the
 * hypercube by a Gray code, so every hop is between neighbours; a message
 * of m bytes goes around the ring R times and the time per hop gives
 * t_comm(m) = f + x m.  Run for several sizes with standard Vertex
 * (nwrite/nread) and extended Vertex (send/rcvreq), fit f and x by least
 * squares and print them beside the paper's values.
 *
 *   ./ring_vertex --mce-nodes=16 [--rounds=R] [--sizes=0,256,...]
 *                 [--scheme=standard|extended|both]
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "vertex.h"

#define MAX_SIZES 32

static int gray(int i)
{
    return i ^ (i >> 1);
}

/* The inverse of gray(): the ring position of @p node (a prefix XOR,
 * not a search: 65,536 nodes would make that quadratic). */
static int position_of(int node)
{
    int p = node;
    for (int s = 1; s < 32; s <<= 1)
        p ^= p >> s;
    return p;
}

/* Up to this many nodes node 0 gathers and releases everybody directly;
 * beyond, its communication buffers cannot hold a message from every node
 * at once (the run deadlocks in nwrite), so the start and end handshakes
 * go up and down the cube's binomial tree instead, neighbours only. */
#define FLAT_MAX 1024

static int tree_gather(int me, int n, char *buf, int type)
{
    for (int d = 1; d < n; d <<= 1) {
        if (me & d)
            return nwrite(buf, 0, me ^ d, type, NULL);
        int src = me | d, t = type, rc = nread(buf, 0, &src, &t, NULL);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static int tree_scatter(int me, int n, char *buf, int type)
{
    int low = me ? (me & -me) : n, rc;
    if (me) {
        int src = me ^ low, t = type;
        if ((rc = nread(buf, 0, &src, &t, NULL)) < 0)
            return rc;
    }
    for (int d = low >> 1; d >= 1; d >>= 1)
        if ((rc = nwrite(buf, 0, me | d, type, NULL)) < 0)
            return rc;
    return 0;
}

static int die(int me, const char *what, int rc)
{
    fprintf(stderr, "ring_vertex: node %d: %s failed (%d)\n", me, what, rc);
    return 1;
}

/* One measurement: seconds of virtual time per hop, on node 0. */
static int run(int extended, int bytes, int rounds, double *per_hop)
{
    int me, pid, host, dim, n = ncubesize();
    whoami(&me, &pid, &host, &dim);
    int pos = position_of(me);
    int right = gray((pos + 1) % n), left = gray((pos + n - 1) % n);
    char *buf = calloc(1, (size_t)bytes + 1);
    int rflag = 0, sflag = 1, src, type, rc;
    mce_time_t t0;

    if (buf == NULL)
        return die(me, "malloc", 0);
    if (n == 1) {
        *per_hop = 0;
        free(buf);
        return 0;
    }
    if (extended) {
        if ((rc = chanmode(right, VX_EXTENDED)) < 0 ||
            (rc = chanmode(left, VX_EXTENDED)) < 0 ||
            (rc = rcvreq(buf, bytes, left, 7, &rflag)) < 0)
            return die(me, "extended set-up", rc);
    }
    /* Everybody is ready (receives posted) before the token starts. */
    if (n > FLAT_MAX) {
        if ((rc = tree_gather(me, n, buf, 9)) < 0 ||
            (rc = tree_scatter(me, n, buf, 10)) < 0)
            return die(me, "start handshake", rc);
    } else if (me == 0) {
        for (int i = 1; i < n; i++) {
            src = -1;
            type = 9;
            if ((rc = nread(buf, 0, &src, &type, NULL)) < 0)
                return die(me, "nread (start)", rc);
        }
        for (int i = 1; i < n; i++)
            if ((rc = nwrite(buf, 0, i, 10, NULL)) < 0)
                return die(me, "nwrite (start)", rc);
    } else {
        src = 0;
        type = 10;
        if ((rc = nwrite(buf, 0, 0, 9, NULL)) < 0 ||
            (rc = nread(buf, 0, &src, &type, NULL)) < 0)
            return die(me, "start handshake", rc);
    }
    /* Round 0 warms up (the start messages may still hold the channels);
     * the clock starts when the token is back at node 0.  Every node
     * forwards the token as soon as it has it and re-posts its receive
     * afterwards, off the token's path. */
    t0 = 0;
    if (extended && pos == 0 && (rc = send(buf, bytes, right, 7, &sflag)) < 0)
        return die(me, "send", rc);
    for (int r = 0; r <= rounds; r++) {
        if (extended) {
            flagwait(&rflag);
            if (pos == 0 && r == 0)
                t0 = mce_now();
            if (pos == 0 && r == rounds)
                break;
            if ((rc = send(buf, bytes, right, 7, &sflag)) < 0)
                return die(me, "send", rc);
            flagwait(&sflag);
            if (r < rounds && (rc = rcvreq(buf, bytes, left, 7, &rflag)) < 0)
                return die(me, "rcvreq", rc);
        } else {
            if (r == 1 && pos == 0)
                t0 = mce_now();
            if (pos != 0) {
                src = left;
                type = 7;
                if ((rc = nread(buf, bytes, &src, &type, NULL)) != bytes)
                    return die(me, "nread", rc);
            }
            if ((rc = nwrite(buf, bytes, right, 7, NULL)) != bytes)
                return die(me, "nwrite", rc);
            if (pos == 0) {
                src = left;
                type = 7;
                if ((rc = nread(buf, bytes, &src, &type, NULL)) != bytes)
                    return die(me, "nread", rc);
            }
        }
    }
    *per_hop = (double)(mce_now() - t0) / (double)MCE_S / rounds / n;
    /* Nobody starts the next measurement (whose interrupts would steal
     * time from node 0) before node 0 has read its clock. */
    if (n > FLAT_MAX) {
        if ((rc = tree_scatter(me, n, buf, 11)) < 0)
            return die(me, "nwrite (end)", rc);
    } else if (me == 0) {
        for (int i = 1; i < n; i++)
            if ((rc = nwrite(buf, 0, i, 11, NULL)) < 0)
                return die(me, "nwrite (end)", rc);
    } else {
        src = 0;
        type = 11;
        if ((rc = nread(buf, 0, &src, &type, NULL)) < 0)
            return die(me, "nread (end)", rc);
    }
    if (extended) {
        chanmode(right, VX_STANDARD);
        chanmode(left, VX_STANDARD);
    }
    free(buf);
    return 0;
}

static void fit(const int *m, const double *t, int k, double *f, double *x)
{
    double sm = 0, st = 0, smm = 0, smt = 0;
    for (int i = 0; i < k; i++) {
        sm += m[i];
        st += t[i];
        smm += (double)m[i] * m[i];
        smt += (double)m[i] * t[i];
    }
    *x = (k * smt - sm * st) / (k * smm - sm * sm);
    *f = (st - *x * sm) / k;
}

int main(int argc, char **argv)
{
    int sizes[MAX_SIZES] = {0, 128, 256, 512, 1024, 2048, 4096};
    int nsizes = 7, rounds = 20, schemes = 3;
    int me = mce_node();

    long lsizes[MAX_SIZES], lrounds = rounds;
    int lnsizes = 0, scheme = 2;
    const app_opt_t opts[] = {
        {"rounds", APPO_LONG, &lrounds, NULL, 0, 1, NULL, "R",
         "messages around the ring per size (default 20)"},
        {"sizes", APPO_LIST, lsizes, &lnsizes, MAX_SIZES, 0, NULL, "A,B,...",
         "message sizes in bytes, at least two (default "
         "0,128,256,512,1024,2048,4096)"},
        {"scheme", APPO_CHOICE, &scheme, NULL, 0, 0, "standard|extended|both",
         NULL,
         "standard Vertex (nwrite/nread), extended Vertex, or both "
         "(default)"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc = app_parse("ring_vertex",
                        "The ring experiment of Mudge, Buzzard and "
                        "Abdel-Rahman 1987 on the NCUBE: time per message "
                        "and its fixed and per-byte parts.",
                        "[--rounds=R] [--sizes=A,B,...] "
                        "[--scheme=standard|extended|both] "
                        "[--format=table|csv|json]",
                        argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    if (lnsizes == 1) {
        if (me == 0)
            fprintf(stderr, "ring_vertex: --sizes: at least two sizes (the "
                            "fit needs two points)\n");
        return 2;
    }
    if (lnsizes > 0) {
        nsizes = lnsizes;
        for (int i = 0; i < nsizes; i++) {
            if (lsizes[i] > INT_MAX)
                return APP_PARSE_EXIT(APP_PARSE_ERROR);
            sizes[i] = (int)lsizes[i];
        }
    }
    if (lrounds > INT_MAX)
        return APP_PARSE_EXIT(APP_PARSE_ERROR);
    rounds = (int)lrounds;
    schemes = scheme + 1; /* standard 1, extended 2, both 3 */
    if (me == 0)
        app_note("ring_vertex: %d nodes, %d rounds per size\n", ncubesize(),
                 rounds);
    for (int s = 1; s <= 2; s++) {
        double t[MAX_SIZES], f, x;
        if (!(schemes & s))
            continue;
        for (int i = 0; i < nsizes; i++) {
            if (run(s == 2, sizes[i], rounds, &t[i]) != 0)
                return 1;
            if (me == 0)
                app_row("ring_vertex",
                        APP_FIELDS(
                            APP_S("scheme", s == 2 ? "extended" : "standard"),
                            APP_I("nodes", ncubesize()),
                            APP_I("bytes", sizes[i]),
                            APP_F("us_per_message", t[i] * 1e6)),
                        "ring_vertex: %-8s %6d bytes %10.2f us per message\n",
                        s == 2 ? "extended" : "standard", sizes[i], t[i] * 1e6);
        }
        if (me == 0) {
            fit(sizes, t, nsizes, &f, &x);
            app_row(
                "ring_vertex_fit",
                APP_FIELDS(APP_S("scheme", s == 2 ? "extended" : "standard"),
                           APP_F("fixed_us", f * 1e6),
                           APP_F("paper_fixed_us", s == 2 ? 83.20 : 466.40),
                           APP_F("us_per_byte", x * 1e6),
                           APP_F("paper_us_per_byte", s == 2 ? 1.29 : 3.14)),
                "ring_vertex: %-8s fixed %.2f us/message (Mudge et al. "
                "1987: %.2f), incremental %.4f us/byte (paper: %.2f)\n",
                s == 2 ? "extended" : "standard", f * 1e6,
                s == 2 ? 83.20 : 466.40, x * 1e6, s == 2 ? 1.29 : 3.14);
        }
    }
    if (me == 0)
        app_finish();
    return 0;
}
