#!/bin/sh
# The TCS linker (doc/design/iwarp-tcs.md, section 8.3; include/tcs.h):
#   refusals: one declaration per rule (tests/progs/tcs_cases.c, picked by
#     TCS_CASE) exits 2 with the exact message, at start-up before any
#     cell runs and through tcs-link;
#   a fitting program (apps/tcs/ball_front, the user guide's example): the
#     report's routes, PCTs, link loads, bandwidths and barrier rings equal
#     the values worked out by hand below (8 x 8 torus of 2 x 2 boards,
#     hops 4 inside a board and 6 across [W 3.2.1], +1 per turn; 20 PCTs,
#     RTS 2, barriers 1 + 4 [W 4.5.4]: PCTs 7..19 for connections);
#   DQ congestion above 2 is reported with the 1/kappa throttle [W 6.4.2];
#   the report is the same on 1 and 2 ranks.
. "$top_srcdir/tests/lib.sh"

cases=$B/tests/progs/tcs_cases
front=$B/apps/tcs/ball_front
link=$top_srcdir/tools/tcs-link
N=--mce-nodes=64

# refuse CASE MESSAGE: status 2, the message, no cell ran (at start-up);
# the same through tcs-link
refuse() {
    TCS_CASE=$1 "$cases" $N > "$TMP/r" 2>&1
    expect_eq "$1: start-up refusal status" $? 2
    expect_grep "$1: message" "mcemu: tcs-link: $2" "$TMP/r"
    if grep -q "cell 0 runs" "$TMP/r"; then fail "$1: a cell ran"; else
        pass "$1: no cell ran"; fi
    TCS_CASE=$1 "$link" "$cases" > "$TMP/r" 2>&1
    expect_eq "$1: tcs-link status" $? 2
    expect_grep "$1: tcs-link message" "mcemu: tcs-link: $2" "$TMP/r"
}

refuse recursion "task 'x\[2\]' runs the code of its ancestor 'x' (via 'x' -> 'y' -> 'x\[2\]'): recursion and reentrancy are not allowed, the invocation depth must be known at link time"
# fill[3] is 2 x 1 at (3,1) relative to detect (4 x 2 at (0,0)): (4,1) out
refuse outside "task 'fill\[3\]': cell (4,1) is outside its parent 'detect' (cells 4x2 at (0,0))"
# a = (0,0)-(1,0), b = (1,0)-(2,0)
refuse overlap "tasks 'a' and 'b' are connected (a.out -> b.in) but both use cell (1,0)"
refuse conncell "connection 'n2.c1' of task 't': source cell 5 is outside the task (4 cells)"
refuse badport "port 'p' of task 'c' is neither connected by its parent nor inherited"
refuse outputs "external connection from 'a.p' to 'b.q': both are outputs"
refuse declerr "tcs_declare: tcs_task: task 'big': a 9 x 1 rectangle does not fit the 8 x 8 array"
# Cell (2,0), the middle of a2a = (1,0)-(3,0) inside root = (0,0)-(4,0):
#   p12: 9 connections (1,0) -> (3,0), all through (2,0)           9
#   a2a.res on (2,0) -> right (4,0): root's external, source here  1
#   left (0,0) -> right (4,0) twice: through a2a's cell, hoisted    2
#   barrier rings closing through (2,0): root's (4,0)->(0,0), a2a's
#   (3,0)->(1,0), the siblings' {left,a2a,right} (4,0)->(0,0)       3
# all can be active together: 15 > 20 - 2 - 5 = 13; reported as
# 15 - 2 = 13 needed, 13 - 2 = 11 free.  Cell (1,0) fits (9 + 2 + 2 = 13).
refuse pcts "cell (2,0): needs 13 PCTs at once but 11 are free (20 - RTS 2 - barriers 5 - deposit 0 - hoisted 2): task 'a2a' netgroup 'p12' (9), parent 'root' external (1), barrier 'root' ring (1), barrier 'a2a' ring (1), barrier 'root:left+2' ring (1)"
# (1,0)->(2,0) carries n.c0, n.c1 (cell 0 -> 2) and n.c2 (1 -> 2):
# 1/2 + 1/2 + 1/3 = 4/3; (0,0)->(1,0) carries 1/2 + 1/2 = 1 (fits)
# = 6/12 + 6/12 + 4/12 = 16/12 = 4/3
refuse bandwidth "link (1,0)->(2,0) X+: connections n.c0 (1/2), n.c1 (1/2), n.c2 (1/3) request 4/3 of the link in netgroup 'g'"
# l0 ... l4 nested, all on (0,0): five barriers pending together
refuse slots "cell (0,0): member of 5 barriers that can be pending together ('l0', 'l1', 'l2', 'l3', 'l4'); at most 4 (tcs.barrier_slots)"
TCS_CASE=slots "$link" "$cases" --mce-set=tcs.barrier_slots=5 > "$TMP/r" 2>&1
expect_eq "slots: fits with tcs.barrier_slots = 5" $? 0
# the reservations shrink with the keys: 20 - 2 - (1 + 5) = 12 free
expect_grep "slots: reservation follows the key" \
    "RTS 2, barriers 6, deposit 0, connections 12 (PCTs 8-19)" "$TMP/r"

