/*
 * native.c - the native backend's architecture-neutral glue: cryptobench's
 * own AES for ecb(aes), cbc(aes), xts(aes), a fused essiv(cbc(aes),sha256)
 * and gcm(aes), over routine tables that each architecture fills (as the
 * kernel keeps arch/<arch>/crypto apart from crypto/): native_x86.h (x86-64:
 * the .S files under backends/native/x86_64/, contracts in native_asm.h)
 * and native_arm64.h (AArch64: the Crypto Extensions, native_ce.h).  What
 * they share lives here once: contexts and keys, requests, sector loops,
 * batches, XTS's ciphertext stealing, the implementation tables and the
 * choice of path; GCM's glue and the measured limits are files of their
 * own (native_gcm.c, native_limits.c).
 *
 * Code paths - aesni, vaes256 and vaes512 on x86-64, ce on AArch64 - each
 * have their own const implementation table whose driver names end in the
 * path.  At load time a constructor asks the architecture for the CPU's
 * best path, applies CRYPTOBENCH_ISA (a cap) and points the backend's
 * table at that path's implementations; nothing is dispatched per request
 * (every entry point is a path's own function, the path's routine table
 * a constant there, so every call into assembly is a direct call) and
 * tests can run every path side by side through cb_native_isa_impls().
 *
 * Encryption of one request is one CBC chain, latency-bound whatever the
 * vector width (the path's chain routine, ESSIV's AES-256 of the IV fused
 * in).  Decryption and ECB are throughput-bound and use the path's widest
 * vectors.  A multi-sector request is encrypted as the path's lanes of
 * independent sector chains interleaved (8 on aesni and ce, 16 on
 * vaes256, up to 64 on vaes512); fewer sectors than lanes repeat the last
 * sector in the spare lanes (the routines write the same bytes twice), so
 * any count runs in ceil(n / lanes) passes.  ESSIV's salt is SHA-256(key)
 * from whichever library backend provides sha256 (cb_impl_select: the one
 * place a backend borrows a primitive).
 *
 * XTS: the routines do whole blocks from an encrypted tweak and hand back
 * the next one; this file encrypts the tweak (the tweak key lives in the
 * context's salt schedule), steals ciphertext for a partial last block
 * (IEEE 1619: the last full block and the partial one are swapped around
 * one more block operation) and numbers sectors (plain64: the sector
 * number; geli: the byte offset, i.e. iv_step = sector size).  GCM around
 * the routines is native_gcm.c's, the measured limits native_limits.c's;
 * struct path, which they share, is in native_path.h.  On other
 * architectures this file compiles to a stub that reports itself
 * unavailable.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "native.h"
#include "native_path.h"
#include "native_arch.h"

#if defined(__x86_64__) || defined(__aarch64__)

_Static_assert(offsetof(struct cb_aes_key, enc) == CB_AESKEY_ENC, "enc");
_Static_assert(offsetof(struct cb_aes_key, dec) == CB_AESKEY_DEC, "dec");
_Static_assert(offsetof(struct cb_aes_key, rounds) == CB_AESKEY_ROUNDS,
               "rounds");
_Static_assert(sizeof(struct cb_aes_key) == CB_AESKEY_SIZE, "key size");
_Static_assert(offsetof(struct cb_gcm_key, aes) == CB_GCM_AES, "gcm aes");
_Static_assert(offsetof(struct cb_gcm_key, hpow) == CB_GCM_HPOW, "gcm hpow");
_Static_assert(sizeof(struct cb_gcm_key) == CB_GCM_SIZE, "gcm size");
_Static_assert(offsetof(struct cb_gcm_key, zero) == CB_GCM_HEND, "gcm end");
_Static_assert(offsetof(struct cb_gcm_key, hk) == CB_GCM_HK, "gcm hk");
_Static_assert(offsetof(struct cb_gcm_key, hkz) == CB_GCM_HKZ, "gcm hkz");
_Static_assert(offsetof(struct cb_gcm_key, hky) == CB_GCM_HKY, "gcm hky");
_Static_assert(offsetof(struct cb_gcm_req, len) == CB_GCMREQ_LEN, "req len");
_Static_assert(offsetof(struct cb_gcm_req, ad) == CB_GCMREQ_AD, "req ad");
_Static_assert(offsetof(struct cb_gcm_req, adlen) == CB_GCMREQ_ADLEN, "adlen");
_Static_assert(offsetof(struct cb_gcm_req, y) == CB_GCMREQ_Y, "req y");
_Static_assert(offsetof(struct cb_gcm_req, j0) == CB_GCMREQ_J0, "req j0");
_Static_assert(offsetof(struct cb_gcm_req, s) == CB_GCMREQ_S, "req s");
_Static_assert(offsetof(struct cb_native_ctx, key) == CB_CTX_KEY, "key");
_Static_assert(offsetof(struct cb_native_ctx, salt) == CB_CTX_SALT, "salt");
_Static_assert(offsetof(struct cb_native_ctx, iv) == CB_CTX_IV, "iv");
_Static_assert(offsetof(struct cb_lanes, in) == CB_LANES_IN, "lanes in");
_Static_assert(offsetof(struct cb_lanes, iv) == CB_LANES_IV, "lanes iv");


/*
 * The architecture's half (native_x86.h, native_arm64.h): path_<name> for
 * each path and NATIVE_PATHS(X), X(name) for each, lowest first;
 * isa_names[]; arch_cpu() (the best path, the features seen, GCM's
 * multiplier), arch_lacks() (why a path above the CPU's best is not
 * there), native_cap() (a --cpu level); ARCH_GCM (gcm(aes) on every
 * path), arch_expand_key, arch_ecb_enc (a block or a few outside any
 * path's loop), arch_probe_adds, ARCH_PROBE_N and the strings
 * ARCH_RATE_UNIT, ARCH_DESCRIPTION, ARCH_PATH_LIST, ARCH_CAPPED,
 * ARCH_NO_AES, ARCH_FLAGS_NAME.
 */
