/*
 * test_output.c - the result writers and the timing engine's arithmetic.
 *
 * The tcrypt writer is fed the ops/s numbers of the kernel ESSIV report
 * (tests/seed-001-tcrypt.txt: the report's 114 tcrypt lines, six
 * sections) and must print that text back byte for byte.  The CSV writer
 * must give every row the header's column count under RFC 4180 quoting,
 * with the spec's columns present; the JSON writer must print null for
 * what is not a number.  Also: the writer table is sorted and unique, and
 * median, fit and the time box behave.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "foundation/csv.h"
#include "output/output.h"
#include "output/result.h"
#include "system/sysinfo.h"
#include "foundation/timing.h"

#include "check.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Render a report with a writer into a fresh string. */
static char *render(const char *format, const struct cb_report *rep)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	cb_writer_find(format)->write(f, rep);
	fclose(f);
	return out;
}

/* ---- tcrypt against the seed -------------------------------------------- */

#define MAX_ROWS 200

static char labels[8][128], drivers[8][128];

static void test_tcrypt_seed(void)
{
	static struct cb_result res[MAX_ROWS];
	size_t len, n = 0;
	char *seed = slurp("tests/seed-001-tcrypt.txt", &len), *line, *save;
	char *copy, *out;
	int sec = -1, bad = 0;
	const char *dir = NULL;
	struct cb_report rep = { .prov = cb_prov(), .sec = 1 };

	check(seed != NULL, "tests/seed-001-tcrypt.txt readable");
	if (!seed)
		return;
	copy = strdup(seed);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned idx, bits;
		unsigned long long size, ops, bytes;

		if (!strncmp(line, "testing speed of async ", 23)) {
			char *p = line + 23, *sp = strchr(p, ' '), *end;

			sec++;
			*sp = 0;
			snprintf(labels[sec], sizeof labels[sec], "%s", p);
			p = sp + 2;                       /* past " (" */
			end = strrchr(p, ')');
			*end = 0;
			snprintf(drivers[sec], sizeof drivers[sec], "%s", p);
			dir = strstr(end + 1, "decryption") ? "decrypt" : "encrypt";
			continue;
		}
		if (sscanf(line, "tcrypt: test %u (%u bit key, %llu byte blocks): "
		           "%llu ops/s (%llu bytes)", &idx, &bits, &size, &ops,
		           &bytes) != 5 || sec < 0 || n == MAX_ROWS) {
			bad = 1;
			continue;
		}
		if (bytes != ops * size)
			bad = 1;
		res[n].tool = "speed";
		res[n].backend = "seed";
		res[n].driver = drivers[sec];
		res[n].alg = !strcmp(labels[sec], "cbc(aes)") ? "cbc(aes)"
		             : "essiv(cbc(aes),sha256)";
		res[n].alg_label = labels[sec];
		res[n].key_bits = bits;
		res[n].block_bytes = size;
		res[n].direction = dir;
		res[n].iv_mode = "per-request";
		res[n].ops_per_sec = (double)ops;
		res[n].bytes_per_sec = (double)(ops * size);
		res[n].status = CB_RES_OK;
		n++;
	}
	check(!bad, "seed lines parse and bytes = ops x size in every row");
	check(n == 108 && sec == 5, "seed: six sections of 18 rows");
	rep.res = res;
	rep.n = n;
	out = render("tcrypt", &rep);
	check(out && !strcmp(out, seed),
	      "tcrypt writer reproduces the seed byte for byte");
	if (out && strcmp(out, seed)) {
		/* show the first differing line */
		char *a = out, *b = seed;

		while (*a && *a == *b)
			a++, b++;
		while (a > out && a[-1] != '\n')
			a--, b--;
		printf("  got:  %.*s\n  want: %.*s\n", (int)strcspn(a, "\n"), a,
		       (int)strcspn(b, "\n"), b);
	}
	free(out);
	free(copy);
	free(seed);
}

