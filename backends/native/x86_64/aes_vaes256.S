/*
 * aes_vaes256.S - the native backend's VAES routines on 256-bit vectors
 * (two AES blocks per ymm), VEX-encoded so that they run on VAES CPUs
 * without AVX-512 (ymm0-15 only): CBC and fused ESSIV-CBC decryption and
 * ECB with 16 blocks in flight, and CBC encryption of 16 interleaved
 * sector chains.  Contracts: native_asm.h.
 *
 * Round keys are broadcast from the compact schedule (vbroadcasti128, one
 * load per eight AES instructions), indexed from the end of the schedule
 * so one unrolled sequence serves 10, 12 and 14 rounds.
 */
#include "native_asm.h"
#include "macros.inc"

#if defined(__x86_64__)	/* elsewhere: empty (native_arm64.h, or the stub) */

/* one round on \w0..\w(n-1) with the key at r9 - 16*j (r9 = &keys[nr]) */
.macro YR j, r, n, op, w
	vbroadcasti128 ymm8, [r9 - 16*\j]
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	.if	\i < \n
	\op	\w\i, \w\i, \w\()8
	.endif
	.endr
.endm

/* rounds 1 .. nr-1; eax = nr, r9 = kend */
.macro YROUNDS n, op, w=ymm
	ROUNDS_NR YR, \n, \op, \w
.endm

/* eax = nr, r9 = &keys[nr] of the schedule at \koff; ymm15 = its first
 * key, ymm14 its last, both broadcast */
.macro YKEYS_END koff
	KEND	\koff
	vbroadcasti128 ymm15, [rdi + \koff]
	vbroadcasti128 ymm14, [r9]
.endm

/* ECB: rdi = key, rsi = in, rdx = out, rcx = len */
.macro YECB name, koff, op, oplast
	FUNC	\name
	test	rcx, rcx
	jz	8f
	YKEYS_END \koff
	sub	rcx, 256
	jb	3f
	.p2align 4
1:	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vpxor	ymm\i, ymm15, [rsi + 32*\i]
	.endr
	YROUNDS	8, \op
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	\oplast	ymm\i, ymm\i, ymm14
	vmovdqu	[rdx + 32*\i], ymm\i
	.endr
	add	rsi, 256
	add	rdx, 256
	sub	rcx, 256
	jae	1b
3:	add	rcx, 256
	sub	rcx, 32
	jb	6f
4:	vpxor	ymm0, ymm15, [rsi]
	YROUNDS	1, \op
	\oplast	ymm0, ymm0, ymm14
	vmovdqu	[rdx], ymm0
	add	rsi, 32
	add	rdx, 32
	sub	rcx, 32
	jae	4b
6:	add	rcx, 32
	jz	7f
	vpxor	xmm0, xmm15, [rsi]
	YROUNDS	1, \op, xmm
	\oplast	xmm0, xmm0, xmm14
	vmovdqu	[rdx], xmm0
7:	vzeroupper
8:	ret
	ENDFUNC	\name
.endm

	YECB	cb_vaes256_ecb_enc, CB_AESKEY_ENC, vaesenc, vaesenclast
	YECB	cb_vaes256_ecb_dec, CB_AESKEY_DEC, vaesdec, vaesdeclast

/* ---- CBC decryption ----------------------------------------------------- */

/* void cb_vaes256_cbc_dec(const struct cb_aes_key *k, const uint8_t iv[16],
 *         uint8_t chain[16], const uint8_t *in, uint8_t *out, size_t len) */
	FUNC	cb_vaes256_cbc_dec
	cmp	rsi, rdx
	je	7f
	LOAD_IV	xmm13, rsi, v
6:	mov	rsi, rdx
	mov	rdx, rcx
	mov	rcx, r8
	mov	r8, r9
	test	r8, r8
	jnz	.Lydec_body
	vmovdqu	[rsi], xmm13
	vzeroupper
	ret
7:	vmovdqu	xmm13, [rsi]
	jmp	6b
	ENDFUNC	cb_vaes256_cbc_dec

