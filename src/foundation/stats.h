/*
 * stats.h - descriptive statistics over a point's raw samples: the median,
 * the median absolute deviation and a distribution-free 95 % confidence
 * interval of the median from order statistics (binomial).  Pure functions
 * over arrays of doubles; no I/O, no allocation.
 */
#ifndef CB_STATS_H
#define CB_STATS_H

#include <stddef.h>

/* Sort v[0..n) ascending in place. */
void cb_stats_sort(double *v, size_t n);
/* Median of sorted[0..n); NaN when n == 0. */
double cb_stats_median(const double *sorted, size_t n);
/* Median absolute deviation around med (unscaled); NaN when n == 0. */
double cb_stats_mad(const double *v, size_t n, double med);
/*
 * 95 % confidence interval of the median from sorted[0..n): the order
 * statistics [x(j), x(n+1-j)] with the largest j whose binomial(n, 1/2)
 * coverage is still >= 95 %.  Returns the coverage reached; with n < 6 no
 * pair reaches 95 %, and [min, max] is returned with its lower coverage.
 * NaN bounds and 0 when n == 0.
 */
double cb_stats_median_ci(const double *sorted, size_t n, double *lo,
                          double *hi);

/*
 * Two-sided p-value of the Mann-Whitney U test (Wilcoxon rank-sum) that
 * x[0..nx) and y[0..ny) come from one distribution.  Exact (the null
 * distribution of U counted) when there are no ties and nx + ny <= 50;
 * otherwise the normal approximation with the tie correction of the
 * variance and a continuity correction.  1 when either side is empty.
 */
double cb_stats_mann_whitney(const double *x, size_t nx, const double *y,
                             size_t ny);
/*
 * Holm's step-down adjustment of p[0..n) for n tests: adj[i] is p[i]'s
 * adjusted value (reject at level alpha when adj[i] < alpha).  adj may be p.
 */
void cb_stats_holm(const double *p, size_t n, double *adj);
/*
 * Benjamini and Hochberg's step-up adjustment of p[0..n) (the false
 * discovery rate): adj[i] = min over the j-th smallest p at or above p[i]
 * of p(j) n / j, capped at 1.  Rejecting where adj < q keeps the expected
 * share of false calls among the calls at q; when no difference is real,
 * the chance of any call at all is q, as Holm's.  adj may be p.
 */
void cb_stats_bh(const double *p, size_t n, double *adj);
/*
 * Percentile bootstrap 95 % confidence interval of median(y) / median(x),
 * from nboot resamples of both sides drawn with a generator seeded by
 * seed (so a result is reproducible).  NaN bounds when a side is empty or
 * a resampled median of x is not positive.
 */
void cb_stats_ratio_ci(const double *x, size_t nx, const double *y, size_t ny,
                       unsigned nboot, unsigned long long seed, double *lo,
                       double *hi);

/* A point is "noisy" when its CI half-width exceeds this share of the
 * median (docs/speed.md). */
#define CB_STATS_NOISY 0.02

/* What the writers report of a point's samples. */
struct cb_stats {
	size_t n;
	double median, lo, hi;   /* the median and its 95 % CI               */
	double cover;            /* the CI's coverage (see median_ci)        */
	double mad;              /* median absolute deviation                */
	double ci_half;          /* (hi - lo) / 2 / median; NaN if unknown   */
};

/* All of the above for v[0..n) (v is not changed); -ENOMEM or 0. */
int cb_stats_summary(const double *v, size_t n, struct cb_stats *s);
/* 1 when s->ci_half is above CB_STATS_NOISY (or unknown with n > 0). */
int cb_stats_noisy(const struct cb_stats *s);

/*
 * Welch's t statistic of two classes of measurements, kept as running
 * means and sums of squared deviations (Welford): dudect's test that the
 * two come from distributions with one mean.  cls is 0 or 1; t is 0 until
 * each class has two measurements.
 */
struct cb_welch {
	double n[2], mean[2], m2[2];
};
void cb_welch_add(struct cb_welch *w, int cls, double x);
double cb_welch_t(const struct cb_welch *w);

#endif
