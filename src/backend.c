/*
 * backend.c - the list of backends and the lookups over their
 * implementations: each backend's own const table followed by the
 * templates (template.c) composed from its primitives.
 *
 * Adding a backend: one file under backends/ defining a const struct
 * cb_backend, and one line in cb_backends[] below.
 */
#include <stdlib.h>
#include <string.h>

#include "cb.h"
#include "template.h"
#include "util.h"

extern const struct cb_backend cb_backend_openssl;
extern const struct cb_backend cb_backend_gcrypt;
extern const struct cb_backend cb_backend_nettle;
extern const struct cb_backend cb_backend_native;
extern const struct cb_backend cb_backend_kernel;

const struct cb_backend *const cb_backends[] = {
	&cb_backend_openssl,
	&cb_backend_gcrypt,
	&cb_backend_nettle,
	&cb_backend_native,
	&cb_backend_kernel,
	NULL,
};

#define NBACKENDS (sizeof cb_backends / sizeof cb_backends[0] - 1)

struct backend_state {
	int probed, status;
	const char *why;
	const struct cb_impl **impls;   /* own table + templates, NULL-ended */
};
static struct backend_state state[NBACKENDS];

static size_t backend_index(const struct cb_backend *b)
{
	for (size_t i = 0; i < NBACKENDS; i++)
		if (cb_backends[i] == b)
			return i;
	abort();
}

const struct cb_backend *cb_backend_find(const char *name)
{
	for (size_t i = 0; i < NBACKENDS; i++)
		if (strcmp(cb_backends[i]->name, name) == 0)
			return cb_backends[i];
	return NULL;
}

int cb_backend_status(const struct cb_backend *b, const char **why)
{
	struct backend_state *st = &state[backend_index(b)];

	if (!st->probed) {
		st->why = "";
		st->status = b->probe ? b->probe(&st->why) : 0;
		st->probed = 1;
	}
	if (why)
		*why = st->why;
	return st->status;
}

/* The primitives b's templates are made of, through the one selector.
 * Runs while b's list holds only its own table (see cb_backend_impls). */
static void template_parts(const struct cb_backend *b,
                           struct cb_tmpl_parts *p)
{
	p->backend = b->name;
	p->cbc = cb_impl_select(b, "cbc(aes)", NULL, NULL);
	p->ecb = cb_impl_select(b, "ecb(aes)", NULL, NULL);
	p->hmac = cb_impl_select(b, "hmac(sha256)", NULL, NULL);
	p->gcm = cb_impl_select(b, "gcm(aes)", NULL, NULL);
	p->has_rfc4106 = cb_impl_select(b, "rfc4106(gcm(aes))", NULL, NULL)
	                 != NULL;
	p->sha = cb_impl_any("sha256", b->name);
	p->has_null = cb_impl_select(b, "ecb(cipher_null)", NULL, NULL) != NULL;
}

const struct cb_impl *const *cb_backend_impls(const struct cb_backend *b)
{
	struct cb_tmpl_parts parts;
	struct backend_state *st = &state[backend_index(b)];
	size_t n = 0, cap;

	if (st->impls)
		return st->impls;
	cb_backend_status(b, NULL);    /* a backend may fill its table then */
	while (b->impls && b->impls[n])
		n++;
	cap = n + CB_MAX_TEMPLATES + 1;
	st->impls = cb_xcalloc(cap, sizeof *st->impls);
	for (size_t i = 0; i < n; i++)
		st->impls[i] = b->impls[i];
	if (!b->no_templates) {
		template_parts(b, &parts);   /* st->impls: its own table so far */
		n += cb_templates_build(&parts, st->impls, n, cap - 1 - n);
	}
	st->impls[n] = NULL;
	return st->impls;
}

const struct cb_impl *cb_impl_find(const struct cb_backend *b,
                                   const char *alg, int n)
{
	for (const struct cb_impl *const *p = cb_backend_impls(b); *p; p++)
		if (strcmp((*p)->alg, alg) == 0 && n-- == 0)
			return *p;
	return NULL;
}

const struct cb_backend *cb_impl_backend(const struct cb_impl *impl)
{
	for (size_t i = 0; i < NBACKENDS; i++)
		for (const struct cb_impl *const *p =
		         cb_backend_impls(cb_backends[i]); *p; p++)
			if (*p == impl)
				return cb_backends[i];
	return NULL;
}

int cb_impl_status(const struct cb_impl *impl, const char **why)
{
	const struct cb_backend *b = cb_impl_backend(impl);
	const char *ignored;
	int rc;

	if (!why)                  /* probes always say why */
		why = &ignored;
	*why = "";
	if (b && (rc = cb_backend_status(b, why)) < 0)
		return rc;
	if (impl->probe)
		return impl->probe(impl, why);
	return 0;
}

const struct cb_impl *cb_impl_select(const struct cb_backend *b,
                                     const char *alg, cb_impl_filter filter,
                                     void *arg)
{
	const struct cb_impl *impl;

	if (!b) {
		for (size_t i = 0; i < NBACKENDS; i++)
			if ((impl = cb_impl_select(cb_backends[i], alg, filter,
			                           arg)))
				return impl;
		return NULL;
	}
	if (cb_backend_status(b, NULL) < 0)
		return NULL;
	for (int n = 0; (impl = cb_impl_find(b, alg, n)); n++)
		if (cb_impl_status(impl, NULL) == 0 &&
		    (!filter || filter(impl, arg)))
			return impl;
	return NULL;
}

const struct cb_impl *cb_impl_any(const char *alg, const char *prefer)
{
	const struct cb_backend *b = prefer ? cb_backend_find(prefer) : NULL;
	const struct cb_impl *impl = b ? cb_impl_select(b, alg, NULL, NULL)
	                               : NULL;

	return impl ? impl : cb_impl_select(NULL, alg, NULL, NULL);
}
