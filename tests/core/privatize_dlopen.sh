#!/bin/sh
# Privatisation by dlopen (mcecc -mce-privatize=dlopen: one copy of the
# node program per node of a process, lib/core/privatize.c):
#   - each node's globals stay its own: tests/progs/globals.c (.data, .bss,
#     a string; a 256 KiB array) and bench/privswitch.c with 1 MiB of
#     globals (each node writes its own value and reads it back after the
#     other nodes ran), in one process and on 2 ranks; with
#     --mce-privatize=off the same programs see each other's writes (so
#     the checks can fail);
#   - beyond --mce-privatize-copies one copy is loaded and its globals are
#     switched: a note says so and the globals stay private;
#   - every personality's entry: native, NX (a K&R main falling off its
#     end: the _void entry; sleep polling through the library's sleep), iWarp (apps/iwarp/iwarp_barrier) and TCS
#     (apps/tcs/motion_detect: tcs_declare and its task functions) give
#     the digests of their ordinary builds, on 1, 2 and 4 ranks;
#   - mcecc -mce-privatize=auto: dlopen for 256 KiB of globals, not for a
#     small program;
#   - mcecc refuses an unknown mode and counted compute with dlopen.
. "$top_srcdir/tests/lib.sh"

S=$top_srcdir
export MCECC_INCLUDEDIR="$S/include" MCECC_LIBDIR="$B/lib/.libs"
MCECC=$B/tools/mcecc
T=$HANG

# build NAME ARGS...: mcecc -mce-privatize=dlopen ARGS -o $TMP/NAME
build() {
    name=$1; shift
    "$MCECC" -mce-privatize=dlopen "$@" -o "$TMP/$name" > "$TMP/cc" 2>&1
    expect_eq "mcecc -mce-privatize=dlopen builds $name" $? 0
    sed 's/^/    | /' "$TMP/cc"
}

# ---- private globals -------------------------------------------------------
build globals "$S/tests/progs/globals.c"
g=$TMP/globals
$T "$g" --mce-nodes=4 > "$TMP/o" 2>&1
expect_eq "globals: status" $? 0
expect_eq "globals: 4 nodes ok" "$(grep -c ' ok$' "$TMP/o")" 4
$T "$g" big --mce-nodes=4 > "$TMP/o" 2>&1
expect_eq "globals big: status" $? 0
expect_eq "globals big: 4 nodes ok" "$(grep -c ' ok$' "$TMP/o")" 4
$T "$g" --mce-nodes=4 --mce-privatize=off > "$TMP/o" 2>&1
expect_eq "globals shared under --mce-privatize=off" "$(grep -c 'MIXED' "$TMP/o")" 4
$T $MPIRUN -np 2 "$g" big --mce-nodes=6 > "$TMP/o" 2>&1
expect_eq "globals: 2 ranks x 3 nodes status" $? 0
expect_eq "globals: 2 ranks x 3 nodes ok" "$(grep -c ' ok$' "$TMP/o")" 6

build priv_1m -DGLOBALS=1048576 "$S/bench/privswitch.c"
$T "$TMP/priv_1m" 50 --mce-nodes=16 > "$TMP/o" 2>&1
expect_eq "1 MiB of globals, 16 nodes, 50 rounds: each reads back its own" $? 0
$T "$TMP/priv_1m" 50 --mce-nodes=16 --mce-privatize=off > "$TMP/o" 2>&1
st=$?
expect_eq "... and not with --mce-privatize=off: fails" "$([ $st -ne 0 ] && echo yes)" yes
expect_grep "... which it reports" "globals not private" "$TMP/o"
$T $MPIRUN -np 2 "$TMP/priv_1m" 50 --mce-nodes=16 > "$TMP/o" 2>&1
expect_eq "1 MiB of globals on 2 ranks x 8 nodes" $? 0

"$g" --mce-help > "$TMP/o" 2>&1
expect_grep "--mce-help names the node program's personality" \
    "This program: personality native (mcemu.h)" "$TMP/o"

# ---- more nodes than copies: one copy, its globals switched ---------------
for arg in "" big; do
    $T "$g" $arg --mce-nodes=4 --mce-privatize-copies=2 > "$TMP/o" 2>&1
    expect_eq "4 nodes, 2 copies allowed ($arg): status" $? 0
    expect_eq "4 nodes, 2 copies allowed ($arg): ok" "$(grep -c ' ok$' "$TMP/o")" 4
    expect_grep "4 nodes, 2 copies allowed ($arg): note" \
        "mcemu: note: 4 nodes in this process need more copies of the node program .* than --mce-privatize-copies (2)" "$TMP/o"
done
$T "$g" --mce-nodes=4 --mce-privatize-copies=4 > "$TMP/o" 2>&1
expect_eq "4 nodes, 4 copies allowed: no note" "$(grep -c 'note:' "$TMP/o")" 0

