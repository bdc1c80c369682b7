#!/bin/sh
# cryptobench tcrypt on kernel logs recorded in the guest of `make
# check-kernel` (Debian 6.1 under qemu; tests/data/tcrypt/): the seconds
# form (mode 220 sec=1), the cycles form with two sections of one
# algorithm (mode 500 sec=0) and the hash form (mode 404), into every
# writer; and bad input - a log with no sections, a garbled figure, a
# binary file, a missing file, unknown options - with messages and exit 2.
# Loading the module itself is tested in the guest (tests/kernel).
. tests/lib.sh
D=tests/data/tcrypt
ES='essiv(cbc(aes),sha256)'

expect_exit 0 "mode 220 log as tcrypt lines" $CB tcrypt --log $D/mode220-sec1.log --alg "$ES"
check "the kernel's header line, restated" contains "$out" \
	"testing speed of async $ES (essiv(cbc-aes-aesni,sha256-avx2)) encryption"
check "test 0 of the log: 1153116 operations in 1 second" contains "$out" \
	"tcrypt: test 0 (128 bit key, 16 byte blocks): 1153116 ops/s ( 18449856 bytes)"
# the module runs each direction twice in mode 220: both are kept
check "2 x (3 key sizes x 7 sizes x 2 directions)" test "$(echo "$out" | grep -c '^tcrypt: test')" = 84
expect_exit 0 "mode 220 log as CSV" $CB tcrypt --log $D/mode220-sec1.log --alg "$ES" --format csv
check "CSV: the row of test 0 with its rate and the driver" contains "$out" \
	',kernel-tcrypt,,"essiv(cbc-aes-aesni,sha256-avx2)","essiv(cbc(aes),sha256)",128,16,encrypt,1153116.00,18449856,'
check "CSV: tool tcrypt on every row" test "$(echo "$out" | grep -c ',tcrypt,ok,')" = 84
expect_exit 0 "mode 220 log as JSON" $CB tcrypt --log $D/mode220-sec1.log --alg "$ES" --format json
check "JSON: the driver and the tool" sh -c "grep -q '\"tool\": *\"tcrypt\"' $T/out && grep -q 'essiv(cbc-aes-aesni,sha256-avx2)' $T/out"

expect_exit 0 "mode 500 cycles log: xts(aes) only" $CB tcrypt --log $D/mode500-cycles.log --alg 'xts(aes)' --format csv
check "cycles form: c/B of test 0 (1 operation in N cycles / 16 bytes)" sh -c "
	n=\$(grep 'testing speed of async xts(aes)' -A1 $D/mode500-cycles.log | sed -n 's/.*test 0 (256 bit key, 16 byte blocks): 1 operation in \([0-9]*\) cycles.*/\1/p' | head -1)
	awk -F, -v n=\"\$n\" 'NR == 2 { c = \$16 + 0; exit !(c > n / 16 - 0.01 && c < n / 16 + 0.01) }' $T/out"
check "only xts(aes) rows (lrw, ctr, ... left out)" sh -c "! grep -v -e '^schema' -e ',xts-aes-aesni,xts(aes),' $T/out"
check "both sections of the mode (two runs of each direction)" \
	test "$(grep -c ',xts(aes),256,16,encrypt,' $T/out)" = 2
expect_exit 0 "mode 404 hash log" $CB tcrypt --log $D/mode404-cycles.log --alg sha256 --format csv
check "hash rows: one update per block only (7 of each section's 23 tests, two sections)" \
	test "$(grep -c ',sha256-avx2,sha256,0,' $T/out)" = 14
check "hash rows are digests" sh -c "! grep -v -e '^schema' -e ',digest,' $T/out"

# bad input
printf 'just\nsome kernel log\n' >"$T/empty.log"
expect_exit 2 "a log without sections" $CB tcrypt --log "$T/empty.log" --alg "$ES"
check "... says the log has no section" contains "$err" "the log has no tcrypt speed section for $ES"
{ sed -n 1,3p $D/mode220-sec1.log; echo '[    7.5] tcrypt: test 1 (128 bit key, 64 byte blocks): lots operations in a while'; } >"$T/garbled.log"
expect_exit 0 "a garbled figure is left out, the rest kept" $CB tcrypt --log "$T/garbled.log" --alg "$ES" --format csv
check "... one row" test "$(grep -c ',tcrypt,ok,' $T/out)" = 1
head -c 300 /dev/urandom | tr -d '\n' >"$T/bin.log"; printf '\000' >>"$T/bin.log"
expect_exit 2 "a binary file" $CB tcrypt --log "$T/bin.log"
check "... named" contains "$err" "bin.log: not a text file"
expect_exit 2 "a missing log" $CB tcrypt --log "$T/nope.log"
check "... named" contains "$err" "nope.log"
expect_exit 2 "an algorithm tcrypt has no mode for" $CB tcrypt --alg 'hmac(sha256)'
check "... named" contains "$err" "'hmac(sha256)' has no tcrypt speed mode"
expect_exit 2 "--sec -1" $CB tcrypt --sec -1
expect_exit 2 "--mode x" $CB tcrypt --mode x
expect_exit 2 "a stray argument" $CB tcrypt stray
expect_exit 2 "-o over an existing file" $CB tcrypt --log $D/mode220-sec1.log -o $D/mode220-sec1.log
# --alg goes through the one selection parser (select.c): a repeated
# algorithm counts once, and none is dropped however many are given (the
# 41st here once was, silently: 32 copies of the first were run instead)
many=""
for i in $(seq 40); do many="$many --alg $ES"; done
# shellcheck disable=SC2086
expect_exit 0 "--alg 40 times the same: once" $CB tcrypt --log $D/mode220-sec1.log $many --format csv
check "... the rows of one --alg" test "$(printf '%s\n' "$out" | wc -l)" = \
	"$($CB tcrypt --log $D/mode220-sec1.log --alg "$ES" --format csv | wc -l)"
# shellcheck disable=SC2086
expect_exit 2 "--alg after 40 others is not dropped" $CB tcrypt --log $D/mode220-sec1.log $many --alg 'xts(aes)'
check "... it is the one the log lacks" contains "$err" "no tcrypt speed section for xts(aes)"
finish
