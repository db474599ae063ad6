#!/bin/sh
# mce-predict against values computed here by hand from the seeds'
# formulas: Table III of seed 000 exactly as printed, Table II rows for a
# few (m, delta) computed with awk, the gsync/sync0/RDS costs and the RDS
# waits, the Paragon Table 1 terms and the n^3/4c step counts of seed 001
# (Table 2 as printed), the NCUBE t_comm and t'_comm of seed 003, and
# errors (status 2, the option named).
. "$top_srcdir/tests/lib.sh"

P=$B/tools/mce-predict

# get KEY FILE [FILTER]: the value of KEY=... on the line matching FILTER
get() {
    grep -- "${3:-.}" "$2" | head -n 1 | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# --help lists every command and the common options.
"$P" --help > "$TMP/help" 2>&1
expect_eq "--help status" $? 0
for c in ipsc-table2 ipsc-table3 ipsc-sync rds-waits paragon-sync \
    paragon-comm cx-steps cx-time ncube ncube-table2 constants \
    --constants --ps --boundary-us; do
    expect_grep "--help lists $c" "$c" "$TMP/help"
done

# ---- seed 000, Table III: the printed minimum lengths, exactly ----------
"$P" ipsc-table3 > "$TMP/t3" 2>&1 || fail "ipsc-table3 exited non-zero"
got=$(for d in 2 3 4 5 6 7; do get min_m "$TMP/t3" "^d=$d "; done | tr '\n' ' ')
expect_eq "Table III (Seidel and Davis 1992)" "$got" "645 1062 1478 1895 2312 2728 "
# ceil of (2 d bs - bl/2)/a, computed here
for d in 2 5 7; do
    want=$(awk -v d=$d 'BEGIN { x = (2*d*75 - 136/2) / 0.36;
        m = int(x); if (m < x) m++; print m }')
    "$P" ipsc-table3 --d=$d > "$TMP/t3d" 2>&1
    expect_eq "Table III d=$d, ceil((2d bs - bl/2)/a)" \
        "$(get min_m "$TMP/t3d")" "$want"
done

# ---- seed 000, Table II: row costs for given m and delta -----------------
# cost ROW M DELTA: the Table II formula of ROW with a=0.36, bl=136, bs=75,
# or n/a outside the row's printed range.
cost() {
    awk -v row="$1" -v m="$2" -v dl="$3" 'BEGIN {
        a = 0.36; bl = 136; bs = 75; am = a * m; c = "n/a"
        if (row == "send-long") c = am + bl
        if (row == "send-forced") c = am + bs
        if (row == "2-1" || row == "2-5") { if (dl < bs) c = am + bl + dl }
        if (row == "2-2" || row == "2-6") {
            if (bs <= dl && dl <= am) c = 2*am + 1.5*bl }
        if (row == "2-3") c = am + bl + bs + dl
        if (row == "2-4") c = am + 2*bs + dl
        if (row == "2-7") c = am + bs + dl
        if (c == "n/a") print c; else printf "%.2f\n", c }'
}
for md in "4096 30" "4096 200" "16384 50" "16384 3000" "1000 400"; do
    # shellcheck disable=SC2086
    set -- $md
    "$P" ipsc-table2 --m="$1" --delta="$2" > "$TMP/t2" 2>&1 ||
        fail "ipsc-table2 m=$1 delta=$2 exited non-zero"
    for row in send-long send-forced 2-1 2-2 2-3 2-4 2-5 2-6 2-7; do
        expect_eq "Table II row $row m=$1 delta=$2" \
            "$(get cost_us "$TMP/t2" "^row=$row ")" "$(cost $row "$1" "$2")"
    done
done
"$P" ipsc-table2 --m=64 --delta=0 > "$TMP/t2" 2>&1
expect_eq "short send 64 B costs bs + am (Table II prints bs)" "$(get cost_us "$TMP/t2" '^row=send-short ')" \
    "$(awk 'BEGIN { printf "%.2f\n", 75 + 0.36 * 64 }')"
expect_eq "short send: the printed formula is kept" "$(get printed_formula "$TMP/t2" '^row=send-short ')" bs
expect_eq "long rows do not apply to 64 bytes" \
    "$(get m_ok "$TMP/t2" '^row=2-1 ')" no
# Section 2.2: past am + bl/2 the exchange costs 2am + 3/2 bl + delta'.
"$P" ipsc-table2 --m=4096 --delta=2000 > "$TMP/t2" 2>&1
expect_eq "late exchange (sec 2.2)" "$(get cost_us "$TMP/t2" '^row=2-2-late ')" \
    "$(awk 'BEGIN { am = 0.36*4096; printf "%.2f\n", 2*am + 204 + 2000 - (am + 68) }')"
