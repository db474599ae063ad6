#!/bin/sh
# --format=table|csv|json of the programs that share apps/opts.c: the CSV
# and JSON rows carry the same values as the table (same run, same
# virtual times), JSON parses, --help exits 0, a bad --format is refused.
. "$top_srcdir/tests/lib.sh"

cx="$B/apps/complete_exchange --mce-machine=paragon --mce-nodes=16 --mce-set=paragon.width=4 --sizes=9000 --alg=scott,bounded"
# shellcheck disable=SC2086
run 0 $cx > "$TMP/t" 2>&1
# shellcheck disable=SC2086
run 0 $cx --format=csv > "$TMP/c" 2>&1
# shellcheck disable=SC2086
run 0 $cx --format=json > "$TMP/j" 2>&1
expect_eq "csv header" "$(head -n 1 "$TMP/c")" \
    "table,alg,nodes,nodeC,linkC,bytes,emulated_ms,lower_ms,upper_ms"
expect_eq "csv: emulated ms as in the table" \
    "$(awk -F, 'NR > 1 { printf "%s %.3f\n", $5, $7 }' "$TMP/c")" \
    "$(awk '$2 == "scott" || $2 == "bounded" { print $4, $6 }' "$TMP/t" | grep -v '^linkC')"
if command -v python3 > /dev/null; then
    expect_eq "json: rows as in the csv" \
        "$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
assert d["program"] == "complete_exchange"
for r in d["rows"]: print("%s,%.6g" % (r["linkC"], r["emulated_ms"]))' "$TMP/j")" \
        "$(awk -F, 'NR > 1 { printf "%s,%.6g\n", $5, $7 }' "$TMP/c")"
fi
for p in pingpong ring ring_vertex shift_sync calibrate_nx complete_exchange; do
    run 0 "$B/apps/$p" --mce-nodes=2 --help > "$TMP/h" 2>&1
    expect_eq "$p --help status" $? 0
    expect_grep "$p --help lists --format" "--format=table|csv|json" "$TMP/h"
done
# the iWarp, TCS and Sobel programs (their default machines)
for p in iwarp/pct_pingpong iwarp/deposit_pingpong iwarp/rts_pingpong \
    iwarp/iwarp_barrier iwarp/subset_barrier iwarp/backpressure \
    tcs/tcs_primitives tcs/tcs_patterns tcs/tcs_patterns_tcs \
    tcs/motion_detect tcs/ball_front sobel_edge; do
    run 0 "$B/apps/$p" --help > "$TMP/h" 2>&1
    expect_eq "$p --help status" $? 0
    expect_grep "$p --help lists --format" "--format=table|csv|json" "$TMP/h"
done
run 0 "$B/apps/pingpong" --mce-nodes=2 --format=xml > "$TMP/e" 2>&1
expect_eq "--format=xml status" $? 2
expect_grep "--format=xml refused" "pingpong: --format: table, csv or json" "$TMP/e"
# the same rows on 1 and 2 ranks
run 1 "$B/apps/ring_vertex" --mce-nodes=8 --rounds=2 --sizes=0,64 --format=csv > "$TMP/r1" 2>&1
run 2 "$B/apps/ring_vertex" --mce-nodes=8 --rounds=2 --sizes=0,64 --format=csv > "$TMP/r2" 2>&1
expect_eq "ring_vertex csv on 1 and 2 ranks" "$(cksum < "$TMP/r2")" "$(cksum < "$TMP/r1")"
finish
