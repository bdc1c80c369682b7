/*
 * nettle.c - the GNU Nettle 3.8 backend, through Nettle's low-level API.
 * Ciphers are one generic implementation parameterised by a {mode, key
 * sizes} descriptor whose entries are Nettle's own struct nettle_cipher
 * (AES and Camellia from nettle-meta.h; Blowfish and 3DES, which Nettle
 * does not list there, described here the same way).  The context holds
 * the expanded keys and the running IV/counter, which Nettle's cbc_* and
 * ctr_crypt update in place, so iv == NULL simply continues; CTR keeps
 * the unused keystream of a partial block so a continued stream equals
 * one call.  AES-CBC encryption uses Nettle's fused cbc_aesN_encrypt; XTS
 * is Nettle's xts_{en,de}crypt_message (what xts_aesN_* wrap), with
 * ciphertext stealing, so any length >= 16 works.  Weak keys are accepted:
 * the return values of des3_set_key (weak keys; parity bits are ignored,
 * and vectors often have them wrong) and blowfish_set_key (weak S-boxes)
 * are deliberately dropped.  Hashes and HMACs are one generic
 * implementation over struct nettle_hash and hmac_set_key/hmac_digest.
 * Nettle has no null cipher, so ecb(cipher_null) is absent.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/aes.h>
#include <nettle/blowfish.h>
#include <nettle/camellia.h>
#include <nettle/cbc.h>
#include <nettle/chacha-poly1305.h>
#include <nettle/chacha.h>
#include <nettle/ctr.h>
#include <nettle/des.h>
#include <nettle/gcm.h>
#include <nettle/hmac.h>
#include <nettle/memops.h>
#include <nettle/memxor.h>
#include <nettle/nettle-meta.h>
#include <nettle/pbkdf2.h>
#include <nettle/serpent.h>
#include <nettle/twofish.h>
#include <nettle/version.h>
#include <nettle/xts.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif
#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

#include "plugin_host.h"

/* Built against one major version (the ABI); refuse another at run time. */
static int nt_probe(const char **why)
{
	if (nettle_version_major() != NETTLE_VERSION_MAJOR) {
		*why = "libnettle major version differs from the headers";
		return -ENOTSUP;
	}
	return 0;
}

static const char *nt_version(void)
{
	static char buf[32];

	if (!buf[0])
		snprintf(buf, sizeof buf, "%d.%d", nettle_version_major(),
		         nettle_version_minor());
	return buf;
}

/*
 * Nettle has no API saying which code it chose.  A fat x86_64 build
 * carries both the C and the AES-NI variants (internal symbols), and picks
 * by CPUID at load time unless NETTLE_FAT_OVERRIDE lists the features to
 * use instead ("vendor:intel,aesni,sha_ni,pclmul", Nettle 3.8
 * fat-x86_64.c).  Report what it uses: the CPUID bits Nettle looks at, or
 * the override's list where one is set.
 */
#if defined(__x86_64__)
static void nt_cpu(char *buf, size_t n, unsigned hw)
{
	unsigned a, b, c, d, ecx1 = 0, ebx7 = 0;
	size_t off = 0;

	if (__get_cpuid(1, &a, &b, &c, &d))
		ecx1 = c;
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
		ebx7 = b;
	buf[0] = 0;
	if (ecx1 & bit_AES && hw & CB_HW_AES)
		off += (size_t)snprintf(buf + off, n - off, ",aesni");
	if (ebx7 & bit_SHA && hw & CB_HW_SHA && off < n)
		off += (size_t)snprintf(buf + off, n - off, ",sha_ni");
	if (ecx1 & bit_PCLMUL && hw & CB_HW_PCLMUL && off < n)
		snprintf(buf + off, n - off, ",pclmul");
}
#endif

#if defined(__x86_64__)
/* Is libnettle a fat build (both AES paths present)?  Asked of the
 * library itself with RTLD_NEXT, which searches this plug-in's own
 * dependencies (they are not in the global scope).  No dlopen/dlclose
 * of libnettle: glibc's exit-time clean-up then loses the plug-in's
 * dependency list, which valgrind reports as a leak. */
static int nt_fat(void)
{
	return dlsym(RTLD_NEXT, "_nettle_aes128_encrypt_c") &&
	       dlsym(RTLD_NEXT, "_nettle_aes128_encrypt_aesni");
}
#endif

