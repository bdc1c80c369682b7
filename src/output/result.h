/*
 * result.h - one measurement, and the report the writers format
 * (tcrypt, table, csv, json for `speed`; csv and json for `dd` too, with
 * the geli, cryptsetup and dd writers for its own lines).  Writers only format: they never time or
 * compute.  The CSV schema is documented in docs/csv.md; CB_CSV_SCHEMA
 * names its version and changes whenever its columns do.  The writers
 * themselves are declared in output.h.
 */
#ifndef CB_RESULT_H
#define CB_RESULT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CB_CSV_SCHEMA  "cryptobench-csv-5"
#define CB_MAX_PROCS   4      /* bench --processes: at most           */
#define CB_JSON_SCHEMA "cryptobench-json-1"

/* struct cb_result.status */
enum cb_status {
	CB_RES_OK = 0,   /* measured                                        */
	CB_RES_SKIP,     /* not measurable as asked (size not a multiple of
	                    the block, key size the driver lacks): `why`     */
	CB_RES_FAIL,     /* failed the correctness gate or errored while
	                    timed: `why`; no speed is reported               */
};

struct cb_result {
	const char *tool;            /* "speed" or "dd"                          */
	const char *backend;
	const char *backend_version;
	const char *backend_details; /* code path the library chose, or ""     */
	const char *driver;
	const char *alg;             /* canonical; dd: the cipher              */
	const char *alg_label;       /* as the user spelled it when that is
	                                kernel grammar (tcrypt headers), else
	                                NULL = alg                              */
	const char *auth;            /* dd: the HMAC (canonical) or ""          */
	unsigned key_bits;
	uint64_t block_bytes;        /* request size (dd: bs)                   */
	uint64_t sector_bytes;       /* --sector-size / geli -s; 0 = none       */
	const char *direction;       /* "encrypt", "decrypt" or "digest"        */
	const char *iv_mode;         /* "per-request" or "once" (speed)         */
	unsigned threads;            /* dd -j; speed: 1                         */
	unsigned mb;                 /* speed --mb: requests in flight; 0 none  */
	enum cb_status status;
	const char *why;             /* SKIP/FAIL: the reason; else NULL        */
	double ops_per_sec;          /* median over reps                        */
	double bytes_per_sec;        /* ops_per_sec * block_bytes               */
	double ns_per_byte;
	double cycles_per_byte;      /* ns_per_byte * ghz; NaN if no clock      */
	double ghz;                  /* measured core clock (dependent adds)    */
	double overhead_ns;          /* per-call intercept of the time-vs-size
	                                fit over the sweep, or NaN              */
	double slope_ns_per_byte;    /* slope of that fit, or NaN               */
	unsigned reps;               /* samples the median is taken over        */
	double rel_spread;           /* (max - min) / median over the samples   */
	const double *samples;       /* raw ops/s per sample, reps of them      */
	double ci_low_ops;           /* 95 % CI of the median ops/s (order
	                                statistics); 0 when not sampled (dd)    */
	double ci_high_ops;
	double mad_ops;              /* median absolute deviation, ops/s        */
	double ghz_drift;            /* (max - min) / median of the core clock
	                                read around the point's samples; NaN
	                                when not read                           */
	int noisy;                   /* CI half-width / median > 2 %            */
	unsigned retaken;            /* samples retaken, the clock moved under
	                                them                                */
	double shared;               /* share of the timed segments left out:
	                                the core was shared (timing.h)      */
	unsigned contended;          /* samples with too few clean segments  */
	unsigned nprocs;             /* processes the samples came from ...  */
	unsigned proc_n[CB_MAX_PROCS]; /* ... and how many from each (bench) */
	uint64_t bytes_total;        /* bytes processed in the timed reps
	                                (dd: bytes transferred)                 */
	double seconds;              /* timed seconds over all reps (dd:
	                                elapsed)                                */
	char timestamp[32];          /* ISO 8601 UTC, when measured             */
	/* tool "ct" (cryptobench ct, docs/ct.md; cryptobench-csv-5): one
	 * implementation's constant-time verdict, direction "-", status ok
	 * (not checked: skipped with why); NULL/NaN/0 for other rows */
	const char *ct_verdict;      /* "constant-time", "secret-dependent
	                                branch", ... (cb_ct_verdicts); NULL or
	                                "" in the other rows                    */
	const char *ct_method;       /* "memcheck+timing", "timing", ...        */
	double ct_t;                 /* timing: Welch's t; NaN if not run       */
	uint64_t ct_measurements;    /* timing: measurements in all            */
	unsigned ct_branches, ct_indexes;  /* memcheck: distinct places        */
	const char *ct_places;       /* memcheck: the first places, "; "-joined */
	const char *ct_note;         /* a note (the path memcheck ran), or ""   */
	const char *ct_cpu_level;    /* the --cpu level the verdict is for (JSON:
	                                bench --ct brings rows of other runs)  */
};

