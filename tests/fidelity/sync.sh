#!/bin/sh
# Seidel and Davis (1992), sections 3 and 4 on the emulated iPSC/860:
# Table III from the emulator's own measurements, RDS cost 2 d b_s + delta
# with precision 0, gsync and sync0 in the cases the seed analyses, and
# the section 4.2 experiment with interrupts on (RDS keeps succeeding as
# the cube grows, gsync does not).
. "$top_srcdir/tests/lib.sh"

ss=$B/apps/shift_sync
bs=75 s=44
set -- 645 1062 1478 1895 2312 2728          # Table III, d = 2 .. 7
for d in 2 3 4 5 6 7; do
    want=$1; shift
    out=$("$ss" --mce-nodes=$((1 << d)) --table3 2>&1)
    expect_eq "Table III d=$d" "$(echo "$out" | sed -n 's/.*min_m=\([0-9]*\) .*/\1/p')" "$want"
    expect_eq "RDS cost d=$d (2 d b_s + 100 us)" \
        "$(echo "$out" | sed -n 's/.*rds_cost_us=\([0-9.]*\) .*/\1/p')" \
        "$(awk -v d=$d -v b=$bs 'BEGIN { printf "%.6f", 2 * d * b + 100 }')"
done

row() { # SYNC NODES LATE_NODE DELTA -> "sync_us prec_us"
    "$ss" --mce-nodes=$2 --trials=1 --sizes=4096 --protocol=forced \
        --sync=$1 --late=$3:$4 2>&1 | awk -v a=$1 '$2 == a { print $7, $8 }'
}
for d in 3 5; do
    n=$((1 << d)) last=$((n - 1))
    for delta in 30 200 700; do
        expect_eq "RDS d=$d delta=$delta: cost 2 d b_s + delta, precision 0" \
            "$(row rds $n $last $delta)" \
            "$(awk -v d=$d -v b=$bs -v x=$delta 'BEGIN { printf "%.2f 0.00", 2 * d * b + x }')"
    done
    expect_eq "gsync d=$d delta=30 < b_s: cost d b_s + delta, precision delta" \
        "$(row gsync $n $last 30)" \
        "$(awk -v d=$d -v b=$bs 'BEGIN { printf "%.2f 30.00", d * b + 30 }')"
    big=$((d * bs + 100))
    expect_eq "gsync d=$d delta=$big > d b_s: cost d b_s + delta, precision d(b_s - s)" \
        "$(row gsync $n $last $big)" \
        "$(awk -v d=$d -v b=$bs -v s=$s -v x=$big 'BEGIN { printf "%.2f %.2f", d * b + x, d * (b - s) }')"
    expect_eq "sync0 d=$d delta=30 < b_s: cost (d+1) b_s + delta" \
        "$(row sync0 $n $last 30 | cut -d' ' -f1)" \
        "$(awk -v d=$d -v b=$bs 'BEGIN { printf "%.2f", (d + 1) * b + 30 }')"
done

# Section 4.2: success rates over 40 trials with system interrupts.
rate() { # SYNC D PROTO
    "$ss" --mce-nodes=$((1 << $2)) --trials=40 --sizes=16384 --protocol=$3 \
        --sync=$1 --skew-us=200 --mce-set=nx.irq=1 2>&1 |
        awk -v a=$1 '$2 == a { sub("%", "", $9); print $9 }'
}
r_rds7=$(rate rds 7 forced) r_gs7=$(rate gsync 7 forced) r_gs2=$(rate gsync 2 forced)
echo "success rates (forced, 16 KB): rds d=7 $r_rds7%, gsync d=7 $r_gs7%, gsync d=2 $r_gs2%"
awk -v r=$r_rds7 'BEGIN { exit !(r >= 95) }' && pass "RDS keeps >= 95% success at d=7" ||
    fail "RDS success at d=7 is $r_rds7%"
awk -v a=$r_gs7 -v b=$r_gs2 'BEGIN { exit !(a < b && a < 50) }' &&
    pass "gsync success falls with the cube size ($r_gs2% -> $r_gs7%)" ||
    fail "gsync success d=2 $r_gs2%, d=7 $r_gs7%"
# Deterministic with interrupts, whatever the layout.
args="--mce-nodes=16 --trials=3 --sizes=4096 --mce-set=nx.irq=1 --mce-summary"
a=$(run 0 "$ss" $args 2>&1 | summary_sans_ranks /dev/stdin)
b=$(run 2 "$ss" $args 2>&1 | summary_sans_ranks /dev/stdin)
expect_eq "shift_sync with interrupts on 2 ranks" "$b" "$a"
finish
