/*
 * cmd_ct.c - `cryptobench ct`: is each implementation constant time?
 * Options into calls: the implementations selected, memcheck over all of
 * them at once (ct_mem.c, under valgrind), the timing test of each
 * (ct_time.c), a verdict per implementation (below), the table or the
 * CSV/JSON rows (tool "ct", docs/ct.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cb.h"
#include "commands/cmd.h"
#include "system/select.h"
#include "ct/ct.h"
#include "measure/speed_opts.h"
#include "output/output.h"
#include "system/cpulevel.h"
#include "system/sysinfo.h"
#include "foundation/util.h"

enum { OPT_BACKEND = 1, OPT_ALG, OPT_DRIVER, OPT_METHOD, OPT_N, OPT_CHILD,
       OPT_VERBOSE, OPT_FORMAT, OPT_OUT, OPT_FORCE };

static const struct cb_opt ct_options[] = {
	{ "--backend", 1, OPT_BACKEND, "B",
	  "this backend only (repeatable; default: every available one)" },
	{ "-b", 1, OPT_BACKEND, NULL, NULL },
	{ "--alg", 1, OPT_ALG, "A",
	  "this algorithm only (repeatable; canonical name or alias)" },
	{ "-a", 1, OPT_ALG, NULL, NULL },
	{ "--driver", 1, OPT_DRIVER, "SUBSTR",
	  "only the implementations whose driver name contains SUBSTR" },
	{ "--method", 1, OPT_METHOD, "memcheck|timing|both",
	  "memcheck (valgrind, secrets marked undefined), timing (dudect's "
	  "fixed-vs-random t-test) or both (default)" },
	{ "--measurements", 1, OPT_N, "N",
	  "timing: measurements a class and test (default 20000; 1000 to "
	  "10000000)" },
	{ "--format", 1, OPT_FORMAT, "text|csv|json",
	  "text (default): the table; csv, json: a row per implementation "
	  "(tool ct, cryptobench-csv-5: docs/csv.md) that compare, report, "
	  "list and bench --ct read" },
	{ "-o", 1, OPT_OUT, "FILE", "write the csv/json to FILE, not stdout "
	  "(the table still goes to stdout)" },
	{ "--force", 0, OPT_FORCE, NULL, "-o may overwrite FILE" },
	{ "--memcheck-child", 0, OPT_CHILD, NULL, NULL },
	{ "--memcheck-exec", 0, OPT_CHILD, NULL, NULL },
	{ "--verbose", 0, OPT_VERBOSE, NULL,
	  "every implementation's evidence, not only the findings'" },
	{ "-v", 0, OPT_VERBOSE, NULL, NULL },
	{ NULL, 0, 0, NULL, NULL },
};

const struct cb_command cb_cmd_ct = {
	.name = "ct", .run = cmd_ct, .opts = ct_options,
	.synopsis = "ct [--backend B]... [--alg A]... [--driver SUBSTR] "
	            "[--method memcheck|timing|both] [--measurements N]\n"
	            "   [--format text|csv|json] [-o FILE [--force]] [-v]",
	.summary = "constant time: secret-dependent branches and memory indexes",
	.more = "Each implementation is keyed and run with its key and data "
	        "secret: under valgrind's\nmemcheck with them marked undefined "
	        "(every branch and address computed from\nthem is reported), "
	        "and timed on a fixed against random inputs (Welch's t,\n"
	        "|t| > 4.5 twice is a finding).  Verdicts: constant-time, "
	        "secret-dependent branch,\nsecret-dependent memory index, "
	        "secret-dependent timing, no timing leak found\n(timing only), "
	        "not checked (why).  Method, places and thresholds: docs/ct.md.\n"
	        "Exit 0 when every implementation was checked and none leaks, "
	        "1 when one does.\n",
};

struct ct_opts {
	struct cb_sel sel;            /* --backend, --alg, --driver         */
	int mem, tim, child, verbose, force;
	uint64_t n;
	const struct cb_writer *w;    /* csv, json; NULL: the table only    */
	const char *out;
};

