/*
 * gcrypt.c - the libgcrypt 1.10 backend.  Ciphers are one generic
 * implementation parameterised by a {mode, algorithm ids by key size}
 * descriptor; hashes and HMACs are one generic implementation over
 * gcry_md with or without GCRY_MD_FLAG_HMAC.  Each keyed context holds one
 * library handle opened and keyed in setkey, so a request costs a
 * gcry_cipher_setiv/setctr (or gcry_md_reset) plus the work itself.  The
 * chain state for iv == NULL is gcrypt's own (CBC keeps the last block,
 * CTR the counter and unused keystream); XTS keeps a copy of the tweak
 * because gcrypt advances its own.  XTS does ciphertext stealing, so any
 * length >= 16 works.  Weak keys are accepted (GCRYCTL_SET_ALLOW_WEAK_KEY)
 * as every other backend accepts them; gcrypt ignores DES parity bits.
 * libgcrypt has no public null cipher, so ecb(cipher_null) is absent; in
 * FIPS mode the non-approved algorithms probe as unavailable.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gcrypt.h>

#include "plugin_host.h"

/*
 * --cpu: hardware features to switch off, by libgcrypt's hwf names.
 * GCRYCTL_DISABLE_HWF only works before gcry_check_version(), so gc_cap
 * records them and gc_ready applies them first.  Names this libgcrypt
 * does not know (1.10 has no "intel-avx512" or "intel-gfni") are skipped:
 * it has no such code path to switch off.
 */
static const struct { unsigned hw; const char *name; } gc_hwf[] = {
#if defined(__aarch64__)
	{ CB_HW_NEON, "arm-neon" },
	{ CB_HW_AES, "arm-aes" },
	{ CB_HW_PMULL, "arm-pmull" },
	{ CB_HW_SHA2, "arm-sha1" },
	{ CB_HW_SHA2, "arm-sha2" },
	{ CB_HW_SHA3, "arm-sha512" },
	{ CB_HW_SHA3, "arm-sha3" },
#else
	{ CB_HW_AES, "intel-aesni" },
	{ CB_HW_PCLMUL, "intel-pclmul" },
	{ CB_HW_AVX, "intel-avx" },
	{ CB_HW_AVX2, "intel-avx2" },
	{ CB_HW_AVX2, "intel-bmi2" },
	{ CB_HW_AVX2, "intel-fast-vpgather" },
	{ CB_HW_VAES, "intel-vaes-vpclmul" },
	{ CB_HW_VAES, "intel-gfni" },
	{ CB_HW_AVX512, "intel-avx512" },
	{ CB_HW_SHA, "intel-shaext" },
#endif
};
static unsigned gc_hw_off;

static int gc_cap(unsigned hw, char *env, size_t n)
{
	gc_hw_off = ~hw & CB_HW_ALL;
	return 0;
}

static int gc_ready(void)
{
	if (gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P))
		return 0;
	for (size_t i = 0; i < sizeof gc_hwf / sizeof gc_hwf[0]; i++)
		if (gc_hw_off & gc_hwf[i].hw)
			gcry_control(GCRYCTL_DISABLE_HWF, gc_hwf[i].name, NULL);
	if (!gcry_check_version(GCRYPT_VERSION))
		return -ENOTSUP;
	gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	return 0;
}

static int gc_probe(const char **why)
{
	if (gc_ready() < 0) {
		*why = "libgcrypt older than the " GCRYPT_VERSION " headers";
		return -ENOTSUP;
	}
	return 0;
}

static const char *gc_version(void)
{
	return gcry_check_version(NULL);
}

/* The "hwflist:" line of GCRYCTL_PRINT_CONFIG: the CPU features in use. */
static const char *gc_details(void)
{
	static char buf[512];
	char *txt = NULL, *p;
	size_t n = 0;
	FILE *f;

	if (buf[0])
		return buf;
	if (gc_ready() < 0 || !(f = open_memstream(&txt, &n)))
		return NULL;
	gcry_control(GCRYCTL_PRINT_CONFIG, f);
	fclose(f);
	p = txt ? strstr(txt, "hwflist:") : NULL;
	if (p) {
		n = strcspn(p, "\n");
		if (n > 8 && p[n - 1] == ':')
			n--;
		snprintf(buf, sizeof buf, "%.*s", (int)n, p);
	}
	free(txt);
	return buf[0] ? buf : NULL;
}