/*
 * The verdicts of ct rows (verdicts.c), worst first, as ct.h's enum
 * ct_verdict orders them, each with its class: a leak (secret-dependent
 * branch, memory index or timing), clean (constant-time: memcheck ran
 * the real path), timing-only (no timing leak found: only the timing
 * test ran), not checked.  Readers check a ct row's ct_verdict here.
 */
enum cb_ct_class { CB_CT_LEAK, CB_CT_CLEAN, CB_CT_TIMING_ONLY,
                   CB_CT_UNCHECKED };
struct cb_ct_verdict {
	const char *name;            /* as in the ct_verdict column            */
	enum cb_ct_class cls;
};
extern const struct cb_ct_verdict cb_ct_verdicts[];
extern const size_t cb_nct_verdicts;
/* "leak", "clean", "timing-only", "not checked". */
const char *cb_ct_class_name(enum cb_ct_class c);
/* The index of verdict in cb_ct_verdicts, or -1 when it is none. */
int cb_ct_verdict_find(const char *verdict);
/* The same for a row of FILE at LINE: -1 after "FILE:LINE: column
 * 'ct_verdict': 'X' is not a ct verdict (the six names)". */
int cb_ct_verdict_row(const char *file, unsigned long line,
                      const char *verdict);

struct cb_prov;

/*
 * dd: what the geli, cryptsetup and dd writers restate besides the
 * result (bytes_total, seconds): the command line of the tool emulated
 * and dd's record counts.  The command fills in its defaults (in, out).
 */
struct cb_dd_run {
	const char *ealg, *aalg;     /* -e, -a as given (aalg NULL: none)      */
	const char *keyfile;         /* -K as given, or NULL ("key")           */
	unsigned key_bits;           /* geli -l; cryptsetup --key-size         */
	int key_bits_given;          /* geli: -l was given (else not restated) */
	unsigned sector_size;
	int iv_large;                /* cryptsetup --iv-large-sectors          */
	const char *provider;        /* geli/cryptsetup: the device            */
	const char *in, *out;        /* dd: if= and of=                        */
	const char *bs_text;         /* dd: bs= as given                       */
	uint64_t count;              /* dd: count=; UINT64_MAX: not given      */
	uint64_t full_in, part_in, full_out, part_out;
	FILE *records;               /* geli/cryptsetup: where the records
	                                lines go (dd's stderr); NULL: inline   */
};

/* speed --format cryptsetup: an Argon2 line, the cost kdf_search.c found
 * for the requested time (ok 0: N/A, no backend had it). */
struct cb_argon_line {
	const char *name;            /* "argon2i", "argon2id"                   */
	int ok;
	unsigned passes, memory, lanes, requested_ms;
};

/*
 * What a writer gets: the results in the order measured, plus how they
 * were measured.  A tcrypt "section" is a run of consecutive results with
 * the same backend, driver, alg, direction, iv_mode and sector_bytes.
 */
struct cb_report {
	const struct cb_prov *prov;  /* sysinfo.h; never NULL                   */
	const struct cb_result *res;
	size_t n;
	int cycles;                  /* tcrypt: "1 operation in N cycles" form */
	double sec;                  /* time box per point (all samples)        */
	double sample_sec;           /* one sample's time box; 0 = sec / reps   */
	double warmup;               /* warm-up seconds before each point       */
	const char *command;         /* the command line, for JSON; or NULL     */
	const struct cb_dd_run *dd;  /* dd: for its writers; else NULL          */
	const struct cb_argon_line *argon;  /* cryptsetup's Argon2 lines        */
	size_t nargon;
	uint64_t split_wall_ns;      /* > 0: JSON "time_split" of this wall time
	                                (foundation/acct.h; bench)              */
};

#endif
