/*
 * cmd_bench.c - `cryptobench bench`: the whole matrix of the seed's
 * algorithms on every backend, into a CSV and a JSON file in results/
 * and a table on stdout.  Options into calls, as cmd_speed.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cb.h"
#include "cmd.h"
#include "measure.h"
#include "output.h"
#include "speed_opts.h"
#include "sysinfo.h"
#include "util.h"

/* `bench`: the seed's algorithms of both reports. */
static const char *const bench_algs[] = {
	"essiv(cbc(aes),sha256)", "cbc(aes)", "xts(aes)", "cbc(camellia)",
	"cbc(blowfish)", "cbc(des3_ede)", "hmac(md5)", "hmac(sha1)",
	"hmac(rmd160)", "hmac(sha256)", "hmac(sha384)", "hmac(sha512)", NULL,
};

static const struct cb_opt *bench_table(void)
{
	return speed_options(CMD_BENCH);
}

const struct cb_command cb_cmd_bench = {
	.name = "bench", .run = cmd_bench, .opts_fn = bench_table,
	.synopsis = "bench [--quick] [--out DIR] [--sec S] [--reps N] "
	            "[--backend B]...",
	.summary = "the whole matrix of both seed reports, into results/",
	.more = "Prints a table and writes OUT/HOST-TIME.csv and .json.  "
	        "See docs/speed.md.\n",
};

/* The options, the defaults and the output directory; 0 or -EINVAL. */
static int bench_opts(int argc, char **argv, struct speed_opts *o,
                      struct speed_cli *c)
{
	struct stat st;

	opts_init(o);
	o->sec = 0.3;
	if (speed_parse(CMD_BENCH, argc, argv, o, c) < 0)
		return -EINVAL;
	if (c->quick) {
		if (!c->sec_set)
			o->sec = 0.1;
		if (parse_sizes(o, "16,256,8192") < 0)
			return -EINVAL;
	}
	if (opts_finish(o, bench_algs) < 0)
		return -EINVAL;
	if (stat(c->outdir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		cb_err("--out: '%s' is not a directory", c->outdir);
		return -EINVAL;
	}
	o->command = join_args(argc, argv);
	return 0;
}

/* Create DIR/HOST-STAMP.csv and .json; 0 or -1 (message printed). */
static int open_files(const char *outdir, FILE *f[2], char path[2][4096])
{
	time_t now = time(NULL);
	char stamp[32];
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
	for (int k = 0; k < 2; k++) {
		snprintf(path[k], sizeof path[k], "%s/%s-%s.%s", outdir,
		         cb_prov()->host, stamp, k ? "json" : "csv");
		if (!(f[k] = open_out(path[k], 0)))
			return -1;
	}
	return 0;
}

/* The CSV and JSON files and the table on stdout; the exit code. */
static int write_all(const struct speed_opts *o, FILE *f[2],
                     char path[2][4096], const struct cb_result *res,
                     size_t nres)
{
	int rc = CB_EXIT_OK;

	if (emit(cb_writer_find("csv"), f[0], path[0], o, res, nres) < 0 ||
	    emit(cb_writer_find("json"), f[1], path[1], o, res, nres) < 0 ||
	    emit(cb_writer_find("table"), stdout, NULL, o, res, nres) < 0)
		return CB_EXIT_USAGE;
	for (int k = 0; k < 2; k++) {
		if (fclose(f[k]) != 0) {
			cb_err("writing %s: %s", path[k], strerror(errno));
			rc = CB_EXIT_USAGE;
		}
		f[k] = NULL;
	}
	fprintf(stderr, "cryptobench: results in %s and %s\n", path[0], path[1]);
	return rc;
}

int cmd_bench(int argc, char **argv)
{
	struct speed_opts o;
	struct speed_cli c = { 0 };
	int rc = CB_EXIT_USAGE;
	struct cb_result *res = NULL;
	size_t nres = 0, nfail = 0;
	char path[2][4096];
	FILE *f[2] = { NULL, NULL };

	if (bench_opts(argc, argv, &o, &c) < 0 ||
	    open_files(c.outdir, f, path) < 0)
		goto out;
	rc = speed_run(&o, &res, &nres, &nfail);
	if (rc != CB_EXIT_OK)
		goto out;
	rc = write_all(&o, f, path, res, nres);
	if (rc == CB_EXIT_OK && nfail)
		rc = CB_EXIT_FAIL;
out:
	for (int k = 0; k < 2; k++)
		if (f[k]) {
			fclose(f[k]);
			if (rc != CB_EXIT_OK && rc != CB_EXIT_FAIL)
				unlink(path[k]);   /* ours, and empty */
		}
	free_results(res, nres);
	free((void *)o.command);
	free_opts(&o);
	return rc;
}
