/*
 * cmd_bench.c - `cryptobench bench`: the whole matrix in a time budget.
 *
 *   1. every algorithm of the registry on every backend that has it, every
 *      key size, the request sizes (seed set, or --sizes), both directions;
 *   2. the ciphers again as 512-byte and 4096-byte sector writes and reads
 *      (dm-crypt's aes-xts-plain64 and aes-cbc-essiv:sha256 among them);
 *   3. the geli report's matrix through dd (bench_geli.c), every backend.
 *
 * --budget SECONDS (default 170: `make bench` in about 3 minutes) is
 * spread over the points: the plan is counted first and said, the dd
 * matrix runs, and each of the three speed passes gets the share of the
 * time left that its points are of all points.  A pass takes samples of
 * 2 ms round robin over all of its points until its time is spent (at
 * least ROUNDS_MIN, 12, a point in one process, ROUNDS_MIN_PART, 10, from
 * each of several), so every point gets the same number of samples
 * spread over the whole pass; the passes
 * run in --processes processes one after the other (bench_pool.c) and
 * their samples are pooled.  --full: no budget (1 s a point, 15 geli
 * samples of 0.2 s), one process.  ^C stops between
 * points and keeps what was measured.  Output: DIR/HOST-STAMP.csv and .json, an HTML report
 * (DIR/index.html, or HOST-STAMP.html when index.html exists), and the
 * one-screen summary on stdout (the full tables too with -v or
 * --format table).  --ct FILE: a ct run's rows go into the CSV and JSON
 * too, and its findings into the summary (bench_ct.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "core/cb.h"
#include "commands/cmd.h"
#include "foundation/acct.h"
#include "foundation/csv.h"
#include "foundation/stats.h"
#include "measure/measure.h"
#include "output/output.h"
#include "measure/plan.h"
#include "report/report.h"
#include "report/rpt.h"
#include "measure/speed_opts.h"
#include "system/sysinfo.h"
#include "tcrypt/tcrypt_log.h"
#include "tcrypt/tcrypt_run.h"
#include "foundation/timing.h"
#include "foundation/util.h"

#define BENCH_BUDGET    170.0   /* default: `make bench` in ~3 minutes  */
#define BENCH_SAMPLE    0.002   /* a sample: 2 ms of clean segments     */
#define ROUNDS_MIN      12      /* samples a point gets at the least,   */
#define ROUNDS_MIN_PART 10      /* ... and from each of several processes:
                                   enough for compare's test between two
                                   processes (docs/compare.md)         */
#define BENCH_SIZES     "16,256,1472,4096"  /* the default matrix's     */
#define BENCH_KDF_COST  1024    /* PBKDF2 iterations, Argon2 KiB        */
#define BENCH_WARM      0.0001  /* a visit's warm-up, at most           */
#define VISIT_COST0     0.0024  /* first guess of a visit: the sample,
                                   its warm-up, canary and clock      */
#define RESERVE         4.0     /* clock, files, report                 */

struct bench {
	struct speed_opts o, sec[2];   /* the main pass; the sector passes   */
	struct speed_cli c;
	size_t npts, nsec, ngeli;
	struct speed_plan plan[3];     /* sec[0], sec[1], o: each made once  */
	const char *names[MAX_ALGS + 1]; /* every algorithm, NULL-ended      */
	char path[3][4096];            /* csv, json, a part's rows           */
	double t0, pass_end;           /* start; this process's passes end  */
	double speed_t0, pass_sec;     /* the speed passes' start; what this
	                                  process's passes took             */
	uint64_t t0_ns;                /* when the process started          */
	int argc;
	char **argv;
	double geli_sec;               /* the geli matrix's share of the budget */
	struct cb_result *res;
	size_t nres, nfail;
	struct cb_result *dd;          /* the geli matrix's cells (bench_geli) */
	size_t ndd;
	struct cb_result *tc;        /* tcrypt's rows (their strings), copied
	                                into res too */
	size_t ntc;
	struct rpt ct;               /* --ct FILE: the ct run's rows           */
	char phase[3][64];           /* each pass's progress label            */
};

static const struct cb_opt *bench_table(void)
{
	return speed_options(CMD_BENCH);
}

const struct cb_command cb_cmd_bench = {
	.name = "bench", .run = cmd_bench, .opts_fn = bench_table,
	.synopsis = "bench [--budget S|--full] [-o DIR] [--backend B]... "
	            "[--sizes N,..|kernel] [-v]",
	.summary = "the whole matrix in a time budget: CSV, JSON, HTML report, "
	           "a one-screen summary",
	.more = "Every registry algorithm x backend x key size x request size x\n"
	        "direction; the ciphers as 512 and 4096-byte sectors; the geli\n"
	        "matrix through dd.  Writes DIR/HOST-TIME.csv and .json and an\n"
	        "HTML report (index.html, or HOST-TIME.html when one is there);\n"
	        "^C stops and keeps what was measured.  See docs/speed.md.\n",
};

