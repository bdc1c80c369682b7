/*
 * cmd_compare.c - `cryptobench compare`: a regression table between two result
 * CSV files, and `compare --dump`, the normalised view of result files that
 * scripts/plot draws from.  This file turns options into calls; the
 * points, the verdicts and the writers are the pieces compare.h lists.
 * docs/compare.md is the user-facing description.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cb.h"
#include "commands/cmd.h"
#include "compare/compare.h"
#include "foundation/csv.h"
#include "foundation/util.h"

/* ---- the command ------------------------------------------------------- */

enum { O_THRESHOLD = 1, O_FORMAT, O_HOST, O_BHOST, O_NHOST, O_WHERE, O_BWHERE,
       O_NWHERE, O_BY, O_DUMP, O_IGNORE, O_BASELINE, O_HOLM };

static const struct cb_opt compare_opts[] = {
	{ "--base-host", 1, O_BHOST, "H",
	  "only BASE rows of host H" },
	{ "--base-where", 1, O_BWHERE, "COL=VAL|COL~TEXT",
	  "only BASE rows where the column equals VAL (~: contains TEXT)" },
	{ "--baseline", 1, O_BASELINE, "VALUE",
	  "compare every other --by group of the FILEs (a fleet) with this one" },
	{ "--by", 1, O_BY, "host|cpu_model|cpu_level|COL|none",
	  "match the files group by group (default host)" },
	{ "--dump", 0, O_DUMP, NULL,
	  "print the points of FILE... as tab-separated values (for scripts/plot)" },
	{ "--format", 1, O_FORMAT, "table|csv",
	  "the output format (default table)" },
	{ "--ignore", 1, O_IGNORE, "COL,..",
	  "columns not used to match points (backend, driver, ...)" },
	{ "--holm", 0, O_HOLM, NULL,
	  "adjust the p-values by Holm's method (family-wise error) instead of "
	  "Benjamini-Hochberg's (false discovery rate)" },
	{ "--host", 1, O_HOST, "H",
	  "only rows of host H, both files" },
	{ "--new-host", 1, O_NHOST, "H",
	  "only NEW rows of host H" },
	{ "--new-where", 1, O_NWHERE, "COL=VAL|COL~TEXT",
	  "only NEW rows matching" },
	{ "--threshold", 1, O_THRESHOLD, "PCT",
	  "a change within PCT % is same; past it, a significant one is "
	  "SLOWER/faster (default 5)" },
	{ "--where", 1, O_WHERE, "COL=VAL|COL~TEXT",
	  "only rows matching, both files (repeatable)" },
	{ NULL, 0, 0, NULL, NULL },
};

const struct cb_command cb_cmd_compare = {
	.name = "compare", .run = cmd_compare, .opts = compare_opts,
	.synopsis =
	"compare BASE NEW [--threshold PCT] [--format table|csv]\n"
	"         [--host H] [--base-host H] [--new-host H]\n"
	"         [--where COL=VAL|COL~TEXT] [--base-where ..] [--new-where ..]\n"
	"         [--by host|cpu_model|cpu_level|COL|none] [--ignore backend,driver,..]\n"
	"       cryptobench compare --baseline VALUE [--by host|cpu_level|COL] [..] FILE...\n"
	"       cryptobench compare --dump [--where ..] [--host H] FILE...",
	.summary = "the regression table between two result files (or a fleet)",
	.more =
	"BASE and NEW are cryptobench CSV files ('-' is standard input).\n"
	"Points are matched by tool, alg, key bits, block size, direction,\n"
	"backend, driver, IV mode, sector size, threads and auth.  With raw\n"
	"samples on both sides (cryptobench-csv-2 sample_ops) a point is faster,\n"
	"SLOWER, same or inconclusive: a Mann-Whitney U test, Benjamini-Hochberg\n"
	"adjusted over the points (false discovery rate 0.05; --holm: Holm,\n"
	"family-wise), and a change past PCT % (default 5); SLOWER\n"
	"exits 1 (samples from several processes or runs on both sides: tested\n"
	"between every pair of them, the largest p counts).  Without samples (version 1 files): more than PCT % slower and\n"
	"slower by more than the two points' combined rel_spread is a\n"
	"REGRESSION: exit 1.  ct rows (cryptobench ct) are verdicts, matched\n"
	"by backend, driver, alg, key bits and CPU level: one gone from clean\n"
	"to secret-dependent is WORSE, exit 1.  Files holding several hosts\n"
	"are matched host by host unless --by says otherwise; --host/--where\n"
	"select rows.\n"
	"--baseline VALUE splits the FILEs (cat'ed results of a fleet) by the\n"
	"--by column (default host) and compares every other value with VALUE.\n"
	"--dump prints the points of the files as tab-separated values (median\n"
	"of repeated runs) for scripts/plot.  See docs/compare.md.\n",
};

