#!/bin/sh
# --mce-stats=FILE.csv|FILE.json and the accounting owner of lib/core:
# NX message and byte counts equal the values counted by hand in
# tests/progs/nx_stats.c (posted, ignored and handler receives count, the
# global operations' own messages do not); compute + comm + wait + stolen
# equals every node's final virtual time for programs of every
# personality (native, NX, Vertex, iWarp, TCS); rows parsed back are
# identical on 1, 2 and 4 ranks; the provenance is complete; bad paths
# and write errors are reported with a non-zero status.
. "$top_srcdir/tests/lib.sh"

command -v python3 > /dev/null || { fail "python3 is needed to parse the statistics"; finish; exit 1; }

# rows FILE: the node rows, whatever the format, one "k=v ..." line each
rows() {
    python3 - "$1" <<'PY'
import csv, json, sys
p = sys.argv[1]
if p.endswith(".json"):
    d = json.load(open(p))
    rs = d["nodes"]
else:
    rs = list(csv.DictReader(l for l in open(p) if not l.startswith("#")))
for r in rs:
    print(" ".join("%s=%s" % (k, r[k]) for k in sorted(r)))
PY
}

# identity FILE: "ok N" if compute+comm+wait+stolen == vtime for all N nodes
identity() {
    python3 - "$1" <<'PY'
import csv, sys
rs = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
bad = [r["node"] for r in rs
       if sum(int(r[k]) for k in ("compute_ps", "comm_ps", "wait_ps",
                                  "stolen_ps")) != int(r["vtime_ps"])]
print("ok %d" % len(rs) if rs and not bad else "bad nodes %s" % bad[:8])
PY
}

# --- NX counts by hand (see the table in tests/progs/nx_stats.c) --------
want="node=0 sent=5/206 recv=1/4000
node=1 sent=1/10 recv=4/192
node=2 sent=2/4064 recv=2/48
node=3 sent=1/20 recv=2/60"
for m in "--mce-machine=ipsc860" "--mce-machine=ipsc860 --mce-set=nx.irq=1" \
    "--mce-machine=paragon --mce-set=paragon.width=2"; do
    "$B/tests/progs/nx_stats" --mce-nodes=4 $m --mce-stats="$TMP/nx.csv" > "$TMP/o" 2>&1
    expect_eq "nx_stats $m status" $? 0
    got=$(python3 - "$TMP/nx.csv" <<'PY'
import csv, sys
for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")):
    print("node=%s sent=%s/%s recv=%s/%s" % (r["node"], r["msgs_sent"],
          r["bytes_sent"], r["msgs_recv"], r["bytes_recv"]))
PY
)
    expect_eq "nx_stats $m: messages and bytes by hand" "$got" "$want"
    # mce_stats() inside the program agrees with the file
    for n in 0 1 2 3; do
        s=$(echo "$want" | sed -n "s,^node=$n sent=\([0-9]*\)/.* recv=\([0-9]*\)/.*,sent=\1 received=\2,p")
        expect_grep "nx_stats $m: node $n mce_stats" "node $n $s handled=" "$TMP/o"
    done
    expect_grep "nx_stats $m: the hrecv handler ran" "node 2 .* handled=40" "$TMP/o"
    expect_eq "nx_stats $m: mce_stats sums to its clock" \
        "$(grep -c 'unaccounted_ps=0$' "$TMP/o")" 4
    expect_eq "nx_stats $m: sum = final clock" "$(identity "$TMP/nx.csv")" "ok 4"
done

# --- the sum on every personality -----------------------------------------
while read -r what prog args; do
    "$B/$prog" $args --mce-stats="$TMP/s.csv" > "$TMP/o" 2>&1
    expect_eq "$what: status" $? 0
    expect_eq "$what: compute + comm + wait + stolen = final clock" \
        "$(identity "$TMP/s.csv")" "ok $(echo "$args" | sed 's/.*--mce-nodes=\([0-9]*\).*/\1/')"
done <<EOF
native apps/ring --mce-nodes=8 --rounds=3 --bytes=100
native-compute apps/sobel_edge --mce-nodes=16 --output=$TMP/sobel.pgm
nx-ipsc-irq apps/shift_sync --mce-nodes=16 --trials=2 --sizes=4096 --back-to-back --mce-set=nx.irq=1 --mce-set=ipsc.fc=1
nx-ipsc tests/progs/nx_api --mce-nodes=8
nx-paragon apps/complete_exchange --mce-nodes=16 --mce-machine=paragon --mce-set=paragon.width=4 --sizes=9000
vertex tests/progs/vx_routes --mce-nodes=16
vertex-extended apps/ring_vertex --mce-nodes=8 --rounds=2 --sizes=0,1000
iwarp-deposit apps/iwarp/deposit_pingpong --mce-nodes=64 --runs=2 --sizes=4,1024 --dist=1,7
iwarp-pct apps/iwarp/subset_barrier --mce-nodes=64
iwarp-spool apps/iwarp/backpressure --mce-nodes=64 --mode=dq --words=1000
tcs apps/tcs/motion_detect --mce-nodes=64 --block=4 --frames=1 --video=square
EOF

