#!/bin/sh
# calibrate_nx measures the iPSC/860 the way the seed did and must recover
# Table I exactly (a = 0.36 us/byte, b_l = 136 us, b_s = 75 us, s = 44 us),
# on 2, 8 and 32 nodes and on 2 ranks, and a neighbour ring of long
# messages must cost a m + b_l per hop.
. "$top_srcdir/tests/lib.sh"

for cfg in "0 2" "0 8" "0 32" "2 8"; do
    set -- $cfg
    run $1 "$B/apps/calibrate_nx" --mce-nodes=$2 --sizes=2000,20000 --reps=4 \
        > "$TMP/o" 2>&1
    expect_eq "calibrate np=$1 nodes=$2 status" $? 0
    v() { sed -n "s/^calibrate_nx: $1 *= \([0-9.]*\) .*/\1/p" "$TMP/o"; }
    expect_eq "a (np=$1, $2 nodes)" "$(v a)" 0.3600
    expect_eq "b_l (np=$1, $2 nodes)" "$(v b_l)" 136.00
    expect_eq "b_s (np=$1, $2 nodes)" "$(v b_s)" 75.00
    expect_eq "s (np=$1, $2 nodes)" "$(v s)" 44.00
    expect_grep "ring hop = a m + b_l (np=$1, $2 nodes)" \
        "ring of 2000-byte messages: 856.00 us per hop (a m + b_l = 856.00)" "$TMP/o"
done
finish
