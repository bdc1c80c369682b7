/*
 * gcm_ce.c - the native backend's AArch64 AES-GCM: AESE/AESMC counter
 * mode and PMULL/PMULL2 GHASH in one pass, through the ACLE intrinsics
 * (vmull_p64 = PMULL, vmull_high_p64 = PMULL2); contracts in
 * ../native_ce.h.  Compiled with -march=armv8-a+crypto (this file only)
 * and called only after the glue found HWCAP_AES and HWCAP_PMULL.
 *
 * GHASH operands are native_asm.h's (struct cb_gcm_key, shared with
 * x86-64): a block's bytes reversed and read as a little-endian 128-bit
 * integer (bit 127 is x^0), the powers of H stored times x^-1.  A
 * product is three PMULLs (Karatsuba: lo, hi and (a0^a1)(b0^b1)); W
 * blocks' products are summed before the one reduction (aggregated, with
 * H^W .. H^1).  The reduction is Montgomery's in the reflected domain:
 * with z = x^-1 the field polynomial is 1 + z^121 + z^126 + z^127 +
 * z^128, so the low 128 bits of the 256-bit product fold away in two
 * 64-bit steps, each one PMULL by z^57 + z^62 + z^63 (0xc2 << 56) and
 * the high half is the result.
 */
#include <arm_neon.h>

#include "../native_ce.h"

typedef uint8x16_t blk;

#define LD(p)    vld1q_u8((const uint8_t *)(p))
#define ST(p, v) vst1q_u8((uint8_t *)(p), (v))
#define W 8                        /* blocks in flight (native_ce.h)   */

static inline uint64x2_t u64(blk v) { return vreinterpretq_u64_u8(v); }
static inline blk b8(uint64x2_t v) { return vreinterpretq_u8_u64(v); }

static inline blk clmul_lo(blk a, blk b)    /* a[0] b[0]: PMULL  */
{
	return vreinterpretq_u8_p128(vmull_p64(
	    (poly64_t)vgetq_lane_u64(u64(a), 0),
	    (poly64_t)vgetq_lane_u64(u64(b), 0)));
}

static inline blk clmul_hi(blk a, blk b)    /* a[1] b[1]: PMULL2 */
{
	return vreinterpretq_u8_p128(vmull_high_p64(
	    vreinterpretq_p64_u8(a), vreinterpretq_p64_u8(b)));
}

/* the block as a GHASH operand: its 16 bytes reversed */
static inline blk rev(blk v)
{
	v = vrev64q_u8(v);
	return vextq_u8(v, v, 8);
}

/* Karatsuba sums of W products, reduced once */
struct acc {
	blk lo, hi, mid;
};

static inline void mul_add(struct acc *a, blk x, blk h)
{
	blk xk = veorq_u8(x, vextq_u8(x, x, 8));
	blk hk = veorq_u8(h, vextq_u8(h, h, 8));

	a->lo = veorq_u8(a->lo, clmul_lo(x, h));
	a->hi = veorq_u8(a->hi, clmul_hi(x, h));
	a->mid = veorq_u8(a->mid, clmul_lo(xk, hk));
}

static inline blk reduce(const struct acc *a)
{
	const blk c = b8(vdupq_n_u64(UINT64_C(0xc200000000000000)));
	blk z = vdupq_n_u8(0);
	blk m = veorq_u8(a->mid, veorq_u8(a->lo, a->hi));
	blk lo = veorq_u8(a->lo, vextq_u8(z, m, 8));   /* m << 64 */
	blk hi = veorq_u8(a->hi, vextq_u8(m, z, 8));   /* m >> 64 */

	lo = veorq_u8(vextq_u8(lo, lo, 8), clmul_lo(lo, c));
	lo = veorq_u8(vextq_u8(lo, lo, 8), clmul_lo(lo, c));
	return veorq_u8(hi, lo);
}

/* y = (y + p[0]) H^n + p[1] H^(n-1) + ... + p[n-1] H, 1 <= n <= W */
static inline blk ghash_n(const struct cb_gcm_key *k, blk y,
                          const uint8_t *p, int n)
{
	struct acc a = { vdupq_n_u8(0), vdupq_n_u8(0), vdupq_n_u8(0) };

#pragma GCC unroll 8
	for (int j = 0; j < n; j++) {
		blk x = rev(LD(p + 16 * j));

		if (j == 0)
			x = veorq_u8(x, y);
		mul_add(&a, x, LD(k->hpow[33 - n + j]));
	}
	return reduce(&a);
}

void cb_ce_ghash(const struct cb_gcm_key *k, uint8_t y[16],
                 const uint8_t *in, size_t len)
{
	blk s = LD(y);

	for (; len >= 16 * W; len -= 16 * W, in += 16 * W)
		s = ghash_n(k, s, in, W);
	for (; len >= 16; len -= 16, in += 16)
		s = ghash_n(k, s, in, 1);
	ST(y, s);
}

/* ---- counter mode ----------------------------------------------------- */

struct sched {
	blk rk[15];
	int nr;
};

