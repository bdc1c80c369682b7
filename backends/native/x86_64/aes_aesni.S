/*
 * aes_aesni.S - the native backend's AES-NI routines (SSE encoding: they
 * need AES-NI and SSE2 only, and run on every x86-64 CPU with AES-NI):
 * key expansion, CBC and fused ESSIV-CBC encryption of one chain at the
 * latency bound, ECB and CBC decryption with 8 blocks in flight, and CBC
 * encryption of 8 interleaved sector chains.  Contracts: native_asm.h.
 *
 * Two tricks carry the single-chain encryption: the whitening XOR of the
 * next block (P ^ rk0) is computed off the chain and folded into the last
 * round's key (AESENCLAST(x, rk[nr] ^ rk0 ^ P) = C ^ rk0 ^ P), so a block
 * costs exactly nr dependent AES rounds; and ESSIV's AES-256 of the IV
 * ends with the key salt_rk[14] ^ rk0, giving IV ^ rk0 directly, so the
 * first plaintext block is one XOR away from the first data round.
 *
 * Parallel loops index round keys from the end of the schedule
 * (kend = &keys[nr]) and enter an unrolled round sequence at the point
 * the key size needs (two predictable branches per group).
 */
#include "native_asm.h"
#include "macros.inc"

#if defined(__x86_64__)	/* elsewhere: empty (native_arm64.h, or the stub) */

/* x = (a, a^b, a^b^c, a^b^c^d) for x = (a, b, c, d) (32-bit words) */
.macro PREFIX_XOR x, t
	movdqa	\t, \x
	pslldq	\t, 4
	pxor	\x, \t
	movdqa	\t, \x
	pslldq	\t, 8
	pxor	\x, \t
.endm

.macro EXP128 i, rcon
	aeskeygenassist xmm2, xmm1, \rcon
	pshufd	xmm2, xmm2, 0xff
	PREFIX_XOR xmm1, xmm3
	pxor	xmm1, xmm2
	movdqa	[rdi + 16*\i], xmm1
.endm

/* xmm1 = w[6i-6..6i-3], xmm3 low = w[6i-2..6i-1]; 6 new words per step,
 * stored at byte 24*i (the schedule is one stream of 32-bit words). */
.macro EXP192 i, rcon
	aeskeygenassist xmm2, xmm3, \rcon
	pshufd	xmm2, xmm2, 0x55
	PREFIX_XOR xmm1, xmm4
	pxor	xmm1, xmm2
	pshufd	xmm2, xmm1, 0xff
	movdqa	xmm4, xmm3
	pslldq	xmm4, 4
	pxor	xmm3, xmm4
	pxor	xmm3, xmm2
	movdqu	[rdi + 24*\i], xmm1
	.if \i < 8
	movq	[rdi + 24*\i + 16], xmm3
	.endif
.endm

.macro EXP256 i, rcon
	aeskeygenassist xmm2, xmm3, \rcon
	pshufd	xmm2, xmm2, 0xff
	PREFIX_XOR xmm1, xmm4
	pxor	xmm1, xmm2
	movdqa	[rdi + 32*\i], xmm1
	.if \i < 7
	aeskeygenassist xmm2, xmm1, 0
	pshufd	xmm2, xmm2, 0xaa
	PREFIX_XOR xmm3, xmm4
	pxor	xmm3, xmm2
	movdqa	[rdi + 32*\i + 16], xmm3
	.endif
.endm

/* void cb_aes_expand_key(struct cb_aes_key *k, const uint8_t *key,
 *                        size_t keylen)   rdi, rsi, rdx */
	FUNC	cb_aes_expand_key
	movdqu	xmm1, [rsi]
	cmp	rdx, 24
	je	.Lexp192
	ja	.Lexp256
	mov	dword ptr [rdi + CB_AESKEY_ROUNDS], 10
	movdqa	[rdi], xmm1
	EXP128	1, 0x01
	EXP128	2, 0x02
	EXP128	3, 0x04
	EXP128	4, 0x08
	EXP128	5, 0x10
	EXP128	6, 0x20
	EXP128	7, 0x40
	EXP128	8, 0x80
	EXP128	9, 0x1b
	EXP128	10, 0x36
	jmp	.Ldeckeys
