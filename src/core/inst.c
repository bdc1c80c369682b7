/*
 * inst.c - keyed instances of one implementation (struct cb_inst): the one
 * key-size check, context allocation and wiping, and the sector and
 * one-shot digest helpers built on an implementation's operations.  Uses
 * only the registry and util; templates and the core build on it.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "foundation/util.h"

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

/* The one key check (not for hashes and authenc blobs): backends' setkey()
 * rely on it.  0, -EINVAL or -ENOTSUP with a message. */
static int key_check(const struct cb_impl *impl, const struct cb_alg *alg,
                     size_t keylen)
{
	if ((alg->flags & CB_F_AUTHENC) || alg->kind == CB_HASH)
		return 0;
	if (keylen > UINT_MAX / 8 || !cb_alg_key_ok(alg, (unsigned)keylen * 8)) {
		cb_set_error("%s: %zu bytes is not a key size of %s",
		             impl->driver, keylen, alg->name);
		return -EINVAL;
	}
	if (!cb_impl_key_ok(impl, alg, (unsigned)keylen * 8)) {
		cb_set_error("%s: %zu-bit keys not supported", impl->driver,
		             keylen * 8);
		return -ENOTSUP;
	}
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
	if ((rc = key_check(impl, inst->alg, keylen)) < 0)
		return rc;
	inst->ctx = cb_xcalloc(1, impl->ctx_size ? impl->ctx_size : 1);
	rc = impl->setkey ? impl->setkey(inst->ctx, impl, key, keylen) : 0;
	if (rc < 0) {
		cb_inst_free(inst);
		return rc;
	}
	return 0;
}

int cb_inst_rekey(struct cb_inst *inst, const uint8_t *key, size_t keylen)
{
	int rc;

	if (inst->alg->kind != CB_MAC || !inst->impl->setkey)
		return -EINVAL;
	if ((rc = key_check(inst->impl, inst->alg, keylen)) < 0)
		return rc;
	return inst->impl->setkey(inst->ctx, inst->impl, key, keylen);
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

int cb_inst_batch(struct cb_inst *inst, int enc, unsigned n,
                  const uint8_t *const *ivs, const uint8_t *const *in,
                  uint8_t *const *out, size_t len)
{
	const struct cb_impl *im = inst->impl;
	int (*batch)(void *, unsigned, const uint8_t *const *,
	             const uint8_t *const *, uint8_t *const *, size_t) =
	        enc ? im->encrypt_batch : im->decrypt_batch;
	cb_crypt_fn one = enc ? im->encrypt : im->decrypt;

	if (inst->alg->iv_len && !ivs)
		return -EINVAL;
	if (batch)
		return batch(inst->ctx, n, ivs, in, out, len);
	if (!one)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++) {
		int rc = one(inst->ctx, inst->alg->iv_len ? ivs[i] : NULL, in[i],
		             out[i], len);

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
