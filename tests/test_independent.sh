#!/bin/sh
# A vectors file written by someone else (tests/data/gen_independent.py,
# computed with python3-cryptography, not our code) passes on every
# library backend; the same file with one ciphertext byte flipped fails
# with exit 1, naming the line of that record's ct, the byte that
# differs and the bytes expected, on each backend.
. tests/lib.sh
good=tests/data/independent.vec
bad=tests/data/independent-flipped.vec
line=$(cat tests/data/independent-flipped.line)
# the flipped byte (33) is in the record's ct field: its line is named
ctline=$(awk -v l="$line" 'NR >= l && /^ct = / { print NR; exit }' "$bad")

for b in openssl gcrypt nettle; do
	expect_exit 0 "$b passes $good" "$CB" kat --backend "$b" "$good"
	check "$b ran records of $good" [ -n "$(printf '%s\n' "$out" | grep -E '^[1-9][0-9]* passed, 0 failed')" ]
	expect_exit 1 "$b fails $bad" "$CB" kat --backend "$b" "$bad"
	check "$b names the ct line $bad:$ctline" contains "$out" "FAIL $bad:$ctline $b"
	check "$b says byte 33 of ct differs" contains "$out" "ct differs at byte 33 of "
	# expected and got, cut around byte 33 of 512 (bytes 25-48 shown)
	want=$(sed -n "${ctline}p" "$bad" | cut -c 6- | cut -c 51-98)
	check "$b shows the expected bytes around it" contains "$out" "(bytes 25-48 shown): expected ...$want... got ..."
	n=$(printf '%s\n' "$out" | grep -c '^FAIL')
	check "$b: exactly one record fails" [ "$n" -eq 1 ]
done
finish
