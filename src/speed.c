/*
 * speed.c - `cryptobench speed` and `cryptobench bench`: how fast each
 * algorithm, key size and request size runs on each backend.
 *
 * A run is planned first (every backend x implementation x direction x
 * key size x request size, with the points that cannot run marked
 * skipped), then measured, then handed to a writer.  Each series (one
 * implementation, direction and key) passes the correctness gate before
 * anything is timed: its known-answer vectors (kat_gate) and a cross-check
 * of the exact timed request sequence against another backend's
 * implementation.  The repetitions then go round robin over the points
 * (see measure()).  The timed loops below call the implementation through
 * its function pointers and nothing else; the timing engine (timing.c)
 * reads the clock once per batch.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cb.h"
#include "cmd.h"
#include "kat.h"
#include "output.h"
#include "result.h"
#include "speed.h"
#include "sysinfo.h"
#include "timing.h"
#include "util.h"

static const uint64_t seed_sizes[] = { 16, 64, 256, 1024, 1472, 8192 };
static const uint64_t kernel_sizes[] = { 16, 64, 128, 256, 1024, 1420, 4096 };

/* The seed's algorithms: `speed` without --alg. */
static const char *const default_algs[] = {
	"essiv(cbc(aes),sha256)", "cbc(aes)", NULL,
};
/* `bench`: the seed's algorithms of both reports. */
static const char *const bench_algs[] = {
	"essiv(cbc(aes),sha256)", "cbc(aes)", "xts(aes)", "cbc(camellia)",
	"cbc(blowfish)", "cbc(des3_ede)", "hmac(md5)", "hmac(sha1)",
	"hmac(rmd160)", "hmac(sha256)", "hmac(sha384)", "hmac(sha512)", NULL,
};


/*
 * The per-request ring: consecutive requests are different sectors, so
 * they go to different buffers (in place within each), up to 16 of them
 * in at most 64 KiB.  With one buffer, each request's input would be the
 * previous request's output and every implementation would be timed as
 * one dependent chain - latency, not the throughput a disk write sees.
 */
#define RING_BYTES (64 * 1024)
#define RING_MAX   16

size_t ring_stride(size_t len)
{
	return (len + 63) & ~(size_t)63;
}

size_t ring_slots(size_t len)
{
	size_t n = RING_BYTES / (ring_stride(len) ? ring_stride(len) : 64);

	return n < 1 ? 1 : n > RING_MAX ? RING_MAX : n;
}

/* Bytes of buffer a request model of len bytes touches. */
size_t ring_bytes(size_t len)
{
	return ring_slots(len) * ring_stride(len);
}

/* --iv per-request: every request gets its own IV, le64(request number)
 * (none for ecb and null), and its own buffer of the ring. */
int run_cipher_fresh(void *arg, uint64_t n)
{
	struct runner *r = arg;
	cb_crypt_fn crypt = r->crypt;
	void *ctx = r->ctx;
	uint8_t *base = r->buf, *iv = r->iv;
	const uint8_t *pass = r->alg->iv_len ? iv : NULL;
	size_t len = r->len, stride = r->stride, nring = r->nring;
	size_t slot = (size_t)(r->ctr % nring);
	uint64_t c = r->ctr;
	int rc;

	for (uint64_t i = 0; i < n; i++) {
		uint8_t *b = base + slot * stride;

		cb_put_le64(iv, c++);
		if ((rc = crypt(ctx, pass, b, b, len)) < 0)
			return rc;
		if (++slot == nring)
			slot = 0;
	}
	r->ctr = c;
	return 0;
}

/* --iv once: the IV set by the first request, later ones continue the
 * chain (iv NULL).  Algorithms without CB_F_STREAM get the same IV again. */
int run_cipher_once(void *arg, uint64_t n)
{
	struct runner *r = arg;
	cb_crypt_fn crypt = r->crypt;
	void *ctx = r->ctx;
	uint8_t *b = r->buf;
	const uint8_t *iv = r->alg->flags & CB_F_STREAM ? NULL : r->iv;
	size_t len = r->len;
	int rc;

	if (!n)
		return 0;
	if (!r->started) {
		r->started = 1;
		if ((rc = crypt(ctx, r->alg->iv_len ? r->iv : NULL, b, b,
		                len)) < 0)
			return rc;
		n--;
	}
	for (uint64_t i = 0; i < n; i++)
		if ((rc = crypt(ctx, iv, b, b, len)) < 0)
			return rc;
	return 0;
}

/* --sector-size: a request is len/sector consecutive sectors. */
int run_cipher_sectors(void *arg, uint64_t n)
{
	struct runner *r = arg;
	struct cb_inst *inst = r->inst;
	int enc = r->dir == DIR_ENC;
	uint8_t *b = r->buf;
	size_t len = r->len, sector = r->sector;
	uint64_t c = r->ctr, per = len / sector;
	int rc;

	for (uint64_t i = 0; i < n; i++, c += per)
		if ((rc = cb_inst_sectors(inst, enc, c, 1, sector, b, b, len)) < 0)
			return rc;
	r->ctr = c;
	return 0;
}

/* Hashes and MACs: init + update + final per request, as tcrypt. */
static int run_digest(void *arg, uint64_t n)
{
	struct runner *r = arg;
	const struct cb_impl *im = r->impl;
	int (*init)(void *) = im->init;
	int (*update)(void *, const uint8_t *, size_t) = im->update;
	int (*final)(void *, uint8_t *) = im->final;
	void *ctx = r->ctx;
	const uint8_t *b = r->buf;
	uint8_t *d = r->digest;
	size_t len = r->len;
	int rc;

	for (uint64_t i = 0; i < n; i++)
		if ((rc = init(ctx)) < 0 || (rc = update(ctx, b, len)) < 0 ||
		    (rc = final(ctx, d)) < 0)
			return rc;
	return 0;
}

/* AEAD encrypt in place; per-request IVs unless --iv once. */
static int run_aead_enc(void *arg, uint64_t n)
{
	struct runner *r = arg;
	int (*enc)(void *, const uint8_t *, const uint8_t *, size_t,
	           const uint8_t *, uint8_t *, size_t, uint8_t *, size_t) =
	        r->impl->aead_encrypt;
	void *ctx = r->ctx;
	uint8_t *b = r->buf, *iv = r->iv, *tag = r->tag;
	size_t len = r->len, taglen = r->alg->digest_len;
	uint64_t c = r->ctr;
	int rc;

	for (uint64_t i = 0; i < n; i++) {
		if (!r->iv_once)
			cb_put_le64(iv, c++);
		if ((rc = enc(ctx, iv, r->ad, AEAD_AD_LEN, b, b, len, tag,
		              taglen)) < 0)
			return rc;
	}
	r->ctr = c;
	return 0;
}

