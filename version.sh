#!/bin/sh
# Print mcemu's version, MAJOR.MINOR.PATCH, from include/mcemu.h, its one
# source (configure.ac's AC_INIT runs this when autoreconf builds
# configure).
cd "$(dirname "$0")" || exit 1
v=""
for part in MAJOR MINOR PATCH; do
    n=$(sed -n "s/^#define MCE_VERSION_$part \([0-9][0-9]*\)\$/\1/p" include/mcemu.h)
    [ -n "$n" ] || { echo "version.sh: no MCE_VERSION_$part in include/mcemu.h" >&2; exit 1; }
    v="$v${v:+.}$n"
done
printf '%s' "$v"
