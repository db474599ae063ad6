#!/bin/sh
# --mce-trace=FILE.otf2 writes an OTF2 archive (when mcemu was built with
# libopen-trace-format2) that otf2-print reads: a 64-node sobel_edge run
# has as many Enter and Leave records as its JSON trace has slices, and
# an NX run and a Vertex run (with a broadcast) as many MPI sends and
# receives as the JSON trace has arrows; network resources (iWarp links,
# PCTs) and resources of nodes (NCUBE channels, buffer pools, iWarp
# spools) are locations of their own; the archive is the same on 1, 2
# and 4 ranks.
# Running again to the same FILE.otf2 replaces the archive (its anchor,
# FILE.def and FILE/ with no file of the old one left); a path whose
# pieces are not an OTF2 archive's is refused at start (status 2, a
# message naming the piece) and left as it was; a run that fails keeps
# the previous archive whole.
# Without OTF2 support, FILE.otf2 is refused with a message.
. "$top_srcdir/tests/lib.sh"

command -v python3 > /dev/null || { fail "python3 is needed to parse the traces"; finish; exit 1; }
"$B/apps/ring" --mce-nodes=2 --mce-trace="$TMP/probe.otf2" > "$TMP/o" 2>&1
if grep -q "built without OTF2" "$TMP/o"; then
    pass "built without OTF2: FILE.otf2 refused with a message"
    finish
    exit 0
fi
if ! command -v otf2-print > /dev/null; then
    fail "otf2-print (Debian otf2-tools) is needed to read the archive"
    finish
    exit 1
fi

# json_counts FILE: "slices arrows_started arrows_ended"
json_counts() {
    python3 -c "
import json,sys
ev=json.load(open(sys.argv[1]))['traceEvents']
print(sum(1 for e in ev if e.get('ph') in ('X','B')), sum(1 for e in ev if e.get('ph')=='s'), sum(1 for e in ev if e.get('ph')=='f'))" "$1"
}
# otf2_counts ARCHIVE: "enters leaves sends receives"
otf2_counts() {
    otf2-print "$1" > "$TMP/print" 2> "$TMP/print.err"
    [ -s "$TMP/print.err" ] && sed 's/^/# otf2-print: /' "$TMP/print.err" | head -5
    echo "$(grep -c '^ENTER ' "$TMP/print") $(grep -c '^LEAVE ' "$TMP/print") $(grep -c '^MPI_SEND ' "$TMP/print") $(grep -c '^MPI_RECV ' "$TMP/print")"
}

for cfg in "sobel_edge apps/sobel_edge --mce-nodes=64 --output=$TMP/sobel.pgm" \
    "nx_stats tests/progs/nx_stats --mce-nodes=4" \
    "vx_routes tests/progs/vx_routes --mce-nodes=4" \
    "spool apps/iwarp/deposit_pingpong --mce-nodes=64 --mode=spool"; do
    set -- $cfg
    what=$1 prog=$2; shift 2
    "$B/$prog" "$@" --mce-trace="$TMP/$what.json" > "$TMP/o" 2>&1
    expect_eq "$what JSON status" $? 0
    "$B/$prog" "$@" --mce-trace="$TMP/$what.otf2" > "$TMP/o" 2>&1
    expect_eq "$what OTF2 status" $? 0
    set -- $(json_counts "$TMP/$what.json")
    slices=$1 sends=$2 recvs=$3
    got=$(otf2_counts "$TMP/$what.otf2")
    expect_eq "$what: otf2-print reads the archive cleanly" "$(wc -c < "$TMP/print.err")" 0
    expect_eq "$what: Enter, Leave, MpiSend, MpiRecv = the JSON's slices and arrows" \
        "$got" "$slices $slices $sends $recvs"
done
otf2-print -G "$TMP/nx_stats.otf2" > "$TMP/defs" 2>&1
expect_grep "nx_stats: node locations defined" 'LOCATION .*"node 3"' "$TMP/defs"
expect_grep "nx_stats: protocol locations defined" 'LOCATION .*"node 3 protocol"' "$TMP/defs"
expect_grep "nx_stats: a region per call" 'REGION .*"crecv"' "$TMP/defs"
otf2-print -G "$TMP/vx_routes.otf2" > "$TMP/defs" 2>&1
expect_grep "vx_routes: NCUBE channel locations" 'LOCATION .*"node 1 channel 0 (to node 0)".*Group: "node resources"' "$TMP/defs"
expect_grep "vx_routes: NCUBE buffer pool location" 'LOCATION .*"node 0 buffer pool".*Group: "node resources"' "$TMP/defs"
otf2-print -G "$TMP/spool.otf2" > "$TMP/defs" 2>&1
expect_grep "iWarp link locations" 'LOCATION .*"link (0,0) X+".*Group: "network"' "$TMP/defs"
expect_grep "iWarp PCT locations" 'LOCATION .*"PCT 0 of cell (1,0)".*Group: "network"' "$TMP/defs"
expect_grep "iWarp spool locations" 'LOCATION .*"node 0 spool 0".*Group: "node resources"' "$TMP/defs"

