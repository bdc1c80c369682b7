/*
 * cmd_report.c - `cryptobench report FILE... -o DIR`: index.html from result
 * CSV files.  This file holds the command: its options, the files read
 * (rpt_load) and the page written (report_write, report/report_page.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "commands/cmd.h"
#include "report/report.h"
#include "report/rpt.h"
#include "foundation/util.h"

enum { OPT_OUT = 1, OPT_FORCE, OPT_SEED };

static const struct cb_opt report_options[] = {
	{ "--out", 1, OPT_OUT, "DIR",
	  "where index.html goes (created if missing)" },
	{ "-o", 1, OPT_OUT, NULL, NULL },
	{ "--force", 0, OPT_FORCE, NULL, "replace an existing DIR/index.html" },
	{ "-f", 0, OPT_FORCE, NULL, NULL },
	{ "--seed", 1, OPT_SEED, "FILE|none",
	  "the geli seed's figures (default: results/reference/geli-seed.csv, "
	  "found as the vectors are); none: leave out" },
	{ NULL, 0, 0, NULL, NULL },
};

const struct cb_command cb_cmd_report = {
	.name = "report", .run = cmd_report, .opts = report_options,
	.synopsis = "report FILE.csv... -o DIR [--force] [--seed FILE|none]",
	.summary = "an HTML report (index.html) of result files: plots, geli "
	           "matrix, verdicts",
	.more =
	"Writes DIR/index.html from result CSV files (one or several hosts or\n"
	"CPU levels): the summary, throughput-vs-size charts (gnuplot SVG, inline),\n"
	"the geli matrix beside the seed report, dm-crypt xts vs essiv, compare's\n"
	"verdicts between the hosts or levels, known-answer status, provenance.\n"
	"Nothing in the page is loaded from the network.\n"
	"Needs gnuplot ($GNUPLOT).  See docs/report.md.\n",
};

/* What the command line asked for. */
struct report_args {
	char **files;
	size_t n;
	const char *out, *seed;
	int force;
};

/* The options and files into a (a->files to free); 0, or -1 after a
 * message. */
static int report_args(int argc, char **argv, struct report_args *a)
{
	const char *arg;
	int i = 1, id;

	a->files = cb_xcalloc((size_t)argc + 1, sizeof *a->files);
	while ((id = cb_getopt(argc, argv, &i, report_options, &arg)) != -1) {
		if (id == -2)
			return -1;
		if (id == 0)
			a->files[a->n++] = (char *)arg;
		else if (id == OPT_OUT)
			a->out = arg;
		else if (id == OPT_FORCE)
			a->force = 1;
		else if (id == OPT_SEED)
			a->seed = strcmp(arg, "none") ? arg : NULL;
	}
	if (!a->n || !a->out) {
		cb_err("report: %s", !a->n ? "no result file given"
		                           : "-o DIR is needed");
		fputs("(see 'cryptobench report --help')\n", stderr);
		return -1;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_args ra = { .seed = "" };
	int rc = CB_EXIT_USAGE;
	struct rpt r;

	memset(&r, 0, sizeof r);
	if (report_args(argc, argv, &ra) < 0)
		goto out;
	if (!report_gnuplot()) {
		cb_err("report: gnuplot not found (apt-get install gnuplot-nox, "
		       "or set GNUPLOT)");
		goto out;
	}
	if ((rc = rpt_load(&r, ra.files, ra.n, ra.seed)) != 0)
		goto out;
	rc = report_write(&r, ra.files, ra.n, ra.out, NULL, ra.force);
	if (rc == CB_EXIT_OK)
		fprintf(stderr, "cryptobench: report in %s/index.html\n", ra.out);
out:
	rpt_free(&r);
	free(ra.files);
	return rc;
}
