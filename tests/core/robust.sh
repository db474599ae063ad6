#!/bin/sh
# Nothing lost, nothing hangs (issue 19): the bad-input table.  Each row
# gives a bad input or corner case and checks the documented error or
# behaviour, and that nothing else changed (the other nodes' results, the
# exit status).  Every run is bounded by timeout: a hang fails the row.
. "$top_srcdir/tests/lib.sh"

P=$B/tests/progs
T="timeout 60"

# ok_case CASE NODES [ARGS]: nx_robust CASE ends 0 with every node ok
ok_case() {
    c=$1 nodes=$2; shift 2
    $T "$P/nx_robust" "$c" --mce-nodes="$nodes" "$@" > "$TMP/o" 2>&1
    expect_eq "nx $c: status" $? 0
    expect_eq "nx $c: every node ok" \
        "$(grep -c "^nx_robust: $c node [0-9]* ok$" "$TMP/o")" "$nodes"
    if grep -q 'FAIL\|ERROR\|runtime error' "$TMP/o"; then
        fail "nx $c:"; sed 's/^/    | /' "$TMP/o"; fi
}

# ---- NX ------------------------------------------------------------------
ok_case mergemerge 2
ok_case mergemerge 4
ok_case exitpost 4
ok_case cancel2 2
ok_case gopovf 2
ok_case gcolxovf 2
ok_case negptype 2

$T "$P/nx_robust" gopovf_plain --mce-nodes=2 > "$TMP/o" 2>&1
expect_eq "nx gdsum overflow (plain form): status" $? 1
expect_grep "nx gdsum overflow: message names the call and the node" \
    "node 0 at virtual time .*NX gdsum: 2305843009213693953 elements of 8 bytes overflow the byte count" \
    "$TMP/o"

$T "$P/nx_robust" crash --mce-nodes=2 > "$TMP/o" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && pass "crash: non-zero status ($rc)" ||
    fail "crash: status $rc"
expect_grep "crash: the mcemu line names the node, signal and time" \
    "^mcemu: node 1 crashed with signal 8 (SIGFPE, arithmetic exception) at virtual time 0.000000000000 s" \
    "$TMP/o"

finish
