#!/bin/sh
# cryptobench import (docs/import.md): each format read from real, published
# outputs (results/reference/, sources in its README), recognised by its
# content and forced with --format; the figures as the text states them;
# a line it cannot read is an error naming FILE:LINE with exit 2 and nothing
# written, unless --skip-bad; the reference library's CSVs are what
# scripts/import-reference makes from its texts.
. tests/lib.sh
R=results/reference

# imp NAME FILE [ARGS...]: import FILE (exit 0) into $T/NAME.csv
imp() {
	n=$1 f=$2; shift 2
	expect_exit 0 "import $n" "$CB" import "$@" -o "$T/$n.csv" "$f"
}
rows() { tail -n +2 "$T/$1.csv" | wc -l | tr -d ' '; }
has() { grep -qF -- "$2" "$T/$1.csv"; }
count() { grep -cF -- "$2" "$T/$1.csv"; }

# cryptsetup 2.x: the comment, five PBKDF2 lines, two Argon2 lines, the
# wide header, twelve cipher rows -> 5 + 2 + 24 rows
imp cs2 $R/cryptsetup-i5-8500t.txt
check "cryptsetup 2.x: 31 rows" [ "$(rows cs2)" = 31 ]
check "cryptsetup 2.x: aes-xts 256b 2373.3 MiB/s as bytes/s of 64 KiB requests" \
	has cs2 ",xts(aes),256,65536,encrypt,37972.80,2488585421,"
check "cryptsetup: PBKDF2-sha256 iterations/s" \
	has cs2 ",cryptsetup,,,pbkdf2(hmac(sha256)),0,0,derive,,1913459,"
check "cryptsetup: the argon2id cost kept, not taken for a rate" \
	has cs2 "1048576 KiB, 4 threads (not a rate)"
check "cryptsetup: the tool named, unknown provenance empty" \
	has cs2 "cryptobench-csv-5,cryptsetup benchmark,,,,"
check "cryptsetup: the source (the path) in every row" \
	[ "$(count cs2 "imported from $R/cryptsetup-i5-8500t.txt")" = 31 ]
