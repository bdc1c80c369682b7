/*
 * result.h - one measurement, and the writers that format measurements
 * (tcrypt, table, csv, json for `speed`; geli/dd, csv, json for `dd`).
 * Writers only format: they never time or compute.  The CSV schema is
 * documented in docs/csv.md; CB_CSV_SCHEMA names its version and changes
 * whenever its columns do.
 */
#ifndef CB_RESULT_H
#define CB_RESULT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CB_CSV_SCHEMA "cryptobench-csv-1"

struct cb_result {
	const char *tool;            /* "speed" or "dd"                          */
	const char *backend;
	const char *backend_version;
	const char *driver;
	const char *alg;             /* canonical; dd: the cipher              */
	const char *auth;            /* dd: the HMAC (canonical) or ""          */
	unsigned key_bits;
	uint64_t block_bytes;        /* request size (dd: bs)                   */
	uint64_t sector_bytes;       /* --sector-size / geli -s; 0 = none       */
	const char *direction;       /* "encrypt", "decrypt" or "digest"        */
	const char *iv_mode;         /* "per-request" or "once" (speed)         */
	unsigned threads;            /* dd -j; speed: 1                         */
	double ops_per_sec;          /* median over reps                        */
	double bytes_per_sec;
	double ns_per_byte;
	double cycles_per_byte;      /* ns_per_byte * ghz                       */
	double ghz;                  /* measured core clock (dependent adds)    */
	double overhead_ns;          /* per-call intercept of the size fit, or
	                                NaN when not fitted                     */
	unsigned reps;
	double rel_spread;           /* (max - min) / median over reps          */
	const double *samples;       /* raw ops/s per rep (JSON), reps of them  */
	uint64_t bytes_total;        /* dd: bytes transferred                   */
	double seconds;              /* dd: elapsed                             */
	char timestamp[32];          /* ISO 8601 UTC                            */
};

#endif
