/*
 * native_path.h - what the native backend's files share: a code path's
 * routine table (struct path, filled per path by the architecture's half,
 * native_x86.h or native_arm64.h) and the two services native.c builds on
 * it - AES-GCM around a path's routines (native_gcm.c) and the CPU's
 * measured limits (native_limits.c).  Included by native.c, native_gcm.c
 * and native_limits.c only.
 */
#ifndef CB_NATIVE_PATH_H
#define CB_NATIVE_PATH_H

#include <stddef.h>
#include <stdint.h>

#include "native_asm.h"

struct cb_impl;

typedef void block_fn(const struct cb_aes_key *, const uint8_t *, uint8_t *,
                      size_t);
typedef void chain_fn(const struct cb_aes_key *, const uint8_t *, uint8_t *,
                      const uint8_t *, uint8_t *, size_t);
typedef void essiv_fn(struct cb_native_ctx *, const uint8_t *,
                      const uint8_t *, uint8_t *, size_t);
typedef void xts_fn(const struct cb_aes_key *, uint8_t *, const uint8_t *,
                    uint8_t *, size_t);
typedef void xts_iv_fn(const struct cb_native_ctx *, uint8_t *,
                       const uint8_t *, uint8_t *, size_t);
typedef void xts_sec_fn(const struct cb_aes_key *, const uint8_t (*)[16],
                        const uint8_t *, uint8_t *, size_t, size_t);
typedef void lanes_fn(const struct cb_aes_key *, const struct cb_lanes *,
                      ptrdiff_t, size_t);
typedef void gcm_fn(const struct cb_gcm_key *, uint8_t *, const uint8_t *,
                    const uint8_t *, uint8_t *, size_t);
typedef void ghash_fn(const struct cb_gcm_key *, uint8_t *, const uint8_t *,
                      size_t);
typedef void gcm_req_fn(const struct cb_gcm_key *, struct cb_gcm_req *);
typedef void essiv_lanes_fn(const struct cb_native_ctx *,
                            const struct cb_lanes *, ptrdiff_t, size_t);

/*
 * A code path's routines (the architecture's half fills one per path):
 * those of native_asm.h / native_ce.h with the same contracts, NULL where
 * the path has none.
 */
struct path {
	chain_fn *cbc_enc;        /* one CBC chain at the latency bound      */
	essiv_fn *essiv_enc;      /* the same, ESSIV's IV fused in front     */
	lanes_fn *lanes8;         /* 8 chains (batches of 8 or fewer)        */
	essiv_lanes_fn *essiv_lanes8;  /* the same, ESSIV fused; NULL: the
	                                  IVs by ecb_enc first             */
	block_fn *ecb_enc, *ecb_dec;
	chain_fn *cbc_dec;
	essiv_fn *essiv_dec;
	xts_fn *xts_enc, *xts_dec;
	xts_iv_fn *xts_enc_iv, *xts_dec_iv;  /* the same, the tweak encrypted
	                                        first; NULL: by ecb first   */
	xts_sec_fn *xts_enc_sec, *xts_dec_sec;   /* NULL: one call per sector */
	lanes_fn *lanes;          /* multi-sector CBC encryption             */
	lanes_fn *lanes_any;      /* the same for any multiple of 16         */
	size_t nlanes;
	lanes_fn *lanes32;        /* 32 lanes, multiples of 32 bytes; NULL:
	                             none (used past nlanes sectors)         */
	lanes_fn *lanes64;        /* 64 lanes, multiples of 64 bytes; NULL:
	                             none (4 KiB sectors, past 32 of them)   */
	size_t lane_mult;         /* sector sizes for `lanes`: its multiples
	                             (vaes256: the staged routine only pays
	                             where lanes share L1 sets)              */
	int halves;               /* sectors whose lanes would share L1 sets
	                             go in half-sector steps (enc_parts)    */
	void (*essiv8)(const struct cb_native_ctx *, const uint8_t *const *,
	               const uint8_t *const *, uint8_t *const *, size_t);
	                          /* up to 8 ESSIV requests from the batch's
	                             arrays; NULL: through cb_lanes        */
	gcm_fn *gcm_enc, *gcm_dec;   /* AES-GCM's one pass over whole blocks
	                                (gcm_crypt pads the last one) ...  */
	ghash_fn *ghash;             /* ... and GHASH alone (the AAD)       */
	gcm_req_fn *gcm_req[2][2];   /* or whole requests: [small][enc]     */
	void (*gcm_probe[2])(uint64_t);  /* AES + GHASH of a 512-byte GCM
	                             step, AES-128 and AES-256; NULL: none */
	void (*probe)(uint64_t);  /* the throughput probe (aes_rate) ...    */
	unsigned width;           /* ... on registers of this many blocks   */
};

/* ---- native_gcm.c: AES-GCM around a path's routines --------------------- */

#define GCM_CTX_SIZE (sizeof(struct cb_gcm_key) + 63)

int cb_native_gcm_setkey(void *vctx, const struct cb_impl *impl,
                         const uint8_t *key, size_t keylen);
void cb_native_gcm_free(void *vctx);
int cb_native_gcm_crypt(const struct path *p, int enc, void *vctx,
                        const uint8_t *iv, const uint8_t *ad, size_t adlen,
                        const uint8_t *in, uint8_t *out, size_t len,
                        uint8_t *tag, size_t taglen);

/* ---- native_limits.c: the CPU's limits, measured ------------------------ */

/*
 * The measured limits of path p (its name in the line), written to line
 * (n bytes): AES throughput, the batch floor, GCM's combined bound; NULL
 * where nothing could be timed.
 */
const char *cb_native_limit_line(const struct path *p, const char *name,
                                 char *line, size_t n);

#endif
