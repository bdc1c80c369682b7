#!/bin/sh
# tests/test_select.sh - the one parser of --backend, --alg and --driver
# (issue 43; src/system/select.c): kat, ct and speed run every backend and
# algorithm they are given, past the limits they once had (kat 16
# backends and one --alg, ct 64 algorithms, speed 32 backends), and
# loading more backends than the loader holds names its limit and
# each plug-in left out, never a silent drop.  The backends are the docs' minimal plug-in
# built under 20 names.
. tests/lib.sh
BUILD=${BUILD:-build}
need cc gcc
EX=docs/examples/null_plugin.c
NULLC="ecb(cipher_null)"

# plugins N: --plugin options for ex01..exN, each built once.
plugins() {
	i=1
	while [ "$i" -le "$1" ]; do
		n=$(printf 'ex%02d' "$i")
		[ -f "$T/$n.so" ] || cc -shared -fPIC -O2 -Iinclude \
			-DNAME="\"$n\"" -o "$T/$n.so" $EX || return 1
		printf ' --plugin %s' "$T/$n.so"
		i=$((i + 1))
	done
}
# every_one OUT N: OUT names ex01..exN
every_one() {
	i=1
	while [ "$i" -le "$2" ]; do
		contains "$1" "$(printf 'ex%02d' "$i")" || return 1
		i=$((i + 1))
	done
}
P=$(plugins 20) || { fail "the minimal plug-in builds under 20 names"; finish; exit; }
pass

# shellcheck disable=SC2086
expect_exit 0 "kat: 20 plug-ins and the built-in backends" \
	$CB $P kat --alg "$NULLC"
check "kat: every one of them ran (past the old 16)" every_one "$out" 20
check "kat: the last one passed its vectors" \
	eval 'echo "$out" | grep "^ex20 " | grep -Eq " [1-9][0-9]* +0 +0 "'

expect_exit 0 "kat: --alg twice" \
	$CB kat --backend openssl --alg "cbc(aes)" --alg "sha256"
check "kat: the first --alg ran" contains "$out" "cbc-aes-openssl"
check "kat: the second --alg ran" contains "$out" "sha256-openssl"

B=
for i in $(seq 1 20); do B="$B --backend $(printf 'ex%02d' "$i")"; done
# shellcheck disable=SC2086
expect_exit 0 "speed: 20 --backend" \
	$CB $P speed --no-gate $B --alg "$NULLC" --sizes 16 --reps 1 --sec 0.01
check "speed: every one was timed" every_one "$out" 20

# shellcheck disable=SC2086
expect_exit 0 "ct: 20 plug-ins" \
	$CB $P ct $B --alg "$NULLC" --method timing --measurements 1000
check "ct: every one was tested" every_one "$out" 20

A=$($CB list algs 2>/dev/null | awk 'NR > 1 && $1 ~ /\(/ { print $1 }' | head -70)
NA=$(echo "$A" | wc -l)
ALGS=
for a in $A; do ALGS="$ALGS --alg $a"; done
# shellcheck disable=SC2086
expect_exit 2 "ct: $NA --alg (past the old 64), an unknown driver" \
	$CB ct $ALGS --driver no-such-driver-x --method timing
check "ct: all taken, none matched" contains "$err" "no implementation matches"

P=$(plugins 30)
# shellcheck disable=SC2086
$CB $P list backends >"$T/out" 2>"$T/err"
check "more backends than the loader holds: each left out is named" \
	grep -q "more than 32 backends: ex30 left out" "$T/err"
finish
