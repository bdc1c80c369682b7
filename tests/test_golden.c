/*
 * test_golden.c - the writers' bytes, pinned.  A fixed set of results
 * (speed rows measured, skipped and failed, with samples, processes, the
 * multibuffer and sector models; a key derivation; dd rows; ct rows of a
 * leak and of one not checked; NaN where nothing is known; a driver that
 * needs quoting) under a fixed provenance goes through every writer, and
 * the bench summary is made from the same results; each output must equal
 * its file under tests/data/golden/ byte for byte.  The files were made
 * by the writers before the column table replaced them (issue 43): the
 * table must write what they wrote.  GOLDEN_WRITE=1 rewrites the files
 * (after a deliberate change of a format, with its docs page).
 *
 * The JSON's backend list is left out of the comparison: it is this
 * build's and host's (plug-ins, their SHA-256, the kernel's AF_ALG).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "core/cb.h"
#include "output/output.h"
#include "output/result.h"
#include "system/sysinfo.h"

#include "check.h"

#define DIR "tests/data/golden/"

static const struct cb_prov prov = {
	.tool_version = "0.9.9-golden", .host = "golden-host",
	.kernel = "Linux 6.1.0-golden #1 SMP x86_64",
	.cpu_model = "Golden CPU, 8 cores @ 3.00GHz", .cpu_vendor = "GenuineIntel",
	.cpu_family = 6, .cpu_model_no = 143, .cpu_stepping = 8,
	.cpu_flags = "aes pclmulqdq avx2 vaes", .cpu_mhz = 2999.5,
	.compiler = "gcc 12.2.0", .cflags = "-O2 -g", .governor = "performance",
	.boost = "on", .clocksource = "tsc", .clock = "CLOCK_MONOTONIC_RAW",
	.cpu_level = "max", .ghz = 3.0012, .ghz_first = 3.001, .ghz_last = 3.0014,
	.ghz_samples = 2, .started = "2026-01-02T03:04:05Z",
};

static const double s1[] = { 1000.25, 1010.5, 990.125, 1005, 998.75 };
static const double s2[] = { 52000, 51000.5, 53000.25, 52500, 51800, 52100 };
static const double s3[] = { 9.5, 9.75, 9.25 };

/* A measured speed row. */
static struct cb_result speed(const char *be, const char *drv,
                              const char *alg, unsigned bits, uint64_t block,
                              const char *dir, double ops)
{
	struct cb_result r = {
		.tool = "speed", .backend = be, .backend_version = "1.2.3",
		.backend_details = "path=avx2", .driver = drv, .alg = alg,
		.auth = "", .key_bits = bits, .block_bytes = block,
		.direction = dir, .iv_mode = "per-request", .threads = 1,
		.status = CB_RES_OK, .ops_per_sec = ops,
		.bytes_per_sec = ops * (double)block,
		.ns_per_byte = 1e9 / (ops * (double)block),
		.cycles_per_byte = 3.0012e9 / (ops * (double)block), .ghz = 3.0012,
		.overhead_ns = 41.25, .slope_ns_per_byte = 0.3125, .reps = 5,
		.rel_spread = 0.0198, .samples = s1, .ci_low_ops = ops * 0.99,
		.ci_high_ops = ops * 1.01, .mad_ops = ops * 0.004, .ghz_drift = 0.002,
		.shared = 0.0125, .contended = 1, .nprocs = 2, .proc_n = { 3, 2 },
		.retaken = 2, .bytes_total = 5 * block * 100, .seconds = 0.5,
		.timestamp = "2026-01-02T03:04:06Z", .ct_t = NAN,
	};
	return r;
}

