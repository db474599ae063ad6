#!/bin/sh
# Fortran 77: mcef77 compiles a legacy fixed-form NCUBE program (WHOAMI,
# NCUBESIZE, NWRITE, NREAD, NTIME, a COMMON block) that runs once per
# node with its own COMMON; the Vertex personality is recognised so the
# default machine is the NCUBE; the run is identical on 1 and 2 ranks.
. "$top_srcdir/tests/lib.sh"

if [ -z "${FC_FOUND:-}" ] || [ "$FC_FOUND" = no ]; then
    fail "no Fortran compiler was configured (build.sh installs gfortran)"
    finish; exit 1
fi
export MCECC_INCLUDEDIR="$top_srcdir/include" MCECC_LIBDIR="$B/lib/.libs"
"$B/tools/mcef77" -O1 -o "$TMP/vxring" "$top_srcdir/tests/progs/vx_ring.f" > "$TMP/cc" 2>&1
expect_eq "mcef77 builds the program" $? 0
sed 's/^/    | /' "$TMP/cc"
"$TMP/vxring" --mce-nodes=8 --mce-summary > "$TMP/o" 2>&1
expect_eq "Fortran ring status" $? 0
expect_grep "ring result" "VXRING: NODES   8 DIM  3 TICKS" "$TMP/o"
expect_eq "default machine from the personality" "$(grep -o 'machine=[a-z]*' "$TMP/o")" machine=ncube
if grep -q "SHARED COMMON\|BAD TOKEN" "$TMP/o"; then fail "per-node COMMON"; else pass "per-node COMMON"; fi
run 2 "$TMP/vxring" --mce-nodes=8 --mce-summary > "$TMP/o2" 2>&1
expect_eq "Fortran ring on 2 ranks" "$(summary_sans_ranks "$TMP/o2")" "$(summary_sans_ranks "$TMP/o")"
"$B/tools/mcef77" --showme -o x x.f > "$TMP/show" 2>&1
expect_grep "mcef77 --showme" "objcopy --redefine-sym main=mce_f77_main" "$TMP/show"
finish
