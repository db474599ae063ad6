#!/bin/sh
# iWarp PCT connections (Warfel 1996, section 3.2.1; doc/design/iwarp-tcs.md
# section 3.4, step 1 of its plan): apps/iwarp/pct_pingpong against
# Figures 3.5-3.8 as printed (embedded below).
#   (predict) rows: floor(36 + bytes/1.998 + 5 d), computed here with awk,
#                   equal to the printed rows and to mce-predict iwarp-pct;
#   Figure 3.8 (eight-ping): avg, max and min exact (36 + bytes/2 + H(d));
#   Figure 3.7 (single-ping): avg exact (= Fig 3.8 + 1) and within the
#                   stated +-4 clocks; min exact but (4 B, 1 cell) within 4;
#                   max at most the printed max + 1;
#   Figure 3.6 (eight single-word exchanges): exact; Figure 3.5 within 4;
#   board effect: from x0 = 0 the increments are 6,4,6,4,6,4, from x0 = 1
#                   4,6,4,6,4,6 (2 x 2 boards, 4/6-clock hops);
#   errors: out of PCTs, out of gates (link sharing: iwarp_share.sh);
#   the summary digest is the same in one process and on 1, 2 and 4 ranks.
. "$top_srcdir/tests/lib.sh"

pp=$B/apps/iwarp/pct_pingpong
sizes="4 16 64 256 1024 4096 16384"

# Figure 3.7 (single-ping) and 3.8 (eight-ping): per size, the rows avg,
# predict, max, min for distances 1..7.
cat > "$TMP/fig37" <<'EOF'
4 avg 43 49 53 59 63 69 73
4 predict 43 48 53 58 63 68 73
4 max 43 60 64 68 72 80 84
4 min 42 48 52 56 60 68 72
16 avg 49 55 59 65 69 75 79
16 predict 49 54 59 64 69 74 79
16 max 60 64 68 76 80 88 88
16 min 48 52 56 64 68 72 76
64 avg 73 79 83 89 93 99 103
64 predict 73 78 83 88 93 98 103
64 max 84 88 92 100 104 108 116
64 min 72 76 80 88 92 96 100
256 avg 169 175 179 185 189 195 199
256 predict 169 174 179 184 189 194 199
256 max 180 188 188 196 196 204 208
256 min 168 172 176 184 188 192 196
1024 avg 553 559 563 569 573 579 583
1024 predict 553 558 563 568 573 578 583
1024 max 564 572 576 580 584 588 596
1024 min 552 556 560 568 572 576 580
4096 avg 2089 2095 2099 2105 2109 2115 2119
4096 predict 2091 2096 2101 2106 2111 2116 2121
4096 max 2100 2104 2112 2116 2120 2124 2132
4096 min 2088 2092 2096 2104 2108 2112 2116
16384 avg 8233 8239 8243 8249 8253 8259 8263
16384 predict 8241 8246 8251 8256 8261 8266 8271
16384 max 8240 8252 8252 8260 8264 8268 8272
16384 min 8232 8236 8240 8248 8252 8256 8260
EOF
cat > "$TMP/fig38" <<'EOF'
4 avg 42 48 52 58 62 68 72
4 predict 43 48 53 58 63 68 73
4 max 42 48 52 58 62 68 72
4 min 42 48 52 58 62 68 72
16 avg 48 54 58 64 68 74 78
16 predict 49 54 59 64 69 74 79
16 max 48 54 58 64 68 74 78
16 min 48 54 58 64 68 74 78
64 avg 72 78 82 88 92 98 102
64 predict 73 78 83 88 93 98 103
64 max 72 78 82 88 92 98 102
64 min 72 78 82 88 92 98 102
256 avg 168 174 178 184 188 194 198
256 predict 169 174 179 184 189 194 199
256 max 168 174 178 184 188 194 198
256 min 168 174 178 184 188 194 198
1024 avg 552 558 562 568 572 578 582
1024 predict 553 558 563 568 573 578 583
1024 max 552 558 562 568 572 578 582
1024 min 552 558 562 568 572 578 582
4096 avg 2088 2094 2098 2104 2108 2114 2118
4096 predict 2091 2096 2101 2106 2111 2116 2121
4096 max 2088 2094 2098 2104 2108 2114 2118
4096 min 2088 2094 2098 2104 2108 2114 2118
16384 avg 8232 8238 8242 8248 8252 8258 8262
16384 predict 8241 8246 8251 8256 8261 8266 8271
16384 max 8232 8238 8242 8248 8252 8258 8262
16384 min 8232 8238 8242 8248 8252 8258 8262
EOF
fig35="12 19 22 28 32 38 42"
fig36="10 16 20 26 30 36 40"

