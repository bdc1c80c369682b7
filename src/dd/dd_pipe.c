/*
 * dd_pipe.c - the sector pipeline of `cryptobench dd` (dd_pipe.h): a ring
 * of request slots, the worker threads that take each slot's sectors a
 * chunk at a time, and the main thread's loop that fills slots from if=
 * and writes them to of= in order (and takes chunks too when -j leaves
 * no CPU spare).  All I/O goes through job->io.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/cb.h"
#include "dd/dd_pipe.h"
#include "foundation/timing.h"
#include "foundation/util.h"

struct slot {
	uint8_t *in, *out, *bad;
	size_t nsec;               /* sectors in this request               */
	uint64_t first;            /* first sector number                   */
	uint64_t seq;              /* which request                         */
	size_t user_len;           /* plaintext bytes                       */
	size_t out_len;            /* bytes to write                        */
	int partial;               /* a short (last) record                 */
	int filled;
	unsigned nchunk;           /* chunks of p->chunk sectors (the last
	                              may be short)                         */
	uint64_t claim;            /* seq << CLAIM_SEQ | chunks handed out
	                              from the back << CLAIM_BITS | from the
	                              front (atomic; a stale claim fails)    */
	unsigned done;             /* chunks transformed (atomic)           */
	int err;                   /* first error other than -EBADMSG       */
	char why[256];             /* the worker's message for err          */
};

struct pipe {
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	struct slot *slots;
	unsigned depth, nthr;      /* slots; worker threads                 */
	size_t chunk;              /* sectors a claim                       */
	size_t ss;                 /* a sector's plaintext bytes (-e none: 1) */
	uint64_t wait_seq;         /* the slot main sleeps on; UINT64_MAX: none */
	uint64_t oldest;           /* the oldest request not yet written    */
	int stop, enc;
	int help;                  /* main is one of -j's N (no CPU spare)  */
	int spin;                  /* main spins for a request (a CPU each) */
	uint8_t *zeros;            /* without if=: every request's input    */
	struct sector_xf *xf;
};

struct worker {
	struct pipe *p;
	struct sector_thr *t;
	pthread_t tid;
};

/* One run: the job, the ring, the threads and where the loop is. */
struct run {
	const struct dd_job *j;
	struct dd_stats *st;
	struct pipe p;
	struct worker *w;
	unsigned started;          /* threads running                        */
	struct sector_thr *main_t; /* main's keyed instance when it helps    */
	size_t ss, unit_in, unit_out, nsec_req;
	uint64_t next_fill, next_write, next_sector;
	int eof;                   /* no more input                          */
	int rd_err;                /* reading failed: write what came before */
	int err;                   /* transform, write or fsync failed       */
	char rd_msg[512];          /* the read fault, printed after draining */
	uint64_t rd_off;           /* where in if= it happened               */
};

/* How long main spins for a request before it sleeps.  The bytes of
 * sectors a thread takes at a time (at least one sector): chunks of 32
 * to 128 KiB cost -j 2 (1 MiB records of 4 KiB XTS sectors, main and one
 * worker on 2 CPUs) 10 to 30 % against 43-44 GB/s for 512 KiB and 1 MiB,
 * each call's set-up (keys, the first tweak group) being repeated. */
#define SPIN_NS     1000000
#define CHUNK_BYTES (512 * 1024)
#define CLAIM_BITS  16             /* at most 2^16 - 1 chunks a request */
#define CLAIM_MAX   ((1u << CLAIM_BITS) - 1)
#define CLAIM_SEQ   (2 * CLAIM_BITS)   /* where seq starts (the low 32 bits
                                          of it: enough to tell slots apart) */

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* ---- workers ---------------------------------------------------------- */

/* Wait for request *seq, or the oldest not yet written if main has
 * written that one (it transformed it alone); NULL when told to stop. */
static struct slot *take(struct pipe *p, uint64_t *seq)
{
	struct slot *s;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		if (*seq < p->oldest)
			*seq = p->oldest;
		s = &p->slots[*seq % p->depth];
		if (p->stop || (s->filled && s->seq == *seq))
			break;
		pthread_cond_wait(&p->work, &p->mu);
	}
	if (!(s->filled && s->seq == *seq))
		s = NULL;
	pthread_mutex_unlock(&p->mu);
	return s;
}

