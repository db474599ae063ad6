#!/bin/sh
# Bokhari and Nicol (1996) on the emulated Paragon: the complete exchange's
# naive, Scott and bounded-contention algorithms against the paper's
# statements (section 7 and the abstract; the figures' values are withheld,
# so every check here is a qualitative statement of the paper, quoted, or
# the paper's own bounds computed from its Table 1), plus the operating
# system's limits and determinism.
. "$top_srcdir/tests/lib.sh"

cx=$B/apps/complete_exchange
P="--mce-machine=paragon"
m=15232                                # the size of the paper's slices

# col NAME NODEC LINKC SIZE COLUMN FILE: a field of a row of the table
col() {
    awk -v a="$1" -v nc="$2" -v lc="$3" -v s="$4" -v c="$5" \
        '$2 == a && $3 == nc && $4 == lc && $5 == s { print $c }' "$6"
}
lt() { awk -v x="$1" -v y="$2" 'BEGIN { exit !(x < y) }'; }

# "In Figure 13 we see that the measured time is close to the lower bound
# for link contention 1, 2 & 4 ... Similar comments apply to the slices
# for 12 x 12 and 16 x 16 meshes" (section 7).  The bounds are the
# paper's, from Table 1 and Table 2, computed here (bound):
#   lower = Table 2's steps x (231 + 0.022 m) + barriers x sync,
#   upper = n^3/4 x (231 + 0.022 m) + barriers x sync,
# with sync = 27.1 log2 n^2 - 134 us (taken as 0 where negative),
# ceil(n^3/4 / c) barriers at link contention c, and Table 2's steps n^3/4 / c up to
# c = n/4, then n^3/4 / (n/4): Table 2 stops at c = n/4 (64 steps on
# 8 x 8, 144 on 12 x 12, 256 on 16 x 16), because collapsing further only
# removes barriers and adds node contention, whose overhead "the lower
# bound does not include" (section 7; on 4 x 4, where n/4 = 1, "the
# communication time fraction of the total predicted time is constant").
# The paper puts no number on "close": 10 %, the tolerance this test gives
# its "the agreement between predicted and measured times is good"
# (4 x 4).  Not reached yet at every point (USER-GUIDE 22.2): a known
# failure until it holds.
bound() { # lower|upper N LINKC: the paper's bound in ms
    awk -v b=$1 -v n=$2 -v c=$3 -v m=$m 'BEGIN {
        s = 27.1 * log(n * n) / log(2) - 134; if (s < 0) s = 0
        tot = n * n * n / 4; q = n / 4; comm = 231 + 0.022 * m
        steps = b == "upper" ? tot : tot / (c < q ? c : q)
        bar = int(tot / c); if (bar * c < tot) bar++ # a last, shorter stretch
        printf "%.3f", (steps * comm + bar * s) / 1e3 }'
}
close_to_lower() { # N FILE LINKC...: the points at those link contentions
    n=$1 f=$2
    shift 2
    for lc in "$@"; do
        t=$(awk -v c=$lc '($2 == "scott" || $2 == "bounded") && $4 == c { print $6 }' "$f")
        nc=$(awk -v c=$lc '($2 == "scott" || $2 == "bounded") && $4 == c { print $3 }' "$f")
        lo=$(bound lower $n $lc)
        r=$(awk -v t="$t" -v l="$lo" 'BEGIN { printf "%.3f", t / l }')
        check_or_known "paper: ${n}x$n ($nc, $lc) close to the lower bound: $t ms, $r x $lo (within 10 %)" \
            "$t <= 1.10 * $lo"
    done
}

# --- 16 x 16: the operating system's limits (section 7) ------------------
"$cx" $P --mce-nodes=144 --mce-set=paragon.width=12 --alg=naive \
    --sizes=$m > "$TMP/o" 2>&1
expect_eq "naive 12x12 runs" $? 0
"$cx" $P --mce-nodes=256 --alg=naive --sizes=$m > "$TMP/o" 2>&1
rc=$?
[ $rc -ne 0 ] && pass "paper: naive 16x16 fails ($rc)" || fail "naive 16x16 exit 0"
expect_grep "naive 16x16: the OS limit, named" \
    "NX irecv: too many outstanding messages or receives for the operating system of node" "$TMP/o"
"$cx" $P --mce-nodes=256 --alg=bounded --groups=1024 --sizes=$m > "$TMP/o" 2>&1
rc=$?
[ $rc -ne 0 ] && pass "paper: bounded 16x16 fails at node contention 256 ($rc)" ||
    fail "bounded 16x16 at (256, 1024) exit 0"

