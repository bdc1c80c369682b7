/*
 * imp_bssl.c - BoringSSL's (and AWS-LC's) `bssl speed`: the text lines
 * "Did N NAME (S bytes) seal operations in Tus (R ops/sec): X MB/s" in
 * their three generations, and -json's objects {"description": ...,
 * "numCalls": N, "microseconds": T, "bytesPerCall": S}, one a line.  The
 * figures are the counts and times; a line with no request size (an init,
 * a signature) has no place in the schema and is passed over.  Which
 * library built the tool the text does not say: backend "bssl".
 */
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "import/import.h"

#define BS_WHAT "a bssl speed line ('Did N NAME (S bytes) ... operations " \
	"in Tus ...', or a -json object)"

/* "AES-128-GCM", "EVP-AES-128-GCM", "ChaCha20-Poly1305", "SHA-256" */
static void name_alg(struct imp_file *f, struct cb_result *r, const char *n)
{
	unsigned bits;
	char c[64], m[64];

	if (!strncmp(n, "EVP-", 4))
		n += 4;
	if (sscanf(n, "AES-%u-%63[A-Za-z0-9-]", &bits, m) == 2 &&
	    (!strcmp(m, "GCM") || !strcmp(m, "CBC") || !strcmp(m, "CTR") ||
	     !strcmp(m, "XTS"))) {
		for (char *p = m; *p; p++)
			*p = (char)(*p - 'A' + 'a');
		r->alg = imp_canon(f, imp_str(f, "%s(aes)", m));
		r->key_bits = !strcmp(m, "xts") ? 2 * bits : bits;
	} else if (!strcmp(n, "ChaCha20-Poly1305")) {
		r->alg = imp_canon(f, "rfc7539(chacha20,poly1305)");
		r->key_bits = 256;
	} else if (sscanf(n, "SHA-%63[0-9]", c) == 1 && strlen(n) == 4 + strlen(c)) {
		r->alg = imp_canon(f, imp_str(f, "sha%s", c));
	} else {
		r->alg = imp_str(f, "%s", n);
	}
}

/* desc "NAME (S bytes) seal", "NAME encrypt (S bytes)", or (-json with
 * bytesPerCall) "NAME seal"; 1: no request size (nothing added) */
static int add(struct imp_file *f, const char *desc, double calls,
               double us, double size)
{
	const char *b = strstr(desc, " (");
	char name[128];
	unsigned long long s;
	struct cb_result *r;
	double bytes = size;

	if (b && sscanf(b, " (%llu bytes)", &s) == 1) {
		bytes = size > 0 ? size : (double)s;
		snprintf(name, sizeof name, "%.*s", (int)(b - desc), desc);
	} else if (size > 0) {
		snprintf(name, sizeof name, "%s", desc);
	} else {
		return 1;
	}
	if (!imp_fits(bytes, 0x1p63) || !imp_fits(calls * bytes, 0x1p63))
		return -1;              /* counts no run makes: not a line */
	if (strchr(name, ' '))      /* "EVP-AES-128-GCM encrypt", "X seal" */
		*strchr(name, ' ') = 0;
	r = imp_row(f, "speed");
	r->backend = "bssl";
	name_alg(f, r, name);
	r->direction = strstr(desc, "open") || strstr(desc, "decrypt")
	               ? "decrypt" : imp_is_digest(r->alg) ? "digest" : "encrypt";
	r->iv_mode = imp_is_digest(r->alg) ? "none" : "per-request";
	r->block_bytes = (uint64_t)bytes;
	r->threads = 1;
	r->reps = 1;
	r->seconds = us / 1e6;
	r->bytes_total = (uint64_t)(calls * bytes);
	imp_rate(r, calls * bytes / (us / 1e6));
	return 0;
}

/* "Did 16670000 AES-128-GCM (16 bytes) seal operations in 1000054us ..." */
static int text_line(struct imp_file *f, const char *t)
{
	char desc[256];
	const char *ops = strstr(t, " operations in "), *name;
	unsigned long long calls, us;
	char *end;

	if (strncmp(t, "Did ", 4) || !ops)
		return -1;
	calls = strtoull(t + 4, &end, 10);
	if (end == t + 4 || *end != ' ')
		return -1;
	name = end + 1;
	if (sscanf(ops, " operations in %lluus", &us) != 1 || !us ||
	    ops - name >= (long)sizeof desc)
		return -1;
	snprintf(desc, sizeof desc, "%.*s", (int)(ops - name), name);
	return add(f, desc, (double)calls, (double)us, 0) < 0 ? -1 : 0;
}

/* the number after "KEY": in a -json object, or -1 */
static double json_num(const char *t, const char *key)
{
	const char *p = strstr(t, key);
	char *end;
	double v;

	if (!p || !(p = strchr(p + strlen(key), ':')))
		return -1;
	v = strtod(p + 1, &end);
	return end == p + 1 ? -1 : v;
}

static int json_line(struct imp_file *f, const char *t)
{
	const char *d = strstr(t, "\"description\"");
	char desc[256];
	double calls = json_num(t, "\"numCalls\""), us = json_num(t,
	               "\"microseconds\""), size = json_num(t, "\"bytesPerCall\"");

	if (!d || !(d = strchr(d + 13, '"')) || !strchr(d + 1, '"') ||
	    calls < 0 || us <= 0)
		return -1;
	snprintf(desc, sizeof desc, "%.*s", (int)(strchr(d + 1, '"') - d - 1),
	         d + 1);
	return add(f, desc, calls, us, size) < 0 ? -1 : 0;
}

int imp_bssl_line(struct imp_file *f, unsigned long no, const char *s)
{
	char buf[1024], *t = imp_trim(s, buf, sizeof buf);
	int rc;

	if (!*t || !strcmp(t, "[") || !strcmp(t, "]") || !strcmp(t, ","))
		return 0;
	if (*t == '{' || *t == '[' || *t == ',')
		rc = json_line(f, t);
	else
		rc = text_line(f, t);
	return rc ? imp_bad(f, no, BS_WHAT, s) : 0;
}