/* Each pass's plan, made once (runnable points counted for the budget,
 * run as they are by run_passes). */
static void make_plans(struct bench *b)
{
	speed_plan_make(&b->sec[0], &b->plan[0]);
	speed_plan_make(&b->sec[1], &b->plan[1]);
	speed_plan_make(&b->o, &b->plan[2]);
	b->nsec = b->plan[0].runnable + b->plan[1].runnable;
	b->npts = b->plan[2].runnable;
}

/* The sector passes: the ciphers, 4096-byte requests, 512 and 4096-byte
 * sectors.  0 or -EINVAL. */
static int sector_opts(struct bench *b)
{
	static const uint64_t sectors[2] = { 512, 4096 };
	const char *ciphers[64];
	size_t n = 0;

	for (size_t i = 0; b->names[i]; i++) {
		const struct cb_alg *a = cb_alg_find(b->names[i], NULL);

		if (a && a->kind == CB_CIPHER && a->iv_len && n < 63)
			ciphers[n++] = b->names[i];
	}
	ciphers[n] = NULL;
	for (int k = 0; k < 2; k++) {
		struct speed_opts *s = &b->sec[k];

		speed_opts_init(s);
		for (size_t i = 0; i < b->o.sel.nbackends; i++)
			cb_sel_backend(&s->sel, b->o.sel.backends[i]->name);
		s->all_backends = b->o.all_backends;
		s->progress = b->o.progress;
		s->sector = sectors[k];
		s->every_key = b->o.every_key;
		s->reps = b->o.reps;
		s->sec = b->o.sec;
		s->warmup = b->o.warmup;
		s->visit_warm = b->o.visit_warm;
		if (speed_parse_sizes(s, "4096") < 0 || speed_opts_finish(s, ciphers) < 0)
			return -EINVAL;
	}
	return 0;
}

static void all_algs(struct bench *b)
{
	size_t n = 0;

	for (size_t i = 0; i < cb_nalgs && n < 63; i++)
		b->names[n++] = cb_algs[i].name;
	b->names[n] = NULL;
}

/* Options, defaults, the output directory; 0 or -EINVAL. */
static int bench_opts(int argc, char **argv, struct bench *b)
{
	struct stat st;

	speed_opts_init(&b->o);
	b->o.sec = 1;
	if (speed_parse(CMD_BENCH, argc, argv, &b->o, &b->c) < 0)
		return -EINVAL;
	/* the default matrix (docs/speed.md); --full: every key size (XTS
	 * at 384 bits too), the seed's sizes and 4096, the KDFs at each */
	b->o.every_key = b->c.full;
	b->o.kdf_cost = b->c.full ? 0 : BENCH_KDF_COST;
	if (!b->o.sizes && speed_parse_sizes(&b->o, b->c.full ? "16,64,256,1024,1472,"
	                               "4096,8192" : BENCH_SIZES) < 0)
		return -EINVAL;
	if (b->c.full && b->c.budget_set) {
		cb_err("bench: --full and --budget exclude each other");
		return -EINVAL;
	}
	if (!b->c.full && !b->c.budget_set)
		b->c.budget = b->c.quick ? 60 : BENCH_BUDGET;
	if (b->c.quick && speed_parse_sizes(&b->o, "16,256,8192") < 0)
		return -EINVAL;
	if (!b->c.full && b->o.warmup < 0)
		b->o.warmup = 0;     /* a point's first visit: batches sized */
	if (!b->c.full)
		b->o.visit_warm = BENCH_WARM;
	all_algs(b);
	if (speed_opts_finish(&b->o, b->names) < 0 || sector_opts(b) < 0)
		return -EINVAL;
	/* -o DIR: made if new (as report -o does), the options all good */
	if (stat(b->c.outdir, &st) < 0) {
		if (errno != ENOENT || mkdir(b->c.outdir, 0777) < 0) {
			cb_err("-o/--out: cannot create '%s': %s", b->c.outdir,
			       strerror(errno));
			return -EINVAL;
		}
		fprintf(stderr, "bench: created %s/\n", b->c.outdir);
	} else if (!S_ISDIR(st.st_mode)) {
		cb_err("-o/--out: '%s' is not a directory", b->c.outdir);
		return -EINVAL;
	}
	b->o.command = speed_join_args(argc, argv);
	return 0;
}

/* DIR/HOST-STAMP.{csv,json} and the other process's rows' file (hidden);
 * 0 or -1. */
