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
# With the flow control of message buffers on (Seidel and Davis 1992,
# section 2.4), the balanced measurements still give Table I exactly,
# while the one-way ring of long messages pays for its refused PROBEs:
# "Accurate measurements of this constant could only be obtained by
# balancing the flow of messages".
"$B/apps/calibrate_nx" --mce-nodes=8 --sizes=2000,20000 --reps=4 \
    --mce-set=ipsc.fc=1 > "$TMP/o" 2>&1
v() { sed -n "s/^calibrate_nx: $1 *= \([0-9.]*\) .*/\1/p" "$TMP/o"; }
expect_eq "a with flow control" "$(v a)" 0.3600
expect_eq "b_l with flow control" "$(v b_l)" 136.00
expect_eq "b_s with flow control" "$(v b_s)" 75.00
expect_eq "s with flow control" "$(v s)" 44.00
hop=$(sed -n 's/.*ring of 2000-byte messages: \([0-9.]*\) us per hop.*/\1/p' "$TMP/o")
awk -v h="${hop:-0}" 'BEGIN { exit !(h > 856) }' &&
    pass "one-way ring with flow control costs more than a m + b_l ($hop us)" ||
    fail "one-way ring with flow control: '$hop' us per hop, want > 856"
finish
