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
          libopenmpi-dev libhwloc-dev hwloc libcmocka-dev valgrind"
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

configure() {
    (cd "$top" && autoreconf -fi >/dev/null)
    mkdir -p "$build"
    (cd "$build" && "$top/configure" --enable-werror ${CONFIGURE_FLAGS:-})
}

case "$cmd" in
deps)
    deps
    ;;
demo)
    deps
    mpi_env
    configure
    make -C "$build" -j"$jobs"
    echo
    echo "== demo: 64 virtual nodes in one process, 10 rounds of a 1 KiB ring =="
    "$build/apps/ring" --mce-nodes=64 --rounds=10 --bytes=1024 --mce-summary \
        --mce-trace="$build/ring-trace.json"
    echo "timeline written to $build/ring-trace.json (open it in https://ui.perfetto.dev)"
    ;;
check)
    deps
    mpi_env
    configure
    make -C "$build" -j"$jobs"
    make -C "$build" -j"$jobs" check
    make -C "$build" -j"$jobs" distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror
    ;;
*)
    echo "usage: $0 demo|check|deps" >&2
    exit 2
    ;;
esac
