/* NX and Vertex argument fuzzing on a booted engine (issue 19).
 *
 * An input is a machine, a node count and a list of calls, each run by
 * one of the 2 to 4 virtual nodes: the NX calls (point to point, message
 * ids, probes, handlers, global operations) on the iPSC/860 or the
 * Paragon, the Vertex calls (standard and extended, and the NCUBE 2's
 * global operations) on the NCUBE/ten or the NCUBE 2, with hostile sizes,
 * types, nodes, process types, ids and buffers (NULL, or inside an arena
 * the harness owns).  Every input must end in a documented way:
 *   status 0  (every call returned, errors as return values),
 *   status 1  with a "mcemu: " line (a plain NX form's failure, a fatal
 *             error of the program named with its node and time),
 *   status 3  with "mcemu: deadlock" or "mcemu: livelock",
 *   status 4  with a "limit" line (--mce-max-vtime, --mce-max-wall);
 * anything else (a signal, a sanitizer report, status 2 or 99, a hang
 * past the CPU limit, and under ASan a leak after a run that returned)
 * is a finding.
 *
 * The engine cannot be booted twice in one process: a run ends in
 * _exit() on every fatal path (deadlock, livelock, limits, fatal errors
 * of the program), the engine is one static record holding fibers,
 * signal handlers and the wall-clock timer, and a run abandoned inside a
 * call would leave protocol state no teardown knows.  So each input runs
 * in a forked child: the parent's state never changes, every input
 * starts from the same state (a reproducer reproduces), and any end of
 * the child is observable.  Under libFuzzer the coverage counters are
 * remapped onto shared memory before the first fork, so the child's
 * coverage reaches the fuzzer (share_counters()).
 *
 * Input: byte 0 picks the machine (bits 0-1: ipsc860, paragon, ncube,
 * ncube2), byte 1 the node count (2 or 4 on the hypercubes, 2 to 4 on
 * the Paragon, one row); if bit 7 of byte 0 is set, a settings record of
 * 8 bytes follows (add_settings: up to three machine constants, each a
 * key of the machine's key tables set to a value in its declared range,
 * and a trace or a seed); then records of 8 bytes
 * [node, call, a, b, c, d, e, f], at most MAX_OPS; node % nodes runs the
 * call, its arguments decoded from a..f (dec_* below).  Beside single
 * calls, the Vertex calls include composite ones (vx_composite) that
 * reach the protocol's depth: extended transfers and broadcasts with the
 * channels set up, bursts of standard messages that exhaust the buffer
 * pools, and reads after a computation.  With settings, status 2 (a
 * refused combination of constants, with its message) is documented
 * too.  Built twice:
 * with clang -fsanitize=fuzzer (make fuzz-build: LLVMFuzzerTestOneInput)
 * and with the project's compiler as a check program replaying the seed
 * corpus (tests/fuzz/corpus/calls; tests/core/fuzz_replay.sh). */
#define MCE_MCECC 1 /* the headers leave main alone: this file has its own */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nx.h"
#include "vertex.h"
#if defined(MCE_FUZZ_LIBFUZZER) || defined(__SANITIZE_ADDRESS__)
#define FUZZ_LEAK_CHECK 1
#include <sanitizer/lsan_interface.h>
#endif

#include "../../lib/api/registry.h"
#include "../../lib/core/engine.h"
#include "../../lib/machines/registry.h"
#include "../../lib/net/registry.h"

/* ncube2.h renames printf and friends; only these calls are needed. */
int mce_nc2_isumn(int x);
int mce_nc2_imaxn(int x);
double mce_nc2_dsumn(double x);
float mce_nc2_fprodn(double x);
void mce_nc2_nbrdcst(void *buf, int nbytes);
void mce_nc2_nglobal(void);
void mce_nc2_nlocal(void);
int mce_nc2_n_time(int *usec);

#define MAX_OPS   64
#define MAX_NODES 4
#define MAX_IDS   16
/* Sizes the harness passes as valid are at most 0xdf * 16 = 3568 bytes
 * and buffers start at most 127 * 32 bytes into the arena: even a global
 * collect of four such contributions (gcol) stays inside it. */
#define ARENA (32 * 1024)

enum { M_IPSC, M_PARAGON, M_NCUBE, M_NCUBE2 };

static const uint8_t *input;
static size_t input_len;
static int machine, nodes;
/* The settings record (NULL: none), and where the calls start. */
static const uint8_t *settings;
static size_t first_rec;

/* Per node: the arena (buffers, flags, info arrays, selector cells) and
 * the message ids the node's calls returned.  Static, so that a message
 * the emulator still reads or writes after its node ended stays inside
 * memory the harness owns (privatisation is off: nodes index these). */
static unsigned char arena[MAX_NODES][ARENA] __attribute__((aligned(64)));
static long ids[MAX_NODES][MAX_IDS];
static int nids[MAX_NODES];
static volatile long handled[MAX_NODES];

/* ---- argument decoding ---------------------------------------------- */

static const long hostile_long[] = {
    -1,           -2,          LONG_MIN,
    LONG_MIN + 1, INT_MIN,     (long)INT_MIN - 1,
    LONG_MAX,     INT_MAX,     (long)INT_MAX + 1,
    0xffff,       0x10000,     1L << 32,
    1L << 40,     0x7fffffffL, 0x40000000L,
    -4096};
/* Element counts whose byte count overflows for every element size. */
static const long overflow_count[] = {
    (1L << 61) + 1, LONG_MAX, LONG_MAX / 4 + 1, (1L << 62) + 3, -1,
    LONG_MIN,       -4096,    INT_MIN};
static const int hostile_int[] = {-1,      -2,      INT_MIN, INT_MAX,
                                  0xffff,  0x10000, 1 << 30, INT_MIN + 1,
                                  -0xffff, 0x7fff,  -4096,   0xfffe};

