/*
 * nx_stats.c -- NX traffic whose message counts are known by hand
 * (tests/core/stats.sh): blocking, posted, ignored and handler receives,
 * a gsendx, a csendrecv, a long message, and global operations whose
 * own messages are no messages of the program.  Needs 4 nodes.  Each
 * node prints its mce_stats counts.
 *
 *   node 0 sends  type 1 (100 B) to 1, type 3 (50 B) to 3, type 4 (40 B)
 *                 to 2, type 5 (8 B) to 1 and 2 by gsendx: 5 msgs, 206 B;
 *                 receives type 8 (4000 B) from 2:         1 msg, 4000 B
 *   node 1 sends  type 6 (10 B) to 3 by csendrecv:          1 msg,   10 B
 *          receives 1 (100), 2 (64, posted irecv), 5 (8), 7 (20 B,
 *                 csendrecv's reply):                      4 msgs, 192 B
 *   node 2 sends  type 2 (64 B) to 1, type 8 (4000 B) to 0: 2 msgs, 4064 B
 *          receives 4 (40 B, hrecv handler), 5 (8):        2 msgs,   48 B
 *   node 3 sends  type 7 (20 B) to 1:                       1 msg,   20 B
 *          receives 3 (50 B, posted then msgignore'd), 6 (10): 2 msgs, 60 B
 */
#include <stdio.h>
#include <string.h>

#include "mcemu.h"
#include "nx.h"

static volatile long handled;

static void on_type4(long type, long count, long node, long ptype)
{
    (void)type;
    (void)node;
    (void)ptype;
    handled = count;
}

int main(void)
{
    static char buf[4096], big[4000];
    long me = mynode(), id;
    double x[4] = {1, 2, 3, 4}, work[4];
    mce_node_stats_t st;

    if (numnodes() != 4) {
        if (me == 0)
            fprintf(stderr, "nx_stats: needs 4 nodes\n");
        return 2;
    }
    memset(big, 7, sizeof(big));
    gsync();
    /* Receives posted before their messages are sent. */
    if (me == 1)
        id = irecv(2, buf, 64);
    if (me == 3)
        msgignore(irecv(3, buf + 200, 50));
    if (me == 2)
        hrecv(4, buf + 300, 40, on_type4);
    gsync();
    switch (me) {
    case 0: {
        long to[2] = {1, 2};
        csend(1, buf, 100, 1, 0);
        csend(3, buf, 50, 3, 0);
        csend(4, buf, 40, 2, 0);
        gsendx(5, buf, 8, to, 2);
        crecv(8, big, sizeof(big));
        break;
    }
    case 1:
        crecv(1, buf + 1000, 100);
        msgwait(id);
        crecv(5, buf + 1200, 8);
        csendrecv(6, buf, 10, 3, 0, 7, buf + 1300, 20);
        break;
    case 2:
        msgwait(isend(2, buf, 64, 1, 0));
        crecv(5, buf + 1200, 8);
        csend(8, big, sizeof(big), 0, 0);
        break;
    case 3:
        crecv(6, buf + 1000, 10);
        csend(7, buf, 20, 1, 0);
        break;
    }
    gdsum(x, 4, work);
    gsync(); /* node 2's handler has run by now */
    if (mce_stats(&st) != MCE_OK)
        return 1;
    /* now - (compute + comm + wait + stolen): 0 when the accounting is
     * complete (signed: a double count shows as negative) */
    printf("nx_stats: node %ld sent=%llu received=%llu handled=%ld "
           "unaccounted_ps=%lld\n",
           me, (unsigned long long)st.sent, (unsigned long long)st.received,
           handled,
           (long long)(st.now - st.compute - st.comm - st.wait - st.stolen));
    return 0;
}
