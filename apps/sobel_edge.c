/* sobel_edge: the Sobel edge detector experiment of Mudge, Buzzard and
 * Abdel-Rahman, "A High Performance Operating System for the NCUBE"
 * (1987), section 5 and Table 3, as a Vertex node program.
 *
 *   ./sobel_edge --mce-nodes=16                    the table, 32x32..512x512
 *   mpirun -np 64 ./sobel_edge
 *   mpirun -np 2 ./sobel_edge --mce-nodes=64 --size=256 --scheme=extended
 *   ./sobel_edge --mce-nodes=16 --input=photo.pgm --output=edges.pgm
 *
 * Options:
 *   --input=FILE      8-bit PGM (P5 or P2) to process (one run)
 *   --size=N          generated N x N test image (one run)
 *   --sizes=A,B,...   generated images of these sides (the table); the
 *                     default when neither --input nor --size is given is
 *                     --sizes=32,64,128,256,512
 *   --output=FILE     edge image of the last (or only) image, written by
 *                     node 0 (default sobel_out.pgm)
 *   --write-input=FILE  node 0 also writes that image's input, so that a
 *                     sequential Sobel can be run on the same pixels
 *   --scheme=standard|extended|both   Vertex primitives (default both)
 *   --pixel-cost-us=X computation per output pixel (default: the machine
 *                     parameter app.sobel_pixel, else 40 us)
 *   --per-node        also print every node's figures under each row
 * Unknown options: node 0 prints the usage and every node returns 2.
 *
 * The image (generated from its side alone by test_pixel(), or read by
 * node 0) is cut into equal subimages over a rows x cols grid of nodes,
 * N = 2^d, cols = 2^ceil(d/2), rows = 2^floor(d/2); grid position (r, c)
 * is node (gray(r) << log2(cols)) | gray(c), so that the N, S, E and W
 * grid neighbours are hypercube neighbours and the diagonal ones are two
 * hops away.  The grid is not a torus.  Sobel: with p(y, x) the input,
 *   gx = p(y-1,x+1) + 2 p(y,x+1) + p(y+1,x+1)
 *      - p(y-1,x-1) - 2 p(y,x-1) - p(y+1,x-1)
 *   gy = p(y+1,x-1) + 2 p(y+1,x) + p(y+1,x+1)
 *      - p(y-1,x-1) - 2 p(y-1,x) - p(y-1,x+1)
 *   out(y, x) = min(255, |gx| + |gy|), integer arithmetic;
 * pixels on the image border (first and last row and column) are 0.
 * tests/progs/sobel_ref.c is the sequential reference: the output PGM is
 * byte-identical to its output for every node count and both schemes, and
 * node 0 also checks every gathered image against a sequential Sobel.
 *
 * One run per (image, scheme), each in four steps:
 *  1. node 0 sends every node its subimage (standard Vertex, untimed;
 *     once per image);
 *  2. extended runs switch the channels to the N, S, E and W neighbours
 *     to extended mode (chanmode) and post the four receives (rcvreq)
 *     now: extended Vertex wants every receive posted before the
 *     matching send can arrive, and the synchronisation that follows
 *     guarantees it.  A start synchronisation (two max-reductions over
 *     the hypercube dimensions, standard nwrite/nread) then sets a common
 *     virtual start time T0, which every node reaches by idling
 *     (mce_compute), so that all nodes start the timed phase together;
 *  3. the timed Sobel phase, from an ntime() call at T0 to an ntime()
 *     call at the end (so that interrupts taken during the last
 *     computation count):
 *     standard: nwrite the 4 edges and the 4 corner pixels to the 8
 *       neighbours (the diagonal ones are two hops away: the
 *       intermediate node stores and forwards them), compute the
 *       interior, nread the 8 borders (in a fixed order, by source and
 *       type: a wildcard nread could take another phase's message),
 *       compute the border pixels;
 *     extended: nearest neighbours only, so the corners travel in two
 *       phases: send the E and W columns, compute the interior, flagwait
 *       the columns, send the N and S rows widened by the received column
 *       ends (the diagonal neighbours' corner pixels), flagwait the rows,
 *       compute the border pixels, flagwait the sends;
 *     every block of pixels costs pixels x the per-pixel cost
 *     (mce_compute: exact in the default explicit compute mode);
 *  4. extended runs switch the channels back to standard; a barrier;
 *     every node sends node 0 its timings and its result in row chunks
 *     of at most CHUNK_BYTES bytes (standard Vertex), which node 0 reads
 *     from any source, so that its buffer pool never fills with messages
 *     it is not reading.
 *
 * Table (printed by node 0, one row per run, virtual milliseconds of the
 * timed phase): total = the slowest node's time; calc, comm (API
 * overheads + interrupt handlers) and wait = means over the nodes;
 * calc_frac = calc / total; speedup = one-node time / total, where the
 * one-node time is W x H x the per-pixel cost (no communication); ext/std
 * = standard total / extended total for the same image.
 */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "pgm.h"
/* After the system headers: vertex.h defines send() and friends. */
#include "vertex.h"

#define MAX_SIZES 32
#define MAX_SIDE  4096
/* Largest message payload: the NCUBE buffer pool is about 27 KB. */
#define CHUNK_BYTES      4096
#define DEFAULT_PIXEL_PS (40 * MCE_US)

#define SCHEME_STANDARD 1
#define SCHEME_EXTENDED 2

/* Directions, as seen from the receiving node. */
enum { DIR_N, DIR_S, DIR_E, DIR_W, DIR_NE, DIR_NW, DIR_SE, DIR_SW, NDIR };
static const int dir_dr[NDIR] = {-1, 1, 0, 0, -1, -1, 1, 1};
static const int dir_dc[NDIR] = {0, 0, 1, -1, 1, -1, 1, -1};
static const int dir_opp[NDIR] = {DIR_S,  DIR_N,  DIR_W,  DIR_E,
                                  DIR_SW, DIR_SE, DIR_NW, DIR_NE};
static const char *const dir_name[NDIR] = {"N",  "S",  "E",  "W",
                                           "NE", "NW", "SE", "SW"};

