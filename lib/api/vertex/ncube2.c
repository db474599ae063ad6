/* The NCUBE 2 flavour of the Vertex personality (nCX): clocks, I/O
 * modes, the broadcast from node 0 and the global reductions, made of the
 * ncube2 protocol's messages. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/engine.h"
#include "../../machines/ncube/ncube2.h"
#define MCE_NC2_NO_STDIO 1 /* the wrappers below call the C library's */
#define MCE_NC2_LIBRARY  1 /* no default machine inside the library */
#include "ncube2.h"
#include "vx_internal.h"

/* The calling node on the NCUBE 2 machine; the run ends on NCUBE/ten,
 * which had none of these calls. */
static mcei_vn_t *enter2(const char *call, const mcei_ncube2_costs_t **c)
{
    mcei_vn_t *vn = mcei_vx_enter(call);
    if (vn != NULL && !mcei_ncube2_active(c))
        mcei_vn_fatal(vn,
                      "%s: an nCX call of the NCUBE 2; machine '%s' is not "
                      "one (use --mce-machine=ncube2)",
                      call, mcei_machine_name());
    return vn;
}

/* The node's clock, read as a trap: polling loops on it advance. */
static mce_time_t read_clock(const char *call)
{
    const mcei_ncube2_costs_t *c;
    mcei_vn_t *vn = enter2(call, &c);
    mce_time_t t;
    if (vn == NULL)
        return 0;
    mcei_poll_begin(vn, call);
    mcei_sync(vn);
    mcei_charge_comm(vn, c->trap_cost);
    mcei_poll_end(vn);
    t = vn->clock;
    mcei_leave(vn);
    return t;
}

MCE_EXPORT double mce_nc2_amicclk(void)
{
    return (double)read_clock("amicclk") / (double)MCE_US;
}

MCE_EXPORT int mce_nc2_n_time(int *usec)
{
    /* A 32-bit microsecond count, as the node's 32-bit int: wraps. */
    int us = (int)(uint32_t)(read_clock("n_time") / MCE_US);
    if (usec != NULL)
        *usec = us;
    return us;
}

static void io_mode(const char *call, int global)
{
    mcei_vn_t *vn = enter2(call, NULL);
    if (vn == NULL)
        return;
    mcei_ncube2_api(vn)->global_io = global;
    mcei_leave(vn);
}

MCE_EXPORT void mce_nc2_nglobal(void)
{
    io_mode("nglobal", 1);
}

MCE_EXPORT void mce_nc2_nlocal(void)
{
    io_mode("nlocal", 0);
}

MCE_EXPORT void mce_nc2_nperror(const char *s)
{
    mcei_vn_t *vn = enter2("nperror", NULL);
    const mcei_ncube2_api_t *a;
    if (vn == NULL)
        return;
    a = mcei_ncube2_api(vn);
    mcei_leave(vn);
    fprintf(stderr, "%s%snode %d: %s\n", s ? s : "", s && *s ? ": " : "",
            vn->id, a->last_error ? a->last_msg : "no error");
}

/* ---- collectives -------------------------------------------------------
 * The traffic of the n-th collective a node begins has type n x 256 +
 * step, in the system context: it never matches the program's nread, and
 * every node numbers the collectives alike when all call them in the
 * same order (as they must). */

static int64_t coll_type(mcei_vn_t *vn, uint64_t seq, int step)
{
    (void)vn;
    return (int64_t)((seq << 8) | (uint64_t)step);
}

static int exchange(mcei_vn_t *vn, const char *call, const void *out, void *in,
                    uint32_t n, int peer, int64_t type)
{
    int src = peer;
    int64_t t = type;
    uint32_t len;
    if (mcei_ncube2_write(vn, out, n, peer, type, MCEI_CTX_SYSTEM) != MCE_OK ||
        mcei_ncube2_read(vn, in, n, &src, &t, MCEI_CTX_SYSTEM, &len) !=
            MCE_OK ||
        len != n)
        mcei_vn_fatal(vn, "%s: exchange with node %d failed", call, peer);
    return MCE_OK;
}

typedef enum { OP_SUM, OP_MAX, OP_MIN, OP_PROD } op_t;

