#!/bin/sh
# TCS control primitives (Warfel 1996, chapter 5; doc/design/iwarp-tcs.md,
# sections 8.4 and 10.4): apps/tcs/tcs_primitives run by the TCS run time,
# against numbers computed here with awk from the chapter-5 formulas and
# the constants W measured (switch 162, barrier lookup 12, task change 130,
# parent restoration 70; W 5.2.2, 5.3.2, 5.4.2) and Figure 4.19's PCT
# barrier (40 + (N-1) 11.5).
#   barrier (1D rings, 2..64 cells): exactly 40 + 7 (N-1) + Lambda - min
#        lat over the linker's snake (design 6.3) and within 40 clocks of
#        Figure 4.19; 2D whole array exactly 40 + 2 (7 x 7 + Lambda_row -
#        min lat) over the torus rows and columns + the re-pointing of the
#        shared out PCT between them (pct_config + the configuration's
#        delay to the first column word; design 6.4: 210 + 4 + 1), and
#        within 4 of W 6.3.1's 448: a known failure (no mechanism in the
#        thesis gives 448; design 6.4);
#   reconfiguration (Figure 5.1): within 5 % of the model 162 + 3 (12 +
#        barrier) with Figure 4.19's barrier (W 5.2.2 "diverge ... by
#        roughly 5%"), and exactly 162 + 3 (12 + the closed-form barrier);
#        2D (Figure 5.2): within 5 % of the model with the emulated 2D
#        barrier, and within 5 % of the model with W's 448: a known
#        failure (the barrier's gap, three times);
#   task start (Figure 5.3): within 30 clocks (1.5 us) of 130 + the
#        measured reconfiguration of the same size (W 5.3.3);
#   task end (Figure 5.4): exactly the closed-form barrier + 70; within
#        1 us + 8 = 28 clocks of Figure 4.19's barrier + 70 up to 32 cells
#        and of W 6.4.1's measured Barrier_time + 70 for 4 .. 64 cells;
#   the app's predicted columns and mce-predict tcs-reconfig / tcs-start /
#        tcs-end = the awk formulas;
#   the summary digest and the output are the same on 1, 2 and 4 ranks
#        (block and cyclic placement).
. "$top_srcdir/tests/lib.sh"

tp=$B/apps/tcs/tcs_primitives
mp=$B/tools/mce-predict
N="--mce-nodes=64"

# field of a line: get FILE RINGS CELLS KEY (the first KEY= of the line)
get() {
    awk -v a="rings=$2" -v c="cells=$3" -v k="$4" '$2 == a && $3 == c {
        for (i = 4; i <= NF; i++) if (index($i, k "=") == 1) {
            print substr($i, length(k) + 2); exit } }' "$1"
}
# the n-th KEY= of a line (predicted columns repeat their key)
getn() {
    awk -v a="rings=$2" -v c="cells=$3" -v k="$4" -v n="$5" '$2 == a && $3 == c {
        m = 0; for (i = 4; i <= NF; i++) if (index($i, k "=") == 1 && ++m == n) {
            print substr($i, length(k) + 2); exit } }' "$1"
}
# Figure 4.19's PCT barrier, one decimal: fig N [2d]
fig() {
    awk -v n=$1 -v r="${2:-}" 'BEGIN { k = r == "2d" ? 14 : n - 1; printf "%.1f\n", 40 + k * 11.5 }'
}
# |a - b| <= d
within() {
    awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN { x = a - b; exit !(x <= d && -x <= d) }'
}

"$tp" $N > "$TMP/out" 2>&1 || fail "tcs_primitives: status $?"
sed 's/^/    /' "$TMP/out"
expect_eq "measured lines" "$(grep -c '^tcs_primitives: rings=' "$TMP/out")" 7

