/*
 * tests/bench/gcmstep.c - the native AES-GCM routines against their own
 * path's combined AES + GHASH bound, in the bound's units (issue 42): each
 * whole-request routine (cb_<path>_gcm_enc/_dec) on 16 KiB requests out
 * of place, 16 KiB AES-256 and AES-128, in cycles per 512 bytes (a
 * VAES-512 step), against the path's GCM probe (cb_<path>_gcm_probe128/
 * 256: the AES and VPCLMULQDQ of 512 bytes and nothing else, as sysinfo
 * prints it).  Both are timed the same way as sysinfo's: the median of 15
 * pairs alternated with the dependent-add loop, so the share compares
 * like with like on a host whose clock or neighbours move - the figure
 * `make bench-levels` cannot give, as it reads native through `speed`
 * (0.2 s samples and the C glue around the routine).  A path the CPU
 * lacks is said.
 *
 * Not part of make check (a measurement, not a test):
 *   make && gcc -O2 -Iinclude -Isrc -Ibackends -Ibackends/native \
 *     tests/bench/gcmstep.c build/backends/native/x86_64/aes_*.o \
 *     build/backends/native/x86_64/gcm_*.o -o build/gcmstep && build/gcmstep
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native_asm.h"
#include "cycles.h"

#if defined(__x86_64__)
typedef void gcm_fn(const struct cb_gcm_key *, struct cb_gcm_req *);

#define LEN 16384

static struct cb_gcm_key key __attribute__((aligned(64)));
static uint8_t in[LEN] __attribute__((aligned(64)));
static uint8_t out[LEN] __attribute__((aligned(64)));
static gcm_fn *fn;

static void run_gcm(uint64_t n)
{
	struct cb_gcm_req r;

	memset(&r, 0, sizeof r);
	r.j0[15] = 1;
	for (uint64_t i = 0; i < n; i++) {
		r.in = in, r.out = out, r.len = LEN;
		fn(&key, &r);
	}
}

/* the key (the powers of H are arbitrary: only the time is read) */
static void set_key(size_t keylen)
{
	uint8_t k[32] = { 1, 2, 3 };

	cb_aes_expand_key(&key.aes, k, keylen);
	for (size_t i = 0; i < sizeof key.hpow; i++)
		key.hpow[i / 16][i % 16] = (uint8_t)(7 * i + 1);
}

int main(void)
{
	static const struct {
		const char *path;
		gcm_fn *enc, *dec;
		void (*probe[2])(uint64_t);   /* AES-128, AES-256 */
	} t[] = {
		{ "aesni", cb_aesni_gcm_enc, cb_aesni_gcm_dec,
		  { cb_aesni_gcm_probe128, cb_aesni_gcm_probe256 } },
		{ "vaes256", cb_vaes256_gcm_enc, cb_vaes256_gcm_dec,
		  { cb_vaes256_gcm_probe128, cb_vaes256_gcm_probe256 } },
		{ "vaes512", cb_vaes512_gcm_enc, cb_vaes512_gcm_dec,
		  { cb_vaes512_gcm_probe128, cb_vaes512_gcm_probe256 } },
	};
	const uint64_t n_req = 40, n_probe = 8000;
	int has[3];

	__builtin_cpu_init();
	has[0] = __builtin_cpu_supports("aes") &&
	         __builtin_cpu_supports("pclmul");
	has[1] = has[0] && __builtin_cpu_supports("vaes") &&
	         __builtin_cpu_supports("vpclmulqdq") &&
	         __builtin_cpu_supports("avx2");
	has[2] = has[1] && __builtin_cpu_supports("avx512f") &&
	         __builtin_cpu_supports("avx512bw") &&
	         __builtin_cpu_supports("avx512vl") &&
	         __builtin_cpu_supports("bmi2");
	memset(in, 0x5a, sizeof in);
	puts("path     key  bound c/512B   enc c/512B  share   dec c/512B  share");
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		if (!has[i]) {
			printf("%-8s not run: the CPU lacks the path\n", t[i].path);
			continue;
		}
		for (int k = 0; k < 2; k++) {
			double b, e, d;

			set_key(k ? 32 : 16);
			b = bench_cycles(t[i].probe[k], n_probe) / n_probe;
			fn = t[i].enc;
			e = bench_cycles(run_gcm, n_req) / (n_req * LEN / 512.0);
			fn = t[i].dec;
			d = bench_cycles(run_gcm, n_req) / (n_req * LEN / 512.0);
			printf("%-8s %3d  %12.1f  %11.1f  %4.0f %%  %11.1f  "
			       "%4.0f %%\n", t[i].path, k ? 256 : 128, b, e,
			       100 * b / e, d, 100 * b / d);
		}
	}
	return 0;
}
#else
int main(void)
{
	puts("x86-64 only");
	return 77;
}
#endif
