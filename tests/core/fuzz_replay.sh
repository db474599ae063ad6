#!/bin/sh
# The NX and Vertex argument fuzz harness's corpus, replayed (issue 19):
# tests/fuzz/fuzz_calls.c built as a check program runs every input of
# tests/fuzz/corpus/calls in a forked child on a booted engine and checks
# that it ends in a documented way (status 0; 1 with a "mcemu:" line; 3
# with a deadlock or livelock report; 4 with a limit) and, under the
# sanitizers, without a report or a leak.  Named seeds also check which
# end they reach.  No clang needed (make fuzz runs the fuzzer itself).
. "$top_srcdir/tests/lib.sh"

R=$B/tests/fuzz/fuzz_calls_replay
C=$top_srcdir/tests/fuzz/corpus/calls
"$R" "$C" > "$TMP/o" 2>&1
expect_eq "corpus replay: status" $? 0
n=$(ls "$C" | wc -l)
expect_grep "corpus replay: every input has a documented end" \
    "^replayed $n inputs: .*, 0 without a documented end$" "$TMP/o"
while read -r seed want; do
    expect_grep "seed $seed: $want" "^$C/$seed: $want\$" "$TMP/o"
done <<'LIST'
nx_pingpong success (status 0)
nx_async success (status 0)
nx_gops success (status 0)
nx_hostile success (status 0)
nx_plain_gop_overflow mcemu error (status 1)
nx_deadlock deadlock/livelock (status 3)
nx_livelock deadlock/livelock (status 3)
nx_handlers success (status 0)
nx_collect success (status 0)
vx_standard success (status 0)
vx_extended success (status 0)
vx_hostile success (status 0)
nc2_global success (status 0)
nc2_extended_refused mcemu error (status 1)
vx_unread_leak success (status 0)
vx_xchg success (status 0)
vx_xbcast success (status 0)
vx_burst success (status 0)
vx_burst_bcast success (status 0)
vx_small_pool success (status 0)
vx_pool_deadlock deadlock/livelock (status 3)
nx_irq success (status 0)
LIST

# What the ends say.
FUZZ_VERBOSE=1 "$R" "$C/nx_plain_gop_overflow" "$C/nx_livelock" \
    "$C/nc2_extended_refused" "$C/vx_hostile" "$C/vx_pool_deadlock" \
    "$C/nx_irq" > "$TMP/o" 2>&1
expect_grep "plain gdsum overflow: named" \
    "^mcemu: node 0 at virtual time .*: NX gdsum: 2305843009213693953 elements of 8 bytes overflow the byte count" \
    "$TMP/o"
expect_grep "iprobe loop: livelock report" \
    "^mcemu:   node 0: polling in iprobe since virtual time" "$TMP/o"
expect_grep "extended Vertex on the NCUBE 2: refused" \
    "chanmode: extended Vertex .* is NCUBE/ten's" "$TMP/o"
expect_grep "Vertex bad arguments: one diagnostic each" \
    "^mcemu: node 3: bcast: mask 0xfffff000 names no dimension" "$TMP/o"
expect_grep "pool deadlock: the nwrite waiting for a buffer" \
    "^mcemu:   node 0: blocked in nwrite waiting for a 4096-byte communication buffer" \
    "$TMP/o"
expect_grep "settings record: a key of the machine's tables, in range" \
    "^fuzz_calls: options: .* --mce-set=nx.irq=1 --mce-set=nx.irq_period=625000000ps" \
    "$TMP/o"
finish
