/*
 * ct_mem.c - the memcheck method (ctgrind, TIMECOP): this binary runs
 * again under valgrind as `ct --memcheck-child`, marks each
 * implementation's key and data undefined (ct_work.c's hooks) and writes
 * markers into valgrind's log around each implementation; the parent reads
 * the log back.  memcheck reports a conditional jump on an undefined value
 * ("Conditional jump or move depends on uninitialised value(s)": a secret-
 * dependent branch) and an address computed from one ("Use of
 * uninitialised value of size N": a secret-dependent memory index).
 *
 * memcheck reports an error once per place and counts its repeats; an
 * implementation whose errors all repeat places an earlier one showed (a
 * template over the same cipher) is run again alone, so that its own
 * places are named.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define CT_HAVE_VALGRIND 1
#endif
#endif

#include "ct/ct.h"
#include "system/cpulevel.h"
#include "foundation/util.h"

/* ---- the CPU valgrind shows ---------------------------------------------- */

/* The CB_HW_* groups the CPU reports through CPUID (what the libraries
 * look at), here or under valgrind's synthetic CPU; 0 where there is no
 * CPUID (then backends' own words are compared instead). */
unsigned ct_cpu_groups(void)
{
#if defined(__x86_64__)
	unsigned a, b, c, d, g = 0;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
	                 : "a"(1), "c"(0));
	g |= c & 1u << 25 ? CB_HW_AES : 0;
	g |= c & 1u << 1 ? CB_HW_PCLMUL : 0;
	g |= c & 1u << 28 ? CB_HW_AVX : 0;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
	                 : "a"(7), "c"(0));
	g |= b & 1u << 5 ? CB_HW_AVX2 : 0;
	g |= c & 1u << 9 ? CB_HW_VAES : 0;
	g |= b & 1u << 16 ? CB_HW_AVX512 : 0;
	g |= b & 1u << 29 ? CB_HW_SHA : 0;
	return g;
#else
	return 0;
#endif
}

static unsigned vg_groups;          /* CT-CPU: what valgrind showed */

unsigned ct_mem_cpu_groups(void)
{
	return vg_groups;
}

/* ---- the child, under valgrind ---------------------------------------- */

#ifdef CT_HAVE_VALGRIND
static void mark_secret(const void *p, size_t n)
{
	VALGRIND_MAKE_MEM_UNDEFINED(p, n);
}

static void mark_public(const void *p, size_t n)
{
	VALGRIND_MAKE_MEM_DEFINED(p, n);
}

static void phase(const char *what)
{
	VALGRIND_PRINTF("CT-PHASE %s %u\n", what,
	                (unsigned)VALGRIND_COUNT_ERRORS);
}

int ct_mem_child(const struct cb_impl *const *impls, size_t n)
{
	static const struct ct_hooks h = { mark_secret, mark_public, phase };

	VALGRIND_PRINTF("CT-CPU %x\n", ct_cpu_groups());
	for (int b = 0; cb_backends[b]; b++)
		if (cb_backend_status(cb_backends[b], NULL) == 0)
			VALGRIND_PRINTF("CT-DETAILS %s %s\n", cb_backends[b]->name,
			                cb_backends[b]->details
			                ? cb_backends[b]->details() : "");
	for (size_t i = 0; i < n; i++) {
		int rc;

		VALGRIND_PRINTF("CT-BEGIN %zu %u %s\n", i,
		                (unsigned)VALGRIND_COUNT_ERRORS, impls[i]->driver);
		cb_clear_error();
		rc = ct_work_all(impls[i], &h);
		VALGRIND_PRINTF("CT-END %zu %u %d %s\n", i,
		                (unsigned)VALGRIND_COUNT_ERRORS, rc,
		                rc ? cb_last_error() : "");
	}
	return 0;
}
#else
int ct_mem_child(const struct cb_impl *const *impls, size_t n)
{
	(void)impls, (void)n;
	cb_err("ct: built without valgrind's headers (valgrind/memcheck.h)");
	return -1;
}
#endif

