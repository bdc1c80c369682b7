/*
 * native_gcm.c - AES-GCM (SP 800-38D) around a code path's routines: the
 * key (the AES schedule and the powers of H in the operand form the
 * routines take), the tag lengths allowed, and one request - through the
 * path's whole-request routines where it has them (gcm_req: VAES-512's
 * long and packet routines), else its pass over whole blocks with the
 * partial blocks, the AAD, the lengths block and the tag done here.
 * native.c makes each path's gcm(aes) implementation of these; the
 * routines' contracts are in native_asm.h (x86-64).
 */
#include <stdint.h>
#include <string.h>

#include "core/cb.h"
#include "native_path.h"
#include "native_arch.h"

#if ARCH_GCM

#define GCM_MAX_TEXT ((UINT64_C(1) << 36) - 32)  /* SP 800-38D: 2^39 - 256 bits */
static inline struct cb_gcm_key *gcm_of(void *p)
{
	return (struct cb_gcm_key *)(((uintptr_t)p + 63) & ~(uintptr_t)63);
}

static uint64_t get_be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

/* z = x y in GCM's field, SP 800-38D Algorithm 1 (x[0]: the block's first
 * 8 bytes big-endian, whose top bit is x^0), without branches on data:
 * only at setkey, for the powers of H. */
static void gf128_mul(uint64_t z[2], const uint64_t x[2], const uint64_t y[2])
{
	uint64_t zh = 0, zl = 0, vh = y[0], vl = y[1];

	for (int i = 0; i < 128; i++) {
		uint64_t m = -((x[i / 64] >> (63 - i % 64)) & 1);
		uint64_t r = -(vl & 1);

		zh ^= vh & m;
		zl ^= vl & m;
		vl = vl >> 1 | vh << 63;
		vh = vh >> 1 ^ (UINT64_C(0xe100000000000000) & r);
	}
	z[0] = zh;
	z[1] = zl;
}

/* Karatsuba's half of a power: out[0..7] = p[0..7] ^ p[8..15] */
static void half_xor(uint8_t out[8], const uint8_t p[16])
{
	for (int b = 0; b < 8; b++)
		out[b] = p[b] ^ p[b + 8];
}

/*
 * The key: the AES schedule, H = AES(K, 0), and H^1 .. H^33 as GHASH
 * operands: the block read as a big-endian 128-bit integer (its bytes
 * reversed, little-endian) times x^-1 - a shift left by one, the bit
 * shifted out (x^0) coming back as x^-1 = 0xc2..01 (native_asm.h); and
 * Karatsuba's halves of them in the layouts the aesni, vaes512 and
 * vaes256 routines read (hk, hkz, hky).
 */
int cb_native_gcm_setkey(void *vctx, const struct cb_impl *impl,
                         const uint8_t *key, size_t keylen)
{
	struct cb_gcm_key *k = gcm_of(vctx);
	uint8_t h[16] = { 0 };
	uint64_t hv[2], pw[2];

	(void)impl;
	if (keylen != 16 && keylen != 24 && keylen != 32) {
		cb_set_error("native: AES takes a 128, 192 or 256-bit key, "
		             "not %zu bits", keylen * 8);
		return -EINVAL;
	}
	arch_expand_key(&k->aes, key, keylen);
	arch_ecb_enc(&k->aes, h, h, 16);
	hv[0] = get_be64(h);
	hv[1] = get_be64(h + 8);
	memcpy(pw, hv, sizeof pw);
	for (int i = 32; i >= 0; i--) {
		uint64_t top = -(pw[0] >> 63);
		uint64_t hi = (pw[0] << 1 | pw[1] >> 63) ^
		              (UINT64_C(0xc200000000000000) & top);
		uint64_t lo = pw[1] << 1 ^ (1 & top);

		cb_put_le64(k->hpow[i], lo);
		cb_put_le64(k->hpow[i] + 8, hi);
		gf128_mul(pw, pw, hv);
	}
	memset(k->zero, 0, sizeof k->zero);
	for (int j = 0; j < 8; j++)       /* Karatsuba: H^(8-j)'s lo ^ hi */
		half_xor(k->hk + 8 * j, k->hpow[25 + j]);
	for (int i = 0; i < 4; i++)       /* the same for vaes512, vaes256 */
		for (int l = 0; l < 4; l++) {
			half_xor(k->hkz[i] + 16 * l, k->hpow[1 + 4 * (2 * i + 1) + l]);
			half_xor(k->hkz[i] + 16 * l + 8,
			         k->hpow[1 + 4 * ((2 * i + 2) % 8) + l]);
		}
	for (int c = 0; c < 16; c++)
		for (int l = 0; l < 2; l++) {
			half_xor(k->hky[c] + 16 * l, k->hpow[1 + 2 * c + l]);
			half_xor(k->hky[c] + 16 * l + 8, k->hpow[1 + 2 * c + l]);
		}
	cb_wipe(h, sizeof h);
	cb_wipe(hv, sizeof hv);
	cb_wipe(pw, sizeof pw);
	return 0;
}

