/*
 * kat.h - the known-answer runner, shared by `kat` and by the correctness
 * gate of `speed`/`dd` (no speed is printed for an implementation that
 * fails its vectors).
 */
#ifndef CB_KAT_H
#define CB_KAT_H

#include <stdint.h>
#include <stdio.h>

#include "core/cb.h"
#include "sector/sector.h"
#include "foundation/vec.h"

/* A failure or a skip of one record, kept for `kat --format tap|junit`. */
struct kat_note {
	char *where;        /* "file:line" of the record                      */
	char *label;        /* the driver ("alg (drivers)" for sector records)  */
	char *what;         /* what failed, or why it was skipped             */
	int skip;
};
struct kat_log {
	struct kat_note *v;
	size_t n;
};

/* Counts of one run; log (optional) collects the failures and skips. */
struct kat_count {
	unsigned passed, failed, skipped;
	struct kat_log *log;
};

/* ---- kat_report.c: notes and the report writers --------------------- */

/*
 * Count a failure (skip 0) or a skip of record r: print
 * "FAIL|SKIP file:line backend label: what" to out (if non-NULL; skips only
 * with verbose) and add it to cnt->log (if non-NULL).  line: the line of
 * the field that differed, or 0 for the record's first line.
 */
void kat_note(struct kat_count *cnt, FILE *out, int verbose, int skip,
              const struct vec_rec *r, unsigned line, const char *backend,
              const char *label, const char *fmt, ...)
        __attribute__((format(printf, 9, 10)));
/*
 * What differs between want (a field named name) and got, len bytes each,
 * into buf: "NAME differs at byte I of LEN: expected HEX got HEX", the hex
 * cut to a window around byte I ("..." where cut, "bytes A-B" said).
 * Returns buf.
 */
const char *kat_diff_text(char *buf, size_t n, const char *name,
                          const uint8_t *want, const uint8_t *got,
                          size_t len);
void kat_log_free(struct kat_log *log);

/* One test case of a report: an implementation (or a backend's sector
 * transforms, or an unavailable backend: alg NULL) and what it did. */
struct kat_case {
	const char *backend, *alg, *driver;
	const char *unavailable;   /* non-NULL: could not run, and why        */
	const struct kat_count *c; /* with its log (tap, junit)                */
	double seconds;
};

/* `kat --format`: text (the table), tap (TAP version 13), junit (XML). */
struct kat_writer {
	const char *name;
	int notes;                 /* 1: wants the notes in a log, not printed */
	void (*begin)(FILE *f);
	void (*one)(FILE *f, const struct kat_case *k, unsigned n);
	/* none: why nothing ran (no case, or every record skipped), or NULL */
	void (*end)(FILE *f, const struct kat_count *total, unsigned ncases,
	            const char *none);
	/* The vectors did not load (msgs: the "FILE:LINE: what" lines, also
	 * on stderr): the report of that, alone (NULL: stderr says it). */
	void (*error)(FILE *f, const char *msgs);
	const char *what;          /* one line for --help                     */
};
extern const struct kat_writer kat_writers[];   /* sorted by name        */
extern const size_t kat_nwriters;
const struct kat_writer *kat_writer_find(const char *name);

/* The vectors directory of the gates and of `kat` without a path:
 * $CRYPTOBENCH_VECTORS, else vectors/ next to the binary (a checkout),
 * else the installed one (cb_data_path), else ./vectors. */
const char *kat_default_dir(void);

/* Load every *.vec file under path (a file or a directory); 0 or -EINVAL
 * (messages printed). */
int kat_load(const char *path, struct vec_file **files, size_t *nfiles);
/* Check every record's fields and lengths against the registry (exit-2
 * class errors, printed as file:line).  0 or -EINVAL. */
int kat_validate(const struct vec_file *files, size_t nfiles);

/*
 * Run every record of impl's algorithm in files on impl; failures are
 * printed to out (if non-NULL) as "FAIL file:line backend driver: what",
 * and with verbose also the skips.
 */
void kat_run_impl(const struct cb_impl *impl, const char *backend,
                  const struct vec_file *files, size_t nfiles,
                  struct kat_count *cnt, FILE *out, int verbose);

/* The gates' vectors (kat_default_dir), loaded once for speed, bench and
 * dd, in *files (owned here; either pointer may be NULL): 0, or -ENOENT
 * with an error printed saying that nothing is timed without --no-gate. */
int kat_gate_load(const struct vec_file **files, size_t *nfiles);
/* The gate of speed/bench: run the default vectors for impl; 0 if all
 * that ran passed, -EBADMSG if one failed, -ENOENT without vectors. */
int kat_gate(const struct cb_impl *impl, unsigned *nrun);

/* ---- sector transforms (kat_sector.c): records with alg = geli / dm-crypt */

/* 1 if alg (a record's alg field) names a sector transform. */
int kat_sector_is(const char *alg);
/* Validate such a record's fields (file:line messages); 0 or -EINVAL. */
int kat_sector_validate(const struct vec_rec *r);
/* Run the sector-transform records of files on backend b: encrypt must
 * give `disk`, decrypt must give `pt` (expect = fail: must be rejected).
 * only: NULL for all, else just the records with its kind, cipher and
 * authentication (the correctness gate of `dd`). */
void kat_sector_run(const struct cb_backend *b, const struct vec_file *files,
                    size_t nfiles, const struct sector_cfg *only,
                    struct kat_count *cnt, FILE *out, int verbose);

#endif
