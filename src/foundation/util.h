/*
 * util.h - small helpers shared by the core: diagnostics, allocation,
 * hex, number and list parsing, option scanning.
 *
 * Diagnostics go to stderr prefixed "cryptobench: ".  Parsing helpers
 * return 0 or -EINVAL and never exit; commands report with cb_err() and
 * return CB_EXIT_USAGE.
 */
#ifndef CB_UTIL_H
#define CB_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

void cb_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Send cb_err's and cb_warn's lines to f (NULL: stderr, the default)
 * until called again; returns where they went before.  A caller that
 * runs a lower layer in-process and shows its messages elsewhere (the
 * report's comparisons) uses it; not for threads. */
FILE *cb_msg_to(FILE *f);
/*
 * Warnings held (bench: many passes and processes meet the same driver):
 * while on, cb_warn() keeps each distinct text with a count instead of
 * printing it; cb_warn_add() counts one read back from a part process's
 * stderr (a line "cryptobench: warning: TEXT[ (N times)]");
 * cb_warn_flush() prints each held warning once, " (N times)" after the
 * text when more than one, and forgets them.
 */
void cb_warn_hold(int on);
void cb_warn_add(const char *line);
void cb_warn_flush(void);

void *cb_xmalloc(size_t n);             /* aborts with a message on ENOMEM */
void *cb_xcalloc(size_t n, size_t m);
void *cb_xrealloc(void *p, size_t n);
char *cb_xstrdup(const char *s);
/* 64-byte aligned allocation (free with free()); aborts on ENOMEM. */
void *cb_xaligned(size_t n);
/* A buffer to time work on: page-aligned, and from 256 KiB on huge pages
 * where the kernel gives them (free with free()); aborts on ENOMEM. */
void *cb_xbuffer(size_t n);
size_t cb_xbuffer_size(size_t n);       /* the bytes it takes for n */

/* Hex: decode s (even length, [0-9a-fA-F]) into a fresh buffer. */
int cb_hex_decode(const char *s, uint8_t **out, size_t *len);
void cb_hex_print(FILE *f, const uint8_t *p, size_t n);
/* s between two q's, each q inside doubled (CSV's "", gnuplot's ''). */
void cb_put_quoted(FILE *f, const char *s, char q);
/* Fill with bytes from getrandom(); deterministic if seed != 0 (tests). */
void cb_random(uint8_t *p, size_t n);

/* Strict decimal: all of s, no sign, fits.  Size suffixes k/m/g (x1024)
 * allowed by cb_parse_size. */
int cb_parse_u64(const char *s, uint64_t *v);
int cb_parse_size(const char *s, uint64_t *v);
int cb_parse_double(const char *s, double *v);
/* Comma-separated list of unsigned numbers (size suffixes allowed). */
int cb_parse_list(const char *s, uint64_t **v, size_t *n);

/*
 * Option scanning shared by the subcommands: long options "--name value",
 * "--name=value" and flags "--flag".  See cb_getopt() in util.c.
 */
struct cb_opt {
	const char *name;      /* "--backend", "-e"                           */
	int has_arg;           /* 1 takes a value                              */
	int id;                /* returned by cb_getopt                        */
	const char *metavar;   /* the value's name in help: "B", "N,.."        */
	const char *help;      /* one line for --help; aliases (same id) share
	                          the first entry's                             */
};
/*
 * Returns the id of the next option and sets *arg, 0 when a non-option
 * argument is next (*arg = it), -1 at the end, -2 on an error (message
 * printed naming the argument).  *i is the index into argv, start at 1.
 */
int cb_getopt(int argc, char **argv, int *i, const struct cb_opt *opts,
              const char **arg);
/*
 * The option list of a command's --help, generated from its table: one
 * entry per id, its aliases together ("-b, --backend B"), then the help.
 */
void cb_opt_help(FILE *f, const struct cb_opt *opts);

/*
 * SIGINT: cb_stop_on_sigint() makes the first ^C set cb_stop (a long run
 * checks it between points, stops and keeps what it measured); a second
 * one ends the process as usual.
 */
#include <signal.h>
extern volatile sig_atomic_t cb_stop;
void cb_stop_on_sigint(void);
/* Run prog with argv, stdout and stderr into the files (err NULL: ours),
 * and wait; a ^C (cb_stop) that comes meanwhile is passed on to it.  Its
 * exit status, or -1 when it could not be started (message printed). */
int cb_spawn(const char *prog, char *const *argv, const char *out,
             const char *err);
/*
 * Where this binary is: its full path in buf (cb_exe_path) or the
 * directory holding it (cb_exe_dir); 0, or -1 (errno set).
 */
int cb_exe_path(char *buf, size_t len);
int cb_exe_dir(char *buf, size_t len);
/*
 * One of our data files or directories (dir: 1 a directory), looked for
 * next to the binary (<exe dir>/REL: a checkout), where it is installed
 * (<exe dir>/../share/cryptobench/SHARE, then CB_DATADIR/SHARE), and last
 * in the working directory (REL).  The first that exists, in buf; NULL
 * when none does.
 */
const char *cb_data_path(const char *rel, const char *share, int dir,
                         char *buf, size_t len);
/* A data directory: $env when set and not empty, else cb_data_path's
 * directory, else CB_DATADIR/SHARE (which the caller's error names). */
const char *cb_data_dir(const char *env, const char *rel, const char *share,
                        char *buf, size_t len);

/* Terminal width for one-line output: $COLUMNS, TIOCGWINSZ on stderr, or
 * 80. */
int cb_term_width(void);

#endif
