#!/bin/sh
# Nothing lost, nothing hangs (issue 19): the bad-input table.  Each row
# gives a bad input or corner case and checks the documented error or
# behaviour, and that nothing else changed (the other nodes' results, the
# exit status).  Every run is bounded by timeout: a hang fails the row.
# Under --enable-sanitizers any report (ASan, UBSan) ends the run with
# status 99, which no row expects.
export UBSAN_OPTIONS="halt_on_error=1:exitcode=99:print_stacktrace=1"
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:exitcode=99"
. "$top_srcdir/tests/lib.sh"

P=$B/tests/progs
TO=$HANG
# tests/core/valgrind_table.sh runs this table under memcheck: VG is its
# command prefix (an error or a definite leak makes the status 99, which
# no row expects), VGM the same for the ranks under mpirun (with Open
# MPI's suppressions).  A run under memcheck costs about a second of CPU,
# so in make check it runs a representative subset (every row but those
# guarded by every_row): not the rows through mpirun, the scale rows
# (4 MiB machine file, 16,000 --mce-set values, 100,000 TCS tasks: they
# check running time, and take half a minute each under memcheck), the
# repeats on other node counts, the same refusal through another key or
# file, and the polling loops whose livelock report takes the same path
# as one kept (dclock, mce_iprobe, mce_now, iwarp_clock, iwarp_vtime, the
# default 10 s budget).  ROBUST_ALL=1 (make check-valgrind) runs every
# row under memcheck, the mpirun rows with each rank under it.
VG=${ROBUST_VALGRIND:-}
VGM=${ROBUST_VALGRIND_MPI:-$VG}
if [ -n "$VG" ]; then
    TO="timeout 900"
    # memcheck's reports to files, shown at the end (a row that fails
    # with status 99 says which of them is its)
    mkdir "$TMP/vg"
    VG="$VG --log-file=$TMP/vg/%p.log"
    VGM="$VGM --log-file=$TMP/vg/%p.log"
fi
T="$TO $VG"
every_row() { [ -z "$VG" ] || [ "${ROBUST_ALL:-}" = 1 ]; }
# mp NP CMD...: CMD on NP ranks, each under memcheck when VG is set
mp() {
    np=$1; shift
    $TO $MPIRUN -np "$np" $VGM "$@"
}

# ok_case CASE NODES [ARGS]: nx_robust CASE ends 0 with every node ok
ok_case() {
    c=$1 nodes=$2; shift 2
    $T "$P/nx_robust" "$c" --mce-nodes="$nodes" "$@" > "$TMP/o" 2>&1
    expect_eq "nx $c: status" $? 0
    expect_eq "nx $c: every node ok" \
        "$(grep -c "^nx_robust: $c node [0-9]* ok$" "$TMP/o")" "$nodes"
    if grep -q 'FAIL\|ERROR\|runtime error' "$TMP/o"; then
        fail "nx $c:"; sed 's/^/    | /' "$TMP/o"; fi
}

# ---- NX ------------------------------------------------------------------
ok_case mergemerge 2
every_row && ok_case mergemerge 4
ok_case exitpost 4
ok_case cancel2 2
ok_case gopovf 2
ok_case gcolxovf 2
ok_case gopoverlap 2
ok_case gopempty 2
ok_case gopmismatch 2
$T "$P/nx_robust" gcolxmismatch --mce-nodes=2 > "$TMP/o" 2>&1
expect_eq "nx gcolx lengths that do not match: status" $? 1
expect_grep "nx gcolx lengths that do not match: message" \
    "node 0 at virtual time .*: NX gcolx: the nodes' global operations do not match" \
    "$TMP/o"
every_row && ok_case gopempty 4
every_row && ok_case gopoverlap 3 --mce-machine=paragon --mce-set=paragon.width=3
ok_case negptype 2
ok_case nullbuf 2
every_row && ok_case nullbuf 4
ok_case handler 2
# Calls after the nodes ended (from an atexit function): clean failures.
ok_case afterexit 2
expect_grep "nx calls after exit fail" \
    "^nx_robust: after exit: _csend -1 EINVAL, _crecv -1 EINVAL, mynode -1$" \
    "$TMP/o"
