/*
 * cmd_kat.c - `cryptobench kat`: options into calls.  Loads and validates
 * the vectors (kat.c), runs them on every implementation of the selected
 * backends and the sector-transform records (kat_sector.c), and hands one
 * test case per backend x algorithm to the writer --format names
 * (kat_report.c: text, tap, junit).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/cb.h"
#include "commands/cmd.h"
#include "kat/kat.h"
#include "system/select.h"
#include "foundation/timing.h"
#include "foundation/util.h"

enum { OPT_BACKEND = 1, OPT_ALG, OPT_VERBOSE, OPT_FORMAT };

static const struct cb_opt kat_options[] = {
	{ "--backend", 1, OPT_BACKEND, "B",
	  "run on this backend only (repeatable; default: every one)" },
	{ "-b", 1, OPT_BACKEND, NULL, NULL },
	{ "--alg", 1, OPT_ALG, "A",
	  "only algorithm A (canonical name or alias; repeatable)" },
	{ "--verbose", 0, OPT_VERBOSE, NULL,
	  "also print the records skipped, with the reason" },
	{ "-v", 0, OPT_VERBOSE, NULL, NULL },
	{ "--format", 1, OPT_FORMAT, "text|tap|junit",
	  "text (default): the table; tap: TAP version 13 for prove; junit: "
	  "JUnit XML for CI test reports.  One case per backend x algorithm; "
	  "a failure names the record's file:line and driver" },
	{ NULL, 0, 0, NULL, NULL },
};

const struct cb_command cb_cmd_kat = {
	.name = "kat", .run = cmd_kat, .opts = kat_options,
	.synopsis = "kat [--backend B]... [--alg A]... [-v] [--format text|tap|junit] "
	            "[PATH...]",
	.summary = "known-answer tests of every implementation",
	.more = "Runs the known-answer vectors (*.vec files under each PATH; "
	        "default: the\nvectors/ directory next to the binary, or the "
	        "installed one) on every\nimplementation of every backend.  "
	        "Format: docs/vectors.md.\n",
};

struct kat_opts {
	struct cb_sel sel;          /* --backend, --alg (system/select.h)  */
	size_t nfiles;
	const struct kat_writer *w;
	struct vec_file *files;
	int verbose;
};

/* Options and paths into o; CB_EXIT_OK or CB_EXIT_USAGE (message printed). */
static int parse_opts(int argc, char **argv, struct kat_opts *o)
{
	int i = 1, id, npaths = 0;
	const char *arg;

	while ((id = cb_getopt(argc, argv, &i, kat_options, &arg)) != -1) {
		if (id == -2)
			return CB_EXIT_USAGE;
		if (id == OPT_BACKEND && cb_sel_backend(&o->sel, arg) < 0)
			return CB_EXIT_USAGE;
		if (id == OPT_ALG && cb_sel_alg(&o->sel, arg) < 0)
			return CB_EXIT_USAGE;
		if (id == OPT_FORMAT && !(o->w = kat_writer_find(arg))) {
			cb_err("--format: unknown format '%s' (text, tap, junit)",
			       arg);
			return CB_EXIT_USAGE;
		}
		o->verbose |= id == OPT_VERBOSE;
		if (id == 0 && (++npaths, kat_load(arg, &o->files, &o->nfiles) < 0))
			return CB_EXIT_USAGE;
	}
	if (!npaths && kat_load(kat_default_dir(), &o->files, &o->nfiles) < 0)
		return CB_EXIT_USAGE;
	if (kat_validate(o->files, o->nfiles) < 0)
		return CB_EXIT_USAGE;
	if (!o->sel.nbackends)
		cb_sel_all_backends(&o->sel);
	return CB_EXIT_OK;
}

/* Hand case k to the writer (if anything ran or it could not run) and add
 * its counts to total. */
static void emit(const struct kat_opts *o, struct kat_case *k,
                 struct kat_count *total, unsigned *ncases)
{
	const struct kat_count *c = k->c;

	if (!k->unavailable && !c->passed && !c->failed && !c->skipped)
		return;
	o->w->one(stdout, k, ++*ncases);
	total->passed += c->passed;
	total->failed += c->failed;
	total->skipped += c->skipped;
}

/* Whether --alg named alg (or named none). */
static int alg_selected(const struct kat_opts *o, const char *alg)
{
	if (!o->sel.nalgs)
		return 1;
	for (size_t i = 0; i < o->sel.nalgs; i++)
		if (!strcmp(o->sel.algs[i].alg->name, alg))
			return 1;
	return 0;
}

/* Every implementation of backend b, then its sector-transform records. */
static void run_backend(const struct kat_opts *o, const struct cb_backend *b,
                        struct kat_count *total, unsigned *ncases)
{
	FILE *out = o->w->notes ? NULL : stdout;
	struct kat_log log = {0};
	struct kat_count c = { .log = o->w->notes ? &log : NULL };
	struct kat_case k = { .backend = b->name, .c = &c };
	const char *why;
	double t0;

	if (cb_backend_status(b, &why) < 0) {
		k.unavailable = why;
		emit(o, &k, total, ncases);
		return;
	}
	for (const struct cb_impl *const *p = cb_backend_impls(b); *p; p++) {
		if (!alg_selected(o, (*p)->alg))
			continue;
		k.alg = (*p)->alg;
		k.driver = (*p)->driver;
		k.unavailable = cb_impl_status(*p, &why) < 0 ? why : NULL;
		t0 = cb_now_s();
		if (!k.unavailable)
			kat_run_impl(*p, b->name, o->files, o->nfiles, &c, out,
			             o->verbose);
		k.seconds = cb_now_s() - t0;
		emit(o, &k, total, ncases);
		kat_log_free(&log);
		c = (struct kat_count){ .log = c.log };
	}
	if (o->sel.nalgs)
		return;
	k.alg = "sector transforms (geli, dm-crypt)";
	k.driver = "src/sector/sector.c";
	k.unavailable = NULL;
	t0 = cb_now_s();
	kat_sector_run(b, o->files, o->nfiles, NULL, &c, out, o->verbose);
	k.seconds = cb_now_s() - t0;
	if (c.passed || c.failed || c.skipped)
		emit(o, &k, total, ncases);
	kat_log_free(&log);
}

int cmd_kat(int argc, char **argv)
{
	struct kat_opts o = { .w = kat_writer_find("text") };
	struct kat_count total = {0};
	unsigned ncases = 0;
	int rc = parse_opts(argc, argv, &o);

	if (rc != CB_EXIT_OK)
		goto out;
	o.w->begin(stdout);
	for (size_t bi = 0; bi < o.sel.nbackends; bi++)
		run_backend(&o, o.sel.backends[bi], &total, &ncases);
	o.w->end(stdout, &total, ncases);
	rc = total.failed ? CB_EXIT_FAIL
	     : total.passed ? CB_EXIT_OK : CB_EXIT_SKIP;
out:
	for (size_t k = 0; k < o.nfiles; k++)
		vec_free(&o.files[k]);
	free(o.files);
	cb_sel_free(&o.sel);
	return rc;
}