static int set_method(struct ct_opts *o, const char *arg)
{
	o->mem = !strcmp(arg, "memcheck") || !strcmp(arg, "both");
	o->tim = !strcmp(arg, "timing") || !strcmp(arg, "both");
	if (!o->mem && !o->tim) {
		cb_err("--method: '%s' is not memcheck, timing or both", arg);
		return -1;
	}
	return 0;
}

static int parse(int argc, char **argv, struct ct_opts *o)
{
	int i = 1, id;
	const char *arg;

	while ((id = cb_getopt(argc, argv, &i, ct_options, &arg)) != -1) {
		int bad = id == -2;

		if (id == 0) {
			cb_err("ct: unexpected argument '%s'", arg);
			bad = 1;
		} else if (id == OPT_BACKEND) {
			bad = cb_sel_backend(&o->sel, arg) < 0;
		} else if (id == OPT_ALG) {
			bad = cb_sel_alg(&o->sel, arg) < 0;
		} else if (id == OPT_DRIVER) {
			bad = cb_sel_driver(&o->sel, arg) < 0;
		} else if (id == OPT_METHOD) {
			bad = set_method(o, arg) < 0;
		} else if (id == OPT_N && (cb_parse_u64(arg, &o->n) < 0 ||
		                           o->n < 1000 || o->n > 10000000)) {
			cb_err("--measurements: '%s' is not a count from 1000 to "
			       "10000000", arg);
			bad = 1;
		}
		if (id == OPT_FORMAT && strcmp(arg, "text") &&
		    (strcmp(arg, "csv") && strcmp(arg, "json"))) {
			cb_err("--format: '%s' is not text, csv or json", arg);
			bad = 1;
		} else if (id == OPT_FORMAT) {
			o->w = strcmp(arg, "text") ? cb_writer_find(arg) : NULL;
		}
		if (id == OPT_OUT)
			o->out = arg;
		o->force |= id == OPT_FORCE;
		o->child |= id == OPT_CHILD;
		o->verbose |= id == OPT_VERBOSE;
		if (bad)
			return -1;
	}
	if (o->out && !o->w) {
		cb_err("-o: needs --format csv or json");
		return -1;
	}
	return 0;
}

/* ---- the implementations --------------------------------------------- */

static int wanted(const struct ct_opts *o, const struct cb_impl *im)
{
	size_t i;

	for (i = 0; i < o->sel.nalgs && strcmp(o->sel.algs[i].alg->name, im->alg);
	     i++)
		;
	if (o->sel.nalgs && i == o->sel.nalgs)
		return 0;
	if (!o->child)
		return cb_sel_driver_ok(&o->sel, im->driver);
	for (i = 0; i < o->sel.ndrivers; i++)   /* the parent named each one */
		if (!strcmp(im->driver, o->sel.drivers[i]))
			return 1;
	return o->sel.ndrivers == 0;
}

/* The selected implementations that can run here, into *v (to free);
 * how many. */
static size_t select_impls(const struct ct_opts *o, const struct cb_impl ***v)
{
	size_t n = 0;

	*v = NULL;
	for (size_t b = 0; b < o->sel.nbackends; b++) {
		const struct cb_backend *be = o->sel.backends[b];

		if (cb_backend_status(be, NULL) < 0)
			continue;
		for (const struct cb_impl *const *p = cb_backend_impls(be); *p; p++)
			if (wanted(o, *p) && cb_impl_status(*p, NULL) == 0) {
				*v = cb_xrealloc(*v, (n + 1) * sizeof **v);
				(*v)[n++] = *p;
			}
	}
	return n;
}

/* ---- the verdict -------------------------------------------------------- */

