/**
 * @file iwarp.h
 * @brief CMU iWarp cell API on mcemu (Warfel 1996, chapter 3).
 *
 * Programs for the iWarp include this header in the file that defines
 * main; main runs once per cell of the W x H torus (machine "iwarp",
 * --mce-nodes=64 for the 8 x 8 array).  Steps 1-6 of the design in
 * doc/design/iwarp-tcs.md: cell identity, the cycle counter, PCT
 * connections by direct configuration, gate reads and writes, spools,
 * deposit and RTS messages, the SRU and the CAM ring; the video devices
 * of step 10 (camera and display ports).  Connections that
 * use one link at the same time share it (PCT groups, skipped words, DQ
 * congestion: Warfel section 3.1.5), and a path holds pct_words words per
 * PCT: a reader that does not read fills it and then blocks its writer.
 *
 * Connections: every cell on a path configures its own PCT with
 * iwarp_pct_config: its input (IW_CPU for the source PCT, written through
 * a write gate, or the side a word arrives from and the neighbour's PCT
 * sending it) and its output (IW_CPU for the destination PCT, read
 * through a read gate, or the side towards the next cell and that cell's
 * PCT).  The two end PCTs name the cell at the other end.
 *
 * Gates: consecutive iwarp_gate_write calls to one gate with no other
 * iWarp call in between travel as one block; the block calls add the
 * message routine's set-up costs (iwarp.block_send, iwarp.block_recv).
 *
 * Errors are negative returns (IW_E*) with a diagnostic "cell (x,y):
 * CALL: reason" on stderr.
 */
#ifndef MCEMU_IWARP_H
#define MCEMU_IWARP_H

#include <stddef.h>
#include <stdint.h>

#include "mcemu.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IW_OK       0
#define IW_EPCT     (-1) /**< no such PCT, none free, or in the wrong state */
#define IW_EGATE    (-2) /**< no such gate, gate bound or unbound */
#define IW_EINVAL   (-3) /**< bad argument */
#define IW_EMACHINE (-4) /**< not running on an iWarp machine */
#define IW_ECAM     (-5) /**< more headers than the address-match CAM holds */
#define IW_ENODEP   (-6) /**< deposit message passing not initialised */
#define IW_ESPOOL   (-7) /**< no free spool, or no such active spool */
#define IW_ENODEV   (-8) /**< this cell has no such device (video ports) */
#define IW_JAMMED   1    /**< iwarp_sru_broadcast: collision, rebroadcast */

/** PCT ports: the CPU (a gate) or the link on one side of the cell. */
enum { IW_CPU = 0, IW_XP, IW_XM, IW_YP, IW_YM };
/** Gates: two read gates and two write gates. */
enum { IW_R0 = 0, IW_R1, IW_W0, IW_W1 };

/* identity and time */
/** This cell's number, y * width + x. */
MCE_EXPORT int mce_iw_cell(void);
MCE_EXPORT void mce_iw_coords(int *x, int *y);
MCE_EXPORT int mce_iw_width(void);
MCE_EXPORT int mce_iw_height(void);
/** The cycle counter in clocks (a multiple of iwarp.timer_tick = 8);
 * reading it costs iwarp.timer_read. */
MCE_EXPORT unsigned long mce_iw_clock(void);
/** Compute for @p clocks clocks. */
MCE_EXPORT void mce_iw_compute(unsigned long clocks);
/* emulator helpers (not iWarp calls), for measurement programs */
/** Exact virtual time in clocks; free (pending single-word writes are
 * sent first, so a blocked writer sees the time it is unblocked). */
MCE_EXPORT unsigned long long mce_iw_vtime(void);
/** Idle until virtual time @p clocks (no effect if already later).  An
 * interrupt handler (deposit, RTS) that arrives meanwhile runs in the idle
 * time; the cell resumes at @p clocks or when the last handler ends. */
MCE_EXPORT void mce_iw_align(unsigned long long clocks);
/** Spin until the virtual time modulo 8 is @p phase (0..7). */
MCE_EXPORT void mce_iw_dither(int phase);

