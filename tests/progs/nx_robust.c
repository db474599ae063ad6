/* NX bad inputs and corner cases, one per run (the argument names it);
 * each prints "nx_robust: CASE node N ok" or what went wrong (issue 19):
 *   mergemerge  msgwait and msgdone on a merge of a merge of receives and
 *               sends complete, with every payload in place;
 *   exitpost    node 1 exits with a receive still posted (one process,
 *               4 nodes); node 0 sends to it afterwards: the receive is
 *               cancelled with the node, the buffer stays untouched (node 0
 *               looks) and the message is left in the dead node's queue;
 *   cancel2     msgcancel twice on a send in flight: the second fails;
 *   gopovf      _gdsum with (2^61 + 1) doubles fails with EINVAL;
 *   gopovf_plain the same with gdsum: the run ends with the diagnostic;
 *   gopempty    global operations of 0 elements with NULL arrays succeed
 *               (memcpy of NULL: found by tests/fuzz/fuzz_calls.c);
 *   gopmismatch global operations that do not match on the nodes
 *               (_gdsum of 2 elements on node 0, 1 on node 1) fail with
 *               EINVAL, instead of using a partly unwritten buffer (found
 *               by tests/fuzz/fuzz_calls.c under valgrind); a proper
 *               gdsum follows;
 *   gcolxmismatch  gcolx lengths that disagree with what node 1 sends:
 *               node 0's plain call ends the run with the diagnostic;
 *   gcolxovf    _gcolx with lengths whose sum overflows fails;
 *   gopoverlap  _gdsum whose work array overlaps x, or is x, fails with
 *               EINVAL and leaves x alone; a proper gdsum follows (found
 *               by tests/fuzz/fuzz_calls.c: memcpy of overlapping arrays);
 *   negptype    _csend/_isend to a negative process type fail;
 *   hwclock     reads hwclock (with a machine whose cycle_time is bad);
 *   param       mce_machine_param: overflowing values are OVERFLOW;
 *   utf8        mce_trace_mark with bytes that are not UTF-8;
 *   poll_iprobe, poll_msgdone, poll_dclock, poll_mce_iprobe, poll_mce_now
 *               node 0 polls forever with that call (nobody sends): the
 *               livelock guard ends the run;
 *   delay       a 5 ms busy-wait on dclock, then a message: no livelock;
 *   compute_forever  msgdone and compute for a message never sent: only
 *               --mce-max-vtime ends it;
 *   spin        node 0 loops without any call: only --mce-max-wall;
 *   crash       node 1 gets SIGFPE: the crash line names it;
 *   nullbuf     NULL buffers with a positive count fail with EINVAL in
 *               every send and receive form, nothing sent or posted (the
 *               next message arrives intact); a NULL buffer of 0 bytes is
 *               a valid empty message;
 *   nullbuf_plain  csend of a NULL buffer of 8 bytes: the run ends;
 *   afterexit   node 0 registers an atexit function making NX calls: after
 *               the nodes ended they fail with EINVAL (-1 from mynode);
 *   handler     node 0's hrecv handler makes NX calls: it answers with
 *               csend, its own id is unknown to msgwait, a nested flick
 *               runs no handler twice, and a receive inside it gets a
 *               second message; node 1 checks both answers. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nx.h"

static long me;
static int failures;

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            failures++;                                                        \
            printf("nx_robust: node %ld: FAIL line %d: %s: ", me, __LINE__,    \
                   #cond);                                                     \
            printf(__VA_ARGS__);                                               \
            printf("\n");                                                      \
        }                                                                      \
    } while (0)

static void merge_merge(int use_done)
{
    long peer = me ^ 1, a = 0, b = 0, c = 0;
    long ra, rb, sa, sb, m1, m2, m3;
    long va = 100 + me, vb = 200 + me, vc = 300 + me, rc_ = 0;
    long rcid;
    ra = irecv(10, &a, sizeof(a));
    rb = irecv(11, &b, sizeof(b));
    rcid = irecv(12, &c, sizeof(c));
    sa = isend(10, &va, sizeof(va), peer, 0);
    sb = isend(11, &vb, sizeof(vb), peer, 0);
    m1 = msgmerge(ra, sa);
    m2 = msgmerge(m1, rb); /* a merge of a merge */
    m3 = msgmerge(m2, sb); /* and of that one */
    m3 = msgmerge(m3, rcid);
    csend(12, &vc, sizeof(vc), peer, 0);
    if (use_done) {
        long polls = 0;
        while (!msgdone(m3))
            CHECK(++polls < 1000000, "msgdone never completes");
    } else {
        msgwait(m3);
    }
    CHECK(a == 100 + peer && b == 200 + peer && c == 300 + peer,
          "payloads %ld %ld %ld", a, b, c);
    /* Every part is released with the merge. */
    errno = 0;
    rc_ = _msgwait(m1);
    CHECK(rc_ == -1 && errno == EINVAL, "inner merge id still known");
}

