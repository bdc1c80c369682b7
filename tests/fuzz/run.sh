#!/bin/sh
# tests/fuzz/run.sh TARGET... - `make fuzz`: run build/fuzz/bin/fuzz_T for
# FUZZ_SECONDS (default 60) each, starting from the seed corpus
# tests/fuzz/corpus/T (new inputs go to build/fuzz/corpus/T, never into the
# source tree).  A crash, leak or undefined behaviour fails the run; the
# input is left in build/fuzz/artifacts/T/ - fix the bug, then copy the
# input to tests/fuzz/regress/T/ so `make check` replays it for ever.
set -u
secs=${FUZZ_SECONDS:-60}
bad=0
for t in "$@"; do
	bin=build/fuzz/bin/fuzz_$t
	work=build/fuzz/corpus/$t
	art=build/fuzz/artifacts/$t
	log=build/fuzz/$t.log
	mkdir -p "$work" "$art"
	set -- "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	    -artifact_prefix="$art/" -print_final_stats=1 \
	    "$work" "tests/fuzz/corpus/$t"
	[ -d "tests/fuzz/regress/$t" ] && set -- "$@" "tests/fuzz/regress/$t"
	"$@" >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	if [ $rc -ne 0 ]; then
		bad=1
		echo "FAIL fuzz_$t (exit $rc, ${runs:-?} runs): see $log"
		grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -n 8 |
		    sed 's/^/    /'
	else
		echo "ok   fuzz_$t: ${runs:-?} runs in ${secs}s, $cov"
	fi
done
[ $bad -eq 0 ] || echo "fuzz: a finding; its input is under build/fuzz/artifacts/"
exit $bad
