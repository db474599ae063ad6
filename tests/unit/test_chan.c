/* Unit tests for the standard-Vertex channel handshake state machine
 * (lib/machines/ncube/chan.c): submit -> SEND_LEN (or queued), ack ->
 * START_DMA, end of DMA -> the next message's SEND_LEN (or idle), the
 * hold while an acknowledgement owed on the channel is postponed (every
 * action deferred to the release), and the wire reservation that
 * serializes everything sent on the channel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "mcei.h"

#include "../../lib/machines/ncube/chan.h"

/* Fixed-seed generator so every run sees the same sequence. */
static uint64_t rng_state;
static void rng_seed(uint64_t s)
{
    rng_state = s;
}
static uint32_t rng_next(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(rng_state >> 33);
}
static uint32_t rng_below(uint32_t n)
{
    return rng_next() % n;
}

static mcei_ncube_item_t poison_item; /* never submitted */

/* An item whose link field holds garbage, as a reused message might. */
static void item_prep(mcei_ncube_item_t *it, void *data)
{
    it->next = &poison_item;
    it->data = data;
}

/* The waiting queue, walked from head, is exactly @p want[0..n). */
static void expect_queue(const mcei_ncube_chan_t *c,
                         mcei_ncube_item_t *const *want, size_t n)
{
    const mcei_ncube_item_t *it = c->head;
    assert_int_equal(c->queued, n);
    for (size_t i = 0; i < n; i++) {
        assert_non_null(it);
        assert_ptr_equal(it, want[i]);
        if (i + 1 == n)
            assert_ptr_equal(c->tail, it);
        it = it->next;
    }
    assert_null(it);
    if (n == 0) {
        assert_null(c->head);
        assert_null(c->tail);
    }
}

static void ack_ok(mcei_ncube_chan_t *c)
{
    int bad = 42;
    assert_int_equal(mcei_ncube_chan_ack(c, &bad), MCEI_VX_START_DMA);
    assert_int_equal(bad, 0);
    assert_int_equal(c->state, MCEI_VX_DMA);
}

static void ack_bad(mcei_ncube_chan_t *c)
{
    mcei_ncube_chan_t before = *c;
    int bad = 42;
    assert_int_equal(mcei_ncube_chan_ack(c, &bad), MCEI_VX_NONE);
    assert_int_equal(bad, 1);
    /* Nothing else changes. */
    assert_int_equal(c->state, before.state);
    assert_ptr_equal(c->current, before.current);
    assert_ptr_equal(c->head, before.head);
    assert_ptr_equal(c->tail, before.tail);
    assert_int_equal(c->queued, before.queued);
}

static void dma_done_bad(mcei_ncube_chan_t *c)
{
    mcei_ncube_chan_t before = *c;
    mcei_ncube_item_t *done = &poison_item;
    int bad = 42;
    assert_int_equal(mcei_ncube_chan_dma_done(c, &done, &bad), MCEI_VX_NONE);
    assert_int_equal(bad, 1);
    assert_ptr_equal(done, &poison_item); /* untouched */
    assert_int_equal(c->state, before.state);
    assert_ptr_equal(c->current, before.current);
    assert_ptr_equal(c->head, before.head);
    assert_ptr_equal(c->tail, before.tail);
    assert_int_equal(c->queued, before.queued);
}

/* End of DMA of @p want_done; @p next is the message expected to start
 * (NULL: the channel goes idle). */
static void dma_done_ok(mcei_ncube_chan_t *c, mcei_ncube_item_t *want_done,
                        mcei_ncube_item_t *next)
{
    mcei_ncube_item_t *done = NULL;
    int bad = 42;
    mcei_ncube_action_t a = mcei_ncube_chan_dma_done(c, &done, &bad);
    assert_int_equal(bad, 0);
    assert_ptr_equal(done, want_done);
    if (next) {
        assert_int_equal(a, MCEI_VX_SEND_LEN);
        assert_int_equal(c->state, MCEI_VX_AWAIT_ACK);
        assert_ptr_equal(c->current, next);
        assert_null(next->next); /* unlinked from the queue */
    } else {
        assert_int_equal(a, MCEI_VX_NONE);
        assert_int_equal(c->state, MCEI_VX_IDLE);
        assert_null(c->current);
    }
}

