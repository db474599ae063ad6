/* iWarp personality (include/iwarp.h): argument checking, IW_E* codes and
 * "cell (x,y): CALL: reason" diagnostics over the iwarp machine protocol
 * (lib/machines/iwarp).  Step 1 of doc/design/iwarp-tcs.md. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../core/engine.h"
#include "../../core/trace.h"
#include "../../machines/iwarp/cpu.h"
#include "../../machines/iwarp/iwarp.h"
#include "../../machines/iwarp/spool.h"
#include "../../machines/iwarp/video.h"
#include "../registry.h"
#include "iwarp.h"

/* The public port numbers are the machine layer's. */
_Static_assert((int)IW_CPU == (int)MCEI_IW_PORT_CPU &&
                   (int)IW_XP == (int)MCEI_IW_PORT_XP &&
                   (int)IW_XM == (int)MCEI_IW_PORT_XM &&
                   (int)IW_YP == (int)MCEI_IW_PORT_YP &&
                   (int)IW_YM == (int)MCEI_IW_PORT_YM,
               "include/iwarp.h's ports are the machine's");

/* The personality's entry (lib/api/registry.c): the program's main, then
 * the block its last gate writes left pending. */
int mcei_iw_entry(int argc, char **argv);
int mcei_iw_entry(int argc, char **argv)
{
    int rc = mcei_api_call_main(argc, argv);
    mcei_vn_t *vn = mcei_enter();
    if (vn != NULL) {
        mcei_iw_flush(vn);
        mcei_leave(vn);
    }
    return rc;
}

static mcei_vn_t *enter(const char *call, const mcei_iw_costs_t **c)
{
    mcei_vn_t *vn = mcei_enter();
    if (vn == NULL) {
        mcei_log("%s: called outside a node program", call);
        return NULL;
    }
    mcei_api_begin(vn, call);
    if (!mcei_iw_active(c))
        mcei_vn_fatal(vn,
                      "%s: iWarp calls need an iWarp machine (protocol "
                      "iwarp); machine '%s' is not one (use "
                      "--mce-machine=iwarp)",
                      call, mcei_machine_name());
    return vn;
}

static int fail(mcei_vn_t *vn, const mcei_iw_costs_t *c, const char *call,
                int code, const char *why)
{
    mcei_log("cell (%d,%d): %s: %s", vn->id % c->width, vn->id / c->width, call,
             why);
    mcei_leave(vn);
    return code;
}

static int code_of(int rc, int what)
{
    if (rc == MCE_ERR_INVAL)
        return IW_EINVAL;
    return what;
}

MCE_EXPORT int mce_iw_cell(void)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_cell", &c);
    if (vn == NULL)
        return IW_EMACHINE;
    mcei_leave(vn);
    return vn->id;
}

MCE_EXPORT void mce_iw_coords(int *x, int *y)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_coords", &c);
    if (vn == NULL)
        return;
    if (x != NULL)
        *x = vn->id % c->width;
    if (y != NULL)
        *y = vn->id / c->width;
    mcei_leave(vn);
}

MCE_EXPORT int mce_iw_width(void)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_width", &c);
    if (vn == NULL)
        return IW_EMACHINE;
    mcei_leave(vn);
    return c->width;
}

MCE_EXPORT int mce_iw_height(void)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_height", &c);
    if (vn == NULL)
        return IW_EMACHINE;
    mcei_leave(vn);
    return c->height;
}

MCE_EXPORT unsigned long mce_iw_clock(void)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_clock", &c);
    mce_time_t tick;
    if (vn == NULL)
        return 0;
    mcei_iw_flush(vn);
    /* a clock loop is polling: counted by the livelock guard */
    mcei_poll_begin(vn, "iwarp_clock");
    mcei_sync(vn); /* lets the guard see a loop of reads */
    mcei_iw_cpu(vn, c->timer_read);
    mcei_poll_end(vn);
    tick = c->timer_tick * c->clock;
    mcei_leave(vn);
    return (unsigned long)(vn->clock / tick * c->timer_tick);
}

