/*
 * speed_opts.c - the one option table of `speed` and `bench` and what the
 * two commands share around it: defaults, the checks across options, -o
 * that never overwrites unasked, and handing the results to a writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cb.h"
#include "output/output.h"
#include "measure/plan.h"
#include "measure/speed_opts.h"
#include "system/sysinfo.h"
#include "foundation/timing.h"
#include "foundation/util.h"

static const uint64_t seed_sizes[] = { 16, 64, 256, 1024, 1472, 8192 };
static const uint64_t kernel_sizes[] = { 16, 64, 128, 256, 1024, 1420, 4096 };

enum {
	OPT_BACKEND = 1, OPT_ALG, OPT_DRIVER, OPT_KEYBITS, OPT_SIZES, OPT_SEC,
	OPT_REPS, OPT_ENC, OPT_DEC, OPT_IV, OPT_SECTOR, OPT_FORMAT, OPT_OUT,
	OPT_FORCE, OPT_CYCLES, OPT_PROGRESS, OPT_NOPROGRESS, OPT_WARMUP,
	OPT_QUICK, OPT_GELI, OPT_OUTDIR, OPT_BUDGET, OPT_FULL, OPT_VERBOSE, OPT_MB,
	OPT_NOGATE, OPT_PROCESSES, OPT_PART, OPT_PARTOF, OPT_ITERTIME, OPT_CT,
};

/* The one option table: which command takes each option. */
static const struct {
	struct cb_opt opt;
	unsigned cmds;
} options[] = {
	{ { "--backend", 1, OPT_BACKEND, "B",
	    "a backend (repeatable; default: every available one)" }, CMD_SPEED | CMD_BENCH },
	{ { "-b", 1, OPT_BACKEND, NULL, NULL }, CMD_SPEED | CMD_BENCH },
	{ { "--alg", 1, OPT_ALG, "A",
	    "an algorithm or alias (repeatable; default essiv(cbc(aes),sha256) and cbc(aes))" }, CMD_SPEED },
	{ { "-a", 1, OPT_ALG, NULL, NULL }, CMD_SPEED },
	{ { "--driver", 1, OPT_DRIVER, "SUBSTR",
	    "only the implementations whose driver name contains SUBSTR" }, CMD_SPEED },
	{ { "--key-bits", 1, OPT_KEYBITS, "N,..",
	    "key sizes in bits (default: the algorithm's usual ones)" }, CMD_SPEED },
	{ { "-l", 1, OPT_KEYBITS, NULL, NULL }, CMD_SPEED },
	{ { "--sizes", 1, OPT_SIZES, "N,..|seed|kernel",
	    "request sizes, k/m suffixes (default seed: 16,64,256,1024,1472,8192; "
	    "bench: 16,256,1472,4096)" }, CMD_SPEED | CMD_BENCH },
	{ { "--sec", 1, OPT_SEC, "S",
	    "the time box of one point (default 1; bench: from the budget)" }, CMD_SPEED | CMD_BENCH },
	{ { "--reps", 1, OPT_REPS, "N",
	    "samples per point, taken round robin; the median and its 95 % CI "
	    "reported (default: --sec in samples of ~20 ms, 15 to 50; bench: "
	    "samples of 2 ms, more where the CI is wide: docs/speed.md)" }, CMD_SPEED | CMD_BENCH },
	{ { "--warmup", 1, OPT_WARMUP, "S",
	    "untimed run of each point before its samples (default --sec/10, "
	    "0.01 to 0.25)" }, CMD_SPEED },
	{ { "--encrypt", 0, OPT_ENC, NULL,
	    "encrypt only (default: both)" }, CMD_SPEED },
	{ { "--decrypt", 0, OPT_DEC, NULL,
	    "decrypt only (default: both)" }, CMD_SPEED },
	{ { "--iv", 1, OPT_IV, "per-request|once",
	    "a fresh IV per request (default, as tcrypt) or one chained stream" }, CMD_SPEED },
	{ { "--sector-size", 1, OPT_SECTOR, "S",
	    "a request is sectors of S bytes, each with its own IV" }, CMD_SPEED },
	{ { "--mb", 1, OPT_MB, "N",
	    "tcrypt's multibuffer mode: N independent requests in flight, "
	    "each its own buffer and IV (1 to 64)" }, CMD_SPEED },
	{ { "--format", 1, OPT_FORMAT, "tcrypt|table|csv|json|cryptsetup",
	    "the output format (default tcrypt; bench: the summary only, "
	    "this adds the full tables)" }, CMD_SPEED | CMD_BENCH },
	{ { "--iter-time", 1, OPT_ITERTIME, "MS",
	    "--format cryptsetup: the time the Argon2 lines' cost is found "
	    "for (default 2000, cryptsetup's)" }, CMD_SPEED },
	{ { "-o", 1, OPT_OUT, NULL, NULL }, CMD_SPEED },
	{ { "--output", 1, OPT_OUT, "FILE",
	    "write there instead of stdout (refused if FILE exists)" }, CMD_SPEED },
	{ { "--force", 0, OPT_FORCE, NULL,
	    "overwrite an existing -o FILE" }, CMD_SPEED },
	{ { "--cycles", 0, OPT_CYCLES, NULL,
	    "tcrypt's cycles form: 1 operation in N cycles (M bytes)" }, CMD_SPEED },
	{ { "--progress", 0, OPT_PROGRESS, NULL,
	    "progress and ETA on stderr (default when stderr is a terminal)" }, CMD_SPEED | CMD_BENCH },
	{ { "--no-progress", 0, OPT_NOPROGRESS, NULL,
	    "no progress lines" }, CMD_SPEED | CMD_BENCH },
	{ { "--quick", 0, OPT_QUICK, NULL,
	    "a short run: sizes 16,256,8192 and a 60 s budget" }, CMD_BENCH },
	{ { "-o", 1, OPT_OUTDIR, NULL, NULL }, CMD_BENCH },
	{ { "--out", 1, OPT_OUTDIR, "DIR",
	    "where HOST-TIME.csv, .json and the HTML report go (default "
	    "results; created if missing)" }, CMD_BENCH },
	{ { "--budget", 1, OPT_BUDGET, "S",
	    "spread S seconds over the whole matrix (default 170); the plan "
	    "is said before it starts" }, CMD_BENCH },
	{ { "--processes", 1, OPT_PROCESSES, "N",
	    "the speed passes in N processes one after the other, each its "
	    "own memory layout, their samples pooled (1 to 4, default 2)" }, CMD_BENCH },
	{ { "--part", 1, OPT_PART, "FILE",
	    "internal: run one process's share of the speed passes (the "
	    "budget) and write its rows to FILE" }, CMD_BENCH },
	{ { "--part-of", 1, OPT_PARTOF, "K/N:S",
	    "internal: that part is process K of N, the bench planned to end "
	    "S seconds from its start (its progress lines)" }, CMD_BENCH },
	{ { "--full", 0, OPT_FULL, NULL,
	    "no budget: 1 s a point, 15 dd samples of 0.2 s a geli cell "
	    "(publication runs)" }, CMD_BENCH },
	{ { "--geli", 0, OPT_GELI, NULL,
	    "only the geli matrix (and dm-crypt's two dd rows): its medians "
	    "in the seed's lines on stdout, then the files and summary" }, CMD_BENCH },
	{ { "--ct", 1, OPT_CT, "FILE",
	    "the verdicts of a ct run (cryptobench ct --format csv): its rows "
	    "go into the CSV and JSON, its findings into the summary" },
	  CMD_BENCH },
	{ { "--no-gate", 0, OPT_NOGATE, NULL,
	    "time even without known-answer vectors (refused otherwise); "
	    "the cross-check between backends still runs" }, CMD_SPEED | CMD_BENCH },
	{ { "-v", 0, OPT_VERBOSE, NULL, NULL }, CMD_BENCH },
	{ { "--verbose", 0, OPT_VERBOSE, NULL,
	    "the full per-size tables before the summary" }, CMD_BENCH },
};
#define NOPTIONS (sizeof options / sizeof options[0])

