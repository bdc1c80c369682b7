/*
 * output.c - the result writers (output.h): tcrypt, table, csv, json.
 * Each takes the whole report so that a format can size its columns (the
 * tcrypt byte field, the table's columns) from what it will print.
 * Writers only format the numbers they are given.  The tcrypt format is
 * pinned to the ESSIV report in docs/speed.md, the CSV schema in
 * docs/csv.md.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "foundation/csv.h"
#include "output/output.h"
#include "foundation/acct.h"
#include "output/result.h"
#include "system/sysinfo.h"
#include "foundation/util.h"

#include "core/cb.h"

/* ---- helpers ------------------------------------------------------------ */

static int streq(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* Same tcrypt section: same implementation, direction and request model. */
static int same_section(const struct cb_result *a, const struct cb_result *b)
{
	return streq(a->backend, b->backend) && streq(a->driver, b->driver) &&
	       streq(a->alg, b->alg) && streq(a->direction, b->direction) &&
	       streq(a->iv_mode, b->iv_mode) && a->sector_bytes == b->sector_bytes &&
	       a->mb == b->mb;
}

static unsigned long long ops_of(const struct cb_result *r)
{
	return (unsigned long long)llround(r->ops_per_sec);
}

static unsigned ndigits(unsigned long long v)
{
	unsigned n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

const char *cb_tcrypt_pad(unsigned long long bytes, unsigned long long widest)
{
	return ndigits(bytes) < ndigits(widest) ? " " : "";
}

/* One direction: a digest, or a KDF's derivation. */
static int is_digest(const struct cb_result *r)
{
	return streq(r->direction, "digest") || streq(r->direction, "derive");
}

static int finish(FILE *f)
{
	fflush(f);
	return ferror(f) ? -EIO : 0;
}

/* ---- tcrypt --------------------------------------------------------------- */

static void tcrypt_row(FILE *f, const struct cb_report *rep,
                       const struct cb_result *r, unsigned idx,
                       unsigned long long widest)
{
	unsigned long long ops = ops_of(r), n = r->block_bytes;
	double cyc_op = r->ghz > 0 && r->ops_per_sec > 0
	                ? r->ghz * 1e9 / r->ops_per_sec : NAN;

	if (is_digest(r))
		fprintf(f, "tcrypt: test%3u (%5llu byte blocks,%5llu bytes per "
		        "update,%4u updates): ", idx, n, n, 1u);
	else
		fprintf(f, "tcrypt: test %u (%u bit key, %llu byte blocks): ", idx,
		        r->key_bits, n);
	if (r->status != CB_RES_OK) {
		fprintf(f, "%s: %s\n", r->status == CB_RES_SKIP ? "skipped"
		                                                 : "failed",
		        r->why ? r->why : "");
		return;
	}
	if (rep->cycles && isnan(cyc_op)) {
		fprintf(f, "no cycle count: the core clock is unknown here\n");
	} else if (rep->cycles && is_digest(r)) {
		fprintf(f, "%6llu cycles/operation, %4llu cycles/byte\n",
		        (unsigned long long)llround(cyc_op),
		        (unsigned long long)llround(cyc_op) / (n ? n : 1));
	} else if (rep->cycles) {
		fprintf(f, "1 operation in %llu cycles (%llu bytes)\n",
		        (unsigned long long)llround(cyc_op), n);
	} else if (r->mb) {
		/* test_mb_acipher_jiffies: the requests of all submissions in
		 * the time box; ours is the rate, the requests in one second */
		fprintf(f, "%llu operations in 1 seconds (%llu bytes)\n", ops,
		        ops * n);
	} else if (is_digest(r)) {
		fprintf(f, "%6llu opers/sec, %9llu bytes/sec\n", ops, ops * n);
	} else {
		fprintf(f, "%llu ops/s (%s%llu bytes)\n", ops,
		        cb_tcrypt_pad(ops * n, widest), ops * n);
	}
}

static int write_tcrypt(FILE *f, const struct cb_report *rep)
{
	size_t i = 0;

	while (i < rep->n) {
		const struct cb_result *s = &rep->res[i];
		unsigned long long widest = 0;
		size_t end = i;

		while (end < rep->n && same_section(s, &rep->res[end])) {
			const struct cb_result *r = &rep->res[end];

			if (r->status == CB_RES_OK &&
			    ops_of(r) * r->block_bytes > widest)
				widest = ops_of(r) * r->block_bytes;
			end++;
		}
		if (s->mb)              /* tcrypt's test_mb_skcipher_speed */
			fprintf(f, "testing speed of multibuffer %s (%s) %s\n",
			        s->alg_label ? s->alg_label : s->alg, s->driver,
			        streq(s->direction, "decrypt") ? "decryption"
			                                       : "encryption");
		else if (is_digest(s))
			fprintf(f, "testing speed of async %s (%s)\n",
			        s->alg_label ? s->alg_label : s->alg, s->driver);
		else
			fprintf(f, "testing speed of async %s (%s) %s\n",
			        s->alg_label ? s->alg_label : s->alg, s->driver,
			        streq(s->direction, "decrypt") ? "decryption"
			                                       : "encryption");
		for (size_t k = i; k < end; k++)
			tcrypt_row(f, rep, &rep->res[k], (unsigned)(k - i), widest);
		i = end;
	}
	return finish(f);
}

/* ---- table ---------------------------------------------------------------- */

#define MAX_COLS 64

static const char *dir_short(const char *d)
{
	return streq(d, "encrypt") ? "enc" : streq(d, "decrypt") ? "dec"
	       : streq(d, "digest") ? "dgst" : d ? d : "";
}

/* A table row: results sharing everything but the request size. */
static int same_row(const struct cb_result *a, const struct cb_result *b)
{
	return same_section(a, b) && a->key_bits == b->key_bits;
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
	if (!streq(r->iv_mode, "none")) {
		if (!t->iv0)
			t->iv0 = r->iv_mode;
		t->mixed_iv |= !streq(r->iv_mode, t->iv0);
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
		     !streq(r->why, rep->res[i - 1].why)))
			fprintf(f, "  %s %s %u %s: %s\n", r->backend, r->driver,
			        r->key_bits, dir_short(r->direction),
			        r->why ? r->why : "");
	}
}

