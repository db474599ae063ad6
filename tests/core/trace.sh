#!/bin/sh
# --mce-trace writes Chrome trace-event JSON: one named track per node,
# a send and a receive slice per message with matching flow ids, virtual
# timestamps that agree with the ideal formula; identical for 1 and 2 ranks.
# The machines inside: NX calls with their arguments, one slice per crecv
# and a flow per user message; the iPSC/860's and the Paragon's FORCED
# discards at the forced protocol's delivery time, the NCUBE's
# three-way handshake, its interrupt handlers, its channels and buffer
# pool waits (also on the node's protocol track), Vertex
# broadcast arrows, a Paragon link shared by two worms, an iWarp spool
# stealing cycles, iWarp links (shared, stalled), PCTs and their queues,
# spools, the SRU
# bus, ring hops, the RTS token and deposits; provenance; the event and
# node filters; a partial trace after an error; write errors; identical
# on 1, 2, 4 ranks.
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
same() { # A B: the same events, whatever their order in the file
    python3 -c "
import json,sys
k=lambda e: json.dumps(e, sort_keys=True)
a,b=[sorted(map(k,json.load(open(f))['traceEvents'])) for f in sys.argv[1:3]]
sys.exit(0 if a==b else 1)" "$1" "$2"
}
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
expect_grep "discard also in the log" "FORCED message of type" "$TMP/o"
# forced_check NAME FILE LATENCY_US: node 0's 5-byte csend of type
# FORCE_TYPE | 501 finds no receive posted on node 1: one discard on node
# 1's protocol track, LATENCY_US after the csend began (the forced
# protocol's delivery, USER-GUIDE 21.1 and 22.1), with its source, type and
# size; with nx.irq, at the end of node 1's message-arrival interrupt
forced_check() {
    LAT=$3 check "$1" "$2" <<'PY'
import json, os, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
ft = 0x40000000 | 501
dis = [e for e in ev if e.get("cat") == "discard"]
assert len(dis) == 1 and dis[0]["pid"] == 1 and dis[0]["tid"] == 1, dis
d = dis[0]
assert d["name"] == "FORCED message discarded" and d["dur"] == 0, d
assert d["args"] == {"src": 0, "type": ft, "bytes": 5}, d
cs = [e for e in ev if e.get("ph") == "X" and e["pid"] == 0 and e["tid"] == 0
      and e["name"] == "csend" and e.get("args", {}).get("type") == ft]
assert len(cs) == 1, cs
assert abs(d["ts"] - cs[0]["ts"] - float(os.environ["LAT"])) < 1e-6, (d, cs, os.environ["LAT"])
irq = [e for e in ev if e.get("cat") == "interrupt" and e["tid"] == 1]
assert not irq or any(abs(e["ts"] + e["dur"] - d["ts"]) < 1e-6 for e in irq), irq
print("trace ok", d["ts"] - cs[0]["ts"])
PY
}
# iPSC/860: b_s + a m, b_s = 75 us and a = 0.36 us a byte (Seidel and
# Davis 1992, Table I)
lat=$(awk 'BEGIN { printf "%.6f", 75 + 0.36 * 5 }')
forced_check "iPSC/860 FORCED discard at b_s + a m" "$TMP/f.json" "$lat"
"$B/tests/progs/nx_api" --mce-nodes=4 --mce-set=nx.irq=1 --mce-trace="$TMP/fi.json" > "$TMP/o" 2>&1
expect_eq "nx_api with interrupts trace status" $? 0
forced_check "iPSC/860 FORCED discard with interrupts on" "$TMP/fi.json" "$lat"
# Paragon: 11.2 us + 0.022 m (USER-GUIDE 22.1's table: 11.2 us derived from
# Bokhari and Nicol 1996's barrier, 0.022 us a byte their Table 1)
"$B/tests/progs/nx_api" --mce-nodes=4 --mce-machine=paragon \
    --mce-set=paragon.width=2 --mce-trace="$TMP/fp.json" > "$TMP/o" 2>&1
