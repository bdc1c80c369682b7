/*
 * tests/bench/anchor.c - the arithmetic of scripts/bench-anchor: native
 * AES-256-GCM against BoringSSL forced to the same --cpu level, from the
 * files the script's rounds wrote.
 *
 *   anchor [--bound LEVEL=C/B]... < MANIFEST
 *
 * MANIFEST: one line per file, "ROUND LEVEL SIDE FILE", SIDE native (a
 * `cryptobench --cpu LEVEL speed --format csv` of gcm(aes), 256-bit key)
 * or boringssl (a `bssl_bench --benchmark_format=csv` of BM_SpeedAEAD
 * seal/open_aes_256_gcm).  Each side of a round is reduced to the fastest
 * of its windows: the largest of native's sample_ops, the smallest of
 * BoringSSL's real_time repetitions (its aggregate rows, _mean and so on,
 * are not windows and are skipped).  On a shared host a window the core
 * was taken from reads slow on either side; the fastest of many short
 * ones is one that ran alone (for BoringSSL its real_time then equals its
 * cpu_time; the mean of real_time / cpu_time over all its windows is
 * printed per level as the load it ran under).  Per level, direction and size: the
 * per-round ratio BoringSSL ns/B over native ns/B (> 1: native faster),
 * its median over the rounds and the 95 % CI of that median
 * (cb_stats_median_ci: order statistics; under 6 rounds the range, with
 * the coverage it has); native's fraction of the level's AES+GHASH bound,
 * the --bound c/B (sysinfo's per-path line) over native's c/B at
 * cryptobench's clock (the CSV's ghz), median of the rounds; and issue
 * 42's target for the row.  Exit 0; 2 with FILE:LINE on a file that does
 * not hold every point of its side.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "foundation/csv.h"
#include "foundation/stats.h"

#define NLEVEL 4
#define NROUND 64
enum { SEAL, OPEN, NDIR };
enum { NATIVE, BSSL, NSIDE };
static const int sizes[] = { 16, 256, 1350, 8192, 16384 };
#define NSIZE (int)(sizeof sizes / sizeof sizes[0])

static char levels[NLEVEL][16];
static double bound[NLEVEL];            /* AES+GHASH c/B, 0: none given */
static double stretch[NLEVEL][2];   /* sums of real_time / cpu_time, count */
static int nlevel, nround, seen[NLEVEL];   /* seen: in the manifest */
/* ns a byte, fastest window; native's c/B beside it; NaN: not measured */
static double ns[NLEVEL][NSIDE][NDIR][NSIZE][NROUND];
static double cpb[NLEVEL][NDIR][NSIZE][NROUND];

static int level_index(const char *name)
{
	for (int i = 0; i < nlevel; i++)
		if (!strcmp(levels[i], name))
			return i;
	if (nlevel == NLEVEL || strlen(name) >= sizeof levels[0])
		return -1;
	snprintf(levels[nlevel], sizeof levels[0], "%s", name);
	return nlevel++;
}

static int size_index(long size)
{
	for (int i = 0; i < NSIZE; i++)
		if (sizes[i] == size)
			return i;
	return -1;
}

static int bad(const char *file, const char *what)
{
	fprintf(stderr, "anchor: %s: %s\n", file, what);
	return -1;
}

/* The largest of a native row's sample_ops (ops a second), or 0. */
static double fastest_ops(const char *field)
{
	double *v = NULL, m = 0;
	size_t n = 0;
	char tok[64];

	if (cb_csv_numbers(field, &v, &n, tok, sizeof tok) == 0)
		for (size_t i = 0; i < n; i++)
			m = v[i] > m ? v[i] : m;
	free(v);
	return m;
}

/* file read and checked against cols; 0, or -1 said */
static int open_csv(struct cb_csv *csv, const char *file,
                    const struct cb_csv_col *cols)
{
	if (cb_csv_read(csv, file) || cb_csv_check(csv, cols)) {
		fprintf(stderr, "anchor: %s\n", csv->err);
		cb_csv_free(csv);
		return -1;
	}
	return 0;
}

