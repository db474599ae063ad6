/**
 * @file vertex.h
 * @brief NCUBE Vertex node API (standard and extended Vertex) on mcemu.
 *
 * Legacy NCUBE node programs include this header and are compiled with
 * `mcecc`.  The legacy names (nwrite, nread, ...) are object-like macros
 * over the mce_vx_ functions, so that old declarations such as
 * `void whoami();` still compile and the names never clash with the
 * host's C library.  `send` is the C library's socket call too: this
 * header declares that one first (<sys/socket.h>), so that it stays
 * declared whatever the program includes later, and `send` in the
 * program is Vertex's.
 *
 * Standard Vertex (Mudge, Buzzard and Abdel-Rahman 1987, section 2):
 * buffered nwrite/nread/ntest with the three-way handshake; messages to
 * non-neighbours are stored and forwarded by every node on the e-cube
 * route; dest VX_BROADCAST (0xffff) broadcasts along a spanning tree.
 *
 * Extended Vertex (section 4): bufferless asynchronous send and rcvreq
 * between nearest neighbours, no handshake; the receiver posts the exact
 * byte count in advance; completion flags are set when the DMA transfer
 * ends.  Channels switch between the schemes with chanmode(); bcast()
 * sends one buffer to any set of neighbours in one DMA action.
 *
 * Completion flags are written by the emulator in virtual time: a node
 * observes them change only inside a Vertex call, so a wait loop must call
 * one (flagwait(), ntest() or ntime()), e.g.
 *     while (!flag) ntime();
 * A bare `while (!flag);` never sees the flag change.
 *
 * Errors are negative return values (VX_E*), as on the machine.
 */
#ifndef MCEMU_VERTEX_H
#define MCEMU_VERTEX_H

#include "mcemu.h"

/* Before `send` becomes Vertex's (see above). */
#include <sys/socket.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Destination that broadcasts to every node (standard Vertex). */
#define VX_BROADCAST 0xffff
/** Largest message type (types are 16-bit). */
#define VX_TYPE_MAX 0xffff
/** Channel modes for chanmode(). */
#define VX_STANDARD 0
#define VX_EXTENDED 1

/** Vertex error returns (negative). */
#define VX_EINVAL  (-1) /**< bad argument (length, type, flag pointer) */
#define VX_ENODE   (-2) /**< node number out of range */
#define VX_ENOTNN  (-3) /**< extended call to a node that is no neighbour */
#define VX_EMODE   (-4) /**< channel in the other scheme */
#define VX_ETOOBIG (-5) /**< larger than the communication buffer pool */

MCE_EXPORT int mce_vx_nwrite(const void *buf, int nbytes, int dest, int type,
                             int *flag);
MCE_EXPORT int mce_vx_nread(void *buf, int nbytes, int *src, int *type,
                            int *flag);
MCE_EXPORT int mce_vx_ntest(int *src, int *type);
MCE_EXPORT void mce_vx_whoami(int *node, int *pid, int *host, int *dim);
MCE_EXPORT int mce_vx_npid(void);
MCE_EXPORT int mce_vx_ncubesize(void);
MCE_EXPORT int mce_vx_ntime(void);
MCE_EXPORT int mce_vx_send(const void *buf, int nbytes, int dest, int type,
                           int *flag);
MCE_EXPORT int mce_vx_rcvreq(void *buf, int nbytes, int src, int type,
                             int *flag);
MCE_EXPORT int mce_vx_bcast(const void *buf, int nbytes, int mask, int type,
                            int *flag);
MCE_EXPORT int mce_vx_chanmode(int neighbour, int mode);
MCE_EXPORT int mce_vx_flagwait(int *flag);

/* ---- legacy names -------------------------------------------------- */

/** Send @p nbytes to @p dest (0xffff: everyone); returns nbytes or < 0. */
#define nwrite mce_vx_nwrite
/** Receive from *src (-1 any) of *type (-1 any), writing both back;
 * returns the message length or < 0.  Waits for a message. */
#define nread mce_vx_nread
/** Length of a queued message from *src of *type (-1 wildcards written
 * back), or -1 when there is none.  Never waits. */
#define ntest mce_vx_ntest
/** Node number, process id, host id and cube dimension. */
#define whoami mce_vx_whoami
#define npid mce_vx_npid
/** Number of nodes in the allocated subcube. */
#define ncubesize mce_vx_ncubesize
/** Node processor time in units of 1024 clock cycles. */
#define ntime mce_vx_ntime
#define n_time mce_vx_ntime
/** Extended Vertex: bufferless asynchronous send to a neighbour. */
#define send mce_vx_send
/** Extended Vertex: post a receive of exactly nbytes from neighbour src. */
#define rcvreq mce_vx_rcvreq
/** Extended Vertex: one DMA to every neighbour whose dimension bit is set
 * in @p mask. */
#define bcast mce_vx_bcast
/** Switch the channel to @p neighbour to VX_STANDARD or VX_EXTENDED. */
#define chanmode mce_vx_chanmode
/** Wait until *flag becomes non-zero. */
#define flagwait mce_vx_flagwait

/* The program's main runs once per node as the Vertex entry point.  mcecc
 * (which defines MCE_MCECC) renames main in the object instead of here, so
 * that the compiler still sees a C main (one falling off its end returns
 * 0); the mark tells mcecc which personality the file's main belongs to.
 * Other compilers get the macro. */
#ifdef MCE_MCECC
static const char mce_vx_header_mark[] __attribute__((used, unused)) = "vx";
#else
#ifdef main
#undef main
#endif
#define main mce_vx_main
#endif

#ifdef __cplusplus
}
#endif

#endif /* MCEMU_VERTEX_H */
