#!/bin/sh
# Counted compute time (--mce-compute=counted; issue 15, "the big one"):
#   - mce-cov counts a hand-written kernel's operations by class, saves
#     the flags only where a block may read them, and the rewritten code
#     computes what the original did;
#   - the engine charges exactly the operations executed, each class at
#     its cpu.cpi_* key (values set on the command line, the expected
#     time counted by hand from the listing);
#   - legacy programs (tests/legacy/matmul.c, K&R C, and force.f,
#     Fortran 77, neither calling mcemu) built with mcecc/mcef77
#     -mce-compute=counted print what the uninstrumented build prints;
#     their counted time gives identical digests on 1, 2 and 4 ranks and
#     either placement (and for the NX handler server counter.c, whose
#     handlers run inside the node's calls); with --mce-compute=explicit the instrumented
#     build's digest is the uninstrumented one's; counted mode refuses an
#     uninstrumented program;
#   - the issue's acceptance: counted time scales with the work as the
#     host's count of the same kernel's work does (ratios across three
#     sizes within 15 %): the instructions the uninstrumented build
#     executes in its main, counted by valgrind (wall-clock time varied
#     too much to assert on; bench/counted.sh prints the counted /
#     measured-time ratios).
. "$top_srcdir/tests/lib.sh"

S=$top_srcdir/tests
export MCECC_INCLUDEDIR="$top_srcdir/include" MCECC_LIBDIR="$B/lib/.libs"
MCECC=$B/tools/mcecc
MCEF77=$B/tools/mcef77
COV=$B/tools/mce-cov
T=$HANG

case "$(cc -dumpmachine 2>/dev/null)" in
x86_64*) ;;
*) skip "counted mode instruments x86-64 code only" ;;
esac

# ---- mce-cov on a hand-written listing ------------------------------------
# kern: entry {pxor, testq: 2 integer; jle: 1 branch}, {xorl: 1 integer},
# loop {addsd (mem): 1 memory + 1 fp; addq, cmpq: 2 integer; jne: 1
# branch}, {ret: 1 branch}.  feq: entry {xorl: 1 integer; ucomisd: 1 fp;
# jp: 1 branch}, {jne: 1 branch, flags saved}, {movl: 1 integer}, {ret}.
"$COV" --stats "$S/core/counted_kern.s" > "$TMP/stats" 2>&1
expect_eq "mce-cov --stats on the fixture" "$(cat "$TMP/stats")" \
    "8 blocks (1 with the flags saved): 7 integer, 1 memory, 2 floating-point, 6 branch operations in one pass through every block"
"$COV" "$S/core/counted_kern.s" > "$TMP/kern.s"
expect_eq "mce-cov rewrites the fixture" $? 0
expect_eq "the flags are saved around the one counter that needs it" \
    "$(grep -c pushfq "$TMP/kern.s") $(grep -c popfq "$TMP/kern.s")" "1 1"
cc -c "$TMP/kern.s" -o "$TMP/kern.o"
expect_eq "the rewritten fixture assembles" $? 0

cat > "$TMP/drv.c" <<'PROG'
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <mcemu.h>
double kern(const double *x, long n);
int feq(double a, double b);
int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10, i;
    double *x = malloc(n * sizeof(*x)), s;
    for (i = 0; i < n; i++)
        x[i] = (double)(i % 7);
    s = kern(x, n);
    printf("drv: node %d sum %.0f feq %d %d %d\n", mce_node(), s,
           feq(1.0, 1.0), feq(1.0, 2.0), feq(NAN, NAN));
    free(x);
    return 0;
}
PROG
"$MCECC" -O1 -o "$TMP/drv" "$TMP/drv.c" "$TMP/kern.o" -lm > "$TMP/cc" 2>&1
expect_eq "a plain driver links with the counted kernel" $? 0
sed 's/^/    | /' "$TMP/cc"
n=1000
want_sum=$(awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) s += i % 7; print s }')
$T "$TMP/drv" $n --mce-nodes=2 --mce-set=cpu.cpi_int=1 \
    --mce-set=cpu.cpi_mem=2 --mce-set=cpu.cpi_fp=3 --mce-set=cpu.cpi_branch=5 \
    --mce-stats="$TMP/st.csv" > "$TMP/o" 2>&1