static long pick_long(uint8_t v)
{
    return hostile_long[v % (sizeof(hostile_long) / sizeof(*hostile_long))];
}

static int pick_int(uint8_t v)
{
    return hostile_int[v % (sizeof(hostile_int) / sizeof(*hostile_int))];
}

/* A buffer: NULL or 32-byte aligned inside the node's arena. */
static void *dec_buf(int me, uint8_t v)
{
    if (v == 0)
        return NULL;
    return arena[me] + (size_t)(v & 0x7f) * 32;
}

/* A byte count the call reads from (sends): valid, or one the emulator
 * must refuse (negative).  A positive count beyond the buffer would be
 * the program's own overflow, not the emulator's. */
static long dec_scount(uint8_t v)
{
    if (v < 0xe0)
        return (long)v * 16;
    return v & 1 ? -1 - (long)(v & 0x0e) : LONG_MIN + (v & 0x0e);
}

/* A byte count the call writes at most (a receive's capacity): any
 * value, as the messages are at most 3568 bytes. */
static long dec_rcount(uint8_t v)
{
    return v < 0xe0 ? (long)v * 16 : pick_long(v);
}

/* An element count of a global operation: valid for elements of @p esz
 * bytes, or one whose byte count is negative or overflows. */
static long dec_elems(uint8_t v, long esz)
{
    if (v < 0xe0)
        return (long)v * 16 / esz;
    return overflow_count[v & 7];
}

static long dec_node(uint8_t v)
{
    if (v < 0xf0)
        return (long)(v % (nodes + 3)) - 1; /* -1 .. nodes + 1 */
    return pick_long(v);
}

static long dec_type(uint8_t v)
{
    if (v < 0xe0)
        return v & 3;
    return v < 0xe4 ? FORCE_TYPE + (v & 3) : pick_long(v);
}

static long dec_typesel(uint8_t v)
{
    if (v < 0xc0)
        return v & 3;
    if (v < 0xe0)
        return -1;
    return pick_long(v);
}

static long dec_ptype(uint8_t v)
{
    if (v < 0xe0)
        return 0;
    return pick_long(v);
}

static long dec_id(int me, uint8_t v)
{
    if (v < 0xe0)
        return nids[me] ? ids[me][v % nids[me]] : 1;
    return v < 0xe8 ? (long)(v & 7) : pick_long(v);
}

static void keep_id(int me, long id)
{
    if (id > 0 && nids[me] < MAX_IDS)
        ids[me][nids[me]++] = id;
}

/* Vertex: ints */
static int dec_vnode(uint8_t v)
{
    if (v < 0xf0)
        return (int)(v % (nodes + 2)) - 1; /* -1 .. nodes */
    return v & 1 ? VX_BROADCAST : pick_int(v);
}

static int dec_vtype(uint8_t v)
{
    if (v < 0xe0)
        return v & 3;
    return pick_int(v);
}

static int dec_vscount(uint8_t v)
{
    if (v < 0xe0)
        return (int)v * 16;
    return v & 1 ? -1 : INT_MIN + (v & 0x0e);
}

static int dec_vrcount(uint8_t v)
{
    return v < 0xe0 ? (int)v * 16 : pick_int(v);
}

/* A completion flag: NULL or an int of the arena's flag area. */
static int *dec_flag(int me, uint8_t v)
{
    if (v == 0)
        return NULL;
    return (int *)(arena[me] + ARENA - 64) + (v & 7);
}

/* ---- NX ------------------------------------------------------------- */

static void handler(long type, long count, long node, long ptype)
{
    long me = mce_nx__mynode(); /* an NX call inside a handler */
    (void)type;
    (void)node;
    (void)ptype;
    if (me >= 0 && me < MAX_NODES)
        handled[me] += count >= 0;
}

static long sum_bytes(void *x, void *y)
{
    unsigned char *a = x, *b = y;
    a[0] = (unsigned char)(a[0] + b[0]);
    return 0;
}

typedef long (*gop_l)(long *, long, long *);
typedef long (*gop_d)(double *, long, double *);
typedef long (*gop_f)(float *, long, float *);

static void nx_gop(int me, int under, const uint8_t *a)
{
    void *x = dec_buf(me, a[1]), *w = dec_buf(me, a[3]);
    int k = a[0] % 12;
    if (under) {
        static const gop_d d[] = {mce_nx__gdsum, mce_nx__gdprod, mce_nx__gdhigh,
                                  mce_nx__gdlow};
        static const gop_l l[] = {mce_nx__gisum, mce_nx__giprod, mce_nx__gihigh,
                                  mce_nx__gilow};
        static const gop_f f[] = {mce_nx__gssum, mce_nx__gsprod, mce_nx__gshigh,
                                  mce_nx__gslow};
        if (k < 4)
            (void)d[k](x, dec_elems(a[2], 8), w);
        else if (k < 8)
            (void)l[k - 4](x, dec_elems(a[2], 8), w);
        else
            (void)f[k - 8](x, dec_elems(a[2], 4), w);
        return;
    }
    switch (k) {
    case 0:
        mce_nx_gdsum(x, dec_elems(a[2], 8), w);
        break;
    case 1:
        mce_nx_gisum(x, dec_elems(a[2], 8), w);
        break;
    case 2:
        mce_nx_gssum(x, dec_elems(a[2], 4), w);
        break;
    case 3:
        mce_nx_giand(x, dec_elems(a[2], 8), w);
        break;
    case 4:
        mce_nx_gior(x, dec_elems(a[2], 8), w);
        break;
    case 5:
        mce_nx_gland(x, dec_elems(a[2], 8), w);
        break;
    case 6:
        mce_nx_glor(x, dec_elems(a[2], 8), w);
        break;
    case 7:
        mce_nx_gdhigh(x, dec_elems(a[2], 8), w);
        break;
    case 8:
        mce_nx_gslow(x, dec_elems(a[2], 4), w);
        break;
    case 9:
        mce_nx_giprod(x, dec_elems(a[2], 8), w);
        break;
    case 10:
        mce_nx_gdprod(x, dec_elems(a[2], 8), w);
        break;
    default:
        mce_nx_gihigh(x, dec_elems(a[2], 8), w);
        break;
    }
}

