/*
 * timing.c - the timing engine (see timing.h): clock, measured core
 * clock, time-boxed repetitions with median and spread, and the
 * time-vs-size fit.  Backends never see this file: it only calls the
 * cb_run_fn it is given, once per batch of operations.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timing.h"

#ifdef CLOCK_MONOTONIC_RAW
#define CB_CLOCK CLOCK_MONOTONIC_RAW
#define CB_CLOCK_NAME "CLOCK_MONOTONIC_RAW"
#else
#define CB_CLOCK CLOCK_MONOTONIC
#define CB_CLOCK_NAME "CLOCK_MONOTONIC"
#endif

uint64_t cb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CB_CLOCK, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t cb_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return cb_now_ns();
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const char *cb_clock_name(void)
{
	return CB_CLOCK_NAME;
}

/* ---- core clock: a dependent-add chain -------------------------------- */

#define ADDS_PER_ITER 100

/* Runs ADDS_PER_ITER * iters dependent adds: that many cycles. */
static int add_chain(uint64_t iters)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned long x = 0, n = (unsigned long)iters;

	__asm__ volatile("1:\n\t"
	                 ".rept 100\n\t"
	                 "add $1, %0\n\t"
	                 ".endr\n\t"
	                 "dec %1\n\t"
	                 "jnz 1b"
	                 : "+r"(x), "+r"(n) : : "cc");
	return 1;
#elif defined(__aarch64__)
	unsigned long x = 0, n = (unsigned long)iters;

	__asm__ volatile("1:\n\t"
	                 ".rept 100\n\t"
	                 "add %0, %0, #1\n\t"
	                 ".endr\n\t"
	                 "subs %1, %1, #1\n\t"
	                 "b.ne 1b"
	                 : "+r"(x), "+r"(n) : : "cc");
	return 1;
#else
	(void)iters;
	return 0;
#endif
}

/* The fastest of trials chains of iters x 100 dependent adds, in GHz. */
static double ghz_best(uint64_t iters, int trials, uint64_t (*now)(void))
{
	double best = 0;

	for (int trial = 0; trial < trials; trial++) {
		uint64_t a = now(), b;
		double ghz;

		add_chain(iters);
		b = now();
		if (b <= a)
			continue;
		ghz = (double)(iters * ADDS_PER_ITER) / (double)(b - a);
		if (ghz > best)
			best = ghz;   /* preemption only ever slows a trial */
	}
	return best;
}

double cb_measure_ghz(void)
{
	const uint64_t iters = 50000;   /* 5e6 cycles: ~1.4 ms at 3.6 GHz */
	uint64_t t0;

	if (!add_chain(1))
		return 0;
	/* Spin ~20 ms so that a core in a low-power state ramps up. */
	t0 = cb_now_ns();
	while (cb_now_ns() - t0 < 20000000)
		add_chain(iters / 10);
	return ghz_best(iters, 9, cb_now_ns);
}

double cb_measure_ghz_quick(void)
{
	if (!add_chain(1))
		return 0;
	/* 3 x 5e5 cycles, ~0.4 ms, on the thread's CPU time: a trial the
	 * scheduler interrupts still counts only the cycles it ran */
	return ghz_best(5000, 3, cb_cpu_ns);
}

/* ---- time-boxed repetitions ------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double cb_median(const double *v, size_t n)
{
	double tmp[CB_MAX_REPS], *w = tmp, m;

	if (!n)
		return NAN;
	if (n > CB_MAX_REPS && !(w = malloc(n * sizeof *w)))
		return NAN;
	memcpy(w, v, n * sizeof *w);
	qsort(w, n, sizeof *w, cmp_double);
	m = n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
	if (w != tmp)
		free(w);
	return m;
}

/*
 * Run batches of `batch` operations until `budget_ns` has passed; the
 * clock is read once per batch.  The overshoot is at most one batch, and
 * the rate uses the operations actually done over the time actually taken.
 */
static int run_boxed(cb_run_fn fn, void *arg, uint64_t batch,
                     uint64_t budget_ns, uint64_t *ops, uint64_t *ns)
{
	uint64_t t0 = cb_now_ns(), t = t0, n = 0;
	int rc;

	do {
		if ((rc = fn(arg, batch)) < 0)
			return rc;
		n += batch;
		t = cb_now_ns();
	} while (t - t0 < budget_ns);
	*ops = n;
	*ns = t - t0 ? t - t0 : 1;
	return 0;
}

/* run_boxed, also reading the thread's CPU time around the box. */
static int run_boxed_cpu(cb_run_fn fn, void *arg, uint64_t batch,
                         uint64_t budget_ns, struct cb_sample *s)
{
	uint64_t c0 = cb_cpu_ns(), ns, c1;
	int rc;

	if ((rc = run_boxed(fn, arg, batch, budget_ns, &s->ops, &ns)) < 0)
		return rc;
	c1 = cb_cpu_ns();
	s->secs = (double)ns / 1e9;
	s->cpu_secs = c1 > c0 ? (double)(c1 - c0) / 1e9 : s->secs;
	return 0;
}

int cb_calibrate(cb_run_fn fn, void *arg, double warmup, double sample,
                 uint64_t *batch)
{
	uint64_t warm_ns = (uint64_t)(warmup * 1e9), spent = 0, b = 1;
	double rate = 0;
	int rc;

	/* Warm-up and calibration: doubling batches, untimed. */
	do {
		uint64_t t0 = cb_now_ns(), t1;

		if ((rc = fn(arg, b)) < 0)
			return rc;
		t1 = cb_now_ns();
		spent += t1 - t0;
		if (t1 - t0 > 200000)       /* long enough to trust: 0.2 ms */
			rate = (double)b / (double)(t1 - t0);
		if (t1 - t0 < 2000000)
			b *= 2;
	} while (spent < warm_ns || rate == 0);

	/* ~64 batches per sample keeps the clock reads negligible and the
	 * overshoot under 2 %, which the rate accounts for anyway. */
	b = (uint64_t)(rate * sample * 1e9 / 64);
	*batch = b < 1 ? 1 : b;
	return 0;
}

int cb_time_sample(cb_run_fn fn, void *arg, uint64_t batch, double sample,
                   double warm, struct cb_sample *s)
{
	uint64_t ns = (uint64_t)(sample * 1e9), wns = (uint64_t)(warm * 1e9);
	uint64_t t0 = cb_now_ns();
	int rc;

	if (ns < 1000000)
		ns = 1000000;
	while (cb_now_ns() - t0 < wns)
		if ((rc = fn(arg, batch)) < 0)
			return rc;
	if ((rc = run_boxed_cpu(fn, arg, batch, ns, s)) < 0)
		return rc;
	s->rate = (double)s->ops / s->cpu_secs;
	return 0;
}

double cb_rel_spread(const double *v, size_t n)
{
	double lo, hi, m = cb_median(v, n);

	if (!n || !(m > 0))
		return 0;
	lo = hi = v[0];
	for (size_t i = 1; i < n; i++) {
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	return (hi - lo) / m;
}

/* ---- the time-vs-size fit ----------------------------------------------- */

int cb_fit_line(const double *x, const double *y, size_t n, double *a,
                double *b)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, d;

	for (size_t i = 0; i < n; i++) {
		sx += x[i];
		sy += y[i];
	}
	if (n < 2)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		double dx = x[i] - sx / (double)n;

		sxx += dx * dx;
		sxy += dx * (y[i] - sy / (double)n);
	}
	if (sxx <= 0)
		return -EINVAL;
	d = sxy / sxx;
	*b = d;
	*a = sy / (double)n - d * sx / (double)n;
	return 0;
}
