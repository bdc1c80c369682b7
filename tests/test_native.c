/*
 * test_native.c - the native backend on every code path this CPU has
 * (aesni, vaes256, vaes512 side by side - on AArch64 ce; a path the CPU lacks is reported
 * as skipped, never as passed), against OpenSSL through the openssl
 * backend (cbc(aes), ecb(aes) and its generic essiv template):
 *
 *   - the spec's ESSIV vector, FIPS-197 C.1-C.3, SP 800-38A F.2.1/F.2.2,
 *     and every essiv/cbc(aes)/ecb(aes) record in vectors/;
 *   - random keys of every size and lengths from one block to 8 KiB+3
 *     blocks (odd block counts, every group boundary +-1), out of place
 *     on unaligned buffers (offsets 1..15), in place, and in pieces with
 *     iv == NULL continuing the chain, encryption and decryption;
 *   - multi-sector requests of 1, 3, 15, 17 and 255 sectors of 512 and
 *     4096 bytes (4096: every lane on the same page offset, the 4 KiB
 *     aliasing layout), 33 to 70 sectors of 4, 8 and 12 KiB (vaes512's
 *     64 lanes), plus sector sizes that are not a multiple of 64,
 *     unaligned and in place, from sector numbers that cross 2^32 and
 *     wrap 2^64;
 *   - gcm(aes): keys of every size, AAD and text lengths that cross
 *     every step of every path, tags of 4-16 bytes, in place, unaligned,
 *     a flipped tag, text or AAD bit rejected, and its vectors with
 *     rfc4106 through the template;
 *   - xts(aes) with 2x128, 2x256 and 2x192-bit keys (the last against
 *     libgcrypt: OpenSSL has no 2x192): lengths that end every loop of
 *     every path and steal ciphertext; sectors numbered plain64 and by
 *     geli's byte offsets;
 *   - the choice of path from CRYPTOBENCH_ISA, driver names, bad lengths
 *     and keys, a context that malloc did not align.
 * Deterministic (fixed-seed generator).  Last line: "N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "kat/kat.h"
#include "native.h"
#include "native_asm.h"
#if defined(__aarch64__)
#include "native_ce.h"
#endif
#include "foundation/util.h"

#include "check.h"

static uint64_t rng = 0x2545f4914f6cdd1du;

static void fill(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		p[i] = (uint8_t)(rng >> 24);
	}
}

static uint8_t *hex(const char *s, size_t *n)
{
	uint8_t *p;

	if (cb_hex_decode(s, &p, n) < 0) {
		fprintf(stderr, "bad hex in the test: %s\n", s);
		exit(2);
	}
	return p;
}

/* ---- the paths ---------------------------------------------------------- */

static const struct cb_impl *const *paths[CB_NATIVE_NISA];

static const struct cb_impl *impl_of(const struct cb_impl *const *t,
                                     const char *alg)
{
	for (; t && *t; t++)
		if (!strcmp((*t)->alg, alg))
			return *t;
	return NULL;
}

/* ---- fixed vectors ------------------------------------------------------ */

struct fixed {
	const char *alg, *key, *iv, *pt, *ct, *source;
};

static const struct fixed fixed[] = {
	{ "essiv(cbc(aes),sha256)", "06a9214036b8a15b512e03d534120006",
	  "3dafba429d9eb4300000000000000000",
	  "53696e676c6520626c6f636b206d7367",            /* "Single block msg" */
	  "fa59e75f415665c336ca6b72109f8cd4", "spec: Linux testmgr ESSIV" },
	{ "ecb(aes)", "000102030405060708090a0b0c0d0e0f", NULL,
	  "00112233445566778899aabbccddeeff",
	  "69c4e0d86a7b0430d8cdb78070b4c55a", "FIPS-197 C.1" },
	{ "ecb(aes)", "000102030405060708090a0b0c0d0e0f1011121314151617", NULL,
	  "00112233445566778899aabbccddeeff",
	  "dda97ca4864cdfe06eaf70a0ec0d7191", "FIPS-197 C.2" },
	{ "ecb(aes)",
	  "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	  NULL, "00112233445566778899aabbccddeeff",
	  "8ea2b7ca516745bfeafc49904b496089", "FIPS-197 C.3" },
	{ "cbc(aes)", "2b7e151628aed2a6abf7158809cf4f3c",
	  "000102030405060708090a0b0c0d0e0f",
	  "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
	  "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
	  "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
	  "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
	  "SP 800-38A F.2.1/F.2.2" },
};

static void test_fixed(int isa)
{
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		const struct fixed *f = &fixed[i];
		const struct cb_impl *im = impl_of(paths[isa], f->alg);
		size_t kl, ivl = 0, n, cl;
		uint8_t *key = hex(f->key, &kl), *pt = hex(f->pt, &n);
		uint8_t *ct = hex(f->ct, &cl), *iv = f->iv ? hex(f->iv, &ivl) : NULL;
		uint8_t *buf = malloc(n + 1);
		struct cb_inst x;
		int rc = cb_inst_new(&x, im, key, kl);

		checkf(rc == 0, "%s %s: setkey %d", cb_native_isa_name(isa),
		       f->source, rc);
		if (rc == 0) {
			rc = im->encrypt(x.ctx, iv, pt, buf + 1, n);
			checkf(rc == 0 && !memcmp(buf + 1, ct, n), "%s %s: encrypt",
			       cb_native_isa_name(isa), f->source);
			memcpy(buf, ct, n);
			rc = im->decrypt(x.ctx, iv, buf, buf, n);
			checkf(rc == 0 && !memcmp(buf, pt, n),
			       "%s %s: decrypt in place", cb_native_isa_name(isa),
			       f->source);
			cb_inst_free(&x);
		}
		free(key), free(pt), free(ct), free(iv), free(buf);
	}
}