expect_eq "nx_api on the Paragon trace status" $? 0
lat=$(awk 'BEGIN { printf "%.6f", 11.2 + 0.022 * 5 }')
forced_check "Paragon FORCED discard at 11.2 us + 0.022 m" "$TMP/fp.json" "$lat"

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

# --- NCUBE: each node's DMA channels and buffer pool (node resources) -----
# A channel's wire carries lengths, acknowledgements and data one after
# another; a data transfer grows by 1.29 us a byte (Mudge, Buzzard and
# Abdel-Rahman 1987, Table 1: extended Vertex's incremental cost, the DMA
# alone).  vx_routes's burst of 12 x 4 KB into node 0: a pool of "about
# 27 K-bytes" (section 2) holds six of them, so node 1's seventh length
# request waits in node 0's pool -- holding the channel back -- until
# node 0's first nread of the burst frees a buffer.
per_byte=1.29 fit=$(awk 'BEGIN { print int(27648 / 4096) }')
PB=$per_byte FIT=$fit check "NCUBE channel and buffer pool tracks" "$TMP/v.json" <<'PY'
import json, os, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name" and e["pid"] == 3}
res = [e for e in ev if e.get("ph") == "X" and e["pid"] == 3]
assert res and all(e["tid"] in names and e["dur"] >= 0 and e["cat"] == "net" for e in res), res[:2]
# node N's channel D goes to node N ^ 2^D; tid = node x 64 + slot
for tid, n in names.items():
    node = tid // 64
    assert n == "node %d channel %d (to node %d)" % (node, tid % 64, node ^ (1 << (tid % 64))) \
        or n == "node %d buffer pool" % node, (tid, n)
chan = {}
for e in res:
    if "channel" in names[e["tid"]]:
        chan.setdefault(e["tid"], []).append(e)
assert {e["name"] for l in chan.values() for e in l} == {"length request", "acknowledgement", "data"}, chan
for l in chan.values():   # one wire: no two transfers at once
    l.sort(key=lambda e: e["ts"])
    assert all(b["ts"] >= a["ts"] + a["dur"] - 1e-9 for a, b in zip(l, l[1:])), l
data = {e["args"]["bytes"]: e["dur"] for l in chan.values() for e in l if e["name"] == "data"}
pb = float(os.environ["PB"])
assert len(data) >= 3 and all(abs((data[b] - data[300]) - pb * (b - 300)) < 1e-6 for b in data), data
# the burst's seventh message waits in node 0's pool
pool = [e for e in res if names[e["tid"]] == "node 0 buffer pool"]
assert len(pool) == 1 and pool[0]["name"] == "length request of node 1 waits", pool
w = pool[0]
assert w["args"] == {"bytes": 4096, "peer": 1, "channel_held": 0}, w
burst = [e for e in chan[64] if e["name"] == "data" and e["args"]["bytes"] == 4096]
assert sum(1 for e in burst if e["ts"] < w["ts"]) == int(os.environ["FIT"]), burst
reads = sorted((e for e in ev if e.get("ph") == "X" and e["pid"] == 0 and e["tid"] == 0
                and e["name"] == "nread" and e["args"]["type"] == 800), key=lambda e: e["ts"])
assert abs(w["ts"] + w["dur"] - (reads[0]["ts"] + reads[0]["dur"])) < 1e-6, (w, reads[0])
print("trace ok", len(chan), "channels", len(res), "slices")
PY

