/* A shared counter served by an NX handler, as the era wrote it (K&R
 * definitions, old-style declarations, main falling off its end): node 0
 * posts hrecv for requests and then blocks in crecv for the "all done"
 * messages; its handler answers every request with the next ticket while
 * node 0 is blocked.  Every other node takes TICKETS tickets.  The sum
 * of all tickets is fixed (0 + 1 + ... + total-1), whatever the order. */
#include <stdio.h>
#include <nx.h>

#define REQ 10
#define TICKET 11
#define DONE 12
#define TICKETS 5

extern void csend(), crecv();
extern long hrecv();
long mynode(), numnodes();

static long counter;
static long request;

static void serve(type, count, node, ptype)
long type, count, node, ptype;
{
    long t = counter++;
    csend((long)TICKET, (char *)&t, (long)sizeof(t), node, 0L);
    hrecv((long)REQ, (char *)&request, (long)sizeof(request), serve);
}

main()
{
    long me = mynode(), n = numnodes(), i, t, sum = 0, done;

    if (me == 0) {
        hrecv((long)REQ, (char *)&request, (long)sizeof(request), serve);
        for (i = 1; i < n; i++) {
            crecv((long)DONE, (char *)&t, (long)sizeof(t));
            sum += t;
        }
        printf("counter: %ld tickets, sum %ld (want %ld)\n", counter, sum,
               counter * (counter - 1) / 2);
    } else {
        for (i = 0; i < TICKETS; i++) {
            csend((long)REQ, (char *)&me, (long)sizeof(me), 0L, 0L);
            crecv((long)TICKET, (char *)&t, (long)sizeof(t));
            sum += t;
        }
        done = sum;
        csend((long)DONE, (char *)&done, (long)sizeof(done), 0L, 0L);
    }
}
