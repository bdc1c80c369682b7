/*
 * acct.c - where a run's wall time goes (acct.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "foundation/acct.h"

static uint64_t books[CB_ACCT_N];

static const struct {
	const char *key, *label;
} names[CB_ACCT_N] = {
	[CB_ACCT_SAMPLE] = { "samples", "timed samples" },
	[CB_ACCT_SHARED] = { "shared", "timed, left out (core shared)" },
	[CB_ACCT_GAPS] = { "gaps", "between segments (canary, clock)" },
	[CB_ACCT_WARM] = { "warmup", "each visit's warm-up and set-up" },
	[CB_ACCT_CALIB] = { "calibration", "first warm-up, batch sizing" },
	[CB_ACCT_CLOCK] = { "clock", "core clock readings" },
	[CB_ACCT_GATE] = { "gate", "keys, vectors, cross-check" },
	[CB_ACCT_START] = { "start", "process start-up, plug-ins, plan" },
	[CB_ACCT_DD_DATA] = { "dd_data", "geli matrix: dd's timed data" },
	/* the key from when each dd run was a process (cryptobench-json-1) */
	[CB_ACCT_DD_PROC] = { "dd_processes", "geli matrix: dd runs besides" },
	[CB_ACCT_OUTPUT] = { "output", "files, summary, report" },
};

void cb_acct_add(enum cb_acct k, uint64_t ns)
{
	if (k < CB_ACCT_N)
		books[k] += ns;
}

uint64_t cb_acct_get(enum cb_acct k)
{
	return k < CB_ACCT_N ? books[k] : 0;
}

int cb_acct_write(FILE *f)
{
	for (int k = 0; k < CB_ACCT_N; k++)
		fprintf(f, "%s %" PRIu64 "\n", names[k].key, books[k]);
	return ferror(f) ? -1 : 0;
}

int cb_acct_read(FILE *f, uint64_t *total)
{
	uint64_t add[CB_ACCT_N] = {0}, v;
	char key[32], line[128];
	int k;

	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "%31s %" SCNu64, key, &v) != 2)
			return -1;
		for (k = 0; k < CB_ACCT_N && strcmp(key, names[k].key); k++)
			;
		if (k == CB_ACCT_N)
			return -1;
		add[k] += v;
	}
	*total = 0;
	for (k = 0; k < CB_ACCT_N; k++) {
		books[k] += add[k];
		*total += add[k];
	}
	return 0;
}

static uint64_t accounted(void)
{
	uint64_t s = 0;

	for (int k = 0; k < CB_ACCT_N; k++)
		s += books[k];
	return s;
}

double cb_acct_inside(uint64_t wall_ns)
{
	return wall_ns ? (double)(books[CB_ACCT_SAMPLE] + books[CB_ACCT_DD_DATA]) /
	                 (double)wall_ns : 0;
}

void cb_acct_print(FILE *f, uint64_t wall_ns)
{
	uint64_t acc = accounted();
	double w = wall_ns ? (double)wall_ns : 1;

	fprintf(f, "bench: where the %.1f s went (%.1f %% inside timed samples: "
	        "speed samples and dd's data):\n", wall_ns / 1e9,
	        100 * cb_acct_inside(wall_ns));
	for (int k = 0; k < CB_ACCT_N; k++)
		if (books[k])
			fprintf(f, "  %-36s %7.1f s %5.1f %%\n", names[k].label,
			        books[k] / 1e9, 100 * books[k] / w);
	fprintf(f, "  %-36s %7.1f s %5.1f %%\n", "other (not accounted)",
	        acc < wall_ns ? (wall_ns - acc) / 1e9 : 0.0,
	        acc < wall_ns ? 100 * (wall_ns - acc) / w : 0.0);
}

void cb_acct_json(FILE *f, const char *in, uint64_t wall_ns)
{
	uint64_t acc = accounted();

	fprintf(f, "%s\"wall\": %.3f,\n", in, wall_ns / 1e9);
	for (int k = 0; k < CB_ACCT_N; k++)
		fprintf(f, "%s\"%s\": %.3f,\n", in, names[k].key, books[k] / 1e9);
	fprintf(f, "%s\"other\": %.3f,\n", in,
	        acc < wall_ns ? (wall_ns - acc) / 1e9 : 0.0);
	fprintf(f, "%s\"inside_samples\": %.4f\n", in, cb_acct_inside(wall_ns));
}

uint64_t cb_proc_age_ns(void)
{
	char buf[1024], *p;
	unsigned long long start = 0;
	long hz = sysconf(_SC_CLK_TCK);
	struct timespec ts;
	uint64_t now, at;
	size_t n;
	FILE *f = fopen("/proc/self/stat", "r");

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	/* field 22, starttime: after the ')' that ends the command name */
	if (!(p = strrchr(buf, ')')) || hz <= 0 ||
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u "
	           "%*d %*d %*d %*d %*d %*d %llu", &start) != 1 ||
	    clock_gettime(CLOCK_BOOTTIME, &ts) < 0)
		return 0;
	now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	at = start * (1000000000u / (uint64_t)hz);
	return now > at ? now - at : 0;
}