.Lexp192:
	mov	dword ptr [rdi + CB_AESKEY_ROUNDS], 12
	movq	xmm3, [rsi + 16]
	movdqa	[rdi], xmm1
	movq	[rdi + 16], xmm3
	EXP192	1, 0x01
	EXP192	2, 0x02
	EXP192	3, 0x04
	EXP192	4, 0x08
	EXP192	5, 0x10
	EXP192	6, 0x20
	EXP192	7, 0x40
	EXP192	8, 0x80
	jmp	.Ldeckeys
.Lexp256:
	mov	dword ptr [rdi + CB_AESKEY_ROUNDS], 14
	movdqu	xmm3, [rsi + 16]
	movdqa	[rdi], xmm1
	movdqa	[rdi + 16], xmm3
	EXP256	1, 0x01
	EXP256	2, 0x02
	EXP256	3, 0x04
	EXP256	4, 0x08
	EXP256	5, 0x10
	EXP256	6, 0x20
	EXP256	7, 0x40
.Ldeckeys:
	/* dec[0] = rk[nr]; dec[i] = InvMixColumns(rk[nr-i]); dec[nr] = rk[0] */
	mov	ecx, [rdi + CB_AESKEY_ROUNDS]
	shl	rcx, 4
	movdqa	xmm0, [rdi + rcx]
	movdqa	[rdi + CB_AESKEY_DEC], xmm0
	movdqa	xmm0, [rdi]
	movdqa	[rdi + CB_AESKEY_DEC + rcx], xmm0
	lea	rsi, [rdi + CB_AESKEY_DEC + 16]
	lea	rdx, [rdi + rcx - 16]
1:	aesimc	xmm0, [rdx]
	movdqa	[rsi], xmm0
	add	rsi, 16
	sub	rdx, 16
	cmp	rdx, rdi
	ja	1b
	pxor	xmm0, xmm0
	pxor	xmm1, xmm1
	pxor	xmm2, xmm2
	pxor	xmm3, xmm3
	pxor	xmm4, xmm4
	ret
	ENDFUNC	cb_aes_expand_key

/* ---- single-chain CBC / ESSIV-CBC encryption -------------------------- */

/* \op \reg, [\base + 16*i] for i = \from .. \to */
.macro ROUNDS_MEM op, reg, base, from, to
	.set	cbi, \from
	.rept	\to - \from + 1
	\op	\reg, [\base + 16*cbi]
	.set	cbi, cbi + 1
	.endr
.endm

/*
 * The chain, for one key size: rdi = key, rsi = chain out, rdx = in,
 * rcx = out, r8 = len (>= 16), xmm0 = chain ^ P0 ^ rk0.
 */
.macro CBC_ENC nr
.Lcbc_enc\nr:
	movdqa	xmm3, [rdi + 16*\nr]
	movdqa	xmm4, xmm3
	pxor	xmm4, [rdi]			/* rk[nr] ^ rk0 */
	sub	r8, 16
	jz	2f
	.p2align 4
1:	ROUNDS_MEM aesenc, xmm0, rdi, 1, (\nr-1)
	movdqu	xmm1, [rdx + 16]
	movdqa	xmm2, xmm1
	pxor	xmm2, xmm4			/* P ^ rk0 ^ rk[nr]    */
	pxor	xmm1, [rdi]			/* W = P ^ rk0         */
	aesenclast xmm0, xmm2			/* C ^ W: next input   */
	movdqa	xmm5, xmm0
	pxor	xmm5, xmm1
	movdqu	[rcx], xmm5
	add	rdx, 16
	add	rcx, 16
	sub	r8, 16
	jnz	1b
