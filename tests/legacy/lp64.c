/* An NX program as the iPSC/860 and the Paragon ran it, where long and int
 * were both 32-bit: int arrays to the integer global operations, msginfo
 * and int info[] arrays, a K&R handler taking int, gopf with an int
 * function, gcol's int count, gcolx's and gsendx's int lists.  Built with
 * mcecc -mce-nx-long=32.  Built with -DNXINT=long (and the default
 * 64-bit NX) it is the same program in LP64 terms: the messages are the
 * same (payloads are double or char), so the digests agree.
 * Node 0 prints every result and the value it should have. */
#include <stdio.h>
#include <nx.h>

#ifndef NXINT
#define NXINT int
#endif

extern void csend(), crecv(), crecvx(), gisum(), gihigh(), gilow();
extern void giprod(), giand(), gior(), gland(), glor(), gopf(), gcol();
extern void gcolx(), gsendx(), msgwait(), cprobex(), gsync();
extern long irecvx(), iprobex(), hrecv(), mynode(), numnodes();

#define PING 30
#define DATA 31
#define HELLO 32
#define LIST 33

static NXINT hits, hnode, hcount, htype;
static char hbuf[16];

void hello(type, count, node, ptype)
NXINT type, count, node, ptype;
{
    hits++;
    hnode = node;
    hcount = count;
    htype = type;
}

NXINT dmax(a, b)
char *a, *b;
{
    double *x = (double *)a, *y = (double *)b;
    if (*y > *x)
        *x = *y;
    return 0;
}

static int bad;

static void check(what, got, want)
char *what;
long got, want;
{
    if (got != want) {
        printf("lp64: node %ld: %s = %ld, want %ld\n", mynode(), what, got,
               want);
        bad++;
    }
}

main()
{
    NXINT me = mynode(), n = numnodes(), i, id, cnt;
    NXINT x[8], work[8], info[8], lens[64], nodes[64];
    double d, dw, buf[4];
    char col[64 * 8];
    long sum1 = 0, prod = 1, high = 0, low = 0, and = -1, or = 0;

    /* integer global operations on int arrays */
    for (i = 0; i < n; i++) {
        sum1 += i + 1;
        prod *= (i % 3) + 1;
        and &= 0x7f0 | i;
        or |= 1 << i;
    }
    high = n - 1;
    low = -(n - 1);
    x[0] = me + 1;
    gisum(x, 1, work);
    check("gisum", (long)x[0], sum1);
    x[0] = me; x[1] = -me;
    gihigh(x, 2, work);
    check("gihigh", (long)x[0], high);
    check("gihigh[1]", (long)x[1], 0L);
    x[0] = -me; x[1] = me;
    gilow(x, 2, work);
    check("gilow", (long)x[0], low);
    check("gilow[1]", (long)x[1], 0L);
    x[0] = (me % 3) + 1;
    giprod(x, 1, work);
    check("giprod", (long)x[0], prod);
    x[0] = 0x7f0 | me; x[1] = 1 << me;
    giand(x, 1, work);
    gior(x + 1, 1, work);
    check("giand", (long)x[0], and);
    check("gior", (long)x[1], or);
    x[0] = me + 1; x[1] = me; x[2] = me;
    gland(x, 2, work);
    glor(x + 2, 1, work);
    check("gland", (long)x[0], 1L);
    check("gland[1]", (long)x[1], 0L);
    check("glor", (long)x[2], n > 1 ? 1L : 0L);

    /* gopf on doubles with an int function */
    d = me * 1.5;
    gopf(&d, (long)sizeof(d), &dw, dmax);
    check("gopf", (long)(d * 2), (long)((n - 1) * 3));

    /* messages described by msginfo and int info[] arrays */
    if (n > 1) {
        if (me == 0) {
            for (i = 1; i < n; i++) {
                crecvx(-1, buf, sizeof(buf), -1, -1, msginfo);
                check("msginfo type", (long)msginfo[0], (long)PING);
                check("msginfo count", (long)msginfo[1],
                      8L * (msginfo[2] < 4 ? msginfo[2] : 4));
            }
            for (i = 1; i < n; i++) {
                cprobex(DATA, i, -1, info);
                check("cprobex count", (long)info[1], 8L * (i % 4 + 1));
                check("cprobex node", (long)info[2], (long)i);
                id = irecvx(DATA, buf, sizeof(buf), i, -1, info);
                msgwait(id);
                check("irecvx count", (long)info[1], 8L * (i % 4 + 1));
                check("irecvx node", (long)info[2], (long)i);
                check("irecvx type", (long)info[0], (long)DATA);
            }
            while (iprobex(HELLO, -1, -1, info) == 0)
                ;
            check("iprobex type", (long)info[0], (long)HELLO);
            crecvx(HELLO, hbuf, sizeof(hbuf), -1, -1, info);
            check("crecvx count", (long)info[1], 3L);
        } else {
            buf[0] = me;
            csend(PING, buf, 8 * (me < 4 ? me : 4), 0, 0);
            csend(DATA, buf, 8 * (me % 4 + 1), 0, 0);
            if (me == n - 1)
                csend(HELLO, "hi", 3, 0, 0);
        }
        /* a handler taking int */
        if (me == 1)
            hrecv(HELLO, hbuf, sizeof(hbuf), hello);
        gsync();
        /* node 1 is blocked in crecv when HELLO comes: its handler runs */
        if (me == 0) {
            csend(HELLO, "hey!", 5, 1, 0);
            csend(DATA, buf, 8, 1, 0);
        }
        if (me == 1)
            crecv(DATA, buf, sizeof(buf));
        gsync();
        if (me == 1) {
            check("handler count", (long)hcount, 5L);
            check("handler node", (long)hnode, 0L);
            check("handler type", (long)htype, (long)HELLO);
        }
    }

    /* gcol's int count, gcolx's int lengths, gsendx's int nodes */
    for (i = 0; i < 8; i++)
        col[i] = (char)('a' + me);
    gcol(col, (long)(me % 3 + 1), col + 8, (long)(sizeof(col) - 8), &cnt);
    for (i = 0, sum1 = 0; i < n; i++)
        sum1 += i % 3 + 1;
    check("gcol count", (long)cnt, sum1);
    for (i = 0; i < n; i++)
        lens[i] = 2;
    gcolx(col, lens, col + 8);
    check("gcolx", (long)col[8 + 2 * (n - 1)], (long)('a' + n - 1));
    if (n > 2) {
        if (me == 0) {
            for (i = 1; i < n; i++)
                nodes[i - 1] = i;
            buf[0] = 42;
            gsendx(LIST, buf, 8, nodes, n - 1);
        } else {
            crecv(LIST, buf, sizeof(buf));
            check("gsendx", (long)buf[0], 42L);
        }
    }

    x[0] = bad;
    gisum(x, 1, work);
    if (me == 0)
        printf("lp64: %ld nodes, %ld int size, %s\n", (long)n,
               (long)sizeof(NXINT), x[0] == 0 ? "all right" : "WRONG");
}
