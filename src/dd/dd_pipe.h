/*
 * dd_pipe.h - the sector pipeline of `cryptobench dd`: the main thread
 * reads and writes through an I/O layer (dd_io.h), -j N threads (geli's
 * per-CPU workers) take the sectors of each bs-byte request 512 KiB at a
 * time.  With fewer CPUs than N + 1, main is one of the N: it takes
 * chunks instead of waiting, and N - 1 threads are started.
 * Requests travel through a small ring of slots so that reading,
 * transforming and writing overlap; slots are written strictly in order.
 * The clock runs from the first read to after fsync.  SIGINT stops
 * filling, finishes what is in flight and leaves st->interrupted set.
 * Faults: a read error, an input that shrinks (EOF before its size at the
 * start) or a partial sector in an image stop the reading; what was read
 * before is still transformed and written, then the fault is printed
 * with its offset and the bytes written.  A transform or write error
 * stops the writing (the message says where and how much made it).
 * Either way of= is fsynced, so nothing written is lost.
 * A worker's error comes back with its own message, printed by the main
 * thread.  With --decrypt and geli authentication, data that fails its
 * HMAC is reported in geli's words and counted in the stats.
 */
#ifndef CB_DD_PIPE_H
#define CB_DD_PIPE_H

#include <stdint.h>

#include "dd/dd_io.h"
#include "sector/sector.h"

/* What a run did: records as dd counts them, bytes, time. */
struct dd_stats {
	uint64_t full_in, part_in, full_out, part_out;
	uint64_t bytes;             /* plaintext bytes transferred           */
	uint64_t written;           /* bytes that reached of=                */
	uint64_t in_bytes;          /* bytes consumed from if= (or zeros)    */
	uint64_t bad_bytes, bad_runs;  /* --decrypt: failed authentication  */
	double secs;
	int interrupted;            /* SIGINT stopped the run               */
};

/* What to run: the keyed transform and the files, already open. */
struct dd_job {
	struct sector_xf *xf;
	const struct dd_io *io;
	int in_fd;                  /* -1: zeros, as /dev/zero               */
	uint64_t in_size;           /* if= a regular file: its size at the
	                               start (an earlier EOF is a fault); 0  */
	int out_fd;                 /* -1: discard                          */
	int out_sync;               /* fsync of= at the end (file, device)  */
	const char *in, *out;       /* the operands, for messages           */
	const char *badname;        /* geli's provider name ("x.eli")        */
	uint64_t bs;                /* request bytes (plaintext side)        */
	uint64_t count;             /* requests; UINT64_MAX: to end of input */
	unsigned threads;
	int decrypt;
};

/* Run the job.  0; -1 after printing what failed (st says how far it
 * got: st->written bytes reached of=); DD_PIPE_NOSTART when it could not
 * start (keying a worker, starting a thread; message printed). */
#define DD_PIPE_NOSTART (-2)
int dd_pipe_run(const struct dd_job *job, struct dd_stats *st);

#endif
