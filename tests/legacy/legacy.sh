#!/bin/sh
# Legacy programs as they were written (issue 15): K&R definitions, old
# declarations of the NX and Vertex calls, void main() and mains falling
# off their end, sleep polling, a shared counter served by an NX handler
# while its node is blocked, a main in a file without any mcemu header,
# a handler serving while its node sleeps, an NCUBE 2 (nCX) program
# without a header, <cube.h>, int where NX takes long (-mce-nx-long=32).
# Each compiles with mcecc unchanged, prints the right result, ends with
# status 0 and gives the same digest on 1, 2 and 4 ranks.
. "$top_srcdir/tests/lib.sh"

S=$top_srcdir/tests/legacy
export MCECC_INCLUDEDIR="$top_srcdir/include" MCECC_LIBDIR="$B/lib/.libs"
MCECC=$B/tools/mcecc
T=$HANG

# build NAME ARGS...: mcecc ARGS -o $TMP/NAME, compiler output shown
build() {
    name=$1; shift
    "$MCECC" -w "$@" -o "$TMP/$name" > "$TMP/cc" 2>&1
    expect_eq "mcecc builds $name $*" $? 0
    sed 's/^/    | /' "$TMP/cc"
}

# layouts NAME NODES PATTERN ARGS: status 0 and PATTERN on 1 process, and
# the same summary on 2 and 4 ranks
layouts() {
    name=$1 nodes=$2 pat=$3; shift 3
    $T "$TMP/$name" --mce-nodes="$nodes" --mce-summary "$@" > "$TMP/o1" 2>&1
    expect_eq "$name: status" $? 0
    expect_grep "$name: result" "$pat" "$TMP/o1"
    for np in 2 4; do
        $T $MPIRUN -np $np "$TMP/$name" --mce-nodes="$nodes" --mce-summary \
            "$@" > "$TMP/o$np" 2>&1
        expect_eq "$name on $np ranks: status" $? 0
        expect_eq "$name on $np ranks: summary" \
            "$(summary_sans_ranks "$TMP/o$np")" "$(summary_sans_ranks "$TMP/o1")"
    done
}

# ---- item 1: a handler answers while its node is blocked in crecv -------
build counter "$S/counter.c"
layouts counter 4 "counter: 15 tickets, sum 105 (want 105)"

# ... and the deadlock report names a pending handler receive
cat > "$TMP/hdl.c" <<'PROG'
#include <nx.h>
static long buf;
static void h(long t, long c, long n, long p) { (void)t; (void)c; (void)n; (void)p; }
int main() { if (mynode() == 0) { hrecv(5L, &buf, 8L, h); crecv(6L, &buf, 8L); } return 0; }
PROG
build hdl "$TMP/hdl.c"
$T "$TMP/hdl" --mce-nodes=2 > "$TMP/o" 2>&1
expect_eq "deadlock with a pending handler: status" $? 3
expect_grep "deadlock report names the pending handler" \
    "1 handler receive pending: hrecv of type 5" "$TMP/o"

# ---- items 3 and 4: K&R, old declarations, mains without a status -------
build kr_ring "$S/kr_ring.c"
layouts kr_ring 4 "kr_ring: 4 nodes, sum 6 (want 6)"
cp "$TMP/o1" "$TMP/kr_ring.o1"
for std in c89 c99 c11; do
    build kr_ring_$std -std=$std "$S/kr_ring.c"
    $T "$TMP/kr_ring_$std" --mce-nodes=2 > "$TMP/o" 2>&1
    expect_eq "kr_ring -std=$std: status" $? 0
    expect_grep "kr_ring -std=$std: result" "sum 1 (want 1)" "$TMP/o"
    $T "$TMP/kr_ring_$std" --mce-nodes=1 > "$TMP/o" 2>&1
    expect_eq "kr_ring -std=$std on one node (return;): status" $? 0
done
# A sanitizer build's library carries gcc's sanitizer runtime, which a
# clang-built program cannot share.
if "$MCECC" --showme -o x x.c | grep -q -- -fsanitize; then
    note "sanitizer build: the clang builds are not checked"
