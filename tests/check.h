/*
 * check.h - the counting shared by the C tests: check() records one
 * assertion, finish() prints the "N passed, N failed" line tests/run.sh
 * sums and gives the exit status.  Included once per test program.
 */
#ifndef CB_TEST_CHECK_H
#define CB_TEST_CHECK_H

#include <stdio.h>

static unsigned passed, failed;

static void check(int ok, const char *what)
{
	if (ok) {
		passed++;
	} else {
		failed++;
		printf("FAIL: %s\n", what);
	}
}

static int finish(void)
{
	printf("%u passed, %u failed\n", passed, failed);
	return failed != 0;
}

#endif
