#!/bin/sh
# tests/test_plugins.sh - plug-ins (issue 28; docs/plugins.md): the library
# backends load as plug-ins and a missing library leaves the others
# running; the minimal plug-in of the docs builds in one command and runs;
# every broken plug-in is refused, naming the file and the reason, exit 2.
. tests/lib.sh
BUILD=${BUILD:-build}
need cc gcc
EX=docs/examples/null_plugin.c

# The library plug-ins are found next to the binary.
expect_exit 0 "list backends" $CB list backends
for lib in openssl gcrypt nettle; do
	check "list shows $lib's plug-in file and ABI" \
		contains "$out" "$lib.so  ABI 1"
done
expect_exit 0 "sysinfo" $CB sysinfo
sha=$(sha256sum "$BUILD/plugins/nettle.so" 2>/dev/null | cut -d' ' -f1)
check "provenance: the plug-in's path and sha256" \
	eval '[ ${#sha} -eq 64 ] && contains "$out" "sha256 $sha"'
check "provenance names the file" contains "$out" "plugins/nettle.so (ABI 1"
libs=$(ldd "$CB" 2>&1)
check "the program links none of the libraries" eval 'contains "$libs" libc.so &&
	! printf "%s\n" "$libs" | grep -q "libcrypto\|libgcrypt\|libnettle"'

# The out-of-tree plug-in (plugins/mbedtls, its own Makefile, the public
# header only) is built by the top-level build and passes the vectors.
expect_exit 0 "kat on the Mbed TLS plug-in" $CB kat --backend mbedtls
check "mbedtls: xts, cbc, hmac all run" eval 'contains "$out" xts-aes-mbedtls &&
	contains "$out" cbc-des3_ede-mbedtls && contains "$out" hmac-sha512-mbedtls'
check "mbedtls: many records pass" \
	[ "$(printf '%s\n' "$out" | sed -n 's/^\([0-9]*\) passed, 0 failed.*/\1/p')" -gt 200 ]

# A host where libgcrypt cannot be loaded: a file of that name that is no
# library, first in the search path.  The others run; list says why.
mkdir "$T/lib" && echo "not a library" >"$T/lib/libgcrypt.so.20"
expect_exit 0 "list without libgcrypt" \
	env LD_LIBRARY_PATH="$T/lib" $CB list backends
check "list: gcrypt unavailable" contains "$out" "gcrypt   -            unavailable"
check "list: the reason names libgcrypt" contains "$out" "libgcrypt.so.20"
check "list: openssl still there" contains "$out" "openssl  3"
expect_exit 0 "kat without libgcrypt" \
	env LD_LIBRARY_PATH="$T/lib" $CB kat
expect_exit 0 "speed without libgcrypt" env LD_LIBRARY_PATH="$T/lib" \
	$CB speed -a "cbc(aes)" --backend nettle --sizes 16 --reps 1 --sec 0.01

# The docs' minimal plug-in: one command, then list, kat and speed.
if ! cc -shared -fPIC -O2 -Iinclude -o "$T/example.so" $EX; then
	fail "the minimal plug-in builds"
	finish; exit
fi
pass
expect_exit 0 "--plugin list" $CB --plugin "$T/example.so" list backends
check "list: the plug-in's backend" contains "$out" "example  1.0"
check "list: its file and ABI" contains "$out" "$T/example.so  ABI 1"
expect_exit 0 "--plugin kat" $CB --plugin "$T/example.so" kat --backend example
check "kat ran its implementation" contains "$out" "ecb-cipher_null-example"
expect_exit 0 "CRYPTOBENCH_PLUGIN_PATH (a directory)" \
	env CRYPTOBENCH_PLUGIN_PATH="/nonexistent-dir-x:$T" $CB list algs
check "the path's plug-in listed" contains "$out" "ecb-cipher_null-example"

# Broken plug-ins: each built here from the same source, each refused.
refused() {   # NAME BROKEN REASON
	cc -shared -fPIC -O2 -Iinclude -DBROKEN=$2 -o "$T/bad$2.so" $EX \
		2>/dev/null || { fail "$1: does not build"; return; }
	expect_exit 2 "$1" $CB --plugin "$T/bad$2.so" list backends
	check "$1: the message names the file" contains "$err" "$T/bad$2.so: "
	check "$1: and the reason" contains "$err" "$3"
}
refused "the symbol missing" 2 "no symbol cryptobench_plugin"
refused "ABI too new" 3 "built for plug-in ABI 2, newer"
refused "ABI too old" 4 "built for plug-in ABI 0, older"
refused "struct size too small" 5 "struct sizes 8 (descriptor)"
refused "NULL driver name" 6 "has no driver name"
refused "duplicate driver names" 7 "driver name 'ecb-cipher_null-example' is already taken"
refused "unknown algorithm" 8 "unknown algorithm 'cbc(rot13)'"
refused "key sizes outside the algorithm's" 9 "key size 64 bits is not one of"
refused "a NULL entry point the kind needs" 10 "needs decrypt, which is NULL"
echo "not an ELF file" >"$T/text.so"
expect_exit 2 "not a shared object" $CB --plugin "$T/text.so" list
check "not a shared object: file and reason" \
	contains "$err" "$T/text.so: cannot be loaded"
expect_exit 2 "a backend name taken" $CB --plugin "$BUILD/plugins/openssl.so" list
check "a backend name taken: reason" contains "$err" "backend name 'openssl' is already taken"
expect_exit 2 "a refused plug-in on the path" \
	env CRYPTOBENCH_PLUGIN_PATH="$T/bad8.so" $CB list
check "path: file and reason" contains "$err" "$T/bad8.so: driver"
expect_exit 2 "--plugin without a file" $CB list --plugin
finish
