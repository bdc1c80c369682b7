/*
 * kat_sector.c - known-answer records for the sector transforms (alg =
 * geli / dm-crypt): validate a record's fields against its layout, and run
 * it through sector.h on one backend (encrypt must give `disk`, decrypt
 * must give `pt`; expect = fail must be rejected).  Part of the kat layer:
 * it uses sector.h, never the reverse.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "kat/kat.h"
#include "sector/sector.h"
#include "foundation/util.h"
#include "foundation/vec.h"

/* ---- known-answer records ------------------------------------------------- */

/* Fields a record may have, by transform (besides alg, source, expect). */
static const char *const kat_fields[] = {
	[SECTOR_GELI] = " mode key_bits auth sector_size offset mkey pt disk ",
	[SECTOR_DMCRYPT] = " mode key sector_size iv_large_sectors offset pt disk ",
};

int kat_sector_is(const char *alg)
{
	return !strcmp(alg, "geli") || !strcmp(alg, "dm-crypt");
}

static enum sector_kind rec_kind(const struct vec_rec *r)
{
	return strcmp(vec_get(r, "alg")->text, "geli") ? SECTOR_DMCRYPT
	                                                : SECTOR_GELI;
}

static int field_in(const char *list, const char *name)
{
	char w[40];

	snprintf(w, sizeof w, " %s ", name);
	return strstr(list, w) != NULL;
}

static uint64_t num(const struct vec_rec *r, const char *name, uint64_t dflt)
{
	const struct vec_field *f = vec_get(r, name);

	return f ? f->num : dflt;
}

/* Parse a record's configuration (fields already checked by validate). */
static int rec_cfg(const struct vec_rec *r, struct sector_cfg *c)
{
	enum sector_kind k = rec_kind(r);
	const struct vec_field *kb = vec_get(r, "key_bits"), *key, *a;
	unsigned bits;

	key = vec_get(r, "key");
	a = vec_get(r, "auth");
	bits = k == SECTOR_GELI ? (kb ? (unsigned)kb->num : 0)
	                        : (key ? (unsigned)key->len * 8 : 0);
	return sector_parse(c, vec_get(r, "mode")->text, bits,
	                    k == SECTOR_GELI ? kb != NULL : 1,
	                    a ? a->text : NULL,
	                    (unsigned)num(r, "sector_size", 0),
	                    (int)num(r, "iv_large_sectors", 0));
}

int kat_sector_validate(const struct vec_rec *r)
{
	enum sector_kind k = rec_kind(r);
	const char *need = k == SECTOR_GELI
	        ? " mode sector_size offset mkey pt disk "
	        : " mode sector_size offset pt disk ";
	const struct vec_field *pt, *disk, *key;
	struct sector_cfg c;
	unsigned chunks;
	size_t dps, dsk;

	for (int i = 0; i < r->nf; i++) {
		const char *n = r->f[i].name;

		if (!strcmp(n, "alg") || !strcmp(n, "source") ||
		    !strcmp(n, "expect"))
			continue;
		if (!field_in(kat_fields[k], n)) {
			vec_error(r, &r->f[i], "field '%s' does not apply to %s "
			          "records", n, vec_get(r, "alg")->text);
			return -EINVAL;
		}
	}
	for (const char *p = need; *p; ) {
		char name[32];
		size_t l;

		while (*p == ' ')
			p++;
		l = strcspn(p, " ");
		if (!l)
			break;
		snprintf(name, sizeof name, "%.*s", (int)l, p);
		p += l;
		if (!vec_get(r, name)) {
			vec_error(r, NULL, "%s record has no '%s' field",
			          vec_get(r, "alg")->text, name);
			return -EINVAL;
		}
	}
	cb_clear_error();
	if (rec_cfg(r, &c) < 0) {
		vec_error(r, vec_get(r, "mode"), "%s", cb_last_error());
		cb_clear_error();
		return -EINVAL;
	}
	if (c.kind != k) {
		vec_error(r, vec_get(r, "mode"), "mode '%s' is not a %s transform",
		          c.ealg, vec_get(r, "alg")->text);
		return -EINVAL;
	}
	if (vec_get(r, "offset")->num % c.sector_size) {
		vec_error(r, vec_get(r, "offset"), "offset must be a multiple of "
		          "the sector size %u", c.sector_size);
		return -EINVAL;
	}
	key = vec_get(r, k == SECTOR_GELI ? "mkey" : "key");
	if ((key ? key->len : 0) != c.key_len) {
		vec_error(r, key, "the key must be %zu bytes", c.key_len);
		return -EINVAL;
	}
	sector_geometry(&c, &chunks, &dps, &dsk);
	pt = vec_get(r, "pt");
	disk = vec_get(r, "disk");
	if (!pt->len || pt->len % c.sector_size) {
		vec_error(r, pt, "pt must be whole %u-byte sectors", c.sector_size);
		return -EINVAL;
	}
	if (disk->len != pt->len / c.sector_size * dsk) {
		vec_error(r, disk, "disk is %zu bytes; %zu sectors of this layout "
		          "take %zu", disk->len, pt->len / c.sector_size,
		          pt->len / c.sector_size * dsk);
		return -EINVAL;
	}
	if (vec_get(r, "expect") && !c.auth) {
		vec_error(r, vec_get(r, "expect"), "expect = fail needs an "
		          "authenticated (geli -a) record");
		return -EINVAL;
	}
	return 0;
}

