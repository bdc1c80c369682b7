/*
 * report_page.c - the HTML page of `cryptobench report` and of `bench`
 * (report.h): the page's frame, the summary, known-answer status and
 * provenance; report_plot.c draws the charts, report_cmp.c the
 * comparisons (compare's verdicts, the geli matrix, the dm-crypt
 * question) and report_ct.c the constant-time verdicts.  The command,
 * options into a call of report_write, is commands/cmd_report.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/cb.h"
#include "compare/compare.h"
#include "report/report.h"
#include "report/rpt.h"
#include "foundation/util.h"

static void td_num(FILE *f, int prec, double v, int ratio)
{
	fputs("<td class=\"n\">", f);
	if (isnan(v))
		fputs("&ndash;", f);
	else
		fprintf(f, "%.*f%s", prec, v, ratio ? "&times;" : "");
	fputs("</td>", f);
}

static void sum_cells(FILE *f, const struct rpt_sum *s, int d)
{
	const struct rpt_pt *b = s->best[d];

	if (!b) {
		fputs("<td>&ndash;</td><td></td><td></td><td></td>", f);
		return;
	}
	fputs("<td>", f);
	rpt_html_esc(f, b->backend);
	fputs("</td>", f);
	td_num(f, 3, b->bps / 1e9, 0);
	td_num(f, 2, b->cpb, 0);
	td_num(f, 2, s->native_ratio[d], 1);
}

/* The key derivations of a summary: cost and a figure in their unit. */
static void sum_kdf(FILE *f, const struct rpt_sum *v, size_t n)
{
	int head = 0;

	for (size_t i = 0; i < n; i++) {
		const struct rpt_pt *b = v[i].best[0];
		char cost[64], fig[64], ci[64];

		if (!v[i].kdf || !b)
			continue;
		if (!head++)
			fputs("<p>Key derivation: the fastest backend, one derivation "
			      "at the cost shown (95 % CI).</p>\n<table><thead><tr>"
			      "<th>algorithm</th><th>cost</th><th>fastest</th>"
			      "<th>figure</th><th>95 % CI</th></tr></thead><tbody>\n", f);
		rpt_kdf_text(b, cost, fig, ci, sizeof cost);
		fputs("<tr><td>", f);
		rpt_html_esc(f, v[i].alg);
		fprintf(f, "</td><td>%s</td><td>", cost);
		rpt_html_esc(f, b->backend);
		fprintf(f, "</td><td class=\"n\">%s</td><td>%s</td></tr>\n", fig,
		        ci);
	}
	if (head)
		fputs("</tbody></table>\n", f);
}

static void sec_summary(FILE *f, const struct rpt *r)
{
	char label[300];

	fputs("<section id=\"summary\"><h2>Summary</h2>\n<p>Per algorithm and "
	      "key size: the fastest backend at 4096-byte requests (or the "
	      "largest size measured), its throughput in GB/s (10<sup>9</sup> "
	      "bytes/s) and cycles per byte, and the native backend's ratio "
	      "to the best library (&gt; 1: native is faster).</p>\n", f);
	for (size_t src = 0; src < r->nsrcs; src++) {
		struct rpt_sum *v;
		size_t n = rpt_summary(r, src, &v);

		if (r->nsrcs > 1) {
			fputs("<h3>", f);
			rpt_html_esc(f, rpt_src_label(r, src, label, sizeof label));
			fputs("</h3>\n", f);
		}
		if (!n) {
			fputs("<p>No request-size measurements (speed).</p>\n", f);
			free(v);
			continue;
		}
		fputs("<table><thead><tr><th rowspan=\"2\">algorithm</th>"
		      "<th rowspan=\"2\">key bits</th><th rowspan=\"2\">bytes</th>"
		      "<th colspan=\"4\">encrypt / digest</th><th colspan=\"4\">decrypt"
		      "</th></tr><tr><th>fastest</th><th>GB/s</th><th>c/B</th>"
		      "<th>native&divide;lib</th><th>fastest</th><th>GB/s</th>"
		      "<th>c/B</th><th>native&divide;lib</th></tr></thead><tbody>\n", f);
		for (size_t i = 0; i < n; i++) {
			if (v[i].kdf)
				continue;
			fputs("<tr><td>", f);
			rpt_html_esc(f, v[i].alg);
			if (v[i].bits)
				fprintf(f, "</td><td class=\"n\">%u", v[i].bits);
			else
				fputs("</td><td class=\"n\">&ndash;", f);
			fprintf(f, "</td><td class=\"n\">%llu</td>",
			        (unsigned long long)v[i].block);
			sum_cells(f, &v[i], 0);
			if (v[i].ndir == 2)
				sum_cells(f, &v[i], 1);
			else
				fputs("<td colspan=\"4\"></td>", f);
			fputs("</tr>\n", f);
		}
		fputs("</tbody></table>\n", f);
		sum_kdf(f, v, n);
		free(v);
	}
	fputs("</section>\n", f);
}