static void test_tcrypt_pad(void)
{
	check(!strcmp(cb_tcrypt_pad(50252560, 813703168), " "),
	      "pad: 8 digits under 9 gets a blank");
	check(!strcmp(cb_tcrypt_pad(171066112, 813703168), ""),
	      "pad: 9 digits under 9 gets none");
	check(!strcmp(cb_tcrypt_pad(50636032, 2018975744), " "),
	      "pad: 8 digits under 10 gets one blank (collapsed)");
	check(!strcmp(cb_tcrypt_pad(190455936, 2018975744), " "),
	      "pad: 9 digits under 10 gets a blank");
	check(!strcmp(cb_tcrypt_pad(1346298880, 2018975744), ""),
	      "pad: 10 digits under 10 gets none");
}

/* Failures, skips and the cycles form. */
static void test_tcrypt_forms(void)
{
	struct cb_result r[3] = {
		{ .backend = "b", .driver = "d", .alg = "cbc(aes)",
		  .direction = "encrypt", .key_bits = 128, .block_bytes = 16,
		  .status = CB_RES_OK, .ops_per_sec = 1e6, .ghz = 2.0 },
		{ .backend = "b", .driver = "d", .alg = "cbc(aes)",
		  .direction = "encrypt", .key_bits = 128, .block_bytes = 1420,
		  .status = CB_RES_SKIP, .why = "not a multiple of the 16-byte block" },
		{ .backend = "b", .driver = "d", .alg = "cbc(aes)",
		  .direction = "encrypt", .key_bits = 128, .block_bytes = 4096,
		  .status = CB_RES_FAIL, .why = "output differs" },
	};
	struct cb_report rep = { .prov = cb_prov(), .res = r, .n = 3 };
	char *out = render("tcrypt", &rep);

	check(strstr(out, "tcrypt: test 0 (128 bit key, 16 byte blocks): "
	                  "1000000 ops/s (16000000 bytes)\n") != NULL,
	      "tcrypt: a lone row has no pad");
	check(strstr(out, "test 1 (128 bit key, 1420 byte blocks): skipped: "
	                  "not a multiple") != NULL, "tcrypt: skip line");
	check(strstr(out, "test 2 (128 bit key, 4096 byte blocks): failed: "
	                  "output differs") != NULL, "tcrypt: error line, no speed");
	free(out);
	rep.cycles = 1;
	rep.n = 1;
	out = render("tcrypt", &rep);
	check(strstr(out, "): 1 operation in 2000 cycles (16 bytes)\n") != NULL,
	      "tcrypt --cycles: 1 operation in N cycles (M bytes)");
	free(out);
	r[0].direction = "digest";
	r[0].alg = "sha256";
	r[0].driver = "sha256-x";
	rep.cycles = 0;
	out = render("tcrypt", &rep);
	check(!strcmp(out, "testing speed of async sha256 (sha256-x)\n"
	                   "tcrypt: test  0 (   16 byte blocks,   16 bytes per "
	                   "update,   1 updates): 1000000 opers/sec,  16000000 "
	                   "bytes/sec\n"), "tcrypt: the kernel's hash line");
	free(out);
}

/* ---- csv ------------------------------------------------------------------ */

/* Split one RFC 4180 record at *p (advanced past its CRLF); field count,
 * or -1 on a malformed record.  Fields copied into f[] if non-NULL. */
static int csv_record(const char **p, char f[][256], int max)
{
	const char *s = *p;
	int n = 0;

	for (;;) {
		char buf[256];
		size_t k = 0;

		if (*s == '"') {
			s++;
			for (;;) {
				if (!*s)
					return -1;
				if (*s == '"' && s[1] == '"') {
					if (k < 255) buf[k++] = '"';
					s += 2;
				} else if (*s == '"') {
					s++;
					break;
				} else {
					if (k < 255) buf[k++] = *s;
					s++;
				}
			}
		} else {
			while (*s && *s != ',' && *s != '\r' && *s != '\n') {
				if (*s == '"')
					return -1;
				if (k < 255) buf[k++] = *s;
				s++;
			}
		}
		buf[k] = 0;
		if (f && n < max)
			memcpy(f[n], buf, k + 1);
		n++;
		if (*s == ',') {
			s++;
			continue;
		}
		if (s[0] == '\r' && s[1] == '\n') {
			*p = s + 2;
			return n;
		}
		return -1;   /* RFC 4180: records end CRLF */
	}
}

