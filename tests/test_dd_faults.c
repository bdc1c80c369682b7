/*
 * test_dd_faults.c - `cryptobench dd` over an I/O layer that injects
 * faults (src/dd/dd_io.h): EIO on read and on write, a write that stops
 * short and then fails, ENOSPC in the middle of a run, writes that are
 * always short, an input that shrinks while read.  For each: the exit
 * status, a message naming the file, the offset and the bytes written,
 * the output holding exactly those bytes, and what was written before the
 * fault reading back (an authenticated geli image verifies up to it).
 * SIGINT is tested with a real signal in tests/test_dd.sh.
 *
 * Each run is a forked child calling cmd_dd_io(), its stderr in a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "dd/dd.h"
#include "dd/dd_io.h"

#define PT_LEN   40960        /* 10 geli sectors of 4096                */
#define DISK     4608         /* one 4096-byte sector with -a: 9 x 512  */

enum fault { F_NONE, F_READ_EIO, F_SHRINK, F_WRITE_EIO, F_ENOSPC,
             F_WRITE_ZERO, F_SHORT };

static struct {
	enum fault kind;
	uint64_t at;              /* byte offset of the fault in the file */
	char in[PATH_MAX], out[PATH_MAX];
	int in_fd, out_fd;
	uint64_t rpos, wpos;
} F;

static char dir[] = "/tmp/cb-ddfaults.XXXXXX";
static uint8_t pt[PT_LEN];

/* ---- the faulty layer ---------------------------------------------------- */

static int f_open(const char *path, int flags, mode_t mode)
{
	int fd = dd_io_posix.open(path, flags, mode);

	if (fd >= 0 && !strcmp(path, F.in)) {
		F.in_fd = fd;
		F.rpos = 0;
	}
	if (fd >= 0 && !strcmp(path, F.out)) {
		F.out_fd = fd;
		F.wpos = 0;
	}
	return fd;
}

static ssize_t f_read(int fd, void *buf, size_t len)
{
	ssize_t n;

	if (fd == F.in_fd && (F.kind == F_READ_EIO || F.kind == F_SHRINK)) {
		if (F.rpos >= F.at) {
			if (F.kind == F_SHRINK)
				return 0;
			errno = EIO;
			return -1;
		}
		if (len > F.at - F.rpos)
			len = F.at - F.rpos;
	}
	n = dd_io_posix.read(fd, buf, len);
	if (fd == F.in_fd && n > 0)
		F.rpos += (uint64_t)n;
	return n;
}

static ssize_t f_write(int fd, const void *buf, size_t len)
{
	ssize_t n;

	if (fd == F.out_fd && F.kind == F_SHORT && len > 1000)
		len = 1000;
	if (fd == F.out_fd && (F.kind == F_WRITE_EIO || F.kind == F_ENOSPC ||
	                       F.kind == F_WRITE_ZERO)) {
		if (F.wpos >= F.at) {
			if (F.kind == F_WRITE_ZERO)
				return 0;
			errno = F.kind == F_ENOSPC ? ENOSPC : EIO;
			return -1;
		}
		if (len > F.at - F.wpos)
			len = F.at - F.wpos;    /* the short write before it */
	}
	n = dd_io_posix.write(fd, buf, len);
	if (fd == F.out_fd && n > 0)
		F.wpos += (uint64_t)n;
	return n;
}

static const struct dd_io faulty = {
	.name = "faulty",
	.open = f_open,
	.fstat = fstat,
	.stat = stat,
	.read = f_read,
	.write = f_write,
	.fsync = fsync,
	.ftruncate = ftruncate,
	.close = close,
};

/* ---- helpers ------------------------------------------------------------- */

static const char *path(const char *name)
{
	static char p[8][PATH_MAX];
	static unsigned k;
	char *s = p[k++ % 8];

	snprintf(s, PATH_MAX, "%s/%s", dir, name);
	return s;
}

static void put_file(const char *name, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path(name), "wb");

	if (!f || fwrite(b, 1, n, f) != n || fclose(f) != 0) {
		perror(name);
		exit(2);
	}
}

/* The file's bytes (malloc'd, *n its size), or NULL. */
static uint8_t *get_file(const char *name, size_t *n)
{
	FILE *f = fopen(path(name), "rb");
	uint8_t *b = malloc(PT_LEN * 2);

	*n = f ? fread(b, 1, PT_LEN * 2, f) : 0;
	if (f)
		fclose(f);
	return b;
}

