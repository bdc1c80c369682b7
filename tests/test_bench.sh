#!/bin/sh
# cryptobench bench: a small budgeted run on openssl and native (two
# request sizes) writes the CSV (speed rows of every algorithm each has at
# every key size, sector rows at 512 and 4096 bytes, the geli matrix's dd
# rows), the JSON (the same rows) and the HTML report, says its plan before
# it starts, and prints a summary no wider than 100 columns; with --ct a
# ct run's verdicts join the CSV, JSON, report and summary;
# scripts/check-bench-coverage asserts the whole matrix against the registry
# and finds a hole made in it; ^C stops bench and keeps what was measured;
# bad options exit 2.  (The report needs gnuplot: without it bench says so
# and writes no page.)
. tests/lib.sh

D=$T/res
mkdir -p "$D"
# --ct FILE: a ct run's verdicts (handmade, a narrower header than the
# bench's: its columns are laid out by name) go into the CSV, the JSON,
# the report and the summary
CTH='schema,tool_version,host,cpu_model,kernel,backend,backend_version,driver,alg,key_bits,block_bytes,direction,ops_per_sec,bytes_per_sec,ns_per_byte,cycles_per_byte,ghz,reps,rel_spread,timestamp,tool,status,error,iv_mode,sector_bytes,threads,auth,cpu_level,ct_verdict,ct_method,ct_t,ct_measurements,ct_branches,ct_indexes,ct_places,ct_note'
ctrow() {   # DRIVER ALG LEVEL VERDICT METHOD
	printf 'cryptobench-csv-5,0.1.0,cthost,cpu,Linux,openssl,3,%s,%s,128,0,-,,,,,,0,,2026-01-01T00:00:00Z,ct,ok,,,0,1,,%s,%s,%s,0.4,40000,0,2,"memory index: BF_encrypt (in libcrypto.so.3); memory index: BF_decrypt, again",\r\n' \
		"$1" "$2" "$3" "$4" "$5"
}
{ echo "$CTH"
  ctrow cbc-aes-openssl 'cbc(aes)' max constant-time memcheck+timing
  ctrow cbc-aes-openssl 'cbc(aes)' generic 'secret-dependent memory index' memcheck+timing
  ctrow cbc-blowfish-openssl 'cbc(blowfish)' max 'secret-dependent memory index' memcheck+timing
  ctrow '"essiv(authenc(hmac-sha256-openssl,cbc-aes-openssl),ecb-aes-openssl,sha256-openssl)"' \
	'"essiv(authenc(hmac(sha256),cbc(aes)),sha256)"' generic 'secret-dependent timing' \
	'memcheck at --cpu aesni + timing'
  ctrow sha256-openssl sha256 max 'no timing leak found' timing
} >"$T/ct.csv"
{ cat "$T/ct.csv"; ctrow d 'cbc(aes)' max 'fine' timing; } >"$T/ctbad.csv"
expect_exit 2 "--ct: a garbled verdict, before the run" "$CB" bench --budget 8 --ct "$T/ctbad.csv" -o "$D"
check "--ct: FILE:LINE" contains "$err" "ctbad.csv:7: column 'ct_verdict': 'fine' is not a ct verdict"
check "--ct: nothing run, nothing written" [ -z "$(ls -A "$D")" ]
expect_exit 0 "bench --budget 8 (openssl and native, 2 sizes, --ct)" \
	"$CB" bench --budget 8 --backend openssl --backend native --sizes 16,4096 -o "$D" --ct "$T/ct.csv"