/* void cb_vaes256_essiv_cbc_dec(struct cb_native_ctx *c,
 *         const uint8_t iv[16], const uint8_t *in, uint8_t *out, size_t len) */
	FUNC	cb_vaes256_essiv_cbc_dec
	LOAD_IV	xmm13, rsi, v
	lea	rsi, [rdi + CB_CTX_IV]
	vpxor	xmm13, xmm13, [rdi + CB_CTX_SALT]
	.set	cbi, 1
	.rept	13
	vaesenc	xmm13, xmm13, [rdi + CB_CTX_SALT + 16*cbi]
	.set	cbi, cbi + 1
	.endr
	vaesenclast xmm13, xmm13, [rdi + CB_CTX_SALT + 16*14]
	test	r8, r8
	jnz	.Lydec_body
	vmovdqu	[rsi], xmm13
	vzeroupper
	ret
/* rdi = key, rsi = chain, rdx = in, rcx = out, r8 = len > 0,
 * xmm13 = the previous ciphertext block; ymm13's high half carries it */
.Lydec_body:
	vinserti128 ymm13, ymm13, xmm13, 1
	vmovdqu	xmm12, [rdx + r8 - 16]		/* next chain, before any */
	vmovdqu	[rsi], xmm12			/* store (in place)       */
	YKEYS_END CB_AESKEY_DEC
	sub	r8, 256
	jb	3f
	.p2align 4
1:	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu	ymm\i, [rdx + 32*\i]
	.endr
	vperm2i128 ymm12, ymm13, ymm0, 0x21	/* (prev, C0)            */
	vmovdqa	ymm13, ymm7
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vpxor	ymm\i, ymm\i, ymm15
	.endr
	YROUNDS	8, vaesdec
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vaesdeclast ymm\i, ymm\i, ymm14
	.endr
	vpxor	ymm0, ymm0, ymm12
	.irp	i, 1, 2, 3, 4, 5, 6, 7
	vpxor	ymm\i, ymm\i, [rdx + 32*\i - 16]
	.endr
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu	[rcx + 32*\i], ymm\i
	.endr
	add	rdx, 256
	add	rcx, 256
	sub	r8, 256
	jae	1b
3:	add	r8, 256
	sub	r8, 32
	jb	6f
4:	vmovdqu	ymm0, [rdx]
	vperm2i128 ymm12, ymm13, ymm0, 0x21
	vmovdqa	ymm13, ymm0
	vpxor	ymm0, ymm0, ymm15
	YROUNDS	1, vaesdec
	vaesdeclast ymm0, ymm0, ymm14
	vpxor	ymm0, ymm0, ymm12
	vmovdqu	[rcx], ymm0
	add	rdx, 32
	add	rcx, 32
	sub	r8, 32
	jae	4b
6:	add	r8, 32
	jz	7f
	vmovdqu	xmm0, [rdx]
	vextracti128 xmm12, ymm13, 1
	vpxor	xmm0, xmm0, xmm15
	YROUNDS	1, vaesdec, xmm
	vaesdeclast xmm0, xmm0, xmm14
	vpxor	xmm0, xmm0, xmm12
	vmovdqu	[rcx], xmm0
7:	vzeroupper
8:	ret
	ENDFUNC	cb_vaes256_essiv_cbc_dec

/* ---- 16 interleaved sector chains, two per ymm -------------------------- */

/*
 * Two versions.  _any reads and writes each lane 16 bytes at a time, for
 * any sector size.  The default one needs sector sizes that are multiples
 * of 64 and goes through a stack staging area: 16 lanes on a 4 KiB stride
 * all map to one L1 set (8 ways), and 16-byte accesses would miss on every
 * access; staging touches each lane's line once per 64 bytes in and once
 * out (measured on Zen 4: 2.1x faster on 4096-byte sectors, 25% slower
 * on 512-byte ones, so the glue stages only strides of 2048 and up).
 */

