/*
 * test_batch.c - cb_inst_batch(): n independent requests give what n
 * single requests give, on every usable cipher implementation with an IV
 * (through its batch entry point where it has one, else the core's
 * one-after-another loop), encrypt and decrypt, in place and out of
 * place; a missing IV array is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"

#include "check.h"

#define N    7
#define LEN  4096

static uint64_t rng = 0x2545f4914f6cdd1du;

static void fill(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		p[i] = (uint8_t)rng;
	}
}

/* One implementation: the batch equals N single requests both ways. */
static void one_impl(const struct cb_impl *im, const struct cb_alg *a)
{
	static uint8_t in[N][LEN], one[N][LEN], out[N][LEN], ivs[N][CB_MAX_BLOCK];
	const uint8_t *inp[N], *ivp[N];
	uint8_t *outp[N], key[CB_MAX_KEY];
	struct cb_inst inst;
	int ok = 1;

	fill(key, sizeof key);
	if (cb_inst_new(&inst, im, key, a->key.std[0] / 8) < 0)
		return;
	fill(&in[0][0], sizeof in);
	fill(&ivs[0][0], sizeof ivs);
	for (int enc = 1; enc >= 0; enc--) {
		cb_crypt_fn fn = enc ? im->encrypt : im->decrypt;

		for (int i = 0; i < N; i++) {
			inp[i] = in[i];
			ivp[i] = ivs[i];
			outp[i] = out[i];
			ok &= fn(inst.ctx, ivs[i], in[i], one[i], LEN) == 0;
		}
		ok &= cb_inst_batch(&inst, enc, N, ivp, inp, outp, LEN) == 0;
		ok &= !memcmp(out, one, sizeof out);
		memcpy(out, in, sizeof out);                   /* in place */
		for (int i = 0; i < N; i++)
			inp[i] = out[i];
		ok &= cb_inst_batch(&inst, enc, N, ivp, inp, outp, LEN) == 0;
		ok &= !memcmp(out, one, sizeof out);
	}
	checkf(ok, "%s: a batch of %d = %d single requests", im->driver, N, N);
	checkf(cb_inst_batch(&inst, 1, N, NULL, inp, outp, LEN) == -EINVAL,
	       "%s: a batch without IVs is refused", im->driver);
	cb_inst_free(&inst);
}

/*
 * Every batch width a batch entry point handles differently (lanes in
 * flight, a partial group, one request) at the lengths that matter (one
 * block, a 512-byte sector, a 4 KiB page): the batch equals the requests
 * one at a time - what speed --mb's timed loop relies on.
 */
#define WMAX 17
static void widths(const struct cb_impl *im, const struct cb_alg *a,
                   unsigned bits)
{
	static const unsigned ns[] = { 1, 2, 3, 4, 5, 8, 9, 16, 17 };
	static const size_t lens[] = { 16, 32, 512, 4096 };
	static uint8_t in[WMAX][LEN], one[WMAX][LEN], out[WMAX][LEN],
	               ivs[WMAX][CB_MAX_BLOCK];
	const uint8_t *inp[WMAX], *ivp[WMAX];
	uint8_t *outp[WMAX], key[CB_MAX_KEY];
	struct cb_inst inst;
	int ok = 1;

	if (!im->encrypt_batch)
		return;
	fill(key, sizeof key);
	if (cb_inst_new(&inst, im, key, bits / 8) < 0)
		return;
	fill(&in[0][0], sizeof in);
	fill(&ivs[0][0], sizeof ivs);
	for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++)
		for (size_t w = 0; w < sizeof ns / sizeof ns[0]; w++)
			for (int enc = 1; enc >= 0; enc--) {
				cb_crypt_fn fn = enc ? im->encrypt : im->decrypt;
				size_t len = lens[l];

				if (len < a->min_len)
					continue;
				for (unsigned i = 0; i < ns[w]; i++) {
					/* odd widths: outputs in reverse order,
					 * so their offsets from the inputs differ
					 * (a routine that assumed one would fail) */
					unsigned o = ns[w] % 2 ? ns[w] - 1 - i : i;

					inp[i] = in[i];
					ivp[i] = ivs[i];
					outp[i] = out[o];
					ok &= fn(inst.ctx, ivs[i], in[i], one[i], len) == 0;
				}
				ok &= cb_inst_batch(&inst, enc, ns[w], ivp, inp, outp,
				                    len) == 0;
				for (unsigned i = 0; i < ns[w]; i++)
					ok &= !memcmp(outp[i], one[i], len);
			}
	checkf(ok, "%s: batches of 1..17 requests of 16..4096 bytes = the "
	       "requests one at a time (%u-bit key)", im->driver, bits);
	cb_inst_free(&inst);
}

int main(void)
{
	static const char *const algs[] = {
		"cbc(aes)", "xts(aes)", "essiv(cbc(aes),sha256)", "ctr(aes)",
	};
	unsigned tried = 0;

	for (size_t b = 0; cb_backends[b]; b++)
		for (size_t k = 0; k < sizeof algs / sizeof algs[0]; k++) {
			const struct cb_alg *a = cb_alg_find(algs[k], NULL);
			const struct cb_impl *im;

			for (int n = 0; a && (im = cb_impl_find(cb_backends[b],
			                                        algs[k], n)); n++)
				if (cb_impl_status(im, NULL) == 0) {
					for (int ks = 0; ks < CB_KEY_STD &&
					                a->key.std[ks]; ks++)
						widths(im, a, a->key.std[ks]);
					one_impl(im, a);
					tried++;
				}
		}
	check(tried > 0, "some cipher implementation was tried");
	return finish();
}
