#!/bin/sh
# The bad-input table (tests/core/robust.sh) under memcheck (issue 19):
# every row of its representative subset (robust.sh says which rows it
# leaves out, and why) runs under valgrind with --error-exitcode=99 and
# definite leaks counted as errors, so a row passes only if the error
# path reads nothing uninitialised, writes nothing out of bounds and
# frees what it took, whatever way the run ends (status 0, 1, 2, 3 or 4).
# About 40 runs, 20-25 s of CPU.
if [ -z "${VALGRIND:-}" ] || [ "$VALGRIND" = no ]; then
    . "$top_srcdir/tests/lib.sh"
    fail "valgrind not found by configure (build.sh installs it)"
    finish
    exit 1
fi
ROBUST_VALGRIND="$VALGRIND -q --error-exitcode=99 --leak-check=full \
--errors-for-leak-kinds=definite"
export ROBUST_VALGRIND
exec sh "$top_srcdir/tests/core/robust.sh"
