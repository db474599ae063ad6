/* mce-predict, Feldmann, Gross, O'Hallaron and Stricker 1992: the SRU
 * and CAM ring primitives and subset barriers. */
#include "predict.h"

/* ---- iWarp SRU and anonymous-destination ring (Feldmann et al. 1992)
 * ---------------- */

/* Feldmann, Gross, O'Hallaron, Stricker, sections 3 and 5, in clocks
 * (share/machines/iwarp.conf): SRU bit 16, 36 bits, software 337 + 337;
 * ring compose 20, split 240, join 240, load 12, word 4, hop 4. */
static int64_t ceil_to(int64_t v, int64_t q)
{
    return (v + q - 1) / q * q;
}

void cmd_subset(int argc, char **argv)
{
    static const char *const algs[] = {"bcast", "ring",    "ring1",
                                       "ring2", "ring3",   "ring3r",
                                       "total", "total2d", NULL};
    struct opts o = {{"alg", "n", "hops", "words", "spread", "stride", NULL},
                     {0}};
    const int64_t bit = 16, msg = 36 * 16, S = 337, R = 337, L = 2;
    const int64_t compose = 20, split = 240, join = 240, load = 12;
    const int64_t word = 4, hop = 4, N = 64, lgN = 6, W = 8, tick = 8;
    int alg, lg = 0;
    int64_t n, h, k, t, stride;
    parse_opts(argc, argv, &o, NULL);
    alg = opt_choice(&o, "alg", algs, -1);
    n = opt_int(&o, "n", 2, 64, 64, 0);
    h = opt_int(&o, "hops", 1, 63, 1, 0);
    k = opt_int(&o, "words", 0, 7, 2, 0);
    t = opt_int(&o, "spread", 0, 100000000, 0, 0);
    stride = opt_int(&o, "stride", 1, 64, 1, 0);
    while (((int64_t)1 << lg) < n)
        lg++;
    kv_s("alg", algs[alg]);
    kv_i("n", n);
    if (alg == 0) {
        /* one broadcast step: send_sw, the message, recv_sw; emulated:
         * the request starts at the next bit boundary after the 2-clock
         * lookahead (starts aligned to a bit boundary) */
        kv_i("message_clocks", msg);
        kv_i("step_clocks", S + msg + R);
        kv_i("step_emulated_clocks", ceil_to(S + L, bit) + msg + R);
        /* Algorithm 1 with n arrivals: at least n messages on the bus */
        kv_i("bus_bound_clocks", n * msg + S + R);
        /* one straggler: "two broadcasts (125 us)" (F 5) */
        kv_i("straggler_clocks", 2 * (S + msg + R));
        /* emulated: the straggler's reached(b), then every counter's
         * complete(b) (identical words merge on the wired-OR bus), each
         * starting on a bit boundary */
        kv_i("straggler_emulated_clocks",
             ceil_to(S + L, bit) + msg + ceil_to(R + S + L, bit) + msg + R);
        kv_i("straggler_paper_clocks", 2500);
        /* F 5: all participants leave Phase 2 at once; timers agree to
         * 800 ns (16 clocks) */
        kv_i("exit_spread_paper_clocks", 16);
        /* the timers so synchronised: each reads its timer at the exit
         * and at a later common event, each reading within one tick
         * (400 ns, iwarp.timer_tick): 2 ticks = the paper's 800 ns */
        kv_i("timer_tick_clocks", tick);
        kv_i("sync_bound_clocks", 2 * tick);
        kv_i("sync_paper_clocks", 16);
    } else if (alg >= 6) {
        /* F 5: "a fast total barrier using logical channels ... about
         * 60 us using a ring, and about 10 us if more logical channels
         * are used": the paper's figures, and Warfel 1996's Figure 4.19
         * formula for the same barriers over PCT connections (startup 40
         * + message times of 575 ns = 11.5 clocks, in tenths): the token
         * twice round N cells (2N messages), rows then columns of a
         * W x W torus (2 (W - 1) in sequence) */
        int64_t msgs = alg == 6 ? 2 * N : 2 * (W - 1);
        kv_i("messages_sequential", msgs);
        kv_i("paper_clocks", alg == 6 ? 1200 : 200);
        kv_i("fig419_tenths", 400 + msgs * 115);
    } else {
        int64_t send = compose + split + k * word + join;
        int64_t recv = load + split + k * word + join;
        /* Theorem 9: t_r = once round the ring, t_s = receive and send
         * (the receive's split, words and join, then compose and split
         * until the message is on the ring again) */
        int64_t tr = N * hop, ts = split + k * word + join + compose + split;
        int64_t polls = t / (tr + ts);
        int64_t k2 = 0;
        kv_i("words", k);
        kv_i("hops", h);
        kv_i("selective_send_clocks", send);
        kv_i("selective_receive_clocks", recv);
        /* a message to a waiting receiver h hops away (its CAM loaded):
         * compose + split, the hops, then split + words + join */
        kv_i("step_clocks",
             compose + split + h * hop + split + k * word + join);
        kv_i("rounds_ring1", n);
        kv_i("rounds_ring2", 2 * lg);
        /* one straggler: "one message plus the cost for Phase 2 (305 us)" */
        kv_i("straggler_paper_clocks", 6100);
        /* message counts (F 4.3.4, Theorem 9), N = 64 cells on the ring;
         * spread = t, the first to the last arrival */
        kv_i("spread", t);
        kv_i("t_r", tr);
        kv_i("t_s", ts);
        kv_i("polls_max", polls);
        kv_i("messages1_min", n);
        kv_i("messages1_max", 2 * n + polls);
        kv_i("wires_max", N * (n + (alg == 2 ? 1 : lgN) + polls));
        /* Lemma 6: every (2^k)-th cell, nothing between: log N - k */
        while (((int64_t)1 << k2) < stride)
            k2++;
        kv_i("stride", stride);
        kv_i("rounds1_every_max", lgN - k2);
        /* Lemma 5: bit-reversed Ids, at most 2 sqrt(N) and n + 1 */
        kv_i("rounds1_max", 2 * 8 < n + 1 ? 2 * 8 : n + 1);
        /* Theorem 7, rows (c) and (d): RING3's Phase 2 is O(log N) on a
         * contiguous subset but O(n) on every 2^k-th cell; the randomised
         * RING3 O(log N + log^2 n) in both (expected; the O-bounds with
         * constant 1, the paper prints none) */
        kv_i("rounds2_ring3_every", n);
        kv_i("rounds2_random_bound", lgN + (int64_t)lg * lg);
    }
    kv_end();
}
