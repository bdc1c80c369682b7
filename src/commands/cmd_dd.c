/*
 * cmd_dd.c - `cryptobench dd`: what a disk write costs through geli (or a
 * dm-crypt mapping), measured the way the geli report measured it - dd's
 * operands, geli's options, FreeBSD dd's summary line - on any host and any
 * backend, writing images that are byte-exact with the real formats
 * (src/sector/sector.c; docs/dd.md pins the output to the seed report).
 *
 * This file is the command: options into a sector configuration, a keyed
 * transform, open files and a report.  The pipeline and its threads are
 * in dd_pipe.c, every read, write, fsync and open goes through the I/O
 * layer of dd_io.c, and the lines printed are the geli, cryptsetup and dd
 * writers of output.c.  An existing non-empty file or a block device is
 * not overwritten without --force; short writes and I/O errors say how
 * many bytes made it; SIGINT gives a partial report (exit 130).
 * --decrypt reads an image back, verifies every geli HMAC and reports
 * failures as geli does (exit 1).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/cb.h"
#include "commands/cmd.h"
#include "foundation/csv.h"
#include "dd/dd.h"
#include "dd/dd_io.h"
#include "dd/dd_pipe.h"
#include "dd/dd_run.h"
#include "output/output.h"
#include "output/result.h"
#include "sector/sector.h"
#include "system/sysinfo.h"
#include "foundation/util.h"

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
	int key_bits_given, iv_large, decrypt, force, no_gate;
	unsigned threads;
	uint64_t bs, count;
	int count_given;
};

/* ---- options ------------------------------------------------------------- */

enum {
	OPT_E = 1, OPT_L, OPT_A, OPT_S, OPT_K, OPT_BACKEND, OPT_J, OPT_DECRYPT,
	OPT_FORCE, OPT_FORMAT, OPT_IVLARGE, OPT_CSV, OPT_NOGATE,
};

static const struct cb_opt dd_options[] = {
	{ "-e", 1, OPT_E, "EALG",
	  "geli: aes (= aes-xts), aes-cbc, camellia, blowfish, 3des, null; "
	  "dm-crypt: CIPHER-CHAIN-IVGEN (aes-cbc-essiv:sha256, aes-xts-plain64); "
	  "none: the baseline" },
	{ "-l", 1, OPT_L, "KEYBITS",
	  "geli key length (XTS: each half); dm-crypt: the whole key" },
	{ "-a", 1, OPT_A, "AALG",
	  "geli data authentication: hmac/md5, hmac/sha1, hmac/ripemd160, "
	  "hmac/sha256, hmac/sha384, hmac/sha512" },
	{ "-s", 1, OPT_S, "SECTOR",
	  "sector size, 512 to 65536 (default geli 4096, dm-crypt 512)" },
	{ "-K", 1, OPT_K, "KEYFILE",
	  "geli: the 128-byte master key (IV key || data key); dm-crypt: the "
	  "key (default: a random key)" },
	{ "--backend", 1, OPT_BACKEND, "B",
	  "whose ciphers and hashes compute it (default openssl)" },
	{ "-b", 1, OPT_BACKEND, NULL, NULL },
	{ "-j", 1, OPT_J, "THREADS", "worker threads (default 1)" },
	{ "--decrypt", 0, OPT_DECRYPT, NULL,
	  "read an image back (needs if=): decrypt and verify every HMAC" },
	{ "--force", 0, OPT_FORCE, NULL,
	  "overwrite an existing non-empty file or a block device" },
	{ "--format", 1, OPT_FORMAT, "geli|csv|json",
	  "the output format (default geli: the report's lines)" },
	{ "--iv-large-sectors", 0, OPT_IVLARGE, NULL,
	  "dm-crypt's iv_large_sectors: IV sectors in -s units, not 512 bytes" },
	{ "--csv", 1, OPT_CSV, "FILE",
	  "also append the result to FILE as a CSV row (header if new)" },
	{ "--no-gate", 0, OPT_NOGATE, NULL,
	  "run even without the sector-transform vectors (refused otherwise)" },
	{ NULL, 0, 0, NULL, NULL },
};

