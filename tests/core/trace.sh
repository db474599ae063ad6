#!/bin/sh
# --mce-trace writes Chrome trace-event JSON: one named track per node,
# a send and a receive slice per message with matching flow ids, virtual
# timestamps that agree with the ideal formula; identical for 1 and 2 ranks.
. "$top_srcdir/tests/lib.sh"

command -v python3 > /dev/null || { fail "python3 is needed to parse the trace"; finish; exit 1; }
for np in 0 2; do
    run "$np" "$B/apps/ring" --mce-nodes=4 --rounds=3 --bytes=100 \
        --mce-trace="$TMP/t$np.json" > "$TMP/o" 2>&1
    expect_eq "trace run np=$np" $? 0
    python3 - "$TMP/t$np.json" > "$TMP/check" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name"}
assert names == {i: "node %d" % i for i in range(4)}, names
sends = [e for e in ev if e.get("ph") == "X" and e["name"] == "send"]
recvs = [e for e in ev if e.get("ph") == "X" and e["name"] == "mce_recv"]
assert len(sends) == 12 and len(recvs) == 12, (len(sends), len(recvs))
s_ids = sorted(e["id"] for e in ev if e.get("ph") == "s")
f_ids = sorted(e["id"] for e in ev if e.get("ph") == "f")
assert s_ids == f_ids and len(s_ids) == 12
# ideal.conf: 5 us + 100 x 10 ns = 6 us wire, 1 us receive overhead.
for r in recvs:
    a = r["args"]
    assert abs(a["arrived"] - a["sent"] - 6.0) < 1e-9, a
    assert abs(r["ts"] + r["dur"] - a["arrived"] - 1.0) < 1e-9, r
last = max(r["ts"] + r["dur"] for r in recvs)
assert abs(last - 21.0) < 1e-9, last
print("trace ok", len(ev))
PY
    expect_grep "trace np=$np content" "trace ok" "$TMP/check" || true
done
python3 -c "
import json,sys
a=json.load(open('$TMP/t0.json'))['traceEvents']; b=json.load(open('$TMP/t2.json'))['traceEvents']
k=lambda e: json.dumps(e, sort_keys=True)
sys.exit(0 if sorted(map(k,a))==sorted(map(k,b)) else 1)" && pass "trace identical for 1 and 2 ranks" || fail "trace differs between layouts"
bad_dir=$TMP/no/such/dir/t.json
"$B/apps/ring" --mce-nodes=2 --mce-trace="$bad_dir" > "$TMP/o" 2>&1
expect_eq "unwritable trace file status" $? 2
expect_grep "unwritable trace file message" "option --mce-trace: cannot write" "$TMP/o"
finish
