/* Subset barrier synchronization on the iWarp (Feldmann, Gross,
 * O'Hallaron, Stricker; doc/design/iwarp-tcs.md, section 7).
 *
 *   bcast   Algorithm 1 on the System Reporting Unit: every participant
 *           broadcasts reached(b) (with its Id in the low bits, so that
 *           two arrivals on one bit boundary collide and are rebroadcast),
 *           counts reached(b) words until all arrived or complete(b) is
 *           heard, and the counters broadcast complete(b) (identical
 *           words: the wired-OR bus merges them) and receive it.
 *   ring1   tournament Phase 1 (F Algorithm 3) on the anonymous
 *           destination ring, complete(b) passed participant to
 *           participant;
 *   ring2   Phase 1 also carries the set of Ids seen; the winner notifies
 *           the nearest participant and the one halfway round, each with
 *           the range it notifies in turn (header id_k(b));
 *   ring3   Phase 2 by classes c(k) = ceil(log N) - ceil(log(N - k)).
 *   ring3r  RING3 with randomly drawn classes (F 4.3.2; see my_class).
 *   total   the paper's total barrier over logical channels (F 5): a
 *           token twice round a PCT ring through all cells;
 *   total2d the same over rows, then columns (a higher-order network).
 *
 * --timesync: the participants' timers zeroed at the exit and read at one
 * later SRU marker (F 5's 800 ns timer synchronisation).
 *
 * Ids: the participant at index x (ring order within its subset) has Id
 * bitrev(x) over ceil(log2 n) bits (F 4.3.1).  Subsets: k barriers of n
 * cells each run at once, on contiguous ring segments or interleaved.
 * Every participant enters at the same virtual time, or, with
 * --straggler, all but the last participant of subset 0, which enters
 * D clocks later.  The time printed is the last exit minus the last
 * entry, gathered through the SRU after the measurement.
 *
 * --mode=sru-test and --mode=cam-test exercise the SRU buffer and the
 * CAM's capacity; --mode=steps times one SRU broadcast and one ring
 * message over --hops=H hops with --words=K words.
 *
 * usage: subset_barrier --mce-nodes=64
 *        [--alg=bcast|ring1|ring2|ring3|ring3r|total|total2d] [--timesync]
 *        [--n=2..64] [--subsets=K|max] [--layout=contiguous|interleaved]
 *        [--straggler[=D]] [--mode=barrier|sru-test|cam-test|steps]
 *        [--format=table|csv|json]  (sru-test: rows from several cells, in
 *        JSON one object each)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iwarp.h>

#include "iwapp.h"
#include "opts.h"

enum { BCAST, RING1, RING2, RING3, RING3R, TOTAL, TOTAL2D };
static const char *const algs[] = {"bcast",  "ring1", "ring2",  "ring3",
                                   "ring3r", "total", "total2d"};

#define RINGALG(a) ((a) >= RING1 && (a) <= RING3R)

enum { T_REACHED = 1, T_COMPLETE, T_CLASS, T_ID };

/* lbits: log2 of the ring's cell count N (the Ids' width); plist: the
 * ring positions of this cell's subset, in ring order. */
static int alg = RING2, n = 8, lbits, idx, myid, subset, nsub = 1;
static int cells, entries = 4;
static int plist[64];

/* instrumentation, not sent: selective sends in each phase, polling
 * sends, the causal depth (longest chain of messages leading here) and
 * the depth and time at which this cell won Phase 1 */
static unsigned sends1, sends2, polls, depth, depth_win;
static unsigned long long t_win, tzero, tread;
static int won_p1;

static void die(const char *msg)
{
    if (iwarp_cell() == 0)
        fprintf(stderr, "subset_barrier: %s\n", msg);
    exit(2);
}

static void check(int rc, const char *what)
{
    if (rc < 0) {
        fprintf(stderr, "subset_barrier: %s failed (%d)\n", what, rc);
        exit(1);
    }
}

static uint32_t hdr(int tag, int x)
{
    return (uint32_t)(subset + 1) << 20 | (uint32_t)tag << 12 | (uint32_t)x;
}

/* F 4.3.1: the processor at ring position x has Id bitrev(x) over
 * log2 N bits (N = all cells on the ring). */
static int bitrev(int x)
{
    int r = 0;
    for (int i = 0; i < lbits; i++)
        r |= ((x >> i) & 1) << (lbits - 1 - i);
    return r;
}

static int ceil_log2(int v)
{
    int l = 0;
    while ((1 << l) < v)
        l++;
    return l;
}

