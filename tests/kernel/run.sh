#!/bin/sh
# tests/kernel/run.sh - `make check-kernel`: tests/kernel/checks.sh inside
# Debian's kernel under qemu (scripts/kernel-guest), timed; its last line
# is the guest's "N passed, N failed".  Exit 77 (skipped, the reason
# printed) without a kernel image, qemu or root.
start=$(date +%s)
out=$(scripts/kernel-guest tests/kernel/checks.sh)
rc=$?
printf '%s\n' "$out" | grep -v '^CB-GUEST-' | grep -v 'passed, [0-9]* failed$'
echo "check-kernel: $(( $(date +%s) - start )) s, kernel $(printf '%s\n' "$out" | sed -n 's/^CB-GUEST-START //p')"
printf '%s\n' "$out" | grep 'passed, [0-9]* failed$' | tail -n 1
[ $rc = 77 ] && exit 0
exit $rc