static int bench_paths(struct bench *b)
{
	static const char *const ext[3] = { "csv", "json", "part.csv" };
	time_t t = time(NULL);
	char stamp[32];
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
	for (int k = 0; k < 3; k++) {
		snprintf(b->path[k], sizeof b->path[k], "%s/%s%s-%s.%s",
		         b->c.outdir, k == 2 ? "." : "", cb_prov()->host, stamp,
		         ext[k]);
		if (speed_check_out(b->path[k], 0) < 0)
			return -1;
	}
	return 0;
}

/* How many processes share the speed passes (--full: one). */
static unsigned nprocs(const struct bench *b)
{
	return b->c.full ? 1 : b->c.processes ? b->c.processes : 2;
}

/* The geli matrix (bench_geli.c): a sample is one dd run (in this
 * process) with this many seconds of data; at least GELI_ROUNDS samples a
 * cell, more while its share of the budget lasts (--full: a fixed number,
 * longer). */
#define GELI_SHARE     0.10
#define GELI_SPAWN     0.01     /* a dd run besides its data: keys, the
                                   ring's pages, its thread (13 ms
                                   measured on a busy 2-core VM)       */
#define GELI_ROUNDS(b) geli_rounds(b)
#define GELI_MAX(b)    ((b)->c.full ? 15u : 30u)

/* The share of the budget: --geli all of it. */
/* The matrix's cells: configurations x the backends that can run. */
static double geli_cells(const struct bench *b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->o.sel.nbackends; i++)
		n += cb_backend_status(b->o.sel.backends[i], NULL) == 0;
	return (double)(b->ngeli * (n ? n : 1));
}

static double geli_share(const struct bench *b)
{
	return (b->c.geli_only ? 1 : GELI_SHARE) * (b->c.budget - RESERVE);
}

/* A sample's seconds of data: 20 ms (0.2 s with --full), less when the
 * share cannot hold 6 rounds of that and a process's start-up (small
 * budgets, tests), at least 3 ms. */
static double geli_sample(const struct bench *b)
{
	double s = geli_share(b) / (geli_cells(b) * 7) - GELI_SPAWN;

	return b->c.full ? 0.2 : s > 0.02 ? 0.02 : s < 0.003 ? 0.003 : s;
}

/* Samples a cell gets at the least: 6, fewer (at least 3) when the
 * share cannot hold 9; --full 15. */
static unsigned geli_rounds(const struct bench *b)
{
	double fit = geli_share(b) / (geli_cells(b) * (geli_sample(b) +
	                                               GELI_SPAWN)) - 1;

	return b->c.full ? 15u : fit >= 6 ? 6u : fit < 3 ? 3u : (unsigned)fit;
}

/* What the matrix will take: its share, or its least rounds if more. */
static double geli_seconds(const struct bench *b)
{
	double least = geli_cells(b) * (geli_rounds(b) + 1) *
	               (geli_sample(b) + GELI_SPAWN);

	return b->c.full || least > geli_share(b) ? least : geli_share(b);
}

static void say_plan(const struct bench *b)
{
	double left = b->c.budget - RESERVE - b->geli_sec;
	double round = (double)(b->npts + b->nsec) * VISIT_COST0;
	unsigned least = nprocs(b) > 1 ? nprocs(b) * ROUNDS_MIN_PART : ROUNDS_MIN;

	if (!b->c.geli_only)
		fprintf(stderr, "bench: %zu algorithms x %zu backends: %zu points "
		        "(%s key sizes, %zu request sizes,\n       both "
		        "directions), %zu sector points (512 and 4096-byte "
		        "sectors),\n", cb_nalgs, b->o.sel.nbackends, b->npts,
		        b->c.full ? "every" : "the usual", b->o.nsizes, b->nsec);
	fprintf(stderr, "%s geli matrix %zu configurations x %zu backends "
	        "through dd: samples of %.0f ms of data,\n       one dd run each, "
	        "round robin, %u to %u a cell (about %.0f s)\n",
	        b->c.geli_only ? "bench:" : "      ", b->ngeli, b->o.sel.nbackends,
	        1e3 * geli_sample(b), GELI_ROUNDS(b), GELI_MAX(b), b->geli_sec);
	for (size_t i = 0; i < b->o.sel.nbackends; i++) {
		const char *why;

		if (cb_backend_status(b->o.sel.backends[i], &why) < 0)
			fprintf(stderr, "bench: %s is unavailable here, its rows left "
			        "out: %s\n", b->o.sel.backends[i]->name, why);
	}
	if (b->c.geli_only)
		return;
	if (b->c.full) {
		fprintf(stderr, "bench: --full: %.2f s per point, no budget\n",
		        b->o.sec);
		return;
	}
	fprintf(stderr, "bench: budget %.0f s: samples of %.0f ms, round robin, "
	        "in %u process%s one after the\n       other: %u rounds over "
	        "every point, then rounds over the points whose 95 %% CI\n"
	        "       is still wider than +-%.0f %% (about %.0f samples a point "
	        "on average)", b->c.budget, 1e3 * BENCH_SAMPLE, nprocs(b),
	        nprocs(b) > 1 ? "es" : "", nprocs(b) > 1 ? ROUNDS_MIN_PART
	        : ROUNDS_MIN, 100 * CB_STATS_NOISY, left / round);
	if (left / round < least)
		fprintf(stderr, ";\n       it does not fit: %u samples a point "
		        "need about %.0f s", least, b->c.budget - left + least * round);
	fputc('\n', stderr);
}