/* The CPU level's groups (CB_HW_*) in force. */
static unsigned level_groups(void)
{
	unsigned hw = CB_HW_ALL, need;
	char err[160];

	if (cb_cpu_level_parse(cb_cpu_level_name(), &hw, &need, err,
	                       sizeof err) < 0)
		hw = CB_HW_ALL;
	return hw;
}

/*
 * The instruction sets the libraries' code for an algorithm may take (the
 * families with SIMD paths in OpenSSL 3, libgcrypt 1.10, Nettle 3.8, Mbed
 * TLS and native): AES and GCM every x86 extension; ChaCha20, Poly1305,
 * Camellia, Serpent, Twofish, SHA-384/512 and Argon2's BLAKE2b the vector
 * ones (and libgcrypt's Camellia VAES); SHA-1/224/256 SHA-NI and AVX/AVX2.
 * Blowfish, DES, MD5, RIPEMD-160 and the null cipher have none: scalar
 * code, the same under valgrind's CPU.  An algorithm built of others
 * (hmac, pbkdf2, essiv, authenc) takes what its parts take.
 */
static unsigned alg_groups(const char *alg)
{
	static const struct { const char *part; unsigned g; } fam[] = {
		{ "aes", CB_HW_AES | CB_HW_VAES | CB_HW_PCLMUL },
		{ "aes", CB_HW_AVX | CB_HW_AVX2 | CB_HW_AVX512 },
		{ "chacha", CB_HW_AVX | CB_HW_AVX2 | CB_HW_AVX512 },
		{ "poly1305", CB_HW_AVX | CB_HW_AVX2 | CB_HW_AVX512 },
		{ "camellia", CB_HW_AVX | CB_HW_AVX2 | CB_HW_AVX512 | CB_HW_VAES },
		{ "serpent", CB_HW_AVX | CB_HW_AVX2 | CB_HW_AVX512 },
		{ "twofish", CB_HW_AVX | CB_HW_AVX2 | CB_HW_AVX512 },
		{ "sha384", CB_HW_AVX | CB_HW_AVX2 | CB_HW_AVX512 },
		{ "sha512", CB_HW_AVX | CB_HW_AVX2 | CB_HW_AVX512 },
		{ "argon2", CB_HW_AVX | CB_HW_AVX2 | CB_HW_AVX512 },
		{ "sha1", CB_HW_SHA | CB_HW_AVX | CB_HW_AVX2 },
		{ "sha224", CB_HW_SHA | CB_HW_AVX | CB_HW_AVX2 },
		{ "sha256", CB_HW_SHA | CB_HW_AVX | CB_HW_AVX2 },
	};
	unsigned g = 0;

	for (size_t i = 0; i < sizeof fam / sizeof *fam; i++)
		if (strstr(alg, fam[i].part))
			g |= fam[i].g;
	return g;
}

/* The instruction sets a backend's code takes at all: Nettle 3.8's fat
 * build AES-NI, PCLMULQDQ and SHA-NI; Mbed TLS 2.28 AES-NI and PCLMULQDQ;
 * the others (and any plug-in) may take every one. */
static unsigned backend_groups(const char *backend)
{
	if (!strcmp(backend, "nettle"))
		return CB_HW_AES | CB_HW_PCLMUL | CB_HW_SHA;
	if (!strcmp(backend, "mbedtls"))
		return CB_HW_AES | CB_HW_PCLMUL;
	return CB_HW_ALL;
}

/* The instruction sets this process's path for r may take (the level's,
 * the algorithm's, the backend's, the CPU's) that valgrind's CPU lacks. */
static unsigned missing_groups(const struct ct_result *r)
{
	return ct_cpu_groups() & level_groups() & alg_groups(r->alg) &
	       backend_groups(r->backend) & ~ct_mem_cpu_groups();
}

/* memcheck ran the code path this process runs: valgrind's CPU lacks
 * nothing that path may take (x86-64: CPUID), or else the backend said
 * the same of its path under valgrind */
