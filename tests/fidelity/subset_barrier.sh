#!/bin/sh
# iWarp System Reporting Unit, anonymous-destination ring with the
# address-match CAM and subset barriers (Feldmann, Gross, O'Hallaron,
# Stricker, sections 2-5; doc/design/iwarp-tcs.md section 7):
# apps/iwarp/subset_barrier against the seed's statements.
#   SRU: one buffer, a newer message discards an unread one; different
#        words on one bit boundary collide (IW_JAMMED);
#   CAM: four entries; a fifth entry or five headers are IW_ECAM;
#   steps: one broadcast and one ring message over 1, 5 and 63 hops equal
#        mce-predict subset exactly (and the awk formulas here);
#   shapes (F 5): RING2 and RING3 grow logarithmically, RING1 and the
#        broadcast barrier linearly (t(64) - t(32) against t(8) - t(4));
#        the ring barriers 2-3x faster than the broadcast one (n = 16, 32);
#   parallel disjoint subsets (k = 64/n barriers of n cells, contiguous):
#        the ring barriers add at most 40 % (F: "at most 25%"; pairs reach
#        30-37 %), RING2 from 8 cells on at most 25 %; the broadcast one
#        grows with the number of barriers;
#   one straggler (F 5): broadcast = two broadcasts, exactly mce-predict's
#        2529 clocks (2500 = 125 us plus the bit-boundary starts); RING2
#        (8 cells) within 35 % of 305 us; broadcast cheaper than the ring;
#   the summary digest is the same in one process and on 1, 2 and 4 ranks.
. "$top_srcdir/tests/lib.sh"

sb=$B/apps/iwarp/subset_barrier
mp=$B/tools/mce-predict
N="--mce-nodes=64"

# t FILE ALG N SUBSETS LAYOUT STRAGGLER: the time of that line
t() {
    awk -v a="alg=$2" -v n="n=$3" -v k="subsets=$4" -v l="layout=$5" \
        -v s="straggler=$6" '$2 == a && $3 == n && $4 == k && $5 == l &&
        $6 == s { sub("time=", "", $7); print $7 }' "$1"
}

# ---- SRU and CAM semantics ---------------------------------------------------
"$sb" $N --mode=sru-test > "$TMP/s" 2>&1
expect_eq "sru-test status" $? 0
expect_grep "newer message discards the unread one (one buffer)" \
    "sru-test received=0xB jam=0 lost=1 poll_after=0" "$TMP/s"
expect_grep "collision jams cell 2" "sru-test collision cell=2 rc=1" "$TMP/s"
expect_grep "collision jams cell 3" "sru-test collision cell=3 rc=1" "$TMP/s"
"$sb" $N --mode=cam-test > "$TMP/c" 2>&1
expect_eq "cam-test status" $? 0
expect_grep "fifth CAM entry and five headers are IW_ECAM (-5)" \
    "cam-test set5=-5 recv5=-5" "$TMP/c"
expect_grep "fifth entry named" \
    "cell (0,0): iwarp_cam_set: no CAM entry 4: the address-match CAM has 4 entries (0..3)" "$TMP/c"
expect_grep "five headers named" \
    "cell (0,0): iwarp_selective_receive: 5 headers: the address-match CAM holds 1 .. 4 entries" "$TMP/c"

# ---- primitive steps: exact, = mce-predict subset -----------------------------
for hk in "1 0" "5 3" "63 7"; do
    set -- $hk
    "$sb" $N --mode=steps --hops=$1 --words=$2 > "$TMP/st" 2>&1
    got=$(sed -n "s/^subset_barrier: step=ring hops=$1 words=$2 time=//p" "$TMP/st")
    want=$(awk -v h=$1 -v k=$2 'BEGIN { print 20 + 240 + 4 * h + 240 + 4 * k + 240 }')
    pred=$("$mp" subset --alg=ring --hops=$1 --words=$2 | tr ' ' '\n' | sed -n 's/^step_clocks=//p')
    expect_eq "ring step $1 hops $2 words (compose+split+hops+split+words+join)" "$got" "$want"
    expect_eq "ring step $1 hops $2 words = mce-predict" "$pred" "$want"
done
got=$(sed -n 's/^subset_barrier: step=sru time=//p' "$TMP/st")
pred=$("$mp" subset --alg=bcast | tr ' ' '\n' | sed -n 's/^step_emulated_clocks=//p')
want=$(awk 'BEGIN { s = 337 + 2; print int((s + 15) / 16) * 16 + 576 + 337 }')
expect_eq "SRU broadcast step (send_sw, 36 bits, recv_sw)" "$got" "$want"
expect_eq "SRU broadcast step = mce-predict" "$pred" "$want"

# ---- single barriers: 2..64 participants ----------------------------------------
: > "$TMP/one"
for a in bcast ring1 ring2 ring3; do
    for n in 2 4 8 16 32 64; do
        "$sb" $N --alg=$a --n=$n >> "$TMP/one" 2>&1 || fail "$a n=$n status $?"
    done
