#!/bin/sh
# iWarp link sharing and back-pressure (Warfel 1996, sections 3.1.3 and
# 3.1.5; doc/design/iwarp-tcs.md sections 3.3-3.5, step 2 of its plan):
# apps/iwarp/backpressure against times computed here with awk from the
# constants of share/machines/iwarp.conf.
#   stall: a reader that never reads: the writer ends exactly C =
#          pct_words x 4 PCTs = 32 single-word writes at the times of the
#          capacity rule, the run ends in the deadlock report naming the
#          full PCT (status 3);
#   stall + --read-after=10000: every write and the reader's end at the
#          times of the same rule (the flow resumes one path latency after
#          the first read);
#   share: two connections on one link get half of the skipped link
#          (skip_period / (skip_period + 1)) each;
#   groups: the seed's 3 + 1 example on one link: 1/6, 1/6, 1/6, 1/2
#          of it, then 1/3 each; with pct_groups = 0 (idealised) 1/4 each;
#   dq:    two connections through a cell, one turning there, no shared
#          link: DQ congestion 2, half of an (unskipped) link each; with
#          dq_model = off (idealised) the full link;
#   the summary digest and output are the same in one process and on 1,
#   2 and 4 ranks.
. "$top_srcdir/tests/lib.sh"

bp=$B/apps/iwarp/backpressure
conf=$top_srcdir/share/machines/iwarp.conf
key() { awk -v k="iwarp.$1" '$1 == k { print $3 }' "$conf"; }
clk=$(awk '$1 == "iwarp.clock" { print $3 * 1000 }' "$conf") # ps (ns x 1000)
wt=$(key word_time)
go=$(key gate_op)
gi=$(key gate_in)
gout=$(key gate_out)
bsend=$(key block_send)
brecv=$(key block_recv)
bind=$(key gate_bind)
P=$(key pct_words)
skip=$(key skip_period)
hb=$(key hop_board)
hc=$(key hop_cross)
hw=$(key hop_wrap)
ht=$(key hop_turn)
[ "$clk" = 50000 ] && [ -n "$wt" ] && [ -n "$P" ] && [ -n "$skip" ] ||
    fail "constants read from $conf (clock $clk ps, word_time $wt, pct_words $P, skip_period $skip)"
consts="-v wt=$wt -v go=$go -v gi=$gi -v gout=$gout -v P=$P -v skip=$skip \
-v hb=$hb -v hc=$hc -v hw=$hw -v ht=$ht -v bsend=$bsend -v brecv=$brecv -v clk=$clk"
# H of a connection along X+ of row 0 from column a to column b (2-wide boards)
hfun='function H(a, b,   x, h) { h = 0; for (x = a; x != b; x = (x + 1) % 8)
    h += (x == 7) ? hw : (int(x / 2) == int(((x + 1) % 8) / 2) ? hb : hc); return h }'

# ---- stall: expected writer and reader times (clocks) ---------------------
# Capacity rule (s.3.5): word k may start into the first link once the
# reader has taken k - (C - pct_words) words, one path latency after its
# read; S_k = max(S_{k-1} + word_time, base_k, that time); the writer's
# word k is in the source PCT at max(done_{k-1}, S_{k-P}) + gate_op; word
# j is readable at S_j + word_time + H + gate_out and read at max(previous
# read, readable) + gate_op; each read call of one word reaches the source
# H after it starts.
stall_expect() { # $1 = words, $2 = read-after (-1: never)
    awk $consts -v n="$1" -v R="$2" -v T0=$((1000 + bind)) "$hfun"'
    BEGIN {
        h = H(0, 3); C = P * 4; room = C - P; INF = 1e18
        rd[0] = R
        for (k = 1; k <= n; k++) {
            base = (k == 1 ? T0 : done[k - 1]) + go + gi
            S[k] = (k == 1) ? base : S[k - 1] + wt
            if (base > S[k]) S[k] = base
            m = k - room
            if (m >= 1) {
                f = (R < 0 || m - 1 > n) ? INF : rd[m - 1] + h
                if (f > S[k]) S[k] = f
            }
            own = (k == 1 ? T0 : done[k - 1]) + go
            done[k] = own
            if (k > P && S[k - P] + go > done[k]) done[k] = S[k - P] + go
            if (done[k] >= INF) break
            printf "backpressure: word %d written at %d\n", k, done[k]
            if (R >= 0) {
                ready = S[k] + wt + h + gout
                rd[k] = (rd[k - 1] > ready ? rd[k - 1] : ready) + go
            }
        }
        if (R >= 0)
            printf "backpressure: read %d words (0 wrong) by %d\n", n, rd[n]
    }'
}

