/*
 * openssl.c - the OpenSSL libcrypto 3 backend, through EVP.
 *
 * Ciphers are one generic implementation parameterised by an EVP name
 * pattern; hashes by an EVP_MD name; HMACs through EVP_MAC "HMAC".  Each
 * keyed context holds one EVP_CIPHER_CTX per direction, keyed once, so a
 * request costs what OpenSSL charges to set an IV and run the update.
 * Blowfish lives in OpenSSL 3's legacy provider: the probe loads it
 * beside the default provider, and when it cannot be had Blowfish reports
 * itself unavailable with that reason.  OpenSSL rejects XTS keys whose
 * halves are equal (IEEE 1619 vector 1 has them): that is -ENOTSUP here.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

#include "plugin_host.h"

/* ---- provider set-up ----------------------------------------------- */

static OSSL_PROVIDER *prov_default, *prov_legacy;
static int legacy_loaded;

static void ossl_unload(void)
{
	if (prov_legacy)
		OSSL_PROVIDER_unload(prov_legacy);
	if (prov_default)
		OSSL_PROVIDER_unload(prov_default);
	prov_legacy = prov_default = NULL;
}

static int ossl_probe(const char **why)
{
	if (!(prov_default = OSSL_PROVIDER_load(NULL, "default"))) {
		*why = "OpenSSL default provider failed to load";
		return -ENOTSUP;
	}
	prov_legacy = OSSL_PROVIDER_load(NULL, "legacy");
	legacy_loaded = prov_legacy != NULL;
	atexit(ossl_unload);
	ERR_clear_error();
	return 0;
}

static const char *ossl_version(void)
{
	return OpenSSL_version(OPENSSL_VERSION_STRING);
}

static const char *ossl_details(void)
{
	/* "CPUINFO: OPENSSL_ia32cap=0x...:0x..." - the capability vector. */
	return OpenSSL_version(OPENSSL_CPU_INFO);
}

/*
 * --cpu: OPENSSL_ia32cap, read once when libcrypto loads (its .init
 * section), so the core re-executes with it set.  "~A:~B" clears bits:
 * A is CPUID.1 EDX (bits 0-31) and ECX (32-63), B is CPUID.7 EBX (0-31)
 * and ECX (32-63).  Both halves are always given: without ":B" OpenSSL
 * would zero the second word.
 */
#if defined(__aarch64__)
/*
 * AArch64: OPENSSL_armcap replaces the capability word OpenSSL would
 * derive from AT_HWCAP (crypto/armcap.c), so it is that word - what the
 * CPU has - with the groups the level forbids taken out: NEON (bit 0),
 * AES (2), SHA-1 (3), SHA-256 (4), PMULL (5), SHA-512 (6), SHA-3 (11);
 * the CPUID bit (7) is kept as the hardware says.
 */
