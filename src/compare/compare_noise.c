/*
 * compare_noise.c - how noisy the two runs were and what size of change
 * the comparison could see (compare.h): the share of timed segments the
 * contention canary found shared with another tenant (bench's `shared`
 * column), and the width of the tested ratios' 95 % CIs.  A change
 * smaller than a point's CI half-width cannot be established at it, and
 * one within the threshold is `same` by rule: the larger of the two is
 * the smallest change the point could show.  docs/compare.md.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "compare/compare.h"
#include "foundation/stats.h"
#include "foundation/util.h"

#define CMP_BUSY 0.10   /* a side's shared share past which the host is busy */

/* The mean share of s's measured points with a shared column, NaN when
 * none has one. */
static double shared_of(const struct cmp_side *s)
{
	double sum = 0;
	size_t n = 0;

	for (size_t i = 0; i < s->npts; i++)
		if (!isnan(s->pts[i].shared)) {
			sum += s->pts[i].shared;
			n++;
		}
	return n ? sum / n : NAN;
}

static void put_shared(FILE *f, const char *label, double v)
{
	if (isnan(v))
		fprintf(f, "%s not recorded", label);
	else
		fprintf(f, "%s %.1f %%", label, 100 * v);
}

/* The q-quantile of v[0..n) (sorted). */
static double quantile(const double *v, size_t n, double q)
{
	size_t k = (size_t)ceil(q * (double)n);

	return v[k ? k - 1 : 0];
}

/* The process line: how far the processes of the two sides spread the
 * ratio, which the process-by-process test must see past. */
static void print_procs(FILE *f, const struct cmp *c, size_t nc)
{
	double *hw = cb_xcalloc(nc + 1, sizeof *hw);
	size_t n = 0;

	for (size_t i = 0; i < nc; i++)
		if (c[i].tested && !isnan(c[i].proc_hw))
			hw[n++] = c[i].proc_hw;
	if (n) {
		cb_stats_sort(hw, n);
		fprintf(f, "processes: %zu point%s tested process by process "
		        "(every process of NEW against every one of BASE); their "
		        "process pairs' ratios spread +-%.1f %% at half of them, "
		        "+-%.1f %% at 90 %%: a change smaller than that is not "
		        "established at the point, however many samples it has - "
		        "a quieter host narrows it\n", n, n == 1 ? " was" :
		        "s were", quantile(hw, n, 0.5),
		        quantile(hw, n, 0.9));
	}
	free(hw);
}

void cmp_print_noise(FILE *f, const struct cmp_side *b,
                     const struct cmp_side *n, const struct cmp *c,
                     size_t nc, double threshold)
{
	double *hw = cb_xcalloc(nc + 1, sizeof *hw), sb = shared_of(b),
	       sn = shared_of(n), h50, h90;
	size_t nt = 0;

	for (size_t i = 0; i < nc; i++)
		if (c[i].tested && !isnan(c[i].ci_lo) && c[i].ratio > 0)
			hw[nt++] = 50 * (c[i].ci_hi - c[i].ci_lo) / c[i].ratio;
	if (!nt && isnan(sb) && isnan(sn)) {
		free(hw);
		return;
	}
	fputc('\n', f);
	if (!isnan(sb) || !isnan(sn)) {
		fputs("noise: timed segments shared with another tenant: ", f);
		put_shared(f, "BASE", sb);
		put_shared(f, ", NEW", sn);
		if ((!isnan(sb) && sb > CMP_BUSY) || (!isnan(sn) && sn > CMP_BUSY))
			fprintf(f, "; a busy host (over %.0f %%): other tenants can "
			        "move a point by more than the threshold, so a "
			        "slower/faster call may be theirs - compare runs of "
			        "a quiet host", 100 * CMP_BUSY);
		fputc('\n', f);
	}
	if (nt) {
		cb_stats_sort(hw, nt);
		h50 = quantile(hw, nt, 0.5);
		h90 = quantile(hw, nt, 0.9);
		fprintf(f, "resolution: the ratio's 95 %% CI is +-%.1f %% at half "
		        "of the %zu tested points, +-%.1f %% at 90 %% of them: a "
		        "change must be larger than that (and than the threshold, "
		        "%g %%) to be called slower or faster", h50, nt, h90,
		        threshold);
		fputc('\n', f);
	}
	print_procs(f, c, nc);
	free(hw);
}
