/*
 * acct.h - where a run's wall time goes.  The timing engine, the
 * measuring loop (measure.c) and bench add the nanoseconds each part of
 * the work took to one of a few accounts; bench prints the split at its
 * end and writes it into its JSON, so that a reader sees how much of the
 * budget was measurement (timed samples) and how much was not.  Process-wide; not thread-safe
 * (the measuring thread alone adds to it).
 */
#ifndef CB_ACCT_H
#define CB_ACCT_H

#include <stdint.h>
#include <stdio.h>

enum cb_acct {
	CB_ACCT_SAMPLE,    /* timed segments that count in a sample          */
	CB_ACCT_SHARED,    /* timed segments left out: the core was shared,
	                      or the thread was switched out                  */
	CB_ACCT_GAPS,      /* between segments: canary, switch count, clock  */
	CB_ACCT_WARM,      /* each visit's warm-up and runner set-up          */
	CB_ACCT_CALIB,     /* a point's first warm-up, sizing its batches     */
	CB_ACCT_CLOCK,     /* core clock readings (dependent-add loop)        */
	CB_ACCT_GATE,      /* keys, known-answer vectors, cross-check         */
	CB_ACCT_START,     /* process start-up and exit, plug-ins, planning   */
	CB_ACCT_DD_DATA,   /* the geli matrix: dd's timed data                */
	CB_ACCT_DD_PROC,   /* ... the dd runs besides their data: keys, gate,
	                      ring, thread                                    */
	CB_ACCT_OUTPUT,    /* files, summary, HTML report                     */
	CB_ACCT_N
};

/* Add ns to account k. */
void cb_acct_add(enum cb_acct k, uint64_t ns);
/* The nanoseconds of account k so far. */
uint64_t cb_acct_get(enum cb_acct k);
/* "KEY NS" lines of every account (a part process's file), and back:
 * each line read is added, *total the sum added.  0, or -1 with a bad
 * line (nothing added). */
int cb_acct_write(FILE *f);
int cb_acct_read(FILE *f, uint64_t *total);

/* The split of wall_ns: one line per account with seconds and share,
 * "other" for what no account holds, and the share inside timed samples
 * (samples and dd's data).  JSON: an object of seconds by key. */
void cb_acct_print(FILE *f, uint64_t wall_ns);
void cb_acct_json(FILE *f, const char *indent, uint64_t wall_ns);
/* How long this process has run (from /proc/self/stat; 0 where that
 * cannot be read). */
uint64_t cb_proc_age_ns(void);
/* The share of wall_ns inside timed samples. */
double cb_acct_inside(uint64_t wall_ns);

#endif
