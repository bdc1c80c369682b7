#!/bin/sh
# cryptobench compare: regression table between two handmade result CSVs
# (the cryptobench-csv-1 columns, RFC 4180 quoting, CRLF as the writer
# emits): a regression exits 1 with a REGRESSION row, identical files exit
# 0, noise and the threshold behave, repeated runs use the median,
# concatenated multi-host files match host by host or by --host, and every
# malformed or missing file exits 2 naming FILE:LINE.
. tests/lib.sh

H='schema,tool_version,host,cpu_model,kernel,backend,backend_version,driver,alg,key_bits,block_bytes,direction,ops_per_sec,bytes_per_sec,ns_per_byte,cycles_per_byte,ghz,reps,rel_spread,timestamp,tool,status,error,iv_mode,sector_bytes,threads,auth,cpu_flags'

# row HOST ALG BITS BLOCK DIR DRIVER BYTES_PER_SEC SPREAD [STATUS ERROR VERSION]
# $FLAGS is the last (extra) column, quoted; it may hold a line break.
FLAGS='"aes,avx2,sha_ni"'
row() {
	ops=
	[ -n "$7" ] && ops=$(awk "BEGIN { print $7 / $4 }")
	printf 'cryptobench-csv-1,0.1.0,%s,"AMD EPYC 9R14 96-Core, ""Zen 4""",Linux 6.1,openssl,%s,%s,%s,%s,%s,%s,%s,%s,0.5,1.8,3.6,5,%s,2025-01-01T00:00:00Z,speed,%s,%s,per-request,0,1,,%s\r\n' \
		"$1" "${11:-3.0.2}" "$6" "$2" "$3" "$4" "$5" "$ops" \
		"$7" "$8" "${9:-ok}" "${10:-}" "$FLAGS"
}
lacks() { ! contains "$@"; }
# base_rows HOST: a base set of four points
base_rows() {
	row "$1" 'cbc(aes)' 128 16 encrypt cbc-aes-openssl 800000000 0.02
	row "$1" 'cbc(aes)' 128 8192 encrypt cbc-aes-openssl 1400000000 0.01
	row "$1" 'cbc(aes)' 128 8192 decrypt cbc-aes-openssl 9000000000 0.01
	row "$1" 'xts(aes)' 256 4096 encrypt xts-aes-openssl 5000000000 0.01
}
{ echo "$H"; base_rows hostA; } >"$T/base.csv"

# identical -> exit 0, all same
expect_exit 0 "identical files" "$CB" compare "$T/base.csv" "$T/base.csv"
check "identical: 4 matched" contains "$out" "4 matched: 0 regressions"
check "identical: all same" [ "$(printf '%s\n' "$out" | grep -c ' same$')" -eq 4 ]
check "identical: no REGRESSION" lacks "$out" "REGRESSION"
check "summary is the last line" contains "$(printf '%s\n' "$out" | tail -n 1)" "summary:"

# a regression: 16-byte encrypt 12.5% slower; 8192 decrypt 10% faster;
# 8192 encrypt 1.4% faster; xts missing; ecb new.
{ echo "$H"
  row hostA 'cbc(aes)' 128 16 encrypt cbc-aes-openssl 700000000 0.02
  row hostA 'cbc(aes)' 128 8192 encrypt cbc-aes-openssl 1420000000 0.01
  row hostA 'cbc(aes)' 128 8192 decrypt cbc-aes-openssl 9900000000 0.01
  row hostA 'ecb(aes)' 128 4096 encrypt ecb-aes-openssl 5000000000 0.01
} >"$T/new.csv"
expect_exit 1 "regression exits 1" "$CB" compare "$T/base.csv" "$T/new.csv"
reg=$(printf '%s\n' "$out" | grep REGRESSION)
check "REGRESSION row is the 16-byte encrypt" contains "$reg" "cbc(aes)    128     16  encrypt"
check "REGRESSION row shows -12.5%" contains "$reg" "-12.5%"
check "REGRESSION row shows MB/s" contains "$reg" "800.0       700.0"
check "improved row" contains "$(printf '%s\n' "$out" | grep decrypt)" "improved"
check "same row" contains "$(printf '%s\n' "$out" | grep '8192  encrypt')" "same"
check "only in BASE lists xts" contains "$out" "only in BASE (1):
  xts(aes)"
check "only in NEW lists ecb" contains "$out" "only in NEW (1):
  ecb(aes)"
check "summary counts" contains "$out" "3 matched: 1 regression, 1 improved, 1 same, 0 noise; 1 only in BASE, 1 only in NEW"
expect_exit 0 "--threshold 15 tolerates 12.5%" "$CB" compare "$T/base.csv" "$T/new.csv" --threshold 15 --allow-missing
check "threshold shown" contains "$out" "threshold 15%"
expect_exit 1 "--threshold=2% form" "$CB" compare --threshold=2% "$T/base.csv" "$T/new.csv"

# noise: 8% slower but the points' spreads are 5% + 4% = 9%
{ echo "$H"; row hostA 'cbc(aes)' 128 16 encrypt cbc-aes-openssl 1000000000 0.05; } >"$T/nb.csv"
{ echo "$H"; row hostA 'cbc(aes)' 128 16 encrypt cbc-aes-openssl 920000000 0.04; } >"$T/nn.csv"
expect_exit 0 "change within spread is noise" "$CB" compare "$T/nb.csv" "$T/nn.csv"
check "noise verdict" contains "$out" "-8.0%     9.0%  noise"
{ echo "$H"; row hostA 'cbc(aes)' 128 16 encrypt cbc-aes-openssl 880000000 0.04; } >"$T/nn2.csv"
expect_exit 1 "change beyond spread is a regression" "$CB" compare "$T/nb.csv" "$T/nn2.csv"

# one measurement a side (reps 1, as dd rows and the seeds): the spread is
# unknown, so a change past the threshold is unsure - not a regression -
# whatever the rel_spread column says; within the threshold it is same
one() { sed 's/,3\.6,5,/,3.6,1,/'; }
one <"$T/nb.csv" >"$T/ob.csv"
one <"$T/nn2.csv" >"$T/on.csv"
expect_exit 0 "one measurement a side: unsure exits 0" "$CB" compare "$T/ob.csv" "$T/on.csv"
check "unsure verdict, no spread shown" contains "$out" "-12.0%        -  unsure"
check "unsure counted" contains "$out" "1 unsure (one measurement, spread unknown)"
check "unsure rule stated" contains "$out" "1 point of one measurement (dd rows, seeds)"
expect_exit 0 "unsure in csv" "$CB" compare --format csv "$T/ob.csv" "$T/on.csv"
check "csv unsure, spread rule, empty spread" contains "$out" ",unsure,spread,"
one <"$T/nn.csv" >"$T/on2.csv"
expect_exit 0 "one measurement, within threshold" "$CB" compare --threshold 10 "$T/ob.csv" "$T/on2.csv"
check "within the threshold is same" contains "$out" "-8.0%        -  same"
expect_exit 0 "one side one measurement: its spread unknown" "$CB" compare "$T/nb.csv" "$T/on.csv"
check "one side one measurement: unsure" contains "$out" "unsure"
# no reps recorded but a spread given: the spread rule as before
noreps() { sed 's/,3\.6,5,/,3.6,,/'; }
noreps <"$T/nb.csv" >"$T/rb.csv"
noreps <"$T/nn2.csv" >"$T/rn.csv"
expect_exit 1 "empty reps, spread given: still the spread rule" "$CB" compare "$T/rb.csv" "$T/rn.csv"
check "empty reps: REGRESSION with its spread" contains "$out" "-12.0%     9.0%  REGRESSION"

