#!/bin/sh
# NX personality on the iPSC/860: every call of the API with its numeric
# results and its '_' form's errors (nx_api on 4 and 8 nodes, the same
# digest on 2 ranks, one discarded FORCED message, calls before the node
# program starts); the plain forms' fatal diagnostics naming the call and
# the node; a collective misuse that must fail everywhere and not hang;
# NX on a machine that is not an NX one; legacy C programs (token ring,
# matrix multiply) and the same in Fortran 77 built with mcef77, whose
# personality is recognised so the default machine is the iPSC/860.
. "$top_srcdir/tests/lib.sh"

P=$B/tests/progs

# nx_api_ok WHAT NODES FILE: every node ok, failures shown
nx_api_ok() {
    expect_eq "$1: nodes ok" "$(grep -c '^nx_api: node [0-9]* ok$' "$3")" "$2"
    if grep -q 'FAIL\|failures' "$3"; then
        fail "$1: $(grep -c ': FAIL' "$3") failed checks, the first ones:"
        grep ': FAIL' "$3" | head -12 | sed 's/^/    | /'
    fi
}

for n in 4 8; do
    $HANG "$P/nx_api" --mce-nodes=$n --mce-summary > "$TMP/o" 2>&1
    expect_eq "nx_api $n nodes status" $? 0
    nx_api_ok "nx_api $n nodes" $n "$TMP/o"
    expect_eq "nx_api $n nodes: default machine" \
        "$(grep -o 'machine=[a-z0-9]*' "$TMP/o")" machine=ipsc860
    expect_eq "nx_api $n nodes: one FORCED message discarded" \
        "$(grep -c 'discarded' "$TMP/o")" 1
    expect_grep "nx_api $n nodes: the discard is named" \
        "node 1: FORCED message of type 1073742325 from node 0 discarded" "$TMP/o"
    expect_grep "nx_api $n nodes: a call before the start is named" \
        "NX mynode: called outside a node program" "$TMP/o"
done
cp "$TMP/o" "$TMP/ref"
$HANG $MPIRUN -np 2 "$P/nx_api" --mce-nodes=8 --mce-summary > "$TMP/o" 2>&1
expect_eq "nx_api on 2 ranks status" $? 0
nx_api_ok "nx_api on 2 ranks" 8 "$TMP/o"
expect_eq "nx_api digest on 2 ranks" "$(summary_sans_ranks "$TMP/o")" \
    "$(summary_sans_ranks "$TMP/ref")"

NX_API_EARLY=1 $HANG "$P/nx_api" --mce-nodes=4 > "$TMP/o" 2>&1
expect_eq "hwclock before the start: status" $? 0
nx_api_ok "hwclock before the start" 4 "$TMP/o"
expect_grep "hwclock before the start is named" \
    "NX hwclock: called outside a node program" "$TMP/o"

# Plain forms: a diagnostic naming the call and the node ends the run.
fatal() { # CASE PATTERN
    $HANG "$P/nx_api" "$1" --mce-nodes=4 > "$TMP/o" 2>&1
    expect_eq "plain form, $1: status" $? 1
    expect_grep "plain form, $1: diagnostic" "$2" "$TMP/o"
    if grep -q 'did not end the run' "$TMP/o"; then
        fail "plain form, $1: the run went on"
    fi
}
fatal badnode 'node 0 at virtual time .*: NX csend: node 99 out of range (0 \.\. 3, or -1)'
fatal badtype 'node 0 at virtual time .*: NX csend: type -5 out of range'
fatal negcount 'node 1 at virtual time .*: NX crecv: invalid count -1'
fatal short 'node 1 at virtual time .*: NX crecv: message of 100 bytes (type 1 from node 0) is longer than the 10-byte buffer'
fatal badid 'node 3 at virtual time .*: NX msgwait: unknown or already completed message id 12345'
fatal toomany 'node 0 at virtual time .*: NX irecv: too many outstanding'

# A collective called wrongly on every node fails on every node.
$HANG "$P/nx_api" gcolshort --mce-nodes=4 > "$TMP/o" 2>&1
expect_eq "_gcol into a short buffer: status" $? 0
expect_eq "_gcol into a short buffer fails on every node" \
    "$(grep -c 'gcol short ok' "$TMP/o")" 4

