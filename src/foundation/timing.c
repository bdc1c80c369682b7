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
#include <sys/resource.h>
#include <time.h>

#include "foundation/timing.h"

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

double cb_now_s(void)
{
	return (double)cb_now_ns() * 1e-9;
}

uint64_t cb_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return cb_now_ns();
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void cb_lap(enum cb_acct k, uint64_t *t0)
{
	uint64_t t = cb_now_ns();

	cb_acct_add(k, t > *t0 ? t - *t0 : 0);
	*t0 = t;
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
	uint64_t t0, t;
	double g;

	if (!add_chain(1))
		return 0;
	/* Spin ~10 ms so that a core in a low-power state ramps up. */
	t = t0 = cb_now_ns();
	while (cb_now_ns() - t0 < 10000000)
		add_chain(iters / 10);
	g = ghz_best(iters, 5, cb_now_ns);
	cb_lap(CB_ACCT_CLOCK, &t);
	return g;
}

double cb_measure_ghz_quick(void)
{
	uint64_t t = cb_now_ns();
	double g;

	if (!add_chain(1))
		return 0;
	/* 2 x 1e5 cycles, ~0.06 ms, on the thread's CPU time: a trial the
	 * scheduler interrupts still counts only the cycles it ran */
	g = ghz_best(1000, 2, cb_cpu_ns);
	cb_lap(CB_ACCT_CLOCK, &t);
	return g;
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

/* ---- the contention canary --------------------------------------------- */

/*
 * Four independent integer add chains and four vector ones: six
 * instructions a cycle wanted, on the integer and the vector ports both,
 * so the loop is bound by the ports and the front end, the resources a busy
 * SMT sibling takes half of whatever it runs.  A dependent chain (the clock
 * loop above) barely notices a sibling; this loop slows to about half
 * while one is busy, which is how a sample learns that the core was shared.
 * Returns 0 where there is no such loop.
 */
static int wide_adds(unsigned long iters)
{
#if defined(__x86_64__)
	unsigned long a = 0, b = 0, c = 0, d = 0;

	__asm__ volatile("pxor %%xmm8, %%xmm8\n\tpxor %%xmm9, %%xmm9\n\t"
	                 "pxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n"
	                 "1:\n\t"
	                 ".rept 10\n\t"
	                 "add $1, %0\n\tpaddq %%xmm8, %%xmm8\n\t"
	                 "add $1, %1\n\tpaddq %%xmm9, %%xmm9\n\t"
	                 "add $1, %2\n\tpaddq %%xmm10, %%xmm10\n\t"
	                 "add $1, %3\n\tpaddq %%xmm11, %%xmm11\n\t"
	                 ".endr\n\t"
	                 "dec %4\n\t"
	                 "jnz 1b"
	                 : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(iters)
	                 : : "cc", "xmm8", "xmm9", "xmm10", "xmm11");
	return 1;
#elif defined(__aarch64__)
	unsigned long a = 0, b = 0, c = 0, d = 0;

	__asm__ volatile("movi v16.2d, #0\n\tmovi v17.2d, #0\n\t"
	                 "movi v18.2d, #0\n\tmovi v19.2d, #0\n"
	                 "1:\n\t"
	                 ".rept 10\n\t"
	                 "add %0, %0, #1\n\tadd v16.2d, v16.2d, v16.2d\n\t"
	                 "add %1, %1, #1\n\tadd v17.2d, v17.2d, v17.2d\n\t"
	                 "add %2, %2, #1\n\tadd v18.2d, v18.2d, v18.2d\n\t"
	                 "add %3, %3, #1\n\tadd v19.2d, v19.2d, v19.2d\n\t"
	                 ".endr\n\t"
	                 "subs %4, %4, #1\n\t"
	                 "b.ne 1b"
	                 : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(iters)
	                 : : "cc", "v16", "v17", "v18", "v19");
	return 1;
#else
	(void)iters;
	return 0;
#endif
}

#define CANARY_ITERS 150        /* 12000 adds: ~0.7 us at 6 a cycle   */

static double canary_best;      /* the fastest reading so far, adds/ns */
static int canary_off;          /* cb_canary_enable(0), or no loop     */

/* The default canary: 1 if the core ran the wide loop at full speed (at
 * least CB_CANARY_SHARE of the fastest run seen), 0 if it was shared. */
static int canary_wide(void)
{
	uint64_t t0, t1;
	double rate;

	t0 = cb_now_ns();
	wide_adds(CANARY_ITERS);
	t1 = cb_now_ns();
	if (t1 <= t0)
		return 1;
	rate = CANARY_ITERS * 80.0 / (double)(t1 - t0);
	if (rate > canary_best)
		canary_best = rate;
	return rate >= CB_CANARY_SHARE * canary_best;
}

static int (*canary_fn)(void) = canary_wide;

void cb_canary_enable(int on)
{
	canary_off = !on || !wide_adds(1);
	if (!canary_off && canary_best == 0)
		for (int i = 0; i < 64; i++)    /* a first reference */
			canary_wide();
}

void cb_canary_set(int (*fn)(void))
{
	canary_fn = fn ? fn : canary_wide;
}

static int canary_clean(void)
{
	if (canary_off)
		return 1;
	if (canary_fn == canary_wide && canary_best == 0)
		cb_canary_enable(1);
	return canary_fn();
}

/* ---- one sample: segments between canary readings ------------------------ */

struct seg_sum {
	uint64_t ops, ns;
};

static void seg_add(struct seg_sum *a, uint64_t ops, uint64_t ns)
{
	a->ops += ops;
	a->ns += ns;
}

/* The thread's context switches so far, voluntary or not (a syscall of
 * ~0.4 us: read between segments, never inside one). */
static long switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) < 0)
		return 0;
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/* One segment: batches for about CB_SEGMENT_NS; its ops and wall ns (the
 * monotonic clock, read once per batch: ~30 ns in the vDSO). */
