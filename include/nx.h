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

/* 32-bit forms.  NX's long was 32-bit on the i860 (and the Paragon's
 * i860XP), so programs of the era passed int arrays where NX takes
 * long[]; on LP64 hosts long is 64-bit.  These take int where the calls
 * above take an array or an out-parameter of long (by-value arguments
 * need nothing: C converts them).  Compiled with MCE_NX_LONG32 defined
 * (mcecc -mce-nx-long=32), the legacy names below select them.  They
 * behave as the long forms, at the same virtual time (the operands
 * travel as long): an integer global operation whose result does not
 * fit an int fails (ERANGE) rather than wrap.  Handlers take int, gopf's
 * function returns int; msginfo is mce_nx_msginfo32. */
typedef void (*mce_nx_handler32_t)(int type, int count, int node, int ptype);
extern MCE_EXPORT int mce_nx_msginfo32[8];
MCE_NX_DECL2(void, crecvx32,
             (long typesel, void *buf, long count, long nodesel, long ptypesel,
              int info[]))
MCE_NX_DECL2(long, irecvx32,
             (long typesel, void *buf, long count, long nodesel, long ptypesel,
              int info[]))
MCE_NX_DECL2(void, cprobex32,
             (long typesel, long nodesel, long ptypesel, int info[]))
MCE_NX_DECL2(long, iprobex32,
             (long typesel, long nodesel, long ptypesel, int info[]))
MCE_NX_DECL2(long, hrecv32,
             (long typesel, void *buf, long count, mce_nx_handler32_t handler))
MCE_NX_DECL2(long, hrecvx32,
             (long typesel, void *buf, long count, long nodesel, long ptypesel,
              mce_nx_handler32_t handler))
MCE_NX_DECL2(long, hsend32,
             (long type, const void *buf, long count, long node, long ptype,
              mce_nx_handler32_t handler))
MCE_NX_DECL2(void, gisum32, (int x[], long n, int work[]))
MCE_NX_DECL2(void, giprod32, (int x[], long n, int work[]))
MCE_NX_DECL2(void, gihigh32, (int x[], long n, int work[]))
MCE_NX_DECL2(void, gilow32, (int x[], long n, int work[]))
MCE_NX_DECL2(void, giand32, (int x[], long n, int work[]))
MCE_NX_DECL2(void, gior32, (int x[], long n, int work[]))
MCE_NX_DECL2(void, gland32, (int x[], long n, int work[]))
MCE_NX_DECL2(void, glor32, (int x[], long n, int work[]))
MCE_NX_DECL2(void, gopf32,
             (void *x, long xlen, void *work, int (*f)(void *x, void *y)))
MCE_NX_DECL2(void, gcol32,
             (const void *x, long xlen, void *y, long ylen, int *ncnt))
MCE_NX_DECL2(void, gcolx32, (const void *x, const int xlens[], void *y))
MCE_NX_DECL2(void, gsendx32,
             (long type, const void *x, long n, const int nodes[], long nn))
#undef MCE_NX_DECL2

/* ---- legacy names ---------------------------------------------------- */
/* The calls with long arrays or out-parameters, and msginfo: the long
 * forms, or the 32-bit ones (above) under MCE_NX_LONG32. */
