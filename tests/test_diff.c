/*
 * test_diff.c - the differential test: every implementation of every
 * algorithm against every other, on random inputs, over the whole range of
 * parameters the algorithm's registry row allows (src/core/registry.c):
 * every key size, lengths from 0 to 64 KiB with XTS's stealing lengths,
 * IVs at the wrap of CTR's and ChaCha20's counters, every AEAD tag length
 * and associated-data lengths from 0 to 4 KiB (rfc4106: ESP's 16 and 20),
 * HMAC keys around the hash's block, PBKDF2 with empty and long passwords
 * and salts and keys longer than the digest, Argon2 at its lanes, memory
 * and output edges.  Decryption must invert encryption and a changed tag
 * must be refused (EBADMSG).
 *
 * Each case runs on every implementation; the outputs are grouped and the
 * largest group is the reference.  What the test prints:
 *   FAIL: defect: ALG CASE: DRIVER differs from DRIVER (n agree)
 *   FAIL: defect: ALG CASE: DRIVER: what it returned, with its message
 *   refused: DRIVER: the library's reason (N requests; first: ALG CASE)
 * A refusal (-ENOTSUP with a reason) is a skip, counted and printed once
 * per driver and reason; a refusal without a reason is a defect.
 *
 *   test_diff [--cpu LEVEL] [--only BACKEND]
 * --only: the algorithms BACKEND has, compared with every other backend
 * (make check-kernel runs it so in the guest).  Deterministic: the inputs
 * come from a fixed-seed generator, so a failure reproduces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "system/cpulevel.h"

#include "check.h"

#define MAXIMPL 16
#define MAXLEN  (65536 + 64)

static uint64_t rng = 0x9e3779b97f4a7c15u;

static void fill(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		p[i] = (uint8_t)rng;
	}
}

/* A cipher IV: random, or where a counter wraps within the request. */
enum { IV_RANDOM, IV_CTR32, IV_CTR64, IV_CTR128, IV_CHACHA_FFFE,
       IV_CHACHA_FFFF };
static const char *const iv_name[] = {
	"", " iv counter 2^32-2", " iv counter 2^64-2", " iv counter 2^128-2",
	" counter 2^32-2", " counter 2^32-1" };

/* One request's parameters; what says which of them the case varies. */
struct dcase {
	char what[80];
	size_t kl;               /* key bytes (authenc: the cipher key's)    */
	size_t akl;              /* authenc: the HMAC key's bytes            */
	size_t len;              /* text, message or password bytes         */
	size_t adlen, taglen;    /* AEAD                                     */
	size_t saltlen, outlen;  /* KDF                                      */
	struct cb_kdf_params kp; /* KDF: the cost (secret, ad: lengths only) */
	int iv;                  /* cipher: IV_*                             */
};

/* The inputs of the case being run and each implementation's output. */
static struct {
	uint8_t key[CB_MAX_KEY + 160], iv[CB_MAX_BLOCK], salt[512];
	uint8_t secret[32], kad[32];
	uint8_t *in, *ad, *back, *out[MAXIMPL];
	size_t keylen, outlen;
} io;

/* Refusals: one line per driver and reason, with a count. */
static struct refusal {
	const char *driver;
	char why[200], first[160];
	unsigned n;
} refused[256];
static size_t nrefused;
static unsigned ncases, nrequests;

static void refusal(const struct cb_impl *im, const struct cb_alg *a,
                    const struct dcase *c)
{
	const char *why = cb_last_error();
	size_t i;

	checkf(*why != 0, "defect: %s %s: %s refused it without a reason",
	       a->name, c->what, im->driver);
	for (i = 0; i < nrefused; i++)
		if (refused[i].driver == im->driver && !strcmp(refused[i].why, why))
			break;
	if (i == nrefused && nrefused < sizeof refused / sizeof *refused) {
		refused[i].driver = im->driver;
		snprintf(refused[i].why, sizeof refused[i].why, "%s", why);
		snprintf(refused[i].first, sizeof refused[i].first, "%s %s",
		         a->name, c->what);
		nrefused++;
	}
	if (i < nrefused)
		refused[i].n++;
	skipped++;
}