# ---- 1D rings, 2 .. 64 cells ---------------------------------------------------
for wh in "2 1" "2 2" "4 2" "4 4" "8 4" "8 8"; do
    set -- $wh
    n=$(($1 * $2))
    # the linker's ring (design 6.3 snake; one row: there and back) on
    # 2 x 2 boards: 4 clocks inside a board, 6 between boards
    want=$(awk -v W=$1 -v H=$2 'function lat(x1, y1, x2, y2) {
            return (int(x1 / 2) == int(x2 / 2) && int(y1 / 2) == int(y2 / 2)) ? 4 : 6 }
        BEGIN {
            n = 0
            for (x = 0; x < W; x++) { X[n] = x; Y[n] = 0; n++ }
            for (y = 1; y < H; y++) for (i = 1; i < W; i++) { X[n] = (y % 2) ? W - i : i; Y[n] = y; n++ }
            for (y = H - 1; y >= 1; y--) { X[n] = 0; Y[n] = y; n++ }
            L = 0; m = 99
            for (k = 0; k < n; k++) {
                j = (k + 1) % n; l = lat(X[k], Y[k], X[j], Y[j]); L += l; if (l < m) m = l }
            print 40 + 7 * (n - 1) + L - m }')
    f=$(fig $n)
    b=$(get "$TMP/out" 1d $n barrier)
    expect_eq "barrier $n cells = 40 + 7(N-1) + Lambda - min lat" "$b" "$want"
    if within "$b" "$f" 40; then pass "barrier $n cells: $b within 40 of Figure 4.19 ($f)"; else
        fail "barrier $n cells: $b not within 40 of Figure 4.19 ($f)"; fi
    expect_eq "predicted barrier $n (Figure 4.19)" "$(getn "$TMP/out" 1d $n predicted 1)" "$f"

    model=$(awk -v f=$f 'BEGIN { printf "%.1f\n", 162 + 3 * (12 + f) }')
    r=$(get "$TMP/out" 1d $n reconfig)
    if awk -v r=$r -v m=$model 'BEGIN { d = (r - m) / m; exit !(d <= 0.05 && d >= -0.05) }'; then
        pass "reconfiguration $n cells: $r within 5 % of the model $model"
    else
        fail "reconfiguration $n cells: $r not within 5 % of the model $model"
    fi
    expect_eq "reconfiguration $n cells = 162 + 3 (12 + closed-form barrier)" "$r" $((162 + 3 * (12 + want)))
    expect_eq "predicted reconfiguration $n" "$(getn "$TMP/out" 1d $n predicted 2)" "$model"
    expect_eq "predicted_emu reconfiguration $n" "$(getn "$TMP/out" 1d $n predicted_emu 1)" \
        "$(awk -v b=$b 'BEGIN { printf "%.1f\n", 162 + 3 * (12 + b) }')"

    s=$(get "$TMP/out" 1d $n start)
    if within "$s" $((130 + r)) 30; then pass "task start $n cells: $s within 30 of 130 + $r"; else
        fail "task start $n cells: $s not within 30 of 130 + $r"; fi
    expect_eq "predicted task start $n" "$(getn "$TMP/out" 1d $n predicted 3)" \
        "$(awk -v m=$model 'BEGIN { printf "%.1f\n", 130 + m }')"
    expect_eq "predicted_emu task start $n" "$(getn "$TMP/out" 1d $n predicted_emu 2)" "$((130 + r)).0"

    e=$(get "$TMP/out" 1d $n end)
    pe=$(awk -v f=$f 'BEGIN { printf "%.1f\n", f + 70 }')
    expect_eq "task end $n cells = closed-form barrier + 70" "$e" $((want + 70))
    # within 1 us + 8 of Figure 4.19's barrier + 70 up to 32 cells; at 64
    # the ring itself is 28.5 above Figure 4.19 (W measured 780, 15.5
    # above), so every size is also checked against W 6.4.1's measured
    # Barrier_time (77, 127, 219, 404, 780 for 4 .. 64 cells) + 70
    if [ $n -le 32 ]; then
        if within "$e" "$pe" 28; then pass "task end $n cells: $e within 28 of $pe"; else
            fail "task end $n cells: $e not within 28 of $pe"; fi
    fi
    wm=$(echo "4 77 8 127 16 219 32 404 64 780" | awk -v n=$n '{ for (i = 1; i < NF; i += 2) if ($i == n) print $(i + 1) }')
    if [ -n "$wm" ]; then
        if within "$e" $((wm + 70)) 28; then pass "task end $n cells: $e within 28 of W's barrier $wm + 70"; else
            fail "task end $n cells: $e not within 28 of W's barrier $wm + 70"; fi
    fi
    expect_eq "predicted task end $n" "$(getn "$TMP/out" 1d $n predicted 4)" "$pe"
    expect_eq "predicted_emu task end $n" "$(getn "$TMP/out" 1d $n predicted_emu 3)" "$((b + 70)).0"

    # mce-predict
    expect_eq "mce-predict tcs-reconfig --n=$n" \
        "$("$mp" tcs-reconfig --n=$n | tr ' ' '\n' | sed -n 's/^predicted_clocks=//p')" "$model"
    expect_eq "mce-predict tcs-start --n=$n" \
        "$("$mp" tcs-start --n=$n | tr ' ' '\n' | sed -n 's/^predicted_clocks=//p')" \
        "$(awk -v m=$model 'BEGIN { printf "%.1f\n", 130 + m }')"
    expect_eq "mce-predict tcs-start --n=$n --reconfig=$r" \
        "$("$mp" tcs-start --n=$n --reconfig=$r | tr ' ' '\n' | sed -n 's/^predicted_clocks=//p')" "$((130 + r)).0"
    expect_eq "mce-predict tcs-end --n=$n" \
        "$("$mp" tcs-end --n=$n | tr ' ' '\n' | sed -n 's/^predicted_clocks=//p')" "$pe"
    expect_eq "mce-predict tcs-end --n=$n --barrier=$b" \
        "$("$mp" tcs-end --n=$n --barrier=$b | tr ' ' '\n' | sed -n 's/^predicted_clocks=//p')" "$((b + 70)).0"
