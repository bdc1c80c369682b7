/*
 * imp_core.c - what every format's reader uses (import.h): the rows and
 * the strings they point to, the rate columns, the error message, words
 * and numbers of a line, and canonical names.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "import/import.h"
#include "foundation/util.h"

const char *imp_str(struct imp_file *f, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = cb_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	f->pool = cb_xrealloc(f->pool, (f->npool + 1) * sizeof *f->pool);
	f->pool[f->npool++] = s;
	return s;
}

struct cb_result *imp_row(struct imp_file *f, const char *tool)
{
	struct cb_result *r;

	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 32;
		f->res = cb_xrealloc(f->res, f->cap * sizeof *f->res);
	}
	r = &f->res[f->n++];
	memset(r, 0, sizeof *r);
	r->tool = tool;
	r->backend = r->backend_version = r->driver = r->auth = "";
	r->iv_mode = r->direction = r->alg = "";
	r->backend_details = imp_str(f, "imported from %s", f->source);
	r->status = CB_RES_OK;
	r->ops_per_sec = r->bytes_per_sec = r->ns_per_byte = NAN;
	r->cycles_per_byte = r->ghz = r->overhead_ns = NAN;
	r->slope_ns_per_byte = r->rel_spread = r->seconds = NAN;
	r->ghz_drift = r->shared = r->mad_ops = r->ct_t = NAN;
	return r;
}

void imp_rate(struct cb_result *r, double bps)
{
	r->bytes_per_sec = bps;
	r->ns_per_byte = bps > 0 ? 1e9 / bps : NAN;
	r->ops_per_sec = r->block_bytes ? bps / (double)r->block_bytes : NAN;
}

int imp_bad(struct imp_file *f, unsigned long line, const char *what,
            const char *text)
{
	f->errors++;
	if (f->skip_bad)
		cb_warn("%s:%lu: skipped: expected %s, not '%.60s'", f->path,
		        line, what, text);
	else
		cb_err("%s:%lu: expected %s, not '%.60s'", f->path, line, what,
		       text);
	return -1;
}

int imp_words(char *s, char **w, int max)
{
	int n = 0;

	while (*s) {
		while (isspace((unsigned char)*s))
			*s++ = 0;
		if (!*s)
			break;
		if (n == max)
			return max + 1;
		w[n++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
	}
	return n;
}

int imp_fits(double v, double max)
{
	return isfinite(v) && v >= 0 && v < max;
}

int imp_num(const char *s, double *v)
{
	char buf[64], *end;

	if (!s || !*s || strlen(s) >= sizeof buf ||
	    !(isdigit((unsigned char)*s) || *s == '.'))
		return -1;
	strcpy(buf, s);
	for (char *p = buf; *p; p++)
		if (*p == ',')
			*p = '.';
	*v = strtod(buf, &end);
	return *end || !isfinite(*v) || *v < 0 ? -1 : 0;
}

const char *imp_canon(struct imp_file *f, const char *name)
{
	unsigned mult = 1;
	const struct cb_alg *a = cb_alg_find(name, &mult);

	return a && mult == 1 ? a->name : imp_str(f, "%s", name);
}

char *imp_trim(const char *line, char *buf, size_t n)
{
	size_t len;

	while (isspace((unsigned char)*line))
		line++;
	snprintf(buf, n, "%s", line);
	len = strlen(buf);
	while (len && isspace((unsigned char)buf[len - 1]))
		buf[--len] = 0;
	return buf;
}

int imp_is_digest(const char *alg)
{
	const struct cb_alg *a = alg && *alg ? cb_alg_find(alg, NULL) : NULL;

	return a && (a->kind == CB_HASH || a->kind == CB_MAC);
}

/* "aes-128-cbc", "aes-128 cbc", "camellia-256-cbc": MODE(CIPHER), *bits
 * the key (XTS: both halves); 0, or -1 when name is not of that form. */
int imp_cipher_mode(struct imp_file *f, const char *name, const char **alg,
                    unsigned *bits)
{
	char c[32], m[32], sep;
	unsigned k;

	if (sscanf(name, "%31[a-z0-9]-%u%c%31[a-z0-9]", c, &k, &sep, m) != 4 ||
	    (sep != '-' && sep != ' ') || k < 40 || k > 512 ||
	    strlen(name) != strlen(c) + (size_t)snprintf(NULL, 0, "%u", k) +
	    2 + strlen(m))
		return -1;
	*alg = imp_canon(f, imp_str(f, "%s(%s)", m, c));
	*bits = !strcmp(m, "xts") ? 2 * k : k;
	return 0;
}

/* --set NAME=VALUE: a provenance column the source states beside the
 * text; 0, or -1 when NAME is not one of them or VALUE does not fit. */
int imp_set(struct imp_file *f, const char *name, const char *value)
{
	struct cb_prov *p = &f->prov;
	struct { const char *name; char *buf; size_t n; int *num; } cols[] = {
		{ "host", p->host, sizeof p->host, NULL },
		{ "cpu_model", p->cpu_model, sizeof p->cpu_model, NULL },
		{ "kernel", p->kernel, sizeof p->kernel, NULL },
		{ "cpu_vendor", p->cpu_vendor, sizeof p->cpu_vendor, NULL },
		{ "cpu_flags", p->cpu_flags, sizeof p->cpu_flags, NULL },
		{ "cpu_family", NULL, 0, &p->cpu_family },
		{ "cpu_model_no", NULL, 0, &p->cpu_model_no },
		{ "cpu_stepping", NULL, 0, &p->cpu_stepping },
	};
	uint64_t v;

	for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
		if (strcmp(name, cols[i].name))
			continue;
		if (cols[i].num) {
			if (cb_parse_u64(value, &v) || v > 65535)
				return -1;
			*cols[i].num = (int)v;
			return 0;
		}
		if (strlen(value) >= cols[i].n)
			return -1;
		strcpy(cols[i].buf, value);
		return 0;
	}
	if (strcmp(name, "timestamp") || strlen(value) >= sizeof f->res->timestamp)
		return -1;
	for (size_t i = 0; i < f->n; i++)
		strcpy(f->res[i].timestamp, value);
	return 0;
}
