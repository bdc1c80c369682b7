/*
 * writer.h - what the writers of output/ share (writer.c) and the
 * writers themselves, a file each, for output.c's table (cb_writers):
 * the rest of the program finds them there (output.h).
 */
#ifndef CB_WRITER_H
#define CB_WRITER_H

#include <stdio.h>

#include "output/result.h"

/* Equal strings, NULL as "". */
int cb_out_streq(const char *a, const char *b);
/* Same tcrypt section: same implementation, direction and request model. */
int cb_out_same_section(const struct cb_result *a, const struct cb_result *b);
/* One direction: a digest, or a KDF's derivation. */
int cb_out_is_digest(const struct cb_result *r);
/* Flush f: 0, or -EIO when the stream reports an error. */
int cb_out_finish(FILE *f);
/* dd's lines: the tool's command line (line), the records (to records,
 * or f), the summary; without rep->dd only the summaries (write_dd.c). */
int cb_out_dd_lines(FILE *f, const struct cb_report *rep,
                    void (*line)(FILE *f, const struct cb_dd_run *d),
                    FILE *records);

int cb_write_cryptsetup(FILE *f, const struct cb_report *rep);
int cb_write_csv(FILE *f, const struct cb_report *rep);
int cb_write_dd(FILE *f, const struct cb_report *rep);
int cb_write_geli(FILE *f, const struct cb_report *rep);
int cb_write_json(FILE *f, const struct cb_report *rep);
int cb_write_table(FILE *f, const struct cb_report *rep);
int cb_write_tcrypt(FILE *f, const struct cb_report *rep);

#endif