expect_grep "nx calls after exit: message" \
    "^mcemu: NX csend: called outside a node program$" "$TMP/o"
$T "$P/nx_robust" nullbuf_plain --mce-nodes=2 > "$TMP/o" 2>&1
expect_eq "nx csend of a NULL buffer (plain form): status" $? 1
expect_grep "nx csend of a NULL buffer: message names the call and the node" \
    "node 0 at virtual time .*: NX csend: NULL buffer of 8 bytes" "$TMP/o"
if every_row; then
    mp 2 "$P/nx_robust" handler --mce-nodes=2 > "$TMP/o" 2>&1
    expect_eq "nx handler making NX calls, 2 ranks: status" $? 0
    expect_eq "nx handler making NX calls, 2 ranks: every node ok" \
        "$(grep -c '^nx_robust: handler node [01] ok$' "$TMP/o")" 2
fi

$T "$P/nx_robust" gopovf_plain --mce-nodes=2 > "$TMP/o" 2>&1
expect_eq "nx gdsum overflow (plain form): status" $? 1
expect_grep "nx gdsum overflow: message names the call and the node" \
    "node 0 at virtual time .*NX gdsum: 2305843009213693953 elements of 8 bytes overflow the byte count" \
    "$TMP/o"

$T "$P/nx_robust" crash --mce-nodes=2 > "$TMP/o" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && pass "crash: non-zero status ($rc)" ||
    fail "crash: status $rc"
expect_grep "crash: the mcemu line names the node, signal and time" \
    "^mcemu: node 1 crashed with signal 8 (SIGFPE, arithmetic exception) at virtual time 0.000000000000 s" \
    "$TMP/o"

# ---- traces ---------------------------------------------------------------

$T "$P/nx_robust" utf8 --mce-nodes=2 --mce-trace="$TMP/t.json" > "$TMP/o" 2>&1
expect_eq "trace mark not UTF-8: status" $? 0
if command -v python3 > /dev/null; then
    python3 - "$TMP/t.json" > "$TMP/check" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
marks = [e["name"] for e in d["traceEvents"] if e.get("ph") == "i"]
want = "a\ufffd b\ufffd\ufffd c\ufffd d\ufffd\ufffd e\u00e9"
assert marks == [want, want], marks
print("trace utf8 ok")
PY
    expect_grep "trace mark not UTF-8: valid JSON, bad bytes as U+FFFD" \
        "trace utf8 ok" "$TMP/check"
fi
if [ -w /dev/full ]; then
    $T "$P/nx_robust" utf8 --mce-nodes=2 --mce-trace=/dev/full > "$TMP/o" 2>&1
    expect_eq "trace on a full device: status" $? 1
    expect_grep "trace on a full device: message" \
        "cannot write trace '/dev/full': No space left on device" "$TMP/o"
    expect_eq "trace on a full device: the program ran" \
        "$(grep -c '^nx_robust: utf8 node [01] ok$' "$TMP/o")" 2
fi

# ---- configuration --------------------------------------------------------

# refused WHAT STATUS PATTERN CMD...: the run ends at once with STATUS and
# the message, the program never started
refused() {
    what=$1 st=$2 pat=$3; shift 3
    $T "$@" > "$TMP/o" 2>&1
    expect_eq "$what: status" $? "$st"
    expect_grep "$what: message" "$pat" "$TMP/o"
    if grep -q '^nx_robust\|^misuse:' "$TMP/o"; then
        fail "$what: the program ran"; fi
}

if every_row; then
    refused "cycle_time = 0 (NX)" 2 "cycle_time must be positive" \
        "$P/nx_robust" hwclock --mce-nodes=2 --mce-set=cycle_time=0
fi
refused "cycle_time = 0 (NCUBE)" 2 \
    "cycle_time must be positive and 1024 cycles must fit" \
    "$P/vx_misuse" --mce-machine=ncube --mce-nodes=2 --mce-set=cycle_time=0
refused "cycle_time of 2^54 ps (NCUBE)" 2 "at most 1000 s" \
    "$P/vx_misuse" --mce-machine=ncube --mce-nodes=2 \
    --mce-set=cycle_time=18014398509481984ps
