/*
 * gcm_vaes256.S - AES-GCM on VAES + VPCLMULQDQ with 256-bit registers and
 * no AVX-512 (Zen 3, Ice Lake/Alder Lake-class client cores): the
 * vaes256 path's cb_vaes256_gcm_enc/_dec (contract: native_asm.h, the
 * same as cb_aesni_gcm_enc's) and its combined-bound probes.
 *
 * A step is 16 blocks (256 bytes) in ymm0-7, two blocks a register: 8
 * independent VAESENC chains, enough to cover VAESENC's latency (4 cycles
 * at 2 a cycle on Zen 3, 3-4 at 2 on Intel).  Under a step's rounds runs
 * the GHASH of 16 blocks - the previous step's ciphertext (encryption) or
 * this step's input (decryption), read back from L1 as no register is
 * left to keep them - as 8 x 4 VPCLMULQDQ on ymm with H^16 .. H^1 (the
 * aggregated form: y' = (y + X1) H^16 + X2 H^15 + ... + X16 H) and one
 * reduction (2 more).  Without AVX-512 there is no three-way XOR: each
 * sum is two VPXOR.  A last group of 1-15 blocks runs the AES of 2, 8
 * or 16 counters (1, 4 or 8 registers) into a stack buffer (wiped) and
 * its GHASH block by block on xmm, again with one reduction.
 *
 * Registers: ymm0-7 the AES blocks, ymm8 a round key (both lanes),
 * ymm9 the next two counters in little-endian form (the block reversed:
 * inc32 is a vpaddd), ymm10 the byte-reversal mask, ymm11/12/13 LO/MI/HI,
 * ymm14/15 scratch; the hash state stays in y[16] between steps.
 */
#include "native_asm.h"
#include "macros.inc"

#if defined(__x86_64__)

/* LO, MI, HI (+)= blocks 2c, 2c+1 at [\p + 32c] reflected (y added when
 * c = 0, which sets LO, MI, HI) x H^(16-2c), H^(15-2c) - Karatsuba: MI
 * gathers (a_lo + a_hi)(h_lo + h_hi), LO and HI added to it at the
 * reduction (3 VPCLMULQDQ, not 4); h_lo + h_hi from the table at rsp
 * (KTAB).  Clobbers ymm14, 15. */
#define HP(c) [rdi + CB_GCM_HEND - 256 + 32*(c)]
.macro GHC p, c
	vmovdqu	ymm14, [\p + 32*\c]
	vpshufb	ymm14, ymm14, [rip + .Lvgcm_bswap]
	.if \c == 0
	vpxor	ymm14, ymm14, ymm10
	vpclmulqdq ymm11, ymm14, HP(\c), 0x00
	vpclmulqdq ymm13, ymm14, HP(\c), 0x11
	.else
	vpclmulqdq ymm15, ymm14, HP(\c), 0x00
	vpxor	ymm11, ymm11, ymm15
	vpclmulqdq ymm15, ymm14, HP(\c), 0x11
	vpxor	ymm13, ymm13, ymm15
	.endif
	vpshufd	ymm15, ymm14, 0x4e
	vpxor	ymm14, ymm14, ymm15
	.if \c == 0
	vpclmulqdq ymm12, ymm14, [rsp + 32*\c], 0x00
	.else
	vpclmulqdq ymm15, ymm14, [rsp + 32*\c], 0x00
	vpxor	ymm12, ymm12, ymm15
	.endif
.endm

/* [rsp] = h_lo + h_hi in both qwords of H^16 .. H^1 (256 bytes, the
 * powers' Karatsuba halves, made once a call); KWIPE wipes it */
.macro KTAB
	sub	rsp, 256
	.cfi_adjust_cfa_offset 256
	.irp	c, 0, 1, 2, 3, 4, 5, 6, 7
	vpshufd	ymm15, HP(\c), 0x4e
	vpxor	ymm15, ymm15, HP(\c)
	vmovdqu	[rsp + 32*\c], ymm15
	.endr
.endm
.macro KWIPE
	vpxor	xmm15, xmm15, xmm15
	.irp	c, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu	[rsp + 32*\c], ymm15
	.endr
	add	rsp, 256
	.cfi_adjust_cfa_offset -256
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
	.ifnc	\p, none
	.if	\j <= 8
	GHC	\p, (8 - \j)
	.endif
	.endif
.endm

/* ymm0-(m-1) = AES of the next 2m counters, GHASH of the 256 bytes at [\p]
 * (none: no GHASH) into y under the rounds.  Clobbers eax, r9. */
.macro VSTEP p, m=8
	CTR16	\m
	KEND	0
	ROUNDS_NR VR, \p, \m
	.ifnc	\p, none
	GHRED
	.endif
	vbroadcasti128 ymm8, [r9]
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	.if	\i < \m
	vaesenclast ymm\i, ymm\i, ymm8
	.endif
	.endr
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

