/*
 * bench_ct.c - `bench --ct FILE`: the verdicts of a ct run (`cryptobench
 * ct --format csv`, docs/ct.md) taken into a bench's results.  The file
 * is read and checked before the run (rpt.c: every ct row's verdict one
 * of result.h's, FILE:LINE otherwise); its ct rows go into the bench's
 * CSV as they are (their own host, CPU level and evidence), laid out by
 * the bench's own header, and into its JSON as results.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "core/cb.h"
#include "foundation/csv.h"
#include "output/output.h"
#include "output/result.h"
#include "report/rpt.h"
#include "foundation/util.h"

int bench_ct_load(const char *path, struct rpt *r)
{
	char *files[1] = { (char *)path };

	if (rpt_load(r, files, 1, NULL) != 0)
		return -1;
	if (!r->nct) {
		cb_err("bench --ct: %s has no ct rows (cryptobench ct --format "
		       "csv -o FILE writes them)", path);
		return -1;
	}
	return 0;
}

static int is_ct(const struct cb_csv *c, const struct cb_csv_rec *row)
{
	const char *t = cb_csv_get(c, row, "tool");

	return t && !strcmp(t, "ct");
}

/* The bench's own CSV header as read back (cb_csv_header's columns). */
static int own_header(struct cb_csv *h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return -ENOMEM;
	cb_csv_header(m);
	if (fclose(m) != 0) {
		free(buf);
		return -EIO;
	}
	rc = cb_csv_parse(h, "header", buf, len);
	free(buf);
	return rc;
}

int bench_ct_csv(FILE *f, const struct rpt *r)
{
	const struct cb_csv *c = &r->csv[0];
	struct cb_csv h;
	int rc;

	if (!r->ncsv)
		return 0;
	if ((rc = own_header(&h)) < 0)
		return rc;
	for (size_t i = 0; i < c->nrows; i++) {
		if (!is_ct(c, &c->rows[i]))
			continue;
		for (size_t k = 0; k < h.hdrs[0].ncols; k++) {
			const char *v = cb_csv_get(c, &c->rows[i],
			                           h.hdrs[0].names[k]);

			if (k)
				fputc(',', f);
			cb_csv_write_field(f, v ? v : "");
		}
		fputs("\r\n", f);
	}
	cb_csv_free(&h);
	return ferror(f) ? -EIO : 0;
}

/* A ct row as a result (bench_csv_result reads the ct columns too); its
 * level is the file's, which JSON results do not otherwise carry. */
static void ct_result(const struct cb_csv *c, const struct cb_csv_rec *row,
                      struct cb_result *r)
{
	const char *lv = cb_csv_get(c, row, "cpu_level");

	bench_csv_result(c, row, r);
	r->ct_cpu_level = lv ? lv : "";
}

size_t bench_ct_results(const struct rpt *r, struct cb_result *res)
{
	const struct cb_csv *c = r->ncsv ? &r->csv[0] : NULL;
	size_t n = 0;

	for (size_t i = 0; c && i < c->nrows; i++)
		if (is_ct(c, &c->rows[i]))
			ct_result(c, &c->rows[i], &res[n++]);
	return n;
}
