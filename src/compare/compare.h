/*
 * compare.h - the pieces of `cryptobench compare`, one layer each:
 *
 *   compare_match.c    what a point is: its key and implementation (native's
 *                      code path is not part of it), the fastest per side
 *                      when a key stands for several, and what is said of
 *                      the points that matched nothing;
 *   compare_points.c   result files -> points (rows selected, folded by
 *                      key, repeated runs' median), and pairing the points
 *                      of BASE and NEW; ct rows apart, paired too;
 *   compare_verdict.c  the verdict on one pair of points (or ct rows);
 *   compare_noise.c    how noisy the runs were, what change they could see;
 *   compare_write.c    the table, the CSV and the --dump view;
 *   compare_fleet.c    groups of a fleet against a baseline group;
 *   compare_ref.c      --reference: a host placed among the reference
 *                      library, one table per cryptsetup benchmark line;
 *   compare_run.c      a whole comparison from a job: the selections,
 *                      BASE against NEW, --dump (the command and the
 *                      report both call it);
 *   commands/cmd_compare.c  the command: options -> a job.
 *
 * Each file uses only the ones listed above it.  docs/compare.md is the
 * user-facing description.
 */
#ifndef CB_COMPARE_H
#define CB_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "foundation/csv.h"

/*
 * Key columns that may be absent (older or narrower files) and the value
 * an absent or empty one stands for.
 */
struct cmp_keydef {
	const char *col;
	const char *dflt;
	const char *label;       /* table heading                               */
};
extern const struct cmp_keydef cmp_kd_tool, cmp_kd_iv, cmp_kd_sector,
                               cmp_kd_thr, cmp_kd_auth;
/* The value a --by column stands for when a file lacks it (cpu_level:
 * "max", what a run without --cpu measures), or NULL: it must exist. */
const char *cmp_by_default(const char *bycol);

/* One point: a key and the runs measured for it in one file (or set). */
#define CMP_MAX_PROCS 16     /* processes a point's samples come from */

struct cmp_point {
	const char *group;       /* value of the --by column, "" for none       */
	const char *tool, *alg, *direction, *backend, *driver, *iv_mode, *auth;
	uint64_t key_bits, block_bytes, sector_bytes, threads;
	const char *host, *cpu_model, *backend_version;  /* of the first run    */
	const char *status;      /* "ok" if any run was measured                */
	const char *why;         /* of the first unmeasured run, or ""          */
	double *bps, *spread;    /* measured runs: bytes/s and rel_spread        */
	size_t n, cap;
	double *samples;         /* raw ops/s of every run (sample_ops), pooled */
	size_t nsamples;
	size_t proc[CMP_MAX_PROCS]; /* samples of each process, in order     */
	size_t nprocs;           /* (a run's sample_procs; else one per run)   */
	double shared;           /* share of timed segments shared (csv-4), NaN */
	unsigned ignored;        /* --ignore's columns, left out of the match   */
	size_t nimpl;            /* implementations it is the fastest of (>= 1) */
	double median;           /* bytes/s, median of the runs                  */
	double rel_spread;       /* see point_finish()                          */
	size_t first;            /* order of the first run in the input          */
	struct cmp_point *match; /* the other file's point, or NULL              */
};

/*
 * A ct row (tool "ct", cryptobench-csv-5): one implementation's
 * constant-time verdict at a CPU level.  Never a point (speeds never see
 * it): the ct rows of BASE and NEW are matched on their own, by group,
 * backend, driver, algorithm, key size and CPU level; an implementation
 * with several rows in one file keeps its worst verdict.
 */
struct cmp_ct {
	const char *group;       /* value of the --by column, "" for none       */
	const char *backend, *driver, *alg, *level, *host;
	uint64_t key_bits;
	int v;                   /* index into cb_ct_verdicts (result.h)         */
	size_t first;            /* order of the first row in the input          */
	struct cmp_ct *match;    /* the other file's, or NULL                    */
};

/* A row selection (--host, --where and their one-side forms). */
struct cmp_filter {
	unsigned sides;          /* 1 BASE, 2 NEW (3 both); dump counts as 1     */
	char *col;
	char op;                 /* '=' exact, '~' case-insensitive substring   */
	const char *val;
};

/* What selects rows and what the match leaves out. */
struct cmp_select {
	struct cmp_filter *flt;
	size_t nflt;
	unsigned ignored;        /* bit i: cmp_ignorable[i] is not matched on   */
	int allow_missing;       /* --allow-missing: gone from NEW is no finding */
};