/* ---- the inputs ------------------------------------------------------- */

/* A kernel authenc key blob: rtattr, be32 cipher key length, keys. */
static size_t authenc_key(uint8_t *blob, size_t eklen, size_t aklen)
{
	blob[0] = 8, blob[1] = 0, blob[2] = 1, blob[3] = 0;
	blob[4] = 0, blob[5] = 0, blob[6] = 0, blob[7] = (uint8_t)eklen;
	fill(blob + 8, aklen + eklen);
	return 8 + aklen + eklen;
}

static void set_iv(int kind)
{
	fill(io.iv, sizeof io.iv);
	switch (kind) {
	case IV_CTR32: case IV_CTR64: case IV_CTR128: {
		size_t n = kind == IV_CTR32 ? 4 : kind == IV_CTR64 ? 8 : 16;

		memset(io.iv + 16 - n, 0xff, n);
		io.iv[15] = 0xfe;          /* wraps after two blocks */
		if (n < 16)
			io.iv[15 - n] &= 0x7f; /* and carries no further */
		break;
	}
	case IV_CHACHA_FFFE: case IV_CHACHA_FFFF:
		memset(io.iv, 0xff, 4);    /* le32 block counter */
		io.iv[0] = kind == IV_CHACHA_FFFE ? 0xfe : 0xff;
		break;
	}
}

static void set_inputs(const struct cb_alg *a, const struct dcase *c)
{
	if (a->flags & CB_F_AUTHENC)
		io.keylen = authenc_key(io.key, c->kl, c->akl);
	else
		fill(io.key, io.keylen = c->kl);
	set_iv(c->iv);
	fill(io.in, c->len);
	fill(io.ad, c->adlen);
	fill(io.salt, c->saltlen);
	fill(io.secret, sizeof io.secret);
	fill(io.kad, sizeof io.kad);
	io.outlen = a->kind == CB_HASH || a->kind == CB_MAC ? a->digest_len
	            : a->kind == CB_KDF ? c->outlen
	            : c->len + (a->kind == CB_AEAD ? c->taglen : 0);
}

/* ---- one request on one implementation ------------------------------- */

enum { R_NOT_INVERTED = 1, R_BAD_TAG_ACCEPTED, R_WRONG_REFUSAL };

static int run_cipher(struct cb_inst *x, const struct dcase *c, uint8_t *out)
{
	const uint8_t *iv = x->alg->iv_len ? io.iv : NULL;
	int rc = x->impl->encrypt(x->ctx, iv, io.in, out, c->len);

	if (!rc)
		rc = x->impl->decrypt(x->ctx, iv, out, io.back, c->len);
	if (!rc && memcmp(io.back, io.in, c->len))
		return R_NOT_INVERTED;
	return rc;
}

static int run_aead(struct cb_inst *x, const struct dcase *c, uint8_t *out)
{
	const struct cb_impl *im = x->impl;
	uint8_t *tag = out + c->len;
	int rc = im->aead_encrypt(x->ctx, io.iv, io.ad, c->adlen, io.in, out,
	                          c->len, tag, c->taglen);

	if (!rc)
		rc = im->aead_decrypt(x->ctx, io.iv, io.ad, c->adlen, out, io.back,
		                      c->len, tag, c->taglen);
	if (rc)
		return rc;
	if (memcmp(io.back, io.in, c->len))
		return R_NOT_INVERTED;
	tag[c->taglen - 1] ^= 0x80;      /* the last byte a truncated tag has */
	rc = im->aead_decrypt(x->ctx, io.iv, io.ad, c->adlen, out, io.back,
	                      c->len, tag, c->taglen);
	tag[c->taglen - 1] ^= 0x80;
	if (rc == -ENOTSUP)              /* AF_ALG: nothing to read back */
		return 0;
	return rc == -EBADMSG ? 0 : rc ? R_WRONG_REFUSAL : R_BAD_TAG_ACCEPTED;
}