/* Every essiv/cbc(aes)/ecb(aes) record of vectors/ through kat_run_impl. */
static void test_vectors(int isa)
{
	static struct vec_file *files;
	static size_t nfiles;
	static int loaded, usable;
	static const char *const algs[] = {
		"cbc(aes)", "ecb(aes)", "essiv(cbc(aes),sha256)", "gcm(aes)",
		"rfc4106(gcm(aes))" };

	if (!loaded) {
		loaded = 1;
		usable = kat_load("vectors", &files, &nfiles) == 0 &&
		         kat_validate(files, nfiles) == 0;
		if (!usable)
			printf("note: no usable vectors/ here; vector files not "
			       "run\n");
	}
	if (!usable)
		return;
	for (size_t i = 0; i < 5; i++) {
		struct kat_count c = {0};
		const struct cb_impl *im = impl_of(paths[isa], algs[i]);

		if (!im)        /* rfc4106: the template over the path's gcm */
			im = impl_of(cb_backend_impls(cb_backend_find("native")),
			             algs[i]);
		/* gcm: on every path (ce too); rfc4106: the chosen path's only */
		checkf(i != 3 || im, "%s: no gcm(aes)", cb_native_isa_name(isa));
		if (!im || (i == 4 && !strstr(im->driver,
		                              cb_native_isa_name(isa))))
			continue;
		kat_run_impl(im, "native", files,
		             nfiles, &c, stdout, 0);
		passed += c.passed;
		failed += c.failed;
		checkf(c.passed > 0, "%s: no %s vectors ran",
		       cb_native_isa_name(isa), algs[i]);
	}
}

/* ---- random requests vs OpenSSL ----------------------------------------- */

static const struct cb_impl *ref_cbc, *ref_ecb, *ref_essiv, *ref_xts;
static const struct cb_impl *ref_xts192;   /* libgcrypt: OpenSSL has no
                                              2x192-bit XTS (NULL: none) */

static const struct cb_impl *ref_for(const char *alg, size_t kl)
{
	return !strcmp(alg, "cbc(aes)") ? ref_cbc
	       : !strcmp(alg, "ecb(aes)") ? ref_ecb
	       : strcmp(alg, "xts(aes)") ? ref_essiv
	       : kl == 48 ? ref_xts192 : ref_xts;
}

static const size_t lengths[] = {
	16, 32, 48, 64, 80, 112, 128, 144, 176, 240, 256, 272, 496, 512, 528,
	1008, 1024, 1040, 1472, 2064, 4096, 4112, 8192, 8240,
};

/* XTS: every tail of the 1-, 4- and 16-block loops, and stolen ciphertext */
static const size_t xts_lengths[] = {
	16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 80, 96, 112, 127, 128, 129,
	240, 255, 256, 257, 272, 304, 336, 496, 511, 512, 513, 1000, 4096,
	4111, 8195, 65536 + 48 + 7,
};

/* One (alg, key, length) against every path. */
static void random_case(const char *alg, size_t kl, size_t len, unsigned k)
{
	const struct cb_impl *ref = ref_for(alg, kl);
	int has_iv = strcmp(alg, "ecb(aes)") != 0;
	uint8_t key[64], iv[16], *pt = malloc(len), *ct = malloc(len);
	uint8_t *buf = malloc(len + 16), *src = malloc(len + 16), *in, *out;
	size_t off = 1 + k % 15, split = (len / 16 / 3 + 1) * 16;
	struct cb_inst r;

	fill(key, kl), fill(iv, 16), fill(pt, len);
	if (cb_inst_new(&r, ref, key, kl) < 0 ||
	    ref->encrypt(r.ctx, has_iv ? iv : NULL, pt, ct, len) < 0) {
		checkf(0, "reference %s failed", ref->driver);
		goto out;
	}
	cb_inst_free(&r);
	out = buf + off;
	in = src + 16 - off;
	for (int isa = 0; isa < CB_NATIVE_NISA; isa++) {
		const struct cb_impl *im = impl_of(paths[isa], alg);
		const char *p = cb_native_isa_name(isa);
		const uint8_t *v = has_iv ? iv : NULL;
		struct cb_inst x;

		if (!im)
			continue;
		if (cb_inst_new(&x, im, key, kl) < 0) {
			checkf(0, "%s %s: setkey", p, alg);
			continue;
		}
		/* out of place, unaligned in and out */
		memcpy(in, pt, len);
		checkf(im->encrypt(x.ctx, v, in, out, len) == 0 &&
		       !memcmp(out, ct, len), "%s %s %zu-bit %zu B: encrypt "
		       "(offset %zu)", p, alg, kl * 8, len, off);
		memcpy(in, ct, len);
		checkf(im->decrypt(x.ctx, v, in, out, len) == 0 &&
		       !memcmp(out, pt, len), "%s %s %zu-bit %zu B: decrypt "
		       "(offset %zu)", p, alg, kl * 8, len, off);
		/* in place */
		memcpy(out, pt, len);
		checkf(im->encrypt(x.ctx, v, out, out, len) == 0 &&
		       !memcmp(out, ct, len), "%s %s %zu-bit %zu B: encrypt in "
		       "place", p, alg, kl * 8, len);
		checkf(im->decrypt(x.ctx, v, out, out, len) == 0 &&
		       !memcmp(out, pt, len), "%s %s %zu-bit %zu B: decrypt in "
		       "place", p, alg, kl * 8, len);
		/* in two pieces, the second continuing the chain (iv NULL;
		 * XTS: the same tweak again, so not a continuation) */
		if (split < len && strcmp(alg, "xts(aes)")) {
			memcpy(out, pt, len);
			checkf(im->encrypt(x.ctx, v, out, out, split) == 0 &&
			       im->encrypt(x.ctx, NULL, out + split, out + split,
			                   len - split) == 0 &&
			       !memcmp(out, ct, len), "%s %s %zu-bit %zu B: encrypt "
			       "in pieces %zu+%zu", p, alg, kl * 8, len, split,
			       len - split);
			checkf(im->decrypt(x.ctx, v, out, out, split) == 0 &&
			       im->decrypt(x.ctx, NULL, out + split, out + split,
			                   len - split) == 0 &&
			       !memcmp(out, pt, len), "%s %s %zu-bit %zu B: decrypt "
			       "in pieces %zu+%zu", p, alg, kl * 8, len, split,
			       len - split);
		}
		cb_inst_free(&x);
	}
out:
	free(pt), free(ct), free(buf), free(src);
}