/* Chunk k of slot s. */
static int transform(struct pipe *p, struct sector_thr *t, struct slot *s,
                     size_t k)
{
	size_t ss = p->ss, db = sector_disk_bytes(p->xf);
	size_t lo = k * p->chunk;
	size_t hi = lo + p->chunk < s->nsec ? lo + p->chunk : s->nsec;
	size_t at = p->zeros ? 0 : lo * (p->enc ? ss : db);   /* zeros: a chunk's */

	if (p->enc)
		return sector_encrypt(t, s->first + lo, s->in + at,
		                      s->out + lo * db, hi - lo);
	return sector_decrypt(t, s->first + lo, s->in + at,
	                      s->out + lo * ss, hi - lo,
	                      s->bad + lo * sector_chunks(p->xf));
}

/*
 * Hand out the next chunk of request seq in slot s, from the front (the
 * workers) or from the back (main, when it transforms): its index, or -1
 * when every chunk is taken.  So at -j 2 on two CPUs each thread keeps to
 * its own half of every record, input and output, in its own core's
 * caches: with both taking from the front, a 1 MiB record's two chunks
 * changed hands from one record to the next and -j 2 ran 9 % slower
 * (0.0254 against 0.0232 ns/B, medians of 8 alternated runs, Zen 5 VM).
 * The claim word carries seq, so a claim on a slot already refilled with
 * a later request fails.
 */
static long claim(struct slot *s, uint64_t seq, int back)
{
	uint64_t c = __atomic_load_n(&s->claim, __ATOMIC_ACQUIRE);
	uint64_t want = seq << CLAIM_SEQ;

	for (;;) {
		unsigned f = (unsigned)(c & CLAIM_MAX);
		unsigned b = (unsigned)(c >> CLAIM_BITS & CLAIM_MAX);
		unsigned n = __atomic_load_n(&s->nchunk, __ATOMIC_RELAXED);

		if ((c & ~(((uint64_t)1 << CLAIM_SEQ) - 1)) != want || f + b >= n)
			return -1;
		if (__atomic_compare_exchange_n(&s->claim, &c,
		                                c + (back ? 1u << CLAIM_BITS : 1),
		                                0, __ATOMIC_ACQ_REL,
		                                __ATOMIC_ACQUIRE))
			return back ? (long)(n - 1 - b) : (long)f;
	}
}

/* Transform chunks of request seq in slot s, up to max, from the front
 * or the back (claim); the last one done wakes main if it waits on it.
 * Returns how many this thread did. */
static unsigned work_slot(struct pipe *p, struct sector_thr *t,
                          struct slot *s, uint64_t seq, unsigned max,
                          int back)
{
	unsigned n = 0, nchunk;
	long k;

	while (n < max && (k = claim(s, seq, back)) >= 0) {
		int rc = transform(p, t, s, (size_t)k);

		/* s holds request seq until its last chunk is done: read it
		 * before this one counts */
		nchunk = s->nchunk;
		n++;
		if (rc < 0 && rc != -EBADMSG) {
			pthread_mutex_lock(&p->mu);
			if (!s->err) {
				s->err = rc;
				/* the message is this thread's: carry it */
				snprintf(s->why, sizeof s->why, "%s",
				         cb_last_error());
			}
			pthread_mutex_unlock(&p->mu);
		}
		if (__atomic_add_fetch(&s->done, 1, __ATOMIC_ACQ_REL) == nchunk) {
			pthread_mutex_lock(&p->mu);
			if (seq >= p->wait_seq)
				pthread_cond_broadcast(&p->done);
			pthread_mutex_unlock(&p->mu);
		}
	}
	return n;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct slot *s;

	for (uint64_t seq = 0; (s = take(w->p, &seq)); seq++)
		work_slot(w->p, w->t, s, seq, UINT_MAX, 0);
	return NULL;
}

/* ---- the ring and the threads ---------------------------------------- */

/* The CPUs this process may run on (1 if unknown). */
static unsigned ncpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof set, &set) < 0 || !CPU_COUNT(&set))
		return 1;
	return (unsigned)CPU_COUNT(&set);
}