"$bp" --mce-nodes=64 > "$TMP/o" 2>"$TMP/e"
expect_eq "reader not reading: exit status (deadlock)" $? 3
stall_expect 64 -1 > "$TMP/x"
expect_eq "writer ends exactly C = $P x 4 words" "$(grep -c written "$TMP/o")" $((P * 4))
expect_eq "writer's times while the path fills" "$(grep written "$TMP/o" | cksum)" "$(cksum < "$TMP/x")"
expect_grep "deadlock report names the full PCT" \
    "node 0: blocked in iwarp_gate_write waiting for PCT 3 full (connection to (3,0), $((P * 4)) words in its path: the reader is not reading)" "$TMP/e"

"$bp" --mce-nodes=64 --read-after=10000 > "$TMP/o" 2>"$TMP/e"
expect_eq "reader reading after 10000 clocks: exit status" $? 0
stall_expect 64 10000 > "$TMP/x"
expect_eq "writer and reader times with a late reader" "$(cksum < "$TMP/o")" "$(cksum < "$TMP/x")"
expect_grep "word 33 ends one path latency after the first read" \
    "word 33 written at $(awk $consts "$hfun"' BEGIN { print 10000 + H(0, 3) + go }')$" "$TMP/o"

# ---- sharing: time of each connection's block read (ps) ---------------------
# Both writers start at START = 1000 + block_send; words enter from base =
# ts + gate_op + gate_in at the connection's share of the link (with skip:
# skip / (skip + 1) of it); the reader ends at the last word's entry + H +
# gate_out + gate_op + block_recv.
share_expect() { # $1 = mode, $2 = words, $3 = pct_groups (4 or 0)
    awk $consts -v mode="$1" -v n="$2" -v groups="$3" "$hfun"'
    function out(i, src, pct, dst, end) {
        printf "backpressure: connection %d (%d,0) PCT %d -> (%d,0): %d words read by %d ps\n",
            i, src, pct, dst, n, end + (H(src, dst) + gout + go + brecv) * clk
    }
    BEGIN {
        base = (1000 + bsend + go + gi) * clk
        w = wt * clk * (skip + 1) / skip  # ps per word of the skipped link
        if (mode == "share") {
            out(0, 0, 2, 2, base + n * 2 * w)
            out(1, 1, 5, 3, base + n * 2 * w)
        } else if (groups > 0) {
            t1 = n * 2 * w                  # group 1 alone: 1/2
            t0 = t1 + (n - n / 3) * 3 * w   # group 0: 1/6 each, then 1/3
            out(0, 6, 0, 4, base + t0); out(1, 7, 1, 3, base + t0)
            out(2, 0, 2, 2, base + t0); out(3, 1, 5, 5, base + t1)
        } else {
            t = n * 4 * w                   # idealised: 1/4 each
            out(0, 6, 0, 4, base + t); out(1, 7, 1, 3, base + t)
            out(2, 0, 2, 2, base + t); out(3, 1, 5, 5, base + t)
        }
    }' | sort
}

"$bp" --mce-nodes=64 --mode=share --words=1000 > "$TMP/o" 2>&1
expect_eq "share: exit status" $? 0
expect_eq "two connections on one link: half of the skipped link each" \
    "$(grep connection "$TMP/o" | sort)" "$(share_expect share 1000 4)"
"$bp" --mce-nodes=64 --mode=groups --words=600 > "$TMP/o" 2>&1
expect_eq "groups: exit status" $? 0
expect_eq "3 + 1 PCT groups on one link: 1/6, 1/6, 1/6, 1/2, then 1/3" \
    "$(grep connection "$TMP/o" | sort)" "$(share_expect groups 600 4)"
