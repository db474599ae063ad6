#!/bin/sh
# Chapter 6 communication patterns with TCS connections (Warfel 1996,
# sections 6.2.2 and 6.3.2; doc/design/iwarp-tcs.md 8.5, 8.9, 10.4):
# apps/tcs/tcs_patterns_tcs against W's models computed here with awk,
#   predict_sg = 398 + (N-1) 2 (L + s/BW) + R x phases          (W 6.2.2)
#   predict_rb = 302 + log2 N (40 + 2 (L + s/BW)) + R x phases   (W 6.3.2)
# with the emulator's own figures, each taken from another source than
# the program: R = the reconfiguration tcs_primitives measures for the
# same 1D ring (W's predictions use his measured reconfiguration times);
# L = block_send + block_recv + 2 gate_op + gate_in + gate_out (machine
# file) + the mean H of the task's routes in the linker's report
# (--mce-tcs=link); phases = the task's netgroups in that report; BW =
# word_bytes / word_time; and with W's constants (38/59/66, 444/872/2551,
# 441/869/2550, 1.998) = mce-predict tcs-sg / tcs-rb --impl=tcs.
# Checks: every line data=ok; the printed reconfig, phases and predicted
# columns = the values above; acceptance (design 8.9 for the departures):
#   rb (W 6.3.2; W lists neither Number_of_phases nor Per_iteration_
#        overhead: read as 2 netgroups, reduction and broadcast, entered
#        with full reconfigurations, and 6.3.1's 40, share/machines/
#        iwarp.conf): 2 phases in the linker's report; formula, within W
#        6.3.2's "two percent" of the model with the emulator's figures
#        (known failure where not: at 4x4 the switch after the reduction
#        starts on most cells before the root arrives), and within 3 %
#        (4x4 3.5 %) as a regression guard; formula, within "two percent"
#        of W's model with W's own constants (38/59/66, 441/869/2550,
#        1.998; 2x2, 4x4, 8x8, the sizes W gives them for) (known
#        failure where not: W's Avg_Net_Latency are sg's, the rb
#        connections are shorter); statement, "while maintaining better
#        performance": faster than the deposit rb (tcs_patterns, natural
#        mapping: W 6.3.1's "link bandwidth unknown") at every size;
#   sg, one connection per netgroup (--phase-conns=1, every transfer's
#        latency exposed as the model assumes): within 3 % at 4 and 8
#        cells, within 6 % everywhere, never more than 1 % above;
#   sg, the root's free PCTs per netgroup (default): within 3 % from 16
#        KB, never more than 1 % above (the root's serial block writes
#        overlap the latency the model charges per transfer);
#        qualitative, W 6.2.2 "the added latency per phase ... really
#        isn't an average, but a worst case": nearer W's formula with one
#        worst-case latency a phase (36 + the phase's largest H; per
#        transfer the root's call, block_send + gate_op) than the average
#        per transfer, everywhere; within 2 % of it (known failure);
#   a2a (W 6.4.2 as W wrote it: the AAPC phases, one 2D barrier each,
#        throttled by the linker): formula, within 10 % below the model
#        over the linker's phase report (W 6.5: "worst-case, to within 10%
#        (overestimate)"), most within 1 % (known failure if not);
#        measurement, 64 cells 32 KB "a little over 3.2 million clocks";
#        qualitative, DQ congestion in all 8x8 phases, all throttled to
#        1/3, and in half the 4x4 phases, only 2 (known failure); the
#        deposit a2a slower than TCS at 64 cells 32 KB; the torus shifts
#        (--a2a-phases=shifts) within 0.90-1.035 of the same model;
#   the other orientations 2x4 and 4x8 (W 6.4.1 names 2x2, 2x4, 4x4, 4x8
#        and 8x8): declared only when asked for (--array), every line
#        data=ok and their sg, rb and a2a against the same formulas with
#        the same bounds as 4x2 and 8x4;
#   the summary digest is the same in one process and on 1, 2 and 4 ranks
#   (a 2x4/4x8 run among them).
. "$top_srcdir/tests/lib.sh"

tp=$B/apps/tcs/tcs_patterns_tcs
prim=$B/apps/tcs/tcs_primitives
mp=$B/tools/mce-predict
conf=$top_srcdir/share/machines/iwarp.conf
N="--mce-nodes=64"
A="--array=2x2,4x2,4x4,8x4,8x8"
S="--sizes=16,64,256,1024,4096,16384,32768"

key() { sed -n "s/^$1 *= *\([0-9]*\).*/\1/p" "$conf"; }
FIXED=$(($(key iwarp.block_send) + $(key iwarp.block_recv) + 2 * $(key iwarp.gate_op) + $(key iwarp.gate_in) + $(key iwarp.gate_out)))
BW=$(awk -v b=$(key iwarp.word_bytes) -v t=$(key iwarp.word_time) 'BEGIN { print b / t }')
expect_eq "36 = block_send + block_recv + 2 gate_op + gate_in + gate_out" $FIXED 36

