#!/bin/sh
# --mce-trace writes Chrome trace-event JSON: one named track per node,
# a send and a receive slice per message with matching flow ids, virtual
# timestamps that agree with the ideal formula; identical for 1 and 2 ranks.
# The machines inside: NX calls with their arguments, one slice per crecv
# and a flow per user message; the iPSC/860's FORCED discard, the NCUBE's
# three-way handshake, a Paragon link shared by two worms, an iWarp
# spool stealing cycles; provenance; the event and node filters; a
# partial trace after an error; write errors; identical on 1, 2, 4 ranks.
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
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name" and e["pid"] == 0}
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
# check NAME FILE: run the Python checks below (stdin) on the trace FILE
check() {
    python3 - "$2" > "$TMP/check" 2>&1
    expect_grep "$1" "^trace ok" "$TMP/check"
}

# --- NX: arguments, one slice per crecv, flows (tests/progs/nx_stats.c) --
"$B/tests/progs/nx_stats" --mce-nodes=4 --mce-trace="$TMP/nx.json" > "$TMP/o" 2>&1
expect_eq "nx_stats trace status" $? 0
check "NX calls, arguments and flows" "$TMP/nx.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
calls = [e for e in ev if e.get("ph") == "X" and e["pid"] == 0]
def on(node, name):
    return [e for e in calls if e["tid"] == node and e["name"] == name]
# node 1: crecv type 1 (100 B from 0), crecv 5 (8 B from 0): one slice each
cr = on(1, "crecv")
assert len(cr) == 2, cr
assert [(e["args"]["bytes"], e["args"]["peer"], e["args"]["type"]) for e in cr] == [(100, 0, 1), (8, 0, 5)], cr
cs = on(0, "csend")
assert [(e["args"]["bytes"], e["args"]["peer"], e["args"]["type"]) for e in cs] == [(100, 1, 1), (50, 3, 3), (40, 2, 4)], cs
# 9 user messages, 9 arrows, the same ids; the global operations' own
# messages are no arrows
s = sorted(e["id"] for e in ev if e.get("ph") == "s")
f = sorted(e["id"] for e in ev if e.get("ph") == "f")
assert len(s) == 9 and s == f, (s, f)
# every arrow starts inside a call of its sender
for e in ev:
    if e.get("ph") == "s":
        assert any(c["tid"] == e["tid"] and c["ts"] <= e["ts"] <= c["ts"] + c["dur"] for c in calls), e
o = d["otherData"]
assert o["mcemu_version"] and o["machine"] == "ipsc860" and len(o["machine_hash"]) == 16, o
assert o["command_line"][1:] == ["--mce-nodes=4", "--mce-trace=" + sys.argv[1]], o
assert o["partial"] is False and o["seed"] == 1 and o["ranks"] == 1, o
print("trace ok")
PY

# --- iPSC/860: the long protocol's three trips on the ports (Seidel and
# Davis 1992, section 2): node 2's 4000-byte message to node 0 (nx_stats)
# is a PROBE 2->0, a REQUEST 0->2 once the PROBE is in, then the data
# 2->0 lasting 4000 x a, a = 0.36 us per byte (Table I)
data_us=$(awk 'BEGIN { print 4000 * 0.36 }')
DATA=$data_us check "iPSC/860 PROBE, REQUEST, data on the ports" "$TMP/nx.json" <<'PY'
import json, os, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name" and e["pid"] == 2}
net = [dict(e, track=names[e["tid"]]) for e in ev if e.get("ph") == "X" and e["pid"] == 2]
def one(track, kind, src, dst):
    m = [e for e in net if e["track"] == track and e["name"] == kind
         and e["args"]["src"] == src and e["args"]["dst"] == dst]
    assert m, (track, kind, src, dst)
    return min(m, key=lambda e: e["ts"])
probe = one("receive port 0", "PROBE", 2, 0)
req = one("receive port 2", "REQUEST", 0, 2)
data = one("receive port 0", "data", 2, 0)
assert req["ts"] >= probe["ts"] + probe["dur"] - 1e-9, (probe, req)
assert data["ts"] >= req["ts"] + req["dur"] - 1e-9, (req, data)
assert abs(data["dur"] - float(os.environ["DATA"])) < 1e-6 and data["args"]["bytes"] == 4000, data
print("trace ok")
PY