static int same_path(const struct ct_result *r)
{
	const struct cb_backend *b = cb_impl_backend(r->impl);
	const char *vg = ct_mem_details(b->name);
	const char *here = b->details ? b->details() : "";

	if (ct_cpu_groups())
		return missing_groups(r) == 0;
	return vg && !strcmp(vg, here ? here : "");
}

/* Those instruction sets by name, into buf. */
static void lacking(const struct ct_result *r, char *buf, size_t n)
{
	static const struct { unsigned g; const char *name; } g[] = {
		{ CB_HW_AES, "aes" }, { CB_HW_PCLMUL, "pclmulqdq" },
		{ CB_HW_AVX, "avx" }, { CB_HW_AVX2, "avx2" },
		{ CB_HW_VAES, "vaes" }, { CB_HW_AVX512, "avx512" },
		{ CB_HW_SHA, "sha_ni" },
	};
	unsigned miss = missing_groups(r);
	size_t used = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof g / sizeof *g && used < n; i++)
		if (miss & g[i].g)
			used += (size_t)snprintf(buf + used, n - used, "%s%s",
			                         used ? " " : "", g[i].name);
}

/* What memcheck alone says of m, in the verdicts' words. */
static const char *mem_words(const struct ct_mem *m)
{
	return m->branch ? ct_verdict_name(CT_BRANCH)
	       : m->index ? ct_verdict_name(CT_INDEX)
	       : m->other ? "other memcheck errors" : ct_verdict_name(CT_CLEAN);
}

static void decide(struct ct_result *r)
{
	const struct ct_mem *m = &r->mem;
	int leak_t = r->tim.ran && fabs(r->tim.t) > CT_T_THRESHOLD;

	if (m->ran && same_path(r)) {
		r->verdict = m->branch ? CT_BRANCH : m->index ? CT_INDEX
		             : leak_t ? CT_TIMING : CT_CLEAN;
		snprintf(r->method, sizeof r->method, "%s",
		         r->tim.ran ? "memcheck+timing" : "memcheck");
		if (m->other)
			snprintf(r->why, sizeof r->why, "memcheck: %u other errors "
			         "(not a leak: a bug?)", m->other);
		if (m->keysetup && m->keysetup == m->total)
			snprintf(r->why, sizeof r->why, "in setting the key only");
		return;
	}
	if (m->ran) {
		char miss[96];

		lacking(r, miss, sizeof miss);
		snprintf(r->why, sizeof r->why, "memcheck ran the path of a CPU "
		         "without %s (valgrind has none), not this one: %s there",
		         *miss ? miss : "what this one uses", mem_words(m));
	} else if (*m->why) {
		snprintf(r->why, sizeof r->why, "memcheck: %s", m->why);
	}
	if (r->tim.ran) {
		r->verdict = leak_t ? CT_TIMING : CT_NO_LEAK;
		snprintf(r->method, sizeof r->method, "timing");
		return;
	}
	r->verdict = CT_NOT_CHECKED;
	snprintf(r->method, sizeof r->method, "-");
	if (*r->tim.why) {
		size_t l = strlen(r->why);

		snprintf(r->why + l, sizeof r->why - l, "%stiming: %s",
		         l ? "; " : "", r->tim.why);
	}
}

/* ---- running ------------------------------------------------------------ */

static void run_memcheck(const struct cb_impl **v, size_t n,
                         struct ct_result *res)
{
	const struct cb_impl **mine = cb_xcalloc(n + 1, sizeof *mine);
	struct ct_result *mres = cb_xcalloc(n + 1, sizeof *mres);
	size_t k = 0, *at = cb_xcalloc(n + 1, sizeof *at);
	char why[300] = "";

