/* Block placement gives rank r a contiguous run of nodes (the first
 * nodes % ranks ranks one extra); cyclic deals nodes out round-robin;
 * one is block with exactly one node per rank.  Topology placement cuts
 * the machine recursively (recursive coordinate bisection): so that
 * neighbours share a rank, each rank gets a subcube of a hypercube or a
 * block of a mesh when the counts allow, and the cuts, placed by node
 * count or by measured weight, keep the ranks balanced. */
#include "place.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

/* ---- block and cyclic: arithmetic ---------------------------------------- */

static int block_first(const mcei_place_t *p, int rank)
{
    int q = p->nodes / p->ranks, r = p->nodes % p->ranks;
    return rank * q + (rank < r ? rank : r);
}

int mcei_place_count(const mcei_place_t *p, int rank)
{
    if (p->start != NULL)
        return p->start[rank + 1] - p->start[rank];
    int q = p->nodes / p->ranks, r = p->nodes % p->ranks;
    return q + (rank < r ? 1 : 0);
}

int mcei_place_node(const mcei_place_t *p, int rank, int i)
{
    if (p->list != NULL)
        return p->list[p->start[rank] + i];
    if (p->policy == MCEI_PLACE_CYCLIC)
        return rank + i * p->ranks;
    return block_first(p, rank) + i;
}

int mcei_place_local_index(const mcei_place_t *p, int node)
{
    if (p->index != NULL)
        return p->index[node];
    if (p->policy == MCEI_PLACE_CYCLIC)
        return node / p->ranks;
    return node - block_first(p, mcei_place_rank_of(p, node));
}

const char *mcei_place_policy_name(mcei_placement_t policy)
{
    switch (policy) {
    case MCEI_PLACE_CYCLIC:
        return "cyclic";
    case MCEI_PLACE_ONE:
        return "one";
    case MCEI_PLACE_TOPOLOGY:
        return "topology";
    case MCEI_PLACE_BLOCK:
        break;
    }
    return "block";
}

/* ---- recursive bisection --------------------------------------------------
 */

typedef struct rcb {
    const mcei_topo_t *topo;
    int nodes, axes, dim;
    const uint64_t *w; /* NULL: every node weighs 1 */
    int32_t *owner;
    int32_t *mark; /* per node: stamp of the side it was put on */
    int32_t stamp;
    int32_t *cand, *best; /* a region's nodes ordered along an axis */
    int32_t *bucket;      /* counting sort by a mesh column */
} rcb_t;

static uint64_t weight_of(const rcb_t *c, int node)
{
    return c->w != NULL ? c->w[node] : 1;
}

/* Coordinate of @p node along @p axis.  Axis 0 is the one along which ids
 * are contiguous (mesh rows, the highest bit of a cube): where the
 * topology cannot choose, the cut is block placement's. */
static int coord(const rcb_t *c, int node, int axis)
{
    switch (c->topo->kind) {
    case MCEI_TOPO_MESH:
        return axis == 1 ? node % c->topo->width : node / c->topo->width;
    case MCEI_TOPO_HYPERCUBE:
        return (node >> (c->dim - 1 - axis)) & 1; /* axis 0: highest bit */
    case MCEI_TOPO_NONE:
        break;
    }
    return node;
}

/* Links from the nodes of @p part to those stamped @p b. */
static uint64_t cut_links(const rcb_t *c, const int32_t *part, int n, int32_t b)
{
    uint64_t cut = 0;
    const mcei_topo_t *t = c->topo;
    for (int i = 0; i < n; i++) {
        int v = part[i];
        if (t->kind == MCEI_TOPO_HYPERCUBE) {
            for (int d = 0; d < c->dim; d++)
                cut += c->mark[v ^ (1 << d)] == b;
        } else if (t->kind == MCEI_TOPO_MESH) {
            int x = v % t->width, y = v / t->width, nb[4], k = 0;
            if (x + 1 < t->width || (t->wrap_x && t->width > 2))
                nb[k++] = y * t->width + (x + 1) % t->width;
            if (x > 0 || (t->wrap_x && t->width > 2))
                nb[k++] = y * t->width + (x + t->width - 1) % t->width;
            if (y + 1 < t->height || (t->wrap_y && t->height > 2))
                nb[k++] = ((y + 1) % t->height) * t->width + x;
            if (y > 0 || (t->wrap_y && t->height > 2))
                nb[k++] = ((y + t->height - 1) % t->height) * t->width + x;
            for (int j = 0; j < k; j++)
                cut += c->mark[nb[j]] == b;
        }
    }
    return cut;
}

