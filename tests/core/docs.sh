#!/bin/sh
# The documents users read (README, the user guide, ARCHITECTURE.md, the
# design note, the manual pages, the machine files, the shipped report)
# and the programs' own strings name papers by author and year, never by
# the specification's file numbers ("seed 001"); they name no directory of
# a development machine; the lists of shipped machines name every
# share/machines/*.conf.  Text checks only: a second.
. "$top_srcdir/tests/lib.sh"

S=$top_srcdir
docs="README doc/USER-GUIDE.md doc/ARCHITECTURE.md doc/design/iwarp-tcs.md
    $(cd "$S" && ls doc/man/* share/machines/*.conf doc/report/*/summary.md)"

# "seed 000", "seeds 000 and 001", "Seed 004", "seed002" ...
(cd "$S" && grep -nE '[Ss]eeds? ?0[0-9][0-9]' $docs) > "$TMP/seeds"
expect_eq "documents name papers by author and year, not 'seed NNN'" \
    "$(wc -l < "$TMP/seeds")" 0
sed 's/^/#     | /' "$TMP/seeds" | head -n 10 >&3
# ... and so do the strings the programs print (C string literals).
(cd "$S" && grep -nE '"[^"]*[Ss]eeds? ?0[0-9][0-9]' tools/*.c tools/*.in \
    apps/*.c apps/*/*.c lib/*.c lib/*/*.c lib/*/*/*.c) > "$TMP/seeds"
expect_eq "program strings name papers by author and year" \
    "$(wc -l < "$TMP/seeds")" 0
sed 's/^/#     | /' "$TMP/seeds" | head -n 10 >&3

# No directory of a development machine (the user guide's example outputs
# say /src/mcemu for the source tree).
(cd "$S" && grep -nE '(/work/|/home/[a-z]|/root/)' $docs) > "$TMP/paths"
expect_eq "documents name no development machine's directory" \
    "$(wc -l < "$TMP/paths")" 0
sed 's/^/#     | /' "$TMP/paths" | head -n 10 >&3

# The lists of shipped machines are complete.
missing=""
for f in "$S"/share/machines/*.conf; do
    m=$(basename "$f" .conf)
    grep -A3 '^The shipped machines are\|  The shipped machines are' \
        "$S/doc/USER-GUIDE.md" | grep -q "\`$m\`" || missing="$missing guide:$m"
    grep -A2 '^share/machines/' "$S/doc/ARCHITECTURE.md" | grep -q "$m.conf" ||
        missing="$missing architecture:$m"
done
expect_eq "the user guide and ARCHITECTURE.md list every shipped machine" \
    "$missing" ""

# Nothing shipped is still called planned.
(cd "$S" && grep -niE '(run time|runtime|personalit[a-z]*|tcs|iwarp|mce-report)[^.]* (is|are) planned' \
    README doc/USER-GUIDE.md doc/ARCHITECTURE.md) > "$TMP/planned"
expect_eq "no shipped part is called planned" "$(wc -l < "$TMP/planned")" 0
sed 's/^/#     | /' "$TMP/planned" | head -n 10 >&3
finish
