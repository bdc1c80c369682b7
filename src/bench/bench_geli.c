/*
 * bench_geli.c - bench's geli matrix: the seed report's 17 configurations
 * (the baseline, six ciphers, five HMACs with aes and with null) through
 * `cryptobench dd`, on every backend, each run as its own process (as a
 * user would run it), rows appended to one CSV by dd's --csv, which
 * bench_geli_results() reads back as results for the JSON file.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "foundation/acct.h"
#include "core/cb.h"
#include "foundation/csv.h"
#include "output/output.h"
#include "output/result.h"
#include "foundation/stats.h"
#include "system/sysinfo.h"
#include "foundation/timing.h"
#include "foundation/util.h"

/* The seed's matrix in its order (scripts/bench-geli runs the same), then
 * dm-crypt's two default mappings (cryptsetup's lines, 512-byte sectors). */
static const char *const geli_cfgs[][6] = {
	{ "-e", "none" },
	{ "-e", "aes", "-l", "256" }, { "-e", "aes", "-l", "128" },
	{ "-e", "blowfish" }, { "-e", "camellia" }, { "-e", "3des" },
	{ "-e", "null" },
	{ "-e", "aes", "-l", "256", "-a", "hmac/sha512" },
	{ "-e", "null", "-l", "256", "-a", "hmac/sha512" },
	{ "-e", "aes", "-l", "256", "-a", "hmac/sha256" },
	{ "-e", "null", "-l", "256", "-a", "hmac/sha256" },
	{ "-e", "aes", "-l", "256", "-a", "hmac/sha1" },
	{ "-e", "null", "-l", "256", "-a", "hmac/sha1" },
	{ "-e", "aes", "-l", "256", "-a", "hmac/ripemd160" },
	{ "-e", "null", "-l", "256", "-a", "hmac/ripemd160" },
	{ "-e", "aes", "-l", "256", "-a", "hmac/md5" },
	{ "-e", "null", "-l", "256", "-a", "hmac/md5" },
	{ "-e", "aes-xts-plain64", "-l", "512" },
	{ "-e", "aes-cbc-essiv:sha256", "-l", "256" },
};
#define NGELI (sizeof geli_cfgs / sizeof geli_cfgs[0])
#define NSEED 17                 /* the seed's own configurations        */

/* A sample's data: enough to time a thread pipeline (a 5 MiB run took
 * 0.5-1 ms and put AES-XTS-128 below -256); the first round sizes it. */
#define CAL_COUNT   8            /* records of the calibrating run       */
#define CAL_SHORT   0.002        /* shorter: run 16 times that           */
#define MIN_COUNT   2
#define MAX_COUNT   4000

struct cell {
	size_t b, c;                 /* backend, configuration              */
	uint64_t count;              /* records a sample                    */
	struct cb_csv first;         /* the first sample's row              */
	double *ops;                 /* records/s of each sample            */
	unsigned n;
	int ok;
};

int bench_stopped(void)
{
	return cb_stop != 0;
}

size_t bench_geli_configs(void)
{
	return NGELI;
}

/* One dd run of count records, its row written to csv; exit status.
 * The gate (the sector-transform vectors) runs in a cell's first run,
 * the calibrating one: its samples are the same binary and backend. */
static int geli_one(const char *self, const struct cell *x, uint64_t count,
                    const struct bench_geli_opts *g, const char *csv,
                    const char *err)
{
	char cnt[64], *argv[24];
	int n = 0;

	snprintf(cnt, sizeof cnt, "count=%llu", (unsigned long long)count);
	argv[n++] = "cryptobench";
	argv[n++] = "dd";
	for (int j = 0; j < 6 && geli_cfgs[x->c][j]; j++)
		argv[n++] = (char *)geli_cfgs[x->c][j];
	if (x->c && x->c < NSEED) {
		argv[n++] = "-s";
		argv[n++] = "4096";
	}
	argv[n++] = "bs=1m";
	argv[n++] = cnt;
	argv[n++] = "--backend";
	argv[n++] = (char *)g->backends[x->b];
	argv[n++] = "--csv";
	argv[n++] = (char *)csv;
	if (g->no_gate || x->ok)
		argv[n++] = "--no-gate";
	argv[n] = NULL;
	unlink(csv);
	return cb_spawn(self, argv, "/dev/null", err);
}

/* One sample of cell x into x->ops (keeping the row of the first):
 * its seconds, or -1 when dd wrote no row (the backend lacks it). */
