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
	cb_put_quoted(f, s, '\'');
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

/* A chart's gnuplot script is started (w x h); write its commands to the
 * FILE returned, then report_plots_end() queues it (its id). */
FILE *report_plots_begin(struct plots *pl, int w, int h)
{
	chart_start(pl, w, h);
	return pl->gp;
}

int report_plots_end(struct plots *pl)
{
	fprintf(pl->gp, "\nunset output\n");
	return pl->n++;
}

/* ---- speed: throughput vs request size, a panel per direction -------- */

/*
 * A chart's series: one implementation (source, backend, driver, IV mode)
 * over request sizes, or - its own row of panels - over sector sizes (the
 * sector points of a bench are 4096-byte requests written as 512- and
 * 4096-byte sectors: on the request-size axis they were single points at
 * 4096).  Each series of a chart has its own colour and marker.
 */
static int same_series(const struct rpt_pt *a, const struct rpt_pt *b)
{
	return a->src == b->src && !strcmp(a->backend, b->backend) &&
	       !strcmp(a->driver, b->driver) && !a->sector == !b->sector &&
	       !strcmp(a->iv, b->iv);
}

/* x of a point: its sector size in a sector series, else its request */
static uint64_t x_of(const struct rpt_pt *p)
{
	return p->sector ? p->sector : p->block;
}

static int cmp_x(const void *pa, const void *pb)
{
	uint64_t a = x_of(*(const struct rpt_pt *const *)pa);
	uint64_t b = x_of(*(const struct rpt_pt *const *)pb);

	return a < b ? -1 : a > b;
}

/* Colours: a backend's own first, then ones no series of the chart has;
 * markers: gnuplot point types, one per series (filled ones first). */
static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#7f7f7f", "#ff7f0e",
	"#8c564b", "#e377c2", "#17becf", "#bcbd22", "#000000", "#aec7e8",
	"#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d",
	"#9edae5", "#393b79",
};
#define NPALETTE (sizeof palette / sizeof palette[0])
static const int markers[] = { 7, 5, 9, 11, 13, 15, 4, 6, 8, 10, 12, 14,
                               1, 2, 3 };
#define NMARKERS (sizeof markers / sizeof markers[0])

struct style {
	const char *color;
	int pt;
};

/* Whether c is the colour of a series before s, or the own colour of
 * another backend in the chart (a reader takes blue for openssl). */
static int color_taken(const struct rpt_pt *const *ser, size_t ns,
                       const struct style *st, size_t s, const char *c)
{
	for (size_t k = 0; k < s; k++)
		if (!strcmp(st[k].color, c))
			return 1;
	for (int i = 0; be_colors[i]; i += 2)
		if (!strcmp(be_colors[i + 1], c))
			for (size_t k = 0; k < ns; k++)
				if (!strcmp(ser[k]->backend, be_colors[i]) &&
				    strcmp(ser[s]->backend, be_colors[i]))
					return 1;
	return 0;
}

/* The styles of series 0..ns-1: distinct colours while the palette lasts
 * (then the markers keep each pair distinct), distinct markers. */
static void series_styles(const struct rpt_pt *const *ser, size_t ns,
                          struct style *st)
{
	for (size_t s = 0; s < ns; s++) {
		const char *want = NULL;
		size_t k;

		for (int i = 0; be_colors[i]; i += 2)
			if (!strcmp(be_colors[i], ser[s]->backend))
				want = be_colors[i + 1];
		for (k = 0; want && k < s && strcmp(st[k].color, want); k++)
			;
		if (!want || k < s) {            /* taken: the first free */
			size_t c = 0;

			while (c < NPALETTE && color_taken(ser, ns, st, s, palette[c]))
				c++;
			want = palette[c < NPALETTE ? c : s % NPALETTE];
		}
		st[s].color = want;
		st[s].pt = markers[s % NMARKERS];
	}
}

/* Label of series s: its backend, and its driver when the backend has
 * several in the chart; at most 60 characters ("..." in the middle). */
static void series_label(const struct rpt *r, const struct rpt_pt *const *ser,
                         size_t ns, size_t s, char *buf, size_t len)
{
	const struct rpt_pt *p = ser[s];
	char src[300], full[700];
	size_t n = (size_t)snprintf(full, sizeof full, "%s", p->backend);

	for (size_t k = 0; k < ns; k++)
		if (k != s && ser[k]->src == p->src &&
		    !strcmp(ser[k]->backend, p->backend) &&
		    strcmp(ser[k]->driver, p->driver)) {
			n += (size_t)snprintf(full + n, sizeof full - n, ": %s",
			                      p->driver);
			break;
		}
	if (strcmp(p->iv, "per-request") && p->sector == 0 && n < sizeof full)
		n += (size_t)snprintf(full + n, sizeof full - n, " iv=%s", p->iv);
	if (r->nsrcs > 1 && n < sizeof full)
		snprintf(full + n, sizeof full - n, " @%s",
		         rpt_src_label(r, p->src, src, sizeof src));
	n = strlen(full);
	if (n > 60)
		snprintf(buf, len, "%.28s...%s", full, full + n - 29);
	else
		snprintf(buf, len, "%s", full);
}