# R per cell count: tcs_primitives' 1D reconfiguration
run 0 "$prim" $N --no-2d > "$TMP/prim" 2>&1
expect_eq "tcs_primitives status" $? 0
sed -n 's/.*rings=1d cells=\([0-9]*\) .* reconfig=\([0-9]*\) .*/\1 \2/p' "$TMP/prim" > "$TMP/rc"
expect_eq "reconfiguration sizes" "$(wc -l < "$TMP/rc" | tr -d ' ')" 6

# mean H and phases per task: the linker's report
run 0 "$tp" $N --pattern=sg --impl=tcs --mce-tcs=link > "$TMP/link" 2>/dev/null
expect_eq "tcs-link status" $? 0
linkfig() { # task -> "meanH phases"
    grep "^route '$1'/" "$TMP/link" | awk '{
        n++; for (i = 1; i <= NF; i++) if ($i == "latency") { h = $(i + 1); sub(";", "", h); s += h }
        split($2, a, "/"); g[a[2]] = 1 }
        END { for (k in g) p++; printf "%.6f %d\n", s / n, p }'
}

# the sum over the task's netgroups of their largest H (route latency)
sumfig() {
    grep "^route '$1'/" "$TMP/link" | awk '{
        for (i = 1; i <= NF; i++) if ($i == "latency") { h = $(i + 1); sub(";", "", h) }
        split($2, a, "/"); if (!(a[2] in m) || h + 0 > m[a[2]]) m[a[2]] = h + 0 }
        END { for (k in m) s += m[k]; print s }'
}
CALL=$(($(key iwarp.block_send) + $(key iwarp.gate_op)))

formula() { # kind cells bytes L R phases bw
    awk -v k=$1 -v n=$2 -v s=$3 -v L=$4 -v R=$5 -v ph=$6 -v bw=$7 'BEGIN {
        lg = int(log(n) / log(2) + 0.5)
        if (k == "sg") v = 398 + (n - 1) * 2 * (L + s / bw) + R * ph
        else v = 302 + lg * (40 + 2 * (L + s / bw)) + R * ph
        printf "%.3f\n", v }'
}

# run_variants ARRAY-OPTION OUT: sg (both netgroup sizes) and rb on the
# arrays, their result lines (variant=... prefixed) into OUT
run_variants() {
    rv_arr=$1 rv_out=$2
    : > "$rv_out"
    for v in "sg max" "sg 1" "rb -"; do
        set -- $v
        if [ "$1" = sg ]; then opt="--phase-conns=$2"; vn=$1$2; else opt=; vn=$1; fi
        run 0 "$tp" $N --pattern=$1 --impl=tcs $opt $rv_arr "$S" > "$TMP/o" 2>&1
        expect_eq "tcs_patterns_tcs --pattern=$1 $opt $rv_arr status" $? 0
        grep '^tcs_patterns:' "$TMP/o" | sed "s/^tcs_patterns: /variant=$vn /" >> "$rv_out"
    done
}
run_variants "$A" "$TMP/lines"
expect_eq "lines (3 x 5 arrays x 7 sizes)" "$(wc -l < "$TMP/lines" | tr -d ' ')" 105
expect_eq "lines without data=ok" "$(grep -vc ' data=ok$' "$TMP/lines")" 0

