# Shared helpers for the script tests (sourced).  The test environment
# exports top_srcdir, top_builddir and MPIEXEC (see Makefile.am).
#
# The scripts speak TAP, read by automake's tap-driver.sh: every pass or
# fail is one "ok N - what" / "not ok N - what" line, its details follow
# as "# " lines, and finish prints the plan "1..N".  TAP goes to file
# descriptor 3 (the script's original standard output).  Everything else
# the script and the programs it runs print, on standard output or error
# (informational echo lines, error messages), is kept in a file and
# appended to the TAP stream as "# " comments when the script exits: so
# it can never be taken for a TAP line, and it reaches the test's .log in
# one piece after the results.  note prints a "# " line at once.
set -u
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
: "${MPIEXEC:=mpirun}"
# Open MPI's own allocations look leaked to LeakSanitizer at exit; leak
# checking stays on for the single-process runs, which exercise the same
# engine code.
# Every rank hosts nodes (the default packs oversubscribed ranks onto the
# cores, which would hide the layouts the tests compare).
MPIRUN="env ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 $MPIEXEC"
[ -n "${MCE_OVERSUBSCRIBED:-}" ] || export MCE_OVERSUBSCRIBED=spread
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# HANG: the prefix that bounds a run which could hang (a deadlock the
# engine must report, a program that must end).  It guards against a
# hang only and never times anything: a run on a loaded machine (a
# 64-rank test beside it, the sanitizers, valgrind) may take many times
# its usual seconds.  TEST_HANG_SECONDS changes it.
HANG="timeout ${TEST_HANG_SECONDS:-600}"
B=$top_builddir
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mcemu-test.XXXXXX")
# Each script's mpirun sessions under its own directory: two mpirun
# starting at once (make check -j2) race to create Open MPI 4.1's shared
# session directory (/tmp/ompi.HOST.UID), and the loser fails in
# orte_init with "mkdir ... File exists" (open-mpi/ompi#8510).
export OMPI_MCA_orte_tmpdir_base="$TMP"
exec 3>&1 > "$TMP/.output" 2>&1
trap 'tap_output; rm -rf "$TMP"' EXIT

# tap_output: the script's other output as "# " comments (at exit)
tap_output() {
    [ -s "$TMP/.output" ] || return 0
    echo "# output of the script and the programs it ran:" >&3
    sed 's/^/#   /' "$TMP/.output" >&3
}
# The counts live in files so that checks made in subshells count too.
echo 0 > "$TMP/.checks"
echo 0 > "$TMP/.failures"
failures=0
checks=0

# tap_result ok|not ok TEXT: the TAP line (TEXT's first line, "#" escaped
# so that it cannot read as a SKIP/TODO directive); further lines of TEXT
# become "# " diagnostics.
tap_result() {
    checks=$(($(cat "$TMP/.checks") + 1))
    echo "$checks" > "$TMP/.checks"
    printf '%s\n' "$2" | {
        IFS= read -r first || first=
        first=$(printf '%s' "$first" | sed 's/#/\\#/g')
        printf '%s %d - %s\n' "$1" "$checks" "$first"
        sed 's/^/# /'
    } >&3
}

pass() { tap_result ok "$*"; }
fail() {
    failures=$(($(cat "$TMP/.failures") + 1))
    echo "$failures" > "$TMP/.failures"
    tap_result "not ok" "$*"
}

# known_fail TEXT: a check that fails today and is kept at the paper's
# bound: a TAP "not ok ... # TODO" line (automake counts it as XFAIL, and
# as XPASS, a failure, once it holds: then make it a plain check).
known_fail() {
    checks=$(($(cat "$TMP/.checks") + 1))
    echo "$checks" > "$TMP/.checks"
    printf 'not ok %d - %s # TODO known failure\n' "$checks" \
        "$(printf '%s' "$1" | sed 's/#/\\#/g')" >&3
}
# check_or_known WHAT AWK-CONDITION: pass, or a known failure
check_or_known() {
    if awk "BEGIN { exit !($2) }"; then pass "$1"; else known_fail "$1"; fi
}

# note TEXT: an informational line in the TAP stream (a "# " comment).
note() { printf '%s\n' "$*" | sed 's/^/# /' >&3; }

# expect_eq WHAT GOT WANT
expect_eq() {
    if [ "$2" = "$3" ]; then pass "$1 = $3"; else fail "$1: got '$2', want '$3'"; fi
}

