#!/bin/sh
# The vectors format's rules (docs/vectors.md), one check per rule: upper-case
# hex, repeat(HEX, COUNT), truncated MACs and tlen, iv_out, XTS keys with
# equal halves and 2x192 bits, sha224 / hmac(sha224) on every library backend.
. tests/lib.sh
LIBS="openssl gcrypt nettle"

# vec NAME CONTENT: write $T/NAME.vec
vec() { printf '%s\n' "$2" >"$T/$1.vec"; }
# bad NAME LINE WORD: rejected with exit 2, naming FILE:LINE and WORD
bad() {
	expect_exit 2 "$1 rejected" "$CB" kat --backend openssl "$T/$1.vec"
	check "$1 names $1.vec:$2" contains "$err" "$1.vec:$2: "
	check "$1 says '$3'" contains "$err" "$3"
}

cbc='alg = cbc(aes)
key = 2b7e151628aed2a6abf7158809cf4f3c
iv = 000102030405060708090a0b0c0d0e0f
pt = 6bc1bee22e409f96e93d7e117393172a
ct = 7649abac8119b246cee98e9b12e9197d'

# upper-case hex is accepted and means the same bytes
vec upper "$(printf '%s' "$cbc" | sed '/^[kipc]/s/= \(.*\)/= \U\1/')"
check "upper-case file has upper case" grep -q '^ct = 7649ABAC' "$T/upper.vec"
for b in $LIBS; do
	expect_exit 0 "upper-case hex passes on $b" "$CB" kat --backend "$b" "$T/upper.vec"
done
vec upperbad "$(printf '%s' "$cbc" | sed 's/^ct = 7649ABAC/ct = 7649ABAD/;s/^ct = 7649abac/ct = 7649ABAD/')"
expect_exit 1 "a wrong upper-case ct still fails" "$CB" kat --backend openssl "$T/upperbad.vec"

# repeat(HEX, COUNT)
vec rep 'alg = sha256
msg = repeat(616263, 1)
md = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
expect_exit 0 "repeat(616263, 1) is abc" "$CB" kat --backend openssl "$T/rep.vec"
vec rep0 'alg = sha256
msg = repeat(61, 0)
md = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
expect_exit 0 "repeat(61, 0) is empty" "$CB" kat --backend openssl "$T/rep0.vec"
vec repmillion 'alg = sha1
msg = repeat(61,1000000)
md = 34aa973cd4c4daa4f61eeb2bdbad27316534016f'
for b in $LIBS; do
	expect_exit 0 "one million a (sha1) on $b" "$CB" kat --backend "$b" "$T/repmillion.vec"