# N/A: every cipher row, in a mail's two-space indent
imp csna $R/cryptsetup-unknown-amd64-na.txt
check "cryptsetup N/A rows: skipped, with the reason" \
	[ "$(count csna ",skipped,N/A in cryptsetup's output,")" = 24 ]
# 1.x: the narrow header, no Argon2, serpent and twofish N/A
imp cs1 $R/cryptsetup-cloudflare-g9.txt
check "cryptsetup 1.x: 29 rows, 16 of them N/A" \
	[ "$(rows cs1)" = 29 ] && [ "$(count cs1 ",skipped,")" = 16 ]
check "cryptsetup 1.x: aes-xts 512b decrypt 1765.8 MiB/s" \
	has cs1 ",xts(aes),512,65536,decrypt,28252.80,1851575501,"
# decimal commas (German locale)
imp csde $R/cryptsetup-i7-4720hq.txt
check "cryptsetup: a decimal comma read (690,1 MiB/s)" \
	has csde ",cbc(aes),128,65536,encrypt,11041.60,723622298,"

# real cryptsetup 2.6.1 output, taken in make check-kernel's guest (Debian
# 12's cryptsetup-bin against Linux 6.1 under qemu TCG: the speeds are the
# emulator's) by tests/kernel/import.part; PBKDF2-whirlpool is N/A there
imp csg tests/data/cryptsetup-2.6.1-guest.txt
check "cryptsetup 2.6.1: 31 rows, whirlpool's N/A skipped" \
	[ "$(rows csg)" = 31 ] && has csg ",cryptsetup,,,pbkdf2(hmac(whirlpool)),0,0,derive,,,,,,0,,,speed,skipped,N/A in cryptsetup's output,"
check "cryptsetup 2.6.1: serpent-xts 256b decrypt 15.6 MiB/s" \
	has csg ",kernel,,,xts(serpent),256,65536,decrypt,249.60,16357786,"

# openssl speed: the table with its version and build lines; k = 1000s
imp os $R/openssl-nanopi-r2s-cortex-a53.txt
check "openssl table: six sizes" [ "$(rows os)" = 6 ]
check "openssl: 106865.63k at 16 bytes, chained (iv once)" \
	has os ",openssl,OpenSSL 1.1.1g  21 Apr 2020,,cbc(aes),128,16,encrypt,6679101.88,106865630,"
check "openssl: the tool and its version" has os '"openssl speed, OpenSSL 1.1.1g  21 Apr 2020"'
imp os2 $R/openssl-nanopi-r2s-cortex-a53-2.txt
check "openssl: the table alone, gcm" has os2 ",gcm(aes),128,16384,encrypt,"
# -mr: no published one was found; these lines are made from the table
# above in -mr's layout (+H sizes, +F bytes per second; +DT/+R counts)
printf '+DT:aes-128-cbc:3:16\n+R:1:aes-128-cbc:3.00\n+H:16:64\n+F:22:aes-128-cbc:106865630.00:325850300.00\n' >"$T/mr.txt"
imp mr "$T/mr.txt"
check "openssl -mr: +F figures are bytes/s" has mr ",cbc(aes),128,64,encrypt,5091410.94,325850300,"

# tcrypt: the kernel module's lines, the existing reader
imp tc $R/tcrypt-i7-8650u.txt
check "tcrypt: 12 rows" [ "$(rows tc)" = 12 ]
check "tcrypt: the 1420-byte request, driver kept" \
	has tc ",kernel-tcrypt,,xts-aes-aesni,xts(aes),256,1420,encrypt,3160481.00,4487883020,"
imp tcs $R/tcrypt-seed.txt
check "tcrypt: the seed's 'ops/s' form, 108 rows" [ "$(rows tcs)" = 108 ]

# bssl speed: three generations of the Did line
imp bs1 $R/bssl-xeon-gold-6154.txt
check "bssl (MB/sec form): from the count and the time" \
	has bs1 ",bssl,,,gcm(aes),128,16,encrypt,11423100.19,182769603,"
imp bs2 $R/bssl-apple-m1-pro.txt
check "bssl (ops/sec form): 10 rows" [ "$(rows bs2)" = 10 ]
imp bs3 $R/bssl-graviton2-awslc.txt
check "bssl (AWS-LC): the init line has no size: 5 rows" [ "$(rows bs3)" = 5 ]
printf '[\n{"description": "AES-256-GCM (8192 bytes) open", "numCalls": 1000, "microseconds": 2000000, "bytesPerCall": 8192},\n{"description": "RSA 2048 signing", "numCalls": 10, "microseconds": 1000000}\n]\n' >"$T/bs.json"
imp bsj "$T/bs.json"
check "bssl -json: open is decrypt, 500 calls/s" \
	has bsj ",gcm(aes),256,8192,decrypt,500.00,4096000,"
check "bssl -json: a signature has no row" [ "$(rows bsj)" = 1 ]
# counts whose product no run makes (a fuzz finding: a conversion out of
# range) are the line's error
printf 'Did 47670004767000 EVP-AES-128-GCM encrypt (4357416 bytes) operations in 1000134us\n' >"$T/bshuge.txt"
expect_exit 2 "bssl: calls x bytes beyond 2^63 is an error" "$CB" import "$T/bshuge.txt"
check "... naming the line" contains "$err" "bshuge.txt:1: expected a bssl speed line"
printf '{"description": "AES-256-GCM open", "numCalls": 1e300, "microseconds": 2, "bytesPerCall": 1e300}\n' >"$T/bshuge.json"
expect_exit 2 "bssl -json: a size beyond 2^63 is an error" "$CB" import "$T/bshuge.json"

# bench-slope: with and without the auto Mhz column, and the hash layout
imp sl $R/bench-slope-ryzen9-9950x3d.txt
check "bench-slope: 16 rows, the slope and its measured clock" \
	[ "$(rows sl)" = 16 ] && has sl ",gcrypt,,,ecb(aes),128,0,encrypt,,65023246336,0.015379,0.0850,5.5530,"
imp sl2 $R/bench-slope-core2-t8100.txt
check "bench-slope without a clock column: ghz empty" \
	has sl2 ",ecb(aes),128,0,encrypt,,173224755,5.772847,12.1300,,1,"
imp slh $R/bench-slope-graviton3.txt
check "bench-slope hash layout: sha512 digest" has slh ",gcrypt,,,sha512,0,0,digest,"

# geli: the seed's commands and dd summaries
imp ge $R/geli-seed.txt
check "geli: 17 rows" [ "$(rows ge)" = 17 ]
check "geli: -e aes -l 256 is xts(aes) 512, 4096-byte sectors" \
	has ge ",freebsd-geli,,,xts(aes),512,1048576,encrypt,47.36,49657289,"
check "geli: -a hmac/md5 canonical" has ge ",per-sector,4096,1,hmac(md5),"

# provenance given beside the text
imp src $R/bssl-skylake.txt --source https://example.org/post --set cpu_model=SkyLake --set cpu_family=6
check "--source and --set in the rows" has src ",SkyLake,,bssl," &&
	has src "imported from https://example.org/post"
expect_exit 2 "--set of a measured column refused" \
	"$CB" import --set ops_per_sec=1 $R/bssl-skylake.txt
check "--set: the message names it" contains "$err" "--set 'ops_per_sec=1'"

# recognised by content; --format forces
printf 'type 16 bytes 64 bytes\naes-128-cbc 1.00k 2.00k\n' >"$T/bare.txt"
expect_exit 2 "a text with no line only one format prints" "$CB" import "$T/bare.txt"
check "unknown format: the message says so and names --format" \
	contains "$err" "not an output import reads" && contains "$err" "--format"
imp forced "$T/bare.txt" --format openssl
check "--format openssl reads it" has forced ",cbc(aes),128,64,encrypt,31.25,2000,"
expect_exit 2 "--format forcing the wrong format fails" \
	"$CB" import --format cryptsetup $R/tcrypt-i7-8650u.txt
check "... naming the first line" contains "$err" "tcrypt-i7-8650u.txt:1: expected a cryptsetup benchmark line"
expect_exit 2 "--format nosuch" "$CB" import --format nosuch $R/geli-seed.txt
check "--format nosuch: the formats listed" contains "$err" "cryptsetup, openssl, tcrypt, bssl, bench-slope, geli"

# a malformed line: FILE:LINE, exit 2, nothing written (not even the other file)
sed '10s/2380.0 MiB\/s/fast/' $R/cryptsetup-i5-8500t.txt >"$T/bad.txt"
expect_exit 2 "a malformed cipher row" "$CB" import -o "$T/none.csv" $R/geli-seed.txt "$T/bad.txt"
check "the message names FILE:LINE and what was expected" \
	contains "$err" "bad.txt:10: expected a cryptsetup benchmark line"
check "nothing written" [ ! -e "$T/none.csv" ]
expect_exit 2 "to stdout: nothing written either" "$CB" import "$T/bad.txt"
check "stdout empty" [ -z "$out" ]
imp skip "$T/bad.txt" --skip-bad
check "--skip-bad: the row's two directions left out" [ "$(rows skip)" = 29 ]
check "--skip-bad: a warning naming FILE:LINE" contains "$err" "bad.txt:10: skipped"
printf 'testing speed of async xts(aes) (xts-aes-aesni) encryption\ntcrypt: test 0 (256 bit key, 16 byte blocks): many operations\n' >"$T/badtc.txt"
expect_exit 2 "tcrypt: an unreadable test line" "$CB" import "$T/badtc.txt"
check "tcrypt: FILE:LINE" contains "$err" "badtc.txt:2: expected"
expect_exit 2 "a missing file" "$CB" import "$T/nosuch.txt"
expect_exit 2 "no file" "$CB" import

# compare reads an import
expect_exit 0 "compare reads imported rows" "$CB" compare "$T/cs2.csv" "$T/cs2.csv"

# the reference library: every text imports, and the CSVs are what it makes
mkdir "$T/ref"
expect_exit 0 "scripts/import-reference" env CB_BIN="$CB" scripts/import-reference "$T/ref"
for f in $R/*.txt; do
	n=$(basename "$f" .txt)
	check "$n.csv is what import makes of $n.txt" cmp -s "$T/ref/$n.csv" "$R/$n.csv"
done
finish