/* ---- multi-sector requests ---------------------------------------------- */

static void sector_case(const char *alg, size_t kl, size_t ss, size_t n,
                        uint64_t first, uint64_t step, unsigned k)
{
	const struct cb_impl *ref = ref_for(alg, kl);
	size_t len = ss * n, off = 1 + k % 15;
	uint8_t key[64], *pt = malloc(len), *ct = malloc(len);
	uint8_t *buf = malloc(len + 16), *src = malloc(len + 16);
	uint8_t *out = buf + off, *in = src + 16 - off;
	struct cb_inst r;

	fill(key, kl), fill(pt, len);
	if (cb_inst_new(&r, ref, key, kl) < 0 ||
	    cb_inst_sectors(&r, 1, first, step, ss, pt, ct, len) < 0) {
		checkf(0, "reference %s sectors failed", ref->driver);
		goto out;
	}
	cb_inst_free(&r);
	for (int isa = 0; isa < CB_NATIVE_NISA; isa++) {
		const struct cb_impl *im = impl_of(paths[isa], alg);
		const char *p = cb_native_isa_name(isa);
		struct cb_inst x;

		if (!im)
			continue;
		if (cb_inst_new(&x, im, key, kl) < 0) {
			checkf(0, "%s %s: setkey", p, alg);
			continue;
		}
		checkf(im->encrypt_sectors && im->decrypt_sectors,
		       "%s %s: no multi-sector entry points", p, alg);
		if (!im->encrypt_sectors || !im->decrypt_sectors)
			continue;
		memcpy(in, pt, len);
		checkf(im->encrypt_sectors(x.ctx, first, step, ss, in, out,
		                           len) == 0 && !memcmp(out, ct, len),
		       "%s %s %zu-bit: encrypt %zu x %zu B from sector %llu "
		       "(offset %zu)", p, alg, kl * 8, n, ss,
		       (unsigned long long)first, off);
		memcpy(in, ct, len);
		checkf(im->decrypt_sectors(x.ctx, first, step, ss, in, out,
		                           len) == 0 && !memcmp(out, pt, len),
		       "%s %s %zu-bit: decrypt %zu x %zu B from sector %llu "
		       "(offset %zu)", p, alg, kl * 8, n, ss,
		       (unsigned long long)first, off);
		memcpy(out, pt, len);
		checkf(im->encrypt_sectors(x.ctx, first, step, ss, out, out, len) == 0 &&
		       !memcmp(out, ct, len), "%s %s %zu-bit: encrypt %zu x %zu "
		       "B in place", p, alg, kl * 8, n, ss);
		checkf(im->decrypt_sectors(x.ctx, first, step, ss, out, out, len) == 0 &&
		       !memcmp(out, pt, len), "%s %s %zu-bit: decrypt %zu x %zu "
		       "B in place", p, alg, kl * 8, n, ss);
		cb_inst_free(&x);
	}
out:
	free(pt), free(ct), free(buf), free(src);
}

/* ---- the choice of path, names, errors ---------------------------------- */

