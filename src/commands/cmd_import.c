/*
 * cmd_import.c - `cryptobench import [--format F] [--source S]
 * [--skip-bad] [-o FILE] FILE...`: other tools' benchmark outputs as
 * result CSV (docs/import.md).  Every file is read before anything is
 * written: a line that cannot be read is an error naming FILE:LINE, and
 * then nothing is written at all (exit 2), unless --skip-bad passes such
 * lines over with a warning.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "commands/cmd.h"
#include "import/import.h"
#include "output/output.h"
#include "foundation/util.h"

enum { O_FORMAT = 1, O_SOURCE, O_SKIP, O_OUT, O_SET };
#define IMP_MAXSET 16

static const struct cb_opt import_options[] = {
	{ "--format", 1, O_FORMAT, "F", "the input's format: cryptsetup, "
	  "openssl, tcrypt, bssl, bench-slope, geli (default: recognised "
	  "from the content)" },
	{ "--source", 1, O_SOURCE, "S", "where the text comes from (a URL), "
	  "for the rows' provenance (default: the file's path)" },
	{ "--skip-bad", 0, O_SKIP, NULL, "pass over lines that cannot be "
	  "read (a warning each) instead of failing" },
	{ "--set", 1, O_SET, "NAME=VALUE", "a provenance column the source "
	  "states beside the text: host, cpu_model, kernel, cpu_vendor, "
	  "cpu_flags, cpu_family, cpu_model_no, cpu_stepping, timestamp "
	  "(repeatable)" },
	{ "-o", 1, O_OUT, "FILE", "write the CSV to FILE (default: stdout)" },
	{ "--output", 1, O_OUT, "FILE", NULL },
	{ NULL, 0, 0, NULL, NULL },
};

const struct cb_command cb_cmd_import = {
	.name = "import", .run = cmd_import, .opts = import_options,
	.synopsis = "import [--format F] [--source S] [--set NAME=VALUE]... [--skip-bad]\n"
	            "       [-o FILE] "
	            "FILE...",
	.summary = "other tools' benchmark outputs as result CSV",
	.more = "Formats: cryptsetup benchmark (1.x, 2.x), openssl speed (table,\n"
	        "-mr), kernel tcrypt logs, bssl speed (text, -json), libgcrypt\n"
	        "bench-slope, geli/dd lines (docs/import.md).  A line that cannot\n"
	        "be read is an error naming FILE:LINE (exit 2): nothing is written.\n",
};

/* the whole of path ("-": stdin), or NULL (message printed) */
static char *slurp(const char *path)
{
	FILE *in = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t n = 0, cap = 1 << 16, k;
	char *buf;

	if (!in) {
		cb_err("import: %s: %s", path, strerror(errno));
		return NULL;
	}
	buf = cb_xmalloc(cap);
	while ((k = fread(buf + n, 1, cap - n - 1, in)) > 0)
		if ((n += k) == cap - 1)
			buf = cb_xrealloc(buf, cap *= 2);
	buf[n] = 0;
	if (ferror(in) || strlen(buf) != n) {
		cb_err("import: %s: %s", path, ferror(in) ? "read error"
		       : "a NUL byte: not a text output");
		free(buf);
		buf = NULL;
	}
	if (in != stdin)
		fclose(in);
	return buf;
}

static const char *sets[IMP_MAXSET];
static int nsets;

/* the --set values into f; 0, or -1 (message printed) */
static int apply_sets(struct imp_file *f)
{
	for (int i = 0; i < nsets; i++) {
		char name[32];
		const char *eq = strchr(sets[i], '=');

		snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - sets[i]) : 0,
		         sets[i]);
		if (!eq || imp_set(f, name, eq + 1) < 0) {
			cb_err("import: --set '%s': expected NAME=VALUE, NAME one "
			       "of host, cpu_model, kernel, cpu_vendor, cpu_flags, "
			       "cpu_family, cpu_model_no, cpu_stepping, timestamp, "
			       "and a VALUE that fits", sets[i]);
			return -1;
		}
	}
	return 0;
}

/* read one file into f; 0, or -1 (messages printed) */
static int read_one(struct imp_file *f)
{
	char *text = slurp(f->path);
	int rc;

	if (!text)
		return -1;
	rc = imp_read(f, text);
	free(text);
	if (rc < 0 || (rc > 0 && !f->skip_bad))
		return -1;
	if (!f->n) {
		cb_err("import: %s: no results in it (read as %s)", f->path,
		       imp_format_name(f->fmt));
		return -1;
	}
	return apply_sets(f);
}

static int write_all(const char *out, struct imp_file *files, int n)
{
	FILE *o = out ? fopen(out, "w") : stdout;

	if (!o) {
		cb_err("import: %s: %s", out, strerror(errno));
		return CB_EXIT_USAGE;
	}
	cb_csv_header(o);
	for (int i = 0; i < n; i++)
		imp_write(o, &files[i]);
	if (ferror(o) | (out ? fclose(o) : fflush(o))) {
		cb_err("import: %s: write error", out ? out : "stdout");
		return CB_EXIT_USAGE;
	}
	return CB_EXIT_OK;
}

int cmd_import(int argc, char **argv)
{
	struct imp_file *files = cb_xcalloc((size_t)argc, sizeof *files);
	const char *arg, *out = NULL, *source = NULL;
	enum imp_format fmt = IMP_AUTO;
	int i = 1, id, n = 0, skip = 0, bad = 0, rc = CB_EXIT_OK;

	while ((id = cb_getopt(argc, argv, &i, import_options, &arg)) != -1) {
		if (id == -2)
			rc = CB_EXIT_USAGE;
		else if (id == O_FORMAT && (fmt = imp_format_find(arg)) == IMP_AUTO) {
			cb_err("import: --format '%s': not a format import reads "
			       "(%s)", arg, imp_format_list());
			rc = CB_EXIT_USAGE;
		} else if (id == O_SOURCE)
			source = arg;
		else if (id == O_SKIP)
			skip = 1;
		else if (id == O_OUT)
			out = arg;
		else if (id == O_SET && nsets == IMP_MAXSET) {
			cb_err("import: more than %d --set", IMP_MAXSET);
			rc = CB_EXIT_USAGE;
		} else if (id == O_SET)
			sets[nsets++] = arg;
		else if (id == 0)
			files[n++].path = arg;
		if (rc)
			break;
	}
	if (!rc && !n) {
		cb_err("import: no FILE to read (see cryptobench help import)");
		rc = CB_EXIT_USAGE;
	}
	for (int k = 0; !rc && k < n; k++) {     /* every file's errors */
		files[k].source = source ? source : files[k].path;
		files[k].skip_bad = skip;
		files[k].fmt = fmt;
		if (read_one(&files[k]) < 0)
			bad = 1;
	}
	rc = rc ? rc : bad ? CB_EXIT_USAGE : CB_EXIT_OK;
	if (!rc)
		rc = write_all(out, files, n);
	for (int k = 0; k < n; k++)
		imp_free(&files[k]);
	free(files);
	return rc;
}
