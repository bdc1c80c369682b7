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
#include <unistd.h>

#include "bench.h"
#include "cb.h"
#include "csv.h"
#include "report.h"
#include "result.h"
#include "util.h"

/* The seed's matrix in its order (scripts/bench-geli runs the same). */
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
};
#define NGELI (sizeof geli_cfgs / sizeof geli_cfgs[0])

int bench_stopped(void)
{
	return cb_stop != 0;
}

size_t bench_geli_configs(void)
{
	return NGELI;
}

/* One dd run; its exit status (0: a row was appended). */
static int geli_one(const char *self, size_t k, const struct bench_geli_opts *g,
                    const char *backend, const char *err)
{
	char cnt[64], *argv[24];
	int n = 0;

	snprintf(cnt, sizeof cnt, "count=%llu", (unsigned long long)g->count);
	argv[n++] = "cryptobench";
	argv[n++] = "dd";
	for (int j = 0; j < 6 && geli_cfgs[k][j]; j++)
		argv[n++] = (char *)geli_cfgs[k][j];
	if (k) {
		argv[n++] = "-s";
		argv[n++] = "4096";
	}
	argv[n++] = "bs=1m";
	argv[n++] = cnt;
	argv[n++] = "--backend";
	argv[n++] = (char *)backend;
	argv[n++] = "--csv";
	argv[n++] = (char *)g->csv;
	if (g->no_gate)
		argv[n++] = "--no-gate";
	argv[n] = NULL;
	return report_spawn(self, argv, "/dev/null", err);
}

int bench_geli(const struct bench_geli_opts *g, size_t *nok, size_t *nfail)
{
	char self[4096], err[4200];

	*nok = *nfail = 0;
	if (cb_exe_path(self, sizeof self) < 0) {
		cb_err("bench: cannot find my own binary: %s", strerror(errno));
		return -1;
	}
	snprintf(err, sizeof err, "%s.err", g->csv);
	for (size_t b = 0; b < g->nbackends; b++)
		for (size_t c = 0; c < NGELI && !bench_stopped(); c++) {
			int rc;

			if (g->progress)
				g->progress(g->arg, *nok + *nfail, g->nbackends * NGELI,
				            g->backends[b], geli_cfgs[c][1]);
			rc = geli_one(self, c, g, g->backends[b], err);
			if (rc == 0)
				(*nok)++;
			else
				(*nfail)++;    /* the backend lacks it: no row */
		}
	unlink(err);
	return 0;
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
	for (size_t i = 0; i < c->nrows; i++)
		bench_csv_result(c, &c->rows[i], &(*res)[(*n)++]);
	return 0;
}
