/*
 * timing.h - the timing engine: a monotonic clock, the core clock measured
 * by a dependent-add loop, time-boxed repetitions of an operation with
 * their median and spread, and the least-squares fit of time against size
 * that splits a per-call overhead from a per-byte cost.
 *
 * The engine knows nothing about backends or algorithms: it times a
 * callback that performs n operations in a tight loop (src/measure/runner.c has
 * them).  The clock is read once per batch, never per operation; the batch
 * is sized from the warm-up so that a sample holds ~64 batches.
 */
#ifndef CB_TIMING_H
#define CB_TIMING_H

#include <stddef.h>
#include <stdint.h>

#include "foundation/acct.h"

#define CB_MAX_REPS 100

/* Nanoseconds from the monotonic clock named by cb_clock_name(). */
uint64_t cb_now_ns(void);
/* The same clock in seconds, for budgets and wall times. */
double cb_now_s(void);
/* The cheapest fine counter for timing one short call (ct's timing test):
 * the TSC on x86-64, the virtual counter on AArch64, else nanoseconds.
 * Units differ between machines; only differences within a run count. */
uint64_t cb_ticks(void);
/* Add the time since *t0 (a cb_now_ns() reading) to account k of the
 * time split (acct.h) and set *t0 to now. */
void cb_lap(enum cb_acct k, uint64_t *t0);
/* Nanoseconds of CPU time this thread has run (CLOCK_THREAD_CPUTIME_ID). */
uint64_t cb_cpu_ns(void);
/* "CLOCK_MONOTONIC_RAW" (or "CLOCK_MONOTONIC" where RAW is missing). */
const char *cb_clock_name(void);

/*
 * The core clock in GHz, from a chain of dependent register adds (one add
 * per cycle of latency on every x86-64 and arm64 core): the fastest of a
 * few ~5 ms trials after a short spin-up.  0 where there is no such loop
 * for this architecture (cycles are then not reported).
 */
double cb_measure_ghz(void);
/* The same loop, short (~0.15 ms, no spin-up): taken around each sample to
 * see the clock move.  0 where there is no such loop. */
double cb_measure_ghz_quick(void);

/* Perform n operations; 0 or a negative errno from the operation. */
typedef int (*cb_run_fn)(void *arg, uint64_t n);

/*
 * Warm fn up for warmup seconds (at least until one batch is long enough
 * to time), then size *batch so that a sample of `sample` seconds holds
 * ~64 batches.  0 or the operation's error.
 */
int cb_calibrate(cb_run_fn fn, void *arg, double warmup, double sample,
                 uint64_t *batch);

/* One sample: operations done, seconds taken, ops/s. */
struct cb_sample {
	uint64_t ops;
	double secs;         /* seconds of the clean segments: the thread ran
	                        all of them, so wall time is its own time  */
	double rate;         /* ops / secs                                   */
	double shared;       /* share of the box the core was shared         */
	int contended;       /* too little was clean: every segment counted  */
};

/*
 * The contention canary.  A sample is timed in segments of CB_SEGMENT_NS;
 * between two segments the thread's context switches are counted
 * (getrusage) and a ~0.7 us loop of independent integer and vector add
 * chains is timed.  The loop runs at half speed while the core's SMT
 * sibling is busy (on a VM: another tenant's vCPU on the same core), which
 * halves the throughput of any code bound by the core's ports.  A segment
 * counts only when the thread was not switched out during it and the
 * canary read at least CB_CANARY_SHARE of its fastest speed on both sides
 * of it; a sample is `sample` seconds of clean segments, or, when fewer
 * than half are clean in four times that, the segments the thread ran
 * (contended).  Nothing of this is inside a timed segment.
 */
#define CB_SEGMENT_NS   50000   /* 0.05 ms                               */
#define CB_CANARY_SHARE 0.75

/* Turn the canary on (the default) or off: off, every segment counts. */
void cb_canary_enable(int on);
/* Tests: replace the canary by fn (1 clean, 0 shared); NULL restores it. */
void cb_canary_set(int (*fn)(void));

/*
 * One sample: batches of `batch` run untimed for `warm` seconds (none when
 * batch is 1: calibration made it one request because a request is 1/64
 * of a sample or longer, and warming up would cost whole requests), then
 * timed in segments, as above, until `sample` seconds (at least 1 ms) of
 * them were clean; the clock is read once per batch.  A segment the thread
 * was switched out in does not count, so time the scheduler gave to other
 * processes is not in the rate (as `openssl speed` without -elapsed).  0
 * or the operation's error.
 */
int cb_time_sample(cb_run_fn fn, void *arg, uint64_t batch, double sample,
                   double warm, struct cb_sample *s);

/* Median of v[0..n) (v is not changed); NaN for n == 0. */
double cb_median(const double *v, size_t n);
/* (max - min) / median of v[0..n); 0 when the median is not positive. */
double cb_rel_spread(const double *v, size_t n);

/*
 * Least-squares line y = a + b x through n points; -EINVAL unless there
 * are at least two distinct x.
 */
int cb_fit_line(const double *x, const double *y, size_t n, double *a,
                double *b);

#endif