static void nx_call(int me, uint8_t code, const uint8_t *a)
{
    /* One call in four is a plain form: its failure ends the run. */
    int under = (code & 0xc0) != 0xc0;
    long *info = (long *)(arena[me] + ARENA - 128);
    long id = 0;
    switch (code % 30) {
    case 0:
        if (under)
            (void)mce_nx__csend(dec_type(a[0]), dec_buf(me, a[1]),
                                dec_scount(a[2]), dec_node(a[3]),
                                dec_ptype(a[4]));
        else
            mce_nx_csend(dec_type(a[0]), dec_buf(me, a[1]), dec_scount(a[2]),
                         dec_node(a[3]), dec_ptype(a[4]));
        break;
    case 1:
        id = (under ? mce_nx__isend : mce_nx_isend)(
            dec_type(a[0]), dec_buf(me, a[1]), dec_scount(a[2]), dec_node(a[3]),
            dec_ptype(a[4]));
        break;
    case 2:
        if (under)
            (void)mce_nx__crecv(dec_typesel(a[0]), dec_buf(me, a[1]),
                                dec_rcount(a[2]));
        else
            mce_nx_crecv(dec_typesel(a[0]), dec_buf(me, a[1]),
                         dec_rcount(a[2]));
        break;
    case 3:
        id = (under ? mce_nx__irecv : mce_nx_irecv)(
            dec_typesel(a[0]), dec_buf(me, a[1]), dec_rcount(a[2]));
        break;
    case 4:
        (void)mce_nx__crecvx(dec_typesel(a[0]), dec_buf(me, a[1]),
                             dec_rcount(a[2]), dec_node(a[3]),
                             dec_typesel(a[4]), a[5] & 1 ? info : NULL);
        break;
    case 5:
        id = (under ? mce_nx__irecvx : mce_nx_irecvx)(
            dec_typesel(a[0]), dec_buf(me, a[1]), dec_rcount(a[2]),
            dec_node(a[3]), dec_typesel(a[4]), a[5] & 1 ? info : NULL);
        break;
    case 6:
        if (under)
            (void)mce_nx__msgwait(dec_id(me, a[0]));
        else
            mce_nx_msgwait(dec_id(me, a[0]));
        break;
    case 7:
        /* a few polls, as programs do */
        for (int i = 0; i <= (a[1] & 3); i++)
            if ((under ? mce_nx__msgdone : mce_nx_msgdone)(dec_id(me, a[0])))
                break;
        break;
    case 8:
        if (under)
            (void)mce_nx__msgcancel(dec_id(me, a[0]));
        else
            mce_nx_msgcancel(dec_id(me, a[0]));
        break;
    case 9:
        if (under)
            (void)mce_nx__msgignore(dec_id(me, a[0]));
        else
            mce_nx_msgignore(dec_id(me, a[0]));
        break;
    case 10:
        id = (under ? mce_nx__msgmerge : mce_nx_msgmerge)(dec_id(me, a[0]),
                                                          dec_id(me, a[1]));
        break;
    case 11:
        if (a[2] & 1)
            (void)(under ? mce_nx__iprobex : mce_nx_iprobex)(
                dec_typesel(a[0]), dec_node(a[1]), dec_typesel(a[3]),
                a[4] & 1 ? info : NULL);
        else
            (void)(under ? mce_nx__iprobe : mce_nx_iprobe)(dec_typesel(a[0]));
        break;
    case 12:
        if (under)
            (void)mce_nx__cprobex(dec_typesel(a[0]), dec_node(a[1]),
                                  dec_typesel(a[2]), a[3] & 1 ? info : NULL);
        else
            mce_nx_cprobe(dec_typesel(a[0]));
        break;
    case 13:
        id = (under ? mce_nx__hrecv : mce_nx_hrecv)(
            dec_typesel(a[0]), dec_buf(me, a[1]), dec_rcount(a[2]),
            a[3] & 1 ? handler : NULL);
        break;
    case 14:
        id = (under ? mce_nx__hsend : mce_nx_hsend)(
            dec_type(a[0]), dec_buf(me, a[1]), dec_scount(a[2]), dec_node(a[3]),
            dec_ptype(a[4]), a[5] & 1 ? handler : NULL);
        break;
    case 15:
        (void)(under ? mce_nx__masktrap : mce_nx_masktrap)(
            a[0] < 0xe0 ? a[0] & 1 : pick_long(a[0]));
        break;
    case 16:
        (void)(under ? mce_nx__csendrecv : mce_nx_csendrecv)(
            dec_type(a[0]), dec_buf(me, a[1]), dec_scount(a[2]), dec_node(a[3]),
            dec_ptype(a[4]), dec_typesel(a[0]), dec_buf(me, a[5]),
            dec_rcount(a[2] ^ a[5]));
        break;
    case 17:
        id = (under ? mce_nx__isendrecv : mce_nx_isendrecv)(
            dec_type(a[0]), dec_buf(me, a[1]), dec_scount(a[2]), dec_node(a[3]),
            dec_ptype(a[4]), dec_typesel(a[0]), dec_buf(me, a[5]),
            dec_rcount(a[2] ^ a[5]));
        break;
    case 18:
        if (under)
            (void)mce_nx__gsync();
        else
            mce_nx_gsync();
        break;
    case 19:
    case 20:
        nx_gop(me, under, a);
        break;
    case 21:
        if (under)
            (void)mce_nx__gopf(dec_buf(me, a[0]), dec_scount(a[1]),
                               dec_buf(me, a[2]), sum_bytes);
        else
            mce_nx_gopf(dec_buf(me, a[0]), dec_scount(a[1]), dec_buf(me, a[2]),
                        sum_bytes);
        break;
    case 22: {
        long ncnt = 0;
        if (under)
            (void)mce_nx__gcol(dec_buf(me, a[0]), dec_scount(a[1]),
                               dec_buf(me, a[2]), dec_rcount(a[3]),
                               a[4] & 1 ? &ncnt : NULL);
        else
            mce_nx_gcol(dec_buf(me, a[0]), dec_scount(a[1]), dec_buf(me, a[2]),
                        dec_rcount(a[3]), &ncnt);
        break;
    }
    case 23: {
        /* The lengths array: a node's own entry is what it sends. */
        long *xl = (long *)(arena[me] + ARENA - 256);
        for (int i = 0; i < MAX_NODES; i++)
            xl[i] = dec_scount(a[(i + 1) % 6]) / 4;
        if (under)
            (void)mce_nx__gcolx(dec_buf(me, a[0]), a[5] & 1 ? xl : NULL,
                                dec_buf(me, a[1] | 1));
        else
            mce_nx_gcolx(dec_buf(me, a[0]), xl, dec_buf(me, a[1] | 1));
        break;
    }
    case 24: {
        long *nl = (long *)(arena[me] + ARENA - 320);
        for (int i = 0; i < 6; i++)
            nl[i] = dec_node(a[i]);
        (void)mce_nx__gsendx(dec_type(a[0]), dec_buf(me, a[1]),
                             dec_scount(a[2]), a[3] & 1 ? nl : NULL,
                             a[4] < 0xe0 ? a[4] % 7 : pick_long(a[4]));
        break;
    }
    case 25:
        if (under)
            (void)mce_nx__setptype(dec_ptype(a[0]));
        else
            mce_nx_setptype(dec_ptype(a[0]));
        break;
    case 26: {
        long long t;
        (void)mce_nx_infocount();
        (void)mce_nx_infonode();
        (void)mce_nx_infotype();
        (void)mce_nx_infoptype();
        (void)mce_nx_myptype();
        (void)mce_nx_nodedim();
        (void)mce_nx_dclock();
        mce_nx_hwclock(a[0] & 1 ? &t : NULL);
        break;
    }
    case 27:
        /* a polling loop: the livelock guard ends it if nothing comes */
        for (int i = 0; i < 64 * (a[1] + 1); i++)
            if (mce_nx__iprobe(dec_typesel(a[0])) != 0)
                break;
        break;
    case 28:
        (void)mce_nx__cprobe(dec_typesel(a[0]));
        break;
    default:
        /* a wait on every id this node holds */
        for (int i = 0; i < nids[me]; i++)
            (void)mce_nx__msgwait(ids[me][i]);
        break;
    }
    keep_id(me, id);
}