# every line of $1: its figures and prediction, then the ratio to awk's
# (appended to $2); bad counts the mismatches
check_lines() {
cl_out=$2 # (the loop's set -- replaces $1 and $2)
bad=0
: > "$cl_out"
while read -r line; do
    eval "$(echo "$line" | tr ' ' '\n' | grep -E '^(variant|pattern|cells|bytes|array|phases|reconfig|predicted|predicted_w|predicted_phase|emulated)=' | sed 's/^/f_/')"
    case $f_variant in sg1) task="sg1_$f_array";; *) task="$f_pattern$f_array";; esac
    set -- $(linkfig "$task")
    mh=$1; ph=$2
    R=$(awk -v n=$f_cells '$1 == n { print $2 }' "$TMP/rc")
    L=$(awk -v m=$mh -v f=$FIXED 'BEGIN { printf "%.6f", f + m }')
    want=$(formula $f_pattern $f_cells $f_bytes $L $R $ph $BW)
    ok=$(awk -v g=$f_predicted -v w=$want 'BEGIN { d = g - w; print (d <= 1 && d >= -1) }')
    if [ "$f_reconfig" != "$R" ] || [ "$f_phases" != "$ph" ] || [ "$ok" != 1 ]; then
        bad=$((bad + 1)); echo "  $line: want reconfig $R phases $ph predicted $want"
    fi
    case $f_cells in 4|16|64)
        wp=$("$mp" tcs-$f_pattern --impl=tcs --array=$f_array --bytes=$f_bytes --phases=$ph 2>&1 |
            tr ' ' '\n' | sed -n 's/^predicted_clocks=//p')
        if [ "$(awk -v a=$wp -v b=$f_predicted_w 'BEGIN { d = a - b; print (d <= 1 && d >= -1) }')" != 1 ]; then
            bad=$((bad + 1)); echo "  $line: W's constants: mce-predict $wp"
        fi;;
    esac
    if [ "$f_pattern" = sg ]; then
        # W 6.2.2: per phase one worst-case latency, per transfer the root's call
        wph=$(awk -v n=$f_cells -v s=$f_bytes -v c=$CALL -v f=$FIXED -v mx=$(sumfig "$task") -v R=$R -v ph=$ph -v bw=$BW \
            'BEGIN { printf "%.3f", 398 + (n - 1) * 2 * (c + s / bw) + ph * (f - c) + mx + R * ph }')
        if [ "$(awk -v g=$f_predicted_phase -v w=$wph 'BEGIN { d = g - w; print (d <= 1 && d >= -1) }')" != 1 ]; then
            bad=$((bad + 1)); echo "  $line: want predicted_phase $wph"
        fi
        echo "$f_variant $f_cells $f_bytes $(awk -v e=$f_emulated -v w=$want -v p=$wph 'BEGIN { printf "%.4f %.4f", e / w, e / p }')" >> "$cl_out"
    else
        echo "$f_variant $f_cells $f_bytes $(awk -v e=$f_emulated -v w=$want 'BEGIN { printf "%.4f", e / w }')" >> "$cl_out"
    fi
done < "$1"
}
check_lines "$TMP/lines" "$TMP/ratios"
expect_eq "reconfig, phases, predicted, predicted_phase (awk) and predicted_w (mce-predict) columns (mismatches)" $bad 0

# acceptance: variant cells-regexp bytes-min lo hi (over $RATIOS)
RATIOS=$TMP/ratios
accept() {
    awk -v v=$1 -v c="^($2)\$" -v smin=$3 -v lo=$4 -v hi=$5 '
        $1 == v && $2 ~ c && $3 >= smin { n++; if ($4 < lo || $4 > hi) { bad++; print "    " $0 } }
        END { exit !(n > 0 && bad == 0) }' "$RATIOS"
}
range() { awk -v v=$1 '$1 == v { if (!n++ || $4 < lo) lo = $4; if ($4 > hi) hi = $4 } END { print lo "-" hi }' "$RATIOS"; }
# rb: W 6.3.2 "accurate prediction (within two percent)" (formula); the
# 3 % (4x4 3.5 %) band is a regression guard on today's output, not W's
if accept rb "4|8|32|64" 0 0.97 1.03 && accept rb 16 0 0.965 1.03; then
    pass "TCS rb regression guard: within 3 % of W 6.3.2's model (4x4 3.5 %): ratios $(range rb)"; else
    fail "TCS rb outside 3 % (4x4: 3.5 %)"; fi
rbout=$(awk '$1 == "rb" && ($4 < 0.98 || $4 > 1.02) { k++; o = o " " $2 "c/" $3 "B" } END { print k + 0 o }' "$TMP/ratios")
check_or_known "TCS rb within 2 % of W 6.3.2's model (W: \"within two percent\"): outside: ${rbout}" "${rbout%% *} == 0"
# rb: two phases a run (a reduction and a broadcast netgroup) in the
# linker's report, for every rectangle
expect_eq "TCS rb phases per rectangle (the linker's netgroups)" \
    "$(for a in 2x2 4x2 4x4 8x4 8x8; do linkfig rb$a | cut -d' ' -f2; done | tr '\n' ' ')" "2 2 2 2 2 "
# rb, formula with W's own constants (W 6.3.2: Constant_Overhead 302,
# Avg_Net_Latency 38 / 59 / 66, Reconfiguration_time 441 / 869 / 2550,
# Network_BW 1.998; Per_iteration_overhead 40 and 2 phases as read above),
# typed here from the thesis; W: measured "within two percent" of it
grep '^variant=rb ' "$TMP/lines" | awk '{
    for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
    n = f["cells"]; s = f["bytes"]
    if (n == 4) { L = 38; R = 441 } else if (n == 16) { L = 59; R = 869 } else if (n == 64) { L = 66; R = 2550 } else next
    lg = int(log(n) / log(2) + 0.5)
    w = 302 + lg * (40 + 2 * (L + s / 1.998)) + R * 2
    printf "%d %d %d %.3f %.4f\n", n, s, f["emulated"], w, f["emulated"] / w }' > "$TMP/rbw"