/*
 * rdi = key, rsi = lanes, rdx = out offset (out_delta + position),
 * r8 = in offset, rcx = bytes left, eax/r9 = rounds/kend, r10/r11 the
 * two lane pointers of a pair; ymm0..7 the chains (lanes 2j, 2j+1 in
 * ymm j), ymm15 = rk0, ymm14 = rk[nr].
 */
.macro YPAIR_LOAD j, off		/* ymm9 = both lanes' block ^ rk0 */
	mov	r10, [rsi + CB_LANES_IN + 16*\j]
	mov	r11, [rsi + CB_LANES_IN + 16*\j + 8]
	vmovdqu	xmm9, [r10 + r8 + \off]
	vinserti128 ymm9, ymm9, [r11 + r8 + \off], 1
	vpxor	ymm9, ymm9, ymm15
.endm
.macro YLANE_FIRST j
	vmovdqu	ymm\j, [rsi + CB_LANES_IV + 32*\j]
	YPAIR_LOAD \j, 0
	vpxor	ymm\j, ymm\j, ymm9
.endm
/* the last round with rk[nr] alone, then the chain ^= P' ^ rk0: one
 * XOR fewer than folding P' into the last round's key (the chain is one
 * XOR longer, but these 8 chains are not what limits: 12 ran no faster,
 * the vector ops beside the rounds do - 0.163 -> 0.153 TSC ticks a byte) */
.macro YLANE_NEXT j
	YPAIR_LOAD \j, 16
	vaesenclast ymm\j, ymm\j, ymm14		/* C                   */
	vmovdqu	[r10 + rdx], xmm\j
	vextracti128 [r11 + rdx], ymm\j, 1
	vpxor	ymm\j, ymm\j, ymm9			/* C ^ P' ^ rk0        */
.endm
.macro YLANE_LAST j
	mov	r10, [rsi + CB_LANES_IN + 16*\j]
	mov	r11, [rsi + CB_LANES_IN + 16*\j + 8]
	vaesenclast ymm\j, ymm\j, ymm14
	vmovdqu	[r10 + rdx], xmm\j
	vextracti128 [r11 + rdx], ymm\j, 1
.endm
.macro YLANES m
	.irp	j, 0, 1, 2, 3, 4, 5, 6, 7
	\m	\j
	.endr
.endm

/* void cb_vaes256_cbc_enc_lanes16_any(const struct cb_aes_key *k,
 *         const struct cb_lanes *l, ptrdiff_t out_delta, size_t len) */
	FUNC	cb_vaes256_cbc_enc_lanes16_any
	YKEYS_END CB_AESKEY_ENC
	xor	r8d, r8d
	YLANES	YLANE_FIRST
	sub	rcx, 16
	jz	2f
	.p2align 4
1:	YROUNDS	8, vaesenc
	YLANES	YLANE_NEXT
	add	r8, 16
	add	rdx, 16
	sub	rcx, 16
	jnz	1b
2:	YROUNDS	8, vaesenc
	YLANES	YLANE_LAST
	vzeroupper
	ret
	ENDFUNC	cb_vaes256_cbc_enc_lanes16_any

/* stage row of lane i at rsp + 64*i; block p of it at + 16*p */
.macro YSTAGE_IN i			/* 64 bytes of lane i into the stage */
	mov	r10, [rsi + CB_LANES_IN + 8*\i]
	vmovdqu	ymm12, [r10 + r8]
	vmovdqu	ymm13, [r10 + r8 + 32]
	vmovdqa	[rsp + 64*\i], ymm12
	vmovdqa	[rsp + 64*\i + 32], ymm13
.endm
.macro YSTAGE_OUT i
	mov	r10, [rsi + CB_LANES_IN + 8*\i]
	vmovdqa	ymm12, [rsp + 64*\i]
	vmovdqa	ymm13, [rsp + 64*\i + 32]
	vmovdqu	[r10 + rdx], ymm12
	vmovdqu	[r10 + rdx + 32], ymm13
