/*
 * compare.c - `cryptobench compare`: a regression table between two result
 * CSV files, and `compare --dump`, the normalised view of result files that
 * scripts/plot draws from.  Rows are read by column name (csv.c), checked
 * against the cryptobench-csv-1 schema, filtered (--host, --where), and
 * folded into points: one point per matching key (tool, alg, key size,
 * block size, direction, backend, driver, IV mode, sector size, threads,
 * auth - plus the --by column, host by default when a file holds several
 * hosts), the median of its repeated runs.  Points of BASE and NEW with
 * equal keys are compared: slower by more than the threshold and by more
 * than the two points' combined run-to-run spread is a REGRESSION (exit
 * 1).  docs/compare.md is the user-facing description.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cb.h"
#include "cmd.h"
#include "csv.h"
#include "result.h"
#include "util.h"

/* Schema versions this reader understands. */
static const char *const known_schemas[] = { CB_CSV_SCHEMA, NULL };

#define NUM  (CB_CSV_NUMBER | CB_CSV_EMPTY_OK)
#define REQ  CB_CSV_REQUIRED
/* The columns of cryptobench-csv-1 that compare reads or checks. */
static const struct cb_csv_col schema_cols[] = {
	{ "schema",          REQ | CB_CSV_NONEMPTY },
	{ "tool_version",    REQ },
	{ "host",            REQ },
	{ "cpu_model",       REQ },
	{ "kernel",          REQ },
	{ "backend",         REQ | CB_CSV_NONEMPTY },
	{ "backend_version", REQ },
	{ "driver",          REQ },
	{ "alg",             REQ | CB_CSV_NONEMPTY },
	{ "key_bits",        REQ | CB_CSV_UINT },
	{ "block_bytes",     REQ | CB_CSV_UINT },
	{ "direction",       REQ | CB_CSV_NONEMPTY },
	{ "ops_per_sec",     REQ | NUM | CB_CSV_NONNEG },
	{ "bytes_per_sec",   REQ | NUM | CB_CSV_NONNEG },
	{ "ns_per_byte",     REQ | NUM },
	{ "cycles_per_byte", REQ | NUM },
	{ "ghz",             REQ | NUM },
	{ "reps",            REQ | CB_CSV_UINT | CB_CSV_EMPTY_OK },
	{ "rel_spread",      REQ | NUM | CB_CSV_NONNEG },
	{ "timestamp",       REQ },
	{ "sector_bytes",    CB_CSV_UINT | CB_CSV_EMPTY_OK },
	{ "threads",         CB_CSV_UINT | CB_CSV_EMPTY_OK },
	{ "overhead_ns",     NUM },
	{ NULL, 0 },
};
#undef NUM
#undef REQ

/*
 * Key columns that may be absent (older or narrower files) and the value
 * an absent or empty one stands for.
 */
struct keydef {
	const char *col;
	const char *dflt;
	const char *label;       /* table heading                               */
};
static const struct keydef kd_tool   = { "tool", "speed", "tool" };
static const struct keydef kd_iv     = { "iv_mode", "per-request", "iv" };
static const struct keydef kd_sector = { "sector_bytes", "0", "sector" };
static const struct keydef kd_thr    = { "threads", "1", "thr" };
static const struct keydef kd_auth   = { "auth", "", "auth" };

/* One point: a key and the runs measured for it in one file (or set). */
struct point {
	const char *group;       /* value of the --by column, "" for none       */
	const char *tool, *alg, *direction, *backend, *driver, *iv_mode, *auth;
	uint64_t key_bits, block_bytes, sector_bytes, threads;
	const char *host, *cpu_model, *backend_version;  /* of the first run    */
	const char *status;      /* "ok" if any run was measured                */
	const char *why;         /* of the first unmeasured run, or ""          */
	double *bps, *spread;    /* measured runs: bytes/s and rel_spread        */
	size_t n, cap;
	double median;           /* bytes/s, median of the runs                  */
	double rel_spread;       /* see point_finish()                          */
	size_t first;            /* order of the first run in the input          */
	struct point *match;     /* the other file's point, or NULL              */
};

struct filter {
	unsigned sides;          /* 1 BASE, 2 NEW (3 both); dump counts as 1     */
	char *col;
	char op;                 /* '=' exact, '~' case-insensitive substring   */
	const char *val;
};

struct side {
	const char *label;       /* "BASE", "NEW"                               */
	struct cb_csv *csv;      /* one per file                                 */
	const char *const *paths;
	size_t nfiles;
	struct point *pts;
	size_t npts;
	const char **hosts;      /* distinct hosts of the selected rows          */
	size_t nhosts;
	size_t nrows;            /* rows selected                                */
};

static const char *status_of(const char *s)
{
	if (!s || !*s || !strcasecmp(s, "ok"))
		return "ok";
	return s;
}

static int is_fail(const char *status)
{
	return !strncasecmp(status, "fail", 4) || !strcasecmp(status, "error");
}

static const char *keyval(const struct cb_csv *csv, const struct cb_csv_rec *row,
                          const struct keydef *kd)
{
	const char *v = cb_csv_get(csv, row, kd->col);

	return v && *v ? v : kd->dflt;
}

static uint64_t keynum(const struct cb_csv *csv, const struct cb_csv_rec *row,
                       const struct keydef *kd)
{
	uint64_t v = 0;

	cb_parse_u64(keyval(csv, row, kd), &v);   /* checked by the schema */
	return v;
}

