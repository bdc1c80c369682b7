# tests/lib.sh - helpers for the command-line tests (sourced, not run).
# check NAME COND...: counts a pass when the command succeeds.
# expect_exit CODE NAME CMD...: runs CMD, checks its exit code.
# Output of the last expect_exit is in $out (stdout) and $err (stderr).
: "${CB:=./cryptobench}"
passed=0 failed=0
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
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
