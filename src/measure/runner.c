/*
 * runner.c - the timed request loops of `speed` and `bench`.  The loops
 * call the implementation through its function pointers and nothing
 * else; the timing engine (timing.c) reads the clock once per batch.
 */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "measure/runner.h"
#include "foundation/util.h"


/*
 * The per-request ring: consecutive requests are different sectors, so
 * they go to different buffers (in place within each), up to 16 of them
 * in at most 64 KiB.  With one buffer, each request's input would be the
 * previous request's output and every implementation would be timed as
 * one dependent chain - latency, not the throughput a disk write sees.
 */
#define RING_BYTES (64 * 1024)
#define RING_MAX   16

size_t runner_ring_stride(size_t len)
{
	return (len + 63) & ~(size_t)63;
}

size_t runner_ring_slots(size_t len, unsigned mb)
{
	size_t n = RING_BYTES / (runner_ring_stride(len) ? runner_ring_stride(len) : 64);

	n = n < 1 ? 1 : n > RING_MAX ? RING_MAX : n;
	return n < mb ? mb : n;
}

/* Bytes of buffer a request model of len bytes touches. */
size_t runner_ring_bytes(size_t len, unsigned mb)
{
	return runner_ring_slots(len, mb) * runner_ring_stride(len);
}

/* --iv per-request: every request gets its own IV, le64(request number)
 * (none for ecb and null), and its own buffer of the ring. */
/* An IV's counter as one 16-byte store (the rest of the IV is zero), so
 * that a 16-byte load of the IV soon after is forwarded from it: gcc 12
 * -O2 stores a uint64_t[2] as two 8-byte halves, and a wider load waits on
 * those until they reach L1 - which serialises consecutive requests. */
typedef uint64_t iv_vec __attribute__((vector_size(16)));

int runner_cipher_fresh(void *arg, uint64_t n)
{
	struct runner *r = arg;
	cb_crypt_fn crypt = r->crypt;
	void *ctx = r->ctx;
	uint8_t *base = r->buf, *iv = r->iv;
	const uint8_t *pass = r->alg->iv_len ? iv : NULL;
	size_t len = r->len, stride = r->stride, nring = r->nring;
	size_t slot = (size_t)(r->ctr % nring);
	uint64_t c = r->ctr;
	int rc;

	for (uint64_t i = 0; i < n; i++) {
		uint8_t *b = base + slot * stride;
		iv_vec w = { htole64(c), 0 };

		c++;
		memcpy(iv, &w, 16);
		if ((rc = crypt(ctx, pass, b, b, len)) < 0)
			return rc;
		if (++slot == nring)
			slot = 0;
	}
	r->ctr = c;
	return 0;
}

/* --iv once: the IV set by the first request, later ones continue the
 * chain (iv NULL).  Algorithms without CB_F_STREAM get the same IV again. */
int runner_cipher_once(void *arg, uint64_t n)
{
	struct runner *r = arg;
	cb_crypt_fn crypt = r->crypt;
	void *ctx = r->ctx;
	uint8_t *b = r->buf;
	const uint8_t *iv = r->alg->flags & CB_F_STREAM &&
	                    !r->impl->no_chain ? NULL : r->iv;
	size_t len = r->len;
	int rc;

	if (!n)
		return 0;
	if (!r->started) {
		r->started = 1;
		if ((rc = crypt(ctx, r->alg->iv_len ? r->iv : NULL, b, b,
		                len)) < 0)
			return rc;
		n--;
	}
	for (uint64_t i = 0; i < n; i++)
		if ((rc = crypt(ctx, iv, b, b, len)) < 0)
			return rc;
	return 0;
}

/* --sector-size: a request is len/sector consecutive sectors. */
int runner_cipher_sectors(void *arg, uint64_t n)
{
	struct runner *r = arg;
	struct cb_inst *inst = r->inst;
	int enc = r->dir == DIR_ENC;
	uint8_t *b = r->buf;
	size_t len = r->len, sector = r->sector;
	uint64_t c = r->ctr, per = len / sector;
	int rc;

	for (uint64_t i = 0; i < n; i++, c += per)
		if ((rc = cb_inst_sectors(inst, enc, c, 1, sector, b, b, len)) < 0)
			return rc;
	r->ctr = c;
	return 0;
}

/*
 * --mb N: tcrypt's multibuffer mode.  N independent requests at a time,
 * request i of a submission in its own ring slot with its own IV
 * le64(request number), handed over together through cb_inst_batch(): an
 * implementation's batch entry point (native interleaves the chains) or,
 * for the others, the core's loop one after another.  n counts requests;
 * the timing engine's batches are whole submissions (measure.c), only the
 * gate's and the warm-up's last may be shorter.
 */