static int gc_error(const char *what, gcry_error_t e)
{
	int err = gcry_err_code_to_errno(gcry_err_code(e));

	cb_set_error("gcrypt: %s: %s", what, gcry_strerror(e));
	return err > 0 ? -err : -EINVAL;
}

/* ---- ciphers ---------------------------------------------------------- */

struct gc_cipher_desc {
	int mode;               /* GCRY_CIPHER_MODE_*                        */
	int algos[4];           /* by key size (XTS: half key); 0-terminated;
	                           a single entry takes any size             */
};

struct gc_cipher {
	gcry_cipher_hd_t hd;
	const struct gc_cipher_desc *d;
	int algo;
	size_t block;
	uint8_t tweak[16];      /* XTS: the last tweak, for iv == NULL       */
	struct chacha32 c32;    /* ChaCha20's position (plugin_host.h)          */
};

static int gc_pick_algo(const struct gc_cipher_desc *d, size_t keylen)
{
	if (!d->algos[1])
		return d->algos[0];
	for (const int *a = d->algos; *a; a++)
		if (gcry_cipher_get_algo_keylen(*a) == keylen)
			return *a;
	return 0;
}

static int gc_cipher_setkey(void *vctx, const struct cb_impl *impl,
                            const uint8_t *key, size_t keylen)
{
	struct gc_cipher *c = vctx;
	gcry_error_t e;
	int algo;

	if (gc_ready() < 0)
		return -ENOTSUP;
	c->d = impl->priv;
	algo = gc_pick_algo(c->d, c->d->mode == GCRY_CIPHER_MODE_XTS ?
	                          keylen / 2 : keylen);
	if (!algo) {
		cb_set_error("gcrypt: %s: no algorithm for a %zu-bit key",
		             impl->driver, keylen * 8);
		return -ENOTSUP;
	}
	if (c->hd && c->algo != algo) {
		gcry_cipher_close(c->hd);
		c->hd = NULL;
	}
	if (!c->hd) {
		e = gcry_cipher_open(&c->hd, algo, c->d->mode, 0);
		if (e)
			return gc_error("gcry_cipher_open", e);
		c->algo = algo;
		c->block = gcry_cipher_get_algo_blklen(algo);
		gcry_cipher_ctl(c->hd, GCRYCTL_SET_ALLOW_WEAK_KEY, NULL, 1);
	}
	/* With weak keys allowed, GPG_ERR_WEAK_KEY still comes back but the
	 * key is set. */
	e = gcry_cipher_setkey(c->hd, key, keylen);
	if (e && gcry_err_code(e) != GPG_ERR_WEAK_KEY)
		return gc_error("gcry_cipher_setkey", e);
	memset(c->tweak, 0, sizeof c->tweak);
	return 0;
}

static void gc_cipher_free(void *vctx)
{
	struct gc_cipher *c = vctx;

	if (c->hd)
		gcry_cipher_close(c->hd);   /* wipes the key schedule */
	c->hd = NULL;
}

static gcry_error_t gc_run(struct gc_cipher *c, int enc, const uint8_t *in,
                           uint8_t *out, size_t len)
{
	if (!len)
		return 0;
	if (in == out)
		return enc ? gcry_cipher_encrypt(c->hd, out, len, NULL, 0)
		           : gcry_cipher_decrypt(c->hd, out, len, NULL, 0);
	return enc ? gcry_cipher_encrypt(c->hd, out, len, in, len)
	           : gcry_cipher_decrypt(c->hd, out, len, in, len);
}

/* ChaCha20: libgcrypt's counter carries into the nonce; the kernel's
 * wraps (the IV, if any, is set already) */
static int gc_chacha(struct gc_cipher *c, int enc, const uint8_t *iv,
                     const uint8_t *in, uint8_t *out, size_t len)
{
	size_t n = chacha32_start(&c->c32, iv, len);
	gcry_error_t e = gc_run(c, enc, in, out, n);

	if (!e && n < len &&
	    !(e = gcry_cipher_setiv(c->hd, chacha32_wrap(&c->c32), 16)))
		e = gc_run(c, enc, in + n, out + n, len - n);
	if (e)
		return gc_error(enc ? "encrypt" : "decrypt", e);
	chacha32_done(&c->c32, len);
	return 0;
}