# --- iPSC/860: the FORCED message nx_api sends with no receive posted ----
"$B/tests/progs/nx_api" --mce-nodes=4 --mce-trace="$TMP/f.json" > "$TMP/o" 2>&1
expect_eq "nx_api trace status" $? 0
check "iPSC/860 FORCED discard on node's protocol track" "$TMP/f.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
dis = [e for e in ev if e.get("cat") == "discard"]
assert len(dis) == 1 and dis[0]["pid"] == 1, dis
a = dis[0]["args"]
assert a["type"] & 0x40000000 or a["type"] >= 0, a
print("trace ok", dis[0])
PY
expect_grep "discard also in the log" "FORCED message of type" "$TMP/o"

# --- NCUBE: the three-way handshake of every standard message -------------
# ncube.conf: latency 3.2 us, per_byte 1.29 us, vx.ctl_bytes 2 (section 2)
ctl=$(awk 'BEGIN { printf "%.6f", 3.2 + 2 * 1.29 }')
"$B/tests/progs/vx_routes" --mce-nodes=4 --mce-trace="$TMP/v.json" > "$TMP/o" 2>&1
expect_eq "vx_routes trace status" $? 0
CTL=$ctl check "NCUBE length request, acknowledgement, data" "$TMP/v.json" <<'PY'
import json, os, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
ctl = float(os.environ["CTL"])
hs = [e for e in ev if e.get("cat") == "handshake"]
req = [e for e in hs if e["name"] == "length request"]
assert req, "no length request"
n = 0
for r in req:
    a, b = r["tid"], r["args"]["peer"]
    assert abs(r["dur"] - ctl) < 1e-6, r
    # the receiver's acknowledgement after the request arrived, then the
    # sender's data after the acknowledgement arrived
    ack = [e for e in hs if e["name"] == "acknowledgement" and e["tid"] == b
           and e["args"]["peer"] == a and e["ts"] >= r["ts"] + r["dur"] - 1e-9]
    assert ack, r
    k = min(ack, key=lambda e: e["ts"])
    assert abs(k["dur"] - ctl) < 1e-6, k
    dat = [e for e in hs if e["name"] == "data (DMA)" and e["tid"] == a
           and e["args"]["peer"] == b and e["ts"] >= k["ts"] + k["dur"] - 1e-9]
    assert dat and min(dat, key=lambda e: e["ts"])["args"]["bytes"] == r["args"]["bytes"], r
    n += 1
# every point-to-point Vertex message an arrow, hop by hop to its reader
fs = sorted(e["id"] for e in ev if e.get("ph") == "s")
ff = sorted(e["id"] for e in ev if e.get("ph") == "f")
assert fs and fs == ff and all(".v" in i for i in fs), (fs[:4], ff[:4])
print("trace ok", n, "handshakes", len(fs), "arrows")
PY

# --- Paragon: two worms sharing one link (Bokhari and Nicol 1996, sec. 2)
"$B/apps/complete_exchange" --mce-nodes=16 --mce-machine=paragon \
    --mce-set=paragon.width=4 --sizes=9000 --mce-trace="$TMP/p.json" > "$TMP/o" 2>&1
expect_eq "complete_exchange trace status" $? 0
check "Paragon link occupancy with its share" "$TMP/p.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
net = [e for e in ev if e.get("ph") == "X" and e["pid"] == 2]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name" and e.get("pid") == 2}
assert net and all(names[e["tid"]].startswith("link ") for e in net), names
shared = [e for e in net if e["args"]["worms"] >= 2]
assert shared and all(e["args"]["lanes"] == 3 for e in net), shared[:2]
# a worm (a message, or one packet of it) streams its bytes at 0.022 us
# each (Table 1's slope)
assert all(abs(e["dur"] - e["args"]["bytes"] * 0.022) < 1e-6 for e in net), net[0]
assert all(0 < e["args"]["bytes"] <= e["args"]["msg_bytes"] or e["args"]["msg_bytes"] == 0 for e in net), net[0]
assert any(e["args"]["msg_bytes"] == 9000 for e in shared), shared[:2]
print("trace ok", len(net), "link events", len(shared), "shared")
PY

# --- iWarp: a spool steals one cycle in three (Warfel 1996, section 3.6):
# 300 clocks of computation take 450, 150 stolen, at 50 ns a clock
"$B/apps/iwarp/deposit_pingpong" --mce-nodes=64 --mode=spool --mce-trace="$TMP/i.json" > "$TMP/o" 2>&1
expect_eq "spool trace status" $? 0
want=$(awk 'BEGIN { print 300 / 2 * 50 * 1000 }')
WANT=$want check "iWarp spool stealing cycles" "$TMP/i.json" <<'PY'
import json, os, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
sp = [e for e in ev if e.get("cat") == "spool"]
assert len(sp) == 1 and sp[0]["args"]["stolen_ps"] == int(os.environ["WANT"]), sp
assert abs(sp[0]["dur"] - 450 * 0.05) < 1e-9, sp
print("trace ok")
PY

