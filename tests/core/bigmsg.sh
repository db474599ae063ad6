#!/bin/sh
# Payloads of 0 B .. 64 MiB arrive intact inside a rank (memcpy) and
# between ranks (MPI, point to point).
. "$top_srcdir/tests/lib.sh"

for np in 0 2 3; do
    run "$np" "$B/tests/progs/bigmsg" --mce-nodes=3 > "$TMP/o" 2>&1
    expect_eq "bigmsg np=$np status" $? 0
    expect_grep "bigmsg np=$np contents" "bigmsg: ok" "$TMP/o"
done
finish