static void test_choice(void)
{
	static const struct { const char *cap; int cpu, want; } c[] = {
#if defined(__aarch64__)
		{ NULL, 0, 0 }, { "", 0, 0 }, { "ce", 0, 0 },
		{ "bogus", 0, -EINVAL }, { "CE", 0, -EINVAL },
		{ "aesni", 0, -EINVAL }, { "ce", -ENOTSUP, -ENOTSUP },
		{ NULL, -ENOTSUP, -ENOTSUP }, { "none", 0, -ENOTSUP },
		{ "none", -ENOTSUP, -ENOTSUP },
#else
		{ NULL, 2, 2 }, { "", 2, 2 }, { "aesni", 2, 0 },
		{ "vaes256", 2, 1 }, { "vaes512", 2, 2 }, { "vaes512", 1, 1 },
		{ "vaes512", 0, 0 }, { "vaes256", 0, 0 }, { NULL, 0, 0 },
		{ "bogus", 2, -EINVAL }, { "AESNI", 2, -EINVAL },
		{ "aesni", -ENOTSUP, -ENOTSUP }, { NULL, -ENOTSUP, -ENOTSUP },
		{ "none", 2, -ENOTSUP }, { "none", -ENOTSUP, -ENOTSUP },
#endif
	};
	const char *env = getenv("CRYPTOBENCH_ISA"), *why;
	int want = cb_native_choose(env, cb_native_cpu_isa());
	const struct cb_backend *b = cb_backend_find("native");
	int st = cb_backend_status(b, &why);

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
		checkf(cb_native_choose(c[i].cap, c[i].cpu) == c[i].want,
		       "choose(%s, %d) != %d", c[i].cap ? c[i].cap : "NULL",
		       c[i].cpu, c[i].want);
	if (want < 0) {
		checkf(st < 0 && *why, "backend available although "
		       "CRYPTOBENCH_ISA/CPU say %d", want);
		return;
	}
	checkf(st == 0, "backend unavailable: %s", why);
	for (const struct cb_impl *const *t = b->impls; *t; t++) {
		const char *d = (*t)->driver, *n = cb_native_isa_name(want);

		checkf(strlen(d) > strlen(n) &&
		       !strcmp(d + strlen(d) - strlen(n), n),
		       "driver %s does not name the path %s", d, n);
	}
	checkf(b->details && strstr(b->details(), cb_native_isa_name(want)) ==
	       b->details(), "details '%s' do not start with the path",
	       b->details ? b->details() : "(none)");
	printf("native backend: %s\n", b->details());
}

static void test_errors(int isa)
{
	const struct cb_impl *im = impl_of(paths[isa], "essiv(cbc(aes),sha256)");
	const struct cb_impl *ecb = impl_of(paths[isa], "ecb(aes)");
	uint8_t key[32] = {1}, iv[16] = {2}, buf[64] = {0}, want[64];
	uint8_t *raw = malloc(im->ctx_size + 8), *ctx = raw + 8;
	const char *p = cb_native_isa_name(isa);
	struct cb_inst x;

	checkf(cb_inst_new(&x, im, key, 20) == -EINVAL, "%s: 160-bit key "
	       "accepted", p);
	if (cb_inst_new(&x, im, key, 16) == 0) {
		checkf(im->encrypt(x.ctx, iv, buf, buf, 15) == -EINVAL &&
		       im->decrypt(x.ctx, iv, buf, buf, 17) == -EINVAL &&
		       im->encrypt_sectors(x.ctx, 0, 1, 24, buf, buf, 48) == -EINVAL &&
		       im->decrypt_sectors(x.ctx, 0, 1, 32, buf, buf, 48) == -EINVAL,
		       "%s: bad lengths accepted", p);
		im->encrypt(x.ctx, iv, buf, want, sizeof buf);
		/* a context malloc did not align the way the core's is */
		memset(raw, 0, im->ctx_size + 8);
		checkf(im->setkey(ctx, im, key, 16) == 0 &&
		       im->encrypt(ctx, iv, buf, buf, sizeof buf) == 0 &&
		       !memcmp(buf, want, sizeof buf), "%s: misaligned context",
		       p);
		im->free(ctx);
		cb_inst_free(&x);
	}
	if (cb_inst_new(&x, ecb, key, 32) == 0) {
		checkf(ecb->encrypt(x.ctx, NULL, buf, buf, 0) == 0 &&
		       ecb->encrypt(x.ctx, NULL, buf, buf, 31) == -EINVAL,
		       "%s: ecb length checks", p);
		cb_inst_free(&x);
	}
	free(raw);
}

/*
 * Batches of n requests (cb_inst_batch): the native batch entry point
 * against the core's one-after-another loop on OpenSSL; in place, out of
 * place at one offset (interleaved chains) and at different offsets.
 */
