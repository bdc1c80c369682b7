/*
 * bench_geli.c - bench's geli matrix: the seed report's 17 configurations
 * (the baseline, six ciphers, five HMACs with aes and with null) and
 * dm-crypt's two, through dd's pipeline on every backend.  Each sample is
 * one dd run in this process (dd_run.c: a freshly keyed transform, its
 * ring and thread, count 1 MiB records of zeros), as `cryptobench dd
 * ... bs=1m count=N` makes it; a cell's samples become one result.
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
#include "dd/dd_run.h"
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
	struct dd_zero_out first;    /* the first kept sample's row         */
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

/* One dd run of cell x, count records, into *o; 0 or -1 (the backend
 * lacks it).  The gate (the sector-transform vectors) runs in a cell's
 * first run, the calibrating one: its samples are the same backend. */
static int geli_one(const struct cell *x, uint64_t count,
                    const struct bench_geli_opts *g, struct dd_zero_out *o)
{
	const char *const *a = geli_cfgs[x->c];
	struct dd_zero z = { .ealg = a[1], .backend = g->backends[x->b],
	                     .count = count, .ghz = cb_prov()->ghz > 0
	                     ? cb_prov()->ghz : NAN,
	                     .gate = !g->no_gate && !x->ok,
	                     .gate_out = stderr };

	for (int j = 2; j + 1 < 6 && a[j]; j += 2) {
		if (!strcmp(a[j], "-l"))
			z.key_bits = (unsigned)atoi(a[j + 1]);
		else if (!strcmp(a[j], "-a"))
			z.aalg = a[j + 1];
	}
	if (x->c && x->c < NSEED)
		z.sector = 4096;
	return dd_zero_run(&z, o);
}

/* One sample of cell x into x->ops (keeping the row of the first):
 * its seconds, or -1 when dd made no row (the backend lacks it). */
static double geli_sample(struct cell *x, uint64_t count,
                          const struct bench_geli_opts *g, int keep)
{
	struct dd_zero_out o;
	const struct cb_result *r = &o.r;

	if (geli_one(x, count, g, &o) < 0)
		return -1;
	if (r->seconds > 0)
		cb_acct_add(CB_ACCT_DD_DATA, (uint64_t)(r->seconds * 1e9));
	if (r->status != CB_RES_OK || !(r->bytes_per_sec > 0) || !r->block_bytes)
		return -1;
	if (keep) {
		x->ops = cb_xrealloc(x->ops, (x->n + 1) * sizeof *x->ops);
		x->ops[x->n++] = r->bytes_per_sec / (double)r->block_bytes;
		if (x->n == 1) {
			x->first = o;
			x->first.r.driver = x->first.driver;
			x->first.r.alg = x->first.alg;
		}
	}
	return r->seconds;
}

/* A progress update (x NULL: the phase's last, done == total). */
static void progress(const struct bench_geli_opts *g, const char *phase,
                     size_t done, size_t total, size_t was, double left,
                     const struct cell *x)
{
	struct bench_progress p = { .phase = phase, .done = done,
	        .total = total, .was = was, .left = left,
	        .backend = x ? g->backends[x->b] : NULL,
	        .what = x ? geli_cfgs[x->c][1] : bench_stopped()
	                ? "interrupted" : "done" };

	g->progress(g->arg, &p);
}

/* The calibrating round: which cells run, and each one's sample size
 * (target seconds of data); returns the round's seconds. */