static void test_chan_init(void **state)
{
    (void)state;
    mcei_ncube_chan_t c;
    memset(&c, 0xa5, sizeof(c)); /* init must not rely on zeroed memory */
    mcei_ncube_chan_init(&c);
    assert_int_equal(c.state, MCEI_VX_IDLE);
    assert_null(c.current);
    expect_queue(&c, NULL, 0);
    assert_int_equal(c.free_at, 0);
    assert_int_equal(c.held, 0);
    assert_int_equal(c.deferred, MCEI_VX_NONE);
    /* Idle: neither an acknowledgement nor an end of DMA is expected. */
    ack_bad(&c);
    dma_done_bad(&c);
}

static void test_chan_submit_idle(void **state)
{
    (void)state;
    mcei_ncube_chan_t c;
    mcei_ncube_item_t a;
    int payload;
    item_prep(&a, &payload);
    mcei_ncube_chan_init(&c);
    assert_int_equal(mcei_ncube_chan_submit(&c, &a), MCEI_VX_SEND_LEN);
    assert_int_equal(c.state, MCEI_VX_AWAIT_ACK);
    assert_ptr_equal(c.current, &a);
    assert_null(a.next);
    assert_ptr_equal(a.data, &payload); /* the protocol's data untouched */
    expect_queue(&c, NULL, 0);
    /* The handshake does not reserve the wire by itself. */
    assert_int_equal(c.free_at, 0);
}

static void test_chan_submit_busy(void **state)
{
    (void)state;
    mcei_ncube_chan_t c;
    mcei_ncube_item_t a, b, d, e;
    item_prep(&a, NULL);
    item_prep(&b, NULL);
    item_prep(&d, NULL);
    item_prep(&e, NULL);
    mcei_ncube_chan_init(&c);
    assert_int_equal(mcei_ncube_chan_submit(&c, &a), MCEI_VX_SEND_LEN);

    /* Waiting for the acknowledgement: later messages queue. */
    assert_int_equal(mcei_ncube_chan_submit(&c, &b), MCEI_VX_NONE);
    {
        mcei_ncube_item_t *want[] = {&b};
        expect_queue(&c, want, 1);
    }
    assert_int_equal(mcei_ncube_chan_submit(&c, &d), MCEI_VX_NONE);
    assert_int_equal(c.state, MCEI_VX_AWAIT_ACK);
    assert_ptr_equal(c.current, &a);
    {
        mcei_ncube_item_t *want[] = {&b, &d};
        expect_queue(&c, want, 2);
    }

    /* During the transfer too. */
    ack_ok(&c);
    assert_ptr_equal(c.current, &a);
    assert_int_equal(mcei_ncube_chan_submit(&c, &e), MCEI_VX_NONE);
    assert_int_equal(c.state, MCEI_VX_DMA);
    assert_ptr_equal(c.current, &a);
    {
        mcei_ncube_item_t *want[] = {&b, &d, &e};
        expect_queue(&c, want, 3);
    }
}

static void test_chan_ack(void **state)
{
    (void)state;
    mcei_ncube_chan_t c;
    mcei_ncube_item_t a, b;
    item_prep(&a, NULL);
    item_prep(&b, NULL);
    mcei_ncube_chan_init(&c);
    ack_bad(&c); /* idle */
    assert_int_equal(mcei_ncube_chan_submit(&c, &a), MCEI_VX_SEND_LEN);
    assert_int_equal(mcei_ncube_chan_submit(&c, &b), MCEI_VX_NONE);
    ack_ok(&c);
    assert_ptr_equal(c.current, &a);
    {
        mcei_ncube_item_t *want[] = {&b};
        expect_queue(&c, want, 1);
    }
    /* A second acknowledgement during the transfer is unexpected. */
    ack_bad(&c);
    assert_int_equal(c.state, MCEI_VX_DMA);
    ack_bad(&c);
    /* The bad acknowledgements did not disturb the transfer. */
    dma_done_ok(&c, &a, &b);
    ack_ok(&c);
    dma_done_ok(&c, &b, NULL);
    ack_bad(&c); /* idle again */
}