# --- the same archive on 1, 2 and 4 ranks -------------------------------------
# (locations numbered by process and track, regions by name: not by the
# order the ranks' events arrive in); the anchor's trace identifier is
# random
for cfg in "nx tests/progs/nx_stats --mce-nodes=4 --mce-set=nx.irq=1" \
    "ncube tests/progs/vx_routes --mce-nodes=4"; do
    set -- $cfg
    what=$1 prog=$2; shift 2
    for np in 0 1 2 4; do
        run $np "$B/$prog" "$@" --mce-trace="$TMP/l$np.otf2" > "$TMP/o" 2>&1
        { otf2-print -G "$TMP/l$np.otf2"; otf2-print "$TMP/l$np.otf2"; } 2>&1 |
            grep -v '^Trace identifier' > "$TMP/l$np.print"
        [ $np = 0 ] && continue
        cmp -s "$TMP/l0.print" "$TMP/l$np.print" &&
            pass "$what: OTF2 archive on $np ranks = one process" ||
            fail "$what: OTF2 archive differs on $np ranks"
    done
done

# --- running again to the same path -----------------------------------------
# locations PRINT: the archive's location count (otf2-print -A)
locations() { otf2-print -A "$1" 2>&1 | awk '/^Number of locations/ { print $4 }'; }
"$B/tests/progs/nx_stats" --mce-nodes=4 --mce-trace="$TMP/again.otf2" > "$TMP/o" 2>&1
expect_eq "first run to again.otf2" $? 0
first=$(locations "$TMP/again.otf2")
otf2-print -A "$TMP/again.otf2" > "$TMP/print" 2>&1
expect_grep "the anchor names mcemu as its creator" '^Creator  *mcemu ' "$TMP/print"
"$B/apps/ring" --mce-nodes=2 --mce-trace="$TMP/again.otf2" > "$TMP/o" 2>&1
expect_eq "second run to the same path: status" $? 0
expect_eq "second run: no OTF2 error" "$(grep -c 'OTF2\]\|cannot' "$TMP/o")" 0
"$B/apps/ring" --mce-nodes=2 --mce-trace="$TMP/ring.json" > "$TMP/o" 2>&1
set -- $(json_counts "$TMP/ring.json")
expect_eq "second run: the archive is the new run's (Enter, Leave, MpiSend, MpiRecv)" \
    "$(otf2_counts "$TMP/again.otf2")" "$1 $1 $2 $3"
second=$(locations "$TMP/again.otf2")
[ "$second" -lt "$first" ] && pass "second run has fewer locations ($second < $first)" ||
    fail "second run's locations: $second, first's $first"
expect_eq "no location file of the first run is left" \
    "$(ls "$TMP/again" | wc -l)" "$((2 * second))"

# --- what is not an OTF2 archive is refused, and left as it was ----------------
echo "my notes" > "$TMP/notes.otf2"
"$B/apps/ring" --mce-nodes=2 --mce-trace="$TMP/notes.otf2" > "$TMP/o" 2>&1
expect_eq "a non-OTF2 FILE.otf2: status" $? 2
expect_grep "a non-OTF2 FILE.otf2: message" "'$TMP/notes.otf2' exists and is not an OTF2 archive's anchor: not overwritten" "$TMP/o"
expect_eq "a non-OTF2 FILE.otf2 is left as it was" "$(cat "$TMP/notes.otf2")" "my notes"
echo "results" > "$TMP/again/results.txt"
"$B/apps/ring" --mce-nodes=2 --mce-trace="$TMP/again.otf2" > "$TMP/o" 2>&1
expect_eq "a foreign file in FILE/: status" $? 2
expect_grep "a foreign file in FILE/: message" "'$TMP/again/' holds 'results.txt', which is not part of an OTF2 archive" "$TMP/o"
expect_eq "the foreign file is kept" "$(cat "$TMP/again/results.txt")" "results"
expect_eq "the previous archive is kept whole" "$(otf2_counts "$TMP/again.otf2")" "$1 $1 $2 $3"
rm "$TMP/again/results.txt"
echo "definitions" > "$TMP/d.def"
"$B/apps/ring" --mce-nodes=2 --mce-trace="$TMP/d.otf2" > "$TMP/o" 2>&1
expect_eq "a non-OTF2 FILE.def: status" $? 2
expect_grep "a non-OTF2 FILE.def: message" "'$TMP/d.def' exists and is not an OTF2 archive's definitions" "$TMP/o"
expect_eq "a non-OTF2 FILE.def is left as it was" "$(cat "$TMP/d.def")" "definitions"
# a run that ends in an error keeps the previous archive whole (its
# partial trace goes to FILE.otf2.json)
"$B/tests/progs/vx_misuse" nopost --mce-nodes=2 --mce-trace="$TMP/again.otf2" > "$TMP/o" 2>&1
expect_eq "a failing run to the archive's path: status" $? 1
expect_grep "a failing run: partial trace as JSON" "again.otf2.json" "$TMP/o"
expect_eq "a failing run keeps the previous archive" "$(otf2_counts "$TMP/again.otf2")" "$1 $1 $2 $3"
finish
