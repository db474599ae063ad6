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

# Counted time against the host's measured time of the same kernel across
# sizes (issue 15's comparison; tests/core/counted.sh asserts it against
# the host's instruction counts instead, which do not vary from run to
# run): the counted build's virtual time in counted mode and the plain
# build's own dclock in --mce-compute=measured (best of five), each as a
# ratio to the first size.  Wall-clock figures: on a loaded or virtual
# machine they vary by tens of percent.
# scale LABEL COMPILER SOURCE "SIZES" ARGS...
scale() {
    label=$1 comp=$2 src=$3 sizes=$4; shift 4
    if ! "$comp" -w -O2 -o "$T/plain" "$src" > "$T/cc" 2>&1 ||
        ! "$comp" -w -O2 -mce-compute=counted -o "$T/counted" "$src" \
            > "$T/cc" 2>&1; then
        echo "  $label: does not build"; return
    fi
    for n in $sizes; do
        c=$("$T/counted" "$n" "$@" --mce-nodes=1 2>&1 |
            sed -n 's/.* [Tt][Ii][Mm][Ee] *\([0-9.]*\)$/\1/p')
        m=$(for r in 1 2 3 4 5; do "$T/plain" "$n" "$@" --mce-nodes=1 \
                --mce-compute=measured 2>&1; done |
            sed -n 's/.* [Tt][Ii][Mm][Ee] *\([0-9.]*\)$/\1/p' | sort -g | head -1)
        echo "$n $c $m"
    done | awk -v l="$label" 'NR == 1 { n0 = $1; c0 = $2; m0 = $3; next }
        { rc = $2 / c0; rm = $3 / m0
          printf "  %-22s %4s/%s: counted ratio %7.3f, measured ratio %7.3f (%+.1f %%)\n",
              l, $1, n0, rc, rm, 100 * (rc / rm - 1) }'
}
echo "counted time against measured time across sizes (ratios to the first size; measured: best of 5):"
scale "matmul.c" "$B/tools/mcecc" "$SRC/tests/legacy/matmul.c" "60 90 120" 40
if "$B/tools/mcef77" --showme -o x x.f > /dev/null 2>&1; then
    scale "force.f" "$B/tools/mcef77" "$SRC/tests/legacy/force.f" "128 256 512" 40
fi
