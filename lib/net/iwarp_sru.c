/* The iWarp System Reporting Unit bus and the express hops of the
 * anonymous-destination ring (doc/design/iwarp-tcs.md, sections 2.1 and
 * 7.1-7.2; Feldmann, Gross, O'Hallaron, Stricker, sections 2-3), part of
 * the replicated network model "iwarp" (lib/net/iwarp.c calls in).
 *
 * SRU: one wired-OR bus.  A request injected at ts may start at the first
 * bit boundary (a multiple of sru.bit_time from 0) at or after ts +
 * lookahead.  Every start is decided when the model has advanced past it,
 * so every request that could start at the same boundary is known then.
 * Requests starting at the same boundary collide: the bus carries one
 * message whose word is the OR of theirs, for sru.bits bit times, and
 * every cell receives it with the jam flag; otherwise every cell (the
 * sender too) receives the word.  Each requester's copy is marked as the
 * completion of its request.  A request that finds the bus busy (its
 * boundary falls inside a message) waits until the bus frees and then k
 * backoff slots, k uniform in [0, 2^min(attempt, sru.backoff_max)) from
 * mix64(seed,
 * cell, attempt), attempt counting the program's retries and the waits.
 *
 * Ring: an MCEI_IW_RING injection is one express hop to the ring
 * successor, delivered cam.hop after it was sent (the words travel
 * pipelined behind the header; their 0.2 us each is charged by the sender
 * and the receiver).  Nothing else uses the ring in this model. */
#include "iwarp_sru.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/engine.h"
#include "../core/heap.h"
#include "../core/trace.h"

typedef struct req {
    int cell, attempt;
    uint32_t word;
    mce_time_t ready;
} req_t;

typedef struct sev {
    mce_time_t t;
    mcei_msg_t *msg; /* a ring hop, or NULL: a bus message */
    uint64_t tx;
    uint32_t word;
    int jam, nsend, *senders;
    uint32_t *words;
} sev_t;

struct mcei_iwsru {
    int cells;
    mce_time_t bit_time, msg_time, slot, hop, lookahead, bus_free;
    uint64_t seed, tx;
    int backoff_max;
    req_t *pend;
    size_t npend, cappend;
    mcei_heap_t events;
    size_t in_flight;
};

static int sev_less(const void *x, const void *y)
{
    const sev_t *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t;
    if ((a->msg == NULL) != (b->msg == NULL))
        return a->msg == NULL;
    if (a->msg == NULL)
        return a->tx < b->tx;
    return mcei_order_less(a->t, &a->msg->w, b->t, &b->msg->w);
}

static int get_clocks(mcei_machine_t *m, const char *key, mce_time_t clock,
                      mce_time_t *out, char *err, size_t errlen)
{
    uint64_t v;
    int rc = mcei_key_u64(m, key, &v, err, errlen);
    if (rc != MCE_OK)
        return rc;
    if (v == 0 || v > 1000000) {
        snprintf(err, errlen, "machine '%s': %s must be in 1 .. 1000000 clocks",
                 m->name, key);
        return MCE_ERR_MACHINE;
    }
    *out = v * clock;
    return MCE_OK;
}

int mcei_iwsru_init(mcei_iwsru_t **out, mcei_machine_t *m, int cells,
                    mce_time_t clock, mce_time_t lookahead, char *err,
                    size_t errlen)
{
    mcei_iwsru_t *s = calloc(1, sizeof(*s));
    uint64_t bits, bmax;
    int rc;
    if (s == NULL)
        return MCE_ERR_NOMEM;
    if ((rc =
             get_clocks(m, "sru.bit_time", clock, &s->bit_time, err, errlen)) ||
        (rc =
             get_clocks(m, "sru.backoff_slot", clock, &s->slot, err, errlen)) ||
        (rc = get_clocks(m, "cam.hop", clock, &s->hop, err, errlen)) ||
        (rc = mcei_key_u64(m, "sru.bits", &bits, err, errlen)) ||
        (rc = mcei_key_u64(m, "sru.backoff_max", &bmax, err, errlen))) {
        free(s);
        return rc;
    }
    if (bits < 1 || bits > 1024 || bmax > 16 || s->hop < lookahead) {
        snprintf(err, errlen,
                 "machine '%s': need 1 <= sru.bits <= 1024, "
                 "sru.backoff_max <= 16 and cam.hop at "
                 "least the lookahead (iwarp.gate_op + iwarp.gate_in)",
                 m->name);
        free(s);
        return MCE_ERR_MACHINE;
    }
    s->msg_time = bits * s->bit_time;
    s->backoff_max = (int)bmax;
    s->cells = cells;
    s->lookahead = lookahead;
    s->seed = mcei_run_seed();
    mcei_heap_init(&s->events, sev_less);
    *out = s;
    return MCE_OK;
}

