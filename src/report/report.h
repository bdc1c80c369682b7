/*
 * report.h - the HTML report (`cryptobench report`, and `bench` writes one
 * next to its CSV and JSON): one self-contained index.html with the
 * summary, throughput-vs-size plots drawn by gnuplot as inline SVG, the
 * geli matrix beside the seed report, the dm-crypt comparison, compare's
 * verdicts between hosts or CPU levels, the constant-time verdicts,
 * known-answer status and provenance.  Nothing in the page is fetched
 * from anywhere.
 */
#ifndef CB_REPORT_H
#define CB_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "report/rpt.h"

/* A gnuplot found in PATH (or $GNUPLOT), or NULL. */
const char *report_gnuplot(void);

/*
 * Write DIR/NAME (NAME "index.html" when NULL) from r; files are the
 * paths it was read from (listed in the page; compare gets them too).
 * An existing page is replaced only with force.  Returns CB_EXIT_OK or
 * CB_EXIT_USAGE (message printed).
 */
int report_write(const struct rpt *r, char *const *files, size_t nfiles,
                 const char *dir, const char *name, int force);

/* ---- internal to report*.c ---- */
struct plots;
struct plots *report_plots_new(const char *gnuplot, const char *tmpdir);
/* Queue a chart; returns its id (>= 0) or -1 when it has nothing to draw. */
int report_plots_speed(struct plots *pl, const struct rpt *r, const char *alg,
                unsigned bits);
int report_plots_geli(struct plots *pl, const struct rpt *r);
/* A chart of another file's own (report_ref.c): begin gives the script to
 * write to, end queues it and returns its id. */
FILE *report_plots_begin(struct plots *pl, int w, int h);
int report_plots_end(struct plots *pl);
/* This host among the reference CPUs (report_ref.c): the chart queued
 * (its id, or -1), then the section. */
struct cmp_ref_chart;
int report_plots_ref(struct plots *pl, char *const *files, size_t nfiles,
                     struct cmp_ref_chart *c);
void report_sec_ref(FILE *f, struct plots *pl, int id,
                    const struct cmp_ref_chart *c, size_t nfiles);
/* Run gnuplot over every queued chart: 0 or -1 (message printed). */
int report_plots_run(struct plots *pl);
/* Write chart id as inline SVG (ids made unique, no namespaces). */
int report_plots_embed(struct plots *pl, int id, FILE *out);
void report_plots_free(struct plots *pl);

/* Sections written by report_cmp.c. */
void report_sec_compare(FILE *f, const struct rpt *r, char *const *files,
                        size_t nfiles);
void report_sec_geli(FILE *f, const struct rpt *r, struct plots *pl, int id);
void report_sec_dmcrypt(FILE *f, const struct rpt *r);
/* The constant-time verdicts (report_ct.c): implementations x CPU level. */
void report_sec_ct(FILE *f, const struct rpt *r);
#endif
