#!/bin/sh
# The readers' output, pinned: compare (table, CSV, --dump, a fleet
# against a baseline), report (the HTML page, its SVG charts left out:
# they are gnuplot's bytes) on the golden result files
# (tests/data/golden/, written by test_golden.c's results) and on a
# cryptobench-csv-1 file (the geli seed) must print what they printed
# before the column table replaced the readers (issue 43).
# GOLDEN_WRITE=1 rewrites the expected files.
. tests/lib.sh

G=tests/data/golden
SEED=tests/data/golden/geli-seed-csv1.csv   # a cryptobench-csv-1 file
tail -n +2 "$G/new.csv" | cat "$G/results.csv" - >"$T/fleet.csv"

# same NAME CMD...: CMD's stdout and exit status against $G/NAME
same() {
	name=$1; shift
	"$@" >"$T/out" 2>"$T/err"
	echo "exit $?" >>"$T/out"
	if [ -n "${GOLDEN_WRITE:-}" ]; then
		cp "$T/out" "$G/$name"; pass; return
	fi
	if cmp -s "$T/out" "$G/$name"; then
		pass
	else
		fail "$name: output differs from $G/$name"
		diff "$G/$name" "$T/out" | head -n 10
	fi
}

same compare.txt "$CB" compare "$G/results.csv" "$G/new.csv"
same compare.csv "$CB" compare --format csv "$G/results.csv" "$G/new.csv"
same compare-dump.txt "$CB" compare --dump "$G/results.csv"
same compare-fleet.txt "$CB" compare --baseline golden-host "$T/fleet.csv"
same compare-seed.txt "$CB" compare --ignore backend,driver "$SEED" "$G/results.csv"

# bad input: the message (FILE:LINE) and exit 2, the same from each reader
sed -e '2s/,1000.50,/,fast,/' "$G/results.csv" >"$T/badnum.csv"
sed -e 's/secret-dependent memory index/leaky/' "$G/results.csv" >"$T/badct.csv"
sed -e '2s/cryptobench-csv-5/cryptobench-csv-9/' "$G/results.csv" >"$T/badschema.csv"
for b in badnum badct badschema; do
	same "$b.txt" sh -c "cd '$T' && '$PWD/$CB' compare $b.csv $b.csv 2>&1"
	same "$b-report.txt" sh -c "cd '$T' && '$PWD/$CB' report $b.csv -o rep2 --force 2>&1"
done

nosvg() { sed -e '/<svg/,/<\/svg>/d' -e 's/Made [0-9-]* [0-9:]* UTC/Made (date)/' "$1"; }
mkdir "$T/rep"
# the reference library's section (docs/report.md) not drawn: the page
# stays the same when results/reference/ grows
export CRYPTOBENCH_REFERENCE="$T/no-reference"
same report-run.txt "$CB" report "$G/results.csv" "$G/new.csv" -o "$T/rep"
same report.html nosvg "$T/rep/index.html"
finish