/* ---- Vertex ----------------------------------------------------------- */

/* The cube's dimension (whoami's), for the calls below that pick a
 * neighbour or a set of channels. */
static int vx_dim(void)
{
    int dim = 0;
    mce_vx_whoami(NULL, NULL, NULL, &dim);
    return dim;
}

/* Sizes of the extended transfers: few, so that a sender's and a
 * receiver's calls often agree (rcvreq takes exactly the bytes sent). */
static int xsize(uint8_t v)
{
    return (v & 3) * 64;
}

static void vx_composite(int me, int k, const uint8_t *a)
{
    int dim = vx_dim();
    unsigned char *buf = arena[me] + 256;
    switch (k) {
    case 0: {
        /* An extended transfer with the neighbour across dimension
         * a[0]: its channel to extended mode, a send or a rcvreq of one
         * of four sizes, perhaps waiting for the flag, perhaps the
         * channel back to standard mode afterwards. */
        int nb = dim ? me ^ (1 << (a[0] % dim)) : me;
        int *flag = dec_flag(me, a[4] | 1);
        int rc;
        (void)mce_vx_chanmode(nb, VX_EXTENDED);
        if (a[3] & 1)
            rc = mce_vx_rcvreq(buf, xsize(a[1]), nb, a[2] & 1, flag);
        else
            rc = mce_vx_send(buf, xsize(a[1]), nb, a[2] & 1, flag);
        if (rc == 0 && (a[3] & 2))
            (void)mce_vx_flagwait(flag);
        if (a[3] & 4)
            (void)mce_vx_chanmode(nb, VX_STANDARD);
        break;
    }
    case 1: {
        /* An extended broadcast on the channels of mask a[0] (every one
         * of them to extended mode first), perhaps waiting for it. */
        unsigned mask = dim ? a[0] & ((1u << dim) - 1) : 0;
        int *flag = dec_flag(me, a[4] | 1);
        if (mask == 0)
            mask = 1;
        for (int d = 0; d < dim; d++)
            if (mask & (1u << d))
                (void)mce_vx_chanmode(me ^ (1 << d), VX_EXTENDED);
        if (mce_vx_bcast(buf, xsize(a[1]), (int)mask, a[2] & 1, flag) == 0 &&
            (a[3] & 2))
            (void)mce_vx_flagwait(flag);
        break;
    }
    case 2: {
        /* A burst of 1 to 16 standard messages of up to 16 KiB to one
         * node (or all): the sender's pool and the receiver's fill, and
         * nwrite and the length requests wait for buffers. */
        int n = 1 + (a[0] & 15), len = a[1] * 64;
        int dest = a[2] < 0xc0   ? (int)(a[2] % nodes)
                   : a[2] < 0xe0 ? VX_BROADCAST
                                 : dec_vnode(a[2]);
        for (int i = 0; i < n; i++)
            if (mce_vx_nwrite(arena[me], len, dest, a[3] & 3, NULL) < 0)
                break;
        break;
    }
    default: {
        /* Perhaps compute first (up to 25.6 ms: the pool fills
         * meanwhile), then read up to 16 messages: each blocking (a
         * deadlock if none comes) or only those already there. */
        int n = 1 + (a[0] & 15);
        if (a[1] & 8)
            (void)mce_compute((mce_time_t)(a[4] + 1) * 100 * MCE_US);
        for (int i = 0; i < n; i++) {
            int *cell = (int *)(arena[me] + ARENA - 96);
            cell[0] = a[1] & 2 ? (int)(a[2] % nodes) : -1;
            cell[1] = a[1] & 4 ? a[3] & 3 : -1;
            if (!(a[1] & 1) && mce_vx_ntest(cell, cell + 1) < 0)
                break;
            if (mce_vx_nread(arena[me], ARENA - 512, cell, cell + 1, NULL) < 0)
                break;
        }
        break;
    }
    }
}

