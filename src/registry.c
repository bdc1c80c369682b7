/*
 * registry.c - the algorithm table and the geli/cryptsetup aliases.
 *
 * Both tables are sorted by name (tests/test_tables checks it) and looked
 * up by binary search.  Canonical names follow the Linux crypto API; key
 * size is a parameter, never part of the name.
 */
#include <stdlib.h>
#include <string.h>

#include "cb.h"

#define AES_KEYS {128, 192, 256}
#define HMAC(n, len) \
	{ "hmac(" n ")", CB_MAC, 1, 0, len, 0, CB_F_ANYKEY, {256}, 0, "hmac-" n }
#define HASH(n, len) \
	{ n, CB_HASH, 1, 0, len, 0, CB_F_NOKEY, {0}, 0, n }

const struct cb_alg cb_algs[] = {
	{ "authenc(hmac(sha256),cbc(aes))", CB_AEAD, 16, 16, 32, 16,
	  CB_F_BLOCKLEN, AES_KEYS, 0, "authenc-sha256-aes-cbc" },
	{ "cbc(aes)", CB_CIPHER, 16, 16, 0, 16, CB_F_STREAM | CB_F_BLOCKLEN,
	  AES_KEYS, 0, "aes-cbc" },
	{ "cbc(blowfish)", CB_CIPHER, 8, 8, 0, 8, CB_F_STREAM | CB_F_BLOCKLEN,
	  {128, 32, 448}, 32, "blowfish-cbc" },
	{ "cbc(camellia)", CB_CIPHER, 16, 16, 0, 16, CB_F_STREAM | CB_F_BLOCKLEN,
	  AES_KEYS, 0, "camellia-cbc" },
	{ "cbc(des3_ede)", CB_CIPHER, 8, 8, 0, 8, CB_F_STREAM | CB_F_BLOCKLEN,
	  {192}, 0, "3des-cbc" },
	{ "ctr(aes)", CB_CIPHER, 1, 16, 0, 1, CB_F_STREAM, AES_KEYS, 0,
	  "aes-ctr" },
	{ "ecb(aes)", CB_CIPHER, 16, 0, 0, 16, CB_F_STREAM | CB_F_BLOCKLEN,
	  AES_KEYS, 0, "aes-ecb" },
	{ "ecb(cipher_null)", CB_CIPHER, 1, 0, 0, 1, CB_F_STREAM | CB_F_NOKEY,
	  {0}, 0, "null" },
	{ "essiv(authenc(hmac(sha256),cbc(aes)),sha256)", CB_AEAD, 16, 16, 32,
	  16, CB_F_BLOCKLEN, AES_KEYS, 0, "essiv-authenc-sha256-aes-cbc" },
	{ "essiv(cbc(aes),sha256)", CB_CIPHER, 16, 16, 0, 16,
	  CB_F_STREAM | CB_F_BLOCKLEN, AES_KEYS, 0, "essiv-aes-cbc" },
	HMAC("md5", 16),
	HMAC("rmd160", 20),
	HMAC("sha1", 20),
	HMAC("sha256", 32),
	HMAC("sha384", 48),
	HMAC("sha512", 64),
	HASH("md5", 16),
	HASH("rmd160", 20),
	HASH("sha1", 20),
	HASH("sha256", 32),
	HASH("sha384", 48),
	HASH("sha512", 64),
	{ "xts(aes)", CB_CIPHER, 16, 16, 0, 16, 0, {256, 512}, 0, "aes-xts" },
};
const size_t cb_nalgs = sizeof cb_algs / sizeof cb_algs[0];

const struct cb_alias cb_aliases[] = {
	{ "3des", "cbc(des3_ede)", 1 },
	{ "3des-cbc", "cbc(des3_ede)", 1 },
	{ "aes", "xts(aes)", 2 },
	{ "aes-cbc", "cbc(aes)", 1 },
	{ "aes-xts", "xts(aes)", 2 },
	{ "blowfish", "cbc(blowfish)", 1 },
	{ "blowfish-cbc", "cbc(blowfish)", 1 },
	{ "camellia", "cbc(camellia)", 1 },
	{ "camellia-cbc", "cbc(camellia)", 1 },
	{ "essiv(authenc(hmac(sha256),cbc(aes)),aes,sha256)",
	  "essiv(authenc(hmac(sha256),cbc(aes)),sha256)", 1 },
	{ "essiv(cbc(aes),aes,sha256)", "essiv(cbc(aes),sha256)", 1 },
	{ "hmac(ripemd160)", "hmac(rmd160)", 1 },
	{ "hmac/md5", "hmac(md5)", 1 },
	{ "hmac/ripemd160", "hmac(rmd160)", 1 },
	{ "hmac/sha1", "hmac(sha1)", 1 },
	{ "hmac/sha256", "hmac(sha256)", 1 },
	{ "hmac/sha384", "hmac(sha384)", 1 },
	{ "hmac/sha512", "hmac(sha512)", 1 },
	{ "null", "ecb(cipher_null)", 1 },
	{ "ripemd160", "rmd160", 1 },
};
const size_t cb_naliases = sizeof cb_aliases / sizeof cb_aliases[0];

static int cmp_alg(const void *key, const void *elem)
{
	return strcmp(key, ((const struct cb_alg *)elem)->name);
}

static int cmp_alias(const void *key, const void *elem)
{
	return strcmp(key, ((const struct cb_alias *)elem)->alias);
}

const struct cb_alg *cb_alg_find(const char *name, unsigned *key_mult)
{
	const struct cb_alg *a;
	const struct cb_alias *al;

	if (key_mult)
		*key_mult = 1;
	a = bsearch(name, cb_algs, cb_nalgs, sizeof cb_algs[0], cmp_alg);
	if (a)
		return a;
	al = bsearch(name, cb_aliases, cb_naliases, sizeof cb_aliases[0],
	             cmp_alias);
	if (!al)
		return NULL;
	if (key_mult)
		*key_mult = al->key_mult;
	return bsearch(al->canonical, cb_algs, cb_nalgs, sizeof cb_algs[0],
	               cmp_alg);
}

int cb_alg_key_ok(const struct cb_alg *alg, unsigned key_bits)
{
	if (alg->flags & CB_F_NOKEY)
		return key_bits == 0;
	if (alg->flags & CB_F_ANYKEY)
		return key_bits % 8 == 0;
	if (alg->key_step)
		return key_bits % alg->key_step == 0 &&
		       key_bits >= alg->key_bits[1] && key_bits <= alg->key_bits[2];
	for (int i = 0; i < 8 && alg->key_bits[i]; i++)
		if (alg->key_bits[i] == key_bits)
			return 1;
	return 0;
}

const char *cb_kind_name(enum cb_kind kind)
{
	static const char *const names[] = {
		[CB_CIPHER] = "cipher", [CB_HASH] = "hash",
		[CB_MAC] = "mac", [CB_AEAD] = "aead",
	};
	return names[kind];
}
