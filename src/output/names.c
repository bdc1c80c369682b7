/*
 * names.c - long names in a text table's column: cut and keyed "[N]",
 * with a legend after the table giving them whole (output.h).  bench's
 * summary and compare's tables share it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "foundation/util.h"

const char *cb_shorten(struct cb_legend *lg, const char *name, int w,
                       char *buf, size_t len)
{
	size_t k;
	int kw;

	if ((int)strlen(name) <= w)
		return name;
	for (k = 0; k < lg->n && strcmp(lg->name[k], name); k++)
		;
	if (k == lg->n) {
		lg->name = cb_xrealloc(lg->name, (lg->n + 1) * sizeof *lg->name);
		lg->name[lg->n++] = cb_xstrdup(name);
	}
	kw = snprintf(NULL, 0, "[%zu]", k + 1);
	snprintf(buf, len, "%.*s[%zu]", w > kw ? w - kw : 0, name, k + 1);
	return buf;
}

void cb_legend_print(FILE *f, const struct cb_legend *lg, int width)
{
	for (size_t k = 0; k < lg->n; k++) {
		int kw = snprintf(NULL, 0, "  [%zu] = ", k + 1);

		fprintf(f, "  [%zu] = %.*s\n", k + 1,
		        width > kw ? width - kw : (int)strlen(lg->name[k]),
		        lg->name[k]);
	}
}

void cb_legend_free(struct cb_legend *lg)
{
	for (size_t k = 0; k < lg->n; k++)
		free(lg->name[k]);
	free(lg->name);
	lg->name = NULL;
	lg->n = 0;
}

/* One line of text (no '\n') onto f, broken at spaces into lines of at
 * most width, the lines after the first indented by two spaces. */
static void fit_line(FILE *f, const char *s, size_t len, size_t width)
{
	int first = 1;

	while (len > width - (first ? 0 : 2)) {
		size_t w = width - (first ? 0 : 2), cut = w;

		while (cut > 0 && s[cut] != ' ')
			cut--;
		if (!cut)
			break;                  /* one word longer than width */
		fprintf(f, "%s%.*s\n", first ? "" : "  ", (int)cut, s);
		s += cut + 1;
		len -= cut + 1;
		first = 0;
	}
	fprintf(f, "%s%.*s\n", first ? "" : "  ", (int)len, s);
}

void cb_fit_lines(FILE *f, const char *text, size_t len, int width,
                  const char *keep)
{
	while (len) {
		const char *nl = memchr(text, '\n', len);
		size_t n = nl ? (size_t)(nl - text) : len;

		if (n <= (size_t)width ||
		    (keep && memmem(text, n, keep, strlen(keep))))
			fprintf(f, "%.*s\n", (int)n, text);
		else
			fit_line(f, text, n, (size_t)width);
		if (!nl) {
			break;
		}
		text += n + 1;
		len -= n + 1;
	}
}
