#!/bin/sh
# tests/run.sh - run every test and end with one line "N passed, N failed".
#
# Runs each build/tests/test_* binary (C unit and differential tests) and
# each tests/*.sh script (command-line tests; they get $CB, the binary under
# test), then the known-answer suite (`cryptobench kat`).  Every test prints
# "N passed, N failed" as its last line; exit 77 means skipped (its first
# line gives the reason).  The counts are summed; skips are reported on the
# line before the last, which is exactly "N passed, N failed".  A test's
# "REPORT: " lines (figures it measured) are shown under its PASS line.
# Environment: BUILD (default build), CB_BIN (default
# ./cryptobench).
set -u
BUILD=${BUILD:-build}
CB=${CB_BIN:-./cryptobench}
export CB BUILD
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

total_p=0 total_f=0 total_s=0 bad=0

run_one() {   # name command...
	name=$1; shift
	log="$tmp/$(echo "$name" | tr '/ ' '__').log"
	"$@" >"$log" 2>&1
	rc=$?
	last=$(grep -E '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	p=$(echo "$last" | sed -nE 's/^([A-Za-z]+: )?([0-9]+) passed.*/\2/p')
	f=$(echo "$last" | sed -nE 's/.* ([0-9]+) failed.*/\1/p')
	s=$(echo "$last" | sed -nE 's/.* ([0-9]+) skipped.*/\1/p')
	p=${p:-0} f=${f:-0} s=${s:-0}
	if [ $rc -eq 77 ]; then
		printf '  SKIP  %s: %s\n' "$name" "$(head -n 1 "$log")"
		total_s=$((total_s + 1))
		return
	fi
	if [ -z "$last" ] || [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
		f=$((f + 1))     # crashed or printed no count: a failure
	fi
	total_p=$((total_p + p)); total_f=$((total_f + f)); total_s=$((total_s + s))
	if [ "$f" -ne 0 ] || [ $rc -ne 0 ]; then
		bad=1
		printf '  FAIL  %s (exit %d): %s\n' "$name" "$rc" "${last:-no result line}"
		tail -n 25 "$log" | sed 's/^/        /'
	else
		printf '  PASS  %s: %s\n' "$name" "$last"
	fi
	# a test's "REPORT: " lines (figures it measured) are shown too
	grep '^REPORT: ' "$log" | sed 's/^REPORT: /        /'
}

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] && [ -f "$t" ] || continue
	case $t in *.o|*.d) continue ;; esac
	run_one "$(basename "$t")" "$t"
done
for t in tests/test_*.sh; do
	# Namespaces, sshd and Ansible, minutes long: `make check-fleet` runs it.
	[ "$t" = tests/test_fleet.sh ] && continue
	run_one "$(basename "$t")" sh "$t"
done
run_one "kat vectors/" "$CB" kat

[ "$total_s" -eq 0 ] || echo "$total_s skipped (tests or cases that cannot run here; see SKIP above and each log)"
echo "$total_p passed, $total_f failed"
[ $bad -eq 0 ] && [ $total_f -eq 0 ]
