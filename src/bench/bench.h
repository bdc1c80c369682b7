/*
 * bench.h - the pieces of `cryptobench bench` besides speed's planner and
 * timing: the geli matrix through dd (bench_geli.c), the one-screen
 * summary (summary.c) and a ct run's verdicts taken in (bench_ct.c).
 * cmd_bench.c puts them together under a budget.
 */
#ifndef CB_BENCH_H
#define CB_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/rpt.h"

struct cb_result;

/* A progress update of the geli matrix: in phase (calibration, then
 * samples), done of total dd runs; total re-planned from was (0: not);
 * left: the phase's seconds still to come, estimated; backend NULL: the
 * phase's last update (done == total), what says how it ended. */
struct bench_progress {
	const char *phase;
	size_t done, total, was;
	double left;
	const char *backend, *what;
};

struct bench_geli_opts {
	const char *const *backends;
	size_t nbackends;
	double sample_sec;           /* a sample's data, in seconds of dd      */
	unsigned rounds;             /* samples a cell at the least ...        */
	unsigned max_rounds;         /* ... and at most                        */
	double seconds;              /* rounds go on until this is spent       */
	int no_gate;                 /* no sector-transform gate (--no-gate)    */
	FILE *lines;                 /* non-NULL: print each cell's median as
	                                the geli/cryptsetup/dd lines, in the
	                                seed's layout (bench --geli)            */
	void (*progress)(void *arg, const struct bench_progress *p);
	void *arg;
};

/* How many configurations the matrix has (17: the seed's). */
size_t bench_geli_configs(void);
/* Run the matrix on every backend, each configuration a cell: a
 * calibrating run sizes each cell's samples (sample_sec of data), then
 * rounds of one dd run a cell (in this process, dd_run.c), round robin,
 * give every cell the same number of samples spread over the whole time.
 * The cells' results (median of the samples, its CI, the raw samples)
 * into *res (bench_geli_free), *nres of them; *nok cells measured, *nfail
 * that could not run (the backend lacks the cipher).  0. */
int bench_geli(const struct bench_geli_opts *g, struct cb_result **res,
               size_t *nres, size_t *nok, size_t *nfail);
void bench_geli_free(struct cb_result *res, size_t n);

/* One CSV row as a result (bench_pool.c): identity, status, rates,
 * times, clock drift and contention (strings point into c); not the
 * samples. */
struct cb_csv;
struct cb_csv_rec;
void bench_csv_result(const struct cb_csv *c, const struct cb_csv_rec *row,
                      struct cb_result *r);

/*
 * Several processes (bench_pool.c): run `cryptobench bench ARGS --part
 * FILE --budget S --part-of PARTOF` (self: this binary; PARTOF "K/N:S",
 * its progress lines' process and the bench's end) and wait; then pool the samples of
 * FILE's rows into the same points of res (n of them).  0, or -1
 * (message printed; res keeps what it had).
 */
int bench_part_spawn(const char *self, int argc, char **argv,
                     const char *file, double budget, const char *partof);
int bench_pool(struct cb_result *res, size_t n, const char *file,
               size_t *pooled);

/* 1 once SIGINT was seen (cb_stop, util.h). */
int bench_stopped(void);

/* The one-screen summary of r, at most width (<= 100) columns; returns
 * how many of its figures are marked "~" (noisy). */
size_t bench_summary(FILE *f, const struct rpt *r, int width);
/* bench --ct FILE: "Constant time (from FILE):" - the count of each
 * verdict among r's ct rows, then every implementation with a
 * secret-dependent one, a line each, within width (<= 100) columns. */
void bench_summary_ct(FILE *f, const struct rpt *r, const char *from,
                      int width);

/*
 * bench --ct FILE (bench_ct.c).  Load: FILE read into *r and checked
 * (rpt.c), at least one ct row; 0, or -1 after a message naming FILE
 * (and line).  Then its ct rows into the bench's CSV (laid out by the
 * bench's header; 0 or -EIO), and as results for the JSON (res has room
 * for r->nct; strings point into *r): how many.
 */
int bench_ct_load(const char *path, struct rpt *r);
int bench_ct_csv(FILE *f, const struct rpt *r);
size_t bench_ct_results(const struct rpt *r, struct cb_result *res);

#endif
