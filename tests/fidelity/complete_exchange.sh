#!/bin/sh
# Bokhari and Nicol (1996) on the emulated Paragon: the naive complete
# exchange runs on 12 x 12 but fails on 16 x 16 with the operating
# system's limit on outstanding receives, as on the machine, while the
# bounded-contention algorithm runs there; the bounded algorithm prints a
# row per (node contention, link contention); identical on 1 and 2 ranks.
. "$top_srcdir/tests/lib.sh"

cx=$B/apps/complete_exchange
P="--mce-machine=paragon"

"$cx" $P --mce-nodes=144 --mce-set=paragon.width=12 --alg=naive \
    --sizes=15232 > "$TMP/o" 2>&1
expect_eq "naive 12x12 runs" $? 0
expect_grep "naive 12x12 row" "complete_exchange: naive *143 *- *15232" "$TMP/o"

"$cx" $P --mce-nodes=256 --alg=naive --sizes=15232 > "$TMP/o" 2>&1
rc=$?
[ $rc -ne 0 ] && pass "naive 16x16 fails ($rc)" || fail "naive 16x16 exit 0"
expect_grep "naive 16x16: the OS limit, named" \
    "NX irecv: too many outstanding messages or receives for the operating system of node" "$TMP/o"

"$cx" $P --mce-nodes=256 --alg=bounded --groups=4 --sizes=15232 > "$TMP/o" 2>&1
expect_eq "bounded 16x16 runs" $? 0
expect_grep "bounded 16x16 row (1, 4)" "complete_exchange: bounded *1 *4 *15232" "$TMP/o"

"$cx" $P --mce-nodes=64 --mce-set=paragon.width=8 --sizes=16384 \
    --mce-summary > "$TMP/a" 2>&1
expect_eq "8x8 all algorithms" $? 0
for g in "1 1" "1 2" "2 4" "4 8" "8 16" "16 32" "32 64" "64 128"; do
    set -- $g
    expect_grep "8x8 row (node $1, link $2)" \
        "complete_exchange: [a-z]* *$1 *$2 *16384" "$TMP/a"
done
# Every row lies within the paper's bounds' spirit: removing barriers
# (link contention 1 -> 2) must help, as in the seed's figures.
t1=$(awk '$2 == "scott" { print $6 }' "$TMP/a")
t2=$(awk '$2 == "bounded" && $4 == 2 { print $6 }' "$TMP/a")
awk -v a="$t1" -v b="$t2" 'BEGIN { exit !(b < a) }' &&
    pass "collapsing to link contention 2 is faster ($t1 -> $t2 ms)" ||
    fail "link contention 2 not faster ($t1 -> $t2 ms)"
run 2 "$cx" $P --mce-nodes=64 --mce-set=paragon.width=8 --sizes=16384 \
    --mce-summary > "$TMP/b" 2>&1
expect_eq "8x8 on 2 ranks" "$(summary_sans_ranks "$TMP/b")" "$(summary_sans_ranks "$TMP/a")"
finish
