#!/bin/sh
# tests/test_compare_fleet.sh - a fleet (`compare --baseline HOST`) counts
# what matched nothing as two files do (issue 44): a host that lacks a
# backend or an algorithm the baseline host measured is a MISSING
# finding, exit 1 (--allow-missing allows it); a host whose points differ
# from the baseline's only in a column gets the hint naming the column
# and the --ignore that compares them.  Every speed is the same, so
# nothing else fails.
. tests/lib.sh
lacks() { ! contains "$@"; }

# host HOST [no-native] [no-cbc] [evp]: a host's rows, all at one speed
host() {
	h=$1; shift
	nat=1 cbc=1 drv=
	for o in "$@"; do
		case $o in no-native) nat= ;; no-cbc) cbc= ;; evp) drv=-evp ;; esac
	done
	for b in 512 4096; do
		csv1_row "$h" openssl "xts-aes-openssl$drv" 'xts(aes)' 256 $b encrypt 3000000000 speed 0 ''
		[ -n "$cbc" ] && csv1_row "$h" openssl "cbc-aes-openssl$drv" 'cbc(aes)' 128 $b encrypt 1000000000 speed 0 ''
		[ -n "$nat" ] && csv1_row "$h" native xts-aes-native-vaes512 'xts(aes)' 256 $b encrypt 5000000000 speed 0 ''
	done
	return 0
}
{ echo "$CSV1_HEADER"; host hostA; host hostB; } >"$T/same.csv"
expect_exit 0 "fleet: nothing missing" "$CB" compare --baseline hostA "$T/same.csv"
check "fleet: nothing missing: no finding" lacks "$out" "MISSING"

{ echo "$CSV1_HEADER"; host hostA; host hostB; host hostC no-native
  host hostD no-cbc; } >"$T/fleet.csv"
expect_exit 1 "fleet: a backend and an algorithm missing exit 1" \
	"$CB" compare --baseline hostA "$T/fleet.csv"
check "fleet: hostC lacks native" contains "$out" "MISSING from NEW: hostC backend native (2 points of BASE)"
check "fleet: hostD lacks cbc(aes) of openssl" contains "$out" "MISSING from NEW: hostD algorithm cbc(aes) of openssl (2 points of BASE)"
check "fleet: said in hostC's section" contains "$(printf '%s\n' "$out" | sed -n '/^NEW  host=hostC/,/^summary of host=hostC/p')" "1 finding: what BASE measured and NEW did not (exit 1; --allow-missing allows it)"
check "fleet: hostB has none" lacks "$(printf '%s\n' "$out" | sed -n '/^NEW  host=hostB/,/^summary of host=hostB/p')" "MISSING"
check "fleet: the summary is the last line" contains "$(printf '%s\n' "$out" | tail -n 1)" "3 host values against host hostA"

expect_exit 0 "fleet: --allow-missing" \
	"$CB" compare --baseline hostA --allow-missing "$T/fleet.csv"
check "fleet: --allow-missing: still said" contains "$out" "MISSING from NEW: hostC backend native"
check "fleet: --allow-missing: allowed" contains "$out" "(allowed: --allow-missing)"

expect_exit 1 "fleet: --format csv" \
	"$CB" compare --baseline hostA --format csv "$T/fleet.csv"
check "fleet: csv: the finding on stderr" contains "$err" "MISSING from NEW: hostC backend native"
check "fleet: csv: rows stay CSV" lacks "$out" "MISSING"

# another driver name for OpenSSL's: only the driver column differs
{ echo "$CSV1_HEADER"; host hostA; host hostE evp; } >"$T/drv.csv"
expect_exit 0 "fleet: driver-only difference: no finding" \
	"$CB" compare --baseline hostA "$T/drv.csv"
check "fleet: the column hint" contains "$out" "4 of BASE's 4 unmatched points differ from one of NEW's only in driver: --ignore driver compares them"
expect_exit 0 "fleet: --ignore driver" \
	"$CB" compare --baseline hostA --ignore driver "$T/drv.csv"
check "fleet: --ignore driver: all matched" contains "$out" "6 matched"
finish