typedef struct split {
    int k;        /* nodes on the low side */
    u128 err;     /* |W(k) x ranks - total x ranks_low| */
    uint64_t cut; /* links cut */
    int extent;   /* the region's extent along the axis */
} split_t;

/* Order the region @p reg (@p n nodes, increasing ids) along @p axis into
 * c->cand, by (coordinate, id), so that a cut inside a line of nodes takes
 * a run of that line (a block plus a partial line); and find the cut that
 * gives @p lo of @p ranks ranks their share.  A stable counting sort of
 * the id order: O(n + extent). */
static split_t try_axis(rcb_t *c, const int32_t *reg, int n, int lo, int ranks,
                        int axis)
{
    split_t s = {0, 0, 0, 0};
    uint64_t total = 0, run = 0;
    int cmin = coord(c, reg[0], axis), cmax = cmin;
    for (int i = 0; i < n; i++) {
        int x = coord(c, reg[i], axis);
        total += weight_of(c, reg[i]);
        cmin = x < cmin ? x : cmin;
        cmax = x > cmax ? x : cmax;
    }
    s.extent = cmax - cmin + 1;
    if (c->topo->kind == MCEI_TOPO_NONE ||
        (c->topo->kind == MCEI_TOPO_MESH && axis == 0)) {
        memcpy(c->cand, reg, (size_t)n * sizeof(*reg)); /* ids: rows */
    } else {
        /* extent <= max(width, 2) + 1 entries of c->bucket */
        memset(c->bucket, 0, ((size_t)s.extent + 1) * sizeof(*c->bucket));
        for (int i = 0; i < n; i++)
            c->bucket[coord(c, reg[i], axis) - cmin + 1]++;
        for (int b = 0; b < s.extent; b++)
            c->bucket[b + 1] += c->bucket[b];
        for (int i = 0; i < n; i++)
            c->cand[c->bucket[coord(c, reg[i], axis) - cmin]++] = reg[i];
    }
    u128 want = (u128)total * (u128)lo;
    int found = 0;
    for (int k = 1; k <= n - (ranks - lo); k++) {
        run += weight_of(c, c->cand[k - 1]);
        if (k < lo)
            continue;
        u128 have = (u128)run * (u128)ranks;
        u128 e = have > want ? have - want : want - have;
        if (!found || e < s.err) { /* ties: the smaller low side */
            s.k = k;
            s.err = e;
            found = 1;
        }
        if (have > want)
            break; /* the error only grows from here */
    }
    /* Links across the cut: stamp the high side, count from the low. */
    c->stamp++;
    for (int i = s.k; i < n; i++)
        c->mark[c->cand[i]] = c->stamp;
    s.cut = cut_links(c, c->cand, s.k, c->stamp);
    return s;
}

/* Give the region (@p n nodes in @p reg, increasing ids) to ranks
 * first..first+ranks-1. */
static void bisect(rcb_t *c, int32_t *reg, int n, int first, int ranks,
                   u128 tol)
{
    if (ranks == 1) {
        for (int i = 0; i < n; i++)
            c->owner[reg[i]] = first;
        return;
    }
    int lo = ranks / 2, best = -1;
    split_t bs = {0, 0, 0, 0};
    for (int axis = 0; axis < c->axes; axis++) {
        split_t s = try_axis(c, reg, n, lo, ranks, axis);
        /* Balance first (within the tolerance), then the fewest links
         * cut, then the longest extent (classic bisection), then the
         * lower axis. */
        int better;
        if (best < 0)
            better = 1;
        else if (s.err + tol < bs.err)
            better = 1;
        else if (bs.err + tol < s.err)
            better = 0;
        else if (s.cut != bs.cut)
            better = s.cut < bs.cut;
        else
            better = s.extent > bs.extent;
        if (better) {
            best = axis;
            bs = s;
            memcpy(c->best, c->cand, (size_t)n * sizeof(*c->best));
        }
    }
    /* Both sides back in increasing ids: a stable partition of reg. */
    c->stamp++;
    for (int i = 0; i < bs.k; i++)
        c->mark[c->best[i]] = c->stamp;
    for (int i = 0, a = 0, b = bs.k; i < n; i++) {
        if (c->mark[reg[i]] == c->stamp)
            c->cand[a++] = reg[i];
        else
            c->cand[b++] = reg[i];
    }
    memcpy(reg, c->cand, (size_t)n * sizeof(*reg));
    bisect(c, reg, bs.k, first, lo, tol);
    bisect(c, reg + bs.k, n - bs.k, first + lo, ranks - lo, tol);
}

