/*
 * fuzz.h - shared by the fuzz targets (docs/fuzz.md).  Each fuzz_*.c defines
 * LLVMFuzzerTestOneInput; built with clang -fsanitize=fuzzer it is a
 * libFuzzer target (make fuzz), built with replay.c and the project's
 * compiler it replays the seed corpus and the regression files (make check).
 *
 * Option targets read their input as a command line: one argument a line
 * (LF-separated, a final LF optional), argv[0] supplied.
 */
#ifndef CB_FUZZ_H
#define CB_FUZZ_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAXARGS 64

struct fuzz_argv {
	char *buf;
	int argc;
	char *argv[FUZZ_MAXARGS + 2];
};

/* Split data into argv (argv[0] = prog); free with fuzz_argv_free(). */
static inline void fuzz_argv(struct fuzz_argv *a, const char *prog,
                             const uint8_t *data, size_t size)
{
	char *p;

	a->buf = malloc(size + 1);
	if (!a->buf)
		abort();
	memcpy(a->buf, data, size);
	a->buf[size] = 0;
	a->argc = 0;
	a->argv[a->argc++] = (char *)prog;
	p = a->buf;
	if (size && a->buf[size - 1] == '\n')
		a->buf[size - 1] = 0;
	while (a->argc <= FUZZ_MAXARGS) {
		char *nl = strchr(p, '\n');

		a->argv[a->argc++] = p;
		if (!nl)
			break;
		*nl = 0;
		p = nl + 1;
	}
	if (!size)
		a->argc = 1;
	a->argv[a->argc] = NULL;
}

static inline void fuzz_argv_free(struct fuzz_argv *a)
{
	free(a->buf);
}
#endif