static void vx_call(int me, uint8_t code, const uint8_t *a)
{
    int *cell = (int *)(arena[me] + ARENA - 96);
    if (code % 16 >= 12) {
        vx_composite(me, code % 16 - 12, a);
        return;
    }
    switch (code % 16) {
    case 0:
        (void)mce_vx_nwrite(dec_buf(me, a[0]), dec_vscount(a[1]),
                            dec_vnode(a[2]), dec_vtype(a[3]),
                            dec_flag(me, a[4]));
        break;
    case 1:
        cell[0] = dec_vnode(a[2]);
        cell[1] = a[3] < 0xc0 ? a[3] & 3 : dec_vtype(a[3]);
        (void)mce_vx_nread(dec_buf(me, a[0]), dec_vrcount(a[1]),
                           a[4] & 1 ? cell : NULL, a[4] & 2 ? cell + 1 : NULL,
                           dec_flag(me, a[5]));
        break;
    case 2:
        cell[0] = dec_vnode(a[0]);
        cell[1] = dec_vtype(a[1]);
        for (int i = 0; i <= (a[2] & 7); i++)
            if (mce_vx_ntest(a[3] & 1 ? cell : NULL,
                             a[3] & 2 ? cell + 1 : NULL) >= 0)
                break;
        break;
    case 3:
        (void)mce_vx_send(dec_buf(me, a[0]), dec_vscount(a[1]), dec_vnode(a[2]),
                          dec_vtype(a[3]), dec_flag(me, a[4]));
        break;
    case 4:
        (void)mce_vx_rcvreq(dec_buf(me, a[0]), dec_vrcount(a[1]),
                            dec_vnode(a[2]), dec_vtype(a[3]),
                            dec_flag(me, a[4]));
        break;
    case 5:
        (void)mce_vx_bcast(dec_buf(me, a[0]), dec_vscount(a[1]),
                           a[2] < 0xe0 ? a[2] & 7 : pick_int(a[2]),
                           dec_vtype(a[3]), dec_flag(me, a[4]));
        break;
    case 6:
        (void)mce_vx_chanmode(dec_vnode(a[0]),
                              a[1] < 0xe0 ? a[1] & 1 : pick_int(a[1]));
        break;
    case 7:
        (void)mce_vx_flagwait(dec_flag(me, a[0]));
        break;
    case 8: {
        int n, p, h, d;
        (void)mce_vx_ntime();
        mce_vx_whoami(a[0] & 1 ? &n : NULL, a[0] & 2 ? &p : NULL,
                      a[0] & 4 ? &h : NULL, a[0] & 8 ? &d : NULL);
        (void)mce_vx_npid();
        (void)mce_vx_ncubesize();
        break;
    }
    case 9: {
        /* a flag polled with ntime, as the paper's programs do */
        volatile int *f = dec_flag(me, a[0] | 1);
        for (int i = 0; i < 32 * (a[1] + 1) && !*f; i++)
            (void)mce_vx_ntime();
        break;
    }
    case 10:
        if (machine != M_NCUBE2)
            break;
        switch (a[0] % 7) {
        case 0:
            (void)mce_nc2_isumn(a[1]);
            break;
        case 1:
            (void)mce_nc2_imaxn(-a[1]);
            break;
        case 2:
            (void)mce_nc2_dsumn(a[1] * 0.5);
            break;
        case 3:
            (void)mce_nc2_fprodn(a[1] * 1e30);
            break;
        case 4:
            mce_nc2_nbrdcst(dec_buf(me, a[1]), dec_vscount(a[2]));
            break;
        case 5:
            if (a[1] & 1)
                mce_nc2_nglobal();
            else
                mce_nc2_nlocal();
            break;
        default: {
            int us;
            (void)mce_nc2_n_time(a[1] & 1 ? &us : NULL);
            break;
        }
        }
        break;
    default:
        /* standard receive of anything, into a buffer large enough */
        cell[0] = -1;
        cell[1] = -1;
        if (mce_vx_ntest(cell, cell + 1) >= 0)
            (void)mce_vx_nread(arena[me], 4096, cell, cell + 1, NULL);
        break;
    }
}

/* The node program: run this node's calls in input order. */
int mce_user_main(int argc, char **argv);
int mce_user_main(int argc, char **argv)
{
    int me = -1;
    (void)argc;
    (void)argv;
    if (machine <= M_PARAGON)
        me = (int)mce_nx_mynode();
    else
        mce_vx_whoami(&me, NULL, NULL, NULL);
    if (me < 0 || me >= MAX_NODES)
        return 70;
    for (size_t i = first_rec, k = 0; i + 8 <= input_len && k < MAX_OPS;
         i += 8, k++) {
        const uint8_t *r = input + i;
        if (r[0] % nodes != me)
            continue;
        if (machine <= M_PARAGON)
            nx_call(me, r[1], r + 2);
        else
            vx_call(me, r[1], r + 2);
    }
    return 0;
}

/* ---- one run, in a child ------------------------------------------------ */

enum {
    OUT_OK,
    OUT_ERROR,
    OUT_STOPPED,
    OUT_LIMIT,
    OUT_REFUSED,
    OUT_BAD,
    OUT_NKINDS
};
static const char *const kind_name[] = {
    "success", "mcemu error", "deadlock/livelock", "limit", "refused", "BAD"};

