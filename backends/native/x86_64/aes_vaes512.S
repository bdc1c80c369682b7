/*
 * aes_vaes512.S - the native backend's VAES routines on 512-bit vectors
 * (four AES blocks per zmm, EVEX, AVX-512F/VL): CBC and fused ESSIV-CBC
 * decryption and ECB with 32 blocks in flight and a masked tail; CBC
 * encryption of 16 interleaved sector chains with 64-byte loads per
 * sector and a 4x4 transpose of 128-bit lanes, of 32 with 32-byte
 * loads (Zen 5 needs 8 zmm chains in flight), and of 64 staged through
 * the stack (16 chains: twice what Zen 5 needs); XTS with 32 blocks in
 * flight.  Contracts: native_asm.h.
 *
 * Decryption and ECB keep every round key broadcast in zmm16-30, indexed
 * from the end of the schedule (zmm30 = rk[nr], zmm29 = rk[nr-1], ...);
 * zmm15 holds rk[0].  One unrolled sequence serves 10, 12 and 14 rounds.
 *
 * 4 KiB aliasing: the 16 lanes of a multi-sector request sit on a
 * sector_size stride (4096 bytes: every lane at the same page offset and
 * in the same L1 set).  A superblock loads 64 bytes at offset t of every
 * lane before it stores anything at offset t, the stores in flight are at
 * older offsets, and each lane's cache line is touched by one 64-byte
 * load and one 64-byte store: on Zen 4, 256 x 4096-byte sectors run at
 * 0.053 ns/byte and 2048 x 512-byte ones at 0.059 (the 16-byte-access
 * ymm version was 2.5x slower on the 4 KiB stride; see aes_vaes256.S).
 */
#include "native_asm.h"
#include "macros.inc"

#if defined(__x86_64__)	/* elsewhere: empty (native_arm64.h, or the stub) */

/* eax = nr, r9 = &keys[nr] of the schedule at \koff; zmm15 = rk[0],
 * zmm(30-j) = rk[nr-j] for j = 0 .. nr-1 (broadcast) */
.macro ZKEYS koff
	KEND	\koff
	vbroadcasti32x4 zmm15, [rdi + \koff]
	vbroadcasti32x4 zmm30, [r9 - 16*0]
	vbroadcasti32x4 zmm29, [r9 - 16*1]
	vbroadcasti32x4 zmm28, [r9 - 16*2]
	vbroadcasti32x4 zmm27, [r9 - 16*3]
	vbroadcasti32x4 zmm26, [r9 - 16*4]
	vbroadcasti32x4 zmm25, [r9 - 16*5]
	vbroadcasti32x4 zmm24, [r9 - 16*6]
	vbroadcasti32x4 zmm23, [r9 - 16*7]
	vbroadcasti32x4 zmm22, [r9 - 16*8]
	vbroadcasti32x4 zmm21, [r9 - 16*9]
	cmp	eax, 12
	jb	83f
	vbroadcasti32x4 zmm20, [r9 - 16*10]
	vbroadcasti32x4 zmm19, [r9 - 16*11]
	je	83f
	vbroadcasti32x4 zmm18, [r9 - 16*12]
	vbroadcasti32x4 zmm17, [r9 - 16*13]
83:
.endm

/* one round on zmm0..zmm(n-1) with the key in zmm\k */
.macro ZR j, k, n, op
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	.if	\i < \n
	\op	zmm\i, zmm\i, zmm\k
	.endif
	.endr
.endm

/* rounds 1 .. nr-1 (eax = nr) */
.macro ZROUNDS n, op
	ROUNDS_NR ZR, \n, \op
.endm

/* k1 = qword mask of the \len (16, 32 or 48) bytes left; rcx kept */
.macro TAILMASK len
	mov	r10, rcx
	mov	ecx, \len
	shr	ecx, 3
	mov	r11d, 1
	shl	r11d, cl
	dec	r11d
	kmovw	k1, r11d
	mov	rcx, r10
.endm

/* ECB: rdi = key, rsi = in, rdx = out, rcx = len */
.macro ZECB name, koff, op, oplast
	FUNC	\name
	test	rcx, rcx
	jz	8f
	ZKEYS	\koff
	sub	rcx, 512
	jb	3f
	.p2align 4
1:	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vpxord	zmm\i, zmm15, [rsi + 64*\i]
	.endr
	ZROUNDS	8, \op
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	\oplast	zmm\i, zmm\i, zmm30
	vmovdqu64 [rdx + 64*\i], zmm\i
	.endr
	add	rsi, 512
	add	rdx, 512
	sub	rcx, 512
	jae	1b
3:	add	rcx, 512
	sub	rcx, 64
	jb	6f
4:	vpxord	zmm0, zmm15, [rsi]
	ZROUNDS	1, \op
	\oplast	zmm0, zmm0, zmm30
	vmovdqu64 [rdx], zmm0
	add	rsi, 64
	add	rdx, 64
	sub	rcx, 64
	jae	4b
6:	add	rcx, 64
	jz	7f
	TAILMASK ecx
	vmovdqu64 zmm0{k1}{z}, [rsi]
	vpxord	zmm0, zmm0, zmm15
	ZROUNDS	1, \op
	\oplast	zmm0, zmm0, zmm30
	vmovdqu64 [rdx]{k1}, zmm0
7:	vzeroupper
8:	ret
	ENDFUNC	\name
.endm

	ZECB	cb_vaes512_ecb_enc, CB_AESKEY_ENC, vaesenc, vaesenclast
	ZECB	cb_vaes512_ecb_dec, CB_AESKEY_DEC, vaesdec, vaesdeclast

/* ---- CBC decryption ----------------------------------------------------- */

/* void cb_vaes512_cbc_dec(const struct cb_aes_key *k, const uint8_t iv[16],
 *         uint8_t chain[16], const uint8_t *in, uint8_t *out, size_t len) */
	FUNC	cb_vaes512_cbc_dec
	cmp	rsi, rdx
	je	7f
	LOAD_IV	xmm13, rsi, v
6:	mov	rsi, rdx
	mov	rdx, rcx
	mov	rcx, r8
	mov	r8, r9
	test	r8, r8
	jnz	.Lzdec_body
	vmovdqu	[rsi], xmm13
	vzeroupper
	ret
7:	vmovdqu	xmm13, [rsi]
	jmp	6b
	ENDFUNC	cb_vaes512_cbc_dec

/* void cb_vaes512_essiv_cbc_dec(struct cb_native_ctx *c,
 *         const uint8_t iv[16], const uint8_t *in, uint8_t *out, size_t len) */
	FUNC	cb_vaes512_essiv_cbc_dec
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
	jnz	.Lzdec_body
	vmovdqu	[rsi], xmm13
	vzeroupper
	ret
/* rdi = key, rsi = chain, rdx = in, rcx = out, r8 = len > 0,
 * xmm13 = the previous ciphertext block; zmm13's lane 3 carries it */
.Lzdec_body:
	vshufi64x2 zmm13, zmm13, zmm13, 0
	vmovdqu	xmm12, [rdx + r8 - 16]		/* next chain, before any */
	vmovdqu	[rsi], xmm12			/* store (in place)       */
	ZKEYS	CB_AESKEY_DEC
	sub	r8, 512
	jb	3f
	.p2align 4
1:	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu64 zmm\i, [rdx + 64*\i]
	.endr
	valignq	zmm12, zmm0, zmm13, 6		/* (prev, C0, C1, C2)    */
	vmovdqa64 zmm13, zmm7
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vpxord	zmm\i, zmm\i, zmm15
	.endr
	ZROUNDS	8, vaesdec
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vaesdeclast zmm\i, zmm\i, zmm30
	.endr
	vpxord	zmm0, zmm0, zmm12
	.irp	i, 1, 2, 3, 4, 5, 6, 7
	vpxord	zmm\i, zmm\i, [rdx + 64*\i - 16]
	.endr
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu64 [rcx + 64*\i], zmm\i
	.endr
	add	rdx, 512
	add	rcx, 512
	sub	r8, 512
	jae	1b
3:	add	r8, 512
	sub	r8, 64
	jb	6f
4:	vmovdqu64 zmm0, [rdx]
	valignq	zmm12, zmm0, zmm13, 6
	vmovdqa64 zmm13, zmm0
	vpxord	zmm0, zmm0, zmm15
	ZROUNDS	1, vaesdec
	vaesdeclast zmm0, zmm0, zmm30
	vpxord	zmm0, zmm0, zmm12
	vmovdqu64 [rcx], zmm0
	add	rdx, 64
	add	rcx, 64
	sub	r8, 64
	jae	4b
6:	add	r8, 64
	jz	7f
	TAILMASK r8d
	vmovdqu64 zmm0{k1}{z}, [rdx]
	valignq	zmm12, zmm0, zmm13, 6
	vpxord	zmm0, zmm0, zmm15
	ZROUNDS	1, vaesdec
	vaesdeclast zmm0, zmm0, zmm30
	vpxord	zmm0, zmm0, zmm12
	vmovdqu64 [rcx]{k1}, zmm0
7:	vzeroupper
8:	ret
	ENDFUNC	cb_vaes512_essiv_cbc_dec

/* ---- 16 interleaved sector chains, four per zmm ------------------------- */

/*
 * rdi = key, rsi = lanes, rdx = out offset (out_delta + position),
 * r8 = in offset, rcx = bytes left, eax/r9 = rounds/kend, r10 a lane
 * pointer.  zmm0..3: the chains of lanes 4g..4g+3 (g = 0..3).
 * zmm(4 + 4i + g): block i (0..3) of the 64-byte superblock of lanes
 * 4g..4g+3, first as P ^ rk0, then as the ciphertext.  zmm20, 21
 * transpose temporaries; zmm28 the folded last-round key; zmm29 the
 * round key (broadcast per round); zmm30 = rk[nr]; zmm31 = rk[0].
 */