/* AEAD decrypt: verify and decrypt the same ciphertext out of place, so
 * every request authenticates (tcrypt also decrypts into a second
 * buffer). */
static int run_aead_dec(void *arg, uint64_t n)
{
	struct runner *r = arg;
	int (*dec)(void *, const uint8_t *, const uint8_t *, size_t,
	           const uint8_t *, uint8_t *, size_t, const uint8_t *,
	           size_t) = r->impl->aead_decrypt;
	void *ctx = r->ctx;
	const uint8_t *b = r->buf, *iv = r->iv, *tag = r->tag;
	uint8_t *o = r->buf2;
	size_t len = r->len, taglen = r->alg->digest_len;
	int rc;

	for (uint64_t i = 0; i < n; i++)
		if ((rc = dec(ctx, iv, r->ad, AEAD_AD_LEN, b, o, len, tag,
		              taglen)) < 0)
			return rc;
	return 0;
}

cb_run_fn runner_fn(const struct runner *r)
{
	switch (r->alg->kind) {
	case CB_HASH:
	case CB_MAC:
		return run_digest;
	case CB_AEAD:
		return r->dir == DIR_ENC ? run_aead_enc : run_aead_dec;
	case CB_CIPHER:
		break;
	}
	if (r->sector)
		return run_cipher_sectors;
	return r->iv_once ? run_cipher_once : run_cipher_fresh;
}

/*
 * Get a runner ready for requests of len bytes: counters from zero, the
 * IV and associated data fixed, and for AEAD decryption a ciphertext and
 * tag made by this implementation's encryption of the buffer.
 */
int runner_prep(struct runner *r, struct cb_inst *inst, int dir,
                       int iv_once, size_t sector, uint8_t *buf,
                       uint8_t *buf2, size_t len)
{
	r->impl = inst->impl;
	r->alg = inst->alg;
	r->inst = inst;
	r->ctx = inst->ctx;
	r->dir = dir;
	r->iv_once = iv_once;
	r->sector = inst->alg->kind == CB_CIPHER ? sector : 0;
	r->buf = buf;
	r->buf2 = buf2;
	r->len = len;
	r->stride = ring_stride(len);
	r->nring = ring_slots(len);
	r->ctr = 0;
	r->started = 0;
	memset(r->iv, 0, sizeof r->iv);
	memset(r->tag, 0, sizeof r->tag);
	for (int i = 0; i < AEAD_AD_LEN; i++)
		r->ad[i] = (uint8_t)(0xa0 + i);
	r->crypt = dir == DIR_ENC ? r->impl->encrypt : r->impl->decrypt;
	if (r->alg->kind == CB_AEAD && dir == DIR_DEC) {
		cb_put_le64(r->iv, 0x5ec7);
		return r->impl->aead_encrypt(r->ctx, r->iv, r->ad, AEAD_AD_LEN,
		                             buf, buf, len, r->tag,
		                             r->alg->digest_len);
	}
	return 0;
}

/* ---- keys and the correctness gate ------------------------------------- */

/* A random key of key_bits for alg; AEAD: the kernel's rtattr blob with a
 * 32-byte HMAC key.  Returns the key length. */
size_t make_key(const struct cb_alg *alg, unsigned key_bits,
                       uint8_t *key)
{
	size_t ek = key_bits / 8;

	if (alg->kind == CB_HASH)
		return 0;
	if (alg->kind != CB_AEAD) {
		cb_random(key, ek);
		if ((alg->flags & CB_F_XTS) && ek >= 2 &&
		    !memcmp(key, key + ek / 2, ek / 2))
			key[0] ^= 1;     /* OpenSSL refuses equal halves */
		return ek;
	}
	key[0] = 8, key[1] = 0, key[2] = 1, key[3] = 0;     /* rta_len, type */
	key[4] = 0, key[5] = 0, key[6] = (uint8_t)(ek >> 8), key[7] = (uint8_t)ek;
	cb_random(key + 8, 32 + ek);
	return 8 + 32 + ek;
}

/* Another backend's implementation of alg with this key size: openssl
 * first (unless impl is openssl's), then the others in table order. */
const struct cb_impl *pick_ref(const struct cb_impl *impl,
                                      const struct cb_alg *alg,
                                      unsigned key_bits)
{
	const struct cb_backend *mine = cb_impl_backend(impl);
	const struct cb_backend *order[MAX_SEL];
	size_t n = 0;
	const struct cb_backend *ossl = cb_backend_find("openssl");

	if (ossl && ossl != mine)
		order[n++] = ossl;
	for (int i = 0; cb_backends[i] && n < MAX_SEL; i++)
		if (cb_backends[i] != mine && cb_backends[i] != ossl)
			order[n++] = cb_backends[i];
	for (size_t i = 0; i < n; i++) {
		const struct cb_impl *c;

		if (cb_backend_status(order[i], NULL) < 0)
			continue;
		for (int k = 0; (c = cb_impl_find(order[i], alg->name, k)); k++)
			if (cb_impl_status(c, NULL) == 0 &&
			    cb_impl_key_ok(c, alg, key_bits))
				return c;
	}
	return NULL;
}

/*
 * Request buffers start on a page.  Where a buffer sits within its 4 KiB
 * page decides whether its loads falsely alias a library's own stores (its
 * IV and context) on x86 - that alone moved 16-byte CBC results by 1.5x
 * between runs whose heaps differed - so the offset is fixed, not left to
 * the allocation history.
 */
static void *page_aligned(size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, (n + 4095) & ~(size_t)4095)) {
		cb_err("out of memory (%zu bytes)", n);
		exit(CB_EXIT_USAGE);
	}
	return p;
}


static char *fmt_err(const char *what, int rc)
{
	char buf[400];
	const char *le = cb_last_error();

	snprintf(buf, sizeof buf, "%s: %s%s%s", what, strerror(-rc),
	         le[0] ? ": " : "", le);
	cb_clear_error();
	return cb_xstrdup(buf);
}

/*
 * Cross-check: run the same two requests of len bytes (the timed request
 * model exactly) on impl and on ref, keyed alike from the same buffer,
 * and compare every output byte.  NULL if they agree, else the reason.
 */
