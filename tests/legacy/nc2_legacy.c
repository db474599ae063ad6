/* An NCUBE 2 program as the era wrote it for nCX: no header (the nCUBE
 * compiler knew the calls), old-style declarations, a K&R main without a
 * return, global I/O mode with a stretch of local output, the global
 * reductions, node 0's broadcast, nwrite returning 0, amicclk and
 * n_time(&usec).  Build: mcecc -mce-api=ncube2 -DNCUBE nc2_legacy.c */
#include <stdio.h>

#ifdef NCUBE
double amicclk(), dsumn(), dmaxn(), dminn();
float fsumn();
int isumn(), imaxn(), iminn(), nwrite(), nread(), n_time();
void whoami(), nglobal(), nlocal(), nbrdcst(), nperror();
#endif

struct best {
    double fit;
    int node;
};

int me, proc, host, dim, nodes;

double work(n, k)
int n, k;
{
    double s;
    int i;

    s = 0.0;
    for (i = 1; i <= n; i++)
        s += 1.0 / (double)(i + k);
    return s;
}

main(argc, argv)
int argc;
char *argv[];
{
    double t0, t1, ta, part, sum, want, lo, hi;
    int usec, flag, src, type, v, i, rc, ok, nmax, nmin;
    struct best b, other;
    float fs;

    t0 = amicclk();
    nglobal();
    whoami(&me, &proc, &host, &dim);
    nodes = 1 << dim;
    printf("nc2_legacy: %d nodes, dimension %d\n", nodes, dim);

    /* every node's share, then the global sum, minimum and maximum */
    part = work(1000, me);
    ta = amicclk();
    sum = dsumn(part);
    ta = amicclk() - ta;
    want = 0.0;
    for (i = 0; i < nodes; i++)
        want += work(1000, i);
    lo = dminn(part);
    hi = dmaxn(part);
    ok = sum - want < 1e-9 && want - sum < 1e-9 && lo == work(1000, nodes - 1)
         && hi == work(1000, 0);
    printf("dsumn %.9f, dminn %.9f, dmaxn %.9f: %s\n", sum, lo, hi,
           isumn(ok) == nodes ? "right on every node" : "WRONG");
    printf("dsumn took %.3f us\n", ta);
    nmax = imaxn(me);
    nmin = iminn(me);
    fs = fsumn((float)me);
    printf("isumn %d (want %d), imaxn %d, iminn %d, fsumn %.1f\n",
           isumn(me + 1), nodes * (nodes + 1) / 2, nmax, nmin, fs);

    /* a ring: nCX's nwrite returns 0 */
    rc = nwrite((char *)&me, sizeof(me), (me + 1) % nodes, 11, &flag);
    src = -1;
    type = 11;
    nread((char *)&v, sizeof(v), &src, &type, &flag);
    ok = rc == 0 && v == (me + nodes - 1) % nodes && src == v;
    printf("ring: %d of %d nodes got their left neighbour's number\n",
           isumn(ok), nodes);

    /* node 0 finds the best and broadcasts it */
    b.fit = part;
    b.node = me;
    if (me == 0) {
        for (i = 1; i < nodes; i++) {
            src = i;
            type = 12;
            nread((char *)&other, sizeof(other), &src, &type, &flag);
            if (other.fit > b.fit)
                b = other;
        }
    } else {
        nwrite((char *)&b, sizeof(b), 0, 12, &flag);
    }
    nbrdcst((char *)&b, sizeof(b));
    printf("best %.9f from node %d, known to %d nodes\n", b.fit, b.node,
           isumn(b.node == 0 && b.fit == work(1000, 0)));

    /* local mode: the last node speaks for itself */
    nlocal();
    if (me == nodes - 1)
        printf("node %d of %d in local mode\n", me, nodes);
    nglobal();

    /* an error, told by nperror */
    if (nwrite((char *)&me, sizeof(me), nodes, 13, &flag) < 0 && me == 0)
        nperror("nc2_legacy");

    n_time(&usec);
    t1 = amicclk();
    printf("clocks: amicclk advanced %s, n_time %s\n",
           isumn(t1 > t0) == nodes ? "on every node" : "NOT",
           isumn(usec >= (int)t0) == nodes ? "agrees" : "DISAGREES");
    printf("nc2_legacy: done\n");
}