static int parse_sec(const char *opt, const char *arg, double *v)
{
	if (cb_parse_double(arg, v) < 0 || !(*v > 0) || *v > 3600) {
		cb_err("%s: '%s' is not a number of seconds above 0 (up to 3600)",
		       opt, arg);
		return -EINVAL;
	}
	return 0;
}

/* cb_parse_list, but an empty element ("16,,64") is an error too. */
static int parse_list(const char *arg, uint64_t **v, size_t *n)
{
	if (strstr(arg, ",,") || arg[0] == ',')
		return -EINVAL;
	return cb_parse_list(arg, v, n);
}

int speed_parse_sizes(struct speed_opts *o, const char *arg)
{
	const uint64_t *fixed = NULL;
	size_t nf = 0;

	free(o->sizes);
	o->sizes = NULL;
	if (!strcmp(arg, "kernel"))
		fixed = kernel_sizes, nf = sizeof kernel_sizes / sizeof kernel_sizes[0];
	else if (!strcmp(arg, "seed") || !strcmp(arg, "tcrypt"))
		fixed = seed_sizes, nf = sizeof seed_sizes / sizeof seed_sizes[0];
	if (fixed) {
		o->sizes = cb_xmalloc(nf * sizeof *o->sizes);
		memcpy(o->sizes, fixed, nf * sizeof *o->sizes);
		o->nsizes = nf;
		return 0;
	}
	if (parse_list(arg, &o->sizes, &o->nsizes) < 0) {
		cb_err("--sizes: '%s' is not a list of sizes (16,64,4k,... or "
		       "'kernel')", arg);
		return -EINVAL;
	}
	if (o->nsizes > 64) {
		cb_err("--sizes: at most 64 sizes");
		return -EINVAL;
	}
	for (size_t i = 0; i < o->nsizes; i++)
		if (!o->sizes[i] || o->sizes[i] > MAX_BUF) {
			cb_err("--sizes: %llu is not a request size (1 byte to 1 GiB)",
			       (unsigned long long)o->sizes[i]);
			return -EINVAL;
		}
	return 0;
}

