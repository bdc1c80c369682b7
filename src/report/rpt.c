/*
 * rpt.c - result files read for the report and the bench summary
 * (rpt.h).  The reading itself is csv.c's, the columns' checks and
 * their values in older files the column table's (output/columns.h);
 * this file turns rows into points and groups them by source;
 * ct rows (verdicts, not speeds) are kept apart, their verdicts checked.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cb.h"
#include "foundation/csv.h"
#include "output/columns.h"
#include "output/result.h"
#include "system/sysinfo.h"
#include "report/rpt.h"
#include "foundation/util.h"

static const char *get(const struct cb_csv *c, const struct cb_csv_rec *row,
                       const char *col, const char *dflt)
{
	const char *v = cb_csv_get(c, row, col);

	return v && *v ? v : dflt;
}

/* Fill p from row; 0, or -1 (message printed) for an unknown schema. */
static int row_point(const struct cb_csv *c, const struct cb_csv_rec *row,
                     struct rpt_pt *p)
{
	const char *schema = get(c, row, "schema", "");
	struct cb_result r = { 0 };

	if (!cb_col_schema(schema)) {
		cb_err("%s:%lu: schema '%s' is not one this version reads "
		       "(cryptobench-csv-1 to -%d)", c->name, row->line, schema,
		       cb_col_newest());
		return -1;
	}
	memset(p, 0, sizeof *p);
	cb_col_read(c, row, &r);
	p->tool = cb_col_get(c, row, "tool");
	p->backend = r.backend;
	p->backend_version = r.backend_version;
	p->driver = r.driver;
	p->alg = r.alg;
	p->dir = r.direction;
	p->auth = r.auth;
	p->iv = cb_csv_iv_key(c, row, "per-request");
	p->status = cb_col_get(c, row, "status");
	p->why = r.why;
	p->key_bits = r.key_bits;
	p->block = r.block_bytes;
	p->sector = r.sector_bytes;
	p->threads = r.threads ? r.threads : 1;
	p->bps = strcmp(p->status, "ok") ? NAN : r.bytes_per_sec;
	p->cpb = r.cycles_per_byte;
	p->lo = r.ci_low_ops * (double)p->block;
	p->hi = r.ci_high_ops * (double)p->block;
	p->file = c->name;
	p->line = row->line;
	return 0;
}

/* A ct row into c; 0, or -1 (message naming FILE:LINE) for a verdict
 * that is none of result.h's. */
static int row_ct(const struct cb_csv *f, const struct cb_csv_rec *row,
                  struct rpt_ct *c)
{
	struct cb_result r = { 0 };

	memset(c, 0, sizeof *c);
	cb_col_read(f, row, &r);
	c->verdict = r.ct_verdict;
	if ((c->v = cb_ct_verdict_row(f->name, row->line, c->verdict)) < 0)
		return -1;
	c->host = get(f, row, "host", "unknown");
	c->level = cb_col_get(f, row, "cpu_level");
	c->backend = r.backend;
	c->driver = r.driver;
	c->alg = r.alg;
	c->status = cb_col_get(f, row, "status");
	c->why = r.why;
	c->method = r.ct_method;
	c->places = r.ct_places;
	c->note = r.ct_note;
	c->key_bits = r.key_bits;
	c->t = r.ct_t;
	c->n = r.ct_measurements;
	c->branches = r.ct_branches;
	c->indexes = r.ct_indexes;
	c->file = f->name;
	c->line = row->line;
	return 0;
}

int rpt_is_skip(const char *status)
{
	return !strcmp(status, "skip") || !strcmp(status, "skipped");
}

static struct rpt_backend *src_backend(struct rpt_src *s, const char *name,
                                       const char *version,
                                       const char *details)
{
	for (size_t i = 0; i < s->nbe; i++)
		if (!strcmp(s->be[i].name, name))
			return &s->be[i];
	s->be = cb_xrealloc(s->be, (s->nbe + 1) * sizeof *s->be);
	memset(&s->be[s->nbe], 0, sizeof *s->be);
	s->be[s->nbe].name = name;
	s->be[s->nbe].version = version;
	s->be[s->nbe].details = details;
	return &s->be[s->nbe++];
}

