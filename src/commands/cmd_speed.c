/*
 * cmd_speed.c - `cryptobench speed`: how fast each algorithm, key size
 * and request size runs on each backend.  Options into calls: the option
 * table is speed_opts.c's, the run is measure.c's (plan, gate, time), the
 * report is a writer's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cb.h"
#include "foundation/stats.h"
#include "foundation/timing.h"
#include "commands/cmd.h"
#include "measure/kdf_search.h"
#include "measure/measure.h"
#include "output/output.h"
#include "measure/speed_opts.h"
#include "foundation/util.h"

/* The seed's algorithms: `speed` without --alg. */
static const char *const default_algs[] = {
	"essiv(cbc(aes),sha256)", "cbc(aes)", NULL,
};

static const struct cb_opt *speed_table(void)
{
	return speed_options(CMD_SPEED);
}

const struct cb_command cb_cmd_speed = {
	.name = "speed", .run = cmd_speed, .opts_fn = speed_table,
	.synopsis = "speed [--backend B]... [--alg A]... [--key-bits N,..] "
	            "[--sizes N,..|kernel]\n"
	            "          [--sec S] [--encrypt|--decrypt] "
	            "[--iv per-request|once] [--sector-size S]\n"
	            "          [--format tcrypt|table|csv|json] [-o FILE] ...",
	.summary = "how fast each algorithm, key and request size runs on each "
	           "backend",
	.more = "Each implementation passes its known-answer vectors and a "
	        "cross-check of the\ntimed requests against another backend "
	        "before it is timed.  See docs/speed.md.\n",
};

/* Argon2 in cryptsetup's lines: found by a cost search, not timed as a
 * point; taken out of the selection into o->argon.  At most 4 lanes and
 * 1 GiB (cryptsetup's defaults), at most half the memory there is. */
static void argon_take(struct speed_opts *o)
{
	size_t k = 0;

	o->argon = cb_xcalloc(o->sel.nalgs, sizeof *o->argon);
	for (size_t i = 0; i < o->sel.nalgs; i++) {
		const struct cb_alg *a = o->sel.algs[i].alg;

		if (a->kind == CB_KDF && !a->inner)
			o->argon[o->nargon++].name = a->name;
		else
			o->sel.algs[k++] = o->sel.algs[i];
	}
	o->sel.nalgs = k;
}

static void argon_search(struct speed_opts *o)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	uint64_t half = pages > 0 && psz > 0 ? (uint64_t)pages * psz / 2048 : 0;
	uint32_t max_kib = half && half < 1048576 ? (uint32_t)half : 1048576;

	for (size_t i = 0; i < o->nargon; i++) {
		struct cb_argon_line *l = &o->argon[i];
		struct cb_argon_cost c;

		l->requested_ms = o->iter_time_ms;
		for (size_t b = 0; b < o->sel.nbackends && !l->ok; b++) {
			const struct cb_impl *im = cb_impl_find(o->sel.backends[b], l->name, 0);

			if (!im || cb_backend_status(o->sel.backends[b], NULL) < 0 ||
			    cb_impl_status(im, NULL) < 0)
				continue;
			if (o->progress)
				fprintf(stderr, "speed: %s on %s: the cost for %u ms "
				        "(cryptsetup's search)\n", l->name,
				        o->sel.backends[b]->name, o->iter_time_ms);
			if (kdf_argon2_search(im, o->iter_time_ms, max_kib, 4, &c) == 0)
				*l = (struct cb_argon_line){ l->name, 1, c.passes,
				        c.memory, c.lanes, o->iter_time_ms };
		}
	}
}

/*
 * --format cryptsetup in about the time `cryptsetup benchmark` takes:
 * samples of 10 ms, round robin, at least CS_ROUNDS of them a point, then
 * only the points whose 95 % CI is still wider than +-2 %, at most --sec
 * of samples a point (docs/cryptsetup.md).  --reps N: N samples each.
 */
#define CS_SAMPLE 0.01
#define CS_ROUNDS 8

static void cryptsetup_sampling(struct speed_opts *o)
{
	unsigned most = (unsigned)(o->sec / CS_SAMPLE + 0.5);

	if (o->reps)
		return;
	o->sample = CS_SAMPLE;
	o->reps = most < CS_ROUNDS ? CS_ROUNDS : most > CB_MAX_REPS
	          ? CB_MAX_REPS : most;
	o->min_rounds = CS_ROUNDS;
	o->target = CB_STATS_NOISY;
	if (o->warmup > 0.02)
		o->warmup = 0.02;            /* a point's first visit */
}

int cmd_speed(int argc, char **argv)
{
	struct cb_result *res = NULL;
	size_t nres = 0, nfail = 0;
	struct speed_cli c = { 0 };
	struct speed_opts o;
	FILE *f = stdout;
	int rc = CB_EXIT_USAGE;

	speed_opts_init(&o);
	if (speed_parse(CMD_SPEED, argc, argv, &o, &c) < 0 ||
	    (c.w == cb_writer_find("cryptsetup") && speed_opts_cryptsetup(&o) < 0) ||
	    speed_opts_finish(&o, default_algs) < 0)
		goto out;
	if (c.w == cb_writer_find("cryptsetup")) {
		argon_take(&o);
		cryptsetup_sampling(&o);
	}
	if (c.out_path && speed_check_out(c.out_path, c.force) < 0)
		goto out;
	o.command = speed_join_args(argc, argv);

	rc = o.sel.nalgs ? speed_run(&o, &res, &nres, &nfail) : CB_EXIT_OK;
	if (rc != CB_EXIT_OK)
		goto out;
	argon_search(&o);
	if (c.out_path && !(f = speed_open_out(c.out_path, c.force))) {
		rc = CB_EXIT_USAGE;
		goto out;
	}
	rc = speed_emit(c.w, f, c.out_path, &o, res, nres) < 0 ? CB_EXIT_USAGE
	     : nfail ? CB_EXIT_FAIL : CB_EXIT_OK;
	if (f != stdout && fclose(f) != 0 && rc == CB_EXIT_OK) {
		cb_err("writing %s: %s", c.out_path, strerror(errno));
		rc = CB_EXIT_USAGE;
	}
out:
	speed_free_results(res, nres);
	free((void *)o.command);
	speed_free_opts(&o);
	return rc;
}
