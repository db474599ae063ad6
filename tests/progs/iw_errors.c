/* iWarp resource errors (tests/fidelity/iwarp_pct.sh):
 *   --pcts   cell (0,0) allocates PCTs until none is left;
 *   --gates  cell (0,0) binds a third write gate;
 *   --data   (0,0) writes a block of 5 words and then 3 single words and
 *            ends (the coalesced words leave at its end) to (2,0), which
 *            configures its PCT only at clock 500 (the words wait for it)
 *            and prints the words and the time it has read them;
 *   --compute-big, --align-big  cell (0,0) computes 2^50 clocks or aligns
 *            to clock 2^60: beyond the virtual clock, the run ends with
 *            the call's diagnostic (tests/core/robust.sh). */
#include <stdio.h>
#include <string.h>

#include <iwarp.h>

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