char *cross_check(struct cb_inst *mine, const struct cb_impl *ref,
                         const uint8_t *key, size_t keylen, int dir,
                         const struct speed_opts *o, struct bufs *bf,
                         size_t len)
{
	struct cb_inst other = {0};
	struct runner ra, rb;
	int rc;
	char *why = NULL;
	const struct cb_alg *alg = mine->alg;

	if ((rc = cb_inst_new(&other, ref, key, keylen)) < 0) {
		cb_clear_error();
		return NULL;   /* the reference cannot take this key: unchecked */
	}
	cb_random(bf->a, ring_bytes(len));
	memcpy(bf->b, bf->a, ring_bytes(len));
	memset(bf->a2, 0, len);
	memset(bf->b2, 0, len);
	if ((rc = runner_prep(&ra, mine, dir, o->iv_once, o->sector, bf->a,
	                      bf->a2, len)) < 0 ||
	    (rc = runner_fn(&ra)(&ra, 2)) < 0) {
		why = fmt_err("error in the check run", rc);
		goto out;
	}
	if ((rc = runner_prep(&rb, &other, dir, o->iv_once, o->sector, bf->b,
	                      bf->b2, len)) < 0 ||
	    (rc = runner_fn(&rb)(&rb, 2)) < 0) {
		cb_clear_error();
		goto out;      /* the reference failed: nothing to compare */
	}
	if (memcmp(bf->a, bf->b, ring_bytes(len)) ||
	    (alg->kind == CB_AEAD && (memcmp(ra.tag, rb.tag, alg->digest_len) ||
	                              memcmp(bf->a2, bf->b2, len))) ||
	    ((alg->kind == CB_HASH || alg->kind == CB_MAC) &&
	     memcmp(ra.digest, rb.digest, alg->digest_len))) {
		char buf[300];

		snprintf(buf, sizeof buf, "output of a %zu-byte request differs "
		         "from %s (%s)", len, ref->driver,
		         cb_impl_backend(ref)->name);
		why = cb_xstrdup(buf);
	}
out:
	cb_inst_free(&other);
	return why;
}

/* ---- planning ------------------------------------------------------------ */

static void default_keys(const struct cb_alg *a, unsigned *k, size_t *n)
{
	*n = 0;
	if (a->flags & (CB_F_NOKEY | CB_F_ANYKEY) || cb_alg_key_range(a)) {
		k[(*n)++] = a->key.std[0];
		return;
	}
	for (int i = 0; i < CB_KEY_STD && a->key.std[i]; i++)
		k[(*n)++] = a->key.std[i];
}

static const char *size_skip(const struct cb_alg *a, uint64_t size,
                             uint64_t sector)
{
	static char buf[8][96];
	static int slot;
	char *b = buf[slot++ % 8];

	if (a->kind == CB_HASH || a->kind == CB_MAC)
		return NULL;
	if (size < a->min_len) {
		snprintf(b, 96, "shorter than the %u-byte minimum", a->min_len);
		return b;
	}
	if (a->kind == CB_CIPHER && sector) {
		if (size % sector) {
			snprintf(b, 96, "not a whole number of %llu-byte sectors",
			         (unsigned long long)sector);
			return b;
		}
		if (a->flags & CB_F_BLOCKLEN && sector % a->block) {
			snprintf(b, 96, "the sector is not a multiple of the "
			         "%u-byte block", a->block);
			return b;
		}
		if (sector < a->min_len) {
			snprintf(b, 96, "the sector is shorter than the %u-byte "
			         "minimum", a->min_len);
			return b;
		}
	}
	if (a->flags & CB_F_BLOCKLEN && size % a->block) {
		snprintf(b, 96, "not a multiple of the %u-byte block", a->block);
		return b;
	}
	return NULL;
}

/* The points to measure, in output order: alg, backend, implementation,
 * direction, key, size.  Returns the number (0: nothing available). */
static size_t make_plan(const struct speed_opts *o, struct plan **out,
                        char ***notes, size_t *nnotes)
{
	struct plan *p = NULL;
	size_t n = 0, cap = 0;

	*notes = NULL;
	*nnotes = 0;
	for (size_t ai = 0; ai < o->nalgs; ai++) {
		const struct sel_alg *sa = &o->algs[ai];
		const struct cb_alg *a = sa->alg;
		unsigned keys[16];
		size_t nk = 0;
		int dirs[2], nd = 0;

		if (a->kind == CB_HASH || a->kind == CB_MAC) {
			dirs[nd++] = DIR_DIGEST;
		} else {
			if (o->enc)
				dirs[nd++] = DIR_ENC;
			if (o->dec)
				dirs[nd++] = DIR_DEC;
		}
		if (!o->keys || a->flags & CB_F_NOKEY)
			default_keys(a, keys, &nk);
		else
			for (size_t k = 0; k < o->nkeys && nk < 16; k++)
				if (cb_alg_key_ok(a, (unsigned)o->keys[k] * sa->key_mult))
					keys[nk++] = (unsigned)o->keys[k] * sa->key_mult;
		for (size_t bi = 0; bi < o->nbackends; bi++) {
			const struct cb_backend *b = o->backends[bi];
			const struct cb_impl *impl;
			const char *why;

			if (cb_backend_status(b, &why) < 0)
				continue;
			for (int k = 0; (impl = cb_impl_find(b, a->name, k)); k++) {
				if (o->driver_sub && !strstr(impl->driver, o->driver_sub))
					continue;
				if (cb_impl_status(impl, &why) < 0) {
					char msg[300];

					snprintf(msg, sizeof msg, "%s %s: unavailable: %s",
					         b->name, impl->driver, why);
					*notes = cb_xrealloc(*notes, (*nnotes + 1) *
					                     sizeof **notes);
					(*notes)[(*nnotes)++] = cb_xstrdup(msg);
					continue;
				}
				for (int d = 0; d < nd; d++)
					for (size_t kk = 0; kk < nk; kk++)
						for (size_t s = 0; s < o->nsizes; s++) {
							struct plan *q;

							if (n == cap) {
								cap = cap ? 2 * cap : 64;
								p = cb_xrealloc(p, cap * sizeof *p);
							}
							q = &p[n++];
							q->impl = impl;
							q->backend = b;
							q->sel = sa;
							q->dir = dirs[d];
							q->key_bits = keys[kk];
							q->size = o->sizes[s];
							q->skip = cb_impl_key_ok(impl, a, keys[kk])
							          ? size_skip(a, o->sizes[s],
							                      o->sector)
							          : "the driver has no such key size";
							if (q->skip)
								q->skip = cb_xstrdup(q->skip);
						}
			}
		}
	}
	*out = p;
	return n;
}