static int ossl_cap(unsigned hw, char *env, size_t n)
{
	static const struct { unsigned long hwcap; unsigned bit, grp; } m[] = {
		{ 1UL << 1, 0, CB_HW_NEON }, { 1UL << 3, 2, CB_HW_AES },
		{ 1UL << 5, 3, CB_HW_SHA2 }, { 1UL << 6, 4, CB_HW_SHA2 },
		{ 1UL << 4, 5, CB_HW_PMULL }, { 1UL << 21, 6, CB_HW_SHA3 },
		{ 1UL << 11, 7, CB_HW_ALL }, { 1UL << 17, 11, CB_HW_SHA3 },
	};
	unsigned long cap = getauxval(AT_HWCAP), v = 0;

	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
		if (cap & m[i].hwcap && hw & m[i].grp)
			v |= 1UL << m[i].bit;
	snprintf(env, n, "OPENSSL_armcap=0x%lx", v);
	return 1;
}
#else
#define IA(b) ((uint64_t)1 << (b))
static int ossl_cap(unsigned hw, char *env, size_t n)
{
	uint64_t a = 0, b = 0;

	if (!(hw & CB_HW_AES))
		a |= IA(57);                               /* AES-NI          */
	if (!(hw & CB_HW_PCLMUL))
		a |= IA(33);                               /* PCLMULQDQ       */
	if (!(hw & CB_HW_AVX))
		a |= IA(60) | IA(44) | IA(61) | IA(43);    /* AVX FMA F16C XOP */
	if (!(hw & CB_HW_AVX2))
		b |= IA(5) | IA(3) | IA(8) | IA(19);       /* AVX2 BMI1/2 ADX */
	if (!(hw & CB_HW_VAES))
		b |= IA(41) | IA(42) | IA(40);             /* VAES VPCLMUL GFNI */
	if (!(hw & CB_HW_AVX512))                      /* F DQ IFMA CD BW VL,
	                                                  VBMI VBMI2 VNNI
	                                                  BITALG VPOPCNTDQ */
		b |= IA(16) | IA(17) | IA(21) | IA(28) | IA(30) | IA(31) |
		     IA(33) | IA(38) | IA(43) | IA(44) | IA(46);
	if (!(hw & CB_HW_SHA))
		b |= IA(29);                               /* SHA extensions  */
	snprintf(env, n, "OPENSSL_ia32cap=~0x%llx:~0x%llx",
	         (unsigned long long)a, (unsigned long long)b);
	return 1;
}
#undef IA
#endif

static void ossl_error(const char *what)
{
	unsigned long e = ERR_get_error();
	char buf[200];

	ERR_error_string_n(e, buf, sizeof buf);
	cb_set_error("openssl: %s: %s", what, e ? buf : "failed");
	ERR_clear_error();
}

/* ---- ciphers --------------------------------------------------------- */

struct ossl_cipher_desc {
	const char *pattern;   /* EVP name; "%u" = AES/Camellia key bits      */
	int xts;               /* key bits in the name are half the key        */
	int varkey;            /* variable key length (Blowfish)               */
	int ctr32;             /* ChaCha20: the counter wraps at 2^32         */
};

struct ossl_cipher {
	EVP_CIPHER *cipher;
	EVP_CIPHER_CTX *enc, *dec;
	int block, ivlen, xts;
	size_t mask;           /* block - 1: every block size here is 2^n    */
	uint8_t tweak[16];     /* XTS: the last tweak, for iv == NULL          */
	int ctr32;
	struct chacha32 c32[2];  /* ChaCha20, by direction (plugin_host.h)      */
};

/* An EVP name from a pattern whose "%u" stands for the key bits. */
static void ossl_name(char *name, size_t n, const char *pattern, unsigned bits)
{
	const char *pct = strstr(pattern, "%u");

	if (pct)
		snprintf(name, n, "%.*s%u%s", (int)(pct - pattern), pattern, bits,
		         pct + 2);
	else
		snprintf(name, n, "%s", pattern);
}

static int ossl_cipher_setkey(void *vctx, const struct cb_impl *impl,
                              const uint8_t *key, size_t keylen)
{
	const struct ossl_cipher_desc *d = impl->priv;
	struct ossl_cipher *c = vctx;
	char name[64];
	unsigned bits = (unsigned)keylen * 8 / (d->xts ? 2 : 1);

	ossl_name(name, sizeof name, d->pattern, bits);
	c->cipher = EVP_CIPHER_fetch(NULL, name, NULL);
	if (!c->cipher) {
		ERR_clear_error();
		cb_set_error("openssl: no cipher %s for a %zu-bit key", name,
		             keylen * 8);
		return -ENOTSUP;
	}
	if (!d->varkey && (size_t)EVP_CIPHER_get_key_length(c->cipher) != keylen)
		return -EINVAL;
	c->block = EVP_CIPHER_get_block_size(c->cipher);
	if (c->block < 1 || (c->block & (c->block - 1)))
		return -ENOTSUP;
	c->mask = (size_t)c->block - 1;
	c->ivlen = EVP_CIPHER_get_iv_length(c->cipher);
	c->xts = d->xts;
	c->ctr32 = d->ctr32;
	c->enc = EVP_CIPHER_CTX_new();
	c->dec = EVP_CIPHER_CTX_new();
	if (!c->enc || !c->dec)
		return -ENOMEM;
	for (int dir = 0; dir < 2; dir++) {
		EVP_CIPHER_CTX *x = dir ? c->dec : c->enc;
		int enc = !dir;

		if (!EVP_CipherInit_ex2(x, c->cipher, NULL, NULL, enc, NULL) ||
		    (d->varkey &&
		     !EVP_CIPHER_CTX_set_key_length(x, (int)keylen)) ||
		    !EVP_CipherInit_ex2(x, NULL, key, NULL, enc, NULL) ||
		    !EVP_CIPHER_CTX_set_padding(x, 0)) {
			ossl_error("setting the key");
			return d->xts ? -ENOTSUP : -EINVAL;
		}
	}
	return 0;
}