# The same wait on node 0's protocol track (its acknowledgement to node 1
# waits with it), at the model's times: from the end of node 0's
# interrupt for node 1's 4 KB length request -- vx.len_interrupt of the
# machine file (read here) long, starting once the request is in and
# the previous handler has ended -- to the grant at node 0's first
# nread's end
li=$(awk -F'[= ]+' '/^vx.len_interrupt/ { print $2 }' "$top_srcdir/share/machines/ncube.conf")
LI=$li check "NCUBE buffer pool wait on the node's protocol track" "$TMP/v.json" <<'PY'
import json, os, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name" and e["pid"] == 3}
res = [e for e in ev if e.get("ph") == "X" and e["pid"] == 3 and names[e["tid"]] == "node 0 buffer pool"]
pw = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "buffer pool"]
assert len(pw) == 1 and pw[0]["pid"] == 1 and pw[0]["tid"] == 0, pw
w = pw[0]
assert w["name"] == "length request of node 1 waits" and w["args"] == {"bytes": 4096, "peer": 1, "channel_held": 0}, w
assert (w["ts"], w["dur"], w["args"]) == (res[0]["ts"], res[0]["dur"], res[0]["args"]), (w, res)
irq = [e for e in ev if e.get("cat") == "interrupt" and e["pid"] == 1 and e["tid"] == 0
       and e["name"] == "length request interrupt" and abs(e["ts"] + e["dur"] - w["ts"]) < 1e-9]
assert len(irq) == 1 and abs(irq[0]["dur"] - float(os.environ["LI"])) < 1e-9 and irq[0]["args"] == {"channel": 0}, irq
req = [e for e in ev if e.get("cat") == "handshake" and e["tid"] == 1 and e["name"] == "length request"
       and e["args"] == {"peer": 0, "bytes": 4096} and e["ts"] + e["dur"] <= irq[0]["ts"] + 1e-9]
assert req, (w, irq)
r = max(req, key=lambda e: e["ts"])
# the handler starts at the request's arrival, or after the handler
# running then on node 0
before = [e for e in ev if e.get("cat") == "interrupt" and e["pid"] == 1 and e["tid"] == 0
          and e["ts"] < irq[0]["ts"] and e["ts"] + e["dur"] > r["ts"] + r["dur"] + 1e-9]
start = max([r["ts"] + r["dur"]] + [e["ts"] + e["dur"] for e in before])
assert abs(irq[0]["ts"] - start) < 1e-9, (irq, r, before)
reads = sorted((e for e in ev if e.get("ph") == "X" and e["pid"] == 0 and e["tid"] == 0
                and e["name"] == "nread" and e["args"]["type"] == 800), key=lambda e: e["ts"])
assert abs(w["ts"] + w["dur"] - (reads[0]["ts"] + reads[0]["dur"])) < 1e-6, (w, reads[0])
# no two handlers of a node at once
for n in range(4):
    h = sorted((e for e in ev if e.get("cat") == "interrupt" and e["tid"] == n), key=lambda e: e["ts"])
    assert all(b["ts"] >= a["ts"] + a["dur"] - 1e-9 for a, b in zip(h, h[1:])), n
print("trace ok", w["ts"], w["dur"], len(before), "handler(s) before")
PY
"$B/tests/progs/vx_routes" --mce-nodes=4 --mce-trace-events=proto --mce-trace="$TMP/vp.json" > "$TMP/o" 2>&1
expect_eq "vx_routes proto-only trace status" $? 0
check "NCUBE buffer pool wait kept by --mce-trace-events=proto" "$TMP/vp.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
pw = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "buffer pool"]
assert len(pw) == 1 and pw[0]["pid"] == 1 and not [e for e in ev if e.get("pid") == 3 and e.get("ph") == "X"], pw
print("trace ok")
PY

# --- Vertex broadcast: an arrow from the nwrite to 0xffff to every nread ---
check "Vertex broadcast arrows" "$TMP/v.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
calls = [e for e in ev if e.get("ph") == "X" and e["pid"] == 0]
s = [e for e in ev if e.get("ph") == "s" and ">" in e["id"]]
f = {e["id"]: e for e in ev if e.get("ph") == "f" and ">" in e["id"]}
# vx_routes: node 3 broadcasts 1000 bytes of type 500 to nodes 0, 1, 2
assert sorted(int(e["id"].split(">")[1]) for e in s) == [0, 1, 2], s
bc = [c for c in calls if c["tid"] == 3 and c["name"] == "nwrite" and c["args"]["peer"] == 0xffff]
assert len(bc) == 1 and all(e["tid"] == 3 and bc[0]["ts"] <= e["ts"] <= bc[0]["ts"] + bc[0]["dur"]
                            for e in s), (bc, s)
