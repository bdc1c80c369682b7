/*
 * ct_time.c - the timing method, after dudect (Reparaz, Balasch,
 * Verbauwhede, "Dude, is my code constant time?", DATE 2017): one request
 * timed over and over, its input drawn at random per measurement from two
 * classes - one fixed input (all zero) or a fresh random one - into the
 * same buffer, so the classes differ in nothing but their values.  Welch's
 * t over the two classes' times, after dropping the slowest tenth (an
 * interrupt, a migration: dudect's cropping); |t| above CT_T_THRESHOLD in a
 * test and again in a second, fresh test is a finding.  The key is fixed
 * and random; the request is the algorithm's shortest size, in each
 * direction.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ct/ct.h"
#include "foundation/stats.h"
#include "foundation/timing.h"
#include "foundation/util.h"

struct sample {
	uint64_t ticks;
	uint8_t cls;
};

static int cmp_ticks(const void *a, const void *b)
{
	uint64_t x = ((const struct sample *)a)->ticks;
	uint64_t y = ((const struct sample *)b)->ticks;

	return x < y ? -1 : x > y;
}

/* Welch's t over s[0..n) without its slowest tenth. */
static double welch_cropped(struct sample *s, size_t n)
{
	struct sample *c = cb_xmalloc(n * sizeof *c);
	struct cb_welch w = {0};
	uint64_t cut;

	memcpy(c, s, n * sizeof *c);
	qsort(c, n, sizeof *c, cmp_ticks);
	cut = c[n - 1 - n / 10].ticks;
	free(c);
	for (size_t i = 0; i < n; i++)
		if (s[i].ticks <= cut)
			cb_welch_add(&w, s[i].cls, (double)s[i].ticks);
	return cb_welch_t(&w);
}

/* One test: n measurements of direction dir at len bytes; its t.  Every
 * input is made before the first is timed, and each is copied into the
 * request's buffer the same way: the classes differ in their values only. */
static int one_test(struct ct_work *w, struct cb_inst *x, int dir,
                    size_t len, uint64_t n, double *t)
{
	struct sample *s = cb_xmalloc(n * sizeof *s);
	uint8_t *inputs = cb_xmalloc(n * len), *cls = cb_xmalloc(n);
	uint8_t *buf = dir ? w->out : w->in;
	int rc = 0;

	cb_random(cls, n);
	cb_random(inputs, n * len);
	for (uint64_t i = 0; i < n; i++)
		if (!(cls[i] &= 1))
			memset(inputs + i * len, 0, len);   /* the fixed class */
	for (uint64_t i = 0; i < n && !rc; i++) {
		uint64_t t0;

		memcpy(buf, inputs + i * len, len);
		t0 = cb_ticks();
		rc = ct_work_request(w, x, dir, len, NULL);
		s[i].ticks = cb_ticks() - t0;
		s[i].cls = cls[i];
		if (rc == -EBADMSG)      /* a decryption's tag: both classes */
			rc = 0;
	}
	if (!rc)
		*t = welch_cropped(s, n);
	free(s), free(inputs), free(cls);
	return rc;
}

int ct_time_run(const struct cb_impl *impl, uint64_t n, struct ct_time *t)
{
	struct ct_work w;
	struct cb_inst x;
	size_t lens[4];
	int rc;

	memset(t, 0, sizeof *t);
	cb_clear_error();
	if ((rc = ct_work_new(&w, impl)) < 0 || (rc = ct_work_key(&w, &x, NULL))) {
		snprintf(t->why, sizeof t->why, "setting the key: %s",
		         cb_last_error());
		ct_work_free(&w);
		return rc;
	}
	ct_work_lengths(w.alg, lens);
	for (int d = 0; d < ct_work_dirs(w.alg) && !rc; d++) {
		double a = 0, b = 0;

		for (int i = 0; i < 200 && !rc; i++)           /* warm up */
			rc = ct_work_request(&w, &x, d, lens[0], NULL);
		if (rc == -EBADMSG)
			rc = 0;
		if (!rc && !(rc = one_test(&w, &x, d, lens[0], n, &a)) &&
		    fabs(a) > CT_T_THRESHOLD)           /* confirm, afresh */
			rc = one_test(&w, &x, d, lens[0], n, &b);
		t->n += fabs(a) > CT_T_THRESHOLD ? 2 * n : n;
		/* a finding needs both tests; else the first test's t */
		if (fabs(a) > CT_T_THRESHOLD && fabs(b) > CT_T_THRESHOLD)
			a = fabs(a) < fabs(b) ? a : b;
		else if (fabs(a) > CT_T_THRESHOLD)
			a = b;
		if (fabs(a) > fabs(t->t))
			t->t = a;
	}
	if (rc)
		snprintf(t->why, sizeof t->why, "a request failed: %s",
		         cb_last_error());
	t->ran = rc == 0;
	cb_inst_free(&x);
	ct_work_free(&w);
	return rc;
}
