/*
 * measure.c - gate and time a plan.  Each series (one implementation,
 * direction and key) passes the correctness gate (gate.c) before anything
 * is timed; the repetitions then go round robin over the points (see
 * speed_measure()) through the request loops of runner.c.
 */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cb.h"
#include "measure/gate.h"
#include "measure/measure.h"
#include "measure/plan.h"
#include "output/result.h"
#include "measure/runner.h"
#include "foundation/stats.h"
#include "system/sysinfo.h"
#include "foundation/acct.h"
#include "foundation/timing.h"
#include "foundation/util.h"

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
	r->direction = plan_dir_name(q->dir);
	r->iv_mode = !alg->iv_len ? "none"
	             : alg->kind == CB_CIPHER && o->sector ? "per-sector"
	             : o->iv_once ? "once" : "per-request";
	r->threads = 1;
	r->mb = alg->kind == CB_CIPHER ? o->mb : 0;
	r->overhead_ns = r->slope_ns_per_byte = r->cycles_per_byte = NAN;
	r->ghz_drift = NAN;
	cb_iso_time(r->timestamp, sizeof r->timestamp);
}

/* A point's state while it is measured. */
struct mpoint {
	size_t of;                  /* the series of the point              */
	double rate[CB_MAX_REPS];   /* its samples, ops/s                   */
	double ghz[CB_MAX_REPS + 1];      /* clock read around them         */
	unsigned nghz;
	uint64_t batch;             /* operations per batch (calibrated)    */
	double secs, shared;        /* timed; left out as shared            */
	uint64_t ops;
	unsigned char cont[CB_MAX_REPS];  /* 1: that sample was contended   */
	unsigned cnt;               /* samples taken (^C: fewer)            */
	double half;                /* the CI's half-width over them, as a
	                               share of the median (NaN before 2)   */
};

/* The state of one speed_measure() call. */
struct meas {
	const struct speed_opts *o;
	const struct plan *p;
	size_t n;
	struct cb_result *res;
	struct series *ss;          /* one per series                       */
	size_t nss;
	struct mpoint *pt;          /* one per point                        */
	double ghz_last;            /* the latest clock reading             */
	struct gate gate;
	struct bufs bf;
	size_t nfail, done, total;  /* failed points; visits done, planned */
	size_t was;                 /* > 0: the total before a re-plan      */
	double per_visit;           /* a visit's cost, guessed              */
	uint64_t t0_ns;             /* when the rounds began                */
};

/* 1: identities, keys, the gate. */
static void measure_gate(struct meas *m)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct plan *q = &m->p[i];
		struct cb_result *r = &m->res[i];

		identify(r, q, m->o);
		if (i == 0 || !plan_same_series(q, &m->p[i - 1])) {
			uint64_t t = cb_now_ns();

			gate_series(&m->gate, &m->ss[m->nss++], m->p, m->n, i, m->o,
			            &m->bf);
			cb_lap(CB_ACCT_GATE, &t);
		}
		m->pt[i].of = m->nss - 1;
		if (q->skip) {
			r->status = CB_RES_SKIP;
			r->why = cb_xstrdup(q->skip);
		} else if (m->ss[m->pt[i].of].fail) {
			r->status = CB_RES_FAIL;
			r->why = cb_xstrdup(m->ss[m->pt[i].of].fail);
			m->nfail++;
		} else {
			r->status = CB_RES_OK;    /* until shown otherwise */
		}
	}
}

/* A point errored while timed: it fails, with the reason. */
static void visit_failed(struct meas *m, size_t i, int rc)
{
	const struct plan *q = &m->p[i];
	struct cb_result *r = &m->res[i];

	r->status = CB_RES_FAIL;
	r->why = runner_err("error while timed", rc);
	cb_err("%s %s %u-bit %llu B %s: %s", q->backend->name, q->impl->driver,
	       q->key_bits, (unsigned long long)q->size, plan_dir_name(q->dir),
	       r->why);
	m->nfail++;
}

/* A fresh runner for point i (counters from zero; an AEAD decryption
 * encrypts the buffer first).  The buffer is not re-randomised: it was
 * filled once, and what earlier points left in it is as random. */
