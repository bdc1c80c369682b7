/*
 * imp_cryptsetup.c - `cryptsetup benchmark` (1.x and 2.x; the lines of
 * src/cryptsetup.c action_benchmark, docs/cryptsetup.md): the comment and
 * header lines, PBKDF2 and Argon2 lines, cipher rows, each possibly N/A.
 * The cipher rows are the kernel's (AF_ALG), 64 KiB requests with one IV
 * each; which driver, it does not say.  The key derivations run in
 * cryptsetup's own crypto backend (backend "cryptsetup"; which library
 * that is, it does not say either).
 */
#include <math.h>
#include <string.h>

#include "core/cb.h"
#include "import/import.h"

#define CS_WHAT "a cryptsetup benchmark line ('# ...', 'PBKDF2-HASH N " \
	"iterations per second for K-bit key', 'argon2i N iterations, ...', " \
	"'CIPHER-MODE Kb X MiB/s Y MiB/s', or N/A)"

static int pbkdf2(struct imp_file *f, char **w, int n)
{
	const char *h = w[0] + 7;
	struct cb_result *r;
	double it;

	r = imp_row(f, "speed");
	r->backend = "cryptsetup";
	r->alg = imp_canon(f, imp_str(f, "pbkdf2(hmac(%s))", h));
	r->direction = "derive";
	r->iv_mode = "none";
	r->threads = 1;
	if (n == 2 && !strcmp(w[1], "N/A")) {
		r->status = CB_RES_SKIP;
		r->why = "N/A in cryptsetup's output";
		return 0;
	}
	if (n != 8 || imp_num(w[1], &it) || strcmp(w[2], "iterations") ||
	    strcmp(w[7], "key")) {
		f->n--;
		return -1;
	}
	r->reps = 1;
	imp_rate(r, it);     /* iterations per second (docs/csv.md) */
	return 0;
}

static int argon2(struct imp_file *f, char **w, int n)
{
	struct cb_result *r = imp_row(f, "speed");
	double t, m, p, ms;

	r->backend = "cryptsetup";
	r->alg = imp_canon(f, w[0]);
	r->direction = "derive";
	r->iv_mode = "none";
	r->status = CB_RES_SKIP;
	if (n == 2 && !strcmp(w[1], "N/A")) {
		r->why = "N/A in cryptsetup's output";
		return 0;
	}
	if (n != 16 || imp_num(w[1], &t) || imp_num(w[3], &m) ||
	    imp_num(w[5], &p) || imp_num(w[13], &ms) ||
	    strcmp(w[2], "iterations,") || strcmp(w[4], "memory,") ||
	    !imp_fits(m, 0x1p63) || !imp_fits(p, 65536)) {
		f->n--;
		return -1;
	}
	/* a cost found for a time, not a measured rate: kept as such */
	r->block_bytes = (uint64_t)m;
	r->threads = (unsigned)p;
	r->why = imp_str(f, "cryptsetup's cost for %.0f ms requested: %.0f "
	                 "iterations, %.0f KiB, %.0f threads (not a rate)",
	                 ms, t, m, p);
	return 0;
}

/* "aes-xts 256b 2373.3 MiB/s 2380.8 MiB/s" or "... N/A N/A" */
static int cipher(struct imp_file *f, char **w, int n)
{
	char *dash = strchr(w[0], '-');
	unsigned long long bits;
	double v[2];
	int na = n == 4 && !strcmp(w[2], "N/A") && !strcmp(w[3], "N/A");

	char b;

	if ((n != 4 && n != 6) || !dash || sscanf(w[1], "%llu%c", &bits, &b) != 2 || b != 'b' ||
	    strlen(w[1]) != (size_t)snprintf(NULL, 0, "%llub", bits))
		return -1;
	if (!na && (n != 6 || imp_num(w[2], &v[0]) || imp_num(w[4], &v[1]) ||
	            strcmp(w[3], "MiB/s") || strcmp(w[5], "MiB/s")))
		return -1;
	*dash = 0;
	for (int d = 0; d < 2; d++) {
		struct cb_result *r = imp_row(f, "speed");

		r->backend = "kernel";
		r->alg = imp_canon(f, imp_str(f, "%s(%s)", dash + 1, w[0]));
		r->key_bits = (unsigned)bits;
		r->block_bytes = 65536;
		r->direction = d ? "decrypt" : "encrypt";
		r->iv_mode = "per-request";
		r->threads = 1;
		if (na) {
			r->status = CB_RES_SKIP;
			r->why = "N/A in cryptsetup's output";
			continue;
		}
		r->reps = 1;
		imp_rate(r, v[d] * 1048576.0);
	}
	return 0;
}

int imp_cryptsetup_line(struct imp_file *f, unsigned long no, const char *s)
{
	char buf[512], *w[20];
	int n, rc;

	n = imp_words(imp_trim(s, buf, sizeof buf), w, 19);
	if (n == 0 || w[0][0] == '#')
		return 0;
	if (n > 19)
		rc = -1;
	else if (!strncmp(w[0], "PBKDF2-", 7) && w[0][7])
		rc = pbkdf2(f, w, n);
	else if (!strcmp(w[0], "argon2i") || !strcmp(w[0], "argon2id"))
		rc = argon2(f, w, n);
	else
		rc = cipher(f, w, n);
	return rc ? imp_bad(f, no, CS_WHAT, s) : 0;
}
