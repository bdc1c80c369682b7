#!/bin/sh
# `cryptobench speed`, `bench` and `sysinfo` from the command line: the
# tcrypt shape of the seed (18 rows per direction, bytes = ops x size), the
# CSV columns and the JSON, the request models, and bad options (exit 2
# naming the argument; nothing overwritten without --force; 77 when nothing
# can run).  Timings are short (--sec 0.01): this checks shape, not speed.
. tests/lib.sh

S="--sec 0.01 --reps 1 --no-progress"

# -- the seed's tcrypt shape, on openssl --------------------------------------
expect_exit 0 "tcrypt cbc(aes) openssl" "$CB" speed --backend openssl --alg 'cbc(aes)' --format tcrypt $S
check "tcrypt: two headers" [ "$(printf '%s\n' "$out" | grep -c '^testing speed of async cbc(aes) (cbc-aes-openssl) \(en\|de\)cryption$')" -eq 2 ]
check "tcrypt: 36 rows" [ "$(printf '%s\n' "$out" | grep -c '^tcrypt: test ')" -eq 36 ]
check "tcrypt: nothing else on stdout" [ "$(printf '%s\n' "$out" | wc -l)" -eq 38 ]
rows=$(printf '%s\n' "$out" | sed -n 's/^tcrypt: test \([0-9]*\) (\([0-9]*\) bit key, \([0-9]*\) byte blocks): \([0-9]*\) ops\/s ( \{0,1\}\([0-9]*\) bytes)$/\1 \2 \3 \4 \5/p')
check "tcrypt: every row has the seed's shape" [ "$(printf '%s\n' "$rows" | wc -l)" -eq 36 ]
bad=$(printf '%s\n' "$rows" | awk '$4 * $3 != $5 { print }')
check "tcrypt: bytes = ops x size" [ -z "$bad" ]
order=$(printf '%s\n' "$rows" | head -n 18 | awk '{ printf "%s:%s:%s ", $1, $2, $3 }')
check "tcrypt: numbered over keys x sizes as the seed" [ "$order" = "0:128:16 1:128:64 2:128:256 3:128:1024 4:128:1472 5:128:8192 6:192:16 7:192:64 8:192:256 9:192:1024 10:192:1472 11:192:8192 12:256:16 13:256:64 14:256:256 15:256:1024 16:256:1472 17:256:8192 " ]

expect_exit 0 "tcrypt alias label" "$CB" speed --backend openssl --alg 'essiv(cbc(aes),aes,sha256)' --key-bits 128 --sizes 16 --encrypt --format tcrypt $S
check "tcrypt: the seed's spelling in the header" contains "$out" "testing speed of async essiv(cbc(aes),aes,sha256) (essiv(cbc-aes-openssl,ecb-aes-openssl,sha256-openssl)) encryption"

expect_exit 0 "tcrypt --cycles" "$CB" speed --backend openssl --alg 'cbc(aes)' --key-bits 128 --sizes 16,64 --decrypt --cycles --format tcrypt $S
check "cycles form" contains "$out" "tcrypt: test 1 (128 bit key, 64 byte blocks): 1 operation in "
check "cycles form: decrypt only" [ "$(printf '%s\n' "$out" | grep -c '^testing')" -eq 1 ]

expect_exit 0 "hash lines" "$CB" speed --backend openssl --alg sha256 --alg hmac/sha1 --sizes 16,1024 --format tcrypt $S
check "hash header" contains "$out" "testing speed of async sha256 (sha256-openssl)"
check "hash row" contains "$out" "tcrypt: test  1 ( 1024 byte blocks, 1024 bytes per update,   1 updates): "
check "hmac header" contains "$out" "testing speed of async hmac(sha1) (hmac-sha1-openssl)"

expect_exit 0 "kernel sizes" "$CB" speed --backend openssl --alg 'cbc(aes)' --key-bits 128 --encrypt --sizes kernel --format tcrypt $S
check "kernel sizes: 7 rows" [ "$(printf '%s\n' "$out" | grep -c '^tcrypt: test ')" -eq 7 ]
check "kernel sizes: 1420 is skipped, said why" contains "$out" "tcrypt: test 5 (128 bit key, 1420 byte blocks): skipped: not a multiple of the 16-byte block"

# -- CSV and JSON ---------------------------------------------------------------
expect_exit 0 "csv" "$CB" speed --backend openssl --alg 'cbc(aes)' --key-bits 128,256 --sizes 16,8192 --format csv -o "$T/r.csv" $S
hdr=$(head -n 1 "$T/r.csv" | tr -d '\r')
for c in schema tool_version host cpu_model kernel backend backend_version driver alg key_bits block_bytes direction ops_per_sec bytes_per_sec ns_per_byte cycles_per_byte ghz reps rel_spread timestamp; do
	check "csv column $c" contains ",$hdr," ",$c,"