static int write_table(FILE *f, const struct cb_report *rep)
{
	struct tshape t;
	char *done;

	if (!rep->n)
		return finish(f);
	table_shape(&t, rep);
	table_preamble(f, rep, &t);
	done = cb_xcalloc(rep->n, 1);
	for (size_t a = 0; a < rep->n; a++) {
		if (done[a])
			continue;
		table_head(f, &rep->res[a], &t);
		for (size_t i = a; i < rep->n; i++)
			if (!done[i] && streq(rep->res[i].alg, rep->res[a].alg))
				table_row(f, rep, i, done, &t);
	}
	free(done);
	if (t.any_spread)
		fprintf(f, "\n~ noisy: the 95 %% confidence interval of this "
		        "point's median is wider than +-2 %%\n");
	if (t.any_fail)
		table_failures(f, rep);
	return finish(f);
}

/* ---- csv ------------------------------------------------------------------ */

/* The header and the rows are made from the column table (columns.c). */

static const char *status_name(enum cb_status s)
{
	return s == CB_RES_OK ? "ok" : s == CB_RES_SKIP ? "skipped" : "failed";
}

static int write_csv(FILE *f, const struct cb_report *rep)
{
	cb_csv_header(f);
	for (size_t i = 0; i < rep->n; i++)
		cb_csv_row(f, rep->prov, &rep->res[i]);
	return finish(f);
}

/* ---- json ----------------------------------------------------------------- */

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