static int visit_prep(struct meas *m, size_t i, struct runner *run)
{
	const struct plan *q = &m->p[i];
	uint64_t t = cb_now_ns();
	int rc = runner_prep(run, &m->ss[m->pt[i].of].inst, q->dir,
	                     m->o->iv_once, m->o->sector, m->o->mb, m->bf.a,
	                     m->bf.a2, q->size);

	cb_lap(CB_ACCT_WARM, &t);
	return rc;
}

/* A point's first visit: warm it up (o->warmup) and size its batches;
 * then its first sample needs no warm-up of its own.  0 or the error. */
static int visit_calibrate(struct meas *m, size_t i, struct runner *run)
{
	uint64_t *batch = &m->pt[i].batch;
	int rc = cb_calibrate(runner_fn(run), run, m->o->warmup,
	                      m->p[i].sample_sec, batch);

	if (rc >= 0 && run->mb)             /* whole submissions of --mb */
		*batch = (*batch + run->mb - 1) / run->mb * run->mb;
	return rc;
}

/* The clock moved more than drift_max between two readings. */
static int clock_moved(const struct meas *m, double before, double after)
{
	return before > 0 && after > 0 &&
	       fabs(after - before) / before > m->o->drift_max;
}

/* One sample of point i and the clock after it; a sample the clock moved
 * under is taken again at once (up to CB_SAMPLE_RETAKES times, counted in
 * retaken).  0 or the operation's error. */
static int take_sample(struct meas *m, size_t i, struct cb_sample *smp)
{
	const struct plan *q = &m->p[i];
	double warm = q->sample_sec / 5, before = m->ghz_last;
	struct runner run;
	int rc;

	for (unsigned t = 0; ; t++) {
		int first = !m->pt[i].batch;

		rc = visit_prep(m, i, &run);
		if (rc >= 0 && first)
			rc = visit_calibrate(m, i, &run);
		if (rc >= 0)
			rc = cb_time_sample(runner_fn(&run), &run,
			                    m->pt[i].batch, q->sample_sec, first ? 0
			                    : warm > m->o->visit_warm ? m->o->visit_warm
			                    : warm, smp);
		m->ghz_last = cb_measure_ghz_quick();
		if (rc < 0 || t == CB_SAMPLE_RETAKES ||
		    !clock_moved(m, before, m->ghz_last))
			return rc;
		m->res[i].retaken++;
		before = m->ghz_last;
	}
}

static double *samples_of(const struct meas *m, size_t i, unsigned *n);

/* Point i's 95 % CI half-width over its samples so far (the ones its
 * statistics will use), as a share of the median; NaN before 2. */
static double ci_now(const struct meas *m, size_t i)
{
	struct cb_stats st;
	unsigned n;
	double *s = samples_of(m, i, &n), h = NAN;

	if (n >= 2 && cb_stats_summary(s, n, &st) == 0)
		h = st.ci_half;
	free(s);
	return h;
}

/* A visit's cost so far (seconds), the guess before the first. */
static double visit_cost(const struct meas *m)
{
	if (!m->done)
		return m->per_visit;
	return (double)(cb_now_ns() - m->t0_ns) / 1e9 / (double)m->done;
}

/* The visits still to come: every point's samples left; with a deadline
 * its first o->min_rounds (taken whatever the time) and as many more as
 * the time left holds at the visits' cost so far. */
static size_t visits_left(const struct meas *m)
{
	const struct speed_opts *o = m->o;
	uint64_t now = cb_now_ns();
	size_t least = 0, most = 0, fit;

	for (size_t i = 0; i < m->n; i++) {
		unsigned c = m->pt[i].cnt, s = m->p[i].samples;
		unsigned l = o->until_ns && o->min_rounds < s ? o->min_rounds : s;

		if (m->res[i].status != CB_RES_OK)
			continue;
		least += l > c ? l - c : 0;
		most += s > c ? s - c : 0;
	}
	if (!o->until_ns)
		return most;
	fit = o->until_ns > now ? (size_t)((double)(o->until_ns - now) / 1e9 /
	                                   visit_cost(m)) : 0;
	return fit < least ? least : fit > most ? most : fit;
}

/* The total planned anew (each round, and whenever the visits outrun
 * it); the next line says what it was. */
static void replan(struct meas *m, size_t total)
{
	if (total == m->total)
		return;
	if (m->done)
		m->was = m->total;
	m->total = total;
}

/* Seconds to the end: of the whole job (o->end_ns), or of this pass's
 * visits left at their cost so far when that is later. */