/* 4x4 transpose of 128-bit lanes: lane k of zmm rj <-> lane j of zmm rk */
.macro TRANSPOSE r0, r1, r2, r3
	vshufi64x2 zmm20, zmm\r0, zmm\r1, 0x44
	vshufi64x2 zmm\r1, zmm\r0, zmm\r1, 0xee
	vshufi64x2 zmm21, zmm\r2, zmm\r3, 0x44
	vshufi64x2 zmm\r3, zmm\r2, zmm\r3, 0xee
	vshufi64x2 zmm\r0, zmm20, zmm21, 0x88
	vshufi64x2 zmm\r2, zmm\r1, zmm\r3, 0x88
	vshufi64x2 zmm\r3, zmm\r1, zmm\r3, 0xdd
	vshufi64x2 zmm\r1, zmm20, zmm21, 0xdd
.endm

/* load 64 bytes of lanes 4g..4g+3 into zmm r0..r3, transpose, ^ rk0 */
.macro ZGROUP_LOAD g, r0, r1, r2, r3
	mov	r10, [rsi + CB_LANES_IN + 8*(4*\g + 0)]
	vmovdqu64 zmm\r0, [r10 + r8]
	mov	r10, [rsi + CB_LANES_IN + 8*(4*\g + 1)]
	vmovdqu64 zmm\r1, [r10 + r8]
	mov	r10, [rsi + CB_LANES_IN + 8*(4*\g + 2)]
	vmovdqu64 zmm\r2, [r10 + r8]
	mov	r10, [rsi + CB_LANES_IN + 8*(4*\g + 3)]
	vmovdqu64 zmm\r3, [r10 + r8]
	TRANSPOSE \r0, \r1, \r2, \r3
	vpxord	zmm\r0, zmm\r0, zmm31
	vpxord	zmm\r1, zmm\r1, zmm31
	vpxord	zmm\r2, zmm\r2, zmm31
	vpxord	zmm\r3, zmm\r3, zmm31
.endm

/* transpose the ciphertext of lanes 4g..4g+3 back, store 64 bytes each */
.macro ZGROUP_STORE g, r0, r1, r2, r3
	TRANSPOSE \r0, \r1, \r2, \r3
	mov	r10, [rsi + CB_LANES_IN + 8*(4*\g + 0)]
	vmovdqu64 [r10 + rdx], zmm\r0
	mov	r10, [rsi + CB_LANES_IN + 8*(4*\g + 1)]
	vmovdqu64 [r10 + rdx], zmm\r1
	mov	r10, [rsi + CB_LANES_IN + 8*(4*\g + 2)]
	vmovdqu64 [r10 + rdx], zmm\r2
	mov	r10, [rsi + CB_LANES_IN + 8*(4*\g + 3)]
	vmovdqu64 [r10 + rdx], zmm\r3
.endm

.macro ZLR j, r
	vbroadcasti32x4 zmm29, [r9 - 16*\j]
	vaesenc	zmm0, zmm0, zmm29
	vaesenc	zmm1, zmm1, zmm29
	vaesenc	zmm2, zmm2, zmm29
	vaesenc	zmm3, zmm3, zmm29
.endm

/* rounds 1 .. nr-1 of the four chains */
.macro ZLROUNDS
	ROUNDS_NR ZLR
.endm

/* last round of chain g folding the next block (zmm nxt = P' ^ rk0); the
 * ciphertext goes to zmm cur, whose plaintext is consumed */
.macro ZFOLD g, cur, nxt
	vpxord	zmm28, zmm\nxt, zmm30
	vaesenclast zmm\g, zmm\g, zmm28
	vpxord	zmm\cur, zmm\g, zmm\nxt
.endm
.macro ZPLAIN g, cur
	vaesenclast zmm\g, zmm\g, zmm30
	vmovdqa64 zmm\cur, zmm\g
.endm

/* void cb_vaes512_cbc_enc_lanes16(const struct cb_aes_key *k,
 *         const struct cb_lanes *l, ptrdiff_t out_delta, size_t len) */
	FUNC	cb_vaes512_cbc_enc_lanes16
	KEND	CB_AESKEY_ENC
	vbroadcasti32x4 zmm31, [rdi]
	vbroadcasti32x4 zmm30, [r9]
	vmovdqu64 zmm0, [rsi + CB_LANES_IV + 64*0]
	vmovdqu64 zmm1, [rsi + CB_LANES_IV + 64*1]
	vmovdqu64 zmm2, [rsi + CB_LANES_IV + 64*2]
	vmovdqu64 zmm3, [rsi + CB_LANES_IV + 64*3]
	xor	r8d, r8d
	.p2align 4
1:	ZGROUP_LOAD 0, 4, 8, 12, 16
	ZGROUP_LOAD 1, 5, 9, 13, 17
	ZGROUP_LOAD 2, 6, 10, 14, 18
	ZGROUP_LOAD 3, 7, 11, 15, 19
	vpxord	zmm0, zmm0, zmm4
	vpxord	zmm1, zmm1, zmm5
	vpxord	zmm2, zmm2, zmm6
	vpxord	zmm3, zmm3, zmm7
	ZLROUNDS
	ZFOLD	0, 4, 8
	ZFOLD	1, 5, 9
	ZFOLD	2, 6, 10
	ZFOLD	3, 7, 11
	ZLROUNDS
	ZFOLD	0, 8, 12
	ZFOLD	1, 9, 13
	ZFOLD	2, 10, 14
	ZFOLD	3, 11, 15
	ZLROUNDS
	ZFOLD	0, 12, 16
	ZFOLD	1, 13, 17
	ZFOLD	2, 14, 18
	ZFOLD	3, 15, 19
	ZLROUNDS
	ZPLAIN	0, 16
	ZPLAIN	1, 17
	ZPLAIN	2, 18
	ZPLAIN	3, 19
	ZGROUP_STORE 0, 4, 8, 12, 16
	ZGROUP_STORE 1, 5, 9, 13, 17
	ZGROUP_STORE 2, 6, 10, 14, 18
	ZGROUP_STORE 3, 7, 11, 15, 19
	add	r8, 64
	add	rdx, 64
	sub	rcx, 64
	jnz	1b
	vzeroupper
	ret
	ENDFUNC	cb_vaes512_cbc_enc_lanes16

/* ---- 32 interleaved sector chains, four per zmm ------------------------- */

/*
 * Twice the chains of cb_vaes512_cbc_enc_lanes16, so a core that retires
 * two 512-bit rounds a cycle at a latency of four (Zen 5: 8 block-rounds
 * a cycle) has 8 in flight.  There are not registers for 64 bytes of 32
 * lanes, so a step takes 32 bytes of each: rdi = key, rsi = lanes, rdx =
 * out offset (out_delta + position), r8 = in offset, rcx = bytes left (a
 * multiple of 32), eax/r9 = rounds/kend, r10/r11 lane pointers.
 * zmm0..7: the chains of lanes 4g..4g+3 (g = 0..7); zmm(8 + 2g + i):
 * block i (0, 1) of lanes 4g..4g+3, first as P ^ rk0, then as the
 * ciphertext; zmm24, 25 temporaries; zmm26, 27 the store permutations;
 * zmm28 the folded last-round key; zmm29 the round key (broadcast per
 * round); zmm30 = rk[nr]; zmm31 = rk[0].
 */

/* 32 bytes of lanes 4g..4g+3 into zmm b0 = block 0 of the four, zmm b1 =
 * block 1 (zmm24 = a0 a1 b0 b1, zmm25 = c0 c1 d0 d1), each ^ rk0 */
.macro Z32_LOAD g, b0, b1
	mov	r10, [rsi + CB_LANES_IN + 8*(4*\g + 0)]
	mov	r11, [rsi + CB_LANES_IN + 8*(4*\g + 1)]
	vmovdqu64 ymm24, [r10 + r8]
	vinserti64x4 zmm24, zmm24, [r11 + r8], 1
	mov	r10, [rsi + CB_LANES_IN + 8*(4*\g + 2)]
	mov	r11, [rsi + CB_LANES_IN + 8*(4*\g + 3)]
	vmovdqu64 ymm25, [r10 + r8]
	vinserti64x4 zmm25, zmm25, [r11 + r8], 1
	vshufi64x2 zmm\b0, zmm24, zmm25, 0x88
	vshufi64x2 zmm\b1, zmm24, zmm25, 0xdd
	vpxord	zmm\b0, zmm\b0, zmm31
	vpxord	zmm\b1, zmm\b1, zmm31
.endm

/* the ciphertext blocks zmm b0, b1 of lanes 4g..4g+3 back to 32 bytes a
 * lane: zmm24 = a0 a1 b0 b1 (zmm26's qwords), zmm b0 = c0 c1 d0 d1; each
 * upper half stored by a store of the whole register 32 bytes lower with
 * only its upper half enabled (k2 = 0xf0: masked-off bytes are neither
 * written nor faulted on), one store instead of VEXTRACTI64X4's shuffle
 * and store: 0.124 -> 0.116 c/B in L1 on Zen 5 */
.macro Z32_STORE g, b0, b1
	vmovdqa64 zmm24, zmm26
	vpermi2q zmm24, zmm\b0, zmm\b1
	vpermt2q zmm\b0, zmm27, zmm\b1
	mov	r10, [rsi + CB_LANES_IN + 8*(4*\g + 0)]
	mov	r11, [rsi + CB_LANES_IN + 8*(4*\g + 1)]
	vmovdqu64 [r10 + rdx], ymm24
	vmovdqu64 [r11 + rdx - 32]{k2}, zmm24
	mov	r10, [rsi + CB_LANES_IN + 8*(4*\g + 2)]
	mov	r11, [rsi + CB_LANES_IN + 8*(4*\g + 3)]
	vmovdqu64 [r10 + rdx], ymm\b0
	vmovdqu64 [r11 + rdx - 32]{k2}, zmm\b0
