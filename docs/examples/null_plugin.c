/*
 * null_plugin.c - a complete minimal cryptobench plug-in (docs/plugins.md):
 * the null cipher ecb(cipher_null), which copies its input, as backend
 * "example".  Build and use it (from a checkout, or with the installed
 * header in place of -Iinclude):
 *
 *   cc -shared -fPIC -O2 -Iinclude -o example.so docs/examples/null_plugin.c
 *   ./cryptobench --plugin ./example.so list backends
 *   ./cryptobench --plugin ./example.so kat --backend example
 *
 * tests/test_plugins.sh builds it, and the broken variants (BROKEN=...)
 * that the host must refuse; tests/test_select.sh builds it under many
 * names (NAME=...) to load more backends than a command once took.
 */
#include <cryptobench/plugin.h>

#ifndef NAME
#define NAME "example"
#endif

static const struct cb_host *host;

/* The null cipher takes no key and keeps no state. */
static int32_t copy(void *ctx, const uint8_t *iv, const uint8_t *in,
                    uint8_t *out, size_t len)
{
	(void)ctx;
	(void)iv;
	if (out != in)
		memmove(out, in, len);
	return 0;
}

static const struct cb_impl null_copy = {
	.alg = "ecb(cipher_null)",
	.driver = "ecb-cipher_null-" NAME,
	.priority = 100,
	.ctx_size = 0,
	.encrypt = copy,
	.decrypt = copy,
#if BROKEN == 6
	.driver = NULL,                    /* a NULL driver name           */
#elif BROKEN == 8
	.alg = "cbc(rot13)",               /* an unknown algorithm          */
#elif BROKEN == 9
	.key_bits = (const uint32_t[]){ 64, 0 },  /* the null cipher: 0 only */
#elif BROKEN == 10
	.decrypt = NULL,                   /* a cipher without decrypt      */
#endif
};

static const struct cb_impl *const impls[] = {
	&null_copy,
#if BROKEN == 7
	&null_copy,                        /* the same driver name twice    */
#endif
	NULL,
};

static const char *version(void)
{
	return "1.0";
}

static const struct cb_plugin plugin = {
	CB_PLUGIN_HEADER,
	.name = NAME,
	.description = "the minimal plug-in of docs/plugins.md",
	.version = version,
	.impls = impls,
#if BROKEN == 3
	.abi_version = CB_PLUGIN_ABI_VERSION + 1,   /* too new            */
#elif BROKEN == 4
	.abi_version = 0,                           /* too old            */
#elif BROKEN == 5
	.size = 8,                                  /* a struct too small */
#endif
};

#if BROKEN != 2                        /* 2: the symbol missing */
CB_PLUGIN_EXPORT const struct cb_plugin *
cryptobench_plugin(const struct cb_host *h)
{
	host = h;                      /* set_error(), alg(), digest()... */
	return &plugin;
}
#endif
