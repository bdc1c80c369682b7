/*
 * runner.h - the timed request loops of `speed`: one prepared runner per
 * point, its loop (a cb_run_fn for the timing engine) and the buffers the
 * requests go through.  The lowest layer of speed: it knows an
 * implementation, a direction and a request model, nothing of plans.
 */
#ifndef CB_RUNNER_H
#define CB_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#include "core/cb.h"
#include "measure/speed.h"
#include "foundation/timing.h"

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
	unsigned mb;                /* --mb: requests per submission, or 0  */
	int started;
	uint8_t iv[CB_MAX_BLOCK];
	uint8_t tag[CB_MAX_DIGEST];
	uint8_t ad[AEAD_AD_LEN];
	uint8_t digest[CB_MAX_DIGEST];
	cb_crypt_fn crypt;
	uint8_t mbiv[CB_MB_MAX][CB_MAX_BLOCK];   /* --mb: each request's IV */
};

/* Request buffers: ours and the reference's, each size bytes, on a page. */
struct bufs {
	uint8_t *a, *a2, *b, *b2;
	size_t size;
};

/* The per-request ring: slot stride, slot count and total bytes (with
 * --mb N at least N slots: every request in flight has its own). */
size_t runner_ring_stride(size_t len);
size_t runner_ring_slots(size_t len, unsigned mb);
size_t runner_ring_bytes(size_t len, unsigned mb);

/* Timed loops (cb_run_fn): n requests each. */
int runner_cipher_fresh(void *arg, uint64_t n);
int runner_cipher_once(void *arg, uint64_t n);
int runner_cipher_sectors(void *arg, uint64_t n);
int runner_cipher_mb(void *arg, uint64_t n);

/* The loop for a prepared runner, and its preparation. */
cb_run_fn runner_fn(const struct runner *r);
int runner_prep(struct runner *r, struct cb_inst *inst, int dir,
                int iv_once, size_t sector, unsigned mb, uint8_t *buf,
                uint8_t *buf2, size_t len);

/* Allocate the four buffers of bf->size bytes each, on a page; free them. */
void runner_bufs_alloc(struct bufs *bf);
void runner_bufs_free(struct bufs *bf);

/* "what: strerror(-rc): the library's last error", allocated; clears it. */
char *runner_err(const char *what, int rc);

#endif
