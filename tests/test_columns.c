/*
 * test_columns.c - the column table (src/output/columns.c) is the one
 * place a result's columns are listed (issue 43): the CSV header is its
 * names in its order; the JSON's keys are its json keys, each once, in
 * its jpos order, and nothing else in a result; a row written and read
 * back (cb_col_read) writes the same bytes again, so the reader covers
 * every column the writer has; the schema versions read are 1 to the
 * newest `since` in the table, which is CB_CSV_SCHEMA's; a file from
 * before a column reads as the table says.  A column added to the table
 * (one line) shows up in all of these at once; one written elsewhere
 * fails here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "foundation/csv.h"
#include "output/columns.h"
#include "output/output.h"
#include "output/result.h"
#include "system/sysinfo.h"

#include "check.h"

static const double samples[] = { 1000.25, 1010.5, 990.125 };

static struct cb_result speed_row(void)
{
	struct cb_result r = {
		.tool = "speed", .backend = "openssl", .backend_version = "3.0",
		.backend_details = "", .driver = "xts-aes, \"quoted\"",
		.alg = "xts(aes)", .auth = "", .key_bits = 256, .block_bytes = 4096,
		.direction = "encrypt", .iv_mode = "per-request", .threads = 1,
		.status = CB_RES_OK, .ops_per_sec = 1000.5, .bytes_per_sec = 4e6,
		.ns_per_byte = 0.25, .cycles_per_byte = 0.75, .ghz = 3.0,
		.overhead_ns = 40, .slope_ns_per_byte = 0.2, .reps = 3,
		.rel_spread = 0.02, .samples = samples, .ci_low_ops = 990,
		.ci_high_ops = 1010, .mad_ops = 4, .ghz_drift = 0.001, .mb = 0,
		.shared = 0.01, .contended = 1, .nprocs = 2, .proc_n = { 2, 1 },
		.retaken = 1, .noisy = 1, .bytes_total = 12288, .seconds = 0.5,
		.timestamp = "2026-01-02T03:04:05Z", .ct_t = NAN,
	};
	return r;
}

static struct cb_result ct_row(void)
{
	struct cb_result r = {
		.tool = "ct", .backend = "native", .backend_version = "1",
		.backend_details = "", .driver = "xts-aes-native", .alg = "xts(aes)",
		.auth = "", .key_bits = 256, .direction = "-", .iv_mode = "",
		.threads = 1, .status = CB_RES_OK, .ops_per_sec = NAN,
		.ct_verdict = "constant-time", .ct_method = "memcheck+timing",
		.ct_t = 0.42, .ct_measurements = 40000, .ct_places = "",
		.ct_note = "note", .ct_cpu_level = "max",
		.timestamp = "2026-01-02T03:04:05Z",
	};
	return r;
}

static char *render(const char *format, const struct cb_report *rep)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	cb_writer_find(format)->write(f, rep);
	fclose(f);
	return out;
}

/* The header: the table's CSV names, in order, and only those. */
static void test_header(void)
{
	char *out = NULL, *want = calloc(1, 8192);
	size_t len = 0, n = 0;
	FILE *f = open_memstream(&out, &len);

	cb_csv_header(f);
	fclose(f);
	for (size_t i = 0; i < cb_ncols; i++)
		if (cb_cols[i].name) {
			strcat(want, n++ ? "," : "");
			strcat(want, cb_cols[i].name);
		}
	strcat(want, "\r\n");
	check(!strcmp(out, want), "csv header: the table's names in order");
	checkf(n == 61, "csv: %zu columns (cryptobench-csv-5 has 61)", n);
	free(out);
	free(want);
}

/* The key of a JSON line "      \"key\": ...", into k; 0 if none. */
static int json_key(const char *line, char *k, size_t len)
{
	const char *q = strchr(line, '"'), *e = q ? strchr(q + 1, '"') : NULL;

	if (!e || (size_t)(e - q) >= len || e[1] != ':')
		return 0;
	memcpy(k, q + 1, (size_t)(e - q - 1));
	k[e - q - 1] = 0;
	return 1;
}

