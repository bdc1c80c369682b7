#!/bin/sh
# tests/arm64/part.sh - what `make check-arm64` runs inside the arm64 root
# under qemu-user (scripts/check-arm64, docs/arm64.md): the C tests, the
# known-answer suite on every backend and on native's Crypto Extensions
# path, the peer suite when ../shared is there, every --cpu level's kat,
# sysinfo in arm64's words, and bench-essiv's three sections (format and
# gate only: an emulated time means nothing).  Ends with "N passed, N
# failed".
set -u
CB=./cryptobench
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# check NAME CMD...: the command succeeds (its output shown on failure)
check() {
	n=$1; shift
	if "$@" >/tmp/arm64-part.out 2>&1; then ok "$n"
	else bad "$n"; tail -n 15 /tmp/arm64-part.out | sed 's/^/     /'; fi
}
last_ok() { tail -n 1 "$1" | grep -Eq '^[1-9][0-9]* passed, 0 failed'; }

check "uname -m is aarch64" sh -c '[ "$(uname -m)" = aarch64 ]'
make -s $(ls tests/test_*.c | sed 's|tests/\(.*\)\.c|build/tests/\1|') >/dev/null 2>&1
for t in build/tests/test_*; do
	case $t in *.o|*.d) continue ;; esac
	[ -x "$t" ] || continue
	BUILD=build CB=$CB "$t" >/tmp/arm64-t.out 2>&1
	rc=$?
	if [ $rc = 77 ]; then skip=$((skip + 1)); echo "SKIP $t: $(head -n 1 /tmp/arm64-t.out)"
	elif [ $rc = 0 ]; then ok "$t: $(tail -n 1 /tmp/arm64-t.out)"
	else bad "$t (exit $rc)"; grep -E 'FAIL' /tmp/arm64-t.out | head -n 10 | sed 's/^/     /'; fi
done
check "native: available on the Crypto Extensions path" \
	sh -c "$CB list backends | grep -Eq '^native +[^ ]+ +available'"
check "native: its drivers end in -ce" sh -c "$CB list algs | grep -q 'xts-aes-native-ce'"
$CB kat >/tmp/arm64-kat 2>&1
check "kat vectors/: every backend" last_ok /tmp/arm64-kat
$CB kat --backend native >/tmp/arm64-kat 2>&1
check "kat vectors/ on native (ce)" last_ok /tmp/arm64-kat
# gcm(aes) on ce (PMULL) and rfc4106 through the template over it: their
# rows counted, not only the total
check "kat: gcm(aes) rows on gcm-aes-native-ce" sh -c \
	"grep -Eq '^native +gcm\\(aes\\) +[1-9][0-9]* +0 +[0-9]+ +gcm-aes-native-ce\$' /tmp/arm64-kat"
check "kat: rfc4106 over gcm-aes-native-ce" sh -c \
	"grep -Eq '^native +rfc4106\\(gcm\\(aes\\)\\) +[1-9][0-9]* +0 +[0-9]+ +rfc4106\\(gcm-aes-native-ce\\)\$' /tmp/arm64-kat"
if [ -d ../shared/peer-vectors ]; then
	$CB kat ../shared/peer-vectors >/tmp/arm64-kat 2>&1
	check "peer suite: every backend" last_ok /tmp/arm64-kat
	$CB kat --backend native ../shared/peer-vectors >/tmp/arm64-kat 2>&1
	check "peer suite on native (ce)" last_ok /tmp/arm64-kat
else
	skip=$((skip + 1)); echo "SKIP the peer suite: no ../shared/peer-vectors in this clone"
fi
for l in generic neon ce ce-sha512 max; do
	$CB --cpu $l kat >/tmp/arm64-kat 2>&1
	rc=$?
	if [ $rc = 2 ] && grep -q "this CPU lacks" /tmp/arm64-kat; then
		skip=$((skip + 1)); echo "SKIP --cpu $l: $(head -n 1 /tmp/arm64-kat)"
	else
		check "--cpu $l: kat" last_ok /tmp/arm64-kat
	fi