static const char *nt_details(void)
{
	static char buf[200];

	if (buf[0])
		return buf;
#if defined(__x86_64__)
	if (nt_fat()) {
		const char *ov = getenv("NETTLE_FAT_OVERRIDE");
		char cpu[64];

		nt_cpu(cpu, sizeof cpu, CB_HW_ALL);
		if (ov)
			snprintf(buf, sizeof buf, "x86_64 fat build; uses: %s "
			         "(NETTLE_FAT_OVERRIDE; cpu: %s)",
			         *ov ? ov : "generic C", cpu[0] ? cpu + 1 : "-");
		else
			snprintf(buf, sizeof buf, "x86_64 fat build; uses: %s "
			         "(cpu)", cpu[0] ? cpu + 1 : "generic C");
	}
#endif
	return buf[0] ? buf : NULL;
}

/*
 * --cpu: NETTLE_FAT_OVERRIDE, read when the library loads (the core
 * re-executes with it set).  Nettle trusts the list without checking the
 * CPU, so it names only what the CPU has and the level allows; the
 * vendor is kept (it picks the memxor variant, not an instruction set).
 */
static int nt_cap(unsigned hw, char *env, size_t n)
{
#if defined(__x86_64__)
	unsigned a, b, c, d;
	char vendor[13] = "", cpu[64];
	const char *v;

	if (__get_cpuid(0, &a, &b, &c, &d)) {
		memcpy(vendor, &b, 4);
		memcpy(vendor + 4, &d, 4);
		memcpy(vendor + 8, &c, 4);
	}
	v = !strcmp(vendor, "GenuineIntel") ? "vendor:intel"
	  : !strcmp(vendor, "AuthenticAMD") ? "vendor:amd" : "";
	nt_cpu(cpu, sizeof cpu, hw);
	snprintf(env, n, "NETTLE_FAT_OVERRIDE=%s%s", v,
	         v[0] || !cpu[0] ? cpu : cpu + 1);
	return 1;
#elif defined(__aarch64__)
	/* Nettle 3.8 fat-arm64.c: "aes", "pmull", "sha1", "sha2" (what the
	 * CPU has, from AT_HWCAP, and the level allows) */
	unsigned long cap = getauxval(AT_HWCAP);

	snprintf(env, n, "NETTLE_FAT_OVERRIDE=%s%s%s%s", "",
	         cap & (1UL << 3) && hw & CB_HW_AES ? "aes," : "",
	         cap & (1UL << 4) && hw & CB_HW_PMULL ? "pmull," : "",
	         cap & (1UL << 5) && hw & CB_HW_SHA2 ? "sha1," : "");
	if (cap & (1UL << 6) && hw & CB_HW_SHA2)
		snprintf(env + strlen(env), n - strlen(env), "sha2");
	else if (env[strlen(env) - 1] == ',')
		env[strlen(env) - 1] = 0;
	return 1;
#else
	return 0;
#endif
}

/* ---- ciphers ---------------------------------------------------------- */

typedef void nt_cbc_func(const void *ctx, uint8_t *iv, size_t length,
                         uint8_t *dst, const uint8_t *src);
typedef int nt_setvar_func(void *ctx, size_t length, const uint8_t *key);

/* One cipher at one key size; keylen 0 (with set_var) takes any size the
 * registry allows.  cbc_enc is a fused CBC encryption, or NULL. */
struct nt_key {
	size_t keylen;
	const struct nettle_cipher *c;
	nt_cbc_func *cbc_enc;
	nt_setvar_func *set_var;
};

enum nt_mode { NT_ECB, NT_CBC, NT_CTR, NT_XTS };

struct nt_cipher_desc {
	enum nt_mode mode;
	const struct nt_key *keys;   /* ends with c == NULL; XTS: half key */
};

/* des3_set_key returns 0 for weak keys, which we accept (see the top). */
static void nt_des3_set_key(void *ctx, const uint8_t *key)
{
	(void)des3_set_key(ctx, key);
}

static const struct nettle_cipher nt_blowfish = {
	"blowfish", sizeof(struct blowfish_ctx), BLOWFISH_BLOCK_SIZE,
	BLOWFISH_KEY_SIZE, NULL, NULL,
	(nettle_cipher_func *)blowfish_encrypt,
	(nettle_cipher_func *)blowfish_decrypt,
};