/* Recursive doubling over the cube's dimensions: at step d every node
 * exchanges its partial result with its neighbour across dimension d and
 * combines.  The operations are commutative, so both partners hold the
 * same bits after every step, and every node ends with the same result. */
#define GOP(T, NAME, CALL)                                                     \
    static T NAME(const char *call, T x, op_t op)                              \
    {                                                                          \
        const mcei_ncube2_costs_t *c;                                          \
        mcei_vn_t *vn = enter2(call, &c);                                      \
        mcei_ncube2_api_t *a;                                                  \
        uint64_t seq;                                                          \
        T in;                                                                  \
        if (vn == NULL)                                                        \
            return x;                                                          \
        a = mcei_ncube2_api(vn);                                               \
        seq = a->gop_seq++;                                                    \
        for (int d = 0; d < mcei_ncube2_dim(); d++) {                          \
            exchange(vn, call, &x, &in, sizeof(T), vn->id ^ (1 << d),          \
                     coll_type(vn, seq, d));                                   \
            mcei_charge_comm(vn, c->combine);                                  \
            switch (op) {                                                      \
            case OP_SUM:                                                       \
                x = CALL(x + in);                                              \
                break;                                                         \
            case OP_PROD:                                                      \
                x = CALL(x * in);                                              \
                break;                                                         \
            case OP_MAX:                                                       \
                x = in > x ? in : x;                                           \
                break;                                                         \
            case OP_MIN:                                                       \
                x = in < x ? in : x;                                           \
                break;                                                         \
            }                                                                  \
        }                                                                      \
        mcei_leave(vn);                                                        \
        return x;                                                              \
    }

/* int arithmetic wraps as the node's 32-bit int did, without C's
 * undefined signed overflow. */
#define WRAP_INT(e) ((int)(uint32_t)(e))
#define SAME(e)     (e)
static int iwrap_add(int a, int b)
{
    return WRAP_INT((uint32_t)a + (uint32_t)b);
}
static int iwrap_mul(int a, int b)
{
    return WRAP_INT((uint32_t)a * (uint32_t)b);
}

static int gop_int(const char *call, int x, op_t op)
{
    const mcei_ncube2_costs_t *c;
    mcei_vn_t *vn = enter2(call, &c);
    uint64_t seq;
    int in;
    if (vn == NULL)
        return x;
    seq = mcei_ncube2_api(vn)->gop_seq++;
    for (int d = 0; d < mcei_ncube2_dim(); d++) {
        exchange(vn, call, &x, &in, sizeof(int), vn->id ^ (1 << d),
                 coll_type(vn, seq, d));
        mcei_charge_comm(vn, c->combine);
        switch (op) {
        case OP_SUM:
            x = iwrap_add(x, in);
            break;
        case OP_PROD:
            x = iwrap_mul(x, in);
            break;
        case OP_MAX:
            x = in > x ? in : x;
            break;
        case OP_MIN:
            x = in < x ? in : x;
            break;
        }
    }
    mcei_leave(vn);
    return x;
}

GOP(float, gop_float, (float))
GOP(double, gop_double, SAME)

MCE_EXPORT int mce_nc2_isumn(int x)
{
    return gop_int("isumn", x, OP_SUM);
}
MCE_EXPORT int mce_nc2_imaxn(int x)
{
    return gop_int("imaxn", x, OP_MAX);
}
MCE_EXPORT int mce_nc2_iminn(int x)
{
    return gop_int("iminn", x, OP_MIN);
}
MCE_EXPORT int mce_nc2_iprodn(int x)
{
    return gop_int("iprodn", x, OP_PROD);
}
MCE_EXPORT float mce_nc2_fsumn(double x)
{
    return gop_float("fsumn", (float)x, OP_SUM);
}
MCE_EXPORT float mce_nc2_fmaxn(double x)
{
    return gop_float("fmaxn", (float)x, OP_MAX);
}
MCE_EXPORT float mce_nc2_fminn(double x)
{
    return gop_float("fminn", (float)x, OP_MIN);
}
MCE_EXPORT float mce_nc2_fprodn(double x)
{
    return gop_float("fprodn", (float)x, OP_PROD);
}
MCE_EXPORT double mce_nc2_dsumn(double x)
{
    return gop_double("dsumn", x, OP_SUM);
}
MCE_EXPORT double mce_nc2_dmaxn(double x)
{
    return gop_double("dmaxn", x, OP_MAX);
}
MCE_EXPORT double mce_nc2_dminn(double x)
{
    return gop_double("dminn", x, OP_MIN);
}
MCE_EXPORT double mce_nc2_dprodn(double x)
{
    return gop_double("dprodn", x, OP_PROD);
}