done
grep '^subset_barrier:' "$TMP/one" | sed 's/^/    /'
for a in bcast ring1 ring2 ring3; do
    t4=$(t "$TMP/one" $a 4 1 contiguous 0)
    t8=$(t "$TMP/one" $a 8 1 contiguous 0)
    t16=$(t "$TMP/one" $a 16 1 contiguous 0)
    t32=$(t "$TMP/one" $a 32 1 contiguous 0)
    t64=$(t "$TMP/one" $a 64 1 contiguous 0)
    case $a in
    bcast | ring1)
        if awk -v a=$t4 -v b=$t8 -v c=$t32 -v d=$t64 'BEGIN { exit !(d - c >= 4 * (b - a)) }'; then
            pass "$a linear: t(64)-t(32) = $((t64 - t32)) >= 4 (t(8)-t(4)) = $((4 * (t8 - t4)))"
        else
            fail "$a not linear: t(64)-t(32) = $((t64 - t32)), 4 (t(8)-t(4)) = $((4 * (t8 - t4)))"
        fi
        if awk -v c=$t32 -v d=$t64 -v b=$t16 'BEGIN { exit !(d / c >= 1.6 && c / b >= 1.6) }'; then
            pass "$a linear: t(32)/t(16) and t(64)/t(32) >= 1.6 ($t16 $t32 $t64)"
        else
            fail "$a: t(32)/t(16) or t(64)/t(32) below 1.6 ($t16 $t32 $t64)"
        fi
        ;;
    *)
        if awk -v a=$t4 -v b=$t8 -v c=$t32 -v d=$t64 'BEGIN { exit !(d - c <= 1.5 * (b - a)) }'; then
            pass "$a logarithmic: t(64)-t(32) = $((t64 - t32)) <= 1.5 (t(8)-t(4)) = $((3 * (t8 - t4) / 2))"
        else
            fail "$a not logarithmic: t(64)-t(32) = $((t64 - t32)), t(8)-t(4) = $((t8 - t4))"
        fi
        if awk -v b=$t8 -v b2=$t16 -v c=$t32 -v d=$t64 'BEGIN { exit !(d / c <= 1.3 && c / b2 <= 1.3 && b2 / b <= 1.4) }'; then
            pass "$a logarithmic: doubling from 8 to 64 adds at most 40 % ($t8 $t16 $t32 $t64)"
        else
            fail "$a: doubling from 8 to 64 adds too much ($t8 $t16 $t32 $t64)"
        fi
        ;;
    esac
done
for n in 16 32; do
    b=$(t "$TMP/one" bcast $n 1 contiguous 0)
    r=$(t "$TMP/one" ring2 $n 1 contiguous 0)
    if awk -v b=$b -v r=$r 'BEGIN { exit !(b / r >= 2 && b / r <= 3.5) }'; then
        pass "broadcast/RING2 at $n cells = $(awk -v b=$b -v r=$r 'BEGIN { printf "%.2f", b / r }') (F: about 2-3)"
    else
        fail "broadcast/RING2 at $n cells = $b/$r, not 2..3.5"
    fi
done
b=$(t "$TMP/one" bcast 64 1 contiguous 0)
r=$(t "$TMP/one" ring2 64 1 contiguous 0)
if awk -v b=$b -v r=$r 'BEGIN { exit !(b / r >= 1.5 && b / r <= 5) }'; then
    pass "broadcast/RING2 at 64 cells = $(awk -v b=$b -v r=$r 'BEGIN { printf "%.2f", b / r }') in [1.5, 5]"
else
    fail "broadcast/RING2 at 64 cells = $b/$r, not 1.5..5"
fi
bus=$("$mp" subset --alg=bcast --n=64 | tr ' ' '\n' | sed -n 's/^bus_bound_clocks=//p')
if [ "$b" -ge "$bus" ]; then pass "Algorithm 1 at 64 cells ($b) at least the bus bound ($bus)"; else
    fail "Algorithm 1 at 64 cells ($b) below the bus bound ($bus)"; fi

# ---- several disjoint subsets at once ------------------------------------------
: > "$TMP/par"
for a in bcast ring1 ring2 ring3; do
    for n in 2 4 8 16 32; do
        for l in contiguous interleaved; do
            "$sb" $N --alg=$a --n=$n --subsets=max --layout=$l >> "$TMP/par" 2>&1 ||
                fail "$a n=$n subsets=max $l status $?"
        done
    done
