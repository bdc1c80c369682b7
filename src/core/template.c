/*
 * template.c - implementations composed from a backend's primitives, as
 * the kernel composes its crypto templates:
 *
 *   essiv(cbc(aes),sha256)   salt = SHA-256(key); IV = AES-256_salt(iv_in);
 *                            then CBC - the "generic template" of the
 *                            kernel report, built from the backend's
 *                            cbc(aes), ecb(aes) and sha256.
 *   authenc(hmac(sha256),cbc(aes))   encrypt-then-MAC over assoc || ct,
 *                            key as the kernel's rtattr blob.
 *   essiv(authenc(...),sha256)  as crypto/essiv.c: the salt hashes the
 *                            encryption key then the MAC key
 *                            (SHA-256(enckey || authkey)), and the last 16 bytes of
 *                            the associated data are replaced by the
 *                            ESSIV IV before the MAC (dm-crypt's layout).
 *   rfc4106(gcm(aes))        IPsec ESP's GCM (crypto/gcm.c): the key's last
 *                            4 bytes are a salt, nonce = salt || the 8-byte
 *                            IV, and the associated data's last 8 bytes
 *                            (ESP's copy of the IV) are not authenticated.
 *   ecb(cipher_null)         a copy, for backends whose library has none
 *                            (the kernel's crypto_null), so geli's "-e null"
 *                            runs on every backend.
 *
 * A template is only built when the backend has its primitives: the core
 * (backend.c) selects them with cb_impl_select() and hands them in, so this
 * file never calls back into the backend layer; where the backend lacks
 * sha256 (native) the salt comes from another backend and the driver name
 * says which.  A template is usable when its parts are, and they were
 * usable when selected.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "core/template.h"
#include "foundation/util.h"

struct tmpl {
	struct cb_impl impl;            /* must be first                   */
	const struct cb_impl *part[3];  /* components, by template         */
	char driver[200];
};

static const struct tmpl *tmpl_of(const struct cb_impl *impl)
{
	return (const struct tmpl *)impl;
}

/* ---- essiv(cbc(aes),sha256) ----------------------------------------- */

struct essiv_ctx {
	struct cb_inst cbc, ecb;
};

/* salt = SHA-256(k1 || k2); k2 may be empty. */
static int essiv_salt(const struct cb_impl *hash, const uint8_t *k1,
                      size_t l1, const uint8_t *k2, size_t l2,
                      uint8_t salt[32])
{
	struct cb_inst h;
	int rc;

	if ((rc = cb_inst_new(&h, hash, NULL, 0)) < 0)
		return rc;
	if ((rc = hash->init(h.ctx)) == 0 &&
	    (rc = hash->update(h.ctx, k1, l1)) == 0 &&
	    (!l2 || (rc = hash->update(h.ctx, k2, l2)) == 0))
		rc = hash->final(h.ctx, salt);
	cb_inst_free(&h);
	return rc;
}

/* ESSIV's keying (essiv and essiv-aead): outer (t's part[0]) under key,
 * ecb (part[1]) under the salt SHA-256(k1 || k2) (part[2]). */
static int essiv_pair(const struct tmpl *t, struct cb_inst *outer,
                      struct cb_inst *ecb, const uint8_t *key, size_t keylen,
                      const uint8_t *k1, size_t l1, const uint8_t *k2,
                      size_t l2)
{
	uint8_t salt[32];
	int rc;

	if ((rc = essiv_salt(t->part[2], k1, l1, k2, l2, salt)) < 0)
		return rc;
	if ((rc = cb_inst_new(outer, t->part[0], key, keylen)) == 0)
		rc = cb_inst_new(ecb, t->part[1], salt, sizeof salt);
	cb_wipe(salt, sizeof salt);
	return rc;
}

static int essiv_setkey(void *vctx, const struct cb_impl *impl,
                        const uint8_t *key, size_t keylen)
{
	struct essiv_ctx *c = vctx;

	return essiv_pair(tmpl_of(impl), &c->cbc, &c->ecb, key, keylen, key,
	                  keylen, NULL, 0);
}

static void essiv_free(void *vctx)
{
	struct essiv_ctx *c = vctx;

	cb_inst_free(&c->cbc);
	cb_inst_free(&c->ecb);
}

static int essiv_crypt(void *vctx, int enc, const uint8_t *iv,
                       const uint8_t *in, uint8_t *out, size_t len)
{
	struct essiv_ctx *c = vctx;
	uint8_t eiv[16];
	int rc;

	if (iv && (rc = c->ecb.impl->encrypt(c->ecb.ctx, NULL, iv, eiv, 16)) < 0)
		return rc;
	return (enc ? c->cbc.impl->encrypt : c->cbc.impl->decrypt)(
	        c->cbc.ctx, iv ? eiv : NULL, in, out, len);
}