static int gc_crypt(struct gc_cipher *c, int enc, const uint8_t *iv,
                    const uint8_t *in, uint8_t *out, size_t len)
{
	gcry_error_t e = 0;

	if (!c->hd)
		return -EINVAL;
	switch (c->d->mode) {
	case GCRY_CIPHER_MODE_ECB:
		if (len % c->block)
			return -EINVAL;
		break;
	case GCRY_CIPHER_MODE_CBC:
		if (len % c->block)
			return -EINVAL;
		if (iv)
			e = gcry_cipher_setiv(c->hd, iv, c->block);
		break;
	case GCRY_CIPHER_MODE_CTR:
		if (iv)
			e = gcry_cipher_setctr(c->hd, iv, c->block);
		break;
	case GCRY_CIPHER_MODE_STREAM:   /* chacha20: the 16-byte counter block */
		if (iv)
			e = gcry_cipher_setiv(c->hd, iv, 16);
		break;
	case GCRY_CIPHER_MODE_XTS:
		if (len < 16)
			return -EINVAL;
		if (iv)
			memcpy(c->tweak, iv, sizeof c->tweak);
		e = gcry_cipher_setiv(c->hd, c->tweak, sizeof c->tweak);
		break;
	}
	if (e)
		return gc_error("setting the IV", e);
	if (c->d->mode == GCRY_CIPHER_MODE_STREAM)
		return gc_chacha(c, enc, iv, in, out, len);
	e = gc_run(c, enc, in, out, len);
	return e ? gc_error(enc ? "encrypt" : "decrypt", e) : 0;
}

static int gc_encrypt(void *vctx, const uint8_t *iv, const uint8_t *in,
                      uint8_t *out, size_t len)
{
	return gc_crypt(vctx, 1, iv, in, out, len);
}

static int gc_decrypt(void *vctx, const uint8_t *iv, const uint8_t *in,
                      uint8_t *out, size_t len)
{
	return gc_crypt(vctx, 0, iv, in, out, len);
}

static int gc_cipher_probe(const struct cb_impl *impl, const char **why)
{
	const struct gc_cipher_desc *d = impl->priv;

	for (const int *a = d->algos; *a; a++) {
		if (gcry_cipher_test_algo(*a)) {
			*why = gcry_fips_mode_active()
			     ? "disabled by libgcrypt's FIPS mode"
			     : "cipher not available in this libgcrypt";
			return -ENOTSUP;
		}
	}
	return 0;
}

#define AES      { GCRY_CIPHER_AES128, GCRY_CIPHER_AES192, GCRY_CIPHER_AES256 }
#define CAMELLIA { GCRY_CIPHER_CAMELLIA128, GCRY_CIPHER_CAMELLIA192, \
                   GCRY_CIPHER_CAMELLIA256 }
#define SERPENT  { GCRY_CIPHER_SERPENT128, GCRY_CIPHER_SERPENT192, \
                   GCRY_CIPHER_SERPENT256 }
/* libgcrypt's Twofish takes 128 and 256-bit keys, not 192 */
#define TWOFISH  { GCRY_CIPHER_TWOFISH128, GCRY_CIPHER_TWOFISH }
static const unsigned gc_twofish_keys[] = { 128, 256, 0 };
static const unsigned gc_twofish_xts_keys[] = { 256, 512, 0 };
#define CIPHERK(a, drv, m, kb, ...) &(const struct cb_impl){                  \
	.alg = a, .driver = drv "-gcrypt", .priority = 100,                   \
	.ctx_size = sizeof(struct gc_cipher),                                 \
	.priv = &(const struct gc_cipher_desc){ GCRY_CIPHER_MODE_##m,         \
	                                        __VA_ARGS__ },                \
	.probe = gc_cipher_probe, .setkey = gc_cipher_setkey,                 \
	.free = gc_cipher_free, .encrypt = gc_encrypt, .decrypt = gc_decrypt, \
	.key_bits = kb,                                                       \
}
#define CIPHER(a, drv, m, ...) CIPHERK(a, drv, m, NULL, __VA_ARGS__)

/* ---- AEAD: gcm(aes), rfc7539(chacha20,poly1305) ------------------------ */

/* A keyed handle a request sets its IV on, feeds the associated data and
 * the text, and takes (or checks) the tag of. */
