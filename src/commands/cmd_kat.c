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

/* Load and validate the vectors of paths (the default directory without
 * any): 0 or -EINVAL, the messages printed to stderr. */
static int load_paths(struct kat_opts *o, const char **paths, int npaths)
{
	for (int i = 0; i < npaths; i++)
		if (kat_load(paths[i], &o->files, &o->nfiles) < 0)
			return -EINVAL;
	if (!npaths && kat_load(kat_default_dir(), &o->files, &o->nfiles) < 0)
		return -EINVAL;
	return kat_validate(o->files, o->nfiles);
}

/*
 * load_paths, for a report format (tap, junit) also into the report: the
 * parse and I/O messages are caught (glibc: stderr is a variable one may
 * set), printed to stderr as always and handed to the writer's error(), so
 * a CI job reads a TAP "Bail out!" or a JUnit document with an error case,
 * not an empty report.
 */
static int load_vectors(struct kat_opts *o, const char **paths,
                        int npaths)
{
	FILE *saved = stderr, *mem;
	char *msgs = NULL;
	size_t len = 0;
	int rc;

	if (!o->w || !o->w->error || !(mem = open_memstream(&msgs, &len)))
		return load_paths(o, paths, npaths);
	stderr = mem;
	rc = load_paths(o, paths, npaths);
	stderr = saved;
	fclose(mem);
	fputs(msgs, stderr);
	if (rc < 0)
		o->w->error(stdout, msgs);
	free(msgs);
	return rc;
}

/* Options and paths into o; CB_EXIT_OK or CB_EXIT_USAGE (message printed). */
static int parse_opts(int argc, char **argv, struct kat_opts *o)
{
	int i = 1, id, npaths = 0, rc;
	const char **paths = cb_xcalloc((size_t)argc + 1, sizeof *paths);
	const char *arg;

	while ((id = cb_getopt(argc, argv, &i, kat_options, &arg)) != -1) {
		if (id == -2 ||
		    (id == OPT_BACKEND && cb_sel_backend(&o->sel, arg) < 0) ||
		    (id == OPT_ALG && cb_sel_alg(&o->sel, arg) < 0))
			goto usage;
		if (id == OPT_FORMAT && !(o->w = kat_writer_find(arg))) {
			cb_err("--format: unknown format '%s' (text, tap, junit)",
			       arg);
			goto usage;
		}
		o->verbose |= id == OPT_VERBOSE;
		if (id == 0)
			paths[npaths++] = arg;
	}
	rc = load_vectors(o, paths, npaths);
	free(paths);
	if (rc < 0)
		return CB_EXIT_USAGE;
	if (!o->sel.nbackends)
		cb_sel_all_backends(&o->sel);
	return CB_EXIT_OK;
usage:
	free(paths);
	return CB_EXIT_USAGE;
}

/* Hand case k to the writer (if anything ran or it could not run) and add
 * its counts to total; 1 if it had records to run. */
static unsigned emit(const struct kat_opts *o, struct kat_case *k,
                     struct kat_count *total, unsigned *ncases)
{
	const struct kat_count *c = k->c;

	if (!k->unavailable && !c->passed && !c->failed && !c->skipped)
		return 0;
	o->w->one(stdout, k, ++*ncases);
	total->passed += c->passed;
	total->failed += c->failed;
	total->skipped += c->skipped;
	return !k->unavailable;
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

/* Every implementation of backend b, then its sector-transform records;
 * the number of cases with records to run. */
static unsigned run_backend(const struct kat_opts *o,
                            const struct cb_backend *b,
                            struct kat_count *total, unsigned *ncases)
{
	FILE *out = o->w->notes ? NULL : stdout;
	struct kat_log log = {0};
	struct kat_count c = { .log = o->w->notes ? &log : NULL };
	struct kat_case k = { .backend = b->name, .c = &c };
	const char *why;
	unsigned nran = 0;
	double t0;

