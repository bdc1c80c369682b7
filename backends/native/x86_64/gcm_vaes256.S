/*
 * gcm_vaes256.S - AES-GCM on VAES + VPCLMULQDQ with 256-bit registers and
 * no AVX-512 (Zen 3, Ice Lake/Alder Lake-class client cores): the
 * vaes256 path's whole-request routines cb_vaes256_gcm_enc/_dec and
 * _small, its GHASH and its combined-bound probes (contracts:
 * native_asm.h, the same request as cb_aesni_gcm_enc's).
 *
 * A step is 16 blocks (256 bytes) in ymm0-7, two blocks a register: 8
 * independent VAESENC chains, enough to cover VAESENC's latency (4 cycles
 * at 2 a cycle on Zen 3, 3-4 at 2 on Intel).  Under a step's rounds runs
 * the GHASH of 16 blocks - the previous step's ciphertext (encryption) or
 * this step's input (decryption), read back from L1 as no register is
 * left to keep them - as 8 x 3 Karatsuba VPCLMULQDQ on ymm; steps go in
 * pairs, 32 blocks with H^32 .. H^1 (the aggregated form: y' = (y + X1)
 * H^32 + X2 H^31 + ... + X32 H) and one reduction (2 more).  The step is
 * unrolled for each key size so that the GHASH pieces spread evenly over
 * all its rounds.  Without AVX-512 there is no three-way XOR: each sum
 * is two VPXOR.  The counters of a step are one byte swap and 8 VPADDD on
 * the big-endian block while its last byte cannot carry (r11b tracks
 * it), else inc32 on the little-endian form (ymm9: the block reversed).
 * A request's last 0-255 bytes run the AES of 2, 8 or 16 counters into a
 * stack buffer, the text staged beside it (both wiped), and with the
 * lengths block (and on _small the AAD) form one group hashed block by
 * block on xmm with one reduction.
 *
 * Registers: ymm0-7 the AES blocks, ymm8 a round key (both lanes),
 * ymm9 the next two counters in little-endian form, ymm10 the hash state
 * y (low lane), ymm11/12/13 LO/MI/HI, ymm14/15 scratch.
 */
#include "native_asm.h"
#include "macros.inc"

#if defined(__x86_64__)

/* LO, MI, HI (+)= blocks 2c, 2c+1 at [\p + 32c] reflected (y added and
 * LO, MI, HI set when init) x H^(32-2cc), H^(31-2cc) - Karatsuba: MI
 * gathers (a_lo + a_hi)(h_lo + h_hi), LO and HI added to it at the
 * reduction (3 VPCLMULQDQ, not 4); h_lo + h_hi from the key's table
 * (hky).  A group of 32 blocks is cc = 0 .. 15, one of 16 cc = 8 .. 15.
 * Clobbers ymm14, 15. */
#define HP(cc) [rdi + CB_GCM_HEND - 512 + 32*(cc)]
.macro GHC p, c, cc, init
	vmovdqu	ymm14, [\p + 32*\c]
	vpshufb	ymm14, ymm14, [rip + .Lvgcm_bswap]
	.if \init
	vpxor	ymm14, ymm14, ymm10
	vpclmulqdq ymm11, ymm14, HP(\cc), 0x00
	vpclmulqdq ymm13, ymm14, HP(\cc), 0x11
	.else
	vpclmulqdq ymm15, ymm14, HP(\cc), 0x00
	vpxor	ymm11, ymm11, ymm15
	vpclmulqdq ymm15, ymm14, HP(\cc), 0x11
	vpxor	ymm13, ymm13, ymm15
	.endif
	vpshufd	ymm15, ymm14, 0x4e
	vpxor	ymm14, ymm14, ymm15
	.if \init
	vpclmulqdq ymm12, ymm14, [rdi + CB_GCM_HKY + 32*(\cc)], 0x00
	.else
	vpclmulqdq ymm15, ymm14, [rdi + CB_GCM_HKY + 32*(\cc)], 0x00
	vpxor	ymm12, ymm12, ymm15
	.endif
.endm

/* y = LO + MI x^64 + HI x^128 reduced lane by lane (aes_vaes512.S:
 * GH_RED1, GH_RED2), the two lanes summed; kara: MI is Karatsuba's,
 * LO and HI added to it first */
