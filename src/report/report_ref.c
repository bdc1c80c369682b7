/*
 * report_ref.c - the report's "this host among N CPUs": the first result
 * file placed among the reference library by compare --reference's rule
 * (compare_ref.c), one line of `cryptsetup benchmark` (XTS-AES-512
 * encryption, else the first the host has) as a bar per CPU, the host's
 * bar in its own colour.  docs/report.md, docs/compare.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "compare/compare.h"
#include "report/report.h"
#include "foundation/util.h"

#define REF_COLOR  "#1f77b4"
#define HOST_COLOR "#d62728"

/* A bar's label for gnuplot: no double quotes, at most 40 characters. */
static void bar_label(FILE *gp, const char *s)
{
	fputc('"', gp);
	for (int i = 0; s[i] && i < 40; i++)
		fputc(s[i] == '"' ? '\'' : s[i], gp);
	fputc('"', gp);
}

int report_plots_ref(struct plots *pl, char *const *files, size_t nfiles,
                     struct cmp_ref_chart *c)
{
	FILE *gp;

	memset(c, 0, sizeof *c);
	if (!nfiles || cmp_ref_chart(NULL, files[0], c) < 0 || !c->nbars)
		return -1;
	gp = report_plots_begin(pl, 1100, 520);
	fputs("$r << EOD\n", gp);
	for (size_t i = 0; i < c->nbars; i++) {
		bar_label(gp, c->bars[i].label);
		fprintf(gp, c->bars[i].host ? " ? %.6g\n" : " %.6g ?\n",
		        c->bars[i].v);
	}
	fprintf(gp, "EOD\nset datafile missing '?'\nset style fill solid 0.85 "
	        "border -1\nset boxwidth 0.8\nset xtics rotate by 35 right "
	        "nomirror\nset logscale y 10\nset yrange [%.6g:*]\n"
	        "set xrange [-0.6:%zu.6]\nset grid ytics\nset bmargin 10\n"
	        "set ylabel '%s (log scale)'\nset title 'this host among %zu "
	        "CPUs: %s'\nset key outside top center horizontal\n"
	        "plot $r using 0:2:xtic(1) with boxes lc rgb '%s' title "
	        "'reference CPUs', '' using 0:3:xtic(1) with boxes lc rgb '%s' "
	        "title 'this host'", c->bars[c->nbars - 1].v / 2, c->nbars - 1,
	        c->unit, c->nbars - 1, c->title, REF_COLOR, HOST_COLOR);
	return report_plots_end(pl);
}

/* The section: what was placed, the chart, the bars as a table. */
void report_sec_ref(FILE *f, struct plots *pl, int id,
                    const struct cmp_ref_chart *c, size_t nfiles)
{
	fputs("<section id=\"reference\"><h2>This host among the reference "
	      "CPUs</h2>\n", f);
	if (id < 0) {
		fputs("<p>No line of <code>cryptsetup benchmark</code> could be "
		      "placed among the reference library (results/reference/, "
		      "<code>compare --reference</code>): the first file has none "
		      "of its points (64 KiB cipher requests, PBKDF2, Argon2), or "
		      "the library was not found.</p>\n</section>\n", f);
		return;
	}
	fprintf(f, "<p>The first file%s placed among the %zu files of ",
	        nfiles > 1 ? " given" : "", c->nsrcs);
	rpt_html_esc(f, c->dir);
	fputs(" on one line of <code>cryptsetup benchmark</code>, <b>", f);
	rpt_html_esc(f, c->title);
	fprintf(f, "</b> (%s): this host among %zu CPUs, by <code>compare "
	        "--reference</code>'s rule (docs/compare.md: on each side the "
	        "implementation that tool's user gets; the command prints every "
	        "line).  This host's bar: ", c->unit, c->nbars - 1);
	rpt_html_esc(f, c->impl);
	fputs(".</p>\n", f);
	if (report_plots_embed(pl, id, f) < 0)
		fputs("<p class=\"bad\">the chart could not be drawn</p>\n", f);
	fprintf(f, "<table><thead><tr><th>rank</th><th>cpu</th><th>source</th>"
	        "<th>%s</th></tr></thead><tbody>\n", c->unit);
	for (size_t i = 0; i < c->nbars; i++) {
		fprintf(f, "<tr%s><td class=\"n\">%zu</td><td>", c->bars[i].host ?
		        " class=\"host\"" : "", i + 1);
		rpt_html_esc(f, c->bars[i].label);
		fputs("</td><td>", f);
		rpt_html_esc(f, c->bars[i].source);
		fprintf(f, "</td><td class=\"n\">%.1f</td></tr>\n", c->bars[i].v);
	}
	fputs("</tbody></table>\n</section>\n", f);
}
