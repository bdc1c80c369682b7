/*
 * native_ce.h - the contracts of the native backend's AArch64 routines
 * (backends/native/aarch64/aes_ce.c: the ARMv8 Crypto Extensions, AESE/
 * AESMC/AESD/AESIMC, through the ACLE intrinsics, one instruction each).
 *
 * Common contract, every routine:
 *   - AAPCS64; no alignment required of in/out/iv/chain buffers; key
 *     schedules are struct cb_aes_key (native_asm.h's layout: enc[0..nr],
 *     the Equivalent Inverse Cipher's dec[0..nr], rounds);
 *   - len is a multiple of 16 (0 is a no-op except where said);
 *   - in == out (in place) is allowed; otherwise they do not overlap;
 *   - the caller (native_arm64.h) has checked getauxval(AT_HWCAP) for
 *     HWCAP_AES before any routine runs;
 *   - nothing is allocated; nothing outside the arguments is touched.
 *
 * Interleave: the throughput-bound routines keep 8 blocks in flight.  An
 * AESE+AESMC pair (fused in the pipeline on every core below) has a
 * latency of 3 cycles and one pipe on Cortex-A57/A72 (3 in flight keep
 * it busy), 2 cycles and two pipes on Neoverse N1 (4 in flight), 2
 * cycles and four pipes on Neoverse V1 and V2 (8 in flight) - Arm's
 * Software Optimization Guides for each core, "AES" rows of the ASIMD
 * crypto table.  8 covers the widest, and on the narrow cores costs only
 * registers (8 states + 15 round keys fit the 32 vector registers).
 */
#ifndef CB_NATIVE_CE_H
#define CB_NATIVE_CE_H

#include <stddef.h>
#include <stdint.h>

#include "native_asm.h"

/* Expand a 16-, 24- or 32-byte key into k (the S-box through AESE). */
void cb_ce_expand_key(struct cb_aes_key *k, const uint8_t *key,
                      size_t keylen);

/* ECB, 8 blocks in flight. */
void cb_ce_ecb_enc(const struct cb_aes_key *k, const uint8_t *in,
                   uint8_t *out, size_t len);
void cb_ce_ecb_dec(const struct cb_aes_key *k, const uint8_t *in,
                   uint8_t *out, size_t len);

/* CBC of one chain: encryption at the latency bound (nr pairs a block),
 * decryption 8 blocks in flight.  iv is read before chain is written
 * with the last ciphertext block (the IV when len == 0); iv == chain
 * continues a chain. */
void cb_ce_cbc_enc(const struct cb_aes_key *k, const uint8_t iv[16],
                   uint8_t chain[16], const uint8_t *in, uint8_t *out,
                   size_t len);
void cb_ce_cbc_dec(const struct cb_aes_key *k, const uint8_t iv[16],
                   uint8_t chain[16], const uint8_t *in, uint8_t *out,
                   size_t len);

/* The seed's fused ESSIV-CBC (aes_essiv_cbc_encrypt in the kernel's
 * arch/arm64/crypto): IV = AES-256-ENC(c->salt, iv), then CBC with
 * c->key, in one routine; the last ciphertext block (len 0: the IV) goes
 * to c->iv. */
void cb_ce_essiv_cbc_enc(struct cb_native_ctx *c, const uint8_t iv[16],
                         const uint8_t *in, uint8_t *out, size_t len);
void cb_ce_essiv_cbc_dec(struct cb_native_ctx *c, const uint8_t iv[16],
                         const uint8_t *in, uint8_t *out, size_t len);

/* CBC encryption of 8 independent chains interleaved: chain i reads len
 * bytes from l->in[i], writes them to l->in[i] + out_delta, from
 * l->iv[i]; every chain's block at an offset is read before any is
 * written (so a repeated chain writes the same bytes twice). */
void cb_ce_cbc_enc_lanes8(const struct cb_aes_key *k, const struct cb_lanes *l,
                          ptrdiff_t out_delta, size_t len);

/* XTS over whole blocks from the encrypted tweak tweak[] (advanced past
 * the last block on return), 8 blocks in flight; the caller steals
 * ciphertext for a partial last block. */
void cb_ce_xts_enc(const struct cb_aes_key *k, uint8_t tweak[16],
                   const uint8_t *in, uint8_t *out, size_t len);
void cb_ce_xts_dec(const struct cb_aes_key *k, uint8_t tweak[16],
                   const uint8_t *in, uint8_t *out, size_t len);

/* AES-GCM (gcm_ce.c) with native_asm.h's contract of cb_aesni_gcm_enc/
 * _dec/_ghash: whole blocks, y the GHASH state as an operand, ctr the
 * first data block's counter (inc32); 8 blocks in flight, the GHASH of 8
 * blocks aggregated with H^8 .. H^1 and reduced once.  The caller has
 * also checked HWCAP_PMULL.  _gcm_probe128/256: n steps of 512 bytes of
 * the loop's independent AESE/AESMC and PMULL work (sysinfo's bound). */
void cb_ce_gcm_enc(const struct cb_gcm_key *k, uint8_t y[16],
                   const uint8_t ctr[16], const uint8_t *in, uint8_t *out,
                   size_t len);
void cb_ce_gcm_dec(const struct cb_gcm_key *k, uint8_t y[16],
                   const uint8_t ctr[16], const uint8_t *in, uint8_t *out,
                   size_t len);
void cb_ce_ghash(const struct cb_gcm_key *k, uint8_t y[16],
                 const uint8_t *in, size_t len);
void cb_ce_gcm_probe128(uint64_t n);
void cb_ce_gcm_probe256(uint64_t n);

/* The throughput probe: n iterations of 12 independent AESE+AESMC pairs;
 * and n iterations of 4 dependent adds (one a cycle: the clock). */
void cb_ce_probe(uint64_t n);
void cb_ce_probe_adds(uint64_t n);

#endif
