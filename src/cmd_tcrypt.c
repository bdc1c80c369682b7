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

#include "cb.h"
#include "cmd.h"
#include "output.h"
#include "speed_opts.h"
#include "sysinfo.h"
#include "tcrypt_log.h"
#include "util.h"

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
	  "run tcrypt mode N as well and keep every section it prints" },
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

struct tc_cli {
	const char *algs[32], *log, *out;
	int modes[16];
	size_t nalgs, nmodes;
	unsigned sec;
	int sync, force;
	const struct cb_writer *w;
};

static int parse(int argc, char **argv, struct tc_cli *c)
{
	const char *arg;
	const struct cb_alg *a;
	int i = 1, id;
	char *end;

	c->sec = 1;
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
			if (c->nalgs < 32)
				c->algs[c->nalgs++] = a->name;
		} else if (id == OPT_SEC || id == OPT_MODE) {
			long v = strtol(arg, &end, 10);

			if (*end || end == arg || v < 0 || v > (id == OPT_SEC ? 60 : 9999)) {
				cb_err("%s: '%s' is not a number in range", id == OPT_SEC
				       ? "--sec" : "--mode", arg);
				return -1;
			}
			if (id == OPT_SEC)
				c->sec = (unsigned)v;
			else if (c->nmodes < 16)
				c->modes[c->nmodes++] = (int)v;
		} else if (id == OPT_FORMAT && !(c->w = cb_writer_find(arg))) {
			cb_err("--format: unknown format '%s'", arg);
			return -1;
		}
		c->sync |= id == OPT_SYNC;
		c->force |= id == OPT_FORCE;
		if (id == OPT_LOG)
			c->log = arg;
		if (id == OPT_OUT)
			c->out = arg;
	}
	if (!c->nalgs && !c->nmodes) {
		c->algs[c->nalgs++] = "essiv(cbc(aes),sha256)";
		c->algs[c->nalgs++] = "cbc(aes)";
	}
	return 0;
}

/* the kernel's tcrypt module file, or "" */
static void module_path(char *buf, size_t n, int *compressed)
{
	static const char *const ext[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };
	struct utsname u;

	buf[0] = 0;
	if (uname(&u) < 0)
		return;
	for (size_t i = 0; i < 4; i++) {
		snprintf(buf, n, "/lib/modules/%s/kernel/crypto/tcrypt%s",
		         u.release, ext[i]);
		if (access(buf, R_OK) == 0) {
			*compressed = i > 0;
			return;
		}
	}
	buf[0] = 0;
}

/* every record /dev/kmsg has after fd's position, one line each */
static char *read_kmsg(int fd)
{
	size_t cap = 1 << 16, len = 0;
	char *text = cb_xmalloc(cap), rec[8192];
	ssize_t n;

	for (;;) {
		n = read(fd, rec, sizeof rec - 1);
		if (n < 0 && errno == EPIPE)      /* overwritten: go on */
			continue;
		if (n <= 0)
			break;
		rec[n] = 0;
		rec[strcspn(rec, "\n")] = 0;      /* the dictionary lines follow */
		if (len + (size_t)n + 2 > cap)
			text = cb_xrealloc(text, cap *= 2);
		len += (size_t)sprintf(text + len, "%s\n", rec);
	}
	text[len] = 0;
	return text;
}

/* load tcrypt with mode and sec; its log lines into *text.  CB_EXIT_OK,
 * CB_EXIT_SKIP (cannot run here: the message says why) or CB_EXIT_USAGE */
