#!/bin/sh
# tests/data/params.vec - known-answer records at the edges of every
# algorithm's parameter range (truncated GCM tags, rfc4106's tag lengths,
# ChaCha20's 32-bit counter wrap, CTR's 128-bit wrap, XTS ciphertext
# stealing, HMAC/PBKDF2 keys and salts around the block size, Argon2's
# minimum memory and lanes), computed by tests/data/gen_params.py with
# python3-cryptography, hashlib, argon2_ref.py and an RFC 8439 ChaCha20,
# not our code - passes on every library backend: exit 0, 0 failed, and
# every skip says why.  libgcrypt's PBKDF2 refuses an empty salt: a skip
# that says so.  A copy with one truncated GCM tag changed (and not marked
# expect = fail) fails with exit 1, naming that record's file:line.
. tests/lib.sh
vec=tests/data/params.vec

# index FILE: one line per record, "LINE ALG TAGBYTES SALTBYTES POS|NEG",
# LINE being the record's first field line (what kat's file:line names);
# TAGBYTES, SALTBYTES -1 where the record has no such field.
index_vec() {
	awk '
	function out() {
		if (line)
			print line, f["alg"], ("tag" in f) ? length(f["tag"]) / 2 : -1,
			      ("salt" in f) ? length(f["salt"]) / 2 : -1,
			      f["expect"] == "fail" ? "NEG" : "POS"
		line = 0; split("", f)
	}
	/^#/ { next }
	/^$/ { out(); next }
	{
		if (!line) line = NR
		n = index($0, " =")
		f[substr($0, 1, n - 1)] = substr($0, n + 3)
	}
	END { out() }' "$1"
}
index_vec "$vec" >"$T/index"
check "$vec indexed (gcm, rfc4106, pbkdf2 records found)" \
	sh -c "grep -q ' gcm(aes) 13 ' $T/index && grep -q ' rfc4106(gcm(aes)) 4 ' $T/index &&
	       grep -q ' pbkdf2(hmac(sha1)) -1 0 ' $T/index"

backends=$("$CB" list backends 2>/dev/null |
	awk '$3 == "available" && /^(openssl|gcrypt|nettle|native|mbedtls) / { print $1 }')
check "some backend among openssl gcrypt nettle native mbedtls is available" [ -n "$backends" ]

for b in $backends; do
	expect_exit 0 "$b passes $vec" "$CB" kat --backend "$b" -v "$vec"
	last=$(printf '%s\n' "$out" | tail -n 1)
	check "$b: \"0 failed\" in the last line ($last)" \
		sh -c "printf '%s\n' '$last' | grep -Eq '^[1-9][0-9]* passed, 0 failed(, [0-9]+ skipped)?\$'"
	# SKIP FILE:LINE BACKEND DRIVER: REASON - a reason that is there and
	# does not stop at a colon (an empty detail after "...driver: ")
	printf '%s\n' "$out" | grep '^SKIP ' >"$T/skips"
	printf '%s\n' "$out" | grep '^SKIP ' |
		grep -Ev '^SKIP [^ ]+:[0-9]+ [^ ]+ [^ ]+: .*[^ :]$' >"$T/noreason"
	check "$b: every SKIP line gives a reason" [ ! -s "$T/noreason" ]
	[ ! -s "$T/noreason" ] || sed 's/^/    /' "$T/noreason" | head -5
	case $last in
	*skipped) echo "REPORT: $b: $last" ;;
	*) echo "REPORT: $b: $last, 0 skipped" ;;
	esac
	if [ "$b" = gcrypt ]; then
		lines=$(awk '$2 ~ /^pbkdf2\(/ && $4 == 0 { print $1 }' "$T/index")
		check "params.vec has empty-salt PBKDF2 records" [ -n "$lines" ]
		for l in $lines; do
			check "gcrypt: the empty-salt PBKDF2 record $vec:$l is a skip that names the empty salt" \
				sh -c "grep '^SKIP $vec:$l gcrypt ' $T/skips | grep -q 'empty salt'"
		done
	fi
done

# one positive gcm(aes) record with a 13-byte tag: its tag's last hex digit changed
line=$(awk '$2 == "gcm(aes)" && $3 == 13 && $5 == "POS" { print $1; exit }' "$T/index")
check "a gcm(aes) record with a 13-byte tag to flip" [ -n "$line" ]
awk -v L="$line" '
	NR >= L && !done && /^tag = / {
		c = substr($0, length($0), 1)
		$0 = substr($0, 1, length($0) - 1) (c == "0" ? "1" : "0")
		done = 1
		print NR >"/dev/stderr"
	}
	{ print }' "$vec" >"$T/flipped.vec" 2>"$T/flipped.line"
tagline=$(cat "$T/flipped.line")
check "the flipped copy differs from $vec in one line" \
	sh -c "[ \$(cmp -l $vec $T/flipped.vec | wc -l) -eq 1 ]"
for b in $backends; do
	"$CB" list algs 2>/dev/null | grep -Eq "^ +$b +gcm-aes-" || continue
	expect_exit 1 "$b fails the flipped copy" "$CB" kat --backend "$b" "$T/flipped.vec"
	# the tag's line (not the record's), the byte: the 13th (12)
	check "$b names the tag's line $T/flipped.vec:$tagline" contains "$out" "FAIL $T/flipped.vec:$tagline $b"
	check "$b says which byte of the tag differs" contains "$out" "tag differs at byte 12 of 13"
	n=$(printf '%s\n' "$out" | grep -c '^FAIL')
	check "$b: exactly one record fails" [ "$n" -eq 1 ]
done
finish
