/*
 * dd.c - `cryptobench dd`: what a disk write costs through geli (or a
 * dm-crypt mapping), measured the way the geli report measured it - dd's
 * operands, geli's options, FreeBSD dd's summary line - on any host and any
 * backend, writing images that are byte-exact with the real formats
 * (src/sector.c; docs/dd.md pins the output to the seed report).
 *
 * The main thread does all I/O; -j N worker threads (geli's per-CPU
 * workers) share the sectors of each bs-byte request.  Requests travel
 * through a small ring of slots so reading, transforming and writing
 * overlap; slots are written strictly in order.  The clock runs from the
 * first read to after fsync.  An existing non-empty file or a block device
 * is not overwritten without --force; short writes and I/O errors say how
 * many bytes made it; SIGINT stops filling, finishes what is in flight and
 * prints a partial report.  --decrypt reads an image back, verifies every
 * geli HMAC and reports failures as geli does (exit 1).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cb.h"
#include "cmd.h"
#include "kat.h"
#include "output.h"
#include "result.h"
#include "sector.h"
#include "sysinfo.h"
#include "util.h"

#define DD_MAX_THREADS 256
#define DD_MAX_BS      (1ull << 30)
#define DD_EXIT_INTR   130          /* as a shell reports a SIGINT death */

/* The seed's names, used when of= is not given (nothing is written). */
#define SEED_PROVIDER  "mirror/gm0"

struct dd_opts {
	const char *ealg, *aalg, *keyfile, *in, *out, *bs_text, *format;
	const char *csv;                /* --csv FILE: also append a CSV row */
	const char *backend;
	unsigned key_bits, sector;
	int key_bits_given, iv_large, decrypt, force;
	unsigned threads;
	uint64_t bs, count;
	int count_given;
};

/* ---- the pipeline ------------------------------------------------------- */

struct slot {
	uint8_t *in, *out, *bad;
	size_t nsec;               /* sectors in this request               */
	uint64_t first;            /* first sector number                   */
	uint64_t seq;              /* which request                         */
	size_t user_len;           /* plaintext bytes                       */
	size_t out_len;            /* bytes to write                        */
	int partial;               /* a short (last) record                 */
	int filled;
	unsigned done;
	int err;                   /* first error other than -EBADMSG       */
};

struct pipe {
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	struct slot *slots;
	unsigned depth, nthr;
	uint64_t wait_seq;         /* the slot main sleeps on; UINT64_MAX: none */
	int stop, enc;
	struct sector_xf *xf;
};

struct worker {
	struct pipe *p;
	struct sector_thr *t;
	unsigned idx;
	pthread_t tid;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pipe *p = w->p;
	const struct sector_cfg *c = sector_xf_cfg(p->xf);
	size_t ss = c->sector_size, db = sector_disk_bytes(p->xf);
	unsigned chunks = sector_chunks(p->xf);

	for (uint64_t seq = 0;; seq++) {
		struct slot *s = &p->slots[seq % p->depth];
		size_t lo, hi;
		int rc = 0;

		pthread_mutex_lock(&p->mu);
		while (!p->stop && !(s->filled && s->seq == seq))
			pthread_cond_wait(&p->work, &p->mu);
		if (!(s->filled && s->seq == seq)) {
			pthread_mutex_unlock(&p->mu);
			break;
		}
		pthread_mutex_unlock(&p->mu);
		lo = s->nsec * w->idx / p->nthr;
		hi = s->nsec * (w->idx + 1) / p->nthr;
		if (hi > lo && c->kind != SECTOR_NONE)
			rc = p->enc
			     ? sector_encrypt(w->t, s->first + lo, s->in + lo * ss,
			                      s->out + lo * db, hi - lo)
			     : sector_decrypt(w->t, s->first + lo, s->in + lo * db,
			                      s->out + lo * ss, hi - lo,
			                      s->bad + lo * chunks);
		pthread_mutex_lock(&p->mu);
		if (rc < 0 && rc != -EBADMSG && !s->err)
			s->err = rc;
		/* wake main only for the slot it waits on: every slot before it
		 * is done too, since each worker takes the slots in order */
		if (++s->done == p->nthr && s->seq >= p->wait_seq)
			pthread_cond_broadcast(&p->done);
		pthread_mutex_unlock(&p->mu);
	}
	return NULL;
}

/* ---- I/O ------------------------------------------------------------------ */

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	interrupted = 1;
}