#if defined(__x86_64__)
#include "native_x86.h"
#else
#include "native_arm64.h"
#endif

/* ---- the code paths and how one is chosen ------------------------------- */

static int isa_by_name(const char *s)
{
	for (int i = 0; i < CB_NATIVE_NISA; i++)
		if (!strcmp(s, isa_names[i]))
			return i;
	return -EINVAL;
}

const char *cb_native_isa_name(int isa)
{
	return isa >= 0 && isa < CB_NATIVE_NISA ? isa_names[isa] : NULL;
}

int cb_native_choose(const char *cap, int cpu_isa)
{
	int c = CB_NATIVE_NISA - 1;

	if (cap && !strcmp(cap, "none"))
		return -ENOTSUP;
	if (cap && *cap && (c = isa_by_name(cap)) < 0)
		return -EINVAL;
	if (cpu_isa < 0)
		return -ENOTSUP;
	return c < cpu_isa ? c : cpu_isa;
}

static const char *native_version(void)
{
	return CB_VERSION;
}

/* ---- contexts ----------------------------------------------------------- */

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

/* ---- keys --------------------------------------------------------------- */

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
	arch_expand_key(&c->key, key, keylen);
	memset(c->iv, 0, sizeof c->iv);
	return 0;
}

/*
 * SHA-256 of the key for the ESSIV salt.  The one place a backend borrows a
 * primitive: native has no hash of its own, so it asks the core's selector
 * for the first usable sha256 (a library backend's) and runs it through a
 * keyed instance like any caller.
 */
static int sha256_borrowed(const uint8_t *key, size_t keylen,
                           uint8_t salt[32])
{
	const struct cb_impl *sha = cb_impl_select(NULL, "sha256", NULL, NULL);
	struct cb_inst h;
	int rc;

	if (!sha) {
		cb_set_error("native: essiv needs sha256 from a library backend");
		return -ENOTSUP;
	}
	if ((rc = cb_inst_new(&h, sha, NULL, 0)) < 0)
		return rc;
	rc = cb_inst_digest(&h, key, keylen, salt);
	cb_inst_free(&h);
	return rc;
}

static int native_essiv_setkey(void *vctx, const struct cb_impl *impl,
                               const uint8_t *key, size_t keylen)
{
	struct cb_native_ctx *c = ctx_of(vctx);
	uint8_t salt[32];
	int rc;

	if ((rc = native_setkey(vctx, impl, key, keylen)) < 0)
		return rc;
	if ((rc = sha256_borrowed(key, keylen, salt)) < 0)
		return rc;
	arch_expand_key(&c->salt, salt, sizeof salt);
	cb_wipe(salt, sizeof salt);
	return 0;
}

static void native_free(void *vctx)
{
	cb_wipe(ctx_of(vctx), sizeof(struct cb_native_ctx));
}

/*
 * The bodies below are inlined into each path's entry points with the
 * path constant, so every call into assembly is a direct call.
 */
#define INLINE static inline __attribute__((always_inline))

/* ---- one request: encryption is one chain on every path ----------------- */

INLINE int cbc_encrypt(const struct path *p, void *vctx, const uint8_t *iv,
                       const uint8_t *in, uint8_t *out, size_t len)
{
	struct cb_native_ctx *c = ctx_of(vctx);

	if (len % 16)
		return bad_len(len);
	p->cbc_enc(&c->key, iv ? iv : c->iv, c->iv, in, out, len);
	return 0;
}

INLINE int essiv_encrypt(const struct path *p, void *vctx, const uint8_t *iv,
                         const uint8_t *in, uint8_t *out, size_t len)
{
	struct cb_native_ctx *c = ctx_of(vctx);

	if (len % 16)
		return bad_len(len);
	if (iv)
		p->essiv_enc(c, iv, in, out, len);
	else
		p->cbc_enc(&c->key, c->iv, c->iv, in, out, len);
	return 0;
}


/* ---- per path ----------------------------------------------------------- */

/*
 * make check-ct's planted leak (tests/ct/run.sh, docs/ct.md): built with
 * -DCB_CT_PLANT, every ECB request branches on the key's first byte -
 * what `cryptobench ct` must catch.  Never in a real build.
 */
#ifdef CB_CT_PLANT
static volatile unsigned ct_plant_sink;
#define CT_PLANT(c) do { if ((c)->key.enc[0][0] & 1) ct_plant_sink++; } while (0)
#else
#define CT_PLANT(c) ((void)0)
#endif

INLINE int ecb_crypt(block_fn *fn, void *vctx, const uint8_t *in,
                     uint8_t *out, size_t len)
{
	if (len % 16)
		return bad_len(len);
	CT_PLANT(ctx_of(vctx));
	fn(&ctx_of(vctx)->key, in, out, len);
	return 0;
}