# The mechanism boundary (b_l/2 by default) against the seed's b_s.
"$P" ipsc-table2 --m=4096 --delta=70 > "$TMP/t2" 2>&1
expect_eq "default boundary is bl/2" "$(get boundary_us "$TMP/t2" '^row=mechanism')" 68.00
expect_eq "delta=70: paper says concurrent" \
    "$(get paper_exchange_case "$TMP/t2" '^row=mechanism')" concurrent
expect_eq "delta=70: mechanism says sequential" \
    "$(get exchange_case "$TMP/t2" '^row=mechanism')" sequential
expect_eq "delta=70: cases disagree" "$(get agree "$TMP/t2" '^row=mechanism')" no
"$P" ipsc-table2 --m=4096 --delta=66 --boundary-us=65 > "$TMP/t2" 2>&1
expect_eq "--boundary-us=65, delta=66: shift sequential" \
    "$(get shift_cost_us "$TMP/t2" '^row=mechanism')" \
    "$(awk 'BEGIN { printf "%.2f\n", 2*0.36*4096 + 204 }')"
# Picoseconds and overridden constants.
"$P" ipsc-table2 --m=1000 --delta=10 --ps --constants a=0.5,bl=100 > "$TMP/t2" 2>&1
expect_eq "--ps with --constants, row 2-1" \
    "$(get cost_ps "$TMP/t2" '^row=2-1 ')" $(((500 + 100 + 10) * 1000000))

# ---- seed 000, synchronisation -------------------------------------------
sync_field() { "$P" ipsc-sync --alg="$1" --d="$2" --delta="$3" 2>&1 | tr ' ' '\n' |
    sed -n "s/^$4=//p"; }
expect_eq "gsync d=3 delta=10 cost d bs + delta" "$(sync_field gsync 3 10 cost_us)" 235.00
expect_eq "gsync d=3 delta=10 precision delta" "$(sync_field gsync 3 10 precision_us)" 10.00
expect_eq "gsync d=3 delta=100 cost 2 d bs" "$(sync_field gsync 3 100 cost_us)" 450.00
expect_eq "gsync d=3 delta=100 precision d(bs-s)" "$(sync_field gsync 3 100 precision_us)" 93.00
expect_eq "gsync d=3 delta=300 cost d bs + delta" "$(sync_field gsync 3 300 cost_us)" 525.00
expect_eq "sync0 d=4 delta=20 cost (d+1) bs + delta" "$(sync_field sync0 4 20 cost_us)" 395.00
expect_eq "sync0 d=4 delta=75 cost (2d+1) bs" "$(sync_field sync0 4 75 cost_us)" 675.00
expect_eq "sync0 d=4 delta=75 precision d(bs-s)" "$(sync_field sync0 4 75 precision_us)" 124.00
# "In the worst case, shown in the figure, that message can be blocked
# during steps 2 and 3" (3.1); sync0's message "can be blocked" (3.2).
expect_eq "gsync d=3 delta=100 is the worst case" "$(sync_field gsync 3 100 case)" worst
expect_eq "sync0 d=4 delta=75 is the worst case" "$(sync_field sync0 4 75 case)" worst
expect_eq "gsync d=3 delta=10 is a formula" "$(sync_field gsync 3 10 case)" formula
expect_eq "rds d=5 delta=123.5 cost 2 d bs + delta" "$(sync_field rds 5 123.5 cost_us)" 873.50
expect_eq "rds precision 0" "$(sync_field rds 5 123.5 precision_us)" 0.00

# RDS waits: w_i = (d - |i|_1)(bs - s), k = (w - 2.0)/0.126.
"$P" rds-waits --d=4 > "$TMP/w" 2>&1 || fail "rds-waits exited non-zero"
expect_eq "rds-waits d=4 lists 16 nodes" "$(wc -l < "$TMP/w" | tr -d ' ')" 16
expect_eq "w_0 = 4 x 31" "$(get w_us "$TMP/w" '^node=0 ')" 124.00
expect_eq "w_5 = 2 x 31" "$(get w_us "$TMP/w" '^node=5 ')" 62.00
expect_eq "w_15 = 0" "$(get w_us "$TMP/w" '^node=15 ')" 0.00
expect_eq "k for w_0" "$(get k "$TMP/w" '^node=0 ')" \
    "$(awk 'BEGIN { printf "%.2f\n", (124 - 2.0) / 0.126 }')"