/* ---- progress ------------------------------------------------------------- */

static void progress(const struct speed_opts *o, const struct plan *q,
                     unsigned rep, unsigned reps, size_t done, size_t total,
                     double per_visit)
{
	double eta = (double)(total - done) * per_visit;
	int tty = isatty(2);

	if (!o->progress)
		return;
	fprintf(stderr, "%s[%zu/%zu] rep %u/%u: %s %s %u-bit %llu B %s  "
	        "ETA %d:%02d%s", tty ? "\r\033[K" : "", done + 1, total,
	        rep + 1, reps, q->backend->name, q->impl->driver, q->key_bits,
	        (unsigned long long)q->size,
	        q->dir == DIR_ENC ? "encrypt" : q->dir == DIR_DEC ? "decrypt"
	                                                          : "digest",
	        (int)(eta / 60), (int)eta % 60, tty ? "" : "\n");
	fflush(stderr);
}

static void progress_done(const struct speed_opts *o)
{
	if (o->progress && isatty(2))
		fprintf(stderr, "\r\033[K");
}

/* ---- measuring ------------------------------------------------------------ */

static const char *dir_name(int dir)
{
	return dir == DIR_ENC ? "encrypt" : dir == DIR_DEC ? "decrypt" : "digest";
}

static int same_series(const struct plan *a, const struct plan *b)
{
	return a->impl == b->impl && a->dir == b->dir &&
	       a->key_bits == b->key_bits && a->sel == b->sel;
}

/* Fit ns per request against size over one series; fill every result. */
static void fit_series(struct cb_result *res, size_t from, size_t to)
{
	double x[64] = {0}, y[64] = {0}, a, b;
	size_t n = 0;

	for (size_t i = from; i < to && n < 64; i++)
		if (res[i].status == CB_RES_OK) {
			x[n] = (double)res[i].block_bytes;
			y[n] = 1e9 / res[i].ops_per_sec;
			n++;
		}
	if (cb_fit_line(x, y, n, &a, &b) < 0)
		a = b = NAN;
	for (size_t i = from; i < to; i++) {
		res[i].overhead_ns = a;
		res[i].slope_ns_per_byte = b;
	}
}

struct gate_cache {
	const struct cb_impl *impl;
	int rc;
	unsigned nrun;
};

static int kat_once(const struct cb_impl *impl, struct gate_cache **gc,
                    size_t *ngc, unsigned *nrun)
{
	for (size_t i = 0; i < *ngc; i++)
		if ((*gc)[i].impl == impl) {
			*nrun = (*gc)[i].nrun;
			return (*gc)[i].rc;
		}
	*gc = cb_xrealloc(*gc, (*ngc + 1) * sizeof **gc);
	(*gc)[*ngc].impl = impl;
	(*gc)[*ngc].rc = kat_gate(impl, &(*gc)[*ngc].nrun);
	*nrun = (*gc)[*ngc].nrun;
	return (*gc)[(*ngc)++].rc;
}

/* A series being measured: its keyed instance and its gate verdict. */
struct series {
	struct cb_inst inst;
	uint8_t key[CB_MAX_KEY];
	size_t keylen;
	char *fail;
};

/* The result's identity: what is measured, before it is. */
static void identify(struct cb_result *r, const struct plan *q,
                     const struct speed_opts *o)
{
	const struct cb_alg *alg = q->sel->alg;

	memset(r, 0, sizeof *r);
	r->tool = "speed";
	r->backend = q->backend->name;
	r->backend_version = q->backend->version ? q->backend->version() : "";
	r->backend_details = q->backend->details ? q->backend->details() : "";
	r->driver = q->impl->driver;
	r->alg = alg->name;
	r->alg_label = q->sel->label;
	r->auth = "";
	r->key_bits = q->key_bits;
	r->block_bytes = q->size;
	r->sector_bytes = alg->kind == CB_CIPHER ? o->sector : 0;
	r->direction = dir_name(q->dir);
	r->iv_mode = !alg->iv_len ? "none"
	             : alg->kind == CB_CIPHER && o->sector ? "per-sector"
	             : o->iv_once ? "once" : "per-request";
	r->threads = 1;
	r->overhead_ns = r->slope_ns_per_byte = r->cycles_per_byte = NAN;
	cb_iso_time(r->timestamp, sizeof r->timestamp);
}

/* Key the series starting at plan i and put it through the gate. */
static void open_series(struct series *s, const struct plan *p, size_t n,
                        size_t i, const struct speed_opts *o, struct bufs *bf,
                        struct gate_cache **gc, size_t *ngc,
                        const char ***warned, size_t *nwarned)
{
	const struct plan *q = &p[i];
	const struct cb_alg *alg = q->sel->alg;
	const struct cb_impl *ref;
	unsigned nrun = 0;
	size_t big = 0, w;
	int rc;

	for (size_t k = i; k < n && same_series(q, &p[k]); k++)
		if (!p[k].skip && p[k].size > big)
			big = p[k].size;
	if (!big)
		return;                          /* nothing runs in it */
	if (kat_once(q->impl, gc, ngc, &nrun) < 0) {
		s->fail = cb_xstrdup("failed its known-answer tests (FAIL lines "
		                     "on stderr)");
		goto out;
	}
	s->keylen = make_key(alg, q->key_bits, s->key);
	if ((rc = cb_inst_new(&s->inst, q->impl, s->keylen ? s->key : NULL,
	                      s->keylen)) < 0) {
		s->fail = fmt_err("setting the key", rc);
		goto out;
	}
	if ((ref = pick_ref(q->impl, alg, q->key_bits))) {
		s->fail = cross_check(&s->inst, ref, s->key, s->keylen, q->dir, o,
		                      bf, big);
		goto out;
	}
	for (w = 0; w < *nwarned && (*warned)[w] != q->impl->driver; w++)
		;
	if (w == *nwarned) {
		cb_warn("%s: no other backend has %s with a %u-bit key: checked "
		        "by %u known-answer vectors only", q->impl->driver,
		        alg->name, q->key_bits, nrun);
		*warned = cb_xrealloc(*warned, (*nwarned + 1) * sizeof **warned);
		(*warned)[(*nwarned)++] = q->impl->driver;
	}
out:
	if (s->fail)
		cb_err("%s %s %u-bit %s: %s", q->backend->name, q->impl->driver,
		       q->key_bits, dir_name(q->dir), s->fail);
}