refused "nx.irq_period = 1 ps" 2 "nx.irq_period must be at least 1 us" \
    "$P/nx_robust" hwclock --mce-nodes=2 \
    --mce-set=nx.irq=1,nx.irq_period=1ps,nx.irq_cost=0
refused "latency near 2^64 ps" 2 "key 'latency'.*at most 1000 s" \
    "$P/misuse" --mce-nodes=2 --mce-set=latency=18446744073709551000ps
if every_row; then
    refused "per_byte near 2^64 ps" 2 "key 'per_byte'.*at most 1000 s" \
        "$P/misuse" --mce-nodes=2 --mce-set=per_byte=18446744073709551000ps
fi

ok_case hwclock 2
ok_case param 2 --mce-set=app.big=99999999999999999999 \
    --mce-set="app.bigt=20000000 s" --mce-set="app.typo=12 parsecs" \
    --mce-set=app.max=9223372036854775807

mkfifo "$TMP/fifo.conf"
refused "FIFO as machine file" 2 "fifo.conf' is not a regular file" \
    "$P/misuse" --mce-nodes=2 --mce-machine="$TMP/fifo.conf"
if every_row; then
    refused "FIFO as config file" 2 "fifo.conf' is not a regular file" \
        "$P/misuse" --mce-nodes=2 --mce-config="$TMP/fifo.conf"
fi

# 4 MiB of keys load and the program runs (in seconds: loading is linear
# in the keys; it took over 300 s when it was quadratic, which only the
# hang guard would now catch: tests time nothing).
if every_row; then
    awk 'BEGIN { print "inherit = ideal"; n = 0;
                 while (n < 4 * 1048576) { l = sprintf("app.k%07d = %d", NR + i, i);
                                            print l; n += length(l) + 1; i++ } }' \
        > "$TMP/big.conf"
    $T "$P/misuse" --mce-nodes=2 --mce-machine="$TMP/big.conf" > "$TMP/o" 2>&1
    expect_eq "4 MiB machine file: status" $? 0
    expect_eq "4 MiB machine file: program ran" \
        "$(grep -c 'misuse: node [01] ok' "$TMP/o")" 2
fi
# Beyond the documented limit a file is refused before it is read.
echo "inherit = ideal" > "$TMP/huge.conf"
truncate -s 17M "$TMP/huge.conf"
refused "17 MiB machine file" 2 "more than the 16 MiB a description file" \
    "$P/misuse" --mce-nodes=2 --mce-machine="$TMP/huge.conf"
# The issue's 100 MiB of keys (a sparse file: nothing is read).
truncate -s 100M "$TMP/huge.conf"
refused "100 MiB machine file" 2 "104857600 bytes, more than the 16 MiB a description file" \
    "$P/misuse" --mce-nodes=2 --mce-machine="$TMP/huge.conf"
if every_row; then
    refused "100 MiB config file" 2 "104857600 bytes, more than the 16 MiB a description file" \
        "$P/misuse" --mce-nodes=2 --mce-config="$TMP/huge.conf"
fi

# 16,000 comma-separated --mce-set values: a loop, not a recursion.
if every_row; then
    sets=$(awk 'BEGIN { for (i = 0; i < 16000; i++) printf "%sapp.x=%d", i ? "," : "", i % 10 }')
    $T "$P/misuse" --mce-nodes=2 --mce-set="$sets" > "$TMP/o" 2>&1
    expect_eq "16000 --mce-set values: status" $? 0
    expect_eq "16000 --mce-set values: program ran" \
        "$(grep -c 'misuse: node [01] ok' "$TMP/o")" 2
fi

# ---- Vertex -----------------------------------------------------------------

# ntest with a type beyond 16 bits: VX_EINVAL (which is also "no
# message") with a diagnostic naming the call and the node.
$T "$P/vx_misuse" --mce-nodes=8 > "$TMP/o" 2>&1
expect_eq "vx ntest bad type: status" $? 0
expect_eq "vx ntest bad type: every node ok" \
    "$(grep -c 'vx_misuse: node [0-9]* ok' "$TMP/o")" 8
expect_grep "vx ntest bad type: diagnostic" \
    "node 0: ntest: type 65536 is not 16-bit or -1" "$TMP/o"

