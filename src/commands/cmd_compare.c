/*
 * cmd_compare.c - `cryptobench compare`: a regression table between two result
 * CSV files, and `compare --dump`, the normalised view of result files that
 * scripts/plot draws from.  This file turns options into a job
 * (compare_run.c runs it); the points, the verdicts and the writers are
 * the pieces compare.h lists.
 * docs/compare.md is the user-facing description.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "core/cb.h"
#include "commands/cmd.h"
#include "compare/compare.h"
#include "foundation/csv.h"
#include "foundation/util.h"

/* ---- the command ------------------------------------------------------- */

enum { O_THRESHOLD = 1, O_FORMAT, O_HOST, O_BHOST, O_NHOST, O_WHERE, O_BWHERE,
       O_NWHERE, O_BY, O_DUMP, O_IGNORE, O_BASELINE, O_HOLM, O_MISSING,
       O_REFERENCE };

static const struct cb_opt compare_opts[] = {
	{ "--allow-missing", 0, O_MISSING, NULL,
	  "a backend or algorithm of BASE missing from NEW is no finding "
	  "(else exit 1)" },
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
	{ "--reference", 0, O_REFERENCE, NULL,
	  "[DIR] HOST.csv...: place this host among the reference library "
	  "(default results/reference/)" },
	{ "--threshold", 1, O_THRESHOLD, "PCT",
	  "a change within PCT % is same; past it, a significant one is "
	  "SLOWER/faster (default 2.5)" },
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
	"         [--allow-missing]\n"
	"       cryptobench compare --baseline VALUE [--by host|cpu_level|COL] [..] FILE...\n"
	"       cryptobench compare --dump [--where ..] [--host H] FILE...\n"
	"       cryptobench compare --reference [DIR] HOST.csv...",
	.summary = "the regression table between two result files (or a fleet)",
	.more =
	"BASE and NEW are cryptobench CSV files ('-' is standard input).\n"
	"Points are matched by tool, alg, key bits, block size, direction,\n"
	"backend, driver (native's code path left out: native at two --cpu\n"
	"levels is one implementation), IV mode, sector size, threads and\n"
	"auth; a backend or algorithm of BASE missing from NEW exits 1\n"
	"(--allow-missing).  With raw\n"
	"samples on both sides (cryptobench-csv-2 sample_ops) a point is faster,\n"
	"SLOWER, same or inconclusive: a Mann-Whitney U test, Benjamini-Hochberg\n"
	"adjusted over the points (false discovery rate 0.05; --holm: Holm,\n"
	"family-wise), and a change past PCT % (default 2.5); SLOWER\n"
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
	"of repeated runs) for scripts/plot.\n"
	"--reference [DIR] HOST.csv... places the host's results (its bench or\n"
	"speed CSV, and its imported cryptsetup benchmark) among the\n"
	"reference library (DIR, default results/reference/ beside the binary\n"
	"or installed; $CRYPTOBENCH_REFERENCE): a table per cryptsetup\n"
	"benchmark line (12 cipher rows each way, PBKDF2, Argon2), the host's\n"
	"rank, ratio host/reference and per GHz; exit 0 when placed, also when\n"
	"slower (placement, not a gate), 2 for a bad DIR or file, 77 when\n"
	"nothing could be placed; --format csv gives one CSV of the placements\n"
	"(the summary on standard error).  See docs/compare.md.\n",
};

/* What the command line asked for. */
struct args {
	struct cmp_select sel;
	const char **paths;
	size_t npaths;
	const char *by;          /* "auto", "none" or a column                  */
	const char *baseline;    /* --baseline: a fleet against this group      */
	double threshold;        /* percent                                     */
	int csv_out, dump, reference;
};

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
	case O_REFERENCE:
		a->reference = 1;
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
		cmp_add_filter(&a->sel, id == O_HOST ? 3 : id == O_BHOST ? 1 : 2,
		               "host", 4, '=', arg);
		break;
	case O_WHERE:
	case O_BWHERE:
	case O_NWHERE:
		return cmp_parse_where(&a->sel, id == O_WHERE ? 3 :
		                       id == O_BWHERE ? 1 : 2, arg);
	case O_BY:
		a->by = !strcmp(arg, "cpu") ? "cpu_model" : arg;
		break;
	case O_IGNORE:
		return cmp_parse_ignore(&a->sel, arg);
	case O_MISSING:
		a->sel.allow_missing = 1;
		break;
	case O_DUMP:
		a->dump = 1;
		break;
	case O_BASELINE:
		a->baseline = arg;
		break;
	}
	return 0;
}

