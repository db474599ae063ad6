/* Complete-exchange schedules for an n x n mesh with row-column routing:
 * Scott's contention-free permutations in the collapsible order of Bokhari
 * and Nicol ("Balancing contention and synchronization on the Intel
 * Paragon", 1996), the naive schedule, collapsing, and a checker.
 *
 * Plain C11, no global state.  Nodes are numbered row-major:
 * node = row * n + col.  Every function returns 0 (CX_OK) or a negative
 * CX_E* code; constructors write their output only on success. */
#ifndef CX_SCHEDULE_H
#define CX_SCHEDULE_H

#include <stddef.h>

/* Return codes. */
#define CX_OK       0
#define CX_EINVAL   (-1) /* bad argument (size, contention, NULL, ...) */
#define CX_ENOMEM   (-2) /* allocation failed or size overflow */
#define CX_EDEST    (-3) /* destination out of range, < -1, or to self */
#define CX_ESEND    (-4) /* a node sends more than allowed in one step */
#define CX_ERECV    (-5) /* a node receives more than allowed in a step */
#define CX_ELINK    (-6) /* a directed link is loaded beyond the bound */
#define CX_EDUP     (-7) /* an ordered pair is sent more than once */
#define CX_EMISSING (-8) /* an ordered pair i != j is never sent */

/* Largest mesh side accepted by cx_scott_collapsible (n^5/4 ints). */
#define CX_SCOTT_MAX_N 64
/* Largest mesh side accepted by cx_naive. */
#define CX_NAIVE_MAX_N 128

/* A schedule: nsteps steps on an n x n mesh.  In step p node i sends up to
 * `width` messages, to the nodes dest[(p * nnodes + i) * width + k],
 * k = 0..width-1; an entry of -1 means "no message" (entries are packed:
 * the used ones come first).
 *
 * - Permutation schedules (cx_scott_collapsible, cx_naive) have width 1:
 *   nsteps is the number of permutations P and dest[p * nnodes + i] is the
 *   destination of node i in permutation p, or -1 when i is idle.
 * - A collapsed schedule (cx_collapse with factor c) has width c: step g is
 *   the union of permutations g*c .. g*c+c-1 of the source, i.e. the
 *   stretch between two barriers when a barrier is placed after every c
 *   permutations; node i's messages are listed in permutation order. */
typedef struct cx_schedule {
    int n;      /* mesh side; nodes are 0..n*n-1 */
    int nnodes; /* n * n */
    int nsteps; /* number of steps (= permutations when width == 1) */
    int width;  /* destination slots per node and step */
    int *dest;  /* nsteps * nnodes * width entries */
} cx_schedule_t;

/* Slot array (width entries) of node i in step p. */
static inline int *cx_slots(const cx_schedule_t *s, int p, int i)
{
    return s->dest + ((size_t)p * (size_t)s->nnodes + (size_t)i) * s->width;
}

/* Allocate an empty schedule (every slot -1).  n >= 1, nsteps >= 0,
 * width >= 1. */
int cx_schedule_init(cx_schedule_t *s, int n, int nsteps, int width);
/* Release s->dest and zero *s.  NULL or already-freed schedules are fine. */
void cx_schedule_free(cx_schedule_t *s);

/* Scott's complete exchange for an n x n mesh, n a multiple of 4 with
 * 4 <= n <= CX_SCOTT_MAX_N: n^3/4 permutations, each with link contention 1
 * and node contention 1 under row-column routing, covering every ordered
 * pair (i, j), i != j, exactly once, in collapsible order: for every c that
 * divides n/4, the aligned groups of c consecutive permutations have
 * pairwise disjoint senders and pairwise disjoint receivers (this ordering
 * also collapses for every c <= n/4 that divides n/2, e.g. c = 2 for
 * n = 12).
 * Returns CX_EINVAL for other n. */
int cx_scott_collapsible(int n, cx_schedule_t *out);

/* The naive schedule: N - 1 permutations (N = n*n, 2 <= n <=
 * CX_NAIVE_MAX_N); in permutation k-1 (k = 1..N-1) node i sends to
 * (i + k) mod N.  No link-contention bound. */
int cx_naive(int n, cx_schedule_t *out);

/* The naive algorithm as the paper words it ("simply transmits blocks of
 * data from each processor to the remaining processors without regard for
 * link or node contention"): N - 1 steps of width 1 in which node i sends,
 * in step p (p = 0..N-2), to node p if p < i and to p + 1 otherwise, so
 * every node addresses node 0 first, then node 1, ...  The steps are not
 * permutations (node p is every other node's destination in step p). */
int cx_naive_index(int n, cx_schedule_t *out);

/* Collapse c consecutive steps of s into one (barrier after every c steps):
 * out has ceil(s->nsteps / c) steps and width s->width * c; the last step
 * is the union of the remaining steps when c does not divide s->nsteps. */
int cx_collapse(const cx_schedule_t *s, int c, cx_schedule_t *out);

/* One kind of violation found by the checker: how many times it happened
 * and where it happened first (scan order: step, then node / link id). */
typedef struct cx_violation {
    long count; /* 0 when this kind never happened */
    int step;   /* collapsed step (group) of the first one; -1 if none or
                   for missing pairs */
    int a, b;   /* first one: send/recv: a = node; link: a -> b is the
                   directed link; dup/missing/dest: pair a -> b */
    int load;   /* first one: messages (send/recv/link), times sent (dup) */
} cx_violation_t;

typedef struct cx_report {
    int status;     /* same as the return value */
    int group;      /* steps of s per collapsed step */
    int ngroups;    /* number of collapsed steps checked */
    int bound_link; /* allowed messages per directed link and step */
    int bound_node; /* allowed sends (and receives) per node and step */
    long messages;  /* valid messages in the schedule */
    int max_send;   /* max messages sent by one node in one step */
    int max_recv;   /* max messages received by one node in one step */
    int max_link;   /* max messages on one directed link in one step */
    cx_violation_t dest, send, recv, link, dup, missing;
    char msg[256]; /* "ok" or a description of the reported violation */
} cx_report_t;

/* Check s, grouping c consecutive steps into one collapsed step (the last
 * group may be shorter).  For every collapsed step: node contention
 * (messages sent / received by one node) must be 1, link contention under
 * row-column routing (directed links, row first then column) must be <= c,
 * and over the whole schedule every ordered pair i != j must be sent exactly
 * once.  Returns CX_OK, CX_EINVAL (r untouched), CX_ENOMEM, or the first of
 * CX_EDEST, CX_ESEND, CX_ERECV, CX_ELINK, CX_EDUP, CX_EMISSING (in that
 * priority order) that occurred; r gets maxima and all violation records
 * in every case but CX_EINVAL/CX_ENOMEM. */
int cx_check(const cx_schedule_t *s, int c, cx_report_t *r);

/* General form: group steps of s into collapsed steps, allow max_link
 * messages per directed link and max_node sends/receives per node in each
 * collapsed step.  cx_check(s, c, r) == cx_check_ex(s, c, c, 1, r). */
int cx_check_ex(const cx_schedule_t *s, int group, int max_link, int max_node,
                cx_report_t *r);

/* Static name of a return code ("CX_ELINK", ...). */
const char *cx_strerror(int code);

#endif
