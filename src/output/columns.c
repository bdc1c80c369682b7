/*
 * columns.c - the one table of a result's columns (columns.h) and what
 * the readers make of it: the checks of a result file, the schema
 * versions read, a value with its default for older files, a row read
 * back into a result.  The writers make the CSV (write_csv.c) and the
 * JSON (write_json.c) from the same table.  Order is the CSV's: the
 * spec's 20 first, then the extras (docs/csv.md); jpos orders the JSON
 * objects (a result's; the provenance's), JSON-only keys at the end.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "foundation/csv.h"
#include "output/columns.h"
#include "output/result.h"
#include "system/sysinfo.h"
#include "foundation/util.h"

/* What the readers check (csv.h): required, a number that may be empty,
 * not negative, a count, a count that may be empty, not empty. */
#define REQ  CB_CSV_REQUIRED
#define NUMS (CB_CSV_NUMBER | CB_CSV_EMPTY_OK)
#define NNEG CB_CSV_NONNEG
#define UNS  CB_CSV_UINT
#define CNT  (CB_CSV_UINT | CB_CSV_EMPTY_OK)
#define FULL CB_CSV_NONEMPTY

/* csv name, JSON key, type, unit, decimals, since, in (0 result, 1
 * provenance), its struct and field, when, JSON when, JSON place, checks,
 * value in older files */