# A receive request still posted when its node exits: the extended
# message that comes later is lost, and said so (status 1), never written
# into the dead node's stack (1 process and 2 ranks).
nps="0 2"
every_row || nps=0
for np in $nps; do
    if [ $np = 0 ]; then
        $T "$P/vx_misuse" exited --mce-nodes=2 > "$TMP/o" 2>&1
    else
        mp 2 "$P/vx_misuse" exited --mce-nodes=2 > "$TMP/o" 2>&1
    fi
    expect_eq "vx rcvreq at node exit (np=$np): status" $? 1
    expect_grep "vx rcvreq at node exit (np=$np): lost, named" \
        "node 1 at virtual time .*: Vertex send: extended message (type 1, 10 bytes) from node 0 arrived after node 1's program ended (the rcvreq it left posted was cancelled): it is lost" \
        "$TMP/o"
done

# NULL buffers with a length, lengths, nodes, types and masks at the
# ends of int: each call fails alone with its message (the flag stays,
# nothing is sent) and the next message arrives intact, on 2 and 8 nodes.
ns="2 8"
every_row || ns=8
for n in $ns; do
    $T "$P/vx_misuse" nullbuf --mce-nodes=$n > "$TMP/o" 2>&1
    expect_eq "vx nullbuf on $n nodes: status" $? 0
    expect_eq "vx nullbuf on $n nodes: every node ok" \
        "$(grep -c 'vx_misuse: node [0-9]* ok' "$TMP/o")" $n
done
while read -r want; do
    expect_grep "vx nullbuf: '$want'" "^mcemu: node 7: $want\$" "$TMP/o"
done <<'EOF'
nwrite: NULL buffer of 8 bytes
nread: NULL buffer of 8 bytes
nwrite: negative length -2147483648
nwrite: destination -2147483648 out of range (0..7, or 0xffff)
nwrite: type -1 is not 16-bit
send: NULL buffer of 8 bytes
send: NULL flag
rcvreq: NULL buffer of 8 bytes
rcvreq: source 2147483647 out of range
bcast: NULL buffer of 8 bytes
bcast: mask 0x80000000 names no dimension or one beyond the cube's 3
EOF

# ---- iWarp and TCS ----------------------------------------------------------

$T "$P/iw_errors" --compute-big > "$TMP/o" 2>&1
expect_eq "iwarp_compute(2^50): status" $? 1
expect_grep "iwarp_compute(2^50): overflow reported" \
    "node 0 at virtual time 0.000000000000 s: iwarp_compute: 1125899906842624 clocks overflow the virtual clock" \
    "$TMP/o"
if grep -q '^iw_errors: computed' "$TMP/o"; then
    fail "iwarp_compute(2^50): the program went on"; fi
$T "$P/iw_errors" --align-big > "$TMP/o" 2>&1
expect_eq "iwarp_align(2^60): status" $? 1
expect_grep "iwarp_align(2^60): overflow reported" \
    "iwarp_align: clock 1152921504606846976 is beyond the virtual clock's range" \
    "$TMP/o"

# Every iWarp call with PCTs, gates, CAM entries, spools, cells, handles
# and lengths out of range or NULL buffers, on two cells: each fails alone
# with its code and one diagnostic naming the cell and the call; a
# deposit each way afterwards arrives intact.
$T "$P/iw_errors" --badargs > "$TMP/o" 2>&1
expect_eq "iwarp bad arguments: status" $? 0
expect_eq "iwarp bad arguments: both cells ok" \
    "$(grep -c '^iw_errors: badargs cell [01] ok$' "$TMP/o")" 2
expect_eq "iwarp bad arguments: one diagnostic per failed call (cell (1,0))" \
    "$(grep -c '^mcemu: cell (1,0): iwarp_' "$TMP/o")" 40
while read -r want; do
    expect_grep "iwarp bad arguments: '$want'" "^mcemu: cell (0,0): $want\$" \
        "$TMP/o"