/* ---- the parent: reading valgrind's log ------------------------------- */

/* What the log says of the implementation being read. */
struct reader {
	struct ct_result *res;
	size_t n;
	long cur;                /* the section's implementation, or -1     */
	unsigned begin, keyend;  /* error counts at its markers            */
	int kind;                /* the error whose stack comes next: 0 none,
	                            1 branch, 2 index, 3 other             */
	unsigned uniq;           /* distinct errors in the section          */
};

static void add_place(struct ct_mem *m, const char *frame, int kind)
{
	static const char *const what[] = { "", "branch", "memory index",
	                                    "other error" };

	char p[sizeof m->places[0]];

	snprintf(p, sizeof p, "%s: %s", what[kind], frame);
	for (unsigned i = 0; i < m->nplaces; i++)
		if (!strcmp(m->places[i], p))
			return;                /* another address, the same place */
	if (m->nplaces < CT_PLACES)
		snprintf(m->places[m->nplaces++], sizeof m->places[0], "%s", p);
}

/* "==PID==    at 0x4A1B: FN (FILE:LINE)" -> "FN (FILE:LINE)" */
static const char *frame_of(const char *text)
{
	const char *c = strstr(text, ": ");

	return c ? c + 2 : text;
}

static void error_line(struct reader *r, const char *text)
{
	struct ct_mem *m;

	if (r->cur < 0)
		return;
	m = &r->res[r->cur].mem;
	if (r->kind && (!strncmp(text, "   at ", 6))) {
		add_place(m, frame_of(text), r->kind);
		r->kind = 0;
		return;
	}
	r->kind = strstr(text, "Conditional jump or move depends on uninit")
	          ? 1 : strstr(text, "Use of uninitialised value of size") ? 2
	          : strstr(text, "uninitialised") || strstr(text, "Invalid ")
	          ? 3 : 0;
	if (r->kind)
		r->uniq++;
	if (r->kind == 1)
		m->branch++;
	else if (r->kind == 2)
		m->index++;
	else if (r->kind == 3)
		m->other++;
}

/* What each backend said of its code path under valgrind (CT-DETAILS). */
static struct { char name[32], details[480]; } seen[CB_MAX_BACKENDS];
static size_t nseen;

const char *ct_mem_details(const char *backend)
{
	for (size_t i = 0; i < nseen; i++)
		if (!strcmp(seen[i].name, backend))
			return seen[i].details;
	return NULL;
}

static void details(const char *text)
{
	int off = 0;
	char name[32];

	if (sscanf(text, "CT-DETAILS %31s %n", name, &off) < 1 || !off ||
	    ct_mem_details(name) || nseen == CB_MAX_BACKENDS)
		return;
	snprintf(seen[nseen].name, sizeof seen[nseen].name, "%s", name);
	snprintf(seen[nseen++].details, sizeof seen[0].details, "%s",
	         text + off);
}

/* The result the child's section i, of driver drv, belongs to: i when
 * its driver is drv, else the first not yet read with that driver (the
 * child's order is its own); n when none. */
static unsigned long section(const struct reader *r, unsigned long i,
                             const char *drv)
{
	if (i < r->n && !strcmp(r->res[i].driver, drv) && !r->res[i].mem.ran)
		return i;
	for (i = 0; i < r->n; i++)
		if (!strcmp(r->res[i].driver, drv) && !r->res[i].mem.ran &&
		    !*r->res[i].mem.why)
			return i;
	return r->n;
}

