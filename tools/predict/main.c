/*
 * mce-predict: the analytic cost formulas of mcemu's source papers,
 * computed independently of the emulator (no MPI, no libmcemu), so that
 * the tests can compare emulated times against them.
 *
 *   Seidel and Davis 1992, iPSC/860: Tables I, II, III, the gsync(),
 *     sync0() and RDS costs and precisions, RDS waits.
 *   Bokhari and Nicol 1996, Paragon: Table 1, Table 2 (complete exchange
 *     steps n^3/4c) and the predicted (lower bound) time.
 *   Mudge, Buzzard and Abdel-Rahman 1987, NCUBE: Table 1 and
 *     t'_comm = 4 t_comm(m) / m (Table 2).
 *   Warfel 1996 (iWarp, TCS) and Feldmann, Gross, O'Hallaron and Stricker
 *     1992 (iWarp subset barriers).
 *
 * Output: key=value lines (default), CSV or JSON (--format); "compare"
 * reads a program's CSV or JSON rows and prints emulated, predicted and
 * their difference per row (see compare.c's part below).
 *
 * Arithmetic is exact: decimal inputs (at most 6 decimals, 1 ps) become
 * integers counting 0.1 ps, so that b_l/2 and 3b_l/2 stay exact.  The
 * only rounded values are quotients (Table III's m, the RDS loop count,
 * t'_comm) and log2 of a node count that is not a power of two.
 * See usage() for the interface.
 *
 * One file per paper in tools/predict/ holds its commands (ipsc.c,
 * paragon.c, ncube.c, iwarp.c, subset.c, tcs.c); common.c the shared
 * arithmetic, parsing and output; format.c --format; compare.c the
 * compare command; this file the constants command, usage and main.
 */
#include "predict.h"

/* ---- the constants ------------------------------------------------------ */

static void print_constants(const char *machine, const struct constant *t)
{
    for (; t->key; t++) {
        kv_s("machine", machine);
        kv_s("key", t->key);
        if (t->kind == C_COUNT) {
            kv_i("value", t->val);
        } else {
            key("value");
            {
                int save = out_ps;
                out_ps = 0;
                put_time(t->val);
                out_ps = save;
            }
        }
        kv_s("unit", t->unit);
        kv_s("source", t->source);
        kv_end();
    }
}

static void cmd_constants(int argc, char **argv)
{
    struct opts o = {{NULL}, {0}};
    parse_opts(argc, argv, &o, NULL);
    print_constants("ipsc860", ipsc);
    print_constants("paragon", paragon);
    print_constants("ncube", ncube);
    print_constants("iwarp", iwarp);
}

/* ---- main --------------------------------------------------------------- */