/* One native file: the gcm(aes) 256-bit rows, fastest sample each. */
static int read_native(const char *file, int l, int r)
{
	static const struct cb_csv_col cols[] = {
		{ "alg", CB_CSV_REQUIRED }, { "key_bits", CB_CSV_REQUIRED },
		{ "block_bytes", CB_CSV_REQUIRED | CB_CSV_UINT },
		{ "direction", CB_CSV_REQUIRED }, { "status", CB_CSV_REQUIRED },
		{ "ghz", CB_CSV_REQUIRED | CB_CSV_NUMBER },
		{ "sample_ops", CB_CSV_REQUIRED }, { NULL, 0 },
	};
	struct cb_csv csv;

	if (open_csv(&csv, file, cols) < 0)
		return -1;
	for (size_t i = 0; i < csv.nrows; i++) {
		const struct cb_csv_rec *row = &csv.rows[i];
		int s = size_index(atol(cb_csv_get(&csv, row, "block_bytes")));
		int d = !strcmp(cb_csv_get(&csv, row, "direction"), "decrypt");
		double ops = fastest_ops(cb_csv_get(&csv, row, "sample_ops"));

		if (strcmp(cb_csv_get(&csv, row, "alg"), "gcm(aes)") ||
		    strcmp(cb_csv_get(&csv, row, "key_bits"), "256") || s < 0 ||
		    strcmp(cb_csv_get(&csv, row, "status"), "ok") || ops <= 0)
			continue;
		ns[l][NATIVE][d][s][r] = 1e9 / (ops * sizes[s]);
		cpb[l][d][s][r] = ns[l][NATIVE][d][s][r] *
		                  atof(cb_csv_get(&csv, row, "ghz"));
	}
	cb_csv_free(&csv);
	return 0;
}

/* real_time in ns from its time_unit; -1 for a unit not Google
 * Benchmark's */
static double to_ns(double t, const char *unit)
{
	return !strcmp(unit, "ns") ? t : !strcmp(unit, "us") ? t * 1e3
	     : !strcmp(unit, "ms") ? t * 1e6 : !strcmp(unit, "s") ? t * 1e9
	     : -1;
}

/* One bssl_bench file: the fastest repetition of each point. */
static int read_bssl(const char *file, int l, int r)
{
	static const struct cb_csv_col cols[] = {
		{ "name", CB_CSV_REQUIRED },
		{ "real_time", CB_CSV_REQUIRED | CB_CSV_NUMBER },
		{ "cpu_time", CB_CSV_REQUIRED | CB_CSV_NUMBER },
		{ "time_unit", CB_CSV_REQUIRED }, { NULL, 0 },
	};
	struct cb_csv csv;

	if (open_csv(&csv, file, cols) < 0)
		return -1;
	for (size_t i = 0; i < csv.nrows; i++) {
		const struct cb_csv_rec *row = &csv.rows[i];
		const char *name = cb_csv_get(&csv, row, "name");
		const char *unit = cb_csv_get(&csv, row, "time_unit");
		double real = atof(cb_csv_get(&csv, row, "real_time"));
		double cpu = atof(cb_csv_get(&csv, row, "cpu_time"));
		double t = to_ns(real, unit);
		char dir[8];
		int size, end = 0, s, d;

		if (sscanf(name, "BM_SpeedAEAD/%7[a-z]_aes_256_gcm/InputSize:%d%n",
		           dir, &size, &end) != 2 || name[end] != 0)
			continue;                     /* _mean, IOVec, other AEADs */
		if ((s = size_index(size)) < 0 || t <= 0 ||
		    (strcmp(dir, "seal") && strcmp(dir, "open")))
			continue;
		d = !strcmp(dir, "open");
		if (cpu > 0) {
			stretch[l][0] += real / cpu;
			stretch[l][1]++;
		}
		if (isnan(ns[l][BSSL][d][s][r]) || t / size < ns[l][BSSL][d][s][r])
			ns[l][BSSL][d][s][r] = t / size;
	}
	cb_csv_free(&csv);
	return 0;
}

/* Every point of the file's side there? */
static int complete(const char *file, int l, int side, int r)
{
	char what[96];

	for (int d = 0; d < NDIR; d++)
		for (int s = 0; s < NSIZE; s++)
			if (isnan(ns[l][side][d][s][r])) {
				snprintf(what, sizeof what, "no %s of %d bytes "
				         "(AES-256-GCM) in it", side == NATIVE ?
				         (d ? "decrypt" : "encrypt") :
				         (d ? "open" : "seal"), sizes[s]);
				return bad(file, what);
			}
	return 0;
}

/* The manifest from stdin: "ROUND LEVEL native|boringssl FILE" lines. */
static int read_manifest(void)
{
	char line[4200], level[32], side[16], file[4096];
	int r, l, k, lineno = 0;

	while (fgets(line, sizeof line, stdin)) {
		lineno++;
		if (sscanf(line, "%d %31s %15s %4095s", &r, level, side, file) != 4
		    || r < 1 || r > NROUND || (l = level_index(level)) < 0 ||
		    (strcmp(side, "native") && strcmp(side, "boringssl"))) {
			fprintf(stderr, "anchor: manifest line %d: want ROUND "
			        "(1-%d) LEVEL native|boringssl FILE\n", lineno,
			        NROUND);
			return -1;
		}
		k = !strcmp(side, "native") ? NATIVE : BSSL;
		if ((k == NATIVE ? read_native(file, l, r - 1)
		                 : read_bssl(file, l, r - 1)) ||
		    complete(file, l, k, r - 1))
			return -1;
		nround = r > nround ? r : nround;
		seen[l] = 1;
	}
	return lineno ? 0 : bad("manifest", "empty");
}