2:	ROUNDS_MEM aesenc, xmm0, rdi, 1, (\nr-1)
	aesenclast xmm0, xmm3
	movdqu	[rcx], xmm0
	movdqu	[rsi], xmm0
	ret
.endm

/*
 * Per-request cost at 16 bytes is the path from the plaintext load (in
 * place, usually forwarded from the previous request's store) to the
 * ciphertext store: one XOR and nr rounds.  Everything else - the chain
 * or ESSIV IV ^ rk0 - is computed off that path (LOAD_IV, macros.inc, keeps the
 * IV's own load from stalling it).
 */

/* void cb_aesni_cbc_enc(const struct cb_aes_key *k, const uint8_t iv[16],
 *         uint8_t chain[16], const uint8_t *in, uint8_t *out, size_t len) */
	FUNC	cb_aesni_cbc_enc
	cmp	rsi, rdx			/* continuing our own chain:  */
	je	7f				/* one 16-byte load forwards  */
	LOAD_IV	xmm0, rsi
6:	mov	rsi, rdx
	mov	rdx, rcx
	mov	rcx, r8
	mov	r8, r9
	test	r8, r8
	jz	9f
	pxor	xmm0, [rdi]			/* IV ^ rk0            */
	movdqu	xmm1, [rdx]
	pxor	xmm0, xmm1
	jmp	.Lcbc_enc_body
9:	movdqu	[rsi], xmm0
	ret
7:	movdqu	xmm0, [rsi]
	jmp	6b
	ENDFUNC	cb_aesni_cbc_enc

/* void cb_aesni_essiv_cbc_enc(struct cb_native_ctx *c, const uint8_t iv[16],
 *                             const uint8_t *in, uint8_t *out, size_t len) */
	FUNC	cb_aesni_essiv_cbc_enc
	LOAD_IV	xmm0, rsi
	lea	rsi, [rdi + CB_CTX_IV]
	pxor	xmm0, [rdi + CB_CTX_SALT]
	ROUNDS_MEM aesenc, xmm0, rdi+CB_CTX_SALT, 1, 13
	test	r8, r8
	jz	8f
	movdqa	xmm2, [rdi + CB_CTX_SALT + 16*14]
	pxor	xmm2, [rdi]
	aesenclast xmm0, xmm2			/* IV ^ rk0            */
	movdqu	xmm1, [rdx]
	pxor	xmm0, xmm1			/* IV ^ P0 ^ rk0       */
.Lcbc_enc_body:
	mov	eax, [rdi + CB_AESKEY_ROUNDS]
	cmp	eax, 12
	jb	.Lcbc_enc10
	je	.Lcbc_enc12
	CBC_ENC	14
	CBC_ENC	12
	CBC_ENC	10
8:	aesenclast xmm0, [rdi + CB_CTX_SALT + 16*14]
	movdqu	[rsi], xmm0
	ret
	ENDFUNC	cb_aesni_essiv_cbc_enc

/* ---- 8 blocks in flight ------------------------------------------------- */

/* one round on xmm0..xmm(n-1) with the key at kend - 16*j (r9 = kend) */
.macro XR j, r, n, op
	movdqa	xmm8, [r9 - 16*\j]
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	.if	\i < \n
	\op	xmm\i, xmm8
	.endif
	.endr
.endm

/* rounds 1 .. nr-1 on xmm0..xmm(n-1); eax = nr, r9 = kend */
.macro XROUNDS n, op
	ROUNDS_NR XR, \n, \op
.endm

/* eax = nr, r9 = &keys[nr] for the schedule at \koff, xmm15 = its
 * first key, xmm14 its last */
.macro KEYS_END koff
	KEND	\koff
	movdqa	xmm15, [rdi + \koff]
	movdqa	xmm14, [r9]
.endm

