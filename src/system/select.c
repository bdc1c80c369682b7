/*
 * select.c - the one parser of --backend, --alg and --driver (select.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "system/select.h"
#include "foundation/util.h"

int cb_sel_backend(struct cb_sel *s, const char *name)
{
	const struct cb_backend *b = cb_backend_find(name);

	if (!b) {
		cb_err("--backend: unknown backend '%s' (see 'cryptobench list "
		       "backends')", name);
		return -EINVAL;
	}
	for (size_t i = 0; i < s->nbackends; i++)
		if (s->backends[i] == b)
			return 0;
	s->backends = cb_xrealloc(s->backends,
	                          (s->nbackends + 1) * sizeof *s->backends);
	s->backends[s->nbackends++] = b;
	return 0;
}

int cb_sel_alg(struct cb_sel *s, const char *name)
{
	unsigned mult;
	const struct cb_alg *a = cb_alg_find(name, &mult);
	struct cb_sel_alg *sa;

	if (!a) {
		cb_err("--alg: unknown algorithm '%s' (see 'cryptobench list "
		       "algs')", name);
		return -EINVAL;
	}
	for (size_t i = 0; i < s->nalgs; i++)
		if (s->algs[i].alg == a && s->algs[i].key_mult == mult)
			return 0;
	s->algs = cb_xrealloc(s->algs, (s->nalgs + 1) * sizeof *s->algs);
	sa = &s->algs[s->nalgs++];
	sa->alg = a;
	sa->label = strchr(name, '(') && strcmp(name, a->name) ? name : NULL;
	sa->key_mult = mult;
	return 0;
}

int cb_sel_driver(struct cb_sel *s, const char *sub)
{
	s->drivers = cb_xrealloc(s->drivers,
	                         (s->ndrivers + 1) * sizeof *s->drivers);
	s->drivers[s->ndrivers++] = sub;
	return 0;
}

void cb_sel_all_backends(struct cb_sel *s)
{
	for (int i = 0; cb_backends[i]; i++)
		cb_sel_backend(s, cb_backends[i]->name);
}

int cb_sel_driver_ok(const struct cb_sel *s, const char *driver)
{
	if (!s->ndrivers)
		return 1;
	for (size_t i = 0; i < s->ndrivers; i++)
		if (strstr(driver, s->drivers[i]))
			return 1;
	return 0;
}

void cb_sel_free(struct cb_sel *s)
{
	free(s->backends);
	free(s->algs);
	free(s->drivers);
	memset(s, 0, sizeof *s);
}