expect_eq "TCS rb entries at 2x2, 4x4, 8x8 (W's constants)" "$(wc -l < "$TMP/rbw" | tr -d ' ')" 21
rbw=$(awk '$5 < 0.98 || $5 > 1.02 { k++; o = o " " $1 "c/" $2 "B:" $5 } END { print k + 0 o }' "$TMP/rbw")
check_or_known "TCS rb within 2 % of W 6.3.2's model with W's constants (W: \"within two percent\"): $(awk '{ if (!n++ || $5 < lo) lo = $5; if ($5 > hi) hi = $5 } END { print lo "-" hi }' "$TMP/rbw"); outside: ${rbw}" "${rbw%% *} == 0"
# rb, statement (W 6.3.2 "while maintaining better performance"): TCS
# faster than the deposit rb with the natural mapping at every size
run 0 "$B/apps/tcs/tcs_patterns" $N --pattern=rb --impl=dep --array=2x2,4x4,8x8 "$S" > "$TMP/deprb" 2>&1
expect_eq "tcs_patterns --pattern=rb --impl=dep status" $? 0
slower=$(sed -n 's/.* cells=\([0-9]*\) bytes=\([0-9]*\) .* emulated=\([0-9]*\) .*/\1 \2 \3/p' "$TMP/deprb" |
    awk 'NR == FNR { d[$1 " " $2] = $3; next } ($1 " " $2) in d { n++; if ($3 >= d[$1 " " $2]) { k++; o = o " " $1 "c/" $2 "B" } }
        END { print (n == 21 ? k + 0 : "entries " n) o }' - "$TMP/rbw")
expect_eq "TCS rb faster than deposit rb (natural mapping) at 2x2, 4x4, 8x8, 16 B-32 KB (W 6.3.2), entries not faster" "$slower" 0
if accept sg1 "4|8" 0 0.97 1.03 && accept sg1 "4|8|16|32|64" 0 0.94 1.01; then
    pass "TCS sg, one connection per phase: within 3 % at 4-8 cells, 6 % up to 64: ratios $(range sg1)"; else
    fail "TCS sg, one connection per phase, outside its bounds"; fi
if accept sgmax "4|8|16|32|64" 16384 0.97 1.03 && accept sgmax "4|8|16|32|64" 0 0 1.01; then
    pass "TCS sg, root's PCTs per phase: within 3 % from 16 KB, never above 1.01: ratios $(range sgmax)"; else
    fail "TCS sg, root's PCTs per phase, outside its bounds"; fi
# W 6.2.2 (qualitative): "the added latency per phase ... really isn't an
# average, but a worst case": with several connections a phase the
# emulated time is nearer W's formula charged one worst-case latency a
# phase (predicted_phase) than the per-transfer average, at every entry;
# and (formula) within W's "one or two percent" of it: a known failure,
# the emulated phase exposes the last scatter's and the first gather's
# latency, not the worst (the first gather's read does pay a "latency
# explosion", 140-738 clocks from 512 B: design 8.9, but once a phase;
# tcs_sg_transient.sh compares it with W's statement).
if awk '$1 == "sgmax" { n++; a = $4 - 1; b = $5 - 1; if (a < 0) a = -a; if (b < 0) b = -b; if (b > a) { bad++; print "    " $0 } }
        END { exit !(n > 0 && bad == 0) }' "$TMP/ratios"; then
    pass "TCS sg, root's PCTs per phase: nearer one worst-case latency a phase than one average latency a transfer (W 6.2.2): $(awk '$1 == "sgmax" { if (!n++ || $5 < lo) lo = $5; if ($5 > hi) hi = $5 } END { print lo "-" hi }' "$TMP/ratios")"; else
    fail "TCS sg: the per-phase worst-case model is not the nearer"; fi
ph2=$(awk '$1 == "sgmax" && ($5 < 0.98 || $5 > 1.02) { k++ } END { print k + 0 }' "$TMP/ratios")
check_or_known "TCS sg, root's PCTs per phase: within 2 % of one worst-case latency a phase (W 6.2.2 \"within one or two percent\"): $ph2 of 35 outside" "$ph2 == 0"

# ---- sg and rb on the other orientations: 2x4 and 4x8 -----------------------
# W 6.4.1 names 2x2, 2x4, 4x4, 4x8 and 8x8 (not which side is the row);
# the rectangles are declared only when --array asks for them.  The same
# formulas (W 6.2.2, 6.3.2 computed above with awk: R from tcs_primitives'
# 1D ring of 8 and 32 cells, L and phases from the linker's report of
# these tasks) and the bounds used for 4x2 and 8x4.
A2="--array=2x4,4x8"
run 0 "$tp" $N --pattern=sg --impl=tcs $A2 --mce-tcs=link > "$TMP/link" 2>/dev/null
expect_eq "tcs-link $A2 status" $? 0
expect_eq "tcs-link $A2: only the tasks of 2x4 and 4x8 (and the whole array's)" \
    "$(sed -n "s/^task '\([^']*\)'.*/\1/p" "$TMP/link" | tr '\n' ' ')" \
    "whole sg2x4 sg1_2x4 rb2x4 a2a2x4 aapc2x4 sg4x8 sg1_4x8 rb4x8 a2a4x8 aapc4x8 "