# ---- tcs_free_pcts -----------------------------------------------------------
# whole-array task on 2D rings: barriers 1 + 4 (W 4.5.4) + 1 (the column
# ring's in; its out is the barrier out PCT, re-pointed: W 4.5.3.3 "a
# single additional PCT", design 6.4, 8.8); deposits 9
TCS_CASE=pctsfree "$cases" $N > "$TMP/f" 2>&1
expect_eq "pctsfree status" $? 0
expect_grep "free PCTs with a 2D barrier" \
    "free PCTs, 2D whole-array barrier: $((20 - 2 - 6))" "$TMP/f"
expect_grep "free PCTs with deposits" \
    "free PCTs, with deposits: $((20 - 2 - 6 - 9))" "$TMP/f"
expect_grep "free PCTs of a bad cell" "free PCTs, cell 64: -1" "$TMP/f"
TCS_CASE=pctsfree "$link" "$cases" > "$TMP/f" 2>&1
# numbering: RTS 0-1, barrier out 2, in 3-6, 2D column in 7, deposit 8-16
expect_grep "reserved PCT numbers" \
    "reserved PCTs: RTS 0-1, barrier out 2, barrier in 3-6 (slots 0-3), 2D column in 7, deposit 8-16" "$TMP/f"
expect_grep "whole array on 2D rings" "barrier 'all' members 64 ring 2d" "$TMP/f"

# ---- the fitting example: ball_front ---------------------------------------------
"$link" "$front" > "$TMP/b" 2>"$TMP/be"
expect_eq "ball_front links" $? 0
"$front" $N --mce-tcs=link > "$TMP/b2" 2>&1
expect_eq "--mce-tcs=link = tcs-link" "$(cmp -s "$TMP/b" "$TMP/b2"; echo $?)" 0
"$link" > "$TMP/u" 2>&1
expect_eq "tcs-link without a program: status" $? 2
expect_grep "tcs-link without a program: usage" "tcs-link PROG" "$TMP/u"
"$link" "$TMP/no-such-prog" > "$TMP/u" 2>&1
expect_eq "tcs-link on a missing program: status" $? 2
expect_grep "tcs-link on a missing program: message" \
    "tcs-link: $TMP/no-such-prog: no such program" "$TMP/u"
run 2 "$front" $N --mce-tcs=link > "$TMP/b3" 2>&1
expect_eq "report on 2 ranks = 1 rank" "$(cmp -s "$TMP/b" "$TMP/b3"; echo $?)" 0
run 4 "$front" $N --mce-tcs=link > "$TMP/b3" 2>&1
expect_eq "report on 4 ranks = 1 rank" "$(cmp -s "$TMP/b" "$TMP/b3"; echo $?)" 0
# H of a route: hops 4 inside a 2 x 2 board, 6 across, + 1 per turn
H() { awk -v s="$1" 'BEGIN { n = split(s, c, " "); h = 0
    for (i = 1; i + 3 <= n; i += 2) {
        same = int(c[i] / 2) == int(c[i + 2] / 2) && int(c[i + 1] / 2) == int(c[i + 3] / 2)
        h += same ? 4 : 6 }
    print h + (n >= 6 && c[1] != c[n - 1] && c[2] != c[n] ? 1 : 0) }'; }
# route lines: route, PCTs, with H.  PCTs: lowest free from 7 among the
# uses of the cell that can be active together; ball_detect's netgroups
# 'filter' and 'collect' never are, so reduce.* reuse scatter's PCTs.
#   gather (0,0)->(1,0): 7, 7.  pack (2,0)->(3,0): 7, 7.
#   scatter c0..c2 from (4,0) X+: sources 7, 8, 9; through (5,0) 8, 9;
#   through (6,0) 8.  reduce c0 (4,1) Y- (4,0): 7, 7; reduce c1 (5,1):
#   Y-X- (load 0) beats X-Y- (its Y- link is reduce c0's): 7, 7, 8.
#   video_in's external (1,0)->(2,0): 8 on both (after gather, pack);
#   the application's (3,0)->(4,0): 8, then 10 on (4,0) (7-9 scatter).
while IFS='|' read -r head path lat bw pcts; do
    want="$head: $path; latency $(H "$lat"); bw $bw; pcts $pcts"
    expect_grep "route $head" "^$want\$" "$TMP/b"
