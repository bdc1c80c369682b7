/*
 * native_asm.h - the C prototypes and contracts of the native backend's
 * x86-64 assembly (the .S files under backends/native/x86_64/), and the
 * memory layout the assembly shares with C.  The .S files include it too
 * (__ASSEMBLER__): there only the offsets below are visible.
 *
 * Common contract, every routine:
 *   - SysV AMD64 ABI; no alignment required of in/out/iv/chain buffers;
 *   - key schedules (struct cb_aes_key, struct cb_native_ctx) 64-byte
 *     aligned (the glue aligns its context);
 *   - len is a multiple of 16 (the AES block); len == 0 is a no-op except
 *     where said;
 *   - in == out (in place) is allowed; otherwise in and out do not overlap;
 *   - the ISA each file needs is checked by the caller (native_x86.h, from
 *     CPUID and XGETBV) before any routine of that file is called:
 *       aes_aesni.S     AES-NI + SSE2 (legacy SSE encoding, no AVX state);
 *                       its GCM also PCLMULQDQ and SSSE3 (PSHUFB)
 *       aes_vaes256.S,  VAES + VPCLMULQDQ + AVX2 (VEX, ymm0-15 only); OS
 *       gcm_vaes256.S   saves YMM
 *       aes_vaes512.S   VAES + VPCLMULQDQ + AVX512F/VL/BW (EVEX zmm,
 *                       opmasks, byte masks) + BMI2 (GCM's BZHI); OS
 *                       saves ZMM
 *     VAES routines end with vzeroupper.
 *   - no routine allocates or touches memory beyond its arguments and
 *     its own stack; data staged on the stack (vaes256 lanes) is wiped
 *     before return.
 */
#ifndef CB_NATIVE_ASM_H
#define CB_NATIVE_ASM_H

/* struct cb_aes_key: 512 bytes */
#define CB_AESKEY_ENC    0      /* rk[0..nr], 16 bytes each                  */
#define CB_AESKEY_DEC    240    /* Equivalent Inverse Cipher keys, dec[0] =
                                   rk[nr], dec[i] = InvMixColumns(rk[nr-i]),
                                   dec[nr] = rk[0]                          */
#define CB_AESKEY_ROUNDS 480    /* u32: 10, 12 or 14                          */
#define CB_AESKEY_SIZE   512

/* struct cb_native_ctx */
#define CB_CTX_KEY       0      /* the data key                               */
#define CB_CTX_SALT      512    /* ESSIV: AES-256 key = SHA-256(data key)     */
#define CB_CTX_IV        1024   /* the running chain (for iv == NULL)         */

/* struct cb_gcm_key: 1216 bytes */
#define CB_GCM_AES       0      /* struct cb_aes_key: the data key            */
#define CB_GCM_HPOW      512    /* H^33 .. H^1 as GHASH operands (below)      */
#define CB_GCM_HEND      1040   /* the end of that table (H^k at HEND - 16k)  */
#define CB_GCM_HK        1104   /* 64 bytes: the halves' XOR of H^8 .. H^1    */
#define CB_GCM_HKZ       1216   /* 256 bytes: the same of H^32 .. H^1, vaes512 */
#define CB_GCM_HKY       1472   /* 512 bytes: the same, vaes256's layout      */
#define CB_GCM_SIZE      1984   /* (+ 64 zero bytes before HK: a tail's power
                                   loads)                                   */

/* struct cb_gcm_req */
#define CB_GCMREQ_IN     0
#define CB_GCMREQ_OUT    8
#define CB_GCMREQ_LEN    16
#define CB_GCMREQ_AD     24
#define CB_GCMREQ_ADLEN  32
#define CB_GCMREQ_Y      48
#define CB_GCMREQ_J0     64
#define CB_GCMREQ_S      80

/* struct cb_lanes */
#define CB_LANES_MAX     64
#define CB_LANES_IN      0      /* const uint8_t *in[64]                      */
#define CB_LANES_IV      512    /* uint8_t iv[64][16]                         */

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