/* The job the options make: the files, output on stdout, a CSV's summary
 * on stderr. */
static struct cmp_job job_of(const struct args *a)
{
	struct cmp_job j = { .sel = &a->sel, .threshold = a->threshold,
	                     .csv_out = a->csv_out, .out = stdout,
	                     .sum = stderr, .baseline = a->baseline };

	if (a->dump || a->baseline) {
		j.paths[0] = a->paths;
		j.npaths[0] = a->npaths;
		j.by = strcmp(a->by, "auto") ? a->by : "host";
	} else {
		j.paths[0] = &a->paths[0];
		j.paths[1] = &a->paths[1];
		j.npaths[0] = j.npaths[1] = 1;
		j.by = a->by;
	}
	return j;
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
	cmp_select_free(&a->sel);
	free(a->paths);
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether path names a directory: one, or (missing) not a *.csv. */
static int names_dir(const char *path)
{
	size_t l = strlen(path);

	return is_dir(path) || (access(path, F_OK) < 0 && errno == ENOENT &&
	       !(l > 4 && !strcmp(path + l - 4, ".csv")));
}

/* --reference's paths: the one directory among them (or the one missing
 * path that is no *.csv: a DIR mistyped) into *dir, the others (the
 * host's files) into host; how many of those, or -1 after a message. */
static long split_reference(const struct args *a, const char **dir,
                            const char **host)
{
	long n = 0;

	for (size_t k = 0; k < a->npaths; k++) {
		if (!names_dir(a->paths[k])) {
			if (not_json(a->paths[k]) < 0)
				return -1;
			host[n++] = a->paths[k];
		} else if (*dir) {
			cb_err("compare --reference: %s and %s: one reference "
			       "directory, then the host's result CSVs", *dir,
			       a->paths[k]);
			return -1;
		} else {
			*dir = a->paths[k];
		}
	}
	if (n)
		return n;
	if (*dir && !is_dir(*dir))
		cb_err("compare --reference: %s: %s (the host's result CSV)",
		       *dir, strerror(ENOENT));
	else if (*dir)
		cb_err("compare --reference: %s is a directory: the host's result "
		       "CSV is wanted too (DIR HOST.csv...)", *dir);
	else
		cb_err("compare --reference: no host file given");
	return -1;
}

/* --reference [DIR] HOST.csv...; the exit status. */
static int run_reference(const struct args *a)
{
	const char **host = cb_xcalloc(a->npaths + 1, sizeof *host);
	const char *dir = NULL;
	long n = -1;
	int rc = CB_EXIT_USAGE;

	if (a->dump || a->baseline)
		cb_err("compare --reference: not with --dump or --baseline");
	else
		n = split_reference(a, &dir, host);
	if (n > 0) {
		struct cmp_ref_host h = { host, (size_t)n };

		rc = cmp_reference(dir, &h, a->csv_out, stdout);
	}
	free(host);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	struct args a = { .by = "auto", .threshold = CMP_THRESHOLD };
	int rc = parse_args(argc, argv, &a);

	if (rc == 0 && a.reference) {
		rc = run_reference(&a);
		free_args(&a);
		return rc;
	}
	if (rc == 0)
		rc = check_paths(&a);
	if (rc == 0) {
		struct cmp_job j = job_of(&a);

		rc = a.dump ? cmp_dump(&j) : a.baseline ? cmp_fleet(&j)
		     : cmp_run(&j);
	} else
		rc = rc > 0 ? CB_EXIT_OK : CB_EXIT_USAGE;
	free_args(&a);
	return rc;
}