/* Message types (16 bits): TY_SETUP once, then a block of 256 per run. */
#define TY_SETUP    1
#define TY_RUN(run) (0x100 + 0x100 * (run))
#define TY_HALO     0x00 /* + direction: standard edges and corners */
#define TY_XDATA    0x08 /* + direction: extended columns and rows */
#define TY_SYNC1    0x10 /* + dimension: start reduction 1 */
#define TY_SYNC2    0x20 /* + dimension: start reduction 2 */
#define TY_BARRIER  0x30 /* + dimension: end barrier */
#define TY_GATHER   0x60
#define TY_SCATTER  0x61

typedef struct options {
    const char *input, *output, *write_input;
    int sizes[MAX_SIZES], nsizes, size_given, sizes_given;
    int schemes;
    double pixel_cost_us;
    int pixel_cost_given, per_node;
} options_t;

/* Everything a node keeps for the whole program.  The flags are written
 * by Vertex in virtual time, so they live here rather than on the stack
 * of a function that may have returned. */
typedef struct node_ctx {
    int me, nodes, dim;
    int rows, cols, lcols;    /* grid; log2(cols) */
    int gr, gc;               /* my grid position */
    int nb[NDIR];             /* neighbour node, -1 beyond the image */
    mce_time_t ps;            /* per output pixel */
    int wflag, rflag;         /* nwrite/nread flags (not waited on) */
    int xsflag[4], xrflag[4]; /* extended send/rcvreq flags, N S E W */
    unsigned char *msg;       /* CHUNK_BYTES + header scratch */
} node_ctx_t;

/* One node's subimage of one image. */
typedef struct block {
    int W, H;              /* image */
    int h, w, y0, x0;      /* block size and origin */
    ptrdiff_t stride;      /* w + 2 */
    unsigned char *halo;   /* (h + 2) x (w + 2): the block and its border */
    unsigned char *out;    /* h x w result */
    unsigned char *col[4]; /* h bytes: E out, W out, E in, W in */
} block_t;

/* Timings of one node's Sobel phase, in ps (comm includes the interrupt
 * handlers' stolen time; skew: start - T0). */
typedef struct phase_stats {
    int64_t total, calc, comm, wait, stolen, skew;
} phase_stats_t;

/* Header of every gather and scatter message. */
typedef struct chunk_hdr {
    int32_t node, row0, nrows, pad;
    phase_stats_t st;
} chunk_hdr_t;

/* ---- the grid ------------------------------------------------------- */

static int gray(int x)
{
    return x ^ (x >> 1);
}

static int gray_inverse(int g)
{
    for (int sh = 1; sh < 16; sh <<= 1)
        g ^= g >> sh;
    return g;
}

/* Node number of grid position (r, c), -1 outside the grid. */
static int grid_node(const node_ctx_t *c, int r, int col)
{
    if (r < 0 || r >= c->rows || col < 0 || col >= c->cols)
        return -1;
    return (gray(r) << c->lcols) | gray(col);
}

/* Grid position of @p node. */
static void grid_pos(const node_ctx_t *c, int node, int *r, int *col)
{
    *r = gray_inverse(node >> c->lcols);
    *col = gray_inverse(node & (c->cols - 1));
}

/* ---- the test image and the Sobel kernel ---------------------------- */

/* A reproducible test image that depends on its side alone: two
 * gradients, a ring, a disc, a diagonal line, an anti-diagonal dark line
 * and a checkerboard patch. */
static unsigned char test_pixel(int size, int x, int y)
{
    long s = size, v = 16 + (x * 160L) / s + (y * 64L) / s;
    long dx = 2L * x - s, dy = 2L * y - s, r2 = dx * dx + dy * dy;
    long ex = 4L * x - s, ey = 4L * y - 3 * s, e2 = ex * ex + ey * ey;
    long band = s / 64 > 0 ? s / 64 : 1;
    if (r2 < s * s / 4 && r2 > s * s * 9 / 64)
        v = 230;
    else if (r2 <= s * s * 9 / 64)
        v = 255 - v / 2;
    if (e2 < s * s / 4)
        v = 40;
    if (labs((long)x - y) < band)
        v = 250;
    if (x + y == size - 1)
        v = 0;
    if (x >= 3 * s / 4 && y < s / 4)
        v = ((x * 16L / s + y * 16L / s) & 1) ? 200 : 60;
    return (unsigned char)v;
}

/* The Sobel magnitude at *p, whose row stride is @p s. */
static unsigned char sobel_at(const unsigned char *p, ptrdiff_t s)
{
    int gx = p[-s + 1] + 2 * p[1] + p[s + 1] - p[-s - 1] - 2 * p[-1] - p[s - 1];
    int gy = p[s - 1] + 2 * p[s] + p[s + 1] - p[-s - 1] - 2 * p[-s] - p[-s + 1];
    int m = abs(gx) + abs(gy);
    return (unsigned char)(m > 255 ? 255 : m);
}

/* Sequential Sobel of a whole image (node 0's check). */
static void sobel_image(const unsigned char *in, unsigned char *out, int W,
                        int H)
{
    memset(out, 0, (size_t)W * (size_t)H);
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++)
            out[(size_t)y * W + x] = sobel_at(in + (size_t)y * W + x, W);
}

/* Block pixels rows [r0, r1) x columns [c0, c1), local coordinates. */
static void sobel_region(block_t *b, int r0, int r1, int c0, int c1)
{
    for (int r = r0; r < r1; r++)
        for (int c = c0; c < c1; c++) {
            int y = b->y0 + r, x = b->x0 + c;
            unsigned char v = 0;
            if (y > 0 && y < b->H - 1 && x > 0 && x < b->W - 1)
                v = sobel_at(b->halo + (r + 1) * b->stride + (c + 1),
                             b->stride);
            b->out[(size_t)r * b->w + c] = v;
        }
}

static long interior_pixels(const block_t *b)
{
    return b->h > 2 && b->w > 2 ? (long)(b->h - 2) * (b->w - 2) : 0;
}

/* Charge @p pixels output pixels of computation. */
static int charge(const node_ctx_t *c, long pixels)
{
    int rc;
    if (pixels <= 0 || c->ps == 0)
        return 0;
    rc = mce_compute((mce_time_t)pixels * c->ps);
    if (rc != MCE_OK) {
        fprintf(stderr, "sobel_edge: node %d: mce_compute: %s\n", c->me,
                mce_strerror(rc));
        return -1;
    }
    return 0;
}

