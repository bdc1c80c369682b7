/*
 * backend.c - the list of backends and the lookups over their
 * implementations: each backend's own table followed by the templates
 * (template.c) composed from its primitives.
 *
 * Built in: native (our own code) and kernel (AF_ALG); the libraries are
 * plug-ins (src/core/loader.c, docs/plugins.md) loaded when the program starts:
 * from the plug-in directory of the build tree or the installed one, then
 * CRYPTOBENCH_PLUGIN_PATH and --plugin (cb_plugins_load).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cb.h"
#include "core/loader.h"
#include "core/template.h"
#include "foundation/util.h"

#ifndef CB_PLUGINDIR
#define CB_PLUGINDIR "/usr/local/lib/cryptobench/plugins"
#endif

extern const struct cb_backend cb_backend_native;
extern const struct cb_backend cb_backend_kernel;

/* The libraries whose plug-ins come first, in this order, and are named
 * unavailable (with the reason) when they cannot be loaded. */
static const char *const known[] = { "openssl", "gcrypt", "nettle" };
#define NKNOWN (sizeof known / sizeof known[0])

const struct cb_backend *cb_backends[CB_MAX_BACKENDS + 1];
static size_t nbackends;
static char plugin_dir[4096];

struct backend_state {
	int probed, status;
	const char *why;
	const struct cb_impl **impls;   /* own table + templates, NULL-ended */
};
static struct backend_state state[CB_MAX_BACKENDS];

static void add(const struct cb_backend *b)
{
	if (nbackends == CB_MAX_BACKENDS) {
		cb_err("more than %d backends: %s left out", CB_MAX_BACKENDS,
		       b->name);
		return;
	}
	cb_backends[nbackends++] = b;
}

/* ---- the host's services to plug-ins (struct cb_host) ---------------- */

static int host_digest(const char *alg, const char *not_backend,
                       const uint8_t *msg, size_t len, uint8_t *out,
                       size_t outlen);

static const struct cb_host host = {
	.abi_version = CB_PLUGIN_ABI_VERSION, .size = sizeof(struct cb_host),
	.set_error = cb_set_error, .alg = cb_loader_alg,
	.digest = host_digest, .wipe = cb_wipe,
};

static int not_from(const struct cb_impl *impl, void *arg)
{
	const struct cb_backend *b = cb_impl_backend(impl);

	return !arg || !b || strcmp(b->name, arg);
}

static int host_digest(const char *alg, const char *not_backend,
                       const uint8_t *msg, size_t len, uint8_t *out,
                       size_t outlen)
{
	const struct cb_alg *a = cb_alg_find(alg, NULL);
	const struct cb_impl *impl;
	struct cb_inst h;
	int rc;

	if (!a || a->kind != CB_HASH || outlen < a->digest_len)
		return -EINVAL;
	if (!(impl = cb_impl_select(NULL, alg, not_from, (void *)not_backend))) {
		cb_set_error("no backend here computes %s", alg);
		return -ENOTSUP;
	}
	if ((rc = cb_inst_new(&h, impl, NULL, 0)) < 0)
		return rc;
	rc = cb_inst_digest(&h, msg, len, out);
	cb_inst_free(&h);
	return rc;
}

/* ---- finding and loading plug-ins ------------------------------------ */

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Is a directory entry's name a plug-in's, NAME.so? */
static int is_so(const char *e)
{
	size_t len = strlen(e);

	return len > 3 && !strcmp(e + len - 3, ".so");
}

/* Does dir hold a plug-in (a *.so)?  The checkout's plugins/ holds the
 * sources of out-of-tree ones, not plug-ins. */
static int has_plugins(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	while (d && !found && (e = readdir(d)))
		found = is_so(e->d_name);
	if (d)
		closedir(d);
	return found;
}

/* The build tree's plug-in directory next to the binary (./cryptobench:
 * build/plugins; build/asan/cryptobench: build/asan/plugins; a test in
 * build/tests: build/plugins), else the installed one. */
static void find_plugin_dir(void)
{
	static const char *const rel[] = { "build/plugins", "plugins",
	                                   "../plugins" };
	char exe[2048];

	if (cb_exe_dir(exe, sizeof exe) == 0)
		for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
			snprintf(plugin_dir, sizeof plugin_dir, "%s/%s", exe,
			         rel[i]);
			if (has_plugins(plugin_dir))
				return;
		}
	snprintf(plugin_dir, sizeof plugin_dir, "%s", CB_PLUGINDIR);
}

const char *cb_plugin_dir(void)
{
	return plugin_dir;
}

/* A backend that stands for a plug-in that could not be loaded. */
static void add_missing(const char *name, const char *file, const char *why)
{
	struct cb_backend *b = cb_xcalloc(1, sizeof *b);
	char msg[1024];

	snprintf(msg, sizeof msg, "plug-in %s: %s", file, why);
	b->name = cb_xstrdup(name);
	b->description = "a plug-in that could not be loaded";
	b->file = cb_xstrdup(file);
	b->load_error = cb_xstrdup(msg);
	add(b);
}

