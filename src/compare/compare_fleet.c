/*
 * compare_fleet.c - `compare --by COL --baseline VALUE FILE...`: result
 * files of a fleet (several hosts, or several CPU levels, concatenated)
 * split by the --by column, and every other group compared with the
 * baseline group, point by point (compare.h).  Each comparison is what
 * `compare` of the two groups' rows would print; the last line counts
 * them all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "compare/compare.h"
#include "foundation/util.h"

/* One group against the baseline. */
struct group {
	const char *value;
	char bdesc[160], ndesc[160];
	const char *bpath, *npath;     /* point at bdesc, ndesc (for messages) */
	struct cmp_side b, n;
	size_t first, nc, only[2];     /* its pairs: c[first .. first + nc)     */
	size_t ctfirst, nct;           /* its ct pairs: ct[ctfirst ..]         */
};

struct fleet {
	struct cmp_side all;           /* the files, loaded once               */
	struct cmp_select sel;         /* the user's selection + the groups'    */
	struct group *g;
	size_t ng;
	struct cmp *c;
	size_t nc;
	struct cmp_ctpair *ct;
	size_t nct;
};

/* The distinct values of bycol among the rows, in order of appearance;
 * 0, or -EINVAL after a message when the baseline is not one of them. */
static int find_groups(struct fleet *fl, const struct cmp_select *user,
                       const char *bycol, const char *baseline)
{
	int seen_base = 0;

	fl->all.sidebit = 2;           /* the selection of the compared side */
	if (cmp_side_points(&fl->all, user, bycol) < 0)
		return -EINVAL;
	fl->g = cb_xcalloc(fl->all.npts + fl->all.nct + 1, sizeof *fl->g);
	for (size_t i = 0; i < fl->all.npts + fl->all.nct; i++) {
		const char *v = i < fl->all.npts ? fl->all.pts[i].group
		                : fl->all.ct[i - fl->all.npts].group;
		size_t k;

		seen_base |= !strcmp(v, baseline);
		for (k = 0; k < fl->ng && strcmp(fl->g[k].value, v); k++)
			;
		if (k == fl->ng && strcmp(v, baseline))
			fl->g[fl->ng++].value = v;
	}
	for (size_t i = 0; !seen_base && i < fl->all.nfiles; i++) {
		const struct cb_csv *csv = &fl->all.csv[i];

		for (size_t r = 0; r < csv->nrows && !seen_base; r++) {
			const char *v = cb_csv_get(csv, &csv->rows[r], bycol);

			if ((!v || !*v) && cmp_by_default(bycol))
				v = cmp_by_default(bycol);
			seen_base = v && !strcmp(v, baseline);
		}
	}
	if (!seen_base) {
		char vals[512] = "none";
		size_t used = 0;

		for (size_t k = 0; k < fl->ng && used < sizeof vals; k++)
			used += (size_t)snprintf(vals + used, sizeof vals - used,
			                         "%s'%s'", k ? ", " : "",
			                         fl->g[k].value);
		cb_err("compare: --baseline '%s': no row has %s '%s' (the files "
		       "have %s)", baseline, bycol, baseline, vals);
		return -EINVAL;
	}
	return 0;
}

/* The pairs of one group against the baseline, appended to fl->c. */
static int compare_group(struct fleet *fl, struct group *g, const char *bycol,
                         const char *baseline, double threshold)
{
	snprintf(g->bdesc, sizeof g->bdesc, "%s=%s", bycol, baseline);
	snprintf(g->ndesc, sizeof g->ndesc, "%s=%s", bycol, g->value);
	g->bpath = g->bdesc;
	g->npath = g->ndesc;
	g->b = (struct cmp_side){ .label = "BASE", .sidebit = 1,
	                          .csv = fl->all.csv, .nfiles = fl->all.nfiles,
	                          .paths = &g->bpath };
	g->n = g->b;
	g->n.label = "NEW";
	g->n.sidebit = 2;
	g->n.paths = &g->npath;
	fl->sel.flt[fl->sel.nflt - 1].val = g->value;
	if (cmp_side_points(&g->b, &fl->sel, NULL) < 0 ||
	    cmp_side_points(&g->n, &fl->sel, NULL) < 0)
		return -EINVAL;
	cmp_match_points(&g->b, &g->n);
	fl->c = cb_xrealloc(fl->c, (fl->nc + g->b.npts + 1) * sizeof *fl->c);
	g->first = fl->nc;
	for (size_t k = 0; k < g->b.npts; k++) {
		if (g->b.pts[k].match)
			fl->c[fl->nc++] = cmp_judge(&g->b.pts[k],
			                            g->b.pts[k].match, threshold);
		else
			g->only[0]++;
	}
	for (size_t k = 0; k < g->n.npts; k++)
		g->only[1] += !g->n.pts[k].match;
	g->nc = fl->nc - g->first;
	cmp_decide(fl->c + g->first, g->nc, threshold);
	fl->ct = cb_xrealloc(fl->ct, (fl->nct + g->b.nct + 1) * sizeof *fl->ct);
	g->ctfirst = fl->nct;
	g->nct = cmp_ct_judge(&g->b, fl->ct + fl->nct);
	fl->nct += g->nct;
	/* Rows name the compared group in the --by column. */
	for (size_t k = 0; k < g->b.npts; k++)
		g->b.pts[k].group = g->value;
	for (size_t k = 0; k < g->n.npts; k++)
		g->n.pts[k].group = g->value;
	for (size_t k = 0; k < g->b.nct; k++)
		g->b.ct[k].group = g->value;
	for (size_t k = 0; k < g->n.nct; k++)
		g->n.ct[k].group = g->value;
	return 0;
}

