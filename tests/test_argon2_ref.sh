#!/bin/sh
# The independent Argon2 (tests/data/argon2_ref.py, pure Python from RFC 9106)
# that check_vectors.py re-checks vectors/kdf.vec's Argon2 records with:
# RFC 9106 section 5's three tags (Argon2d, Argon2i, Argon2id with a secret
# and associated data) come out, kdf.vec's Argon2 records check, and a
# record with one dk byte changed is found, by its line.
. tests/lib.sh
need python3 python3
rfc() {
	python3 -c "import sys; sys.path.insert(0, 'tests/data'); import argon2_ref as a
print(a.argon2('$1', bytes([1]) * 32, bytes([2]) * 16, 3, 32, 4, 32, bytes([3]) * 8, bytes([4]) * 12).hex())"
}
check "RFC 9106 5.1 argon2d" [ "$(rfc argon2d)" = 512b391b6f1162975371d30919734294f868e3be3984f3c1a13a4db9fabe4acb ]
check "RFC 9106 5.2 argon2i" [ "$(rfc argon2i)" = c814d9d1dc7f37aa13f0d77f2494bda1c8de6b016dd388d29952a4c4672b6ce8 ]
check "RFC 9106 5.3 argon2id" [ "$(rfc argon2id)" = 0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659 ]
# kdf.vec's Argon2 records (positive and negative) alone
awk 'BEGIN { RS = ""; ORS = "\n\n" } /alg = argon2/' vectors/kdf.vec >"$T/argon.vec"
check "kdf.vec has Argon2 records" grep -q '^alg = argon2id' "$T/argon.vec"
expect_exit 0 "check_vectors.py passes kdf.vec's Argon2 records" \
	python3 tests/data/check_vectors.py "$T/argon.vec"
check "no record unchecked" contains "$out" "0 failed"
# the positive records, the first one's dk with its first byte changed
awk 'BEGIN { RS = ""; ORS = "\n\n" } !/expect = fail/ { if (++n == 1) sub(/dk = ../, "dk = ff"); print }' \
	"$T/argon.vec" >"$T/flip.vec"
differs() { ! cmp -s "$1" "$2"; }
check "flipped file differs" differs "$T/argon.vec" "$T/flip.vec"
line=$(grep -n '^alg' "$T/flip.vec" | head -1 | cut -d: -f1)
expect_exit 0 "check_vectors.py finds the changed dk on line $line" \
	python3 tests/data/check_vectors.py --flipped "$T/flip.vec" "$line"
expect_exit 1 "check_vectors.py fails the changed file" \
	python3 tests/data/check_vectors.py "$T/flip.vec"
finish