static int run_kdf(struct cb_inst *x, const struct dcase *c, uint8_t *out)
{
	struct cb_kdf_params p = c->kp;

	if (p.secret_len)
		p.secret = io.secret;
	if (p.ad_len)
		p.ad = io.kad;
	return x->impl->derive(x->ctx, x->impl, io.in, c->len, io.salt,
	                       c->saltlen, &p, out, c->outlen);
}

static int run(const struct cb_impl *im, const struct cb_alg *a,
               const struct dcase *c, uint8_t *out)
{
	struct cb_inst x;
	int rc;

	cb_clear_error();
	rc = cb_inst_new(&x, im, a->flags & CB_F_NOKEY ? NULL : io.key,
	                 a->flags & CB_F_NOKEY ? 0 : io.keylen);
	if (rc < 0)
		return rc;
	switch (a->kind) {
	case CB_CIPHER: rc = run_cipher(&x, c, out); break;
	case CB_AEAD: rc = run_aead(&x, c, out); break;
	case CB_KDF: rc = run_kdf(&x, c, out); break;
	default: rc = cb_inst_digest(&x, io.in, c->len, out); break;
	}
	cb_inst_free(&x);
	return rc;
}

/* ---- a case on every implementation ------------------------------------ */

static int key_usable(const struct cb_impl *im, const struct cb_alg *a,
                      const struct dcase *c)
{
	if ((a->flags & CB_F_AUTHENC) || a->kind == CB_MAC ||
	    (a->flags & CB_F_NOKEY))
		return 1;
	return cb_impl_key_ok(im, a, (unsigned)c->kl * 8);
}

static void report_error(const struct cb_impl *im, const struct cb_alg *a,
                         const struct dcase *c, int rc)
{
	static const char *const what[] = {
		[R_NOT_INVERTED] = "decryption does not invert encryption",
		[R_BAD_TAG_ACCEPTED] = "a changed tag verified",
		[R_WRONG_REFUSAL] = "a changed tag: an error other than EBADMSG",
	};
	char buf[400];

	if (rc > 0)
		checkf(0, "defect: %s %s: %s: %s", a->name, c->what, im->driver,
		       what[rc]);
	else
		checkf(0, "defect: %s %s: %s", a->name, c->what,
		       cb_rc_text(buf, sizeof buf, im->driver, rc));
}

/* The outputs that succeeded, compared: the largest group is right. */
static void compare(const struct cb_alg *a, const struct dcase *c,
                    const struct cb_impl *const *im, const int *ok, size_t n)
{
	size_t best = n, agree[MAXIMPL] = {0};

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; ok[i] && j < n; j++)
			if (ok[j] && !memcmp(io.out[i], io.out[j], io.outlen))
				agree[i]++;
	for (size_t i = 0; i < n; i++)
		if (ok[i] && (best == n || agree[i] > agree[best]))
			best = i;
	for (size_t i = 0; best < n && i < n; i++)
		if (ok[i] && i != best)
			checkf(!memcmp(io.out[i], io.out[best], io.outlen),
			       "defect: %s %s: %s differs from %s (%zu agree)",
			       a->name, c->what, im[i]->driver, im[best]->driver,
			       agree[best]);
}

struct impls {
	const struct cb_impl *v[MAXIMPL];
	size_t n;
};

static void try_case(const struct cb_alg *a, const struct impls *is,
                     const struct dcase *c)
{
	int ok[MAXIMPL] = {0};

	set_inputs(a, c);
	ncases++;
	for (size_t i = 0; i < is->n; i++) {
		int rc;

		if (!key_usable(is->v[i], a, c))
			continue;
		memset(io.out[i], 0, io.outlen);
		rc = run(is->v[i], a, c, io.out[i]);
		nrequests++;
		if (rc == -ENOTSUP)
			refusal(is->v[i], a, c);
		else if (rc)
			report_error(is->v[i], a, c, rc);
		else
			ok[i] = 1;
	}
	compare(a, c, is->v, ok, is->n);
}

/* ---- the cases of each kind ------------------------------------------- */

static const size_t lengths[] = {
	0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 100, 255, 256, 512,
	1000, 1472, 4096, 4111, 8192, 65536,
};
#define NLEN (sizeof lengths / sizeof *lengths)

