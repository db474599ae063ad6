/**
 * @file nx.h
 * @brief Intel NX (iPSC/860 NX/2 and Paragon NX) node API on mcemu.
 *
 * Legacy NX programs include this header and are compiled with `mcecc`
 * (Fortran 77 programs with `mcef77`).  The names are object-like
 * macros over the mce_nx_ functions, so they never clash with the host's
 * C library and old declarations (`extern void csend(), crecv();`,
 * `extern long isend();`) still compile.
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
#define mynode mce_nx_mynode
#define numnodes mce_nx_numnodes
#define myhost mce_nx_myhost
#define mypid mce_nx_mypid
#define myptype mce_nx_myptype
#define setptype mce_nx_setptype
#define nodedim mce_nx_nodedim
#define dclock mce_nx_dclock
#define mclock mce_nx_mclock
#define hwclock mce_nx_hwclock
#define flick mce_nx_flick
#define csend mce_nx_csend
#define crecv mce_nx_crecv
#define crecvx mce_nx_crecvx
#define isend mce_nx_isend
#define irecv mce_nx_irecv
#define irecvx mce_nx_irecvx
#define csendrecv mce_nx_csendrecv
#define isendrecv mce_nx_isendrecv
#define msgwait mce_nx_msgwait
#define msgdone mce_nx_msgdone
#define msgcancel mce_nx_msgcancel
#define msgignore mce_nx_msgignore
#define msgmerge mce_nx_msgmerge
#define cprobe mce_nx_cprobe
#define iprobe mce_nx_iprobe
#define cprobex mce_nx_cprobex
#define iprobex mce_nx_iprobex
#define infocount mce_nx_infocount
#define infonode mce_nx_infonode
#define infotype mce_nx_infotype
#define infoptype mce_nx_infoptype
#define infopid mce_nx_infopid
#define hrecv mce_nx_hrecv
#define hrecvx mce_nx_hrecvx
#define hsend mce_nx_hsend
#define masktrap mce_nx_masktrap
#define gsync mce_nx_gsync
#define gdsum mce_nx_gdsum
#define gssum mce_nx_gssum
#define gisum mce_nx_gisum
#define gdprod mce_nx_gdprod
#define gsprod mce_nx_gsprod
#define giprod mce_nx_giprod
#define gdhigh mce_nx_gdhigh
#define gshigh mce_nx_gshigh
#define gihigh mce_nx_gihigh
#define gdlow mce_nx_gdlow
#define gslow mce_nx_gslow
#define gilow mce_nx_gilow
#define giand mce_nx_giand
#define gior mce_nx_gior
#define gland mce_nx_gland
#define glor mce_nx_glor
#define gopf mce_nx_gopf
#define gcol mce_nx_gcol
#define gcolx mce_nx_gcolx
#define gsendx mce_nx_gsendx
#define _mynode mce_nx__mynode
#define _numnodes mce_nx__numnodes
#define _csend mce_nx__csend
#define _crecv mce_nx__crecv
#define _crecvx mce_nx__crecvx
#define _isend mce_nx__isend
#define _irecv mce_nx__irecv
#define _irecvx mce_nx__irecvx
#define _csendrecv mce_nx__csendrecv
#define _isendrecv mce_nx__isendrecv
#define _msgwait mce_nx__msgwait
#define _msgdone mce_nx__msgdone
#define _msgcancel mce_nx__msgcancel
#define _msgignore mce_nx__msgignore
#define _msgmerge mce_nx__msgmerge
#define _cprobe mce_nx__cprobe
#define _iprobe mce_nx__iprobe
#define _cprobex mce_nx__cprobex
#define _iprobex mce_nx__iprobex
#define _hrecv mce_nx__hrecv
#define _hrecvx mce_nx__hrecvx
#define _hsend mce_nx__hsend
#define _setptype mce_nx__setptype
#define _gsync mce_nx__gsync
#define _gdsum mce_nx__gdsum
#define _gisum mce_nx__gisum
#define _gssum mce_nx__gssum
#define _gdhigh mce_nx__gdhigh
#define _gdlow mce_nx__gdlow
#define _gcol mce_nx__gcol
#define _gcolx mce_nx__gcolx
#define _gsendx mce_nx__gsendx
#define _gopf mce_nx__gopf
#define _myhost mce_nx__myhost
#define _mypid mce_nx__mypid
#define _myptype mce_nx__myptype
#define _nodedim mce_nx__nodedim
#define _infocount mce_nx__infocount
#define _infonode mce_nx__infonode
#define _infotype mce_nx__infotype
#define _infoptype mce_nx__infoptype
#define _infopid mce_nx__infopid
#define _masktrap mce_nx__masktrap
#define _gdprod mce_nx__gdprod
#define _gsprod mce_nx__gsprod
#define _giprod mce_nx__giprod
#define _gshigh mce_nx__gshigh
#define _gihigh mce_nx__gihigh
#define _gslow mce_nx__gslow
#define _gilow mce_nx__gilow
#define _giand mce_nx__giand
#define _gior mce_nx__gior
#define _gland mce_nx__gland
#define _glor mce_nx__glor

/* The program's main runs once per node as the NX entry point.  mcecc
 * (which defines MCE_MCECC) renames main in the object instead of here, so
 * that the compiler still sees a C main (one falling off its end returns
 * 0); the mark tells mcecc which personality the file's main belongs to.
 * Other compilers get the macro. */
#ifdef MCE_MCECC
static const char mce_nx_header_mark[] __attribute__((used, unused)) = "nx";
#else
#ifdef main
#undef main
#endif
#define main mce_nx_main
#endif

#ifdef __cplusplus
}
#endif

#endif /* MCEMU_NX_H */
