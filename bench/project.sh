#!/bin/sh
# Projection of a one-process run to P ranks of a cluster: a simulation
# of mcemu's window protocol, window by window, from the run's
# --mce-window-log (each window's node activations and messages).
#
#   bench/project.sh LOG W M MODEL P...
#     LOG    the run's --mce-window-log file
#     W      the run's wall time in one process, s (without the log)
#     M      the network model's share of W, s (--mce-verbose model_s)
#     MODEL  partitioned (each rank models its nodes' messages: ideal) or
#            replicated (every rank models every message: the others)
#     P      rank counts to project (capped at the node count)
#
# For each window and each rank r of P (block placement, as the engine's
# default):
#   work_r  = t_act x (activations of r's nodes in the window), with
#             t_act = (W - M) / (all activations): the measured cost of a
#             node activation, the same on every rank (no cache effects);
#   model_r = t_msg x (messages the model handles on r), t_msg = M / (all
#             messages): r's own senders' messages when partitioned, every
#             message when replicated;
#   comm_r  = a x (packed messages r sends + receives: one per pair of
#             ranks with traffic in the window; partitioned models only);
# and the window costs max_r (work_r + model_r + comm_r) plus its
# collective: c x ceil(log2 P) (one reduction or allgather), a second one
# for a replicated model's window with more than 8 messages (they no
# longer ride inline), and its descriptors' bytes (104 each) at B bytes/s
# through the allgather.  T(P) is the sum over the windows; the speedup is
# W / T(P).  c, a and B are assumptions (environment COLL_US, P2P_US,
# BW_GBS; defaults 2 us a collective stage, 3 us a message, 5 GB/s:
# typical of an InfiniBand cluster of the 2020s).  What the simulation
# leaves out: the nodes' work is what one process measured (no slower
# memory, no faster caches), collectives never overlap work, and no
# noise.
set -eu
[ $# -ge 5 ] || { echo "usage: $0 LOG W M partitioned|replicated P..." >&2; exit 2; }
log=$1 W=$2 M=$3 model=$4; shift 4
case $model in partitioned|replicated) ;; *) echo "$0: MODEL is partitioned or replicated" >&2; exit 2 ;; esac
awk -v W="$W" -v M="$M" -v part=$([ "$model" = partitioned ] && echo 1 || echo 0) \
    -v Ps="$*" -v c="${COLL_US:-2}" -v a="${P2P_US:-3}" -v bw="${BW_GBS:-5}" '
function lg(p,   k) { k = 0; while ((2 ^ k) < p) k++; return k }
function rank_of(n, P,   q, r, big) { # the engine'"'"'s block placement
    q = int(N / P); r = N % P; big = r * (q + 1)
    return n < big ? int(n / (q + 1)) : r + int((n - big) / q) }
# Pass 1: the totals that price an activation and a message.
FNR == NR { if ($1 != "w") next
    mode = ""
    for (i = 4; i <= NF; i++) {
        if ($i == "a" || $i == "m") { mode = $i; continue }
        if (mode == "a") { split($i, f, ":"); A += f[2] } else MSG++
    }
    nw++; next }
FNR == 1 { # pass 2 starts
    if (nw == 0 || A == 0) { print "no windows in the log" > "/dev/stderr"; bad = 1; exit 1 }
    sub(/.*nodes=/, ""); N = $1 + 0; np = split(Ps, PP, " ")
    # rank counts past the node count are capped, and each projected once
    m = 0
    for (k = 1; k <= np; k++) {
        p = PP[k] + 0 > N ? N : PP[k] + 0; dup = 0
        for (j = 1; j <= m; j++) if (Q[j] == p) dup = 1
        if (!dup) Q[++m] = p
    }
    np = m; for (k = 1; k <= np; k++) PP[k] = Q[k]
    tact = (W - M) / A; tmsg = MSG ? M / MSG : 0
    c *= 1e-6; a *= 1e-6; bw *= 1e9; next }
$1 != "w" { next }
{   for (k = 1; k <= np; k++) {
        P = PP[k]; split("", work); split("", mod); split("", pairs); split("", cnt)
        mode = ""; nm = 0
        for (i = 4; i <= NF; i++) {
            if ($i == "a" || $i == "m") { mode = $i; continue }
            split($i, f, ":")
            if (mode == "a") { work[rank_of(f[1], P)] += f[2] * tact; continue }
            nm++
            if (part) {
                rs = rank_of(f[1], P); rd = rank_of(f[2], P); mod[rs] += tmsg
                if (rs != rd && !((rs, rd) in pairs)) { pairs[rs, rd] = 1; cnt[rs]++; cnt[rd]++ }
            }
        }
        best = bw_ = bm = bp = 0
        for (r in work) seen[r] = 1
        for (r in mod) seen[r] = 1
        for (r in cnt) seen[r] = 1
        for (r in seen) {
            m_ = part ? mod[r] : nm * tmsg
            x = work[r] + m_ + a * cnt[r]
            if (x > best) { best = x; bw_ = work[r]; bm = m_; bp = a * cnt[r] }
        }
        split("", seen)
        if (best == 0 && !part) { best = bm = nm * tmsg }
        sync = P > 1 ? c * lg(P) : 0
        if (!part && P > 1) sync += (nm > 8 ? c * lg(P) : 0) + nm * 104 / bw
        T[k] += best + sync; tw[k] += bw_; tm[k] += bm; tp[k] += bp; ts[k] += sync
    }
}
END { if (bad) exit 1
    printf "%8s %10s %8s %9s %9s %9s %9s\n", "ranks", "T_s", "speedup", "work_s", "model_s", "p2p_s", "sync_s"
    for (k = 1; k <= np; k++)
        printf "%8d %10.4f %7.2fx %9.4f %9.4f %9.4f %9.4f\n", PP[k], T[k], W / T[k], tw[k], tm[k], tp[k], ts[k]
}' "$log" "$log"