static double eta_of(const struct meas *m)
{
	double left = (double)(m->total - m->done) * visit_cost(m);
	uint64_t now = cb_now_ns(), end = m->o->end_ns;

	if (end > now && (double)(end - now) / 1e9 > left)
		return (double)(end - now) / 1e9;
	return left;
}

/* A progress line: in place and cut to the terminal's width on a tty
 * (ETA first, so the cut keeps it), a line per update otherwise.  "[PHASE
 * done/total] ETA m:ss  what" (docs/speed.md: progress). */
static void progress_line(const struct meas *m, const char *what)
{
	const char *ph = m->o->phase ? m->o->phase : "speed";
	int eta = (int)ceil(eta_of(m));
	char line[640], was[48] = "";

	if (m->was)
		snprintf(was, sizeof was, "  (re-planned: was %zu)", m->was);
	snprintf(line, sizeof line, "[%s %zu/%zu] ETA %d:%02d  %s%s", ph,
	         m->done, m->total, eta / 60, eta % 60, what, was);
	if (isatty(2))
		fprintf(stderr, "\r\033[K%.*s", cb_term_width() - 1, line);
	else
		fprintf(stderr, "%s\n", line);
	fflush(stderr);
}

/* The line before point i's next visit: the visits done before it. */
static void progress(struct meas *m, size_t i)
{
	const struct plan *q = &m->p[i];
	char what[512], of[24] = "";
	size_t left;

	if (m->done + 1 > m->total)       /* this visit is beyond the plan */
		replan(m, m->done + ((left = visits_left(m)) ? left : 1));
	if (!m->o->progress)
		return;
	if (!m->o->until_ns)
		snprintf(of, sizeof of, "/%u", q->samples);
	snprintf(what, sizeof what, "sample %u%s: %s %s %u-bit %llu B %s",
	         m->pt[i].cnt + 1, of, q->backend->name, q->impl->driver,
	         q->key_bits, (unsigned long long)q->size, plan_dir_name(q->dir));
	progress_line(m, what);
	m->was = 0;
}

/* The last line of the pass: done == total, and why it differs from the
 * plan when it does; then a tty's line is cleared. */
static void progress_end(struct meas *m)
{
	char what[160], why[96] = "";
	size_t pts = 0;

	if (!m->o->progress)
		return;
	for (size_t i = 0; i < m->n; i++)
		pts += m->pt[i].cnt > 0;
	if (m->done != m->total)
		snprintf(why, sizeof why, " (planned %zu: %s)", m->total,
		         cb_stop ? "interrupted" : m->done > m->total ? "more"
		         : m->o->until_ns && cb_now_ns() >= m->o->until_ns
		         ? "the pass's time ran out"
		         : "the CIs reached their target sooner");
	m->total = m->done;
	m->was = 0;
	snprintf(what, sizeof what, "pass done: %zu samples of %zu points%s",
	         m->done, pts, why);
	progress_line(m, what);
	if (isatty(2))
		fprintf(stderr, "\r\033[K");
}

/* The next sample of point i, with the clock read after it (the reading
 * before it is the one after the previous visit). */
static void measure_visit(struct meas *m, size_t i)
{
	struct mpoint *pt = &m->pt[i];
	unsigned k = pt->cnt;
	struct cb_sample smp;
	int rc;

	progress(m, i);
	m->done++;
	if ((rc = take_sample(m, i, &smp)) < 0) {
		visit_failed(m, i, rc);
		return;
	}
	pt->rate[k] = smp.rate;
	pt->cont[k] = (unsigned char)smp.contended;
	pt->cnt++;
	pt->ghz[pt->nghz++] = m->ghz_last;
	pt->ops += smp.ops;
	pt->secs += smp.secs;
	pt->shared += smp.shared;
	pt->half = ci_now(m, i);
	cb_iso_time(m->res[i].timestamp, sizeof m->res[i].timestamp);
}

/* (max - min) / median of point i's clock readings; NaN without any. */
static double drift_of(const struct meas *m, size_t i)
{
	const struct mpoint *pt = &m->pt[i];
	struct cb_stats st;
	double lo = INFINITY, hi = 0;

	for (unsigned k = 0; k < pt->nghz; k++) {
		lo = pt->ghz[k] < lo ? pt->ghz[k] : lo;
		hi = pt->ghz[k] > hi ? pt->ghz[k] : hi;
	}
	if (cb_stats_summary(pt->ghz, pt->nghz, &st) < 0 || !(st.median > 0))
		return NAN;
	return (hi - lo) / st.median;
}

