/* NCUBE Vertex personality: argument checking and Vertex's conventions
 * (negative returns, -1 wildcards written back) over the ncube machine
 * protocol. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/engine.h"
#include "../../machines/ncube/ncube.h"
#include "../../machines/ncube/ncube2.h"
#include "../registry.h"
#include "vertex.h"
#include "vx_internal.h"

/* Called before mcemu started, and the executable has no renamed main
 * for mcemu to run: the program's own main is running instead of mcemu's
 * (its file included no mcemu header).  A call from a constructor of a
 * proper program is only "outside a node". */
static int main_bypassed(void)
{
    return !mcei_api_has_entry();
}

/* The calling node, on an NCUBE machine; a clear end otherwise. */
static mcei_vn_t *enter(const char *call, const mcei_ncube_costs_t **c)
{
    mcei_vn_t *vn = mcei_enter();
    if (!mcei_engine_up() && main_bypassed()) {
        /* The program's own main ran instead of mcemu's (see nx.c). */
        fprintf(stderr,
                "mcemu: Vertex %s: called before mcemu started: the "
                "program's main bypassed the emulator because the file that "
                "defines main includes no mcemu header.  Include vertex.h in "
                "that file, or compile it with mcecc -mce-api=vertex\n",
                call);
        exit(2);
    }
    if (vn == NULL) {
        mcei_log("%s: called outside a node program", call);
        return NULL;
    }
    mcei_api_begin(vn, call);
    if (!mcei_ncube_active(c) && !mcei_ncube2_active(NULL))
        mcei_vn_fatal(vn,
                      "%s: Vertex calls need an NCUBE machine (protocol "
                      "ncube or ncube2); machine '%s' is not one (use "
                      "--mce-machine=ncube or ncube2)",
                      call, mcei_machine_name());
    return vn;
}

/* The NCUBE 2 flavour (machine ncube2: nCX) or NCUBE/ten's Vertex. */
static int is_nc2(void)
{
    return mcei_ncube2_active(NULL);
}

mcei_vn_t *mcei_vx_enter(const char *call)
{
    return enter(call, NULL);
}

/* Extended Vertex is NCUBE/ten's (Mudge, Buzzard and Abdel-Rahman 1987,
 * section 4); the NCUBE 2 flavour has no such channels. */
static mcei_vn_t *enter_ext(const char *call)
{
    mcei_vn_t *vn = enter(call, NULL);
    if (vn != NULL && is_nc2())
        mcei_vn_fatal(vn,
                      "%s: extended Vertex (send, rcvreq, bcast, chanmode, "
                      "flagwait) is NCUBE/ten's; machine '%s' is an NCUBE 2 "
                      "(nCX), which has none: use nwrite and nread, or "
                      "--mce-machine=ncube",
                      call, mcei_machine_name());
    return vn;
}

