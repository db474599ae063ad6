#!/bin/sh
# The determinism contract: the same program prints the same summary line
# (digest and vtime_max_ps) in one process and under mpirun with 1, 2, 3
# and 4 ranks, with block and cyclic placement (64 ranks: ranks64.sh); and the ring's time equals the
# ideal formula R x (latency + B x per_byte + recv_overhead).
. "$top_srcdir/tests/lib.sh"

ring=$B/apps/ring
for cfg in "64 5 8" "64 3 1000" "13 4 33"; do
    set -- $cfg
    nodes=$1 rounds=$2 bytes=$3
    args="--mce-nodes=$nodes --rounds=$rounds --bytes=$bytes --mce-summary"
    run 0 "$ring" $args > "$TMP/ref" 2>&1 || fail "ring $cfg embedded run"
    ref=$(summary_sans_ranks "$TMP/ref")
    [ -n "$ref" ] || fail "ring $cfg: no summary line"
    # ideal.conf: latency 5 us, per_byte 10 ns, recv_overhead 1 us
    want=$((rounds * (5000000 + bytes * 10000 + 1000000)))
    expect_eq "ring $cfg vtime_max_ps" "$(field vtime_max_ps "$TMP/ref")" "$want"
    for np in 1 2 3 4; do
        for place in block cyclic; do
            [ "$np" -gt "$nodes" ] && continue
            run "$np" "$ring" $args --mce-placement=$place > "$TMP/out" 2>&1 ||
                fail "ring $cfg np=$np $place exited non-zero"
            expect_eq "ring $cfg np=$np $place summary" \
                "$(summary_sans_ranks "$TMP/out")" "$ref"
            expect_eq "ring $cfg np=$np $place ranks" \
                "$(field ranks "$TMP/out")" "$np"
        done
    done
done

# The machine models: NX on the iPSC/860 and the Paragon, Vertex on the
# NCUBE, on 1, 2, 3 and 4 ranks.
for cfg in "tests/progs/nx_api 8 --mce-machine=ipsc860" \
    "apps/shift_sync 16 --trials=4 --sizes=4096 --back-to-back --mce-set=nx.irq=1 --mce-set=ipsc.fc=1" \
    "apps/complete_exchange 16 --mce-machine=paragon --mce-set=paragon.width=4 --sizes=9000" \
    "tests/progs/vx_routes 16"; do
    set -- $cfg
    prog=$1 nodes=$2; shift 2
    run 0 "$B/$prog" --mce-nodes=$nodes --mce-summary "$@" > "$TMP/ref" 2>&1
    ref=$(summary_sans_ranks "$TMP/ref")
    [ -n "$ref" ] || fail "$prog: no summary line"
    for np in 1 2 3 4; do
        run $np "$B/$prog" --mce-nodes=$nodes --mce-summary "$@" > "$TMP/out" 2>&1
        expect_eq "$prog on $np ranks" "$(summary_sans_ranks "$TMP/out")" "$ref"
    done
done

# The window exchange through MPI collectives instead of shared memory
# (--mce-exchange=mpi; the default uses shared memory on one host): the
# same summaries, for a partitioned (ring) and a replicated (Paragon)
# model.
for cfg in "apps/ring 64 --rounds=5 --bytes=33" \
    "apps/complete_exchange 16 --mce-machine=paragon --mce-set=paragon.width=4 --sizes=9000"; do
    set -- $cfg
    prog=$1 nodes=$2; shift 2
    run 0 "$B/$prog" --mce-nodes=$nodes --mce-summary "$@" > "$TMP/ref" 2>&1
    for np in 2 3; do
        run $np "$B/$prog" --mce-nodes=$nodes --mce-summary --mce-exchange=mpi "$@" > "$TMP/out" 2>&1
        expect_eq "$(basename $prog) on $np ranks, --mce-exchange=mpi" \
            "$(summary_sans_ranks "$TMP/out")" "$(summary_sans_ranks "$TMP/ref")"
    done
done

# Many payloads in one window: the 12 x 12 naive exchange posts about
# 10,000 cross-rank payloads of 15,232 bytes at once, more than Open MPI's
# shared-memory FIFO holds.  A rank that has finished its receives must
# keep MPI progressing while it waits for the next window (the
# acknowledgements it owes its peer); without that the run hung.  The
# timeout guards against a hang only (the run takes about a second).
cx12="$B/apps/complete_exchange --mce-nodes=144 --mce-machine=paragon --mce-set=paragon.width=12 --alg=naive --sizes=15232 --mce-summary"
run 0 $cx12 > "$TMP/ref" 2>&1
TO=$HANG
$TO $MPIRUN -np 2 $cx12 > "$TMP/out" 2>&1
expect_eq "12 x 12 naive exchange on 2 ranks (10,000 payloads a window)" \
    "$(summary_sans_ranks "$TMP/out")" "$(summary_sans_ranks "$TMP/ref")"

