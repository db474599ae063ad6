#!/bin/sh
# A two-node ping-pong on the ideal model: the round trip must equal
#   2 x (latency + bytes x per_byte + recv_overhead)
# exactly, for 0, 1, 100, 4096 and 1 MiB, in one process and on 2 ranks.
. "$top_srcdir/tests/lib.sh"

conf=$top_srcdir/tests/fidelity/pp.conf
lat=7300000 pb=3700 ro=900000        # the values of pp.conf, in ps
sizes="0 1 100 4096 1048576"
for np in 0 2; do
    run "$np" "$B/apps/pingpong" --mce-nodes=2 --mce-machine="$conf" \
        --sizes=0,1,100,4096,1048576 --reps=7 > "$TMP/pp" 2>&1 ||
        fail "pingpong np=$np exited non-zero"
    for n in $sizes; do
        want=$((2 * (lat + n * pb + ro)))
        got=$(sed -n "s/^pingpong: size $n reps 7 round_trip_ps //p" "$TMP/pp")
        expect_eq "np=$np round trip of $n bytes (ps)" "$got" "$want"
    done
done

# The same through --mce-set overrides of the default machine.
run 0 "$B/apps/pingpong" --mce-nodes=2 --mce-set=latency=2us \
    --mce-set=per_byte=1ns --mce-set=recv_overhead=0 --sizes=4096 --reps=3 \
    > "$TMP/pp2" 2>&1 || fail "pingpong with --mce-set"
got=$(sed -n 's/^pingpong: size 4096 reps 3 round_trip_ps //p' "$TMP/pp2")
expect_eq "--mce-set round trip of 4096 bytes" "$got" "$((2 * (2000000 + 4096 * 1000)))"
finish
