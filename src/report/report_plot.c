/*
 * report_plot.c - the report's charts: one gnuplot script draws every
 * chart as SVG into a temporary directory, and each SVG is then copied
 * into the page inline, its ids prefixed so that several charts can share
 * one document and its namespace declarations dropped (HTML needs none).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cb.h"
#include "report/report.h"
#include "report/rpt.h"
#include "foundation/util.h"


struct plots {
	const char *gnuplot;
	char dir[4096];
	FILE *gp;                    /* the script being written               */
	int n;                       /* charts queued                          */
};

static const char *const be_colors[] = {   /* by backend, then the rest */
	"openssl", "#1f77b4", "gcrypt", "#d62728", "nettle", "#2ca02c",
	"native", "#9467bd", "freebsd-geli", "#7f7f7f", NULL,
};
static const char *const more_colors[] = {
	"#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
};

static const char *color_of(const char *backend, int *next)
{
	for (int i = 0; be_colors[i]; i += 2)
		if (!strcmp(be_colors[i], backend))
			return be_colors[i + 1];
	return more_colors[(*next)++ % 5];
}

static int executable(const char *p)
{
	return access(p, X_OK) == 0;
}

const char *report_gnuplot(void)
{
	static char buf[4096];
	const char *g = getenv("GNUPLOT"), *path = getenv("PATH");

	if (!g || !*g)
		g = "gnuplot";
	if (strchr(g, '/'))
		return executable(g) ? g : NULL;
	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? path : ".", g);
		if (executable(buf))
			return buf;
		path += n + (path[n] == ':');
	}
	return NULL;
}