.endm
.macro YSW j, p				/* ymm9 = block p of pair j ^ rk0 */
	vmovdqa	xmm9, [rsp + 128*\j + 16*\p]
	vinserti128 ymm9, ymm9, [rsp + 128*\j + 64 + 16*\p], 1
	vpxor	ymm9, ymm9, ymm15
.endm
.macro YSFIRST j
	YSW	\j, 0
	vpxor	ymm\j, ymm\j, ymm9
.endm
.macro YSFOLD j, p			/* last round of block p, folding p+1 */
	YSW	\j, (\p + 1)
	vpxor	ymm10, ymm9, ymm14
	vaesenclast ymm\j, ymm\j, ymm10
	vpxor	ymm11, ymm\j, ymm9
	vmovdqa	[rsp + 128*\j + 16*\p], xmm11
	vextracti128 [rsp + 128*\j + 64 + 16*\p], ymm11, 1
.endm
.macro YSLAST j
	vaesenclast ymm\j, ymm\j, ymm14
	vmovdqa	[rsp + 128*\j + 48], xmm\j
	vextracti128 [rsp + 128*\j + 64 + 48], ymm\j, 1
.endm
.macro YSSTEP p
	YROUNDS	8, vaesenc
	.irp	j, 0, 1, 2, 3, 4, 5, 6, 7
	.if	\p < 3
	YSFOLD	\j, \p
	.else
	YSLAST	\j
	.endif
	.endr
.endm

/* void cb_vaes256_cbc_enc_lanes16(const struct cb_aes_key *k,
 *         const struct cb_lanes *l, ptrdiff_t out_delta, size_t len)
 * len a multiple of 64. */
	FUNC	cb_vaes256_cbc_enc_lanes16
	PUSH_CFI rbp
	mov	rbp, rsp
	.cfi_def_cfa_register rbp
	sub	rsp, 1024
	and	rsp, -64
	YKEYS_END CB_AESKEY_ENC
	.irp	j, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu	ymm\j, [rsi + CB_LANES_IV + 32*\j]
	.endr
	xor	r8d, r8d
	.p2align 4
1:	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	YSTAGE_IN \i
	.endr
	.irp	j, 0, 1, 2, 3, 4, 5, 6, 7
	YSFIRST	\j
	.endr
	YSSTEP	0
	YSSTEP	1
	YSSTEP	2
	YSSTEP	3
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	YSTAGE_OUT \i
	.endr
	add	r8, 64
	add	rdx, 64
	sub	rcx, 64
	jnz	1b
	vpxor	xmm12, xmm12, xmm12		/* no plaintext left in    */
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vmovdqa	[rsp + 64*\i], ymm12		/* the stage (it is on the */
	vmovdqa	[rsp + 64*\i + 32], ymm12	/* stack after return)     */
	.endr
	vzeroupper
	leave
	.cfi_def_cfa rsp, 8
	.cfi_restore rbp
	ret
	ENDFUNC	cb_vaes256_cbc_enc_lanes16

/* ---- XTS ---------------------------------------------------------------- */

/*
 * \d = \t * x^\k in each 128-bit lane (GF(2^128), 1 <= k <= 56): shift
 * each qword left by k, move the bits out of the low qword into the high
 * one, reduce the bits out of the top by x^128 = x^7+x^2+x+1 with one
 * carry-less multiply by 0x87 (every qword of \w\()11).  w = x or y; temps
 * w9, w10.
 */
.macro YMULX t, k, d, w=y
	vpsrlq	\w\()mm9, \w\()mm\t, 64 - \k
	vpsllq	\w\()mm\d, \w\()mm\t, \k
	vpslldq	\w\()mm10, \w\()mm9, 8
	vpclmulqdq \w\()mm9, \w\()mm9, \w\()mm11, 0x01
	vpxor	\w\()mm\d, \w\()mm\d, \w\()mm10
	vpxor	\w\()mm\d, \w\()mm\d, \w\()mm9
.endm