.endm

.macro Z32R j, r
	vbroadcasti32x4 zmm29, [r9 - 16*\j]
	.irp	g, 0, 1, 2, 3, 4, 5, 6, 7
	vaesenc	zmm\g, zmm\g, zmm29
	.endr
.endm

/* void cb_vaes512_cbc_enc_lanes32(const struct cb_aes_key *k,
 *         const struct cb_lanes *l, ptrdiff_t out_delta, size_t len) */
	FUNC	cb_vaes512_cbc_enc_lanes32
	mov	r10d, 0xf0
	kmovw	k2, r10d
	KEND	CB_AESKEY_ENC
	vbroadcasti32x4 zmm31, [rdi]
	vbroadcasti32x4 zmm30, [r9]
	vmovdqa64 zmm26, [rip + .Llanes32_perm]
	vmovdqa64 zmm27, [rip + .Llanes32_perm + 64]
	.irp	g, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu64 zmm\g, [rsi + CB_LANES_IV + 64*\g]
	.endr
	xor	r8d, r8d
	.p2align 4
1:
	Z32_LOAD 0, 8, 9
	Z32_LOAD 1, 10, 11
	Z32_LOAD 2, 12, 13
	Z32_LOAD 3, 14, 15
	Z32_LOAD 4, 16, 17
	Z32_LOAD 5, 18, 19
	Z32_LOAD 6, 20, 21
	Z32_LOAD 7, 22, 23
	vpxord	zmm0, zmm0, zmm8
	vpxord	zmm1, zmm1, zmm10
	vpxord	zmm2, zmm2, zmm12
	vpxord	zmm3, zmm3, zmm14
	vpxord	zmm4, zmm4, zmm16
	vpxord	zmm5, zmm5, zmm18
	vpxord	zmm6, zmm6, zmm20
	vpxord	zmm7, zmm7, zmm22
	ROUNDS_NR Z32R
	ZFOLD	0, 8, 9
	ZFOLD	1, 10, 11
	ZFOLD	2, 12, 13
	ZFOLD	3, 14, 15
	ZFOLD	4, 16, 17
	ZFOLD	5, 18, 19
	ZFOLD	6, 20, 21
	ZFOLD	7, 22, 23
	ROUNDS_NR Z32R
	ZPLAIN	0, 9
	ZPLAIN	1, 11
	ZPLAIN	2, 13
	ZPLAIN	3, 15
	ZPLAIN	4, 17
	ZPLAIN	5, 19
	ZPLAIN	6, 21
	ZPLAIN	7, 23
	Z32_STORE 0, 8, 9
	Z32_STORE 1, 10, 11
	Z32_STORE 2, 12, 13
	Z32_STORE 3, 14, 15
	Z32_STORE 4, 16, 17
	Z32_STORE 5, 18, 19
	Z32_STORE 6, 20, 21
	Z32_STORE 7, 22, 23
	add	r8, 32
	add	rdx, 32
	sub	rcx, 32
	jnz	1b
	vzeroupper
	ret
	ENDFUNC	cb_vaes512_cbc_enc_lanes32

/* ---- 64 interleaved sector chains, staged through the stack ------------ */

/*
 * Zen 5 retires two 512-bit rounds a cycle at a latency of four: the 8
 * zmm chains of cb_vaes512_cbc_enc_lanes32 exactly fill that, so every
 * load, transpose and fold that lands on a chain stalls both units.
 * Here 16 zmm chains (64 lanes) carry twice the rounds the latency
 * needs.  There are no registers for their data, so it is staged in two
 * 4 KiB stack buffers: a superblock is 64 bytes of every lane, slot
 * (i, g) = block i of lanes 4g..4g+3 (buffer + 1024 i + 64 g).  While the
 * chains run superblock s out of one buffer (each slot read as plaintext
 * by the chain's xor and overwritten with its ciphertext), the other one
 * is drained (superblock s-1: four slots loaded, transposed to 64 bytes a
 * lane, stored) and then refilled (superblock s+1: 64 bytes of each lane
 * loaded, transposed, stored), a group of four lanes after each of the
 * last four rounds of a step.  A 4x4 transpose is 8 shuffles for 16
 * blocks, on each side; 16-byte inserts and extracts would be 24, and
 * Zen 5 runs shuffles partly on an AES pipe.  Called on 64 lanes on
 * distinct L1 sets (micro-benchmark against the throughput probe, Zen 5):
 * this routine 77-81 %, the same chains with 16-byte inserts and
 * extracts 54 %, cb_vaes512_cbc_enc_lanes32 63 %; 16-byte moves instead
 * of the refill's transpose 67 %.  rdi = key, rsi = lanes, rdx = out
 * offset (out_delta + position), r8 = in offset, rcx = bytes left (a
 * multiple of 64), eax/r9 = rounds/kend, r10, r11, rdi, r13 the lane
 * pointers of a group (the key pointer is not needed past the round
 * keys' set-up), rbx = this superblock's buffer, r12 = the other.  zmm0..15: the chains; zmm16..21
 * the refill, zmm22..27 the drain; zmm28 the round key; zmm30 = rk[nr];
 * zmm31 = rk[0].
 */

/* 4x4 transpose of 128-bit lanes of zmm r0..r3, temporaries t0, t1 */
.macro TRANSPOSE_T r0, r1, r2, r3, t0, t1
	vshufi64x2 zmm\t0, zmm\r0, zmm\r1, 0x44
	vshufi64x2 zmm\r1, zmm\r0, zmm\r1, 0xee
	vshufi64x2 zmm\t1, zmm\r2, zmm\r3, 0x44
	vshufi64x2 zmm\r3, zmm\r2, zmm\r3, 0xee
	vshufi64x2 zmm\r0, zmm\t0, zmm\t1, 0x88
	vshufi64x2 zmm\r2, zmm\r1, zmm\r3, 0x88
	vshufi64x2 zmm\r3, zmm\r1, zmm\r3, 0xdd
	vshufi64x2 zmm\r1, zmm\t0, zmm\t1, 0xdd
.endm

/* the lane pointers of lanes 4g..4g+3 into r10, r11, rdi, r13 */
.macro L64_PTRS g
	mov	r10, [rsi + CB_LANES_IN + 8*(4*\g + 0)]
	mov	r11, [rsi + CB_LANES_IN + 8*(4*\g + 1)]
	mov	rdi, [rsi + CB_LANES_IN + 8*(4*\g + 2)]
	mov	r13, [rsi + CB_LANES_IN + 8*(4*\g + 3)]
.endm

/* 64 bytes at in offset r8 + \off of those lanes into the slots of
 * group g of the buffer at \buf */
.macro L64_FILL g, buf, off
	vmovdqu64 zmm16, [r10 + r8 + \off]
	vmovdqu64 zmm17, [r11 + r8 + \off]
	vmovdqu64 zmm18, [rdi + r8 + \off]
	vmovdqu64 zmm19, [r13 + r8 + \off]
	TRANSPOSE_T 16, 17, 18, 19, 20, 21
	vmovdqa64 [\buf + 1024*0 + 64*\g], zmm16
	vmovdqa64 [\buf + 1024*1 + 64*\g], zmm17
	vmovdqa64 [\buf + 1024*2 + 64*\g], zmm18
	vmovdqa64 [\buf + 1024*3 + 64*\g], zmm19
.endm

/* group g of r12: drain superblock s-1 (none when r8 = 0) to out offset
 * rdx - 64, then refill it with superblock s+1 (none when rcx <= 64) */
.macro L64_UNIT g
	L64_PTRS \g
	test	r8, r8
	jz	71f
	vmovdqa64 zmm22, [r12 + 1024*0 + 64*\g]
	vmovdqa64 zmm23, [r12 + 1024*1 + 64*\g]
	vmovdqa64 zmm24, [r12 + 1024*2 + 64*\g]
	vmovdqa64 zmm25, [r12 + 1024*3 + 64*\g]
	TRANSPOSE_T 22, 23, 24, 25, 26, 27
	vmovdqu64 [r10 + rdx - 64], zmm22
	vmovdqu64 [r11 + rdx - 64], zmm23
	vmovdqu64 [rdi + rdx - 64], zmm24
	vmovdqu64 [r13 + rdx - 64], zmm25
71:	cmp	rcx, 64
	jbe	72f
	L64_FILL \g, r12, 64
72:
.endm

/* round j (key at r9 - 16 j) of every chain in step \step; after each of
 * the last four rounds, one group's drain and refill */
.macro L64R j, r, step
	vbroadcasti32x4 zmm28, [r9 - 16*\j]
	.irp	g, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vaesenc	zmm\g, zmm\g, zmm28
	.endr
	.if	\j <= 4
	L64_UNIT (4*\step + 4 - \j)
	.endif
.endm

/* the end of block \step of chain g: its ciphertext into the slot its
 * plaintext came from, the next block (slot step+1, or the other
 * buffer's slot 0) xored in with rk0 */
.macro L64_NEXT g, step
	vaesenclast zmm\g, zmm\g, zmm30
	vmovdqa64 [rbx + 1024*\step + 64*\g], zmm\g
	.if	\step < 3
	vpternlogq zmm\g, zmm31, [rbx + 1024*(\step + 1) + 64*\g], 0x96
	.else
	vpternlogq zmm\g, zmm31, [r12 + 64*\g], 0x96
	.endif
.endm

.macro L64_STEP step
	ROUNDS_NR L64R, \step
	.irp	g, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	L64_NEXT \g, \step
	.endr
.endm

