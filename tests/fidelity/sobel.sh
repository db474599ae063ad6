#!/bin/sh
# The Sobel edge detector of seed 003 (section 5, Table 3) on the NCUBE:
# apps/sobel_edge's output image is byte-identical to the sequential
# reference tests/progs/sobel_ref on the same input for 1, 4, 16 and 64
# nodes with standard and with extended Vertex, and its summary line
# (digest and vtime_max_ps) and table are the same in one process and on
# 1, 2 and 4 ranks.
. "$top_srcdir/tests/lib.sh"

sobel=$B/apps/sobel_edge
ref=$B/tests/progs/sobel_ref

# same_as_ref WHAT: compare $TMP/out.pgm with sobel_ref of $TMP/in.pgm
same_as_ref() {
    if ! "$ref" "$TMP/in.pgm" "$TMP/ref.pgm" > "$TMP/ref.log" 2>&1; then
        fail "$1: sobel_ref failed"
        sed 's/^/    | /' "$TMP/ref.log"
    elif cmp "$TMP/out.pgm" "$TMP/ref.pgm" > /dev/null 2>&1; then
        pass "$1: output identical to sobel_ref"
    else
        fail "$1: output differs from sobel_ref"
    fi
    rm -f "$TMP/out.pgm" "$TMP/ref.pgm"
}

# Every node count and scheme on a 64x64 image, one process.
for nodes in 1 4 16 64; do
    for scheme in standard extended; do
        what="$nodes nodes $scheme 64x64"
        run 0 "$sobel" --mce-nodes=$nodes --size=64 --scheme=$scheme \
            --output="$TMP/out.pgm" --write-input="$TMP/in.pgm" \
            > "$TMP/log" 2>&1 || fail "$what exited non-zero"
        expect_grep "$what: table row" "^ *64x64  $scheme " "$TMP/log"
        same_as_ref "$what"
    done
done

# A larger image with both schemes, and the same pixels read back from a
# file (--input).
run 0 "$sobel" --mce-nodes=16 --size=256 --output="$TMP/out.pgm" \
    --write-input="$TMP/in.pgm" > "$TMP/log" 2>&1 ||
    fail "16 nodes 256x256 exited non-zero"
expect_grep "16 nodes 256x256: extended row" "^ *256x256  extended " "$TMP/log"
same_as_ref "16 nodes 256x256 both schemes"
run 0 "$sobel" --mce-nodes=16 --input="$TMP/in.pgm" --output="$TMP/out.pgm" \
    > "$TMP/log" 2>&1 || fail "16 nodes --input exited non-zero"
same_as_ref "16 nodes --input of the 256x256 image"

# The whole table (32x32 .. 512x512, both schemes) on 64 nodes: the same
# summary, table and image in one process and on 1, 2 and 4 ranks.
args="--mce-nodes=64 --mce-summary --output=$TMP/out.pgm --write-input=$TMP/in.pgm"
run 0 "$sobel" $args > "$TMP/ref64" 2>&1 ||
    fail "64-node table embedded run"
want=$(summary_sans_ranks "$TMP/ref64")
[ -n "$want" ] || fail "64-node table: no summary line"
grep -v '^mcemu:' "$TMP/ref64" > "$TMP/table0"
same_as_ref "64 nodes 512x512 (table run)"
for np in 1 2 4; do
    run "$np" "$sobel" $args > "$TMP/out$np" 2>&1 ||
        fail "64-node table np=$np exited non-zero"
    expect_eq "64-node table np=$np summary" \
        "$(summary_sans_ranks "$TMP/out$np")" "$want"
    grep -v '^mcemu:' "$TMP/out$np" > "$TMP/table$np"
    if cmp "$TMP/table0" "$TMP/table$np" > /dev/null 2>&1; then
        pass "64-node table np=$np: same table"
    else
        fail "64-node table np=$np: table differs"
        diff "$TMP/table0" "$TMP/table$np" | sed 's/^/    | /'
    fi
    same_as_ref "64 nodes 512x512 np=$np"
done

# Usage errors end every node with status 2.
run 0 "$sobel" --mce-nodes=4 --bogus > "$TMP/log" 2>&1
expect_eq "unknown option exit status" "$?" 2
expect_grep "unknown option prints the usage" "usage: sobel_edge" "$TMP/log"
run 0 "$sobel" --mce-nodes=64 --size=100 > "$TMP/log" 2>&1
expect_eq "indivisible size exit status" "$?" 2
finish
