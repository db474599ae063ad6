#!/bin/sh
# The TCS run time (include/tcs.h; doc/design/iwarp-tcs.md, sections 8.4
# and 10.3), with tests/progs/tcs_rt (TCS_CASE picks the program):
#   ports: a write to a port whose connection is not in the active
#     netgroup returns TCS_EINACTIVE (-3) with the exact message, before
#     any switch ("no netgroup is active") and after one (naming both
#     netgroups); reading an output port is TCS_EINVAL (-2); after the
#     switch a word crosses the 1-hop connection and arrives at the time
#     computed here from the machine file's costs: write at 10000 +
#     gate_bind (the lazy binding of W0) + 2 gate_op + gate_in +
#     word_time + gate_out + hop_board;
#   start: starting a task that is not a child of the running task is
#     TCS_ENOTCHILD (-4), starting it on a cell outside its allocation
#     TCS_EOUTSIDE (-5), each with its exact message; a child and its
#     child run (rank 0 of 1) and return TCS_OK;
#   light (W 7.3.1, TCS_LIGHT): a 2-cell light child begins at 1000 +
#     light_change + pct_config (its one PCT per cell) + barrier_lookup +
#     the 2-cell ring barrier (barrier_startup + barrier_loop + 2 gate_op +
#     gate_in + word_time + gate_out + hop_board), its netgroup active (a
#     word crosses without a switch); its end costs the barrier +
#     light_restore; a 1-cell light child costs solo_start and solo_end.
. "$top_srcdir/tests/lib.sh"

rt=$B/tests/progs/tcs_rt
conf=$top_srcdir/share/machines/iwarp.conf
N=--mce-nodes=64
key() { awk -v k="$1" '$1 == k && $2 == "=" { print $3; exit }' "$conf"; }

TCS_CASE=ports "$rt" $N > "$TMP/p" 2>&1
expect_eq "ports: status" $? 0
expect_grep "ports: handles" "tcs_rt: size 2, handles o 0 p 1" "$TMP/p"
expect_grep "ports: inactive before a switch" "tcs_rt: write before a switch: -3" "$TMP/p"
expect_grep "ports: message before a switch" \
    "mcemu: cell (0,0): tcs_write: port 'o' (task 't' cell 0): connection 'n1.c0' is in netgroup 'g1'; no netgroup is active" "$TMP/p"
expect_grep "ports: inactive port" "tcs_rt: write to an inactive port: -3" "$TMP/p"
expect_grep "ports: TCS_EINACTIVE message" \
    "mcemu: cell (0,0): tcs_write: port 'p' (task 't' cell 0): connection 'n2.c0' is in netgroup 'g2'; the active netgroup is 'g1'" "$TMP/p"
expect_grep "ports: read from an output" "tcs_rt: read from an output port: -2" "$TMP/p"
expect_grep "ports: its message" "mcemu: cell (0,0): tcs_read: port 'o' (task 't' cell 0) is an output" "$TMP/p"
expect_grep "ports: write to the active port" "tcs_rt: write to 'o': 0" "$TMP/p"
t=$((10000 + $(key iwarp.gate_bind) + 2 * $(key iwarp.gate_op) + $(key iwarp.gate_in) + \
    $(key iwarp.word_time) + $(key iwarp.gate_out) + $(key iwarp.hop_board)))
expect_grep "ports: the word and its time ($t)" "tcs_rt: cell 1 read 42 at $t" "$TMP/p"

TCS_CASE=start "$rt" $N > "$TMP/s" 2>&1
expect_eq "start: status" $? 0
expect_grep "start: not a child" "tcs_rt: p starts g: -4" "$TMP/s"
expect_grep "start: its message" \
    "mcemu: cell (0,0): tcs_start: task 'g' is not a child of the running task 'p' (its parent is 'c')" "$TMP/s"
expect_grep "start: outside the allocation" "tcs_rt: p starts c on cell 1: -5" "$TMP/s"
expect_grep "start: its message" \
    "mcemu: cell (1,0): tcs_start: task 'c' does not run on this cell: its allocation does not hold (1,0)" "$TMP/s"
expect_grep "start: the child runs" "tcs_rt: c runs on cell 0" "$TMP/s"
expect_grep "start: the grandchild runs" "tcs_rt: g runs on cell 0 (rank 0 of 1)" "$TMP/s"
expect_grep "start: the grandchild ends" "tcs_rt: c starts g: 0" "$TMP/s"
expect_grep "start: the child ends" "tcs_rt: p starts c: 0" "$TMP/s"
TCS_CASE=light "$rt" $N > "$TMP/l" 2>&1
expect_eq "light: status" $? 0
bar=$(($(key tcs.barrier_startup) + $(key tcs.barrier_loop) + 2 * $(key iwarp.gate_op) + \
    $(key iwarp.gate_in) + $(key iwarp.word_time) + $(key iwarp.gate_out) + $(key iwarp.hop_board)))
t=$((1000 + $(key tcs.light_change) + $(key iwarp.pct_config) + $(key tcs.barrier_lookup) + bar))
expect_grep "light: start on cell 0 ($t)" "tcs_rt: l began on cell 0 at $t" "$TMP/l"
expect_grep "light: start on cell 1 ($t)" "tcs_rt: l began on cell 1 at $t" "$TMP/l"
expect_grep "light: its netgroup is active" "tcs_rt: l read 7" "$TMP/l"
t=$((3000 + bar + $(key tcs.light_restore)))
expect_grep "light: end ($t)" "tcs_rt: p resumed on cell 1 at $t" "$TMP/l"
expect_grep "light: one cell starts in solo_start" "tcs_rt: s began at $((5000 + $(key tcs.solo_start)))" "$TMP/l"
expect_grep "light: and ends in solo_end" "tcs_rt: p resumed after s at $((6000 + $(key tcs.solo_end)))" "$TMP/l"
finish
