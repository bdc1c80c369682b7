/*
 * tcrypt_log.h - the kernel tcrypt module's speed lines (its kernel log)
 * into results, and the table from canonical algorithm names to the
 * module's speed modes (docs/kernel.md).  Used by `cryptobench tcrypt`.
 */
#ifndef CB_TCRYPT_LOG_H
#define CB_TCRYPT_LOG_H

#include <stddef.h>

#include "output/result.h"

/* tcrypt's speed modes (Linux 6.1 crypto/tcrypt.c) of one algorithm:
 * sync and async skcipher/AEAD/shash/ahash tests; 0 = none */
struct tc_mode {
	const char *alg;       /* canonical, as the module's headers name it */
	int sync, async;
};
const struct tc_mode *tc_mode_find(const char *alg);
extern const struct tc_mode tc_modes[];

/*
 * Parse kernel log text (dmesg lines with or without "[ time] ",
 * /dev/kmsg records "pri,seq,time,flags;text") into results: one per
 * "test N (...)" line under a "testing speed of ..." header, in order,
 * for headers naming `alg` (canonical; NULL: every header the registry
 * knows).  Seconds form: ops/s and
 * bytes/s from "N operations in S seconds (B bytes)" (or "N ops/s (B
 * bytes)", "N opers/sec, B bytes/sec"); cycles form
 * ("1 operation in C cycles (B bytes)"): cycles_per_byte, and the rates
 * from ghz when ghz > 0.  Hash rows keep one update per block (tcrypt's
 * other rows split a block into several updates).  A result's driver
 * and alg_label are its own copies (tc_free).  Returns the count appended
 * to *res (grown with realloc), or -ENOMEM.  tc_free also frees a
 * backend_version set by the caller with malloc.
 */
int tc_parse(const char *text, const char *alg, double ghz,
             struct cb_result **res, size_t *n);
void tc_free(struct cb_result *res, size_t n);

#endif