static double numval(const char *s)
{
	double v;

	if (!s || cb_csv_number(s, &v) < 0)
		return NAN;
	return v;
}

/* --ignore: key columns left out of the match (e.g. backend,driver to set
 * a host beside a reference report measured through other software). */
static const char *const ignorable[] = {
	"backend", "driver", "iv_mode", "auth", NULL,
};
static unsigned ignored;   /* bit i set: ignorable[i] is not matched on */

static int parse_ignore(const char *arg)
{
	char *copy = cb_xstrdup(arg), *save = NULL;
	int rc = 0;

	for (char *t = strtok_r(copy, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		int i;

		for (i = 0; ignorable[i] && strcmp(ignorable[i], t); i++)
			;
		if (!ignorable[i]) {
			cb_err("compare: --ignore: '%s' is not one of backend, "
			       "driver, iv_mode, auth", t);
			rc = -EINVAL;
			break;
		}
		ignored |= 1u << i;
	}
	free(copy);
	return rc;
}

static int key_cmp(const struct point *a, const struct point *b)
{
	int c;

	if ((c = strcmp(a->group, b->group)) || (c = strcmp(a->tool, b->tool)) ||
	    (c = strcmp(a->alg, b->alg)))
		return c;
	if (a->key_bits != b->key_bits)
		return a->key_bits < b->key_bits ? -1 : 1;
	if (a->block_bytes != b->block_bytes)
		return a->block_bytes < b->block_bytes ? -1 : 1;
	if ((c = strcmp(a->direction, b->direction)) ||
	    (c = strcmp(a->backend, b->backend)) ||
	    (c = strcmp(a->driver, b->driver)) ||
	    (c = strcmp(a->iv_mode, b->iv_mode)) ||
	    (c = strcmp(a->auth, b->auth)))
		return c;
	if (a->sector_bytes != b->sector_bytes)
		return a->sector_bytes < b->sector_bytes ? -1 : 1;
	if (a->threads != b->threads)
		return a->threads < b->threads ? -1 : 1;
	return 0;
}

static int qcmp_key_first(const void *pa, const void *pb)
{
	const struct point *a = pa, *b = pb;
	int c = key_cmp(a, b);

	if (c)
		return c;
	return a->first < b->first ? -1 : a->first > b->first;
}

static int qcmp_first(const void *pa, const void *pb)
{
	const struct point *a = pa, *b = pb;

	return a->first < b->first ? -1 : a->first > b->first;
}

static int qcmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

static int qcmp_pptr(const void *pa, const void *pb)
{
	return key_cmp(*(struct point *const *)pa, *(struct point *const *)pb);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, qcmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Median over the runs; the spread of the point is the larger of the
 * median of the runs' own rel_spread and the spread between the runs,
 * (max - min) / median.
 */
static void point_finish(struct point *p)
{
	double lo, hi, within;

	if (!p->n)
		return;
	p->median = median(p->bps, p->n);
	lo = p->bps[0];
	hi = p->bps[p->n - 1];
	within = median(p->spread, p->n);
	p->rel_spread = within;
	if (p->n > 1 && p->median > 0 && (hi - lo) / p->median > within)
		p->rel_spread = (hi - lo) / p->median;
}

static void point_add_run(struct point *p, double bps, double spread)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 4;
		p->bps = cb_xrealloc(p->bps, p->cap * sizeof *p->bps);
		p->spread = cb_xrealloc(p->spread, p->cap * sizeof *p->spread);
	}
	p->bps[p->n] = bps;
	p->spread[p->n] = spread;
	p->n++;
}

static void side_clear_points(struct side *s);

static void side_free(struct side *s)
{
	side_clear_points(s);
	if (s->csv)
		for (size_t i = 0; i < s->nfiles; i++)
			cb_csv_free(&s->csv[i]);
	free(s->csv);
}

static int row_selected(const struct cb_csv *csv, const struct cb_csv_rec *row,
                        const struct filter *f, size_t nf, unsigned side)
{
	for (size_t i = 0; i < nf; i++) {
		const char *v;

		if (!(f[i].sides & side))
			continue;
		v = cb_csv_get(csv, row, f[i].col);
		if (!v)
			v = "";
		if (f[i].op == '=' ? strcmp(v, f[i].val) != 0
		                   : strcasestr(v, f[i].val) == NULL)
			return 0;
	}
	return 1;
}

static void add_host(struct side *s, const char *h)
{
	for (size_t i = 0; i < s->nhosts; i++)
		if (!strcmp(s->hosts[i], h))
			return;
	s->hosts = cb_xrealloc(s->hosts, (s->nhosts + 1) * sizeof *s->hosts);
	s->hosts[s->nhosts++] = h;
}

/* "a, b, c" of the distinct values of col in the files, for messages. */
static void list_values(const struct side *s, const char *col, char *out,
                        size_t len)
{
	const char *seen[8];
	size_t nseen = 0, used = 0;
	int more = 0;

	out[0] = 0;
	for (size_t f = 0; f < s->nfiles; f++) {
		const struct cb_csv *csv = &s->csv[f];

		for (size_t r = 0; r < csv->nrows; r++) {
			const char *v = cb_csv_get(csv, &csv->rows[r], col);
			size_t i;

			if (!v)
				continue;
			for (i = 0; i < nseen; i++)
				if (!strcmp(seen[i], v))
					break;
			if (i < nseen)
				continue;
			if (nseen == 8) {
				more = 1;
				continue;
			}
			seen[nseen++] = v;
			used += (size_t)snprintf(out + used, used < len ? len - used : 0,
			                         "%s'%s'", nseen > 1 ? ", " : "", v);
			if (used >= len)
				used = len;
		}
	}
	if (more && used < len)
		snprintf(out + used, len - used, ", ...");
	if (!nseen)
		snprintf(out, len, "none");
}

