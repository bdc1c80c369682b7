#!/bin/sh
# scripts/bench-native's rows against libraries it is not linked with,
# checked without them: a fake AWS-LC `bssl` for the XTS rows (issue 29)
# and a fake BoringSSL `bssl_bench` for scripts/bench-anchor's GCM rows at
# every --cpu level (issue 42).  Each fake prints its tool's output at a
# speed it is told, with windows that must be dropped (AWS-LC's warm-up
# point; BoringSSL's preempted repetition and its aggregate rows) claiming
# a speed 1000 times off, so a ratio in the plausible range shows the
# right figures were read.  Short runs: 3 rounds of a few ms a point.
. tests/lib.sh
ANCHOR=${BUILD:-build}/tests/bench/anchor
export ANCHOR

# ---- a fake AWS-LC bssl: `bssl speed -json` at FAKE_NS ns a byte --------------
fake=$T/bssl
cat >"$fake" <<'EOF'
#!/bin/sh
chunks=16 name=AES-256-XTS
while [ $# -gt 0 ]; do
	case $1 in -chunks) chunks=$2; shift ;; -filter) name=$2; shift ;; esac
	shift
done
echo "["
for d in encrypt decrypt; do
	echo "{\"description\": \"$name $d init\", \"numCalls\": 1000, \"microseconds\": 1000},"
	first=1
	for c in $(echo "$chunks" | tr ',' ' '); do
		# FAKE_NS ns a byte: numCalls x c bytes in 100000 us; the
		# first point (the warm-up) 1000 times faster
		n=$(awk -v c="$c" -v ns="$FAKE_NS" 'BEGIN { printf "%d", 1e8 / (ns * c) }')
		[ "$first" = 1 ] && n=$((n * 1000))
		first=0
		echo "{\"description\": \"$name $d\", \"numCalls\": $n, \"microseconds\": 100000, \"bytesPerCall\": $c},"
	done
done
echo "]"
EOF
chmod +x "$fake"

# ---- a fake BoringSSL build directory: bssl_bench --benchmark_format=csv ------
# at 1 ns a byte; its first repetition of each point (a window the core
# was taken from) and its _mean rows 1000 times off; each run's
# OPENSSL_ia32cap logged to $T/caps
mkdir "$T/boringssl" "$T/empty"
cat >"$T/boringssl/bssl_bench" <<EOF
#!/bin/sh
echo "\${OPENSSL_ia32cap-unset}" >>"$T/caps"
reps=1
for a; do case \$a in --benchmark_repetitions=*) reps=\${a#*=} ;;
	--benchmark_list_tests) echo BM_SpeedAEAD/seal_aes_256_gcm/InputSize:16; exit 0 ;; esac; done
echo "name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,label,error_occurred,error_message"
for d in seal open; do
	for s in 16 256 1350 8192 16384; do
		n=\$reps; [ "\$s" = "\${FAKE_DROP:-}" ] && n=0
		i=1
		while [ "\$i" -le "\$n" ]; do
			t=\$s; [ "\$i" = 1 ] && [ "\$n" -gt 1 ] && t=\$((s * 1000))
			echo "\"BM_SpeedAEAD/\${d}_aes_256_gcm/InputSize:\$s\",1000,\$t,\$s,ns,1e9,,,,"
			i=\$((i + 1))
		done
		echo "\"BM_SpeedAEAD/\${d}_aes_256_gcm/InputSize:\${s}_mean\",\$n,0.001,0.001,ns,1e9,,,,"
	done
done
EOF
chmod +x "$T/boringssl/bssl_bench"
QUICK="ROUNDS=3 REPS=2 WIN=0.001 LIMITS_RUNS=1 OUTDIR=$T/res CB_BIN=$CB"

# ---- bench-anchor: bad BORINGSSL, exit 2 naming it ------------------------------
expect_exit 2 "BORINGSSL not given" env -u BORINGSSL $QUICK scripts/bench-anchor
check "BORINGSSL asked for" contains "$err" "BORINGSSL=DIR not given"
expect_exit 2 "BORINGSSL no directory" env BORINGSSL="$T/none" $QUICK scripts/bench-anchor
check "BORINGSSL named" contains "$err" "BORINGSSL=$T/none: no such directory"
expect_exit 2 "BORINGSSL without bssl_bench" env BORINGSSL="$T/empty" $QUICK scripts/bench-anchor
check "bssl_bench missing named" contains "$err" "BORINGSSL=$T/empty: no bssl_bench in it"
expect_exit 2 "a bssl_bench without a size" env BORINGSSL="$T/boringssl" FAKE_DROP=1350 \
	LEVELS=aesni $QUICK scripts/bench-anchor
check "the missing point named" contains "$err" "-aesni-boringssl.csv: no seal of 1350 bytes"

# ---- bench-anchor: every level, its mask, the fastest window ----------------------
levels=$("$CB" sysinfo | sed -n 's/^ \{15\}\(aesni\|vaes256\|vaes512\): AES alone.*/\1/p')
: >"$T/caps"
expect_exit 0 "bench-anchor, fake BoringSSL" env BORINGSSL="$T/boringssl" \
	LEVELS="aesni vaes256 vaes512" $QUICK scripts/bench-anchor
