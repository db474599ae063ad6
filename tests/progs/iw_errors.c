/* iWarp resource errors (tests/fidelity/iwarp_pct.sh):
 *   --pcts   cell (0,0) allocates PCTs until none is left;
 *   --gates  cell (0,0) binds a third write gate;
 *   --data   (0,0) writes a block of 5 words and then 3 single words and
 *            ends (the coalesced words leave at its end) to (2,0), which
 *            configures its PCT only at clock 500 (the words wait for it)
 *            and prints the words and the time it has read them;
 *   --compute-big, --align-big  cell (0,0) computes 2^50 clocks or aligns
 *            to clock 2^60: beyond the virtual clock, the run ends with
 *            the call's diagnostic (tests/core/robust.sh);
 *   --badargs  cells (0,0) and (1,0) call everything with PCTs, gates,
 *            CAM entries, spools, cells, handles and lengths out of range
 *            and NULL buffers: each call fails alone with its code, and a
 *            deposit between them afterwards arrives intact (robust.sh). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <iwarp.h>

#define EXPECT(call, want)                                                     \
    do {                                                                       \
        int rc_ = (int)(call);                                                 \
        if (rc_ != (want)) {                                                   \
            printf("iw_errors: cell %d: %s returned %d, expected %d\n", cell,  \
                   #call, rc_, (want));                                        \
            fails++;                                                           \
        }                                                                      \
    } while (0)

static int bad_args(int cell)
{
    uint32_t w[4] = {1, 2, 3, 4}, got[4] = {0}, hdr = 0;
    size_t n = 0;
    int fails = 0, h;
    EXPECT(iwarp_pct_config(-1, IW_CPU, 0, IW_XP, 0, 1), IW_EINVAL);
    EXPECT(iwarp_pct_config(INT_MAX, IW_CPU, 0, IW_XP, 0, 1), IW_EINVAL);
    EXPECT(iwarp_pct_config(0, 9, 0, IW_XP, 0, 1), IW_EINVAL);
    EXPECT(iwarp_pct_config(0, IW_CPU, 0, IW_XP, 0, INT_MAX), IW_EINVAL);
    EXPECT(iwarp_pct_release(INT_MIN), IW_EINVAL);
    EXPECT(iwarp_pct_repoint(-1, IW_XP, 0, 1), IW_EINVAL);
    EXPECT(iwarp_pct_repoint(INT_MAX, IW_YM, 0, 1), IW_EINVAL);
    EXPECT(iwarp_pct_repoint(0, IW_XP, 0, 1), IW_EPCT); /* not configured */
    EXPECT(iwarp_gate_bind(7, 0), IW_EINVAL);
    EXPECT(iwarp_gate_bind(IW_W0, -1), IW_EINVAL);
    EXPECT(iwarp_gate_unbind(-1), IW_EGATE);
    EXPECT(iwarp_gate_write(IW_W0, 5), IW_EGATE);
    EXPECT(iwarp_gate_write_block(IW_W0, NULL, 4), IW_EINVAL);
    EXPECT(iwarp_gate_read_block(IW_R0, NULL, 4), IW_EINVAL);
    EXPECT(iwarp_gate_read(IW_R0, NULL), IW_EINVAL);
    EXPECT(iwarp_cam_set(INT_MAX, 1), IW_ECAM);
    EXPECT(iwarp_cam_clear(-1), IW_ECAM);
    EXPECT(iwarp_selective_send(1, NULL, 3), IW_EINVAL);
    EXPECT(iwarp_selective_send(1, w, 99), IW_EINVAL);
    EXPECT(iwarp_selective_receive(NULL, 2, &hdr, w, 4, &n), IW_EINVAL);
    EXPECT(iwarp_selective_receive(&hdr, -1, &hdr, w, 4, &n), IW_ECAM);
    EXPECT(iwarp_spool_out(-1, w, 4), IW_EPCT);
    EXPECT(iwarp_spool_out(0, NULL, 4), IW_EINVAL);
    EXPECT(iwarp_spool_in(0, NULL, 4), IW_EINVAL);
    EXPECT(iwarp_spool_wait(-1), IW_ESPOOL);
    EXPECT(iwarp_spool_test(INT_MAX), IW_ESPOOL);
    EXPECT(iwarp_dep_send(1 - cell, 0, 0, w, 4), IW_ENODEP);
    EXPECT(iwarp_dep_init(), IW_OK);
    EXPECT(iwarp_dep_buffer(NULL, 16), IW_EINVAL);
    h = iwarp_dep_buffer(got, sizeof(got));
    EXPECT(h, 0);
    EXPECT(iwarp_dep_send(-1, h, 0, w, 4), IW_EINVAL);
    EXPECT(iwarp_dep_send(INT_MAX, h, 0, w, 4), IW_EINVAL);
    EXPECT(iwarp_dep_send(1 - cell, h, 0, NULL, 4), IW_EINVAL);
    EXPECT(iwarp_dep_send(1 - cell, h, 0, w, 3), IW_EINVAL);
    EXPECT(iwarp_dep_send(1 - cell, h, SIZE_MAX - 3, w, 4), IW_EINVAL);
    EXPECT(iwarp_dep_wait(-1, 1, 0), IW_EINVAL);
    EXPECT(iwarp_dep_rearm(77), IW_EINVAL);
    EXPECT(iwarp_rts_send(-1, 1, w, 4), IW_EINVAL);
    EXPECT(iwarp_rts_send(cell, 1, w, 4), IW_EINVAL); /* itself */
    EXPECT(iwarp_rts_send(1 - cell, -1, w, 4), IW_EINVAL);
    EXPECT(iwarp_rts_send(1 - cell, 1, NULL, 4), IW_EINVAL);
    EXPECT(iwarp_rts_send(1 - cell, 1, w, SIZE_MAX), IW_EINVAL);
    /* Nothing was sent: one deposit each way, and only it, arrives. */
    w[0] = 100 + (uint32_t)cell;
    EXPECT(iwarp_dep_send(1 - cell, h, 4, w, 4), IW_OK);
    EXPECT(iwarp_dep_wait(h, 1, 0), IW_OK);
    if (got[0] != 0 || got[1] != 101 - (uint32_t)cell || got[2] != 0 ||
        iwarp_dep_count(h) != 1) {
        printf("iw_errors: cell %d: got %u %u %u, %u deposits\n", cell, got[0],
               got[1], got[2], iwarp_dep_count(h));
        fails++;
    }
    if (fails == 0)
        printf("iw_errors: badargs cell %d ok\n", cell);
    return fails != 0;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    int cell = iwarp_cell();
    if (strcmp(what, "--pcts") == 0 && cell == 0) {
        int n = 0, rc;
        while ((rc = iwarp_pct_alloc()) >= 0)
            n++;
        printf("iw_errors: allocated %d PCTs, then %d\n", n, rc);
    } else if (strcmp(what, "--gates") == 0 && cell == 0) {
        int rc[5];
        rc[0] = iwarp_pct_config(0, IW_CPU, 0, IW_XP, 0, 1);
        rc[1] = iwarp_pct_config(1, IW_CPU, 0, IW_XP, 1, 1);
        rc[2] = iwarp_pct_config(2, IW_CPU, 0, IW_XP, 2, 1);
        rc[3] = iwarp_gate_bind(IW_W0, 0) | iwarp_gate_bind(IW_W1, 1);
        rc[4] = iwarp_gate_bind(IW_W0, 2);
        printf("iw_errors: config %d %d %d, two binds %d, third bind %d, "
               "read gate on a source PCT %d\n",
               rc[0], rc[1], rc[2], rc[3], rc[4], iwarp_gate_bind(IW_R0, 2));
    } else if (strcmp(what, "--compute-big") == 0 && cell == 0) {
        iwarp_compute(1UL << 50);
        printf("iw_errors: computed, clock %llu\n", iwarp_vtime());
    } else if (strcmp(what, "--align-big") == 0 && cell == 0) {
        iwarp_align(1ULL << 60);
        printf("iw_errors: aligned, clock %llu\n", iwarp_vtime());
    } else if (strncmp(what, "--poll-", 7) == 0) {
        /* cell 0 polls forever, the others wait for what never comes: a
         * livelock the guard must report (--poll-clock, --poll-vtime,
         * --poll-sru) */
        uint32_t w;
        int jam;
        if (cell == 0)
            for (;;) {
                if (strcmp(what, "--poll-clock") == 0)
                    (void)iwarp_clock();
                else if (strcmp(what, "--poll-vtime") == 0)
                    (void)iwarp_vtime();
                else
                    (void)iwarp_sru_poll(&w, &jam);
            }
        iwarp_sru_recv(&w, &jam);
    } else if (strcmp(what, "--badargs") == 0 && cell < 2) {
        return bad_args(cell);
    } else if (strcmp(what, "--data") == 0 && cell < 3) {
        uint32_t w[8] = {11, 22, 33, 44, 55, 66, 77, 88};
        if (cell == 0) {
            iwarp_pct_config(0, IW_CPU, 0, IW_XP, 0, 2);
            iwarp_gate_bind(IW_W0, 0);
            iwarp_gate_write_block(IW_W0, w, 5);
            for (int i = 5; i < 8; i++)
                iwarp_gate_write(IW_W0, w[i]);
        } else if (cell == 1) {
            iwarp_pct_config(0, IW_XM, 0, IW_XP, 0, -1);
        } else {
            uint32_t r[8] = {0};
            iwarp_compute(500);
            iwarp_pct_config(0, IW_XM, 0, IW_CPU, 0, 0);
            iwarp_gate_bind(IW_R0, 0);
            iwarp_gate_read_block(IW_R0, r, 8);
            printf("iw_errors: read %u %u %u %u %u %u %u %u at %llu\n", r[0],
                   r[1], r[2], r[3], r[4], r[5], r[6], r[7], iwarp_vtime());
        }
    }
    return 0;
}