/* \d = \s * x^(8m) in each 128-bit lane (m = 1 or 2 bytes): the lane
 * shifted left m bytes, its top m bytes reduced by x^128 = x^7+x^2+x+1
 * with one carry-less multiply by 0x87 (.Lxts_poly); temp ymm9 */
.macro YMULB s, d, m
	vpsrldq	ymm9, ymm\s, 16 - \m
	vpslldq	ymm\d, ymm\s, \m
	vpclmulqdq ymm9, ymm9, [rip + .Lxts_poly], 0x00
	vpxor	ymm\d, ymm\d, ymm9
.endm
/* ymm i = P ^ T ^ rk0 for T in ymm t, T staged for the last round */
.macro YXTS_IN i, t
	vmovdqa	[rsp + 32*\i], ymm\t
	vpxor	ymm\i, ymm\t, [rdx + 32*\i]
	vpxor	ymm\i, ymm\i, ymm15
.endm
/* the same for T = ymm t * x^8, computed into ymm i */
.macro YXTS_IN8 i, t
	YMULB	\t, \i, 1
	vmovdqa	[rsp + 32*\i], ymm\i
	vpxor	ymm\i, ymm\i, [rdx + 32*\i]
	vpxor	ymm\i, ymm\i, ymm15
.endm
.macro YXTS_OUT i, oplast		/* last round with rk[nr] ^ T */
	vpxor	ymm9, ymm14, [rsp + 32*\i]
	\oplast	ymm\i, ymm\i, ymm9
	vmovdqu	[rcx + 32*\i], ymm\i
.endm

/*
 * rdi = key, rsi = tweak (in: the first block's encrypted tweak; out: the
 * next block's), rdx = in, rcx = out, r8 = len (a multiple of 16).  16
 * blocks (8 ymm) in flight.  Their tweaks: four bases B0..B3 (ymm12, 13,
 * 10, 11: blocks 0-7) and the bases times x^8 (blocks 8-15), the bases
 * then stepped x^16 - every multiply by a whole number of bytes, a byte
 * shift of the lane and one carry-less multiply of the bytes shifted out
 * (YMULB: 4 instructions, against 6 for a bit count; the shifts compete
 * with the AES rounds for the same pipes).  Tweaks are staged on the
 * stack for the last round (wiped).
 */
/* One request or sector: the tweak at [rsi], r8 = len > 0 (a multiple
 * of 16), ymm11 = .Lxts_poly; rdx and rcx end past it.  store: write the
 * next block's tweak back to [rsi]. */
.macro YXTS_BODY op, oplast, store
	vmovdqu	xmm12, [rsi]
	YMULX	12, 1, 13, x
	vinserti128 ymm12, ymm12, xmm13, 1	/* B0 = T, Tx          */
	YMULX	12, 2, 13			/* B1 = Tx^2, Tx^3     */
	sub	r8, 256
	jb	3f
	YMULX	12, 4, 0
	YMULX	12, 6, 1			/* both one multiply   */
	vmovdqa	ymm10, ymm0			/* B2 = Tx^4, Tx^5     */
	vmovdqa	ymm11, ymm1			/* B3 = Tx^6, Tx^7     */
	.p2align 4
1:	YXTS_IN	0, 12
	YXTS_IN	1, 13
	YXTS_IN	2, 10
	YXTS_IN	3, 11
	YXTS_IN8 4, 12
	YXTS_IN8 5, 13
	YXTS_IN8 6, 10
	YXTS_IN8 7, 11
	YMULB	12, 12, 2
	YMULB	13, 13, 2
	YMULB	10, 10, 2
	YMULB	11, 11, 2
	YROUNDS	8, \op
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	YXTS_OUT \i, \oplast
	.endr
	add	rdx, 256
	add	rcx, 256
	sub	r8, 256
	jae	1b
	vmovdqa	ymm11, [rip + .Lxts_poly]
3:	add	r8, 256
	sub	r8, 32
	jb	5f