.macro GHRED kara=1
	.if \kara
	vpxor	ymm12, ymm12, ymm11
	vpxor	ymm12, ymm12, ymm13
	.endif
	vpclmulqdq ymm15, ymm11, [rip + .Lvgcm_poly], 0x10
	vpshufd	ymm11, ymm11, 0x4e
	vpxor	ymm12, ymm12, ymm11
	vpxor	ymm12, ymm12, ymm15
	vpclmulqdq ymm15, ymm12, [rip + .Lvgcm_poly], 0x10
	vpshufd	ymm12, ymm12, 0x4e
	vpxor	ymm13, ymm13, ymm12
	vpxor	ymm13, ymm13, ymm15
	vextracti128 xmm15, ymm13, 1
	vpxor	xmm10, xmm13, xmm15
.endm

/* ymm0-7 = the next 16 counter blocks ^ rk0 */
.macro CTR16 m=8
	vbroadcasti128 ymm8, [rdi]
	.if	\m == 8
	cmp	r11b, 240
	ja	78f
	vpshufb	ymm15, ymm9, [rip + .Lvgcm_bswap]
	vpaddd	ymm9, ymm9, [rip + .Lvgcm_sixteen]
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	.if	\i
	vpaddd	ymm\i, ymm15, [rip + .Lvgcm_be + 32*\i]
	vpxor	ymm\i, ymm\i, ymm8
	.else
	vpxor	ymm\i, ymm15, ymm8
	.endif
	.endr
	jmp	79f
78:
	.endif
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	.if	\i < \m
	vpshufb	ymm\i, ymm9, [rip + .Lvgcm_bswap]
	vpaddd	ymm9, ymm9, [rip + .Lvgcm_two]
	vpxor	ymm\i, ymm\i, ymm8
	.endif
	.endr
79:	add	r11b, 2*\m
.endm

/* round nr - j on ymm0-7 (key at r9 - 16j); with a GHASH pointer \p,
 * rounds nr-8 .. nr-1 also take one of its 8 chunks */
.macro VR j, z, p, m=8
	vbroadcasti128 ymm8, [r9 - 16*\j]
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	.if	\i < \m
	vaesenc	ymm\i, ymm\i, ymm8
	.endif
	.endr
.endm

/* round nr - j of a whole step (nr = 10, 12, 14, known); with a GHASH
 * pointer \p, the pieces of its GHASH spread evenly over the nr - 1
 * rounds (piece k of n at round 1 + k(nr-1)/n): h = 0, the first step
 * of a 32-block group: its 8 chunks with H^32 .. H^17; h = 1, the second:
 * its 8 chunks with H^16 .. H^1 and the reduction; h = 2, a step alone:
 * the same with y added to its first chunk */
.macro VRN j, p, nr, h
	VR	\j, 0, none
	.ifnc	\p, none
	.irp	k, 0, 1, 2, 3, 4, 5, 6, 7, 8
	.if	\h == 0
	.if	\k < 8 && ((\nr - 1) - (\k * (\nr - 1)) / 8) == \j
	GHC	\p, \k, \k, (\k == 0)
	.endif
	.elseif	((\nr - 1) - (\k * (\nr - 1)) / 9) == \j
	.if	\k == 8
	GHRED
	.else
	GHC	\p, \k, (8 + \k), (\h == 2 && \k == 0)
	.endif
	.endif
	.endr
	.endif
.endm

/* ymm0-(m-1) = AES of the next 2m counters, GHASH of the 256 bytes at [\p]
 * (none: no GHASH) into y under the rounds.  Clobbers eax, r9. */
.macro VSTEP p, m=8
	CTR16	\m
	KEND	0
	ROUNDS_NR VR, \p, \m
	VLASTR	\m
.endm
.macro VLASTR m=8
	vbroadcasti128 ymm8, [r9]
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	.if	\i < \m
	vaesenclast ymm\i, ymm\i, ymm8
	.endif
	.endr
.endm

/* a whole step of 16 blocks with nr rounds and the GHASH of [\p]
 * (none: no GHASH) under them, as part h of its group (VRN) */