/* What a row says of its source: the keys, and (in fill) the
 * provenance a new source takes from its first row. */
struct src_keys {
	const char *ts, *be_version, *be_details;
	struct rpt_src fill;         /* host, level, provenance, file          */
};

static void src_keys_csv(struct src_keys *k, const struct cb_csv *c,
                         const struct cb_csv_rec *row)
{
	struct rpt_src *s = &k->fill;

	memset(k, 0, sizeof *k);
	k->ts = get(c, row, "timestamp", "");
	k->be_version = get(c, row, "backend_version", "");
	k->be_details = get(c, row, "backend_details", "");
	s->host = get(c, row, "host", "unknown");
	s->level = get(c, row, "cpu_level", "max");
	s->cpu_model = get(c, row, "cpu_model", "unknown");
	s->kernel = get(c, row, "kernel", "unknown");
	s->tool_version = get(c, row, "tool_version", "unknown");
	s->cpu_flags = get(c, row, "cpu_flags", "");
	s->compiler = get(c, row, "compiler", "");
	s->cflags = get(c, row, "cflags", "");
	s->governor = get(c, row, "governor", "");
	s->boost = get(c, row, "boost", "");
	s->clock = get(c, row, "clock", "");
	s->first = s->last = k->ts;
	s->file = c->name;
}

/* The source of a row (added when new); counts its status per backend. */
static size_t row_source(struct rpt *r, const struct src_keys *k,
                         const struct rpt_pt *p)
{
	const char *ts = k->ts;
	struct rpt_backend *b;
	size_t i;

	for (i = 0; i < r->nsrcs; i++)
		if (!strcmp(r->srcs[i].host, k->fill.host) &&
		    !strcmp(r->srcs[i].level, k->fill.level))
			break;
	if (i == r->nsrcs) {
		r->srcs = cb_xrealloc(r->srcs, (i + 1) * sizeof *r->srcs);
		r->srcs[i] = k->fill;
		r->nsrcs++;
	}
	if (*ts && (!*r->srcs[i].first || strcmp(ts, r->srcs[i].first) < 0))
		r->srcs[i].first = ts;
	if (*ts && strcmp(ts, r->srcs[i].last) > 0)
		r->srcs[i].last = ts;
	b = src_backend(&r->srcs[i], p->backend, k->be_version, k->be_details);
	if (!strcmp(p->status, "ok"))
		b->ok++;
	else if (rpt_is_skip(p->status))
		b->skip++;
	else
		b->fail++;
	return i;
}

static int read_one(struct cb_csv *c, const char *path)
{
	int e = cb_csv_read(c, path);

	if (e == 0 && (e = cb_col_check(c)) < 0) {
		cb_err("%s", c->err);
		cb_csv_free(c);        /* read, but not one of ours */
		return -1;
	}
	if (e == -EINVAL) {
		cb_err("%s", c->err);
		return -1;
	}
	if (e < 0) {
		cb_err("%s: %s", path, strerror(-e));
		return -1;
	}
	return 0;
}

static int load_seed(struct rpt *r, const char *seed)
{
	struct cb_csv *c = &r->seedcsv;

	if (!seed)
		return 0;
	if (!*seed && !(seed = rpt_seed_default()))
		return 0;
	if (read_one(c, seed) < 0)
		return -1;
	r->seed = cb_xcalloc(c->nrows ? c->nrows : 1, sizeof *r->seed);
	for (size_t i = 0; i < c->nrows; i++) {
		if (row_point(c, &c->rows[i], &r->seed[r->nseed]) < 0)
			return -1;
		if (!strcmp(r->seed[r->nseed].tool, "dd"))
			r->nseed++;
	}
	r->seed_path = seed;
	return 0;
}