/* What the command line asked for. */
struct args {
	struct cmp_select sel;
	const char **paths;
	size_t npaths;
	const char *by;          /* "auto", "none" or a column                  */
	const char *baseline;    /* --baseline: a fleet against this group      */
	double threshold;        /* percent                                     */
	int csv_out, dump;
};

static void add_filter(struct cmp_select *sel, unsigned sides,
                       const char *col, size_t collen, char op,
                       const char *val)
{
	struct cmp_filter *f;

	sel->flt = cb_xrealloc(sel->flt, (sel->nflt + 1) * sizeof *sel->flt);
	f = &sel->flt[sel->nflt++];
	*f = (struct cmp_filter){ .sides = sides, .op = op, .val = val };
	f->col = cb_xmalloc(collen + 1);
	memcpy(f->col, col, collen);
	f->col[collen] = 0;
}

/* COL=VALUE or COL~TEXT */
static int parse_where(struct cmp_select *sel, unsigned sides,
                       const char *arg)
{
	const char *op = strpbrk(arg, "=~");

	if (!op || op == arg) {
		cb_err("compare: bad selection '%s' (want COL=VALUE or COL~TEXT)",
		       arg);
		return -EINVAL;
	}
	add_filter(sel, sides, arg, (size_t)(op - arg), *op, op + 1);
	return 0;
}

static int parse_threshold(const char *arg, double *v)
{
	char buf[64];
	size_t len = strlen(arg);

	if (len == 0 || len >= sizeof buf)
		return -EINVAL;
	memcpy(buf, arg, len + 1);
	if (buf[len - 1] == '%')
		buf[len - 1] = 0;
	if (cb_csv_number(buf, v) < 0 || *v < 0 || *v >= 100)
		return -EINVAL;
	return 0;
}

/* One option; 0, 1 after --help, or -EINVAL after a message. */
static int take_opt(struct args *a, int id, const char *arg)
{
	switch (id) {
	case 0:
		a->paths[a->npaths++] = arg;
		break;
	case O_THRESHOLD:
		if (parse_threshold(arg, &a->threshold) < 0) {
			cb_err("compare: bad --threshold '%s' (a percentage "
			       "from 0 to 100, e.g. 5)", arg);
			return -EINVAL;
		}
		break;
	case O_HOLM:
		cmp_adjust_holm(1);
		break;
	case O_FORMAT:
		if (strcmp(arg, "csv") && strcmp(arg, "table")) {
			cb_err("compare: unknown --format '%s' (table or csv)",
			       arg);
			return -EINVAL;
		}
		a->csv_out = !strcmp(arg, "csv");
		break;
	case O_HOST:
	case O_BHOST:
	case O_NHOST:
		add_filter(&a->sel, id == O_HOST ? 3 : id == O_BHOST ? 1 : 2,
		           "host", 4, '=', arg);
		break;
	case O_WHERE:
	case O_BWHERE:
	case O_NWHERE:
		return parse_where(&a->sel, id == O_WHERE ? 3 :
		                   id == O_BWHERE ? 1 : 2, arg);
	case O_BY:
		a->by = !strcmp(arg, "cpu") ? "cpu_model" : arg;
		break;
	case O_IGNORE:
		return cmp_parse_ignore(&a->sel, arg);
	case O_DUMP:
		a->dump = 1;
		break;
	case O_BASELINE:
		a->baseline = arg;
		break;
	}
	return 0;
}

static int flush_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cb_err("compare: write error on standard output");
		return -EIO;
	}
	return 0;
}

