#!/bin/sh
# docs/bad-input.md's table, every row a test: run the row's command from
# the top of the checkout (its files from a copy of tests/data/bad-input/),
# check the exit code and that the message column is in what it printed.
# Also: the table is not empty, no row exits by a signal, and every file
# in tests/data/bad-input/ is used by some row.
. tests/lib.sh

DOC=docs/bad-input.md
DATA=tests/data/bad-input
cp -R "$DATA" "$T/bad-input" || exit 2
CBABS=$(cd "$(dirname "$CB")" && pwd)/$(basename "$CB")

# The rows: "| input | `command` | exit | `message` |", one per line.
sed -n '/<!-- table begin -->/,/<!-- table end -->/p' "$DOC" |
	grep '^| [^-I]' >"$T/rows"
nrows=$(wc -l <"$T/rows")
check "the table has its rows (got $nrows)" [ "$nrows" -ge 50 ]

# field N of a row, without its backticks and padding
field() { printf '%s\n' "$1" | awk -F' [|] ' -v n="$2" '{ print $n }' |
	sed 's/^`//; s/` *|* *$//; s/`$//'; }

while IFS= read -r row; do
	input=$(field "$row" 1 | sed 's/^| //')
	cmd=$(field "$row" 2)
	want=$(field "$row" 3)
	msg=$(field "$row" 4)
	# the row's files: the copy; the binary under test
	run=$(printf '%s' "$cmd" | sed "s#$DATA#$T/bad-input#g; s#\(^\| \)cryptobench#\1$CBABS#")
	msg=$(printf '%s' "$msg" | sed "s#$DATA#$T/bad-input#g")
	sh -c "$run" >"$T/out" 2>"$T/err" </dev/null; rc=$?
	all=$(cat "$T/out" "$T/err")
	if [ "$rc" = "$want" ] && contains "$all" "$msg"; then
		pass
	else
		fail "bad-input row '$input': exit $rc (want $want); message" \
		     "'$msg' $(contains "$all" "$msg" && echo found || echo missing)"
		head -n 3 "$T/err" | sed 's/^/    /'
	fi
	check "row '$input' did not die of a signal (exit $rc)" [ "$rc" -lt 128 ]
done <"$T/rows"

# every fixture is in some row; nothing a row refused was overwritten
for f in "$DATA"/*; do
	b=$(basename "$f")
	check "$b is used by a row" grep -q "$DATA/$b" "$T/rows"
done
check "existing.img was not overwritten" cmp -s "$DATA/existing.img" "$T/bad-input/existing.img"
check "no report was written for a bad file" [ ! -e "$T/bad-input/report" ]
finish