static const struct nettle_cipher nt_des3 = {
	"des3", sizeof(struct des3_ctx), DES3_BLOCK_SIZE, DES3_KEY_SIZE,
	nt_des3_set_key, nt_des3_set_key,
	(nettle_cipher_func *)des3_encrypt,
	(nettle_cipher_func *)des3_decrypt,
};

static const struct nt_key nt_aes_keys[] = {
	{ 16, &nettle_aes128, (nt_cbc_func *)cbc_aes128_encrypt, NULL },
	{ 24, &nettle_aes192, (nt_cbc_func *)cbc_aes192_encrypt, NULL },
	{ 32, &nettle_aes256, (nt_cbc_func *)cbc_aes256_encrypt, NULL },
	{ 0, NULL, NULL, NULL },
};

static const struct nt_key nt_camellia_keys[] = {
	{ 16, &nettle_camellia128, NULL, NULL },
	{ 24, &nettle_camellia192, NULL, NULL },
	{ 32, &nettle_camellia256, NULL, NULL },
	{ 0, NULL, NULL, NULL },
};

static const struct nt_key nt_serpent_keys[] = {
	{ 16, &nettle_serpent128, NULL, NULL },
	{ 24, &nettle_serpent192, NULL, NULL },
	{ 32, &nettle_serpent256, NULL, NULL },
	{ 0, NULL, NULL, NULL },
};

static const struct nt_key nt_twofish_keys[] = {
	{ 16, &nettle_twofish128, NULL, NULL },
	{ 24, &nettle_twofish192, NULL, NULL },
	{ 32, &nettle_twofish256, NULL, NULL },
	{ 0, NULL, NULL, NULL },
};

/* blowfish_set_key returns 0 for weak keys, which we accept. */
static const struct nt_key nt_blowfish_keys[] = {
	{ 0, &nt_blowfish, NULL, (nt_setvar_func *)blowfish_set_key },
	{ 0, NULL, NULL, NULL },
};

static const struct nt_key nt_des3_keys[] = {
	{ DES3_KEY_SIZE, &nt_des3, NULL, NULL },
	{ 0, NULL, NULL, NULL },
};

union nt_sched {
	struct aes128_ctx aes128;
	struct aes192_ctx aes192;
	struct aes256_ctx aes256;
	struct camellia128_ctx camellia128;
	struct camellia256_ctx camellia256;
	struct blowfish_ctx blowfish;
	struct des3_ctx des3;
	struct serpent_ctx serpent;
	struct twofish_ctx twofish;
};

struct nt_cipher {
	const struct nt_cipher_desc *d;
	const struct nt_key *k;
	int shared;                  /* decryption uses the encryption key */
	unsigned ks_left;            /* CTR: unused bytes at the end of ks */
	uint8_t iv[16];              /* running IV / counter / XTS tweak   */
	uint8_t ks[16];              /* CTR: keystream of a partial block  */
	union nt_sched enc, dec, twk;
};

static int nt_cipher_setkey(void *vctx, const struct cb_impl *impl,
                            const uint8_t *key, size_t keylen)
{
	const struct nt_cipher_desc *d = impl->priv;
	struct nt_cipher *c = vctx;
	const struct nettle_cipher *ci;
	const struct nt_key *k;
	size_t half = d->mode == NT_XTS ? keylen / 2 : keylen;

	/* cb_inst_new() has checked the key size against alg and key_bits */
	for (k = d->keys; k->c; k++)
		if (k->keylen == half || !k->keylen)
			break;
	if (!k->c) {
		cb_set_error("nettle: %s: no cipher for a %zu-bit key",
		             impl->driver, keylen * 8);
		return -ENOTSUP;
	}
	ci = k->c;
	c->d = d;
	c->k = k;
	if (k->set_var) {
		k->set_var(&c->enc, half, key);
		c->shared = 1;
	} else {
		ci->set_encrypt_key(&c->enc, key);
		c->shared = ci->set_decrypt_key == ci->set_encrypt_key;
		if (!c->shared)
			ci->set_decrypt_key(&c->dec, key);
	}
	if (d->mode == NT_XTS)
		ci->set_encrypt_key(&c->twk, key + half);
	memset(c->iv, 0, sizeof c->iv);
	c->ks_left = 0;
	return 0;
}

static void nt_cipher_free(void *vctx)
{
	cb_wipe(vctx, sizeof(struct nt_cipher));
}

