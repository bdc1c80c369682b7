/*
 * bench_pool.c - `bench --processes N`: the speed passes in several
 * processes, one after the other, and their samples pooled.
 *
 * Why: where a library's code and tables land in the address space is
 * drawn anew by every exec (ASLR), and it shifts some series by 5-30 % for
 * the life of the process (branch predictor and cache aliasing; on this
 * project's VM 1 process in 10 ran gcrypt's Camellia-256 16-byte decrypt at
 * 80 instead of 106 MB/s).  Samples from one process cannot see that, so
 * two runs of one bench disagreed with confidence.  Pooling the samples of
 * N processes puts the layout's spread inside each point's CI, where
 * compare can weigh it.  The first part runs in bench's own process; the
 * others are `cryptobench bench ... --part FILE --budget S`, which write
 * their rows to FILE (CSV, with the samples) for bench_pool() to read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "core/cb.h"
#include "foundation/csv.h"
#include "measure/measure.h"
#include "output/columns.h"
#include "output/result.h"
#include "foundation/util.h"

/* A part's stderr: its warnings held with ours (each printed once, with
 * a count), anything else passed on as it is. */
static void part_stderr(const char *err)
{
	char line[2048];
	FILE *f = fopen(err, "r");

	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "cryptobench: warning: ", 22))
			cb_warn_add(line);
		else
			fputs(line, stderr);
	if (f)
		fclose(f);
	unlink(err);
}

int bench_part_spawn(const char *self, int argc, char **argv,
                     const char *file, double budget, const char *partof)
{
	char **av = cb_xcalloc((size_t)argc + 8, sizeof *av), sec[32];
	char err[4200];
	int n = 0, rc;

	snprintf(sec, sizeof sec, "%.3f", budget);
	av[n++] = "cryptobench";
	for (int i = 0; i < argc; i++)
		av[n++] = argv[i];        /* "bench" and the user's options */
	av[n++] = "--part";
	av[n++] = (char *)file;
	av[n++] = "--budget";          /* the last --budget counts */
	av[n++] = sec;
	av[n++] = "--part-of";
	av[n++] = (char *)partof;
	av[n] = NULL;
	snprintf(err, sizeof err, "%s.err", file);
	rc = cb_spawn(self, av, "/dev/null", err);
	part_stderr(err);
	free(av);
	if (rc != 0)
		cb_warn("bench: the process for a part of the passes ended with "
		        "status %d; its samples are left out", rc);
	return rc == 0 ? 0 : -1;
}

/* The same point: identity and request model. */
void bench_csv_result(const struct cb_csv *c, const struct cb_csv_rec *row,
                      struct cb_result *r)
{
	cb_col_read(c, row, r);
}

static int same_point(const struct cb_result *a, const struct cb_result *b)
{
	return !strcmp(a->backend, b->backend) && !strcmp(a->driver, b->driver) &&
	       !strcmp(a->alg, b->alg) && a->key_bits == b->key_bits &&
	       a->block_bytes == b->block_bytes &&
	       a->sector_bytes == b->sector_bytes && a->mb == b->mb &&
	       !strcmp(a->direction, b->direction);
}

/* The row's samples (sample_ops) into r; 0, or -1 without any. */
static int row_samples(const struct cb_csv *c, const struct cb_csv_rec *row,
                       struct cb_result *r)
{
	const char *v = cb_csv_get(c, row, "sample_ops");
	double *s = NULL;
	size_t n = 0;
	char bad[64];

	if (v && cb_csv_numbers(v, &s, &n, bad, sizeof bad) < 0)
		n = 0;       /* our own child wrote it: not expected */
	r->samples = s;
	r->reps = (unsigned)n;
	return n ? 0 : -1;
}

int bench_pool(struct cb_result *res, size_t n, const char *file,
               size_t *pooled)
{
	struct cb_csv c;
	size_t at = 0;
	int rc;

	*pooled = 0;
	if ((rc = cb_csv_read(&c, file)) < 0) {
		cb_err("bench: reading a part's rows: %s",
		       rc == -EINVAL ? c.err : strerror(-rc));
		return -1;
	}
	for (size_t i = 0; i < c.nrows && n; i++) {
		struct cb_result r = {0};

		bench_csv_result(&c, &c.rows[i], &r);
		if (r.status == CB_RES_OK && row_samples(&c, &c.rows[i], &r) == 0)
			for (size_t k = 0; k < n; k++, at = (at + 1) % n)
				if (same_point(&res[at], &r)) {
					speed_result_pool(&res[at], &r);
					(*pooled)++;
					break;
				}
		free((void *)r.samples);
	}
	cb_csv_free(&c);
	return 0;
}
