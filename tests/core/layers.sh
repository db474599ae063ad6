#!/bin/sh
# The library's layers (doc/ARCHITECTURE.md section 1): core < net <
# machines < api < lib/main.c.  A lower layer never includes an upper
# one's header, and none of its objects refers to a symbol an upper
# layer's object defines: the link graph of the objects is then a tree of
# layers (a strongly connected component spanning two layers would need
# such an upward reference).  Reads the objects of this build tree.
. "$top_srcdir/tests/lib.sh"

layer() { # PATH: the layer number of a source or object path
    case $1 in
    lib/core/*) echo 0 ;; lib/net/*) echo 1 ;; lib/machines/*) echo 2 ;;
    lib/api/*) echo 3 ;; *) echo 4 ;;
    esac
}

# Includes: every quoted include resolved against its file's directory.
# Downwards, a plug-in layer includes only its own headers, the layer just
# below and the core: a personality reaches a network model only through
# its machine (lib/main.c, the top, knows every layer).
bad=0 skip=0
for f in $(cd "$top_srcdir" && find lib -name '*.[ch]'); do
    l=$(layer "$f")
    d=$(dirname "$f")
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$top_srcdir/$f"); do
        t=$(cd "$top_srcdir/$d" 2>/dev/null && realpath -m --relative-to="$top_srcdir" "$inc")
        case $t in lib/*) ;; *) continue ;; esac
        lt=$(layer "$t")
        if [ "$lt" -gt "$l" ]; then
            fail "$f (layer $l) includes $t (layer $lt)"
            bad=1
        elif [ "$l" -lt 4 ] && [ "$lt" -gt 0 ] && [ "$lt" -lt $((l - 1)) ]; then
            fail "$f (layer $l) includes $t (layer $lt): go through layer $((l - 1))"
            skip=1
        fi
    done
done
[ $bad = 0 ] && pass "no lower layer includes an upper layer's header"
[ $skip = 0 ] && pass "no layer includes a header two layers down but the core's"

# The engine's global: read only by the core.  The upper layers go
# through the accessors of lib/core/engine.h (mcei_nnodes, ...), so the
# engine's layout stays the core's own.
(cd "$top_srcdir" && grep -rnw 'mcei_eng' lib --include='*.[ch]' |
    grep -v '^lib/core/') > "$TMP/eng" || true
if [ -s "$TMP/eng" ]; then
    fail "mcei_eng used outside lib/core (use the accessors of lib/core/engine.h):
$(cat "$TMP/eng")"
else
    pass "no mcei_eng (mcei_eng->) outside lib/core"
fi

# Mutable file-scope state: no object of lib/net or lib/machines holds a
# writable variable (.data, .bss and their thread-local forms; constant
# tables with pointers live in .data.rel.ro, written only by the loader).
# A network model keeps its state in its mcei_net_t, a protocol in the
# engine's proto_state and each node's vn->proto (doc/ARCHITECTURE.md,
# section 3), so that two engines, or a unit test's fake one, never share
# it.  Allowed, one "object-path symbol  why" line each (none today):
allow=''
for o in $(find "$B/lib/net" "$B/lib/machines" -path '*/.libs/*' \
    -name 'libmcemu*_la-*.o' | sort); do
    rel=$(echo "${o#$B/}" | sed 's,/\.libs/,/,')
    # (the sanitizers' own symbols, __odr_asan.* and the like, are not
    # the program's state)
    objdump -t "$o" | awk -v o="$rel" '$0 ~ / O / &&
        $4 ~ /^\.(t?data|t?bss)/ && $4 !~ /rel\.ro/ &&
        $NF !~ /^__(odr_asan|asan|ubsan|sancov)/ { print o, $NF, $4 }'
done > "$TMP/mut"
nobj=$(find "$B/lib/net" "$B/lib/machines" -path '*/.libs/*' \
    -name 'libmcemu*_la-*.o' | wc -l)
printf '%s\n' "$allow" | awk 'NF >= 2 { print $1, $2 }' > "$TMP/allow"
awk 'FILENAME == ARGV[1] { ok[$1 " " $2] = 1; next } !(($1 " " $2) in ok)' \
    "$TMP/allow" "$TMP/mut" > "$TMP/mut.bad"
if [ "$nobj" -eq 0 ]; then
    fail "no objects of lib/net or lib/machines under $B/lib"
elif [ -s "$TMP/mut.bad" ]; then
    fail "mutable file-scope variables in lib/net or lib/machines (move them into the model's, protocol's or node's state):
$(cat "$TMP/mut.bad")"
else
    pass "no mutable file-scope state in lib/net and lib/machines ($nobj objects)"
fi

# Exported names: libmcemu exports the mce_ API and the process's entry
# and interposers, nothing else.  The personalities' legacy names
# (iwarp_cell, tcs_run, csend, nwrite, ...) are macros of their headers
# over mce_ functions, so a program's own iwarp_* or tcs_* function never
# clashes with the library's.  (Names starting with "_" are the
# toolchain's, e.g. the sanitizers'.)
so=$B/lib/.libs/libmcemu.so
if [ -f "$so" ]; then
    nm -D --defined-only "$so" | awk '{ print $NF }' |
        grep -v -e '^mce_' -e '^_' -e '^main$' -e '^exit$' -e '^sleep$' \
            -e '^usleep$' -e '^nanosleep$' > "$TMP/exports" || true
    if [ -s "$TMP/exports" ]; then
        fail "libmcemu exports names without the mce_ prefix:
$(cat "$TMP/exports")"
    else
        pass "libmcemu exports only mce_ names, main and the interposers"
    fi
    if nm -D --defined-only "$so" | awk '{ print $NF }' |
        grep -q -e '^iwarp_' -e '^tcs_'; then
        fail "libmcemu exports iwarp_ or tcs_ names (legacy names are macros)"
    else
        pass "libmcemu exports no iwarp_ or tcs_ symbol"
    fi
else
    note "no $so (static build): exports not checked"
fi

# Symbols: objects of the libraries, defined and undefined symbols.
objs=$(find "$B/lib" -path '*/.libs/*' -name 'libmcemu*_la-*.o' | sort)
[ -n "$objs" ] || fail "no objects under $B/lib"
for o in $objs; do
    rel=$(echo "${o#$B/}" | sed 's,/\.libs/,/,')
    l=$(layer "$rel")
    nm -P --defined-only "$o" |
        awk -v o="$rel" -v l="$l" '$2 ~ /^[TDBRVWCG]$/ { print "D", $1, o, l }'
    nm -P --undefined-only "$o" | awk -v o="$rel" -v l="$l" '{ print "U", $1, o, l }'
done > "$TMP/syms"
n=$(grep -c '^D' "$TMP/syms")
awk '$1 == "D" { def[$2] = $3; dl[$2] = $4; next }
     { u[++n] = $0 }
     END { for (i = 1; i <= n; i++) { split(u[i], a, " ")
           if ((a[2] in def) && dl[a[2]] > a[4])
               print a[3] " (layer " a[4] ") -> " a[2] " in " def[a[2]] " (layer " dl[a[2]] ")" } }' \
    "$TMP/syms" | sort -u > "$TMP/up"
if [ -s "$TMP/up" ]; then
    fail "references from a lower layer to an upper one:"
    sed 's/^/    /' "$TMP/up"
else
    pass "no object refers to an upper layer ($(echo "$objs" | wc -l) objects, $n symbols)"
fi
# Circles inside a layer: within each layer below (its subdirectories
# included), the objects' link graph (an object -> the objects that
# define the symbols it refers to) has no cycle, so that each file can be
# linked and tested with only the files beneath it.  lib/machines/iwarp
# (the protocol's table in plugin.c above the cell's files and the
# modules, cpu.c beneath them) and lib/api (registry.c dispatching to the
# personalities, program.c beneath them) once had such circles.  lib/core's
# objects still form one circle (not checked).
for dir in lib/net lib/machines lib/api; do
    awk -v d="$dir/" '
        index($3, d) == 1 { if (!($3 in id)) { id[$3] = ++n; name[n] = $3 } }
        $1 == "D" && index($3, d) == 1 { def[$2] = $3; next }
        $1 == "U" && index($3, d) == 1 { use[++nu] = $3 " " $2 }
        END {
            for (i = 1; i <= nu; i++) {
                split(use[i], a, " ")
                if ((a[2] in def) && def[a[2]] != a[1]) {
                    r[id[a[1]], id[def[a[2]]]] = 1
                    why[id[a[1]], id[def[a[2]]]] = a[2]
                }
            }
            for (k = 1; k <= n; k++) for (i = 1; i <= n; i++)
                if ((i, k) in r) for (j = 1; j <= n; j++)
                    if ((k, j) in r) r[i, j] = 1
            for (i = 1; i <= n; i++) for (j = 1; j <= n; j++)
                if (i != j && ((i, j) in r) && ((j, i) in r) &&
                    ((i, j) in why))
                    print name[i] " -> " name[j] " (" why[i, j] ")"
        }' "$TMP/syms" | sort > "$TMP/circle"
    nd=$(awk -v d="$dir/" 'index($3, d) == 1 { print $3 }' "$TMP/syms" |
        sort -u | wc -l)
    if [ "$nd" -eq 0 ]; then
        fail "no objects under $B/$dir"
    elif [ -s "$TMP/circle" ]; then
        fail "link-time circle among the objects of $dir (an object -> one it refers to, in a circle with it):
$(sed 's/libmcemu[a-z0-9_]*_la-//g; s/^/    /' "$TMP/circle")"
    else
        pass "no link-time circle among the objects of $dir ($nd objects)"
    fi
done
finish