# printed FILE BYTES ROW DIST
printed() { awk -v b="$2" -v r="$3" -v d="$4" '$1 == b && $2 == r { print $(d + 2) }' "$1"; }
# got FILE MODE BYTES DIST KEY (one pct_pingpong line)
got() {
    grep "mode=$2 bytes=$3 dist=$4 " "$1" | tr ' ' '\n' | sed -n "s/^$5=//p"
}
predict_awk() { awk -v b="$1" -v d="$2" 'BEGIN { printf "%d\n", int((36 * 1998 + 1000 * b + 9990 * d) / 1998) }'; }

# ---- predictions: awk = printed rows (both figures) = mce-predict ----------
"$B/tools/mce-predict" iwarp-pct --table=1 > "$TMP/pred" 2>&1
expect_eq "mce-predict iwarp-pct --table status" $? 0
bad=0 n=0
for b in $sizes; do
    for d in 1 2 3 4 5 6 7; do
        want=$(predict_awk $b $d)
        n=$((n + 1))
        p37=$(printed "$TMP/fig37" $b predict $d)
        p38=$(printed "$TMP/fig38" $b predict $d)
        mp=$(grep "^bytes=$b dist=$d " "$TMP/pred" | tr ' ' '\n' | sed -n 's/^predicted_clocks=//p')
        one=$("$B/tools/mce-predict" iwarp-pct --bytes=$b --dist=$d | tr ' ' '\n' | sed -n 's/^predicted_clocks=//p')
        if [ "$want" != "$p37" ] || [ "$want" != "$p38" ] || [ "$want" != "$mp" ] || [ "$want" != "$one" ]; then
            bad=$((bad + 1))
            echo "  predict $b B $d cells: awk $want, Fig 3.7 $p37, Fig 3.8 $p38, mce-predict $mp / $one"
        fi
    done
done
expect_eq "predicted entries equal to awk, Figs 3.7/3.8 and mce-predict (of $n)" $bad 0

# ---- the emulator: every mode, sizes 4..16384, distances 1..7 -------------
"$pp" --mce-nodes=64 --runs=8 > "$TMP/pp" 2>&1
expect_eq "pct_pingpong status" $? 0
bad8=0 bad7a=0 bad7w=0 bad7min=0 bad7max=0 badp=0 exact7=0
for b in $sizes; do
    for d in 1 2 3 4 5 6 7; do
        for k in avg max min; do
            g=$(got "$TMP/pp" eight $b $d $k)
            w=$(printed "$TMP/fig38" $b $k $d)
            [ "$g" = "$w" ] || { bad8=$((bad8 + 1)); echo "  Fig 3.8 $k $b B $d cells: got '$g', printed $w"; }
        done
        g=$(got "$TMP/pp" single $b $d avg)
        w=$(printed "$TMP/fig37" $b avg $d)
        if [ "$g" = "$w" ]; then exact7=$((exact7 + 1)); else
            echo "  Fig 3.7 avg $b B $d cells: got '$g', printed $w"; fi
        awk -v g="$g" -v w="$w" 'BEGIN { d = g - w; exit !(g != "" && d <= 4 && d >= -4) }' ||
            bad7w=$((bad7w + 1))
        g=$(got "$TMP/pp" single $b $d min)
        w=$(printed "$TMP/fig37" $b min $d)
        if [ "$b $d" = "4 1" ]; then
            awk -v g="$g" -v w="$w" 'BEGIN { d = g - w; exit !(g != "" && d <= 4 && d >= -4) }' ||
                { bad7min=$((bad7min + 1)); echo "  Fig 3.7 min 4 B 1 cell: got '$g', printed $w"; }
        elif [ "$g" != "$w" ]; then
            bad7min=$((bad7min + 1)); echo "  Fig 3.7 min $b B $d cells: got '$g', printed $w"
        fi
        g=$(got "$TMP/pp" single $b $d max)
        w=$(printed "$TMP/fig37" $b max $d)
        [ -n "$g" ] && [ "$g" -le $((w + 1)) ] ||
            { bad7max=$((bad7max + 1)); echo "  Fig 3.7 max $b B $d cells: got '$g', printed $w"; }
        for mode in single eight; do
            g=$(got "$TMP/pp" $mode $b $d predicted)
            [ "$g" = "$(predict_awk $b $d)" ] || badp=$((badp + 1))
        done
    done
done
expect_eq "Fig 3.8 eight-ping avg/max/min entries off (of 147)" $bad8 0
expect_eq "Fig 3.7 single-ping averages within +-4 clocks, misses (of 49)" $bad7w 0
expect_eq "Fig 3.7 single-ping averages exact (of 49)" $exact7 49
expect_eq "Fig 3.7 single-ping minima off (of 49; 4 B 1 cell within 4)" $bad7min 0
expect_eq "Fig 3.7 single-ping maxima above printed + 1 (of 49)" $bad7max 0
expect_eq "pct_pingpong predicted column off (of 98)" $badp 0

# ---- single words: Figures 3.5 and 3.6; the board effect -------------------
d=0
for w in $fig36; do
    d=$((d + 1))
    expect_eq "Fig 3.6 word eight-ping $d cells" "$(got "$TMP/pp" word-eight 4 $d avg)" $w
    expect_eq "Fig 3.6 word eight-ping $d cells max/min" \
        "$(got "$TMP/pp" word-eight 4 $d max)/$(got "$TMP/pp" word-eight 4 $d min)" "$w/$w"
