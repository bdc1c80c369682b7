/*
 * imp_openssl.c - `openssl speed`: its table (a "type" header of request
 * sizes, rows in 1000s of bytes per second where suffixed k, bytes per
 * second otherwise) and its -mr lines (+H: sizes, +F: bytes per second).
 * The version line names the library; the other build lines, "Doing ..."
 * and the -mr counting lines (+DT, +R) carry no figure.  `openssl speed`
 * encrypts unless -decrypt was given, which its text does not show: the
 * rows say encrypt.  Requests continue one chain (iv_mode once).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "import/import.h"
#include "foundation/util.h"

#define OS_MAXSIZES 16
#define OS_WHAT "an openssl speed line (version, 'type 16 bytes ...', a " \
	"row of as many figures as sizes, or -mr '+H:', '+F:')"

struct os_state {
	uint64_t size[OS_MAXSIZES];
	int nsize;
	const char *version;
};

static struct os_state *state(struct imp_file *f)
{
	if (!f->state)
		f->state = cb_xcalloc(1, sizeof(struct os_state));
	return f->state;
}

/* One figure: "73199.42k" (1000s of bytes/s) or "999.12" (bytes/s). */
static int figure(char *s, int mr, double *bps)
{
	size_t n = strlen(s);
	int k = !mr && n && s[n - 1] == 'k';

	if (k)
		s[n - 1] = 0;
	if (imp_num(s, bps))
		return -1;
	*bps *= k ? 1000 : 1;
	return 0;
}

static void add(struct imp_file *f, const char *name, uint64_t size,
                double bps)
{
	struct os_state *st = state(f);
	struct cb_result *r = imp_row(f, "speed");
	char low[128];
	size_t i;
	unsigned bits = 0;

	for (i = 0; name[i] && i < sizeof low - 1; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[i] = 0;
	r->backend = "openssl";
	r->backend_version = st->version ? st->version : "";
	if (imp_cipher_mode(f, low, &r->alg, &bits) < 0)
		r->alg = imp_canon(f, !strcmp(low, "chacha20-poly1305")
		                   ? "rfc7539(chacha20,poly1305)" : low);
	if (!strncmp(r->alg, "rfc7539", 7) || !strcmp(r->alg, "chacha20"))
		bits = 256;
	r->key_bits = bits;
	r->block_bytes = size;
	r->direction = imp_is_digest(r->alg) ? "digest" : "encrypt";
	r->iv_mode = imp_is_digest(r->alg) ? "none" : "once";
	r->threads = 1;
	r->reps = 1;
	imp_rate(r, bps);
}

/* The last nsize words are figures; the words before them the name. */
static int row(struct imp_file *f, char **w, int n, int mr)
{
	struct os_state *st = state(f);
	double v[OS_MAXSIZES];
	char name[128] = "";
	int first = n - st->nsize;

	if (!st->nsize || first < 1)
		return -1;
	for (int i = 0; i < st->nsize; i++)
		if (figure(w[first + i], mr, &v[i]))
			return -1;
	for (int i = 0; i < first; i++)
		snprintf(name + strlen(name), sizeof name - strlen(name),
		         "%s%s", i ? " " : "", w[i]);
	for (int i = 0; i < st->nsize; i++)
		add(f, name, st->size[i], v[i]);
	return 0;
}

/* "type 16 bytes 64 bytes ..." (w[0] "type") or "+H:16:64:..." split */
static int sizes(struct imp_file *f, char **w, int n, int step)
{
	struct os_state *st = state(f);

	st->nsize = 0;
	for (int i = 1; i < n; i += step) {
		if (st->nsize == OS_MAXSIZES || cb_parse_u64(w[i],
		    &st->size[st->nsize]) || !st->size[st->nsize] ||
		    (step == 2 && (i + 1 >= n || strcmp(w[i + 1], "bytes"))))
			return -1;
		st->nsize++;
	}
	return st->nsize ? 0 : -1;
}

static int mr_line(struct imp_file *f, char *s)
{
	char *w[OS_MAXSIZES + 4];
	int n = 0;

	for (char *p = s; p && n < OS_MAXSIZES + 4; ) {
		w[n++] = p;
		if ((p = strchr(p, ':')))
			*p++ = 0;
	}
	if (!strcmp(w[0], "+H"))
		return sizes(f, w, n, 1);
	if (!strcmp(w[0], "+F") && n > 3)   /* +F:index:name:figures */
		return row(f, w + 2, n - 2, 1);
	/* +DT/+DTP/+R*: the counts of the figures that follow; +F2..+F9:
	 * signatures and key exchanges, not in the schema */
	return !strncmp(w[0], "+D", 2) || !strncmp(w[0], "+R", 2) ||
	       (w[0][1] == 'F' && isdigit((unsigned char)w[0][2])) ? 0 : -1;
}

static int version(struct imp_file *f, const char *s)
{
	struct os_state *st = state(f);

	st->version = imp_str(f, "%s", s);
	f->prov.tool_version = imp_str(f, "openssl speed, %s", s);
	for (size_t i = 0; i < f->n; i++)
		f->res[i].backend_version = st->version;
	return 0;
}

int imp_openssl_line(struct imp_file *f, unsigned long no, const char *s)
{
	static const char *const build[] = { "built on:", "options:",
		"compiler:", "CPUINFO:", "platform:", "The 'numbers' are",
		"Doing ", NULL };
	char buf[1024], *t = imp_trim(s, buf, sizeof buf), *w[OS_MAXSIZES * 2 + 8];
	int n, rc;

	if (!*t)
		return 0;
	if (!strncmp(t, "OpenSSL ", 8) || !strncmp(t, "LibreSSL ", 9))
		return version(f, t);
	if (!strncmp(t, "version: ", 9))
		return version(f, imp_str(f, "OpenSSL %s", t + 9));
	for (int i = 0; build[i]; i++)
		if (!strncmp(t, build[i], strlen(build[i])))
			return 0;
	if (*t == '+')
		rc = mr_line(f, t);
	else if ((n = imp_words(t, w, OS_MAXSIZES * 2 + 7)) > OS_MAXSIZES * 2 + 7)
		rc = -1;
	else if (!strcmp(w[0], "type"))
		rc = sizes(f, w, n, 2);
	else
		rc = row(f, w, n, 0);
	return rc ? imp_bad(f, no, OS_WHAT, s) : 0;
}
