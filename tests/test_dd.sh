#!/bin/sh
# cryptobench dd: images byte-exact with an independent model of geli v7 and
# dm-crypt (tests/data/geli_ref.py) for every cipher x HMAC of the geli
# report and the dm-crypt IV modes, on every available backend; -j N writes
# the same image; corruption is reported as geli reports it with exit 1 and
# the untouched image reads back to the plaintext; existing files are not
# overwritten without --force; I/O errors say how many bytes made it;
# SIGINT gives a partial report; bad operands exit 2 naming the argument;
# the output lines have the seed's format.
. tests/lib.sh

# A Python with the cryptography package for the reference model.
PY=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1 &&
	   "$p" -c 'import cryptography' >/dev/null 2>&1; then PY=$p; break; fi
done
REF=tests/data/geli_ref.py

head -c 128 /dev/urandom >"$T/mkey"
# 5 geli sectors, a partial record and a partial sector (padded by dd)
head -c 23000 /dev/urandom >"$T/pt"

backends=""
for b in openssl gcrypt nettle native; do
	if "$CB" dd -e aes --backend "$b" count=1 >/dev/null 2>&1; then
		backends="$backends $b"
	fi
done
check "some backend runs dd" [ -n "$backends" ]

ciphers="aes:-l:128 aes:-l:256 aes-cbc:-l:128 aes-cbc:-l:192 aes-cbc:-l:256 camellia blowfish 3des null"
auths="none hmac/md5 hmac/sha1 hmac/ripemd160 hmac/sha256 hmac/sha384 hmac/sha512"