# --- 4 x 4 (Figure 12) -----------------------------------------------------
# "in a 4 x 4 mesh schedule there are no idle processors ... the schedule
# cannot collapse"; "the increase in performance comes about because of
# reduction in synchronization overhead", with "slight decreases in time"
# from node contention.  So the time less the barriers (each costing what
# one emulated gsync costs) stays within 15 % below Scott's, never above;
# and "the agreement between predicted and measured times is good": within
# 10 % of the paper's prediction, 16 x (231 + 0.022 m) (the synchronisation
# fit is negative at 16 nodes and counts as 0).
gs=$("$B/tests/progs/nx_paragon" gsync --mce-nodes=16 --mce-set=paragon.width=4 $P 2>&1 |
    sed -n 's/.* gsync_max_ps=\([0-9]*\).*/\1/p')
"$cx" $P --mce-nodes=16 --mce-set=paragon.width=4 --sizes=$m \
    --alg=scott,bounded > "$TMP/c4" 2>&1
expect_eq "4x4 runs" $? 0
c1=
for g in 1 2 4 8 16; do
    t=$(awk -v g=$g '($2 == "scott" || $2 == "bounded") && $4 == g { print $6 }' "$TMP/c4")
    c=$(awk -v t="$t" -v g=$g -v s="$gs" 'BEGIN { printf "%.3f", t - 16 / g * s / 1e9 }')
    echo "    4x4 link contention $g: $t ms, without the barriers $c ms"
    [ -n "$c1" ] || c1=$c
    awk -v c="$c" -v c1="$c1" 'BEGIN { exit !(c <= c1 * 1.001 && c >= 0.85 * c1) }' &&
        pass "paper: 4x4 communication constant at contention $g ($c of $c1 ms)" ||
        fail "4x4 communication at contention $g: $c ms against $c1 ms"
    p=$(awk -v m=$m 'BEGIN { printf "%.3f", 16 * (231 + 0.022 * m) / 1e3 }')
    awk -v t="$t" -v p="$p" 'BEGIN { d = t / p - 1; exit !(d < 0.10 && d > -0.10) }' &&
        pass "paper: 4x4 contention $g within 10 % of the prediction ($t, $p ms)" ||
        fail "4x4 contention $g: $t ms against the prediction $p ms"
done

# --- 8 x 8 and 12 x 12 (Figures 8, 9, 11, 13, 14) --------------------------
for cfg in "8 64" "12 144"; do
    set -- $cfg
    n=$1
    "$cx" $P --mce-nodes=$2 --mce-set=paragon.width=$n --sizes=$m \
        --mce-summary > "$TMP/x$n" 2>&1
    expect_eq "${n}x$n all algorithms run" $? 0
    sed -n 's/^complete_exchange: /    /p' "$TMP/x$n"
    scott=$(col scott 1 1 $m 6 "$TMP/x$n")
    # "The Bounded contention algorithm is always better than Scott's"
    # (abstract); "the measured time should not drop below" the lower
    # bound, and "remains bounded by the time to execute the individual
    # communication steps" (the upper bound), section 7; both bounds
    # computed here (bound).  For Scott's schedule the two coincide and
    # the emulated barriers cost more than Table 1's fit (see paragon.sh
    # (d)), so only the lower bound holds.  The program's own bound
    # columns must be the paper's too.
    awk '$2 == "bounded" || $2 == "scott"' "$TMP/x$n" > "$TMP/rows"
    while read -r _ alg nc lc s t plo phi; do
        lo=$(bound lower $n $lc) hi=$(bound upper $n $lc)
        expect_eq "${n}x$n $alg ($nc, $lc): the program's bounds" "$plo $phi" "$lo $hi"
        [ "$alg" = bounded ] && { lt "$t" "$scott" &&
            pass "paper: ${n}x$n bounded ($nc, $lc) beats Scott ($t < $scott ms)" ||
            fail "${n}x$n bounded ($nc, $lc): $t ms, Scott $scott ms"; }
        check_or_known "paper: ${n}x$n $alg ($nc, $lc) not below the lower bound ($t >= $lo ms)" \
            "$t >= $lo"
        # Scott's bounds coincide (one step per barrier): only the lower.
        [ "$alg" = scott ] || { lt "$t" "$hi" &&
            pass "paper: ${n}x$n $alg ($nc, $lc) below the upper bound ($t < $hi ms)" ||
            fail "${n}x$n $alg ($nc, $lc): $t ms above the upper bound $hi ms"; }
    done < "$TMP/rows"
    naive=$(col naive $(($2 - 1)) - $m 6 "$TMP/x$n")
    best=$(awk '$2 == "bounded" { if (b == "" || $6 < b) b = $6 } END { print b }' "$TMP/x$n")
    gain=$(awk -v a="$naive" -v b="$best" 'BEGIN { printf "%.1f", 100 * (a - b) / a }')
    echo "    ${n}x$n: best bounded $best ms, naive $naive ms: $gain % better (paper: over 25 %)"
    # "improvements of greater than 25% are possible on 8 x 8 and 12 x 12
    # meshes for most message sizes" (section 7, Figure 11): the paper's
    # statement, at the size of its slices.
    awk -v g="$gain" 'BEGIN { exit !(g > 25) }' &&
        pass "paper: ${n}x$n bounded beats naive by over 25 % ($gain %)" ||
        fail "${n}x$n bounded beats naive by $gain %, not over 25 %"
    # Figure 13's link contention 1, 2 and 4 on 8 x 8 (node contention 1,
    # 1, 2); on 12 x 12 the same places in the schedule: 1, 3 and 6.
    [ $n = 8 ] && close_to_lower 8 "$TMP/x$n" 1 2 4
    [ $n = 12 ] && close_to_lower 12 "$TMP/x$n" 1 3 6
