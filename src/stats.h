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

#endif