INLINE int cbc_decrypt(const struct path *p, void *vctx, const uint8_t *iv,
                       const uint8_t *in, uint8_t *out, size_t len)
{
	struct cb_native_ctx *c = ctx_of(vctx);

	if (len % 16)
		return bad_len(len);
	p->cbc_dec(&c->key, iv ? iv : c->iv, c->iv, in, out, len);
	return 0;
}

INLINE int essiv_decrypt(const struct path *p, void *vctx, const uint8_t *iv,
                         const uint8_t *in, uint8_t *out, size_t len)
{
	struct cb_native_ctx *c = ctx_of(vctx);

	if (len % 16)
		return bad_len(len);
	if (iv)
		p->essiv_dec(c, iv, in, out, len);
	else
		p->cbc_dec(&c->key, c->iv, c->iv, in, out, len);
	return 0;
}

static void put_sector_iv(uint8_t iv[16], uint64_t sector)
{
	cb_put_le64(iv, sector);
	memset(iv + 8, 0, 8);
}

static int check_sectors(size_t sector_size, size_t len)
{
	if (!sector_size || sector_size % 16 || len % sector_size) {
		cb_set_error("native: %zu bytes is not a whole number of %zu-byte "
		             "sectors of whole AES blocks", len, sector_size);
		return -EINVAL;
	}
	return 0;
}

/* The IVs of sectors s, s+1, ... of n (at most CB_LANES_MAX; plain64
 * numbers from first, step apart), encrypted with sk unless NULL (ESSIV's
 * salt, XTS's tweak key) in one ECB call.  How many there are. */
INLINE size_t group_ivs(const struct path *p, const struct cb_aes_key *sk,
                        uint8_t iv[][16], uint64_t first, uint64_t step,
                        size_t s, size_t n)
{
	size_t m = n - s < CB_LANES_MAX ? n - s : CB_LANES_MAX;

	for (size_t j = 0; j < m; j++)
		put_sector_iv(iv[j], first + (s + j) * step);
	if (sk)
		p->ecb_enc(sk, iv[0], iv[0], m * 16);
	return m;
}

/*
 * Multi-sector encryption in staggered part-sector steps.  The sectors of
 * a request lie a multiple of 4 KiB apart, so lanes at one offset of as
 * many sectors all hit one L1 set (8 ways on Zen 4, 12 on Zen 5): every
 * line misses (vaes256's staged 16 lanes of 4 KiB: 0.33 against 0.16 TSC
 * ticks per byte on Zen 4; vaes512's 64 lanes: 3.4 times slower than
 * with the lanes on distinct sets on Zen 5).  Here a sector goes through
 * `parts` calls, its part q in lane group q: group 0 starts g =
 * lanes/parts new sectors while group q continues the sectors group 0
 * started q calls before, chained from the ciphertext the previous call
 * wrote.  Call c runs plen[c % parts] bytes of every lane (the parts of a
 * sector are the lengths of `parts` consecutive calls, one of each), so
 * group q sits the q previous calls' lengths into its sectors: the
 * groups never share an offset, and the routine runs at its unaliased
 * speed.  Lanes without a sector (the first and last parts - 1 calls,
 * short requests) repeat a real one: that waste is a call's length
 * times the empty groups, so the pattern puts the short lengths where
 * the request starts and ends.  Lane j*parts + q is sector j of group q.
 */
INLINE int enc_parts(const struct path *p, lanes_fn *fn, size_t nl,
                     size_t parts, const size_t *plen, int essiv,
                     const struct cb_native_ctx *c, uint64_t first,
                     uint64_t step, size_t ss, const uint8_t *in,
                     uint8_t *out, size_t n)
{
	ptrdiff_t delta = (ptrdiff_t)((uintptr_t)out - (uintptr_t)in);
	size_t g = nl / parts;
	uint8_t iva[CB_LANES_MAX][16];
	struct cb_lanes l;

	for (size_t k = 0; k * g < n + (parts - 1) * g; k++) {
		size_t a0 = k * g;               /* call k's first new sector */
		size_t na = a0 < n ? (n - a0 < g ? n - a0 : g) : 0;
		size_t real = SIZE_MAX, off = 0;

		for (size_t j = 0; j < na; j++)
			put_sector_iv(iva[j], first + (a0 + j) * step);
		if (essiv && na)
			p->ecb_enc(&c->salt, iva[0], iva[0], na * 16);
		for (size_t q = 0; q < parts; q++) {
			size_t b0 = a0 - q * g;
			size_t nb = a0 < q * g || b0 >= n ? 0
			            : n - b0 < g ? n - b0 : g;

			/* group q is the q previous calls' lengths in */
			if (q)
				off += plen[(k + parts - q) % parts];
			for (size_t j = 0; j < nb; j++) {
				size_t e = j * parts + q, at = (b0 + j) * ss + off;

				l.in[e] = in + at;
				/* part q chains from part q-1's last block */
				memcpy(l.iv[e], q ? out + at - 16 : iva[j], 16);
				if (real == SIZE_MAX)
					real = e;
			}
			for (size_t j = nb; j < g; j++)
				l.in[j * parts + q] = NULL;
		}
		for (size_t e = 0; e < nl; e++)
			if (!l.in[e]) {
				l.in[e] = l.in[real];
				memcpy(l.iv[e], l.iv[real], 16);
			}
		fn(&c->key, &l, delta, plen[k % parts]);
	}
	return 0;
}