done
# "outperforms the naive algorithm for all but the smallest message sizes"
# (abstract).  The paper prints no crossover size: a 64-byte block stands
# for "the smallest", and a 1 KB one must already go to the bounded
# algorithm on 8 x 8 ("all but the smallest").
"$cx" $P --mce-nodes=64 --mce-set=paragon.width=8 --sizes=64,1024 > "$TMP/s" 2>&1
naive=$(col naive 63 - 64 6 "$TMP/s")
best=$(awk '$2 == "bounded" && $5 == 64 { if (b == "" || $6 < b) b = $6 } END { print b }' "$TMP/s")
lt "$naive" "$best" &&
    pass "paper: naive wins for the smallest messages (64 B: $naive < $best ms)" ||
    fail "64 B messages: naive $naive ms, best bounded $best ms"
naive=$(col naive 63 - 1024 6 "$TMP/s")
best=$(awk '$2 == "bounded" && $5 == 1024 { if (b == "" || $6 < b) b = $6 } END { print b }' "$TMP/s")
lt "$best" "$naive" &&
    pass "paper: bounded wins from small sizes on (1 KB: $best < $naive ms)" ||
    fail "1 KB messages: best bounded $best ms, naive $naive ms"

# --- 16 x 16 (Figures 10, 15) ----------------------------------------------
# "a careful choice of contention levels is necessary ... It is not enough
# to blindly remove all synchronization steps": an interior optimum.
"$cx" $P --mce-nodes=256 --alg=scott,bounded --groups=1,2,4,32,512 --sizes=$m > "$TMP/x16" 2>&1
expect_eq "16x16 bounded runs" $? 0
# link contention 1, 2 and 4 (node contention 1) "close to the lower bound"
close_to_lower 16 "$TMP/x16" 1 2 4
t2=$(col bounded 1 2 $m 6 "$TMP/x16")
t32=$(col bounded 8 32 $m 6 "$TMP/x16")
t512=$(col bounded 128 512 $m 6 "$TMP/x16")
echo "    16x16 bounded: (1, 2) $t2 ms, (8, 32) $t32 ms, (128, 512) $t512 ms"
lt "$t32" "$t2" && lt "$t32" "$t512" &&
    pass "paper: 16x16 interior optimum ((8, 32) below (1, 2) and (128, 512))" ||
    fail "16x16: no interior optimum ($t2, $t32, $t512 ms)"
# "the measured time almost touches (but does not cross) the upper bound
# at contention (128,512)" (section 7): the paper's qualitative statement;
# "almost touches" taken as within 10 % below the bound computed here.
hi=$(bound upper 16 512)
check_or_known "paper: 16x16 (128, 512) almost touches the upper bound: $t512 ms, $(awk -v t=$t512 -v h=$hi 'BEGIN { printf "%.3f", t / h }') x $hi (within 10 % below)" \
    "$t512 >= 0.9 * $hi && $t512 <= $hi"

# --- determinism --------------------------------------------------------------
run 2 "$cx" $P --mce-nodes=64 --mce-set=paragon.width=8 --sizes=$m \
    --mce-summary > "$TMP/b" 2>&1
expect_eq "8x8 on 2 ranks" "$(summary_sans_ranks "$TMP/b")" "$(summary_sans_ranks "$TMP/x8")"
finish
