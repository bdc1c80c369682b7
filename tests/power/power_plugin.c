/*
 * power_plugin.c - a test plug-in that plants a known slowdown (issue 35,
 * "measure the power you claim"; docs/plugins.md).  Backend "power":
 * OpenSSL's EVP (ciphers) and EVP_MAC (HMAC), exactly as the openssl
 * backend calls them, for ecb(cipher_null), ecb(aes), cbc(aes), ctr(aes),
 * xts(aes), sha256 and hmac(sha256) (and the essiv/authenc templates the
 * host composes from them).  It includes only cryptobench/plugin.h.
 *
 * CB_POWER_EXTRA=N (N >= 2): every Nth request of a context is done twice,
 * so the work is exactly 1/N more and the speed 1/(1 + 1/N) of plain EVP
 * (-4.76 % for N = 20).  Unset or 0: off, the same calls as plain EVP
 * (and one predicted branch a request).  1 or anything else: the backend
 * is unavailable, with the reason.
 *
 * A request is one encrypt() or decrypt() call; the extra run goes first,
 * through a second EVP context keyed the same, with the same IV (or the
 * same chain continued: iv == NULL), from the caller's input into a
 * private buffer; then the real run.  The caller's buffer and the real
 * context see exactly what plain EVP does, so results never change.
 * For hashes and HMACs a request is one message (init() ... final()):
 * every Nth message is also fed, update by update, to a second context and
 * finalised into a private digest - the whole message twice.  The counts
 * are per context (a template's parts count their own requests).  No
 * multi-sector or batch entry points: the host then calls encrypt() per
 * sector and per request, each counted.
 *
 * CB_POWER_COUNT=FILE (tests/test_power.sh): at exit every process appends
 * one line "power: pid P requests R repeats D contexts C extra N checked K
 * agree A" to FILE: D counts the extra runs where they finish, C the
 * contexts that had a request (each does floor(its requests / N) extra
 * runs).  K counts the extra runs whose output could be held against the
 * real run's (all but a continued chain, iv == NULL, which the second
 * context does not follow), A those that were equal: the private buffer
 * is cleared before each extra run when counting, so only a run really
 * made agrees.
 *
 * Build (tests/test_power.sh, `make build/tests/power.so`):
 *   cc -shared -fPIC -O2 -Iinclude -o power.so tests/power/power_plugin.c \
 *      $(pkg-config --cflags --libs libcrypto)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cryptobench/plugin.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>

static const struct cb_host *host;
static unsigned extra;             /* CB_POWER_EXTRA; 0: off            */
static const char *env_error;      /* why CB_POWER_EXTRA is refused     */
static const char *count_file;     /* CB_POWER_COUNT, or NULL           */
/* Counted with count_file only: requests, extra runs done (counted where
 * they finish), contexts that had a request. */
static uint64_t n_requests, n_repeats, n_contexts;
/* ... and of the extra runs: compared with the real run, equal to it. */
static uint64_t n_checked, n_agree;

/* A context's count of requests. */
struct plant {
	unsigned tick;          /* requests since the last one done twice    */
	int seen;               /* CB_POWER_COUNT: it had a request          */
};

static void count(uint64_t *n)
{
	__atomic_add_fetch(n, 1, __ATOMIC_RELAXED);
}

/* Is this request one to do twice? */
static int twice(struct plant *p)
{
	int t = 0;

	if (!extra && !count_file)
		return 0;
	if (extra && ++p->tick == extra) {
		p->tick = 0;
		t = 1;
	}
	if (count_file) {
		count(&n_requests);
		if (!p->seen) {
			p->seen = 1;
			count(&n_contexts);
		}
	}
	return t;
}

/* CB_POWER_COUNT: one line a process, appended at exit. */
__attribute__((destructor)) static void power_count(void)
{
	FILE *f;

	if (!count_file || !(f = fopen(count_file, "a")))
		return;
	fprintf(f, "power: pid %ld requests %llu repeats %llu contexts %llu "
	        "extra %u checked %llu agree %llu\n", (long)getpid(),
	        (unsigned long long)n_requests, (unsigned long long)n_repeats,
	        (unsigned long long)n_contexts, extra,
	        (unsigned long long)n_checked, (unsigned long long)n_agree);
	fclose(f);
}

static void power_error(const char *what)
{
	char buf[200];
	unsigned long e = ERR_get_error();

	ERR_error_string_n(e, buf, sizeof buf);
	host->set_error("power: %s: %s", what, e ? buf : "failed");
	ERR_clear_error();
}

/* CB_POWER_COUNT: an extra run's output against the real run's. */
static void held_against(const uint8_t *mine, const uint8_t *real, size_t n)
{
	count(&n_checked);
	if (!memcmp(mine, real, n))
		count(&n_agree);
}

