/*
 * csv.c - the strict RFC 4180 reader behind `compare` and `compare --dump`
 * (see csv.h for the rules).  The whole file is read into memory and
 * scanned once by a small state machine that copies each field into its
 * own string; line numbers count LF, so CRLF and LF files number alike and
 * a quoted field with line breaks advances the count.  Errors name the
 * line of the offending byte, except a field-count mismatch (the line the
 * row starts on) and an unterminated quote (the line the quote opened on).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "foundation/csv.h"
#include "foundation/util.h"

/* A growable byte buffer for the field being scanned. */
struct buf {
	char *p;
	size_t len, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = cb_xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

/* Row under construction. */
struct rowbuf {
	char **f;
	size_t n, cap;
};

static void row_push(struct rowbuf *r, const struct buf *b)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 16;
		r->f = cb_xrealloc(r->f, r->cap * sizeof *r->f);
	}
	r->f[r->n++] = cb_xstrdup(b->len ? b->p : "");
}

static void free_fields(char **f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(f[i]);
	free(f);
}

static void seterr(struct cb_csv *csv, unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void seterr(struct cb_csv *csv, unsigned long line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (line)
		n = snprintf(csv->err, sizeof csv->err, "%s:%lu: ",
		             csv->name ? csv->name : "?", line);
	else
		n = snprintf(csv->err, sizeof csv->err, "%s: ",
		             csv->name ? csv->name : "?");
	if (n < 0 || (size_t)n >= sizeof csv->err)
		return;
	va_start(ap, fmt);
	vsnprintf(csv->err + n, sizeof csv->err - (size_t)n, fmt, ap);
	va_end(ap);
}

/*
 * Length of the well-formed UTF-8 sequence at p (at most n bytes), or 0.
 * Rejects overlong forms, surrogates and code points above U+10FFFF.
 */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	unsigned c = p[0], cp;
	size_t len;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2; cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3; cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4; cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/*
 * Validate the character at buf[pos] as field content and return its
 * length in bytes, or 0 after setting the error.
 */
static size_t text_char(struct cb_csv *csv, const unsigned char *p,
                        size_t left, unsigned long line)
{
	size_t n;

	if (p[0] == 0) {
		seterr(csv, line, "NUL byte: not a text file");
		return 0;
	}
	if ((p[0] < 0x20 && p[0] != '\t') || p[0] == 0x7f) {
		seterr(csv, line, "control byte 0x%02x: not a text file", p[0]);
		return 0;
	}
	n = utf8_seq(p, left);
	if (!n)
		seterr(csv, line, "invalid UTF-8 (byte 0x%02x): not a text file",
		       p[0]);
	return n;
}

static int names_equal(char **a, size_t na, char **b, size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i], b[i]))
			return 0;
	return 1;
}

/* Take r as a new header (validated) or reuse an identical earlier one. */
static int add_header(struct cb_csv *csv, struct rowbuf *r, unsigned long line,
                      size_t *cur)
{
	for (size_t h = 0; h < csv->nhdrs; h++) {
		if (names_equal(csv->hdrs[h].names, csv->hdrs[h].ncols,
		                r->f, r->n)) {
			free_fields(r->f, r->n);
			*cur = h;
			return 0;
		}
	}
	for (size_t i = 0; i < r->n; i++) {
		if (!r->f[i][0]) {
			seterr(csv, line, "header: column %zu has no name", i + 1);
			return -EINVAL;
		}
		for (size_t j = 0; j < i; j++) {
			if (!strcmp(r->f[i], r->f[j])) {
				seterr(csv, line, "header: duplicate column '%s'",
				       r->f[i]);
				return -EINVAL;
			}
		}
	}
	csv->hdrs = cb_xrealloc(csv->hdrs, (csv->nhdrs + 1) * sizeof *csv->hdrs);
	csv->hdrs[csv->nhdrs] = (struct cb_csv_head){
		.names = r->f, .ncols = r->n, .line = line };
	*cur = csv->nhdrs++;
	return 0;
}

