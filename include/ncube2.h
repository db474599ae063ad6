/**
 * @file ncube2.h
 * @brief NCUBE 2 (nCX) node calls on mcemu: the NCUBE 2 flavour of the
 * Vertex personality.
 *
 * Everything of vertex.h (nwrite, nread, ntest, whoami, ...), plus the
 * calls nCX programs of the NCUBE 2 use: clocks (amicclk, n_time), I/O
 * modes (nglobal, nlocal), a broadcast from node 0 (nbrdcst), global
 * reductions (isumn, dmaxn, ...), nperror.  The machine is ncube2
 * (share/machines/ncube2.conf), the default of a program that includes
 * this header; there nwrite returns 0 on success (nCX) where NCUBE/ten's
 * Vertex returns the length, and extended Vertex does not exist.
 *
 * Era programs rarely included a header: `mcecc -mce-api=ncube2` includes
 * this one in every C file.  The legacy names are object-like macros, so
 * that old declarations (`double dsumn(), amicclk();`) still compile.
 *
 * The global operations and nbrdcst are collective: every node of the
 * cube calls them, in the same order.  They are made of the machine's
 * messages (recursive doubling over the cube's dimensions, a binomial
 * tree from node 0), so they cost what those messages cost.
 *
 * I/O modes: in global mode (nglobal()) every node executes the same
 * output call and one copy appears: node 0's; other nodes' writes to
 * stdout and stderr are dropped.  Local mode (nlocal(), the default)
 * prints every node's output.  For this the stdio output calls (printf,
 * fprintf, puts, ...) are macros over wrappers; define MCE_NC2_NO_STDIO
 * before including this header to keep the C library's (for a program
 * that declares them itself, `int printf();`), and global mode then
 * prints every node's output.
 */
#ifndef MCEMU_NCUBE2_H
#define MCEMU_NCUBE2_H

#include <stdarg.h>
#include <stdio.h>

#include "vertex.h"

#ifdef __cplusplus
extern "C" {
#endif

MCE_EXPORT double mce_nc2_amicclk(void);
MCE_EXPORT int mce_nc2_n_time(int *usec);
MCE_EXPORT void mce_nc2_nglobal(void);
MCE_EXPORT void mce_nc2_nlocal(void);
MCE_EXPORT void mce_nc2_nbrdcst(void *buf, int nbytes);
MCE_EXPORT void mce_nc2_nperror(const char *s);
MCE_EXPORT int mce_nc2_isumn(int x);
MCE_EXPORT int mce_nc2_imaxn(int x);
MCE_EXPORT int mce_nc2_iminn(int x);
MCE_EXPORT int mce_nc2_iprodn(int x);
/* float arguments arrive as double in old-style calls (`float fsumn();`) */
MCE_EXPORT float mce_nc2_fsumn(double x);
MCE_EXPORT float mce_nc2_fmaxn(double x);
MCE_EXPORT float mce_nc2_fminn(double x);
MCE_EXPORT float mce_nc2_fprodn(double x);
MCE_EXPORT double mce_nc2_dsumn(double x);
MCE_EXPORT double mce_nc2_dmaxn(double x);
MCE_EXPORT double mce_nc2_dminn(double x);
MCE_EXPORT double mce_nc2_dprodn(double x);

/* ---- legacy names -------------------------------------------------- */
/** Microseconds of node time since the program started, as a double. */
#define amicclk mce_nc2_amicclk
/** Writes and returns the node time in microseconds (32-bit, wraps). */
#undef n_time
#define n_time mce_nc2_n_time
#define nglobal mce_nc2_nglobal
#define nlocal mce_nc2_nlocal
/** Node 0's @p nbytes at @p buf to every node (collective; void, as
 * nCX programs declare it). */
#define nbrdcst mce_nc2_nbrdcst
/** Prints @p s and the last failed call's error on stderr. */
#define nperror mce_nc2_nperror
/** Global sum, maximum, minimum, product over every node (collective). */
#define isumn mce_nc2_isumn
#define imaxn mce_nc2_imaxn
#define iminn mce_nc2_iminn
#define iprodn mce_nc2_iprodn
#define fsumn mce_nc2_fsumn
#define fmaxn mce_nc2_fmaxn
#define fminn mce_nc2_fminn
#define fprodn mce_nc2_fprodn
#define dsumn mce_nc2_dsumn
#define dmaxn mce_nc2_dmaxn
#define dminn mce_nc2_dminn
#define dprodn mce_nc2_dprodn

/* The program's default machine (one definition per file, weak). */
#ifndef MCE_NC2_LIBRARY
__attribute__((weak)) const char *mce_vx_default_machine = "ncube2";
#endif

/* The stdio output calls of global mode (macros below). */
MCE_EXPORT int mce_nc2_printf(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
MCE_EXPORT int mce_nc2_fprintf(FILE *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
MCE_EXPORT int mce_nc2_vprintf(const char *fmt, va_list ap);
MCE_EXPORT int mce_nc2_vfprintf(FILE *f, const char *fmt, va_list ap);
MCE_EXPORT int mce_nc2_puts(const char *s);
MCE_EXPORT int mce_nc2_fputs(const char *s, FILE *f);
MCE_EXPORT int mce_nc2_putchar(int c);
MCE_EXPORT int mce_nc2_fputc(int c, FILE *f);
MCE_EXPORT size_t mce_nc2_fwrite(const void *p, size_t size, size_t n,
                                 FILE *f);
#ifndef MCE_NC2_NO_STDIO
#undef putc
#undef putchar
#define printf mce_nc2_printf
#define fprintf mce_nc2_fprintf
#define vprintf mce_nc2_vprintf
#define vfprintf mce_nc2_vfprintf
#define puts mce_nc2_puts
#define fputs mce_nc2_fputs
#define putchar mce_nc2_putchar
#define fputc mce_nc2_fputc
#define putc mce_nc2_fputc
#define fwrite mce_nc2_fwrite
#endif

#ifdef __cplusplus
}
#endif

#endif /* MCEMU_NCUBE2_H */
