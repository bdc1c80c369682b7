/*
 * kdf_search.c - Argon2's cost for a requested time, found the way
 * `cryptsetup benchmark` finds it (lib/crypto_backend/pbkdf_check.c
 * crypt_argon2_check, docs/cryptsetup.md): from the minimum cost, grow
 * memory (then passes) until one derivation takes at least 250 ms, then
 * scale the cost toward the requested time and measure again until a
 * derivation lands within 95-110 % of it.  Times are wall clock
 * (CLOCK_MONOTONIC_RAW): Argon2's lanes run on threads.  This is a
 * parameter search, not a sampled rate: its line says which cost meets
 * the time on this host, as cryptsetup's does.
 */
#include <errno.h>
#include <stdint.h>
#include <time.h>

#include "core/cb.h"
#include "measure/kdf_search.h"
#include "foundation/timing.h"

#define MIN_MS        250    /* BENCH_MIN_MS: the first estimate's floor   */
#define MIN_MS_FAST   10     /* BENCH_MIN_MS_FAST: below it, scale by 16   */
#define ATLEAST_PCT   95
#define ATMOST_PCT    110
#define SAMPLES_FAST  3
#define MIN_PASSES    4      /* cryptsetup's Argon2 limits                 */
#define MIN_BENCH_KIB (64 * 1024)

/* One derivation's wall time in ms, the least of up to n (stopping at
 * the first under floor); -errno. */
static long derive_ms(const struct cb_inst *x, uint32_t t, uint32_t m,
                      uint32_t p, unsigned n, long floor)
{
	static const uint8_t pass[] = "foobarfo";
	static const uint8_t salt[] = "0123456789abcdef0123456789abcdef";
	struct cb_kdf_params kp = { .iterations = t, .memory = m, .lanes = p };
	uint8_t key[32];
	long best = -1;

	for (unsigned i = 0; i < n; i++) {
		uint64_t a;
		long ms;
		int rc;

		a = cb_now_ns();
		rc = x->impl->derive(x->ctx, x->impl, pass, 8, salt, 32, &kp, key,
		                     sizeof key);
		ms = (long)((cb_now_ns() - a) / 1000000);
		if (rc < 0)
			return rc;
		if (best < 0 || ms < best)
			best = ms;
		if (ms < floor)
			break;
	}
	return best;
}

/* Step 1: a cost that takes at least MIN_MS (memory first). */
static long first_cost(const struct cb_inst *x, struct cb_argon_cost *c,
                       uint32_t max_kib)
{
	long ms;

	for (;;) {
		uint32_t *v = c->memory == max_kib ? &c->passes : &c->memory;
		uint64_t next;

		if ((ms = derive_ms(x, c->passes, c->memory, c->lanes, SAMPLES_FAST,
		                    MIN_MS)) < 0 || ms >= MIN_MS)
			return ms;
		next = ms < MIN_MS_FAST ? (uint64_t)*v * 16
		       : (uint64_t)*v * MIN_MS / (uint64_t)ms;
		if (next == *v)
			return ms;
		*v = next > UINT32_MAX ? UINT32_MAX : (uint32_t)next;
		if (c->memory > max_kib)
			c->memory = max_kib;
	}
}

/* Step 2: the cost scaled toward target from a measurement of ms, as
 * cryptsetup's next_argon2_params: less time takes passes off first (to
 * the minimum, then memory), more time adds memory first (to the limit,
 * then passes).  1 when final: a limit reached, or the cost unchanged. */
static int next_cost(struct cb_argon_cost *c, uint32_t min_kib,
                     uint32_t max_kib, long ms, uint32_t target)
{
	uint64_t t = c->passes, m = c->memory, d = (uint64_t)(ms > 0 ? ms : 1);
	uint64_t work = t * m * target;
	int final = 0;

	if ((uint64_t)ms > target) {
		if ((t = t * target / d) < MIN_PASSES) {
			t = MIN_PASSES;
			m = work / (MIN_PASSES * d);
			if (m < min_kib)
				m = min_kib, final = 1;
		}
	} else if ((m = m * target / d) > max_kib) {
		m = max_kib;
		if ((t = work / (max_kib * d)) <= MIN_PASSES)
			t = MIN_PASSES, final = 1;
	} else if (m < min_kib) {
		m = min_kib, final = 1;
	}
	if (t == c->passes && m == c->memory)
		final = 1;
	c->passes = (uint32_t)(t > UINT32_MAX ? UINT32_MAX : t);
	c->memory = (uint32_t)m;
	return final;
}

int kdf_argon2_search(const struct cb_impl *impl, uint32_t target_ms,
                     uint32_t max_kib, uint32_t lanes, struct cb_argon_cost *c)
{
	uint32_t min_kib = MIN_BENCH_KIB < max_kib ? MIN_BENCH_KIB : max_kib;
	long ms, lo = (long)target_ms * ATLEAST_PCT / 100;
	long hi = (long)target_ms * ATMOST_PCT / 100;
	struct cb_inst x;
	int rc;

	if (!target_ms || !lanes || max_kib < 8 * lanes)
		return -EINVAL;
	if (min_kib < 8 * lanes)
		min_kib = 8 * lanes;
	c->passes = MIN_PASSES;
	c->memory = min_kib;
	c->lanes = lanes;
	if ((rc = cb_inst_new(&x, impl, NULL, 0)) < 0)
		return rc;
	ms = first_cost(&x, c, max_kib);
	while (ms >= 0 && (ms < lo || ms > hi) &&
	       !next_cost(c, min_kib, max_kib, ms, target_ms))
		ms = derive_ms(&x, c->passes, c->memory, lanes, 1, lo);
	c->ms = (uint32_t)(ms < 0 ? 0 : ms);
	cb_inst_free(&x);
	return ms < 0 ? (int)ms : 0;
}