elif command -v clang > /dev/null 2>&1; then
    for std in c89 c11; do
        MCECC_CC=clang build sleep_poll_clang_$std -std=$std "$S/sleep_poll.c"
        $T "$TMP/sleep_poll_clang_$std" --mce-nodes=2 > "$TMP/o" 2>&1
        expect_eq "void main with clang -std=$std: status" $? 0
        MCECC_CC=clang build kr_ring_clang_$std -std=$std "$S/kr_ring.c"
        $T "$TMP/kr_ring_clang_$std" --mce-nodes=2 > "$TMP/o" 2>&1
        expect_eq "K&R main with clang -std=$std: status" $? 0
        $T "$TMP/kr_ring_clang_$std" --mce-nodes=1 > "$TMP/o" 2>&1
        expect_eq "K&R main with clang -std=$std, one node (return;): status" $? 0
    done
else
    note "clang not installed: the clang builds are not checked"
fi
# A main's own status still counts.
cat > "$TMP/st.c" <<'PROG'
#include <nx.h>
int main(int argc, char **argv) { (void)argc; (void)argv; return mynode() == 1 ? 5 : 0; }
PROG
build st "$TMP/st.c"
$T "$TMP/st" --mce-nodes=2 > "$TMP/o" 2>&1
expect_eq "a main returning 5 on node 1: status" $? 5

build vx_legacy "$S/vx_legacy.c"
layouts vx_legacy 4 "vx_legacy: 4 nodes, dim 2, sum 6 (want 6)"

# ---- item 6: an NCUBE 2 (nCX) program, no header, -mce-api=ncube2 --------
build nc2_legacy -mce-api=ncube2 -DNCUBE "$S/nc2_legacy.c"
layouts nc2_legacy 4 "isumn 10 (want 10), imaxn 3, iminn 0, fsumn 6.0"
for pat in "machine=ncube2 nodes=4" "right on every node" \
    "ring: 4 of 4 nodes got their left neighbour's number" \
    "best 7.485470861 from node 0, known to 4 nodes" \
    "node 3 of 4 in local mode" "nc2_legacy: node 0: nwrite: destination 4" \
    "amicclk advanced on every node, n_time agrees" "nc2_legacy: done"; do
    expect_grep "nc2_legacy: $pat" "$pat" "$TMP/o1"
done
# the NCUBE 2's accounting and trace: compute + comm + wait + stolen is
# each node's final clock; every message's receive interrupt is on the
# receiver's protocol track, nc2.recv_interrupt of the machine file long
# (read here: the mechanism, not a paper's value), one at a time
$T "$TMP/nc2_legacy" --mce-nodes=4 --mce-stats="$TMP/nc2.csv" --mce-trace="$TMP/nc2.json" > "$TMP/o2" 2>&1
expect_eq "nc2_legacy with stats and a trace: status" $? 0
ri=$(awk -F'[= ]+' '/^nc2.recv_interrupt/ { print $2 }' "$top_srcdir/share/machines/ncube2.conf")
RI=$ri python3 - "$TMP/nc2.csv" "$TMP/nc2.json" > "$TMP/chk" 2>&1 <<'PY'
import csv, json, os, sys
rs = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
assert len(rs) == 4 and all(sum(int(r[k]) for k in ("compute_ps", "comm_ps", "wait_ps", "stolen_ps"))
                            == int(r["vtime_ps"]) for r in rs), rs
ev = json.load(open(sys.argv[2]))["traceEvents"]
irq = [e for e in ev if e.get("cat") == "interrupt"]
assert irq and all(e["pid"] == 1 and e["name"] == "receive interrupt" and abs(e["dur"] - float(os.environ["RI"])) < 1e-9 for e in irq), irq[:2]
recv = sum(int(r["msgs_recv"]) for r in rs)
assert len(irq) >= recv, (len(irq), recv)
for n in range(4):
    h = sorted((e for e in irq if e["tid"] == n), key=lambda e: e["ts"])
    assert all(b["ts"] >= a["ts"] + a["dur"] - 1e-9 for a, b in zip(h, h[1:])), n
print("nc2 ok", len(irq))
PY
expect_grep "nc2_legacy: sum = final clock, receive interrupts traced" "^nc2 ok" "$TMP/chk"
# global mode: one copy of each line (node 0's), local mode: every node's
expect_eq "nc2_legacy: nglobal prints one copy" \
    "$(grep -c '^nc2_legacy: done' "$TMP/o1")" 1
# A global operation is log2(P) exchanges of the machine's messages: the
# time of dsumn less the clock read's trap grows as the cube's dimension
# (checked on the model's own output: a mechanism, not a paper's value).
for n in 1 2 8; do
    $T "$TMP/nc2_legacy" --mce-nodes=$n > "$TMP/n$n" 2>&1
    expect_eq "nc2_legacy on $n nodes: status" $? 0