done <<'EOF'
iwarp_pct_config: no PCT 2147483647 (the cell has PCTs 0..19)
iwarp_pct_repoint: PCT 0 is not a configured source PCT (input from the CPU): only a source PCT can be re-pointed
iwarp_gate_bind: no gate 7 (IW_R0, IW_R1, IW_W0 or IW_W1)
iwarp_cam_set: no CAM entry 2147483647: the address-match CAM has 4 entries (0..3)
iwarp_dep_send: no destination cell 2147483647 (another cell, 0..63)
iwarp_rts_send: no data
iwarp_rts_send: a length of 18446744073709551615 bytes (more than any buffer)
EOF

# A TCS run-time cost of 2^64 - 1 clocks: the overflow is reported.
$T "$P/tcs_rt" --mce-set=tcs.barrier_lookup=18446744073709551615 \
    > "$TMP/o" 2>&1
expect_eq "TCS cost of 2^64 - 1 clocks: status" $? 1
expect_grep "TCS cost of 2^64 - 1 clocks: overflow reported" \
    "TCS: 18446744073709551615 clocks overflow the virtual clock" "$TMP/o"

# The TCS run time with NULL contexts and buffers, tasks, netgroups, ports
# and spools that do not exist: each call fails alone with its code and a
# diagnostic (tcs_write and tcs_read of a NULL buffer dereferenced it),
# and a word from cell 0 to cell 1 afterwards arrives intact.
TCS_CASE=badargs $T "$P/tcs_rt" > "$TMP/o" 2>&1
expect_eq "TCS run-time bad arguments: status" $? 0
expect_eq "TCS run-time bad arguments: both cells ok" \
    "$(grep -c '^tcs_rt: badargs cell [01] ok$' "$TMP/o")" 2
while read -r want; do
    expect_grep "TCS run-time bad arguments: '$want'" "^mcemu: $want\$" "$TMP/o"
