/*
 * native_arm64.c - the native backend on AArch64: ecb(aes), cbc(aes),
 * xts(aes) and the seed's fused essiv(cbc(aes),sha256) on the ARMv8
 * Crypto Extensions (backends/native/aarch64/aes_ce.c, contracts in
 * native_ce.h).  One code path, "ce", chosen at load time from
 * getauxval(AT_HWCAP) (HWCAP_AES) under the CRYPTOBENCH_ISA cap ("none":
 * --cpu generic or neon).  The x86-64 glue is native.c; this file is
 * empty elsewhere.
 *
 * As on x86-64: one request's encryption is one CBC chain (ESSIV's salt
 * encryption fused in front); decryption, ECB and XTS keep 8 blocks in
 * flight; a multi-sector CBC encryption runs 8 sector chains interleaved
 * (fewer repeat the last one); a batch (--mb) runs its requests as such
 * chains; XTS steals ciphertext for a partial block here and numbers
 * sectors (plain64) with the tweak key kept as the salt schedule.
 */
#if defined(__aarch64__)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>

#include "core/cb.h"
#include "native.h"
#include "native_ce.h"

#ifndef HWCAP_AES
#define HWCAP_AES (1 << 3)
#endif
#ifndef HWCAP_PMULL
#define HWCAP_PMULL (1 << 4)
#endif

static const char *const isa_names[CB_NATIVE_NISA] = { "ce" };

const char *cb_native_isa_name(int isa)
{
	return isa >= 0 && isa < CB_NATIVE_NISA ? isa_names[isa] : NULL;
}

int cb_native_choose(const char *cap, int cpu_isa)
{
	if (cap && !strcmp(cap, "none"))
		return -ENOTSUP;
	if (cap && *cap && strcmp(cap, "ce"))
		return -EINVAL;
	return cpu_isa < 0 ? -ENOTSUP : CB_NATIVE_CE;
}

int cb_native_cpu_isa(void)
{
	return getauxval(AT_HWCAP) & HWCAP_AES ? CB_NATIVE_CE : -ENOTSUP;
}

/* --cpu: CRYPTOBENCH_ISA=ce where the level allows AES, else none. */
static int native_cap(unsigned hw, char *env, size_t n)
{
	snprintf(env, n, "CRYPTOBENCH_ISA=%s", hw & CB_HW_AES ? "ce" : "none");
	return 1;
}

/* ---- keys and contexts ---------------------------------------------- */

#define CTX_SIZE (sizeof(struct cb_native_ctx) + 63)

static inline struct cb_native_ctx *ctx_of(void *p)
{
	return (struct cb_native_ctx *)(((uintptr_t)p + 63) & ~(uintptr_t)63);
}

static int bad_len(size_t len)
{
	cb_set_error("native: %zu bytes is not a multiple of the AES block", len);
	return -EINVAL;
}

static int native_setkey(void *vctx, const struct cb_impl *impl,
                         const uint8_t *key, size_t keylen)
{
	struct cb_native_ctx *c = ctx_of(vctx);

	(void)impl;
	if (keylen != 16 && keylen != 24 && keylen != 32) {
		cb_set_error("native: AES takes a 128, 192 or 256-bit key, "
		             "not %zu bits", keylen * 8);
		return -EINVAL;
	}
	cb_ce_expand_key(&c->key, key, keylen);
	memset(c->iv, 0, sizeof c->iv);
	return 0;
}

/* ESSIV's salt: SHA-256 of the key from a library backend's sha256 (the
 * one primitive native borrows, as on x86-64). */
static int native_essiv_setkey(void *vctx, const struct cb_impl *impl,
                               const uint8_t *key, size_t keylen)
{
	const struct cb_impl *sha = cb_impl_select(NULL, "sha256", NULL, NULL);
	struct cb_native_ctx *c = ctx_of(vctx);
	uint8_t salt[32];
	struct cb_inst h;
	int rc;

	if ((rc = native_setkey(vctx, impl, key, keylen)) < 0)
		return rc;
	if (!sha) {
		cb_set_error("native: essiv needs sha256 from a library backend");
		return -ENOTSUP;
	}
	if ((rc = cb_inst_new(&h, sha, NULL, 0)) < 0)
		return rc;
	rc = cb_inst_digest(&h, key, keylen, salt);
	cb_inst_free(&h);
	if (rc == 0)
		cb_ce_expand_key(&c->salt, salt, sizeof salt);
	cb_wipe(salt, sizeof salt);
	return rc;
}