static int fill_tables(mcei_place_t *p)
{
    int n = p->nodes, r = p->ranks;
    int32_t *fill = calloc((size_t)r, sizeof(*fill));
    p->index = malloc((size_t)n * sizeof(*p->index));
    p->start = calloc((size_t)r + 1, sizeof(*p->start));
    p->list = malloc((size_t)n * sizeof(*p->list));
    if (fill == NULL || p->index == NULL || p->start == NULL ||
        p->list == NULL) {
        free(fill);
        return MCE_ERR_NOMEM;
    }
    for (int v = 0; v < n; v++)
        p->start[p->owner[v] + 1]++;
    for (int k = 0; k < r; k++)
        p->start[k + 1] += p->start[k];
    for (int v = 0; v < n; v++) {
        int k = p->owner[v];
        p->index[v] = fill[k];
        p->list[p->start[k] + fill[k]++] = v;
    }
    free(fill);
    return MCE_OK;
}

static int place_rcb(mcei_place_t *p, const uint64_t *w)
{
    rcb_t c;
    int32_t *reg;
    int n = p->nodes, rc = MCE_ERR_NOMEM;
    memset(&c, 0, sizeof(c));
    c.topo = &p->topo;
    c.nodes = n;
    c.w = w;
    c.axes = 1;
    if (p->topo.kind == MCEI_TOPO_MESH)
        c.axes = 2;
    else if (p->topo.kind == MCEI_TOPO_HYPERCUBE)
        c.axes = c.dim = __builtin_ctz((unsigned)n);
    if (c.axes == 0) /* a one-node cube */
        c.axes = 1, p->topo.kind = MCEI_TOPO_NONE;
    p->owner = malloc((size_t)n * sizeof(*p->owner));
    c.owner = p->owner;
    c.mark = calloc((size_t)n, sizeof(*c.mark));
    c.cand = malloc((size_t)n * sizeof(*c.cand));
    c.best = malloc((size_t)n * sizeof(*c.best));
    c.bucket =
        calloc((size_t)(p->topo.kind == MCEI_TOPO_MESH ? p->topo.width : 2) + 2,
               sizeof(*c.bucket));
    reg = malloc((size_t)n * sizeof(*reg));
    if (p->owner == NULL || c.mark == NULL || c.cand == NULL ||
        c.best == NULL || c.bucket == NULL || reg == NULL)
        goto out;
    uint64_t total = 0;
    for (int v = 0; v < n; v++) {
        reg[v] = v;
        total += w != NULL ? w[v] : 1;
    }
    /* Two cuts within 1 % of the whole's weight (scaled like the errors:
     * by the ranks) balance alike; by node count the cuts are exact. */
    u128 tol = w != NULL ? (u128)total * (u128)p->ranks / 100 : 0;
    bisect(&c, reg, n, 0, p->ranks, tol);
    rc = fill_tables(p);
out:
    free(c.mark);
    free(c.cand);
    free(c.best);
    free(c.bucket);
    free(reg);
    return rc;
}

void mcei_place_fini(mcei_place_t *p)
{
    free(p->owner);
    free(p->index);
    free(p->start);
    free(p->list);
    free(p->weight);
    p->owner = p->index = p->start = p->list = NULL;
    p->weight = NULL;
}