# repeated runs: the median (1000, 1100, 5000 -> 1100 MB/s) against 1000
{ echo "$H"
  row hostA 'cbc(aes)' 128 16 encrypt cbc-aes-openssl 1000000000 0.01
  row hostA 'cbc(aes)' 128 16 encrypt cbc-aes-openssl 5000000000 0.01
  echo "$H"
  row hostA 'cbc(aes)' 128 16 encrypt cbc-aes-openssl 1100000000 0.01
} >"$T/runs.csv"
{ echo "$H"; row hostA 'cbc(aes)' 128 16 encrypt cbc-aes-openssl 1100000000 0.0; } >"$T/one.csv"
expect_exit 0 "median of repeated runs" "$CB" compare "$T/runs.csv" "$T/one.csv" --format csv
check "median is 1100 MB/s, 3 runs" contains "$out" ",1100000000,"
check "3 runs counted" contains "$out" ",3,3.0.2,1100000000,0,1,3.0.2"

# multi-host files made with cat: host by host, or pick one from each side
{ echo "$H"; base_rows hostB; } >"$T/hostB.csv"
cat "$T/base.csv" "$T/hostB.csv" >"$T/all.csv"
expect_exit 0 "multi-host file vs itself" "$CB" compare "$T/all.csv" "$T/all.csv"
check "multi-host matched by host" contains "$out" "matching by host"
check "multi-host: 8 points" contains "$out" "8 matched"
check "host column shown" contains "$out" "hostB  cbc(aes)"
sed 's/,hostB,\(.*\),1400000000,/,hostB,\1,1200000000,/' "$T/all.csv" >"$T/all2.csv"
expect_exit 1 "multi-host regression on one host" "$CB" compare "$T/all.csv" "$T/all2.csv"
check "regression names hostB" contains "$(printf '%s\n' "$out" | grep REGRESSION)" "hostB"
expect_exit 0 "--base-host/--new-host pick one host each" \
	"$CB" compare "$T/all.csv" "$T/all2.csv" --base-host hostA --new-host hostA
check "picked hosts shown" contains "$out" "host hostA"
expect_exit 1 "comparing two hosts of one file" \
	"$CB" compare "$T/all2.csv" "$T/all2.csv" --base-host hostA --new-host hostB
check "hosts ignored when one each" contains "$out" "hosts ignored"
expect_exit 2 "--host not in the file" "$CB" compare "$T/all.csv" "$T/all.csv" --host hostC
check "unknown host lists the hosts" contains "$err" "'hostA', 'hostB'"
expect_exit 0 "--by cpu pools hosts with one CPU" "$CB" compare "$T/all.csv" "$T/all.csv" --by cpu
check "--by cpu: 4 points" contains "$out" "4 matched"
expect_exit 0 "--where on a column" "$CB" compare "$T/all.csv" "$T/all.csv" --where 'alg=xts(aes)'
check "--where selects" contains "$out" "2 matched"
expect_exit 2 "--where on a missing column" "$CB" compare "$T/all.csv" "$T/all.csv" --where nosuch=1
check "missing column named" contains "$err" "nosuch"

# failed in NEW counts as a regression; skipped does not
{ echo "$H"; row hostA 'cbc(aes)' 128 16 encrypt cbc-aes-openssl "" "" failed "wrong ciphertext"; } >"$T/failed.csv"
expect_exit 1 "a point that now fails" "$CB" compare "$T/nb.csv" "$T/failed.csv"
check "FAILED verdict with the reason" contains "$out" "FAILED      wrong ciphertext"
{ echo "$H"; row hostA 'cbc(aes)' 128 16 encrypt cbc-aes-openssl "" "" skipped "no key size"; } >"$T/skipped.csv"
expect_exit 0 "a point now skipped" "$CB" compare "$T/nb.csv" "$T/skipped.csv"
check "skipped verdict" contains "$out" "skipped"

# csv output
expect_exit 1 "--format csv" "$CB" compare "$T/base.csv" "$T/new.csv" --format csv
check "csv header" contains "$(printf '%s\n' "$out" | head -n 1)" "group,tool,backend,driver,alg,key_bits"
check "csv regression row" contains "$out" ",regression"
check "csv only-base row" contains "$out" ",only-base"
check "csv summary on stderr" contains "$err" "1 regression"

# standard input
expect_exit 1 "NEW from standard input" sh -c "\"$CB\" compare \"$T/base.csv\" - <\"$T/new.csv\""

# nothing in common -> 77
{ echo "$H"; row hostA 'ctr(aes)' 128 16 encrypt ctr-aes-openssl 1000 0.01; } >"$T/other.csv"
expect_exit 77 "no common point" "$CB" compare "$T/base.csv" "$T/other.csv"
check "no common point explained" contains "$err" "nothing to compare"

# --dump: TSV for the plot script
expect_exit 0 "--dump" "$CB" compare --dump "$T/all.csv" "$T/nb.csv"
check "dump header" contains "$(printf '%s\n' "$out" | head -n 1)" "host	cpu_model	tool	backend"
check "dump rows: one per host and point" [ "$(printf '%s\n' "$out" | wc -l)" -eq 9 ]
check "dump merges files: 800 and 1000 MB/s" contains "$out" "	900	0.2222	2"
check "dump keeps the quoted cpu model" contains "$out" 'AMD EPYC 9R14 96-Core, "Zen 4"'
expect_exit 0 "--dump of repeated runs" "$CB" compare --dump "$T/runs.csv"
check "dump median of runs, spread across runs" contains "$out" "	1100	3.636	3"
expect_exit 0 "--dump --host" "$CB" compare --dump --host hostB "$T/all.csv"
check "dump --host selects" [ "$(printf '%s\n' "$out" | grep -c hostA)" -eq 0 ]