# ---- seed 001, Paragon ---------------------------------------------------
"$P" paragon-sync --nodes=256 > "$TMP/p" 2>&1
expect_eq "sync 256 nodes = 27.1 x 8 - 134" "$(get sync_us "$TMP/p")" 82.80
"$P" paragon-sync --side=8 > "$TMP/p" 2>&1
expect_eq "sync 8 x 8 = 27.1 x 6 - 134" "$(get sync_us "$TMP/p")" 28.60
"$P" paragon-sync --nodes=16 > "$TMP/p" 2>&1
expect_eq "sync fit negative at 16 nodes" "$(get sync_fit "$TMP/p")" negative
"$P" paragon-comm --m=15232 > "$TMP/p" 2>&1
expect_eq "comm 15232 bytes = 231 + 0.022 m" "$(get comm_us "$TMP/p")" 566.104
"$P" paragon-comm --m=8639 > "$TMP/p" 2>&1
expect_eq "comm below 8640 bytes is outside the fit" "$(get m_ok "$TMP/p")" no

# n^3/4c for n = 4, 8, ..., 32 and every c dividing n/4.
n=4
while [ $n -le 32 ]; do
    "$P" cx-steps --n=$n > "$TMP/s" 2>&1 || fail "cx-steps --n=$n exited non-zero"
    c=1 lines=0
    while [ $c -le $((n / 4)) ]; do
        if [ $((n / 4 % c)) -eq 0 ]; then
            lines=$((lines + 1))
            expect_eq "steps n=$n c=$c" "$(get steps "$TMP/s" "^n=$n .* c=$c ")" \
                $((n * n * n / (4 * c)))
        fi
        c=$((c + 1))
    done
    expect_eq "cx-steps --n=$n lists every valid c" "$(wc -l < "$TMP/s" | tr -d ' ')" $lines
    expect_eq "naive steps n=$n" "$(get naive_steps "$TMP/s")" $((n * n - 1))
    n=$((n + 4))
done
# Table 2 as printed agrees with the formula at every entry.
"$P" cx-steps > "$TMP/s" 2>&1
expect_eq "Table 2 has 21 entries" "$(grep -c 'paper=[0-9]' "$TMP/s")" 21
expect_eq "Table 2 entries equal n^3/4c" \
    "$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
              if (v["paper"] != v["steps"]) bad++ } END { print bad + 0 }' "$TMP/s")" 0
expect_eq "Table 2's n=20 c=2 breaks the c | n/4 rule" \
    "$(get rule "$TMP/s" '^n=20 .* c=2 ')" violated

# Predicted time = steps x comm + barriers x sync.
"$P" cx-time --alg=bounded --n=8 --c=2 --m=15232 > "$TMP/x" 2>&1
expect_eq "bounded 8x8 c=2 m=15232" "$(get total_us "$TMP/x")" \
    "$(awk 'BEGIN { printf "%.3f\n", 64 * (231 + 0.022*15232) + 64 * (27.1*6 - 134) }')"
expect_eq "bounded 8x8 c=2 upper bound" "$(get upper_us "$TMP/x")" \
    "$(awk 'BEGIN { printf "%.3f\n", 128 * (231 + 0.022*15232) + 64 * (27.1*6 - 134) }')"
"$P" cx-time --alg=naive --n=4 --m=10000 > "$TMP/x" 2>&1
expect_eq "naive 4x4: 15 steps, no barriers" "$(get total_us "$TMP/x")" \
    "$(awk 'BEGIN { printf "%.2f\n", 15 * (231 + 0.022*10000) }')"

# ---- seed 003, NCUBE -----------------------------------------------------
"$P" ncube --m=100 > "$TMP/n" 2>&1
expect_eq "standard t_comm(100)" "$(get tcomm_us "$TMP/n" standard)" 780.40
expect_eq "extended t_comm(100)" "$(get tcomm_us "$TMP/n" extended)" 212.20
"$P" ncube-table2 > "$TMP/n" 2>&1
expect_eq "t'_comm(8) standard = Table 2" \
    "$(get tcomm_word_us "$TMP/n" '^scheme=standard m=8 ')" 245.76
expect_eq "t'_comm(8) extended = Table 2" \
    "$(get tcomm_word_us "$TMP/n" '^scheme=extended m=8 ')" 46.76
expect_eq "t'_comm(64) standard = 4 t_comm / m" \
    "$(get tcomm_word_us "$TMP/n" '^scheme=standard m=64 ')" \
    "$(awk 'BEGIN { printf "%.2f\n", 4 * (466.40 + 3.14*64) / 64 }')"

