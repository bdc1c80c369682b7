/*
 * compare_verdict.c - the verdict on one matched pair of points
 * (compare.h).  With raw samples on both sides: a Mann-Whitney U test,
 * Benjamini-Hochberg-adjusted over every pair tested (the false discovery
 * rate), and the practical threshold -
 * SLOWER only when the slowdown is significant and larger than the
 * threshold; the ratio of the medians gets a bootstrap 95 % CI.  Without
 * samples (version 1 files, seeds): slower by more than the threshold and
 * by more than the two points' combined run-to-run spread is a
 * REGRESSION; where a side is one measurement (reps 1: dd, the seeds) its
 * spread is unknown, and a change past the threshold is "unsure".  A
 * point that now fails its correctness gate is FAILED.  A ct row whose
 * verdict went from clean (or timing-only) to secret-dependent is WORSE.
 * docs/compare.md states the rules.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compare/compare.h"
#include "foundation/stats.h"
#include "output/result.h"
#include "foundation/util.h"

const char *const cmp_verdict_table[V_NVERDICTS] = {
	[V_SAME] = "same", [V_IMPROVED] = "improved", [V_NOISE] = "noise",
	[V_REGRESSION] = "REGRESSION", [V_FAILED] = "FAILED",
	[V_SKIPPED] = "skipped", [V_RECOVERED] = "recovered",
	[V_UNMEASURED] = "unmeasured", [V_FASTER] = "faster",
	[V_SLOWER] = "SLOWER", [V_INCONCLUSIVE] = "inconclusive",
	[V_UNSURE] = "unsure",
};
const char *const cmp_verdict_csv[V_NVERDICTS] = {
	[V_SAME] = "same", [V_IMPROVED] = "improved", [V_NOISE] = "noise",
	[V_REGRESSION] = "regression", [V_FAILED] = "failed",
	[V_SKIPPED] = "skipped", [V_RECOVERED] = "recovered",
	[V_UNMEASURED] = "unmeasured", [V_FASTER] = "faster",
	[V_SLOWER] = "slower", [V_INCONCLUSIVE] = "inconclusive",
	[V_UNSURE] = "unsure",
};

int cmp_is_bad(enum cmp_verdict v)
{
	return v == V_REGRESSION || v == V_SLOWER || v == V_FAILED;
}

static int is_fail(const char *status)
{
	return !strncasecmp(status, "fail", 4) || !strcasecmp(status, "error");
}

/* The median of a copy of v[0..n). */
static double median_of(const double *v, size_t n)
{
	double *t = cb_xmalloc(n * sizeof *t), m;

	memcpy(t, v, n * sizeof *t);
	cb_stats_sort(t, n);
	m = cb_stats_median(t, n);
	free(t);
	return m;
}

/*
 * Samples from several processes on both sides (bench --processes): the
 * largest Mann-Whitney p over every pair of processes, one from each side
 * (an intersection-union test: a change counts only when every process of
 * NEW differs from every process of BASE, so a slow address-space layout
 * in one process is not a regression).  NaN when it does not apply.
 */
static double p_by_process(const struct cmp_point *b, const struct cmp_point *n)
{
	double worst = 0;
	size_t i0 = 0;

	if (b->nprocs < 2 || n->nprocs < 2)
		return NAN;
	for (size_t i = 0; i < b->nprocs; i0 += b->proc[i++]) {
		size_t j0 = 0;

		if (b->proc[i] < CMP_MIN_SAMPLES)
			return NAN;
		for (size_t j = 0; j < n->nprocs; j0 += n->proc[j++]) {
			double p;

			if (n->proc[j] < CMP_MIN_SAMPLES)
				return NAN;
			p = cb_stats_mann_whitney(b->samples + i0, b->proc[i],
			                          n->samples + j0, n->proc[j]);
			worst = p > worst ? p : worst;
		}
	}
	return worst;
}

/* The medians of p's processes into m (CMP_MAX_PROCS long). */
static void proc_medians(const struct cmp_point *p, double *m)
{
	size_t i0 = 0;

	for (size_t i = 0; i < p->nprocs; i0 += p->proc[i++])
		m[i] = median_of(p->samples + i0, p->proc[i]);
}

/* A pair tested process by process: how far its process pairs' ratios
 * (a NEW process's median over a BASE process's) spread, half their range
 * in percent of the pair's ratio: what the test must see past. */
static double proc_spread(const struct cmp *c)
{
	double mb[CMP_MAX_PROCS], mn[CMP_MAX_PROCS], lo = INFINITY, hi = 0;

	proc_medians(c->b, mb);
	proc_medians(c->n, mn);
	for (size_t i = 0; i < c->b->nprocs; i++)
		for (size_t j = 0; j < c->n->nprocs && mb[i] > 0; j++) {
			double r = mn[j] / mb[i];

			lo = r < lo ? r : lo;
			hi = r > hi ? r : hi;
		}
	return hi >= lo ? 50 * (hi - lo) / c->ratio : NAN;
}

/* The statistical rule's numbers for a pair with samples on both sides;
 * 0 when it does not apply (too few samples, a median of zero). */
