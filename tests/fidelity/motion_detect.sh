#!/bin/sh
# The chapter 7 motion detector on TCS (Warfel 1996, chapter 7;
# doc/design/iwarp-tcs.md, sections 8.6 and 8.10, step 10 of its plan):
# apps/tcs/motion_detect, 10 workers and 2 gatekeepers, fill / compute /
# drain light tasks per block of b scanlines, video-rate camera input.
#   throughput: no word lost at the camera port for every block size that
#       gives each worker 24 lines a frame (240 / b blocks, a multiple of
#       10: b = 1, 2, 3, 4, 6, 8, 12, 24), static and noise video;
#   latency to the first pixel (first word in at the camera, first word
#       out at the display): within 5 % of W 7.3.1's prediction
#       60 + 1280 + (b - 1) 1336 + 60 + 20 + 256 b p + 20 + 225 with p =
#       28 (no motion), computed here with awk and equal to mce-predict
#       motion's; growing by exactly 1336 + 256 x 28 = 8504 clocks per
#       scanline of block (static video);
#   noise video (motion at ~43 % of the pixels): latency between the p =
#       28 and p = 33 predictions (within 5 %);
#   completion time for F frames within 1 % of (F - 1) T + (240 - b) 1336
#       + latency(b) + 128 b (design 8.6, T = 240 x 1336 + 12000) and of
#       mce-predict motion --frames;
#   worker utilisation (computation / (F x T)): static video exactly
#       172 032 / T = 51.7 % (W 7.2.3: 24 lines x 256 pixels x 28 clocks
#       per frame), noise video between 51 % and 62 % (W 7.2.3);
#   the output images equal the sequential reference (tests/progs/md_ref,
#       the same frames) byte for byte on static, square and noise video;
#   one frame gives the same output and summary digest on 1, 2 and 4 ranks.
. "$top_srcdir/tests/lib.sh"

md=$B/apps/tcs/motion_detect
ref=$B/tests/progs/md_ref
mp=$B/tools/mce-predict
conf=$top_srcdir/share/machines/iwarp.conf
key() { awk -v k="$1" '$1 == k && $2 == "=" { print $3 }' "$conf"; }
line=$(key video.line); lines=$(key video.lines); vblank=$(key video.vblank)
pix=$(key app.md_pixel); pixm=$(key app.md_pixel_motion); thr=$(key app.md_threshold)
T=$((lines * line + vblank))
expect_eq "frame period (240 x 1336 + 12000)" "$T" 332640
# W 7.3.1's latency (1280 clocks of data loading, light task ends 60 and
# starts 225, compute task start and end 20, 12 x 5 clocks of network)
wlat() { awk -v b="$1" -v p="$2" -v line="$line" 'BEGIN { print 60 + 1280 + (b - 1) * line + 60 + 20 + 256 * b * p + 20 + 225 }'; }
expect_eq "W 7.3.1 latency, b = 1, no motion" "$(wlat 1 28)" 8833
expect_eq "W 7.3.1 latency, b = 1, motion" "$(wlat 1 33)" 10113
within() { awk -v g="$1" -v w="$2" -v p="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= w * p / 100) }'; }
get() { # FILE BLOCK FIELD [WORKER]
    grep "^motion_detect: block=$2 " "$1" | grep "${4:-latency_max}" | tr ' ' '\n' | sed -n "s/^$3=//p" | head -n 1
}

blocks="1 2 3 4 6 8 12 24"
F=2
"$md" --block="$(echo $blocks | tr ' ' ',')" --frames=$F --video=static > "$TMP/st" 2>&1
expect_eq "static run status" $? 0
"$md" --block=1,24 --frames=$F --video=noise > "$TMP/nz" 2>&1
expect_eq "noise run status" $? 0
for b in $blocks; do
    lost=$(grep "^motion_detect: block=$b .*gateway_in" "$TMP/st" | sed -n 's/.* lost=//p')
    expect_eq "static b=$b: no word lost" "$lost" 0
    lat=$(get "$TMP/st" $b latency_first); w=$(wlat $b "$pix")
    pred=$("$mp" motion --block=$b --p="$pix" --frames=$F)
    expect_eq "mce-predict motion b=$b = awk" "$(echo "$pred" | tr ' ' '\n' | sed -n 's/^latency_clocks=//p')" "$w"
    within "$lat" "$w" 5 && pass "static b=$b: latency $lat within 5 % of W's $w" ||
        fail "static b=$b: latency $lat, W $w"
    lmax=$(get "$TMP/st" $b latency_max)
    within "$lmax" "$w" 5 && pass "static b=$b: every block's latency (max $lmax) within 5 %" ||
        fail "static b=$b: latency max $lmax, W $w"
    comp=$(get "$TMP/st" $b completion)
    cw=$(awk -v F=$F -v T=$T -v b=$b -v line="$line" -v lat="$w" 'BEGIN { print (F - 1) * T + (240 - b) * line + lat + 128 * b }')
    expect_eq "mce-predict motion b=$b completion = awk" "$(echo "$pred" | tr ' ' '\n' | sed -n 's/^completion_clocks=//p')" "$cw"
    within "$comp" "$cw" 1 && pass "static b=$b: completion $comp within 1 % of $cw" ||
        fail "static b=$b: completion $comp, predicted $cw"
    # utilisation: every worker computes 24 lines x 256 pixels x 28 a frame
    n=$(grep "^motion_detect: block=$b .*worker=" "$TMP/st" | grep -c " compute=$((F * 24 * 256 * pix)) ")
    expect_eq "static b=$b: 10 workers computed 24 x 256 x $pix clocks a frame" "$n" 10
    u=$(grep "^motion_detect: block=$b .*worker=0 " "$TMP/st" | sed -n 's/.*utilisation=//p')
    within "$u" "$(awk -v T=$T 'BEGIN { print 172032 / T }')" 1 &&
        pass "static b=$b: utilisation $u within 1 % of 172032 / T" || fail "static b=$b: utilisation $u"
done
# growth per scanline of block: 1336 + 256 x 28
for b in 2 3 4; do
    d=$(( $(get "$TMP/st" $b latency_first) - $(get "$TMP/st" $((b - 1)) latency_first) ))
    expect_eq "latency(b=$b) - latency(b=$((b - 1)))" "$d" $((line + 256 * pix))
done
d=$(( $(get "$TMP/st" 24 latency_first) - $(get "$TMP/st" 12 latency_first) ))
expect_eq "latency(24) - latency(12) = 12 x 8504" "$d" $((12 * (line + 256 * pix)))

for b in 1 24; do
    lost=$(grep "^motion_detect: block=$b .*gateway_in" "$TMP/nz" | sed -n 's/.* lost=//p')
    expect_eq "noise b=$b: no word lost" "$lost" 0
    lmax=$(get "$TMP/nz" $b latency_max); lo=$(wlat $b "$pix"); hi=$(wlat $b "$pixm")
    awk -v l="$lmax" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(l >= 0.95 * lo && l <= 1.05 * hi) }' &&
        pass "noise b=$b: latency max $lmax between $lo (p = 28) and $hi (p = 33)" ||
        fail "noise b=$b: latency max $lmax outside [$lo, $hi]"
    bad=$(grep "^motion_detect: block=$b .*worker=" "$TMP/nz" | sed -n 's/.*utilisation=//p' |
        awk '$1 < 0.51 || $1 > 0.62' | wc -l)
    u=$(grep "^motion_detect: block=$b .*worker=0 " "$TMP/nz" | sed -n 's/.*utilisation=//p')
    expect_eq "noise b=$b: every worker's utilisation in [51 %, 62 %] (worker 0: $u)" "$bad" 0