static void exit_posted(void)
{
    if (me == 1) {
        long *buf = calloc(64, sizeof(long));
        /* The buffer's address goes to node 0 (one process: same heap),
         * which looks at it after the message came. */
        csend(8, &buf, sizeof(buf), 0, 0);
        irecv(5, buf, 64 * sizeof(long));
        printf("nx_robust: exitpost node %ld ok\n", me);
        exit(0);
    }
    if (me == 0) {
        long big[64], t = 0, *buf1 = NULL;
        for (int i = 0; i < 64; i++)
            big[i] = 0x5a5a5a5a;
        crecv(8, &buf1, sizeof(buf1));
        /* Long after node 1 is gone. */
        for (int i = 0; i < 20; i++)
            csend(6, &t, sizeof(t), 2, 0), crecv(7, &t, sizeof(t));
        csend(5, big, sizeof(big), 1, 0);
        for (int i = 0; i < 20; i++)
            csend(6, &t, sizeof(t), 2, 0), crecv(7, &t, sizeof(t));
        for (int i = 0; i < 64; i++)
            CHECK(buf1[i] == 0, "dead node's buffer written: [%d] = %lx", i,
                  buf1[i]);
        free(buf1);
    } else if (me == 2) {
        long t = 0;
        for (int i = 0; i < 40; i++)
            crecv(6, &t, sizeof(t)), csend(7, &t, sizeof(t), 0, 0);
    }
}

static void cancel_twice(void)
{
    static char big[1 << 16];
    if (me == 0) {
        long id = isend(1, big, sizeof(big), 1, 0), r1, r2;
        r1 = _msgcancel(id);
        errno = 0;
        r2 = _msgcancel(id);
        CHECK(r1 == 0, "first cancel %ld", r1);
        CHECK(r2 == -1 && errno == EINVAL, "second cancel %ld errno %d", r2,
              errno);
    } else if (me == 1) {
        crecv(1, big, sizeof(big));
    }
}

static void null_buffers(void)
{
    long peer = me ^ 1, v = 7 + me, got = 0, rc_, info[8];
    if (me > 1)
        return;
#define NULL_FAILS(call)                                                       \
    do {                                                                       \
        errno = 0;                                                             \
        rc_ = (call);                                                          \
        CHECK(rc_ == -1 && errno == EINVAL, "%s: %ld errno %d", #call, rc_,    \
              errno);                                                          \
    } while (0)
    NULL_FAILS(_csend(3, NULL, 8, peer, 0));
    NULL_FAILS(_isend(3, NULL, 8, peer, 0));
    NULL_FAILS(_crecv(3, NULL, 8));
    NULL_FAILS(_irecv(3, NULL, 8));
    NULL_FAILS(_crecvx(3, NULL, 8, peer, 0, info));
    NULL_FAILS(_csendrecv(3, NULL, 8, peer, 0, 3, &got, sizeof(got)));
    NULL_FAILS(_csendrecv(3, &v, sizeof(v), peer, 0, 3, NULL, 8));
#undef NULL_FAILS
    /* An empty message may have no buffer. */
    csend(4, NULL, 0, peer, 0);
    crecv(4, NULL, 0);
    CHECK(infocount() == 0 && infonode() == peer, "empty message: %ld from %ld",
          infocount(), infonode());
    /* Nothing was sent or posted by the failed calls: the next type-3
     * message is the peer's value. */
    csend(3, &v, sizeof(v), peer, 0);
    crecv(3, &got, sizeof(got));
    CHECK(got == 7 + peer, "got %ld", got);
    CHECK(iprobe(-1) == 0, "a message left over");
}

static long h_id, h_calls, h_got, h_inner;
static void on_ask(long type, long count, long node, long ptype)
{
    long answer = 1000 + h_got, rc_;
    (void)count;
    (void)ptype;
    h_calls++;
    /* Its own id cannot be waited for, even inside it. */
    errno = 0;
    rc_ = _msgwait(h_id);
    CHECK(rc_ == -1 && errno == EINVAL, "msgwait(own id) %ld", rc_);
    flick(); /* handlers do not nest */
    crecv(21, &h_inner, sizeof(h_inner));
    csend(type + 10, &answer, sizeof(answer), node, 0);
}