# ---- every entry: digests of the ordinary builds, 1, 2 and 4 ranks --------
# same NAME REF ARGS: the summary of $TMP/NAME ARGS = that of REF ARGS, in
# one process and on 2 and 4 ranks
same() {
    name=$1 ref=$2; shift 2
    $T "$ref" "$@" --mce-summary > "$TMP/r" 2>&1
    want=$(summary_sans_ranks "$TMP/r")
    [ -n "$want" ] || fail "$name: the ordinary build gives no summary"
    for np in 0 1 2 4; do
        if [ $np = 0 ]; then
            $T "$TMP/$name" "$@" --mce-summary > "$TMP/o" 2>&1
        else
            $T $MPIRUN -np $np "$TMP/$name" "$@" --mce-summary > "$TMP/o" 2>&1
        fi
        expect_eq "$name on $np ranks (0: one process): digest" \
            "$(summary_sans_ranks "$TMP/o")" "$want"
    done
}
build kr_ring -w "$S/tests/legacy/kr_ring.c"
"$MCECC" -w "$S/tests/legacy/kr_ring.c" -o "$TMP/kr_ring_switch" > "$TMP/cc" 2>&1
expect_eq "kr_ring: ordinary build" $? 0
same kr_ring "$TMP/kr_ring_switch" --mce-nodes=4
expect_grep "kr_ring: result" "kr_ring: 4 nodes, sum 6 (want 6)" "$TMP/o"

# sleep() is interposed by the library for the copies too
build sleep_poll -w "$S/tests/legacy/sleep_poll.c"
"$MCECC" -w "$S/tests/legacy/sleep_poll.c" -o "$TMP/sleep_poll_switch" > "$TMP/cc" 2>&1
expect_eq "sleep_poll: ordinary build" $? 0
same sleep_poll "$TMP/sleep_poll_switch" --mce-nodes=4
expect_grep "sleep_poll: result" "sleep_poll: node 3 got 42 after 4 polls at 4 s" "$TMP/o"

build iwarp_barrier -I"$S/apps" -I"$S/util" "$S/apps/iwarp/iwarp_barrier.c" \
    "$S/apps/iwarp/iwapp.c" "$S/apps/opts.c"
same iwarp_barrier "$B/apps/iwarp/iwarp_barrier" --scheme=cube --signal=dep \
    --cells=16 --runs=5
build motion_detect -I"$S/apps" -I"$S/util" "$S/apps/tcs/motion_detect.c" \
    "$S/apps/tcs/video.c" "$S/apps/opts.c"
same motion_detect "$B/apps/tcs/motion_detect" --mce-nodes=64 --block=4 \
    --frames=1 --video=square

# ---- -mce-privatize=auto: dlopen beyond 16 KiB of writable data ---------
"$MCECC" -mce-privatize=auto "$S/tests/progs/globals.c" -o "$TMP/auto_big" > "$TMP/cc" 2>&1
expect_eq "auto builds globals (256 KiB)" $? 0
expect_eq "... with dlopen" "$(nm -D "$TMP/auto_big" | grep -c ' mce_node_image_start$')" 1
$T "$TMP/auto_big" big --mce-nodes=4 > "$TMP/o" 2>&1
expect_eq "... whose 4 nodes keep their globals" "$(grep -c ' ok$' "$TMP/o")" 4
"$MCECC" -w -mce-privatize=auto "$S/tests/legacy/kr_ring.c" -o "$TMP/auto_small" > "$TMP/cc" 2>&1
expect_eq "auto builds kr_ring (small globals)" $? 0
expect_eq "... without dlopen" "$(nm -D "$TMP/auto_small" | grep -c ' mce_node_image_start$')" 0
$T "$TMP/auto_small" --mce-nodes=4 > "$TMP/o" 2>&1
expect_grep "... and it runs" "kr_ring: 4 nodes, sum 6 (want 6)" "$TMP/o"

# ---- mcecc's refusals --------------------------------------------------------
"$MCECC" -mce-privatize=bogus "$S/tests/progs/globals.c" -o "$TMP/x" > "$TMP/o" 2>&1
expect_eq "mcecc -mce-privatize=bogus: status" $? 2
expect_grep "... names the modes" "unknown -mce-privatize 'bogus' (dlopen" "$TMP/o"
case "$(${MCECC_CC:-mpicc} -dumpmachine 2>/dev/null)" in
x86_64*)
    "$MCECC" -mce-privatize=dlopen -mce-compute=counted \
        "$S/tests/progs/globals.c" -o "$TMP/x" > "$TMP/o" 2>&1
    expect_eq "counted and dlopen: status" $? 2
    expect_grep "... says why" "do not go together" "$TMP/o" ;;
esac
finish