/* --ignore: key columns that may be left out of the match. */
extern const char *const cmp_ignorable[];

/* One side of the comparison: its files and their points. */
struct cmp_side {
	const char *label;       /* "BASE", "NEW"                               */
	unsigned sidebit;        /* 1 BASE, 2 NEW (matches cmp_filter.sides)     */
	struct cb_csv *csv;      /* one per file                                 */
	const char *const *paths;
	size_t nfiles;
	struct cmp_point *pts;
	size_t npts;
	const char **hosts;      /* distinct hosts of the selected rows          */
	size_t nhosts;
	size_t nrows;            /* rows selected (ct rows not counted)          */
	struct cmp_ct *ct;       /* the ct rows selected, folded                 */
	size_t nct, nctrows;
};

/* "ok" for an absent, empty or "ok" status, else the status. */
const char *cmp_status_of(const char *s);
/* Add --ignore's list ("backend,driver"); 0 or -EINVAL after a message. */
int cmp_parse_ignore(struct cmp_select *sel, const char *arg);
/*
 * Read the files of one side and check them against the schema (and the
 * selection's columns).  Prints its own messages; returns 0 or a negative
 * errno.
 */
int cmp_side_load(struct cmp_side *s, const struct cmp_select *sel);
/*
 * Select rows and fold them into points (again, if called twice); bycol is
 * the grouping column or NULL.  Prints its own messages; 0 or -errno.
 */
int cmp_side_points(struct cmp_side *s, const struct cmp_select *sel,
                    const char *bycol);
/* -EINVAL with a message when a selection left the side without rows. */
int cmp_side_empty(const struct cmp_side *s, const struct cmp_select *sel);
void cmp_side_free(struct cmp_side *s);
/* Pair up the points of equal keys (sets each point's match), and the
 * ct rows of equal keys. */
void cmp_match_points(struct cmp_side *b, struct cmp_side *n);

/* ---- what a point is (compare_match.c) ---------------------------------- */

/*
 * The implementation a driver name stands for: native's code path left
 * out ("xts-aes-native-vaes256" -> "xts-aes-native", in compositions
 * too), every other name as it is.  Into buf; returns buf.
 */
const char *cmp_impl_name(const char *driver, char *buf, size_t len);
/* The code path(s) a driver name carries ("vaes256"), "" for none. */
const char *cmp_impl_path(const char *driver, char *buf, size_t len);
/*
 * The one matching rule of compare (and so of report): the order of two
 * points' keys - group, tool, alg, key size, block size, direction,
 * backend, implementation (cmp_impl_name), IV mode, auth, sector size,
 * threads - leaving out the columns of ignored (bits of cmp_ignorable);
 * with CMP_KEY_EXACT among them, drivers compare as written (the order
 * repeated runs are folded in, native's code paths apart).
 */
#define CMP_KEY_EXACT 16u
int cmp_key_cmp(const struct cmp_point *a, const struct cmp_point *b,
                unsigned ignored);
/*
 * Several points of one side with one key (--ignore's columns, or two
 * code paths of native in one file): keep the fastest of them, never a
 * median over implementations; the kept one's nimpl says of how many.
 */
void cmp_keep_fastest(struct cmp_side *s);
/*
 * After matching: the implementations and algorithms of BASE that NEW
 * lacks (each a finding, unless --allow-missing), and, when points of
 * the two sides differ only in columns --ignore can leave out, which
 * and how.  Prints to f; returns the findings that fail the comparison.
 */
size_t cmp_print_missing(FILE *f, const struct cmp_side *b,
                         const struct cmp_side *n,
                         const struct cmp_select *sel);

/* ---- verdicts (compare_verdict.c) --------------------------------------- */

/*
 * Verdicts.  Pairs with raw samples on both sides (CMP_MIN_SAMPLES each)
 * get the statistical ones (faster, SLOWER, same, inconclusive); the rest
 * fall back to the spread rule (improved, REGRESSION, same, noise).
 * REGRESSION, SLOWER and FAILED make compare exit 1.
 */
enum cmp_verdict { V_SAME, V_IMPROVED, V_NOISE, V_REGRESSION, V_FAILED,
                   V_SKIPPED, V_RECOVERED, V_UNMEASURED, V_FASTER, V_SLOWER,
                   V_INCONCLUSIVE, V_UNSURE, V_NVERDICTS };