/* ---- known-answer status and provenance ------------------------------ */

static void sec_kat(FILE *f, const struct rpt *r)
{
	char label[300];
	size_t shown = 0;

	fputs("<section id=\"kat\"><h2>Known-answer status</h2>\n<p>Every "
	      "implementation passes its known-answer vectors and agrees with "
	      "another backend before it is timed; a point that did not is "
	      "<em>failed</em> and has no speed.  <em>Skipped</em> points were "
	      "not measurable as asked (a size that is not a multiple of the "
	      "block, a key size the driver lacks).</p>\n<table><thead><tr>"
	      "<th>source</th><th>backend</th><th>measured (passed)</th>"
	      "<th>skipped</th><th>failed</th></tr></thead><tbody>\n", f);
	for (size_t s = 0; s < r->nsrcs; s++)
		for (size_t b = 0; b < r->srcs[s].nbe; b++) {
			const struct rpt_backend *be = &r->srcs[s].be[b];

			fputs("<tr><td>", f);
			rpt_html_esc(f, rpt_src_label(r, s, label, sizeof label));
			fputs("</td><td>", f);
			rpt_html_esc(f, be->name);
			fprintf(f, "</td><td class=\"n\">%zu</td><td class=\"n\">%zu"
			        "</td><td class=\"n%s\">%zu</td></tr>\n", be->ok,
			        be->skip, be->fail ? " bad" : "", be->fail);
		}
	fputs("</tbody></table>\n", f);
	for (size_t i = 0; i < r->npts && shown < 100; i++) {
		const struct rpt_pt *p = &r->pts[i];

		if (!strcmp(p->status, "ok") || rpt_is_skip(p->status))
			continue;
		if (!shown++)
			fputs("<p class=\"bad\">Failed points:</p><ul>\n", f);
		fputs("<li>", f);
		rpt_html_esc(f, p->file);
		fprintf(f, ":%lu: ", p->line);
		rpt_html_esc(f, p->backend);
		fputs(" ", f);
		rpt_html_esc(f, p->alg);
		fprintf(f, " %u-bit, %llu bytes, ", p->key_bits,
		        (unsigned long long)p->block);
		rpt_html_esc(f, p->dir);
		fputs(": ", f);
		rpt_html_esc(f, p->why);
		fputs("</li>\n", f);
	}
	fputs(shown ? "</ul>\n</section>\n" : "<p>No point failed.</p>\n"
	      "</section>\n", f);
}

static void dl_item(FILE *f, const char *k, const char *v)
{
	fprintf(f, "<dt>%s</dt><dd>", k);
	rpt_html_esc(f, v && *v ? v : "unknown");
	fputs("</dd>\n", f);
}

static void sec_prov(FILE *f, const struct rpt *r)
{
	char label[300], when[200];

	fputs("<section id=\"provenance\"><h2>Provenance</h2>\n", f);
	for (size_t s = 0; s < r->nsrcs; s++) {
		const struct rpt_src *p = &r->srcs[s];

		fputs("<h3>", f);
		rpt_html_esc(f, rpt_src_label(r, s, label, sizeof label));
		fputs("</h3>\n<dl>\n", f);
		dl_item(f, "host", p->host);
		dl_item(f, "CPU", p->cpu_model);
		dl_item(f, "CPU flags", p->cpu_flags);
		dl_item(f, "CPU level", p->level);
		dl_item(f, "kernel", p->kernel);
		dl_item(f, "cryptobench", p->tool_version);
		dl_item(f, "compiler", p->compiler);
		dl_item(f, "CFLAGS", p->cflags);
		dl_item(f, "governor", p->governor);
		dl_item(f, "boost", p->boost);
		dl_item(f, "timer", p->clock);
		snprintf(when, sizeof when, "%s \xe2\x80\x93 %s", p->first, p->last);
		dl_item(f, "measured", when);
		dl_item(f, "first file", p->file);
		fputs("</dl>\n<table><thead><tr><th>backend</th><th>version</th>"
		      "<th>code path</th></tr></thead><tbody>\n", f);
		for (size_t b = 0; b < p->nbe; b++) {
			fputs("<tr><td>", f);
			rpt_html_esc(f, p->be[b].name);
			fputs("</td><td>", f);
			rpt_html_esc(f, p->be[b].version);
			fputs("</td><td class=\"small\">", f);
			rpt_html_esc(f, p->be[b].details);
			fputs("</td></tr>\n", f);
		}
		fputs("</tbody></table>\n", f);
	}
	fputs("</section>\n", f);
}

