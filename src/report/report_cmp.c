/*
 * report_cmp.c - the report's comparisons: compare's verdicts between the
 * first source and each other one (compare_run.c's cmp_run and cmp_fleet
 * are called as `cryptobench compare ... --format csv` would call them,
 * so its rule is the only one: points match by cmp_key_cmp, native's code
 * path not part of them; their CSV read back from memory), the
 * geli matrix beside the seed report's figures, and dm-crypt's
 * aes-xts-plain64 against aes-cbc-essiv:sha256.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cb.h"
#include "compare/compare.h"
#include "foundation/csv.h"
#include "report/report.h"
#include "report/rpt.h"
#include "foundation/util.h"

/* ---- compare's verdicts ---------------------------------------------- */

static int skip_col(const char *c)
{
	static const char *const skip[] = { "group", "driver", "iv_mode",
	        "threads", "base_backend_version", "new_backend_version",
	        "base_runs", "new_runs", "base_rel_spread", "new_rel_spread",
	        "base_samples", "new_samples", NULL };

	for (int i = 0; skip[i]; i++)
		if (!strcmp(c, skip[i]))
			return 1;
	return 0;
}

/* compare's columns of ct rows: shown only where the group has one. */
static int is_ct_col(const char *c)
{
	return !strcmp(c, "ct_cpu_level") || !strcmp(c, "base_ct_verdict") ||
	       !strcmp(c, "new_ct_verdict");
}

static int is_bps(const char *c)
{
	size_t n = strlen(c);

	return n > 13 && !strcmp(c + n - 13, "bytes_per_sec");
}

/* Row i is in the group shown (gcol < 0: every row is). */
static int in_group(const struct cb_csv *c, size_t i, int gcol,
                    const char *gval)
{
	return c->rows[i].hdr == 0 &&
	       (gcol < 0 || !strcmp(c->rows[i].fields[gcol], gval));
}

/* The count of each verdict of a group: "<p>3 same, 1 SLOWER (4 points
 * matched).</p>"; returns 1 when the group has a ct row. */
static int cmp_counts(FILE *f, const struct cb_csv *c, int gcol,
                      const char *gval)
{
	int vcol = cb_csv_col(c, 0, "verdict"), ct = 0;
	const char *names[16];
	size_t counts[16] = { 0 }, nv = 0, nrows = 0;

	for (size_t i = 0; i < c->nrows && vcol >= 0; i++) {
		const char *v = c->rows[i].fields[vcol];
		size_t k;

		if (!in_group(c, i, gcol, gval))
			continue;
		nrows++;
		ct |= !strncmp(v, "ct-", 3);
		for (k = 0; k < nv && strcmp(names[k], v); k++)
			;
		if (k == nv && nv < 16)
			names[nv++] = v;
		if (k < 16)
			counts[k]++;
	}
	fputs("<p>", f);
	for (size_t k = 0; k < nv; k++) {
		fprintf(f, "%s<b>%zu</b> ", k ? ", " : "", counts[k]);
		rpt_html_esc(f, names[k]);
	}
	fprintf(f, " (%zu points matched).</p>\n", nrows);
	return ct;
}

/* The column is in the table (compare's ct columns only with ct rows). */
static int shown(const struct cb_csv_head *h, size_t j, int gcol, int ct)
{
	return !skip_col(h->names[j]) && (int)j != gcol &&
	       (ct || !is_ct_col(h->names[j]));
}

/* The verdicts of a group as a count per verdict and a table of every
 * point. */
