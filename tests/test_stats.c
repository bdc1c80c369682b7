/*
 * test_stats.c - median, MAD and the median's confidence interval against
 * values worked out by hand and against the binomial tables.
 */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "stats.h"

#define T(x) check((x), #x)

int main(void)
{
	double a[] = { 5, 1, 4, 2, 3 }, lo, hi, cover;
	double b[20];

	cb_stats_sort(a, 5);
	T(a[0] == 1 && a[4] == 5);
	T(cb_stats_median(a, 5) == 3);
	T(cb_stats_median(a, 4) == 2.5);
	T(cb_stats_mad(a, 5, 3) == 1);      /* |dev| = 2 1 0 1 2 */
	T(isnan(cb_stats_median(a, 0)));
	/* n = 5: no pair reaches 95 %; [min,max] covers 1 - 2/32. */
	cover = cb_stats_median_ci(a, 5, &lo, &hi);
	T(lo == 1 && hi == 5 && fabs(cover - 0.9375) < 1e-9);
	/* n = 20: the 95 % interval is [x(6), x(15)], coverage 0.9586. */
	for (int i = 0; i < 20; i++)
		b[i] = i + 1;
	cover = cb_stats_median_ci(b, 20, &lo, &hi);
	T(lo == 6 && hi == 15);
	T(fabs(cover - 0.958611) < 1e-5);
	/* n = 9: [x(2), x(8)], coverage 0.9609. */
	cover = cb_stats_median_ci(b, 9, &lo, &hi);
	T(lo == 2 && hi == 8 && fabs(cover - 0.960938) < 1e-5);
	return finish();
}