static double geli_sample(const char *self, struct cell *x, uint64_t count,
                          const struct bench_geli_opts *g, const char *tmp,
                          const char *err, int keep)
{
	struct cb_csv c;
	struct cb_result r = { 0 };
	double t;

	if (geli_one(self, x, count, g, tmp, err) != 0 || cb_csv_read(&c, tmp) < 0)
		return -1;
	if (c.nrows != 1) {
		cb_csv_free(&c);
		return -1;
	}
	bench_csv_result(&c, &c.rows[0], &r);
	t = r.seconds;
	if (t > 0)
		cb_acct_add(CB_ACCT_DD_DATA, (uint64_t)(t * 1e9));
	if (r.status != CB_RES_OK || !(r.bytes_per_sec > 0) || !r.block_bytes) {
		cb_csv_free(&c);
		return -1;
	}
	if (keep) {
		x->ops = cb_xrealloc(x->ops, (x->n + 1) * sizeof *x->ops);
		x->ops[x->n++] = r.bytes_per_sec / (double)r.block_bytes;
	}
	if (keep && !x->first.nrows)
		x->first = c;
	else
		cb_csv_free(&c);
	return t;
}

/* The calibrating round: which cells run, and each one's sample size
 * (target seconds of data); returns the round's seconds. */
static double calibrate(const char *self, struct cell *cells, size_t n,
                        const struct bench_geli_opts *g, const char *tmp,
                        const char *err, size_t *nok, size_t *nfail)
{
	double t0 = cb_now_s(), t;

	for (size_t i = 0; i < n && !bench_stopped(); i++) {
		struct cell *x = &cells[i];
		double want;

		if (g->progress)
			g->progress(g->arg, i, n, g->backends[x->b], geli_cfgs[x->c][1]);
		if ((t = geli_sample(self, x, CAL_COUNT, g, tmp, err, 0)) < 0) {
			(*nfail)++;        /* the backend lacks it: no row */
			continue;
		}
		(*nok)++;
		x->ok = 1;
		if (t < CAL_SHORT)         /* thread start-up, not the rate */
			t = geli_sample(self, x, CAL_COUNT * 16, g, tmp, err, 0) / 16;
		want = t > 0 ? g->sample_sec / t * CAL_COUNT : MAX_COUNT;
		x->count = want < MIN_COUNT ? MIN_COUNT : want > MAX_COUNT
		           ? MAX_COUNT : (uint64_t)want;
	}
	return cb_now_s() - t0;
}
/* The 95 % CI bound of the median of sorted s[0..n): hi 0 low, 1 high,
 * in bytes/s of 1 MiB records. */
static double dd_ci(const double *s, size_t n, int hi)
{
	double lo, up;

	cb_stats_median_ci(s, n, &lo, &up);
	return (hi ? up : lo) * (double)(1u << 20);
}

/* A cell's result from its samples, as one CSV row with them. */
static void cell_row(FILE *f, const struct cell *x)
{
	struct cb_result r = { 0 };
	struct cb_stats st;
	double *s = cb_xmalloc(x->n * sizeof *s);

	memcpy(s, x->ops, x->n * sizeof *s);
	bench_csv_result(&x->first, &x->first.rows[0], &r);
	if (cb_stats_summary(s, x->n, &st) < 0)
		st.median = st.lo = st.hi = st.mad = NAN;
	r.samples = s;
	r.reps = x->n;
	r.ops_per_sec = st.median;
	r.ci_low_ops = st.lo;
	r.ci_high_ops = st.hi;
	r.mad_ops = st.mad;
	r.noisy = cb_stats_noisy(&st);
	r.rel_spread = cb_rel_spread(s, x->n);
	r.bytes_per_sec = r.ops_per_sec * (double)r.block_bytes;
	r.ns_per_byte = 1e9 / r.bytes_per_sec;
	r.cycles_per_byte = r.ghz > 0 ? r.ns_per_byte * r.ghz : NAN;
	cb_csv_row(f, cb_prov(), &r);
	free(s);
}

/* The cells' rows into g->csv (replaced).  0, or -1 (message). */
static int write_cells(const struct bench_geli_opts *g, const struct cell *cells,
                       size_t n)
{
	FILE *f = fopen(g->csv, "w");
	int rc;

	if (!f) {
		cb_err("bench: %s: %s", g->csv, strerror(errno));
		return -1;
	}
	cb_csv_header(f);
	for (size_t i = 0; i < n; i++)
		if (cells[i].n)
			cell_row(f, &cells[i]);
	rc = ferror(f) | fclose(f);
	if (rc)
		cb_err("bench: writing %s failed", g->csv);
	return rc ? -1 : 0;
}

/* Sampling rounds, round robin over the cells that ran, until the time
 * is spent (and at least g->rounds), at most g->max_rounds. */
