#!/bin/sh
# tests/fuzz/run.sh SECONDS [HARNESS...]: run each libFuzzer harness (built
# by make fuzz-build in tests/fuzz/ of the build directory: conf, tcs,
# calls) for SECONDS
# seconds, at most 200,000 executions a second, from its seed corpus
# tests/fuzz/corpus/NAME of the source tree.  New inputs go to
# fuzz-work/NAME (the seeds stay untouched), crash reproducers to
# fuzz-work/.  Fails on any crash, sanitizer report, leak or time-out
# (an input taking more than 10 s).  Run from the build directory;
# FUZZ_SRCDIR names the source tree (default: this script's ../..).
set -u
secs=${1:?usage: run.sh SECONDS [HARNESS...]}
shift
src=${FUZZ_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
harnesses=${*:-conf tcs calls}
# UBSan reports are errors here (the harnesses are built with
# -fno-sanitize-recover too); Open MPI is not linked, so leaks are real.
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
for h in $harnesses; do
    bin=tests/fuzz/fuzz_$h
    if [ ! -x "$bin" ]; then
        echo "run.sh: $bin not built (make fuzz-build)" >&2
        exit 1
    fi
    mkdir -p "fuzz-work/$h"
    log=fuzz-work/$h.log
    start=$(date +%s)
    dict=
    [ -f "$src/tests/fuzz/$h.dict" ] && dict=-dict=$src/tests/fuzz/$h.dict
    # fuzz_calls: 64 calls of 8 bytes after a 2-byte header; each input
    # runs in a child limited to 20 s of CPU, so 30 s is a hang.
    extra=
    [ "$h" = calls ] && extra="-max_len=514"
    tmo=10
    [ "$h" = calls ] && tmo=30
    "$bin" -max_total_time="$secs" -runs=$((secs * 200000)) -timeout=$tmo \
        -rss_limit_mb=2048 -print_final_stats=1 $dict $extra \
        -artifact_prefix="fuzz-work/$h-" "fuzz-work/$h" "$src/tests/fuzz/corpus/$h" \
        > "$log" 2>&1
    rc=$?
    end=$(date +%s)
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    if [ $rc -eq 0 ]; then
        echo "fuzz $h: ${runs:-?} executions in $((end - start)) s" \
            "(${rate:-?}/s), no failure"
    else
        status=1
        echo "FAIL: fuzz $h: status $rc; log $log; reproducer:" \
            "$(ls fuzz-work/$h-* 2>/dev/null | head -n 1)"
        grep -A 30 'ERROR\|runtime error\|ALARM' "$log" | head -n 60
    fi
done
exit $status
