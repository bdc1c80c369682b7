/*
 * ct.h - constant-time checking (`cryptobench ct`, docs/ct.md): does an
 * implementation branch on, or index memory with, its secrets?
 *
 * Two methods, each named in every verdict:
 *   memcheck  the implementation runs under valgrind with its secrets (the
 *             key, the data) marked undefined (ctgrind, TIMECOP): memcheck
 *             then reports every conditional jump ("branch") and every
 *             address ("memory index") computed from them.  ct re-executes
 *             itself under valgrind (ct_mem.c), which runs the workload
 *             (ct_work.c) and marks each implementation's section of its
 *             log.
 *   timing    dudect (Reparaz, Balasch, Verbauwhede 2017): the same call
 *             timed on a fixed input and on random ones, interleaved at
 *             random; Welch's t over the two classes (ct_time.c).
 *
 * What is secret (docs/ct.md): the key and the data (plaintext to
 * encrypt, ciphertext to decrypt, the message of a hash or MAC, the
 * password of a KDF); public: IVs, lengths, associated data, salts of
 * KDFs, costs.
 */
#ifndef CB_CT_H
#define CB_CT_H

#include <stddef.h>
#include <stdint.h>

#include "core/cb.h"

/* A verdict, from the worst finding down. */
enum ct_verdict {
	CT_BRANCH,       /* memcheck: a conditional jump on a secret          */
	CT_INDEX,        /* memcheck: an address computed from a secret       */
	CT_TIMING,       /* timing: |t| over the threshold, twice             */
	CT_CLEAN,        /* memcheck ran the real path and found nothing       */
	CT_NO_LEAK,      /* timing only, |t| under the threshold              */
	CT_NOT_CHECKED,  /* neither method could run it: why                   */
};
/* A verdict's name: cb_ct_verdicts (output/result.h) is in this enum's
 * order, each with its class (tests/test_tables checks the two agree). */
const char *ct_verdict_name(enum ct_verdict v);

#define CT_T_THRESHOLD 4.5   /* dudect's: above it, "probably not constant
                                time"; a point is flagged when a second,
                                fresh test is above it too             */
#define CT_PLACES 3          /* places kept per implementation           */

/* What memcheck saw of one implementation. */
struct ct_mem {
	int ran;                 /* the implementation ran under valgrind      */
	unsigned branch, index;  /* distinct places of each kind              */
	unsigned other;          /* other memcheck errors (a bug, not a leak) */
	unsigned total;          /* all errors, repeats of a place included   */
	unsigned keysetup;       /* of them, while the key was set            */
	int repeats_only;        /* every error repeated an earlier place     */
	char places[CT_PLACES][200]; /* "fn (file:line) [obj]: branch", first */
	unsigned nplaces;
	char why[200];           /* did not run: why                          */
};

/* What the timing test saw. */
struct ct_time {
	int ran;
	double t;                /* Welch's t: a finding's smaller one of its
	                            two tests, else the test under threshold */
	uint64_t n;              /* measurements, both classes, both tests    */
	char why[200];
};

/* One implementation's verdict. */
struct ct_result {
	const struct cb_impl *impl;
	const char *backend, *driver, *alg;
	unsigned key_bits;
	enum ct_verdict verdict;
	char method[96];         /* "memcheck", "timing", "memcheck+timing", or
	                            "memcheck at --cpu L + timing"           */
	struct ct_mem mem;
	struct ct_time tim;
	char why[240];           /* not checked: why; else a note or ""       */
};

/* ---- ct_work.c: the requests every method runs --------------------- */

/* The sizes every implementation is run at (bytes; ciphers that need
 * whole blocks or 16 bytes at least take them as they are). */
#define CT_SIZES { 16, 64, 512 }

/* Buffers for one implementation's requests (ct_work_new/free). */
struct ct_work {
	const struct cb_impl *impl;
	const struct cb_alg *alg;
	uint8_t key[CB_MAX_KEY];
	size_t keylen;           /* the key as setkey takes it (authenc blob)  */
	unsigned key_bits;
	uint8_t *in, *out, *back, *tag, iv[CB_MAX_BLOCK], ad[32], salt[16];
	size_t cap;
};
/* Hooks the memcheck child sets to mark secrets and say phases (NULL:
 * none, as in the timing method). */
struct ct_hooks {
	void (*secret)(const void *p, size_t n);   /* mark undefined         */
	void (*public)(const void *p, size_t n);   /* mark defined           */
	void (*phase)(const char *what);           /* "key", "requests"      */
};
int ct_work_new(struct ct_work *w, const struct cb_impl *impl);
void ct_work_free(struct ct_work *w);
/* The key bits checked: the algorithm's usual first size. */
unsigned ct_key_bits(const struct cb_alg *a);
/* Key an instance (x) with w->key and run one request of len bytes in
 * direction dir (0 encrypt/digest/derive, 1 decrypt), data from w->in.
 * 0, or negative errno with cb_last_error(). */
int ct_work_key(struct ct_work *w, struct cb_inst *x, const struct ct_hooks *h);
int ct_work_request(struct ct_work *w, struct cb_inst *x, int dir, size_t len,
                    const struct ct_hooks *h);
/* Directions the algorithm has: 2 (ciphers, AEADs) or 1. */
int ct_work_dirs(const struct cb_alg *a);
/* The lengths of the sizes this algorithm takes, in lens; how many. */
size_t ct_work_lengths(const struct cb_alg *a, size_t *lens);
/* Everything the memcheck child runs for one implementation: the key
 * set, then every size in every direction. */
int ct_work_all(const struct cb_impl *impl, const struct ct_hooks *h);

/* ---- ct_mem.c: memcheck ---------------------------------------------- */

/* The child (under valgrind): run every implementation in impls, each
 * between markers in valgrind's log, with the secrets marked. */
int ct_mem_child(const struct cb_impl *const *impls, size_t n);
/*
 * The parent: run impls[0..n) under valgrind (this binary re-executed as
 * `ct --memcheck-child` with level as its --cpu), and fill each res[i].mem.
 * details[b]: what each backend said of its code path under valgrind
 * (backends in cb_backends[] order), for the caller to compare.
 * 0, or -1 with why set (no valgrind, ...).
 */
int ct_mem_run(const struct cb_impl *const *impls, size_t n,
               struct ct_result *res, const char *level, char *why,
               size_t whylen);

/* The CB_HW_* groups CPUID reports (0 without CPUID), and those it
 * reported under valgrind in the last ct_mem_run. */
unsigned ct_cpu_groups(void);
unsigned ct_mem_cpu_groups(void);
/* What backend said of its code path under valgrind, or NULL (not run). */
const char *ct_mem_details(const char *backend);

/* ---- ct_time.c: the timing test ---------------------------------------- */

/* Run the timing test of impl: n measurements a class and test. */
int ct_time_run(const struct cb_impl *impl, uint64_t n, struct ct_time *t);

#endif
