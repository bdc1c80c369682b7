/*
 * write_json.c - the json writer (output.h): the provenance, the method
 * and the results, their keys, values and order made from the column
 * table (columns.c: json, jwhen, jpos), as the CSV's are.  What is no
 * column stays here: the backends list and the method's words.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "foundation/acct.h"
#include "foundation/util.h"
#include "output/columns.h"
#include "output/output.h"
#include "output/result.h"
#include "output/writer.h"
#include "system/sysinfo.h"

/* The first n bytes of s (no NUL among them) as a JSON string. */
static void json_strn(FILE *f, const char *s, size_t n)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s;
	     p < (const unsigned char *)s + n; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void json_str(FILE *f, const char *s)
{
	if (!s)
		fputs("null", f);
	else
		json_strn(f, s, strlen(s));
}

/* v with prec decimals; NaN and infinities are null. */
static void json_num(FILE *f, int prec, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.*f", prec, v);
}

static void json_kv_str(FILE *f, const char *ind, const char *k,
                        const char *v, int comma)
{
	fprintf(f, "%s\"%s\": ", ind, k);
	json_str(f, v);
	fputs(comma ? ",\n" : "\n", f);
}

static void json_kv_num(FILE *f, const char *ind, const char *k,
                        int prec, double v, int comma)
{
	fprintf(f, "%s\"%s\": ", ind, k);
	json_num(f, prec, v);
	fputs(comma ? ",\n" : "\n", f);
}

/* A list column's [..]. */
static void json_list(FILE *f, const struct cb_col *c, int on,
                      const struct cb_result *r)
{
	fputc('[', f);
	if (c->type == CB_COL_SAMPLES)
		for (unsigned k = 0; on && r->samples && k < r->reps; k++) {
			fputs(k ? ", " : "", f);
			json_num(f, 2, r->samples[k]);
		}
	else
		for (unsigned k = 0; on && k < r->nprocs; k++)
			fprintf(f, "%s%u", k ? ", " : "", r->proc_n[k]);
	fputc(']', f);
}

/* Column c's value (r NULL: a provenance column). */
static void json_value(FILE *f, const struct cb_col *c,
                       const struct cb_prov *p, const struct cb_result *r)
{
	const char *at = (c->prov ? (const char *)p : (const char *)r) + c->off;
	int on = cb_col_applies(c, c->jwhen, p, r);

	switch (c->type) {
	case CB_COL_STR:
		json_str(f, on ? *(const char *const *)(const void *)at : NULL);
		break;
	case CB_COL_BUF: json_str(f, at); break;
	case CB_COL_UINT: json_num(f, 0, on ? *(const unsigned *)at : 0); break;
	case CB_COL_U64:
		json_num(f, 0, on ? (double)*(const uint64_t *)at : 0);
		break;
	case CB_COL_INT: json_num(f, 0, *(const int *)at); break;
	case CB_COL_NUM:
		json_num(f, c->prec, on ? *(const double *)(const void *)at : NAN);
		break;
	case CB_COL_BOOL:
		fputs(on && *(const int *)at ? "true" : "false", f);
		break;
	case CB_COL_STATUS: json_str(f, cb_col_status_name(r->status)); break;
	case CB_COL_ERROR:
		json_str(f, r->status == CB_RES_OK ? NULL : r->why);
		break;
	case CB_COL_SAMPLES:
	case CB_COL_PROCS: json_list(f, c, on, r); break;
	case CB_COL_CYCLES:
		json_str(f, on ? "dependent-add loop (1 add per cycle), mean of "
		         "the measurements before and after the run" : "none");
		break;
	default: fputc('0', f); break;     /* CB_COL_ZERO */
	}
}

/* The table's JSON keys of one object (prov: the provenance's, else a
 * result's) in their order, into idx; returns how many. */
static size_t json_order(size_t *idx, int prov)
{
	size_t n = 0;

	for (size_t i = 0; i < cb_ncols; i++) {
		size_t k = n++;

		if (!cb_cols[i].json || cb_cols[i].prov != prov) {
			n--;
			continue;
		}
		while (k > 0 && cb_cols[idx[k - 1]].jpos > cb_cols[i].jpos) {
			idx[k] = idx[k - 1];
			k--;
		}
		idx[k] = i;
	}
	return n;
}

