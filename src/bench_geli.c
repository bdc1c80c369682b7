/*
 * bench_geli.c - bench's geli matrix: the seed report's 17 configurations
 * (the baseline, six ciphers, five HMACs with aes and with null) through
 * `cryptobench dd`, on every backend, each run as its own process (as a
 * user would run it), rows appended to one CSV by dd's --csv.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cb.h"
#include "report.h"
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
static int geli_one(const char *self, size_t k, const char *backend,
                    uint64_t count, const char *csv, const char *err)
{
	char cnt[64], *argv[24];
	int n = 0;

	snprintf(cnt, sizeof cnt, "count=%llu", (unsigned long long)count);
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
	argv[n++] = (char *)csv;
	argv[n] = NULL;
	return report_spawn(self, argv, "/dev/null", err);
}

int bench_geli(const struct bench_geli_opts *g, size_t *nok, size_t *nfail)
{
	char self[4096], err[4200];
	ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);

	*nok = *nfail = 0;
	if (k <= 0) {
		cb_err("bench: cannot find my own binary: %s", strerror(errno));
		return -1;
	}
	self[k] = 0;
	snprintf(err, sizeof err, "%s.err", g->csv);
	for (size_t b = 0; b < g->nbackends; b++)
		for (size_t c = 0; c < NGELI && !bench_stopped(); c++) {
			int rc;

			if (g->progress)
				g->progress(g->arg, *nok + *nfail, g->nbackends * NGELI,
				            g->backends[b], geli_cfgs[c][1]);
			rc = geli_one(self, c, g->backends[b], g->count, g->csv, err);
			if (rc == 0)
				(*nok)++;
			else
				(*nfail)++;    /* the backend lacks it: no row */
		}
	unlink(err);
	return 0;
}