static int native_xts_setkey(void *vctx, const struct cb_impl *impl,
                             const uint8_t *key, size_t keylen)
{
	struct cb_native_ctx *c = ctx_of(vctx);

	(void)impl;
	cb_ce_expand_key(&c->key, key, keylen / 2);
	cb_ce_expand_key(&c->salt, key + keylen / 2, keylen / 2);
	memset(c->iv, 0, sizeof c->iv);
	return 0;
}

static void native_free(void *vctx)
{
	cb_wipe(ctx_of(vctx), sizeof(struct cb_native_ctx));
}

/* ---- one request ------------------------------------------------------ */

#define ARGS void *vctx, const uint8_t *iv, const uint8_t *in, uint8_t *out, \
             size_t len

static int ce_ecb_enc(ARGS)
{
	(void)iv;
	if (len % 16)
		return bad_len(len);
	cb_ce_ecb_enc(&ctx_of(vctx)->key, in, out, len);
	return 0;
}

static int ce_ecb_dec(ARGS)
{
	(void)iv;
	if (len % 16)
		return bad_len(len);
	cb_ce_ecb_dec(&ctx_of(vctx)->key, in, out, len);
	return 0;
}

static int ce_cbc_enc(ARGS)
{
	struct cb_native_ctx *c = ctx_of(vctx);

	if (len % 16)
		return bad_len(len);
	cb_ce_cbc_enc(&c->key, iv ? iv : c->iv, c->iv, in, out, len);
	return 0;
}

static int ce_cbc_dec(ARGS)
{
	struct cb_native_ctx *c = ctx_of(vctx);

	if (len % 16)
		return bad_len(len);
	cb_ce_cbc_dec(&c->key, iv ? iv : c->iv, c->iv, in, out, len);
	return 0;
}

static int ce_essiv_enc(ARGS)
{
	struct cb_native_ctx *c = ctx_of(vctx);

	if (len % 16)
		return bad_len(len);
	if (iv)
		cb_ce_essiv_cbc_enc(c, iv, in, out, len);
	else
		cb_ce_cbc_enc(&c->key, c->iv, c->iv, in, out, len);
	return 0;
}

static int ce_essiv_dec(ARGS)
{
	struct cb_native_ctx *c = ctx_of(vctx);

	if (len % 16)
		return bad_len(len);
	if (iv)
		cb_ce_essiv_cbc_dec(c, iv, in, out, len);
	else
		cb_ce_cbc_dec(&c->key, c->iv, c->iv, in, out, len);
	return 0;
}

/* ---- XTS: the tweak encrypted here, a partial block stolen ------------ */

static void xts_mulx(uint8_t t[16])
{
	unsigned carry = t[15] >> 7;

	for (int i = 15; i > 0; i--)
		t[i] = (uint8_t)(t[i] << 1 | t[i - 1] >> 7);
	t[0] = (uint8_t)(t[0] << 1 ^ (carry ? 0x87 : 0));
}

/* IEEE 1619's ciphertext stealing, as native.c's xts_crypt: the last
 * whole block and the partial one swapped around one more block. */
static void xts_crypt(int enc, const struct cb_native_ctx *c, uint8_t t[16],
                      const uint8_t *in, uint8_t *out, size_t len)
{
	void (*fn)(const struct cb_aes_key *, uint8_t *, const uint8_t *,
	           uint8_t *, size_t) = enc ? cb_ce_xts_enc : cb_ce_xts_dec;
	size_t r = len % 16, whole = len - r - (r ? 16 : 0);
	uint8_t cc[16], pp[16], t2[16];

	cb_ce_ecb_enc(&c->salt, t, t, 16);
	fn(&c->key, t, in, out, whole);
	if (!r)
		return;
	in += whole;
	out += whole;
	if (enc) {
		fn(&c->key, t, in, cc, 16);
	} else {
		memcpy(t2, t, 16);
		xts_mulx(t);
		fn(&c->key, t, in, cc, 16);
		memcpy(t, t2, 16);
	}
	memcpy(pp, in + 16, r);
	memcpy(pp + r, cc + r, 16 - r);
	memcpy(out + 16, cc, r);
	fn(&c->key, t, pp, out, 16);
	cb_wipe(cc, sizeof cc);
	cb_wipe(pp, sizeof pp);
}