done
# design 8.4, as printed: the model's reconfiguration at 4 / 16 / 64 cells
for nv in "4 421.5" "16 835.5" "64 2491.5"; do
    set -- $nv
    expect_eq "model reconfiguration at $1 cells (design 8.4)" \
        "$(awk -v f=$(fig $1) 'BEGIN { printf "%.1f\n", 162 + 3 * (12 + f) }')" "$2"
done

# ---- 2D rings, the whole array (Figure 5.2) --------------------------------------
# Rows and columns of the 8 x 8 torus, each a ring of one-hop connections
# closed by the wrap link (4 inside a 2 x 2 board, 6 between boards and on
# the wrap: iwarp.hop_board, hop_cross, hop_wrap); a stage 7 + lat.  The
# one out PCT is re-pointed from the row to the column between them (W
# 4.5.3.3 "a single additional PCT"; the derivation: iwarp_barrier.sh and
# design 6.4): no drain wait without a straggler, pct_config on the CPU,
# and the first column word waits max(0, max(gate_op + gate_in,
# pct_config) - (barrier_loop + gate_op + gate_in)) for the configuration
# to take effect.
conf=$top_srcdir/share/machines/iwarp.conf
key() { sed -n "s/^$1 *= *\([0-9]*\).*/\1/p" "$conf"; }
b2=$(awk -v hb=$(key iwarp.hop_board) -v hc=$(key iwarp.hop_cross) -v hw=$(key iwarp.hop_wrap) \
    -v pc=$(key iwarp.pct_config) -v go=$(key iwarp.gate_op) -v gi=$(key iwarp.gate_in) \
    -v lp=$(key tcs.barrier_loop) 'BEGIN {
    L = 0; m = 99
    for (x = 0; x < 8; x++) {
        l = x == 7 ? hw : (int(x / 2) == int((x + 1) / 2) ? hb : hc); L += l; if (l < m) m = l }
    eff = go + gi > pc ? go + gi : pc; d = eff - (lp + go + gi); if (d < 0) d = 0
    print 40 + 2 * (7 * 7 + L - m) + pc + d }')
