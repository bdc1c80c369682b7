/*
 * compare_run.c - a whole comparison from a job (compare.h): the row
 * selections (--where and its kin), BASE against NEW, and the --dump view.
 * `cryptobench compare` (commands/cmd_compare.c) turns its options into a
 * job; the report (report/report_cmp.c) makes its own and reads the CSV
 * this writes, so both get compare's rule from the same calls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "compare/compare.h"
#include "foundation/util.h"

void cmp_add_filter(struct cmp_select *sel, unsigned sides, const char *col,
                    size_t collen, char op, const char *val)
{
	struct cmp_filter *f;

	sel->flt = cb_xrealloc(sel->flt, (sel->nflt + 1) * sizeof *sel->flt);
	f = &sel->flt[sel->nflt++];
	*f = (struct cmp_filter){ .sides = sides, .op = op, .val = val };
	f->col = cb_xmalloc(collen + 1);
	memcpy(f->col, col, collen);
	f->col[collen] = 0;
}

/* COL=VALUE or COL~TEXT */
int cmp_parse_where(struct cmp_select *sel, unsigned sides, const char *arg)
{
	const char *op = strpbrk(arg, "=~");

	if (!op || op == arg) {
		cb_err("compare: bad selection '%s' (want COL=VALUE or COL~TEXT)",
		       arg);
		return -EINVAL;
	}
	cmp_add_filter(sel, sides, arg, (size_t)(op - arg), *op, op + 1);
	return 0;
}

void cmp_select_free(struct cmp_select *sel)
{
	for (size_t k = 0; k < sel->nflt; k++)
		free(sel->flt[k].col);
	free(sel->flt);
	sel->flt = NULL;
	sel->nflt = 0;
}

static int flush_out(FILE *f)
{
	if (fflush(f) != 0 || ferror(f)) {
		cb_err("compare: write error on standard output");
		return -EIO;
	}
	return 0;
}

int cmp_dump(const struct cmp_job *j)
{
	struct cmp_side s = { .label = "FILE", .sidebit = 1, .paths = j->paths[0],
	                      .nfiles = j->npaths[0] };
	int rc = cmp_side_load(&s, j->sel);

	if (rc == 0)
		rc = cmp_side_points(&s, j->sel, "host");
	if (rc == 0)
		rc = cmp_side_empty(&s, j->sel);
	if (rc == 0)
		cmp_print_dump(j->out, &s);
	cmp_side_free(&s);
	if (rc < 0 || flush_out(j->out) < 0)
		return CB_EXIT_USAGE;
	return CB_EXIT_OK;
}

/*
 * Fold both sides into points, matched by j->by ("auto": by host when
 * either side holds several); *bycol is the column used.  0 or -errno.
 */
static int load_points(const struct cmp_job *j, struct cmp_side *b,
                       struct cmp_side *n, const char **bycol)
{
	const struct cmp_select *sel = j->sel;

	if (cmp_side_load(b, sel) < 0 || cmp_side_load(n, sel) < 0)
		return -EINVAL;
	if (!strcmp(j->by, "auto")) {
		/* Peek at the hosts the selection leaves on each side. */
		if (cmp_side_points(b, sel, NULL) < 0 ||
		    cmp_side_points(n, sel, NULL) < 0)
			return -EINVAL;
		*bycol = b->nhosts > 1 || n->nhosts > 1 ? "host" : NULL;
		if (!*bycol)
			return 0;
	} else {
		*bycol = !strcmp(j->by, "none") ? NULL : j->by;
	}
	if (cmp_side_points(b, sel, *bycol) < 0 ||
	    cmp_side_points(n, sel, *bycol) < 0)
		return -EINVAL;
	return 0;
}

/* The judged pairs of b (matched with n) into *c, how many in *nc;
 * ct pairs into *ct, *nct; only[] the points one side has; returns how
 * many fail the comparison. */