/* PCTs (direct configuration) */
/** A free PCT of this cell (>= 0) or IW_EPCT when all are in use. */
MCE_EXPORT int mce_iw_pct_alloc(void);
/** Configure PCT @p pct (free or allocated): words come from @p in_port
 * (and the neighbour's PCT @p in_pct) and go to @p out_port (and the
 * neighbour's PCT @p out_pct); @p endpoint is the cell at the other end
 * for the two end PCTs (ignored otherwise).  Costs iwarp.pct_config. */
MCE_EXPORT int mce_iw_pct_config(int pct, int in_port, int in_pct, int out_port,
                                 int out_pct, int endpoint);
/** Re-point source PCT @p pct (configured, input IW_CPU) at @p out_port
 * and the neighbour's PCT @p out_pct, the connection ending at cell
 * @p endpoint: waits until the last word written into it has left it
 * (fully entered its link), then costs iwarp.pct_config (one PCT entry
 * written); a gate bound to it stays bound.  Warfel 1996 4.5.3.3's 2-D
 * barrier shares one out PCT between the rows and the columns this way. */
MCE_EXPORT int mce_iw_pct_repoint(int pct, int out_port, int out_pct,
                                  int endpoint);
/** Tear down this cell's part of a connection and free the PCT. */
MCE_EXPORT int mce_iw_pct_release(int pct);

/* gates */
MCE_EXPORT int mce_iw_gate_bind(int gate, int pct);
MCE_EXPORT int mce_iw_gate_unbind(int gate);
MCE_EXPORT int mce_iw_gate_write(int gate, uint32_t word);
MCE_EXPORT int mce_iw_gate_read(int gate, uint32_t *word);
MCE_EXPORT int mce_iw_gate_write_block(int gate, const uint32_t *w, size_t n);
MCE_EXPORT int mce_iw_gate_read_block(int gate, uint32_t *w, size_t n);

/* System Reporting Unit (Feldmann et al. 3.1): a wired-OR bus carrying
 * one-word messages to every cell (the sender too); each cell buffers one
 * word and a newer message discards an unread one. */
/** Broadcast @p word (costs sru.send_sw, waits for the end of the message
 * on the bus): IW_OK, or IW_JAMMED after a collision (rebroadcast). */
MCE_EXPORT int mce_iw_sru_broadcast(uint32_t word);
/** Broadcast @p word without waiting for its end on the bus (costs
 * sru.send_sw): the cell receives its own message like any other, which
 * lets it keep reading its buffer while the bus is busy (Algorithm 1). */
MCE_EXPORT int mce_iw_sru_send(uint32_t word);
/** Wait for a word in the buffer and take it; *@p jammed is 0 for a clean
 * word, 1 for the jammed (OR-ed) word of a collision, 2 when this cell's
 * own message was one of the colliding ones (rebroadcast it).  Costs
 * sru.recv_sw. */
MCE_EXPORT int mce_iw_sru_recv(uint32_t *word, int *jammed);
/** 1 and the word if the buffer holds one (as iwarp_sru_recv), 0 if it is
 * empty (costs probe_cost). */
MCE_EXPORT int mce_iw_sru_poll(uint32_t *word, int *jammed);
/** Emulator helper: words this cell's buffer lost unread so far. */
MCE_EXPORT unsigned long mce_iw_sru_lost(void);

/* Anonymous destination message passing (Feldmann et al. 3.2) on the
 * unidirectional ring through all cells (the row snake); a message stops
 * at the first cell whose address-match CAM holds its header. */
/** Load CAM entry @p entry (0..cam.entries-1) with @p header (cam.load);
 * IW_ECAM for an entry the CAM does not have. */
MCE_EXPORT int mce_iw_cam_set(int entry, uint32_t header);
MCE_EXPORT int mce_iw_cam_clear(int entry);
/** Send @p n <= 7 words under @p header to the ring (compose + split +
 * words + join). */
MCE_EXPORT int mce_iw_selective_send(uint32_t header, const uint32_t *w,
                                     size_t n);
/** Load the CAM with the @p nh headers (IW_ECAM above cam.entries), wait
 * for a matching message, consume it (split + words + join); returns its
 * header and up to @p cap words (*@p n = its length). */
MCE_EXPORT int mce_iw_selective_receive(const uint32_t *headers, int nh,
                                        uint32_t *header, uint32_t *w,
                                        size_t cap, size_t *n);