static void cmp_table(FILE *f, const struct cb_csv *c, int gcol,
                      const char *gval)
{
	const struct cb_csv_head *h = &c->hdrs[0];
	int vcol = cb_csv_col(c, 0, "verdict");
	int ct = cmp_counts(f, c, gcol, gval);

	fputs("<details><summary>every point</summary><table><thead><tr>", f);
	for (size_t j = 0; j < h->ncols; j++)
		if (shown(h, j, gcol, ct)) {
			fputs("<th>", f);
			rpt_html_esc(f, h->names[j]);
			fputs(is_bps(h->names[j]) ? " (GB/s)</th>" : "</th>", f);
		}
	fputs("</tr></thead><tbody>\n", f);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cb_csv_rec *row = &c->rows[i];
		double d;

		if (!in_group(c, i, gcol, gval))
			continue;
		fputs("<tr>", f);
		for (size_t j = 0; j < h->ncols; j++) {
			if (!shown(h, j, gcol, ct))
				continue;
			if (is_bps(h->names[j]) &&
			    cb_csv_number(row->fields[j], &d) == 0) {
				fprintf(f, "<td class=\"n\">%.3f</td>", d / 1e9);
				continue;
			}
			fputs((int)j == vcol && strcmp(row->fields[j], "same") ?
			      "<td class=\"bad\">" : "<td>", f);
			rpt_html_esc(f, row->fields[j]);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></details>\n", f);
}

/* Run compare's job j (cmp_run, or cmp_fleet with a baseline) with
 * compare's own matching rule and CSV out, into c; 0, or -1 after saying on the page
 * why not (compare's own messages). */
static int run_compare(FILE *f, struct cmp_job *j, struct cmp_select *sel,
                       struct cb_csv *c)
{
	char *out = NULL, *err = NULL;
	size_t nout = 0, nerr = 0;
	FILE *msgs, *old;
	int rc;

	memset(c, 0, sizeof *c);
	j->sel = sel;
	j->csv_out = 1;
	j->threshold = CMP_THRESHOLD;
	j->out = open_memstream(&out, &nout);
	j->sum = msgs = open_memstream(&err, &nerr);
	if (!j->out || !msgs) {
		fputs("<p class=\"bad\">compare failed: out of memory</p>\n", f);
		if (j->out)
			fclose(j->out);
		if (msgs)
			fclose(msgs);
		free(out);
		free(err);
		cmp_select_free(sel);
		return -1;
	}
	old = cb_msg_to(msgs);
	rc = j->baseline ? cmp_fleet(j) : cmp_run(j);
	cb_msg_to(old);
	fclose(j->out);
	fclose(msgs);
	if ((rc == 0 || rc == 1) && cb_csv_parse(c, "compare", out, nout) == 0 &&
	    c->nhdrs)
		rc = 0;
	else if (rc == CB_EXIT_SKIP)
		fputs("<p>No point (and no constant-time verdict at one CPU "
		      "level) in common: nothing to compare.</p>\n", f);
	else {
		cb_warn("report: compare did not run (exit %d); the page says "
		        "why", rc);
		fputs("<p class=\"bad\">compare failed: ", f);
		rpt_html_esc(f, err);
		fputs("</p>\n", f);
	}
	free(out);
	free(err);
	cmp_select_free(sel);
	return rc == 0 ? 0 : -1;
}

/* Sources that differ in host and level both: pairwise, BASE and NEW
 * both every file, `--by none --base-where .. --new-where ..`. */
static void cmp_pair(FILE *f, const struct rpt *r, size_t s,
                     char *const *files, size_t nfiles)
{
	struct cmp_job j = { .paths = { (const char *const *)files,
	                                (const char *const *)files },
	                     .npaths = { nfiles, nfiles }, .by = "none" };
	struct cmp_select sel = { 0 };
	struct cb_csv c;

	cmp_add_filter(&sel, 1, "host", 4, '=', r->srcs[0].host);
	cmp_add_filter(&sel, 2, "host", 4, '=', r->srcs[s].host);
	cmp_add_filter(&sel, 1, "cpu_level", 9, '=', r->srcs[0].level);
	cmp_add_filter(&sel, 2, "cpu_level", 9, '=', r->srcs[s].level);
	if (run_compare(f, &j, &sel, &c) == 0)
		cmp_table(f, &c, -1, NULL);
	cb_csv_free(&c);
}

/* The column the sources differ in, when it is one: "host" or
 * "cpu_level"; NULL when both vary. */
static const char *fleet_by(const struct rpt *r)
{
	int hosts = 0, levels = 0;

	for (size_t s = 1; s < r->nsrcs; s++) {
		hosts |= strcmp(r->srcs[s].host, r->srcs[0].host) != 0;
		levels |= strcmp(r->srcs[s].level, r->srcs[0].level) != 0;
	}
	return !levels ? "host" : !hosts ? "cpu_level" : NULL;
}

static void src_heading(FILE *f, const struct rpt *r, size_t s)
{
	char a[300], b[300];

	fputs("<h3>", f);
	rpt_html_esc(f, rpt_src_label(r, 0, a, sizeof a));
	fputs(" &rarr; ", f);
	rpt_html_esc(f, rpt_src_label(r, s, b, sizeof b));
	fputs("</h3>\n", f);
}

/* One host or level against the first: compare's fleet mode
 * (`--baseline V --by COL`), one table per other source. */
static void cmp_fleet_sec(FILE *f, const struct rpt *r, const char *by,
                          char *const *files, size_t nfiles)
{
	int host = !strcmp(by, "host");
	struct cmp_job j = { .paths = { (const char *const *)files },
	                     .npaths = { nfiles }, .by = by,
	                     .baseline = host ? r->srcs[0].host
	                                      : r->srcs[0].level };
	struct cmp_select sel = { 0 };
	struct cb_csv c;

	if (run_compare(f, &j, &sel, &c) == 0)
		for (size_t s = 1; s < r->nsrcs; s++) {
			src_heading(f, r, s);
			cmp_table(f, &c, cb_csv_col(&c, 0, by),
			          host ? r->srcs[s].host : r->srcs[s].level);
		}
	cb_csv_free(&c);
}

void report_sec_compare(FILE *f, const struct rpt *r, char *const *files,
                        size_t nfiles)
{
	const char *by = fleet_by(r);

	fputs("<section id=\"compare\"><h2>Side by side: compare's verdicts"
	      "</h2>\n<p>Each source against the first, point by point, as "
	      "<code>cryptobench compare</code> judges them (its fleet mode, "
	      "<code>--baseline</code> with <code>--by host</code> or "
	      "<code>--by cpu_level</code>; an implementation matches itself "
	      "at every CPU level, native's code path is not part of its name; "
	      "docs/compare.md has the rule).  The "
	      "plots below draw the sources together.</p>\n", f);
	if (by) {
		cmp_fleet_sec(f, r, by, files, nfiles);
	} else {
		for (size_t s = 1; s < r->nsrcs; s++) {
			src_heading(f, r, s);
			cmp_pair(f, r, s, files, nfiles);
		}
	}
	fputs("</section>\n", f);
}

/* ---- the geli matrix ------------------------------------------------- */

static int has_dd(const struct rpt *r, size_t s, const char *be)
{
	return rpt_find(r, s, "dd", be, NULL, UINT_MAX, UINT64_MAX, NULL,
	                UINT64_MAX, NULL) != NULL;
}

void report_sec_geli(FILE *f, const struct rpt *r, struct plots *pl, int id)
{
	char label[300];

	fputs("<section id=\"geli\"><h2>The geli matrix beside the seed report"
	      "</h2>\n", f);
	if (!r->nseed) {
		fputs("<p>The seed report's figures (results/reference/"
		      "geli-seed.csv) were not found; give them with --seed.</p>"
		      "\n</section>\n", f);
		return;
	}
	fputs("<p>The seed report's FreeBSD geli runs (<code>dd if=/dev/zero "
	      "bs=1m count=200</code> through 4096-byte sectors) and the "
	      "same configurations through <code>cryptobench dd</code> here "
	      "(MB/s, 10<sup>6</sup> bytes/s, encrypt; the chart's scale is "
	      "logarithmic).  The seed wrote to a gmirror, so "
	      "its figures are bounded by the disks (its baseline, 76 MB/s); "
	      "this run's are the transform and pipeline alone.</p>\n", f);
	if (id >= 0 && report_plots_embed(pl, id, f) < 0)
		fputs("<p class=\"bad\">the chart could not be drawn</p>\n", f);
	fputs("<table><thead><tr><th>configuration</th><th>seed MB/s</th>", f);
	for (size_t s = 0; s < r->nsrcs; s++)
		for (size_t b = 0; b < r->srcs[s].nbe; b++) {
			if (!has_dd(r, s, r->srcs[s].be[b].name))
				continue;
			fputs("<th>", f);
			rpt_html_esc(f, r->srcs[s].be[b].name);
			if (r->nsrcs > 1) {
				fputs(" @", f);
				rpt_html_esc(f, rpt_src_label(r, s, label, sizeof label));
			}
			fputs("</th>", f);
		}
	fputs("</tr></thead><tbody>\n", f);
	for (size_t c = 0; c < r->nseed; c++) {
		const struct rpt_pt *sd = &r->seed[c];

		fputs("<tr><td>", f);
		rpt_html_esc(f, report_geli_label(sd, label, sizeof label));
		fprintf(f, "</td><td class=\"n\">%.1f</td>", sd->bps / 1e6);
		for (size_t s = 0; s < r->nsrcs; s++)
			for (size_t b = 0; b < r->srcs[s].nbe; b++) {
				const struct rpt_pt *p;

				if (!has_dd(r, s, r->srcs[s].be[b].name))
					continue;
				p = rpt_find(r, s, "dd",
				        r->srcs[s].be[b].name, sd->alg, sd->key_bits,
				        UINT64_MAX, "encrypt", sd->sector, sd->auth);

				if (p)
					fprintf(f, "<td class=\"n\">%.1f</td>", p->bps / 1e6);
				else
					fputs("<td class=\"n\">&ndash;</td>", f);
			}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n</section>\n", f);
}

/* ---- dm-crypt: aes-xts-plain64 vs aes-cbc-essiv:sha256 ---------------- */

static void gbs_cell(FILE *f, const struct rpt_pt *p)
{
	if (p)
		fprintf(f, "<td class=\"n\">%.3f</td>", p->bps / 1e9);
	else
		fputs("<td>&ndash;</td>", f);
}

static void dm_row(FILE *f, const struct rpt *r, size_t s, const char *be,
                   uint64_t sector, const char *dir)
{
	const struct rpt_pt *x, *e;
	char label[300];

	if (!rpt_dm_pair(r, s, be, sector, dir, &x, &e))
		return;
	fputs("<tr><td>", f);
	rpt_html_esc(f, be);
	if (r->nsrcs > 1) {
		fputs(" @", f);
		rpt_html_esc(f, rpt_src_label(r, s, label, sizeof label));
	}
	fprintf(f, "</td><td class=\"n\">%llu</td><td>%s</td>",
	        (unsigned long long)sector,
	        !strcmp(dir, "encrypt") ? "write (encrypt)" : "read (decrypt)");
	gbs_cell(f, x);
	gbs_cell(f, e);
	if (x && e) {
		fprintf(f, "<td class=\"n\">%.2f", x->bps / e->bps);
		if (!isnan(x->lo) && !isnan(e->hi) && e->hi > 0 && e->lo > 0)
			fprintf(f, " [%.2f, %.2f]", x->lo / e->hi, x->hi / e->lo);
		fputs("</td>", f);
	} else {
		fputs("<td>&ndash;</td>", f);
	}
	fputs("</tr>\n", f);
}

void report_sec_dmcrypt(FILE *f, const struct rpt *r)
{
	static const uint64_t sectors[] = { 512, 4096 };
	static const char *const dirs[] = { "encrypt", "decrypt" };
	long pos;

	fputs("<section id=\"dmcrypt\"><h2>dm-crypt: aes-xts-plain64 against "
	      "aes-cbc-essiv:sha256</h2>\n<p>The storage engineer's question "
	      "on this host: how much faster is XTS than CBC-ESSIV, per sector "
	      "size, for writes (encrypt) and reads (decrypt).  The ratio is "
	      "XTS &divide; ESSIV; the bracket, where the files carry "
	      "confidence intervals, bounds it from the two 95 % intervals."
	      "</p>\n<table><thead><tr><th>backend</th><th>sector</th>"
	      "<th>direction</th><th>aes-xts-plain64 GB/s</th>"
	      "<th>aes-cbc-essiv:sha256 GB/s</th><th>ratio</th></tr></thead>"
	      "<tbody>\n", f);
	pos = ftell(f);
	for (size_t s = 0; s < r->nsrcs; s++)
		for (size_t b = 0; b < r->srcs[s].nbe; b++)
			for (int k = 0; k < 2; k++)
				for (int d = 0; d < 2; d++)
					dm_row(f, r, s, r->srcs[s].be[b].name,
					       sectors[k], dirs[d]);
	if (ftell(f) == pos)
		fputs("<tr><td colspan=\"6\">no sector measurements of these two "
		      "in the files</td></tr>\n", f);
	fputs("</tbody></table>\n</section>\n", f);
}
