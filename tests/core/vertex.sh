#!/bin/sh
# Vertex personality on the NCUBE model: routing, broadcast, ntest,
# buffer-pool back-pressure (vx_routes); the channel back to a sender
# lost while its acknowledgement waits for a buffer (vx_misuse hold, the
# same on 1, 2 and 4 ranks); argument errors with negative
# returns and messages naming call and node, extended Vertex and neighbour
# broadcast (vx_misuse); fatal misuse and the deadlock report; Vertex on
# a machine that is not an NCUBE; identical digests across layouts.
. "$top_srcdir/tests/lib.sh"

for n in 1 2 16 64; do
    "$B/tests/progs/vx_routes" --mce-nodes=$n > "$TMP/o" 2>&1
    expect_eq "vx_routes $n nodes status" $? 0
    expect_eq "vx_routes $n nodes all ok" "$(grep -c ' ok$' "$TMP/o")" $n
done
run 0 "$B/tests/progs/vx_routes" --mce-nodes=32 --mce-summary > "$TMP/ref" 2>&1
for np in 2 3; do
    run $np "$B/tests/progs/vx_routes" --mce-nodes=32 --mce-summary > "$TMP/o" 2>&1
    expect_eq "vx_routes digest on $np ranks" "$(summary_sans_ranks "$TMP/o")" \
        "$(summary_sans_ranks "$TMP/ref")"
done

"$B/tests/progs/vx_misuse" --mce-nodes=8 > "$TMP/o" 2>&1
expect_eq "vx_misuse status" $? 0
expect_eq "vx_misuse all ok" "$(grep -c 'vx_misuse: node [0-9]* ok' "$TMP/o")" 8
expect_grep "bad destination named" "node 0: nwrite: destination 8 out of range" "$TMP/o"
expect_grep "too big named" "node 0: nwrite: 30000 bytes do not fit the 27648-byte" "$TMP/o"
expect_grep "non-neighbour named" "node 0: send: node 3 is not a nearest neighbour" "$TMP/o"
expect_grep "channel mode named" "node 0: send: the channel to node 1 is in standard mode" "$TMP/o"

"$B/tests/progs/vx_misuse" nopost --mce-nodes=4 > "$TMP/o" 2>&1
[ $? -ne 0 ] && pass "unposted extended message fails" || fail "unposted extended message exit 0"
expect_grep "unposted message named" "node 1 at virtual time .*: Vertex send: extended message (type 1, 10 bytes) from node 0 arrived with no rcvreq posted" "$TMP/o"
"$B/tests/progs/vx_misuse" length --mce-nodes=4 > "$TMP/o" 2>&1
[ $? -ne 0 ] && pass "length mismatch fails" || fail "length mismatch exit 0"
expect_grep "length mismatch named" "Vertex rcvreq: posted 20 bytes of type 1, but node 0 sent 10 bytes" "$TMP/o"
$HANG "$B/tests/progs/vx_misuse" pool --mce-nodes=4 > "$TMP/o" 2>&1
expect_eq "exhausted pools deadlock" $? 3
expect_grep "sender waits for a buffer" "node 1: blocked in nwrite waiting for a 4000-byte communication buffer" "$TMP/o"
expect_grep "receiver waits in nread" "node 0: blocked in nread waiting for a message from any node of type 99" "$TMP/o"

# Mudge et al. 1987, section 3: while the acknowledgement of a length
# request waits for a buffer, the channel from the receiver back to the
# sender is lost: node 0's message to node 1 leaves only after node 0
# has freed a buffer (after its 200 ms of computing), not at 100 ms.
"$B/tests/progs/vx_misuse" hold --mce-nodes=2 > "$TMP/o" 2>&1
expect_eq "held channel status" $? 0
expect_grep "held channel: message after the buffer is freed" \
    "vx_misuse hold: node 1 got node 0's message at 210.727 ms: after node 0 freed a buffer" "$TMP/o"
run 0 "$B/tests/progs/vx_misuse" hold --mce-nodes=4 --mce-summary > "$TMP/ref" 2>&1
for np in 1 2 4; do
    run $np "$B/tests/progs/vx_misuse" hold --mce-nodes=4 --mce-summary > "$TMP/o" 2>&1
    expect_eq "held channel digest on $np ranks" "$(summary_sans_ranks "$TMP/o")" \
        "$(summary_sans_ranks "$TMP/ref")"
done

# Wide windows (the network's latency plus the least software time before
# a Vertex send: doc/ARCHITECTURE.md section 5.2) change how often ranks
# meet, never a virtual time: each program's digest is the same with
# narrow windows, on one rank and on two, and it needs fewer windows.
for cfg in "tests/progs/vx_routes --mce-nodes=16" \
    "apps/sobel_edge --mce-nodes=16 --sizes=32,64 --output=$TMP/s.pgm" \
    "apps/ring_vertex --mce-nodes=8"; do
    set -- $cfg
    prog=$1; shift
    name=$(basename "$prog")
    "$B/$prog" "$@" --mce-summary --mce-verbose --mce-windows=narrow > "$TMP/n" 2>&1
    "$B/$prog" "$@" --mce-summary --mce-verbose > "$TMP/w" 2>&1
    expect_eq "$name: wide windows, same digest" "$(summary_sans_ranks "$TMP/w")" \
        "$(summary_sans_ranks "$TMP/n")"
    run 2 "$B/$prog" "$@" --mce-summary --mce-windows=narrow > "$TMP/n2" 2>&1
    expect_eq "$name: narrow windows on 2 ranks, same digest" \
        "$(summary_sans_ranks "$TMP/n2")" "$(summary_sans_ranks "$TMP/n")"
    wn=$(sed -n 's/.* windows=\([0-9]*\).*/\1/p' "$TMP/n" | head -1)
    ww=$(sed -n 's/.* windows=\([0-9]*\).*/\1/p' "$TMP/w" | head -1)
    [ -n "$wn" ] && [ -n "$ww" ] && [ "$ww" -lt "$wn" ] &&
        pass "$name: fewer wide windows ($ww against $wn)" ||
        fail "$name: wide windows $ww, narrow $wn"
done

"$B/tests/progs/vx_routes" --mce-nodes=4 --mce-machine=ideal > "$TMP/o" 2>&1
[ $? -ne 0 ] && pass "Vertex on the ideal machine refused" || fail "Vertex ran on ideal"
expect_grep "refusal names the machine" "Vertex calls need an NCUBE machine" "$TMP/o"
"$B/tests/progs/vx_routes" --mce-nodes=6 > "$TMP/o" 2>&1
expect_eq "6 nodes refused" $? 2
expect_grep "hypercube size message" "the node count must be a power of two, not 6" "$TMP/o"
finish
