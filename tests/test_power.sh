#!/bin/sh
# tests/test_power.sh - the plug-in that plants a known slowdown (issue 35;
# tests/power/power_plugin.c, docs/plugins.md): built here as a third party
# builds it, it passes the known-answer vectors with the slowdown off and
# on (the extra runs never change a result), `speed` times it (the gate
# and the cross-check against the other backends pass), and the extra work
# really happens: its counter (CB_POWER_COUNT) says 1 request in N was
# done twice, and each extra run's output, written over a cleared buffer,
# equals the real run's.  How much slower that makes it is measured side
# by side, with confidence intervals, by `make bench-power`, not here:
# a timed assertion fails on a noisy machine.
. tests/lib.sh
need cc gcc
need pkg-config pkg-config
SRC=tests/power/power_plugin.c
SO="$T/power.so"
if ! cc -std=c11 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden -O2 \
	-Iinclude -o "$SO" $SRC $(pkg-config --cflags --libs libcrypto); then
	fail "the plug-in builds"
	finish; exit
fi
pass
CRYPTOBENCH_PLUGIN_PATH=$SO
export CRYPTOBENCH_PLUGIN_PATH
unset CB_POWER_EXTRA CB_POWER_COUNT

# CSV field NAME of every data row (quoted fields with commas allowed).
csvcol() {   # NAME FILE
	awk -v want="$1" '
	function split_csv(s, f,   n, i, c, q, x) {
		n = 0; x = ""; q = 0
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (q && c == "\"" && substr(s, i + 1, 1) == "\"") {
				x = x c; i++
			} else if (c == "\"") q = !q
			else if (!q && c == ",") { f[++n] = x; x = "" }
			else x = x c
		}
		f[++n] = x
		return n
	}
	{ sub(/\r$/, ""); n = split_csv($0, f) }
	NR == 1 { for (i = 1; i <= n; i++) if (f[i] == want) k = i; next }
	k { print f[k] }' "$2"
}
# The sums of a count file's lines: "requests repeats contexts".
counts() {
	awk '{ r += $5; d += $7; c += $9 } END { print r + 0, d + 0, c + 0 }' "$1"
}
# ... and of the extra runs held against the real ones: "checked agree".
agree() {
	awk '{ k += $13; a += $15 } END { print k + 0, a + 0 }' "$1"
}
# Every extra run that could be compared was, and agreed; most could.
all_agree() {   # "requests repeats contexts" "checked agree"
	set -- $1 $2
	[ "$4" -gt 0 ] && [ "$4" -eq "$5" ] && [ $((2 * $4)) -ge "$2" ]
}
# N*repeats <= requests < N*(repeats + contexts): each context does
# floor(its requests / N) extra runs.
exact() {   # N "requests repeats contexts"
	set -- "$1" $2
	[ "$3" -gt 0 ] && [ $(($1 * $3)) -le "$2" ] &&
		[ "$2" -lt $(($1 * ($3 + $4))) ]
}

expect_exit 0 "list backends" $CB list backends
check "list: power available, slowdown off" \
	contains "$out" "available  OpenSSL EVP; CB_POWER_EXTRA off"
expect_exit 0 "list with CB_POWER_EXTRA=20" \
	env CB_POWER_EXTRA=20 $CB list backends
check "list: the planted slowdown in details" \
	contains "$out" "CB_POWER_EXTRA=20: 1 request in 20 done twice (+5.00 % work)"
for bad in 1 x -3; do
	expect_exit 0 "list with CB_POWER_EXTRA=$bad" \
		env CB_POWER_EXTRA=$bad $CB list backends
	check "CB_POWER_EXTRA=$bad: unavailable, with the reason" \
		contains "$out" "unavailable CB_POWER_EXTRA must be 0 (off) or N"
done