static void ossl_cipher_free(void *vctx)
{
	struct ossl_cipher *c = vctx;

	EVP_CIPHER_CTX_free(c->enc);
	EVP_CIPHER_CTX_free(c->dec);
	EVP_CIPHER_free(c->cipher);
}

static int ossl_run(EVP_CIPHER_CTX *x, int enc, const uint8_t *iv,
                    int ivlen, const uint8_t *in, uint8_t *out, size_t len)
{
	int outl = 0;

	if (iv && ivlen && !EVP_CipherInit_ex2(x, NULL, NULL, iv, enc, NULL))
		return -1;
	if (!EVP_CipherUpdate(x, out, &outl, in, (int)len) ||
	    (size_t)outl != len)
		return -1;
	return 0;
}

/* ChaCha20: EVP's counter carries into the nonce; the kernel's wraps */
static int ossl_chacha(struct ossl_cipher *c, EVP_CIPHER_CTX *x, int enc,
                       const uint8_t *iv, const uint8_t *in, uint8_t *out,
                       size_t len)
{
	struct chacha32 *s = &c->c32[enc];
	size_t n = chacha32_start(s, iv, len);

	if (ossl_run(x, enc, iv, c->ivlen, in, out, n) < 0 ||
	    (n < len && ossl_run(x, enc, chacha32_wrap(s), c->ivlen, in + n,
	                         out + n, len - n) < 0)) {
		ossl_error(enc ? "encrypt" : "decrypt");
		return -EINVAL;
	}
	chacha32_done(s, len);
	return 0;
}

static int ossl_crypt(struct ossl_cipher *c, EVP_CIPHER_CTX *x, int enc,
                      const uint8_t *iv, const uint8_t *in, uint8_t *out,
                      size_t len)
{
	if (len > INT_MAX || (len & c->mask))
		return -EINVAL;
	if (c->ctr32)
		return ossl_chacha(c, x, enc, iv, in, out, len);
	if (c->xts) {
		if (len < 16)
			return -EINVAL;
		if (iv)
			memcpy(c->tweak, iv, 16);
		iv = c->tweak;
	}
	if (ossl_run(x, enc, iv, c->ivlen, in, out, len) < 0) {
		ossl_error(enc ? "encrypt" : "decrypt");
		return -EINVAL;
	}
	return 0;
}

static int ossl_encrypt(void *vctx, const uint8_t *iv, const uint8_t *in,
                        uint8_t *out, size_t len)
{
	struct ossl_cipher *c = vctx;

	return ossl_crypt(c, c->enc, 1, iv, in, out, len);
}

static int ossl_decrypt(void *vctx, const uint8_t *iv, const uint8_t *in,
                        uint8_t *out, size_t len)
{
	struct ossl_cipher *c = vctx;

	return ossl_crypt(c, c->dec, 0, iv, in, out, len);
}

