/*
 * kat.c - known-answer tests: load and validate vectors files, run every
 * record on every implementation of its algorithm, encrypt and decrypt,
 * out of place and in place, and in two pieces where the algorithm
 * streams; negative records (expect = fail) must be rejected.  Also the
 * correctness gate used before timing.  The `kat` command is cmd_kat.c,
 * its report formats kat_report.c.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cb.h"
#include "kat/kat.h"
#include "core/template.h"
#include "sector/sector.h"
#include "foundation/util.h"

const char *kat_default_dir(void)
{
	static char buf[4096 + 64];

	return cb_data_dir("CRYPTOBENCH_VECTORS", "vectors", "vectors", buf,
	                   sizeof buf);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_one(const char *path, struct vec_file **files, size_t *n)
{
	struct vec_file vf;
	int rc = vec_read(path, &vf);

	if (rc < 0)
		return rc;
	*files = cb_xrealloc(*files, (*n + 1) * sizeof **files);
	(*files)[(*n)++] = vf;
	return 0;
}

int kat_load(const char *path, struct vec_file **files, size_t *nfiles)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t nn = 0;
	int rc = 0;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode))
		return load_one(path, files, nfiles);
	if (!(d = opendir(path))) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -errno;
	}
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (l > 4 && !strcmp(e->d_name + l - 4, ".vec")) {
			names = cb_xrealloc(names, (nn + 1) * sizeof *names);
			names[nn] = cb_xmalloc(strlen(path) + l + 2);
			sprintf(names[nn++], "%s/%s", path, e->d_name);
		}
	}
	closedir(d);
	if (nn)
		qsort(names, nn, sizeof *names, cmp_str);
	for (size_t i = 0; i < nn; i++) {
		if (!rc)
			rc = load_one(names[i], files, nfiles);
		free(names[i]);
	}
	free(names);
	if (!rc && !nn) {
		fprintf(stderr, "%s: no *.vec files\n", path);
		rc = -ENOENT;
	}
	return rc;
}

/* ---- validation -------------------------------------------------------- */

static const char *const fields_for[] = {
	[CB_CIPHER] = " key iv pt ct iv_out ",
	[CB_HASH] = " msg md ",
	[CB_MAC] = " key msg mac tlen ",
	[CB_AEAD] = " key iv assoc pt ct tag tlen ",
	[CB_KDF] = " password salt iterations memory lanes secret assoc dk ",
};
static const char *const required_for[] = {
	[CB_CIPHER] = " pt ct ",
	[CB_HASH] = " msg md ",
	[CB_MAC] = " key msg mac ",
	[CB_AEAD] = " key iv assoc pt ct tag ",
	[CB_KDF] = " password salt iterations dk ",
};

static int in_list(const char *list, const char *name)
{
	char w[32];

	snprintf(w, sizeof w, " %s ", name);
	return strstr(list, w) != NULL;
}

/* mac/tag: the full digest, or truncated (HMACVS Tlen, the kernel's
 * authsize) to its first tlen bytes; tlen, if given, says so explicitly.
 * iv_out: the chaining value after the request (cbc, ctr). */
static int validate_tags(const struct vec_rec *r, const struct cb_alg *a)
{
	const struct vec_field *f, *t = vec_get(r, "tlen");

	if (((f = vec_get(r, "mac")) || (f = vec_get(r, "tag"))) &&
	    (f->len == 0 || f->len > a->digest_len)) {
		vec_error(r, f, "%s must be 1..%u bytes for %s", f->name,
		          a->digest_len, a->name);
		return -EINVAL;
	}
	if (t && f && t->num != f->len) {
		vec_error(r, t, "tlen = %llu but %s is %zu bytes",
		          (unsigned long long)t->num, f->name, f->len);
		return -EINVAL;
	}
	if ((f = vec_get(r, "iv_out"))) {
		const struct vec_field *pt = vec_get(r, "pt");

		if (!(a->flags & CB_F_CHAINIV)) {
			vec_error(r, f, "iv_out does not apply to %s (no chaining "
			          "value)", a->name);
			return -EINVAL;
		}
		if (f->len != a->iv_len || pt->len % a->iv_len) {
			vec_error(r, f, "iv_out must be %u bytes after whole %u-byte "
			          "blocks", a->iv_len, a->iv_len);
			return -EINVAL;
		}
	}
	return 0;
}