/* void cb_vaes512_cbc_enc_lanes64(const struct cb_aes_key *k,
 *         const struct cb_lanes *l, ptrdiff_t out_delta, size_t len) */
	FUNC	cb_vaes512_cbc_enc_lanes64
	push	rbp
	mov	rbp, rsp
	push	rbx
	push	r12
	push	r13
	sub	rsp, 8192
	and	rsp, -64
	mov	rbx, rsp
	lea	r12, [rsp + 4096]
	KEND	CB_AESKEY_ENC
	vbroadcasti32x4 zmm31, [rdi]
	vbroadcasti32x4 zmm30, [r9]
	xor	r8d, r8d
	.irp	g, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	L64_PTRS \g
	L64_FILL \g, rbx, 0
	vmovdqu64 zmm\g, [rsi + CB_LANES_IV + 64*\g]
	vpternlogq zmm\g, zmm31, [rbx + 64*\g], 0x96
	.endr
	.p2align 4
1:	L64_STEP 0
	L64_STEP 1
	L64_STEP 2
	L64_STEP 3
	xchg	rbx, r12
	add	r8, 64
	add	rdx, 64
	sub	rcx, 64
	jnz	1b
	.irp	g, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	L64_UNIT \g
	.endr
	lea	rsp, [rbp - 24]
	pop	r13
	pop	r12
	pop	rbx
	pop	rbp
	vzeroupper
	ret
	ENDFUNC	cb_vaes512_cbc_enc_lanes64

	.section .rodata
	.p2align 6
.Llanes32_perm:		/* qwords of (b0, b1): a0 a1 b0 b1, then c0 c1 d0 d1 */
	.quad	0, 1, 8, 9, 2, 3, 10, 11
	.quad	4, 5, 12, 13, 6, 7, 14, 15
	.text

/* ---- XTS ---------------------------------------------------------------- */

/*
 * zmm\d = zmm\t * x^\k in each 128-bit lane (GF(2^128), 1 <= k <= 56):
 * shift each qword left by k, move the bits out of the low qword into the
 * high one, and reduce the bits out of the top by x^128 = x^7+x^2+x+1
 * with one carry-less multiply by 0x87 (every qword of zmm12).  Works on
 * xmm/ymm names too (w = x, y or z).  Temps: w8, w9.
 */
.macro ZMULX t, k, d, w=z
	vpsrlq	\w\()mm8, \w\()mm\t, 64 - \k
	vpsllq	\w\()mm\d, \w\()mm\t, \k
	vpslldq	\w\()mm9, \w\()mm8, 8
	vpclmulqdq \w\()mm8, \w\()mm8, \w\()mm12, 0x01
	vpternlogq \w\()mm\d, \w\()mm8, \w\()mm9, 0x96
.endm

/*
 * rdi = key, rsi = tweak (in: the first block's encrypted tweak; out: the
 * next block's), rdx = in, rcx = out, r8 = len (a multiple of 16).
 * 16 blocks per iteration in zmm0-3 with their tweaks in zmm4-7 (zmm4 =
 * T, Tx, Tx^2, Tx^3; zmm5..7 = zmm4 * x^4, x^8, x^12), each advanced by
 * x^16 per iteration (ZMUL16); the tweak is folded into the last round's key
 * (last(s, rk ^ T) = last(s, rk) ^ T).  Tail: 64 bytes at a time (the
 * tweak registers rotate), then single blocks on xmm4 (times x each).
 */
/*
 * zmm\t *= x^16 in each lane, the loop's step, without VPCLMULQDQ (which
 * competes with VAES for its pipes; measured 6 % faster on Zen 4): a
 * 2-byte shift of the whole lane, and the 16 bits shifted out reduced
 * as b * 0x87 = b ^ b<<1 ^ b<<2 ^ b<<7.  Temps zmm8-11.
 */
.macro ZMUL16 t
	vpsrldq	zmm8, zmm\t, 14
	vpslldq	zmm\t, zmm\t, 2
	vpsllq	zmm9, zmm8, 1
	vpsllq	zmm10, zmm8, 2
	vpsllq	zmm11, zmm8, 7
	vpternlogq zmm\t, zmm8, zmm9, 0x96
	vpternlogq zmm\t, zmm10, zmm11, 0x96
.endm

.macro ZXTS_IN i, t			/* zmm i = P ^ T ^ rk0 */
	vmovdqu64 zmm\i, [rdx + 64*\i]
	vpternlogq zmm\i, zmm\t, zmm15, 0x96
.endm
.macro ZXTS_OUT i, t, oplast
	vpxorq	zmm8, zmm\t, zmm30
	\oplast	zmm\i, zmm\i, zmm8
	vmovdqu64 [rcx + 64*\i], zmm\i
.endm

/*
 * zmm\d = T * x^(4j + lane) in lane 0..3, T broadcast in zmm\src: ZMULX
 * with a shift count per qword (.Lxts_shl/.Lxts_shr row j), so the four
 * tweak vectors of a request come from T independently, no chain of
 * inserts.  Temps zmm8 and zmm\tmp (which may be \src: read first).
 */
.macro ZMULV d, j, src=16, tmp=9
	vpsrlvq	zmm8, zmm\src, [rip + .Lxts_shr + 64*\j]
	vpsllvq	zmm\d, zmm\src, [rip + .Lxts_shl + 64*\j]
	vpslldq	zmm\tmp, zmm8, 8
	vpclmulqdq zmm8, zmm8, zmm12, 0x01
	vpternlogq zmm\d, zmm8, zmm\tmp, 0x96
.endm

/* keys as ZKEYS, zmm12 = 0x87 in every qword; r9 is free after it */
.macro ZXTS_SETUP koff
	ZKEYS	\koff
	mov	r9d, 0x87
	vpbroadcastq zmm12, r9
.endm

/*
 * zmm\d = zmm\t * x^(8n) in each lane (1 <= n <= 7): whole bytes, so a
 * byte shift of the lane and one carry-less multiply of the n bytes
 * shifted out by 0x87 (at most 8n + 7 bits: no second fold).  Temp zmm8.
 */
.macro ZMULB d, t, n
	vpsrldq	zmm8, zmm\t, 16 - \n
	vpslldq	zmm\d, zmm\t, \n
	vpclmulqdq zmm8, zmm8, zmm12, 0x00
	vpxorq	zmm\d, zmm\d, zmm8
.endm

/* the last 9 rounds but the final one (keys rk[nr-9] .. rk[nr-1] in
 * zmm21-29) on zmm0-7, \mid (a macro, or nothing) after the second */
.macro ZR8_10 op, mid
	ZR	9, 21, 8, \op
	ZR	8, 22, 8, \op
	\mid
	ZR	7, 23, 8, \op
	ZR	6, 24, 8, \op
	ZR	5, 25, 8, \op
	ZR	4, 26, 8, \op
	ZR	3, 27, 8, \op
	ZR	2, 28, 8, \op
	ZR	1, 29, 8, \op
.endm

/*
 * 512 bytes of AES-128 (nr = 10: zmm16-20 hold no key) from the tweak
 * vectors j = 0, 1 (T * x^(4j + lane)) in zmm13, 14: ZX8_TWEAKS makes
 * j = 2..7 from those two times x^8, x^16, x^24 (ZMULB) into zmm17-20,
 * 31, 16; ZX8_STEP runs the 32 blocks in zmm0-7, \mid (a macro, or
 * nothing) after its second round.
 */
.macro ZX8_TWEAKS
	ZMULB	17, 13, 1
	ZMULB	18, 14, 1
	ZMULB	19, 13, 2
	ZMULB	20, 14, 2
	ZMULB	31, 13, 3
	ZMULB	16, 14, 3
.endm
.macro ZX8_STEP op, oplast, mid=
	ZXTS_IN	0, 13
	ZXTS_IN	1, 14
	ZXTS_IN	2, 17
	ZXTS_IN	3, 18
	ZXTS_IN	4, 19
	ZXTS_IN	5, 20
	ZXTS_IN	6, 31
	ZXTS_IN	7, 16
	ZR8_10	\op, \mid
	ZXTS_OUT 0, 13, \oplast
	ZXTS_OUT 1, 14, \oplast
	ZXTS_OUT 2, 17, \oplast
	ZXTS_OUT 3, 18, \oplast
	ZXTS_OUT 4, 19, \oplast
	ZXTS_OUT 5, 20, \oplast
	ZXTS_OUT 6, 31, \oplast
	ZXTS_OUT 7, 16, \oplast
.endm

/* frame at rsp, 64-aligned (rbp saved): ZX8M_LOOP's two 512-byte
 * buffers of tweak vectors, then a byte saying which it wrote (bit 0: the
 * first, bit 1: the second), so that only those are wiped */
.macro ZXTS_FRAME
	PUSH_CFI rbp
	mov	rbp, rsp
	.cfi_def_cfa_register rbp
	and	rsp, -64
	sub	rsp, 1088
	mov	byte ptr [rsp + 1024], 0
.endm
/* wipe the tweak buffers written and leave the frame; local label 31 */
.macro ZXTS_UNFRAME
	vpxord	xmm8, xmm8, xmm8
	test	byte ptr [rsp + 1024], 1
	jz	31f
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqa64 [rsp + 64*\i], zmm8
	.endr
	test	byte ptr [rsp + 1024], 2
	jz	31f
	.irp	i, 8, 9, 10, 11, 12, 13, 14, 15
	vmovdqa64 [rsp + 64*\i], zmm8
	.endr
31:	mov	rsp, rbp
	.cfi_def_cfa_register rsp
	POP_CFI	rbp
.endm

/* the next sector's tweak vectors 0, 1 into zmm10, 11 from its tweak at
 * [r10] (zmm9-11 are free in the AES-128 step; zmm8 is free mid-step) */
.macro ZXTS512_NEXT
	vbroadcasti32x4 zmm9, [r10]
	ZMULV	10, 0, 9, 11
	ZMULV	11, 1, 9, 9
