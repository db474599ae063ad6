#!/bin/sh
# Chapter 6 communication patterns, deposit implementation (Warfel 1996,
# sections 6.2.1, 6.3.1, 6.4.1; doc/design/iwarp-tcs.md 8.5, 8.9, 10.4)
# and the chapter 5-7 models of mce-predict (design 8.4, 8.6, 10.5),
# against numbers computed here with awk from the formulas of the thesis:
#   mce-predict tcs-sg / tcs-rb / tcs-a2a (dep and tcs), tcs-reconfig,
#        tcs-start, tcs-end, motion = awk of the formulas (floors), and the
#        sums the thesis prints (motion 8833 / 10113);
#   apps/tcs/tcs_patterns --impl=dep: its predicted column = awk = mce-
#        predict for every line; every line data=ok;
#   acceptance (design 10.4): sg within 12 % (design 8.9: the gather's
#        receive overlap); rb natural mapping at 64 cells and 1 KB at least
#        1.3 x its prediction and below 2 (W 6.3.1 "off by almost a factor
#        of 2"), remapped within 10 % everywhere (a known failure: W's
#        model charges his measured 2D barrier, 448, where the emulator's
#        takes 215, design 6.4), and within 10 % of the model with the 2D
#        barrier iwarp_barrier measures; a2a at 64 cells and 16-32
#        KB at least 1.3 x (and W 6.4.1's "more than a factor of three");
#        a2a at 4 cells and 16-64 B within a factor of 2;
#   the a2a schedule depends on --mce-seed; --impl=tcs is refused (it is
#   tcs_patterns_tcs: tests/fidelity/tcs_patterns_tcs.sh);
#   the summary digest is the same in one process and on 1, 2 and 4 ranks.
. "$top_srcdir/tests/lib.sh"

tp=$B/apps/tcs/tcs_patterns
mp=$B/tools/mce-predict
N="--mce-nodes=64"
SIZES="16 64 256 1024 4096 16384 32768"

# ---- the formulas (W chapter 6), floored: kind impl cells bytes ------------
# dep barrier: W 6.4.1's PCT 1D ring values; rb: W 6.3.1's 448.
formula() {
    awk -v k=$1 -v i=$2 -v n=$3 -v s=$4 -v ph=${5:-2} 'BEGIN {
        bw = 1.998; lg = int(log(n) / log(2) + 0.5)
        B[4] = 77; B[8] = 127; B[16] = 219; B[32] = 404; B[64] = 780
        L[4] = 38; L[16] = 59; L[64] = 66
        Rs[4] = 444; Rs[16] = 872; Rs[64] = 2551
        Rr[4] = 441; Rr[16] = 869; Rr[64] = 2550
        # integers over 1998 (s / bw = 1000 s / 1998), floored exactly
        if (k == "sg" && i == "dep")
            v = (100 + B[n]) * 1998 + (n - 1) * ((359 + 20 + 230 + 20) * 1998 + 2000 * s)
        if (k == "rb" && i == "dep")
            v = (100 + 448) * 1998 + 2 * lg * ((40 + 359 + 20) * 1998 + 1000 * s)
        if (k == "a2a" && i == "dep")
            v = (100 + B[n]) * 1998 + (n - 1) * ((40 + 359 + 20 + 230 + 20) * 1998 + 2000 * s)
        if (k == "sg" && i == "tcs")
            v = (398 + Rs[n] * ph) * 1998 + (n - 1) * 2 * (L[n] * 1998 + 1000 * s)
        if (k == "rb" && i == "tcs")
            v = (302 + Rr[n] * ph) * 1998 + lg * (40 * 1998 + 2 * (L[n] * 1998 + 1000 * s))
        printf "%d\n", int(v / 1998) }'
}

# mce-predict FIELD of a command line
mpget() { f=$1; shift; "$mp" "$@" 2>&1 | tr ' ' '\n' | sed -n "s/^$f=//p"; }