done
t1=$(sed -n 's/^dsumn took \([0-9.]*\) us/\1/p' "$TMP/n1")
t2=$(sed -n 's/^dsumn took \([0-9.]*\) us/\1/p' "$TMP/n2")
t4=$(sed -n 's/^dsumn took \([0-9.]*\) us/\1/p' "$TMP/o1")
t8=$(sed -n 's/^dsumn took \([0-9.]*\) us/\1/p' "$TMP/n8")
expect_eq "dsumn: a step per dimension (2, 4, 8 nodes)" \
    "$(awk -v a="$t1" -v b="$t2" -v c="$t4" -v d="$t8" 'BEGIN {
        s = b - a; printf "%.3f %.3f", (c - a) / s, (d - a) / s }')" "2.000 3.000"
# nwrite to 0xffff from node 2, relayed by the kernels along the tree;
# nwrite to oneself.
cat > "$TMP/bc.c" <<'PROG'
#include <stdio.h>
main()
{
    int me, p, h, d, n, v, src, type, flag, i, sum = 0;
    whoami(&me, &p, &h, &d);
    n = 1 << d;
    if (me == 2) { v = 77; nwrite(&v, sizeof v, 0xffff, 5, &flag); }
    else { src = -1; type = 5; nread(&v, sizeof v, &src, &type, &flag); sum = v + src * 1000; }
    v = me + 100; nwrite(&v, sizeof v, me, 6, &flag);
    src = me; type = 6; nread(&v, sizeof v, &src, &type, &flag);
    i = isumn(sum) + isumn(v == me + 100);
    if (me == 0) printf("bc: %d (want %d)\n", i, (n - 1) * 2077 + n);
}
PROG
build bc -mce-api=ncube2 "$TMP/bc.c"
layouts bc 8 "bc: 14547 (want 14547)"
# Extended Vertex is NCUBE/ten's: refused on the NCUBE 2 with the way out.
cat > "$TMP/x2.c" <<'PROG'
int flag, buf;
main() { chanmode(1, 1); send(&buf, 4, 1, 1, &flag); }
PROG
build x2 -mce-api=ncube2 "$TMP/x2.c"
$T "$TMP/x2" --mce-nodes=2 > "$TMP/o" 2>&1
expect_eq "extended Vertex on the NCUBE 2: status" $? 1
expect_grep "extended Vertex on the NCUBE 2: named" \
    "extended Vertex (send, rcvreq, bcast, chanmode, flagwait) is NCUBE/ten's" "$TMP/o"

# ---- item 7: <cube.h>: led is a no-op, host calls say what to do --------
cat > "$TMP/cube.c" <<'PROG'
#include <stdio.h>
#include <cube.h>
main()
{
    long v = mynode() + 1, w;
    led(1);
    gisum(&v, 1L, &w);
    if (mynode() == 0)
        printf("cube: %ld nodes, sum %ld\n", numnodes(), v);
    led(0);
}
PROG
build cube "$TMP/cube.c"
layouts cube 4 "cube: 4 nodes, sum 10"
cat > "$TMP/host.c" <<'PROG'
#include <cube.h>
main() { if (mynode() == 1) killcube(-1L, -1L); }
PROG
build host "$TMP/host.c"
$T "$TMP/host" --mce-nodes=2 > "$TMP/o" 2>&1
expect_eq "killcube in a node: status" $? 1
expect_grep "killcube: what to do instead" \
    "killcube is an iPSC/860 host call, and mcemu has no host" "$TMP/o"

# ---- item 5: sleep polling in virtual time ------------------------------
build sleep_poll "$S/sleep_poll.c"
layouts sleep_poll 4 "sleep_poll: node 0 slept 3.500 s"
expect_grep "sleep_poll: pollers woke by virtual time" \
    "sleep_poll: node 3 got 42 after 4 polls at 4 s" "$TMP/o1"

# Handlers run while their node sleeps (at their messages' times).
build sleep_server "$S/sleep_server.c"
layouts sleep_server 4 "sleep_server: node 0 served 3, awake at 10 s"
expect_eq "sleep_server: every client answered while node 0 slept" \
    "$(grep -c 'while node 0 slept' "$TMP/o1")" 3