#define BATCH_MAX 40
static void batch_case(const char *alg, unsigned n, size_t len, int layout)
{
	const struct cb_impl *ref = ref_for(alg, 16);
	uint8_t key[16], ivb[BATCH_MAX][16];
	uint8_t *buf = malloc(BATCH_MAX * (len + 64) * 2 + 64);
	const uint8_t *ivs[BATCH_MAX], *in[BATCH_MAX];
	uint8_t *want[BATCH_MAX];
	struct cb_inst r;

	fill(key, sizeof key);
	for (unsigned i = 0; i < n; i++) {
		fill(ivb[i], 16);
		ivs[i] = ivb[i];
		in[i] = buf + i * (len + 64) + i % 7;
		want[i] = buf + (BATCH_MAX + i) * (len + 64) + 64;
		fill((uint8_t *)in[i], len);
	}
	if (cb_inst_new(&r, ref, key, sizeof key) < 0 ||
	    cb_inst_batch(&r, 1, n, ivs, in, want, len) < 0) {
		checkf(0, "reference %s batch failed", ref->driver);
		goto out;
	}
	cb_inst_free(&r);
	for (int isa = 0; isa < CB_NATIVE_NISA; isa++) {
		const struct cb_impl *im = impl_of(paths[isa], alg);
		uint8_t *got[BATCH_MAX];
		uint8_t *scratch = malloc(BATCH_MAX * (len + 64) + 64);
		struct cb_inst x;
		int ok = 1;

		if (!im || cb_inst_new(&x, im, key, sizeof key) < 0) {
			free(scratch);
			continue;
		}
		for (unsigned i = 0; i < n; i++) {
			/* layout 0: every output at one offset from its input */
			got[i] = scratch + i * (len + 64) + (layout ? i % 5 : i % 7);
			memcpy(got[i], in[i], len);
		}
		checkf(im->encrypt_batch != NULL, "%s %s: no batch entry point",
		       cb_native_isa_name(isa), alg);
		if (cb_inst_batch(&x, 1, n, ivs,
		                  (const uint8_t *const *)got, got, len) < 0)
			ok = 0;
		for (unsigned i = 0; ok && i < n; i++)
			ok = !memcmp(got[i], want[i], len);
		checkf(ok, "%s %s: batch of %u x %zu B in place",
		       cb_native_isa_name(isa), alg, n, len);
		ok = cb_inst_batch(&x, 1, n, ivs, in, got, len) == 0;
		for (unsigned i = 0; ok && i < n; i++)
			ok = !memcmp(got[i], want[i], len);
		checkf(ok, "%s %s: batch of %u x %zu B out of place (layout %d)",
		       cb_native_isa_name(isa), alg, n, len, layout);
		cb_inst_free(&x);
		free(scratch);
	}
out:
	free(buf);
}

/* XTS, 2x128, 2x256 and (with libgcrypt) 2x192-bit keys: requests of
 * every tail; sectors with plain64 numbering (1 and 512-byte units) and
 * geli's byte offsets. */
static void test_xts(unsigned *k)
{
	static const size_t keys[] = { 32, 64, 48 };
	static const size_t counts[] = { 1, 3, 15, 17, 255 };
	size_t nk = ref_xts192 ? 3 : 2;

	if (!ref_xts192)
		skip("libgcrypt unavailable: no 2x192-bit XTS reference");
	for (size_t ki = 0; ki < nk; ki++) {
		for (size_t li = 0; li < sizeof xts_lengths / sizeof *xts_lengths;
		     li++)
			random_case("xts(aes)", keys[ki], xts_lengths[li], (*k)++);
		for (size_t ci = 0; ci < 5; ci++) {
			uint64_t f = ci * 0x3fffffffu + ki;

			sector_case("xts(aes)", keys[ki], 512, counts[ci], f, 1,
			            (*k)++);
			sector_case("xts(aes)", keys[ki], 4096, counts[ci], f, 8,
			            (*k)++);
			/* geli: the tweak is the byte offset */
			sector_case("xts(aes)", keys[ki], 4096, counts[ci],
			            f * 4096, 4096, (*k)++);
			sector_case("xts(aes)", keys[ki], 512, counts[ci],
			            f * 512, 512, (*k)++);
		}
		sector_case("xts(aes)", keys[ki], 16, 17, ~(uint64_t)0 - 3, 1,
		            (*k)++);
		sector_case("xts(aes)", keys[ki], 80, 9, 7, 1, (*k)++);
	}
}


/* ---- gcm(aes) vs OpenSSL ------------------------------------------------ */

static const struct cb_impl *ref_gcm;

/*
 * One request of len bytes with adlen bytes of AAD and a tag of taglen
 * on every path against OpenSSL: out of place from an unaligned buffer,
 * in place, decrypted back, and rejected (-EBADMSG) with one bit of the
 * tag, the text or the AAD flipped.  The lengths cross every step of
 * every path: 16-byte blocks, 64-byte masked groups, 8-block (aesni) and
 * 32-block (vaes512) steps, the packet routine's 32-block group.
 */
