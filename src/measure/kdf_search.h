/*
 * kdf_search.h - the Argon2 cost that takes a requested time, found as
 * `cryptsetup benchmark` finds it (kdf_search.c).
 */
#ifndef CB_KDF_SEARCH_H
#define CB_KDF_SEARCH_H

#include <stdint.h>

struct cb_impl;

struct cb_argon_cost {
	uint32_t passes;         /* t: "iterations" in cryptsetup's line     */
	uint32_t memory;         /* m, KiB                                   */
	uint32_t lanes;          /* p: "parallel threads (CPUs)"             */
	uint32_t ms;             /* the last derivation's wall time          */
};

/* The cost of impl (argon2i or argon2id) for target_ms with at most
 * max_kib of memory and lanes lanes.  0, or -errno (its message set). */
int kdf_argon2_search(const struct cb_impl *impl, uint32_t target_ms,
                     uint32_t max_kib, uint32_t lanes, struct cb_argon_cost *c);

#endif