# ---- byte-exact images, every cipher x HMAC, every backend ------------------
if [ -n "$PY" ]; then
	: >"$T/plan"
	n=0
	for c in $ciphers; do
		e=$(echo "$c" | tr : ' ')
		for a in $auths; do
			n=$((n + 1))
			aa=; [ "$a" = none ] || aa="-a $a"
			echo "geli -e $e $aa -s 4096 -K $T/mkey --in $T/pt --out $T/ref$n" >>"$T/plan"
			echo "$n|$e|$aa" >>"$T/cases"
		done
	done
	"$PY" "$REF" batch "$T/plan" 2>"$T/referr"
	check "reference model ran" [ $? -eq 0 ]
	for b in $backends; do
		while IFS='|' read -r n e aa; do
			rm -f "$T/img"
			# shellcheck disable=SC2086
			"$CB" dd --backend "$b" -e $e $aa -K "$T/mkey" if="$T/pt" \
			    of="$T/img" bs=8k >"$T/out" 2>"$T/err"
			rc=$?
			if [ $rc -ne 0 ]; then
				if grep -q "has no usable" "$T/err"; then continue; fi
				fail "$b -e $e $aa: exit $rc: $(head -1 "$T/err")"
				continue
			fi
			check "$b -e $e $aa: image = reference" cmp -s "$T/img" "$T/ref$n"
		done <"$T/cases"
	done

	# the same images with 2 and 3 worker threads and odd request sizes
	for j in 2 3; do
		while IFS='|' read -r n e aa; do
			case "$n" in 3|9|16|30|44|57|63) ;; *) continue ;; esac
			rm -f "$T/img"
			# shellcheck disable=SC2086
			"$CB" dd -j $j -e $e $aa -K "$T/mkey" if="$T/pt" of="$T/img" \
			    bs=12k >/dev/null 2>&1
			check "-j $j -e $e $aa: image = reference" cmp -s "$T/img" "$T/ref$n"
		done <"$T/cases"
	done

	# dm-crypt IV generators
	for spec in aes-cbc-plain:128:512 aes-cbc-plain64:256:512 \
	            aes-cbc-plain64be:192:512 aes-cbc-essiv:sha256:256:512 \
	            aes-cbc-essiv:sha256:128:4096 aes-cbc-benbi:128:512 \
	            aes-cbc-null:128:512 aes-xts-plain64:512:512 \
	            aes-xts-plain64:256:4096 camellia-cbc-plain64:256:512 \
	            blowfish-cbc-benbi:128:512 des3_ede-cbc-plain64be:192:512 \
	            cipher_null-ecb:0:512; do
		s=${spec##*:}; r=${spec%:*}; l=${r##*:}; e=${r%:*}
		head -c $((l / 8)) /dev/urandom >"$T/dmkey"
		"$PY" "$REF" dmcrypt -e "$e" -s "$s" -K "$T/dmkey" --in "$T/pt" --out "$T/dmref"
		for b in $backends; do
			rm -f "$T/img"
			"$CB" dd --backend "$b" -e "$e" -l "$l" -s "$s" -K "$T/dmkey" \
			    if="$T/pt" of="$T/img" bs=8k >/dev/null 2>"$T/err" ||
			    { grep -q "has no usable" "$T/err" ||
			      fail "$b dm-crypt $e: $(head -1 "$T/err")"; continue; }
			check "$b dm-crypt $e -s $s: image = reference" cmp -s "$T/img" "$T/dmref"
		done
		rm -f "$T/img"
		"$CB" dd -e "$e" -l "$l" -s "$s" -K "$T/dmkey" if="$T/dmref" \
		    of="$T/img" bs=8k --decrypt >/dev/null 2>&1
		check "dm-crypt $e -s $s: decrypts back" cmp -s -n 23000 "$T/img" "$T/pt"
	done
else
	echo "note: no python3 with the cryptography package: reference images not checked"
fi

# ---- the known answers ---------------------------------------------------------
if [ -n "$PY" ]; then
	for v in geli dmcrypt; do
		"$PY" "$REF" vectors $v >"$T/$v.vec"
		check "vectors/$v.vec is what the reference model derives" \
		    cmp -s "$T/$v.vec" "vectors/$v.vec"
	done
fi
expect_exit 0 "sector vectors pass" "$CB" kat --backend openssl vectors/geli.vec vectors/dmcrypt.vec
check "sector vectors ran" contains "$out" "sector transforms"
# one disk byte changed in the first geli record: that record fails by name
awk 'BEGIN { done = 0 } /^disk = / && !done { sub(/^disk = ./, "disk = " (substr($0, 8, 1) == "0" ? "1" : "0")); done = 1; line = NR } { print } END { print line > "/dev/stderr" }' \
    vectors/geli.vec >"$T/flip.vec" 2>"$T/flip.line"
expect_exit 1 "a changed disk byte fails" "$CB" kat --backend openssl "$T/flip.vec"
check "the failing record is named" contains "$out" "FAIL $T/flip.vec:"
check "only that record fails" [ "$(printf '%s\n' "$out" | grep -c '^FAIL')" -eq 1 ]

# ---- read back, corruption ----------------------------------------------------
rm -f "$T/img" "$T/back"
"$CB" dd -e aes -l 256 -a hmac/sha256 -K "$T/mkey" if="$T/pt" of="$T/img" bs=8k >/dev/null 2>&1
expect_exit 0 "untouched image reads back" "$CB" dd --decrypt -e aes -l 256 \
    -a hmac/sha256 -K "$T/mkey" if="$T/img" of="$T/back" bs=8k
check "read-back = plaintext" cmp -s -n 23000 "$T/pt" "$T/back"
check "read-back is padded with zeros" \
    [ "$(tail -c +23001 "$T/back" | tr -d '\000' | wc -c)" -eq 0 ]
cp "$T/img" "$T/bad"
# flip one byte in the data of the second 4096-byte sector's first disk
# sector (XOR 1: a fixed 0xff is no change where the image holds 0xff)
b=$(od -An -tu1 -j 5000 -N 1 "$T/bad" | tr -d ' ')
printf "\\$(printf '%03o' $((b ^ 1)))" | dd of="$T/bad" bs=1 seek=5000 conv=notrunc 2>/dev/null
rm -f "$T/back"
expect_exit 1 "flipped byte: exit 1" "$CB" dd --decrypt -e aes -l 256 \
    -a hmac/sha256 -K "$T/mkey" if="$T/bad" of="$T/back" bs=8k
check "flipped byte: geli's message with bytes and offset" contains "$err" \
    "GEOM_ELI: $T/bad.eli: Failed to authenticate 480 bytes of data at offset 4096."
check "flipped byte: integrity failure named" contains "$err" "Integrity check failed"
check "flipped byte: the rest reads back" cmp -s -n 4096 "$T/pt" "$T/back"
check "flipped byte: failed data reads as zeros" \
    [ "$(dd if="$T/back" bs=1 skip=4096 count=480 2>/dev/null | tr -d '\000' | wc -c)" -eq 0 ]
if [ -n "$PY" ]; then
	"$PY" "$REF" geli -e aes -l 256 -a hmac/sha256 -K "$T/mkey" --decrypt \
	    --in "$T/bad" --out "$T/pyback" 2>"$T/pyerr"
	check "reference model agrees on the corruption" contains "$(cat "$T/pyerr")" \
	    "480 bytes corrupted at offset 4096"
fi
printf 'x' >>"$T/bad"
rm -f "$T/back"
expect_exit 2 "image with a partial sector" "$CB" dd --decrypt -e aes -l 256 \
    -a hmac/sha256 -K "$T/mkey" if="$T/bad" of="$T/back"
expect_exit 1 "wrong key: every sector fails" "$CB" dd --decrypt -e aes -l 256 \
    -a hmac/sha256 if="$T/img"
rm -f "$T/back"
expect_exit 0 "no -a: read back" "$CB" dd -e camellia -K "$T/mkey" if="$T/pt" of="$T/img2" bs=8k
expect_exit 0 "no -a: decrypt" "$CB" dd --decrypt -e camellia -K "$T/mkey" if="$T/img2" of="$T/back" bs=8k
check "no -a: read-back = plaintext" cmp -s -n 23000 "$T/pt" "$T/back"

# ---- requests split among threads (records over the 512 KiB chunk) ---------
# -j N on N CPUs or more: main takes chunks too; on fewer, it only waits.
# Either way every chunk lands where it belongs, and a corruption in a later
# chunk is reported at its own offset.
head -c 3200000 /dev/urandom >"$T/bigpt"
"$CB" dd -e aes -l 256 -K "$T/mkey" if="$T/bigpt" of="$T/bigref" bs=8k >/dev/null 2>&1
if [ -n "$PY" ]; then
	"$PY" "$REF" geli -e aes -l 256 -s 4096 -K "$T/mkey" --in "$T/bigpt" \
	    --out "$T/bigpy"
	check "3.2 MB in 8 KiB records = reference" cmp -s "$T/bigref" "$T/bigpy"
fi
pin=
command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null && pin="taskset -c 0"
for j in 1 2 3; do
	for bs in 1m 1536k; do
		for run in "" ${pin:+"$pin"}; do
			on="all CPUs"; [ -n "$run" ] && on="one CPU"
			rm -f "$T/img"
			$run "$CB" dd -j $j -e aes -l 256 -K "$T/mkey" if="$T/bigpt" \
			    of="$T/img" bs=$bs >/dev/null 2>&1
			check "-j $j bs=$bs ($on): image = 8 KiB records" \
			    cmp -s "$T/img" "$T/bigref"
		done
	done
done
# more threads than CPUs: main sleeps on half the ring, and requests done
# out of order must not let it write the oldest before its last chunk (a
# one-sector record each: that bug failed 4 runs in 5 at -j 3 on 2 CPUs,
# and hung at -j 8)
"$CB" dd -e blowfish -K "$T/mkey" if="$T/bigpt" of="$T/bigbf" bs=8k >/dev/null 2>&1
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
[ "$ncpu" -lt 64 ] || ncpu=63               # -j takes 1 to 256
for j in 3 $((ncpu + 1)) $((ncpu * 4)); do
	for k in 1 2; do
		rm -f "$T/img"
		timeout 120 "$CB" dd -j $j -e blowfish -K "$T/mkey" if="$T/bigpt" \
		    of="$T/img" bs=4k >/dev/null 2>&1
		check "blowfish -j $j bs=4k, run $k: image = 8 KiB records" \
		    cmp -s "$T/img" "$T/bigbf"
	done
done
rm -f "$T/img" "$T/back"
"$CB" dd -j 2 -e aes -l 256 -a hmac/sha256 -K "$T/mkey" if="$T/bigpt" \
    of="$T/img" bs=1m >/dev/null 2>&1
expect_exit 0 "chunked: reads back" "$CB" dd -j 3 --decrypt -e aes -l 256 \
    -a hmac/sha256 -K "$T/mkey" if="$T/img" of="$T/back" bs=1m
check "chunked: read-back = plaintext" cmp -s -n 3200000 "$T/bigpt" "$T/back"
# a byte of plaintext sector 687 (at 2.68 MiB: the third 1 MiB request's
# second chunk; with HMAC a 4096-byte sector takes 9 disk sectors of 512):
# the same report from 8 KiB records on one thread and from 1 MiB records
# in chunks on three
# (the byte XOR 1: writing a fixed 0xff changed nothing when the random
# image already held 0xff there, one run in 256)
o=$((687 * 4608 + 100))
b=$(od -An -tu1 -j $o -N 1 "$T/img" | tr -d ' ')
printf "\\$(printf '%03o' $((b ^ 1)))" | dd of="$T/img" bs=1 seek=$o conv=notrunc 2>/dev/null
check "chunked: the byte was flipped" [ "$(od -An -tu1 -j $o -N 1 "$T/img" | tr -d ' ')" = $((b ^ 1)) ]
rm -f "$T/back"
expect_exit 1 "chunked: flipped byte fails" "$CB" dd --decrypt -e aes -l 256 \
    -a hmac/sha256 -K "$T/mkey" if="$T/img" of="$T/back" bs=8k
e1=$(printf '%s\n' "$err" | grep GEOM_ELI)
rm -f "$T/back"
expect_exit 1 "chunked: flipped byte fails at -j 3" "$CB" dd -j 3 --decrypt \
    -e aes -l 256 -a hmac/sha256 -K "$T/mkey" if="$T/img" of="$T/back" bs=1m
e3=$(printf '%s\n' "$err" | grep GEOM_ELI)
check "chunked: one sector named ($e1)" [ "$(printf '%s\n' "$e1" | grep -c .)" -eq 1 ]
off=$(printf '%s\n' "$e1" | sed -n 's/.* at offset \([0-9]*\)\.$/\1/p')
check "chunked: it is in a request's second chunk ($off)" \
    [ $((${off:-0} % 1048576)) -ge 524288 ]
check "chunked: -j 3 in chunks names the same ($e3)" [ "$e1" = "$e3" ]

# ---- safety ------------------------------------------------------------------
echo "precious" >"$T/keep"
expect_exit 2 "existing file not overwritten" "$CB" dd -e aes count=1 of="$T/keep"
check "refusal names the file and --force" contains "$err" "of=$T/keep"
check "refusal mentions --force" contains "$err" "--force"
check "existing file untouched" [ "$(cat "$T/keep")" = precious ]
expect_exit 0 "--force overwrites" "$CB" dd -e aes count=1 of="$T/keep" --force
check "--force: file is the image" [ "$(wc -c <"$T/keep")" -eq 1048576 ]
: >"$T/empty"
expect_exit 0 "an empty file may be written" "$CB" dd -e aes count=2 bs=4k of="$T/empty"
expect_exit 2 "of= is if=" "$CB" dd -e aes if="$T/pt" of="$T/pt" --force
# a block device node (of a device that does not exist: never opened)
if mknod "$T/blk" b 7 255 2>/dev/null; then
	expect_exit 2 "a block device is not written" "$CB" dd -e aes count=1 of="$T/blk"
	check "block device refusal mentions --force" contains "$err" "block device"
fi
if [ -w /dev/full ]; then
	expect_exit 2 "ENOSPC is an error" "$CB" dd -e aes count=3 of=/dev/full
	check "ENOSPC: says how many bytes made it" contains "$err" "after 0 bytes"
	check "ENOSPC: names the error" contains "$err" "No space left"
fi
expect_exit 2 "missing input" "$CB" dd -e aes if="$T/nonexistent"
check "missing input named" contains "$err" "if=$T/nonexistent"

# ---- SIGINT: a clean partial report --------------------------------------------
"$CB" dd -e aes -a hmac/sha1 count=1000000 >"$T/sig.out" 2>"$T/sig.err" &
pid=$!
# wait until the workers run (the handler is set as they start), then ^C
i=0
while [ $i -lt 100 ] && [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -lt 2 ]; do
	sleep 0.1; i=$((i + 1))
done
sleep 0.3
kill -INT $pid
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 $pid 2>/dev/null && { kill -KILL $pid; fail "SIGINT: still running after 10 s"; }
wait $pid
rc=$?
check "SIGINT: exit 130" [ $rc -eq 130 ]
check "SIGINT: partial report" grep -Eq '^[0-9]+ bytes transferred in [0-9]+\.[0-9]{6} secs \([0-9]+ bytes/sec\)$' "$T/sig.out"
check "SIGINT: says it was interrupted" grep -q interrupted "$T/sig.err"

# SIGINT while writing an authenticated image: the message names the file,
# the offset and the bytes written, the image holds exactly those and
# every sector of it verifies
"$CB" dd -e aes -a hmac/sha1 -K "$T/mkey" bs=64k count=100000 \
    of="$T/sigimg" >"$T/sig.out" 2>"$T/sig.err" &
pid=$!
i=0
while [ $i -lt 100 ] && [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -lt 2 ]; do
	sleep 0.1; i=$((i + 1))
done
sleep 0.3
kill -INT $pid
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 $pid 2>/dev/null && { kill -KILL $pid; fail "SIGINT of=: still running after 10 s"; }
wait $pid
check "SIGINT of=: exit 130" [ $? -eq 130 ]
msg=$(grep interrupted "$T/sig.err")
n=$(echo "$msg" | sed -nE 's/.*: ([0-9]+) bytes written to of=.*/\1/p')
check "SIGINT of=: message names offset, bytes and file" sh -c \
    'echo "$1" | grep -Eq "interrupted at offset [0-9]+ of if=/dev/zero: [0-9]+ bytes written to of=$2"' - "$msg" "$T/sigimg"
check "SIGINT of=: the image holds the bytes written" [ "$(wc -c <"$T/sigimg")" = "${n:-x}" ]
check "SIGINT of=: whole sectors" [ $(( ${n:-1} % 4608 )) -eq 0 ]
expect_exit 0 "SIGINT of=: the image verifies" "$CB" dd --decrypt -e aes \
    -a hmac/sha1 -K "$T/mkey" bs=64k if="$T/sigimg" of="$T/sigback"
check "SIGINT of=: it reads back as the zeros written" \
    [ "$(tr -d '\000' <"$T/sigback" | wc -c)" -eq 0 ]
rm -f "$T/sigimg" "$T/sigback"

# ---- output format (docs/dd.md, the seed) ------------------------------------
expect_exit 0 "geli format" "$CB" dd -e aes -l 256 -a hmac/sha256 -s 4096 count=4
check "line 1 restates geli init" [ "$(echo "$out" | sed -n 1p)" = \
    "geli init -P -e aes -l 256 -a hmac/sha256 -s 4096 -K key mirror/gm0" ]
check "line 2 is FreeBSD dd's summary" sh -c 'echo "$1" | sed -n 2p | grep -Eq "^4194304 bytes transferred in [0-9]+\.[0-9]{6} secs \([0-9]+ bytes/sec\)$"' - "$out"
check "two lines on stdout" [ "$(echo "$out" | wc -l)" -eq 2 ]
check "records on stderr" contains "$err" "4+0 records in"
expect_exit 0 "seed line for blowfish" "$CB" dd -e blowfish -s 4096 count=1
check "blowfish line as the seed" [ "$(echo "$out" | sed -n 1p)" = \
    "geli init -P -e blowfish -s 4096 -K key mirror/gm0" ]
expect_exit 0 "baseline" "$CB" dd -e none count=3
check "baseline as the seed" [ "$(echo "$out" | sed -n 1,3p)" = "dd if=/dev/zero of=/dev/mirror/gm0 bs=1m count=3
3+0 records in
3+0 records out" ]
# the baseline moves the bytes through the pipeline: an input comes out
# whole, not a buffer handed back untouched (an image of random bytes,
# three records and a short one, -j 1 and -j 2)
head -c 3670016 /dev/urandom >"$T/base.in"
for j in 1 2; do
	rm -f "$T/base.out"
	expect_exit 0 "baseline -j $j copies if= to of=" "$CB" dd -e none -j $j bs=1m \
	    if="$T/base.in" of="$T/base.out"
	check "baseline -j $j: of= is if=" cmp -s "$T/base.in" "$T/base.out"
done
expect_exit 0 "csv" "$CB" dd -e aes --format csv count=2
check "csv: header and one row" [ "$(echo "$out" | wc -l)" -eq 2 ]
check "csv: schema" contains "$out" "cryptobench-csv-5"
check "csv: xts(aes) row" contains "$out" "xts(aes)"
expect_exit 0 "json" "$CB" dd -e aes -a hmac/md5 --format json count=2
check "json: the auth" contains "$out" '"auth": "hmac(md5)"'

# ---- bad operands: exit 2 naming the argument ---------------------------------
bad() {   # NAME WORD ARGS...: exit 2 and the message names WORD
	name=$1 word=$2; shift 2
	expect_exit 2 "bad: $name" "$CB" dd "$@"
	check "bad: $name names $word" contains "$err" "$word"
}
bad "no -e" "-e" count=1
bad "unknown -e" "-e" -e rot13
bad "bad -l" "-l" -e aes -l 100
bad "bad -l number" "-l" -e aes -l x
bad "bad -a" "-a" -e aes -a hmac/crc32
bad "bad -s" "-s" -e aes -s 1000
bad "bad bs" "bs=" -e aes bs=1q
bad "zero bs" "bs=" -e aes bs=0
bad "bs not whole sectors" "bs=" -e aes bs=1000
bad "bad count" "count=" -e aes count=-1
bad "unknown operand" "skip=3" -e aes skip=3
bad "bad -j" "-j" -e aes -j 0
bad "bad --format" "--format" -e aes --format xml
bad "bad --backend" "--backend" -e aes --backend nope
bad "missing -K file" "-K" -e aes -K "$T/nokey"
head -c 64 /dev/urandom >"$T/shortkey"
bad "short -K file" "-K" -e aes -K "$T/shortkey"
bad "--decrypt without if=" "--decrypt" -e aes --decrypt
bad "-a with dm-crypt" "-a" -e aes-xts-plain64 -a hmac/sha256
bad "bad IV generator" "-e" -e aes-cbc-lmk

finish