static int parse_keybits(struct speed_opts *o, const char *arg)
{
	free(o->keys);
	o->keys = NULL;
	if (parse_list(arg, &o->keys, &o->nkeys) < 0 || o->nkeys > 16) {
		cb_err("--key-bits: '%s' is not a list of key sizes in "
		       "bits (128,256,...)", arg);
		return -EINVAL;
	}
	for (size_t k = 0; k < o->nkeys; k++)
		if (o->keys[k] > CB_MAX_KEY * 8) {
			cb_err("--key-bits: %llu is too large",
			       (unsigned long long)o->keys[k]);
			return -EINVAL;
		}
	return 0;
}

/* --mb N: 1 to CB_MB_MAX requests in flight. */
static int parse_mb(struct speed_opts *o, const char *arg)
{
	uint64_t v;

	if (cb_parse_u64(arg, &v) < 0 || v < 1 || v > CB_MB_MAX) {
		cb_err("--mb: '%s' is not a number of requests in flight (1 to %d)",
		       arg, CB_MB_MAX);
		return -EINVAL;
	}
	o->mb = (unsigned)v;
	return 0;
}

/* --mb against the request model: each request its own IV and buffer. */
static int check_mb(const struct speed_opts *o)
{
	if (!o->mb)
		return 0;
	if (o->iv_once || o->sector) {
		cb_err("--mb and %s exclude each other: requests in flight are "
		       "independent, each with its own IV",
		       o->iv_once ? "--iv once" : "--sector-size");
		return -EINVAL;
	}
	for (size_t i = 0; i < o->nsizes; i++)
		if (o->sizes[i] * o->mb > CB_MB_BYTES) {
			cb_err("--mb %u: %u requests of %llu bytes exceed %u MiB", o->mb,
			       o->mb, (unsigned long long)o->sizes[i],
			       CB_MB_BYTES >> 20);
			return -EINVAL;
		}
	return 0;
}

