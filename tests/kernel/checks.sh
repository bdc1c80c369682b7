#!/bin/sh
# tests/kernel/checks.sh - run inside the guest by `make check-kernel`
# (scripts/kernel-guest): every tests/kernel/*.part section against the
# guest's own kernel, then one line "N passed, N failed".  Each section
# uses ok/bad/check below; CB is the cryptobench under test.
# Sections: dmcrypt (images written by cryptobench dd opened by the real
# dm-crypt, both directions), afalg (the kernel backend), tcrypt, import
# (the real cryptsetup benchmark read by cryptobench import).
set -u
CB=${CB_BIN:-./cryptobench}
T=${TMPDIR:-/tmp}/kcheck
mkdir -p "$T"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# check NAME CMD...: the command succeeds
check() { n=$1; shift; if "$@" >"$T/out" 2>&1; then ok "$n"; else bad "$n"; sed 's/^/     /' "$T/out" | tail -n 15; fi; }
# expect_exit NAME RC CMD...: the command exits RC
expect_exit() {
	n=$1 want=$2; shift 2
	"$@" >"$T/out" 2>&1
	rc=$?
	if [ "$rc" = "$want" ]; then ok "$n (exit $rc)"
	else bad "$n: exit $rc, not $want"; sed 's/^/     /' "$T/out" | tail -n 15; fi
}
hex() { od -An -v -tx1 "$1" | tr -d ' \n'; }

for part in ${SECTIONS:-$(ls tests/kernel/*.part)}; do
	echo "== $(basename "$part" .part)"
	. "$part"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