.macro VSTEPN p, nr, h=2
	CTR16	8
	KEND	0
	.irp	j, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1
	.if	\j < \nr
	VRN	\j, \p, \nr, \h
	.endif
	.endr
	VLASTR	8
.endm

/* out = in ^ ymm0-7, 256 bytes; advance in, out, len */
.macro VXOR_STORE
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vpxor	ymm\i, ymm\i, [rcx + 32*\i]
	vmovdqu	[r8 + 32*\i], ymm\i
	.endr
	add	rcx, 256
	add	r8, 256
	sub	rdx, 256
.endm

/* (xmm15 + y) x [r10] (a reflected block and a power of H) into LO, MI,
 * HI (xmm11-13, schoolbook); y (xmm10) zeroed after the first block;
 * r10 += 16.  Clobbers xmm8, 14. */
.macro GACC
	vpxor	xmm15, xmm15, xmm10
	vpxor	xmm10, xmm10, xmm10
	vmovdqu	xmm8, [r10]
	vpclmulqdq xmm14, xmm15, xmm8, 0x00
	vpxor	xmm11, xmm11, xmm14
	vpclmulqdq xmm14, xmm15, xmm8, 0x11
	vpxor	xmm13, xmm13, xmm14
	vpclmulqdq xmm14, xmm15, xmm8, 0x01
	vpxor	xmm12, xmm12, xmm14
	vpclmulqdq xmm14, xmm15, xmm8, 0x10
	vpxor	xmm12, xmm12, xmm14
	add	r10, 16
.endm

/* [\dst] = the \n (a register, 0-15) bytes at [\src], in pieces of 8, 4,
 * 2 and 1 (branches on the public length only).  Clobbers rbx, r12. */
.macro COPYP dst, src, n
	xor	r12d, r12d
	test	\n, 8
	jz	91f
	mov	rbx, [\src]
	mov	[\dst], rbx
	mov	r12d, 8
91:	test	\n, 4
	jz	92f
	mov	ebx, [\src + r12]
	mov	[\dst + r12], ebx
	add	r12d, 4
92:	test	\n, 2
	jz	93f
	movzx	ebx, word ptr [\src + r12]
	mov	[\dst + r12], bx
	add	r12d, 2
93:	test	\n, 1
	jz	94f
	movzx	ebx, byte ptr [\src + r12]
	mov	[\dst + r12], bl
94:
.endm

/* [\dst] = the \n (a register, any) bytes at [\src]: whole blocks, then
 * the rest through COPYP.  Clobbers rax, r9, rbx, r12, r13, xmm14. */
.macro COPYN dst, src, n
	xor	eax, eax
	jmp	96f
95:	vmovdqu	xmm14, [\src + rax]
	vmovdqu	[\dst + rax], xmm14
	add	rax, 16
96:	lea	r9, [rax + 16]
	cmp	r9, \n
	jbe	95b
	mov	r13, \n
	sub	r13, rax
	lea	r9, [\dst + rax]
	lea	rax, [\src + rax]
	COPYP	r9, rax, r13
.endm

/* GACC over the r9 bytes at [rax] (the last block zero-padded through
 * the 16 bytes at [\stg], wiped later by the caller).  Clobbers rax, r9,
 * rbx, r12, xmm8, 14, 15. */
.macro GHB stg
	jmp	72f
71:	vmovdqu	xmm15, [rax]
	vpshufb	xmm15, xmm15, [rip + .Lvgcm_bswap]
	GACC
	add	rax, 16
	sub	r9, 16
72:	cmp	r9, 16
	jae	71b
	test	r9, r9
	jz	73f
	vpxor	xmm15, xmm15, xmm15
	vmovdqu	[\stg], xmm15
	COPYP	\stg, rax, r9
	vmovdqu	xmm15, [\stg]
	vpshufb	xmm15, xmm15, [rip + .Lvgcm_bswap]
	GACC
73:
.endm

/* r10 = &H^n for the n (a register, clobbered) blocks of a group; LO,
 * MI, HI zeroed */
.macro GSET n
	shl	\n, 4
	neg	\n
	lea	r10, [rdi + CB_GCM_HEND + \n]
	vpxor	xmm11, xmm11, xmm11
	vpxor	xmm12, xmm12, xmm12
	vpxor	xmm13, xmm13, xmm13
.endm

