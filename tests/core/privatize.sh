#!/bin/sh
# Several nodes in one process each see their own copy of the program's
# globals (small segment: copy method; 256 KiB array: memfd method), and
# --mce-privatize=off really shares them (so the test above can fail).
. "$top_srcdir/tests/lib.sh"

g=$B/tests/progs/globals
"$g" --mce-nodes=4 > "$TMP/o" 2>&1; expect_eq "copy privatisation status" $? 0
expect_eq "copy privatisation: 4 nodes ok" "$(grep -c ' ok$' "$TMP/o")" 4
"$g" big --mce-nodes=4 > "$TMP/o" 2>&1; expect_eq "memfd privatisation status" $? 0
expect_eq "memfd privatisation: 4 nodes ok" "$(grep -c ' ok$' "$TMP/o")" 4
"$g" --mce-nodes=4 --mce-privatize=off > "$TMP/o" 2>&1
expect_eq "shared globals are detected" "$(grep -c 'MIXED' "$TMP/o")" 4
$MPIRUN -np 2 "$g" --mce-nodes=6 > "$TMP/o" 2>&1
expect_eq "2 ranks x 3 nodes status" $? 0
expect_eq "2 ranks x 3 nodes ok" "$(grep -c ' ok$' "$TMP/o")" 6
$MPIRUN -np 3 "$g" --mce-nodes=3 --mce-privatize=off > "$TMP/o" 2>&1
expect_eq "one node per rank needs no privatisation" "$(grep -c ' ok$' "$TMP/o")" 3
finish
