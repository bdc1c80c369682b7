/*
 * columns.c - the one table of the result CSV's columns (columns.h) and
 * what is made from it: the header, a row, and a row read back.  Order is
 * the file's: the spec's 20 first, then the extras (docs/csv.md).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "foundation/csv.h"
#include "output/columns.h"
#include "output/output.h"
#include "output/result.h"
#include "system/sysinfo.h"
#include "foundation/util.h"

#define R(n, t, u, p, v, w) { #n, CB_COL_##t, u, p, v, 0, \
	offsetof(struct cb_result, n), CB_WHEN_##w, 0 }
#define P(n, t, v) { #n, CB_COL_##t, "", 0, v, 1, \
	offsetof(struct cb_prov, n), CB_WHEN_ALWAYS, 0 }
const struct cb_col cb_cols[] = {
	{ "schema", CB_COL_SCHEMA, "", 0, 1, 0, 0, CB_WHEN_ALWAYS, 1 },
	P(tool_version, STR, 1), P(host, BUF, 1), P(cpu_model, BUF, 1),
	P(kernel, BUF, 1),
	R(backend, STR, "", 0, 1, ALWAYS),
	R(backend_version, STR, "", 0, 1, ALWAYS),
	R(driver, STR, "", 0, 1, ALWAYS),
	R(alg, STR, "", 0, 1, ALWAYS),
	R(key_bits, UINT, "bits", 0, 1, ALWAYS),
	R(block_bytes, U64, "bytes", 0, 1, ALWAYS),
	R(direction, STR, "", 0, 1, ALWAYS),
	R(ops_per_sec, NUM, "requests/s", 2, 1, OK),
	R(bytes_per_sec, NUM, "bytes/s", 0, 1, OK),
	R(ns_per_byte, NUM, "ns/byte", 6, 1, OK),
	R(cycles_per_byte, NUM, "cycles/byte", 4, 1, OK),
	R(ghz, NUM, "GHz", 4, 1, CLOCK),
	R(reps, UINT, "", 0, 1, OK),
	R(rel_spread, NUM, "fraction", 5, 1, OK),
	R(timestamp, BUF, "ISO 8601 UTC", 0, 1, ALWAYS),
	R(tool, STR, "", 0, 1, ALWAYS),
	{ "status", CB_COL_STATUS, "", 0, 1, 0, offsetof(struct cb_result,
	  status), CB_WHEN_ALWAYS, 0 },
	{ "error", CB_COL_ERROR, "", 0, 1, 0, offsetof(struct cb_result, why),
	  CB_WHEN_ALWAYS, 0 },
	R(iv_mode, STR, "", 0, 1, ALWAYS),
	R(sector_bytes, U64, "bytes", 0, 1, ALWAYS),
	R(threads, UINT, "", 0, 1, ALWAYS),
	R(auth, STR, "", 0, 1, ALWAYS),
	R(overhead_ns, NUM, "ns", 2, 1, OK),
	R(slope_ns_per_byte, NUM, "ns/byte", 6, 1, OK),
	R(seconds, NUM, "s", 6, 1, OK),
	R(bytes_total, U64, "bytes", 0, 1, OK),
	P(cpu_vendor, BUF, 1), P(cpu_family, INT, 1), P(cpu_model_no, INT, 1),
	P(cpu_stepping, INT, 1), P(cpu_flags, BUF, 1),
	R(backend_details, STR, "", 0, 1, ALWAYS),
	P(compiler, BUF, 1), P(cflags, STR, 1), P(governor, BUF, 1),
	P(boost, BUF, 1), P(clock, STR, 1),
	/* cryptobench-csv-2: the samples; "samples" counts them (reps) */
	{ "samples", CB_COL_UINT, "", 0, 2, 0, offsetof(struct cb_result, reps),
	  CB_WHEN_SAMPLED, 1 },
	R(ci_low_ops, NUM, "requests/s", 2, 2, SAMPLED),
	R(ci_high_ops, NUM, "requests/s", 2, 2, SAMPLED),
	R(mad_ops, NUM, "requests/s", 2, 2, SAMPLED),
	R(ghz_drift, NUM, "fraction", 5, 2, SAMPLED),
	P(cpu_level, STR, 2),
	{ "sample_ops", CB_COL_SAMPLES, "requests/s", 2, 2, 0,
	  offsetof(struct cb_result, samples), CB_WHEN_SAMPLED, 1 },
	R(mb, UINT, "", 0, 3, ALWAYS),                    /* csv-3 */
	R(shared, NUM, "fraction", 4, 4, SAMPLED),        /* csv-4 */
	R(contended, UINT, "", 0, 4, SAMPLED),
	{ "sample_procs", CB_COL_PROCS, "", 0, 4, 0,
	  offsetof(struct cb_result, proc_n), CB_WHEN_SAMPLED, 1 },
	R(ct_verdict, STR, "", 0, 5, ALWAYS),             /* csv-5: ct rows */
	R(ct_method, STR, "", 0, 5, ALWAYS),
	R(ct_t, NUM, "", 2, 5, CT),
	R(ct_measurements, U64, "", 0, 5, CT),
	R(ct_branches, UINT, "", 0, 5, CT),
	R(ct_indexes, UINT, "", 0, 5, CT),
	R(ct_places, STR, "", 0, 5, ALWAYS),
	R(ct_note, STR, "", 0, 5, ALWAYS),
};
#undef R
#undef P
const size_t cb_ncols = sizeof cb_cols / sizeof cb_cols[0];

