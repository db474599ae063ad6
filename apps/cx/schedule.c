/* Complete-exchange schedules on an n x n mesh (see schedule.h).
 *
 * Construction (n = 4q, h = n/2, rho(x) = n-1-x mirrors a line of n nodes):
 *
 * 1-D quads.  For a, b in the left half [0, h) a "quad" is a partial
 * permutation of four line positions:
 *   a != b:  Q(a,b) = the 4-cycle a -> b -> rho(a) -> rho(b) -> a
 *   a == b:  Q(a,a) = {a -> a, s -> rho(s), rho(s) -> s, rho(a) -> rho(a)}
 *            with s = a xor 1.
 * Each quad has exactly one arc crossing the middle in each direction and
 * its arcs going the same way use disjoint links (for Q(a,b), a<b: right
 * links [a,b) and [b,n-1-a), left links [n-1-b,n-1-a) and [a,n-1-b);
 * a>b is the mirror image), so a quad has link contention 1 on a line.
 * The h^2 quads cover all n^2 ordered pairs of the line (self pairs
 * included) exactly once: a->b is left-internal, rho(a)->rho(b)
 * right-internal, b->rho(a) and rho(b)->a are the crossing pairs whose
 * source and mirrored destination differ; the loops and the swaps
 * s <-> rho(s) of the Q(a,a) supply the rest.
 *
 * 1-D classes.  Q(a,b) and Q(b,a) (and Q(a,a) when b = a xor 1) live on
 * the mirror-closed set {a, b, rho(a), rho(b)}.  A 1-factorisation of K_h
 * (circle method, relabelled so that its first matching is {2k, 2k+1}) gives
 * h-1 perfect matchings of [0,h); each matching yields two classes (all
 * Q(x,y), all Q(y,x)) and the loop quads Q(2k,2k), Q(2k+1,2k+1) two more:
 * n classes of q quads, each class a full permutation of the line.
 *
 * 2-D cross product.  A column quad A (arcs c -> c') and a row quad B (arcs
 * r -> r') give the 16 messages (r,c) -> (r',c').  In row r (r a source of
 * B) the row legs are the arcs of A; in column c' (a destination of A) the
 * column legs are the arcs of B; both have link contention 1, each node
 * sends and receives at most once.  Permutation (alpha, beta, s) takes
 * class alpha for the columns and class beta for the rows and combines
 * column quad i with row quad (i+s) mod q, i = 0..q-1.  The row quads of a
 * class have disjoint sources, so every row is driven by one combination
 * only; the column quads have disjoint destinations, so every column is fed
 * by one combination only: link contention 1, node contention 1.  Self
 * messages (both arcs loops) are dropped, so a permutation has 4n messages
 * minus its fixed points: a fraction ~4/n of the nodes is active.
 * n * n * q = n^3/4 permutations cover every ordered pair exactly once.
 *
 * Collapsing.  Permutations are ordered (alpha, beta, s), s fastest.  Node
 * (r,c) sends in (alpha, beta, s) iff r is a source of row quad j and c a
 * source of column quad i with j = i + s (mod q); since a class's quads
 * have disjoint sources (and disjoint destinations), every node sends (and
 * receives) exactly once in each aligned block of q = n/4 permutations
 * (counting self messages as idle).  For c dividing n/4 the aligned groups
 * of c permutations lie inside one block, so they have disjoint senders and
 * receivers: collapsing gives node contention 1 and link contention <= c
 * in n^3/(4c) steps (== c in fact: every permutation loads each row's two
 * middle links).  Moreover blocks come in pairs (beta = 2t, 2t+1) whose
 * classes are Q(x,y) / Q(y,x) on the same sets, so a group straddling such
 * a boundary still has distinct shifts: any c <= n/4 dividing n/2 works
 * (e.g. c = 2 for n = 12, 20, 28 and c = 4 for n = 24).  The first two
 * permutations for n = 8 are those of Figure 5 of the paper, and the three
 * of its Figure 4 occur in the n = 8 schedule. */