/*
 * Measure every planned point into res[] (n of them); returns the number
 * of failed points.
 *
 * First every series is keyed and gated.  Then the repetitions go round
 * robin: repetition 1 of every point, then repetition 2 of every point,
 * and so on, each visit with its own warm-up.  On a shared machine the
 * disturbances last seconds (a busy SMT sibling halves AES throughput);
 * taken back to back, all reps of a point can fall into one of them, taken
 * round robin they sample different moments and the median drops the bad
 * one.
 */
size_t measure(const struct speed_opts *o, const struct plan *p,
                      size_t n, struct cb_result *res)
{
	unsigned reps = o->reps;
	struct cb_timing_opts to = { o->sec / reps, o->warmup / reps, 1 };
	struct series *ss = cb_xcalloc(n, sizeof *ss);
	size_t *of = cb_xcalloc(n, sizeof *of);
	double *rate = cb_xcalloc((size_t)n * reps, sizeof *rate);
	double *secs = cb_xcalloc(n, sizeof *secs);
	uint64_t *ops = cb_xcalloc(n, sizeof *ops);
	struct gate_cache *gc = NULL;
	const char **warned = NULL;
	size_t ngc = 0, nwarned = 0, nss = 0, nfail = 0, todo = 0, done = 0;
	struct bufs bf = {0};
	double per_visit;

	if (to.warmup < 0.005)
		to.warmup = 0.005;
	per_visit = to.sec + to.warmup + 0.002;
	for (size_t i = 0; i < n; i++)
		if (ring_bytes(p[i].size) > bf.size)
			bf.size = ring_bytes(p[i].size);
	bf.a = page_aligned(bf.size);
	bf.a2 = page_aligned(bf.size);
	bf.b = page_aligned(bf.size);
	bf.b2 = page_aligned(bf.size);

	/* 1: identities, keys, the gate. */
	for (size_t i = 0; i < n; i++) {
		struct cb_result *r = &res[i];

		identify(r, &p[i], o);
		if (i == 0 || !same_series(&p[i], &p[i - 1]))
			open_series(&ss[nss++], p, n, i, o, &bf, &gc, &ngc, &warned,
			            &nwarned);
		of[i] = nss - 1;
		if (p[i].skip) {
			r->status = CB_RES_SKIP;
			r->why = cb_xstrdup(p[i].skip);
		} else if (ss[of[i]].fail) {
			r->status = CB_RES_FAIL;
			r->why = cb_xstrdup(ss[of[i]].fail);
			nfail++;
		} else {
			r->status = CB_RES_OK;    /* until shown otherwise */
			todo++;
		}
	}

	/* 2: the repetitions, round robin. */
	for (unsigned rep = 0; rep < reps; rep++)
		for (size_t i = 0; i < n; i++) {
			const struct plan *q = &p[i];
			struct cb_result *r = &res[i];
			struct cb_timing t;
			struct runner run;
			int rc;

			if (r->status != CB_RES_OK)
				continue;
			progress(o, q, rep, reps, done++, todo * reps, per_visit);
			cb_random(bf.a, ring_bytes(q->size));
			rc = runner_prep(&run, &ss[of[i]].inst, q->dir, o->iv_once,
			                 o->sector, bf.a, bf.a2, q->size);
			if (rc >= 0)
				rc = cb_time_point(runner_fn(&run), &run, &to, &t);
			if (rc < 0) {
				r->status = CB_RES_FAIL;
				r->why = fmt_err("error while timed", rc);
				cb_err("%s %s %u-bit %llu B %s: %s", q->backend->name,
				       q->impl->driver, q->key_bits,
				       (unsigned long long)q->size, dir_name(q->dir),
				       r->why);
				nfail++;
				continue;
			}
			rate[i * reps + rep] = t.rate[0];
			ops[i] += t.ops_total;
			secs[i] += t.secs_total;
			cb_iso_time(r->timestamp, sizeof r->timestamp);
		}
	progress_done(o);

	/* 3: median, spread, the fit. */
	for (size_t i = 0; i < n; i++) {
		struct cb_result *r = &res[i];
		double *s;

		if (r->status != CB_RES_OK)
			continue;
		s = cb_xmalloc(reps * sizeof *s);
		memcpy(s, &rate[i * reps], reps * sizeof *s);
		r->samples = s;
		r->reps = reps;
		r->ops_per_sec = cb_median(s, reps);
		r->rel_spread = cb_rel_spread(s, reps);
		r->bytes_per_sec = r->ops_per_sec * (double)p[i].size;
		r->ns_per_byte = 1e9 / r->bytes_per_sec;
		r->seconds = secs[i];
		r->bytes_total = ops[i] * p[i].size;
	}
	for (size_t i = 0, from = 0; i <= n; i++)
		if (i == n || (i && !same_series(&p[i], &p[i - 1]))) {
			if (i)
				fit_series(res, from, i);
			from = i;
		}

	for (size_t k = 0; k < nss; k++) {
		cb_inst_free(&ss[k].inst);
		cb_wipe(ss[k].key, sizeof ss[k].key);
		free(ss[k].fail);
	}
	free(ss);
	free(of);
	free(rate);
	free(secs);
	free(ops);
	free(gc);
	free(warned);
	free(bf.a);
	free(bf.a2);
	free(bf.b);
	free(bf.b2);
	return nfail;
}

/* Cycles need the clock measured after the run too: fill them last. */
static void fill_cycles(struct cb_result *res, size_t n)
{
	double ghz = cb_prov()->ghz;

	for (size_t i = 0; i < n; i++) {
		res[i].ghz = ghz;
		res[i].cycles_per_byte = ghz > 0 && res[i].status == CB_RES_OK
		                         ? res[i].ns_per_byte * ghz : NAN;
	}
}

static void free_results(struct cb_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free((void *)res[i].why);
		free((void *)res[i].samples);
	}
	free(res);
}

static void free_plan(struct plan *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((void *)p[i].skip);
	free(p);
}

/*
 * Plan, measure and return the results.  Returns CB_EXIT_SKIP when there
 * is nothing to run (message printed), else CB_EXIT_OK with *nfail set.
 */