expect_eq "counted driver: status" $? 0
expect_grep "the rewritten code computes what the original did" \
    "drv: node 1 sum $want_sum feq 1 0 0" "$TMP/o"
# By hand: kern(n > 0) runs the entry, the xorl block and the ret once and
# the loop n times: 3 + 2n integer, n memory, n fp, n + 2 branches.  The
# three feq calls: entry 3 times (3 integer, 3 fp, 3 branches), the jne
# block twice (2 branches), the movl block once (1 integer), the ret 3
# times (3 branches).  Cycles at 1, 2, 3 and 5 per class, 25 ns each
# (ideal.conf's cycle_time); the driver itself is not instrumented.
want=$(awk -v n=$n 'BEGIN {
    i = 3 + 2 * n + 3 + 1; m = n; f = n + 3; b = n + 2 + 3 + 2 + 3
    printf "%.0f\n", (i * 1 + m * 2 + f * 3 + b * 5) * 25000 }')
got=$(awk -F, '!/^#/ && $1 == "1" { print $3 }' "$TMP/st.csv")
expect_eq "node 1's compute time is its counted operations x cycles" "$got" "$want"
expect_eq "node 0 the same" \
    "$(awk -F, '!/^#/ && $1 == "0" { print $3 }' "$TMP/st.csv")" "$want"

"$MCECC" --showme -mce-compute=counted -o x x.c > "$TMP/show" 2>&1
expect_grep "mcecc --showme: compiles to assembly" " -S x.c -o " "$TMP/show"
expect_grep "mcecc --showme: runs mce-cov" "mce-cov .*src1.s > " "$TMP/show"
"$MCECC" -mce-compute=bogus -c x.c > "$TMP/o" 2>&1
expect_eq "mcecc -mce-compute=bogus: status" $? 2

# ---- legacy programs -------------------------------------------------------
# build NAME COMPILER ARGS...
build() {
    name=$1 comp=$2; shift 2
    "$comp" "$@" -o "$TMP/$name" > "$TMP/cc" 2>&1
    expect_eq "builds $name" $? 0
    grep -v "Warning: Fortran 2018 deleted feature\|^ *[0-9]* |\|^ *|\|^$\|: *$" \
        "$TMP/cc" | sed 's/^/    | /'
}
build mm_counted "$MCECC" -w -O2 -mce-compute=counted "$S/legacy/matmul.c"
build mm_plain "$MCECC" -w -O2 "$S/legacy/matmul.c"

# the checksum of C = A x B, computed here
want_mm=$(awk 'BEGIN { n = 40
    for (i = 0; i < n; i++) for (k = 0; k < n; k++) {
        a = (i + k) % 5
        for (j = 0; j < n; j++) s += a * ((k * j) % 3 + 1) }
    print s }')
$T "$TMP/mm_counted" 40 --mce-nodes=4 --mce-summary > "$TMP/c1" 2>&1
expect_eq "matmul counted: status" $? 0
expect_grep "matmul counted: checksum" "n 40 reps 1 checksum $want_mm " "$TMP/c1"
$T "$TMP/mm_plain" 40 --mce-nodes=4 --mce-summary > "$TMP/p1" 2>&1
expect_grep "matmul plain: checksum" "n 40 reps 1 checksum $want_mm " "$TMP/p1"
t=$(sed -n 's/.* time \([0-9.]*\)$/\1/p' "$TMP/c1")
check_or_known "an instrumented program counts by default (time $t s > 0)" \
    "$t > 0.001"
for np in 2 4; do
    $T $MPIRUN -np $np "$TMP/mm_counted" 40 --mce-nodes=4 --mce-summary \
        > "$TMP/c$np" 2>&1
    expect_eq "matmul counted on $np ranks: status" $? 0
    expect_eq "matmul counted on $np ranks: summary" \
        "$(summary_sans_ranks "$TMP/c$np")" "$(summary_sans_ranks "$TMP/c1")"
done
$T $MPIRUN -np 2 "$TMP/mm_counted" 40 --mce-nodes=4 --mce-summary \
    --mce-placement=cyclic > "$TMP/cc2" 2>&1
expect_eq "matmul counted, cyclic placement: summary" \
    "$(summary_sans_ranks "$TMP/cc2")" "$(summary_sans_ranks "$TMP/c1")"