/* The pixels that need no remote data. */
static int compute_interior(const node_ctx_t *c, block_t *b)
{
    if (b->h > 2 && b->w > 2)
        sobel_region(b, 1, b->h - 1, 1, b->w - 1);
    return charge(c, interior_pixels(b));
}

/* The first and last rows and columns of the block. */
static int compute_border(const node_ctx_t *c, block_t *b)
{
    for (int r = 0; r < b->h; r++) {
        if (r == 0 || r == b->h - 1) {
            sobel_region(b, r, r + 1, 0, b->w);
        } else {
            sobel_region(b, r, r + 1, 0, 1);
            if (b->w > 1)
                sobel_region(b, r, r + 1, b->w - 1, b->w);
        }
    }
    return charge(c, (long)b->h * b->w - interior_pixels(b));
}

/* ---- Vertex helpers ------------------------------------------------- */

static const char *vx_error(int rc)
{
    switch (rc) {
    case VX_EINVAL:
        return "VX_EINVAL (bad argument)";
    case VX_ENODE:
        return "VX_ENODE (node out of range)";
    case VX_ENOTNN:
        return "VX_ENOTNN (not a neighbour)";
    case VX_EMODE:
        return "VX_EMODE (channel in the other scheme)";
    case VX_ETOOBIG:
        return "VX_ETOOBIG (larger than the buffer pool)";
    default:
        return "unknown Vertex error";
    }
}

static int vx_fail(const node_ctx_t *c, const char *call, int peer, int rc)
{
    fprintf(stderr, "sobel_edge: node %d: %s with node %d: %s (%d)\n", c->me,
            call, peer, vx_error(rc), rc);
    return -1;
}

static int put(node_ctx_t *c, const void *buf, int n, int dest, int type)
{
    int rc = nwrite(buf, n, dest, type, &c->wflag);
    if (rc != n)
        return vx_fail(c, "nwrite", dest, rc < 0 ? rc : VX_EINVAL);
    return 0;
}

/* nread exactly @p want bytes of @p type from @p src. */
static int get(node_ctx_t *c, void *buf, int cap, int src, int type, int want)
{
    int s = src, t = type;
    int rc = nread(buf, cap, &s, &t, &c->rflag);
    if (rc < 0)
        return vx_fail(c, "nread", src, rc);
    if (rc != want || s != src || t != type) {
        fprintf(stderr,
                "sobel_edge: node %d: nread from node %d type %#x: got %d "
                "bytes from node %d type %#x, want %d bytes\n",
                c->me, src, type, rc, s, t, want);
        return -1;
    }
    return 0;
}

static int wait_flag(node_ctx_t *c, int *flag, const char *what, int peer)
{
    int rc = flagwait(flag);
    if (rc < 0) {
        fprintf(stderr, "sobel_edge: node %d: flagwait (%s, node %d): %s\n",
                c->me, what, peer, vx_error(rc));
        return -1;
    }
    return 0;
}

/* Max-reduction of @p nv 64-bit values over the hypercube dimensions
 * (every node ends with the maxima), nearest-neighbour standard Vertex. */
static int allreduce_max(node_ctx_t *c, int type0, uint64_t *v, int nv)
{
    uint64_t in[4];
    for (int k = 0; k < c->dim; k++) {
        int partner = c->me ^ (1 << k);
        if (put(c, v, nv * 8, partner, type0 + k) != 0 ||
            get(c, in, sizeof in, partner, type0 + k, nv * 8) != 0)
            return -1;
        for (int i = 0; i < nv; i++)
            if (in[i] > v[i])
                v[i] = in[i];
    }
    return 0;
}

/* Idle (charged as computation) until virtual time @p t. */
static int idle_until(node_ctx_t *c, mce_time_t t)
{
    mce_time_t now = mce_now();
    int rc;
    if (now >= t)
        return 0;
    rc = mce_compute(t - now);
    if (rc != MCE_OK) {
        fprintf(stderr, "sobel_edge: node %d: mce_compute: %s\n", c->me,
                mce_strerror(rc));
        return -1;
    }
    return 0;
}

/* Bring every node to the same virtual time T0.  The first reduction
 * finds the latest entry E and measures how long a reduction takes after
 * it (D = the latest exit - E); the second one, which starts by X = the
 * latest exit, ends by about X + D, so T0 = X + 2 D.  Interrupts that
 * arrive while a node idles are charged at its next call, so the node
 * takes them with an ntime() call half-way, before T0, and the phase
 * starts with another ntime() at T0.  *skew = the start time - T0 (the
 * same on every node unless one arrived late or took an interrupt). */
static int sync_start(node_ctx_t *c, int tb, int64_t *skew)
{
    uint64_t v[2];
    mce_time_t t0, now;

    v[0] = mce_now();
    if (allreduce_max(c, tb + TY_SYNC1, v, 1) != 0)
        return -1;
    now = mce_now();
    v[1] = now - v[0];
    v[0] = now;
    if (allreduce_max(c, tb + TY_SYNC2, v, 2) != 0)
        return -1;
    t0 = v[0] + 2 * v[1];
    if (idle_until(c, t0 - v[1] / 2) != 0)
        return -1;
    (void)ntime();
    if (idle_until(c, t0) != 0)
        return -1;
    (void)ntime();
    *skew = (int64_t)(mce_now() - t0);
    return 0;
}

/* ---- the two exchange schemes --------------------------------------- */

/* Pack the block's edge for the neighbour in direction d (from this
 * node); returns the length. */
static int edge_out(block_t *b, int d, const unsigned char **data)
{
    unsigned char *top = b->halo + b->stride + 1;
    unsigned char *bottom = b->halo + b->h * b->stride + 1;
    switch (d) {
    case DIR_N:
        *data = top;
        return b->w;
    case DIR_S:
        *data = bottom;
        return b->w;
    case DIR_E:
    case DIR_W: {
        unsigned char *col = b->col[d == DIR_E ? 0 : 1];
        int x = d == DIR_E ? b->w - 1 : 0;
        for (int r = 0; r < b->h; r++)
            col[r] = top[r * b->stride + x];
        *data = col;
        return b->h;
    }
    case DIR_NE:
        *data = top + b->w - 1;
        return 1;
    case DIR_NW:
        *data = top;
        return 1;
    case DIR_SE:
        *data = bottom + b->w - 1;
        return 1;
    default: /* DIR_SW */
        *data = bottom;
        return 1;
    }
}