#include "schedule.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* Schedule storage                                                        */

static int alloc_dest(size_t nsteps, size_t nnodes, size_t width, int **out)
{
    size_t cnt;
    int *d;

    if (nnodes != 0 && nsteps > SIZE_MAX / nnodes)
        return CX_ENOMEM;
    cnt = nsteps * nnodes;
    if (width != 0 && cnt > SIZE_MAX / width)
        return CX_ENOMEM;
    cnt *= width;
    if (cnt > SIZE_MAX / sizeof(int))
        return CX_ENOMEM;
    d = malloc(cnt ? cnt * sizeof(int) : 1);
    if (!d)
        return CX_ENOMEM;
    for (size_t k = 0; k < cnt; k++)
        d[k] = -1;
    *out = d;
    return CX_OK;
}

int cx_schedule_init(cx_schedule_t *s, int n, int nsteps, int width)
{
    int *d, rc;

    if (!s || n < 1 || n > 46340 || nsteps < 0 || width < 1)
        return CX_EINVAL;
    rc = alloc_dest((size_t)nsteps, (size_t)n * (size_t)n, (size_t)width, &d);
    if (rc)
        return rc;
    s->n = n;
    s->nnodes = n * n;
    s->nsteps = nsteps;
    s->width = width;
    s->dest = d;
    return CX_OK;
}

void cx_schedule_free(cx_schedule_t *s)
{
    if (!s)
        return;
    free(s->dest);
    memset(s, 0, sizeof(*s));
}

static int valid_schedule(const cx_schedule_t *s)
{
    return s && s->n >= 1 && s->n <= 46340 && s->nnodes == s->n * s->n &&
           s->nsteps >= 0 && s->width >= 1 && (s->dest || s->nsteps == 0);
}

/* ---------------------------------------------------------------------- */
/* Scott's schedule in collapsible order                                   */

typedef struct cx_quad {
    int src[4], dst[4];
} cx_quad_t;

static void quad_make(int n, int a, int b, cx_quad_t *qd)
{
    int ra = n - 1 - a, rb = n - 1 - b;
    int v[4][2];

    if (a != b) {
        /* a -> b -> rho(a) -> rho(b) -> a */
        int cyc[4] = {a, b, ra, rb};
        for (int k = 0; k < 4; k++) {
            v[k][0] = cyc[k];
            v[k][1] = cyc[(k + 1) % 4];
        }
    } else {
        int sx = a ^ 1, rs = n - 1 - sx;
        v[0][0] = a, v[0][1] = a;
        v[1][0] = sx, v[1][1] = rs;
        v[2][0] = rs, v[2][1] = sx;
        v[3][0] = ra, v[3][1] = ra;
    }
    for (int k = 0; k < 4; k++) {
        qd->src[k] = v[k][0];
        qd->dst[k] = v[k][1];
    }
}

/* Relabelling of the circle-method vertices so that its matching 0,
 * {k, h-1-k}, becomes {2k, 2k+1}. */
static int relabel(int h, int x)
{
    return x < h / 2 ? 2 * x : 2 * (h - 1 - x) + 1;
}

/* n classes of q = n/4 quads each: cls[t * q + i]. */
static void build_classes(int n, cx_quad_t *cls)
{
    int h = n / 2, q = n / 4, m = h - 1;

    for (int r = 0; r < m; r++) {
        for (int i = 0; i < q; i++) {
            int x, y;
            if (i == 0) {
                x = r;
                y = h - 1;
            } else {
                x = (r + i) % m;
                y = (r - i + m) % m;
            }
            x = relabel(h, x);
            y = relabel(h, y);
            quad_make(n, x, y, &cls[(2 * r) * q + i]);
            quad_make(n, y, x, &cls[(2 * r + 1) * q + i]);
        }
    }
    for (int i = 0; i < q; i++) {
        quad_make(n, 2 * i, 2 * i, &cls[(n - 2) * q + i]);
        quad_make(n, 2 * i + 1, 2 * i + 1, &cls[(n - 1) * q + i]);
    }
}