#define CMP_MIN_SAMPLES 3      /* fewer on a side: the spread rule          */
#define CMP_THRESHOLD   2.5    /* the default --threshold, percent: between
                                  what bench resolves (+-2 % at 94 % of the
                                  points of a quiet host) and a 5 % change
                                  (docs/compare.md, make bench-power)       */
#define CMP_ALPHA       0.05   /* false discovery rate (BH) over the pairs,
                                  or family-wise (--holm)            */
#define CMP_NBOOT       1000   /* bootstrap resamples for the ratio's CI     */

/* Verdict names in the table and in CSV output. */
extern const char *const cmp_verdict_table[V_NVERDICTS];
extern const char *const cmp_verdict_csv[V_NVERDICTS];

struct cmp {
	const struct cmp_point *b, *n;
	enum cmp_verdict v;
	double ratio, change, noise;   /* change and noise in percent */
	int tested;                    /* the statistical rule applies         */
	int by_process;                /* ... tested process by process        */
	double proc_hw;                /* ... its process pairs' ratios' half-
	                                  range, % of the ratio; else NaN       */
	double ci_lo, ci_hi;           /* 95 % CI of the ratio (tested)         */
	double p, p_adj;               /* Mann-Whitney p, adjusted (BH, Holm)  */
};

/*
 * The verdict on a matched pair; threshold in percent.  A tested pair's
 * verdict needs every pair's p: it is set by cmp_decide().
 */
struct cmp cmp_judge(const struct cmp_point *b, const struct cmp_point *n,
                     double threshold);
/* Adjust the tested pairs' p over all of c[0..nc) (Benjamini-Hochberg,
 * or Holm after cmp_adjust_holm(1)) and set their verdicts; returns how
 * many pairs were tested. */
size_t cmp_decide(struct cmp *c, size_t nc, double threshold);
/* compare --holm: Holm's family-wise adjustment from now on; and the
 * adjustment's name for the method line ("Benjamini-Hochberg", "Holm"). */
void cmp_adjust_holm(int on);
const char *cmp_adjust_name(void);
/* 1 when the verdict fails the comparison (exit 1). */
int cmp_is_bad(enum cmp_verdict v);

/*
 * A matched pair of ct rows: the same verdict, WORSE (clean or timing-only
 * in BASE, a secret-dependent verdict in NEW: a regression, exit 1 as a
 * SLOWER point), better (the other way) or changed (any other change:
 * constant-time to no timing leak found, one leak for another, not
 * checked on either side).
 */
enum cmp_ct_change { CMP_CT_SAME, CMP_CT_WORSE, CMP_CT_BETTER, CMP_CT_CHANGED,
                     CMP_CT_NCHANGES };
extern const char *const cmp_ct_change_table[CMP_CT_NCHANGES];
extern const char *const cmp_ct_change_csv[CMP_CT_NCHANGES];

struct cmp_ctpair {
	const struct cmp_ct *b, *n;
	enum cmp_ct_change v;
};

/* The matched ct rows of b (in BASE's order) judged into out (room for
 * b->nct); returns how many. */
size_t cmp_ct_judge(const struct cmp_side *b, struct cmp_ctpair *out);

/* ---- how noisy (compare_noise.c) ---------------------------------------- */

/*
 * "noise: ..." - the share of timed segments each side's bench found
 * shared with another tenant (the `shared` column), and the half-width of
 * the tested ratios' 95 % CIs at half and at 90 % of the points: the size
 * of change the comparison could see.  Nothing when neither is known.
 */
void cmp_print_noise(FILE *f, const struct cmp_side *b,
                     const struct cmp_side *n, const struct cmp *c,
                     size_t nc, double threshold);

/* ---- output (compare_write.c) ------------------------------------------- */

void cmp_print_table(FILE *f, const struct cmp_side *b,
                     const struct cmp_side *n, const struct cmp *c, size_t nc,
                     const char *bycol, double threshold);
/* The constant-time section after the table (when either side has ct
 * rows): how many matched, then a line per changed verdict,
 * "ct: openssl cbc(aes) at --cpu generic: constant-time -> ..." (the
 * --by column's value first when bycol is not NULL). */
void cmp_print_ct(FILE *f, const struct cmp_side *b, const struct cmp_side *n,
                  const struct cmp_ctpair *ct, size_t nct, const char *bycol);
/* --format csv: the header (the first column named bycol, or "group"),
 * then the rows of the pairs and of the points only one side has, then a
 * row per changed ct verdict (tool ct, verdict ct-worse, ...). */