struct cb_aes_key {
	uint8_t enc[15][16];
	uint8_t dec[15][16];
	uint32_t rounds;
	uint8_t pad[28];
} __attribute__((aligned(64)));

struct cb_native_ctx {
	struct cb_aes_key key;
	struct cb_aes_key salt;
	uint8_t iv[16];
} __attribute__((aligned(64)));

/*
 * AES-GCM's key: the AES schedule and the powers of the hash key H =
 * AES(K, 0^128), hpow[i] = H^(33-i) (a 64-byte load at hpow[1] is H^32 ..
 * H^29, one at hpow[29] H^4 .. H^1; H^33: a request's last group of 32
 * text blocks and the lengths block).  GHASH operands are bit-reflected:
 * a block's 16 bytes reversed and read as a little-endian 128-bit integer
 * (bit 127 is x^0), so a carry-less product of two of them is the
 * product's reflection shifted by one bit - one factor x too many.  The
 * powers are therefore stored times x^-1 (shifted left one bit, the bit
 * shifted out folded back as x^-1 = 0xc2000000000000000000000000000001),
 * and a product reduces with two carry-less multiplications by
 * 0xc2000000_00000000 (native.c: gcm_setkey; the .S files: GHASH).  The
 * 64 bytes after the table are zero: a partial last group of 1-3 blocks
 * loads its powers from up to 48 bytes past it and multiplies them by
 * zeroed lanes.
 */
struct cb_gcm_key {
	struct cb_aes_key aes;
	uint8_t hpow[33][16];
	uint8_t zero[64];
	uint8_t hk[64];     /* qword j: lo ^ hi of H^(8-j) (Karatsuba) */
	/* vaes512: 16-byte lane l of pair i (groups a = 2i + 1, b = 2i + 2
	 * mod 8 of a step's eight 64-byte groups of powers, group g's lane l
	 * H^(32-4g-l)): lo ^ hi of group a's power, then of group b's */
	uint8_t hkz[4][64] __attribute__((aligned(64)));
	/* vaes256: 16-byte lane l of entry c: lo ^ hi of H^(32-2c-l), twice */
	uint8_t hky[16][32];
} __attribute__((aligned(64)));

/* One AES-GCM request for the whole-request routines (native_asm.h offsets
 * CB_GCMREQ_*): the text in -> out (len bytes), the AAD (small routines
 * only: the others take y after it), the hash state y, J0 = IV || be32(1);
 * s = AES(J0) ^ GHASH, the full tag, written back. */
struct cb_gcm_req {
	const uint8_t *in;
	uint8_t *out;
	size_t len;
	const uint8_t *ad;
	size_t adlen;
	uint8_t pad[8];
	uint8_t y[16];
	uint8_t j0[16];
	uint8_t s[16];
};

/*
 * A multi-sector request cut into independent CBC chains ("lanes"): lane i
 * reads len bytes from in[i], writes them to in[i] + out_delta, starting
 * from iv[i].  Every lane is computed; a caller with fewer sectors than
 * lanes repeats a real lane (same in[] and iv[]) in the spare ones - the
 * routines load a position of every lane before storing that position of
 * any lane, so a repeated lane writes the same bytes again, in place too.
 */
struct cb_lanes {
	const uint8_t *in[CB_LANES_MAX];
	uint8_t iv[CB_LANES_MAX][16];
};

/* ---- aes_aesni.S: AES-NI, SSE encoding ---------------------------------- */

/* Expand a 16-, 24- or 32-byte key (keylen checked by the caller) into
 * k->enc, k->dec and k->rounds. */
void cb_aes_expand_key(struct cb_aes_key *k, const uint8_t *key,
                       size_t keylen);