static int essiv_encrypt(void *ctx, const uint8_t *iv, const uint8_t *in,
                         uint8_t *out, size_t len)
{
	return essiv_crypt(ctx, 1, iv, in, out, len);
}

static int essiv_decrypt(void *ctx, const uint8_t *iv, const uint8_t *in,
                         uint8_t *out, size_t len)
{
	return essiv_crypt(ctx, 0, iv, in, out, len);
}

/* ---- authenc(hmac(sha256),cbc(aes)) ---------------------------------- */

struct authenc_ctx {
	struct cb_inst mac, cbc;
};

int cb_authenc_split(const uint8_t *key, size_t keylen,
                         const uint8_t **ak, size_t *aklen,
                         const uint8_t **ek, size_t *eklen)
{
	unsigned rta_len, rta_type;
	uint32_t enckeylen;

	if (keylen < 8)
		return -EINVAL;
	rta_len = key[0] | key[1] << 8;
	rta_type = key[2] | key[3] << 8;
	if (rta_type != 1 || rta_len < 8 || rta_len > keylen)
		return -EINVAL;
	enckeylen = (uint32_t)key[4] << 24 | (uint32_t)key[5] << 16 |
	            (uint32_t)key[6] << 8 | key[7];
	rta_len = (rta_len + 3) & ~3u;
	if (rta_len > keylen || keylen - rta_len < enckeylen)
		return -EINVAL;
	*ak = key + rta_len;
	*aklen = keylen - rta_len - enckeylen;
	*ek = *ak + *aklen;
	*eklen = enckeylen;
	return 0;
}

/* cb_authenc_split, with the error set for the caller. */
static int authenc_keys(const uint8_t *key, size_t keylen,
                        const uint8_t **ak, size_t *aklen,
                        const uint8_t **ek, size_t *eklen)
{
	int rc = cb_authenc_split(key, keylen, ak, aklen, ek, eklen);

	if (rc < 0)
		cb_set_error("authenc key is not a kernel rtattr key blob");
	return rc;
}

static int authenc_setkey(void *vctx, const struct cb_impl *impl,
                          const uint8_t *key, size_t keylen)
{
	const struct tmpl *t = tmpl_of(impl);
	struct authenc_ctx *c = vctx;
	const uint8_t *ak, *ek;
	size_t aklen, eklen;
	int rc;

	if ((rc = authenc_keys(key, keylen, &ak, &aklen, &ek, &eklen)) < 0)
		return rc;
	if ((rc = cb_inst_new(&c->mac, t->part[0], ak, aklen)) < 0)
		return rc;
	return cb_inst_new(&c->cbc, t->part[1], ek, eklen);
}

static void authenc_free(void *vctx)
{
	struct authenc_ctx *c = vctx;

	cb_inst_free(&c->mac);
	cb_inst_free(&c->cbc);
}

static int authenc_mac(struct authenc_ctx *c, const uint8_t *ad,
                       size_t adlen, const uint8_t *ct, size_t len,
                       uint8_t *full)
{
	const struct cb_impl *m = c->mac.impl;
	int rc;

	if ((rc = m->init(c->mac.ctx)) < 0 ||
	    (rc = m->update(c->mac.ctx, ad, adlen)) < 0 ||
	    (rc = m->update(c->mac.ctx, ct, len)) < 0)
		return rc;
	return m->final(c->mac.ctx, full);
}

static int authenc_encrypt(void *vctx, const uint8_t *iv, const uint8_t *ad,
                           size_t adlen, const uint8_t *in, uint8_t *out,
                           size_t len, uint8_t *tag, size_t taglen)
{
	struct authenc_ctx *c = vctx;
	uint8_t full[CB_MAX_DIGEST];
	int rc;

	if (taglen > c->mac.alg->digest_len)
		return -EINVAL;
	if ((rc = c->cbc.impl->encrypt(c->cbc.ctx, iv, in, out, len)) < 0 ||
	    (rc = authenc_mac(c, ad, adlen, out, len, full)) < 0)
		return rc;
	memcpy(tag, full, taglen);
	return 0;
}

static int authenc_decrypt(void *vctx, const uint8_t *iv, const uint8_t *ad,
                           size_t adlen, const uint8_t *in, uint8_t *out,
                           size_t len, const uint8_t *tag, size_t taglen)
{
	struct authenc_ctx *c = vctx;
	uint8_t full[CB_MAX_DIGEST];
	int rc;

	if (taglen > c->mac.alg->digest_len)
		return -EINVAL;
	if ((rc = authenc_mac(c, ad, adlen, in, len, full)) < 0)
		return rc;
	if (!cb_ct_equal(full, tag, taglen))
		return -EBADMSG;
	return c->cbc.impl->decrypt(c->cbc.ctx, iv, in, out, len);
}