/* The lane routine for `left` chains of len bytes, its lane count in *nl:
 * the 32-lane one while more chains are left than the narrower holds and
 * a lane stride of len puts at most 8 of its lanes in one L1 set.  (The
 * 64-lane routine on 512-byte sectors measured no faster: a lane of 8
 * superblocks pays its fill and drain on few rounds.) */
INLINE lanes_fn *pick_lanes(const struct path *p, size_t left, size_t len,
                            size_t *nl)
{
	if (p->lanes32 && left > p->nlanes && len % 32 == 0 && len % 2048) {
		*nl = 32;
		return p->lanes32;
	}
	*nl = p->nlanes;
	return len % p->lane_mult ? p->lanes_any : p->lanes;
}

/* The multi-sector entry points only read the context (IVs and lane
 * tables live on the stack), so several threads may share one key. */
INLINE int enc_sectors(const struct path *p, int essiv, void *vctx,
                       uint64_t first, uint64_t step, size_t ss,
                       const uint8_t *in, uint8_t *out, size_t len)
{
	const struct cb_native_ctx *c = ctx_of(vctx);
	ptrdiff_t delta = (ptrdiff_t)((uintptr_t)out - (uintptr_t)in);
	size_t nl, n;
	struct cb_lanes l;
	int rc;

	if ((rc = check_sectors(ss, len)) < 0)
		return rc;
	n = len / ss;
	/* 4 KiB-apart lanes: vaes256's 16 in halves; vaes512's 64 (past
	 * 32 sectors) or 32 in quarters, where the parts land on distinct
	 * L1 sets */
	if (p->halves && ss % 2048 == 0 && (ss / 2) % 4096) {
		const size_t half[2] = { ss / 2, ss / 2 };

		return enc_parts(p, p->lanes_any, p->nlanes, 2, half, essiv, c,
		                 first, step, ss, in, out, n);
	}
	/* vaes512's 64 lanes in quarters 256 bytes apart, where three
	 * calls of 256 bytes and one of the rest make a sector: the
	 * request's first and last three calls are the short ones */
	if (p->lanes64 && n > 32 && ss % 4096 == 0) {
		const size_t quarter[4] = { 256, 256, 256, ss - 768 };

		return enc_parts(p, p->lanes64, 64, 4, quarter, essiv, c, first,
		                 step, ss, in, out, n);
	}
	if (p->lanes32 && n > p->nlanes && ss % 4096 == 0 &&
	    (ss / 4) % 2048 == 1024) {
		const size_t quarter[4] = { ss / 4, ss / 4, ss / 4, ss / 4 };

		return enc_parts(p, p->lanes32, 32, 4, quarter, essiv, c, first,
		                 step, ss, in, out, n);
	}
	for (size_t s = 0; s < n; s += nl) {
		lanes_fn *lanes = pick_lanes(p, n - s, ss, &nl);
		size_t m = n - s < nl ? n - s : nl;

		for (size_t j = 0; j < nl; j++) {
			size_t k = s + (j < m ? j : m - 1);

			l.in[j] = in + k * ss;
			put_sector_iv(l.iv[j], first + k * step);
		}
		if (essiv)
			p->ecb_enc(&c->salt, l.iv[0], l.iv[0], nl * 16);
		lanes(&c->key, &l, delta, ss);
	}
	return 0;
}

INLINE int dec_sectors(const struct path *p, int essiv, void *vctx,
                       uint64_t first, uint64_t step, size_t ss,
                       const uint8_t *in, uint8_t *out, size_t len)
{
	const struct cb_native_ctx *c = ctx_of(vctx);
	uint8_t iv[CB_LANES_MAX][16];
	size_t n;
	int rc;

	if ((rc = check_sectors(ss, len)) < 0)
		return rc;
	n = len / ss;
	for (size_t s = 0; s < n; s += CB_LANES_MAX) {
		size_t m = group_ivs(p, essiv ? &c->salt : NULL, iv, first, step,
		                     s, n);

		for (size_t j = 0; j < m; j++)
			p->cbc_dec(&c->key, iv[j], iv[j], in + (s + j) * ss,
			           out + (s + j) * ss, ss);
	}
	return 0;
}

/*
 * Up to 8 ESSIV requests through the path's pointer-array routine (VAES-
 * 512: 48 AES instructions a batch and little around them, so the next
 * batch's rounds start while this one's chains finish; 16-byte --mb 8
 * 1.15 -> 0.77 c/B on Zen 5); with fewer, the last request fills the
 * spare lanes (it is written again with the same bytes).  The running
 * chain is the last request's last block.
 */
INLINE void essiv_batch8(const struct path *p, struct cb_native_ctx *c,
                         unsigned n, const uint8_t *const *ivs,
                         const uint8_t *const *in, uint8_t *const *out,
                         size_t len)
{
	const uint8_t *iv8[8], *in8[8];
	uint8_t *out8[8];

	if (n == 8) {
		p->essiv8(c, ivs, in, out, len);
	} else {
		for (unsigned i = 0; i < 8; i++) {
			unsigned k = i < n ? i : n - 1;

			iv8[i] = ivs[k];
			in8[i] = in[k];
			out8[i] = out[k];
		}
		p->essiv8(c, iv8, in8, out8, len);
	}
	memcpy(c->iv, out[n - 1] + len - 16, 16);
}

/*
 * Batches (tcrypt's multibuffer mode): n independent requests encrypted
 * as interleaved chains - ESSIV's up to 8 through essiv_batch8 where the
 * path has one; else up to 8 in the path's 8-lane routine (ESSIV fused in
 * where it can be), more in its widest (the ESSIV IVs of all of them in
 * one ECB call before).  The lane routines write every lane at one offset
 * from its input, so requests whose outputs sit at different offsets from
 * their inputs (and empty ones) go one at a time.
 */