$T "$TMP/mm_counted" 40 --mce-nodes=4 --mce-summary --mce-compute=explicit \
    > "$TMP/ce" 2>&1
expect_eq "instrumented build in explicit mode: the plain build's summary" \
    "$(summary_sans_ranks "$TMP/ce")" "$(summary_sans_ranks "$TMP/p1")"
$T "$TMP/mm_plain" 40 --mce-nodes=2 --mce-compute=counted > "$TMP/o" 2>&1
expect_eq "counted mode refuses an uninstrumented program: status" $? 2
expect_grep "... and says what to do" "compile and link it with mcecc -mce-compute=counted" "$TMP/o"
# Handlers are user code the library runs inside a node's NX call
# (tests/legacy/counter.c): counted like the rest of the node's code.
build counter_counted "$MCECC" -w -O2 -mce-compute=counted "$S/legacy/counter.c"
$T "$TMP/counter_counted" --mce-nodes=4 --mce-summary > "$TMP/h1" 2>&1
expect_grep "counter server counted: result" "sum 105 (want 105)" "$TMP/h1"
$T $MPIRUN -np 4 "$TMP/counter_counted" --mce-nodes=4 --mce-summary \
    > "$TMP/h4" 2>&1
expect_eq "counter server counted on 4 ranks: summary" \
    "$(summary_sans_ranks "$TMP/h4")" "$(summary_sans_ranks "$TMP/h1")"

# The processor is the machine file's: the same operations on the
# Paragon's 50 MHz i860 XP (same cycles per operation) take 20/25 of the
# iPSC/860's compute time, to the picosecond.
$T "$TMP/mm_counted" 40 --mce-nodes=4 --mce-stats="$TMP/si.csv" > "$TMP/o" 2>&1
$T "$TMP/mm_counted" 40 --mce-nodes=4 --mce-machine=paragon --mce-set=paragon.width=2 \
    --mce-stats="$TMP/sp.csv" > "$TMP/o" 2>&1
ci=$(awk -F, '!/^#/ && $1 == "2" { print $3 }' "$TMP/si.csv")
cp_=$(awk -F, '!/^#/ && $1 == "2" { print $3 }' "$TMP/sp.csv")
expect_eq "node 2's compute time on the Paragon x 25 = on the iPSC/860 x 20" \
    "$(awk -v a="$cp_" 'BEGIN { printf "%.0f", a * 25 }')" \
    "$(awk -v a="$ci" 'BEGIN { printf "%.0f", a * 20 }')"

# clang's assembly too (a sanitizer build's library carries gcc's
# sanitizer runtime, which a clang-built program cannot share)
if "$MCECC" --showme -o x x.c | grep -q -- -fsanitize; then
    note "sanitizer build: the clang build is not checked"
elif command -v clang > /dev/null 2>&1; then
    MCECC_CC=clang build mm_clang "$MCECC" -w -O2 -mce-compute=counted \
        "$S/legacy/matmul.c"
    $T $MPIRUN -np 2 "$TMP/mm_clang" 40 --mce-nodes=4 --mce-summary \
        > "$TMP/cl" 2>&1
    expect_grep "matmul counted, clang: checksum" \
        "n 40 reps 1 checksum $want_mm " "$TMP/cl"
    $T "$TMP/mm_clang" 40 --mce-nodes=4 --mce-summary > "$TMP/cl1" 2>&1
    expect_eq "matmul counted, clang: summary on 1 and 2 ranks" \
        "$(summary_sans_ranks "$TMP/cl")" "$(summary_sans_ranks "$TMP/cl1")"
fi

