/*
 * tcrypt_run.c - running the kernel's tcrypt module (tcrypt_run.h): load
 * tcrypt.ko with mode=N sec=S (finit_module) for each algorithm's speed
 * mode, once a mode, read what it wrote to /dev/kmsg and parse the
 * sections of the algorithms asked for (tcrypt_log.c).  The module's load
 * fails by design once its tests have run (EAGAIN).  docs/kernel.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

#include "core/cb.h"
#include "system/sysinfo.h"
#include "tcrypt/tcrypt_log.h"
#include "tcrypt/tcrypt_run.h"
#include "foundation/util.h"

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
	struct utsname u;
	int have_u = mode && uname(&u) == 0;

	for (size_t i = first; i < *n; i++) {
		(*res)[i].backend_details = details[nd % 16];
		(*res)[i].backend_version = cb_xstrdup(have_u ? u.release : "");
		cb_iso_time((*res)[i].timestamp, sizeof (*res)[i].timestamp);
	}
	nd++;
	return CB_EXIT_OK;
}

char *tc_read_log(const char *path)
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

int tc_run(const struct tc_req *c, const char *log, struct cb_result **res,
           size_t *n)
{
	size_t all = c->nalgs + c->nmodes, nran = 0;
	int *ran = cb_xcalloc(all ? all : 1, sizeof *ran), rc = CB_EXIT_OK;
	char **texts = cb_xcalloc(all ? all : 1, sizeof *texts);

	for (size_t i = 0; i < all && rc == CB_EXIT_OK; i++) {
		const struct tc_mode *m = i < c->nalgs ? tc_mode_find(c->algs[i]) : NULL;
		int mode = m ? (c->sync && m->sync ? m->sync : m->async ? m->async
		                : m->sync) : c->modes[i - c->nalgs];
		const char *text = log;
		size_t k = 0;

		while (!log && k < nran && ran[k] != mode)
			k++;
		if (!log && k == nran) {
			ran[nran] = mode;
			if ((rc = run_mode(mode, c->sec, &texts[nran])) != CB_EXIT_OK)
				break;
			nran++;
		}
		if (!log)
			text = texts[k];
		rc = take(text, m ? m->alg : NULL, log ? 0 : mode, c->sec, res, n);
	}
	for (size_t k = 0; k < all; k++)
		free(texts[k]);
	free(texts);
	free(ran);
	return rc;
}


int tc_available(const char **why)
{
	char path[256];
	int compressed;

	module_path(path, sizeof path, &compressed);
	*why = !path[0] ? "no tcrypt module for this kernel"
	       : geteuid() != 0 ? "not root" : NULL;
	return *why ? -1 : 0;
}