static void json_prov(FILE *f, const struct cb_prov *p)
{
	const char *in = "    ";
	int first = 1;

	fputs("  \"provenance\": {\n", f);
	json_kv_str(f, in, "tool_version", p->tool_version, 1);
	json_kv_str(f, in, "host", p->host, 1);
	json_kv_str(f, in, "kernel", p->kernel, 1);
	json_kv_str(f, in, "cpu_model", p->cpu_model, 1);
	json_kv_str(f, in, "cpu_vendor", p->cpu_vendor, 1);
	json_kv_num(f, in, "cpu_family", 0, p->cpu_family, 1);
	json_kv_num(f, in, "cpu_model_no", 0, p->cpu_model_no, 1);
	json_kv_num(f, in, "cpu_stepping", 0, p->cpu_stepping, 1);
	json_kv_str(f, in, "cpu_flags", p->cpu_flags, 1);
	json_kv_num(f, in, "cpu_mhz_reported", 3, p->cpu_mhz, 1);
	json_kv_num(f, in, "ghz", 4, p->ghz > 0 ? p->ghz : NAN, 1);
	json_kv_num(f, in, "ghz_first", 4,
	            p->ghz > 0 ? p->ghz_first : NAN, 1);
	json_kv_num(f, in, "ghz_last", 4, p->ghz > 0 ? p->ghz_last : NAN, 1);
	json_kv_str(f, in, "cycles_source", p->ghz > 0
	            ? "dependent-add loop (1 add per cycle), mean of the "
	              "measurements before and after the run"
	            : "none", 1);
	json_kv_str(f, in, "clock", p->clock, 1);
	json_kv_str(f, in, "clocksource", p->clocksource, 1);
	json_kv_str(f, in, "governor", p->governor, 1);
	json_kv_str(f, in, "boost", p->boost, 1);
	json_kv_str(f, in, "compiler", p->compiler, 1);
	json_kv_str(f, in, "cflags", p->cflags, 1);
	json_kv_str(f, in, "started", p->started, 1);
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
	fputs("\n    ]\n  },\n", f);
}

/* The statistics of the samples (columns 43-48 of the CSV). */
static void json_sampling(FILE *f, const char *in, const struct cb_result *r)
{
	int ok = r->status == CB_RES_OK && r->ci_high_ops > 0;

	json_kv_num(f, in, "samples", 0, ok ? r->reps : 0, 1);
	json_kv_num(f, in, "ci_low_ops", 2, ok ? r->ci_low_ops : NAN, 1);
	json_kv_num(f, in, "ci_high_ops", 2, ok ? r->ci_high_ops : NAN, 1);
	json_kv_num(f, in, "mad_ops", 2, ok ? r->mad_ops : NAN, 1);
	json_kv_num(f, in, "ghz_drift", 5, ok ? r->ghz_drift : NAN, 1);
	/* whole points are no longer retaken (docs/speed.md): kept for
	 * readers of cryptobench-json-1 */
	json_kv_num(f, in, "resampled", 0, 0, 1);
	json_kv_num(f, in, "samples_retaken", 0, ok ? r->retaken : 0, 1);
	json_kv_num(f, in, "shared", 4, ok ? r->shared : NAN, 1);
	json_kv_num(f, in, "contended_samples", 0, ok ? r->contended : 0, 1);
	fprintf(f, "%s\"sample_procs\": [", in);
	for (unsigned k = 0; ok && k < r->nprocs; k++)
		fprintf(f, "%s%u", k ? ", " : "", r->proc_n[k]);
	fprintf(f, "],\n");
	fprintf(f, "%s\"noisy\": %s,\n", in, ok && r->noisy ? "true" : "false");
}