MCE_EXPORT void mce_iw_compute(unsigned long clocks)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_compute", &c);
    if (vn == NULL)
        return;
    mcei_iw_flush(vn);
    {
        mce_time_t t, s, end;
        /* Checked: a wrapped product would move the clock anywhere. */
        if (mcei_time_mul(c->clock, clocks, &t) != MCE_OK ||
            mcei_time_add(vn->clock, t, &end) != MCE_OK)
            mcei_vn_fatal(vn,
                          "iwarp_compute: %lu clocks overflow the virtual "
                          "clock",
                          clocks);
        s = mcei_iw_spool_stretch(vn, t);
        if (s > t) {
            /* Spooling took cycles from the computation (Warfel 1996). */
            char args[64];
            snprintf(args, sizeof(args), "\"stolen_ps\":%" PRIu64, s - t);
            mcei_trace_proto(vn, "spool", "spool cycles stolen", vn->clock,
                             vn->clock + s, args);
        }
        mcei_charge_compute(vn, t);
        mcei_charge_stolen(vn, s - t); /* the spool's cycles */
    }
    mcei_leave(vn);
}

MCE_EXPORT unsigned long long mce_iw_vtime(void)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_vtime", &c);
    if (vn == NULL)
        return 0;
    /* the pending single-word writes end now (their schedule is that of
     * the individual writes, so the time read is exact) */
    mcei_iw_flush(vn);
    /* free, as mce_now; a loop of nothing but reads is a poll */
    mcei_free_clock_read(vn, "iwarp_vtime", mcei_iw_cpu, c->timer_read);
    mcei_leave(vn);
    return (unsigned long long)(vn->clock / c->clock);
}

MCE_EXPORT void mce_iw_align(unsigned long long clocks)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_align", &c);
    mce_time_t t;
    if (vn == NULL)
        return;
    if (mcei_time_mul(c->clock, clocks, &t) != MCE_OK)
        mcei_vn_fatal(vn,
                      "iwarp_align: clock %llu is beyond the virtual clock's "
                      "range",
                      clocks);
    mcei_iw_align(vn, t);
    mcei_leave(vn);
}

MCE_EXPORT void mce_iw_dither(int phase)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_dither", &c);
    mce_time_t now, d;
    if (vn == NULL)
        return;
    if (phase < 0 || phase > 7) {
        fail(vn, c, "iwarp_dither", IW_EINVAL, "phase must be 0..7");
        return;
    }
    mcei_iw_flush(vn);
    now = vn->clock / c->clock;
    d = ((mce_time_t)phase + 8 - now % 8) % 8;
    mcei_charge_compute(vn, d * c->clock);
    mcei_leave(vn);
}

MCE_EXPORT int mce_iw_pct_alloc(void)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_pct_alloc", &c);
    char why[200];
    int pct, rc;
    if (vn == NULL)
        return IW_EMACHINE;
    if ((rc = mcei_iw_pct_alloc(vn, &pct, why, sizeof(why))) != MCE_OK)
        return fail(vn, c, "iwarp_pct_alloc", IW_EPCT, why);
    mcei_leave(vn);
    return pct;
}

MCE_EXPORT int mce_iw_pct_config(int pct, int in_port, int in_pct, int out_port,
                                 int out_pct, int endpoint)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_pct_config", &c);
    char why[200];
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    if ((rc = mcei_iw_pct_config(vn, pct, in_port, in_pct, out_port, out_pct,
                                 endpoint, why, sizeof(why))) != MCE_OK)
        return fail(vn, c, "iwarp_pct_config", code_of(rc, IW_EPCT), why);
    mcei_leave(vn);
    return IW_OK;
}

MCE_EXPORT int mce_iw_pct_repoint(int pct, int out_port, int out_pct,
                                  int endpoint)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_pct_repoint", &c);
    char why[200];
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    if ((rc = mcei_iw_pct_repoint(vn, pct, out_port, out_pct, endpoint, why,
                                  sizeof(why))) != MCE_OK)
        return fail(vn, c, "iwarp_pct_repoint", code_of(rc, IW_EPCT), why);
    mcei_leave(vn);
    return IW_OK;
}

