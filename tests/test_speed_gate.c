/*
 * test_speed_gate.c - the correctness gate and the request models of
 * `speed`, from the inside: the gate and the timed loops are driven
 * directly through src/measure/runner.h, gate.h and measure.h.
 *
 * A deliberately broken implementation (OpenSSL's cbc(aes) with one output
 * byte flipped on requests of 1 KiB and more, so that short known-answer
 * vectors still pass) must be caught by the cross-check and reported as a
 * failure, never timed; the real one must pass.  The request models must
 * compute what they claim: --iv once is one CBC chain, --iv per-request
 * hands request k the IV le64(k), sectors are numbered consecutively.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "measure/gate.h"
#include "measure/measure.h"
#include "measure/runner.h"
#include "measure/speed_opts.h"
#include "foundation/util.h"

#include "check.h"

static const struct cb_impl *real;

static int broken_setkey(void *ctx, const struct cb_impl *impl,
                         const uint8_t *key, size_t keylen)
{
	return real->setkey(ctx, real, key, keylen);
}

static int broken_encrypt(void *ctx, const uint8_t *iv, const uint8_t *in,
                          uint8_t *out, size_t len)
{
	int rc = real->encrypt(ctx, iv, in, out, len);

	if (rc == 0 && len >= 1024)
		out[len - 1] ^= 1;
	return rc;
}

static struct cb_impl broken;

static void setup(void)
{
	const struct cb_backend *b = cb_backend_find("openssl");

	real = b && cb_backend_status(b, NULL) == 0
	       ? cb_impl_find(b, "cbc(aes)", 0) : NULL;
	if (!real)
		return;
	broken = *real;
	broken.driver = "cbc-aes-broken";
	broken.probe = NULL;
	broken.setkey = broken_setkey;
	broken.encrypt = broken_encrypt;
}

static struct speed_opts quick_opts(void)
{
	struct speed_opts o;

	speed_opts_init(&o);
	o.sec = 0.01;
	o.warmup = 0.002;
	o.reps = 1;
	o.progress = 0;
	o.enc = o.dec = 1;
	return o;
}

static void test_cross_check(void)
{
	struct speed_opts o = quick_opts();
	const struct cb_alg *alg = cb_alg_find("cbc(aes)", NULL);
	struct bufs bf = { 0 };
	struct cb_inst good = { 0 }, bad = { 0 };
	uint8_t key[16];
	const struct cb_impl *ref;
	char *why;

	bf.size = runner_ring_bytes(8192, 0);
	bf.a = cb_xaligned(bf.size), bf.a2 = cb_xaligned(bf.size);
	bf.b = cb_xaligned(bf.size), bf.b2 = cb_xaligned(bf.size);
	gate_make_key(alg, 128, key);
	ref = gate_pick_ref(&broken, alg, 128);
	check(ref != NULL, "a reference from another backend (openssl)");
	if (!ref)
		return;
	check(cb_inst_new(&good, real, key, 16) == 0 &&
	      cb_inst_new(&bad, &broken, key, 16) == 0, "instances");
	for (int once = 0; once < 2; once++) {
		o.iv_once = once;
		why = gate_cross_check(&bad, ref, key, 16, DIR_ENC, &o, &bf, 8192);
		check(why && strstr(why, "differs from cbc-aes-openssl"),
		      once ? "broken caught (iv once)" : "broken caught (per-request)");
		free(why);
		why = gate_cross_check(&bad, ref, key, 16, DIR_ENC, &o, &bf, 16);
		check(why == NULL, "broken passes below its fault (16 B)");
		free(why);
		why = gate_cross_check(&good, gate_pick_ref(real, alg, 128), key, 16,
		                  DIR_DEC, &o, &bf, 8192);
		check(why == NULL, "openssl agrees with the next backend");
		free(why);
	}
	o.iv_once = 0;
	o.sector = 512;
	why = gate_cross_check(&bad, ref, key, 16, DIR_ENC, &o, &bf, 4096);
	check(why == NULL, "sectors of 512 B stay below the fault");
	free(why);
	cb_inst_free(&good);
	cb_inst_free(&bad);
	free(bf.a), free(bf.a2), free(bf.b), free(bf.b2);
}

/* The broken driver through the whole speed_measure(): failed rows, no speed. */
static void test_measure_fails(void)
{
	static struct cb_sel_alg sa;
	struct speed_opts o = quick_opts();
	struct plan p[4];
	struct cb_result res[4];
	size_t nfail;

	sa.alg = cb_alg_find("cbc(aes)", NULL);
	sa.key_mult = 1;
	for (int i = 0; i < 4; i++) {
		p[i].impl = i < 2 ? &broken : real;
		p[i].backend = cb_backend_find("openssl");
		p[i].sel = &sa;
		p[i].dir = DIR_ENC;
		p[i].key_bits = 128;
		p[i].size = i % 2 ? 4096 : 16;
		p[i].skip = NULL;
		p[i].samples = i < 3 ? 1 : 5;
		p[i].sample_sec = 0.002;
	}
	nfail = speed_measure(&o, p, 4, res);
	check(nfail == 2, "measure: two failed points");
	check(res[0].status == CB_RES_FAIL && res[1].status == CB_RES_FAIL &&
	      res[0].why && strstr(res[0].why, "differs"),
	      "measure: the broken series fails, with the reason");
	check(res[0].ops_per_sec == 0, "measure: no speed for it");
	check(res[2].status == CB_RES_OK && res[3].status == CB_RES_OK &&
	      res[2].ops_per_sec > 0 && res[2].reps == 1 && res[3].reps == 5,
	      "measure: the real one is timed");
	check(!isnan(res[2].overhead_ns) && !isnan(res[3].slope_ns_per_byte),
	      "measure: the size fit is filled in");
	check(res[3].ci_low_ops <= res[3].ops_per_sec &&
	      res[3].ops_per_sec <= res[3].ci_high_ops && res[3].mad_ops >= 0 &&
	      res[3].samples && res[3].ci_low_ops > 0,
	      "measure: five samples, their median inside its CI");
	check(res[3].ghz_drift >= 0 || isnan(res[3].ghz_drift),
	      "measure: the clock drift is a fraction (or unknown)");
	for (int i = 0; i < 4; i++) {
		free((void *)res[i].why);
		free((void *)res[i].samples);
	}
}