done
vec repnocomma 'alg = sha256
msg = repeat(61 3)
md = 00'
bad repnocomma 2 "repeat"
vec repcount 'alg = sha256
msg = repeat(61, x3)
md = 00'
bad repcount 2 "COUNT is not a decimal number"
vec rephex 'alg = sha256
msg = repeat(6, 3)
md = 00'
bad rephex 2 "HEX is not hex"
vec repbig 'alg = sha256
msg = repeat(6161, 40000000)
md = 00'
bad repbig 2 "64 MiB"
{ for i in 1 2 3 4 5; do printf 'alg = sha256\nmsg = repeat(6161, 30000000)\nmd = 00\n\n'; done; } >"$T/repfile.vec"
bad repfile 18 "256 MiB"
vec repparen 'alg = sha256
msg = repeat(61, 3
md = 00'
bad repparen 2 "repeat"

# truncated MACs: a short mac is the first bytes; tlen says so explicitly
mac='alg = hmac(sha256)
key = 0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b
msg = 4869205468657265'
full=b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7
vec trunc "$mac
mac = b0344c61d8db38535ca8afceaf0bf12b"
vec trunctlen "$mac
mac = b0344c61d8db38535ca8afceaf0bf12b
tlen = 16"
for b in $LIBS; do
	expect_exit 0 "truncated mac passes on $b" "$CB" kat --backend "$b" "$T/trunc.vec"
	expect_exit 0 "truncated mac with tlen passes on $b" "$CB" kat --backend "$b" "$T/trunctlen.vec"
done
vec truncwrong "$mac
mac = b0344c61d8db38535ca8afceaf0bf12c
tlen = 16"
expect_exit 1 "a wrong truncated mac fails" "$CB" kat --backend openssl "$T/truncwrong.vec"
check "the failure names the mac's line" contains "$out" "truncwrong.vec:4 openssl"
check "the failure says the truncated mac's last byte" contains "$out" "mac differs at byte 15 of 16"
vec tlenbad "$mac
mac = b0344c61d8db38535ca8afceaf0bf12b
tlen = 20"
bad tlenbad 5 "tlen = 20 but mac is 16 bytes"
vec maclong "$mac
mac = ${full}00"
bad maclong 4 "must be 1..32 bytes"
vec tlenhash 'alg = sha256
msg =
md = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
tlen = 32'
bad tlenhash 4 "does not apply"

# iv_out: the chaining value after the request
vec ivout "$cbc
iv_out = 7649abac8119b246cee98e9b12e9197d"
vec ivoutctr 'alg = ctr(aes)
key = 2b7e151628aed2a6abf7158809cf4f3c
iv = f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
pt = 6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51
ct = 874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff
iv_out = f0f1f2f3f4f5f6f7f8f9fafbfcfdff01'
for b in $LIBS native; do
	expect_exit 0 "cbc iv_out passes on $b" "$CB" kat --backend "$b" "$T/ivout.vec"
done
for b in $LIBS; do
	expect_exit 0 "ctr iv_out passes on $b" "$CB" kat --backend "$b" "$T/ivoutctr.vec"
done
vec ivoutflip "$cbc
iv_out = 7649abac8119b246cee98e9b12e9197e"
expect_exit 1 "a wrong iv_out fails" "$CB" kat --backend openssl "$T/ivoutflip.vec"
check "it says iv_out mismatch" contains "$out" "iv_out mismatch"
vec ivoutlen "$cbc
iv_out = 7649abac"
bad ivoutlen 6 "iv_out must be 16 bytes"
vec ivoutxts 'alg = xts(aes)
key = 1111111111111111111111111111111122222222222222222222222222222222
iv = 33333333330000000000000000000000
pt = 4444444444444444444444444444444444444444444444444444444444444444
ct = c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0
iv_out = 00000000000000000000000000000000'
bad ivoutxts 6 "iv_out does not apply to xts(aes)"

# XTS: equal halves run where the library takes them, a skip with the
# library's reason where it refuses; 2x192-bit keys likewise
vec xtseq 'alg = xts(aes)
key = 0000000000000000000000000000000000000000000000000000000000000000
iv = 00000000000000000000000000000000
pt = 0000000000000000000000000000000000000000000000000000000000000000
ct = 917cf69ebd68b2ec9b9fe9a3eadda692cd43d2f59598ed858c02c2652fbf922e'
for b in gcrypt nettle; do
	expect_exit 0 "equal halves pass on $b" "$CB" kat --backend "$b" "$T/xtseq.vec"
	check "equal halves ran on $b" contains "$out" "1 passed, 0 failed"
done
expect_exit 77 "equal halves: openssl runs nothing" "$CB" kat -v --backend openssl "$T/xtseq.vec"
check "openssl skip gives the library's reason" contains "$out" "SKIP $T/xtseq.vec:1 openssl xts-aes-openssl: key not supported by this driver: openssl"
check "the reason is OpenSSL's" contains "$out" "duplicated keys"
vec xts192 'alg = xts(aes)
key = 78889001e21046c8ae56a9625212fd4a6e7471d1e9bb25249ba10a1c50925da67d8e9b16b23b1777e30a3ab42f4b0bdf
iv = f0de263134ac18270000000000000000
pt = e3b57a2f3a59801b3b23df95170cccac
ct = 8f08bf57a2e866e74a04a116069d9a46'
for b in gcrypt nettle; do
	expect_exit 0 "2x192 XTS passes on $b" "$CB" kat --backend "$b" "$T/xts192.vec"
	check "2x192 XTS ran on $b" contains "$out" "1 passed, 0 failed"
done
expect_exit 77 "2x192 XTS: openssl runs nothing" "$CB" kat -v --backend openssl "$T/xts192.vec"
check "openssl says 384-bit keys are unavailable" contains "$out" "384-bit keys unavailable"

# sha224 and hmac(sha224) on every library backend (the shipped vectors)
for b in $LIBS; do
	expect_exit 0 "sha224 on $b" "$CB" kat --backend "$b" --alg sha224 vectors/hash.vec
	check "sha224 ran 3 on $b" contains "$out" "3 passed, 0 failed"
	expect_exit 0 "hmac(sha224) on $b" "$CB" kat --backend "$b" --alg hmac/sha224 vectors/hmac.vec
	check "hmac(sha224) ran 7 on $b" contains "$out" "7 passed, 0 failed"
done
finish
