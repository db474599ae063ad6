#!/bin/sh
# The iWarp video devices and the generated videos of the chapter 7 motion
# detector (Warfel 1996, sections 7.1-7.2; doc/design/iwarp-tcs.md,
# sections 8.6 and 8.10, step 10 of its plan):
#   camera timing: word k of line l of frame f arrives at f T + l line +
#       k word_gap, T = lines x line + vblank (the video.* keys, read here
#       from share/machines/iwarp.conf); the port holds video.fifo words
#       and a word arriving when it is full is lost; a read takes a word
#       per video.word_op and waits for a word not yet arrived.  An awk
#       event simulation of that specification gives, for readers at
#       several paces and block sizes, the exact words read (positions),
#       their arrival times, the clock after each block and the words
#       lost; tests/progs/iw_video must print exactly that;
#   throughput: a reader taking a line per block with 400 clocks between
#       lines loses nothing, with 600 it loses words of every line;
#   vertical sync: frame 1 at T = 332 640 clocks;
#   display: the recorded times of the words written;
#   errors: the calls on a cell without the device name the cell and the
#       port's cell; determinism: the same output and summary on 2 ranks;
#   the sequential reference detector (tests/progs/md_ref): no motion on
#       the static video, and on the square video exactly the square's
#       leading edge (pixels covered in frame f and not in frame f - 1),
#       computed here from the square's definition.
. "$top_srcdir/tests/lib.sh"

iv=$B/tests/progs/iw_video
ref=$B/tests/progs/md_ref
conf=$top_srcdir/share/machines/iwarp.conf
key() { awk -v k="$1" '$1 == k && $2 == "=" { print $3 }' "$conf"; }
line=$(key video.line); aw=$(key video.active_words); gap=$(key video.word_gap)
lines=$(key video.lines); vblank=$(key video.vblank); fifo=$(key video.fifo)
op=$(key video.word_op); camera=$(key video.camera); display=$(key video.display)
thr=$(key app.md_threshold)
expect_eq "video keys as stated (W 7.1, 7.2.1, 7.2.3)" "$line $aw $gap $lines $vblank $thr" "1336 64 16 240 12000 20"

# The reader of iw_video --read, simulated event by event.
simulate() { # WORDS BLOCK PACE START SYNC
    awk -v words="$1" -v block="$2" -v pace="$3" -v start="$4" -v sync="$5" \
        -v line="$line" -v aw="$aw" -v gap="$gap" -v lines="$lines" \
        -v vblank="$vblank" -v fifo="$fifo" -v op="$op" '
    function arr(g,  f, r) {
        f = int(g / (lines * aw)); r = g % (lines * aw)
        return f * T + int(r / aw) * line + (r % aw) * gap
    }
    function absorb(t) {
        while (arr(nxt) <= t) {
            if (qn < fifo) { q[qt++] = nxt; qn++ } else lost++
            nxt++
        }
    }
    BEGIN {
        T = lines * line + vblank; t = start; nxt = 0; qh = qt = qn = lost = 0
        if (sync) {
            f = int((t + T - 1) / T); nxt = f * lines * aw; t = f * T
            printf "sync frame=%d at=%d\n", f, t
        }
        for (i = 0; i < words; ) {
            for (j = 0; j < block; j++) {
                absorb(t)
                if (qn == 0) { t = arr(nxt); absorb(t) }
                g[j] = q[qh++]; qn--; t += op
            }
            for (j = 0; j < block; j++)
                printf "w %d pos=%d arrival=%d value=%d done=%d\n", i++, g[j], arr(g[j]), g[j] % 4294967296, t
            t += pace
        }
        absorb(t)
        printf "lost=%d\n", lost
    }'
}

check_reader() { # NAME WORDS BLOCK PACE START SYNC
    name=$1; shift
    args="--read --words=$1 --block=$2 --pace=$3 --start=$4"
    [ "$5" = 1 ] && args="$args --sync"
    # shellcheck disable=SC2086
    "$iv" --mce-nodes=64 $args > "$TMP/out" 2> "$TMP/err"
    expect_eq "$name: status" $? 0
    simulate "$@" > "$TMP/want"
    if cmp -s "$TMP/out" "$TMP/want"; then
        pass "$name: words, arrival times, read times and losses ($(tail -n 1 "$TMP/want"))"
    else
        fail "$name: output differs from the simulation:"
        diff "$TMP/want" "$TMP/out" | head -20 | sed 's/^/    | /'
    fi
}

check_reader "fast reader, a word per call" 40 1 0 0 0
check_reader "reader at 15 clocks per word" 200 1 14 0 0
check_reader "reader at 101 clocks per word (loses words)" 200 1 100 0 0
check_reader "blocks of 4 words, 300 clocks apart" 96 4 300 0 0
check_reader "a line per block, 400 clocks between lines" 640 64 400 0 0
check_reader "a line per block, 600 clocks between lines" 640 64 600 0 0
check_reader "late start, across the vertical blank" 300 10 2000 316000 0
check_reader "vertical sync then a line per block" 256 64 0 5000 1
grep -q '^lost=0$' "$TMP/want" && pass "sync: nothing counted lost before the frame" ||
    fail "sync: words counted lost"
# The throughput condition, from the simulation's own numbers: at 400
# clocks between lines no loss, at 600 every line after the first loses.
n400=$(simulate 640 64 400 0 0 | tail -n 1); n600=$(simulate 640 64 600 0 0 | tail -n 1)
expect_eq "a line per block + 400 clocks keeps up" "$n400" "lost=0"
# the 600-clock reader comes back 1009 + 600 clocks after a line start,
# when 18 words of the next line have arrived: 8 fit, the rest are lost
# (and its blocks then straddle lines, so it keeps losing)
[ "${n600#lost=}" -ge 10 ] && pass "a line per block + 600 clocks loses words ($n600)" ||
    fail "a line per block + 600 clocks: $n600"