static int xts_request(int enc, void *vctx, const uint8_t *iv,
                       const uint8_t *in, uint8_t *out, size_t len)
{
	struct cb_native_ctx *c = ctx_of(vctx);
	uint8_t t[16];

	if (len < 16) {
		cb_set_error("native: XTS needs at least one block, not %zu "
		             "bytes", len);
		return -EINVAL;
	}
	if (iv)
		memmove(c->iv, iv, 16);
	memcpy(t, c->iv, 16);
	xts_crypt(enc, c, t, in, out, len);
	return 0;
}

static int ce_xts_enc(ARGS)
{
	return xts_request(1, vctx, iv, in, out, len);
}

static int ce_xts_dec(ARGS)
{
	return xts_request(0, vctx, iv, in, out, len);
}

/* ---- several sectors, several requests -------------------------------- */

#define SECT void *vctx, uint64_t first, uint64_t step, size_t ss, \
             const uint8_t *in, uint8_t *out, size_t len

static void put_sector_iv(uint8_t iv[16], uint64_t sector)
{
	cb_put_le64(iv, sector);
	memset(iv + 8, 0, 8);
}

static int check_sectors(size_t ss, size_t len)
{
	if (!ss || ss % 16 || len % ss) {
		cb_set_error("native: %zu bytes is not a whole number of %zu-byte "
		             "sectors of whole AES blocks", len, ss);
		return -EINVAL;
	}
	return 0;
}

/* 8 sector chains at a time (the ESSIV IVs of the 8 in one ECB call);
 * a short last group repeats its last sector in the spare lanes. */
static int enc_sectors(int essiv, SECT)
{
	const struct cb_native_ctx *c = ctx_of(vctx);
	ptrdiff_t delta = (ptrdiff_t)((uintptr_t)out - (uintptr_t)in);
	struct cb_lanes l;
	size_t n;
	int rc;

	if ((rc = check_sectors(ss, len)) < 0)
		return rc;
	n = len / ss;
	for (size_t s = 0; s < n; s += 8) {
		size_t m = n - s < 8 ? n - s : 8;

		for (size_t j = 0; j < 8; j++) {
			size_t k = s + (j < m ? j : m - 1);

			l.in[j] = in + k * ss;
			put_sector_iv(l.iv[j], first + k * step);
		}
		if (essiv)
			cb_ce_ecb_enc(&c->salt, l.iv[0], l.iv[0], 8 * 16);
		cb_ce_cbc_enc_lanes8(&c->key, &l, delta, ss);
	}
	return 0;
}

static int dec_sectors(int essiv, SECT)
{
	const struct cb_native_ctx *c = ctx_of(vctx);
	uint8_t iv[16];
	int rc;

	if ((rc = check_sectors(ss, len)) < 0)
		return rc;
	for (size_t s = 0; s < len / ss; s++) {
		put_sector_iv(iv, first + s * step);
		if (essiv)
			cb_ce_ecb_enc(&c->salt, iv, iv, 16);
		cb_ce_cbc_dec(&c->key, iv, iv, in + s * ss, out + s * ss, ss);
	}
	return 0;
}

static int xts_sectors(int enc, SECT)
{
	const struct cb_native_ctx *c = ctx_of(vctx);
	uint8_t t[16];
	int rc;

	if ((rc = check_sectors(ss, len)) < 0)
		return rc;
	for (size_t s = 0; s < len / ss; s++) {
		put_sector_iv(t, first + s * step);
		cb_ce_ecb_enc(&c->salt, t, t, 16);
		(enc ? cb_ce_xts_enc : cb_ce_xts_dec)(&c->key, t, in + s * ss,
		                                      out + s * ss, ss);
	}
	cb_wipe(t, sizeof t);
	return 0;
}