/* cryptobench-csv-2's columns 43-49 in the agreed order, csv-3's column
 * 50 (mb), csv-4's 51-53, and the file read back through the project's
 * reader. */
static void test_csv2(const char *out)
{
	static const char *const v2[] = {
		"samples", "ci_low_ops", "ci_high_ops", "mad_ops", "ghz_drift",
		"cpu_level", "sample_ops", "mb", "shared", "contended",
		"sample_procs", NULL,
	};
	struct cb_csv c = { 0 };
	int ok = 1;

	check(cb_csv_parse(&c, "v2", out, strlen(out)) == 0 && c.nrows == 2 &&
	      c.hdrs[0].ncols == 61, "csv-5: 61 columns, read back");
	if (c.nrows != 2 || c.hdrs[0].ncols != 61)
		return;
	for (int i = 0; v2[i]; i++)
		ok &= !strcmp(c.hdrs[0].names[42 + i], v2[i]);
	check(ok, "csv-4: columns 43-53 named and ordered as agreed");
	check(!strcmp(cb_csv_get(&c, &c.rows[0], "schema"), "cryptobench-csv-5"),
	      "csv-5: schema cryptobench-csv-5");
	check(!strcmp(cb_csv_get(&c, &c.rows[0], "ct_verdict"), "") &&
	      !strcmp(cb_csv_get(&c, &c.rows[0], "ct_t"), ""),
	      "csv-5: a speed row's ct columns are empty");
	check(!strcmp(cb_csv_get(&c, &c.rows[0], "shared"), "0.1250") &&
	      !strcmp(cb_csv_get(&c, &c.rows[0], "contended"), "1") &&
	      !strcmp(cb_csv_get(&c, &c.rows[0], "sample_procs"), "1 2"),
	      "csv-4: shared, contended, the samples of each process");
	check(!strcmp(cb_csv_get(&c, &c.rows[1], "shared"), "") &&
	      !strcmp(cb_csv_get(&c, &c.rows[1], "sample_procs"), ""),
	      "csv-4: a failed row has none");
	check(!strcmp(cb_csv_get(&c, &c.rows[0], "mb"), "0"),
	      "csv-3: mb 0 without --mb");
	check(!strcmp(cb_csv_get(&c, &c.rows[0], "samples"), "3") &&
	      !strcmp(cb_csv_get(&c, &c.rows[0], "ci_low_ops"), "1.50") &&
	      !strcmp(cb_csv_get(&c, &c.rows[0], "ci_high_ops"), "2.50") &&
	      !strcmp(cb_csv_get(&c, &c.rows[0], "mad_ops"), "0.50") &&
	      !strcmp(cb_csv_get(&c, &c.rows[0], "ghz_drift"), "0.01250") &&
	      !strcmp(cb_csv_get(&c, &c.rows[0], "cpu_level"),
	              cb_prov()->cpu_level),
	      "csv-2: sample count, CI, MAD, drift, CPU level round-trip");
	check(!strcmp(cb_csv_get(&c, &c.rows[0], "sample_ops"),
	              "1.00 2.00 3.00"),
	      "csv-2: the raw samples, space-separated");
	check(!strcmp(cb_csv_get(&c, &c.rows[1], "samples"), "0") &&
	      !*cb_csv_get(&c, &c.rows[1], "ci_low_ops") &&
	      !*cb_csv_get(&c, &c.rows[1], "sample_ops"),
	      "csv-2: a failed point has no samples");
	cb_csv_free(&c);
}

