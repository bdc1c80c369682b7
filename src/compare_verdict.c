/*
 * compare_verdict.c - the verdict on one matched pair of points
 * (compare.h): slower by more than the threshold and by more than the two
 * points' combined run-to-run spread is a REGRESSION; a point that now
 * fails its correctness gate is FAILED.  docs/compare.md states the rule.
 */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "compare.h"

const char *const cmp_verdict_table[V_NVERDICTS] = {
	[V_SAME] = "same", [V_IMPROVED] = "improved", [V_NOISE] = "noise",
	[V_REGRESSION] = "REGRESSION", [V_FAILED] = "FAILED",
	[V_SKIPPED] = "skipped", [V_RECOVERED] = "recovered",
	[V_UNMEASURED] = "unmeasured",
};
const char *const cmp_verdict_csv[V_NVERDICTS] = {
	[V_SAME] = "same", [V_IMPROVED] = "improved", [V_NOISE] = "noise",
	[V_REGRESSION] = "regression", [V_FAILED] = "failed",
	[V_SKIPPED] = "skipped", [V_RECOVERED] = "recovered",
	[V_UNMEASURED] = "unmeasured",
};

static int is_fail(const char *status)
{
	return !strncasecmp(status, "fail", 4) || !strcasecmp(status, "error");
}

struct cmp cmp_judge(const struct cmp_point *b, const struct cmp_point *n,
                     double threshold)
{
	struct cmp c = { .b = b, .n = n, .ratio = NAN, .change = NAN,
	                 .noise = NAN };
	int bok = !strcmp(b->status, "ok"), nok = !strcmp(n->status, "ok");

	if (!bok || !nok) {
		c.v = bok ? (is_fail(n->status) ? V_FAILED : V_SKIPPED)
		          : nok ? V_RECOVERED : V_UNMEASURED;
		return c;
	}
	c.noise = (b->rel_spread + n->rel_spread) * 100;
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
	else if (fabs(c.change) <= c.noise)
		c.v = V_NOISE;
	else
		c.v = c.change < 0 ? V_REGRESSION : V_IMPROVED;
	return c;
}
