#!/bin/sh
# tests/valgrind.sh - `make check-valgrind`: the C test binaries and the
# commands the command-line tests exercise, each under valgrind memcheck
# (no invalid access, no use of uninitialised values, no definite or
# indirect leak).  The shell tests run hundreds of short commands; under
# memcheck (20-50x slower) that would take most of an hour, so this runs
# every C test whole and one representative command per code path of the
# binary: kat on every backend, speed per cipher model and writer, dd for
# geli with and without authentication and dm-crypt (write, then read back
# and verify), compare, report and bench on a tiny budget.  Valgrind
# presents a CPU without VAES, so the native backend runs its AES-NI path
# and libgcrypt its AES-NI/AVX2 code.  Ends with "N passed, N failed".
set -u
BUILD=${BUILD:-build}
CB=${CB_BIN:-./cryptobench}
VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --track-origins=yes"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0

vg() {   # name command... : the command under memcheck; exit 99 = errors
	name=$1; shift
	log="$tmp/log"
	# shellcheck disable=SC2086
	$VG "$@" >"$log" 2>&1
	rc=$?
	if [ $rc -eq 99 ] || grep -q '^==[0-9]*== ' "$log"; then
		fail=$((fail + 1))
		echo "FAIL $name (memcheck):"; grep '^==' "$log" | head -40
	elif [ $rc -ne 0 ] && [ $rc -ne 1 ] && [ $rc -ne 77 ] && [ $rc -ne "${WANT_RC:-0}" ]; then
		fail=$((fail + 1))
		echo "FAIL $name (exit $rc):"; tail -5 "$log"
	else
		pass=$((pass + 1)); echo "ok   $name"
	fi
}

for t in "$BUILD"/tests/test_*; do
	case $t in *.o|*.d) continue ;; esac
	[ -x "$t" ] && [ -f "$t" ] && vg "$(basename "$t")" "$t"
done
for b in openssl gcrypt nettle native; do
	vg "kat --backend $b" "$CB" kat --backend "$b"
done
vg "kat --format junit" "$CB" kat --backend openssl --format junit
vg "speed tcrypt" "$CB" speed --alg 'cbc(aes)' --alg 'xts(aes)' --sizes 16,4096 --sec 0.01
vg "speed essiv sector csv" "$CB" speed --alg 'essiv(cbc(aes),sha256)' --sector-size 512 --sizes 4096 --sec 0.01 --format csv -o "$tmp/s.csv"
vg "speed --mb json" "$CB" speed --backend native --alg 'essiv(cbc(aes),sha256)' --mb 8 --sizes 16 --sec 0.01 --format json
vg "speed hmac table" "$CB" speed --alg 'hmac(sha256)' --alg sha1 --sizes 64,1024 --sec 0.01 --format table
head -c 128 /dev/urandom > "$tmp/key" || exit 2
head -c 262144 /dev/urandom > "$tmp/in" || exit 2
vg "dd geli aes hmac" "$CB" dd -e aes -l 256 -a hmac/sha256 -K "$tmp/key" if="$tmp/in" of="$tmp/img" bs=65536 -j 2
vg "dd geli decrypt" "$CB" dd -e aes -l 256 -a hmac/sha256 -K "$tmp/key" if="$tmp/img" of="$tmp/out" bs=65536 --decrypt
cmp -s "$tmp/in" "$tmp/out" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL dd read-back differs"; }
head -c 32 /dev/urandom > "$tmp/key2"
vg "dd dm-crypt essiv" "$CB" dd -e aes-cbc-essiv:sha256 -l 256 -K "$tmp/key2" if="$tmp/in" of="$tmp/img2" --format csv
vg "dd baseline" "$CB" dd -e none count=64
vg "tcrypt log csv" "$CB" tcrypt --log tests/data/tcrypt/mode500-cycles.log --alg 'xts(aes)' --format csv
vg "compare seeds" "$CB" compare results/reference/tcrypt-seed.csv results/reference/tcrypt-seed.csv
vg "compare samples" "$CB" compare "$tmp/s.csv" "$tmp/s.csv"
mkdir "$tmp/bench"
vg "bench tiny" "$CB" bench --backend openssl --budget 2 --sizes 4096 -o "$tmp/bench"
vg "report" "$CB" report "$tmp/s.csv" -o "$tmp/rep"
WANT_RC=2 vg "bad vector file" "$CB" kat /dev/null/x
printf 'alg = cbc(aes)\nkey = zz\n' > "$tmp/bad.vec"
WANT_RC=2 vg "malformed vector file" "$CB" kat "$tmp/bad.vec"
printf 'schema,alg\n"unterminated\n' > "$tmp/bad.csv"
WANT_RC=2 vg "malformed csv" "$CB" compare "$tmp/bad.csv" "$tmp/s.csv"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