done
check "csv: header + 8 rows" [ "$(wc -l <"$T/r.csv")" -eq 9 ]
check "csv: CRLF records" [ "$(grep -c "$(printf '\r')\$" "$T/r.csv")" -eq 9 ]
check "-o: nothing on stdout" [ -z "$out" ]
check "csv-2: columns 43-49 as agreed" [ "$(printf '%s\n' "$hdr" | cut -d, -f43-49)" = "samples,ci_low_ops,ci_high_ops,mad_ops,ghz_drift,cpu_level,sample_ops" ]
check "csv-5: schema" [ "$(sed -n 2p "$T/r.csv" | cut -d, -f1)" = "cryptobench-csv-5" ]
check "csv-3: column 50 is mb, 0 without --mb" [ "$(printf '%s\n' "$hdr" | cut -d, -f50)" = "mb" ] && [ "$(sed -n 2p "$T/r.csv" | tr -d '\r' | cut -d, -f50)" = "0" ]
check "csv-4: columns 51-53 are shared, contended, sample_procs" [ "$(printf '%s\n' "$hdr" | tr -d '\r' | cut -d, -f51-53)" = "shared,contended,sample_procs" ]
check "csv-5: columns 54-61 are ct's, empty in a speed row" sh -c "[ \"\$(printf '%s\n' \"\$1\" | tr -d '\r' | cut -d, -f54-)\" = ct_verdict,ct_method,ct_t,ct_measurements,ct_branches,ct_indexes,ct_places,ct_note ] && [ \"\$(sed -n 2p '$T/r.csv' | tr -d '\r' | cut -d, -f54-)\" = ,,,,,,, ]" _ "$hdr"
row2=$(sed -n 2p "$T/r.csv" | tr -d '\r' | cut -d, -f1-53)
check "csv-4: shared is a fraction, contended a count" awk -v s="$(printf '%s' "$row2" | awk -F, '{ print $(NF-2) }')" -v c="$(printf '%s' "$row2" | awk -F, '{ print $(NF-1) }')" -v p="$(printf '%s' "$row2" | awk -F, '{ print $NF }')" 'BEGIN { exit !(s != "" && s >= 0 && s <= 1 && c ~ /^[0-9]+$/ && p == "") }'
# a csv-3 file (no shared, contended) and a csv-2 file (no mb) are still read
cut -d, -f1-50 "$T/r.csv" | sed 's/^cryptobench-csv-5,/cryptobench-csv-3,/' >"$T/old3.csv"
expect_exit 0 "compare reads csv-3 (no shared, contended)" "$CB" compare "$T/old3.csv" "$T/r.csv"
cut -d, -f1-49 "$T/r.csv" | sed 's/^cryptobench-csv-5,/cryptobench-csv-2,/' >"$T/old2.csv"
expect_exit 0 "compare reads csv-2 (no mb)" "$CB" compare "$T/old2.csv" "$T/r.csv"
# the reader takes version 2 files and still takes version 1 (the reference)
cp "$T/r.csv" "$T/r2.csv"
expect_exit 0 "compare reads csv-5" "$CB" compare "$T/r2.csv" "$T/r2.csv"
cut -d, -f1-53 "$T/r.csv" | sed 's/^cryptobench-csv-5,/cryptobench-csv-4,/' >"$T/old4.csv"
expect_exit 0 "compare reads csv-4 (no ct columns)" "$CB" compare "$T/old4.csv" "$T/r.csv"
"$CB" compare results/reference/tcrypt-seed.csv results/reference/tcrypt-seed.csv >"$T/v1.out" 2>"$T/v1.err"
check "compare still reads csv-1 (results/reference)" [ $? -ne 2 ]
check "csv-1: no schema complaint" [ -z "$(grep -i schema "$T/v1.err")" ]
expect_exit 2 "-o onto an existing file" "$CB" speed --backend openssl --alg 'cbc(aes)' --sizes 16 --format csv -o "$T/r.csv" $S
check "-o existing: named, --force suggested" contains "$err" "$T/r.csv"
check "-o existing: file untouched" [ "$(wc -l <"$T/r.csv")" -eq 9 ]
expect_exit 0 "-o --force" "$CB" speed --backend openssl --alg 'cbc(aes)' --key-bits 128 --sizes 16 --encrypt --format csv -o "$T/r.csv" --force $S
check "-o --force overwrote" [ "$(wc -l <"$T/r.csv")" -eq 2 ]
expect_exit 2 "-o into a missing directory" "$CB" speed --backend openssl --sizes 16 -o "$T/nodir/x.csv" $S
check "-o missing dir named" contains "$err" "$T/nodir"