/* Size and allocate the ring (pages faulted in now, not on the clock). */
static void ring_new(struct run *r)
{
	const struct dd_job *j = r->j;
	struct pipe *p = &r->p;
	size_t in_bytes = r->nsec_req * r->unit_in;
	size_t out_bytes = r->nsec_req * r->unit_out;
	uint64_t per = (j->in_fd >= 0 ? cb_xbuffer_size(in_bytes) : 0) +
	               cb_xbuffer_size(out_bytes);
	uint64_t cap;
	unsigned cpus = ncpus();

	/* -j N transforms on N CPUs: with a CPU to spare, N threads while
	 * main reads, writes and spins for them; without, main is one of the
	 * N: it transforms chunks of the request it is about to write instead
	 * of sleeping on it, so no thread waits for a wake (a futex wake cost
	 * the waker 9.5 us on the paravirtual 2-core development VM, a fifth
	 * of a 1 MiB record's transform) */
	p->help = cpus <= j->threads;
	p->spin = cpus >= j->threads;       /* no thread it spins for waits */
	p->nthr = j->threads - (unsigned)p->help;
	p->ss = r->ss;
	p->chunk = CHUNK_BYTES / r->ss ? CHUNK_BYTES / r->ss : 1;
	if (r->nsec_req / p->chunk >= CLAIM_MAX)
		p->chunk = r->nsec_req / CLAIM_MAX + 1;
	/* 8 slots a worker (at most 32, and at most 512 MiB of buffers):
	 * when main sleeps (after SPIN_NS, or -j over the CPUs), it sleeps
	 * until half the ring is done, so it wakes once per depth/2 requests,
	 * not once per request */
	p->depth = j->threads < 4 ? 8 * j->threads : 32;
	cap = per ? (512ull << 20) / per : p->depth;
	if (p->depth > cap)
		p->depth = cap < 2 ? 2 : (unsigned)cap;
	p->wait_seq = UINT64_MAX;
	p->enc = !j->decrypt;
	p->xf = j->xf;
	p->slots = cb_xcalloc(p->depth, sizeof *p->slots);
	/* without if= every chunk reads the same zeros: one chunk of them,
	 * not a request's, so they stay in cache beside the output.  -e none
	 * (the baseline) moves them the same way: each chunk copied into the
	 * request's output, the bytes a transform would have written */
	if (j->in_fd < 0) {
		size_t zb = p->chunk < r->nsec_req ? p->chunk * r->unit_in
		            : in_bytes;

		p->zeros = memset(cb_xbuffer(zb), 0, zb);
	}
	for (unsigned i = 0; i < p->depth; i++) {
		struct slot *s = &p->slots[i];

		s->in = j->in_fd >= 0 ? cb_xbuffer(in_bytes) : p->zeros;
		s->out = cb_xbuffer(out_bytes);
		if (s->in != p->zeros)           /* the shared one: once, above */
			memset(s->in, 0, in_bytes);
		if (s->out != s->in)
			memset(s->out, 0, out_bytes);
		s->bad = cb_xcalloc(j->decrypt ? r->nsec_req *
		                    sector_chunks(j->xf) : 1, 1);
	}
}

static void ring_free(struct run *r)
{
	struct pipe *p = &r->p;

	for (unsigned i = 0; i < p->depth; i++) {
		if (p->slots[i].out != p->slots[i].in)
			free(p->slots[i].out);
		if (p->slots[i].in != p->zeros)
			free(p->slots[i].in);
		free(p->slots[i].bad);
	}
	free(p->slots);
	free(p->zeros);
}

/* A thread's own keyed instances.  0, or -1 with a message. */
static int key_thr(struct run *r, struct sector_thr **t)
{
	if (sector_thr_new(t, r->j->xf) < 0) {
		cb_err("dd: keying the transform failed: %s", cb_last_error());
		return -1;
	}
	return 0;
}

/* Each worker's (and main's when it helps).  0, or -1 with a message. */
static int workers_new(struct run *r)
{
	r->w = cb_xcalloc(r->p.nthr, sizeof *r->w);
	for (unsigned i = 0; i < r->p.nthr; i++) {
		r->w[i].p = &r->p;
		if (key_thr(r, &r->w[i].t) < 0)
			return -1;
	}
	return r->p.help ? key_thr(r, &r->main_t) : 0;
}

static void workers_free(struct run *r)
{
	for (unsigned i = 0; i < r->p.nthr; i++)
		sector_thr_free(r->w[i].t);
	sector_thr_free(r->main_t);
	free(r->w);
}

/* Start the threads with SIGINT blocked: it goes to the main thread. */
static int threads_start(struct run *r)
{
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (; r->started < r->p.nthr; r->started++)
		if (pthread_create(&r->w[r->started].tid, NULL, worker_main,
		                   &r->w[r->started]) != 0) {
			cb_err("dd: cannot start worker threads");
			break;
		}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return r->started < r->p.nthr ? -1 : 0;
}

