#!/bin/sh
# mcemu set-up on a fresh Debian machine.
#   ./build.sh demo    install dependencies, build, run the demo (one process)
#   ./build.sh check   install dependencies, build, run the whole test suite
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
          binutils clang libclang-rt-dev"
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
        [ "$top/Makefile.am" -nt "$top/Makefile.in" ]; then
        (cd "$top" && autoreconf -fi >/dev/null)
    fi
    mkdir -p "$dir"
    (cd "$dir" && "$top/configure" --enable-werror "$@" ${CONFIGURE_FLAGS:-})
}

# run_check DIR LABEL: make check, printing the failing logs on failure
run_check() {
    if ! make -C "$1" -j"$jobs" check; then
        echo "build.sh: $2: test failures; logs follow" >&2
        for f in $(find "$1/tests" -name '*.log'); do
            grep -q '^FAIL\|^ERROR' "$f" 2>/dev/null && { echo "== $f"; cat "$f"; }
        done
        exit 1
    fi
}

# fuzz_quick DIR: the libFuzzer harnesses of tests/fuzz, 10 s each (about
# 40 s with their build), when configure found clang with libFuzzer
# (clang, and libclang-rt-dev for -fsanitize=fuzzer: doc/USER-GUIDE.md
# 13.2).  Any crash or sanitizer report fails.
fuzz_quick() {
    if ! make -C "$1" fuzz-quick FUZZ_QUICK_SECONDS=10; then
        echo "build.sh: fuzzing found a failure; logs in $1/fuzz-work" >&2
        exit 1
    fi
}

# count DIR KEY: a figure from DIR/test-suite.log ("# PASS:  12")
count() {
    sed -n "s/^# $2: *//p" "$1/test-suite.log" | head -n 1
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
    # 1. the normal build: unit, fidelity, MPI and valgrind tests
    configure "$build"
    make -C "$build" -j"$jobs"
    run_check "$build" "default build"
    # 2. the same suite built with AddressSanitizer and UBSan
    configure "$build-sanitizers" --enable-sanitizers
    make -C "$build-sanitizers" -j"$jobs"
    run_check "$build-sanitizers" "sanitizer build"
    fuzz_quick "$build"
    # 3. the distribution tarball builds and passes on its own
    make -C "$build" -j"$jobs" distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror
    p=$(( $(count "$build" PASS) + $(count "$build-sanitizers" PASS) ))
    f=$(( $(count "$build" FAIL) + $(count "$build" ERROR) +
          $(count "$build-sanitizers" FAIL) + $(count "$build-sanitizers" ERROR) ))
    echo "build.sh check: default and sanitizer builds, distcheck passed"
    echo "$p passed, $f failed"
    ;;
*)
    echo "usage: $0 demo|check|deps" >&2
    exit 2
    ;;
esac
