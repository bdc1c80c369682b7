/*
 * stats.c - median, MAD and the order-statistics confidence interval of
 * the median (see stats.h).  The interval needs no assumption about the
 * samples' distribution, which on a shared machine is skewed and
 * sometimes bimodal.
 */
#include <math.h>
#include <stdlib.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void cb_stats_sort(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof *v, cmp_double);
}

double cb_stats_median(const double *sorted, size_t n)
{
	if (!n)
		return NAN;
	return n % 2 ? sorted[n / 2]
	             : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

double cb_stats_mad(const double *v, size_t n, double med)
{
	double *dev, m;

	if (!n || !(dev = malloc(n * sizeof *dev)))
		return NAN;
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(v[i] - med);
	cb_stats_sort(dev, n);
	m = cb_stats_median(dev, n);
	free(dev);
	return m;
}

/* P(B <= k) for B ~ binomial(n, 1/2), by the log-gamma function. */
static double binom_cdf_half(size_t n, size_t k)
{
	double sum = 0;

	for (size_t i = 0; i <= k && i <= n; i++)
		sum += exp(lgamma(n + 1.0) - lgamma(i + 1.0) -
		           lgamma(n - i + 1.0) - n * log(2.0));
	return sum > 1 ? 1 : sum;
}

double cb_stats_median_ci(const double *sorted, size_t n, double *lo,
                          double *hi)
{
	size_t j = 1;           /* 1-based order statistic of the low bound */
	double cover;

	if (!n) {
		*lo = *hi = NAN;
		return 0;
	}
	while (j + 1 <= (n + 1) / 2 && 1 - 2 * binom_cdf_half(n, j) >= 0.95)
		j++;
	cover = 1 - 2 * binom_cdf_half(n, j - 1);
	*lo = sorted[j - 1];
	*hi = sorted[n - j];
	return cover;
}
