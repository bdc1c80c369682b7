#!/bin/sh
# tests/test_reference.sh - `compare --reference [DIR] HOST.csv...` (issue 44,
# item 4; docs/compare.md "Placing a host among the references"): a small
# library made here with `cryptobench import` from cryptsetup benchmark
# texts written here, a host file from `speed --format csv` on OpenSSL
# and one imported from a cryptsetup text; the placement rows, ranks,
# the per-GHz column's presence, `unsure`, a host of two files, the
# libraries' own lines, --format csv, and exit 2 on bad input.
. tests/lib.sh

# cs_text FILE AES_CBC128_ENC AES_CBC128_DEC PBKDF2_SHA256 ARGON2ID_MEM:
# a cryptsetup benchmark output with those figures (others N/A).
cs_text() {
	cat >"$1" <<EOT
# Tests are approximate using memory only (no storage IO).
PBKDF2-sha1           N/A
PBKDF2-sha256    $4 iterations per second for 256-bit key
argon2id      4 iterations, $5 memory, 4 parallel threads (CPUs) for 256-bit key (requested 2000 ms time)
#     Algorithm |       Key |      Encryption |      Decryption
        aes-cbc        128b       $2 MiB/s      $3 MiB/s
        aes-xts        512b        N/A        N/A
EOT
}
mkdir -p "$T/ref" "$T/ref2"
cs_text "$T/slow.txt" 1.5 2.5 1000 65536
cs_text "$T/fast.txt" 900000.0 900000.0 900000000 1048576
cs_text "$T/mid.txt" 400.0 400.0 500000 262144
for n in slow fast; do
	expect_exit 0 "import $n" $CB import -o "$T/ref/cs-$n.csv" "$T/$n.txt"
done
expect_exit 0 "import mid (the host)" $CB import -o "$T/mid.csv" "$T/mid.txt"

# A host file from speed: OpenSSL only (no kernel backend: a stand-in).
expect_exit 0 "speed host" $CB speed --backend openssl --alg 'cbc(aes)' \
	--alg 'pbkdf2(hmac(sha256))' --key-bits 128 --sizes 65536 --sec 0.05 \
	--format csv -o "$T/host.csv"

expect_exit 0 "placed (default-looking shape: DIR HOST)" \
	$CB compare --reference "$T/ref" "$T/host.csv"