static void threads_stop(struct run *r)
{
	pthread_mutex_lock(&r->p.mu);
	r->p.stop = 1;
	pthread_cond_broadcast(&r->p.work);
	pthread_mutex_unlock(&r->p.mu);
	for (unsigned i = 0; i < r->started; i++)
		pthread_join(r->w[i].tid, NULL);
}

/* ---- the main thread's loop ------------------------------------------- */

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	interrupted = 1;
}

/* A read fault: what and where, printed once what came before it is
 * written (so the message can say how much that was). */
static void read_fault(struct run *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void read_fault(struct run *r, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->rd_msg, sizeof r->rd_msg, fmt, ap);
	va_end(ap);
	r->rd_off = off;
	r->rd_err = 1;
}

/* An input shorter than at the start (it shrank while read)? */
static int shrank(struct run *r, size_t got)
{
	uint64_t end = r->st->in_bytes + got;

	if (!r->j->in_size || end >= r->j->in_size)
		return 0;
	read_fault(r, end, "the input shrank while read: it ended at offset "
	           "%llu of the %llu bytes it had at the start",
	           (unsigned long long)end, (unsigned long long)r->j->in_size);
	return 1;
}

/* Read slot s's request from if=: 1 read (possibly short), 0 nothing to
 * read (EOF or SIGINT), -1 error (recorded). */
static int read_slot(struct run *r, struct slot *s, size_t *got)
{
	const struct dd_job *j = r->j;
	size_t want = r->nsec_req * r->unit_in, part = 0;
	ssize_t n = dd_read_full(j->io, j->in_fd, s->in, want, &interrupted,
	                         &part);

	if (n == -EINTR)
		return 0;
	if (n < 0) {
		read_fault(r, r->st->in_bytes + part, "read error at offset %llu: "
		           "%s", (unsigned long long)(r->st->in_bytes + part),
		           strerror((int)-n));
		return -1;
	}
	*got = (size_t)n;
	if (*got < want) {
		r->eof = 1;
		if (shrank(r, *got) && !*got)
			return -1;
	}
	r->st->in_bytes += *got;
	if (!*got || !(*got % r->unit_in))
		return *got ? 1 : 0;
	if (j->decrypt) {
		read_fault(r, r->st->in_bytes, "the image ends %zu bytes into a "
		           "%zu-byte sector of this layout", *got % r->unit_in,
		           r->unit_in);
		return -1;
	}
	cb_warn("dd: if=%s: the last record is padded with %zu zero bytes to a "
	        "whole sector", j->in, r->unit_in - *got % r->unit_in);
	memset(s->in + *got, 0, r->unit_in - *got % r->unit_in);
	*got += r->unit_in - *got % r->unit_in;
	return 1;
}

/* Fill one free slot and hand it to the workers: 1 filled, 0 none. */
static int fill_one(struct run *r)
{
	struct slot *s = &r->p.slots[r->next_fill % r->p.depth];
	size_t want = r->nsec_req * r->unit_in, got = want;
	int rc;

	if (r->j->in_fd >= 0 && (rc = read_slot(r, s, &got)) <= 0) {
		if (rc == 0 && !interrupted)
			r->eof = 1;
		return 0;
	}
	if (r->j->in_fd < 0)
		r->st->in_bytes += got;
	s->partial = got < want;
	s->nsec = got / r->unit_in;
	s->first = r->next_sector;
	s->user_len = s->nsec * (r->j->decrypt ? r->unit_out : r->unit_in);
	s->out_len = s->nsec * r->unit_out;
	/* first, so that a claim on the request before fails from here on */
	__atomic_store_n(&s->claim, r->next_fill << CLAIM_SEQ,
	                 __ATOMIC_RELEASE);
	r->next_sector += got / r->unit_in;
	s->done = 0;
	s->err = 0;
	__atomic_store_n(&s->nchunk, (unsigned)((s->nsec + r->p.chunk - 1) /
	                 r->p.chunk), __ATOMIC_RELAXED);
	pthread_mutex_lock(&r->p.mu);
	s->seq = r->next_fill;
	s->filled = 1;
	pthread_cond_broadcast(&r->p.work);
	pthread_mutex_unlock(&r->p.mu);
	if (s->partial)
		r->st->part_in++;
	else
		r->st->full_in++;
	r->next_fill++;
	return 1;
}