INLINE int enc_batch(const struct path *p, int essiv, void *vctx,
                     unsigned n, const uint8_t *const *ivs,
                     const uint8_t *const *in, uint8_t *const *out,
                     size_t len)
{
	struct cb_native_ctx *c = ctx_of(vctx);
	ptrdiff_t delta = n ? (ptrdiff_t)((uintptr_t)out[0] - (uintptr_t)in[0]) : 0;
	int same = len > 0 && ivs;
	struct cb_lanes l;

	if (len % 16)
		return bad_len(len);
	/* before the offset check below: the pointer-array routine needs
	 * none, and its batch is timed with as little around it as can be */
	if (essiv && p->essiv8 && ivs && len && n && n <= 8) {
		essiv_batch8(p, c, n, ivs, in, out, len);
		return 0;
	}
	for (unsigned i = 1; i < n && same; i++)
		same = (ptrdiff_t)((uintptr_t)out[i] - (uintptr_t)in[i]) == delta;
	for (unsigned s = 0, m; s < n; s += m) {
		int eight = n - s <= 8;
		size_t nl = 8;
		lanes_fn *lanes = eight ? p->lanes8
		                  : pick_lanes(p, n - s, len, &nl);
		int rc;

		m = n - s < nl ? n - s : (unsigned)nl;
		if (!same) {
			if ((rc = (essiv ? essiv_encrypt : cbc_encrypt)(p, vctx,
			              ivs ? ivs[s] : NULL, in[s], out[s], len)) < 0)
				return rc;
			m = 1;
			continue;
		}
		for (size_t j = 0; j < nl; j++) {
			size_t k = s + (j < m ? j : m - 1);

			l.in[j] = in[k];
			memcpy(l.iv[j], ivs[k], 16);
		}
		if (essiv && eight && p->essiv_lanes8) {
			p->essiv_lanes8(c, &l, delta, len);
			continue;
		}
		if (essiv)
			p->ecb_enc(&c->salt, l.iv[0], l.iv[0], nl * 16);
		lanes(&c->key, &l, delta, len);
	}
	if (same)
		memcpy(c->iv, out[n - 1] + len - 16, 16);
	return 0;
}

/* ---- XTS ---------------------------------------------------------------- */

/* XTS keys (2x128, 2x192 or 2x256 bits, checked by cb_inst_new): the
 * data key, then the tweak key (kept as the salt schedule). */
static int native_xts_setkey(void *vctx, const struct cb_impl *impl,
                             const uint8_t *key, size_t keylen)
{
	struct cb_native_ctx *c = ctx_of(vctx);

	(void)impl;
	arch_expand_key(&c->key, key, keylen / 2);
	arch_expand_key(&c->salt, key + keylen / 2, keylen / 2);
	memset(c->iv, 0, sizeof c->iv);
	return 0;
}

/* t *= x in GF(2^128), XTS's little-endian convention. */
static void xts_mulx(uint8_t t[16])
{
	unsigned carry = t[15] >> 7;

	for (int i = 15; i > 0; i--)
		t[i] = (uint8_t)(t[i] << 1 | t[i - 1] >> 7);
	t[0] = (uint8_t)(t[0] << 1 ^ (carry ? 0x87 : 0));
}

/*
 * A request of len >= 16 bytes from the IV t (the tweak, advanced, on
 * return).
 * A partial last block of r bytes steals from the last whole one: on
 * encryption CC = E_{T(m-1)}(P(m-1)), C(m) = the first r bytes of CC,
 * C(m-1) = E_{T(m)}(P(m) || the rest of CC); decryption undoes it with
 * the two tweaks swapped.
 */
INLINE void xts_crypt(const struct path *p, int enc,
                      const struct cb_native_ctx *c, uint8_t t[16],
                      const uint8_t *in, uint8_t *out, size_t len)
{
	const struct cb_aes_key *k = &c->key;
	size_t r = len % 16, whole = len - r - (r ? 16 : 0);
	uint8_t cc[16], pp[16], t2[16];

	/* t = the IV: encrypted by the path's fused entry, or here */
	if (p->xts_enc_iv) {
		(enc ? p->xts_enc_iv : p->xts_dec_iv)(c, t, in, out, whole);
	} else {
		arch_ecb_enc(&c->salt, t, t, 16);
		(enc ? p->xts_enc : p->xts_dec)(k, t, in, out, whole);
	}
	if (!r)
		return;
	in += whole;
	out += whole;
	if (enc) {
		p->xts_enc(k, t, in, cc, 16);
	} else {
		memcpy(t2, t, 16);
		xts_mulx(t);
		p->xts_dec(k, t, in, cc, 16);
		memcpy(t, t2, 16);
	}
	memcpy(pp, in + 16, r);              /* read before out + 16 is written */
	memcpy(pp + r, cc + r, 16 - r);
	memcpy(out + 16, cc, r);
	(enc ? p->xts_enc : p->xts_dec)(k, t, pp, out, 16);
	cb_wipe(cc, sizeof cc);
	cb_wipe(pp, sizeof pp);
}

INLINE int xts_request(const struct path *p, int enc, void *vctx,
                       const uint8_t *iv, const uint8_t *in, uint8_t *out,
                       size_t len)
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
	xts_crypt(p, enc, c, t, in, out, len);
	return 0;
}

