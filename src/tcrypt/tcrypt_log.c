/*
 * tcrypt_log.c - the kernel tcrypt module's speed report (its kernel log
 * lines) into results; the table of its speed modes (tcrypt_log.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "tcrypt/tcrypt_log.h"
#include "foundation/util.h"

/* Linux 6.1 crypto/tcrypt.c do_test(): each mode tests several algorithms;
 * `cryptobench tcrypt` keeps the sections whose headers name the one asked
 * for, so a wrong row here shows as "printed no section".  Sorted. */
const struct tc_mode tc_modes[] = {
	{ "cbc(aes)", 200, 500 },
	{ "cbc(blowfish)", 203, 509 },
	{ "cbc(camellia)", 205, 508 },
	{ "cbc(des3_ede)", 201, 501 },
	{ "cbc(serpent)", 207, 503 },
	{ "cbc(twofish)", 202, 504 },
	{ "chacha20", 214, 0 },
	{ "ctr(aes)", 200, 500 },
	{ "ecb(aes)", 200, 500 },
	{ "essiv(cbc(aes),sha256)", 0, 220 },
	{ "gcm(aes)", 211, 211 },         /* tcrypt's AEAD speed: one mode */
	{ "md5", 302, 402 },
	{ "rfc4106(gcm(aes))", 211, 211 },
	{ "rmd160", 315, 415 },
	{ "sha1", 303, 403 },
	{ "sha224", 313, 413 },
	{ "sha256", 304, 404 },
	{ "sha384", 305, 405 },
	{ "sha512", 306, 406 },
	{ "xts(aes)", 200, 500 },
	{ "xts(serpent)", 207, 503 },
	{ "xts(twofish)", 202, 504 },
	{ NULL, 0, 0 },
};

const struct tc_mode *tc_mode_find(const char *alg)
{
	for (const struct tc_mode *m = tc_modes; m->alg; m++)
		if (!strcmp(m->alg, alg))
			return m;
	return NULL;
}

/* a parsed header: the algorithm as named, its driver, the direction */
struct tc_head {
	char alg[128], driver[160];
	const char *dir;
	const struct cb_alg *a;
};

/* "testing speed of [async |sync |multibuffer ]ALG (DRIVER)[ DIR]" */
static int parse_head(const char *p, struct tc_head *h)
{
	static const char *const kinds[] = { "async ", "sync ", "multibuffer " };
	const char *q;
	int depth = 0;
	size_t n;

	for (size_t i = 0; i < 3; i++)
		if (!strncmp(p, kinds[i], strlen(kinds[i])))
			p += strlen(kinds[i]);
	if (!(q = strstr(p, " (")) || (n = (size_t)(q - p)) >= sizeof h->alg)
		return -1;
	memcpy(h->alg, p, n);
	h->alg[n] = 0;
	p = q + 2;
	for (q = p; *q && !(*q == ')' && depth == 0); q++)
		depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
	if (*q != ')' || (n = (size_t)(q - p)) >= sizeof h->driver)
		return -1;
	memcpy(h->driver, p, n);
	h->driver[n] = 0;
	q++;
	h->dir = strstr(q, "decryption") ? "decrypt"
	         : strstr(q, "encryption") ? "encrypt" : "digest";
	h->a = cb_alg_find(h->alg, NULL);
	return 0;
}

/* the measurement after "):" into r; 0, or -1 if it is none of the forms */
static int parse_figure(const char *p, struct cb_result *r, double ghz)
{
	unsigned long long a, b;
	unsigned s;
	double size = (double)r->block_bytes;

	if (sscanf(p, " %llu operations in %u seconds (%llu bytes)", &a, &s, &b) == 3 && s) {
		r->ops_per_sec = (double)a / s;
	} else if (sscanf(p, " 1 operation in %llu cycles (%llu bytes)", &a, &b) == 2 && a) {
		r->cycles_per_byte = (double)a / size;
		r->ops_per_sec = ghz > 0 ? ghz * 1e9 / (double)a : NAN;
	} else if (sscanf(p, " %llu opers/sec, %llu bytes/sec", &a, &b) == 2 ||
	           sscanf(p, " %llu ops/s (%llu bytes)", &a, &b) == 2) {
		r->ops_per_sec = (double)a;
	} else if (sscanf(p, " %llu cycles/operation, %llu cycles/byte", &a, &b) == 2 && a) {
		r->cycles_per_byte = (double)a / size;
		r->ops_per_sec = ghz > 0 ? ghz * 1e9 / (double)a : NAN;
	} else {
		return -1;
	}
	r->bytes_per_sec = r->ops_per_sec * size;
	r->ns_per_byte = r->bytes_per_sec > 0 ? 1e9 / r->bytes_per_sec : NAN;
	if (isnan(r->cycles_per_byte) && ghz > 0)
		r->cycles_per_byte = r->ns_per_byte * ghz;
	r->ghz = ghz > 0 ? ghz : NAN;
	return 0;
}

