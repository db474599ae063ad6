#!/bin/sh
# The bad-input table (tests/core/robust.sh) under memcheck (issue 19):
# every row of its representative subset (robust.sh says which rows it
# leaves out, and why) runs under valgrind with --error-exitcode=99 and
# definite leaks counted as errors, so a row passes only if the error
# path reads nothing uninitialised, writes nothing out of bounds and
# frees what it took, whatever way the run ends (status 0, 1, 2, 3 or 4;
# robust.sh also fails if any run, whatever its status, wrote a report).
# About 45 runs, 20-30 s of CPU.
#
# With ROBUST_ALL=1 (make check-valgrind, not part of make check) every
# row runs under memcheck: the scale rows, the repeats, and the rows
# through mpirun with each rank under valgrind, Open MPI's suppressions
# and tests/core/valgrind-mpi.supp (what MPI itself allocates and never
# frees).  About 75 processes under memcheck: 2.5 to 9 minutes of wall time
# here, depending on the load.
if [ -z "${VALGRIND:-}" ] || [ "$VALGRIND" = no ]; then
    . "$top_srcdir/tests/lib.sh"
    fail "valgrind not found by configure (build.sh installs it)"
    finish
    exit 1
fi
ROBUST_VALGRIND="$VALGRIND -q --error-exitcode=99 --leak-check=full \
--errors-for-leak-kinds=definite --show-leak-kinds=definite"
supp="--suppressions=$top_srcdir/tests/core/valgrind-mpi.supp"
ompi=$(ompi_info --path pkgdatadir 2> /dev/null | sed -n 's/.*Pkgdatadir: *//p')
[ -f "$ompi/openmpi-valgrind.supp" ] &&
    supp="$supp --suppressions=$ompi/openmpi-valgrind.supp"
# deep enough stacks to reach MPI_Init's frame below its components'
ROBUST_VALGRIND_MPI="$ROBUST_VALGRIND --num-callers=40 $supp"
export ROBUST_VALGRIND ROBUST_VALGRIND_MPI
exec sh "$top_srcdir/tests/core/robust.sh"
