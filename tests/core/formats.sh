#!/bin/sh
# --format=table|csv|json of the programs that share apps/opts.c: the CSV
# and JSON rows carry the same values as the table (same run, same
# virtual times), JSON parses, --help exits 0, a bad --format is refused.
# The iWarp, TCS and Sobel programs' tables are compared in their fidelity
# tests (expect_formats); the NX, Vertex and native ones here.
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
# The NX, Vertex and native programs' tables as rows: the CSV carries the
# numbers the table prints (at its printed precision), the JSON the CSV's.
FMT_NUMBERS=1 expect_formats "pingpong" "pingpong: " pingpong \
    "$B/apps/pingpong" --mce-nodes=2 --sizes=0,100,5000
FMT_NUMBERS=1 expect_formats "ring" "ring: " ring \
    "$B/apps/ring" --mce-nodes=4 --rounds=2 --bytes=100
FMT_NUMBERS=1 expect_formats "calibrate_nx constants" \
    "calibrate_nx: (a|b_l|b_s|s) +=" calibrate_nx "$B/apps/calibrate_nx" --mce-nodes=2
FMT_NUMBERS=1 expect_formats "calibrate_nx ring" "calibrate_nx: ring of" \
    calibrate_nx_ring "$B/apps/calibrate_nx" --mce-nodes=2

# csv_cols CSV TABLE COL...: the named columns of table TABLE's rows
csv_cols() {
    f=$1 t=$2
    shift 2
    awk -F, -v t="$t" -v cols="$*" '
        $1 == "table" { n = split($0, h, ","); delete at
                        for (i = 1; i <= n; i++) at[h[i]] = i; next }
        $1 == t { m = split(cols, c, " "); l = ""
                  for (i = 1; i <= m; i++) l = l (i > 1 ? " " : "") (c[i] in at ? $(at[c[i]]) : "?")
                  print l }' "$f"
}
# same_values WHAT TABLE_VALUES CSV_VALUES: the two files of value lines
# agree, numbers at the precision the table prints them.
same_values() {
    awk 'function prec(s) { return index(s, ".") ? 0.5 * 10 ^ -(length(s) - index(s, ".")) : 0.5 }
         FNR == NR { t[FNR] = $0; nt = FNR; next }
         { nc = FNR; if (!(FNR in t)) { print "csv row " FNR ": no table line"; bad++; next }
           n = split(t[FNR], a, " "); m = split($0, b, " ")
           if (n != m) { print "row " FNR ": table " t[FNR] ", csv " $0; bad++; next }
           for (i = 1; i <= n; i++) {
               if (a[i] ~ /^-?[0-9]+(\.[0-9]+)?$/ && b[i] ~ /^-?[0-9.e+-]+$/) {
                   d = b[i] - a[i]; if (d < 0) d = -d
                   if (d > prec(a[i]) + 1e-9) { print "row " FNR ": table " a[i] ", csv " b[i]; bad++ } }
               else if (a[i] != b[i]) { print "row " FNR ": table " a[i] ", csv " b[i]; bad++ } } }
         END { if (nt != nc) { print "table lines " nt ", csv rows " nc; bad++ }
               if (nt == 0) { print "no table lines"; bad++ }
               exit bad > 0 }' "$2" "$3" > "$TMP/sv.diff"
    if [ $? -eq 0 ]; then pass "$1: --format=csv rows equal the table ($(wc -l < "$2"))"
    else fail "$1: --format=csv differs from the table:"; sed 's/^/#     /' "$TMP/sv.diff" >&3; fi
}

ss="$B/apps/shift_sync --mce-nodes=8 --trials=2 --sizes=0,4096"
# shellcheck disable=SC2086
run 0 $ss > "$TMP/ss.t" 2>&1 && run 0 $ss --format=csv > "$TMP/ss.c" 2>&1 &&
    run 0 $ss --format=json > "$TMP/ss.j" 2>&1
expect_eq "shift_sync table, csv and json runs" $? 0
awk '$1 == "shift_sync:" && $2 ~ /^(gsync|sync0|rds)$/ { sub(/%$/, "", $9); print $2, $3, $4, $5, $6, $7, $8, $9 }' \
    "$TMP/ss.t" > "$TMP/ss.tv"
csv_cols "$TMP/ss.c" shift_sync sync proto bytes shift_us predict_us sync_us prec_us success_pct > "$TMP/ss.cv"
same_values "shift_sync" "$TMP/ss.tv" "$TMP/ss.cv"
expect_json_rows "shift_sync" "$TMP/ss.j" "$TMP/ss.c" shift_sync

rv="$B/apps/ring_vertex --mce-nodes=8 --rounds=2 --sizes=0,64,1000"
# shellcheck disable=SC2086
run 0 $rv > "$TMP/rv.t" 2>&1 && run 0 $rv --format=csv > "$TMP/rv.c" 2>&1 &&
    run 0 $rv --format=json > "$TMP/rv.j" 2>&1
expect_eq "ring_vertex table, csv and json runs" $? 0
awk '$1 == "ring_vertex:" && $4 == "bytes" { print $2, $3, $5 }' "$TMP/rv.t" > "$TMP/rv.tv"
csv_cols "$TMP/rv.c" ring_vertex scheme bytes us_per_message > "$TMP/rv.cv"
same_values "ring_vertex" "$TMP/rv.tv" "$TMP/rv.cv"
sed -n -E 's|^ring_vertex: ([a-z]+) fixed ([0-9.]+) us/message \([^:]*: ([0-9.]+)\), incremental ([0-9.]+) us/byte \(paper: ([0-9.]+)\)$|\1 \2 \3 \4 \5|p' \
    "$TMP/rv.t" > "$TMP/rvf.tv"
csv_cols "$TMP/rv.c" ring_vertex_fit scheme fixed_us paper_fixed_us us_per_byte paper_us_per_byte > "$TMP/rvf.cv"
same_values "ring_vertex fit" "$TMP/rvf.tv" "$TMP/rvf.cv"
expect_json_rows "ring_vertex" "$TMP/rv.j" "$TMP/rv.c" ring_vertex
expect_json_rows "ring_vertex fit" "$TMP/rv.j" "$TMP/rv.c" ring_vertex_fit

# the same rows on 1 and 2 ranks
run 1 "$B/apps/ring_vertex" --mce-nodes=8 --rounds=2 --sizes=0,64 --format=csv > "$TMP/r1" 2>&1
run 2 "$B/apps/ring_vertex" --mce-nodes=8 --rounds=2 --sizes=0,64 --format=csv > "$TMP/r2" 2>&1
expect_eq "ring_vertex csv on 1 and 2 ranks" "$(cksum < "$TMP/r2")" "$(cksum < "$TMP/r1")"
finish
