#!/bin/sh
# Payloads of 0 B .. 64 MiB arrive intact inside a rank (memcpy) and
# between ranks (MPI, point to point, or read from the sending rank's
# memory at delivery: the shared-memory exchange of a replicated model).
. "$top_srcdir/tests/lib.sh"

for np in 0 2 3; do
    run "$np" "$B/tests/progs/bigmsg" --mce-nodes=3 > "$TMP/o" 2>&1
    expect_eq "bigmsg np=$np status" $? 0
    expect_grep "bigmsg np=$np contents" "bigmsg: ok" "$TMP/o"
done

# The Paragon's model is replicated: with --mce-exchange=auto the
# destination's rank reads each payload from the sender's memory when it
# is delivered, and the sender frees it once that rank is past the
# delivery; shm sends it as an MPI message at the window's end.  The ring
# fills each round's message differently, so a payload read after the
# sender reused its memory would show as a corrupt message.  bigmsg's
# late receives leave messages unread across exchanges: their payloads
# must be read before the next exchange, or they show as corrupt.
for ex in auto shm; do
    for np in 2 3; do
        run "$np" "$B/tests/progs/bigmsg" --mce-nodes=8 --mce-machine=paragon \
            --mce-set=paragon.width=4 --mce-placement=cyclic \
            --mce-exchange=$ex > "$TMP/o" 2>&1
        expect_eq "bigmsg paragon np=$np exchange=$ex status" $? 0
        expect_grep "bigmsg paragon np=$np exchange=$ex contents" "bigmsg: ok" "$TMP/o"
        run "$np" "$B/apps/ring" --mce-machine=paragon --mce-nodes=64 \
            --mce-set=paragon.width=8 --rounds=40 --bytes=20000 \
            --mce-placement=cyclic --mce-exchange=$ex --mce-verbose > "$TMP/o" 2>&1
        expect_eq "ring paragon np=$np exchange=$ex: every round's contents" $? 0
        n=$(sed -n 's/.* p2p_msgs=\([0-9]*\).*/\1/p' "$TMP/o" | tail -1)
        if [ "${n:-0}" -gt 0 ]; then
            pass "ring paragon np=$np exchange=$ex: $n payloads crossed ranks"
        else
            fail "ring paragon np=$np exchange=$ex: no payload crossed ranks"
        fi
        eval "n_${ex}_$np=\$n"
    done
done
# The ring is symmetric: as many payloads read by rank 0 (auto) as it
# sent (shm).
for np in 2 3; do
    eval "a=\$n_auto_$np s=\$n_shm_$np"
    expect_eq "ring paragon np=$np: payloads read = payloads sent" "$a" "$s"
done
finish