static int gc_aead_run(struct gc_cipher *c, int enc, const uint8_t *iv,
                       const uint8_t *ad, size_t adlen, const uint8_t *in,
                       uint8_t *out, size_t len, uint8_t *tag, size_t taglen)
{
	gcry_error_t e;

	if (!c->hd || !taglen || taglen > 16)
		return -EINVAL;
	if ((e = gcry_cipher_setiv(c->hd, iv, 12)) ||
	    (e = gcry_cipher_authenticate(c->hd, ad, adlen)) ||
	    (e = gcry_cipher_final(c->hd)))
		return gc_error("setting the IV and associated data", e);
	e = enc ? gcry_cipher_encrypt(c->hd, out, len, in, len)
	        : gcry_cipher_decrypt(c->hd, out, len, in, len);
	if (e)
		return gc_error(enc ? "encrypt" : "decrypt", e);
	if (enc)
		e = gcry_cipher_gettag(c->hd, tag, taglen);
	else if ((e = gcry_cipher_checktag(c->hd, tag, taglen)) &&
	         gcry_err_code(e) == GPG_ERR_CHECKSUM)
		return -EBADMSG;
	return e ? gc_error("the tag", e) : 0;
}

static int gc_aead_encrypt(void *ctx, const uint8_t *iv, const uint8_t *ad,
                           size_t adlen, const uint8_t *in, uint8_t *out,
                           size_t len, uint8_t *tag, size_t taglen)
{
	return gc_aead_run(ctx, 1, iv, ad, adlen, in, out, len, tag, taglen);
}

static int gc_aead_decrypt(void *ctx, const uint8_t *iv, const uint8_t *ad,
                           size_t adlen, const uint8_t *in, uint8_t *out,
                           size_t len, const uint8_t *tag, size_t taglen)
{
	return gc_aead_run(ctx, 0, iv, ad, adlen, in, out, len, (uint8_t *)tag,
	                   taglen);
}

#define AEAD(a, drv, m, ...) &(const struct cb_impl){                         \
	.alg = a, .driver = drv "-gcrypt", .priority = 100,                   \
	.ctx_size = sizeof(struct gc_cipher),                                 \
	.priv = &(const struct gc_cipher_desc){ GCRY_CIPHER_MODE_##m,         \
	                                        __VA_ARGS__ },                \
	.probe = gc_cipher_probe, .setkey = gc_cipher_setkey,                 \
	.free = gc_cipher_free, .aead_encrypt = gc_aead_encrypt,              \
	.aead_decrypt = gc_aead_decrypt,                                      \
}

/* ---- hashes and HMAC --------------------------------------------------- */

struct gc_md_desc {
	int algo;               /* GCRY_MD_*                                   */
	unsigned flags;         /* 0 or GCRY_MD_FLAG_HMAC                      */
};

struct gc_md {
	gcry_md_hd_t hd;
	int algo;
	size_t len;
};

static int gc_md_setkey(void *vctx, const struct cb_impl *impl,
                        const uint8_t *key, size_t keylen)
{
	const struct gc_md_desc *d = impl->priv;
	struct gc_md *m = vctx;
	/* cb_inst_new() has checked the key size against alg and key_bits */
	const struct cb_alg *alg = cb_alg_find(impl->alg, NULL);
	gcry_error_t e;

	if (!alg)
		return -EINVAL;
	if (gc_ready() < 0)
		return -ENOTSUP;
	if (!m->hd) {
		e = gcry_md_open(&m->hd, d->algo, d->flags);
		if (e)
			return gc_error("gcry_md_open", e);
		m->algo = d->algo;
		m->len = gcry_md_get_algo_dlen(d->algo);
		if (m->len != alg->digest_len) {
			cb_set_error("gcrypt: %s: digest length %zu", impl->driver,
			             m->len);
			return -ENOTSUP;
		}
	}
	if (d->flags & GCRY_MD_FLAG_HMAC) {
		e = gcry_md_setkey(m->hd, keylen ? key : (const uint8_t *)"",
		                   keylen);
		if (e)
			return gc_error("gcry_md_setkey", e);
	}
	return 0;
}

static void gc_md_free(void *vctx)
{
	struct gc_md *m = vctx;

	if (m->hd)
		gcry_md_close(m->hd);   /* wipes the HMAC pads */
	m->hd = NULL;
}

/* gcry_md_reset restores the keyed inner state for an HMAC handle. */
static int gc_md_init(void *vctx)
{
	struct gc_md *m = vctx;

	if (!m->hd)
		return -EINVAL;
	gcry_md_reset(m->hd);
	return 0;
}

static int gc_md_update(void *vctx, const uint8_t *in, size_t len)
{
	struct gc_md *m = vctx;

	gcry_md_write(m->hd, in, len);
	return 0;
}

static int gc_md_final(void *vctx, uint8_t *out)
{
	struct gc_md *m = vctx;
	const unsigned char *p = gcry_md_read(m->hd, m->algo);

	if (!p)
		return -EINVAL;
	memcpy(out, p, m->len);
	return 0;
}