/* What is measured: backends, algorithms, keys, sizes, request model. */
static int apply_what(struct speed_opts *o, int id, const char *arg)
{
	switch (id) {
	case OPT_BACKEND:
		return cb_sel_backend(&o->sel, arg);
	case OPT_ALG:
		return cb_sel_alg(&o->sel, arg);
	case OPT_DRIVER:
		return cb_sel_driver(&o->sel, arg);
	case OPT_KEYBITS:
		return parse_keybits(o, arg);
	case OPT_SIZES:
		return speed_parse_sizes(o, arg);
	case OPT_ENC:
		o->enc = 1;
		return 0;
	case OPT_DEC:
		o->dec = 1;
		return 0;
	case OPT_IV:
		if (!strcmp(arg, "once") || !strcmp(arg, "per-request")) {
			o->iv_once = !strcmp(arg, "once");
			return 0;
		}
		cb_err("--iv: '%s' is not 'per-request' or 'once'", arg);
		return -EINVAL;
	case OPT_MB:
		return parse_mb(o, arg);
	case OPT_ITERTIME: {
		uint64_t v;

		if (cb_parse_u64(arg, &v) < 0 || !v || v > 3600000) {
			cb_err("--iter-time: '%s' is not a time in ms (1 to 3600000)",
			       arg);
			return -EINVAL;
		}
		o->iter_time_ms = (unsigned)v;
		return 0;
	}
	case OPT_SECTOR:
		if (cb_parse_size(arg, &o->sector) < 0 || !o->sector ||
		    o->sector > MAX_BUF) {
			cb_err("--sector-size: '%s' is not a sector size", arg);
			return -EINVAL;
		}
		return 0;
	}
	return 1;                   /* not one of these */
}

/* How long, and where the report goes. */
static int apply_how(struct speed_opts *o, struct speed_cli *c, int id,
                     const char *arg)
{
	uint64_t v;

	switch (id) {
	case OPT_SEC:
		c->sec_set = 1;
		return parse_sec("--sec", arg, &o->sec);
	case OPT_WARMUP:
		if (cb_parse_double(arg, &o->warmup) < 0 || o->warmup < 0 ||
		    o->warmup > 60) {
			cb_err("--warmup: '%s' is not a number of seconds (0 to 60)",
			       arg);
			return -EINVAL;
		}
		return 0;
	case OPT_REPS:
		if (cb_parse_u64(arg, &v) < 0 || v < 1 || v > CB_MAX_REPS) {
			cb_err("--reps: '%s' is not a count from 1 to %d", arg,
			       CB_MAX_REPS);
			return -EINVAL;
		}
		o->reps = (unsigned)v;
		return 0;
	case OPT_FORMAT:
		c->format_set = 1;
		if (!(c->w = cb_writer_find(arg))) {
			cb_err("--format: unknown format '%s' (tcrypt, table, csv, "
			       "json, cryptsetup)", arg);
			return -EINVAL;
		}
		return 0;
	case OPT_OUT:
		c->out_path = arg;
		return 0;
	case OPT_OUTDIR:
		c->outdir = arg;
		return 0;
	case OPT_BUDGET:
		c->budget_set = 1;
		return parse_sec("--budget", arg, &c->budget);
	case OPT_PROCESSES:
		if (cb_parse_u64(arg, &v) < 0 || v < 1 || v > 4) {
			cb_err("--processes: '%s' is not a count from 1 to 4", arg);
			return -EINVAL;
		}
		c->processes = (unsigned)v;
		return 0;
	case OPT_PART:
		c->part = arg;
		return 0;
	case OPT_PARTOF:
		if (sscanf(arg, "%u/%u:%lf", &c->proc, &c->nproc, &c->rest) != 3 ||
		    !c->proc || c->proc > c->nproc || !(c->rest >= 0)) {
			cb_err("--part-of: '%s' is not K/N:SECONDS", arg);
			return -EINVAL;
		}
		return 0;
	case OPT_CT:
		c->ct = arg;
		return 0;
	}
	return 1;
}

