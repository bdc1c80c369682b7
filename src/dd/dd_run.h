/*
 * dd_run.h - a dd run as a result (dd_run.c): the gate, the result row,
 * and a run from zeros to nowhere in this process (bench's geli matrix:
 * each sample is one such run, as `cryptobench dd ... bs=1m count=N`
 * would make it, without a process of its own - docs/design.md says why).
 */
#ifndef CB_DD_RUN_H
#define CB_DD_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "core/cb.h"
#include "dd/dd_pipe.h"
#include "output/result.h"

/* The sector-transform vectors on backend b for cfg (failures to out):
 * 0 passed; CB_EXIT_FAIL a vector failed; CB_EXIT_USAGE no vectors
 * (messages printed). */
int dd_gate(const struct cb_backend *b, const struct sector_cfg *cfg,
            FILE *out);

/* The run of job on b as a result row (strings point into job->xf and
 * b; ealg: -e as given); *ops receives its records/s, the one sample
 * (r->samples points at it).  ghz: the core clock, or NaN. */
void dd_result(struct cb_result *r, const struct dd_job *j,
               const struct cb_backend *b, const struct dd_stats *st,
               const char *ealg, double ghz, double *ops);

/* One run of count 1 MiB records of zeros through a configuration, one
 * thread, nothing written: geli's -e, -l (0: default), -a (NULL: none),
 * -s (0: default) on backend (by name). */
struct dd_zero {
	const char *ealg, *aalg, *backend;
	unsigned key_bits, sector;
	uint64_t count;
	double ghz;                  /* the rows' core clock (NaN: none)       */
	int gate;                    /* run the gate first                     */
	FILE *gate_out;              /* where the gate's failures go           */
};

/* Its result, owning the strings that the transform owned. */
struct dd_zero_out {
	struct cb_result r;          /* samples NULL                          */
	double ops;                  /* records/s                             */
	char driver[256], alg[128];
};

/* 0, or -1: the backend lacks the configuration (or is unknown), the
 * gate failed or the pipeline did (messages of the last two printed), or
 * a SIGINT cut the run short (raised again once it is over, for the
 * handler the caller had). */
int dd_zero_run(const struct dd_zero *z, struct dd_zero_out *out);

#endif