int cx_scott_collapsible(int n, cx_schedule_t *out)
{
    cx_schedule_t s;
    cx_quad_t *cls;
    int q, rc, N;

    if (!out || n < 4 || n > CX_SCOTT_MAX_N || n % 4 != 0)
        return CX_EINVAL;
    q = n / 4;
    N = n * n;
    cls = malloc((size_t)n * (size_t)q * sizeof(*cls));
    if (!cls)
        return CX_ENOMEM;
    rc = cx_schedule_init(&s, n, n * n * q, 1);
    if (rc) {
        free(cls);
        return rc;
    }
    build_classes(n, cls);

    for (int alpha = 0; alpha < n; alpha++) {
        for (int beta = 0; beta < n; beta++) {
            for (int sh = 0; sh < q; sh++) {
                int p = (alpha * n + beta) * q + sh;
                int *d = s.dest + (size_t)p * (size_t)N;
                for (int i = 0; i < q; i++) {
                    const cx_quad_t *A = &cls[alpha * q + i];
                    const cx_quad_t *B = &cls[beta * q + (i + sh) % q];
                    for (int kb = 0; kb < 4; kb++) {
                        for (int ka = 0; ka < 4; ka++) {
                            int from = B->src[kb] * n + A->src[ka];
                            int to = B->dst[kb] * n + A->dst[ka];
                            if (from != to)
                                d[from] = to;
                        }
                    }
                }
            }
        }
    }
    free(cls);
    *out = s;
    return CX_OK;
}

/* ---------------------------------------------------------------------- */
/* Naive schedule                                                          */

int cx_naive(int n, cx_schedule_t *out)
{
    cx_schedule_t s;
    int rc, N;

    if (!out || n < 2 || n > CX_NAIVE_MAX_N)
        return CX_EINVAL;
    N = n * n;
    rc = cx_schedule_init(&s, n, N - 1, 1);
    if (rc)
        return rc;
    for (int k = 1; k < N; k++) {
        int *d = s.dest + (size_t)(k - 1) * (size_t)N;
        for (int i = 0; i < N; i++)
            d[i] = (i + k) % N;
    }
    *out = s;
    return CX_OK;
}

int cx_naive_index(int n, cx_schedule_t *out)
{
    cx_schedule_t s;
    int rc, N;

    if (!out || n < 2 || n > CX_NAIVE_MAX_N)
        return CX_EINVAL;
    N = n * n;
    rc = cx_schedule_init(&s, n, N - 1, 1);
    if (rc)
        return rc;
    for (int p = 0; p < N - 1; p++) {
        int *d = s.dest + (size_t)p * (size_t)N;
        for (int i = 0; i < N; i++)
            d[i] = p < i ? p : p + 1;
    }
    *out = s;
    return CX_OK;
}

/* ---------------------------------------------------------------------- */
/* Collapsing                                                              */

int cx_collapse(const cx_schedule_t *s, int c, cx_schedule_t *out)
{
    cx_schedule_t o;
    int rc, ng, w;

    if (!valid_schedule(s) || !out || c < 1 || s->width > INT_MAX / c)
        return CX_EINVAL;
    ng = s->nsteps / c + (s->nsteps % c != 0);
    w = s->width * c;
    rc = cx_schedule_init(&o, s->n, ng, w);
    if (rc)
        return rc;
    for (int g = 0; g < ng; g++) {
        int p0 = g * c;
        int p1 = p0 + c < s->nsteps ? p0 + c : s->nsteps;
        for (int i = 0; i < s->nnodes; i++) {
            int *dst = cx_slots(&o, g, i), used = 0;
            for (int p = p0; p < p1; p++) {
                const int *src = cx_slots(s, p, i);
                for (int k = 0; k < s->width; k++)
                    if (src[k] != -1)
                        dst[used++] = src[k];
            }
        }
    }
    *out = o;
    return CX_OK;
}

/* ---------------------------------------------------------------------- */
/* Checker                                                                 */