# malformed files: exit 2 naming FILE:LINE
# bad NAME LINE WORD: $T/NAME.csv must be rejected naming it and LINE
bad() {
	expect_exit 2 "bad $1" "$CB" compare "$T/base.csv" "$T/$1.csv"
	check "bad $1 names $1.csv:$2" contains "$err" "$T/$1.csv:$2:"
	check "bad $1 says $3" contains "$err" "$3"
	check "bad $1 prints no table" [ -z "$out" ]
}
{ echo "$H"; base_rows hostA; printf 'cryptobench-csv-1,"unterminated\r\n'; } >"$T/unterminated.csv"
bad unterminated 6 "unterminated"
{ echo "$H"; base_rows hostA | sed '3s/,8192,/,8k,/'; } >"$T/nonnumeric.csv"
bad nonnumeric 4 "'block_bytes': '8k'"
{ echo "$H"; base_rows hostA | sed '2s/,1400000000,/,fast,/'; } >"$T/badspeed.csv"
bad badspeed 3 "'bytes_per_sec': 'fast' is not a number"
{ echo "$H"; base_rows hostA | sed '4s/,256,/,/'; } >"$T/fields.csv"
bad fields 5 "27 fields, but the header (line 1) has 28 columns"
{ echo "$H"; base_rows hostA | sed 's/cryptobench-csv-1/cryptobench-csv-9/'; } >"$T/schema.csv"
bad schema 2 "unknown schema 'cryptobench-csv-9'"
{ echo "$H" | sed 's/,rel_spread,/,spread,/'; base_rows hostA; } >"$T/missingcol.csv"
bad missingcol 1 "missing required column 'rel_spread'"
{ echo "$H"; base_rows hostA; printf 'x\001y\n'; } >"$T/binary.csv"
bad binary 6 "control byte"
{ echo "$H"; base_rows hostA; printf 'cryptobench-csv-1,\0\n'; } >"$T/nul.csv"
bad nul 6 "NUL"
: >"$T/empty.csv"
bad empty 1 "empty file"
head -c 4096 /dev/urandom >"$T/random.csv"
expect_exit 2 "random bytes" "$CB" compare "$T/base.csv" "$T/random.csv"
check "random bytes name a line" contains "$err" "$T/random.csv:"
{ echo "$H"; row hostA 'cbc(aes)' 128 16 encrypt cbc-aes-openssl "" 0.01; } >"$T/nospeed.csv"
bad nospeed 2 "'bytes_per_sec' is empty in a measured row"
expect_exit 2 "malformed BASE" "$CB" compare "$T/fields.csv" "$T/base.csv"
check "malformed BASE named" contains "$err" "$T/fields.csv:5:"
# a bench's JSON given for its CSV (issue 45): said, naming the CSV beside it
printf '{\n  "schema": "cryptobench-json-1",\n  "results": []\n}\n' >"$T/run.json"
cp "$T/base.csv" "$T/run.csv"
expect_exit 2 "compare RUN.json RUN.csv" "$CB" compare "$T/run.json" "$T/run.csv"
check "it says cryptobench JSON, the CSV beside it" contains "$err" \
	"$T/run.json is cryptobench JSON; compare reads the CSV beside it: $T/run.csv"
check "not a CSV parse error" lacks "$err" "quote inside"
cp "$T/run.json" "$T/run2.json"
expect_exit 2 "NEW cryptobench JSON without its CSV" "$CB" compare "$T/base.csv" "$T/run2.json"
check "it says what to give" contains "$err" "run2.json is cryptobench JSON; compare reads the CSV beside it (the run's HOST-STAMP.csv)"
echo '{"a": 1}' >"$T/other.json"
expect_exit 2 "another JSON" "$CB" compare "$T/other.json" "$T/base.csv"
check "it says JSON, result CSV files" contains "$err" "other.json is JSON; compare reads result CSV files"
expect_exit 2 "--dump of cryptobench JSON" "$CB" compare --dump "$T/run.json"
check "--dump says it too" contains "$err" "is cryptobench JSON"
# a quoted field with a line break: later lines are numbered as in the file
FLAGS='"aes,
avx2"'
{ echo "$H"; base_rows hostA; FLAGS='"x"'; row hostA 'cbc(aes)' 128 64 encrypt d 1e9 zero; } >"$T/multiline.csv"
bad multiline 10 "'rel_spread': 'zero'"
FLAGS='"aes,
avx2"'
{ echo "$H"; base_rows hostA; } >"$T/multiline.csv"
expect_exit 0 "line breaks inside quoted fields" "$CB" compare "$T/base.csv" "$T/multiline.csv"
check "line breaks: 4 matched" contains "$out" "4 matched"