MCE_EXPORT int mce_iw_pct_release(int pct)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_pct_release", &c);
    char why[200];
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    if ((rc = mcei_iw_pct_release(vn, pct, why, sizeof(why))) != MCE_OK)
        return fail(vn, c, "iwarp_pct_release", code_of(rc, IW_EPCT), why);
    mcei_leave(vn);
    return IW_OK;
}

MCE_EXPORT int mce_iw_gate_bind(int gate, int pct)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_gate_bind", &c);
    char why[200];
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    if ((rc = mcei_iw_gate_bind(vn, gate, pct, why, sizeof(why))) != MCE_OK)
        return fail(vn, c, "iwarp_gate_bind",
                    rc == MCE_ERR_STATE ? IW_EPCT : code_of(rc, IW_EGATE), why);
    mcei_leave(vn);
    return IW_OK;
}

MCE_EXPORT int mce_iw_gate_unbind(int gate)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_gate_unbind", &c);
    char why[200];
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    if ((rc = mcei_iw_gate_unbind(vn, gate, why, sizeof(why))) != MCE_OK)
        return fail(vn, c, "iwarp_gate_unbind", IW_EGATE, why);
    mcei_leave(vn);
    return IW_OK;
}

static int gate_io(const char *call, int gate, uint32_t *w, size_t n, int write,
                   int block)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter(call, &c);
    char why[200];
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    if (w == NULL || n == 0 || n > ((size_t)1 << 28))
        return fail(vn, c, call, IW_EINVAL,
                    "need a buffer and 1 .. 2^28 words");
    mcei_api_args(vn, MCEI_ARG_BYTES, (int64_t)(n * 4), 0, 0);
    rc = write ? mcei_iw_gate_write(vn, gate, w, n, block, why, sizeof(why))
               : mcei_iw_gate_read(vn, gate, w, n, block, why, sizeof(why));
    if (rc != MCE_OK)
        return fail(vn, c, call, IW_EGATE, why);
    mcei_leave(vn);
    return IW_OK;
}

MCE_EXPORT int mce_iw_gate_write(int gate, uint32_t word)
{
    return gate_io("iwarp_gate_write", gate, &word, 1, 1, 0);
}

MCE_EXPORT int mce_iw_gate_read(int gate, uint32_t *word)
{
    return gate_io("iwarp_gate_read", gate, word, 1, 0, 0);
}

MCE_EXPORT int mce_iw_gate_write_block(int gate, const uint32_t *w, size_t n)
{
    /* the words are only read */
    return gate_io("iwarp_gate_write_block", gate, (uint32_t *)(uintptr_t)w, n,
                   1, 1);
}

MCE_EXPORT int mce_iw_gate_read_block(int gate, uint32_t *w, size_t n)
{
    return gate_io("iwarp_gate_read_block", gate, w, n, 0, 1);
}

/* ---- System Reporting Unit and anonymous-destination ring ---------------- */

#include "../../machines/iwarp/cam.h"

MCE_EXPORT int mce_iw_sru_broadcast(uint32_t word)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_sru_broadcast", &c);
    int jam = 0;
    if (vn == NULL)
        return IW_EMACHINE;
    mcei_iw_flush(vn);
    mcei_iw_sru_broadcast(vn, word, &jam, 1);
    mcei_leave(vn);
    return jam ? IW_JAMMED : IW_OK;
}

MCE_EXPORT int mce_iw_sru_send(uint32_t word)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_sru_send", &c);
    int jam = 0;
    if (vn == NULL)
        return IW_EMACHINE;
    mcei_iw_flush(vn);
    mcei_iw_sru_broadcast(vn, word, &jam, 0);
    mcei_leave(vn);
    return IW_OK;
}

