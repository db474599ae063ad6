/**
 * @file nx.h
 * @brief Intel NX (iPSC/860 NX/2 and Paragon NX) node API on mcemu.
 *
 * Legacy NX programs include this header and are compiled with `mcecc`
 * (Fortran 77 programs with `mcef77`).  The names are macros over the
 * mce_nx_ functions, so they never clash with the host's C library.
 * Every call has two forms, as on the machines: the plain one prints a
 * diagnostic naming the call and the node and ends the program on error;
 * the `_`-prefixed one (_csend, _crecv, ...) returns -1 and sets errno.
 *
 * Message types are 31-bit (0 .. 0x7fffffff, carried in full); a type
 * with FORCE_TYPE set selects the forced protocol, which needs the
 * receive already posted (otherwise the message is discarded).  -1
 * selects any type, node or process type in the receive and probe calls.
 */
#ifndef MCEMU_NX_H
#define MCEMU_NX_H

#include "mcemu.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FORCE_TYPE 0x40000000L
#define NX_ANY     (-1L)

/** Description of the last message received or probed: type, count,
 * node, ptype (the x-forms fill an array laid out the same way). */
extern MCE_EXPORT long mce_nx_msginfo[8];

typedef void (*mce_nx_handler_t)(long type, long count, long node, long ptype);

/* NX calls as the Paragon's nx.h declared them: the subroutines (csend,
 * crecv, gsync, ...) return nothing, the functions a long; every '_' form
 * returns a long (-1 on error, with errno). */
#define MCE_NX_DECL2(ret, name, params)                                        \
    MCE_EXPORT ret mce_nx_##name params;                                       \
    MCE_EXPORT long mce_nx__##name params;

MCE_NX_DECL2(long, mynode, (void))
MCE_NX_DECL2(long, numnodes, (void))
MCE_NX_DECL2(long, myhost, (void))
MCE_NX_DECL2(long, mypid, (void))
MCE_NX_DECL2(long, myptype, (void))
MCE_NX_DECL2(void, setptype, (long ptype))
MCE_NX_DECL2(long, nodedim, (void))
MCE_EXPORT double mce_nx_dclock(void);
MCE_EXPORT unsigned long mce_nx_mclock(void);
MCE_EXPORT void mce_nx_hwclock(long long *ticks);
MCE_EXPORT void mce_nx_flick(void);
MCE_NX_DECL2(void, csend,
             (long type, const void *buf, long count, long node, long ptype))
MCE_NX_DECL2(void, crecv, (long typesel, void *buf, long count))
MCE_NX_DECL2(void, crecvx,
             (long typesel, void *buf, long count, long nodesel, long ptypesel,
              long info[]))
MCE_NX_DECL2(long, isend,
             (long type, const void *buf, long count, long node, long ptype))
MCE_NX_DECL2(long, irecv, (long typesel, void *buf, long count))
MCE_NX_DECL2(long, irecvx,
             (long typesel, void *buf, long count, long nodesel, long ptypesel,
              long info[]))
MCE_NX_DECL2(long, csendrecv,
             (long type, const void *sbuf, long scount, long node, long ptype,
              long typesel, void *rbuf, long rcount))
MCE_NX_DECL2(long, isendrecv,
             (long type, const void *sbuf, long scount, long node, long ptype,
              long typesel, void *rbuf, long rcount))
MCE_NX_DECL2(void, msgwait, (long mid))
MCE_NX_DECL2(long, msgdone, (long mid))
MCE_NX_DECL2(void, msgcancel, (long mid))
MCE_NX_DECL2(void, msgignore, (long mid))
MCE_NX_DECL2(long, msgmerge, (long mid1, long mid2))
MCE_NX_DECL2(void, cprobe, (long typesel))
MCE_NX_DECL2(long, iprobe, (long typesel))
MCE_NX_DECL2(void, cprobex,
             (long typesel, long nodesel, long ptypesel, long info[]))
