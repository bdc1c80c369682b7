/*
 * imp_geli.c - geli and dd lines: "geli init [-P] -e EALG [-l N] [-a AALG]
 * -s S [-K F] PROVIDER" sets what the "N bytes transferred in S secs (B
 * bytes/sec)" lines after it measured (Linux dd's "N bytes (...) copied,
 * S s, ..." too); a dd summary before any geli init is the bare device's
 * (alg "none").  The request size is the bs= of the last dd command line
 * above (none: 0), and so is the direction: writing to a device
 * (of= other than /dev/null) encrypts, reading into /dev/null decrypts.  geli's default -l is geli(8)'s (AES-XTS, Blowfish and
 * Camellia 128, 3DES 192); -e aes is AES-XTS, as geli has it since
 * FreeBSD 8.2.
 */
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "import/import.h"
#include "foundation/util.h"

#define GE_WHAT "a geli or dd line ('geli init ... -e EALG ...', 'dd ...', " \
	"'N+M records in|out', 'N bytes transferred in S secs (B bytes/sec)')"

struct ge_state {
	int init;              /* 1: a geli init line was read; -1: one that
	                          could not be (its summaries are errors)   */
	const char *ealg, *aalg;
	unsigned l, s;
	uint64_t bs;
	const char *dir;       /* of=/dev/null: decrypt; another of=: encrypt */
};

static unsigned default_l(const char *e)
{
	return !strcmp(e, "3des") || !strcmp(e, "3des-cbc") ? 192 :
	       !strcmp(e, "null") ? 0 : 128;
}

static int geli_init(struct imp_file *f, struct ge_state *st, char **w, int n)
{
	st->init = -1;               /* until it is read whole */
	st->ealg = "aes";            /* geli(8): the default -e */
	st->aalg = NULL;
	st->l = 0;
	st->s = 0;
	for (int i = 2; i < n - 1; i++) {
		const char *o = w[i];
		uint64_t v;

		if (!strcmp(o, "-P") || !strcmp(o, "-b") || !strcmp(o, "-g") ||
		    !strcmp(o, "-d") || !strcmp(o, "-T"))
			continue;
		if (o[0] != '-' || !o[1] || o[2] || i + 1 >= n - 1)
			return -1;
		i++;
		if (o[1] == 'e')
			st->ealg = imp_str(f, "%s", w[i]);
		else if (o[1] == 'a')
			st->aalg = imp_str(f, "%s", w[i]);
		else if ((o[1] == 'l' || o[1] == 's') &&
		         (cb_parse_u64(w[i], &v) || v > 65536))
			return -1;
		else if (o[1] == 'l' || o[1] == 's')
			*(o[1] == 'l' ? &st->l : &st->s) = (unsigned)v;
		else if (!strchr("KBiJV", o[1]))
			return -1;
	}
	st->init = cb_alg_find(st->ealg, NULL) ? 1 : -1;
	return st->init > 0 ? 0 : -1;
}

static int dd_cmd(struct ge_state *st, char **w, int n)
{
	st->dir = "";
	for (int i = 1; i < n; i++) {
		if (!strncmp(w[i], "bs=", 3) && cb_parse_size(w[i] + 3, &st->bs))
			return -1;
		if (!strncmp(w[i], "of=", 3))
			st->dir = strcmp(w[i], "of=/dev/null") ? "encrypt" : "decrypt";
	}
	return 0;
}

static void add(struct imp_file *f, struct ge_state *st, uint64_t bytes,
                double secs, double bps)
{
	struct cb_result *r = imp_row(f, "dd");
	unsigned mult = 1;

	r->block_bytes = st->bs;
	r->direction = st->dir ? st->dir : "";
	r->reps = 1;
	r->threads = 1;                   /* one dd stream, as `dd` measures */
	r->seconds = secs;
	r->bytes_total = bytes;
	imp_rate(r, bps);
	r->backend = "freebsd-geli";      /* the report's, baseline included */
	if (!st->init) {
		r->alg = "none";
		r->iv_mode = "none";
		return;
	}
	const struct cb_alg *a = cb_alg_find(st->ealg, &mult);
	r->alg = a->name;
	r->key_bits = a->flags & CB_F_NOKEY ? 0 :
	              (st->l ? st->l : default_l(st->ealg)) * mult;
	r->sector_bytes = st->s;
	r->iv_mode = a->flags & CB_F_NOKEY ? "none" : "per-sector";
	r->auth = st->aalg ? imp_canon(f, st->aalg) : "";
}

/* FreeBSD: "N bytes transferred in S secs (B bytes/sec)"; Linux: "N bytes
 * (...) copied, S s, ..." */
static int summary(struct imp_file *f, struct ge_state *st, const char *t)
{
	unsigned long long nb, bps;
	double secs;
	const char *c;

	if (st->init < 0)
		return -1;

	if (sscanf(t, "%llu bytes transferred in %lf secs (%llu bytes/sec)",
	           &nb, &secs, &bps) == 3 && secs > 0) {
		add(f, st, nb, secs, (double)bps);
		return 0;
	}
	if (sscanf(t, "%llu bytes", &nb) == 1 && (c = strstr(t, " copied, ")) &&
	    sscanf(c, " copied, %lf s,", &secs) == 1 && secs > 0) {
		add(f, st, nb, secs, (double)nb / secs);
		return 0;
	}
	return -1;
}

int imp_geli_line(struct imp_file *f, unsigned long no, const char *s)
{
	struct ge_state *st = f->state;
	char buf[512], copy[512], *t, *w[40];
	unsigned long long a, b;
	int n, rc;
	char io[4];

	if (!st)
		st = f->state = cb_xcalloc(1, sizeof *st);
	t = imp_trim(s, buf, sizeof buf);
	snprintf(copy, sizeof copy, "%s", t);
	n = imp_words(copy, w, 39);
	if (n == 0)
		return 0;
	if (n > 39)
		rc = -1;
	else if (!strcmp(w[0], "geli") && n > 1 && !strcmp(w[1], "init"))
		rc = geli_init(f, st, w, n);
	else if (!strcmp(w[0], "geli"))
		rc = 0;                      /* attach, detach: no figure */
	else if (!strcmp(w[0], "dd"))
		rc = dd_cmd(st, w, n);
	else if (sscanf(t, "%llu+%llu records %3s", &a, &b, io) == 3)
		rc = 0;
	else
		rc = summary(f, st, t);
	return rc ? imp_bad(f, no, GE_WHAT, s) : 0;
}
