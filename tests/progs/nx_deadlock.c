/* NX waits that never end, for the deadlock report (tests/core/deadlock.sh):
 * node 0 waits for an irecv of type 7, node 1 probes for type 9, the
 * others finish (4 nodes: the iPSC/860 is a hypercube).  The report names
 * msgwait and cprobe with what they wait for. */
#include "nx.h"

int main(void)
{
    char buf[8];
    long me = mynode();
    if (me == 0)
        msgwait(irecv(7, buf, sizeof(buf)));
    else if (me == 1)
        cprobe(9);
    return 0;
}
