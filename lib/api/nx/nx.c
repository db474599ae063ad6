/* NX personality: argument checking, NX's two error conventions and the
 * global operations, over the nx machine protocol.  Global operations are
 * real message algorithms (in the system context, so they never match
 * user receives), so their cost comes from the machine model. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/engine.h"
#include "../../machines/nx/nxproto.h"
#include "../registry.h"
#include "nx.h"

MCE_EXPORT long mce_nx_msginfo[8];
MCE_EXPORT int mce_nx_msginfo32[8];

/* A value for the 32-bit forms' int arrays that the caller (an int
 * program) cannot have made exceed int: saturated. */
static int sat32(long v)
{
    return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v;
}

/* msginfo is one global of the library shared by every node of a process:
 * it is refreshed from the node's own record whenever a node resumes (the
 * NX personality's on_resume, lib/api/registry.c) and at each call's end. */
void mcei_nx_on_resume(mcei_vn_t *vn);
void mcei_nx_on_resume(mcei_vn_t *vn)
{
    const mcei_nx_info_t *i;
    if (!mcei_nx_active() || vn->proto == NULL)
        return;
    i = mcei_nx_last(vn);
    mce_nx_msginfo[0] = i->type;
    mce_nx_msginfo[1] = i->count;
    mce_nx_msginfo[2] = i->node;
    mce_nx_msginfo[3] = i->ptype;
    mce_nx_msginfo[4] = i->pid;
    for (int k = 0; k < 5; k++)
        mce_nx_msginfo32[k] = sat32(mce_nx_msginfo[k]);
}

/* Called before mcemu started, and the executable has no renamed main
 * for mcemu to run: the program's own main is running instead of mcemu's
 * (its file included no mcemu header).  A call from a constructor of a
 * proper program is only "outside a node". */
static int main_bypassed(void)
{
    return !mcei_api_has_entry();
}

static mcei_vn_t *enter(const char *call)
{
    mcei_vn_t *vn = mcei_enter();
    if (!mcei_engine_up() && main_bypassed()) {
        /* The program's own main ran instead of mcemu's: nothing was
         * booted, and carrying on would run one node that is no node. */
        fprintf(stderr,
                "mcemu: NX %s: called before mcemu started: the program's "
                "main bypassed the emulator because the file that defines "
                "main includes no mcemu header.  Include nx.h in that file, "
                "or compile it with mcecc -mce-api=nx\n",
                call);
        exit(2);
    }
    if (vn == NULL) {
        mcei_log("NX %s: called outside a node program", call);
        errno = EINVAL;
        return NULL;
    }
    if (!mcei_nx_active())
        mcei_vn_fatal(vn,
                      "NX %s: NX calls need an NX machine (protocol nx: "
                      "ipsc860 or paragon); machine '%s' is not one (use "
                      "--mce-machine=ipsc860)",
                      call, mcei_machine_name());
    mcei_api_begin(vn, call);
    mcei_nx_enter(vn);
    mcei_nx_run_handlers(vn);
    return vn;
}

static long leave(mcei_vn_t *vn, long rv)
{
    mcei_nx_run_handlers(vn);
    mcei_nx_on_resume(vn);
    mcei_leave(vn);
    return rv;
}

