#!/bin/sh
# make install puts libmcemu, mcemu.h, mcemu.pc, mcecc and the machine
# files in place; mcecc builds a program that runs from the installed tree;
# man renders the installed manual pages; the design note and the
# examples (NX's included) are installed, and the NX examples build from
# the installed files and print what the build tree's programs print.
. "$top_srcdir/tests/lib.sh"

dest=$TMP/root
make -s -C "$B" install DESTDIR="$dest" > "$TMP/inst" 2>&1
expect_eq "make install" $? 0
prefix=$(sed -n 's/^prefix=//p' "$B/mcemu.pc")
libdir=$(find "$dest" -name 'libmcemu.so' -printf '%h\n' | head -n 1)
incdir=$(find "$dest" -name 'mcemu.h' -printf '%h\n' | head -n 1)
mcecc=$(find "$dest" -name mcecc | head -n 1)
pc=$(find "$dest" -name mcemu.pc | head -n 1)
conf=$(find "$dest" -name ideal.conf | head -n 1)
for f in "$libdir" "$incdir" "$mcecc" "$pc" "$conf"; do
    [ -n "$f" ] && pass "installed $(basename "$f")" || fail "something was not installed"
done
# The installed library and programs never know the source tree: machine
# names are looked up in the installed directory ($(pkgdatadir)/machines)
# only; the build tree's mcemu-uninstalled file, which points uninstalled
# programs to the source tree's machines, is not installed.
src=$(cd "$top_srcdir" && pwd -P)
for f in $(find "$dest" -name 'libmcemu*.so*' -type f) \
    $(find "$dest" -name mce-info -type f); do
    n=$(strings -a "$f" | grep -c -e '/share/machines' -e "$src/share" \
        -e "$top_srcdir/share")
    expect_eq "no source machine directory in installed $(basename "$f")" "$n" 0
done
n=$(find "$dest" -name 'mcemu-uninstalled*' | wc -l)
expect_eq "mcemu-uninstalled not installed" "$n" 0
strings -a "$libdir/libmcemu.so" > "$TMP/strings"
expect_grep "installed library searches the installed machines" \
    "^$prefix/share/mcemu/machines\$" "$TMP/strings"

# Uninstalled, the same library reads the source tree's machine files
# (before any installed ones): make check tests the files being edited.
"$B/apps/ring" --mce-nodes=2 --mce-verbose > "$TMP/v" 2>&1
expect_grep "uninstalled program reads the source tree's machines" \
    "machine 'ideal' ($top_srcdir/share/machines/ideal.conf)" "$TMP/v"
"$B/tools/mce-info" --check=ncube > "$TMP/v" 2>&1
expect_eq "uninstalled mce-info finds the source tree's machines" $? 0

cat > "$TMP/hello.c" <<'C'
#include <stdio.h>
#include "mcemu.h"
int main(int argc, char **argv)
{
    long token = 0;
    (void)argv;
    if (mce_node() == 0)
        mce_send(1 % mce_nodes(), 3, &token, sizeof(token));
    if (mce_recv(MCE_ANY_SOURCE, 3, &token, sizeof(token), NULL) != MCE_OK)
        return 1;
    token++;
    if (mce_node() != 0)
        mce_send((mce_node() + 1) % mce_nodes(), 3, &token, sizeof(token));
    else
        printf("hello: token passed %ld times, argc %d\n", token, argc);
    return 0;
}
C
MCECC_INCLUDEDIR=$incdir MCECC_LIBDIR=$libdir "$mcecc" -O2 -o "$TMP/hello" "$TMP/hello.c"
expect_eq "mcecc compiles and links" $? 0
"$TMP/hello" --mce-nodes=5 --mce-machine="$conf" extra > "$TMP/o" 2>&1
expect_grep "installed program runs" "hello: token passed 5 times, argc 2" "$TMP/o"
MCECC_INCLUDEDIR=$incdir MCECC_LIBDIR=$libdir "$mcecc" --showme -o x x.c > "$TMP/show"
expect_grep "mcecc --showme" "-lmcemu" "$TMP/show"
PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --libs mcemu > "$TMP/pc" 2>&1
expect_grep "pkg-config --libs mcemu" "-lmcemu" "$TMP/pc"
expect_eq "installed prefix recorded" "$(grep -c "^prefix=$prefix" "$pc")" 1

