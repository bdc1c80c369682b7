/*
 * util.c - diagnostics, allocation, hex, numbers, option scanning and the
 * backend error channel.  Nothing here knows about algorithms.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cb.h"
#include "foundation/util.h"

extern char **environ;

#ifndef CB_DATADIR
#define CB_DATADIR "/usr/local/share/cryptobench"
#endif

static FILE *msg_out;             /* NULL: stderr */

FILE *cb_msg_to(FILE *f)
{
	FILE *old = msg_out;

	msg_out = f;
	return old;
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	FILE *f = msg_out ? msg_out : stderr;

	fprintf(f, "cryptobench: %s", prefix);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
}

void cb_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

static struct held {
	char *text;
	unsigned n;
} *held;
static size_t nheld;
static int holding;
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;

static void hold(const char *text, unsigned n)
{
	size_t i;

	pthread_mutex_lock(&held_lock);
	for (i = 0; i < nheld && strcmp(held[i].text, text); i++)
		;
	if (i == nheld) {
		held = cb_xrealloc(held, (nheld + 1) * sizeof *held);
		held[nheld].text = cb_xstrdup(text);
		held[nheld++].n = 0;
	}
	held[i].n += n;
	pthread_mutex_unlock(&held_lock);
}

void cb_warn(const char *fmt, ...)
{
	va_list ap;
	char text[1024];

	va_start(ap, fmt);
	if (holding) {
		vsnprintf(text, sizeof text, fmt, ap);
		hold(text, 1);
	} else {
		vmsg("warning: ", fmt, ap);
	}
	va_end(ap);
}

void cb_warn_hold(int on)
{
	holding = on;
}

void cb_warn_add(const char *line)
{
	static const char pre[] = "cryptobench: warning: ";
	char text[1024];
	size_t len;
	unsigned n = 1;
	const char *t;

	if (strncmp(line, pre, sizeof pre - 1))
		return;
	snprintf(text, sizeof text, "%s", line + sizeof pre - 1);
	len = strcspn(text, "\n");
	text[len] = 0;
	t = strrchr(text, '(');
	if (t && sscanf(t, "(%u times)", &n) == 1 && n > 1 && t > text &&
	    t[-1] == ' ' && !strcmp(t + strcspn(t, ")"), ")"))
		text[t - 1 - text] = 0;
	else
		n = 1;
	hold(text, n);
}

void cb_warn_flush(void)
{
	pthread_mutex_lock(&held_lock);
	for (size_t i = 0; i < nheld; i++) {
		if (held[i].n > 1)
			fprintf(stderr, "cryptobench: warning: %s (%u times)\n",
			        held[i].text, held[i].n);
		else
			fprintf(stderr, "cryptobench: warning: %s\n", held[i].text);
		free(held[i].text);
	}
	free(held);
	held = NULL;
	nheld = 0;
	pthread_mutex_unlock(&held_lock);
}

static _Thread_local char last_error[256];

void cb_set_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof last_error, fmt, ap);
	va_end(ap);
}

const char *cb_last_error(void)
{
	return last_error;
}

void cb_clear_error(void)
{
	last_error[0] = 0;
}

const char *cb_rc_text(char *buf, size_t n, const char *what, int rc)
{
	const char *name = rc < 0 ? strerrorname_np(-rc) : NULL;

	snprintf(buf, n, "%s: %s (%s)%s%s", what, name ? name : "error",
	         rc < 0 ? strerror(-rc) : "no errno", last_error[0] ? ": " : "",
	         last_error);
	return buf;
}

void cb_wipe(void *p, size_t n)
{
	if (p && n)
		explicit_bzero(p, n);
}

static void *check(void *p, size_t n)
{
	if (!p && n) {
		cb_err("out of memory (%zu bytes)", n);
		exit(CB_EXIT_USAGE);
	}
	return p;
}

void *cb_xmalloc(size_t n)
{
	return check(malloc(n ? n : 1), n);
}

void *cb_xcalloc(size_t n, size_t m)
{
	return check(calloc(n ? n : 1, m ? m : 1), n * m);
}

void *cb_xrealloc(void *p, size_t n)
{
	return check(realloc(p, n ? n : 1), n);
}

char *cb_xstrdup(const char *s)
{
	return check(strdup(s), strlen(s) + 1);
}

/*
 * Buffers of 256 KiB and more on 2 MiB boundaries, advised onto huge pages:
 * physically contiguous, as tcrypt's kmalloc'd buffers are.  On 4 KiB
 * pages a 1 MiB buffer's lines spread over the 1 MiB L2's sets as the
 * kernel's page placement happens to fall: XTS-AES-128 on 1 MiB of 512-byte
 * sectors ran 0.093-0.096 or 0.145-0.148 c/B from one process to the next
 * (4 slow runs of 10 on Zen 5), on huge pages 0.092-0.099 (1 of 10).
 */