/* the rdx (0-255) bytes left: the key stream of their blocks to K = rsp,
 * the text through B = rsp + 256 (zero-padded), GACC of the ciphertext
 * blocks (r10 at their powers) */
.macro VTAIL enc
	test	rdx, rdx
	jz	59f
	cmp	rdx, 32
	ja	51f
	VSTEP	none, 1
	jmp	53f
51:	cmp	rdx, 128
	ja	52f
	VSTEP	none, 4
	jmp	53f
52:	VSTEP	none
53:	vpxor	xmm15, xmm15, xmm15
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu	[rsp + 32*\i], ymm\i
	vmovdqu	[rsp + 256 + 32*\i], ymm15
	.endr
	COPYN	rsp+256, rcx, rdx
	.if !\enc
	lea	rax, [rsp + 256]
	lea	r9, [rdx + 15]
	and	r9, -16
	GHB	rsp+256
	.endif
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu	ymm0, [rsp + 256 + 32*\i]
	vpxor	ymm0, ymm0, [rsp + 32*\i]
	vmovdqu	[rsp + 256 + 32*\i], ymm0
	.endr
	COPYN	r8, rsp+256, rdx
	.if \enc
	mov	rax, rdx
	and	eax, 15
	jz	54f
	lea	r9, [rip + .Lvgcm_mask + 16]
	sub	r9, rax
	vmovdqu	xmm0, [r9]
	mov	rax, rdx
	and	rax, -16
	vpand	xmm0, xmm0, [rsp + 256 + rax]
	vmovdqu	[rsp + 256 + rax], xmm0
54:	lea	rax, [rsp + 256]
	lea	r9, [rdx + 15]
	and	r9, -16
	GHB	rsp+256
	.endif
59:
.endm

/* a round of J0 on xmm0 (ROUNDS_NR) */
.macro XR1 j, k
	vaesenc	xmm0, xmm0, [r9 - 16*\j]
.endm

/* the text's 256-byte steps: AES of step n and GHASH of step n - 1's
 * ciphertext (enc) or of step n's input (dec) under its rounds, two
 * steps a group (one reduction), an odd last step alone; the hash state
 * y in xmm10 */
.macro VLOOP enc, nr
	.if \enc
	VSTEPN	none, \nr
	VXOR_STORE
1:	cmp	rdx, 512
	jb	2f
	lea	r10, [r8 - 256]
	VSTEPN	r10, \nr, 0
	VXOR_STORE
	lea	r10, [r8 - 256]
	VSTEPN	r10, \nr, 1
	VXOR_STORE
	jmp	1b
2:	cmp	rdx, 256
	jb	4f
	lea	r10, [r8 - 256]
	VSTEPN	r10, \nr, 2
	VXOR_STORE
4:	lea	r10, [r8 - 256]
	.irp	c, 0, 1, 2, 3, 4, 5, 6, 7
	GHC	r10, \c, (8 + \c), (\c == 0)
	.endr
	GHRED
	.else
1:	cmp	rdx, 512
	jb	2f
	VSTEPN	rcx, \nr, 0
	VXOR_STORE
	VSTEPN	rcx, \nr, 1
	VXOR_STORE
	jmp	1b
2:	cmp	rdx, 256
	jb	4f
	VSTEPN	rcx, \nr, 2
	VXOR_STORE
4:
	.endif
.endm

/* .Lvgcm_bulk_enc, _dec: the steps of a request with rdx >= 256 bytes of
 * text (rdi the key, rcx in, r8 out, ymm9 and r11b the counters, xmm10
 * y; all advanced), called by the four request routines; one copy of
 * the loop for each key size */
.macro VBULKFN name, enc
	.p2align 4
\name:
	.cfi_startproc
	cmp	dword ptr [rdi + CB_AESKEY_ROUNDS], 12
	jb	.Lvb10\@
	je	.Lvb12\@
	VLOOP	\enc, 14
	jmp	.Lvbend\@
.Lvb12\@:
	VLOOP	\enc, 12
	jmp	.Lvbend\@
.Lvb10\@:
	VLOOP	\enc, 10
.Lvbend\@:
	ret
	.cfi_endproc
.endm
	VBULKFN	.Lvgcm_bulk_enc, 1
	VBULKFN	.Lvgcm_bulk_dec, 0