# mce-info and the manual pages are installed; mce-info lists the
# installed machines (the installed tree's, searched first here).
info=$(find "$dest" -name mce-info -type f | head -n 1)
[ -n "$info" ] && pass "installed mce-info" || fail "mce-info was not installed"
for p in man1/mce-info.1 man7/mcemu.7 man1/mcecc.1 man1/mcef77.1 \
    man1/mce-predict.1 man1/mce-report.1 man1/tcs-link.1; do
    f=$(find "$dest" -path "*/man/$p" | head -n 1)
    [ -n "$f" ] && pass "installed $p" || fail "$p was not installed"
done
if [ -n "$info" ]; then
    "$info" --machine-path="$(dirname "$conf")" > "$TMP/info" 2>&1
    expect_grep "installed mce-info lists the installed machines" \
        "^  paragon .*network paragon" "$TMP/info"
fi
# man finds and renders every installed page (as "man mcecc" does once
# the installed man directory is on the manual path).
mandir=$(find "$dest" -path '*/man/man7' -type d | head -n 1)
mandir=${mandir%/man7}
if command -v man > /dev/null 2>&1 && [ -n "$mandir" ]; then
    for p in mcecc mcef77 mce-predict mce-report mce-info tcs-link "7 mcemu"; do
        # shellcheck disable=SC2086
        MANWIDTH=80 man -M "$mandir" -P cat $p > "$TMP/man" 2> "$TMP/manerr"
        st=$?
        if [ $st -eq 0 ] && grep -q "^NAME" "$TMP/man" &&
            grep -q "${p#7 }" "$TMP/man"; then
            pass "man $p renders from the installed pages"
        else
            fail "man $p: status $st"
            cat "$TMP/manerr"
        fi
    done
else
    note "no man(1) here: the installed pages are not rendered"
fi

# The design note and the examples, NX's included, are installed; the
# installed mcecc builds the NX examples from the installed files alone,
# and they print what the build tree's programs print.
for f in design/iwarp-tcs.md report/index.html report/ipsc/index.html \
    report/iwarp/summary.md report/paragon/cx.csv report/ncube/ring_standard.svg \
    examples/ring.c examples/opts.c \
    examples/quote.h examples/calibrate_nx.c examples/shift_sync.c \
    examples/complete_exchange.c examples/cx/schedule.c \
    examples/cx/schedule.h; do
    n=$(find "$dest" -path "*/doc/mcemu/$f" | wc -l)
    expect_eq "installed doc/mcemu/$f" "$n" 1
done
ex=$(find "$dest" -path '*/doc/mcemu/examples' -type d | head -n 1)
machines=$(dirname "$conf")
while IFS='|' read -r prog srcs args; do
    # shellcheck disable=SC2086
    (cd "$ex" && MCECC_INCLUDEDIR=$incdir MCECC_LIBDIR=$libdir "$mcecc" -O1 \
        -o "$TMP/$prog" $srcs) > "$TMP/cc" 2>&1
    expect_eq "installed example $prog builds with the installed mcecc" $? 0
    cat "$TMP/cc"
    # shellcheck disable=SC2086
    "$TMP/$prog" --mce-machine-path="$machines" $args > "$TMP/inst.o" 2>&1
    expect_eq "installed example $prog runs" $? 0
    # shellcheck disable=SC2086
    "$B/apps/$prog" $args > "$TMP/build.o" 2>&1
    if cmp -s "$TMP/inst.o" "$TMP/build.o"; then
        pass "installed example $prog prints what apps/$prog prints"
    else
        fail "installed example $prog differs from apps/$prog:"
        diff "$TMP/build.o" "$TMP/inst.o" | head -n 10
    fi
done <<EOF
calibrate_nx|calibrate_nx.c opts.c|--mce-nodes=2
shift_sync|shift_sync.c opts.c|--mce-nodes=8 --trials=2 --sizes=0,4096
complete_exchange|complete_exchange.c cx/schedule.c opts.c -lm|--mce-machine=paragon --mce-nodes=16 --mce-set=paragon.width=4 --sizes=9000 --alg=scott,bounded
EOF
finish