/* Binomial tree from node 0: a node receives from the node that differs
 * in its highest set bit, then sends across every higher dimension. */
MCE_EXPORT void mce_nc2_nbrdcst(void *buf, int nbytes)
{
    mcei_vn_t *vn = enter2("nbrdcst", NULL);
    uint64_t seq;
    int me, first = 0;
    if (vn == NULL)
        return;
    /* Collective: a node that skipped it would hang the others. */
    if (nbytes < 0 || (nbytes > 0 && buf == NULL))
        mcei_vn_fatal(vn, "nbrdcst: %s",
                      nbytes < 0 ? "negative length" : "NULL buffer");
    mcei_api_args(vn, MCEI_ARG_BYTES, nbytes, 0, 0);
    seq = mcei_ncube2_api(vn)->gop_seq++;
    me = vn->id;
    if (me != 0) {
        int hb = 31 - __builtin_clz((unsigned)me), src = me ^ (1 << hb);
        int64_t t = coll_type(vn, seq, 0);
        uint32_t len;
        if (mcei_ncube2_read(vn, buf, (uint32_t)nbytes, &src, &t,
                             MCEI_CTX_SYSTEM, &len) != MCE_OK)
            mcei_vn_fatal(vn, "nbrdcst: receive failed");
        if (len != (uint32_t)nbytes)
            mcei_vn_fatal(vn,
                          "nbrdcst: node %d broadcast %u bytes, node %d "
                          "asked for %d",
                          0, len, me, nbytes);
        first = hb + 1;
    }
    for (int j = first; j < mcei_ncube2_dim(); j++)
        if (mcei_ncube2_write(vn, buf, (uint32_t)nbytes, me | (1 << j),
                              coll_type(vn, seq, 0), MCEI_CTX_SYSTEM) != MCE_OK)
            mcei_vn_fatal(vn, "nbrdcst: out of memory");
    mcei_leave(vn);
}

/* ---- output in global mode -------------------------------------------- */

/* Is this write one that global mode drops (a node other than 0 writing
 * to the terminal)?  No side effect on the node: a plain look. */
static int dropped(FILE *f)
{
    mcei_vn_t *vn = mcei_current_vn();
    if (vn == NULL || !mcei_ncube2_active(NULL) || vn->id == 0)
        return 0;
    return mcei_ncube2_api(vn)->global_io && (f == stdout || f == stderr);
}

MCE_EXPORT int mce_nc2_vfprintf(FILE *f, const char *fmt, va_list ap)
{
    if (dropped(f))
        return vsnprintf(NULL, 0, fmt, ap);
    return vfprintf(f, fmt, ap);
}

MCE_EXPORT int mce_nc2_vprintf(const char *fmt, va_list ap)
{
    return mce_nc2_vfprintf(stdout, fmt, ap);
}

MCE_EXPORT int mce_nc2_fprintf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = mce_nc2_vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

MCE_EXPORT int mce_nc2_printf(const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = mce_nc2_vfprintf(stdout, fmt, ap);
    va_end(ap);
    return n;
}

MCE_EXPORT int mce_nc2_fputs(const char *s, FILE *f)
{
    return dropped(f) ? 0 : fputs(s, f);
}

MCE_EXPORT int mce_nc2_puts(const char *s)
{
    return dropped(stdout) ? 0 : puts(s);
}

MCE_EXPORT int mce_nc2_fputc(int c, FILE *f)
{
    return dropped(f) ? (unsigned char)c : fputc(c, f);
}

MCE_EXPORT int mce_nc2_putchar(int c)
{
    return mce_nc2_fputc(c, stdout);
}

MCE_EXPORT size_t mce_nc2_fwrite(const void *p, size_t size, size_t n, FILE *f)
{
    return dropped(f) ? n : fwrite(p, size, n, f);
}
