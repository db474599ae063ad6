/* Link sharing of the iWarp network (doc/design/iwarp-tcs.md, section
 * 3.3; Warfel 1996, sections 3.1.3, 3.1.5.1-3 and 6.4.2).
 *
 * The rates are the two-level max-min allocation of section 3.3: on each
 * link the capacity is split equally among the PCT groups with an active
 * flow, then equally among the group's flows; capacity a flow cannot use
 * (because it is limited on another link or by its DQ cap) goes first to
 * its group, then to the other groups.  It is computed by iterating
 * "allocate every link hierarchically under each flow's demand = the
 * least of its cap and its allocations on its other links" until no
 * allocation changes, as in the Jacobi form of progressive filling; the
 * order (links by number, flows by their index) is fixed, so every rank
 * computes the same integers.  The arithmetic follows lib/net/paragon.c:
 * integer work units chosen so that the even shares are exact, shares
 * rounded down (a flow never gets more than its share). */
#include "iwarp_fluid.h"

#include <stdlib.h>
#include <string.h>

#include "../core/mcei.h"

typedef unsigned __int128 u128;

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b != 0) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static uint64_t lcm64(uint64_t a, uint64_t b)
{
    return a / gcd64(a, b) * b;
}

uint64_t mcei_iwf_unit(mce_time_t word_time, uint64_t skip_period)
{
    /* a link moves U / word_time units per ps: make that a multiple of
     * 1..20 (group and DQ shares) and of skip_period + 1 (skip) */
    uint64_t u = 1;
    for (uint64_t k = 2; k <= 20; k++)
        u = lcm64(u, k);
    if (skip_period > 0 && skip_period < 1000000)
        u = lcm64(u, skip_period + 1);
    return u * (word_time ? word_time : 1);
}

void mcei_iwf_kappa(mcei_iwf_flow_t *f, int n)
{
    for (int i = 0; i < n; i++) {
        f[i].kappa = 1;
        for (int c = 0; c < f[i].ncells; c++) {
            int cell = f[i].cell[c], count = 0, turn = 0;
            for (int j = 0; j < n; j++)
                for (int d = 0; d < f[j].ncells; d++)
                    if (f[j].cell[d] == cell) {
                        count++;
                        turn |= f[j].turn[d];
                        break;
                    }
            if (count >= 2 && turn && count > f[i].kappa)
                f[i].kappa = count;
        }
    }
}

typedef struct entry {
    int link, group, flow, slot;
} entry_t;

static int entry_cmp(const void *x, const void *y)
{
    const entry_t *a = x, *b = y;
    if (a->link != b->link)
        return a->link < b->link ? -1 : 1;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    return a->slot < b->slot ? -1 : a->slot > b->slot;
}

/* Max-min split of @p total among @p k demands: out[i] <= dem[i]; the
 * unsatisfied ones get the same rounded-down share.  @p ord is scratch. */
static void fill(uint64_t total, const uint64_t *dem, uint64_t *out, int k,
                 int *ord)
{
    uint64_t rem = total;
    int cnt = k;
    for (int i = 0; i < k; i++)
        ord[i] = i;
    /* insertion sort by demand, ties by index: k is small */
    for (int i = 1; i < k; i++) {
        int v = ord[i], j = i;
        while (j > 0 && dem[ord[j - 1]] > dem[v]) {
            ord[j] = ord[j - 1];
            j--;
        }
        ord[j] = v;
    }
    for (int i = 0; i < k; i++) {
        uint64_t share = rem / (uint64_t)cnt;
        if (dem[ord[i]] <= share) {
            out[ord[i]] = dem[ord[i]];
            rem -= dem[ord[i]];
            cnt--;
            continue;
        }
        for (int j = i; j < k; j++)
            out[ord[j]] = share;
        break;
    }
}

static uint64_t dq_cap(const mcei_iwf_flow_t *f, const mcei_iwf_params_t *p)
{
    uint64_t cap, h, span, thr = UINT64_MAX;
    /* a TCS throttle (design s.3.3): the source PCT sends at most
     * 1/throttle of the link; throttled at least as far as the DQ
     * congestion, the DQ serves the flow fairly (W s.6.4.2) */
    if (f->throttle > 0)
        thr = p->link_cap / (uint64_t)f->throttle;
    if (!p->dq_on || f->kappa <= 1)
        return thr;
    cap = p->link_cap / (uint64_t)f->kappa;
    if ((uint64_t)f->kappa <= p->dq_fair_max ||
        (f->throttle > 0 && f->kappa <= f->throttle))
        return cap < thr ? cap : thr;
    /* unfair: a factor in [dq_unfair_min, 1], deterministic per
     * (seed, connection, epoch) and unpredictable to the program */
    h = mcei_mix64(mcei_mix64(p->seed, f->key), p->epoch);
    span = 1000000 - p->unfair_min_micro;
    cap = (uint64_t)((u128)cap * (p->unfair_min_micro + h % (span + 1)) /
                     1000000u);
    return cap < thr ? cap : thr;
}