.endm
/*
 * r11 512-byte sectors of AES-128 (r11 >= 1), a sector a step.  The step
 * keeps exactly the 8 chains that fill the AES units (latency 4 x 2 per
 * cycle on Zen 5), so a sector's first rounds must not wait for its tweak
 * vectors: ZMULV's shift-clmul-xor chain for sector i+1 runs during
 * sector i's rounds (ZXTS512_NEXT; the last sector recomputes its own
 * rather than read past the tweaks).  With the chain at the sector's
 * start instead, a 128 KiB run took 0.090 c/B against 0.083 now and
 * 0.079 for the rounds alone (tweaks left out; medians of 7 alternated
 * runs pinned to one CPU, Zen 5).  Local label 21.
 */
.macro ZXTS512 op, oplast
	vbroadcasti32x4 zmm16, [rsi]
	ZMULV	13, 0
	ZMULV	14, 1
	.p2align 4
21:	lea	r10, [rsi + 16]
	cmp	r11, 1
	cmove	r10, rsi
	ZX8_TWEAKS
	ZX8_STEP \op, \oplast, ZXTS512_NEXT
	vmovdqa64 zmm13, zmm10
	vmovdqa64 zmm14, zmm11
	add	rsi, 16
	add	rdx, 512
	add	rcx, 512
	dec	r11
	jnz	21b
.endm

/*
 * Rounds 1 .. nr-1 on zmm0-7 (eax = nr) with \mid after round nr-8 (the
 * second of AES-128, the sixth of AES-256).  Local labels 81, 82.
 */
.macro ZR8_MID op, mid
	cmp	eax, 12
	jb	81f
	je	82f
	ZR	13, 17, 8, \op
	ZR	12, 18, 8, \op
82:	ZR	11, 19, 8, \op
	ZR	10, 20, 8, \op
81:	ZR8_10	\op, \mid
.endm

/* the 8 tweak vectors of a step from vectors 0, 1 in zmm13, 14 (vector
 * 2n + k = vector k times x^(8n)) to [\buf]; with in=1 also each into the
 * step's block (ZXTS_IN) as soon as it is made, so the first step does
 * not wait for the stores.  Temps zmm8-11, 16, 31. */
.macro ZX8M_PUT buf, in=0
	vmovdqa64 [\buf + 64*0], zmm13
	vmovdqa64 [\buf + 64*1], zmm14
	ZMULB	9, 13, 1
	ZMULB	10, 14, 1
	ZMULB	11, 13, 2
	ZMULB	16, 14, 2
	ZMULB	31, 13, 3
	vmovdqa64 [\buf + 64*2], zmm9
	vmovdqa64 [\buf + 64*3], zmm10
	vmovdqa64 [\buf + 64*4], zmm11
	vmovdqa64 [\buf + 64*5], zmm16
	vmovdqa64 [\buf + 64*6], zmm31
	.if	\in
	ZXTS_IN	0, 13
	ZXTS_IN	1, 14
	ZXTS_IN	2, 9
	ZXTS_IN	3, 10
	ZXTS_IN	4, 11
	ZXTS_IN	5, 16
	ZXTS_IN	6, 31
	.endif
	ZMULB	9, 14, 3
	vmovdqa64 [\buf + 64*7], zmm9
	.if	\in
	ZXTS_IN	7, 9
	.endif
.endm
/* under a step's rounds: vectors 0, 1 times x^32 (what follows starts
 * there), and the next step's 8 to [rdi] if it is a whole one; local
 * label 36 */
.macro ZX8M_NEXT
	ZMULB	13, 13, 4
	ZMULB	14, 14, 4
	cmp	r8, 1024
	jb	36f
	ZX8M_PUT rdi
36:
.endm

/*
 * 32 blocks a step while 512 bytes are left, any key size (every round
 * key stays in its register).  The step keeps exactly the 8 chains that
 * fill the AES units, so its first rounds must not wait for tweaks: the
 * tweak vectors live in the frame's two buffers, this step's at r9, and
 * the next step's are computed under this one's rounds into the other
 * (rdi; the key pointer is not needed after ZXTS_SETUP), the loads and
 * last-round keys taking them as memory operands; the first step takes
 * its vectors from registers.  With every step's vectors in registers,
 * made at its start, XTS-AES-256 on 64 KiB ran 0.120 c/B on Zen 5
 * against 0.113 now (the AES bound: 0.109).  On exit zmm13, 14 are
 * vectors 0, 1 of what follows.  T broadcast in zmm16 on entry; local
 * labels 38, 39.
 */
.macro ZX8M_LOOP op, oplast
	ZMULV	13, 0
	ZMULV	14, 1
	mov	r9, rsp
	lea	rdi, [rsp + 512]
	or	byte ptr [rsp + 1024], 1
	cmp	r8, 1024
	jb	39f
	or	byte ptr [rsp + 1024], 2
39:	ZX8M_PUT r9, 1
	jmp	38f
	.p2align 4
39:	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu64 zmm\i, [rdx + 64*\i]
	vpternlogq zmm\i, zmm15, [r9 + 64*\i], 0x96
	.endr
38:	ZR8_MID	\op, ZX8M_NEXT
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vpxorq	zmm8, zmm30, [r9 + 64*\i]
	\oplast	zmm\i, zmm\i, zmm8
	vmovdqu64 [rcx + 64*\i], zmm\i
	.endr
	xchg	r9, rdi
	add	rdx, 512
	add	rcx, 512
	sub	r8, 512
	cmp	r8, 512
	jae	39b
.endm

/* One request: rsi = its encrypted tweak (iv=1: already in xmm16, rsi
 * still where the next one goes), rdx = in, rcx = out, r8 = len
 * (> 0, a multiple of 16); rdx and rcx end past it, xmm4 = the next
 * tweak.  The tweak vectors advance only when more data follows (a
 * 512-byte sector would otherwise spend a quarter of its vector work on
 * tweaks it never uses).  Local labels 1-9, 31-39, 81, 82. */
.macro ZXTS_BODY op, oplast, iv=0
	.if	\iv			/* the tweak in xmm16 */
	vshufi32x4 zmm16, zmm16, zmm16, 0
	.else
	vbroadcasti32x4 zmm16, [rsi]
	.endif
	cmp	r8, 512
	jb	33f
	cmp	r8, 1024
	jae	35f
	cmp	eax, 10
	jne	35f
	/* one step of AES-128: its vectors fit in registers (ZX8_STEP) */
	ZMULV	13, 0
	ZMULV	14, 1
	ZX8_TWEAKS
	ZX8_STEP \op, \oplast
	add	rdx, 512
	add	rcx, 512
	sub	r8, 512
	ZMULB	13, 13, 4
	ZMULB	14, 14, 4
	jmp	37f
35:	ZX8M_LOOP \op, \oplast
37:	vmovdqa64 zmm4, zmm13		/* under 32 blocks left: */
	test	r8, r8			/* zmm4-7 = vectors 0-3 */
	jz	7f
	vmovdqa64 zmm5, zmm14
	ZMULB	6, 13, 1
	ZMULB	7, 14, 1
	jmp	34f
33:	ZMULV	7, 3
	ZMULV	6, 2
	ZMULV	5, 1
	ZMULV	4, 0
34:	cmp	r8, 256
	jb	3f
	.p2align 4
1:	ZXTS_IN	0, 4
	ZXTS_IN	1, 5
	ZXTS_IN	2, 6
	ZXTS_IN	3, 7
	ZROUNDS	4, \op
	ZXTS_OUT 0, 4, \oplast
	ZXTS_OUT 1, 5, \oplast
	ZXTS_OUT 2, 6, \oplast
	ZXTS_OUT 3, 7, \oplast
	add	rdx, 256
	add	rcx, 256
	sub	r8, 256
	jz	9f			/* done: only the next tweak is due */
	ZMUL16	4
	ZMUL16	5
	ZMUL16	6
	ZMUL16	7
	cmp	r8, 256
	jae	1b
3:	sub	r8, 64
	jb	5f
4:	vmovdqu64 zmm0, [rdx]
	vpternlogq zmm0, zmm4, zmm15, 0x96
	ZROUNDS	1, \op
	vpxorq	zmm8, zmm4, zmm30
	\oplast	zmm0, zmm0, zmm8
	vmovdqu64 [rcx], zmm0
	vmovdqa64 zmm4, zmm5
	vmovdqa64 zmm5, zmm6
	vmovdqa64 zmm6, zmm7
	add	rdx, 64
	add	rcx, 64
	sub	r8, 64
	jae	4b
5:	add	r8, 64
	jz	7f
6:	vmovdqu	xmm0, [rdx]
	vpternlogq xmm0, xmm4, xmm15, 0x96
	ZROUNDS	1, \op
	vpxorq	xmm8, xmm4, xmm30
	\oplast	xmm0, xmm0, xmm8
	vmovdqu	[rcx], xmm0
	ZMULX	4, 1, 4, x
	add	rdx, 16
	add	rcx, 16
	sub	r8, 16
	jnz	6b
	jmp	7f
9:	ZMULX	4, 16, 4, x
7:
.endm

/* a round of the tweak in xmm16, the key at r10 - 16*j */
.macro ZTW_R j, k
	vaesenc	xmm16, xmm16, [r10 - 16*\j]
.endm
/*
 * For the _iv entries: xmm16 = the IV at [rsi] encrypted with the tweak
 * key (the context's salt schedule, rdi = the context) - one dependent
 * chain of nr rounds that the key broadcasts and the frame run under,
 * with no call, store and reload between it and the tweak vectors.
 */
.macro ZXTS_TWEAK
	mov	eax, [rdi + CB_CTX_SALT + CB_AESKEY_ROUNDS]
	mov	r10d, eax
	shl	r10, 4
	lea	r10, [rdi + CB_CTX_SALT + CB_AESKEY_ENC + r10]	/* &salt[nr] */
	vmovdqu64 xmm16, [rsi]
	vpxorq	xmm16, xmm16, [rdi + CB_CTX_SALT + CB_AESKEY_ENC]
	ROUNDS_NR ZTW_R
	vaesenclast xmm16, xmm16, [r10]
.endm