void cb_csv_header(FILE *f)
{
	for (size_t i = 0; i < cb_ncols; i++)
		fprintf(f, "%s%s", i ? "," : "", cb_cols[i].name);
	fputs("\r\n", f);
}

static int applies(const struct cb_col *c, const struct cb_result *r)
{
	int ok = r->status == CB_RES_OK;

	switch (c->when) {
	case CB_WHEN_OK: return ok;
	case CB_WHEN_SAMPLED: return ok && r->ci_high_ops > 0;
	case CB_WHEN_CT: return r->ct_verdict && *r->ct_verdict;
	case CB_WHEN_CLOCK: return r->ghz > 0;
	default: return 1;
	}
}

static const char *status_name(enum cb_status s)
{
	return s == CB_RES_OK ? "ok" : s == CB_RES_SKIP ? "skipped" : "failed";
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

static void put_field(FILE *f, const struct cb_col *c, const void *base,
                      const struct cb_result *r)
{
	const char *at = (const char *)base + c->off;
	int on = applies(c, r);

	switch (c->type) {
	case CB_COL_SCHEMA: cb_csv_write_field(f, CB_CSV_SCHEMA); break;
	case CB_COL_STR: {
		const char *s = on ? *(const char *const *)at : NULL;

		cb_csv_write_field(f, s ? s : "");
		break;
	}
	case CB_COL_BUF: cb_csv_write_field(f, at); break;
	case CB_COL_UINT: put_count(f, c, on, *(const unsigned *)at); break;
	case CB_COL_U64: put_count(f, c, on, *(const uint64_t *)at); break;
	case CB_COL_INT: fprintf(f, "%d", *(const int *)at); break;
	case CB_COL_NUM: {
		double v = *(const double *)at;

		if (on && !isnan(v) && !isinf(v))
			fprintf(f, "%.*f", c->prec, v);
		break;
	}
	case CB_COL_STATUS: fputs(status_name(r->status), f); break;
	case CB_COL_ERROR:
		cb_csv_write_field(f, r->status == CB_RES_OK || !r->why ? ""
		                   : r->why);
		break;
	case CB_COL_SAMPLES:
		for (unsigned k = 0; on && r->samples && k < r->reps; k++)
			fprintf(f, k ? " %.2f" : "%.2f", r->samples[k]);
		break;
	case CB_COL_PROCS:
		for (unsigned k = 0; on && k < r->nprocs; k++)
			fprintf(f, k ? " %u" : "%u", r->proc_n[k]);
		break;
	}
}

void cb_csv_row(FILE *f, const struct cb_prov *p, const struct cb_result *r)
{
	for (size_t i = 0; i < cb_ncols; i++) {
		if (i)
			fputc(',', f);
		put_field(f, &cb_cols[i], cb_cols[i].prov ? (const void *)p
		                                           : (const void *)r, r);
	}
	fputs("\r\n", f);
}

/* ---- reading ------------------------------------------------------------ */

static double num_of(const char *v)
{
	double d;

	return v && *v && cb_csv_number(v, &d) == 0 ? d : NAN;
}

static void get_field(const struct cb_col *c, const char *v,
                      struct cb_result *r)
{
	char *at = (char *)r + c->off;
	double d = num_of(v);

	switch (c->type) {
	case CB_COL_STR: *(const char **)at = v ? v : ""; break;
	case CB_COL_BUF: snprintf(at, sizeof r->timestamp, "%s", v ? v : "");
		break;
	case CB_COL_UINT: *(unsigned *)at = isnan(d) ? 0 : (unsigned)d; break;
	case CB_COL_U64: *(uint64_t *)at = isnan(d) ? 0 : (uint64_t)d; break;
	case CB_COL_NUM: *(double *)at = d; break;
	case CB_COL_STATUS:
		r->status = v && !strcmp(v, "ok") ? CB_RES_OK : v &&
		            !strcmp(v, "skipped") ? CB_RES_SKIP : CB_RES_FAIL;
		break;
	case CB_COL_ERROR: r->why = v ? v : ""; break;
	default: break;
	}
}

void cb_col_read(const struct cb_csv *c, const struct cb_csv_rec *row,
                 struct cb_result *r)
{
	for (size_t i = 0; i < cb_ncols; i++)
		if (!cb_cols[i].prov && !cb_cols[i].noread)
			get_field(&cb_cols[i], cb_csv_get(c, row, cb_cols[i].name),
			          r);
}