int rpt_load(struct rpt *r, char *const *paths, size_t npaths,
             const char *seed)
{
	struct src_keys k;
	size_t total = 0;

	memset(r, 0, sizeof *r);
	r->csv = cb_xcalloc(npaths ? npaths : 1, sizeof *r->csv);
	for (size_t f = 0; f < npaths; f++, r->ncsv++) {
		if (read_one(&r->csv[f], paths[f]) < 0)
			return CB_EXIT_USAGE;
		total += r->csv[f].nrows;
	}
	r->pts = cb_xcalloc(total ? total : 1, sizeof *r->pts);
	r->ct = cb_xcalloc(total ? total : 1, sizeof *r->ct);
	for (size_t f = 0; f < r->ncsv; f++) {
		const struct cb_csv *c = &r->csv[f];

		for (size_t i = 0; i < c->nrows; i++) {
			struct rpt_pt *p = &r->pts[r->npts];

			if (!strcmp(get(c, &c->rows[i], "tool", ""), "ct")) {
				if (row_ct(c, &c->rows[i], &r->ct[r->nct++]) < 0)
					return CB_EXIT_USAGE;
				continue;
			}
			if (row_point(c, &c->rows[i], p) < 0)
				return CB_EXIT_USAGE;
			src_keys_csv(&k, c, &c->rows[i]);
			p->src = row_source(r, &k, p);
			r->npts++;
		}
	}
	if (load_seed(r, seed) < 0)
		return CB_EXIT_USAGE;
	return 0;
}

/* ---- results in memory (bench) --------------------------------------- */

static const char *or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

/* v as the CSV gives it back: the column's decimals (columns.c), NaN for
 * an empty field. */
static double as_read(double v, const char *col)
{
	char buf[400];

	if (isnan(v) || isinf(v))
		return NAN;
	for (size_t i = 0; i < cb_ncols; i++)
		if (!strcmp(cb_cols[i].name, col)) {
			snprintf(buf, sizeof buf, "%.*f", cb_cols[i].prec, v);
			return strtod(buf, NULL);
		}
	return v;
}

/* A result as row_point() reads its CSV row. */
static void res_point(const struct cb_result *x, struct rpt_pt *p)
{
	int ok = x->status == CB_RES_OK, sampled = ok && x->ci_high_ops > 0;

	memset(p, 0, sizeof *p);
	p->tool = or(x->tool, "speed");
	p->backend = or(x->backend, "");
	p->backend_version = or(x->backend_version, "");
	p->driver = or(x->driver, "");
	p->alg = or(x->alg, "");
	p->dir = or(x->direction, "");
	p->auth = or(x->auth, "");
	p->iv = cb_iv_key(or(x->iv_mode, "per-request"), x->mb);
	p->status = ok ? "ok" : x->status == CB_RES_SKIP ? "skipped" : "failed";
	p->why = ok ? "" : or(x->why, "");
	p->key_bits = x->key_bits;
	p->block = x->block_bytes;
	p->sector = x->sector_bytes;
	p->threads = x->threads;
	p->bps = ok ? as_read(x->bytes_per_sec, "bytes_per_sec") : NAN;
	p->cpb = ok ? as_read(x->cycles_per_byte, "cycles_per_byte") : NAN;
	p->lo = (sampled ? as_read(x->ci_low_ops, "ci_low_ops") : NAN) *
	        (double)p->block;
	p->hi = (sampled ? as_read(x->ci_high_ops, "ci_high_ops") : NAN) *
	        (double)p->block;
}

/* What a result's row says of its source: the provenance's columns. */
static void src_keys_res(struct src_keys *k, const struct cb_prov *v,
                         const struct cb_result *x, const char *file)
{
	struct rpt_src *s = &k->fill;

	memset(k, 0, sizeof *k);
	k->ts = x->timestamp;
	k->be_version = or(x->backend_version, "");
	k->be_details = or(x->backend_details, "");
	s->host = or(v->host, "unknown");
	s->level = or(v->cpu_level, "max");
	s->cpu_model = or(v->cpu_model, "unknown");
	s->kernel = or(v->kernel, "unknown");
	s->tool_version = or(v->tool_version, "unknown");
	s->cpu_flags = or(v->cpu_flags, "");
	s->compiler = or(v->compiler, "");
	s->cflags = or(v->cflags, "");
	s->governor = or(v->governor, "");
	s->boost = or(v->boost, "");
	s->clock = or(v->clock, "");
	s->first = s->last = k->ts;
	s->file = file;
}