/* A finished row: the header, a repeated or new header, or data. */
static int end_row(struct cb_csv *csv, struct rowbuf *r, unsigned long line,
                   size_t *cur, size_t *rowcap)
{
	const struct cb_csv_head *h;
	int rc;

	if (!csv->nhdrs || !strcmp(r->f[0], csv->hdrs[0].names[0])) {
		rc = add_header(csv, r, line, cur);
		if (rc < 0)
			return rc;
		r->f = NULL;
		r->n = r->cap = 0;
		return 0;
	}
	h = &csv->hdrs[*cur];
	if (r->n != h->ncols) {
		seterr(csv, line, "%zu field%s, but the header (line %lu) has "
		       "%zu columns", r->n, r->n == 1 ? "" : "s", h->line,
		       h->ncols);
		return -EINVAL;
	}
	if (csv->nrows == *rowcap) {
		*rowcap = *rowcap ? *rowcap * 2 : 64;
		csv->rows = cb_xrealloc(csv->rows, *rowcap * sizeof *csv->rows);
	}
	csv->rows[csv->nrows++] = (struct cb_csv_rec){
		.fields = r->f, .nfields = r->n, .line = line, .hdr = *cur };
	r->f = NULL;
	r->n = r->cap = 0;
	return 0;
}

static void clear(struct cb_csv *csv)
{
	for (size_t i = 0; i < csv->nrows; i++)
		free_fields(csv->rows[i].fields, csv->rows[i].nfields);
	for (size_t i = 0; i < csv->nhdrs; i++)
		free_fields(csv->hdrs[i].names, csv->hdrs[i].ncols);
	free(csv->rows);
	free(csv->hdrs);
	free(csv->name);
	csv->rows = NULL;
	csv->hdrs = NULL;
	csv->name = NULL;
	csv->nrows = csv->nhdrs = 0;
}

void cb_csv_free(struct cb_csv *csv)
{
	clear(csv);
}

/* The scanner's position in the text. */
struct scanner {
	struct cb_csv *csv;
	const unsigned char *p;
	size_t pos, len;
	unsigned long line;      /* of p[pos], counting LF                     */
	struct buf b;            /* the field being scanned                     */
};

/* Length of the line end (LF or CRLF) at the position, or 0. */
static size_t eol_at(const struct scanner *s)
{
	if (s->pos < s->len && s->p[s->pos] == '\n')
		return 1;
	if (s->pos + 1 < s->len && s->p[s->pos] == '\r' &&
	    s->p[s->pos + 1] == '\n')
		return 2;
	return 0;
}

/* Copy one validated character of field text; 0 or -EINVAL. */
static int take_char(struct scanner *s)
{
	size_t n = text_char(s->csv, s->p + s->pos, s->len - s->pos, s->line);

	if (!n)
		return -EINVAL;
	buf_add(&s->b, (const char *)s->p + s->pos, n);
	s->pos += n;
	return 0;
}

/* A quoted field, from its opening quote to just after the closing one. */
static int scan_quoted(struct scanner *s)
{
	unsigned long qline = s->line;
	const unsigned char *p = s->p;
	size_t eol;

	s->pos++;
	for (;;) {
		if (s->pos >= s->len) {
			seterr(s->csv, qline, "unterminated quoted field (the "
			       "quote opens on this line)");
			return -EINVAL;
		}
		if (p[s->pos] == '"') {
			if (s->pos + 1 < s->len && p[s->pos + 1] == '"') {
				buf_add(&s->b, "\"", 1);
				s->pos += 2;
				continue;
			}
			s->pos++;
			break;
		}
		if ((eol = eol_at(s))) {
			buf_add(&s->b, "\n", 1);
			s->pos += eol, s->line++;
		} else if (take_char(s) < 0) {
			return -EINVAL;
		}
	}
	if (s->pos < s->len && p[s->pos] != ',' && p[s->pos] != '\n' &&
	    p[s->pos] != '\r') {
		seterr(s->csv, s->line, "text after the closing quote of a field");
		return -EINVAL;
	}
	return 0;
}

/* An unquoted field, up to the comma or line end after it. */
static int scan_plain(struct scanner *s)
{
	const unsigned char *p = s->p;

	while (s->pos < s->len && p[s->pos] != ',' && p[s->pos] != '\n' &&
	       p[s->pos] != '\r') {
		if (p[s->pos] == '"') {
			seterr(s->csv, s->line, "quote inside an unquoted field "
			       "(quote the whole field, double the quote)");
			return -EINVAL;
		}
		if (take_char(s) < 0)
			return -EINVAL;
	}
	return 0;
}

