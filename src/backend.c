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

const struct cb_backend *const cb_backends[] = {
	&cb_backend_openssl,
	&cb_backend_gcrypt,
	&cb_backend_nettle,
	&cb_backend_native,
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

const struct cb_impl *const *cb_backend_impls(const struct cb_backend *b)
{
	struct backend_state *st = &state[backend_index(b)];
	size_t n = 0, cap;

	if (st->impls)
		return st->impls;
	while (b->impls && b->impls[n])
		n++;
	cap = n + CB_MAX_TEMPLATES + 1;
	st->impls = cb_xcalloc(cap, sizeof *st->impls);
	for (size_t i = 0; i < n; i++)
		st->impls[i] = b->impls[i];
	n += cb_templates_build(b, st->impls, n, cap - 1 - n);
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
	int rc;

	if (why)
		*why = "";
	if (b && (rc = cb_backend_status(b, why)) < 0)
		return rc;
	if (impl->probe)
		return impl->probe(impl, why);
	return 0;
}

int cb_impl_key_ok(const struct cb_impl *impl, const struct cb_alg *alg,
                   unsigned key_bits)
{
	if (!cb_alg_key_ok(alg, key_bits))
		return 0;
	if (!impl->key_bits)
		return 1;
	for (const unsigned *k = impl->key_bits; *k; k++)
		if (*k == key_bits)
			return 1;
	return 0;
}

int cb_inst_new(struct cb_inst *inst, const struct cb_impl *impl,
                const uint8_t *key, size_t keylen)
{
	int rc;

	inst->impl = impl;
	inst->ctx = NULL;
	inst->alg = cb_alg_find(impl->alg, NULL);
	if (!inst->alg)
		return -EINVAL;
	if (inst->alg->kind == CB_HASH && (key || keylen))
		return -EINVAL;
	if (inst->alg->kind == CB_CIPHER) {
		if (!cb_alg_key_ok(inst->alg, (unsigned)keylen * 8))
			return -EINVAL;
		if (!cb_impl_key_ok(impl, inst->alg, (unsigned)keylen * 8))
			return -ENOTSUP;
	}
	inst->ctx = cb_xcalloc(1, impl->ctx_size ? impl->ctx_size : 1);
	rc = impl->setkey ? impl->setkey(inst->ctx, impl, key, keylen) : 0;
	if (rc < 0) {
		cb_inst_free(inst);
		return rc;
	}
	return 0;
}

void cb_inst_free(struct cb_inst *inst)
{
	if (!inst->ctx)
		return;
	if (inst->impl->free)
		inst->impl->free(inst->ctx);
	cb_wipe(inst->ctx, inst->impl->ctx_size);
	free(inst->ctx);
	inst->ctx = NULL;
}

int cb_inst_sectors(struct cb_inst *inst, int enc, uint64_t first_iv,
                    uint64_t iv_step, size_t sector_size, const uint8_t *in,
                    uint8_t *out, size_t len)
{
	const struct cb_impl *im = inst->impl;
	int (*multi)(void *, uint64_t, uint64_t, size_t, const uint8_t *,
	             uint8_t *, size_t) =
	        enc ? im->encrypt_sectors : im->decrypt_sectors;
	cb_crypt_fn one = enc ? im->encrypt : im->decrypt;
	uint8_t iv[CB_MAX_BLOCK] = {0};

	if (!sector_size || len % sector_size)
		return -EINVAL;
	if (multi)
		return multi(inst->ctx, first_iv, iv_step, sector_size, in, out,
		             len);
	for (size_t off = 0; off < len; off += sector_size) {
		uint64_t s = first_iv + off / sector_size * iv_step;
		int rc;

		cb_put_le64(iv, s);
		rc = one(inst->ctx, inst->alg->iv_len ? iv : NULL, in + off,
		         out + off, sector_size);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int cb_inst_digest(struct cb_inst *inst, const uint8_t *msg, size_t len,
                   uint8_t *out)
{
	int rc;

	if ((rc = inst->impl->init(inst->ctx)) < 0 ||
	    (rc = inst->impl->update(inst->ctx, msg, len)) < 0)
		return rc;
	return inst->impl->final(inst->ctx, out);
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

int cb_digest(const char *alg, const uint8_t *key, size_t keylen,
              const uint8_t *msg, size_t len, uint8_t *out)
{
	const struct cb_impl *impl = cb_impl_any(alg, "openssl");
	struct cb_inst inst;
	int rc;

	if (!impl) {
		cb_set_error("no backend provides %s", alg);
		return -ENOTSUP;
	}
	if ((rc = cb_inst_new(&inst, impl, key, keylen)) < 0)
		return rc;
	rc = cb_inst_digest(&inst, msg, len, out);
	cb_inst_free(&inst);
	return rc;
}