/* The plain form ends the program, the '_' form returns -1 with errno. */
static long nx_fail(mcei_vn_t *vn, int under, const char *call, int eno,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static long nx_fail(mcei_vn_t *vn, int under, const char *call, int eno,
                    const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (!under)
        mcei_vn_fatal(vn, "NX %s: %s", call, msg);
    leave(vn, -1);
    errno = eno;
    return -1;
}

static long status_fail(mcei_vn_t *vn, int under, const char *call, int rc)
{
    switch (rc) {
    case MCE_ERR_RESOURCE:
        return nx_fail(vn, under, call, EAGAIN,
                       "too many outstanding messages or receives for the "
                       "operating system of node %d",
                       vn->id);
    case MCE_ERR_NOT_FOUND:
        return nx_fail(vn, under, call, EINVAL, "unknown message id");
    case MCE_ERR_TRUNCATE:
        return nx_fail(vn, under, call, EMSGSIZE,
                       "message longer than the receive buffer");
    case MCE_ERR_STATE: /* from the global operations' receives */
        return nx_fail(vn, under, call, EINVAL,
                       "the nodes' global operations do not match (another "
                       "node called a different one, or gave another length)");
    default:
        return nx_fail(vn, under, call, EINVAL, "%s", mce_strerror(rc));
    }
}

static int bad_type(long t)
{
    return t < 0 || t > 0x7fffffffL;
}

static int bad_sel(long t)
{
    return t < -1 || t > 0x7fffffffL;
}

/* ---- identity and time -------------------------------------------------- */

#define SIMPLE(name, expr)                                                     \
    static long do_##name(int under)                                           \
    {                                                                          \
        mcei_vn_t *vn = enter(#name);                                          \
        (void)under;                                                           \
        if (vn == NULL)                                                        \
            return -1;                                                         \
        return leave(vn, (expr));                                              \
    }                                                                          \
    MCE_EXPORT long mce_nx_##name(void)                                        \
    {                                                                          \
        return do_##name(0);                                                   \
    }                                                                          \
    MCE_EXPORT long mce_nx__##name(void)                                       \
    {                                                                          \
        return do_##name(1);                                                   \
    }

static long dim_of(int n)
{
    long d = 0;
    while ((1L << d) < n)
        d++;
    return d;
}

SIMPLE(mynode, (long)vn->id)
SIMPLE(numnodes, (long)mcei_nnodes())
SIMPLE(myhost, -1L)
SIMPLE(mypid, mcei_nx_ptype(vn))
SIMPLE(myptype, mcei_nx_ptype(vn))
SIMPLE(nodedim, dim_of(mcei_nnodes()))
SIMPLE(infocount, mcei_nx_last(vn)->count)
SIMPLE(infonode, mcei_nx_last(vn)->node)
SIMPLE(infotype, mcei_nx_last(vn)->type)
SIMPLE(infoptype, mcei_nx_last(vn)->ptype)
SIMPLE(infopid, mcei_nx_last(vn)->pid)

static long do_setptype(int under, long ptype)
{
    mcei_vn_t *vn = enter("setptype");
    if (vn == NULL)
        return -1;
    if (ptype < 0)
        return nx_fail(vn, under, "setptype", EINVAL,
                       "process type %ld is negative", ptype);
    mcei_nx_set_ptype(vn, ptype);
    return leave(vn, 0);
}

MCE_EXPORT void mce_nx_setptype(long p)
{
    do_setptype(0, p);
}

MCE_EXPORT long mce_nx__setptype(long p)
{
    return do_setptype(1, p);
}

/* Reading the clock is a call that costs a probe: clock loops advance. */
static mce_time_t tick(const char *call)
{
    mcei_vn_t *vn = enter(call);
    mce_time_t t;
    if (vn == NULL)
        return 0;
    mcei_poll_begin(vn, call);
    mcei_sync(vn);
    mcei_charge_comm(vn, mcei_nx_probe_cost());
    mcei_poll_end(vn);
    t = vn->clock;
    leave(vn, 0);
    return t;
}

MCE_EXPORT double mce_nx_dclock(void)
{
    return (double)tick("dclock") / (double)MCE_S;
}

MCE_EXPORT unsigned long mce_nx_mclock(void)
{
    return (unsigned long)(tick("mclock") / MCE_MS);
}

MCE_EXPORT void mce_nx_hwclock(long long *ticks)
{
    mce_time_t t = tick("hwclock");
    if (mcei_current_vn() == NULL)
        return; /* outside a node: reported by tick() */
    if (ticks != NULL)
        *ticks = (long long)(t / mcei_cycle_time());
}

MCE_EXPORT void mce_nx_flick(void)
{
    tick("flick");
}

/* ---- point to point ------------------------------------------------------ */

static long send_checks(mcei_vn_t *vn, int under, const char *call, long type,
                        const void *buf, long count, long node, long ptype,
                        int allow_all)
{
    if (ptype < 0)
        return nx_fail(vn, under, call, EINVAL,
                       "destination process type %ld is negative", ptype);
    if (bad_type(type))
        return nx_fail(vn, under, call, EINVAL,
                       "type %ld out of range (0 .. 0x7fffffff)", type);
    if (count < 0)
        return nx_fail(vn, under, call, EINVAL, "invalid count %ld", count);
    if (count > 0 && buf == NULL)
        return nx_fail(vn, under, call, EINVAL, "NULL buffer of %ld bytes",
                       count);
    if (node < (allow_all ? -1 : 0) || node >= mcei_nnodes())
        return nx_fail(vn, under, call, EINVAL,
                       "node %ld out of range (0 .. %d%s)", node,
                       mcei_nnodes() - 1, allow_all ? ", or -1" : "");
    return 0;
}

static long recv_checks(mcei_vn_t *vn, int under, const char *call,
                        long typesel, const void *buf, long count, long nodesel,
                        long ptypesel)
{
    if (bad_sel(typesel))
        return nx_fail(vn, under, call, EINVAL, "type selector %ld invalid",
                       typesel);
    if (count < 0)
        return nx_fail(vn, under, call, EINVAL, "invalid count %ld", count);
    if (count > 0 && buf == NULL)
        return nx_fail(vn, under, call, EINVAL, "NULL buffer of %ld bytes",
                       count);
    if (nodesel < -1 || nodesel >= mcei_nnodes())
        return nx_fail(vn, under, call, EINVAL,
                       "node selector %ld out of range", nodesel);
    if (ptypesel < -1)
        return nx_fail(vn, under, call, EINVAL,
                       "process type selector %ld invalid", ptypesel);
    return 0;
}

static void put_info(long info[], const mcei_nx_info_t *i)
{
    if (info == NULL)
        return;
    info[0] = i->type;
    info[1] = i->count;
    info[2] = i->node;
    info[3] = i->ptype;
}

static long do_isend(int under, const char *call, long type, const void *buf,
                     long count, long node, long ptype, mce_nx_handler_t h,
                     int h32)
{
    mcei_vn_t *vn = enter(call);
    long id;
    int rc;
    if (vn == NULL)
        return -1;
    if (send_checks(vn, under, call, type, buf, count, node, ptype, 0) < 0)
        return -1;
    mcei_api_args(vn, MCEI_ARG_BYTES | MCEI_ARG_PEER | MCEI_ARG_TYPE, count,
                  node, type);
    if ((rc = mcei_nx_isend(vn, MCEI_CTX_USER, type, buf, count, node, ptype, h,
                            &id)) != MCE_OK)
        return status_fail(vn, under, call, rc);
    if (h32) /* before leave, which may run the handler */
        mcei_nx_set32(vn, id, NULL, 1);
    return leave(vn, id);
}

static long do_csend(int under, long type, const void *buf, long count,
                     long node, long ptype)
{
    mcei_vn_t *vn = enter("csend");
    long ids[64], *idv = ids;
    int n = 0, rc;
    if (vn == NULL)
        return -1;
    if (send_checks(vn, under, "csend", type, buf, count, node, ptype, 1) < 0)
        return -1;
    mcei_api_args(vn, MCEI_ARG_BYTES | MCEI_ARG_PEER | MCEI_ARG_TYPE, count,
                  node, type);
    if (node == -1 && mcei_nnodes() - 1 > 64 &&
        (idv = malloc((size_t)mcei_nnodes() * sizeof(long))) == NULL)
        return status_fail(vn, under, "csend", MCE_ERR_NOMEM);
    /* node -1: every other node, the sends overlapping as far as the
     * ports allow. */
    for (int d = 0; d < mcei_nnodes(); d++) {
        if (node == -1 ? d == vn->id : d != node)
            continue;
        if ((rc = mcei_nx_isend(vn, MCEI_CTX_USER, type, buf, count, d, ptype,
                                NULL, &idv[n])) != MCE_OK) {
            if (idv != ids)
                free(idv);
            return status_fail(vn, under, "csend", rc);
        }
        n++;
    }
    for (int i = 0; i < n; i++)
        mcei_nx_wait(vn, idv[i], NULL);
    if (idv != ids)
        free(idv);
    return leave(vn, 0);
}

/* Post a receive inside the call in progress (irecv, or crecv's first
 * half: one call, one trace slice); -1 after a failure was reported. */
static long post_recv(mcei_vn_t *vn, int under, const char *call, long typesel,
                      void *buf, long count, long nodesel, long ptypesel,
                      mce_nx_handler_t h, long info[], long *id)
{
    int rc;
    if (recv_checks(vn, under, call, typesel, buf, count, nodesel, ptypesel) <
        0)
        return -1;
    /* The selectors (-1: any) until a message is known. */
    mcei_api_args(vn, MCEI_ARG_BYTES | MCEI_ARG_PEER | MCEI_ARG_TYPE, count,
                  nodesel, typesel);
    if ((rc = mcei_nx_irecv(vn, MCEI_CTX_USER, typesel, buf, count, nodesel,
                            ptypesel, h, info, id)) != MCE_OK)
        return status_fail(vn, under, call, rc);
    return 0;
}

/* info32, h32: the 32-bit forms' int info[] and handler. */
static long do_irecvx(int under, const char *call, long typesel, void *buf,
                      long count, long nodesel, long ptypesel,
                      mce_nx_handler_t h, long info[], int info32[], int h32,
                      long *id)
{
    mcei_vn_t *vn = enter(call);
    if (vn == NULL)
        return -1;
    if (post_recv(vn, under, call, typesel, buf, count, nodesel, ptypesel, h,
                  info, id) < 0)
        return -1;
    if (info32 != NULL || h32)
        mcei_nx_set32(vn, *id, info32, h32);
    return leave(vn, *id);
}

static long do_crecvx(int under, const char *call, long typesel, void *buf,
                      long count, long nodesel, long ptypesel, long info[])
{
    mcei_nx_info_t i = {0};
    long id;
    int rc;
    mcei_vn_t *vn = enter(call);
    if (vn == NULL)
        return -1;
    if (post_recv(vn, under, call, typesel, buf, count, nodesel, ptypesel, NULL,
                  NULL, &id) < 0)
        return -1;
    rc = mcei_nx_wait(vn, id, &i);
    /* The message received: its length, sender and type. */
    mcei_api_args(vn, MCEI_ARG_BYTES | MCEI_ARG_PEER | MCEI_ARG_TYPE, i.count,
                  i.node, i.type);
    if (rc != MCE_OK) {
        if (rc == MCE_ERR_TRUNCATE)
            return nx_fail(vn, under, call, EMSGSIZE,
                           "message of %ld bytes (type %ld from node %ld) is "
                           "longer than the %ld-byte buffer",
                           i.count, i.type, i.node, count);
        return status_fail(vn, under, call, rc);
    }
    put_info(info, &i);
    return leave(vn, i.count);
}

static long do_wait(int under, long id)
{
    mcei_vn_t *vn = enter("msgwait");
    mcei_nx_info_t i = {.node = -2}; /* -2: filled only for a receive */
    int rc;
    if (vn == NULL)
        return -1;
    if (id <= 0)
        return nx_fail(vn, under, "msgwait", EINVAL, "invalid message id %ld",
                       id);
    if ((rc = mcei_nx_wait(vn, id, &i)) != MCE_OK) {
        if (rc == MCE_ERR_NOT_FOUND)
            return nx_fail(vn, under, "msgwait", EINVAL,
                           "unknown or already completed message id %ld", id);
        return status_fail(vn, under, "msgwait", rc);
    }
    if (i.node != -2)
        mcei_api_args(vn, MCEI_ARG_BYTES | MCEI_ARG_PEER | MCEI_ARG_TYPE,
                      i.count, i.node, i.type);
    return leave(vn, 0);
}

static long do_done(int under, long id)
{
    mcei_vn_t *vn = enter("msgdone");
    int done, rc;
    if (vn == NULL)
        return -1;
    mcei_poll_begin(vn, "msgdone");
    rc = mcei_nx_done(vn, id, &done);
    mcei_poll_end(vn);
    if (rc != MCE_OK) {
        if (rc == MCE_ERR_NOT_FOUND)
            return nx_fail(vn, under, "msgdone", EINVAL,
                           "unknown or already completed message id %ld", id);
        return status_fail(vn, under, "msgdone", rc);
    }
    return leave(vn, done);
}

static long do_idop(int under, const char *call, long id,
                    int (*op)(mcei_vn_t *, long))
{
    mcei_vn_t *vn = enter(call);
    if (vn == NULL)
        return -1;
    if (op(vn, id) != MCE_OK)
        return nx_fail(vn, under, call, EINVAL,
                       "unknown or already completed message id %ld", id);
    return leave(vn, 0);
}

static long do_merge(int under, long a, long b)
{
    mcei_vn_t *vn = enter("msgmerge");
    long id;
    if (vn == NULL)
        return -1;
    if (mcei_nx_merge(vn, a, b, &id) != MCE_OK)
        return nx_fail(vn, under, "msgmerge", EINVAL,
                       "message ids %ld and %ld cannot be merged", a, b);
    return leave(vn, id);
}

static long do_probex(int under, const char *call, int block, long typesel,
                      long nodesel, long ptypesel, long info[])
{
    mcei_vn_t *vn = enter(call);
    mcei_nx_info_t i;
    int found;
    if (vn == NULL)
        return -1;
    if (recv_checks(vn, under, call, typesel, NULL, 0, nodesel, ptypesel) < 0)
        return -1;
    if (!block)
        mcei_poll_begin(vn, call);
    mcei_nx_probe(vn, MCEI_CTX_USER, typesel, nodesel, ptypesel, block, &found,
                  &i);
    if (!block)
        mcei_poll_end(vn);
    if (found)
        put_info(info, &i);
    return leave(vn, found);
}

/* Exported pairs ------------------------------------------------------------
 */

MCE_EXPORT void mce_nx_csend(long t, const void *b, long c, long n, long p)
{
    do_csend(0, t, b, c, n, p);
}
MCE_EXPORT long mce_nx__csend(long t, const void *b, long c, long n, long p)
{
    return do_csend(1, t, b, c, n, p);
}
MCE_EXPORT long mce_nx_isend(long t, const void *b, long c, long n, long p)
{
    return do_isend(0, "isend", t, b, c, n, p, NULL, 0);
}
MCE_EXPORT long mce_nx__isend(long t, const void *b, long c, long n, long p)
{
    return do_isend(1, "isend", t, b, c, n, p, NULL, 0);
}
MCE_EXPORT long mce_nx_hsend(long t, const void *b, long c, long n, long p,
                             mce_nx_handler_t h)
{
    return do_isend(0, "hsend", t, b, c, n, p, h, 0);
}
MCE_EXPORT long mce_nx__hsend(long t, const void *b, long c, long n, long p,
                              mce_nx_handler_t h)
{
    return do_isend(1, "hsend", t, b, c, n, p, h, 0);
}
MCE_EXPORT void mce_nx_crecv(long t, void *b, long c)
{
    do_crecvx(0, "crecv", t, b, c, -1, -1, NULL);
}
MCE_EXPORT long mce_nx__crecv(long t, void *b, long c)
{
    return do_crecvx(1, "crecv", t, b, c, -1, -1, NULL);
}
MCE_EXPORT void mce_nx_crecvx(long t, void *b, long c, long n, long p,
                              long info[])
{
    do_crecvx(0, "crecvx", t, b, c, n, p, info);
}
MCE_EXPORT long mce_nx__crecvx(long t, void *b, long c, long n, long p,
                               long info[])
{
    return do_crecvx(1, "crecvx", t, b, c, n, p, info);
}
MCE_EXPORT long mce_nx_irecv(long t, void *b, long c)
{
    long id;
    return do_irecvx(0, "irecv", t, b, c, -1, -1, NULL, NULL, NULL, 0, &id);
}
MCE_EXPORT long mce_nx__irecv(long t, void *b, long c)
{
    long id;
    return do_irecvx(1, "irecv", t, b, c, -1, -1, NULL, NULL, NULL, 0, &id);
}
MCE_EXPORT long mce_nx_irecvx(long t, void *b, long c, long n, long p,
                              long info[])
{
    long id;
    /* info[] is filled when the receive completes (msgwait/msgdone) */
    return do_irecvx(0, "irecvx", t, b, c, n, p, NULL, info, NULL, 0, &id);
}
MCE_EXPORT long mce_nx__irecvx(long t, void *b, long c, long n, long p,
                               long info[])
{
    long id;
    return do_irecvx(1, "irecvx", t, b, c, n, p, NULL, info, NULL, 0, &id);
}
MCE_EXPORT long mce_nx_hrecv(long t, void *b, long c, mce_nx_handler_t h)
{
    long id;
    return do_irecvx(0, "hrecv", t, b, c, -1, -1, h, NULL, NULL, 0, &id);
}
MCE_EXPORT long mce_nx__hrecv(long t, void *b, long c, mce_nx_handler_t h)
{
    long id;
    return do_irecvx(1, "hrecv", t, b, c, -1, -1, h, NULL, NULL, 0, &id);
}
MCE_EXPORT long mce_nx_hrecvx(long t, void *b, long c, long n, long p,
                              mce_nx_handler_t h)
{
    long id;
    return do_irecvx(0, "hrecvx", t, b, c, n, p, h, NULL, NULL, 0, &id);
}
MCE_EXPORT long mce_nx__hrecvx(long t, void *b, long c, long n, long p,
                               mce_nx_handler_t h)
{
    long id;
    return do_irecvx(1, "hrecvx", t, b, c, n, p, h, NULL, NULL, 0, &id);
}
MCE_EXPORT void mce_nx_msgwait(long id)
{
    do_wait(0, id);
}
MCE_EXPORT long mce_nx__msgwait(long id)
{
    return do_wait(1, id);
}
MCE_EXPORT long mce_nx_msgdone(long id)
{
    return do_done(0, id);
}
MCE_EXPORT long mce_nx__msgdone(long id)
{
    return do_done(1, id);
}
MCE_EXPORT void mce_nx_msgcancel(long id)
{
    do_idop(0, "msgcancel", id, mcei_nx_cancel);
}
MCE_EXPORT long mce_nx__msgcancel(long id)
{
    return do_idop(1, "msgcancel", id, mcei_nx_cancel);
}
MCE_EXPORT void mce_nx_msgignore(long id)
{
    do_idop(0, "msgignore", id, mcei_nx_ignore);
}
MCE_EXPORT long mce_nx__msgignore(long id)
{
    return do_idop(1, "msgignore", id, mcei_nx_ignore);
}
MCE_EXPORT long mce_nx_msgmerge(long a, long b)
{
    return do_merge(0, a, b);
}
MCE_EXPORT long mce_nx__msgmerge(long a, long b)
{
    return do_merge(1, a, b);
}
MCE_EXPORT void mce_nx_cprobe(long t)
{
    do_probex(0, "cprobe", 1, t, -1, -1, NULL);
}
MCE_EXPORT long mce_nx__cprobe(long t)
{
    return do_probex(1, "cprobe", 1, t, -1, -1, NULL);
}
MCE_EXPORT long mce_nx_iprobe(long t)
{
    return do_probex(0, "iprobe", 0, t, -1, -1, NULL);
}
MCE_EXPORT long mce_nx__iprobe(long t)
{
    return do_probex(1, "iprobe", 0, t, -1, -1, NULL);
}
MCE_EXPORT void mce_nx_cprobex(long t, long n, long p, long info[])
{
    do_probex(0, "cprobex", 1, t, n, p, info);
}
MCE_EXPORT long mce_nx__cprobex(long t, long n, long p, long info[])
{
    return do_probex(1, "cprobex", 1, t, n, p, info);
}
MCE_EXPORT long mce_nx_iprobex(long t, long n, long p, long info[])
{
    return do_probex(0, "iprobex", 0, t, n, p, info);
}
MCE_EXPORT long mce_nx__iprobex(long t, long n, long p, long info[])
{
    return do_probex(1, "iprobex", 0, t, n, p, info);
}

static long do_sendrecv(int under, int wait, long type, const void *sb, long sc,
                        long node, long ptype, long typesel, void *rb, long rc_)
{
    const char *call = wait ? "csendrecv" : "isendrecv";
    mcei_vn_t *vn = enter(call);
    long rid, sid, mid;
    mcei_nx_info_t i;
    int rc;
    if (vn == NULL)
        return -1;
    if (send_checks(vn, under, call, type, sb, sc, node, ptype, 0) < 0 ||
        recv_checks(vn, under, call, typesel, rb, rc_, -1, -1) < 0)
        return -1;
    /* The receive is posted before the send leaves. */
    if ((rc = mcei_nx_irecv(vn, MCEI_CTX_USER, typesel, rb, rc_, -1, -1, NULL,
                            NULL, &rid)) != MCE_OK)
        return status_fail(vn, under, call, rc);
    if ((rc = mcei_nx_isend(vn, MCEI_CTX_USER, type, sb, sc, node, ptype, NULL,
                            &sid)) != MCE_OK) {
        mcei_nx_cancel(vn, rid); /* the receive must not take a later one */
        return status_fail(vn, under, call, rc);
    }
    if (!wait) {
        if ((rc = mcei_nx_merge(vn, sid, rid, &mid)) != MCE_OK)
            return status_fail(vn, under, call, rc);
        return leave(vn, mid);
    }
    if ((rc = mcei_nx_wait(vn, sid, NULL)) != MCE_OK ||
        (rc = mcei_nx_wait(vn, rid, &i)) != MCE_OK)
        return status_fail(vn, under, call, rc);
    return leave(vn, i.count);
}

MCE_EXPORT long mce_nx_csendrecv(long t, const void *sb, long sc, long n,
                                 long p, long ts, void *rb, long rc)
{
    return do_sendrecv(0, 1, t, sb, sc, n, p, ts, rb, rc);
}
MCE_EXPORT long mce_nx__csendrecv(long t, const void *sb, long sc, long n,
                                  long p, long ts, void *rb, long rc)
{
    return do_sendrecv(1, 1, t, sb, sc, n, p, ts, rb, rc);
}
MCE_EXPORT long mce_nx_isendrecv(long t, const void *sb, long sc, long n,
                                 long p, long ts, void *rb, long rc)
{
    return do_sendrecv(0, 0, t, sb, sc, n, p, ts, rb, rc);
}
MCE_EXPORT long mce_nx__isendrecv(long t, const void *sb, long sc, long n,
                                  long p, long ts, void *rb, long rc)
{
    return do_sendrecv(1, 0, t, sb, sc, n, p, ts, rb, rc);
}

static long do_masktrap(int under, long state)
{
    mcei_vn_t *vn = enter("masktrap");
    (void)under;
    if (vn == NULL)
        return -1;
    return leave(vn, mcei_nx_masktrap(vn, state));
}
MCE_EXPORT long mce_nx_masktrap(long s)
{
    return do_masktrap(0, s);
}
MCE_EXPORT long mce_nx__masktrap(long s)
{
    return do_masktrap(1, s);
}

/* ---- global operations ----------------------------------------------------
 */

/* The personality's per-node state, in the node's slot (lib/api/registry.c
 * declares it for NX and Fortran programs). */
typedef struct nx_node {
    uint64_t nglobal; /* global operations started so far */
} nx_node_t;
const mcei_node_slot_t mcei_nx_node_slot = {"nx", sizeof(nx_node_t)};

static nx_node_t *nx_node(mcei_vn_t *vn)
{
    nx_node_t *n = mcei_vn_slot(vn, &mcei_nx_node_slot);
    if (n == NULL) /* a library without lib/api/registry.c's tables */
        mcei_vn_fatal(vn, "NX: the node has no NX state (the personality "
                          "is not registered)");
    return n;
}

/* Each global operation has its own message types in the system context,
 * numbered by the node's count of global operations (every node calls
 * them in the same order). */
static long gtype(mcei_vn_t *vn, int phase)
{
    return ((long)(nx_node(vn)->nglobal & 0xfffff) << 8) | (long)phase;
}

static int sys_send(mcei_vn_t *vn, long type, const void *buf, long n, int dst)
{
    long id;
    int rc =
        mcei_nx_isend(vn, MCEI_CTX_SYSTEM, type, buf, n, dst, 0, NULL, &id);
    return rc == MCE_OK ? mcei_nx_wait(vn, id, NULL) : rc;
}

/* Wait for a receive of a global operation.  Every node knows the length
 * of each message of one: another length (a shorter message left part of
 * the buffer unwritten) means the nodes' calls do not match, an
 * MCE_ERR_STATE (found by tests/fuzz/fuzz_calls.c). */
static int sys_wait(mcei_vn_t *vn, long id, long n)
{
    mcei_nx_info_t i = {0};
    int rc = mcei_nx_wait(vn, id, &i);
    if (rc == MCE_ERR_TRUNCATE || (rc == MCE_OK && i.count != n))
        return MCE_ERR_STATE;
    return rc;
}

static int sys_recv(mcei_vn_t *vn, long type, void *buf, long n, int src)
{
    long id;
    int rc = mcei_nx_irecv(vn, MCEI_CTX_SYSTEM, type, buf, n, src, -1, NULL,
                           NULL, &id);
    return rc == MCE_OK ? sys_wait(vn, id, n) : rc;
}

static int pow2(int n)
{
    return (n & (n - 1)) == 0;
}

/* gsync: NX's butterfly on a hypercube (Seidel and Davis, section 3.1):
 * a null message to each neighbour, most significant dimension first,
 * waiting for the reply before the next.  Intel did not publish the
 * algorithm of other node counts (Bokhari and Nicol's fit spans meshes of
 * any size, 12 x 12 included, with one cost per doubling of the node
 * count); they get the dissemination barrier (Hensgen, Finkel and Manber
 * 1988), which has the butterfly's ceil(log2 n) rounds of one null message
 * sent and one received on any n: in round k node i sends to i + 2^k and
 * hears from i - 2^k (mod n). */
static int barrier(mcei_vn_t *vn)
{
    int n = mcei_nnodes(), me = vn->id, rc = MCE_OK;
    nx_node(vn)->nglobal++;
    if (pow2(n)) {
        for (int d = (int)dim_of(n) - 1; d >= 0 && rc == MCE_OK; d--) {
            int p = me ^ (1 << d);
            if ((rc = sys_send(vn, gtype(vn, d), NULL, 0, p)) == MCE_OK)
                rc = sys_recv(vn, gtype(vn, d), NULL, 0, p);
        }
        return rc;
    }
    for (int k = 1, r = 0; k < n && rc == MCE_OK; k <<= 1, r++) {
        if ((rc = sys_send(vn, gtype(vn, r), NULL, 0, (me + k) % n)) == MCE_OK)
            rc = sys_recv(vn, gtype(vn, r), NULL, 0, (me - k + n) % n);
    }
    return rc;
}

typedef void (*combine_fn)(void *x, const void *y, long n, void *arg);

/* All-reduce of n elements of size esz with combine(x, y): recursive
 * doubling on 2^d nodes, fan-in and fan-out otherwise. */
static int allreduce(mcei_vn_t *vn, void *x, long n, size_t esz, void *work,
                     combine_fn combine, void *arg)
{
    int nodes = mcei_nnodes(), me = vn->id, rc = MCE_OK;
    long bytes;
    if ((rc = mcei_bytes_mul(n, esz, &bytes)) != MCE_OK)
        return rc; /* checked by the caller: never reached */
    nx_node(vn)->nglobal++;
    if (pow2(nodes)) {
        for (int d = 0; (1 << d) < nodes && rc == MCE_OK; d++) {
            int p = me ^ (1 << d);
            long rid, sid;
            if ((rc = mcei_nx_irecv(vn, MCEI_CTX_SYSTEM, gtype(vn, d), work,
                                    bytes, p, -1, NULL, NULL, &rid)) !=
                    MCE_OK ||
                (rc = mcei_nx_isend(vn, MCEI_CTX_SYSTEM, gtype(vn, d), x, bytes,
                                    p, 0, NULL, &sid)) != MCE_OK ||
                (rc = mcei_nx_wait(vn, sid, NULL)) != MCE_OK ||
                (rc = sys_wait(vn, rid, bytes)) != MCE_OK)
                break;
            /* Combine in a fixed order so every node gets the same bits. */
            if (me < p) {
                combine(x, work, n, arg);
            } else {
                combine(work, x, n, arg);
                if (bytes > 0) /* n = 0 may come with NULL arrays */
                    memcpy(x, work, (size_t)bytes);
            }
        }
        return rc;
    }
    for (int k = 1; k < nodes && rc == MCE_OK; k <<= 1) {
        if (me & k) {
            rc = sys_send(vn, gtype(vn, 100), x, bytes, me - k);
            break;
        }
        if (me + k < nodes &&
            (rc = sys_recv(vn, gtype(vn, 100), work, bytes, me + k)) == MCE_OK)
            combine(x, work, n, arg);
    }
    int top = 1;
    while (top < nodes)
        top <<= 1;
    for (int k = top >> 1; k >= 1 && rc == MCE_OK; k >>= 1) {
        if (me % (2 * k) == 0 && me + k < nodes)
            rc = sys_send(vn, gtype(vn, 101), x, bytes, me + k);
        else if (me % (2 * k) == k)
            rc = sys_recv(vn, gtype(vn, 101), x, bytes, me - k);
    }
    return rc;
}

#define COMBINE(name, T, expr)                                                 \
    static void name(void *xv, const void *yv, long n, void *arg)              \
    {                                                                          \
        T *x = xv;                                                             \
        const T *y = yv;                                                       \
        (void)arg;                                                             \
        for (long i = 0; i < n; i++)                                           \
            x[i] = (expr);                                                     \
    }
COMBINE(c_dsum, double, x[i] + y[i])
COMBINE(c_ssum, float, x[i] + y[i])
COMBINE(c_isum, long, x[i] + y[i])
COMBINE(c_dprod, double, x[i] * y[i])
COMBINE(c_sprod, float, x[i] * y[i])
COMBINE(c_iprod, long, x[i] * y[i])
COMBINE(c_dhigh, double, x[i] > y[i] ? x[i] : y[i])
COMBINE(c_shigh, float, x[i] > y[i] ? x[i] : y[i])
COMBINE(c_ihigh, long, x[i] > y[i] ? x[i] : y[i])
COMBINE(c_dlow, double, x[i] < y[i] ? x[i] : y[i])
COMBINE(c_slow, float, x[i] < y[i] ? x[i] : y[i])
COMBINE(c_ilow, long, x[i] < y[i] ? x[i] : y[i])
COMBINE(c_iand, long, x[i] & y[i])
COMBINE(c_ior, long, x[i] | y[i])
COMBINE(c_land, long, x[i] && y[i])
COMBINE(c_lor, long, x[i] || y[i])

/* The arguments of a global operation on n elements of esz bytes: 0, or
 * -1 after the failure was reported. */
static long gop_checks(mcei_vn_t *vn, int under, const char *call,
                       const void *x, long n, const void *work, size_t esz)
{
    long bytes;
    if (n < 0 || (n > 0 && (x == NULL || work == NULL)))
        return nx_fail(vn, under, call, EINVAL,
                       "invalid element count %ld or buffers", n);
    if (mcei_bytes_mul(n, esz, &bytes) != MCE_OK)
        return nx_fail(vn, under, call, EINVAL,
                       "%ld elements of %zu bytes overflow the byte count", n,
                       esz);
    /* work receives the partners' values while x is still needed (and
     * sent): one array in both roles would mix them. */
    if (bytes > 0 && (uintptr_t)x < (uintptr_t)work + (uintptr_t)bytes &&
        (uintptr_t)work < (uintptr_t)x + (uintptr_t)bytes)
        return nx_fail(vn, under, call, EINVAL,
                       "the work array overlaps x (%ld bytes each)", bytes);
    return 0;
}

static long do_gop(int under, const char *call, void *x, long n, void *work,
                   size_t esz, combine_fn f, void *arg)
{
    mcei_vn_t *vn = enter(call);
    int rc;
    if (vn == NULL)
        return -1;
    if (gop_checks(vn, under, call, x, n, work, esz) < 0)
        return -1;
    if ((rc = allreduce(vn, x, n, esz, work, f, arg)) != MCE_OK)
        return status_fail(vn, under, call, rc);
    return leave(vn, 0);
}

#define GOP(name, T, fn)                                                       \
    MCE_EXPORT void mce_nx_##name(T x[], long n, T work[])                     \
    {                                                                          \
        do_gop(0, #name, x, n, work, sizeof(T), fn, NULL);                     \
    }                                                                          \
    MCE_EXPORT long mce_nx__##name(T x[], long n, T work[])                    \
    {                                                                          \
        return do_gop(1, #name, x, n, work, sizeof(T), fn, NULL);              \
    }
GOP(gdsum, double, c_dsum)
GOP(gssum, float, c_ssum)
GOP(gisum, long, c_isum)
GOP(gdprod, double, c_dprod)
GOP(gsprod, float, c_sprod)
GOP(giprod, long, c_iprod)
GOP(gdhigh, double, c_dhigh)
GOP(gshigh, float, c_shigh)
GOP(gihigh, long, c_ihigh)
GOP(gdlow, double, c_dlow)
GOP(gslow, float, c_slow)
GOP(gilow, long, c_ilow)
GOP(giand, long, c_iand)
GOP(gior, long, c_ior)
GOP(gland, long, c_land)
GOP(glor, long, c_lor)

/* gopf: a user function combining two xlen-byte operands, x = f(x, y). */
static void c_user(void *x, const void *y, long n, void *arg)
{
    long (*f)(void *, void *) = (long (*)(void *, void *))arg;
    (void)n;
    f(x, (void *)(uintptr_t)y);
}

/* f: the user's function, called by c (c_user, or c_user32 below). */
static long do_gopf(int under, void *x, long xlen, void *work, void (*f)(void),
                    combine_fn c)
{
    if (f == NULL || xlen <= 0) {
        mcei_vn_t *vn = enter("gopf");
        if (vn == NULL)
            return -1;
        return nx_fail(vn, under, "gopf", EINVAL,
                       f == NULL ? "NULL function"
                                 : "operand length %ld is not positive",
                       xlen);
    }
    return do_gop(under, "gopf", x, 1, work, (size_t)xlen, c,
                  (void *)(uintptr_t)f);
}

MCE_EXPORT void mce_nx_gopf(void *x, long xlen, void *work,
                            long (*f)(void *, void *))
{
    do_gopf(0, x, xlen, work, (void (*)(void))f, c_user);
}
MCE_EXPORT long mce_nx__gopf(void *x, long xlen, void *work,
                             long (*f)(void *, void *))
{
    return do_gopf(1, x, xlen, work, (void (*)(void))f, c_user);
}

static long do_gsync(int under)
{
    mcei_vn_t *vn = enter("gsync");
    int rc;
    if (vn == NULL)
        return -1;
    if ((rc = barrier(vn)) != MCE_OK)
        return status_fail(vn, under, "gsync", rc);
    return leave(vn, 0);
}
MCE_EXPORT void mce_nx_gsync(void)
{
    do_gsync(0);
}
MCE_EXPORT long mce_nx__gsync(void)
{
    return do_gsync(1);
}

/* gcol/gcolx: concatenate every node's contribution in node order on
 * every node.  Node 0 learns the lengths and tells everyone the total
 * first, so all nodes agree when the result buffer is too small; then the
 * data is gathered at node 0 and sent to all. */
static long collect(int under, const char *call, const void *x, long xlen,
                    const long *xlens, void *y, long ylen, long *ncnt)
{
    mcei_vn_t *vn = enter(call);
    int n, me, rc = MCE_OK;
    long total = 0, *lens = NULL;
    if (vn == NULL)
        return -1;
    n = mcei_nnodes();
    me = vn->id;
    if (xlen < 0 || (xlen > 0 && x == NULL) || y == NULL)
        return nx_fail(vn, under, call, EINVAL, "invalid length %ld or buffer",
                       xlen);
    nx_node(vn)->nglobal++;
    if (me == 0) {
        if ((lens = malloc((size_t)n * sizeof(long))) == NULL)
            return status_fail(vn, under, call, MCE_ERR_NOMEM);
        lens[0] = xlen;
        total = xlen;
        for (int i = 1; i < n && rc == MCE_OK; i++) {
            if (xlens != NULL)
                lens[i] = xlens[i];
            else
                rc = sys_recv(vn, gtype(vn, 0), &lens[i], sizeof(long), i);
            /* Saturated: every node then refuses its too small buffer. */
            if (rc == MCE_OK &&
                mcei_bytes_add(total, lens[i], &total) != MCE_OK)
                total = LONG_MAX;
        }
        for (int i = 1; i < n && rc == MCE_OK; i++)
            rc = sys_send(vn, gtype(vn, 2), &total, sizeof(total), i);
    } else {
        if (xlens == NULL)
            rc = sys_send(vn, gtype(vn, 0), &xlen, sizeof(xlen), 0);
        if (rc == MCE_OK)
            rc = sys_recv(vn, gtype(vn, 2), &total, sizeof(total), 0);
    }
    if (rc == MCE_OK && total > ylen) {
        free(lens);
        return nx_fail(vn, under, call, EINVAL,
                       "the %ld-byte result buffer is too small for %ld bytes",
                       ylen, total);
    }
    if (me == 0) {
        char *out = y;
        long off = xlen;
        if (rc == MCE_OK && xlen > 0)
            memmove(out, x, (size_t)xlen);
        for (int i = 1; i < n && rc == MCE_OK; i++) {
            rc = sys_recv(vn, gtype(vn, 1), out + off, lens[i], i);
            off += lens[i];
        }
        for (int i = 1; i < n && rc == MCE_OK; i++)
            rc = sys_send(vn, gtype(vn, 3), y, total, i);
    } else {
        if (rc == MCE_OK)
            rc = sys_send(vn, gtype(vn, 1), x, xlen, 0);
        if (rc == MCE_OK)
            rc = sys_recv(vn, gtype(vn, 3), y, total, 0);
    }
    free(lens);
    if (rc != MCE_OK)
        return status_fail(vn, under, call, rc);
    if (ncnt != NULL)
        *ncnt = total;
    return leave(vn, 0);
}

MCE_EXPORT void mce_nx_gcol(const void *x, long xl, void *y, long yl,
                            long *ncnt)
{
    collect(0, "gcol", x, xl, NULL, y, yl, ncnt);
}
MCE_EXPORT long mce_nx__gcol(const void *x, long xl, void *y, long yl,
                             long *ncnt)
{
    return collect(1, "gcol", x, xl, NULL, y, yl, ncnt);
}

static long do_gcolx(int under, const void *x, const long xlens[], void *y)
{
    mcei_vn_t *vn = enter("gcolx");
    long total = 0;
    int me;
    if (vn == NULL)
        return -1;
    if (xlens == NULL)
        return nx_fail(vn, under, "gcolx", EINVAL, "NULL length array");
    me = vn->id;
    for (int i = 0; i < mcei_nnodes(); i++)
        if (mcei_bytes_add(total, xlens[i], &total) != MCE_OK)
            return nx_fail(vn, under, "gcolx", EINVAL,
                           "lengths negative or overflowing at node %d's "
                           "%ld bytes",
                           i, xlens[i]);
    /* collect continues this call (its enter keeps the call's start):
     * one call, one trace slice. */
    return collect(under, "gcolx", x, xlens[me], xlens, y, total, NULL);
}
MCE_EXPORT void mce_nx_gcolx(const void *x, const long xl[], void *y)
{
    do_gcolx(0, x, xl, y);
}
MCE_EXPORT long mce_nx__gcolx(const void *x, const long xl[], void *y)
{
    return do_gcolx(1, x, xl, y);
}

static long do_gsendx(int under, long type, const void *x, long n,
                      const long nodes[], long nn)
{
    mcei_vn_t *vn = enter("gsendx");
    long *ids;
    int rc;
    if (vn == NULL)
        return -1;
    if (nn < 0 || (nn > 0 && nodes == NULL))
        return nx_fail(vn, under, "gsendx", EINVAL, "node list of %ld entries",
                       nn);
    for (long i = 0; i < nn; i++)
        if (send_checks(vn, under, "gsendx", type, x, n, nodes[i],
                        mcei_nx_ptype(vn), 0) < 0)
            return -1;
    if ((ids = malloc((size_t)(nn > 0 ? nn : 1) * sizeof(long))) == NULL)
        return status_fail(vn, under, "gsendx", MCE_ERR_NOMEM);
    for (long i = 0; i < nn; i++)
        if ((rc = mcei_nx_isend(vn, MCEI_CTX_USER, type, x, n, nodes[i],
                                mcei_nx_ptype(vn), NULL, &ids[i])) != MCE_OK) {
            free(ids);
            return status_fail(vn, under, "gsendx", rc);
        }
    for (long i = 0; i < nn; i++)
        mcei_nx_wait(vn, ids[i], NULL);
    free(ids);
    return leave(vn, 0);
}
MCE_EXPORT void mce_nx_gsendx(long t, const void *x, long n, const long nodes[],
                              long nn)
{
    do_gsendx(0, t, x, n, nodes, nn);
}
MCE_EXPORT long mce_nx__gsendx(long t, const void *x, long n,
                               const long nodes[], long nn)
{
    return do_gsendx(1, t, x, n, nodes, nn);
}

/* ---- 32-bit forms (mcecc -mce-nx-long=32) ----------------------------------
 * int where the long forms take an array or an out-parameter of long, as
 * NX's long was on the i860.  Each does what its long form does in one
 * call (one trace slice), the operands travelling as long: the same
 * messages, the same virtual time, the same digest. */

static void put_info32(int info[], const long l[4])
{
    if (info == NULL)
        return;
    for (int k = 0; k < 4; k++)
        info[k] = sat32(l[k]);
}

MCE_EXPORT void mce_nx_crecvx32(long t, void *b, long c, long n, long p,
                                int info[])
{
    long l[4] = {0};
    do_crecvx(0, "crecvx", t, b, c, n, p, l);
    put_info32(info, l);
}
MCE_EXPORT long mce_nx__crecvx32(long t, void *b, long c, long n, long p,
                                 int info[])
{
    long l[4] = {0};
    long rc = do_crecvx(1, "crecvx", t, b, c, n, p, l);
    if (rc >= 0)
        put_info32(info, l);
    return rc;
}
MCE_EXPORT long mce_nx_irecvx32(long t, void *b, long c, long n, long p,
                                int info[])
{
    long id;
    return do_irecvx(0, "irecvx", t, b, c, n, p, NULL, NULL, info, 0, &id);
}
MCE_EXPORT long mce_nx__irecvx32(long t, void *b, long c, long n, long p,
                                 int info[])
{
    long id;
    return do_irecvx(1, "irecvx", t, b, c, n, p, NULL, NULL, info, 0, &id);
}

static long probex32(int under, const char *call, int block, long t, long n,
                     long p, int info[])
{
    long l[4] = {0};
    long found = do_probex(under, call, block, t, n, p, l);
    if (found == 1)
        put_info32(info, l);
    return found;
}
MCE_EXPORT void mce_nx_cprobex32(long t, long n, long p, int info[])
{
    probex32(0, "cprobex", 1, t, n, p, info);
}
MCE_EXPORT long mce_nx__cprobex32(long t, long n, long p, int info[])
{
    return probex32(1, "cprobex", 1, t, n, p, info);
}
MCE_EXPORT long mce_nx_iprobex32(long t, long n, long p, int info[])
{
    return probex32(0, "iprobex", 0, t, n, p, info);
}
MCE_EXPORT long mce_nx__iprobex32(long t, long n, long p, int info[])
{
    return probex32(1, "iprobex", 0, t, n, p, info);
}

/* The library keeps the handler as a long one and calls it as what it
 * is (mcei_nx_set32). */
#define H32(h) ((mce_nx_handler_t)(void (*)(void))(h))

MCE_EXPORT long mce_nx_hrecv32(long t, void *b, long c, mce_nx_handler32_t h)
{
    long id;
    return do_irecvx(0, "hrecv", t, b, c, -1, -1, H32(h), NULL, NULL, 1, &id);
}
MCE_EXPORT long mce_nx__hrecv32(long t, void *b, long c, mce_nx_handler32_t h)
{
    long id;
    return do_irecvx(1, "hrecv", t, b, c, -1, -1, H32(h), NULL, NULL, 1, &id);
}
MCE_EXPORT long mce_nx_hrecvx32(long t, void *b, long c, long n, long p,
                                mce_nx_handler32_t h)
{
    long id;
    return do_irecvx(0, "hrecvx", t, b, c, n, p, H32(h), NULL, NULL, 1, &id);
}
MCE_EXPORT long mce_nx__hrecvx32(long t, void *b, long c, long n, long p,
                                 mce_nx_handler32_t h)
{
    long id;
    return do_irecvx(1, "hrecvx", t, b, c, n, p, H32(h), NULL, NULL, 1, &id);
}
MCE_EXPORT long mce_nx_hsend32(long t, const void *b, long c, long n, long p,
                               mce_nx_handler32_t h)
{
    return do_isend(0, "hsend", t, b, c, n, p, H32(h), 1);
}
MCE_EXPORT long mce_nx__hsend32(long t, const void *b, long c, long n, long p,
                                mce_nx_handler32_t h)
{
    return do_isend(1, "hsend", t, b, c, n, p, H32(h), 1);
}

/* Integer global operations: the int operands combined as long (as the
 * long forms do), and a result beyond int is an error, never wrapped. */
static long do_gop32(int under, const char *call, int x[], long n, int work[],
                     combine_fn f)
{
    mcei_vn_t *vn = enter(call);
    long sx[64], sw[64], *lx = sx, *lw = sw, bytes;
    int rc;
    if (vn == NULL)
        return -1;
    if (gop_checks(vn, under, call, x, n, work, sizeof(int)) < 0)
        return -1;
    if (mcei_bytes_mul(n, sizeof(long), &bytes) != MCE_OK)
        return nx_fail(vn, under, call, EINVAL,
                       "%ld elements overflow the byte count", n);
    if (n > 64) {
        lx = malloc((size_t)bytes);
        lw = malloc((size_t)bytes);
        if (lx == NULL || lw == NULL) {
            free(lx);
            free(lw);
            return status_fail(vn, under, call, MCE_ERR_NOMEM);
        }
    }
    for (long i = 0; i < n; i++)
        lx[i] = x[i];
    rc = allreduce(vn, lx, n, sizeof(long), lw, f, NULL);
    for (long i = 0; rc == MCE_OK && i < n; i++)
        if (lx[i] < INT_MIN || lx[i] > INT_MAX) {
            /* Every node has the same result: all stop here alike. */
            long bad = lx[i];
            if (lx != sx) {
                free(lx);
                free(lw);
            }
            return nx_fail(vn, under, call, ERANGE,
                           "element %ld's result %ld does not fit a 32-bit "
                           "integer (an int of mcecc -mce-nx-long=32, or a "
                           "Fortran INTEGER)",
                           i, bad);
        }
    for (long i = 0; rc == MCE_OK && i < n; i++)
        x[i] = (int)lx[i];
    if (lx != sx) {
        free(lx);
        free(lw);
    }
    if (rc != MCE_OK)
        return status_fail(vn, under, call, rc);
    return leave(vn, 0);
}

#define GOP32(name, fn)                                                        \
    MCE_EXPORT void mce_nx_##name##32(int x[], long n, int work[])             \
    {                                                                          \
        do_gop32(0, #name, x, n, work, fn);                                    \
    }                                                                          \
    MCE_EXPORT long mce_nx__##name##32(int x[], long n, int work[])            \
    {                                                                          \
        return do_gop32(1, #name, x, n, work, fn);                             \
    }
GOP32(gisum, c_isum)
GOP32(giprod, c_iprod)
GOP32(gihigh, c_ihigh)
GOP32(gilow, c_ilow)
GOP32(giand, c_iand)
GOP32(gior, c_ior)
GOP32(gland, c_land)
GOP32(glor, c_lor)

static void c_user32(void *x, const void *y, long n, void *arg)
{
    int (*f)(void *, void *) = (int (*)(void *, void *))arg;
    (void)n;
    f(x, (void *)(uintptr_t)y);
}
MCE_EXPORT void mce_nx_gopf32(void *x, long xlen, void *work,
                              int (*f)(void *, void *))
{
    do_gopf(0, x, xlen, work, (void (*)(void))f, c_user32);
}
MCE_EXPORT long mce_nx__gopf32(void *x, long xlen, void *work,
                               int (*f)(void *, void *))
{
    return do_gopf(1, x, xlen, work, (void (*)(void))f, c_user32);
}

/* The total is at most ylen, taken as at most INT_MAX: a larger result
 * is refused as too large for the buffer, never truncated. */
static long gcol32(int under, const void *x, long xl, void *y, long yl,
                   int *ncnt)
{
    long cnt = 0;
    long rc = collect(under, "gcol", x, xl, NULL, y,
                      yl > INT_MAX ? INT_MAX : yl, &cnt);
    if (rc == 0 && ncnt != NULL)
        *ncnt = (int)cnt;
    return rc;
}
MCE_EXPORT void mce_nx_gcol32(const void *x, long xl, void *y, long yl,
                              int *ncnt)
{
    gcol32(0, x, xl, y, yl, ncnt);
}
MCE_EXPORT long mce_nx__gcol32(const void *x, long xl, void *y, long yl,
                               int *ncnt)
{
    return gcol32(1, x, xl, y, yl, ncnt);
}

/* A long copy of an int list of n entries (stack if it fits): 0, or -1
 * after the failure was reported. */
static long list32(int under, const char *call, const int *in, long n,
                   long *stack, long **out)
{
    *out = stack;
    if (in == NULL || n <= 0) {
        *out = NULL;
        return 0;
    }
    if (n > 64 && (*out = malloc((size_t)n * sizeof(long))) == NULL) {
        mcei_vn_t *vn = enter(call);
        if (vn == NULL)
            return -1;
        return status_fail(vn, under, call, MCE_ERR_NOMEM);
    }
    for (long i = 0; i < n; i++)
        (*out)[i] = in[i];
    return 0;
}

static long gcolx32(int under, const void *x, const int xl[], void *y)
{
    long s[64], *l;
    long rc;
    if (list32(under, "gcolx", xl, mcei_nnodes(), s, &l) < 0)
        return -1;
    rc = do_gcolx(under, x, l, y);
    if (l != s)
        free(l);
    return rc;
}
MCE_EXPORT void mce_nx_gcolx32(const void *x, const int xl[], void *y)
{
    gcolx32(0, x, xl, y);
}
MCE_EXPORT long mce_nx__gcolx32(const void *x, const int xl[], void *y)
{
    return gcolx32(1, x, xl, y);
}

static long gsendx32(int under, long t, const void *x, long n,
                     const int nodes[], long nn)
{
    long s[64], *l;
    long rc;
    if (list32(under, "gsendx", nodes, nn, s, &l) < 0)
        return -1;
    /* A missing list (NULL): the long form's own checks and message. */
    rc = do_gsendx(under, t, x, n, l, nn);
    if (l != s)
        free(l);
    return rc;
}
MCE_EXPORT void mce_nx_gsendx32(long t, const void *x, long n,
                                const int nodes[], long nn)
{
    gsendx32(0, t, x, n, nodes, nn);
}
MCE_EXPORT long mce_nx__gsendx32(long t, const void *x, long n,
                                 const int nodes[], long nn)
{
    return gsendx32(1, t, x, n, nodes, nn);
}