/** This cell's position on the ring (0 .. cells-1). */
MCE_EXPORT int mce_iw_ring_position(void);
/** Emulator helper: ring messages this cell's pathway passed on unmatched
 * (express) so far; with the selective sends, the wires travelled. */
MCE_EXPORT unsigned long mce_iw_ring_forwarded(void);

/* Spools: block transfers between memory and a PCT beside the CPU; each
 * active spool steals up to 1/iwarp.spool_steal of the CPU's cycles
 * (iwarp_compute is stretched).  Handles >= 0. */
MCE_EXPORT int mce_iw_spool_out(int pct, const void *buf, size_t nwords);
MCE_EXPORT int mce_iw_spool_in(int pct, void *buf, size_t nwords);
MCE_EXPORT int mce_iw_spool_wait(int h);
/** 1 done (the spool is free again), 0 not yet. */
MCE_EXPORT int mce_iw_spool_test(int h);

/* Deposit message passing (the sender names the receiver's buffer;
 * foreground send, background receive).  iwarp_dep_init reserves the
 * deposit system's PCTs (dep.pcts); buffers registered in the same order
 * on every cell get the same handles. */
MCE_EXPORT int mce_iw_dep_init(void);
/** Register a receive buffer: its handle (>= 0). */
MCE_EXPORT int mce_iw_dep_buffer(void *buf, size_t bytes);
/** Deposit @p bytes (a multiple of 4) at @p offset of buffer @p handle of
 * cell @p dst; returns when the data has left this cell. */
MCE_EXPORT int mce_iw_dep_send(int dst, int handle, size_t offset,
                               const void *data, size_t bytes);
/** Wait until buffer @p handle has received @p count deposits in all;
 * @p rearm: then re-arm it (dep.rearm, for spooled deposits). */
MCE_EXPORT int mce_iw_dep_wait(int handle, unsigned count, int rearm);
MCE_EXPORT int mce_iw_dep_rearm(int handle);
/** Deposits received so far in buffer @p handle (costs probe_cost). */
MCE_EXPORT unsigned mce_iw_dep_count(int handle);

/* RTS message passing: the runtime system's token ring through every cell
 * and the host-interface cell; one message on the ring at a time. */
MCE_EXPORT int mce_iw_rts_send(int dst, int type, const void *buf,
                               size_t bytes);
/** Receive a message from *src of type *type (either may be NULL or hold
 * -1: any); sets them and *len. */
MCE_EXPORT int mce_iw_rts_recv(int *src, int *type, void *buf, size_t cap,
                               size_t *len);

/* Video devices of the motion detector (Warfel 7.2): a camera port on the
 * cell video.camera and a display port on the cell video.display (cell
 * numbers; IW_ENODEV on other cells).  The camera runs by itself from
 * virtual time 0: word k (pixels 4k..4k+3, pixel 4k+i in bits 8i..8i+7)
 * of line l of frame f arrives at f x T + l x video.line + k x
 * video.word_gap clocks, T = video.lines x video.line + video.vblank; the
 * port holds video.fifo words and a word arriving when it is full is
 * lost.  Each word read or written costs video.word_op. */
/** What the camera sees: word @p word of line @p line of frame @p frame.
 * Called inside the iWarp calls below: it must not call them. */
typedef uint32_t (*iw_video_fn)(void *arg, unsigned long long frame, int line,
                                int word);
/** Set the camera's scene (camera cell).  Without one, each word is its
 * stream position modulo 2^32 (f x lines x active_words + l x
 * active_words + k). */
MCE_EXPORT int mce_iw_video_source(iw_video_fn fn, void *arg);
/** Take the next @p n words from the camera port, waiting for those not
 * yet arrived (camera cell). */
MCE_EXPORT int mce_iw_video_read(uint32_t *w, size_t n);
/** As iwarp_video_read; also each word's stream position and arrival
 * time in clocks (either array may be NULL). */
MCE_EXPORT int mce_iw_video_readx(uint32_t *w, size_t n,
                                  unsigned long long *pos,
                                  unsigned long long *arrival);
/** Vertical sync (camera cell): drop what the port holds, wait for the
 * start of the next frame (now, if one starts now) and return its number
 * (>= 0).  Words dropped or passed over are not counted as lost. */