/* An XTS entry point; iv=1: the _iv form, tweak[16] the IV on entry,
 * encrypted here (ZXTS_TWEAK) even for len 0 (a request of 16 to 31
 * bytes steals from its only whole block) */
.macro ZXTS name, koff, op, oplast, iv=0
	FUNC	\name
	.if	\iv
	ZXTS_TWEAK
	.endif
	test	r8, r8
	jz	8f
	ZXTS_FRAME
	ZXTS_SETUP \koff
	ZXTS_BODY \op, \oplast, \iv
	vmovdqu	[rsi], xmm4
	ZXTS_UNFRAME
	vzeroupper
	ret
8:	.if	\iv			/* nothing but the tweak */
	vmovdqu64 [rsi], xmm16
	vpxord	xmm16, xmm16, xmm16
	vzeroupper
	.endif
	ret
	ENDFUNC	\name
.endm

/*
 * n sectors of ss bytes (n >= 1; ss > 0, a multiple of 16) one after
 * another, sector i with the encrypted tweak tweaks[i]: the keys are
 * loaded once, and a sector's tweak vectors are computed while the
 * previous one's last rounds run.
 */
.macro ZXTS_SECTORS name, koff, op, oplast
	FUNC	\name
	mov	r10, r8
	mov	r11, r9
	ZXTS_FRAME
	ZXTS_SETUP \koff
	cmp	r10, 512
	jne	20f
	cmp	eax, 10
	je	22f
	.p2align 4
20:	mov	r8, r10
	ZXTS_BODY \op, \oplast
	add	rsi, 16
	dec	r11
	jnz	20b
	ZXTS_UNFRAME
	vzeroupper
	ret
	/* 512-byte sectors of AES-128, a sector a step without ZXTS_BODY's
	 * length tests and tweak hand-over, the next sector's tweak
	 * vectors computed under this one's rounds (ZXTS512) */
22:	ZXTS512 \op, \oplast
	ZXTS_UNFRAME
	vzeroupper
	ret
	ENDFUNC	\name
.endm

/* void cb_vaes512_xts_enc(const struct cb_aes_key *k, uint8_t tweak[16],
 *         const uint8_t *in, uint8_t *out, size_t len)   (and _dec) */
	ZXTS	cb_vaes512_xts_enc, CB_AESKEY_ENC, vaesenc, vaesenclast
	ZXTS	cb_vaes512_xts_dec, CB_AESKEY_DEC, vaesdec, vaesdeclast
/* void cb_vaes512_xts_enc_iv(const struct cb_native_ctx *c,
 *         uint8_t tweak[16], const uint8_t *in, uint8_t *out, size_t len)
 * (and _dec): tweak = the IV in, the advanced encrypted tweak out */
	ZXTS	cb_vaes512_xts_enc_iv, CB_CTX_KEY + CB_AESKEY_ENC, vaesenc, vaesenclast, 1
	ZXTS	cb_vaes512_xts_dec_iv, CB_CTX_KEY + CB_AESKEY_DEC, vaesdec, vaesdeclast, 1
/* void cb_vaes512_xts_enc_sectors(const struct cb_aes_key *k,
 *         const uint8_t (*tweaks)[16], const uint8_t *in, uint8_t *out,
 *         size_t ss, size_t n)   (and _dec) */
	ZXTS_SECTORS cb_vaes512_xts_enc_sectors, CB_AESKEY_ENC, vaesenc, vaesenclast
	ZXTS_SECTORS cb_vaes512_xts_dec_sectors, CB_AESKEY_DEC, vaesdec, vaesdeclast

	.section .rodata
	.p2align 6
.Lxts_shl:				/* 4j + lane, per qword */
	.irp	k, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.quad	\k, \k
	.endr
.Lxts_shr:				/* 64 - (4j + lane)     */
	.irp	k, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.quad	64 - \k, 64 - \k
	.endr

	.text
/* ---- 8 short requests from pointer arrays (the batch entry point) -------- */

/*
 * tcrypt's multibuffer mode hands over 8 requests as arrays of IV, input
 * and output pointers.  The 8 lanes are two zmm of four, gathered and
 * scattered 16 bytes at a time straight from the arrays: 24 dependent
 * rounds a request but only 48 VAESENC a batch (the AES-NI routine needs
 * 192), and few enough instructions around them that consecutive batches
 * overlap in the out-of-order window.  Temps r10, r11.
 */

/* zmm\z = the 16 bytes at arr[b + i] + \off for i = 0..3 */
.macro P4_LOAD z, arr, b, off
	mov	r10, [\arr + 8*(\b + 0)]
	mov	r11, [\arr + 8*(\b + 1)]
	vmovdqu64 xmm\z, [r10 + \off]
	vinserti32x4 zmm\z, zmm\z, [r11 + \off], 1
	mov	r10, [\arr + 8*(\b + 2)]
	mov	r11, [\arr + 8*(\b + 3)]
	vinserti32x4 zmm\z, zmm\z, [r10 + \off], 2
	vinserti32x4 zmm\z, zmm\z, [r11 + \off], 3
.endm

/* zmm\z's four blocks to arr[b + i] + \off */
.macro P4_STORE z, arr, b, off
	mov	r10, [\arr + 8*(\b + 0)]
	mov	r11, [\arr + 8*(\b + 1)]
	vmovdqu64 [r10 + \off], xmm\z
	vextracti32x4 [r11 + \off], zmm\z, 1
	mov	r10, [\arr + 8*(\b + 2)]
	mov	r11, [\arr + 8*(\b + 3)]
	vextracti32x4 [r10 + \off], zmm\z, 2
	vextracti32x4 [r11 + \off], zmm\z, 3
.endm

/* a round of zmm0, zmm1 with the key at r9 - 16*j (broadcast) */
.macro P8R j, k
	vbroadcasti32x4 zmm2, [r9 - 16*\j]
	vaesenc	zmm0, zmm0, zmm2
	vaesenc	zmm1, zmm1, zmm2
.endm

/* void cb_vaes512_essiv_enc_ptrs8(const struct cb_native_ctx *c,
 *         const uint8_t *const ivs[8], const uint8_t *const in[8],
 *         uint8_t *const out[8], size_t len)
 * rdi = c, rsi = ivs (then the offset), rdx = in, rcx = out, r8 = len */
	FUNC	cb_vaes512_essiv_enc_ptrs8
	P4_LOAD	0, rsi, 0, 0
	P4_LOAD	1, rsi, 4, 0
	lea	r9, [rdi + CB_CTX_SALT + 16*14]
	vbroadcasti32x4 zmm2, [rdi + CB_CTX_SALT]
	vpxord	zmm0, zmm0, zmm2
	vpxord	zmm1, zmm1, zmm2
	.irp	j, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1
	P8R	\j
	.endr
	vbroadcasti32x4 zmm2, [r9]
	vaesenclast zmm0, zmm0, zmm2
	vaesenclast zmm1, zmm1, zmm2
	KEND	CB_CTX_KEY + CB_AESKEY_ENC
	vbroadcasti32x4 zmm3, [rdi + CB_CTX_KEY + CB_AESKEY_ENC]
	vbroadcasti32x4 zmm4, [r9]
	xor	esi, esi
	.p2align 4
1:	P4_LOAD	5, rdx, 0, rsi
	P4_LOAD	6, rdx, 4, rsi
	vpternlogd zmm0, zmm5, zmm3, 0x96
	vpternlogd zmm1, zmm6, zmm3, 0x96
	ROUNDS_NR P8R
	vaesenclast zmm0, zmm0, zmm4
	vaesenclast zmm1, zmm1, zmm4
	P4_STORE 0, rcx, 0, rsi
	P4_STORE 1, rcx, 4, rsi
	add	rsi, 16
	sub	r8, 16
	jnz	1b
	vzeroupper
	ret
	ENDFUNC	cb_vaes512_essiv_enc_ptrs8

/* ---- AES-GCM ------------------------------------------------------------- */

/*
 * Registers of the GCM routines: zmm15 and zmm17-30 the round keys
 * (ZKEYS); zmm0-7 a step's 32 counter blocks (8 chains: Zen 5's two AES
 * units of latency 4 need them - with 4, as AWS-LC and the kernel run,
 * AES-256 is latency-bound at 14 x 4 cycles a 256-byte step); zmm8/9/10
 * the sums of the hashed blocks' products' low, middle and high halves
 * (LO, MI, HI) with the powers of H; the hash state y in xmm14 between
 * the routines' parts and in the frame (KY) between steps; zmm16 the next
 * four counters as blocks (CTR32), edx the first one's low 32 bits;
 * zmm31 the byte-reversal mask; zmm11-14 scratch.  The blocks hashed are
 * read from memory (L1: the ciphertext just stored, or the input), as
 * there are no registers left to keep them.  A step of 32 blocks is
 * 8 x 3 VPCLMULQDQ (Karatsuba) and one reduction (2 more) lane by lane,
 * the four lanes then summed: GHASH's aggregated form, y' = (y + X1) H^32
 * + X2 H^31 + ... + X32 H.  The vector instructions around the AES and
 * the multiplications compete with the VAESENC for the vector pipes
 * (docs/native.md, "The bound"), so there are as few as can be: the
 * blocks go in pairs of groups, one VPTERNLOGD adding two products and
 * one VPXORD making both groups' Karatsuba halves.
 */

#define GP(i) [rdi + CB_GCM_HEND - 512 + 64*(i)]
#define KP(i) [rdi + CB_GCM_HKZ + 64*(i)]   /* pair i's h_lo + h_hi */
#define KY    [rsp]              /* y, 64 bytes (the high 48 zero)    */

