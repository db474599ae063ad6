/**
 * @file vertex.h
 * @brief NCUBE Vertex node API (standard and extended Vertex) on mcemu.
 *
 * Legacy NCUBE node programs include this header and are compiled with
 * `mcecc`.  The legacy names (nwrite, nread, ...) are macros over the
 * mce_vx_ functions so that they never clash with the host's C library
 * (`send` in particular): include this header after system headers.
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
#define nwrite(buf, nbytes, dest, type, flag)                                  \
    mce_vx_nwrite(buf, nbytes, dest, type, flag)
/** Receive from *src (-1 any) of *type (-1 any), writing both back;
 * returns the message length or < 0.  Waits for a message. */
#define nread(buf, nbytes, src, type, flag)                                    \
    mce_vx_nread(buf, nbytes, src, type, flag)
/** Length of a queued message from *src of *type (-1 wildcards written
 * back), or -1 when there is none.  Never waits. */
#define ntest(src, type) mce_vx_ntest(src, type)
/** Node number, process id, host id and cube dimension. */
#define whoami(node, pid, host, dim) mce_vx_whoami(node, pid, host, dim)
#define npid()                       mce_vx_npid()
/** Number of nodes in the allocated subcube. */
#define ncubesize() mce_vx_ncubesize()
/** Node processor time in units of 1024 clock cycles. */
#define ntime()  mce_vx_ntime()
#define n_time() mce_vx_ntime()
/** Extended Vertex: bufferless asynchronous send to a neighbour. */
#define send(buf, nbytes, dest, type, flag)                                    \
    mce_vx_send(buf, nbytes, dest, type, flag)
/** Extended Vertex: post a receive of exactly nbytes from neighbour src. */
#define rcvreq(buf, nbytes, src, type, flag)                                   \
    mce_vx_rcvreq(buf, nbytes, src, type, flag)
/** Extended Vertex: one DMA to every neighbour whose dimension bit is set
 * in @p mask. */
#define bcast(buf, nbytes, mask, type, flag)                                   \
    mce_vx_bcast(buf, nbytes, mask, type, flag)
/** Switch the channel to @p neighbour to VX_STANDARD or VX_EXTENDED. */
#define chanmode(neighbour, mode) mce_vx_chanmode(neighbour, mode)
/** Wait until *flag becomes non-zero. */
#define flagwait(flag) mce_vx_flagwait(flag)

/* The program's main runs once per node as the Vertex entry point. */
#ifdef main
#undef main
#endif
#define main mce_vx_main

#ifdef __cplusplus
}
#endif

#endif /* MCEMU_VERTEX_H */
