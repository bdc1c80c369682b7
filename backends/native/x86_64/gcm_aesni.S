/*
 * gcm_aesni.S - AES-GCM on AES-NI + PCLMULQDQ, legacy SSE encoding (also
 * SSSE3's PSHUFB): it runs on every x86-64 CPU the aesni path is chosen
 * on, which is checked for AES-NI and PCLMULQDQ only, not AVX.  Contracts:
 * native_asm.h.
 *
 * Whole requests: AES(J0) first, then 8-block groups with the AES rounds
 * of one group and the GHASH of 8 ciphertext blocks (the previous group's
 * on encryption, the same group's on decryption) stitched round by round,
 * Karatsuba products (3 PCLMULQDQ a block, the halves' XOR of H^8 .. H^1
 * precomputed: cb_gcm_key.hk) summed and reduced once a group; then the
 * last 0-127 bytes a block at a time, the pending group, the lengths block
 * (and on the _small routines the AAD) hashed as one group with one
 * reduction.  Registers of the 8-block loop: xmm0-7 the blocks, xmm8 a
 * round key, xmm9 the next counter block (big-endian), ebx its value,
 * xmm10/11/12 LO/MI/HI (HI the hash state between groups), xmm13/14
 * scratch, xmm15 the byte-reversal mask.  [rsp]: the counter block's
 * first 12 bytes; [rsp + 16]: a partial block (wiped).
 */
#include "native_asm.h"
#include "macros.inc"

#if defined(__x86_64__)

#define HP(k)	[rdi + CB_GCM_HEND - 16*(k)]

/* xmm9, ebx: the next counter (inc32); the block rebuilt through [rsp]
 * when the low byte wraps (one block in 256).  Clobbers r14. */
.macro CTR_STEP
	inc	ebx
	test	bl, bl
	jz	76f
	paddb	xmm9, [rip + .Lg_be + 16]
	jmp	77f
76:	mov	r14d, ebx
	bswap	r14d
	mov	[rsp + 12], r14d
	movdqu	xmm9, [rsp]
77:
.endm

/* xmm0-7 = the next 8 counter blocks ^ rk0 */
.macro CTR8
	cmp	bl, 247
	ja	75f
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	movdqa	xmm\i, xmm9
	.if \i
	paddb	xmm\i, [rip + .Lg_be + 16*\i]
	.endif
	.endr
	paddb	xmm9, [rip + .Lg_be + 16*8]
	add	ebx, 8
	jmp	74f
75:	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	movdqa	xmm\i, xmm9
	CTR_STEP
	.endr
74:	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	pxor	xmm\i, [rdi]
	.endr
.endm

/* block \j (0-7) of the group at [\p] x H^(8-j) into LO, MI, HI (block 0
 * gets the hash state HI added and sets them) */
.macro GH_BLK p, j
	movdqu	xmm13, [\p + 16*(\j)]
	pshufb	xmm13, xmm15
	.if (\j) == 0
	pxor	xmm13, xmm12
	movdqa	xmm10, xmm13
	pclmulqdq xmm10, HP(8), 0x00
	movdqa	xmm12, xmm13
	pclmulqdq xmm12, HP(8), 0x11
	pshufd	xmm11, xmm13, 0x4e
	pxor	xmm11, xmm13
	pclmulqdq xmm11, [rdi + CB_GCM_HK], 0x00
	.else
	movdqa	xmm14, xmm13
	pclmulqdq xmm14, HP(8-(\j)), 0x00
	pxor	xmm10, xmm14
	movdqa	xmm14, xmm13
	pclmulqdq xmm14, HP(8-(\j)), 0x11
	pxor	xmm12, xmm14
	pshufd	xmm14, xmm13, 0x4e
	pxor	xmm14, xmm13
	pclmulqdq xmm14, [rdi + CB_GCM_HK + 16*((\j)/2)], ((\j) & 1) << 4
	pxor	xmm11, xmm14
	.endif
.endm

/* MI += LO + HI (Karatsuba), then LO + MI x^64 + HI x^128 reduced into
 * HI (aes_vaes512.S: GH_RED1, GH_RED2) */