done
check "--cpu generic: native capped out, said" \
	sh -c "$CB --cpu generic list backends | grep -q '^native .*capped below the Crypto Extensions'"
# cryptobench ct: the timing test runs here; memcheck where valgrind runs
# under qemu-user (if it does not, each row says why)
$CB ct --backend native --backend openssl --alg 'cbc(aes)' --alg 'cbc(blowfish)' \
	--alg 'gcm(aes)' \
	--measurements 2000 -v >/tmp/arm64-ct 2>&1
ctrc=$?
check "ct: ran (exit $ctrc), a verdict for native's cbc(aes)" sh -c \
	"[ $ctrc -le 1 ] && grep -Eq '^native +cbc\\(aes\\) +(constant-time|no timing leak found|secret-dependent)' /tmp/arm64-ct"
check "ct: native's gcm(aes) (ce, PMULL) has a verdict, not a leak" sh -c \
	"grep -Eq '^native +gcm\\(aes\\) +(constant-time|no timing leak found)' /tmp/arm64-ct"
if grep -q 'memcheck+timing' /tmp/arm64-ct; then
	check "ct: memcheck calls native's gcm(aes) constant-time" \
		grep -Eq '^native +gcm\(aes\) +constant-time' /tmp/arm64-ct
fi
check "ct: memcheck ran, or each row says why not" sh -c \
	"grep -q 'memcheck+timing' /tmp/arm64-ct || grep -q 'memcheck: ' /tmp/arm64-ct"
grep -E '^(native|openssl) |memcheck: ' /tmp/arm64-ct | head -n 6 | sed 's/^/     /'
$CB sysinfo >/tmp/arm64-sys 2>&1
check "sysinfo: the core named from MIDR_EL1" grep -Eq '^cpu +(ARM|QEMU|Apple|Ampere|NVIDIA|Qualcomm|HiSilicon|Cavium|Broadcom) ' /tmp/arm64-sys
check "sysinfo: the generic timer's frequency" grep -Eq '^timer .*generic timer [0-9.]+ MHz, CNTFRQ_EL0' /tmp/arm64-sys
check "sysinfo: arm64 features (AT_HWCAP)" grep -Eq 'aes pmull' /tmp/arm64-sys
check "sysinfo: no x86 words" sh -c "! grep -Eiq 'avx|sse|pclmulqdq|aes-ni|aesni|vaes' /tmp/arm64-sys"
check "sysinfo: the native limit measured on AESE+AESMC" grep -q 'AESE+AESMC pairs/cycle on ce' /tmp/arm64-sys
check "sysinfo: the combined AES-GCM bound (AESE/AESMC + PMULL)" \
	grep -Eq 'AES-GCM bound \(AES \+ PMULL, measured\) [0-9.]+ c/B AES-128, [0-9.]+ c/B AES-256' /tmp/arm64-sys
check "native: gcm-aes-native-ce listed" sh -c "$CB list algs | grep -q 'gcm-aes-native-ce'"
SEC=0.01 BACKENDS='native gcrypt' SIZES=16,8192 OUTDIR=/tmp/arm64-res \
	scripts/bench-essiv >/tmp/arm64-essiv 2>&1
check "bench-essiv: the generic template's section" \
	grep -Eq '^testing speed of async essiv\(cbc\(aes\),sha256\) \(essiv\(cbc-aes-[a-z]+,ecb-aes-[a-z]+,sha256-[a-z]+\)\) encryption' /tmp/arm64-essiv
check "bench-essiv: the fused CE section" \
	grep -Eq '^testing speed of async essiv\(cbc\(aes\),sha256\) \(essiv-cbc-aes-native-ce\) encryption' /tmp/arm64-essiv
check "bench-essiv: bare cbc(aes)" \
	grep -Eq '^testing speed of async cbc\(aes\) \(cbc-aes-native-ce\) encryption' /tmp/arm64-essiv
check "bench-essiv: tcrypt's rows" grep -Eq '^tcrypt: test 0 \(128 bit key, 16 byte blocks\): [0-9]+ ops/s \( *[0-9]+ bytes\)$' /tmp/arm64-essiv
[ $skip -gt 0 ] && echo "$skip skipped"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