static int gc_md_probe(const struct cb_impl *impl, const char **why)
{
	const struct gc_md_desc *d = impl->priv;

	if (gcry_md_test_algo(d->algo)) {
		*why = gcry_fips_mode_active()
		     ? "disabled by libgcrypt's FIPS mode"
		     : "digest not available in this libgcrypt";
		return -ENOTSUP;
	}
	return 0;
}

#define MD(a, drv, algo_, fl) &(const struct cb_impl){                        \
	.alg = a, .driver = drv "-gcrypt", .priority = 100,                   \
	.ctx_size = sizeof(struct gc_md),                                     \
	.priv = &(const struct gc_md_desc){ GCRY_MD_##algo_, fl },            \
	.probe = gc_md_probe, .setkey = gc_md_setkey, .free = gc_md_free,     \
	.init = gc_md_init, .update = gc_md_update, .final = gc_md_final,     \
}
#define HASH(n, algo_)  MD(#n, #n, algo_, 0)
#define HMAC(n, algo_)  MD("hmac(" #n ")", "hmac-" #n, algo_, GCRY_MD_FLAG_HMAC)

/* ---- key derivation: PBKDF2 and Argon2 (libgcrypt 1.10) ---------------- */

static int gc_pbkdf2(void *ctx, const struct cb_impl *impl,
                     const uint8_t *pass, size_t passlen, const uint8_t *salt,
                     size_t saltlen, const struct cb_kdf_params *p,
                     uint8_t *out, size_t outlen)
{
	const struct gc_md_desc *d = impl->priv;
	gcry_error_t e;

	(void)ctx;
	if (gc_ready() < 0)
		return -ENOTSUP;
	e = gcry_kdf_derive(pass, passlen, GCRY_KDF_PBKDF2, d->algo, salt,
	                    saltlen, p->iterations, outlen, out);
	if (e && !saltlen) {       /* RFC 8018 allows it; 1.10 refuses it */
		cb_set_error("gcrypt: libgcrypt %s's PBKDF2 refuses an empty "
		             "salt (gcry_kdf_derive: %s)", gcry_check_version(NULL),
		             gcry_strerror(e));
		return -ENOTSUP;
	}
	return e ? gc_error("PBKDF2", e) : 0;
}

/*
 * Argon2's lanes on threads, as libargon2 (and so cryptsetup) runs them:
 * libgcrypt hands out one job per lane and segment and waits for all of
 * them before the next segment.  A job runs on its own thread, at most
 * GC_JOBS at once (more run in the caller's).
 */
#define GC_JOBS 64
struct gc_jobs {
	pthread_t tid[GC_JOBS];
	unsigned n;
};

struct gc_job {
	gcry_kdf_job_fn_t fn;
	void *priv;
};

static void *gc_job_main(void *arg)
{
	struct gc_job j = *(struct gc_job *)arg;

	free(arg);
	j.fn(j.priv);
	return NULL;
}

static int gc_dispatch(void *ctx, gcry_kdf_job_fn_t fn, void *priv)
{
	struct gc_jobs *js = ctx;
	struct gc_job *j = malloc(sizeof *j);

	if (j && js->n < GC_JOBS) {
		j->fn = fn, j->priv = priv;
		if (pthread_create(&js->tid[js->n], NULL, gc_job_main, j) == 0) {
			js->n++;
			return 0;
		}
	}
	free(j);
	fn(priv);                  /* no thread: run it here */
	return 0;
}

static int gc_wait_all(void *ctx)
{
	struct gc_jobs *js = ctx;

	for (unsigned i = 0; i < js->n; i++)
		pthread_join(js->tid[i], NULL);
	js->n = 0;
	return 0;
}

/* Argon2 through gcry_kdf_open/compute/final; the subalgorithm in priv's
 * algo (GCRY_KDF_ARGON2I or GCRY_KDF_ARGON2ID); more than one lane on
 * threads (above). */