/*
 * Read the files of one side and check them against the schema (and the
 * selection's columns).  Prints its own messages; returns 0 or a negative
 * errno.
 */
static int side_load(struct side *s, const struct filter *flt, size_t nflt,
                     unsigned sidebit)
{
	s->csv = cb_xcalloc(s->nfiles, sizeof *s->csv);
	for (size_t f = 0; f < s->nfiles; f++) {
		struct cb_csv *csv = &s->csv[f];
		int rc = cb_csv_read(csv, s->paths[f]);

		if (rc < 0 || (rc = cb_csv_check(csv, schema_cols)) < 0) {
			cb_err("%s", csv->err);
			return rc;
		}
		for (size_t r = 0; r < csv->nrows; r++) {
			const struct cb_csv_rec *row = &csv->rows[r];
			const char *schema = cb_csv_get(csv, row, "schema");
			size_t k;

			for (k = 0; known_schemas[k]; k++)
				if (!strcmp(schema, known_schemas[k]))
					break;
			if (!known_schemas[k]) {
				cb_err("%s:%lu: unknown schema '%s': this "
				       "cryptobench %s reads %s", csv->name,
				       row->line, schema, CB_VERSION,
				       CB_CSV_SCHEMA);
				return -EINVAL;
			}
		}
		for (size_t i = 0; i < nflt; i++) {
			if (!(flt[i].sides & sidebit) || cb_csv_has(csv, flt[i].col))
				continue;
			cb_err("%s: no column '%s' to select on", csv->name,
			       flt[i].col);
			return -EINVAL;
		}
	}
	return 0;
}

static void side_clear_points(struct side *s)
{
	for (size_t i = 0; i < s->npts; i++) {
		free(s->pts[i].bps);
		free(s->pts[i].spread);
	}
	free(s->pts);
	free(s->hosts);
	s->pts = NULL;
	s->hosts = NULL;
	s->npts = s->nhosts = s->nrows = 0;
}

/*
 * Select rows and fold them into points (again, if called twice); bycol is
 * the grouping column or NULL.  Prints its own messages; 0 or -errno.
 */
static int side_points(struct side *s, const struct filter *flt, size_t nflt,
                       unsigned sidebit, const char *bycol)
{
	struct point *all = NULL;
	size_t nall = 0, order = 0, out;

	side_clear_points(s);

	for (size_t f = 0; f < s->nfiles; f++) {
		const struct cb_csv *csv = &s->csv[f];

		if (bycol && !cb_csv_has(csv, bycol)) {
			cb_err("%s: no column '%s' to match by", csv->name, bycol);
			free(all);
			return -EINVAL;
		}
		all = cb_xrealloc(all, (nall + csv->nrows) * sizeof *all);
		for (size_t r = 0; r < csv->nrows; r++) {
			const struct cb_csv_rec *row = &csv->rows[r];
			struct point *p = &all[nall];
			const struct cb_alg *a;
			unsigned mult;
			const char *g;

			order++;
			if (!row_selected(csv, row, flt, nflt, sidebit))
				continue;
			memset(p, 0, sizeof *p);
			g = bycol ? cb_csv_get(csv, row, bycol) : "";
			p->group = g ? g : "";
			p->tool = keyval(csv, row, &kd_tool);
			p->alg = cb_csv_get(csv, row, "alg");
			a = cb_alg_find(p->alg, &mult);
			if (a && mult == 1)
				p->alg = a->name;    /* aliases -> canonical */
			p->direction = cb_csv_get(csv, row, "direction");
			p->backend = cb_csv_get(csv, row, "backend");
			p->driver = cb_csv_get(csv, row, "driver");
			p->iv_mode = keyval(csv, row, &kd_iv);
			p->auth = keyval(csv, row, &kd_auth);
			if (ignored & 1)
				p->backend = "*";
			if (ignored & 2)
				p->driver = "*";
			if (ignored & 4)
				p->iv_mode = "*";
			if (ignored & 8)
				p->auth = "*";
			cb_parse_u64(cb_csv_get(csv, row, "key_bits"), &p->key_bits);
			cb_parse_u64(cb_csv_get(csv, row, "block_bytes"),
			             &p->block_bytes);
			p->sector_bytes = keynum(csv, row, &kd_sector);
			p->threads = keynum(csv, row, &kd_thr);
			p->host = cb_csv_get(csv, row, "host");
			p->cpu_model = cb_csv_get(csv, row, "cpu_model");
			p->backend_version = cb_csv_get(csv, row, "backend_version");
			p->status = status_of(cb_csv_get(csv, row, "status"));
			p->why = cb_csv_get(csv, row, "error");
			if (!p->why)
				p->why = "";
			p->first = order;
			if (!strcmp(p->status, "ok")) {
				double bps = numval(cb_csv_get(csv, row,
				                               "bytes_per_sec"));
				double sp = numval(cb_csv_get(csv, row,
				                              "rel_spread"));

				if (isnan(bps)) {
					cb_err("%s:%lu: column 'bytes_per_sec' is "
					       "empty in a measured row", csv->name,
					       row->line);
					free(all);
					return -EINVAL;
				}
				/* Use the run's slot to carry its numbers. */
				p->median = bps;
				p->rel_spread = isnan(sp) ? 0 : sp;
				p->n = 1;
			}
			add_host(s, p->host);
			s->nrows++;
			nall++;
		}
	}
	/* Fold runs with equal keys into one point, in input order. */
	qsort(all, nall, sizeof *all, qcmp_key_first);
	s->pts = cb_xcalloc(nall, sizeof *s->pts);
	out = 0;
	for (size_t i = 0; i < nall; i++) {
		struct point *p;

		if (!out || key_cmp(&s->pts[out - 1], &all[i])) {
			p = &s->pts[out++];
			*p = all[i];
			p->n = p->cap = 0;
			p->bps = p->spread = NULL;
		} else {
			p = &s->pts[out - 1];
		}
		if (all[i].n)
			point_add_run(p, all[i].median, all[i].rel_spread);
		else if (!*p->why && *all[i].why)
			p->why = all[i].why;
	}
	s->npts = out;
	for (size_t i = 0; i < out; i++) {
		struct point *p = &s->pts[i];

		if (p->n)
			p->status = "ok";
		point_finish(p);
	}
	qsort(s->pts, s->npts, sizeof *s->pts, qcmp_first);
	free(all);
	return 0;
}