# More ranks than cores (this machine's, as hwloc counts them): by default
# the nodes run on one rank per core and the rest wait asleep; the digest
# is the one-process digest, a warning says what happened, and the
# partitioned ideal network and the replicated NCUBE-free Paragon both
# work that way.  Without a launcher the run is one process.
cores=$(nproc)
over=$((cores + 2)) # (run sets np)
for cfg in "apps/ring 64 --rounds=5" \
    "apps/sobel_edge 16 --sizes=32 --output=$TMP/s.pgm" \
    "apps/complete_exchange 16 --mce-machine=paragon --mce-set=paragon.width=4 --sizes=9000"; do
    set -- $cfg
    prog=$1 nodes=$2; shift 2
    name=$(basename "$prog")
    run 0 "$B/$prog" --mce-nodes=$nodes --mce-summary "$@" > "$TMP/ref" 2>&1
    MCE_OVERSUBSCRIBED=pack run $over "$B/$prog" --mce-nodes=$nodes --mce-summary \
        --mce-verbose "$@" > "$TMP/out" 2>&1
    expect_eq "$name: $over ranks on $cores cores, packed" \
        "$(summary_sans_ranks "$TMP/out")" "$(summary_sans_ranks "$TMP/ref")"
    expect_grep "$name: packing announced" \
        "the virtual nodes run on $cores of them" "$TMP/out"
    expect_eq "$name: nodes on $cores ranks" \
        "$(grep -c '^mcemu: rank [0-9]* on' "$TMP/out")" "$cores"
done
# Partitioned windows cross ranks with one reduction each, and packed
# descriptors only between ranks that talk.
run 2 "$ring" --mce-nodes=64 --rounds=5 --mce-verbose > "$TMP/out" 2>&1
w=$(sed -n 's/.* windows=\([0-9]*\).*/\1/p' "$TMP/out")
c=$(sed -n 's/.* collectives=\([0-9]*\).*/\1/p' "$TMP/out")
p=$(sed -n 's/.* p2p_msgs=\([0-9]*\).*/\1/p' "$TMP/out")
expect_eq "ring on 2 ranks: one collective per window" "$c" "$w"
expect_eq "ring on 2 ranks: one packed message per window with traffic" "$p" 5

# Quiet ranks (replicated models over shared memory): a rank whose nodes
# have nothing to do in a window publishes nothing and nobody waits for
# it.  Which windows those are follows from virtual time alone, so rank 0's
# count is the same in every run; the summary stays the one-process one;
# each window is either a collective or quiet for a rank; and
# --mce-exchange=mpi, whose collectives wait for every rank, has none.
md=$B/apps/tcs/motion_detect
run 0 "$md" --mce-summary > "$TMP/ref" 2>&1
for place in block cyclic; do
    run 2 "$md" --mce-summary --mce-verbose --mce-placement=$place \
        > "$TMP/out" 2>&1
    expect_eq "motion_detect on 2 ranks, $place: summary" \
        "$(summary_sans_ranks "$TMP/out")" "$(summary_sans_ranks "$TMP/ref")"
    w=$(sed -n 's/.* windows=\([0-9]*\).*/\1/p' "$TMP/out")
    c=$(sed -n 's/.* collectives=\([0-9]*\).*/\1/p' "$TMP/out")
    q=$(sed -n 's/.* quiet_windows=\([0-9]*\).*/\1/p' "$TMP/out")
    if [ -n "$q" ] && [ "$q" -gt 0 ] && [ $((c + q)) -ge "$w" ]; then
        pass "motion_detect on 2 ranks, $place: $q quiet windows of $w"
    else
        fail "motion_detect on 2 ranks, $place: quiet=$q collectives=$c windows=$w"
    fi
    run 2 "$md" --mce-summary --mce-verbose --mce-placement=$place \
        > "$TMP/again" 2>&1
    expect_eq "motion_detect on 2 ranks, $place: quiet windows again" \
        "$(sed -n 's/.* quiet_windows=\([0-9]*\).*/\1/p' "$TMP/again")" "$q"
done
run 2 "$md" --mce-verbose --mce-exchange=mpi > "$TMP/out" 2>&1
expect_eq "motion_detect on 2 ranks, --mce-exchange=mpi: no quiet window" \
    "$(sed -n 's/.* quiet_windows=\([0-9]*\).*/\1/p' "$TMP/out")" 0

# Digest sensitivity: a different size must change the digest.
run 0 "$ring" --mce-nodes=64 --rounds=5 --bytes=9 --mce-summary > "$TMP/a" 2>&1
run 0 "$ring" --mce-nodes=64 --rounds=5 --bytes=8 --mce-summary > "$TMP/b" 2>&1
if [ "$(field digest "$TMP/a")" != "$(field digest "$TMP/b")" ]; then
    pass "digest depends on message times"
else
    fail "digest identical for different runs"
fi
finish
