# Shared helpers for the script tests (sourced).  The test environment
# exports top_srcdir, top_builddir and MPIEXEC (see Makefile.am).
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
: "${MPIEXEC:=mpirun}"
# Open MPI's own allocations look leaked to LeakSanitizer at exit; leak
# checking stays on for the single-process runs, which exercise the same
# engine code.
MPIRUN="env ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 $MPIEXEC"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
B=$top_builddir
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mcemu-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0

pass() { checks=$((checks + 1)); echo "ok: $*"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL: $*"; }

# expect_eq WHAT GOT WANT
expect_eq() {
    if [ "$2" = "$3" ]; then pass "$1 = $3"; else fail "$1: got '$2', want '$3'"; fi
}

# expect_grep WHAT PATTERN FILE
expect_grep() {
    if grep -q -- "$2" "$3"; then pass "$1"; else
        fail "$1: no '$2' in:"; sed 's/^/    | /' "$3"; fi
}

# run NP PROG ARGS...: NP=0 runs without mpirun (embedded, one process)
run() {
    np=$1; shift
    if [ "$np" = 0 ]; then "$@"; else
        $MPIRUN -np "$np" "$@"; fi
}

# The summary line without its ranks= field (equal for every layout).
summary_sans_ranks() {
    grep '^mcemu: machine=' "$1" | sed 's/ ranks=[0-9]*//'
}

# field NAME FILE: value of NAME=... in the summary line
field() {
    grep '^mcemu: machine=' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

finish() {
    echo "$checks checks, $failures failed"
    [ "$failures" -eq 0 ]
}