/* KDF records: argon2's cost needs memory and lanes, pbkdf2's none of
 * them (nor a secret or associated data); dk and iterations not empty. */
static int kdf_validate(const struct vec_rec *r, const struct cb_alg *a)
{
	static const char *const argon_only[] = { "memory", "lanes", "secret",
	                                          "assoc" };
	int argon = !a->inner;
	const struct vec_field *f;

	for (size_t i = 0; i < sizeof argon_only / sizeof *argon_only; i++)
		if (!argon && (f = vec_get(r, argon_only[i]))) {
			vec_error(r, f, "'%s' does not apply to %s", f->name, a->name);
			return -EINVAL;
		}
	if (argon && (!vec_get(r, "memory") || !vec_get(r, "lanes"))) {
		vec_error(r, NULL, "%s record needs 'memory' (KiB) and 'lanes'",
		          a->name);
		return -EINVAL;
	}
	if (!vec_get(r, "dk")->len || !vec_get(r, "iterations")->num ||
	    vec_get(r, "iterations")->num > UINT32_MAX ||
	    (argon && (vec_get(r, "memory")->num > UINT32_MAX ||
	               vec_get(r, "lanes")->num > UINT32_MAX))) {
		vec_error(r, NULL, "%s record: dk empty, or a cost of 0 or over "
		          "2^32 - 1", a->name);
		return -EINVAL;
	}
	return 0;
}

