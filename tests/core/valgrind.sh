#!/bin/sh
# memcheck over the engine: fibers (registered stacks), privatisation in
# both methods, big payloads, deadlock exit, trace writing.  Any error or
# definite leak fails.
. "$top_srcdir/tests/lib.sh"

if [ -z "${VALGRIND:-}" ] || [ "$VALGRIND" = no ]; then
    fail "valgrind not found by configure (build.sh installs it)"
    finish; exit 1
fi
vg() {
    "$VALGRIND" -q --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite "$@"
}
vg "$B/apps/ring" --mce-nodes=16 --rounds=4 --bytes=100 --mce-summary \
    --mce-trace="$TMP/t.json" > "$TMP/o" 2>&1
expect_eq "ring under valgrind" $? 0
vg "$B/tests/progs/globals" --mce-nodes=3 > "$TMP/o" 2>&1
expect_eq "globals (copy) under valgrind" $? 0
vg "$B/tests/progs/globals" big --mce-nodes=3 > "$TMP/o" 2>&1
expect_eq "globals (memfd) under valgrind" $? 0
vg "$B/tests/progs/misuse" --mce-nodes=2 > "$TMP/o" 2>&1
expect_eq "misuse under valgrind" $? 0
vg "$B/apps/pingpong" --mce-nodes=2 --sizes=0,4096,1048576 --reps=2 > "$TMP/o" 2>&1
expect_eq "pingpong under valgrind" $? 0
vg "$B/tests/progs/nx_api" --mce-nodes=4 > "$TMP/o" 2>&1
expect_eq "NX API on the iPSC/860 under valgrind" $? 0
vg "$B/tests/progs/vx_routes" --mce-nodes=4 > "$TMP/o" 2>&1
expect_eq "Vertex routes on the NCUBE under valgrind" $? 0
vg "$B/apps/sobel_edge" --mce-nodes=4 --sizes=32 --output="$TMP/s.pgm" > "$TMP/o" 2>&1
expect_eq "sobel_edge under valgrind" $? 0
vg "$B/apps/complete_exchange" --mce-machine=paragon --mce-nodes=16 \
    --mce-set=paragon.width=4 --sizes=9000 > "$TMP/o" 2>&1
expect_eq "Paragon complete exchange under valgrind" $? 0
vg "$B/apps/iwarp/subset_barrier" --mce-nodes=64 --alg=ring2 --n=8 \
    --subsets=max > "$TMP/o" 2>&1
expect_eq "iWarp CAM ring subset barriers under valgrind" $? 0
vg "$B/apps/iwarp/subset_barrier" --mce-nodes=64 --alg=bcast --n=4 \
    --subsets=2 --straggler > "$TMP/o" 2>&1
expect_eq "iWarp SRU barrier under valgrind" $? 0
vg "$B/apps/iwarp/deposit_pingpong" --mce-nodes=64 --runs=2 --sizes=4,1024 \
    --dist=1,3 > "$TMP/o" 2>&1
expect_eq "iWarp deposit message passing under valgrind" $? 0
vg "$B/apps/iwarp/deposit_pingpong" --mce-nodes=64 --mode=spool > "$TMP/o" 2>&1
expect_eq "iWarp spools under valgrind" $? 0
vg "$B/apps/iwarp/rts_pingpong" --mce-nodes=64 --runs=2 --sizes=32 \
    --dist=1,2 > "$TMP/o" 2>&1
expect_eq "iWarp RTS message passing under valgrind" $? 0
vg "$B/apps/iwarp/backpressure" --mode=groups --words=42 > "$TMP/o" 2>&1
expect_eq "iWarp link sharing (PCT groups) under valgrind" $? 0
vg "$B/apps/iwarp/backpressure" --mode=stall --words=40 --read-after=2000 \
    > "$TMP/o" 2>&1
expect_eq "iWarp back-pressure under valgrind" $? 0
vg "$B/apps/iwarp/iwarp_barrier" --scheme=cube --signal=pct --cells=8 \
    --straggler=100 > "$TMP/o" 2>&1
expect_eq "iWarp PCT cube barrier (shared links) under valgrind" $? 0
vg "$B/apps/tcs/tcs_patterns" --impl=dep --pattern=a2a --array=2x2 \
    --sizes=16 > "$TMP/o" 2>&1
expect_eq "deposit all-to-all under valgrind" $? 0
vg "$B/apps/tcs/ball_front" --mce-nodes=64 --mce-tcs=link > "$TMP/o" 2>&1
expect_eq "TCS linker report under valgrind" $? 0
vg "$B/apps/tcs/tcs_primitives" --mce-nodes=64 --cells=4,64 > "$TMP/o" 2>&1
expect_eq "TCS run time (tcs_primitives) under valgrind" $? 0
TCS_CASE=pcts vg "$B/tests/progs/tcs_cases" --mce-nodes=64 > "$TMP/o" 2>&1
expect_eq "TCS linker refusal under valgrind exits 2" $? 2
vg "$B/tests/progs/recv_first" --mce-nodes=2 > "$TMP/o" 2>&1
expect_eq "deadlock under valgrind exits 3 without errors" $? 3

# The bad-input table itself runs under memcheck in valgrind_table.sh;
# here the rows of misuse.sh and the NX/Vertex fuzz corpus.
# vg_row WHAT STATUS PATTERN CMD...: memcheck's 99 would differ from STATUS
vg_row() {
    what=$1 st=$2 pat=$3; shift 3
    vg "$@" > "$TMP/o" 2>&1
    expect_eq "$what under valgrind: status" $? "$st"
    expect_grep "$what under valgrind: message" "$pat" "$TMP/o"
}
P=$B/tests/progs
printf 'inherit = ideal\nlatency 3us\n' > "$TMP/bad.conf"
vg_row "machine file syntax error" 2 "bad.conf:2: expected 'key = value'" \
    "$P/misuse" --mce-nodes=2 --mce-machine="$TMP/bad.conf"
# A stack overflow: the report, then the signal again (status 128 + 11).
vg_row "stack overflow" 139 \
    "node 1 overflowed its 1048576-byte stack at virtual time 0.000007000000 s" \
    "$P/overflow" --mce-nodes=2
vg_row "stack overflow, smaller stack" 139 \
    "node 1 overflowed its 262144-byte stack" \
    "$P/overflow" --mce-nodes=2 --mce-stack-size=256K
# The named inputs of the fuzz corpus (tests/core/fuzz_replay.sh: the
# seeds and the fuzzer's findings; the whole corpus, 300 inputs, costs
# half a minute), each in a forked child that memcheck follows: an error
# or a definite leak in a child is its status 99, which the replay
# reports as no documented end.
vg_row "NX/Vertex fuzz corpus" 0 ", 0 without a documented end$" \
    "$B/tests/fuzz/fuzz_calls_replay" "$top_srcdir"/tests/fuzz/corpus/calls/nx_* \
    "$top_srcdir"/tests/fuzz/corpus/calls/vx_* \
    "$top_srcdir"/tests/fuzz/corpus/calls/nc2_*
finish
