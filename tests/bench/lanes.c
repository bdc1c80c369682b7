/*
 * tests/bench/lanes.c - the multi-sector CBC lane layouts of the native
 * backend, side by side (issue 38 item 3): each lane routine alone on
 * lanes that sit on distinct L1 sets (what the glue's staggered part-
 * sector steps give it), in cycles per byte against the AES throughput
 * bound of its own path's probe (nr / (16 x rate), rate the AES
 * block-rounds per cycle of that path's probe: a vaes256 routine against
 * 12 ymm chains, an aesni one against 12 xmm chains).  Cycles come from the dependent-add loop, as
 * sysinfo's: each figure is the median of 15 alternated pairs.
 *
 * Not part of make check (a measurement, not a test):
 *   make && gcc -O2 -Iinclude -Isrc -Ibackends -Ibackends/native \
 *     tests/bench/lanes.c build/backends/native/x86_64/aes_*.o -o build/lanes \
 *     && build/lanes
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native_asm.h"
#include "cycles.h"

#if defined(__x86_64__)
typedef void lanes_fn(const struct cb_aes_key *, const struct cb_lanes *,
                      ptrdiff_t, size_t);

static struct cb_aes_key key __attribute__((aligned(64)));
static struct cb_lanes lanes;
static uint8_t *buf;
static lanes_fn *fn;
static size_t nl, len;

static void run_lanes(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		fn(&key, &lanes, 0, len);
}

/* nl lanes of len bytes, lane j at j x (len + 320): distinct L1 sets */
static double lane_cpb(lanes_fn *f, size_t n_lanes, size_t l)
{
	fn = f, nl = n_lanes, len = l;
	for (size_t j = 0; j < nl; j++) {
		lanes.in[j] = buf + j * (len + 320);
		memset(lanes.iv[j], (int)j, 16);
	}
	return bench_cycles(run_lanes, 20) / (20.0 * nl * len);
}

int main(void)
{
	static const struct {
		const char *name;
		lanes_fn *fn;
		size_t lanes, len;
		void (*probe)(uint64_t);
		double blocks;            /* blocks a probe round: 4, 2 or 1 */
	} t[] = {
		{ "vaes512 lanes64 (16 zmm chains, staged)",
		  cb_vaes512_cbc_enc_lanes64, 64, 1024, cb_vaes512_probe, 4 },
		{ "vaes512 lanes32 (8 zmm chains, 32 B a step)",
		  cb_vaes512_cbc_enc_lanes32, 32, 1024, cb_vaes512_probe, 4 },
		{ "vaes512 lanes16 (4 zmm chains, 64 B loads)",
		  cb_vaes512_cbc_enc_lanes16, 16, 4096, cb_vaes512_probe, 4 },
		{ "vaes256 lanes16 (8 ymm chains, staged)",
		  cb_vaes256_cbc_enc_lanes16, 16, 4096, cb_vaes256_probe, 2 },
		{ "vaes256 lanes16_any (8 ymm chains, 16 B)",
		  cb_vaes256_cbc_enc_lanes16_any, 16, 2048, cb_vaes256_probe, 2 },
		{ "aesni lanes8 (8 xmm chains)",
		  cb_aesni_cbc_enc_lanes8, 8, 4096, cb_aesni_probe, 1 },
	};
	uint8_t k[16] = { 1, 2, 3 };
	double rate, bound;
	int vaes512 = 0;

	buf = aligned_alloc(4096, 64 * (4096 + 320) + 4096);
	if (!buf)
		return 2;
	memset(buf, 0x5a, 64 * (4096 + 320) + 4096);
	cb_aes_expand_key(&key, k, 16);
	__builtin_cpu_init();
	vaes512 = __builtin_cpu_supports("avx512f") &&
	          __builtin_cpu_supports("vaes");
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		double c;

		if (t[i].probe == cb_vaes512_probe && !vaes512)
			continue;         /* no VAES-512 here: said below */
		/* the path's probe: 12 x blocks block-rounds an iteration */
		rate = 12.0 * t[i].blocks * 160000 /
		       bench_cycles(t[i].probe, 160000);
		bound = 10 / (16 * rate);
		c = lane_cpb(t[i].fn, t[i].lanes, t[i].len);
		printf("%-46s %3zu lanes x %4zu B  %.3f c/B  rate %.2f, bound "
		       "%.3f: %3.0f %%\n", t[i].name, t[i].lanes, t[i].len, c,
		       rate, bound, 100 * bound / c);
	}
	if (!vaes512)
		puts("vaes512 routines: not run (no VAES with AVX-512 here)");
	free(buf);
	return 0;
}
#else
int main(void)
{
	puts("x86-64 only");
	return 77;
}
#endif