/* ---- ciphers --------------------------------------------------------- */

struct cipher_desc {
	const char *mode;       /* EVP's "AES-bits-MODE"; NULL: the null one */
	int xts;                /* the name's bits are half the key's        */
};

struct cipher {
	EVP_CIPHER *cipher;
	EVP_CIPHER_CTX *x[2];   /* the real runs: [0] decrypt, [1] encrypt   */
	EVP_CIPHER_CTX *s[2];   /* the extra runs, keyed the same (if on)    */
	uint8_t *buf;           /* the extra runs' output                    */
	size_t cap, mask;
	int ivlen, xts;
	struct plant plant;
	uint8_t tweak[16];      /* XTS: the last tweak, for iv == NULL       */
};

/* A refused XTS key (equal halves) is -ENOTSUP: kat's skip, as openssl's. */
static int32_t cipher_key_ctx(EVP_CIPHER_CTX **x, const struct cipher *c,
                              int enc, const uint8_t *key)
{
	if (!(*x = EVP_CIPHER_CTX_new()))
		return -ENOMEM;
	if (!EVP_CipherInit_ex2(*x, c->cipher, key, NULL, enc, NULL) ||
	    !EVP_CIPHER_CTX_set_padding(*x, 0)) {
		power_error("setting the key");
		return c->xts ? -ENOTSUP : -EINVAL;
	}
	return 0;
}

static int32_t cipher_setkey(void *ctx, const struct cb_impl *impl,
                             const uint8_t *key, size_t keylen)
{
	const struct cipher_desc *d = impl->priv;
	struct cipher *c = ctx;
	char name[32];
	int32_t rc = 0;

	if (d->mode)
		snprintf(name, sizeof name, "AES-%u-%s",
		         (unsigned)keylen * 8 / (d->xts ? 2 : 1), d->mode);
	else
		snprintf(name, sizeof name, "NULL");
	if (!(c->cipher = EVP_CIPHER_fetch(NULL, name, NULL))) {
		ERR_clear_error();
		host->set_error("power: no cipher %s", name);
		return -ENOTSUP;
	}
	if ((size_t)EVP_CIPHER_get_key_length(c->cipher) != keylen)
		return -EINVAL;
	c->mask = (size_t)EVP_CIPHER_get_block_size(c->cipher) - 1;
	c->ivlen = EVP_CIPHER_get_iv_length(c->cipher);
	c->xts = d->xts;
	for (int enc = 0; enc < 2 && !rc; enc++)
		if (!(rc = cipher_key_ctx(&c->x[enc], c, enc, key)) && extra)
			rc = cipher_key_ctx(&c->s[enc], c, enc, key);
	return rc;
}

static void cipher_free(void *ctx)
{
	struct cipher *c = ctx;

	for (int i = 0; i < 2; i++) {
		EVP_CIPHER_CTX_free(c->x[i]);
		EVP_CIPHER_CTX_free(c->s[i]);
	}
	EVP_CIPHER_free(c->cipher);
	if (c->buf)
		host->wipe(c->buf, c->cap);
	free(c->buf);
}

/* One run through context x, as the openssl backend's ossl_crypt. */
static int32_t run(struct cipher *c, EVP_CIPHER_CTX *x, int enc,
                   const uint8_t *iv, const uint8_t *in, uint8_t *out,
                   size_t len)
{
	int outl = 0;

	if (iv && c->ivlen && !EVP_CipherInit_ex2(x, NULL, NULL, iv, enc, NULL))
		goto fail;
	if (!EVP_CipherUpdate(x, out, &outl, in, (int)len) ||
	    (size_t)outl != len)
		goto fail;
	return 0;
fail:
	power_error(enc ? "encrypt" : "decrypt");
	return -EINVAL;
}

/* The extra run: the same request into the private buffer. */
static int32_t run_extra(struct cipher *c, int enc, const uint8_t *iv,
                         const uint8_t *in, size_t len)
{
	if (len > c->cap) {
		uint8_t *b = realloc(c->buf, len);

		if (!b)
			return -ENOMEM;
		c->buf = b;
		c->cap = len;
	}
	if (count_file)
		memset(c->buf, 0, len);
	if (run(c, c->s[enc], enc, iv, in, c->buf, len) < 0)
		return -EINVAL;
	if (count_file)
		count(&n_repeats);
	return 0;
}

