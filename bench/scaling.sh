#!/bin/sh
# mcemu distributed scaling (make bench): figures are printed, never
# asserted (issue 14).
#
# For each program: wall time in one process, on 2 ranks and on 4 ranks
# (every rank hosting nodes: --mce-oversubscribed=spread, so 4 ranks share
# this machine's cores when it has fewer), with the windows, collectives,
# quiet windows (windows of a replicated model in which rank 0 had nothing
# to do and published nothing), point-to-point messages and bytes per run
# and the network model's own
# time (--mce-verbose's rank line; wall_s is the engine's, after MPI's
# start-up).  Then 'mpirun -np 64 ./sobel_edge' (packed by default onto
# one rank per core) against an empty 64-rank MPI job.
#
# Then a projection to 64 and 1024 ranks of a cluster: bench/project.sh
# replays each program's one-process run window by window on P ranks
# (block placement) from its --mce-window-log, with the measured cost of
# a node activation and of a model message, and assumed costs of a
# collective stage (c = COLL_US, 2 us), a point-to-point message (a =
# P2P_US, 3 us) and the allgather's bandwidth (BW_GBS, 5 GB/s): a
# simulation of the protocol's costs, not a measurement; it shows where
# the collectives, the imbalance of the windows and the replicated models
# stop the speedup (assumptions and what it leaves out: bench/project.sh).
set -u
B=${top_builddir:-.}
MPIEXEC=${MPIEXEC:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
COLL_US=${COLL_US:-2}
P2P_US=${P2P_US:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/mcemu-scaling.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

# stat FIELD FILE: a field of the rank line
stat() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" "$2" | tail -1; }

# one LABEL NP PROG ARGS...: a run's figures, one line
one() {
    label=$1 np=$2; shift 2
    if [ "$np" = 1 ]; then
        "$@" --mce-verbose < /dev/null > "$T/out" 2>&1
    else
        MCE_OVERSUBSCRIBED=spread $MPIEXEC -np "$np" "$@" --mce-verbose < /dev/null \
            > "$T/out" 2>&1
    fi || { echo "$label: run failed"; sed 's/^/  | /' "$T/out" | tail -5; return 1; }
    printf '%-22s %5s %9s %8s %9s %7s %9s %11s %8s\n' "$label" "$np" \
        "$(stat wall_s "$T/out")" "$(stat windows "$T/out")" \
        "$(stat collectives "$T/out")" "$(stat quiet_windows "$T/out")" \
        "$(stat p2p_msgs "$T/out")" \
        "$(stat p2p_bytes "$T/out")" "$(stat model_s "$T/out")"
    cp "$T/out" "$T/$label.$np"
}

echo "== mcemu distributed scaling ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)) =="
printf '%-22s %5s %9s %8s %9s %7s %9s %11s %8s\n' program ranks wall_s windows \
    colls quiet p2p_msgs p2p_bytes model_s
progs="ring4096|$B/apps/ring --mce-nodes=4096 --rounds=200 --bytes=8
cx12naive|$B/apps/complete_exchange --mce-machine=paragon --mce-nodes=144 --mce-set=paragon.width=12 --alg=naive --sizes=15232
sobel64|$B/apps/sobel_edge --mce-nodes=64 --output=$T/s.pgm
motion_detect|$B/apps/tcs/motion_detect
iwarp_barrier|$B/apps/iwarp/iwarp_barrier --scheme=ring2d --signal=dep --runs=20"
echo "$progs" | while IFS='|' read -r label cmd; do
    for np in 1 2 4; do
        # shellcheck disable=SC2086
        one "$label" "$np" $cmd
    done
    w1=$(stat wall_s "$T/$label.1"); w2=$(stat wall_s "$T/$label.2")
    w4=$(stat wall_s "$T/$label.4")
    awk -v l="$label" -v a="$w1" -v b="$w2" -v c="$w4" 'BEGIN {
        printf "%-22s speedup: 2 ranks %.2fx, 4 ranks %.2fx\n", l, a / b, a / c }'
done

# The first command users run.
cat > "$T/empty.c" <<'EOF'
#include <mpi.h>
int main(int argc, char **argv) { MPI_Init(&argc, &argv); MPI_Finalize(); return 0; }
EOF
if mpicc -o "$T/empty" "$T/empty.c" 2>/dev/null; then
    t0=$(date +%s.%N); $MPIEXEC -np 64 "$T/empty" < /dev/null > /dev/null 2>&1; t1=$(date +%s.%N)
    $MPIEXEC -np 64 "$B/apps/sobel_edge" --output="$T/s.pgm" < /dev/null > "$T/s64" 2>&1
    t2=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
        printf "mpirun -np 64 sobel_edge: %.2f s; empty 64-rank job %.2f s; ratio %.2f (target <= 2)\n",
            c - b, b - a, (c - b) / (b - a) }'
