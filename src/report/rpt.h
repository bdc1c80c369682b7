/*
 * rpt.h - result files as the report and the bench summary read them.
 * rpt_load() reads cryptobench CSV files (schemas 1 to 5, concatenated
 * files and several hosts allowed) with the strict reader of csv.c and
 * keeps one struct rpt_pt per row, but a ct row (tool "ct": a verdict,
 * not a speed) is a struct rpt_ct of its own.  Rows are grouped into
 * sources: a host at a CPU level (`cpu_level`, "max" when the file
 * predates it).  The
 * geli seed report (results/reference/geli-seed.csv) is loaded on the
 * side so that a host's dd figures can be set beside it.
 */
#ifndef CB_RPT_H
#define CB_RPT_H

#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#include "foundation/csv.h"

struct rpt_pt {
	size_t src;                  /* index into rpt.srcs                     */
	const char *tool, *backend, *backend_version, *driver, *alg;
	const char *dir, *auth, *iv, *status, *why;
	unsigned key_bits;
	uint64_t block, sector, threads;
	double bps;                  /* bytes/s; NaN unless status is ok       */
	double cpb;                  /* cycles/byte or NaN                      */
	double lo, hi;               /* 95 % CI of bytes/s (schema 2) or NaN    */
	const char *file;
	unsigned long line;
};

/* A ct row (tool "ct", cryptobench-csv-5): one implementation's
 * constant-time verdict; kept apart from the points, which are speeds. */
struct rpt_ct {
	const char *host, *level;    /* level "max" when not recorded           */
	const char *backend, *driver, *alg, *status, *why;
	const char *verdict, *method, *places, *note;
	int v;                       /* index into cb_ct_verdicts (result.h)   */
	unsigned key_bits;
	double t;                    /* Welch's t, NaN when not run             */
	uint64_t n;                  /* timing measurements                     */
	unsigned branches, indexes;  /* memcheck's distinct places              */
	const char *file;
	unsigned long line;
};

struct rpt_backend {                 /* a backend as one source saw it      */
	const char *name, *version, *details;
	size_t ok, skip, fail;       /* rows by status                          */
};

struct rpt_src {
	const char *host, *level;    /* level "max" when not recorded           */
	const char *file;            /* first file it appears in                */
	const char *cpu_model, *kernel, *tool_version, *cpu_flags, *compiler;
	const char *cflags, *governor, *boost, *clock, *first, *last;
	struct rpt_backend *be;
	size_t nbe;
};

struct rpt {
	struct cb_csv *csv;          /* one per file read                       */
	size_t ncsv;
	struct rpt_pt *pts;          /* every row but the ct rows               */
	size_t npts;
	struct rpt_ct *ct;           /* the ct rows, in file order              */
	size_t nct;
	struct rpt_src *srcs;
	size_t nsrcs;
	struct cb_csv seedcsv;       /* the geli seed, when found               */
	struct rpt_pt *seed;         /* its rows (src unused)                   */
	size_t nseed;
	const char *seed_path;       /* NULL when none was found or asked      */
};

/*
 * Read the files; seed is the geli seed CSV, "" to look for it in the
 * usual places (rpt_seed_default()), or NULL for none.  Returns 0, or
 * CB_EXIT_USAGE after printing "FILE:LINE: ..." for bad input (a ct row
 * whose ct_verdict is not one of result.h's among it).
 */
int rpt_load(struct rpt *r, char *const *paths, size_t npaths,
             const char *seed);
/*
 * The same from results in memory (bench: what it measured, in the order
 * of its CSV file, which is named file and never read), each value as
 * that file gives it back; then ct rows (copied, strings kept: bench
 * --ct's), which follow them in the file.  prov is the results' (the
 * provenance columns).  res and ct must outlive r.  0 or CB_EXIT_USAGE
 * (a bad seed file, message printed).
 */
struct cb_prov;
struct cb_result;
int rpt_from_results(struct rpt *r, const struct cb_prov *prov,
                     const struct cb_result *res, size_t n,
                     const struct rpt_ct *ct, size_t nct, const char *file,
                     const char *seed);
void rpt_free(struct rpt *r);
/* results/reference/geli-seed.csv in a checkout, the data directory, or
 * beside the binary's install prefix; NULL when none exists. */
const char *rpt_seed_default(void);

/* A source's label: "host" or "host @level" when the level is not max. */
const char *rpt_src_label(const struct rpt *r, size_t src, char *buf,
                          size_t len);
/* A ct row's evidence in one line: "memcheck+timing; t 0.42, 40000
 * measurements; 256 memory indexes: PLACES; NOTE" (what is known of it). */
void rpt_ct_evidence(const struct rpt_ct *c, char *buf, size_t len);
/* The status column counts of known answers: 1 for "skip"/"skipped". */
int rpt_is_skip(const char *status);

/* 1 for hashes, MACs and AEAD-style algorithms measured as "digest". */
int rpt_is_digest(const struct rpt_pt *p);
/* The measured point of src matching the key, or NULL.  Any NULL string
 * argument (and sector = UINT64_MAX) matches anything. */
const struct rpt_pt *rpt_find(const struct rpt *r, size_t src,
                              const char *tool, const char *backend,
                              const char *alg, unsigned bits,
                              uint64_t block, const char *dir,
                              uint64_t sector, const char *auth);

/*
 * dm-crypt's two mappings on backend be at a sector size and direction:
 * aes-xts-plain64 (xts(aes), 256-bit key preferred) and
 * aes-cbc-essiv:sha256, from speed's --sector-size rows, else dd rows.
 * Returns 1 when either was measured.
 */
int rpt_dm_pair(const struct rpt *r, size_t s, const char *be,
                uint64_t sector, const char *dir, const struct rpt_pt **xts,
                const struct rpt_pt **essiv);

/* Per algorithm and key size of one source: the fastest backend at 4 KiB
 * requests (or the largest size measured), per direction. */
struct rpt_sum {
	const char *alg;
	unsigned bits;
	uint64_t block;
	int ndir;                    /* 2 (encrypt, decrypt) or 1 (digest,
	                                derive)                                */
	int kdf;                     /* a key derivation: rpt_kdf_text()       */
	const struct rpt_pt *best[2];
	double native_ratio[2];      /* native / best library, NaN if none     */
};
/* The rows for src (free() *out); returns how many. */
size_t rpt_summary(const struct rpt *r, size_t src, struct rpt_sum **out);
/* A key derivation's point as a person reads it (its block is the cost):
 * cost "1024 iterations" or "1024 KiB, 1 pass, 1 lane"; figure "3.21 M
 * iterations/s" (PBKDF2) or "0.447 ms a derivation" (Argon2), and ci the
 * same figure's 95 % CI ("" when none). */
void rpt_kdf_text(const struct rpt_pt *p, char *cost, char *figure,
                  char *ci, size_t n);

/* HTML text escaping. */
void rpt_html_esc(FILE *f, const char *s);
/* A geli configuration's name as the report prints it ("AES-XTS 128"). */
const char *report_geli_label(const struct rpt_pt *p, char *buf, size_t len);

#endif