/* Time is left before o->until_ns (always, without one; in the first
 * o->min_rounds rounds too). */
static int time_left(const struct meas *m, unsigned k)
{
	const struct speed_opts *o = m->o;

	if (!o->until_ns || k < o->min_rounds)
		return 1;
	return cb_now_ns() < o->until_ns;
}

/*
 * Point i takes part in round k: it is being measured, has samples left,
 * and either the first o->min_rounds rounds are not over or (adaptive:
 * o->target > 0) its CI is still wider than the target.  Without a
 * target every point takes all its samples.
 */
static int wants_sample(const struct meas *m, size_t i, unsigned k,
                        double target)
{
	if (m->res[i].status != CB_RES_OK || m->pt[i].cnt >= m->p[i].samples)
		return 0;
	if (!(target > 0) || k < m->o->min_rounds)
		return 1;
	return !(m->pt[i].half <= target);
}

/* The points of round k (o->target tightened to *target); how many.
 * When none is left and there is a deadline, the target halves (down to
 * an eighth of o->target): the rest of the time goes to the widest CIs. */
static size_t round_points(struct meas *m, unsigned k, double *target,
                           char *in)
{
	size_t n;

	for (;;) {
		n = 0;
		for (size_t i = 0; i < m->n; i++)
			n += (in[i] = (char)wants_sample(m, i, k, *target));
		if (n || !m->o->until_ns || !(*target > 0) ||
		    *target < m->o->target / 8)
			return n;
		*target /= 2;
	}
}

/*
 * The samples of every point being measured, round robin.  The first
 * o->min_rounds rounds visit every point; after them, with a target
 * (bench, --format cryptsetup), a round visits only the points whose CI
 * is still wider than it (docs/speed.md: sequential sampling).  With a
 * deadline, rounds go on until it, the last one cut short by it.
 */
static void measure_rounds(struct meas *m)
{
	double target = m->o->target;
	char *in = cb_xcalloc(m->n ? m->n : 1, 1);

	m->ghz_last = cb_measure_ghz_quick();
	for (size_t i = 0; i < m->n; i++)
		if (m->res[i].status == CB_RES_OK) {
			m->pt[i].half = NAN;
			m->pt[i].ghz[m->pt[i].nghz++] = m->ghz_last;
		}
	m->t0_ns = cb_now_ns();
	for (unsigned k = 0; !cb_stop && time_left(m, k) &&
	                     round_points(m, k, &target, in); k++) {
		replan(m, m->done + visits_left(m));
		for (size_t i = 0; i < m->n && !cb_stop && time_left(m, k); i++)
			if (in[i])
				measure_visit(m, i);
	}
	free(in);
	progress_end(m);
}

/* How many of point i's samples were contended. */
static unsigned contended_of(const struct meas *m, size_t i)
{
	unsigned c = 0;

	for (unsigned k = 0; k < m->pt[i].cnt; k++)
		c += m->pt[i].cont[k];
	return c;
}

/*
 * The samples point i's statistics use, into a new array (*n of them):
 * the uncontended ones when there are at least CB_SAMPLES_CLEAN of them and
 * they are at least half; every sample otherwise (the machine was never
 * quiet enough: the CI will say so).
 */
static double *samples_of(const struct meas *m, size_t i, unsigned *n)
{
	const struct mpoint *pt = &m->pt[i];
	unsigned all = pt->cnt, clean = all - contended_of(m, i), k, j = 0;
	double *s = cb_xmalloc((all ? all : 1) * sizeof *s);
	int drop = clean >= CB_SAMPLES_CLEAN && 2 * clean >= all;

	for (k = 0; k < all; k++)
		if (!drop || !pt->cont[k])
			s[j++] = pt->rate[k];
	*n = j;
	return s;
}

/* r's statistics from its samples s (n of them; r takes s). */
static void set_stats(struct cb_result *r, double *s, unsigned n)
{
	struct cb_stats st;

	r->samples = s;
	r->reps = n;
	if (cb_stats_summary(s, n, &st) < 0)
		st.median = st.lo = st.hi = st.mad = NAN;
	r->ops_per_sec = st.median;
	r->ci_low_ops = st.lo;
	r->ci_high_ops = st.hi;
	r->mad_ops = st.mad;
	r->noisy = cb_stats_noisy(&st);
	r->rel_spread = cb_rel_spread(s, n);
	r->bytes_per_sec = r->ops_per_sec * (double)r->block_bytes;
	r->ns_per_byte = 1e9 / r->bytes_per_sec;
}

