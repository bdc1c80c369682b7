/*
 * test_stats.c - median, MAD and the median's confidence interval against
 * values worked out by hand and against the binomial tables.
 */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "foundation/stats.h"

#define T(x) check((x), #x)

/* Mann-Whitney p against exact counts and R's wilcox.test; Holm by hand;
 * the bootstrap CI of a ratio. */
static void mann_whitney_holm_ci(void)
{
	double x[20], y[20], p[4] = { 0.01, 0.04, 0.03, 0.005 }, adj[4];
	double t1[] = { 1, 2, 3, 4, 5 }, t2[] = { 3.5, 6, 7, 8, 9 };
	double tx[] = { 1, 1, 2, 2, 3, 5 }, ty[] = { 2, 3, 3, 4, 4, 6, 7 };
	double lo, hi;

	for (int i = 0; i < 20; i++) {
		x[i] = i + 1;
		y[i] = i + 11;
	}
	/* Complete separation, exact: 2 / C(6,3) and 2 / C(20,10). */
	T(fabs(cb_stats_mann_whitney(x, 3, y + 10, 3) - 0.1) < 1e-12);
	T(fabs(cb_stats_mann_whitney(x, 10, y + 10, 10) - 2 / 184756.0) < 1e-15);
	T(fabs(cb_stats_mann_whitney(y + 10, 10, x, 10) - 2 / 184756.0) < 1e-15);
	/* U = 2 for 5 and 5: P(U <= 2) = 4/252, two-sided 8/252. */
	T(fabs(cb_stats_mann_whitney(t1, 5, t2, 5) - 8 / 252.0) < 1e-12);
	/* Identical samples: p = 1; empty: 1. */
	T(cb_stats_mann_whitney(x, 10, x, 10) > 0.99);
	T(cb_stats_mann_whitney(x, 0, y, 10) == 1);
	/* Ties: normal approximation with tie and continuity correction,
	 * as R's wilcox.test(tx, ty, exact = FALSE): W = 8, p = 0.07018. */
	T(fabs(cb_stats_mann_whitney(tx, 6, ty, 7) - 0.0701779) < 1e-6);
	/* Large samples (n > 50) use the normal approximation too. */
	T(cb_stats_mann_whitney(x, 20, y, 20) < 0.01 &&
	  cb_stats_mann_whitney(x, 20, y, 20) > 1e-5);
	/* BH by hand: 0.005 0.01 0.03 0.04 times 4/1 4/2 4/3 4/4 = 0.02 0.02
	 * 0.04 0.04, monotone from the top; a fifth p of 0.9 scales the rest
	 * by 5/4, and 0.04 (now 4th of 5) gives 0.05. */
	cb_stats_bh(p, 4, adj);
	T(fabs(adj[3] - 0.02) < 1e-12 && fabs(adj[0] - 0.02) < 1e-12);
	T(fabs(adj[2] - 0.04) < 1e-12 && fabs(adj[1] - 0.04) < 1e-12);
	{
		double q[5] = { 0.01, 0.04, 0.03, 0.005, 0.9 }, qa[5];

		cb_stats_bh(q, 5, qa);
		T(fabs(qa[1] - 0.05) < 1e-12 && fabs(qa[2] - 0.05) < 1e-12 &&
		  fabs(qa[3] - 0.025) < 1e-12 && fabs(qa[4] - 0.9) < 1e-12);
	}
	cb_stats_holm(p, 4, adj);
	T(fabs(adj[3] - 0.02) < 1e-12 && fabs(adj[0] - 0.03) < 1e-12);
	T(fabs(adj[2] - 0.06) < 1e-12 && fabs(adj[1] - 0.06) < 1e-12);
	cb_stats_holm(p, 4, p);            /* in place */
	T(fabs(p[1] - 0.06) < 1e-12);
	/* A tight pair, y twice x (about 1 % spread): the CI holds 2 and is
	 * narrow; the same seed gives the same interval. */
	for (int i = 0; i < 20; i++) {
		x[i] = 100 + i * 0.1;
		y[i] = 2 * x[i];
	}
	cb_stats_ratio_ci(x, 20, y, 20, 1000, 1, &lo, &hi);
	T(lo < 2 && hi > 2 && lo > 1.98 && hi < 2.02);
	{
		double lo2, hi2;

		cb_stats_ratio_ci(x, 20, y, 20, 1000, 1, &lo2, &hi2);
		T(lo2 == lo && hi2 == hi);
	}
	cb_stats_ratio_ci(x, 0, y, 20, 1000, 1, &lo, &hi);
	T(isnan(lo) && isnan(hi));
}

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
	mann_whitney_holm_ci();
	/* The summary: median 10.5 of 1..20 (unsorted input left alone), CI
	 * [6, 15], MAD 5, half-width 4.5 / 10.5: noisy. */
	{
		double c[20], c0;
		struct cb_stats st;

		for (int i = 0; i < 20; i++)
			c[i] = 20 - i;
		c0 = c[0];
		T(cb_stats_summary(c, 20, &st) == 0 && c[0] == c0);
		T(st.n == 20 && st.median == 10.5 && st.lo == 6 && st.hi == 15);
		T(st.mad == 5 && fabs(st.ci_half - 4.5 / 10.5) < 1e-12);
		T(cb_stats_noisy(&st));
		/* 20 samples within +-1 % of 100: CI inside, not noisy. */
		for (int i = 0; i < 20; i++)
			c[i % 20] = 99 + (i % 3);
		T(cb_stats_summary(c, 20, &st) == 0 && st.median == 100);
		T(st.ci_half <= 0.01 && !cb_stats_noisy(&st));
		/* exactly 2 %: not noisy; just above: noisy */
		st.ci_half = 0.02;
		T(!cb_stats_noisy(&st));
		st.ci_half = 0.0201;
		T(cb_stats_noisy(&st));
		T(cb_stats_summary(c, 0, &st) == 0 && isnan(st.median) &&
		  !cb_stats_noisy(&st));
	}
	return finish();
}