static int ce_cbc_enc_sec(SECT) { return enc_sectors(0, vctx, first, step, ss, in, out, len); }
static int ce_cbc_dec_sec(SECT) { return dec_sectors(0, vctx, first, step, ss, in, out, len); }
static int ce_essiv_enc_sec(SECT) { return enc_sectors(1, vctx, first, step, ss, in, out, len); }
static int ce_essiv_dec_sec(SECT) { return dec_sectors(1, vctx, first, step, ss, in, out, len); }
static int ce_xts_enc_sec(SECT) { return xts_sectors(1, vctx, first, step, ss, in, out, len); }
static int ce_xts_dec_sec(SECT) { return xts_sectors(0, vctx, first, step, ss, in, out, len); }

/* --mb: requests 8 at a time as interleaved chains (ESSIV's IVs in one
 * ECB call); requests whose outputs sit at another offset from their
 * inputs than the first's go one at a time. */
static int enc_batch(int essiv, void *vctx, unsigned n,
                     const uint8_t *const *ivs, const uint8_t *const *in,
                     uint8_t *const *out, size_t len)
{
	struct cb_native_ctx *c = ctx_of(vctx);
	ptrdiff_t delta = n ? (ptrdiff_t)((uintptr_t)out[0] - (uintptr_t)in[0]) : 0;
	int same = n > 0 && len > 0 && ivs != NULL;
	struct cb_lanes l;

	if (len % 16)
		return bad_len(len);
	for (unsigned i = 1; i < n && same; i++)
		same = (ptrdiff_t)((uintptr_t)out[i] - (uintptr_t)in[i]) == delta;
	for (unsigned s = 0; s < n; s++)
		if (!same) {
			int rc = (essiv ? ce_essiv_enc : ce_cbc_enc)(vctx,
			              ivs ? ivs[s] : NULL, in[s], out[s], len);

			if (rc < 0)
				return rc;
		}
	for (unsigned s = 0; same && s < n; s += 8) {
		unsigned m = n - s < 8 ? n - s : 8;

		for (unsigned j = 0; j < 8; j++) {
			unsigned k = s + (j < m ? j : m - 1);

			l.in[j] = in[k];
			memcpy(l.iv[j], ivs[k], 16);
		}
		if (essiv)
			cb_ce_ecb_enc(&c->salt, l.iv[0], l.iv[0], 8 * 16);
		cb_ce_cbc_enc_lanes8(&c->key, &l, delta, len);
	}
	if (same)
		memcpy(c->iv, out[n - 1] + len - 16, 16);
	return 0;
}

#define BATCH void *vctx, unsigned n, const uint8_t *const *ivs, \
              const uint8_t *const *in, uint8_t *const *out, size_t len
static int ce_cbc_batch(BATCH) { return enc_batch(0, vctx, n, ivs, in, out, len); }
static int ce_essiv_batch(BATCH) { return enc_batch(1, vctx, n, ivs, in, out, len); }

/* ---- the table -------------------------------------------------------- */

static const struct cb_impl impl_cbc = {
	.alg = "cbc(aes)", .driver = "cbc-aes-native-ce", .priority = 300,
	.ctx_size = CTX_SIZE, .setkey = native_setkey, .free = native_free,
	.encrypt = ce_cbc_enc, .decrypt = ce_cbc_dec,
	.encrypt_sectors = ce_cbc_enc_sec, .decrypt_sectors = ce_cbc_dec_sec,
	.encrypt_batch = ce_cbc_batch,
};
static const struct cb_impl impl_ecb = {
	.alg = "ecb(aes)", .driver = "ecb-aes-native-ce", .priority = 300,
	.ctx_size = CTX_SIZE, .setkey = native_setkey, .free = native_free,
	.encrypt = ce_ecb_enc, .decrypt = ce_ecb_dec,
};
static const struct cb_impl impl_essiv = {
	.alg = "essiv(cbc(aes),sha256)", .driver = "essiv-cbc-aes-native-ce",
	.priority = 300, .ctx_size = CTX_SIZE, .setkey = native_essiv_setkey,
	.free = native_free, .encrypt = ce_essiv_enc, .decrypt = ce_essiv_dec,
	.encrypt_sectors = ce_essiv_enc_sec, .decrypt_sectors = ce_essiv_dec_sec,
	.encrypt_batch = ce_essiv_batch,
};
static const struct cb_impl impl_xts = {
	.alg = "xts(aes)", .driver = "xts-aes-native-ce", .priority = 300,
	.ctx_size = CTX_SIZE, .setkey = native_xts_setkey, .free = native_free,
	.encrypt = ce_xts_enc, .decrypt = ce_xts_dec,
	.encrypt_sectors = ce_xts_enc_sec, .decrypt_sectors = ce_xts_dec_sec,
};
static const struct cb_impl *const impls_ce[] = {
	&impl_cbc, &impl_ecb, &impl_essiv, &impl_xts, NULL,
};