/* A gnuplot single-quoted string. */
static void gq(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

struct plots *report_plots_new(const char *gnuplot, const char *tmpdir)
{
	struct plots *pl = cb_xcalloc(1, sizeof *pl);
	char path[4200];

	pl->gnuplot = gnuplot;
	snprintf(pl->dir, sizeof pl->dir, "%s", tmpdir);
	snprintf(path, sizeof path, "%s/charts.gp", pl->dir);
	if (!(pl->gp = fopen(path, "w"))) {
		cb_err("%s: %s", path, strerror(errno));
		free(pl);
		return NULL;
	}
	return pl;
}

static void chart_start(struct plots *pl, int w, int h)
{
	fprintf(pl->gp, "reset\nset terminal svg size %d,%d noenhanced "
	        "font 'sans,11' background '#ffffff'\nset output ", w, h);
	{
		char path[4200];

		snprintf(path, sizeof path, "%s/%d.svg", pl->dir, pl->n);
		gq(pl->gp, path);
	}
	fputc('\n', pl->gp);
}

/* ---- speed: throughput vs request size, a panel per direction -------- */

static int plan_same_series(const struct rpt_pt *a, const struct rpt_pt *b)
{
	return a->src == b->src && !strcmp(a->backend, b->backend) &&
	       !strcmp(a->driver, b->driver) && a->sector == b->sector &&
	       !strcmp(a->iv, b->iv);
}

static int cmp_block(const void *pa, const void *pb)
{
	const struct rpt_pt *a = *(const struct rpt_pt *const *)pa;
	const struct rpt_pt *b = *(const struct rpt_pt *const *)pb;

	return a->block < b->block ? -1 : a->block > b->block;
}

/* Label of series s: its backend, and its driver when the backend has
 * several in the chart. */
static void series_label(const struct rpt *r, const struct rpt_pt *const *ser,
                         size_t ns, size_t s, char *buf, size_t len)
{
	const struct rpt_pt *p = ser[s];
	char src[300];
	size_t n = (size_t)snprintf(buf, len, "%s", p->backend);
	int multi_src = r->nsrcs > 1;

	for (size_t k = 0; k < ns; k++)
		if (k != s && ser[k]->src == p->src &&
		    !strcmp(ser[k]->backend, p->backend) &&
		    strcmp(ser[k]->driver, p->driver)) {
			n += (size_t)snprintf(buf + n, len - n, ": %s", p->driver);
			break;
		}

	if (p->sector && n < len)
		n += (size_t)snprintf(buf + n, len - n, " (%llu-byte sectors)",
		                      (unsigned long long)p->sector);
	if (strcmp(p->iv, "per-request") && p->sector == 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, " iv=%s", p->iv);
	if (multi_src && n < len)
		snprintf(buf + n, len - n, " @%s",
		         rpt_src_label(r, p->src, src, sizeof src));
}

/* The points of one series in one direction, sorted by size, as a
 * datablock named $bN; returns how many. */
static size_t series_block(struct plots *pl, const struct rpt *r,
                           const struct rpt_pt *s, const char *dir,
                           const char *alg, unsigned bits, int name)
{
	const struct rpt_pt **v = cb_xcalloc(r->npts + 1, sizeof *v);
	size_t n = 0;

	for (size_t i = 0; i < r->npts; i++) {
		const struct rpt_pt *p = &r->pts[i];

		if (!isnan(p->bps) && !strcmp(p->tool, "speed") &&
		    !strcmp(p->alg, alg) && p->key_bits == bits &&
		    !strcmp(p->dir, dir) && plan_same_series(p, s))
			v[n++] = p;
	}
	qsort(v, n, sizeof *v, cmp_block);
	if (n) {
		fprintf(pl->gp, "$b%d << EOD\n", name);
		for (size_t i = 0; i < n; i++)
			fprintf(pl->gp, "%llu %.6g\n",
			        (unsigned long long)v[i]->block, v[i]->bps / 1e9);
		fprintf(pl->gp, "EOD\n");
	}
	free(v);
	return n;
}

/* Distinct series and directions of (alg, bits); returns the series. */
static size_t speed_series(const struct rpt *r, const char *alg,
                           unsigned bits, const struct rpt_pt **ser,
                           const char **dirs, int *ndirs)
{
	static const char *const order[] = { "encrypt", "decrypt", "digest" };
	size_t ns = 0;
	int have[3] = { 0, 0, 0 };

	for (size_t i = 0; i < r->npts; i++) {
		const struct rpt_pt *p = &r->pts[i];
		size_t k;

		if (isnan(p->bps) || strcmp(p->tool, "speed") ||
		    strcmp(p->alg, alg) || p->key_bits != bits)
			continue;
		for (k = 0; k < ns && !plan_same_series(ser[k], p); k++)
			;
		if (k == ns)
			ser[ns++] = p;
		for (int d = 0; d < 3; d++)
			if (!strcmp(p->dir, order[d]))
				have[d] = 1;
	}
	*ndirs = 0;
	for (int d = 0; d < 3; d++)
		if (have[d])
			dirs[(*ndirs)++] = order[d];
	return ns;
}

int report_plots_speed(struct plots *pl, const struct rpt *r, const char *alg,
                unsigned bits)
{
	const struct rpt_pt **ser = cb_xcalloc(r->npts + 1, sizeof *ser);
	const char *dirs[3];
	char title[256], label[512];
	int ndirs, next = 0;
	char *has;
	size_t ns = speed_series(r, alg, bits, ser, dirs, &ndirs);

	if (!ns || !ndirs) {
		free(ser);
		return -1;
	}
	chart_start(pl, ndirs > 1 ? 1100 : 620, 380 + 16 * (int)ns);
	fprintf(pl->gp, "set logscale x 2\nset format x '%%.0f'\n"
	        "set xlabel 'request size (bytes)'\nset ylabel 'GB/s (10^9 bytes/s)'\n"
	        "set yrange [0:*]\nset grid\nset key below Left reverse\n"
	        "set offsets graph 0.03, graph 0.03, graph 0.05, 0\n");
	snprintf(title, sizeof title, bits ? "%s, %u-bit key" : "%s", alg, bits);
	fprintf(pl->gp, "set multiplot layout 1,%d title ", ndirs);
	gq(pl->gp, title);
	fputc('\n', pl->gp);
	has = cb_xcalloc(ns * 3 + 1, 1);
	for (int d = 0; d < ndirs; d++)       /* datablocks before any plot */
		for (size_t s = 0; s < ns; s++)
			has[d * ns + s] = series_block(pl, r, ser[s], dirs[d], alg,
			                               bits, pl->n * 1000 + d * 300 +
			                               (int)s) > 0;
	for (int d = 0; d < ndirs; d++) {
		const char *sep = "plot";

		fprintf(pl->gp, "set title ");
		gq(pl->gp, dirs[d]);
		fputc('\n', pl->gp);
		next = 0;
		for (size_t s = 0; s < ns; s++) {
			if (!has[d * ns + s])
				continue;
			series_label(r, ser, ns, s, label, sizeof label);
			fprintf(pl->gp, "%s $b%d using 1:2 with linespoints lw 2 "
			        "pt %d ps 0.7 dt %d lc rgb '%s' title ", sep,
			        pl->n * 1000 + d * 300 + (int)s,
			        ser[s]->sector ? 5 : 7, 1 + (int)(ser[s]->src % 4),
			        color_of(ser[s]->backend, &next));
			gq(pl->gp, label);
			sep = ",";
		}
		fputc('\n', pl->gp);
	}
	free(has);
	fprintf(pl->gp, "unset multiplot\nunset output\n");
	free(ser);
	return pl->n++;
}

/* ---- geli: the matrix as bars beside the seed ------------------------ */

/* The host's dd figure for seed configuration s (MB/s), or NaN. */
static double geli_value(const struct rpt *r, size_t src, const char *be,
                         const struct rpt_pt *s)
{
	const struct rpt_pt *p = rpt_find(r, src, "dd", be, s->alg, s->key_bits,
	                                  UINT64_MAX, "encrypt", s->sector,
	                                  s->auth);

	return p ? p->bps / 1e6 : NAN;
}

int report_plots_geli(struct plots *pl, const struct rpt *r)
{
	struct { size_t src; const char *be; } ser[64];
	size_t ns = 0;
	char label[300], src[300];
	int next = 0;

	if (!r->nseed)
		return -1;
	for (size_t i = 0; i < r->npts && ns < 64; i++) {
		const struct rpt_pt *p = &r->pts[i];
		size_t k;

		if (isnan(p->bps) || strcmp(p->tool, "dd"))
			continue;
		for (k = 0; k < ns; k++)
			if (ser[k].src == p->src && !strcmp(ser[k].be, p->backend))
				break;
		if (k == ns) {
			ser[ns].src = p->src;
			ser[ns++].be = p->backend;
		}
	}
	chart_start(pl, 1100, 560);
	fprintf(pl->gp, "$g << EOD\n");
	for (size_t c = 0; c < r->nseed; c++) {
		const struct rpt_pt *s = &r->seed[c];

		fprintf(pl->gp, "\"%s\" %.6g", report_geli_label(s, label,
		        sizeof label), s->bps / 1e6);
		for (size_t k = 0; k < ns; k++) {
			double v = geli_value(r, ser[k].src, ser[k].be, s);

			fprintf(pl->gp, isnan(v) ? " ?" : " %.6g", v);
		}
		fputc('\n', pl->gp);
	}
	fprintf(pl->gp, "EOD\nset datafile missing '?'\nset style data histograms\n"
	        "set style histogram clustered gap 1\nset style fill solid 0.85 border -1\n"
	        "set boxwidth 0.9\nset xtics rotate by 35 right nomirror\n"
	        "set logscale y 10\nset yrange [1:*]\nset grid ytics\n"
	        "set ylabel 'MB/s (10^6 bytes/s, log scale)'\nset bmargin 9\n"
	        "set key outside top center horizontal\n"
	        "plot $g using 2:xtic(1) lc rgb '#7f7f7f' title 'seed report (FreeBSD geli, gmirror-bound)'");
	for (size_t k = 0; k < ns; k++) {
		fprintf(pl->gp, ", $g using %zu lc rgb '%s' title ", k + 3,
		        color_of(ser[k].be, &next));
		if (r->nsrcs > 1)
			snprintf(label, sizeof label, "%s @%s", ser[k].be,
			         rpt_src_label(r, ser[k].src, src, sizeof src));
		else
			snprintf(label, sizeof label, "%s", ser[k].be);
		gq(pl->gp, label);
	}
	fprintf(pl->gp, "\nunset output\n");
	return pl->n++;
}

/* ---- running gnuplot and embedding ---------------------------------- */

static void print_file(const char *path, const char *prefix)
{
	char line[1024];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	for (int n = 0; n < 20 && fgets(line, sizeof line, f); n++)
		fprintf(stderr, "%s%s", prefix, line);
	fclose(f);
}

int report_plots_run(struct plots *pl)
{
	char script[4200], out[4200], err[4200];
	char *argv[3];
	int rc;

	if (fclose(pl->gp) != 0) {
		pl->gp = NULL;
		cb_err("writing the gnuplot script: %s", strerror(errno));
		return -1;
	}
	pl->gp = NULL;
	if (!pl->n)
		return 0;
	snprintf(script, sizeof script, "%s/charts.gp", pl->dir);
	snprintf(out, sizeof out, "%s/gnuplot.out", pl->dir);
	snprintf(err, sizeof err, "%s/gnuplot.err", pl->dir);
	argv[0] = (char *)pl->gnuplot;
	argv[1] = script;
	argv[2] = NULL;
	rc = cb_spawn(pl->gnuplot, argv, out, err);
	if (rc != 0) {
		cb_err("gnuplot failed (exit %d):", rc);
		print_file(err, "    ");
		return -1;
	}
	return 0;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, k;

	if (!f)
		return NULL;
	do {
		if (cap - n < 65536)
			buf = cb_xrealloc(buf, cap = cap * 2 + 65536);
		k = fread(buf + n, 1, cap - n - 1, f);
		n += k;
	} while (k > 0);
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

/* Copy svg text with ids prefixed "cN-" and xmlns attributes dropped. */
static void svg_copy(FILE *out, const char *s, int id)
{
	static const char *const refs[] = { "id='", "id=\"", "href='#",
	                                    "href=\"#", "url(#", NULL };

	while (*s) {
		int hit = 0;

		if ((s[0] == ' ' || s[0] == '\n') && !strncmp(s + 1, "xmlns", 5)) {
			const char *q = strpbrk(s + 6, "\"'");
			const char *e = q ? strchr(q + 1, *q) : NULL;

			if (e) {
				s = e + 1;
				continue;
			}
		}
		for (int i = 0; refs[i]; i++)
			if (!strncmp(s, refs[i], strlen(refs[i]))) {
				fprintf(out, "%sc%d-", refs[i], id);
				s += strlen(refs[i]);
				hit = 1;
				break;
			}
		if (!hit)
			fputc(*s++, out);
	}
}

int report_plots_embed(struct plots *pl, int id, FILE *out)
{
	char path[4200];
	size_t len;
	char *svg, *start;

	snprintf(path, sizeof path, "%s/%d.svg", pl->dir, id);
	if (!(svg = slurp(path, &len)) || !(start = strstr(svg, "<svg"))) {
		free(svg);
		cb_err("gnuplot wrote no chart %s", path);
		return -1;
	}
	if (strstr(start, "<script")) {
		free(svg);
		cb_err("%s: gnuplot's SVG has a script; not embedding it", path);
		return -1;
	}
	fprintf(out, "<svg class=\"plot\" role=\"img\"");
	svg_copy(out, start + 4, id);
	fputc('\n', out);
	free(svg);
	return 0;
}

void report_plots_free(struct plots *pl)
{
	if (!pl)
		return;
	if (pl->gp)
		fclose(pl->gp);
	free(pl);
}
