#!/bin/sh
# mcemu benchmarks (make bench): figures are printed, never asserted.
#   - the 8-byte ring in one process at 64 to 4096 nodes: messages per
#     wall second, ns per message against the fiber-switch floor (two
#     switches per message), and side by side with SimGrid's SMPI when
#     smpicc is installed (the same ring as an MPI program, bench/
#     smpi_ring.c, under smpirun on a generated cluster with SMPI's fastest
#     settings: no privatisation, raw contexts, no simulated computation),
#     the two alternated, best of each, ratio per node count
#   - fiber context-switch cost; privatisation cost per switch by size of
#     the globals (4 KiB to 16 MiB), globals switched and one dlopen'd copy
#     per node, and iwarp_barrier in both modes (bench/privatize.sh)
#   - resident memory per virtual node; 65,536 nodes in one process
#   - counted compute mode: the instrumentation's cost (bench/counted.sh)
#   - distributed runs: 1, 2 and 4 ranks, and a projection to 64 and 1024
#     (bench/scaling.sh)
# Targets to report against (issue 13): >= 30x SMPI at 64 nodes, >= 40x at
# 1024; the ring within 5x of the switch floor at 64 nodes; 65,536 nodes
# under 1 GiB peak RSS.
set -u
B=${top_builddir:-.}
S=$(cd "$(dirname "$0")" && pwd)
MPIEXEC=${MPIEXEC:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
ring=$B/apps/ring
T=$(mktemp -d "${TMPDIR:-/tmp}/mcemu-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

now() { date +%s.%N; }

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
sw=$("$B/bench/ctxswitch" 10000000)
echo "$sw"
# the floor in the same clock as the ring's rates below
if [ -x /usr/bin/time ]; then
    floor=$(echo "$sw" | sed -n 's/.*(\([0-9.]*\) ns CPU).*/\1/p' | head -1)
else
    floor=$(echo "$sw" | sed -n 's/.* \([0-9.]*\) ns per switch.*/\1/p' | head -1)
fi

# ---- the ring, mcemu and SMPI side by side ----------------------------------
# Time of ROUNDS rounds less that of one round (start-up excluded the same
# way for both), best of the alternated repetitions.  The time is the CPU
# time (user + system) of the run when /usr/bin/time is there, else wall
# time: on a shared machine the CPU time is what the run itself costs.
if [ -x /usr/bin/time ]; then
    clock="CPU"
    timed() { # CMD...: prints seconds
        /usr/bin/time -f "%U %S" -o "$T/time" "$@" > "$T/out" 2>&1 || return 1
        awk '{ printf "%.6f\n", $1 + $2 }' "$T/time"
    }
else
    clock="wall"
    timed() {
        t0=$(now)
        "$@" > "$T/out" 2>&1 || return 1
        t1=$(now)
        echo "$t0 $t1" | awk '{ printf "%.6f\n", $2 - $1 }'
    }
fi
mce_wall() { # NODES ROUNDS
    timed "$ring" --mce-nodes="$1" --rounds="$2" --bytes=8
}
smpi_wall() { # NODES ROUNDS
    timed smpirun -np "$1" -platform "$T/plat$1.xml" -hostfile "$T/hosts$1" \
        -no-privatize "$T/smpi_ring" "$2" 8 --cfg=contexts/factory:raw \
        --cfg=smpi/simulate-computation:no --log=root.thres:critical &&
        grep -q "^smpi_ring: $1 ranks" "$T/out"
}
platform() { # NODES: a cluster, 1 us latency, 1 GB/s, one host per rank
    cat > "$T/plat$1.xml" <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <cluster id="c" prefix="node-" suffix="" radical="0-$(($1 - 1))"
             speed="1Gf" bw="1GBps" lat="1us" bb_bw="100GBps" bb_lat="0us"/>
  </zone>
</platform>
EOF
    seq 0 $(($1 - 1)) | sed 's/^/node-/' > "$T/hosts$1"
}
# best_rate WALLFN NODES ROUNDS: messages per second, best of the runs
# stored in $T/best.WALLFN.NODES (one rate per line)
record() { # FN NODES ROUNDS
    a=$($1 "$2" "$3") && b=$($1 "$2" 1) || return 1
    awk -v a="$a" -v b="$b" -v m=$(($2 * ($3 - 1))) 'BEGIN {
        d = a - b; if (d <= 0) d = a; printf "%.0f\n", m / d }' >> "$T/best.$1.$2"
}
best() { sort -n "$T/best.$1.$2" 2>/dev/null | tail -1; }

# SMPICC=none (or any compiler that is not there) skips the comparison.
SMPICC=${SMPICC:-smpicc}
have_smpi=0
if command -v "$SMPICC" > /dev/null 2>&1 && command -v smpirun > /dev/null 2>&1 &&
    "$SMPICC" -O2 -o "$T/smpi_ring" "$S/smpi_ring.c" > "$T/smpicc.log" 2>&1; then
    have_smpi=1
    echo "SMPI: $(smpirun -version 2>/dev/null | head -1) (same ring under smpirun, alternated with mcemu, best of 2 each)"
else
    echo "SMPI: $SMPICC not installed or failing (Debian: libsimgrid-dev): mcemu's figures only"
fi
echo "ring, 8-byte messages, one process (mcemu: default settings, privatisation on; rates per $clock second):"
printf "  %6s %14s %9s %10s %14s %8s\n" nodes "mcemu msgs/s" "ns/msg" "x floor" "SMPI msgs/s" "ratio"
# 2.56 M messages per mcemu run, a twentieth of that under SMPI (it is
# slower): runs of a fraction of a second to a few seconds, long enough
# for the 10 ms resolution of the CPU time.
for spec in 64:40000 256:10000 1024:2500 4096:625; do
    n=${spec%%:*} r=${spec#*:}
    reps=1; [ $have_smpi = 1 ] && { reps=2; platform "$n"; }
    i=0
    while [ $i -lt $reps ]; do
        record mce_wall "$n" "$r"
        [ $have_smpi = 1 ] && record smpi_wall "$n" $(( r / 20 > 3 ? r / 20 : 3 ))
        i=$((i + 1))
    done
    m=$(best mce_wall "$n")
    s=$( [ $have_smpi = 1 ] && best smpi_wall "$n" || echo "")
    awk -v n="$n" -v m="$m" -v s="$s" -v f="$floor" 'BEGIN {
        ns = 1e9 / m
        if (s != "") printf "  %6d %14.0f %9.1f %10.1f %14.0f %7.1fx\n", n, m, ns, ns / (2 * f), s, m / s
        else printf "  %6d %14.0f %9.1f %10.1f %14s %8s\n", n, m, ns, ns / (2 * f), "-", "-" }'
done
echo "  (x floor: ns per message over two fiber switches of $floor ns)"

ring_rate "ring 64 nodes, --mce-privatize=off" 64 40000 env MCE_PRIVATIZE=off
ring_rate "ring 64 nodes, 2 ranks" 64 5000 "$MPIEXEC" -np 2

# ---- privatisation cost by size of the globals, both modes ------------------
top_builddir=$B sh "$S/privatize.sh"

# sobel_edge 512x512 on 64 NCUBE nodes (both schemes): wall time, 1 and 2 ranks.
sobel_wall() {
    label=$1; shift
    out=$("$@" "$B/apps/sobel_edge" --mce-nodes=64 --sizes=512 \
        --output="$T/sobel.pgm" --mce-verbose 2>/dev/null |
        grep 'wall_s=')
    echo "$out" | sed "s/.*wall_s=\([0-9.]*\).*peak_rss_kib=\([0-9]*\).*/sobel_edge 512x512, 64 nodes, $label: \1 s wall (peak RSS \2 KiB, rank 0)/"
}
sobel_wall "1 process"
sobel_wall "2 ranks" "$MPIEXEC" -np 2

# Memory per node: 4096 nodes against 1 node, same program; then 65,536
# nodes in one process (stacks pooled beyond the kernel's mapping budget).
one=$("$ring" --mce-nodes=1 --rounds=10 --mce-verbose 2>/dev/null |
    sed -n 's/.*peak_rss_kib=\([0-9]*\).*/\1/p')
many=$("$ring" --mce-nodes=4096 --rounds=10 --mce-verbose 2>/dev/null |
    sed -n 's/.*peak_rss_kib=\([0-9]*\).*/\1/p')
awk -v a="$one" -v b="$many" 'BEGIN {
    printf "memory: 4096 nodes peak RSS %.1f MiB (1 node: %.1f MiB): %.1f KiB per node\n",
        b / 1024, a / 1024, (b - a) / 4095 }'