/* ---- essiv(authenc(hmac(sha256),cbc(aes)),sha256) -------------------- */

struct essiv_aead_ctx {
	struct cb_inst aead, ecb;
};

static int essiv_aead_setkey(void *vctx, const struct cb_impl *impl,
                             const uint8_t *key, size_t keylen)
{
	const struct tmpl *t = tmpl_of(impl);
	struct essiv_aead_ctx *c = vctx;
	const uint8_t *ak, *ek;
	size_t aklen, eklen;
	int rc;

	if ((rc = authenc_keys(key, keylen, &ak, &aklen, &ek, &eklen)) < 0)
		return rc;
	/* crypto/essiv.c essiv_aead_setkey(): SHA-256(enckey || authkey) */
	return essiv_pair(t, &c->aead, &c->ecb, key, keylen, ek, eklen, ak,
	                  aklen);
}

static void essiv_aead_free(void *vctx)
{
	struct essiv_aead_ctx *c = vctx;

	cb_inst_free(&c->aead);
	cb_inst_free(&c->ecb);
}

static int essiv_aead_crypt(struct essiv_aead_ctx *c, int enc,
                            const uint8_t *iv, const uint8_t *ad,
                            size_t adlen, const uint8_t *in, uint8_t *out,
                            size_t len, uint8_t *tag, size_t taglen)
{
	uint8_t eiv[16], small[256], *ad2;
	int rc;

	if (adlen < 16 || !iv)
		return -EINVAL;
	if ((rc = c->ecb.impl->encrypt(c->ecb.ctx, NULL, iv, eiv, 16)) < 0)
		return rc;
	ad2 = adlen <= sizeof small ? small : cb_xmalloc(adlen);
	memcpy(ad2, ad, adlen - 16);
	memcpy(ad2 + adlen - 16, eiv, 16);
	if (enc)
		rc = c->aead.impl->aead_encrypt(c->aead.ctx, eiv, ad2, adlen,
		                                in, out, len, tag, taglen);
	else
		rc = c->aead.impl->aead_decrypt(c->aead.ctx, eiv, ad2, adlen,
		                                in, out, len, tag, taglen);
	if (ad2 != small)
		free(ad2);
	return rc;
}

static int essiv_aead_encrypt(void *ctx, const uint8_t *iv, const uint8_t *ad,
                              size_t adlen, const uint8_t *in, uint8_t *out,
                              size_t len, uint8_t *tag, size_t taglen)
{
	return essiv_aead_crypt(ctx, 1, iv, ad, adlen, in, out, len, tag,
	                        taglen);
}

static int essiv_aead_decrypt(void *ctx, const uint8_t *iv, const uint8_t *ad,
                              size_t adlen, const uint8_t *in, uint8_t *out,
                              size_t len, const uint8_t *tag, size_t taglen)
{
	return essiv_aead_crypt(ctx, 0, iv, ad, adlen, in, out, len,
	                        (uint8_t *)tag, taglen);
}

/* ---- rfc4106(gcm(aes)) ------------------------------------------------ */

struct rfc4106_ctx {
	struct cb_inst gcm;
	uint8_t salt[4];
};

static int rfc4106_setkey(void *vctx, const struct cb_impl *impl,
                          const uint8_t *key, size_t keylen)
{
	struct rfc4106_ctx *c = vctx;

	if (keylen < 4)
		return -EINVAL;
	memcpy(c->salt, key + keylen - 4, 4);
	return cb_inst_new(&c->gcm, tmpl_of(impl)->part[0], key, keylen - 4);
}

static void rfc4106_free(void *vctx)
{
	struct rfc4106_ctx *c = vctx;

	cb_inst_free(&c->gcm);
	cb_wipe(c->salt, sizeof c->salt);
}

static int rfc4106_crypt(void *vctx, int enc, const uint8_t *iv,
                         const uint8_t *ad, size_t adlen, const uint8_t *in,
                         uint8_t *out, size_t len, uint8_t *tag, size_t taglen)
{
	struct rfc4106_ctx *c = vctx;
	uint8_t nonce[12];

	if (adlen < 8) {
		cb_set_error("rfc4106: the associated data ends with the 8-byte "
		             "IV: %zu bytes is too short", adlen);
		return -EINVAL;
	}
	memcpy(nonce, c->salt, 4);
	memcpy(nonce + 4, iv, 8);
	return enc ? c->gcm.impl->aead_encrypt(c->gcm.ctx, nonce, ad, adlen - 8,
	                                       in, out, len, tag, taglen)
	           : c->gcm.impl->aead_decrypt(c->gcm.ctx, nonce, ad, adlen - 8,
	                                       in, out, len, tag, taglen);
}