void speed_result_pool(struct cb_result *r, const struct cb_result *more)
{
	unsigned n = r->reps + more->reps;
	double *s;

	if (r->status != CB_RES_OK || more->status != CB_RES_OK ||
	    !more->reps || n > 4 * CB_MAX_REPS)
		return;
	s = cb_xmalloc(n * sizeof *s);
	memcpy(s, r->samples, r->reps * sizeof *s);
	memcpy(s + r->reps, more->samples, more->reps * sizeof *s);
	if (!r->nprocs)
		r->proc_n[r->nprocs++] = r->reps;
	if (r->nprocs < CB_MAX_PROCS)
		r->proc_n[r->nprocs++] = more->reps;
	else
		r->proc_n[CB_MAX_PROCS - 1] += more->reps;
	r->shared = (r->shared * r->reps + more->shared * more->reps) / n;
	r->contended += more->contended;
	r->seconds += more->seconds;
	r->bytes_total += more->bytes_total;
	r->ghz_drift = more->ghz_drift > r->ghz_drift ? more->ghz_drift
	               : r->ghz_drift;
	free((void *)r->samples);
	set_stats(r, s, n);
	r->cycles_per_byte = r->ghz > 0 ? r->ns_per_byte * r->ghz : NAN;
}

/* 4: median, its CI, MAD, the spread, the fit. */
static void measure_summary(struct meas *m)
{
	for (size_t i = 0; i < m->n; i++) {
		struct cb_result *r = &m->res[i];
		unsigned n;
		double *s;

		if (r->status == CB_RES_OK && !m->pt[i].cnt) {
			r->status = CB_RES_SKIP;     /* ^C came first */
			r->why = cb_xstrdup("interrupted before it was measured");
		}
		if (r->status != CB_RES_OK)
			continue;
		s = samples_of(m, i, &n);
		set_stats(r, s, n);
		r->seconds = m->pt[i].secs;
		r->bytes_total = m->pt[i].ops * m->p[i].size;
		r->shared = m->pt[i].shared / m->pt[i].cnt;
		r->contended = contended_of(m, i);
		r->ghz_drift = drift_of(m, i);
	}
	for (size_t i = 0, from = 0; i <= m->n; i++)
		if (i == m->n || (i && !plan_same_series(&m->p[i], &m->p[i - 1]))) {
			if (i)
				fit_series(m->res, from, i);
			from = i;
		}
}

/*
 * Pin the thread to the CPU it is on, where allowed (a migration in the
 * middle of a sample moves its cache and its clock); *old gets the mask
 * to restore.  0 if pinned.
 */
static int pin_cpu(cpu_set_t *old)
{
	cpu_set_t one;
	int cpu = sched_getcpu();

	if (cpu < 0 || sched_getaffinity(0, sizeof *old, old) < 0)
		return -1;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof one, &one);   /* EPERM: not pinned */
}

static void meas_alloc(struct meas *m)
{
	size_t n = m->n;

	m->ss = cb_xcalloc(n, sizeof *m->ss);
	m->pt = cb_xcalloc(n, sizeof *m->pt);
	for (size_t i = 0; i < n; i++)
		if (runner_ring_bytes(m->p[i].size, m->o->mb) > m->bf.size)
			m->bf.size = runner_ring_bytes(m->p[i].size, m->o->mb);
	runner_bufs_alloc(&m->bf);
}

static void meas_free(struct meas *m)
{
	for (size_t k = 0; k < m->nss; k++)
		gate_series_free(&m->ss[k]);
	gate_free(&m->gate);
	runner_bufs_free(&m->bf);
	free(m->ss);
	free(m->pt);
}

/*
 * Measure every planned point into res[] (n of them); returns the number
 * of failed points.  The method (docs/speed.md):
 *
 * First every series is keyed and gated.  Then the samples go round
 * robin: sample 1 of every point, then sample 2 of every point, and so
 * on; a point's first visit warms it up and sizes its batches, every
 * later one has a short warm-up.  On a shared machine the disturbances last from
 * milliseconds to seconds (a busy SMT sibling halves AES throughput);
 * many short samples spread over the whole run sample many moments, and
 * the median with its confidence interval says how sure the number is.
 * The core clock is read between visits: a sample it moved under is
 * taken again at once, and each point's drift is reported.
 */
