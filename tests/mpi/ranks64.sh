#!/bin/sh
# The determinism contract at 64 active ranks: every program of
# tests/mpi (determinism.sh, placement.sh) run with 64 virtual nodes on 64
# MPI ranks, one node per rank (MCE_OVERSUBSCRIBED=spread, so every rank
# hosts its node and the partitioned network, the windows and the packed
# exchanges run between 64 ranks), prints the one-process summary line
# (digest and vtime_max_ps), with block and cyclic placement.
#
# Not in make check: 64 ranks on this 2-core machine take 5-30 s per run
# when the machine is quiet and minutes when it is loaded.  Run it with
#     make check-ranks64
# (nx_api is limited to 32 nodes by its own checks of 2^n-bit results;
# nx_ring and nx_paragon stand for NX on 64 ranks.)
. "$top_srcdir/tests/lib.sh"

export MCE_OVERSUBSCRIBED=spread
while IFS='|' read -r name places cmd; do
    set -- $cmd
    prog=$1; shift
    run 0 "$B/$prog" --mce-nodes=64 "$@" --mce-summary > "$TMP/$name.ref" 2>&1 \
        < /dev/null || fail "$name: one process exited non-zero"
    ref=$(summary_sans_ranks "$TMP/$name.ref")
    [ -n "$ref" ] || { fail "$name: no summary line"; continue; }
    for pl in $places; do
        run 64 "$B/$prog" --mce-nodes=64 "$@" --mce-placement=$pl \
            --mce-summary > "$TMP/out" 2>&1 < /dev/null ||
            fail "$name: 64 ranks $pl exited non-zero"
        expect_eq "$name: 64 ranks, $pl: one-process summary" \
            "$(summary_sans_ranks "$TMP/out")" "$ref"
        expect_eq "$name: 64 ranks, $pl: ranks" "$(field ranks "$TMP/out")" 64
    done
done <<LIST
ring|block cyclic|apps/ring --rounds=5 --bytes=33
nx_ring|block|tests/progs/nx_ring --mce-machine=ipsc860
nx_paragon|block|tests/progs/nx_paragon naive 1024 --mce-machine=paragon --mce-set=paragon.width=8
shift_sync|block|apps/shift_sync --trials=2 --sizes=4096 --back-to-back --mce-set=nx.irq=1 --mce-set=ipsc.fc=1
complete_exchange|block|apps/complete_exchange --mce-machine=paragon --mce-set=paragon.width=8 --sizes=2000
vx_routes|block cyclic|tests/progs/vx_routes
sobel_edge|block topology|apps/sobel_edge --sizes=16 --output=$TMP/sobel.pgm
motion_detect|block|apps/tcs/motion_detect --block=24 --frames=1 --video=square
LIST
finish
