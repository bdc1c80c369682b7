#!/bin/sh
# speed --format cryptsetup: `cryptsetup benchmark`'s output, line for line
# in its layout (src/cryptsetup.c action_benchmark, docs/cryptsetup.md):
# its comment line, the PBKDF2 lines (N/A for what was not measured, and
# for whirlpool, which cryptobench lacks), the Argon2 cost found for a
# requested time, the table header, and the twelve cipher rows (N/A where
# nothing measured them); the reference transcription reads in compare.
. tests/lib.sh

line() { printf '%s\n' "$out" | grep -Eq "$1"; }
expect_exit 0 "cryptsetup: serpent-cbc and PBKDF2-sha1 on nettle" \
	"$CB" speed --format cryptsetup --backend nettle --alg 'cbc(serpent)' \
	--alg 'pbkdf2(hmac(sha1))' --key-bits 128 --sizes 4096 --sec 0.05 --no-progress
check "line 1: cryptsetup's comment" [ "$(printf '%s\n' "$out" | sed -n 1p)" = \
	"# Tests are approximate using memory only (no storage IO)." ]
check "PBKDF2-sha1: iterations per second for a 256-bit key" \
	line '^PBKDF2-sha1 +[1-9][0-9]* iterations per second for 256-bit key$'
check "PBKDF2-sha1: %-9s then %7u" line '^PBKDF2-sha1      [ 0-9]{6,}[0-9] iterations'
check "PBKDF2-sha256 not measured: N/A" line '^PBKDF2-sha256        N/A$'
check "PBKDF2-whirlpool: N/A (cryptobench has no whirlpool)" line '^PBKDF2-whirlpool     N/A$'
check "the table's header" line '^#     Algorithm \|       Key \|      Encryption \|      Decryption$'
check "serpent-cbc 128b: MiB/s both ways" \
	line '^    serpent-cbc        128b +[0-9]+\.[0-9] MiB/s +[0-9]+\.[0-9] MiB/s$'
check "aes-cbc not measured: N/A in cryptsetup's columns" \
	line '^        aes-cbc        128b               N/A               N/A$'
check "serpent-cbc 128b: its 95 % CI both ways and its backend, as a comment" \
	line '^# serpent-cbc 128b: encryption \[[0-9]+\.[0-9], [0-9]+\.[0-9]\] MiB/s \([a-z]+\), decryption \[[0-9]+\.[0-9], [0-9]+\.[0-9]\] MiB/s \([a-z]+\)$'
check "no CI line for a row nothing measured" sh -c "! printf '%s\n' \"\$1\" | grep -q '^# aes-cbc 128b'" - "$out"
check "twelve rows" [ "$(printf '%s\n' "$out" | grep -Ec '^ +[a-z]+-(cbc|xts) +[0-9]+b ')" -eq 12 ]
check "rows in cryptsetup's order: aes, serpent, twofish; cbc 128, 256, xts 256, 512" sh -c \
	"printf '%s\n' \"\$1\" | awk '/b  /{ print \$1 \$2 }' | tr '\n' ' ' | grep -qx 'aes-cbc128b serpent-cbc128b twofish-cbc128b aes-cbc256b serpent-cbc256b twofish-cbc256b aes-xts256b serpent-xts256b twofish-xts256b aes-xts512b serpent-xts512b twofish-xts512b '" - "$out"
check "no Argon2 line when none was asked for" sh -c "! printf '%s\n' \"\$1\" | grep -q '^argon2'" - "$out"

expect_exit 0 "cryptsetup: argon2id's cost for 300 ms on gcrypt" \
	"$CB" speed --format cryptsetup --backend gcrypt --alg argon2id --iter-time 300 --no-progress
check "argon2id: cryptsetup's line, 4 lanes, the requested time" \
	line '^argon2id +[0-9]+ iterations, +[0-9]+ memory, 4 parallel threads \(CPUs\) for 256-bit key \(requested 300 ms time\)$'
check "argon2id: at least 4 passes and cryptsetup's 64 MiB floor" sh -c \
	"printf '%s\n' \"\$1\" | awk '/^argon2id/ { exit !(\$2 >= 4 && \$4 + 0 >= 65536) }'" - "$out"
expect_exit 0 "cryptsetup: argon2i where no backend has it" \
	"$CB" speed --format cryptsetup --backend openssl --alg argon2i --no-progress
check "argon2i on openssl: N/A" line '^argon2i    N/A$'
expect_exit 2 "--iter-time 0 refused" "$CB" speed --format cryptsetup --iter-time 0
check "--iter-time: the message names it" contains "$err" "--iter-time: '0'"

# the published run imported (results/reference/, scripts/import-reference):
# compare reads it; 29 rows: five PBKDF2 lines (whirlpool too) and 24 cipher rows
"$CB" speed --format csv --backend openssl --alg 'cbc(aes)' --key-bits 128 \
	--sizes 65536 --sec 0.05 --no-progress -o "$T/cs.csv" 2>/dev/null
expect_exit 0 "compare: the cryptsetup reference beside a host" \
	"$CB" compare results/reference/cryptsetup-i7-4720hq.csv "$T/cs.csv" --ignore backend,driver --allow-missing
check "compare: 29 points in the reference" contains "$out" "29 points from 29 rows"
check "compare: aes-cbc 128 encrypt matched" sh -c \
	"printf '%s\n' \"\$1\" | grep -Eq '^cbc\\(aes\\) +128 +65536 +encrypt .* 723\\.6 '" - "$out"
finish