done <<'EOF'
cell (0,0): tcs_write: need a buffer and at most 2^28 words, not 1 at NULL
cell (1,0): tcs_read: need a buffer and at most 2^28 words, not 1 at NULL
cell (0,0): tcs_run: task 999 is not a top-level task of the declaration
cell (0,0): tcs_switch: netgroup 999 is not a netgroup of task 't'
cell (0,0): tcs_write: 99 is not a port handle of task 't' on this cell
cell (1,0): tcs_start: not a task context of this cell (the ctx argument of the task's code)
EOF

# 100,000 top-level tasks link (the linker was quadratic: hours).
if every_row; then
    TCS_CASE=many TCS_MANY=100000 $T "$P/tcs_cases" --mce-tcs=link > "$TMP/o" 2>&1
    expect_eq "100000 TCS tasks: link status" $? 0
    expect_grep "100000 TCS tasks: linked" "^summary: 100000 tasks, depth 0" "$TMP/o"
fi

# Task offsets near INT_MAX wrap round the torus like small ones (the
# sum with the parent's offset overflowed: found by the fuzz harness
# tests/fuzz/fuzz_tcs.c).  The parent is the whole array from (1,1).
TCS_CASE=wrap $T "$P/tcs_cases" --mce-tcs=link > "$TMP/o" 2>&1
expect_eq "TCS offset INT_MAX: link status" $? 0
expect_grep "TCS x offset INT_MAX: (1 + 7, 1) = (0,1)" \
    "^task 'c' parent 'p' depth 1 cells 1: 1x1 at (0,1)$" "$TMP/o"
expect_grep "TCS y offset INT_MAX: (1 + 2, 1 + 7) = (3,0)" \
    "^task 'e' parent 'p' depth 1 cells 1: 1x1 at (3,0)$" "$TMP/o"

# ---- hangs by design: the livelock guard and the run limits ----------------

# livelock WHAT NODE CALL CMD...: status 3 and the report naming the node,
# its polling call and the budget's virtual time (CMD may be mp NP ...)
livelock() {
    what=$1 node=$2 call=$3; shift 3
    if [ "$1" = mp ]; then "$@"; else $T "$@"; fi > "$TMP/o" 2>&1
    expect_eq "$what: livelock status" $? 3
    expect_grep "$what: livelock reported" "^mcemu: livelock: every unfinished node is polling or blocked" "$TMP/o"
    expect_grep "$what: node $node polling in $call" \
        "^mcemu:   node $node: polling in $call since virtual time" "$TMP/o"
}

cs="iprobe msgdone dclock mce_iprobe mce_now"
every_row || cs="iprobe msgdone"
for c in $cs; do
    livelock "nx_robust poll_$c" 0 "$c" \
        "$P/nx_robust" "poll_$c" --mce-nodes=2 --mce-livelock=10ms
done
if every_row; then
    livelock "poll_iprobe, default 10 s budget" 0 iprobe \
        "$P/nx_robust" poll_iprobe --mce-nodes=2
    expect_grep "poll_iprobe: polled for the default 10 s" \
        "node 0: polling in iprobe since virtual time 0.000000000000 s, now 10.0" "$TMP/o"
    expect_grep "poll_iprobe: the blocked node listed too" \
        "node 1: blocked in msgwait waiting for message id 1" "$TMP/o"
fi
cs="clock vtime sru_poll"
every_row || cs=sru_poll
for c in $cs; do
    livelock "iWarp iwarp_$c loop" 0 "iwarp_$c" \
        "$P/iw_errors" --poll-$(echo $c | sed 's/_poll//') --mce-livelock=10ms
done
livelock "Vertex ntest" 0 ntest "$P/vx_misuse" poll --mce-nodes=4 --mce-livelock=10ms
expect_grep "Vertex ntime" "node 1: polling in ntime since" "$TMP/o"
if every_row; then
    livelock "poll_iprobe on 2 ranks" 0 iprobe \
        mp 2 "$P/nx_robust" poll_iprobe --mce-nodes=2 --mce-livelock=10ms
    livelock "Vertex polling on 2 ranks" 0 ntest \
        mp 2 "$P/vx_misuse" poll --mce-nodes=4 --mce-livelock=10ms
fi

# A busy-wait shorter than the budget is no livelock; a longer one is.
ok_case delay 2 --mce-livelock=10ms
livelock "5 ms busy-wait, 1 ms budget" 0 dclock \
    "$P/nx_robust" delay --mce-nodes=2 --mce-livelock=1ms

# Computing between polls is progress: only --mce-max-vtime stops it.
$T "$P/nx_robust" compute_forever --mce-nodes=2 --mce-max-vtime=2s \
    > "$TMP/o" 2>&1
expect_eq "--mce-max-vtime: status" $? 4
expect_grep "--mce-max-vtime: message" \
    "^mcemu: virtual-time limit --mce-max-vtime=2.000000000000 s reached; node states:" \
    "$TMP/o"
expect_grep "--mce-max-vtime: node states" "node 1: finished with status 0" \
    "$TMP/o"
# --mce-livelock=0 turns the guard off: the limit stops the run instead.
$T "$P/nx_robust" poll_iprobe --mce-nodes=2 --mce-livelock=0 \
    --mce-max-vtime=50ms > "$TMP/o" 2>&1
expect_eq "--mce-livelock=0: no livelock, the limit stops it" $? 4
expect_grep "--mce-livelock=0: node states" \
    "node 0: polling in iprobe since virtual time 0.000000000000 s, now 0.05" \
    "$TMP/o"
# A node that never calls the emulator: only --mce-max-wall stops it.
$T "$P/nx_robust" spin --mce-nodes=2 --mce-max-wall=1s > "$TMP/o" 2>&1
expect_eq "--mce-max-wall: status" $? 4
expect_grep "--mce-max-wall: message" "wall-clock limit (--mce-max-wall) passed" \
    "$TMP/o"
refused "--mce-max-wall=forever" 2 "option --mce-max-wall: 'forever' is not a time" \
    "$P/nx_robust" spin --mce-nodes=2 --mce-max-wall=forever

# Every run's report, whatever its status: a run that ends through
# MPI_Abort (or a signal) has the status of that end, not memcheck's.
if [ -n "$VG" ]; then
    n=0
    for f in "$TMP"/vg/*.log; do
        [ -s "$f" ] || continue
        n=$((n + 1))
        echo "memcheck report $f:"
        cat "$f"
    done
    expect_eq "memcheck: runs with a report (errors or definite leaks)" $n 0
    note "$(ls "$TMP"/vg | wc -l) processes ran under memcheck"
fi
finish
