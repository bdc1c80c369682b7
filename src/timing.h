/*
 * timing.h - the timing engine: a monotonic clock, the core clock measured
 * by a dependent-add loop, time-boxed repetitions of an operation with
 * their median and spread, and the least-squares fit of time against size
 * that splits a per-call overhead from a per-byte cost.
 *
 * The engine knows nothing about backends or algorithms: it times a
 * callback that performs n operations in a tight loop (src/speed.c has
 * them).  The clock is read once per batch, never per operation; the batch
 * is sized from the warm-up so that a repetition holds ~64 batches.
 */
#ifndef CB_TIMING_H
#define CB_TIMING_H

#include <stddef.h>
#include <stdint.h>

#define CB_MAX_REPS 100

/* Nanoseconds from the monotonic clock named by cb_clock_name(). */
uint64_t cb_now_ns(void);
/* "CLOCK_MONOTONIC_RAW" (or "CLOCK_MONOTONIC" where RAW is missing). */
const char *cb_clock_name(void);

/*
 * The core clock in GHz, from a chain of dependent register adds (one add
 * per cycle of latency on every x86-64 and arm64 core): the fastest of a
 * few ~5 ms trials after a short spin-up.  0 where there is no such loop
 * for this architecture (cycles are then not reported).
 */
double cb_measure_ghz(void);

/* Perform n operations; 0 or a negative errno from the operation. */
typedef int (*cb_run_fn)(void *arg, uint64_t n);

struct cb_timing_opts {
	double sec;          /* time box of one point, split over the reps     */
	double warmup;       /* seconds of untimed warm-up before the reps     */
	unsigned reps;       /* 1..CB_MAX_REPS                                 */
};

struct cb_timing {
	unsigned reps;
	uint64_t ops[CB_MAX_REPS];    /* operations in each rep                */
	double secs[CB_MAX_REPS];     /* seconds each rep took                 */
	double rate[CB_MAX_REPS];     /* ops/s of each rep, in the order run   */
	double median;                /* median of rate[]                      */
	double rel_spread;            /* (max - min) / median of rate[]        */
	uint64_t ops_total;
	double secs_total;
};

/* Time fn: warm-up, then opts->reps time-boxed repetitions.  0 or the
 * operation's error. */
int cb_time_point(cb_run_fn fn, void *arg, const struct cb_timing_opts *o,
                  struct cb_timing *t);

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