#define HUGE_PAGE (2u << 20)
#define HUGE_MIN  (256u << 10)

static size_t buffer_align(size_t n)
{
	return n >= HUGE_MIN ? HUGE_PAGE : 4096;
}

size_t cb_xbuffer_size(size_t n)
{
	size_t a = buffer_align(n);

	return n ? (n + a - 1) & ~(a - 1) : a;
}

void *cb_xbuffer(size_t n)
{
	size_t a = buffer_align(n);
	void *p = NULL;

	n = cb_xbuffer_size(n);
	if (posix_memalign(&p, a, n))
		p = NULL;
#ifdef MADV_HUGEPAGE
	if (p && a == HUGE_PAGE)
		(void)madvise(p, n, MADV_HUGEPAGE);   /* advice: may be refused */
#endif
	return check(p, n);
}

void *cb_xaligned(size_t n)
{
	void *p = NULL;

	n = (n + 63) & ~(size_t)63;
	if (posix_memalign(&p, 64, n ? n : 64))
		p = NULL;
	return check(p, n);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int cb_hex_decode(const char *s, uint8_t **out, size_t *len)
{
	size_t n = strlen(s);
	uint8_t *p;

	if (n % 2)
		return -EINVAL;
	p = cb_xmalloc(n / 2);
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hexval((unsigned char)s[2 * i]);
		int lo = hexval((unsigned char)s[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			free(p);
			return -EINVAL;
		}
		p[i] = (uint8_t)(hi << 4 | lo);
	}
	*out = p;
	*len = n / 2;
	return 0;
}

void cb_hex_print(FILE *f, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%02x", p[i]);
}

void cb_put_quoted(FILE *f, const char *s, char q)
{
	fputc(q, f);
	for (; *s; s++) {
		if (*s == q)
			fputc(q, f);
		fputc(*s, f);
	}
	fputc(q, f);
}

void cb_random(uint8_t *p, size_t n)
{
	while (n) {
		ssize_t r = getrandom(p, n, 0);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			cb_err("getrandom: %s", strerror(errno));
			exit(CB_EXIT_USAGE);
		}
		p += r;
		n -= (size_t)r;
	}
}

int cb_parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*v = x;
	return 0;
}

int cb_parse_size(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;
	unsigned shift = 0;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	switch (*end) {
	case 0: break;
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: return -EINVAL;
	}
	if (*end || (shift && x > (UINT64_MAX >> shift)))
		return -EINVAL;
	*v = (uint64_t)x << shift;
	return 0;
}

int cb_parse_double(const char *s, double *v)
{
	char *end;
	double x;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	x = strtod(s, &end);
	if (errno || *end || x != x)
		return -EINVAL;
	*v = x;
	return 0;
}

int cb_parse_list(const char *s, uint64_t **v, size_t *n)
{
	char *copy = cb_xstrdup(s), *save = NULL, *tok;
	uint64_t *out = NULL;
	size_t cnt = 0;

	if (!*s || s[strlen(s) - 1] == ',')
		goto fail;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		out = cb_xrealloc(out, (cnt + 1) * sizeof *out);
		if (cb_parse_size(tok, &out[cnt]) < 0)
			goto fail;
		cnt++;
	}
	if (!cnt)
		goto fail;
	free(copy);
	*v = out;
	*n = cnt;
	return 0;
fail:
	free(copy);
	free(out);
	return -EINVAL;
}

int cb_getopt(int argc, char **argv, int *i, const struct cb_opt *opts,
              const char **arg)
{
	const char *a, *eq;
	size_t nlen;

	if (*i >= argc)
		return -1;
	a = argv[*i];
	if (a[0] != '-' || a[1] == 0) {
		*arg = a;
		(*i)++;
		return 0;
	}
	if (strcmp(a, "--") == 0) {
		(*i)++;
		if (*i >= argc)
			return -1;
		*arg = argv[(*i)++];
		return 0;
	}
	eq = strchr(a, '=');
	nlen = eq && a[1] == '-' ? (size_t)(eq - a) : strlen(a);
	for (const struct cb_opt *o = opts; o->name; o++) {
		if (strlen(o->name) != nlen || strncmp(o->name, a, nlen))
			continue;
		(*i)++;
		if (!o->has_arg) {
			if (eq && a[1] == '-') {
				cb_err("option %s takes no value", o->name);
				return -2;
			}
			*arg = NULL;
			return o->id;
		}
		if (eq && a[1] == '-') {
			*arg = eq + 1;
			return o->id;
		}
		if (*i >= argc) {
			cb_err("option %s needs a value", o->name);
			return -2;
		}
		*arg = argv[(*i)++];
		return o->id;
	}
	cb_err("unknown option '%s' (try 'cryptobench help')", a);
	return -2;
}

