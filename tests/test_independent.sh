#!/bin/sh
# A vectors file written by someone else (tests/data/gen_independent.py,
# computed with python3-cryptography, not our code) passes on every
# library backend; the same file with one ciphertext byte flipped fails
# with exit 1, naming that record's file:line on each backend.
. tests/lib.sh
good=tests/data/independent.vec
bad=tests/data/independent-flipped.vec
line=$(cat tests/data/independent-flipped.line)

for b in openssl gcrypt nettle; do
	expect_exit 0 "$b passes $good" "$CB" kat --backend "$b" "$good"
	check "$b ran records of $good" [ -n "$(printf '%s\n' "$out" | grep -E '^[1-9][0-9]* passed, 0 failed')" ]
	expect_exit 1 "$b fails $bad" "$CB" kat --backend "$b" "$bad"
	check "$b names $bad:$line" contains "$out" "FAIL $bad:$line $b"
	n=$(printf '%s\n' "$out" | grep -c '^FAIL')
	check "$b: exactly one record fails" [ "$n" -eq 1 ]
done
finish
