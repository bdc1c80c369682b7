/*
 * speed_opts.h - the one option table of `speed` and `bench`, its parser,
 * the defaults, and the -o / report plumbing both commands share.  The
 * command files (cmd_speed.c, cmd_bench.c) only turn these into calls.
 */
#ifndef CB_SPEED_OPTS_H
#define CB_SPEED_OPTS_H

#include <stdio.h>

#include "output/output.h"
#include "output/result.h"
#include "measure/speed.h"

/* Which command an option belongs to (a mask in the table). */
enum { CMD_SPEED = 1, CMD_BENCH = 2 };

/* What the options say besides struct speed_opts. */
struct speed_cli {
	const struct cb_writer *w;  /* speed --format (default tcrypt)      */
	const char *out_path;       /* speed -o FILE, or NULL: stdout       */
	const char *outdir;         /* bench --out DIR (default results)    */
	int force;                  /* --force                              */
	int quick;                  /* bench --quick                        */
	int geli_only;              /* bench --geli: the dd matrix alone     */
	int sec_set;                /* --sec given                          */
	int format_set;             /* --format given                       */
	double budget;              /* bench --budget SECONDS               */
	int budget_set;
	int full;                   /* bench --full: no budget              */
	int verbose;                /* bench -v: the full tables too        */
	unsigned processes;         /* bench --processes N (0: default)     */
	const char *part;           /* bench --part FILE: a worker          */
	unsigned proc, nproc;       /* --part-of K/N:S: process K of N ...  */
	double rest;                /* ... the bench's end S s after start  */
	const char *ct;             /* bench --ct FILE: a ct run's verdicts */
};

/* Defaults for every option. */
void speed_opts_init(struct speed_opts *o);

/* Parse argv (argv[0]: the command name) for command cmd; 0 or -EINVAL
 * (message printed). */
/* The options cmd (CMD_SPEED or CMD_BENCH) takes, as a cb_getopt table. */
const struct cb_opt *speed_options(unsigned cmd);
int speed_parse(unsigned cmd, int argc, char **argv, struct speed_opts *o,
                struct speed_cli *c);

/* Defaults for whatever the options left open (algs: NULL-terminated);
 * 0 or -EINVAL. */
int speed_opts_finish(struct speed_opts *o, const char *const *algs);

/* --format cryptsetup's defaults (cryptsetup benchmark's set); 0 or
 * -EINVAL. */
int speed_opts_cryptsetup(struct speed_opts *o);

/* --sizes: a list, "seed"/"tcrypt" or "kernel"; 0 or -EINVAL. */
int speed_parse_sizes(struct speed_opts *o, const char *arg);

void speed_free_opts(struct speed_opts *o);

/* The command line as one string, quoted where the shell needs it. */
char *speed_join_args(int argc, char **argv);

/* -o FILE: check before the run, create after it; never overwrite what
 * the user did not ask to. */
int speed_check_out(const char *path, int force);
FILE *speed_open_out(const char *path, int force);

/* Write the report with writer w to f (path: NULL for stdout); 0 or -EIO. */
int speed_emit(const struct cb_writer *w, FILE *f, const char *path,
         const struct speed_opts *o, const struct cb_result *res, size_t n);

#endif