/* F Algorithm 3: c(k) = ceil(log N) - ceil(log(N - k)) */
static int class_of(int id)
{
    return ceil_log2(cells) - ceil_log2(cells - id);
}

/* RING3's class: F Algorithm 3's c(Id), or for the randomised RING3
 * (F 4.3.2: "if every processor chooses its class randomly according to a
 * certain distribution ... O(log^2 n)" expected rounds) a draw from the
 * distribution that c(k) gives uniformly spread Ids, P(c) = 2^-(c+1),
 * here over the subset's size (classes 0 .. ceil(log2 n), the last one
 * taking the rest) so that the classes scale with n.  The paper leaves
 * the distribution to its technical report [7]: this one is assumed.
 * The draw is a hash of --mce-seed and the ring position (reproducible,
 * the same on any number of ranks). */
static int my_class(void)
{
    uint64_t r;
    int c = 0, top = ceil_log2(n);
    if (alg != RING3R)
        return class_of(myid);
    r = mce_seed() ^ (0x9e3779b97f4a7c15ull * (uint64_t)(bitrev(myid) + 1));
    r ^= r >> 30;
    r *= 0xbf58476d1ce4e5b9ull;
    r ^= r >> 27;
    r *= 0x94d049bb133111ebull;
    r ^= r >> 31;
    while (c < top && (r & 1)) {
        c++;
        r >>= 1;
    }
    return c;
}

/* The causal depth travels in the high half of the Id word (the Ids and
 * counts need at most 6 bits): no extra word, no extra time. */
static uint32_t stamp(uint32_t w0)
{
    return w0 | (uint32_t)depth << 16;
}

static uint32_t unstamp(uint32_t w0)
{
    unsigned d = w0 >> 16;
    if (d + 1 > depth)
        depth = d + 1;
    return w0 & 0xffffu;
}

/* ---- Algorithm 1 on the SRU ------------------------------------------- */

/* The cell keeps reading its one-word buffer while its own messages are
 * on the bus (iwarp_sru_send), so that no word is discarded unread; its
 * own message jammed (jam 2) is sent again. */
static void bcast_barrier(void)
{
    uint32_t reached = hdr(T_REACHED, 0), complete = hdr(T_COMPLETE, 0), w;
    uint32_t mine = reached | (uint32_t)myid;
    int i = 0, jam;
    sends1++;
    check(iwarp_sru_send(mine), "iwarp_sru_send");
    do {
        check(iwarp_sru_recv(&w, &jam), "iwarp_sru_recv");
        if (jam == 2) {
            sends1++;
            check(iwarp_sru_send(mine), "iwarp_sru_send");
        } else if (!jam && (w & ~0xfffu) == reached)
            i++;
    } while (i < n && !(!jam && w == complete));
    if (i == n) {
        sends2++;
        check(iwarp_sru_send(complete), "iwarp_sru_send");
        do {
            check(iwarp_sru_recv(&w, &jam), "iwarp_sru_recv");
            if (jam == 2) {
                sends2++;
                check(iwarp_sru_send(complete), "iwarp_sru_send");
            }
        } while (jam || w != complete);
    }
}

/* ---- ring algorithms -------------------------------------------------- */

static uint32_t mask[4];
static int nmask;

static void set_mask(void)
{
    nmask = 0;
    mask[nmask++] = hdr(T_REACHED, 0);
    if (alg == RING1) {
        mask[nmask++] = hdr(T_COMPLETE, 0);
    } else if (alg == RING2) {
        mask[nmask++] = hdr(T_ID, myid);
    } else {
        int c = my_class();
        mask[nmask++] = hdr(T_CLASS, 0);
        if (c > 0)
            mask[nmask++] = hdr(T_CLASS, c);
    }
    for (int e = 0; e < nmask; e++)
        check(iwarp_cam_set(e, mask[e]), "iwarp_cam_set");
}

static void ssend(uint32_t h, uint32_t *w, size_t k, int phase)
{
    if (k > 0)
        w[0] = stamp(w[0]);
    if (phase == 1)
        sends1++;
    else
        sends2++;
    check(iwarp_selective_send(h, w, k), "iwarp_selective_send");
}

static uint32_t srecv(const uint32_t *set, int ns, uint32_t *w)
{
    uint32_t h;
    size_t k;
    check(iwarp_selective_receive(set, ns, &h, w, 7, &k),
          "iwarp_selective_receive");
    if (k > 0)
        w[0] = unstamp(w[0]);
    return h;
}

/* RING2: notify the @p m participants next downstream of this cell, from
 * the participant set @p set (Ids; position = bitrev(Id)): the one
 * halfway (offset 1 + m/2) with the far half, then the nearest with the
 * near half.  The far message goes first so that it passes the nearest
 * participant before that one's pathway is split by its own message. */
