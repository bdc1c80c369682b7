/*
 * write_cryptsetup.c - the cryptsetup writer (output.h): `cryptsetup
 * benchmark`'s whole output for speed (docs/cryptsetup.md pins each
 * line), the cryptsetup line and dd's summary for dd.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "output/output.h"
#include "output/result.h"
#include "output/writer.h"

static void cryptsetup_line(FILE *f, const struct cb_dd_run *d)
{
	fprintf(f, "cryptsetup open --type plain --cipher %s --key-size %u "
	        "--sector-size %u%s --key-file %s %s crypt\n", d->ealg,
	        d->key_bits, d->sector_size,
	        d->iv_large ? " --iv-large-sectors" : "",
	        d->keyfile ? d->keyfile : "key", d->provider);
}

/* ---- cryptsetup benchmark's table (speed --format cryptsetup) ------------ */

/* The fastest measured point of alg at bits in dir (one backend's
 * median, at the largest request size measured), or NULL. */
static const struct cb_result *cs_point(const struct cb_report *rep,
                                        const char *alg, unsigned bits,
                                        const char *dir)
{
	const struct cb_result *best = NULL;
	uint64_t size = 0;

	for (size_t i = 0; i < rep->n; i++) {
		const struct cb_result *r = &rep->res[i];

		if (r->status != CB_RES_OK || !cb_out_streq(r->alg, alg) ||
		    r->key_bits != bits || !cb_out_streq(r->direction, dir) ||
		    r->sector_bytes || r->mb || r->block_bytes < size)
			continue;
		if (r->block_bytes > size)
			best = NULL, size = r->block_bytes;
		if (!best || r->bytes_per_sec > best->bytes_per_sec)
			best = r;
	}
	return best;
}

/* Its rate (bytes/s: PBKDF2 iterations/s), or -1. */
static double cs_best(const struct cb_report *rep, const char *alg,
                      unsigned bits, const char *dir)
{
	const struct cb_result *r = cs_point(rep, alg, bits, dir);

	return r ? r->bytes_per_sec : -1;
}

/* src/cryptsetup.c action_benchmark_kdf: PBKDF2 iterations per second
 * for a 256-bit key (whirlpool, which cryptobench lacks: N/A, as
 * cryptsetup prints it without the hash), then Argon2's cost. */
static void cs_kdf_lines(FILE *f, const struct cb_report *rep)
{
	static const char *const h[][2] = {
		{ "sha1", "pbkdf2(hmac(sha1))" }, { "sha256", "pbkdf2(hmac(sha256))" },
		{ "sha512", "pbkdf2(hmac(sha512))" },
		{ "ripemd160", "pbkdf2(hmac(rmd160))" }, { "whirlpool", NULL },
	};

	for (size_t i = 0; i < sizeof h / sizeof h[0]; i++) {
		double it = h[i][1] ? cs_best(rep, h[i][1], 0, "derive") : -1;

		if (it < 0)
			fprintf(f, "PBKDF2-%-9s     N/A\n", h[i][0]);
		else
			fprintf(f, "PBKDF2-%-9s %7u iterations per second for "
			        "256-bit key\n", h[i][0],
			        it > 4294967295.0 ? 4294967295u : (unsigned)it);
	}
	for (size_t i = 0; i < rep->nargon; i++) {
		const struct cb_argon_line *a = &rep->argon[i];

		if (!a->ok)
			fprintf(f, "%-10s N/A\n", a->name);
		else
			fprintf(f, "%-10s %4u iterations, %5u memory, %1u parallel "
			        "threads (CPUs) for 256-bit key (requested %u ms "
			        "time)\n", a->name, a->passes, a->memory, a->lanes,
			        a->requested_ms);
	}
}

/* The cipher table: cryptsetup's twelve rows, in its order (N/A where
 * nothing measured them, as cryptsetup for a cipher the kernel lacks),
 * MiB/s of the fastest backend in each direction. */
static void cs_cipher_rows(FILE *f, const struct cb_report *rep)
{
	static const char *const row[][2] = {
		{ "aes", "cbc" }, { "serpent", "cbc" }, { "twofish", "cbc" },
	};

	fputs("#     Algorithm |       Key |      Encryption |      Decryption\n",
	      f);
	for (int k = 0; k < 4; k++)
		for (int c = 0; c < 3; c++) {
			const char *mode = k < 2 ? "cbc" : "xts";
			unsigned bits = (unsigned[]){ 128, 256, 256, 512 }[k];
			char alg[32], name[32];
			double e, d;

			snprintf(alg, sizeof alg, "%s(%s)", mode, row[c][0]);
			snprintf(name, sizeof name, "%s-%s", row[c][0], mode);
			e = cs_best(rep, alg, bits, "encrypt");
			d = cs_best(rep, alg, bits, "decrypt");
			if (e < 0 || d < 0)
				fprintf(f, "%15s  %9ub %17s %17s\n", name, bits, "N/A",
				        "N/A");
			else
				fprintf(f, "%15s  %9ub  %10.1f MiB/s  %10.1f MiB/s\n", name,
				        bits, e / 1048576, d / 1048576);
		}
}

/* One direction's 95 % CI in MiB/s and the backend it is of. */
static void cs_ci(FILE *f, const char *dir, const struct cb_result *r)
{
	double k = (double)r->block_bytes / 1048576;

	if (r->ci_high_ops > 0)
		fprintf(f, " %s [%.1f, %.1f] MiB/s (%s)", dir, r->ci_low_ops * k,
		        r->ci_high_ops * k, r->backend);
	else
		fprintf(f, " %s: no CI (%s)", dir, r->backend);
}

/* After the table, as cryptsetup-style comments: each row's 95 % CI of
 * the median and the backend whose median it is (docs/cryptsetup.md). */
static void cs_cipher_cis(FILE *f, const struct cb_report *rep)
{
	static const char *const ciph[3] = { "aes", "serpent", "twofish" };
	int head = 0;

	for (int k = 0; k < 4; k++)
		for (int c = 0; c < 3; c++) {
			unsigned bits = (unsigned[]){ 128, 256, 256, 512 }[k];
			const struct cb_result *e, *d;
			char alg[32];

			snprintf(alg, sizeof alg, "%s(%s)", k < 2 ? "cbc" : "xts",
			         ciph[c]);
			e = cs_point(rep, alg, bits, "encrypt");
			d = cs_point(rep, alg, bits, "decrypt");
			if (!e || !d)
				continue;
			if (!head++)
				fputs("# The 95 % CI of each median above, and whose it "
				      "is:\n", f);
			fprintf(f, "# %s-%s %ub:", ciph[c], k < 2 ? "cbc" : "xts", bits);
			cs_ci(f, "encryption", e);
			fputc(',', f);
			cs_ci(f, "decryption", d);
			fputc('\n', f);
		}
}

/* dd: the cryptsetup line and dd's summary; speed: `cryptsetup
 * benchmark`'s whole output (docs/cryptsetup.md pins each line). */
int cb_write_cryptsetup(FILE *f, const struct cb_report *rep)
{
	if (rep->dd)
		return cb_out_dd_lines(f, rep, cryptsetup_line, rep->dd->records);
	fputs("# Tests are approximate using memory only (no storage IO).\n", f);
	cs_kdf_lines(f, rep);
	cs_cipher_rows(f, rep);
	cs_cipher_cis(f, rep);
	return cb_out_finish(f);
}