/* A ct row's verdict and evidence (cryptobench-csv-5's columns 54-61). */
static void json_ct(FILE *f, const char *in, const struct cb_result *r)
{
	if (!r->ct_verdict || !*r->ct_verdict)
		return;
	json_kv_str(f, in, "ct_verdict", r->ct_verdict, 1);
	json_kv_str(f, in, "ct_method", r->ct_method, 1);
	json_kv_num(f, in, "ct_t", 2, r->ct_t, 1);
	json_kv_num(f, in, "ct_measurements", 0, (double)r->ct_measurements, 1);
	json_kv_num(f, in, "ct_branches", 0, r->ct_branches, 1);
	json_kv_num(f, in, "ct_indexes", 0, r->ct_indexes, 1);
	json_kv_str(f, in, "ct_places", r->ct_places, 1);
	json_kv_str(f, in, "ct_note", r->ct_note, 1);
	json_kv_str(f, in, "ct_cpu_level", r->ct_cpu_level, 1);
}

static void json_result(FILE *f, const struct cb_result *r, int comma)
{
	const char *in = "      ";
	int ok = r->status == CB_RES_OK;

	fputs("    {\n", f);
	json_kv_str(f, in, "tool", r->tool, 1);
	json_kv_str(f, in, "status", status_name(r->status), 1);
	json_kv_str(f, in, "error", ok ? NULL : r->why, 1);
	json_kv_str(f, in, "backend", r->backend, 1);
	json_kv_str(f, in, "backend_version", r->backend_version, 1);
	json_kv_str(f, in, "backend_details", r->backend_details, 1);
	json_kv_str(f, in, "driver", r->driver, 1);
	json_kv_str(f, in, "alg", r->alg, 1);
	json_kv_str(f, in, "auth", r->auth, 1);
	json_kv_num(f, in, "key_bits", 0, r->key_bits, 1);
	json_kv_num(f, in, "block_bytes", 0, (double)r->block_bytes, 1);
	json_kv_num(f, in, "sector_bytes", 0, (double)r->sector_bytes, 1);
	json_kv_str(f, in, "direction", r->direction, 1);
	json_kv_str(f, in, "iv_mode", r->iv_mode, 1);
	json_kv_num(f, in, "threads", 0, r->threads, 1);
	json_kv_num(f, in, "mb", 0, r->mb, 1);
	json_kv_num(f, in, "ops_per_sec", 2, ok ? r->ops_per_sec : NAN, 1);
	json_kv_num(f, in, "bytes_per_sec", 0, ok ? r->bytes_per_sec : NAN,
	            1);
	json_kv_num(f, in, "ns_per_byte", 6, ok ? r->ns_per_byte : NAN, 1);
	json_kv_num(f, in, "cycles_per_byte", 4,
	            ok ? r->cycles_per_byte : NAN, 1);
	json_kv_num(f, in, "ghz", 4, r->ghz > 0 ? r->ghz : NAN, 1);
	json_kv_num(f, in, "overhead_ns", 2, ok ? r->overhead_ns : NAN, 1);
	json_kv_num(f, in, "slope_ns_per_byte", 6,
	            ok ? r->slope_ns_per_byte : NAN, 1);
	json_kv_num(f, in, "reps", 0, ok ? r->reps : 0, 1);
	json_kv_num(f, in, "rel_spread", 5, ok ? r->rel_spread : NAN, 1);
	json_sampling(f, in, r);
	json_kv_num(f, in, "seconds", 6, ok ? r->seconds : NAN, 1);
	json_kv_num(f, in, "bytes_total", 0,
	            ok ? (double)r->bytes_total : 0, 1);
	fprintf(f, "%s\"samples_ops_per_sec\": [", in);
	for (unsigned k = 0; ok && r->samples && k < r->reps; k++) {
		fputs(k ? ", " : "", f);
		json_num(f, 2, r->samples[k]);
	}
	fputs("],\n", f);
	json_ct(f, in, r);
	json_kv_str(f, in, "timestamp", r->timestamp, 0);
	fputs(comma ? "    },\n" : "    }\n", f);
}