static void ring2_notify(int m, uint64_t set)
{
    uint32_t w[3];
    int far = 1 + m / 2, list[64], k = 0, me = 0;
    if (m < 1)
        return;
    for (int x = 0; x < cells; x++)
        if (set >> bitrev(x) & 1) {
            if (x == iwarp_ring_position())
                me = k;
            list[k++] = x;
        }
    w[1] = (uint32_t)set;
    w[2] = (uint32_t)(set >> 32);
    if (m >= 2) {
        w[0] = (uint32_t)(m - far);
        ssend(hdr(T_ID, bitrev(list[(me + far) % k])), w, 3, 2);
    }
    w[0] = (uint32_t)(m >= 2 ? far - 2 : 0);
    w[1] = (uint32_t)set;
    ssend(hdr(T_ID, bitrev(list[(me + 1) % k])), w, 3, 2);
}

static void ring_barrier(void)
{
    uint32_t reached = hdr(T_REACHED, 0), w[7], h = 0, m[7];
    uint64_t set = (uint64_t)1 << myid;
    int i = 0, won = 0, have = 0;
    size_t len = alg == RING2 ? 4 : 2;
    m[0] = (uint32_t)myid;
    m[1] = 0;
    m[2] = (uint32_t)set;
    m[3] = (uint32_t)(set >> 32);
    ssend(reached, m, len, 1);
    for (;;) {
        int idr;
        h = srecv(mask, nmask, w);
        if (h != reached) {
            have = 1; /* Phase 2 already running */
            break;
        }
        idr = (int)w[0];
        i += (int)w[1];
        if (alg == RING2)
            set |= (uint64_t)w[2] | (uint64_t)w[3] << 32;
        if (idr < myid) {
            i++;
        } else if (idr == myid) {
            if (i == n - 1) {
                won = 1;
                break;
            }
            m[0] = (uint32_t)myid;
            m[1] = 0;
            m[2] = (uint32_t)set;
            m[3] = (uint32_t)(set >> 32);
            polls++;
            ssend(reached, m, len, 1);
        } else {
            m[0] = (uint32_t)idr;
            m[1] = (uint32_t)i;
            m[2] = (uint32_t)set;
            m[3] = (uint32_t)(set >> 32);
            /* a loser listens to Phase 2 only */
            check(iwarp_cam_clear(0), "iwarp_cam_clear");
            ssend(reached, m, len, 1);
            break;
        }
    }
    if (won) {
        won_p1 = 1;
        depth_win = depth;
        t_win = iwarp_vtime();
    }
    /* Phase 2: the mask without reached(b) */
    if (alg == RING1) {
        uint32_t set1[1] = {hdr(T_COMPLETE, 0)};
        if (won) {
            w[0] = (uint32_t)myid;
            ssend(set1[0], w, 1, 2);
            return;
        }
        if (!have)
            srecv(set1, 1, w);
        ssend(set1[0], w, 1, 2);
    } else if (alg == RING2) {
        uint32_t set1[1] = {hdr(T_ID, myid)};
        if (won) {
            uint64_t all = 0;
            for (int x = 0; x < n; x++)
                all |= (uint64_t)1 << bitrev(plist[x]);
            if (set != all) {
                fprintf(stderr, "subset_barrier: winner saw Ids %llx\n",
                        (unsigned long long)set);
                exit(1);
            }
            ring2_notify(n - 1, set);
            return;
        }
        if (!have)
            srecv(set1, 1, w);
        ring2_notify((int)w[0], (uint64_t)w[1] | (uint64_t)w[2] << 32);
    } else {
        int c = my_class(), got0 = 0;
        uint32_t set1[2] = {hdr(T_CLASS, 0), hdr(T_CLASS, c)};
        int ns = c > 0 ? 2 : 1;
        if (!won) {
            if (!have)
                h = srecv(set1, ns, w);
            got0 = h == hdr(T_CLASS, 0);
        }
        for (int l = c; l >= 0; l--) {
            w[0] = (uint32_t)myid;
            ssend(hdr(T_CLASS, l), w, 1, 2);
        }
        while (!got0) {
            h = srecv(set1, ns, w);
            got0 = h == hdr(T_CLASS, 0);
        }
    }
}

/* ---- the paper's total barrier over logical channels ------------------ */