/* y = GHASH of the rdx / 16 (1-15) blocks at [\p] continued from y: block
 * i times H^(n-i), one reduction.  Clobbers rax, r9, r10, ymm8, 11-15. */
.macro VGHN p
	mov	r9, rdx
	shr	r9, 4
	mov	r10, rdx
	neg	r10
	lea	r10, [rdi + CB_GCM_HEND + r10]
	mov	rax, \p
	vmovdqa	xmm14, xmm10
	vpxor	xmm11, xmm11, xmm11
	vpxor	xmm12, xmm12, xmm12
	vpxor	xmm13, xmm13, xmm13
71:	vmovdqu	xmm15, [rax]
	vpshufb	xmm15, xmm15, [rip + .Lvgcm_bswap]
	vpxor	xmm14, xmm14, xmm15
	vmovdqu	xmm8, [r10]
	vpclmulqdq xmm15, xmm14, xmm8, 0x00
	vpxor	xmm11, xmm11, xmm15
	vpclmulqdq xmm15, xmm14, xmm8, 0x11
	vpxor	xmm13, xmm13, xmm15
	vpclmulqdq xmm15, xmm14, xmm8, 0x01
	vpxor	xmm12, xmm12, xmm15
	vpclmulqdq xmm15, xmm14, xmm8, 0x10
	vpxor	xmm12, xmm12, xmm15
	vpxor	xmm14, xmm14, xmm14
	add	rax, 16
	add	r10, 16
	dec	r9
	jnz	71b
	GHRED	0
.endm

/* void cb_vaes256_gcm_enc(const struct cb_gcm_key *k, uint8_t y[16],
 *         const uint8_t ctr[16], const uint8_t *in, uint8_t *out,
 *         size_t len)   (and _dec): rdi, rsi, rdx, rcx, r8, r9; the
 * length moves to rdx once the counter is read */
.macro VGCM name, enc
	FUNC	\name
	test	r9, r9
	jz	9f
	vbroadcasti128 ymm9, [rdx]
	vpshufb	ymm9, ymm9, [rip + .Lvgcm_bswap]
	vmovdqu	xmm10, [rsi]
	movzx	r11d, byte ptr [rdx + 15]
	vpaddd	ymm9, ymm9, [rip + .Lvgcm_one_hi]
	mov	rdx, r9
	cmp	rdx, 256
	jb	5f
	KTAB
	.if \enc
	VSTEP	none
	VXOR_STORE
1:	cmp	rdx, 256
	jb	4f
	lea	r10, [r8 - 256]
	VSTEP	r10
	VXOR_STORE
	jmp	1b
4:	lea	r10, [r8 - 256]
	.irp	c, 0, 1, 2, 3, 4, 5, 6, 7
	GHC	r10, \c
	.endr
	GHRED
	.else
1:	VSTEP	rcx
	VXOR_STORE
	cmp	rdx, 256
	jae	1b
	.endif
	KWIPE
	/* the last 1-15 blocks: the key stream through the stack */
5:	test	rdx, rdx
	jz	8f
	.if !\enc
	VGHN	rcx
	.endif
	cmp	rdx, 32
	ja	51f
	VSTEP	none, 1
	jmp	53f
51:	cmp	rdx, 128
	ja	52f
	VSTEP	none, 4
	jmp	53f
52:	VSTEP	none
53:	sub	rsp, 256
	.cfi_adjust_cfa_offset 256
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu	[rsp + 32*\i], ymm\i
	.endr
	xor	eax, eax
6:	vmovdqu	xmm0, [rsp + rax]
	vpxor	xmm0, xmm0, [rcx + rax]
	vmovdqu	[r8 + rax], xmm0
	add	rax, 16
	cmp	rax, rdx
	jb	6b
	vpxor	xmm0, xmm0, xmm0
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu	[rsp + 32*\i], ymm0
	.endr
	add	rsp, 256
	.cfi_adjust_cfa_offset -256
	.if \enc
	VGHN	r8
	.endif
8:	vmovdqu	[rsi], xmm10
	vzeroupper
9:	ret
	ENDFUNC	\name
.endm

	VGCM	cb_vaes256_gcm_enc, 1
	VGCM	cb_vaes256_gcm_dec, 0

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
.Lvgcm_two:
	.long	2, 0, 0, 0, 2, 0, 0, 0
.Lvgcm_sixteen:
	.long	16, 0, 0, 0, 16, 0, 0, 0
.Lvgcm_be:				/* 2i, 2i + 1 on a block's last byte */
	.irp	i, 0, 2, 4, 6, 8, 10, 12, 14
	.long	0, 0, 0, \i << 24, 0, 0, 0, (\i << 24)
	.endr

#endif /* __x86_64__ */