void mcei_iwsru_fini(mcei_iwsru_t *s)
{
    sev_t *e;
    if (s == NULL)
        return;
    while ((e = mcei_heap_pop(&s->events)) != NULL) {
        if (e->msg)
            mcei_msg_release(e->msg);
        free(e->senders);
        free(e->words);
        free(e);
    }
    mcei_heap_fini(&s->events);
    free(s->pend);
    free(s);
}

/* Backoff for a request's attempt a: uniform in [0, 2^min(a, max)) slots;
 * a retry after a collision backs off too. */
static mce_time_t backoff(const mcei_iwsru_t *s, const req_t *r)
{
    uint64_t span = (uint64_t)1
                    << (r->attempt < s->backoff_max ? r->attempt
                                                    : s->backoff_max);
    return (mce_time_t)(mcei_mix64(mcei_mix64(s->seed, (uint64_t)r->cell),
                                   (uint64_t)r->attempt) %
                        span) *
           s->slot;
}

/* A request whose boundary falls while the bus is busy backs off. */
static void defer(mcei_iwsru_t *s, req_t *r)
{
    while (r->ready < s->bus_free) {
        r->attempt++;
        r->ready = s->bus_free + backoff(s, r);
    }
}

int mcei_iwsru_inject(mcei_iwsru_t *s, mcei_msg_t *m)
{
    if (m->w.type == MCEI_IW_SRU) {
        req_t *r;
        mce_time_t t = m->w.ts + s->lookahead;
        if (s->npend == s->cappend) {
            size_t cap = s->cappend ? 2 * s->cappend : 64;
            req_t *p = realloc(s->pend, cap * sizeof(*p));
            if (p == NULL)
                return MCE_ERR_NOMEM;
            s->pend = p;
            s->cappend = cap;
        }
        r = &s->pend[s->npend++];
        r->cell = m->w.src;
        r->word = (uint32_t)m->w.aux[0];
        r->attempt = (int)(m->w.aux[1] & 0xffff);
        r->ready = (t + s->bit_time - 1) / s->bit_time * s->bit_time;
        if (r->attempt > 0) /* a retry after a collision */
            r->ready += backoff(s, r);
        defer(s, r);
        mcei_msg_release(m);
        return 1;
    }
    if (m->w.type == MCEI_IW_RING) {
        sev_t *e = calloc(1, sizeof(*e));
        if (e == NULL)
            return MCE_ERR_NOMEM;
        e->t = m->w.ts + s->hop;
        e->msg = m;
        s->in_flight++;
        if (mcei_trace_net_on()) {
            char label[48], args[64];
            snprintf(label, sizeof(label), "ring link from node %d", m->w.src);
            snprintf(args, sizeof(args), "\"dst\":%d,\"bytes\":%" PRIu64,
                     m->w.dst, m->w.size);
            mcei_trace_net_named("ring link", m->w.src, label, "hop", m->w.ts,
                                 e->t, args);
        }
        return mcei_heap_push(&s->events, e) == 0 ? 1 : MCE_ERR_NOMEM;
    }
    return 0;
}

static mce_time_t next_start(const mcei_iwsru_t *s)
{
    mce_time_t t = MCEI_TIME_INF;
    for (size_t i = 0; i < s->npend; i++)
        if (s->pend[i].ready < t)
            t = s->pend[i].ready;
    return t;
}