# A long sleep while the others wait is no livelock; a sleep-polling loop
# that nothing will ever answer is one.
cat > "$TMP/sl.c" <<'PROG'
#include <stdio.h>
#include <unistd.h>
#include <nx.h>
int main() { long v = 1; if (mynode() == 0) { sleep(30); csend(5L, &v, 8L, 1L, 0L); } else { crecv(5L, &v, 8L); printf("t=%.1f\n", dclock()); } return 0; }
PROG
build sl "$TMP/sl.c"
$T "$TMP/sl" --mce-nodes=2 > "$TMP/o" 2>&1
expect_eq "sleep(30) while the other node waits: status" $? 0
expect_grep "sleep(30): the receiver's clock" "t=30.0" "$TMP/o"
cat > "$TMP/ll.c" <<'PROG'
#include <unistd.h>
#include <nx.h>
int main() { if (mynode() == 1) while (!iprobe(5L)) sleep(1); return 0; }
PROG
build ll "$TMP/ll.c"
$T "$TMP/ll" --mce-nodes=2 > "$TMP/o" 2>&1
expect_eq "sleep polling that nothing answers: livelock status" $? 3
expect_grep "sleep polling: livelock named" "node 1: polling in iprobe" "$TMP/o"

# ---- item 2: main in a file without an mcemu header ----------------------
# Compiled and linked together: the other file's nx.h names the API.
build split "$S/split_main.c" "$S/split_work.c"
layouts split 4 "split: 4 nodes, gisum 10 (want 10)"
# Compiled apart: -mce-api names it, or the first NX call says what to do.
(cd "$TMP" && "$MCECC" -c "$S/split_main.c" && "$MCECC" -c "$S/split_work.c" &&
    "$MCECC" -o split_bare split_main.o split_work.o) > "$TMP/cc" 2>&1
expect_eq "mcecc -c main without -mce-api, then link" $? 0
$T "$TMP/split_bare" --mce-nodes=4 > "$TMP/o" 2>&1
expect_eq "main bypassing mcemu: status" $? 2
expect_grep "main bypassing mcemu: the fix is named" \
    "compile it with mcecc -mce-api=nx" "$TMP/o"
(cd "$TMP" && "$MCECC" -mce-api=nx -c "$S/split_main.c" &&
    "$MCECC" -o split_api split_main.o split_work.o) > "$TMP/cc" 2>&1
expect_eq "mcecc -mce-api=nx -c main, then link" $? 0
layouts split_api 4 "split: 4 nodes, gisum 10 (want 10)"

# ---- item 8: one node per rank -------------------------------------------
$T "$TMP/kr_ring" --mce-nodes=4 --mce-placement=one > "$TMP/o" 2>&1
expect_eq "--mce-placement=one on one process: status" $? 2
expect_grep "--mce-placement=one: what to run" "mpirun -np 4" "$TMP/o"
$T $MPIRUN -np 4 "$TMP/kr_ring" --mce-nodes=4 --mce-placement=one --mce-summary > "$TMP/o" 2>&1
expect_eq "--mce-placement=one on 4 ranks: status" $? 0
expect_eq "--mce-placement=one on 4 ranks: summary" \
    "$(summary_sans_ranks "$TMP/o")" "$(summary_sans_ranks "$TMP/kr_ring.o1")"

# ---- item 9: LP64: NX's long was 32-bit on the i860 ---------------------
# The era's int arrays, msginfo, int info[], an int handler, gopf's int
# function, gcol/gcolx/gsendx's int lists: with -mce-nx-long=32 they
# compile without a pointer warning and give the right results ...
"$MCECC" -mce-nx-long=32 -o "$TMP/lp32" "$S/lp64.c" > "$TMP/cc" 2>&1
expect_eq "mcecc -mce-nx-long=32 builds lp64.c" $? 0
expect_eq "-mce-nx-long=32: no incompatible pointer warning" \
    "$(grep -c 'incompatible' "$TMP/cc")" 0
layouts lp32 4 "lp64: 4 nodes, 4 int size, all right"
cp "$TMP/o1" "$TMP/lp32.o1"
for n in 1 2 8; do
    $T "$TMP/lp32" --mce-nodes=$n > "$TMP/o" 2>&1
    expect_grep "lp64 (int) on $n nodes" "lp64: $n nodes, 4 int size, all right" "$TMP/o"
done
# ... and the digest of the same program in long (the default 64-bit NX)
build lp64 -DNXINT=long "$S/lp64.c"
layouts lp64 4 "lp64: 4 nodes, 8 int size, all right"
expect_eq "lp64: int with -mce-nx-long=32 and long: the same summary" \
    "$(summary_sans_ranks "$TMP/lp32.o1")" "$(summary_sans_ranks "$TMP/o1")"