const struct cb_command cb_cmd_dd = {
	.name = "dd", .run = cmd_dd, .opts = dd_options,
	.synopsis = "dd -e EALG [-l KEYBITS] [-a AALG] [-s SECTOR] [-K KEYFILE] "
	            "[if=FILE] [of=FILE]\n"
	            "          [bs=N] [count=N] [--backend B] [-j THREADS] "
	            "[--decrypt] [--force]\n"
	            "          [--iv-large-sectors] [--format geli|csv|json] "
	            "[--csv FILE]",
	.summary = "geli/dm-crypt sector encryption through dd, timed "
	           "(-e none: the baseline)",
	.more = "operands:\n"
	        "  if=FILE    input (default: zeros, like /dev/zero)\n"
	        "  of=FILE    output, the image (default: discarded)\n"
	        "  bs=N       request size, k/m/g suffixes (default 1m)\n"
	        "  count=N    requests (default 200 from zeros; with if=, until "
	        "the end)\n"
	        "dd exits 1 when data fails authentication (--decrypt), 130 on "
	        "SIGINT.\nSee docs/dd.md.\n",
};

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

/* A dd operand: if=, of=, bs=, count=. */
static int parse_operand(const char *arg, struct dd_opts *o)
{
	if (!strncmp(arg, "if=", 3) && arg[3]) {
		o->in = arg + 3;
	} else if (!strncmp(arg, "of=", 3) && arg[3]) {
		o->out = arg + 3;
	} else if (!strncmp(arg, "bs=", 3)) {
		if (parse_num("bs=", arg + 3, &o->bs, 1) < 0)
			return -1;
		if (!o->bs || o->bs > DD_MAX_BS) {
			cb_err("dd: bs=: %s is not a block size (1 byte to 1g)",
			       arg + 3);
			return -1;
		}
		o->bs_text = arg + 3;
	} else if (!strncmp(arg, "count=", 6)) {
		if (parse_num("count=", arg + 6, &o->count, 0) < 0)
			return -1;
		o->count_given = 1;
	} else {
		cb_err("dd: unknown operand '%s' (if=, of=, bs=, count=)", arg);
		return -1;
	}
	return 0;
}

/* A numeric option: -l, -s, -j. */
static int parse_numopt(int id, const char *arg, struct dd_opts *o)
{
	uint64_t v;

	if (parse_num(id == OPT_L ? "-l" : id == OPT_S ? "-s" : "-j", arg, &v,
	              id == OPT_S) < 0)
		return -1;
	if (id == OPT_L && v > 4096) {
		cb_err("dd: -l: %s bits is not a key length", arg);
		return -1;
	}
	if (id == OPT_S && (!v || v > 65536)) {
		cb_err("dd: -s: %s is not a sector size (512 to 65536)", arg);
		return -1;
	}
	if (id == OPT_J && (v < 1 || v > DD_MAX_THREADS)) {
		cb_err("dd: -j: %s is not a thread count (1 to %d)", arg,
		       DD_MAX_THREADS);
		return -1;
	}
	if (id == OPT_L) {
		o->key_bits = (unsigned)v;
		o->key_bits_given = 1;
	} else if (id == OPT_S) {
		o->sector = (unsigned)v;
	} else {
		o->threads = (unsigned)v;
	}
	return 0;
}