static int run_speed(const struct speed_opts *o, struct cb_result **res,
                     size_t *nres, size_t *nfail)
{
	struct plan *p;
	char **notes;
	size_t n, nnotes, runnable = 0;

	for (size_t i = 0; i < o->nbackends; i++) {
		const char *why;

		if (cb_backend_status(o->backends[i], &why) < 0 &&
		    !o->all_backends)
			cb_warn("%s: unavailable: %s", o->backends[i]->name, why);
	}
	n = make_plan(o, &p, &notes, &nnotes);
	for (size_t i = 0; i < nnotes; i++) {
		cb_warn("%s", notes[i]);
		free(notes[i]);
	}
	free(notes);
	for (size_t i = 0; i < n; i++)
		runnable += !p[i].skip;
	if (!runnable) {
		cb_err("nothing to run: no available backend implements the "
		       "algorithms%s%s asked for at these sizes and keys",
		       o->driver_sub ? " with a driver matching " : "",
		       o->driver_sub ? o->driver_sub : "");
		free_plan(p, n);
		return CB_EXIT_SKIP;
	}
	if (o->iv_once)
		for (size_t i = 0; i < o->nalgs; i++) {
			const struct cb_alg *a = o->algs[i].alg;

			if ((a->kind == CB_CIPHER && a->iv_len &&
			     !(a->flags & CB_F_STREAM)) || a->kind == CB_AEAD)
				cb_warn("--iv once: %s does not chain requests; every "
				        "request reuses the same IV", a->name);
		}
	cb_prov_measure_ghz();
	*res = cb_xcalloc(n, sizeof **res);
	*nfail = measure(o, p, n, *res);
	cb_prov_measure_ghz();
	fill_cycles(*res, n);
	*nres = n;
	free_plan(p, n);
	return CB_EXIT_OK;
}

/* ---- options -------------------------------------------------------------- */

enum {
	OPT_BACKEND = 1, OPT_ALG, OPT_DRIVER, OPT_KEYBITS, OPT_SIZES, OPT_SEC,
	OPT_REPS, OPT_ENC, OPT_DEC, OPT_IV, OPT_SECTOR, OPT_FORMAT, OPT_OUT,
	OPT_FORCE, OPT_CYCLES, OPT_PROGRESS, OPT_NOPROGRESS, OPT_WARMUP,
	OPT_QUICK, OPT_OUTDIR,
};

static int add_backend(struct speed_opts *o, const char *name)
{
	const struct cb_backend *b = cb_backend_find(name);

	if (!b) {
		cb_err("--backend: unknown backend '%s' (see 'cryptobench list "
		       "backends')", name);
		return -EINVAL;
	}
	for (size_t i = 0; i < o->nbackends; i++)
		if (o->backends[i] == b)
			return 0;
	if (o->nbackends == MAX_SEL) {
		cb_err("--backend: too many");
		return -EINVAL;
	}
	o->backends[o->nbackends++] = b;
	return 0;
}

static int add_alg(struct speed_opts *o, const char *name)
{
	unsigned mult;
	const struct cb_alg *a = cb_alg_find(name, &mult);

	if (!a) {
		cb_err("--alg: unknown algorithm '%s' (see 'cryptobench list "
		       "algs')", name);
		return -EINVAL;
	}
	for (size_t i = 0; i < o->nalgs; i++)
		if (o->algs[i].alg == a && o->algs[i].key_mult == mult)
			return 0;
	if (o->nalgs == MAX_SEL) {
		cb_err("--alg: too many");
		return -EINVAL;
	}
	o->algs[o->nalgs].alg = a;
	o->algs[o->nalgs].label = strchr(name, '(') && strcmp(name, a->name)
	                          ? name : NULL;
	o->algs[o->nalgs].key_mult = mult;
	o->nalgs++;
	return 0;
}

static int parse_sec(const char *opt, const char *arg, double *v)
{
	if (cb_parse_double(arg, v) < 0 || !(*v > 0) || *v > 3600) {
		cb_err("%s: '%s' is not a number of seconds above 0 (up to 3600)",
		       opt, arg);
		return -EINVAL;
	}
	return 0;
}

/* cb_parse_list, but an empty element ("16,,64") is an error too. */
static int parse_list(const char *arg, uint64_t **v, size_t *n)
{
	if (strstr(arg, ",,") || arg[0] == ',')
		return -EINVAL;
	return cb_parse_list(arg, v, n);
}

static int parse_sizes(struct speed_opts *o, const char *arg)
{
	const uint64_t *fixed = NULL;
	size_t nf = 0;

	free(o->sizes);
	o->sizes = NULL;
	if (!strcmp(arg, "kernel"))
		fixed = kernel_sizes, nf = sizeof kernel_sizes / sizeof kernel_sizes[0];
	else if (!strcmp(arg, "seed") || !strcmp(arg, "tcrypt"))
		fixed = seed_sizes, nf = sizeof seed_sizes / sizeof seed_sizes[0];
	if (fixed) {
		o->sizes = cb_xmalloc(nf * sizeof *o->sizes);
		memcpy(o->sizes, fixed, nf * sizeof *o->sizes);
		o->nsizes = nf;
		return 0;
	}
	if (parse_list(arg, &o->sizes, &o->nsizes) < 0) {
		cb_err("--sizes: '%s' is not a list of sizes (16,64,4k,... or "
		       "'kernel')", arg);
		return -EINVAL;
	}
	if (o->nsizes > 64) {
		cb_err("--sizes: at most 64 sizes");
		return -EINVAL;
	}
	for (size_t i = 0; i < o->nsizes; i++)
		if (!o->sizes[i] || o->sizes[i] > MAX_BUF) {
			cb_err("--sizes: %llu is not a request size (1 byte to 1 GiB)",
			       (unsigned long long)o->sizes[i]);
			return -EINVAL;
		}
	return 0;
}