run_variants "$A2" "$TMP/lines2"
expect_eq "$A2 lines (3 x 2 arrays x 7 sizes)" "$(wc -l < "$TMP/lines2" | tr -d ' ')" 42
expect_eq "$A2 lines without data=ok" "$(grep -vc ' data=ok$' "$TMP/lines2")" 0
check_lines "$TMP/lines2" "$TMP/ratios2"
expect_eq "$A2: reconfig, phases, predicted and predicted_phase columns = awk's (mismatches)" $bad 0
RATIOS=$TMP/ratios2
# 2x4 explicitly: rb within the 3 % band of 4x2 (W 6.3.2: two percent)
if accept rb 8 0 0.97 1.03 && grep -q "^rb 8 " "$RATIOS"; then
    pass "2x4 rb within 3 % of W 6.3.2's model, as 4x2: ratios $(awk '$1 == "rb" && $2 == 8 { printf "%s ", $4 }' "$RATIOS")"; else
    fail "2x4 rb outside 3 % of W 6.3.2's model"; fi
if accept rb "8|32" 0 0.97 1.03; then
    pass "2x4, 4x8 TCS rb within 3 % of W 6.3.2's model: ratios $(range rb)"; else
    fail "2x4, 4x8 TCS rb outside 3 %"; fi
if accept sg1 8 0 0.97 1.03 && accept sg1 "8|32" 0 0.94 1.01; then
    pass "2x4, 4x8 TCS sg, one connection per phase: within 3 % at 2x4, 6 % at 4x8: ratios $(range sg1)"; else
    fail "2x4, 4x8 TCS sg, one connection per phase, outside its bounds"; fi
if accept sgmax "8|32" 16384 0.97 1.03 && accept sgmax "8|32" 0 0 1.01; then
    pass "2x4, 4x8 TCS sg, root's PCTs per phase: within 3 % from 16 KB, never above 1.01: ratios $(range sgmax)"; else
    fail "2x4, 4x8 TCS sg, root's PCTs per phase, outside its bounds"; fi
RATIOS=$TMP/ratios

# ---- a2a, W 6.4.2 as W wrote it: the AAPC phases, one barrier each ----------
# Phases: the link-optimal AAPC schedule (W's "dragon router" phases,
# Hinrichs et al. 1994), a task on the whole array whose one 2D barrier a
# phase is W's "Barrier_time" (432: the global barrier).  The model over
# the linker's phase report (mce-predict tcs-a2a --phases=FILE): per phase
# "36 + max path latency, 1/(link rate / the least bandwidth of its
# connections)", Barrier_time = tcs_primitives' 2D barrier +
# tcs.barrier_lookup, W's 162 and 459, Network_BW the link rate; and with
# W's own constants (432, 1.998 bytes/clock).
run 0 "$prim" $N > "$TMP/prim2" 2>&1
B2D=$(sed -n 's/.*rings=2d cells=64 barrier=\([0-9]*\) .*/\1/p' "$TMP/prim2")
[ -n "$B2D" ] || fail "tcs_primitives: no 2D barrier"
run 0 "$tp" $N --pattern=a2a --impl=tcs --mce-tcs=link > "$TMP/link" 2>/dev/null
expect_eq "tcs-link (a2a) status" $? 0
run 0 "$tp" $N --pattern=a2a --impl=tcs $A "$S" > "$TMP/o" 2>&1
expect_eq "tcs_patterns_tcs --pattern=a2a status" $? 0
grep '^tcs_patterns:' "$TMP/o" | sed 's/^tcs_patterns: //' > "$TMP/a2a"
expect_eq "a2a lines (5 arrays x 7 sizes)" "$(wc -l < "$TMP/a2a" | tr -d ' ')" 35
expect_eq "a2a lines without data=ok" "$(grep -vc ' data=ok$' "$TMP/a2a")" 0
LOOKUP=$(key tcs.barrier_lookup)
phase_file() { # task -> "36 + max latency" "1/throttle" per phase, in $TMP/ph
    awk -v t="'$1'/" -v f=$FIXED -v r=$BW '
        index($0, "phase ") == 1 { p = index($0, t) > 0; mb = 99; next }
        p && /^  conn / { for (i = 1; i <= NF; i++) if ($i == "bandwidth") { b = $(i + 1) + 0; if (b < mb) mb = b } }
        p && /max path latency/ { printf "%d 1/%d\n", f + $4, int(r / mb + 0.5) }' "$TMP/link" > "$TMP/ph"
}
# a2a_model ARRAY BYTES: mce-predict's phase model over the phases in
# $TMP/ph, with the emulator's barrier and bandwidth
a2a_model() {
    "$mp" tcs-a2a --impl=tcs --array=$1 --bytes=$2 --phases="$TMP/ph" \
        --constants tcs_a2a_barrier=$((B2D + LOOKUP)),net_bw_milli=$(awk -v r=$BW 'BEGIN { print r * 1000 }') 2>&1 |
        tr ' ' '\n' | sed -n 's/^value_clocks=//p'
}
bad=0
: > "$TMP/ar"
while read -r line; do
    eval "$(echo "$line" | tr ' ' '\n' | grep -E '^(cells|bytes|array|phases|emulated)=' | sed 's/^/f_/')"
    phase_file "aapc$f_array"
    want=$(a2a_model "$f_array" "$f_bytes")
    wantw=$("$mp" tcs-a2a --impl=tcs --array=$f_array --bytes=$f_bytes --phases="$TMP/ph" 2>&1 |
        tr ' ' '\n' | sed -n 's/^value_clocks=//p')
    if [ "$(wc -l < "$TMP/ph" | tr -d ' ')" != "$f_phases" ] || [ -z "$want" ] || [ -z "$wantw" ]; then
        bad=$((bad + 1)); echo "  $line: phases $(wc -l < "$TMP/ph"), prediction '$want' '$wantw'"; continue
    fi
    echo "$f_cells $f_bytes $(awk -v e=$f_emulated -v w=$want -v x=$wantw 'BEGIN { printf "%.4f %d %.4f", e / w, e, e / x }')" >> "$TMP/ar"
