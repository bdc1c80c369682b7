/*
 * import.c - the formats import reads, recognising one by its content,
 * and reading a text line by line with a format's reader (import.h).
 */
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "output/output.h"
#include "foundation/util.h"

struct imp_fmt {
	const char *name;
	const char *tool;            /* the tool_version column: what made it */
	int (*line)(struct imp_file *f, unsigned long no, const char *s);
	const char *const marks[5];  /* a line holding one is this format's */
};

static const struct imp_fmt fmts[IMP_NFORMATS] = {
	[IMP_CRYPTSETUP] = { "cryptsetup", "cryptsetup benchmark", imp_cryptsetup_line,
		{ " iterations per second for ", "Algorithm |",
		  " parallel threads (CPUs) for ", "# Tests are approximate" } },
	[IMP_OPENSSL] = { "openssl", "openssl speed", imp_openssl_line,
		{ "The 'numbers' are in 1000s", "+H:", "+F:" } },
	[IMP_TCRYPT] = { "tcrypt", "tcrypt (Linux)", imp_tcrypt_line, { "testing speed of " } },
	[IMP_BSSL] = { "bssl", "bssl speed", imp_bssl_line,
		{ "\"numCalls\"", "Did " } },
	[IMP_SLOPE] = { "bench-slope", "libgcrypt bench-slope", imp_slope_line, { "nanosecs/byte" } },
	[IMP_GELI] = { "geli", "geli, dd", imp_geli_line,
		{ "bytes transferred in ", "geli init ", " copied, " } },
};

const char *imp_format_name(enum imp_format fmt)
{
	return fmt >= 0 && fmt < IMP_NFORMATS ? fmts[fmt].name : "auto";
}

enum imp_format imp_format_find(const char *name)
{
	for (int i = 0; i < IMP_NFORMATS; i++)
		if (!strcmp(name, fmts[i].name))
			return (enum imp_format)i;
	return IMP_AUTO;
}

const char *imp_format_list(void)
{
	return "cryptsetup, openssl, tcrypt, bssl, bench-slope, geli";
}

/* the format whose mark line holds, or IMP_AUTO */
static enum imp_format line_format(const char *s, size_t len)
{
	char buf[512];

	snprintf(buf, sizeof buf, "%.*s", (int)(len < 511 ? len : 511), s);
	for (int i = 0; i < IMP_NFORMATS; i++)
		for (int k = 0; fmts[i].marks[k]; k++) {
			const char *m = fmts[i].marks[k], *at = strstr(buf, m);

			if (!at)
				continue;
			/* bssl's "Did " begins its line; -mr's "+H:" too */
			if ((i == IMP_BSSL && k == 1) || (i == IMP_OPENSSL && k))
				if (at != buf + strspn(buf, " \t"))
					continue;
			return (enum imp_format)i;
		}
	return IMP_AUTO;
}

enum imp_format imp_detect(const char *text)
{
	for (const char *p = text; p && *p; ) {
		size_t len = strcspn(p, "\n");
		enum imp_format fmt = line_format(p, len);

		if (fmt != IMP_AUTO)
			return fmt;
		p = p[len] ? p + len + 1 : NULL;
	}
	return IMP_AUTO;
}

int imp_read(struct imp_file *f, const char *text)
{
	unsigned long no = 0;

	f->prov.cpu_family = f->prov.cpu_model_no = f->prov.cpu_stepping = -1;
	if (f->fmt == IMP_AUTO && (f->fmt = imp_detect(text)) == IMP_AUTO) {
		cb_err("%s: not an output import reads (%s); name it with "
		       "--format", f->path, imp_format_list());
		return -1;
	}
	f->prov.tool_version = fmts[f->fmt].tool;
	for (const char *p = text; p && *p; ) {
		size_t len = strcspn(p, "\n");
		char *line = cb_xmalloc(len + 1);

		memcpy(line, p, len);
		line[len] = 0;
		if (len && line[len - 1] == '\r')
			line[len - 1] = 0;
		fmts[f->fmt].line(f, ++no, line);
		free(line);
		p = p[len] ? p + len + 1 : NULL;
	}
	return (int)f->errors;
}

void imp_write(FILE *out, const struct imp_file *f)
{
	for (size_t i = 0; i < f->n; i++)
		cb_csv_row(out, &f->prov, &f->res[i]);
}

void imp_free(struct imp_file *f)
{
	for (size_t i = 0; i < f->npool; i++)
		free(f->pool[i]);
	free(f->pool);
	free(f->res);
	free(f->state);
	f->pool = NULL;
	f->res = NULL;
	f->state = NULL;
	f->n = f->npool = f->cap = 0;
}