static int run_segment(cb_run_fn fn, void *arg, uint64_t batch,
                       uint64_t *ops, uint64_t *ns)
{
	uint64_t t0 = cb_now_ns(), t, n = 0;
	int rc;

	do {
		if ((rc = fn(arg, batch)) < 0)
			return rc;
		n += batch;
		t = cb_now_ns();
	} while (t - t0 < CB_SEGMENT_NS);
	*ops = n;
	*ns = t - t0 ? t - t0 : 1;
	return 0;
}

/*
 * Run segments until `budget_ns` of them were clean, or four budgets have
 * passed.  A segment ran when the thread was not switched out during it
 * (its wall time is then the thread's own), and is clean when it ran and
 * the canary read clean on both sides.  The sample is the clean segments,
 * or, when too few were clean (s->contended), the ones that ran (every
 * one, if none did).
 */
static int run_sample(cb_run_fn fn, void *arg, uint64_t batch,
                      uint64_t budget_ns, struct cb_sample *s)
{
	struct seg_sum clean = {0}, ran = {0}, all = {0}, *use;
	uint64_t t0 = cb_now_ns(), t1;
	long sw = switches(), sw2;
	int before = canary_clean(), after, rc;

	do {
		uint64_t ops, ns;

		if ((rc = run_segment(fn, arg, batch, &ops, &ns)) < 0)
			return rc;
		sw2 = switches();
		after = canary_clean();
		seg_add(&all, ops, ns);
		if (sw2 == sw)
			seg_add(&ran, ops, ns);
		if (sw2 == sw && before && after)
			seg_add(&clean, ops, ns);
		before = after;
		sw = sw2;
	} while (clean.ns < budget_ns && all.ns < 4 * budget_ns);
	s->contended = clean.ns < budget_ns / 2;
	use = !s->contended ? &clean : ran.ns ? &ran : &all;
	t1 = cb_now_ns();
	cb_acct_add(CB_ACCT_SAMPLE, use->ns);
	cb_acct_add(CB_ACCT_SHARED, all.ns - use->ns);
	cb_acct_add(CB_ACCT_GAPS, t1 - t0 > all.ns ? t1 - t0 - all.ns : 0);
	s->ops = use->ops;
	s->secs = (double)use->ns / 1e9;
	s->shared = ran.ns ? 1 - (double)clean.ns / (double)ran.ns : 0;
	return 0;
}

int cb_calibrate(cb_run_fn fn, void *arg, double warmup, double sample,
                 uint64_t *batch)
{
	uint64_t warm_ns = (uint64_t)(warmup * 1e9), spent = 0, b = 1;
	uint64_t t = cb_now_ns();
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
	cb_lap(CB_ACCT_CALIB, &t);
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
	while (batch > 1 && cb_now_ns() - t0 < wns)  /* timing.h: 1, none */
		if ((rc = fn(arg, batch)) < 0)
			return rc;
	cb_lap(CB_ACCT_WARM, &t0);
	if ((rc = run_sample(fn, arg, batch, ns, s)) < 0)
		return rc;
	s->rate = (double)s->ops / s->secs;
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

uint64_t cb_ticks(void)
{
#if defined(__x86_64__)
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return (uint64_t)hi << 32 | lo;
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
#else
	return cb_now_ns();
#endif
}