int mcei_place_build(mcei_place_t *p, int nodes, int ranks,
                     mcei_placement_t policy, const mcei_topo_t *topo,
                     const uint64_t *weights, char *err, size_t errlen)
{
    mcei_place_t q;
    int rc;
    if (ranks <= 0 || nodes < ranks) {
        snprintf(err, errlen, "%d nodes cannot fill %d ranks", nodes, ranks);
        return MCE_ERR_INVAL;
    }
    if (policy != MCEI_PLACE_BLOCK && policy != MCEI_PLACE_CYCLIC &&
        policy != MCEI_PLACE_ONE && policy != MCEI_PLACE_TOPOLOGY) {
        snprintf(err, errlen, "unknown placement %d", (int)policy);
        return MCE_ERR_INVAL;
    }
    /* One node per rank: the block placement of as many nodes as ranks. */
    if (policy == MCEI_PLACE_ONE && nodes != ranks) {
        snprintf(err, errlen, "placement one needs as many nodes as ranks");
        return MCE_ERR_INVAL;
    }
    if (weights != NULL &&
        (policy == MCEI_PLACE_CYCLIC || policy == MCEI_PLACE_ONE)) {
        snprintf(err, errlen,
                 "weights balance contiguous placements (block, topology), "
                 "not %s",
                 mcei_place_policy_name(policy));
        return MCE_ERR_INVAL;
    }
    memset(&q, 0, sizeof(q));
    q.nodes = nodes;
    q.ranks = ranks;
    q.policy = policy;
    if (policy == MCEI_PLACE_TOPOLOGY && topo != NULL) {
        q.topo = *topo;
        if (q.topo.kind == MCEI_TOPO_HYPERCUBE && (nodes & (nodes - 1))) {
            snprintf(err, errlen, "a hypercube of %d nodes", nodes);
            return MCE_ERR_INVAL;
        }
        if (q.topo.kind == MCEI_TOPO_MESH &&
            (q.topo.width <= 0 || q.topo.height <= 0 ||
             (int64_t)q.topo.width * q.topo.height != nodes)) {
            snprintf(err, errlen, "a %d x %d mesh of %d nodes", q.topo.width,
                     q.topo.height, nodes);
            return MCE_ERR_INVAL;
        }
    }
    if (weights != NULL) {
        if ((q.weight = malloc((size_t)nodes * sizeof(*q.weight))) == NULL)
            goto nomem;
        for (int v = 0; v < nodes; v++) {
            /* Clamped so that sums of 2^30 nodes cannot overflow. */
            q.weight[v] = weights[v] < 1            ? 1
                          : weights[v] > 1ULL << 32 ? 1ULL << 32
                                                    : weights[v];
            q.total_weight += q.weight[v];
        }
    }
    /* Explicit tables when a topology or weights decide; block by count
     * on no topology stays arithmetic (and identical to block). */
    if (weights != NULL ||
        (policy == MCEI_PLACE_TOPOLOGY && q.topo.kind != MCEI_TOPO_NONE)) {
        if ((rc = place_rcb(&q, q.weight)) != MCE_OK) {
            mcei_place_fini(&q);
            goto nomem;
        }
    }
    *p = q;
    return MCE_OK;
nomem:
    free(q.weight);
    snprintf(err, errlen, "out of memory placing %d nodes", nodes);
    return MCE_ERR_NOMEM;
}

/* ---- the report -----------------------------------------------------------
 */

uint64_t mcei_place_rank_weight(const mcei_place_t *p, int rank)
{
    uint64_t s = 0;
    if (p->weight == NULL)
        return 0;
    for (int i = 0, n = mcei_place_count(p, rank); i < n; i++)
        s += p->weight[mcei_place_node(p, rank, i)];
    return s;
}

/* A hypercube rank's nodes as subcubes, greedily: from its lowest free
 * node, each dimension (lowest first) doubles the subcube if all the
 * nodes it adds are the rank's and free.  Not always the fewest, but
 * each piece is a subcube. */
static void describe_subcubes(const mcei_place_t *p, int rank, char *buf,
                              size_t len)
{
    int n = mcei_place_count(p, rank), dim = __builtin_ctz((unsigned)p->nodes);
    unsigned char *st = calloc((size_t)p->nodes, 1); /* 1 rank's, 2 used */
    int pieces = 0, big = 0;
    if (st == NULL) {
        snprintf(buf, len, "not a subcube");
        return;
    }
    for (int i = 0; i < n; i++)
        st[mcei_place_node(p, rank, i)] = 1;
    for (int i = 0; i < n; i++) {
        unsigned v = (unsigned)mcei_place_node(p, rank, i), mask = 0;
        int k = 0;
        if (st[v] != 1)
            continue;
        for (int d = 0; d < dim; d++) {
            unsigned bit = 1u << d, sub = mask;
            int ok = !(v & bit);
            /* every node v | s (s a subset of mask) has its d-neighbour */
            for (; ok; sub = (sub - 1) & mask) {
                ok = st[(v | sub) | bit] == 1;
                if (sub == 0)
                    break;
            }
            if (ok) {
                mask |= bit;
                k++;
            }
        }
        for (unsigned sub = mask;; sub = (sub - 1) & mask) {
            st[v | sub] = 2;
            if (sub == 0)
                break;
        }
        pieces++;
        big = k > big ? k : big;
    }
    free(st);
    snprintf(buf, len, "%d subcubes, the largest of dimension %d", pieces, big);
}