/* Length of the border coming from direction d. */
static int edge_len(const block_t *b, int d)
{
    return d == DIR_N || d == DIR_S   ? b->w
           : d == DIR_E || d == DIR_W ? b->h
                                      : 1;
}

/* Store the border received from direction d into the halo. */
static void edge_in(block_t *b, int d, const unsigned char *data)
{
    unsigned char *h = b->halo;
    ptrdiff_t s = b->stride;
    switch (d) {
    case DIR_N:
        memcpy(h + 1, data, (size_t)b->w);
        break;
    case DIR_S:
        memcpy(h + (b->h + 1) * s + 1, data, (size_t)b->w);
        break;
    case DIR_E:
    case DIR_W:
        for (int r = 0; r < b->h; r++)
            h[(r + 1) * s + (d == DIR_E ? b->w + 1 : 0)] = data[r];
        break;
    case DIR_NE:
        h[b->w + 1] = data[0];
        break;
    case DIR_NW:
        h[0] = data[0];
        break;
    case DIR_SE:
        h[(b->h + 1) * s + b->w + 1] = data[0];
        break;
    default: /* DIR_SW */
        h[(b->h + 1) * s] = data[0];
        break;
    }
}

static int exchange_standard(node_ctx_t *c, block_t *b, int tb)
{
    for (int d = 0; d < NDIR; d++) {
        const unsigned char *data;
        int n;
        if (c->nb[d] < 0)
            continue;
        n = edge_out(b, d, &data);
        if (put(c, data, n, c->nb[d], tb + TY_HALO + dir_opp[d]) != 0)
            return -1;
    }
    if (compute_interior(c, b) != 0)
        return -1;
    for (int d = 0; d < NDIR; d++) {
        int n = edge_len(b, d);
        if (c->nb[d] < 0)
            continue;
        if (get(c, c->msg, CHUNK_BYTES, c->nb[d], tb + TY_HALO + d, n) != 0)
            return -1;
        edge_in(b, d, c->msg);
    }
    return compute_border(c, b);
}

/* Switch the channels to the N, S, E and W neighbours. */
static int set_modes(node_ctx_t *c, int mode)
{
    for (int d = DIR_N; d <= DIR_W; d++) {
        int rc;
        if (c->nb[d] < 0)
            continue;
        rc = chanmode(c->nb[d], mode);
        if (rc < 0)
            return vx_fail(c,
                           mode == VX_EXTENDED ? "chanmode(VX_EXTENDED)"
                                               : "chanmode(VX_STANDARD)",
                           c->nb[d], rc);
    }
    return 0;
}

/* Extended Vertex needs every receive posted before the matching send
 * can arrive: post the N and S rows (with their corners) straight into
 * the halo and the E and W columns into buffers, before the start
 * synchronisation, which then guarantees that every node has posted its
 * receives before any node sends. */
static int post_extended(node_ctx_t *c, block_t *b, int tb)
{
    unsigned char *dst[4];

    dst[DIR_N] = b->halo;
    dst[DIR_S] = b->halo + (b->h + 1) * b->stride;
    dst[DIR_E] = b->col[2];
    dst[DIR_W] = b->col[3];
    for (int d = DIR_N; d <= DIR_W; d++) {
        int n = d <= DIR_S ? b->w + 2 : b->h, rc;
        if (c->nb[d] < 0)
            continue;
        rc = rcvreq(dst[d], n, c->nb[d], tb + TY_XDATA + d, &c->xrflag[d]);
        if (rc < 0)
            return vx_fail(c, "rcvreq", c->nb[d], rc);
    }
    return 0;
}

static int exchange_extended(node_ctx_t *c, block_t *b, int tb)
{
    ptrdiff_t s = b->stride;

    /* Phase 1: the E and W columns. */
    for (int d = DIR_E; d <= DIR_W; d++) {
        const unsigned char *data;
        int n, rc;
        if (c->nb[d] < 0)
            continue;
        n = edge_out(b, d, &data);
        c->xsflag[d] = 0;
        rc = send(data, n, c->nb[d], tb + TY_XDATA + dir_opp[d], &c->xsflag[d]);
        if (rc < 0)
            return vx_fail(c, "send", c->nb[d], rc);
    }
    if (compute_interior(c, b) != 0)
        return -1;
    for (int d = DIR_E; d <= DIR_W; d++) {
        if (c->nb[d] < 0)
            continue;
        if (wait_flag(c, &c->xrflag[d], dir_name[d], c->nb[d]) != 0)
            return -1;
        edge_in(b, d, b->col[d == DIR_E ? 2 : 3]);
    }
    /* Phase 2: the N and S rows widened by the column ends just
     * received, which are the diagonal neighbours' corner pixels. */
    for (int d = DIR_N; d <= DIR_S; d++) {
        int rc;
        if (c->nb[d] < 0)
            continue;
        c->xsflag[d] = 0;
        rc = send(b->halo + (d == DIR_N ? 1 : b->h) * s, b->w + 2, c->nb[d],
                  tb + TY_XDATA + dir_opp[d], &c->xsflag[d]);
        if (rc < 0)
            return vx_fail(c, "send", c->nb[d], rc);
    }
    for (int d = DIR_N; d <= DIR_S; d++)
        if (c->nb[d] >= 0 &&
            wait_flag(c, &c->xrflag[d], dir_name[d], c->nb[d]) != 0)
            return -1;
    if (compute_border(c, b) != 0)
        return -1;
    /* The send buffers are ours again once their flags are set. */
    for (int d = DIR_N; d <= DIR_W; d++)
        if (c->nb[d] >= 0 && wait_flag(c, &c->xsflag[d], "send", c->nb[d]) != 0)
            return -1;
    return 0;
}

/* ---- one run: synchronise, exchange and compute, gather ------------- */

static int stats_now(const node_ctx_t *c, mce_node_stats_t *st)
{
    int rc = mce_stats(st);
    if (rc != MCE_OK) {
        fprintf(stderr, "sobel_edge: node %d: mce_stats: %s\n", c->me,
                mce_strerror(rc));
        return -1;
    }
    return 0;
}

