/*
 * import.h - other tools' benchmark outputs into results (docs/import.md):
 * `cryptsetup benchmark`, `openssl speed` (table and -mr), kernel tcrypt
 * logs (through tcrypt/tcrypt_log.c), `bssl speed` (text and -json),
 * libgcrypt's bench-slope and geli/dd lines.  A format's reader takes the
 * text line by line: a line it reads adds rows (struct cb_result) or is
 * one the tool prints without a figure; any other line is an error,
 * "FILE:LINE: what was expected".  Only what the text states is filled
 * in; every other field is empty (NaN, 0, "").
 */
#ifndef CB_IMPORT_H
#define CB_IMPORT_H

#include <stddef.h>
#include <stdio.h>

#include "output/result.h"
#include "system/sysinfo.h"

enum imp_format { IMP_AUTO = -1, IMP_CRYPTSETUP, IMP_OPENSSL, IMP_TCRYPT,
                  IMP_BSSL, IMP_SLOPE, IMP_GELI, IMP_NFORMATS };

/* One input file being read. */
struct imp_file {
	const char *path;            /* for messages: FILE:LINE               */
	const char *source;          /* --source, or path                     */
	int skip_bad;                /* --skip-bad: an error is a warning     */
	enum imp_format fmt;
	struct cb_prov prov;         /* empty but what the text states        */
	struct cb_result *res;       /* the rows read                         */
	size_t n, cap;
	unsigned errors;             /* lines that could not be read          */
	char **pool;                 /* strings the rows point to             */
	size_t npool;
	void *state;                 /* the format's reader's, while reading  */
};

/* ---- imp_core.c: what every format's reader uses ---- */

/* A string kept until imp_free (printf-style). */
const char *imp_str(struct imp_file *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A new row with the file's defaults: tool, status ok, numbers NaN,
 * the source in backend_details. */
struct cb_result *imp_row(struct imp_file *f, const char *tool);
/* Set ops_per_sec, bytes_per_sec and ns_per_byte from bytes/s (and the
 * request size in r->block_bytes; 0: no ops_per_sec). */
void imp_rate(struct cb_result *r, double bytes_per_sec);
/* A line that could not be read: "FILE:LINE: expected WHAT" (an error, or
 * a warning under --skip-bad); returns -1. */
int imp_bad(struct imp_file *f, unsigned long line, const char *what,
            const char *text);
/* Split s (modified) into at most max blank-separated words; their count. */
int imp_words(char *s, char **w, int max);
/* A decimal number, "." or "," as the decimal point; 0 or -1. */
int imp_num(const char *s, double *v);
/* 1: v is a count the schema's unsigned field holds (finite, 0 <= v <
 * max, max at most 2^64): a figure a line makes up that would not fit is
 * the line's error, not a conversion out of range. */
int imp_fits(double v, double max);
/* The registry's canonical name of name if it knows it (an alias with a
 * multiplier other than 1 is not taken), else name itself (kept). */
const char *imp_canon(struct imp_file *f, const char *name);
/* 1: alg is a hash or a MAC the registry knows (direction "digest"). */
int imp_is_digest(const char *alg);
/* "aes-128-cbc", "aes-128 cbc": MODE(CIPHER) and the key bits (XTS: both
 * halves) from a name of that form; 0, or -1. */
int imp_cipher_mode(struct imp_file *f, const char *name, const char **alg,
                    unsigned *bits);
/* --set NAME=VALUE after reading: host, cpu_model, kernel, cpu_vendor,
 * cpu_flags, cpu_family, cpu_model_no, cpu_stepping (the provenance) or
 * timestamp (every row); 0, or -1 for another NAME or a VALUE that does
 * not fit. */
int imp_set(struct imp_file *f, const char *name, const char *value);
/* A line without its leading and trailing blanks (a copy in buf). */
char *imp_trim(const char *line, char *buf, size_t n);

/* ---- the formats: each reads one line (its number for messages) ---- */
int imp_cryptsetup_line(struct imp_file *f, unsigned long no, const char *s);
int imp_openssl_line(struct imp_file *f, unsigned long no, const char *s);
int imp_tcrypt_line(struct imp_file *f, unsigned long no, const char *s);
int imp_bssl_line(struct imp_file *f, unsigned long no, const char *s);
int imp_slope_line(struct imp_file *f, unsigned long no, const char *s);
int imp_geli_line(struct imp_file *f, unsigned long no, const char *s);
/* The readers' state is freed by imp_free. */

/* ---- import.c ---- */
const char *imp_format_name(enum imp_format fmt);
/* The format named name, or IMP_AUTO when none is. */
enum imp_format imp_format_find(const char *name);
/* The format text is in, by its first line that only that format prints;
 * IMP_AUTO when no line says. */
enum imp_format imp_detect(const char *text);
/* Read text (f->fmt: IMP_AUTO detects) into f->res; the count of lines
 * that could not be read (f->errors), or -1 when the format is unknown
 * (message printed). */
int imp_read(struct imp_file *f, const char *text);
/* The rows as result CSV rows (no header). */
void imp_write(FILE *out, const struct imp_file *f);
void imp_free(struct imp_file *f);
/* "cryptsetup, openssl, ..." for messages and help. */
const char *imp_format_list(void);

#endif
