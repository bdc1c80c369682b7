/*
 * cmd_list.c - `cryptobench list [backends|algs] [--ct FILE]`: what is here.
 * Backends with their library version, status (or why unavailable) and
 * the code path they chose; algorithms with each backend's driver names
 * and key sizes, and with --ct each implementation's constant-time
 * verdict from a ct run's CSV (read by rpt.c); the CPU's crypto features.
 */
#include <stdio.h>
#include <string.h>

#include "core/cb.h"
#include "commands/cmd.h"
#include "foundation/cpu.h"
#include "output/result.h"
#include "report/rpt.h"
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

/* c is a verdict on backend's implementation impl. */
static int ct_is(const struct rpt_ct *c, const char *backend,
                 const struct cb_impl *impl)
{
	return !strcmp(c->backend, backend) &&
	       !strcmp(c->driver, impl->driver) && !strcmp(c->alg, impl->alg);
}

/* The worst verdict on the implementation at a CPU level, or NULL. */
static const struct rpt_ct *ct_find(const struct rpt *r, const char *backend,
                                    const struct cb_impl *impl,
                                    const char *level)
{
	const struct rpt_ct *best = NULL;

	for (size_t i = 0; i < r->nct; i++) {
		const struct rpt_ct *c = &r->ct[i];

		if (ct_is(c, backend, impl) && !strcmp(c->level, level) &&
		    (!best || c->v < best->v))
			best = c;
	}
	return best;
}

static void ct_verdict(const struct rpt_ct *c, int first)
{
	printf("%s%s (%s%s--cpu %s)", first ? "" : "; ", c->verdict, c->method,
	       *c->method ? ", " : "", c->level);
}

/* "  ct: VERDICT (METHOD, --cpu LEVEL)" of an implementation line: the
 * verdict at this run's --cpu level, else the one at each level the file
 * has, else "ct: -". */
static void ct_suffix(const struct rpt *r, const char *backend,
                      const struct cb_impl *impl)
{
	const struct rpt_ct *c = ct_find(r, backend, impl, cb_cpu_level_name());
	int n = 0;

	fputs("  ct: ", stdout);
	if (c) {
		ct_verdict(c, 1);
		return;
	}
	for (size_t i = 0; i < r->nct; i++) {
		size_t j;

		if (!ct_is(&r->ct[i], backend, impl))
			continue;
		for (j = 0; j < i; j++)
			if (ct_is(&r->ct[j], backend, impl) &&
			    !strcmp(r->ct[j].level, r->ct[i].level))
				break;
		if (j == i)              /* the first row at its level */
			ct_verdict(ct_find(r, backend, impl, r->ct[i].level),
			           !n++);
	}
	if (!n)
		fputs("-", stdout);
}

/* One implementation's line (ct: its verdict in r, when given). */
static void impl_line(const struct cb_backend *b, const struct cb_alg *a,
                      const struct cb_impl *impl, const struct rpt *ct)
{
	char ks[64];
	const char *why;
	int ok = cb_impl_status(impl, &why) == 0;

	key_sizes(a, impl, ks, sizeof ks);
	printf("    %-8s %-56s prio %3d  keys %s%s%s%s%s", b->name, impl->driver,
	       impl->priority, ks, ok ? "" : "  unavailable: ", ok ? "" : why,
	       impl->note ? "  " : "", impl->note ? impl->note : "");
	if (ct)
		ct_suffix(ct, b->name, impl);
	putchar('\n');
}

static void list_algs(const struct rpt *ct)
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
			while ((impl = cb_impl_find(b, a->name, n++)))
				impl_line(b, a, impl, ct);
			if (n == 1)
				printf("    %-8s (not provided by this library)\n",
				       b->name);
		}
	}
}

enum { OPT_CT = 1 };

static const struct cb_opt list_opts[] = {
	{ "--ct", 1, OPT_CT, "FILE",
	  "list algs: each implementation's constant-time verdict from FILE "
	  "(cryptobench ct --format csv)" },
	{ NULL, 0, 0, NULL, NULL },
};

const struct cb_command cb_cmd_list = {
	.name = "list", .run = cmd_list, .opts = list_opts,
	.synopsis = "list [backends|algs] [--ct FILE]",
	.summary = "what is here: backends, versions, CPU features; algorithms "
	           "and drivers",
	.more = "--ct FILE: each implementation line of 'list algs' ends with "
	        "its verdict\nfrom a ct run's CSV, at this run's --cpu level "
	        "(else at every level the\nfile has): 'ct: constant-time "
	        "(memcheck+timing, --cpu max)', or 'ct: -'\nwhen FILE has none "
	        "for it.  See docs/csv.md (ct rows).\n",
};

/* The command line: *what "backends", "algs" or NULL (both), *ct the
 * --ct file or NULL.  0, or -1 after a message. */
static int list_args(int argc, char **argv, const char **what,
                     const char **ct)
{
	const char *arg;
	int i = 1, id;

	while ((id = cb_getopt(argc, argv, &i, list_opts, &arg)) != -1) {
		if (id == -2)
			return -1;
		if (id == OPT_CT) {
			*ct = arg;
		} else if (*what) {
			cb_err("list: too many arguments");
			return -1;
		} else if (strcmp(arg, "backends") && strcmp(arg, "algs")) {
			cb_err("list: unknown argument '%s' (backends or algs)",
			       arg);
			return -1;
		} else {
			*what = arg;
		}
	}
	if (*ct && *what && !strcmp(*what, "backends")) {
		cb_err("list: --ct goes with 'list algs'");
		return -1;
	}
	return 0;
}

int cmd_list(int argc, char **argv)
{
	const char *what = NULL, *ctfile = NULL;
	char *files[1];
	struct rpt r;

	memset(&r, 0, sizeof r);
	if (list_args(argc, argv, &what, &ctfile) < 0)
		return CB_EXIT_USAGE;
	files[0] = (char *)ctfile;
	if (ctfile && rpt_load(&r, files, 1, NULL) != 0) {
		rpt_free(&r);
		return CB_EXIT_USAGE;
	}
	if (ctfile && !r.nct)
		cb_warn("list: %s has no ct rows (cryptobench ct --format csv "
		        "writes them): every implementation is 'ct: -'", ctfile);
	if (!what || !strcmp(what, "backends"))
		list_backends();
	if (!what)
		printf("\n");
	if (!what || !strcmp(what, "algs"))
		list_algs(ctfile ? &r : NULL);
	rpt_free(&r);
	return CB_EXIT_OK;
}