MCE_EXPORT long mce_iw_video_sync(void);
/** Words the camera port has lost so far (camera cell; 0 elsewhere). */
MCE_EXPORT unsigned long mce_iw_video_lost(void);
/** Write @p n words to the display (display cell). */
MCE_EXPORT int mce_iw_video_write(const uint32_t *w, size_t n);
/** The display's record (display cell): the number of words written so
 * far, and when @p w or @p clocks is not NULL, word @p i and the time (in
 * clocks) its write ended (IW_EINVAL beyond the words written). */
MCE_EXPORT long long mce_iw_video_output(unsigned long long i, uint32_t *w,
                                         unsigned long long *clocks);

/* ---- legacy names --------------------------------------------------- */

/* The iWarp calls under the names of Warfel's code (iwarp_cell, ...):
 * object-like macros over the exported mce_iw_ functions, as vertex.h and
 * nx.h do, so that the library exports only mce-prefixed names while
 * existing programs compile unchanged (a function pointer to iwarp_clock
 * works too).  Diagnostics name the calls by these names. */

#define iwarp_align             mce_iw_align
#define iwarp_cam_clear         mce_iw_cam_clear
#define iwarp_cam_set           mce_iw_cam_set
#define iwarp_cell              mce_iw_cell
#define iwarp_clock             mce_iw_clock
#define iwarp_compute           mce_iw_compute
#define iwarp_coords            mce_iw_coords
#define iwarp_dep_buffer        mce_iw_dep_buffer
#define iwarp_dep_count         mce_iw_dep_count
#define iwarp_dep_init          mce_iw_dep_init
#define iwarp_dep_rearm         mce_iw_dep_rearm
#define iwarp_dep_send          mce_iw_dep_send
#define iwarp_dep_wait          mce_iw_dep_wait
#define iwarp_dither            mce_iw_dither
#define iwarp_gate_bind         mce_iw_gate_bind
#define iwarp_gate_read         mce_iw_gate_read
#define iwarp_gate_read_block   mce_iw_gate_read_block
#define iwarp_gate_unbind       mce_iw_gate_unbind
#define iwarp_gate_write        mce_iw_gate_write
#define iwarp_gate_write_block  mce_iw_gate_write_block
#define iwarp_height            mce_iw_height
#define iwarp_pct_alloc         mce_iw_pct_alloc
#define iwarp_pct_config        mce_iw_pct_config
#define iwarp_pct_release       mce_iw_pct_release
#define iwarp_pct_repoint       mce_iw_pct_repoint
#define iwarp_ring_forwarded    mce_iw_ring_forwarded
#define iwarp_ring_position     mce_iw_ring_position
#define iwarp_rts_recv          mce_iw_rts_recv
#define iwarp_rts_send          mce_iw_rts_send
#define iwarp_selective_receive mce_iw_selective_receive
#define iwarp_selective_send    mce_iw_selective_send
#define iwarp_spool_in          mce_iw_spool_in
#define iwarp_spool_out         mce_iw_spool_out
#define iwarp_spool_test        mce_iw_spool_test
#define iwarp_spool_wait        mce_iw_spool_wait
#define iwarp_sru_broadcast     mce_iw_sru_broadcast
#define iwarp_sru_lost          mce_iw_sru_lost
#define iwarp_sru_poll          mce_iw_sru_poll
#define iwarp_sru_recv          mce_iw_sru_recv
#define iwarp_sru_send          mce_iw_sru_send
#define iwarp_video_lost        mce_iw_video_lost
#define iwarp_video_output      mce_iw_video_output
#define iwarp_video_read        mce_iw_video_read
#define iwarp_video_readx       mce_iw_video_readx
#define iwarp_video_source      mce_iw_video_source
#define iwarp_video_sync        mce_iw_video_sync
#define iwarp_video_write       mce_iw_video_write
#define iwarp_vtime             mce_iw_vtime
#define iwarp_width             mce_iw_width

/* The program's main runs once per cell as the iWarp entry point (TCS
 * programs: include/tcs.h renames it instead). */
#ifndef MCE_TCS_PROGRAM
#ifdef main
#undef main
#endif
#define main mce_iw_main
#endif

#ifdef __cplusplus
}
#endif

#endif /* MCEMU_IWARP_H */