static void marker(struct reader *r, const char *text)
{
	unsigned long i;
	unsigned c;
	int rc, off = 0;
	char ph[16];

	if (!strncmp(text, "CT-DETAILS ", 11)) {
		details(text);
	} else if (sscanf(text, "CT-CPU %x", &c) == 1) {
		vg_groups = c;
	} else if (sscanf(text, "CT-BEGIN %lu %u %n", &i, &c, &off) >= 2 &&
	           (i = section(r, i, text + off)) < r->n) {
		r->cur = (long)i, r->begin = r->keyend = c, r->uniq = 0;
		r->res[i].mem.ran = 1;
	} else if (r->cur >= 0 && sscanf(text, "CT-PHASE %15s %u", ph, &c) == 2) {
		if (strcmp(ph, "key"))
			r->keyend = c;
	} else if (r->cur >= 0 && sscanf(text, "CT-END %lu %u %d %n", &i, &c,
	                                 &rc, &off) >= 3) {
		struct ct_mem *m = &r->res[r->cur].mem;

		m->total = c - r->begin;
		m->keysetup = r->keyend - r->begin;
		m->repeats_only = m->total && !r->uniq;
		if (rc) {
			m->ran = 0;
			snprintf(m->why, sizeof m->why, "its requests failed under "
			         "valgrind: %s", off ? text + off : "");
		}
		r->cur = -1;
	}
}

/* Read valgrind's log into res; 0, or -1 if it is not there. */
static int read_log(const char *path, struct ct_result *res, size_t n)
{
	struct reader r = { .res = res, .n = n, .cur = -1 };
	char line[2048];
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		char *t;

		line[strcspn(line, "\n")] = 0;
		if (line[0] == '*' && (t = strstr(line, "** ")))
			marker(&r, t + 3);
		else if (line[0] == '=' && (t = strstr(line + 2, "== ")))
			error_line(&r, t + 3);
	}
	fclose(f);
	return 0;
}

/* ---- the parent: running the child ------------------------------------ */

static int find_valgrind(char *buf, size_t n)
{
	const char *path = getenv("PATH");
	char dir[4096];

	while (path && *path) {
		size_t l = strcspn(path, ":");

		snprintf(dir, sizeof dir, "%.*s/valgrind", (int)l, path);
		if (access(dir, X_OK) == 0) {
			snprintf(buf, n, "%s", dir);
			return 0;
		}
		path += l + (path[l] == ':');
	}
	return -1;
}

/* The plug-ins this process loaded that the child would not find by
 * itself (--plugin): into av from k; the new k. */
static int plugin_args(char **av, int k, int max)
{
	const char *dir = cb_plugin_dir(), *env = getenv("CRYPTOBENCH_PLUGIN_PATH");

	for (int b = 0; cb_backends[b] && k + 2 < max; b++) {
		const char *f = cb_backends[b]->file;

		if (!f || (dir && !strncmp(f, dir, strlen(dir)) &&
		           !strchr(f + strlen(dir) + 1, '/')) ||
		    (env && strstr(env, f)))
			continue;
		av[k++] = "--plugin";
		av[k++] = (char *)f;
	}
	return k;
}

/*
 * The --cpu level the child runs at: the one asked for without what
 * Debian 12's valgrind (3.19) lacks - SHA-NI, VAES, AVX-512 - so that no
 * library's switch (NETTLE_FAT_OVERRIDE names the extensions it will use,
 * whatever CPUID says) sends it into an instruction valgrind cannot run.
 * Which path memcheck then ran is read from the child's CPUID (CT-CPU).
 */
static const char *vg_level(const char *level, char *buf, size_t n)
{
#if defined(__x86_64__)
	static const char *const lower[] = { "avx2", "aesni", "generic" };
	unsigned hw, need, h2;
	char err[160];

	if (cb_cpu_level_parse(level, &hw, &need, err, sizeof err) < 0)
		hw = CB_HW_ALL;
	hw &= ~(unsigned)(CB_HW_SHA | CB_HW_VAES | CB_HW_AVX512);
	for (size_t i = 0; i < sizeof lower / sizeof *lower; i++)
		if (cb_cpu_level_parse(lower[i], &h2, &need, err, sizeof err) == 0 &&
		    (h2 & ~(unsigned)CB_HW_SHA & ~hw) == 0) {
			snprintf(buf, n, "%s-nosha", lower[i]);
			return buf;
		}
#endif
	snprintf(buf, n, "%s", level);
	return buf;
}

