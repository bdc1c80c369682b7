/*
 * plan.c - the planner of `speed` and `bench`: a run is planned first
 * (every backend x implementation x direction x key size x request size,
 * with the points that cannot run marked skipped), then measured.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "measure/plan.h"
#include "foundation/util.h"

/* The standard key sizes of a (XTS 256, 512), or with every: each size
 * from min to max (XTS 256, 384, 512); one for ranges, hashes, MACs. */
static void default_keys(const struct cb_alg *a, int every, unsigned *k,
                         size_t *n)
{
	*n = 0;
	if (a->flags & (CB_F_NOKEY | CB_F_ANYKEY) || cb_alg_key_range(a)) {
		k[(*n)++] = a->key.std[0];
		return;
	}
	if (every && a->key.step) {
		for (unsigned b = a->key.min; b <= a->key.max; b += a->key.step)
			k[(*n)++] = b;
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

	if (a->kind == CB_HASH || a->kind == CB_MAC || a->kind == CB_KDF)
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

/*
 * Samples per point and their length: --reps samples of --sec / reps
 * each; without --reps, --sec split into samples of about 20 ms, at
 * least 15 and at most 50 (docs/speed.md: why many short samples).
 */
unsigned plan_samples(const struct speed_opts *o)
{
	double n = o->sec / CB_SAMPLE_SEC + 0.5;

	if (o->reps)
		return o->reps;
	return n < CB_SAMPLES_MIN ? CB_SAMPLES_MIN
	       : n > CB_SAMPLES_MAX ? CB_SAMPLES_MAX : (unsigned)n;
}

double plan_sample_sec(const struct speed_opts *o)
{
	if (o->sample > 0)
		return o->sample;
	return o->sec / plan_samples(o);
}

/* What one algorithm is measured with: directions, keys and sizes. */
struct plan_alg {
	const struct cb_sel_alg *sa;
	int dirs[2], nd;
	unsigned *keys;
	size_t nk;
	const uint64_t *sizes;
	size_t nsz;
};

/* The plan being made: its points and the notes for the user. */
struct plan_acc {
	struct plan *p;
	size_t n, cap;
	char **notes;
	size_t nnotes;
};

static void plan_alg_init(const struct speed_opts *o,
                          const struct cb_sel_alg *sa, struct plan_alg *pa)
{
	const struct cb_alg *a = sa->alg;
	/* the KDFs at one cost when o->kdf_cost says (bench) */
	int one = a->kind == CB_KDF && o->kdf_cost;
	size_t cap = o->nkeys + CB_KEY_STD + 1;

	*pa = (struct plan_alg){ .sa = sa, .sizes = one ? &o->kdf_cost : o->sizes,
	                         .nsz = one ? 1 : o->nsizes };
	if (a->kind == CB_KDF) {
		pa->dirs[pa->nd++] = DIR_DERIVE;
	} else if (a->kind == CB_HASH || a->kind == CB_MAC) {
		pa->dirs[pa->nd++] = DIR_DIGEST;
	} else {
		if (o->enc)
			pa->dirs[pa->nd++] = DIR_ENC;
		if (o->dec)
			pa->dirs[pa->nd++] = DIR_DEC;
	}
	if (o->every_key && a->key.step && a->key.max >= a->key.min)
		cap += (a->key.max - a->key.min) / a->key.step + 1;
	pa->keys = cb_xcalloc(cap, sizeof *pa->keys);
	if (!o->keys || a->flags & CB_F_NOKEY)
		default_keys(a, o->every_key, pa->keys, &pa->nk);
	else
		for (size_t k = 0; k < o->nkeys; k++)
			if (cb_alg_key_ok(a, (unsigned)o->keys[k] * sa->key_mult))
				pa->keys[pa->nk++] = (unsigned)o->keys[k] * sa->key_mult;
}

/* Every direction x key x size of impl into acc. */
static void plan_points(const struct speed_opts *o, const struct plan_alg *pa,
                        const struct cb_backend *b, const struct cb_impl *impl,
                        struct plan_acc *acc)
{
	const struct cb_alg *a = pa->sa->alg;

	for (int d = 0; d < pa->nd; d++)
		for (size_t kk = 0; kk < pa->nk; kk++)
			for (size_t s = 0; s < pa->nsz; s++) {
				struct plan *q;

				if (acc->n == acc->cap) {
					acc->cap = acc->cap ? 2 * acc->cap : 64;
					acc->p = cb_xrealloc(acc->p, acc->cap * sizeof *acc->p);
				}
				q = &acc->p[acc->n++];
				*q = (struct plan){ .impl = impl, .backend = b,
				        .sel = pa->sa, .dir = pa->dirs[d],
				        .key_bits = pa->keys[kk], .size = pa->sizes[s],
				        .samples = plan_samples(o),
				        .sample_sec = plan_sample_sec(o) };
				q->skip = cb_impl_key_ok(impl, a, pa->keys[kk])
				          ? size_skip(a, pa->sizes[s], o->sector)
				          : "the driver has no such key size";
				if (!q->skip && o->mb && a->kind != CB_CIPHER)
					q->skip = "--mb: cipher requests only";
				if (q->skip)
					q->skip = cb_xstrdup(q->skip);
			}
}

/* The selected implementations of backend b for pa into acc; one that
 * cannot run here is a note. */
static void plan_backend(const struct speed_opts *o, const struct plan_alg *pa,
                         const struct cb_backend *b, struct plan_acc *acc)
{
	const struct cb_impl *impl;
	const char *why;

	if (cb_backend_status(b, &why) < 0)
		return;
	for (int k = 0; (impl = cb_impl_find(b, pa->sa->alg->name, k)); k++) {
		if (!cb_sel_driver_ok(&o->sel, impl->driver))
			continue;
		if (cb_impl_status(impl, &why) < 0) {
			char msg[300];

			snprintf(msg, sizeof msg, "%s %s: unavailable: %s", b->name,
			         impl->driver, why);
			acc->notes = cb_xrealloc(acc->notes, (acc->nnotes + 1) *
			                         sizeof *acc->notes);
			acc->notes[acc->nnotes++] = cb_xstrdup(msg);
			continue;
		}
		plan_points(o, pa, b, impl, acc);
	}
}

/* The points to measure, in output order: alg, backend, implementation,
 * direction, key, size.  Returns the number (0: nothing available). */
size_t plan_make(const struct speed_opts *o, struct plan **out,
                 char ***notes, size_t *nnotes)
{
	struct plan_acc acc = {0};

	for (size_t ai = 0; ai < o->sel.nalgs; ai++) {
		struct plan_alg pa;

		plan_alg_init(o, &o->sel.algs[ai], &pa);
		for (size_t bi = 0; bi < o->sel.nbackends; bi++)
			plan_backend(o, &pa, o->sel.backends[bi], &acc);
		free(pa.keys);
	}
	*out = acc.p;
	*notes = acc.notes;
	*nnotes = acc.nnotes;
	return acc.n;
}

const char *plan_dir_name(int dir)
{
	return dir == DIR_ENC ? "encrypt" : dir == DIR_DEC ? "decrypt"
	       : dir == DIR_DERIVE ? "derive" : "digest";
}

int plan_same_series(const struct plan *a, const struct plan *b)
{
	return a->impl == b->impl && a->dir == b->dir &&
	       a->key_bits == b->key_bits && a->sel == b->sel;
}

void plan_free(struct plan *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((void *)p[i].skip);
	free(p);
}