int rpt_from_results(struct rpt *r, const struct cb_prov *prov,
                     const struct cb_result *res, size_t n,
                     const struct rpt_ct *ct, size_t nct, const char *file,
                     const char *seed)
{
	struct src_keys k;

	memset(r, 0, sizeof *r);
	r->pts = cb_xcalloc(n ? n : 1, sizeof *r->pts);
	r->ct = cb_xcalloc(nct ? nct : 1, sizeof *r->ct);
	for (size_t i = 0; i < n; i++) {
		struct rpt_pt *p = &r->pts[r->npts++];

		res_point(&res[i], p);
		p->file = file;
		p->line = 2 + i;         /* after the header, a line a row */
		src_keys_res(&k, prov, &res[i], file);
		p->src = row_source(r, &k, p);
	}
	for (size_t i = 0; i < nct; i++) {
		r->ct[r->nct] = ct[i];
		r->ct[r->nct].file = file;
		r->ct[r->nct++].line = 2 + n + i;
	}
	return load_seed(r, seed) < 0 ? CB_EXIT_USAGE : 0;
}

void rpt_free(struct rpt *r)
{
	for (size_t i = 0; i < r->ncsv; i++)
		cb_csv_free(&r->csv[i]);
	for (size_t i = 0; i < r->nsrcs; i++)
		free(r->srcs[i].be);
	cb_csv_free(&r->seedcsv);
	free(r->csv);
	free(r->pts);
	free(r->ct);
	free(r->srcs);
	free(r->seed);
	memset(r, 0, sizeof *r);
}

const char *rpt_seed_default(void)
{
	static char buf[4096 + 64];

	return cb_data_path("results/reference/geli-seed.csv",
	                    "reference/geli-seed.csv", 0, buf, sizeof buf);
}

const char *rpt_src_label(const struct rpt *r, size_t src, char *buf,
                          size_t len)
{
	const struct rpt_src *s = &r->srcs[src];

	if (!strcmp(s->level, "max"))
		snprintf(buf, len, "%s", s->host);
	else
		snprintf(buf, len, "%s @%s", s->host, s->level);
	return buf;
}

/* Append to buf (len bytes, *off used so far), cut at its end. */
static void __attribute__((format(printf, 4, 5)))
put(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*off + 1 >= len)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (k > 0)
		*off = *off + (size_t)k < len ? *off + (size_t)k : len - 1;
}

void rpt_ct_evidence(const struct rpt_ct *c, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	put(buf, len, &off, "%s", *c->method ? c->method : "no method ran");
	if (!isnan(c->t))
		put(buf, len, &off, "; t %.2f, %llu measurements", c->t,
		    (unsigned long long)c->n);
	if (c->branches || c->indexes)
		put(buf, len, &off, "; %u branch%s, %u memory index%s",
		    c->branches, c->branches == 1 ? "" : "es", c->indexes,
		    c->indexes == 1 ? "" : "es");
	if (*c->places)
		put(buf, len, &off, ": %s", c->places);
	if (*c->why)
		put(buf, len, &off, "; %s", c->why);
	if (*c->note)
		put(buf, len, &off, "; %s", c->note);
}

int rpt_is_digest(const struct rpt_pt *p)
{
	return !strcmp(p->dir, "digest") || !strcmp(p->dir, "derive");
}

const struct rpt_pt *rpt_find(const struct rpt *r, size_t src,
                              const char *tool, const char *backend,
                              const char *alg, unsigned bits,
                              uint64_t block, const char *dir,
                              uint64_t sector, const char *auth)
{
	for (size_t i = 0; i < r->npts; i++) {
		const struct rpt_pt *p = &r->pts[i];

		if (p->src != src || isnan(p->bps) ||
		    (tool && strcmp(p->tool, tool)) ||
		    (backend && strcmp(p->backend, backend)) ||
		    (alg && strcmp(p->alg, alg)) ||
		    (bits != UINT_MAX && p->key_bits != bits) ||
		    (block != UINT64_MAX && p->block != block) ||
		    (dir && strcmp(p->dir, dir)) ||
		    (sector != UINT64_MAX && p->sector != sector) ||
		    (auth && strcmp(p->auth, auth)))
			continue;
		return p;
	}
	return NULL;
}