/* ECB: rdi = key, rsi = in, rdx = out, rcx = len */
.macro ECB name, koff, op, oplast
	FUNC	\name
	KEYS_END \koff
	sub	rcx, 128
	jb	3f
	.p2align 4
1:	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	movdqu	xmm\i, [rsi + 16*\i]
	pxor	xmm\i, xmm15
	.endr
	XROUNDS	8, \op
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	\oplast	xmm\i, xmm14
	movdqu	[rdx + 16*\i], xmm\i
	.endr
	add	rsi, 128
	add	rdx, 128
	sub	rcx, 128
	jae	1b
3:	add	rcx, 128
	jz	5f
4:	movdqu	xmm0, [rsi]
	pxor	xmm0, xmm15
	XROUNDS	1, \op
	\oplast	xmm0, xmm14
	movdqu	[rdx], xmm0
	add	rsi, 16
	add	rdx, 16
	sub	rcx, 16
	jnz	4b
5:	ret
	ENDFUNC	\name
.endm

	ECB	cb_aesni_ecb_enc, CB_AESKEY_ENC, aesenc, aesenclast
	ECB	cb_aesni_ecb_dec, CB_AESKEY_DEC, aesdec, aesdeclast

/* void cb_aesni_cbc_dec(const struct cb_aes_key *k, const uint8_t iv[16],
 *         uint8_t chain[16], const uint8_t *in, uint8_t *out, size_t len) */
	FUNC	cb_aesni_cbc_dec
	cmp	rsi, rdx
	je	7f
	LOAD_IV	xmm13, rsi
6:	mov	rsi, rdx
	mov	rdx, rcx
	mov	rcx, r8
	mov	r8, r9
	test	r8, r8
	jnz	.Lcbc_dec_body
	movdqu	[rsi], xmm13
	ret
7:	movdqu	xmm13, [rsi]
	jmp	6b
	ENDFUNC	cb_aesni_cbc_dec

/* void cb_aesni_essiv_cbc_dec(struct cb_native_ctx *c, const uint8_t iv[16],
 *                             const uint8_t *in, uint8_t *out, size_t len) */
	FUNC	cb_aesni_essiv_cbc_dec
	LOAD_IV	xmm13, rsi
	lea	rsi, [rdi + CB_CTX_IV]
	pxor	xmm13, [rdi + CB_CTX_SALT]
	ROUNDS_MEM aesenc, xmm13, rdi+CB_CTX_SALT, 1, 13
	aesenclast xmm13, [rdi + CB_CTX_SALT + 16*14]
	test	r8, r8
	jnz	.Lcbc_dec_body
	movdqu	[rsi], xmm13
	ret
/* rdi = key, rsi = chain, rdx = in, rcx = out, r8 = len > 0,
 * xmm13 = the previous ciphertext block */
.Lcbc_dec_body:
	movdqu	xmm12, [rdx + r8 - 16]		/* the next chain, before */
	movdqu	[rsi], xmm12			/* any store (in place)   */
	KEYS_END CB_AESKEY_DEC
	sub	r8, 128
	jb	3f
	.p2align 4
1:	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	movdqu	xmm\i, [rdx + 16*\i]
	.endr
	movdqa	xmm12, xmm7
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	pxor	xmm\i, xmm15
	.endr
	XROUNDS	8, aesdec
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	aesdeclast xmm\i, xmm14
	.endr
	pxor	xmm0, xmm13
	.irp	i, 1, 2, 3, 4, 5, 6, 7
	movdqu	xmm9, [rdx + 16*\i - 16]
	pxor	xmm\i, xmm9
	.endr
	movdqa	xmm13, xmm12
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	movdqu	[rcx + 16*\i], xmm\i
	.endr
	add	rdx, 128
	add	rcx, 128
	sub	r8, 128
	jae	1b
3:	add	r8, 128
	jz	5f