int runner_cipher_mb(void *arg, uint64_t n)
{
	struct runner *r = arg;
	const uint8_t *ivs[CB_MB_MAX], *in[CB_MB_MAX];
	uint8_t *out[CB_MB_MAX];
	int enc = r->dir == DIR_ENC, has_iv = r->alg->iv_len != 0;
	size_t slot = (size_t)(r->ctr % r->nring);
	uint64_t c = r->ctr;
	int rc;

	while (n) {
		unsigned k = n < r->mb ? (unsigned)n : r->mb;

		for (unsigned i = 0; i < k; i++) {
			/* one 16-byte store, so that a batch entry point's
			 * 16-byte load of the IV is forwarded from it: from a
			 * uint64_t[2], gcc 12 -O2 stored two 8-byte halves,
			 * which a 16-byte load waits on until they reach L1 */
			iv_vec w = { htole64(c), 0 };

			c++;
			memcpy(r->mbiv[i], &w, 16);
			ivs[i] = r->mbiv[i];
			in[i] = out[i] = r->buf + slot * r->stride;
			if (++slot == r->nring)
				slot = 0;
		}
		if ((rc = cb_inst_batch(r->inst, enc, k, has_iv ? ivs : NULL, in,
		                        out, r->len)) < 0)
			return rc;
		n -= k;
	}
	r->ctr = c;
	return 0;
}

/* Hashes and MACs: init + update + final per request, as tcrypt. */
static int run_digest(void *arg, uint64_t n)
{
	struct runner *r = arg;
	const struct cb_impl *im = r->impl;
	int (*init)(void *) = im->init;
	int (*update)(void *, const uint8_t *, size_t) = im->update;
	int (*final)(void *, uint8_t *) = im->final;
	void *ctx = r->ctx;
	const uint8_t *b = r->buf;
	uint8_t *d = r->digest;
	size_t len = r->len;
	int rc;

	for (uint64_t i = 0; i < n; i++)
		if ((rc = init(ctx)) < 0 || (rc = update(ctx, b, len)) < 0 ||
		    (rc = final(ctx, d)) < 0)
			return rc;
	return 0;
}

/*
 * A KDF request: one derivation of a 32-byte key from cryptsetup's
 * benchmark password and salt, its cost the request size: PBKDF2 len
 * iterations; Argon2 one pass over len KiB in one lane (at least 8 KiB,
 * Argon2's minimum).  So bytes_per_sec reads iterations per second, or
 * KiB of Argon2 memory filled per second (docs/speed.md).
 */
static int run_kdf(void *arg, uint64_t n)
{
	static const uint8_t pass[] = "foobarfo", salt[] = "0123456789abcdef";
	struct runner *r = arg;
	int argon = !r->alg->inner;
	struct cb_kdf_params p = {
		.iterations = argon ? 1 : (uint32_t)r->len,
		.memory = argon ? (uint32_t)(r->len < 8 ? 8 : r->len) : 0,
		.lanes = argon,
	};
	int rc;

	for (uint64_t i = 0; i < n; i++)
		if ((rc = r->impl->derive(r->ctx, r->impl, pass, 8, salt, 16, &p,
		                          r->digest, r->alg->digest_len)) < 0)
			return rc;
	return 0;
}

/* The associated data of an AEAD request: the algorithm's (16 for gcm,
 * rfc4106 and rfc7539: ESP's), else dm-crypt's 24 for authenc. */
static size_t aead_ad_len(const struct cb_alg *a)
{
	return a->assoc_len ? a->assoc_len : AEAD_AD_LEN;
}

/* AEAD encrypt in place; per-request IVs unless --iv once. */
static int run_aead_enc(void *arg, uint64_t n)
{
	struct runner *r = arg;
	int (*enc)(void *, const uint8_t *, const uint8_t *, size_t,
	           const uint8_t *, uint8_t *, size_t, uint8_t *, size_t) =
	        r->impl->aead_encrypt;
	void *ctx = r->ctx;
	uint8_t *b = r->buf, *iv = r->iv, *tag = r->tag;
	size_t len = r->len, taglen = r->alg->digest_len;
	size_t adl = aead_ad_len(r->alg);
	uint64_t c = r->ctr;
	int rc;

	for (uint64_t i = 0; i < n; i++) {
		if (!r->iv_once)
			cb_put_le64(iv, c++);
		if ((rc = enc(ctx, iv, r->ad, adl, b, b, len, tag,
		              taglen)) < 0)
			return rc;
	}
	r->ctr = c;
	return 0;
}

