/*
 * compare_ref.c - `compare --reference [DIR] HOST.csv`: this host's
 * results placed among the reference library (results/reference/, one
 * CSV per source), one table per line of `cryptsetup benchmark`: its
 * twelve cipher rows in each direction, the PBKDF2 lines and both Argon2
 * lines.  On each side the implementation the tool's user gets: a cipher
 * row is the kernel's best driver, a KDF line cryptsetup's own; where the
 * host has none, its fastest backend stands in and the output says so.
 * Different implementations are never pooled: each side is one point.
 * docs/compare.md ("Placing a host among the references") is the rule.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/cb.h"
#include "compare/compare.h"
#include "foundation/csv.h"
#include "foundation/stats.h"
#include "foundation/util.h"

enum { K_CIPHER, K_PBKDF2, K_ARGON2 };

/* One line of `cryptsetup benchmark` to place. */
struct ref_row {
	char name[48];           /* "aes-cbc 128b encryption", "PBKDF2-sha1"    */
	char alg[32];
	uint64_t bits;
	const char *dir;
	int kind;
	const char *want;        /* the backend that is the tool's own          */
};

/* One side's value for a row. */
struct ref_val {
	double v;                /* MiB/s, iterations/s or MiB/s a lane; <0 none */
	double spread;           /* rel_spread; 0: one value, no spread          */
	const struct cmp_point *p;
	int standin;             /* not the tool's own backend: the fastest      */
};

/* One source: a file of the library, or the host's. */
struct ref_src {
	const char *path, *cpu;
	struct cmp_side side;
	double ghz;              /* median clock of its measured rows, or 0      */
	struct ref_val val;      /* for the row being placed                     */
};

const char *cmp_ref_default_dir(void)
{
	static char buf[4096 + 64];

	return cb_data_dir("CRYPTOBENCH_REFERENCE", "results/reference",
	                   "reference", buf, sizeof buf);
}

static int qcmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The median of the file's measured clocks (ghz column), or 0. */
static double side_ghz(const struct cb_csv *csv)
{
	double *v = cb_xcalloc(csv->nrows + 1, sizeof *v), g, m = 0;
	size_t n = 0;

	for (size_t r = 0; r < csv->nrows; r++) {
		const char *s = cb_csv_get(csv, &csv->rows[r], "ghz");

		if (s && *s && cb_csv_number(s, &g) == 0 && g > 0.2 && g < 10)
			v[n++] = g;
	}
	if (n) {
		cb_stats_sort(v, n);
		m = cb_stats_median(v, n);
	}
	free(v);
	return m;
}

/* Read one source's files (a reference: one; the host: one or more) into
 * points; 0 or -EINVAL after a message. */
static int src_load(struct ref_src *s, const char *const *paths, size_t n)
{
	static const struct cmp_select none;
	const char *path = paths[0], *slash = strrchr(path, '/');

	s->path = path;
	s->side.label = path;
	s->side.sidebit = 1;
	s->side.paths = paths;
	s->side.nfiles = n;
	if (cmp_side_load(&s->side, &none) < 0 ||
	    cmp_side_points(&s->side, &none, NULL) < 0)
		return -EINVAL;
	s->ghz = side_ghz(&s->side.csv[0]);
	s->cpu = slash ? slash + 1 : path;
	for (size_t i = 0; i < s->side.npts; i++)
		if (s->side.pts[i].cpu_model && *s->side.pts[i].cpu_model) {
			s->cpu = s->side.pts[i].cpu_model;
			break;
		}
	return 0;
}

/* The *.csv files of dir, sorted (free each and the array); NULL and
 * *n = 0 after a message when dir cannot be read. */