# --- activations: every node ran at least once (its start) -----------------
"$B/apps/ring" --mce-nodes=8 --rounds=3 --bytes=100 --mce-stats="$TMP/a.csv" > "$TMP/o" 2>&1
expect_eq "activations: ring status" $? 0
expect_eq "activations: a column, at least 1 for each of 8 nodes" "$(python3 - "$TMP/a.csv" <<'PY'
import csv, sys
rs = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
print(sum(1 for r in rs if int(r["activations"]) >= 1))
PY
)" 8

# --- identical rows on 1, 2 and 4 ranks ------------------------------------
for cfg in "nx tests/progs/nx_stats --mce-nodes=4 --mce-set=nx.irq=1" \
    "vertex tests/progs/vx_routes --mce-nodes=16" \
    "paragon apps/complete_exchange --mce-nodes=16 --mce-machine=paragon --mce-set=paragon.width=4 --sizes=9000"; do
    set -- $cfg
    what=$1 prog=$2; shift 2
    for ext in csv json; do
        run 0 "$B/$prog" "$@" --mce-stats="$TMP/r0.$ext" > "$TMP/o" 2>&1
        rows "$TMP/r0.$ext" > "$TMP/rows0"
        [ -s "$TMP/rows0" ] || fail "$what $ext: no rows"
        for np in 1 2 4; do
            run $np "$B/$prog" "$@" --mce-stats="$TMP/r$np.$ext" > "$TMP/o" 2>&1
            rows "$TMP/r$np.$ext" > "$TMP/rows$np"
            if cmp -s "$TMP/rows0" "$TMP/rows$np"; then
                pass "$what $ext: rows on $np ranks = one process"
            else
                fail "$what $ext: rows differ on $np ranks"
                diff "$TMP/rows0" "$TMP/rows$np" | head -5
            fi
        done
    done
done

# --- provenance ------------------------------------------------------------
"$B/apps/ring" --mce-nodes=4 --rounds=1 --mce-set=probe_cost=2us --mce-seed=7 \
    --mce-placement=cyclic --mce-stats="$TMP/p.json" > "$TMP/o" 2>&1
expect_eq "provenance run status" $? 0
python3 - "$TMP/p.json" > "$TMP/check" 2>&1 <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["provenance"]
assert p["mcemu_version"], p
assert p["command_line"][1:] == ["--mce-nodes=4", "--rounds=1",
    "--mce-set=probe_cost=2us", "--mce-seed=7", "--mce-placement=cyclic",
    "--mce-stats=" + sys.argv[1]], p["command_line"]
assert p["machine"] == "ideal" and p["machine_file"].endswith("ideal.conf"), p
assert len(p["machine_hash"]) == 16, p
assert p["overrides"] == {"probe_cost": "2us"}, p
assert p["seed"] == 7 and p["ranks"] == 1 and p["nodes"] == 4, p
assert p["placement"] == "cyclic", p
print("provenance ok")
PY
expect_grep "JSON provenance" "provenance ok" "$TMP/check"
"$B/apps/ring" --mce-nodes=4 --rounds=1 --mce-stats="$TMP/p.csv" > "$TMP/o" 2>&1
for k in mcemu_version command_line machine_file machine_hash overrides seed ranks placement; do
    expect_grep "CSV provenance: $k" "^# $k:" "$TMP/p.csv"
done
# A different override changes the machine hash; the same one does not.
h() { sed -n 's/^# machine_hash: //p' "$1"; }
"$B/apps/ring" --mce-nodes=4 --rounds=1 --mce-set=probe_cost=3us --mce-stats="$TMP/p2.csv" > "$TMP/o" 2>&1
"$B/apps/ring" --mce-nodes=4 --rounds=1 --mce-set=probe_cost=2us --mce-stats="$TMP/p3.csv" > "$TMP/o" 2>&1
python3 -c "import json; print(json.load(open('$TMP/p.json'))['provenance']['machine_hash'])" > "$TMP/h1"
expect_eq "machine hash follows the resolved values" "$(h "$TMP/p3.csv")" "$(cat "$TMP/h1")"
[ "$(h "$TMP/p2.csv")" != "$(h "$TMP/p3.csv")" ] && pass "a different override, a different hash" ||
    fail "machine hash ignores overrides"

# --- errors -----------------------------------------------------------------
"$B/apps/ring" --mce-nodes=2 --mce-stats="$TMP/s.txt" > "$TMP/o" 2>&1
expect_eq "unknown extension status" $? 2
expect_grep "unknown extension message" "option --mce-stats: .* neither .csv nor .json" "$TMP/o"
"$B/apps/ring" --mce-nodes=2 --mce-stats="$TMP/no/such/dir/s.csv" > "$TMP/o" 2>&1
expect_eq "unwritable file status" $? 2
expect_grep "unwritable file message" "option --mce-stats: cannot write" "$TMP/o"
if [ -w /dev/full ]; then
    ln -s /dev/full "$TMP/full.csv"
    "$B/apps/ring" --mce-nodes=2 --mce-stats="$TMP/full.csv" > "$TMP/o" 2>&1
    expect_eq "full device status" $? 1
    expect_grep "full device message" "cannot write --mce-stats file" "$TMP/o"
fi
finish