# cryptobench-csv-2 with raw samples (sample_ops): the statistical verdict
H2="$H,samples,ci_low_ops,ci_high_ops,mad_ops,ghz_drift,cpu_level,sample_ops"
# row2 HOST LEVEL ALG BLOCK FACTOR [STEP]: 15 samples around 1e6*FACTOR ops/s
row2() {
	awk -v h="$1" -v lvl="$2" -v alg="$3" -v blk="$4" -v f="$5" -v st="${6:-0.002}" 'BEGIN {
		s = ""; for (i = 0; i < 15; i++) {
			v = 1e6 * f * (1 + st * ((i * 7) % 15 - 7)); s = s (i ? " " : "") v }
		m = 1e6 * f
		printf "cryptobench-csv-2,0.2.0,%s,cpu,Linux 6.1,openssl,3.0.2,d,%s,128,%d,encrypt,%.0f,%.0f,1,1,3,15,0.03,2026-01-01T00:00:00Z,speed,ok,,per-request,0,1,,,15,%.0f,%.0f,1,0,%s,%s\r\n", h, alg, blk, m, m * blk, m * 0.99, m * 1.01, lvl, s }'
}
v2() { # FILE FACTOR_CBC FACTOR_CTR FACTOR_XTS [HOST LEVEL]
	{ echo "$H2"
	  row2 "${5:-hostA}" "${6:-max}" 'cbc(aes)' 4096 "$2"
	  row2 "${5:-hostA}" "${6:-max}" 'ctr(aes)' 4096 "$3"
	  row2 "${5:-hostA}" "${6:-max}" 'xts(aes)' 4096 "$4"; } >"$1"
}
v2 "$T/s_base.csv" 1 1 1
v2 "$T/s_new.csv" 0.8 1.01 1.2
expect_exit 1 "samples: a significant slowdown exits 1" "$CB" compare "$T/s_base.csv" "$T/s_new.csv"
check "samples: method stated" contains "$out" "3 points with raw samples: Mann-Whitney U, Benjamini-Hochberg over 3, FDR 0.05"
check "samples: SLOWER row" contains "$(printf '%s\n' "$out" | grep 'cbc(aes)')" "SLOWER"
check "samples: ratio with its CI" contains "$(printf '%s\n' "$out" | grep 'cbc(aes)')" " 0.800  0.7"
check "samples: 1% within the threshold is same" contains "$(printf '%s\n' "$out" | grep 'ctr(aes)')" "same"
check "samples: faster row" contains "$(printf '%s\n' "$out" | grep 'xts(aes)')" "faster"
check "samples: summary" contains "$out" "3 matched: 1 slower, 1 faster, 1 same, 0 inconclusive"
expect_exit 1 "samples: --holm" "$CB" compare "$T/s_base.csv" "$T/s_new.csv" --holm
check "samples: --holm stated" contains "$out" "3 points with raw samples: Mann-Whitney U, Holm over 3, alpha 0.05"
check "samples: --holm's column" contains "$out" "p(Holm)"
check "samples: --holm, the same verdicts here" contains "$out" "3 matched: 1 slower, 1 faster, 1 same, 0 inconclusive"
expect_exit 0 "samples: --threshold 25 tolerates 20%" "$CB" compare "$T/s_base.csv" "$T/s_new.csv" --threshold 25
check "samples: 20% within 25% is same" contains "$out" "0 slower, 0 faster, 3 same"
expect_exit 1 "samples: --format csv" "$CB" compare "$T/s_base.csv" "$T/s_new.csv" --format csv
check "samples csv: method and p columns" contains "$(printf '%s\n' "$out" | head -n 1)" "verdict,method,ratio_ci_low,ratio_ci_high,p_value,p_adj,base_samples,new_samples"
check "samples csv: slower row" contains "$out" ",slower,mann-whitney,"
# cryptobench-csv-4: samples from two processes (sample_procs), tested
# between every pair of processes: a layout slow in one process is not a
# regression, a change in both is
H4="$H2,mb,shared,contended,sample_procs"
# rowp ALG FACTOR_PROCESS1 FACTOR_PROCESS2 PROCS: 28 samples, 14 of each
rowp() {
	awk -v alg="$1" -v f1="$2" -v f2="$3" -v pr="$4" 'BEGIN {
		s = ""; for (i = 0; i < 28; i++) { f = i < 14 ? f1 : f2
			v = 1e6 * f * (1 + 0.002 * ((i * 7) % 15 - 7)); s = s (i ? " " : "") v }
		m = 1e6 * f1
		printf "cryptobench-csv-4,0.2.0,hostA,cpu,Linux 6.1,openssl,3.0.2,d,%s,128,4096,encrypt,%.0f,%.0f,1,1,3,28,0.03,2026-01-01T00:00:00Z,speed,ok,,per-request,0,1,,,15,%.0f,%.0f,1,0,max,%s,0,0.05,0,%s\r\n", alg, m, m * 4096, m * 0.99, m * 1.01, s, pr }'
}
{ echo "$H4"; rowp 'cbc(aes)' 1 1 "14 14"; } >"$T/p_base.csv"
{ echo "$H4"; rowp 'cbc(aes)' 1 0.8 "14 14"; } >"$T/p_layout.csv"
{ echo "$H4"; rowp 'cbc(aes)' 0.8 0.8 "14 14"; } >"$T/p_real.csv"
{ echo "$H4"; rowp 'cbc(aes)' 1 0.8 ""; } >"$T/p_one.csv"
expect_exit 0 "processes: one slow process of two is not a regression" "$CB" compare "$T/p_base.csv" "$T/p_layout.csv"
check "processes: the method says so" contains "$out" "1 of them from several processes (or runs) on both sides: tested process by process"
check "processes: that point is inconclusive" contains "$(printf '%s\n' "$out" | grep 'cbc(aes)')" "inconclusive"
check "processes: how far the processes spread the ratio" contains "$out" "processes: 1 point was tested process by process"
check "processes: one at 1.0, one at 0.8" sh -c 'printf "%s\n" "$1" | tr -s "\n " "  " | grep -Eq "ratios spread \+-1[01]\.[0-9] % at half of them"' _ "$out"
expect_exit 1 "processes: a slowdown in both processes is SLOWER" "$CB" compare "$T/p_base.csv" "$T/p_real.csv"
check "processes: SLOWER row" contains "$(printf '%s\n' "$out" | grep 'cbc(aes)')" "SLOWER"
expect_exit 1 "processes: one process on a side pools the samples (and calls it)" "$CB" compare "$T/p_base.csv" "$T/p_one.csv"
check "processes: no process-by-process line then" lacks "$out" "tested process by process"
{ echo "$H4"; rowp 'cbc(aes)' 1 1 "14 15"; } >"$T/p_sum.csv"
expect_exit 2 "processes: counts that do not add up are refused" "$CB" compare "$T/p_base.csv" "$T/p_sum.csv"
check "processes: the bad column named with FILE:LINE" contains "$err" "$T/p_sum.csv:2: column 'sample_procs': '14 15' is not the samples of each process (28 in all)"
v2 "$T/s_same.csv" 1 1 1
expect_exit 0 "samples: identical files are same" "$CB" compare "$T/s_base.csv" "$T/s_same.csv"
check "samples: identical -> 3 same" contains "$out" "0 slower, 0 faster, 3 same, 0 inconclusive"
# exit 1 only for slowdowns past the threshold: faster points, and a
# slowdown that is significant but smaller than the threshold, exit 0
v2 "$T/s_fast.csv" 1.3 1.2 1.1
expect_exit 0 "samples: only faster points exit 0" "$CB" compare "$T/s_base.csv" "$T/s_fast.csv"
check "samples: three faster" contains "$out" "3 matched: 0 slower, 3 faster, 0 same"
{ echo "$H2"; row2 hostA max 'cbc(aes)' 4096 1 0.0005; } >"$T/s_tight_b.csv"
{ echo "$H2"; row2 hostA max 'cbc(aes)' 4096 0.98 0.0005; } >"$T/s_tight_n.csv"
expect_exit 0 "samples: a significant 2% slowdown within 2.5% exits 0" \
	"$CB" compare "$T/s_tight_b.csv" "$T/s_tight_n.csv" --format csv
check "samples: it is significant (p < 0.05)" sh -c \
	"printf '%s\n' \"\$1\" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } { exit !(\$c[\"p_adj\"] < 0.05) }'" - "$out"
check "samples: and same" contains "$out" ",same,mann-whitney,"
# the default threshold (2.5 %) sees a 4.76 % slowdown bench can resolve
# (1 request in 20 done twice, what make bench-power plants)
{ echo "$H2"; row2 hostA max 'cbc(aes)' 4096 0.9524 0.0005; } >"$T/s_476.csv"
expect_exit 1 "samples: a 4.76% slowdown is SLOWER by default" \
	"$CB" compare "$T/s_tight_b.csv" "$T/s_476.csv"
check "samples: default threshold 2.5%" contains "$out" "1 matched: 1 slower, 0 faster, 0 same, 0 inconclusive; 0 only in BASE, 0 only in NEW (threshold 2.5%)"
check "samples: the resolution said" contains "$out" "resolution: the ratio's 95 % CI is +-"
expect_exit 1 "samples: the same slowdown past --threshold 2 exits 1" \
	"$CB" compare "$T/s_tight_b.csv" "$T/s_tight_n.csv" --threshold 2