/* The points of one series in one direction, sorted by x, as a
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
		    !strcmp(p->dir, dir) && same_series(p, s))
			v[n++] = p;
	}
	qsort(v, n, sizeof *v, cmp_x);
	if (n) {
		fprintf(pl->gp, "$b%d << EOD\n", name);
		for (size_t i = 0; i < n; i++)
			fprintf(pl->gp, "%llu %.6g\n",
			        (unsigned long long)x_of(v[i]), v[i]->bps / 1e9);
		fprintf(pl->gp, "EOD\n");
	}
	free(v);
	return n;
}

/* Distinct series and directions of (alg, bits); returns the series,
 * those over request sizes first; *nsec: how many are sector series. */
static size_t speed_series(const struct rpt *r, const char *alg,
                           unsigned bits, const struct rpt_pt **ser,
                           const char **dirs, int *ndirs, size_t *nsec)
{
	static const char *const order[] = { "encrypt", "decrypt", "digest" };
	size_t ns = 0, np = 0;
	int have[3] = { 0, 0, 0 };

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < r->npts; i++) {
			const struct rpt_pt *p = &r->pts[i];
			size_t k;

			if (isnan(p->bps) || strcmp(p->tool, "speed") ||
			    strcmp(p->alg, alg) || p->key_bits != bits ||
			    !p->sector != !pass)
				continue;
			for (k = 0; k < ns && !same_series(ser[k], p); k++)
				;
			if (k == ns)
				ser[ns++] = p;
			for (int d = 0; d < 3; d++)
				if (!strcmp(p->dir, order[d]))
					have[d] = 1;
		}
	for (size_t k = 0; k < ns; k++)
		np += !ser[k]->sector;
	*nsec = ns - np;
	*ndirs = 0;
	for (int d = 0; d < 3; d++)
		if (have[d])
			dirs[(*ndirs)++] = order[d];
	return ns;
}

/* One panel: direction dir, the series [from, to) of ser (all over
 * request sizes, or all over sector sizes). */
static void speed_panel(struct plots *pl, const struct rpt *r,
                        const struct rpt_pt *const *ser, size_t ns,
                        const struct style *st, const char *has, int d,
                        const char *dir, size_t from, size_t to)
{
	const char *sep = "plot";
	char label[512];
	size_t any = 0;

	for (size_t s = from; s < to; s++)
		any += has[(size_t)d * ns + s];
	if (!any) {                    /* nothing in this direction: a gap */
		fprintf(pl->gp, "set multiplot next\n");
		return;
	}
	fprintf(pl->gp, "set title ");
	if (ser[from]->sector) {
		char t[200];

		snprintf(t, sizeof t, "%s: %llu-byte requests as disk sectors",
		         dir, (unsigned long long)ser[from]->block);
		gq(pl->gp, t);
		fprintf(pl->gp, "\nset xlabel 'sector size (bytes)'\n");
	} else {
		gq(pl->gp, dir);
		fprintf(pl->gp, "\nset xlabel 'request size (bytes)'\n");
	}
	for (size_t s = from; s < to; s++) {
		if (!has[(size_t)d * ns + s])
			continue;
		series_label(r, ser, ns, s, label, sizeof label);
		fprintf(pl->gp, "%s $b%d using 1:2 with linespoints lw 2 "
		        "pt %d ps 0.8 dt %d lc rgb '%s' title ", sep,
		        pl->n * 1000 + d * 300 + (int)s, st[s].pt,
		        1 + (int)(ser[s]->src % 4), st[s].color);
		gq(pl->gp, label);
		sep = ",";
	}
	fputc('\n', pl->gp);
}

int report_plots_speed(struct plots *pl, const struct rpt *r, const char *alg,
                unsigned bits)
{
	const struct rpt_pt **ser = cb_xcalloc(r->npts + 1, sizeof *ser);
	const char *dirs[3];
	char title[256];
	int ndirs;
	char *has;
	size_t nsec, ns = speed_series(r, alg, bits, ser, dirs, &ndirs, &nsec);
	size_t np = ns - nsec, most = np > nsec ? np : nsec;
	struct style *st;

	if (!ns || !ndirs) {
		free(ser);
		return -1;
	}
	st = cb_xcalloc(ns, sizeof *st);
	series_styles(ser, ns, st);
	chart_start(pl, ndirs > 1 ? 1100 : 620,
	            (np && nsec ? 2 : 1) * (330 + 17 * (int)most) + 30);
	fprintf(pl->gp, "set logscale x 2\nset format x '%%.0f'\n"
	        "set ylabel 'GB/s (10^9 bytes/s)'\n"
	        "set yrange [0:*]\nset grid\n"
	        "set key below Left reverse maxcols 1 samplen 3\n"
	        "set offsets graph 0.03, graph 0.03, graph 0.05, 0\n");
	snprintf(title, sizeof title, bits ? "%s, %u-bit key" : "%s", alg, bits);
	fprintf(pl->gp, "set multiplot layout %d,%d title ", np && nsec ? 2 : 1,
	        ndirs);
	gq(pl->gp, title);
	fputc('\n', pl->gp);
	has = cb_xcalloc(ns * 3 + 1, 1);
	for (int d = 0; d < ndirs; d++)       /* datablocks before any plot */
		for (size_t s = 0; s < ns; s++)
			has[(size_t)d * ns + s] = series_block(
			        pl, r, ser[s], dirs[d], alg, bits,
			        pl->n * 1000 + d * 300 + (int)s) > 0;
	for (int row = 0; row < 2; row++)
		for (int d = 0; d < ndirs; d++)
			if (row ? nsec : np)
				speed_panel(pl, r, ser, ns, st, has, d, dirs[d],
				            row ? np : 0, row ? ns : np);
	free(has);
	free(st);
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
