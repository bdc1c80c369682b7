/*
 * check.h - the counting shared by the C tests: check() records one
 * assertion, checkf() the same with a printf-style description, skip()
 * one test that could not run here (with the reason), finish() prints the
 * "N passed, N failed[, N skipped]" line tests/run.sh sums and gives the
 * exit status.  Included once per test program; tests never include a .c
 * file, they link the objects.
 */
#ifndef CB_TEST_CHECK_H
#define CB_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>

#define CHECK_UNUSED __attribute__((unused))
#define CHECK_MAX_REPORTED 50    /* failures printed; all are counted */

static unsigned passed, failed, skipped;

static CHECK_UNUSED void check(int ok, const char *what)
{
	if (ok) {
		passed++;
	} else {
		failed++;
		if (failed <= CHECK_MAX_REPORTED)
			printf("FAIL: %s\n", what);
	}
}

static CHECK_UNUSED __attribute__((format(printf, 2, 3)))
void checkf(int ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		passed++;
		return;
	}
	failed++;
	if (failed > CHECK_MAX_REPORTED)
		return;
	va_start(ap, fmt);
	fputs("FAIL: ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	va_end(ap);
}

static CHECK_UNUSED void skip(const char *why)
{
	skipped++;
	printf("SKIP: %s\n", why);
}

static CHECK_UNUSED int finish(void)
{
	if (skipped)
		printf("%u passed, %u failed, %u skipped\n", passed, failed,
		       skipped);
	else
		printf("%u passed, %u failed\n", passed, failed);
	return failed != 0;
}

#endif