static int rfc4106_encrypt(void *ctx, const uint8_t *iv, const uint8_t *ad,
                           size_t adlen, const uint8_t *in, uint8_t *out,
                           size_t len, uint8_t *tag, size_t taglen)
{
	return rfc4106_crypt(ctx, 1, iv, ad, adlen, in, out, len, tag, taglen);
}

static int rfc4106_decrypt(void *ctx, const uint8_t *iv, const uint8_t *ad,
                           size_t adlen, const uint8_t *in, uint8_t *out,
                           size_t len, const uint8_t *tag, size_t taglen)
{
	return rfc4106_crypt(ctx, 0, iv, ad, adlen, in, out, len,
	                     (uint8_t *)tag, taglen);
}

/* ---- ecb(cipher_null) ------------------------------------------------- */

static int null_crypt(void *ctx, const uint8_t *iv, const uint8_t *in,
                      uint8_t *out, size_t len)
{
	if (in != out)
		memmove(out, in, len);
	return 0;
}

static int null_setkey(void *ctx, const struct cb_impl *impl,
                       const uint8_t *key, size_t keylen)
{
	return keylen ? -EINVAL : 0;
}

/* ---- building ---------------------------------------------------------- */

static struct tmpl *tmpl_new(const char *alg, size_t ctx_size)
{
	struct tmpl *t = cb_xcalloc(1, sizeof *t);

	t->impl.alg = alg;
	t->impl.driver = t->driver;
	t->impl.priority = 50;
	t->impl.ctx_size = ctx_size;
	return t;
}

size_t cb_templates_build(const struct cb_tmpl_parts *p,
                          const struct cb_impl **out, size_t at, size_t room)
{
	const struct cb_impl *cbc = p->cbc, *ecb = p->ecb, *hmac = p->hmac;
	const struct cb_impl *sha = p->sha, *authenc = NULL;
	size_t n = 0;
	struct tmpl *t;

	if (cbc && ecb && sha && n < room) {
		t = tmpl_new("essiv(cbc(aes),sha256)", sizeof(struct essiv_ctx));
		t->part[0] = cbc, t->part[1] = ecb, t->part[2] = sha;
		snprintf(t->driver, sizeof t->driver, "essiv(%s,%s,%s)",
		         cbc->driver, ecb->driver, sha->driver);
		t->impl.setkey = essiv_setkey;
		t->impl.free = essiv_free;
		t->impl.encrypt = essiv_encrypt;
		t->impl.decrypt = essiv_decrypt;
		out[at + n++] = &t->impl;
	}
	if (cbc && hmac && n < room) {
		t = tmpl_new("authenc(hmac(sha256),cbc(aes))",
		             sizeof(struct authenc_ctx));
		t->part[0] = hmac, t->part[1] = cbc;
		snprintf(t->driver, sizeof t->driver, "authenc(%s,%s)",
		         hmac->driver, cbc->driver);
		t->impl.setkey = authenc_setkey;
		t->impl.free = authenc_free;
		t->impl.aead_encrypt = authenc_encrypt;
		t->impl.aead_decrypt = authenc_decrypt;
		out[at + n++] = authenc = &t->impl;
	}
	if (authenc && ecb && sha && n < room) {
		t = tmpl_new("essiv(authenc(hmac(sha256),cbc(aes)),sha256)",
		             sizeof(struct essiv_aead_ctx));
		t->part[0] = authenc, t->part[1] = ecb, t->part[2] = sha;
		snprintf(t->driver, sizeof t->driver, "essiv(%s,%s,%s)",
		         authenc->driver, ecb->driver, sha->driver);
		t->impl.setkey = essiv_aead_setkey;
		t->impl.free = essiv_aead_free;
		t->impl.aead_encrypt = essiv_aead_encrypt;
		t->impl.aead_decrypt = essiv_aead_decrypt;
		out[at + n++] = &t->impl;
	}
	if (p->gcm && !p->has_rfc4106 && n < room) {
		t = tmpl_new("rfc4106(gcm(aes))", sizeof(struct rfc4106_ctx));
		t->part[0] = p->gcm;
		snprintf(t->driver, sizeof t->driver, "rfc4106(%s)", p->gcm->driver);
		t->impl.setkey = rfc4106_setkey;
		t->impl.free = rfc4106_free;
		t->impl.aead_encrypt = rfc4106_encrypt;
		t->impl.aead_decrypt = rfc4106_decrypt;
		out[at + n++] = &t->impl;
	}
	if (!p->has_null && n < room) {
		t = tmpl_new("ecb(cipher_null)", 1);
		snprintf(t->driver, sizeof t->driver, "ecb-cipher_null-generic-%s",
		         p->backend);
		t->impl.setkey = null_setkey;
		t->impl.encrypt = null_crypt;
		t->impl.decrypt = null_crypt;
		out[at + n++] = &t->impl;
	}
	return n;
}