/* Lengths valid for a cipher: multiples of the block where required. */
static int len_ok(const struct cb_alg *a, size_t len)
{
	if ((a->flags & CB_F_BLOCKLEN) && len % a->block)
		return 0;
	return len >= a->min_len || (len == 0 && a->block == 1);
}

/* Every key size the row allows, in bytes. */
static size_t key_sizes(const struct cb_alg *a, size_t *out)
{
	size_t n = 0;

	if (a->flags & CB_F_NOKEY) {
		out[n++] = 0;
		return n;
	}
	for (unsigned b = a->key.min; b <= a->key.max && n < 32; b += a->key.step) {
		out[n++] = b / 8;
		if (!a->key.step)
			break;
	}
	return n;
}

typedef void (*case_fn)(const struct cb_alg *a, const struct impls *is);

static void cipher_cases(const struct cb_alg *a, const struct impls *is)
{
	static const struct { const char *alg; int iv[3]; } edges[] = {
		{ "chacha20", { IV_CHACHA_FFFE, IV_CHACHA_FFFF } },
		{ "ctr(aes)", { IV_CTR32, IV_CTR64, IV_CTR128 } },
	};
	static const size_t wrap_len[] = { 16, 48, 64, 100, 192, 257, 4103 };
	size_t keys[32], nk = key_sizes(a, keys);
	struct dcase c = { .iv = IV_RANDOM };

	for (size_t k = 0; k < nk; k++)
		for (size_t l = 0; l < NLEN; l++) {
			if (!len_ok(a, c.len = lengths[l]))
				continue;
			c.kl = keys[k];
			snprintf(c.what, sizeof c.what, "key %zu len %zu", c.kl * 8,
			         c.len);
			try_case(a, is, &c);
		}
	for (size_t e = 0; e < sizeof edges / sizeof *edges; e++)
		for (size_t v = 0; strcmp(a->name, edges[e].alg) == 0 && v < 3 &&
		     edges[e].iv[v]; v++)
			for (size_t l = 0; l < sizeof wrap_len / sizeof *wrap_len;
			     l++) {
				c.kl = keys[nk - 1], c.len = wrap_len[l];
				c.iv = edges[e].iv[v];
				snprintf(c.what, sizeof c.what, "key %zu len %zu%s",
				         c.kl * 8, c.len, iv_name[c.iv]);
				try_case(a, is, &c);
			}
}

/* The associated data a case has when it varies something else. */
static size_t ad_default(const struct cb_alg *a)
{
	static const size_t pref[] = { 16, 20, 24, 32 };

	for (size_t i = 0; i < sizeof pref / sizeof *pref; i++)
		if (cb_alg_ad_ok(a, pref[i]))
			return pref[i];
	return a->ad_min;
}

static void aead_one(const struct cb_alg *a, const struct impls *is,
                     struct dcase *c, const char *varied)
{
	if (!len_ok(a, c->len))
		return;
	snprintf(c->what, sizeof c->what, "key %zu len %zu%s", c->kl * 8,
	         c->len, varied);
	try_case(a, is, c);
}

static void aead_cases(const struct cb_alg *a, const struct impls *is)
{
	static const size_t ads[] = { 0, 1, 8, 12, 15, 16, 17, 20, 24, 31, 32,
	                              33, 64, 255, 256, 1000, 4096 };
	static const size_t few[] = { 0, 1, 16, 17, 64, 1472 };
	static const size_t akls[] = { 0, 1, 20, 32, 64, 65, 100 };
	size_t keys[32], nk = key_sizes(a, keys);
	struct dcase c = { .akl = 32, .taglen = a->digest_len,
	                   .adlen = ad_default(a) };
	char v[48];

	for (size_t k = 0; k < nk; k++)
		for (size_t l = 0; l < NLEN; l++) {
			c.kl = keys[k], c.len = lengths[l];
			aead_one(a, is, &c, "");
		}
	c.kl = keys[nk - 1];
	for (size_t t = 1; t < 64; t++)
		for (size_t l = 0; cb_alg_tag_ok(a, t) && l < 6; l++) {
			c.taglen = t, c.len = few[l];
			snprintf(v, sizeof v, " tag %zu", t);
			aead_one(a, is, &c, v);
		}
	c.taglen = a->digest_len;
	for (size_t d = 0; d < sizeof ads / sizeof *ads; d++)
		for (size_t l = 0; cb_alg_ad_ok(a, ads[d]) && l < 6; l++) {
			c.adlen = ads[d], c.len = few[l];
			snprintf(v, sizeof v, " ad %zu", c.adlen);
			aead_one(a, is, &c, v);
		}
	c.adlen = ad_default(a);
	for (size_t k = 0; (a->flags & CB_F_AUTHENC) && k < 7; k++) {
		c.akl = akls[k], c.len = 32;
		snprintf(v, sizeof v, " hmac key %zu", c.akl);
		aead_one(a, is, &c, v);
	}
}

