/*
 * loader.c - plug-ins (include/cryptobench/plugin.h, docs/plugins.md):
 * open a shared object, check its descriptor and every implementation
 * against the registry, and make a struct cb_backend of it.  A plug-in
 * that breaks the contract is refused with one reason; nothing of it is
 * called but cryptobench_plugin().  Core: uses the registry and util only;
 * backend.c keeps the list and hands in the host's services.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "core/loader.h"
#include "foundation/util.h"

/* Where ABI 1's structs end: a plug-in's may be longer (fields added
 * later, which this host does not read), never shorter. */
#define V1_PLUGIN_SIZE (offsetof(struct cb_plugin, no_templates) + \
                        sizeof(int32_t))
#define V1_IMPL_SIZE   (offsetof(struct cb_impl, no_chain) + sizeof(int32_t))

static struct cb_alg_info *infos;    /* one per registry row, made once */

const struct cb_alg_info *cb_loader_alg(const char *name)
{
	if (!infos) {
		infos = cb_xcalloc(cb_nalgs, sizeof *infos);
		for (size_t i = 0; i < cb_nalgs; i++) {
			const struct cb_alg *a = &cb_algs[i];

			infos[i] = (struct cb_alg_info){
				.size = sizeof *infos, .kind = a->kind,
				.block = a->block, .iv_len = a->iv_len,
				.digest_len = a->digest_len, .min_len = a->min_len,
				.flags = a->flags, .key_min = a->key.min,
				.key_max = a->key.max, .key_step = a->key.step,
				.name = a->name, .inner = a->inner };
		}
	}
	for (size_t i = 0; name && i < cb_nalgs; i++)
		if (!strcmp(infos[i].name, name))
			return &infos[i];
	return NULL;
}

/* The entry points alg's kind requires, each NULL one named in err. */
static int entry_points(const struct cb_impl *m, const struct cb_alg *a,
                        char *err, size_t n)
{
	const char *miss = NULL;
	int keyed = !(a->flags & CB_F_NOKEY);

	switch (a->kind) {
	case CB_CIPHER:
		miss = keyed && !m->setkey ? "setkey" : !m->encrypt ? "encrypt"
		       : !m->decrypt ? "decrypt" : NULL;
		break;
	case CB_MAC:
		if (!m->setkey) {
			miss = "setkey";
			break;
		}
		/* fall through */
	case CB_HASH:
		miss = !m->init ? "init" : !m->update ? "update"
		       : !m->final ? "final" : NULL;
		break;
	case CB_AEAD:
		miss = !m->setkey ? "setkey" : !m->aead_encrypt ? "aead_encrypt"
		       : !m->aead_decrypt ? "aead_decrypt" : NULL;
		break;
	case CB_KDF:
		miss = !m->derive ? "derive" : NULL;
		break;
	}
	if (miss)
		snprintf(err, n, "driver '%s': %s (a %s) needs %s, which is NULL",
		         m->driver, a->name, cb_kind_name(a->kind), miss);
	return miss ? -1 : 0;
}

/* Is driver taken by an earlier implementation of this table or of a
 * backend already loaded?  Its owner's name, or NULL. */
static const char *driver_taken(const char *driver,
                                const struct cb_impl *const *mine, size_t k,
                                const char *me,
                                const struct cb_backend *const *have)
{
	for (size_t i = 0; i < k; i++)
		if (!strcmp(mine[i]->driver, driver))
			return me;
	for (; *have; have++)
		for (const struct cb_impl *const *p = (*have)->impls; p && *p; p++)
			if ((*p)->driver && !strcmp((*p)->driver, driver))
				return (*have)->name;
	return NULL;
}

/* One implementation against the registry and the contract. */
static int check_impl(const struct cb_impl *m, char *err, size_t n)
{
	const struct cb_alg *a;

	if (!m->driver || !*m->driver) {
		snprintf(err, n, "an implementation of '%s' has no driver name",
		         m->alg ? m->alg : "(null)");
		return -1;
	}
	if (!m->alg || !(a = cb_alg_find(m->alg, NULL)) ||
	    strcmp(a->name, m->alg)) {
		snprintf(err, n, "driver '%s': unknown algorithm '%s' (not a "
		         "canonical name of `cryptobench list algs`)", m->driver,
		         m->alg ? m->alg : "(null)");
		return -1;
	}
	for (const uint32_t *k = m->key_bits; k && *k; k++)
		if (!cb_alg_key_ok(a, *k)) {
			snprintf(err, n, "driver '%s': key size %u bits is not "
			         "one of %s's", m->driver, (unsigned)*k, a->name);
			return -1;
		}
	return entry_points(m, a, err, n);
}

/* The plug-in's table as host structs (copies when its structs are
 * shorter than ours: the fields it does not have read as 0), checked. */
