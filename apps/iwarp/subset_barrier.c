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
 * usage: subset_barrier --mce-nodes=64 [--alg=bcast|ring1|ring2|ring3]
 *        [--n=2..64] [--subsets=K|max] [--layout=contiguous|interleaved]
 *        [--straggler[=D]] [--mode=barrier|sru-test|cam-test]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iwarp.h>

enum { BCAST, RING1, RING2, RING3 };
static const char *const algs[] = {"bcast", "ring1", "ring2", "ring3"};

enum { T_REACHED = 1, T_COMPLETE, T_CLASS, T_ID };

static int alg = RING2, n = 8, bits, idx, myid, subset, nsub = 1;
static int cells, entries = 4;

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

static int bitrev(int x)
{
    int r = 0;
    for (int i = 0; i < bits; i++)
        r |= ((x >> i) & 1) << (bits - 1 - i);
    return r;
}

static int ceil_log2(int v)
{
    int l = 0;
    while ((1 << l) < v)
        l++;
    return l;
}

static int class_of(int id)
{
    int N = 1 << bits;
    return ceil_log2(N) - ceil_log2(N - id);
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
    check(iwarp_sru_send(mine), "iwarp_sru_send");
    do {
        check(iwarp_sru_recv(&w, &jam), "iwarp_sru_recv");
        if (jam == 2)
            check(iwarp_sru_send(mine), "iwarp_sru_send");
        else if (!jam && (w & ~0xfffu) == reached)
            i++;
    } while (i < n && !(!jam && w == complete));
    if (i == n) {
        check(iwarp_sru_send(complete), "iwarp_sru_send");
        do {
            check(iwarp_sru_recv(&w, &jam), "iwarp_sru_recv");
            if (jam == 2)
                check(iwarp_sru_send(complete), "iwarp_sru_send");
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
        int c = class_of(myid);
        mask[nmask++] = hdr(T_CLASS, 0);
        if (c > 0)
            mask[nmask++] = hdr(T_CLASS, c);
    }
    for (int e = 0; e < nmask; e++)
        check(iwarp_cam_set(e, mask[e]), "iwarp_cam_set");
}

static void ssend(uint32_t h, const uint32_t *w, size_t k)
{
    check(iwarp_selective_send(h, w, k), "iwarp_selective_send");
}

static uint32_t srecv(const uint32_t *set, int ns, uint32_t *w)
{
    uint32_t h;
    size_t k;
    check(iwarp_selective_receive(set, ns, &h, w, 7, &k),
          "iwarp_selective_receive");
    return h;
}

/* RING2: notify the participants at offsets 1..m downstream: the one
 * halfway (offset 1 + m/2) with the far half, then the nearest with the
 * near half. */
static void ring2_notify(int m)
{
    uint32_t w[1];
    int far = 1 + m / 2;
    if (m < 1)
        return;
    if (m >= 2) {
        w[0] = (uint32_t)(m - far);
        ssend(hdr(T_ID, bitrev((idx + far) % n)), w, 1);
    }
    w[0] = (uint32_t)(m >= 2 ? far - 2 : 0);
    ssend(hdr(T_ID, bitrev((idx + 1) % n)), w, 1);
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
    ssend(reached, m, len);
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
            ssend(reached, m, len);
        } else {
            m[0] = (uint32_t)idr;
            m[1] = (uint32_t)i;
            m[2] = (uint32_t)set;
            m[3] = (uint32_t)(set >> 32);
            /* a loser listens to Phase 2 only */
            check(iwarp_cam_clear(0), "iwarp_cam_clear");
            ssend(reached, m, len);
            break;
        }
    }
    /* Phase 2: the mask without reached(b) */
    if (alg == RING1) {
        uint32_t set1[1] = {hdr(T_COMPLETE, 0)};
        if (won) {
            w[0] = (uint32_t)myid;
            ssend(set1[0], w, 1);
            return;
        }
        if (!have)
            srecv(set1, 1, w);
        ssend(set1[0], w, 1);
    } else if (alg == RING2) {
        uint32_t set1[1] = {hdr(T_ID, myid)};
        if (won) {
            uint64_t all = 0;
            for (int x = 0; x < n; x++)
                all |= (uint64_t)1 << bitrev(x);
            if (set != all) {
                fprintf(stderr, "subset_barrier: winner saw Ids %llx\n",
                        (unsigned long long)set);
                exit(1);
            }
            ring2_notify(n - 1);
            return;
        }
        if (!have)
            srecv(set1, 1, w);
        ring2_notify((int)w[0]);
    } else {
        int c = class_of(myid), got0 = 0;
        uint32_t set1[2] = {hdr(T_CLASS, 0), hdr(T_CLASS, c)};
        int ns = c > 0 ? 2 : 1;
        if (!won) {
            if (!have)
                h = srecv(set1, ns, w);
            got0 = h == hdr(T_CLASS, 0);
        }
        for (int l = c; l >= 0; l--) {
            w[0] = (uint32_t)myid;
            ssend(hdr(T_CLASS, l), w, 1);
        }
        while (!got0) {
            h = srecv(set1, ns, w);
            got0 = h == hdr(T_CLASS, 0);
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
        printf("subset_barrier: sru-test received=0x%X jam=%d lost=%lu "
               "poll_after=%d\n",
               (unsigned)w, jam, iwarp_sru_lost(), iwarp_sru_poll(&w, &jam));
    } else if (cell == 2) {
        iwarp_align(10000);
        /* cells 2 and 3 broadcast different words at the same time: a
         * collision, both see IW_JAMMED */
        int rc = iwarp_sru_broadcast(0x10);
        printf("subset_barrier: sru-test collision cell=2 rc=%d\n", rc);
    } else if (cell == 3) {
        iwarp_align(10000);
        int rc = iwarp_sru_broadcast(0x20);
        printf("subset_barrier: sru-test collision cell=3 rc=%d\n", rc);
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
        printf("subset_barrier: cam-test set5=%d recv5=%d\n",
               iwarp_cam_set(entries, 5),
               iwarp_selective_receive(hs, 5, &h, w, 7, &k));
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
        printf("subset_barrier: step=sru time=%llu\n", iwarp_vtime() - t0);
    }
    t0 = 16000;
    iwarp_align(t0);
    if (pos == 0)
        check(iwarp_selective_send(hs[0], w, (size_t)words), "send");
    if (pos == hops) {
        check(iwarp_selective_receive(hs, 1, &h, w, 7, &k), "receive");
        printf("subset_barrier: step=ring hops=%d words=%d time=%llu\n", hops,
               words, iwarp_vtime() - t0);
    }
    return 0;
}