static int validate_rec(const struct vec_rec *r)
{
	const struct vec_field *alg = vec_get(r, "alg"), *f, *pt, *ct;
	const struct cb_alg *a = cb_alg_find(alg->text, NULL);

	if (!a && kat_sector_is(alg->text))   /* geli, dm-crypt: kat_sector.c */
		return kat_sector_validate(r);
	if (!a) {
		vec_error(r, alg, "unknown algorithm '%s'", alg->text);
		return -EINVAL;
	}
	for (int i = 0; i < r->nf; i++) {
		const char *n = r->f[i].name;

		if (!strcmp(n, "alg") || !strcmp(n, "source") ||
		    !strcmp(n, "expect"))
			continue;
		if (!in_list(fields_for[a->kind], n)) {
			vec_error(r, &r->f[i], "field '%s' does not apply to %s "
			          "(a %s)", n, a->name, cb_kind_name(a->kind));
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < vec_nfields; i++) {
		const char *n = vec_fields[i].name;

		if (in_list(required_for[a->kind], n) && !vec_get(r, n)) {
			vec_error(r, NULL, "%s record has no '%s' field", a->name, n);
			return -EINVAL;
		}
	}
	f = vec_get(r, "key");
	if (a->kind == CB_CIPHER) {
		size_t kl = f ? f->len : 0;

		if (!cb_alg_key_ok(a, (unsigned)kl * 8)) {
			vec_error(r, f, "%s does not take a %zu-bit key", a->name,
			          kl * 8);
			return -EINVAL;
		}
	}
	if (a->kind == CB_CIPHER || a->kind == CB_AEAD) {
		f = vec_get(r, "iv");
		if ((f ? f->len : 0) != a->iv_len) {
			vec_error(r, f, "iv must be %u bytes for %s, not %zu",
			          a->iv_len, a->name, f ? f->len : 0);
			return -EINVAL;
		}
		pt = vec_get(r, "pt");
		ct = vec_get(r, "ct");
		if (pt->len != ct->len) {
			vec_error(r, ct, "ct is %zu bytes but pt is %zu", ct->len,
			          pt->len);
			return -EINVAL;
		}
		if (((a->flags & CB_F_BLOCKLEN) && pt->len % a->block) ||
		    (pt->len && pt->len < a->min_len)) {
			vec_error(r, pt, "%zu bytes is not a valid length for %s",
			          pt->len, a->name);
			return -EINVAL;
		}
	}
	if (a->kind == CB_KDF && kdf_validate(r, a) < 0)
		return -EINVAL;
	if ((f = vec_get(r, "md")) && f->len != a->digest_len) {
		vec_error(r, f, "md must be %u bytes for %s", a->digest_len,
		          a->name);
		return -EINVAL;
	}
	return validate_tags(r, a);
}

int kat_validate(const struct vec_file *files, size_t nfiles)
{
	int rc = 0;

	for (size_t i = 0; i < nfiles; i++)
		for (size_t j = 0; j < files[i].n; j++)
			if (validate_rec(&files[i].recs[j]) < 0)
				rc = -EINVAL;
	return rc;
}

/* ---- running ------------------------------------------------------------ */

static const uint8_t *bin(const struct vec_rec *r, const char *name,
                          size_t *len)
{
	const struct vec_field *f = vec_get(r, name);

	*len = f ? f->len : 0;
	return f ? f->bin : NULL;
}

/* The failure text of a call that returned rc < 0, with the errno and the
 * implementation's message (one buffer: a record reports one failure). */
static const char *rc_fail(const char *what, int rc)
{
	static char buf[400];

	return cb_rc_text(buf, sizeof buf, what, rc);
}

/* The line of the field a failure is about (0: the record's first),
 * set by mismatch() and reset before each record. */
static unsigned fail_line;

/* "what: NAME differs at byte I ...: expected ... got ..." for field f
 * (want) and got, f->len bytes; the failure is then on f's line. */
static const char *mismatch(const char *what, const struct vec_field *f,
                            const uint8_t *got)
{
	static char buf[480];
	char d[400];

	fail_line = f->line;
	snprintf(buf, sizeof buf, "%s: %s", what,
	         kat_diff_text(d, sizeof d, f->name, f->bin, got, f->len));
	return buf;
}

/* Run fn into out and compare with field wf (len bytes): returns a failure
 * text or NULL. */
static const char *cipher_case(struct cb_inst *x, cb_crypt_fn fn, int neg,
                               const uint8_t *iv, const uint8_t *in,
                               const struct vec_field *wf, size_t len,
                               int mode, size_t split, const char *what[3])
{
	const uint8_t *want = wf->bin;
	uint8_t *buf = cb_xmalloc(len + 1), *out = buf + 1;
	const char *fail = NULL;
	int rc;

	if (mode == 1) {                       /* in place */
		memcpy(out, in, len);
		rc = fn(x->ctx, iv, out, out, len);
	} else if (mode == 2) {                /* two pieces, chained */
		rc = fn(x->ctx, iv, in, out, split);
		if (!rc)
			rc = fn(x->ctx, NULL, in + split, out + split, len - split);
	} else {                               /* out of place, unaligned */
		rc = fn(x->ctx, iv, in, out, len);
	}
	if (rc < 0)
		fail = rc_fail(neg ? what[2] : what[1], rc);
	else if (!neg && memcmp(out, want, len))
		fail = mismatch(what[0], wf, out);
	else if (neg && !memcmp(out, want, len))
		fail = "negative record was not rejected (output matched)";
	free(buf);
	return fail;
}

/*
 * iv_out: after a request from iv over in (len bytes), the chaining value
 * must be want.  The API has no IV read-back, so continue the chain with
 * one more block (iv NULL) and compare with a new request from want.
 */
static const char *check_iv_out(struct cb_inst *x, int dir,
                                const uint8_t *iv, const uint8_t *in,
                                size_t len, const uint8_t *want)
{
	cb_crypt_fn fn = dir ? x->impl->decrypt : x->impl->encrypt;
	size_t bl = x->alg->iv_len;
	uint8_t *buf = cb_xmalloc(len + 1);
	uint8_t blk[CB_MAX_BLOCK] = {0}, a[CB_MAX_BLOCK], b[CB_MAX_BLOCK];
	int rc;

	for (size_t i = 0; i < bl; i++)
		blk[i] = (uint8_t)(0xa5 ^ i);
	if ((rc = fn(x->ctx, iv, in, buf, len)) == 0 &&
	    (rc = fn(x->ctx, NULL, blk, a, bl)) == 0)
		rc = fn(x->ctx, want, blk, b, bl);
	free(buf);
	if (rc < 0)
		return rc_fail("implementation returned an error", rc);
	return memcmp(a, b, bl) ? "iv_out mismatch (chaining value after "
	                          "the request)" : NULL;
}

static const char *run_cipher(struct cb_inst *x, const struct vec_rec *r,
                              int neg)
{
	static const char *const mode_name[] = {
		"out of place", "in place", "in two pieces" };
	static char msg[560];
	const struct cb_alg *a = x->alg;
	size_t ivl, len, ctl;
	const uint8_t *iv = bin(r, "iv", &ivl), *pt = bin(r, "pt", &len);
	const uint8_t *ct = bin(r, "ct", &ctl);
	size_t gran = a->block > 1 ? a->block : (a->iv_len ? a->iv_len : 1);
	size_t split = len / 2 / gran * gran;
	int modes = (a->flags & CB_F_STREAM) && !x->impl->no_chain && split &&
	            split < len ? 3 : 2;

	for (int dir = 0; dir < 2; dir++)
		for (int mode = 0; mode < modes; mode++) {
			const char *what[3] = {
				dir ? "plaintext mismatch" : "ciphertext mismatch",
				"implementation returned an error",
				"implementation returned an error",
			};
			const char *f = cipher_case(
			        x, dir ? x->impl->decrypt : x->impl->encrypt, neg,
			        a->iv_len ? iv : NULL, dir ? ct : pt,
			        vec_get(r, dir ? "pt" : "ct"), len, mode, split, what);

			if (f) {
				snprintf(msg, sizeof msg, "%s (%s): %s",
				         dir ? "decrypt" : "encrypt", mode_name[mode], f);
				return msg;
			}
		}
	for (int dir = 0; !neg && vec_get(r, "iv_out") && dir < 2; dir++) {
		const char *f = check_iv_out(x, dir, iv, dir ? ct : pt, len,
		                             vec_get(r, "iv_out")->bin);

		if (f) {
			fail_line = vec_get(r, "iv_out")->line;
			snprintf(msg, sizeof msg, "%s: %s", dir ? "decrypt"
			         : "encrypt", f);
			return msg;
		}
	}
	return NULL;
}

static const char *run_digest(struct cb_inst *x, const struct vec_rec *r,
                              int neg)
{
	size_t len;
	const uint8_t *m = bin(r, "msg", &len);
	const struct vec_field *wf = vec_get(r, x->alg->kind == CB_MAC ? "mac"
	                                                            : "md");
	const uint8_t *want = wf->bin;
	size_t wl = wf->len;
	uint8_t out[CB_MAX_DIGEST];

	/* one call; two pieces; and again on the same context */
	for (int mode = 0; mode < 3; mode++) {
		const struct cb_impl *im = x->impl;
		size_t half = mode == 1 ? len / 2 : len;
		int rc = im->init(x->ctx);

		if (!rc)
			rc = im->update(x->ctx, m, half);
		if (!rc && mode == 1)
			rc = im->update(x->ctx, m + half, len - half);
		if (!rc)
			rc = im->final(x->ctx, out);
		if (rc < 0)
			return rc_fail("implementation returned an error", rc);
		if (!neg && memcmp(out, want, wl))
			return mismatch(mode == 1 ? "digest mismatch (in two pieces)"
			                : mode == 2 ? "digest mismatch (context reused)"
			                            : "digest mismatch", wf, out);
		if (neg && !memcmp(out, want, wl))
			return "negative record was not rejected (digest matched)";
	}
	return NULL;
}

/* run_*: a request this driver cannot take (-ENOTSUP): a skip, said with
 * the driver's reason, not a failure */
static const char kat_unsupported[] = "request not supported by this driver";

static uint32_t num(const struct vec_rec *r, const char *name)
{
	const struct vec_field *f = vec_get(r, name);

	return f ? (uint32_t)f->num : 0;
}

static const char *run_kdf(struct cb_inst *x, const struct vec_rec *r,
                           int neg)
{
	size_t pl, sl, dl;
	struct cb_kdf_params p = { .iterations = num(r, "iterations"),
	                           .memory = num(r, "memory"),
	                           .lanes = num(r, "lanes") };
	const uint8_t *pass = bin(r, "password", &pl), *salt = bin(r, "salt", &sl);
	const uint8_t *dk = bin(r, "dk", &dl);
	uint8_t *out = cb_xmalloc(dl);
	const char *fail = NULL;
	int rc;

	p.secret = vec_get(r, "secret") ? bin(r, "secret", &p.secret_len) : NULL;
	p.ad = vec_get(r, "assoc") ? bin(r, "assoc", &p.ad_len) : NULL;
	rc = x->impl->derive(x->ctx, x->impl, pass, pl, salt, sl, &p, out, dl);
	if (rc == -ENOTSUP)
		fail = kat_unsupported;
	else if (rc < 0)
		fail = rc_fail("derive returned an error", rc);
	else if (!neg && memcmp(out, dk, dl))
		fail = mismatch("derived key mismatch", vec_get(r, "dk"), out);
	else if (neg && !memcmp(out, dk, dl))
		fail = "negative record was not rejected (derived key matched)";
	free(out);
	return fail;
}

static const char *run_aead(struct cb_inst *x, const struct vec_rec *r,
                            int neg)
{
	size_t ivl, adl, len, ctl, tl;
	const uint8_t *iv = bin(r, "iv", &ivl), *ad = bin(r, "assoc", &adl);
	const uint8_t *pt = bin(r, "pt", &len), *ct = bin(r, "ct", &ctl);
	const uint8_t *tag = bin(r, "tag", &tl);
	uint8_t *buf = cb_xmalloc(len + 1), t[CB_MAX_DIGEST];
	const char *fail = NULL;
	int rc;

	if (!neg) {
		rc = x->impl->aead_encrypt(x->ctx, iv, ad, adl, pt, buf, len, t, tl);
		if (rc == -ENOTSUP)
			fail = kat_unsupported;
		else if (rc < 0)
			fail = rc_fail("encrypt returned an error", rc);
		else if (memcmp(buf, ct, len))
			fail = mismatch("encrypt: ciphertext mismatch",
			                vec_get(r, "ct"), buf);
		else if (memcmp(t, tag, tl))
			fail = mismatch("encrypt: tag mismatch", vec_get(r, "tag"), t);
	}
	for (int inplace = 0; !fail && inplace < 2; inplace++) {
		if (inplace)
			memcpy(buf, ct, len);
		rc = x->impl->aead_decrypt(x->ctx, iv, ad, adl,
		                           inplace ? buf : ct, buf, len, tag, tl);
		if (rc == -ENOTSUP)
			fail = kat_unsupported;
		else if (neg && rc != -EBADMSG)
			fail = rc ? rc_fail("decrypt: error other than a tag "
			                    "mismatch", rc)
			          : "negative record was accepted (tag verified)";
		else if (!neg && rc < 0)
			fail = rc == -EBADMSG ? "decrypt: tag rejected"
			       : rc_fail("decrypt returned an error", rc);
		else if (!neg && memcmp(buf, pt, len))
			fail = mismatch(inplace ? "decrypt (in place): plaintext "
			                "mismatch" : "decrypt: plaintext mismatch",
			                vec_get(r, "pt"), buf);
	}
	free(buf);
	return fail;
}

static unsigned rec_key_bits(const struct cb_alg *a, const struct vec_rec *r)
{
	const struct vec_field *k = vec_get(r, "key");
	const uint8_t *ak, *ek;
	size_t akl, ekl;

	if (!(a->flags & CB_F_AUTHENC) || !k)
		return k ? (unsigned)k->len * 8 : 0;
	/* the AES key size inside an authenc blob */
	if (cb_authenc_split(k->bin, k->len, &ak, &akl, &ek, &ekl) < 0)
		return 0;
	return (unsigned)ekl * 8;
}

void kat_run_impl(const struct cb_impl *impl, const char *backend,
                  const struct vec_file *files, size_t nfiles,
                  struct kat_count *cnt, FILE *out, int verbose)
{
	const struct cb_alg *a = cb_alg_find(impl->alg, NULL);

	for (size_t i = 0; i < nfiles; i++)
		for (size_t j = 0; j < files[i].n; j++) {
			const struct vec_rec *r = &files[i].recs[j];
			const struct cb_alg *ra = cb_alg_find(vec_get(r, "alg")->text,
			                                      NULL);
			int neg = vec_get(r, "expect") != NULL;
			size_t kl;
			const uint8_t *key = bin(r, "key", &kl);
			const char *fail;
			struct cb_inst x;
			int rc;

			if (ra != a)
				continue;
			if (a->kind != CB_MAC &&
			    !cb_impl_key_ok(impl, a, rec_key_bits(a, r))) {
				kat_note(cnt, out, verbose, 1, r, 0, backend, impl->driver,
				         "%u-bit keys unavailable in this driver",
				         rec_key_bits(a, r));
				continue;
			}
			cb_clear_error();
			fail_line = 0;
			rc = cb_inst_new(&x, impl, a->flags & CB_F_NOKEY ? NULL : key,
			                 a->flags & CB_F_NOKEY ? 0 : kl);
			if (rc == -ENOTSUP) {
				kat_note(cnt, out, verbose, 1, r, 0, backend, impl->driver,
				         "key not supported by this driver%s%s",
				         *cb_last_error() ? ": " : "", cb_last_error());
				continue;
			}
			if (rc < 0) {
				fail = rc_fail("setting the key failed", rc);
			} else {
				switch (a->kind) {
				case CB_CIPHER: fail = run_cipher(&x, r, neg); break;
				case CB_AEAD: fail = run_aead(&x, r, neg); break;
				case CB_KDF: fail = run_kdf(&x, r, neg); break;
				default: fail = run_digest(&x, r, neg); break;
				}
				cb_inst_free(&x);
			}
			if (fail == kat_unsupported)
				kat_note(cnt, out, verbose, 1, r, 0, backend, impl->driver,
				         "%s: %s", fail, cb_last_error());
			else if (fail)
				kat_note(cnt, out, verbose, 0, r, fail_line, backend,
				         impl->driver,
				         "%s", fail);
			else
				cnt->passed++;
		}
}

/* The gate's vectors, loaded once: 1 loaded, -1 unusable, 0 not tried. */
static struct vec_file *gate_files;
static size_t gate_nfiles;
static int gate_state;

int kat_gate_load(const struct vec_file **files, size_t *nfiles)
{
	if (!gate_state) {
		gate_state = 1;
		if (kat_load(kat_default_dir(), &gate_files, &gate_nfiles) < 0 ||
		    kat_validate(gate_files, gate_nfiles) < 0) {
			gate_state = -1;
			gate_nfiles = 0;
		}
	}
	if (files)
		*files = gate_files;
	if (nfiles)
		*nfiles = gate_nfiles;
	if (gate_state > 0)
		return 0;
	cb_err("no usable known-answer vectors in %s: the correctness gate "
	       "cannot run, so nothing is timed (set CRYPTOBENCH_VECTORS=DIR, "
	       "or give --no-gate to time without it)", kat_default_dir());
	return -ENOENT;
}

int kat_gate(const struct cb_impl *impl, unsigned *nrun)
{
	struct kat_count cnt = {0};
	const struct cb_backend *b = cb_impl_backend(impl);

	if (nrun)
		*nrun = 0;
	if (kat_gate_load(NULL, NULL) < 0)
		return -ENOENT;
	kat_run_impl(impl, b ? b->name : "?", gate_files, gate_nfiles, &cnt,
	             stderr, 0);
	if (nrun)
		*nrun = cnt.passed + cnt.failed;
	return cnt.failed ? -EBADMSG : 0;
}
