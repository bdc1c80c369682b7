/*
 * write_table.c - the table writer (output.h): a human table like
 * `openssl speed`, MB/s and cycles/byte, a column per request size,
 * sized from the whole report.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "foundation/util.h"
#include "output/output.h"
#include "output/result.h"
#include "output/writer.h"
#include "system/sysinfo.h"

#define MAX_COLS 64

static const char *dir_short(const char *d)
{
	return cb_out_streq(d, "encrypt") ? "enc" : cb_out_streq(d, "decrypt") ? "dec"
	       : cb_out_streq(d, "digest") ? "dgst" : d ? d : "";
}

/* A table row: results sharing everything but the request size. */
static int same_row(const struct cb_result *a, const struct cb_result *b)
{
	return cb_out_same_section(a, b) && a->key_bits == b->key_bits;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* What the whole table shares: its columns and the widths of its labels. */
struct tshape {
	uint64_t cols[MAX_COLS];
	size_t ncols, wdrv, wbe;
	int mixed_iv, mixed_sector, any_fail, any_spread;
	const char *iv0;
	unsigned reps;
};

static void shape_add(struct tshape *t, const struct cb_result *r,
                      const struct cb_result *first)
{
	size_t c;

	for (c = 0; c < t->ncols && t->cols[c] != r->block_bytes; c++)
		;
	if (c == t->ncols && t->ncols < MAX_COLS)
		t->cols[t->ncols++] = r->block_bytes;
	if (strlen(r->driver) > t->wdrv)
		t->wdrv = strlen(r->driver);
	if (strlen(r->backend) > t->wbe)
		t->wbe = strlen(r->backend);
	/* hashes ("none") sit beside any cipher model */
	if (!cb_out_streq(r->iv_mode, "none")) {
		if (!t->iv0)
			t->iv0 = r->iv_mode;
		t->mixed_iv |= !cb_out_streq(r->iv_mode, t->iv0);
	}
	t->mixed_sector |= r->sector_bytes != first->sector_bytes;
	if (r->status == CB_RES_OK && r->reps > t->reps)
		t->reps = r->reps;
}

static void table_shape(struct tshape *t, const struct cb_report *rep)
{
	memset(t, 0, sizeof *t);
	t->wdrv = 6;
	t->wbe = 7;
	for (size_t i = 0; i < rep->n; i++)
		shape_add(t, &rep->res[i], &rep->res[0]);
	qsort(t->cols, t->ncols, sizeof t->cols[0], cmp_u64);
}

static void table_preamble(FILE *f, const struct cb_report *rep,
                           const struct tshape *t)
{
	fprintf(f, "cryptobench %s speed: MB/s (10^6 bytes/s) and cycles per "
	        "byte; %s\n", rep->prov->tool_version,
	        cb_prov_cycles_note());
	if (isnan(rep->sec))        /* bench: rounds until its budget */
		fprintf(f, "median of %u samples of %.0f ms per point",
		        t->reps ? t->reps : 1, 1e3 * rep->sample_sec);
	else
		fprintf(f, "median of %u samples in %.2f s per point",
		        t->reps ? t->reps : 1, rep->sec);
	if (!t->mixed_iv && t->iv0)
		fprintf(f, "; IV %s", t->iv0);
	if (!t->mixed_sector && rep->res[0].sector_bytes)
		fprintf(f, "; %llu-byte sectors",
		        (unsigned long long)rep->res[0].sector_bytes);
	fprintf(f, "; 'ovh ns' is the per-call cost from a fit of time "
	        "against size\n");
}

/* An algorithm's title and its two header lines. */
static void table_head(FILE *f, const struct cb_result *r,
                       const struct tshape *t)
{
	fprintf(f, "\n%s\n", r->alg_label ? r->alg_label : r->alg);
	fprintf(f, "%-*s %-*s %4s %-4s%s", (int)t->wbe, "backend", (int)t->wdrv,
	        "driver", "key", "dir", t->mixed_iv ? " iv          " : "");
	if (t->mixed_sector)
		fprintf(f, " %6s", "sector");
	for (size_t c = 0; c < t->ncols; c++) {
		char h[32];

		snprintf(h, sizeof h, "%llu B", (unsigned long long)t->cols[c]);
		fprintf(f, "  %15s", h);
	}
	fprintf(f, "  %8s\n", "ovh ns");
	fprintf(f, "%-*s %-*s %4s %-4s%s", (int)t->wbe, "", (int)t->wdrv, "", "",
	        "", t->mixed_iv ? "             " : "");
	if (t->mixed_sector)
		fprintf(f, " %6s", "");
	for (size_t c = 0; c < t->ncols; c++)
		fprintf(f, "  %8s %6s ", "MB/s", "c/B");
	fprintf(f, "\n");
}

/* One cell, 2 + 8 + 1 + 6 + 1 wide; returns its per-call cost or NAN. */
static double table_cell(FILE *f, const struct cb_result *cell,
                         struct tshape *t)
{
	double mb, cpb;

	if (!cell) {
		fprintf(f, "  %15s", "");
		return NAN;
	}
	if (cell->status == CB_RES_FAIL) {
		fprintf(f, "  %15s", "FAILED ");
		t->any_fail = 1;
		return NAN;
	}
	if (cell->status == CB_RES_SKIP) {
		fprintf(f, "  %15s", "- ");
		return NAN;
	}
	mb = cell->bytes_per_sec / 1e6;
	cpb = cell->cycles_per_byte;
	fprintf(f, "  %8.*f ", mb < 99999.5 ? 1 : 0, mb);
	if (isnan(cpb))
		fprintf(f, "%6s", "?");
	else
		fprintf(f, "%6.*f", cpb < 99.995 ? 2 : cpb < 9999.5 ? 1 : 0, cpb);
	fputc(cell->noisy ? '~' : ' ', f);
	t->any_spread |= cell->noisy;
	return cell->overhead_ns;
}

/* The row of result i: its cells are the not yet printed results of the
 * same row, one per column. */
static void table_row(FILE *f, const struct cb_report *rep, size_t i,
                      char *done, struct tshape *t)
{
	const struct cb_result *r = &rep->res[i];
	double ovh = NAN;

	fprintf(f, "%-*s %-*s %4u %-4s", (int)t->wbe, r->backend, (int)t->wdrv,
	        r->driver, r->key_bits, dir_short(r->direction));
	if (t->mixed_iv)
		fprintf(f, " %-12s", r->iv_mode ? r->iv_mode : "");
	if (t->mixed_sector)
		fprintf(f, " %6llu", (unsigned long long)r->sector_bytes);
	for (size_t c = 0; c < t->ncols; c++) {
		const struct cb_result *cell = NULL;
		double o;

		for (size_t k = i; k < rep->n && !cell; k++)
			if (!done[k] && same_row(r, &rep->res[k]) &&
			    rep->res[k].block_bytes == t->cols[c]) {
				cell = &rep->res[k];
				done[k] = 1;
			}
		o = table_cell(f, cell, t);
		if (!isnan(o))
			ovh = o;
	}
	done[i] = 1;
	if (isnan(ovh))
		fprintf(f, "  %8s\n", "-");
	else
		fprintf(f, "  %8.1f\n", ovh);
}

static void table_failures(FILE *f, const struct cb_report *rep)
{
	fprintf(f, "\nFAILED: no speed is reported for an implementation "
	        "that computes wrong results:\n");
	for (size_t i = 0; i < rep->n; i++) {
		const struct cb_result *r = &rep->res[i];

		if (r->status == CB_RES_FAIL &&
		    (i == 0 || !same_row(r, &rep->res[i - 1]) ||
		     rep->res[i - 1].status != CB_RES_FAIL ||
		     !cb_out_streq(r->why, rep->res[i - 1].why)))
			fprintf(f, "  %s %s %u %s: %s\n", r->backend, r->driver,
			        r->key_bits, dir_short(r->direction),
			        r->why ? r->why : "");
	}
}

int cb_write_table(FILE *f, const struct cb_report *rep)
{
	struct tshape t;
	char *done;

	if (!rep->n)
		return cb_out_finish(f);
	table_shape(&t, rep);
	table_preamble(f, rep, &t);
	done = cb_xcalloc(rep->n, 1);
	for (size_t a = 0; a < rep->n; a++) {
		if (done[a])
			continue;
		table_head(f, &rep->res[a], &t);
		for (size_t i = a; i < rep->n; i++)
			if (!done[i] && cb_out_streq(rep->res[i].alg, rep->res[a].alg))
				table_row(f, rep, i, done, &t);
	}
	free(done);
	if (t.any_spread)
		fprintf(f, "\n~ noisy: the 95 %% confidence interval of this "
		        "point's median is wider than +-2 %%\n");
	if (t.any_fail)
		table_failures(f, rep);
	return cb_out_finish(f);
}
