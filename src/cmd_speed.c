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

#include "cb.h"
#include "cmd.h"
#include "measure.h"
#include "output.h"
#include "speed_opts.h"
#include "util.h"

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

int cmd_speed(int argc, char **argv)
{
	struct cb_result *res = NULL;
	size_t nres = 0, nfail = 0;
	struct speed_cli c = { 0 };
	struct speed_opts o;
	FILE *f = stdout;
	int rc = CB_EXIT_USAGE;

	opts_init(&o);
	if (speed_parse(CMD_SPEED, argc, argv, &o, &c) < 0 ||
	    opts_finish(&o, default_algs) < 0)
		goto out;
	if (c.out_path && check_out(c.out_path, c.force) < 0)
		goto out;
	o.command = join_args(argc, argv);

	rc = speed_run(&o, &res, &nres, &nfail);
	if (rc != CB_EXIT_OK)
		goto out;
	if (c.out_path && !(f = open_out(c.out_path, c.force))) {
		rc = CB_EXIT_USAGE;
		goto out;
	}
	rc = emit(c.w, f, c.out_path, &o, res, nres) < 0 ? CB_EXIT_USAGE
	     : nfail ? CB_EXIT_FAIL : CB_EXIT_OK;
	if (f != stdout && fclose(f) != 0 && rc == CB_EXIT_OK) {
		cb_err("writing %s: %s", c.out_path, strerror(errno));
		rc = CB_EXIT_USAGE;
	}
out:
	free_results(res, nres);
	free((void *)o.command);
	free_opts(&o);
	return rc;
}