/*
 * CBC encryption of one chain at the latency bound: nr AES rounds per
 * block, the next block's XOR folded into the last round's key.  iv is
 * read before chain is written with the last ciphertext block (the IV
 * when len == 0); iv == chain continues a chain.  Every routine taking an
 * iv reads its low 8 bytes a byte at a time, so the load is forwarded
 * from however the caller just stored a sector number there (an 8-byte
 * load after byte stores would wait for them to retire); iv == chain is
 * our own 16-byte store, read as such.
 */
void cb_aesni_cbc_enc(const struct cb_aes_key *k, const uint8_t iv[16],
                      uint8_t chain[16], const uint8_t *in, uint8_t *out,
                      size_t len);
/*
 * Fused ESSIV-CBC encryption: IV = AES-256-ENC(c->salt, iv) then CBC with
 * c->key; the last ciphertext block (with len == 0: the IV) goes to c->iv.
 * One routine, no call in between: the ESSIV's last round key carries the
 * data key's whitening, so the first plaintext block is one XOR from the
 * first data round and the IV computation is off its path.
 */
void cb_aesni_essiv_cbc_enc(struct cb_native_ctx *c, const uint8_t iv[16],
                            const uint8_t *in, uint8_t *out, size_t len);

/* The same decryption, 8 blocks in flight; iv and chain as above (the
 * last ciphertext block is read before any store, so in place works). */
void cb_aesni_cbc_dec(const struct cb_aes_key *k, const uint8_t iv[16],
                      uint8_t chain[16], const uint8_t *in, uint8_t *out,
                      size_t len);
void cb_aesni_essiv_cbc_dec(struct cb_native_ctx *c, const uint8_t iv[16],
                            const uint8_t *in, uint8_t *out, size_t len);

/* ECB, 8 blocks in flight. */
void cb_aesni_ecb_enc(const struct cb_aes_key *k, const uint8_t *in,
                      uint8_t *out, size_t len);
void cb_aesni_ecb_dec(const struct cb_aes_key *k, const uint8_t *in,
                      uint8_t *out, size_t len);

/* CBC encryption of 8 lanes (l->in[0..7], l->iv[0..7]) interleaved, len
 * bytes each (len >= 16). */
void cb_aesni_cbc_enc_lanes8(const struct cb_aes_key *k,
                             const struct cb_lanes *l, ptrdiff_t out_delta,
                             size_t len);
/* The same with ESSIV in front, fused: lane i's IV is AES-256(c->salt,
 * l->iv[i]), all 8 interleaved, then CBC with c->key (tcrypt's
 * multibuffer mode: 8 short requests cost one pass, not 8 latencies). */
void cb_aesni_essiv_cbc_enc_lanes8(const struct cb_native_ctx *c,
                                   const struct cb_lanes *l,
                                   ptrdiff_t out_delta, size_t len);

/*
 * XTS (IEEE 1619) over whole blocks with the data key k: block i is
 * E_k(P_i ^ T_i) ^ T_i (decryption with k's inverse schedule), T_0 the
 * encrypted tweak read from tweak[], T_{i+1} = T_i * x in GF(2^128); the
 * tweak of the block after the last is written back to tweak[] (so a
 * caller can continue, or steal ciphertext from the last block).  len a
 * multiple of 16 (0: nothing read or written).  Same contract on every
 * path (_aesni_: 8 blocks in flight; _vaes256_: 16; _vaes512_: 32 in 8
 * zmm for AES-128 and AES-256 requests of 512 bytes or more, the tweak
 * vectors in registers (AES-256's round keys 1-4 staged on the stack),
 * else 16 in 4 zmm, tweaks advanced by x^16).
 */
void cb_aesni_xts_enc(const struct cb_aes_key *k, uint8_t tweak[16],
                      const uint8_t *in, uint8_t *out, size_t len);
void cb_aesni_xts_dec(const struct cb_aes_key *k, uint8_t tweak[16],
                      const uint8_t *in, uint8_t *out, size_t len);

/* ---- aes_vaes256.S: VAES on ymm (2 blocks per register) ----------------- */