static int run_mode(int mode, unsigned sec, char **text)
{
	char path[256], params[64];
	int compressed = 0, kfd, mfd, rc, e;

	module_path(path, sizeof path, &compressed);
	if (!path[0]) {
		cb_err("tcrypt: no tcrypt module for this kernel under /lib/modules"
		       " (CONFIG_CRYPTO_TEST=m; Debian's linux-image ships it)");
		return CB_EXIT_SKIP;
	}
	if (geteuid() != 0) {
		cb_err("tcrypt: loading the kernel's tcrypt module needs root "
		       "(CAP_SYS_MODULE)");
		return CB_EXIT_SKIP;
	}
	if ((kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		cb_err("tcrypt: cannot read the kernel log /dev/kmsg: %s",
		       strerror(errno));
		return CB_EXIT_SKIP;
	}
	lseek(kfd, 0, SEEK_END);
	if ((mfd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		cb_err("tcrypt: %s: %s", path, strerror(errno));
		close(kfd);
		return CB_EXIT_USAGE;
	}
	snprintf(params, sizeof params, "mode=%d sec=%u", mode, sec);
	fprintf(stderr, "cryptobench: tcrypt %s ...\n", params);
	rc = (int)syscall(SYS_finit_module, mfd, params, compressed ? 4 : 0);
	e = errno;
	close(mfd);
	*text = read_kmsg(kfd);
	close(kfd);
	if (rc == 0)              /* it stayed: take it out again */
		syscall(SYS_delete_module, "tcrypt", O_NONBLOCK);
	else if (e == EPERM) {
		cb_err("tcrypt: the kernel refused to load %s (EPERM: lockdown, "
		       "kernel.modules_disabled or module signing)", path);
		return CB_EXIT_SKIP;
	} else if (e != EAGAIN) {  /* EAGAIN: its tests ran, as designed */
		cb_err("tcrypt: loading %s %s: %s", path, params, strerror(e));
		return CB_EXIT_USAGE;
	}
	return CB_EXIT_OK;
}

/* parse text for alg (NULL: every known one) into res; 0 rows is an error */
static int take(const char *text, const char *alg, int mode, unsigned sec,
                struct cb_result **res, size_t *n)
{
	static char details[16][64];
	static int nd;
	size_t first = *n;
	int k = tc_parse(text, alg, mode ? cb_prov()->ghz : 0, res, n);

	if (k < 0)
		return CB_EXIT_USAGE;
	if (k == 0 && !mode)
		cb_err("tcrypt: the log has no tcrypt speed section for %s",
		       alg ? alg : "an algorithm cryptobench knows");
	else if (k == 0)
		cb_err("tcrypt: mode %d printed no speed section%s%s (this kernel "
		       "lacks it, or the mode table is wrong for it)", mode,
		       alg ? " for " : "", alg ? alg : "");
	if (k == 0)
		return CB_EXIT_USAGE;
	snprintf(details[nd % 16], sizeof details[0], "tcrypt.ko mode=%d sec=%u "
	         "(in-kernel)", mode, sec);
	for (size_t i = first; i < *n; i++) {
		(*res)[i].backend_details = details[nd % 16];
		cb_iso_time((*res)[i].timestamp, sizeof (*res)[i].timestamp);
	}
	nd++;
	return CB_EXIT_OK;
}

/* a saved kernel log (at most 16 MiB), or NULL with the message printed */
static char *read_log(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t cap = 1 << 16, len = 0, k;
	char *text;

	if (!f) {
		cb_err("--log: %s: %s", path, strerror(errno));
		return NULL;
	}
	text = cb_xmalloc(cap);
	while ((k = fread(text + len, 1, cap - len - 1, f)) > 0) {
		len += k;
		if (len + 1 == cap && cap < (16u << 20))
			text = cb_xrealloc(text, cap *= 2);
		else if (len + 1 == cap)
			break;
	}
	text[len] = 0;
	if (ferror(f) || memchr(text, 0, len)) {
		cb_err("--log: %s: %s", path, ferror(f) ? strerror(errno)
		       : "not a text file (a NUL byte)");
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

/* every algorithm's mode (run once each) or the saved log into res */
static int collect(const struct tc_cli *c, const char *log,
                   struct cb_result **res, size_t *n)
{
	int ran[32], nran = 0, rc = CB_EXIT_OK;
	char *texts[32] = { NULL };

	for (size_t i = 0; i < c->nalgs + c->nmodes && rc == CB_EXIT_OK; i++) {
		const struct tc_mode *m = i < c->nalgs ? tc_mode_find(c->algs[i]) : NULL;
		int mode = m ? (c->sync && m->sync ? m->sync : m->async ? m->async
		                : m->sync) : c->modes[i - c->nalgs];
		const char *text = log;
		int k = 0;

		while (!log && k < nran && ran[k] != mode)
			k++;
		if (!log && k == nran && nran < 32) {
			ran[nran] = mode;
			if ((rc = run_mode(mode, c->sec, &texts[nran])) != CB_EXIT_OK)
				break;
			nran++;
		}
		if (!log)
			text = texts[k];
		rc = take(text, m ? m->alg : NULL, log ? 0 : mode, c->sec, res, n);
	}
	for (int k = 0; k < 32; k++)
		free(texts[k]);
	return rc;
}

int cmd_tcrypt(int argc, char **argv)
{
	struct tc_cli c = { .nalgs = 0 };
	struct cb_result *res = NULL;
	size_t n = 0;
	char *log = NULL;
	struct utsname u;
	FILE *f = stdout;
	int rc = CB_EXIT_USAGE;

	if (parse(argc, argv, &c) < 0 || (c.out && check_out(c.out, c.force) < 0))
		return CB_EXIT_USAGE;
	if (c.log && !(log = read_log(c.log)))
		return CB_EXIT_USAGE;
	if (c.sec == 0 && !log)       /* cycles into rates (cycles form); a */
		cb_prov_measure_ghz();    /* saved log's clock is not ours     */
	if ((rc = collect(&c, log, &res, &n)) != CB_EXIT_OK)
		goto out;
	for (size_t i = 0; i < n; i++)
		res[i].backend_version = uname(&u) == 0 && !log ? cb_xstrdup(u.release)
		                         : "";
	struct cb_report rep = { .prov = cb_prov(), .res = res, .n = n,
	                         .cycles = c.sec == 0, .sec = c.sec };
	if (c.out && !(f = open_out(c.out, c.force))) {
		rc = CB_EXIT_USAGE;
		goto out;
	}
	rc = c.w->write(f, &rep) < 0 ? CB_EXIT_USAGE : CB_EXIT_OK;
	if (f != stdout && fclose(f) != 0 && rc == CB_EXIT_OK) {
		cb_err("writing %s: %s", c.out, strerror(errno));
		rc = CB_EXIT_USAGE;
	}
out:
	for (size_t i = 0; i < n; i++)
		if (res[i].backend_version && res[i].backend_version[0])
			free((void *)res[i].backend_version);
	tc_free(res, n);
	free(log);
	return rc;
}
