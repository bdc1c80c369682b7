# tests/lib.sh - helpers for the command-line tests (sourced, not run).
# check NAME COND...: counts a pass when the command succeeds.
# expect_exit CODE NAME CMD...: runs CMD, checks its exit code.
# Output of the last expect_exit is in $out (stdout) and $err (stderr).
: "${CB:=./cryptobench}"
passed=0 failed=0
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT       # a signal ends the test (the EXIT trap cleans up)
trap 'exit 143' TERM
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
check() { name=$1; shift; if "$@"; then pass; else fail "$name"; fi; }
expect_exit() {
	want=$1 name=$2; shift 2
	"$@" >"$T/out" 2>"$T/err"; rc=$?
	out=$(cat "$T/out"); err=$(cat "$T/err")
	if [ "$rc" -eq "$want" ]; then pass; else
		fail "$name: exit $rc, wanted $want"; sed 's/^/    /' "$T/err" | head -5; fi
}
contains() { case $1 in *"$2"*) return 0 ;; esac; return 1; }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; }

# need TOOL PACKAGE: skip the whole test (exit 77, the reason first) when
# TOOL is not installed.
need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "$1 not installed (apt-get install $2): skipped"
	echo "0 passed, 0 failed"
	exit 77
}

# Handmade result files in the version-1 CSV schema (docs/csv.md):
# CSV1_HEADER, then csv1_row HOST BACKEND DRIVER ALG BITS BLOCK DIR
# BYTES_PER_SEC TOOL SECTOR AUTH [STATUS ERROR] per row (CRLF ends, a
# quoted CPU name with a comma and quotes, as other tools write them).
CSV1_HEADER='schema,tool_version,host,cpu_model,kernel,backend,backend_version,driver,alg,key_bits,block_bytes,direction,ops_per_sec,bytes_per_sec,ns_per_byte,cycles_per_byte,ghz,reps,rel_spread,timestamp,tool,status,error,iv_mode,sector_bytes,threads,auth'
csv1_row() {
	printf 'cryptobench-csv-1,0.1.0,%s,"CPU, with ""quotes""",Linux,%s,1.0,%s,%s,%s,%s,%s,1,%s,1,1.5,3,5,0.01,2025-01-01T00:00:00Z,%s,%s,%s,per-request,%s,1,%s\r\n' \
		"$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "${12:-ok}" "${13:-}" "${10}" "${11}"
}