static void test_csv(void)
{
	static const char *const spec[] = {
		"schema", "tool_version", "host", "cpu_model", "kernel", "backend",
		"backend_version", "driver", "alg", "key_bits", "block_bytes",
		"direction", "ops_per_sec", "bytes_per_sec", "ns_per_byte",
		"cycles_per_byte", "ghz", "reps", "rel_spread", "timestamp", NULL,
	};
	static char hdr[64][256], row[64][256];
	double samples[3] = { 1, 2, 3 };
	struct cb_result r[2] = {
		{ .tool = "speed", .backend = "openssl", .backend_version = "3",
		  .driver = "essiv(cbc-aes-x,\"q\")", .alg = "essiv(cbc(aes),sha256)",
		  .key_bits = 128, .block_bytes = 16, .direction = "encrypt",
		  .iv_mode = "per-request", .status = CB_RES_OK, .ops_per_sec = 2,
		  .bytes_per_sec = 32, .ns_per_byte = 1, .cycles_per_byte = NAN,
		  .ghz = 0, .reps = 3, .samples = samples, .overhead_ns = NAN,
		  .slope_ns_per_byte = NAN, .timestamp = "2024-01-01T00:00:00Z",
		  .ci_low_ops = 1.5, .ci_high_ops = 2.5, .mad_ops = 0.5,
		  .ghz_drift = 0.0125, .shared = 0.125, .contended = 1,
		  .nprocs = 2, .proc_n = { 1, 2 } },
		{ .tool = "speed", .backend = "gcrypt", .driver = "d",
		  .alg = "cbc(aes)", .direction = "decrypt", .status = CB_RES_FAIL,
		  .why = "wrong, \"very\"\nwrong" },
	};
	struct cb_report rep = { .prov = cb_prov(), .res = r, .n = 2 };
	char *out = render("csv", &rep);
	const char *p = out;
	int nh = csv_record(&p, hdr, 64), n1 = csv_record(&p, row, 64), ok = 1;

	check(nh >= 20, "csv: header parses");
	check(n1 == nh, "csv: row 1 has the header's column count");
	for (int i = 0; spec[i]; i++)
		ok &= i < nh && !strcmp(hdr[i], spec[i]);
	check(ok, "csv: the spec's columns first, in the spec's order");
	check(!strcmp(row[7], "essiv(cbc-aes-x,\"q\")") &&
	      !strcmp(row[8], "essiv(cbc(aes),sha256)"),
	      "csv: commas and quotes survive RFC 4180 quoting");
	check(!strcmp(row[0], CB_CSV_SCHEMA), "csv: schema column");
	for (int i = 0; i < nh; i++)
		if (!strcmp(hdr[i], "cycles_per_byte"))
			check(row[i][0] == 0, "csv: NaN is an empty field");
	n1 = csv_record(&p, row, 64);
	check(n1 == nh, "csv: a failed row with a multi-line reason parses");
	for (int i = 0; i < nh; i++) {
		if (!strcmp(hdr[i], "status"))
			check(!strcmp(row[i], "failed"), "csv: status failed");
		if (!strcmp(hdr[i], "ops_per_sec"))
			check(row[i][0] == 0, "csv: no speed for a failure");
		if (!strcmp(hdr[i], "error"))
			check(!strcmp(row[i], "wrong, \"very\"\nwrong"),
			      "csv: error text round-trips");
	}
	check(*p == 0, "csv: nothing after the last record");
	test_csv2(out);
	free(out);

	out = render("json", &rep);
	check(strstr(out, "\"cycles_per_byte\": null") != NULL,
	      "json: NaN is null");
	check(strstr(out, "\"samples_ops_per_sec\": [1.00, 2.00, 3.00]") != NULL,
	      "json: raw samples");
	check(strstr(out, "\"error\": \"wrong, \\\"very\\\"\\nwrong\"") != NULL,
	      "json: strings escaped");
	free(out);

	out = render("table", &rep);
	check(strstr(out, "16 B") && strstr(out, "FAILED"),
	      "table: a size column and the failure");
	free(out);
}

