#!/bin/sh
# Bad arguments return error codes (no crash, outputs untouched); a stack
# overflow names the node and its virtual time; exit() ends only its node.
. "$top_srcdir/tests/lib.sh"

"$B/tests/progs/misuse" --mce-nodes=3 > "$TMP/o" 2>&1
expect_eq "misuse checks status" $? 0
expect_eq "misuse checks on both nodes" "$(grep -c 'misuse: node [01] ok' "$TMP/o")" 2

"$B/tests/progs/overflow" --mce-nodes=2 > "$TMP/o" 2>&1
rc=$?
[ $rc -ne 0 ] && pass "stack overflow exits non-zero ($rc)" || fail "stack overflow exit 0"
expect_grep "overflow names node and time" \
    "node 1 overflowed its 1048576-byte stack at virtual time 0.000007000000 s" "$TMP/o"
"$B/tests/progs/overflow" --mce-nodes=2 --mce-stack-size=256K > "$TMP/o" 2>&1
expect_grep "overflow with a smaller stack" "node 1 overflowed its 262144-byte stack" "$TMP/o"
finish