4:	vmovdqa	[rsp], ymm12
	vpxor	ymm0, ymm12, [rdx]
	vpxor	ymm0, ymm0, ymm15
	YMULX	12, 2, 12
	YROUNDS	1, \op
	YXTS_OUT 0, \oplast
	add	rdx, 32
	add	rcx, 32
	sub	r8, 32
	jae	4b
5:	add	r8, 32
	jz	7f
	vpxor	xmm0, xmm12, [rdx]
	vpxor	xmm0, xmm0, xmm15
	YROUNDS	1, \op, xmm
	vpxor	xmm9, xmm14, xmm12
	\oplast	xmm0, xmm0, xmm9
	vmovdqu	[rcx], xmm0
	add	rdx, 16
	add	rcx, 16
	vextracti128 xmm12, ymm12, 1
7:
	.if	\store
	vmovdqu	[rsi], xmm12
	.endif
.endm

/* The frame: 256 bytes of tweak stage, 32-aligned; keys and .Lxts_poly
 * loaded.  And its end: the stage wiped, back to the caller. */
.macro YXTS_ENTER koff
	PUSH_CFI rbp
	mov	rbp, rsp
	.cfi_def_cfa_register rbp
	sub	rsp, 256
	and	rsp, -32
	YKEYS_END \koff
	vmovdqa	ymm11, [rip + .Lxts_poly]
.endm
.macro YXTS_LEAVE
	vpxor	xmm9, xmm9, xmm9
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqa	[rsp + 32*\i], ymm9
	.endr
	vzeroupper
	leave
	.cfi_def_cfa rsp, 8
	.cfi_restore rbp
.endm

.macro YXTS name, koff, op, oplast
	FUNC	\name
	test	r8, r8
	jz	9f
	YXTS_ENTER \koff
	YXTS_BODY \op, \oplast, 1
	YXTS_LEAVE
9:	ret
	ENDFUNC	\name
.endm

/*
 * rdi = key, rsi = the n encrypted tweaks (read only), rdx = in, rcx =
 * out, r8 = ss (a multiple of 16, > 0), r9 = n: n consecutive sectors in
 * one call, the keys loaded once and no frame or wipe between sectors,
 * so one sector's tweak setup overlaps the previous one's last rounds.
 */
.macro YXTS_SEC name, koff, op, oplast
	FUNC	\name
	test	r9, r9
	jz	9f
	mov	r11, r9
	mov	r10, r8
	YXTS_ENTER \koff
	.p2align 4
6:	mov	r8, r10
	YXTS_BODY \op, \oplast, 0
	add	rsi, 16
	dec	r11
	jnz	6b
	YXTS_LEAVE
9:	ret
	ENDFUNC	\name
.endm

	.section .rodata
	.p2align 5
.Lxts_poly:
	.quad	0x87, 0x87, 0x87, 0x87
	.text

/* void cb_vaes256_xts_enc(const struct cb_aes_key *k, uint8_t tweak[16],
 *         const uint8_t *in, uint8_t *out, size_t len)   (and _dec) */
	YXTS	cb_vaes256_xts_enc, CB_AESKEY_ENC, vaesenc, vaesenclast
	YXTS	cb_vaes256_xts_dec, CB_AESKEY_DEC, vaesdec, vaesdeclast

/* void cb_vaes256_xts_enc_sectors(const struct cb_aes_key *k,
 *         const uint8_t (*tweaks)[16], const uint8_t *in, uint8_t *out,
 *         size_t ss, size_t n)   (and _dec) */
	YXTS_SEC cb_vaes256_xts_enc_sectors, CB_AESKEY_ENC, vaesenc, vaesenclast
	YXTS_SEC cb_vaes256_xts_dec_sectors, CB_AESKEY_DEC, vaesdec, vaesdeclast

	.text
/* ---- the throughput probe (cb_native_limits) ----------------------------- */

/* void cb_vaes256_probe(uint64_t n): the probe on ymm (AES_PROBE) */
	AES_PROBE cb_vaes256_probe, y

#endif /* __x86_64__ */