static int sru_get(const char *call, uint32_t *word, int *jammed, int wait)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter(call, &c);
    uint32_t w = 0;
    int j = 0, got;
    if (vn == NULL)
        return IW_EMACHINE;
    mcei_iw_flush(vn);
    if (!wait)
        mcei_poll_begin(vn, call);
    got = mcei_iw_sru_recv(vn, &w, &j, wait);
    if (!wait)
        mcei_poll_end(vn);
    if (got) {
        if (word != NULL)
            *word = w;
        if (jammed != NULL)
            *jammed = j;
    }
    mcei_leave(vn);
    return wait ? IW_OK : got;
}

MCE_EXPORT int mce_iw_sru_recv(uint32_t *word, int *jammed)
{
    return sru_get("iwarp_sru_recv", word, jammed, 1);
}

MCE_EXPORT int mce_iw_sru_poll(uint32_t *word, int *jammed)
{
    return sru_get("iwarp_sru_poll", word, jammed, 0);
}

MCE_EXPORT unsigned long mce_iw_sru_lost(void)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_sru_lost", &c);
    unsigned long n;
    if (vn == NULL)
        return 0;
    n = (unsigned long)mcei_iw_sru_lost(vn);
    mcei_leave(vn);
    return n;
}

MCE_EXPORT unsigned long mce_iw_ring_forwarded(void)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_ring_forwarded", &c);
    unsigned long n;
    if (vn == NULL)
        return 0;
    n = (unsigned long)mcei_iw_ring_forwarded(vn);
    mcei_leave(vn);
    return n;
}

static int cam_entry(const char *call, int entry, uint32_t header, int valid)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter(call, &c);
    char why[200];
    if (vn == NULL)
        return IW_EMACHINE;
    mcei_iw_flush(vn);
    if (mcei_iw_cam_set(vn, entry, header, valid, why, sizeof(why)) != MCE_OK)
        return fail(vn, c, call, IW_ECAM, why);
    mcei_leave(vn);
    return IW_OK;
}

MCE_EXPORT int mce_iw_cam_set(int entry, uint32_t header)
{
    return cam_entry("iwarp_cam_set", entry, header, 1);
}

MCE_EXPORT int mce_iw_cam_clear(int entry)
{
    return cam_entry("iwarp_cam_clear", entry, 0, 0);
}

MCE_EXPORT int mce_iw_selective_send(uint32_t header, const uint32_t *w,
                                     size_t n)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_selective_send", &c);
    char why[200];
    if (vn == NULL)
        return IW_EMACHINE;
    if (n > 0 && w == NULL)
        return fail(vn, c, "iwarp_selective_send", IW_EINVAL,
                    "no words to send");
    mcei_api_args(vn, MCEI_ARG_BYTES | MCEI_ARG_TYPE, (int64_t)(n * 4), 0,
                  header);
    mcei_iw_flush(vn);
    if (mcei_iw_selective_send(vn, header, w, n, why, sizeof(why)) != MCE_OK)
        return fail(vn, c, "iwarp_selective_send", IW_EINVAL, why);
    mcei_leave(vn);
    return IW_OK;
}

MCE_EXPORT int mce_iw_selective_receive(const uint32_t *headers, int nh,
                                        uint32_t *header, uint32_t *w,
                                        size_t cap, size_t *n)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_selective_receive", &c);
    char why[200];
    uint32_t h = 0, tmp[8];
    size_t len = 0;
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    if (headers == NULL || (cap > 0 && w == NULL))
        return fail(vn, c, "iwarp_selective_receive", IW_EINVAL,
                    "need the headers and a buffer");
    mcei_iw_flush(vn);
    rc = mcei_iw_selective_receive(vn, headers, nh, &h, cap ? w : tmp, cap,
                                   &len, why, sizeof(why));
    if (rc == MCE_ERR_RESOURCE)
        return fail(vn, c, "iwarp_selective_receive", IW_ECAM, why);
    if (header != NULL)
        *header = h;
    if (n != NULL)
        *n = len;
    if (rc == MCE_ERR_TRUNCATE)
        return fail(vn, c, "iwarp_selective_receive", IW_EINVAL,
                    "message longer than the buffer (truncated)");
    mcei_leave(vn);
    return IW_OK;
}