check "cbc enc rank 2nd of 3" contains "$out" \
	"aes-cbc 128b encryption: this host is 2nd of 3
  (this host: openssl cbc-aes-openssl, 64 KiB requests"
check "cbc dec rank 2nd of 3" contains "$out" \
	"aes-cbc 128b decryption: this host is 2nd of 3"
check "stand-in said" contains "$out" \
	"no kernel driver on this host: its fastest backend stands in"
check "pbkdf2 rank" contains "$out" "PBKDF2-sha256: this host is 2nd of 3"
check "argon2 not placed" contains "$out" \
	"argon2id: not placed (this host's file has no point for it)"
check "xts N/A not placed" contains "$out" \
	"aes-xts 512b encryption: not placed (this host's file has no point"
check "unsure against one value" contains "$out" "unsure"
check "no per GHz without a reference clock" sh -c \
	'! printf "%s" "$1" | grep -q " per GHz  verdict"' _ "$out"
check "summary" contains "$out" \
	"placed: 1 of 12 cipher rows (2 of 24 directions), 1 of 4 PBKDF2 lines, 0 of 2 Argon2 lines"
# The fast reference's ratio: host / 900000 MiB/s is far below 1.
check "ratio below 1 listed first" sh -c \
	'printf "%s" "$1" | grep -A4 "aes-cbc 128b encryption" |
	 grep -q "^ *1  *cs-fast.csv  *cs-fast.csv .*0\.00  unsure"' _ "$out"

# HOST DIR order works too; the host's own file in DIR is left out.
cp "$T/host.csv" "$T/ref/host.csv"
expect_exit 0 "HOST DIR order" $CB compare --reference "$T/ref/host.csv" "$T/ref"
check "own file left out" contains "$out" \
	"aes-cbc 128b encryption: this host is 2nd of 3"

# A reference with a spread and a clock: a copy of the host's rows as
# kernel rows.  Verdict by spread, and the per-GHz column appears.
rm "$T/ref/host.csv"
sed 's/,openssl,/,kernel,/' "$T/host.csv" >"$T/ref/copy.csv"
expect_exit 0 "with a measured reference" $CB compare --reference "$T/ref" "$T/host.csv"
check "3rd of 4 (ties: the host after)" contains "$out" \
	"aes-cbc 128b encryption: this host is 3rd of 4"
check "per GHz column" contains "$out" " per GHz  verdict"
check "same speed: within spread" sh -c \
	'printf "%s" "$1" | grep -q "copy.csv .* 1\.00    1\.00  within spread"' _ "$out"
rm "$T/ref/copy.csv"

# A library's own points (here a copy of the host's OpenSSL rows) against
# the host's same library: the median ratio of that one pair.
cp "$T/host.csv" "$T/ref/same.csv"
expect_exit 0 "libraries' own points" $CB compare --reference "$T/ref" "$T/host.csv"
check "openssl against openssl, 2 points, ratio 1" sh -c \
	'printf "%s" "$1" | grep -Eq "^  same.csv .* openssl +2 +1\.00 +1\.00-1\.00 +1\.00 +openssl$"' _ "$out"
check "cipher tables unchanged by it" contains "$out" \
	"aes-cbc 128b encryption: this host is 2nd of 3"
rm "$T/ref/same.csv"

# A host from an imported cryptsetup text: the kernel's rows, no stand-in;
# Argon2 from the cost lines: 4 x 256 MiB / 2 s / 4 lanes = 128 MiB/s.
expect_exit 0 "imported host" $CB compare --reference "$T/ref" "$T/mid.csv"
check "argon2id placed 2nd" contains "$out" \
	"argon2id: this host is 2nd of 3
  (this host: cryptsetup"
check "argon2id rate" sh -c \
	'printf "%s" "$1" | grep -q "this host .* 128\.0 "' _ "$out"
check "no stand-in" sh -c '! printf "%s" "$1" | grep -q "its fastest backend stands in"' _ "$out"
check "both KDF lines placed" contains "$out" \
	"1 of 4 PBKDF2 lines, 1 of 2 Argon2 lines"

# The host's bench and its imported cryptsetup run together, one side:
# the kernel's rows and cryptsetup's own lines beat the stand-ins.
expect_exit 0 "two host files" $CB compare --reference "$T/ref" "$T/host.csv" "$T/mid.csv"
check "two files: cbc row is the kernel's" contains "$out" \
	"aes-cbc 128b encryption: this host is 2nd of 3
  (this host: kernel 64 KiB requests)"
check "two files: PBKDF2 is cryptsetup's" contains "$out" \
	"PBKDF2-sha256: this host is 2nd of 3
  (this host: cryptsetup"
check "two files: nothing stood in" sh -c \
	'! printf "%s" "$1" | grep -q "its fastest backend stands in"' _ "$out"
check "two files: summary" contains "$out" \
	"placed: 1 of 12 cipher rows (2 of 24 directions), 1 of 4 PBKDF2 lines, 1 of 2 Argon2 lines"
expect_exit 2 "two directories" $CB compare --reference "$T/ref" "$T/ref2" "$T/host.csv"
check "says one directory" contains "$err" "one reference directory"

# --format csv: one CSV of the placements, the summary on stderr.
expect_exit 0 "csv" $CB compare --reference "$T/ref" "$T/mid.csv" --format csv
check "csv header" sh -c 'printf "%s\n" "$1" | head -n 1 | grep -qx "section,line,unit,rank,of,source,cpu,ghz,value,ratio,ratio_per_ghz,verdict,implementation,standin,points,ratio_min,ratio_max"' _ "$out"
check "csv: every row 17 fields" sh -c \
	'printf "%s\n" "$1" | awk -F, "NF != 17 { exit 1 }"' _ "$out"
check "csv: the host's row, 2nd of 3" contains "$out" \
	"cryptsetup,aes-cbc 128b encryption,MiB/s,2,3,mid.csv,mid.csv,,400,,,this host,kernel,0,,,"
check "csv: the fast reference's ratio and verdict" contains "$out" \
	"cryptsetup,aes-cbc 128b encryption,MiB/s,1,3,cs-fast.csv,cs-fast.csv,,900000,0.0004,,unsure,kernel,0,,,"
check "csv: a line not placed" contains "$out" \
	"cryptsetup,aes-xts 512b encryption,MiB/s,,,,,,,,,not placed: this host's file has no point for it,,,,,"
check "csv: no table text" sh -c '! printf "%s" "$1" | grep -q "this host is"' _ "$out"
check "csv: summary on stderr" contains "$err" "compare --reference: placed: 1 of 12 cipher rows"

# A reference file of several libraries: one line for each, against the
# host's same library.
expect_exit 0 "speed host2" $CB speed --backend openssl --backend gcrypt \
	--alg 'cbc(aes)' --key-bits 128 --sizes 65536 --sec 0.05 --format csv \
	-o "$T/host2.csv"
cp "$T/host2.csv" "$T/ref/two-libs.csv"
expect_exit 0 "two libraries in one file" $CB compare --reference "$T/ref" "$T/host2.csv"
check "openssl's line" sh -c \
	'printf "%s" "$1" | grep -Eq "^  two-libs.csv .* openssl +2 +1\.00 +1\.00-1\.00 +1\.00 +openssl$"' _ "$out"
check "gcrypt's line" sh -c \
	'printf "%s" "$1" | grep -Eq "^  two-libs.csv .* gcrypt +2 +1\.00 +1\.00-1\.00 +1\.00 +gcrypt$"' _ "$out"
expect_exit 0 "two libraries, csv" $CB compare --reference "$T/ref" "$T/host2.csv" --format csv
check "csv: a library row" sh -c \
	'printf "%s\n" "$1" | grep -Eq "^library,gcrypt,ratio,,,two-libs.csv,[^,]*,[0-9.]*,,1.0000,[0-9.]*,,gcrypt,0,2,1.0000,1.0000$"' _ "$out"
rm "$T/ref/two-libs.csv"

# Slower than every reference is still placement: exit 0.
cs_text "$T/ref/faster.txt" 1000000.0 1000000.0 1000000000 1048576
expect_exit 0 "import faster" $CB import -o "$T/ref/cs-faster.csv" "$T/ref/faster.txt"
expect_exit 0 "last is exit 0" $CB compare --reference "$T/ref" "$T/mid.csv"
check "argon2id 3rd of 4" contains "$out" "argon2id: this host is 3rd of 4"
rm "$T/ref/cs-faster.csv" "$T/ref/faster.txt"

# Nothing to place (a host whose every line is N/A): exit 77, said.
printf '#     Algorithm |       Key |      Encryption |      Decryption\n        aes-cbc        128b        N/A        N/A\n' >"$T/na.txt"
expect_exit 0 "import N/A host" $CB import -o "$T/na.csv" "$T/na.txt"
expect_exit 77 "nothing placed" $CB compare --reference "$T/ref" "$T/na.csv"
check "says none placed" contains "$out" "placed: 0 of 12 cipher rows"

# Bad input: exit 2, the message names it.
expect_exit 2 "missing DIR" $CB compare --reference "$T/nope" "$T/host.csv"
check "names DIR" contains "$err" "$T/nope"
expect_exit 2 "missing host file" $CB compare --reference "$T/ref" "$T/none.csv"
check "names host file" contains "$err" "$T/none.csv"
expect_exit 2 "empty DIR" $CB compare --reference "$T/ref2" "$T/host.csv"
check "says no CSV" contains "$err" "no result CSV"
expect_exit 2 "host is a directory" $CB compare --reference "$T/ref"
check "says directory" contains "$err" "is a directory"
printf 'schema,alg\nx\n' >"$T/ref2/bad.csv"
expect_exit 2 "malformed reference" $CB compare --reference "$T/ref2" "$T/host.csv"
check "names FILE:LINE" contains "$err" "bad.csv:"
CRYPTOBENCH_REFERENCE="$T/ref" expect_exit 0 "CRYPTOBENCH_REFERENCE" \
	$CB compare --reference "$T/host.csv"
check "env dir used" contains "$out" "among 2 reference files in $T/ref"

# The report's chart: this host among the references, two series in two
# colours (gnuplot writes them as rgb(...)).
if command -v gnuplot >/dev/null 2>&1; then
	CRYPTOBENCH_REFERENCE="$T/ref" expect_exit 0 "report" \
		$CB report "$T/host.csv" -o "$T/rep"
	page=$(cat "$T/rep/index.html" 2>/dev/null)
	check "report section" contains "$page" '<section id="reference">'
	check "chart title" contains "$page" \
		"this host among 2 CPUs: aes-cbc 128b encryption"
	check "chart: references' colour" contains "$page" "rgb( 31, 119, 180)"
	check "chart: host's colour" contains "$page" "rgb(214,  39,  40)"
	check "chart: both labels" sh -c 'contains() { case $1 in *"$2"*) ;;
		*) return 1 ;; esac; }; contains "$1" ">reference CPUs<" &&
		contains "$1" ">this host<"' _ "$page"
	check "report names the host's stand-in" contains "$page" \
		"This host's bar: openssl cbc-aes-openssl (no kernel driver"
	check "table row of the host" contains "$page" \
		'<tr class="host"><td class="n">2</td><td>this host: host.csv'
	browser=$(command -v chromium || command -v chromium-browser || true)
	if [ -n "$browser" ]; then   # the page's own check: every chart drawn
		timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
			--virtual-time-budget=5000 --dump-dom \
			"file://$T/rep/index.html" >"$T/dom" 2>"$T/dom.err"
		check "browser: every chart rendered" \
			grep -q 'data-status="ok"' "$T/dom"
	fi
else
	echo "gnuplot not installed (apt-get install gnuplot-nox): report checks skipped"
fi
finish
