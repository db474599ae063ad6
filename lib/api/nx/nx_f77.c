/* Fortran 77 bindings of NX: the g77/gfortran convention (lower case,
 * trailing underscore, every argument by reference, INTEGER*4, REAL*8 for
 * the gd* operations and REAL for the gs* ones; character buffers are
 * addresses, their hidden lengths ignored).  Built into libmcemuf77,
 * which mcef77 links; the names exist only here.  The C API takes long:
 * the gi* operands go through NX's 32-bit forms (nx.h), info arrays and
 * the length and node lists of gcolx and gsendx through temporary long
 * arrays.  The plain forms are bound (a
 * failed call names itself and the node and ends the program, as NX did);
 * Fortran names cannot start with '_'.
 *
 * IRECVX fills its INFO array when the receive completes (MSGWAIT, or
 * MSGDONE returning 1).  Handlers (HRECV, HRECVX, HSEND) are SUBROUTINE
 * H(TYPE, COUNT, NODE, PTYPE) and GOPF's function is INTEGER FUNCTION
 * F(X, Y) combining Y into X; up to 32 distinct ones each.  gfortran
 * treats MCLOCK() as its own intrinsic: mcef77 redirects it to NX's for
 * NX programs. */
#include <stdio.h>
#include <stdlib.h>

#include "nx.h"

#define F77 __attribute__((visibility("default")))

typedef int f77_int;

/* ---- identity and time -------------------------------------------------- */

F77 f77_int mynode_(void)
{
    return (f77_int)mce_nx_mynode();
}

F77 f77_int numnodes_(void)
{
    return (f77_int)mce_nx_numnodes();
}

F77 f77_int myhost_(void)
{
    return (f77_int)mce_nx_myhost();
}

F77 f77_int mypid_(void)
{
    return (f77_int)mce_nx_mypid();
}

F77 f77_int myptype_(void)
{
    return (f77_int)mce_nx_myptype();
}

F77 void setptype_(f77_int *ptype)
{
    mce_nx_setptype(*ptype);
}

F77 f77_int nodedim_(void)
{
    return (f77_int)mce_nx_nodedim();
}

F77 double dclock_(void)
{
    return mce_nx_dclock();
}

F77 f77_int mclock_(void)
{
    return (f77_int)mce_nx_mclock();
}

F77 void flick_(void)
{
    mce_nx_flick();
}

F77 f77_int infocount_(void)
{
    return (f77_int)mce_nx_infocount();
}

F77 f77_int infonode_(void)
{
    return (f77_int)mce_nx_infonode();
}

F77 f77_int infotype_(void)
{
    return (f77_int)mce_nx_infotype();
}

F77 f77_int infoptype_(void)
{
    return (f77_int)mce_nx_infoptype();
}

F77 f77_int infopid_(void)
{
    return (f77_int)mce_nx_infopid();
}

/* ---- info arrays --------------------------------------------------------- */

#define INFO_N 4 /* type, count, node, ptype: what the C calls fill */

static void info_out(f77_int *info, const long *l)
{
    if (info != NULL)
        for (int i = 0; i < INFO_N; i++)
            info[i] = (f77_int)l[i];
}

/* IRECVX's INFO arrays waiting for their receive: filled from msginfo
 * (which then describes that message) when the id completes.  Shared by
 * the nodes of a process, so keyed by node. */
typedef struct pending {
    int node;
    long id;
    f77_int *info;
} pending_t;

static pending_t *pend;
static size_t npend, cappend;

static void pend_add(long id, f77_int *info)
{
    if (id <= 0 || info == NULL)
        return;
    if (npend == cappend) {
        size_t cap = cappend ? 2 * cappend : 16;
        pending_t *p = realloc(pend, cap * sizeof(*p));
        if (p == NULL) {
            fprintf(stderr,
                    "mcemu: node %d: NX irecvx: out of memory for "
                    "the INFO array\n",
                    mce_node());
            return;
        }
        pend = p;
        cappend = cap;
    }
    pend[npend].node = mce_node();
    pend[npend].id = id;
    pend[npend].info = info;
    npend++;
}

static void pend_drop_at(size_t i)
{
    pend[i] = pend[--npend];
}