MCE_NX_DECL2(long, iprobex,
             (long typesel, long nodesel, long ptypesel, long info[]))
MCE_NX_DECL2(long, infocount, (void))
MCE_NX_DECL2(long, infonode, (void))
MCE_NX_DECL2(long, infotype, (void))
MCE_NX_DECL2(long, infoptype, (void))
MCE_NX_DECL2(long, infopid, (void))
MCE_NX_DECL2(long, hrecv,
             (long typesel, void *buf, long count, mce_nx_handler_t handler))
MCE_NX_DECL2(long, hrecvx,
             (long typesel, void *buf, long count, long nodesel, long ptypesel,
              mce_nx_handler_t handler))
MCE_NX_DECL2(long, hsend,
             (long type, const void *buf, long count, long node, long ptype,
              mce_nx_handler_t handler))
MCE_NX_DECL2(long, masktrap, (long state))
MCE_NX_DECL2(void, gsync, (void))
MCE_NX_DECL2(void, gdsum, (double x[], long n, double work[]))
MCE_NX_DECL2(void, gssum, (float x[], long n, float work[]))
MCE_NX_DECL2(void, gisum, (long x[], long n, long work[]))
MCE_NX_DECL2(void, gdprod, (double x[], long n, double work[]))
MCE_NX_DECL2(void, gsprod, (float x[], long n, float work[]))
MCE_NX_DECL2(void, giprod, (long x[], long n, long work[]))
MCE_NX_DECL2(void, gdhigh, (double x[], long n, double work[]))
MCE_NX_DECL2(void, gshigh, (float x[], long n, float work[]))
MCE_NX_DECL2(void, gihigh, (long x[], long n, long work[]))
MCE_NX_DECL2(void, gdlow, (double x[], long n, double work[]))
MCE_NX_DECL2(void, gslow, (float x[], long n, float work[]))
MCE_NX_DECL2(void, gilow, (long x[], long n, long work[]))
MCE_NX_DECL2(void, giand, (long x[], long n, long work[]))
MCE_NX_DECL2(void, gior, (long x[], long n, long work[]))
MCE_NX_DECL2(void, gland, (long x[], long n, long work[]))
MCE_NX_DECL2(void, glor, (long x[], long n, long work[]))
MCE_NX_DECL2(void, gopf,
             (void *x, long xlen, void *work, long (*f)(void *x, void *y)))
MCE_NX_DECL2(void, gcol,
             (const void *x, long xlen, void *y, long ylen, long *ncnt))
MCE_NX_DECL2(void, gcolx, (const void *x, const long xlens[], void *y))
MCE_NX_DECL2(void, gsendx,
             (long type, const void *x, long n, const long nodes[], long nn))
#undef MCE_NX_DECL2

/* ---- legacy names ---------------------------------------------------- */
#define msginfo                  mce_nx_msginfo
#define mynode()                 mce_nx_mynode()
#define numnodes()               mce_nx_numnodes()
#define myhost()                 mce_nx_myhost()
#define mypid()                  mce_nx_mypid()
#define myptype()                mce_nx_myptype()
#define setptype(p)              mce_nx_setptype(p)
#define nodedim()                mce_nx_nodedim()
#define dclock()                 mce_nx_dclock()
#define mclock()                 mce_nx_mclock()
#define hwclock(t)               mce_nx_hwclock(t)
#define flick()                  mce_nx_flick()
#define csend(t, b, c, n, p)     mce_nx_csend(t, b, c, n, p)
#define crecv(t, b, c)           mce_nx_crecv(t, b, c)
#define crecvx(t, b, c, n, p, i) mce_nx_crecvx(t, b, c, n, p, i)
#define isend(t, b, c, n, p)     mce_nx_isend(t, b, c, n, p)
#define irecv(t, b, c)           mce_nx_irecv(t, b, c)
#define irecvx(t, b, c, n, p, i) mce_nx_irecvx(t, b, c, n, p, i)
#define csendrecv(t, sb, sc, n, p, ts, rb, rc)                                 \
    mce_nx_csendrecv(t, sb, sc, n, p, ts, rb, rc)