# frame period
T=$((lines * line + vblank))
expect_eq "frame period (240 x 1336 + 12000)" "$T" 332640
simulate 256 64 0 5000 1 | head -n 1 > "$TMP/s"
expect_grep "vertical sync at frame 1 = T" "sync frame=1 at=$T" "$TMP/s"

# Display: words written one per call from clock 10, each costing word_op.
"$iv" --mce-nodes=64 --write --words=5 --start=10 > "$TMP/out" 2> "$TMP/err"
awk -v op="$op" 'BEGIN { print "outputs=5"; for (i = 0; i < 5; i++) printf "o %d value=%d at=%d\n", i, 1000 + i, 10 + (i + 1) * op; print "beyond=-3" }' > "$TMP/want"
if cmp -s "$TMP/out" "$TMP/want"; then pass "display record: values and times"; else
    fail "display record:"; diff "$TMP/want" "$TMP/out" | sed 's/^/    | /'; fi
dx=$((display % 8)); dy=$((display / 8)); cx=$((camera % 8)); cy=$((camera / 8))
expect_grep "reading beyond the record" "cell ($dx,$dy): iwarp_video_output: no display word 5 (5 written so far)" "$TMP/err"

# Errors on a cell without the device.
"$iv" --mce-nodes=64 --wrong > "$TMP/out" 2>&1
expect_grep "IW_ENODEV from every call" "wrong: read -8 write -8 sync -8 lost 0 output -8" "$TMP/out"
expect_grep "camera read named" "cell (1,0): iwarp_video_read: this cell has no camera port (video.camera = $camera: cell ($cx,$cy))" "$TMP/out"
expect_grep "display write named" "cell (1,0): iwarp_video_write: this cell has no display port (video.display = $display: cell ($dx,$dy))" "$TMP/out"
"$iv" --mce-nodes=64 --mce-set video.camera=99 --wrong > "$TMP/out" 2>&1
expect_grep "a camera beyond the array" "iwarp_video_read: this cell has no camera port (video.camera = 99 is not a cell of this 64-cell array: there is none)" "$TMP/out"

# Determinism: one process and 2 ranks.
"$iv" --mce-nodes=64 --read --words=200 --pace=100 --mce-summary > "$TMP/r0" 2>&1
run 2 "$iv" --mce-nodes=64 --read --words=200 --pace=100 --mce-summary > "$TMP/r2" 2>&1
expect_eq "2 ranks: same words" "$(grep -v '^mcemu' "$TMP/r2" | cksum)" "$(grep -v '^mcemu' "$TMP/r0" | cksum)"
expect_eq "2 ranks: same summary" "$(summary_sans_ranks "$TMP/r2")" "$(summary_sans_ranks "$TMP/r0")"

# ---- the sequential reference detector --------------------------------------
"$ref" --threshold="$thr" --video=static --frames=5 --seed=3 > "$TMP/st"
expect_eq "static video: no motion in any frame" "$(grep -c '^frame=.* motion=0$' "$TMP/st")" 5
for seed in 1 7; do
    frames=6
    "$ref" --threshold="$thr" --video=square --frames=$frames --seed=$seed --list > "$TMP/sq"
    hdr=$(head -n 1 "$TMP/sq")
    get() { echo "$hdr" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
    expect_eq "square (seed $seed): side, speed, contrast, threshold" \
        "$(get side) $(get vx) $(get vy) $(get contrast) $(get threshold)" "32 8 4 21 20"
    awk -v F=$frames -v x0="$(get x0)" -v y0="$(get y0)" -v W="$(get width)" -v H="$(get lines)" \
        -v s="$(get side)" -v vx="$(get vx)" -v vy="$(get vy)" '
    function inside(f, l, x) {
        return (x - (x0 + vx * f) % W + W) % W < s && (l - (y0 + vy * f) % H + H) % H < s
    }
    BEGIN {
        for (f = 1; f < F; f++)
            for (l = 0; l < H; l++)
                for (x = 0; x < W; x++)
                    if (inside(f, l, x) && !inside(f - 1, l, x))
                        print "m", f, l, x
    }' > "$TMP/edge"
    grep '^m ' "$TMP/sq" > "$TMP/got"
    if cmp -s "$TMP/got" "$TMP/edge"; then
        pass "square (seed $seed, x0=$(get x0) y0=$(get y0)): motion exactly at the leading edge, $(wc -l < "$TMP/edge") pixels in $((frames - 1)) frames"
    else
        fail "square (seed $seed): motion differs from the leading edge:"
        diff "$TMP/edge" "$TMP/got" | head -10 | sed 's/^/    | /'
    fi
    expect_grep "square (seed $seed): no motion in frame 0" "^frame=0 motion=0$" "$TMP/sq"
done
"$ref" --threshold="$thr" --video=noise --frames=3 --seed=3 > "$TMP/nz"
n1=$(sed -n 's/^frame=1 motion=//p' "$TMP/nz")
[ "$n1" -gt 6144 ] && pass "noise: motion at $n1 pixels of frame 1" || fail "noise: motion $n1"
"$ref" --threshold="$thr" --video=noise --frames=2 --seed=4 > "$TMP/nz4"
[ "$(sed -n 's/^frame=1 //p' "$TMP/nz4")" != "motion=$n1" ] && pass "noise depends on the seed" ||
    fail "noise: same motion for seeds 3 and 4"

finish
