/*
 * native_limits.c - the CPU's limits for a native code path, measured
 * (sysinfo's `limit native` line, cryptobench(1)): the AES throughput of
 * the path's widest registers, the floor of a batch of 8 ESSIV requests,
 * and AES-GCM's combined AES + carry-less multiplication bound - each in
 * cycles counted against a dependent-add chain, so no clock reading and
 * no hardware counters are needed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "native_path.h"
#include "native_arch.h"

#if defined(__x86_64__) || defined(__aarch64__)

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double probe_secs(void (*fn)(uint64_t), uint64_t n)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	fn(n);
	clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	return (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
}

#define N_ADD 250000     /* iterations of 4 dependent adds: ~1M cycles */

/*
 * Cycles a call of fn(n) takes, in units of one dependent add (a cycle):
 * the median of 15 alternated pairs of fn(n) and the add chain (N_ADD
 * iterations of 4), so a clock change hits both of a pair and the figure
 * needs no clock reading and no counters; 0 if nothing was timed.
 */
static double cycles_of(void (*fn)(uint64_t), uint64_t n)
{
	double r[15];
	size_t k = 0;

	for (int i = 0; i < 15; i++) {
		double a = probe_secs(fn, n);
		double d = probe_secs(arch_probe_adds, N_ADD);

		if (a > 0 && d > 0)
			r[k++] = a / d * 4.0 * N_ADD;
	}
	qsort(r, k, sizeof *r, cmp_double);
	return k ? r[k / 2] : 0;
}

/*
 * The AES throughput of path p, in block-rounds per cycle: 12
 * independent rounds on its widest register a probe iteration, about 1M
 * cycles of them (cycles_of).  The physical bound of a throughput-bound
 * mode is then nr / (16 x rate) cycles per byte (cryptobench(1), sysinfo).
 */
static double aes_rate(const struct path *p)
{
	static const struct path *done[8];
	static double rate[8];
	const uint64_t n_aes = ARCH_PROBE_N;
	double c;
	int i;

	for (i = 0; i < 8 && done[i]; i++)   /* once a path per process */
		if (done[i] == p)
			return rate[i];
	c = cycles_of(p->probe, n_aes);
	if (i < 8 && c > 0) {
		done[i] = p;
		rate[i] = 12.0 * p->width * n_aes / c;
	}
	return c > 0 ? 12.0 * p->width * n_aes / c : 0;
}

/* n batches of 8 one-block ESSIV requests through the routine `speed
 * --mb 8` reaches on path batch_path (enc_batch: its pointer-array one,
 * else its fused 8 lanes), each batch independent of the last */
static const struct path *batch_path;
static struct cb_native_ctx batch_ctx __attribute__((aligned(64)));
static struct cb_lanes batch_lanes;
static uint8_t batch_buf[8][32];
static const uint8_t *batch_iv[8], *batch_in[8];
static uint8_t *batch_out[8];

static void batch_loop(uint64_t n)
{
	const struct path *p = batch_path;

	for (uint64_t i = 0; i < n; i++)
		if (p->essiv8)
			p->essiv8(&batch_ctx, batch_iv, batch_in, batch_out, 16);
		else
			p->essiv_lanes8(&batch_ctx, &batch_lanes, 16, 16);
}

/*
 * Cycles a request of that batch (cycles_of; 0: the path has no fused
 * batch routine): the floor of 16-byte ESSIV
 * at --mb 8 with nothing around the routine (24 dependent rounds a
 * request, 8 requests in flight; the keys are fixed, not secret).
 * `speed --mb 8`'s bound against a one-request reference is that
 * reference's cycles over this.
 */
static double batch_cycles(const struct path *p)
{
	const uint64_t n_b = 10000;                     /* ~1M cycles */
	uint8_t key[32] = { 1 };

	if (!p->essiv8 && !p->essiv_lanes8)
		return 0;
	batch_path = p;
	arch_expand_key(&batch_ctx.key, key, 16);
	arch_expand_key(&batch_ctx.salt, key, 32);
	for (int j = 0; j < 8; j++) {
		batch_lanes.in[j] = batch_in[j] = batch_buf[j];
		batch_out[j] = batch_buf[j] + 16;
		batch_iv[j] = batch_lanes.iv[j];
		batch_lanes.iv[j][0] = (uint8_t)j;
	}
	return cycles_of(batch_loop, n_b) / (8.0 * n_b);
}

/*
 * AES-GCM's combined bound on path p, c/B: the cycles of the
 * probe of one 512-byte step's AES and VPCLMULQDQ (cycles_of), whatever
 * ports they share on this core; 0 where the path has no such probe.
 */
#ifndef ARCH_GCM_BOUND
#define ARCH_GCM_BOUND "VPCLMULQDQ"  /* x86-64: vaes512's probe */
#endif
static double gcm_bound(const struct path *p, int k256)
{
	const uint64_t n = 8000;                      /* ~1M cycles */

	return p->gcm_probe[k256] ? cycles_of(p->gcm_probe[k256], n) /
	                            (512.0 * n) : 0;
}

const char *cb_native_limit_line(const struct path *p, const char *name,
                                 char *line, size_t n)
{
	double r, b, g128, g256;
	char gcm[120] = "", batch[80] = "";

	if ((r = aes_rate(p)) <= 0)
		return NULL;
	if ((b = batch_cycles(p)) > 0)
		snprintf(batch, sizeof batch, "16-byte ESSIV batch of 8 alone "
		         "%.1f cycles a request; ", b);
	if ((g128 = gcm_bound(p, 0)) > 0 && (g256 = gcm_bound(p, 1)) > 0)
		snprintf(gcm, sizeof gcm, "AES-GCM bound (AES + " ARCH_GCM_BOUND ", "
		         "measured) %.3f c/B AES-128, %.3f c/B AES-256; ", g128,
		         g256);
	snprintf(line, n, "%.2f " ARCH_RATE_UNIT " on %s (measured); "
	         "%s%sthroughput bound %.3f c/B AES-128, %.3f c/B AES-256", r,
	         name, batch, gcm, 10 / (16 * r), 14 / (16 * r));
	return line;
}

size_t cb_native_level_line(const struct path *p, const char *name,
                            char *line, size_t n)
{
	double r = aes_rate(p), g128, g256;
	char gcm[100] = "AES+GHASH: no probe on this path";
	int k;

	if (r <= 0)
		return (size_t)snprintf(line, n, "%s: not measured (the probe "
		                        "timed nothing)", name);
	if ((g128 = gcm_bound(p, 0)) > 0 && (g256 = gcm_bound(p, 1)) > 0)
		snprintf(gcm, sizeof gcm, "AES+GHASH %.3f c/B AES-128, %.3f "
		         "c/B AES-256 (measured)", g128, g256);
	k = snprintf(line, n, "%s: AES alone %.3f c/B AES-128, %.3f c/B "
	             "AES-256 (%.2f " ARCH_RATE_UNIT ", measured); %s", name,
	             10 / (16 * r), 14 / (16 * r), r, gcm);
	return k < 0 ? 0 : (size_t)k;
}

#endif