printf '%s\n' "$out" >"$T/summary"
csv=$(ls "$D"/*.csv 2>/dev/null | head -n 1)
check "--ct: the summary's section" contains "$out" "Constant time (from $T/ct.csv):"
check "--ct: counts per verdict" contains "$out" "5 implementations: 2 secret-dependent memory index, 1 secret-dependent timing,"
check "--ct: the leaks, a line each" [ "$(sed -n '/^Secret-dependent/,/^$/p' "$T/summary" | grep -c '^  openssl ')" -eq 3 ]
check "--ct: a leak's line" grep -Eq '^  openssl +cbc\(blowfish\) +max +memory index +memcheck\+timing$' "$T/summary"
check "--ct: a long name cut, in the legend" grep -q '= essiv(authenc(hmac(sha256),cbc(aes)),sha256)$' "$T/summary"
check "--ct: the CSV has the ct rows" [ "$(grep -c ',ct,ok,' "$csv")" -eq 5 ]
check "--ct: the JSON has them" [ "$(grep -c '"ct_verdict": ' "${csv%.csv}.json")" -eq 5 ]
if command -v python3 >/dev/null 2>&1; then
	check "--ct: the ct rows as the header lays out, their own host, level and evidence" python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
ct = [dict(zip(h, r)) for r in rows[1:] if r[h.index("tool")] == "ct"]
ok = all(len(r) == len(h) for r in rows) and len(ct) == 5 and      all(r["host"] == "cthost" for r in ct) and      [r["cpu_level"] for r in ct] == ["max", "generic", "max", "generic", "max"] and      ct[2]["ct_places"].endswith("BF_decrypt, again") and ct[3]["alg"].startswith("essiv(authenc(")
sys.exit(0 if ok else 1)' "$csv"
fi
check "CSV written" [ -s "$csv" ]
check "JSON written" [ -s "${csv%.csv}.json" ]
check "no leftover dd file" [ -z "$(ls -A "$D" | grep '^\.')" ]
# bench builds its page from the results it holds, not from its CSV: the
# page must be the one `report` makes of that CSV (the time it was made
# aside), every row's value, file:line and the ct rows' included
if [ -f "$D/index.html" ]; then
	"$CB" report "$csv" -o "$T/fromcsv" >/dev/null 2>&1
	check "the page from memory is report's page of the CSV" sh -c \
		"grep -v '^<p>Made ' '$D/index.html' >'$T/mem.html' &&
		 grep -v '^<p>Made ' '$T/fromcsv/index.html' >'$T/csv.html' &&
		 cmp -s '$T/mem.html' '$T/csv.html'"
fi
check "plan said before it starts" contains "$err" "bench: budget 8 s"
check "plan counts the points" contains "$err" "sector points"
# the kernel backend on a kernel without AF_ALG (this project's VMs): said
if ! "$CB" list backends | grep -Eq '^kernel +[^ ]+ +available'; then
	mkdir -p "$T/unav"
	"$CB" bench --budget 2 --backend kernel --backend openssl --sizes 4096 \
	    -o "$T/unav" >/dev/null 2>"$T/unav.err"
	check "bench says why the kernel backend is left out" \
		grep -q '^bench: kernel is unavailable here, its rows left out: no AF_ALG' "$T/unav.err"
fi
width=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$T/out")
check "summary at most 100 columns ($width)" [ "$width" -le 100 ]
check "summary: fastest per algorithm" contains "$out" "Fastest backend per algorithm"
check "summary: ecb(aes) 256-bit" contains "$out" "ecb(aes)                    256"
check "summary: geli matrix beside the seed" contains "$out" "AES-XTS -l 128                     54.7"
# Marks that mean one thing (issue 45): "~" after a figure is a noisy
# point and only that; a cut name is keyed "[N]"; the sentence under the
# summary counts the marked figures (or says none is)
check "summary: a cut name keyed [N], never ~N" sh -c \
	"grep -q '^  \[1\] = ' '$T/summary' && ! grep -Eq '~[0-9]' '$T/summary'"
marks=$(sed -n '/^Fastest backend/,/^(nat\/lib/p' "$T/summary" | grep -o '[0-9]~' | wc -l)
if [ "$marks" -gt 0 ]; then
	check "summary: the $marks marked figures counted, ~ said" sh -c \
		"grep -q '; $marks figures above are among' '$T/summary' &&
		 grep -q '^ ~: a noisy figure, its 95 % CI wider than +-2 %' '$T/summary'"
else
	check "summary: no figure marked, none said" sh -c \
		"grep -q 'no figure above is among them' '$T/summary' ||
		 ! grep -q ' are \"noisy\"' '$T/summary'"
fi
check "summary: no '~ in the tables' for rows the summary does not mark" \
	sh -c "! grep -q 'marked ~ in the tables' '$T/summary'"
# no cut geli name: the longest label whole
check "summary: geli labels whole" grep -Eq '^AES-XTS\+HMAC/RIPEMD160 -l 256 +[0-9]' "$T/summary"
# the null cipher is no cipher: not among the fastest, its own line
check "summary: ecb(cipher_null) not among the fastest" sh -c \
	"! sed -n '/^Fastest backend/,/^(nat\/lib/p' '$T/summary' | grep -q '^ecb(cipher_null) '"
check "summary: ecb(cipher_null) apart, as the harness's ceiling" \
	contains "$out" "ecb(cipher_null), no cipher, left out above: the harness's ceiling"
check "summary: XTS's key size explained" contains "$out" "512 = two AES-256 keys"
check "summary: rfc4106's key sizes explained" \
	contains "$out" "a 32-bit salt: 160/224/288 = AES-128/192/256"
check "summary: dm-crypt xts vs essiv" contains "$out" "native     4096 read"
# stdout and stderr into one file, as CI logs do: every line whole (a
# fully buffered stdout put a progress line inside the geli table's header)
mkdir -p "$T/one"
"$CB" bench --budget 4 --backend openssl --sizes 4096 -o "$T/one" >"$T/one.log" 2>&1
check "one log: the geli table's header whole" grep -Eq '^configuration +seed +openssl$' "$T/one.log"
# bench's closing line (stderr) comes after the summary (stdout) it follows
check "one log: in the order written, bench's closing line last" \
	sh -c "tail -n 1 '$T/one.log' | grep -Eq '^bench: [0-9]+ s'"
rows() { grep -c "$1" "$csv"; }
check "speed rows of several algorithms" [ "$(cut -d, -f9 "$csv" | sort -u | wc -l)" -ge 5 ]
check "512-byte sector rows" [ "$(rows ',per-sector,512,')" -ge 4 ]
check "4096-byte sector rows" [ "$(rows ',per-sector,4096,')" -ge 4 ]
check "geli dd rows" [ "$(rows ',dd,ok,')" -ge 3 ]
check "both directions" sh -c "grep -q ',decrypt,' '$csv' && grep -q ',encrypt,' '$csv'"
check "the usual key sizes: no XTS at 384 bits (only with --full)" \
	sh -c "grep -q ',xts(aes),512,4096,encrypt,' '$csv' && ! grep -q ',xts(aes),384,' '$csv'"
check "the KDFs at one cost, 1024" sh -c "grep -q ',pbkdf2(hmac(sha256)),0,1024,derive,' '$csv' &&
	! grep -q ',pbkdf2(hmac(sha256)),0,16,derive,' '$csv'"
check "summary: an algorithm's key sizes in order" sh -c \
	"grep '^xts(aes) ' '$T/summary' | awk '{ print \$2 }' | tr '\n' ' ' | grep -qx '256 512 '"
check "summary: how many points are within +-2 %" \
	grep -Eq '^[0-9]+ of [0-9]+ speed points within \+-2 %' "$T/summary"
check "the time split, last but one" sh -c "grep -q '^bench: where the .* s went' '$T/one.log' &&
	grep -q '^  timed samples ' '$T/one.log'"
check "the JSON's time split" grep -q '"inside_samples": ' "${csv%.csv}.json"
if command -v python3 >/dev/null 2>&1; then
	check "dd rows sampled: a median inside its CI, the raw samples, one row a cell" python3 -c '
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["tool"] == "dd" and r["status"] == "ok"]
keys = [(r["backend"], r["alg"], r["key_bits"], r["auth"], r["sector_bytes"]) for r in rows]
ok = rows and len(keys) == len(set(keys)) and all(
    int(r["samples"]) >= 3 and len(r["sample_ops"].split()) == int(r["samples"]) and
    float(r["ci_low_ops"]) <= float(r["ops_per_sec"]) <= float(r["ci_high_ops"]) for r in rows)
sys.exit(0 if ok else 1)' "$csv"
fi
check "JSON holds the dd rows too" [ "$(grep -c '"tool": "dd"' "${csv%.csv}.json")" -eq "$(rows ',dd,ok,')" ]
expect_exit 0 "--ct: compare reads the bench's verdicts" "$CB" compare "$csv" "$csv"
check "--ct: compare matched them" contains "$out" "ct: 5 matched: 0 WORSE"

lacks() { ! contains "$@"; }
# Two processes by default: the second's samples pooled, counted per process.
# A budget of 30 s: 4 s are held back, and under ASan the sampled geli
# matrix (a calibrating dd run a cell and at least 3 rounds) and the sector
# passes take up to 15 s; with 14 s the second process was left under its
# 1 s minimum ("no time left") under ASan on a loaded machine.
D1=$T/two
mkdir -p "$D1"
expect_exit 0 "two processes (the default)" "$CB" bench --budget 30 --backend native --sizes 16 -o "$D1"
check "two processes: the second pooled" contains "$err" "bench: process 2 of 2:"
if command -v python3 >/dev/null 2>&1; then
	check "sample_procs: two counts adding up to the samples, every measured speed row" python3 -c '
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["tool"] == "speed" and r["status"] == "ok"]
ok = rows and all(len(r["sample_procs"].split()) == 2 and
                  sum(map(int, r["sample_procs"].split())) == int(r["samples"]) ==
                  len(r["sample_ops"].split()) for r in rows)
sys.exit(0 if ok else 1)' "$(ls "$D1"/*.csv | head -n 1)"
	# Sequential sampling (docs/speed.md): 10 rounds over every point in
	# each process, then only the points whose CI is still wide - so the
	# counts differ and none is under 10 + 10 (contended samples aside).
	check "sequential sampling: every point its minimum, the rest unequal" python3 -c '
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["tool"] == "speed" and r["status"] == "ok"]
n = [int(r["samples"]) + int(r["contended"] or 0) for r in rows]
procs = [list(map(int, r["sample_procs"].split())) for r in rows]
ok = rows and min(n) >= 20 and max(n) > min(n) and all(min(p) >= 10 or int(r["contended"] or 0) for p, r in zip(procs, rows))
sys.exit(0 if ok else 1)' "$(ls "$D1"/*.csv | head -n 1)"
fi
check "two processes: no part file left" [ -z "$(ls -A "$D1" | grep '^\.')" ]
# The second process dropped (a budget of 5 s leaves it under 1 s, always):
# a warning that compare's test between processes is lost, and the budget
# that keeps it, computed from the run - which, given, does keep it
D1=$T/drop
mkdir -p "$D1"
expect_exit 0 "--budget 5: no time for process 2" "$CB" bench --budget 5 --backend native --sizes 16 -o "$D1"
check "dropped: a warning that compare's test between processes is lost" sh -c \
	"printf '%s\n' \"\$1\" | grep -A1 '^bench: warning: no time left for process 2 of 2' | grep -q 'compare cannot test between processes'" _ "$err"
keep=$(printf '%s\n' "$err" | sed -n 's/.*--budget \([0-9]*\) or more keeps.*/\1/p')
check "dropped: the budget that keeps it ($keep s)" [ "${keep:-0}" -gt 5 ]
if [ "${keep:-0}" -gt 5 ]; then
	D1=$T/kept
	mkdir -p "$D1"
	expect_exit 0 "--budget $keep: process 2 kept" "$CB" bench --budget "$keep" --backend native --sizes 16 -o "$D1"
	check "the budget said keeps process 2" contains "$err" "bench: process 2 of 2:"
fi
D1=$T/onep    # new: -o makes it (issue 45)
expect_exit 0 "--processes 1" "$CB" bench --budget 3 --processes 1 --backend native --sizes 16 -o "$D1"
check "-o a new directory: made, and said" contains "$err" "bench: created $D1/"
check "-o a new directory: the CSV is in it" [ -n "$(ls "$D1"/*.csv 2>/dev/null)" ]
check "--processes 1: nothing pooled" lacks "$err" "process 2 of"
check "--processes 1: speed rows measured" sh -c "tail -n +2 $D1/*.csv | grep -q ',speed,ok,'"
# the closing line: past the budget (3 s, under the 4 s held back: it
# is), by how much and which part of the time split took longer
last=$(printf '%s\n' "$err" | tail -n 1)
check "over the budget: the last line says by how much and why ($last)" \
	sh -c "printf '%s\n' \"\$1\" | grep -Eq '^bench: [0-9]+ s, [0-9.]+ s over the budget of 3 s; longer than planned: .*[0-9.]+ s \([0-9.]+ planned\)'" _ "$last"
check "--processes 1: every speed row's sample_procs empty" sh -c "! tail -n +2 $D1/*.csv | grep ',speed,ok,' | tr -d '\r' | grep -qv ',\$'"
# What a person reads (issue 36): each warning once with its count, none
# about a key-less algorithm's "0-bit key", the KDFs with a figure in
# their own unit, no summary row without a figure, '-' for no key bits.
D2=$T/read
mkdir -p "$D2"
expect_exit 0 "gcrypt and nettle at 4096 bytes" "$CB" bench --budget 12 \
	--backend gcrypt --backend nettle --sizes 4096 -o "$D2"
printf '%s\n' "$err" >"$T/read.err"
check "no line of stderr twice" sh -c "[ -z \"\$(grep . '$T/read.err' | sort | uniq -d)\" ]"
check "nettle's 192-bit Twofish (no other backend has it) said once" \
	sh -c "[ \$(grep -c 'cbc-twofish-nettle: no other backend has cbc(twofish) with a 192-bit key' '$T/read.err') -eq 1 ]"
check "argon2i: no key size in its warning" \
	grep -q 'argon2i-gcrypt: no other backend has argon2i: checked by' "$T/read.err"
check "no 0-bit key anywhere" lacks "$err$out" "0-bit key"
check "KDFs: PBKDF2 in iterations a second, with a CI" \
	sh -c "printf '%s\n' \"\$1\" | grep -Eq '^pbkdf2\\(hmac\\(sha256\\)\\) +1024 iterations +[a-z]+ +[0-9.]+ M iterations/s \\[[0-9.]+, [0-9.]+\\]'" _ "$out"
check "KDFs: Argon2 in time a derivation" \
	sh -c "printf '%s\n' \"\$1\" | grep -Eq '^argon2id +1024 KiB, 1 pass, 1 lane +gcrypt +[0-9.]+ ms a derivation'" _ "$out"
check "no summary row without a figure" \
	sh -c "! printf '%s\n' \"\$1\" | grep -Eq '^[a-z0-9(),~]+ +[-0-9]+ +[0-9]+  -'" _ "$out"
check "a key-less row says '-' for its bits" \
	sh -c "printf '%s\n' \"\$1\" | grep -Eq '^sha256 +- +4096 '" _ "$out"
check "the heading says the request size the figures are at" \
	contains "$out" "Fastest backend per algorithm and key size, at 4096-byte requests:"
expect_exit 2 "--processes 5" "$CB" bench --processes 5 -o "$D1"
check "--processes: the range said" contains "$err" "--processes: '5' is not a count from 1 to 4"

# The coverage checker: the whole matrix of both backends, and a hole found.
if command -v python3 >/dev/null 2>&1; then
	chk() { CB=$CB scripts/check-bench-coverage "$@" --backend openssl --backend native --sizes 16,4096; }
	expect_exit 0 "check-bench-coverage: the run covers the matrix" chk "$D" --summary "$T/summary"
	check "checker: geli matrix whole on openssl" contains "$out" "geli matrix whole on openssl;"
	check "checker: counts its checks" contains "$out" " 0 gaps"
	mkdir -p "$T/hole"
	grep -v ',native,.*,xts(aes),512,16,decrypt,' "$csv" >"$T/hole/a.csv"
	cp "${csv%.csv}.json" "$T/hole/a.json"
	expect_exit 1 "checker: a missing point is a gap" chk "$T/hole/a.csv"
	check "checker: names the point" contains "$out" "missing: speed native xts(aes) 512-bit decrypt 16 bytes"
	check "checker: the JSON no longer matches" contains "$out" "missing: JSON"
	grep -v ',openssl,.*,dd,ok,.*hmac(md5)' "$csv" | grep -v ',openssl,.*,none,0,1048576,' >"$T/hole/b.csv"
	expect_exit 1 "checker: a missing geli row is a gap" chk "$T/hole/b.csv"
	check "checker: names the geli configuration" contains "$out" "missing: geli openssl: null+hmac(md5)"
	check "checker: names the baseline" contains "$out" "missing: geli openssl: baseline"
	check "checker: the count of rows" contains "$out" "geli openssl: 16 rows, not 19"
	check "checker: no HTML" contains "$out" "missing: no HTML report"
	{ cat "$T/summary"; printf '%101s\n' x; } >"$T/wide"
	expect_exit 1 "checker: a wide summary is a gap" chk "$D" --summary "$T/wide"
	check "checker: says how wide" contains "$out" "101 columns wide"
	expect_exit 2 "checker: no such file" chk "$T/nope.csv"
else
	echo "python3 not installed: scripts/check-bench-coverage not run"
fi
if command -v gnuplot >/dev/null 2>&1; then
	check "HTML report next to the files" [ -s "$D/index.html" ]
	check "--ct: the report's constant-time table" grep -q '<td class="ct-leak"' "$D/index.html"
	expect_exit 0 "second run: the report gets its own name" \
		"$CB" bench --budget 3 --backend native --sizes 16 -o "$D"
	check "second report beside the first" [ "$(ls "$D"/*.html | wc -l)" -eq 2 ]
else
	echo "gnuplot not installed: the HTML report is not checked"
fi

# ^C: stops, writes what it measured.
D2=$T/int
mkdir -p "$D2"
"$CB" bench --budget 60 --backend native -o "$D2" >"$T/int.out" 2>"$T/int.err" &
pid=$!
sleep 4
kill -INT $pid
wait $pid
rc=$?
check "^C: exits normally (rc $rc)" [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]
check "^C: says so" grep -q "interrupted" "$T/int.err"
check "^C: the CSV is written" [ -n "$(ls "$D2"/*.csv 2>/dev/null)" ]

# ^C while the second process runs: it is passed on, and bench ends soon.
part_child() {   # a child of $1 whose command line has --part
	# one cat and one awk read every stat file (a process per /proc
	# entry took minutes an iteration on a loaded host)
	for c in $(cat /proc/[0-9]*/stat 2>/dev/null | awk -v p="$1" '$4 == p { print $1 }'); do
		{ tr '\0' ' ' <"/proc/$c/cmdline"; } 2>/dev/null | grep -q -- ' --part ' &&
			return 0
	done
	return 1
}
D3=$T/int2
mkdir -p "$D3"
"$CB" bench --budget 40 --backend native --sizes 16 -o "$D3" >"$T/int2.out" 2>"$T/int2.err" &
pid=$!
end=$(($(date +%s) + 60))     # a wall-clock bound, however loaded the host
while [ "$(date +%s)" -lt $end ] && ! part_child $pid; do sleep 0.1; done
check "^C in process 2: it was started" part_child $pid
kill -INT $pid
t0=$(date +%s)
wait $pid
rc=$?
t1=$(date +%s)
check "^C in process 2: bench ends within 5 s ($((t1 - t0)) s, rc $rc)" [ $((t1 - t0)) -le 5 ]
check "^C in process 2: it says so" grep -q "interrupted" "$T/int2.err"
check "^C in process 2: the CSV is written" [ -n "$(ls "$D3"/*.csv 2>/dev/null)" ]
check "^C in process 2: no part file left" [ -z "$(ls -A "$D3" | grep '^\.')" ]

expect_exit 2 "--budget 0" "$CB" bench --budget 0 -o "$D"
expect_exit 2 "--full with --budget" "$CB" bench --full --budget 10 -o "$D"
# -o DIR, DIR new: made, as report -o does (issue 45); a file or a
# missing parent is still an error naming it, and nothing is replaced
: >"$T/afile"
expect_exit 2 "-o a file: not a directory" "$CB" bench --budget 5 -o "$T/afile"
check "-o error names it" contains "$err" "'$T/afile' is not a directory"
check "-o a file: the file left as it was" [ -f "$T/afile" ] && [ ! -s "$T/afile" ]
expect_exit 2 "-o under a missing directory" "$CB" bench --budget 5 -o "$T/nope/deeper"
check "-o error names it and why" contains "$err" "cannot create '$T/nope/deeper': No such file"
expect_exit 2 "-o new, a usage error: nothing made" "$CB" bench --budget 0 -o "$T/notmade"
check "no directory made for a run that did not start" [ ! -e "$T/notmade" ]
finish
