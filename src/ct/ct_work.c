/*
 * ct_work.c - the requests both methods run on an implementation: keyed
 * with a random key of the algorithm's usual size, then requests of 16, 64
 * and 512 bytes (what the algorithm takes of them) in each direction.  The
 * memcheck child passes hooks that mark the key and the data secret
 * (undefined) and the outputs public again, so that nothing but the
 * implementation itself computes on a secret; the timing test runs the
 * same calls without them.
 */
#include <stdlib.h>
#include <string.h>

#include "ct/ct.h"
#include "measure/gate.h"
#include "output/result.h"
#include "foundation/util.h"

/* The names are the readers' table (output/verdicts.c), in this order. */
const char *ct_verdict_name(enum ct_verdict v)
{
	return cb_ct_verdicts[v].name;
}

static void mark(void (*fn)(const void *, size_t), const void *p, size_t n)
{
	if (fn && n)
		fn(p, n);
}

unsigned ct_key_bits(const struct cb_alg *a)
{
	if (a->flags & CB_F_NOKEY)
		return 0;
	return a->key.std[0] ? a->key.std[0] : a->key.min;
}

int ct_work_dirs(const struct cb_alg *a)
{
	return a->kind == CB_CIPHER || a->kind == CB_AEAD ? 2 : 1;
}

size_t ct_work_lengths(const struct cb_alg *a, size_t *lens)
{
	static const size_t sizes[] = CT_SIZES;
	size_t n = 0;

	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		size_t l = sizes[i];

		if (a->kind == CB_KDF && i)       /* one derivation is enough */
			break;
		if ((a->flags & CB_F_BLOCKLEN) && l % a->block)
			continue;
		if (l < a->min_len)
			continue;
		lens[n++] = l;
	}
	return n;
}

int ct_work_new(struct ct_work *w, const struct cb_impl *impl)
{
	memset(w, 0, sizeof *w);
	w->impl = impl;
	w->alg = cb_alg_find(impl->alg, NULL);
	if (!w->alg)
		return -EINVAL;
	w->key_bits = ct_key_bits(w->alg);
	w->keylen = gate_make_key(w->alg, w->key_bits, w->key);
	w->cap = 512 + 64;
	w->in = cb_xmalloc(w->cap);
	w->out = cb_xmalloc(w->cap);
	w->back = cb_xmalloc(w->cap);
	w->tag = cb_xmalloc(CB_MAX_DIGEST + 64);
	cb_random(w->in, w->cap);
	cb_random(w->iv, sizeof w->iv);
	cb_random(w->ad, sizeof w->ad);
	cb_random(w->salt, sizeof w->salt);
	return 0;
}

void ct_work_free(struct ct_work *w)
{
	free(w->in), free(w->out), free(w->back), free(w->tag);
	cb_wipe(w->key, sizeof w->key);
}

int ct_work_key(struct ct_work *w, struct cb_inst *x, const struct ct_hooks *h)
{
	size_t skip = w->alg->flags & CB_F_AUTHENC ? 8 : 0;  /* rtattr: public */
	int rc;

	if (h && h->phase)
		h->phase("key");
	mark(h ? h->secret : NULL, w->key + skip, w->keylen - skip);
	rc = cb_inst_new(x, w->impl, w->keylen ? w->key : NULL, w->keylen);
	if (h && h->phase)
		h->phase("requests");
	return rc;
}

/* AEAD: encrypt into out and tag, or decrypt what the encryption gave. */
static int aead(struct ct_work *w, struct cb_inst *x, int dir, size_t len)
{
	const struct cb_impl *im = w->impl;
	size_t tl = w->alg->digest_len, adl = w->alg->ad_lens ? 16 : 24;

	if (!dir)
		return im->aead_encrypt(x->ctx, w->iv, w->ad, adl, w->in, w->out,
		                        len, w->tag, tl);
	return im->aead_decrypt(x->ctx, w->iv, w->ad, adl, w->out, w->back, len,
	                        w->tag, tl);
}

static int call(struct ct_work *w, struct cb_inst *x, int dir, size_t len)
{
	const struct cb_impl *im = w->impl;
	struct cb_kdf_params p = { .iterations = 2, .memory = 8, .lanes = 1 };

	switch (w->alg->kind) {
	case CB_CIPHER: {
		const uint8_t *iv = w->alg->iv_len ? w->iv : NULL;

		return dir ? im->decrypt(x->ctx, iv, w->out, w->back, len)
		           : im->encrypt(x->ctx, iv, w->in, w->out, len);
	}
	case CB_AEAD:
		return aead(w, x, dir, len);
	case CB_KDF:
		return im->derive(x->ctx, im, w->in, len, w->salt, sizeof w->salt,
		                  &p, w->out, w->alg->digest_len);
	default:
		return cb_inst_digest(x, w->in, len, w->out);
	}
}

int ct_work_request(struct ct_work *w, struct cb_inst *x, int dir, size_t len,
                    const struct ct_hooks *h)
{
	/* decrypt takes encrypt's output: the secret is then the ciphertext
	 * (and the tag an AEAD checks against it) */
	uint8_t *data = dir ? w->out : w->in;
	int rc;

	mark(h ? h->secret : NULL, data, len);
	rc = call(w, x, dir, len);
	mark(h ? h->public : NULL, w->out, len);
	mark(h ? h->public : NULL, w->back, len);
	mark(h ? h->public : NULL, w->tag, w->alg->digest_len);
	mark(h ? h->public : NULL, &rc, sizeof rc);
	return rc;
}

/*
 * An AEAD's decryption ends in a branch on whether the tag verified:
 * public by design, and memcheck cannot tell it from a leak.  So memcheck
 * runs its encryption (the same cipher and authenticator code) and the
 * timing test its decryption too (docs/ct.md).
 */
int ct_work_all(const struct cb_impl *impl, const struct ct_hooks *h)
{
	struct ct_work w;
	struct cb_inst x;
	size_t lens[4], nl;
	int rc, dirs;

	if ((rc = ct_work_new(&w, impl)) < 0)
		return rc;
	dirs = w.alg->kind == CB_AEAD ? 1 : ct_work_dirs(w.alg);
	if ((rc = ct_work_key(&w, &x, h)) == 0) {
		nl = ct_work_lengths(w.alg, lens);
		for (int d = 0; d < dirs && !rc; d++)
			for (size_t i = 0; i < nl && !rc; i++) {
				if (d == 1)             /* decrypt what it encrypted */
					rc = ct_work_request(&w, &x, 0, lens[i], NULL);
				if (!rc)
					rc = ct_work_request(&w, &x, d, lens[i], h);
			}
		cb_inst_free(&x);
	}
	ct_work_free(&w);
	return rc;
}
