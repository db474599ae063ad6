#!/bin/sh
# The ring experiment of the NCUBE paper (Table 1): ring_vertex fits
# t = f + x m over several sizes and must recover
#   standard Vertex: f = 466.40 us/message, x = 3.14 us/byte
#   extended Vertex: f =  83.20 us/message, x = 1.29 us/byte
# within 0.5% (the issue's tolerance), for 4 and 16 nodes; the summary
# digest is the same in one process and on 2 and 4 ranks.
. "$top_srcdir/tests/lib.sh"

within() { # WHAT GOT WANT: |got - want| <= 0.5% of want
    if awk -v g="$2" -v w="$3" 'BEGIN { d = g - w; if (d < 0) d = -d;
                                       exit !(g != "" && d <= 0.005 * w) }'; then
        pass "$1 = $2 (paper: $3)"
    else
        fail "$1 = '$2', paper $3"
    fi
}

for nodes in 4 16; do
    "$B/apps/ring_vertex" --mce-nodes=$nodes --rounds=4 \
        --sizes=0,64,256,1024,4096 > "$TMP/r" 2>&1
    expect_eq "ring_vertex $nodes nodes status" $? 0
    for scheme in standard extended; do
        line=$(grep "ring_vertex: $scheme fixed" "$TMP/r")
        f=$(echo "$line" | sed 's/.*fixed \([0-9.]*\) us.*/\1/')
        x=$(echo "$line" | sed 's/.*incremental \([0-9.]*\) us.*/\1/')
        if [ $scheme = standard ]; then wf=466.40 wx=3.14; else wf=83.20 wx=1.29; fi
        within "$nodes nodes $scheme fixed cost (us)" "$f" $wf
        within "$nodes nodes $scheme per-byte cost (us)" "$x" $wx
    done
done

args="--mce-nodes=16 --rounds=2 --sizes=0,512 --mce-summary"
run 0 "$B/apps/ring_vertex" $args > "$TMP/ref" 2>&1
ref=$(summary_sans_ranks "$TMP/ref")
for np in 1 2 4; do
    run $np "$B/apps/ring_vertex" $args > "$TMP/o" 2>&1
    expect_eq "ring_vertex digest on $np ranks" "$(summary_sans_ranks "$TMP/o")" "$ref"
done
finish