static int spawn_child(const struct cb_impl *const *impls, size_t n,
                       const char *level, const char *log, char *why,
                       size_t whylen)
{
	char vg[4096], self[4096], logarg[4200], err[4200], lv[64];
	char **av = cb_xcalloc(n * 2 + 128, sizeof *av);
	int k = 0, rc;

#if defined(__SANITIZE_ADDRESS__)
	snprintf(why, whylen, "an AddressSanitizer build: valgrind cannot run "
	         "it");
	free(av);
	return -1;
#endif
#ifndef CT_HAVE_VALGRIND
	snprintf(why, whylen, "built without valgrind's headers "
	         "(valgrind/memcheck.h: apt-get install valgrind, rebuild)");
	free(av);
	return -1;
#endif
	if (find_valgrind(vg, sizeof vg) < 0 || cb_exe_path(self, sizeof self) < 0) {
		snprintf(why, whylen, "no valgrind (Debian: apt-get install "
		         "valgrind)");
		free(av);
		return -1;
	}
	snprintf(logarg, sizeof logarg, "--log-file=%s", log);
	snprintf(err, sizeof err, "%s.err", log);
	/* the level applied natively first (its library switches in the
	 * environment), then valgrind exec'd: ct --memcheck-exec */
	av[k++] = self;
	k = plugin_args(av, k, 40);
	av[k++] = "--cpu";
	av[k++] = (char *)vg_level(level, lv, sizeof lv);
	av[k++] = "ct";
	av[k++] = "--memcheck-exec";
	av[k++] = "--";               /* the rest is valgrind's command */
	av[k++] = vg;
	av[k++] = "--tool=memcheck";
	av[k++] = "--error-limit=no";
	av[k++] = "--leak-check=no";
	av[k++] = "--num-callers=4";
	av[k++] = logarg;
	av[k++] = self;
	k = plugin_args(av, k, 80);
	av[k++] = "ct";
	av[k++] = "--memcheck-child";
	for (size_t i = 0; i < n; i++) {
		av[k++] = "--driver";
		av[k++] = (char *)impls[i]->driver;
	}
	rc = cb_spawn(self, av, "/dev/null", err);
	free(av);
	unlink(err);
	if (rc != 0)
		snprintf(why, whylen, "valgrind ended with status %d", rc);
	return rc == 0 ? 0 : -1;
}

int ct_mem_run(const struct cb_impl *const *impls, size_t n,
               struct ct_result *res, const char *level, char *why,
               size_t whylen)
{
	char log[64];
	int fd, rc;

	snprintf(log, sizeof log, "/tmp/cryptobench-ct.XXXXXX");
	if ((fd = mkstemp(log)) < 0) {
		snprintf(why, whylen, "cannot make a temporary file");
		return -1;
	}
	close(fd);
	rc = spawn_child(impls, n, level, log, why, whylen);
	if (rc == 0 && read_log(log, res, n) < 0) {
		snprintf(why, whylen, "valgrind wrote no log");
		rc = -1;
	}
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (!res[i].mem.ran && !*res[i].mem.why)
			snprintf(res[i].mem.why, sizeof res[i].mem.why, "not run "
			         "under valgrind: the driver is not there on "
			         "valgrind's CPU");
	if (!getenv("CRYPTOBENCH_CT_KEEP_LOG"))     /* docs/ct.md */
		unlink(log);
	else
		fprintf(stderr, "ct: valgrind's log kept: %s\n", log);
	for (size_t i = 0; rc == 0 && n > 1 && i < n; i++)
		if (res[i].mem.repeats_only) {   /* its own places, alone */
			memset(&res[i].mem, 0, sizeof res[i].mem);
			if (ct_mem_run(&impls[i], 1, &res[i], level, why, whylen) < 0)
				snprintf(res[i].mem.why, sizeof res[i].mem.why, "%s", why);
		}
	return rc;
}