static void test_chan_dma_done(void **state)
{
    (void)state;
    mcei_ncube_chan_t c;
    mcei_ncube_item_t a, b, d, e;
    item_prep(&a, NULL);
    item_prep(&b, NULL);
    item_prep(&d, NULL);
    item_prep(&e, NULL);
    mcei_ncube_chan_init(&c);
    assert_int_equal(mcei_ncube_chan_submit(&c, &a), MCEI_VX_SEND_LEN);
    assert_int_equal(mcei_ncube_chan_submit(&c, &b), MCEI_VX_NONE);
    assert_int_equal(mcei_ncube_chan_submit(&c, &d), MCEI_VX_NONE);

    ack_ok(&c);
    dma_done_ok(&c, &a, &b);
    {
        mcei_ncube_item_t *want[] = {&d};
        expect_queue(&c, want, 1);
    }
    ack_ok(&c);
    dma_done_ok(&c, &b, &d);
    expect_queue(&c, NULL, 0);
    ack_ok(&c);
    dma_done_ok(&c, &d, NULL);
    expect_queue(&c, NULL, 0);

    /* Idle again: the next message starts at once, and a finished item
     * can be submitted again. */
    assert_int_equal(mcei_ncube_chan_submit(&c, &e), MCEI_VX_SEND_LEN);
    assert_ptr_equal(c.current, &e);
    assert_int_equal(mcei_ncube_chan_submit(&c, &a), MCEI_VX_NONE);
    ack_ok(&c);
    dma_done_ok(&c, &e, &a);
    ack_ok(&c);
    dma_done_ok(&c, &a, NULL);
}

static void test_chan_dma_done_bad(void **state)
{
    (void)state;
    mcei_ncube_chan_t c;
    mcei_ncube_item_t a, b;
    item_prep(&a, NULL);
    item_prep(&b, NULL);
    mcei_ncube_chan_init(&c);
    dma_done_bad(&c); /* idle */
    assert_int_equal(mcei_ncube_chan_submit(&c, &a), MCEI_VX_SEND_LEN);
    assert_int_equal(mcei_ncube_chan_submit(&c, &b), MCEI_VX_NONE);
    /* Length sent, no acknowledgement yet: no transfer can have ended. */
    dma_done_bad(&c);
    assert_int_equal(c.state, MCEI_VX_AWAIT_ACK);
    assert_ptr_equal(c.current, &a);
    ack_ok(&c);
    dma_done_ok(&c, &a, &b);
    dma_done_bad(&c); /* b awaits its acknowledgement */
    ack_ok(&c);
    dma_done_ok(&c, &b, NULL);
    dma_done_bad(&c);
}

static void test_chan_fifo_long(void **state)
{
    (void)state;
    enum { N = 200 };
    mcei_ncube_chan_t c;
    mcei_ncube_item_t it[N];
    mcei_ncube_chan_init(&c);
    for (size_t i = 0; i < N; i++) {
        item_prep(&it[i], &it[i]);
        assert_int_equal(mcei_ncube_chan_submit(&c, &it[i]),
                         i == 0 ? MCEI_VX_SEND_LEN : MCEI_VX_NONE);
        assert_int_equal(c.queued, i);
    }
    for (size_t i = 0; i < N; i++) {
        assert_ptr_equal(c.current, &it[i]);
        ack_ok(&c);
        dma_done_ok(&c, &it[i], i + 1 < N ? &it[i + 1] : NULL);
        assert_int_equal(c.queued, i + 1 < N ? N - i - 2 : 0);
        assert_ptr_equal(it[i].data, &it[i]);
    }
    expect_queue(&c, NULL, 0);
}