static int32_t power_crypt(void *ctx, int enc, const uint8_t *iv,
                           const uint8_t *in, uint8_t *out, size_t len)
{
	struct cipher *c = ctx;
	int32_t rc, dbl;

	if (len > INT32_MAX || (len & c->mask) || (c->xts && len < 16))
		return -EINVAL;
	if (c->xts) {
		if (iv)
			memcpy(c->tweak, iv, 16);
		iv = c->tweak;
	}
	if ((dbl = twice(&c->plant)) && (rc = run_extra(c, enc, iv, in, len)) < 0)
		return rc;
	if ((rc = run(c, c->x[enc], enc, iv, in, out, len)) < 0)
		return rc;
	/* iv == NULL here (XTS has its tweak by now): a continued chain,
	 * which the second context does not follow - not comparable. */
	if (dbl && count_file && (iv || !c->ivlen))
		held_against(c->buf, out, len);
	return 0;
}

static int32_t power_encrypt(void *ctx, const uint8_t *iv,
                             const uint8_t *in, uint8_t *out, size_t len)
{
	return power_crypt(ctx, 1, iv, in, out, len);
}

static int32_t power_decrypt(void *ctx, const uint8_t *iv,
                             const uint8_t *in, uint8_t *out, size_t len)
{
	return power_crypt(ctx, 0, iv, in, out, len);
}

/* ---- sha256 and hmac(sha256) ------------------------------------------ */

struct digest {
	EVP_MD *md;
	EVP_MD_CTX *m[2];       /* hash: [0] the real message, [1] the extra
	                           (made only when CB_POWER_EXTRA is on)    */
	EVP_MAC *mac;
	EVP_MAC_CTX *h[2];      /* HMAC: the same                            */
	size_t len;
	struct plant plant;
	int dbl;                /* this message is done twice                */
	uint8_t sink[EVP_MAX_MD_SIZE];
};

static int32_t hmac_setkey(struct digest *d, const uint8_t *key, size_t n)
{
	static const uint8_t empty[1];
	OSSL_PARAM p[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
		                                 "SHA256", 0),
		OSSL_PARAM_construct_end(),
	};

	if (!d->mac && !(d->mac = EVP_MAC_fetch(NULL, "HMAC", NULL)))
		return -ENOTSUP;
	for (int i = 0; i < (extra ? 2 : 1); i++)
		if ((!d->h[i] && !(d->h[i] = EVP_MAC_CTX_new(d->mac))) ||
		    !EVP_MAC_init(d->h[i], n ? key : empty, n, p)) {
			power_error("HMAC key");
			return -EINVAL;
		}
	return 0;
}

static int32_t digest_setkey(void *ctx, const struct cb_impl *impl,
                             const uint8_t *key, size_t keylen)
{
	struct digest *d = ctx;

	if (impl->priv)                           /* hmac(sha256) */
		return hmac_setkey(d, key, keylen);
	if (!(d->md = EVP_MD_fetch(NULL, "SHA256", NULL))) {
		power_error("SHA256");
		return -ENOTSUP;
	}
	d->len = (size_t)EVP_MD_get_size(d->md);
	for (int i = 0; i < (extra ? 2 : 1); i++)
		if (!(d->m[i] = EVP_MD_CTX_new()))
			return -ENOMEM;
	return 0;
}

static void digest_free(void *ctx)
{
	struct digest *d = ctx;

	for (int i = 0; i < 2; i++) {
		EVP_MD_CTX_free(d->m[i]);
		EVP_MAC_CTX_free(d->h[i]);
	}
	EVP_MAC_free(d->mac);
	EVP_MD_free(d->md);
	host->wipe(d->sink, sizeof d->sink);
}

/* The steps on context i (0: the real message, 1: the extra one). */
static int step_init(struct digest *d, int i)
{
	return d->mac ? EVP_MAC_init(d->h[i], NULL, 0, NULL)
	              : EVP_DigestInit_ex2(d->m[i], d->md, NULL);
}

static int step_update(struct digest *d, int i, const uint8_t *in, size_t n)
{
	return d->mac ? EVP_MAC_update(d->h[i], in, n)
	              : EVP_DigestUpdate(d->m[i], in, n);
}

static int step_final(struct digest *d, int i, uint8_t *out)
{
	size_t outl = 0;
	unsigned int mdl = 0;

	if (d->mac)
		return EVP_MAC_final(d->h[i], out, &outl, 32) && outl == 32;
	return EVP_DigestFinal_ex(d->m[i], out, &mdl) && mdl == d->len;
}

static int32_t digest_init(void *ctx)
{
	struct digest *d = ctx;

	d->dbl = twice(&d->plant);
	if (d->dbl && !step_init(d, 1))
		return -EINVAL;
	return step_init(d, 0) ? 0 : -EINVAL;
}

