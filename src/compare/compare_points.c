/*
 * compare_points.c - result files into points for `compare` (compare.h).
 * Rows are read by column name (csv.c), checked against the
 * cryptobench-csv-1 schema, filtered (--host, --where), and folded into
 * points: one point per matching key (tool, alg, key size, block size,
 * direction, backend, driver, IV mode, sector size, threads, auth - plus
 * the --by column), the median of its repeated runs.  Points of BASE and
 * NEW with equal keys are then paired.  ct rows (tool "ct": a verdict,
 * not a speed) are never points: their verdicts are checked and kept
 * apart (struct cmp_ct), paired by their own key.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/cb.h"
#include "compare/compare.h"
#include "foundation/csv.h"
#include "output/columns.h"
#include "output/result.h"
#include "foundation/util.h"


const struct cmp_keydef cmp_kd_tool   = { "tool", "speed", "tool" };
const struct cmp_keydef cmp_kd_iv     = { "iv_mode", "per-request", "iv" };
const struct cmp_keydef cmp_kd_sector = { "sector_bytes", "0", "sector" };
const struct cmp_keydef cmp_kd_thr    = { "threads", "1", "thr" };
const struct cmp_keydef cmp_kd_auth   = { "auth", "", "auth" };

/* --ignore: key columns left out of the match (e.g. backend,driver to set
 * a host beside a reference report measured through other software). */
/* --by columns a file may lack (version 1 files), and what they mean then. */
static const struct cmp_keydef by_defaults[] = {
	{ "cpu_level", "max", "cpu_level" },
	{ NULL, NULL, NULL },
};

const char *cmp_by_default(const char *bycol)
{
	for (size_t i = 0; bycol && by_defaults[i].col; i++)
		if (!strcmp(by_defaults[i].col, bycol))
			return by_defaults[i].dflt;
	return NULL;
}

const char *cmp_status_of(const char *s)
{
	if (!s || !*s || !strcasecmp(s, "ok"))
		return "ok";
	return s;
}

static const char *keyval(const struct cb_csv *csv, const struct cb_csv_rec *row,
                          const struct cmp_keydef *kd)
{
	const char *v = cb_csv_get(csv, row, kd->col);

	return v && *v ? v : kd->dflt;
}

static uint64_t keynum(const struct cb_csv *csv, const struct cb_csv_rec *row,
                       const struct cmp_keydef *kd)
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

