#!/bin/sh
# Introspection: mce-info (machines, network models, protocols,
# personalities, every key of a machine from the plug-ins' key tables),
# the loader's key check (unknown keys, ranges), --mce-version and
# --mce-help's per-personality defaults.
. "$top_srcdir/tests/lib.sh"

info=$B/tools/mce-info
M=$top_srcdir/share/machines
minfo() { "$info" --machine-path="$M" "$@"; }

# ---- listing ----------------------------------------------------------------
minfo > "$TMP/list" 2>&1; expect_eq "mce-info status" $? 0
for f in "$M"/*.conf; do
    m=$(basename "$f" .conf)
    expect_grep "mce-info lists machine $m" "^  $m " "$TMP/list"
done
for n in ideal ipsc paragon iwarp; do
    expect_grep "mce-info lists network model $n" "^  $n  *[0-9]* keys" "$TMP/list"
done
for p in native ncube nx iwarp; do
    expect_grep "mce-info lists protocol $p" "^  $p  *[0-9]* keys" "$TMP/list"
done
# Personalities with their default machines (the table of ARCHITECTURE.md
# section 3).
for pm in native:ideal vertex:ncube nx:ipsc860 iwarp:iwarp tcs:iwarp; do
    expect_grep "mce-info: personality ${pm%%:*}, default machine ${pm#*:}" \
        "^  ${pm%%:*} .*default machine ${pm#*:}\$" "$TMP/list"
done

# ---- every key a shipped machine file sets is in a table ---------------------
# The keys are read from the files here (sed), independently of the loader.
for f in "$M"/*.conf; do
    m=$(basename "$f" .conf)
    minfo --machine="$m" --tsv > "$TMP/$m.tsv" 2>&1
    expect_eq "mce-info --machine=$m status" $? 0
    missing="" n=0
    for k in $(sed -n 's/^\([A-Za-z0-9_.-]*\) *=.*/\1/p' "$f" | sort -u); do
        n=$((n + 1))
        [ "$k" = inherit ] && continue
        awk -F '\t' -v k="$k" '$1 == k && $3 != "" && $4 != "" && $5 != "" && $6 != "" && $6 != "-" && $7 != "" { f = 1 } END { exit !f }' \
            "$TMP/$m.tsv" || missing="$missing $k"
    done
    expect_eq "$m: every key of the file ($n) listed with unit, range, default, label, source" \
        "$missing" ""
done