/*
 * A pair of 4-block groups, \a and \b (of 0..7; the first pair 1, 2, the
 * last 7, 0: y, the one input from the step before, comes last), at [\p],
 * times the powers at GP(\a), GP(\b): GH_PA the low and high products
 * (into LO, HI; set by \a = 1), GH_PB the middle one - Karatsuba, 3
 * VPCLMULQDQ a block and not 4: MI gathers (a_lo + a_hi)(h_lo + h_hi),
 * the two blocks' halves' sums side by side in a lane, h_lo + h_hi from
 * KP(\a / 2) (the key's hkz); LO and HI are added to MI before the
 * reduction (GH_KFIX).  Between the two, zmm12/13 hold the blocks.
 */
.macro GH_PA p, a, b
	vmovdqu64 zmm12, [\p + 64*(\a)]
	vmovdqu64 zmm13, [\p + 64*(\b)]
	vpshufb	zmm12, zmm12, zmm31
	vpshufb	zmm13, zmm13, zmm31
	.if \b == 0
	vpxord	zmm13, zmm13, KY
	.endif
	vpclmulqdq zmm11, zmm12, GP(\a), 0x00
	vpclmulqdq zmm14, zmm13, GP(\b), 0x00
	.if \a == 1
	vpxord	zmm8, zmm11, zmm14
	.else
	vpternlogd zmm8, zmm11, zmm14, 0x96
	.endif
	vpclmulqdq zmm11, zmm12, GP(\a), 0x11
	vpclmulqdq zmm14, zmm13, GP(\b), 0x11
	.if \a == 1
	vpxord	zmm10, zmm11, zmm14
	.else
	vpternlogd zmm10, zmm11, zmm14, 0x96
	.endif
.endm
.macro GH_PB a
	vpunpcklqdq zmm11, zmm12, zmm13
	vpunpckhqdq zmm14, zmm12, zmm13
	vpxord	zmm11, zmm11, zmm14
	vpclmulqdq zmm12, zmm11, KP(\a / 2), 0x00
	vpclmulqdq zmm13, zmm11, KP(\a / 2), 0x11
	.if \a == 1
	vpxord	zmm9, zmm12, zmm13
	.else
	vpternlogd zmm9, zmm12, zmm13, 0x96
	.endif
.endm
/* Karatsuba's middle product: MI += LO + HI */
.macro GH_KFIX
	vpternlogd zmm9, zmm8, zmm10, 0x96
.endm

/*
 * The frame of the routines that run GH_32 (rbp saved, rsp 64-aligned):
 * KY.  KUNFRAME wipes it and leaves.
 */
.macro KFRAME
	PUSH_CFI rbp
	mov	rbp, rsp
	.cfi_def_cfa_register rbp
	and	rsp, -64
	sub	rsp, 64
.endm
.macro KUNFRAME
	vpxord	xmm13, xmm13, xmm13
	vmovdqa64 KY, zmm13
	mov	rsp, rbp
	.cfi_def_cfa_register rsp
	POP_CFI	rbp
.endm

/*
 * Reduce LO + MI x^64 + HI x^128 (reflected: the low qword holds the
 * highest degrees) into HI, lane by lane.  LO's low qword D is cancelled
 * by adding D x^64 g(x): D x 0xc2.. lands on LO's high qword and MI's
 * low, D itself on MI's high - so MI += swap(LO) + clmul; the same once
 * more from MI into HI.
 */
.macro GH_RED1
	vpclmulqdq zmm13, zmm8, [rip + .Lgcm_poly], 0x10
	vpshufd	zmm8, zmm8, 0x4e
	vpternlogd zmm9, zmm8, zmm13, 0x96
.endm
.macro GH_RED2
	vpclmulqdq zmm13, zmm9, [rip + .Lgcm_poly], 0x10
	vpshufd	zmm9, zmm9, 0x4e
	vpternlogd zmm10, zmm9, zmm13, 0x96
.endm
/* y, xmm14 = the sum of zmm10's four lanes */
.macro GH_FOLD
	vextracti64x4 ymm13, zmm10, 1
	vpxord	ymm13, ymm10, ymm13
	vextracti32x4 xmm14, ymm13, 1
	vpxord	xmm14, xmm14, xmm13
.endm
/* the same, and y stored to KY for the next step */
.macro GH_FOLDY
	GH_FOLD
	vmovdqa64 KY, zmm14
.endm
/* y = GHASH of the 512 bytes at [\p] continued from y (KY; xmm14 too) */
.macro GH_32 p
	GH_PA	\p, 1, 2
	GH_PB	1
	GH_PA	\p, 3, 4
	GH_PB	3
	GH_PA	\p, 5, 6
	GH_PB	5
	GH_PA	\p, 7, 0
	GH_PB	7
	GH_KFIX
	GH_RED1
	GH_RED2
	GH_FOLDY
.endm

/* zmm\r = the next four counter blocks ^ rk[0], from zmm11 (the next four
 * in little-endian form - the block reversed: inc32 is a VPADDD - made
 * from zmm16 where a run of CTR4 starts), which advances */
.macro CTR4 r
	vpshufb	zmm\r, zmm11, zmm31
	vpaddd	zmm11, zmm11, [rip + .Lgcm_four]
	vpxord	zmm\r, zmm\r, zmm15
.endm

/* One AES round on zmm0-7 (ROUNDS_NR: the key in zmm\k), and after the
 * rounds every key size has (j = 9 .. 1) a piece of GH_32 of [\p]: the
 * stitch. */
.macro GCM_R j, k, p
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vaesenc	zmm\i, zmm\i, zmm\k
	.endr
	.if \j == 9
	GH_PA	\p, 1, 2
	.elseif \j == 8
	GH_PB	1
	.elseif \j == 7
	GH_PA	\p, 3, 4
	.elseif \j == 6
	GH_PB	3
	.elseif \j == 5
	GH_PA	\p, 5, 6
	.elseif \j == 4
	GH_PB	5
	.elseif \j == 3
	GH_PA	\p, 7, 0
	.elseif \j == 2
	GH_PB	7
	GH_KFIX
	GH_RED1
	.elseif \j == 1
	GH_RED2
	GH_FOLDY
	.endif
.endm

/* the last round of zmm0-7, ^ in, stored */
.macro GCM_OUT8
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vaesenclast zmm\i, zmm\i, zmm30
	vpxord	zmm\i, zmm\i, [rcx + 64*\i]
	vmovdqu64 [r8 + 64*\i], zmm\i
	.endr
.endm

/*
 * The counters of zmm0-7 (^ rk[0]).  While the step's 32 counters and
 * the next step's first four leave the low byte of the step's first
 * (edx, little-endian) without a carry - 7 steps in 8 - they are zmm16
 * (the four next counters as blocks) plus 4j in the last byte of each, a
 * VPADDD each, and zmm16 advances by 32 the same way; else CTR4 from
 * zmm16 reversed, and zmm16 again from its result.
 */
.macro CTR32
	cmp	dl, 256 - 32 - 4
	ja	77f
	vpxord	zmm0, zmm16, zmm15
	.irp	i, 1, 2, 3, 4, 5, 6, 7
	vpaddd	zmm\i, zmm16, [rip + .Lgcm_be + 64*\i]
	vpxord	zmm\i, zmm\i, zmm15
	.endr
	vpaddd	zmm16, zmm16, [rip + .Lgcm_be + 64*8]
	jmp	78f
77:	vpshufb	zmm11, zmm16, zmm31
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	CTR4	\i
	.endr
	vpshufb	zmm16, zmm11, zmm31
78:	add	edx, 32
.endm

/*
 * cb_vaes512_ghash's tail of \n (register; 1-511) bytes: r11 =
 * &hpow[33 - ceil(n / 16)] (its first block's power), y moved to xmm12
 * (added to the first 64 bytes only), LO, MI, HI zeroed; then per 64
 * bytes (k1 = their byte mask) GH_TAILMUL multiplies zmm\r by [r11].
 */
.macro GH_TAILSET n
	lea	r11, [\n + 15]
	shr	r11, 4
	shl	r11, 4
	neg	r11
	lea	r11, [rdi + CB_GCM_HEND + r11]
	vmovdqa	xmm12, xmm14
	vpxor	xmm8, xmm8, xmm8
	vpxor	xmm9, xmm9, xmm9
	vpxor	xmm10, xmm10, xmm10
.endm
/* k1 = the low min(\n, 64) bytes; clobbers \t */
.macro BYTEMASK n, t
	mov	\t, -1
	cmp	\n, 64
	jae	79f
	bzhi	\t, \t, \n
79:	kmovq	k1, \t
.endm
/* LO, MI, HI += zmm\r (zero-padded) reflected, + zmm12 (y, then zeroed),
 * x the powers at [r11] */
.macro GH_TAILMUL r
	vpshufb	zmm\r, zmm\r, zmm31
	vpxord	zmm\r, zmm\r, zmm12
	vpxor	xmm12, xmm12, xmm12
	vmovdqu64 zmm4, [r11]
	vpclmulqdq zmm2, zmm\r, zmm4, 0x00
	vpclmulqdq zmm3, zmm\r, zmm4, 0x11
	vpxord	zmm8, zmm8, zmm2
	vpxord	zmm10, zmm10, zmm3
	vpclmulqdq zmm2, zmm\r, zmm4, 0x01
	vpclmulqdq zmm3, zmm\r, zmm4, 0x10
	vpternlogd zmm9, zmm2, zmm3, 0x96
.endm

/* a round of AES(J0) in xmm6 (ZGCM) */
.macro XR j, k, rest:vararg
	vaesenc	xmm6, xmm6, xmm\k
.endm

/*
 * The request's last group, hashed as one: (small: the AAD,) the text's
 * last r10 (0-511) bytes, and the lengths block, block i of the N times
 * H^(N-i) and reduced once (y, xmm14, added to the first); the text's
 * AES 64 bytes at a time under a byte mask.  In: req->s = AES(J0) (ZGCM
 * made it first); out: req->s = AES(J0) ^ GHASH.  rbx scratch (saved by
 * the caller).
 */