/* ---- main --------------------------------------------------------------- */

int main(int argc, char **argv)
{
    const char *layout = "contiguous";
    int strag = 0, inter = 0, pos, part, maxsub = 0;
    long delay = 200000;
    const char *mode = "barrier";
    int hops = 1, words = 2;
    unsigned long long t0 = 4000, tin, tout, t1;
    int64_t v;
    cells = iwarp_width() * iwarp_height();
    if (mce_machine_param("cam.entries", &v) == 0)
        entries = (int)v;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--alg=", 6) == 0) {
            alg = -1;
            for (int k = 0; k < 4; k++)
                if (strcmp(a + 6, algs[k]) == 0)
                    alg = k;
            if (alg < 0)
                die("--alg: bcast, ring1, ring2 or ring3");
        } else if (strncmp(a, "--n=", 4) == 0) {
            n = atoi(a + 4);
        } else if (strncmp(a, "--subsets=", 10) == 0) {
            if (strcmp(a + 10, "max") == 0)
                maxsub = 1;
            else
                nsub = atoi(a + 10);
        } else if (strncmp(a, "--layout=", 9) == 0) {
            layout = a + 9;
            if (strcmp(layout, "contiguous") && strcmp(layout, "interleaved"))
                die("--layout: contiguous or interleaved");
            inter = layout[0] == 'i';
        } else if (strcmp(a, "--straggler") == 0) {
            strag = 1;
        } else if (strncmp(a, "--straggler=", 12) == 0) {
            strag = 1;
            delay = atol(a + 12);
        } else if (strncmp(a, "--hops=", 7) == 0) {
            hops = atoi(a + 7);
        } else if (strncmp(a, "--words=", 8) == 0) {
            words = atoi(a + 8);
        } else if (strncmp(a, "--mode=", 7) == 0) {
            mode = a + 7;
        } else {
            die("usage: subset_barrier [--alg=bcast|ring1|ring2|ring3] "
                "[--n=N] [--subsets=K|max] [--layout=contiguous|interleaved] "
                "[--straggler[=D]] [--mode=barrier|sru-test|cam-test|steps] "
                "[--hops=H] [--words=K]");
        }
    }
    if (strcmp(mode, "sru-test") == 0)
        return sru_test();
    if (strcmp(mode, "cam-test") == 0)
        return cam_test();
    if (strcmp(mode, "steps") == 0) {
        if (hops < 1 || hops >= cells || words < 0 || words > 7)
            die("--hops: 1 .. cells-1, --words: 0 .. 7");
        return steps(hops, words);
    }
    if (strcmp(mode, "barrier") != 0)
        die("--mode: barrier, sru-test, cam-test or steps");
    if (n < 2 || n > cells || n > 64)
        die("--n: 2 .. 64 participants (at most the cell count)");
    if (maxsub)
        nsub = cells / n;
    if (nsub < 1 || nsub * n > cells)
        die("--subsets: 1 .. cells / n");
    if (delay < 0 || delay % 16)
        die("--straggler=D: a multiple of 16 clocks");
    bits = ceil_log2(n);

    pos = iwarp_ring_position();
    if (inter) {
        subset = pos % nsub;
        idx = pos / nsub;
    } else {
        subset = pos / n;
        idx = pos % n;
    }
    part = subset < nsub && idx < n;
    myid = bitrev(idx);
    if (part && alg != BCAST)
        set_mask();
    tin = t0 + (strag && subset == 0 && idx == n - 1 ? (unsigned long long)delay
                                                     : 0);
    iwarp_align(tin);
    if (part) {
        if (alg == BCAST)
            bcast_barrier();
        else
            ring_barrier();
    }
    tout = iwarp_vtime();
    if (part && alg != BCAST)
        for (int e = 0; e < nmask; e++)
            check(iwarp_cam_clear(e), "iwarp_cam_clear");

    /* Gather the exit times on cell 0 through the SRU, one cell every
     * 1500 clocks (more than a message and its two software costs). */
    t1 = t0 + (unsigned long long)delay + 4000000ull;
    {
        uint32_t w;
        int jam, cell = iwarp_cell();
        unsigned long long last = 0;
        iwarp_align(t1 + 1500ull * (unsigned long long)cell);
        check(iwarp_sru_broadcast(part ? (uint32_t)(tout - t0 + 1) : 0),
              "gather");
        if (cell == 0) {
            for (int c = 0; c < cells; c++) {
                check(iwarp_sru_recv(&w, &jam), "gather");
                if (w > 0 && w - 1 > last)
                    last = w - 1;
            }
            {
                unsigned long long entry =
                    strag ? (unsigned long long)delay : 0;
                unsigned long long t = last - entry;
                printf("subset_barrier: alg=%s n=%d subsets=%d layout=%s "
                       "straggler=%d time=%llu us=%.2f\n",
                       algs[alg], n, nsub, layout, strag, t, t / 20.0);
            }
        }
    }
    return 0;
}