/* When the bench is planned to end (cb_now_ns()), 0 with --full. */
static uint64_t end_ns(const struct bench *b)
{
	return b->c.full ? 0 : b->t0_ns + (uint64_t)(b->c.budget * 1e9);
}

/* A geli progress line (the speed passes' form, measure.c): the ETA to
 * the bench's planned end, or the phase's own when that is later. */
static void geli_progress(void *arg, const struct bench_progress *p)
{
	const struct bench *b = arg;
	uint64_t now = cb_now_ns(), end = end_ns(b);
	double left = end > now ? (double)(end - now) / 1e9 : 0;
	int eta = (int)ceil(left > p->left ? left : p->left);
	char line[512], was[48] = "";

	if (p->was)
		snprintf(was, sizeof was, "  (%s: was %zu)", p->backend ?
		         "re-planned" : "planned", p->was);
	if (p->backend)
		snprintf(line, sizeof line, "[%s %zu/%zu] ETA %d:%02d  dd %s on "
		         "%s%s", p->phase, p->done, p->total, eta / 60, eta % 60,
		         p->what, p->backend, was);
	else
		snprintf(line, sizeof line, "[%s %zu/%zu] ETA %d:%02d  %s: %zu dd "
		         "runs%s", p->phase, p->done, p->total, eta / 60, eta % 60,
		         p->what, p->done, was);
	if (isatty(2))
		fprintf(stderr, "\r\033[K%.*s", cb_term_width() - 1, line);
	else
		fprintf(stderr, "%s\n", line);
	fflush(stderr);
}

static int run_geli(struct bench *b)
{
	const char *names[CB_MAX_BACKENDS];
	struct bench_geli_opts g = { .backends = names,
	        .sample_sec = geli_sample(b), .rounds = GELI_ROUNDS(b),
	        .max_rounds = GELI_MAX(b), .seconds = b->geli_sec,
	        .no_gate = b->o.no_gate, .lines = b->c.geli_only ? stdout : NULL,
	        .progress = b->o.progress ? geli_progress : NULL, .arg = b };
	size_t ok, fail;

	uint64_t t = cb_now_ns(), data = cb_acct_get(CB_ACCT_DD_DATA);

	for (size_t i = 0; i < b->o.sel.nbackends; i++)
		names[g.nbackends++] = b->o.sel.backends[i]->name;
	if (bench_geli(&g, &b->dd, &b->ndd, &ok, &fail) < 0)
		return -1;
	t = cb_now_ns() - t;
	data = cb_acct_get(CB_ACCT_DD_DATA) - data;
	cb_acct_add(CB_ACCT_DD_PROC, t > data ? t - data : 0);
	if (b->o.progress && isatty(2))
		fprintf(stderr, "\r\033[K");
	fprintf(stderr, "bench: geli matrix: %zu runs, %zu not available on "
	        "their backend (%.0f s)\n", ok, fail, cb_now_s() - b->t0);
	return 0;
}

/* One speed pass (its plan, made once) appended to b->res.  0 or -1. */
static int run_pass(struct bench *b, const struct speed_opts *o,
                    struct speed_plan *sp)
{
	struct cb_result *r = NULL;
	size_t nr = 0, nf = 0;
	int rc;

	if (bench_stopped() || !sp->runnable)
		return 0;
	rc = speed_plan_run(o, sp, &r, &nr, &nf);
	if (rc == CB_EXIT_SKIP)
		return 0;
	if (rc != CB_EXIT_OK)
		return -1;
	b->res = cb_xrealloc(b->res, (b->nres + nr) * sizeof *b->res);
	memcpy(b->res + b->nres, r, nr * sizeof *r);
	b->nres += nr;
	b->nfail += nf;
	free(r);                     /* the rows' pointers moved to b->res */
	return 0;
}

/* A pass under the budget: samples of BENCH_SAMPLE in rounds over all of
 * its points until `share` of the time left is spent. */
