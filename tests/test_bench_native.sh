#!/bin/sh
# scripts/bench-native's AWS-LC rows (issue 29) without AWS-LC: a fake
# `bssl` that prints `bssl speed -json` as AWS-LC's tool does, at a speed
# it is told (FAKE_NS nanoseconds a byte), except that the first point of
# each run - the warm-up the script must drop - claims to be 1000 times
# faster.  Checks that the six rows are computed from the fake's figures
# (each XTS ratio 0.05 ns/B over native's own, in the range native runs
# on any CPU with AES instructions; each GCM ratio 1 ns/B over native's),
# that the warm-up point was dropped (otherwise 16 KiB would read ~1000x
# less: with the drop removed the test fails), and that bad BSSL/AWSK
# values exit 2 naming the variable.  The sixteen rows: XTS at 3 sizes and
# GCM at 5, both directions.  A short run: ROUNDS=9 at 10 ms a point.
. tests/lib.sh

fake=$T/bssl
cat >"$fake" <<'EOF'
#!/bin/sh
chunks=16 name=AES-256-XTS
while [ $# -gt 0 ]; do
	case $1 in -chunks) chunks=$2; shift ;; -filter) name=$2; shift ;; esac
	shift
done
ns=$FAKE_NS
[ "$name" = AES-256-XTS ] || ns=1
echo "["
for d in encrypt decrypt; do
	echo "{\"description\": \"$name $d init\", \"numCalls\": 1000, \"microseconds\": 1000},"
	first=1
	for c in $(echo "$chunks" | tr ',' ' '); do
		# FAKE_NS ns a byte: numCalls x c bytes in 100000 us
		n=$(awk -v c="$c" -v ns="$ns" 'BEGIN { printf "%d", 1e8 / (ns * c) }')
		[ "$first" = 1 ] && n=$((n * 1000))
		first=0
		echo "{\"description\": \"$name $d\", \"numCalls\": $n, \"microseconds\": 100000, \"bytesPerCall\": $c},"
	done
done
echo "]"
EOF
chmod +x "$fake"

expect_exit 2 "BSSL not an executable" env BSSL="$T/none" ROUNDS=9 scripts/bench-native
check "BSSL named" contains "$err" "BSSL=$T/none"
expect_exit 2 "AWSK not a number" env AWSK=x ROUNDS=9 scripts/bench-native
check "AWSK named" contains "$err" "AWSK must be a number"

expect_exit 0 "bench-native with a fake bssl" env FAKE_NS=0.05 BSSL="$fake" \
	ROUNDS=9 TSEC=0.01 DDCOUNT=20 OUTDIR="$T/res" CB_BIN="$CB" scripts/bench-native
rows=$(printf '%s\n' "$out" | grep 'native vs AWS-LC bssl')
check "sixteen AWS-LC rows" [ "$(printf '%s\n' "$rows" | grep -c 'x \[')" = 16 ]
check "no row not run" [ -z "$(printf '%s\n' "$rows" | grep 'NOT RUN')" ]
# each ratio = 0.05 / native's ns a byte; native XTS-AES-256 runs at
# 0.02-0.5 ns a byte on any CPU with AES instructions, so the ratio lies
# in [0.1, 2.5]; a kept warm-up point (1000x faster) would read < 0.003
# native AES-256-GCM runs at 0.02-30 ns a byte from 16 KiB to 16 B (Zen 5's
# VAES-512: 0.047), so against the fake's 1 ns/B the ratio lies in
# [0.03, 50]; a kept 16 KiB
# warm-up point would read < 0.02
printf '%s\n' "$rows" | while read -r line; do
	r=$(printf '%s\n' "$line" | sed -n 's/.*bssl *\([0-9.]*\)x \[.*/\1/p')
	case $line in
	*GCM*) awk -v r="$r" 'BEGIN { exit !(r >= 0.03 && r <= 50) }' ;;
	*) awk -v r="$r" 'BEGIN { exit !(r >= 0.1 && r <= 2.5) }' ;;
	esac || echo "$line" >>"$T/bad"
done
check "ratios from the fake's figures, warm-up dropped" [ ! -s "$T/bad" ]
[ ! -s "$T/bad" ] || cat "$T/bad"
# scripts/bench-levels' rows (every level the host runs, each against its
# own bound from sysinfo) and a level kept out said, not skipped
lv=$(printf '%s\n' "$out" | grep -c '^[a-z0-9]* \(XTS\|ESSIV\|AES-256-GCM\).*c/B  ')
check "bench-levels rows ($lv)" [ "$lv" -ge 5 ]
check "bench-levels rows measured" [ -z "$(printf '%s\n' "$out" | grep '^[a-z0-9]* .*NOT RUN')" ]
check "an XTS row against its level's bound" sh -c 'printf "%s\n" "$1" |
    grep -q "XTS-AES-256 enc 4 KiB .*% of [0-9.]*$"' - "$out"
expect_exit 0 "bench-levels capped" env CRYPTOBENCH_ISA=aesni ROUNDS=3 TSEC=0.01 \
	CB_BIN="$CB" LEVELS="aesni vaes256" scripts/bench-levels
check "a level kept out is said" contains "$out" "vaes256: not run here: not measured"
check "the level run is measured" contains "$out" "aesni XTS-AES-256 enc 4 KiB"
finish
