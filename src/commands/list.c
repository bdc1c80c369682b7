/*
 * list.c - `cryptobench list [backends|algs]`: what is here.  Backends
 * with their library version, status (or why unavailable) and the code
 * path they chose; algorithms with each backend's driver names and key
 * sizes; the CPU's crypto features.
 */
#include <stdio.h>
#include <string.h>

#include "core/cb.h"
#include "commands/cmd.h"
#include "foundation/cpu.h"
#include "system/cpulevel.h"
#include "foundation/util.h"

static void key_sizes(const struct cb_alg *a, const struct cb_impl *impl,
                      char *buf, size_t n)
{
	int range = cb_alg_key_range(a), own = impl && impl->key_bits;
	size_t off = 0;

	buf[0] = 0;
	if (a->flags & CB_F_NOKEY) {
		snprintf(buf, n, "-");
		return;
	}
	if (a->flags & CB_F_ANYKEY) {
		snprintf(buf, n, "any");
		return;
	}
	if (range && !impl) {
		snprintf(buf, n, "%u..%u/%u", a->key.min, a->key.max, a->key.step);
		return;
	}
	if (own)
		for (const unsigned *k = impl->key_bits; *k && off < n; k++)
			off += (size_t)snprintf(buf + off, n - off, "%s%u",
			                        off ? "," : "", *k);
	else if (range)
		for (int i = 0; i < CB_KEY_STD && a->key.std[i] && off < n; i++)
			off += (size_t)snprintf(buf + off, n - off, "%s%u",
			                        off ? "," : "", a->key.std[i]);
	else
		for (unsigned b = a->key.min; b <= a->key.max && off < n;
		     b += a->key.step ? a->key.step : a->key.max + 1)
			off += (size_t)snprintf(buf + off, n - off, "%s%u",
			                        off ? "," : "", b);
	if (range && !own && off < n)
		snprintf(buf + off, n - off, " (%u..%u/%u)", a->key.min,
		         a->key.max, a->key.step);
}

static void list_backends(void)
{
	const struct cb_cpu *cpu = cb_cpu();

	printf("cpu: %s\ncpu crypto features: %s\ncpu level: %s%s\n\n",
	       cpu->model, cpu->flags[0] ? cpu->flags : "(none)",
	       cb_cpu_level_name(), strcmp(cb_cpu_level_name(), "max") ? ""
	       : " (no cap; --cpu LEVEL caps every backend)");
	printf("%-8s %-12s %-10s %s\n", "backend", "version", "status",
	       "details");
	for (int i = 0; cb_backends[i]; i++) {
		const struct cb_backend *b = cb_backends[i];
		const char *why, *det;
		int ok = cb_backend_status(b, &why) == 0;

		det = ok && b->details ? b->details() : NULL;
		printf("%-8s %-12s %-10s %s\n", b->name,
		       ok && b->version ? b->version() : "-",
		       ok ? "available" : "unavailable",
		       ok ? (det ? det : b->description ? b->description : "")
		          : why);
	}
	printf("\nplug-ins (directory %s; more with --plugin FILE.so or "
	       "CRYPTOBENCH_PLUGIN_PATH):\n", cb_plugin_dir());
	for (int i = 0; cb_backends[i]; i++) {
		const struct cb_backend *b = cb_backends[i];

		if (b->file && b->load_error)
			printf("%-8s %s  not loaded\n", b->name, b->file);
		else if (b->file)
			printf("%-8s %s  ABI %u\n", b->name, b->file, b->abi);
	}
}

/* "; usual 256,512" where the sizes speed and bench measure by default
 * are fewer than the range (XTS: 384 only with bench --full). */
static void usual_keys(const struct cb_alg *a)
{
	unsigned n = 0, all = 0;

	if (!a->key.step || cb_alg_key_range(a))
		return;
	for (unsigned b = a->key.min; b <= a->key.max; b += a->key.step)
		all++;
	while (n < CB_KEY_STD && a->key.std[n])
		n++;
	if (n >= all)
		return;
	printf("; usual");
	for (unsigned i = 0; i < n; i++)
		printf("%c%u", i ? ',' : ' ', a->key.std[i]);
}

/* the request parameters beyond the defaults (registry: tags, ad_lens) */
static void alg_params(const struct cb_alg *a)
{
	char t[96];

	if (a->tags && a->tags != CB_LEN(a->digest_len)) {
		cb_lens_text(a->tags, t, sizeof t);
		printf(" (%s)", t);
	}
	if (a->ad_lens) {
		cb_lens_text(a->ad_lens, t, sizeof t);
		printf("; associated data %s", t);
	} else if (a->ad_min)
		printf("; associated data %u or more", a->ad_min);
	if (a->salt_min)
		printf(" (at least %u; salt %u or more)", a->out_min, a->salt_min);
}

static void list_algs(void)
{
	for (size_t i = 0; i < cb_nalgs; i++) {
		const struct cb_alg *a = &cb_algs[i];
		char ks[64];

		key_sizes(a, NULL, ks, sizeof ks);
		printf("%s  (%s; key bits %s", a->name, cb_kind_name(a->kind), ks);
		usual_keys(a);
		if (a->kind == CB_CIPHER || a->kind == CB_AEAD)
			printf("; block %u, iv %u", a->block, a->iv_len);
		if (a->digest_len)
			printf("; %s %u", a->kind == CB_AEAD ? "tag" : a->kind == CB_KDF
			       ? "derived key" : "digest",
			       a->digest_len);
		alg_params(a);
		printf(")\n");
		for (size_t j = 0; j < cb_naliases; j++)
			if (!strcmp(cb_aliases[j].canonical, a->name))
				printf("    alias %s\n", cb_aliases[j].alias);
		for (int bi = 0; cb_backends[bi]; bi++) {
			const struct cb_backend *b = cb_backends[bi];
			const struct cb_impl *impl;
			const char *why;
			int n = 0;

			if (cb_backend_status(b, &why) < 0)
				continue;
			while ((impl = cb_impl_find(b, a->name, n++))) {
				int ok = cb_impl_status(impl, &why) == 0;

				key_sizes(a, impl, ks, sizeof ks);
				printf("    %-8s %-56s prio %3d  keys %s%s%s%s%s\n",
				       b->name, impl->driver, impl->priority, ks,
				       ok ? "" : "  unavailable: ", ok ? "" : why,
				       impl->note ? "  " : "",
				       impl->note ? impl->note : "");
			}
			if (n == 1)
				printf("    %-8s (not provided by this library)\n",
				       b->name);
		}
	}
}

const struct cb_command cb_cmd_list = {
	.name = "list", .run = cmd_list, .opts = NULL,
	.synopsis = "list [backends|algs]",
	.summary = "what is here: backends, versions, CPU features; algorithms "
	           "and drivers",
};

int cmd_list(int argc, char **argv)
{
	if (argc > 2) {
		cb_err("list: too many arguments");
		return CB_EXIT_USAGE;
	}
	if (argc == 2 && strcmp(argv[1], "backends") && strcmp(argv[1], "algs")) {
		cb_err("list: unknown argument '%s' (backends or algs)", argv[1]);
		return CB_EXIT_USAGE;
	}
	if (argc == 1 || !strcmp(argv[1], "backends"))
		list_backends();
	if (argc == 1)
		printf("\n");
	if (argc == 1 || !strcmp(argv[1], "algs"))
		list_algs();
	return CB_EXIT_OK;
}