static void fit_pass(const struct bench *b, struct speed_opts *o, double share)
{
	double left = b->pass_end - cb_now_s();

	o->sample = BENCH_SAMPLE;
	o->reps = b->o.reps ? b->o.reps : CB_MAX_REPS;
	o->target = CB_STATS_NOISY;
	o->min_rounds = nprocs(b) > 1 || b->c.part ? ROUNDS_MIN_PART : ROUNDS_MIN;
	if (o->min_rounds > o->reps)
		o->min_rounds = o->reps;
	o->until_ns = cb_now_ns() + (uint64_t)((left > 0 ? left : 0) * share *
	                                       1e9);
}

/* The passes' progress labels, "speed K/3 (what) proc P/N", and the
 * end their ETA counts to: the bench's (a part: the one it was given). */
static void label_passes(struct bench *b)
{
	static const char *const what[3] = { "512 B sectors",
	                                     "4096 B sectors", "requests" };
	struct speed_opts *o[3] = { &b->sec[0], &b->sec[1], &b->o };
	unsigned p = b->c.part ? b->c.proc : 1;
	unsigned np = b->c.part ? b->c.nproc : nprocs(b);
	uint64_t end = b->c.part && p ? b->t0_ns + (uint64_t)(b->c.rest * 1e9)
	               : b->c.part ? 0 : end_ns(b);

	for (int k = 0; k < 3; k++) {
		if (p)
			snprintf(b->phase[k], sizeof b->phase[k], "speed %d/3 (%s) "
			         "proc %u/%u", k + 1, what[k], p, np);
		else
			snprintf(b->phase[k], sizeof b->phase[k], "speed %d/3 (%s)",
			         k + 1, what[k]);
		o[k]->phase = b->phase[k];
		o[k]->end_ns = end;
	}
}

/*
 * The sector passes, then the main pass.  Each pass is one round robin
 * over all of its points (every algorithm at once), so that a point's
 * samples spread over the whole pass and a minute when the machine was
 * busy touches every point a little instead of a few points a lot.
 */
static int run_passes(struct bench *b)
{
	size_t left = b->npts + b->nsec;

	label_passes(b);
	for (int k = 0; k < 2; k++) {
		struct speed_opts *s = &b->sec[k];
		size_t n = b->plan[k].runnable;

		if (!b->c.full)
			fit_pass(b, s, (double)n / (double)left);
		left -= n;
		if (run_pass(b, s, &b->plan[k]) < 0)
			return -1;
	}
	if (!b->c.full)
		fit_pass(b, &b->o, 1);
	if (!b->c.part)
		fprintf(stderr, "bench: sector passes done (%.0f s); %zu points\n",
		        cb_now_s() - b->t0, b->npts);
	return run_pass(b, &b->o, &b->plan[2]);
}

/* A part's time split (FILE.acct, written by the part) added to ours;
 * what the part's process took besides is its start-up and exit. */
static void pool_acct(const char *file, uint64_t wall_ns)
{
	char name[4300];
	uint64_t got = 0;
	FILE *f;

	snprintf(name, sizeof name, "%s.acct", file);
	if ((f = fopen(name, "r"))) {
		if (cb_acct_read(f, &got) < 0)
			cb_warn("bench: %s: not a time split; its time counted as "
			        "start-up", name);
		fclose(f);
	}
	unlink(name);
	cb_acct_add(CB_ACCT_START, wall_ns > got ? wall_ns - got : 0);
}

/* The budget that gives every process as long as this one's passes
 * took: the time before the passes, np of them, the reserve; the geli
 * matrix's share grows with the budget (GELI_SHARE of it). */
static double budget_for(const struct bench *b, unsigned np)
{
	double pre = b->speed_t0 - b->t0, geli = b->geli_sec;
	double need = pre + np * b->pass_sec + RESERVE;
	double shared = (pre - geli + np * b->pass_sec + RESERVE -
	                 GELI_SHARE * RESERVE) / (1 - GELI_SHARE);

	return ceil(need > shared ? need : shared);
}

/* Process k+1 of np dropped: what is lost, and the budget that keeps it. */
static void say_dropped(const struct bench *b, unsigned k, unsigned np)
{
	fprintf(stderr, "bench: warning: no time left for process %u of %u: the "
	        "samples are from %u process%s,\n       so compare cannot test "
	        "between processes (docs/compare.md) and a code\n       layout "
	        "that is slow in this one goes unseen; --budget %.0f or more "
	        "keeps\n       it (the geli matrix and start-up took %.1f s, "
	        "this process's passes %.1f s)\n", k + 1, np, k, k > 1 ? "es" : "",
	        budget_for(b, np), b->speed_t0 - b->t0, b->pass_sec);
}