/* Load file; the reason it was refused in why. */
static int load(const char *file, char *why, size_t n)
{
	struct cb_backend *b;

	cb_backends[nbackends] = NULL;
	if (cb_loader_open(file, &host, cb_backends, &b, why, n) < 0)
		return -1;
	add(b);
	return 0;
}

/* The same, for a plug-in asked for: err is "FILE: reason". */
static int load_asked(const char *file, char *err, size_t n)
{
	char why[512];

	if (load(file, why, sizeof why) == 0)
		return 0;
	snprintf(err, n, "%s: %s", file, why);
	return -1;
}

static int is_known(const char *e)
{
	for (size_t j = 0; j < NKNOWN; j++)
		if (strlen(e) == strlen(known[j]) + 3 &&
		    !strncmp(e, known[j], strlen(known[j])))
			return 1;
	return 0;
}

/* The known libraries' NAME.so of the plug-in directory, in their
 * order; one that fails stays in the list, unavailable, with the reason. */
static void load_known(void)
{
	char file[4600], why[512];

	for (size_t i = 0; i < NKNOWN; i++) {
		snprintf(file, sizeof file, "%s/%s.so", plugin_dir, known[i]);
		if (access(file, F_OK) != 0)
			add_missing(known[i], file, "not found (not built, or "
			            "not installed)");
		else if (load(file, why, sizeof why) < 0)
			add_missing(known[i], file, why);
	}
}

/* The plug-in directory's other *.so, sorted; likewise. */
static void load_others(void)
{
	struct dirent **ents = NULL;
	int k = is_dir(plugin_dir) ? scandir(plugin_dir, &ents, NULL,
	                                     alphasort) : 0;
	char file[4600], why[512], name[256];

	for (int i = 0; i < k; i++) {
		const char *e = ents[i]->d_name;

		snprintf(file, sizeof file, "%s/%s", plugin_dir, e);
		if (is_so(e) && !is_known(e) && load(file, why, sizeof why) < 0) {
			snprintf(name, sizeof name, "%.*s", (int)strlen(e) - 3, e);
			add_missing(name, file, why);
		}
		free(ents[i]);
	}
	free(ents);
}

/* At start-up, before main(): every binary of the project (the program,
 * the C tests) sees the same backends. */
__attribute__((constructor)) static void backends_init(void)
{
	find_plugin_dir();
	load_known();
	add(&cb_backend_native);
	add(&cb_backend_kernel);
	load_others();
	cb_backends[nbackends] = NULL;
}

/* A CRYPTOBENCH_PLUGIN_PATH entry: a file, or a directory's *.so. */
static int load_path_entry(const char *p, char *err, size_t n)
{
	struct dirent **ents;
	char file[4600];
	int k, rc = 0;

	if (access(p, F_OK) != 0)     /* as in PATH: an absent entry is skipped */
		return 0;
	if (!is_dir(p))
		return load_asked(p, err, n);
	if ((k = scandir(p, &ents, NULL, alphasort)) < 0) {
		snprintf(err, n, "%s: cannot read the directory", p);
		return -1;
	}
	for (int i = 0; i < k; i++) {
		snprintf(file, sizeof file, "%s/%s", p, ents[i]->d_name);
		if (!rc && is_so(ents[i]->d_name))
			rc = load_asked(file, err, n);
		free(ents[i]);
	}
	free(ents);
	return rc;
}

int cb_plugins_load(const char *const *files, size_t n, char *err,
                    size_t errlen)
{
	const char *env = getenv("CRYPTOBENCH_PLUGIN_PATH");
	char *path = env ? cb_xstrdup(env) : NULL, *save = NULL;
	int rc = 0;

	for (char *p = path ? strtok_r(path, ":", &save) : NULL; p && !rc;
	     p = strtok_r(NULL, ":", &save))
		rc = load_path_entry(p, err, errlen);
	free(path);
	for (size_t i = 0; i < n && !rc; i++)
		rc = load_asked(files[i], err, errlen);
	cb_backends[nbackends] = NULL;
	return rc;
}

static size_t backend_index(const struct cb_backend *b)
{
	for (size_t i = 0; i < nbackends; i++)
		if (cb_backends[i] == b)
			return i;
	abort();
}

const struct cb_backend *cb_backend_find(const char *name)
{
	for (size_t i = 0; i < nbackends; i++)
		if (strcmp(cb_backends[i]->name, name) == 0)
			return cb_backends[i];
	return NULL;
}

int cb_backend_status(const struct cb_backend *b, const char **why)
{
	struct backend_state *st = &state[backend_index(b)];

	if (!st->probed) {
		st->why = "";
		st->status = b->load_error ? (st->why = b->load_error, -ENOTSUP)
		             : b->probe ? b->probe(&st->why) : 0;
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
	for (size_t i = 0; i < nbackends; i++)
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
		for (size_t i = 0; i < nbackends; i++)
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
