/*
 * stats.c - median, MAD and the order-statistics confidence interval of
 * the median (see stats.h).  The interval needs no assumption about the
 * samples' distribution, which on a shared machine is skewed and
 * sometimes bimodal.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "foundation/stats.h"

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

/* ---- Mann-Whitney U ------------------------------------------------------- */

/* Ranks of the pooled samples (ties get their mid-rank): the rank sum of x
 * into *rx, and sum over tie groups of t^3 - t into *ties. */
static void rank_sum(const double *x, size_t nx, const double *y, size_t ny,
                     double *rx, double *ties)
{
	size_t n = nx + ny;
	struct tagged { double v; int from_x; } *all = malloc(n * sizeof *all);

	*rx = 0;
	*ties = 0;
	if (!all)
		abort();
	for (size_t i = 0; i < n; i++)
		all[i] = (struct tagged){ i < nx ? x[i] : y[i - nx], i < nx };
	/* v is the first member: sort by it as a double. */
	qsort(all, n, sizeof *all, cmp_double);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double mid;

		while (j + 1 < n && all[j + 1].v == all[i].v)
			j++;
		mid = (i + j) / 2.0 + 1;      /* ranks are 1-based */
		for (size_t k = i; k <= j; k++)
			if (all[k].from_x)
				*rx += mid;
		*ties += (double)(j - i + 1) * (j - i + 1) * (j - i + 1) -
		         (double)(j - i + 1);
		i = j + 1;
	}
	free(all);
}

/*
 * P(U <= u) under the null for sizes m, n without ties: the coefficients
 * of the Gaussian binomial [m+n choose m] in q count the arrangements by
 * U.  Built as prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i); every count is an
 * integer below 2^53 for m + n <= 50, so the doubles are exact.
 */
static double u_cdf_exact(size_t m, size_t n, double u)
{
	size_t deg = m * n;
	double *c = calloc(deg + 1, sizeof *c), below = 0, total = 0;

	if (!c)
		abort();
	c[0] = 1;
	for (size_t i = 1; i <= m; i++) {
		for (size_t k = deg; k >= n + i; k--)      /* times 1 - q^(n+i) */
			c[k] -= c[k - n - i];
		for (size_t k = i; k <= deg; k++)          /* over 1 - q^i */
			c[k] += c[k - i];
	}
	for (size_t k = 0; k <= deg; k++) {
		total += c[k];
		if (k <= u + 1e-9)
			below += c[k];
	}
	free(c);
	return below / total;
}