static int gc_argon2(void *ctx, const struct cb_impl *impl,
                     const uint8_t *pass, size_t passlen, const uint8_t *salt,
                     size_t saltlen, const struct cb_kdf_params *p,
                     uint8_t *out, size_t outlen)
{
	const struct gc_md_desc *d = impl->priv;
	unsigned long param[4] = { outlen, p->iterations, p->memory, p->lanes };
	struct gc_jobs jobs = { .n = 0 };
	gcry_kdf_thread_ops_t ops = { &jobs, gc_dispatch, gc_wait_all };
	gcry_kdf_hd_t hd;
	gcry_error_t e;

	(void)ctx;
	if (gc_ready() < 0)
		return -ENOTSUP;
	if (!passlen) {            /* RFC 9106 allows it; 1.10 says EINVAL */
		cb_set_error("gcrypt: libgcrypt 1.10's Argon2 refuses an empty "
		             "password");
		return -ENOTSUP;
	}
	e = gcry_kdf_open(&hd, GCRY_KDF_ARGON2, d->algo, param, 4, pass, passlen,
	                  salt, saltlen, p->secret, p->secret_len, p->ad,
	                  p->ad_len);
	if (e)
		return gc_error("Argon2", e);
	if (!(e = gcry_kdf_compute(hd, p->lanes > 1 ? &ops : NULL)))
		e = gcry_kdf_final(hd, outlen, out);
	gcry_kdf_close(hd);
	return e ? gc_error("Argon2", e) : 0;
}

#define KDF(n, drv, fn, algo_) &(const struct cb_impl){                       \
	.alg = n, .driver = drv "-gcrypt", .priority = 100, .ctx_size = 1,    \
	.priv = &(const struct gc_md_desc){ algo_, 0 }, .derive = fn,         \
}

static const struct cb_impl *const gc_impls[] = {
	KDF("argon2i", "argon2i", gc_argon2, GCRY_KDF_ARGON2I),
	KDF("argon2id", "argon2id", gc_argon2, GCRY_KDF_ARGON2ID),
	KDF("pbkdf2(hmac(rmd160))", "pbkdf2-rmd160", gc_pbkdf2, GCRY_MD_RMD160),
	KDF("pbkdf2(hmac(sha1))", "pbkdf2-sha1", gc_pbkdf2, GCRY_MD_SHA1),
	KDF("pbkdf2(hmac(sha256))", "pbkdf2-sha256", gc_pbkdf2, GCRY_MD_SHA256),
	KDF("pbkdf2(hmac(sha512))", "pbkdf2-sha512", gc_pbkdf2, GCRY_MD_SHA512),
	CIPHER("cbc(aes)", "cbc-aes", CBC, AES),
	CIPHER("cbc(blowfish)", "cbc-blowfish", CBC, { GCRY_CIPHER_BLOWFISH }),
	CIPHER("cbc(camellia)", "cbc-camellia", CBC, CAMELLIA),
	CIPHER("cbc(des3_ede)", "cbc-des3_ede", CBC, { GCRY_CIPHER_3DES }),
	CIPHER("cbc(serpent)", "cbc-serpent", CBC, SERPENT),
	CIPHERK("cbc(twofish)", "cbc-twofish", CBC, gc_twofish_keys, TWOFISH),
	CIPHER("chacha20", "chacha20", STREAM, { GCRY_CIPHER_CHACHA20 }),
	CIPHER("ctr(aes)", "ctr-aes", CTR, AES),
	CIPHER("ecb(aes)", "ecb-aes", ECB, AES),
	AEAD("gcm(aes)", "gcm-aes", GCM, AES),
	HMAC(md5, MD5),
	HMAC(rmd160, RMD160),
	HMAC(sha1, SHA1),
	HMAC(sha224, SHA224),
	HMAC(sha256, SHA256),
	HMAC(sha384, SHA384),
	HMAC(sha512, SHA512),
	HASH(md5, MD5),
	AEAD("rfc7539(chacha20,poly1305)", "rfc7539-chacha20-poly1305",
	     POLY1305, { GCRY_CIPHER_CHACHA20 }),
	HASH(rmd160, RMD160),
	HASH(sha1, SHA1),
	HASH(sha224, SHA224),
	HASH(sha256, SHA256),
	HASH(sha384, SHA384),
	HASH(sha512, SHA512),
	CIPHER("xts(aes)", "xts-aes", XTS, AES),
	CIPHER("xts(serpent)", "xts-serpent", XTS, SERPENT),
	CIPHERK("xts(twofish)", "xts-twofish", XTS, gc_twofish_xts_keys, TWOFISH),
	NULL,
};

/* The plug-in's descriptor (include/cryptobench/plugin.h). */
static const struct cb_plugin cb_backend_gcrypt = {
	CB_PLUGIN_HEADER,
	.name = "gcrypt",
	.description = "libgcrypt through gcry_cipher and gcry_md",
	.probe = gc_probe,
	.version = gc_version,
	.details = gc_details,
	.cap = gc_cap,
	.impls = gc_impls,
};
CB_PLUGIN_ENTRY(cb_backend_gcrypt)