mce_time_t mcei_iwsru_next_event(const mcei_iwsru_t *s)
{
    const sev_t *e = mcei_heap_top(&s->events);
    mce_time_t t = next_start(s);
    return e != NULL && e->t < t ? e->t : t;
}

/* Start the bus message(s) of boundary @p t. */
static int start_tx(mcei_iwsru_t *s, mce_time_t t)
{
    sev_t *e = calloc(1, sizeof(*e));
    size_t j = 0;
    if (e == NULL || (e->senders = malloc(s->npend * sizeof(int))) == NULL ||
        (e->words = malloc(s->npend * sizeof(uint32_t))) == NULL) {
        if (e != NULL)
            free(e->senders);
        free(e);
        return MCE_ERR_NOMEM;
    }
    for (size_t i = 0; i < s->npend; i++) {
        if (s->pend[i].ready == t) {
            e->word |= s->pend[i].word;
            e->words[e->nsend] = s->pend[i].word;
            e->senders[e->nsend++] = s->pend[i].cell;
        } else {
            s->pend[j++] = s->pend[i];
        }
    }
    s->npend = j;
    /* wired-OR: a sender detects a collision when what it reads differs
     * from what it sends; identical words merge into one message */
    e->jam = 0;
    for (int i = 0; i < e->nsend; i++)
        if (e->words[i] != e->word)
            e->jam = 1;
    e->t = t + s->msg_time;
    e->tx = s->tx++;
    s->bus_free = e->t;
    if (mcei_trace_net_on()) {
        /* the bus's message: one word, or the OR of colliding ones */
        char args[96];
        snprintf(args, sizeof(args),
                 "\"senders\":%d,\"first\":%d,\"word\":%" PRIu32, e->nsend,
                 e->senders[0], e->word);
        mcei_trace_net_named("SRU bus", 0, "SRU bus",
                             e->jam ? "collision" : "word", t, e->t, args);
    }
    for (size_t i = 0; i < s->npend; i++)
        defer(s, &s->pend[i]);
    s->in_flight++;
    return mcei_heap_push(&s->events, e);
}

static int deliver_tx(mcei_iwsru_t *s, mcei_net_t *net, const sev_t *e)
{
    for (int c = 0; c < s->cells; c++) {
        mcei_wire_t w;
        mcei_msg_t *n;
        memset(&w, 0, sizeof(w));
        w.ts = e->t;
        w.seq = e->tx;
        w.src = e->senders[0];
        w.dst = c;
        w.ctx = MCEI_CTX_PROTOCOL;
        w.type = MCEI_IW_SRU_WORD;
        w.aux[0] = e->word;
        w.aux[1] = e->jam ? MCEI_IW_SRU_JAM : 0;
        for (int k = 0; k < e->nsend; k++)
            if (e->senders[k] == c)
                w.aux[1] |= MCEI_IW_SRU_DONE;
        if ((n = mcei_msg_from_wire(&w)) == NULL)
            return MCE_ERR_NOMEM;
        net->deliver(net->deliver_ctx, n, e->t);
    }
    return MCE_OK;
}

int mcei_iwsru_advance(mcei_iwsru_t *s, mcei_net_t *net, mce_time_t horizon)
{
    for (;;) {
        sev_t *e = mcei_heap_top(&s->events);
        mce_time_t ts = next_start(s);
        int rc;
        if (ts < horizon && (e == NULL || ts <= e->t)) {
            if ((rc = start_tx(s, ts)) != MCE_OK)
                return rc;
            continue;
        }
        if (e == NULL || e->t >= horizon)
            return MCE_OK;
        mcei_heap_pop(&s->events);
        s->in_flight--;
        if (e->msg != NULL) {
            net->deliver(net->deliver_ctx, e->msg, e->t);
        } else if ((rc = deliver_tx(s, net, e)) != MCE_OK) {
            free(e->senders);
            free(e->words);
            free(e);
            return rc;
        }
        free(e->senders);
        free(e->words);
        free(e);
    }
}

size_t mcei_iwsru_in_flight(const mcei_iwsru_t *s)
{
    /* pending bus requests will be delivered (as words) too */
    return s->in_flight + s->npend;
}