done

# Output images against the sequential reference (same seed, same frames).
for v in "static 1 2" "square 4 3" "noise 24 2"; do
    set -- $v
    "$md" --block=$2 --frames=$3 --video=$1 --mce-seed=5 --out="$TMP/img" > "$TMP/o" 2>&1
    from=$(sed -n 's/.* from_frame=\([0-9]*\) .*/\1/p' "$TMP/o")
    "$ref" --video=$1 --frames=$3 --from="$from" --seed=5 --threshold="$thr" --out="$TMP/rimg" > "$TMP/r"
    if [ -s "$TMP/img" ] && cmp -s "$TMP/img" "$TMP/rimg"; then
        pass "$1 video, b=$2, $3 frames from frame $from: output = reference byte for byte ($(grep -o 'motion=[0-9]*' "$TMP/r" | tr '\n' ' '))"
    else
        fail "$1 video, b=$2: output differs from the reference"
    fi
done

# Determinism: one frame, b = 4, square video.
"$md" --block=4 --frames=1 --video=square --mce-summary > "$TMP/d0" 2>&1
for np in 1 2 4; do
    run $np "$md" --block=4 --frames=1 --video=square --mce-summary > "$TMP/d$np" 2>&1
    expect_eq "$np rank(s): same output" "$(grep '^motion_detect' "$TMP/d$np" | sort | cksum)" "$(grep '^motion_detect' "$TMP/d0" | sort | cksum)"
    expect_eq "$np rank(s): same summary" "$(summary_sans_ranks "$TMP/d$np")" "$(summary_sans_ranks "$TMP/d0")"
done

# --format=csv|json (apps/opts.c): the same numbers as the table; the
# rows come from the output gateway and the workers (one JSON object
# each).
expect_formats "motion_detect latency" "motion_detect: .* latency_max=" \
    motion_detect "$md" --block=4,24 --frames=1 --video=square
expect_formats "motion_detect workers" "motion_detect: .* worker=" \
    motion_detect_worker "$md" --block=4 --frames=1 --video=square
finish