static int test_pair(struct cmp *c, const struct cmp_point *b,
                     const struct cmp_point *n)
{
	double mb, mn;

	if (b->nsamples < CMP_MIN_SAMPLES || n->nsamples < CMP_MIN_SAMPLES)
		return 0;
	mb = median_of(b->samples, b->nsamples);
	mn = median_of(n->samples, n->nsamples);
	if (!(mb > 0))
		return 0;
	c->tested = 1;
	c->ratio = mn / mb;
	c->change = (c->ratio - 1) * 100;
	c->p = p_by_process(b, n);
	c->by_process = !isnan(c->p);
	if (c->by_process)
		c->proc_hw = proc_spread(c);
	else
		c->p = cb_stats_mann_whitney(b->samples, b->nsamples, n->samples,
		                             n->nsamples);
	c->p_adj = c->p;
	/* Seeded by the medians: the same files give the same interval. */
	cb_stats_ratio_ci(b->samples, b->nsamples, n->samples, n->nsamples,
	                  CMP_NBOOT, (unsigned long long)(mb + 1e3 * mn),
	                  &c->ci_lo, &c->ci_hi);
	c->v = V_INCONCLUSIVE;          /* until cmp_decide() */
	return 1;
}

struct cmp cmp_judge(const struct cmp_point *b, const struct cmp_point *n,
                     double threshold)
{
	struct cmp c = { .b = b, .n = n, .ratio = NAN, .change = NAN,
	                 .noise = NAN, .ci_lo = NAN, .ci_hi = NAN, .p = NAN,
	                 .p_adj = NAN, .proc_hw = NAN };
	int bok = !strcmp(b->status, "ok"), nok = !strcmp(n->status, "ok");

	if (!bok || !nok) {
		c.v = bok ? (is_fail(n->status) ? V_FAILED : V_SKIPPED)
		          : nok ? V_RECOVERED : V_UNMEASURED;
		return c;
	}
	c.noise = (b->rel_spread + n->rel_spread) * 100;
	if (test_pair(&c, b, n))
		return c;
	if (b->median <= 0) {
		c.v = n->median > 0 ? V_IMPROVED : V_SAME;
		c.ratio = n->median > 0 ? INFINITY : 1;
		c.change = n->median > 0 ? INFINITY : 0;
		return c;
	}
	c.ratio = n->median / b->median;
	c.change = (c.ratio - 1) * 100;
	if (fabs(c.change) <= threshold)
		c.v = V_SAME;
	else if (isnan(c.noise))
		c.v = V_UNSURE;             /* one measurement: spread unknown */
	else if (fabs(c.change) <= c.noise)
		c.v = V_NOISE;
	else
		c.v = c.change < 0 ? V_REGRESSION : V_IMPROVED;
	return c;
}

/*
 * A tested pair: significant (adjusted p < alpha) and past the
 * threshold is slower or faster; significant within it, or not
 * significant with the whole CI within it, is same; anything else is
 * inconclusive.
 */
static enum cmp_verdict decide(const struct cmp *c, double threshold)
{
	double t = threshold / 100;

	if (c->p_adj < CMP_ALPHA) {
		if (c->change < -threshold)
			return V_SLOWER;
		return c->change > threshold ? V_FASTER : V_SAME;
	}
	if (c->ci_lo >= 1 - t && c->ci_hi <= 1 + t)
		return V_SAME;
	return V_INCONCLUSIVE;
}

static int use_holm;           /* compare --holm */

void cmp_adjust_holm(int on)
{
	use_holm = on;
}

const char *cmp_adjust_name(void)
{
	return use_holm ? "Holm" : "Benjamini-Hochberg";
}

size_t cmp_decide(struct cmp *c, size_t nc, double threshold)
{
	double *p = cb_xcalloc(nc + 1, sizeof *p);
	size_t nt = 0;

	for (size_t i = 0; i < nc; i++)
		if (c[i].tested)
			p[nt++] = c[i].p;
	(use_holm ? cb_stats_holm : cb_stats_bh)(p, nt, p);
	nt = 0;
	for (size_t i = 0; i < nc; i++) {
		if (!c[i].tested)
			continue;
		c[i].p_adj = p[nt++];
		c[i].v = decide(&c[i], threshold);
	}
	free(p);
	return nt;
}

/* ---- ct rows ------------------------------------------------------------ */

const char *const cmp_ct_change_table[CMP_CT_NCHANGES] = {
	[CMP_CT_SAME] = "same", [CMP_CT_WORSE] = "WORSE",
	[CMP_CT_BETTER] = "better", [CMP_CT_CHANGED] = "changed",
};
const char *const cmp_ct_change_csv[CMP_CT_NCHANGES] = {
	[CMP_CT_SAME] = "ct-same", [CMP_CT_WORSE] = "ct-worse",
	[CMP_CT_BETTER] = "ct-better", [CMP_CT_CHANGED] = "ct-changed",
};

/* Clean enough that a leak found now is a regression. */
static int ct_was_clean(int v)
{
	return cb_ct_verdicts[v].cls == CB_CT_CLEAN ||
	       cb_ct_verdicts[v].cls == CB_CT_TIMING_ONLY;
}

static enum cmp_ct_change ct_change(int b, int n)
{
	int bl = cb_ct_verdicts[b].cls == CB_CT_LEAK;
	int nl = cb_ct_verdicts[n].cls == CB_CT_LEAK;

	if (b == n)
		return CMP_CT_SAME;
	if (nl && ct_was_clean(b))
		return CMP_CT_WORSE;
	if (bl && ct_was_clean(n))
		return CMP_CT_BETTER;
	return CMP_CT_CHANGED;
}

size_t cmp_ct_judge(const struct cmp_side *b, struct cmp_ctpair *out)
{
	size_t n = 0;

	for (size_t i = 0; i < b->nct; i++) {
		const struct cmp_ct *c = &b->ct[i];

		if (!c->match)
			continue;
		out[n].b = c;
		out[n].n = c->match;
		out[n++].v = ct_change(c->v, c->match->v);
	}
	return n;
}