/* small: the AAD into xmm10 (y) as a group of its own when the text has
 * whole steps (else it joins the last group); y from r->y otherwise */
.macro VAAD small
	.if \small
	vpxor	xmm10, xmm10, xmm10
	cmp	rdx, 256
	jb	3f
	mov	r9, [rsi + CB_GCMREQ_ADLEN]
	lea	rax, [r9 + 15]
	shr	rax, 4
	jz	3f
	GSET	rax
	mov	rax, [rsi + CB_GCMREQ_AD]
	GHB	rsp+256
	GHRED	0
3:
	.else
	vmovdqu	xmm10, [rsi + CB_GCMREQ_Y]
	.endif
.endm

/* the last group: the AAD (small, text under 256 bytes), the last 0-255
 * bytes of text, the lengths block; one reduction into xmm10 */
.macro VLAST enc, small
	lea	rax, [rdx + 15]
	shr	rax, 4
	inc	rax
	.if \small
	cmp	qword ptr [rsi + CB_GCMREQ_LEN], 256
	jae	55f
	mov	r9, [rsi + CB_GCMREQ_ADLEN]
	add	r9, 15
	shr	r9, 4
	add	rax, r9
55:
	.endif
	GSET	rax
	.if \small
	cmp	qword ptr [rsi + CB_GCMREQ_LEN], 256
	jae	56f
	mov	rax, [rsi + CB_GCMREQ_AD]
	mov	r9, [rsi + CB_GCMREQ_ADLEN]
	GHB	rsp+256
56:
	.endif
	VTAIL	\enc
	mov	rax, [rsi + CB_GCMREQ_LEN]
	shl	rax, 3
	vmovq	xmm15, rax
	mov	rax, [rsi + CB_GCMREQ_ADLEN]
	shl	rax, 3
	vmovq	xmm14, rax
	vpunpcklqdq xmm15, xmm15, xmm14
	GACC
	GHRED	0
.endm

/*
 * void cb_vaes256_gcm_enc(const struct cb_gcm_key *k, struct cb_gcm_req
 * *r) (and _dec, _enc_small, _dec_small): rdi, rsi; rcx = in, r8 = out,
 * rdx = the bytes left; [rsp]: K and B of the tail (VTAIL), wiped.
 */
.macro VGCMR name, enc, small
	FUNC	\name
	PUSH_CFI rbx
	PUSH_CFI r12
	PUSH_CFI r13
	sub	rsp, 512
	.cfi_adjust_cfa_offset 512
	KEND	0
	vmovdqu	xmm0, [rsi + CB_GCMREQ_J0]
	vpxor	xmm0, xmm0, [rdi]
	ROUNDS_NR XR1
	vaesenclast xmm0, xmm0, [r9]
	vmovdqu	[rsi + CB_GCMREQ_S], xmm0
	vbroadcasti128 ymm9, [rsi + CB_GCMREQ_J0]
	vpshufb	ymm9, ymm9, [rip + .Lvgcm_bswap]
	vpaddd	ymm9, ymm9, [rip + .Lvgcm_one_two]
	movzx	r11d, byte ptr [rsi + CB_GCMREQ_J0 + 15]
	inc	r11d
	mov	rcx, [rsi + CB_GCMREQ_IN]
	mov	r8, [rsi + CB_GCMREQ_OUT]
	mov	rdx, [rsi + CB_GCMREQ_LEN]
	VAAD	\small
	cmp	rdx, 256
	jb	5f
	.if \enc
	call	.Lvgcm_bulk_enc
	.else
	call	.Lvgcm_bulk_dec
	.endif
5:
	VLAST	\enc, \small
	vpshufb	xmm10, xmm10, [rip + .Lvgcm_bswap]
	vpxor	xmm10, xmm10, [rsi + CB_GCMREQ_S]
	vmovdqu	[rsi + CB_GCMREQ_S], xmm10
	vpxor	xmm0, xmm0, xmm0
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vmovdqu	[rsp + 32*\i], ymm0
	.endr
	add	rsp, 512
	.cfi_adjust_cfa_offset -512
	POP_CFI	r13
	POP_CFI	r12
	POP_CFI	rbx
	vzeroupper
	ret
	ENDFUNC	\name