#define COL(n, j, t, u, p, v, in, st, f, w, jw, jp, ck, old) \
	{ n, j, CB_COL_##t, u, p, v, in, offsetof(struct st, f), \
	  CB_WHEN_##w, CB_WHEN_##jw, jp, ck, old, 0 }
/* A result's field, the same name in the CSV and the JSON. */
#define R(n, t, u, p, v, w, jp, ck) \
	COL(#n, #n, t, u, p, v, 0, cb_result, n, w, w, jp, ck, NULL)
/* The provenance's. */
#define P(n, t, v, jp, ck) \
	COL(#n, #n, t, "", 0, v, 1, cb_prov, n, ALWAYS, ALWAYS, jp, ck, NULL)
const struct cb_col cb_cols[] = {
	{ "schema", NULL, CB_COL_SCHEMA, "", 0, 1, 0, 0, CB_WHEN_ALWAYS,
	  CB_WHEN_ALWAYS, 0, REQ | FULL, NULL, 1 },
	P(tool_version, STR, 1, 1, REQ), P(host, BUF, 1, 2, REQ),
	P(cpu_model, BUF, 1, 4, REQ), P(kernel, BUF, 1, 3, REQ),
	R(backend, STR, "", 0, 1, ALWAYS, 4, REQ | FULL),
	R(backend_version, STR, "", 0, 1, ALWAYS, 5, REQ),
	R(driver, STR, "", 0, 1, ALWAYS, 7, REQ),
	R(alg, STR, "", 0, 1, ALWAYS, 8, REQ | FULL),
	R(key_bits, UINT, "bits", 0, 1, ALWAYS, 10, REQ | UNS),
	R(block_bytes, U64, "bytes", 0, 1, ALWAYS, 11, REQ | UNS),
	R(direction, STR, "", 0, 1, ALWAYS, 13, REQ | FULL),
	R(ops_per_sec, NUM, "requests/s", 2, 1, OK, 17, REQ | NUMS | NNEG),
	R(bytes_per_sec, NUM, "bytes/s", 0, 1, OK, 18, REQ | NUMS | NNEG),
	R(ns_per_byte, NUM, "ns/byte", 6, 1, OK, 19, REQ | NUMS),
	R(cycles_per_byte, NUM, "cycles/byte", 4, 1, OK, 20, REQ | NUMS),
	R(ghz, NUM, "GHz", 4, 1, CLOCK, 21, REQ | NUMS),
	R(reps, UINT, "", 0, 1, OK, 24, REQ | CNT),
	R(rel_spread, NUM, "fraction", 5, 1, OK, 25, REQ | NUMS | NNEG),
	R(timestamp, BUF, "ISO 8601 UTC", 0, 1, ALWAYS, 99, REQ),
	COL("tool", "tool", STR, "", 0, 1, 0, cb_result, tool, ALWAYS, ALWAYS,
	    1, 0, "speed"),
	COL("status", "status", STATUS, "", 0, 1, 0, cb_result, status, ALWAYS,
	    ALWAYS, 2, 0, "ok"),
	COL("error", "error", ERROR, "", 0, 1, 0, cb_result, why, ALWAYS,
	    ALWAYS, 3, 0, NULL),
	COL("iv_mode", "iv_mode", STR, "", 0, 1, 0, cb_result, iv_mode, ALWAYS,
	    ALWAYS, 14, 0, "per-request"),
	COL("sector_bytes", "sector_bytes", U64, "bytes", 0, 1, 0, cb_result,
	    sector_bytes, ALWAYS, ALWAYS, 12, CNT, "0"),
	COL("threads", "threads", UINT, "", 0, 1, 0, cb_result, threads,
	    ALWAYS, ALWAYS, 15, CNT, "1"),
	R(auth, STR, "", 0, 1, ALWAYS, 9, 0),
	R(overhead_ns, NUM, "ns", 2, 1, OK, 22, NUMS),
	R(slope_ns_per_byte, NUM, "ns/byte", 6, 1, OK, 23, 0),
	R(seconds, NUM, "s", 6, 1, OK, 37, 0),
	R(bytes_total, U64, "bytes", 0, 1, OK, 38, 0),
	P(cpu_vendor, BUF, 1, 5, 0), P(cpu_family, INT, 1, 6, 0),
	P(cpu_model_no, INT, 1, 7, 0), P(cpu_stepping, INT, 1, 8, 0),
	P(cpu_flags, BUF, 1, 9, 0),
	R(backend_details, STR, "", 0, 1, ALWAYS, 6, 0),
	P(compiler, BUF, 1, 19, 0), P(cflags, STR, 1, 20, 0),
	P(governor, BUF, 1, 17, 0), P(boost, BUF, 1, 18, 0),
	P(clock, STR, 1, 15, 0),
	/* cryptobench-csv-2: the samples; "samples" counts them (reps) */
	{ "samples", "samples", CB_COL_UINT, "", 0, 2, 0,
	  offsetof(struct cb_result, reps), CB_WHEN_SAMPLED, CB_WHEN_SAMPLED,
	  26, CNT, NULL, 1 },
	R(ci_low_ops, NUM, "requests/s", 2, 2, SAMPLED, 27, NUMS | NNEG),
	R(ci_high_ops, NUM, "requests/s", 2, 2, SAMPLED, 28, NUMS | NNEG),
	R(mad_ops, NUM, "requests/s", 2, 2, SAMPLED, 29, NUMS | NNEG),
	R(ghz_drift, NUM, "fraction", 5, 2, SAMPLED, 30, NUMS),
	COL("cpu_level", NULL, STR, "", 0, 2, 1, cb_prov, cpu_level, ALWAYS,
	    ALWAYS, 0, 0, "max"),
	{ "sample_ops", "samples_ops_per_sec", CB_COL_SAMPLES, "requests/s", 2,
	  2, 0, offsetof(struct cb_result, samples), CB_WHEN_SAMPLED,
	  CB_WHEN_OK, 39, 0, NULL, 1 },
	R(mb, UINT, "", 0, 3, ALWAYS, 16, CNT),                     /* csv-3 */
	R(shared, NUM, "fraction", 4, 4, SAMPLED, 33, NUMS | NNEG),  /* csv-4 */
	COL("contended", "contended_samples", UINT, "", 0, 4, 0, cb_result,
	    contended, SAMPLED, SAMPLED, 34, CNT, NULL),
	{ "sample_procs", "sample_procs", CB_COL_PROCS, "", 0, 4, 0,
	  offsetof(struct cb_result, proc_n), CB_WHEN_SAMPLED, CB_WHEN_SAMPLED,
	  35, 0, NULL, 1 },
	/* cryptobench-csv-5: the ct rows (JSON: their keys only there) */
	COL("ct_verdict", "ct_verdict", STR, "", 0, 5, 0, cb_result, ct_verdict,
	    ALWAYS, CT, 40, 0, NULL),
	COL("ct_method", "ct_method", STR, "", 0, 5, 0, cb_result, ct_method,
	    ALWAYS, CT, 41, 0, NULL),
	R(ct_t, NUM, "", 2, 5, CT, 42, NUMS),
	R(ct_measurements, U64, "", 0, 5, CT, 43, CNT),
	R(ct_branches, UINT, "", 0, 5, CT, 44, CNT),
	R(ct_indexes, UINT, "", 0, 5, CT, 45, CNT),
	COL("ct_places", "ct_places", STR, "", 0, 5, 0, cb_result, ct_places,
	    ALWAYS, CT, 46, 0, NULL),
	COL("ct_note", "ct_note", STR, "", 0, 5, 0, cb_result, ct_note, ALWAYS,
	    CT, 47, 0, NULL),
	/* JSON only: a result's ... */
	COL(NULL, "resampled", ZERO, "", 0, 0, 0, cb_result, reps, ALWAYS,
	    ALWAYS, 31, 0, NULL),
	COL(NULL, "samples_retaken", UINT, "", 0, 0, 0, cb_result, retaken,
	    SAMPLED, SAMPLED, 32, 0, NULL),
	COL(NULL, "noisy", BOOL, "", 0, 0, 0, cb_result, noisy, SAMPLED,
	    SAMPLED, 36, 0, NULL),
	COL(NULL, "ct_cpu_level", STR, "", 0, 0, 0, cb_result, ct_cpu_level,
	    CT, CT, 48, 0, NULL),
	/* ... and the provenance's */
	COL(NULL, "cpu_mhz_reported", NUM, "MHz", 3, 0, 1, cb_prov, cpu_mhz,
	    ALWAYS, ALWAYS, 10, 0, NULL),
	COL(NULL, "ghz", NUM, "GHz", 4, 0, 1, cb_prov, ghz, CLOCK, CLOCK, 11, 0,
	    NULL),
	COL(NULL, "ghz_first", NUM, "GHz", 4, 0, 1, cb_prov, ghz_first, CLOCK,
	    CLOCK, 12, 0, NULL),
	COL(NULL, "ghz_last", NUM, "GHz", 4, 0, 1, cb_prov, ghz_last, CLOCK,
	    CLOCK, 13, 0, NULL),
	COL(NULL, "cycles_source", CYCLES, "", 0, 0, 1, cb_prov, ghz, CLOCK,
	    CLOCK, 14, 0, NULL),
	COL(NULL, "clocksource", BUF, "", 0, 0, 1, cb_prov, clocksource, ALWAYS,
	    ALWAYS, 16, 0, NULL),
	COL(NULL, "started", BUF, "", 0, 0, 1, cb_prov, started, ALWAYS,
	    ALWAYS, 21, 0, NULL),
};
#undef R
#undef P
#undef COL
const size_t cb_ncols = sizeof cb_cols / sizeof cb_cols[0];

const struct cb_col *cb_col_find(const char *name)
{
	for (size_t i = 0; i < cb_ncols; i++)
		if (cb_cols[i].name && !strcmp(cb_cols[i].name, name))
			return &cb_cols[i];
	return NULL;
}

int cb_col_applies(const struct cb_col *c, enum cb_col_when w,
                   const struct cb_prov *p, const struct cb_result *r)
{
	int ok = r && r->status == CB_RES_OK;

	switch (w) {
	case CB_WHEN_OK: return ok;
	case CB_WHEN_SAMPLED: return ok && r->ci_high_ops > 0;
	case CB_WHEN_CT: return r && r->ct_verdict && *r->ct_verdict;
	case CB_WHEN_CLOCK: return c->prov ? p->ghz > 0 : r->ghz > 0;
	default: return 1;
	}
}

const char *cb_col_status_name(enum cb_status s)
{
	return s == CB_RES_OK ? "ok" : s == CB_RES_SKIP ? "skipped" : "failed";
}

/* ---- reading ------------------------------------------------------------ */

int cb_col_newest(void)
{
	int newest = 0;

	for (size_t i = 0; i < cb_ncols; i++)
		if (cb_cols[i].since > newest)
			newest = cb_cols[i].since;
	return newest;
}

int cb_col_schema(const char *schema)
{
	static const char pre[] = "cryptobench-csv-";
	char *end;
	long v;

	if (!schema || strncmp(schema, pre, sizeof pre - 1))
		return 0;
	schema += sizeof pre - 1;
	if (*schema < '1' || *schema > '9')
		return 0;
	v = strtol(schema, &end, 10);
	return *end || v > cb_col_newest() ? 0 : (int)v;
}

int cb_col_check(struct cb_csv *c)
{
	static struct cb_csv_col chk[sizeof cb_cols / sizeof cb_cols[0] + 1];
	static size_t n;

	if (!n)
		for (size_t i = 0; i < cb_ncols; i++)
			if (cb_cols[i].name && cb_cols[i].check)
				chk[n++] = (struct cb_csv_col){ cb_cols[i].name,
				                                cb_cols[i].check };
	return cb_csv_check(c, chk);
}

const char *cb_col_get(const struct cb_csv *c, const struct cb_csv_rec *row,
                       const char *name)
{
	const struct cb_col *col = cb_col_find(name);
	const char *v = cb_csv_get(c, row, name);

	return v && *v ? v : col && col->old ? col->old : "";
}

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
		if (cb_cols[i].name && !cb_cols[i].prov && !cb_cols[i].noread) {
			const char *v = cb_csv_get(c, row, cb_cols[i].name);

			get_field(&cb_cols[i], v ? v : cb_cols[i].old, r);
		}
}