	if (cb_backend_status(b, &why) < 0) {
		k.unavailable = why;
		return emit(o, &k, total, ncases);
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
		nran += emit(o, &k, total, ncases);
		kat_log_free(&log);
		c = (struct kat_count){ .log = c.log };
	}
	if (o->sel.nalgs)
		return nran;
	k.alg = "sector transforms (geli, dm-crypt)";
	k.driver = "src/sector/sector.c";
	k.unavailable = NULL;
	t0 = cb_now_s();
	kat_sector_run(b, o->files, o->nfiles, NULL, &c, out, o->verbose);
	k.seconds = cb_now_s() - t0;
	nran += emit(o, &k, total, ncases);
	kat_log_free(&log);
	return nran;
}

/* Append sep and s to buf (n bytes, NUL-terminated), cut where full. */
static void add(char *buf, size_t n, const char *sep, const char *s)
{
	size_t l = strlen(buf);

	if (l < n)
		snprintf(buf + l, n - l, "%s%s", sep, s);
}

/* "FILE", "FILE and FILE", "FILE, FILE and N more": the files loaded. */
static void files_named(const struct kat_opts *o, char *buf, size_t n)
{
	char more[32];

	for (size_t i = 0; i < o->nfiles && i < 3; i++)
		add(buf, n, i == 0 ? "" : i + 1 == o->nfiles ? " and " : ", ",
		    o->files[i].path);
	snprintf(more, sizeof more, " and %zu more", o->nfiles - 3);
	if (o->nfiles > 3)
		add(buf, n, "", more);
}

/* Why nothing ran (nothing passed and nothing failed), the files named:
 * no records; none of the --alg given; no implementation on the backends
 * chosen; or every record skipped. */
static const char *why_none(const struct kat_opts *o, unsigned nran,
                            char *buf, size_t n)
{
	size_t nrec = 0, nsel = 0;

	for (size_t i = 0; i < o->nfiles; i++)
		for (size_t j = 0; j < o->files[i].n; j++, nrec++) {
			const struct cb_alg *a = cb_alg_find(
			        vec_get(&o->files[i].recs[j], "alg")->text, NULL);

			nsel += !o->sel.nalgs || (a && alg_selected(o, a->name));
		}
	buf[0] = 0;
	files_named(o, buf, n);
	if (!nrec)
		add(buf, n, "", ": no records (only comments and blank lines)");
	else if (!nsel)
		add(buf, n, "", ": no record of the --alg given");
	else if (!nran) {
		add(buf, n, "", ": no implementation of its algorithms on ");
		for (size_t i = 0; i < o->sel.nbackends; i++)
			add(buf, n, i ? ", " : "", o->sel.backends[i]->name);
		add(buf, n, "", " (cryptobench list algs)");
	} else {
		add(buf, n, "", ": every record skipped or its implementation "
		    "unavailable (the reasons: kat -v)");
	}
	return buf;
}

int cmd_kat(int argc, char **argv)
{
	struct kat_opts o = { .w = kat_writer_find("text") };
	struct kat_count total = {0};
	unsigned ncases = 0, nran = 0;
	const char *none = NULL;
	char why[1024];
	int rc = parse_opts(argc, argv, &o);

	if (rc != CB_EXIT_OK)
		goto out;
	o.w->begin(stdout);
	for (size_t bi = 0; bi < o.sel.nbackends; bi++)
		nran += run_backend(&o, o.sel.backends[bi], &total, &ncases);
	if (!total.passed && !total.failed)
		none = why_none(&o, nran, why, sizeof why);
	o.w->end(stdout, &total, ncases, none);
	if (none)
		cb_err("kat: nothing ran: %s", none);
	/* TAP: nothing to run is a skip in the stream, not a failed script */
	rc = total.failed ? CB_EXIT_FAIL : total.passed ? CB_EXIT_OK
	     : !strcmp(o.w->name, "tap") ? CB_EXIT_OK : CB_EXIT_SKIP;
out:
	for (size_t k = 0; k < o.nfiles; k++)
		vec_free(&o.files[k]);
	free(o.files);
	cb_sel_free(&o.sel);
	return rc;
}