4:	movdqu	xmm0, [rdx]
	movdqa	xmm12, xmm0
	pxor	xmm0, xmm15
	XROUNDS	1, aesdec
	aesdeclast xmm0, xmm14
	pxor	xmm0, xmm13
	movdqa	xmm13, xmm12
	movdqu	[rcx], xmm0
	add	rdx, 16
	add	rcx, 16
	sub	r8, 16
	jnz	4b
5:	ret
	ENDFUNC	cb_aesni_essiv_cbc_dec

/* ---- 8 interleaved sector chains ---------------------------------------- */

/*
 * Registers: rdi = key, rsi = lanes, rdx = out offset (out_delta +
 * position), r15 = in offset, rcx = bytes left, eax/r9 = rounds/kend;
 * lane pointers in r8, r10, r11, rbx, rbp, r12, r13, r14; xmm0..7 the
 * chains, xmm15 = rk0, xmm14 = rk[nr].
 */
.macro LANE_FIRST i, p			/* chain ^= P0 ^ rk0 */
	movdqu	xmm9, [\p]
	pxor	xmm9, xmm15
	pxor	xmm\i, xmm9
.endm
.macro LANE_NEXT i, p			/* last round, folding the next block */
	movdqu	xmm9, [\p + r15 + 16]
	pxor	xmm9, xmm15			/* W = P' ^ rk0        */
	movdqa	xmm10, xmm9
	pxor	xmm10, xmm14
	aesenclast xmm\i, xmm10			/* C ^ W               */
	movdqa	xmm11, xmm\i
	pxor	xmm11, xmm9
	movdqu	[\p + rdx], xmm11
.endm
.macro LANE_LAST i, p
	aesenclast xmm\i, xmm14
	movdqu	[\p + rdx], xmm\i
.endm
.macro LANE_SETUP i, p
	mov	\p, [rsi + CB_LANES_IN + 8*\i]
	movdqu	xmm\i, [rsi + CB_LANES_IV + 16*\i]
.endm
.macro LANES8 m
	\m	0, r8
	\m	1, r10
	\m	2, r11
	\m	3, rbx
	\m	4, rbp
	\m	5, r12
	\m	6, r13
	\m	7, r14
.endm

/* The 8 chains after their first block: the rest of the blocks (the
 * first already XORed in, r15 = 0, rcx = len), the last, then the
 * registers back and return. */
.macro LANES8_CBC_REST
	sub	rcx, 16
	jz	2f
	.p2align 4
1:	XROUNDS	8, aesenc
	LANES8	LANE_NEXT
	add	r15, 16
	add	rdx, 16
	sub	rcx, 16
	jnz	1b
2:	XROUNDS	8, aesenc
	LANES8	LANE_LAST
	POP_SAVED
	ret
.endm

/* void cb_aesni_cbc_enc_lanes8(const struct cb_aes_key *k,
 *         const struct cb_lanes *l, ptrdiff_t out_delta, size_t len) */
	FUNC	cb_aesni_cbc_enc_lanes8
	PUSH_SAVED
	KEYS_END CB_AESKEY_ENC
	LANES8	LANE_SETUP
	xor	r15d, r15d
	LANES8	LANE_FIRST
	LANES8_CBC_REST
	ENDFUNC	cb_aesni_cbc_enc_lanes8

/* ESSIV in front of the 8 chains: IV_i = AES-256(salt, iv_i) for all 8
 * interleaved, its last round key carrying the data key's whitening. */
.macro ESS_WHITEN i, p
	pxor	xmm\i, xmm15
.endm
.macro ESS_LAST i, p			/* chain = IV ^ rk0 */
	aesenclast xmm\i, xmm14
.endm
.macro LANE_FIRST_IV i, p		/* chain ^= P0 (rk0 already in) */
	movdqu	xmm9, [\p]
	pxor	xmm\i, xmm9
.endm