done
grep '^subset_barrier:' "$TMP/par" | sed 's/^/    /'
for a in ring1 ring2 ring3; do
    worst=0
    for n in 2 4 8 16 32; do
        one=$(t "$TMP/one" $a $n 1 contiguous 0)
        k=$((64 / n))
        par=$(t "$TMP/par" $a $n $k contiguous 0)
        pct=$(awk -v o=$one -v p=$par 'BEGIN { printf "%d", (p / o - 1) * 100 + 0.5 }')
        [ "$pct" -gt "$worst" ] && worst=$pct
        # F: "at most 25%"; here up to 37 % for pairs, whose second
        # message passes all 62 other (busy) cells; RING2 from 8 cells
        # on within F's 25 %
        lim=1.40
        [ $a = ring2 ] && [ $n -ge 8 ] && lim=1.25
        if awk -v o=$one -v p=$par -v l=$lim 'BEGIN { exit !(p <= l * o) }'; then
            pass "$a: $k contiguous barriers of $n cells add $pct % ($one -> $par), at most x $lim"
        else
            fail "$a: $k contiguous barriers of $n cells add $pct % ($one -> $par), above x $lim"
        fi
    done
    echo "    $a: parallel subsets add at most $worst %"
done
: > "$TMP/bk"
for k in 1 2 4 8 16 32; do
    "$sb" $N --alg=bcast --n=2 --subsets=$k >> "$TMP/bk" 2>&1 || fail "bcast n=2 subsets=$k status $?"
done
prev=0
ok=1
for k in 2 4 8 16 32; do
    v=$(t "$TMP/bk" bcast 2 $k contiguous 0)
    [ "$v" -gt "$prev" ] || ok=0
    prev=$v
done
t1=$(t "$TMP/bk" bcast 2 1 contiguous 0)
t8=$(t "$TMP/bk" bcast 2 8 contiguous 0)
t16=$(t "$TMP/bk" bcast 2 16 contiguous 0)
t32=$(t "$TMP/bk" bcast 2 32 contiguous 0)
expect_eq "broadcast barrier time increases with the number of barriers" $ok 1
if awk -v a=$t8 -v c=$t32 -v o=$t1 'BEGIN { exit !(c >= 8 * o && c >= 2.5 * a) }'; then
    pass "broadcast: 32 barriers of 2 cells = $t32 >= 8 x one ($t1) and >= 2.5 x 8 barriers ($t8)"
else
    fail "broadcast: not linear in the number of barriers ($t1 $t8 $t16 $t32)"
fi

# ---- one straggler -------------------------------------------------------------
: > "$TMP/str"
for a in bcast ring2; do
    for n in 8 64; do
        "$sb" $N --alg=$a --n=$n --straggler >> "$TMP/str" 2>&1 || fail "$a n=$n straggler status $?"
    done
done
grep '^subset_barrier:' "$TMP/str" | sed 's/^/    /'
pred=$("$mp" subset --alg=bcast | tr ' ' '\n' | sed -n 's/^straggler_emulated_clocks=//p')
want=$(awk 'BEGIN { c1 = int((337 + 2 + 15) / 16) * 16; c2 = int((337 + 337 + 2 + 15) / 16) * 16; print c1 + 576 + c2 + 576 + 337 }')
expect_eq "mce-predict broadcast straggler (awk)" "$pred" "$want"
for n in 8 64; do
    expect_eq "broadcast straggler, $n cells: two broadcasts = mce-predict" \
        "$(t "$TMP/str" bcast $n 1 contiguous 1)" "$pred"
done
if awk -v p=$pred 'BEGIN { exit !(p >= 2000 && p <= 3000) }'; then
    pass "broadcast straggler $pred within 20 % of 2500 (125 us)"
else
    fail "broadcast straggler $pred not within 20 % of 2500"
fi
r=$(t "$TMP/str" ring2 8 1 contiguous 1)
if awk -v r=$r 'BEGIN { exit !(r >= 0.65 * 6100 && r <= 1.35 * 6100) }'; then
    pass "RING2 straggler (8 cells) $r within 35 % of 6100 (305 us)"
else
    fail "RING2 straggler (8 cells) $r not within 35 % of 6100"
fi
for n in 8 64; do
    r=$(t "$TMP/str" ring2 $n 1 contiguous 1)
    [ "$pred" -lt "$r" ] && pass "straggler, $n cells: broadcast ($pred) cheaper than RING2 ($r)" ||
        fail "straggler, $n cells: broadcast ($pred) not cheaper than RING2 ($r)"
done

# ---- determinism: 1, 2 and 4 ranks, block and cyclic -------------------------------
for args in "--alg=ring3 --n=32 --subsets=2" "--alg=bcast --n=8 --subsets=2 --layout=interleaved"; do
    run 0 "$sb" $N $args --mce-summary > "$TMP/ref" 2>&1
    ref=$(summary_sans_ranks "$TMP/ref")
    [ -n "$ref" ] || fail "subset_barrier $args: no summary line"
    for np in 1 2 4; do
        for place in block cyclic; do
            run $np "$sb" $N $args --mce-summary --mce-placement=$place > "$TMP/o" 2>&1
            expect_eq "subset_barrier $args digest on $np ranks ($place)" \
                "$(summary_sans_ranks "$TMP/o")" "$ref"
            expect_eq "subset_barrier $args output on $np ranks ($place)" \
                "$(grep '^subset_barrier:' "$TMP/o")" "$(grep '^subset_barrier:' "$TMP/ref")"
        done
    done
done
finish