# wide noise (30 % steps): a 10 % change is not established
v2 "$T/s_wide_b.csv" 1 1 1
{ echo "$H2"; row2 hostA max 'cbc(aes)' 4096 1 0.04; } >"$T/s_wide_b.csv"
{ echo "$H2"; row2 hostA max 'cbc(aes)' 4096 0.93 0.04; } >"$T/s_wide_n.csv"
expect_exit 0 "samples: noisy 7% is inconclusive, exit 0" "$CB" compare "$T/s_wide_b.csv" "$T/s_wide_n.csv"
check "samples: inconclusive verdict" contains "$out" "inconclusive"
# v1 against v2: no samples on one side -> the spread rule, said so
{ echo "$H"; row hostA 'cbc(aes)' 128 4096 encrypt d 4096000000 0.01; } >"$T/s_v1.csv"
expect_exit 0 "v1 base, v2 new: fallback" "$CB" compare "$T/s_v1.csv" "$T/s_base.csv"
check "fallback stated" contains "$out" "samples: the spread rule"
check "fallback uses the old verdicts" contains "$out" "0 regressions"
{ echo "$H2"; row2 hostA max 'cbc(aes)' 4096 1 | sed 's/ [^ ]*\r$/ fast\r/'; } >"$T/s_bad.csv"
expect_exit 2 "samples: a bad sample_ops value" "$CB" compare "$T/s_base.csv" "$T/s_bad.csv"
check "bad sample named with FILE:LINE" contains "$err" "$T/s_bad.csv:2: column 'sample_ops': 'fast'"

# a fleet: hosts (or CPU levels) cat'ed together, each against a baseline
v2 "$T/f_a.csv" 1 1 1 hostA
v2 "$T/f_b.csv" 0.8 1 1 hostB
v2 "$T/f_c.csv" 1 1.01 1 hostC
cat "$T/f_a.csv" "$T/f_b.csv" "$T/f_c.csv" >"$T/fleet.csv"
expect_exit 1 "--baseline: a host slower than the baseline exits 1" "$CB" compare --baseline hostA "$T/fleet.csv"
check "--baseline: hostB section" contains "$out" "NEW  host=hostB: 3 points"
check "--baseline: hostB summary" contains "$out" "summary of host=hostB: 3 matched: 1 slower, 0 faster, 2 same"
check "--baseline: hostC summary" contains "$out" "summary of host=hostC: 3 matched: 0 slower, 0 faster, 3 same"
check "--baseline: last line counts all" contains "$(printf '%s\n' "$out" | tail -n 1)" "2 host values against host hostA: 6 matched: 1 slower"
expect_exit 0 "--baseline hostC vs hostA only (--where)" "$CB" compare --baseline hostA --new-host hostC "$T/fleet.csv"
check "--new-host selects the compared hosts" lacks "$out" "hostB"
expect_exit 1 "--baseline --format csv" "$CB" compare --baseline hostA --format csv "$T/fleet.csv"
check "--baseline csv: host column" contains "$(printf '%s\n' "$out" | head -n 1)" "host,tool,backend"
check "--baseline csv: hostB slower row" contains "$(printf '%s\n' "$out" | grep '^hostB,.*cbc(aes)')" ",slower,"
expect_exit 2 "--baseline not in the files" "$CB" compare --baseline hostZ "$T/fleet.csv"
check "--baseline: the hosts listed" contains "$err" "'hostA', 'hostB', 'hostC'"
expect_exit 2 "--baseline with --dump" "$CB" compare --baseline hostA --dump "$T/fleet.csv"
v2 "$T/l_a.csv" 1 1 1 hostA aesni
v2 "$T/l_v.csv" 1.5 1 1 hostA vaes512
cat "$T/l_v.csv" "$T/l_a.csv" >"$T/levels.csv"
expect_exit 1 "--by cpu_level --baseline vaes512" "$CB" compare --by cpu_level --baseline vaes512 "$T/levels.csv"
check "cpu_level: aesni slower on cbc" contains "$(printf '%s\n' "$out" | grep 'cbc(aes)')" "SLOWER"
check "cpu_level: summary" contains "$out" "1 cpu_level value against cpu_level vaes512"
{ echo "$H"; row hostA 'cbc(aes)' 128 4096 encrypt d 4096000000 0.01; } >"$T/l_v1.csv"
cat "$T/l_a.csv" "$T/l_v1.csv" >"$T/levels1.csv"
expect_exit 0 "cpu_level: a version 1 file counts as max" "$CB" compare --by cpu_level --baseline max "$T/levels1.csv"
check "cpu_level: max against aesni" contains "$out" "NEW  cpu_level=aesni"