for e in s:
    end = f[e["id"]]
    node = int(e["id"].split(">")[1])
    assert end["tid"] == node and end["ts"] > e["ts"], end
    r = [c for c in calls if c["tid"] == node and c["name"] == "nread"
         and abs(c["ts"] + c["dur"] - end["ts"]) < 1e-9]
    assert len(r) == 1 and r[0]["args"] == {"bytes": 1000, "peer": 3, "type": 500}, r
print("trace ok")
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

# --- iWarp: links, PCTs, spools, the SRU bus, the ring, the RTS token -----
# wellformed FILE: every event names its phase, process and track; slices
# have a name, a time and a duration >= 0; every resource track is named
# (the checks below then run on the same file)
wellformed() {
    check "$1: events well-formed" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
named = {(e["pid"], e["tid"]) for e in ev if e.get("name") == "thread_name"}
for e in ev:
    assert e["ph"] in "MXBEisf" and e["pid"] in (0, 1, 2, 3), e
    if e["ph"] == "X":
        assert e["name"] and e["ts"] >= 0 and e["dur"] >= 0 and "tid" in e, e
        assert e["pid"] < 2 or (e["pid"], e["tid"]) in named, e
print("trace ok")
PY
}
# Two connections share the link (1,0) -> (2,0) (backpressure --mode=share,
# 64 words each): that link carries both for 2 x 64 words at its 39.96
# MB/s (40 MB/s, "really 39.96": the scheduler skips a word now and then;
# Warfel 1996, 3.1.2 and 3.1.5.3), each connection's other link half of
# it; the PCTs of cell (1,0) are configured from the program's start to
# the end of the run
"$B/apps/iwarp/backpressure" --mce-nodes=64 --mode=share --words=64 \
    --mce-summary --mce-trace="$TMP/ib.json" > "$TMP/o" 2>&1
expect_eq "backpressure share trace status" $? 0
wellformed "iWarp share" "$TMP/ib.json"
shared=$(awk 'BEGIN { printf "%.6f", 2 * 64 * 4 / 39.96 }')
permille=$(awk 'BEGIN { print int(1000 * 39.96 / 40) }')
end=$(field vtime_max_ps "$TMP/o")
SHARED=$shared PERMILLE=$permille END=$end check "iWarp link shared by two connections, PCTs" "$TMP/ib.json" <<'PY'
import json, os, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name" and e["pid"] == 2}
net = [dict(e, track=names[e["tid"]]) for e in ev if e.get("ph") == "X" and e["pid"] == 2]
def on(track):
    return [e for e in net if e["track"] == track]
sh = on("link (1,0) X+")
assert len(sh) == 1 and sh[0]["name"] == "shared by 2", sh
a = sh[0]["args"]
assert a["flows"] == 2 and a["moving"] == 2 and a["load_permille"] == int(os.environ["PERMILLE"]), a
want = float(os.environ["SHARED"])
assert abs(sh[0]["dur"] - want) <= want * 0.005 / 39.96, (sh[0], want)  # the paper's 4 digits
for t in ("link (0,0) X+", "link (2,0) X+"):
    one = on(t)
    assert len(one) == 1 and one[0]["name"] == "connection" and one[0]["args"]["flows"] == 1, one
    assert one[0]["args"]["load_permille"] == a["load_permille"] // 2, one
pct = {e["track"]: e for e in net if e["track"].startswith("PCT ")}
assert pct["PCT 2 of cell (1,0)"]["name"] == "X- -> X+", pct
assert pct["PCT 5 of cell (1,0)"]["name"] == "CPU -> X+", pct
end = int(os.environ["END"]) / 1e6
assert all(abs(e["ts"] + e["dur"] - end) < 1e-6 for e in pct.values()), (end, pct)
print("trace ok", len(names), "tracks")
PY
# Back-pressure: (0,0) writes 64 words to (3,0), whose reader starts only
# at clock 3000: the path's four 8-word PCT queues (Warfel 1996, 3.1.2)
# hold all the words but the source PCT's, 24 words = 2.4 us of a link,
# then every link of the path stalls until the reader's first read
"$B/apps/iwarp/backpressure" --mce-nodes=64 --mode=stall --words=64 \
    --read-after=3000 --mce-trace="$TMP/is.json" > "$TMP/o" 2>&1
