#!/bin/sh
# The progress lines (issue 45, docs/speed.md: progress): a short bench
# with --progress, its two processes, stderr to a file.  Every line is
# "[PHASE done/total] ETA m:ss ..."; each phase (the geli matrix's
# calibration and samples, each speed pass of each process) ends on a
# line with done == total; the first line of each speed pass has an ETA
# other than 0:00 (the bench's end, not this pass's); the phases say which
# pass and which process they are.  speed --progress: the same of its one
# pass.
. tests/lib.sh

# The phases' first and last lines: "PHASE<TAB>done<TAB>total<TAB>eta" per
# phase and first|last, from progress lines on stdin (\r or \n ended).
phases() {
	tr '\r' '\n' | sed 's/\x1b\[K//g' | awk '
	/^\[.* [0-9]+\/[0-9]+\] ETA [0-9]+:[0-9][0-9]/ {
		k = $0; sub(/\] ETA .*/, "", k); sub(/^\[/, "", k)
		n = k; sub(/ [0-9]+\/[0-9]+$/, "", k); sub(/.* /, "", n)
		split(n, a, "/"); e = $0; sub(/.*\] ETA /, "", e); sub(/ .*/, "", e)
		if (!(k in f)) { f[k] = a[1] "\t" a[2] "\t" e; o[++np] = k }
		l[k] = a[1] "\t" a[2] "\t" e
	}
	END { for (i = 1; i <= np; i++)
		print o[i] "\tfirst\t" f[o[i]] "\n" o[i] "\tlast\t" l[o[i]] }'
}
# Each phase's last line: done == total (the failures named).
ends_at_total() {   # FILE
	bad=$(awk -F'\t' '$2 == "last" && $3 != $4 { print "    " $1 ": " $3 "/" $4 }' "$1")
	[ -z "$bad" ] || { printf '%s\n' "$bad"; return 1; }
	[ -s "$1" ]
}
# The speed passes' first lines: an ETA other than 0:00.
eta_first() {   # FILE
	bad=$(awk -F'\t' '$1 ~ /^speed/ && $2 == "first" && $5 == "0:00" { print "    " $1 }' "$1")
	[ -z "$bad" ] || { printf '%s\n' "$bad"; return 1; }
	grep -q '^speed' "$1"
}
count() {   # FILE REGEX: phases whose name matches
	awk -F'\t' -v re="$2" '$2 == "first" && $1 ~ re' "$1" | wc -l
}

D=$T/res
mkdir -p "$D"
# 30 s: native at 16 bytes keeps its second process, under ASan on a
# loaded machine too (test_bench.sh's "two processes (the default)").
expect_exit 0 "bench --progress (native, 16 bytes, 2 processes)" \
	"$CB" bench --budget 30 --backend native --sizes 16 --progress -o "$D"
phases <"$T/err" >"$T/ph"
sed 's/^/    /' "$T/ph"
check "bench: the second process ran" contains "$err" "bench: process 2 of 2:"
check "bench: every phase ends at its total" ends_at_total "$T/ph"
check "bench: the speed passes' first ETA is not 0:00" eta_first "$T/ph"
check "bench: the geli calibration and samples phases" \
	[ "$(count "$T/ph" '^geli (calibration|samples)$')" -eq 2 ]
check "bench: three speed passes in process 1 of 2" \
	[ "$(count "$T/ph" '^speed [123]/3 .* proc 1/2$')" -eq 3 ]
check "bench: three speed passes in process 2 of 2" \
	[ "$(count "$T/ph" '^speed [123]/3 .* proc 2/2$')" -eq 3 ]

expect_exit 0 "speed --progress" "$CB" speed --progress --backend native \
	--alg 'cbc(aes)' --sizes 16,4096 --sec 0.05
phases <"$T/err" >"$T/ph"
sed 's/^/    /' "$T/ph"
check "speed: its pass ends at its total" ends_at_total "$T/ph"
check "speed: one pass" [ "$(wc -l <"$T/ph")" -eq 2 ]
check "speed: the first ETA is not 0:00" \
	awk -F'\t' '$2 == "first" { exit $5 == "0:00" }' "$T/ph"
finish
