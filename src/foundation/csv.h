/*
 * csv.h - a strict RFC 4180 CSV reader for result files.  A file is read
 * whole into rows of fields; each row remembers the line it starts on so
 * that every complaint names FILE:LINE.  Quoted fields may hold commas,
 * doubled quotes and line breaks; lines end in LF or CRLF.  Files made by
 * concatenating CSV files with `cat` are accepted: a later row identical to
 * a header seen before is skipped, and a row whose first field is the
 * first column's name is taken as a new header for the rows after it (so
 * files with different column sets concatenate too).  Anything else that is
 * not well-formed text - an unterminated quote, a field count that differs
 * from the header, a NUL or other control byte, invalid UTF-8, an empty
 * file - is an error.  Typed checks (required columns, numbers) are done by
 * cb_csv_check() against a table of column specifications.
 */
#ifndef CB_CSV_H
#define CB_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cb_csv_head {
	char **names;            /* column names, ncols of them               */
	size_t ncols;
	unsigned long line;      /* line the header row starts on              */
};

struct cb_csv_rec {
	char **fields;           /* field values (NUL-terminated), nfields      */
	size_t nfields;          /* always the header's ncols                   */
	unsigned long line;      /* line the row starts on (1-based)            */
	size_t hdr;              /* index into cb_csv.hdrs                      */
};

struct cb_csv {
	char *name;              /* file name used in messages                  */
	struct cb_csv_head *hdrs;  /* nhdrs >= 1 after a successful read      */
	size_t nhdrs;
	struct cb_csv_rec *rows;     /* data rows only, in file order           */
	size_t nrows;
	char err[1024];          /* "FILE:LINE: message" after a failure        */
};

/* struct cb_csv_col.flags */
#define CB_CSV_REQUIRED 0x01  /* every header must have this column         */
#define CB_CSV_NUMBER   0x02  /* a finite decimal number (1, -2.5, 3e9)      */
#define CB_CSV_UINT     0x04  /* a non-negative decimal integer              */
#define CB_CSV_EMPTY_OK 0x08  /* with NUMBER/UINT: "" or nan also allowed    */
#define CB_CSV_NONNEG   0x10  /* with NUMBER: must not be negative           */
#define CB_CSV_NONEMPTY 0x20  /* the value must not be empty                 */

struct cb_csv_col {
	const char *name;
	unsigned flags;          /* CB_CSV_*                                    */
};

/*
 * Parse len bytes of CSV text; name is used in messages.  Returns 0, or
 * -EINVAL with csv->err set.  On failure csv holds nothing to free (but
 * cb_csv_free() is harmless).
 */
int cb_csv_parse(struct cb_csv *csv, const char *name, const char *buf,
                 size_t len);
/* Read and parse a file ("-" is standard input).  -errno on I/O errors. */
int cb_csv_read(struct cb_csv *csv, const char *path);
void cb_csv_free(struct cb_csv *csv);

/* Index of column name in header hdr, or -1. */
int cb_csv_col(const struct cb_csv *csv, size_t hdr, const char *name);
/* The value of column name in row, or NULL if its header has no such column. */
const char *cb_csv_get(const struct cb_csv *csv, const struct cb_csv_rec *row,
                       const char *name);
/* A row's request model as a key: iv_mode (dflt when absent or empty),
 * and for cryptobench-csv-3 (and later) rows with mb > 0 "IV_MODE --mb N", so that
 * readers never take requests in flight for requests one at a time. */
const char *cb_csv_iv_key(const struct cb_csv *csv,
                          const struct cb_csv_rec *row, const char *dflt);
/* The same key from a result's iv_mode and mb (interned). */
const char *cb_iv_key(const char *iv, uint64_t mb);
/* 1 if some header of the file has the column. */
int cb_csv_has(const struct cb_csv *csv, const char *name);

/*
 * Check every header and row against cols (terminated by a NULL name):
 * required columns present, numeric columns numeric.  Returns 0 or
 * -EINVAL with csv->err set to "FILE:LINE: ...".
 */
int cb_csv_check(struct cb_csv *csv, const struct cb_csv_col *cols);

/* Strict number parsing used by cb_csv_check (0 or -EINVAL). */
int cb_csv_number(const char *s, double *v);
/*
 * A field of non-negative numbers separated by spaces (sample_ops),
 * appended to *v (*n of them, realloc'd).  0, or -EINVAL with the first
 * token that is not one copied into bad (badlen bytes).
 */
int cb_csv_numbers(const char *s, double **v, size_t *n, char *bad,
                   size_t badlen);
/* Write one field, quoted as RFC 4180 requires (commas, quotes, line
 * breaks, leading or trailing blanks). */
void cb_csv_write_field(FILE *f, const char *s);

#endif