static int outfd = -1; /* the child's output, read back by the parent */

/* ---- machine constants -------------------------------------------------- */

/* The numeric keys a run on @p mname may set: those of its protocol's
 * and its network model's key tables, and those its machine file sets
 * (the engine's own: latency, cycle_time, ...), in table and file order;
 * @p file gets each key's value in the file (or its default, or 0). */
static size_t key_candidates(const char *mname, const mcei_key_t **out,
                             uint64_t *file, size_t cap)
{
    mcei_machine_t m = {0};
    char err[512];
    size_t n = 0;
    const mcei_keytab_t *tabs[2] = {NULL, NULL};
    mcei_kv_t *kv;
    if (mcei_machine_load(&m, mname, NULL, NULL, err, sizeof(err)) != MCE_OK)
        return 0;
    if ((kv = mcei_kv_find(&m.kv, "protocol")) != NULL &&
        mcei_proto_lookup(kv->value) != NULL)
        tabs[0] = mcei_proto_lookup(kv->value)->keys;
    if ((kv = mcei_kv_find(&m.kv, "network")) != NULL &&
        mcei_net_lookup(kv->value) != NULL)
        tabs[1] = mcei_net_lookup(kv->value)->keys;
    for (size_t t = 0; t < 2 + m.kv.count && n < cap; t++) {
        const mcei_key_t *k = NULL;
        size_t nk = 1;
        if (t < 2) {
            if (tabs[t] == NULL)
                continue;
            nk = tabs[t]->n;
        }
        for (size_t j = 0; j < nk && n < cap; j++) {
            int dup = 0;
            k = t < 2 ? &tabs[t]->keys[j]
                      : mcei_key_find(&m, m.kv.items[t - 2].key);
            /* the node count and the Paragon's shape are the header's */
            if (k == NULL || k->kind == MCEI_KEY_STRING ||
                strcmp(k->name, "nodes") == 0 ||
                strcmp(k->name, "paragon.width") == 0 ||
                strcmp(k->name, "paragon.height") == 0)
                continue;
            for (size_t i = 0; i < n; i++)
                dup |= out[i] == k;
            if (dup)
                continue;
            file[n] = 0;
            if ((kv = mcei_kv_find(&m.kv, k->name)) != NULL)
                (void)mcei_key_parse(k, kv->value, &file[n], err, sizeof(err));
            else if (k->def != NULL)
                (void)mcei_key_parse(k, k->def, &file[n], err, sizeof(err));
            out[n++] = k;
        }
    }
    mcei_machine_free(&m);
    return n;
}

/* A value of key @p k in its declared range, picked by @p v from the
 * machine file's value @p file: the range's ends, the file's value
 * scaled down or up by a power of two or nudged, a small one, or any. */
static uint64_t pick_value(const mcei_key_t *k, uint64_t file, uint8_t v,
                           uint8_t salt)
{
    uint64_t r, unit = k->kind == MCEI_KEY_COUNT ? 1 : 1000000;
    int sh = 1 + (v & 7);
    switch (v >> 5) {
    case 0:
        r = k->min;
        break;
    case 1:
        r = k->max;
        break;
    case 2:
        r = file >> sh;
        break;
    case 3:
        r = file > (UINT64_MAX >> sh) ? UINT64_MAX : file << sh;
        break;
    case 4:
        r = (uint64_t)(v & 31) * unit; /* 0..31 (us, or units) */
        break;
    case 5:
        r = file + (v & 15) - 8;
        if ((v & 15) < 8 && file < 8u - (v & 15))
            r = 0;
        break;
    case 6:
        r = file + file / 2;
        break;
    default: {
        uint64_t span = k->max - k->min;
        uint64_t h = ((uint64_t)salt << 8 | v) * 0x9e3779b97f4a7c15ULL;
        r = k->min + (span == UINT64_MAX ? h : h % (span + 1));
        break;
    }
    }
    if (r < k->min)
        r = k->min;
    if (r > k->max)
        r = k->max;
    return r;
}

/* The settings record [key, value] x 3, flags, seed as options: up to
 * three --mce-set of keys picked from key_candidates, each within its
 * range; flags bit 0 a trace (to /dev/null), bit 1 --mce-seed. */
static void add_settings(const char *mname, char **args, int *argc)
{
    static char sets[3][160], seed[32];
    const mcei_key_t *keys[256];
    uint64_t file[256];
    size_t n = key_candidates(mname, keys, file, 256);
    for (int i = 0; i < 3 && n > 0; i++) {
        const mcei_key_t *k = keys[settings[2 * i] % n];
        uint64_t v = pick_value(k, file[settings[2 * i] % n],
                                settings[2 * i + 1], settings[7]);
        if (k->kind == MCEI_KEY_TIME)
            snprintf(sets[i], sizeof(sets[i]), "--mce-set=%s=%" PRIu64 "ps",
                     k->name, v);
        else if (k->kind == MCEI_KEY_MICRO)
            snprintf(sets[i], sizeof(sets[i]),
                     "--mce-set=%s=%" PRIu64 ".%06" PRIu64, k->name,
                     v / 1000000, v % 1000000);
        else
            snprintf(sets[i], sizeof(sets[i]), "--mce-set=%s=%" PRIu64, k->name,
                     v);
        args[(*argc)++] = sets[i];
    }
    if (settings[6] & 1)
        args[(*argc)++] = (char *)"--mce-trace=/dev/null";
    if (settings[6] & 2) {
        snprintf(seed, sizeof(seed), "--mce-seed=%d", settings[7]);
        args[(*argc)++] = seed;
    }
}

#ifdef MCE_FUZZ_LIBFUZZER
static void exit_as_is(int status, void *arg)
{
    (void)arg;
    fflush(NULL);
    _exit(status);
}
#endif