static int32_t digest_update(void *ctx, const uint8_t *in, size_t len)
{
	struct digest *d = ctx;

	if (d->dbl && !step_update(d, 1, in, len))
		return -EINVAL;
	return step_update(d, 0, in, len) ? 0 : -EINVAL;
}

static int32_t digest_final(void *ctx, uint8_t *out)
{
	struct digest *d = ctx;
	int dbl = d->dbl;

	d->dbl = 0;
	if (dbl) {
		if (count_file)
			memset(d->sink, 0, sizeof d->sink);
		if (!step_final(d, 1, d->sink))
			return -EINVAL;
		if (count_file)
			count(&n_repeats);
	}
	if (!step_final(d, 0, out))
		return -EINVAL;
	if (dbl && count_file)
		held_against(d->sink, out, 32);       /* SHA-256's size */
	return 0;
}

/* ---- the table --------------------------------------------------------- */

#define CIPHER(var, algname, drv, mode, x, kb)                             \
static const struct cipher_desc var##_desc = { mode, x };                 \
static const struct cb_impl var = {                                       \
	.alg = algname, .driver = drv "-power", .priority = 100,           \
	.ctx_size = sizeof(struct cipher), .priv = &var##_desc,            \
	.setkey = cipher_setkey, .free = cipher_free,                      \
	.encrypt = power_encrypt, .decrypt = power_decrypt,                \
	.key_bits = kb };
/* OpenSSL has AES-128-XTS and AES-256-XTS only (no 2 x 192 bits). */
static const uint32_t xts_keys[] = { 256, 512, 0 };
CIPHER(null_copy, "ecb(cipher_null)", "ecb-cipher_null", NULL, 0, NULL)
CIPHER(ecb_aes, "ecb(aes)", "ecb-aes", "ECB", 0, NULL)
CIPHER(cbc_aes, "cbc(aes)", "cbc-aes", "CBC", 0, NULL)
CIPHER(ctr_aes, "ctr(aes)", "ctr-aes", "CTR", 0, NULL)
CIPHER(xts_aes, "xts(aes)", "xts-aes", "XTS", 1, xts_keys)

#define DIGEST(var, algname, drv, hmac)                                    \
static const struct cb_impl var = {                                       \
	.alg = algname, .driver = drv "-power", .priority = 100,           \
	.ctx_size = sizeof(struct digest), .priv = hmac ? "HMAC" : NULL,   \
	.setkey = digest_setkey, .free = digest_free, .init = digest_init, \
	.update = digest_update, .final = digest_final };
DIGEST(sha256, "sha256", "sha256", 0)
DIGEST(hmac_sha256, "hmac(sha256)", "hmac-sha256", 1)

static const struct cb_impl *const impls[] = {
	&null_copy, &ecb_aes, &cbc_aes, &ctr_aes, &xts_aes, &sha256,
	&hmac_sha256, NULL,
};

/* ---- the backend --------------------------------------------------------- */

static int32_t power_probe(const char **why)
{
	if (env_error) {
		*why = env_error;
		return -ENOTSUP;
	}
	return 0;
}

static const char *power_version(void)
{
	return OpenSSL_version(OPENSSL_VERSION_STRING);
}

static const char *power_details(void)
{
	static char s[96];

	if (!extra)
		return "OpenSSL EVP; CB_POWER_EXTRA off: no extra work";
	snprintf(s, sizeof s, "OpenSSL EVP; CB_POWER_EXTRA=%u: 1 request in "
	         "%u done twice (+%.2f %% work)", extra, extra, 100.0 / extra);
	return s;
}

static const struct cb_plugin plugin = {
	CB_PLUGIN_HEADER,
	.name = "power",
	.description = "OpenSSL EVP with a planted slowdown (CB_POWER_EXTRA; "
	               "tests/power)",
	.probe = power_probe,
	.version = power_version,
	.details = power_details,
	.impls = impls,
};

/* CB_POWER_EXTRA: unset, empty or 0 is off; N >= 2; else refused. */
static void read_env(void)
{
	const char *e = getenv("CB_POWER_EXTRA");
	char *end;
	unsigned long n = e && *e ? strtoul(e, &end, 10) : 0;

	if (e && *e && (*end || n == 1 || n > 1000000 || *e == '-'))
		env_error = "CB_POWER_EXTRA must be 0 (off) or N from 2 to "
		            "1000000 (every Nth request twice)";
	else
		extra = (unsigned)n;
	count_file = getenv("CB_POWER_COUNT");
	if (count_file && !*count_file)
		count_file = NULL;
}

CB_PLUGIN_EXPORT const struct cb_plugin *
cryptobench_plugin(const struct cb_host *h)
{
	host = h;
	read_env();
	return &plugin;
}
