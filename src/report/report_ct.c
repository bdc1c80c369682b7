/*
 * report_ct.c - the report's "Constant time" section: the verdicts of the
 * ct rows (`cryptobench ct --format csv`, docs/ct.md) as a table of
 * implementations (backend, algorithm, key size; their drivers) against
 * CPU levels (a column per --cpu level the files hold, per host too when
 * they hold several).  A cell is the verdict, coloured by its class
 * (leak, clean, timing-only, not checked), its method and figures in
 * small text and the whole evidence in its title.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/result.h"
#include "report/report.h"
#include "report/rpt.h"
#include "foundation/util.h"

/* The CSS class of a verdict class (cmd_report.c's style sheet has them). */
static const char *cell_class(int v)
{
	static const char *const cls[] = {
		[CB_CT_LEAK] = "ct-leak", [CB_CT_CLEAN] = "ct-clean",
		[CB_CT_TIMING_ONLY] = "ct-timing",
		[CB_CT_UNCHECKED] = "ct-none",
	};
	return cls[cb_ct_verdicts[v].cls];
}

/* The table's shape: its columns (a host at a level) and rows (an
 * implementation), each the first ct row that made it. */
struct ct_grid {
	const struct rpt_ct **col, **row;
	size_t ncol, nrow;
	int hosts;                   /* several hosts: columns name theirs    */
};

static int same_col(const struct rpt_ct *a, const struct rpt_ct *b)
{
	return !strcmp(a->host, b->host) && !strcmp(a->level, b->level);
}

static int same_row(const struct rpt_ct *a, const struct rpt_ct *b)
{
	return !strcmp(a->backend, b->backend) && !strcmp(a->alg, b->alg) &&
	       a->key_bits == b->key_bits;
}

static void grid_make(struct ct_grid *g, const struct rpt *r)
{
	memset(g, 0, sizeof *g);
	g->col = cb_xcalloc(r->nct + 1, sizeof *g->col);
	g->row = cb_xcalloc(r->nct + 1, sizeof *g->row);
	for (size_t i = 0; i < r->nct; i++) {
		const struct rpt_ct *c = &r->ct[i];
		size_t k;

		g->hosts |= strcmp(c->host, r->ct[0].host) != 0;
		for (k = 0; k < g->ncol && !same_col(g->col[k], c); k++)
			;
		if (k == g->ncol)
			g->col[g->ncol++] = c;
		for (k = 0; k < g->nrow && !same_row(g->row[k], c); k++)
			;
		if (k == g->nrow)
			g->row[g->nrow++] = c;
	}
}

/* The worst verdict of the row's implementation in the column, or NULL. */
static const struct rpt_ct *grid_cell(const struct rpt *r,
                                      const struct rpt_ct *row,
                                      const struct rpt_ct *col)
{
	const struct rpt_ct *best = NULL;

	for (size_t i = 0; i < r->nct; i++) {
		const struct rpt_ct *c = &r->ct[i];

		if (same_row(c, row) && same_col(c, col) &&
		    (!best || c->v < best->v))
			best = c;
	}
	return best;
}

/* The drivers of a row's implementation, each once, "<br>" between. */
static void drivers(FILE *f, const struct rpt *r, const struct rpt_ct *row)
{
	for (size_t i = 0; i < r->nct; i++) {
		const struct rpt_ct *c = &r->ct[i];
		size_t j;

		if (!same_row(c, row))
			continue;
		for (j = 0; j < i; j++)
			if (same_row(&r->ct[j], row) &&
			    !strcmp(r->ct[j].driver, c->driver))
				break;
		if (j < i)
			continue;
		if (c != row)
			fputs("<br>", f);
		rpt_html_esc(f, c->driver);
	}
}