/* CBC decryption, 16 blocks (8 ymm) in flight. */
void cb_vaes256_cbc_dec(const struct cb_aes_key *k, const uint8_t iv[16],
                        uint8_t chain[16], const uint8_t *in, uint8_t *out,
                        size_t len);
void cb_vaes256_essiv_cbc_dec(struct cb_native_ctx *c, const uint8_t iv[16],
                              const uint8_t *in, uint8_t *out, size_t len);
void cb_vaes256_ecb_enc(const struct cb_aes_key *k, const uint8_t *in,
                        uint8_t *out, size_t len);
void cb_vaes256_ecb_dec(const struct cb_aes_key *k, const uint8_t *in,
                        uint8_t *out, size_t len);
/* CBC encryption of 16 lanes, two per ymm, staged 64 bytes per lane at a
 * time through the stack (len a multiple of 64, >= 64); _any reads and
 * writes the lanes 16 bytes at a time (any len >= 16, slower on a 4 KiB
 * lane stride: 16 lanes share one L1 set). */
void cb_vaes256_cbc_enc_lanes16(const struct cb_aes_key *k,
                                const struct cb_lanes *l,
                                ptrdiff_t out_delta, size_t len);
void cb_vaes256_cbc_enc_lanes16_any(const struct cb_aes_key *k,
                                    const struct cb_lanes *l,
                                    ptrdiff_t out_delta, size_t len);

void cb_vaes256_xts_enc(const struct cb_aes_key *k, uint8_t tweak[16],
                        const uint8_t *in, uint8_t *out, size_t len);
void cb_vaes256_xts_dec(const struct cb_aes_key *k, uint8_t tweak[16],
                        const uint8_t *in, uint8_t *out, size_t len);

/* ---- aes_vaes512.S: VAES on zmm (4 blocks per register) ----------------- */

/* CBC decryption, 32 blocks (8 zmm) in flight, masked tail. */
void cb_vaes512_cbc_dec(const struct cb_aes_key *k, const uint8_t iv[16],
                        uint8_t chain[16], const uint8_t *in, uint8_t *out,
                        size_t len);
void cb_vaes512_essiv_cbc_dec(struct cb_native_ctx *c, const uint8_t iv[16],
                              const uint8_t *in, uint8_t *out, size_t len);
void cb_vaes512_ecb_enc(const struct cb_aes_key *k, const uint8_t *in,
                        uint8_t *out, size_t len);
void cb_vaes512_ecb_dec(const struct cb_aes_key *k, const uint8_t *in,
                        uint8_t *out, size_t len);
/*
 * CBC encryption of 16 lanes, four per zmm: 64-byte loads per lane and a
 * 4x4 transpose of 128-bit lanes in, the same out.  len must be a multiple
 * of 64 (>= 64).
 */
void cb_vaes512_cbc_enc_lanes16(const struct cb_aes_key *k,
                                const struct cb_lanes *l,
                                ptrdiff_t out_delta, size_t len);
/*
 * The same for 32 lanes (8 chains of four in flight: a core with two
 * 512-bit AES units of latency 4 needs them), 32 bytes of a lane a step:
 * len must be a multiple of 32 (>= 32).
 */
void cb_vaes512_cbc_enc_lanes32(const struct cb_aes_key *k,
                                const struct cb_lanes *l,
                                ptrdiff_t out_delta, size_t len);
/*
 * The same for 64 lanes (16 chains of four: twice what latency x
 * throughput needs on such a core), 64 bytes of every lane staged
 * through the stack at a time: len must be a multiple of 64 (>= 64).
 */
void cb_vaes512_cbc_enc_lanes64(const struct cb_aes_key *k,
                                const struct cb_lanes *l,
                                ptrdiff_t out_delta, size_t len);