/* Switches without a value. */
static void apply_flag(struct speed_opts *o, struct speed_cli *c, int id)
{
	if (id == OPT_FORCE)
		c->force = 1;
	else if (id == OPT_CYCLES)
		o->cycles = 1;
	else if (id == OPT_PROGRESS)
		o->progress = 1;
	else if (id == OPT_NOPROGRESS)
		o->progress = 0;
	else if (id == OPT_QUICK)
		c->quick = 1;
	else if (id == OPT_GELI)
		c->geli_only = 1;
	else if (id == OPT_FULL)
		c->full = 1;
	else if (id == OPT_VERBOSE)
		c->verbose = 1;
	else if (id == OPT_NOGATE)
		o->no_gate = 1;
}

const struct cb_opt *speed_options(unsigned cmd)
{
	static struct cb_opt mine[2][NOPTIONS + 1];
	struct cb_opt *t = mine[cmd == CMD_BENCH];
	size_t n = 0;

	if (!t[0].name) {
		for (size_t k = 0; k < NOPTIONS; k++)
			if (options[k].cmds & cmd)
				t[n++] = options[k].opt;
		t[n] = (struct cb_opt){ NULL, 0, 0, NULL, NULL };
	}
	return t;
}

int speed_parse(unsigned cmd, int argc, char **argv, struct speed_opts *o,
                struct speed_cli *c)
{
	const struct cb_opt *mine = speed_options(cmd);
	const char *arg;
	int i = 1, id, rc;