static int ossl_legacy_probe(const struct cb_impl *impl, const char **why)
{
	if (!legacy_loaded) {
		*why = "needs OpenSSL's legacy provider, which did not load";
		return -ENOTSUP;
	}
	return 0;
}

#define CIPHER(a, drv, drvname, pat, x, v, pr, kb, c32)                            \
	static const struct ossl_cipher_desc desc_##drv = {               \
		pat, x, v, c32 };                                         \
	static const struct cb_impl impl_##drv = {                        \
		.alg = a, .driver = drvname "-openssl", .priority = 100,     \
		.ctx_size = sizeof(struct ossl_cipher), .priv = &desc_##drv, \
		.probe = pr, .setkey = ossl_cipher_setkey,                \
		.free = ossl_cipher_free, .encrypt = ossl_encrypt,        \
		.decrypt = ossl_decrypt, .key_bits = kb,                  \
	};

/* OpenSSL has AES-128-XTS and AES-256-XTS only (no 2 x 192 bits). */
static const unsigned ossl_xts_keys[] = { 256, 512, 0 };

CIPHER("cbc(aes)", cbc_aes, "cbc-aes", "AES-%u-CBC", 0, 0, NULL, NULL, 0)
CIPHER("cbc(blowfish)", cbc_blowfish, "cbc-blowfish", "BF-CBC", 0, 1, ossl_legacy_probe, NULL, 0)
CIPHER("cbc(camellia)", cbc_camellia, "cbc-camellia", "CAMELLIA-%u-CBC", 0, 0, NULL, NULL, 0)
CIPHER("cbc(des3_ede)", cbc_des3_ede, "cbc-des3_ede", "DES-EDE3-CBC", 0, 0, NULL, NULL, 0)
CIPHER("ctr(aes)", ctr_aes, "ctr-aes", "AES-%u-CTR", 0, 0, NULL, NULL, 0)
CIPHER("ecb(aes)", ecb_aes, "ecb-aes", "AES-%u-ECB", 0, 0, NULL, NULL, 0)
CIPHER("ecb(cipher_null)", ecb_cipher_null, "ecb-cipher_null", "NULL", 0, 0, NULL, NULL, 0)
CIPHER("xts(aes)", xts_aes, "xts-aes", "AES-%u-XTS", 1, 0, NULL, ossl_xts_keys, 0)
/* EVP's ChaCha20 IV is the kernel's: le32 counter || 96-bit nonce */
CIPHER("chacha20", chacha20, "chacha20", "ChaCha20", 0, 0, NULL, NULL, 1)

/* ---- AEAD: gcm(aes), rfc7539(chacha20,poly1305) ---------------------- */

struct ossl_aead {
	EVP_CIPHER *cipher;
	EVP_CIPHER_CTX *enc, *dec;
};

static int ossl_aead_setkey(void *vctx, const struct cb_impl *impl,
                            const uint8_t *key, size_t keylen)
{
	struct ossl_aead *c = vctx;
	char name[64];

	ossl_name(name, sizeof name, impl->priv, (unsigned)keylen * 8);
	if (!(c->cipher = EVP_CIPHER_fetch(NULL, name, NULL))) {
		ERR_clear_error();
		cb_set_error("openssl: no cipher %s", name);
		return -ENOTSUP;
	}
	if ((size_t)EVP_CIPHER_get_key_length(c->cipher) != keylen)
		return -EINVAL;
	c->enc = EVP_CIPHER_CTX_new();
	c->dec = EVP_CIPHER_CTX_new();
	if (!c->enc || !c->dec)
		return -ENOMEM;
	if (!EVP_CipherInit_ex2(c->enc, c->cipher, key, NULL, 1, NULL) ||
	    !EVP_CipherInit_ex2(c->dec, c->cipher, key, NULL, 0, NULL)) {
		ossl_error("setting the key");
		return -EINVAL;
	}
	return 0;
}

static void ossl_aead_free(void *vctx)
{
	struct ossl_aead *c = vctx;

	EVP_CIPHER_CTX_free(c->enc);
	EVP_CIPHER_CTX_free(c->dec);
	EVP_CIPHER_free(c->cipher);
}