/* "what: FIELD differs at byte ..." (kat_diff_text), on f's line. */
static const char *differs(char *msg, size_t n, const char *what,
                           const struct vec_field *f, const uint8_t *got,
                           unsigned *line)
{
	char d[400];

	*line = f->line;
	snprintf(msg, n, "%s: %s", what,
	         kat_diff_text(d, sizeof d, f->name, f->bin, got, f->len));
	return msg;
}

/* Run one record on backend b: NULL on success, else what failed (about
 * the field on *line, 0: the record). */
static const char *kat_one(const struct cb_backend *b, const struct vec_rec *r,
                           int *skipped, char *drv, size_t drvlen,
                           unsigned *line)
{
	static char msg[480];
	const struct vec_field *pt = vec_get(r, "pt"), *disk = vec_get(r, "disk");
	const struct vec_field *key;
	int neg = vec_get(r, "expect") != NULL;
	struct sector_cfg c;
	struct sector_xf *xf = NULL;
	struct sector_thr *t = NULL;
	size_t ss, nsec, half;
	uint64_t first;
	uint8_t *buf = NULL, *bad = NULL;
	const char *fail = NULL;
	int rc;

	*skipped = 0;
	if (rec_cfg(r, &c) < 0)
		return "configuration rejected";
	key = vec_get(r, c.kind == SECTOR_GELI ? "mkey" : "key");
	rc = sector_xf_new(&xf, &c, b, key ? key->bin : NULL, key ? key->len : 0);
	if (rc == -ENOTSUP) {
		*skipped = 1;
		snprintf(drv, drvlen, "%s", cb_last_error());
		return NULL;
	}
	if (rc < 0 || (rc = sector_thr_new(&t, xf)) < 0) {
		fail = cb_rc_text(msg, sizeof msg, "keying failed", rc);
		goto out;
	}
	snprintf(drv, drvlen, "%s", sector_driver(xf));
	ss = c.sector_size;
	nsec = pt->len / ss;
	half = nsec / 2;
	first = vec_get(r, "offset")->num / ss;
	buf = cb_xmalloc(disk->len + pt->len);
	bad = cb_xcalloc(nsec * sector_chunks(xf), 1);
	/* encrypt: out of place, in two calls (numbering), and in place */
	if ((rc = sector_encrypt(t, first, pt->bin, buf, half)) < 0 ||
	    (rc = sector_encrypt(t, first + half, pt->bin + half * ss,
	                         buf + half * sector_disk_bytes(xf),
	                         nsec - half)) < 0) {
		fail = cb_rc_text(msg, sizeof msg, "encrypt returned an error", rc);
		goto out;
	}
	if (!neg && memcmp(buf, disk->bin, disk->len)) {
		fail = differs(msg, sizeof msg, "encrypt", disk, buf, line);
		goto out;
	}
	if (!c.auth) {
		memcpy(buf, pt->bin, pt->len);
		if (sector_encrypt(t, first, buf, buf, nsec) < 0) {
			fail = "encrypt (in place) returned an error";
			goto out;
		}
		if (memcmp(buf, disk->bin, disk->len)) {
			fail = differs(msg, sizeof msg, "encrypt (in place)", disk,
			               buf, line);
			goto out;
		}
		memcpy(buf, disk->bin, disk->len);
		if (sector_decrypt(t, first, buf, buf, nsec, NULL) < 0) {
			fail = "decrypt (in place) returned an error";
			goto out;
		}
		if (memcmp(buf, pt->bin, pt->len)) {
			fail = differs(msg, sizeof msg, "decrypt (in place)", pt, buf,
			               line);
			goto out;
		}
	}
	rc = sector_decrypt(t, first, disk->bin, buf, nsec, bad);
	if (neg) {
		if (rc != -EBADMSG)
			fail = rc ? cb_rc_text(msg, sizeof msg, "decrypt: error "
			                       "other than a failed HMAC", rc)
			          : "negative record was accepted (every HMAC verified)";
	} else if (rc < 0) {
		fail = rc == -EBADMSG ? "decrypt: an HMAC did not verify"
		       : cb_rc_text(msg, sizeof msg, "decrypt returned an error", rc);
	} else if (memcmp(buf, pt->bin, pt->len)) {
		fail = differs(msg, sizeof msg, "decrypt", pt, buf, line);
	}
out:
	free(buf);
	free(bad);
	sector_thr_free(t);
	sector_xf_free(xf);
	return fail;
}

void kat_sector_run(const struct cb_backend *b, const struct vec_file *files,
                    size_t nfiles, const struct sector_cfg *only,
                    struct kat_count *cnt, FILE *out, int verbose)
{
	for (size_t i = 0; i < nfiles; i++)
		for (size_t j = 0; j < files[i].n; j++) {
			const struct vec_rec *r = &files[i].recs[j];
			char drv[256] = "";
			const char *fail;
			struct sector_cfg rc;
			int skipped;
			unsigned line = 0;

			if (!kat_sector_is(vec_get(r, "alg")->text))
				continue;
			if (only && (rec_cfg(r, &rc) < 0 || rc.kind != only->kind ||
			             rc.cipher != only->cipher ||
			             rc.auth != only->auth))
				continue;
			cb_clear_error();
			fail = kat_one(b, r, &skipped, drv, sizeof drv, &line);
			if (skipped) {
				kat_note(cnt, out, verbose, 1, r, 0, b->name,
				         vec_get(r, "alg")->text, "%s", drv);
			} else if (fail) {
				char label[300];

				snprintf(label, sizeof label, "%s (%s)",
				         vec_get(r, "alg")->text, drv);
				kat_note(cnt, out, verbose, 0, r, line, b->name, label,
				         "%s", fail);
			} else {
				cnt->passed++;
			}
		}
}