/* Pair up equal keys of the two sides (merge of two sorted views). */
static void match_points(struct side *b, struct side *n)
{
	struct point **vb = cb_xcalloc(b->npts, sizeof *vb);
	struct point **vn = cb_xcalloc(n->npts, sizeof *vn);
	size_t i = 0, j = 0;

	for (size_t k = 0; k < b->npts; k++)
		vb[k] = &b->pts[k];
	for (size_t k = 0; k < n->npts; k++)
		vn[k] = &n->pts[k];
	qsort(vb, b->npts, sizeof *vb, qcmp_pptr);
	qsort(vn, n->npts, sizeof *vn, qcmp_pptr);
	while (i < b->npts && j < n->npts) {
		int c = key_cmp(vb[i], vn[j]);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			vb[i]->match = vn[j];
			vn[j]->match = vb[i];
			i++, j++;
		}
	}
	free(vb);
	free(vn);
}

/* ---- verdicts ---------------------------------------------------------- */

enum verdict { V_SAME, V_IMPROVED, V_NOISE, V_REGRESSION, V_FAILED,
               V_SKIPPED, V_RECOVERED, V_UNMEASURED, V_NVERDICTS };

static const char *const verdict_table[V_NVERDICTS] = {
	[V_SAME] = "same", [V_IMPROVED] = "improved", [V_NOISE] = "noise",
	[V_REGRESSION] = "REGRESSION", [V_FAILED] = "FAILED",
	[V_SKIPPED] = "skipped", [V_RECOVERED] = "recovered",
	[V_UNMEASURED] = "unmeasured",
};
static const char *const verdict_csv[V_NVERDICTS] = {
	[V_SAME] = "same", [V_IMPROVED] = "improved", [V_NOISE] = "noise",
	[V_REGRESSION] = "regression", [V_FAILED] = "failed",
	[V_SKIPPED] = "skipped", [V_RECOVERED] = "recovered",
	[V_UNMEASURED] = "unmeasured",
};

struct cmp {
	const struct point *b, *n;
	enum verdict v;
	double ratio, change, noise;   /* change and noise in percent */
};

