/*
 * registry.c - the algorithm table and the geli/cryptsetup aliases.
 *
 * Both tables are sorted by name (tests/test_tables checks it) and looked
 * up by binary search.  Canonical names follow the Linux crypto API; key
 * size is a parameter, never part of the name.  Rows use designated
 * initializers: a capability is a field or a flag (cb.h), never a
 * spelling of the name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"

/* Key sizes in bits: valid min..max by step, the standard ones in std. */
#define AES_KEYS  { .min = 128, .max = 256, .step = 64, .std = {128, 192, 256} }
#define XTS_KEYS  { .min = 256, .max = 512, .step = 128, .std = {256, 512} }
#define BF_KEYS   { .min = 32, .max = 448, .step = 32, .std = {128} }
#define DES3_KEYS { .min = 192, .max = 192, .std = {192} }
#define MAC_KEYS  { .std = {256} }
#define K256      { .min = 256, .max = 256, .std = {256} }
/* rfc4106: the AES key and the 4-byte salt (the kernel's keylen) */
#define SALT_KEYS { .min = 160, .max = 288, .step = 64, .std = {160, 224, 288} }
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

#define XTS(n, sp)                                                            \
	{ .name = "xts(" n ")", .kind = CB_CIPHER, .block = 16, .iv_len = 16, \
	  .min_len = 16, .flags = CB_F_XTS, .key = XTS_KEYS, .speed_name = sp }
/* AEADs with a plain key (gcm, rfc4106, rfc7539): a 16-byte tag and, in
 * speed, 16 bytes of associated data (ESP's SPI, sequence number and, for
 * rfc4106, the IV the kernel expects at its end) */
#define AEAD(n, iv, keys, sp, tag_lens, ads)                                   \
	{ .name = n, .kind = CB_AEAD, .block = 1, .iv_len = iv,               \
	  .digest_len = 16, .assoc_len = 16, .key = keys, .speed_name = sp,   \
	  .tags = tag_lens, .ad_lens = ads }
/* gcm: NIST SP 800-38D's tags, 4, 8 and 12..16 bytes (the kernel's
 * crypto_gcm_check_authsize); rfc4106: RFC 4106's ICVs, 8, 12 and 16, and
 * ESP's associated data, SPI || sequence number (8 or 12 with ESN) || the
 * IV (8): 16 or 20 bytes (crypto_ipsec_check_assoclen); rfc7539: 16 */
#define GCM_TAGS     (CB_LEN(4) | CB_LEN(8) | CB_LENS(12, 16))
#define RFC4106_TAGS (CB_LEN(8) | CB_LEN(12) | CB_LEN(16))
#define RFC4106_ADS  (CB_LEN(16) | CB_LEN(20))
/* authenc: the HMAC truncated to any length up to the digest (the
 * kernel's maxauthsize); essiv's puts the IV at the end of the associated
 * data, so that is at least 16 bytes */
#define AUTHENC_TAGS CB_LENS(1, 32)

/* Key derivation: the derived key is 32 bytes (a 256-bit key, as
 * cryptsetup benchmark's), the PRF of pbkdf2 in inner. */
#define PBKDF2(h)                                                             \
	{ .name = "pbkdf2(hmac(" h "))", .kind = CB_KDF, .block = 1,          \
	  .digest_len = 32, .flags = CB_F_NOKEY, .inner = "hmac(" h ")",      \
	  .speed_name = "pbkdf2-" h }
#define ARGON2(n)                                                             \
	{ .name = n, .kind = CB_KDF, .block = 1, .digest_len = 32,            \
	  .flags = CB_F_NOKEY, .speed_name = n, .salt_min = 8, .out_min = 4 }