# ---- errors: status 2, the option named ----------------------------------
bad() { # WHAT PATTERN ARGS...
    what=$1 pat=$2; shift 2
    "$@" > "$TMP/e" 2>&1; rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$pat" "$TMP/e"; then pass "$what"
    else fail "$what (status $rc):"; sed 's/^/    | /' "$TMP/e"; fi
}
bad "no command" "usage" "$P"
bad "unknown command" "unknown command 'nosuch'" "$P" nosuch
bad "unknown option" "unknown option '--mm=3'" "$P" ipsc-table2 --mm=3 --delta=1
bad "missing --m" "option --m is required" "$P" ipsc-table2 --delta=1
bad "missing --delta" "option --delta is required" "$P" ipsc-table2 --m=1
bad "--m not a number" "\-\-m: 'abc'" "$P" ipsc-table2 --m=abc --delta=1
bad "negative delta" "\-\-delta: '-1'" "$P" ipsc-table2 --m=1 --delta=-1
bad "delta below 1 ps" "\-\-delta: '0.0000001'" "$P" ipsc-table2 --m=1 --delta=0.0000001
bad "option without value" "'--delta' needs a value" "$P" ipsc-table2 --m=1 --delta
bad "d out of range" "\-\-d: 0 is out of range" "$P" ipsc-table3 --d=0
bad "bad --alg" "\-\-alg: 'foo'" "$P" ipsc-sync --alg=foo --d=2 --delta=0
bad "unknown constant" "unknown constant 'zz'" "$P" ipsc-table3 --constants zz=1
bad "zero a" "\-\-constants a: must be positive" "$P" ipsc-table3 --constants a=0
bad "n not a multiple of 4" "\-\-n: 10 is not a multiple of 4" "$P" cx-steps --n=10
bad "c not dividing n/4" "\-\-c: 2 does not divide n/4 = 5" "$P" cx-steps --n=20 --c=2
bad "bad --scheme" "\-\-scheme: 'x'" "$P" ncube --m=1 --scheme=x
bad "overflow" "too large" "$P" ipsc-table2 --m=9999999999999999 --delta=1
# ---- --format and compare ---------------------------------------------------
"$P" ipsc-table3 --format=csv > "$TMP/csv" 2>&1
expect_eq "csv: header names table and paper" "$(head -n 1 "$TMP/csv" | cut -d, -f1-3)" "table,paper,d"
expect_eq "csv: one row per d" "$(grep -c '^ipsc-table3,Seidel and Davis 1992,' "$TMP/csv")" 6
"$P" ncube --m=100 --format=json > "$TMP/json" 2>&1
expect_grep "json: the paper by author and year" '"paper": "Mudge, Buzzard and Abdel-Rahman 1987"' "$TMP/json"
if command -v python3 > /dev/null; then
    expect_eq "json parses; extended t_comm(100)" "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([r["tcomm_us"] for r in d["rows"] if r["scheme"]=="extended"][0])' "$TMP/json")" 212.2
fi
# compare: rows written here (not by the emulator), predictions from the
# formulas computed with awk.
printf 'table,scheme,nodes,bytes,us_per_message\nring_vertex,standard,8,100,800\nring_vertex,extended,8,0,83.2\n' > "$TMP/rv.csv"
"$P" compare "$TMP/rv.csv" > "$TMP/cmp" 2>&1
expect_eq "compare: standard 100 B predicted f + x m" "$(get predicted "$TMP/cmp" 'scheme=standard')" \
    "$(awk 'BEGIN { print 466.4 + 3.14 * 100 }')"
expect_eq "compare: diff = emulated - predicted" "$(get diff "$TMP/cmp" 'scheme=standard')" \
    "$(awk 'BEGIN { print 800 - (466.4 + 3.14 * 100) }')"
expect_eq "compare: extended 0 B agrees" "$(get diff "$TMP/cmp" 'scheme=extended')" 0
expect_grep "compare: the paper by author and year" "paper=Mudge, Buzzard and Abdel-Rahman 1987" "$TMP/cmp"
printf '{"program": "pingpong", "arguments": [], "rows": [\n {"table": "pingpong", "bytes": 4096, "reps": 2, "round_trip_ps": 3221120000}]}\n' > "$TMP/pp.json"
"$P" compare "$TMP/pp.json" --machine=ipsc860 > "$TMP/cmp" 2>&1
expect_eq "compare json: pingpong 4096 B on ipsc860 = 2(am + bl)" "$(get predicted "$TMP/cmp" 'program=pingpong')" \
    "$(awk 'BEGIN { print 2 * (0.36 * 4096 + 136) }')"

finish