# cryptobench-csv-5: ct rows (cryptobench ct) are verdicts, not speeds.
# Their own section: matched by backend, driver, alg, key bits and CPU
# level; clean -> secret-dependent is WORSE (exit 1); speeds ignore them.
H5="$H,cpu_level,ct_verdict,ct_method,ct_t,ct_measurements,ct_branches,ct_indexes,ct_places,ct_note"
# ctrow HOST BACKEND DRIVER ALG BITS LEVEL VERDICT [STATUS ERROR]
ctrow() {
	printf 'cryptobench-csv-5,0.1.0,%s,cpu,Linux 6.1,%s,3.0.2,%s,%s,%s,0,-,,,,,,0,,2026-01-01T00:00:00Z,ct,%s,%s,,0,1,,,%s,%s,memcheck+timing,0.42,40000,0,2,"memory index: BF_encrypt (in libcrypto.so.3), twice",\r\n' \
		"$1" "$2" "$3" "$4" "$5" "${8:-ok}" "${9:-}" "$6" "$7"
}
ct3() {   # HOST VERDICT-OF-AES-AT-GENERIC
	ctrow "$1" openssl cbc-aes-openssl 'cbc(aes)' 128 generic "$2"
	ctrow "$1" openssl cbc-aes-openssl 'cbc(aes)' 128 max constant-time
	ctrow "$1" nettle cbc-blowfish-nettle 'cbc(blowfish)' 128 max 'secret-dependent branch'
}
{ echo "$H5"; ct3 hostA constant-time; } >"$T/ct_base.csv"
{ echo "$H5"; ct3 hostA 'secret-dependent memory index'; } >"$T/ct_worse.csv"
expect_exit 0 "ct: identical verdicts exit 0" "$CB" compare "$T/ct_base.csv" "$T/ct_base.csv"
check "ct: rows counted as verdicts, not points" contains "$out" "0 points from 0 rows, 3 ct verdicts"
check "ct: nothing changed" contains "$out" "constant time: 3 implementations in both at one CPU level, 0 verdicts changed"
check "ct: summary counts them" contains "$out" "; ct: 3 matched: 0 WORSE, 0 better, 0 changed, 3 same"
expect_exit 1 "ct: clean -> secret-dependent exits 1" "$CB" compare "$T/ct_base.csv" "$T/ct_worse.csv"
check "ct: the changed verdict's line" contains "$out" "ct: openssl cbc(aes) at --cpu generic: constant-time -> secret-dependent memory index  WORSE"
check "ct: only the changed one listed" [ "$(printf '%s\n' "$out" | grep -c '^ct: ')" -eq 1 ]
check "ct: counted WORSE" contains "$out" "ct: 3 matched: 1 WORSE, 0 better, 0 changed, 2 same"
expect_exit 0 "ct: secret-dependent -> clean exits 0" "$CB" compare "$T/ct_worse.csv" "$T/ct_base.csv"
check "ct: better" contains "$out" "secret-dependent memory index -> constant-time  better"
{ echo "$H5"; ct3 hostA 'no timing leak found'; } >"$T/ct_tonly.csv"
{ echo "$H5"; ct3 hostA 'secret-dependent timing'; } >"$T/ct_tleak.csv"
expect_exit 0 "ct: constant-time -> no timing leak found is a change, exit 0" "$CB" compare "$T/ct_base.csv" "$T/ct_tonly.csv"
check "ct: changed" contains "$out" "constant-time -> no timing leak found  changed"
expect_exit 1 "ct: no timing leak found -> secret-dependent timing exits 1" "$CB" compare "$T/ct_tonly.csv" "$T/ct_tleak.csv"
{ echo "$H5"; ct3 hostA 'not checked'; } >"$T/ct_nc.csv"
expect_exit 0 "ct: not checked -> secret-dependent is a change, not a regression" "$CB" compare "$T/ct_nc.csv" "$T/ct_worse.csv"
check "ct: not checked -> leak: changed" contains "$out" "not checked -> secret-dependent memory index  changed"
# several rows of one implementation in a file: the worst counts
{ echo "$H5"; ct3 hostA constant-time; ctrow hostA openssl cbc-aes-openssl 'cbc(aes)' 128 max 'secret-dependent branch'; } >"$T/ct_twice.csv"
expect_exit 1 "ct: the worst of repeated rows counts" "$CB" compare "$T/ct_base.csv" "$T/ct_twice.csv"
check "ct: at --cpu max" contains "$out" "ct: openssl cbc(aes) at --cpu max: constant-time -> secret-dependent branch  WORSE"
# other CPU levels are other implementations
sed 's/,generic,/,aesni,/; s/,max,/,avx2,/' "$T/ct_worse.csv" >"$T/ct_levels.csv"
expect_exit 77 "ct: no verdict at one CPU level in both: nothing to compare" "$CB" compare "$T/ct_base.csv" "$T/ct_levels.csv"
check "ct: none in both, said" contains "$out" "constant time: no implementation in both at one CPU level (3 ct verdicts only in BASE, 3 only in NEW)"
# --ignore driver matches another driver name of the backend
sed 's/cbc-aes-openssl/cbc-aes-openssl-v2/' "$T/ct_worse.csv" >"$T/ct_drv.csv"
expect_exit 1 "ct: --ignore driver" "$CB" compare "$T/ct_base.csv" "$T/ct_drv.csv" --ignore driver
# two drivers of one backend and alg: the line names the driver
{ echo "$H5"; ct3 hostA constant-time; ctrow hostA openssl cbc-aes-other 'cbc(aes)' 128 generic constant-time; } >"$T/ct_2b.csv"
{ echo "$H5"; ct3 hostA 'secret-dependent memory index'; ctrow hostA openssl cbc-aes-other 'cbc(aes)' 128 generic constant-time; } >"$T/ct_2n.csv"
expect_exit 1 "ct: two drivers" "$CB" compare "$T/ct_2b.csv" "$T/ct_2n.csv"
check "ct: the driver named when two share backend and alg" contains "$out" "ct: openssl cbc(aes) (cbc-aes-openssl, 128-bit) at --cpu generic:"
# with speed rows: the speeds compare as before, ct rows apart
{ echo "$H5"; base_rows hostA | sed 's/\r$/,max,,,,,,,,\r/'; ct3 hostA constant-time; } >"$T/ct_mixb.csv"
{ echo "$H5"; base_rows hostA | sed 's/\r$/,max,,,,,,,,\r/'; ct3 hostA 'secret-dependent branch'; } >"$T/ct_mixn.csv"
expect_exit 1 "ct and speed: the ct regression exits 1" "$CB" compare "$T/ct_mixb.csv" "$T/ct_mixn.csv"
check "ct and speed: the speed points as before" contains "$out" "4 matched: 0 regressions, 0 improved, 4 same, 0 noise; 0 only in BASE, 0 only in NEW (threshold 2.5%); ct: 3 matched: 1 WORSE"
check "ct and speed: no ct row in the speed table" lacks "$(printf '%s\n' "$out" | grep ' same$')" " -  "
expect_exit 0 "ct rows against a file without: speeds only" "$CB" compare "$T/ct_mixb.csv" "$T/base.csv"
check "ct rows against none: 4 matched" contains "$out" "4 matched: 0 regressions, 0 improved, 4 same"
check "ct rows against none: said" contains "$out" "(3 ct verdicts only in BASE, 0 only in NEW)"
expect_exit 1 "ct: --format csv" "$CB" compare "$T/ct_mixb.csv" "$T/ct_mixn.csv" --format csv
check "ct csv: the header's ct columns" contains "$(printf '%s\n' "$out" | head -n 1)" ",new_samples,ct_cpu_level,base_ct_verdict,new_ct_verdict"
check "ct csv: every row as wide as the header" sh -c "printf '%s\n' \"\$1\" | awk -F, '{ print NF }' | sort -u | wc -l | grep -qx 1" - "$out"
check "ct csv: a row of its own" contains "$out" ",ct,openssl,cbc-aes-openssl,cbc(aes),128,0,-,"
check "ct csv: its verdict and the two verdicts" contains "$out" ",ct-worse,ct,,,,,0,0,generic,constant-time,secret-dependent branch"
check "ct csv: only the changed one" [ "$(printf '%s\n' "$out" | grep -c ',ct,')" -eq 1 ]
check "ct csv: the summary on stderr" contains "$err" "ct: 3 matched: 1 WORSE"
expect_exit 0 "ct: --dump" "$CB" compare --dump "$T/ct_mixb.csv"
check "ct: --dump has the 4 speed points only" [ "$(printf '%s\n' "$out" | wc -l)" -eq 5 ]
# a fleet: each host's verdicts against the baseline's
{ echo "$H5"; ct3 hostA constant-time; ct3 hostB 'secret-dependent memory index'; ct3 hostC constant-time; } >"$T/ct_fleet.csv"
expect_exit 1 "ct: --baseline, a host with a new leak exits 1" "$CB" compare --baseline hostA "$T/ct_fleet.csv"
check "ct: --baseline: hostB's line" contains "$out" "ct: openssl cbc(aes) at --cpu generic: constant-time -> secret-dependent memory index  WORSE"
check "ct: --baseline: hostB's summary" contains "$out" "summary of host=hostB: 0 matched"
check "ct: --baseline: hostC same" contains "$(printf '%s\n' "$out" | grep 'summary of host=hostC')" "ct: 3 matched: 0 WORSE, 0 better, 0 changed, 3 same"
expect_exit 1 "ct: --baseline --format csv" "$CB" compare --baseline hostA --format csv "$T/ct_fleet.csv"
check "ct: --baseline csv: the host in the first column" contains "$out" "hostB,ct,openssl,cbc-aes-openssl"
expect_exit 0 "ct: --by host of one file, two hosts" "$CB" compare "$T/ct_fleet.csv" "$T/ct_fleet.csv"
check "ct: host by host: 9 matched" contains "$out" "ct: 9 matched: 0 WORSE"
# bad ct rows: FILE:LINE
{ echo "$H5"; ct3 hostA constant-time; ctrow hostA gcrypt d 'cbc(aes)' 128 max 'mostly fine'; } >"$T/ct_bad.csv"
expect_exit 2 "ct: a garbled verdict" "$CB" compare "$T/ct_base.csv" "$T/ct_bad.csv"
check "ct: garbled verdict named with FILE:LINE" contains "$err" "$T/ct_bad.csv:5: column 'ct_verdict': 'mostly fine' is not a ct verdict (secret-dependent branch,"
{ echo "$H5"; ctrow hostA gcrypt d 'cbc(aes)' 128 max ''; } >"$T/ct_empty.csv"
expect_exit 2 "ct: a ct row without a verdict" "$CB" compare "$T/ct_empty.csv" "$T/ct_base.csv"
check "ct: no verdict named" contains "$err" "$T/ct_empty.csv:2: column 'ct_verdict': '' is not a ct verdict"
sed 's/,0\.42,40000,/,0.42,lots,/' "$T/ct_base.csv" >"$T/ct_badn.csv"
expect_exit 2 "ct: measurements not a number" "$CB" compare "$T/ct_base.csv" "$T/ct_badn.csv"
check "ct: bad measurements named" contains "$err" "ct_badn.csv:2: column 'ct_measurements'"
{ head -n 1 "$T/ct_base.csv" | sed 's/,ct_verdict//'; } >"$T/ct_nocol.csv"
ctrow hostA openssl cbc-aes-openssl 'cbc(aes)' 128 max constant-time | sed 's/,constant-time,/,/' >>"$T/ct_nocol.csv"
expect_exit 2 "ct: a ct row in a file without ct_verdict" "$CB" compare "$T/ct_base.csv" "$T/ct_nocol.csv"

