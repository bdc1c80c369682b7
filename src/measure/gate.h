/*
 * gate.h - the correctness gate of `speed` and `bench`: before a series
 * (one implementation, direction and key) is timed, its known-answer
 * vectors pass (kat_gate, once per implementation) and the exact timed
 * request sequence gives the same bytes as another backend's
 * implementation (gate_cross_check).
 */
#ifndef CB_GATE_H
#define CB_GATE_H

#include <stddef.h>
#include <stdint.h>

#include "core/cb.h"
#include "measure/runner.h"
#include "measure/speed.h"

/* A series being measured: its keyed instance and its gate verdict. */
struct series {
	struct cb_inst inst;
	uint8_t key[CB_MAX_KEY];
	size_t keylen;
	char *fail;                 /* NULL: passed (or nothing runs)      */
};

/* What the gate remembers across series: kat verdicts, warnings given. */
struct gate {
	struct gate_cache *gc;
	size_t ngc;
	const char **warned;
	size_t nwarned;
};

/* The deterministic benchmark key of key_bits; returns its length. */
size_t gate_make_key(const struct cb_alg *alg, unsigned key_bits,
                uint8_t *key);

/* Another backend's implementation of alg to cross-check against. */
const struct cb_impl *gate_pick_ref(const struct cb_impl *impl,
                               const struct cb_alg *alg,
                               unsigned key_bits);

/* The timed request sequence on mine and on ref: NULL or the reason. */
char *gate_cross_check(struct cb_inst *mine, const struct cb_impl *ref,
                  const uint8_t *key, size_t keylen, int dir,
                  const struct speed_opts *o, struct bufs *bf,
                  size_t len);

/* Before anything is timed: the known-answer vectors are there (0), or
 * -ENOENT with the error printed; --no-gate (o->no_gate): 0, warned. */
int gate_ready(const struct speed_opts *o);

/* Key the series starting at p[i] (of n) and put it through the gate. */
void gate_series(struct gate *g, struct series *s, const struct plan *p,
                 size_t n, size_t i, const struct speed_opts *o,
                 struct bufs *bf);

/* Free what the gate remembers; free one series. */
void gate_free(struct gate *g);
void gate_series_free(struct series *s);

#endif