.macro GH_RED
	pxor	xmm11, xmm10
	pxor	xmm11, xmm12
	movdqa	xmm14, xmm10
	pclmulqdq xmm14, [rip + .Lg_poly], 0x10
	pshufd	xmm10, xmm10, 0x4e
	pxor	xmm11, xmm10
	pxor	xmm11, xmm14
	movdqa	xmm14, xmm11
	pclmulqdq xmm14, [rip + .Lg_poly], 0x10
	pshufd	xmm11, xmm11, 0x4e
	pxor	xmm12, xmm11
	pxor	xmm12, xmm14
.endm

/* xmm13 (a reflected block) + xmm6 (the pending hash state, then zeroed)
 * x [r11] (a power of H, folded here) into LO, MI, HI; r11 += 16 */
.macro GACC
	pxor	xmm13, xmm6
	pxor	xmm6, xmm6
	movdqa	xmm7, [r11]
	movdqa	xmm14, xmm13
	pclmulqdq xmm14, xmm7, 0x00
	pxor	xmm10, xmm14
	movdqa	xmm14, xmm13
	pclmulqdq xmm14, xmm7, 0x11
	pxor	xmm12, xmm14
	pshufd	xmm14, xmm13, 0x4e
	pxor	xmm13, xmm14
	pshufd	xmm14, xmm7, 0x4e
	pxor	xmm14, xmm7
	pclmulqdq xmm13, xmm14, 0x00
	pxor	xmm11, xmm13
	add	r11, 16
.endm

/* \n (register, 1-15) bytes from [\src] to [\dst]; clobbers rbp, r14 */
.macro COPY dst, src, n
	xor	ebp, ebp
69:	movzx	r14d, byte ptr [\src + rbp]
	mov	[\dst + rbp], r14b
	inc	rbp
	cmp	rbp, \n
	jb	69b
.endm

/* GACC over r13 bytes at [rdx] (the last block zero-padded through
 * [rsp + 16]); rdx, r13 consumed */
.macro GH_BYTES
	jmp	72f
71:	movdqu	xmm13, [rdx]
	pshufb	xmm13, xmm15
	GACC
	add	rdx, 16
	sub	r13, 16
72:	cmp	r13, 16
	jae	71b
	test	r13, r13
	jz	73f
	pxor	xmm13, xmm13
	movdqu	[rsp + 16], xmm13
	COPY	rsp + 16, rdx, r13
	movdqu	xmm13, [rsp + 16]
	pshufb	xmm13, xmm15
	GACC
	xor	r13d, r13d
73:
.endm

/* r11 = &H^N, N = r11 blocks; LO, MI, HI zeroed, the state to xmm6 */
.macro GSET
	shl	r11, 4
	neg	r11
	lea	r11, [rdi + CB_GCM_HEND + r11]
	movdqa	xmm6, xmm12
	pxor	xmm10, xmm10
	pxor	xmm11, xmm11
	pxor	xmm12, xmm12
.endm

/* rounds of the round-key sequence (ROUNDS_NR) */
.macro AR1 j, k
	aesenc	xmm0, [r9 - 16*\j]
.endm
.macro AR8 j, k
	movdqa	xmm8, [r9 - 16*\j]
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	aesenc	xmm\i, xmm8
	.endr
.endm
/* the stitch: a round, then block 9-j's GHASH (j = 9..2), the reduction
 * at j = 1 */
.macro GR j, k, p
	AR8	\j, \k
	.if \j >= 2 && \j <= 9
	GH_BLK	\p, 9-\j
	.elseif \j == 1
	GH_RED
	.endif
.endm
/* the last round with rk[nr] ^ in, stored */
.macro LAST8
	movdqa	xmm8, [r9]
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	movdqu	xmm13, [rcx + 16*\i]
	pxor	xmm13, xmm8
	aesenclast xmm\i, xmm13
	movdqu	[r8 + 16*\i], xmm\i
	.endr
.endm

/*
 * void cb_aesni_gcm_enc(const struct cb_gcm_key *k, struct cb_gcm_req *r)
 * (and _dec, _enc_small, _dec_small): rdi, rsi; rcx = in, r8 = out, r10
 * = the bytes left, r12 = 8 when an encrypted group waits to be hashed,
 * r13 the AAD bytes still to hash (small), rdx their address.
 */