/* The keys of idx[0..n), each "IND\"key\": value" and sep after it but
 * the last (last: after that one); a CT key only in a ct row. */
static void json_keys(FILE *f, const char *in, const size_t *idx, size_t n,
                      const struct cb_prov *p, const struct cb_result *r,
                      const char *last)
{
	for (size_t i = 0; i < n; i++) {
		const struct cb_col *c = &cb_cols[idx[i]];

		if (c->jwhen == CB_WHEN_CT && !cb_col_applies(c, c->jwhen, p, r))
			continue;
		fprintf(f, "%s\"%s\": ", in, c->json);
		json_value(f, c, p, r);
		fputs(i + 1 < n ? ",\n" : last, f);
	}
}

static void json_backends(FILE *f)
{
	int first = 1;

	fputs("    \"backends\": [", f);
	for (int i = 0; cb_backends[i]; i++) {
		const struct cb_backend *b = cb_backends[i];
		const char *why;
		int ok = cb_backend_status(b, &why) == 0;

		fputs(first ? "\n" : ",\n", f);
		first = 0;
		fputs("      {\"name\": ", f);
		json_str(f, b->name);
		fputs(", \"status\": ", f);
		json_str(f, ok ? "available" : "unavailable");
		fputs(", \"version\": ", f);
		json_str(f, ok && b->version ? b->version() : NULL);
		fputs(", \"details\": ", f);
		json_str(f, ok ? (b->details ? b->details() : NULL) : why);
		if (ok && b->file) {
			fputs(", \"plugin\": ", f);
			json_str(f, b->file);
			fprintf(f, ", \"plugin_abi\": %u, \"plugin_sha256\": ",
			        b->abi);
			json_str(f, cb_prov_plugin_sha256(b));
		}
		fputs("}", f);
	}
	fputs("\n    ]\n", f);
}

static void json_method(FILE *f, const struct cb_report *rep)
{
	fputs("  \"method\": {\n", f);
	json_kv_num(f, "    ", "sec_per_point", 3, rep->sec, 1);
	json_kv_num(f, "    ", "warmup_sec", 3, rep->warmup, 1);
	json_kv_num(f, "    ", "sample_sec", 4, rep->sample_sec > 0
	            ? rep->sample_sec : NAN, 1);
	json_kv_str(f, "    ", "statistic", "median of the samples, taken "
	            "round robin over the points; a sample counts only the 50 us "
	            "segments the contention canary found the core unshared in "
	            "(shared, contended_samples); samples of several processes "
	            "pooled (sample_procs); ci_low/high_ops: 95 % CI of "
	            "the median from order statistics; noisy: CI half-width / "
	            "median > 2 %; rel_spread = (max - min) / median", 1);
	json_kv_str(f, "    ", "overhead", "intercept and slope of a "
	            "least-squares fit of ns per call against request size "
	            "over the sizes of each series", 0);
	fputs("  },\n", f);
}

int cb_write_json(FILE *f, const struct cb_report *rep)
{
	size_t *idx = cb_xcalloc(cb_ncols, sizeof *idx), n;

	fputs("{\n", f);
	fprintf(f, "  \"schema\": \"%s\",\n  \"csv_schema\": \"%s\",\n",
	        CB_JSON_SCHEMA, CB_CSV_SCHEMA);
	fputs("  \"command\": ", f);
	json_str(f, rep->command);
	fputs(",\n  \"provenance\": {\n", f);
	n = json_order(idx, 1);
	json_keys(f, "    ", idx, n, rep->prov, NULL, ",\n");
	json_backends(f);
	fputs("  },\n", f);
	json_method(f, rep);
	if (rep->split_wall_ns) {
		fputs("  \"time_split\": {\n", f);
		cb_acct_json(f, "    ", rep->split_wall_ns);
		fputs("  },\n", f);
	}
	fputs("  \"results\": [\n", f);
	n = json_order(idx, 0);
	for (size_t i = 0; i < rep->n; i++) {
		fputs("    {\n", f);
		json_keys(f, "      ", idx, n, rep->prov, &rep->res[i], "\n");
		fputs(i + 1 < rep->n ? "    },\n" : "    }\n", f);
	}
	fputs("  ]\n}\n", f);
	free(idx);
	return cb_out_finish(f);
}