/* Issue 42's target for native / BoringSSL at a level and size. */
static double target(const char *level, int size)
{
	if (!strcmp(level, "vaes256"))
		return size >= 8192 ? 1.1 : 1.0;
	if (!strcmp(level, "aesni"))
		return size == 16 ? 0.95 : 1.0;
	return 1.0;
}

/* The median and CI of v[0..n) into a "1.02x [0.98, 1.05]" text. */
static void median_ci(double *v, size_t n, const char *unit, char *out,
                      size_t len, double *med)
{
	double lo, hi, cover;

	cb_stats_sort(v, n);
	*med = cb_stats_median(v, n);
	cover = cb_stats_median_ci(v, n, &lo, &hi);
	snprintf(out, len, "%5.2f%s [%4.2f, %4.2f]%s", *med, unit, lo, hi,
	         cover < 0.95 ? " (range)" : "");
}

/* One row: level l, direction d, size s. */
static void row(int l, int d, int s)
{
	double ratio[NROUND], frac[NROUND], med, fmed = 0, want;
	char rtxt[64], ftxt[64] = "no bound";
	size_t n = 0, nf = 0;

	for (int r = 0; r < nround; r++) {
		double a = ns[l][BSSL][d][s][r], b = ns[l][NATIVE][d][s][r];

		if (isnan(a) || isnan(b))
			continue;
		ratio[n++] = a / b;
		if (bound[l] > 0 && cpb[l][d][s][r] > 0)
			frac[nf++] = 100 * bound[l] / cpb[l][d][s][r];
	}
	if (!n) {
		printf("%-8s %s %5d B  not measured (no round has both sides)\n",
		       levels[l], d ? "dec" : "enc", sizes[s]);
		return;
	}
	median_ci(ratio, n, "x", rtxt, sizeof rtxt, &med);
	if (nf) {
		cb_stats_sort(frac, nf);
		fmed = cb_stats_median(frac, nf);
		snprintf(ftxt, sizeof ftxt, "%3.0f%% of %.3f c/B", fmed,
		         bound[l]);
	}
	want = target(levels[l], sizes[s]);
	printf("%-8s %s %5d B  %-30s >= %.2fx %s  %s%s\n", levels[l],
	       d ? "dec" : "enc", sizes[s], rtxt, want,
	       med >= want ? "PASS" : "MISS", ftxt,
	       nf && sizes[s] == 16384 ? (fmed >= 80 ? " (>= 80% PASS)"
	                                             : " (>= 80% MISS)") : "");
}

/* --bound LEVEL=C/B */
static int parse_bound(const char *arg)
{
	char level[16];
	double v;
	int l;

	if (sscanf(arg, "%15[^=]=%lf", level, &v) != 2 || v <= 0 ||
	    (l = level_index(level)) < 0) {
		fprintf(stderr, "anchor: --bound '%s': want LEVEL=C/B\n", arg);
		return -1;
	}
	bound[l] = v;
	return 0;
}

int main(int argc, char **argv)
{
	double *all = &ns[0][0][0][0][0];

	for (size_t i = 0; i < sizeof ns / sizeof *all; i++)
		all[i] = NAN;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--bound") || i + 1 == argc ||
		    parse_bound(argv[++i])) {
			fprintf(stderr, "usage: anchor [--bound LEVEL=C/B]... "
			        "< MANIFEST\n");
			return 2;
		}
	if (read_manifest())
		return 2;
	printf("AES-256-GCM native / BoringSSL at the same level: median of "
	       "%d per-round ratios [95 %% CI] (> 1: native faster), the "
	       "target; native's share of the level's AES+GHASH bound "
	       "(sysinfo)\n", nround);
	for (int l = 0; l < nlevel; l++) {
		if (!seen[l])
			continue;
		for (int d = 0; d < NDIR; d++)
			for (int s = 0; s < NSIZE; s++)
				row(l, d, s);
		if (stretch[l][1] > 0)
			printf("%-8s load: BoringSSL's real_time / cpu_time %.2f "
			       "(mean of its windows; 1 on a core it has alone)\n",
			       levels[l], stretch[l][0] / stretch[l][1]);
	}
	return 0;
}
