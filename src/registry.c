/*
 * registry.c - the algorithm table and the geli/cryptsetup aliases.
 *
 * Both tables are sorted by name (tests/test_tables checks it) and looked
 * up by binary search.  Canonical names follow the Linux crypto API; key
 * size is a parameter, never part of the name.  Rows use designated
 * initializers: a capability is a field or a flag (cb.h), never a
 * spelling of the name.
 */
#include <stdlib.h>
#include <string.h>

#include "cb.h"

/* Key sizes in bits: valid min..max by step, the standard ones in std. */
#define AES_KEYS  { .min = 128, .max = 256, .step = 64, .std = {128, 192, 256} }
#define XTS_KEYS  { .min = 256, .max = 512, .step = 128, .std = {256, 512} }
#define BF_KEYS   { .min = 32, .max = 448, .step = 32, .std = {128} }
#define DES3_KEYS { .min = 192, .max = 192, .std = {192} }
#define MAC_KEYS  { .std = {256} }
#define HMAC(n, len)                                                          \
	{ .name = "hmac(" n ")", .kind = CB_MAC, .block = 1, .digest_len = len, \
	  .flags = CB_F_ANYKEY, .key = MAC_KEYS, .inner = n,                  \
	  .speed_name = "hmac-" n }
#define HASH(n, len)                                                          \
	{ .name = n, .kind = CB_HASH, .block = 1, .digest_len = len,          \
	  .flags = CB_F_NOKEY, .speed_name = n }
#define CBC(n, blk, keys, sp)                                                 \
	{ .name = "cbc(" n ")", .kind = CB_CIPHER, .block = blk,              \
	  .iv_len = blk, .min_len = blk,                                      \
	  .flags = CB_F_STREAM | CB_F_BLOCKLEN | CB_F_CHAINIV,                \
	  .key = keys, .speed_name = sp }

const struct cb_alg cb_algs[] = {
	{ .name = "authenc(hmac(sha256),cbc(aes))", .kind = CB_AEAD,
	  .block = 16, .iv_len = 16, .digest_len = 32, .min_len = 16,
	  .flags = CB_F_BLOCKLEN, .key = AES_KEYS, .inner = "hmac(sha256)",
	  .speed_name = "authenc-sha256-aes-cbc" },
	CBC("aes", 16, AES_KEYS, "aes-cbc"),
	CBC("blowfish", 8, BF_KEYS, "blowfish-cbc"),
	CBC("camellia", 16, AES_KEYS, "camellia-cbc"),
	CBC("des3_ede", 8, DES3_KEYS, "3des-cbc"),
	{ .name = "ctr(aes)", .kind = CB_CIPHER, .block = 1, .iv_len = 16,
	  .min_len = 1, .flags = CB_F_STREAM | CB_F_CHAINIV, .key = AES_KEYS,
	  .speed_name = "aes-ctr" },
	{ .name = "ecb(aes)", .kind = CB_CIPHER, .block = 16, .min_len = 16,
	  .flags = CB_F_STREAM | CB_F_BLOCKLEN, .key = AES_KEYS,
	  .speed_name = "aes-ecb" },
	{ .name = "ecb(cipher_null)", .kind = CB_CIPHER, .block = 1,
	  .min_len = 1, .flags = CB_F_STREAM | CB_F_NOKEY, .speed_name = "null" },
	{ .name = "essiv(authenc(hmac(sha256),cbc(aes)),sha256)",
	  .kind = CB_AEAD, .block = 16, .iv_len = 16, .digest_len = 32,
	  .min_len = 16, .flags = CB_F_BLOCKLEN, .key = AES_KEYS,
	  .inner = "hmac(sha256)", .speed_name = "essiv-authenc-sha256-aes-cbc" },
	{ .name = "essiv(cbc(aes),sha256)", .kind = CB_CIPHER, .block = 16,
	  .iv_len = 16, .min_len = 16, .flags = CB_F_STREAM | CB_F_BLOCKLEN,
	  .key = AES_KEYS, .speed_name = "essiv-aes-cbc" },
	HMAC("md5", 16),
	HMAC("rmd160", 20),
	HMAC("sha1", 20),
	HMAC("sha224", 28),
	HMAC("sha256", 32),
	HMAC("sha384", 48),
	HMAC("sha512", 64),
	HASH("md5", 16),
	HASH("rmd160", 20),
	HASH("sha1", 20),
	HASH("sha224", 28),
	HASH("sha256", 32),
	HASH("sha384", 48),
	HASH("sha512", 64),
	{ .name = "xts(aes)", .kind = CB_CIPHER, .block = 16, .iv_len = 16,
	  .min_len = 16, .flags = CB_F_XTS, .key = XTS_KEYS,
	  .speed_name = "aes-xts" },
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
	{ "hmac/sha224", "hmac(sha224)", 1 },
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
	const struct cb_keysize *k = &alg->key;

	if (alg->flags & CB_F_NOKEY)
		return key_bits == 0;
	if (alg->flags & CB_F_ANYKEY)
		return key_bits % 8 == 0;
	if (key_bits < k->min || key_bits > k->max)
		return 0;
	return k->step ? (key_bits - k->min) % k->step == 0 : key_bits == k->min;
}

int cb_alg_key_range(const struct cb_alg *alg)
{
	const struct cb_keysize *k = &alg->key;

	if (alg->flags & (CB_F_NOKEY | CB_F_ANYKEY) || !k->step)
		return 0;
	return (k->max - k->min) / k->step + 1 > CB_KEY_STD;
}

const char *cb_kind_name(enum cb_kind kind)
{
	static const char *const names[] = {
		[CB_CIPHER] = "cipher", [CB_HASH] = "hash",
		[CB_MAC] = "mac", [CB_AEAD] = "aead",
	};
	return names[kind];
}