static struct cmp judge(const struct point *b, const struct point *n,
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

/* ---- output ------------------------------------------------------------ */

/* Tab-separated values: tabs and line breaks inside become spaces. */
static void print_tsv_field(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static const char *fmt_mbs(char *buf, size_t len, const struct point *p)
{
	double mb;

	if (!p || strcmp(p->status, "ok")) {
		snprintf(buf, len, "%s", p ? p->status : "-");
		return buf;
	}
	mb = p->median / 1e6;
	snprintf(buf, len, mb >= 1 || mb == 0 ? "%.1f" : "%.3g", mb);
	return buf;
}

/* Which optional key columns differ from their defaults somewhere. */
struct extras {
	int tool, iv, sector, threads, auth, note;
};

static void scan_extras(const struct side *s, struct extras *e)
{
	for (size_t i = 0; i < s->npts; i++) {
		const struct point *p = &s->pts[i];

		e->tool |= strcmp(p->tool, kd_tool.dflt) != 0;
		e->iv |= strcmp(p->iv_mode, kd_iv.dflt) != 0;
		e->sector |= p->sector_bytes != 0;
		e->threads |= p->threads != 1;
		e->auth |= *p->auth != 0;
		e->note |= p->match && (strcmp(p->backend_version,
		                               p->match->backend_version) != 0 ||
		                        (strcmp(p->status, "ok") && *p->why));
	}
}

/* Column widths of the table; computed over every row printed. */
struct widths {
	int group, alg, backend, driver, tool, iv, auth, block, sector;
};

static int imax(int a, int b)
{
	return a > b ? a : b;
}

static void widen(struct widths *w, const struct point *p)
{
	w->group = imax(w->group, (int)strlen(p->group));
	w->alg = imax(w->alg, (int)strlen(p->alg));
	w->backend = imax(w->backend, (int)strlen(p->backend));
	w->driver = imax(w->driver, (int)strlen(p->driver));
	w->tool = imax(w->tool, (int)strlen(p->tool));
	w->iv = imax(w->iv, (int)strlen(p->iv_mode));
	w->auth = imax(w->auth, (int)strlen(p->auth));
	w->block = imax(w->block, snprintf(NULL, 0, "%llu",
	                                   (unsigned long long)p->block_bytes));
	w->sector = imax(w->sector, snprintf(NULL, 0, "%llu",
	                                     (unsigned long long)p->sector_bytes));
}

static void print_key(FILE *f, const struct point *p, const struct widths *w,
                      const struct extras *e, int bygroup)
{
	if (bygroup)
		fprintf(f, "%-*s  ", w->group, p->group);
	if (e->tool)
		fprintf(f, "%-*s  ", w->tool, p->tool);
	fprintf(f, "%-*s  %5llu  %*llu  %-7s  %-*s  %-*s", w->alg, p->alg,
	        (unsigned long long)p->key_bits, w->block,
	        (unsigned long long)p->block_bytes, p->direction,
	        w->backend, p->backend, w->driver, p->driver);
	if (e->iv)
		fprintf(f, "  %-*s", w->iv, p->iv_mode);
	if (e->sector)
		fprintf(f, "  %*llu", w->sector,
		        (unsigned long long)p->sector_bytes);
	if (e->threads)
		fprintf(f, "  %3llu", (unsigned long long)p->threads);
	if (e->auth)
		fprintf(f, "  %-*s", w->auth, p->auth);
}

static void print_key_heading(FILE *f, const struct widths *w,
                              const struct extras *e, const char *bycol)
{
	if (bycol)
		fprintf(f, "%-*s  ", w->group, bycol);
	if (e->tool)
		fprintf(f, "%-*s  ", w->tool, kd_tool.label);
	fprintf(f, "%-*s  %5s  %*s  %-7s  %-*s  %-*s", w->alg, "alg", "bits",
	        w->block, "block", "dir", w->backend, "backend", w->driver,
	        "driver");
	if (e->iv)
		fprintf(f, "  %-*s", w->iv, kd_iv.label);
	if (e->sector)
		fprintf(f, "  %*s", w->sector, kd_sector.label);
	if (e->threads)
		fprintf(f, "  %3s", kd_thr.label);
	if (e->auth)
		fprintf(f, "  %-*s", w->auth, kd_auth.label);
}

static void describe_side(FILE *f, const struct side *s, const char *path)
{
	fprintf(f, "%-4s %s: %zu point%s from %zu row%s, ", s->label, path,
	        s->npts, s->npts == 1 ? "" : "s", s->nrows,
	        s->nrows == 1 ? "" : "s");
	if (s->nhosts == 1)
		fprintf(f, "host %s\n", s->hosts[0]);
	else
		fprintf(f, "%zu hosts\n", s->nhosts);
}

static void print_table(FILE *f, struct side *b, struct side *n,
                        const struct cmp *c, size_t nc, const char *bycol,
                        double threshold)
{
	struct widths w = { 5, 3, 7, 6, 4, 2, 4, 5, 6 };
	struct extras e = { 0 };
	char sb[32], sn[32];
	int bygroup = bycol != NULL;

	if (bycol)
		w.group = (int)strlen(bycol);
	scan_extras(b, &e);
	scan_extras(n, &e);
	for (size_t i = 0; i < b->npts; i++)
		widen(&w, &b->pts[i]);
	for (size_t i = 0; i < n->npts; i++)
		widen(&w, &n->pts[i]);

	describe_side(f, b, b->paths[0]);
	describe_side(f, n, n->paths[0]);
	fprintf(f, "matching by %s; threshold %g%%; a change within the two "
	        "points' combined spread is noise\n\n",
	        bycol ? bycol : "point (hosts ignored)", threshold);
	if (nc) {
		print_key_heading(f, &w, &e, bycol);
		fprintf(f, "  %10s  %10s  %6s  %8s  %7s  %s\n", "base MB/s",
		        "new MB/s", "ratio", "change", "spread",
		        e.note ? "verdict     note" : "verdict");
	}
	for (size_t i = 0; i < nc; i++) {
		const struct cmp *x = &c[i];
		char ratio[16] = "-", change[16] = "-", noise[16] = "-";

		if (!isnan(x->ratio)) {
			snprintf(ratio, sizeof ratio, "%.3f", x->ratio);
			snprintf(change, sizeof change, "%+.1f%%", x->change);
			snprintf(noise, sizeof noise, "%.1f%%", x->noise);
		}
		print_key(f, x->b, &w, &e, bygroup);
		fprintf(f, "  %10s  %10s  %6s  %8s  %7s  %s",
		        fmt_mbs(sb, sizeof sb, x->b), fmt_mbs(sn, sizeof sn, x->n),
		        ratio, change, noise, verdict_table[x->v]);
		if (strcmp(x->b->backend_version, x->n->backend_version))
			fprintf(f, "%*s%s %s -> %s",
			        12 - (int)strlen(verdict_table[x->v]), "",
			        x->b->backend, x->b->backend_version,
			        x->n->backend_version);
		else if ((x->v == V_FAILED || x->v == V_SKIPPED) && *x->n->why)
			fprintf(f, "%*s%s", 12 - (int)strlen(verdict_table[x->v]),
			        "", x->n->why);
		else if (x->v == V_RECOVERED && *x->b->why)
			fprintf(f, "%*swas: %s",
			        12 - (int)strlen(verdict_table[x->v]), "",
			        x->b->why);
		fputc('\n', f);
	}
	for (int side = 0; side < 2; side++) {
		struct side *s = side ? n : b;
		size_t cnt = 0;

		for (size_t i = 0; i < s->npts; i++)
			cnt += !s->pts[i].match;
		if (!cnt)
			continue;
		fprintf(f, "\nonly in %s (%zu):\n", s->label, cnt);
		for (size_t i = 0; i < s->npts; i++) {
			if (s->pts[i].match)
				continue;
			fputs("  ", f);
			print_key(f, &s->pts[i], &w, &e, bygroup);
			fprintf(f, "  %10s\n",
			        fmt_mbs(sb, sizeof sb, &s->pts[i]));
		}
	}
}

static void csv_key(FILE *f, const struct point *p)
{
	cb_csv_write_field(f, p->group);
	fputc(',', f);
	cb_csv_write_field(f, p->tool);
	fputc(',', f);
	cb_csv_write_field(f, p->backend);
	fputc(',', f);
	cb_csv_write_field(f, p->driver);
	fputc(',', f);
	cb_csv_write_field(f, p->alg);
	fprintf(f, ",%llu,%llu,", (unsigned long long)p->key_bits,
	        (unsigned long long)p->block_bytes);
	cb_csv_write_field(f, p->direction);
	fputc(',', f);
	cb_csv_write_field(f, p->iv_mode);
	fprintf(f, ",%llu,%llu,", (unsigned long long)p->sector_bytes,
	        (unsigned long long)p->threads);
	cb_csv_write_field(f, p->auth);
}

static void csv_side(FILE *f, const struct point *p)
{
	if (p && !strcmp(p->status, "ok"))
		fprintf(f, ",%.0f,%.5g,%zu,", p->median, p->rel_spread, p->n);
	else
		fputs(",,,0,", f);
	cb_csv_write_field(f, p ? p->backend_version : "");
}

static void print_csv(FILE *f, struct side *b, struct side *n,
                      const struct cmp *c, size_t nc, const char *bycol)
{
	cb_csv_write_field(f, bycol ? bycol : "group");
	fputs(",tool,backend,driver,alg,key_bits,block_bytes,direction,"
	      "iv_mode,sector_bytes,threads,auth,base_bytes_per_sec,"
	      "base_rel_spread,base_runs,base_backend_version,"
	      "new_bytes_per_sec,new_rel_spread,new_runs,new_backend_version,"
	      "ratio,change_pct,verdict\n", f);
	for (size_t i = 0; i < nc; i++) {
		csv_key(f, c[i].b);
		csv_side(f, c[i].b);
		csv_side(f, c[i].n);
		if (isnan(c[i].ratio))
			fputs(",,", f);
		else
			fprintf(f, ",%.4f,%.2f", c[i].ratio, c[i].change);
		fprintf(f, ",%s\n", verdict_csv[c[i].v]);
	}
	for (int side = 0; side < 2; side++) {
		struct side *s = side ? n : b;

		for (size_t i = 0; i < s->npts; i++) {
			if (s->pts[i].match)
				continue;
			csv_key(f, &s->pts[i]);
			csv_side(f, side ? NULL : &s->pts[i]);
			csv_side(f, side ? &s->pts[i] : NULL);
			fprintf(f, ",,,%s\n", side ? "only-new" : "only-base");
		}
	}
}

/* ---- the command ------------------------------------------------------- */

static const char usage_text[] =
	"usage: cryptobench compare BASE NEW [--threshold PCT] [--format table|csv]\n"
	"         [--host H] [--base-host H] [--new-host H]\n"
	"         [--where COL=VAL|COL~TEXT] [--base-where ..] [--new-where ..]\n"
	"         [--by host|cpu_model|COL|none] [--ignore backend,driver,..]\n"
	"       cryptobench compare --dump [--where ..] [--host H] FILE...\n"
	"BASE and NEW are cryptobench CSV files ('-' is standard input).\n"
	"Points are matched by tool, alg, key bits, block size, direction,\n"
	"backend, driver, IV mode, sector size, threads and auth.  A point that\n"
	"is more than PCT %% slower (default 5) and slower by more than the two\n"
	"points' combined rel_spread is a REGRESSION: exit 1.  Files holding\n"
	"several hosts are matched host by host unless --by says otherwise;\n"
	"--host/--where select rows.  --dump prints the points of the files as\n"
	"tab-separated values (median of repeated runs) for scripts/plot.\n"
	"See docs/compare.md.\n";

enum { O_THRESHOLD = 1, O_FORMAT, O_HOST, O_BHOST, O_NHOST, O_WHERE, O_BWHERE,
       O_NWHERE, O_BY, O_DUMP, O_HELP, O_IGNORE };

static const struct cb_opt compare_opts[] = {
	{ "--base-host", 1, O_BHOST },
	{ "--base-where", 1, O_BWHERE },
	{ "--by", 1, O_BY },
	{ "--dump", 0, O_DUMP },
	{ "--format", 1, O_FORMAT },
	{ "--help", 0, O_HELP },
	{ "--ignore", 1, O_IGNORE },
	{ "--host", 1, O_HOST },
	{ "--new-host", 1, O_NHOST },
	{ "--new-where", 1, O_NWHERE },
	{ "--threshold", 1, O_THRESHOLD },
	{ "--where", 1, O_WHERE },
	{ "-h", 0, O_HELP },
	{ NULL, 0, 0 },
};

static int add_filter(struct filter **f, size_t *n, unsigned sides,
                      const char *col, size_t collen, char op,
                      const char *val)
{
	*f = cb_xrealloc(*f, (*n + 1) * sizeof **f);
	(*f)[*n] = (struct filter){ .sides = sides, .op = op, .val = val };
	(*f)[*n].col = cb_xmalloc(collen + 1);
	memcpy((*f)[*n].col, col, collen);
	(*f)[*n].col[collen] = 0;
	(*n)++;
	return 0;
}

/* COL=VALUE or COL~TEXT */
static int parse_where(struct filter **f, size_t *n, unsigned sides,
                       const char *arg)
{
	const char *op = strpbrk(arg, "=~");

	if (!op || op == arg) {
		cb_err("compare: bad selection '%s' (want COL=VALUE or COL~TEXT)",
		       arg);
		return -EINVAL;
	}
	return add_filter(f, n, sides, arg, (size_t)(op - arg), *op, op + 1);
}

static int parse_threshold(const char *arg, double *v)
{
	char buf[64];
	size_t len = strlen(arg);

	if (len == 0 || len >= sizeof buf)
		return -EINVAL;
	memcpy(buf, arg, len + 1);
	if (buf[len - 1] == '%')
		buf[len - 1] = 0;
	if (cb_csv_number(buf, v) < 0 || *v < 0 || *v >= 100)
		return -EINVAL;
	return 0;
}

static int side_empty(const struct side *s, const struct filter *flt,
                      size_t nflt, unsigned sidebit)
{
	char hosts[512];
	int filtered = 0;

	if (s->nrows)
		return 0;
	for (size_t i = 0; i < nflt; i++)
		filtered |= (flt[i].sides & sidebit) != 0;
	if (!filtered)
		return 0;            /* a header-only file: nothing to compare */
	list_values(s, "host", hosts, sizeof hosts);
	cb_err("%s: no row matches the selection (hosts in the file: %s)",
	       s->paths[0], hosts);
	return -EINVAL;
}

static int do_dump(const char *const *paths, size_t npaths,
                   const struct filter *flt, size_t nflt)
{
	struct side s = { .label = "FILE", .paths = paths, .nfiles = npaths };
	int rc = side_load(&s, flt, nflt, 1);

	if (rc == 0)
		rc = side_points(&s, flt, nflt, 1, "host");
	if (rc == 0)
		rc = side_empty(&s, flt, nflt, 1);
	if (rc < 0) {
		side_free(&s);
		return CB_EXIT_USAGE;
	}
	fputs("host\tcpu_model\ttool\tbackend\tbackend_version\tdriver\talg\t"
	      "key_bits\tblock_bytes\tdirection\tiv_mode\tsector_bytes\t"
	      "threads\tauth\tmb_per_sec\trel_spread\truns\n", stdout);
	for (size_t i = 0; i < s.npts; i++) {
		const struct point *p = &s.pts[i];
		const char *str[] = { p->host, p->cpu_model, p->tool, p->backend,
		                      p->backend_version, p->driver, p->alg };

		if (strcmp(p->status, "ok"))
			continue;
		for (size_t k = 0; k < sizeof str / sizeof str[0]; k++) {
			print_tsv_field(stdout, *str[k] ? str[k] : "-");
			fputc('\t', stdout);
		}
		fprintf(stdout, "%llu\t%llu\t", (unsigned long long)p->key_bits,
		        (unsigned long long)p->block_bytes);
		print_tsv_field(stdout, p->direction);
		fputc('\t', stdout);
		print_tsv_field(stdout, p->iv_mode);
		fprintf(stdout, "\t%llu\t%llu\t", (unsigned long long)p->sector_bytes,
		        (unsigned long long)p->threads);
		print_tsv_field(stdout, *p->auth ? p->auth : "-");
		fprintf(stdout, "\t%.6g\t%.4g\t%zu\n", p->median / 1e6,
		        p->rel_spread, p->n);
	}
	side_free(&s);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cb_err("compare: write error on standard output");
		return CB_EXIT_USAGE;
	}
	return CB_EXIT_OK;
}

int cmd_compare(int argc, char **argv)
{
	struct filter *flt = NULL;
	size_t nflt = 0, nc = 0, counts[V_NVERDICTS] = { 0 };
	size_t only[2] = { 0, 0 };
	const char **paths = cb_xcalloc((size_t)argc, sizeof *paths);
	size_t npaths = 0;
	const char *arg, *by = "auto", *bycol;
	double threshold = 5.0;
	int i = 1, id, csv_out = 0, dump = 0, rc = CB_EXIT_USAGE;
	struct side b = { .label = "BASE" }, n = { .label = "NEW" };
	struct cmp *c = NULL;

	while ((id = cb_getopt(argc, argv, &i, compare_opts, &arg)) != -1) {
		switch (id) {
		case -2:
			goto out;
		case 0:
			paths[npaths++] = arg;
			break;
		case O_THRESHOLD:
			if (parse_threshold(arg, &threshold) < 0) {
				cb_err("compare: bad --threshold '%s' (a "
				       "percentage from 0 to 100, e.g. 5)", arg);
				goto out;
			}
			break;
		case O_FORMAT:
			if (!strcmp(arg, "csv")) {
				csv_out = 1;
			} else if (!strcmp(arg, "table")) {
				csv_out = 0;
			} else {
				cb_err("compare: unknown --format '%s' (table or "
				       "csv)", arg);
				goto out;
			}
			break;
		case O_HOST:
		case O_BHOST:
		case O_NHOST:
			add_filter(&flt, &nflt, id == O_HOST ? 3 :
			           id == O_BHOST ? 1 : 2, "host", 4, '=', arg);
			break;
		case O_WHERE:
		case O_BWHERE:
		case O_NWHERE:
			if (parse_where(&flt, &nflt, id == O_WHERE ? 3 :
			                id == O_BWHERE ? 1 : 2, arg) < 0)
				goto out;
			break;
		case O_BY:
			by = !strcmp(arg, "cpu") ? "cpu_model" : arg;
			break;
		case O_IGNORE:
			if (parse_ignore(arg) < 0)
				return CB_EXIT_USAGE;
			break;
		case O_DUMP:
			dump = 1;
			break;
		case O_HELP:
			fputs(usage_text, stdout);
			rc = CB_EXIT_OK;
			goto out;
		}
	}
	if (dump) {
		if (!npaths) {
			cb_err("compare --dump: no file given");
			fputs(usage_text, stderr);
			goto out;
		}
		rc = do_dump(paths, npaths, flt, nflt);
		goto out;
	}
	if (npaths != 2) {
		cb_err("compare: %s (want BASE NEW)", npaths < 2 ?
		       "missing file" : "too many files");
		fputs(usage_text, stderr);
		goto out;
	}
	if (!strcmp(paths[0], "-") && !strcmp(paths[1], "-")) {
		cb_err("compare: BASE and NEW cannot both be standard input");
		goto out;
	}
	b.paths = &paths[0];
	n.paths = &paths[1];
	b.nfiles = n.nfiles = 1;
	if (side_load(&b, flt, nflt, 1) < 0 || side_load(&n, flt, nflt, 2) < 0)
		goto out;
	if (!strcmp(by, "auto")) {
		/* Peek at the hosts the selection leaves on each side. */
		if (side_points(&b, flt, nflt, 1, NULL) < 0 ||
		    side_points(&n, flt, nflt, 2, NULL) < 0)
			goto out;
		bycol = b.nhosts > 1 || n.nhosts > 1 ? "host" : NULL;
		if (bycol && (side_points(&b, flt, nflt, 1, bycol) < 0 ||
		              side_points(&n, flt, nflt, 2, bycol) < 0))
			goto out;
	} else {
		bycol = !strcmp(by, "none") ? NULL : by;
		if (side_points(&b, flt, nflt, 1, bycol) < 0 ||
		    side_points(&n, flt, nflt, 2, bycol) < 0)
			goto out;
	}
	if (side_empty(&b, flt, nflt, 1) < 0 || side_empty(&n, flt, nflt, 2) < 0)
		goto out;

	match_points(&b, &n);
	c = cb_xcalloc(b.npts + 1, sizeof *c);
	for (size_t k = 0; k < b.npts; k++) {
		if (!b.pts[k].match) {
			only[0]++;
			continue;
		}
		c[nc] = judge(&b.pts[k], b.pts[k].match, threshold);
		counts[c[nc].v]++;
		nc++;
	}
	for (size_t k = 0; k < n.npts; k++)
		only[1] += !n.pts[k].match;

	if (csv_out)
		print_csv(stdout, &b, &n, c, nc, bycol);
	else
		print_table(stdout, &b, &n, c, nc, bycol, threshold);
	{
		FILE *sf = csv_out ? stderr : stdout;

		fprintf(sf, "%ssummary: %zu matched: %zu regression%s, %zu "
		        "improved, %zu same, %zu noise",
		        csv_out ? "cryptobench: compare: " : "\n", nc,
		        counts[V_REGRESSION], counts[V_REGRESSION] == 1 ? "" : "s",
		        counts[V_IMPROVED], counts[V_SAME], counts[V_NOISE]);
		if (counts[V_FAILED])
			fprintf(sf, ", %zu FAILED", counts[V_FAILED]);
		if (counts[V_SKIPPED] + counts[V_RECOVERED] + counts[V_UNMEASURED])
			fprintf(sf, ", %zu not measured",
			        counts[V_SKIPPED] + counts[V_RECOVERED] +
			        counts[V_UNMEASURED]);
		fprintf(sf, "; %zu only in BASE, %zu only in NEW "
		        "(threshold %g%%)\n", only[0], only[1], threshold);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cb_err("compare: write error on standard output");
		rc = CB_EXIT_USAGE;
		goto out;
	}
	if (!nc) {
		cb_err("compare: no point of %s matches a point of %s: nothing "
		       "to compare", paths[0], paths[1]);
		rc = CB_EXIT_SKIP;
	} else {
		rc = counts[V_REGRESSION] + counts[V_FAILED] ? CB_EXIT_FAIL
		                                             : CB_EXIT_OK;
	}
out:
	side_free(&b);
	side_free(&n);
	for (size_t k = 0; k < nflt; k++)
		free(flt[k].col);
	free(flt);
	free(c);
	free(paths);
	return rc;
}