#define isendrecv(t, sb, sc, n, p, ts, rb, rc)                                 \
    mce_nx_isendrecv(t, sb, sc, n, p, ts, rb, rc)
#define msgwait(m)                 mce_nx_msgwait(m)
#define msgdone(m)                 mce_nx_msgdone(m)
#define msgcancel(m)               mce_nx_msgcancel(m)
#define msgignore(m)               mce_nx_msgignore(m)
#define msgmerge(a, b)             mce_nx_msgmerge(a, b)
#define cprobe(t)                  mce_nx_cprobe(t)
#define iprobe(t)                  mce_nx_iprobe(t)
#define cprobex(t, n, p, i)        mce_nx_cprobex(t, n, p, i)
#define iprobex(t, n, p, i)        mce_nx_iprobex(t, n, p, i)
#define infocount()                mce_nx_infocount()
#define infonode()                 mce_nx_infonode()
#define infotype()                 mce_nx_infotype()
#define infoptype()                mce_nx_infoptype()
#define infopid()                  mce_nx_infopid()
#define hrecv(t, b, c, h)          mce_nx_hrecv(t, b, c, h)
#define hrecvx(t, b, c, n, p, h)   mce_nx_hrecvx(t, b, c, n, p, h)
#define hsend(t, b, c, n, p, h)    mce_nx_hsend(t, b, c, n, p, h)
#define masktrap(s)                mce_nx_masktrap(s)
#define gsync()                    mce_nx_gsync()
#define gdsum(x, n, w)             mce_nx_gdsum(x, n, w)
#define gssum(x, n, w)             mce_nx_gssum(x, n, w)
#define gisum(x, n, w)             mce_nx_gisum(x, n, w)
#define gdprod(x, n, w)            mce_nx_gdprod(x, n, w)
#define gsprod(x, n, w)            mce_nx_gsprod(x, n, w)
#define giprod(x, n, w)            mce_nx_giprod(x, n, w)
#define gdhigh(x, n, w)            mce_nx_gdhigh(x, n, w)
#define gshigh(x, n, w)            mce_nx_gshigh(x, n, w)
#define gihigh(x, n, w)            mce_nx_gihigh(x, n, w)
#define gdlow(x, n, w)             mce_nx_gdlow(x, n, w)
#define gslow(x, n, w)             mce_nx_gslow(x, n, w)
#define gilow(x, n, w)             mce_nx_gilow(x, n, w)
#define giand(x, n, w)             mce_nx_giand(x, n, w)
#define gior(x, n, w)              mce_nx_gior(x, n, w)
#define gland(x, n, w)             mce_nx_gland(x, n, w)
#define glor(x, n, w)              mce_nx_glor(x, n, w)
#define gopf(x, n, w, f)           mce_nx_gopf(x, n, w, f)
#define gcol(x, xl, y, yl, c)      mce_nx_gcol(x, xl, y, yl, c)
#define gcolx(x, xl, y)            mce_nx_gcolx(x, xl, y)
#define gsendx(t, x, n, nodes, nn) mce_nx_gsendx(t, x, n, nodes, nn)
#define _mynode()                  mce_nx__mynode()
#define _numnodes()                mce_nx__numnodes()
#define _csend(t, b, c, n, p)      mce_nx__csend(t, b, c, n, p)
#define _crecv(t, b, c)            mce_nx__crecv(t, b, c)
#define _crecvx(t, b, c, n, p, i)  mce_nx__crecvx(t, b, c, n, p, i)
#define _isend(t, b, c, n, p)      mce_nx__isend(t, b, c, n, p)
#define _irecv(t, b, c)            mce_nx__irecv(t, b, c)
#define _irecvx(t, b, c, n, p, i)  mce_nx__irecvx(t, b, c, n, p, i)
#define _csendrecv(t, sb, sc, n, p, ts, rb, rc)                                \
    mce_nx__csendrecv(t, sb, sc, n, p, ts, rb, rc)