expect_exit 0 "json" "$CB" speed --backend openssl --alg 'cbc(aes)' --alg hmac/sha256 --key-bits 128 --sizes 16,64 --format json --reps 2 --sec 0.01 --no-progress
printf '%s\n' "$out" >"$T/r.json"
if command -v python3 >/dev/null 2>&1; then
	check "json parses, has samples and provenance" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"]
assert d["schema"] == "cryptobench-json-1"
assert d["provenance"]["cpu_model"] and d["provenance"]["kernel"]
assert len(r) == 6, len(r)
assert all(len(x["samples_ops_per_sec"]) == 2 for x in r)
assert all(x["samples"] == 2 and x["ci_low_ops"] <= x["ops_per_sec"] <= x["ci_high_ops"] for x in r)
assert all(x["mad_ops"] >= 0 and isinstance(x["noisy"], bool) for x in r)
assert d["method"]["sample_sec"] > 0
assert all(x["iv_mode"] in ("per-request", "none") for x in r)
' "$T/r.json"
fi

# -- request models ----------------------------------------------------------------
expect_exit 0 "iv once" "$CB" speed --backend openssl --alg 'cbc(aes)' --key-bits 128 --sizes 16 --iv once --format csv $S
check "iv once named in the result" contains "$out" ",once,"
expect_exit 0 "sector size" "$CB" speed --backend openssl --alg 'essiv(cbc(aes),sha256)' --key-bits 128 --sizes 512,4096 --sector-size 512 --format csv $S
check "sector size in the result" contains "$out" ",per-sector,512,"
expect_exit 0 "xts iv once warns" "$CB" speed --backend openssl --alg 'xts(aes)' --key-bits 256 --sizes 4096 --iv once --format table $S
check "xts iv once: says the IV is reused" contains "$err" "reuses the same IV"
expect_exit 0 "aead both directions" "$CB" speed --backend openssl --alg 'essiv(authenc(hmac(sha256),cbc(aes)),sha256)' --key-bits 128 --sizes 16,4096 --format table $S
check "aead: table has both directions" [ "$(printf '%s\n' "$out" | grep -c ' \(enc\|dec\) ')" -eq 2 ]
expect_exit 0 "driver filter" "$CB" speed --backend openssl --alg 'essiv(cbc(aes),sha256)' --driver essiv --key-bits 128 --sizes 16 --encrypt --format tcrypt $S
check "driver filter kept the template" contains "$out" "(essiv(cbc-aes-openssl"

# -- --mb: tcrypt's multibuffer mode ---------------------------------------------
for b in openssl native; do
	"$CB" list backends | grep -q "^$b .*available" || continue
	expect_exit 0 "--mb 8 on $b" "$CB" speed --backend $b --alg 'cbc(aes)' --key-bits 128 --sizes 16,512 --mb 8 --format tcrypt $S
	check "--mb on $b: the kernel's multibuffer header" [ "$(printf '%s\n' "$out" | grep -c '^testing speed of multibuffer cbc(aes) (cbc-aes-[a-z0-9-]*) \(en\|de\)cryption$')" -ge 2 ]
	rows=$(printf '%s\n' "$out" | sed -n 's/^tcrypt: test \([0-9]*\) (128 bit key, \([0-9]*\) byte blocks): \([0-9]*\) operations in 1 seconds (\([0-9]*\) bytes)$/\2 \3 \4/p')
	check "--mb on $b: every row in the kernel's mb form, bytes = ops x size" [ "$(printf '%s\n' "$rows" | awk '$2 > 0 && $1 * $2 == $3' | wc -l)" -eq "$(printf '%s\n' "$out" | grep -c '^tcrypt: test ')" ]
	check "--mb on $b: no failure (the gate passed)" [ -z "$(printf '%s\n' "$out" | grep -i 'failed')" ]
done
expect_exit 0 "--mb csv" "$CB" speed --backend openssl --alg 'xts(aes)' --key-bits 256 --sizes 4096 --mb 4 --encrypt --format csv $S
check "--mb csv: mb 4 recorded" [ "$(printf '%s\n' "$out" | sed -n 2p | tr -d '\r' | cut -d, -f50)" = "4" ]
expect_exit 0 "--mb json" "$CB" speed --backend openssl --alg 'xts(aes)' --key-bits 256 --sizes 4096 --mb 4 --encrypt --format json $S
check "--mb json: mb 4 recorded" contains "$out" '"mb": 4'
expect_exit 0 "--mb --cycles" "$CB" speed --backend openssl --alg 'cbc(aes)' --key-bits 128 --sizes 64 --mb 2 --encrypt --cycles $S
check "--mb --cycles: the cycles form" contains "$out" "tcrypt: test 0 (128 bit key, 64 byte blocks): 1 operation in "
for v in 0 65 x 8k -3; do
	expect_exit 2 "--mb $v" "$CB" speed --backend openssl --mb "$v" $S
	check "--mb $v: named" contains "$err" "--mb: '$v'"