size_t speed_measure(const struct speed_opts *o, const struct plan *p,
               size_t n, struct cb_result *res)
{
	struct meas m = { .o = o, .p = p, .n = n, .res = res };
	cpu_set_t old;
	int pinned = pin_cpu(&old) == 0;

	meas_alloc(&m);
	measure_gate(&m);
	for (size_t i = 0; i < n; i++)
		if (res[i].status == CB_RES_OK)
			m.per_visit = p[i].sample_sec * 1.2 + 0.0006;
	measure_rounds(&m);
	measure_summary(&m);
	meas_free(&m);
	if (pinned)
		sched_setaffinity(0, sizeof old, &old);
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

void speed_free_results(struct cb_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free((void *)res[i].why);
		free((void *)res[i].samples);
	}
	free(res);
}

void speed_plan_make(const struct speed_opts *o, struct speed_plan *sp)
{
	memset(sp, 0, sizeof *sp);
	sp->n = plan_make(o, &sp->p, &sp->notes, &sp->nnotes);
	for (size_t i = 0; i < sp->n; i++)
		sp->runnable += !sp->p[i].skip;
}

void speed_plan_free(struct speed_plan *sp)
{
	for (size_t i = 0; i < sp->nnotes; i++)
		free(sp->notes[i]);
	free(sp->notes);
	plan_free(sp->p, sp->n);
	memset(sp, 0, sizeof *sp);
}

/* What a run says before it starts: unavailable backends, the plan's
 * notes (once: they are freed), --iv once on algorithms that ignore it. */
static void plan_notes(const struct speed_opts *o, struct speed_plan *sp)
{
	for (size_t i = 0; i < o->sel.nbackends; i++) {
		const char *why;

		if (cb_backend_status(o->sel.backends[i], &why) < 0 &&
		    !o->all_backends)
			cb_warn("%s: unavailable: %s", o->sel.backends[i]->name, why);
	}
	for (size_t i = 0; i < sp->nnotes; i++) {
		cb_warn("%s", sp->notes[i]);
		free(sp->notes[i]);
	}
	free(sp->notes);
	sp->notes = NULL;
	sp->nnotes = 0;
}

static void iv_once_notes(const struct speed_opts *o)
{
	for (size_t i = 0; o->iv_once && i < o->sel.nalgs; i++) {
		const struct cb_alg *a = o->sel.algs[i].alg;

		if ((a->kind == CB_CIPHER && a->iv_len &&
		     !(a->flags & CB_F_STREAM)) || a->kind == CB_AEAD)
			cb_warn("--iv once: %s does not chain requests; every "
			        "request reuses the same IV", a->name);
	}
}

int speed_plan_run(const struct speed_opts *o, struct speed_plan *sp,
                   struct cb_result **res, size_t *nres, size_t *nfail)
{
	plan_notes(o, sp);
	if (!sp->runnable) {
		cb_err("nothing to run: no available backend implements the "
		       "algorithms%s%s asked for at these sizes and keys",
		       o->sel.ndrivers ? " with a driver matching " : "",
		       o->sel.ndrivers ? o->sel.drivers[0] : "");
		return CB_EXIT_SKIP;
	}
	iv_once_notes(o);
	if (gate_ready(o) < 0)
		return CB_EXIT_USAGE;
	for (size_t i = 0; i < sp->n; i++) {   /* o's samples as they are now */
		sp->p[i].samples = plan_samples(o);
		sp->p[i].sample_sec = plan_sample_sec(o);
	}
	cb_prov_measure_ghz();
	*res = cb_xcalloc(sp->n, sizeof **res);
	*nfail = speed_measure(o, sp->p, sp->n, *res);
	cb_prov_measure_ghz();
	fill_cycles(*res, sp->n);
	*nres = sp->n;
	return CB_EXIT_OK;
}

int speed_run(const struct speed_opts *o, struct cb_result **res,
              size_t *nres, size_t *nfail)
{
	struct speed_plan sp;
	int rc;

	speed_plan_make(o, &sp);
	rc = speed_plan_run(o, &sp, res, nres, nfail);
	speed_plan_free(&sp);
	return rc;
}