/* In the JSON object at the indent in of out from at: its keys in order
 * are the table's json keys of that object (prov or not) by jpos, those
 * applying to r (a ct key only in a ct row). */
static void json_object(const char *json, const char *from, int prov,
                        const struct cb_result *r, const char *what)
{
	const char *p = strstr(json, from);
	int last = 0, n = 0, bad = 0;
	char k[64];

	for (p = p ? strchr(p + strlen(from), '\n') + 1 : NULL; p && *p;
	     p = strchr(p, '\n') + 1) {
		const struct cb_col *c = NULL;

		if (strncmp(p, prov ? "    \"" : "      \"", prov ? 5 : 7) ||
		    !json_key(p, k, sizeof k))
			break;
		if (prov && !strcmp(k, "backends"))
			break;
		for (size_t i = 0; i < cb_ncols && !c; i++)
			if (cb_cols[i].json && cb_cols[i].prov == prov &&
			    !strcmp(cb_cols[i].json, k))
				c = &cb_cols[i];
		checkf(c != NULL, "%s: key '%s' is the table's", what, k);
		if (c) {
			bad += c->jpos <= last;
			last = c->jpos;
		}
		n++;
	}
	check(!bad, "json: keys in the table's jpos order");
	for (size_t i = 0, want = 0; i <= cb_ncols; i++) {
		if (i == cb_ncols) {
			checkf(n == (int)want, "%s: %d keys, the table has %zu", what,
			       n, want);
			break;
		}
		if (cb_cols[i].json && cb_cols[i].prov == prov &&
		    (cb_cols[i].jwhen != CB_WHEN_CT ||
		     cb_col_applies(&cb_cols[i], CB_WHEN_CT, NULL, r)))
			want++;
	}
}

static void test_json(const struct cb_prov *p)
{
	struct cb_result res[2] = { speed_row(), ct_row() };
	struct cb_report one = { .prov = p, .res = res, .n = 1, .sec = 1 };
	struct cb_report ct = { .prov = p, .res = &res[1], .n = 1, .sec = 1 };
	char *a = render("json", &one), *b = render("json", &ct);

	json_object(a, "\"provenance\": {", 1, NULL, "json provenance");
	json_object(a, "\"results\": [\n    {", 0, &res[0], "json speed row");
	json_object(b, "\"results\": [\n    {", 0, &res[1], "json ct row");
	check(strstr(a, "\"contended_samples\": 1,") != NULL,
	      "json: a key of its own (contended_samples)");
	check(strstr(a, "\"samples_ops_per_sec\": [1000.25, 1010.50, 990.12]")
	      != NULL, "json: the samples as a list");
	free(a);
	free(b);
}

/* Write r, read it back with cb_col_read, write that: the same bytes. */
static void round_trip(const struct cb_prov *p, const struct cb_result *r,
                       const char *what)
{
	struct cb_report rep = { .prov = p, .res = r, .n = 1 };
	char *out = render("csv", &rep), *again;
	struct cb_csv c = { 0 };
	struct cb_result back = { 0 };

	checkf(cb_csv_parse(&c, "rt.csv", out, strlen(out)) == 0 &&
	       cb_col_check(&c) == 0, "%s: the reader's checks take it", what);
	cb_col_read(&c, &c.rows[0], &back);
	back.samples = r->samples;            /* the caller's (columns.h) */
	back.nprocs = r->nprocs;
	memcpy(back.proc_n, r->proc_n, sizeof back.proc_n);
	rep.res = &back;
	again = render("csv", &rep);
	checkf(!strcmp(out, again), "%s: read back, written again: the same",
	       what);
	cb_csv_free(&c);
	free(out);
	free(again);
}