static char err_text[8192];

/* Run `dd ARGS...` (NULL-terminated) over io with fault (kind, at) in a
 * child; returns its exit status, stderr in err_text. */
static int run(const struct dd_io *io, enum fault kind, uint64_t at,
               const char *in, const char *out, ...)
{
	char *argv[32];
	int argc = 0, status;
	va_list ap;
	pid_t pid;
	FILE *f;
	size_t n;

	argv[argc++] = "dd";
	va_start(ap, out);
	while (argc < 30 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	memset(&F, 0, sizeof F);
	F.kind = kind;
	F.at = at;
	F.in_fd = F.out_fd = -1;
	snprintf(F.in, sizeof F.in, "%s", in ? path(in) : "");
	snprintf(F.out, sizeof F.out, "%s", out ? path(out) : "");
	fflush(NULL);
	if ((pid = fork()) == 0) {
		if (!freopen(path("stderr"), "w", stderr) ||
		    !freopen("/dev/null", "w", stdout))
			_exit(99);
		status = cmd_dd_io(argc, argv, io);
		fflush(NULL);
		_exit(status);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	f = fopen(path("stderr"), "r");
	n = f ? fread(err_text, 1, sizeof err_text - 1, f) : 0;
	err_text[n] = 0;
	if (f)
		fclose(f);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int has(const char *s)
{
	return strstr(err_text, s) != NULL;
}

static char opt_if[PATH_MAX + 4], opt_of[PATH_MAX + 4], opt_k[PATH_MAX];

static void operands(const char *in, const char *out)
{
	snprintf(opt_if, sizeof opt_if, "if=%s", path(in));
	snprintf(opt_of, sizeof opt_of, "of=%s", path(out));
	snprintf(opt_k, sizeof opt_k, "%s", path("mkey"));
}

/* Encrypt pt into NAME through the faulty layer. */
static int encrypt(enum fault kind, uint64_t at, const char *name)
{
	unlink(path(name));
	operands("pt", name);
	return run(&faulty, kind, at, "pt", name, "-e", "aes", "-l", "256",
	           "-a", "hmac/sha256", "-K", opt_k, "-j", "2", "bs=8k",
	           opt_if, opt_of, (char *)NULL);
}

/* The first `bytes` of image NAME (whole sectors) decrypt and verify to
 * the first plain bytes of pt. */
static int reads_back(const char *name, size_t bytes, size_t plain)
{
	size_t n;
	uint8_t *img = get_file(name, &n), *back;
	int ok;

	put_file("prefix", img, bytes);
	free(img);
	unlink(path("back"));
	operands("prefix", "back");
	if (run(&dd_io_posix, F_NONE, 0, NULL, NULL, "-e", "aes", "-l", "256",
	        "-a", "hmac/sha256", "-K", opt_k, "--decrypt", "bs=8k", opt_if,
	        opt_of, (char *)NULL) != 0)
		return 0;
	back = get_file("back", &n);
	ok = n >= plain && !memcmp(back, pt, plain);
	free(back);
	return ok;
}

static size_t file_size(const char *name)
{
	struct stat st;

	return stat(path(name), &st) == 0 ? (size_t)st.st_size : (size_t)-1;
}

/* ---- the faults ------------------------------------------------------------ */

static void fault_write(enum fault kind, uint64_t at, const char *errstr)
{
	char want[256];
	int rc = encrypt(kind, at, "img");

	checkf(rc == 2, "write fault at %llu: exit %d, wanted 2",
	       (unsigned long long)at, rc);
	snprintf(want, sizeof want, "of=%s: write error at offset %llu after "
	         "%llu bytes written", path("img"), (unsigned long long)at,
	         (unsigned long long)at);
	checkf(has(want), "write fault: message names file, offset, bytes: %s",
	       err_text);
	checkf(has(errstr), "write fault: says '%s'", errstr);
	checkf(file_size("img") == at, "write fault: the image holds the %llu "
	       "bytes written", (unsigned long long)at);
	checkf(reads_back("img", at / DISK * DISK, at / DISK * 4096),
	       "write fault at %llu: the whole sectors before it verify",
	       (unsigned long long)at);
}

static void fault_read(void)
{
	char want[256];
	int rc = encrypt(F_READ_EIO, 20000, "img");

	check(rc == 2, "read EIO: exit 2");
	snprintf(want, sizeof want, "if=%s: read error at offset 20000: "
	         "Input/output error; 18432 bytes written to of=%s",
	         path("pt"), path("img"));
	checkf(has(want), "read EIO: file, offset, bytes written: %s", err_text);
	check(file_size("img") == 18432, "read EIO: what was read before is "
	      "written (4 sectors)");
	check(reads_back("img", 18432, 16384), "read EIO: the image verifies");
}

static void fault_shrink(void)
{
	char want[256];
	int rc = encrypt(F_SHRINK, 24000, "img");

	check(rc == 2, "input shrinks: exit 2");
	snprintf(want, sizeof want, "if=%s: the input shrank while read: it "
	         "ended at offset 24000 of the %d bytes it had at the start; "
	         "27648 bytes written to of=%s", path("pt"), PT_LEN,
	         path("img"));
	checkf(has(want), "input shrinks: file, offset, bytes written: %s",
	       err_text);
	check(file_size("img") == 27648, "input shrinks: all that was read is "
	      "written");
	check(reads_back("img", 27648, 24000), "input shrinks: the image "
	      "verifies and holds the input up to the end");
}

static void fault_decrypt_read(void)
{
	char want[256];
	size_t n;
	uint8_t *back;
	int rc;

	check(encrypt(F_NONE, 0, "full") == 0, "reference image written");
	unlink(path("back"));
	operands("full", "back");
	rc = run(&faulty, F_READ_EIO, DISK * 2 + 100, "full", "back", "-e",
	         "aes", "-l", "256", "-a", "hmac/sha256", "-K", opt_k,
	         "--decrypt", "bs=8k", opt_if, opt_of, (char *)NULL);
	check(rc == 2, "--decrypt read EIO: exit 2");
	snprintf(want, sizeof want, "if=%s: read error at offset %d: "
	         "Input/output error; 8192 bytes written", path("full"),
	         DISK * 2 + 100);
	checkf(has(want), "--decrypt read EIO: message: %s", err_text);
	back = get_file("back", &n);
	check(n == 8192 && !memcmp(back, pt, 8192), "--decrypt read EIO: the "
	      "sectors before it are written, verified");
	free(back);
}

static void short_writes(void)
{
	size_t a, b;
	uint8_t *x, *y;

	check(encrypt(F_SHORT, 0, "short") == 0, "short writes: exit 0");
	check(encrypt(F_NONE, 0, "full") == 0, "reference image written");
	x = get_file("short", &a);
	y = get_file("full", &b);
	check(a == b && a == PT_LEN / 4096 * DISK && !memcmp(x, y, a),
	      "short writes: the whole image, as without them");
	free(x);
	free(y);
}

static void no_overwrite(void)
{
	size_t before = file_size("img"), after;
	int rc;

	operands("pt", "img");
	rc = run(&dd_io_posix, F_NONE, 0, NULL, NULL, "-e", "aes", "-K", opt_k,
	         "-l", "256", "-a", "hmac/sha256", opt_if, opt_of, (char *)NULL);
	after = file_size("img");
	check(rc == 2 && has("not overwritten without --force"),
	      "a partial image is not overwritten without --force");
	check(before == after && after > 0, "the partial image is untouched");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	for (size_t i = 0; i < sizeof pt; i++)
		pt[i] = (uint8_t)(i * 131 + (i >> 8) * 7 + 1);
	{
		uint8_t mkey[128];

		for (size_t i = 0; i < sizeof mkey; i++)
			mkey[i] = (uint8_t)(i * 37 + 11);
		put_file("mkey", mkey, sizeof mkey);
	}
	put_file("pt", pt, sizeof pt);
	fault_read();
	fault_shrink();
	no_overwrite();
	fault_write(F_WRITE_EIO, 10000, "Input/output error");
	fault_write(F_ENOSPC, 30000, "No space left on device");
	fault_write(F_WRITE_ZERO, 5000, "Input/output error");
	fault_write(F_ENOSPC, 0, "No space left on device");
	fault_decrypt_read();
	short_writes();
	{
		const char *names[] = { "pt", "mkey", "img", "prefix", "back",
		                        "full", "short", "stderr" };

		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
			unlink(path(names[i]));
		rmdir(dir);
	}
	return finish();
}