void mcei_place_describe(const mcei_place_t *p, int rank, char *buf, size_t len)
{
    int n = mcei_place_count(p, rank);
    int first = mcei_place_node(p, rank, 0);
    int last = mcei_place_node(p, rank, n - 1);
    char shape[96] = "", share[48] = "";
    if (p->policy == MCEI_PLACE_CYCLIC && n > 1) {
        snprintf(shape, sizeof(shape), "one id in %d", p->ranks);
    } else if (p->topo.kind == MCEI_TOPO_MESH && p->owner != NULL) {
        const mcei_topo_t *t = &p->topo;
        int x0 = t->width, x1 = -1, y0 = t->height, y1 = -1;
        for (int i = 0; i < n; i++) {
            int v = mcei_place_node(p, rank, i);
            int x = v % t->width, y = v / t->width;
            x0 = x < x0 ? x : x0;
            x1 = x > x1 ? x : x1;
            y0 = y < y0 ? y : y0;
            y1 = y > y1 ? y : y1;
        }
        snprintf(shape, sizeof(shape), "%s %dx%d at (%d,%d)",
                 (int64_t)(x1 - x0 + 1) * (y1 - y0 + 1) == n ? "block"
                                                             : "within",
                 x1 - x0 + 1, y1 - y0 + 1, x0, y0);
    } else if (p->topo.kind == MCEI_TOPO_HYPERCUBE) {
        unsigned and_ = ~0u, or_ = 0;
        for (int i = 0; i < n; i++) {
            unsigned v = (unsigned)mcei_place_node(p, rank, i);
            and_ &= v;
            or_ |= v;
        }
        int free_bits = __builtin_popcount(and_ ^ or_);
        if ((n & (n - 1)) == 0 && (1 << free_bits) == n)
            snprintf(shape, sizeof(shape), "subcube of dimension %d",
                     free_bits);
        else
            describe_subcubes(p, rank, shape, sizeof(shape));
    } else if (last - first + 1 == n) {
        snprintf(shape, sizeof(shape), "contiguous");
    } else {
        snprintf(shape, sizeof(shape), "scattered");
    }
    if (p->weight != NULL && p->total_weight > 0)
        snprintf(share, sizeof(share), ", work %.1f %%",
                 100.0 * (double)mcei_place_rank_weight(p, rank) /
                     (double)p->total_weight);
    snprintf(buf, len, "%d nodes (%s: ids %d..%d, %s%s)", n,
             mcei_place_policy_name(p->policy), first, last, shape, share);
}

/* ---- weights from a --mce-stats file --------------------------------------
 */

static int read_file(const char *path, char **out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    if (f == NULL) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        return MCE_ERR_IO;
    }
    do {
        if (len + 4096 + 1 > cap) {
            char *nb;
            cap = cap ? cap * 2 : 65536;
            if ((nb = realloc(buf, cap)) == NULL) {
                free(buf);
                fclose(f);
                snprintf(err, errlen, "out of memory reading '%s'", path);
                return MCE_ERR_NOMEM;
            }
            buf = nb;
        }
        got = fread(buf + len, 1, 4096, f);
        len += got;
    } while (got > 0);
    if (ferror(f)) {
        free(buf);
        fclose(f);
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        return MCE_ERR_IO;
    }
    fclose(f);
    buf[len] = '\0';
    *out = buf;
    return MCE_OK;
}