expect_eq "backpressure stall trace status" $? 0
wellformed "iWarp stall" "$TMP/is.json"
fill_us=$(awk 'BEGIN { printf "%.6f", (8 * 4 - 8) * 4 / 40 }')
FILL=$fill_us check "iWarp links stalled by back-pressure" "$TMP/is.json" <<'PY'
import json, os, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name" and e["pid"] == 2}
for t in ("link (0,0) X+", "link (1,0) X+", "link (2,0) X+"):
    sl = sorted((e for e in ev if e.get("ph") == "X" and e["pid"] == 2 and names[e["tid"]] == t),
                key=lambda e: e["ts"])
    assert [e["name"] for e in sl] == ["connection", "stalled (path full)", "connection"], sl
    assert abs(sl[0]["dur"] - float(os.environ["FILL"])) < 1e-6, sl[0]
    assert sl[1]["args"]["moving"] == 0 and sl[1]["args"]["load_permille"] == 0, sl[1]
    assert all(abs(a["ts"] + a["dur"] - b["ts"]) < 1e-9 for a, b in zip(sl, sl[1:])), sl
print("trace ok")
PY
# The PCTs' queues (nested in their configuration slices): while the
# path is full, each of the path's 8-word PCT queues (Warfel 1996, 3.1.2)
# beyond the source is "full" with its 8 words, from when the links stall
# until they move again; the source PCT holds 8 more and the writer's
# 33rd word waits for room (32 = 8 x 4 PCTs, the path's capacity)
PCTW=8 PATHW=$(awk 'BEGIN { print 8 * 4 }') check "iWarp PCT queues: full while back-pressure holds" "$TMP/is.json" <<'PY'
import json, os, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name" and e["pid"] == 2}
net = [dict(e, track=names[e["tid"]]) for e in ev if e.get("ph") == "X" and e["pid"] == 2]
w = int(os.environ["PCTW"])
stall = [e for e in net if e["track"] == "link (0,0) X+" and e["name"] == "stalled (path full)"]
assert len(stall) == 1, stall
st = stall[0]
mid = st["ts"] + st["dur"] / 2
held = 0
for cell in ("(0,0)", "(1,0)", "(2,0)", "(3,0)"):
    tr = [e for e in net if e["track"] == "PCT 3 of cell " + cell]
    cfg = [e for e in tr if "->" in e["name"]]
    q = [e for e in tr if e["name"] in ("queued", "full")]
    assert len(cfg) == 1 and q, (cell, tr[:3])
    # from the configuration on (a queue empties when the reader's take
    # reaches the source: up to one path latency after the run's end),
    # one state at a time
    assert all(cfg[0]["ts"] <= e["ts"] for e in q), cell
    q.sort(key=lambda e: e["ts"])
    assert all(b["ts"] >= a["ts"] + a["dur"] - 1e-9 for a, b in zip(q, q[1:])), cell
    assert all(0 < e["args"]["words"] <= w and (e["name"] == "full") == (e["args"]["words"] == w) for e in q), cell
    now = [e for e in q if e["ts"] <= mid < e["ts"] + e["dur"]]
    assert len(now) == 1 and now[0]["name"] == "full", (cell, now)
    held += now[0]["args"]["words"]
    if cell == "(0,0)":
        assert now[0]["args"]["writer_waiting_words"] == 1, now
    else:
        # exactly the links' stall
        assert abs(now[0]["ts"] - st["ts"]) < 1e-9 and abs(now[0]["dur"] - st["dur"]) < 1e-9, (now, st)
        assert now[0]["args"]["writer_waiting_words"] == 0, now