# ---- mce-predict against awk ---------------------------------------------------
bad=0; cnt=0
for n in 4 8 16 32 64; do
    case $n in 4) a=2x2;; 8) a=4x2;; 16) a=4x4;; 32) a=8x4;; 64) a=8x8;; esac
    for s in $SIZES; do
        for k in sg rb a2a; do
            got=$(mpget predicted_clocks tcs-$k --impl=dep --array=$a --bytes=$s)
            want=$(formula $k dep $n $s)
            cnt=$((cnt + 1))
            [ "$got" = "$want" ] || { bad=$((bad + 1)); echo "  tcs-$k dep $a $s: $got want $want"; }
        done
        case $n in 4|16|64)
            for k in sg rb; do
                got=$(mpget predicted_clocks tcs-$k --impl=tcs --array=$a --bytes=$s)
                want=$(formula $k tcs $n $s)
                cnt=$((cnt + 1))
                [ "$got" = "$want" ] || { bad=$((bad + 1)); echo "  tcs-$k tcs $a $s: $got want $want"; }
            done;;
        esac
    done
done
expect_eq "mce-predict tcs-sg/rb/a2a = awk of W 6.2-6.4 ($cnt values, mismatches)" $bad 0
# the other orientations (W 6.4.1's 2x4 and 4x8, and 2x8, 8x2): W's
# constants go by the cell count, whichever side is the row
bad=0; cnt=0
for a in 2x4 4x8 2x8 8x2; do
    n=$((${a%x*} * ${a#*x}))
    for k in sg rb a2a; do
        got=$(mpget predicted_clocks tcs-$k --impl=dep --array=$a --bytes=1024)
        cnt=$((cnt + 1))
        [ "$got" = "$(formula $k dep $n 1024)" ] || { bad=$((bad + 1)); echo "  tcs-$k dep $a: $got"; }
    done
    if [ $n = 16 ]; then
        for k in sg rb; do
            got=$(mpget predicted_clocks tcs-$k --impl=tcs --array=$a --bytes=1024)
            cnt=$((cnt + 1))
            [ "$got" = "$(formula $k tcs $n 1024)" ] || { bad=$((bad + 1)); echo "  tcs-$k tcs $a: $got"; }
        done
    fi
done
expect_eq "mce-predict for 2x4, 4x8, 2x8, 8x2 = awk of W 6.2-6.4 for their cell count ($cnt values, mismatches)" $bad 0
expect_eq "tcs-sg tcs --phases=5 = awk" \
    "$(mpget predicted_clocks tcs-sg --impl=tcs --array=4x4 --bytes=1024 --phases=5)" \
    "$(formula sg tcs 16 1024 5)"
"$mp" tcs-sg --impl=tcs --array=4x2 --bytes=16 > "$TMP/e" 2>&1
expect_eq "tcs-sg tcs for 8 cells (no W latency) status" $? 2
expect_grep "tcs-sg tcs for 8 cells names --latency" "give --latency" "$TMP/e"
# TCS all-to-all (W 6.4.2): 10 + sum (lat + s / (bw share) + 432 + 162 + 459)
want=$(awk 'BEGIN { v = 10 * 1998 * 3; for (p = 0; p < 63; p++)
    v += (40 + 432 + 162 + 459) * 1998 * 3 + 32768 * 1000 * 3 * 3
    printf "%d\n", int(v / (1998 * 3)) }')
expect_eq "tcs-a2a tcs 63 phases at 1/3 (W: 3.2 M)" \
    "$(mpget predicted_clocks tcs-a2a --impl=tcs --array=8x8 --bytes=32768 --phases=63 --latency=40 --share=1/3)" "$want"
printf '40 1/3\n# a comment\n25\n' > "$TMP/phases"
want=$(awk 'BEGIN { v = 10 * 5994 + (40 + 1053) * 5994 + 1000 * 9 * 1024 + (25 + 1053) * 5994 + 1000 * 1024 * 3
    printf "%d\n", int(v / 5994) }')
expect_eq "tcs-a2a tcs phase file" \
    "$(mpget predicted_clocks tcs-a2a --impl=tcs --array=2x2 --bytes=1024 --phases="$TMP/phases")" "$want"

# --constants overrides (one changed constant moves the awk value)
expect_eq "tcs-sg dep with --constants mp_send=300" \
    "$(mpget predicted_clocks tcs-sg --impl=dep --array=2x2 --bytes=16 --constants mp_send=300)" \
    "$(awk 'BEGIN { printf "%d\n", int(((100 + 77) * 1998 + 3 * ((300 + 20 + 230 + 20) * 1998 + 2000 * 16)) / 1998) }')"
"$mp" --help > "$TMP/help" 2>&1
for c in tcs-sg tcs-rb tcs-a2a tcs-reconfig tcs-start tcs-end motion; do
    expect_grep "--help lists $c" "  $c " "$TMP/help"
done

# chapter 5 (W 5.2.1, 5.3.1, 5.4.1) with Figure 4.19's 40 + (N-1) 11.5;
# the design's 421.5 / 835.5 / 2491.5 (8.4)
for n in 4 16 64; do
    b=$(awk -v n=$n 'BEGIN { printf "%.1f", 40 + (n - 1) * 11.5 }')
    r=$(awk -v b=$b 'BEGIN { printf "%.1f", 162 + 3 * (12 + b) }')
    expect_eq "tcs-reconfig n=$n" "$(mpget reconfig_clocks tcs-reconfig --n=$n)" $r
    expect_eq "tcs-start n=$n" "$(mpget start_clocks tcs-start --n=$n)" \
        $(awk -v r=$r 'BEGIN { printf "%.1f", 130 + r }')
    expect_eq "tcs-end n=$n" "$(mpget end_clocks tcs-end --n=$n)" \
        $(awk -v b=$b 'BEGIN { printf "%.1f", b + 70 }')
done
expect_eq "reconfiguration 4/16/64 (design 8.4)" \
    "$(for n in 4 16 64; do mpget reconfig_clocks tcs-reconfig --n=$n; done | tr '\n' ' ')" \
    "421.5 835.5 2491.5 "
expect_eq "tcs-reconfig with a measured barrier" "$(mpget reconfig_clocks tcs-reconfig --n=16 --barrier=217)" \
    $(awk 'BEGIN { printf "%.1f", 162 + 3 * (12 + 217) }')
# chapter 7 (W 7.3.1): the thesis's sums 8 833 and 10 113 for b = 1
expect_eq "motion b=1 p=28 (W 7.3.1: 8833)" "$(mpget latency_clocks motion --block=1 --p=28)" 8833
expect_eq "motion b=1 p=33 (W 7.3.1: 10113)" "$(mpget latency_clocks motion --block=1 --p=33)" 10113
for b in 4 24; do
    for ld in 1280 1024; do
        lat=$(awk -v b=$b -v l=$ld 'BEGIN { print 60 + l + (b - 1) * 1336 + 60 + 20 + b * 256 * 28 + 20 + 225 }')
        expect_eq "motion b=$b loading=$ld" "$(mpget latency_clocks motion --block=$b --p=28 --loading=$ld)" $lat
        expect_eq "motion b=$b loading=$ld completion of 3 frames" \
            "$(mpget completion_clocks motion --block=$b --p=28 --loading=$ld --frames=3)" \
            $(awk -v b=$b -v lat=$lat 'BEGIN { print 2 * (240 * 1336 + 12000) + (240 - b) * 1336 + lat + 128 * b }')
    done
done

# ---- the deposit patterns -------------------------------------------------------
A="--array=2x2,4x2,4x4,8x4,8x8"
S="--sizes=$(echo $SIZES | tr ' ' ',')"
: > "$TMP/all"
for p in "sg" "rb" "rb --remap" "a2a"; do
    run 0 "$tp" $N --pattern=$p --impl=dep $A "$S" > "$TMP/o" 2>&1
    expect_eq "tcs_patterns --pattern=$p status" $? 0
    cat "$TMP/o" >> "$TMP/all"
done
grep '^tcs_patterns:' "$TMP/all" | sed 's/^tcs_patterns: //' > "$TMP/lines"
expect_eq "lines (4 runs x 5 arrays x 7 sizes)" "$(wc -l < "$TMP/lines" | tr -d ' ')" 140
expect_eq "lines without data=ok" "$(grep -vc ' data=ok$' "$TMP/lines")" 0

# every predicted column = awk = mce-predict
bad=0
while read -r line; do
    eval "$(echo "$line" | tr ' ' '\n' | grep -E '^(pattern|cells|bytes|predicted|array)=' | sed 's/^/f_/')"
    want=$(formula $f_pattern dep $f_cells $f_bytes)
    mpv=$(mpget predicted_clocks tcs-$f_pattern --impl=dep --array=$f_array --bytes=$f_bytes)
    if [ "$f_predicted" != "$want" ] || [ "$mpv" != "$want" ]; then
        bad=$((bad + 1)); echo "  $line: awk $want, mce-predict $mpv"
    fi
done < "$TMP/lines"
expect_eq "predicted column = awk = mce-predict (140 lines, mismatches)" $bad 0

# ratio emulated / predicted from the two printed integers
ratio() { # pattern-regexp cells bytes
    grep -E "^pattern=$1 .*cells=$2 bytes=$3 " "$TMP/lines" |
        tr ' ' '\n' | awk -F= '$1 == "emulated" { e = $2 } $1 == "predicted" { p = $2 }
            END { printf "%.4f\n", e / p }'
}
within() { awk -v r=$1 -v lo=$2 -v hi=$3 'BEGIN { exit !(r >= lo && r <= hi) }'; }

worst=$(grep '^pattern=sg ' "$TMP/lines" | tr ' ' '\n' | awk -F= '
    $1 == "emulated" { e = $2 } $1 == "predicted" { r = e / $2; d = r > 1 ? r - 1 : 1 - r; if (d > m) m = d }
    END { printf "%.4f\n", m }')
if within $worst 0 0.12; then pass "deposit sg within 12 % everywhere (worst $worst)"; else
    fail "deposit sg: worst deviation $worst above 12 %"; fi
worst=$(grep '^pattern=rb impl=dep mapping=remap ' "$TMP/lines" | tr ' ' '\n' | awk -F= '
    $1 == "emulated" { e = $2 } $1 == "predicted" { r = e / $2; d = r > 1 ? r - 1 : 1 - r; if (d > m) m = d }
    END { printf "%.4f\n", m }')
check_or_known "deposit rb remapped within 10 % of W 6.3.1's model everywhere (worst $worst)" "$worst <= 0.10"
# the same model with Barrier_time = the 2D barrier apps/iwarp/iwarp_barrier
# measures on this machine instead of W's 448 (design 6.4)
b2d=$(run 0 "$B/apps/iwarp/iwarp_barrier" $N --scheme=ring2d --signal=pct --cells=64 2>&1 |
    sed -n 's/.* straggler=0 time=\([0-9]*\) .*/\1/p')
[ -n "$b2d" ] || fail "iwarp_barrier ring2d: no time"
worst=$(grep '^pattern=rb impl=dep mapping=remap ' "$TMP/lines" | tr ' ' '\n' | awk -F= -v b=$b2d '
    $1 == "emulated" { e = $2 } $1 == "predicted" { r = e / ($2 - 448 + b); d = r > 1 ? r - 1 : 1 - r; if (d > m) m = d }
    END { printf "%.4f\n", m }')
if within $worst 0 0.10; then pass "deposit rb remapped within 10 % of W 6.3.1's model with the 2D barrier $b2d (worst $worst)"; else
    fail "deposit rb remapped: worst deviation $worst from the model with the 2D barrier $b2d above 10 %"; fi
r=$(ratio "rb impl=dep mapping=natural" 64 1024)
if within $r 1.3 2.0; then pass "deposit rb natural 64 cells 1 KB: $r x predicted (>= 1.3, W: almost 2)"; else
    fail "deposit rb natural 64 cells 1 KB: $r x predicted, want 1.3 .. 2"; fi
r2=$(ratio "rb impl=dep mapping=remap" 64 1024)
if within $r2 0.9 1.1 && within $r $(awk -v a=$r2 'BEGIN { print a + 0.3 }') 99; then
    pass "the remapping removes the congestion at 64 cells 1 KB ($r -> $r2)"; else
    fail "remapping at 64 cells 1 KB: natural $r, remapped $r2"; fi
for s in 16384 32768; do
    r=$(ratio a2a 64 $s)
    if within $r 3.0 99; then pass "deposit a2a 64 cells $s B: $r x predicted (>= 1.3; W: more than 3)"; else
        fail "deposit a2a 64 cells $s B: $r x predicted, want more than 3"; fi
done
for s in 16 64; do
    r=$(ratio a2a 4 $s)
    if within $r 0.5 2.0; then pass "deposit a2a 4 cells $s B within a factor of 2 ($r)"; else
        fail "deposit a2a 4 cells $s B: $r x predicted"; fi
done

# the randomised schedule follows --mce-seed
t1=$(run 0 "$tp" $N --pattern=a2a --impl=dep --array=8x8 --sizes=1024 --mce-seed=1 2>&1 | sed -n 's/.* emulated=\([0-9]*\) .*/\1/p')
t2=$(run 0 "$tp" $N --pattern=a2a --impl=dep --array=8x8 --sizes=1024 --mce-seed=2 2>&1 | sed -n 's/.* emulated=\([0-9]*\) .*/\1/p')
t3=$(run 0 "$tp" $N --pattern=a2a --impl=dep --array=8x8 --sizes=1024 --mce-seed=2 2>&1 | sed -n 's/.* emulated=\([0-9]*\) .*/\1/p')
if [ -n "$t1" ] && [ -n "$t2" ] && [ "$t1" != "$t2" ] && [ "$t2" = "$t3" ]; then
    pass "a2a schedule: seed 1 $t1, seed 2 $t2 (repeated: $t3)"; else
    fail "a2a schedule and --mce-seed: '$t1' '$t2' '$t3'"; fi

# usage errors
run 0 "$tp" $N --pattern=a2a --impl=tcs > "$TMP/o" 2>&1
expect_eq "--impl=tcs status" $? 2
expect_grep "--impl=tcs refused" "tcs_patterns: --impl=tcs: TCS connections are a TCS program of their own: run tcs_patterns_tcs --impl=tcs" "$TMP/o"
run 0 "$tp" $N --pattern=sg --impl=dep --remap > "$TMP/o" 2>&1
expect_eq "--remap without rb status" $? 2
expect_grep "--remap only for rb" "tcs_patterns: --remap: only for --pattern=rb" "$TMP/o"
run 0 "$tp" $N --pattern=sg --impl=dep --sizes=4 > "$TMP/o" 2>&1
expect_eq "--sizes=4 status" $? 2

# ---- determinism: 1, 2 and 4 ranks, block and cyclic ---------------------------
for cfg in "--pattern=a2a --array=4x4 --sizes=16" "--pattern=rb --array=4x4 --sizes=256"; do
    args="$N --mce-summary --impl=dep $cfg"
    run 0 "$tp" $args > "$TMP/ref" 2>&1
    ref=$(summary_sans_ranks "$TMP/ref")
    [ -n "$ref" ] || fail "$cfg: no summary line"
    for np in 1 2 4; do
        for place in block cyclic; do
            run $np "$tp" $args --mce-placement=$place > "$TMP/o" 2>&1
            expect_eq "$cfg digest on $np ranks ($place)" "$(summary_sans_ranks "$TMP/o")" "$ref"
            expect_eq "$cfg output on $np ranks ($place)" \
                "$(grep '^tcs_patterns:' "$TMP/o" | cksum)" "$(grep '^tcs_patterns:' "$TMP/ref" | cksum)"
        done
    done
done
# --format=csv|json (apps/opts.c): the same numbers as the table.
expect_formats "tcs_patterns rb" "tcs_patterns: pattern=" tcs_patterns \
    "$tp" $N --pattern=rb --impl=dep --array=2x2,4x4 --sizes=64,256
finish