static int do_dump(const struct args *a)
{
	struct cmp_side s = { .label = "FILE", .sidebit = 1, .paths = a->paths,
	                      .nfiles = a->npaths };
	int rc = cmp_side_load(&s, &a->sel);

	if (rc == 0)
		rc = cmp_side_points(&s, &a->sel, "host");
	if (rc == 0)
		rc = cmp_side_empty(&s, &a->sel);
	if (rc == 0)
		cmp_print_dump(stdout, &s);
	cmp_side_free(&s);
	if (rc < 0 || flush_stdout() < 0)
		return CB_EXIT_USAGE;
	return CB_EXIT_OK;
}

/*
 * Fold both sides into points, matched by a->by ("auto": by host when
 * either side holds several); *bycol is the column used.  0 or -errno.
 */
static int load_points(const struct args *a, struct cmp_side *b,
                       struct cmp_side *n, const char **bycol)
{
	const struct cmp_select *sel = &a->sel;

	if (cmp_side_load(b, sel) < 0 || cmp_side_load(n, sel) < 0)
		return -EINVAL;
	if (!strcmp(a->by, "auto")) {
		/* Peek at the hosts the selection leaves on each side. */
		if (cmp_side_points(b, sel, NULL) < 0 ||
		    cmp_side_points(n, sel, NULL) < 0)
			return -EINVAL;
		*bycol = b->nhosts > 1 || n->nhosts > 1 ? "host" : NULL;
		if (!*bycol)
			return 0;
	} else {
		*bycol = !strcmp(a->by, "none") ? NULL : a->by;
	}
	if (cmp_side_points(b, sel, *bycol) < 0 ||
	    cmp_side_points(n, sel, *bycol) < 0)
		return -EINVAL;
	return 0;
}

/* Compare the two files of a->paths: the exit status. */
static int do_compare(const struct args *a)
{
	struct cmp_side b = { .label = "BASE", .sidebit = 1, .paths = &a->paths[0],
	                      .nfiles = 1 };
	struct cmp_side n = { .label = "NEW", .sidebit = 2, .paths = &a->paths[1],
	                      .nfiles = 1 };
	struct cmp *c = NULL;
	struct cmp_ctpair *ct = NULL;
	size_t nc = 0, nct, only[2] = { 0, 0 }, bad = 0;
	const char *bycol;
	int rc = CB_EXIT_USAGE;

	if (load_points(a, &b, &n, &bycol) < 0 ||
	    cmp_side_empty(&b, &a->sel) < 0 || cmp_side_empty(&n, &a->sel) < 0)
		goto out;
	cmp_match_points(&b, &n);
	ct = cb_xcalloc(b.nct + 1, sizeof *ct);
	nct = cmp_ct_judge(&b, ct);
	for (size_t k = 0; k < nct; k++)
		bad += ct[k].v == CMP_CT_WORSE;
	c = cb_xcalloc(b.npts + 1, sizeof *c);
	for (size_t k = 0; k < b.npts; k++) {
		if (!b.pts[k].match) {
			only[0]++;
			continue;
		}
		c[nc] = cmp_judge(&b.pts[k], b.pts[k].match, a->threshold);
		nc++;
	}
	cmp_decide(c, nc, a->threshold);
	for (size_t k = 0; k < nc; k++)
		bad += cmp_is_bad(c[k].v);
	for (size_t k = 0; k < n.npts; k++)
		only[1] += !n.pts[k].match;
	if (a->csv_out) {
		cmp_print_csv_header(stdout, bycol);
		cmp_print_csv(stdout, &b, &n, c, nc);
		cmp_print_ct_csv(stdout, ct, nct);
	} else {
		cmp_print_table(stdout, &b, &n, c, nc, bycol, a->threshold);
		cmp_print_ct(stdout, &b, &n, ct, nct, bycol);
	}
	cmp_print_summary(a->csv_out ? stderr : stdout, a->csv_out ?
	                  "cryptobench: compare: summary" : "\nsummary", c, nc,
	                  ct, nct, only, a->threshold);
	if (flush_stdout() < 0)
		goto out;
	if (!nc && !nct) {
		cb_err("compare: no point of %s matches a point of %s: nothing "
		       "to compare", a->paths[0], a->paths[1]);
		rc = CB_EXIT_SKIP;
	} else {
		rc = bad ? CB_EXIT_FAIL : CB_EXIT_OK;
	}
out:
	cmp_side_free(&b);
	cmp_side_free(&n);
	free(c);
	free(ct);
	return rc;
}

