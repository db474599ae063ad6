#!/usr/bin/env python3
"""Write the seed corpus of tests/fuzz/fuzz_calls.c (tests/fuzz/corpus/calls).

Each seed is a small program in the harness's encoding: byte 0 the machine
(0 ipsc860, 1 paragon, 2 ncube, 3 ncube2), byte 1 the node count, then
8-byte records [node, call, a, b, c, d, e, f].  The names below spell the
harness's argument decoders (fuzz_calls.c, dec_*).  Run from anywhere:
    python3 tests/fuzz/calls_seeds.py
"""
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "calls")

# NX calls (code % 30)
(CSEND, ISEND, CRECV, IRECV, CRECVX, IRECVX, MSGWAIT, MSGDONE, MSGCANCEL,
 MSGIGNORE, MSGMERGE, IPROBE, CPROBEX, HRECV, HSEND, MASKTRAP, CSENDRECV,
 ISENDRECV, GSYNC, GOP, GOP2, GOPF, GCOL, GCOLX, GSENDX, SETPTYPE, INFO,
 POLL, CPROBE, WAITALL) = range(30)
# Vertex calls (code % 16; 12 to 15 are the composite ones, vx_composite)
(NWRITE, NREAD, NTEST, XSEND, RCVREQ, BCAST, CHANMODE, FLAGWAIT, VINFO,
 FLAGPOLL, NC2, VDRAIN, XCHG, XBCAST, BURST, DRAIN) = range(16)


def plain(k):
    """The plain (run-ending) form of NX call k: code & 0xc0 == 0xc0."""
    return 0xc0 + (k - 0xc0) % 30


def nodes_byte(machine, n):
    if machine == 1:
        return n - 2          # paragon: 2 + b % 3
    return {2: 0, 4: 1}[n]    # others: 2 << (b & 1)


def node(v, n):
    """dec_node / dec_vnode argument for node v (-1 .. n+1) on n nodes."""
    return v + 1


def buf(off32):
    """dec_buf: 0 is NULL, else arena + (v & 0x7f) * 32."""
    return off32


def count(nbytes):
    """dec_scount / dec_rcount: v * 16 bytes for v < 0xe0."""
    assert nbytes % 16 == 0 and nbytes // 16 < 0xe0
    return nbytes // 16


def rec(who, code, *args):
    args = list(args) + [0] * (6 - len(args))
    return bytes([who, code] + args)


def seed(name, machine, n, *recs, settings=None):
    """settings: the settings record, [key, value] x 3, flags, seed
    (fuzz_calls.c, add_settings: key numbers are those of
    fuzz_calls_replay --keys MACHINE; the value byte picks one in the key's
    range: v >> 5 = 0 min, 1 max, 2 file >> (1 + v % 8), 3 file << (1 +
    v % 8), 4 v % 32 units, 5 nudge, 6 file * 1.5, 7 any)."""
    head = bytes([machine | (0x80 if settings else 0), nodes_byte(machine, n)])
    if settings:
        assert len(settings) == 8
        head += bytes(settings)
    data = head + b"".join(recs)
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


os.makedirs(OUT, exist_ok=True)
IPSC, PARAGON, NCUBE, NCUBE2 = range(4)

# ---- NX -----------------------------------------------------------------
seed("nx_pingpong", IPSC, 2,
     rec(0, CSEND, 1, buf(1), count(64), node(1, 2), 0),
     rec(1, CRECV, 1, buf(2), count(64)),
     rec(1, CSEND, 2, buf(2), count(64), node(0, 2), 0),
     rec(0, CRECV, 2, buf(3), count(128)))
seed("nx_async", IPSC, 4,
     rec(0, ISEND, 1, buf(1), count(32), node(1, 4), 0),
     rec(0, ISEND, 2, buf(2), count(48), node(2, 4), 0),
     rec(1, IRECV, 1, buf(4), count(32)),
     rec(2, IRECVX, 2, buf(4), count(64), node(0, 4), 0xd0, 1),
     rec(0, MSGMERGE, 0, 1),
     rec(0, MSGMERGE, 2, 0),
     rec(0, MSGWAIT, 3),
     rec(1, MSGDONE, 0, 3),
     rec(2, WAITALL),
     rec(1, WAITALL),
     rec(3, ISEND, 3, buf(1), count(16), node(3, 4), 0),
     rec(3, MSGCANCEL, 0),
     rec(3, MSGCANCEL, 0))
