/*
 * kat.h - the known-answer runner, shared by `kat` and by the correctness
 * gate of `speed`/`dd` (no speed is printed for an implementation that
 * fails its vectors).
 */
#ifndef CB_KAT_H
#define CB_KAT_H

#include <stdio.h>

#include "cb.h"
#include "sector.h"
#include "vec.h"

struct kat_count { unsigned passed, failed, skipped; };

/* The default vectors directory: ./vectors if present, else the
 * installed one. */
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

/* Gate used by speed/dd: run the default vectors for impl; 0 if all that
 * ran passed (and at least one ran or none exist), -EBADMSG otherwise. */
int kat_gate(const struct cb_impl *impl, unsigned *nrun);

/* ---- sector transforms (kat_sector.c): records with alg = geli / dm-crypt */

/* 1 if alg (a record's alg field) names a sector transform. */
int sector_kat_is(const char *alg);
/* Validate such a record's fields (file:line messages); 0 or -EINVAL. */
int sector_kat_validate(const struct vec_rec *r);
/* Run the sector-transform records of files on backend b: encrypt must
 * give `disk`, decrypt must give `pt` (expect = fail: must be rejected).
 * only: NULL for all, else just the records with its kind, cipher and
 * authentication (the correctness gate of `dd`). */
void sector_kat_run(const struct cb_backend *b, const struct vec_file *files,
                    size_t nfiles, const struct sector_cfg *only,
                    struct kat_count *cnt, FILE *out, int verbose);

#endif
