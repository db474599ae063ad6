#!/bin/sh
# Stacks at scale.  Each stack has a guard below it: a guard marker where
# the kernel has them (Linux 6.13), which does not split the stacks'
# mapping, else a PROT_NONE range, which does (two mappings a stack);
# beyond the kernel's mapping budget (vm.max_map_count, about 65,530)
# such stacks are pooled, with a canary zone below each.  65,536 nodes
# run in one process either way, and an overflow is reported with the
# node and its virtual time: at the fault in a guard, or for a pooled
# stack that only damaged its canary, at the node's next switch.
# MCEMU_GUARD_MARKERS=0 leaves the markers out (guards by mprotect, so
# pooled at 65,536 nodes); MCEMU_POOLED_STACKS=1 forces the pooled layout
# at small scale: same digest as guarded stacks.
. "$top_srcdir/tests/lib.sh"

ov=$B/tests/progs/overflow
msg="node 1 overflowed its 1048576-byte stack at virtual time"

for mode in "" shallow; do
    name=${mode:-deep}
    for markers in 1 0; do
        MCEMU_GUARD_MARKERS=$markers "$ov" $mode --mce-nodes=65536 > "$TMP/o" 2>&1
        rc=$?
        [ $rc -ne 0 ] && pass "65536 nodes (markers $markers), $name overflow exits non-zero ($rc)" ||
            fail "65536 nodes (markers $markers), $name overflow exit 0"
        expect_grep "65536 nodes (markers $markers), $name overflow names node and time" "$msg" "$TMP/o"
    done
    MCEMU_GUARD_MARKERS=0 "$ov" $mode --mce-nodes=2 > "$TMP/o" 2>&1
    expect_grep "PROT_NONE guards, 2 nodes, $name overflow names node and time" "$msg" "$TMP/o"
    MCEMU_POOLED_STACKS=1 "$ov" $mode --mce-nodes=2 > "$TMP/o" 2>&1
    expect_grep "pooled 2 nodes, $name overflow names node and time" "$msg" "$TMP/o"
done
expect_grep "pooled: shallow overflow found at the node's end" \
    "$msg 0.000008000000 s" "$TMP/o"
"$ov" shallow --mce-nodes=2 > "$TMP/o" 2>&1
expect_grep "guarded: shallow overflow found at the fault" \
    "$msg 0.000007000000 s" "$TMP/o"
MCEMU_GUARD_MARKERS=0 "$ov" shallow 262144 --mce-nodes=65536 --mce-stack-size=256K > "$TMP/o" 2>&1
expect_grep "65536 nodes, 256 KiB stacks, pooled" \
    "node 1 overflowed its 262144-byte stack at virtual time 0.000008000000 s" "$TMP/o"
"$ov" shallow 262144 --mce-nodes=65536 --mce-stack-size=256K > "$TMP/o" 2>&1
expect_grep "65536 nodes, 256 KiB stacks" \
    "node 1 overflowed its 262144-byte stack at virtual time 0.00000[78]000000 s" "$TMP/o"

"$B/apps/ring" --mce-nodes=65536 --rounds=1 --mce-summary > "$TMP/o" 2>&1
expect_eq "65536-node ring status" $? 0
expect_grep "65536-node ring summary" "machine=ideal nodes=65536 " "$TMP/o"

# ring_vertex beyond 1024 nodes: start and end handshakes up and down the
# cube's tree (node 0's buffers cannot take a message from every node).
"$B/apps/ring_vertex" --mce-nodes=2048 --rounds=1 --sizes=0,8 \
    --scheme=standard > "$TMP/o" 2>&1
expect_eq "2048-node Vertex ring status" $? 0
expect_grep "2048-node Vertex ring fit" "ring_vertex: standard fixed" "$TMP/o"

a=$("$B/apps/ring" --mce-nodes=64 --rounds=20 --mce-summary 2>&1 | grep digest=)
b=$(MCEMU_POOLED_STACKS=1 "$B/apps/ring" --mce-nodes=64 --rounds=20 \
    --mce-summary 2>&1 | grep digest=)
expect_eq "pooled stacks: same digest" "$b" "$a"
b=$(MCEMU_GUARD_MARKERS=0 "$B/apps/ring" --mce-nodes=64 --rounds=20 \
    --mce-summary 2>&1 | grep digest=)
expect_eq "PROT_NONE guards: same digest" "$b" "$a"
finish