/* void cb_aesni_essiv_cbc_enc_lanes8(const struct cb_native_ctx *c,
 *         const struct cb_lanes *l, ptrdiff_t out_delta, size_t len)
 * l->iv holds the plain IVs (the ESSIV inputs); len >= 16. */
	FUNC	cb_aesni_essiv_cbc_enc_lanes8
	PUSH_SAVED
	mov	eax, 14
	lea	r9, [rdi + CB_CTX_SALT + 16*14]
	movdqa	xmm15, [rdi + CB_CTX_SALT]
	LANES8	LANE_SETUP
	LANES8	ESS_WHITEN
	XROUNDS	8, aesenc
	movdqa	xmm14, [r9]
	pxor	xmm14, [rdi + CB_CTX_KEY + CB_AESKEY_ENC]
	LANES8	ESS_LAST
	KEYS_END CB_CTX_KEY + CB_AESKEY_ENC
	xor	r15d, r15d
	LANES8	LANE_FIRST_IV
	LANES8_CBC_REST
	ENDFUNC	cb_aesni_essiv_cbc_enc_lanes8

/* ---- XTS ---------------------------------------------------------------- */

/* \t *= x in GF(2^128) (xmm13 = .Lxts_mask): the qwords shift left by
 * one; the sign of the low qword carries into the high one, the sign of
 * the high one folds back as 0x87.  Temp \tmp. */
.macro XMULX t, tmp
	movdqa	\tmp, \t
	psrad	\tmp, 31
	pshufd	\tmp, \tmp, 0x13
	pand	\tmp, xmm13
	paddq	\t, \t
	pxor	\t, \tmp
.endm

.macro XTS_IN i				/* xmm i = P ^ T ^ rk0, T staged */
	movdqu	xmm\i, [rdx + 16*\i]
	pxor	xmm\i, xmm12
	movdqa	[rsp + 16*\i], xmm12
	pxor	xmm\i, xmm15
	XMULX	xmm12, xmm9
.endm
.macro XTS_OUT i, oplast, at=rsp	/* last round with rk[nr] ^ T */
	movdqa	xmm9, [\at + 16*\i]
	pxor	xmm9, xmm14
	\oplast	xmm\i, xmm9
	movdqu	[rcx + 16*\i], xmm\i
.endm

/* rbp:rbx (hi:lo) *= x in GF(2^128), in the integer units beside the
 * vector ones the AES rounds keep busy: the carry of the low half into
 * the high one, the high one's top bit folded back as 0x87 (temp r12). */
.macro XMULX_GPR
	mov	r12, rbp
	sar	r12, 63
	and	r12d, 0x87
	add	rbx, rbx
	adc	rbp, rbp
	xor	rbx, r12
.endm
.macro XSTAGE p, k			/* tweak k of the batch at \p */
	mov	[\p + 16*\k], rbx
	mov	[\p + 16*\k + 8], rbp
	XMULX_GPR
.endm

/* A round of the 8 blocks that also stages tweak 8-j (j = 8 .. 1) of
 * the batch after next at r13: the chain of tweaks runs beside the AES
 * rounds, in the integer units, instead of ahead of them. */
.macro XRT j, r, n, op
	movdqa	xmm8, [r9 - 16*\j]
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	\op	xmm\i, xmm8
	.endr
	.if	\j <= 8
	XSTAGE	r13, (8-\j)
	.endif
.endm

.macro XTS_INB i			/* xmm i = P ^ T ^ rk0, T at r10 */
	movdqu	xmm\i, [rdx + 16*\i]
	pxor	xmm\i, [r10 + 16*\i]
	pxor	xmm\i, xmm15
.endm