static void sample_rounds(const char *self, struct cell *cells, size_t n,
                          const struct bench_geli_opts *g, const char *tmp,
                          const char *err)
{
	double t0 = cb_now_s();

	for (unsigned k = 0; k < g->max_rounds && !bench_stopped(); k++) {
		if (k >= g->rounds && cb_now_s() - t0 >= g->seconds)
			break;
		for (size_t i = 0; i < n && !bench_stopped(); i++) {
			if (!cells[i].ok)
				continue;
			if (g->progress)
				g->progress(g->arg, k * n + i, g->max_rounds * n,
				            g->backends[cells[i].b],
				            geli_cfgs[cells[i].c][1]);
			geli_sample(self, &cells[i], cells[i].count, g, tmp, err, 1);
		}
	}
}

/* Cell x's median as the lines of the tool its dd stands in for: the
 * samples' bytes moved at the median rate (docs/dd.md). */
static void cell_lines(FILE *f, const struct cell *x)
{
	const char *const *a = geli_cfgs[x->c];
	int dm = x->c >= NSEED;
	struct cb_dd_run d = { .ealg = a[1], .provider = dm ? "/dev/sdX"
	                       : "mirror/gm0", .in = "/dev/zero",
	                       .out = "/dev/mirror/gm0", .bs_text = "1m" };
	struct cb_report rep = { .prov = cb_prov(), .n = 1, .dd = &d };
	struct cb_result r = { 0 };
	double *s = cb_xmalloc(x->n * sizeof *s);

	memcpy(s, x->ops, x->n * sizeof *s);
	cb_stats_sort(s, x->n);
	bench_csv_result(&x->first, &x->first.rows[0], &r);
	for (int j = 2; j + 1 < 6 && a[j]; j += 2) {
		if (!strcmp(a[j], "-l"))
			d.key_bits = (unsigned)atoi(a[j + 1]), d.key_bits_given = 1;
		else if (!strcmp(a[j], "-a"))
			d.aalg = a[j + 1];
	}
	d.sector_size = dm ? 512 : 4096;
	d.count = x->count;
	d.full_in = d.full_out = x->count;
	r.bytes_total = x->count << 20;
	r.seconds = (double)r.bytes_total / (cb_stats_median(s, x->n) *
	                                     (double)(1u << 20));
	rep.res = &r;
	cb_writer_find(!x->c ? "dd" : dm ? "cryptsetup" : "geli")->write(f, &rep);
	fprintf(f, "  (median of %u samples, 95 %% CI %.0f to %.0f bytes/sec)\n",
	        x->n, dd_ci(s, x->n, 0), dd_ci(s, x->n, 1));
	free(s);
}

/* The seed's layout, per backend, from the cells' medians. */
static void print_lines(FILE *f, const struct bench_geli_opts *g,
                        const struct cell *cells, size_t n)
{
	static const char *const head[NGELI] = {
		[0] = "Baseline:", [1] = "***\nVaried encryption algorithms:",
		[7] = "***\nVaried authentication algorithms:",
		[NSEED] = "***\ndm-crypt (cryptsetup benchmark's defaults):",
	};

	for (size_t i = 0; i < n; i++) {
		const struct cell *x = &cells[i];

		if (!x->c)
			fprintf(f, "%s== %s ==\n", i ? "\n" : "", g->backends[x->b]);
		if (head[x->c])
			fprintf(f, "%s%s\n", x->c ? "\n" : "", head[x->c]);
		else
			fputc('\n', f);
		if (x->n)
			cell_lines(f, x);
		else
			fprintf(f, "(%s: not available on %s)\n", geli_cfgs[x->c][1],
			        g->backends[x->b]);
	}
	fflush(f);
}

int bench_geli(const struct bench_geli_opts *g, size_t *nok, size_t *nfail)
{
	char self[4096], err[4200], tmp[4200];
	size_t n = g->nbackends * NGELI;
	struct cell *cells = cb_xcalloc(n ? n : 1, sizeof *cells);
	int rc;

	*nok = *nfail = 0;
	if (cb_exe_path(self, sizeof self) < 0) {
		cb_err("bench: cannot find my own binary: %s", strerror(errno));
		free(cells);
		return -1;
	}
	snprintf(err, sizeof err, "%s.err", g->csv);
	snprintf(tmp, sizeof tmp, "%s.one", g->csv);
	if (cb_prov()->ghz > 0) {        /* each dd records it, unmeasured */
		char ghz[32];

		snprintf(ghz, sizeof ghz, "%.4f", cb_prov()->ghz);
		setenv("CRYPTOBENCH_GHZ", ghz, 1);
	}
	for (size_t i = 0; i < n; i++)
		cells[i].b = i / NGELI, cells[i].c = i % NGELI;
	calibrate(self, cells, n, g, tmp, err, nok, nfail);
	sample_rounds(self, cells, n, g, tmp, err);
	unlink(err);
	unlink(tmp);
	rc = write_cells(g, cells, n);
	if (g->lines)
		print_lines(g->lines, g, cells, n);
	for (size_t i = 0; i < n; i++) {
		cb_csv_free(&cells[i].first);
		free(cells[i].ops);
	}
	free(cells);
	return rc;
}