/* The id completed: fill its INFO arrays and forget them. */
static void pend_complete(long id)
{
    int node = mce_node();
    for (size_t i = 0; i < npend;) {
        if (pend[i].node == node && pend[i].id == id) {
            info_out(pend[i].info, mce_nx_msginfo);
            pend_drop_at(i);
        } else {
            i++;
        }
    }
}

static void pend_forget(long id)
{
    int node = mce_node();
    for (size_t i = 0; i < npend;) {
        if (pend[i].node == node && pend[i].id == id)
            pend_drop_at(i);
        else
            i++;
    }
}

static void pend_rekey(long from, long to)
{
    int node = mce_node();
    for (size_t i = 0; i < npend; i++)
        if (pend[i].node == node && pend[i].id == from)
            pend[i].id = to;
}

/* ---- handlers and gopf functions: trampolines keyed by the Fortran
 * procedure (the same address on every node of the program) ------------- */

typedef void (*f77_handler_t)(f77_int *type, f77_int *count, f77_int *node,
                              f77_int *ptype);
typedef f77_int (*f77_gopf_t)(void *x, void *y);

#define NSLOTS 32
static f77_handler_t hslot[NSLOTS];
static f77_gopf_t fslot[NSLOTS];

static void call_handler(int k, long type, long count, long node, long ptype)
{
    f77_int t = (f77_int)type, c = (f77_int)count, n = (f77_int)node,
            p = (f77_int)ptype;
    hslot[k](&t, &c, &n, &p);
}

static long call_gopf(int k, void *x, void *y)
{
    return (long)fslot[k](x, y);
}

#define SLOT(k)                                                                \
    static void htramp##k(long t, long c, long n, long p)                      \
    {                                                                          \
        call_handler(k, t, c, n, p);                                           \
    }                                                                          \
    static long ftramp##k(void *x, void *y)                                    \
    {                                                                          \
        return call_gopf(k, x, y);                                             \
    }
SLOT(0)
SLOT(1)
SLOT(2)
SLOT(3)
SLOT(4)
SLOT(5)
SLOT(6)
SLOT(7)
SLOT(8)
SLOT(9)
SLOT(10)
SLOT(11)
SLOT(12)
SLOT(13)
SLOT(14)
SLOT(15)
SLOT(16)
SLOT(17)
SLOT(18)
SLOT(19)
SLOT(20)
SLOT(21)
SLOT(22)
SLOT(23)
SLOT(24)
SLOT(25)
SLOT(26)
SLOT(27)
SLOT(28)
SLOT(29)
SLOT(30)
SLOT(31)

static const mce_nx_handler_t htramps[NSLOTS] = {
    htramp0,  htramp1,  htramp2,  htramp3,  htramp4,  htramp5,  htramp6,
    htramp7,  htramp8,  htramp9,  htramp10, htramp11, htramp12, htramp13,
    htramp14, htramp15, htramp16, htramp17, htramp18, htramp19, htramp20,
    htramp21, htramp22, htramp23, htramp24, htramp25, htramp26, htramp27,
    htramp28, htramp29, htramp30, htramp31};
static long (*const ftramps[NSLOTS])(void *, void *) = {
    ftramp0,  ftramp1,  ftramp2,  ftramp3,  ftramp4,  ftramp5,  ftramp6,
    ftramp7,  ftramp8,  ftramp9,  ftramp10, ftramp11, ftramp12, ftramp13,
    ftramp14, ftramp15, ftramp16, ftramp17, ftramp18, ftramp19, ftramp20,
    ftramp21, ftramp22, ftramp23, ftramp24, ftramp25, ftramp26, ftramp27,
    ftramp28, ftramp29, ftramp30, ftramp31};

static void too_many(const char *call)
{
    fprintf(stderr,
            "mcemu: node %d: NX %s (Fortran): more than %d distinct "
            "procedures\n",
            mce_node(), call, NSLOTS);
    exit(1);
}

static mce_nx_handler_t handler_of(f77_handler_t h, const char *call)
{
    if (h == NULL)
        return NULL;
    for (int k = 0; k < NSLOTS; k++) {
        if (hslot[k] == NULL)
            hslot[k] = h;
        if (hslot[k] == h)
            return htramps[k];
    }
    too_many(call);
    return NULL;
}

