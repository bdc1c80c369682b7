/*
 * dd_io.h - the I/O layer under `cryptobench dd`: every read, write, fsync,
 * open and stat the command makes goes through one small table of function
 * pointers, so a test can put faults under it (EIO, short writes, ENOSPC,
 * an input that shrinks) without touching the pipeline above.
 *
 * struct dd_io has the POSIX calls' shapes and contracts (-1 with errno on
 * failure); dd_io_posix is the real one.  The helpers below build dd's
 * rules on top of a layer: whole-record reads and writes, the refusal to
 * overwrite, the key file.  They print their own message (naming the file
 * and, for data, the offset) and return -1 or a negative errno.
 */
#ifndef CB_DD_IO_H
#define CB_DD_IO_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

struct dd_io {
	const char *name;                 /* "posix", or the test layer's     */
	int (*open)(const char *path, int flags, mode_t mode);
	int (*fstat)(int fd, struct stat *st);
	int (*stat)(const char *path, struct stat *st);
	ssize_t (*read)(int fd, void *buf, size_t len);
	ssize_t (*write)(int fd, const void *buf, size_t len);
	int (*fsync)(int fd);
	int (*ftruncate)(int fd, off_t len);
	int (*close)(int fd);
};

extern const struct dd_io dd_io_posix;

/*
 * Read up to len bytes, looping over short reads (iflag=fullblock).
 * Returns the count (0 at EOF) or -errno; -EINTR only when *stop is set
 * (a signal asked to stop), other EINTRs are retried.  *got (if not NULL)
 * has what arrived either way, so an error's offset can be told.
 */
ssize_t dd_read_full(const struct dd_io *io, int fd, uint8_t *buf,
                     size_t len, const volatile sig_atomic_t *stop,
                     size_t *got);
/* Write all of len bytes (EINTR retried: a record is finished even on
 * SIGINT); *wrote counts what made it.  0 or -errno (-EIO for a write
 * that wrote nothing). */
int dd_write_full(const struct dd_io *io, int fd, const uint8_t *buf,
                  size_t len, size_t *wrote);

/* Open if= for reading: the fd, or -1 with a message. */
int dd_open_in(const struct dd_io *io, const char *path, struct stat *st);
/*
 * Open of= for writing without ever clobbering: a non-empty regular file
 * or a block device only with force, never the input itself (in_st, may
 * be NULL) - checked before the open and again on what was opened.
 * *is_file is set for a regular file or block device (those get fsync).
 * Returns the fd or -1 with a message.
 */
int dd_open_out(const struct dd_io *io, const char *path, int force,
                const struct stat *in_st, int *is_file);
/* Read exactly need bytes of key from path (-K): 0, or -1 with a message
 * (note, "" or e.g. " (geli's IV key || data key)", follows the size). */
int dd_read_key(const struct dd_io *io, const char *path, uint8_t *key,
                size_t need, const char *note);

#endif