/* "test N (K bit key, S byte blocks):" or the hash form; keep=0: a hash
 * row of several updates per block.  Returns the text after "):". */
static const char *parse_test(const char *p, struct cb_result *r, int *keep)
{
	unsigned t, k, s, u, nu;
	const char *q = strstr(p, "):");

	*keep = 1;
	if (!q)
		return NULL;
	if (sscanf(p, "test %u (%u bit key, %u byte blocks)", &t, &k, &s) == 3) {
		r->key_bits = k;
	} else if (sscanf(p, "test %u (%u byte blocks, %u bytes per update, %u updates)",
	                  &t, &s, &u, &nu) == 4) {
		r->key_bits = 0;
		*keep = nu == 1;
	} else {
		return NULL;
	}
	r->block_bytes = s;
	return q + 2;
}

/* the message of one log line: past "[ time] " or a kmsg "...;" prefix
 * and "tcrypt: " */
static const char *message(const char *line)
{
	const char *p = line, *semi = strchr(line, ';');

	if (*p == '[' && (p = strchr(p, ']')))
		p++;
	else if (semi && semi - line < 40 && strspn(line, "0123456789,-c") ==
	         (size_t)(semi - line))
		p = semi + 1;
	else
		p = line;
	while (*p == ' ')
		p++;
	if (!strncmp(p, "tcrypt: ", 8))
		p += 8;
	while (!strncmp(p, "\\x0a", 4))   /* /dev/kmsg escapes the newline */
		p += 4;                      /* pr_info("\n...") starts with */
	return p;
}

static struct cb_result *add(struct cb_result **res, size_t *n,
                             const struct tc_head *h)
{
	struct cb_result *r = realloc(*res, (*n + 1) * sizeof **res);

	if (!r)
		return NULL;
	*res = r;
	r += (*n)++;
	memset(r, 0, sizeof *r);
	r->tool = "tcrypt";
	r->backend = "kernel-tcrypt";   /* a series of its own beside AF_ALG's */
	r->alg = h->a ? h->a->name : "";
	r->alg_label = strdup(h->alg);
	r->driver = strdup(h->driver);
	r->direction = h->dir;
	r->iv_mode = "per-request";
	r->threads = 1;
	r->reps = 1;
	r->cycles_per_byte = NAN;
	r->overhead_ns = r->slope_ns_per_byte = r->ghz_drift = NAN;
	r->status = CB_RES_OK;
	return r->alg_label && r->driver ? r : NULL;
}

int tc_parse(const char *text, const char *alg, double ghz,
             struct cb_result **res, size_t *n)
{
	struct tc_head h = { .a = NULL };
	struct cb_result row;
	int have = 0, count = 0, keep;
	const char *line = text, *p, *after = NULL;

	for (; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char buf[512];
		size_t len = strcspn(line, "\n");

		snprintf(buf, sizeof buf, "%.*s", (int)(len < 511 ? len : 511), line);
		p = message(buf);
		if (!strncmp(p, "testing speed of ", 17)) {
			have = parse_head(p + 17, &h) == 0 && h.a &&
			       (!alg || !strcmp(h.a->name, alg));
			after = NULL;
			continue;
		}
		if (!have)
			continue;
		if (after) {                     /* the figure on its own line */
			p = after = NULL;
		} else if ((p = parse_test(p, &row, &keep)) && keep) {
			while (*p == ' ')
				p++;
			if (!*p) {                  /* continued on the next line */
				after = "";
				continue;
			}
		} else {
			continue;
		}
		if (!p)
			p = message(buf);
		struct cb_result *r = add(res, n, &h);
		if (!r)
			return -ENOMEM;
		r->key_bits = row.key_bits;
		r->block_bytes = row.block_bytes;
		if (parse_figure(p, r, ghz) < 0) {
			free((void *)r->alg_label);
			free((void *)r->driver);
			(*n)--;
			continue;
		}
		count++;
	}
	return count;
}

void tc_free(struct cb_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free((void *)res[i].alg_label);
		free((void *)res[i].driver);
		free((void *)res[i].backend_version);
	}
	free(res);
}