MCE_EXPORT int mce_iw_ring_position(void)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_ring_position", &c);
    int p;
    if (vn == NULL)
        return IW_EMACHINE;
    p = mcei_iw_ring_position(vn);
    mcei_leave(vn);
    return p;
}

/* ---- deposit and RTS message passing ------------------------------------ */

#include "../../machines/iwarp/deposit.h"

static int dep_code(int rc)
{
    if (rc == MCE_ERR_INVAL)
        return IW_EINVAL;
    if (rc == MCE_ERR_RESOURCE)
        return IW_EPCT;
    return IW_ENODEP;
}

MCE_EXPORT int mce_iw_dep_init(void)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_dep_init", &c);
    char why[200];
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    mcei_iw_flush(vn);
    if ((rc = mcei_iw_dep_init(vn, why, sizeof(why))) != MCE_OK)
        return fail(vn, c, "iwarp_dep_init",
                    rc == MCE_ERR_RESOURCE ? IW_EPCT : IW_EINVAL, why);
    mcei_leave(vn);
    return IW_OK;
}

MCE_EXPORT int mce_iw_dep_buffer(void *buf, size_t bytes)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_dep_buffer", &c);
    char why[200];
    int rc, h = -1;
    if (vn == NULL)
        return IW_EMACHINE;
    if (buf == NULL && bytes > 0)
        return fail(vn, c, "iwarp_dep_buffer", IW_EINVAL, "no buffer");
    mcei_iw_flush(vn);
    if ((rc = mcei_iw_dep_buffer(vn, buf, bytes, &h, why, sizeof(why))) !=
        MCE_OK)
        return fail(vn, c, "iwarp_dep_buffer", dep_code(rc), why);
    mcei_leave(vn);
    return h;
}

MCE_EXPORT int mce_iw_dep_send(int dst, int handle, size_t offset,
                               const void *data, size_t bytes)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_dep_send", &c);
    char why[200];
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    if (data == NULL && bytes > 0)
        return fail(vn, c, "iwarp_dep_send", IW_EINVAL, "no data");
    mcei_api_args(vn, MCEI_ARG_BYTES | MCEI_ARG_PEER, (int64_t)bytes, dst, 0);
    mcei_iw_flush(vn);
    if ((rc = mcei_iw_dep_send(vn, dst, handle, offset, data, bytes, why,
                               sizeof(why))) != MCE_OK)
        return fail(vn, c, "iwarp_dep_send", dep_code(rc), why);
    mcei_leave(vn);
    return IW_OK;
}

MCE_EXPORT int mce_iw_dep_wait(int handle, unsigned count, int rearm)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_dep_wait", &c);
    char why[200];
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    mcei_iw_flush(vn);
    if ((rc = mcei_iw_dep_wait(vn, handle, count, rearm, why, sizeof(why))) !=
        MCE_OK)
        return fail(vn, c, "iwarp_dep_wait", dep_code(rc), why);
    mcei_leave(vn);
    return IW_OK;
}

MCE_EXPORT int mce_iw_dep_rearm(int handle)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_dep_rearm", &c);
    char why[200];
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    mcei_iw_flush(vn);
    if ((rc = mcei_iw_dep_rearm(vn, handle, why, sizeof(why))) != MCE_OK)
        return fail(vn, c, "iwarp_dep_rearm", dep_code(rc), why);
    mcei_leave(vn);
    return IW_OK;
}

MCE_EXPORT unsigned mce_iw_dep_count(int handle)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_dep_count", &c);
    char why[200];
    unsigned n = 0;
    if (vn == NULL)
        return 0;
    mcei_iw_flush(vn);
    if (mcei_iw_dep_count(vn, handle, &n, why, sizeof(why)) != MCE_OK) {
        fail(vn, c, "iwarp_dep_count", IW_EINVAL, why);
        return 0;
    }
    mcei_leave(vn);
    return n;
}