.macro GCM_FINAL enc, small
	vmovdqa	xmm12, xmm14
	vpxor	xmm8, xmm8, xmm8
	vpxor	xmm9, xmm9, xmm9
	vpxor	xmm10, xmm10, xmm10
	.if \small
	/* the AAD's powers: H^N from N = nA + nC + 1 */
	mov	r9, [rsi + CB_GCMREQ_ADLEN]
	mov	rdx, [rsi + CB_GCMREQ_AD]
	lea	r11, [r9 + 15]
	shr	r11, 4
	lea	rbx, [r10 + 15]
	shr	rbx, 4
	lea	r11, [r11 + rbx + 1]
	shl	r11, 4
	neg	r11
	lea	r11, [rdi + CB_GCM_HEND + r11]
	test	r9, r9
	jz	72f
71:	BYTEMASK r9, rbx
	vmovdqu8 zmm1{k1}{z}, [rdx]
	GH_TAILMUL 1
	add	rdx, 64
	add	r11, 64
	sub	r9, 64
	ja	71b
72:
	.endif
	/* the text's powers: H^(nC + 1) .. H^2 */
	lea	r11, [r10 + 15]
	shr	r11, 4
	shl	r11, 4
	neg	r11
	lea	r11, [rdi + CB_GCM_HEND - 16 + r11]
	test	r10, r10
	jz	74f
	vpshufb	zmm11, zmm16, zmm31
73:	BYTEMASK r10, rbx
	CTR4	0
	ZROUNDS	1, vaesenc
	vaesenclast zmm0, zmm0, zmm30
	vmovdqu8 zmm1{k1}{z}, [rcx]
	vpxord	zmm0, zmm0, zmm1
	vmovdqu8 [r8]{k1}, zmm0
	.if \enc
	vmovdqu8 zmm1{k1}{z}, zmm0
	.endif
	GH_TAILMUL 1
	add	rcx, 64
	add	r8, 64
	add	r11, 64
	sub	r10, 64
	ja	73b
74:	/* the lengths block (reflected: le64(len bits), le64(AAD bits)) x H */
	mov	rax, [rsi + CB_GCMREQ_LEN]
	shl	rax, 3
	vmovq	xmm1, rax
	mov	rax, [rsi + CB_GCMREQ_ADLEN]
	shl	rax, 3
	vpinsrq	xmm1, xmm1, rax, 1
	vpxord	xmm1, xmm1, xmm12
	vmovdqu	xmm4, [rdi + CB_GCM_HEND - 16]
	vpclmulqdq xmm2, xmm1, xmm4, 0x00
	vpclmulqdq xmm3, xmm1, xmm4, 0x11
	vpxord	zmm8, zmm8, zmm2
	vpxord	zmm10, zmm10, zmm3
	vpclmulqdq xmm2, xmm1, xmm4, 0x01
	vpclmulqdq xmm3, xmm1, xmm4, 0x10
	vpternlogd zmm9, zmm2, zmm3, 0x96
	GH_RED1
	GH_RED2
	GH_FOLD
	vpshufb	xmm14, xmm14, xmm31
	vpxord	xmm14, xmm14, [rsi + CB_GCMREQ_S]
	vmovdqu	[rsi + CB_GCMREQ_S], xmm14
.endm

/*
 * void cb_vaes512_gcm_enc(const struct cb_gcm_key *k, struct cb_gcm_req
 * *r)   (and _dec, _enc_small, _dec_small): rdi, rsi; r10 = the bytes
 * left, rcx = in, r8 = out.  AES(J0) goes to req->s first.  Encryption
 * runs the first 32 blocks' AES alone and then, a step at a time, the
 * next 32 blocks' rounds with the GHASH of the last 32 ciphertext blocks
 * between them; decryption hashes the 32 blocks it decrypts.  Then GCM_FINAL.  _small: no steps, the AAD
 * in GCM_FINAL's group.
 */
.macro ZGCM name, enc, small
	FUNC	\name
	PUSH_CFI rbx
	mov	rcx, [rsi + CB_GCMREQ_IN]
	mov	r8, [rsi + CB_GCMREQ_OUT]
	mov	r10, [rsi + CB_GCMREQ_LEN]
	ZKEYS	CB_GCM_AES
	vbroadcasti32x4 zmm31, [rip + .Lgcm_bswap]
	vbroadcasti32x4 zmm11, [rsi + CB_GCMREQ_J0]
	vpshufb	zmm11, zmm11, zmm31
	vpaddd	zmm11, zmm11, [rip + .Lgcm_lanes]
	vpshufb	zmm16, zmm11, zmm31
	mov	edx, [rsi + CB_GCMREQ_J0 + 12]
	bswap	edx
	inc	edx
	vmovdqu	xmm6, [rsi + CB_GCMREQ_J0]	/* s = AES(J0), under the first step */
	vpxord	xmm6, xmm6, xmm15
	ROUNDS_NR XR
	vaesenclast xmm6, xmm6, xmm30
	vmovdqu	[rsi + CB_GCMREQ_S], xmm6
	.if \small
	vpxor	xmm14, xmm14, xmm14
	.else
	KFRAME
	vmovdqu	xmm14, [rsi + CB_GCMREQ_Y]
	vmovdqa64 KY, zmm14
	sub	r10, 512
	jb	5f
	.if \enc
	CTR32
	ZROUNDS	8, vaesenc
	GCM_OUT8
	add	rcx, 512
	add	r8, 512
	sub	r10, 512
	jb	4f
	.endif
	.p2align 4
1:	CTR32
	.if \enc
	ROUNDS_NR GCM_R, r8-512
	.else
	ROUNDS_NR GCM_R, rcx
	.endif
	GCM_OUT8
	add	rcx, 512
	add	r8, 512
	sub	r10, 512
	jae	1b
	.if \enc
4:	GH_32	r8-512
	.endif
5:	add	r10, 512
	.endif
	GCM_FINAL \enc, \small
	.if !\small
	KUNFRAME
	.endif
	POP_CFI	rbx
	vzeroupper
	ret
	ENDFUNC	\name
.endm

	ZGCM	cb_vaes512_gcm_enc, 1, 0
	ZGCM	cb_vaes512_gcm_dec, 0, 0
	ZGCM	cb_vaes512_gcm_enc_small, 1, 1
	ZGCM	cb_vaes512_gcm_dec_small, 0, 1

/* void cb_vaes512_ghash(const struct cb_gcm_key *k, uint8_t y[16],
 *         const uint8_t *in, size_t len): rdi, rsi, rdx, rcx */
	FUNC	cb_vaes512_ghash
	test	rcx, rcx
	jz	8f
	vbroadcasti32x4 zmm31, [rip + .Lgcm_bswap]
	vmovdqu	xmm14, [rsi]
	KFRAME
	vmovdqa64 KY, zmm14
	sub	rcx, 512
	jb	5f
1:	GH_32	rdx
	add	rdx, 512
	sub	rcx, 512
	jae	1b
5:	add	rcx, 512
	jz	7f
	GH_TAILSET rcx
6:	BYTEMASK rcx, rax
	vmovdqu8 zmm1{k1}{z}, [rdx]
	GH_TAILMUL 1
	add	rdx, 64
	add	r11, 64
	sub	rcx, 64
	ja	6b
	GH_RED1
	GH_RED2
	GH_FOLD
7:	vmovdqu	[rsi], xmm14
	KUNFRAME
	vzeroupper
8:	ret
	ENDFUNC	cb_vaes512_ghash

	.section .rodata
	.p2align 6
.Lgcm_poly:				/* x^-1, reflected: the reduction   */
	.rept	4
	.quad	1, 0xc200000000000000
	.endr
.Lgcm_four:				/* four blocks on each counter      */
	.rept	4
	.long	4, 0, 0, 0
	.endr
.Lgcm_lanes:				/* lane i: J0 + 1 + i               */
	.long	1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0
.Lgcm_be:				/* 4j on a block's last byte, j=0-8 */
	.irp	j, 0, 1, 2, 3, 4, 5, 6, 7, 8
	.rept	4
	.long	0, 0, 0, (4 * \j) << 24
	.endr
	.endr
.Lgcm_bswap:				/* vpshufb: a lane's bytes reversed */
	.byte	15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
	.text

/* ---- the throughput probe (cb_native_limits) ----------------------------- */

/* void cb_vaes512_probe(uint64_t n): the probe on zmm (AES_PROBE) */
	AES_PROBE cb_vaes512_probe, z

/*
 * void cb_vaes512_gcm_probe128(uint64_t n) (and 256): n x the AES and
 * VPCLMULQDQ of one 32-block step of cb_vaes512_gcm_enc with a 128-bit
 * (256-bit) key - 8 chains of 10 (14) VAESENC on zmm, and 26 independent
 * VPCLMULQDQ on zmm (8 x 3 Karatsuba products and 2 for the reduction)
 * spread over the rounds: the bound of the two instructions the step
 * cannot do without, whatever ports they share.  The loads, stores, XORs
 * and shuffles the routine adds around them are what it loses to the
 * bound (docs/native.md, "The bound").
 */
.macro GCM_PROBE name, nr
	FUNC	\name
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
	vpxord	zmm\i, zmm\i, zmm\i
	.endr
1:	.set	.Lcl_done, 0
	.irp	r, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14
	.if	\r <= \nr
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vaesenc	zmm\i, zmm\i, zmm8
	.endr
	.rept	(26 * \r) / \nr - .Lcl_done
	vpclmulqdq zmm10, zmm9, zmm9, 0x00
	.endr
	.set	.Lcl_done, (26 * \r) / \nr
	.endif
	.endr
	dec	rdi
	jnz	1b
	vzeroupper
	ret
	ENDFUNC	\name
.endm
	GCM_PROBE cb_vaes512_gcm_probe128, 10
	GCM_PROBE cb_vaes512_gcm_probe256, 14

#endif /* __x86_64__ */