/* One request: IV, associated data, text; the tag set (decrypt) before
 * the final call, which then verifies it. */
static int ossl_aead_run(EVP_CIPHER_CTX *x, int enc, const uint8_t *iv,
                         const uint8_t *ad, size_t adlen, const uint8_t *in,
                         uint8_t *out, size_t len, uint8_t *tag, size_t taglen)
{
	int outl = 0;

	if (len > INT_MAX || adlen > INT_MAX || !taglen || taglen > 16)
		return -EINVAL;
	if (!EVP_CipherInit_ex2(x, NULL, NULL, iv, enc, NULL) ||
	    (!enc && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)taglen,
	                                 tag) <= 0) ||
	    (adlen && !EVP_CipherUpdate(x, NULL, &outl, ad, (int)adlen)) ||
	    (len && !EVP_CipherUpdate(x, out, &outl, in, (int)len))) {
		ossl_error(enc ? "encrypt" : "decrypt");
		return -EINVAL;
	}
	if (EVP_CipherFinal_ex(x, out + len, &outl) <= 0) {
		ERR_clear_error();
		return enc ? -EINVAL : -EBADMSG;
	}
	if (enc && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, (int)taglen,
	                               tag) <= 0) {
		ossl_error("the tag");
		return -EINVAL;
	}
	return 0;
}

static int ossl_aead_encrypt(void *vctx, const uint8_t *iv, const uint8_t *ad,
                             size_t adlen, const uint8_t *in, uint8_t *out,
                             size_t len, uint8_t *tag, size_t taglen)
{
	return ossl_aead_run(((struct ossl_aead *)vctx)->enc, 1, iv, ad, adlen,
	                     in, out, len, tag, taglen);
}

static int ossl_aead_decrypt(void *vctx, const uint8_t *iv, const uint8_t *ad,
                             size_t adlen, const uint8_t *in, uint8_t *out,
                             size_t len, const uint8_t *tag, size_t taglen)
{
	return ossl_aead_run(((struct ossl_aead *)vctx)->dec, 0, iv, ad, adlen,
	                     in, out, len, (uint8_t *)tag, taglen);
}

#define AEAD(a, drv, drvname, pat)                                                 \
	static const struct cb_impl impl_##drv = {                        \
		.alg = a, .driver = drvname "-openssl", .priority = 100,     \
		.ctx_size = sizeof(struct ossl_aead), .priv = pat,        \
		.setkey = ossl_aead_setkey, .free = ossl_aead_free,       \
		.aead_encrypt = ossl_aead_encrypt,                        \
		.aead_decrypt = ossl_aead_decrypt,                        \
	};

AEAD("gcm(aes)", gcm_aes, "gcm-aes", "AES-%u-GCM")
AEAD("rfc7539(chacha20,poly1305)", rfc7539, "rfc7539-chacha20-poly1305",
     "ChaCha20-Poly1305")

/* ---- hashes and HMAC ------------------------------------------------- */

struct ossl_md {
	EVP_MD *md;
	EVP_MD_CTX *ctx;
	EVP_MAC *mac;
	EVP_MAC_CTX *mctx;
	size_t len;
};