/* Open -o FILE: never overwrite what the user did not ask to. */
static FILE *open_out(const char *path, int force)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC |
	              (force ? O_TRUNC : O_EXCL), 0644);
	FILE *f;

	if (fd < 0) {
		if (errno == EEXIST)
			cb_err("-o: '%s' exists; use --force to overwrite it", path);
		else
			cb_err("-o: cannot create '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (!(f = fdopen(fd, "w"))) {
		cb_err("-o: '%s': %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

/* Check -o before the run (so a long run does not end in an I/O error). */
static int check_out(const char *path, int force)
{
	struct stat st;
	char *dir = cb_xstrdup(path), *slash = strrchr(dir, '/');
	int rc = 0;

	if (slash)
		*(slash == dir ? slash + 1 : slash) = 0;
	if (stat(slash ? dir : ".", &st) < 0 || !S_ISDIR(st.st_mode)) {
		cb_err("-o: '%s': no such directory '%s'", path, slash ? dir : ".");
		rc = -ENOENT;
	} else if (stat(path, &st) == 0 && !force) {
		cb_err("-o: '%s' exists; use --force to overwrite it", path);
		rc = -EEXIST;
	} else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		cb_err("-o: '%s' is a directory", path);
		rc = -EISDIR;
	}
	free(dir);
	return rc;
}

static char *join_args(int argc, char **argv)
{
	size_t len = sizeof "cryptobench";
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 3;
	s = cb_xmalloc(len);
	strcpy(s, "cryptobench");
	for (int i = 0; i < argc; i++) {
		int q = strpbrk(argv[i], " ()'\"*?$,") != NULL;

		strcat(s, q ? " '" : " ");
		strcat(s, argv[i]);
		if (q)
			strcat(s, "'");
	}
	return s;
}

void opts_init(struct speed_opts *o)
{
	memset(o, 0, sizeof *o);
	o->sec = 1;
	o->reps = 3;
	o->warmup = -1;
	o->progress = -1;
}

/* Defaults for whatever the options left open; 0 or -EINVAL. */
static int opts_finish(struct speed_opts *o, const char *const *algs)
{
	if (!o->nbackends) {
		o->all_backends = 1;
		for (int i = 0; cb_backends[i]; i++)
			add_backend(o, cb_backends[i]->name);
	}
	if (!o->nalgs)
		for (int i = 0; algs[i]; i++)
			if (add_alg(o, algs[i]) < 0)
				return -EINVAL;
	if (!o->sizes && parse_sizes(o, "seed") < 0)
		return -EINVAL;
	if (!o->enc && !o->dec)
		o->enc = o->dec = 1;
	if (o->warmup < 0) {
		o->warmup = o->sec / 10;
		if (o->warmup < 0.01)
			o->warmup = 0.01;
		if (o->warmup > 0.25)
			o->warmup = 0.25;
	}
	if (o->progress < 0)
		o->progress = isatty(2);
	if (o->iv_once && o->sector) {
		cb_err("--iv once and --sector-size exclude each other: sectors "
		       "each get their own IV");
		return -EINVAL;
	}
	if (o->keys) {
		for (size_t i = 0; i < o->nalgs; i++) {
			const struct sel_alg *sa = &o->algs[i];
			int any = 0;

			if (sa->alg->flags & CB_F_NOKEY)
				continue;
			for (size_t k = 0; k < o->nkeys; k++)
				any |= cb_alg_key_ok(sa->alg,
				                     (unsigned)o->keys[k] * sa->key_mult);
			if (!any) {
				cb_err("--key-bits: no size given is a key size of %s "
				       "(see 'cryptobench list algs')", sa->alg->name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static void free_opts(struct speed_opts *o)
{
	free(o->keys);
	free(o->sizes);
}

/* Write the report with the writer to path (NULL: stdout). */
static int emit(const struct cb_writer *w, FILE *f, const char *path,
                const struct speed_opts *o, const struct cb_result *res,
                size_t n)
{
	struct cb_report rep = {
		.prov = cb_prov(), .res = res, .n = n, .cycles = o->cycles,
		.sec = o->sec, .warmup = o->warmup, .command = o->command,
	};

	if (w->write(f, &rep) < 0) {
		cb_err("writing %s: %s", path ? path : "stdout", strerror(EIO));
		return -EIO;
	}
	return 0;
}

int cmd_speed(int argc, char **argv)
{
	static const struct cb_opt opts[] = {
		{ "--backend", 1, OPT_BACKEND }, { "-b", 1, OPT_BACKEND },
		{ "--alg", 1, OPT_ALG }, { "-a", 1, OPT_ALG },
		{ "--driver", 1, OPT_DRIVER },
		{ "--key-bits", 1, OPT_KEYBITS }, { "-l", 1, OPT_KEYBITS },
		{ "--sizes", 1, OPT_SIZES }, { "--sec", 1, OPT_SEC },
		{ "--reps", 1, OPT_REPS }, { "--warmup", 1, OPT_WARMUP },
		{ "--encrypt", 0, OPT_ENC }, { "--decrypt", 0, OPT_DEC },
		{ "--iv", 1, OPT_IV }, { "--sector-size", 1, OPT_SECTOR },
		{ "--format", 1, OPT_FORMAT }, { "-o", 1, OPT_OUT },
		{ "--output", 1, OPT_OUT }, { "--force", 0, OPT_FORCE },
		{ "--cycles", 0, OPT_CYCLES }, { "--progress", 0, OPT_PROGRESS },
		{ "--no-progress", 0, OPT_NOPROGRESS },
		{ NULL, 0, 0 },
	};
	struct speed_opts o;
	const struct cb_writer *w = cb_writer_find("tcrypt");
	const char *out_path = NULL, *arg;
	int force = 0, i = 1, id, rc = CB_EXIT_USAGE;
	struct cb_result *res = NULL;
	size_t nres = 0, nfail = 0;
	FILE *f = stdout;
	uint64_t v;

	opts_init(&o);
	while ((id = cb_getopt(argc, argv, &i, opts, &arg)) != -1) {
		switch (id) {
		case -2:
			goto out;
		case 0:
			cb_err("speed: unexpected argument '%s'", arg);
			goto out;
		case OPT_BACKEND:
			if (add_backend(&o, arg) < 0)
				goto out;
			break;
		case OPT_ALG:
			if (add_alg(&o, arg) < 0)
				goto out;
			break;
		case OPT_DRIVER:
			o.driver_sub = arg;
			break;
		case OPT_KEYBITS:
			free(o.keys);
			o.keys = NULL;
			if (parse_list(arg, &o.keys, &o.nkeys) < 0 || o.nkeys > 16) {
				cb_err("--key-bits: '%s' is not a list of key sizes in "
				       "bits (128,256,...)", arg);
				goto out;
			}
			for (size_t k = 0; k < o.nkeys; k++)
				if (o.keys[k] > CB_MAX_KEY * 8) {
					cb_err("--key-bits: %llu is too large",
					       (unsigned long long)o.keys[k]);
					goto out;
				}
			break;
		case OPT_SIZES:
			if (parse_sizes(&o, arg) < 0)
				goto out;
			break;
		case OPT_SEC:
			if (parse_sec("--sec", arg, &o.sec) < 0)
				goto out;
			break;
		case OPT_WARMUP:
			if (cb_parse_double(arg, &o.warmup) < 0 || o.warmup < 0 ||
			    o.warmup > 60) {
				cb_err("--warmup: '%s' is not a number of seconds "
				       "(0 to 60)", arg);
				goto out;
			}
			break;
		case OPT_REPS:
			if (cb_parse_u64(arg, &v) < 0 || v < 1 || v > CB_MAX_REPS) {
				cb_err("--reps: '%s' is not a count from 1 to %d", arg,
				       CB_MAX_REPS);
				goto out;
			}
			o.reps = (unsigned)v;
			break;
		case OPT_ENC:
			o.enc = 1;
			break;
		case OPT_DEC:
			o.dec = 1;
			break;
		case OPT_IV:
			if (!strcmp(arg, "once")) {
				o.iv_once = 1;
			} else if (!strcmp(arg, "per-request")) {
				o.iv_once = 0;
			} else {
				cb_err("--iv: '%s' is not 'per-request' or 'once'", arg);
				goto out;
			}
			break;
		case OPT_SECTOR:
			if (cb_parse_size(arg, &o.sector) < 0 || !o.sector ||
			    o.sector > MAX_BUF) {
				cb_err("--sector-size: '%s' is not a sector size", arg);
				goto out;
			}
			break;
		case OPT_FORMAT:
			if (!(w = cb_writer_find(arg))) {
				cb_err("--format: unknown format '%s' (tcrypt, table, "
				       "csv, json)", arg);
				goto out;
			}
			break;
		case OPT_OUT:
			out_path = arg;
			break;
		case OPT_FORCE:
			force = 1;
			break;
		case OPT_CYCLES:
			o.cycles = 1;
			break;
		case OPT_PROGRESS:
			o.progress = 1;
			break;
		case OPT_NOPROGRESS:
			o.progress = 0;
			break;
		}
	}
	if (opts_finish(&o, default_algs) < 0)
		goto out;
	if (out_path && check_out(out_path, force) < 0)
		goto out;
	o.command = join_args(argc, argv);

	rc = run_speed(&o, &res, &nres, &nfail);
	if (rc != CB_EXIT_OK)
		goto out;
	if (out_path && !(f = open_out(out_path, force))) {
		rc = CB_EXIT_USAGE;
		goto out;
	}
	rc = emit(w, f, out_path, &o, res, nres) < 0 ? CB_EXIT_USAGE
	     : nfail ? CB_EXIT_FAIL : CB_EXIT_OK;
	if (f != stdout && fclose(f) != 0 && rc == CB_EXIT_OK) {
		cb_err("writing %s: %s", out_path, strerror(errno));
		rc = CB_EXIT_USAGE;
	}
out:
	free_results(res, nres);
	free((void *)o.command);
	free_opts(&o);
	return rc;
}

/* ---- bench: the whole matrix ------------------------------------------- */

int cmd_bench(int argc, char **argv)
{
	static const struct cb_opt opts[] = {
		{ "--quick", 0, OPT_QUICK }, { "--out", 1, OPT_OUTDIR },
		{ "--sec", 1, OPT_SEC }, { "--reps", 1, OPT_REPS },
		{ "--backend", 1, OPT_BACKEND }, { "-b", 1, OPT_BACKEND },
		{ "--progress", 0, OPT_PROGRESS },
		{ "--no-progress", 0, OPT_NOPROGRESS },
		{ NULL, 0, 0 },
	};
	struct speed_opts o;
	const char *outdir = "results", *arg;
	int i = 1, id, rc = CB_EXIT_USAGE, quick = 0, sec_set = 0;
	struct cb_result *res = NULL;
	size_t nres = 0, nfail = 0;
	char stamp[32], path[2][4096];
	FILE *f[2] = { NULL, NULL };
	struct stat st;
	uint64_t v;

	opts_init(&o);
	o.sec = 0.3;
	while ((id = cb_getopt(argc, argv, &i, opts, &arg)) != -1) {
		switch (id) {
		case -2:
			goto out;
		case 0:
			cb_err("bench: unexpected argument '%s'", arg);
			goto out;
		case OPT_QUICK:
			quick = 1;
			break;
		case OPT_OUTDIR:
			outdir = arg;
			break;
		case OPT_SEC:
			if (parse_sec("--sec", arg, &o.sec) < 0)
				goto out;
			sec_set = 1;
			break;
		case OPT_REPS:
			if (cb_parse_u64(arg, &v) < 0 || v < 1 || v > CB_MAX_REPS) {
				cb_err("--reps: '%s' is not a count from 1 to %d", arg,
				       CB_MAX_REPS);
				goto out;
			}
			o.reps = (unsigned)v;
			break;
		case OPT_BACKEND:
			if (add_backend(&o, arg) < 0)
				goto out;
			break;
		case OPT_PROGRESS:
			o.progress = 1;
			break;
		case OPT_NOPROGRESS:
			o.progress = 0;
			break;
		}
	}
	if (quick) {
		if (!sec_set)
			o.sec = 0.1;
		if (parse_sizes(&o, "16,256,8192") < 0)
			goto out;
	}
	if (opts_finish(&o, bench_algs) < 0)
		goto out;
	if (stat(outdir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		cb_err("--out: '%s' is not a directory", outdir);
		goto out;
	}
	o.command = join_args(argc, argv);
	{
		time_t now = time(NULL);
		struct tm tm;

		gmtime_r(&now, &tm);
		strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
	}
	for (int k = 0; k < 2; k++) {
		snprintf(path[k], sizeof path[k], "%s/%s-%s.%s", outdir,
		         cb_prov()->host, stamp, k ? "json" : "csv");
		if (!(f[k] = open_out(path[k], 0)))
			goto out;
	}
	rc = run_speed(&o, &res, &nres, &nfail);
	if (rc != CB_EXIT_OK)
		goto out;
	if (emit(cb_writer_find("csv"), f[0], path[0], &o, res, nres) < 0 ||
	    emit(cb_writer_find("json"), f[1], path[1], &o, res, nres) < 0 ||
	    emit(cb_writer_find("table"), stdout, NULL, &o, res, nres) < 0) {
		rc = CB_EXIT_USAGE;
		goto out;
	}
	for (int k = 0; k < 2; k++) {
		if (fclose(f[k]) != 0) {
			cb_err("writing %s: %s", path[k], strerror(errno));
			rc = CB_EXIT_USAGE;
		}
		f[k] = NULL;
	}
	fprintf(stderr, "cryptobench: results in %s and %s\n", path[0], path[1]);
	if (rc == CB_EXIT_OK && nfail)
		rc = CB_EXIT_FAIL;
out:
	for (int k = 0; k < 2; k++)
		if (f[k]) {
			fclose(f[k]);
			if (rc != CB_EXIT_OK && rc != CB_EXIT_FAIL)
				unlink(path[k]);   /* ours, and empty */
		}
	free_results(res, nres);
	free((void *)o.command);
	free_opts(&o);
	return rc;
}