.endm

	VGCMR	cb_vaes256_gcm_enc, 1, 0
	VGCMR	cb_vaes256_gcm_dec, 0, 0
	VGCMR	cb_vaes256_gcm_enc_small, 1, 1
	VGCMR	cb_vaes256_gcm_dec_small, 0, 1

/* void cb_vaes256_ghash(const struct cb_gcm_key *k, uint8_t y[16],
 *         const uint8_t *in, size_t len): rdi, rsi, rdx, rcx; any len
 * (the last block zero-padded): 256-byte steps on ymm (GHC), the rest
 * on xmm, one reduction each */
	FUNC	cb_vaes256_ghash
	test	rcx, rcx
	jz	9f
	PUSH_CFI rbx
	PUSH_CFI r12
	sub	rsp, 16
	.cfi_adjust_cfa_offset 16
	vmovdqu	xmm10, [rsi]
	cmp	rcx, 256
	jb	5f
1:	.irp	c, 0, 1, 2, 3, 4, 5, 6, 7
	GHC	rdx, \c, (8 + \c), (\c == 0)
	.endr
	GHRED
	add	rdx, 256
	sub	rcx, 256
	cmp	rcx, 256
	jae	1b
5:	test	rcx, rcx
	jz	8f
	lea	rax, [rcx + 15]
	shr	rax, 4
	GSET	rax
	mov	rax, rdx
	mov	r9, rcx
	GHB	rsp
	GHRED	0
	vpxor	xmm0, xmm0, xmm0
	vmovdqu	[rsp], xmm0
8:	vmovdqu	[rsi], xmm10
	add	rsp, 16
	.cfi_adjust_cfa_offset -16
	POP_CFI	r12
	POP_CFI	rbx
	vzeroupper
9:	ret
	ENDFUNC	cb_vaes256_ghash

/*
 * void cb_vaes256_gcm_probe128(uint64_t n) (and 256): n x the AES and
 * VPCLMULQDQ of 512 bytes (two steps) of cb_vaes256_gcm_enc with a
 * 128-bit (256-bit) key - 8 chains of 2 x 10 (14) VAESENC on ymm, and
 * 52 independent VPCLMULQDQ on ymm (2 x (8 x 3 + 2)) spread over the
 * rounds: the bound of the two where they share execution ports.
 */
.macro VGCM_PROBE name, nr
	FUNC	\name
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
	vpxor	xmm\i, xmm\i, xmm\i
	.endr
1:	.set	.Lvcl_done, 0
	.irp	r, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28
	.if	\r <= 2 * \nr
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vaesenc	ymm\i, ymm\i, ymm8
	.endr
	.rept	(52 * \r) / (2 * \nr) - .Lvcl_done
	vpclmulqdq ymm10, ymm9, ymm9, 0x00
	.endr
	.set	.Lvcl_done, (52 * \r) / (2 * \nr)
	.endif
	.endr
	dec	rdi
	jnz	1b
	vzeroupper
	ret
	ENDFUNC	\name
.endm
	VGCM_PROBE cb_vaes256_gcm_probe128, 10
	VGCM_PROBE cb_vaes256_gcm_probe256, 14

	.section .rodata
	.p2align 5
.Lvgcm_bswap:
	.byte	15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
	.byte	15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Lvgcm_poly:
	.quad	1, 0xc200000000000000, 1, 0xc200000000000000
.Lvgcm_one_hi:
	.long	0, 0, 0, 0, 1, 0, 0, 0
.Lvgcm_one_two:
	.long	1, 0, 0, 0, 2, 0, 0, 0
.Lvgcm_mask:				/* 16 x 0xff, 16 x 0 */
	.rept	16
	.byte	0xff
	.endr
	.rept	16
	.byte	0
	.endr
.Lvgcm_two:
	.long	2, 0, 0, 0, 2, 0, 0, 0
.Lvgcm_sixteen:
	.long	16, 0, 0, 0, 16, 0, 0, 0
.Lvgcm_be:				/* 2i, 2i + 1 on a block's last byte */
	.irp	i, 0, 2, 4, 6, 8, 10, 12, 14
	.long	0, 0, 0, \i << 24, 0, 0, 0, (\i << 24)
	.endr

#endif /* __x86_64__ */
