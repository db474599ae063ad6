/* The iWarp cell's view of its connections' progress (rate segments;
 * doc/design/iwarp-tcs.md, section 3.4).
 *
 * Progress of a connection: the model sends both ends its rate segments
 * (MCEI_IW_SEG) when they change, so a cell at clock c knows exactly when
 * each word started into the first link or became readable, up to c.  A
 * time beyond c is waited for with a node timer at the predicted time,
 * re-predicted if a new segment arrives first; a stopped connection (its
 * path full: the reader is not reading) waits for the next segment. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell.h"

/* ---- connection progress (rate segments) ------------------------------ */

seglist_t *mcei_iw_seg_list(iw_pct_t *p, int64_t key)
{
    for (int i = 0; i < 2; i++)
        if (p->sl[i].key == key)
            return &p->sl[i];
    return NULL;
}

/* The flow key of the block at the head of a destination PCT. */
static int64_t block_key(const mcei_msg_t *m)
{
    return (int64_t)m->w.src * iwc()->pcts +
           (int64_t)((m->w.aux[0] >> 8) & 0xff);
}

void mcei_iw_seg_add(mcei_vn_t *vn, iw_pct_t *p, const mcei_msg_t *m)
{
    mcei_iw_seg_t in;
    int64_t key = (int64_t)(m->w.aux[0] >> 32);
    seglist_t *l = mcei_iw_seg_list(p, key);
    seg_t *s;
    memcpy(&in, mcei_msg_data(m), sizeof(in));
    if (l == NULL) {
        /* a new connection: replace the list the reader no longer needs */
        int keep = p->rx.head != NULL
                       ? (p->sl[0].key == block_key(p->rx.head)   ? 0
                          : p->sl[1].key == block_key(p->rx.head) ? 1
                                                                  : -1)
                       : -1;
        l = &p->sl[keep == 0 ? 1 : 0];
        if (keep < 0)
            p->sl[1].key = -1;
        l->key = key;
        l->nseg = 0;
    }
    if (l->nseg > 0 && l->seg[l->nseg - 1].t == m->arrival) {
        s = &l->seg[l->nseg - 1];
    } else {
        if (l->nseg == l->capseg) {
            size_t cap = l->capseg ? 2 * l->capseg : 8;
            seg_t *n = realloc(l->seg, cap * sizeof(*n));
            if (n == NULL)
                mcei_vn_fatal(vn, "iwarp: out of memory");
            l->seg = n;
            l->capseg = cap;
        }
        s = &l->seg[l->nseg++];
    }
    s->t = m->arrival;
    s->e = (u128)in.e_hi << 64 | in.e_lo;
    s->r = in.rate;
    l->delay = in.delay;
    l->freed = m->w.aux[1];
    l->full = (m->w.aux[0] & MCEI_IW_SEG_FULL) != 0;
    p->segv++;
}

static mce_time_t at_rate(const seg_t *s, u128 x)
{
    u128 q = (x - s->e + s->r - 1) / s->r;
    if (q >= MCEI_TIME_INF - s->t)
        return MCEI_TIME_INF;
    return s->t + (mce_time_t)q;
}

/* When the connection's entered work reaches @p x (@p start 0) or is at
 * @p x and moving (@p start 1: the next word starts into the link), by
 * the segments known; MCEI_TIME_INF when they do not say. */
mce_time_t mcei_iw_seg_time(seglist_t *l, u128 x, int start)
{
    if (l == NULL)
        return MCEI_TIME_INF;
    /* earlier segments are of no use to later questions */
    while (l->nseg >= 2 && l->seg[1].e < x) {
        memmove(l->seg, l->seg + 1, (l->nseg - 1) * sizeof(*l->seg));
        l->nseg--;
    }
    for (size_t j = 0; j < l->nseg; j++) {
        const seg_t *s = &l->seg[j];
        int last = j + 1 == l->nseg;
        if (!start) {
            if (s->e >= x)
                return s->t;
            if (!last && l->seg[j + 1].e < x)
                continue;
            return s->r == 0 ? MCEI_TIME_INF : at_rate(s, x);
        }
        if (!last && l->seg[j + 1].e <= x)
            continue;
        if (s->r == 0)
            continue;
        return s->e >= x ? s->t : at_rate(s, x);
    }
    return MCEI_TIME_INF;
}