/* Hash and HMAC messages: the padding edges of 64- and 128-byte blocks. */
static const size_t msgs[] = {
	0, 1, 55, 56, 63, 64, 65, 111, 112, 119, 120, 127, 128, 129, 1000,
	4096, 65536,
};

static void digest_cases(const struct cb_alg *a, const struct impls *is)
{
	static const size_t mac_keys[] = { 0, 1, 16, 32, 63, 64, 65, 127, 128,
	                                   129, 200 };
	size_t nk = a->kind == CB_MAC ? sizeof mac_keys / sizeof *mac_keys : 1;
	struct dcase c = { .kl = 0 };

	for (size_t k = 0; k < nk; k++)
		for (size_t m = 0; m < sizeof msgs / sizeof *msgs; m++) {
			c.kl = a->kind == CB_MAC ? mac_keys[k] : 0;
			c.len = msgs[m];
			snprintf(c.what, sizeof c.what, "key %zu bytes msg %zu", c.kl,
			         c.len);
			try_case(a, is, &c);
		}
}

/* KDF cases: one parameter set to each of vals in turn, the rest the
 * base's (K_LANES: at Argon2's least memory, 8 KiB a lane). */
enum kfield { K_PASS, K_SALT, K_OUT, K_ITER, K_MEM, K_LANES };

static void kdf_vary(const struct cb_alg *a, const struct impls *is,
                     const struct dcase *base, enum kfield f,
                     const size_t *vals, size_t n)
{
	static const char *const name[] = { "password", "salt", "out",
	                                    "passes", "memory", "lanes" };

	for (size_t i = 0; i < n; i++) {
		struct dcase c = *base;
		uint32_t v = (uint32_t)vals[i];

		switch (f) {
		case K_PASS: c.len = v; break;
		case K_SALT: c.saltlen = v; break;
		case K_OUT: c.outlen = v; break;
		case K_ITER: c.kp.iterations = v; break;
		case K_MEM: c.kp.memory = v; break;
		case K_LANES: c.kp.lanes = v, c.kp.memory = 8 * v; break;
		}
		snprintf(c.what, sizeof c.what, "%s %zu (password %zu salt %zu "
		         "out %zu t %u m %u p %u)", a->inner && f == K_ITER
		         ? "iterations" : name[f], vals[i], c.len, c.saltlen,
		         c.outlen, c.kp.iterations, c.kp.memory, c.kp.lanes);
		try_case(a, is, &c);
	}
}
#define VARY(a, is, b, f, ...) do {                                           \
	const size_t v_[] = { __VA_ARGS__ };                                  \
	kdf_vary(a, is, b, f, v_, sizeof v_ / sizeof *v_);                   \
} while (0)

static void pbkdf2_cases(const struct cb_alg *a, const struct impls *is)
{
	size_t dl = cb_alg_find(a->inner, NULL)->digest_len;
	struct dcase b = { .len = 8, .saltlen = 16, .outlen = 32,
	                   .kp = { .iterations = 3 } };

	VARY(a, is, &b, K_PASS, 0, 1, 63, 64, 65, 127, 128, 129, 300);
	VARY(a, is, &b, K_SALT, 0, 1, 8, 64, 65, 200);
	VARY(a, is, &b, K_OUT, 1, 4, dl - 1, dl, dl + 1, 2 * dl + 5, 200);
	VARY(a, is, &b, K_ITER, 1, 2, 5, 1000);
}

