/* sleep, usleep and nanosleep interposed for the whole process (like
 * exit, lib/core/exit.c): inside a node they let the node's virtual clock
 * pass and give the other nodes their turn, instead of stopping every
 * node of the process for real time that no virtual clock sees; outside
 * a node they are the C library's. */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"

/* The node sleeps @p ps of virtual time: idle time, as a wait is. */
static void node_sleep(mcei_vn_t *vn, mce_time_t ps)
{
    /* A polling loop that sleeps between its polls (while (!iprobe())
     * sleep(1);) is still polling: the streak goes on across the sleep,
     * so the livelock guard sees it.  A sleep alone is not a poll. */
    int streak = vn->poll_call != NULL &&
                 vn->clock - vn->t_stolen == vn->poll_work &&
                 vn->nsent + vn->nrecv == vn->poll_msgs;
    mce_time_t until;
    if (mcei_time_add(vn->clock, ps, &until) != MCE_OK)
        mcei_vn_fatal(vn, "sleep: the virtual clock overflows");
    /* NX handlers run at their messages' times while the node sleeps. */
    if (mcei_eng->on_sleep != NULL)
        mcei_eng->on_sleep(vn, until);
    else
        mcei_wait_until(vn, until); /* idle time, the owner's */
    /* Within a streak the node sleeps as a poller: the guard counts it
     * while it is stopped here. */
    vn->polling = streak;
    mcei_sync(vn);
    vn->polling = 0;
    if (streak)
        vn->poll_work = vn->clock - vn->t_stolen;
}

/* The calling node; NULL outside one and on any thread but the one that
 * runs the nodes (the MPI library's own threads sleep for real). */
static mcei_vn_t *in_node(void)
{
    mcei_vn_t *vn;
    if (mcei_eng == NULL || mcei_eng->current == NULL || gettid() != getpid())
        return NULL;
    vn = mcei_enter();
    if (vn != NULL)
        mcei_api_begin(vn, "sleep");
    return vn;
}

MCE_EXPORT unsigned int sleep(unsigned int seconds)
{
    typedef unsigned int (*sleep_fn)(unsigned int);
    static sleep_fn real_sleep;
    mcei_vn_t *vn = in_node();
    if (vn != NULL) {
        node_sleep(vn, (mce_time_t)seconds * MCE_S);
        mcei_leave(vn);
        return 0;
    }
    if (real_sleep == NULL &&
        (real_sleep = (sleep_fn)dlsym(RTLD_NEXT, "sleep")) == NULL)
        return seconds;
    return real_sleep(seconds);
}

MCE_EXPORT int usleep(useconds_t usec)
{
    typedef int (*usleep_fn)(useconds_t);
    static usleep_fn real_usleep;
    mcei_vn_t *vn = in_node();
    if (vn != NULL) {
        node_sleep(vn, (mce_time_t)usec * MCE_US);
        mcei_leave(vn);
        return 0;
    }
    if (real_usleep == NULL &&
        (real_usleep = (usleep_fn)dlsym(RTLD_NEXT, "usleep")) == NULL) {
        errno = ENOSYS;
        return -1;
    }
    return real_usleep(usec);
}

MCE_EXPORT int nanosleep(const struct timespec *req, struct timespec *rem)
{
    typedef int (*nanosleep_fn)(const struct timespec *, struct timespec *);
    static nanosleep_fn real_nanosleep;
    mcei_vn_t *vn = in_node();
    if (vn != NULL) {
        mce_time_t s, ps;
        if (req == NULL || req->tv_sec < 0 || req->tv_nsec < 0 ||
            req->tv_nsec > 999999999L) {
            mcei_leave(vn);
            errno = EINVAL;
            return -1;
        }
        if (mcei_time_mul(MCE_S, (uint64_t)req->tv_sec, &s) != MCE_OK ||
            mcei_time_add(s, (mce_time_t)req->tv_nsec * MCE_NS, &ps) != MCE_OK)
            mcei_vn_fatal(vn,
                          "nanosleep: %lld s do not fit the virtual "
                          "clock",
                          (long long)req->tv_sec);
        node_sleep(vn, ps);
        mcei_leave(vn);
        if (rem != NULL)
            rem->tv_sec = rem->tv_nsec = 0;
        return 0;
    }
    if (real_nanosleep == NULL && (real_nanosleep = (nanosleep_fn)dlsym(
                                       RTLD_NEXT, "nanosleep")) == NULL) {
        errno = ENOSYS;
        return -1;
    }
    return real_nanosleep(req, rem);
}
