/*
 * ring.c -- pass a token around the ring of nodes.
 *
 * Node 0 starts a token at zero; every node adds its node number and
 * hands it on to the next one; after each trip node 0 checks that it
 * holds 0 + 1 + ... + (P-1).  Usage: ring [trips]
 *
 * A legacy-style iPSC/860 NX node program: it uses only <nx.h>.
 */
#include <stdio.h>
#include <stdlib.h>

#include "nx.h"

#define TOKEN 10 /* message type of the token */
#define DONE  11 /* message type of the final report */

int main(int argc, char *argv[])
{
    long me, p, next, trips, trip, token, want, bad;
    long report[2];
    double t0, t1;

    me = mynode();
    p = numnodes();
    next = (me + 1) % p;
    trips = argc > 1 ? atol(argv[1]) : 4;
    want = p * (p - 1) / 2;
    bad = 0;

    gsync();
    t0 = dclock();
    for (trip = 0; trip < trips; trip++) {
        if (me == 0) {
            token = 0;
            csend(TOKEN, (char *)&token, sizeof(token), next, 0);
            crecv(TOKEN, (char *)&token, sizeof(token));
            if (token != want || infonode() != p - 1)
                bad++;
        } else {
            crecv(TOKEN, (char *)&token, sizeof(token));
            if (infocount() != sizeof(token))
                bad++;
            token += me;
            csend(TOKEN, (char *)&token, sizeof(token), next, 0);
        }
    }
    t1 = dclock();

    /* every node reports to node 0 */
    report[0] = me;
    report[1] = bad;
    if (me != 0) {
        csend(DONE, (char *)report, sizeof(report), 0, 0);
    } else {
        for (trip = 1; trip < p; trip++) {
            crecv(DONE, (char *)report, sizeof(report));
            bad += report[1];
        }
        printf("ring: %ld nodes, %ld trips, token %ld, %.1f us per hop\n", p,
               trips, want, (t1 - t0) * 1e6 / (double)(trips * p));
        printf("ring: %s\n", bad == 0 ? "OK" : "FAILED");
    }
    return bad != 0;
}
