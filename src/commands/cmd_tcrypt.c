/*
 * cmd_tcrypt.c - `cryptobench tcrypt`: the kernel's own in-kernel timing.
 * Loads the kernel's tcrypt module (tcrypt.ko, CONFIG_CRYPTO_TEST=m) with
 * `mode=N sec=S` for the speed mode of each algorithm asked for
 * (tcrypt_log.c's table), reads the lines it writes to the kernel log
 * (/dev/kmsg) and turns the sections whose headers name that algorithm
 * into results for the usual writers (tcrypt, table, csv, json).  The
 * module's load always fails by design once its tests have run (EAGAIN).
 * `--log FILE` parses a saved kernel log instead (dmesg of another host).
 * docs/kernel.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

#include "core/cb.h"
#include "commands/cmd.h"
#include "output/output.h"
#include "measure/speed_opts.h"
#include "system/select.h"
#include "system/sysinfo.h"
#include "tcrypt/tcrypt_log.h"
#include "tcrypt/tcrypt_run.h"
#include "foundation/util.h"

enum { OPT_ALG = 1, OPT_SEC, OPT_SYNC, OPT_MODE, OPT_LOG, OPT_FORMAT,
       OPT_OUT, OPT_FORCE };

static const struct cb_opt tc_options[] = {
	{ "--alg", 1, OPT_ALG, "A",
	  "an algorithm (repeatable; default essiv(cbc(aes),sha256) and "
	  "cbc(aes)): its tcrypt speed mode is run" },
	{ "-a", 1, OPT_ALG, NULL, NULL },
	{ "--sec", 1, OPT_SEC, "S",
	  "tcrypt's sec=: seconds a point (default 1); 0: its cycle count of "
	  "8 requests" },
	{ "--sync", 0, OPT_SYNC, NULL,
	  "tcrypt's synchronous mode of the algorithm (default: the async one, "
	  "as the seed report)" },
	{ "--mode", 1, OPT_MODE, "N",
	  "run tcrypt mode N as well and keep every section of an algorithm "
	  "cryptobench knows" },
	{ "--log", 1, OPT_LOG, "FILE",
	  "parse a saved kernel log (dmesg) instead of loading the module" },
	{ "--format", 1, OPT_FORMAT, "tcrypt|table|csv|json",
	  "the output format (default tcrypt)" },
	{ "-o", 1, OPT_OUT, "FILE", "write the output to FILE" },
	{ "--force", 0, OPT_FORCE, NULL, "overwrite -o FILE if it exists" },
	{ NULL, 0, 0, NULL, NULL },
};

const struct cb_command cb_cmd_tcrypt = {
	.name = "tcrypt", .run = cmd_tcrypt, .opts = tc_options,
	.synopsis = "tcrypt [--alg A]... [--sec S] [--sync] [--mode N]... "
	            "[--log FILE]\n          [--format tcrypt|table|csv|json] "
	            "[-o FILE]",
	.summary = "the kernel's in-kernel timing (its tcrypt module), as results",
	.more = "Needs root and the kernel's tcrypt module (Debian's kernels "
	        "ship it); exit 77\nwhen it cannot run.  See docs/kernel.md.\n",
};

/* What struct tc_req holds: a repeated --alg counts once (select.c), and
 * tcrypt_log.c's table has fewer algorithms than this. */
#define NALGS (sizeof ((struct tc_req *)0)->algs / sizeof (const char *))
#define NMODES (sizeof ((struct tc_req *)0)->modes / sizeof (int))

struct tc_cli {
	struct tc_req r;
	struct cb_sel sel;          /* --alg, as every command parses it     */
	const char *log, *out;
	int force;
	const struct cb_writer *w;
};

static int parse(int argc, char **argv, struct tc_cli *c)
{
	const char *arg;
	const struct cb_alg *a;
	int i = 1, id;
	char *end;

	c->r.sec = 1;
	c->w = cb_writer_find("tcrypt");
	while ((id = cb_getopt(argc, argv, &i, tc_options, &arg)) != -1) {
		if (id == -2)
			return -1;
		if (id == 0) {
			cb_err("tcrypt: unexpected argument '%s'", arg);
			return -1;
		}
		if (id == OPT_ALG) {
			if (!(a = cb_alg_find(arg, NULL)) || !tc_mode_find(a->name)) {
				cb_err("--alg: '%s' has no tcrypt speed mode here "
				       "(docs/kernel.md lists them)", arg);
				return -1;
			}
			if (cb_sel_alg(&c->sel, arg) < 0)
				return -1;
		} else if (id == OPT_SEC || id == OPT_MODE) {
			long v = strtol(arg, &end, 10);

			if (*end || end == arg || v < 0 || v > (id == OPT_SEC ? 60 : 9999)) {
				cb_err("%s: '%s' is not a number in range", id == OPT_SEC
				       ? "--sec" : "--mode", arg);
				return -1;
			}
			if (id == OPT_SEC) {
				c->r.sec = (unsigned)v;
			} else if (c->r.nmodes == NMODES) {
				cb_err("--mode: at most %zu modes a run", NMODES);
				return -1;
			} else {
				c->r.modes[c->r.nmodes++] = (int)v;
			}
		} else if (id == OPT_FORMAT && !(c->w = cb_writer_find(arg))) {
			cb_err("--format: unknown format '%s'", arg);
			return -1;
		}
		c->r.sync |= id == OPT_SYNC;
		c->force |= id == OPT_FORCE;
		if (id == OPT_LOG)
			c->log = arg;
		if (id == OPT_OUT)
			c->out = arg;
	}
	if (!c->sel.nalgs && !c->r.nmodes) {
		cb_sel_alg(&c->sel, "essiv(cbc(aes),sha256)");
		cb_sel_alg(&c->sel, "cbc(aes)");
	}
	if (c->sel.nalgs > NALGS) {     /* tcrypt_log.c has fewer modes */
		cb_err("--alg: at most %zu algorithms a run", NALGS);
		return -1;
	}
	for (size_t k = 0; k < c->sel.nalgs; k++)
		c->r.algs[c->r.nalgs++] = c->sel.algs[k].alg->name;
	return 0;
}

int cmd_tcrypt(int argc, char **argv)
{
	struct tc_cli c = { .log = NULL };
	struct cb_result *res = NULL;
	size_t n = 0;
	char *log = NULL;
	FILE *f = stdout;
	int rc = CB_EXIT_USAGE;

	if (parse(argc, argv, &c) < 0 ||
	    (c.out && speed_check_out(c.out, c.force) < 0) ||
	    (c.log && !(log = tc_read_log(c.log))))
		goto out;
	if (c.r.sec == 0 && !log)       /* cycles into rates (cycles form); a */
		cb_prov_measure_ghz();    /* saved log's clock is not ours     */
	if ((rc = tc_run(&c.r, log, &res, &n)) != CB_EXIT_OK)
		goto out;
	struct cb_report rep = { .prov = cb_prov(), .res = res, .n = n,
	                         .cycles = c.r.sec == 0, .sec = c.r.sec };
	if (c.out && !(f = speed_open_out(c.out, c.force))) {
		rc = CB_EXIT_USAGE;
		goto out;
	}
	rc = c.w->write(f, &rep) < 0 ? CB_EXIT_USAGE : CB_EXIT_OK;
	if (f != stdout && fclose(f) != 0 && rc == CB_EXIT_OK) {
		cb_err("writing %s: %s", c.out, strerror(errno));
		rc = CB_EXIT_USAGE;
	}
out:
	tc_free(res, n);
	free(log);
	cb_sel_free(&c.sel);
	return rc;
}