/* What the timed loops compute. */
static void test_models(void)
{
	const struct cb_alg *alg = cb_alg_find("cbc(aes)", NULL);
	struct cb_inst inst = { 0 }, one = { 0 };
	struct runner r;
	uint8_t key[16], *a = cb_xaligned(64), *b = cb_xaligned(64);
	uint8_t iv[16] = { 0 };

	gate_make_key(alg, 128, key);
	cb_inst_new(&inst, real, key, 16);
	cb_inst_new(&one, real, key, 16);

	/* once: two 32-byte requests == one 64-byte CBC chain from IV 0 */
	cb_random(a, 64);
	memcpy(b, a, 64);
	runner_prep(&r, &inst, DIR_ENC, 1, 0, 0, a, NULL, 32);
	check(runner_fn(&r) == runner_cipher_once, "once: the chaining loop");
	runner_cipher_once(&r, 1);
	r.buf = a + 32;
	runner_cipher_once(&r, 1);
	real->encrypt(one.ctx, iv, b, b, 64);
	check(!memcmp(a, b, 64), "once: requests continue one chain");

	/* per-request: request k gets IV le64(k) and ring buffer k % slots */
	{
		size_t rb = runner_ring_bytes(16, 0), st = runner_ring_stride(16);
		size_t slots = runner_ring_slots(16, 0);
		uint8_t *ra = cb_xaligned(rb), *rr = cb_xaligned(rb);

		check(slots == 16 && st == 64, "per-request: 16 slots of 64 B");
		cb_random(ra, rb);
		memcpy(rr, ra, rb);
		runner_prep(&r, &inst, DIR_ENC, 0, 0, 0, ra, NULL, 16);
		check(runner_fn(&r) == runner_cipher_fresh, "per-request: the IV loop");
		runner_cipher_fresh(&r, slots + 1);   /* wraps to slot 0 again */
		for (size_t k = 0; k <= slots; k++) {
			memset(iv, 0, 16);
			iv[0] = (uint8_t)k;
			real->encrypt(one.ctx, iv, rr + (k % slots) * st,
			              rr + (k % slots) * st, 16);
		}
		check(!memcmp(ra, rr, rb),
		      "per-request: IV le64(request number), ring buffers");
		free(ra);
		free(rr);
	}

	/* sectors: 64 bytes as four 16-byte sectors 0..3, then 4..7 */
	cb_random(a, 64);
	memcpy(b, a, 64);
	runner_prep(&r, &inst, DIR_ENC, 0, 16, 0, a, NULL, 64);
	check(runner_fn(&r) == runner_cipher_sectors, "sectors: the sector loop");
	runner_cipher_sectors(&r, 1);
	check(r.ctr == 4, "sectors: four sectors per request");
	for (int s = 0; s < 4; s++) {
		memset(iv, 0, 16);
		iv[0] = (uint8_t)s;
		real->encrypt(one.ctx, iv, b + 16 * s, b + 16 * s, 16);
	}
	check(!memcmp(a, b, 64), "sectors: IV le64(sector) each");

	cb_inst_free(&inst);
	cb_inst_free(&one);
	free(a);
	free(b);
}