/* ---- the choice, made once at load time ------------------------------- */

static struct {
	int status, cpu_isa;
	char why[160], details[160];
} chosen;

__attribute__((constructor)) static void native_init(void)
{
	const char *cap = getenv("CRYPTOBENCH_ISA");
	unsigned long hw = getauxval(AT_HWCAP);

	chosen.cpu_isa = cb_native_cpu_isa();
	chosen.status = cb_native_choose(cap, chosen.cpu_isa);
	if (chosen.status == -EINVAL)
		snprintf(chosen.why, sizeof chosen.why, "CRYPTOBENCH_ISA='%.40s' "
		         "is not a code path (none or ce)", cap);
	else if (chosen.status < 0)
		snprintf(chosen.why, sizeof chosen.why, "%s", cap &&
		         !strcmp(cap, "none") ? "capped below the Crypto Extensions "
		         "(CRYPTOBENCH_ISA=none, --cpu generic or neon)"
		         : "CPU has no AES instructions (HWCAP_AES)");
	else
		snprintf(chosen.details, sizeof chosen.details,
		         "ce (hwcap: aes%s; cap: %s)", hw & HWCAP_PMULL ? " pmull" : "",
		         cap && *cap ? cap : "none");
	if (chosen.status > 0)
		chosen.status = 0;
}

const struct cb_impl *const *cb_native_isa_impls(int isa, const char **why)
{
	if (isa != CB_NATIVE_CE) {
		*why = "no such code path";
		return NULL;
	}
	if (chosen.cpu_isa < 0) {
		*why = "CPU has no AES instructions (HWCAP_AES)";
		return NULL;
	}
	return impls_ce;
}

static int native_probe(const char **why)
{
	if (chosen.status < 0)
		*why = chosen.why;
	return chosen.status;
}

static const char *native_version(void)
{
	return CB_VERSION;
}

static const char *native_details(void)
{
	return chosen.status < 0 ? NULL : chosen.details;
}

/* ---- the CPU's limit, measured ---------------------------------------- */

static double secs(void (*fn)(uint64_t), uint64_t n)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	fn(n);
	clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	return (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* AESE+AESMC pairs a cycle: 12 independent pairs an iteration against 4
 * dependent adds (a cycle each), the median of 15 alternated pairs. */
static double aes_rate(void)
{
	const uint64_t n_aes = 100000, n_add = 250000;
	double r[15];

	for (int i = 0; i < 15; i++) {
		double a = secs(cb_ce_probe, n_aes), d = secs(cb_ce_probe_adds, n_add);

		r[i] = a > 0 && d > 0 ? 12.0 * n_aes / (a / d * 4.0 * n_add) : 0;
	}
	qsort(r, 15, sizeof *r, cmp_double);
	return r[7];
}

static const char *native_limits(void)
{
	static char line[240];
	double r;

	if (chosen.status < 0)
		return NULL;
	if (!*line && (r = aes_rate()) > 0)
		snprintf(line, sizeof line, "%.2f AESE+AESMC pairs/cycle on ce "
		         "(measured); throughput bound %.3f c/B AES-128, %.3f c/B "
		         "AES-256", r, 10 / (16 * r), 14 / (16 * r));
	return *line ? line : NULL;
}

const struct cb_backend cb_backend_native = {
	.name = "native",
	.description = "cryptobench's own AES on the ARMv8 Crypto Extensions "
	               "(fused ESSIV-CBC, multi-sector CBC, XTS)",
	.probe = native_probe,
	.version = native_version,
	.details = native_details,
	.limits = native_limits,
	.impls = impls_ce,
	.cap = native_cap,
};
#endif /* __aarch64__ */