.macro AGCM name, enc, small
	FUNC	\name
	PUSH_CFI rbx
	PUSH_CFI rbp
	PUSH_CFI r12
	PUSH_CFI r13
	PUSH_CFI r14
	sub	rsp, 40
	.cfi_adjust_cfa_offset 40
	movdqa	xmm15, [rip + .Lg_bswap]
	mov	rcx, [rsi + CB_GCMREQ_IN]
	mov	r8, [rsi + CB_GCMREQ_OUT]
	mov	r10, [rsi + CB_GCMREQ_LEN]
	KEND	CB_GCM_AES
	movdqu	xmm9, [rsi + CB_GCMREQ_J0]
	movdqu	[rsp], xmm9
	movdqa	xmm0, xmm9
	pxor	xmm0, [rdi]
	ROUNDS_NR AR1
	aesenclast xmm0, [r9]
	movdqu	[rsi + CB_GCMREQ_S], xmm0
	mov	ebx, [rsi + CB_GCMREQ_J0 + 12]
	bswap	ebx
	CTR_STEP
	xor	r12d, r12d
	xor	r13d, r13d
	.if \small
	pxor	xmm12, xmm12
	mov	rdx, [rsi + CB_GCMREQ_AD]
	mov	r13, [rsi + CB_GCMREQ_ADLEN]
	cmp	r10, 128
	jb	5f
	test	r13, r13
	jz	4f
	lea	r11, [r13 + 15]
	shr	r11, 4
	GSET
	GH_BYTES
	GH_RED
4:
	.else
	movdqu	xmm12, [rsi + CB_GCMREQ_Y]
	.endif
	cmp	r10, 128
	jb	5f
	.if \enc
	CTR8
	ROUNDS_NR AR8
	LAST8
	add	rcx, 128
	add	r8, 128
	sub	r10, 128
	mov	r12d, 8
	.endif
	jmp	2f
	.p2align 4
1:	CTR8
	.if \enc
	ROUNDS_NR GR, r8-128
	.else
	ROUNDS_NR GR, rcx
	.endif
	LAST8
	add	rcx, 128
	add	r8, 128
	sub	r10, 128
2:	cmp	r10, 128
	jae	1b
	/* the last group: N = AAD + pending + text + lengths blocks */
5:	lea	r11, [r13 + 15]
	shr	r11, 4
	lea	rbp, [r10 + 15]
	shr	rbp, 4
	lea	r11, [r11 + rbp + 1]
	add	r11, r12
	GSET
	.if \small
	GH_BYTES
	.endif
	.if \enc
	test	r12, r12
	jz	61f
	lea	rdx, [r8 - 128]
	mov	r13d, 128
	GH_BYTES
	.endif
61:	jmp	63f
62:	movdqa	xmm0, xmm9
	CTR_STEP
	pxor	xmm0, [rdi]
	ROUNDS_NR AR1
	movdqu	xmm1, [rcx]
	movdqa	xmm13, [r9]
	pxor	xmm13, xmm1
	aesenclast xmm0, xmm13
	movdqu	[r8], xmm0
	.if \enc
	movdqa	xmm13, xmm0
	.else
	movdqa	xmm13, xmm1
	.endif
	pshufb	xmm13, xmm15
	GACC
	add	rcx, 16
	add	r8, 16
	sub	r10, 16
63:	cmp	r10, 16
	jae	62b
	test	r10, r10
	jz	64f
	/* a partial block through [rsp + 16] */
	movdqa	xmm0, xmm9
	pxor	xmm0, [rdi]
	ROUNDS_NR AR1
	aesenclast xmm0, [r9]
	pxor	xmm1, xmm1
	movdqu	[rsp + 16], xmm1
	lea	rdx, [rsp + 16]
	COPY	rdx, rcx, r10
	movdqu	xmm1, [rsp + 16]
	pxor	xmm0, xmm1
	movdqu	[rsp + 16], xmm0
	COPY	r8, rdx, r10
	.if \enc
	lea	rdx, [rip + .Lg_mask + 16]
	sub	rdx, r10
	movdqu	xmm13, [rdx]
	pand	xmm13, xmm0
	.else
	movdqa	xmm13, xmm1
	.endif
	pshufb	xmm13, xmm15
	GACC
	pxor	xmm0, xmm0
	movdqu	[rsp + 16], xmm0
	/* the lengths block (reflected: le64(text bits), le64(AAD bits)) */