done
d=0
for w in $fig35; do
    d=$((d + 1))
    g=$(got "$TMP/pp" word-single 4 $d avg)
    if awk -v g="$g" -v w="$w" 'BEGIN { d = g - w; exit !(g != "" && d <= 4 && d >= -4) }'; then
        pass "Fig 3.5 word single-ping $d cells: $g within 4 of $w"
    else
        fail "Fig 3.5 word single-ping $d cells: got '$g', printed $w (max error 4)"
    fi
done
incr() { # FILE: successive differences of word-eight avg over d = 1..7
    prev=""
    out=""
    for d in 1 2 3 4 5 6 7; do
        v=$(got "$1" word-eight 4 $d avg)
        [ -n "$prev" ] && out="$out${out:+,}$((v - prev))"
        prev=$v
    done
    echo "$out"
}
expect_eq "board effect from x0=0 (Fig 3.5/3.6 increments)" "$(incr "$TMP/pp")" "6,4,6,4,6,4"
"$pp" --mce-nodes=64 --runs=8 --mode=word-eight --x0=1 > "$TMP/pp1" 2>&1
expect_eq "pct_pingpong --x0=1 status" $? 0
expect_eq "board effect from x0=1 (flipped)" "$(incr "$TMP/pp1")" "4,6,4,6,4,6"

# ---- errors ------------------------------------------------------------------
err=$B/tests/progs/iw_errors
"$err" --mce-nodes=64 --pcts > "$TMP/e" 2>&1
expect_grep "out of PCTs named" "cell (0,0): iwarp_pct_alloc: out of PCTs: all 20 PCTs of this cell are in use" "$TMP/e"
expect_grep "20 PCTs, then IW_EPCT" "allocated 20 PCTs, then -1" "$TMP/e"
"$err" --mce-nodes=64 --gates > "$TMP/e" 2>&1
expect_grep "out of gates named" "cell (0,0): iwarp_gate_bind: out of gates: both write gates are bound (W0 to PCT 0, W1 to PCT 1)" "$TMP/e"
expect_grep "third write gate IW_EGATE" "third bind -2" "$TMP/e"
expect_grep "read gate on a source PCT" "a read gate cannot read it" "$TMP/e"
"$pp" --mce-nodes=16 > "$TMP/e" 2>&1
[ $? -ne 0 ] && pass "16 nodes refused" || fail "16 nodes accepted"
expect_grep "node count named" "8 x 8 torus of cells: run it with --mce-nodes=64" "$TMP/e"
# Without --mce-nodes the machine file's node count (iwarp.width x
# iwarp.height) is the default.
"$pp" --mode=word-eight --dist=1 --runs=1 --mce-summary > "$TMP/e" 2>&1 ||
    fail "run without --mce-nodes: status $?"
expect_grep "default node count is the array's" "machine=iwarp nodes=64 " "$TMP/e"

# Payload, coalescing, the pending block sent at the writer's end, a block
# waiting for its chain: (2,0) configures at clock 500 + pct_config 4, the
# chain is complete at 504 + max(lookahead 2, pct_config 4) = 508, the
# first word enters the link then and is readable 508 + word_time 2 + H 10
# + gate_out 1 = 521, the eighth at 535; read 536, + block_recv 16 = 552.
for np in 0 2; do
    run $np "$err" --mce-nodes=64 --data --mce-placement=cyclic > "$TMP/e" 2>&1
    expect_grep "words, coalescing and a late chain ($np ranks)" "read 11 22 33 44 55 66 77 88 at 552" "$TMP/e"
done

# ---- determinism: 1, 2 and 4 ranks, block and cyclic ---------------------------
args="--mce-nodes=64 --runs=8 --sizes=4,1024 --dist=1,4,7 --mce-summary"
run 0 "$pp" $args > "$TMP/ref" 2>&1
ref=$(summary_sans_ranks "$TMP/ref")
[ -n "$ref" ] || fail "pct_pingpong: no summary line"
for np in 1 2 4; do
    for place in block cyclic; do
        run $np "$pp" $args --mce-placement=$place > "$TMP/o" 2>&1
        expect_eq "pct_pingpong digest on $np ranks ($place)" "$(summary_sans_ranks "$TMP/o")" "$ref"
        expect_eq "pct_pingpong output on $np ranks ($place)" \
            "$(grep '^pct_pingpong:' "$TMP/o" | sort | cksum)" "$(grep '^pct_pingpong:' "$TMP/ref" | sort | cksum)"
    done
done
# --format=csv|json (apps/opts.c): the same numbers as the table.
expect_formats "pct_pingpong" "pct_pingpong: " pct_pingpong \
    "$pp" --mce-nodes=64 --runs=2 --sizes=4,64 --dist=1,3 --mode=all
finish
