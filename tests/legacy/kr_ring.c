/* An NX ring as the era wrote it: K&R definitions, old-style extern
 * declarations of the NX calls (no prototypes), a main that falls off its
 * end.  Each node adds its number to a token passed around the ring; node
 * 0 prints the sum and the round-trip time. */
#include <stdio.h>
#include <nx.h>

extern void csend(), crecv();
extern long isend(), irecv();
extern void msgwait();
long mynode(), numnodes();
double dclock();

#define TOKEN 20

long next(me, n)
long me, n;
{
    return (me + 1) % n;
}

main(argc, argv)
int argc;
char *argv[];
{
    long me = mynode(), n = numnodes(), tok = 0, id;
    double t0 = dclock();

    if (n == 1) {
        printf("kr_ring: one node, sum 0\n");
        return;
    }
    if (me == 0) {
        tok = 0;
        csend((long)TOKEN, (char *)&tok, (long)sizeof(tok), next(me, n), 0L);
        crecv((long)TOKEN, (char *)&tok, (long)sizeof(tok));
        printf("kr_ring: %ld nodes, sum %ld (want %ld), round trip %.6f s\n",
               n, tok, n * (n - 1) / 2, dclock() - t0);
    } else {
        id = irecv((long)TOKEN, (char *)&tok, (long)sizeof(tok));
        msgwait(id);
        tok += me;
        id = isend((long)TOKEN, (char *)&tok, (long)sizeof(tok), next(me, n),
                   0L);
        msgwait(id);
    }
}
