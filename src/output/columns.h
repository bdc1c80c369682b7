/*
 * columns.h - the result CSV's columns, one table (columns.c): each
 * column's name, type, unit, precision, the schema version that added it,
 * and where its value lives (a field of struct cb_result or of the
 * provenance, by offsetof).  The CSV header and rows (cb_csv_header,
 * cb_csv_row) are written from it, and cb_col_read() reads a row back
 * into a result from it, so that the writer and the reader cannot drift.
 * Adding a column: one line in the table, CB_CSV_SCHEMA, docs/csv.md and
 * tests/data/golden (test_golden).
 */
#ifndef CB_COLUMNS_H
#define CB_COLUMNS_H

#include <stddef.h>
#include <stdio.h>

#include "output/result.h"

enum cb_col_type {
	CB_COL_SCHEMA,   /* CB_CSV_SCHEMA                                    */
	CB_COL_STR,      /* const char *                                     */
	CB_COL_BUF,      /* char[]                                           */
	CB_COL_UINT,     /* unsigned                                         */
	CB_COL_U64,      /* uint64_t                                         */
	CB_COL_INT,      /* int (-1 unknown)                                 */
	CB_COL_NUM,      /* double, `prec` decimals; NaN an empty field      */
	CB_COL_STATUS,   /* enum cb_status as "ok", "skipped", "failed"      */
	CB_COL_ERROR,    /* why, when the status is not ok                  */
	CB_COL_SAMPLES,  /* samples[0..reps), space-separated               */
	CB_COL_PROCS,    /* proc_n[0..nprocs), space-separated              */
};

/* When a value is written; otherwise the field is empty (a count 0). */
enum cb_col_when {
	CB_WHEN_ALWAYS,
	CB_WHEN_OK,      /* the point was measured                          */
	CB_WHEN_SAMPLED, /* ... and sampled (a CI): not dd's single runs    */
	CB_WHEN_CT,      /* a ct row (an empty field, never 0, otherwise)   */
	CB_WHEN_CLOCK,   /* the core clock is known (ghz > 0)               */
};

struct cb_col {
	const char *name;            /* the CSV header's                        */
	enum cb_col_type type;
	const char *unit;            /* docs/csv.md's, "" for text              */
	int prec;                    /* CB_COL_NUM: decimals                    */
	int since;                   /* cryptobench-csv-N that added it         */
	int prov;                    /* 1: a field of struct cb_prov            */
	size_t off;                  /* offsetof its field                      */
	enum cb_col_when when;
	int noread;                  /* cb_col_read leaves its field alone      */
};

extern const struct cb_col cb_cols[];
extern const size_t cb_ncols;

/*
 * A CSV row back into r: every result column the table has (not the
 * provenance, nor the sample lists: sample_ops and sample_procs are the
 * caller's), strings pointing into c (missing: ""), counts 0 and numbers
 * NaN when empty, the status, the error and the timestamp.
 */
struct cb_csv;
struct cb_csv_rec;
void cb_col_read(const struct cb_csv *c, const struct cb_csv_rec *row,
                 struct cb_result *r);

#endif