/* --mb: submissions of N requests compute what the per-request loop
 * computes (IV le64(k), ring slot k), on OpenSSL (the core's loop) and
 * on every usable native cbc(aes) (its batch entry point). */
static void test_mb_model(const struct cb_impl *im)
{
	const struct cb_alg *alg = cb_alg_find("cbc(aes)", NULL);
	static const unsigned mbs[] = { 1, 3, 8, 16 };
	struct cb_inst inst = { 0 };
	struct runner r;
	uint8_t key[16];
	int ok = 1;

	gate_make_key(alg, 128, key);
	if (cb_inst_new(&inst, im, key, 16) < 0)
		return;
	for (size_t m = 0; m < sizeof mbs / sizeof mbs[0]; m++) {
		size_t rb = runner_ring_bytes(512, mbs[m]);
		uint8_t *ra = cb_xaligned(rb), *rr = cb_xaligned(rb);

		cb_random(ra, rb);
		memcpy(rr, ra, rb);
		runner_prep(&r, &inst, DIR_ENC, 0, 0, mbs[m], ra, NULL, 512);
		ok &= runner_fn(&r) == runner_cipher_mb;
		ok &= runner_cipher_mb(&r, 3 * mbs[m]) == 0;
		ok &= r.ctr == 3 * mbs[m];
		runner_prep(&r, &inst, DIR_ENC, 0, 0, 0, rr, NULL, 512);
		r.nring = runner_ring_slots(512, mbs[m]);
		ok &= runner_cipher_fresh(&r, 3 * mbs[m]) == 0;
		ok &= !memcmp(ra, rr, rb);
		free(ra);
		free(rr);
	}
	checkf(ok, "--mb loop on %s: submissions of 1, 3, 8, 16 requests = "
	       "the per-request loop", im->driver);
	cb_inst_free(&inst);
}

int main(void)
{
	const struct cb_backend *nat = cb_backend_find("native");
	const struct cb_impl *im;

	setup();
	if (!real) {
		printf("0 passed, 0 failed (openssl backend unavailable)\n");
		return 77;
	}
	test_cross_check();
	test_measure_fails();
	test_models();
	test_mb_model(real);
	for (int k = 0; nat && (im = cb_impl_find(nat, "cbc(aes)", k)); k++)
		if (cb_impl_status(im, NULL) == 0)
			test_mb_model(im);
	return finish();
}