static int parse_opts(int argc, char **argv, struct dd_opts *o)
{
	int i = 1, id;
	const char *arg;

	memset(o, 0, sizeof *o);
	o->threads = 1;
	o->bs = 1 << 20;
	o->bs_text = "1m";
	o->count = 200;
	o->format = "geli";
	while ((id = cb_getopt(argc, argv, &i, dd_options, &arg)) != -1) {
		switch (id) {
		case -2:
			return -1;
		case OPT_E: o->ealg = arg; break;
		case OPT_A: o->aalg = arg; break;
		case OPT_K: o->keyfile = arg; break;
		case OPT_BACKEND: o->backend = arg; break;
		case OPT_DECRYPT: o->decrypt = 1; break;
		case OPT_FORCE: o->force = 1; break;
		case OPT_IVLARGE: o->iv_large = 1; break;
		case OPT_CSV: o->csv = arg; break;
		case OPT_NOGATE: o->no_gate = 1; break;
		case OPT_FORMAT:
			if (strcmp(arg, "geli") && strcmp(arg, "csv") &&
			    strcmp(arg, "json")) {
				cb_err("dd: --format: '%s' is not geli, csv or json", arg);
				return -1;
			}
			o->format = arg;
			break;
		case OPT_L:
		case OPT_S:
		case OPT_J:
			if (parse_numopt(id, arg, o) < 0)
				return -1;
			break;
		case 0:                       /* dd operands: name=value */
			if (parse_operand(arg, o) < 0)
				return -1;
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

/* The correctness gate: the sector-transform vectors on this backend,
 * from the vectors every gate uses (kat_gate_load).  0 passed;
 * CB_EXIT_FAIL a vector failed; CB_EXIT_USAGE no vectors (refused
 * without --no-gate). */
static int gate(const struct cb_backend *b, const struct sector_cfg *cfg,
                int no_gate)
{
	if (no_gate) {
		cb_warn("dd: --no-gate: running without the sector-transform "
		        "vectors");
		return 0;
	}
	return dd_gate(b, cfg, stderr);
}

/* ---- reporting -------------------------------------------------------------- */

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

/* The core clock for the CSV/JSON row: measured (~30 ms), or the one
 * CRYPTOBENCH_GHZ gives (a script running many short dd's passes one
 * measurement to all; bench's geli matrix runs dd in-process and gives
 * its own directly, dd_run.c). */
static double dd_ghz(void)
{
	const char *e = getenv("CRYPTOBENCH_GHZ");
	double g;

	if (e && cb_csv_number(e, &g) == 0 && g > 0.1 && g < 20)
		return g;
	return cb_prov_measure_ghz();
}

/* The run as a result row (CSV, JSON, and the summary line). */
static void fill_result(struct cb_result *r, const struct dd_opts *o,
                        const struct sector_xf *xf, const struct cb_backend *b,
                        const struct dd_stats *st, double *ops, int clock)
{
	struct dd_job j = { .xf = (struct sector_xf *)xf, .bs = o->bs,
	                    .threads = o->threads, .decrypt = o->decrypt };

	dd_result(r, &j, b, st, o->ealg, clock ? dd_ghz() : NAN, ops);
}

/* What the geli, cryptsetup and dd writers restate. */
static void fill_run(struct cb_dd_run *d, const struct dd_opts *o,
                     const struct sector_cfg *c, const struct dd_stats *st,
                     const char *provider)
{
	memset(d, 0, sizeof *d);
	d->ealg = o->ealg;
	d->aalg = o->aalg;
	d->keyfile = o->keyfile;
	d->key_bits = c->kind == SECTOR_GELI ? o->key_bits : c->key_bits;
	d->key_bits_given = o->key_bits_given;
	d->sector_size = c->sector_size;
	d->iv_large = c->iv_large;
	d->provider = provider;
	d->in = o->in ? o->in : "/dev/zero";
	d->out = o->out ? o->out : "/dev/" SEED_PROVIDER;
	d->bs_text = o->bs_text;
	d->count = o->count;
	d->full_in = st->full_in;
	d->part_in = st->part_in;
	d->full_out = st->full_out;
	d->part_out = st->part_out;
	d->records = stderr;
}

/* The writer for --format geli: the line of the tool dd stands in for. */
static const char *line_writer(enum sector_kind kind)
{
	static const char *const names[] = {
		[SECTOR_NONE] = "dd", [SECTOR_GELI] = "geli",
		[SECTOR_DMCRYPT] = "cryptsetup",
	};

	return names[kind];
}

static int report(const struct dd_opts *o, const struct sector_xf *xf,
                  const struct cb_backend *b, const struct dd_stats *st,
                  const char *provider, char **argv, int argc)
{
	const struct sector_cfg *c = sector_xf_cfg(xf);
	int geli = !strcmp(o->format, "geli");
	struct cb_result r;
	struct cb_dd_run run;
	struct cb_report rep;
	double ops;
	char cmd[1024];
	size_t at = 0;

	for (int i = 0; i < argc && at < sizeof cmd - 1; i++)
		at += (size_t)snprintf(cmd + at, sizeof cmd - at, "%s%s",
		                       i ? " " : "cryptobench ", argv[i]);
	fill_result(&r, o, xf, b, st, &ops, !geli || o->csv);
	fill_run(&run, o, c, st, provider);
	memset(&rep, 0, sizeof rep);
	rep.prov = cb_prov();
	rep.res = &r;
	rep.n = 1;
	rep.sec = st->secs;
	rep.command = cmd;
	rep.dd = &run;
	if (geli && cb_writer_find(line_writer(c->kind))->write(stdout, &rep) < 0)
		return -1;
	if (o->csv && append_csv(o->csv, &r) < 0)
		return -1;
	if (geli)
		return 0;
	return cb_writer_find(o->format)->write(stdout, &rep) < 0 ? -1 : 0;
}

/* ---- the command ------------------------------------------------------------ */

/* Options, configuration, key, transform and its gate.  -1 to go on
 * (*xfp keyed), else the exit code. */
static int prepare(int argc, char **argv, struct dd_opts *o,
                   const struct dd_io *io, const struct cb_backend **b,
                   struct sector_xf **xfp)
{
	struct sector_cfg cfg;
	uint8_t key[CB_MAX_KEY];
	size_t ss, klen;
	int rc;

	switch (parse_opts(argc, argv, o)) {
	case 1: return CB_EXIT_OK;
	case -1: return CB_EXIT_USAGE;
	}
	cb_clear_error();
	if (sector_parse(&cfg, o->ealg, o->key_bits, o->key_bits_given, o->aalg,
	                 o->sector, o->iv_large) < 0) {
		cb_err("dd: %s", cb_last_error());
		return CB_EXIT_USAGE;
	}
	if (cfg.kind == SECTOR_NONE && o->decrypt) {
		cb_err("dd: --decrypt: -e none has nothing to decrypt");
		return CB_EXIT_USAGE;
	}
	ss = cfg.kind == SECTOR_NONE ? 1 : cfg.sector_size;
	if (o->bs % ss) {
		cb_err("dd: bs=: %s is not a multiple of the sector size %zu",
		       o->bs_text, ss);
		return CB_EXIT_USAGE;
	}
	if (!(*b = pick_backend(o->backend)))
		return CB_EXIT_USAGE;
	klen = cfg.kind == SECTOR_NONE ? 0 : cfg.key_len;
	if (cfg.kind != SECTOR_NONE && o->keyfile) {
		if (dd_read_key(io, o->keyfile, key, klen, klen == SECTOR_GELI_MKEY
		                ? " (geli's IV key || data key)" : "") < 0)
			return CB_EXIT_USAGE;
	} else if (cfg.kind != SECTOR_NONE) {
		cb_random(key, klen);
	}
	cb_clear_error();
	rc = sector_xf_new(xfp, &cfg, *b, key, klen);
	cb_wipe(key, sizeof key);
	if (rc < 0) {
		cb_err("dd: --backend %s: %s", (*b)->name, cb_last_error());
		return CB_EXIT_USAGE;
	}
	if (cfg.kind != SECTOR_NONE && (rc = gate(*b, &cfg, o->no_gate))) {
		sector_xf_free(*xfp);
		return rc;
	}
	return -1;
}

/* The report and the exit code after the pipeline ran (ok: it did not
 * fail). */
static int conclude(const struct dd_opts *o, const struct sector_xf *xf,
                    const struct cb_backend *b, const struct dd_stats *st,
                    int ok, const char *provider, char **argv, int argc)
{
	struct cb_dd_run run;
	int rc;

	if (!ok) {
		fill_run(&run, o, sector_xf_cfg(xf), st, provider);
		cb_dd_records(stderr, &run);
		return CB_EXIT_USAGE;
	}
	if (report(o, xf, b, st, provider, argv, argc) < 0) {
		cb_err("dd: writing the report failed");
		return CB_EXIT_USAGE;
	}
	if (st->bad_runs) {
		cb_err("dd: if=%s: Integrity check failed: %llu bytes in %llu "
		       "region%s did not authenticate (read back as zeros)", o->in,
		       (unsigned long long)st->bad_bytes,
		       (unsigned long long)st->bad_runs,
		       st->bad_runs == 1 ? "" : "s");
		rc = CB_EXIT_FAIL;
	} else {
		rc = st->interrupted ? DD_EXIT_INTR : CB_EXIT_OK;
	}
	if (st->interrupted && o->out)
		cb_warn("dd: interrupted at offset %llu of if=%s: %llu bytes "
		        "written to of=%s; the report covers what was written",
		        (unsigned long long)st->in_bytes, o->in ? o->in : "/dev/zero",
		        (unsigned long long)st->written, o->out);
	else if (st->interrupted)
		cb_warn("dd: interrupted at offset %llu of if=%s (no of=); the "
		        "report covers what was done",
		        (unsigned long long)st->in_bytes, o->in ? o->in : "/dev/zero");
	return rc;
}

int cmd_dd_io(int argc, char **argv, const struct dd_io *io)
{
	struct dd_opts o;
	const struct cb_backend *b;
	struct sector_xf *xf = NULL;
	struct dd_job job;
	struct dd_stats st;
	struct stat in_st;
	char provider[512], badname[520];
	int rc, ran;

	if ((rc = prepare(argc, argv, &o, io, &b, &xf)) != -1)
		return rc;
	rc = CB_EXIT_USAGE;
	memset(&job, 0, sizeof job);
	job.out_fd = -1;
	if (!o.in)
		job.in_fd = -1;
	else if ((job.in_fd = dd_open_in(io, o.in, &in_st)) < 0)
		goto free_xf;
	if (o.out && (job.out_fd = dd_open_out(io, o.out, o.force, o.in ? &in_st
	                                       : NULL, &job.out_sync)) < 0)
		goto close_in;
	snprintf(provider, sizeof provider, "%s",
	         o.decrypt ? o.in : o.out ? o.out : SEED_PROVIDER);
	snprintf(badname, sizeof badname, "%s.eli", provider);
	job.in_size = o.in && S_ISREG(in_st.st_mode) ? (uint64_t)in_st.st_size
	                                              : 0;
	job.xf = xf;
	job.io = io;
	job.in = o.in;
	job.out = o.out;
	job.badname = badname;
	job.bs = o.bs;
	job.count = o.count;
	job.threads = o.threads;
	job.decrypt = o.decrypt;
	if ((ran = dd_pipe_run(&job, &st)) == DD_PIPE_NOSTART)
		goto close_out;
	if (job.out_fd >= 0 && io->close(job.out_fd) < 0 && ran == 0) {
		cb_err("dd: of=%s: close failed after %llu bytes: %s", o.out,
		       (unsigned long long)st.written, strerror(errno));
		ran = -1;
	}
	job.out_fd = -1;
	rc = conclude(&o, xf, b, &st, ran == 0, provider, argv, argc);
close_out:
	if (job.out_fd >= 0)
		io->close(job.out_fd);
close_in:
	if (job.in_fd >= 0)
		io->close(job.in_fd);
free_xf:
	sector_xf_free(xf);
	return rc;
}

int cmd_dd(int argc, char **argv)
{
	return cmd_dd_io(argc, argv, &dd_io_posix);
}
