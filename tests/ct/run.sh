#!/bin/sh
# tests/ct/run.sh - `make check-ct` (docs/ct.md): `cryptobench ct` on every
# backend at --cpu generic and at this machine's best level, each table
# and CSV kept in $BUILD/ct/; the verdicts the literature predicts asserted
# (table-driven Blowfish and DES flagged everywhere, OpenSSL's T-table AES
# at --cpu generic flagged, the scalar MD5 and RIPEMD-160 and the null
# cipher constant-time by memcheck, every implementation checked by some
# method); the test plug-in's planted leaks (tests/test_ct.sh); and a
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
clean_mem() { [ "$(row "$@")" = "constant-time,memcheck+timing" ]; }

for level in generic max; do
	rm -f "$OUT/$level.csv"
	t0=$(date +%s)
	"$CB" --cpu $level ct -v --format csv -o "$OUT/$level.csv" \
		>"$OUT/$level.txt" 2>"$OUT/$level.err"
	rc=$?
	echo "     --cpu $level: $(tail -n 1 "$OUT/$level.txt") ($(( $(date +%s) - t0 )) s)"
	check "--cpu $level: ct ran (exit $rc: 1 when a leak is found)" [ $rc -le 1 ]
	check "--cpu $level: the CSV has a row per implementation" \
		[ "$(tail -n +2 "$OUT/$level.csv" | wc -l)" -eq "$(grep -c '^[a-z0-9]\+  ' "$OUT/$level.txt")" ]
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
check "--cpu generic: native capped out (no implementation at generic)" \
	sh -c "! grep -q '^native ' '$OUT/generic.txt'"
check "--cpu max: native's AES-NI/VAES ECB not flagged" sh -c \
	"row max native 'ecb(aes)' | grep -Eq '^(constant-time|no timing leak found),'"

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
echo "check-ct: $(( $(date +%s) - start )) s"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