static long (*gopf_of(f77_gopf_t f))(void *, void *)
{
    if (f == NULL)
        return NULL;
    for (int k = 0; k < NSLOTS; k++) {
        if (fslot[k] == NULL)
            fslot[k] = f;
        if (fslot[k] == f)
            return ftramps[k];
    }
    too_many("gopf");
    return NULL;
}

/* ---- point to point ------------------------------------------------------ */

/* The NX subroutines (CALL CSEND, CALL CRECV, ...) end the program on an
 * error, as in C; the functions return their value. */
F77 void csend_(f77_int *type, void *buf, f77_int *count, f77_int *node,
                f77_int *ptype)
{
    mce_nx_csend(*type, buf, *count, *node, *ptype);
}

F77 void crecv_(f77_int *typesel, void *buf, f77_int *count)
{
    mce_nx_crecv(*typesel, buf, *count);
}

F77 void crecvx_(f77_int *typesel, void *buf, f77_int *count, f77_int *nodesel,
                 f77_int *ptypesel, f77_int *info)
{
    long l[8] = {0};
    mce_nx_crecvx(*typesel, buf, *count, *nodesel, *ptypesel, l);
    info_out(info, l);
}

F77 f77_int isend_(f77_int *type, void *buf, f77_int *count, f77_int *node,
                   f77_int *ptype)
{
    return (f77_int)mce_nx_isend(*type, buf, *count, *node, *ptype);
}

F77 f77_int irecv_(f77_int *typesel, void *buf, f77_int *count)
{
    return (f77_int)mce_nx_irecv(*typesel, buf, *count);
}

F77 f77_int irecvx_(f77_int *typesel, void *buf, f77_int *count,
                    f77_int *nodesel, f77_int *ptypesel, f77_int *info)
{
    long id = mce_nx_irecvx(*typesel, buf, *count, *nodesel, *ptypesel, NULL);
    pend_add(id, info);
    return (f77_int)id;
}

F77 f77_int csendrecv_(f77_int *type, void *sbuf, f77_int *scount,
                       f77_int *node, f77_int *ptype, f77_int *typesel,
                       void *rbuf, f77_int *rcount)
{
    return (f77_int)mce_nx_csendrecv(*type, sbuf, *scount, *node, *ptype,
                                     *typesel, rbuf, *rcount);
}

F77 f77_int isendrecv_(f77_int *type, void *sbuf, f77_int *scount,
                       f77_int *node, f77_int *ptype, f77_int *typesel,
                       void *rbuf, f77_int *rcount)
{
    return (f77_int)mce_nx_isendrecv(*type, sbuf, *scount, *node, *ptype,
                                     *typesel, rbuf, *rcount);
}

F77 void msgwait_(f77_int *mid)
{
    mce_nx_msgwait(*mid);
    pend_complete(*mid);
}

F77 f77_int msgdone_(f77_int *mid)
{
    long rc = mce_nx_msgdone(*mid);
    if (rc == 1)
        pend_complete(*mid);
    return (f77_int)rc;
}

F77 void msgcancel_(f77_int *mid)
{
    mce_nx_msgcancel(*mid);
    pend_forget(*mid);
}

F77 void msgignore_(f77_int *mid)
{
    mce_nx_msgignore(*mid);
    pend_forget(*mid);
}

F77 f77_int msgmerge_(f77_int *mid1, f77_int *mid2)
{
    long id = mce_nx_msgmerge(*mid1, *mid2);
    if (id > 0) {
        pend_rekey(*mid1, id);
        pend_rekey(*mid2, id);
    }
    return (f77_int)id;
}

F77 void cprobe_(f77_int *typesel)
{
    mce_nx_cprobe(*typesel);
}

F77 f77_int iprobe_(f77_int *typesel)
{
    return (f77_int)mce_nx_iprobe(*typesel);
}

F77 void cprobex_(f77_int *typesel, f77_int *nodesel, f77_int *ptypesel,
                  f77_int *info)
{
    long l[8] = {0};
    mce_nx_cprobex(*typesel, *nodesel, *ptypesel, l);
    info_out(info, l);
}

F77 f77_int iprobex_(f77_int *typesel, f77_int *nodesel, f77_int *ptypesel,
                     f77_int *info)
{
    long l[8] = {0};
    long rc = mce_nx_iprobex(*typesel, *nodesel, *ptypesel, l);
    if (rc == 1)
        info_out(info, l);
    return (f77_int)rc;
}