done
expect_exit 2 "--mb with --iv once" "$CB" speed --backend openssl --mb 4 --iv once $S
check "--mb with --iv once: said" contains "$err" "--mb and --iv once"
expect_exit 2 "--mb with --sector-size" "$CB" speed --backend openssl --mb 4 --sector-size 512 $S
expect_exit 2 "--mb too many bytes" "$CB" speed --backend openssl --mb 64 --sizes 8m $S
check "--mb too many bytes: said" contains "$err" "exceed 256 MiB"

# -- bad options -------------------------------------------------------------------------
expect_exit 2 "unknown alg" "$CB" speed --alg 'cbc(rot13)' $S
check "unknown alg named" contains "$err" "cbc(rot13)"
expect_exit 2 "unknown backend" "$CB" speed --backend nosuch $S
check "unknown backend named" contains "$err" "nosuch"
expect_exit 2 "bad sizes" "$CB" speed --sizes 16,,64 $S
check "bad sizes named" contains "$err" "--sizes"
expect_exit 2 "zero size" "$CB" speed --sizes 0 $S
expect_exit 2 "sec 0" "$CB" speed --sec 0
check "sec 0 named" contains "$err" "--sec"
expect_exit 2 "sec negative" "$CB" speed --sec -1
expect_exit 2 "sec junk" "$CB" speed --sec fast
expect_exit 2 "unknown format" "$CB" speed --format xml $S
check "unknown format named" contains "$err" "xml"
expect_exit 2 "bad iv" "$CB" speed --iv sometimes $S
check "bad iv named" contains "$err" "sometimes"
expect_exit 2 "bad key bits" "$CB" speed --backend openssl --alg 'cbc(aes)' --key-bits 100 $S
check "bad key bits named" contains "$err" "--key-bits"
expect_exit 2 "iv once with sectors" "$CB" speed --iv once --sector-size 512 $S
expect_exit 2 "stray argument" "$CB" speed frob $S
check "stray argument named" contains "$err" "frob"
expect_exit 77 "nothing matches --driver" "$CB" speed --backend openssl --driver no-such-driver $S
expect_exit 2 "bench: bad --out" "$CB" bench --out "$T/nodir/sub" --quick
check "bench --out named" contains "$err" "$T/nodir"
expect_exit 2 "sysinfo takes no arguments" "$CB" sysinfo extra

# -- sysinfo -----------------------------------------------------------------------------
expect_exit 0 "sysinfo" "$CB" sysinfo
for k in cpu kernel "core clock" compiler cflags governor boost "backend openssl"; do
	check "sysinfo has $k" contains "$out" "$k"
done
text=$out
# --format json: valid JSON (python3's parser, when there is one), every
# limit line of the text in it, the per-path lines as numbers
expect_exit 2 "sysinfo --format xml" "$CB" sysinfo --format xml
check "sysinfo --format named" contains "$err" "--format 'xml'"
expect_exit 0 "sysinfo --format json" "$CB" sysinfo --format json
json=$out
if command -v python3 >/dev/null; then
	check "sysinfo json parses" sh -c 'printf "%s\n" "$1" | python3 -m json.tool >/dev/null' - "$json"
fi
check "sysinfo json schema" contains "$json" '"schema": "cryptobench-sysinfo-1"'
printf '%s\n' "$text" | sed -n '/^limit /,/^[a-z]/{ /^limit \|^  /s/^[a-z ]\{14\} //p; }' >"$T/lim"
if "$CB" list backends | grep -q '^native .*available'; then
	check "sysinfo text has native's limit lines" [ "$(wc -l <"$T/lim")" -ge 2 ]
fi
while IFS= read -r l; do
	# the figures are measured anew: compare the words, not the numbers
	w=$(printf '%s\n' "$l" | sed 's/[0-9][0-9.]*/N/g')
	printf '%s\n' "$json" | grep '^        "' | sed 's/[0-9][0-9.]*/N/g' |
	    grep -qF "\"$w\"" || echo "$l" >>"$T/nolim"
done <"$T/lim"
check "every limit line in the json" [ ! -s "$T/nolim" ]
if printf '%s\n' "$text" | grep -q '^  *aesni: AES alone'; then
	check "aesni's bounds as numbers" sh -c 'printf "%s\n" "$1" | tr -d "\n " |
	    grep -q "\"path\":\"aesni\",\"measured\":true,\"aes_cpb_128\":0\.[0-9]*,\"aes_cpb_256\":[0-9.]*,\"aes_rate\":[0-9.]*,\"gcm_cpb_128\":[0-9.]*,\"gcm_cpb_256\":[0-9.]*}"' - "$json"
fi

finish