/* Read up to len bytes (looping over short reads, as iflag=fullblock).
 * Returns the count (0 at EOF), or -errno; *got has what arrived. */
static ssize_t read_full(int fd, uint8_t *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = read(fd, buf + got, len - got);

		if (r < 0 && errno == EINTR) {
			if (interrupted)
				return -EINTR;
			continue;
		}
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* Write all of buf; *wrote counts what made it.  0 or -errno. */
static int write_full(int fd, const uint8_t *buf, size_t len, size_t *wrote)
{
	*wrote = 0;
	while (*wrote < len) {
		ssize_t w = write(fd, buf + *wrote, len - *wrote);

		if (w < 0 && errno == EINTR)
			continue;          /* finish the record even on SIGINT */
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		*wrote += (size_t)w;
	}
	return 0;
}

/* May of= (described by st) be written?  0, or -1 with a message. */
static int out_ok(const char *path, const struct stat *st, int force,
                  const struct stat *in_st)
{
	if (in_st && st->st_dev == in_st->st_dev && st->st_ino == in_st->st_ino &&
	    (S_ISREG(st->st_mode) || S_ISBLK(st->st_mode))) {
		cb_err("dd: of=%s: is the input file", path);
		return -1;
	}
	if (S_ISBLK(st->st_mode) && !force) {
		cb_err("dd: of=%s: is a block device; not overwritten without "
		       "--force", path);
		return -1;
	}
	if (S_ISREG(st->st_mode) && st->st_size > 0 && !force) {
		cb_err("dd: of=%s: exists and is not empty (%lld bytes); not "
		       "overwritten without --force", path, (long long)st->st_size);
		return -1;
	}
	return 0;
}

/* Open of= safely: never clobber a non-empty file or a block device
 * without --force - checked before it is opened, and again on what was
 * opened.  Returns the fd or -1 (message printed). */
static int open_out(const char *path, int force, const struct stat *in_st)
{
	struct stat st;
	int fd;

	if (stat(path, &st) == 0 && out_ok(path, &st, force, in_st) < 0)
		return -1;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) < 0) {
		cb_err("dd: of=%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		cb_err("dd: of=%s: %s", path, strerror(errno));
		goto fail;
	}
	if (out_ok(path, &st, force, in_st) < 0)
		goto fail;
	if (S_ISREG(st.st_mode) && st.st_size > 0 && ftruncate(fd, 0) < 0) {
		cb_err("dd: of=%s: truncate: %s", path, strerror(errno));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

static int read_key(const char *path, uint8_t *key, size_t need)
{
	uint8_t buf[CB_MAX_KEY + 1];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		cb_err("dd: -K %s: %s", path, strerror(errno));
		return -1;
	}
	n = read_full(fd, buf, sizeof buf);
	close(fd);
	if (n < 0) {
		cb_err("dd: -K %s: %s", path, strerror((int)-n));
		return -1;
	}
	if ((size_t)n != need) {
		cb_err("dd: -K %s: the key file holds %s%zd bytes; this "
		       "configuration takes exactly %zu%s", path,
		       (size_t)n > need ? "more than " : "",
		       (size_t)n > need ? (ssize_t)need : n, need,
		       need == SECTOR_GELI_MKEY ? " (geli's IV key || data key)" : "");
		cb_wipe(buf, sizeof buf);
		return -1;
	}
	memcpy(key, buf, need);
	cb_wipe(buf, sizeof buf);
	return 0;
}

/* ---- options ------------------------------------------------------------- */

enum {
	OPT_E = 1, OPT_L, OPT_A, OPT_S, OPT_K, OPT_BACKEND, OPT_J, OPT_DECRYPT,
	OPT_FORCE, OPT_FORMAT, OPT_IVLARGE, OPT_CSV, OPT_HELP,
};

static void dd_usage(FILE *f)
{
	fprintf(f,
	"usage: cryptobench dd -e EALG [-l KEYBITS] [-a AALG] [-s SECTOR] [-K KEYFILE]\n"
	"          [if=FILE] [of=FILE] [bs=N] [count=N] [--backend B] [-j THREADS]\n"
	"          [--decrypt] [--force] [--iv-large-sectors] [--format geli|csv|json]\n"
	"          [--csv FILE]\n"
	"  -e  geli: aes (= aes-xts), aes-cbc, camellia, blowfish, 3des, null;\n"
	"      dm-crypt: CIPHER-CHAIN-IVGEN, e.g. aes-cbc-essiv:sha256, aes-xts-plain64;\n"
	"      none: the baseline, no encryption\n"
	"  -l  geli key length (XTS: each half); dm-crypt: the whole key\n"
	"  -a  geli data authentication: hmac/md5 sha1 ripemd160 sha256 sha384 sha512\n"
	"  -s  sector size (geli default 4096, dm-crypt 512)\n"
	"  -K  geli: the 128-byte master key (IV key || data key); dm-crypt: the key.\n"
	"      Without it a random key is used.\n"
	"  if= input (default: zeros, like /dev/zero)  of= output (default: discard)\n"
	"  bs= request size, k/m suffixes (default 1m)  count= requests (default 200\n"
	"      from zeros; with if=, until end of file)\n"
	"  --csv FILE  also append the result to FILE as a CSV row (header if new)\n"
	"Exit: 0 ok, 1 data failed authentication (--decrypt), 2 usage or I/O error.\n");
}

static int parse_num(const char *what, const char *s, uint64_t *v, int size)
{
	if ((size ? cb_parse_size(s, v) : cb_parse_u64(s, v)) < 0) {
		cb_err("dd: %s: '%s' is not a %s", what, s,
		       size ? "size (digits with an optional k, m or g)"
		            : "decimal number");
		return -1;
	}
	return 0;
}

static int parse_opts(int argc, char **argv, struct dd_opts *o)
{
	static const struct cb_opt opts[] = {
		{ "-e", 1, OPT_E }, { "-l", 1, OPT_L }, { "-a", 1, OPT_A },
		{ "-s", 1, OPT_S }, { "-K", 1, OPT_K },
		{ "--backend", 1, OPT_BACKEND }, { "-b", 1, OPT_BACKEND },
		{ "-j", 1, OPT_J }, { "--decrypt", 0, OPT_DECRYPT },
		{ "--force", 0, OPT_FORCE }, { "--format", 1, OPT_FORMAT },
		{ "--iv-large-sectors", 0, OPT_IVLARGE }, { "--csv", 1, OPT_CSV },
		{ "-h", 0, OPT_HELP }, { "--help", 0, OPT_HELP },
		{ NULL, 0, 0 },
	};
	int i = 1, id;
	const char *arg;
	uint64_t v;

	memset(o, 0, sizeof *o);
	o->threads = 1;
	o->bs = 1 << 20;
	o->bs_text = "1m";
	o->count = 200;
	o->format = "geli";
	while ((id = cb_getopt(argc, argv, &i, opts, &arg)) != -1) {
		switch (id) {
		case -2:
			return -1;
		case OPT_HELP:
			dd_usage(stdout);
			return 1;
		case OPT_E: o->ealg = arg; break;
		case OPT_A: o->aalg = arg; break;
		case OPT_K: o->keyfile = arg; break;
		case OPT_BACKEND: o->backend = arg; break;
		case OPT_DECRYPT: o->decrypt = 1; break;
		case OPT_FORCE: o->force = 1; break;
		case OPT_IVLARGE: o->iv_large = 1; break;
		case OPT_CSV: o->csv = arg; break;
		case OPT_FORMAT:
			if (strcmp(arg, "geli") && strcmp(arg, "csv") &&
			    strcmp(arg, "json")) {
				cb_err("dd: --format: '%s' is not geli, csv or json", arg);
				return -1;
			}
			o->format = arg;
			break;
		case OPT_L:
			if (parse_num("-l", arg, &v, 0) < 0)
				return -1;
			if (v > 4096) {
				cb_err("dd: -l: %s bits is not a key length", arg);
				return -1;
			}
			o->key_bits = (unsigned)v;
			o->key_bits_given = 1;
			break;
		case OPT_S:
			if (parse_num("-s", arg, &v, 1) < 0)
				return -1;
			if (!v || v > 65536) {
				cb_err("dd: -s: %s is not a sector size (512 to 65536)",
				       arg);
				return -1;
			}
			o->sector = (unsigned)v;
			break;
		case OPT_J:
			if (parse_num("-j", arg, &v, 0) < 0)
				return -1;
			if (v < 1 || v > DD_MAX_THREADS) {
				cb_err("dd: -j: %s is not a thread count (1 to %d)", arg,
				       DD_MAX_THREADS);
				return -1;
			}
			o->threads = (unsigned)v;
			break;
		case 0:                       /* dd operands: name=value */
			if (!strncmp(arg, "if=", 3) && arg[3]) {
				o->in = arg + 3;
			} else if (!strncmp(arg, "of=", 3) && arg[3]) {
				o->out = arg + 3;
			} else if (!strncmp(arg, "bs=", 3)) {
				if (parse_num("bs=", arg + 3, &o->bs, 1) < 0)
					return -1;
				if (!o->bs || o->bs > DD_MAX_BS) {
					cb_err("dd: bs=: %s is not a block size (1 byte to "
					       "1g)", arg + 3);
					return -1;
				}
				o->bs_text = arg + 3;
			} else if (!strncmp(arg, "count=", 6)) {
				if (parse_num("count=", arg + 6, &o->count, 0) < 0)
					return -1;
				o->count_given = 1;
			} else {
				cb_err("dd: unknown operand '%s' (if=, of=, bs=, count=)",
				       arg);
				return -1;
			}
			break;
		}
	}
	if (!o->ealg) {
		cb_err("dd: -e: which encryption? (geli: aes, aes-cbc, camellia, "
		       "blowfish, 3des, null; a dm-crypt spec; or none)");
		return -1;
	}
	if (o->decrypt && !o->in) {
		cb_err("dd: --decrypt: needs if=IMAGE");
		return -1;
	}
	if (o->in && !o->count_given)
		o->count = UINT64_MAX;       /* until the end of the input */
	return 0;
}

static const struct cb_backend *pick_backend(const char *name)
{
	const struct cb_backend *b;

	if (name) {
		if (!(b = cb_backend_find(name)))
			cb_err("dd: --backend: unknown backend '%s' (see "
			       "'cryptobench list backends')", name);
		return b;
	}
	if ((b = cb_backend_find("openssl")) && cb_backend_status(b, NULL) == 0)
		return b;
	for (size_t i = 0; cb_backends[i]; i++)
		if (cb_backend_status(cb_backends[i], NULL) == 0)
			return cb_backends[i];
	cb_err("dd: no backend is available");
	return NULL;
}

/* The correctness gate: the sector-transform vectors on this backend. */
static int gate(const struct cb_backend *b, const struct sector_cfg *cfg)
{
	struct vec_file *files = NULL;
	size_t nfiles = 0;
	struct kat_count cnt = {0};
	struct stat st;

	if (stat(kat_default_dir(), &st) < 0) {
		cb_warn("dd: no vectors in %s: running without the correctness "
		        "gate", kat_default_dir());
	} else if (kat_load(kat_default_dir(), &files, &nfiles) < 0 ||
	           kat_validate(files, nfiles) < 0) {
		cb_warn("dd: no usable vectors: running without the correctness "
		        "gate");
	} else {
		sector_kat_run(b, files, nfiles, cfg, &cnt, stderr, 0);
	}
	for (size_t i = 0; i < nfiles; i++)
		vec_free(&files[i]);
	free(files);
	if (cnt.failed) {
		cb_err("dd: backend %s fails %u sector-transform vector%s: no "
		       "speed is reported", b->name, cnt.failed,
		       cnt.failed == 1 ? "" : "s");
		return -1;
	}
	return 0;
}

/* ---- reporting -------------------------------------------------------------- */

struct dd_stats {
	uint64_t full_in, part_in, full_out, part_out;
	uint64_t bytes;             /* plaintext bytes transferred           */
	uint64_t written;           /* bytes that reached of=                */
	uint64_t bad_bytes, bad_runs;
	double secs;
};

static void config_line(FILE *f, const struct dd_opts *o,
                        const struct sector_cfg *c, const char *provider)
{
	const char *key = o->keyfile ? o->keyfile : "key";

	switch (c->kind) {
	case SECTOR_GELI:
		fprintf(f, "geli init -P -e %s", o->ealg);
		if (o->key_bits_given)
			fprintf(f, " -l %u", o->key_bits);
		if (o->aalg)
			fprintf(f, " -a %s", o->aalg);
		fprintf(f, " -s %u -K %s %s\n", c->sector_size, key, provider);
		break;
	case SECTOR_DMCRYPT:
		fprintf(f, "cryptsetup open --type plain --cipher %s --key-size %u "
		        "--sector-size %u%s --key-file %s %s crypt\n", o->ealg,
		        c->key_bits, c->sector_size,
		        c->iv_large ? " --iv-large-sectors" : "", key, provider);
		break;
	case SECTOR_NONE:
		fprintf(f, "dd if=%s of=%s bs=%s", o->in ? o->in : "/dev/zero",
		        o->out ? o->out : "/dev/" SEED_PROVIDER, o->bs_text);
		if (o->count != UINT64_MAX)
			fprintf(f, " count=%llu", (unsigned long long)o->count);
		fputc('\n', f);
		break;
	}
}

static void records(FILE *f, const struct dd_stats *st)
{
	fprintf(f, "%llu+%llu records in\n%llu+%llu records out\n",
	        (unsigned long long)st->full_in, (unsigned long long)st->part_in,
	        (unsigned long long)st->full_out,
	        (unsigned long long)st->part_out);
}

/* FreeBSD dd's summary (bin/dd/misc.c). */
static void summary(FILE *f, const struct dd_stats *st)
{
	double secs = st->secs > 0 ? st->secs : 1e-9;

	fprintf(f, "%llu bytes transferred in %.6f secs (%.0f bytes/sec)\n",
	        (unsigned long long)st->bytes, st->secs,
	        (double)st->bytes / secs);
}

/* Append r to path as CSV (a header first when the file is new or empty). */
static int append_csv(const char *path, const struct cb_result *r)
{
	FILE *f = fopen(path, "a");
	int rc;

	if (!f) {
		cb_err("dd: --csv %s: %s", path, strerror(errno));
		return -1;
	}
	if (ftell(f) == 0)
		cb_csv_header(f);
	cb_csv_row(f, cb_prov(), r);
	rc = ferror(f) ? -1 : 0;
	if (fclose(f) != 0 || rc < 0) {
		cb_err("dd: --csv %s: write error", path);
		return -1;
	}
	return 0;
}

static int report(const struct dd_opts *o, const struct sector_xf *xf,
                  const struct cb_backend *b, const struct dd_stats *st,
                  const char *provider, char **argv, int argc)
{
	const struct sector_cfg *c = sector_xf_cfg(xf);
	struct cb_result r;
	struct cb_report rep;
	double ops, secs = st->secs > 0 ? st->secs : 1e-9;
	char cmd[1024];
	size_t at = 0;
	int geli = !strcmp(o->format, "geli");

	if (geli) {
		config_line(stdout, o, c, provider);
		records(c->kind == SECTOR_NONE ? stdout : stderr, st);
		summary(stdout, st);
		if (fflush(stdout) != 0)
			return -1;
		if (!o->csv)
			return 0;
	}
	for (int i = 0; i < argc && at < sizeof cmd - 1; i++)
		at += (size_t)snprintf(cmd + at, sizeof cmd - at, "%s%s",
		                       i ? " " : "cryptobench ", argv[i]);
	memset(&r, 0, sizeof r);
	ops = (double)(st->full_out + st->part_out) / secs;
	r.tool = "dd";
	r.backend = b->name;
	r.backend_version = b->version ? b->version() : "";
	r.backend_details = b->details ? b->details() : "";
	r.driver = sector_driver(xf);
	r.alg = sector_alg(xf);
	r.alg_label = o->ealg;
	r.auth = c->auth ? c->auth->name : "";
	r.key_bits = c->key_bits;
	r.block_bytes = o->bs;
	r.sector_bytes = c->kind == SECTOR_NONE ? 0 : c->sector_size;
	r.direction = o->decrypt ? "decrypt" : "encrypt";
	r.iv_mode = c->cipher && c->cipher->iv_len ? "per-sector" : "none";
	r.threads = o->threads;
	r.status = CB_RES_OK;
	r.ops_per_sec = ops;
	r.bytes_per_sec = (double)st->bytes / secs;
	r.ns_per_byte = st->bytes ? 1e9 * secs / (double)st->bytes : NAN;
	r.ghz = cb_prov_measure_ghz();
	r.cycles_per_byte = r.ghz > 0 ? r.ns_per_byte * r.ghz : NAN;
	r.overhead_ns = r.slope_ns_per_byte = NAN;
	r.reps = 1;
	r.rel_spread = 0;
	r.samples = &ops;
	r.bytes_total = st->bytes;
	r.seconds = st->secs;
	cb_iso_time(r.timestamp, sizeof r.timestamp);
	if (o->csv && append_csv(o->csv, &r) < 0)
		return -1;
	if (geli)
		return 0;
	memset(&rep, 0, sizeof rep);
	rep.prov = cb_prov();
	rep.res = &r;
	rep.n = 1;
	rep.sec = st->secs;
	rep.command = cmd;
	return cb_writer_find(o->format)->write(stdout, &rep) < 0 ? -1 : 0;
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

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- the command ------------------------------------------------------------ */

int cmd_dd(int argc, char **argv)
{
	struct dd_opts o;
	struct sector_cfg cfg;
	const struct cb_backend *b;
	struct sector_xf *xf = NULL;
	struct pipe p;
	struct worker *w = NULL;
	struct dd_stats st;
	struct stat in_st;
	uint8_t key[CB_MAX_KEY];
	uint8_t *zeros = NULL;
	size_t ss, db, unit_in, unit_out, nsec_req;
	uint64_t next_fill = 0, next_write = 0, next_sector = 0;
	unsigned started = 0;
	int in_fd = -1, out_fd = -1, rc = CB_EXIT_USAGE, eof = 0, err = 0;
	int have_in_st = 0, pipe_init = 0, is_file_out = 0;
	char provider[512], badname[520];
	struct sigaction sa, old_sa;
	sigset_t block, oldmask;
	double t0;

	memset(&st, 0, sizeof st);
	memset(&p, 0, sizeof p);
	switch (parse_opts(argc, argv, &o)) {
	case 1: return CB_EXIT_OK;
	case -1: return CB_EXIT_USAGE;
	}
	cb_clear_error();
	if (sector_parse(&cfg, o.ealg, o.key_bits, o.key_bits_given, o.aalg,
	                 o.sector, o.iv_large) < 0) {
		cb_err("dd: %s", cb_last_error());
		return CB_EXIT_USAGE;
	}
	if (cfg.kind == SECTOR_NONE && o.decrypt) {
		cb_err("dd: --decrypt: -e none has nothing to decrypt");
		return CB_EXIT_USAGE;
	}
	ss = cfg.kind == SECTOR_NONE ? 1 : cfg.sector_size;
	if (o.bs % ss) {
		cb_err("dd: bs=: %s is not a multiple of the sector size %zu",
		       o.bs_text, ss);
		return CB_EXIT_USAGE;
	}
	if (!(b = pick_backend(o.backend)))
		return CB_EXIT_USAGE;
	if (cfg.kind != SECTOR_NONE) {
		if (o.keyfile) {
			if (read_key(o.keyfile, key, cfg.key_len) < 0)
				return CB_EXIT_USAGE;
		} else {
			cb_random(key, cfg.key_len);
		}
	}
	cb_clear_error();
	if (sector_xf_new(&xf, &cfg, b, key, cfg.kind == SECTOR_NONE ? 0
	                                            : cfg.key_len) < 0) {
		cb_err("dd: --backend %s: %s", b->name, cb_last_error());
		cb_wipe(key, sizeof key);
		return CB_EXIT_USAGE;
	}
	cb_wipe(key, sizeof key);
	if (cfg.kind != SECTOR_NONE && gate(b, &cfg) < 0) {
		rc = CB_EXIT_FAIL;
		goto out;
	}
	/* files */
	if (o.in) {
		if ((in_fd = open(o.in, O_RDONLY | O_CLOEXEC)) < 0) {
			cb_err("dd: if=%s: %s", o.in, strerror(errno));
			goto out;
		}
		have_in_st = fstat(in_fd, &in_st) == 0;
	}
	if (o.out) {
		struct stat ost;

		if ((out_fd = open_out(o.out, o.force,
		                       have_in_st ? &in_st : NULL)) < 0)
			goto out;
		is_file_out = fstat(out_fd, &ost) == 0 &&
		              (S_ISREG(ost.st_mode) || S_ISBLK(ost.st_mode));
	}
	snprintf(provider, sizeof provider, "%s",
	         o.decrypt ? o.in : o.out ? o.out : SEED_PROVIDER);
	snprintf(badname, sizeof badname, "%s.eli", provider);

	/* the ring of request slots */
	db = cfg.kind == SECTOR_NONE ? 1 : sector_disk_bytes(xf);
	nsec_req = o.bs / ss;
	unit_in = o.decrypt ? db : ss;
	unit_out = o.decrypt ? ss : db;
	p.nthr = o.threads;
	/* 4 slots a worker (at most 16, and at most 512 MiB of buffers); main
	 * sleeps until half the ring is done, so it wakes once per depth/2
	 * requests, not once per request */
	p.depth = o.threads < 4 ? 4 * o.threads : 16;
	{
		uint64_t per = nsec_req * ((o.in ? unit_in : 0) + unit_out);
		uint64_t cap = per ? (512ull << 20) / per : p.depth;

		if (p.depth > cap)
			p.depth = cap < 2 ? 2 : (unsigned)cap;
	}
	p.wait_seq = UINT64_MAX;
	p.enc = !o.decrypt;
	p.xf = xf;
	p.slots = cb_xcalloc(p.depth, sizeof *p.slots);
	if (!o.in)
		zeros = cb_xcalloc(1, nsec_req * unit_in);
	for (unsigned i = 0; i < p.depth; i++) {
		struct slot *s = &p.slots[i];

		s->in = o.in ? cb_xaligned(nsec_req * unit_in) : zeros;
		s->out = cfg.kind == SECTOR_NONE ? s->in
		         : cb_xaligned(nsec_req * unit_out);
		/* fault the pages in now, not on the clock */
		memset(s->in, 0, nsec_req * unit_in);
		if (s->out != s->in)
			memset(s->out, 0, nsec_req * unit_out);
		s->bad = cb_xcalloc(o.decrypt ? nsec_req * sector_chunks(xf) : 1,
		                    1);
	}
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.work, NULL);
	pthread_cond_init(&p.done, NULL);
	pipe_init = 1;
	w = cb_xcalloc(p.nthr, sizeof *w);
	for (unsigned i = 0; i < p.nthr; i++) {
		w[i].p = &p;
		w[i].idx = i;
		if (sector_thr_new(&w[i].t, xf) < 0) {
			cb_err("dd: keying the transform failed: %s", cb_last_error());
			goto out;
		}
	}
	/* SIGINT goes to the main thread only. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	pthread_sigmask(SIG_BLOCK, &block, &oldmask);
	for (; started < p.nthr; started++)
		if (pthread_create(&w[started].tid, NULL, worker_main,
		                   &w[started]) != 0) {
			cb_err("dd: cannot start worker threads");
			break;
		}
	pthread_sigmask(SIG_SETMASK, &oldmask, NULL);
	if (started < p.nthr)
		goto stop;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sa.sa_flags = SA_RESETHAND;          /* a second ^C kills */
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, &old_sa);

	t0 = now();
	for (;;) {
		/* fill every free slot */
		while (!eof && !err && !interrupted &&
		       next_fill - next_write < p.depth && next_fill < o.count) {
			struct slot *s = &p.slots[next_fill % p.depth];
			size_t want = nsec_req * unit_in, got = want;

			if (o.in) {
				ssize_t n = read_full(in_fd, s->in, want);

				if (n == -EINTR)
					break;
				if (n < 0) {
					cb_err("dd: if=%s: read error after %llu bytes: %s",
					       o.in, (unsigned long long)(next_fill * want),
					       strerror((int)-n));
					err = 1;
					break;
				}
				got = (size_t)n;
				if (!got) {
					eof = 1;
					break;
				}
				if (got < want) {
					eof = 1;
					if (got % unit_in && o.decrypt) {
						cb_err("dd: if=%s: the image ends %zu bytes into "
						       "a %zu-byte sector of this layout", o.in,
						       got % unit_in, unit_in);
						err = 1;
						break;
					}
					if (got % unit_in) {
						size_t pad = unit_in - got % unit_in;

						cb_warn("dd: if=%s: the last record is padded "
						        "with %zu zero bytes to a whole sector",
						        o.in, pad);
						memset(s->in + got, 0, pad);
						got += pad;
					}
				}
			}
			s->partial = got < want;
			s->nsec = got / unit_in;
			s->first = next_sector;
			s->user_len = s->nsec * (o.decrypt ? unit_out : unit_in);
			s->out_len = s->nsec * unit_out;
			if (cfg.kind == SECTOR_NONE)
				s->nsec = 0;              /* nothing to transform */
			next_sector += got / unit_in;
			s->done = 0;
			s->err = 0;
			pthread_mutex_lock(&p.mu);
			s->seq = next_fill;
			s->filled = 1;
			pthread_cond_broadcast(&p.work);
			pthread_mutex_unlock(&p.mu);
			if (s->partial)
				st.part_in++;
			else
				st.full_in++;
			next_fill++;
		}
		if (next_write == next_fill)
			break;
		/* write the oldest, in order */
		{
			struct slot *s = &p.slots[next_write % p.depth];
			size_t wrote = 0;

			pthread_mutex_lock(&p.mu);
			if (s->done < p.nthr) {
				uint64_t t = next_write + p.depth / 2 - 1;
				struct slot *ts;

				if (t > next_fill - 1)          /* next_fill > next_write */
					t = next_fill - 1;
				ts = &p.slots[t % p.depth];
				p.wait_seq = t;
				while (ts->done < p.nthr)
					pthread_cond_wait(&p.done, &p.mu);
				p.wait_seq = UINT64_MAX;
			}
			s->filled = 0;
			pthread_mutex_unlock(&p.mu);
			if (s->err && !err) {
				cb_err("dd: the transform failed: %s%s%s",
				       strerror(-s->err), *cb_last_error() ? ": " : "",
				       cb_last_error());
				err = 1;
			}
			if (o.decrypt && cfg.auth)
				report_bad(s, xf, badname, &st);
			if (!err && out_fd >= 0) {
				int wr = write_full(out_fd, s->out, s->out_len, &wrote);

				st.written += wrote;
				if (wr < 0) {
					cb_err("dd: of=%s: write error after %llu bytes (%zu "
					       "of a %zu-byte record): %s", o.out,
					       (unsigned long long)st.written, wrote,
					       s->out_len, strerror(-wr));
					err = 1;
				}
			}
			if (!err) {
				st.bytes += s->user_len;
				if (s->partial)
					st.part_out++;
				else
					st.full_out++;
			}
			next_write++;
		}
	}
	if (!err && out_fd >= 0 && is_file_out && fsync(out_fd) < 0) {
		cb_err("dd: of=%s: fsync failed after %llu bytes: %s", o.out,
		       (unsigned long long)st.written, strerror(errno));
		err = 1;
	}
	st.secs = now() - t0;
	sigaction(SIGINT, &old_sa, NULL);
stop:
	pthread_mutex_lock(&p.mu);
	p.stop = 1;
	pthread_cond_broadcast(&p.work);
	pthread_mutex_unlock(&p.mu);
	for (unsigned i = 0; i < started; i++)
		pthread_join(w[i].tid, NULL);
	if (started < p.nthr)
		goto out;
	if (out_fd >= 0) {
		int c = close(out_fd);

		out_fd = -1;
		if (c < 0 && !err) {
			cb_err("dd: of=%s: close failed after %llu bytes: %s", o.out,
			       (unsigned long long)st.written, strerror(errno));
			err = 1;
		}
	}
	if (err) {
		records(stderr, &st);
		goto out;
	}
	if (report(&o, xf, b, &st, provider, argv, argc) < 0) {
		cb_err("dd: writing the report failed");
		goto out;
	}
	if (st.bad_runs) {
		cb_err("dd: if=%s: Integrity check failed: %llu bytes in %llu "
		       "region%s did not authenticate (read back as zeros)", o.in,
		       (unsigned long long)st.bad_bytes,
		       (unsigned long long)st.bad_runs, st.bad_runs == 1 ? "" : "s");
		rc = CB_EXIT_FAIL;
	} else {
		rc = interrupted ? DD_EXIT_INTR : CB_EXIT_OK;
	}
	if (interrupted)
		cb_warn("dd: interrupted: the report covers what was written");
out:
	if (in_fd >= 0)
		close(in_fd);
	if (out_fd >= 0)
		close(out_fd);
	if (w)
		for (unsigned i = 0; i < p.nthr; i++)
			sector_thr_free(w[i].t);
	free(w);
	if (p.slots) {
		for (unsigned i = 0; i < p.depth; i++) {
			if (p.slots[i].out != p.slots[i].in)
				free(p.slots[i].out);
			if (p.slots[i].in != zeros)
				free(p.slots[i].in);
			free(p.slots[i].bad);
		}
		free(p.slots);
	}
	free(zeros);
	if (pipe_init) {
		pthread_mutex_destroy(&p.mu);
		pthread_cond_destroy(&p.work);
		pthread_cond_destroy(&p.done);
	}
	sector_xf_free(xf);
	return rc;
}
