/* A void main() that waits for a message by polling with sleep, as
 * programs did when they had nothing better to do: node 0 "works" for a
 * while (sleep, usleep, nanosleep), then sends every other node a go
 * message; the others poll with iprobe and sleep(1) between polls.  In
 * virtual time the sleeps cost what they say and block nobody else. */
#define _POSIX_C_SOURCE 199309L /* nanosleep, usleep under -std=c89 */
#define _DEFAULT_SOURCE 1
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <nx.h>

#define GO 30

void main()
{
    long me = mynode(), n = numnodes(), polls = 0, v = 42, i;
    struct timespec ts;
    double t0 = dclock();

    if (me == 0) {
        sleep(3);
        usleep(250000);
        ts.tv_sec = 0;
        ts.tv_nsec = 250000000;
        nanosleep(&ts, NULL);
        for (i = 1; i < n; i++)
            csend((long)GO, (char *)&v, (long)sizeof(v), i, 0L);
        printf("sleep_poll: node 0 slept %.3f s\n", dclock() - t0);
    } else {
        while (!iprobe((long)GO)) {
            polls++;
            sleep(1);
        }
        crecv((long)GO, (char *)&v, (long)sizeof(v));
        printf("sleep_poll: node %ld got %ld after %ld polls at %.0f s\n", me,
               v, polls, dclock() - t0);
    }
}