/* ---- sysinfo --format json ----------------------------------------------- */

/*
 * One per-path line of a backend's limits ("aesni: AES alone 0.312 c/B
 * AES-128, 0.437 c/B AES-256 (2.00 AES block-rounds/cycle, measured);
 * AES+GHASH 0.501 c/B AES-128, 0.520 c/B AES-256 (measured)", or
 * "vaes512: not measured: why") as an object; 0 when the line is not one.
 */
static int json_limit_path(FILE *f, const char *line, int first)
{
	char name[24];
	double a128, a256, rate, g128 = NAN, g256 = NAN;
	const char *g;
	int k = 0;

	if (sscanf(line, "%23[a-z0-9-]: %n", name, &k) != 1 || !k)
		return 0;
	fputs(first ? "\n" : ",\n", f);
	fputs("        {\"path\": ", f);
	json_str(f, name);
	if (sscanf(line + k, "AES alone %lf c/B AES-128, %lf c/B AES-256 (%lf",
	           &a128, &a256, &rate) != 3) {
		fputs(", \"measured\": false, \"why\": ", f);
		json_str(f, line + k);
		fputs("}", f);
		return 1;
	}
	if ((g = strstr(line, "AES+GHASH ")) && sscanf(g, "AES+GHASH %lf c/B "
	    "AES-128, %lf c/B AES-256", &g128, &g256) != 2)
		g128 = g256 = NAN;
	fputs(", \"measured\": true, \"aes_cpb_128\": ", f);
	json_num(f, 3, a128);
	fputs(", \"aes_cpb_256\": ", f);
	json_num(f, 3, a256);
	fputs(", \"aes_rate\": ", f);
	json_num(f, 2, rate);
	fputs(", \"gcm_cpb_128\": ", f);
	json_num(f, 3, g128);
	fputs(", \"gcm_cpb_256\": ", f);
	json_num(f, 3, g256);
	fputs("}", f);
	return 1;
}

/* A backend's limits: its lines as printed, and the per-path ones parsed. */
static void json_limits(FILE *f, const struct cb_backend *b, const char *det,
                        int first)
{
	const char *e;
	int n = 0;

	fprintf(f, "%s    {\"backend\": ", first ? "" : ",\n");
	json_str(f, b->name);
	fputs(",\n      \"lines\": [", f);
	for (const char *l = det; *l; l = *e ? e + 1 : e) {
		e = l + strcspn(l, "\n");
		fprintf(f, "%s\n        ", l == det ? "" : ",");
		json_strn(f, l, (size_t)(e - l));
	}
	fputs("\n      ],\n      \"paths\": [", f);
	for (const char *l = strchr(det, '\n'); l; l = strchr(l + 1, '\n')) {
		char one[400];
		size_t len = strcspn(l + 1, "\n");

		snprintf(one, sizeof one, "%.*s", (int)len, l + 1);
		n += json_limit_path(f, one + strspn(one, " "), n == 0);
	}
	fputs(n ? "\n      ]}" : "]}", f);
}

/* The provenance block, as the results' JSON gives it (the table's keys). */
static void json_sysinfo_prov(FILE *f, const struct cb_prov *p)
{
	size_t *idx = cb_xcalloc(cb_ncols, sizeof *idx);
	size_t n = json_order(idx, 1);

	fputs("  \"provenance\": {\n", f);
	json_keys(f, "    ", idx, n, p, NULL, ",\n");
	json_backends(f);
	fputs("  },\n", f);
	free(idx);
}

int cb_sysinfo_json(FILE *f, const struct cb_prov *p)
{
	int first = 1;

	fprintf(f, "{\n  \"schema\": \"%s\",\n", CB_SYSINFO_SCHEMA);
	json_kv_str(f, "  ", "cpu_level", p->cpu_level, 1);
	json_sysinfo_prov(f, p);
	fputs("  \"limits\": [\n", f);
	for (int i = 0; cb_backends[i]; i++) {
		const struct cb_backend *b = cb_backends[i];
		const char *why, *det;

		if (cb_backend_status(b, &why) < 0 || !b->limits ||
		    !(det = b->limits()))
			continue;
		json_limits(f, b, det, first);
		first = 0;
	}
	fputs(first ? "  ]\n}\n" : "\n  ]\n}\n", f);
	return cb_out_finish(f);
}