rows=$(printf '%s\n' "$out" | grep '^[a-z0-9]* *\(enc\|dec\) .* B ')
nl=$(printf '%s\n' "$levels" | grep -c .)
check "ten rows a level ($nl levels)" [ "$(printf '%s\n' "$rows" | grep -c 'x \[')" = $((10 * nl)) ]
for l in aesni vaes256 vaes512; do
	case " $(echo $levels) " in
	*" $l "*) check "$l measured" contains "$rows" "$l " ;;
	*) check "$l said not run" contains "$out" "$l: not run here: " ;;
	esac
done
# the ratio is 1 ns/B over native's ns/B: native AES-256-GCM runs at
# 0.02-30 ns a byte from 16 KiB to 16 B, so it lies in [0.03, 50]; a kept
# preempted window or _mean row (1000 times off) would read outside it
printf '%s\n' "$rows" | while read -r line; do
	r=$(printf '%s\n' "$line" | sed -n 's/.* B  *\([0-9.]*\)x \[.*/\1/p')
	awk -v r="$r" 'BEGIN { exit !(r >= 0.03 && r <= 50) }' || echo "$line" >>"$T/bad"
done
check "ratios from the fastest windows" [ ! -s "$T/bad" ]
[ ! -s "$T/bad" ] || cat "$T/bad"
check "a bound share at 16 KiB" sh -c 'printf "%s\n" "$1" | grep -q "16384 B .*% of [0-9.]* c/B"' - "$rows"
case " $(echo $levels) " in *" aesni "*)
	check "aesni: BoringSSL's AES-NI mask" grep -qx '~0:~0x60000000000' "$T/caps" ;; esac
case " $(echo $levels) " in *" vaes256 "*)
	check "vaes256: BoringSSL's AVX2 mask" grep -qx '~0:~0xC0010000' "$T/caps" ;; esac
case " $(echo $levels) " in *" vaes512 "*)
	check "vaes512: BoringSSL unmasked" grep -qx 'unset' "$T/caps" ;; esac

# ---- a level kept out or not of this architecture: said -------------------------
expect_exit 0 "bench-anchor capped" env BORINGSSL="$T/boringssl" CRYPTOBENCH_ISA=aesni \
	LEVELS="aesni vaes256 ce" $QUICK scripts/bench-anchor
check "a level capped out is said" contains "$out" "vaes256: not run here: not measured: capped"
check "a level of no path is said" contains "$out" "ce: not run: sysinfo has no line for it"
check "the level run is measured" contains "$out" "aesni    enc 16384 B"

# ---- bench-native: the AWS-LC XTS rows, bench-levels, bench-anchor wired in ------
expect_exit 2 "bench-native: BSSL not an executable" env BSSL="$T/none" ROUNDS=3 scripts/bench-native
check "BSSL named" contains "$err" "BSSL=$T/none"
expect_exit 2 "bench-native: AWSK not a number" env AWSK=x ROUNDS=3 scripts/bench-native
check "AWSK named" contains "$err" "AWSK must be a number"
expect_exit 2 "bench-native: BORINGSSL checked first" env BORINGSSL="$T/empty" ROUNDS=3 scripts/bench-native
check "bench-native names BORINGSSL" contains "$err" "BORINGSSL=$T/empty: no bssl_bench"
expect_exit 0 "bench-native, fake bssl and bssl_bench" env FAKE_NS=0.05 BSSL="$fake" \
	BORINGSSL="$T/boringssl" LEVELS=aesni AWSK=1 LIMITS_RUNS=1 TSEC=0.01 DDCOUNT=20 $QUICK scripts/bench-native
rows=$(printf '%s\n' "$out" | grep 'native vs AWS-LC bssl')
check "six AWS-LC rows" [ "$(printf '%s\n' "$rows" | grep -c 'x \[')" = 6 ]
# each ratio = 0.05 / native's ns a byte; native XTS-AES-256 runs at
# 0.02-0.5 ns a byte on any CPU with AES instructions, so the ratio lies
# in [0.1, 2.5]; a kept warm-up point (1000x faster) would read < 0.003
: >"$T/bad"
printf '%s\n' "$rows" | while read -r line; do
	r=$(printf '%s\n' "$line" | sed -n 's/.*bssl *\([0-9.]*\)x \[.*/\1/p')
	awk -v r="$r" 'BEGIN { exit !(r >= 0.1 && r <= 2.5) }' || echo "$line" >>"$T/bad"
done
check "XTS ratios from the fake's figures, warm-up dropped" [ ! -s "$T/bad" ]
[ ! -s "$T/bad" ] || cat "$T/bad"
check "bench-levels rows" contains "$out" "aesni XTS-AES-256 enc 4 KiB"
check "bench-levels rows measured" [ -z "$(printf '%s\n' "$out" | grep '^[a-z0-9]* .*NOT RUN')" ]
check "bench-anchor rows" contains "$out" "aesni    dec 16384 B"
expect_exit 0 "bench-levels capped" env CRYPTOBENCH_ISA=aesni ROUNDS=3 TSEC=0.01 \
	CB_BIN="$CB" LEVELS="aesni vaes256" scripts/bench-levels
check "bench-levels: a level kept out is said" contains "$out" "vaes256: not run here: not measured"
check "bench-levels: each bound the median of ROUNDS + 1 sysinfo runs" contains "$out" "the median of 4 runs"
finish
