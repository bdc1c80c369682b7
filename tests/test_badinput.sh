#!/bin/sh
# Bad input never crashes and never passes: malformed vector files and bad
# options each exit 2 with a message naming file:line or the argument.
. tests/lib.sh

good='alg = cbc(aes)
key = 2b7e151628aed2a6abf7158809cf4f3c
iv = 000102030405060708090a0b0c0d0e0f
pt = 6bc1bee22e409f96e93d7e117393172a
ct = 7649abac8119b246cee98e9b12e9197d
source = SP 800-38A F.2.1'

# bad_vec NAME LINE CONTENT: the file must be rejected naming FILE:LINE
bad_vec() {
	f="$T/$1.vec"
	printf '%s\n' "$3" >"$f"
	expect_exit 2 "vec $1" "$CB" kat --backend openssl "$f"
	check "vec $1 names $f:$2" contains "$err" "$f:$2"
	check "vec $1 runs nothing" [ -z "$(printf '%s' "$out" | grep passed)" ]
}

printf '%s\n' "$good" >"$T/good.vec"
expect_exit 0 "good file passes" "$CB" kat --backend openssl "$T/good.vec"
check "good file counts one pass" contains "$out" "1 passed, 0 failed"

bad_vec oddhex 4 "$(printf '%s' "$good" | sed 's/^pt = .*/pt = 6bc/')"
bad_vec badchar 5 "$(printf '%s' "$good" | sed 's/^ct = 7649/ct = 76zz/')"
bad_vec unknownfield 3 "$(printf '%s' "$good" | sed 's/^iv =/ivv =/')"
bad_vec noalg 1 "$(printf '%s' "$good" | sed '/^alg/d')"
bad_vec unknownalg 1 "$(printf '%s' "$good" | sed 's/cbc(aes)/cbc(aes-nope)/')"
bad_vec keylen 2 "$(printf '%s' "$good" | sed 's/^key = 2b7e/key = 2b7e00/')"
bad_vec truncated 1 "$(printf '%s' "$good" | sed '/^ct/d;/^source/d')"
bad_vec noequals 3 "$(printf '%s' "$good" | sed 's/^iv = /iv /')"
bad_vec twice 7 "$(printf '%s\nkey = 00' "$good")"
bad_vec lenmismatch 5 "$(printf '%s' "$good" | sed 's/^ct = \(.*\)/ct = \100/')"
bad_vec expectjunk 7 "$(printf '%s\nexpect = maybe' "$good")"
bad_vec ivlen 3 "$(printf '%s' "$good" | sed 's/^iv = 00/iv = /')"
bad_vec notblock 4 "$(printf '%s' "$good" | sed 's/^pt = \(.*\)/pt = \100/;s/^ct = \(.*\)/ct = \100/')"

# binary junk: bytes that are not text
{ printf '%s\n' "$good"; printf '\n\001\377\376junk\n'; } >"$T/binary.vec"
expect_exit 2 "vec binary" "$CB" kat --backend openssl "$T/binary.vec"
check "vec binary names line 8" contains "$err" "$T/binary.vec:8"
head -c 4096 /dev/urandom >"$T/random.vec"
expect_exit 2 "vec random bytes" "$CB" kat --backend openssl "$T/random.vec"
check "vec random names a line" contains "$err" "$T/random.vec:"
printf 'alg = sha256\nmsg = 00\nmd = 00\0ff\n' >"$T/nul.vec"
expect_exit 2 "vec NUL" "$CB" kat --backend openssl "$T/nul.vec"
check "vec NUL names line 3" contains "$err" "$T/nul.vec:3"

# a very long line (4 MiB of hex that is odd-length)
{ printf 'alg = sha256\nmsg = '; head -c 2097152 /dev/zero | tr '\0' 'a'; printf 'a\nmd = 00\n'; } >"$T/long.vec"
expect_exit 2 "vec very long line" "$CB" kat --backend openssl "$T/long.vec"
check "vec long line names line 2" contains "$err" "$T/long.vec:2"