/* The other processes' parts, one after the other, pooled into b->res. */
static void run_parts(struct bench *b)
{
	unsigned np = nprocs(b);
	char self[4096], file[4200], of[64];
	size_t pooled;

	if (np > 1 && cb_exe_path(self, sizeof self) < 0) {
		cb_warn("bench: cannot find my own binary: one process only");
		return;
	}
	snprintf(file, sizeof file, "%s", b->path[2]);
	for (unsigned k = 1; k < np && !bench_stopped(); k++) {
		double left = b->c.budget - RESERVE - (cb_now_s() - b->t0);
		uint64_t t = cb_now_ns();
		int rc;

		unlink(file);
		if (left / (np - k) < 1) {
			say_dropped(b, k, np);
			break;
		}
		snprintf(of, sizeof of, "%u/%u:%.3f", k + 1, np, left + RESERVE);
		rc = bench_part_spawn(self, b->argc, b->argv, file, left / (np - k),
		                      of);
		pool_acct(file, cb_now_ns() - t);
		t = cb_now_ns();
		if (rc == 0 && bench_pool(b->res, b->nres, file, &pooled) == 0)
			fprintf(stderr, "bench: process %u of %u: %zu points pooled "
			        "(%.0f s)\n", k + 1, np, pooled, cb_now_s() - b->t0);
		cb_lap(CB_ACCT_OUTPUT, &t);
		if (rc < 0)
			break;
	}
	unlink(file);
}

/* The speed passes: this process's share, then the others'. */
static int run_speed(struct bench *b)
{
	b->speed_t0 = cb_now_s();
	b->pass_end = b->speed_t0 + (b->c.budget - RESERVE - (b->speed_t0 -
	              b->t0)) / nprocs(b);
	if (run_passes(b) < 0)
		return -1;
	b->pass_sec = cb_now_s() - b->speed_t0;
	run_parts(b);
	return 0;
}

/* A part's time split, for the parent (pool_acct); 0 or -1. */
static int part_acct(const char *file)
{
	char name[4300];
	FILE *f;
	int rc;

	snprintf(name, sizeof name, "%s.acct", file);
	if (!(f = fopen(name, "w")))
		return -1;
	rc = cb_acct_write(f);
	return fclose(f) != 0 ? -1 : rc;
}

/* bench --part FILE: this process is one part of the passes; its rows
 * go to FILE, nothing else is written. */
static int run_part(struct bench *b)
{
	FILE *f;
	int rc;

	b->pass_end = b->t0 + b->c.budget;
	if (run_passes(b) < 0 || !(f = speed_open_out(b->c.part, 0)))
		return CB_EXIT_FAIL;
	rc = speed_emit(cb_writer_find("csv"), f, b->c.part, &b->o, b->res, b->nres);
	if (fclose(f) != 0)
		rc = -1;
	if (rc == 0)
		rc = part_acct(b->c.part);
	return rc < 0 ? CB_EXIT_FAIL : b->nfail ? CB_EXIT_FAIL : CB_EXIT_OK;
}

/* The results in the CSV's order: speed's (and tcrypt's), then the geli
 * matrix's; with --ct's after them for the JSON (ct, when not NULL).
 * The rows are b's (*all is only the array: free() it). */
static struct cb_result *all_results(const struct bench *b, size_t *n,
                                     int ct)
{
	struct cb_result *all = cb_xcalloc(b->nres + b->ndd + b->ct.nct + 1,
	                                   sizeof *all);

	if (b->nres)
		memcpy(all, b->res, b->nres * sizeof *all);
	if (b->ndd)
		memcpy(all + b->nres, b->dd, b->ndd * sizeof *all);
	*n = b->nres + b->ndd;
	if (ct)
		*n += bench_ct_results(&b->ct, all + *n);
	return all;
}

/* all_results(b, ct) through the writer named format into f. */
static int emit_results(struct bench *b, FILE *f, const char *path,
                        const char *format, int ct)
{
	size_t n;
	struct cb_result *all = all_results(b, &n, ct);
	int rc = speed_emit(cb_writer_find(format), f, path, &b->o, all, n);

	free(all);
	return rc;
}

/* The CSV's rows: speed's, then dd's, then --ct's (as they were). */
static int fill_csv(struct bench *b, FILE *f, const char *path)
{
	int rc = emit_results(b, f, path, "csv", 0);

	if (rc == 0 && b->ct.nct)
		rc = bench_ct_csv(f, &b->ct);
	return rc;
}

/* The JSON: the same results, with the time split so far. */
static int fill_json(struct bench *b, FILE *f, const char *path)
{
	return emit_results(b, f, path, "json", 1);
}

/* Write b->path[k] (never over a file) with fill; 0 or -1 (message). */
static int write_file(struct bench *b, int k,
                      int (*fill)(struct bench *, FILE *, const char *))
{
	FILE *f = speed_open_out(b->path[k], 0);
	int rc;

	if (!f)
		return -1;
	rc = fill(b, f, b->path[k]);
	if (fclose(f) != 0 || rc < 0) {
		cb_err("writing %s: %s", b->path[k], strerror(errno));
		return -1;
	}
	return 0;
}

