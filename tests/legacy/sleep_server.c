/* A handler serves requests while its node sleeps (as the era's servers
 * did: post hrecv, then sleep between checks of the work done).  Node 0
 * answers every other node's request from the handler; each client
 * prints when its answer came: long before node 0's sleep ends. */
#include <stdio.h>
#include <unistd.h>
#include <nx.h>

#define REQ 10L
#define ANS 11L

long req, served;

void answer(type, count, node, ptype)
long type, count, node, ptype;
{
    long v = req * 2;
    served++;
    csend(ANS, (char *)&v, sizeof(v), node, 0L);
    if (served < numnodes() - 1)
        hrecv(REQ, (char *)&req, sizeof(req), answer);
}

main()
{
    long v;
    double t;

    if (mynode() == 0) {
        hrecv(REQ, (char *)&req, sizeof(req), answer);
        while (served < numnodes() - 1)
            sleep(10);
        printf("sleep_server: node 0 served %ld, awake at %.0f s\n", served,
               dclock());
    } else {
        v = mynode();
        csend(REQ, (char *)&v, sizeof(v), 0L, 0L);
        crecv(ANS, (char *)&v, sizeof(v));
        t = dclock();
        printf("sleep_server: node %ld got %ld %s\n", mynode(), v,
               t < 1.0 ? "while node 0 slept" : "after node 0 woke");
    }
}