/* ---- handler receives ------------------------------------------------------
 */

F77 f77_int hrecv_(f77_int *typesel, void *buf, f77_int *count,
                   f77_handler_t handler)
{
    return (f77_int)mce_nx_hrecv(*typesel, buf, *count,
                                 handler_of(handler, "hrecv"));
}

F77 f77_int hrecvx_(f77_int *typesel, void *buf, f77_int *count,
                    f77_int *nodesel, f77_int *ptypesel, f77_handler_t handler)
{
    return (f77_int)mce_nx_hrecvx(*typesel, buf, *count, *nodesel, *ptypesel,
                                  handler_of(handler, "hrecvx"));
}

F77 f77_int hsend_(f77_int *type, void *buf, f77_int *count, f77_int *node,
                   f77_int *ptype, f77_handler_t handler)
{
    return (f77_int)mce_nx_hsend(*type, buf, *count, *node, *ptype,
                                 handler_of(handler, "hsend"));
}

F77 f77_int masktrap_(f77_int *state)
{
    return (f77_int)mce_nx_masktrap(*state);
}

/* ---- global operations -----------------------------------------------------
 */

F77 void gsync_(void)
{
    mce_nx_gsync();
}

#define REAL_GOP(name, T)                                                      \
    F77 void name##_(T *x, f77_int *n, T *work)                                \
    {                                                                          \
        mce_nx_##name(x, *n, work);                                            \
    }
REAL_GOP(gdsum, double)
REAL_GOP(gdprod, double)
REAL_GOP(gdhigh, double)
REAL_GOP(gdlow, double)
REAL_GOP(gssum, float)
REAL_GOP(gsprod, float)
REAL_GOP(gshigh, float)
REAL_GOP(gslow, float)

/* INTEGER*4 (and LOGICAL*4) operands: NX's 32-bit forms, which combine
 * them as long (the C forms' messages and time) and stop the program
 * when a result does not fit an INTEGER instead of wrapping it. */
#define INT_GOP(name)                                                          \
    F77 void name##_(f77_int *x, f77_int *n, f77_int *work)                    \
    {                                                                          \
        mce_nx_##name##32(x, *n, work);                                        \
    }
INT_GOP(gisum)
INT_GOP(giprod)
INT_GOP(gihigh)
INT_GOP(gilow)
INT_GOP(giand)
INT_GOP(gior)
INT_GOP(gland)
INT_GOP(glor)

F77 void gopf_(void *x, f77_int *xlen, void *work, f77_gopf_t f)
{
    mce_nx_gopf(x, *xlen, work, gopf_of(f));
}

F77 void gcol_(void *x, f77_int *xlen, void *y, f77_int *ylen, f77_int *ncnt)
{
    long cnt = 0;
    mce_nx_gcol(x, *xlen, y, *ylen, &cnt);
    if (ncnt != NULL)
        *ncnt = (f77_int)cnt;
}

F77 void gcolx_(void *x, f77_int *xlens, void *y)
{
    long n = mce_nx_numnodes(), sl[64], *l = sl;
    if (xlens == NULL) {
        mce_nx_gcolx(x, NULL, y);
        return;
    }
    if (n > 64 && (l = malloc((size_t)n * sizeof(long))) == NULL) {
        mce_nx_gcolx(x, NULL, y);
        return;
    }
    for (long i = 0; i < n; i++)
        l[i] = xlens[i];
    mce_nx_gcolx(x, l, y);
    if (l != sl)
        free(l);
}

F77 void gsendx_(f77_int *type, void *x, f77_int *n, f77_int *nodes,
                 f77_int *nn)
{
    long count = *nn > 0 && nodes != NULL ? (long)*nn : 0;
    long *l = malloc((size_t)(count > 0 ? count : 1) * sizeof(long));
    if (l == NULL) {
        mce_nx_gsendx(*type, x, *n, NULL, *nn);
        return;
    }
    for (long i = 0; i < count; i++)
        l[i] = nodes[i];
    mce_nx_gsendx(*type, x, *n, count > 0 ? l : NULL, *nn);
    free(l);
}
