/*
 * dd_run.c - a dd run as a result (dd_run.h): the correctness gate of the
 * sector transforms, the row a run makes (`dd --csv`, `--format json`,
 * bench's geli matrix), and a whole run from zeros to nowhere in this
 * process, the one bench's geli matrix takes its samples with.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "core/cb.h"
#include "dd/dd_pipe.h"
#include "dd/dd_run.h"
#include "kat/kat.h"
#include "output/result.h"
#include "sector/sector.h"
#include "system/sysinfo.h"
#include "foundation/util.h"

int dd_gate(const struct cb_backend *b, const struct sector_cfg *cfg,
            FILE *out)
{
	const struct vec_file *files;
	size_t nfiles;
	struct kat_count cnt = {0};

	if (kat_gate_load(&files, &nfiles) < 0)
		return CB_EXIT_USAGE;
	kat_sector_run(b, files, nfiles, cfg, &cnt, out, 0);
	if (cnt.failed) {
		cb_err("dd: backend %s fails %u sector-transform vector%s: no "
		       "speed is reported", b->name, cnt.failed,
		       cnt.failed == 1 ? "" : "s");
		return CB_EXIT_FAIL;
	}
	return 0;
}

void dd_result(struct cb_result *r, const struct dd_job *j,
               const struct cb_backend *b, const struct dd_stats *st,
               const char *ealg, double ghz, double *ops)
{
	const struct sector_cfg *c = sector_xf_cfg(j->xf);
	double secs = st->secs > 0 ? st->secs : 1e-9;

	memset(r, 0, sizeof *r);
	*ops = (double)(st->full_out + st->part_out) / secs;
	r->tool = "dd";
	r->backend = b->name;
	r->backend_version = b->version ? b->version() : "";
	r->backend_details = b->details ? b->details() : "";
	r->driver = sector_driver(j->xf);
	r->alg = sector_alg(j->xf);
	r->alg_label = ealg;
	r->auth = c->auth ? c->auth->name : "";
	r->key_bits = c->key_bits;
	r->block_bytes = j->bs;
	r->sector_bytes = c->kind == SECTOR_NONE ? 0 : c->sector_size;
	r->direction = j->decrypt ? "decrypt" : "encrypt";
	r->iv_mode = c->cipher && c->cipher->iv_len ? "per-sector" : "none";
	r->threads = j->threads;
	r->status = CB_RES_OK;
	r->ops_per_sec = *ops;
	r->bytes_per_sec = (double)st->bytes / secs;
	r->ns_per_byte = st->bytes ? 1e9 * secs / (double)st->bytes : NAN;
	r->ghz = ghz;
	r->cycles_per_byte = r->ghz > 0 ? r->ns_per_byte * r->ghz : NAN;
	r->overhead_ns = r->slope_ns_per_byte = NAN;
	r->ghz_drift = r->shared = NAN;
	r->reps = 1;
	r->rel_spread = 0;
	r->samples = ops;
	r->bytes_total = st->bytes;
	r->seconds = st->secs;
	cb_iso_time(r->timestamp, sizeof r->timestamp);
}

/* The configuration keyed on the backend with a random key; 0, or -1
 * (the backend lacks it: cb_last_error() says what). */
static int keyed(const struct dd_zero *z, const struct cb_backend *b,
                 struct sector_cfg *cfg, struct sector_xf **xf)
{
	uint8_t key[CB_MAX_KEY];
	size_t klen;
	int rc;

	cb_clear_error();
	if (sector_parse(cfg, z->ealg, z->key_bits, z->key_bits != 0, z->aalg,
	                 z->sector, 0) < 0)
		return -1;
	klen = cfg->kind == SECTOR_NONE ? 0 : cfg->key_len;
	cb_random(key, klen);
	rc = sector_xf_new(xf, cfg, b, key, klen);
	cb_wipe(key, sizeof key);
	return rc < 0 ? -1 : 0;
}

int dd_zero_run(const struct dd_zero *z, struct dd_zero_out *out)
{
	const struct cb_backend *b = cb_backend_find(z->backend);
	struct sector_cfg cfg;
	struct sector_xf *xf = NULL;
	struct dd_job job = { .io = &dd_io_posix, .in_fd = -1, .out_fd = -1,
	                      .bs = 1u << 20, .count = z->count, .threads = 1 };
	struct dd_stats st;
	int rc = -1;

	if (!b || keyed(z, b, &cfg, &xf) < 0)
		return -1;
	if (z->gate && cfg.kind != SECTOR_NONE &&
	    dd_gate(b, &cfg, z->gate_out) != 0)
		goto out;
	job.xf = xf;
	if (dd_pipe_run(&job, &st) != 0)
		goto out;
	if (st.interrupted) {        /* a part of a sample: not one */
		raise(SIGINT);       /* to the handler before the pipeline's */
		goto out;
	}
	dd_result(&out->r, &job, b, &st, z->ealg, z->ghz, &out->ops);
	out->r.samples = NULL;
	out->r.backend_details = out->r.backend_details ? out->r.backend_details
	                         : "";
	snprintf(out->driver, sizeof out->driver, "%s", out->r.driver);
	snprintf(out->alg, sizeof out->alg, "%s", out->r.alg);
	out->r.driver = out->driver;
	out->r.alg = out->alg;
	rc = 0;
out:
	sector_xf_free(xf);
	return rc;
}