/* ---- the page -------------------------------------------------------- */

static const char css[] =
	"body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1180px;"
	"padding:0 1em;color:#222;background:#fff}"
	"h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;margin-top:2em}"
	"table{border-collapse:collapse;margin:.5em 0 1em;font-size:.9em}"
	"th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;"
	"vertical-align:top}th{background:#f0f0f0}td.n{text-align:right;"
	"font-variant-numeric:tabular-nums}.bad{color:#b00020;font-weight:bold}"
	".small{font-size:.8em}dl{display:grid;grid-template-columns:max-content auto;"
	"gap:.1em 1em;font-size:.9em}dt{font-weight:bold}dd{margin:0}"
	"svg.plot{display:block;max-width:100%;height:auto;margin:.5em 0 1.5em}"
	"nav a{margin-right:1em}footer{margin-top:3em;font-size:.8em;color:#666}"
	".ct-leak{background:#f8d7da}.ct-clean{background:#d4edda}"
	".ct-timing{background:#fff3cd}.ct-none{background:#e9ecef;color:#555}";

/* Checks in the reader's browser (and the test's) that every chart drew. */
static const char status_js[] =
	"window.addEventListener('load',function(){"
	"var s=document.querySelectorAll('svg'),ok=0;"
	"for(var i=0;i<s.length;i++){try{var b=s[i].getBBox();"
	"if(b.width>0&&b.height>0)ok++;}catch(e){}}"
	"var el=document.getElementById('render-status');"
	"el.textContent=ok+' of '+s.length+' charts rendered';"
	"el.setAttribute('data-status',ok===s.length?'ok':'fail');});";

static void page_head(FILE *f, const struct rpt *r, char *const *files,
                      size_t nfiles)
{
	char now[32], label[300];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(now, sizeof now, "%Y-%m-%d %H:%M UTC", &tm);
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset="
	        "\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width\">"
	        "\n<title>cryptobench report</title>\n<style>%s</style>\n"
	        "</head><body>\n<h1>cryptobench report</h1>\n<p>Made %s from ",
	        css, now);
	for (size_t i = 0; i < nfiles; i++) {
		fputs(i ? ", <code>" : "<code>", f);
		rpt_html_esc(f, files[i]);
		fputs("</code>", f);
	}
	fprintf(f, " (%zu rows", r->npts);
	if (r->nct)
		fprintf(f, " and %zu constant-time verdict%s", r->nct,
		        r->nct == 1 ? "" : "s");
	fputs(r->nsrcs ? ") covering " : ")", f);
	for (size_t s = 0; s < r->nsrcs; s++) {
		fputs(s ? ", <b>" : "<b>", f);
		rpt_html_esc(f, rpt_src_label(r, s, label, sizeof label));
		fputs("</b> (", f);
		rpt_html_esc(f, r->srcs[s].cpu_model);
		fputs(")", f);
	}
	fputs(".</p>\n<nav><a href=\"#summary\">summary</a>", f);
	if (r->nsrcs > 1)
		fputs("<a href=\"#compare\">comparison</a>", f);
	fputs("<a href=\"#plots\">plots</a><a href=\"#geli\">geli</a>"
	      "<a href=\"#dmcrypt\">dm-crypt</a><a href=\"#ct\">constant time"
	      "</a><a href=\"#kat\">known answers"
	      "</a><a href=\"#provenance\">provenance</a></nav>\n", f);
}

/* Queue the speed charts: one per (alg, key bits), in measured order. */
static int *queue_speed(struct plots *pl, const struct rpt *r, size_t *n)
{
	int *ids = cb_xcalloc(r->npts + 1, sizeof *ids);
	const struct rpt_pt **seen = cb_xcalloc(r->npts + 1, sizeof *seen);
	size_t ns = 0;

	*n = 0;
	for (size_t i = 0; i < r->npts; i++) {
		const struct rpt_pt *p = &r->pts[i];
		size_t k;

		if (isnan(p->bps) || strcmp(p->tool, "speed"))
			continue;
		for (k = 0; k < ns; k++)
			if (!strcmp(seen[k]->alg, p->alg) &&
			    seen[k]->key_bits == p->key_bits)
				break;
		if (k < ns)
			continue;
		seen[ns++] = p;
		if ((ids[*n] = report_plots_speed(pl, r, p->alg, p->key_bits)) >= 0)
			(*n)++;
	}
	free(seen);
	return ids;
}