static void handler_calls(void)
{
    if (me == 0) {
        h_id = hrecv(20, &h_got, sizeof(h_got), on_ask);
        while (h_calls == 0)
            flick();
        CHECK(h_calls == 1, "handler ran %ld times", h_calls);
        CHECK(h_got == 5 && h_inner == 6, "handler got %ld, inner %ld", h_got,
              h_inner);
    } else if (me == 1) {
        long ask = 5, inner = 6, answer = 0;
        csend(20, &ask, sizeof(ask), 0, 0);
        csend(21, &inner, sizeof(inner), 0, 0);
        crecv(30, &answer, sizeof(answer));
        CHECK(answer == 1005, "answer %ld", answer);
    }
}

static void after_exit(void)
{
    long v = 1, rc1, rc2, e1, e2;
    errno = 0;
    rc1 = _csend(1, &v, sizeof(v), 1, 0);
    e1 = errno;
    errno = 0;
    rc2 = _crecv(1, &v, sizeof(v));
    e2 = errno;
    printf("nx_robust: after exit: _csend %ld%s, _crecv %ld%s, mynode %ld\n",
           rc1, e1 == EINVAL ? " EINVAL" : "", rc2,
           e2 == EINVAL ? " EINVAL" : "", mynode());
    fflush(stdout);
}

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "";
    me = mynode();
    if (strcmp(c, "mergemerge") == 0) {
        merge_merge(0);
        merge_merge(1);
    } else if (strcmp(c, "exitpost") == 0) {
        exit_posted();
    } else if (strcmp(c, "cancel2") == 0) {
        cancel_twice();
    } else if (strcmp(c, "gopovf") == 0) {
        double x = 1, w = 0;
        long rc_;
        errno = 0;
        rc_ = _gdsum(&x, (1L << 61) + 1, &w);
        CHECK(rc_ == -1 && errno == EINVAL, "_gdsum returned %ld errno %d", rc_,
              errno);
        CHECK(x == 1 && w == 0, "buffers changed");
    } else if (strcmp(c, "gopovf_plain") == 0) {
        double x = 1, w = 0;
        gdsum(&x, (1L << 61) + 1, &w);
        printf("nx_robust: gdsum returned\n");
    } else if (strcmp(c, "gopempty") == 0) {
        double x = (double)me + 1, w;
        long rc_ = _gdsum(NULL, 0, NULL);
        CHECK(rc_ == 0, "_gdsum of 0 elements: %ld errno %d", rc_, errno);
        gsprod(NULL, 0, NULL);
        gihigh(NULL, 0, NULL);
        gdsum(&x, 1, &w);
        CHECK(x == numnodes() * (numnodes() + 1) / 2.0, "gdsum after: %g", x);
    } else if (strcmp(c, "gopmismatch") == 0) {
        double x[2] = {1, 2}, w[2];
        long rc_;
        errno = 0;
        rc_ = _gdsum(x, me == 0 ? 2 : 1, w);
        CHECK(rc_ == -1 && errno == EINVAL, "_gdsum: %ld errno %d", rc_, errno);
        x[0] = (double)me + 1;
        gdsum(x, 1, w);
        CHECK(x[0] == numnodes() * (numnodes() + 1) / 2.0, "gdsum after: %g",
              x[0]);
    } else if (strcmp(c, "gcolxmismatch") == 0) {
        /* the same total, but node 0 expects 16 bytes from node 1,
         * which sends 8 */
        long lens[2] = {me == 0 ? 8 : 16, me == 0 ? 16 : 8};
        char cx[16] = "abcdefghijklmno", cy[32];
        gcolx(cx, lens, cy);
        printf("nx_robust: gcolx returned on node %ld\n", me);
    } else if (strcmp(c, "gopoverlap") == 0) {
        double a[4] = {(double)me + 1, 2, 3, 4}, w[2];
        long rc_;
        errno = 0;
        rc_ = _gdsum(a, 3, a + 2);
        CHECK(rc_ == -1 && errno == EINVAL, "overlap: %ld errno %d", rc_,
              errno);
        errno = 0;
        rc_ = _gdsum(a, 2, a);
        CHECK(rc_ == -1 && errno == EINVAL, "same array: %ld errno %d", rc_,
              errno);
        CHECK(a[0] == (double)me + 1 && a[1] == 2 && a[2] == 3 && a[3] == 4,
              "x changed");
        gdsum(a, 2, w);
        CHECK(a[0] == numnodes() * (numnodes() + 1) / 2.0 &&
                  a[1] == 2.0 * numnodes(),
              "gdsum after the refusals: %g %g", a[0], a[1]);
    } else if (strcmp(c, "gcolxovf") == 0) {
        long lens[2] = {0x7fffffffffffff00L, 0x1000};
        char x[8], y[8];
        long rc_;
        errno = 0;
        rc_ = _gcolx(x, lens, y);
        CHECK(rc_ == -1 && errno == EINVAL, "_gcolx returned %ld", rc_);
    } else if (strcmp(c, "negptype") == 0) {
        long v = 1, rc_;
        errno = 0;
        rc_ = _csend(1, &v, sizeof(v), me ^ 1, -2);
        CHECK(rc_ == -1 && errno == EINVAL, "_csend ptype -2: %ld", rc_);
        errno = 0;
        rc_ = _isend(1, &v, sizeof(v), me ^ 1, -1);
        CHECK(rc_ == -1 && errno == EINVAL, "_isend ptype -1: %ld", rc_);
    } else if (strcmp(c, "hwclock") == 0) {
        long long t = -1;
        hwclock(&t);
        CHECK(t >= 0, "hwclock %lld", t);
    } else if (strcmp(c, "param") == 0) {
        /* app.big = 99999999999999999999, app.bigt = 20000000 s,
         * app.typo = 12 parsecs, app.max = 9223372036854775807 */
        int64_t v = 42;
        int rc_;
        rc_ = mce_machine_param("app.big", &v);
        CHECK(rc_ == MCE_ERR_OVERFLOW, "app.big: %d", rc_);
        rc_ = mce_machine_param("app.bigt", &v);
        CHECK(rc_ == MCE_ERR_OVERFLOW, "app.bigt: %d", rc_);
        rc_ = mce_machine_param("app.typo", &v);
        CHECK(rc_ == MCE_ERR_INVAL, "app.typo: %d", rc_);
        CHECK(v == 42, "value written on error");
        rc_ = mce_machine_param("app.max", &v);
        CHECK(rc_ == MCE_OK && v == INT64_MAX, "app.max: %d", rc_);
    } else if (strcmp(c, "utf8") == 0) {
        /* Not UTF-8: 0xff, an overlong '/', a lone continuation byte, a
         * truncated sequence; then a valid e-acute. */
        CHECK(mce_trace_mark("a\xff b\xc0\xaf c\x80 d\xe2\x82 e\xc3\xa9") ==
                  MCE_OK,
              "mark refused");
    } else if (strcmp(c, "poll_iprobe") == 0) {
        /* node 0 polls for a message nobody sends; node 1 waits in
         * crecv for one nobody sends either */
        long v;
        if (me == 0)
            while (!iprobe(5))
                ;
        else if (me == 1)
            crecv(6, &v, sizeof(v));
    } else if (strcmp(c, "poll_msgdone") == 0) {
        long v, id;
        if (me == 0) {
            id = irecv(5, &v, sizeof(v));
            while (!msgdone(id))
                ;
        }
    } else if (strcmp(c, "poll_dclock") == 0) {
        if (me == 0)
            for (;;)
                dclock();
    } else if (strcmp(c, "poll_mce_iprobe") == 0) {
        int flag = 0;
        if (me == 0)
            while (!flag)
                mce_iprobe(-1, 5, &flag, NULL);
    } else if (strcmp(c, "poll_mce_now") == 0) {
        if (me == 0)
            while (mce_now() != (mce_time_t)-1)
                ;
    } else if (strcmp(c, "delay") == 0) {
        /* a busy-wait delay of 5 ms of virtual time, then a message: not
         * a livelock with a longer budget */
        long v = 7;
        if (me == 0) {
            double t0 = dclock();
            while (dclock() < t0 + 0.005)
                ;
            csend(5, &v, sizeof(v), 1, 0);
        } else if (me == 1) {
            crecv(5, &v, sizeof(v));
            CHECK(v == 7, "payload %ld", v);
        }
    } else if (strcmp(c, "compute_forever") == 0) {
        long v, id;
        if (me == 0) {
            id = irecv(5, &v, sizeof(v));
            while (!msgdone(id))
                mce_compute(MCE_MS);
        }
    } else if (strcmp(c, "spin") == 0) {
        /* a loop that never calls the emulator */
        volatile int forever = 1;
        if (me == 0)
            while (forever)
                ;
    } else if (strcmp(c, "nullbuf") == 0) {
        null_buffers();
    } else if (strcmp(c, "nullbuf_plain") == 0) {
        if (me == 0)
            csend(3, NULL, 8, 1, 0);
    } else if (strcmp(c, "afterexit") == 0) {
        if (me == 0)
            atexit(after_exit);
    } else if (strcmp(c, "handler") == 0) {
        handler_calls();
    } else if (strcmp(c, "crash") == 0) {
        /* raised: a division by zero is caught first under UBSan */
        if (me == 1)
            raise(SIGFPE);
    } else {
        printf("nx_robust: unknown case '%s'\n", c);
        return 2;
    }
    if (failures == 0)
        printf("nx_robust: %s node %ld ok\n", c, me);
    return failures != 0;
}