#ifdef MCE_NX_LONG32
#define MCE_NX_L32(name) name##32
#else
#define MCE_NX_L32(name) name
#endif
#define msginfo MCE_NX_L32(mce_nx_msginfo)
#define crecvx MCE_NX_L32(mce_nx_crecvx)
#define irecvx MCE_NX_L32(mce_nx_irecvx)
#define cprobex MCE_NX_L32(mce_nx_cprobex)
#define iprobex MCE_NX_L32(mce_nx_iprobex)
#define hrecv MCE_NX_L32(mce_nx_hrecv)
#define hrecvx MCE_NX_L32(mce_nx_hrecvx)
#define hsend MCE_NX_L32(mce_nx_hsend)
#define gisum MCE_NX_L32(mce_nx_gisum)
#define giprod MCE_NX_L32(mce_nx_giprod)
#define gihigh MCE_NX_L32(mce_nx_gihigh)
#define gilow MCE_NX_L32(mce_nx_gilow)
#define giand MCE_NX_L32(mce_nx_giand)
#define gior MCE_NX_L32(mce_nx_gior)
#define gland MCE_NX_L32(mce_nx_gland)
#define glor MCE_NX_L32(mce_nx_glor)
#define gopf MCE_NX_L32(mce_nx_gopf)
#define gcol MCE_NX_L32(mce_nx_gcol)
#define gcolx MCE_NX_L32(mce_nx_gcolx)
#define gsendx MCE_NX_L32(mce_nx_gsendx)
#define _crecvx MCE_NX_L32(mce_nx__crecvx)
#define _irecvx MCE_NX_L32(mce_nx__irecvx)
#define _cprobex MCE_NX_L32(mce_nx__cprobex)
#define _iprobex MCE_NX_L32(mce_nx__iprobex)
#define _hrecv MCE_NX_L32(mce_nx__hrecv)
#define _hrecvx MCE_NX_L32(mce_nx__hrecvx)
#define _hsend MCE_NX_L32(mce_nx__hsend)
#define _gisum MCE_NX_L32(mce_nx__gisum)
#define _giprod MCE_NX_L32(mce_nx__giprod)
#define _gihigh MCE_NX_L32(mce_nx__gihigh)
#define _gilow MCE_NX_L32(mce_nx__gilow)
#define _giand MCE_NX_L32(mce_nx__giand)
#define _gior MCE_NX_L32(mce_nx__gior)
#define _gland MCE_NX_L32(mce_nx__gland)
#define _glor MCE_NX_L32(mce_nx__glor)
#define _gopf MCE_NX_L32(mce_nx__gopf)
#define _gcol MCE_NX_L32(mce_nx__gcol)
#define _gcolx MCE_NX_L32(mce_nx__gcolx)
#define _gsendx MCE_NX_L32(mce_nx__gsendx)
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
#define isend mce_nx_isend
#define irecv mce_nx_irecv
#define csendrecv mce_nx_csendrecv
#define isendrecv mce_nx_isendrecv
#define msgwait mce_nx_msgwait
#define msgdone mce_nx_msgdone
#define msgcancel mce_nx_msgcancel
#define msgignore mce_nx_msgignore
#define msgmerge mce_nx_msgmerge
#define cprobe mce_nx_cprobe
#define iprobe mce_nx_iprobe
#define infocount mce_nx_infocount
#define infonode mce_nx_infonode
#define infotype mce_nx_infotype
#define infoptype mce_nx_infoptype
#define infopid mce_nx_infopid
#define masktrap mce_nx_masktrap
#define gsync mce_nx_gsync
#define gdsum mce_nx_gdsum
#define gssum mce_nx_gssum
#define gdprod mce_nx_gdprod
#define gsprod mce_nx_gsprod
#define gdhigh mce_nx_gdhigh
#define gshigh mce_nx_gshigh
#define gdlow mce_nx_gdlow
#define gslow mce_nx_gslow
#define _mynode mce_nx__mynode
#define _numnodes mce_nx__numnodes
#define _csend mce_nx__csend
#define _crecv mce_nx__crecv
#define _isend mce_nx__isend
#define _irecv mce_nx__irecv
#define _csendrecv mce_nx__csendrecv
#define _isendrecv mce_nx__isendrecv
#define _msgwait mce_nx__msgwait
#define _msgdone mce_nx__msgdone
#define _msgcancel mce_nx__msgcancel
#define _msgignore mce_nx__msgignore
#define _msgmerge mce_nx__msgmerge
#define _cprobe mce_nx__cprobe
#define _iprobe mce_nx__iprobe
#define _setptype mce_nx__setptype
#define _gsync mce_nx__gsync
#define _gdsum mce_nx__gdsum
#define _gssum mce_nx__gssum
#define _gdhigh mce_nx__gdhigh
#define _gdlow mce_nx__gdlow
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
#define _gshigh mce_nx__gshigh
#define _gslow mce_nx__gslow

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