# The int program with the default (64-bit) NX does not compile: an int
# array where NX takes long[], K&R declarations notwithstanding ...
"$MCECC" -o "$TMP/lpbad" "$S/lp64.c" > "$TMP/cc" 2>&1
expect_eq "int[] to NX's long[] under the 64-bit NX: refused" $? 1
for f in gisum giprod giand glor crecvx irecvx cprobex iprobex gcol gcolx gsendx gopf; do
    expect_grep "refused: $f named" \
        "argument [0-9] of .mce_nx_$f. from incompatible pointer type \[-Werror=incompatible-pointer-types\]" "$TMP/cc"
done
# ... a warning when the program says so
"$MCECC" -Wno-error=incompatible-pointer-types -o "$TMP/lpbad" "$S/lp64.c" > "$TMP/cc" 2>&1
expect_eq "-Wno-error=incompatible-pointer-types: builds" $? 0
expect_grep "-Wno-error=incompatible-pointer-types: still warns" \
    "argument 1 of .mce_nx_gisum. from incompatible pointer type \[-Wincompatible-pointer-types\]" "$TMP/cc"
# A call without nx.h has no prototype and cannot link (no symbol gisum).
cat > "$TMP/imp.c" <<'PROG'
main() { int x[1], w[1]; x[0] = 1; gisum(x, 1, w); }
PROG
"$MCECC" -w -mce-api=nx -o "$TMP/imp" "$TMP/imp.c" > "$TMP/cc" 2>&1
expect_eq "gisum without nx.h: no executable" $? 1
expect_grep "gisum without nx.h: undefined" "undefined reference to .gisum." "$TMP/cc"
# A result beyond int is an error (ERANGE), never a wrapped value.
cat > "$TMP/ov.c" <<'PROG'
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <nx.h>
main()
{
    int x[2], w[2];
    long rc;
    x[0] = INT_MAX; x[1] = 1;
    rc = _gisum(x, 2, w);
    printf("node %ld: _gisum %ld%s, x %d %d\n", mynode(), rc,
           errno == ERANGE ? " ERANGE" : "", x[0], x[1]);
    x[0] = 1 << 20; x[1] = -5;
    giprod(x, 2, w);
}
PROG
build ov -mce-nx-long=32 "$TMP/ov.c"
$T "$TMP/ov" --mce-nodes=2 > "$TMP/o" 2>&1
expect_eq "int overflow in giprod: status" $? 1
expect_eq "_gisum beyond int: -1, ERANGE, x untouched on every node" \
    "$(grep -c '_gisum -1 ERANGE, x 2147483647 1' "$TMP/o")" 2
expect_grep "giprod beyond int: named" \
    "NX giprod: element 0's result 1099511627776 does not fit a 32-bit integer" "$TMP/o"
# Fortran INTEGER operands go through the same forms.
if [ "${FC_FOUND:-no}" != no ]; then
    cat > "$TMP/fov.f" <<'PROG'
      PROGRAM FOV
      INTEGER I(1), IW(1)
      I(1) = 2147483647
      CALL GISUM(I, 1, IW)
      PRINT *, 'WRAPPED', I(1)
      END
PROG
    "$B/tools/mcef77" -o "$TMP/fov" "$TMP/fov.f" > "$TMP/cc" 2>&1
    expect_eq "mcef77 builds fov.f" $? 0
    $T "$TMP/fov" --mce-nodes=2 > "$TMP/o" 2>&1
    expect_eq "Fortran GISUM beyond INTEGER: status" $? 1
    expect_grep "Fortran GISUM beyond INTEGER: named, not wrapped" \
        "NX gisum: element 0's result 4294967294 does not fit a 32-bit integer" "$TMP/o"
else
    note "no Fortran compiler configured: the Fortran GISUM is not checked"
fi
"$MCECC" --showme -mce-nx-long=32 -o x x.c > "$TMP/show" 2>&1
expect_grep "mcecc --showme -mce-nx-long=32" "-DMCE_NX_LONG32=1 -Werror=incompatible-pointer-types" "$TMP/show"
"$MCECC" -mce-nx-long=16 -o x x.c > "$TMP/o" 2>&1
expect_eq "-mce-nx-long=16: status" $? 2

finish
