/*
 * write_csv.c - the csv writer (output.h, docs/csv.md): the header and
 * the rows, both made from the column table (columns.c), so that they
 * cannot drift.  RFC 4180: CRLF line ends, fields quoted when needed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "foundation/csv.h"
#include "output/columns.h"
#include "output/output.h"
#include "output/result.h"
#include "output/writer.h"
#include "system/sysinfo.h"

void cb_csv_header(FILE *f)
{
	int first = 1;

	for (size_t i = 0; i < cb_ncols; i++)
		if (cb_cols[i].name) {
			fprintf(f, "%s%s", first ? "" : ",", cb_cols[i].name);
			first = 0;
		}
	fputs("\r\n", f);
}

/* A count: its value, 0 where it does not apply, empty in another
 * kind's row (ct). */
static void put_count(FILE *f, const struct cb_col *c, int on,
                      unsigned long long v)
{
	if (on)
		fprintf(f, "%llu", v);
	else if (c->when != CB_WHEN_CT)
		fputc('0', f);
}

static void put_list(FILE *f, const struct cb_col *c, int on,
                     const struct cb_result *r)
{
	if (c->type == CB_COL_SAMPLES)
		for (unsigned k = 0; on && r->samples && k < r->reps; k++)
			fprintf(f, k ? " %.2f" : "%.2f", r->samples[k]);
	else
		for (unsigned k = 0; on && k < r->nprocs; k++)
			fprintf(f, k ? " %u" : "%u", r->proc_n[k]);
}

static void put_field(FILE *f, const struct cb_col *c,
                      const struct cb_prov *p, const struct cb_result *r)
{
	const char *at = (c->prov ? (const char *)p : (const char *)r) + c->off;
	int on = cb_col_applies(c, c->when, p, r);
	const char *s;
	double v;

	switch (c->type) {
	case CB_COL_SCHEMA: cb_csv_write_field(f, CB_CSV_SCHEMA); break;
	case CB_COL_STR:
		s = on ? *(const char *const *)(const void *)at : NULL;
		cb_csv_write_field(f, s ? s : "");
		break;
	case CB_COL_BUF: cb_csv_write_field(f, at); break;
	case CB_COL_UINT: put_count(f, c, on, *(const unsigned *)at); break;
	case CB_COL_U64: put_count(f, c, on, *(const uint64_t *)at); break;
	case CB_COL_INT: fprintf(f, "%d", *(const int *)at); break;
	case CB_COL_NUM:
		v = *(const double *)(const void *)at;
		if (on && !isnan(v) && !isinf(v))
			fprintf(f, "%.*f", c->prec, v);
		break;
	case CB_COL_STATUS: fputs(cb_col_status_name(r->status), f); break;
	case CB_COL_ERROR:
		cb_csv_write_field(f, r->status == CB_RES_OK || !r->why ? ""
		                   : r->why);
		break;
	case CB_COL_SAMPLES:
	case CB_COL_PROCS: put_list(f, c, on, r); break;
	default: break;             /* JSON's kinds: never a CSV column */
	}
}

void cb_csv_row(FILE *f, const struct cb_prov *p, const struct cb_result *r)
{
	int first = 1;

	for (size_t i = 0; i < cb_ncols; i++)
		if (cb_cols[i].name) {
			if (!first)
				fputc(',', f);
			first = 0;
			put_field(f, &cb_cols[i], p, r);
		}
	fputs("\r\n", f);
}

int cb_write_csv(FILE *f, const struct cb_report *rep)
{
	cb_csv_header(f);
	for (size_t i = 0; i < rep->n; i++)
		cb_csv_row(f, rep->prov, &rep->res[i]);
	return cb_out_finish(f);
}