	for (size_t i = 0; i < n; i++) {
		if (!strcmp(cb_impl_backend(v[i])->name, "kernel")) {
			snprintf(res[i].mem.why, sizeof res[i].mem.why, "the kernel's "
			         "code runs in the kernel, where valgrind does not "
			         "see it");
			continue;
		}
		at[k] = i;
		mres[k].driver = v[i]->driver;
		mine[k++] = v[i];
	}
	fprintf(stderr, "ct: memcheck: %zu implementations under valgrind\n", k);
	if (k && ct_mem_run(mine, k, mres, cb_cpu_level_name(), why,
	                    sizeof why) < 0)
		for (size_t j = 0; j < k; j++)
			snprintf(mres[j].mem.why, sizeof mres[j].mem.why, "%s", why);
	for (size_t j = 0; j < k; j++)
		res[at[j]].mem = mres[j].mem;
	free(mine), free(mres), free(at);
}

static void run_timing(const struct cb_impl **v, size_t n,
                       struct ct_result *res, uint64_t meas)
{
	const struct cb_backend *last = NULL;

	for (size_t i = 0; i < n && !cb_stop; i++) {
		if (cb_impl_backend(v[i]) != last) {
			last = cb_impl_backend(v[i]);
			fprintf(stderr, "ct: timing: %s\n", last->name);
		}
		ct_time_run(v[i], meas, &res[i].tim);
	}
}

/* ---- output ---------------------------------------------------------- */

static void print_one(const struct ct_result *r, int verbose)
{
	const struct ct_mem *m = &r->mem;

	printf("%-8s %-28.28s %-30s %s\n", r->backend, r->alg,
	       ct_verdict_name(r->verdict), r->method);
	if (!verbose && (r->verdict == CT_CLEAN || r->verdict == CT_NO_LEAK) &&
	    !*r->why)
		return;
	printf("         %s", r->driver);
	if (m->ran)
		printf("; memcheck: %u branch and %u index places, %u errors",
		       m->branch, m->index, m->total);
	if (r->tim.ran)
		printf("; timing: t = %.2f over %llu measurements", r->tim.t,
		       (unsigned long long)r->tim.n);
	printf("\n");
	for (unsigned k = 0; k < m->nplaces && m->ran; k++)
		printf("           %s\n", m->places[k]);
	if (*r->why)
		printf("         (%s)\n", r->why);
}

static int found_leak(const struct ct_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (res[i].verdict <= CT_TIMING)
			return 1;
	return 0;
}

static void print_all(const struct ct_result *res, size_t n, int verbose)
{
	unsigned count[CT_NOT_CHECKED + 1] = {0};

	printf("%-8s %-28s %-30s %s\n", "backend", "algorithm", "verdict",
	       "method");
	for (size_t i = 0; i < n; i++) {
		print_one(&res[i], verbose);
		count[res[i].verdict]++;
	}
	printf("%zu implementations at --cpu %s:", n, cb_cpu_level_name());
	for (int v = 0; v <= CT_NOT_CHECKED; v++)
		if (count[v])
			printf(" %u %s,", count[v], ct_verdict_name(v));
	printf(" (|t| threshold %.1f)\n", CT_T_THRESHOLD);
}

/* ---- rows for the writers (tool "ct", docs/csv.md) ---------------- */

static void to_result(const struct ct_result *c, struct cb_result *r,
                      char *places, size_t n)
{
	const struct cb_backend *b = cb_impl_backend(c->impl);
	size_t used = 0;

	places[0] = 0;
	for (unsigned k = 0; c->mem.ran && k < c->mem.nplaces && used < n; k++)
		used += (size_t)snprintf(places + used, n - used, "%s%s",
		                         k ? "; " : "", c->mem.places[k]);
	*r = (struct cb_result){ .tool = "ct", .backend = c->backend,
	        .backend_version = b->version ? b->version() : "",
	        .backend_details = b->details ? b->details() : "",
	        .driver = c->driver, .alg = c->alg, .key_bits = c->key_bits,
	        .direction = "-", .iv_mode = "", .threads = 1,
	        .status = c->verdict == CT_NOT_CHECKED ? CB_RES_SKIP : CB_RES_OK,
	        .why = c->verdict == CT_NOT_CHECKED ? c->why : NULL,
	        .ops_per_sec = NAN, .bytes_per_sec = NAN, .ns_per_byte = NAN,
	        .cycles_per_byte = NAN, .overhead_ns = NAN,
	        .slope_ns_per_byte = NAN, .rel_spread = NAN, .ghz_drift = NAN,
	        .ct_verdict = ct_verdict_name(c->verdict), .ct_method = c->method,
	        .ct_t = c->tim.ran ? c->tim.t : NAN,
	        .ct_measurements = c->tim.n, .ct_branches = c->mem.branch,
	        .ct_indexes = c->mem.index, .ct_places = places,
	        .ct_note = c->why, .ct_cpu_level = cb_cpu_level_name() };
	cb_iso_time(r->timestamp, sizeof r->timestamp);
}