typedef struct seg_wait {
    iw_pct_t *p;
    uint64_t v, token;
} seg_wait_t;

static int seg_news(mcei_vn_t *vn, void *arg)
{
    seg_wait_t *w = arg;
    (void)vn;
    return w->p->segv != w->v || w->p->fired == w->token;
}

/* The exact time word @p k of connection @p key started into its first
 * link (@p start 1) or had fully entered it (@p start 0), waiting until it
 * is known: on return it is at most the node's clock.  @p call and
 * @p what(@p what_arg) describe the wait (formatted only for a deadlock
 * report). */
/* A literal or caller-frame string as a wait description. */
void mcei_iw_str_what(const void *arg, char *buf, size_t len)
{
    snprintf(buf, len, "%s", (const char *)arg);
}

mce_time_t mcei_iw_seg_wait(mcei_vn_t *vn, int pct, int64_t key, uint64_t k,
                            int start, const char *call, mcei_what_fn what,
                            const void *what_arg)
{
    iw_node_t *nd = node_of(vn);
    iw_pct_t *p = &nd->pct[pct];
    u128 x = (u128)(start ? k - 1 : k) * iwc()->unit;
    for (;;) {
        mce_time_t t;
        seg_wait_t w;
        seglist_t *l;
        char full[96];
        mcei_sync(vn);
        l = mcei_iw_seg_list(p, key);
        t = mcei_iw_seg_time(l, x, start);
        if (t <= vn->clock)
            return t;
        w.p = p;
        w.v = p->segv;
        w.token = ++p->token;
        if (t != MCEI_TIME_INF) {
            uint64_t aux[2] = {(uint64_t)pct, w.token};
            if (mcei_timer_at(vn, t, T_SEG_WAKE, aux, NULL, NULL, 0) != MCE_OK)
                mcei_vn_fatal(vn, "iwarp: out of memory");
        } else if (start && l != NULL && l->full && l->nseg > 0) {
            /* the words the source PCT and the rest of the path hold */
            uint64_t in = (uint64_t)(l->seg[l->nseg - 1].e / iwc()->unit) +
                          (uint64_t)iwc()->pct_words - l->freed;
            snprintf(full, sizeof(full),
                     "PCT %d full (connection to (%d,%d), %" PRIu64
                     " words in its path: the reader is not reading)",
                     pct, p->endpoint % iwc()->width,
                     p->endpoint / iwc()->width, in);
            mcei_wait(vn, seg_news, &w, call, full);
            continue;
        }
        mcei_wait_for(vn, seg_news, &w, call, what, what_arg);
    }
}

/* The word number and connection of the @p n-th word not yet read from a
 * destination PCT (its blocks are delivered). */
uint64_t mcei_iw_nth_word(const iw_pct_t *p, size_t n, int64_t *key,
                          mce_time_t *delay)
{
    const mcei_msg_t *m = p->rx.head;
    uint64_t used = p->rx_used;
    for (;;) {
        uint64_t left = m->w.size / 4 - used;
        if (n <= left) {
            const seglist_t *l;
            *key = block_key(m);
            l = p->sl[0].key == *key   ? &p->sl[0]
                : p->sl[1].key == *key ? &p->sl[1]
                                       : NULL;
            *delay = l != NULL ? l->delay : 0;
            return m->w.aux[1] + used + n - 1;
        }
        n -= left;
        used = 0;
        m = m->next;
    }
}

int64_t mcei_iw_own_key(const mcei_vn_t *vn, int pct)
{
    return (int64_t)vn->id * iwc()->pcts + pct;
}
