#!/bin/sh
# scripts/plot: PNG charts from handmade result CSVs (quoted fields with
# commas and quotes, two hosts concatenated, speed and dd rows), refusal
# to overwrite without --force, and exit 2 on bad input.  Skipped (77)
# when gnuplot is not installed.
. tests/lib.sh

need gnuplot gnuplot-nox

H=$CSV1_HEADER
row() { csv1_row "$@"; }
speed_rows() {   # HOST SCALE
	for size in 16 64 256 1024 1472 8192; do
		for dir in encrypt decrypt; do
			row "$1" openssl '"essiv(cbc-aes-openssl,ecb-aes-openssl,sha256-openssl)"' \
				'"essiv(cbc(aes),sha256)"' 128 $size $dir $((size * 100000 * $2 / (size + 64))) speed 0 ""
			row "$1" native "essiv-cbc-aes-native's" '"essiv(cbc(aes),sha256)"' 128 $size $dir \
				$((size * 400000 * $2 / (size + 16))) speed 0 ""
		done
	done
}
dd_rows() {      # HOST SCALE
	for auth in "" 'hmac(sha256)'; do
		row "$1" openssl xts-aes-openssl 'xts(aes)' 256 1048576 encrypt $((900000000 * $2)) dd 4096 "$auth"
		row "$1" openssl cbc-blowfish-openssl 'cbc(blowfish)' 128 1048576 encrypt $((200000000 * $2)) dd 4096 "$auth"
	done
}
{ echo "$H"; speed_rows hostA 1; dd_rows hostA 1; } >"$T/a.csv"
{ echo "$H"; speed_rows hostB 2; dd_rows hostB 2; } >"$T/b.csv"
cat "$T/a.csv" "$T/b.csv" >"$T/ab.csv"

is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }

expect_exit 0 "plot two hosts" scripts/plot -o "$T/plots" "$T/ab.csv"
check "speed chart named by alg and key" is_png "$T/plots/speed-essiv-cbc-aes-sha256-128.png"
check "dd bar chart" is_png "$T/plots/dd-encrypt.png"
check "charts listed on stdout" contains "$out" "$T/plots/dd-encrypt.png"
check "exactly two charts" [ "$(ls "$T/plots" | wc -l)" -eq 2 ]
check "no gnuplot warnings" [ -z "$err" ]

before=$(cksum <"$T/plots/dd-encrypt.png")
expect_exit 2 "refuses to overwrite" scripts/plot -o "$T/plots" "$T/a.csv"
check "refusal names the file" contains "$err" "dd-encrypt.png exists"
check "nothing rewritten" [ "$(cksum <"$T/plots/dd-encrypt.png")" = "$before" ]
expect_exit 0 "--force overwrites" scripts/plot --force -o "$T/plots" "$T/a.csv"
check "overwritten" [ "$(cksum <"$T/plots/dd-encrypt.png")" != "$before" ]

expect_exit 0 "several files" scripts/plot -o "$T/p2" "$T/a.csv" "$T/b.csv"
check "several files: speed chart" is_png "$T/p2/speed-essiv-cbc-aes-sha256-128.png"

{ echo "$H"; speed_rows hostA 1; printf 'cryptobench-csv-1,"open\n'; } >"$T/bad.csv"
expect_exit 2 "malformed CSV" scripts/plot -o "$T/p3" "$T/bad.csv"
check "malformed CSV names FILE:LINE" contains "$err" "$T/bad.csv:26:"
check "nothing drawn for bad input" [ ! -e "$T/p3" ]
expect_exit 2 "missing CSV" scripts/plot -o "$T/p3" "$T/nope.csv"
check "missing CSV named" contains "$err" "$T/nope.csv"
echo "$H" >"$T/empty.csv"
expect_exit 77 "no points" scripts/plot -o "$T/p3" "$T/empty.csv"
mkdir "$T/cwd"
case $CB in /*) abs=$CB ;; *) abs=$(pwd)/$CB ;; esac
expect_exit 2 "no file and no results/*.csv" sh -c "cd \"$T/cwd\" && CB=\"$abs\" \"$(pwd)/scripts/plot\""
check "no file explained" contains "$err" "no CSV file given"
expect_exit 2 "unknown option" scripts/plot --frob "$T/a.csv"

finish