/* ---- the writer table and the engine ---------------------------------- */

static int count_ops;

static int count_run(void *arg, uint64_t n)
{
	volatile uint64_t *x = arg;

	for (uint64_t i = 0; i < n; i++)
		(*x)++;
	count_ops = 1;
	return 0;
}

static int fail_run(void *arg, uint64_t n)
{
	return -EINVAL;
}

/* A fake canary and an operation that runs at half speed while it says
 * the core is shared: 3 clean readings, then 2 shared, over and over. */
static unsigned fake_reads;
static int fake_shared;

static int fake_canary(void)
{
	fake_shared = fake_reads++ % 5 >= 3;
	return !fake_shared;
}

static int always_shared(void)
{
	fake_shared = 1;
	return 0;
}

static int spin_run(void *arg, uint64_t n)
{
	(void)arg;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t t0 = cb_now_ns(), us = fake_shared ? 40 : 20;

		while (cb_now_ns() - t0 < us * 1000)
			;
	}
	return 0;
}

/* The canary: shared segments are left out; a sample never clean is kept
 * whole and said to be contended. */
static void test_canary(void)
{
	struct cb_sample t;
	uint64_t t0;
	double wall;
	int rc;

	/* (each sample is taken before the check: checkf's arguments are
	 * evaluated in no set order) */
	cb_canary_set(fake_canary);
	rc = cb_time_sample(spin_run, NULL, 1, 0.01, 0, &t);
	checkf(rc == 0 && !t.contended && t.shared > 0.3 && t.shared < 0.8 &&
	       t.rate > 0.7 * 50000 && t.rate < 2 * 50000,
	       "canary: the shared segments (half speed) are left out: %.0f "
	       "ops/s (clean 50000), %.2f left out", t.rate, t.shared);
	/* four boxes of wall time, whatever the load: segments the thread
	 * was switched out in are left out of t.secs, not of the loop */
	cb_canary_set(always_shared);
	t0 = cb_now_ns();
	rc = cb_time_sample(spin_run, NULL, 1, 0.005, 0, &t);
	wall = (double)(cb_now_ns() - t0) / 1e9;
	/* no clean segment counted: shared is 1, or 0 when every segment
	 * was switched out (none ran) */
	checkf(rc == 0 && t.contended && t.rate < 0.7 * 50000 &&
	       (t.shared == 1 || t.shared == 0) && wall >= 0.019 &&
	       t.secs > 0 && t.secs <= wall,
	       "canary: never clean: four boxes (%.4f s), every segment, "
	       "contended (%.0f ops/s, shared %.2f)", wall, t.rate, t.shared);
	cb_canary_enable(0);       /* still the never-clean one, but off */
	check(cb_time_sample(spin_run, NULL, 1, 0.005, 0, &t) == 0 &&
	      !t.contended && t.shared == 0, "canary off: every segment counts");
	cb_canary_enable(1);
	cb_canary_set(NULL);
}