# ---- what a point is (issue 44) ----------------------------------------
# brow LEVEL BACKEND DRIVER ALG BLOCK BYTES_PER_SEC: a row at a --cpu level
brow() {
	row hostA "$4" 128 "$5" encrypt "$3" "$6" 0.01 |
		sed -e "s/,Linux 6.1,openssl,/,Linux 6.1,$2,/" -e "s/\r\$/,$1\r/"
}
HL="$H,cpu_level"
FLAGS='"aes,avx2,sha_ni"'
# native's driver names its code path: two --cpu levels are still native
# against native; a native slowdown past the threshold exits 1
levels() {   # LEVEL PATH NATIVE_SCALE
	for b in 512 4096; do
		brow "$1" native "xts-aes-native-$2" 'xts(aes)' $b $((4000000000 * $3 / 10))
		brow "$1" native "cbc-aes-native-$2" 'cbc(aes)' $b $((2000000000 * $3 / 10))
		brow "$1" openssl xts-aes-openssl 'xts(aes)' $b 3000000000
	done
}
{ echo "$HL"; levels vaes256 vaes256 10; } >"$T/lv_hi.csv"
{ echo "$HL"; levels aesni aesni 7; } >"$T/lv_lo.csv"
expect_exit 1 "levels: native slower at aesni exits 1" "$CB" compare "$T/lv_hi.csv" "$T/lv_lo.csv"
check "levels: every point matched" contains "$out" "6 matched: 4 regressions, 0 improved, 2 same, 0 noise; 0 only in BASE, 0 only in NEW"
# (the note is cut to fit 120 columns: the key after the table has it whole)
check "levels: native against native" contains "$(printf '%s\n' "$out" | grep '^xts(aes).*native' | head -n 1)" "REGRESSION  native path vaes"
check "levels: the note whole in the key" contains "$out" "] = native path vaes256 -> aesni"
expect_exit 0 "levels: the other way, native faster" "$CB" compare "$T/lv_lo.csv" "$T/lv_hi.csv"
check "levels: improved" contains "$out" "4 improved"
cat "$T/lv_hi.csv" "$T/lv_lo.csv" >"$T/lv_both.csv"
expect_exit 1 "levels: --by cpu_level --baseline matches native" "$CB" compare --by cpu_level --baseline vaes256 "$T/lv_both.csv"
check "levels: fleet, every point matched" contains "$out" "6 matched: 4 regressions"
# compositions: every part's path left out
{ echo "$HL"; brow vaes512 native '"essiv(cbc-aes-native-vaes512,ecb-aes-native-vaes512,sha256-openssl)"' '"essiv(cbc(aes),sha256)"' 4096 1000000000; } >"$T/lv_e1.csv"
{ echo "$HL"; brow aesni native '"essiv(cbc-aes-native-aesni,ecb-aes-native-aesni,sha256-openssl)"' '"essiv(cbc(aes),sha256)"' 4096 1000000000; } >"$T/lv_e2.csv"
expect_exit 0 "levels: an ESSIV composition matches" "$CB" compare "$T/lv_e1.csv" "$T/lv_e2.csv"
check "levels: composition matched" contains "$out" "1 matched"
# a file holding two paths of one key: the fastest, said so
cat "$T/lv_hi.csv" "$T/lv_lo.csv" | sed -e '1!{/^schema/d;}' >"$T/lv_cat.csv"
expect_exit 0 "levels: two paths in one file" "$CB" compare "$T/lv_cat.csv" "$T/lv_hi.csv"
check "levels: two paths: the fastest, not a median" contains "$out" "each side's fastest, never a median"
check "levels: two paths: all same" contains "$out" "6 matched: 0 regressions, 0 improved, 6 same"