done < "$TMP/a2a"
expect_eq "a2a phases = the linker's AAPC phases (3, 8, 16, 32, 64) and predictions (mismatches)" $bad 0
expect_eq "a2a phases per array" "$(awk '{ sub(/.*array=/, ""); a = $1; sub(/.*phases=/, ""); print a, $1 }' "$TMP/a2a" | sort -u | tr '\n' ' ')" \
    "2x2 3 4x2 8 4x4 16 8x4 32 8x8 64 "
# formula, W 6.4.2: "worst-case, to within 10 % (overestimate)" (W 6.5),
# "in many cases ... within one percent"
rng() { awk -v c=$1 '{ if (!n++ || $c < lo) lo = $c; if ($c > hi) hi = $c } END { print lo "-" hi }' "$TMP/ar"; }
if awk '{ n++; if ($3 < 0.90 || $3 > 1.0) { bad++; print "    " $0 } } END { exit !(n == 35 && bad == 0) }' "$TMP/ar"; then
    pass "TCS a2a (AAPC) within 10 % below W 6.4.2's model over the linker's phases (W 6.5: worst case within 10 %, an overestimate): $(rng 3)"; else
    fail "TCS a2a (AAPC) outside 0.90-1.00 of W 6.4.2's model"; fi
n1=$(awk '$3 >= 0.99 && $3 <= 1.01 { k++ } END { print k + 0 }' "$TMP/ar")
check_or_known "TCS a2a (AAPC): most entries within 1 % of the model (W 6.4.2 \"in many cases ... within one percent\"): $n1 of 35" "$n1 > 17"
note "a2a (AAPC) emulated / W's model with W's constants (432, 1.998): $(rng 5)"
# measurement, W 6.4.2: "the 64 cell 32 Kbyte transfer ... runs in just a
# little over 3.2 million clocks with TCS"
tcs64=$(awk '$1 == 64 && $2 == 32768 { print $4 }' "$TMP/ar")
check_or_known "a2a 64 cells 32 KB: $tcs64 clocks, a little over W's 3.2 million (3.2-3.3 M; $(awk -v t=$tcs64 'BEGIN { printf "%.4f", t / 3200000 }') x)" \
    "$tcs64 >= 3200000 && $tcs64 <= 3300000"
# qualitative, W 6.4.2: DQ congestion "in all of the 8x8 phases", "throttle
# all links down to 1/3"; "in half of the 4x4 phases ... only 2"
dq() { # task -> "phases kappa>=2 kappa>=3 throttled-1/3"
    awk -v t="'$1'/" 'index($0, "phase ") == 1 { p = index($0, t) > 0; next }
        p && /max path latency/ { n++; k = $0; sub(/.*kappa max /, "", k); k += 0; if (k >= 2) d++; if (k >= 3) e++; if (/throttled to 1\/3/) th++ }
        END { print n + 0, d + 0, e + 0, th + 0 }' "$TMP/link"
}
set -- $(dq aapc8x8)
expect_eq "8x8 AAPC phases with DQ congestion, with 3, throttled to 1/3 (W 6.4.2: all 64, throttle 1/3 everywhere)" "$*" "64 64 64 64"
set -- $(dq aapc4x4)
check_or_known "4x4 AAPC: DQ congestion in half the phases, never above 2 (W 6.4.2): $2 of $1 phases, $3 above 2" \
    "$2 == $1 / 2 && $3 == 0"