/* ---- shared by the report and the bench summary ------------------- */

void rpt_html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
}

/* FreeBSD's name of a geli algorithm (geli list's), or NULL */
static const char *geli_name(const char *alg)
{
	static const char *const names[][2] = {
		{ "xts(aes)", "AES-XTS" }, { "cbc(aes)", "AES-CBC" },
		{ "cbc(blowfish)", "Blowfish-CBC" }, { "cbc(camellia)", "CAMELLIA-CBC" },
		{ "cbc(des3_ede)", "3DES-CBC" }, { "ecb(cipher_null)", "NULL" },
		{ "hmac(md5)", "HMAC/MD5" }, { "hmac(sha1)", "HMAC/SHA1" },
		{ "hmac(rmd160)", "HMAC/RIPEMD160" }, { "hmac(sha256)", "HMAC/SHA256" },
		{ "hmac(sha384)", "HMAC/SHA384" }, { "hmac(sha512)", "HMAC/SHA512" },
	};

	for (size_t i = 0; alg && i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(alg, names[i][0]))
			return names[i][1];
	return NULL;
}

const char *report_geli_label(const struct rpt_pt *p, char *buf, size_t len)
{
	const char *e = geli_name(p->alg), *a = geli_name(p->auth);
	char name[160];

	if (*p->driver || !e)  /* the file's driver (FreeBSD's name) */
		snprintf(name, sizeof name, "%s", *p->driver ? p->driver : p->alg);
	else                   /* an imported report: FreeBSD's names */
		snprintf(name, sizeof name, "%s%s%s", e, a ? "+" : "", a ? a : "");
	if (!strcmp(p->alg, "none"))
		snprintf(buf, len, "baseline (no encryption)");
	else if (!strcmp(p->alg, "xts(aes)"))
		snprintf(buf, len, "%s -l %u", name, p->key_bits / 2);
	else
		snprintf(buf, len, "%s", name);
	return buf;
}

/* ---- summary --------------------------------------------------------- */

static uint64_t sum_block(const struct rpt *r, size_t src, const char *alg,
                          unsigned bits)
{
	uint64_t best = 0;

	for (size_t i = 0; i < r->npts; i++) {
		const struct rpt_pt *p = &r->pts[i];

		if (p->src != src || isnan(p->bps) || strcmp(p->tool, "speed") ||
		    p->sector || strcmp(p->alg, alg) || p->key_bits != bits)
			continue;
		if (p->block == 4096)
			return 4096;
		if (p->block > best)
			best = p->block;
	}
	return best;
}

static void sum_dir(const struct rpt *r, struct rpt_sum *s, size_t src,
                    int d, const char *dir)
{
	double lib = 0, nat = NAN;

	s->best[d] = NULL;
	for (size_t i = 0; i < r->npts; i++) {
		const struct rpt_pt *p = &r->pts[i];

		if (p->src != src || isnan(p->bps) || strcmp(p->tool, "speed") ||
		    p->sector || strcmp(p->alg, s->alg) ||
		    p->key_bits != s->bits || p->block != s->block ||
		    strcmp(p->dir, dir))
			continue;
		if (!s->best[d] || p->bps > s->best[d]->bps)
			s->best[d] = p;
		if (!strcmp(p->backend, "native"))
			nat = isnan(nat) || p->bps > nat ? p->bps : nat;
		else if (p->bps > lib)
			lib = p->bps;
	}
	s->native_ratio[d] = lib > 0 ? nat / lib : NAN;
}

/* An algorithm's key sizes together and rising (a backend measured later
 * may add one: gcrypt's XTS 384 after openssl's 256 and 512), the
 * algorithms in the order they came. */
static void sum_order(struct rpt_sum *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct rpt_sum t = v[i];
		size_t j = i, first = 0;

		while (strcmp(v[first].alg, t.alg))
			first++;
		if (first == i)
			continue;            /* a new algorithm stays where it is */
		while (j > first && (strcmp(v[j - 1].alg, t.alg) ||
		                     v[j - 1].bits > t.bits)) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = t;
	}
}

