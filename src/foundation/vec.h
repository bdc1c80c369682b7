/*
 * vec.h - the known-answer vectors file format (docs/vectors.md).
 *
 * Plain text; '#' starts a comment line; a record is a run of
 * "name = value" lines, records separated by blank lines.  Hex values are
 * hex digits of either case or repeat(HEX, COUNT).  The parser is strict:
 * unknown fields, repeated fields, odd-length or non-hex values, binary
 * bytes, a missing alg are errors reported as file:line.
 */
#ifndef CB_VEC_H
#define CB_VEC_H

#include <stddef.h>
#include <stdint.h>

enum vec_type { VEC_HEX, VEC_TEXT, VEC_DEC };

struct vec_field_def {
	const char *name;
	enum vec_type type;
};
extern const struct vec_field_def vec_fields[];  /* sorted by name */
extern const size_t vec_nfields;

struct vec_field {
	const char *name;      /* points into vec_fields                     */
	char *text;            /* the value as written                       */
	uint8_t *bin;          /* VEC_HEX: decoded bytes                      */
	size_t len;            /* VEC_HEX: length in bytes                    */
	uint64_t num;          /* VEC_DEC                                     */
	unsigned line;
};

#define VEC_MAX_FIELDS 24
#define VEC_MAX_REPEAT ((size_t)64 << 20)  /* bytes a repeat(...) may make */
#define VEC_MAX_REPEAT_FILE ((size_t)256 << 20)  /* ... all of a file's     */

struct vec_rec {
	const char *file;
	unsigned line;         /* first line of the record                   */
	int nf;
	struct vec_field f[VEC_MAX_FIELDS];
};

struct vec_file {
	char *path;
	size_t n;
	struct vec_rec *recs;
};

/* Parse path; on error print "path:line: message" and return -EINVAL
 * (-ENOENT etc. for I/O, also printed). */
int vec_read(const char *path, struct vec_file *vf);
void vec_free(struct vec_file *vf);
const struct vec_field *vec_get(const struct vec_rec *r, const char *name);
/* Print "file:line: fmt" for a record (or a field if f non-NULL). */
void vec_error(const struct vec_rec *r, const struct vec_field *f,
               const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