int cmp_parse_ignore(struct cmp_select *sel, const char *arg)
{
	char *copy = cb_xstrdup(arg), *save = NULL;
	int rc = 0;

	for (char *t = strtok_r(copy, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		int i;

		for (i = 0; cmp_ignorable[i] && strcmp(cmp_ignorable[i], t); i++)
			;
		if (!cmp_ignorable[i]) {
			cb_err("compare: --ignore: '%s' is not one of backend, "
			       "driver, iv_mode, auth", t);
			rc = -EINVAL;
			break;
		}
		sel->ignored |= 1u << i;
	}
	free(copy);
	return rc;
}

static int u64_cmp(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

/* The order of the points' keys, as written (the runs' fold; the match's
 * order is cmp_key_cmp's). */
static int key_cmp(const struct cmp_point *a, const struct cmp_point *b)
{
	return cmp_key_cmp(a, b, CMP_KEY_EXACT);
}

static int qcmp_key_first(const void *pa, const void *pb)
{
	const struct cmp_point *a = pa, *b = pb;
	int c = key_cmp(a, b);

	if (c)
		return c;
	return u64_cmp(a->first, b->first);
}

static int qcmp_first(const void *pa, const void *pb)
{
	const struct cmp_point *a = pa, *b = pb;

	return u64_cmp(a->first, b->first);
}

static int qcmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

static int qcmp_pptr(const void *pa, const void *pb)
{
	const struct cmp_point *a = *(struct cmp_point *const *)pa;

	return cmp_key_cmp(a, *(struct cmp_point *const *)pb, a->ignored);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, qcmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Median over the runs; the spread of the point is the larger of the
 * median of the runs' own rel_spread and the spread between the runs,
 * (max - min) / median.  NaN (unknown): one run of one measurement.
 */
static void point_finish(struct cmp_point *p)
{
	double lo, hi, within;

	if (!p->n)
		return;
	p->median = median(p->bps, p->n);
	lo = p->bps[0];
	hi = p->bps[p->n - 1];
	within = median(p->spread, p->n);
	p->rel_spread = within;
	if (p->n > 1 && p->median > 0 &&
	    (isnan(within) || (hi - lo) / p->median > within))
		p->rel_spread = (hi - lo) / p->median;
}

static void point_add_run(struct cmp_point *p, double bps, double spread)
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

/* The order of ct rows' keys. */
static int ct_cmp(const struct cmp_ct *a, const struct cmp_ct *b)
{
	int c;

	if ((c = strcmp(a->group, b->group)) ||
	    (c = strcmp(a->backend, b->backend)) ||
	    (c = strcmp(a->driver, b->driver)) || (c = strcmp(a->alg, b->alg)) ||
	    (c = u64_cmp(a->key_bits, b->key_bits)))
		return c;
	return strcmp(a->level, b->level);
}

static int qcmp_ct_first(const void *pa, const void *pb)
{
	const struct cmp_ct *a = pa, *b = pb;
	int c = ct_cmp(a, b);

	if (c)
		return c;
	return u64_cmp(a->first, b->first);
}

static int qcmp_ct_order(const void *pa, const void *pb)
{
	const struct cmp_ct *a = pa, *b = pb;

	return u64_cmp(a->first, b->first);
}

static int qcmp_ctptr(const void *pa, const void *pb)
{
	return ct_cmp(*(struct cmp_ct *const *)pa, *(struct cmp_ct *const *)pb);
}

static void side_clear_points(struct cmp_side *s)
{
	for (size_t i = 0; i < s->npts; i++) {
		free(s->pts[i].bps);
		free(s->pts[i].spread);
		free(s->pts[i].samples);
	}
	free(s->pts);
	free(s->hosts);
	free(s->ct);
	s->pts = NULL;
	s->hosts = NULL;
	s->ct = NULL;
	s->npts = s->nhosts = s->nrows = s->nct = s->nctrows = 0;
}

void cmp_side_free(struct cmp_side *s)
{
	side_clear_points(s);
	if (s->csv)
		for (size_t i = 0; i < s->nfiles; i++)
			cb_csv_free(&s->csv[i]);
	free(s->csv);
}

static int row_selected(const struct cb_csv *csv, const struct cb_csv_rec *row,
                        const struct cmp_select *sel, unsigned side)
{
	for (size_t i = 0; i < sel->nflt; i++) {
		const struct cmp_filter *f = &sel->flt[i];
		const char *v;

		if (!(f->sides & side))
			continue;
		v = cb_csv_get(csv, row, f->col);
		if ((!v || !*v) && cmp_by_default(f->col))
			v = cmp_by_default(f->col);
		if (!v)
			v = "";
		if (f->op == '=' ? strcmp(v, f->val) != 0
		                 : strcasestr(v, f->val) == NULL)
			return 0;
	}
	return 1;
}

static void add_host(struct cmp_side *s, const char *h)
{
	for (size_t i = 0; i < s->nhosts; i++)
		if (!strcmp(s->hosts[i], h))
			return;
	s->hosts = cb_xrealloc(s->hosts, (s->nhosts + 1) * sizeof *s->hosts);
	s->hosts[s->nhosts++] = h;
}

/* "a, b, c" of the distinct values of col in the files, for messages. */
static void list_values(const struct cmp_side *s, const char *col, char *out,
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
			for (i = 0; i < nseen && strcmp(seen[i], v); i++)
				;
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

/* Every row's schema is one this reader knows; 0 or -EINVAL. */
static int check_schemas(const struct cb_csv *csv)
{
	for (size_t r = 0; r < csv->nrows; r++) {
		const struct cb_csv_rec *row = &csv->rows[r];
		const char *schema = cb_csv_get(csv, row, "schema");

		if (!cb_col_schema(schema)) {
			cb_err("%s:%lu: unknown schema '%s': this cryptobench "
			       "%s reads cryptobench-csv-1 to -%d", csv->name,
			       row->line, schema, CB_VERSION, cb_col_newest());
			return -EINVAL;
		}
	}
	return 0;
}

int cmp_side_load(struct cmp_side *s, const struct cmp_select *sel)
{
	s->csv = cb_xcalloc(s->nfiles, sizeof *s->csv);
	for (size_t f = 0; f < s->nfiles; f++) {
		struct cb_csv *csv = &s->csv[f];
		int rc = cb_csv_read(csv, s->paths[f]);

		if (rc < 0 || (rc = cb_col_check(csv)) < 0) {
			cb_err("%s", csv->err);
			return rc;
		}
		if (check_schemas(csv) < 0)
			return -EINVAL;
		for (size_t i = 0; i < sel->nflt; i++) {
			const struct cmp_filter *flt = &sel->flt[i];

			if (!(flt->sides & s->sidebit) || cb_csv_has(csv, flt->col) ||
			    cmp_by_default(flt->col))
				continue;
			cb_err("%s: no column '%s' to select on", csv->name,
			       flt->col);
			return -EINVAL;
		}
	}
	return 0;
}

/* The key and provenance of a selected row into p (its runs not yet). */
static void row_key(struct cmp_point *p, const struct cb_csv *csv,
                    const struct cb_csv_rec *row, const char *bycol,
                    unsigned ignored)
{
	const struct cb_alg *a;
	unsigned mult;
	const char *g = bycol ? cb_csv_get(csv, row, bycol) : "";

	memset(p, 0, sizeof *p);
	if (bycol && (!g || !*g) && cmp_by_default(bycol))
		g = cmp_by_default(bycol);
	p->group = g ? g : "";
	p->tool = keyval(csv, row, &cmp_kd_tool);
	p->alg = cb_csv_get(csv, row, "alg");
	a = cb_alg_find(p->alg, &mult);
	if (a && mult == 1)
		p->alg = a->name;    /* aliases -> canonical */
	p->direction = cb_csv_get(csv, row, "direction");
	p->backend = cb_csv_get(csv, row, "backend");
	p->driver = cb_csv_get(csv, row, "driver");
	p->iv_mode = cb_csv_iv_key(csv, row, cmp_kd_iv.dflt);
	p->auth = keyval(csv, row, &cmp_kd_auth);
	p->ignored = ignored;        /* the match leaves them out */
	p->shared = numval(cb_csv_get(csv, row, "shared"));
	cb_parse_u64(cb_csv_get(csv, row, "key_bits"), &p->key_bits);
	cb_parse_u64(cb_csv_get(csv, row, "block_bytes"), &p->block_bytes);
	p->sector_bytes = keynum(csv, row, &cmp_kd_sector);
	p->threads = keynum(csv, row, &cmp_kd_thr);
	p->host = cb_csv_get(csv, row, "host");
	p->cpu_model = cb_csv_get(csv, row, "cpu_model");
	p->backend_version = cb_csv_get(csv, row, "backend_version");
	p->status = cmp_status_of(cb_csv_get(csv, row, "status"));
	p->why = cb_csv_get(csv, row, "error");
	if (!p->why)
		p->why = "";
}

/*
 * The raw samples of a measured row (sample_ops: ops/s separated by
 * spaces; absent or empty in files without them) into p->samples.
 * 0 or -EINVAL after a message naming FILE:LINE.
 */
/* The row's sample_procs (samples per process, csv-4) as p's processes;
 * absent or empty: one.  0, or -EINVAL after a message naming FILE:LINE
 * when they are not counts that add up to the row's samples. */
static int row_groups(struct cmp_point *p, const struct cb_csv *csv,
                      const struct cb_csv_rec *row)
{
	const char *v = cb_csv_get(csv, row, "sample_procs"), *at = v;
	size_t sum = 0, n = 0;
	char *end;

	while (at && *at && n < CMP_MAX_PROCS) {
		unsigned long k = strtoul(at, &end, 10);

		if (end == at || !k || (*end && *end != ' '))
			break;
		p->proc[n++] = k;
		sum += k;
		at = end + strspn(end, " ");
	}
	if (v && *v && (sum != p->nsamples || *at)) {
		cb_err("%s:%lu: column 'sample_procs': '%s' is not the samples "
		       "of each process (%zu in all)", csv->name, row->line, v,
		       p->nsamples);
		return -EINVAL;
	}
	if (!n)
		p->proc[n++] = p->nsamples;
	p->nprocs = p->nsamples ? n : 0;
	return 0;
}

static int row_samples(struct cmp_point *p, const struct cb_csv *csv,
                       const struct cb_csv_rec *row)
{
	const char *v = cb_csv_get(csv, row, "sample_ops");
	char bad[64];

	if (!v || !*v)
		return 0;
	if (cb_csv_numbers(v, &p->samples, &p->nsamples, bad, sizeof bad) < 0) {
		cb_err("%s:%lu: column 'sample_ops': '%s' is not a non-negative "
		       "number", csv->name, row->line, bad);
		return -EINVAL;
	}
	return row_groups(p, csv, row);
}

/*
 * A selected row as a one-run point; a measured run's numbers ride in
 * median and rel_spread with n = 1.  0 or -EINVAL after a message.
 */
static int row_point(struct cmp_point *p, const struct cb_csv *csv,
                     const struct cb_csv_rec *row, const char *bycol,
                     unsigned ignored)
{
	double bps, sp;

	row_key(p, csv, row, bycol, ignored);
	if (strcmp(p->status, "ok"))
		return 0;
	bps = numval(cb_csv_get(csv, row, "bytes_per_sec"));
	sp = numval(cb_csv_get(csv, row, "rel_spread"));
	if (isnan(bps)) {
		cb_err("%s:%lu: column 'bytes_per_sec' is empty in a measured "
		       "row", csv->name, row->line);
		return -EINVAL;
	}
	p->median = bps;
	/* no spread known: none given, or one measurement (reps 1, as dd
	 * and the seeds: its 0 is no range) */
	p->rel_spread = isnan(sp) || numval(cb_csv_get(csv, row, "reps")) == 1
	                ? NAN : sp;
	p->n = 1;
	return row_samples(p, csv, row);
}

/* Move run's samples to the end of p's. */
static void pool_samples(struct cmp_point *p, struct cmp_point *run)
{
	if (!run->nsamples)
		return;
	p->samples = cb_xrealloc(p->samples, (p->nsamples + run->nsamples) *
	                         sizeof *p->samples);
	memcpy(p->samples + p->nsamples, run->samples,
	       run->nsamples * sizeof *p->samples);
	p->nsamples += run->nsamples;
	for (size_t k = 0; k < run->nprocs; k++)
		if (p->nprocs < CMP_MAX_PROCS)
			p->proc[p->nprocs++] = run->proc[k];
		else
			p->proc[CMP_MAX_PROCS - 1] += run->proc[k];
	run->nprocs = 0;
	free(run->samples);
	run->samples = NULL;
	run->nsamples = 0;
}

/* Fold the one-run points all[0..nall) with equal keys, in input order. */
static void fold_runs(struct cmp_side *s, struct cmp_point *all, size_t nall)
{
	size_t out = 0;

	qsort(all, nall, sizeof *all, qcmp_key_first);
	s->pts = cb_xcalloc(nall, sizeof *s->pts);
	for (size_t i = 0; i < nall; i++) {
		struct cmp_point *p;

		if (!out || key_cmp(&s->pts[out - 1], &all[i])) {
			p = &s->pts[out++];
			*p = all[i];
			p->n = p->cap = 0;
			p->bps = p->spread = NULL;
			all[i].samples = NULL;       /* p owns them now */
		} else {
			p = &s->pts[out - 1];
			pool_samples(p, &all[i]);
		}
		if (all[i].n)
			point_add_run(p, all[i].median, all[i].rel_spread);
		else if (!*p->why && *all[i].why)
			p->why = all[i].why;
	}
	s->npts = out;
	for (size_t i = 0; i < out; i++) {
		struct cmp_point *p = &s->pts[i];

		if (p->n)
			p->status = "ok";
		point_finish(p);
	}
	qsort(s->pts, s->npts, sizeof *s->pts, qcmp_first);
}

/* A selected ct row into c: its key, its verdict checked.  0, or -EINVAL
 * after "FILE:LINE: column 'ct_verdict': ..." */
static int row_ct(struct cmp_ct *c, const struct cb_csv *csv,
                  const struct cb_csv_rec *row, const char *bycol,
                  unsigned ignored)
{
	const char *g = bycol ? cb_csv_get(csv, row, bycol) : "";
	const char *lv = cb_csv_get(csv, row, "cpu_level");

	memset(c, 0, sizeof *c);
	c->v = cb_ct_verdict_row(csv->name, row->line,
	                         cb_csv_get(csv, row, "ct_verdict"));
	if (c->v < 0)
		return -EINVAL;
	if (bycol && (!g || !*g) && cmp_by_default(bycol))
		g = cmp_by_default(bycol);
	c->group = g ? g : "";
	c->backend = ignored & 1 ? "*" : cb_csv_get(csv, row, "backend");
	c->driver = ignored & 2 ? "*" : cb_csv_get(csv, row, "driver");
	c->alg = cb_csv_get(csv, row, "alg");
	c->level = lv && *lv ? lv : "max";
	c->host = cb_csv_get(csv, row, "host");
	cb_parse_u64(cb_csv_get(csv, row, "key_bits"), &c->key_bits);
	return 0;
}

/* Fold the ct rows all[0..n) of equal keys into s->ct, the worst
 * verdict of each (cb_ct_verdicts is worst first), in input order. */
static void fold_ct(struct cmp_side *s, struct cmp_ct *all, size_t n)
{
	qsort(all, n, sizeof *all, qcmp_ct_first);
	s->ct = cb_xcalloc(n + 1, sizeof *s->ct);
	for (size_t i = 0; i < n; i++) {
		struct cmp_ct *last = s->nct ? &s->ct[s->nct - 1] : NULL;

		if (!last || ct_cmp(last, &all[i]))
			s->ct[s->nct++] = all[i];
		else if (all[i].v < last->v)
			last->v = all[i].v;
	}
	qsort(s->ct, s->nct, sizeof *s->ct, qcmp_ct_order);
}

/* Free the one-run points all[0..n) (after an error). */
static void free_runs(struct cmp_point *all, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(all[i].samples);
	free(all);
}

/* One file's selected rows: points onto *all, ct rows onto *ct (each
 * with room for the file's rows).  0, or -EINVAL after a message. */
static int side_rows(struct cmp_side *s, const struct cb_csv *csv,
                     const struct cmp_select *sel, const char *bycol,
                     struct cmp_point *all, size_t *nall, struct cmp_ct *ct,
                     size_t *order)
{
	for (size_t r = 0; r < csv->nrows; r++) {
		const struct cb_csv_rec *row = &csv->rows[r];
		const char *tool = cb_csv_get(csv, row, "tool");

		++*order;
		if (!row_selected(csv, row, sel, s->sidebit))
			continue;
		if (tool && !strcmp(tool, "ct")) {
			if (row_ct(&ct[s->nctrows], csv, row, bycol,
			           sel->ignored) < 0)
				return -EINVAL;
			ct[s->nctrows++].first = *order;
			add_host(s, cb_csv_get(csv, row, "host"));
			continue;
		}
		if (row_point(&all[*nall], csv, row, bycol, sel->ignored) < 0) {
			++*nall;         /* its samples are freed with the rest */
			return -EINVAL;
		}
		all[*nall].first = *order;
		add_host(s, all[*nall].host);
		s->nrows++;
		++*nall;
	}
	return 0;
}

int cmp_side_points(struct cmp_side *s, const struct cmp_select *sel,
                    const char *bycol)
{
	struct cmp_point *all = NULL;
	struct cmp_ct *ct = NULL;
	size_t nall = 0, order = 0;

	side_clear_points(s);
	for (size_t f = 0; f < s->nfiles; f++) {
		const struct cb_csv *csv = &s->csv[f];
		int rc = -EINVAL;

		if (bycol && !cb_csv_has(csv, bycol) && !cmp_by_default(bycol))
			cb_err("%s: no column '%s' to match by", csv->name, bycol);
		else
			rc = 0;
		all = cb_xrealloc(all, (nall + csv->nrows + 1) * sizeof *all);
		ct = cb_xrealloc(ct, (s->nctrows + csv->nrows + 1) * sizeof *ct);
		if (rc == 0)
			rc = side_rows(s, csv, sel, bycol, all, &nall, ct, &order);
		if (rc < 0) {
			free_runs(all, nall);
			free(ct);
			return rc;
		}
	}
	fold_runs(s, all, nall);
	fold_ct(s, ct, s->nctrows);
	free(all);
	free(ct);
	return 0;
}

int cmp_side_empty(const struct cmp_side *s, const struct cmp_select *sel)
{
	char hosts[512];
	int filtered = 0;

	if (s->nrows || s->nctrows)
		return 0;
	for (size_t i = 0; i < sel->nflt; i++)
		filtered |= (sel->flt[i].sides & s->sidebit) != 0;
	if (!filtered)
		return 0;            /* a header-only file: nothing to compare */
	list_values(s, "host", hosts, sizeof hosts);
	cb_err("%s: no row matches the selection (hosts in the file: %s)",
	       s->paths[0], hosts);
	return -EINVAL;
}

/* Pair up the ct rows of equal keys. */
static void match_ct(struct cmp_side *b, struct cmp_side *n)
{
	struct cmp_ct **vb = cb_xcalloc(b->nct + 1, sizeof *vb);
	struct cmp_ct **vn = cb_xcalloc(n->nct + 1, sizeof *vn);
	size_t i = 0, j = 0;

	for (size_t k = 0; k < b->nct; k++)
		vb[k] = &b->ct[k];
	for (size_t k = 0; k < n->nct; k++)
		vn[k] = &n->ct[k];
	qsort(vb, b->nct, sizeof *vb, qcmp_ctptr);
	qsort(vn, n->nct, sizeof *vn, qcmp_ctptr);
	while (i < b->nct && j < n->nct) {
		int c = ct_cmp(vb[i], vn[j]);

		if (c == 0) {
			vb[i]->match = vn[j];
			vn[j]->match = vb[i];
		}
		i += c <= 0;
		j += c >= 0;
	}
	free(vb);
	free(vn);
}

void cmp_match_points(struct cmp_side *b, struct cmp_side *n)
{
	struct cmp_point **vb = cb_xcalloc(b->npts, sizeof *vb);
	struct cmp_point **vn = cb_xcalloc(n->npts, sizeof *vn);
	size_t i = 0, j = 0;

	cmp_keep_fastest(b);         /* one point per key and side */
	cmp_keep_fastest(n);
	for (size_t k = 0; k < b->npts; k++)
		vb[k] = &b->pts[k];
	for (size_t k = 0; k < n->npts; k++)
		vn[k] = &n->pts[k];
	qsort(vb, b->npts, sizeof *vb, qcmp_pptr);
	qsort(vn, n->npts, sizeof *vn, qcmp_pptr);
	while (i < b->npts && j < n->npts) {
		int c = cmp_key_cmp(vb[i], vn[j], vb[i]->ignored);

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
	match_ct(b, n);
}