/* CTR that keeps the rest of a partial block's keystream for the next
 * call, so a stream cut anywhere equals one call. */
static void nt_ctr(struct nt_cipher *c, const uint8_t *in, uint8_t *out,
                   size_t len)
{
	const struct nettle_cipher *ci = c->k->c;
	size_t bs = ci->block_size, n;

	if (c->ks_left && len) {
		n = len < c->ks_left ? len : c->ks_left;
		if (out != in)
			memmove(out, in, n);
		memxor(out, c->ks + bs - c->ks_left, n);
		c->ks_left -= (unsigned)n;
		in += n;
		out += n;
		len -= n;
	}
	n = len - len % bs;
	if (n)
		ctr_crypt(&c->enc, ci->encrypt, bs, c->iv, n, out, in);
	if (len > n) {
		memset(c->ks, 0, bs);
		ctr_crypt(&c->enc, ci->encrypt, bs, c->iv, bs, c->ks, c->ks);
		if (out != in)
			memmove(out + n, in + n, len - n);
		memxor(out + n, c->ks, len - n);
		c->ks_left = (unsigned)(bs - (len - n));
	}
}

static int nt_crypt(struct nt_cipher *c, int enc, const uint8_t *iv,
                    const uint8_t *in, uint8_t *out, size_t len)
{
	const struct nettle_cipher *ci;
	const void *ek = &c->enc, *dk = c->shared ? &c->enc : &c->dec;
	size_t bs;

	if (!c->k)
		return -EINVAL;
	ci = c->k->c;
	bs = ci->block_size;
	switch (c->d->mode) {
	case NT_ECB:
		if (len % bs)
			return -EINVAL;
		if (enc)
			ci->encrypt(ek, len, out, in);
		else
			ci->decrypt(dk, len, out, in);
		break;
	case NT_CBC:
		if (len % bs)
			return -EINVAL;
		if (iv)
			memcpy(c->iv, iv, bs);
		if (!enc)
			cbc_decrypt(dk, ci->decrypt, bs, c->iv, len, out, in);
		else if (c->k->cbc_enc)
			c->k->cbc_enc(ek, c->iv, len, out, in);
		else
			cbc_encrypt(ek, ci->encrypt, bs, c->iv, len, out, in);
		break;
	case NT_CTR:
		if (iv) {
			memcpy(c->iv, iv, bs);
			c->ks_left = 0;
		}
		nt_ctr(c, in, out, len);
		break;
	case NT_XTS:
		if (len < XTS_BLOCK_SIZE)
			return -EINVAL;
		if (iv)
			memcpy(c->iv, iv, XTS_BLOCK_SIZE);
		if (enc)
			xts_encrypt_message(ek, &c->twk, ci->encrypt, c->iv, len,
			                    out, in);
		else
			xts_decrypt_message(dk, &c->twk, ci->decrypt,
			                    ci->encrypt, c->iv, len, out, in);
		break;
	}
	return 0;
}

static int nt_encrypt(void *vctx, const uint8_t *iv, const uint8_t *in,
                      uint8_t *out, size_t len)
{
	return nt_crypt(vctx, 1, iv, in, out, len);
}

static int nt_decrypt(void *vctx, const uint8_t *iv, const uint8_t *in,
                      uint8_t *out, size_t len)
{
	return nt_crypt(vctx, 0, iv, in, out, len);
}

#define CIPHER(a, drv, m, keys_) &(const struct cb_impl){                     \
	.alg = a, .driver = drv "-nettle", .priority = 100,                   \
	.ctx_size = sizeof(struct nt_cipher),                                 \
	.priv = &(const struct nt_cipher_desc){ NT_##m, keys_ },              \
	.setkey = nt_cipher_setkey, .free = nt_cipher_free,                   \
	.encrypt = nt_encrypt, .decrypt = nt_decrypt,                         \
}

/* ---- chacha20: the kernel's 16-byte IV, le32 counter || nonce --------- */

struct nt_chacha {
	struct chacha_ctx ctx;
	unsigned ks_left;                /* unused bytes at the end of ks */
	uint8_t ks[CHACHA_BLOCK_SIZE];
	int keyed;
};

static int nt_chacha_setkey(void *vctx, const struct cb_impl *impl,
                            const uint8_t *key, size_t keylen)
{
	struct nt_chacha *c = vctx;

	if (keylen != CHACHA_KEY_SIZE)
		return -EINVAL;
	chacha_set_key(&c->ctx, key);
	c->keyed = 1;
	return 0;
}

