/*
 * ct_plugin.c - a test plug-in that proves `cryptobench ct` can fail
 * (issue 37, docs/ct.md).  Backend "ctplant": four implementations of
 * hmac(md5), each OpenSSL's HMAC through EVP_MAC (scalar code, so
 * valgrind runs the path this machine runs at every --cpu level), with a
 * leak planted beside it that never changes a MAC:
 *
 *   hmac-md5-ctclean   nothing: constant-time
 *   hmac-md5-ctbranch  a branch on the key's first byte, every message:
 *                      a secret-dependent branch
 *   hmac-md5-cttable   a load from a 256-byte table indexed by the key's
 *                      first byte, every message: a secret-dependent
 *                      memory index
 *   hmac-md5-ctslow    extra work for every message byte with its top bit
 *                      set: a secret-dependent branch that the timing test
 *                      sees too (the fixed input is all zero)
 *
 * It includes only cryptobench/plugin.h and OpenSSL.  Build (make
 * build/tests/ctplant.so):
 *   cc -shared -fPIC -Iinclude -o ctplant.so tests/ct/ct_plugin.c -lcrypto
 */
#include <stdio.h>
#include <stdlib.h>

#include <cryptobench/plugin.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>

enum plant { CLEAN, BRANCH, TABLE, SLOW };

static const struct cb_host *host;
static volatile unsigned sink;     /* what the planted work leaves     */
static volatile uint8_t table[256];

struct mac {
	EVP_MAC *mac;
	EVP_MAC_CTX *h;
	uint8_t key0;           /* the key's first byte: secret             */
};

static int32_t mac_setkey(void *ctx, const struct cb_impl *impl,
                          const uint8_t *key, size_t n)
{
	static const uint8_t empty[1];
	struct mac *m = ctx;
	OSSL_PARAM p[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "MD5", 0),
		OSSL_PARAM_construct_end(),
	};

	(void)impl;
	m->key0 = n ? key[0] : 0;
	if ((!m->mac && !(m->mac = EVP_MAC_fetch(NULL, "HMAC", NULL))) ||
	    (!m->h && !(m->h = EVP_MAC_CTX_new(m->mac))) ||
	    !EVP_MAC_init(m->h, n ? key : empty, n, p)) {
		ERR_clear_error();
		host->set_error("ctplant: OpenSSL's HMAC-MD5 refused the key");
		return -ENOTSUP;
	}
	return 0;
}

static void mac_free(void *ctx)
{
	struct mac *m = ctx;

	EVP_MAC_CTX_free(m->h);
	EVP_MAC_free(m->mac);
}

static int32_t mac_init(void *ctx)
{
	struct mac *m = ctx;

	return EVP_MAC_init(m->h, NULL, 0, NULL) ? 0 : -EINVAL;
}

/* hmac-md5-ctslow: work for each byte with its top bit set */
static void slow(const uint8_t *in, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (in[i] & 0x80)
			for (int k = 0; k < 16; k++)
				sink += (unsigned)k;
}

static int32_t update(void *ctx, const uint8_t *in, size_t n, enum plant p)
{
	struct mac *m = ctx;

	if (p == SLOW)
		slow(in, n);
	return EVP_MAC_update(m->h, in, n) ? 0 : -EINVAL;
}

static int32_t final(void *ctx, uint8_t *out, enum plant p)
{
	struct mac *m = ctx;
	size_t len = 0;

	if (p == BRANCH && (m->key0 & 1))
		sink++;
	else if (p == TABLE)
		sink += table[m->key0];
	return EVP_MAC_final(m->h, out, &len, 16) && len == 16 ? 0 : -EINVAL;
}

#define PLANT(name, p)                                                        \
	static int32_t up_##name(void *c, const uint8_t *in, size_t n)         \
	{ return update(c, in, n, p); }                                        \
	static int32_t fin_##name(void *c, uint8_t *out)                      \
	{ return final(c, out, p); }                                           \
	static const struct cb_impl impl_##name = {                           \
		.alg = "hmac(md5)", .driver = "hmac-md5-ct" #name,           \
		.priority = 10, .ctx_size = sizeof(struct mac),               \
		.setkey = mac_setkey, .free = mac_free, .init = mac_init,    \
		.update = up_##name, .final = fin_##name,                     \
	};
PLANT(clean, CLEAN)
PLANT(branch, BRANCH)
PLANT(table, TABLE)
PLANT(slow, SLOW)

static const struct cb_impl *const impls[] = {
	&impl_clean, &impl_branch, &impl_table, &impl_slow, NULL,
};

static const char *ct_version(void)
{
	return OpenSSL_version(OPENSSL_VERSION_STRING);
}

static const struct cb_plugin plugin = {
	CB_PLUGIN_HEADER,
	.name = "ctplant",
	.description = "OpenSSL's HMAC-MD5 with planted leaks (tests/ct)",
	.version = ct_version,
	.impls = impls,
};

CB_PLUGIN_EXPORT const struct cb_plugin *
cryptobench_plugin(const struct cb_host *h)
{
	host = h;
	return &plugin;
}
