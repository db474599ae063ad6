#!/bin/sh
# Privatisation's cost per node switch by size of the writable globals, in
# both modes (make bench runs it; it also runs alone after make bench's
# programs are built: top_builddir=_build sh bench/privatize.sh):
#   switch  the executable's globals are swapped at every node switch
#           (memcpy up to 64 KiB, a memfd remapped beyond): bench/priv_*
#   dlopen  mcecc -mce-privatize=dlopen: one copy of the node program per
#           node, nothing moves at a switch: the same bench/privswitch.c
#           built here with mcecc
# For each: 64 nodes, the ring of bench/privswitch.c with GLOBALS of 4 KiB,
# 64 KiB, 1 MiB and 16 MiB; the CPU time (wall time without /usr/bin/time)
# per switch all told, the part above --mce-privatize=off (the same
# program sharing its globals: the cost of privatising), best of two, and
# the ratio of the time per switch to the 4 KiB program's in the same
# mode.  Then apps/iwarp/iwarp_barrier (a few KB of globals: its 78 KB
# connection table is on the heap, one per cell) in both modes: time, time
# per switch and the digests (the same).  Printed, never
# asserted (issue 13: within 2x of a program with small globals).
set -u
B=${top_builddir:-.}
S=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$S/.." && pwd)
export MCECC_INCLUDEDIR="$SRC/include" MCECC_LIBDIR="$B/lib/.libs"
T=$(mktemp -d "${TMPDIR:-/tmp}/mcemu-bench-priv.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

if [ -x /usr/bin/time ]; then
    clock=CPU
    timed() {
        /usr/bin/time -f "%U %S" -o "$T/time" "$@" > "$T/out" 2>&1 || return 1
        awk '{ printf "%.6f\n", $1 + $2 }' "$T/time"
    }
else
    clock=wall
    timed() {
        t0=$(date +%s.%N)
        "$@" > "$T/out" 2>&1 || return 1
        echo "$t0 $(date +%s.%N)" | awk '{ printf "%.6f\n", $2 - $1 }'
    }
fi
# best CMD...: the least time of two runs ($T/out: the last run's output)
best() {
    a=$(timed "$@") || return 1
    b=$(timed "$@") || return 1
    awk -v a="$a" -v b="$b" 'BEGIN { printf "%.6f\n", a < b ? a : b }'
}
switches() { sed -n 's/.*context_switches=\([0-9]*\).*/\1/p' "$T/out"; }
rss() { sed -n 's/.*peak_rss_kib=\([0-9]*\).*/\1/p' "$T/out"; }

MCECC=$B/tools/mcecc
ok=1
for spec in 4k:4096 64k:65536 1m:1048576 16m:16777216; do
    s=${spec%%:*}
    "$MCECC" -O2 -mce-privatize=dlopen -DGLOBALS="${spec#*:}" \
        "$S/privswitch.c" -o "$T/priv_${s}_dl" > "$T/cc" 2>&1 || ok=0
done
"$MCECC" -O2 -mce-privatize=dlopen -I"$SRC/apps" -I"$SRC/util" \
    "$SRC/apps/iwarp/iwarp_barrier.c" "$SRC/apps/iwarp/iwapp.c" \
    "$SRC/apps/opts.c" -o "$T/iwarp_barrier_dl" > "$T/cc" 2>&1 || ok=0
if [ $ok = 0 ]; then
    echo "privatisation: mcecc -mce-privatize=dlopen failed:"
    sed 's/^/  | /' "$T/cc"
    exit 0
fi

echo "privatisation, 64 nodes, per node switch ($clock time; bench/privswitch.c, bench/privatize.sh):"
printf '  %-8s %-7s %10s %12s %10s %14s\n' globals mode "all told" \
    "privatising" "x 4 KiB" "peak RSS KiB"
for mode in switch dlopen; do
    small=
    for spec in 4k:20000 64k:2000 1m:2000 16m:2000; do
        s=${spec%%:*} r=${spec#*:}
        if [ $mode = switch ]; then
            prog=$B/bench/priv_$s
        else
            prog=$T/priv_${s}_dl r=20000
        fi
        on=$(best "$prog" "$r" --mce-nodes=64 --mce-verbose) || {
            echo "  $s $mode: failed"; continue; }
        sw=$(switches) kib=$(rss)
        off=$(best "$prog" "$r" shared --mce-nodes=64 --mce-privatize=off)
        per=$(awk -v t="$on" -v sw="$sw" 'BEGIN { printf "%.1f", t / sw * 1e9 }')
        [ -n "$small" ] || small=$per
        awk -v s="$s" -v m="$mode" -v p="$per" -v on="$on" -v off="$off" \
            -v sw="$sw" -v k="$kib" -v sm="$small" 'BEGIN {
            printf "  %-8s %-7s %8.0f ns %9.0f ns %9.2fx %14d\n",
                s, m, p, (on - off) / sw * 1e9, p / sm, k }'
    done
done

# iwarp_barrier: a fidelity program, both modes; its writable data (.data
# and .bss) as size(1) counts it.
gl=$(size -A "$B/apps/iwarp/iwarp_barrier" 2> /dev/null |
    awk '$1 == ".data" || $1 == ".bss" { s += $2 } END { printf "%.1f KB", s / 1000 }')
args="--scheme=cube --signal=dep --cells=64 --runs=200 --mce-summary --mce-verbose"
# shellcheck disable=SC2086
t_sw=$(best "$B/apps/iwarp/iwarp_barrier" $args) || t_sw=
sw=$(switches)
d_sw=$(sed -n 's/.*digest=\([0-9a-f]*\).*/\1/p' "$T/out")
# shellcheck disable=SC2086
t_dl=$(best "$T/iwarp_barrier_dl" $args) || t_dl=
d_dl=$(sed -n 's/.*digest=\([0-9a-f]*\).*/\1/p' "$T/out")
awk -v a="$t_sw" -v b="$t_dl" -v sw="$sw" -v c="$clock" -v g="${gl:-?}" 'BEGIN {
    printf "iwarp_barrier (%s of globals), 64 cells, cube, dep, 200 runs, %d switches, %s time:\n", g, sw, c
    printf "  switch mode %6.2f s (%5.0f ns per switch all told)\n", a, a / sw * 1e9
    printf "  dlopen mode %6.2f s (%5.0f ns per switch all told): %.1fx faster\n", b, b / sw * 1e9, a / b }'
if [ -n "$d_sw" ] && [ "$d_sw" = "$d_dl" ]; then
    echo "  digests equal ($d_sw)"
else
    echo "  DIGESTS DIFFER: switch $d_sw, dlopen $d_dl"
fi
