/*
 * aes_ce.c - the native backend's AArch64 AES: the ARMv8 Crypto Extensions
 * through the ACLE intrinsics (vaeseq_u8 = AESE, vaesmcq_u8 = AESMC, ...),
 * one instruction each; contracts in ../native_ce.h.  Compiled with
 * -march=armv8-a+crypto (this file only) and called only after the glue
 * found HWCAP_AES.  A round: AESE(s, rk[i]) = SubBytes(ShiftRows(s ^
 * rk[i])), then AESMC = MixColumns - the pair every core below fuses;
 * the last round's AddRoundKey is an EOR.  Decryption runs the Equivalent
 * Inverse Cipher with AESD/AESIMC on the dec[] schedule.
 */
#include <arm_neon.h>
#include <string.h>

#include "../native_ce.h"

typedef uint8x16_t blk;

#define LD(p)    vld1q_u8((const uint8_t *)(p))
#define ST(p, v) vst1q_u8((uint8_t *)(p), (v))
#define W 8                        /* blocks in flight (native_ce.h)   */

/* ---- the key schedule ----------------------------------------------- */

/* SubWord through AESE: the word in every column, so ShiftRows moves
 * nothing and SubBytes is all that happens (the round key is zero). */
static uint32_t subword(uint32_t w)
{
	blk v = vaeseq_u8(vreinterpretq_u8_u32(vdupq_n_u32(w)), vdupq_n_u8(0));

	return vgetq_lane_u32(vreinterpretq_u32_u8(v), 0);
}

void cb_ce_expand_key(struct cb_aes_key *k, const uint8_t *key, size_t keylen)
{
	unsigned nk = (unsigned)keylen / 4, nr = nk + 6, rcon = 1;
	uint32_t w[60];

	memcpy(w, key, keylen);                 /* little-endian words */
	for (unsigned i = nk; i < 4 * (nr + 1); i++) {
		uint32_t t = w[i - 1];

		if (i % nk == 0) {
			t = subword(t >> 8 | t << 24) ^ rcon;   /* RotWord, Rcon */
			rcon = (rcon << 1 ^ (rcon & 0x80 ? 0x1b : 0)) & 0xff;
		} else if (nk > 6 && i % nk == 4) {
			t = subword(t);
		}
		w[i] = w[i - nk] ^ t;
	}
	memcpy(k->enc, w, 16 * (nr + 1));
	ST(k->dec[0], LD(k->enc[nr]));
	for (unsigned i = 1; i < nr; i++)
		ST(k->dec[i], vaesimcq_u8(LD(k->enc[nr - i])));
	ST(k->dec[nr], LD(k->enc[0]));
	k->rounds = nr;
	memset(w, 0, sizeof w);
	__asm__ volatile("" : : "r"(w) : "memory");   /* keep the wipe */
}

/* ---- one block and eight ------------------------------------------- */

struct sched {
	blk rk[15];
	int nr;
};

static inline void load_sched(struct sched *s, const uint8_t (*rk)[16],
                              int nr)
{
	s->nr = nr;
	for (int i = 0; i <= nr; i++)
		s->rk[i] = LD(rk[i]);
}

static inline blk enc1(const struct sched *k, blk s)
{
	for (int i = 0; i < k->nr - 1; i++)
		s = vaesmcq_u8(vaeseq_u8(s, k->rk[i]));
	return veorq_u8(vaeseq_u8(s, k->rk[k->nr - 1]), k->rk[k->nr]);
}

static inline blk dec1(const struct sched *k, blk s)
{
	for (int i = 0; i < k->nr - 1; i++)
		s = vaesimcq_u8(vaesdq_u8(s, k->rk[i]));
	return veorq_u8(vaesdq_u8(s, k->rk[k->nr - 1]), k->rk[k->nr]);
}

static inline void enc8(const struct sched *k, blk *s)
{
	for (int i = 0; i < k->nr - 1; i++) {
#pragma GCC unroll 8
		for (int j = 0; j < W; j++)
			s[j] = vaesmcq_u8(vaeseq_u8(s[j], k->rk[i]));
	}
#pragma GCC unroll 8
	for (int j = 0; j < W; j++)
		s[j] = veorq_u8(vaeseq_u8(s[j], k->rk[k->nr - 1]), k->rk[k->nr]);
}

