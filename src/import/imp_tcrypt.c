/*
 * imp_tcrypt.c - kernel tcrypt logs through the tcrypt module's own reader
 * (tcrypt/tcrypt_log.c): each "test N (...)" line is read with the
 * "testing speed of" header above it, and must give one row.  The other
 * lines of a kernel log are the kernel's, not tcrypt's: they are passed
 * over.  A header of an algorithm the registry does not know is an error
 * (its test lines are then passed over).
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "import/import.h"
#include "tcrypt/tcrypt_log.h"
#include "foundation/util.h"

struct tc_state {
	char head[512];        /* the header's message, "" before one       */
	int head_ok;
	char pend[512];        /* a test line whose figure is on the next   */
	unsigned long pend_no;
};

/* The algorithm of "testing speed of [async |sync |multibuffer ]ALG (" */
static int head_known(const char *h)
{
	static const char *const kinds[] = { "async ", "sync ", "multibuffer " };
	char alg[256];
	const char *p = h + 17, *q;

	for (int i = 0; i < 3; i++)
		if (!strncmp(p, kinds[i], strlen(kinds[i])))
			p += strlen(kinds[i]);
	if (!(q = strstr(p, " (")) || (size_t)(q - p) >= sizeof alg)
		return 0;
	snprintf(alg, sizeof alg, "%.*s", (int)(q - p), p);
	return cb_alg_find(alg, NULL) != NULL;
}

/* A test line: "tcrypt: test N" anywhere, or a line that is "test N". */
static const char *test_at(const char *s)
{
	const char *p = strstr(s, "tcrypt: test ");

	if (p)
		p += 8;
	else
		for (p = s; isspace((unsigned char)*p); p++)
			;
	return !strncmp(p, "test ", 5) && isdigit((unsigned char)p[5]) ? p : NULL;
}

static int take(struct imp_file *f, const char *text)
{
	struct cb_result *res = NULL, *r;
	size_t n = 0;
	int k = tc_parse(text, NULL, 0, &res, &n);

	if (k != 1) {                       /* none, two, or -ENOMEM */
		tc_free(res, n);
		return -1;
	}
	r = imp_row(f, "tcrypt");
	const char *details = r->backend_details;
	*r = res[0];
	r->driver = imp_str(f, "%s", res[0].driver);
	r->alg_label = imp_str(f, "%s", res[0].alg_label);
	r->backend_details = details;
	r->backend_version = "";
	r->auth = "";
	r->rel_spread = r->seconds = NAN;   /* one figure: no spread */
	tc_free(res, n);
	return 0;
}

static int test_line(struct imp_file *f, struct tc_state *st,
                     unsigned long no, const char *s, const char *t)
{
	char text[1600];
	const char *after = strstr(t, "):");

	if (!st->head[0])
		return imp_bad(f, no, "a 'testing speed of' header before a "
		               "tcrypt test line", s);
	if (!st->head_ok)
		return 0;
	if (after && !after[2 + strspn(after + 2, " \t\r")]) {
		snprintf(st->pend, sizeof st->pend, "%s", t);
		st->pend_no = no;
		return 0;
	}
	snprintf(text, sizeof text, "%s\n%s\n", st->head, t);
	if (take(f, text))
		return imp_bad(f, no, "'test N (K bit key, B byte blocks): O "
		               "operations in S seconds (B bytes)' or another "
		               "form of tcrypt's speed lines", s);
	return 0;
}

int imp_tcrypt_line(struct imp_file *f, unsigned long no, const char *s)
{
	struct tc_state *st = f->state;
	const char *h, *t;
	char text[1600];

	if (!st)
		st = f->state = cb_xcalloc(1, sizeof *st);
	if (st->pend[0]) {                  /* the figure of the line before */
		snprintf(text, sizeof text, "%s\n%s\n%s\n", st->head, st->pend, s);
		st->pend[0] = 0;
		if (take(f, text))
			return imp_bad(f, st->pend_no, "a tcrypt figure on the "
			               "line after a test line", s);
		return 0;
	}
	if ((h = strstr(s, "testing speed of "))) {
		snprintf(st->head, sizeof st->head, "%s", h);
		st->head_ok = head_known(h);
		if (!st->head_ok)
			return imp_bad(f, no, "a tcrypt header of an algorithm "
			               "cryptobench knows", s);
		return 0;
	}
	if ((t = test_at(s)))
		return test_line(f, st, no, s, t);
	return 0;
}