/* Sectors: their tweaks encrypted CB_LANES_MAX at a time with the path's
 * ECB, a group ahead (double-buffered), so that the ECB's latency runs
 * under the previous group's sectors instead of before its own. */
INLINE int xts_sectors(const struct path *p, int enc, void *vctx,
                       uint64_t first, uint64_t step, size_t ss,
                       const uint8_t *in, uint8_t *out, size_t len)
{
	const struct cb_native_ctx *c = ctx_of(vctx);
	uint8_t t[2][CB_LANES_MAX][16] __attribute__((aligned(64)));
	size_t n, m, next, s = 0, g = 0;
	int rc;

	if ((rc = check_sectors(ss, len)) < 0)
		return rc;
	n = len / ss;
	m = n ? group_ivs(p, &c->salt, t[0], first, step, 0, n) : 0;
	while (m) {
		next = s + m < n ? group_ivs(p, &c->salt, t[g ^ 1], first, step,
		                             s + m, n) : 0;
		if (p->xts_enc_sec)
			(enc ? p->xts_enc_sec : p->xts_dec_sec)(&c->key, t[g],
			        in + s * ss, out + s * ss, ss, m);
		else
			for (size_t j = 0; j < m; j++)
				(enc ? p->xts_enc : p->xts_dec)(&c->key, t[g][j],
				        in + (s + j) * ss, out + (s + j) * ss, ss);
		s += m;
		m = next;
		g ^= 1;
	}
	/* the encrypted tweaks: the groups used (64 at most each) */
	cb_wipe(t[0], (n < CB_LANES_MAX ? n : CB_LANES_MAX) * 16);
	if (n > CB_LANES_MAX)
		cb_wipe(t[1], (n - CB_LANES_MAX < CB_LANES_MAX ?
		               n - CB_LANES_MAX : CB_LANES_MAX) * 16);
	return 0;
}


#define BATCH_ARGS void *ctx, unsigned n, const uint8_t *const *ivs, \
                   const uint8_t *const *in, uint8_t *const *out, size_t len
#define CRYPT_ARGS void *ctx, const uint8_t *iv, const uint8_t *in, \
                   uint8_t *out, size_t len
#define SECT_ARGS  void *ctx, uint64_t first, uint64_t step, size_t ss, \
                   const uint8_t *in, uint8_t *out, size_t len
#define AEAD_ARGS  void *ctx, const uint8_t *iv, const uint8_t *ad, \
                   size_t adlen, const uint8_t *in, uint8_t *out, size_t len

#if ARCH_GCM
/* gcm(aes) needs the CPU's carry-less multiplier beside the path's AES
 * (below, at `chosen`); the rest is native_gcm.c's */
static int gcm_probe(const struct cb_impl *impl, const char **why);

#define GCM_IMPL(isa)                                                          \
static int isa##_gcm_encrypt(AEAD_ARGS, uint8_t *tag, size_t taglen)          \
{ return cb_native_gcm_crypt(&path_##isa, 1, ctx, iv, ad, adlen, in, out,   \
                             len, tag, taglen); }                                    \
static int isa##_gcm_decrypt(AEAD_ARGS, const uint8_t *tag, size_t taglen)    \
{ return cb_native_gcm_crypt(&path_##isa, 0, ctx, iv, ad, adlen, in, out,   \
                             len, (uint8_t *)tag, taglen); }                         \
static const struct cb_impl impl_gcm_##isa = {                                 \
	.alg = "gcm(aes)", .driver = "gcm-aes-native-" #isa,                   \
	.priority = 300, .ctx_size = GCM_CTX_SIZE, .probe = gcm_probe,         \
	.setkey = cb_native_gcm_setkey, .free = cb_native_gcm_free,            \
	.aead_encrypt = isa##_gcm_encrypt, .aead_decrypt = isa##_gcm_decrypt,  \
};
#define GCM_ENTRY(isa) &impl_gcm_##isa,
#else
#define GCM_IMPL(isa)
#define GCM_ENTRY(isa)
#endif