static void argon2_cases(const struct cb_alg *a, const struct impls *is)
{
	struct dcase b = { .len = 8, .saltlen = 16, .outlen = 32,
	                   .kp = { .iterations = 1, .memory = 16, .lanes = 2 } };

	VARY(a, is, &b, K_PASS, 0, 1, 64, 65, 300);
	VARY(a, is, &b, K_SALT, 8, 9, 64, 300);
	VARY(a, is, &b, K_OUT, 4, 5, 31, 32, 33, 63, 64, 65, 128, 1024);
	VARY(a, is, &b, K_ITER, 1, 2, 3, 4);
	VARY(a, is, &b, K_MEM, 16, 17, 19, 24, 33, 64);
	VARY(a, is, &b, K_LANES, 1, 2, 3, 4, 8);
	b.kp.secret_len = 32, b.kp.ad_len = 12;
	snprintf(b.what, sizeof b.what, "secret 32 associated data 12");
	try_case(a, is, &b);
}

static void kdf_cases(const struct cb_alg *a, const struct impls *is)
{
	if (a->inner)
		pbkdf2_cases(a, is);
	else
		argon2_cases(a, is);
}

/* ---- main --------------------------------------------------------------- */

static size_t find_impls(const struct cb_alg *a, const char *only,
                         struct impls *is)
{
	int has_only = !only;

	is->n = 0;
	for (int b = 0; cb_backends[b]; b++) {
		const struct cb_impl *im;

		if (cb_backend_status(cb_backends[b], NULL) < 0)
			continue;
		for (int n = 0; (im = cb_impl_find(cb_backends[b], a->name, n)); n++)
			if (cb_impl_status(im, NULL) == 0 && is->n < MAXIMPL) {
				is->v[is->n++] = im;
				has_only |= only && !strcmp(cb_backends[b]->name, only);
			}
	}
	return has_only ? is->n : 0;
}

static void print_refusals(void)
{
	for (size_t i = 0; i < nrefused; i++)
		printf("refused: %s: %s (%u requests; first: %s)\n",
		       refused[i].driver, refused[i].why, refused[i].n,
		       refused[i].first);
}

int main(int argc, char **argv)
{
	static const case_fn by_kind[] = {
		[CB_CIPHER] = cipher_cases, [CB_AEAD] = aead_cases,
		[CB_HASH] = digest_cases, [CB_MAC] = digest_cases,
		[CB_KDF] = kdf_cases,
	};
	const char *only = NULL;

	if (cb_cpu_level_apply(&argc, argv))
		return 2;
	if (argc == 3 && !strcmp(argv[1], "--only"))
		only = argv[2];
	else if (argc != 1) {
		fprintf(stderr, "usage: test_diff [--cpu LEVEL] [--only BACKEND]\n");
		return 2;
	}
	io.in = malloc(MAXLEN), io.ad = malloc(MAXLEN), io.back = malloc(MAXLEN);
	for (size_t i = 0; i < MAXIMPL; i++)
		io.out[i] = malloc(MAXLEN);
	printf("cpu level: %s\n", cb_cpu_level_name());
	for (size_t ai = 0; ai < cb_nalgs; ai++) {
		const struct cb_alg *a = &cb_algs[ai];
		struct impls is;
		unsigned before = ncases, req = nrequests;

		if (!find_impls(a, only, &is))
			continue;
		by_kind[a->kind](a, &is);
		printf("%s: %u cases, %u requests on %zu implementation(s)%s\n",
		       a->name, ncases - before, nrequests - req, is.n,
		       is.n < 2 ? " (nothing to compare with)" : "");
	}
	print_refusals();
	printf("%u cases, %u requests, %zu kinds of refusal\n", ncases, nrequests,
	       nrefused);
	free(io.in), free(io.ad), free(io.back);
	for (size_t i = 0; i < MAXIMPL; i++)
		free(io.out[i]);
	return finish();
}