# measurement, W 6.4.2: deposit 64 cells 32 KB "more than 6.9 million" vs TCS
run 0 "$B/apps/tcs/tcs_patterns" $N --pattern=a2a --impl=dep --array=8x8 --sizes=32768 > "$TMP/dep" 2>&1
dep64=$(sed -n 's/.* emulated=\([0-9]*\) .*/\1/p' "$TMP/dep")
if [ -n "$tcs64" ] && [ -n "$dep64" ] && [ "$dep64" -gt "$tcs64" ]; then
    pass "a2a 64 cells 32 KB: deposit $dep64 > TCS $tcs64 clocks, $(awk -v d=$dep64 -v t=$tcs64 'BEGIN { printf "%.2f", d / t }') x (W: 6.9 M / 3.2 M = 2.16)"; else
    fail "a2a 64 cells 32 KB: deposit '$dep64' not slower than TCS '$tcs64'"; fi

# ---- a2a, the torus shifts (an alternative: --a2a-phases=shifts) ---------------
# The N-1 torus shifts of the rectangle on its own 1D ring, two barriers a
# phase (one ring releases its cells a hop apart); 2x2 .. 8x4 (at 8 x 8
# the shifts need more PCTs than the 2D rings of the AAPC tasks leave).
# Model as above with 2 x (the rectangle's 1D barrier + lookup).
run 0 "$tp" $N --pattern=a2a --impl=tcs --a2a-phases=shifts --array=4x4,8x4 --sizes=64,4096 > "$TMP/o" 2>&1
expect_eq "tcs_patterns_tcs --a2a-phases=shifts status" $? 0
grep '^tcs_patterns:' "$TMP/o" | sed 's/^tcs_patterns: //' > "$TMP/sh"
expect_eq "shift lines without schedule=shifts or data=ok" "$(grep -vc 'schedule=shifts.* data=ok$' "$TMP/sh")" 0
: > "$TMP/sr"
while read -r line; do
    eval "$(echo "$line" | tr ' ' '\n' | grep -E '^(cells|bytes|array|phases|emulated)=' | sed 's/^/f_/')"
    phase_file "a2a$f_array"
    b=$(sed -n "s/.*rings=1d cells=$f_cells barrier=\([0-9]*\) .*/\1/p" "$TMP/prim")
    want=$("$mp" tcs-a2a --impl=tcs --array=$f_array --bytes=$f_bytes --phases="$TMP/ph" \
        --constants tcs_a2a_barrier=$((2 * (b + LOOKUP))),net_bw_milli=$(awk -v r=$BW 'BEGIN { print r * 1000 }') 2>&1 |
        tr ' ' '\n' | sed -n 's/^value_clocks=//p')
    echo "$f_cells $f_bytes $f_phases $(awk -v e=$f_emulated -v w=$want 'BEGIN { printf "%.4f", e / w }')" >> "$TMP/sr"
done < "$TMP/sh"
if awk '{ n++; if ($3 != $1 - 1 || $4 < 0.90 || $4 > 1.035) { bad++; print "    " $0 } } END { exit !(n == 4 && bad == 0) }' "$TMP/sr"; then
    pass "TCS a2a (torus shifts): N-1 phases, within 0.90-1.035 of the model: $(awk '{ printf "%s ", $4 }' "$TMP/sr")"; else
    fail "TCS a2a (torus shifts) outside 0.90-1.035 of its prediction"; fi

# ---- a2a on 2x4 and 4x8: the AAPC phases (8 and 32), the same model -------------
run 0 "$tp" $N --pattern=a2a --impl=tcs $A2 --mce-tcs=link > "$TMP/link" 2>/dev/null
expect_eq "tcs-link (a2a) $A2 status" $? 0
run 0 "$tp" $N --pattern=a2a --impl=tcs $A2 "$S" > "$TMP/o" 2>&1
expect_eq "tcs_patterns_tcs --pattern=a2a $A2 status" $? 0
grep '^tcs_patterns:' "$TMP/o" | sed 's/^tcs_patterns: //' > "$TMP/a2a2"
expect_eq "a2a $A2 lines (2 arrays x 7 sizes)" "$(wc -l < "$TMP/a2a2" | tr -d ' ')" 14
expect_eq "a2a $A2 lines without data=ok" "$(grep -vc ' data=ok$' "$TMP/a2a2")" 0
expect_eq "a2a phases per array ($A2)" "$(awk '{ sub(/.*array=/, ""); a = $1; sub(/.*phases=/, ""); print a, $1 }' "$TMP/a2a2" | sort -u | tr '\n' ' ')" \
    "2x4 8 4x8 32 "
: > "$TMP/ar2"
while read -r line; do
    eval "$(echo "$line" | tr ' ' '\n' | grep -E '^(cells|bytes|array|phases|emulated)=' | sed 's/^/f_/')"
    phase_file "aapc$f_array"
    want=$(a2a_model "$f_array" "$f_bytes")
    [ "$(wc -l < "$TMP/ph" | tr -d ' ')" = "$f_phases" ] && [ -n "$want" ] || want=0
    echo "$f_cells $f_bytes $(awk -v e=$f_emulated -v w=$want 'BEGIN { if (w > 0) printf "%.4f", e / w; else print "none" }')" >> "$TMP/ar2"