#define PATH(isa)                                                              \
static int isa##_cbc_encrypt(CRYPT_ARGS)                                      \
{ return cbc_encrypt(&path_##isa, ctx, iv, in, out, len); }                    \
static int isa##_essiv_encrypt(CRYPT_ARGS)                                    \
{ return essiv_encrypt(&path_##isa, ctx, iv, in, out, len); }                  \
static int isa##_ecb_encrypt(CRYPT_ARGS)                                      \
{ (void)iv; return ecb_crypt(path_##isa.ecb_enc, ctx, in, out, len); }        \
static int isa##_ecb_decrypt(CRYPT_ARGS)                                      \
{ (void)iv; return ecb_crypt(path_##isa.ecb_dec, ctx, in, out, len); }        \
static int isa##_cbc_decrypt(CRYPT_ARGS)                                      \
{ return cbc_decrypt(&path_##isa, ctx, iv, in, out, len); }                    \
static int isa##_essiv_decrypt(CRYPT_ARGS)                                    \
{ return essiv_decrypt(&path_##isa, ctx, iv, in, out, len); }                  \
static int isa##_cbc_enc_sectors(SECT_ARGS)                                   \
{ return enc_sectors(&path_##isa, 0, ctx, first, step, ss, in, out, len); }          \
static int isa##_cbc_dec_sectors(SECT_ARGS)                                   \
{ return dec_sectors(&path_##isa, 0, ctx, first, step, ss, in, out, len); }          \
static int isa##_essiv_enc_sectors(SECT_ARGS)                                 \
{ return enc_sectors(&path_##isa, 1, ctx, first, step, ss, in, out, len); }          \
static int isa##_essiv_dec_sectors(SECT_ARGS)                                 \
{ return dec_sectors(&path_##isa, 1, ctx, first, step, ss, in, out, len); }          \
static int isa##_cbc_enc_batch(BATCH_ARGS)                                    \
{ return enc_batch(&path_##isa, 0, ctx, n, ivs, in, out, len); }               \
static int isa##_essiv_enc_batch(BATCH_ARGS)                                  \
{ return enc_batch(&path_##isa, 1, ctx, n, ivs, in, out, len); }               \
static int isa##_xts_encrypt(CRYPT_ARGS)                                      \
{ return xts_request(&path_##isa, 1, ctx, iv, in, out, len); }                 \
static int isa##_xts_decrypt(CRYPT_ARGS)                                      \
{ return xts_request(&path_##isa, 0, ctx, iv, in, out, len); }                 \
static int isa##_xts_enc_sectors(SECT_ARGS)                                   \
{ return xts_sectors(&path_##isa, 1, ctx, first, step, ss, in, out, len); }    \
static int isa##_xts_dec_sectors(SECT_ARGS)                                   \
{ return xts_sectors(&path_##isa, 0, ctx, first, step, ss, in, out, len); }    \
GCM_IMPL(isa)                                                                  \
static const struct cb_impl impl_xts_##isa = {                                 \
	.alg = "xts(aes)", .driver = "xts-aes-native-" #isa,                   \
	.priority = 300, .ctx_size = CTX_SIZE,                                 \
	.setkey = native_xts_setkey, .free = native_free,                      \
	.encrypt = isa##_xts_encrypt, .decrypt = isa##_xts_decrypt,            \
	.encrypt_sectors = isa##_xts_enc_sectors,                              \
	.decrypt_sectors = isa##_xts_dec_sectors,                              \
};                                                                             \
static const struct cb_impl impl_cbc_##isa = {                                 \
	.alg = "cbc(aes)", .driver = "cbc-aes-native-" #isa,                   \
	.priority = 300, .ctx_size = CTX_SIZE,                                 \
	.setkey = native_setkey, .free = native_free,                          \
	.encrypt = isa##_cbc_encrypt, .decrypt = isa##_cbc_decrypt,            \
	.encrypt_sectors = isa##_cbc_enc_sectors,                              \
	.decrypt_sectors = isa##_cbc_dec_sectors,                              \
	.encrypt_batch = isa##_cbc_enc_batch,                                  \
};                                                                             \
static const struct cb_impl impl_ecb_##isa = {                                 \
	.alg = "ecb(aes)", .driver = "ecb-aes-native-" #isa,                   \
	.priority = 300, .ctx_size = CTX_SIZE,                                 \
	.setkey = native_setkey, .free = native_free,                          \
	.encrypt = isa##_ecb_encrypt, .decrypt = isa##_ecb_decrypt,            \
};                                                                             \
static const struct cb_impl impl_essiv_##isa = {                               \
	.alg = "essiv(cbc(aes),sha256)", .driver = "essiv-cbc-aes-native-" #isa,\
	.priority = 300, .ctx_size = CTX_SIZE,                                 \
	.setkey = native_essiv_setkey, .free = native_free,                    \
	.encrypt = isa##_essiv_encrypt, .decrypt = isa##_essiv_decrypt,        \
	.encrypt_sectors = isa##_essiv_enc_sectors,                            \
	.decrypt_sectors = isa##_essiv_dec_sectors,                            \
	.encrypt_batch = isa##_essiv_enc_batch,                                \
};                                                                             \
static const struct cb_impl *const impls_##isa[] = {                           \
	&impl_cbc_##isa, &impl_ecb_##isa, &impl_essiv_##isa, GCM_ENTRY(isa)    \
	&impl_xts_##isa, NULL,                                                 \
};


NATIVE_PATHS(PATH)

#define IMPLS_OF(isa) impls_##isa,
#define PATH_OF(isa) &path_##isa,
static const struct cb_impl *const *const path_impls[CB_NATIVE_NISA] = {
	NATIVE_PATHS(IMPLS_OF)
};
static const struct path *const paths[CB_NATIVE_NISA] = {
	NATIVE_PATHS(PATH_OF)
};


/* ---- the choice of path, made once at load time ------------------------ */

/* Chosen once, at load time, before anything reads the table. */
static struct {
	int status;               /* 0 or -ENOTSUP/-EINVAL                */
	int isa, cpu_isa;
	int gcm_ok;               /* GCM's multiplier (PCLMULQDQ)         */
	char why[160];
	char details[200];
} chosen;

#if ARCH_GCM
#ifndef ARCH_CLMUL
#define ARCH_CLMUL "PCLMULQDQ"   /* x86-64; native_arch.h names arm64's */
#endif
static int gcm_probe(const struct cb_impl *impl, const char **why)
{
	(void)impl;
	if (!chosen.gcm_ok) {
		*why = "CPU lacks " ARCH_CLMUL;
		return -ENOTSUP;
	}
	return 0;
}
#endif

/* The backend's table: the chosen path's impls, copied by native_init. */
static const struct cb_impl *native_impls[6];

int cb_native_cpu_isa(void)
{
	return arch_cpu(NULL, 0, NULL);
}

const struct cb_impl *const *cb_native_isa_impls(int isa, const char **why)
{
	if (isa < 0 || isa >= CB_NATIVE_NISA) {
		*why = "no such code path";
		return NULL;
	}
	if (chosen.cpu_isa < 0) {
		*why = ARCH_NO_AES;
		return NULL;
	}
	if (isa > chosen.cpu_isa) {
		*why = arch_lacks(isa);
		return NULL;
	}
	return path_impls[isa];
}

__attribute__((constructor)) static void native_init(void)
{
	const char *cap = getenv("CRYPTOBENCH_ISA");
	char cpu[96] = "";

	chosen.cpu_isa = arch_cpu(cpu, sizeof cpu, &chosen.gcm_ok);
	chosen.status = cb_native_choose(cap, chosen.cpu_isa);
	chosen.isa = chosen.status < 0 ? 0 : chosen.status;
	for (size_t i = 0; path_impls[chosen.isa][i] &&
	     i + 1 < sizeof native_impls / sizeof *native_impls; i++)
		native_impls[i] = path_impls[chosen.isa][i];
	if (chosen.status == -EINVAL) {
		snprintf(chosen.why, sizeof chosen.why, "CRYPTOBENCH_ISA='%.40s' "
		         "is not a code path (" ARCH_PATH_LIST ")", cap);
		return;
	}
	if (chosen.status < 0) {
		snprintf(chosen.why, sizeof chosen.why, "%s",
		         cap && !strcmp(cap, "none") ? ARCH_CAPPED : ARCH_NO_AES);
		return;
	}
	chosen.status = 0;
	if (!cap || !*cap)
		snprintf(chosen.details, sizeof chosen.details,
		         "%s (" ARCH_FLAGS_NAME ": %s; cap: none)",
		         isa_names[chosen.isa], cpu);
	else if (isa_by_name(cap) > chosen.cpu_isa)
		snprintf(chosen.details, sizeof chosen.details,
		         "%s (" ARCH_FLAGS_NAME ": %s; cap: %s, above this CPU's "
		         "best)", isa_names[chosen.isa], cpu, cap);
	else
		snprintf(chosen.details, sizeof chosen.details,
		         "%s (" ARCH_FLAGS_NAME ": %s; cap: %s)",
		         isa_names[chosen.isa], cpu, cap);
}


/* ---- the CPU's limit, measured (native_limits.c) ----------------------- */

/*
 * The chosen path's line (as it always was: scripts read its fields),
 * then one line per path of the architecture: its AES-only and AES+GHASH
 * bounds where it runs here (the paths up to the chosen one), else why
 * not - the CPU lacks it, or a cap (--cpu, CRYPTOBENCH_ISA) keeps this
 * process below it.
 */
static const char *native_limits(void)
{
	static char line[400 + 200 * CB_NATIVE_NISA];
	size_t k;

	if (chosen.status < 0)
		return NULL;
	if (*line)
		return line;
	if (!cb_native_limit_line(paths[chosen.isa], isa_names[chosen.isa],
	                          line, 400))
		return NULL;
	k = strlen(line);
	for (int i = 0; i < CB_NATIVE_NISA; i++) {
		size_t w;

		line[k++] = '\n';
		if (i <= chosen.isa)
			w = cb_native_level_line(paths[i], isa_names[i],
			                         line + k, 200);
		else
			w = (size_t)snprintf(line + k, 200, "%s: not measured: %s",
			                     isa_names[i], i > chosen.cpu_isa
			                     ? arch_lacks(i) : "capped below it "
			                     "(--cpu, CRYPTOBENCH_ISA)");
		k += w < 200 ? w : 199;      /* snprintf's length if cut */
	}
	return line;
}

/* ---- the backend -------------------------------------------------------- */

static int native_probe(const char **why)
{
	if (chosen.status < 0)
		*why = chosen.why;
	return chosen.status;
}

static const char *native_details(void)
{
	return chosen.details;
}


#else /* neither x86-64 nor AArch64 */

static const char *const isa_names[CB_NATIVE_NISA] = {
	"aesni", "vaes256", "vaes512",
};
static const struct cb_impl *const native_impls[] = { NULL };
static const char *const not_here = "native code is x86-64 and AArch64 "
                                    "only";
#define native_cap NULL
#define ARCH_DESCRIPTION "cryptobench's own AES (x86-64 and AArch64 only)"

const char *cb_native_isa_name(int isa)
{
	return isa >= 0 && isa < CB_NATIVE_NISA ? isa_names[isa] : NULL;
}

int cb_native_choose(const char *cap, int cpu_isa)
{
	(void)cap;
	(void)cpu_isa;
	return -ENOTSUP;
}

static const char *native_version(void)
{
	return CB_VERSION;
}

int cb_native_cpu_isa(void)
{
	return -ENOTSUP;
}

const struct cb_impl *const *cb_native_isa_impls(int isa, const char **why)
{
	(void)isa;
	*why = not_here;
	return NULL;
}

static int native_probe(const char **why)
{
	*why = not_here;
	return -ENOTSUP;
}

static const char *native_details(void)
{
	return NULL;
}

static const char *native_limits(void)
{
	return NULL;
}

#endif

const struct cb_backend cb_backend_native = {
	.name = "native",
	.description = ARCH_DESCRIPTION,
	.probe = native_probe,
	.version = native_version,
	.details = native_details,
	.limits = native_limits,
	.impls = native_impls,
	.cap = native_cap,
};
