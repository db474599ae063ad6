#!/bin/sh
# --mce-progress (issue 16): "auto" by default, which prints progress
# lines when standard error is a terminal and the run passes a few
# seconds of wall time (rank 0, every 2 s), and nothing otherwise.
#
# The runs are nx_robust compute_forever (a node computing between polls
# for ever) stopped by --mce-max-wall: each lasts its 3 s budget whatever
# the machine's speed, past the first report at 2 s.  The terminal is a
# pseudo-terminal made by util-linux script(1), or by python3's pty
# module; with neither the test skips.  Only the presence of the lines is
# checked, never a time.
. "$top_srcdir/tests/lib.sh"

P=$B/tests/progs
T=$HANG
RUN="$P/nx_robust compute_forever --mce-nodes=2 --mce-max-wall=3s"

# on_tty OUT COMMAND: COMMAND (a shell command line) with its standard
# input, output and error on a pseudo-terminal, whose output goes to OUT
# (the terminal turns "\n" into "\r\n": the "\r" are dropped).
if command -v script > /dev/null 2>&1 &&
    script -qec true /dev/null < /dev/null > /dev/null 2>&1; then
    on_tty() {
        $T script -qec "$2" /dev/null < /dev/null 2>&1 | tr -d '\r' > "$1"
    }
    note "pseudo-terminal: script(1)"
elif command -v python3 > /dev/null 2>&1 &&
    python3 -c 'import pty' > /dev/null 2>&1; then
    on_tty() {
        $T python3 -c 'import pty, sys; pty.spawn(["/bin/sh", "-c", sys.argv[1]])' \
            "$2" < /dev/null 2>&1 | tr -d '\r' > "$1"
    }
    note "pseudo-terminal: python3 pty"
else
    skip "no pseudo-terminal tool (neither util-linux script nor python3's pty module)"
fi

# A terminal indeed: the program sees one on standard error.
on_tty "$TMP/isatty" "test -t 2 && echo stderr-is-a-tty"
if ! grep -q stderr-is-a-tty "$TMP/isatty"; then
    skip "the pseudo-terminal tool gives no terminal here"
fi

# The runs last their wall budget each: two at a time (4 runs, about 6 s).
on_tty "$TMP/tty" "$RUN" &
$T $RUN > "$TMP/file" 2>&1 &
wait
on_tty "$TMP/tty_off" "$RUN --mce-progress=off" &
$T $RUN --mce-progress=on > "$TMP/file_on" 2>&1 &
wait

lines() { grep -c '^mcemu: progress: virtual time .* windows .* s wall$' "$1"; }
# Every run did last its budget: the absence of progress lines below
# means something.
for f in tty file tty_off file_on; do
    expect_grep "$f: the run ends at its wall budget" \
        "wall-clock limit --mce-max-wall=3.000000000000 s reached" "$TMP/$f"
done
n=$(lines "$TMP/tty")
if [ "$n" -ge 1 ]; then
    pass "stderr a terminal, default (auto): $n progress line(s)"
else
    fail "stderr a terminal, default (auto): no progress line in:"
    sed 's/^/#     | /' "$TMP/tty" >&3
fi
expect_eq "stderr a file, default (auto): progress lines" "$(lines "$TMP/file")" 0
expect_eq "stderr a terminal, --mce-progress=off: progress lines" \
    "$(lines "$TMP/tty_off")" 0
n=$(lines "$TMP/file_on")
if [ "$n" -ge 1 ]; then
    pass "stderr a file, --mce-progress=on: $n progress line(s)"
else
    fail "stderr a file, --mce-progress=on: no progress line in:"
    sed 's/^/#     | /' "$TMP/file_on" >&3
fi

# It is standard error that counts: on a terminal with only standard
# output redirected the lines come; with only standard error redirected
# they do not.  (Short runs: 2.5 s budgets, still past the first report.)
R2="$P/nx_robust compute_forever --mce-nodes=2 --mce-max-wall=2500ms"
on_tty "$TMP/tty_out" "$R2 > $TMP/out_stdout" &
on_tty "$TMP/tty_err" "$R2 2> $TMP/err_stderr" &
wait
n=$(lines "$TMP/tty_out")
if [ "$n" -ge 1 ]; then
    pass "stdout a file, stderr a terminal: $n progress line(s)"
else
    fail "stdout a file, stderr a terminal: no progress line in:"
    sed 's/^/#     | /' "$TMP/tty_out" >&3
fi
expect_grep "stderr a file: the run ended at its budget" \
    "wall-clock limit --mce-max-wall=2.500000000000 s reached" "$TMP/err_stderr"
expect_eq "stdout a terminal, stderr a file: progress lines" \
    "$(lines "$TMP/err_stderr")" 0

# A run shorter than the first report's 2 s prints none, even on a
# terminal.
on_tty "$TMP/short" "$P/nx_robust compute_forever --mce-nodes=2 --mce-max-vtime=1ms"
expect_grep "short run: ended at its virtual-time limit" \
    "virtual-time limit --mce-max-vtime" "$TMP/short"
expect_eq "short run on a terminal: progress lines" "$(lines "$TMP/short")" 0

finish