int cb_ct_equal(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;
	uint8_t d = 0;

	for (size_t i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	return d == 0;
}

/* Every name of option id in opts, joined: "-b, --backend". */
static void opt_names(const struct cb_opt *opts, int id, char *buf,
                      size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (const struct cb_opt *o = opts; o->name; o++)
		if (o->id == id && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s",
			                        len ? ", " : "", o->name);
}

/* text as lines of at most width columns, each indented by indent. */
static void print_wrapped(FILE *f, const char *text, int indent, int width)
{
	const char *p = text;

	while (*p) {
		int room = width - indent, n = (int)strlen(p);

		if (n > room) {
			n = room;
			while (n > 0 && p[n] != ' ')
				n--;
			if (n == 0)                 /* one long word */
				n = (int)strcspn(p, " ");
		}
		fprintf(f, "%*s%.*s\n", indent, "", n, p);
		p += n;
		while (*p == ' ')
			p++;
	}
}

void cb_opt_help(FILE *f, const struct cb_opt *opts)
{
	for (const struct cb_opt *o = opts; o->name; o++) {
		const struct cb_opt *first = opts, *doc = o;
		char names[160];

		while (first->id != o->id)
			first++;
		if (first != o)
			continue;          /* an alias: listed with the first */
		for (const struct cb_opt *a = o; a->name; a++)
			if (a->id == o->id && a->help && !doc->help)
				doc = a;
		opt_names(opts, o->id, names, sizeof names);
		fprintf(f, "  %s%s%s\n", names, o->has_arg ? " " : "",
		        o->has_arg ? (doc->metavar ? doc->metavar : "VALUE") : "");
		if (doc->help)
			print_wrapped(f, doc->help, 8, 78);
	}
}

volatile sig_atomic_t cb_stop;

static void on_sigint(int sig)
{
	cb_stop = 1;
	signal(sig, SIG_DFL);       /* a second ^C ends the process */
}

void cb_stop_on_sigint(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

int cb_spawn(const char *prog, char *const *argv, const char *out,
             const char *err)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, e, told = cb_stop != 0;    /* one ^C before: not ours */

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (err)        /* NULL: the child writes to our stderr */
		posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT |
		                                 O_TRUNC, 0600);
	e = posix_spawn(&pid, prog, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (e) {
		cb_err("cannot run %s: %s", prog, strerror(e));
		return -1;
	}
	for (;;) {
		if (cb_stop && !told) {     /* a ^C while it runs: its too */
			kill(pid, SIGINT);
			told = 1;
		}
		if (waitpid(pid, &st, 0) >= 0)
			break;
		if (errno != EINTR)
			return -1;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int cb_term_width(void)
{
	const char *c = getenv("COLUMNS");
	struct winsize ws;
	uint64_t v;

	if (c && cb_parse_u64(c, &v) == 0 && v >= 20 && v <= 1000)
		return (int)v;
	if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

int cb_exe_path(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	if (n <= 0 || (size_t)n >= len - 1) {
		if (n > 0)
			errno = ENAMETOOLONG;
		return -1;
	}
	buf[n] = 0;
	return 0;
}

int cb_exe_dir(char *buf, size_t len)
{
	char *slash;

	if (cb_exe_path(buf, len) < 0)
		return -1;
	if (!(slash = strrchr(buf, '/'))) {
		errno = ENOENT;
		return -1;
	}
	*slash = 0;
	return 0;
}

static int exists(const char *p, int dir)
{
	struct stat st;

	return stat(p, &st) == 0 && (dir ? S_ISDIR(st.st_mode)
	                                 : S_ISREG(st.st_mode));
}

const char *cb_data_path(const char *rel, const char *share, int dir,
                         char *buf, size_t len)
{
	char exe[4096];
	int have = cb_exe_dir(exe, sizeof exe) == 0;

	if (have && (size_t)snprintf(buf, len, "%s/%s", exe, rel) < len &&
	    exists(buf, dir))
		return buf;
	if (have && (size_t)snprintf(buf, len, "%s/../share/cryptobench/%s",
	                             exe, share) < len && exists(buf, dir))
		return buf;
	if ((size_t)snprintf(buf, len, "%s/%s", CB_DATADIR, share) < len &&
	    exists(buf, dir))
		return buf;
	if ((size_t)snprintf(buf, len, "%s", rel) < len && exists(buf, dir))
		return buf;
	return NULL;
}

const char *cb_data_dir(const char *env, const char *rel, const char *share,
                        char *buf, size_t len)
{
	const char *e = getenv(env);

	if (e && *e)
		return e;
	if (cb_data_path(rel, share, 1, buf, len))
		return buf;
	snprintf(buf, len, "%s/%s", CB_DATADIR, share);
	return buf;
}