/*
 * ESSIV-CBC encryption of 8 requests straight from the batch entry
 * point's arrays: request i is in[i] -> out[i], len bytes (a multiple of
 * 16, >= 16), IV AES-256(c->salt, ivs[i]); two zmm of four lanes.  Every
 * lane's block at an offset is read before any lane's is written.
 */
void cb_vaes512_essiv_enc_ptrs8(const struct cb_native_ctx *c,
                                const uint8_t *const ivs[8],
                                const uint8_t *const in[8],
                                uint8_t *const out[8], size_t len);
void cb_vaes512_xts_enc(const struct cb_aes_key *k, uint8_t tweak[16],
                        const uint8_t *in, uint8_t *out, size_t len);
void cb_vaes512_xts_dec(const struct cb_aes_key *k, uint8_t tweak[16],
                        const uint8_t *in, uint8_t *out, size_t len);
/* The same from the IV: tweak[16] = the IV on entry, encrypted first with
 * c->salt (the tweak key), the advanced encrypted tweak on return; len
 * may be 0 (the tweak is still encrypted). */
void cb_vaes512_xts_enc_iv(const struct cb_native_ctx *c, uint8_t tweak[16],
                           const uint8_t *in, uint8_t *out, size_t len);
void cb_vaes512_xts_dec_iv(const struct cb_native_ctx *c, uint8_t tweak[16],
                           const uint8_t *in, uint8_t *out, size_t len);
/* n >= 1 consecutive sectors of ss bytes (a multiple of 16, > 0), sector
 * i from the encrypted tweak tweaks[i] (read only): the keys stay loaded
 * and one sector's tweak setup overlaps the previous sector's rounds. */
void cb_vaes256_xts_enc_sectors(const struct cb_aes_key *k,
                                const uint8_t (*tweaks)[16],
                                const uint8_t *in, uint8_t *out, size_t ss,
                                size_t n);
void cb_vaes256_xts_dec_sectors(const struct cb_aes_key *k,
                                const uint8_t (*tweaks)[16],
                                const uint8_t *in, uint8_t *out, size_t ss,
                                size_t n);
void cb_vaes512_xts_enc_sectors(const struct cb_aes_key *k,
                                const uint8_t (*tweaks)[16],
                                const uint8_t *in, uint8_t *out, size_t ss,
                                size_t n);
void cb_vaes512_xts_dec_sectors(const struct cb_aes_key *k,
                                const uint8_t (*tweaks)[16],
                                const uint8_t *in, uint8_t *out, size_t ss,
                                size_t n);

/* ---- AES-GCM (SP 800-38D) -----------------------------------------------
 *
 * The hash state y[16] is the GHASH accumulator as an operand (reflected,
 * see struct cb_gcm_key; all zero to start); ctr[16] is the counter block
 * of the first data block (IV || be32(2) for a 12-byte IV), read only,
 * the counter incremented mod 2^32 (inc32) from there.
 *
 * gcm_enc: out = in ^ AES-CTR, GHASH of out into y; gcm_dec: GHASH of in
 * into y, out = in ^ AES-CTR.  One pass over the data: the AES of one
 * group of blocks and the GHASH of the ciphertext of the previous (enc)
 * or the same (dec) group interleaved in one loop.  _ghash: y = GHASH of
 * in continued from y.  _aesni_: len a multiple of 16 (the caller pads a
 * partial block), 8 blocks in flight, PCLMULQDQ; _vaes512_ (below): any
 * len (a partial last block is zero-padded for GHASH by masked loads and
 * stores: AVX512BW), VPCLMULQDQ.  In place (in == out) is allowed.
 */
void cb_aesni_ghash(const struct cb_gcm_key *k, uint8_t y[16],
                    const uint8_t *in, size_t len);