/* Boot and run the engine on the decoded input; never returns. */
static void child(void)
{
    static const char *const mname[] = {"ipsc860", "paragon", "ncube",
                                        "ncube2"};
    char a_machine[40], a_nodes[32], a_width[48];
    char *args[24], *envp[] = {NULL};
    char **argv = args;
    int argc = 0, status;
    struct rlimit cpu = {20, 20}; /* a hang is a finding, not a stall */

    setrlimit(RLIMIT_CPU, &cpu);
    dup2(outfd, 1);
    dup2(outfd, 2);
    snprintf(a_machine, sizeof(a_machine), "--mce-machine=%s", mname[machine]);
    snprintf(a_nodes, sizeof(a_nodes), "--mce-nodes=%d", nodes);
    snprintf(a_width, sizeof(a_width), "--mce-set=paragon.width=%d", nodes);
    args[argc++] = (char *)"fuzz_calls";
    args[argc++] = a_machine;
    args[argc++] = a_nodes;
    if (machine == M_PARAGON)
        args[argc++] = a_width;
    args[argc++] = (char *)"--mce-privatize=off";
    args[argc++] = (char *)"--mce-livelock=1ms";
    args[argc++] = (char *)"--mce-max-vtime=1000s";
    args[argc++] = (char *)"--mce-max-wall=10s";
    if (mcei_net_register_all() != MCE_OK ||
        mcei_proto_register_all() != MCE_OK ||
        mcei_api_register_all() != MCE_OK)
        _exit(71);
    if (settings != NULL)
        add_settings(mname[machine], args, &argc);
    /* FUZZ_OPTION=--mce-...: one more option, to look at a run */
    if (getenv("FUZZ_OPTION") != NULL)
        args[argc++] = getenv("FUZZ_OPTION");
    args[argc] = NULL;
    if (getenv("FUZZ_VERBOSE") != NULL) {
        printf("fuzz_calls: options:");
        for (int i = 1; i < argc; i++)
            printf(" %s", args[i]);
        printf("\n");
        fflush(stdout);
    }
#ifdef MCE_FUZZ_LIBFUZZER
    /* A configuration the engine refuses ends in exit(2), whose atexit
     * handlers include libFuzzer's "fuzz target exited": this one, run
     * first, ends the child with the engine's status instead. */
    on_exit(exit_as_is, NULL);
#endif
    if (mcei_engine_boot(&argc, &argv, envp) != MCE_OK)
        _exit(72);
    status = mcei_engine_run();
    fflush(NULL);
#ifdef FUZZ_LEAK_CHECK
    /* A run that ended normally freed what it took. */
    if (__lsan_do_recoverable_leak_check() != 0)
        _exit(99);
#endif
    _exit(status);
}

/* Decode the header, run the input in a child and classify its end.
 * @p out gets the child's output (NUL-terminated, truncated). */
static int run_one(const uint8_t *data, size_t size, char *out, size_t outlen,
                   int *status_out)
{
    pid_t pid;
    int st = 0, kind;
    ssize_t n;

    out[0] = '\0';
    *status_out = -1;
    if (size < 2)
        return OUT_OK;
    input = data;
    input_len = size;
    machine = data[0] & 3;
    /* Bit 7 of byte 0: a settings record comes before the calls. */
    settings = (data[0] & 0x80) && size >= 10 ? data + 2 : NULL;
    first_rec = settings != NULL ? 10 : 2;
    nodes = machine == M_PARAGON ? 2 + data[1] % 3 : 2 << (data[1] & 1);
    memset(nids, 0, sizeof(nids));
    if (outfd < 0) {
        /* one unlinked file for every run's output */
        const char *dir = getenv("TMPDIR");
        char tmpl[4096];
        snprintf(tmpl, sizeof(tmpl), "%s/fuzz_calls.XXXXXX",
                 dir && *dir ? dir : "/tmp");
        if ((outfd = mkstemp(tmpl)) < 0) {
            perror("fuzz_calls: mkstemp");
            abort();
        }
        unlink(tmpl);
    }
    if (ftruncate(outfd, 0) != 0 || lseek(outfd, 0, SEEK_SET) != 0)
        abort();
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        perror("fuzz_calls: fork");
        abort();
    }
    if (pid == 0)
        child();
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            abort();
    n = pread(outfd, out, outlen - 1, 0);
    out[n > 0 ? n : 0] = '\0';
    if (WIFSIGNALED(st))
        return OUT_BAD;
    *status_out = WEXITSTATUS(st);
    switch (WEXITSTATUS(st)) {
    case 0:
        kind = OUT_OK;
        break;
    case 1:
        /* A fatal error names itself on a line of its own. */
        kind = strncmp(out, "mcemu: ", 7) == 0 || strstr(out, "\nmcemu: ")
                   ? OUT_ERROR
                   : OUT_BAD;
        break;
    case 3:
        kind = strstr(out, "mcemu: deadlock") || strstr(out, "mcemu: livelock")
                   ? OUT_STOPPED
                   : OUT_BAD;
        break;
    case 4:
        kind = strstr(out, "limit") ? OUT_LIMIT : OUT_BAD;
        break;
    case 2:
        /* Machine constants the settings record varied may be refused
         * (a range one key's table cannot express): before any node
         * ran, with a message. */
        kind = settings != NULL && (strncmp(out, "mcemu: ", 7) == 0 ||
                                    strstr(out, "\nmcemu: "))
                   ? OUT_REFUSED
                   : OUT_BAD;
        break;
    default:
        kind = OUT_BAD;
    }
    /* Whatever the status, a sanitizer report is a finding. */
    if (strstr(out, "ERROR: AddressSanitizer") ||
        strstr(out, "runtime error:") || strstr(out, "ERROR: LeakSanitizer"))
        kind = OUT_BAD;
    return kind;
}

static void report_bad(const char *what, int status, const char *out)
{
    fprintf(stderr,
            "fuzz_calls: %s: no documented end (status %d); its output:\n%s\n",
            what, status, out);
}