size_t rpt_summary(const struct rpt *r, size_t src, struct rpt_sum **out)
{
	struct rpt_sum *v = cb_xcalloc(r->npts + 1, sizeof *v);
	size_t n = 0;

	for (size_t i = 0; i < r->npts; i++) {
		const struct rpt_pt *p = &r->pts[i];
		size_t k;

		if (p->src != src || isnan(p->bps) || strcmp(p->tool, "speed") ||
		    p->sector)
			continue;
		for (k = 0; k < n; k++)
			if (!strcmp(v[k].alg, p->alg) && v[k].bits == p->key_bits)
				break;
		if (k < n)
			continue;
		v[n].alg = p->alg;
		v[n].bits = p->key_bits;
		v[n].block = sum_block(r, src, p->alg, p->key_bits);
		v[n].ndir = rpt_is_digest(p) ? 1 : 2;
		v[n].kdf = !strcmp(p->dir, "derive");
		sum_dir(r, &v[n], src, 0, v[n].ndir == 1 ? p->dir : "encrypt");
		if (v[n].ndir == 2)
			sum_dir(r, &v[n], src, 1, "decrypt");
		n++;
	}
	sum_order(v, n);
	*out = v;
	return n;
}

void rpt_kdf_text(const struct rpt_pt *p, char *cost, char *figure,
                  char *ci, size_t n)
{
	const struct cb_alg *a = cb_alg_find(p->alg, NULL);
	double b = (double)p->block;

	ci[0] = 0;
	if (a && !a->inner) {        /* Argon2: KiB of one pass in one lane */
		snprintf(cost, n, "%llu KiB, 1 pass, 1 lane",
		         (unsigned long long)p->block);
		snprintf(figure, n, "%.3f ms a derivation", b / p->bps * 1e3);
		if (p->lo > 0 && !isnan(p->hi))
			snprintf(ci, n, "[%.3f, %.3f]", b / p->hi * 1e3,
			         b / p->lo * 1e3);
		return;
	}
	snprintf(cost, n, "%llu iterations", (unsigned long long)p->block);
	snprintf(figure, n, "%.3f M iterations/s", p->bps / 1e6);
	if (!isnan(p->lo) && !isnan(p->hi))
		snprintf(ci, n, "[%.3f, %.3f]", p->lo / 1e6, p->hi / 1e6);
}

/* A number cell with prec decimals (and a "×" after a ratio). */

/* The fastest row of backend be for alg at a sector size and direction
 * (the driver the kernel would pick: its highest-priority one is the one
 * meant to be fastest), speed's sector rows before dd's; key bits 256
 * when measured, else any. */
static const struct rpt_pt *dm_find(const struct rpt *r, size_t s,
                                    const char *be, const char *alg,
                                    unsigned bits, uint64_t sector,
                                    const char *dir)
{
	static const char *const tools[] = { "speed", "dd" };

	for (int t = 0; t < 4; t++) {
		const struct rpt_pt *best = NULL;

		for (size_t i = 0; i < r->npts; i++) {
			const struct rpt_pt *p = &r->pts[i];

			if (p->src != s || isnan(p->bps) ||
			    strcmp(p->tool, tools[t / 2]) || strcmp(p->backend, be) ||
			    strcmp(p->alg, alg) || p->sector != sector ||
			    strcmp(p->dir, dir) || *p->auth ||
			    (t % 2 == 0 && p->key_bits != bits))
				continue;
			if (!best || p->bps > best->bps)
				best = p;
		}
		if (best)
			return best;
	}
	return NULL;
}

int rpt_dm_pair(const struct rpt *r, size_t s, const char *be,
                uint64_t sector, const char *dir, const struct rpt_pt **xts,
                const struct rpt_pt **essiv)
{
	*xts = dm_find(r, s, be, "xts(aes)", 256, sector, dir);
	*essiv = dm_find(r, s, be, "essiv(cbc(aes),sha256)", 256, sector, dir);
	return *xts || *essiv;
}
