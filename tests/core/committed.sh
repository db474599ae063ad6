#!/bin/sh
# Committed deliveries (--mce-windows=committed, the default): a node whose
# next arrival the Paragon's model has already fixed beyond the window
# (a tail, or a worm's last packet, on its co-processor) takes it and runs
# on.  Windows change, virtual time does not: the digests equal those of
# --mce-windows=wide (no commitments) in one process and on 2 and 3 ranks
# (block and cyclic), and the committed runs need fewer windows.
. "$top_srcdir/tests/lib.sh"

digest() { sed -n 's/.*\(vtime_max_ps=[0-9]* digest=[0-9a-f]*\).*/\1/p' "$1" | tail -1; }
windows() { sed -n 's/.*rank 0: windows=\([0-9]*\).*/\1/p' "$1" | tail -1; }

for prog in "apps/complete_exchange --mce-nodes=64 --mce-set=paragon.width=8 --alg=naive,bounded --sizes=15232" \
    "tests/progs/nx_paragon share 8 20000 --mce-nodes=64 --mce-set=paragon.width=8" \
    "tests/progs/nx_matmul --mce-nodes=16 --mce-set=paragon.width=4"; do
    name=$(echo "$prog" | cut -d' ' -f1-2 | sed 's|.*/||')
    # shellcheck disable=SC2086
    run 0 "$B"/$prog --mce-machine=paragon --mce-windows=wide --mce-summary \
        --mce-verbose > "$TMP/w" 2>&1
    expect_eq "$name wide: status" $? 0
    ref=$(digest "$TMP/w")
    # shellcheck disable=SC2086
    run 0 "$B"/$prog --mce-machine=paragon --mce-summary --mce-verbose > "$TMP/c" 2>&1
    expect_eq "$name committed: status" $? 0
    expect_eq "$name: committed = wide (one process)" "$(digest "$TMP/c")" "$ref"
    ww=$(windows "$TMP/w")
    wc=$(windows "$TMP/c")
    if [ -n "$wc" ] && [ -n "$ww" ] && [ "$wc" -lt "$ww" ]; then
        pass "$name: fewer windows committed ($wc) than wide ($ww)"
    else
        fail "$name: windows committed '$wc', wide '$ww'"
    fi
    for np in 2 3; do
        for pl in block cyclic; do
            # shellcheck disable=SC2086
            run "$np" "$B"/$prog --mce-machine=paragon --mce-summary \
                --mce-placement=$pl > "$TMP/m" 2>&1
            expect_eq "$name np=$np $pl: status" $? 0
            expect_eq "$name np=$np $pl: committed = wide" "$(digest "$TMP/m")" "$ref"
        done
    done
done
finish