# a directory with no vectors, and a missing file
mkdir "$T/empty"
expect_exit 2 "vec empty dir" "$CB" kat "$T/empty"
check "empty dir named" contains "$err" "$T/empty"
expect_exit 2 "vec missing file" "$CB" kat "$T/missing.vec"
check "missing file named" contains "$err" "$T/missing.vec"

# a wrong answer in a well-formed file: exit 1 naming the ct line (5)
printf '%s\n' "$good" | sed 's/^ct = 7649/ct = 7648/' >"$T/wrong.vec"
expect_exit 1 "wrong ciphertext fails" "$CB" kat --backend openssl "$T/wrong.vec"
check "wrong ciphertext names its line" contains "$out" "$T/wrong.vec:5 openssl"
check "and the byte, expected and got" contains "$out" "ct differs at byte 1 of 16: expected 7648abac8119b246cee98e9b12e9197d got 7649abac"

# options
expect_exit 2 "unknown command" "$CB" frobnicate
check "unknown command named" contains "$err" "frobnicate"
expect_exit 2 "no command" "$CB"
expect_exit 2 "kat unknown option" "$CB" kat --frob
check "unknown option named" contains "$err" "--frob"
expect_exit 2 "kat unknown backend" "$CB" kat --backend nosuch
check "unknown backend named" contains "$err" "nosuch"
expect_exit 2 "kat unknown alg" "$CB" kat --alg "cbc(rot13)"
check "unknown alg named" contains "$err" "cbc(rot13)"
expect_exit 2 "kat missing value" "$CB" kat --backend
check "missing value named" contains "$err" "--backend"
expect_exit 2 "list bad arg" "$CB" list everything
check "list bad arg named" contains "$err" "everything"
expect_exit 0 "help" "$CB" help
expect_exit 0 "list" "$CB" list

# vectors/ next to the binary, wherever it is run from: a tree with the
# binary under test and the checkout's vectors beside it (the binary may be
# built out of the tree, as make check-asan's is)
mkdir "$T/tree" "$T/elsewhere"
cp "$CB" "$T/tree/cryptobench"
ln -s "$PWD/vectors" "$T/tree/vectors"
ln -s "$PWD/${BUILD:-build}/plugins" "$T/tree/plugins"   # and its plug-ins
CBABS=$T/tree/cryptobench
expect_exit 0 "kat from another directory" sh -c "cd '$T/elsewhere' && '$CBABS' kat --backend openssl"
check "kat from elsewhere ran the checkout's vectors" \
    contains "$out" " passed, 0 failed"
check "kat from elsewhere ran many" [ "$(printf '%s\n' "$out" | sed -n 's/^\([0-9]*\) passed.*/\1/p')" -gt 100 ]
expect_exit 0 "speed from another directory" sh -c "cd '$T/elsewhere' && '$CBABS' speed --backend openssl --alg 'cbc(aes)' --sizes 16 --key-bits 128 --encrypt --sec 0.02"
check "speed from elsewhere is gated (no warning)" [ -z "$err" ]

# no vectors: refused (docs/bad-input.md); --no-gate times anyway, saying so
export CRYPTOBENCH_VECTORS="$T/no-such-dir"
expect_exit 2 "speed without vectors refused" "$CB" speed --backend openssl --alg 'cbc(aes)' --sizes 16 --key-bits 128 --encrypt --sec 0.02
check "nothing timed without vectors" [ -z "$out" ]
expect_exit 0 "speed --no-gate" "$CB" speed --backend openssl --alg 'cbc(aes)' --sizes 16 --key-bits 128 --encrypt --sec 0.02 --no-gate
check "speed --no-gate times" contains "$out" "16 byte blocks"
check "speed --no-gate warns" contains "$err" "--no-gate: timing without the known-answer vectors"
expect_exit 2 "dd without vectors refused" "$CB" dd -e aes -l 128 count=1
expect_exit 0 "dd --no-gate" "$CB" dd -e aes -l 128 count=1 --no-gate
check "dd --no-gate reports" contains "$out" "bytes transferred"
check "dd --no-gate warns" contains "$err" "--no-gate"
unset CRYPTOBENCH_VECTORS

finish
