#!/bin/sh
# mcemu set-up on a fresh Debian machine.
#   ./build.sh demo    install dependencies, build, run the demo (one process)
#   ./build.sh check   install dependencies, build, run the test suite
#                      (what CI runs): the whole suite on the normal build,
#                      a subset under ASan/UBSan, then make distcheck
#   ./build.sh deps    install dependencies only
# Environment: JOBS (parallel make jobs, default: number of CPUs),
# BUILD_DIR (default: _build), CONFIGURE_FLAGS (extra configure flags).
set -eu

top=$(cd "$(dirname "$0")" && pwd)
cmd=${1:-demo}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
build=${BUILD_DIR:-$top/_build}

deps() {
    pkgs="build-essential autoconf automake libtool pkg-config openmpi-bin
          libopenmpi-dev libhwloc-dev hwloc libcmocka-dev valgrind gfortran
          libopen-trace-format2-dev otf2-tools
          binutils clang libclang-rt-dev gnuplot-nox chromium"
    missing=""
    for p in $pkgs; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
            missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    echo "build.sh: installing$missing"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
}

# mpirun refuses root unless told; CI runs as root.  More ranks than cores
# are fine for an emulator.
mpi_env() {
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_MCA_rmaps_base_oversubscribe=1
}

# configure DIR [FLAGS...]: out-of-tree build in DIR
configure() {
    dir=$1; shift
    if [ ! -x "$top/configure" ] || [ "$top/configure.ac" -nt "$top/configure" ] ||
        [ "$top/Makefile.am" -nt "$top/Makefile.in" ] ||
        [ -n "$(find "$top/lib" -name Makefile.include \
            -newer "$top/Makefile.in" 2>/dev/null)" ]; then
        (cd "$top" && autoreconf -fi >/dev/null)
    fi
    mkdir -p "$dir"
    (cd "$dir" && "$top/configure" --enable-werror "$@" ${CONFIGURE_FLAGS:-})
}

# run_check DIR LABEL: make check; on failure print the failing logs and
# remember the failure (the summary comes at the end either way)
failed_runs=""
failed_tests=""
run_check() {
    if ! make -C "$1" -j"$jobs" check; then
        echo "build.sh: $2: test failures; logs follow" >&2
        for f in $(find "$1/tests" -name '*.trs'); do
            grep -q '^:test-result: \(FAIL\|ERROR\|XPASS\)' "$f" || continue
            echo "== ${f%.trs}.log"
            cat "${f%.trs}.log"
            failed_tests="$failed_tests ${f%.trs}.log"
        done
        failed_runs="$failed_runs, $2"
    fi
}

# failure_digest: after the summary, each failed test's name and the lines
# that say what failed (a CI record may keep only the end of the output)
failure_digest() {
    for l in $failed_tests; do
        echo "build.sh: failed: $l"
        grep -E '^(not ok|FAIL|ERROR|XPASS)|[Aa]ssert|[Ee]rror|expected' "$l" |
            grep -v '# TODO' | head -n 12 | sed 's/^/    /'
    done
}

# fuzz_quick DIR: the libFuzzer harnesses of tests/fuzz, 10 s each (about
# 90 s with their build: fuzz_calls compiles the whole engine), when
# configure found clang with libFuzzer
# (clang, and libclang-rt-dev for -fsanitize=fuzzer: doc/USER-GUIDE.md
# 13.2).  Any crash or sanitizer report fails.
fuzz_quick() {
    if ! make -C "$1" fuzz-quick FUZZ_QUICK_SECONDS=10; then
        echo "build.sh: fuzzing found a failure; logs in $1/fuzz-work" >&2
        failed_runs="$failed_runs, fuzzing"
    fi
}

# count FILE KEY: the figure KEY of automake's summary ("# PASS:  12") in
# FILE (a test-suite.log or make output), 0 when absent
count() {
    n=$(sed -n "s/^\(# \)\{0,1\}$2: *\([0-9]*\)$/\2/p" "$1" 2>/dev/null |
        tail -n 1)
    echo "${n:-0}"
}

# tally FILE LABEL: add FILE's counts to the totals and report them
passed=0 failed=0 skipped=0
tally() {
    p=$(count "$1" PASS)
    f=$(( $(count "$1" FAIL) + $(count "$1" ERROR) + $(count "$1" XPASS) ))
    s=$(count "$1" SKIP)
    echo "build.sh: $2: $p passed, $f failed, $s skipped"
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

case "$cmd" in
deps)
    deps
    ;;
demo)
    deps
    mpi_env
    configure "$build"
    make -C "$build" -j"$jobs"
    echo
    echo "== demo: the Sobel edge detector of Mudge et al. (1987) on a 16-node"
    echo "== NCUBE, standard and extended Vertex, all nodes in one process =="
    (cd "$build" && ./apps/sobel_edge --mce-nodes=16 --mce-summary \
        --output="$build/sobel_out.pgm" --mce-trace="$build/sobel-trace.json")
    echo "edge image: $build/sobel_out.pgm (512x512 PGM)"
    echo "timeline:   $build/sobel-trace.json (open it in https://ui.perfetto.dev)"
    ;;
check)
    deps
    mpi_env
    t0=$(date +%s)
    # 1. the normal build: the whole suite (unit, core, MPI, fidelity and
    #    valgrind tests)
    configure "$build"
    make -C "$build" -j"$jobs"
    run_check "$build" "default build"
    t1=$(date +%s)
    # 2. AddressSanitizer and UBSan: every test but the two that cost most
    #    under them (configure --with-tests=sanitizer; SANITIZER_SKIP in
    #    Makefile.am)
    configure "$build-sanitizers" --enable-sanitizers --with-tests=sanitizer
    make -C "$build-sanitizers" -j"$jobs"
    run_check "$build-sanitizers" "sanitizer build"
    # 2b. the fuzz harnesses, briefly
    fuzz_quick "$build"
    t2=$(date +%s)
    # 3. the distribution tarball builds, installs and passes the quick
    #    tests on its own; built the way CI builds nothing else: with the
    #    debug checks (MCEI_ASSERT), the portable ucontext fiber switch and
    #    without hwloc (the placement report from the kernel)
    dc_flags="--enable-werror --enable-debug --enable-portable-context"
    dc_flags="$dc_flags --without-hwloc"
    dc_flags="$dc_flags --with-tests=quick"
    make -C "$build" -j"$jobs" distcheck DISTCHECK_CONFIGURE_FLAGS="$dc_flags" \
        2>&1 | tee "$build/distcheck.out"
    # (tee hides make's status: distcheck passed if it says so)
    grep -q 'archives ready for distribution' "$build/distcheck.out" ||
        failed_runs="$failed_runs, distcheck"
    t3=$(date +%s)
    echo
    tally "$build/test-suite.log" "default build, all tests, $((t1 - t0)) s"
    tally "$build-sanitizers/test-suite.log" \
        "sanitizer build, sanitizer set, $((t2 - t1)) s"
    tally "$build/distcheck.out" "distcheck, quick set, $((t3 - t2)) s"
    echo "build.sh check: $((t3 - t0)) s in all; $skipped checks skipped"
    if [ -n "$failed_runs" ]; then
        echo "build.sh check: FAILED in ${failed_runs#, }"
        failure_digest
        # a run that failed without a failed check (a build error) counts
        [ "$failed" -gt 0 ] || failed=1
        echo "$passed passed, $failed failed"
        exit 1
    fi
    echo "build.sh check: default and sanitizer builds, distcheck passed"
    echo "$passed passed, $failed failed"
    ;;
*)
    echo "usage: $0 demo|check|deps" >&2
    exit 2
    ;;
esac