/* How sure the speed points are: N of M within the target, on stdout;
 * marks: how many of the summary's figures are marked ~ (noisy). */
static void say_sure(const struct bench *b, size_t marks)
{
	size_t n = 0, sure = 0;

	for (size_t i = 0; i < b->nres; i++)
		if (b->res[i].status == CB_RES_OK && !strcmp(b->res[i].tool,
		                                             "speed")) {
			n++;
			sure += !b->res[i].noisy;
		}
	if (!n)
		return;
	printf("\n%zu of %zu speed points within +-%.0f %% (the 95 %% CI of the "
	       "median)", sure, n, 100 * CB_STATS_NOISY);
	if (sure < n && marks)
		printf(";\nthe other %zu are \"noisy\" in the JSON%s; %zu figures "
		       "above are among\nthem, marked ~", n - sure,
		       b->c.verbose || b->c.format_set ? " (~ in the full table)"
		       : "", marks);
	else if (sure < n)
		printf(";\nthe other %zu are \"noisy\" in the JSON%s; no figure "
		       "above is among them", n - sure, b->c.verbose ||
		       b->c.format_set ? " (~ in the full table)" : "");
	printf("\n");
}

/* Summary on stdout (full tables first with -v/--format table), then the
 * HTML report next to the files. */
static int summarize(struct bench *b)
{
	char *files[1] = { b->path[0] }, name[4200];
	struct cb_result *all;
	size_t nall;
	struct rpt r;
	size_t marks;
	int rc;

	cb_warn_flush();
	if (b->c.verbose || b->c.format_set)
		speed_emit(b->c.format_set ? b->c.w : cb_writer_find("table"), stdout,
		     NULL, &b->o, b->res, b->nres);
	all = all_results(b, &nall, 0);
	if (rpt_from_results(&r, cb_prov(), all, nall, b->ct.ct, b->ct.nct,
	                     b->path[0], "") != 0) {
		free(all);
		return -1;
	}
	marks = bench_summary(stdout, &r, cb_term_width());
	if (b->ct.nct)
		bench_summary_ct(stdout, &r, b->c.ct, cb_term_width());
	snprintf(name, sizeof name, "%s/index.html", b->c.outdir);
	if (access(name, F_OK) == 0) {
		const char *base = strrchr(b->path[0], '/');

		snprintf(name, sizeof name, "%.*s.html",
		         (int)strlen(base + 1) - 4, base + 1);
	} else {
		snprintf(name, sizeof name, "index.html");
	}
	say_sure(b, marks);
	rc = report_gnuplot() ? report_write(&r, files, 1, b->c.outdir, name, 0)
	     : (cb_warn("bench: no gnuplot: no HTML report (apt-get install "
	                "gnuplot-nox)"), CB_EXIT_OK);
	rpt_free(&r);
	free(all);
	fprintf(stderr, "cryptobench: results in %s and %s%s%s/%s\n", b->path[0],
	        b->path[1], rc == CB_EXIT_OK && report_gnuplot() ? ", report in "
	        : "", rc == CB_EXIT_OK && report_gnuplot() ? b->c.outdir : "",
	        rc == CB_EXIT_OK && report_gnuplot() ? name : "");
	return rc == CB_EXIT_OK ? 0 : -1;
}

/* The seconds of the n accounts k[] together. */
static double acct_s(const enum cb_acct *k, size_t n)
{
	uint64_t t = 0;

	for (size_t i = 0; i < n; i++)
		t += cb_acct_get(k[i]);
	return t / 1e9;
}

/* The closing line: the wall time, and past the budget by how much and
 * which parts of the time split took longer than planned. */
static void say_end(const struct bench *b, double wall)
{
	static const enum cb_acct dd[] = { CB_ACCT_DD_DATA, CB_ACCT_DD_PROC },
	        fix[] = { CB_ACCT_START, CB_ACCT_CLOCK, CB_ACCT_OUTPUT };
	double geli = acct_s(dd, 2), res = acct_s(fix, 3);
	double part[3] = { geli - b->geli_sec, res - RESERVE,
	                   wall - geli - res - (b->c.budget - RESERVE - b->geli_sec) };
	double had[3] = { b->geli_sec, RESERVE, b->c.budget - RESERVE - b->geli_sec };
	static const char *const what[3] = {
	        "the geli matrix (its least rounds a cell)",
	        "start-up, clock and output",
	        "the speed passes (their least rounds a point)" };
	const char *sep = ":";

	if (b->c.full || wall <= b->c.budget || bench_stopped()) {
		if (b->c.full)
			fprintf(stderr, "bench: %.0f s\n", wall);
		else
			fprintf(stderr, "bench: %.0f s (the budget: %.0f s)\n", wall,
			        b->c.budget);
		return;
	}
	fprintf(stderr, "bench: %.0f s, %.1f s over the budget of %.0f s; longer "
	        "than planned", wall, wall - b->c.budget, b->c.budget);
	for (int k = 0; k < 3; k++)
		if (part[k] > 0.05) {
			fprintf(stderr, "%s %s %.1f s (%.1f planned)", sep, what[k],
			        had[k] + part[k], had[k] > 0 ? had[k] : 0);
			sep = ",";
		}
	fprintf(stderr, "%s\n", *sep == ':' ? ": no one part (the split above)"
	        : "");
}