/* AEAD decrypt: verify and decrypt the same ciphertext out of place, so
 * every request authenticates (tcrypt also decrypts into a second
 * buffer). */
static int run_aead_dec(void *arg, uint64_t n)
{
	struct runner *r = arg;
	int (*dec)(void *, const uint8_t *, const uint8_t *, size_t,
	           const uint8_t *, uint8_t *, size_t, const uint8_t *,
	           size_t) = r->impl->aead_decrypt;
	void *ctx = r->ctx;
	const uint8_t *b = r->buf, *iv = r->iv, *tag = r->tag;
	uint8_t *o = r->buf2;
	size_t len = r->len, taglen = r->alg->digest_len;
	size_t adl = aead_ad_len(r->alg);
	int rc;

	for (uint64_t i = 0; i < n; i++)
		if ((rc = dec(ctx, iv, r->ad, adl, b, o, len, tag,
		              taglen)) < 0)
			return rc;
	return 0;
}

cb_run_fn runner_fn(const struct runner *r)
{
	switch (r->alg->kind) {
	case CB_HASH:
	case CB_MAC:
		return run_digest;
	case CB_AEAD:
		return r->dir == DIR_ENC ? run_aead_enc : run_aead_dec;
	case CB_KDF:
		return run_kdf;
	case CB_CIPHER:
		break;
	}
	if (r->sector)
		return runner_cipher_sectors;
	if (r->mb)
		return runner_cipher_mb;
	return r->iv_once ? runner_cipher_once : runner_cipher_fresh;
}

/*
 * Get a runner ready for requests of len bytes: counters from zero, the
 * IV and associated data fixed, and for AEAD decryption a ciphertext and
 * tag made by this implementation's encryption of the buffer.
 */
int runner_prep(struct runner *r, struct cb_inst *inst, int dir,
                int iv_once, size_t sector, unsigned mb, uint8_t *buf,
                uint8_t *buf2, size_t len)
{
	r->impl = inst->impl;
	r->alg = inst->alg;
	r->inst = inst;
	r->ctx = inst->ctx;
	r->dir = dir;
	r->iv_once = iv_once;
	r->sector = inst->alg->kind == CB_CIPHER ? sector : 0;
	r->buf = buf;
	r->buf2 = buf2;
	r->len = len;
	r->mb = inst->alg->kind == CB_CIPHER ? mb : 0;
	r->stride = runner_ring_stride(len);
	r->nring = runner_ring_slots(len, r->mb);
	memset(r->mbiv, 0, sizeof r->mbiv);
	r->ctr = 0;
	r->started = 0;
	memset(r->iv, 0, sizeof r->iv);
	memset(r->tag, 0, sizeof r->tag);
	for (int i = 0; i < AEAD_AD_LEN; i++)
		r->ad[i] = (uint8_t)(0xa0 + i);
	r->crypt = dir == DIR_ENC ? r->impl->encrypt : r->impl->decrypt;
	if (r->alg->kind == CB_AEAD && dir == DIR_DEC) {
		cb_put_le64(r->iv, 0x5ec7);
		return r->impl->aead_encrypt(r->ctx, r->iv, r->ad, aead_ad_len(r->alg),
		                             buf, buf, len, r->tag,
		                             r->alg->digest_len);
	}
	return 0;
}

/*
 * Request buffers start on a page (cb_xbuffer: from 256 KiB on a huge
 * page).  Where a buffer sits within its 4 KiB page decides whether its
 * loads falsely alias a library's own stores (its IV and context) on x86 -
 * that alone moved 16-byte CBC results by 1.5x between runs whose heaps
 * differed - so the offset is fixed, not left to the allocation history.
 */
void runner_bufs_alloc(struct bufs *bf)
{
	bf->a = cb_xbuffer(bf->size);
	bf->a2 = cb_xbuffer(bf->size);
	bf->b = cb_xbuffer(bf->size);
	bf->b2 = cb_xbuffer(bf->size);
}

void runner_bufs_free(struct bufs *bf)
{
	free(bf->a);
	free(bf->a2);
	free(bf->b);
	free(bf->b2);
}

char *runner_err(const char *what, int rc)
{
	char buf[400];

	cb_rc_text(buf, sizeof buf, what, rc);
	cb_clear_error();
	return cb_xstrdup(buf);
}
