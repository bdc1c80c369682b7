/*
 * output.h - the writers: one const table entry per format, each a
 * function that formats a whole report (result.h) onto a stream.  Writers
 * only format; they never time or compute.
 *
 *   csv     docs/csv.md: a header row, one row per result, RFC 4180
 *   json    the same fields plus the raw samples, provenance in the header
 *   table   a human table like `openssl speed`: a column per size
 *   tcrypt  the kernel tcrypt lines of the ESSIV report (docs/speed.md)
 *   geli, cryptsetup, dd   `dd`'s report: the emulated tool's command line,
 *           dd's records and FreeBSD dd's summary (docs/dd.md); they
 *           need cb_report.dd, and print only summaries without it
 *
 * Other commands (dd) may call the csv/json writers or cb_csv_header()
 * and cb_csv_row() directly.
 */
#ifndef CB_OUTPUT_H
#define CB_OUTPUT_H

#include <stdio.h>

#include "output/result.h"

struct cb_writer {
	const char *name;
	/* 0, or -EIO when the stream reports an error. */
	int (*write)(FILE *f, const struct cb_report *rep);
	const char *what;        /* one line for help texts                 */
};

extern const struct cb_writer cb_writers[];   /* sorted by name          */
extern const size_t cb_nwriters;
const struct cb_writer *cb_writer_find(const char *name);

/* Names cut to a table's column, keyed "[N]" (names.c). */
struct cb_legend {
	char **name;             /* the names cut, whole, [N] at name[N - 1] */
	size_t n;
};
/* name in a column of w: whole, or cut with "[N]" into buf (len bytes)
 * and kept whole in the legend. */
const char *cb_shorten(struct cb_legend *lg, const char *name, int w,
                       char *buf, size_t len);
/* "  [N] = NAME" a line each; width > 0: lines cut to it. */
void cb_legend_print(FILE *f, const struct cb_legend *lg, int width);
void cb_legend_free(struct cb_legend *lg);
/* text (len bytes) onto f, each line longer than width broken at spaces,
 * its continuation lines indented by two, but for lines that hold keep
 * (when not NULL); a last line without '\n' gets one. */
void cb_fit_lines(FILE *f, const char *text, size_t len, int width,
                  const char *keep);

/* dd's records lines ("N+M records in", "... out"). */
void cb_dd_records(FILE *f, const struct cb_dd_run *d);

/* The CSV header row and one row (each ends CRLF, RFC 4180). */
void cb_csv_header(FILE *f);
void cb_csv_row(FILE *f, const struct cb_prov *p, const struct cb_result *r);

/*
 * The tcrypt byte-count field: the seed right-aligns the byte count in a
 * field as wide as the section's widest count, and the archived report
 * has every run of blanks collapsed to one.  So the count is preceded by
 * one blank when it has fewer digits than the widest, by none otherwise.
 * Returns the separator ("" or " ").
 */
const char *cb_tcrypt_pad(unsigned long long bytes,
                          unsigned long long widest);

/*
 * `sysinfo --format json` (docs/speed.md): CB_SYSINFO_SCHEMA, the level
 * (--cpu), the provenance as the json writer's header carries it, and each
 * backend's limits: its lines as `sysinfo` prints them and the per-path
 * lines ("LEVEL: AES alone ...") as numbers.  0, or -EIO.
 */
#define CB_SYSINFO_SCHEMA "cryptobench-sysinfo-1"
int cb_sysinfo_json(FILE *f, const struct cb_prov *p);

#endif