/*
 * The kernel's in-kernel timing beside its AF_ALG rows (docs/kernel.md):
 * tcrypt's cycle count (sec=0, a few seconds) of the seed's algorithms
 * and XTS, when the kernel backend is measured and root and the module
 * let it run.
 */
static void run_tcrypt(struct bench *b)
{
	struct tc_req r = { .algs = { "essiv(cbc(aes),sha256)", "cbc(aes)",
	                              "xts(aes)" }, .nalgs = 3, .sec = 0 };
	const struct cb_backend *k = cb_backend_find("kernel");
	const char *why;
	size_t i;

	for (i = 0; i < b->o.sel.nbackends && b->o.sel.backends[i] != k; i++)
		;
	if (!k || i == b->o.sel.nbackends || cb_backend_status(k, &why) < 0)
		return;
	if (tc_available(&why) < 0) {
		fprintf(stderr, "bench: the kernel's tcrypt not run: %s\n", why);
		return;
	}
	if (tc_run(&r, NULL, &b->tc, &b->ntc) != CB_EXIT_OK) {
		fprintf(stderr, "bench: the kernel's tcrypt failed: its rows left "
		        "out\n");
		return;
	}
	b->res = cb_xrealloc(b->res, (b->nres + b->ntc) * sizeof *b->res);
	memcpy(b->res + b->nres, b->tc, b->ntc * sizeof *b->res);
	b->nres += b->ntc;
}

int cmd_bench(int argc, char **argv)
{
	struct bench *b = cb_xcalloc(1, sizeof *b);
	int rc = CB_EXIT_USAGE;

	uint64_t t = cb_now_ns(), age = cb_proc_age_ns();

	b->t0 = cb_now_s();
	b->t0_ns = t - age;            /* the split counts from exec */
	b->argc = argc;
	b->argv = argv;
	cb_acct_add(CB_ACCT_START, age);
	if (bench_opts(argc, argv, b) < 0 ||
	    (b->c.ct && !b->c.part && bench_ct_load(b->c.ct, &b->ct) < 0))
		goto out;
	cb_warn_hold(1);               /* each warning once, with a count */
	make_plans(b);
	if (b->c.part) {
		cb_stop_on_sigint();
		rc = run_part(b);
		goto out;
	}
	if (bench_paths(b) < 0)
		goto out;
	b->ngeli = bench_geli_configs();
	b->geli_sec = geli_seconds(b);
	say_plan(b);
	cb_stop_on_sigint();
	cb_lap(CB_ACCT_START, &t);
	cb_prov_measure_ghz();
	if (run_geli(b) < 0 || (!b->c.geli_only && run_speed(b) < 0))
		goto out;
	if (!b->c.geli_only)
		run_tcrypt(b);
	if (bench_stopped())
		fprintf(stderr, "bench: interrupted: writing what was measured\n");
	t = cb_now_ns();
	if (write_file(b, 0, fill_csv) < 0 || summarize(b) < 0)
		goto out;
	cb_lap(CB_ACCT_OUTPUT, &t);
	b->o.split_wall_ns = cb_now_ns() - b->t0_ns;
	if (write_file(b, 1, fill_json) < 0)
		goto out;
	cb_lap(CB_ACCT_OUTPUT, &t);
	cb_acct_print(stderr, cb_now_ns() - b->t0_ns);
	say_end(b, (cb_now_ns() - b->t0_ns) / 1e9);
	rc = b->nfail ? CB_EXIT_FAIL : CB_EXIT_OK;
out:
	cb_warn_flush();
	speed_free_results(b->res, b->nres);
	bench_geli_free(b->dd, b->ndd);
	for (int k = 0; k < 3; k++)
		speed_plan_free(&b->plan[k]);
	tc_free(b->tc, b->ntc);
	rpt_free(&b->ct);
	free((void *)b->o.command);
	speed_free_opts(&b->o);
	speed_free_opts(&b->sec[0]);
	speed_free_opts(&b->sec[1]);
	free(b);
	return rc;
}