#define _isendrecv(t, sb, sc, n, p, ts, rb, rc)                                \
    mce_nx__isendrecv(t, sb, sc, n, p, ts, rb, rc)
#define _msgwait(m)                 mce_nx__msgwait(m)
#define _msgdone(m)                 mce_nx__msgdone(m)
#define _msgcancel(m)               mce_nx__msgcancel(m)
#define _msgignore(m)               mce_nx__msgignore(m)
#define _msgmerge(a, b)             mce_nx__msgmerge(a, b)
#define _cprobe(t)                  mce_nx__cprobe(t)
#define _iprobe(t)                  mce_nx__iprobe(t)
#define _cprobex(t, n, p, i)        mce_nx__cprobex(t, n, p, i)
#define _iprobex(t, n, p, i)        mce_nx__iprobex(t, n, p, i)
#define _hrecv(t, b, c, h)          mce_nx__hrecv(t, b, c, h)
#define _hrecvx(t, b, c, n, p, h)   mce_nx__hrecvx(t, b, c, n, p, h)
#define _hsend(t, b, c, n, p, h)    mce_nx__hsend(t, b, c, n, p, h)
#define _setptype(p)                mce_nx__setptype(p)
#define _gsync()                    mce_nx__gsync()
#define _gdsum(x, n, w)             mce_nx__gdsum(x, n, w)
#define _gisum(x, n, w)             mce_nx__gisum(x, n, w)
#define _gssum(x, n, w)             mce_nx__gssum(x, n, w)
#define _gdhigh(x, n, w)            mce_nx__gdhigh(x, n, w)
#define _gdlow(x, n, w)             mce_nx__gdlow(x, n, w)
#define _gcol(x, xl, y, yl, c)      mce_nx__gcol(x, xl, y, yl, c)
#define _gcolx(x, xl, y)            mce_nx__gcolx(x, xl, y)
#define _gsendx(t, x, n, nodes, nn) mce_nx__gsendx(t, x, n, nodes, nn)
#define _gopf(x, n, w, f)           mce_nx__gopf(x, n, w, f)
#define _myhost()                   mce_nx__myhost()
#define _mypid()                    mce_nx__mypid()
#define _myptype()                  mce_nx__myptype()
#define _nodedim()                  mce_nx__nodedim()
#define _infocount()                mce_nx__infocount()
#define _infonode()                 mce_nx__infonode()
#define _infotype()                 mce_nx__infotype()
#define _infoptype()                mce_nx__infoptype()
#define _infopid()                  mce_nx__infopid()
#define _masktrap(s)                mce_nx__masktrap(s)
#define _gdprod(x, n, w)            mce_nx__gdprod(x, n, w)
#define _gsprod(x, n, w)            mce_nx__gsprod(x, n, w)
#define _giprod(x, n, w)            mce_nx__giprod(x, n, w)
#define _gshigh(x, n, w)            mce_nx__gshigh(x, n, w)
#define _gihigh(x, n, w)            mce_nx__gihigh(x, n, w)
#define _gslow(x, n, w)             mce_nx__gslow(x, n, w)
#define _gilow(x, n, w)             mce_nx__gilow(x, n, w)
#define _giand(x, n, w)             mce_nx__giand(x, n, w)
#define _gior(x, n, w)              mce_nx__gior(x, n, w)
#define _gland(x, n, w)             mce_nx__gland(x, n, w)
#define _glor(x, n, w)              mce_nx__glor(x, n, w)

/* The program's main runs once per node as the NX entry point. */
#ifdef main
#undef main
#endif
#define main mce_nx_main

#ifdef __cplusplus
}
#endif

#endif /* MCEMU_NX_H */