void cb_native_gcm_free(void *vctx)
{
	cb_wipe(gcm_of(vctx), sizeof(struct cb_gcm_key));
}

/* SP 800-38D 5.2.1.2: 128, 120, 112, 104, 96 bits, and 64 and 32 for
 * applications that bound the use (the kernel's crypto_gcm_setauthsize) */
static int gcm_taglen_ok(size_t t)
{
	return t == 4 || t == 8 || (t >= 12 && t <= 16);
}

/*
 * One request: J0 = IV || 1, the text from counter 2 (inc32), GHASH over
 * the AAD and the ciphertext, each zero-padded to whole blocks, and their
 * bit lengths; tag = the first taglen bytes of AES(J0) ^ GHASH.  On
 * decryption the tag is compared in constant time after the text is
 * written (out is unspecified when it fails, as the contract allows).
 * Paths whose routines take whole blocks only get the partial last
 * block of the AAD and of the text done here.
 */
int cb_native_gcm_crypt(const struct path *p, int enc, void *vctx,
                        const uint8_t *iv, const uint8_t *ad, size_t adlen,
                        const uint8_t *in, uint8_t *out, size_t len,
                        uint8_t *tag, size_t taglen)
{
	const struct cb_gcm_key *k = gcm_of(vctx);
	uint8_t y[16] = { 0 }, j0[16], s[16], pad[16], ks[16];
	int rc = 0;

	if (!gcm_taglen_ok(taglen)) {
		cb_set_error("native: a GCM tag is 4, 8 or 12-16 bytes, not %zu",
		             taglen);
		return -EINVAL;
	}
	if ((uint64_t)len > GCM_MAX_TEXT) {
		cb_set_error("native: GCM takes at most 2^36 - 32 bytes of text");
		return -EINVAL;
	}
	if (p->gcm_req[0][0]) {
		struct cb_gcm_req r = { .in = in, .out = out, .len = len,
		                        .ad = ad, .adlen = adlen };
		int small = len < 512 &&
		            (adlen + 15) / 16 + (len + 15) / 16 + 1 <= 32;

		memcpy(r.j0, iv, 12);
		memcpy(r.j0 + 12, "\0\0\0\1", 4);
		if (!small)
			p->ghash(k, r.y, ad, adlen);
		p->gcm_req[small][enc](k, &r);
		if (enc)
			memcpy(tag, r.s, taglen);
		else if (!cb_ct_equal(r.s, tag, taglen))
			rc = -EBADMSG;
		cb_wipe(&r, sizeof r);
		return rc;
	}
	memcpy(j0, iv, 12);
	memcpy(j0 + 12, "\0\0\0\1", 4);
	arch_ecb_enc(&k->aes, j0, s, 16);
	j0[15] = 2;
	{
		size_t a = adlen & ~(size_t)15, t = len & ~(size_t)15;
		size_t r = len - t;

		p->ghash(k, y, ad, a);
		if (adlen > a) {
			memset(pad, 0, 16);
			memcpy(pad, ad + a, adlen - a);
			p->ghash(k, y, pad, 16);
		}
		(enc ? p->gcm_enc : p->gcm_dec)(k, y, j0, in, out, t);
		if (r) {
			uint32_t c = (uint32_t)(2 + t / 16);

			j0[12] = (uint8_t)(c >> 24);
			j0[13] = (uint8_t)(c >> 16);
			j0[14] = (uint8_t)(c >> 8);
			j0[15] = (uint8_t)c;
			arch_ecb_enc(&k->aes, j0, ks, 16);
			memset(pad, 0, 16);
			memcpy(pad, in + t, r);
			for (size_t i = 0; i < r; i++)
				out[t + i] = in[t + i] ^ ks[i];
			if (enc)
				memcpy(pad, out + t, r);
			p->ghash(k, y, pad, 16);
			cb_wipe(ks, sizeof ks);
		}
	}
	put_be64(pad, (uint64_t)adlen * 8);
	put_be64(pad + 8, (uint64_t)len * 8);
	p->ghash(k, y, pad, 16);
	for (int i = 0; i < 16; i++)
		s[i] ^= y[15 - i];
	if (enc)
		memcpy(tag, s, taglen);
	else if (!cb_ct_equal(s, tag, taglen))
		rc = -EBADMSG;
	cb_wipe(s, sizeof s);
	cb_wipe(pad, sizeof pad);
	cb_wipe(y, sizeof y);
	return rc;
}
#endif
