/*
 * select.h - what a command runs on: the one parser of --backend, --alg
 * and --driver, shared by kat, ct, speed and bench.  The lists grow as
 * the options come (no limit but the backends loaded, CB_MAX_BACKENDS);
 * a repeated name is kept once.  An unknown name is an error that names
 * the option and points to `cryptobench list`.
 */
#ifndef CB_SELECT_H
#define CB_SELECT_H

#include <stddef.h>

#include "core/cb.h"

struct cb_sel_alg {
	const struct cb_alg *alg;
	const char *label;          /* as given, when kernel grammar        */
	unsigned key_mult;          /* geli alias: -l gives half the key   */
};

struct cb_sel {
	const struct cb_backend **backends;
	size_t nbackends;
	struct cb_sel_alg *algs;
	size_t nalgs;
	const char **drivers;       /* substrings (or, ct's child: names)   */
	size_t ndrivers;
};

/* Add a backend, an algorithm (a name or alias, cb_alg_find) or a driver
 * substring: 0, or -EINVAL after a message naming the option (a
 * driver substring is always taken). */
int cb_sel_backend(struct cb_sel *s, const char *name);
int cb_sel_alg(struct cb_sel *s, const char *name);
int cb_sel_driver(struct cb_sel *s, const char *sub);
/* Every loaded backend (the default when none was named). */
void cb_sel_all_backends(struct cb_sel *s);
/* Whether driver matches a --driver substring (or none was given). */
int cb_sel_driver_ok(const struct cb_sel *s, const char *driver);
void cb_sel_free(struct cb_sel *s);

#endif