static void test_engine(void)
{
	double v[] = { 5, 1, 3 }, w[] = { 4, 1, 3, 2 };
	double x[] = { 16, 64, 256, 1024 }, y[4], a, b;
	struct cb_sample t;
	uint64_t batch = 0;
	volatile uint64_t cnt = 0;
	int sorted = 1, rc;
	uint64_t t0;
	double wall;

	for (size_t i = 1; i < cb_nwriters; i++)
		sorted &= strcmp(cb_writers[i - 1].name, cb_writers[i].name) < 0;
	check(sorted, "writers sorted by name and unique");
	check(cb_writer_find("tcrypt") && cb_writer_find("csv") &&
	      cb_writer_find("json") && cb_writer_find("table") &&
	      !cb_writer_find("xml"), "writer lookup");
	check(cb_median(v, 3) == 3 && cb_median(w, 4) == 2.5, "median");
	for (int i = 0; i < 4; i++)
		y[i] = 40 + 0.25 * x[i];
	check(cb_fit_line(x, y, 4, &a, &b) == 0 && fabs(a - 40) < 1e-9 &&
	      fabs(b - 0.25) < 1e-12, "fit: intercept and slope of a line");
	check(cb_fit_line(x, y, 1, &a, &b) < 0, "fit: one point is no line");
	check(cb_calibrate(count_run, (void *)&cnt, 0.005, 0.01, &batch) == 0 &&
	      batch > 0 && count_ops, "calibration: a batch size");
	/* the box in wall time; t.secs leaves out segments the thread was
	 * switched out in, so under load it may be less */
	t0 = cb_now_ns();
	rc = cb_time_sample(count_run, (void *)&cnt, batch, 0.01, 0.001, &t);
	wall = (double)(cb_now_ns() - t0) / 1e9;
	check(rc == 0 && t.ops > 0 && t.rate > 0 &&
	      fabs(t.rate * t.secs - (double)t.ops) < 1e-6 * (double)t.ops &&
	      wall > 0.009 && t.secs > 0 && t.secs <= wall && t.secs < 0.1,
	      "sample: about its time box, the rate its ops over its seconds");
	check(cb_time_sample(fail_run, NULL, 1, 0.01, 0, &t) == -EINVAL,
	      "time box: an operation's error comes back");
}

/* ---- geli, cryptsetup, dd: dd's lines (docs/dd.md) ------------------------ */

static int starts(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

static void test_dd_lines(void)
{
	struct cb_result r = { .bytes_total = 4194304, .seconds = 0.5 };
	struct cb_dd_run d = {
		.ealg = "aes", .aalg = "hmac/sha256", .key_bits = 256,
		.key_bits_given = 1, .sector_size = 4096, .provider = "mirror/gm0",
		.in = "/dev/zero", .out = "/dev/mirror/gm0", .bs_text = "1m",
		.count = 4, .full_in = 4, .full_out = 4,
	};
	struct cb_report rep = { .prov = cb_prov(), .res = &r, .n = 1, .dd = &d };
	char *out;

	out = render("geli", &rep);
	check(out && !strcmp(out, "geli init -P -e aes -l 256 -a hmac/sha256 "
	      "-s 4096 -K key mirror/gm0\n4+0 records in\n4+0 records out\n"
	      "4194304 bytes transferred in 0.500000 secs (8388608 "
	      "bytes/sec)\n"), "geli writer: the seed's lines");
	free(out);
	d.ealg = "aes-xts-plain64";
	d.aalg = NULL;
	d.key_bits = 512;
	d.sector_size = 512;
	d.iv_large = 1;
	d.keyfile = "k.bin";
	out = render("cryptsetup", &rep);
	check(starts(out, "cryptsetup open --type plain --cipher "
	      "aes-xts-plain64 --key-size 512 --sector-size 512 "
	      "--iv-large-sectors --key-file k.bin mirror/gm0 crypt\n4+0 "),
	      "cryptsetup writer: the cryptsetup line");
	free(out);
	d.count = UINT64_MAX;
	out = render("dd", &rep);
	check(starts(out, "dd if=/dev/zero of=/dev/mirror/gm0 bs=1m\n"
	      "4+0 records in\n"), "dd writer: no count= when not given");
	free(out);
	rep.dd = NULL;
	out = render("geli", &rep);
	check(out && !strcmp(out, "4194304 bytes transferred in 0.500000 secs "
	      "(8388608 bytes/sec)\n"), "geli writer without dd: the summary");
	free(out);
}

int main(void)
{
	test_tcrypt_seed();
	test_tcrypt_pad();
	test_tcrypt_forms();
	test_csv();
	test_engine();
	test_canary();
	test_dd_lines();
	return finish();
}
