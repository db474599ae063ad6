#!/bin/sh
# Counted compute mode's cost (make bench runs it after bench/run.sh's
# figures; it also runs alone: top_builddir=_build sh bench/counted.sh).
# The legacy kernels of tests/legacy (matmul.c, K&R C; force.f, Fortran
# 77, when mcef77 has a compiler), built plain and with -mce-compute=
# counted (-O2), on one node: the CPU time (or wall time without
# /usr/bin/time) of the plain build in the default explicit mode and of
# the counted build in counted mode, best of three each, and their ratio:
# what counting every basic block costs.  Printed, never asserted.
set -u
B=${top_builddir:-.}
S=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$S/.." && pwd)
export MCECC_INCLUDEDIR="$SRC/include" MCECC_LIBDIR="$B/lib/.libs"
T=$(mktemp -d "${TMPDIR:-/tmp}/mcemu-bench-counted.XXXXXX")
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
best3() { # CMD...: the smallest of three times
    for i in 1 2 3; do timed "$@"; done | sort -g | head -1
}

# one LABEL COMPILER SOURCE ARGS...
one() {
    label=$1 comp=$2 src=$3; shift 3
    if ! "$comp" -w -O2 -o "$T/plain" "$src" > "$T/cc" 2>&1 ||
        ! "$comp" -w -O2 -mce-compute=counted -o "$T/counted" "$src" \
            > "$T/cc" 2>&1; then
        echo "  $label: does not build"; sed 's/^/    /' "$T/cc"; return
    fi
    p=$(best3 "$T/plain" "$@" --mce-nodes=1)
    c=$(best3 "$T/counted" "$@" --mce-nodes=1)
    vt=$(sed -n 's/.* [Tt][Ii][Mm][Ee] *\([0-9.]*\)$/\1/p' "$T/out")
    awk -v l="$label" -v p="$p" -v c="$c" -v v="$vt" -v k="$clock" 'BEGIN {
        printf "  %-34s plain %7.3f s, counted %7.3f s %s: x %.2f (%.3f s of iPSC/860 time)\n",
            l, p, c, k, c / p, v }'
}

echo "counted compute mode (-mce-compute=counted), instrumentation overhead, best of 3:"
one "matmul.c 200 x 200, 200 times" "$B/tools/mcecc" "$SRC/tests/legacy/matmul.c" 200 200
if "$B/tools/mcef77" --showme -o x x.f > /dev/null 2>&1; then
    one "force.f 2048 particles, 100 times" "$B/tools/mcef77" "$SRC/tests/legacy/force.f" 2048 100
fi