	c->w = cb_writer_find("tcrypt");
	c->outdir = "results";
	while ((id = cb_getopt(argc, argv, &i, mine, &arg)) != -1) {
		if (id == -2)
			return -EINVAL;
		if (id == 0) {
			cb_err("%s: unexpected argument '%s'",
			       cmd == CMD_BENCH ? "bench" : "speed", arg);
			return -EINVAL;
		}
		if ((rc = apply_what(o, id, arg)) == 1 &&
		    (rc = apply_how(o, c, id, arg)) == 1) {
			apply_flag(o, c, id);
			rc = 0;
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Open -o FILE: never overwrite what the user did not ask to. */
FILE *speed_open_out(const char *path, int force)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC |
	              (force ? O_TRUNC : O_EXCL), 0644);
	FILE *f;

	if (fd < 0) {
		if (errno == EEXIST)
			cb_err("-o: '%s' exists; use --force to overwrite it", path);
		else
			cb_err("-o: cannot create '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (!(f = fdopen(fd, "w"))) {
		cb_err("-o: '%s': %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

/* Check -o before the run (so a long run does not end in an I/O error). */
int speed_check_out(const char *path, int force)
{
	struct stat st;
	char *dir = cb_xstrdup(path), *slash = strrchr(dir, '/');
	int rc = 0;

	if (slash)
		*(slash == dir ? slash + 1 : slash) = 0;
	if (stat(slash ? dir : ".", &st) < 0 || !S_ISDIR(st.st_mode)) {
		cb_err("-o: '%s': no such directory '%s'", path, slash ? dir : ".");
		rc = -ENOENT;
	} else if (stat(path, &st) == 0 && !force) {
		cb_err("-o: '%s' exists; use --force to overwrite it", path);
		rc = -EEXIST;
	} else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		cb_err("-o: '%s' is a directory", path);
		rc = -EISDIR;
	}
	free(dir);
	return rc;
}

char *speed_join_args(int argc, char **argv)
{
	size_t len = sizeof "cryptobench";
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 3;
	s = cb_xmalloc(len);
	strcpy(s, "cryptobench");
	for (int i = 0; i < argc; i++) {
		int q = strpbrk(argv[i], " ()'\"*?$,") != NULL;

		strcat(s, q ? " '" : " ");
		strcat(s, argv[i]);
		if (q)
			strcat(s, "'");
	}
	return s;
}

void speed_opts_init(struct speed_opts *o)
{
	memset(o, 0, sizeof *o);
	o->sec = 1;
	o->reps = 0;                /* from --sec: see sampling() */
	o->drift_max = CB_DRIFT_MAX;
	o->warmup = -1;
	o->visit_warm = 0.001;
	o->progress = -1;
	o->iter_time_ms = 2000;      /* cryptsetup's DEFAULT_LUKS2_ITER_TIME */
}

/*
 * --format cryptsetup: what `cryptsetup benchmark` measures, for whatever
 * the options left open (src/cryptsetup.c action_benchmark): PBKDF2 with
 * sha1, sha256, sha512, ripemd160 and both Argon2s; aes, serpent and
 * twofish in cbc (128, 256-bit keys) and xts (256, 512); requests of
 * 64 KiB (lib/crypto_backend/cipher_check.c CIPHER_BLOCK_BYTES), an IV
 * each.  0 or -EINVAL.
 */
int speed_opts_cryptsetup(struct speed_opts *o)
{
	static const char *const algs[] = {
		"cbc(aes)", "cbc(serpent)", "cbc(twofish)", "xts(aes)",
		"xts(serpent)", "xts(twofish)", "pbkdf2(hmac(sha1))",
		"pbkdf2(hmac(sha256))", "pbkdf2(hmac(sha512))",
		"pbkdf2(hmac(rmd160))", "argon2i", "argon2id", NULL,
	};

	if (!o->sel.nalgs)
		for (int i = 0; algs[i]; i++)
			if (cb_sel_alg(&o->sel, algs[i]) < 0)
				return -EINVAL;
	if (!o->keys && parse_keybits(o, "128,256,512") < 0)
		return -EINVAL;
	return o->sizes ? 0 : speed_parse_sizes(o, "65536");
}

/* Defaults for whatever the options left open; 0 or -EINVAL. */
int speed_opts_finish(struct speed_opts *o, const char *const *algs)
{
	if (!o->sel.nbackends) {
		o->all_backends = 1;
		cb_sel_all_backends(&o->sel);
	}
	if (!o->sel.nalgs)
		for (int i = 0; algs[i]; i++)
			if (cb_sel_alg(&o->sel, algs[i]) < 0)
				return -EINVAL;
	if (!o->sizes && speed_parse_sizes(o, "seed") < 0)
		return -EINVAL;
	if (!o->enc && !o->dec)
		o->enc = o->dec = 1;
	if (o->warmup < 0) {
		o->warmup = o->sec / 10;
		if (o->warmup < 0.01)
			o->warmup = 0.01;
		if (o->warmup > 0.25)
			o->warmup = 0.25;
	}
	if (o->progress < 0)
		o->progress = isatty(2);
	if (o->iv_once && o->sector) {
		cb_err("--iv once and --sector-size exclude each other: sectors "
		       "each get their own IV");
		return -EINVAL;
	}
	if (check_mb(o) < 0)
		return -EINVAL;
	if (o->keys) {
		for (size_t i = 0; i < o->sel.nalgs; i++) {
			const struct cb_sel_alg *sa = &o->sel.algs[i];
			int any = 0;

			if (sa->alg->flags & CB_F_NOKEY)
				continue;
			for (size_t k = 0; k < o->nkeys; k++)
				any |= cb_alg_key_ok(sa->alg,
				                     (unsigned)o->keys[k] * sa->key_mult);
			if (!any) {
				cb_err("--key-bits: no size given is a key size of %s "
				       "(see 'cryptobench list algs')", sa->alg->name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

void speed_free_opts(struct speed_opts *o)
{
	free(o->keys);
	free(o->sizes);
	free(o->argon);
	cb_sel_free(&o->sel);
}

/* Write the report with the writer to path (NULL: stdout). */
int speed_emit(const struct cb_writer *w, FILE *f, const char *path,
         const struct speed_opts *o, const struct cb_result *res, size_t n)
{
	struct cb_report rep = {
		.prov = cb_prov(), .res = res, .n = n, .cycles = o->cycles,
		.sec = o->until_ns ? NAN : o->sec,   /* bench: rounds, no box */
		.warmup = o->warmup, .command = o->command,
		.sample_sec = plan_sample_sec(o),
		.argon = o->argon, .nargon = o->nargon,
		.split_wall_ns = o->split_wall_ns,
	};

	if (w->write(f, &rep) < 0) {
		cb_err("writing %s: %s", path ? path : "stdout", strerror(EIO));
		return -EIO;
	}
	return 0;
}
