#!/bin/sh
# Two nodes that both receive first: the run ends non-zero (it does not
# hang: $HANG fails it if it does) and reports every node's wait state (call, what it waits for, virtual time).
. "$top_srcdir/tests/lib.sh"

for np in 0 2; do
    if [ "$np" = 0 ]; then
        $HANG "$B/tests/progs/recv_first" --mce-nodes=3 > "$TMP/out" 2>&1
    else
        $HANG $MPIRUN -np "$np" "$B/tests/progs/recv_first" \
            --mce-nodes=3 > "$TMP/out" 2>&1
    fi
    rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; then
        pass "np=$np deadlock exits non-zero ($rc)"
    else
        fail "np=$np deadlock exit status $rc (124: not reported, the run hung)"
    fi
    expect_grep "np=$np report header" "deadlock: every node is blocked" "$TMP/out"
    expect_grep "np=$np node 0 wait" \
        "node 0: blocked in mce_recv waiting for a message from node 1 of type 5 since virtual time 0.000000000000 s" "$TMP/out"
    expect_grep "np=$np node 1 wait" \
        "node 1: blocked in mce_recv waiting for a message from node 0 of type 5 since virtual time 0.000003000000 s" "$TMP/out"
    expect_grep "np=$np finished node listed" "node 2: finished with status 0" "$TMP/out"
done

# NX waits: msgwait (on an irecv) and cprobe, described when reported.
$HANG "$B/tests/progs/nx_deadlock" --mce-nodes=4 > "$TMP/out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; then
    pass "nx deadlock exits non-zero ($rc)"
else
    fail "nx deadlock exit status $rc (124: not reported, the run hung)"
fi
expect_grep "nx msgwait wait" \
    "node 0: blocked in msgwait waiting for message id [0-9]*: a message of type 7 from node -1 since virtual time" "$TMP/out"
expect_grep "nx cprobe wait" \
    "node 1: blocked in cprobe waiting for a message of type 9 from node -1 since virtual time" "$TMP/out"
expect_grep "nx finished nodes listed" "node 3: finished with status 0" "$TMP/out"
finish