# a backend or algorithm missing from NEW is a finding
{ echo "$HL"; levels vaes256 vaes256 10 | grep -v ',native,'; } >"$T/lv_nonative.csv"
expect_exit 1 "missing: a backend gone from NEW exits 1" "$CB" compare "$T/lv_hi.csv" "$T/lv_nonative.csv"
check "missing: the backend named" contains "$out" "MISSING from NEW: backend native (4 points of BASE)"
check "missing: the flag named" contains "$out" "--allow-missing allows it"
expect_exit 0 "missing: --allow-missing" "$CB" compare "$T/lv_hi.csv" "$T/lv_nonative.csv" --allow-missing
check "missing: allowed, still said" contains "$out" "(allowed: --allow-missing)"
expect_exit 0 "missing: a backend new in NEW is no finding" "$CB" compare "$T/lv_nonative.csv" "$T/lv_hi.csv"
{ echo "$HL"; levels vaes256 vaes256 10 | grep -v 'cbc-aes'; } >"$T/lv_nocbc.csv"
expect_exit 1 "missing: an algorithm gone from NEW exits 1" "$CB" compare "$T/lv_hi.csv" "$T/lv_nocbc.csv"
check "missing: the algorithm named" contains "$out" "MISSING from NEW: algorithm cbc(aes) of native (2 points of BASE)"
expect_exit 1 "missing: --format csv says it on stderr" "$CB" compare "$T/lv_hi.csv" "$T/lv_nocbc.csv" --format csv
check "missing: csv: stderr" contains "$err" "MISSING from NEW: algorithm cbc(aes) of native"

# points that differ only in columns --ignore leaves out: said, with how
{ echo "$HL"; for b in 16 64 256 512 1024 2048 4096 8192 16384 32768 65536 131072; do
	brow max gcrypt xts-aes-gcrypt 'xts(aes)' $b 3000000000
	brow max gcrypt cbc-aes-gcrypt 'cbc(aes)' $b 1000000000; done; } >"$T/mm_b.csv"
{ echo "$HL"; for b in 16 64 256 512 1024 2048 4096 8192 16384 32768 65536 131072; do
	brow max openssl xts-aes-openssl 'xts(aes)' $b 3000000000
	brow max openssl cbc-aes-openssl 'cbc(aes)' $b 1000000000; done; } >"$T/mm_n.csv"
expect_exit 77 "hint: nothing in common" "$CB" compare "$T/mm_b.csv" "$T/mm_n.csv"
check "hint: which columns and how" contains "$out" "24 of BASE's 24 unmatched points differ from one of NEW's only in backend,driver: --ignore backend,driver compares them"
check "hint: the list is cut" contains "$out" "  ... and 4 more (--format csv lists every one)"
check "hint: the list is cut to 20 lines" [ "$(printf '%s\n' "$out" | grep -c '^  xts\|^  cbc')" -eq 40 ]
expect_exit 0 "hint: --ignore backend,driver" "$CB" compare "$T/mm_b.csv" "$T/mm_n.csv" --ignore backend,driver
check "hint: --ignore: 24 matched" contains "$out" "24 matched: 0 regressions, 0 improved, 24 same"
check "hint: --ignore: the note names both" contains "$out" "gcrypt xts-aes-gcrypt -> openssl xts-aes-openssl"

# --ignore never averages implementations: each side's fastest
{ echo "$HL"; brow max openssl xts-aes-openssl 'xts(aes)' 4096 1000000000
  brow max gcrypt xts-aes-gcrypt 'xts(aes)' 4096 1500000000
  brow max native xts-aes-native-vaes512 'xts(aes)' 4096 3000000000; } >"$T/fa_b.csv"
{ echo "$HL"; brow max native xts-aes-native-vaes512 'xts(aes)' 4096 3000000000; } >"$T/fa_n.csv"
expect_exit 0 "fastest: --ignore backend,driver" "$CB" compare "$T/fa_b.csv" "$T/fa_n.csv" --ignore backend,driver
check "fastest: native against native, not the median (1500)" contains "$out" "3000.0     3000.0"
check "fastest: said in the note" contains "$out" "(the fastest of 3 -> of 1)"
check "fastest: said above the table" contains "$out" "1 point where one side has several implementations"

# the geli seed against this project's dd rows: no 600-line list, a hint
{ echo "$HL"; for be in openssl native; do
	brow max $be "xts-aes-$be" 'xts(aes)' 1048576 900000000 |
		sed -e 's/,speed,ok,,per-request,0,/,dd,ok,,per-sector,4096,/' -e 's/,xts(aes),128,/,xts(aes),512,/'
	done; } >"$T/geli_dd.csv"
expect_exit 77 "seed: nothing in common without --ignore" "$CB" compare results/reference/geli-seed.csv "$T/geli_dd.csv"
check "seed: the hint" contains "$out" "--ignore backend,driver compares them"

# how noisy: the shared share of each side, and what the CIs could see
sed -e '1s/$/,shared/' -e '2,$s/\r$/,0.25\r/' "$T/lv_hi.csv" | sed '1s/\r,shared$/,shared\r/' >"$T/sh_b.csv"
expect_exit 0 "noise: the shared column read" "$CB" compare "$T/sh_b.csv" "$T/lv_hi.csv"
check "noise: the shared share said" contains "$out" "noise: timed segments shared with another tenant: BASE 25.0 %, NEW not recorded"

# missing files and usage
expect_exit 2 "missing file" "$CB" compare "$T/base.csv" "$T/nope.csv"
check "missing file named" contains "$err" "$T/nope.csv"
expect_exit 2 "missing BASE" "$CB" compare "$T/nope.csv" "$T/base.csv"
check "missing BASE named" contains "$err" "$T/nope.csv"
expect_exit 2 "a directory" "$CB" compare "$T/base.csv" "$T"
expect_exit 2 "one file" "$CB" compare "$T/base.csv"
check "one file: the fleet form named" contains "$err" "--baseline VALUE FILE..."
expect_exit 2 "three files" "$CB" compare "$T/base.csv" "$T/base.csv" "$T/base.csv"
expect_exit 2 "bad threshold" "$CB" compare "$T/base.csv" "$T/new.csv" --threshold x
check "bad threshold named" contains "$err" "--threshold 'x'"
expect_exit 2 "negative threshold" "$CB" compare "$T/base.csv" "$T/new.csv" --threshold -5
expect_exit 2 "bad format" "$CB" compare "$T/base.csv" "$T/new.csv" --format xml
check "bad format named" contains "$err" "xml"
expect_exit 2 "bad --where" "$CB" compare "$T/base.csv" "$T/new.csv" --where host
expect_exit 2 "unknown option" "$CB" compare "$T/base.csv" "$T/new.csv" --frob
expect_exit 2 "--by a missing column" "$CB" compare "$T/base.csv" "$T/new.csv" --by nosuch
expect_exit 2 "--dump without files" "$CB" compare --dump
expect_exit 0 "--help" "$CB" compare --help
check "help mentions --threshold" contains "$out" "--threshold"

finish