seed("nx_gops", IPSC, 4,
     *[rec(w, GOP, k, buf(1), count(128) // 1, buf(40)) for k in (0, 1, 2)
       for w in range(4)],
     *[rec(w, GSYNC) for w in range(4)],
     *[rec(w, GOPF, buf(1), count(32), buf(8)) for w in range(4)])
seed("nx_hostile", IPSC, 2,
     rec(0, CSEND, 1, buf(1), 0xe1, node(1, 2), 0),          # count -1
     rec(0, CSEND, 1, 0, count(16), node(1, 2), 0),          # NULL buffer
     rec(0, CSEND, 0xe9, buf(1), count(16), node(1, 2), 0),  # type LONG_MIN+1?
     rec(0, CSEND, 1, buf(1), count(16), 0xf2, 0),           # node LONG_MIN
     rec(0, CSEND, 1, buf(1), count(16), node(1, 2), 0xe0),  # ptype -1
     rec(1, GOP, 0, buf(1), 0xe0, buf(4)),                   # 2^61+1 doubles
     rec(0, GOP, 0, buf(1), 0xe1, buf(4)),                   # LONG_MAX
     rec(0, MSGWAIT, 0xe8), rec(0, MSGDONE, 0xf0),
     rec(0, SETPTYPE, 0xe0), rec(1, MASKTRAP, 0xf6),
     rec(1, IRECV, 0xe5, buf(1), 0xe6),
     rec(0, GCOL, buf(1), 0xe1, buf(8), count(256), 1),
     rec(0, GSENDX, 1, buf(1), count(16), 1, 0xf0),
     rec(1, INFO, 1))
seed("nx_plain_gop_overflow", IPSC, 2,
     rec(0, plain(GOP), 0, buf(1), 0xe0, buf(4)),
     rec(1, plain(GOP), 0, buf(1), 0xe0, buf(4)))
seed("nx_deadlock", IPSC, 2,
     rec(0, CRECV, 1, buf(1), count(64)),
     rec(1, CRECV, 1, buf(1), count(64)))
seed("nx_livelock", IPSC, 2,
     rec(0, POLL, 1, 0xff),
     rec(1, CRECV, 2, buf(1), count(16)))
seed("nx_handlers", PARAGON, 3,
     rec(1, HRECV, 1, buf(1), count(64), 1),
     rec(2, HRECV, 0xd0, buf(8), count(64), 1),
     rec(0, HSEND, 1, buf(1), count(64), node(1, 3), 0, 1),
     rec(0, HSEND, 2, buf(1), count(32), node(2, 3), 0, 1),
     rec(0, WAITALL), rec(1, WAITALL), rec(2, WAITALL),
     rec(1, MASKTRAP, 1), rec(1, MASKTRAP, 0))
seed("nx_collect", PARAGON, 3,
     *[rec(w, GCOL, buf(1), count(32 * (w + 1)), buf(16), count(1024), 1)
       for w in range(3)],
     *[rec(w, GCOLX, buf(1), buf(16), count(16), count(16), count(16), 1)
       for w in range(3)],
     *[rec(w, GSYNC) for w in range(3)])
seed("nx_sendrecv_probe", PARAGON, 4,
     rec(0, CSENDRECV, 1, buf(1), count(32), node(1, 4), 0, buf(8)),
     rec(1, CPROBEX, 1, node(0, 4), 0xd0, 1),
     rec(1, CRECVX, 1, buf(2), count(64), node(0, 4), 0xd0, 1),
     rec(1, CSEND, 1, buf(2), count(16), node(0, 4), 0),
     rec(2, ISENDRECV, 2, buf(1), count(16), node(3, 4), 0, buf(8)),
     rec(3, IPROBE, 2, node(2, 4), 1, 0xd0, 1),
     rec(3, CRECV, 2, buf(1), count(64)),
     rec(3, CSEND, 2, buf(1), count(16), node(2, 4), 0),
     rec(2, WAITALL))

# ---- Vertex ---------------------------------------------------------------
seed("vx_standard", NCUBE, 4,
     rec(0, NWRITE, buf(1), count(64), node(1, 4), 1, 0),
     rec(0, NWRITE, buf(1), count(64), node(3, 4), 1, 0),   # two hops
     rec(1, NREAD, buf(2), count(64), node(0, 4), 1, 3),
     rec(3, NTEST, node(-1, 4), 1, 7, 3),
     rec(3, VDRAIN),
     rec(2, NWRITE, buf(1), count(16), 0xf1, 2, 0),          # broadcast
     rec(0, VDRAIN), rec(1, VDRAIN), rec(3, VDRAIN),
     rec(2, VINFO, 0x0f))
seed("vx_extended", NCUBE, 2,
     rec(0, CHANMODE, node(1, 2), 1),
     rec(1, CHANMODE, node(0, 2), 1),
     rec(1, RCVREQ, buf(4), count(64), node(0, 2), 1, 1),
     rec(0, XSEND, buf(1), count(64), node(1, 2), 1, 2),
     rec(0, FLAGWAIT, 2),
     rec(1, FLAGPOLL, 1, 4),
     rec(0, BCAST, buf(1), count(32), 1, 2, 3),
     rec(1, RCVREQ, buf(8), count(32), node(0, 2), 2, 5),
     rec(1, FLAGWAIT, 5))
seed("vx_hostile", NCUBE, 4,
     rec(0, NWRITE, 0, count(16), node(1, 4), 1),            # NULL buffer
     rec(0, NWRITE, buf(1), 0xe1, node(1, 4), 1),            # length -1
     rec(0, NWRITE, buf(1), count(16), 0xf2, 1),             # INT_MIN node
     rec(0, NWRITE, buf(1), count(16), node(1, 4), 0xe4),    # type 0xffff?
     rec(1, NREAD, buf(1), count(16), node(9, 4), 0xe0, 0),  # NULL selectors
     rec(1, NTEST, 0xf3, 0xe5, 0, 3),
     rec(2, XSEND, buf(1), count(16), node(1, 4), 1, 0),     # NULL flag
     rec(2, XSEND, buf(1), count(16), node(1, 4), 1, 1),     # standard mode
     rec(3, RCVREQ, buf(1), 0xe3, node(0, 4), 1, 1),         # not neighbour
     rec(3, BCAST, buf(1), count(16), 0xe2, 1, 1),
     rec(3, CHANMODE, 0xf4, 0xe0),
     rec(3, FLAGWAIT, 0))
seed("nc2_global", NCUBE2, 4,
     *[rec(w, NC2, 0, w + 1) for w in range(4)],
     *[rec(w, NC2, 2, w + 1) for w in range(4)],
     *[rec(w, NC2, 4, buf(1), count(48)) for w in range(4)],
     rec(0, NC2, 5, 1), rec(1, NC2, 6, 1),
     rec(0, NWRITE, buf(1), count(32), node(3, 4), 1),
     rec(3, NREAD, buf(2), count(32), node(0, 4), 1, 3))
seed("nc2_extended_refused", NCUBE2, 2,
     rec(0, CHANMODE, node(1, 2), 1))


# ---- composite Vertex calls, machine constants ----------------------------
# xsize(v) = (v & 3) * 64 bytes; XCHG [dim, size, type, how, flag]: how bit
# 0 rcvreq (else send), bit 1 flagwait, bit 2 channel back to standard.
seed("vx_xchg", NCUBE, 2,
     rec(0, XCHG, 0, 1, 1, 2, 1),
     rec(1, XCHG, 0, 1, 1, 3, 1))
seed("vx_xbcast", NCUBE, 4,
     rec(1, XCHG, 0, 2, 0, 3, 1),
     rec(2, XCHG, 1, 2, 0, 3, 1),
     rec(0, XBCAST, 3, 2, 0, 2, 1))
# BURST [count-1, size/64, dest, type]; DRAIN [count-1, how, src, type,
# compute]: how bit 0 blocking, bit 3 compute (compute + 1) * 100 us first
seed("vx_burst", NCUBE, 2,
     rec(0, BURST, 15, 128, 1, 1),
     rec(1, DRAIN, 15, 1))
seed("vx_burst_bcast", NCUBE, 4,
     rec(0, BURST, 3, 64, 0xd0, 2),
     *[rec(w, DRAIN, 3, 1) for w in (1, 2, 3)])
# vx.pool_bytes (key 12) 27648 >> 2 = 6912 bytes: three 2 KiB messages;
# node 1 computes 25.6 ms first, so node 0's nwrite and its length
# requests wait for buffers, granted as node 1 reads.
seed("vx_small_pool", NCUBE, 2,
     rec(0, BURST, 7, 32, 1, 1),
     rec(1, DRAIN, 7, 1 | 8, 0, 0, 255),
     settings=[12, 0x41, 12, 0x41, 12, 0x41, 1, 0])
# The same through a relay with 4 KiB messages: node 1 holds a buffer
# for node 3 and node 3 one for node 1, each waiting for the other's (a
# store-and-forward deadlock of the buffer pools, reported as one).
seed("vx_pool_deadlock", NCUBE, 4,
     rec(0, BURST, 7, 64, 3, 1),
     rec(2, BURST, 3, 64, 1, 2),
     rec(3, DRAIN, 7, 1),
     rec(1, DRAIN, 3, 1),
     settings=[12, 0x41, 12, 0x41, 12, 0x41, 1, 0])
# nx.irq (key 0) on, nx.irq_period (key 3) 10 ms >> 4, --mce-seed=7
seed("nx_irq", IPSC, 2,
     rec(0, CSEND, 1, buf(1), count(64), node(1, 2), 0),
     rec(1, CRECV, 1, buf(2), count(64)),
     rec(1, CSEND, 2, buf(2), count(64), node(0, 2), 0),
     rec(0, CRECV, 2, buf(3), count(128)),
     settings=[0, 0x20, 3, 0x43, 0, 0x20, 2, 7])