# ---- labels: the table's is the file's -----------------------------------------
# Keys whose own comment (on their line) carries a label: the first of
# input/derived/assumed or iWarp's [S]/[D]/[C] in it, read here with awk.
# mce-info --check covers the others (labels in the comment block above).
compared=0 bad=""
for f in "$M"/*.conf; do
    m=$(basename "$f" .conf)
    awk '/^[A-Za-z0-9_.-]+ *=[^#]*#/ {
            key = $1; c = substr($0, index($0, "#") + 1); lc = tolower(c)
            best = 0; lab = ""
            n = split("input derived assumed [s] [d] [c]", tok, " ")
            split("input derived assumed input derived assumed", nm, " ")
            for (i = 1; i <= n; i++) { p = index(lc, tok[i])
                if (p > 0 && (best == 0 || p < best)) { best = p; lab = nm[i] } }
            if (lab != "") print key, lab }' "$f" > "$TMP/$m.labels"
    while read -r k lab; do
        got=$(awk -F '\t' -v k="$k" '$1 == k { print $6 }' "$TMP/$m.tsv")
        compared=$((compared + 1))
        [ "$got" = "$lab" ] || bad="$bad $m:$k($got/$lab)"
    done < "$TMP/$m.labels"
done
expect_eq "labels of $compared keys labelled on their own line agree" "$bad" ""
[ "$compared" -ge 100 ] && pass "at least 100 labels compared ($compared)" ||
    fail "only $compared labels compared"

minfo --check > "$TMP/check" 2>&1
expect_eq "mce-info --check of the shipped machines" $? 0
expect_eq "mce-info --check: every machine ok" \
    "$(grep -c '^ok ' "$TMP/check")" "$(ls "$M"/*.conf | wc -l)"

# A label changed in a copy of the Paragon file: the check names the key.
sed 's/^# Input, Table 1: communication/# Assumed, Table 1: communication/' \
    "$M/paragon.conf" > "$TMP/paragon.conf"
minfo --check="$TMP/paragon.conf" > "$TMP/o" 2>&1
expect_eq "mce-info --check of a relabelled file: status" $? 1
expect_grep "mce-info --check names the relabelled key" \
    "paragon.conf:[0-9]*: key 'paragon.inject_per_byte': the table says input, the file says assumed" "$TMP/o"

# ---- the loader checks every key ---------------------------------------------
ring=$B/apps/ring
printf 'inherit = ipsc860\nipsc.bl = 2\n' > "$TMP/typo.conf"
"$ring" --mce-machine="$TMP/typo.conf" --mce-nodes=2 > "$TMP/o" 2>&1
expect_eq "unknown key in a machine file: status" $? 2
expect_grep "unknown key: file:line and the nearest key" \
    "typo.conf:2: unknown key 'ipsc.bl' .*nearest: 'ipsc.b_l'" "$TMP/o"
"$ring" --mce-machine=paragon --mce-nodes=16 --mce-set=paragon.short_maxx=4 > "$TMP/o" 2>&1
expect_eq "unknown key from --mce-set: status" $? 2
expect_grep "unknown key from --mce-set: nearest key" \
    "unknown key 'paragon.short_maxx' .*nearest: 'paragon.short_max'" "$TMP/o"
printf 'inherit = ipsc860\nipsc.fc = 2\n' > "$TMP/range.conf"
"$ring" --mce-machine="$TMP/range.conf" --mce-nodes=2 > "$TMP/o" 2>&1
expect_eq "out-of-range key: status" $? 2
expect_grep "out-of-range key: file:line, key and range" \
    "range.conf:2: .*key 'ipsc.fc' = 2 is out of range (0 .. 1)" "$TMP/o"
"$ring" --mce-machine=ncube --mce-nodes=2 --mce-set=vx.pool_bytes=lots > "$TMP/o" 2>&1
expect_eq "malformed value: status" $? 2
expect_grep "malformed value: the key named" \
    "key 'vx.pool_bytes': 'lots' is not a non-negative integer" "$TMP/o"

# ---- versions -------------------------------------------------------------------
hv=$(for p in MAJOR MINOR PATCH; do
    sed -n "s/^#define MCE_VERSION_$p \([0-9]*\)\$/\1/p" "$top_srcdir/include/mcemu.h"
done | paste -sd.)
cv=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$B/config.h")
expect_eq "configure's version is mcemu.h's" "$cv" "$hv"
"$ring" --mce-version > "$TMP/o" 2>&1; expect_eq "--mce-version status" $? 0
expect_eq "--mce-version prints the version" "$(cat "$TMP/o")" "mcemu $cv"
expect_eq "mce-info --version" "$("$info" --version)" "mce-info (mcemu) $cv"
cat > "$TMP/v.c" <<'EOF'
#include <mcemu.h>
#include <stdio.h>
int main(void)
{
    printf("%d.%d.%d %s\n", MCE_VERSION_MAJOR, MCE_VERSION_MINOR,
           MCE_VERSION_PATCH, MCE_VERSION_STRING);
    return 0;
}
EOF
if MCECC_INCLUDEDIR="$top_srcdir/include" MCECC_LIBDIR="$B/lib/.libs" \
    "$B/tools/mcecc" -o "$TMP/v" "$TMP/v.c" 2> "$TMP/cc"; then
    expect_eq "MCE_VERSION_* and MCE_VERSION_STRING in mcemu.h" \
        "$("$TMP/v" --mce-nodes=1)" "$cv $cv"
else
    fail "a program using MCE_VERSION_* does not compile: $(cat "$TMP/cc")"
fi

# ---- --mce-help gives each personality's real defaults ----------------------------
"$ring" --mce-help > "$TMP/h" 2>&1
expect_grep "--mce-help (native): default machine ideal" \
    "personality native (mcemu.h); default machine ideal (network model ideal, protocol native)" "$TMP/h"
"$B/apps/ring_vertex" --mce-help > "$TMP/h" 2>&1
expect_eq "--mce-help (Vertex) status" $? 0
expect_grep "--mce-help (Vertex): default machine ncube" \
    "personality vertex (vertex.h); default machine ncube (network model ideal, protocol ncube)" "$TMP/h"
if grep -q 'default: ideal' "$TMP/h"; then
    fail "--mce-help (Vertex) still says 'default: ideal'"
else pass "--mce-help (Vertex) does not say 'default: ideal'"; fi
"$B/tests/progs/nx_ring" --mce-help > "$TMP/h" 2>&1
expect_grep "--mce-help (NX): default machine ipsc860" \
    "personality nx (nx.h); default machine ipsc860 (network model ipsc, protocol nx)" "$TMP/h"

# The node count and compute mode each gets without options: the iWarp's
# 64 nodes come from iwarp.conf's nodes key (read here with sed), the
# others run one node per rank; an instrumented program counts.
iw_nodes=$(sed -n 's/^nodes *= *\([0-9]*\).*/\1/p' "$M/iwarp.conf")
expect_eq "iwarp.conf names its node count" "$iw_nodes" 64
while read -r prog want; do
    "$B/$prog" --mce-help > "$TMP/h" 2>&1
    expect_grep "--mce-help ($prog): $want" "^Its defaults: $want, --mce-compute=explicit\.\$" "$TMP/h"