/* While held, nothing starts: a length request, a transfer after the
 * acknowledgement and the next length request after an end of DMA are
 * each handed back by the release, once, in the state they left. */
static void test_chan_hold(void **state)
{
    (void)state;
    mcei_ncube_chan_t c;
    mcei_ncube_item_t a, b;
    mcei_ncube_item_t *done = &poison_item;
    int bad = 42;
    item_prep(&a, &a);
    item_prep(&b, &b);
    mcei_ncube_chan_init(&c);

    /* Released with nothing deferred: nothing to do. */
    mcei_ncube_chan_hold(&c);
    assert_int_equal(mcei_ncube_chan_release(&c), MCEI_VX_NONE);
    assert_int_equal(c.held, 0);

    /* An idle channel's length request waits for the release. */
    mcei_ncube_chan_hold(&c);
    assert_int_equal(mcei_ncube_chan_submit(&c, &a), MCEI_VX_NONE);
    assert_int_equal(c.state, MCEI_VX_AWAIT_ACK);
    assert_ptr_equal(c.current, &a);
    assert_int_equal(mcei_ncube_chan_release(&c), MCEI_VX_SEND_LEN);
    assert_int_equal(mcei_ncube_chan_release(&c), MCEI_VX_NONE); /* once */

    /* The acknowledgement arrives while held: the DMA is deferred, and
     * that is not misuse. */
    mcei_ncube_chan_hold(&c);
    assert_int_equal(mcei_ncube_chan_ack(&c, &bad), MCEI_VX_NONE);
    assert_int_equal(bad, 0);
    assert_int_equal(c.state, MCEI_VX_DMA);
    /* A second message queues behind, as it would unheld. */
    assert_int_equal(mcei_ncube_chan_submit(&c, &b), MCEI_VX_NONE);
    expect_queue(&c, (mcei_ncube_item_t *const[]){&b}, 1);
    assert_int_equal(mcei_ncube_chan_release(&c), MCEI_VX_START_DMA);

    /* The end of a DMA that was already running when the hold began
     * finishes the message; the next length request waits. */
    mcei_ncube_chan_hold(&c);
    assert_int_equal(mcei_ncube_chan_dma_done(&c, &done, &bad), MCEI_VX_NONE);
    assert_int_equal(bad, 0);
    assert_ptr_equal(done, &a);
    assert_ptr_equal(c.current, &b);
    assert_int_equal(c.state, MCEI_VX_AWAIT_ACK);
    expect_queue(&c, NULL, 0);
    assert_int_equal(mcei_ncube_chan_release(&c), MCEI_VX_SEND_LEN);

    /* Unheld again: the usual answers. */
    ack_ok(&c);
    assert_int_equal(mcei_ncube_chan_dma_done(&c, &done, &bad), MCEI_VX_NONE);
    assert_ptr_equal(done, &b);
    assert_int_equal(c.state, MCEI_VX_IDLE);
    /* The hold never touched the wire. */
    assert_int_equal(c.free_at, 0);
}

/* Random submits, acknowledgements and ends of DMA (expected or not)
 * against a reference: a state, a current message and a FIFO array. */