void mcei_iwf_ws_free(mcei_iwf_ws_t *ws)
{
    free(ws->buf);
    ws->buf = NULL;
    ws->cap = 0;
}

/* The next @p count x @p size bytes of the scratch block at *at. */
static void *carve(char **at, size_t count, size_t size)
{
    void *r = *at;
    *at += (count * size + 15) / 16 * 16;
    return r;
}

int mcei_iwf_rates(mcei_iwf_flow_t *f, int n, const mcei_iwf_params_t *p,
                   mcei_iwf_ws_t *ws)
{
    int total = 0, rc = MCE_ERR_NOMEM, maxit = 2 * n + 4;
    mcei_iwf_ws_t own = {0};
    entry_t *e;
    uint64_t *cap, *prev, *next, *dem, *gdem, *gout;
    int *off, *ord;
    size_t t1, need;
    char *at;
    if (n <= 0)
        return MCE_OK;
    mcei_iwf_kappa(f, n);
    for (int i = 0; i < n; i++)
        total += f[i].nlinks;
    /* one block: the entries, the per-flow and the per-slot arrays; the
     * counts are bounded by the model's flows and links, far from any
     * size_t overflow */
    t1 = (size_t)total + 1;
    need = (t1 * sizeof(*e) + 15) / 16 * 16 +
           ((size_t)n * sizeof(*cap) + 15) / 16 * 16 +
           (((size_t)n + 1) * sizeof(*off) + 15) / 16 * 16 +
           5 * ((t1 * sizeof(*prev) + 15) / 16 * 16) +
           (t1 * sizeof(*ord) + 15) / 16 * 16;
    if (ws == NULL)
        ws = &own;
    if (ws->cap < need) {
        void *nb = realloc(ws->buf, need);
        if (nb == NULL)
            goto out;
        ws->buf = nb;
        ws->cap = need;
    }
    memset(ws->buf, 0, need);
    at = ws->buf;
    e = carve(&at, t1, sizeof(*e));
    cap = carve(&at, (size_t)n, sizeof(*cap));
    off = carve(&at, (size_t)n + 1, sizeof(*off));
    prev = carve(&at, t1, sizeof(*prev));
    next = carve(&at, t1, sizeof(*next));
    dem = carve(&at, t1, sizeof(*dem));
    gdem = carve(&at, t1, sizeof(*gdem));
    gout = carve(&at, t1, sizeof(*gout));
    ord = carve(&at, t1, sizeof(*ord));
    for (int i = 0, s = 0; i < n; i++) {
        off[i] = s;
        cap[i] = dq_cap(&f[i], p);
        for (int l = 0; l < f[i].nlinks; l++, s++) {
            e[s].link = f[i].link[l];
            e[s].group = f[i].group[l];
            e[s].flow = i;
            e[s].slot = s;
            prev[s] = UINT64_MAX;
        }
    }
    off[n] = total;
    qsort(e, (size_t)total, sizeof(*e), entry_cmp);
    for (int it = 0; it < maxit; it++) {
        int changed = 0;
        for (int a = 0; a < total;) {
            int b = a, ng = 0;
            uint64_t L = p->link_cap;
            while (b < total && e[b].link == e[a].link)
                b++;
            if (b - a >= 2 && p->skip_period > 0)
                L = L / (p->skip_period + 1) * p->skip_period;
            /* demands: cap and the allocations on the flow's other links */
            for (int i = a; i < b; i++) {
                int fl = e[i].flow;
                uint64_t d = cap[fl];
                for (int s = off[fl]; s < off[fl + 1]; s++)
                    if (s != e[i].slot && prev[s] < d)
                        d = prev[s];
                dem[i - a] = d;
            }
            /* level 1: groups */
            for (int i = a; i < b;) {
                int j = i;
                u128 sum = 0;
                while (j < b && e[j].group == e[i].group)
                    sum += dem[j++ - a];
                gdem[ng++] = sum > L ? L : (uint64_t)sum;
                i = j;
            }
            fill(L, gdem, gout, ng, ord);
            /* level 2: the flows of each group */
            for (int i = a, g = 0; i < b; g++) {
                int j = i;
                while (j < b && e[j].group == e[i].group)
                    j++;
                fill(gout[g], &dem[i - a], &gdem[0], j - i, ord);
                for (int k = i; k < j; k++) {
                    uint64_t v = gdem[k - i];
                    if (next[e[k].slot] != v || it == 0)
                        changed = 1;
                    next[e[k].slot] = v;
                }
                i = j;
            }
            a = b;
        }
        memcpy(prev, next, (size_t)total * sizeof(*prev));
        if (!changed)
            break;
    }
    for (int i = 0; i < n; i++) {
        uint64_t r = cap[i];
        for (int s = off[i]; s < off[i + 1]; s++)
            if (prev[s] < r)
                r = prev[s];
        f[i].rate = r == UINT64_MAX ? p->link_cap : r;
    }
    rc = MCE_OK;
out:
    mcei_iwf_ws_free(&own);
    return rc;
}
