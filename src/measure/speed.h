/*
 * speed.h - the types `speed` and `bench` share from the bottom up: the
 * options as parsed (struct speed_opts) and one planned point (struct
 * plan).  Types only; the layers that use them, lowest first:
 *   runner.c   the timed request loops
 *   plan.c     the points to measure
 *   gate.c     keys and the correctness gate (kat_gate, gate_cross_check)
 *   measure.c  gate and time a plan, round robin
 *   speed_opts.c  the one option table of speed and bench, and output
 *   cmd_speed.c, cmd_bench.c  the commands: options into calls
 */
#ifndef CB_SPEED_H
#define CB_SPEED_H

#include <stddef.h>
#include <stdint.h>

#include "output/result.h"

#include "core/cb.h"
#include "system/select.h"

#define MAX_ALGS      96      /* bench: the registry's algorithms     */
#define MAX_BUF       (1u << 30)
#define AEAD_AD_LEN   24      /* dm-crypt: le64 sector || IV            */
#define CB_SAMPLE_SEC  0.02   /* a sample's length without --reps      */
#define CB_SAMPLES_MIN 15     /* ... and how many, at least and most   */
#define CB_SAMPLES_MAX 50
#define CB_SAMPLES_CLEAN 5    /* uncontended samples enough to drop the
                                 contended ones (measure.c)          */
#define CB_DRIFT_MAX   0.05   /* retake a point whose clock moved more */
#define CB_SAMPLE_RETAKES 2   /* ... and a sample, at once, this often  */
#define CB_MB_MAX      64     /* --mb: at most this many in flight     */
#define CB_MB_BYTES    (256u << 20) /* ... and this many bytes in all  */

enum { DIR_DEC = 0, DIR_ENC = 1, DIR_DIGEST = 2, DIR_DERIVE = 3 };

struct speed_opts {
	struct cb_sel sel;          /* --backend, --alg, --driver         */
	int all_backends;           /* defaulted: skip unavailable quietly */
	uint64_t *keys;             /* --key-bits, or NULL for defaults      */
	size_t nkeys;
	int every_key;              /* defaults: every key size the algorithm
	                               takes (bench), not only its standard
	                               ones; a range (blowfish) keeps its one */
	uint64_t *sizes;
	size_t nsizes;
	double sec, warmup;         /* per point: all samples; the first
	                               warm-up (calibration)                */
	unsigned reps;              /* samples per point; 0: from --sec     */
	double sample;              /* > 0: every sample this long, and the
	                               samples go on in rounds until
	                               until_ns (bench), at most reps    */
	uint64_t until_ns;          /* cb_now_ns() to stop taking samples   */
	unsigned min_rounds;        /* ... but not before this many rounds  */
	double target;              /* > 0: after min_rounds, sample only the
	                               points whose 95 % CI half-width is
	                               wider than this share of the median
	                               (sequential sampling, measure.c)     */
	double visit_warm;          /* a visit's warm-up, at most (seconds) */
	uint64_t split_wall_ns;     /* > 0: the JSON gets the time split of
	                               this much wall time (bench)          */
	uint64_t kdf_cost;          /* > 0: the KDFs at this cost alone, not
	                               at every request size (bench)        */
	double drift_max;           /* retake a sample the clock moved under
	                               more than this                       */
	int enc, dec;
	int iv_once;
	uint64_t sector;
	unsigned mb;                /* --mb N: requests in flight (tcrypt's
	                               num_mb); 0 without --mb              */
	int cycles;
	int no_gate;                /* --no-gate: no known-answer vectors    */
	int progress;               /* 1 on, 0 off, -1 when stderr is a tty */
	const char *phase;          /* the progress lines' label: which pass
	                               of which process (bench), or NULL    */
	uint64_t end_ns;            /* > 0: cb_now_ns() when the whole job is
	                               planned to end (bench's budget): the
	                               ETA counts to it, or past it while
	                               this pass's own work needs longer    */
	const char *command;
	unsigned iter_time_ms;      /* --iter-time: Argon2's requested time  */
	struct cb_argon_line *argon; /* --format cryptsetup: its Argon2 lines */
	size_t nargon;
};

/* One planned point. */
struct plan {
	const struct cb_impl *impl;
	const struct cb_backend *backend;
	const struct cb_sel_alg *sel;
	int dir;
	unsigned key_bits;
	uint64_t size;
	const char *skip;           /* why not run (owned: plan_free), or NULL */
	unsigned samples;           /* samples to take (1..CB_MAX_REPS)     */
	double sample_sec;          /* seconds per sample                   */
};

#endif