static void cell(FILE *f, const struct rpt_ct *c)
{
	char ev[1200];

	if (!c) {
		fputs("<td>&ndash;</td>", f);
		return;
	}
	rpt_ct_evidence(c, ev, sizeof ev);
	fprintf(f, "<td class=\"%s\" title=\"", cell_class(c->v));
	rpt_html_esc(f, c->driver);
	fputs(": ", f);
	rpt_html_esc(f, ev);
	fputs(" (", f);
	rpt_html_esc(f, c->file);
	fprintf(f, ":%lu)\">", c->line);
	rpt_html_esc(f, c->verdict);
	fputs("<br><span class=\"small\">", f);
	rpt_html_esc(f, *c->method ? c->method : c->why);
	if (!isnan(c->t))
		fprintf(f, ", t %.2f", c->t);
	if (c->branches + c->indexes)
		fprintf(f, ", %u place%s", c->branches + c->indexes,
		        c->branches + c->indexes == 1 ? "" : "s");
	fputs("</span></td>", f);
}

/* "N verdicts: 2 leak, 3 clean, ..." over the table's cells. */
static void counts(FILE *f, const struct rpt *r, const struct ct_grid *g)
{
	size_t n[CB_CT_UNCHECKED + 1] = { 0 }, total = 0;
	int first = 1;

	for (size_t i = 0; i < g->nrow; i++)
		for (size_t k = 0; k < g->ncol; k++) {
			const struct rpt_ct *c;

			c = grid_cell(r, g->row[i], g->col[k]);

			if (c) {
				n[cb_ct_verdicts[c->v].cls]++;
				total++;
			}
		}
	fprintf(f, "<p>%zu verdict%s:", total, total == 1 ? "" : "s");
	for (int k = 0; k <= CB_CT_UNCHECKED; k++) {
		if (!n[k])
			continue;
		fprintf(f, "%s <b>%zu</b> %s", first ? "" : ",", n[k],
		        cb_ct_class_name((enum cb_ct_class)k));
		first = 0;
	}
	fputs(".</p>\n", f);
}

static void head(FILE *f, const struct ct_grid *g)
{
	fputs("<table class=\"ct\"><thead><tr><th>backend</th><th>algorithm"
	      "</th><th>key bits</th><th>driver</th>", f);
	for (size_t k = 0; k < g->ncol; k++) {
		fputs("<th>", f);
		if (g->hosts) {
			rpt_html_esc(f, g->col[k]->host);
			fputc(' ', f);
		}
		fputs("--cpu ", f);
		rpt_html_esc(f, g->col[k]->level);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
}

void report_sec_ct(FILE *f, const struct rpt *r)
{
	struct ct_grid g;

	fputs("<section id=\"ct\"><h2>Constant time</h2>\n", f);
	if (!r->nct) {
		fputs("<p>No constant-time verdicts in these files: <code>"
		      "cryptobench ct --format csv</code> writes them "
		      "(docs/ct.md), <code>bench --ct FILE</code> takes them "
		      "into a bench's results.</p>\n</section>\n", f);
		return;
	}
	fputs("<p>Each implementation as <code>cryptobench ct</code> judged "
	      "it (docs/ct.md), a column per CPU level: <span class=\"ct-leak"
	      "\">secret-dependent</span> branch, memory index or timing (a "
	      "leak); <span class=\"ct-clean\">constant-time</span> (memcheck "
	      "ran the real path and found nothing, the timing test no leak); "
	      "<span class=\"ct-timing\">no timing leak found</span> (the "
	      "timing test alone); <span class=\"ct-none\">not checked</span>. "
	      " Under each verdict its method, Welch's t and memcheck's "
	      "places; the whole evidence in the cell's tooltip.</p>\n", f);
	grid_make(&g, r);
	counts(f, r, &g);
	head(f, &g);
	for (size_t i = 0; i < g.nrow; i++) {
		fputs("<tr><td>", f);
		rpt_html_esc(f, g.row[i]->backend);
		fputs("</td><td>", f);
		rpt_html_esc(f, g.row[i]->alg);
		if (g.row[i]->key_bits)
			fprintf(f, "</td><td class=\"n\">%u</td><td>",
			        g.row[i]->key_bits);
		else
			fputs("</td><td class=\"n\">&ndash;</td><td>", f);
		drivers(f, r, g.row[i]);
		fputs("</td>", f);
		for (size_t k = 0; k < g.ncol; k++)
			cell(f, grid_cell(r, g.row[i], g.col[k]));
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n</section>\n", f);
	free(g.col);
	free(g.row);
}