big=$("$ring" --mce-nodes=65536 --rounds=2 --mce-verbose 2>&1 |
    sed -n 's/.*wall_s=\([0-9.]*\) peak_rss_kib=\([0-9]*\).*/\1 \2/p')
echo "$big" | awk '{ printf "ring 65536 nodes, 1 process: %.2f s wall, peak RSS %.0f MiB\n", $1, $2 / 1024 }'
vx=$("$B/apps/ring_vertex" --mce-nodes=65536 --rounds=1 --sizes=0,8 \
    --scheme=standard --mce-verbose 2>&1 |
    sed -n 's/.*wall_s=\([0-9.]*\) peak_rss_kib=\([0-9]*\).*/\1 \2/p')
echo "$vx" | awk '{ printf "Vertex ring (ring_vertex) 65536 nodes, 1 process: %.2f s wall, peak RSS %.0f MiB\n", $1, $2 / 1024 }'

# The Paragon model under heavy contention: the naive complete exchange on
# 12 x 12 (143 x 144 = 20,592 messages of 15,232 bytes at once, Bokhari and
# Nicol 1996), wall time and messages (worms) per wall second.
out=$("$B/apps/complete_exchange" --mce-machine=paragon --mce-nodes=144 \
    --mce-set=paragon.width=12 --alg=naive --sizes=15232 --mce-verbose 2>&1 |
    grep 'wall_s=')