done <<'EOF'
route 'sample_camera'/'sample' gather.c0|(0,0) X+ (1,0)|0 0 1 0|-|(0,0):7 (1,0):7
route 'pack_pixels'/'pack' pack.c0|(2,0) X+ (3,0)|2 0 3 0|-|(2,0):7 (3,0):7
route 'ball_detect'/'filter' scatter.c0|(4,0) X+ (5,0)|4 0 5 0|-|(4,0):7 (5,0):7
route 'ball_detect'/'filter' scatter.c1|(4,0) X+ (5,0) X+ (6,0)|4 0 5 0 6 0|-|(4,0):8 (5,0):8 (6,0):7
route 'ball_detect'/'filter' scatter.c2|(4,0) X+ (5,0) X+ (6,0) X+ (7,0)|4 0 5 0 6 0 7 0|-|(4,0):9 (5,0):9 (6,0):8 (7,0):7
route 'ball_detect'/'collect' reduce.c0|(4,1) Y- (4,0)|4 1 4 0|-|(4,1):7 (4,0):7
route 'ball_detect'/'collect' reduce.c1|(5,1) Y- (5,0) X- (4,0)|5 1 5 0 4 0|-|(5,1):7 (5,0):7 (4,0):8
route 'video_in'/external sample_camera.out->pack_pixels.in|(1,0) X+ (2,0)|1 0 2 0|-|(1,0):8 (2,0):8
route 'application'/external video_in.pixels->ball_detect.pixels|(3,0) X+ (4,0)|3 0 4 0|1/2|(3,0):8 (4,0):10
EOF
expect_eq "reduce.c1 turns once: H = 4 + 4 + 1" "$(H '5 1 5 0 4 0')" 9
# phase 0 = everything but 'collect': loads on the row; shares: scatter
# 1/3 of (4,0)->(5,0) (3 connections), the application's reserved 1/2;
# link rate 4 bytes / 2 clocks
bw() { awk -v s="$1" 'BEGIN { split(s, f, "/"); printf "%.3f", 4 / 2 * f[1] / f[2] }'; }
for l in "(3,0)->(4,0) X+ load 1 reserved 1/2" "(4,0)->(5,0) X+ load 3 reserved 0/1" \
         "(5,0)->(6,0) X+ load 2 reserved 0/1" "(6,0)->(7,0) X+ load 1 reserved 0/1"; do
    expect_grep "phase 0 link $l" "^  link $l\$" "$TMP/b"
done
expect_grep "phase 0 scatter.c2 bandwidth" \
    "conn scatter.c2 hops 3 latency $(H '4 0 5 0 6 0 7 0') kappa 1 bandwidth $(bw 1/3) bytes/clock" "$TMP/b"
expect_grep "phase 0 reserved bandwidth" \
    "conn video_in.pixels->ball_detect.pixels hops 1 latency 6 kappa 1 bandwidth $(bw 1/2) bytes/clock" "$TMP/b"
expect_grep "phase 0 longest path (scatter.c2)" \
    "max path latency $(H '4 0 5 0 6 0 7 0') clocks, kappa max 1, no throttling" "$TMP/b"
expect_grep "phase 1 has collect, not filter" \
    "^phase 1: 'sample_camera'/'sample' 'pack_pixels'/'pack' 'ball_detect'/'collect' 'video_in'/external 'application'/external\$" "$TMP/b"
expect_grep "phase 1 longest path (reduce.c1)" \
    "max path latency 9 clocks, kappa max 1, no throttling" "$TMP/b"
# barrier rings: the snake on 4 x 2; (0,0) holds video_in (slot 0),
# sample_camera (1), the application's {video_in, ball_detect} (2) and
# video_in's {sample_camera, pack_pixels} (3)
expect_grep "ball_detect snake ring" \
    "barrier 'ball_detect' members 8 ring 1d: (4,0)/0 (5,0)/0 (6,0)/0 (7,0)/0 (7,1)/0 (6,1)/0 (5,1)/0 (4,1)/0" "$TMP/b"
expect_grep "siblings' barrier" \
    "barrier 'video_in:sample_camera+1' members 4 ring 1d: (0,0)/3 (1,0)/3 (2,0)/3 (3,0)/3" "$TMP/b"
# the application barrier's hop (7,1) -> (0,0) goes by the wrap link and
# (0,1), a cell of no task: hoisted to the application
expect_grep "hoisted ring hop" \
    "ring barrier 'application:video_in+1' hop 11: (7,1) X+ (0,1) Y- (0,0); through pcts (0,1):7(hoisted by 'application')" "$TMP/b"
# the PCT table of (4,0): 3 scatter sources, 2 reduce ends on 7 and 8,
# the application's input on 10, the application ring hop through on 11
expect_grep "PCT table of (4,0)" \
    "^cell (4,0): 7=scatter.c0\[src\] 8=scatter.c1\[src\] 9=scatter.c2\[src\] 7=reduce.c0\[dst\] 8=reduce.c1\[dst\] 10=video_in.pixels->ball_detect.pixels\[dst\] 11=barrier 'application:video_in+1' hop 7\$" "$TMP/b"