static int ossl_md_setkey(void *vctx, const struct cb_impl *impl,
                          const uint8_t *key, size_t keylen)
{
	struct ossl_md *m = vctx;
	const char *name = impl->priv;
	const struct cb_alg *alg = cb_alg_find(impl->alg, NULL);
	static const uint8_t empty[1];

	if (m->mctx)                      /* a new key (cb_inst_rekey) */
		return EVP_MAC_init(m->mctx, keylen ? key : empty, keylen, NULL)
		       ? 0 : -EINVAL;
	m->md = EVP_MD_fetch(NULL, name, NULL);
	if (!m->md) {
		ERR_clear_error();
		cb_set_error("openssl: no digest %s", name);
		return -ENOTSUP;
	}
	m->len = (size_t)EVP_MD_get_size(m->md);
	if (!alg || !alg->inner) {                        /* a hash, not hmac(X) */
		m->ctx = EVP_MD_CTX_new();
		return m->ctx ? 0 : -ENOMEM;
	}
	{
		OSSL_PARAM params[] = {
			OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
			                                 (char *)name, 0),
			OSSL_PARAM_construct_end(),
		};

		m->mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
		m->mctx = m->mac ? EVP_MAC_CTX_new(m->mac) : NULL;
		if (!m->mctx || !EVP_MAC_init(m->mctx, keylen ? key : empty,
		                              keylen, params)) {
			ossl_error("HMAC key");
			return -EINVAL;
		}
	}
	return 0;
}

static void ossl_md_free(void *vctx)
{
	struct ossl_md *m = vctx;

	EVP_MD_CTX_free(m->ctx);
	EVP_MAC_CTX_free(m->mctx);
	EVP_MAC_free(m->mac);
	EVP_MD_free(m->md);
}

static int ossl_md_init(void *vctx)
{
	struct ossl_md *m = vctx;
	int ok = m->mctx ? EVP_MAC_init(m->mctx, NULL, 0, NULL)
	                 : EVP_DigestInit_ex2(m->ctx, m->md, NULL);

	return ok ? 0 : -EINVAL;
}

static int ossl_md_update(void *vctx, const uint8_t *in, size_t len)
{
	struct ossl_md *m = vctx;
	int ok = m->mctx ? EVP_MAC_update(m->mctx, in, len)
	                 : EVP_DigestUpdate(m->ctx, in, len);

	return ok ? 0 : -EINVAL;
}

static int ossl_md_final(void *vctx, uint8_t *out)
{
	struct ossl_md *m = vctx;
	size_t outl = 0;
	unsigned int mdl = 0;
	int ok;

	if (m->mctx) {
		ok = EVP_MAC_final(m->mctx, out, &outl, m->len);
	} else {
		ok = EVP_DigestFinal_ex(m->ctx, out, &mdl);
		outl = mdl;
	}
	return ok && outl == m->len ? 0 : -EINVAL;
}

static int ossl_md_probe(const struct cb_impl *impl, const char **why)
{
	EVP_MD *md = EVP_MD_fetch(NULL, impl->priv, NULL);

	if (!md) {
		ERR_clear_error();
		*why = "digest not available in the loaded OpenSSL providers";
		return -ENOTSUP;
	}
	EVP_MD_free(md);
	return 0;
}

#define MD(a, drv, drvname, name)                                                  \
	static const struct cb_impl impl_##drv = {                        \
		.alg = a, .driver = drvname "-openssl", .priority = 100,     \
		.ctx_size = sizeof(struct ossl_md), .priv = name,         \
		.probe = ossl_md_probe, .setkey = ossl_md_setkey,         \
		.free = ossl_md_free, .init = ossl_md_init,               \
		.update = ossl_md_update, .final = ossl_md_final,         \
	};

MD("hmac(md5)", hmac_md5, "hmac-md5", "MD5")
MD("hmac(rmd160)", hmac_rmd160, "hmac-rmd160", "RIPEMD160")
MD("hmac(sha1)", hmac_sha1, "hmac-sha1", "SHA1")
MD("hmac(sha224)", hmac_sha224, "hmac-sha224", "SHA224")
MD("hmac(sha256)", hmac_sha256, "hmac-sha256", "SHA256")
MD("hmac(sha384)", hmac_sha384, "hmac-sha384", "SHA384")
MD("hmac(sha512)", hmac_sha512, "hmac-sha512", "SHA512")
MD("md5", md5, "md5", "MD5")
MD("rmd160", rmd160, "rmd160", "RIPEMD160")
MD("sha1", sha1, "sha1", "SHA1")
MD("sha224", sha224, "sha224", "SHA224")
MD("sha256", sha256, "sha256", "SHA256")
MD("sha384", sha384, "sha384", "SHA384")
MD("sha512", sha512, "sha512", "SHA512")