static int sobel_run(node_ctx_t *c, block_t *b, int scheme, int run,
                     phase_stats_t *ps)
{
    int tb = TY_RUN(run);
    mce_node_stats_t s0, s1;
    uint64_t dummy = 0;

    /* Only the block's own pixels are valid: clear the border (beyond
     * the image it stays 0). */
    for (int r = 0; r < b->h + 2; r++)
        for (int x = 0; x < b->w + 2; x++)
            if (r == 0 || r == b->h + 1 || x == 0 || x == b->w + 1)
                b->halo[r * b->stride + x] = 0;
    if (scheme == SCHEME_EXTENDED &&
        (set_modes(c, VX_EXTENDED) != 0 || post_extended(c, b, tb) != 0))
        return -1;
    if (sync_start(c, tb, &ps->skew) != 0 || stats_now(c, &s0) != 0)
        return -1;
    if ((scheme == SCHEME_STANDARD ? exchange_standard(c, b, tb)
                                   : exchange_extended(c, b, tb)) != 0)
        return -1;
    /* Interrupts taken during the last computation count too. */
    (void)ntime();
    if (stats_now(c, &s1) != 0)
        return -1;
    ps->total = (int64_t)(s1.now - s0.now);
    ps->calc = (int64_t)(s1.compute - s0.compute);
    ps->comm = (int64_t)(s1.comm - s0.comm + s1.stolen - s0.stolen);
    ps->wait = (int64_t)(s1.wait - s0.wait);
    ps->stolen = (int64_t)(s1.stolen - s0.stolen);
    if (scheme == SCHEME_EXTENDED && set_modes(c, VX_STANDARD) != 0)
        return -1;
    /* Nobody gathers before every border has been read. */
    return allreduce_max(c, tb + TY_BARRIER, &dummy, 1);
}

static int rows_per_chunk(const block_t *b)
{
    int n = CHUNK_BYTES / b->w;
    return n < 1 ? 1 : n;
}

/* Every node sends node 0 its timings and its result rows; node 0
 * assembles @p image and @p all (one entry per node). */
static int gather(node_ctx_t *c, block_t *b, int run, const phase_stats_t *ps,
                  unsigned char *image, phase_stats_t *all)
{
    int tb = TY_RUN(run), rpc = rows_per_chunk(b);
    int chunks = (b->h + rpc - 1) / rpc;
    chunk_hdr_t hdr;

    if (c->me != 0) {
        for (int r0 = 0; r0 < b->h; r0 += rpc) {
            int nr = b->h - r0 < rpc ? b->h - r0 : rpc;
            memset(&hdr, 0, sizeof hdr);
            hdr.node = c->me;
            hdr.row0 = r0;
            hdr.nrows = nr;
            hdr.st = *ps;
            memcpy(c->msg, &hdr, sizeof hdr);
            memcpy(c->msg + sizeof hdr, b->out + (size_t)r0 * b->w,
                   (size_t)nr * b->w);
            if (put(c, c->msg, (int)sizeof hdr + nr * b->w, 0,
                    tb + TY_GATHER) != 0)
                return -1;
        }
        return 0;
    }
    all[0] = *ps;
    for (int r = 0; r < b->h; r++)
        memcpy(image + (size_t)r * b->W, b->out + (size_t)r * b->w,
               (size_t)b->w);
    /* Any source: node 0 must consume whatever holds its buffers. */
    for (long left = (long)(c->nodes - 1) * chunks; left > 0; left--) {
        int src = -1, type = tb + TY_GATHER, gr, gc, n, node;
        int rc = nread(c->msg, CHUNK_BYTES + (int)sizeof hdr, &src, &type,
                       &c->rflag);
        if (rc < 0)
            return vx_fail(c, "nread (gather)", src, rc);
        memcpy(&hdr, c->msg, sizeof hdr);
        node = hdr.node;
        n = hdr.nrows;
        if (rc < (int)sizeof hdr || node != src || node <= 0 ||
            node >= c->nodes || hdr.row0 < 0 || n < 1 || hdr.row0 + n > b->h ||
            rc != (int)sizeof hdr + n * b->w) {
            fprintf(stderr,
                    "sobel_edge: node 0: malformed gather message (%d "
                    "bytes from node %d)\n",
                    rc, src);
            return -1;
        }
        all[node] = hdr.st;
        grid_pos(c, node, &gr, &gc);
        for (int r = 0; r < n; r++)
            memcpy(image + (size_t)(gr * b->h + hdr.row0 + r) * b->W +
                       (size_t)gc * b->w,
                   c->msg + sizeof hdr + (size_t)r * b->w, (size_t)b->w);
    }
    return 0;
}

/* Node 0 sends every node its subimage of @p image (NULL elsewhere). */
static int scatter(node_ctx_t *c, block_t *b, int run,
                   const unsigned char *image)
{
    int tb = TY_RUN(run), rpc = rows_per_chunk(b);
    chunk_hdr_t hdr;

    if (c->me == 0) {
        for (int node = 0; node < c->nodes; node++) {
            int gr, gc;
            grid_pos(c, node, &gr, &gc);
            for (int r0 = 0; r0 < b->h; r0 += rpc) {
                int nr = b->h - r0 < rpc ? b->h - r0 : rpc;
                const unsigned char *src =
                    image + (size_t)(gr * b->h + r0) * b->W + (size_t)gc * b->w;
                if (node == 0) {
                    for (int r = 0; r < nr; r++)
                        memcpy(b->halo + (r0 + r + 1) * b->stride + 1,
                               src + (size_t)r * b->W, (size_t)b->w);
                    continue;
                }
                memset(&hdr, 0, sizeof hdr);
                hdr.node = node;
                hdr.row0 = r0;
                hdr.nrows = nr;
                memcpy(c->msg, &hdr, sizeof hdr);
                for (int r = 0; r < nr; r++)
                    memcpy(c->msg + sizeof hdr + (size_t)r * b->w,
                           src + (size_t)r * b->W, (size_t)b->w);
                if (put(c, c->msg, (int)sizeof hdr + nr * b->w, node,
                        tb + TY_SCATTER) != 0)
                    return -1;
            }
        }
        return 0;
    }
    for (int r0 = 0; r0 < b->h; r0 += rpc) {
        int nr = b->h - r0 < rpc ? b->h - r0 : rpc;
        if (get(c, c->msg, CHUNK_BYTES + (int)sizeof hdr, 0, tb + TY_SCATTER,
                (int)sizeof hdr + nr * b->w) != 0)
            return -1;
        memcpy(&hdr, c->msg, sizeof hdr);
        if (hdr.node != c->me || hdr.row0 != r0 || hdr.nrows != nr) {
            fprintf(stderr, "sobel_edge: node %d: malformed subimage chunk\n",
                    c->me);
            return -1;
        }
        for (int r = 0; r < nr; r++)
            memcpy(b->halo + (r0 + r + 1) * b->stride + 1,
                   c->msg + sizeof hdr + (size_t)r * b->w, (size_t)b->w);
    }
    return 0;
}