static int write_json(FILE *f, const struct cb_report *rep)
{
	fputs("{\n", f);
	fprintf(f, "  \"schema\": \"%s\",\n  \"csv_schema\": \"%s\",\n",
	        CB_JSON_SCHEMA, CB_CSV_SCHEMA);
	fputs("  \"command\": ", f);
	json_str(f, rep->command);
	fputs(",\n", f);
	json_prov(f, rep->prov);
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
	if (rep->split_wall_ns) {
		fputs("  \"time_split\": {\n", f);
		cb_acct_json(f, "    ", rep->split_wall_ns);
		fputs("  },\n", f);
	}
	fputs("  \"results\": [\n", f);
	for (size_t i = 0; i < rep->n; i++)
		json_result(f, &rep->res[i], i + 1 < rep->n);
	fputs("  ]\n}\n", f);
	return finish(f);
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

int cb_sysinfo_json(FILE *f, const struct cb_prov *p)
{
	int first = 1;

	fprintf(f, "{\n  \"schema\": \"%s\",\n", CB_SYSINFO_SCHEMA);
	json_kv_str(f, "  ", "cpu_level", p->cpu_level, 1);
	json_prov(f, p);
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
	return finish(f);
}

/* ---- geli, cryptsetup, dd: the lines of `dd` (docs/dd.md) ---------------- */

void cb_dd_records(FILE *f, const struct cb_dd_run *d)
{
	fprintf(f, "%llu+%llu records in\n%llu+%llu records out\n",
	        (unsigned long long)d->full_in, (unsigned long long)d->part_in,
	        (unsigned long long)d->full_out,
	        (unsigned long long)d->part_out);
}

/* FreeBSD dd's summary (bin/dd/misc.c). */
static void dd_summary(FILE *f, const struct cb_result *r)
{
	double secs = r->seconds > 0 ? r->seconds : 1e-9;

	fprintf(f, "%llu bytes transferred in %.6f secs (%.0f bytes/sec)\n",
	        (unsigned long long)r->bytes_total, r->seconds,
	        (double)r->bytes_total / secs);
}

/* The tool's command line (NULL: none), the records, the summary. */
static int dd_lines(FILE *f, const struct cb_report *rep,
                    void (*line)(FILE *f, const struct cb_dd_run *d),
                    FILE *records)
{
	const struct cb_dd_run *d = rep->dd;

	if (!d) {                        /* another command's results */
		for (size_t i = 0; i < rep->n; i++)
			dd_summary(f, &rep->res[i]);
		return finish(f);
	}
	line(f, d);
	cb_dd_records(records ? records : f, d);
	if (rep->n)
		dd_summary(f, &rep->res[0]);
	return finish(f);
}

static void geli_line(FILE *f, const struct cb_dd_run *d)
{
	fprintf(f, "geli init -P -e %s", d->ealg);
	if (d->key_bits_given)
		fprintf(f, " -l %u", d->key_bits);
	if (d->aalg)
		fprintf(f, " -a %s", d->aalg);
	fprintf(f, " -s %u -K %s %s\n", d->sector_size,
	        d->keyfile ? d->keyfile : "key", d->provider);
}

static void cryptsetup_line(FILE *f, const struct cb_dd_run *d)
{
	fprintf(f, "cryptsetup open --type plain --cipher %s --key-size %u "
	        "--sector-size %u%s --key-file %s %s crypt\n", d->ealg,
	        d->key_bits, d->sector_size,
	        d->iv_large ? " --iv-large-sectors" : "",
	        d->keyfile ? d->keyfile : "key", d->provider);
}

static void dd_line(FILE *f, const struct cb_dd_run *d)
{
	fprintf(f, "dd if=%s of=%s bs=%s", d->in, d->out, d->bs_text);
	if (d->count != UINT64_MAX)
		fprintf(f, " count=%llu", (unsigned long long)d->count);
	fputc('\n', f);
}

static int write_geli(FILE *f, const struct cb_report *rep)
{
	return dd_lines(f, rep, geli_line, rep->dd ? rep->dd->records : NULL);
}

/* ---- cryptsetup benchmark's table (speed --format cryptsetup) ------------ */

/* The fastest measured point of alg at bits in dir (one backend's
 * median, at the largest request size measured), or NULL. */
static const struct cb_result *cs_point(const struct cb_report *rep,
                                        const char *alg, unsigned bits,
                                        const char *dir)
{
	const struct cb_result *best = NULL;
	uint64_t size = 0;

	for (size_t i = 0; i < rep->n; i++) {
		const struct cb_result *r = &rep->res[i];

		if (r->status != CB_RES_OK || !streq(r->alg, alg) ||
		    r->key_bits != bits || !streq(r->direction, dir) ||
		    r->sector_bytes || r->mb || r->block_bytes < size)
			continue;
		if (r->block_bytes > size)
			best = NULL, size = r->block_bytes;
		if (!best || r->bytes_per_sec > best->bytes_per_sec)
			best = r;
	}
	return best;
}

/* Its rate (bytes/s: PBKDF2 iterations/s), or -1. */
static double cs_best(const struct cb_report *rep, const char *alg,
                      unsigned bits, const char *dir)
{
	const struct cb_result *r = cs_point(rep, alg, bits, dir);

	return r ? r->bytes_per_sec : -1;
}

/* src/cryptsetup.c action_benchmark_kdf: PBKDF2 iterations per second
 * for a 256-bit key (whirlpool, which cryptobench lacks: N/A, as
 * cryptsetup prints it without the hash), then Argon2's cost. */
static void cs_kdf_lines(FILE *f, const struct cb_report *rep)
{
	static const char *const h[][2] = {
		{ "sha1", "pbkdf2(hmac(sha1))" }, { "sha256", "pbkdf2(hmac(sha256))" },
		{ "sha512", "pbkdf2(hmac(sha512))" },
		{ "ripemd160", "pbkdf2(hmac(rmd160))" }, { "whirlpool", NULL },
	};

	for (size_t i = 0; i < sizeof h / sizeof h[0]; i++) {
		double it = h[i][1] ? cs_best(rep, h[i][1], 0, "derive") : -1;

		if (it < 0)
			fprintf(f, "PBKDF2-%-9s     N/A\n", h[i][0]);
		else
			fprintf(f, "PBKDF2-%-9s %7u iterations per second for "
			        "256-bit key\n", h[i][0],
			        it > 4294967295.0 ? 4294967295u : (unsigned)it);
	}
	for (size_t i = 0; i < rep->nargon; i++) {
		const struct cb_argon_line *a = &rep->argon[i];

		if (!a->ok)
			fprintf(f, "%-10s N/A\n", a->name);
		else
			fprintf(f, "%-10s %4u iterations, %5u memory, %1u parallel "
			        "threads (CPUs) for 256-bit key (requested %u ms "
			        "time)\n", a->name, a->passes, a->memory, a->lanes,
			        a->requested_ms);
	}
}

/* The cipher table: cryptsetup's twelve rows, in its order (N/A where
 * nothing measured them, as cryptsetup for a cipher the kernel lacks),
 * MiB/s of the fastest backend in each direction. */
static void cs_cipher_rows(FILE *f, const struct cb_report *rep)
{
	static const char *const row[][2] = {
		{ "aes", "cbc" }, { "serpent", "cbc" }, { "twofish", "cbc" },
	};

	fputs("#     Algorithm |       Key |      Encryption |      Decryption\n",
	      f);
	for (int k = 0; k < 4; k++)
		for (int c = 0; c < 3; c++) {
			const char *mode = k < 2 ? "cbc" : "xts";
			unsigned bits = (unsigned[]){ 128, 256, 256, 512 }[k];
			char alg[32], name[32];
			double e, d;

			snprintf(alg, sizeof alg, "%s(%s)", mode, row[c][0]);
			snprintf(name, sizeof name, "%s-%s", row[c][0], mode);
			e = cs_best(rep, alg, bits, "encrypt");
			d = cs_best(rep, alg, bits, "decrypt");
			if (e < 0 || d < 0)
				fprintf(f, "%15s  %9ub %17s %17s\n", name, bits, "N/A",
				        "N/A");
			else
				fprintf(f, "%15s  %9ub  %10.1f MiB/s  %10.1f MiB/s\n", name,
				        bits, e / 1048576, d / 1048576);
		}
}

/* One direction's 95 % CI in MiB/s and the backend it is of. */
static void cs_ci(FILE *f, const char *dir, const struct cb_result *r)
{
	double k = (double)r->block_bytes / 1048576;

	if (r->ci_high_ops > 0)
		fprintf(f, " %s [%.1f, %.1f] MiB/s (%s)", dir, r->ci_low_ops * k,
		        r->ci_high_ops * k, r->backend);
	else
		fprintf(f, " %s: no CI (%s)", dir, r->backend);
}

/* After the table, as cryptsetup-style comments: each row's 95 % CI of
 * the median and the backend whose median it is (docs/cryptsetup.md). */
static void cs_cipher_cis(FILE *f, const struct cb_report *rep)
{
	static const char *const ciph[3] = { "aes", "serpent", "twofish" };
	int head = 0;

	for (int k = 0; k < 4; k++)
		for (int c = 0; c < 3; c++) {
			unsigned bits = (unsigned[]){ 128, 256, 256, 512 }[k];
			const struct cb_result *e, *d;
			char alg[32];

			snprintf(alg, sizeof alg, "%s(%s)", k < 2 ? "cbc" : "xts",
			         ciph[c]);
			e = cs_point(rep, alg, bits, "encrypt");
			d = cs_point(rep, alg, bits, "decrypt");
			if (!e || !d)
				continue;
			if (!head++)
				fputs("# The 95 % CI of each median above, and whose it "
				      "is:\n", f);
			fprintf(f, "# %s-%s %ub:", ciph[c], k < 2 ? "cbc" : "xts", bits);
			cs_ci(f, "encryption", e);
			fputc(',', f);
			cs_ci(f, "decryption", d);
			fputc('\n', f);
		}
}

/* dd: the cryptsetup line and dd's summary; speed: `cryptsetup
 * benchmark`'s whole output (docs/cryptsetup.md pins each line). */
static int write_cryptsetup(FILE *f, const struct cb_report *rep)
{
	if (rep->dd)
		return dd_lines(f, rep, cryptsetup_line, rep->dd->records);
	fputs("# Tests are approximate using memory only (no storage IO).\n", f);
	cs_kdf_lines(f, rep);
	cs_cipher_rows(f, rep);
	cs_cipher_cis(f, rep);
	return finish(f);
}

/* The baseline: FreeBSD dd's records go with its lines, as in the seed. */
static int write_dd(FILE *f, const struct cb_report *rep)
{
	return dd_lines(f, rep, dd_line, NULL);
}

/* ---- the table of writers -------------------------------------------------- */

/* Sorted by name (tests/test_output checks it). */
const struct cb_writer cb_writers[] = {
	{ "cryptsetup", write_cryptsetup,
	  "speed: cryptsetup benchmark's table; dd through dm-crypt: the "
	  "cryptsetup line, FreeBSD dd's summary" },
	{ "csv", write_csv, "one row per point, docs/csv.md (RFC 4180)" },
	{ "dd", write_dd, "the dd line, records and summary (no encryption)" },
	{ "geli", write_geli, "dd through geli: the geli init line, FreeBSD "
	  "dd's summary" },
	{ "json", write_json, "the CSV fields, raw samples, provenance header" },
	{ "table", write_table, "MB/s and cycles/byte, a column per size" },
	{ "tcrypt", write_tcrypt, "the kernel's tcrypt speed lines" },
};
const size_t cb_nwriters = sizeof cb_writers / sizeof cb_writers[0];

const struct cb_writer *cb_writer_find(const char *name)
{
	for (size_t i = 0; i < cb_nwriters; i++)
		if (!strcmp(cb_writers[i].name, name))
			return &cb_writers[i];
	return NULL;
}