/* ---- key derivation: PBKDF2 (OpenSSL 3.0 has no Argon2) --------------- */

/* The context: the digest, fetched once. */
static int ossl_pbkdf2_setkey(void *vctx, const struct cb_impl *impl,
                              const uint8_t *key, size_t keylen)
{
	EVP_MD **md = vctx;

	(void)key, (void)keylen;
	if (!(*md = EVP_MD_fetch(NULL, impl->priv, NULL))) {
		ERR_clear_error();
		cb_set_error("openssl: no digest %s", (const char *)impl->priv);
		return -ENOTSUP;
	}
	return 0;
}

static void ossl_pbkdf2_free(void *vctx)
{
	EVP_MD_free(*(EVP_MD **)vctx);
}

static int ossl_pbkdf2(void *ctx, const struct cb_impl *impl,
                       const uint8_t *pass, size_t passlen, const uint8_t *salt,
                       size_t saltlen, const struct cb_kdf_params *p,
                       uint8_t *out, size_t outlen)
{
	EVP_MD *md = *(EVP_MD **)ctx;
	int ok;

	(void)impl;
	if (!md || passlen > INT_MAX || saltlen > INT_MAX || outlen > INT_MAX ||
	    !p->iterations || p->iterations > INT_MAX)
		return -EINVAL;
	ok = PKCS5_PBKDF2_HMAC((const char *)pass, (int)passlen, salt,
	                       (int)saltlen, (int)p->iterations, md, (int)outlen,
	                       out);
	if (!ok) {
		ossl_error("PBKDF2");
		return -EINVAL;
	}
	return 0;
}

#define PBKDF2(h, name)                                                            \
	static const struct cb_impl impl_pbkdf2_##h = {                   \
		.alg = "pbkdf2(hmac(" #h "))",                             \
		.driver = "pbkdf2-" #h "-openssl", .priority = 100,       \
		.ctx_size = sizeof(EVP_MD *), .priv = name,               \
		.probe = ossl_md_probe, .setkey = ossl_pbkdf2_setkey,     \
		.free = ossl_pbkdf2_free, .derive = ossl_pbkdf2,          \
	};

PBKDF2(rmd160, "RIPEMD160")
PBKDF2(sha1, "SHA1")
PBKDF2(sha256, "SHA256")
PBKDF2(sha512, "SHA512")

static const struct cb_impl *const ossl_impls[] = {
	&impl_pbkdf2_rmd160, &impl_pbkdf2_sha1, &impl_pbkdf2_sha256,
	&impl_pbkdf2_sha512,
	&impl_cbc_aes, &impl_cbc_blowfish, &impl_cbc_camellia,
	&impl_cbc_des3_ede, &impl_ctr_aes, &impl_ecb_aes,
	&impl_ecb_cipher_null, &impl_chacha20, &impl_gcm_aes, &impl_rfc7539,
	&impl_hmac_md5, &impl_hmac_rmd160, &impl_hmac_sha1,
	&impl_hmac_sha224, &impl_hmac_sha256, &impl_hmac_sha384,
	&impl_hmac_sha512, &impl_md5, &impl_rmd160, &impl_sha1,
	&impl_sha224, &impl_sha256, &impl_sha384,
	&impl_sha512, &impl_xts_aes,
	NULL,
};

/* The plug-in's descriptor (include/cryptobench/plugin.h). */
static const struct cb_plugin cb_backend_openssl = {
	CB_PLUGIN_HEADER,
	.name = "openssl",
	.description = "OpenSSL libcrypto through EVP",
	.probe = ossl_probe,
	.version = ossl_version,
	.details = ossl_details,
	.impls = ossl_impls,
	.cap = ossl_cap,
};
CB_PLUGIN_ENTRY(cb_backend_openssl)