static void gcm_case(size_t kl, size_t adlen, size_t len, size_t taglen,
                     unsigned k)
{
	uint8_t key[32], iv[12], tag[16], rtag[16];
	uint8_t *ad = malloc(adlen + 1), *in = malloc(len + 16);
	uint8_t *ref = malloc(len + 1), *out = malloc(len + 16);
	struct cb_inst r, x;
	size_t off = 1 + k % 15;

	fill(key, sizeof key);
	fill(iv, sizeof iv);
	fill(ad, adlen + 1);
	fill(in, len + 16);
	if (cb_inst_new(&r, ref_gcm, key, kl) < 0 ||
	    r.impl->aead_encrypt(r.ctx, iv, ad, adlen, in + off, ref, len, rtag,
	                         taglen) < 0) {
		checkf(0, "reference %s failed", ref_gcm->driver);
		goto out;
	}
	cb_inst_free(&r);
	for (int isa = 0; isa < CB_NATIVE_NISA; isa++) {
		const struct cb_impl *im = impl_of(paths[isa], "gcm(aes)");
		const char *p = cb_native_isa_name(isa);

		if (!im)
			continue;
		if (cb_inst_new(&x, im, key, kl) < 0) {
			checkf(0, "%s gcm: setkey", p);
			continue;
		}
		memset(tag, 0, sizeof tag);
		checkf(im->aead_encrypt(x.ctx, iv, ad, adlen, in + off, out + 3,
		                        len, tag, taglen) == 0 &&
		       !memcmp(out + 3, ref, len) && !memcmp(tag, rtag, taglen),
		       "%s gcm key %zu ad %zu len %zu tag %zu: encrypt", p, kl * 8,
		       adlen, len, taglen);
		checkf(im->aead_decrypt(x.ctx, iv, ad, adlen, out + 3, out + 3,
		                        len, tag, taglen) == 0 &&
		       !memcmp(out + 3, in + off, len),
		       "%s gcm key %zu ad %zu len %zu tag %zu: decrypt in place",
		       p, kl * 8, adlen, len, taglen);
		memcpy(out, in + off, len);
		checkf(im->aead_encrypt(x.ctx, iv, ad, adlen, out, out, len, tag,
		                        taglen) == 0 && !memcmp(out, ref, len) &&
		       !memcmp(tag, rtag, taglen),
		       "%s gcm ad %zu len %zu: encrypt in place", p, adlen, len);
		tag[k % taglen] ^= (uint8_t)(1 << k % 8);
		checkf(im->aead_decrypt(x.ctx, iv, ad, adlen, ref, out, len, tag,
		                        taglen) == -EBADMSG,
		       "%s gcm ad %zu len %zu: a flipped tag bit accepted", p,
		       adlen, len);
		tag[k % taglen] ^= (uint8_t)(1 << k % 8);
		if (len) {
			memcpy(out, ref, len);
			out[k % len] ^= 0x80;
			checkf(im->aead_decrypt(x.ctx, iv, ad, adlen, out, out, len,
			                        tag, taglen) == -EBADMSG,
			       "%s gcm ad %zu len %zu: a flipped text bit accepted",
			       p, adlen, len);
		}
		if (adlen) {
			ad[k % adlen] ^= 1;
			checkf(im->aead_decrypt(x.ctx, iv, ad, adlen, ref, out, len,
			                        tag, taglen) == -EBADMSG,
			       "%s gcm ad %zu len %zu: a flipped AAD bit accepted",
			       p, adlen, len);
			ad[k % adlen] ^= 1;
		}
		checkf(im->aead_encrypt(x.ctx, iv, ad, adlen, in, out, len, tag,
		                        taglen == 16 ? 10 : 17) == -EINVAL,
		       "%s gcm: a tag of %d bytes taken", p, taglen == 16 ? 10 : 17);
		cb_inst_free(&x);
	}
out:
	free(ad);
	free(in);
	free(ref);
	free(out);
}

#if defined(__x86_64__)
/*
 * The counters of the AES-NI, VAES-256 and VAES-512 routines (additions
 * to the block's last byte while it carries nothing, else inc32 in full;
 * two blocks a register on VAES-256) from
 * every last byte of J0 and across inc32's wrap at 2^32, against AES-CTR from
 * single blocks: the ciphertext of 2 KiB + 37 bytes (4 steps and a tail).
 * A 12-byte IV always starts the text at counter 2, so this reaches the
 * cases the AEAD cannot.
 */
static void gcm_counters_on(int isa)
{
	static struct cb_gcm_key gk;
	struct cb_gcm_req r;
	uint8_t key[16], in[2085], out[2085], ctr[16], ks[16];
	int bad = 0;

	if (!paths[isa])
		return;
	fill(key, sizeof key);
	fill(in, sizeof in);
	cb_aes_expand_key(&gk.aes, key, 16);
	for (unsigned v = 0; v < 256 + 4; v++) {
		uint32_t c0 = v < 256 ? 0x01020300u + v : 0xffffffc0u + 16 * (v - 256);

		memset(&r, 0, sizeof r);
		fill(r.j0, 12);
		r.j0[12] = (uint8_t)(c0 >> 24), r.j0[13] = (uint8_t)(c0 >> 16);
		r.j0[14] = (uint8_t)(c0 >> 8), r.j0[15] = (uint8_t)c0;
		r.in = in, r.out = out, r.len = sizeof in;
		(isa == CB_NATIVE_AESNI ? cb_aesni_gcm_enc :
		 isa == CB_NATIVE_VAES256 ? cb_vaes256_gcm_enc
		                          : cb_vaes512_gcm_enc)(&gk, &r);
		memcpy(ctr, r.j0, 12);
		for (size_t i = 0; i < sizeof in; i += 16) {
			uint32_t c = c0 + 1 + (uint32_t)(i / 16);

			ctr[12] = (uint8_t)(c >> 24), ctr[13] = (uint8_t)(c >> 16);
			ctr[14] = (uint8_t)(c >> 8), ctr[15] = (uint8_t)c;
			cb_aesni_ecb_enc(&gk.aes, ctr, ks, 16);
			for (size_t j = i; j < i + 16 && j < sizeof in; j++)
				bad |= (out[j] ^ in[j] ^ ks[j - i]) != 0;
		}
		checkf(!bad, "%s gcm counters from %08x: wrong key stream",
		       cb_native_isa_name(isa), (unsigned)c0);
		bad = 0;
	}
}