64:	mov	rax, [rsi + CB_GCMREQ_LEN]
	shl	rax, 3
	movq	xmm13, rax
	mov	rax, [rsi + CB_GCMREQ_ADLEN]
	shl	rax, 3
	movq	xmm14, rax
	punpcklqdq xmm13, xmm14
	GACC
	GH_RED
	pshufb	xmm12, xmm15
	movdqu	xmm13, [rsi + CB_GCMREQ_S]
	pxor	xmm12, xmm13
	movdqu	[rsi + CB_GCMREQ_S], xmm12
	add	rsp, 40
	.cfi_adjust_cfa_offset -40
	POP_CFI	r14
	POP_CFI	r13
	POP_CFI	r12
	POP_CFI	rbp
	POP_CFI	rbx
	ret
	ENDFUNC	\name
.endm

	AGCM	cb_aesni_gcm_enc, 1, 0
	AGCM	cb_aesni_gcm_dec, 0, 0
	AGCM	cb_aesni_gcm_enc_small, 1, 1
	AGCM	cb_aesni_gcm_dec_small, 0, 1

/* void cb_aesni_ghash(const struct cb_gcm_key *k, uint8_t y[16],
 *         const uint8_t *in, size_t len): rdi, rsi, rdx, rcx; any len
 * (the last block zero-padded) */
	FUNC	cb_aesni_ghash
	test	rcx, rcx
	jz	9f
	PUSH_CFI rbp
	PUSH_CFI r13
	PUSH_CFI r14
	sub	rsp, 40
	.cfi_adjust_cfa_offset 40
	movdqa	xmm15, [rip + .Lg_bswap]
	movdqu	xmm12, [rsi]
	mov	r13, rcx
	jmp	2f
1:	.irp	j, 0, 1, 2, 3, 4, 5, 6, 7
	GH_BLK	rdx, \j
	.endr
	GH_RED
	add	rdx, 128
	sub	r13, 128
2:	cmp	r13, 128
	jae	1b
	test	r13, r13
	jz	3f
	lea	r11, [r13 + 15]
	shr	r11, 4
	GSET
	GH_BYTES
	GH_RED
	pxor	xmm13, xmm13
	movdqu	[rsp + 16], xmm13
3:	movdqu	[rsi], xmm12
	add	rsp, 40
	.cfi_adjust_cfa_offset -40
	POP_CFI	r14
	POP_CFI	r13
	POP_CFI	rbp
9:	ret
	ENDFUNC	cb_aesni_ghash

	.section .rodata
	.p2align 4
.Lg_bswap:
	.byte	15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Lg_poly:
	.quad	1, 0xc200000000000000
.Lg_be:					/* i on a block's last byte, i = 0-8 */
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7, 8
	.byte	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \i
	.endr
.Lg_mask:				/* 16 x 0xff, 16 x 0 */
	.rept	16
	.byte	0xff
	.endr
	.rept	16
	.byte	0
	.endr
	.text

/*
 * void cb_aesni_gcm_probe128(uint64_t n) (and 256): n x the AES and
 * PCLMULQDQ of 512 bytes (four 8-block groups) of cb_aesni_gcm_enc: 8
 * chains of nr AESENC and 26 PCLMULQDQ (8 x 3 Karatsuba products and 2
 * for the reduction) a group, spread over its rounds.
 */
.macro GPROBE name, nr
	FUNC	\name
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
	pxor	xmm\i, xmm\i
	.endr
1:	.rept	4
	.set	.Lcl_done, 0
	.irp	r, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14
	.if	\r <= \nr
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	aesenc	xmm\i, xmm8
	.endr
	.rept	(26 * \r) / \nr - .Lcl_done
	movdqa	xmm10, xmm9
	pclmulqdq xmm10, xmm9, 0x00
	.endr
	.set	.Lcl_done, (26 * \r) / \nr
	.endif
	.endr
	.endr
	dec	rdi
	jnz	1b
	ret
	ENDFUNC	\name
.endm
	GPROBE	cb_aesni_gcm_probe128, 10
	GPROBE	cb_aesni_gcm_probe256, 14

#endif /* __x86_64__ */