# The vectors: off, 1 in 20, and 1 in 2 (short-lived contexts reach the
# 2nd request; with N=20 only a few do) - every extra run then, in place
# and out of place, must leave the result alone.
for n in "" 0 20 2; do
	expect_exit 0 "kat, CB_POWER_EXTRA='$n'" \
		env CB_POWER_EXTRA=$n CB_POWER_COUNT="$T/kat$n" \
		$CB kat --backend power
	check "kat '$n': every algorithm ran" eval 'contains "$out" xts-aes-power &&
		contains "$out" ctr-aes-power && contains "$out" hmac-sha256-power &&
		contains "$out" "essiv(cbc-aes-power,ecb-aes-power,sha256-power)"'
	check "kat '$n': over 100 records, none failed" \
		[ "$(printf '%s\n' "$out" | sed -n 's/^\([0-9]*\) passed, 0 failed.*/\1/p')" -gt 100 ]
done
c=$(counts "$T/kat2")
echo "REPORT: kat with CB_POWER_EXTRA=2: requests, extra runs, contexts: $c"
check "kat, 1 in 2: the extra runs happened, floor(r/2) a context" exact 2 "$c"
a=$(agree "$T/kat2")
echo "REPORT: kat with CB_POWER_EXTRA=2: extra runs checked, agreed: $a"
check "kat, 1 in 2: each extra run checked gave the real result" \
	all_agree "$c" "$a"
c=$(counts "$T/kat")
check "kat, off: no extra run" eval 'set -- $c; [ "$1" -gt 100 ] && [ "$2" -eq 0 ]'
check "kat, off: none checked" [ "$(agree "$T/kat")" = "0 0" ]
expect_exit 0 "kat of every backend with CB_POWER_EXTRA=2" \
	env CB_POWER_EXTRA=2 $CB kat
check "kat of every backend: none failed" contains "$out" " passed, 0 failed"

# speed: each kind's points are timed (after the gate and the cross-check).
sp() {   # N FILE: cbc, xts, sha256, hmac at 4 KiB, encrypt
	env CB_POWER_EXTRA=$1 CB_POWER_COUNT="$T/count$1" $CB speed \
		--backend power --alg 'cbc(aes)' --alg 'xts(aes)' --alg sha256 \
		--alg 'hmac(sha256)' --key-bits 256 --sizes 4096 --sec 0.3 \
		--encrypt --format csv -o "$2"
}
for n in 0 20 2; do
	expect_exit 0 "speed, CB_POWER_EXTRA=$n" sp $n "$T/speed$n.csv"
	check "speed $n: four points, all ok" eval \
		'[ "$(csvcol status "$T/speed$n.csv" | grep -c "^ok$")" -eq 4 ]'
	check "speed $n: the drivers are power's" eval \
		'[ "$(csvcol driver "$T/speed$n.csv" | grep -c -- "-power$")" -eq 4 ]'
done
c=$(counts "$T/count0")
check "speed, off: requests, no extra run" \
	eval 'set -- $c; [ "$1" -gt 1000 ] && [ "$2" -eq 0 ]'
c=$(counts "$T/count20")
echo "REPORT: speed with CB_POWER_EXTRA=20: requests, extra runs, contexts: $c"
check "speed, 1 in 20: floor(r/20) extra runs a context" exact 20 "$c"
check "speed, 1 in 20: the extra runs are 1/20 of the requests (+-2 %)" \
	eval 'set -- $c; [ $((2000 * $2 / $1)) -ge 98 ] && [ $((2000 * $2 / $1)) -le 102 ]'

for n in 20 2; do
	c=$(counts "$T/count$n") a=$(agree "$T/count$n")
	check "speed, 1 in $n: each extra run checked gave the real result" \
		all_agree "$c" "$a"
done

# For the log only (make bench-power measures it): 1 in 2 twice is 1.5
# times the work, 0.667 of the speed, less what is outside the plug-in.
csvcol bytes_per_sec "$T/speed0.csv" >"$T/b0"
csvcol bytes_per_sec "$T/speed2.csv" >"$T/b2"
r=$(paste "$T/b0" "$T/b2" | awk '{ printf "%.3f\n", $2 / $1 }' | sort -n |
	tr '\n' ' ')
echo "REPORT: speed, 1 in 2 twice / off (4 points; 0.667 planted): $r"
finish