/* F 5: "we coded a fast total barrier using logical channels ... about
 * 60 us using a ring, and about 10 us if more logical channels are used
 * (to build a higher order network)".  total: a token twice round a ring
 * of PCT connections through all cells (the snake of apps/iwapp.c; the
 * first pass finds every cell arrived, the second, from the cell that
 * saw it come back, says the barrier is complete: the "processor that
 * sends the barrier complete message" of the bitmask barriers); total2d:
 * the higher-order network, a ring over each row, then over each column
 * (every row and column closed by its wrap link).  The program's own
 * work is Warfel's barrier code's (app.barrier_startup, app.barrier_loop
 * per ring stage; the paper gives none of its own), so these are the
 * token2x and ring2d barriers of apps/iwarp/iwarp_barrier over the whole
 * array. */
static iwapp_conn_t tcon[128];
static iwapp_conns_t tconns;
static int tsnake[64], tri;
static long tstartup, tloop;

static void total_setup(void)
{
    int aw = iwarp_width(), ah = iwarp_height(), me = iwarp_cell(), worst;
    int need, dims = alg == TOTAL ? 1 : 2;
    tconns = (iwapp_conns_t){
        .con = tcon, .cap = 128, .aw = aw, .ah = ah, .prog = "subset_barrier"};
    iwapp_snake(aw, aw, ah, tsnake);
    for (int k = 0; k < cells; k++)
        if (tsnake[k] == me)
            tri = k;
    if (alg == TOTAL) {
        for (int k = 0; k < cells; k++)
            iwapp_conn_straight(&tconns, tsnake[k], tsnake[(k + 1) % cells]);
    } else {
        for (int c = 0; c < cells; c++)
            iwapp_conn_ring_edge(&tconns, c, c % aw, aw, 1, IW_XP, IW_XM);
        for (int c = 0; c < cells; c++) {
            iwapp_conn_ring_edge(&tconns, c, c / aw, ah, 1, IW_YP, IW_YM);
            tcon[tconns.n - 1].share = c; /* one out PCT: the row's */
        }
    }
    need = iwapp_conn_pcts(&tconns, 0, &worst);
    if (need > iwapp_param("subset_barrier", "iwarp.pcts"))
        die("--alg=total: not enough PCTs for the connections");
    tstartup = iwapp_param("subset_barrier", "app.barrier_startup");
    tloop = iwapp_param("subset_barrier", "app.barrier_loop");
    iwapp_conn_configure(&tconns, me, 0);
    /* W0: the out PCT (the ring, or the rows and then the columns); R0/R1
     * the ring or the rows / the columns */
    for (int d = 0; d < dims; d++)
        for (int c = d * cells; c < (d + 1) * cells; c++) {
            if (tcon[c].src == me && d == 0)
                check(iwarp_gate_bind(IW_W0 + d, tcon[c].pct[0]),
                      "iwarp_gate_bind");
            if (tcon[c].dst == me)
                check(iwarp_gate_bind(IW_R0 + d, tcon[c].pct[tcon[c].hops]),
                      "iwarp_gate_bind");
        }
}

static void tsend(int phase)
{
    if (phase == 1)
        sends1++;
    else
        sends2++;
    check(iwarp_gate_write(IW_W0, 1), "iwarp_gate_write");
}

static void trecv(int d)
{
    uint32_t w;
    check(iwarp_gate_read(IW_R0 + d, &w), "iwarp_gate_read");
}

static void total_barrier(void)
{
    iwarp_compute((unsigned long)tstartup);
    if (alg == TOTAL) {
        if (tri == 0) {
            tsend(1);
            trecv(0);
            tsend(2);
            trecv(0);
        } else {
            trecv(0);
            tsend(1);
            trecv(0);
            tsend(2);
        }
        return;
    }
    for (int d = 0; d < 2; d++) {
        /* the out PCT from the row to the column once its last row word
         * has left (W 4.5.3.3 "a single additional PCT"; design s.6.4) */
        if (d == 1)
            iwapp_conn_repoint(&tconns,
                               iwarp_cell() + iwarp_width() * iwarp_height());
        for (int s = 0; s < (d ? iwarp_height() : iwarp_width()) - 1; s++) {
            iwarp_compute((unsigned long)tloop);
            tsend(d + 1);
            trecv(d);
        }
    }
}

/* ---- semantics tests -------------------------------------------------- */