static size_t fill(struct cb_result *res)
{
	size_t n = 0;
	struct cb_result r;

	res[n++] = speed("openssl", "cbc-aes-openssl", "cbc(aes)", 128, 16,
	                 "encrypt", 1000.5);
	res[n++] = speed("openssl", "cbc-aes-openssl", "cbc(aes)", 128, 4096,
	                 "encrypt", 52000);
	r = speed("openssl", "cbc-aes-openssl", "cbc(aes)", 128, 16, "decrypt",
	          1500);
	r.noisy = 1;
	r.samples = s2;
	r.reps = 6;
	r.nprocs = 0;
	res[n++] = r;
	res[n++] = speed("openssl", "cbc-aes-openssl", "cbc(aes)", 128, 4096,
	                 "decrypt", 60000.75);
	r = speed("native", "cbc-aes-native-vaes512", "cbc(aes)", 128, 4096,
	          "encrypt", 90000);
	r.backend_details = NULL;
	r.ghz = 0;
	r.cycles_per_byte = NAN;
	r.overhead_ns = NAN;
	res[n++] = r;
	res[n++] = speed("native", "cbc-aes-native-vaes512", "cbc(aes)", 128,
	                 4096, "decrypt", 180000);
	r = speed("gcrypt", "essiv(cbc-aes-gcrypt,ecb-aes-gcrypt,sha256-gcrypt)",
	          "essiv(cbc(aes),sha256)", 256, 4096, "encrypt", 30000);
	r.alg_label = "essiv(cbc(aes),sha256)";
	r.sector_bytes = 512;
	r.iv_mode = "per-sector";
	res[n++] = r;
	r = speed("gcrypt", "xts-aes-gcrypt", "xts(aes)", 512, 16, "encrypt", 0);
	r.status = CB_RES_SKIP;
	r.why = "xts needs at least one block, \"16\" is short";
	res[n++] = r;
	r = speed("nettle", "xts-aes-nettle", "xts(aes)", 256, 4096, "decrypt", 0);
	r.status = CB_RES_FAIL;
	r.why = "gate: decrypt differs from openssl at byte 17";
	res[n++] = r;
	r = speed("openssl", "sha256-openssl", "sha256", 0, 1472, "digest",
	          400000.5);
	r.iv_mode = "none";
	r.mb = 8;
	r.samples = s3;
	r.reps = 3;
	r.ci_high_ops = 0;          /* not sampled: the sampling columns empty */
	res[n++] = r;
	r = speed("openssl", "pbkdf2-sha256-openssl", "pbkdf2(hmac(sha256))", 0,
	          1024, "derive", 2500.5);
	r.iv_mode = "none";
	res[n++] = r;
	r = speed("openssl", "geli-aes-xts", "xts(aes)", 256, 1048576, "encrypt",
	          300.5);
	r.tool = "dd";
	r.auth = "hmac(sha256)";
	r.threads = 4;
	r.sector_bytes = 4096;
	r.iv_mode = "per-sector";
	r.overhead_ns = r.slope_ns_per_byte = NAN;
	r.ci_low_ops = r.ci_high_ops = r.mad_ops = 0;
	r.samples = NULL;
	r.nprocs = 0;
	res[n++] = r;
	memset(&r, 0, sizeof r);
	r.tool = "ct";
	r.backend = "openssl";
	r.backend_version = "3.0.11";
	r.backend_details = "";
	r.driver = "ecb-blowfish-openssl";
	r.alg = "ecb(blowfish)";
	r.auth = "";
	r.key_bits = 128;
	r.direction = "-";
	r.threads = 1;
	r.ops_per_sec = r.bytes_per_sec = r.ns_per_byte = NAN;
	r.cycles_per_byte = r.overhead_ns = r.slope_ns_per_byte = NAN;
	r.rel_spread = r.ghz_drift = r.shared = NAN;
	r.ct_verdict = "secret-dependent memory index";
	r.ct_method = "memcheck+timing";
	r.ct_t = 12.5;
	r.ct_measurements = 40000;
	r.ct_indexes = 3;
	r.ct_places = "memory index: BF_encrypt (in libcrypto.so.3); x, y";
	r.ct_note = "";
	r.ct_cpu_level = "max";
	snprintf(r.timestamp, sizeof r.timestamp, "2026-01-02T03:05:00Z");
	res[n++] = r;
	r.driver = "cbc-aes-nettle";
	r.backend = "nettle";
	r.alg = "cbc(aes)";
	r.status = CB_RES_SKIP;
	r.why = "valgrind cannot run vaes512";
	r.ct_verdict = "not checked";
	r.ct_method = "";
	r.ct_t = NAN;
	r.ct_measurements = 0;
	r.ct_indexes = 0;
	r.ct_places = "";
	r.ct_note = "memcheck ran aesni";
	r.ct_cpu_level = "aesni";
	res[n++] = r;
	return n;
}

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
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		n = 0;
	buf[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The JSON's "backends": [...] lines cut out (this host's). */