/* The groups' tables (or CSV rows) and the summaries; returns the
 * findings among what matched nothing (cmp_print_missing, each group). */
static size_t print_fleet(const struct fleet *fl, const struct cmp_job *j)
{
	size_t only[2] = { 0, 0 }, missing = 0;
	char lead[256];
	FILE *out = j->out, *sum = j->csv_out ? j->sum : j->out;

	if (j->csv_out)
		cmp_print_csv_header(out, j->by);
	for (size_t i = 0; i < fl->ng; i++) {
		const struct group *g = &fl->g[i];

		only[0] += g->only[0];
		only[1] += g->only[1];
		if (j->csv_out) {
			cmp_print_csv(out, &g->b, &g->n, fl->c + g->first, g->nc);
			cmp_print_ct_csv(out, fl->ct + g->ctfirst, g->nct);
			if (sum)
				missing += cmp_print_missing(sum, &g->b, &g->n,
				                             &fl->sel);
			continue;
		}
		if (i)
			fputs("\n\n", out);
		cmp_print_table(out, &g->b, &g->n, fl->c + g->first, g->nc,
		                NULL, j->threshold);
		cmp_print_ct(out, &g->b, &g->n, fl->ct + g->ctfirst, g->nct,
		             NULL);
		missing += cmp_print_missing(out, &g->b, &g->n, &fl->sel);
		snprintf(lead, sizeof lead, "\nsummary of %s", g->ndesc);
		cmp_print_summary(out, lead, fl->c + g->first, g->nc,
		                  fl->ct + g->ctfirst, g->nct, g->only,
		                  j->threshold);
	}
	snprintf(lead, sizeof lead, "%s%zu %s value%s against %s %s",
	         j->csv_out ? "cryptobench: compare: " : "\n", fl->ng, j->by,
	         fl->ng == 1 ? "" : "s", j->by, j->baseline);
	if (sum)
		cmp_print_summary(sum, lead, fl->c, fl->nc, fl->ct, fl->nct,
		                  only, j->threshold);
	return missing;
}

/* The rows of a group: a filter on bycol for side 1 (baseline) and 2. */
static void add_group_filters(struct fleet *fl, const struct cmp_select *user,
                              const char *bycol, const char *baseline)
{
	fl->sel = *user;
	fl->sel.flt = cb_xcalloc(user->nflt + 2, sizeof *fl->sel.flt);
	if (user->nflt)
		memcpy(fl->sel.flt, user->flt, user->nflt * sizeof *fl->sel.flt);
	fl->sel.flt[fl->sel.nflt++] = (struct cmp_filter){
		.sides = 1, .col = (char *)bycol, .op = '=', .val = baseline };
	fl->sel.flt[fl->sel.nflt++] = (struct cmp_filter){
		.sides = 2, .col = (char *)bycol, .op = '=', .val = "" };
}

static void fleet_free(struct fleet *fl)
{
	for (size_t i = 0; i < fl->ng; i++) {
		fl->g[i].b.csv = fl->g[i].n.csv = NULL;   /* borrowed from all */
		cmp_side_free(&fl->g[i].b);
		cmp_side_free(&fl->g[i].n);
	}
	cmp_side_free(&fl->all);
	free(fl->sel.flt);
	free(fl->g);
	free(fl->c);
	free(fl->ct);
}

static int run_fleet(const struct cmp_job *j)
{
	struct fleet fl = { .all = { .label = "FILE", .sidebit = 3,
	                             .paths = j->paths[0],
	                             .nfiles = j->npaths[0] } };
	const char *bycol = j->by, *baseline = j->baseline;
	size_t bad = 0;
	int rc = CB_EXIT_USAGE;

	if (cmp_side_load(&fl.all, j->sel) < 0 ||
	    find_groups(&fl, j->sel, bycol, baseline) < 0)
		goto out;
	add_group_filters(&fl, j->sel, bycol, baseline);
	for (size_t i = 0; i < fl.ng; i++)
		if (compare_group(&fl, &fl.g[i], bycol, baseline,
		                  j->threshold) < 0)
			goto out;
	bad = print_fleet(&fl, j);
	if (fflush(j->out) != 0 || ferror(j->out)) {
		cb_err("compare: write error on standard output");
		goto out;
	}
	for (size_t k = 0; k < fl.nc; k++)
		bad += cmp_is_bad(fl.c[k].v);
	for (size_t k = 0; k < fl.nct; k++)
		bad += fl.ct[k].v == CMP_CT_WORSE;
	rc = bad ? CB_EXIT_FAIL : CB_EXIT_OK;
	if (!fl.nc && !fl.nct) {
		cb_err("compare: no %s other than %s '%s' has a point in common "
		       "with it: nothing to compare", bycol, bycol, baseline);
		rc = CB_EXIT_SKIP;
	}
out:
	fleet_free(&fl);
	return rc;
}

int cmp_fleet(const struct cmp_job *j)
{
	return cmp_fitted(j, run_fleet);
}