/* A number column of a dd row: NaN when empty (not known). */
static double dd_num(const struct cb_csv *c, const struct cb_csv_rec *row,
                     const char *name)
{
	const char *v = cb_csv_get(c, row, name);
	double d;

	return v && *v && cb_csv_number(v, &d) == 0 ? d : NAN;
}

static const char *dd_str(const struct cb_csv *c, const struct cb_csv_rec *row,
                          const char *name)
{
	const char *v = cb_csv_get(c, row, name);

	return v ? v : "";
}

/* The columns of a row (dd's, or a --part's speed rows) that become
 * result fields, and their types:
 * s a string (into the CSV), d a double (NaN when empty), u unsigned,
 * q uint64_t. */
#define COL(name, type) { #name, offsetof(struct cb_result, name), type }
static const struct {
	const char *name;
	size_t off;
	char type;
} row_cols[] = {
	COL(tool, 's'), COL(backend, 's'), COL(backend_version, 's'),
	COL(backend_details, 's'), COL(driver, 's'), COL(alg, 's'),
	COL(auth, 's'), COL(direction, 's'), COL(iv_mode, 's'),
	COL(key_bits, 'u'), COL(threads, 'u'), COL(reps, 'u'),
	COL(block_bytes, 'q'), COL(sector_bytes, 'q'), COL(bytes_total, 'q'),
	COL(ops_per_sec, 'd'), COL(bytes_per_sec, 'd'), COL(ns_per_byte, 'd'),
	COL(cycles_per_byte, 'd'), COL(ghz, 'd'), COL(overhead_ns, 'd'),
	COL(slope_ns_per_byte, 'd'), COL(rel_spread, 'd'), COL(seconds, 'd'),
	COL(ghz_drift, 'd'), COL(shared, 'd'), COL(mb, 'u'), COL(contended, 'u'),
	COL(ct_verdict, 's'), COL(ct_method, 's'), COL(ct_t, 'd'),
	COL(ct_measurements, 'q'), COL(ct_branches, 'u'), COL(ct_indexes, 'u'),
	COL(ct_places, 's'), COL(ct_note, 's'),
};
#undef COL

void bench_csv_result(const struct cb_csv *c, const struct cb_csv_rec *row,
                      struct cb_result *r)
{
	const char *st = dd_str(c, row, "status");

	for (size_t i = 0; i < sizeof row_cols / sizeof row_cols[0]; i++) {
		char *f = (char *)r + row_cols[i].off;
		double v = dd_num(c, row, row_cols[i].name);

		switch (row_cols[i].type) {
		case 's': *(const char **)f = dd_str(c, row, row_cols[i].name); break;
		case 'u': *(unsigned *)f = isnan(v) ? 0 : (unsigned)v; break;
		case 'q': *(uint64_t *)f = isnan(v) ? 0 : (uint64_t)v; break;
		default: *(double *)f = v; break;
		}
	}
	r->status = !strcmp(st, "ok") ? CB_RES_OK : !strcmp(st, "skipped")
	            ? CB_RES_SKIP : CB_RES_FAIL;
	r->why = dd_str(c, row, "error");
	snprintf(r->timestamp, sizeof r->timestamp, "%s",
	         dd_str(c, row, "timestamp"));
}

int bench_geli_results(const char *path, struct cb_csv *c,
                       struct cb_result **res, size_t *n)
{
	int rc;

	*res = NULL;
	*n = 0;
	memset(c, 0, sizeof *c);
	if (access(path, F_OK) != 0)
		return 0;                /* no dd run wrote a row */
	if ((rc = cb_csv_read(c, path)) < 0) {
		cb_err("bench: reading the dd rows: %s",
		       rc == -EINVAL ? c->err : strerror(-rc));
		return -1;
	}
	*res = cb_xcalloc(c->nrows ? c->nrows : 1, sizeof **res);
	for (size_t i = 0; i < c->nrows; i++) {
		struct cb_result *r = &(*res)[(*n)++];
		const char *v = cb_csv_get(c, &c->rows[i], "sample_ops");
		double *s = NULL;
		size_t ns = 0;
		char bad[64];

		bench_csv_result(c, &c->rows[i], r);
		if (v && *v && cb_csv_numbers(v, &s, &ns, bad, sizeof bad) == 0) {
			r->samples = s;     /* the caller frees them */
			r->reps = (unsigned)ns;
			r->ci_low_ops = dd_num(c, &c->rows[i], "ci_low_ops");
			r->ci_high_ops = dd_num(c, &c->rows[i], "ci_high_ops");
			r->mad_ops = dd_num(c, &c->rows[i], "mad_ops");
		}
	}
	return 0;
}