/* ---- options ---------------------------------------------------------- */

static int parse_options(int argc, char **argv, options_t *o)
{
    static const int defaults[] = {32, 64, 128, 256, 512};
    long size = 0, sizes[MAX_SIZES];
    int nsizes = 0, scheme = 2, prc, me = mce_node();
    memset(o, 0, sizeof *o);
    o->output = "sobel_out.pgm";
    o->pixel_cost_us = -1;
    const app_opt_t opts[] = {
        {"input", APPO_STR, &o->input, NULL, 0, 0, NULL, "FILE.pgm",
         "the image to filter (binary PGM)"},
        {"size", APPO_LONG, &size, NULL, 0, 1, NULL, "N",
         "one generated N x N image"},
        {"sizes", APPO_LIST, sizes, &nsizes, MAX_SIZES, 1, NULL, "N,N,...",
         "generated images (default 32,64,128,256,512)"},
        {"output", APPO_STR, &o->output, NULL, 0, 0, NULL, "FILE.pgm",
         "the edge image of the last size (default sobel_out.pgm)"},
        {"write-input", APPO_STR, &o->write_input, NULL, 0, 0, NULL, "FILE.pgm",
         "also write the last input image"},
        {"scheme", APPO_CHOICE, &scheme, NULL, 0, 0, "standard|extended|both",
         NULL, "standard or extended Vertex, or both (default)"},
        {"pixel-cost-us", APPO_DOUBLE, &o->pixel_cost_us, NULL, 0, 0, NULL, "X",
         "computation per pixel, 0..1e6 us (default app.sobel_pixel)"},
        {"per-node", APPO_FLAG, &o->per_node, NULL, 0, 0, NULL, NULL,
         "a row per node under each table row"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    prc = app_parse("sobel_edge",
                    "The Sobel edge detector of Mudge, Buzzard and "
                    "Abdel-Rahman 1987 (section 5) on the NCUBE: virtual ms "
                    "of the Sobel phase per image and Vertex scheme.",
                    "[--input=FILE.pgm | --size=N | --sizes=N,N,...] "
                    "[--output=FILE.pgm] [--write-input=FILE.pgm] "
                    "[--scheme=standard|extended|both] [--pixel-cost-us=X] "
                    "[--per-node] [--format=table|csv|json]",
                    argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return prc;
    o->schemes = scheme == 0   ? SCHEME_STANDARD
                 : scheme == 1 ? SCHEME_EXTENDED
                               : SCHEME_STANDARD | SCHEME_EXTENDED;
    o->size_given = size > 0;
    o->sizes_given = nsizes > 0;
    o->pixel_cost_given = o->pixel_cost_us >= 0;
    const char *err = NULL;
    if ((o->input && !*o->input) || !*o->output ||
        (o->write_input && !*o->write_input))
        err = "--input, --output and --write-input need a file name";
    else if (size > MAX_SIDE)
        err = "--size: a side of 1..4096";
    else if (o->size_given + o->sizes_given + (o->input != NULL) > 1)
        err = "--input, --size and --sizes exclude one another";
    else if (o->pixel_cost_given && o->pixel_cost_us > 1e6)
        err = "--pixel-cost-us: 0..1e6 us";
    for (int k = 0; err == NULL && k < nsizes; k++)
        if (sizes[k] > MAX_SIDE)
            err = "--sizes: sides of 1..4096";
    if (err != NULL) {
        if (me <= 0)
            fprintf(stderr, "sobel_edge: %s\nusage: sobel_edge --help\n", err);
        return APP_PARSE_ERROR;
    }
    if (o->size_given) {
        o->sizes[0] = (int)size;
        o->nsizes = 1;
    }
    for (int k = 0; k < nsizes; k++)
        o->sizes[k] = (int)sizes[k];
    if (nsizes > 0)
        o->nsizes = nsizes;
    if (o->nsizes == 0 && o->input == NULL) {
        memcpy(o->sizes, defaults, sizeof defaults);
        o->nsizes = (int)(sizeof defaults / sizeof defaults[0]);
    }
    return APP_PARSE_OK;
}

/* ---- node 0's report -------------------------------------------------- */

static double ms(double ps)
{
    return ps / (double)MCE_MS;
}

/* One table row from the per-node figures; returns the total. */
static int64_t report_row(const node_ctx_t *c, const options_t *o,
                          const block_t *b, int scheme,
                          const phase_stats_t *all, int64_t std_total)
{
    int64_t total = 0, skew_min = INT64_MAX, skew_max = INT64_MIN;
    double calc = 0, comm = 0, wait = 0, t1;
    char label[32], spd[16] = "-", ratio[16] = "-";

    for (int i = 0; i < c->nodes; i++) {
        if (all[i].total > total)
            total = all[i].total;
        if (all[i].skew < skew_min)
            skew_min = all[i].skew;
        if (all[i].skew > skew_max)
            skew_max = all[i].skew;
        calc += (double)all[i].calc;
        comm += (double)all[i].comm;
        wait += (double)all[i].wait;
    }
    calc /= c->nodes;
    comm /= c->nodes;
    wait /= c->nodes;
    t1 = mce_compute_mode() == MCE_COMPUTE_NONE
             ? 0
             : (double)b->W * (double)b->H * (double)c->ps;
    if (t1 > 0 && total > 0)
        snprintf(spd, sizeof spd, "%.2f", t1 / (double)total);
    if (scheme == SCHEME_EXTENDED && std_total > 0 && total > 0)
        snprintf(ratio, sizeof ratio, "%.2f",
                 (double)std_total / (double)total);
    snprintf(label, sizeof label, "%dx%d", b->W, b->H);
    const char *sname = scheme == SCHEME_STANDARD ? "standard" : "extended";
    double frac = total > 0 ? calc / (double)total : 0.0;
    app_row("sobel_edge",
            APP_FIELDS(APP_S("image", label), APP_S("scheme", sname),
                       APP_F("total_ms", ms(total)), APP_F("calc_ms", ms(calc)),
                       APP_F("comm_ms", ms(comm)), APP_F("wait_ms", ms(wait)),
                       APP_F("calc_frac", frac),
                       APP_F("speedup",
                             t1 > 0 && total > 0 ? t1 / (double)total : NAN),
                       APP_F("ext_std", scheme == SCHEME_EXTENDED &&
                                                std_total > 0 && total > 0
                                            ? (double)std_total / (double)total
                                            : NAN)),
            "%9s  %-8s %10.3f %10.3f %10.3f %10.3f %9.3f %8s %8s\n", label,
            sname, ms(total), ms(calc), ms(comm), ms(wait), frac, spd, ratio);
    for (int i = 0; o->per_node && i < c->nodes; i++) {
        int gr, gc;
        grid_pos(c, i, &gr, &gc);
        app_row(
            "sobel_edge_node",
            APP_FIELDS(APP_S("image", label), APP_S("scheme", sname),
                       APP_I("node", i), APP_I("row", gr), APP_I("col", gc),
                       APP_F("total_ms", ms((double)all[i].total)),
                       APP_F("calc_ms", ms((double)all[i].calc)),
                       APP_F("comm_ms", ms((double)all[i].comm)),
                       APP_F("wait_ms", ms((double)all[i].wait)),
                       APP_F("handlers_ms", ms((double)all[i].stolen)),
                       APP_F("skew_us", (double)all[i].skew / (double)MCE_US)),
            "    node %4d (%2d,%2d) %10.3f %10.3f %10.3f %10.3f  "
            "(handlers %.3f ms, start skew %.3f us)\n",
            i, gr, gc, ms((double)all[i].total), ms((double)all[i].calc),
            ms((double)all[i].comm), ms((double)all[i].wait),
            ms((double)all[i].stolen), (double)all[i].skew / (double)MCE_US);
    }
    if (skew_max != skew_min)
        app_note("sobel_edge: note: the nodes started up to %.3f us apart\n",
                 (double)(skew_max - skew_min) / (double)MCE_US);
    fflush(stdout);
    return total;
}

/* ---- main --------------------------------------------------------------- */

static void free_block(block_t *b)
{
    free(b->halo);
    free(b->out);
    for (int i = 0; i < 4; i++)
        free(b->col[i]);
    memset(b, 0, sizeof *b);
}

static int alloc_block(const node_ctx_t *c, block_t *b, int W, int H)
{
    memset(b, 0, sizeof *b);
    b->W = W;
    b->H = H;
    b->h = H / c->rows;
    b->w = W / c->cols;
    b->y0 = c->gr * b->h;
    b->x0 = c->gc * b->w;
    b->stride = b->w + 2;
    b->halo = calloc((size_t)(b->h + 2) * (size_t)b->stride, 1);
    b->out = calloc((size_t)b->h * (size_t)b->w, 1);
    for (int i = 0; i < 4; i++)
        b->col[i] = calloc((size_t)b->h, 1);
    if (!b->halo || !b->out || !b->col[0] || !b->col[1] || !b->col[2] ||
        !b->col[3]) {
        fprintf(stderr,
                "sobel_edge: node %d: out of memory for a %dx%d "
                "subimage\n",
                c->me, b->w, b->h);
        free_block(b);
        return -1;
    }
    return 0;
}

/* Node 0 reads --input and tells every node its size (or the failure). */
static int share_input(node_ctx_t *c, const options_t *o, unsigned char **image,
                       int *W, int *H)
{
    int32_t setup[3] = {0, 0, 0};
    if (c->me == 0) {
        char err[512];
        *image = pgm_read(o->input, W, H, err, sizeof err);
        if (*image == NULL) {
            fprintf(stderr, "sobel_edge: %s\n", err);
            setup[0] = 1;
        } else if (*W > MAX_SIDE || *H > MAX_SIDE) {
            fprintf(stderr, "sobel_edge: %s: %dx%d is larger than %dx%d\n",
                    o->input, *W, *H, MAX_SIDE, MAX_SIDE);
            setup[0] = 2;
        } else {
            setup[1] = *W;
            setup[2] = *H;
        }
        for (int node = 1; node < c->nodes; node++)
            if (put(c, setup, sizeof setup, node, TY_SETUP) != 0)
                return 1;
    } else {
        if (get(c, setup, sizeof setup, 0, TY_SETUP, sizeof setup) != 0)
            return 1;
        *W = setup[1];
        *H = setup[2];
    }
    return setup[0];
}

/* Everything after the set-up: the runs over the images. */
static int run_all(node_ctx_t *c, const options_t *o, int *sizes, int nsizes,
                   unsigned char *input)
{
    phase_stats_t *all = NULL;
    unsigned char *image = NULL, *ref = NULL, *res = NULL;
    int run = 0, status = 1, wrong = 0;
    char err[512];
    block_t b;

    memset(&b, 0, sizeof b);
    if (c->me == 0 && (all = calloc((size_t)c->nodes, sizeof *all)) == NULL)
        goto oom;
    for (int k = 0; k < nsizes; k++) {
        int W = o->input ? sizes[0] : sizes[k];
        int H = o->input ? sizes[1] : sizes[k];
        int64_t std_total = 0;
        if (alloc_block(c, &b, W, H) != 0)
            goto out;
        if (c->me == 0) {
            size_t n = (size_t)W * (size_t)H;
            image = input;
            if (image == NULL) {
                if ((image = malloc(n)) == NULL)
                    goto oom;
                for (int y = 0; y < H; y++)
                    for (int x = 0; x < W; x++)
                        image[(size_t)y * W + x] = test_pixel(W, x, y);
            }
            ref = malloc(n);
            res = malloc(n);
            if (ref == NULL || res == NULL)
                goto oom;
            sobel_image(image, ref, W, H);
        }
        if (scatter(c, &b, run, image) != 0)
            goto out;
        for (int scheme = SCHEME_STANDARD; scheme <= SCHEME_EXTENDED;
             scheme <<= 1) {
            phase_stats_t ps;
            if (!(o->schemes & scheme))
                continue;
            memset(&ps, 0, sizeof ps);
            if (sobel_run(c, &b, scheme, run, &ps) != 0 ||
                gather(c, &b, run, &ps, res, all) != 0)
                goto out;
            run++;
            if (c->me != 0)
                continue;
            /* A wrong image is reported; the run goes on (the other
             * nodes are waiting for node 0) and ends with status 1. */
            if (memcmp(res, ref, (size_t)W * (size_t)H) != 0) {
                fprintf(stderr,
                        "sobel_edge: node 0: the %s result of %dx%d differs "
                        "from the sequential Sobel\n",
                        scheme == SCHEME_STANDARD ? "standard" : "extended", W,
                        H);
                wrong = 1;
            }
            if (scheme == SCHEME_STANDARD)
                std_total = report_row(c, o, &b, scheme, all, 0);
            else
                report_row(c, o, &b, scheme, all, std_total);
        }
        if (c->me == 0 && k == nsizes - 1) {
            if (o->write_input &&
                pgm_write(o->write_input, image, W, H, err, sizeof err) != 0)
                goto io;
            if (pgm_write(o->output, res, W, H, err, sizeof err) != 0)
                goto io;
            app_note("sobel_edge: %dx%d edge image written to %s (%s)\n", W, H,
                     o->output,
                     wrong ? "WRONG: not the sequential Sobel"
                           : "identical to the sequential Sobel");
            if (o->write_input)
                app_note("sobel_edge: %dx%d input image written to %s\n", W, H,
                         o->write_input);
        }
        if (image != input)
            free(image);
        image = NULL;
        free(ref);
        free(res);
        ref = res = NULL;
        free_block(&b);
    }
    status = wrong;
    goto out;
io:
    fprintf(stderr, "sobel_edge: node 0: %s\n", err);
    goto out;
oom:
    fprintf(stderr, "sobel_edge: node %d: out of memory\n", c->me);
out:
    if (image != input)
        free(image);
    free(ref);
    free(res);
    free(all);
    free_block(&b);
    return status;
}

int main(int argc, char **argv)
{
    options_t o;
    node_ctx_t *c;
    int me = mce_node(), pid, host, status = 1, prc;
    int sizes[MAX_SIZES], nsizes;
    unsigned char *input = NULL;
    const char *cost_from = "app.sobel_pixel";
    int64_t param;

    prc = parse_options(argc, argv, &o);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    c = calloc(1, sizeof *c);
    if (c == NULL ||
        (c->msg = malloc(CHUNK_BYTES + sizeof(chunk_hdr_t))) == NULL) {
        fprintf(stderr, "sobel_edge: node %d: out of memory\n", me);
        free(c);
        return 1;
    }
    whoami(&c->me, &pid, &host, &c->dim);
    c->nodes = ncubesize();
    if (c->me != me || c->nodes != mce_nodes() || c->nodes < 1 ||
        c->nodes > 1024 || c->dim < 0 || c->dim > 10 ||
        c->nodes != 1 << c->dim) {
        if (me == 0)
            fprintf(stderr,
                    "sobel_edge: needs a hypercube of 1 to 1024 nodes (got "
                    "%d nodes, dimension %d): use --mce-nodes=2^d\n",
                    c->nodes, c->dim);
        status = 2;
        goto done;
    }
    c->lcols = (c->dim + 1) / 2;
    c->cols = 1 << c->lcols;
    c->rows = 1 << (c->dim / 2);
    grid_pos(c, c->me, &c->gr, &c->gc);
    for (int d = 0; d < NDIR; d++)
        c->nb[d] = grid_node(c, c->gr + dir_dr[d], c->gc + dir_dc[d]);

    if (o.pixel_cost_given) {
        c->ps = (mce_time_t)(o.pixel_cost_us * (double)MCE_US + 0.5);
        cost_from = "--pixel-cost-us";
    } else if (mce_machine_param("app.sobel_pixel", &param) == MCE_OK &&
               param >= 0) {
        c->ps = (mce_time_t)param;
    } else {
        c->ps = DEFAULT_PIXEL_PS;
        cost_from = "default";
        if (c->me == 0)
            fprintf(stderr,
                    "sobel_edge: machine '%s' has no app.sobel_pixel: "
                    "charging 40 us per pixel\n",
                    mce_machine_name());
    }

    if (o.input) {
        int W = 0, H = 0, rc = share_input(c, &o, &input, &W, &H);
        if (rc != 0) {
            status = rc == 2 ? 2 : 1;
            goto done;
        }
        sizes[0] = W;
        sizes[1] = H;
        nsizes = 1;
    } else {
        memcpy(sizes, o.sizes, sizeof sizes);
        nsizes = o.nsizes;
    }
    for (int k = 0; k < nsizes; k++) {
        int W = o.input ? sizes[0] : sizes[k];
        int H = o.input ? sizes[1] : sizes[k];
        if (W % c->cols != 0 || H % c->rows != 0) {
            if (c->me == 0)
                fprintf(stderr,
                        "sobel_edge: a %dx%d image does not divide into "
                        "equal subimages over a %dx%d grid of nodes\n",
                        W, H, c->rows, c->cols);
            status = 2;
            goto done;
        }
    }
    if (c->me == 0) {
        app_note("sobel_edge: %d nodes as a %dx%d grid on '%s', %.3f us per "
                 "pixel (%s), compute mode %s\n",
                 c->nodes, c->rows, c->cols, mce_machine_name(),
                 (double)c->ps / (double)MCE_US, cost_from,
                 mce_compute_mode() == MCE_COMPUTE_EXPLICIT   ? "explicit"
                 : mce_compute_mode() == MCE_COMPUTE_MEASURED ? "measured"
                                                              : "none");
        app_note("sobel_edge: virtual ms of the Sobel phase (edge exchange "
                 "and computation): total of the slowest node, means of "
                 "calc, comm (calls and interrupts) and wait\n");
        app_note("%9s  %-8s %10s %10s %10s %10s %9s %8s %8s\n", "image",
                 "scheme", "total_ms", "calc_ms", "comm_ms", "wait_ms",
                 "calc_frac", "speedup", "ext/std");
        fflush(stdout);
    }
    status = run_all(c, &o, sizes, nsizes, input);
    if (c->me == 0 && status == 0)
        app_finish();
done:
    free(input);
    free(c->msg);
    free(c);
    return status;
}