static void test_gcm_counters(void)
{
	gcm_counters_on(CB_NATIVE_AESNI);
	gcm_counters_on(CB_NATIVE_VAES256);
	gcm_counters_on(CB_NATIVE_VAES512);
}
#endif

#if defined(__aarch64__)
/*
 * ce's counters (inc32 on the block's last 4 bytes) across the wrap at
 * 2^32 and from a carry in every byte, against AES-CTR from single
 * blocks: 8-block steps and a 1-7 block tail (the routine takes whole
 * blocks; gcm_crypt does a partial one).
 */
static void test_gcm_counters(void)
{
	static struct cb_gcm_key gk;
	uint8_t key[32], in[16 * 29], out[16 * 29], j[16], ctr[16], ks[16];
	uint8_t y[16];
	int bad = 0;

	if (!paths[CB_NATIVE_CE])
		return;
	fill(key, sizeof key);
	fill(in, sizeof in);
	cb_ce_expand_key(&gk.aes, key, 32);
	for (unsigned v = 0; v < 4 * 8; v++) {
		/* a carry out of byte 15, 14, 13 and inc32's wrap */
		uint32_t c0 = (uint32_t)((UINT64_C(1) << (8 * (1 + v % 4))) -
		                         1 - v % 13);
		size_t len = 16 * (1 + (v * 7) % 29);

		fill(j, 12);
		j[12] = (uint8_t)(c0 >> 24), j[13] = (uint8_t)(c0 >> 16);
		j[14] = (uint8_t)(c0 >> 8), j[15] = (uint8_t)c0;
		memset(y, 0, sizeof y);
		cb_ce_gcm_enc(&gk, y, j, in, out, len);
		memcpy(ctr, j, 12);
		for (size_t i = 0; i < len; i += 16) {
			uint32_t c = c0 + (uint32_t)(i / 16);

			ctr[12] = (uint8_t)(c >> 24), ctr[13] = (uint8_t)(c >> 16);
			ctr[14] = (uint8_t)(c >> 8), ctr[15] = (uint8_t)c;
			cb_ce_ecb_enc(&gk.aes, ctr, ks, 16);
			for (size_t b = 0; b < 16; b++)
				bad |= (out[i + b] ^ in[i + b] ^ ks[b]) != 0;
		}
		checkf(!bad, "ce gcm counters from %08x, %zu blocks: wrong key "
		       "stream", (unsigned)c0, len / 16);
		bad = 0;
	}
}
#endif

static void test_gcm(unsigned *k)
{
	static const size_t keys[] = { 16, 24, 32 };
	static const size_t lens[] = {
		0, 1, 15, 16, 17, 48, 63, 64, 65, 127, 128, 129, 255, 256, 257,
		447, 448, 449, 495, 496, 497, 511, 512, 513, 1023, 1024, 1025,
		1350, 1536, 2047, 4111, 16384 + 13,
	};
	static const size_t ads[] = { 0, 1, 13, 16, 17, 64, 240, 241, 513 };
	static const size_t tags[] = { 16, 4, 8, 12, 13, 15 };

	for (size_t ki = 0; ki < 3; ki++)
		for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
			size_t a = ads[(li + ki) % (sizeof ads / sizeof *ads)];
			size_t t = tags[(li + 2 * ki) % (sizeof tags / sizeof *tags)];

			gcm_case(keys[ki], a, lens[li], t, (*k)++);
			gcm_case(keys[ki], lens[li] % 300, lens[li], 16, (*k)++);
		}
	/* every text length to 600: the 16-block steps of vaes256 and
	 * aesni's 8, their 1-15 block tails, the packet bounds */
	for (size_t len = 0; len <= 600; len++)
		gcm_case(len % 3 ? 32 : 16, len % 37, len, 16, (*k)++);
	/* the packet routine's bound: AAD + text + lengths blocks = 32, 33 */
	gcm_case(32, 16 * 15, 16 * 16, 16, (*k)++);
	gcm_case(32, 16 * 15 + 1, 16 * 16, 16, (*k)++);
	gcm_case(16, 0, 16 * 31, 16, (*k)++);
	gcm_case(16, 1, 16 * 31, 16, (*k)++);
	/* AAD of 32 and 33 blocks (the powers' table) before longer text */
	gcm_case(32, 16 * 32, 16 * 16, 16, (*k)++);
	gcm_case(24, 16 * 32 - 3, 1350, 16, (*k)++);
	gcm_case(16, 16 * 32 + 1, 4096 + 7, 16, (*k)++);
	/* every text length to 600 (the AES-NI routine's 8-block groups and
	 * its block-at-a-time tail), AAD lengths across the packet bound */
	for (size_t n = 0; n <= 600; n++)
		gcm_case(n % 3 == 2 ? 24 : 32, (n * 7) % 67, n, 16, (*k)++);
#if defined(__x86_64__) || defined(__aarch64__)
	test_gcm_counters();
#endif
}