# ---- DQ congestion: three connections through (1,1), one turning --------------
# pre (0,1)->(0,2) first; then x (0,1)->(2,1) and y (1,0)->(1,2) straight;
# t (0,1)->(1,2): X+Y+ (loads 1, 1) ties Y+X+ (loads 1, 0) on the largest
# load and the hops: X-then-Y wins and turns in (1,1): kappa 3 > 2.
TCS_CASE=kappa "$link" "$cases" > "$TMP/k" 2>&1
expect_eq "kappa status" $? 0
expect_grep "kappa of (1,1)" "^  kappa (1,1) 3\$" "$TMP/k"
expect_grep "t turns in (1,1)" "route 'k'/'g' n.c3: (0,1) X+ (1,1) Y+ (1,2); latency $(H '0 1 1 1 1 2')" "$TMP/k"
expect_grep "throttle warning" \
    "max path latency 11 clocks, kappa max 3, warning: DQ congestion 3 > iwarp.dq_fair_max 2, every connection of the phase throttled to 1/3" "$TMP/k"
TCS_CASE=kappa "$cases" $N > "$TMP/k" 2>&1
expect_eq "kappa: runs" $? 0
expect_grep "kappa: start-up warning" \
    "mcemu: tcs-link: warning: phase 0 has DQ congestion 3 > iwarp.dq_fair_max 2: its connections are throttled to 1/3" "$TMP/k"
TCS_CASE=kappa "$link" "$cases" > "$TMP/k" 2>&1
expect_grep "x capped by kappa" "conn n.c1 hops 2 latency 10 kappa 3 bandwidth $(bw 1/3) bytes/clock" "$TMP/k"

# ---- a task declared by cells; ties round the torus ------------------------
# pair = {(0,0), (2,0)} inside row = (0,0)-(7,0).  n.c0 (0,0) -> (2,0):
#   X+ (2 hops) beats X- (6); (1,0) is not pair's: hoisted to row;
#   H = 4 + 6.  m.c0 (0,0) -> (4,0): X+ and X- both 4 hops; X+ carries
#   n.c0 (a child's connection: coexists), X- nothing: X-, H = wrap 6 +
#   4 + 6 + 4 = 20.  m.c1: both ways carry one: the tie goes to the first
#   candidate, X+, H = 4 + 6 + 4 + 6 = 20.  PCTs in use order from 7.
TCS_CASE=list "$link" "$cases" > "$TMP/l" 2>&1
expect_eq "list: status" $? 0
while read -r want; do
    expect_grep "list: ${want%%:*}" "^$want\$" "$TMP/l"
done <<'EOF'
route 'pair'/'g' n.c0: (0,0) X+ (1,0) X+ (2,0); latency 10; bw -; pcts (0,0):7 (1,0):7(hoisted by 'row') (2,0):7
route 'row'/'h' m.c0: (0,0) X- (7,0) X- (6,0) X- (5,0) X- (4,0); latency 20; bw -; pcts (0,0):8 (7,0):7 (6,0):7 (5,0):7 (4,0):7
route 'row'/'h' m.c1: (0,0) X+ (1,0) X+ (2,0) X+ (3,0) X+ (4,0); latency 20; bw -; pcts (0,0):9 (1,0):8 (2,0):8 (3,0):7 (4,0):8
EOF

# ---- normal runs -----------------------------------------------------------------
"$front" $N > "$TMP/n" 2>&1
expect_eq "ball_front runs" $? 0
expect_grep "ball_front allocations" "task pack_pixels cells (2,0)-(3,0) inside video_in" "$TMP/n"
# the run time carries the pixel 100 through three increments (sample,
# pack, pack) to ball_detect, and ranks 4 and 5 answer after 'collect'
expect_grep "ball_front runs its tasks" "ball_detect got pixel 103, results 4 5 at" "$TMP/n"
"$front" --mce-nodes=4 --mce-machine=ideal > "$TMP/n" 2>&1
expect_eq "TCS on a non-iWarp machine: status" $? 2
expect_grep "TCS on a non-iWarp machine: message" \
    "machine 'ideal': personality 'tcs' (tcs.h) runs on protocol 'iwarp' only" "$TMP/n"
"$front" --mce-help > "$TMP/n" 2>&1
expect_grep "--mce-help lists --mce-tcs" "--mce-tcs=run|link" "$TMP/n"
# --format=csv|json (apps/opts.c): the allocations as rows, the same
# numbers as the table.
FMT_NUMBERS=1
expect_formats "ball_front" "ball_front: task " ball_front_task \
    "$front" --mce-nodes=64
FMT_NUMBERS=0
finish