/*
 * rdi = key, rsi = tweak (in: the first block's encrypted tweak; out: the
 * next block's), rdx = in, rcx = out, r8 = len (a multiple of 16).  8
 * blocks in flight.  Tweaks are made in rbp:rbx and staged on the stack
 * two batches ahead in three areas that rotate (r10 this batch's, r11
 * the next one's, r13 the one being made): a 16-byte load of a tweak
 * written as two 8-byte halves must find them in L1, not in the store
 * queue, or it waits.  The last round's key carries the tweak; the
 * areas are wiped.  Made in the vector units (5 operations a block),
 * the tweaks took the AES units' ports: AES-128 XTS ran at 0.6 of ECB's
 * speed on a Zen 5; now at 0.95.
 */
.macro XTS name, koff, op, oplast
	FUNC	\name
	test	r8, r8
	jz	9f
	PUSH_SAVED
	sub	rsp, 392
	.cfi_adjust_cfa_offset 392
	KEYS_END \koff
	movdqa	xmm13, [rip + .Lxts_mask]
	movdqu	xmm12, [rsi]
	lea	r10, [rsp]
	lea	r11, [rsp + 128]
	lea	r13, [rsp + 256]
	sub	r8, 128
	jb	3f
	mov	rbx, [rsi]
	mov	rbp, [rsi + 8]
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7	/* the first two batches' tweaks */
	XSTAGE	r10, \i
	.endr
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	XSTAGE	r11, \i
	.endr
	.p2align 4
1:	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	XTS_INB	\i
	.endr
	ROUNDS_NR XRT, 8, \op
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	XTS_OUT	\i, \oplast, r10
	.endr
	mov	r12, r10		/* cur <- next <- staged <- cur */
	mov	r10, r11
	mov	r11, r13
	mov	r13, r12
	add	rdx, 128
	add	rcx, 128
	sub	r8, 128
	jae	1b
	movdqa	xmm12, [r10]		/* the next block's tweak */
	xor	ebx, ebx
	xor	ebp, ebp
	xor	r12d, r12d
3:	add	r8, 128
	jz	5f
4:	XTS_IN	0
	XROUNDS	1, \op
	XTS_OUT	0, \oplast
	add	rdx, 16
	add	rcx, 16
	sub	r8, 16
	jnz	4b
5:	movdqu	[rsi], xmm12
	pxor	xmm9, xmm9
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23
	movdqa	[rsp + 16*\i], xmm9
	.endr
	add	rsp, 392
	.cfi_adjust_cfa_offset -392
	POP_SAVED
9:	ret
	ENDFUNC	\name
.endm

/* void cb_aesni_xts_enc(const struct cb_aes_key *k, uint8_t tweak[16],
 *         const uint8_t *in, uint8_t *out, size_t len)   (and _dec) */
	XTS	cb_aesni_xts_enc, CB_AESKEY_ENC, aesenc, aesenclast
	XTS	cb_aesni_xts_dec, CB_AESKEY_DEC, aesdec, aesdeclast

	.section .rodata
	.p2align 4
.Lxts_mask:
	.long	0x87, 0, 1, 0

	.text
/* ---- the throughput probe (cb_native_limits) ----------------------------- */

/* void cb_aesni_probe(uint64_t n): n x 12 independent AESENC (12 chains,
 * enough for latency x throughput on every known core); the state is
 * scratch (xmm0-12: caller-saved) */
	FUNC	cb_aesni_probe
	pxor	xmm0, xmm0
	.irp	i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
	pxor	xmm\i, xmm\i
	.endr
1:	.irp	i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
	aesenc	xmm\i, xmm0
	.endr
	dec	rdi
	jnz	1b
	ret
	ENDFUNC	cb_aesni_probe

/* void cb_native_probe_adds(uint64_t n): n x 4 dependent 64-bit adds, one
 * a cycle on every x86-64 core: the clock the probe counts cycles in */
	FUNC	cb_native_probe_adds
	xor	eax, eax
1:	add	rax, 1
	add	rax, 1
	add	rax, 1
	add	rax, 1
	dec	rdi
	jnz	1b
	ret
	ENDFUNC	cb_native_probe_adds

#endif /* __x86_64__ */
