#!/bin/sh
# cryptobench list: the backends and the algorithms with their drivers;
# `list algs --ct FILE` ends each implementation line with its verdict
# from a ct run's CSV (cryptobench-csv-5 ct rows) at this run's --cpu
# level (else every level the file has), "ct: -" where the file has none;
# a bad file exits 2 naming it (and the line), as do bad arguments.
. tests/lib.sh

lacks() { ! contains "$@"; }
expect_exit 0 "list" "$CB" list
check "list: the backends" contains "$out" "backend  version"
check "list: the algorithms" contains "$out" "cbc(aes)  (cipher;"
check "list: no ct column without --ct" lacks "$out" "  ct: "

H='schema,tool_version,host,cpu_model,kernel,backend,backend_version,driver,alg,key_bits,block_bytes,direction,ops_per_sec,bytes_per_sec,ns_per_byte,cycles_per_byte,ghz,reps,rel_spread,timestamp,tool,status,error,cpu_level,ct_verdict,ct_method,ct_t,ct_measurements,ct_branches,ct_indexes,ct_places,ct_note'
ctrow() {   # BACKEND DRIVER ALG LEVEL VERDICT METHOD
	printf 'cryptobench-csv-5,0.1.0,h,cpu,Linux,%s,1,%s,%s,128,0,-,,,,,,0,,2026-01-01T00:00:00Z,ct,ok,,%s,%s,%s,0.4,40000,0,2,"memory index: BF_encrypt (in libcrypto.so.3)",\r\n' \
		"$1" "$2" "$3" "$4" "$5" "$6"
}
{ echo "$H"
  ctrow openssl cbc-aes-openssl 'cbc(aes)' max constant-time memcheck+timing
  ctrow openssl cbc-aes-openssl 'cbc(aes)' generic 'secret-dependent memory index' memcheck+timing
  ctrow nettle cbc-blowfish-nettle 'cbc(blowfish)' max 'secret-dependent branch' memcheck+timing
  ctrow nettle cbc-blowfish-nettle 'cbc(blowfish)' max 'no timing leak found' timing
} >"$T/ct.csv"
line() { printf '%s\n' "$out" | grep -E "^    $1 +$2 "; }

expect_exit 0 "list algs --ct" "$CB" list algs --ct "$T/ct.csv"
check "--ct: the verdict at this level, its method" \
	contains "$(line openssl cbc-aes-openssl)" "  ct: constant-time (memcheck+timing, --cpu max)"
check "--ct: the line ends with it" sh -c "printf '%s\n' \"\$1\" | grep -Eq 'ct: constant-time \\(memcheck\\+timing, --cpu max\\)\$'" - "$(line openssl cbc-aes-openssl)"
check "--ct: the worst of two rows" contains "$(line nettle cbc-blowfish-nettle)" "ct: secret-dependent branch (memcheck+timing, --cpu max)"
check "--ct: none in the file: ct: -" sh -c "printf '%s\n' \"\$1\" | grep -Eq 'ct: -\$'" - "$(line openssl ecb-aes-openssl)"
check "--ct: every implementation line has it" \
	[ "$(printf '%s\n' "$out" | grep -E '^    [a-z0-9]+ +[^ (]' | grep -c 'prio')" -eq "$(printf '%s\n' "$out" | grep -c '  ct: ')" ]
check "--ct: not the 'not provided' lines" sh -c "! printf '%s\n' \"\$1\" | grep 'not provided' | grep -q 'ct:'" - "$out"
expect_exit 0 "--cpu generic list algs --ct" "$CB" --cpu generic list algs --ct "$T/ct.csv"
check "--ct at --cpu generic: that level's verdict" \
	contains "$(line openssl cbc-aes-openssl)" "ct: secret-dependent memory index (memcheck+timing, --cpu generic)"
expect_exit 0 "--cpu aesni: no row at this level" "$CB" --cpu aesni list algs --ct "$T/ct.csv"
check "--ct at another level: every level the file has" \
	contains "$(line openssl cbc-aes-openssl)" "ct: constant-time (memcheck+timing, --cpu max); secret-dependent memory index (memcheck+timing, --cpu generic)"
expect_exit 0 "list --ct: both parts" "$CB" list --ct "$T/ct.csv"
check "list --ct: the backends too" contains "$out" "backend  version"
check "list --ct: the verdicts" contains "$out" "ct: constant-time"

# a result file without ct rows: said, and every line "ct: -"
printf '%s\r\n' "$H" >"$T/none.csv"
expect_exit 0 "--ct FILE without ct rows" "$CB" list algs --ct "$T/none.csv"
check "no ct rows: said" contains "$err" "has no ct rows"
check "no ct rows: ct: -" contains "$(line openssl cbc-aes-openssl)" "ct: -"

# bad input: exit 2, FILE:LINE
{ cat "$T/ct.csv"; ctrow openssl d 'cbc(aes)' max 'constant-ish' timing; } >"$T/bad.csv"
expect_exit 2 "--ct: a garbled verdict" "$CB" list algs --ct "$T/bad.csv"
check "--ct: the verdict named with FILE:LINE" contains "$err" "$T/bad.csv:6: column 'ct_verdict': 'constant-ish' is not a ct verdict"
check "--ct: nothing listed" [ -z "$out" ]
sed 's/,40000,/,many,/' "$T/ct.csv" >"$T/badn.csv"
expect_exit 2 "--ct: a count that is not one" "$CB" list algs --ct "$T/badn.csv"
check "--ct: the column named" contains "$err" "badn.csv:2: column 'ct_measurements'"
expect_exit 2 "--ct: no such file" "$CB" list algs --ct "$T/nope.csv"
check "--ct: the file named" contains "$err" "$T/nope.csv: No such file or directory"
printf 'not,a\nresult,file\n' >"$T/notcsv.csv"
expect_exit 2 "--ct: not a result file" "$CB" list algs --ct "$T/notcsv.csv"
check "--ct: what is missing" contains "$err" "notcsv.csv:1: header: missing required column"
expect_exit 2 "--ct without its file" "$CB" list algs --ct
expect_exit 2 "--ct with list backends" "$CB" list backends --ct "$T/ct.csv"
check "--ct with backends: said" contains "$err" "--ct goes with 'list algs'"
expect_exit 2 "two arguments" "$CB" list algs backends
check "two arguments: said" contains "$err" "list: too many arguments"
expect_exit 2 "an unknown argument" "$CB" list everything
check "an unknown argument: named" contains "$err" "list: unknown argument 'everything'"
finish