# --- iWarp: RTS messages' arguments and arrows ----------------------------
"$B/apps/iwarp/rts_pingpong" --mce-nodes=64 --runs=1 --sizes=32 --dist=1 \
    --mce-trace="$TMP/r.json" > "$TMP/o" 2>&1
expect_eq "rts_pingpong trace status" $? 0
check "iWarp RTS arguments and flows" "$TMP/r.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
snd = [e for e in ev if e.get("name") == "iwarp_rts_send"]
rcv = [e for e in ev if e.get("name") == "iwarp_rts_recv"]
assert snd and rcv and all("bytes" in e["args"] and "peer" in e["args"] and "type" in e["args"] for e in snd + rcv), (snd[:1], rcv[:1])
s = sorted(e["id"] for e in ev if e.get("ph") == "s")
f = sorted(e["id"] for e in ev if e.get("ph") == "f")
assert s and s == f and len(s) == len(snd), (s, f)
print("trace ok")
PY

# --- filters ----------------------------------------------------------------
"$B/tests/progs/vx_routes" --mce-nodes=4 --mce-trace="$TMP/fp.json" \
    --mce-trace-events=proto --mce-trace-nodes=1-2 > "$TMP/o" 2>&1
expect_eq "filtered trace status" $? 0
check "--mce-trace-events=proto --mce-trace-nodes=1-2" "$TMP/fp.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = [e for e in d["traceEvents"] if e.get("ph") != "M"]
assert ev and all(e["pid"] == 1 and e["tid"] in (1, 2) for e in ev), ev[:3]
assert d["otherData"]["events"] == "proto," and d["otherData"]["trace_nodes"] == "1-2", d["otherData"]
print("trace ok")
PY
"$B/apps/ring" --mce-nodes=2 --mce-trace="$TMP/x.json" --mce-trace-events=calls,bogus > "$TMP/o" 2>&1
expect_eq "bad event class status" $? 2
expect_grep "bad event class message" "option --mce-trace-events" "$TMP/o"
"$B/apps/ring" --mce-nodes=2 --mce-trace="$TMP/x.json" --mce-trace-nodes=3-1 > "$TMP/o" 2>&1
expect_eq "bad node range status" $? 2

# --- a run that ends in an error leaves its events so far ------------------
"$B/tests/progs/vx_misuse" nopost --mce-nodes=2 --mce-trace="$TMP/e.json" > "$TMP/o" 2>&1
expect_eq "failing run status" $? 1
expect_grep "partial trace reported" "partial trace" "$TMP/o"
check "partial trace after an error" "$TMP/e.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["otherData"]["partial"] is True
assert any(e.get("name") == "send" and e["tid"] == 0 for e in d["traceEvents"])
print("trace ok")
PY

# --- a full device: status 1 and a message ----------------------------------
if [ -w /dev/full ]; then
    ln -s /dev/full "$TMP/full.json"
    "$B/apps/ring" --mce-nodes=2 --mce-trace="$TMP/full.json" > "$TMP/o" 2>&1
    expect_eq "full device status" $? 1
    expect_grep "full device message" "cannot write trace" "$TMP/o"
fi

# --- identical on 1, 2 and 4 ranks (calls, protocol and network events) ----
same() { # A B: the same events, whatever their order in the file
    python3 -c "
import json,sys
k=lambda e: json.dumps(e, sort_keys=True)
a,b=[sorted(map(k,json.load(open(f))['traceEvents'])) for f in sys.argv[1:3]]
sys.exit(0 if a==b else 1)" "$1" "$2"
}
for cfg in "nx tests/progs/nx_stats --mce-nodes=4 --mce-set=nx.irq=1" \
    "paragon apps/complete_exchange --mce-nodes=16 --mce-machine=paragon --mce-set=paragon.width=4 --sizes=9000" \
    "ncube tests/progs/vx_routes --mce-nodes=4"; do
    set -- $cfg
    what=$1 prog=$2; shift 2
    run 0 "$B/$prog" "$@" --mce-trace="$TMP/r0.json" > "$TMP/o" 2>&1
    for np in 1 2 4; do
        run $np "$B/$prog" "$@" --mce-trace="$TMP/r$np.json" > "$TMP/o" 2>&1
        same "$TMP/r0.json" "$TMP/r$np.json" && pass "$what trace on $np ranks = one process" ||
            fail "$what trace differs on $np ranks"
    done
done
finish