static char **dir_files(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;

	*n = 0;
	if (!d) {
		cb_err("compare --reference: %s: %s (the reference directory)",
		       dir, strerror(errno));
		return NULL;
	}
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (l < 5 || strcmp(e->d_name + l - 4, ".csv") || e->d_name[0] == '.')
			continue;
		v = cb_xrealloc(v, (*n + 1) * sizeof *v);
		v[*n] = cb_xcalloc(strlen(dir) + l + 2, 1);
		sprintf(v[(*n)++], "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof *v, qcmp_str);
	else
		cb_err("compare --reference: %s: no result CSV (*.csv) in it "
		       "(make reference writes them)", dir);
	return v;
}

/* Argon2's rate from cryptsetup's cost line (an imported `skipped` row:
 * "cost for T ms requested: I iterations, M KiB, L threads"): KiB filled
 * a second by one lane, in MiB/s; -1 if why is not one. */
static double argon_cost(const char *why)
{
	const char *s = why ? strstr(why, "cost for ") : NULL;
	double ms, it, kib, lanes;

	if (!s || sscanf(s, "cost for %lf ms requested: %lf iterations, %lf "
	                 "KiB, %lf threads", &ms, &it, &kib, &lanes) != 4 ||
	    ms <= 0 || lanes < 1)
		return -1;
	return it * kib / (ms / 1000) / lanes / 1024;
}

/* p's value for row r in the row's unit, or -1 when p is not the row. */
static double point_value(const struct cmp_point *p, const struct ref_row *r)
{
	int ok = !strcmp(p->status, "ok");

	if (strcmp(p->alg, r->alg) || p->key_bits != r->bits ||
	    strcmp(p->direction, r->dir))
		return -1;
	if (r->kind == K_CIPHER)
		return ok && p->block_bytes == 65536 && !p->sector_bytes &&
		       p->threads == 1 && !strcmp(p->iv_mode, "per-request") ?
		       p->median / 1048576 : -1;
	if (r->kind == K_PBKDF2)
		return ok ? p->median : -1;
	if (!ok)
		return argon_cost(p->why);
	return p->median / (double)(p->threads ? p->threads : 1) / 1024;
}

/* Whether candidate p (value v, own: the tool's backend) beats cur. */
static int better(const struct ref_val *cur, const struct cmp_point *p,
                  double v, int own)
{
	if (!cur->p)
		return 1;
	if (own != !cur->standin)
		return own;
	if (p->block_bytes != cur->p->block_bytes)  /* KDFs: the largest cost */
		return p->block_bytes > cur->p->block_bytes;
	return v > cur->v;
}

/* A side's point for row r: the tool's own backend's best, else (when
 * standin_ok) the fastest backend's; out->v < 0 when none. */
static void pick(const struct cmp_side *s, const struct ref_row *r,
                 int standin_ok, struct ref_val *out)
{
	memset(out, 0, sizeof *out);
	out->v = -1;
	for (size_t i = 0; i < s->npts; i++) {
		const struct cmp_point *p = &s->pts[i];
		double v = point_value(p, r);
		int own = !strcmp(p->backend, r->want);

		if (v <= 0 || (!own && !standin_ok) || !better(out, p, v, own))
			continue;
		out->v = v;
		out->p = p;
		out->standin = !own;
		out->spread = !strcmp(p->status, "ok") && isfinite(p->rel_spread)
		              && p->rel_spread > 0 ? p->rel_spread : 0;
	}
}

/* The verdict on host against reference (docs/compare.md). */
static const char *verdict(const struct ref_val *h, const struct ref_val *r)
{
	double q = h->v / r->v;

	if (h->spread <= 0 || r->spread <= 0)
		return "unsure";
	if (fabs(q - 1) <= h->spread + r->spread)
		return "within spread";
	return q > 1 ? "faster" : "slower";
}

static const char *ordinal(size_t n)
{
	return n % 100 / 10 == 1 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ?
	       "nd" : n % 10 == 3 ? "rd" : "th";
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static const char *const units[] = { "MiB/s", "iter/s", "MiB/s/lane" };

/* A ratio host / s per GHz (each side over its clock); NaN when a clock
 * is not known. */
static double per_ghz(double ratio, const struct ref_src *s,
                      const struct ref_src *host)
{
	return s->ghz > 0 && host->ghz > 0 ? ratio * s->ghz / host->ghz : NAN;
}

/* Where the placement goes: text tables, or one CSV (--format csv). */
struct ref_out {
	FILE *f;
	int csv;
};

static const char *const csv_cols[] = {
	"section", "line", "unit", "rank", "of", "source", "cpu", "ghz",
	"value", "ratio", "ratio_per_ghz", "verdict", "implementation",
	"standin", "points", "ratio_min", "ratio_max",
};
enum { NCOLS = sizeof csv_cols / sizeof csv_cols[0] };

static void csv_line(FILE *f, const char *const *v)
{
	for (size_t i = 0; i < NCOLS; i++) {
		if (i)
			fputc(',', f);
		cb_csv_write_field(f, v[i] ? v[i] : "");
	}
	fputc('\n', f);
}

/* One placed line of row r as CSV: source s of m, ranked rank. */
static void csv_place(FILE *f, size_t rank, size_t m, const struct ref_src *s,
                      const struct ref_src *host, const struct ref_row *r)
{
	const struct ref_val *v = &s->val, *h = &host->val;
	char rk[24], of[24], ghz[24] = "", val[32], ratio[32] = "", pg[32] = "";
	char impl[160];
	const char *c[NCOLS] = { "cryptsetup", r->name, units[r->kind], rk, of,
	                         base(s->path), s->cpu, ghz, val, ratio, pg };

	snprintf(rk, sizeof rk, "%zu", rank);
	snprintf(of, sizeof of, "%zu", m);
	if (s->ghz > 0)
		snprintf(ghz, sizeof ghz, "%.3f", s->ghz);
	snprintf(val, sizeof val, "%.6g", v->v);
	if (s != host)
		snprintf(ratio, sizeof ratio, "%.4f", h->v / v->v);
	if (s != host && !isnan(per_ghz(1, s, host)))
		snprintf(pg, sizeof pg, "%.4f", per_ghz(h->v / v->v, s, host));
	snprintf(impl, sizeof impl, "%s%s%s", v->p->backend,
	         *v->p->driver ? " " : "", v->p->driver);
	c[11] = s == host ? "this host" : verdict(h, v);
	c[12] = impl;
	c[13] = v->standin ? "1" : "0";
	csv_line(f, c);
}

/* One line of a row's table: rank, CPU, source, value, ratios, verdict. */
static void table_line(FILE *f, size_t rank, const struct ref_src *s,
                       const struct ref_src *host, const struct ref_row *r,
                       int ghzcol)
{
	const struct ref_val *v = &s->val, *h = &host->val;
	char cpu[64], ratio[32] = "", pg[32] = "-";

	snprintf(cpu, sizeof cpu, "%s%.35s", s == host ? "> " : "",
	         s == host ? "this host" : s->cpu);
	if (s != host) {
		snprintf(ratio, sizeof ratio, "%.2f", h->v / v->v);
		if (!isnan(per_ghz(1, s, host)))
			snprintf(pg, sizeof pg, "%.2f", per_ghz(h->v / v->v, s,
			         host));
	}
	fprintf(f, "  %4zu  %-37s %-32.32s %12.*f %6s", rank, cpu,
	        base(s->path), r->kind == K_PBKDF2 ? 0 : 1, v->v, ratio);
	if (ghzcol)
		fprintf(f, " %7s", s == host ? "" : pg);
	fprintf(f, "  %s\n", s == host ? (v->standin ? "stand-in" : "") :
	        verdict(h, v));
}

static const char *what_own(const struct ref_row *r)
{
	return r->kind == K_CIPHER ? "kernel driver" : "cryptsetup line";
}

/* The row's heading: the host's rank and implementation. */
static void row_head(FILE *f, const struct ref_row *r,
                     const struct ref_src *host, size_t rank, size_t m)
{
	const struct cmp_point *p = host->val.p;

	fprintf(f, "\n%s: this host is %zu%s of %zu\n  (this host: %s %s%s%s",
	        r->name, rank, ordinal(rank), m, p->backend, p->driver,
	        *p->driver ? ", " : "", r->kind == K_CIPHER ?
	        "64 KiB requests" : "");
	if (r->kind != K_CIPHER)
		fprintf(f, "%s %" PRIu64 "", r->kind == K_PBKDF2 ? "iterations" :
		        "KiB a lane", p->block_bytes);
	if (host->val.standin)
		fprintf(f, ";\n   no %s on this host: its fastest backend stands in",
		        what_own(r));
	fputs(")\n", f);
}

/* The host's and the sources' points for row r, fastest first (the host
 * after its ties) into order (n + 1 long); how many, 0 when the host or
 * every source lacks the row. */
static size_t gather(struct ref_src *src, size_t n, struct ref_src *host,
                     const struct ref_row *r, struct ref_src **order)
{
	size_t m = 0;

	pick(&host->side, r, 1, &host->val);
	for (size_t i = 0; i < n; i++) {
		pick(&src[i].side, r, 0, &src[i].val);
		if (src[i].val.v > 0)
			order[m++] = &src[i];
	}
	if (host->val.v <= 0 || !m)
		return 0;
	order[m++] = host;
	for (size_t i = 1; i < m; i++)
		for (size_t k = i; k > 0 && (order[k]->val.v > order[k - 1]->val.v
		     || (order[k] != host && order[k - 1] == host &&
		         order[k]->val.v == host->val.v)); k--) {
			struct ref_src *t = order[k];

			order[k] = order[k - 1], order[k - 1] = t;
		}
	return m;
}

/* Row r placed nowhere, and why. */
static void not_placed(const struct ref_out *o, const struct ref_row *r,
                       const char *why)
{
	char note[96];
	const char *c[NCOLS] = { "cryptsetup", r->name, units[r->kind] };

	if (!o->csv) {
		fprintf(o->f, "\n%s: not placed (%s)\n", r->name, why);
		return;
	}
	snprintf(note, sizeof note, "not placed: %s", why);
	c[11] = note;
	csv_line(o->f, c);
}

/* Place the host on row r among the n sources; 1 when placed. */
static int place_row(const struct ref_out *o, struct ref_src *src, size_t n,
                     struct ref_src *host, const struct ref_row *r)
{
	FILE *f = o->f;
	struct ref_src **order = cb_xcalloc(n + 1, sizeof *order);
	size_t m = gather(src, n, host, r, order), rank = 0;
	int ghzcol = 0;

	if (!m) {
		not_placed(o, r, host->val.v <= 0 ? "this host's file has no "
		           "point for it" : "no reference has it");
		free(order);
		return 0;
	}
	for (size_t i = 0; i < m; i++) {
		if (order[i] == host)
			rank = i + 1;
		ghzcol |= order[i]->ghz > 0 && host->ghz > 0 && order[i] != host;
	}
	if (o->csv) {
		for (size_t i = 0; i < m; i++)
			csv_place(f, i + 1, m, order[i], host, r);
		free(order);
		return 1;
	}
	row_head(f, r, host, rank, m);
	fprintf(f, "  %4s  %-37s %-32s %12s %6s%s  %s\n", "rank", "cpu",
	        "source", units[r->kind], "ratio", ghzcol ? " per GHz" : "",
	        "verdict");
	for (size_t i = 0; i < m; i++)
		table_line(f, i + 1, order[i], host, r, ghzcol);
	free(order);
	return 1;
}

/* cryptsetup benchmark's lines, in its order (src/cryptsetup.c): PBKDF2
 * (whirlpool left out: no backend here has it), Argon2, the twelve cipher
 * rows in each direction.  Returns how many (at most 32). */
static size_t ref_rows(struct ref_row *v)
{
	static const char *const kdf[][2] = {
		{ "sha1", "sha1" }, { "sha256", "sha256" }, { "sha512", "sha512" },
		{ "ripemd160", "rmd160" },
	};
	static const char *const ciph[3] = { "aes", "serpent", "twofish" };
	size_t n = 0;

	for (size_t i = 0; i < 4; i++, n++) {
		v[n] = (struct ref_row){ .bits = 0, .dir = "derive",
		                         .kind = K_PBKDF2, .want = "cryptsetup" };
		snprintf(v[n].name, sizeof v[n].name, "PBKDF2-%s", kdf[i][0]);
		snprintf(v[n].alg, sizeof v[n].alg, "pbkdf2(hmac(%s))", kdf[i][1]);
	}
	for (size_t i = 0; i < 2; i++, n++) {
		v[n] = (struct ref_row){ .bits = 0, .dir = "derive",
		                         .kind = K_ARGON2, .want = "cryptsetup" };
		snprintf(v[n].name, sizeof v[n].name, "%s", i ? "argon2id" :
		         "argon2i");
		snprintf(v[n].alg, sizeof v[n].alg, "%s", i ? "argon2id" :
		         "argon2i");
	}
	for (int k = 0; k < 4; k++)
		for (int c = 0; c < 3; c++)
			for (int d = 0; d < 2; d++, n++) {
				const char *mode = k < 2 ? "cbc" : "xts";

				v[n] = (struct ref_row){ .dir = d ? "decrypt" : "encrypt",
				    .bits = (unsigned[]){ 128, 256, 256, 512 }[k],
				    .kind = K_CIPHER, .want = "kernel" };
				snprintf(v[n].alg, sizeof v[n].alg, "%s(%s)", mode, ciph[c]);
				snprintf(v[n].name, sizeof v[n].name, "%s-%s %ub %s",
				         ciph[c], mode, (unsigned)v[n].bits,
				         d ? "decryption" : "encryption");
			}
	return n;
}

/* ---- the other tools' points: each library against the host's --------- */

/* The host's backend for a reference's library, or NULL: none of the
 * host's is that library (bssl: the host's fastest stands in). */
static const char *host_backend(const char *ref)
{
	static const char *const m[][2] = {
		{ "openssl", "openssl" }, { "gcrypt", "gcrypt" },
		{ "nettle", "nettle" }, { "native", "native" },
		{ "mbedtls", "mbedtls" }, { "kernel", "kernel" },
		{ "kernel-tcrypt", "kernel" },
	};

	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
		if (!strcmp(m[i][0], ref))
			return m[i][1];
	return NULL;
}

/* A reference point the cryptsetup tables leave to this section: a
 * measured cipher or MAC point, not a cryptsetup row, not geli's dd. */
static int other_point(const struct cmp_point *q)
{
	return !strcmp(q->status, "ok") && strcmp(q->direction, "derive") &&
	       strcmp(q->tool, "dd") && strcmp(q->backend, "cryptsetup") &&
	       strcmp(q->backend, "freebsd-geli") &&
	       !(!strcmp(q->backend, "kernel") && q->block_bytes == 65536);
}

/* The host's point for reference point q: same algorithm, key size,
 * direction, sector size, threads, and request size and IV mode (for
 * bench-slope's slope, block 0, the host's largest request); from backend
 * be, or the fastest when be is NULL. */
static const struct cmp_point *host_match(const struct cmp_side *h,
                                          const struct cmp_point *q,
                                          const char *be)
{
	const struct cmp_point *best = NULL;

	for (size_t i = 0; i < h->npts; i++) {
		const struct cmp_point *p = &h->pts[i];

		if (strcmp(p->status, "ok") || strcmp(p->alg, q->alg) ||
		    p->key_bits != q->key_bits || strcmp(p->direction,
		    q->direction) || p->sector_bytes != q->sector_bytes ||
		    p->threads != q->threads || (be && strcmp(p->backend, be)) ||
		    (q->block_bytes && (p->block_bytes != q->block_bytes ||
		     strcmp(p->iv_mode, q->iv_mode))))
			continue;
		if (!best || (!q->block_bytes && p->block_bytes !=
		    best->block_bytes ? p->block_bytes > best->block_bytes :
		    p->median > best->median))
			best = p;
	}
	return best;
}

/* One library's line: n ratios q (sorted), their median med, hb the
 * host's backend matched. */
struct other {
	const char *be, *hb;
	const double *q;
	size_t n;
	double med;
};

static void other_csv(FILE *f, const struct ref_src *s,
                      const struct ref_src *host, const struct other *x)
{
	char ghz[24] = "", ratio[32], pg[32] = "", np[24], lo[32], hi[32];
	const char *c[NCOLS] = { "library", x->be, "ratio", "", "",
	                         base(s->path), s->cpu, ghz, "", ratio, pg, "",
	                         x->hb, host_backend(x->be) ? "0" : "1", np, lo,
	                         hi };

	if (s->ghz > 0)
		snprintf(ghz, sizeof ghz, "%.3f", s->ghz);
	snprintf(ratio, sizeof ratio, "%.4f", x->med);
	if (!isnan(per_ghz(x->med, s, host)))
		snprintf(pg, sizeof pg, "%.4f", per_ghz(x->med, s, host));
	snprintf(np, sizeof np, "%zu", x->n);
	snprintf(lo, sizeof lo, "%.4f", x->q[0]);
	snprintf(hi, sizeof hi, "%.4f", x->q[x->n - 1]);
	csv_line(f, c);
}

static void other_text(FILE *f, const struct ref_src *s,
                       const struct ref_src *host, const struct other *x)
{
	fprintf(f, "  %-32.32s %-29.29s %-9s %4zu %7.2f  %5.2f-%-6.2f",
	        base(s->path), s->cpu, x->be, x->n, x->med, x->q[0],
	        x->q[x->n - 1]);
	if (!isnan(per_ghz(x->med, s, host)))
		fprintf(f, "  %5.2f", per_ghz(x->med, s, host));
	else
		fputs("      -", f);
	fprintf(f, "  %s%s\n", host_backend(x->be) ? "" : "stand-in ", x->hb);
}

/* A reference file's points of library be against the host's: one line,
 * the median ratio of that implementation pair; 1 when any matched. */
static int other_line(const struct ref_out *o, const struct ref_src *s,
                      const char *be, const struct ref_src *host)
{
	double *q = cb_xcalloc(s->side.npts + 1, sizeof *q);
	struct other x = { be, NULL, q, 0, 0 };

	for (size_t i = 0; i < s->side.npts; i++) {
		const struct cmp_point *p = &s->side.pts[i], *h;

		if (!other_point(p) || strcmp(p->backend, be))
			continue;
		h = host_match(&host->side, p, host_backend(p->backend));
		if (!h || h->median <= 0 || p->median <= 0)
			continue;
		x.hb = h->backend;
		q[x.n++] = h->median / p->median;
	}
	if (x.n) {
		cb_stats_sort(q, x.n);
		x.med = cb_stats_median(q, x.n);
		(o->csv ? other_csv : other_text)(o->f, s, host, &x);
	}
	free(q);
	return x.n > 0;
}

/* Each library of file s against the host's, in the order the file has
 * them: one line each; how many lines. */
static size_t other_file(const struct ref_out *o, const struct ref_src *s,
                         const struct ref_src *host)
{
	size_t got = 0;

	for (size_t i = 0; i < s->side.npts; i++) {
		const char *be = s->side.pts[i].backend;
		size_t k = 0;

		while (k < i && strcmp(s->side.pts[k].backend, be))
			k++;
		if (k == i && other_point(&s->side.pts[i]))
			got += (size_t)other_line(o, s, be, host);
	}
	return got;
}

/* The heading of the section after the tables. */
static void other_head(FILE *f)
{
	fputs("\nthe libraries' own points (openssl speed, bssl speed, "
	      "bench-slope, tcrypt, cryptobench):\neach reference library "
	      "against the host's same library (bssl: the host's fastest "
	      "stands in),\nmatched by algorithm, key, request size (a slope: "
	      "the host's largest), IV mode, sector;\nratio host / reference, "
	      "the median over the points of that one pair, its range\n", f);
	fprintf(f, "  %-32s %-29s %-9s %4s %7s  %-12s  %5s  %s\n", "source",
	        "cpu", "library", "pts", "ratio", "range", "/GHz", "host's");
}

/* The section after the tables: the libraries' own points (openssl
 * speed, bssl speed, bench-slope, tcrypt, cryptobench runs); how many
 * files had any. */
static size_t other_tools(const struct ref_out *o, const struct ref_src *src,
                          size_t n, const struct ref_src *host)
{
	size_t got = 0;

	if (!o->csv)
		other_head(o->f);
	for (size_t i = 0; i < n; i++)
		got += other_file(o, &src[i], host) > 0;
	if (!got && !o->csv)
		fputs("  (none: this host's file has no point of theirs)\n", o->f);
	return got;
}

/* What the tables are, above them. */
static void preamble(FILE *f, const char *dir, size_t n,
                     const struct ref_src *host)
{
	fprintf(f, "this host: %s (%s", host->path, host->cpu);
	if (host->ghz > 0)
		fprintf(f, ", %.2f GHz", host->ghz);
	fprintf(f, ") among %zu reference files in %s\n", n, dir);
	fputs("each cryptsetup benchmark line: a cipher row is the kernel's best "
	      "driver on each side (64 KiB\nrequests); a KDF line is "
	      "cryptsetup's own (Argon2: its cost for the time, as MiB filled a\n"
	      "second by one lane); ratio = host / reference; per GHz = the "
	      "same over each side's clock,\nwhere both are known; unsure: a "
	      "side has no spread (one value) - see docs/compare.md\n", f);
}

/* Place the host file among the reference files; prints, returns the
 * exit code (0 placed, 2 a bad file, 77 nothing placed). */
static int place_all(const struct ref_out *o, const char *dir,
                     struct ref_src *src, size_t n, struct ref_src *host)
{
	FILE *f = o->csv ? stderr : o->f;   /* CSV: the summary to stderr */
	struct ref_row rows[32];
	size_t nr = ref_rows(rows), got[3] = { 0 }, all[3] = { 0 };
	size_t cipher_rows = 0, others;
	int enc = 0;

	if (o->csv)
		csv_line(o->f, csv_cols);
	else
		preamble(f, dir, n, host);
	for (size_t i = 0; i < nr; i++) {
		int ok = place_row(o, src, n, host, &rows[i]);

		got[rows[i].kind] += (size_t)ok;
		all[rows[i].kind]++;
		if (rows[i].kind == K_CIPHER && rows[i].dir[0] == 'e')
			enc = ok;       /* a row is placed in either direction */
		else if (rows[i].kind == K_CIPHER)
			cipher_rows += enc || ok;
	}
	others = other_tools(o, src, n, host);
	fprintf(f, "%splaced: %zu of 12 cipher rows (%zu of %zu directions), "
	        "%zu of %zu PBKDF2 lines, %zu of %zu Argon2 lines\n",
	        o->csv ? "compare --reference: " : "\n", cipher_rows,
	        got[K_CIPHER], all[K_CIPHER], got[K_PBKDF2], all[K_PBKDF2],
	        got[K_ARGON2], all[K_ARGON2]);
	if (others)
		fprintf(f, "and %zu reference files' own points\n", others);
	return got[0] + got[1] + got[2] + others ? CB_EXIT_OK : CB_EXIT_SKIP;
}

/* Whether path resolves to one of the n resolved paths h (NULLs skipped). */
static int is_one_of(const char *path, char *const *h, size_t n)
{
	char *r = realpath(path, NULL);
	int same = 0;

	for (size_t i = 0; r && i < n && !same; i++)
		same = h[i] && !strcmp(r, h[i]);
	free(r);
	return same;
}

/* Leave the host's own files out of the library, if they are in it. */
static void drop_same(char **files, size_t *n, const struct cmp_side *host)
{
	char **h = cb_xcalloc(host->nfiles + 1, sizeof *h);
	size_t k = 0;

	for (size_t i = 0; i < host->nfiles; i++)
		h[i] = realpath(host->paths[i], NULL);
	for (size_t i = 0; i < *n; i++)
		if (is_one_of(files[i], h, host->nfiles))
			free(files[i]);
		else
			files[k++] = files[i];
	*n = k;
	for (size_t i = 0; i < host->nfiles; i++)
		free(h[i]);
	free(h);
}

/* The host file and DIR's files into sources; 0 or -EINVAL after a
 * message naming the file. */
static int load_all(const char *dir, const struct cmp_ref_host *hp,
                    struct ref_src *host, struct ref_src **src, size_t *n)
{
	char **files;
	int rc = src_load(host, hp->paths, hp->n);

	*src = NULL;
	*n = 0;
	if (rc < 0)
		return rc;
	if (!host->side.npts) {
		cb_err("compare --reference: %s%s: no measured point in %s",
		       hp->paths[0], hp->n > 1 ? " ..." : "", hp->n > 1 ?
		       "them" : "it");
		return -EINVAL;
	}
	files = dir_files(dir, n);
	if (!files)
		return -EINVAL;
	drop_same(files, n, &host->side);
	*src = cb_xcalloc(*n, sizeof **src);
	for (size_t i = 0; i < *n; i++)  /* the sources own the paths */
		(*src)[i].path = files[i];
	for (size_t i = 0; i < *n && rc == 0; i++)
		rc = src_load(&(*src)[i], &(*src)[i].path, 1);
	free(files);
	return rc;
}

static void free_all(struct ref_src *src, size_t n, struct ref_src *host)
{
	for (size_t i = 0; i < n; i++) {
		free((char *)src[i].path);
		cmp_side_free(&src[i].side);
	}
	free(src);
	cmp_side_free(&host->side);
}

int cmp_reference(const char *dir, const struct cmp_ref_host *hp, int csv,
                  FILE *out)
{
	struct ref_out o = { out, csv };
	struct ref_src host = { 0 }, *src = NULL;
	size_t n = 0;
	struct stat st;
	int rc;

	if (!dir)
		dir = cmp_ref_default_dir();
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		cb_err("compare --reference: %s: %s (the reference directory)",
		       dir, stat(dir, &st) < 0 ? strerror(errno) :
		       "not a directory");
		return CB_EXIT_USAGE;
	}
	rc = load_all(dir, hp, &host, &src, &n);
	rc = rc < 0 ? CB_EXIT_USAGE : place_all(&o, dir, src, n, &host);
	free_all(src, n, &host);
	return rc;
}

/* One placed line as bars: XTS-AES-512 encryption (LUKS2's default
 * cipher), else the first cipher row the host has, else the first KDF. */
static size_t chart_bars(struct ref_src *src, size_t n, struct ref_src *host,
                         struct cmp_ref_chart *c)
{
	struct ref_row rows[32];
	struct ref_src **order = cb_xcalloc(n + 1, sizeof *order);
	size_t nr = ref_rows(rows), m = 0, pref[33], np = 0;

	for (size_t i = 0; i < nr; i++)
		if (!strcmp(rows[i].name, "aes-xts 512b encryption"))
			pref[np++] = i;
	for (int kind = K_CIPHER; kind <= K_ARGON2; kind++)
		for (size_t i = 0; i < nr && np < 33; i++)
			if (rows[i].kind == kind)
				pref[np++] = i;
	for (size_t k = 0; k < np && !m; k++) {
		const struct ref_row *r = &rows[pref[k]];

		m = gather(src, n, host, r, order);
		memcpy(c->title, r->name, sizeof c->title);
		c->unit = units[r->kind];
	}
	if (m)
		snprintf(c->impl, sizeof c->impl, "%s %s%s", host->val.p->backend,
		         host->val.p->driver, host->val.standin ? " (no kernel "
		         "driver or cryptsetup line on this host: its fastest "
		         "backend stands in)" : "");
	c->bars = cb_xcalloc(m + 1, sizeof *c->bars);
	for (size_t i = 0; i < m; i++) {
		struct cmp_ref_bar *b = &c->bars[i];

		b->host = order[i] == host;
		b->v = order[i]->val.v;
		snprintf(b->label, sizeof b->label, "%s%s", b->host ?
		         "this host: " : "", b->host ? base(host->path) :
		         order[i]->cpu);
		snprintf(b->source, sizeof b->source, "%s", base(order[i]->path));
	}
	free(order);
	return c->nbars = m;
}

int cmp_ref_chart(const char *dir, const char *hostpath,
                  struct cmp_ref_chart *c)
{
	struct ref_src host = { 0 }, *src = NULL;
	struct cmp_ref_host hp = { &hostpath, 1 };
	struct stat st;
	size_t n = 0;
	int rc;

	memset(c, 0, sizeof *c);
	if (!dir)
		dir = cmp_ref_default_dir();
	snprintf(c->dir, sizeof c->dir, "%s", dir);
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return -ENOENT;      /* no library: the report says so, quietly */
	rc = load_all(dir, &hp, &host, &src, &n);
	if (rc == 0)
		c->nsrcs = n, chart_bars(src, n, &host, c);
	free_all(src, n, &host);
	return rc < 0 ? rc : c->nbars ? 0 : -ENOENT;
}
