/*
 * vec.c - strict parser for the vectors files (vectors/NAME.vec) (format in docs/vectors.md).
 * Syntax only: which fields an algorithm needs, and their lengths, are
 * checked by the known-answer runner (kat.c) against the registry.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "foundation/util.h"
#include "foundation/vec.h"

/* Sorted by name.  auth, disk, iv_large_sectors, key_bits, mkey, mode,
 * offset and sector_size are for the sector-transform records (alg = geli
 * or dm-crypt), validated by src/kat/kat_sector.c. */
const struct vec_field_def vec_fields[] = {
	{ "alg", VEC_TEXT },
	{ "assoc", VEC_HEX },
	{ "auth", VEC_TEXT },
	{ "ct", VEC_HEX },
	{ "disk", VEC_HEX },
	{ "dk", VEC_HEX },
	{ "expect", VEC_TEXT },
	{ "iterations", VEC_DEC },
	{ "iv", VEC_HEX },
	{ "iv_large_sectors", VEC_DEC },
	{ "iv_out", VEC_HEX },
	{ "key", VEC_HEX },
	{ "key_bits", VEC_DEC },
	{ "lanes", VEC_DEC },
	{ "mac", VEC_HEX },
	{ "md", VEC_HEX },
	{ "memory", VEC_DEC },
	{ "mkey", VEC_HEX },
	{ "mode", VEC_TEXT },
	{ "msg", VEC_HEX },
	{ "offset", VEC_DEC },
	{ "password", VEC_HEX },
	{ "pt", VEC_HEX },
	{ "salt", VEC_HEX },
	{ "secret", VEC_HEX },
	{ "sector_size", VEC_DEC },
	{ "source", VEC_TEXT },
	{ "tag", VEC_HEX },
	{ "tlen", VEC_DEC },
};
const size_t vec_nfields = sizeof vec_fields / sizeof vec_fields[0];

void vec_error(const struct vec_rec *r, const struct vec_field *f,
               const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%u: ", r->file, f ? f->line : r->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const struct vec_field *vec_get(const struct vec_rec *r, const char *name)
{
	for (int i = 0; i < r->nf; i++)
		if (!strcmp(r->f[i].name, name))
			return &r->f[i];
	return NULL;
}

static const struct vec_field_def *field_def(const char *name)
{
	for (size_t i = 0; i < vec_nfields; i++)
		if (!strcmp(vec_fields[i].name, name))
			return &vec_fields[i];
	return NULL;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
	                 e[-1] == '\n'))
		*--e = 0;
	return s;
}

static void rec_free(struct vec_rec *r)
{
	for (int i = 0; i < r->nf; i++) {
		free(r->f[i].text);
		free(r->f[i].bin);
	}
	r->nf = 0;
}

#define SHOW 40   /* characters of a bad name or value shown in a message */

/*
 * A hex value: hex digits (either case), or the repeat notation
 * "repeat(HEX, COUNT)" - the bytes of HEX written COUNT times (the
 * one-million-'a' hash messages: repeat(61, 1000000)).  0 or a message.
 */
static const char *hex_value(const char *val, uint8_t **bin, size_t *len,
                             size_t *budget)
{
	const char *p = val + 7, *comma;
	char hex[2 * 64 + 1], *end;
	unsigned long long count;
	uint8_t *unit;
	size_t ul;

	if (strncmp(val, "repeat(", 7)) {
		if (strlen(val) % 2)
			return "odd number of hex digits";
		return cb_hex_decode(val, bin, len) < 0 ? "not hex" : NULL;
	}
	comma = strchr(p, ',');
	if (!comma || (size_t)(comma - p) >= sizeof hex || comma == p ||
	    val[strlen(val) - 1] != ')')
		return "repeat: write repeat(HEX, COUNT), HEX at most 64 bytes";
	memcpy(hex, p, (size_t)(comma - p));
	hex[comma - p] = 0;
	p = comma + 1;
	while (*p == ' ')
		p++;
	errno = 0;
	count = strtoull(p, &end, 10);
	while (*end == ' ')
		end++;
	if (*p < '0' || *p > '9' || errno || strcmp(end, ")"))
		return "repeat: COUNT is not a decimal number";
	if (strlen(hex) % 2 || cb_hex_decode(hex, &unit, &ul) < 0)
		return "repeat: HEX is not hex";
	if (!ul || count > VEC_MAX_REPEAT / ul) {
		free(unit);
		return "repeat: the value would exceed 64 MiB";
	}
	if (ul * (size_t)count > *budget) {
		free(unit);
		return "repeat: the file's repeated values would exceed 256 MiB";
	}
	*budget -= ul * (size_t)count;
	*len = ul * (size_t)count;
	*bin = cb_xmalloc(*len ? *len : 1);
	for (size_t i = 0; i < *len; i += ul)
		memcpy(*bin + i, unit, ul);
	free(unit);
	return NULL;
}