static void test_chan_random(void **state)
{
    (void)state;
    enum { NITEMS = 64, STEPS = 200000 };
    mcei_ncube_chan_t c;
    mcei_ncube_item_t it[NITEMS];
    int busy[NITEMS] = {0}; /* in the channel (current or queued) */
    size_t fifo[NITEMS], fhead = 0, nq = 0;
    mcei_ncube_chan_state_t rstate = MCEI_VX_IDLE;
    long rcur = -1;
    size_t completed = 0, bads = 0, maxq = 0, idles = 0;
    size_t order_next = 0; /* completion order must equal submit order */
    size_t seq[NITEMS], nextseq = 0;

    rng_seed(0xc4a11e5ULL);
    mcei_ncube_chan_init(&c);
    for (size_t i = 0; i < NITEMS; i++)
        item_prep(&it[i], &it[i]);

    for (int step = 0; step < STEPS; step++) {
        /* Alternate phases that fill the queue and that drain it, so the
         * channel goes idle again and again. */
        int filling = (step / 1000) % 2 == 0;
        uint32_t op = rng_below(filling ? 10 : 40);
        if (op < 4) {
            size_t i = rng_below(NITEMS);
            if (busy[i])
                continue;
            item_prep(&it[i], &it[i]);
            busy[i] = 1;
            seq[i] = nextseq++;
            mcei_ncube_action_t a = mcei_ncube_chan_submit(&c, &it[i]);
            if (rstate == MCEI_VX_IDLE) {
                assert_int_equal(nq, 0);
                assert_int_equal(a, MCEI_VX_SEND_LEN);
                rstate = MCEI_VX_AWAIT_ACK;
                rcur = (long)i;
            } else {
                assert_int_equal(a, MCEI_VX_NONE);
                fifo[(fhead + nq) % NITEMS] = i;
                nq++;
            }
        } else if (filling ? op < 7 : op < 22) {
            int bad = 42;
            mcei_ncube_action_t a = mcei_ncube_chan_ack(&c, &bad);
            if (rstate == MCEI_VX_AWAIT_ACK) {
                assert_int_equal(a, MCEI_VX_START_DMA);
                assert_int_equal(bad, 0);
                rstate = MCEI_VX_DMA;
            } else {
                assert_int_equal(a, MCEI_VX_NONE);
                assert_int_equal(bad, 1);
                bads++;
            }
        } else {
            int bad = 42;
            mcei_ncube_item_t *done = &poison_item;
            mcei_ncube_action_t a = mcei_ncube_chan_dma_done(&c, &done, &bad);
            if (rstate == MCEI_VX_DMA) {
                assert_int_equal(bad, 0);
                assert_ptr_equal(done, &it[rcur]);
                assert_int_equal(seq[rcur], order_next);
                order_next++;
                busy[rcur] = 0;
                completed++;
                if (nq > 0) {
                    assert_int_equal(a, MCEI_VX_SEND_LEN);
                    rcur = (long)fifo[fhead];
                    fhead = (fhead + 1) % NITEMS;
                    nq--;
                    rstate = MCEI_VX_AWAIT_ACK;
                } else {
                    assert_int_equal(a, MCEI_VX_NONE);
                    rcur = -1;
                    rstate = MCEI_VX_IDLE;
                }
            } else {
                assert_int_equal(a, MCEI_VX_NONE);
                assert_int_equal(bad, 1);
                assert_ptr_equal(done, &poison_item);
                bads++;
            }
        }
        /* Compare the whole state after every step. */
        assert_int_equal(c.state, rstate);
        if (rcur < 0)
            assert_null(c.current);
        else
            assert_ptr_equal(c.current, &it[rcur]);
        assert_int_equal(c.queued, nq);
        const mcei_ncube_item_t *q = c.head;
        for (size_t k = 0; k < nq; k++) {
            assert_ptr_equal(q, &it[fifo[(fhead + k) % NITEMS]]);
            if (k + 1 == nq)
                assert_ptr_equal(c.tail, q);
            q = q->next;
        }
        assert_null(q);
        if (nq == 0) {
            assert_null(c.head);
            assert_null(c.tail);
        }
        if (nq > maxq)
            maxq = nq;
        if (rstate == MCEI_VX_IDLE)
            idles++;
    }
    /* The run exercised long queues, completions and misuse. */
    assert_true(completed > 1000);
    assert_true(bads > 1000);
    assert_true(maxq > 10);
    assert_true(idles > 1000);
}

