#!/bin/sh
# Configuration: --mce-* options (removed before the program's main sees
# argv), MCE_* variables, a config file, their precedence, and clear errors
# naming the offending option for every kind of malformed input.
. "$top_srcdir/tests/lib.sh"

ring=$B/apps/ring

# --mce-help: lists the options, exits 0, runs no node.
"$ring" --mce-help > "$TMP/help" 2>&1; expect_eq "--mce-help status" $? 0
for o in nodes machine compute trace summary help stack-size placement privatize set config; do
    expect_grep "--mce-help lists --mce-$o" "--mce-$o" "$TMP/help"
done

# Options are removed from argv: ring rejects any argument it does not know.
"$ring" --rounds=1 --mce-nodes=3 --mce-summary --bytes=4 > "$TMP/o" 2>&1
expect_eq "options mixed with program arguments" $? 0
expect_eq "nodes from the option" "$(field nodes "$TMP/o")" 3
"$ring" --mce-nodes 5 --mce-summary --rounds=1 > "$TMP/o" 2>&1
expect_eq "two-word option form" "$(field nodes "$TMP/o")" 5

# Precedence: option > environment > config file.
printf 'nodes = 4\nsummary = yes\n' > "$TMP/cfg"
"$ring" --rounds=1 --mce-config="$TMP/cfg" > "$TMP/o" 2>&1
expect_eq "nodes from the config file" "$(field nodes "$TMP/o")" 4
MCE_NODES=6 "$ring" --rounds=1 --mce-config="$TMP/cfg" > "$TMP/o" 2>&1
expect_eq "environment overrides the file" "$(field nodes "$TMP/o")" 6
MCE_NODES=6 MCE_CONFIG="$TMP/cfg" "$ring" --rounds=1 --mce-nodes=7 > "$TMP/o" 2>&1
expect_eq "option overrides the environment" "$(field nodes "$TMP/o")" 7

# Compute modes: explicit charges --compute-ns, none does not.
"$ring" --mce-nodes=2 --rounds=2 --bytes=0 --compute-ns=1000 --mce-summary > "$TMP/o" 2>&1
expect_eq "explicit mode charges computation" "$(field vtime_max_ps "$TMP/o")" \
    $((2 * (5000000 + 1000000 + 1000000)))
"$ring" --mce-nodes=2 --rounds=2 --bytes=0 --compute-ns=1000 --mce-compute=none \
    --mce-summary > "$TMP/o" 2>&1
expect_eq "mode none ignores computation" "$(field vtime_max_ps "$TMP/o")" \
    $((2 * (5000000 + 1000000)))
"$ring" --mce-nodes=2 --rounds=2 --mce-compute=measured --mce-summary > "$TMP/o" 2>&1
expect_eq "measured mode runs" $? 0

# --mce-verbose says where each rank runs, with hwloc or (configure
# --without-hwloc) from the kernel.
"$ring" --mce-nodes=2 --mce-verbose > "$TMP/o" 2>&1
expect_grep "--mce-verbose reports rank 0's placement" \
    "rank 0 on .* pid [0-9]*: .* to PUs .* of .*PUs.*, last ran on PU [0-9]" \
    "$TMP/o"

# Errors: exit status 2 and a message naming what was wrong.
bad() { # WHAT PATTERN ARGS...
    what=$1 pat=$2; shift 2
    "$@" > "$TMP/e" 2>&1; rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$pat" "$TMP/e"; then pass "$what"
    else fail "$what (status $rc):"; sed 's/^/    | /' "$TMP/e"; fi
}
bad "unknown option" "unknown option '--mce-nodez=3'" "$ring" --mce-nodez=3
bad "nodes not a number" "option --mce-nodes: 'abc'" "$ring" --mce-nodes=abc
bad "nodes zero" "option --mce-nodes: '0'" "$ring" --mce-nodes=0
bad "nodes negative" "option --mce-nodes: '-3'" "$ring" --mce-nodes=-3
bad "nodes missing value" "option --mce-nodes needs a value" "$ring" --mce-nodes
bad "bad compute mode" "option --mce-compute: 'fast' is not one of" "$ring" --mce-compute=fast
bad "bad flag" "option --mce-summary: 'maybe'" "$ring" --mce-summary=maybe
bad "bad stack size" "option --mce-stack-size: '12Q'" "$ring" --mce-stack-size=12Q
bad "bad --mce-set" "option --mce-set: 'latency' is not KEY=VALUE" "$ring" --mce-set=latency
bad "unknown machine" "unknown machine 'cray-9'" "$ring" --mce-machine=cray-9
bad "missing machine file" "not found or unreadable" "$ring" --mce-machine=/nonexistent/x.conf
bad "machine key typo" "unknown key 'latncy'" "$ring" --mce-set=latncy=3
bad "machine bad value" "key 'latency': 'fast' is not a time" "$ring" --mce-set=latency=fast
bad "zero latency" "latency must be positive" "$ring" --mce-set=latency=0
bad "unknown env variable" "environment variable MCE_NODEZ is not an mcemu setting" \
    env MCE_NODEZ=3 "$ring"
bad "bad env value" "environment variable MCE_NODES: 'many'" env MCE_NODES=many "$ring"
bad "missing config file" "config file: cannot open" "$ring" --mce-config="$TMP/none"
printf 'nodes 4\n' > "$TMP/badcfg"
bad "config file syntax" "expected 'key = value'" "$ring" --mce-config="$TMP/badcfg"
printf 'nodez = 4\n' > "$TMP/badcfg"
bad "config file unknown key" "key 'nodez' is not an mcemu option" "$ring" --mce-config="$TMP/badcfg"
# A protocol's declared network model (requires_net): another pairing is
# refused before either starts, naming both.
bad "ncube protocol on another network" \
    "machine 'ncube': protocol 'ncube' runs on network model 'ideal' only (network = ideal), not on 'paragon'" \
    "$B/apps/ring_vertex" --mce-nodes=4 --mce-set=network=paragon
bad "iwarp protocol on another network" \
    "protocol 'iwarp' runs on network model 'iwarp' only (network = iwarp), not on 'ideal'" \
    "$B/apps/iwarp/iwarp_barrier" --mce-set=network=ideal
# A personality's declared protocol (requires_proto): TCS programs need the
# iwarp protocol, refused at boot naming the machine to use.
bad "TCS personality on another protocol" \
    "machine 'ideal': personality 'tcs' (tcs.h) runs on protocol 'iwarp' only (protocol = iwarp), not on 'native' (use --mce-machine=iwarp)" \
    "$B/apps/tcs/ball_front" --mce-nodes=4 --mce-machine=ideal
bad "fewer nodes than ranks" "2 virtual nodes cannot fill 4 MPI ranks" \
    $MPIRUN -np 4 "$ring" --mce-nodes=2

# Machine variants need no code: inherit and override a key.
printf 'inherit = ideal\nname = slow-ideal\nlatency = 50 us\n' > "$TMP/slow.conf"
"$ring" --mce-nodes=2 --rounds=1 --bytes=0 --mce-machine="$TMP/slow.conf" --mce-summary > "$TMP/o" 2>&1
expect_eq "inherited machine name" "$(grep -o 'machine=[^ ]*' "$TMP/o")" "machine=slow-ideal"
expect_eq "inherited machine latency" "$(field vtime_max_ps "$TMP/o")" $((50000000 + 1000000))
finish
