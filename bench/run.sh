#!/bin/sh
# mcemu benchmarks (make bench): figures are printed, never asserted.
#   - emulated 8-byte messages per wall second, 64- and 1024-node rings in
#     one process, and the 64-node ring on 2 ranks
#   - fiber context-switch cost
#   - resident memory per virtual node (4096 nodes in one process)
# Targets to report against: >= 1,000,000 messages/s in one process;
# 4096 nodes in one process under 1 GiB resident.
set -u
B=${top_builddir:-.}
MPIEXEC=${MPIEXEC:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
ring=$B/apps/ring

# ring_rate LABEL NODES ROUNDS [LAUNCH...]: prints messages per wall second
ring_rate() {
    label=$1 nodes=$2 rounds=$3; shift 3
    out=$("$@" "$ring" --mce-nodes="$nodes" --rounds="$rounds" --bytes=8 \
        --mce-verbose 2>/dev/null | grep 'wall_s=')
    wall=$(echo "$out" | sed 's/.*wall_s=\([0-9.]*\).*/\1/')
    rss=$(echo "$out" | sed 's/.*peak_rss_kib=\([0-9]*\).*/\1/')
    awk -v l="$label" -v n="$nodes" -v r="$rounds" -v w="$wall" -v k="$rss" 'BEGIN {
        m = n * r
        printf "%-34s %9d msgs in %7.3f s wall: %10.0f msgs/s (peak RSS %d KiB)\n",
            l, m, w, m / w, k }'
}

echo "== mcemu benchmarks ($(nproc) cores) =="
ring_rate "ring 64 nodes, 1 process" 64 40000
ring_rate "ring 1024 nodes, 1 process" 1024 2500
ring_rate "ring 64 nodes, --mce-privatize=off" 64 40000 env MCE_PRIVATIZE=off
ring_rate "ring 64 nodes, 2 ranks" 64 5000 "$MPIEXEC" -np 2
"$B/bench/ctxswitch" 10000000

# sobel_edge 512x512 on 64 NCUBE nodes (both schemes): wall time, 1 and 2 ranks.
sobel_wall() {
    label=$1; shift
    out=$("$@" "$B/apps/sobel_edge" --mce-nodes=64 --sizes=512 \
        --output="${TMPDIR:-/tmp}/mcemu-bench-sobel.pgm" --mce-verbose 2>/dev/null |
        grep 'wall_s=')
    echo "$out" | sed "s/.*wall_s=\([0-9.]*\).*peak_rss_kib=\([0-9]*\).*/sobel_edge 512x512, 64 nodes, $label: \1 s wall (peak RSS \2 KiB, rank 0)/"
}
sobel_wall "1 process"
sobel_wall "2 ranks" "$MPIEXEC" -np 2
rm -f "${TMPDIR:-/tmp}/mcemu-bench-sobel.pgm"

# Memory per node: 4096 nodes against 1 node, same program.
one=$("$ring" --mce-nodes=1 --rounds=10 --mce-verbose 2>/dev/null |
    sed -n 's/.*peak_rss_kib=\([0-9]*\).*/\1/p')
many=$("$ring" --mce-nodes=4096 --rounds=10 --mce-verbose 2>/dev/null |
    sed -n 's/.*peak_rss_kib=\([0-9]*\).*/\1/p')
awk -v a="$one" -v b="$many" 'BEGIN {
    printf "memory: 4096 nodes peak RSS %.1f MiB (1 node: %.1f MiB): %.1f KiB per node\n",
        b / 1024, a / 1024, (b - a) / 4095 }'

# The Paragon model under heavy contention: the naive complete exchange on
# 12 x 12 (143 x 144 = 20,592 messages of 15,232 bytes at once, Bokhari and
# Nicol 1996), wall time and messages (worms) per wall second.
out=$("$B/apps/complete_exchange" --mce-machine=paragon --mce-nodes=144 \
    --mce-set=paragon.width=12 --alg=naive --sizes=15232 --mce-verbose 2>&1 |
    grep 'wall_s=')
echo "$out" | sed 's/.*wall_s=\([0-9.]*\).*peak_rss_kib=\([0-9]*\).*/\1 \2/' |
    awk '{ printf "paragon naive complete exchange 12x12, 15232 B: %.2f s wall, %.0f messages/s (peak RSS %d MiB, mostly the program'"'"'s buffers)\n",
        $1, 20592 / $1, $2 / 1024 }'
