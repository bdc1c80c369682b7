/*
 * dd_io.c - the I/O layer under `cryptobench dd` (dd_io.h): the POSIX
 * table, and dd's rules for reading, writing and opening built on any
 * layer - so a fault-injecting layer in a test exercises the same code.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "core/cb.h"
#include "dd/dd_io.h"
#include "foundation/util.h"

static int px_open(const char *path, int flags, mode_t mode)
{
	return open(path, flags, mode);
}

static ssize_t px_write(int fd, const void *buf, size_t len)
{
	return write(fd, buf, len);
}

const struct dd_io dd_io_posix = {
	.name = "posix",
	.open = px_open,
	.fstat = fstat,
	.stat = stat,
	.read = read,
	.write = px_write,
	.fsync = fsync,
	.ftruncate = ftruncate,
	.close = close,
};

ssize_t dd_read_full(const struct dd_io *io, int fd, uint8_t *buf,
                     size_t len, const volatile sig_atomic_t *stop,
                     size_t *got)
{
	size_t n = 0, dummy;

	got = got ? got : &dummy;
	*got = 0;
	while (n < len) {
		ssize_t r = io->read(fd, buf + n, len - n);

		if (r < 0 && errno == EINTR) {
			if (stop && *stop)
				return -EINTR;
			continue;
		}
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		n += (size_t)r;
		*got = n;
	}
	return (ssize_t)n;
}

int dd_write_full(const struct dd_io *io, int fd, const uint8_t *buf,
                  size_t len, size_t *wrote)
{
	*wrote = 0;
	while (*wrote < len) {
		ssize_t w = io->write(fd, buf + *wrote, len - *wrote);

		if (w < 0 && errno == EINTR)
			continue;          /* finish the record even on SIGINT */
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		*wrote += (size_t)w;
	}
	return 0;
}

int dd_open_in(const struct dd_io *io, const char *path, struct stat *st)
{
	int fd = io->open(path, O_RDONLY | O_CLOEXEC, 0);

	if (fd < 0) {
		cb_err("dd: if=%s: %s", path, strerror(errno));
		return -1;
	}
	if (io->fstat(fd, st) < 0)
		memset(st, 0, sizeof *st);
	return fd;
}

/* May of= (described by st) be written?  0, or -1 with a message. */
static int out_ok(const char *path, const struct stat *st, int force,
                  const struct stat *in_st)
{
	if (in_st && st->st_dev == in_st->st_dev && st->st_ino == in_st->st_ino &&
	    (S_ISREG(st->st_mode) || S_ISBLK(st->st_mode))) {
		cb_err("dd: of=%s: is the input file", path);
		return -1;
	}
	if (S_ISBLK(st->st_mode) && !force) {
		cb_err("dd: of=%s: is a block device; not overwritten without "
		       "--force", path);
		return -1;
	}
	if (S_ISREG(st->st_mode) && st->st_size > 0 && !force) {
		cb_err("dd: of=%s: exists and is not empty (%lld bytes); not "
		       "overwritten without --force", path, (long long)st->st_size);
		return -1;
	}
	return 0;
}

int dd_open_out(const struct dd_io *io, const char *path, int force,
                const struct stat *in_st, int *is_file)
{
	struct stat st;
	int fd;

	if (io->stat(path, &st) == 0 && out_ok(path, &st, force, in_st) < 0)
		return -1;
	if ((fd = io->open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) < 0) {
		cb_err("dd: of=%s: %s", path, strerror(errno));
		return -1;
	}
	if (io->fstat(fd, &st) < 0) {
		cb_err("dd: of=%s: %s", path, strerror(errno));
		goto close_fd;
	}
	if (out_ok(path, &st, force, in_st) < 0)
		goto close_fd;
	if (S_ISREG(st.st_mode) && st.st_size > 0 && io->ftruncate(fd, 0) < 0) {
		cb_err("dd: of=%s: truncate: %s", path, strerror(errno));
		goto close_fd;
	}
	*is_file = S_ISREG(st.st_mode) || S_ISBLK(st.st_mode);
	return fd;
close_fd:
	io->close(fd);
	return -1;
}

int dd_read_key(const struct dd_io *io, const char *path, uint8_t *key,
                size_t need, const char *note)
{
	uint8_t buf[CB_MAX_KEY + 1];
	int fd = io->open(path, O_RDONLY | O_CLOEXEC, 0), rc = -1;
	ssize_t n;

	if (fd < 0) {
		cb_err("dd: -K %s: %s", path, strerror(errno));
		return -1;
	}
	n = dd_read_full(io, fd, buf, sizeof buf, NULL, NULL);
	io->close(fd);
	if (n < 0) {
		cb_err("dd: -K %s: %s", path, strerror((int)-n));
		goto wipe_buf;
	}
	if ((size_t)n != need) {
		cb_err("dd: -K %s: the key file holds %s%zd bytes; this "
		       "configuration takes exactly %zu%s", path,
		       (size_t)n > need ? "more than " : "",
		       (size_t)n > need ? (ssize_t)need : n, need, note);
		goto wipe_buf;
	}
	memcpy(key, buf, need);
	rc = 0;
wipe_buf:
	cb_wipe(buf, sizeof buf);
	return rc;
}