/* A decimal number at *s (advanced past it); -1 if none. */
static int64_t number(const char **s)
{
    const char *q = *s;
    int64_t v = 0;
    if (*q < '0' || *q > '9')
        return -1;
    for (; *q >= '0' && *q <= '9'; q++) {
        if (v > (INT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (*q - '0');
    }
    *s = q;
    return v;
}

/* Store row (node, activations); errors for a node out of range or seen
 * twice. */
static int put_row(const char *path, int64_t node, int64_t act, int nodes,
                   uint64_t *w, unsigned char *seen, char *err, size_t errlen)
{
    if (node < 0 || act < 0) {
        snprintf(err, errlen, "'%s': a row without node or activations", path);
        return MCE_ERR_CONFIG;
    }
    if (node >= nodes) {
        snprintf(err, errlen,
                 "'%s' has a row for node %" PRId64 ", but this run has %d "
                 "nodes: use the statistics of a run with as many nodes",
                 path, node, nodes);
        return MCE_ERR_CONFIG;
    }
    if (seen[node]) {
        snprintf(err, errlen, "'%s' has two rows for node %" PRId64, path,
                 node);
        return MCE_ERR_CONFIG;
    }
    seen[node] = 1;
    w[node] = (uint64_t)act;
    return MCE_OK;
}

static int parse_csv(const char *path, const char *text, int nodes, uint64_t *w,
                     unsigned char *seen, char *err, size_t errlen)
{
    int col_node = -1, col_act = -1, header = 0, rc;
    const char *line = text;
    while (*line) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        if (n > 0 && line[0] != '#') {
            const char *s = line;
            int col = 0;
            if (!header) {
                while (s < line + n) {
                    const char *e = s;
                    while (e < line + n && *e != ',' && *e != '\r')
                        e++;
                    if ((size_t)(e - s) == 4 && memcmp(s, "node", 4) == 0)
                        col_node = col;
                    if ((size_t)(e - s) == 11 &&
                        memcmp(s, "activations", 11) == 0)
                        col_act = col;
                    col++;
                    s = e + 1;
                }
                header = 1;
                if (col_node < 0 || col_act < 0) {
                    snprintf(err, errlen,
                             "'%s' has no node and activations columns (a "
                             "--mce-stats file of this version is needed)",
                             path);
                    return MCE_ERR_CONFIG;
                }
            } else {
                int64_t node = -1, act = -1;
                while (s < line + n) {
                    const char *q = s;
                    if (col == col_node)
                        node = number(&q);
                    else if (col == col_act)
                        act = number(&q);
                    while (s < line + n && *s != ',')
                        s++;
                    s++;
                    col++;
                }
                if ((rc = put_row(path, node, act, nodes, w, seen, err,
                                  errlen)) != MCE_OK)
                    return rc;
            }
        }
        line += n + (end ? 1 : 0);
    }
    return MCE_OK;
}

/* The rows of a --mce-stats JSON file: objects {"node":N,...,
 * "activations":A,...} in the "nodes" array (the file is this library's
 * own, so a scan for the two keys per object suffices). */
static int parse_json(const char *path, const char *text, int nodes,
                      uint64_t *w, unsigned char *seen, char *err,
                      size_t errlen)
{
    const char *s = strstr(text, "\"nodes\":[");
    int rc;
    if (s == NULL) {
        snprintf(err, errlen, "'%s' has no \"nodes\" array", path);
        return MCE_ERR_CONFIG;
    }
    while ((s = strstr(s, "{\"node\":")) != NULL) {
        const char *end = strchr(s, '}'), *a;
        int64_t node, act = -1;
        s += 8;
        node = number(&s);
        if (end != NULL && (a = strstr(s, "\"activations\":")) != NULL &&
            a < end) {
            a += 14;
            act = number(&a);
        } else {
            snprintf(err, errlen,
                     "'%s' has no activations (a --mce-stats file of this "
                     "version is needed)",
                     path);
            return MCE_ERR_CONFIG;
        }
        if ((rc = put_row(path, node, act, nodes, w, seen, err, errlen)) !=
            MCE_OK)
            return rc;
    }
    return MCE_OK;
}

int mcei_place_read_weights(const char *path, int nodes, uint64_t **out,
                            char *err, size_t errlen)
{
    char *text = NULL;
    uint64_t *w = calloc((size_t)nodes, sizeof(*w));
    unsigned char *seen = calloc((size_t)nodes, 1);
    size_t plen = strlen(path);
    int rc = MCE_ERR_NOMEM;
    if (w == NULL || seen == NULL) {
        snprintf(err, errlen, "out of memory reading '%s'", path);
        goto out;
    }
    if ((rc = read_file(path, &text, err, errlen)) != MCE_OK)
        goto out;
    if (plen >= 5 && strcmp(path + plen - 5, ".json") == 0)
        rc = parse_json(path, text, nodes, w, seen, err, errlen);
    else if (plen >= 4 && strcmp(path + plen - 4, ".csv") == 0)
        rc = parse_csv(path, text, nodes, w, seen, err, errlen);
    else {
        snprintf(err, errlen, "'%s' ends in neither .csv nor .json", path);
        rc = MCE_ERR_CONFIG;
    }
    for (int v = 0; rc == MCE_OK && v < nodes; v++) {
        if (!seen[v]) {
            snprintf(err, errlen,
                     "'%s' has no row for node %d: use the statistics of a "
                     "run with %d nodes",
                     path, v, nodes);
            rc = MCE_ERR_CONFIG;
        }
        w[v] = w[v] ? w[v] : 1;
    }
out:
    free(text);
    free(seen);
    if (rc != MCE_OK) {
        free(w);
        return rc;
    }
    *out = w;
    return MCE_OK;
}
