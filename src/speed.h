/*
 * speed.h - the pieces of `speed` and `bench` below the command: the
 * options, the plan, the timed request loops (runner), the correctness
 * gate (cross_check) and measure().  Used by src/speed.c and by
 * tests/test_speed_gate.c, which drives the gate and the loops directly.
 */
#ifndef CB_SPEED_H
#define CB_SPEED_H

#include <stddef.h>
#include <stdint.h>

#include "cb.h"
#include "result.h"
#include "timing.h"

#define MAX_SEL       32
#define MAX_BUF       (1u << 30)
#define AEAD_AD_LEN   24      /* dm-crypt: le64 sector || IV            */

struct sel_alg {
	const struct cb_alg *alg;
	const char *label;          /* as given, when kernel grammar        */
	unsigned key_mult;          /* geli alias: -l gives half the key   */
};

enum { DIR_DEC = 0, DIR_ENC = 1, DIR_DIGEST = 2 };

struct speed_opts {
	const struct cb_backend *backends[MAX_SEL];
	size_t nbackends;
	int all_backends;           /* defaulted: skip unavailable quietly */
	struct sel_alg algs[MAX_SEL];
	size_t nalgs;
	const char *driver_sub;
	uint64_t *keys;             /* --key-bits, or NULL for defaults      */
	size_t nkeys;
	uint64_t *sizes;
	size_t nsizes;
	double sec, warmup;
	unsigned reps;
	int enc, dec;
	int iv_once;
	uint64_t sector;
	int cycles;
	int progress;               /* 1 on, 0 off, -1 when stderr is a tty */
	const char *command;
};

/* One planned point. */
struct plan {
	const struct cb_impl *impl;
	const struct cb_backend *backend;
	const struct sel_alg *sel;
	int dir;
	unsigned key_bits;
	uint64_t size;
	const char *skip;           /* static reason, or NULL               */
};

/* ---- the timed request loops ------------------------------------------ */

struct runner {
	const struct cb_impl *impl;
	const struct cb_alg *alg;
	struct cb_inst *inst;
	void *ctx;
	int dir, iv_once;
	size_t sector;
	uint8_t *buf, *buf2;        /* buf2: AEAD decrypt output            */
	size_t len;
	size_t nring, stride;       /* per-request: requests rotate over
	                               nring buffers stride bytes apart     */
	uint64_t ctr;               /* request (or sector) number           */
	int started;
	uint8_t iv[CB_MAX_BLOCK];
	uint8_t tag[CB_MAX_DIGEST];
	uint8_t ad[AEAD_AD_LEN];
	uint8_t digest[CB_MAX_DIGEST];
	cb_crypt_fn crypt;
};

struct bufs {
	uint8_t *a, *a2, *b, *b2;   /* ours and the reference's           */
	size_t size;
};

/* The per-request ring: slot stride, slot count and total bytes. */
size_t ring_stride(size_t len);
size_t ring_slots(size_t len);
size_t ring_bytes(size_t len);

/* Timed loops (cb_run_fn): n requests each. */
int run_cipher_fresh(void *arg, uint64_t n);
int run_cipher_once(void *arg, uint64_t n);
int run_cipher_sectors(void *arg, uint64_t n);

/* The loop for a prepared runner, and its preparation. */
cb_run_fn runner_fn(const struct runner *r);
int runner_prep(struct runner *r, struct cb_inst *inst, int dir,
                int iv_once, size_t sector, uint8_t *buf,
                uint8_t *buf2, size_t len);

/* The deterministic benchmark key of key_bits; returns its length. */
size_t make_key(const struct cb_alg *alg, unsigned key_bits,
                uint8_t *key);

/* Another backend's implementation of alg to cross-check against. */
const struct cb_impl *pick_ref(const struct cb_impl *impl,
                               const struct cb_alg *alg,
                               unsigned key_bits);

/* The timed request sequence on mine and on ref: NULL or the reason. */
char *cross_check(struct cb_inst *mine, const struct cb_impl *ref,
                  const uint8_t *key, size_t keylen, int dir,
                  const struct speed_opts *o, struct bufs *bf,
                  size_t len);

/* Gate and time every point of the plan; returns how many failed. */
size_t measure(const struct speed_opts *o, const struct plan *p,
               size_t n, struct cb_result *res);

/* Defaults for every option. */
void opts_init(struct speed_opts *o);

#endif