fi

# The 12 x 12 naive exchange is bound by first touches of memory (the
# program's 627 MB of buffers and the payloads it has in flight at once),
# i.e. by the kernel's page-fault path, not by the emulator: how far two
# processes touching half each beat one touching all on this machine (k),
# and the run's peak memory in one process and per rank (M1, M2), bound
# what 2 ranks can gain on that part: (M1 / M2) x k / 2.
cat > "$T/touch.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
int main(int argc, char **argv)
{
    size_t n = (size_t)atol(argv[1]) * 1048576 / 15232, i;
    char **p = malloc(n * sizeof *p);
    struct timespec a, b;
    (void)argc;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (i = 0; i < n; i++) { /* the exchange's 15,232-byte blocks */
        p[i] = malloc(15232);
        memset(p[i], (int)i, 15232);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%.3f\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
    return p[n / 2][1] == 3;
}
EOF
if cc -O2 -o "$T/touch" "$T/touch.c" 2>/dev/null; then
    one=$("$T/touch" 1000)
    "$T/touch" 500 > "$T/t1" & "$T/touch" 500 > "$T/t2" & wait
    awk -v o="$one" -v a="$(cat "$T/t1")" -v b="$(cat "$T/t2")" \
        -v r1="$(stat peak_rss_kib "$T/cx12naive.1")" -v r2="$(stat peak_rss_kib "$T/cx12naive.2")" 'BEGIN {
        t = a > b ? a : b; k = o / t
        printf "first touch: 1000 MB in one process %.3f s, 500 MB in each of two at once %.3f s: %.2fx\n", o, t, k
        if (r1 > 0 && r2 > 0)
            printf "cx12naive peak memory: one process %.0f MB, each of 2 ranks %.0f MB (%.2fx less): its first touches at best %.2fx faster on 2 ranks\n",
                r1 / 1024, r2 / 1024, r1 / r2, k / 2 * r1 / r2 }'
fi

echo "== projection: the window protocol simulated on a cluster (bench/project.sh; c=$COLL_US us a collective stage, a=$P2P_US us a message) =="
echo "$progs" | while IFS='|' read -r label cmd; do
    f1="$T/$label.1"
    [ -f "$f1" ] || continue
    model=replicated
    case $label in ring4096|sobel64) model=partitioned ;; esac # ideal
    # shellcheck disable=SC2086
    $cmd --mce-window-log="$T/$label.wlog" < /dev/null > /dev/null 2>&1 || continue
    echo "-- $label ($model network model; measured 2 ranks here: $(awk -v a="$(stat wall_s "$f1")" -v b="$(stat wall_s "$T/$label.2")" 'BEGIN { printf "%.2fx", a / b }'))"
    COLL_US=$COLL_US P2P_US=$P2P_US sh "$(dirname "$0")/project.sh" "$T/$label.wlog" \
        "$(stat wall_s "$f1")" "$(stat model_s "$f1")" $model 2 4 64 1024
    rm -f "$T/$label.wlog"
done