static void test_chan_wire(void **state)
{
    (void)state;
    mcei_ncube_chan_t c;
    mcei_ncube_item_t a;
    item_prep(&a, NULL);
    mcei_ncube_chan_init(&c);

    /* Free wire: starts at the request. */
    assert_int_equal(mcei_ncube_chan_wire(&c, 100, 50), 100);
    assert_int_equal(c.free_at, 150);
    /* Busy wire: waits for free_at. */
    assert_int_equal(mcei_ncube_chan_wire(&c, 120, 30), 150);
    assert_int_equal(c.free_at, 180);
    /* Requested exactly when the wire frees. */
    assert_int_equal(mcei_ncube_chan_wire(&c, 180, 5), 180);
    assert_int_equal(c.free_at, 185);
    /* Idle gap: the wire does not start early. */
    assert_int_equal(mcei_ncube_chan_wire(&c, 500, 10), 500);
    assert_int_equal(c.free_at, 510);
    /* A zero-length reservation does not move free_at. */
    assert_int_equal(mcei_ncube_chan_wire(&c, 505, 0), 510);
    assert_int_equal(c.free_at, 510);
    assert_int_equal(mcei_ncube_chan_wire(&c, 600, 0), 600);
    assert_int_equal(c.free_at, 600);
    /* An earlier request after a later one still queues behind it. */
    assert_int_equal(mcei_ncube_chan_wire(&c, 0, 7), 600);
    assert_int_equal(c.free_at, 607);

    /* Back-to-back reservations requested at the same time serialize. */
    mcei_ncube_chan_init(&c);
    for (mce_time_t k = 0; k < 5; k++)
        assert_int_equal(mcei_ncube_chan_wire(&c, 1000, 10), 1000 + 10 * k);
    assert_int_equal(c.free_at, 1050);

    /* The wire is independent of the handshake state. */
    mcei_ncube_chan_init(&c);
    assert_int_equal(mcei_ncube_chan_submit(&c, &a), MCEI_VX_SEND_LEN);
    assert_int_equal(mcei_ncube_chan_wire(&c, 3 * MCE_US, 2 * MCE_US),
                     3 * MCE_US);
    assert_int_equal(c.state, MCEI_VX_AWAIT_ACK);
    assert_ptr_equal(c.current, &a);
    assert_int_equal(c.free_at, 5 * MCE_US);

    /* Large virtual times (no truncation to 32 bits). */
    mcei_ncube_chan_init(&c);
    mce_time_t big = (mce_time_t)1 << 40;
    assert_int_equal(mcei_ncube_chan_wire(&c, big, big), big);
    assert_int_equal(c.free_at, 2 * big);
    assert_int_equal(mcei_ncube_chan_wire(&c, 1, 3), 2 * big);
    assert_int_equal(c.free_at, 2 * big + 3);
}

/* Random reservations: every one starts no earlier than requested and no
 * earlier than the previous one ended, and as early as both allow. */
static void test_chan_wire_random(void **state)
{
    (void)state;
    mcei_ncube_chan_t c;
    mce_time_t end = 0, busy = 0, t = 0, first = 0;
    rng_seed(0x3172eULL);
    mcei_ncube_chan_init(&c);
    for (int i = 0; i < 10000; i++) {
        t += rng_below(60);
        if (rng_below(4) == 0 && t > 100)
            t -= rng_below(100); /* requests need not be monotonic */
        mce_time_t dur = rng_below(50);
        mce_time_t want = t > end ? t : end;
        mce_time_t s = mcei_ncube_chan_wire(&c, t, dur);
        assert_int_equal(s, want);
        assert_true(s >= t);
        assert_true(s >= end);
        if (i == 0)
            first = s;
        end = s + dur;
        busy += dur;
        assert_int_equal(c.free_at, end);
        /* Reservations never overlap: the wire was busy at most for the
         * span since the first one started. */
        assert_true(busy <= end - first);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chan_init),
        cmocka_unit_test(test_chan_submit_idle),
        cmocka_unit_test(test_chan_submit_busy),
        cmocka_unit_test(test_chan_ack),
        cmocka_unit_test(test_chan_dma_done),
        cmocka_unit_test(test_chan_dma_done_bad),
        cmocka_unit_test(test_chan_fifo_long),
        cmocka_unit_test(test_chan_hold),
        cmocka_unit_test(test_chan_random),
        cmocka_unit_test(test_chan_wire),
        cmocka_unit_test(test_chan_wire_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