enum { DIR_E, DIR_W, DIR_S, DIR_N };

static int link_head(int n, int node, int dir)
{
    switch (dir) {
    case DIR_E:
        return node + 1;
    case DIR_W:
        return node - 1;
    case DIR_S:
        return node + n;
    default:
        return node - n;
    }
}

static void viol_init(cx_violation_t *v)
{
    v->count = 0;
    v->step = -1;
    v->a = -1;
    v->b = -1;
    v->load = 0;
}

static void viol_add(cx_violation_t *v, int step, int a, int b, int load)
{
    if (v->count++ == 0) {
        v->step = step;
        v->a = a;
        v->b = b;
        v->load = load;
    }
}

/* Add one message src -> dst to the directed link loads (row first, then
 * column). */
static void route(int n, int src, int dst, int *load)
{
    int r = src / n, c = src % n, r2 = dst / n, c2 = dst % n;
    int node = src;

    while (c != c2) {
        int dir = c2 > c ? DIR_E : DIR_W;
        load[node * 4 + dir]++;
        c += c2 > c ? 1 : -1;
        node = r * n + c;
    }
    while (r != r2) {
        int dir = r2 > r ? DIR_S : DIR_N;
        load[node * 4 + dir]++;
        r += r2 > r ? 1 : -1;
        node = r * n + c;
    }
}

static void describe(cx_report_t *r, int n)
{
    const cx_violation_t *v;
    char *m = r->msg;
    size_t sz = sizeof(r->msg);

    switch (r->status) {
    case CX_OK:
        snprintf(m, sz,
                 "ok: %d steps, max send %d, max recv %d, max link %d, "
                 "%ld messages",
                 r->ngroups, r->max_send, r->max_recv, r->max_link,
                 r->messages);
        return;
    case CX_EDEST:
        v = &r->dest;
        snprintf(m, sz, "step %d: node %d has invalid destination %d", v->step,
                 v->a, v->b);
        break;
    case CX_ESEND:
    case CX_ERECV:
        v = r->status == CX_ESEND ? &r->send : &r->recv;
        snprintf(m, sz, "step %d: node %d (%d,%d) %s %d messages (bound %d)",
                 v->step, v->a, v->a / n, v->a % n,
                 r->status == CX_ESEND ? "sends" : "receives", v->load,
                 r->bound_node);
        break;
    case CX_ELINK:
        v = &r->link;
        snprintf(m, sz,
                 "step %d: link %d (%d,%d) -> %d (%d,%d) carries %d "
                 "messages (bound %d)",
                 v->step, v->a, v->a / n, v->a % n, v->b, v->b / n, v->b % n,
                 v->load, r->bound_link);
        break;
    case CX_EDUP:
        v = &r->dup;
        snprintf(m, sz, "step %d: pair %d -> %d sent again (%ld duplicates)",
                 v->step, v->a, v->b, v->count);
        break;
    case CX_EMISSING:
        v = &r->missing;
        snprintf(m, sz, "pair %d -> %d never sent (%ld pairs missing)", v->a,
                 v->b, v->count);
        break;
    default:
        snprintf(m, sz, "%s", cx_strerror(r->status));
        return;
    }
}