const struct cb_alg cb_algs[] = {
	ARGON2("argon2i"),
	ARGON2("argon2id"),
	{ .name = "authenc(hmac(sha256),cbc(aes))", .kind = CB_AEAD,
	  .block = 16, .iv_len = 16, .digest_len = 32, .min_len = 16,
	  .flags = CB_F_BLOCKLEN | CB_F_AUTHENC, .key = AES_KEYS,
	  .inner = "hmac(sha256)", .speed_name = "authenc-sha256-aes-cbc",
	  .tags = AUTHENC_TAGS },
	CBC("aes", 16, AES_KEYS, "aes-cbc"),
	CBC("blowfish", 8, BF_KEYS, "blowfish-cbc"),
	CBC("camellia", 16, AES_KEYS, "camellia-cbc"),
	CBC("des3_ede", 8, DES3_KEYS, "3des-cbc"),
	CBC("serpent", 16, AES_KEYS, "serpent-cbc"),
	CBC("twofish", 16, AES_KEYS, "twofish-cbc"),
	/* RFC 7539: the kernel's 16-byte IV, le32 block counter || nonce */
	{ .name = "chacha20", .kind = CB_CIPHER, .block = 1, .iv_len = 16,
	  .min_len = 1, .flags = CB_F_STREAM, .key = K256,
	  .speed_name = "chacha20" },
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
	  .min_len = 16, .flags = CB_F_BLOCKLEN | CB_F_AUTHENC, .key = AES_KEYS,
	  .inner = "hmac(sha256)", .speed_name = "essiv-authenc-sha256-aes-cbc",
	  .tags = AUTHENC_TAGS, .ad_min = 16 },
	{ .name = "essiv(cbc(aes),sha256)", .kind = CB_CIPHER, .block = 16,
	  .iv_len = 16, .min_len = 16, .flags = CB_F_STREAM | CB_F_BLOCKLEN,
	  .key = AES_KEYS, .speed_name = "essiv-aes-cbc" },
	AEAD("gcm(aes)", 12, AES_KEYS, "aes-gcm", GCM_TAGS, 0),
	HMAC("md5", 16),
	HMAC("rmd160", 20),
	HMAC("sha1", 20),
	HMAC("sha224", 28),
	HMAC("sha256", 32),
	HMAC("sha384", 48),
	HMAC("sha512", 64),
	HASH("md5", 16),
	PBKDF2("rmd160"),
	PBKDF2("sha1"),
	PBKDF2("sha256"),
	PBKDF2("sha512"),
	/* rfc4106: nonce = salt (the key's last 4 bytes) || the 8-byte IV;
	 * the associated data ends with a copy of the IV, which is not
	 * authenticated (crypto/gcm.c crypto_rfc4106_crypt) */
	AEAD("rfc4106(gcm(aes))", 8, SALT_KEYS, "rfc4106-aes-gcm", RFC4106_TAGS,
	     RFC4106_ADS),
	AEAD("rfc7539(chacha20,poly1305)", 12, K256, "chacha20-poly1305",
	     CB_LEN(16), 0),
	HASH("rmd160", 20),
	HASH("sha1", 20),
	HASH("sha224", 28),
	HASH("sha256", 32),
	HASH("sha384", 48),
	HASH("sha512", 64),
	XTS("aes", "aes-xts"),
	XTS("serpent", "serpent-xts"),
	XTS("twofish", "twofish-xts"),
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
	{ "pbkdf2(hmac(ripemd160))", "pbkdf2(hmac(rmd160))", 1 },
	{ "pbkdf2-ripemd160", "pbkdf2(hmac(rmd160))", 1 },
	{ "pbkdf2-sha1", "pbkdf2(hmac(sha1))", 1 },
	{ "pbkdf2-sha256", "pbkdf2(hmac(sha256))", 1 },
	{ "pbkdf2-sha512", "pbkdf2(hmac(sha512))", 1 },
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

int cb_alg_tag_ok(const struct cb_alg *alg, size_t taglen)
{
	if (!alg->tags)
		return taglen == alg->digest_len;
	return taglen < 64 && (alg->tags & CB_LEN(taglen));
}

int cb_alg_ad_ok(const struct cb_alg *alg, size_t adlen)
{
	if (!alg->ad_lens)
		return adlen >= alg->ad_min;
	return adlen < 64 && (alg->ad_lens & CB_LEN(adlen));
}

void cb_lens_text(uint64_t mask, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = 0;
	for (unsigned lo = 0; lo < 64 && used < n; lo++) {
		unsigned hi = lo;

		if (!(mask & CB_LEN(lo)))
			continue;
		while (hi + 1 < 64 && (mask & CB_LEN(hi + 1)))
			hi++;
		used += (size_t)snprintf(buf + used, n - used, hi > lo + 1
		                         ? "%s%u..%u" : hi > lo ? "%s%u,%u" : "%s%u",
		                         used ? "," : "", lo, hi);
		lo = hi;
	}
}

const char *cb_kind_name(enum cb_kind kind)
{
	static const char *const names[] = {
		[CB_CIPHER] = "cipher", [CB_HASH] = "hash",
		[CB_MAC] = "mac", [CB_AEAD] = "aead", [CB_KDF] = "kdf",
	};
	return names[kind];
}