static size_t judge_all(const struct cmp_job *j, struct cmp_side *b,
                        struct cmp_side *n, struct cmp **c, size_t *nc,
                        struct cmp_ctpair **ct, size_t *nct, size_t only[2])
{
	size_t bad = 0;

	cmp_match_points(b, n);
	*ct = cb_xcalloc(b->nct + 1, sizeof **ct);
	*nct = cmp_ct_judge(b, *ct);
	for (size_t k = 0; k < *nct; k++)
		bad += (*ct)[k].v == CMP_CT_WORSE;
	*c = cb_xcalloc(b->npts + 1, sizeof **c);
	for (size_t k = 0; k < b->npts; k++) {
		if (!b->pts[k].match) {
			only[0]++;
			continue;
		}
		(*c)[(*nc)++] = cmp_judge(&b->pts[k], b->pts[k].match,
		                          j->threshold);
	}
	cmp_decide(*c, *nc, j->threshold);
	for (size_t k = 0; k < *nc; k++)
		bad += cmp_is_bad((*c)[k].v);
	for (size_t k = 0; k < n->npts; k++)
		only[1] += !n->pts[k].match;
	return bad;
}

/* The table or CSV, then what matched nothing, the noise and the summary;
 * returns the findings among what matched nothing (cmp_print_missing). */
static size_t print_all(const struct cmp_job *j, const struct cmp_side *b,
                        const struct cmp_side *n, const struct cmp *c,
                        size_t nc, const struct cmp_ctpair *ct, size_t nct,
                        const size_t only[2], const char *bycol)
{
	FILE *sum = j->csv_out ? j->sum : j->out;
	size_t missing = 0;

	if (j->csv_out) {
		cmp_print_csv_header(j->out, bycol);
		cmp_print_csv(j->out, b, n, c, nc);
		cmp_print_ct_csv(j->out, ct, nct);
	} else {
		cmp_print_table(j->out, b, n, c, nc, bycol, j->threshold);
		cmp_print_ct(j->out, b, n, ct, nct, bycol);
	}
	if (sum) {
		missing = cmp_print_missing(sum, b, n, j->sel);
		cmp_print_noise(sum, b, n, c, nc, j->threshold);
		cmp_print_summary(sum, j->csv_out ? "cryptobench: compare: summary"
		                  : "\nsummary", c, nc, ct, nct, only,
		                  j->threshold);
	}
	return missing;
}

static int run_pair(const struct cmp_job *j)
{
	struct cmp_side b = { .label = "BASE", .sidebit = 1, .paths = j->paths[0],
	                      .nfiles = j->npaths[0] };
	struct cmp_side n = { .label = "NEW", .sidebit = 2, .paths = j->paths[1],
	                      .nfiles = j->npaths[1] };
	struct cmp *c = NULL;
	struct cmp_ctpair *ct = NULL;
	size_t nc = 0, nct = 0, only[2] = { 0, 0 }, bad;
	const char *bycol;
	int rc = CB_EXIT_USAGE;

	if (load_points(j, &b, &n, &bycol) < 0 ||
	    cmp_side_empty(&b, j->sel) < 0 || cmp_side_empty(&n, j->sel) < 0)
		goto out;
	bad = judge_all(j, &b, &n, &c, &nc, &ct, &nct, only);
	bad += print_all(j, &b, &n, c, nc, ct, nct, only, bycol);
	if (flush_out(j->out) < 0)
		goto out;
	if (!nc && !nct) {
		cb_err("compare: no point of %s matches a point of %s: nothing "
		       "to compare", j->paths[0][0], j->paths[1][0]);
		rc = CB_EXIT_SKIP;
	} else {
		rc = bad ? CB_EXIT_FAIL : CB_EXIT_OK;
	}
out:
	cmp_side_free(&b);
	cmp_side_free(&n);
	free(c);
	free(ct);
	return rc;
}

int cmp_run(const struct cmp_job *j)
{
	return cmp_fitted(j, run_pair);
}
