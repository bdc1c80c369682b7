/*
 * mbedtls.c - Mbed TLS (2.28, Debian's libmbedtls-dev) as a cryptobench
 * plug-in built outside the core: it includes only cryptobench/plugin.h
 * and Mbed TLS's headers (docs/plugins.md).  Block-cipher modes through
 * Mbed TLS's own CBC/ECB/CTR/XTS functions (the running IV or counter is
 * kept, so iv == NULL continues a chain); hashes and HMACs through the
 * generic mbedtls_md layer.
 */
#include <stdlib.h>

#include <cryptobench/plugin.h>

#include <mbedtls/aes.h>
#include <mbedtls/blowfish.h>
#include <mbedtls/camellia.h>
#include <mbedtls/des.h>
#include <mbedtls/md.h>
#include <mbedtls/version.h>

static const struct cb_host *host;

/* ---- CBC over each block cipher: one context per direction ---------- */

#define CBC(name, type, ivlen, setenc, setdec, crypt, freef)             \
struct name##_ctx { type enc, dec; uint8_t iv[ivlen]; int keyed; };        \
static int32_t name##_setkey(void *c, const struct cb_impl *i,             \
                             const uint8_t *k, size_t n)                   \
{                                                                          \
	struct name##_ctx *x = c;                                          \
	(void)i;                                                           \
	if (setenc || setdec) {                                            \
		host->set_error("mbedtls: %s: a %zu-bit key refused",      \
		                #name, n * 8);                             \
		return -ENOTSUP;                                           \
	}                                                                  \
	x->keyed = 1;                                                      \
	return 0;                                                          \
}                                                                          \
static int32_t name##_run(void *c, int mode, const uint8_t *iv,            \
                          const uint8_t *in, uint8_t *out, size_t len)     \
{                                                                          \
	struct name##_ctx *x = c;                                          \
	if (len % ivlen)                                                   \
		return -EINVAL;                                            \
	if (iv)                                                            \
		memcpy(x->iv, iv, ivlen);                                  \
	return crypt(mode ? &x->enc : &x->dec, mode, len, x->iv, in, out)  \
	       ? -EINVAL : 0;                                              \
}                                                                          \
static int32_t name##_enc(void *c, const uint8_t *iv, const uint8_t *in,  \
                          uint8_t *out, size_t len)                        \
{ return name##_run(c, 1, iv, in, out, len); }                             \
static int32_t name##_dec(void *c, const uint8_t *iv, const uint8_t *in,  \
                          uint8_t *out, size_t len)                        \
{ return name##_run(c, 0, iv, in, out, len); }                             \
static void name##_free(void *c)                                           \
{                                                                          \
	struct name##_ctx *x = c;                                          \
	if (x->keyed) {                                                    \
		freef(&x->enc);                                            \
		freef(&x->dec);                                            \
	}                                                                  \
	host->wipe(x, sizeof *x);                                          \
}

CBC(aes, mbedtls_aes_context, 16,
    (mbedtls_aes_init(&x->enc), mbedtls_aes_init(&x->dec),
     mbedtls_aes_setkey_enc(&x->enc, k, (unsigned)n * 8)),
    mbedtls_aes_setkey_dec(&x->dec, k, (unsigned)n * 8),
    mbedtls_aes_crypt_cbc, mbedtls_aes_free)
CBC(camellia, mbedtls_camellia_context, 16,
    (mbedtls_camellia_init(&x->enc), mbedtls_camellia_init(&x->dec),
     mbedtls_camellia_setkey_enc(&x->enc, k, (unsigned)n * 8)),
    mbedtls_camellia_setkey_dec(&x->dec, k, (unsigned)n * 8),
    mbedtls_camellia_crypt_cbc, mbedtls_camellia_free)
CBC(des3, mbedtls_des3_context, 8,
    (mbedtls_des3_init(&x->enc), mbedtls_des3_init(&x->dec),
     mbedtls_des3_set3key_enc(&x->enc, k)),
    mbedtls_des3_set3key_dec(&x->dec, k),
    mbedtls_des3_crypt_cbc, mbedtls_des3_free)
CBC(blowfish, mbedtls_blowfish_context, 8,
    (mbedtls_blowfish_init(&x->enc), mbedtls_blowfish_init(&x->dec),
     mbedtls_blowfish_setkey(&x->enc, k, (unsigned)n * 8)),
    mbedtls_blowfish_setkey(&x->dec, k, (unsigned)n * 8),
    mbedtls_blowfish_crypt_cbc, mbedtls_blowfish_free)

/* ---- AES ECB, CTR (the counter and unused keystream kept), XTS ------ */

struct aesx_ctx {
	mbedtls_aes_context enc, dec;
	mbedtls_aes_xts_context xenc, xdec;
	uint8_t ctr[16], stream[16], tweak[16];
	size_t off;
	int xts;
};

static int32_t aesx_setkey(void *c, const struct cb_impl *i,
                           const uint8_t *k, size_t n)
{
	struct aesx_ctx *x = c;

	x->xts = !strcmp(i->alg, "xts(aes)");
	mbedtls_aes_init(&x->enc);
	mbedtls_aes_init(&x->dec);
	mbedtls_aes_xts_init(&x->xenc);
	mbedtls_aes_xts_init(&x->xdec);
	if (x->xts ? mbedtls_aes_xts_setkey_enc(&x->xenc, k, (unsigned)n * 8) ||
	             mbedtls_aes_xts_setkey_dec(&x->xdec, k, (unsigned)n * 8)
	           : mbedtls_aes_setkey_enc(&x->enc, k, (unsigned)n * 8) ||
	             mbedtls_aes_setkey_dec(&x->dec, k, (unsigned)n * 8)) {
		host->set_error("mbedtls: %s: a %zu-bit key refused", i->driver,
		                n * 8);
		return -ENOTSUP;
	}
	return 0;
}

static void aesx_free(void *c)
{
	struct aesx_ctx *x = c;

	mbedtls_aes_free(&x->enc);
	mbedtls_aes_free(&x->dec);
	mbedtls_aes_xts_free(&x->xenc);
	mbedtls_aes_xts_free(&x->xdec);
	host->wipe(x, sizeof *x);
}

static int32_t ecb_run(struct aesx_ctx *x, int enc, const uint8_t *in,
                       uint8_t *out, size_t len)
{
	if (len % 16)
		return -EINVAL;
	for (size_t i = 0; i < len; i += 16)
		mbedtls_aes_crypt_ecb(enc ? &x->enc : &x->dec,
		                      enc ? MBEDTLS_AES_ENCRYPT
		                          : MBEDTLS_AES_DECRYPT, in + i, out + i);
	return 0;
}

static int32_t ecb_enc(void *c, const uint8_t *iv, const uint8_t *in,
                       uint8_t *out, size_t len)
{
	(void)iv;
	return ecb_run(c, 1, in, out, len);
}

static int32_t ecb_dec(void *c, const uint8_t *iv, const uint8_t *in,
                       uint8_t *out, size_t len)
{
	(void)iv;
	return ecb_run(c, 0, in, out, len);
}

static int32_t ctr_crypt(void *c, const uint8_t *iv, const uint8_t *in,
                         uint8_t *out, size_t len)
{
	struct aesx_ctx *x = c;

	if (iv) {
		memcpy(x->ctr, iv, 16);
		x->off = 0;
	}
	return mbedtls_aes_crypt_ctr(&x->enc, len, &x->off, x->ctr, x->stream,
	                             in, out) ? -EINVAL : 0;
}

static int32_t xts_run(struct aesx_ctx *x, int enc, const uint8_t *iv,
                       const uint8_t *in, uint8_t *out, size_t len)
{
	uint8_t *copy = NULL;
	int rc;

	if (len < 16)
		return -EINVAL;
	if (iv)
		memcpy(x->tweak, iv, 16);
	/* Mbed TLS's ciphertext stealing in place reads a block it has
	 * already overwritten: a partial last block runs from a copy. */
	if (in == out && len % 16) {
		if (!(copy = malloc(len)))
			return -ENOMEM;
		in = memcpy(copy, in, len);
	}
	rc = mbedtls_aes_crypt_xts(enc ? &x->xenc : &x->xdec,
	                           enc ? MBEDTLS_AES_ENCRYPT
	                               : MBEDTLS_AES_DECRYPT,
	                           len, x->tweak, in, out) ? -EINVAL : 0;
	free(copy);
	return rc;
}

static int32_t xts_enc(void *c, const uint8_t *iv, const uint8_t *in,
                       uint8_t *out, size_t len)
{
	return xts_run(c, 1, iv, in, out, len);
}

static int32_t xts_dec(void *c, const uint8_t *iv, const uint8_t *in,
                       uint8_t *out, size_t len)
{
	return xts_run(c, 0, iv, in, out, len);
}

/* ---- hashes and HMACs: mbedtls_md, priv = the mbedtls_md_type_t ---- */

struct md_ctx {
	mbedtls_md_context_t md;
	int hmac, set;
};

static int32_t md_prepare(struct md_ctx *x, const struct cb_impl *i, int hmac)
{
	const mbedtls_md_info_t *info =
		mbedtls_md_info_from_type((mbedtls_md_type_t)(intptr_t)i->priv);

	if (x->set)
		return 0;
	mbedtls_md_init(&x->md);
	x->set = 1;
	x->hmac = hmac;
	if (!info || mbedtls_md_setup(&x->md, info, hmac)) {
		host->set_error("mbedtls: %s: no such digest", i->driver);
		return -ENOTSUP;
	}
	return 0;
}

static int32_t hash_setkey(void *c, const struct cb_impl *i,
                           const uint8_t *k, size_t n)
{
	(void)k;
	(void)n;
	return md_prepare(c, i, 0);
}

static int32_t hmac_setkey(void *c, const struct cb_impl *i,
                           const uint8_t *k, size_t n)
{
	struct md_ctx *x = c;
	int32_t rc = md_prepare(x, i, 1);

	return rc ? rc : mbedtls_md_hmac_starts(&x->md, k, n) ? -EINVAL : 0;
}

static int32_t md_init(void *c)
{
	struct md_ctx *x = c;

	return (x->hmac ? mbedtls_md_hmac_reset(&x->md)
	                : mbedtls_md_starts(&x->md)) ? -EINVAL : 0;
}

static int32_t md_update(void *c, const uint8_t *in, size_t len)
{
	struct md_ctx *x = c;

	return (x->hmac ? mbedtls_md_hmac_update(&x->md, in, len)
	                : mbedtls_md_update(&x->md, in, len)) ? -EINVAL : 0;
}

static int32_t md_final(void *c, uint8_t *out)
{
	struct md_ctx *x = c;

	return (x->hmac ? mbedtls_md_hmac_finish(&x->md, out)
	                : mbedtls_md_finish(&x->md, out)) ? -EINVAL : 0;
}

static void md_free(void *c)
{
	struct md_ctx *x = c;

	if (x->set)
		mbedtls_md_free(&x->md);
	host->wipe(x, sizeof *x);
}

/* ---- the table ------------------------------------------------------- */

#define CBC_IMPL(var, algname, drv, name)                                  \
static const struct cb_impl var = {                                       \
	.alg = algname, .driver = drv, .priority = 100,                    \
	.ctx_size = sizeof(struct name##_ctx), .setkey = name##_setkey,    \
	.free = name##_free, .encrypt = name##_enc, .decrypt = name##_dec };
CBC_IMPL(cbc_aes, "cbc(aes)", "cbc-aes-mbedtls", aes)
CBC_IMPL(cbc_camellia, "cbc(camellia)", "cbc-camellia-mbedtls", camellia)
CBC_IMPL(cbc_des3, "cbc(des3_ede)", "cbc-des3_ede-mbedtls", des3)
CBC_IMPL(cbc_blowfish, "cbc(blowfish)", "cbc-blowfish-mbedtls", blowfish)

#define AESX_IMPL(var, algname, drv, enc, dec, ...)                        \
static const struct cb_impl var = {                                       \
	.alg = algname, .driver = drv, .priority = 100,                    \
	.ctx_size = sizeof(struct aesx_ctx), .setkey = aesx_setkey,        \
	.free = aesx_free, .encrypt = enc, .decrypt = dec, __VA_ARGS__ };
AESX_IMPL(ecb_aes, "ecb(aes)", "ecb-aes-mbedtls", ecb_enc, ecb_dec)
AESX_IMPL(ctr_aes, "ctr(aes)", "ctr-aes-mbedtls", ctr_crypt, ctr_crypt)
/* Mbed TLS's XTS takes two 128- or 256-bit halves, not 192 */
static const uint32_t xts_keys[] = { 256, 512, 0 };
AESX_IMPL(xts_aes, "xts(aes)", "xts-aes-mbedtls", xts_enc, xts_dec,
          .key_bits = xts_keys)

#define MD_IMPL(var, algname, drv, type, setk)                             \
static const struct cb_impl var = {                                       \
	.alg = algname, .driver = drv, .priority = 100,                    \
	.ctx_size = sizeof(struct md_ctx), .priv = (const void *)(type),   \
	.setkey = setk, .free = md_free, .init = md_init,                  \
	.update = md_update, .final = md_final };
MD_IMPL(md5, "md5", "md5-mbedtls", MBEDTLS_MD_MD5, hash_setkey)
MD_IMPL(sha1, "sha1", "sha1-mbedtls", MBEDTLS_MD_SHA1, hash_setkey)
MD_IMPL(sha224, "sha224", "sha224-mbedtls", MBEDTLS_MD_SHA224, hash_setkey)
MD_IMPL(sha256, "sha256", "sha256-mbedtls", MBEDTLS_MD_SHA256, hash_setkey)
MD_IMPL(sha384, "sha384", "sha384-mbedtls", MBEDTLS_MD_SHA384, hash_setkey)
MD_IMPL(sha512, "sha512", "sha512-mbedtls", MBEDTLS_MD_SHA512, hash_setkey)
MD_IMPL(rmd160, "rmd160", "rmd160-mbedtls", MBEDTLS_MD_RIPEMD160, hash_setkey)
MD_IMPL(hmd5, "hmac(md5)", "hmac-md5-mbedtls", MBEDTLS_MD_MD5, hmac_setkey)
MD_IMPL(hsha1, "hmac(sha1)", "hmac-sha1-mbedtls", MBEDTLS_MD_SHA1, hmac_setkey)
MD_IMPL(hsha224, "hmac(sha224)", "hmac-sha224-mbedtls", MBEDTLS_MD_SHA224,
        hmac_setkey)
MD_IMPL(hsha256, "hmac(sha256)", "hmac-sha256-mbedtls", MBEDTLS_MD_SHA256,
        hmac_setkey)
MD_IMPL(hsha384, "hmac(sha384)", "hmac-sha384-mbedtls", MBEDTLS_MD_SHA384,
        hmac_setkey)
MD_IMPL(hsha512, "hmac(sha512)", "hmac-sha512-mbedtls", MBEDTLS_MD_SHA512,
        hmac_setkey)
MD_IMPL(hrmd160, "hmac(rmd160)", "hmac-rmd160-mbedtls", MBEDTLS_MD_RIPEMD160,
        hmac_setkey)

static const struct cb_impl *const impls[] = {
	&cbc_aes, &cbc_camellia, &cbc_des3, &cbc_blowfish, &ecb_aes, &ctr_aes,
	&xts_aes, &md5, &sha1, &sha224, &sha256, &sha384, &sha512, &rmd160,
	&hmd5, &hsha1, &hsha224, &hsha256, &hsha384, &hsha512, &hrmd160, NULL,
};

static const char *version(void)
{
	static char v[32];

	mbedtls_version_get_string(v);
	return v;
}

static const struct cb_plugin plugin = {
	CB_PLUGIN_HEADER,
	.name = "mbedtls",
	.description = "Mbed TLS, a plug-in built outside the core",
	.version = version,
	.impls = impls,
};

CB_PLUGIN_EXPORT const struct cb_plugin *
cryptobench_plugin(const struct cb_host *h)
{
	host = h;
	return &plugin;
}