/* The fields of one row into r, and the line end after it. */
static int scan_row(struct scanner *s, struct rowbuf *r)
{
	for (;;) {            /* one field per iteration */
		int rc;

		s->b.len = 0;
		rc = s->pos < s->len && s->p[s->pos] == '"' ? scan_quoted(s)
		                                            : scan_plain(s);
		if (rc < 0)
			return rc;
		row_push(r, &s->b);
		if (s->pos >= s->len)
			return 0;
		if (s->p[s->pos] == ',') {
			s->pos++;
			continue;
		}
		if (s->p[s->pos] == '\r' && !eol_at(s)) {
			seterr(s->csv, s->line, "carriage return not followed by "
			       "a line feed");
			return -EINVAL;
		}
		s->pos += eol_at(s), s->line++;
		return 0;
	}
}

static int scan(struct cb_csv *csv, const unsigned char *p, size_t len)
{
	struct scanner s = { .csv = csv, .p = p, .len = len, .line = 1 };
	struct rowbuf r = { 0 };
	size_t cur = 0, rowcap = 0, eol;
	unsigned long rowline;
	int rc = -EINVAL;

	if (len >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
		s.pos = 3;                    /* UTF-8 byte-order mark */
	while (s.pos < len) {
		/* Blank lines between rows are skipped. */
		if ((eol = eol_at(&s))) {
			s.pos += eol, s.line++;
			continue;
		}
		rowline = s.line;
		if (scan_row(&s, &r) < 0 ||
		    end_row(csv, &r, rowline, &cur, &rowcap) < 0)
			goto out;
	}
	if (!csv->nhdrs) {
		seterr(csv, s.line, "empty file: no header row");
		goto out;
	}
	rc = 0;
out:
	free_fields(r.f, r.n);
	free(s.b.p);
	return rc;
}

int cb_csv_parse(struct cb_csv *csv, const char *name, const char *buf,
                 size_t len)
{
	int rc;

	memset(csv, 0, sizeof *csv);
	csv->name = cb_xstrdup(name);
	rc = scan(csv, (const unsigned char *)buf, len);
	if (rc < 0)
		clear(csv);
	return rc;
}

int cb_csv_read(struct cb_csv *csv, const char *path)
{
	int is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "<stdin>" : path;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	char *data = NULL;
	size_t len = 0, cap = 0, got;
	int rc;

	memset(csv, 0, sizeof *csv);
	if (!f) {
		rc = -errno;
		snprintf(csv->err, sizeof csv->err, "%s: %s", name, strerror(errno));
		return rc;
	}
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			data = cb_xrealloc(data, cap);
		}
		got = fread(data + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		rc = errno ? -errno : -EIO;
		snprintf(csv->err, sizeof csv->err, "%s: read error: %s", name,
		         strerror(-rc));
		if (!is_stdin)
			fclose(f);
		free(data);
		return rc;
	}
	if (!is_stdin)
		fclose(f);
	rc = cb_csv_parse(csv, name, data, len);
	free(data);
	return rc;
}

int cb_csv_col(const struct cb_csv *csv, size_t hdr, const char *name)
{
	const struct cb_csv_head *h = &csv->hdrs[hdr];

	for (size_t i = 0; i < h->ncols; i++)
		if (!strcmp(h->names[i], name))
			return (int)i;
	return -1;
}

const char *cb_csv_get(const struct cb_csv *csv, const struct cb_csv_rec *row,
                       const char *name)
{
	int i = cb_csv_col(csv, row->hdr, name);

	return i < 0 ? NULL : row->fields[i];
}

const char *cb_iv_key(const char *iv, uint64_t mb)
{
	static char keys[64][64];   /* interned, for the process's lifetime */
	static int nkeys;
	char k[64];

	if (!mb)
		return iv;
	snprintf(k, sizeof k, "%.30s --mb %llu", iv, (unsigned long long)mb);
	for (int i = 0; i < nkeys; i++)
		if (!strcmp(keys[i], k))
			return keys[i];
	if (nkeys == 64)
		return "per-request --mb (more kinds than read)";
	memcpy(keys[nkeys], k, sizeof k);
	return keys[nkeys++];
}

const char *cb_csv_iv_key(const struct cb_csv *csv,
                          const struct cb_csv_rec *row, const char *dflt)
{
	const char *iv = cb_csv_get(csv, row, "iv_mode"), *mb;
	uint64_t n = 0;

	iv = iv && *iv ? iv : dflt;
	mb = cb_csv_get(csv, row, "mb");
	if (!mb || cb_parse_u64(mb, &n) < 0)
		n = 0;
	return cb_iv_key(iv, n);
}

int cb_csv_has(const struct cb_csv *csv, const char *name)
{
	for (size_t h = 0; h < csv->nhdrs; h++)
		if (cb_csv_col(csv, h, name) >= 0)
			return 1;
	return 0;
}