static int sru_test(void)
{
    /* cell 0 broadcasts A then B while cell 1 computes; cell 1 then finds
     * only B (A was discarded unread). */
    int cell = iwarp_cell(), jam = 0;
    uint32_t w = 0;
    if (cell == 0) {
        check(iwarp_sru_broadcast(0xA), "broadcast");
        check(iwarp_sru_broadcast(0xB), "broadcast");
    } else if (cell == 1) {
        iwarp_compute(5000);
        check(iwarp_sru_recv(&w, &jam), "recv");
        unsigned long lost = iwarp_sru_lost();
        int poll = iwarp_sru_poll(&w, &jam);
        app_row("sru_test",
                APP_FIELDS(APP_U("received", w), APP_I("jam", jam),
                           APP_U("lost", lost), APP_I("poll_after", poll)),
                "subset_barrier: sru-test received=0x%X jam=%d lost=%lu "
                "poll_after=%d\n",
                (unsigned)w, jam, lost, poll);
    } else if (cell == 2) {
        iwarp_align(10000);
        /* cells 2 and 3 broadcast different words at the same time: a
         * collision, both see IW_JAMMED */
        int rc = iwarp_sru_broadcast(0x10);
        app_row("sru_collision", APP_FIELDS(APP_I("cell", 2), APP_I("rc", rc)),
                "subset_barrier: sru-test collision cell=2 rc=%d\n", rc);
    } else if (cell == 3) {
        iwarp_align(10000);
        int rc = iwarp_sru_broadcast(0x20);
        app_row("sru_collision", APP_FIELDS(APP_I("cell", 3), APP_I("rc", rc)),
                "subset_barrier: sru-test collision cell=3 rc=%d\n", rc);
    }
    return 0;
}

static int cam_test(void)
{
    int cell = iwarp_cell();
    if (cell == 0) {
        uint32_t hs[5] = {1, 2, 3, 4, 5}, h, w[7];
        size_t k;
        for (int e = 0; e < entries; e++)
            check(iwarp_cam_set(e, hs[e]), "iwarp_cam_set");
        int set5 = iwarp_cam_set(entries, 5);
        int recv5 = iwarp_selective_receive(hs, 5, &h, w, 7, &k);
        app_row("cam_test",
                APP_FIELDS(APP_I("set5", set5), APP_I("recv5", recv5)),
                "subset_barrier: cam-test set5=%d recv5=%d\n", set5, recv5);
    }
    return 0;
}

/* One SRU broadcast from cell 0 received by cell 1, and one ring message
 * of @p words words from ring position 0 to position @p hops (CAM loaded
 * beforehand): the receivers' completion times after the start. */
static int steps(int hops, int words)
{
    int cell = iwarp_cell(), pos = iwarp_ring_position(), jam;
    unsigned long long t0 = 1600;
    uint32_t w[7] = {0}, h, hs[1] = {0x5000};
    size_t k;
    if (pos == hops)
        check(iwarp_cam_set(0, hs[0]), "iwarp_cam_set");
    iwarp_align(t0);
    if (cell == 0)
        check(iwarp_sru_broadcast(1), "broadcast");
    if (cell == 1) {
        check(iwarp_sru_recv(&w[0], &jam), "recv");
        unsigned long long t = iwarp_vtime() - t0;
        app_row("step",
                APP_FIELDS(APP_S("step", "sru"), APP_I("hops", 0),
                           APP_I("words", 1), APP_U("time", t)),
                "subset_barrier: step=sru time=%llu\n", t);
    }
    t0 = 16000;
    iwarp_align(t0);
    if (pos == 0)
        check(iwarp_selective_send(hs[0], w, (size_t)words), "send");
    if (pos == hops) {
        check(iwarp_selective_receive(hs, 1, &h, w, 7, &k), "receive");
        unsigned long long t = iwarp_vtime() - t0;
        app_row("step",
                APP_FIELDS(APP_S("step", "ring"), APP_I("hops", hops),
                           APP_I("words", words), APP_U("time", t)),
                "subset_barrier: step=ring hops=%d words=%d time=%llu\n", hops,
                words, t);
    }
    return 0;
}

/* ---- main --------------------------------------------------------------- */

/* The longest increasing run of Ids along the ring (F Lemma 4-5): its
 * first @p want positions into plist; returns the run's length. */
static int increasing_run(int want)
{
    int len[64] = {0}, prev[64], best = 0, x, k;
    for (int i = 0; i < cells; i++) {
        len[i] = 1;
        prev[i] = -1;
        for (int j = 0; j < i; j++)
            if (bitrev(j) < bitrev(i) && len[j] + 1 > len[i]) {
                len[i] = len[j] + 1;
                prev[i] = j;
            }
        if (len[i] > len[best])
            best = i;
    }
    k = len[best];
    for (x = best; x >= 0; x = prev[x])
        if (len[x] <= want)
            plist[len[x] - 1] = x;
    return k;
}

