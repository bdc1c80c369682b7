#!/bin/sh
# --cpu LEVEL / CRYPTOBENCH_CPU (docs/cpu.md): every level this CPU has
# passes the known-answer vectors on every backend, each library reports
# the cap it was given, the differential test agrees at two levels, and a
# bad or too-high level exits 2 naming the argument or the missing feature.
. tests/lib.sh
BUILD=${BUILD:-build}

flags=$("$CB" list backends | sed -n 's/^cpu crypto features: //p')
has() { contains " $flags " " $1 "; }

expect_exit 2 "unknown level" "$CB" --cpu pentium list backends
check "unknown level named" contains "$err" "'pentium'"
expect_exit 2 "--cpu without a level" "$CB" list --cpu
check "missing level said" contains "$err" "needs a level"
expect_exit 2 "level above the CPU" env CRYPTOBENCH_CPU_FLAGS="aes pclmulqdq avx" \
	"$CB" --cpu vaes256 list backends
check "missing feature named" contains "$err" "lacks avx2 vaes vpclmulqdq"
expect_exit 2 "env level above the CPU" env CRYPTOBENCH_CPU_FLAGS="" \
	CRYPTOBENCH_CPU=aesni "$CB" list backends
check "env: missing AES-NI named" contains "$err" "lacks aes pclmulqdq avx"
expect_exit 0 "max needs nothing" env CRYPTOBENCH_CPU_FLAGS="" \
	"$CB" --cpu max list backends
check "max listed" contains "$out" "cpu level: max"

if ! has aes; then
	echo "note: no AES-NI here: only generic and max are run"
fi
ran=0
for level in generic aesni avx2 vaes256 vaes512 max aesni-nosha; do
	case $level in
	aesni*) has aes && has pclmulqdq && has avx || continue ;;
	avx2) has aes && has avx2 || continue ;;
	vaes256) has vaes && has vpclmulqdq && has avx2 || continue ;;
	vaes512) has vaes && has avx512f && has avx512vl || continue ;;
	esac
	ran=$((ran + 1))
	expect_exit 0 "$level: list" "$CB" --cpu "$level" list backends
	check "$level: listed" contains "$out" "cpu level: $level"
	expect_exit 0 "$level: kat on every backend" "$CB" kat --cpu "$level"
	check "$level: kat counted" contains "$out" " 0 failed"
	check "$level: every backend ran" sh -c '
		for b in openssl gcrypt nettle; do
			printf "%s\n" "$1" | grep -q "^$b " || exit 1; done' - "$out"
	expect_exit 0 "$level: sysinfo" env CRYPTOBENCH_CPU="$level" "$CB" sysinfo
	check "$level: sysinfo names the level" contains "$out" "cpu level      $level"
	# native's measured limit: on its path, a plausible rate, and the
	# bounds it prints are nr / (16 x rate)
	lim=$(printf '%s\n' "$out" | grep '^limit native')
	path=$(env CRYPTOBENCH_CPU="$level" "$CB" list backends |
	       awk '$1 == "native" && $3 == "available" { print $4 }')
	if [ -z "$path" ]; then
		check "$level: no native path, no limit line" [ -z "$lim" ]
		continue
	fi
	check "$level: sysinfo measures native's AES rate" [ -n "$lim" ]
	check "$level: the limit is of path $path" contains "$lim" "on $path (measured)"
	# one line per code path under it: measured up to the path, each
	# AES-only bound nr / (16 x its rate); above it, why not
	lv=$(printf '%s\n' "$out" | sed -n '/^limit native/,/^[^ ]/s/^  *\([a-z0-9]*\): /\1 /p')
	below=1
	for p in aesni vaes256 vaes512; do
		l=$(printf '%s\n' "$lv" | grep "^$p ")
		if [ "$below" = 1 ]; then
			check "$level: $p's bounds measured ($l)" sh -c '
			    printf "%s\n" "$1" | awk "{ exit !(\$4 > 0 && \$7 > 0 &&
			        \$4 < \$7 && \$0 ~ /AES\\+GHASH/) }"' - "$l"
		else
			check "$level: $p said, not measured" contains "$l" "not measured: "
		fi
		[ "$p" != "$path" ] || below=0
	done
	# (the rate is printed to 0.005 and each bound to 0.0005: the bound
	# from the printed rate may be off by nr/16 * 0.005/r^2 + 0.0005)
	check "$level: rate and bounds agree ($lim)" sh -c '
		printf "%s\n" "$1" | awk "
		  function off(b, nr) { d = b - nr / (16 * r); if (d < 0) d = -d
		                        return d > nr / 16 * 0.005 / (r * r) + 0.0006 }
		  { r = \$3; b128 = \$(NF - 5); b256 = \$(NF - 2)
		    exit !(r > 0.25 && r < 64 && !off(b128, 10) && !off(b256, 14)) }"' - "$lim"
	# the 16-byte ESSIV batch of 8 alone: 24 dependent rounds a request,
	# 8 in flight, so at least 3 cycles (a round a cycle), and far from
	# a request alone (24 rounds at a latency of up to ~8: 200)
	bc=$(printf '%s\n' "$lim" | sed -n 's/.*batch of 8 alone \([0-9.]*\) cycles a request;.*/\1/p')
	check "$level: the batch floor is measured ($bc)" \
	    awk -v b="$bc" 'BEGIN { exit !(b != "" && b + 0 >= 3 && b + 0 < 200) }'
done
check "levels ran" [ "$ran" -ge 2 ]

# What each library reports it uses under the cap.
expect_exit 0 "generic list" "$CB" --cpu generic list backends
gc=$(printf '%s\n' "$out" | grep '^gcrypt ')
check "gcrypt generic: no intel-aesni" eval '! contains "$gc" intel-aesni'
check "gcrypt generic: no intel-avx2" eval '! contains "$gc" intel-avx2'
check "openssl generic: mask given" contains "$out" "env:~0x3200180200000000:"
nt=$(printf '%s\n' "$out" | sed -n 's/^nettle .*uses: \([^(]*\)(.*/\1/p')
check "nettle generic: override reported" [ -n "$nt" ]
check "nettle generic: override without aesni" eval '! contains "$nt" aesni'
check "native generic: unavailable" contains "$out" "capped below AES-NI"
if has aes && has avx; then
	expect_exit 0 "aesni-nosha list" "$CB" --cpu aesni,nosha list backends
	gc=$(printf '%s\n' "$out" | grep '^gcrypt ')
	check "gcrypt aesni: intel-aesni kept" contains "$gc" intel-aesni
	check "gcrypt nosha: no intel-shaext" eval '! contains "$gc" intel-shaext'
	check "native aesni: aesni path" contains "$out" "aesni (cpu:"
fi

# The differential test agrees at two levels (libraries on different paths).
for level in generic aesni; do
	[ $level = aesni ] && ! has aes && continue
	expect_exit 0 "test_diff at $level" env CRYPTOBENCH_CPU=$level \
		"$BUILD/tests/test_diff"
	check "test_diff ran at $level" contains "$out" "cpu level: $level"
	check "test_diff at $level: none failed" contains "$out" " 0 failed"
done
finish