int cb_csv_number(const char *s, double *v)
{
	const char *q = s;
	char *end;
	double x;

	/* Plain decimal only: no spaces, hex, inf or nan. */
	if (*q == '-' || *q == '+')
		q++;
	if (!((*q >= '0' && *q <= '9') || (*q == '.' && q[1] >= '0' && q[1] <= '9')))
		return -EINVAL;
	for (const char *c = q; *c; c++)
		if (!strchr("0123456789.eE+-", *c))
			return -EINVAL;
	errno = 0;
	x = strtod(s, &end);
	if (*end || errno == ERANGE || x != x || x - x != 0)
		return -EINVAL;
	*v = x;
	return 0;
}

int cb_csv_numbers(const char *s, double **v, size_t *n, char *bad,
                   size_t badlen)
{
	char *copy = cb_xstrdup(s), *save = NULL;
	int rc = 0;

	for (char *t = strtok_r(copy, " ", &save); t;
	     t = strtok_r(NULL, " ", &save)) {
		double x;

		if (cb_csv_number(t, &x) < 0 || x < 0) {
			snprintf(bad, badlen, "%s", t);
			rc = -EINVAL;
			break;
		}
		*v = cb_xrealloc(*v, (*n + 1) * sizeof **v);
		(*v)[(*n)++] = x;
	}
	free(copy);
	return rc;
}

static int is_nan_word(const char *s)
{
	return !strcmp(s, "nan") || !strcmp(s, "NaN") || !strcmp(s, "NAN") ||
	       !strcmp(s, "-nan");
}

static int check_value(struct cb_csv *csv, const struct cb_csv_rec *row,
                       const struct cb_csv_col *c, const char *s)
{
	double d;
	uint64_t u;

	if ((c->flags & CB_CSV_NONEMPTY) && !*s) {
		seterr(csv, row->line, "column '%s' is empty", c->name);
		return -EINVAL;
	}
	if (!(c->flags & (CB_CSV_NUMBER | CB_CSV_UINT)))
		return 0;
	if ((c->flags & CB_CSV_EMPTY_OK) && (!*s || is_nan_word(s)))
		return 0;
	if (c->flags & CB_CSV_UINT) {
		if (cb_parse_u64(s, &u) < 0) {
			seterr(csv, row->line, "column '%s': '%s' is not a "
			       "non-negative integer", c->name, s);
			return -EINVAL;
		}
		return 0;
	}
	if (cb_csv_number(s, &d) < 0) {
		seterr(csv, row->line, "column '%s': '%s' is not a number",
		       c->name, s);
		return -EINVAL;
	}
	if ((c->flags & CB_CSV_NONNEG) && d < 0) {
		seterr(csv, row->line, "column '%s': %s is negative", c->name, s);
		return -EINVAL;
	}
	return 0;
}

int cb_csv_check(struct cb_csv *csv, const struct cb_csv_col *cols)
{
	size_t ncols = 0;
	int **idx;
	int rc = 0;

	while (cols[ncols].name)
		ncols++;
	/* Column indices per header, and required columns. */
	idx = cb_xcalloc(csv->nhdrs, sizeof *idx);
	for (size_t h = 0; h < csv->nhdrs; h++) {
		idx[h] = cb_xcalloc(ncols, sizeof **idx);
		for (size_t c = 0; c < ncols; c++) {
			idx[h][c] = cb_csv_col(csv, h, cols[c].name);
			if (idx[h][c] < 0 && (cols[c].flags & CB_CSV_REQUIRED)) {
				seterr(csv, csv->hdrs[h].line, "header: missing "
				       "required column '%s'", cols[c].name);
				rc = -EINVAL;
				goto out;
			}
		}
	}
	for (size_t r = 0; r < csv->nrows; r++) {
		const struct cb_csv_rec *row = &csv->rows[r];

		for (size_t c = 0; c < ncols; c++) {
			int i = idx[row->hdr][c];

			if (i < 0)
				continue;
			rc = check_value(csv, row, &cols[c], row->fields[i]);
			if (rc < 0)
				goto out;
		}
	}
out:
	for (size_t h = 0; h < csv->nhdrs; h++)
		free(idx[h]);
	free(idx);
	return rc;
}

void cb_csv_write_field(FILE *f, const char *s)
{
	size_t n = strlen(s);

	if (!strpbrk(s, ",\"\r\n") && !(n && (s[0] == ' ' || s[n - 1] == ' '))) {
		fputs(s, f);
		return;
	}
	cb_put_quoted(f, s, '"');
}