/* F 5: the broadcast barrier's participants "leave Phase 2 at the same
 * time, and this feature can be used to synchronize the local timers on
 * all processors to within 800 ns (the timer resolution is 400 ns)".
 * Each participant read its timer (iwarp_clock, iwarp.timer_tick clocks
 * a tick) on leaving the barrier as its zero; here cell 0 broadcasts one
 * marker word on the SRU at @p t, which every cell receives at the same
 * moment (the bus reaches all cells at once), and each participant reads
 * its timer again: the largest minus the smallest reading since the zero
 * is the synchronisation error.  Returns this cell's reading. */
static unsigned long long sync_mark(unsigned long long t, int part)
{
    const uint32_t mark = 0xfff00u; /* no barrier word has it */
    uint32_t w = 0;
    int jam;
    iwarp_align(t);
    if (iwarp_cell() == 0)
        check(iwarp_sru_send(mark), "iwarp_sru_send");
    if (!part && iwarp_cell() != 0)
        return 0;
    do
        check(iwarp_sru_recv(&w, &jam), "iwarp_sru_recv");
    while (jam || w != mark);
    return iwarp_clock();
}

/* Word @p k of every cell's report, gathered on cell 0 through the SRU
 * (one cell every 1500 clocks: more than a message and its software). */
static void gather(unsigned long long t, uint32_t mine, uint32_t *all)
{
    uint32_t w;
    int jam, cell = iwarp_cell();
    iwarp_align(t + 1500ull * (unsigned long long)cell);
    check(iwarp_sru_broadcast(mine), "gather");
    if (cell == 0)
        for (int c = 0; c < cells; c++) {
            check(iwarp_sru_recv(&w, &jam), "gather");
            all[c] = w;
        }
}

