/* The NX personality on the iPSC/860, call by call (run on 4 and 8 nodes):
 * identity and clocks; csend/crecv with node -1, exact and wildcard
 * selectors, the info functions and msginfo (which global operations must
 * not disturb); the x-forms and their info arrays; process types;
 * isend/irecv with msgwait, msgdone polling, msgmerge, msgcancel,
 * msgignore; csendrecv/isendrecv; handler receives that re-post
 * themselves, masktrap, hsend; every global operation with its numeric
 * result; FORCE_TYPE with and without a posted receive (one "discarded"
 * line per run); the full 31-bit type space; the '_' forms with bad
 * arguments returning -1 with errno.  Each node prints "nx_api: node N
 * ok" or its failures.
 *
 * With an argument, one misuse instead: badnode, badtype, negcount, short,
 * badid and toomany end the run through the plain form's diagnostic;
 * gcolshort expects _gcol into a short buffer to fail on every node.
 * NX_API_EARLY=1 in the environment also reads hwclock before the node
 * program starts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nx.h"

static long me, n, right, left;
static int failures;

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            failures++;                                                        \
            printf("nx_api: node %ld: FAIL line %d: %s: ", me, __LINE__,       \
                   #cond);                                                     \
            printf(__VA_ARGS__);                                               \
            printf("\n");                                                      \
        }                                                                      \
    } while (0)

/* A '_' form that must fail with errno @p eno. */
#define EXPECT_ERR(call, eno)                                                  \
    do {                                                                       \
        errno = 0;                                                             \
        long rc_ = (call);                                                     \
        int e_ = errno;                                                        \
        CHECK(rc_ == -1 && e_ == (eno),                                        \
              "%s returned %ld errno %d (want -1 %d)", #call, rc_, e_, (eno)); \
    } while (0)

#define GUARD 1000000L /* bound on every polling loop */

/* ---- before the node program starts ------------------------------------ */

static long early_node = 12345;
static double early_clock = -1.0;
static long long early_ticks = -1;

__attribute__((constructor)) static void before_main(void)
{
    early_node = _mynode();
    early_clock = dclock();
    if (getenv("NX_API_EARLY") != NULL)
        hwclock(&early_ticks);
}

/* ---- identity and time -------------------------------------------------- */

static void identity(void)
{
    long d = nodedim(), t;
    CHECK(early_node == -1, "_mynode before the program started gave %ld",
          early_node);
    CHECK(early_clock <= 0.0, "dclock before the program started gave %g",
          early_clock);
    CHECK(me >= 0 && me < n, "mynode %ld of %ld", me, n);
    CHECK(_mynode() == me && _numnodes() == n, "_mynode/_numnodes");
    CHECK(d >= 0 && (1L << d) == n, "nodedim %ld for %ld nodes", d, n);
    CHECK(_nodedim() == d, "_nodedim");
    t = 1;
    long w;
    gisum(&t, 1, &w);
    CHECK(t == n, "gisum of 1 is %ld, numnodes %ld", t, n);
    long host = myhost();
    CHECK(host < 0 || host >= n, "myhost %ld is a node number", host);
    CHECK(_myhost() == host, "_myhost");
    CHECK(myptype() == 0 && _myptype() == 0, "initial myptype %ld", myptype());
    CHECK(mypid() == myptype() && _mypid() == mypid(), "mypid %ld", mypid());
    setptype(7);
    CHECK(myptype() == 7, "setptype(7): myptype %ld", myptype());
    CHECK(_setptype(0) == 0 && myptype() == 0, "_setptype(0)");
    EXPECT_ERR(_setptype(-1), EINVAL);
    CHECK(myptype() == 0, "failed setptype changed the ptype");

    /* Clocks advance in the node's virtual time; polling loops end. */
    double t0 = dclock(), t1;
    flick();
    t1 = dclock();
    CHECK(t1 > t0, "dclock %g then %g after flick", t0, t1);
    mce_compute(MCE_MS);
    t1 = dclock();
    CHECK(t1 - t0 >= 0.001 && t1 - t0 < 0.01, "1 ms of compute: dclock %g",
          t1 - t0);
    unsigned long m0 = mclock(), m1 = m0;
    long spins = 0;
    while ((m1 = mclock()) == m0 && spins < GUARD)
        spins++;
    CHECK(m1 == m0 + 1 && spins > 0 && spins < GUARD,
          "mclock loop: %lu then %lu after %ld calls", m0, m1, spins);
    double s0 = dclock();
    spins = 0;
    while (dclock() - s0 < 0.0005 && spins < GUARD)
        spins++;
    CHECK(spins > 0 && spins < GUARD, "dclock loop: %ld calls", spins);
    long long h0, h1;
    hwclock(&h0);
    mce_compute(MCE_US);
    hwclock(&h1);
    /* 25 ns cycles: 1 us of compute plus a probe is at least 40 ticks */
    CHECK(h1 - h0 >= 40, "hwclock %lld then %lld", h0, h1);
}

/* ---- point to point, info functions, msginfo ---------------------------- */

static int info_is(long type, long count, long node, long ptype)
{
    return infotype() == type && infocount() == count && infonode() == node &&
           infoptype() == ptype && msginfo[0] == type && msginfo[1] == count &&
           msginfo[2] == node && msginfo[3] == ptype && _infotype() == type &&
           _infocount() == count && _infonode() == node &&
           _infoptype() == ptype;
}

#define INFO_FMT  "info type %ld count %ld node %ld ptype %ld"
#define INFO_ARGS infotype(), infocount(), infonode(), infoptype()

static void point_to_point(void)
{
    long v = -1, buf[8], info[8];
    char text[32];

    /* A ring with a count depending on the sender: every node keeps its
     * own msginfo across the others' calls and the global operations. */
    long out[4] = {me, me, me, me};
    csend(100, out, (me % 4 + 1) * (long)sizeof(long), right, 0);
    crecv(100, buf, sizeof(buf)); /* NX's crecv is a subroutine */
    long got = infocount();
    long want = (left % 4 + 1) * (long)sizeof(long);
    CHECK(got == want && buf[0] == left, "ring: crecv %ld bytes, value %ld",
          got, buf[0]);
    CHECK(info_is(100, want, left, 0), "after crecv: " INFO_FMT, INFO_ARGS);
    CHECK(infopid() == 0 && _infopid() == 0, "infopid %ld", infopid());
    gsync();
    CHECK(info_is(100, want, left, 0), "gsync changed the info: " INFO_FMT,
          INFO_ARGS);
    double x = 1, w;
    gdsum(&x, 1, &w);
    CHECK(info_is(100, want, left, 0), "gdsum changed the info: " INFO_FMT,
          INFO_ARGS);

    /* csend to node -1: every other node, not the sender. */
    for (long root = 0; root < n; root += n - 1) {
        if (me == root) {
            snprintf(text, sizeof(text), "bcast from %ld", root);
            csend(110, text, (long)strlen(text) + 1, -1, 0);
        } else {
            memset(text, 0, sizeof(text));
            crecv(110, text, sizeof(text));
            char expect[32];
            snprintf(expect, sizeof(expect), "bcast from %ld", root);
            CHECK(strcmp(text, expect) == 0 && infonode() == root,
                  "broadcast: '%s' from %ld", text, infonode());
        }
        gsync();
        CHECK(iprobe(110) == 0, "node -1 also reached the sender");
        if (n == 1)
            break;
    }

    /* Exact type first, then any type. */
    long a = 1000 + me, b[2] = {2000 + me, 7};
    csend(120, &a, sizeof(a), right, 0);
    csend(121, b, sizeof(b), right, 0);
    crecv(121, buf, sizeof(buf));
    CHECK(infocount() == (long)sizeof(b) && buf[0] == 2000 + left &&
              info_is(121, sizeof(b), left, 0),
          "exact selection: %ld, " INFO_FMT, buf[0], INFO_ARGS);
    crecv(-1, buf, sizeof(buf));
    CHECK(infocount() == (long)sizeof(a) && buf[0] == 1000 + left &&
              info_is(120, sizeof(a), left, 0),
          "any type: %ld, " INFO_FMT, buf[0], INFO_ARGS);

    /* Node selection with crecvx and its info array. */
    if (n >= 3) {
        csend(130, &me, sizeof(me), right, 0);
        csend(130, &me, sizeof(me), left, 0);
        memset(info, -1, sizeof(info));
        crecvx(130, &v, sizeof(v), right, -1, info);
        CHECK(infocount() == (long)sizeof(v) && v == right,
              "crecvx from %ld got %ld", right, v);
        CHECK(info[0] == 130 && info[1] == (long)sizeof(v) &&
                  info[2] == right && info[3] == 0,
              "crecvx info %ld %ld %ld %ld", info[0], info[1], info[2],
              info[3]);
        CHECK(info_is(130, sizeof(v), right, 0), "after crecvx: " INFO_FMT,
              INFO_ARGS);
        crecvx(130, &v, sizeof(v), -1, -1, info);
        CHECK(infocount() == (long)sizeof(v) && v == left && info[2] == left,
              "crecvx any node: %ld from %ld", v, info[2]);
    }
}

static void probes(void)
{
    long buf[3] = {me, me, me}, info[8];
    csend(140, buf, sizeof(buf), right, 0);
    cprobe(140);
    CHECK(info_is(140, sizeof(buf), left, 0), "after cprobe: " INFO_FMT,
          INFO_ARGS);
    CHECK(iprobe(140) == 1 && iprobe(141) == 0 && _iprobe(140) == 1,
          "iprobe of a waiting message");
    memset(info, -1, sizeof(info));
    CHECK(iprobex(140, left, -1, info) == 1 && info[0] == 140 &&
              info[1] == (long)sizeof(buf) && info[2] == left && info[3] == 0,
          "iprobex info %ld %ld %ld %ld", info[0], info[1], info[2], info[3]);
    CHECK(iprobex(140, me, -1, info) == 0, "iprobex from the wrong node");
    CHECK(iprobex(-1, -1, 3, info) == 0, "iprobex from the wrong ptype");
    memset(info, -1, sizeof(info));
    cprobex(-1, left, 0, info);
    CHECK(info[0] == 140 && info[2] == left, "cprobex info %ld %ld", info[0],
          info[2]);
    CHECK(_cprobex(140, -1, -1, info) >= 0 && _cprobe(140) >= 0, "_cprobe");
    crecv(140, buf, sizeof(buf));
    CHECK(buf[0] == left && iprobe(140) == 0, "probed message received");
    gsync();
}

static void process_types(void)
{
    long info[8], id, done, spins = 0;
    char buf[16];
    if (n < 2)
        return;
    if (me == 0)
        setptype(3);
    if (me == 1)
        setptype(5);
    gsync();
    if (me == 0) {
        csend(150, "pt", 3, 1, 5); /* to the process of type 5 on node 1 */
        csend(151, "pt", 3, 1, 5);
    }
    if (me == 1) {
        while (iprobex(150, 0, -1, info) == 0 && spins < GUARD)
            spins++;
        /* info[3] and infoptype are the sender's process type. */
        CHECK(info[0] == 150 && info[2] == 0 && info[3] == 3,
              "iprobex info: type %ld node %ld ptype %ld (sender's is 3)",
              info[0], info[2], info[3]);
        CHECK(infoptype() == 3, "infoptype %ld (sender's is 3)", infoptype());
        /* Selecting the sender's type takes the waiting message at once. */
        id = irecvx(150, buf, sizeof(buf), 0, 3, info);
        done = msgdone(id);
        CHECK(done == 1, "irecvx selecting the sender's ptype 3: msgdone %ld",
              done);
        if (!done) {
            msgcancel(id);
            crecv(150, buf, sizeof(buf));
        }
        while (iprobex(151, 0, -1, info) == 0 && spins < GUARD)
            spins++;
        id = irecvx(151, buf, sizeof(buf), 0, 4, info);
        done = msgdone(id);
        CHECK(done == 0, "irecvx selecting ptype 4 took a ptype-3 message");
        if (!done) {
            msgcancel(id);
            crecv(151, buf, sizeof(buf));
        }
    }
    gsync();
    setptype(0);
}

static void message_ids(void)
{
    long v = -1, w = -1, rid, sid, mid, polls = 0, spins = 0;

    /* msgdone polling: the receive is posted 1 ms before the send. */
    rid = irecv(200, &v, sizeof(v));
    gsync();
    mce_compute(MCE_MS);
    sid = isend(200, &me, sizeof(me), right, 0);
    while (msgdone(rid) == 0 && polls < GUARD)
        polls++;
    CHECK(polls > 0 && polls < GUARD && v == left,
          "msgdone loop: %ld polls, value %ld", polls, v);
    CHECK(info_is(200, sizeof(v), left, 0), "after msgdone: " INFO_FMT,
          INFO_ARGS);
    while (msgdone(sid) == 0 && spins < GUARD)
        spins++;
    CHECK(spins < GUARD, "send never done");
    EXPECT_ERR(_msgdone(rid), EINVAL); /* released: unknown now */
    EXPECT_ERR(_msgwait(sid), EINVAL);

    /* msgwait on both, the receive after the send. */
    rid = irecv(201, &v, sizeof(v));
    sid = isend(201, &me, sizeof(me), right, 0);
    msgwait(sid);
    msgwait(rid);
    CHECK(v == left, "isend/irecv/msgwait: %ld", v);
    CHECK(info_is(201, sizeof(v), left, 0), "after msgwait: " INFO_FMT,
          INFO_ARGS);
    EXPECT_ERR(_msgwait(rid), EINVAL);

    /* irecvx: the info array is filled when the receive completes. */
    long info[8] = {-1, -1, -1, -1};
    rid = irecvx(202, &v, sizeof(v), left, -1, info);
    csend(202, &me, sizeof(me), right, 0);
    msgwait(rid);
    CHECK(info[0] == 202 && info[1] == (long)sizeof(v) && info[2] == left &&
              info[3] == 0,
          "irecvx info after msgwait: %ld %ld %ld %ld", info[0], info[1],
          info[2], info[3]);

    /* msgmerge: one id for a send and a receive. */
    v = -1;
    rid = irecv(210, &v, sizeof(v));
    sid = isend(210, &me, sizeof(me), right, 0);
    mid = msgmerge(sid, rid);
    CHECK(mid > 0 && mid != sid && mid != rid, "msgmerge id %ld", mid);
    msgwait(mid);
    CHECK(v == left, "merged wait: %ld", v);
    EXPECT_ERR(_msgwait(rid), EINVAL);
    EXPECT_ERR(_msgdone(mid), EINVAL);
    v = -1;
    rid = irecv(211, &v, sizeof(v));
    sid = isend(211, &me, sizeof(me), right, 0);
    mid = msgmerge(rid, sid);
    polls = 0;
    while (msgdone(mid) == 0 && polls < GUARD)
        polls++;
    CHECK(polls < GUARD && v == left, "merged msgdone: %ld", v);
    EXPECT_ERR(_msgmerge(rid, sid), EINVAL);

    /* msgcancel of a merged id cancels its parts: the receive is gone. */
    long mc = -7;
    rid = irecv(212, &mc, sizeof(mc));
    sid = isend(213, &me, sizeof(me), right, 0);
    mid = msgmerge(sid, rid);
    msgcancel(mid); /* ends the run on an error */
    EXPECT_ERR(_msgdone(rid), EINVAL);
    crecv(213, &w, sizeof(w));
    gsync();
    csend(212, &me, sizeof(me), right, 0);
    for (spins = 0; iprobe(212) == 0 && mc == -7 && spins < GUARD; spins++)
        flick();
    CHECK(mc == -7 && iprobe(212) == 1,
          "the receive of a cancelled merged id took a message (%ld)", mc);
    if (iprobe(212))
        crecv(212, &w, sizeof(w));
    gsync();

    /* msgcancel of a posted receive: a later message does not go there. */
    long cancelled = -7;
    rid = irecv(220, &cancelled, sizeof(cancelled));
    msgcancel(rid); /* ends the run on an error */
    EXPECT_ERR(_msgcancel(rid), EINVAL);
    EXPECT_ERR(_msgwait(rid), EINVAL);
    gsync();
    csend(220, &me, sizeof(me), right, 0);
    crecv(220, &v, sizeof(v));
    CHECK(v == left && cancelled == -7, "after msgcancel: %ld, buffer %ld", v,
          cancelled);

    /* msgignore: the receive still happens, nobody waits for it. */
    long ignored = -7;
    rid = irecv(230, &ignored, sizeof(ignored));
    msgignore(rid); /* ends the run on an error */
    EXPECT_ERR(_msgwait(rid), EINVAL);
    EXPECT_ERR(_msgignore(rid), EINVAL);
    sid = isend(230, &me, sizeof(me), right, 0);
    msgignore(sid); /* ends the run on an error */
    csend(231, &me, sizeof(me), right, 0);
    crecv(231, &w, sizeof(w));
    spins = 0;
    while (ignored != left && spins < GUARD) {
        flick();
        spins++;
    }
    CHECK(ignored == left && iprobe(230) == 0, "ignored receive got %ld",
          ignored);
    gsync();

    /* csendrecv and isendrecv: a shift around the ring. */
    v = -1;
    long got = csendrecv(240, &me, sizeof(me), right, 0, 240, &v, sizeof(v));
    CHECK(got == (long)sizeof(v) && v == left, "csendrecv: %ld bytes, %ld", got,
          v);
    CHECK(info_is(240, sizeof(v), left, 0), "after csendrecv: " INFO_FMT,
          INFO_ARGS);
    long pair[2] = {me, -me}, rpair[2] = {-1, -1};
    mid =
        isendrecv(241, pair, sizeof(pair), right, 0, -1, rpair, sizeof(rpair));
    CHECK(mid > 0, "isendrecv id %ld", mid);
    msgwait(mid);
    CHECK(rpair[0] == left && rpair[1] == -left, "isendrecv got %ld %ld",
          rpair[0], rpair[1]);
    CHECK(info_is(241, sizeof(pair), left, 0),
          "after isendrecv and msgwait: " INFO_FMT, INFO_ARGS);
    gsync();
}

/* ---- handlers ------------------------------------------------------------ */

static long hbuf[4], hits, hbad, hid, h2buf[2], hits2, sent, sent_bad;

static void on_msg(long type, long count, long node, long ptype)
{
    if (type != 300 || count != 2 * (long)sizeof(long) || node < 1 ||
        node >= n || ptype != 0 || hbuf[0] != node)
        hbad++;
    /* The info functions describe the message being handled. */
    if (infocount() != count || infonode() != node || infotype() != type)
        hbad++;
    hits++;
    hid = hrecv(300, hbuf, sizeof(hbuf), on_msg); /* re-post */
}

static void on_msg2(long type, long count, long node, long ptype)
{
    (void)ptype;
    if (type == 310 && count == (long)sizeof(long) && node == 1 &&
        h2buf[0] == 1)
        hits2++;
    else
        hbad++;
}

static void on_sent(long type, long count, long node, long ptype)
{
    if (type != 320 || count != (long)sizeof(long) || node != right ||
        ptype != 0)
        sent_bad++;
    sent++;
}

static void handlers(void)
{
    long msg[2], spins, before, old;
    if (me == 0)
        hid = hrecv(300, hbuf, sizeof(hbuf), on_msg);
    gsync();
    if (me != 0) {
        for (long k = 0; k < 3; k++) {
            msg[0] = me;
            msg[1] = k;
            csend(300, msg, sizeof(msg), 0, 0);
        }
    } else {
        long want = 3 * (n - 1);
        /* Handlers run at the node's NX calls: flick polls. */
        for (spins = 0; hits < want && spins < GUARD; spins++)
            flick();
        CHECK(hits == want && hbad == 0,
              "handler ran %ld times (want %ld), %ld bad calls", hits, want,
              hbad);
        CHECK(iprobe(300) == 0, "a handled message is still queued");
    }
    gsync();

    /* masktrap: handlers wait until unmasked. */
    if (me == 0) {
        old = masktrap(1);
        CHECK(old == 0, "masktrap(1) returned %ld", old);
    }
    gsync();
    if (me != 0) {
        msg[0] = me;
        msg[1] = 9;
        csend(300, msg, sizeof(msg), 0, 0);
        csend(301, msg, sizeof(msg), 0, 0);
    } else {
        before = hits;
        for (long k = 1; k < n; k++)
            crecv(301, msg, sizeof(msg));
        for (spins = 0; spins < 100; spins++)
            flick();
        CHECK(hits == before, "a handler ran while masked (%ld -> %ld)", before,
              hits);
        old = _masktrap(0);
        CHECK(old == 1, "masktrap(0) returned %ld", old);
        CHECK(hits == before + n - 1 && hbad == 0,
              "after unmasking: %ld handler calls, want %ld", hits - before,
              n - 1);
        msgcancel(hid); /* ends the run on an error */
        EXPECT_ERR(_msgcancel(hid), EINVAL);
    }
    gsync();

    /* hrecvx selects the sender. */
    if (me == 0)
        hrecvx(310, h2buf, sizeof(h2buf), 1, -1, on_msg2);
    gsync();
    if (me == 1 || (me == 2 && n > 2))
        csend(310, &me, sizeof(me), 0, 0);
    if (me == 0) {
        for (spins = 0; hits2 < 1 && spins < GUARD; spins++)
            flick();
        CHECK(hits2 == 1 && hbad == 0, "hrecvx handler: %ld calls", hits2);
        if (n > 2) {
            long v;
            crecv(310, &v, sizeof(v));
            CHECK(v == 2 && infonode() == 2 && hits2 == 1,
                  "hrecvx took node %ld's message", v);
        }
    }
    gsync();

    /* hsend: the handler runs when the send completes. */
    long v = -1;
    hsend(320, &me, sizeof(me), right, 0, on_sent);
    crecv(320, &v, sizeof(v));
    for (spins = 0; sent < 1 && spins < GUARD; spins++)
        flick();
    CHECK(sent == 1 && sent_bad == 0 && v == left,
          "hsend handler: %ld calls, %ld bad", sent, sent_bad);
    gsync();
}

/* ---- global operations --------------------------------------------------- */

typedef struct best {
    double v;
    long node;
} best_t;

static long keep_max(void *x, void *y)
{
    best_t *a = x, *b = y;
    if (b->v > a->v || (b->v == a->v && b->node < a->node))
        *a = *b;
    return 0;
}

static void globals(void)
{
    double d[2], dw[2];
    float s[2], sw[2];
    long i[3], iw[3];
    long tri = n * (n - 1) / 2;

    d[0] = (double)me;
    d[1] = 1.0;
    gdsum(d, 2, dw);
    CHECK(d[0] == (double)tri && d[1] == (double)n, "gdsum %g %g", d[0], d[1]);
    s[0] = (float)me;
    s[1] = 0.5f;
    gssum(s, 2, sw);
    CHECK(s[0] == (float)tri && s[1] == 0.5f * (float)n, "gssum %g %g",
          (double)s[0], (double)s[1]);
    i[0] = me + 1;
    i[1] = -me;
    gisum(i, 2, iw);
    CHECK(i[0] == n * (n + 1) / 2 && i[1] == -tri, "gisum %ld %ld", i[0], i[1]);

    d[0] = 2.0;
    d[1] = me == 0 ? 0.5 : 1.0;
    gdprod(d, 2, dw);
    CHECK(d[0] == (double)(1L << n) && d[1] == 0.5, "gdprod %g %g", d[0], d[1]);
    s[0] = 2.0f;
    gsprod(s, 1, sw);
    CHECK(s[0] == (float)(1L << n), "gsprod %g", (double)s[0]);
    i[0] = me + 1;
    i[1] = -1;
    giprod(i, 2, iw);
    long fact = 1;
    for (long k = 2; k <= n; k++)
        fact *= k;
    CHECK(i[0] == fact && i[1] == (n % 2 ? -1 : 1), "giprod %ld %ld", i[0],
          i[1]);

    d[0] = (double)me;
    d[1] = -(double)me;
    gdhigh(d, 2, dw);
    CHECK(d[0] == (double)(n - 1) && d[1] == 0.0, "gdhigh %g %g", d[0], d[1]);
    s[0] = (float)me;
    s[1] = -(float)me;
    gshigh(s, 2, sw);
    CHECK(s[0] == (float)(n - 1) && s[1] == 0.0f, "gshigh %g %g", (double)s[0],
          (double)s[1]);
    i[0] = me;
    i[1] = -me;
    gihigh(i, 2, iw);
    CHECK(i[0] == n - 1 && i[1] == 0, "gihigh %ld %ld", i[0], i[1]);
    d[0] = (double)me + 10.0;
    d[1] = -(double)me;
    gdlow(d, 2, dw);
    CHECK(d[0] == 10.0 && d[1] == -(double)(n - 1), "gdlow %g %g", d[0], d[1]);
    s[0] = (float)me + 10.0f;
    s[1] = -(float)me;
    gslow(s, 2, sw);
    CHECK(s[0] == 10.0f && s[1] == -(float)(n - 1), "gslow %g %g", (double)s[0],
          (double)s[1]);
    i[0] = me + 10;
    i[1] = -me;
    gilow(i, 2, iw);
    CHECK(i[0] == 10 && i[1] == -(n - 1), "gilow %ld %ld", i[0], i[1]);

    i[0] = ~(1L << me);
    i[1] = 0xff0L | me;
    giand(i, 2, iw);
    CHECK(i[0] == ~((1L << n) - 1) && i[1] == 0xff0L, "giand %lx %lx", i[0],
          i[1]);
    i[0] = 1L << me;
    i[1] = 0x100L;
    gior(i, 2, iw);
    CHECK(i[0] == (1L << n) - 1 && i[1] == 0x100L, "gior %lx %lx", i[0], i[1]);
    i[0] = 1;
    i[1] = me != n - 1;
    i[2] = 5;
    gland(i, 3, iw);
    CHECK(i[0] != 0 && i[1] == 0 && i[2] != 0, "gland %ld %ld %ld", i[0], i[1],
          i[2]);
    i[0] = 0;
    i[1] = me == n - 1;
    i[2] = 0;
    glor(i, 3, iw);
    CHECK(i[0] == 0 && i[1] != 0 && i[2] == 0, "glor %ld %ld %ld", i[0], i[1],
          i[2]);

    /* gopf with a user maximum carrying the node that had it. */
    best_t b = {me == n / 2 ? 100.0 : (double)me, me}, bw;
    gopf(&b, sizeof(b), &bw, keep_max);
    CHECK(b.v == 100.0 && b.node == n / 2, "gopf max %g at node %ld", b.v,
          b.node);

    /* gcol: node i gives i + 1 bytes of 'a' + i, concatenated in order. */
    char mine[16], all[128], want[128];
    long ncnt = -1, k = 0;
    memset(mine, 'a' + (int)me, sizeof(mine));
    for (long j = 0; j < n; j++)
        for (long c = 0; c <= j; c++)
            want[k++] = (char)('a' + j);
    memset(all, 0, sizeof(all));
    gcol(mine, me + 1, all, sizeof(all), &ncnt);
    CHECK(ncnt == n * (n + 1) / 2 && memcmp(all, want, (size_t)ncnt) == 0,
          "gcol: %ld bytes '%.*s'", ncnt, (int)(ncnt > 0 ? ncnt : 0), all);
    long lens[64];
    for (long j = 0; j < n; j++)
        lens[j] = j + 1;
    memset(all, 0, sizeof(all));
    gcolx(mine, lens, all);
    CHECK(memcmp(all, want, (size_t)(n * (n + 1) / 2)) == 0, "gcolx: '%.*s'",
          (int)(n * (n + 1) / 2), all);

    /* gsendx: node 0 to every other node; node 1 to node 0 alone. */
    long nodes[64], v = -1;
    for (long j = 1; j < n; j++)
        nodes[j - 1] = j;
    if (me == 0)
        gsendx(400, "gsx", 4, nodes, n - 1);
    else {
        char g[8] = "";
        crecv(400, g, sizeof(g));
        CHECK(strcmp(g, "gsx") == 0 && infonode() == 0, "gsendx got '%s'", g);
    }
    nodes[0] = 0;
    if (me == 1)
        gsendx(401, &me, sizeof(me), nodes, 1);
    if (me == 0) {
        crecv(401, &v, sizeof(v));
        CHECK(v == 1 && infonode() == 1, "gsendx to node 0: %ld", v);
    }

    /* gsync: nobody leaves before the last one arrives. */
    mce_compute((mce_time_t)me * 100 * MCE_US);
    double arrive = dclock();
    gsync();
    double leave = dclock(), latest = arrive, lw;
    gdhigh(&latest, 1, &lw);
    CHECK(leave >= latest, "left gsync at %g before the last arrival %g", leave,
          latest);

    /* Every '_' form of the global operations. */
    d[0] = 1.0;
    s[0] = 1.0f;
    i[0] = 1;
    CHECK(_gsync() == 0 && _gdsum(d, 1, dw) == 0 && d[0] == (double)n &&
              _gssum(s, 1, sw) == 0 && s[0] == (float)n &&
              _gisum(i, 1, iw) == 0 && i[0] == n,
          "_gsync/_gdsum/_gssum/_gisum");
    d[0] = s[0] = 1.0f;
    i[0] = 1;
    CHECK(_gdprod(d, 1, dw) == 0 && d[0] == 1.0 && _gsprod(s, 1, sw) == 0 &&
              _giprod(i, 1, iw) == 0 && i[0] == 1,
          "_gdprod/_gsprod/_giprod");
    d[0] = s[0] = (float)me;
    i[0] = me;
    CHECK(_gdhigh(d, 1, dw) == 0 && d[0] == (double)(n - 1) &&
              _gshigh(s, 1, sw) == 0 && _gihigh(i, 1, iw) == 0 && i[0] == n - 1,
          "_gdhigh/_gshigh/_gihigh");
    d[0] = s[0] = (float)me;
    i[0] = me;
    CHECK(_gdlow(d, 1, dw) == 0 && d[0] == 0.0 && _gslow(s, 1, sw) == 0 &&
              _gilow(i, 1, iw) == 0 && i[0] == 0,
          "_gdlow/_gslow/_gilow");
    i[0] = 3;
    CHECK(_giand(i, 1, iw) == 0 && i[0] == 3 && _gior(i, 1, iw) == 0 &&
              _gland(i, 1, iw) == 0 && _glor(i, 1, iw) == 0 && i[0] != 0,
          "_giand/_gior/_gland/_glor");
    b.v = (double)me;
    b.node = me;
    CHECK(_gopf(&b, sizeof(b), &bw, keep_max) == 0 && b.v == (double)(n - 1),
          "_gopf");
    CHECK(_gcol(mine, me + 1, all, sizeof(all), &ncnt) == 0 &&
              ncnt == n * (n + 1) / 2 && _gcolx(mine, lens, all) == 0,
          "_gcol/_gcolx");
    nodes[0] = right;
    CHECK(_gsendx(402, &me, sizeof(me), nodes, 1) == 0 &&
              _crecv(402, &v, sizeof(v)) == (long)sizeof(v) && v == left,
          "_gsendx");
    gsync();
}

/* ---- FORCE_TYPE and the type space ----------------------------------------
 */

static void types(void)
{
    char fbuf[16] = "";
    long id = 0, v = -1;

    /* A forced message finds its receive posted: delivered. */
    if (me == 1)
        id = irecv(FORCE_TYPE | 500, fbuf, sizeof(fbuf));
    gsync();
    if (me == 0)
        csend(FORCE_TYPE | 500, "forced", 7, 1, 0);
    if (me == 1) {
        msgwait(id);
        CHECK(strcmp(fbuf, "forced") == 0 && info_is(FORCE_TYPE | 500, 7, 0, 0),
              "forced message: '%s', " INFO_FMT, fbuf, INFO_ARGS);
    }
    gsync();
    /* Without a posted receive it is discarded (one line in the log). */
    if (me == 0)
        csend(FORCE_TYPE | 501, "lost", 5, 1, 0);
    gsync();
    if (me == 1) {
        CHECK(iprobe(FORCE_TYPE | 501) == 0 && iprobe(-1) == 0,
              "a forced message without a receive was kept");
        id = irecv(FORCE_TYPE | 501, fbuf, sizeof(fbuf));
        CHECK(msgdone(id) == 0, "a discarded message was received");
        msgcancel(id);
    }
    gsync();

    /* The whole 31-bit space, carried in full. */
    long hi = 0x3fffffffL, big = 0x12345678L, low = 0x2345678L;
    csend(low, &me, sizeof(me), right, 0);
    csend(big, &right, sizeof(right), right, 0);
    csend(hi, &left, sizeof(left), right, 0);
    crecv(big, &v, sizeof(v));
    CHECK(infocount() == (long)sizeof(v) && v == me && infotype() == big,
          "type 0x12345678: %ld, infotype %lx", v, infotype());
    crecv(hi, &v, sizeof(v));
    CHECK(infocount() == (long)sizeof(v) && infotype() == hi,
          "type 0x3fffffff: infotype %lx", infotype());
    crecv(low, &v, sizeof(v));
    CHECK(infocount() == (long)sizeof(v) && v == left && infotype() == low,
          "type 0x2345678: %ld, infotype %lx", v, infotype());
    id = irecv(0x7fffffffL, &v, sizeof(v));
    gsync();
    csend(0x7fffffffL, &me, sizeof(me), right, 0);
    msgwait(id);
    CHECK(v == left && infotype() == 0x7fffffffL,
          "type 0x7fffffff: %ld, infotype %lx", v, infotype());
    gsync();
}

/* ---- bad arguments: the '_' forms return -1 with errno ------------------ */

static void bad_arguments(void)
{
    char buf[128] = {0}, small[16] = {0};
    long info[8], v, d[2] = {0, 0}, w[2];
    double dd[2] = {0, 0}, dw[2];
    long ids[5000], k, spins;

    EXPECT_ERR(_csend(1, buf, 4, n, 0), EINVAL);
    EXPECT_ERR(_csend(1, buf, 4, 99, 0), EINVAL);
    EXPECT_ERR(_csend(1, buf, 4, -2, 0), EINVAL);
    EXPECT_ERR(_csend(1, buf, -1, right, 0), EINVAL);
    EXPECT_ERR(_csend(-1, buf, 4, right, 0), EINVAL);
    EXPECT_ERR(_csend(0x80000000L, buf, 4, right, 0), EINVAL);
    EXPECT_ERR(_isend(1, buf, 4, n, 0), EINVAL);
    EXPECT_ERR(_isend(1, buf, -5, right, 0), EINVAL);
    EXPECT_ERR(_crecv(1, buf, -1), EINVAL);
    EXPECT_ERR(_crecv(-2, buf, 4), EINVAL);
    EXPECT_ERR(_irecv(1, buf, -1), EINVAL);
    EXPECT_ERR(_crecvx(1, buf, 4, n, -1, info), EINVAL);
    EXPECT_ERR(_crecvx(1, buf, 4, -1, -2, info), EINVAL);
    EXPECT_ERR(_irecvx(1, buf, 4, -3, -1, info), EINVAL);
    EXPECT_ERR(_csendrecv(1, buf, 4, n, 0, 1, buf, 4), EINVAL);
    EXPECT_ERR(_isendrecv(1, buf, 4, right, 0, 1, buf, -1), EINVAL);
    EXPECT_ERR(_iprobe(-5), EINVAL);
    EXPECT_ERR(_cprobe(-5), EINVAL);
    EXPECT_ERR(_iprobex(1, n, -1, info), EINVAL);
    EXPECT_ERR(_cprobex(1, -1, -2, info), EINVAL);
    EXPECT_ERR(_msgwait(0), EINVAL);
    EXPECT_ERR(_msgwait(987654), EINVAL);
    EXPECT_ERR(_msgdone(987654), EINVAL);
    EXPECT_ERR(_msgcancel(987654), EINVAL);
    EXPECT_ERR(_msgignore(987654), EINVAL);
    EXPECT_ERR(_msgmerge(987654, 987655), EINVAL);
    EXPECT_ERR(_hrecv(1, buf, -1, on_msg), EINVAL);
    EXPECT_ERR(_hsend(1, buf, 4, n, 0, on_sent), EINVAL);
    EXPECT_ERR(_gdsum(dd, -1, dw), EINVAL);
    EXPECT_ERR(_gisum(d, -1, w), EINVAL);
    EXPECT_ERR(_gopf(d, -4, w, keep_max), EINVAL);
    EXPECT_ERR(_gopf(d, sizeof(d), w, NULL), EINVAL);
    EXPECT_ERR(_gcolx(buf, NULL, buf), EINVAL);
    EXPECT_ERR(_gsendx(1, buf, 4, &n, 1), EINVAL);
    EXPECT_ERR(_gsendx(1, buf, -1, &right, 1), EINVAL);

    /* A receive buffer shorter than the message: EMSGSIZE, the rest of
     * the buffer untouched, the info describing the whole message. */
    memset(buf, 'm', 100);
    csend(600, buf, 100, right, 0);
    memset(small, 'z', sizeof(small));
    EXPECT_ERR(_crecv(600, small, 10), EMSGSIZE);
    CHECK(small[9] == 'm' && small[10] == 'z' && small[15] == 'z',
          "truncated receive wrote '%.16s'", small);
    CHECK(info_is(600, 100, left, 0), "after truncation: " INFO_FMT, INFO_ARGS);
    CHECK(iprobe(600) == 0, "the truncated message is still queued");
    csend(601, buf, 100, right, 0);
    memset(small, 'z', sizeof(small));
    v = irecv(601, small, 10);
    EXPECT_ERR(_msgwait(v), EMSGSIZE);
    CHECK(small[10] == 'z', "truncated irecv overran its buffer");
    csend(602, buf, 100, right, 0);
    memset(small, 'z', sizeof(small));
    EXPECT_ERR(_crecvx(602, small, 10, left, -1, info), EMSGSIZE);
    CHECK(small[10] == 'z', "truncated crecvx overran its buffer");

    /* Too many pending requests: EAGAIN, and the node recovers. */
    for (k = 0; k < 5000; k++)
        if ((ids[k] = _irecv(610, buf, 4)) < 0)
            break;
    CHECK(k < 5000 && k >= 100 && errno == EAGAIN,
          "%ld receives posted, then errno %d", k, errno);
    for (long j = 0; j < k; j++)
        msgcancel(ids[j]);
    gsync();
    csend(610, &me, sizeof(me), right, 0);
    crecv(610, &v, sizeof(v));
    spins = infocount();
    CHECK(spins == (long)sizeof(v) && v == left, "after the cancels: %ld", v);
    gsync();
}

/* ---- fatal misuse and the collective misuse ---------------------------- */

static int misuse(const char *what)
{
    char buf[128];
    long v;
    memset(buf, 0, sizeof(buf));
    if (strcmp(what, "badnode") == 0) {
        if (me == 0)
            csend(1, buf, 4, 99, 0);
        else if (me == 1)
            crecv(1, buf, 4);
    } else if (strcmp(what, "badtype") == 0) {
        if (me == 0)
            csend(-5, buf, 4, 1, 0);
    } else if (strcmp(what, "negcount") == 0) {
        if (me == 1)
            crecv(1, buf, -1);
    } else if (strcmp(what, "short") == 0) {
        if (me == 0)
            csend(1, buf, 100, 1, 0);
        if (me == 1)
            crecv(1, buf, 10);
    } else if (strcmp(what, "badid") == 0) {
        if (me == n - 1)
            msgwait(12345);
    } else if (strcmp(what, "toomany") == 0) {
        if (me == 0)
            for (;;)
                irecv(1, buf, 4);
    } else if (strcmp(what, "gcolshort") == 0) {
        /* Every node's result buffer is too small: all fail, none hangs. */
        errno = 0;
        v = _gcol(buf, me + 1, buf + 64, 1, NULL);
        int e = errno;
        printf("nx_api: node %ld: gcol short %s\n", me,
               v == -1 && e == EINVAL ? "ok" : "FAIL");
        gsync();
        return v == -1 && e == EINVAL ? 0 : 1;
    } else {
        if (me == 0)
            printf("nx_api: unknown misuse '%s'\n", what);
        return 2;
    }
    gsync();
    printf("nx_api: node %ld: the misuse '%s' did not end the run\n", me, what);
    return 1;
}

int main(int argc, char **argv)
{
    me = mynode();
    n = numnodes();
    right = (me + 1) % n;
    left = (me + n - 1) % n;
    if (argc > 1)
        return misuse(argv[1]);
    if (getenv("NX_API_EARLY") != NULL)
        CHECK(early_ticks <= 0, "hwclock before the start: %lld", early_ticks);
    if (n < 2) {
        printf("nx_api: needs at least 2 nodes\n");
        return 1;
    }
    identity();
    point_to_point();
    probes();
    process_types();
    message_ids();
    handlers();
    globals();
    types();
    bad_arguments();
    if (failures == 0)
        printf("nx_api: node %ld ok\n", me);
    else
        printf("nx_api: node %ld: %d failures\n", me, failures);
    return failures != 0;
}
