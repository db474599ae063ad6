/* Helpers shared by the iWarp programs (apps/iwarp, apps/tcs): option
 * lists, usage and failure exits, machine-file constants, and connection
 * sets configured by direct configuration. */
#ifndef IWAPP_H
#define IWAPP_H

/* Parses "4,16,64" or "1..7" (or a mix) into out; returns the count or
 * -1 on a malformed list. */
int iwapp_parse_list(const char *s, long *out, int max);

/* Bad usage: cell 0 prints "prog: msg", every cell exits with status 2. */
_Noreturn void iwapp_die(const char *prog, const char *msg);

/* --sizes of the ping-pongs: multiples of 4 up to 16384 bytes, or bad
 * usage. */
void iwapp_check_sizes(const char *prog, const long *sizes, int n);

/* A failed iWarp call (rc < 0) ends the run with status 1. */
void iwapp_check(const char *prog, int rc, const char *what);

/* The machine file's key @p key (app.*, iwarp.*, ...); a missing key ends
 * the run as bad usage, naming the file to fix. */
long iwapp_param(const char *prog, const char *key);

/* ---- connection sets (straight routes, configured by every cell) ------- */

#define IWAPP_MAXHOP 16

/* One PCT connection along one axis: @c hops steps in direction @c dir
 * (IW_XP ...) from @c src to @c dst; cell[k] and pct[k] per cell.
 * @c share >= 0: its source PCT is connection @c share's (same src),
 * re-pointed to it when used (iwapp_conn_repoint); -1: its own. */
typedef struct iwapp_conn {
    int src, dst, dir, hops, share;
    int cell[IWAPP_MAXHOP + 1], pct[IWAPP_MAXHOP + 1];
} iwapp_conn_t;

/* A set of connections in caller storage on an aw x ah torus. */
typedef struct iwapp_conns {
    iwapp_conn_t *con;
    int n, cap, aw, ah;
    const char *prog;
} iwapp_conns_t;

/* A zeroed table of @p cap connections on the heap, for a cell's own use
 * (exits with a message when memory is short): a program's globals are
 * copied for every cell at each context switch, so large per-cell tables
 * belong on the heap. */
iwapp_conn_t *iwapp_conn_table(const char *prog, int cap);
int iwapp_log2(int v); /* ceil(log2 v) */
/* The neighbour of @p cell in direction @p dir (torus). */
int iwapp_step(const iwapp_conns_t *s, int cell, int dir);
int iwapp_opposite(int dir);
/* The snake ring over the w x h rectangle at the corner of an array aw
 * wide: row 0 left to right, rows 1..h-1 boustrophedon over columns
 * 1..w-1, back up column 0.  Fills order[]; returns its length. */
int iwapp_snake(int aw, int w, int h, int *order);
/* Add a connection of @p hops steps from @p src in direction @p dir. */
void iwapp_conn_add(iwapp_conns_t *s, int src, int dir, int hops);
/* Straight mesh route (no wrap) between two cells of one row or column. */
void iwapp_conn_straight(iwapp_conns_t *s, int a, int b);
/* A 2-D ring edge from @p a at position @p pos of a row or column of
 * @p len cells: one hop in direction @p fwd, or back to the start (over
 * the wrap link in direction @p fwd when the ring is @p full, else
 * len - 1 hops in direction @p back). */
void iwapp_conn_ring_edge(iwapp_conns_t *s, int a, int pos, int len, int full,
                          int fwd, int back);
/* Number the PCTs of every cell in connection order from @p base (a
 * connection sharing a source PCT takes its owner's); returns the largest
 * count of one cell and (if @p worst) its lowest-numbered cell. */
int iwapp_conn_pcts(iwapp_conns_t *s, int base, int *worst);
/* This cell's part of every connection: configure its PCTs, or release
 * them. */
void iwapp_conn_configure(const iwapp_conns_t *s, int me, int release);
/* Point the shared source PCT of connection @p c (this cell its src) at
 * connection @p c (iwarp_pct_repoint: waits for its words to leave, costs
 * iwarp.pct_config). */
void iwapp_conn_repoint(const iwapp_conns_t *s, int c);

#endif