/*
 * gcm_aesni.S (AES-NI + PCLMULQDQ, SSE encoding) and _vaes512_: a whole
 * request - _aesni_: 8 blocks a step, the AAD's GHASH any length as for
 * _vaes512_; _aesni_ _small: any len with ceil(adlen/16) + ceil(len/16)
 * + 1 <= 32 (the AAD in the last group when len < 128).
 * _vaes512_ a whole request but the AAD (r->y: the GHASH of the AAD): the
 * text 32 blocks (8 zmm) a step, then its last 0-511 bytes, the lengths
 * block and AES(J0) as one group (one reduction), r->s = the full tag.
 * _small: the same with the AAD in that group (y from zero): for len <
 * 512 and ceil(adlen/16) + ceil(len/16) + 1 <= 32 - one call and one
 * reduction for a packet.
 */
void cb_aesni_gcm_enc(const struct cb_gcm_key *k, struct cb_gcm_req *r);
void cb_aesni_gcm_dec(const struct cb_gcm_key *k, struct cb_gcm_req *r);
void cb_aesni_gcm_enc_small(const struct cb_gcm_key *k, struct cb_gcm_req *r);
void cb_aesni_gcm_dec_small(const struct cb_gcm_key *k, struct cb_gcm_req *r);
void cb_vaes512_gcm_enc(const struct cb_gcm_key *k, struct cb_gcm_req *r);
void cb_vaes512_gcm_dec(const struct cb_gcm_key *k, struct cb_gcm_req *r);
void cb_vaes512_gcm_enc_small(const struct cb_gcm_key *k,
                              struct cb_gcm_req *r);
void cb_vaes512_gcm_dec_small(const struct cb_gcm_key *k,
                              struct cb_gcm_req *r);
void cb_vaes512_ghash(const struct cb_gcm_key *k, uint8_t y[16],
                      const uint8_t *in, size_t len);
/* _vaes256_ (gcm_vaes256.S): whole requests as _aesni_'s (the same
 * _small condition), 16 blocks (8 ymm) a step, two steps a reduction,
 * the last 0-255 bytes of text and the lengths block as one group;
 * _small: the AAD in that group when len < 256, else as a group of its
 * own before the steps; _ghash: 256 bytes a step on ymm, any len */
void cb_vaes256_gcm_enc(const struct cb_gcm_key *k, struct cb_gcm_req *r);
void cb_vaes256_gcm_dec(const struct cb_gcm_key *k, struct cb_gcm_req *r);
void cb_vaes256_gcm_enc_small(const struct cb_gcm_key *k,
                              struct cb_gcm_req *r);
void cb_vaes256_gcm_dec_small(const struct cb_gcm_key *k,
                              struct cb_gcm_req *r);
void cb_vaes256_ghash(const struct cb_gcm_key *k, uint8_t y[16],
                      const uint8_t *in, size_t len);

/* ---- the throughput probe: n iterations of 12 independent AES rounds on
 * the path's widest register (xmm, ymm, zmm), and of 4 dependent adds (one
 * a cycle: the clock it is counted in); registers are scratch --------- */
void cb_aesni_probe(uint64_t n);
void cb_vaes256_probe(uint64_t n);
void cb_vaes512_probe(uint64_t n);
void cb_native_probe_adds(uint64_t n);
/* AES-GCM's bound on VAES-512: n x the 8 x nr VAESENC and 34 VPCLMULQDQ
 * of one 32-block (512-byte) step, the chains independent */
void cb_vaes512_gcm_probe128(uint64_t n);
/* the same on AES-NI: n x 4 groups of 8 chains of nr AESENC and 26
 * PCLMULQDQ (8 x 3 Karatsuba products, 2 for the reduction) */
void cb_aesni_gcm_probe128(uint64_t n);
void cb_aesni_gcm_probe256(uint64_t n);
void cb_vaes512_gcm_probe256(uint64_t n);
/* the same on vaes256: 512 bytes (two 16-block steps), 16 x nr VAESENC
 * and 52 VPCLMULQDQ on ymm */
void cb_vaes256_gcm_probe128(uint64_t n);
void cb_vaes256_gcm_probe256(uint64_t n);

#endif /* !__ASSEMBLER__ */
#endif