int main(void)
{
	static const size_t keys[] = { 16, 24, 32 };
	static const char *const algs[] = {
		"cbc(aes)", "ecb(aes)", "essiv(cbc(aes),sha256)" };
	static const size_t counts[] = { 1, 3, 15, 17, 255 };
	static const uint64_t firsts[] = {
		0, 5, 0xfffffff0u, 0xfffffffffffffff8u };
	const struct cb_backend *ossl = cb_backend_find("openssl");
	const struct cb_backend *gcry = cb_backend_find("gcrypt");
	unsigned k = 0;

	if (gcry && cb_backend_status(gcry, NULL) == 0 &&
	    (ref_xts192 = cb_impl_find(gcry, "xts(aes)", 0)) &&
	    cb_impl_status(ref_xts192, NULL) < 0)
		ref_xts192 = NULL;

	for (int isa = 0; isa < CB_NATIVE_NISA; isa++) {
		const char *why;

		paths[isa] = cb_native_isa_impls(isa, &why);
		if (!paths[isa]) {
			char msg[200];

			snprintf(msg, sizeof msg, "path %s: %s",
			         cb_native_isa_name(isa), why);
			skip(msg);
		}
	}
	if (!paths[0]) {                 /* the lowest path: AES-NI, CE */
		finish();
		return CB_EXIT_SKIP;
	}
	test_choice();
	for (int isa = 0; isa < CB_NATIVE_NISA; isa++)
		if (paths[isa]) {
			test_fixed(isa);
			test_vectors(isa);
			test_errors(isa);
		}
	if (!ossl || cb_backend_status(ossl, NULL) < 0 ||
	    !(ref_cbc = cb_impl_find(ossl, "cbc(aes)", 0)) ||
	    !(ref_ecb = cb_impl_find(ossl, "ecb(aes)", 0)) ||
	    !(ref_essiv = cb_impl_find(ossl, "essiv(cbc(aes),sha256)", 0)) ||
	    !(ref_xts = cb_impl_find(ossl, "xts(aes)", 0))) {
		skip("OpenSSL unavailable: no differential tests");
	} else {
		for (size_t a = 0; a < 3; a++)
			for (size_t ki = 0; ki < 3; ki++)
				for (size_t li = 0;
				     li < sizeof lengths / sizeof lengths[0]; li++)
					random_case(algs[a], keys[ki], lengths[li], k++);
		for (size_t a = 0; a < 3; a += 2)
			for (size_t ki = 0; ki < 3; ki++) {
				for (size_t ci = 0; ci < 5; ci++) {
					uint64_t f = firsts[(ci + ki) % 4];

					sector_case(algs[a], keys[ki], 512, counts[ci], f,
					            1, k++);
					sector_case(algs[a], keys[ki], 4096, counts[ci], f,
					            1, k++);
					/* dm-crypt numbering: 512-byte units */
					sector_case(algs[a], keys[ki], 4096, counts[ci], f,
					            8, k++);
				}
				/* sector sizes the 64-byte-load routine cannot take */
				sector_case(algs[a], keys[ki], 16, 17, 3, 1, k++);
				sector_case(algs[a], keys[ki], 48, 33, 9, 1, k++);
				sector_case(algs[a], keys[ki], 480, 9, 100, 1, k++);
				/* 32 lanes 32 bytes a step (vaes512): a multiple
				 * of 32 but not of 64, past 32 sectors */
				sector_case(algs[a], keys[ki], 96, 40, 11, 1, k++);
				/* half-sector steps (vaes256): 2048 and 12288-byte
				 * sectors, and 8192 which keeps the staged routine */
				sector_case(algs[a], keys[ki], 2048, 17, 5, 4, k++);
				sector_case(algs[a], keys[ki], 12288, 9, 7, 24, k++);
				/* quarter-sector steps (vaes512, past 16) */
				sector_case(algs[a], keys[ki], 12288, 21, 7, 24, k++);
				sector_case(algs[a], keys[ki], 8192, 3, 1, 16, k++);
				/* 64 lanes in 256/256/256/rest calls (vaes512,
				 * 4 KiB multiples, past 32 sectors): one batch
				 * more than 32, whole batches, a short last one,
				 * and the long call of larger sectors */
				sector_case(algs[a], keys[ki], 4096, 33, 2, 8, k++);
				sector_case(algs[a], keys[ki], 4096, 64, 9, 1, k++);
				sector_case(algs[a], keys[ki], 4096, 70, 5, 8, k++);
				sector_case(algs[a], keys[ki], 8192, 40, 3, 16, k++);
				sector_case(algs[a], keys[ki], 12288, 37, 1, 24, k++);
			}
		test_xts(&k);
		if ((ref_gcm = cb_impl_find(ossl, "gcm(aes)", 0)))
			test_gcm(&k);
		else
			skip("OpenSSL has no gcm(aes): no GCM differential test");
		for (unsigned n = 1; n <= BATCH_MAX; n += n < 9 ? 1 : 7)
			for (int layout = 0; layout < 2; layout++) {
				batch_case("essiv(cbc(aes),sha256)", n, 16, layout);
				batch_case("cbc(aes)", n, 48, layout);
				batch_case("essiv(cbc(aes),sha256)", n, 4096, layout);
				batch_case("cbc(aes)", n, 512, layout);
			}
	}
	for (int isa = 0; isa < CB_NATIVE_NISA; isa++)
		printf("  path %-8s %s\n", cb_native_isa_name(isa),
		       paths[isa] ? "tested" : "skipped (CPU lacks it)");
	return finish() ? CB_EXIT_FAIL : CB_EXIT_OK;
}
