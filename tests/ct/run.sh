#!/bin/sh
# tests/ct/run.sh - `make check-ct` (docs/ct.md): `cryptobench ct` on every
# backend at --cpu generic, at avx2-nosha (the most valgrind runs: memcheck
# decides every path) and at this machine's best level, each table and CSV
# kept in $BUILD/ct/; the verdicts the literature predicts asserted
# (table-driven Blowfish and DES flagged everywhere, OpenSSL's T-table AES
# and 4-bit GHASH at --cpu generic flagged, the AES-NI paths, ChaCha20,
# Poly1305, Serpent and SHA-256 constant-time by memcheck, the scalar MD5
# and RIPEMD-160 too, every implementation checked by some method); the
# test plug-in's planted leaks (tests/test_ct.sh); and a
# native build with a planted key-dependent branch (-DCB_CT_PLANT) caught.
# Ends with "N passed, N failed" and the seconds it took.
set -u
BUILD=${BUILD:-build}
CB=${CB_BIN:-./cryptobench}
OUT=$BUILD/ct
mkdir -p "$OUT"
start=$(date +%s)
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() { n=$1; shift; if "$@"; then ok "$n"; else bad "$n"; fi; }
# row LEVEL BACKEND ALG: "verdict,method" from the table's line
row() {
	awk -v b="$2" -v a="$3" '$1 == b && $2 == a {
		v = substr($0, 39, 30); sub(/ +$/, "", v); print v "," $NF; exit }' \
		"$OUT/$1.txt"
}
leak() { case $(row "$@") in secret-dependent*) return 0 ;; esac; return 1; }
# clean_mem LEVEL BACKEND ALG: memcheck ran this path and found nothing.
# (A timing finding on such code - noise on a shared machine passing both
# tests, or a variable-latency instruction - is not memcheck's to judge:
# it is listed at the end, not failed here.)
clean_mem() {
	case $(row "$@") in
	"constant-time,memcheck+timing") return 0 ;;
	"secret-dependent timing,memcheck+timing")
		echo "$*" >>"$OUT/timing-on-clean.txt"; return 0 ;;
	esac
	return 1
}
# keyonly LEVEL BACKEND ALG: what memcheck found was in setting the key only
keyonly() {
	awk -v b="$2" -v a="$3" '$1 == b && $2 == a { on = 1; next }
		on && /^[a-z0-9]/ { exit } on && /in setting the key only/ { f = 1 }
		END { exit !f }' "$OUT/$1.txt"
}
# requests: constant-time by memcheck in its requests (a key-setup check,
# XTS's equal halves, Nettle's table-driven AES key schedule, said apart)
requests_clean() { clean_mem "$@" || { leak "$@" && keyonly "$@"; }; }

rm -f "$OUT/timing-on-clean.txt"
for level in generic avx2-nosha max; do
	rm -f "$OUT/$level.csv"
	t0=$(date +%s)
	"$CB" --cpu $level ct -v --format csv -o "$OUT/$level.csv" \
		>"$OUT/$level.txt" 2>"$OUT/$level.err"
	rc=$?
	echo "     --cpu $level: $(tail -n 1 "$OUT/$level.txt") ($(( $(date +%s) - t0 )) s)"
	check "--cpu $level: ct ran (exit $rc: 1 when a leak is found)" [ $rc -le 1 ]
	check "--cpu $level: the CSV has a row per implementation" \
		[ "$(tail -n +2 "$OUT/$level.csv" | wc -l)" -eq "$(grep -v '^backend ' "$OUT/$level.txt" | grep -c '^[a-z0-9]\+  ')" ]
	for b in openssl gcrypt nettle mbedtls; do
		grep -q "^$b " "$OUT/$level.txt" || continue
		check "--cpu $level: $b's Blowfish (key-dependent S-boxes) flagged" leak $level $b 'cbc(blowfish)'
		check "--cpu $level: $b's 3DES (S-box tables) flagged" leak $level $b 'cbc(des3_ede)'
		check "--cpu $level: $b's MD5 constant-time by memcheck" clean_mem $level $b md5
		check "--cpu $level: $b's RIPEMD-160 constant-time by memcheck" clean_mem $level $b rmd160
	done
	check "--cpu $level: nothing left unchecked" sh -c "! grep -q ' not checked ' '$OUT/$level.txt'"
done
check "--cpu generic: OpenSSL's table-driven AES-CBC flagged" leak generic openssl 'cbc(aes)'
check "--cpu generic: OpenSSL's 4-bit-table GHASH flagged" leak generic openssl 'gcm(aes)'
# avx2-nosha: every path one valgrind runs, so memcheck decides everywhere
for b in openssl gcrypt nettle native; do
	for a in 'cbc(aes)' 'ecb(aes)' 'xts(aes)'; do
		grep -q "^$b  *$a " "$OUT/avx2-nosha.txt" || continue
		check "--cpu avx2-nosha: $b's AES-NI $a: its requests constant-time by memcheck" \
			requests_clean avx2-nosha $b "$a"
	done
done
for b in openssl gcrypt nettle; do
	for a in chacha20 'rfc7539(chacha20,poly1305)' 'cbc(serpent)' sha256; do
		grep -q "^$b  *$a " "$OUT/avx2-nosha.txt" || continue
		check "--cpu avx2-nosha: $b's $a constant-time by memcheck" \
			clean_mem avx2-nosha $b "$a"
	done
done
check "--cpu generic: native capped out (no implementation at generic)" \
	sh -c "! grep -q '^native ' '$OUT/generic.txt'"
nat=$(row max native 'ecb(aes)')
check "--cpu max: native's AES-NI/VAES ECB not flagged ($nat)" \
	sh -c "echo '$nat' | grep -Eq '^(constant-time|no timing leak found),'"

# the test plug-in's planted leaks
CB=$CB sh tests/test_ct.sh >"$OUT/plugin.txt" 2>&1
check "tests/test_ct.sh: the planted leaks ($(tail -n 1 "$OUT/plugin.txt"))" \
	grep -Eq '^[1-9][0-9]* passed, 0 failed' "$OUT/plugin.txt"

# native with a planted key-dependent branch (a test build, -DCB_CT_PLANT)
PB=$BUILD/ctplant/cryptobench
if make -s BUILD="$BUILD/ctplant" CPPFLAGS=-DCB_CT_PLANT CB_BIN="$PB" bin >"$OUT/plant-build.txt" 2>&1; then
	"$PB" --cpu avx2 ct --backend native --alg 'ecb(aes)' --method memcheck -v \
		>"$OUT/plant.txt" 2>&1
	check "native with a planted branch: caught" \
		grep -q '^native .*secret-dependent branch' "$OUT/plant.txt"
	check "native with a planted branch: the place named" \
		grep -q 'branch: .*native' "$OUT/plant.txt"
	"$CB" --cpu avx2 ct --backend native --alg 'ecb(aes)' --method memcheck >"$OUT/noplant.txt" 2>&1
	check "native as built: constant-time by memcheck" \
		grep -q '^native .*constant-time' "$OUT/noplant.txt"
else
	bad "the planted native build"; tail -n 5 "$OUT/plant-build.txt"
fi
if [ -s "$OUT/timing-on-clean.txt" ]; then
	echo "     timing findings where memcheck found nothing (level backend alg):"
	sort -u "$OUT/timing-on-clean.txt" | sed 's/^/       /'
fi
echo "check-ct: $(( $(date +%s) - start )) s"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