assert held == int(os.environ["PATHW"]), held
print("trace ok", held, "words held")
PY
# Never read: the run ends in the deadlock report, the links stalled from
# the 24th word until the run stopped, the same on 1 and 2 ranks
for np in 0 2; do
    run $np "$B/apps/iwarp/backpressure" --mce-nodes=64 --mode=stall --words=64 \
        --mce-trace="$TMP/idl$np.json" > "$TMP/o" 2>&1
    expect_eq "deadlocked backpressure status np=$np" $? 3
done
FILL=$fill_us check "iWarp links stalled until a deadlock stops the run" "$TMP/idl0.json" <<'PY'
import json, os, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name" and e["pid"] == 2}
st = [e for e in ev if e.get("ph") == "X" and e["pid"] == 2 and e["name"] == "stalled (path full)"]
assert sorted(names[e["tid"]] for e in st) == ["link (0,0) X+", "link (1,0) X+", "link (2,0) X+"], st
# node 0 blocks in its 33rd write once the path's 32 words are in
blocked = max(e["ts"] for e in ev if e.get("ph") == "X" and e["pid"] == 0 and e["tid"] == 0)
assert all(e["dur"] > 0 and e["ts"] + e["dur"] >= blocked for e in st), (st, blocked)
print("trace ok")
PY
same "$TMP/idl0.json" "$TMP/idl2.json" && pass "deadlocked iWarp trace on 2 ranks = one process" ||
    fail "deadlocked iWarp trace differs on 2 ranks"
# Spools (the deposit_pingpong --mode=spool run above): node 0's out
# spool and node 1's in spool of 256 words, at the link's word rate
# (40 MB/s), on their nodes' resource tracks
spool_us=$(awk 'BEGIN { printf "%.6f", 256 * 4 / 40 }')
wellformed "iWarp spools" "$TMP/i.json"
SPOOL=$spool_us check "iWarp spool tracks" "$TMP/i.json" <<'PY'
import json, os, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name" and e["pid"] == 3}
sp = {names[e["tid"]] + ": " + e["name"]: e for e in ev if e.get("ph") == "X" and e["pid"] == 3}
o, i = sp["node 0 spool 0: spool out"], sp["node 1 spool 0: spool in"]
assert abs(o["dur"] - float(os.environ["SPOOL"])) < 1e-6 and o["args"]["words"] == 256, o
assert i["ts"] == o["ts"] and i["dur"] >= o["dur"] and i["args"]["words"] == 256, (o, i)
stolen = [e for e in ev if e.get("cat") == "spool"]
assert o["ts"] <= stolen[0]["ts"] < o["ts"] + o["dur"], (o, stolen)
print("trace ok")
PY
# The SRU bus: a message is 36 bits at 0.8 us a bit (Feldmann, Gross,
# O'Hallaron and Stricker, section 3.1); two different words on one bit
# boundary collide (the bus carries their OR); a ring message's express
# hops take 0.2 us each (section 3.2), five for --hops=5
"$B/apps/iwarp/subset_barrier" --mce-nodes=64 --mode=sru-test --mce-trace="$TMP/isr.json" > "$TMP/o" 2>&1
expect_eq "sru-test trace status" $? 0
wellformed "SRU bus" "$TMP/isr.json"
sru_us=$(awk 'BEGIN { printf "%.6f", 36 * 0.8 }')
SRU=$sru_us check "iWarp SRU bus words and collision" "$TMP/isr.json" <<'PY'
import json, os, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name" and e["pid"] == 2}
bus = sorted((e for e in ev if e.get("ph") == "X" and e["pid"] == 2 and names[e["tid"]] == "SRU bus"),
             key=lambda e: e["ts"])