static int sec_plots(FILE *f, struct plots *pl, const int *ids, size_t n)
{
	fputs("<section id=\"plots\"><h2>Throughput against request size</h2>\n"
	      "<p>One chart per algorithm and key size; a line per backend "
	      "(and sector size or host where those vary), a panel per "
	      "direction.  Request sizes on a log scale.</p>\n", f);
	if (!n)
		fputs("<p>No request-size measurements (speed) to draw.</p>\n", f);
	for (size_t i = 0; i < n; i++)
		if (report_plots_embed(pl, ids[i], f) < 0)
			return -1;
	fputs("</section>\n", f);
	return 0;
}

static int page_body(FILE *f, const struct rpt *r, char *const *files,
                     size_t nfiles, const char *tmpdir)
{
	const char *gp = report_gnuplot();
	struct plots *pl;
	size_t n;
	int *ids, geli, ref, rc = -1;
	struct cmp_ref_chart rc_ref = { 0 };

	if (!gp) {
		cb_err("report: gnuplot not found (apt-get install gnuplot-nox, "
		       "or set GNUPLOT)");
		return -1;
	}
	if (!(pl = report_plots_new(gp, tmpdir)))
		return -1;
	ids = queue_speed(pl, r, &n);
	geli = report_plots_geli(pl, r);
	ref = report_plots_ref(pl, files, nfiles, &rc_ref);
	if (report_plots_run(pl) < 0)
		goto out;
	page_head(f, r, files, nfiles);
	sec_summary(f, r);
	if (r->nsrcs > 1)
		report_sec_compare(f, r, files, nfiles);
	if (sec_plots(f, pl, ids, n) < 0)
		goto out;
	report_sec_geli(f, r, pl, geli);
	report_sec_ref(f, pl, ref, &rc_ref, nfiles);
	report_sec_dmcrypt(f, r);
	report_sec_ct(f, r);
	sec_kat(f, r);
	sec_prov(f, r);
	fprintf(f, "<footer><p id=\"render-status\" data-status=\"pending\">"
	        "charts not checked (scripts off)</p><p>cryptobench %s; charts "
	        "by gnuplot; nothing on this page is loaded from the network."
	        "</p></footer>\n<script>%s</script>\n</body></html>\n",
	        CB_VERSION, status_js);
	rc = 0;
out:
	free(ids);
	free(rc_ref.bars);
	report_plots_free(pl);
	return rc;
}

static void rm_tree(const char *dir)
{
	static const char *const names[] = { "charts.gp", "gnuplot.out",
	        "gnuplot.err", "all.csv", "cmp.csv", "cmp.err", NULL };
	char p[4200];

	for (int i = 0; names[i]; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		unlink(p);
	}
	for (int i = 0; i < 100000; i++) {
		snprintf(p, sizeof p, "%s/%d.svg", dir, i);
		if (unlink(p) < 0 && errno == ENOENT)
			break;
	}
	rmdir(dir);
}

int report_write(const struct rpt *r, char *const *files, size_t nfiles,
                 const char *dir, const char *name, int force)
{
	char path[4200], part[4300], td[4200];
	const char *base = getenv("TMPDIR");
	FILE *f;
	int rc;

	snprintf(path, sizeof path, "%s/%s", dir, name ? name : "index.html");
	snprintf(part, sizeof part, "%s.part", path);
	if (!force && access(path, F_OK) == 0) {
		cb_err("%s exists (use --force to replace it)", path);
		return CB_EXIT_USAGE;
	}
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		cb_err("-o: cannot create '%s': %s", dir, strerror(errno));
		return CB_EXIT_USAGE;
	}
	snprintf(td, sizeof td, "%s/cryptobench-report.XXXXXX",
	         base && *base ? base : "/tmp");
	if (!mkdtemp(td)) {
		cb_err("cannot create a temporary directory in %s: %s",
		       base && *base ? base : "/tmp", strerror(errno));
		return CB_EXIT_USAGE;
	}
	if (!(f = fopen(part, "w"))) {
		cb_err("%s: %s", part, strerror(errno));
		rm_tree(td);
		return CB_EXIT_USAGE;
	}
	rc = page_body(f, r, files, nfiles, td);
	if (fclose(f) != 0 && rc == 0) {
		cb_err("writing %s: %s", part, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && rename(part, path) < 0) {
		cb_err("%s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc < 0)
		unlink(part);
	rm_tree(td);
	return rc < 0 ? CB_EXIT_USAGE : CB_EXIT_OK;
}

