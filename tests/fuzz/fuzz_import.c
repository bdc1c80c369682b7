/* fuzz_import.c - `cryptobench import`'s readers (src/import/): the input
 * is read as each format in turn and as whatever it is recognised as; every
 * row read must have its strings, and writes as a CSV row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "import/import.h"

static void one(const char *text, enum imp_format fmt, FILE *null)
{
	struct imp_file f = { .path = "fuzz", .source = "fuzz", .fmt = fmt };

	if (imp_read(&f, text) >= 0)
		for (size_t i = 0; i < f.n; i++)
			if (!f.res[i].alg || !f.res[i].backend ||
			    !f.res[i].direction || !f.res[i].iv_mode ||
			    !f.res[i].tool)
				abort();
	imp_write(null, &f);
	imp_free(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	FILE *null = fopen("/dev/null", "w");

	if (!text || !null)
		abort();
	memcpy(text, data, size);
	text[size] = 0;
	one(text, IMP_AUTO, null);
	for (int k = 0; k < IMP_NFORMATS; k++)
		one(text, (enum imp_format)k, null);
	fclose(null);
	free(text);
	return 0;
}
