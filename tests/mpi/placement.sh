#!/bin/sh
# Placement: the summary line (digest, vtime_max_ps) is the same in one
# process and under mpirun with 1, 2, 3 and 4 ranks for block, cyclic,
# topology and weighted (--mce-place-weights) placement, for the ring
# (ideal), sobel_edge (NCUBE hypercube), the 4 x 4 Paragon complete
# exchange and motion_detect (iWarp torus); --mce-verbose shows that
# topology placement gives each rank a subcube of the hypercube or a
# block of the mesh and torus, weighted placement each rank's share of
# the work, and the run's cross-rank messages.
. "$top_srcdir/tests/lib.sh"

# rank_shapes FILE: the shape part of each rank line, one a line
rank_shapes() {
    sed -n 's/^mcemu: rank [0-9]* on .*; [0-9]* nodes (\(.*\))$/\1/p' "$1"
}

# check NAME NP PLACEMENT ARGS...: one layout against the reference
check() {
    name=$1 np=$2 pl=$3; shift 3
    case $pl in
    weights) popt="--mce-placement=topology --mce-place-weights=$TMP/$name.csv" ;;
    *) popt="--mce-placement=$pl" ;;
    esac
    run "$np" "$@" $popt --mce-summary --mce-verbose > "$TMP/out" 2>&1 \
        < /dev/null ||
        fail "$name np=$np $pl exited non-zero"
    expect_eq "$name np=$np $pl summary" "$(summary_sans_ranks "$TMP/out")" \
        "$(summary_sans_ranks "$TMP/$name.ref")"
    expect_eq "$name np=$np $pl rank lines" \
        "$(rank_shapes "$TMP/out" | wc -l | tr -d ' ')" "$np"
}

while IFS='|' read -r name nps cmd; do
    set -- $cmd
    prog=$1; shift
    args=$*
    # The reference, whose statistics are the weights.
    run 0 "$B/$prog" $args --mce-summary --mce-stats="$TMP/$name.csv" \
        > "$TMP/$name.ref" 2>&1 < /dev/null ||
        fail "$name: one process exited non-zero"
    [ -n "$(summary_sans_ranks "$TMP/$name.ref")" ] || fail "$name: no summary"
    for cfg in $nps; do
        np=${cfg%:*} pl=${cfg#*:}
        check "$name" "$np" "$pl" "$B/$prog" $args
        cp "$TMP/out" "$TMP/$name.$np.$pl"
    done
done <<EOF
ring|1:topology 2:topology 3:block 3:cyclic 3:topology 3:weights 4:weights|apps/ring --mce-nodes=13 --rounds=3 --bytes=33
sobel|1:weights 2:topology 3:block 3:cyclic 3:topology 4:topology 4:weights|apps/sobel_edge --mce-nodes=16 --sizes=32,64 --output=$TMP/sobel.pgm
cx|1:topology 2:topology 3:cyclic 3:topology 3:weights 4:topology 4:weights|apps/complete_exchange --mce-nodes=16 --mce-machine=paragon --mce-set=paragon.width=4 --sizes=9000
md|4:topology 3:weights|apps/tcs/motion_detect --mce-nodes=64 --block=24 --frames=1 --video=square
EOF

# The shapes: subcubes, mesh blocks, torus blocks.
expect_eq "sobel: 4 ranks, each a subcube of dimension 2" \
    "$(rank_shapes "$TMP/sobel.4.topology" | grep -c 'subcube of dimension 2$')" 4
expect_eq "sobel: 2 ranks, each a subcube of dimension 3" \
    "$(rank_shapes "$TMP/sobel.2.topology" | grep -c 'subcube of dimension 3$')" 2
expect_eq "cx: 4 ranks, each a 2x2 block of the 4 x 4 mesh" \
    "$(rank_shapes "$TMP/cx.4.topology" | grep -c 'block 2x2 at')" 4
expect_eq "cx: the blocks at (0,0), (0,2), (2,0), (2,2)" \
    "$(rank_shapes "$TMP/cx.4.topology" | sed 's/.* at //' | sort | tr '\n' ' ')" \
    "(0,0) (0,2) (2,0) (2,2) "
expect_eq "md: 4 ranks, each a 4x4 block of the 8 x 8 torus" \
    "$(rank_shapes "$TMP/md.4.topology" | grep -c 'block 4x4 at')" 4
# Block placement's report says what it is; on no topology (the ring),
# topology placement is block placement.
expect_grep "ring: block ranges" "block: ids 0..4, contiguous" "$TMP/ring.3.block"
expect_grep "ring: topology without a topology = block" \
    "topology: ids 0..4, contiguous" "$TMP/ring.3.topology"
# Weighted placement reports the shares of the work, adding up to 100 %.
expect_eq "motion_detect weights: each rank's share of the work" \
    "$(rank_shapes "$TMP/md.3.weights" | grep -c 'work [0-9.]* %')" 3
expect_eq "motion_detect weights: the shares add up to 100 %" \
    "$(rank_shapes "$TMP/md.3.weights" | sed 's/.*work \([0-9.]*\) %/\1/' |
        awk '{ s += $1 } END { printf "%.0f", s }')" 100
# The end-of-run line: cross-rank messages (none on one rank).
expect_grep "ring 1 rank: no cross-rank message" \
    "^mcemu: placement topology: cross_rank=0 messages=[1-9]" "$TMP/ring.1.topology"
expect_grep "cx 4 ranks: cross-rank messages counted" \
    "^mcemu: placement topology: cross_rank=[1-9][0-9]* messages=" "$TMP/cx.4.topology"

# The weights from a config file and from the environment: the same
# placement as the option's.
printf 'placement = topology\nplace-weights = %s\n' "$TMP/md.csv" > "$TMP/md.conf"
run 0 "$B/apps/tcs/motion_detect" --mce-nodes=64 --block=24 --frames=1 \
    --video=square --mce-config="$TMP/md.conf" --mce-verbose --mce-summary \
    > "$TMP/cf" 2>&1 < /dev/null
expect_eq "weights from a config file: summary" \
    "$(summary_sans_ranks "$TMP/cf")" "$(summary_sans_ranks "$TMP/md.ref")"
expect_grep "weights from a config file: the work share" \
    "nodes (topology: ids 0..63, block 8x8 at (0,0), work 100.0 %)" "$TMP/cf"
MCE_PLACE_WEIGHTS="$TMP/ring.csv" run 0 "$B/apps/ring" --mce-nodes=13 \
    --rounds=3 --bytes=33 --mce-verbose > "$TMP/env" 2>&1 < /dev/null
expect_grep "weights from MCE_PLACE_WEIGHTS" "work 100.0 %" "$TMP/env"

# Bad weights: a file of another node count is refused, naming it.
run 0 "$B/apps/ring" --mce-nodes=12 --rounds=1 \
    --mce-place-weights="$TMP/ring.csv" > "$TMP/bad" 2>&1
expect_eq "weights of 13 nodes for 12: status" $? 2
expect_grep "weights of 13 nodes for 12: message" "ring.csv' has a row for node 12" "$TMP/bad"
run 0 "$B/apps/ring" --mce-nodes=13 --rounds=1 --mce-placement=cyclic \
    --mce-place-weights="$TMP/ring.csv" > "$TMP/bad" 2>&1
expect_eq "weights with cyclic placement: status" $? 2
expect_grep "weights with cyclic placement: message" "not cyclic" "$TMP/bad"
finish
