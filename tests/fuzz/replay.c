/*
 * replay.c - run a fuzz target without libFuzzer: every file of the
 * target's seed corpus (tests/fuzz/corpus/T/) and regression inputs
 * (tests/fuzz/regress/T/) through LLVMFuzzerTestOneInput, or the files
 * given as arguments.  Built by `make check` as build/tests/test_fuzz_T;
 * a crash (or, under check-asan / check-valgrind, a memory error) fails it.
 * Prints "N passed, 0 failed": an input passes by returning.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#ifndef FUZZ_TARGET
#error "FUZZ_TARGET (the target's name) must be defined"
#endif

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return -1;
	}
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			if (!(buf = realloc(buf, cap)))
				abort();
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

static int run_dir(const char *dir, unsigned *passed, unsigned *failed)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	char path[4096];

	if (n < 0)
		return 0;        /* no regression inputs yet */
	for (int i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.') {
			snprintf(path, sizeof path, "%s/%s", dir, ents[i]->d_name);
			if (run_file(path) < 0)
				++*failed;
			else
				++*passed;
		}
		free(ents[i]);
	}
	free(ents);
	return n;
}

int main(int argc, char **argv)
{
	unsigned passed = 0, failed = 0;

	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			if (run_file(argv[i]) < 0)
				failed++;
			else
				passed++;
	} else {
		if (run_dir("tests/fuzz/corpus/" FUZZ_TARGET, &passed,
		            &failed) <= 0) {
			fprintf(stderr, "no seed corpus tests/fuzz/corpus/"
			        FUZZ_TARGET "\n");
			failed++;
		}
		run_dir("tests/fuzz/regress/" FUZZ_TARGET, &passed, &failed);
	}
	printf("fuzz " FUZZ_TARGET ": %u inputs replayed\n", passed);
	printf("%u passed, %u failed\n", passed, failed);
	return failed != 0;
}
