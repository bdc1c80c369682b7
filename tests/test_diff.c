/*
 * test_diff.c - differential test: random keys, IVs and messages of many
 * lengths (0, 1, block-1, block, odd sizes, up to 64 KiB) through every
 * available implementation of every algorithm; all must agree byte for
 * byte with the first one, and decryption must invert encryption.
 * Deterministic: the inputs come from a fixed-seed generator, so a failure
 * reproduces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "system/cpulevel.h"

#include "check.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;

static void fill(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		p[i] = (uint8_t)rng;
	}
}

static const size_t lengths[] = {
	0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 48, 63, 64, 100, 255, 256, 512,
	1000, 1472, 4096, 4111, 8192, 65536,
};

/* Lengths valid for a: multiples of the block where required, >= min. */
static int len_ok(const struct cb_alg *a, size_t len)
{
	if (a->kind == CB_HASH || a->kind == CB_MAC)
		return 1;
	if (a->kind == CB_KDF)             /* the length is the password's */
		return len <= 1472;
	if ((a->flags & CB_F_BLOCKLEN) && len % a->block)
		return 0;
	return len >= a->min_len || (len == 0 && a->block == 1);
}

static size_t key_bytes_list(const struct cb_alg *a, unsigned *out)
{
	size_t n = 0;

	if (a->flags & CB_F_NOKEY)
		out[n++] = 0;
	else if (a->flags & CB_F_ANYKEY) {
		out[n++] = 0; out[n++] = 16; out[n++] = 64; out[n++] = 131;
	} else if (a->key.step && (a->key.max - a->key.min) / a->key.step > 4) {
		out[n++] = a->key.min / 8; out[n++] = a->key.std[0] / 8;
		out[n++] = a->key.max / 8;
	} else
		for (unsigned b = a->key.min; b <= a->key.max; b += a->key.step) {
			out[n++] = b / 8;
			if (!a->key.step)
				break;
		}
	return n;
}

/* Build a kernel authenc key blob around an AES key of eklen bytes. */
static size_t authenc_key(uint8_t *blob, size_t eklen)
{
	blob[0] = 8, blob[1] = 0, blob[2] = 1, blob[3] = 0;
	blob[4] = 0, blob[5] = 0, blob[6] = 0, blob[7] = (uint8_t)eklen;
	fill(blob + 8, 32 + eklen);
	return 8 + 32 + eklen;
}

static int run(const struct cb_impl *im, const uint8_t *key, size_t kl,
               const uint8_t *iv, const uint8_t *in, size_t len,
               uint8_t *out, uint8_t *back)
{
	const struct cb_alg *a = cb_alg_find(im->alg, NULL);
	struct cb_inst x;
	uint8_t ad[40];
	int rc;

	fill(ad, 0);   /* ad is derived from len only, identical per impl */
	for (size_t i = 0; i < sizeof ad; i++)
		ad[i] = (uint8_t)(len * 7 + i);
	rc = cb_inst_new(&x, im, a->flags & CB_F_NOKEY ? NULL : key,
	                 a->flags & CB_F_NOKEY ? 0 : kl);
	if (rc < 0)
		return rc;
	switch (a->kind) {
	case CB_CIPHER:
		rc = im->encrypt(x.ctx, a->iv_len ? iv : NULL, in, out, len);
		if (!rc)
			rc = im->decrypt(x.ctx, a->iv_len ? iv : NULL, out, back, len);
		break;
	case CB_KDF: {
		/* the message as password, the IV as salt, a cost from len */
		struct cb_kdf_params p = { .iterations = (uint32_t)(len % 7 + 1),
		                           .memory = a->inner ? 0 : 8 + len % 24,
		                           .lanes = a->inner ? 0 : 1 + len % 2 };

		rc = im->derive(x.ctx, im, in, len, iv, 16, &p, out, a->digest_len);
		break;
	}
	case CB_AEAD:
		rc = im->aead_encrypt(x.ctx, iv, ad, sizeof ad, in, out, len,
		                      out + len, 16);
		if (!rc)
			rc = im->aead_decrypt(x.ctx, iv, ad, sizeof ad, out, back,
			                      len, out + len, 16);
		break;
	default:
		rc = cb_inst_digest(&x, in, len, out);
		break;
	}
	cb_inst_free(&x);
	return rc;
}

/* CRYPTOBENCH_CPU / --cpu LEVEL runs it at one CPU level (test_cpu.sh). */
int main(int argc, char **argv)
{
	size_t maxlen = 65536 + 64;
	uint8_t *in = malloc(maxlen), *ref = malloc(maxlen), *out = malloc(maxlen);
	uint8_t *back = malloc(maxlen);
	uint8_t key[256], iv[CB_MAX_BLOCK];

	if (cb_cpu_level_apply(&argc, argv))
		return 2;
	printf("cpu level: %s\n", cb_cpu_level_name());
	for (size_t ai = 0; ai < cb_nalgs; ai++) {
		const struct cb_alg *a = &cb_algs[ai];
		const struct cb_impl *impls[16];
		size_t nimpl = 0;
		unsigned kbs[16];
		size_t nk = key_bytes_list(a, kbs);

		for (int b = 0; cb_backends[b]; b++) {
			const struct cb_impl *im;

			if (cb_backend_status(cb_backends[b], NULL) < 0)
				continue;
			for (int n = 0; (im = cb_impl_find(cb_backends[b], a->name, n));
			     n++)
				if (cb_impl_status(im, NULL) == 0 && nimpl < 16)
					impls[nimpl++] = im;
		}
		if (nimpl < 2)
			printf("note: %s has %zu implementation(s) here\n", a->name,
			       nimpl);
		for (size_t k = 0; k < nk; k++)
			for (size_t li = 0; li < sizeof lengths / sizeof *lengths; li++) {
				size_t len = lengths[li], kl = kbs[k], outlen;
				const struct cb_impl *first = NULL;

				if (!len_ok(a, len))
					continue;
				fill(key, sizeof key);
				fill(iv, sizeof iv);
				fill(in, len);
				if (a->flags & CB_F_AUTHENC)
					kl = authenc_key(key, kbs[k]);
				outlen = a->kind == CB_HASH || a->kind == CB_MAC ||
				         a->kind == CB_KDF ? a->digest_len
				         : len + (a->kind == CB_AEAD ? 16 : 0);
				for (size_t i = 0; i < nimpl; i++) {
					const struct cb_impl *im = impls[i];
					int rc;

					if (!(a->flags & CB_F_AUTHENC) && a->kind != CB_MAC &&
					    !cb_impl_key_ok(im, a, (unsigned)kl * 8))
						continue;
					memset(out, 0, outlen);
					rc = run(im, key, kl, iv, in, len, out, back);
					if (rc == -ENOTSUP)
						continue;
					if (rc < 0) {
						checkf(0, "%s %s key %zu len %zu: error %d",
						       a->name, im->driver, kl * 8, len, rc);
						continue;
					}
					if ((a->kind == CB_CIPHER || a->kind == CB_AEAD) &&
					    memcmp(back, in, len)) {
						checkf(0, "%s %s key %zu len %zu: decrypt does "
						       "not invert encrypt", a->name, im->driver,
						       kl * 8, len);
						continue;
					}
					if (!first) {
						first = im;
						memcpy(ref, out, outlen);
						continue;
					}
					checkf(!memcmp(ref, out, outlen),
					       "%s key %zu len %zu: %s differs from %s",
					       a->name, kl * 8, len, im->driver,
					       first->driver);
				}
			}
	}
	free(in), free(ref), free(out), free(back);
	return finish();
}