assert bus and all(abs(e["dur"] - float(os.environ["SRU"])) < 1e-6 for e in bus), bus
assert all(b["ts"] >= a["ts"] + a["dur"] - 1e-9 for a, b in zip(bus, bus[1:])), bus
col = [e for e in bus if e["name"] == "collision"]
assert len(col) == 1 and col[0]["args"]["senders"] == 2, col
assert all(e["args"]["senders"] == 1 for e in bus if e["name"] == "word"), bus
print("trace ok", len(bus), "bus messages")
PY
"$B/apps/iwarp/subset_barrier" --mce-nodes=64 --mode=steps --hops=5 --words=3 \
    --mce-trace="$TMP/iring.json" > "$TMP/o" 2>&1
expect_eq "ring steps trace status" $? 0
wellformed "ring hops" "$TMP/iring.json"
check "iWarp ring hops, 0.2 us each" "$TMP/iring.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name" and e["pid"] == 2}
hops = sorted((e for e in ev if e.get("ph") == "X" and e["pid"] == 2 and names[e["tid"]].startswith("ring link from node ")),
              key=lambda e: e["ts"])
assert len(hops) == 5 and all(abs(e["dur"] - 0.2) < 1e-9 for e in hops), hops
# hop by hop along the ring: each starts where the previous one ended
assert all(names[b["tid"]] == "ring link from node %d" % a["args"]["dst"] for a, b in zip(hops, hops[1:])), hops
print("trace ok")
PY
# RTS: one token on the ring, held by one sender at a time (the
# rts_pingpong run above)
wellformed "RTS token" "$TMP/r.json"
check "iWarp RTS token" "$TMP/r.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name" and e["pid"] == 2}
tok = sorted((e for e in ev if e.get("ph") == "X" and e["pid"] == 2 and names[e["tid"]] == "RTS token"),
             key=lambda e: e["ts"])
assert len(tok) >= 2 and all(e["name"] == "held by node %d" % e["args"]["src"] for e in tok), tok
assert all(b["ts"] >= a["ts"] + a["dur"] - 1e-9 for a, b in zip(tok, tok[1:])), tok
print("trace ok", len(tok))
PY
# Deposits hold every link of their route (wormhole) and the receiver's
# spool
"$B/apps/iwarp/deposit_pingpong" --mce-nodes=64 --mode=single --sizes=4,64 \
    --dist=2 --runs=1 --mce-trace="$TMP/id.json" > "$TMP/o" 2>&1
expect_eq "deposit trace status" $? 0
wellformed "deposits" "$TMP/id.json"
check "iWarp deposits on links and receive spools" "$TMP/id.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name" and e["pid"] == 2}
dep = [dict(e, track=names[e["tid"]]) for e in ev if e.get("ph") == "X" and e["pid"] == 2 and e["name"] == "deposit"]
# (0,0) <-> (2,0): both links of the route, each way
for src, dst, links in ((0, 2, ("link (0,0) X+", "link (1,0) X+")), (2, 0, ("link (2,0) X-", "link (1,0) X-"))):
    for b in (4, 64):
        m = [e for e in dep if e["args"] == {"src": src, "dst": dst, "bytes": b}]
        assert sorted(e["track"] for e in m if e["track"].startswith("link"))[0] in links, m
        assert {e["track"] for e in m if e["track"].startswith("link")} == set(links), m
        sp = [e for e in m if e["track"] == "node %d deposit receive spool" % dst]
        assert len(sp) == (b > 4), m  # one word travels behind the header
print("trace ok", len(dep))
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
for cfg in "nx tests/progs/nx_stats --mce-nodes=4 --mce-set=nx.irq=1" \
    "paragon apps/complete_exchange --mce-nodes=16 --mce-machine=paragon --mce-set=paragon.width=4 --sizes=9000" \
    "ncube tests/progs/vx_routes --mce-nodes=4" \
    "iwarp-links apps/iwarp/backpressure --mce-nodes=64 --mode=share --words=64" \
    "iwarp-spools apps/iwarp/deposit_pingpong --mce-nodes=64 --mode=spool" \
    "iwarp-sru apps/iwarp/subset_barrier --mce-nodes=64 --mode=steps --hops=5 --words=3"; do
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