static int parse_line(struct vec_rec *r, const char *path, unsigned lineno,
                      char *line, size_t *budget)
{
	char *eq = strchr(line, '='), *name, *val;
	const struct vec_field_def *def;
	struct vec_field *f;
	const char *msg;

	if (!eq) {
		fprintf(stderr, "%s:%u: expected 'name = value', got '%.*s%s'\n",
		        path, lineno, SHOW, line, strlen(line) > SHOW ? "..." : "");
		return -EINVAL;
	}
	*eq = 0;
	name = trim(line);
	val = trim(eq + 1);
	if (!(def = field_def(name))) {
		fprintf(stderr, "%s:%u: unknown field '%.*s%s'\n", path, lineno,
		        SHOW, name, strlen(name) > SHOW ? "..." : "");
		return -EINVAL;
	}
	if (vec_get(r, def->name)) {
		fprintf(stderr, "%s:%u: field '%s' given twice in one record\n",
		        path, lineno, def->name);
		return -EINVAL;
	}
	if (r->nf == VEC_MAX_FIELDS) {
		fprintf(stderr, "%s:%u: too many fields in one record\n", path,
		        lineno);
		return -EINVAL;
	}
	f = &r->f[r->nf];
	memset(f, 0, sizeof *f);
	f->name = def->name;
	f->line = lineno;
	switch (def->type) {
	case VEC_HEX:
		if ((msg = hex_value(val, &f->bin, &f->len, budget))) {
			fprintf(stderr, "%s:%u: %s: %s\n", path, lineno, name, msg);
			return -EINVAL;
		}
		break;
	case VEC_DEC:
		if (cb_parse_u64(val, &f->num) < 0) {
			fprintf(stderr, "%s:%u: %s: not a decimal number\n", path,
			        lineno, name);
			return -EINVAL;
		}
		break;
	case VEC_TEXT:
		if (!*val) {
			fprintf(stderr, "%s:%u: %s: empty\n", path, lineno, name);
			return -EINVAL;
		}
		break;
	}
	f->text = cb_xstrdup(val);
	r->nf++;
	return 0;
}

static int end_record(struct vec_file *vf, struct vec_rec *r, const char *path)
{
	const struct vec_field *e;

	if (!r->nf)
		return 0;
	if (!vec_get(r, "alg")) {
		fprintf(stderr, "%s:%u: record has no 'alg' field\n", path,
		        r->line);
		return -EINVAL;
	}
	if ((e = vec_get(r, "expect")) && strcmp(e->text, "fail")) {
		fprintf(stderr, "%s:%u: expect: only 'fail' is allowed\n", path,
		        e->line);
		return -EINVAL;
	}
	vf->recs = cb_xrealloc(vf->recs, (vf->n + 1) * sizeof *vf->recs);
	vf->recs[vf->n++] = *r;
	r->nf = 0;
	return 0;
}

int vec_read(const char *path, struct vec_file *vf)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	unsigned lineno = 0;
	struct vec_rec cur = {0};
	size_t budget = VEC_MAX_REPEAT_FILE;
	int rc = 0;

	memset(vf, 0, sizeof *vf);
	if (!fp) {
		rc = -errno;
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return rc;
	}
	vf->path = cb_xstrdup(path);
	cur.file = vf->path;
	while ((got = getline(&line, &cap, fp)) >= 0) {
		char *s;

		lineno++;
		if (memchr(line, 0, (size_t)got)) {
			fprintf(stderr, "%s:%u: binary data (NUL byte)\n", path,
			        lineno);
			rc = -EINVAL;
			break;
		}
		for (ssize_t i = 0; i < got; i++) {
			unsigned char c = (unsigned char)line[i];

			if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
			    c >= 0x7f) {
				fprintf(stderr, "%s:%u: non-ASCII or control "
				        "byte 0x%02x\n", path, lineno, c);
				rc = -EINVAL;
				goto out;
			}
		}
		s = trim(line);
		if (*s == '#')
			continue;
		if (!*s) {
			if ((rc = end_record(vf, &cur, path)) < 0)
				break;
			continue;
		}
		if (!cur.nf)
			cur.line = lineno;
		if ((rc = parse_line(&cur, path, lineno, s, &budget)) < 0)
			break;
	}
	if (!rc && ferror(fp)) {
		fprintf(stderr, "%s: read error\n", path);
		rc = -EIO;
	}
	if (!rc)
		rc = end_record(vf, &cur, path);
out:
	rec_free(&cur);
	free(line);
	fclose(fp);
	if (rc < 0)
		vec_free(vf);
	return rc;
}

void vec_free(struct vec_file *vf)
{
	for (size_t i = 0; i < vf->n; i++)
		rec_free(&vf->recs[i]);
	free(vf->recs);
	free(vf->path);
	memset(vf, 0, sizeof *vf);
}