/* 0, or -EINVAL after a message if path is JSON: cryptobench's (bench
 * writes HOST-STAMP.json beside HOST-STAMP.csv) or any other. */
static int not_json(const char *path)
{
	char head[512], csv[4200];
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : NULL;
	size_t n = f ? fread(head, 1, sizeof head - 1, f) : 0, k = 0, l;

	if (f)
		fclose(f);
	head[n] = 0;
	while (k < n && strchr(" \t\r\n", head[k]))
		k++;
	if (head[k] != '{')
		return 0;
	if (!strstr(head, "\"schema\": \"cryptobench-json")) {
		cb_err("compare: %s is JSON; compare reads result CSV files "
		       "(docs/csv.md)", path);
		return -EINVAL;
	}
	l = strlen(path);
	snprintf(csv, sizeof csv, "%.*s.csv", (int)(l > 5 && !strcmp(path + l - 5,
	         ".json") ? l - 5 : l), path);
	if (access(csv, R_OK) == 0)
		cb_err("compare: %s is cryptobench JSON; compare reads the CSV "
		       "beside it: %s", path, csv);
	else
		cb_err("compare: %s is cryptobench JSON; compare reads the CSV "
		       "beside it (the run's HOST-STAMP.csv)", path);
	return -EINVAL;
}

/* The files the mode wants; 0 or -EINVAL after a message. */
static int check_paths(const struct args *a)
{
	for (size_t k = 0; k < a->npaths; k++)
		if (not_json(a->paths[k]) < 0)
			return -EINVAL;
	if (a->baseline && (a->dump || !strcmp(a->by, "none"))) {
		cb_err("compare: --baseline compares groups of --by COL: not "
		       "with %s", a->dump ? "--dump" : "--by none");
		return -EINVAL;
	}
	if (a->dump || a->baseline) {
		if (a->npaths)
			return 0;
		cb_err("compare %s: no file given", a->dump ? "--dump" :
		       "--baseline");
		fputs("(see 'cryptobench compare --help')\n", stderr);
		return -EINVAL;
	}
	if (a->npaths != 2) {
		cb_err("compare: %s (want BASE NEW, or --baseline VALUE "
		       "FILE... for a fleet)", a->npaths < 2 ? "missing file" :
		       "too many files");
		fputs("(see 'cryptobench compare --help')\n", stderr);
		return -EINVAL;
	}
	if (!strcmp(a->paths[0], "-") && !strcmp(a->paths[1], "-")) {
		cb_err("compare: BASE and NEW cannot both be standard input");
		return -EINVAL;
	}
	return 0;
}

/* The command line into a (free_args() after); 0, 1 after --help, or
 * -EINVAL after a message. */
static int parse_args(int argc, char **argv, struct args *a)
{
	const char *arg;
	int i = 1, id, rc = 0;

	a->paths = cb_xcalloc((size_t)argc, sizeof *a->paths);
	while (rc == 0 &&
	       (id = cb_getopt(argc, argv, &i, compare_opts, &arg)) != -1)
		rc = id == -2 ? -EINVAL : take_opt(a, id, arg);
	return rc;
}

static void free_args(struct args *a)
{
	for (size_t k = 0; k < a->sel.nflt; k++)
		free(a->sel.flt[k].col);
	free(a->sel.flt);
	free(a->paths);
}

int cmd_compare(int argc, char **argv)
{
	struct args a = { .by = "auto", .threshold = 5.0 };
	int rc = parse_args(argc, argv, &a);

	if (rc == 0)
		rc = check_paths(&a);
	if (rc == 0)
		rc = a.dump ? do_dump(&a)
		     : a.baseline ? cmp_fleet(a.paths, a.npaths, &a.sel,
		                              strcmp(a.by, "auto") ? a.by : "host",
		                              a.baseline, a.threshold, a.csv_out)
		     : do_compare(&a);
	else
		rc = rc > 0 ? CB_EXIT_OK : CB_EXIT_USAGE;
	free_args(&a);
	return rc;
}