int cx_check_ex(const cx_schedule_t *s, int group, int max_link, int max_node,
                cx_report_t *r)
{
    cx_report_t rep;
    unsigned char *cover;
    int *load, *snd, *rcv;
    int n, N, ng;

    if (!valid_schedule(s) || !r || group < 1 || max_link < 0 || max_node < 0)
        return CX_EINVAL;
    n = s->n;
    N = s->nnodes;
    if ((size_t)N > SIZE_MAX / (size_t)N)
        return CX_ENOMEM;
    cover = calloc((size_t)N * (size_t)N, 1);
    load = malloc((size_t)N * 4 * sizeof(int));
    snd = malloc((size_t)N * sizeof(int));
    rcv = malloc((size_t)N * sizeof(int));
    if (!cover || !load || !snd || !rcv) {
        free(cover);
        free(load);
        free(snd);
        free(rcv);
        return CX_ENOMEM;
    }

    memset(&rep, 0, sizeof(rep));
    rep.group = group;
    ng = s->nsteps / group + (s->nsteps % group != 0);
    rep.ngroups = ng;
    rep.bound_link = max_link;
    rep.bound_node = max_node;
    viol_init(&rep.dest);
    viol_init(&rep.send);
    viol_init(&rep.recv);
    viol_init(&rep.link);
    viol_init(&rep.dup);
    viol_init(&rep.missing);

    for (int g = 0; g < ng; g++) {
        int p0 = g * group;
        int p1 = s->nsteps - p0 > group ? p0 + group : s->nsteps;
        memset(load, 0, (size_t)N * 4 * sizeof(int));
        memset(snd, 0, (size_t)N * sizeof(int));
        memset(rcv, 0, (size_t)N * sizeof(int));
        for (int p = p0; p < p1; p++) {
            for (int i = 0; i < N; i++) {
                const int *d = cx_slots(s, p, i);
                for (int k = 0; k < s->width; k++) {
                    int t = d[k];
                    unsigned char *cv;
                    if (t == -1)
                        continue;
                    if (t < -1 || t >= N || t == i) {
                        viol_add(&rep.dest, g, i, t, 1);
                        continue;
                    }
                    rep.messages++;
                    snd[i]++;
                    rcv[t]++;
                    cv = &cover[(size_t)i * (size_t)N + (size_t)t];
                    if (*cv >= 1)
                        viol_add(&rep.dup, g, i, t, *cv + 1);
                    if (*cv < UCHAR_MAX)
                        (*cv)++;
                    route(n, i, t, load);
                }
            }
        }
        for (int i = 0; i < N; i++) {
            if (snd[i] > rep.max_send)
                rep.max_send = snd[i];
            if (rcv[i] > rep.max_recv)
                rep.max_recv = rcv[i];
            if (snd[i] > max_node)
                viol_add(&rep.send, g, i, -1, snd[i]);
            if (rcv[i] > max_node)
                viol_add(&rep.recv, g, i, -1, rcv[i]);
        }
        for (int l = 0; l < 4 * N; l++) {
            if (load[l] > rep.max_link)
                rep.max_link = load[l];
            if (load[l] > max_link)
                viol_add(&rep.link, g, l / 4, link_head(n, l / 4, l % 4),
                         load[l]);
        }
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            if (i != j && cover[(size_t)i * (size_t)N + (size_t)j] == 0)
                viol_add(&rep.missing, -1, i, j, 0);

    if (rep.dest.count)
        rep.status = CX_EDEST;
    else if (rep.send.count)
        rep.status = CX_ESEND;
    else if (rep.recv.count)
        rep.status = CX_ERECV;
    else if (rep.link.count)
        rep.status = CX_ELINK;
    else if (rep.dup.count)
        rep.status = CX_EDUP;
    else if (rep.missing.count)
        rep.status = CX_EMISSING;
    else
        rep.status = CX_OK;
    describe(&rep, n);

    free(cover);
    free(load);
    free(snd);
    free(rcv);
    *r = rep;
    return rep.status;
}

int cx_check(const cx_schedule_t *s, int c, cx_report_t *r)
{
    return cx_check_ex(s, c, c, 1, r);
}

const char *cx_strerror(int code)
{
    switch (code) {
    case CX_OK:
        return "CX_OK";
    case CX_EINVAL:
        return "CX_EINVAL";
    case CX_ENOMEM:
        return "CX_ENOMEM";
    case CX_EDEST:
        return "CX_EDEST";
    case CX_ESEND:
        return "CX_ESEND";
    case CX_ERECV:
        return "CX_ERECV";
    case CX_ELINK:
        return "CX_ELINK";
    case CX_EDUP:
        return "CX_EDUP";
    case CX_EMISSING:
        return "CX_EMISSING";
    default:
        return "unknown cx error";
    }
}