MCE_EXPORT int mce_iw_rts_send(int dst, int type, const void *buf, size_t bytes)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_rts_send", &c);
    char why[200];
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    if (buf == NULL && bytes > 0)
        return fail(vn, c, "iwarp_rts_send", IW_EINVAL, "no data");
    mcei_api_args(vn, MCEI_ARG_BYTES | MCEI_ARG_PEER | MCEI_ARG_TYPE,
                  (int64_t)bytes, dst, type);
    mcei_iw_flush(vn);
    if ((rc = mcei_iw_rts_send(vn, dst, type, buf, bytes, why, sizeof(why))) !=
        MCE_OK)
        return fail(vn, c, "iwarp_rts_send", IW_EINVAL, why);
    mcei_leave(vn);
    return IW_OK;
}

MCE_EXPORT int mce_iw_rts_recv(int *src, int *type, void *buf, size_t cap,
                               size_t *len)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_rts_recv", &c);
    char why[200];
    size_t got = 0;
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    if (buf == NULL && cap > 0)
        return fail(vn, c, "iwarp_rts_recv", IW_EINVAL, "no buffer");
    mcei_iw_flush(vn);
    rc = mcei_iw_rts_recv(vn, src, type, buf, cap, &got, why, sizeof(why));
    if (rc == MCE_OK && src != NULL && type != NULL)
        mcei_api_args(vn, MCEI_ARG_BYTES | MCEI_ARG_PEER | MCEI_ARG_TYPE,
                      (int64_t)got, *src, *type);
    if (len != NULL)
        *len = got;
    if (rc == MCE_ERR_TRUNCATE)
        return fail(vn, c, "iwarp_rts_recv", IW_EINVAL,
                    "message longer than the buffer (truncated)");
    if (rc != MCE_OK)
        return fail(vn, c, "iwarp_rts_recv", IW_EINVAL, why);
    mcei_leave(vn);
    return IW_OK;
}

/* ---- spools ------------------------------------------------------------- */

static int spool_start(const char *call, int out, int pct, void *buf, size_t n)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter(call, &c);
    char why[200];
    int rc, h = -1;
    if (vn == NULL)
        return IW_EMACHINE;
    mcei_api_args(vn, MCEI_ARG_BYTES, (int64_t)(n * 4), 0, 0);
    mcei_iw_flush(vn);
    if ((rc = mcei_iw_spool_start(vn, out, pct, buf, n, &h, why,
                                  sizeof(why))) != MCE_OK)
        return fail(vn, c, call,
                    rc == MCE_ERR_RESOURCE ? IW_ESPOOL
                    : rc == MCE_ERR_INVAL  ? IW_EINVAL
                                           : IW_EPCT,
                    why);
    mcei_leave(vn);
    return h;
}

MCE_EXPORT int mce_iw_spool_out(int pct, const void *buf, size_t nwords)
{
    return spool_start("iwarp_spool_out", 1, pct, (void *)(uintptr_t)buf,
                       nwords);
}

MCE_EXPORT int mce_iw_spool_in(int pct, void *buf, size_t nwords)
{
    return spool_start("iwarp_spool_in", 0, pct, buf, nwords);
}

static int spool_end(const char *call, int h, int test)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter(call, &c);
    char why[200];
    int done = 0;
    if (vn == NULL)
        return IW_EMACHINE;
    mcei_iw_flush(vn);
    if (test)
        mcei_poll_begin(vn, call);
    if (mcei_iw_spool_finish(vn, h, test, &done, why, sizeof(why)) != MCE_OK) {
        if (test)
            mcei_poll_end(vn);
        return fail(vn, c, call, IW_ESPOOL, why);
    }
    if (test && !done) {
        /* a test that finds the spool busy costs a poll, so that a test
         * loop lets virtual time (and the spool) go on */
        mcei_iw_cpu(vn, mcei_probe_cost());
    }
    if (test)
        mcei_poll_end(vn);
    mcei_leave(vn);
    return test ? done : IW_OK;
}

MCE_EXPORT int mce_iw_spool_wait(int h)
{
    return spool_end("iwarp_spool_wait", h, 0);
}

MCE_EXPORT int mce_iw_spool_test(int h)
{
    return spool_end("iwarp_spool_test", h, 1);
}