# expect_grep WHAT PATTERN FILE
expect_grep() {
    if grep -q -- "$2" "$3"; then pass "$1"; else
        fail "$1: no '$2' in:"; sed 's/^/#     | /' "$3" >&3; fi
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

# finish: the TAP plan; the exit status is 0 when no check failed, or
# always under make check (TESTS_TAP_DRIVER=1), whose TAP driver counts
# the failed checks themselves (a non-zero status would count once more).  A
# script that made no check reports itself skipped.
finish() {
    checks=$(cat "$TMP/.checks")
    failures=$(cat "$TMP/.failures")
    if [ "$checks" -eq 0 ]; then
        echo "1..0 # SKIP no checks were made" >&3
        return 0
    fi
    echo "1..$checks" >&3
    echo "# $checks checks, $failures failed" >&3
    [ "$failures" -eq 0 ] || [ "${TESTS_TAP_DRIVER:-}" = 1 ]
}

# skip REASON: skip the whole script (call before any check).
skip() {
    echo "1..0 # SKIP $*" >&3
    exit 0
}

# expect_formats WHAT PREFIX TABLE CMD...: runs CMD (a program sharing
# apps/opts.c) as it is, with --format=csv and with --format=json, and
# checks that the CSV rows of table TABLE carry the same numbers as the
# table's "PREFIX key=value ..." lines (PREFIX: an extended regular
# expression matched at the start of the line) (same keys, in order; a number
# equal to the printed one at the printed precision; a key the line does
# not print is empty in the CSV), and that the JSON parses and has the
# CSV's rows (python3, when installed).  With FMT_BY_POSITION=1 the
# line's values are compared in order with the CSV's columns (for lines
# that repeat a key, such as "predicted"); with FMT_NUMBERS=1 the numbers
# of the line (for lines that are not key=value) in order with the CSV's
# numeric columns.
expect_formats() {
    what=$1 prefix=$2 tab=$3
    shift 3
    "$@" > "$TMP/fmt.t" 2> "$TMP/fmt.te" || { fail "$what: table run status $?"; cat "$TMP/fmt.te"; return; }
    "$@" --format=csv > "$TMP/fmt.c" 2> "$TMP/fmt.ce" || { fail "$what: csv run status $?"; cat "$TMP/fmt.ce"; return; }
    "$@" --format=json > "$TMP/fmt.j" 2> "$TMP/fmt.je" || { fail "$what: json run status $?"; cat "$TMP/fmt.je"; return; }
    awk -v prefix="$prefix" -v tab="$tab" -v bypos="${FMT_BY_POSITION:-0}" \
        -v bynum="${FMT_NUMBERS:-0}" '
        function num(s) { return s ~ /^-?[0-9]+(\.[0-9]+)?$/ }
        function prec(s) { return index(s, ".") ? 0.5 * 10 ^ -(length(s) - index(s, ".")) : 0.5 }
        FNR == NR { if ($0 !~ "^" prefix) next
                    t++; n[t] = 0
                    if (bynum) { l = $0; sub("^" prefix, "", l)
                                 while (match(l, /-?[0-9]+(\.[0-9]+)?/)) { v[t, ++n[t]] = substr(l, RSTART, RLENGTH); l = substr(l, RSTART + RLENGTH) }
                                 next }
                    for (i = 2; i <= NF; i++) { p = index($i, "="); if (p) { n[t]++; v[t, bypos ? n[t] : substr($i, 1, p - 1)] = substr($i, p + 1) } }
                    next }
        /^table,/ { nh = split($0, h, ","); next }
        { split($0, c, ","); if (c[1] != tab) next }
        { r++; if (r > t) { print "csv row " r ": no table line"; bad++; next }
          j = 0
          for (i = 2; i <= nh; i++) {
              if (bynum && c[i] !~ /^-?[0-9.e+-]+$/) continue
              k = bynum ? ++j : bypos ? i - 1 : h[i]
              if (!((r, k) in v)) { if (c[i] != "") { print "row " r " " k ": csv " c[i] ", not in the table line"; bad++ } ; continue }
              x = v[r, k]
              if (num(x) && c[i] ~ /^-?[0-9.e+-]+$/) { d = c[i] - x; if (d < 0) d = -d; if (d > prec(x) + 1e-9) { print "row " r " " k ": table " x ", csv " c[i]; bad++ } }
              else if (x != c[i]) { print "row " r " " k ": table " x ", csv " c[i]; bad++ }
          }
          nnum[r] = j }
        END { if (bynum) for (q = 1; q <= r; q++) if (n[q] != nnum[q]) { print "row " q ": " n[q] " numbers in the line, " nnum[q] " in the csv"; bad++ }
              if (r != t) { print "table lines " t ", csv rows " r; bad++ }
              if (t == 0) { print "no table lines"; bad++ }
              exit bad > 0 }' "$TMP/fmt.t" "$TMP/fmt.c" > "$TMP/fmt.diff"
    if [ $? -eq 0 ]; then
        pass "$what: --format=csv rows equal the table ($(grep -cE "^$prefix" "$TMP/fmt.t"))"
    else
        fail "$what: --format=csv differs from the table:"
        sed 's/^/#     /' "$TMP/fmt.diff" >&3
    fi
    expect_json_rows "$what" "$TMP/fmt.j" "$TMP/fmt.c" "$tab"
}

# expect_json_rows WHAT JSON CSV TABLE: the JSON output (one object per
# printing node) parses and its rows of table TABLE are the CSV's (python3,
# when installed).
expect_json_rows() {
    command -v python3 > /dev/null 2>&1 || return 0
    python3 - "$2" "$3" "$4" > "$TMP/fmt.jd" 2>&1 <<'PY'
import csv, json, sys
dec = json.JSONDecoder()
text = open(sys.argv[1]).read()
rows, i = [], 0
while True:  # one object per printing node, one after another
    while i < len(text) and text[i].isspace():
        i += 1
    if i == len(text):
        break
    d, i = dec.raw_decode(text, i)
    rows += [r for r in d["rows"] if r["table"] == sys.argv[3]]
want, head = [], None
for f in csv.reader(open(sys.argv[2])):
    if f and f[0] == "table":
        head = f  # a header row: the columns of the rows that follow
    elif f and f[0] == sys.argv[3]:
        want.append(dict(zip(head, f)))
def same(a, b):
    if a is None:
        return b == ""
    if isinstance(a, (int, float)):
        return b != "" and abs(float(b) - a) <= 1e-9 * max(1, abs(a))
    return str(a) == b
assert len(rows) == len(want), "%d json rows, %d csv rows" % (len(rows), len(want))
for r, w in zip(rows, want):
    for k, v in r.items():
        assert same(v, w[k]), "%s: json %r, csv %r" % (k, v, w[k])
PY
    if [ $? -eq 0 ]; then pass "$1: --format=json parses, rows as in the csv"
    else fail "$1: --format=json:"; sed 's/^/#     /' "$TMP/fmt.jd" >&3; fi
}