static int fail(mcei_vn_t *vn, const char *call, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(mcei_vn_t *vn, const char *call, int code, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    mcei_log("node %d: %s: %s", vn->id, call, msg);
    if (is_nc2()) {
        /* nperror tells the last failure. */
        mcei_ncube2_api_t *a = mcei_ncube2_api(vn);
        a->last_error = code;
        snprintf(a->last_msg, sizeof(a->last_msg), "%s: %s", call, msg);
    }
    mcei_leave(vn);
    return code;
}

int mcei_vx_fail(mcei_vn_t *vn, const char *call, int code, const char *msg)
{
    return fail(vn, call, code, "%s", msg);
}

/* The buffer, length and flag checks of the transfer calls: 0, or the
 * failure, its message naming the argument that is wrong. */
static int bad_buffer(mcei_vn_t *vn, const char *call, const void *buf,
                      int nbytes, int need_flag, const int *flag)
{
    if (nbytes < 0)
        return fail(vn, call, VX_EINVAL, "negative length %d", nbytes);
    if (nbytes > 0 && buf == NULL)
        return fail(vn, call, VX_EINVAL, "NULL buffer of %d bytes", nbytes);
    if (need_flag && flag == NULL)
        return fail(vn, call, VX_EINVAL, "NULL flag");
    return 0;
}

static int neighbour_error(mcei_vn_t *vn, const char *call, int rc, int who)
{
    if (rc == MCE_ERR_NODE)
        return fail(vn, call, VX_ENOTNN,
                    "node %d is not a nearest neighbour (extended Vertex "
                    "talks to neighbours only)",
                    who);
    if (rc == MCE_ERR_STATE)
        return fail(vn, call, VX_EMODE,
                    "the channel to node %d is in standard mode (call "
                    "chanmode(%d, VX_EXTENDED) first)",
                    who, who);
    return fail(vn, call, VX_EINVAL, "%s", mce_strerror(rc));
}

MCE_EXPORT int mce_vx_nwrite(const void *buf, int nbytes, int dest, int type,
                             int *flag)
{
    const mcei_ncube_costs_t *c = NULL;
    mcei_vn_t *vn = enter("nwrite", &c);
    int rc;
    if (vn == NULL)
        return VX_EINVAL;
    if ((rc = bad_buffer(vn, "nwrite", buf, nbytes, 0, NULL)) != 0)
        return rc;
    if ((dest < 0 || dest >= mcei_nnodes()) && dest != VX_BROADCAST)
        return fail(vn, "nwrite", VX_ENODE,
                    "destination %d out of range (0..%d, or 0xffff)", dest,
                    mcei_nnodes() - 1);
    if (type < 0 || type > VX_TYPE_MAX)
        return fail(vn, "nwrite", VX_EINVAL, "type %d is not 16-bit", type);
    mcei_api_args(vn, MCEI_ARG_BYTES | MCEI_ARG_PEER | MCEI_ARG_TYPE, nbytes,
                  dest, type);
    if (is_nc2()) {
        rc = mcei_ncube2_write(vn, buf, (uint32_t)nbytes, dest, type,
                               MCEI_CTX_USER);
        if (rc != MCE_OK)
            return fail(vn, "nwrite", VX_EINVAL, "%s", mce_strerror(rc));
        (void)flag;
        mcei_leave(vn);
        return 0; /* nCX: 0 on success */
    }
    rc = mcei_ncube_nwrite(vn, buf, (uint32_t)nbytes, dest, type);
    if (rc == MCE_ERR_SIZE)
        return fail(vn, "nwrite", VX_ETOOBIG,
                    "%d bytes do not fit the %" PRIu64
                    "-byte communication buffer pool",
                    nbytes, c->pool_bytes);
    if (rc != MCE_OK)
        return fail(vn, "nwrite", VX_EINVAL, "%s", mce_strerror(rc));
    (void)flag; /* reserved: standard nwrite completes on return */
    mcei_leave(vn);
    return nbytes;
}

MCE_EXPORT int mce_vx_nread(void *buf, int nbytes, int *src, int *type,
                            int *flag)
{
    mcei_vn_t *vn = enter("nread", NULL);
    uint32_t len;
    int s, t, rc;
    if (vn == NULL)
        return VX_EINVAL;
    if ((rc = bad_buffer(vn, "nread", buf, nbytes, 0, NULL)) != 0)
        return rc;
    if (src == NULL || type == NULL)
        return fail(vn, "nread", VX_EINVAL, "NULL selector pointer");
    s = *src;
    t = *type;
    if (s < -1 || s >= mcei_nnodes())
        return fail(vn, "nread", VX_ENODE, "source %d out of range", s);
    if (t < -1 || t > VX_TYPE_MAX)
        return fail(vn, "nread", VX_EINVAL, "type %d is not 16-bit or -1", t);
    if (is_nc2()) {
        int64_t t64 = t;
        if (mcei_ncube2_read(vn, buf, (uint32_t)nbytes, &s, &t64, MCEI_CTX_USER,
                             &len) != MCE_OK)
            return fail(vn, "nread", VX_EINVAL, "receive failed");
        t = (int)t64;
    } else if (mcei_ncube_nread(vn, buf, (uint32_t)nbytes, &s, &t, &len) !=
               MCE_OK)
        return fail(vn, "nread", VX_EINVAL, "receive failed");
    *src = s;
    *type = t;
    mcei_api_args(vn, MCEI_ARG_BYTES | MCEI_ARG_PEER | MCEI_ARG_TYPE,
                  (int64_t)len, s, t);
    (void)flag; /* reserved, never written (Fortran may pass a constant) */
    mcei_leave(vn);
    /* A longer message is truncated to the buffer; the length tells. */
    return (int)len;
}

MCE_EXPORT int mce_vx_ntest(int *src, int *type)
{
    mcei_vn_t *vn = enter("ntest", NULL);
    int s, t, rc;
    if (vn == NULL)
        return VX_EINVAL;
    if (src == NULL || type == NULL)
        return fail(vn, "ntest", VX_EINVAL, "NULL selector pointer");
    s = *src;
    t = *type;
    if (s < -1 || s >= mcei_nnodes())
        return fail(vn, "ntest", VX_ENODE, "source %d out of range", s);
    /* VX_EINVAL is also "no message": the diagnostic tells them apart. */
    if (t < -1 || t > VX_TYPE_MAX)
        return fail(vn, "ntest", VX_EINVAL, "type %d is not 16-bit or -1", t);
    mcei_poll_begin(vn, "ntest");
    rc = is_nc2() ? mcei_ncube2_test(vn, &s, &t) : mcei_ncube_ntest(vn, &s, &t);
    mcei_poll_end(vn);
    if (rc >= 0) {
        *src = s;
        *type = t;
    }
    mcei_leave(vn);
    return rc;
}

MCE_EXPORT void mce_vx_whoami(int *node, int *pid, int *host, int *dim)
{
    mcei_vn_t *vn = enter("whoami", NULL);
    if (vn == NULL)
        return;
    mcei_sync(vn);
    mcei_charge_comm(vn, mcei_vx_trap_cost());
    if (node)
        *node = vn->id;
    if (pid)
        *pid = 0;
    if (host)
        *host = -1; /* the emulator has no host processor */
    if (dim)
        *dim = is_nc2() ? mcei_ncube2_dim() : mcei_ncube_dim();
    mcei_leave(vn);
}

MCE_EXPORT int mce_vx_npid(void)
{
    mcei_vn_t *vn = enter("npid", NULL);
    if (vn != NULL)
        mcei_leave(vn);
    return 0;
}

MCE_EXPORT int mce_vx_ncubesize(void)
{
    mcei_vn_t *vn = enter("ncubesize", NULL);
    if (vn != NULL)
        mcei_leave(vn);
    return mcei_nnodes();
}

MCE_EXPORT int mce_vx_ntime(void)
{
    mcei_vn_t *vn = enter("ntime", NULL);
    mce_time_t t;
    if (vn == NULL)
        return 0;
    /* A trap that costs time: polling loops on a flag advance. */
    mcei_poll_begin(vn, "ntime");
    mcei_sync(vn);
    mcei_charge_comm(vn, mcei_vx_trap_cost());
    mcei_poll_end(vn);
    t = vn->clock;
    mcei_leave(vn);
    return (int)(t / mcei_vx_tick());
}

mce_time_t mcei_vx_trap_cost(void)
{
    const mcei_ncube_costs_t *c;
    const mcei_ncube2_costs_t *c2;
    if (mcei_ncube2_active(&c2))
        return c2->trap_cost;
    return mcei_ncube_active(&c) ? c->trap_cost : 0;
}

/* ntime's unit: 1024 clock cycles (Mudge, Buzzard and Abdel-Rahman 1987,
 * section 2). */
mce_time_t mcei_vx_tick(void)
{
    const mcei_ncube_costs_t *c;
    const mcei_ncube2_costs_t *c2;
    if (mcei_ncube2_active(&c2))
        return c2->cycle * 1024;
    return mcei_ncube_active(&c) ? c->tick : 1;
}

MCE_EXPORT int mce_vx_send(const void *buf, int nbytes, int dest, int type,
                           int *flag)
{
    mcei_vn_t *vn = enter_ext("send");
    int rc;
    if (vn == NULL)
        return VX_EINVAL;
    if ((rc = bad_buffer(vn, "send", buf, nbytes, 1, flag)) != 0)
        return rc;
    if (dest < 0 || dest >= mcei_nnodes())
        return fail(vn, "send", VX_ENODE, "destination %d out of range", dest);
    if (type < 0 || type > VX_TYPE_MAX)
        return fail(vn, "send", VX_EINVAL, "type %d is not 16-bit", type);
    mcei_api_args(vn, MCEI_ARG_BYTES | MCEI_ARG_PEER | MCEI_ARG_TYPE, nbytes,
                  dest, type);
    rc = mcei_ncube_xsend(vn, buf, (uint32_t)nbytes, dest, type, flag);
    if (rc != MCE_OK)
        return neighbour_error(vn, "send", rc, dest);
    mcei_leave(vn);
    return nbytes;
}

MCE_EXPORT int mce_vx_rcvreq(void *buf, int nbytes, int src, int type,
                             int *flag)
{
    mcei_vn_t *vn = enter_ext("rcvreq");
    int rc;
    if (vn == NULL)
        return VX_EINVAL;
    if ((rc = bad_buffer(vn, "rcvreq", buf, nbytes, 1, flag)) != 0)
        return rc;
    if (src < 0 || src >= mcei_nnodes())
        return fail(vn, "rcvreq", VX_ENODE, "source %d out of range", src);
    if (type < -1 || type > VX_TYPE_MAX)
        return fail(vn, "rcvreq", VX_EINVAL, "type %d is not 16-bit or -1",
                    type);
    mcei_api_args(vn, MCEI_ARG_BYTES | MCEI_ARG_PEER | MCEI_ARG_TYPE, nbytes,
                  src, type);
    rc = mcei_ncube_rcvreq(vn, buf, (uint32_t)nbytes, src, type, flag);
    if (rc != MCE_OK)
        return neighbour_error(vn, "rcvreq", rc, src);
    mcei_leave(vn);
    return 0;
}

MCE_EXPORT int mce_vx_bcast(const void *buf, int nbytes, int mask, int type,
                            int *flag)
{
    mcei_vn_t *vn = enter_ext("bcast");
    int rc;
    if (vn == NULL)
        return VX_EINVAL;
    if ((rc = bad_buffer(vn, "bcast", buf, nbytes, 1, flag)) != 0)
        return rc;
    if (type < 0 || type > VX_TYPE_MAX)
        return fail(vn, "bcast", VX_EINVAL, "type %d is not 16-bit", type);
    mcei_api_args(vn, MCEI_ARG_BYTES | MCEI_ARG_TYPE, nbytes, 0, type);
    rc =
        mcei_ncube_bcast(vn, buf, (uint32_t)nbytes, (unsigned)mask, type, flag);
    if (rc == MCE_ERR_NODE)
        return fail(vn, "bcast", VX_ENOTNN,
                    "mask 0x%x names no dimension or one beyond the cube's %d",
                    (unsigned)mask, mcei_ncube_dim());
    if (rc == MCE_ERR_STATE)
        return fail(vn, "bcast", VX_EMODE,
                    "a channel in mask 0x%x is in standard mode (call "
                    "chanmode(neighbour, VX_EXTENDED) first)",
                    (unsigned)mask);
    if (rc != MCE_OK)
        return fail(vn, "bcast", VX_EINVAL, "%s", mce_strerror(rc));
    mcei_leave(vn);
    return nbytes;
}

MCE_EXPORT int mce_vx_chanmode(int neighbour, int mode)
{
    mcei_vn_t *vn = enter_ext("chanmode");
    if (vn == NULL)
        return VX_EINVAL;
    if (mode != VX_STANDARD && mode != VX_EXTENDED)
        return fail(vn, "chanmode", VX_EINVAL,
                    "mode %d is neither standard "
                    "nor extended",
                    mode);
    if (neighbour < 0 || neighbour >= mcei_nnodes() ||
        mcei_ncube_chanmode(vn, neighbour, mode) != MCE_OK)
        return fail(vn, "chanmode", VX_ENOTNN,
                    "node %d is not a nearest neighbour", neighbour);
    mcei_leave(vn);
    return 0;
}

MCE_EXPORT int mce_vx_flagwait(int *flag)
{
    mcei_vn_t *vn = enter_ext("flagwait");
    if (vn == NULL)
        return VX_EINVAL;
    if (flag == NULL)
        return fail(vn, "flagwait", VX_EINVAL, "NULL flag");
    mcei_ncube_flagwait(vn, flag);
    mcei_leave(vn);
    return 0;
}