/* chacha_crypt32 takes whole blocks but the last; a stream cut anywhere
 * keeps the rest of its block's keystream for the next request. */
static int nt_chacha_crypt(void *vctx, const uint8_t *iv, const uint8_t *in,
                           uint8_t *out, size_t len)
{
	struct nt_chacha *c = vctx;
	size_t n;

	if (!c->keyed)
		return -EINVAL;
	if (iv) {
		chacha_set_nonce96(&c->ctx, iv + 4);    /* zeroes the counter */
		chacha_set_counter32(&c->ctx, iv);
		c->ks_left = 0;
	}
	if (c->ks_left && len) {
		n = len < c->ks_left ? len : c->ks_left;
		memxor3(out, in, c->ks + sizeof c->ks - c->ks_left, n);
		c->ks_left -= (unsigned)n;
		in += n, out += n, len -= n;
	}
	n = len - len % CHACHA_BLOCK_SIZE;
	if (n)
		chacha_crypt32(&c->ctx, n, out, in);
	if (len > n) {
		memset(c->ks, 0, sizeof c->ks);
		chacha_crypt32(&c->ctx, sizeof c->ks, c->ks, c->ks);
		memxor3(out + n, in + n, c->ks, len - n);
		c->ks_left = (unsigned)(sizeof c->ks - (len - n));
	}
	return 0;
}

static void nt_chacha_free(void *vctx)
{
	cb_wipe(vctx, sizeof(struct nt_chacha));
}

/* ---- AEAD: gcm(aes), rfc7539(chacha20,poly1305) through nettle_aead ---- */

union nt_aead_state {
	struct gcm_aes128_ctx g128;
	struct gcm_aes192_ctx g192;
	struct gcm_aes256_ctx g256;
	struct chacha_poly1305_ctx cp;
};

struct nt_aead {
	const struct nettle_aead *a;
	union nt_aead_state st;
};

static int nt_aead_setkey(void *vctx, const struct cb_impl *impl,
                          const uint8_t *key, size_t keylen)
{
	const struct nettle_aead *const *a = impl->priv;
	struct nt_aead *c = vctx;

	for (; *a && (*a)->key_size != keylen; a++)
		;
	if (!*a || (*a)->context_size > sizeof c->st) {
		cb_set_error("nettle: %s: no cipher for a %zu-bit key",
		             impl->driver, keylen * 8);
		return -ENOTSUP;
	}
	c->a = *a;
	c->a->set_encrypt_key(&c->st, key);  /* decryption uses the same key */
	return 0;
}

static int nt_aead_run(struct nt_aead *c, int enc, const uint8_t *iv,
                       const uint8_t *ad, size_t adlen, const uint8_t *in,
                       uint8_t *out, size_t len, uint8_t *tag, size_t taglen)
{
	uint8_t mine[16];

	if (!c->a || !taglen || taglen > c->a->digest_size)
		return -EINVAL;
	c->a->set_nonce(&c->st, iv);
	if (adlen)
		c->a->update(&c->st, adlen, ad);
	if (len)
		(enc ? c->a->encrypt : c->a->decrypt)(&c->st, len, out, in);
	c->a->digest(&c->st, taglen, enc ? tag : mine);
	return enc || memeql_sec(mine, tag, taglen) ? 0 : -EBADMSG;
}

static int nt_aead_encrypt(void *ctx, const uint8_t *iv, const uint8_t *ad,
                           size_t adlen, const uint8_t *in, uint8_t *out,
                           size_t len, uint8_t *tag, size_t taglen)
{
	return nt_aead_run(ctx, 1, iv, ad, adlen, in, out, len, tag, taglen);
}

static int nt_aead_decrypt(void *ctx, const uint8_t *iv, const uint8_t *ad,
                           size_t adlen, const uint8_t *in, uint8_t *out,
                           size_t len, const uint8_t *tag, size_t taglen)
{
	return nt_aead_run(ctx, 0, iv, ad, adlen, in, out, len, (uint8_t *)tag,
	                   taglen);
}

static void nt_aead_free(void *vctx)
{
	cb_wipe(vctx, sizeof(struct nt_aead));
}

