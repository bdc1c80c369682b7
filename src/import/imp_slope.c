/*
 * imp_slope.c - libgcrypt's tests/bench-slope: section titles ("Cipher:",
 * "Hash:"), a header per algorithm (" AES | nanosecs/byte mebibytes/sec
 * cycles/byte [auto Mhz]") and rows ("CBC dec | 0.157 ns/B 6075.6 MiB/s
 * 0.628 c/B [5553±5]"); the hash layout names the algorithm in the row
 * under a header with an empty first cell.  bench-slope times a series of
 * sizes and reports the slope: it goes in slope_ns_per_byte, the rate in
 * bytes_per_sec, and there is no one request size (block_bytes 0).  The
 * auto Mhz column is the clock bench-slope measured.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "import/import.h"
#include "foundation/util.h"

#define SL_WHAT "a bench-slope line (a section title, 'NAME | nanosecs/byte " \
	"...' or 'MODE enc|dec|auth | X ns/B Y MiB/s Z c/B [MHz]')"

struct sl_state {
	char cipher[64];       /* the header's algorithm, "" for hashes      */
	int have;
};

/* "AES" (libgcrypt's AES is AES-128), "AES256", "CAMELLIA128" */
static void cipher_key(const char *name, char *c, size_t n, unsigned *bits)
{
	size_t i = strcspn(name, "0123456789");

	snprintf(c, n, "%.*s", (int)i, name);
	for (char *p = c; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	*bits = name[i] ? (unsigned)atoi(name + i) : !strcmp(c, "aes") ? 128 : 0;
}

static int mode_alg(struct imp_file *f, struct cb_result *r, const char *ci,
                    const char *mode, const char *op)
{
	char c[64], m[32];
	unsigned bits;

	cipher_key(ci, c, sizeof c, &bits);
	snprintf(m, sizeof m, "%s", mode);
	for (char *p = m; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	if (!strcmp(c, "chacha") && !strcmp(m, "poly1305"))
		r->alg = imp_canon(f, "rfc7539(chacha20,poly1305)");
	else if (!strcmp(m, "stream"))
		r->alg = imp_canon(f, c);
	else
		r->alg = imp_canon(f, imp_str(f, "%s(%s)", m, c));
	r->key_bits = !strcmp(m, "xts") ? 2 * bits : bits;
	if (!strcmp(op, "enc") || !strcmp(op, "dec"))
		r->direction = *op == 'e' ? "encrypt" : "decrypt";
	else if (!strcmp(op, "auth"))
		r->direction = "digest";
	else
		return -1;
	return 0;
}

/* "SHA512" -> sha512, "HMAC_SHA256" -> hmac(sha256) */
static void hash_alg(struct imp_file *f, struct cb_result *r, const char *n)
{
	char low[64];
	size_t i;

	for (i = 0; n[i] && i < sizeof low - 1; i++)
		low[i] = (char)(n[i] == '_' ? '-' : tolower((unsigned char)n[i]));
	low[i] = 0;
	r->alg = !strncmp(low, "hmac-", 5)
	         ? imp_canon(f, imp_str(f, "hmac(%s)", low + 5)) : imp_canon(f, low);
	r->direction = "digest";
}

/* the figures after '|': "X ns/B Y MiB/s Z c/B [MHz[±d]]" */
static int figures(struct cb_result *r, char **w, int n)
{
	double ns, mib, cpb, mhz;

	if ((n != 6 && n != 7) || imp_num(w[0], &ns) || strcmp(w[1], "ns/B") ||
	    imp_num(w[2], &mib) || strcmp(w[3], "MiB/s") || strcmp(w[5], "c/B"))
		return -1;
	if (strcmp(w[4], "-") && imp_num(w[4], &cpb))
		return -1;
	if (n == 7) {
		char *pm = strstr(w[6], "\xc2\xb1");    /* "±" in UTF-8 */

		if (pm)
			*pm = 0;
		if (imp_num(w[6], &mhz) || mhz <= 0)
			return -1;
		r->ghz = mhz / 1000;
	}
	r->slope_ns_per_byte = ns;
	r->cycles_per_byte = strcmp(w[4], "-") ? cpb : r->cycles_per_byte;
	imp_rate(r, mib * 1048576.0);
	return 0;
}

static int row(struct imp_file *f, struct sl_state *st, char *left, char *right)
{
	char *w[8], *l[4];
	int n = imp_words(right, w, 7), nl = imp_words(left, l, 3);
	struct cb_result *r = imp_row(f, "speed");

	r->backend = "gcrypt";
	r->threads = 1;
	r->reps = 1;
	if (st->cipher[0] && nl == 2)
		n = mode_alg(f, r, st->cipher, l[0], l[1]) ? -1 : n;
	else if (!st->cipher[0] && nl == 1)
		hash_alg(f, r, l[0]);
	else
		n = -1;
	if (n < 0 || figures(r, w, n)) {
		f->n--;
		return -1;
	}
	r->iv_mode = imp_is_digest(r->alg) ? "none" : "";
	return 0;
}

int imp_slope_line(struct imp_file *f, unsigned long no, const char *s)
{
	struct sl_state *st = f->state;
	char buf[512], *t, *bar;
	char *w[4];

	if (!st)
		st = f->state = cb_xcalloc(1, sizeof *st);
	snprintf(buf, sizeof buf, "%s", s);
	t = buf + strspn(buf, " \t");
	if (!*t || !strcmp(t, "=") || (t[strlen(t) - 1] == ':' && !strchr(t, ' ')))
		return 0;                   /* "Cipher:", "Hash:", "=" */
	if (!(bar = strchr(t, '|')))
		return imp_bad(f, no, SL_WHAT, s);
	*bar = 0;
	if (strstr(bar + 1, "nanosecs/byte")) {     /* a header */
		int n = imp_words(t, w, 3);

		if (n > 1)
			return imp_bad(f, no, SL_WHAT, s);
		snprintf(st->cipher, sizeof st->cipher, "%s", n ? w[0] : "");
		st->have = 1;
		return 0;
	}
	if (!st->have || row(f, st, t, bar + 1))
		return imp_bad(f, no, SL_WHAT, s);
	return 0;
}