static void test_schema(void)
{
	char s[64];
	int newest = cb_col_newest();

	checkf(!strcmp(CB_CSV_SCHEMA + strlen("cryptobench-csv-"),
	               (snprintf(s, sizeof s, "%d", newest), s)),
	       "the table's newest column is %s's", CB_CSV_SCHEMA);
	for (int v = 1; v <= newest; v++) {
		snprintf(s, sizeof s, "cryptobench-csv-%d", v);
		checkf(cb_col_schema(s) == v, "%s is read", s);
	}
	snprintf(s, sizeof s, "cryptobench-csv-%d", newest + 1);
	check(!cb_col_schema(s), "a newer schema is not");
	check(!cb_col_schema("cryptobench-csv-") &&
	      !cb_col_schema("cryptobench-csv-1x") &&
	      !cb_col_schema("cryptobench-csv-0") && !cb_col_schema(NULL),
	      "nor a malformed one");
}

/* The table's own rules: names unique, a version for each CSV column,
 * required only for the spec's (csv-1), each JSON place once. */
static void test_table(void)
{
	int dup = 0, since = 0, req = 0, jpos = 0;

	for (size_t i = 0; i < cb_ncols; i++) {
		const struct cb_col *c = &cb_cols[i];

		since += c->name && (c->since < 1 || c->since > cb_col_newest());
		req += (c->check & CB_CSV_REQUIRED) && c->since != 1;
		jpos += c->json && c->jpos <= 0;
		for (size_t k = 0; k < i; k++) {
			const struct cb_col *d = &cb_cols[k];

			dup += c->name && d->name && !strcmp(c->name, d->name);
			dup += c->json && d->json && d->prov == c->prov &&
			       (!strcmp(c->json, d->json) || c->jpos == d->jpos);
		}
	}
	check(!dup, "table: CSV names, JSON keys and places unique");
	check(!since, "table: every CSV column has its schema version");
	check(!req, "table: only cryptobench-csv-1's columns are required");
	check(!jpos, "table: every JSON key has its place");
}

/* A cryptobench-csv-1 row (no status, threads, iv_mode ...). */
static void test_old_file(void)
{
	static const char v1[] =
	    "schema,tool_version,host,cpu_model,kernel,backend,backend_version,"
	    "driver,alg,key_bits,block_bytes,direction,ops_per_sec,bytes_per_sec,"
	    "ns_per_byte,cycles_per_byte,ghz,reps,rel_spread,timestamp\n"
	    "cryptobench-csv-1,0.1,h,c,k,openssl,3,d,cbc(aes),128,16,encrypt,"
	    "10,160,6.25,20,3.2,3,0.01,2024-01-01T00:00:00Z\n";
	struct cb_csv c = { 0 };
	struct cb_result r = { 0 };

	check(cb_csv_parse(&c, "v1.csv", v1, strlen(v1)) == 0 &&
	      cb_col_check(&c) == 0, "csv-1: the checks take it");
	cb_col_read(&c, &c.rows[0], &r);
	check(r.status == CB_RES_OK && !strcmp(r.tool, "speed") &&
	      r.threads == 1 && !strcmp(r.iv_mode, "per-request") &&
	      r.block_bytes == 16 && r.bytes_per_sec == 160,
	      "csv-1: the columns it lacks read as the table's old values");
	check(!strcmp(cb_col_get(&c, &c.rows[0], "cpu_level"), "max"),
	      "csv-1: cpu_level reads 'max'");
	cb_csv_free(&c);
}

int main(void)
{
	struct cb_prov p = { .tool_version = "t", .host = "h, \"q\"",
	                     .kernel = "k", .cpu_model = "m", .cpu_vendor = "v",
	                     .cpu_family = 6, .cpu_model_no = -1,
	                     .cpu_stepping = 1, .cflags = "-O2", .clock = "c",
	                     .cpu_level = "max", .ghz = 3.0, .ghz_first = 2.9,
	                     .ghz_last = 3.1, .started = "s" };
	struct cb_result s = speed_row(), ct = ct_row(), fail = speed_row();

	fail.status = CB_RES_FAIL;
	fail.why = "wrong output, \"quoted\"";
	test_table();
	test_header();
	test_json(&p);
	round_trip(&p, &s, "a measured row");
	round_trip(&p, &ct, "a ct row");
	round_trip(&p, &fail, "a failed row");
	test_schema();
	test_old_file();
	return finish();
}
