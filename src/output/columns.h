/*
 * columns.h - a result's columns, one table (columns.c): each column's
 * CSV name and JSON key, type, unit, precision, the schema version that
 * added it, where its value lives (a field of struct cb_result or of the
 * provenance, by offsetof), when it applies, its place in the JSON
 * object, what the readers check in it, and what a file from before it
 * means.  Made from it: the CSV header and rows (csv.c), the JSON keys
 * and values (json.c), the readers' checks of a result file
 * (cb_col_check), the schema versions they accept (cb_col_schema) and a
 * row read back into a result (cb_col_read).  Adding a column: one line
 * in the table, CB_CSV_SCHEMA when the CSV changes, docs/csv.md and
 * tests/data/golden (test_golden, test_output's table checks).
 */
#ifndef CB_COLUMNS_H
#define CB_COLUMNS_H

#include <stddef.h>
#include <stdio.h>

#include "output/result.h"

enum cb_col_type {
	CB_COL_SCHEMA,   /* CB_CSV_SCHEMA                                    */
	CB_COL_STR,      /* const char * (JSON: null when NULL)              */
	CB_COL_BUF,      /* char[]                                           */
	CB_COL_UINT,     /* unsigned                                         */
	CB_COL_U64,      /* uint64_t                                         */
	CB_COL_INT,      /* int (-1 unknown)                                 */
	CB_COL_NUM,      /* double, `prec` decimals; NaN an empty field      */
	CB_COL_BOOL,     /* int, JSON true/false                             */
	CB_COL_ZERO,     /* no field: always 0 (a retired JSON key kept)     */
	CB_COL_STATUS,   /* enum cb_status as "ok", "skipped", "failed"      */
	CB_COL_ERROR,    /* why, when the status is not ok                  */
	CB_COL_SAMPLES,  /* samples[0..reps): CSV space-separated, JSON [..] */
	CB_COL_PROCS,    /* proc_n[0..nprocs), likewise                      */
	CB_COL_CYCLES,   /* provenance: how cycles were counted (text)       */
};

/* When a value applies; otherwise the CSV field is empty (a count 0) and
 * the JSON value null (a count 0). */
enum cb_col_when {
	CB_WHEN_ALWAYS,
	CB_WHEN_OK,      /* the point was measured                          */
	CB_WHEN_SAMPLED, /* ... and sampled (a CI): not dd's single runs    */
	CB_WHEN_CT,      /* a ct row: else an empty CSV field (never 0) and
	                    no JSON key at all                              */
	CB_WHEN_CLOCK,   /* the core clock is known (ghz > 0)               */
};

struct cb_col {
	const char *name;            /* the CSV header's; NULL: JSON only       */
	const char *json;            /* the JSON key; NULL: CSV only            */
	enum cb_col_type type;
	const char *unit;            /* docs/csv.md's, "" for text              */
	int prec;                    /* CB_COL_NUM: decimals                    */
	int since;                   /* cryptobench-csv-N that added it         */
	int prov;                    /* 1: a field of struct cb_prov (JSON:
	                                the "provenance" object)                */
	size_t off;                  /* offsetof its field                      */
	enum cb_col_when when;       /* the CSV's and the JSON's ...            */
	enum cb_col_when jwhen;      /* ... where the JSON's differs            */
	int jpos;                    /* its place in its JSON object            */
	unsigned check;              /* CB_CSV_* (csv.h) the readers check      */
	const char *old;             /* a row without it (an older file):
	                                this value (NULL: empty)                */
	int noread;                  /* cb_col_read leaves its field alone      */
};

extern const struct cb_col cb_cols[];
extern const size_t cb_ncols;

/* The column named name (CSV), or NULL. */
const struct cb_col *cb_col_find(const char *name);

/* Whether column c applies, by w (its when or jwhen), to result r
 * (NULL for the provenance's columns) under provenance p. */
int cb_col_applies(const struct cb_col *c, enum cb_col_when w,
                   const struct cb_prov *p, const struct cb_result *r);
/* "ok", "skipped", "failed". */
const char *cb_col_status_name(enum cb_status s);

/* The cryptobench-csv-N a schema field names, when N is one this table
 * reads (1 to cb_col_newest()); else 0. */
int cb_col_schema(const char *schema);
/* The newest version a column of the table was added in: CB_CSV_SCHEMA's
 * N (test_output checks that they agree). */
int cb_col_newest(void);

struct cb_csv;
struct cb_csv_rec;
/*
 * A result file's columns checked as the table says (required columns,
 * numbers, counts, non-empty names; csv.h's cb_csv_check): 0, or -EINVAL
 * with c->err "FILE:LINE: ...".
 */
int cb_col_check(struct cb_csv *c);
/* Column name's value in row; when it is empty or the file has no such
 * column, the table's value for files from before it (else ""). */
const char *cb_col_get(const struct cb_csv *c, const struct cb_csv_rec *row,
                       const char *name);

/*
 * A CSV row back into r: every result column the table has (not the
 * provenance, nor the sample lists: sample_ops and sample_procs are the
 * caller's), strings pointing into c, counts 0 and numbers NaN when
 * empty, the status, the error and the timestamp; a column the file
 * lacks (an older schema) reads as the table's value for such files
 * (status "ok", tool "speed", threads 1 ...), else "" (empty).
 */
void cb_col_read(const struct cb_csv *c, const struct cb_csv_rec *row,
                 struct cb_result *r);

#endif
