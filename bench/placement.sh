#!/bin/sh
# Placement benchmark: for each program, at 2 and 4 ranks, with block,
# cyclic, topology and weighted (topology + --mce-place-weights from a
# one-process run's --mce-stats) placement, prints from --mce-verbose:
#   cross_rank   messages (program and protocol) whose source and
#                destination nodes are on different ranks
#   cross_pct    their share of all messages
#   sw_max       the busiest rank's share of the context switches
#                (0.500 / 0.250 is perfect balance on 2 / 4 ranks)
#   wall_s       rank 0's wall time (a loaded 2-core machine: indicative)
# and checks that the digest is the one-process digest.  Figures are
# printed, never asserted.
#   top_builddir=_build sh bench/placement.sh [PROGRAM...]
# PROGRAM: sobel ring cx md (default: all); PLACEMENTS="block topology"
# and RANKS="2 4" (the defaults: all four placements, 2 and 4) narrow it.
set -u
B=${top_builddir:-.}
MPIEXEC=${MPIEXEC:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
T=$(mktemp -d "${TMPDIR:-/tmp}/mcemu-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

cmd_of() {
    case $1 in
    sobel) echo "apps/sobel_edge --mce-nodes=64" ;;
    cx) echo "apps/complete_exchange --mce-machine=paragon --mce-nodes=144 --mce-set=paragon.width=12 --alg=naive --sizes=8640" ;;
    md) echo "apps/tcs/motion_detect" ;;
    ring) echo "apps/ring --mce-nodes=4096" ;;
    esac
}

digest() { sed -n 's/^mcemu: machine=.* digest=\([0-9a-f]*\).*/\1/p' "$1"; }

printf '%-6s %2s %-9s %10s %9s %9s %7s %8s %s\n' program np placement \
    cross_rank messages cross_pct sw_max wall_s digest
for prog in ${*:-sobel cx md ring}; do
    cmd=$(cmd_of "$prog")
    [ -n "$cmd" ] || { echo "unknown program $prog" >&2; continue; }
    set -- $cmd
    bin=$B/$1; shift
    "$bin" "$@" --mce-summary --mce-stats="$T/$prog.csv" > "$T/ref" 2>&1 < /dev/null
    ref=$(digest "$T/ref")
    for np in ${RANKS:-2 4}; do
        for pl in ${PLACEMENTS:-block cyclic topology weights}; do
            case $pl in
            weights) popt="--mce-placement=topology --mce-place-weights=$T/$prog.csv" ;;
            *) popt="--mce-placement=$pl" ;;
            esac
            $MPIEXEC -np $np "$bin" "$@" $popt --mce-summary --mce-verbose \
                > "$T/out" 2>&1 < /dev/null
            d=$(digest "$T/out")
            [ "$d" = "$ref" ] && same=same || same="DIFFERS($d vs $ref)"
            line=$(grep '^mcemu: placement ' "$T/out")
            wall=$(sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p' "$T/out")
            echo "$line" | awk -v p="$prog" -v np="$np" -v pl="$pl" \
                -v w="${wall:-?}" -v s="$same" '{
                for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
                printf "%-6s %2d %-9s %10d %9d %8.1f%% %7.3f %8s %s\n", p, np, pl,
                    f["cross_rank"], f["messages"],
                    f["messages"] ? 100 * f["cross_rank"] / f["messages"] : 0,
                    f["switch_max_share"], w, s }'
            grep '^mcemu: rank [0-9]* on' "$T/out" |
                sed 's/^mcemu: \(rank [0-9]*\) on .*; /      \1: /'
        done
    done
done