/* Is every chunk of slot s transformed? */
static int slot_done(const struct slot *s)
{
	return __atomic_load_n(&s->done, __ATOMIC_ACQUIRE) == s->nchunk;
}

/* Main helping while it waits: one chunk of the oldest request that has
 * one left to take.  1 if it transformed one. */
static int help_one(struct run *r)
{
	struct pipe *p = &r->p;

	for (uint64_t q = r->next_write; q < r->next_fill; q++)
		if (work_slot(p, r->main_t, &p->slots[q % p->depth], q, 1, 1))
			return 1;
	return 0;
}

/* Spin until slot s is done (helping, if main does), for up to SPIN_NS. */
static void spin_for(struct run *r, const struct slot *s)
{
	double t0 = cb_now_s();

	for (unsigned i = 1; !slot_done(s); i++) {
		if (!r->p.help || !help_one(r))
			cpu_relax();
		if (!(i % 64) && cb_now_s() - t0 > SPIN_NS * 1e-9)
			return;
	}
}

/* Wait until the oldest slot is done: transforming what is left of it
 * (help), spinning (a CPU each), else (or after SPIN_NS) sleeping until
 * half the ring is done. */
static struct slot *wait_oldest(struct run *r)
{
	struct pipe *p = &r->p;
	struct slot *s = &p->slots[r->next_write % p->depth];

	if (p->help)
		work_slot(p, r->main_t, s, r->next_write, UINT_MAX, 1);
	if (p->spin)
		spin_for(r, s);
	pthread_mutex_lock(&p->mu);
	if (!slot_done(s)) {
		uint64_t t = r->next_write + p->depth / 2 - 1;
		struct slot *ts;

		if (t > r->next_fill - 1)          /* next_fill > next_write */
			t = r->next_fill - 1;
		ts = &p->slots[t % p->depth];
		p->wait_seq = t;
		while (!slot_done(ts))
			pthread_cond_wait(&p->done, &p->mu);
		/* chunks finish out of order: the oldest may not be done yet */
		p->wait_seq = r->next_write;
		while (!slot_done(s))
			pthread_cond_wait(&p->done, &p->mu);
		p->wait_seq = UINT64_MAX;
	}
	s->filled = 0;
	p->oldest = r->next_write + 1;
	pthread_mutex_unlock(&p->mu);
	return s;
}

/* geli's own words for data that failed to authenticate
 * (g_eli_integrity.c, g_eli_auth_read_done). */
static void report_bad(const struct slot *s, const struct sector_xf *xf,
                       const char *name, struct dd_stats *st)
{
	unsigned chunks = sector_chunks(xf);
	uint64_t off = s->first * sector_xf_cfg(xf)->sector_size;
	uint64_t coroff = 0, corsize = 0;
	int in_run = 0;

	for (size_t k = 0; k <= s->nsec * chunks; k++) {
		int bad = k < s->nsec * chunks && s->bad[k];
		size_t len = k < s->nsec * chunks
		             ? sector_chunk_len(xf, (unsigned)(k % chunks)) : 0;

		if (bad) {
			if (!in_run)
				coroff = off;
			in_run = 1;
			corsize += len;
		} else if (in_run) {
			fprintf(stderr, "GEOM_ELI: %s: Failed to authenticate %llu "
			        "bytes of data at offset %llu.\n", name,
			        (unsigned long long)corsize,
			        (unsigned long long)coroff);
			st->bad_bytes += corsize;
			st->bad_runs++;
			in_run = 0;
			corsize = 0;
		}
		off += len;
	}
}

/* Write the oldest slot to of=, in order. */
static void write_oldest(struct run *r)
{
	const struct dd_job *j = r->j;
	struct dd_stats *st = r->st;
	struct slot *s = wait_oldest(r);
	size_t wrote = 0;

	if (s->err && !r->err) {
		cb_err("dd: the transform failed at sector %llu: %s%s%s",
		       (unsigned long long)s->first, strerror(-s->err),
		       *s->why ? ": " : "", s->why);
		r->err = 1;
	}
	if (j->decrypt && sector_xf_cfg(j->xf)->auth)
		report_bad(s, j->xf, j->badname, st);
	if (!r->err && j->out_fd >= 0) {
		int wr = dd_write_full(j->io, j->out_fd, s->out, s->out_len,
		                       &wrote);

		st->written += wrote;
		if (wr < 0) {
			cb_err("dd: of=%s: write error at offset %llu after %llu "
			       "bytes written (%zu of a %zu-byte record): %s", j->out,
			       (unsigned long long)st->written,
			       (unsigned long long)st->written, wrote, s->out_len,
			       strerror(-wr));
			r->err = 1;
		}
	}
	if (!r->err) {
		st->bytes += s->user_len;
		if (s->partial)
			st->part_out++;
		else
			st->full_out++;
	}
	r->next_write++;
}