static inline void dec8(const struct sched *k, blk *s)
{
	for (int i = 0; i < k->nr - 1; i++) {
#pragma GCC unroll 8
		for (int j = 0; j < W; j++)
			s[j] = vaesimcq_u8(vaesdq_u8(s[j], k->rk[i]));
	}
#pragma GCC unroll 8
	for (int j = 0; j < W; j++)
		s[j] = veorq_u8(vaesdq_u8(s[j], k->rk[k->nr - 1]), k->rk[k->nr]);
}

/* ---- ECB ----------------------------------------------------------- */

static void ecb(const struct sched *k, int enc, const uint8_t *in,
                uint8_t *out, size_t len)
{
	blk s[W];

	for (; len >= 16 * W; len -= 16 * W, in += 16 * W, out += 16 * W) {
		for (int j = 0; j < W; j++)
			s[j] = LD(in + 16 * j);
		if (enc)
			enc8(k, s);
		else
			dec8(k, s);
		for (int j = 0; j < W; j++)
			ST(out + 16 * j, s[j]);
	}
	for (; len; len -= 16, in += 16, out += 16)
		ST(out, enc ? enc1(k, LD(in)) : dec1(k, LD(in)));
}

void cb_ce_ecb_enc(const struct cb_aes_key *k, const uint8_t *in,
                   uint8_t *out, size_t len)
{
	struct sched s;

	load_sched(&s, k->enc, (int)k->rounds);
	ecb(&s, 1, in, out, len);
}

void cb_ce_ecb_dec(const struct cb_aes_key *k, const uint8_t *in,
                   uint8_t *out, size_t len)
{
	struct sched s;

	load_sched(&s, k->dec, (int)k->rounds);
	ecb(&s, 0, in, out, len);
}

/* ---- CBC ----------------------------------------------------------- */

static blk cbc_enc_from(const struct sched *k, blk c, const uint8_t *in,
                        uint8_t *out, size_t len)
{
	for (; len; len -= 16, in += 16, out += 16) {
		c = enc1(k, veorq_u8(LD(in), c));
		ST(out, c);
	}
	return c;
}

void cb_ce_cbc_enc(const struct cb_aes_key *k, const uint8_t iv[16],
                   uint8_t chain[16], const uint8_t *in, uint8_t *out,
                   size_t len)
{
	struct sched s;

	load_sched(&s, k->enc, (int)k->rounds);
	ST(chain, cbc_enc_from(&s, LD(iv), in, out, len));
}

/* 8 blocks in flight, each XORed with the ciphertext before it (all 8
 * read before any is written, so in place works). */
static blk cbc_dec_from(const struct sched *k, blk prev, const uint8_t *in,
                        uint8_t *out, size_t len)
{
	blk s[W], c[W];

	for (; len >= 16 * W; len -= 16 * W, in += 16 * W, out += 16 * W) {
		for (int j = 0; j < W; j++)
			s[j] = c[j] = LD(in + 16 * j);
		dec8(k, s);
		ST(out, veorq_u8(s[0], prev));
		for (int j = 1; j < W; j++)
			ST(out + 16 * j, veorq_u8(s[j], c[j - 1]));
		prev = c[W - 1];
	}
	for (; len; len -= 16, in += 16, out += 16) {
		blk x = LD(in);

		ST(out, veorq_u8(dec1(k, x), prev));
		prev = x;
	}
	return prev;
}

void cb_ce_cbc_dec(const struct cb_aes_key *k, const uint8_t iv[16],
                   uint8_t chain[16], const uint8_t *in, uint8_t *out,
                   size_t len)
{
	struct sched s;

	load_sched(&s, k->dec, (int)k->rounds);
	ST(chain, cbc_dec_from(&s, LD(iv), in, out, len));
}

/* The ESSIV IV: AES-256 of the input IV with the salt schedule. */
static blk essiv_iv(const struct cb_native_ctx *c, const uint8_t iv[16])
{
	struct sched s;

	load_sched(&s, c->salt.enc, (int)c->salt.rounds);
	return enc1(&s, LD(iv));
}

void cb_ce_essiv_cbc_enc(struct cb_native_ctx *c, const uint8_t iv[16],
                         const uint8_t *in, uint8_t *out, size_t len)
{
	blk e = essiv_iv(c, iv);
	struct sched s;

	load_sched(&s, c->key.enc, (int)c->key.rounds);
	ST(c->iv, cbc_enc_from(&s, e, in, out, len));
}

