#!/bin/sh
# tests/test_compare_width.sh - compare's text tables fit 120 columns
# (issue 45): two bench-shaped files with long driver names (ESSIV's
# three parts, authenc, native's paths, dd rows with a sector and an
# HMAC): every line of the two-file table, its --by host form and a
# fleet's (--baseline) is at most 120 characters (a summary line stays
# one line); a name cut in a table ends "[N]" and the key after the
# table gives it whole; --format csv keeps every name whole.
. tests/lib.sh

ESSIV_O='essiv(cbc-aes-openssl,ecb-aes-openssl,sha256-openssl)'
ESSIV_N='essiv(cbc-aes-native-vaes512,ecb-aes-native-vaes512,sha256-openssl)'
AUTHENC='authenc(hmac(sha512-openssl),xts-aes-native-vaes512)'

# rows HOST SCALE: the points of one bench run, SCALE times the speeds
# (names with a comma quoted, RFC 4180).
rows() {
	for b in 512 4096 65536; do
		for d in encrypt decrypt; do
			v=$(awk "BEGIN { print int($b * 100000 * $2) }")
			csv1_row "$1" openssl "\"$ESSIV_O\"" '"essiv(cbc(aes),sha256)"' 256 $b $d $v speed 0 ''
			csv1_row "$1" native "\"$ESSIV_N\"" '"essiv(cbc(aes),sha256)"' 256 $b $d $v speed 0 ''
			csv1_row "$1" native "\"$AUTHENC\"" '"authenc(hmac(sha512),xts(aes))"' 512 $b $d $v speed 0 ''
			csv1_row "$1" native xts-aes-native-vaes512 'xts(aes)' 512 $b $d $v dd 4096 'hmac(sha256)'
		done
	done
}
{ echo "$CSV1_HEADER"; rows hostA 1; } >"$T/a.csv"
{ echo "$CSV1_HEADER"; rows hostA 0.8
  csv1_row hostA openssl "\"$ESSIV_O\"" '"essiv(cbc(aes),sha256)"' 128 512 encrypt 1 speed 0 ''
} >"$T/b.csv"

# widest FILE: the longest line's length, but for the summary lines
# ("N matched: "), one line each for scripts (docs/compare.md)
widest() { awk '!/ matched: / { if (length > m) m = length } END { print m + 0 }' "$1"; }

# keyed FILE: every "NAME[N]" cut in a table line has a key line
# "  [N] = FULL" with FULL starting with NAME; prints what does not.
keyed() {
	awk '
	/^  \[[0-9]+\] = / { k = $1; sub(/^ *\[/, "", k); sub(/\]$/, "", k)
		full[k] = substr($0, index($0, "= ") + 2); next }
	{ line = $0
	  while (match(line, /[^ ]*\[[0-9]+\]/)) {
		tok = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
		n = tok; sub(/^.*\[/, "", n); sub(/\]$/, "", n)
		name = tok; sub(/\[[0-9]+\]$/, "", name)
		cut[++m] = n SUBSEP name } }
	END { for (i = 1; i <= m; i++) { split(cut[i], p, SUBSEP)
		if (!(p[1] in full) || index(full[p[1]], p[2]) != 1)
			print "no key for " p[2] "[" p[1] "]" } }' "$1"
}

expect_exit 1 "two files: a slowdown" "$CB" compare "$T/a.csv" "$T/b.csv"
printf '%s\n' "$out" >"$T/two.txt"
check "two files: at most 120 columns (widest $(widest "$T/two.txt"))" \
	[ "$(widest "$T/two.txt")" -le 120 ]
check "two files: names cut with a key" contains "$out" "[1]"
check "two files: the key gives ESSIV's driver whole" \
	grep -qxF "  [$(grep -F "= $ESSIV_O" "$T/two.txt" | sed 's/^  \[\([0-9]*\)\].*/\1/')] = $ESSIV_O" "$T/two.txt"
check "two files: the key gives authenc's driver whole" grep -qF "] = $AUTHENC" "$T/two.txt"
check "two files: every cut name keyed" [ -z "$(keyed "$T/two.txt")" ]
keyed "$T/two.txt" | head -3
check "two files: still SLOWER/REGRESSION rows" grep -q 'REGRESSION' "$T/two.txt"
check "two files: only-in list" contains "$out" "only in NEW (1)"

expect_exit 1 "--by host" "$CB" compare --by host "$T/a.csv" "$T/b.csv"
printf '%s\n' "$out" >"$T/by.txt"
check "--by host: at most 120 columns (widest $(widest "$T/by.txt"))" \
	[ "$(widest "$T/by.txt")" -le 120 ]
check "--by host: every cut name keyed" [ -z "$(keyed "$T/by.txt")" ]

sed 's/hostA/hostB/' "$T/b.csv" | tail -n +2 >"$T/b-rows"
cat "$T/a.csv" "$T/b-rows" >"$T/fleet.csv"
expect_exit 1 "fleet" "$CB" compare --baseline hostA "$T/fleet.csv"
printf '%s\n' "$out" >"$T/fleet.txt"
check "fleet: at most 120 columns (widest $(widest "$T/fleet.txt"))" \
	[ "$(widest "$T/fleet.txt")" -le 120 ]
check "fleet: every cut name keyed" [ -z "$(keyed "$T/fleet.txt")" ]
check "fleet: a key" grep -qF "] = $ESSIV_N" "$T/fleet.txt"
check "fleet: the last line is the summary, whole" \
	grep -q '^1 host value against host hostA: 24 matched: .*(threshold 2.5%)$' "$T/fleet.txt"

expect_exit 1 "--format csv" "$CB" compare --format csv "$T/a.csv" "$T/b.csv"
check "csv: names whole" contains "$out" "\"$ESSIV_O\""
case $out in *"]"*) fail "csv: a key" ;; *) pass ;; esac
finish