int main(int argc, char **argv)
{
    const char *layout = "contiguous";
    int strag = 0, lay = 0, stride = 1, pos, part, maxsub = 0, late = -1;
    long delay = 200000;
    int hops = 1, words = 2;
    unsigned long long t0 = 4000, tin, tout, t1;
    int64_t v;
    cells = iwarp_width() * iwarp_height();
    lbits = ceil_log2(cells);
    if (mce_machine_param("cam.entries", &v) == 0)
        entries = (int)v;
    long ln = n, lhops = 1, lwords = 2, llate = -1;
    const char *subsets = NULL;
    int mode_k = 0, alg_k = alg, tsync = 0;
    const app_opt_t opts[] = {
        {"alg", APPO_CHOICE, &alg_k, NULL, 0, 0,
         "bcast|ring1|ring2|ring3|ring3r|total|total2d", NULL,
         "the barrier: SRU broadcast, a CAM ring algorithm (ring3r: "
         "randomised classes) or the total barrier over logical channels "
         "(a ring, or rows then columns)"},
        {"n", APPO_LONG, &ln, NULL, 0, 0, NULL, "N",
         "participants per subset, 2 .. cells"},
        {"subsets", APPO_STR, &subsets, NULL, 0, 0, NULL, "K|max",
         "concurrent subsets (default 1)"},
        {"layout", APPO_STR, &layout, NULL, 0, 0, NULL,
         "contiguous|interleaved|every=S|worst",
         "where the subsets' cells lie on the ring (default contiguous)"},
        {"straggler", APPO_OPTLONG, &delay, &strag, 0, 0, NULL, "D",
         "one cell of subset 0 enters D clocks late (default 200000)"},
        {"late", APPO_LONG, &llate, NULL, 0, 0, NULL, "I",
         "the straggler's index in subset 0 (default n-1)"},
        {"mode", APPO_CHOICE, &mode_k, NULL, 0, 0,
         "barrier|sru-test|cam-test|steps", NULL,
         "a barrier (default), the SRU and CAM semantics checks, or one "
         "step of each primitive"},
        {"timesync", APPO_FLAG, &tsync, NULL, 0, 0, NULL, NULL,
         "after the barrier each participant zeroes its timer; the spread "
         "of the timers at one later SRU broadcast is the sync error"},
        {"hops", APPO_LONG, &lhops, NULL, 0, 0, NULL, "H",
         "--mode=steps: ring hops (default 1)"},
        {"words", APPO_LONG, &lwords, NULL, 0, 0, NULL, "K",
         "--mode=steps: message words (default 2)"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc = app_parse("subset_barrier",
                        "Subset barriers on the iWarp's SRU and CAM ring "
                        "(Feldmann, Gross, O'Hallaron and Stricker 1992): "
                        "the time from the last entry to the last exit.",
                        "--mce-nodes=64 "
                        "[--alg=bcast|ring1|ring2|ring3|ring3r|total|"
                        "total2d] [--n=N] [--subsets=K|max] "
                        "[--layout=contiguous|interleaved|every=S|worst] "
                        "[--straggler[=D]] [--late=I] [--timesync] "
                        "[--mode=barrier|sru-test|cam-test|steps] "
                        "[--hops=H] [--words=K] [--format=table|csv|json]",
                        argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    alg = alg_k;
    if (ln > 64 || lhops > 64 || lwords > 64 || llate > 64)
        die("--n, --hops, --words, --late: at most 64");
    n = (int)ln;
    hops = (int)lhops;
    words = (int)lwords;
    late = (int)llate;
    if (subsets != NULL) {
        if (strcmp(subsets, "max") == 0)
            maxsub = 1;
        else
            nsub = atoi(subsets);
    }
    if (strcmp(layout, "contiguous") == 0)
        lay = 0;
    else if (strcmp(layout, "interleaved") == 0)
        lay = 1;
    else if (strncmp(layout, "every=", 6) == 0)
        lay = 2, stride = atoi(layout + 6);
    else if (strcmp(layout, "worst") == 0)
        lay = 3;
    else
        die("--layout: contiguous, interleaved, every=S or worst");
    if (mode_k != 0) {
        int rc;
        app_several_nodes(); /* the checks print on several cells */
        if (mode_k == 3 &&
            (hops < 1 || hops >= cells || words < 0 || words > 7))
            die("--hops: 1 .. cells-1, --words: 0 .. 7");
        rc = mode_k == 1   ? sru_test()
             : mode_k == 2 ? cam_test()
                           : steps(hops, words);
        app_finish_any(); /* several cells print */
        return rc;
    }
    if (alg >= TOTAL) {
        /* the total barrier: every cell, one subset */
        if (subsets != NULL || lay != 0)
            die("--alg=total|total2d: all cells, no --subsets or --layout");
        n = cells;
    }
    if (n < 2 || n > cells || cells > 64)
        die("--n: 2 .. cells participants, at most 64 cells");
    if (maxsub)
        nsub = lay == 2 ? stride : cells / n;
    if (nsub < 1 || nsub * n > cells)
        die("--subsets: 1 .. cells / n");
    if (lay == 2 && (stride < 1 || nsub > stride || n * stride > cells))
        die("--layout=every=S: subsets <= S, n x S <= cells");
    if (lay == 3 && nsub != 1)
        die("--layout=worst: one subset");
    if (delay < 0 || delay % 16)
        die("--straggler=D: a multiple of 16 clocks");
    if (late < 0)
        late = n - 1;
    if (late >= n)
        die("--late: an index 0 .. n-1 within subset 0");

    /* which subset and index this cell has, and subset 0's positions
     * (plist, rebuilt below for this cell's own subset) */
    pos = iwarp_ring_position();
    subset = nsub;
    idx = 0;
    if (lay == 3) {
        int k = increasing_run(n);
        if (n > k) {
            char msg[120];
            snprintf(msg, sizeof(msg),
                     "--layout=worst: the longest increasing run of Ids has "
                     "%d cells (n = %d)",
                     k, n);
            die(msg);
        }
        for (int x = 0; x < n; x++)
            if (plist[x] == pos)
                subset = 0, idx = x;
    } else {
        int s, x;
        if (lay == 0)
            s = pos / n, x = pos % n;
        else if (lay == 1)
            s = pos % nsub, x = pos / nsub;
        else
            s = pos % stride, x = pos / stride;
        if (s < nsub && x < n)
            subset = s, idx = x;
        for (x = 0; x < n; x++)
            plist[x] = lay == 0   ? (subset < nsub ? subset : 0) * n + x
                       : lay == 1 ? (subset < nsub ? subset : 0) + x * nsub
                                  : (subset < nsub ? subset : 0) + x * stride;
    }
    part = subset < nsub;
    myid = bitrev(pos);
    if (alg >= TOTAL) {
        /* configured before the barrier, not timed */
        t0 = 20000;
        total_setup();
        idx = tri;
        if (iwarp_vtime() >= t0)
            die("--alg=total: the configuration ends after the start");
    }
    tin = t0 +
          (strag && subset == 0 && idx == late ? (unsigned long long)delay : 0);
    iwarp_align(tin);
    /* F 2.2: a processor receives messages only after it has reached the
     * barrier: the CAM is loaded on arrival (a CAM loaded early would
     * hold the others' messages at a cell that is still computing) */
    if (part && RINGALG(alg))
        set_mask();
    if (part) {
        if (alg == BCAST)
            bcast_barrier();
        else if (alg >= TOTAL)
            total_barrier();
        else
            ring_barrier();
    }
    tout = iwarp_vtime();
    if (tsync && part)
        tzero = iwarp_clock(); /* this cell's timer zero */
    if (part && RINGALG(alg))
        for (int e = 0; e < nmask; e++)
            check(iwarp_cam_clear(e), "iwarp_cam_clear");

    /* Gather on cell 0: exit times, sends, forwards, depths, win time. */
    t1 = t0 + (unsigned long long)delay + 4000000ull;
    if (tsync)
        tread = sync_mark(t1 - 1000000ull, part);
    {
        static uint32_t ex[64], sd[64], fw[64], dp[64], wn[64], ts[64];
        unsigned long long step = 1500ull * (unsigned long long)cells + 4000;
        gather(t1, part ? (uint32_t)(tout - t0 + 1) : 0, ex);
        gather(t1 + step, sends1 | sends2 << 16, sd);
        gather(t1 + 2 * step, (uint32_t)iwarp_ring_forwarded(), fw);
        gather(t1 + 3 * step, part ? depth | depth_win << 16 : 0, dp);
        gather(t1 + 4 * step, won_p1 ? (uint32_t)(t_win - t0 + 1) : 0, wn);
        if (tsync)
            gather(t1 + 5 * step,
                   part && subset == 0 ? (uint32_t)(tread - tzero + 1) : 0, ts);
        if (iwarp_cell() == 0) {
            unsigned long long last = 0, first = ~0ull, entry, win = 0;
            unsigned long m1 = 0, m2 = 0, wires = 0;
            unsigned d1 = 0, dmax = 0;
            unsigned long long shi = 0, slo = ~0ull, serr = 0;
            for (int c = 0; c < cells; c++) {
                if (tsync && ts[c] > 0) {
                    if (ts[c] - 1 > shi)
                        shi = ts[c] - 1;
                    if (ts[c] - 1 < slo)
                        slo = ts[c] - 1;
                    serr = shi - slo;
                }
                if (ex[c] > 0 && ex[c] - 1 > last)
                    last = ex[c] - 1;
                if (ex[c] > 0 && ex[c] - 1 < first)
                    first = ex[c] - 1;
                m1 += sd[c] & 0xffffu;
                m2 += sd[c] >> 16;
                wires += fw[c];
                if ((dp[c] & 0xffffu) > dmax)
                    dmax = dp[c] & 0xffffu;
            }
            wires += m1 + m2;
            entry = strag ? (unsigned long long)delay : 0;
            char extra[160] = "", sx[40] = "";
            if (tsync)
                snprintf(sx, sizeof(sx), " sync=%llu", serr);
            if (RINGALG(alg)) {
                /* one barrier: its winner's depth at the win (the
                 * rounds of Phase 1), the deepest exit (all rounds) and
                 * the winner's time after the last entry */
                if (nsub == 1)
                    for (int c = 0; c < cells; c++)
                        if (wn[c] > 0)
                            d1 = (dp[c] >> 16) - 1, win = wn[c] - 1;
                if (nsub == 1)
                    snprintf(extra, sizeof(extra),
                             " wires=%lu rounds1=%u depth=%u phase1_end=%llu",
                             wires, d1, dmax, win - entry);
                else
                    snprintf(extra, sizeof(extra), " wires=%lu", wires);
            }
            app_row("subset_barrier",
                    APP_FIELDS(
                        APP_S("alg", algs[alg]), APP_I("n", n),
                        APP_I("subsets", nsub), APP_S("layout", layout),
                        APP_I("straggler", strag), APP_U("time", last - entry),
                        APP_F("us", (last - entry) / 20.0),
                        APP_U("spread", last - first), APP_U("messages1", m1),
                        APP_U("messages2", m2),
                        APP_F("wires", RINGALG(alg) ? (double)wires : NAN),
                        APP_F("rounds1",
                              RINGALG(alg) && nsub == 1 ? (double)d1 : NAN),
                        APP_F("depth",
                              RINGALG(alg) && nsub == 1 ? (double)dmax : NAN),
                        APP_F("sync", tsync ? (double)serr : NAN),
                        APP_F("phase1_end", RINGALG(alg) && nsub == 1
                                                ? (double)(win - entry)
                                                : NAN)),
                    "subset_barrier: alg=%s n=%d subsets=%d layout=%s "
                    "straggler=%d time=%llu us=%.2f spread=%llu "
                    "messages1=%lu messages2=%lu%s%s\n",
                    algs[alg], n, nsub, layout, strag, last - entry,
                    (last - entry) / 20.0, last - first, m1, m2, extra, sx);
            app_finish();
        }
    }
    return 0;
}