void cmp_print_csv_header(FILE *f, const char *bycol);
void cmp_print_csv(FILE *f, const struct cmp_side *b, const struct cmp_side *n,
                   const struct cmp *c, size_t nc);
void cmp_print_ct_csv(FILE *f, const struct cmp_ctpair *ct, size_t nct);
/* "LEAD: N matched: " and the counts of the verdicts; only[] = points
 * only in BASE, only in NEW; then, with ct pairs, "; ct: N matched: .."
 * and their counts. */
void cmp_print_summary(FILE *f, const char *lead, const struct cmp *c,
                       size_t nc, const struct cmp_ctpair *ct, size_t nct,
                       const size_t only[2], double threshold);
/* --dump: the measured points of s as tab-separated values. */
void cmp_print_dump(FILE *f, const struct cmp_side *s);

/* ---- a whole comparison (compare_fleet.c, compare_run.c) ---------------- */

/* What to compare and where the output goes. */
struct cmp_job {
	const char *const *paths[2];  /* BASE's files, NEW's (fleet, dump: [0]) */
	size_t npaths[2];
	const struct cmp_select *sel;
	const char *by;          /* cmp_run: "auto", "none" or a column;
	                            cmp_fleet: the column                     */
	const char *baseline;    /* cmp_fleet: the group the others meet       */
	double threshold;        /* percent                                    */
	int csv_out;             /* --format csv                               */
	FILE *out;               /* the table, or the CSV rows                 */
	FILE *sum;               /* --format csv: the summary line (stderr), or
	                            NULL for none; a table has it in out       */
};

/*
 * Split the rows of paths[0] by by and compare every group with the group
 * whose value is baseline (filters of side 1 select in the baseline, of
 * side 2 in the others).  Prints a table (or CSV rows) per group and a
 * last summary line; returns the exit status.
 */
int cmp_fleet(const struct cmp_job *j);

/* A selection: COL of length collen, op '=' or '~', val (kept, not
 * copied) on sides (1 BASE, 2 NEW, 3 both). */
void cmp_add_filter(struct cmp_select *sel, unsigned sides, const char *col,
                    size_t collen, char op, const char *val);
/* "COL=VALUE" or "COL~TEXT" (--where); 0 or -EINVAL after a message. */
int cmp_parse_where(struct cmp_select *sel, unsigned sides, const char *arg);
void cmp_select_free(struct cmp_select *sel);
/* fn(j) with a text table's lines fitted to 120 columns: longer ones
 * (prose) broken at spaces, but for the summary lines ("N matched: ",
 * one line for scripts); with --format csv fn(j) itself. */
int cmp_fitted(const struct cmp_job *j, int (*fn)(const struct cmp_job *));
/* BASE (paths[0]) against NEW (paths[1]): the table or CSV into j->out,
 * the summary; returns the exit status (CB_EXIT_SKIP: nothing matched,
 * message printed). */
int cmp_run(const struct cmp_job *j);
/* --dump: the points of paths[0] into j->out; the exit status. */
int cmp_dump(const struct cmp_job *j);

/* ---- --reference (compare_ref.c) ----------------------------------------- */

/* The reference library: $CRYPTOBENCH_REFERENCE, results/reference/
 * beside the binary, or the installed one. */
const char *cmp_ref_default_dir(void);
/* The host's result files: one side, its points from all of them (a
 * bench CSV and the host's imported `cryptsetup benchmark`, say). */
struct cmp_ref_host {
	const char *const *paths;
	size_t n;
};
/* Place the host's points among dir's files (NULL: the default) on out,
 * as tables or (csv) one CSV; the exit status: 0 placed, 2 a bad file or
 * directory, 77 none placed. */
int cmp_reference(const char *dir, const struct cmp_ref_host *host, int csv,
                  FILE *out);
/* One line placed, for the report's chart "this host among N CPUs". */
struct cmp_ref_bar {
	char label[96], source[96];
	double v;
	int host;
};
struct cmp_ref_chart {
	char dir[4096], title[48];  /* title: the line's name */
	char impl[160];          /* the host's backend and driver, stand-in or not */
	const char *unit;
	struct cmp_ref_bar *bars;  /* fastest first; free() it */
	size_t nbars, nsrcs;
};
/* 0, -ENOENT when no line could be placed, or -EINVAL after a message. */
int cmp_ref_chart(const char *dir, const char *hostpath,
                  struct cmp_ref_chart *c);

#endif