static const struct cb_impl **take_impls(const struct cb_plugin *d,
                                         const struct cb_backend *const *have,
                                         char *err, size_t n)
{
	int copy = d->impl_size < sizeof(struct cb_impl);
	const struct cb_impl **t;
	const char *owner;
	size_t k = 0, i;

	while (d->impls[k])
		k++;
	t = cb_xcalloc(k + 1, sizeof *t);
	for (i = 0; i < k; i++) {
		t[i] = d->impls[i];
		if (copy) {
			struct cb_impl *c = cb_xcalloc(1, sizeof *c);

			t[i] = memcpy(c, d->impls[i], d->impl_size);
		}
		if (check_impl(t[i], err, n) < 0)
			break;
		if ((owner = driver_taken(t[i]->driver, t, i, d->name, have))) {
			snprintf(err, n, "driver name '%s' is already taken "
			         "(backend %s)", t[i]->driver, owner);
			break;
		}
	}
	if (i == k)
		return t;
	for (size_t j = 0; copy && j <= i; j++)
		free((void *)t[j]);
	free(t);
	return NULL;
}

/* The descriptor's header, which every ABI has: versions and sizes. */
static int check_header(const struct cb_plugin *d, char *err, size_t n)
{
	if (d->abi_version > CB_PLUGIN_ABI_VERSION) {
		snprintf(err, n, "built for plug-in ABI %u, newer than this "
		         "cryptobench's %u", (unsigned)d->abi_version,
		         CB_PLUGIN_ABI_VERSION);
		return -1;
	}
	if (d->abi_version < CB_PLUGIN_ABI_MIN) {
		snprintf(err, n, "built for plug-in ABI %u, older than the "
		         "oldest this cryptobench loads (%u)",
		         (unsigned)d->abi_version, CB_PLUGIN_ABI_MIN);
		return -1;
	}
	if (d->size < V1_PLUGIN_SIZE || d->impl_size < V1_IMPL_SIZE) {
		snprintf(err, n, "struct sizes %u (descriptor) and %u "
		         "(implementation) are smaller than ABI %u's %zu and %zu",
		         (unsigned)d->size, (unsigned)d->impl_size,
		         (unsigned)d->abi_version, V1_PLUGIN_SIZE, V1_IMPL_SIZE);
		return -1;
	}
	return 0;
}

/* The rest of the descriptor: its name and table. */
static int check_plugin(const struct cb_plugin *d,
                        const struct cb_backend *const *have,
                        char *err, size_t n)
{
	if (!d->name || !*d->name || strspn(d->name, "abcdefghijklmnopqrstuvwxyz"
	                                    "0123456789_-") != strlen(d->name)) {
		snprintf(err, n, "backend name '%s' is not [a-z0-9_-]+",
		         d->name ? d->name : "(null)");
		return -1;
	}
	for (; *have; have++)
		if (!strcmp((*have)->name, d->name)) {
			snprintf(err, n, "backend name '%s' is already taken (%s)",
			         d->name, (*have)->file ? (*have)->file : "built in");
			return -1;
		}
	if (!d->impls) {
		snprintf(err, n, "no implementation table (impls is NULL)");
		return -1;
	}
	return 0;
}

int cb_loader_open(const char *file, const struct cb_host *host,
                   const struct cb_backend *const *have,
                   struct cb_backend **out, char *err, size_t n)
{
	void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	const struct cb_plugin *raw;
	struct cb_plugin d = { 0 };      /* ours: a shorter one reads as 0s */
	const struct cb_impl **impls;
	struct cb_backend *b;
	cb_plugin_entry entry;

	if (!h) {
		snprintf(err, n, "cannot be loaded: %s", dlerror());
		return -1;
	}
	*(void **)&entry = dlsym(h, CB_PLUGIN_SYMBOL);
	if (!entry) {
		snprintf(err, n, "no symbol %s: not a cryptobench plug-in",
		         CB_PLUGIN_SYMBOL);
		return -1;                     /* h stays open: a file's own
		                                  constructors may have run */
	}
	if (!(raw = entry(host))) {
		snprintf(err, n, "%s() returned no descriptor", CB_PLUGIN_SYMBOL);
		return -1;
	}
	memcpy(&d, raw, 4 * sizeof(uint32_t));     /* the header, then the rest */
	if (check_header(&d, err, n) < 0 ||
	    (memcpy(&d, raw, d.size < sizeof d ? d.size : sizeof d),
	     check_plugin(&d, have, err, n) < 0) ||
	    !(impls = take_impls(&d, have, err, n)))
		return -1;
	b = cb_xcalloc(1, sizeof *b);
	*b = (struct cb_backend){
		.name = d.name, .description = d.description,
		.probe = d.probe, .version = d.version, .details = d.details,
		.limits = d.limits, .impls = impls, .cap = d.cap,
		.no_templates = d.no_templates, .file = cb_xstrdup(file),
		.abi = d.abi_version };       /* strings and tables: in the .so */
	*out = b;
	return 0;
}