#ifdef MCE_FUZZ_LIBFUZZER
/* ---- libFuzzer -------------------------------------------------------- */

/* The inline 8-bit counters of -fsanitize=fuzzer live in this section;
 * remapped onto a shared memory file, the forked child's updates land in
 * the counters the parent's libFuzzer reads after the run. */
/* The section's bounds, read in assembly: a C declaration of
 * __start___sancov_cntrs in an instrumented file makes the coverage pass
 * rename its own, and its module constructor (one per executable) then
 * registers no counters at all. */
static uint8_t *cntrs_start, *cntrs_stop;

static void find_counters(void)
{
#if defined(__x86_64__)
    __asm__(".weak __start___sancov_cntrs\n\t"
            ".weak __stop___sancov_cntrs\n\t"
            "lea __start___sancov_cntrs(%%rip), %0\n\t"
            "lea __stop___sancov_cntrs(%%rip), %1"
            : "=r"(cntrs_start), "=r"(cntrs_stop));
#endif
}

/* The pages round the section hold the end of .data and the start of
 * __sancov_pcs (constant after start-up), some of it ASan redzones: the
 * copy reads them without instrumentation. */
__attribute__((no_sanitize("address"))) static void
copy_raw(unsigned char *dst, const volatile unsigned char *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = src[i];
}

static void share_counters(void)
{
    find_counters();
    uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = (uintptr_t)cntrs_start & ~(pg - 1);
    uintptr_t hi = ((uintptr_t)cntrs_stop + pg - 1) & ~(pg - 1);
    void *copy;
    int fd;
    if (cntrs_start == NULL || hi <= lo) {
        fprintf(stderr, "fuzz_calls: coverage counters not found: the "
                        "children's coverage is lost\n");
        return;
    }
    fd = memfd_create("fuzz_calls_counters", 0);
    copy = malloc(hi - lo);
    if (fd < 0 || copy == NULL || ftruncate(fd, (off_t)(hi - lo)) != 0)
        abort();
    copy_raw(copy, (const unsigned char *)lo, hi - lo);
    if (pwrite(fd, copy, hi - lo, 0) != (ssize_t)(hi - lo) ||
        mmap((void *)lo, hi - lo, PROT_READ | PROT_WRITE,
             MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
        abort();
    free(copy);
    close(fd);
}

/* ASan's and UBSan's reports end with status 99 (not 1, a fatal error
 * of the emulated program); a huge allocation fails as it does outside
 * the sanitizers. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "exitcode=99:allocator_may_return_null=1";
}
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
    return "exitcode=99:halt_on_error=1:print_stacktrace=1";
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    share_counters();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char out[1 << 16];
    int status, kind;
    if (size > 2 + 8 * MAX_OPS)
        return -1; /* not added to the corpus */
    kind = run_one(data, size, out, sizeof(out), &status);
    if (getenv("FUZZ_VERBOSE"))
        fprintf(stderr, "fuzz_calls: %s (status %d)\n%s", kind_name[kind],
                status, out);
    if (kind == OUT_BAD) {
        report_bad("this input", status, out);
        abort();
    }
    return 0;
}

#else
/* ---- replay: fuzz_calls_replay FILE|DIR... ------------------------------ */
#include <dirent.h>

static int count[OUT_NKINDS], bad;

static void replay_file(const char *path)
{
    static uint8_t buf[4096];
    static char out[1 << 16];
    FILE *f = fopen(path, "rb");
    size_t n;
    int status, kind;
    if (f == NULL) {
        perror(path);
        bad++;
        return;
    }
    n = fread(buf, 1, sizeof(buf), f);
    fclose(f);
    if (n > 2 + 8 * MAX_OPS)
        n = 2 + 8 * MAX_OPS;
    kind = run_one(buf, n, out, sizeof(out), &status);
    count[kind]++;
    if (getenv("FUZZ_VERBOSE"))
        printf("%s: %s (status %d)\n%s", path, kind_name[kind], status, out);
    else
        printf("%s: %s (status %d)\n", path, kind_name[kind], status);
    if (kind == OUT_BAD) {
        report_bad(path, status, out);
        bad++;
    }
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--keys") == 0) {
        /* the settings record's key numbers on a machine (calls_seeds.py) */
        const mcei_key_t *keys[256];
        uint64_t file[256];
        size_t n;
        if (mcei_net_register_all() != MCE_OK ||
            mcei_proto_register_all() != MCE_OK ||
            mcei_api_register_all() != MCE_OK)
            return 2;
        n = key_candidates(argv[2], keys, file, 256);
        for (size_t i = 0; i < n; i++)
            printf("%zu %s %" PRIu64 "\n", i, keys[i]->name, file[i]);
        return n ? 0 : 1;
    }
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        struct dirent **ents;
        int n;
        if (stat(argv[i], &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            replay_file(argv[i]);
            continue;
        }
        /* sorted: the same order, and output, on every run */
        if ((n = scandir(argv[i], &ents, NULL, by_name)) < 0) {
            perror(argv[i]);
            return 2;
        }
        for (int k = 0; k < n; k++) {
            char path[4096];
            if (ents[k]->d_name[0] != '.') {
                snprintf(path, sizeof(path), "%s/%s", argv[i], ents[k]->d_name);
                replay_file(path);
            }
            free(ents[k]);
        }
        free(ents);
    }
    printf("replayed %d inputs: %d success, %d mcemu error, %d "
           "deadlock/livelock, %d limit, %d refused, %d without a documented "
           "end\n",
           count[OUT_OK] + count[OUT_ERROR] + count[OUT_STOPPED] +
               count[OUT_LIMIT] + count[OUT_REFUSED] + count[OUT_BAD],
           count[OUT_OK], count[OUT_ERROR], count[OUT_STOPPED],
           count[OUT_LIMIT], count[OUT_REFUSED], count[OUT_BAD]);
    return bad ? 1 : 0;
}
#endif