done < "$TMP/a2a2"
if awk '{ n++; if ($3 == "none" || $3 < 0.90 || $3 > 1.0) { bad++; print "    " $0 } } END { exit !(n == 14 && bad == 0) }' "$TMP/ar2"; then
    pass "2x4, 4x8 TCS a2a (AAPC) within 10 % below W 6.4.2's model over the linker's phases: $(awk '{ if (!n++ || $3 < lo) lo = $3; if ($3 > hi) hi = $3 } END { print lo "-" hi }' "$TMP/ar2")"; else
    fail "2x4, 4x8 TCS a2a (AAPC) outside 0.90-1.00 of W 6.4.2's model"; fi

# usage errors
run 0 "$tp" $N --pattern=rb --impl=tcs --phase-conns=1 > "$TMP/o" 2>&1
expect_eq "--phase-conns with rb status" $? 2
run 0 "$tp" --mce-nodes=64 --pattern=sg --impl=dep > "$TMP/o" 2>&1
expect_eq "--impl=dep status" $? 2
expect_grep "--impl=dep refused" "tcs_patterns: --impl: tcs (the deposit implementation is tcs_patterns --impl=dep)" "$TMP/o"

for bad in 16x2 3x4 2x2,2x2 4x; do
    run 0 "$tp" $N --pattern=rb --impl=tcs --array=$bad > "$TMP/o" 2>&1
    expect_eq "--array=$bad status" $? 2
    expect_grep "--array=$bad refused naming the option" "tcs_patterns: --array=$bad: " "$TMP/o"
done

# ---- iwarp.dq_model=off (issue 12): the idealised machine runs through ----------
# Without the DQ caps the 8x8 sg's members leave the reconfiguration
# barriers apart enough that a member's word for a barrier's next use was
# on its way when its successor parked the slot PCT (design 8.10): the run
# ended "PCT 4 holds 1 unread word" from 512 B.  Checks: status 0; every
# line data=ok; the same reconfiguration and phases as the default run
# (the connections do not depend on DQ); the W 6.2.2 bound of the default
# (never more than 1 % above the model); no slower than with the DQ rule
# (design s.3.3: off removes a cap, nothing else).
run 0 "$tp" $N --pattern=sg --impl=tcs --array=8x8 --sizes=1024,4096 \
    --mce-set=iwarp.dq_model=off > "$TMP/nodq" 2>&1
expect_eq "sg 8x8 1 KB, 4 KB with iwarp.dq_model=off: status" $? 0
grep '^tcs_patterns:' "$TMP/nodq" > "$TMP/nodql"
expect_eq "sg 8x8 with iwarp.dq_model=off: lines with data=ok" \
    "$(grep -c ' data=ok$' "$TMP/nodql")" 2
nodq=$(grep '^variant=sgmax .* array=8x8 ' "$TMP/lines" | awk '
    NR == FNR { for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
                if (f["bytes"] == 1024 || f["bytes"] == 4096) {
                    rc[f["bytes"]] = f["reconfig"]; ph[f["bytes"]] = f["phases"]
                    em[f["bytes"]] = f["emulated"] }
                next }
    { for (i = 2; i <= NF; i++) { split($i, kv, "="); g[kv[1]] = kv[2] }
      s = g["bytes"]; n++
      if (g["reconfig"] != rc[s] || g["phases"] != ph[s] || g["ratio"] > 1.01 ||
          g["emulated"] > em[s]) { k++; o = o " " s "B:" g["emulated"] "/" em[s] } }
    END { print (n == 2 ? k + 0 : "lines " n) o }' - "$TMP/nodql")
expect_eq "sg 8x8 with iwarp.dq_model=off: reconfig and phases as the default, ratio <= 1.01, emulated <= the default's (mismatches)" "$nodq" 0

# ---- determinism: 1, 2 and 4 ranks, block and cyclic ---------------------------
for cfg in "--pattern=sg --array=4x4 --sizes=1024" "--pattern=rb --array=4x4,8x8 --sizes=256" "--pattern=a2a --array=8x8 --sizes=64" \
    "--pattern=a2a --array=2x4,4x8 --sizes=64"; do
    args="$N --mce-summary --impl=tcs $cfg"
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
expect_formats "tcs_patterns_tcs sg" "tcs_patterns: pattern=" tcs_patterns_tcs \
    "$tp" $N --pattern=sg --impl=tcs --array=2x2,4x4 --sizes=64,1024
expect_formats "tcs_patterns_tcs a2a" "tcs_patterns: pattern=" tcs_patterns_tcs_a2a \
    "$tp" $N --pattern=a2a --impl=tcs --array=2x2 --sizes=64
finish