"$P/nx_api" --mce-nodes=4 --mce-machine=ideal > "$TMP/o" 2>&1
[ $? -ne 0 ] && pass "NX on the ideal machine refused" || fail "NX ran on ideal"
expect_grep "refusal names the machine" "NX calls need an NX machine" "$TMP/o"

# Legacy C programs, unmodified.
"$P/nx_ring" --mce-nodes=8 --mce-summary > "$TMP/o" 2>&1
expect_eq "C ring status" $? 0
expect_grep "C ring result" "^ring: 8 nodes, 4 trips, token 28" "$TMP/o"
expect_grep "C ring OK" "^ring: OK" "$TMP/o"
for n in 1 4 8; do
    "$P/nx_matmul" --mce-nodes=$n --mce-summary > "$TMP/o" 2>&1
    expect_eq "C matmul $n nodes status" $? 0
    expect_grep "C matmul $n nodes OK" "^matmul: OK" "$TMP/o"
    expect_grep "C matmul $n nodes checksum" "checksum -187," "$TMP/o"
done
cp "$TMP/o" "$TMP/cmm"
run 2 "$P/nx_matmul" --mce-nodes=8 --mce-summary > "$TMP/o" 2>&1
expect_eq "C matmul on 2 ranks" "$(summary_sans_ranks "$TMP/o")" \
    "$(summary_sans_ranks "$TMP/cmm")"

# The same in Fortran 77 through mcef77 and the bindings.
if [ -z "${FC_FOUND:-}" ] || [ "$FC_FOUND" = no ]; then
    fail "no Fortran compiler was configured (build.sh installs gfortran)"
    finish; exit 1
fi
export MCECC_INCLUDEDIR="$top_srcdir/include" MCECC_LIBDIR="$B/lib/.libs"
for p in nx_ring nx_matmul nx_fnx; do
    "$B/tools/mcef77" -O1 -o "$TMP/f_$p" "$top_srcdir/tests/progs/$p.f" > "$TMP/cc" 2>&1
    expect_eq "mcef77 builds $p.f" $? 0
    sed 's/^/    | /' "$TMP/cc"
done
"$TMP/f_nx_ring" --mce-nodes=8 --mce-summary > "$TMP/o" 2>&1
expect_eq "Fortran ring status" $? 0
expect_grep "Fortran ring result" "NXRING: NODES   8 TRIPS  4 TOKEN    28" "$TMP/o"
expect_grep "Fortran ring OK" "NXRING: OK" "$TMP/o"
expect_eq "Fortran: default machine from the personality" \
    "$(grep -o 'machine=[a-z0-9]*' "$TMP/o")" machine=ipsc860
run 2 "$TMP/f_nx_ring" --mce-nodes=8 --mce-summary > "$TMP/o2" 2>&1
expect_eq "Fortran ring on 2 ranks" "$(summary_sans_ranks "$TMP/o2")" \
    "$(summary_sans_ranks "$TMP/o")"
"$TMP/f_nx_fnx" --mce-nodes=4 > "$TMP/o" 2>&1
expect_eq "Fortran with INCLUDE 'fnx.h' status" $? 0
expect_grep "Fortran with INCLUDE 'fnx.h'" "NXFNX: OK ON  4" "$TMP/o"
"$TMP/f_nx_matmul" --mce-nodes=8 > "$TMP/o" 2>&1
expect_eq "Fortran matmul status" $? 0
expect_grep "Fortran matmul OK" "NXMM: OK" "$TMP/o"
expect_grep "Fortran matmul checksum" "CHECKSUM *-187\." "$TMP/o"
# Same messages, same model: the same virtual time as the C version.
c_ms=$(sed -n 's/^matmul: .*, \([0-9.]*\) ms$/\1/p' "$TMP/cmm")
f_ms=$(sed -n 's/.*CHECKSUM.*, *\([0-9.]*\) MS$/\1/p' "$TMP/o")
expect_eq "Fortran matmul time = C matmul time (ms)" "$f_ms" "$c_ms"

"$B/tools/mcef77" --showme -mce-api=nx -o x x.f > "$TMP/show" 2>&1
expect_grep "mcef77 --showme: NX's mclock" \
    "objcopy --redefine-sym _gfortran_mclock=mclock_" "$TMP/show"
"$B/tools/mcef77" -mce-api=bogus -o x x.f > "$TMP/show" 2>&1
expect_eq "mcef77 unknown personality status" $? 2
expect_grep "mcef77 lists the personalities" "(vertex, nx, native)" "$TMP/show"
finish