# ---- acceptance: counted time scales as the host's count of the work ------
# The issue's acceptance compares the counted time with the host's own
# measure of the same kernel's work across sizes (ratios within 15 %).
# Wall-clock time on a shared machine is not such a measure: on a 2-core
# VM the best of five dclock times gave force 512/128 ratios from 12.3 to
# 20.4 in three runs (work ratio 16) and failed the check by chance.  So
# the test takes the host's count of what the kernel executes: the
# instructions of the uninstrumented build's main (valgrind's callgrind,
# the function's self cost: mce_nx_main is C's main as mcecc renames it,
# MAIN__ Fortran's), the same on every run; bench/counted.sh prints the
# counted / measured-time ratios as figures.
# scaling NAME PROG SIZES ARGS-AFTER: each size's counted time
# (PROG_counted) and the plain build's instructions in main (PROG_plain),
# then every ratio to the first size compared.
work_of() { # PROG ARGS...: instructions executed in the program's main
    "$VALGRIND" --tool=callgrind --callgrind-out-file="$TMP/cg.out" "$@" \
        > /dev/null 2>&1 || return 1
    "$ANNOTATE" "$TMP/cg.out" 2> /dev/null | awk '
        /:(mce_nx_main|MAIN__|main) \[/ { gsub(",", "", $1); print $1; exit }'
}
ANNOTATE=
if [ -n "${VALGRIND:-}" ] && [ "$VALGRIND" != no ]; then
    ANNOTATE=$(dirname "$VALGRIND")/callgrind_annotate
    [ -x "$ANNOTATE" ] || ANNOTATE=$(command -v callgrind_annotate || true)
fi
scaling() {
    name=$1 prog=$2 sizes=$3 rest=$4
    if [ -z "$ANNOTATE" ]; then
        note "$name: no valgrind (a sanitizer build): the count comparison runs in the default build"
        return
    fi
    : > "$TMP/scale"
    for n in $sizes; do
        c=$($T "$TMP/${prog}_counted" $n $rest --mce-nodes=1 | \
            sed -n 's/.* [Tt][Ii][Mm][Ee] *\([0-9.]*\)$/\1/p')
        m=$(work_of "$TMP/${prog}_plain" $n $rest --mce-nodes=1)
        echo "$n $c $m" >> "$TMP/scale"
    done
    awk -v name="$name" '!($2 > 0 && $3 > 0) { bad = 1 }
        NR == 1 { n0 = $1; c0 = $2; m0 = $3; next }
        { rc = $2 / c0; rm = $3 / m0; d = rc / rm - 1; if (d < 0) d = -d
          printf "%s %s/%s: counted ratio %.3f, instructions ratio %.3f, off by %.1f %%\n",
              name, $1, n0, rc, rm, 100 * d
          if (d > 0.15) bad = 1 }
        END { exit bad }' "$TMP/scale" > "$TMP/ratios"
    st=$?
    sed 's/^/    /' "$TMP/ratios" | while read -r l; do note "$l"; done
    if [ $st -eq 0 ] && [ "$(wc -l < "$TMP/ratios")" -ge 2 ]; then
        pass "$name: counted time ratios within 15 % of the host's instruction counts"
    else
        fail "$name: counted time ratios within 15 % of the host's instruction counts"
        sed 's/^/#   /' "$TMP/scale" >&3
    fi
}
# Sizes from 60 x 60 (three matrices of doubles, 84 KB) to 120 x 120;
# instruction counts know no cache, as counted mode does not.
scaling "matmul (C)" mm "60 90 120" 40

if [ -n "${FC_FOUND:-}" ] && [ "$FC_FOUND" != no ]; then
    build force_counted "$MCEF77" -O2 -mce-compute=counted "$S/legacy/force.f"
    build force_plain "$MCEF77" -O2 "$S/legacy/force.f"
    $T "$TMP/force_counted" 125 --mce-nodes=4 --mce-summary > "$TMP/f1" 2>&1
    expect_eq "force counted: status" $? 0
    $T "$TMP/force_plain" 125 --mce-nodes=4 > "$TMP/fp" 2>&1
    expect_eq "force: the counted build prints the plain build's energy" \
        "$(grep -o 'ENERGY *[-0-9.]*' "$TMP/f1")" "$(grep -o 'ENERGY *[-0-9.]*' "$TMP/fp")"
    for np in 2 4; do
        $T $MPIRUN -np $np "$TMP/force_counted" 125 --mce-nodes=4 \
            --mce-summary > "$TMP/f$np" 2>&1
        expect_eq "force counted on $np ranks: summary" \
            "$(summary_sans_ranks "$TMP/f$np")" "$(summary_sans_ranks "$TMP/f1")"
    done
    scaling "force (Fortran 77)" force "128 256 512" 40
else
    note "no Fortran compiler: the Fortran force loop is not checked"
fi
finish