done <<EOF
apps/ring --mce-nodes: one node per MPI rank
apps/ring_vertex --mce-nodes: one node per MPI rank
tests/progs/nx_ring --mce-nodes: one node per MPI rank
apps/iwarp/pct_pingpong --mce-nodes=$iw_nodes (iwarp's nodes key)
apps/tcs/tcs_primitives --mce-nodes=$iw_nodes (iwarp's nodes key)
EOF
# ... which is what a run without options does.
"$B/apps/iwarp/iwarp_barrier" --mce-summary > "$TMP/o" 2>&1
expect_eq "iwarp_barrier without --mce-nodes runs 64 nodes" "$(field nodes "$TMP/o")" "$iw_nodes"
"$B/apps/ring" --mce-summary > "$TMP/o" 2>&1
expect_eq "ring without --mce-nodes runs one node" "$(field nodes "$TMP/o")" 1
case "$(cc -dumpmachine 2>/dev/null)" in
x86_64*)
    if MCECC_INCLUDEDIR="$top_srcdir/include" MCECC_LIBDIR="$B/lib/.libs" \
        "$B/tools/mcecc" -mce-compute=counted -o "$TMP/vc" "$TMP/v.c" 2> "$TMP/cc"; then
        "$TMP/vc" --mce-help > "$TMP/h" 2>&1
        expect_grep "--mce-help (counted build): --mce-compute=counted" \
            "^Its defaults: .*, --mce-compute=counted (instrumented by mcecc)\.\$" "$TMP/h"
    else
        fail "mcecc -mce-compute=counted: $(cat "$TMP/cc")"
    fi ;;
*) note "counted mode is x86-64 only: its --mce-help default not checked" ;;
esac

# ---- manual pages -------------------------------------------------------------
pages="mce-info.1 mcemu.7 mcecc.1 mcef77.1 mce-predict.1 mce-report.1 tcs-link.1"
for p in $pages; do
    f=$top_srcdir/doc/man/$p
    expect_grep "$p carries the version" "^\.TH .* \"mcemu $cv\"" "$f"
    if command -v groff > /dev/null 2>&1; then
        LC_ALL=C groff -man -Tutf8 -ww -z "$f" > "$TMP/groff" 2>&1
        expect_eq "$p renders without groff warnings" "$? $(cat "$TMP/groff")" "0 "
    else
        note "$p: no groff, not rendered"
    fi
    # man -l: the page as a user reads it (NAME line, no roff left over)
    if command -v man > /dev/null 2>&1; then
        MANWIDTH=80 LC_ALL=C man -l "$f" > "$TMP/man" 2> "$TMP/manerr"
        expect_eq "man -l $p status" "$? $(cat "$TMP/manerr")" "0 "
        expect_grep "man -l $p: NAME section" "^NAME" "$TMP/man"
        expect_grep "man -l $p: its name line" "^ *${p%.*}  *- " "$TMP/man"
    else
        note "$p: no man, not rendered"
    fi
done
# Every option of --mce-help and of mce-info --help is in its page.
"$ring" --mce-help | sed -n 's/^  --mce-\([a-z-]*\).*/\1/p' > "$TMP/opts"
missing=""
for o in $(cat "$TMP/opts"); do
    grep -q -- "mce\\\\-$(echo "$o" | sed 's/-/\\\\-/g')" "$top_srcdir/doc/man/mcemu.7" ||
        missing="$missing $o"
done
expect_eq "mcemu(7) documents every --mce option ($(wc -l < "$TMP/opts"))" "$missing" ""
missing=""
for o in $("$info" --help | sed -n 's/^  --\([a-z-]*\).*/\1/p'); do
    grep -q -- "\\\\-\\\\-$(echo "$o" | sed 's/-/\\\\-/g')" "$top_srcdir/doc/man/mce-info.1" ||
        missing="$missing $o"
done
expect_eq "mce-info(1) documents every option of mce-info --help" "$missing" ""
# ... and every option of the other tools' --help in theirs.
tool_opts() { # PAGE: the --options of TOOL --help, one per line
    case $1 in
    mcecc) "$B/tools/mcecc" --help | sed -n 's/^  mcecc \(-[-a-z]*\).*/\1/p' ;;
    mcef77) "$B/tools/mcef77" --help | sed -n 's/^  mcef77 \(-[-a-z]*\).*/\1/p' ;;
    mce-predict) "$B/tools/mce-predict" --help | sed -n 's/^  \(--[a-z-]*\).*/\1/p' ;;
    mce-report) sh "$B/tools/mce-report" --help | sed -n 's/^  \(--[a-z-]*\).*/\1/p' ;;
    tcs-link) sh "$top_srcdir/tools/tcs-link" --help > /dev/null && echo --help ;;
    esac
}
for t in mcecc mcef77 mce-predict mce-report tcs-link; do
    missing="" n=0
    for o in $(tool_opts $t | sort -u); do
        n=$((n + 1))
        grep -q -- "$(echo "$o" | sed 's/-/\\\\-/g')" "$top_srcdir/doc/man/$t.1" ||
            missing="$missing $o"
    done
    expect_eq "$t(1) documents every option of $t --help ($n)" "$missing" ""
    [ $n -gt 0 ] || fail "$t --help: no options found"
done

finish
