/*
 * bench_geli.c - bench's geli matrix: the seed report's 17 configurations
 * (the baseline, six ciphers, five HMACs with aes and with null) through
 * `cryptobench dd`, on every backend, each run as its own process (as a
 * user would run it), rows appended to one CSV by dd's --csv, which
 * bench_geli_results() reads back as results for the JSON file.
 */
#include <errno.h>
#include <math.h>
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

/* One CSV row of dd as a result (strings point into c). */
static void dd_result(const struct cb_csv *c, const struct cb_csv_rec *row,
                      struct cb_result *r)
{
	const char *st = dd_str(c, row, "status");

	r->tool = dd_str(c, row, "tool");
	r->backend = dd_str(c, row, "backend");
	r->backend_version = dd_str(c, row, "backend_version");
	r->backend_details = dd_str(c, row, "backend_details");
	r->driver = dd_str(c, row, "driver");
	r->alg = dd_str(c, row, "alg");
	r->auth = dd_str(c, row, "auth");
	r->key_bits = (unsigned)dd_num(c, row, "key_bits");
	r->block_bytes = (uint64_t)dd_num(c, row, "block_bytes");
	r->sector_bytes = (uint64_t)dd_num(c, row, "sector_bytes");
	r->direction = dd_str(c, row, "direction");
	r->iv_mode = dd_str(c, row, "iv_mode");
	r->threads = (unsigned)dd_num(c, row, "threads");
	r->status = !strcmp(st, "ok") ? CB_RES_OK : !strcmp(st, "skipped")
	            ? CB_RES_SKIP : CB_RES_FAIL;
	r->why = dd_str(c, row, "error");
	r->ops_per_sec = dd_num(c, row, "ops_per_sec");
	r->bytes_per_sec = dd_num(c, row, "bytes_per_sec");
	r->ns_per_byte = dd_num(c, row, "ns_per_byte");
	r->cycles_per_byte = dd_num(c, row, "cycles_per_byte");
	r->ghz = dd_num(c, row, "ghz");
	r->overhead_ns = dd_num(c, row, "overhead_ns");
	r->slope_ns_per_byte = dd_num(c, row, "slope_ns_per_byte");
	r->reps = (unsigned)dd_num(c, row, "reps");
	r->rel_spread = dd_num(c, row, "rel_spread");
	r->ghz_drift = NAN;        /* dd is not sampled: no CI, no samples */
	r->seconds = dd_num(c, row, "seconds");
	r->bytes_total = (uint64_t)dd_num(c, row, "bytes_total");
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
		dd_result(c, &c->rows[i], &(*res)[(*n)++]);
	return 0;
}