/* After the last write: what reached of= goes to the disk even when a
 * fault stopped the run (nothing written is lost); a read fault is told
 * with how much was written before it. */
static void settle(struct run *r)
{
	const struct dd_job *j = r->j;
	unsigned long long written = r->st->written;

	if (j->out_fd >= 0 && j->out_sync && j->io->fsync(j->out_fd) < 0 &&
	    !r->err) {
		cb_err("dd: of=%s: fsync failed after %llu bytes: %s", j->out,
		       written, strerror(errno));
		r->err = 1;
	}
	if (!r->rd_err)
		return;
	if (j->out_fd >= 0)
		cb_err("dd: if=%s: %s; %llu bytes written to of=%s before it",
		       j->in, r->rd_msg, written, j->out);
	else
		cb_err("dd: if=%s: %s (no of=: nothing written)", j->in, r->rd_msg);
}

/* The timed loop: fill every free slot, write the oldest, fsync. */
static void run_loop(struct run *r)
{
	const struct dd_job *j = r->j;
	double t0 = cb_now_s();

	for (;;) {
		while (!r->eof && !r->rd_err && !r->err && !interrupted &&
		       r->next_fill - r->next_write < r->p.depth &&
		       r->next_fill < j->count && fill_one(r))
			;
		if (r->next_write == r->next_fill)
			break;
		write_oldest(r);
	}
	settle(r);
	r->st->secs = cb_now_s() - t0;
}

/*
 * The ring's lock spins a little before it sleeps (glibc's adaptive
 * mutex): its holders keep it for a few instructions, and at -j 1 with
 * main spinning, main and the worker met on it often enough that a run of
 * 6000 1 MiB records made 3962 futex calls (strace -f -c), each wake
 * costing its waker 9.5 us on the development VM; adaptive: 66.
 */
static void mutex_init(pthread_mutex_t *mu)
{
	pthread_mutexattr_t ma;

	pthread_mutexattr_init(&ma);
#ifdef PTHREAD_MUTEX_ADAPTIVE_NP
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ADAPTIVE_NP);
#endif
	pthread_mutex_init(mu, &ma);
	pthread_mutexattr_destroy(&ma);
}

int dd_pipe_run(const struct dd_job *j, struct dd_stats *st)
{
	struct run r;
	struct sigaction sa, old_sa;
	int rc = DD_PIPE_NOSTART;

	memset(&r, 0, sizeof r);
	memset(st, 0, sizeof *st);
	r.j = j;
	r.st = st;
	r.ss = sector_xf_cfg(j->xf)->kind == SECTOR_NONE
	       ? 1 : sector_xf_cfg(j->xf)->sector_size;
	r.nsec_req = j->bs / r.ss;
	r.unit_in = j->decrypt ? sector_disk_bytes(j->xf) : r.ss;
	r.unit_out = j->decrypt ? r.ss : sector_xf_cfg(j->xf)->kind == SECTOR_NONE
	             ? 1 : sector_disk_bytes(j->xf);
	ring_new(&r);
	mutex_init(&r.p.mu);
	pthread_cond_init(&r.p.work, NULL);
	pthread_cond_init(&r.p.done, NULL);
	if (workers_new(&r) < 0)
		goto free_workers;
	if (threads_start(&r) < 0)
		goto stop_threads;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sa.sa_flags = SA_RESETHAND;          /* a second ^C kills */
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, &old_sa);
	run_loop(&r);
	sigaction(SIGINT, &old_sa, NULL);
	st->interrupted = interrupted;
	rc = r.err || r.rd_err ? -1 : 0;
stop_threads:
	threads_stop(&r);
free_workers:
	workers_free(&r);
	pthread_mutex_destroy(&r.p.mu);
	pthread_cond_destroy(&r.p.work);
	pthread_cond_destroy(&r.p.done);
	ring_free(&r);
	return rc;
}