static inline blk ctr_block(blk base, uint32_t c)
{
	return vreinterpretq_u8_u32(vsetq_lane_u32(__builtin_bswap32(c),
	    vreinterpretq_u32_u8(base), 3));
}

/* ks[j] = AES(counter c + j), j < n: n independent chains */
static inline void aes_n(const struct sched *k, blk base, uint32_t c,
                         blk *ks, int n)
{
#pragma GCC unroll 8
	for (int j = 0; j < n; j++)
		ks[j] = ctr_block(base, c + (uint32_t)j);
	for (int i = 0; i < k->nr - 1; i++)
#pragma GCC unroll 8
		for (int j = 0; j < n; j++)
			ks[j] = vaesmcq_u8(vaeseq_u8(ks[j], k->rk[i]));
	for (int j = 0; j < n; j++)
		ks[j] = veorq_u8(vaeseq_u8(ks[j], k->rk[k->nr - 1]),
		                 k->rk[k->nr]);
}

/*
 * One pass: W blocks' AES a step and the GHASH of W blocks' ciphertext:
 * on decryption the same step's input, on encryption the previous step's
 * output (so the two are independent and the core overlaps them).
 */
static inline __attribute__((always_inline)) void gcm_pass(const struct cb_gcm_key *gk, uint8_t y[16],
                            const uint8_t ctr[16], const uint8_t *in,
                            uint8_t *out, size_t len, int enc)
{
	struct sched k;
	blk base = LD(ctr), s = LD(y), ks[W];
	uint32_t c = vgetq_lane_u32(vreinterpretq_u32_u8(rev(base)), 0);
	const uint8_t *prev = NULL;

	k.nr = (int)gk->aes.rounds;
	for (int i = 0; i <= k.nr; i++)
		k.rk[i] = LD(gk->aes.enc[i]);
	for (; len >= 16 * W; len -= 16 * W, in += 16 * W, out += 16 * W) {
		aes_n(&k, base, c, ks, W);
		c += W;
		if (!enc)
			s = ghash_n(gk, s, in, W);
		else if (prev)
			s = ghash_n(gk, s, prev, W);
		for (int j = 0; j < W; j++)
			ST(out + 16 * j, veorq_u8(LD(in + 16 * j), ks[j]));
		prev = out;
	}
	if (enc && prev)                /* the last step's output */
		s = ghash_n(gk, s, prev, W);
	for (; len >= 16; len -= 16, in += 16, out += 16) {
		aes_n(&k, base, c++, ks, 1);
		if (!enc)
			s = ghash_n(gk, s, in, 1);
		ST(out, veorq_u8(LD(in), ks[0]));
		if (enc)
			s = ghash_n(gk, s, out, 1);
	}
	ST(y, s);
	for (int i = 0; i < W; i++)
		ks[i] = vdupq_n_u8(0);
	__asm__ volatile("" : : "r"(ks) : "memory");   /* keep the wipe */
}

void cb_ce_gcm_enc(const struct cb_gcm_key *k, uint8_t y[16],
                   const uint8_t ctr[16], const uint8_t *in, uint8_t *out,
                   size_t len)
{
	gcm_pass(k, y, ctr, in, out, len, 1);
}

void cb_ce_gcm_dec(const struct cb_gcm_key *k, uint8_t y[16],
                   const uint8_t ctr[16], const uint8_t *in, uint8_t *out,
                   size_t len)
{
	gcm_pass(k, y, ctr, in, out, len, 0);
}

/* ---- the combined probe ------------------------------------------------ */

static volatile uint8_t sink;      /* keeps the probe's work alive */

/* n steps of 512 bytes (the glue's gcm_bound divides by 512 a step): 4
 * times W AES chains of nr rounds, independent of everything before, and
 * W blocks' 3 PMULLs each plus the reduction's 2, chained through the
 * GHASH state as in gcm_pass */
static void probe(uint64_t n, int nr)
{
	struct cb_gcm_key gk = { .aes = { .rounds = (unsigned)nr } };
	struct sched k = { .nr = nr };
	blk base = vdupq_n_u8(1), s = base, ks[W], acc = vdupq_n_u8(0);
	uint8_t buf[16 * W] = { 0 };

	for (int i = 0; i <= nr; i++)
		k.rk[i] = vdupq_n_u8((uint8_t)(0x5a + i));
	for (int i = 0; i < 33; i++)
		ST(gk.hpow[i], vdupq_n_u8((uint8_t)(3 * i + 1)));
	for (uint64_t i = 0; i < 4 * n; i++) {
		aes_n(&k, base, (uint32_t)i * W, ks, W);
		s = ghash_n(&gk, s, buf, W);
		for (int j = 0; j < W; j++)
			acc = veorq_u8(acc, ks[j]);
	}
	sink = vgetq_lane_u8(veorq_u8(acc, s), 0);
}

void cb_ce_gcm_probe128(uint64_t n) { probe(n, 10); }
void cb_ce_gcm_probe256(uint64_t n) { probe(n, 14); }