sed 's/^iwarp.pct_groups *= *4/iwarp.pct_groups = 0/' "$conf" > "$TMP/ideal.conf"
grep -q '^iwarp.pct_groups = 0' "$TMP/ideal.conf" || fail "pct_groups = 0 machine file"
"$bp" --mce-nodes=64 --mce-machine="$TMP/ideal.conf" --mode=groups --words=600 > "$TMP/o" 2>&1
expect_eq "groups, pct_groups = 0: exit status" $? 0
expect_eq "pct_groups = 0 (idealised): 1/4 each" \
    "$(grep connection "$TMP/o" | sort)" "$(share_expect groups 600 0)"

# DQ: A (0,0) -> (2,0) straight, B (1,1) -> (1,0), turning to X-, ->
# (0,0) -> (7,0) (wrap link): H_B = hop_board + hop_turn + hop_board +
# hop_wrap; kappa 2 = dq_fair_max: each at 1/2 of the link (fair).
dq_expect() { # $1 = words, $2 = share denominator (2: cell, 1: off)
    awk $consts -v n="$1" -v k="$2" "$hfun"'
    BEGIN {
        end = (1000 + bsend + go + gi) * clk + n * k * wt * clk
        tail = (gout + go + brecv) * clk
        printf "backpressure: connection 0 (0,0) PCT 2 -> (2,0): %d words read by %d ps\n", n, end + H(0, 2) * clk + tail
        printf "backpressure: connection 1 (1,1) PCT 3 -> (7,0): %d words read by %d ps\n", n, end + (hb + ht + hb + hw) * clk + tail
    }'
}
"$bp" --mce-nodes=64 --mode=dq --words=1000 > "$TMP/o" 2>&1
expect_eq "dq: exit status" $? 0
expect_eq "DQ congestion 2 (one connection turns in the cell): 1/2 each" \
    "$(grep connection "$TMP/o" | sort)" "$(dq_expect 1000 2)"
sed 's/^iwarp.dq_model *= *cell/iwarp.dq_model = off/' "$conf" > "$TMP/nodq.conf"
grep -q '^iwarp.dq_model = off' "$TMP/nodq.conf" || fail "dq_model = off machine file"
"$bp" --mce-nodes=64 --mce-machine="$TMP/nodq.conf" --mode=dq --words=1000 > "$TMP/o" 2>&1
expect_eq "dq_model = off (idealised): the full link" \
    "$(grep connection "$TMP/o" | sort)" "$(dq_expect 1000 1)"

# ---- determinism: 1, 2 and 4 ranks ----------------------------------------
for args in "--mode=groups --words=600" "--read-after=10000" "--mode=dq --words=300"; do
    run 0 "$bp" --mce-nodes=64 $args --mce-summary > "$TMP/ref" 2>&1
    ref=$(summary_sans_ranks "$TMP/ref")
    [ -n "$ref" ] || fail "backpressure $args: no summary line"
    for np in 1 2 4; do
        run $np "$bp" --mce-nodes=64 $args --mce-summary --mce-placement=cyclic > "$TMP/o" 2>&1
        expect_eq "backpressure $args: digest on $np ranks" "$(summary_sans_ranks "$TMP/o")" "$ref"
        expect_eq "backpressure $args: output on $np ranks" \
            "$(grep '^backpressure:' "$TMP/o" | sort | cksum)" "$(grep '^backpressure:' "$TMP/ref" | sort | cksum)"
    done
done
# --format=csv|json (apps/opts.c): the same numbers as the table (the
# lines' numbers in order; one JSON object per reading cell).
FMT_NUMBERS=1
expect_formats "backpressure groups" "backpressure: connection" backpressure \
    "$bp" --mce-nodes=64 --mode=groups --words=600
expect_formats "backpressure stall" "backpressure: word" backpressure_write \
    "$bp" --mce-nodes=64 --words=8 --read-after=2000
FMT_NUMBERS=0
finish