void cb_ce_essiv_cbc_dec(struct cb_native_ctx *c, const uint8_t iv[16],
                         const uint8_t *in, uint8_t *out, size_t len)
{
	blk e = essiv_iv(c, iv);
	struct sched s;

	load_sched(&s, c->key.dec, (int)c->key.rounds);
	ST(c->iv, cbc_dec_from(&s, e, in, out, len));
}

void cb_ce_cbc_enc_lanes8(const struct cb_aes_key *k, const struct cb_lanes *l,
                          ptrdiff_t out_delta, size_t len)
{
	struct sched s;
	blk c[W];

	load_sched(&s, k->enc, (int)k->rounds);
	for (int j = 0; j < W; j++)
		c[j] = LD(l->iv[j]);
	for (size_t off = 0; off < len; off += 16) {
		for (int j = 0; j < W; j++)
			c[j] = veorq_u8(LD(l->in[j] + off), c[j]);
		enc8(&s, c);
		for (int j = 0; j < W; j++)
			ST(l->in[j] + off + out_delta, c[j]);
	}
}

/* ---- XTS ----------------------------------------------------------- */

/* t * x in GF(2^128), XTS's little-endian convention: each 64-bit half
 * shifted, the high half's carry folded into the low as 0x87 and the
 * low half's carried into the high. */
static inline blk xts_next(blk t)
{
	int64x2_t v = vreinterpretq_s64_u8(t);
	int64x2_t m = vshrq_n_s64(v, 63);
	const int64x2_t red = { 0x87, 1 };

	m = vandq_s64(vextq_s64(m, m, 1), red);
	return vreinterpretq_u8_s64(veorq_s64(vshlq_n_s64(v, 1), m));
}

static void xts(const struct sched *k, int enc, uint8_t tweak[16],
                const uint8_t *in, uint8_t *out, size_t len)
{
	blk t = LD(tweak), s[W], tw[W];

	for (; len >= 16 * W; len -= 16 * W, in += 16 * W, out += 16 * W) {
		for (int j = 0; j < W; j++) {
			tw[j] = t;
			s[j] = veorq_u8(LD(in + 16 * j), t);
			t = xts_next(t);
		}
		if (enc)
			enc8(k, s);
		else
			dec8(k, s);
		for (int j = 0; j < W; j++)
			ST(out + 16 * j, veorq_u8(s[j], tw[j]));
	}
	for (; len; len -= 16, in += 16, out += 16) {
		blk x = veorq_u8(LD(in), t);

		ST(out, veorq_u8(enc ? enc1(k, x) : dec1(k, x), t));
		t = xts_next(t);
	}
	ST(tweak, t);
}

void cb_ce_xts_enc(const struct cb_aes_key *k, uint8_t tweak[16],
                   const uint8_t *in, uint8_t *out, size_t len)
{
	struct sched s;

	load_sched(&s, k->enc, (int)k->rounds);
	xts(&s, 1, tweak, in, out, len);
}

void cb_ce_xts_dec(const struct cb_aes_key *k, uint8_t tweak[16],
                   const uint8_t *in, uint8_t *out, size_t len)
{
	struct sched s;

	load_sched(&s, k->dec, (int)k->rounds);
	xts(&s, 0, tweak, in, out, len);
}

/* ---- the throughput probe ------------------------------------------ */

static volatile uint8_t sink;      /* keeps the probe's work alive */

void cb_ce_probe(uint64_t n)
{
	blk s[12], k = vdupq_n_u8(0x5a);

	for (int j = 0; j < 12; j++)
		s[j] = vdupq_n_u8((uint8_t)j);
	for (uint64_t i = 0; i < n; i++) {
#pragma GCC unroll 12
		for (int j = 0; j < 12; j++)
			s[j] = vaesmcq_u8(vaeseq_u8(s[j], k));
	}
	for (int j = 1; j < 12; j++)
		s[0] = veorq_u8(s[0], s[j]);
	sink = vgetq_lane_u8(s[0], 0);
}

void cb_ce_probe_adds(uint64_t n)
{
	uint64_t x = 1;

	if (!n)
		return;
	__asm__ volatile("1:\n\t"
	                 "add %1, %1, %1\n\t"
	                 "add %1, %1, %1\n\t"
	                 "add %1, %1, %1\n\t"
	                 "add %1, %1, %1\n\t"
	                 "subs %0, %0, #1\n\t"
	                 "b.ne 1b"
	                 : "+r"(n), "+r"(x) : : "cc");
}