static int write_rows(const struct ct_opts *o, const struct ct_result *res,
                      size_t n)
{
	struct cb_result *r = cb_xcalloc(n, sizeof *r);
	char (*places)[700] = cb_xcalloc(n, sizeof *places);
	struct cb_report rep = { .prov = cb_prov(), .res = r, .n = n };
	FILE *f = stdout;
	int rc;

	for (size_t i = 0; i < n; i++)
		to_result(&res[i], &r[i], places[i], sizeof places[i]);
	if (o->out && !(f = speed_open_out(o->out, o->force)))
		rc = -1;
	else
		rc = o->w->write(f, &rep);
	if (f && f != stdout && fclose(f) != 0)
		rc = -1;
	free(r), free(places);
	return rc;
}

int cmd_ct(int argc, char **argv)
{
	struct ct_opts o = { .mem = 1, .tim = 1, .n = 20000 };
	const struct cb_impl **v = NULL;
	struct ct_result *res = NULL;
	size_t n;
	int rc = CB_EXIT_USAGE;

	/* internal: the level applied (main did), exec the memcheck child
	 * under valgrind with the switches in the environment */
	if (argc > 3 && !strcmp(argv[1], "--memcheck-exec") &&
	    !strcmp(argv[2], "--")) {
		setenv("CRYPTOBENCH_CPU_NOEXEC", "1", 1);
		execv(argv[3], argv + 3);
		cb_err("ct: cannot run %s: %s", argv[3], strerror(errno));
		return CB_EXIT_FAIL;
	}
	if (parse(argc, argv, &o) < 0 ||
	    (o.out && speed_check_out(o.out, o.force) < 0))
		goto out;
	if (!o.sel.nbackends)
		cb_sel_all_backends(&o.sel);
	n = select_impls(&o, &v);
	if (o.child) {
		rc = ct_mem_child(v, n) < 0 ? CB_EXIT_FAIL : CB_EXIT_OK;
		goto out;
	}
	if (!n) {
		cb_err("ct: no implementation matches (see 'cryptobench list "
		       "algs')");
		goto out;
	}
	res = cb_xcalloc(n, sizeof *res);
	for (size_t i = 0; i < n; i++) {
		const struct cb_alg *a = cb_alg_find(v[i]->alg, NULL);

		res[i] = (struct ct_result){ .impl = v[i], .driver = v[i]->driver,
		        .alg = v[i]->alg, .key_bits = ct_key_bits(a),
		        .backend = cb_impl_backend(v[i])->name };
	}
	cb_stop_on_sigint();
	if (o.mem)
		run_memcheck(v, n, res);
	if (o.tim)
		run_timing(v, n, res, o.n);
	for (size_t i = 0; i < n; i++)
		decide(&res[i]);
	if (!o.w || o.out)            /* csv/json to stdout: nothing else */
		print_all(res, n, o.verbose);
	rc = found_leak(res, n) ? CB_EXIT_FAIL : CB_EXIT_OK;
	if (o.w && write_rows(&o, res, n) < 0)
		rc = CB_EXIT_FAIL;
out:
	free(v);
	free(res);
	cb_sel_free(&o.sel);
	return rc;
}