void usage(FILE *f)
{
    fputs(
        "usage: mce-predict COMMAND [OPTIONS]\n"
        "\n"
        "Prints the analytic cost formulas of mcemu's source papers (Seidel\n"
        "and Davis 1992; Bokhari and Nicol 1996; Mudge, Buzzard and\n"
        "Abdel-Rahman 1987; Warfel 1996; Feldmann, Gross, O'Hallaron and\n"
        "Stricker 1992), one \"key=value ...\" line per result.  Options take "
        "--opt=VALUE or\n"
        "--opt VALUE.  Times are given and printed in microseconds.\n"
        "\n"
        "iPSC/860, Seidel and Davis 1992:\n"
        "  ipsc-table2 --m=BYTES --delta=US [--boundary-us=US]\n"
        "      One line per Table II row (send short/long/forced, figures\n"
        "      2-1 to 2-7) with its printed range and formula; cost_us=n/a\n"
        "      when delta is outside the row's range (delta_ok=no) or the\n"
        "      protocol does not carry m bytes (m_ok=no: short is m<=100,\n"
        "      long and forced m>100).  The short send costs am+bs: the\n"
        "      paper prints bs (printed_formula=bs), but its at most 100\n"
        "      bytes still cross the wire (at most 36 us, as the emulator\n"
        "      charges).  Row 2-2-late is section 2.2's\n"
        "      delta > am+bl/2 case.  A last line, row=mechanism, says which\n"
        "      range delta falls in with the paper's boundary b_s and with\n"
        "      the port-occupancy boundary --boundary-us (default b_l/2),\n"
        "      and the cost of the applicable rule (exchange: concurrent\n"
        "      below the boundary, sequential up to am+bl/2, late beyond;\n"
        "      shift: concurrent, sequential up to am, n/a beyond).\n"
        "  ipsc-table3 [--d=D]\n"
        "      Table III, m >= (2 d b_s - b_l/2)/a, for d=2..7 or one d:\n"
        "      m_exact (2 decimals), min_m = the smallest integer m (ceil),\n"
        "      and the printed value.\n"
        "  ipsc-sync --d=D --delta=US [--alg=gsync|sync0|rds|all]\n"
        "      Cost and precision of gsync() (3.1), sync0() (3.2), RDS\n"
        "      (3.3; with its phases).  paper_says=stated|approx|example\n"
        "      tells whether the paper states the formula, calls it "
        "approximate,\n"
        "      or derives it only for delta = b_s; case=worst marks the\n"
        "      paper's worst case (the late node's message blocked at every\n"
        "      later step), an upper bound on the cost.\n"
        "  rds-waits --d=D\n"
        "      Per node i: w_i = (d - |i|_1)(b_s - s), the busy-loop count\n"
        "      k = (w_i - 2.0)/0.126, iters = k rounded to the nearest\n"
        "      integer (0 when w_i <= 2.0) and loop_us = 0.126 iters + 2.0.\n"
        "  Constants: --constants a=0.36,bl=136,bs=75,s=44,kper=0.126,kfix=2\n"
        "\n"
        "Paragon, Bokhari and Nicol 1996:\n"
        "  paragon-sync --nodes=N | --side=n\n"
        "      Table 1 synchronisation 27.1 log2 N - 134 (N = node count,\n"
        "      n x n = N); sync_fit=negative below 32 nodes.\n"
        "  paragon-comm --m=BYTES\n"
        "      Table 1 communication 231 + 0.022 m; m_ok=no below 8640.\n"
        "  cx-steps [--n=n [--c=C]]\n"
        "      Complete exchange steps n^3/4c on an n x n mesh (n a\n"
        "      multiple of 4, c dividing n/4), with Scott's n^3/4, naive\n"
        "      N-1 and the minimum n^2.  Without --c: every valid c; without\n"
        "      --n: Table 2 (n = 4..32) with the printed values.\n"
        "  cx-time --alg=bounded|scott|naive --n=n --m=BYTES [--c=C]\n"
        "      Predicted time = steps x comm + barriers x sync (the paper's\n"
        "      lower bound), one barrier per step for bounded and scott,\n"
        "      none for naive (N-1 steps); upper = n^3/4 x comm + barriers\n"
        "      x sync (every permutation serial).\n"
        "  Constants: --constants sync_slope=27.1,sync_offset=134,\n"
        "      comm_fixed=231,comm_per_byte=0.022,comm_min_m=8640\n"
        "\n"
        "NCUBE, Mudge, Buzzard and Abdel-Rahman 1987:\n"
        "  ncube --m=BYTES [--scheme=standard|extended|both]\n"
        "      Table 1 t_comm = f + x m and t'_comm = 4 t_comm(m)/m.\n"
        "  ncube-table2\n"
        "      t'_comm for Table 2's sizes against its printed values.\n"
        "  Constants: --constants std_fixed=466.40,std_per_byte=3.14,\n"
        "      ext_fixed=83.20,ext_per_byte=1.29\n"
        "\n"
        "iWarp, Warfel 1996, in clocks (20 MHz):\n"
        "  iwarp-pct --bytes=BYTES --dist=CELLS | --table=1\n"
        "      PCT connection time 36 + bytes/1.998 + 5 dist (W 3.2.1),\n"
        "      value_clocks truncated to 3 decimals and predicted_clocks\n"
        "      floored as Figures 3.7/3.8 print it; --table: every entry of\n"
        "      the figures' (predict) row with the printed value.\n"
        "  iwarp-deposit --bytes=BYTES --dist=CELLS | --table=1\n"
        "      Deposit message passing O + bytes/1.998 + 5 dist, O = 253 for\n"
        "      4 bytes and 359 above (W 3.2.3, 6.2.1), floored as Figures\n"
        "      3.10/3.11 print it; --table: every (predict) entry with the\n"
        "      printed value.\n"
        "  iwarp-barrier --scheme=ring1d|cube|token2x|tree|ring2d\n"
        "      --signal=pct|dep|rts --n=CELLS [--seq=0|1]\n"
        "      Figure 4.19 (W 4.5.2): startup 40 + k x message_time (11.5,\n"
        "      260, 28340 clocks), k for fully parallel and fully\n"
        "      sequential messaging; predicted_clocks is the parallel column\n"
        "      for pct and dep and the sequential one for rts (--seq\n"
        "      chooses).  ring2d: 2D rings over W x H = 2x2, 4x2, 4x4, ...\n"
        "\n"
        "iWarp SRU and CAM ring, Feldmann, Gross, O'Hallaron and Stricker "
        "1992, in clocks:\n"
        "  subset --alg=bcast|ring|ring1|ring2|ring3|ring3r|total|total2d\n"
        "         [--n=N] [--hops=H] [--words=K] [--spread=T] [--stride=S]\n"
        "      Primitive costs: SRU broadcast step send_sw + 36 bits x 16 +\n"
        "      recv_sw (and as emulated, starting on a bit boundary), the\n"
        "      bus bound of Algorithm 1, the straggler's two broadcasts\n"
        "      (125 us); selective_send/receive (compose/load + split + 4 k\n"
        "      + join), one ring step over H hops, and the rounds of RING1\n"
        "      (n) and RING2 (2 log2 n); the paper's straggler figures;\n"
        "      the timer synchronisation bound (2 ticks, 800 ns); message\n"
        "      and Phase-1 round bounds (4.3.4, Theorem 9, Lemmas 5-6),\n"
        "      Theorem 7's Phase-2 bounds for RING3 and the randomised\n"
        "      RING3; the total barriers' 60 us and 10 us with Figure\n"
        "      4.19's formula (tenths of clocks).\n"
        "\n"
        "TCS and chapters 5-7, Warfel 1996, in clocks:\n"
        "  tcs-reconfig --n=CELLS [--ring=1d|2d] [--barrier=CLOCKS]\n"
        "      W 5.2.1: switch 162 + 3 x (lookup 12 + barrier), barrier by\n"
        "      default Figure 4.19's PCT ring: 1D 40 + (N-1) x 11.5, 2D 40\n"
        "      + (W-1 + H-1) x 11.5; measured_paper: W 6.2.2's 444 / 872 /\n"
        "      2551 for 4 / 16 / 64.\n"
        "  tcs-start --n=CELLS [--ring=1d|2d] [--barrier=CLOCKS]\n"
        "      [--reconfig=CLOCKS]\n"
        "      W 5.3.1: task change 130 + reconfiguration(N) (--reconfig:\n"
        "      the one to add; W uses the measured one).\n"
        "  tcs-end --n=CELLS [--ring=1d|2d] [--barrier=CLOCKS]\n"
        "      W 5.4.1: barrier(N) + parent restoration 70.\n"
        "  tcs-sg --impl=dep|tcs --array=WxH --bytes=BYTES [--barrier=B]\n"
        "      [--latency=L] [--reconfig=R] [--phases=K]\n"
        "      Scatter/gather: dep W 6.2.1, 100 + (N-1)(359 + 20 + s/BW) +\n"
        "      B + (N-1)(230 + 20 + s/BW), B = W 6.4.1's 77 / 127 / 219 /\n"
        "      404 / 780; tcs W 6.2.2, 398 + (N-1) 2 (L + s/BW) + R x K, L\n"
        "      38 / 59 / 66, R 444 / 872 / 2551 for 4 / 16 / 64 cells, K 2.\n"
        "      N = W x H: the constants go by the cell count, either side\n"
        "      the row (W 6.4.1's 2x4 and 4x8: 8 and 32 cells).\n"
        "  tcs-rb --impl=dep|tcs --array=WxH --bytes=BYTES [--latency=L]\n"
        "      [--reconfig=R] [--phases=K]\n"
        "      Reduction/broadcast: dep W 6.3.1, 100 + 2 log2 N (40 + 359\n"
        "      + 20 + s/BW) + 448; tcs W 6.3.2, 302 + log2 N (40 + 2 (L +\n"
        "      s/BW)) + R x K, R 441 / 869 / 2550 (full reconfigurations),\n"
        "      K 2 (a reduction and a broadcast netgroup; W lists no K),\n"
        "      40 W 6.3.1's Per_Iteration_Overhead (W 6.3.2 lists none).\n"
        "  tcs-a2a --impl=dep|tcs --array=WxH --bytes=BYTES [--barrier=B]\n"
        "      [--phases=K --latency=L [--share=P/Q] | --phases=FILE]\n"
        "      All-to-all: dep W 6.4.1, 100 + (N-1)(40 + 359 + 20 + s/BW)\n"
        "      + (N-1)(230 + 20 + s/BW) + B; tcs W 6.4.2, 10 + the sum over\n"
        "      the phases of (L + s/(BW x P/Q) + 432 + 162 + 459), phases K\n"
        "      alike or one per FILE line \"LATENCY [P/Q]\".\n"
        "      BW = 1.998 bytes/clock; value_clocks truncated to 3\n"
        "      decimals, predicted_clocks floored.\n"
        "  motion --block=LINES --p=CLOCKS [--loading=1280|1024]\n"
        "      [--frames=F]\n"
        "      W 7.3.1 latency 60 + loading + (b-1) 1336 + 60 + 20 + b 256\n"
        "      p + 20 + 225; with --frames the completion time (F-1)\n"
        "      T_frame + (240-b) 1336 + latency + 128 b, T_frame = 240 x\n"
        "      1336 + 12000 (design 8.6).\n"
        "  Constants: --constants mp_send=359,... (see constants)\n"
        "\n"
        "  constants   the default constants of every machine.\n"
        "\n"
        "Comparing a program's results with the formulas:\n"
        "  compare FILE|- [--machine=ipsc860|paragon|ncube]\n"
        "      Reads the CSV or JSON that a program of apps/ writes with\n"
        "      --format=csv|json and prints per row the emulated value, the\n"
        "      predicted one, diff = emulated - predicted, ratio and the\n"
        "      paper: complete_exchange (cx-time's lower bound; bounded only\n"
        "      for c <= n/4), ring_vertex (ncube),\n"
        "      shift_sync (Table II 2-5 / 2-7 at delta 0: the shift alone),\n"
        "      shift_sync_table3 (ipsc-table3) and pingpong (2 x one send on\n"
        "      --machine: ipsc860 Table II, paragon Table 1, ncube standard\n"
        "      Vertex).  Other rows are skipped.\n"
        "\n"
        "Common options:\n"
        "  --constants KEY=VALUE[,...]  override a machine's constants\n"
        "  --ps                         print times in picoseconds (keys\n"
        "                               end in _ps instead of _us)\n"
        "  --format=kv|csv|json         key=value lines (default), CSV (a\n"
        "                               header row, first columns table and\n"
        "                               paper) or JSON (command, arguments,\n"
        "                               paper, rows)\n"
        "  --help                       this text\n"
        "\n"
        "Numbers: inputs are exact decimals of at most 6 decimals (1 ps);\n"
        "sizes and counts are non-negative integers.  All arithmetic is\n"
        "exact (integers of 0.1 ps) and times are printed exactly, with at\n"
        "least 2 decimals and as many more as exactness needs (ps: none\n"
        "or one).  Rounded are only quotients (m_exact and k to 2\n"
        "decimals; t'_comm to 0.1 ps), min_m (ceil) and iters (nearest),\n"
        "and log2 of a node count that is not a power of two (the sync\n"
        "term to 0.1 ps).  Errors name the option and exit with status 2.\n",
        f);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(int, char **);
    } cmds[] = {
        {"ipsc-table2", cmd_ipsc_table2},
        {"ipsc-table3", cmd_ipsc_table3},
        {"ipsc-sync", cmd_ipsc_sync},
        {"rds-waits", cmd_rds_waits},
        {"paragon-sync", cmd_paragon_sync},
        {"paragon-comm", cmd_paragon_comm},
        {"cx-steps", cmd_cx_steps},
        {"cx-time", cmd_cx_time},
        {"ncube", cmd_ncube},
        {"ncube-table2", cmd_ncube_table2},
        {"iwarp-pct", cmd_iwarp_pct},
        {"iwarp-deposit", cmd_iwarp_deposit},
        {"iwarp-barrier", cmd_iwarp_barrier},
        {"subset", cmd_subset},
        {"tcs-reconfig", cmd_tcs_reconfig},
        {"tcs-start", cmd_tcs_start},
        {"tcs-end", cmd_tcs_end},
        {"tcs-sg", cmd_tcs_sg},
        {"tcs-rb", cmd_tcs_rb},
        {"tcs-a2a", cmd_tcs_a2a},
        {"motion", cmd_motion},
        {"constants", cmd_constants},
        {"compare", cmd_compare},
    };
    /* --format applies to every command: take it out before they parse */
    int kept = 1;
    for (int i = 1; i < argc; i++) {
        const char *f = NULL;
        if (strncmp(argv[i], "--format=", 9) == 0)
            f = argv[i] + 9;
        else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc)
            f = argv[++i];
        if (f == NULL) {
            argv[kept++] = argv[i];
            continue;
        }
        if (strcmp(f, "kv") == 0)
            out_format = 0;
        else if (strcmp(f, "csv") == 0)
            out_format = 1;
        else if (strcmp(f, "json") == 0)
            out_format = 2;
        else
            die("--format: kv, csv or json");
    }
    argc = kept;
    argv[argc] = NULL;
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(argv[1], cmds[i].name) == 0) {
            char *buf = NULL;
            size_t len = 0;
            FILE *mem = NULL, *real = stdout;
            cmd_name = cmds[i].name;
            if (out_format != 0) {
                /* run on key=value lines, then print them as data */
                if ((mem = open_memstream(&buf, &len)) == NULL)
                    die("out of memory");
                stdout = mem;
            }
            cmds[i].run(argc, argv);
            if (mem != NULL) {
                fflush(mem);
                stdout = real;
                fclose(mem);
                emit_as_data(buf, cmds[i].name, argc, argv);
                free(buf);
            }
            if (fflush(stdout) != 0 || ferror(stdout)) {
                fputs("mce-predict: error writing the output\n", stderr);
                return 1;
            }
            return 0;
        }
    die("unknown command '%s'", argv[1]);
    return 2;
}