double cb_stats_mann_whitney(const double *x, size_t nx, const double *y,
                             size_t ny)
{
	double rx, ties, u, mu, var, z, p;
	size_t n = nx + ny;

	if (!nx || !ny)
		return 1;
	rank_sum(x, nx, y, ny, &rx, &ties);
	u = rx - nx * (nx + 1.0) / 2;
	mu = nx * (double)ny / 2;
	if (ties == 0 && n <= 50) {
		double lo = u_cdf_exact(nx, ny, u <= mu ? u : 2 * mu - u);

		p = 2 * lo;        /* the distribution is symmetric about mu */
		return p > 1 ? 1 : p;
	}
	var = nx * (double)ny / 12 * ((n + 1) - ties / ((double)n * (n - 1)));
	if (var <= 0)
		return 1;          /* every value equal */
	z = (fabs(u - mu) - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	p = erfc(z / sqrt(2));
	return p > 1 ? 1 : p;
}

/* The indices of p[0..n) in ascending order of p (an insertion sort:
 * stable, and n is small), in a new array. */
static size_t *order_by_p(const double *p, size_t n)
{
	size_t *idx = malloc((n ? n : 1) * sizeof *idx);

	if (!idx)
		abort();
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && p[idx[j]] < p[idx[j - 1]]; j--) {
			size_t t = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	return idx;
}

/* adj[] from tmp[] (so that adj may be p), and the buffers freed. */
static void adj_done(double *adj, double *tmp, size_t *idx, size_t n)
{
	for (size_t k = 0; k < n; k++)
		adj[k] = tmp[k];
	free(tmp);
	free(idx);
}

void cb_stats_holm(const double *p, size_t n, double *adj)
{
	size_t *idx = order_by_p(p, n);
	double *tmp = malloc((n ? n : 1) * sizeof *tmp), run = 0;

	if (!tmp)
		abort();
	/* The k-th smallest is scaled by n - k, kept monotone, capped at 1. */
	for (size_t k = 0; k < n; k++) {
		double a = (double)(n - k) * p[idx[k]];

		run = a > run ? a : run;
		tmp[idx[k]] = run > 1 ? 1 : run;
	}
	adj_done(adj, tmp, idx, n);
}

void cb_stats_bh(const double *p, size_t n, double *adj)
{
	size_t *idx = order_by_p(p, n);
	double *tmp = malloc((n ? n : 1) * sizeof *tmp), run = 1;

	if (!tmp)
		abort();
	/* The k-th smallest (1-based) times n / k, kept monotone from the
	 * largest down (the step-up), capped at 1. */
	for (size_t k = n; k > 0; k--) {
		double a = (double)n / (double)k * p[idx[k - 1]];

		run = a < run ? a : run;
		tmp[idx[k - 1]] = run;
	}
	adj_done(adj, tmp, idx, n);
}

/* ---- bootstrap ------------------------------------------------------------ */

static unsigned long long splitmix64(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A uniform index below n from the generator (multiply-high). */
static size_t pick(unsigned long long *s, size_t n)
{
	return (size_t)(((unsigned __int128)splitmix64(s) * n) >> 64);
}

/* The median of a resample of v[0..n) (into buf): sorted by insertion
 * while drawn when n is small, as this runs a thousand times a point. */
static double resample_median(const double *v, size_t n, double *buf,
                              unsigned long long *s)
{
	for (size_t i = 0; i < n; i++) {
		double x = v[pick(s, n)];
		size_t j = i;

		for (; n <= 64 && j > 0 && buf[j - 1] > x; j--)
			buf[j] = buf[j - 1];
		buf[j] = x;
	}
	if (n > 64)
		cb_stats_sort(buf, n);
	return cb_stats_median(buf, n);
}

void cb_stats_ratio_ci(const double *x, size_t nx, const double *y, size_t ny,
                       unsigned nboot, unsigned long long seed, double *lo,
                       double *hi)
{
	double *r, *buf;
	unsigned long long s = seed;
	size_t ok = 0;

	*lo = *hi = NAN;
	if (!nx || !ny || !nboot)
		return;
	r = malloc(nboot * sizeof *r);
	buf = malloc((nx > ny ? nx : ny) * sizeof *buf);
	if (!r || !buf)
		abort();
	for (unsigned b = 0; b < nboot; b++) {
		double mx = resample_median(x, nx, buf, &s);
		double my = resample_median(y, ny, buf, &s);

		if (mx > 0)
			r[ok++] = my / mx;
	}
	if (ok == nboot) {
		cb_stats_sort(r, ok);
		*lo = r[(size_t)floor(0.025 * (ok - 1))];
		*hi = r[(size_t)ceil(0.975 * (ok - 1))];
	}
	free(r);
	free(buf);
}

int cb_stats_summary(const double *v, size_t n, struct cb_stats *s)
{
	double *w;

	memset(s, 0, sizeof *s);
	s->n = n;
	s->median = s->lo = s->hi = s->mad = s->ci_half = NAN;
	if (!n)
		return 0;
	if (!(w = malloc(n * sizeof *w)))
		return -ENOMEM;
	memcpy(w, v, n * sizeof *w);
	cb_stats_sort(w, n);
	s->median = cb_stats_median(w, n);
	s->cover = cb_stats_median_ci(w, n, &s->lo, &s->hi);
	s->mad = cb_stats_mad(w, n, s->median);
	if (s->median > 0)
		s->ci_half = (s->hi - s->lo) / 2 / s->median;
	free(w);
	return 0;
}

int cb_stats_noisy(const struct cb_stats *s)
{
	return s->n > 0 && !(s->ci_half <= CB_STATS_NOISY);
}

void cb_welch_add(struct cb_welch *w, int cls, double x)
{
	double d = x - w->mean[cls];

	w->n[cls] += 1;
	w->mean[cls] += d / w->n[cls];
	w->m2[cls] += d * (x - w->mean[cls]);
}

double cb_welch_t(const struct cb_welch *w)
{
	double v0, v1;

	if (w->n[0] < 2 || w->n[1] < 2)
		return 0;
	v0 = w->m2[0] / (w->n[0] - 1) / w->n[0];
	v1 = w->m2[1] / (w->n[1] - 1) / w->n[1];
	if (v0 + v1 <= 0)
		return 0;
	return (w->mean[0] - w->mean[1]) / sqrt(v0 + v1);
}