static double calibrate(struct cell *cells, size_t n,
                        const struct bench_geli_opts *g, size_t *nok,
                        size_t *nfail)
{
	double t0 = cb_now_s(), t;
	size_t i;

	for (i = 0; i < n && !bench_stopped(); i++) {
		struct cell *x = &cells[i];
		double want;

		if (g->progress)
			progress(g, "geli calibration", i, n, 0, i ? (cb_now_s() - t0)
			         / (double)i * (double)(n - i) : 0, x);
		if ((t = geli_sample(x, CAL_COUNT, g, 0)) < 0) {
			(*nfail)++;        /* the backend lacks it: no row */
			continue;
		}
		(*nok)++;
		x->ok = 1;
		if (t < CAL_SHORT)         /* thread start-up, not the rate */
			t = geli_sample(x, CAL_COUNT * 16, g, 0) / 16;
		want = t > 0 ? g->sample_sec / t * CAL_COUNT : MAX_COUNT;
		x->count = want < MIN_COUNT ? MIN_COUNT : want > MAX_COUNT
		           ? MAX_COUNT : (uint64_t)want;
	}
	if (g->progress)
		progress(g, "geli calibration", i, i, 0, 0, NULL);
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

/* A cell's result from its samples (they are the result's, and its
 * driver and algorithm strings: bench_geli_free). */
static void cell_result(const struct cell *x, struct cb_result *r)
{
	struct cb_stats st;
	double *s = cb_xmalloc(x->n * sizeof *s);

	memcpy(s, x->ops, x->n * sizeof *s);
	*r = x->first.r;
	r->driver = cb_xstrdup(x->first.driver);
	r->alg = cb_xstrdup(x->first.alg);
	if (cb_stats_summary(s, x->n, &st) < 0)
		st.median = st.lo = st.hi = st.mad = NAN;
	r->samples = s;
	r->reps = x->n;
	r->ops_per_sec = st.median;
	r->ci_low_ops = st.lo;
	r->ci_high_ops = st.hi;
	r->mad_ops = st.mad;
	r->noisy = cb_stats_noisy(&st);
	r->rel_spread = cb_rel_spread(s, x->n);
	r->bytes_per_sec = r->ops_per_sec * (double)r->block_bytes;
	r->ns_per_byte = 1e9 / r->bytes_per_sec;
	r->cycles_per_byte = r->ghz > 0 ? r->ns_per_byte * r->ghz : NAN;
}

void bench_geli_free(struct cb_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free((void *)res[i].samples);
		free((void *)res[i].driver);
		free((void *)res[i].alg);
	}
	free(res);
}

/* The rounds planned at round k, t seconds in (a round's cost so far, or
 * the calibrating round's, cal): until g->seconds are spent, at least
 * g->rounds, at most g->max_rounds (sample_rounds' rule). */
static unsigned rounds_planned(const struct bench_geli_opts *g, unsigned k,
                               double t, double cal)
{
	double per = k ? t / k : cal;
	double r = per > 0 ? ceil(g->seconds / per) : g->max_rounds;

	r = r < k ? k : r;
	return r < g->rounds ? g->rounds : r > g->max_rounds ? g->max_rounds
	       : (unsigned)r;
}

/* Sampling rounds, round robin over the cells that ran, until the time
 * is spent (and at least g->rounds), at most g->max_rounds; cal: the
 * calibrating round's seconds, the first guess of a round's. */
static void sample_rounds(struct cell *cells, size_t n,
                          const struct bench_geli_opts *g, double cal)
{
	double t0 = cb_now_s(), t;
	size_t nok = 0, done = 0, total = 0, was;
	unsigned k;

	for (size_t i = 0; i < n; i++)
		nok += cells[i].ok;
	for (k = 0; k < g->max_rounds && !bench_stopped(); k++) {
		if (k >= g->rounds && (t = cb_now_s() - t0) >= g->seconds)
			break;
		t = cb_now_s() - t0;
		was = total;
		total = rounds_planned(g, k, t, cal) * nok;
		was = was != total && k ? was : 0;
		for (size_t i = 0; i < n && !bench_stopped(); i++) {
			if (!cells[i].ok)
				continue;
			if (g->progress)
				progress(g, "geli samples", done, total, was, (double)(
				         total - done) * (k ? t / k / nok : cal / n), &cells[i]);
			was = 0;
			geli_sample(&cells[i], cells[i].count, g, 1);
			done++;
		}
	}
	if (g->progress)
		progress(g, "geli samples", done, done, total != done ? total : 0,
		         0, NULL);
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
	struct cb_result r = x->first.r;
	double *s = cb_xmalloc(x->n * sizeof *s);

	memcpy(s, x->ops, x->n * sizeof *s);
	cb_stats_sort(s, x->n);
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

int bench_geli(const struct bench_geli_opts *g, struct cb_result **res,
               size_t *nres, size_t *nok, size_t *nfail)
{
	size_t n = g->nbackends * NGELI;
	struct cell *cells = cb_xcalloc(n ? n : 1, sizeof *cells);

	*nok = *nfail = *nres = 0;
	for (size_t i = 0; i < n; i++)
		cells[i].b = i / NGELI, cells[i].c = i % NGELI;
	sample_rounds(cells, n, g, calibrate(cells, n, g, nok, nfail));
	*res = cb_xcalloc(n ? n : 1, sizeof **res);
	for (size_t i = 0; i < n; i++)
		if (cells[i].n)
			cell_result(&cells[i], &(*res)[(*nres)++]);
	if (g->lines)
		print_lines(g->lines, g, cells, n);
	for (size_t i = 0; i < n; i++)
		free(cells[i].ops);
	free(cells);
	return 0;
}
