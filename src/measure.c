/*
 * measure.c - gate and time a plan.  Each series (one implementation,
 * direction and key) passes the correctness gate (gate.c) before anything
 * is timed; the repetitions then go round robin over the points (see
 * measure()) through the request loops of runner.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cb.h"
#include "gate.h"
#include "measure.h"
#include "plan.h"
#include "result.h"
#include "runner.h"
#include "sysinfo.h"
#include "timing.h"
#include "util.h"

/* The progress line: in place and cut to the terminal's width on a tty
 * (ETA first, so the cut keeps it), a line per visit with --progress
 * otherwise. */
static void progress(const struct speed_opts *o, const struct plan *q,
                     unsigned rep, unsigned reps, size_t done, size_t total,
                     double per_visit)
{
	double eta = (double)(total - done) * per_visit;
	int tty = isatty(2);
	char line[512];

	if (!o->progress)
		return;
	snprintf(line, sizeof line, "[%zu/%zu] ETA %d:%02d  rep %u/%u: %s %s "
	         "%u-bit %llu B %s", done + 1, total, (int)(eta / 60),
	         (int)eta % 60, rep + 1, reps, q->backend->name, q->impl->driver,
	         q->key_bits, (unsigned long long)q->size, dir_name(q->dir));
	if (tty)
		fprintf(stderr, "\r\033[K%.*s", cb_term_width() - 1, line);
	else
		fprintf(stderr, "%s\n", line);
	fflush(stderr);
}

static void progress_done(const struct speed_opts *o)
{
	if (o->progress && isatty(2))
		fprintf(stderr, "\r\033[K");
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

/* The state of one measure() call. */
struct meas {
	const struct speed_opts *o;
	const struct plan *p;
	size_t n;
	struct cb_result *res;
	struct series *ss;          /* one per series                       */
	size_t nss, *of;            /* of[i]: the series of point i         */
	double *rate;               /* n x reps samples                     */
	double *secs;
	uint64_t *ops;
	unsigned *cnt;              /* samples taken per point (^C: fewer)   */
	struct gate gate;
	struct bufs bf;
	size_t nfail, todo, done;
};

/* 1: identities, keys, the gate. */
static void measure_gate(struct meas *m)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct plan *q = &m->p[i];
		struct cb_result *r = &m->res[i];

		identify(r, q, m->o);
		if (i == 0 || !same_series(q, &m->p[i - 1]))
			gate_series(&m->gate, &m->ss[m->nss++], m->p, m->n, i, m->o,
			            &m->bf);
		m->of[i] = m->nss - 1;
		if (q->skip) {
			r->status = CB_RES_SKIP;
			r->why = cb_xstrdup(q->skip);
		} else if (m->ss[m->of[i]].fail) {
			r->status = CB_RES_FAIL;
			r->why = cb_xstrdup(m->ss[m->of[i]].fail);
			m->nfail++;
		} else {
			r->status = CB_RES_OK;    /* until shown otherwise */
			m->todo++;
		}
	}
}

/* One visit of point i: repetition rep, timed. */
static void measure_visit(struct meas *m, size_t i, unsigned rep,
                          const struct cb_timing_opts *to, double per_visit)
{
	const struct speed_opts *o = m->o;
	const struct plan *q = &m->p[i];
	struct cb_result *r = &m->res[i];
	unsigned reps = o->reps;
	struct cb_timing t;
	struct runner run;
	int rc;

	progress(o, q, rep, reps, m->done++, m->todo * reps, per_visit);
	cb_random(m->bf.a, ring_bytes(q->size));
	rc = runner_prep(&run, &m->ss[m->of[i]].inst, q->dir, o->iv_once,
	                 o->sector, m->bf.a, m->bf.a2, q->size);
	if (rc >= 0)
		rc = cb_time_point(runner_fn(&run), &run, to, &t);
	if (rc < 0) {
		r->status = CB_RES_FAIL;
		r->why = runner_err("error while timed", rc);
		cb_err("%s %s %u-bit %llu B %s: %s", q->backend->name,
		       q->impl->driver, q->key_bits,
		       (unsigned long long)q->size, dir_name(q->dir), r->why);
		m->nfail++;
		return;
	}
	m->rate[i * reps + rep] = t.rate[0];
	m->cnt[i]++;
	m->ops[i] += t.ops_total;
	m->secs[i] += t.secs_total;
	cb_iso_time(r->timestamp, sizeof r->timestamp);
}

/* 3: median, spread, the fit. */
static void measure_summary(struct meas *m)
{
	unsigned reps;

	for (size_t i = 0; i < m->n; i++) {
		struct cb_result *r = &m->res[i];
		double *s;

		if (r->status == CB_RES_OK && !m->cnt[i]) {
			r->status = CB_RES_SKIP;     /* ^C came first */
			r->why = cb_xstrdup("interrupted before it was measured");
		}
		if (r->status != CB_RES_OK)
			continue;
		reps = m->cnt[i];
		s = cb_xmalloc(reps * sizeof *s);
		memcpy(s, &m->rate[i * m->o->reps], reps * sizeof *s);
		r->samples = s;
		r->reps = reps;
		r->ops_per_sec = cb_median(s, reps);
		r->rel_spread = cb_rel_spread(s, reps);
		r->bytes_per_sec = r->ops_per_sec * (double)m->p[i].size;
		r->ns_per_byte = 1e9 / r->bytes_per_sec;
		r->seconds = m->secs[i];
		r->bytes_total = m->ops[i] * m->p[i].size;
	}
	for (size_t i = 0, from = 0; i <= m->n; i++)
		if (i == m->n || (i && !same_series(&m->p[i], &m->p[i - 1]))) {
			if (i)
				fit_series(m->res, from, i);
			from = i;
		}
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
	struct meas m = { .o = o, .p = p, .n = n, .res = res };
	double per_visit;

	if (to.warmup < 0.005)
		to.warmup = 0.005;
	per_visit = to.sec + to.warmup + 0.002;
	m.ss = cb_xcalloc(n, sizeof *m.ss);
	m.of = cb_xcalloc(n, sizeof *m.of);
	m.rate = cb_xcalloc((size_t)n * reps, sizeof *m.rate);
	m.secs = cb_xcalloc(n, sizeof *m.secs);
	m.ops = cb_xcalloc(n, sizeof *m.ops);
	m.cnt = cb_xcalloc(n, sizeof *m.cnt);
	for (size_t i = 0; i < n; i++)
		if (ring_bytes(p[i].size) > m.bf.size)
			m.bf.size = ring_bytes(p[i].size);
	bufs_alloc(&m.bf);

	measure_gate(&m);
	for (unsigned rep = 0; rep < reps && !cb_stop; rep++) /* 2: round robin */
		for (size_t i = 0; i < n && !cb_stop; i++)
			if (res[i].status == CB_RES_OK)
				measure_visit(&m, i, rep, &to, per_visit);
	progress_done(o);
	measure_summary(&m);

	for (size_t k = 0; k < m.nss; k++)
		series_free(&m.ss[k]);
	gate_free(&m.gate);
	bufs_free(&m.bf);
	free(m.ss);
	free(m.of);
	free(m.rate);
	free(m.secs);
	free(m.ops);
	free(m.cnt);
	return m.nfail;
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

void free_results(struct cb_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free((void *)res[i].why);
		free((void *)res[i].samples);
	}
	free(res);
}

/*
 * Plan, measure and return the results.  Returns CB_EXIT_SKIP when there
 * is nothing to run (message printed), else CB_EXIT_OK with *nfail set.
 */
int speed_run(const struct speed_opts *o, struct cb_result **res,
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