static void cut_backends(char *s)
{
	char *a = strstr(s, "    \"backends\": ["), *b;

	if (a && (b = strstr(a, "\n    ]\n")))
		memmove(a, b + 7, strlen(b + 7) + 1);
}

static void against(const char *name, char *out, size_t len)
{
	char path[256];
	size_t glen;
	char *want;

	snprintf(path, sizeof path, DIR "%s", name);
	if (getenv("GOLDEN_WRITE")) {
		FILE *f = fopen(path, "wb");

		checkf(f && fwrite(out, 1, len, f) == len && fclose(f) == 0,
		      "%s written", path);
		return;
	}
	want = slurp(path, &glen);
	checkf(want != NULL, "%s readable", path);
	if (!want)
		return;
	checkf(glen == len && !memcmp(want, out, len),
	      "%s: the writer's bytes equal the golden file (%zu and %zu bytes)",
	      name, len, glen);
	if (glen != len || memcmp(want, out, len)) {
		size_t i = 0;

		while (i < len && i < glen && want[i] == out[i])
			i++;
		fprintf(stderr, "  first difference at byte %zu: got \"%.60s\"\n"
		        "  want \"%.60s\"\n", i, out + i, want + i);
	}
	free(want);
}

static void one(const char *format, const struct cb_report *rep,
                const char *name)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	checkf(cb_writer_find(format)->write(f, rep) == 0, "%s writes", format);
	fclose(f);
	if (!strcmp(format, "json")) {
		cut_backends(out);
		len = strlen(out);
	}
	against(name, out, len);
	free(out);
}

/* dd's own lines, with the command line of the emulated tool. */
static void dd_writers(struct cb_result *res)
{
	struct cb_dd_run d = { .ealg = "aes-xts", .aalg = "hmac/sha256",
	                       .keyfile = NULL, .key_bits = 128,
	                       .key_bits_given = 1, .sector_size = 4096,
	                       .provider = "mirror/gm0", .in = "/dev/zero",
	                       .out = "/dev/mirror/gm0", .bs_text = "1m",
	                       .count = 20, .full_in = 20, .full_out = 20 };
	struct cb_report rep = { .prov = &prov, .res = res, .n = 1, .dd = &d };

	one("geli", &rep, "dd-geli.txt");
	d.ealg = "aes-xts-plain64";
	d.iv_large = 1;
	d.provider = "/dev/sdX";
	one("cryptsetup", &rep, "dd-cryptsetup.txt");
	d.count = UINT64_MAX;
	one("dd", &rep, "dd-dd.txt");
}

/* bench's one-screen summary and its ct section, from the same results. */
static void summary(const struct cb_result *res, size_t n)
{
	char *files[1] = { DIR "results.csv" }, *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct rpt r;

	(void)res;
	(void)n;
	checkf(rpt_load(&r, files, 1, NULL) == 0, "%s read", files[0]);
	bench_summary(f, &r, 100);
	bench_summary_ct(f, &r, "ct.csv", 100);
	bench_summary(f, &r, 60);
	fclose(f);
	against("summary.txt", out, len);
	free(out);
	rpt_free(&r);
}

int main(void)
{
	static struct cb_result res[32];
	size_t n = fill(res);
	struct cb_report rep = { .prov = &prov, .res = res, .n = n, .sec = 0.5,
	                         .sample_sec = 0.002, .warmup = 0.1,
	                         .command = "cryptobench speed --golden \"x\"" };

	one("csv", &rep, "results.csv");
	one("json", &rep, "results.json");
	one("table", &rep, "table.txt");
	rep.n = 11;                     /* the speed rows */
	one("tcrypt", &rep, "tcrypt.txt");
	one("cryptsetup", &rep, "cryptsetup.txt");
	rep.cycles = 1;
	one("tcrypt", &rep, "tcrypt-cycles.txt");
	dd_writers(&res[11]);
	summary(res, n);
	return finish();
}