echo "$out" | sed 's/.*wall_s=\([0-9.]*\).*peak_rss_kib=\([0-9]*\).*/\1 \2/' |
    awk '{ printf "paragon naive complete exchange 12x12, 15232 B: %.2f s wall, %.0f messages/s (peak RSS %d MiB, mostly the program'"'"'s buffers)\n",
        $1, 20592 / $1, $2 / 1024 }'

# Trace overhead: the Paragon complete exchange on 4 x 4 with every event
# class (calls, protocol, network), as JSON and as OTF2: events written,
# bytes per event, and events per second of the extra CPU (or wall) time
# the trace costs over the same run without one.
cx="$B/apps/complete_exchange --mce-machine=paragon --mce-nodes=16
    --mce-set=paragon.width=4 --sizes=9000,15232"
base=$(timed $cx)
tj=$(timed $cx --mce-trace="$T/cx.json")
nev=$(grep -c '"ph"' "$T/cx.json")
bytes=$(wc -c < "$T/cx.json")
awk -v b="$base" -v t="$tj" -v n="$nev" -v s="$bytes" -v c="$clock" 'BEGIN {
    d = t - b; if (d <= 0) d = 1e-6
    printf "trace JSON, paragon exchange 4x4: %d events, %.1f bytes/event, %.3f s %s without, %.3f s with: %.0f events/s\n",
        n, s / n, b, c, t, n / d }'
if tb=$(timed $cx --mce-trace="$T/cx.otf2") && [ -f "$T/cx.otf2" ]; then
    ob=$(du -sb "$T/cx.otf2" "$T/cx.def" "$T/cx" | awk '{ s += $1 } END { print s }')
    awk -v b="$base" -v t="$tb" -v n="$nev" -v s="$ob" -v c="$clock" 'BEGIN {
        d = t - b; if (d <= 0) d = 1e-6
        printf "trace OTF2, the same run: %.1f bytes/event, %.3f s %s with: %.0f events/s (JSON then conversion)\n",
            s / n, t, c, n / d }'
fi

# Counted compute mode: the instrumentation's cost (bench/counted.sh).
top_builddir=$B sh "$S/counted.sh"

# Distributed runs (bench/scaling.sh).
top_builddir=$B sh "$S/scaling.sh"