static const struct nettle_aead *const nt_gcm[] = {
	&nettle_gcm_aes128, &nettle_gcm_aes192, &nettle_gcm_aes256, NULL,
};
static const struct nettle_aead *const nt_chacha_poly[] = {
	&nettle_chacha_poly1305, NULL,
};

#define AEAD(a, drv, list) &(const struct cb_impl){                           \
	.alg = a, .driver = drv "-nettle", .priority = 100,                   \
	.ctx_size = sizeof(struct nt_aead), .priv = list,                     \
	.setkey = nt_aead_setkey, .free = nt_aead_free,                       \
	.aead_encrypt = nt_aead_encrypt, .aead_decrypt = nt_aead_decrypt,     \
}

/* ---- hashes and HMAC --------------------------------------------------- */

struct nt_md_desc {
	const struct nettle_hash *h;
	int hmac;
};

union nt_hstate {
	struct md5_ctx md5;
	struct ripemd160_ctx ripemd160;
	struct sha1_ctx sha1;
	struct sha256_ctx sha256;
	struct sha512_ctx sha512;
};

struct nt_md {
	const struct nettle_hash *h;
	int hmac;
	union nt_hstate state, inner, outer;   /* inner/outer: HMAC only */
};

static int nt_md_setkey(void *vctx, const struct cb_impl *impl,
                        const uint8_t *key, size_t keylen)
{
	const struct nt_md_desc *d = impl->priv;
	struct nt_md *m = vctx;
	const struct cb_alg *alg = cb_alg_find(impl->alg, NULL);

	if (!alg)
		return -EINVAL;
	if (d->h->digest_size != alg->digest_len ||
	    d->h->context_size > sizeof m->state) {
		cb_set_error("nettle: %s: unexpected digest shape", impl->driver);
		return -ENOTSUP;
	}
	m->h = d->h;
	m->hmac = d->hmac;
	if (m->hmac)
		hmac_set_key(&m->outer, &m->inner, &m->state, m->h, keylen,
		             keylen ? key : (const uint8_t *)"");
	else
		m->h->init(&m->state);
	return 0;
}

static void nt_md_free(void *vctx)
{
	cb_wipe(vctx, sizeof(struct nt_md));
}

static int nt_md_init(void *vctx)
{
	struct nt_md *m = vctx;

	if (!m->h)
		return -EINVAL;
	if (m->hmac)
		memcpy(&m->state, &m->inner, m->h->context_size);
	else
		m->h->init(&m->state);
	return 0;
}

static int nt_md_update(void *vctx, const uint8_t *in, size_t len)
{
	struct nt_md *m = vctx;

	m->h->update(&m->state, len, in);
	return 0;
}

/* Both digest functions leave the state ready for the next message. */
static int nt_md_final(void *vctx, uint8_t *out)
{
	struct nt_md *m = vctx;

	if (m->hmac)
		hmac_digest(&m->outer, &m->inner, &m->state, m->h,
		            m->h->digest_size, out);
	else
		m->h->digest(&m->state, m->h->digest_size, out);
	return 0;
}

#define MD(a, drv, h_, hmac_) &(const struct cb_impl){                        \
	.alg = a, .driver = drv "-nettle", .priority = 100,                   \
	.ctx_size = sizeof(struct nt_md),                                     \
	.priv = &(const struct nt_md_desc){ &nettle_##h_, hmac_ },            \
	.setkey = nt_md_setkey, .free = nt_md_free, .init = nt_md_init,       \
	.update = nt_md_update, .final = nt_md_final,                         \
}
#define HASH(n, h_)  MD(#n, #n, h_, 0)
#define HMAC(n, h_)  MD("hmac(" #n ")", "hmac-" #n, h_, 1)

/* ---- key derivation: PBKDF2 over Nettle's HMACs (no Argon2 in Nettle) -- */

union nt_hmac {
	struct hmac_sha1_ctx sha1;
	struct hmac_sha256_ctx sha256;
	struct hmac_sha512_ctx sha512;
	struct hmac_ripemd160_ctx rmd160;
};

struct nt_pbkdf2_desc {
	void (*set_key)(void *ctx, size_t len, const uint8_t *key);
	nettle_hash_update_func *update;
	nettle_hash_digest_func *digest;
	size_t digest_size;
};

