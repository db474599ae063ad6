#!/bin/sh
# The Sobel edge detector of Mudge, Buzzard and Abdel-Rahman (1987, section
# 5, Table 3) on the NCUBE:
# apps/sobel_edge's output image is byte-identical to the sequential
# reference tests/progs/sobel_ref on the same input for 1, 4, 16 and 64
# nodes with standard and with extended Vertex, and its summary line
# (digest and vtime_max_ps) and table are the same in one process and on
# 1, 2 and 4 ranks.  Fidelity: the paper's qualitative statements (the
# improvement grows with communication's share; extended Vertex
# calculates a higher fraction of the time; 1.34 at a small subimage),
# and, reported per subimage size, the speedup of extended over
# standard Vertex against its measured 1.34 (the size is not printed).
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

# ---- Against the paper (Mudge, Buzzard and Abdel-Rahman 1987, 16
# processors).  Section 5: "For a small subimage size the total program
# execution speedup was 1.34.  As expected, the improvement increases as
# the communications account for a larger portion of total processing
# effort."  Section 6: extended Vertex lets the nodes "spend a much higher
# fraction of their total program execution time calculating".
# The paper prints neither the image nor the subimage sizes (Table 3 is
# withheld), so no size can be taken from its words: the 1.34 is
# REPORTED per subimage size (note lines, not a pass or a fail; the
# user guide, section 17, gives the reasoning).  Checked (pass/fail)
# are the two qualitative statements, and that the model is consistent
# with 1.34 at a small subimage: above it at the smallest subimage of
# the table, below it at the large ones.  The pixel cost is derived in
# ncube.conf (2 MIPS, 40 instructions), not from 1.34.
paper_speedup=1.34
"$sobel" --mce-nodes=16 --sizes=32,64,96,128,256,512 \
    --output="$TMP/out.pgm" > "$TMP/tab" 2>&1 ||
    fail "16-node table exited non-zero"
rm -f "$TMP/out.pgm"
# ratio IMAGE_SIDE: standard total / extended total (total_ms columns)
ratio() {
    awk -v img="$1x$1" '$1 == img && $2 == "standard" { s = $3 }
        $1 == img && $2 == "extended" { e = $3 }
        END { if (s > 0 && e > 0) printf "%.4f", s / e }' "$TMP/tab"
}
# frac IMAGE_SIDE SCHEME: calc_frac column
frac() {
    awk -v img="$1x$1" -v sc="$2" '$1 == img && $2 == sc { print $7 }' \
        "$TMP/tab"
}
r8=$(ratio 32) r16=$(ratio 64) r24=$(ratio 96) r32=$(ratio 128)
r64=$(ratio 256) r128=$(ratio 512)
# Reported: every subimage size against the paper's 1.34.
for pair in 8:$r8 16:$r16 24:$r24 32:$r32 64:$r64 128:$r128; do
    side=${pair%%:*} r=${pair#*:}
    note "$(awk -v s="$side" -v r="$r" -v w="$paper_speedup" 'BEGIN {
        d = r / w; printf "report: %sx%s subimages: ext/std %.2f, paper %.2f " \
            "for \"a small subimage size\": ratio %.2f%s", s, s, r, w, d,
            (d >= 0.9 && d <= 1.1) ? " (within 10%)" : "" }')"
done
# Qualitative (section 5): the smaller the subimage (the larger the
# share of communication), the larger the improvement.
if awk -v a="$r8" -v b="$r16" -v c="$r24" -v d="$r32" -v e="$r64" \
    -v f="$r128" 'BEGIN { exit !(a > b && b > c && c > d && d > e &&
                              e > f && f > 1) }'; then
    pass "speedup grows as the subimage shrinks ($r128 .. $r8)"
else
    fail "speedup not monotone in the subimage size: $r8 $r16 $r24 $r32 $r64 $r128"
fi
# Qualitative (section 5): 1.34 is reached at a small subimage: the
# smallest subimage exceeds it and the two largest stay below it.
if awk -v a="$r8" -v e="$r64" -v f="$r128" -v w="$paper_speedup" \
    'BEGIN { exit !(a > w && e < w && f < w) }'; then
    pass "1.34 falls among the small subimages (8x8: $r8, 64x64: $r64)"
else
    fail "1.34 not among the small subimages: 8x8 $r8, 64x64 $r64, 128x128 $r128"
fi
# Qualitative (section 6): extended spends a higher fraction of its
# time calculating, at every size.
for side in 32 64 96 128 256 512; do
    fs=$(frac $side standard) fe=$(frac $side extended)
    if awk -v s="$fs" -v e="$fe" 'BEGIN { exit !(s != "" && e > s) }'; then
        pass "${side}x$side image: calc fraction extended $fe > standard $fs"
    else
        fail "${side}x$side image: calc fraction extended '$fe', standard '$fs'"
    fi
done

# Usage errors end every node with status 2.
run 0 "$sobel" --mce-nodes=4 --bogus > "$TMP/log" 2>&1
expect_eq "unknown option exit status" "$?" 2
expect_grep "unknown option prints the usage" "usage: sobel_edge" "$TMP/log"
run 0 "$sobel" --mce-nodes=64 --size=100 > "$TMP/log" 2>&1
expect_eq "indivisible size exit status" "$?" 2
# --format=csv|json (apps/opts.c): the same numbers as the table's rows
# (their numbers in order after the image and the scheme).
FMT_NUMBERS=1
expect_formats "sobel_edge" " *[0-9]+x[0-9]+  (standard|extended) " sobel_edge \
    "$sobel" --mce-nodes=4 --sizes=32,64 --output="$TMP/f.pgm"
expect_formats "sobel_edge --per-node" "    node " sobel_edge_node \
    "$sobel" --mce-nodes=4 --size=32 --scheme=extended --per-node --output="$TMP/f.pgm"
FMT_NUMBERS=0
finish