/* ---- video devices (lib/machines/iwarp/video.c) ---------------------- */

static int video_code(int rc)
{
    return rc == MCE_ERR_INVAL ? IW_EINVAL : IW_ENODEV;
}

MCE_EXPORT int mce_iw_video_source(iw_video_fn fn, void *arg)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_video_source", &c);
    char why[200];
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    if ((rc = mcei_iw_video_source(vn, fn, arg, why, sizeof(why))) != MCE_OK)
        return fail(vn, c, "iwarp_video_source", video_code(rc), why);
    mcei_leave(vn);
    return IW_OK;
}

static int video_read(const char *call, uint32_t *w, size_t n,
                      unsigned long long *pos, unsigned long long *arrival)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter(call, &c);
    char why[200];
    uint64_t *p = NULL;
    mce_time_t *a = NULL;
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    if (n > 0 && ((pos != NULL && (p = calloc(n, sizeof(*p))) == NULL) ||
                  (arrival != NULL && (a = calloc(n, sizeof(*a))) == NULL)))
        mcei_vn_fatal(vn, "%s: out of memory", call);
    rc = mcei_iw_video_read(vn, w, n, p, a, why, sizeof(why));
    if (rc == MCE_OK)
        for (size_t i = 0; i < n; i++) {
            if (pos != NULL)
                pos[i] = p[i];
            if (arrival != NULL)
                arrival[i] = a[i] / c->clock;
        }
    free(p);
    free(a);
    if (rc != MCE_OK)
        return fail(vn, c, call, video_code(rc), why);
    mcei_leave(vn);
    return IW_OK;
}

MCE_EXPORT int mce_iw_video_read(uint32_t *w, size_t n)
{
    return video_read("iwarp_video_read", w, n, NULL, NULL);
}

MCE_EXPORT int mce_iw_video_readx(uint32_t *w, size_t n,
                                  unsigned long long *pos,
                                  unsigned long long *arrival)
{
    return video_read("iwarp_video_readx", w, n, pos, arrival);
}

MCE_EXPORT long mce_iw_video_sync(void)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_video_sync", &c);
    char why[200];
    uint64_t f;
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    if ((rc = mcei_iw_video_sync(vn, &f, why, sizeof(why))) != MCE_OK)
        return fail(vn, c, "iwarp_video_sync", video_code(rc), why);
    mcei_leave(vn);
    return (long)f;
}

MCE_EXPORT unsigned long mce_iw_video_lost(void)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_video_lost", &c);
    char why[200];
    uint64_t n = 0;
    if (vn == NULL)
        return 0;
    if (mcei_iw_video_lost(vn, &n, why, sizeof(why)) != MCE_OK)
        n = 0;
    mcei_leave(vn);
    return (unsigned long)n;
}

MCE_EXPORT int mce_iw_video_write(const uint32_t *w, size_t n)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_video_write", &c);
    char why[200];
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    if ((rc = mcei_iw_video_write(vn, w, n, why, sizeof(why))) != MCE_OK)
        return fail(vn, c, "iwarp_video_write", video_code(rc), why);
    mcei_leave(vn);
    return IW_OK;
}

MCE_EXPORT long long mce_iw_video_output(unsigned long long i, uint32_t *w,
                                         unsigned long long *clocks)
{
    const mcei_iw_costs_t *c;
    mcei_vn_t *vn = enter("iwarp_video_output", &c);
    char why[200];
    uint64_t count;
    mce_time_t t;
    uint32_t word;
    int rc;
    if (vn == NULL)
        return IW_EMACHINE;
    rc = mcei_iw_video_output(vn, i, w != NULL || clocks != NULL ? &word : NULL,
                              w != NULL || clocks != NULL ? &t : NULL, &count,
                              why, sizeof(why));
    if (rc != MCE_OK)
        return fail(vn, c, "iwarp_video_output", video_code(rc), why);
    if (w != NULL)
        *w = word;
    if (clocks != NULL)
        *clocks = t / c->clock;
    mcei_leave(vn);
    return (long long)count;
}