static int nt_pbkdf2(void *ctx, const struct cb_impl *impl,
                     const uint8_t *pass, size_t passlen, const uint8_t *salt,
                     size_t saltlen, const struct cb_kdf_params *p,
                     uint8_t *out, size_t outlen)
{
	const struct nt_pbkdf2_desc *d = impl->priv;
	union nt_hmac mac;

	(void)ctx;
	if (!p->iterations)
		return -EINVAL;
	d->set_key(&mac, passlen, pass);
	pbkdf2(&mac, d->update, d->digest, d->digest_size, p->iterations,
	       saltlen, salt, outlen, out);
	cb_wipe(&mac, sizeof mac);
	return 0;
}

#define NT_PBKDF2(h, H) &(const struct cb_impl){                                 \
	.alg = "pbkdf2(hmac(" #h "))", .driver = "pbkdf2-" #h "-nettle",      \
	.priority = 100, .ctx_size = 1,                                       \
	.priv = &(const struct nt_pbkdf2_desc){                               \
		(void (*)(void *, size_t, const uint8_t *))hmac_##H##_set_key,  \
		(nettle_hash_update_func *)hmac_##H##_update,                 \
		(nettle_hash_digest_func *)hmac_##H##_digest, H##_DIGEST_SIZE_ }, \
	.derive = nt_pbkdf2,                                                  \
}
#define sha1_DIGEST_SIZE_      SHA1_DIGEST_SIZE
#define sha256_DIGEST_SIZE_    SHA256_DIGEST_SIZE
#define sha512_DIGEST_SIZE_    SHA512_DIGEST_SIZE
#define ripemd160_DIGEST_SIZE_ RIPEMD160_DIGEST_SIZE

static const struct cb_impl *const nt_impls[] = {
	NT_PBKDF2(rmd160, ripemd160),
	NT_PBKDF2(sha1, sha1),
	NT_PBKDF2(sha256, sha256),
	NT_PBKDF2(sha512, sha512),
	CIPHER("cbc(aes)", "cbc-aes", CBC, nt_aes_keys),
	CIPHER("cbc(blowfish)", "cbc-blowfish", CBC, nt_blowfish_keys),
	CIPHER("cbc(camellia)", "cbc-camellia", CBC, nt_camellia_keys),
	CIPHER("cbc(des3_ede)", "cbc-des3_ede", CBC, nt_des3_keys),
	CIPHER("cbc(serpent)", "cbc-serpent", CBC, nt_serpent_keys),
	CIPHER("cbc(twofish)", "cbc-twofish", CBC, nt_twofish_keys),
	&(const struct cb_impl){ .alg = "chacha20", .driver = "chacha20-nettle",
	        .priority = 100, .ctx_size = sizeof(struct nt_chacha),
	        .setkey = nt_chacha_setkey, .free = nt_chacha_free,
	        .encrypt = nt_chacha_crypt, .decrypt = nt_chacha_crypt },
	CIPHER("ctr(aes)", "ctr-aes", CTR, nt_aes_keys),
	CIPHER("ecb(aes)", "ecb-aes", ECB, nt_aes_keys),
	AEAD("gcm(aes)", "gcm-aes", nt_gcm),
	HMAC(md5, md5),
	HMAC(rmd160, ripemd160),
	HMAC(sha1, sha1),
	HMAC(sha224, sha224),
	HMAC(sha256, sha256),
	HMAC(sha384, sha384),
	HMAC(sha512, sha512),
	HASH(md5, md5),
	AEAD("rfc7539(chacha20,poly1305)", "rfc7539-chacha20-poly1305",
	     nt_chacha_poly),
	HASH(rmd160, ripemd160),
	HASH(sha1, sha1),
	HASH(sha224, sha224),
	HASH(sha256, sha256),
	HASH(sha384, sha384),
	HASH(sha512, sha512),
	CIPHER("xts(aes)", "xts-aes", XTS, nt_aes_keys),
	CIPHER("xts(serpent)", "xts-serpent", XTS, nt_serpent_keys),
	CIPHER("xts(twofish)", "xts-twofish", XTS, nt_twofish_keys),
	NULL,
};

/* The plug-in's descriptor (include/cryptobench/plugin.h). */
static const struct cb_plugin cb_backend_nettle = {
	CB_PLUGIN_HEADER,
	.name = "nettle",
	.description = "GNU Nettle low-level API",
	.probe = nt_probe,
	.version = nt_version,
	.details = nt_details,
	.impls = nt_impls,
	.cap = nt_cap,
};
CB_PLUGIN_ENTRY(cb_backend_nettle)