b=$(get "$TMP/out" 2d 64 barrier)
expect_eq "2D barrier 64 cells = 40 + 2 (7 x 7 + Lambda_row - min lat) + re-pointing (design 6.4)" "$b" "$b2"
# W 6.3.1 "runs in 448 clocks": no mechanism in the thesis gives it
check_or_known "2D barrier 64 cells: $b within 4 of 448 (W 6.3.1)" "$b - 448 <= 4 && 448 - $b <= 4"
r=$(get "$TMP/out" 2d 64 reconfig)
m=$((162 + 3 * (12 + b)))
if awk -v r=$r -v m=$m 'BEGIN { d = (r - m) / m; exit !(d <= 0.05 && d >= -0.05) }'; then
    pass "2D reconfiguration: $r within 5 % of 162 + 3 (12 + the 2D barrier $b) = $m (W 5.2.1)"
else
    fail "2D reconfiguration: $r not within 5 % of $m"
fi
# Figure 5.2 is withheld; W's model with his measured 448 stands in for it
m448=$((162 + 3 * (12 + 448)))
check_or_known "2D reconfiguration: $r within 5 % of 162 + 3 (12 + 448) = $m448 (W 5.2.1 with W 6.3.1's barrier)" \
    "($r - $m448) / $m448 <= 0.05 && ($m448 - $r) / $m448 <= 0.05"
note "2D at 64 cells: barrier $b / 448 = $(awk -v a=$b 'BEGIN { printf "%.3f", a / 448 }'), reconfiguration $r / $m448 = $(awk -v a=$r -v m=$m448 'BEGIN { printf "%.3f", a / m }')"
expect_eq "predicted 2D barrier (Figure 4.19 2D row)" "$(getn "$TMP/out" 2d 64 predicted 1)" "$(fig 64 2d)"
expect_eq "mce-predict tcs-reconfig --n=64 --ring=2d" \
    "$("$mp" tcs-reconfig --n=64 --ring=2d | tr ' ' '\n' | sed -n 's/^predicted_clocks=//p')" \
    "$(awk -v f=$(fig 64 2d) 'BEGIN { printf "%.1f\n", 162 + 3 * (12 + f) }')"

# ---- determinism: 1, 2 and 4 ranks ------------------------------------------------
args="$N --mce-summary --cells=4,16"
run 0 "$tp" $args > "$TMP/ref" 2>&1
ref=$(summary_sans_ranks "$TMP/ref")
[ -n "$ref" ] || fail "no summary line"
for np in 1 2 4; do
    for place in block cyclic; do
        run $np "$tp" $args --mce-placement=$place > "$TMP/o" 2>&1
        expect_eq "digest on $np ranks ($place)" "$(summary_sans_ranks "$TMP/o")" "$ref"
        expect_eq "output on $np ranks ($place)" \
            "$(grep '^tcs_primitives:' "$TMP/o" | cksum)" "$(grep '^tcs_primitives:' "$TMP/ref" | cksum)"
    done
done
# --format=csv|json (apps/opts.c): the same numbers as the table (by
# position: the line repeats "predicted").
FMT_BY_POSITION=1
expect_formats "tcs_primitives 1d" "tcs_primitives: rings=1d" \
    tcs_primitives "$tp" $N --cells=4,16
expect_formats "tcs_primitives 2d" "tcs_primitives: rings=2d" \
    tcs_primitives_2d "$tp" $N --cells=4
FMT_BY_POSITION=0
finish
