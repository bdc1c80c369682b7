/*
 * summary.c - bench's summary, one screen of at most 100 columns: the
 * fastest backend per algorithm and key size (rpt_summary), the geli
 * matrix beside the seed report, and dm-crypt's aes-xts-plain64 against
 * aes-cbc-essiv:sha256; with bench --ct, the constant-time verdicts.
 * Names longer than their column are cut and keyed "[N]", with a legend
 * giving them whole; "~" after a figure marks a noisy point (its 95 % CI
 * wider than +-2 %), and only that.  ecb(cipher_null) is no cipher: it
 * is kept out of the fastest table and given on a line of its own, the
 * harness's ceiling (docs/speed.md).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "foundation/stats.h"
#include "output/output.h"
#include "output/result.h"
#include "report/rpt.h"
#include "foundation/util.h"

#define ALGW 26
#define GELIW 30          /* the geli labels, whole: 29 the longest   */
#define NULL_CIPHER "ecb(cipher_null)"

/* A noisy point: its 95 % CI's half-width over CB_STATS_NOISY of it. */
static int pt_noisy(const struct rpt_pt *p)
{
	return !isnan(p->lo) && !isnan(p->hi) && p->bps > 0 &&
	       (p->hi - p->lo) / 2 > CB_STATS_NOISY * p->bps;
}

/* A direction's cells; 1 when its figure is marked noisy ("~"). */
static int best_cells(FILE *f, const struct rpt_sum *s, int d)
{
	const struct rpt_pt *b = s->best[d];
	int noisy;

	if (!b) {
		fprintf(f, "  %-8s %7s %6s", "-", "", "");
		return 0;
	}
	noisy = pt_noisy(b);
	fprintf(f, "  %-8.8s %7.3f%c", b->backend, b->bps / 1e9,
	        noisy ? '~' : ' ');
	if (isnan(b->cpb))
		fprintf(f, "%6s", "-");
	else         /* a space before it always, so no "~" runs into it */
		fprintf(f, b->cpb < 99.995 ? "%6.2f" : "%6.1f", b->cpb);
	return noisy;
}

/* The request size of the rows' figures: one size, or 0 if they differ. */
static uint64_t one_block(const struct rpt_sum *v, size_t n)
{
	uint64_t b = 0;

	for (size_t i = 0; i < n; i++)
		if (!v[i].kdf) {
			if (b && v[i].block != b)
				return 0;
			b = v[i].block;
		}
	return b;
}

static void fastest_head(FILE *f, const struct rpt_sum *v, size_t n)
{
	uint64_t b = one_block(v, n);

	if (b)
		fprintf(f, "Fastest backend per algorithm and key size, at "
		        "%llu-byte requests:\n", (unsigned long long)b);
	else
		fprintf(f, "Fastest backend per algorithm and key size (bytes: "
		        "the request size, 4096 where measured, else the largest):\n");
	fprintf(f, "%-*s %4s %5s  %-24s  %-24s  %s\n", ALGW, "algorithm", "bits",
	        "bytes", "encrypt/digest GB/s c/B", "decrypt GB/s c/B",
	        "nat/lib");
}

/* One row of the fastest table; how many of its figures are marked. */
static size_t fastest_row(FILE *f, const struct rpt_sum *v,
                          struct cb_legend *lg)
{
	double nr = v->native_ratio[0];
	char buf[64], bits[16];
	size_t marks;

	if (v->ndir == 2 && !isnan(v->native_ratio[1]))
		nr = isnan(nr) ? v->native_ratio[1] : fmin(nr, v->native_ratio[1]);
	snprintf(bits, sizeof bits, v->bits ? "%u" : "-", v->bits);
	fprintf(f, "%-*s %4s %5llu", ALGW, cb_shorten(lg, v->alg, ALGW, buf,
	        sizeof buf), bits, (unsigned long long)v->block);
	marks = (size_t)best_cells(f, v, 0);
	if (v->ndir == 2)
		marks += (size_t)best_cells(f, v, 1);
	else
		fprintf(f, "  %-24s", "");
	if (!isnan(nr))
		fprintf(f, "  %5.2fx", nr);
	fputc('\n', f);
	return marks;
}

/* The table's notes: nat/lib, "~" when a figure has it, the key sizes
 * that are not one AES key (XTS's two keys, rfc4106's salt), and the
 * null cipher on a line of its own. */
static void fastest_notes(FILE *f, const struct rpt_sum *v, size_t n,
                          size_t marks)
{
	int xts = 0, salt = 0;

	fprintf(f, "(nat/lib: native's GB/s over the best library's, the lower "
	        "of the two directions");
	if (marks)
		fprintf(f, ";\n ~: a noisy figure, its 95 %% CI wider than "
		        "+-%.0f %%", 100 * CB_STATS_NOISY);
	fprintf(f, ")\n");
	for (size_t i = 0; i < n; i++) {
		xts |= !strncmp(v[i].alg, "xts(", 4);
		salt |= !strncmp(v[i].alg, "rfc4106(", 8);
	}
	if (xts)
		fprintf(f, "(bits: xts(aes)'s key is two AES keys, data and tweak: "
		        "512 = two AES-256 keys)\n");
	if (salt)
		fprintf(f, "(bits: rfc4106's key is the AES key and a 32-bit salt: "
		        "160/224/288 = AES-128/192/256)\n");
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].alg, NULL_CIPHER) && v[i].best[0])
			fprintf(f, "%s, no cipher, left out above: the harness's "
			        "ceiling (a call and a copy),\n %s %.3f GB/s at "
			        "%llu bytes\n", NULL_CIPHER, v[i].best[0]->backend,
			        v[i].best[0]->bps / 1e9,
			        (unsigned long long)v[i].block);
}

/* The fastest table; how many of its figures are marked noisy. */
static size_t sum_fastest(FILE *f, const struct rpt *r, size_t src,
                          struct cb_legend *lg)
{
	struct rpt_sum *v;
	size_t n = rpt_summary(r, src, &v), marks = 0;

	if (n == 0 || (n == 1 && v[0].kdf)) {
		free(v);
		return 0;
	}
	fastest_head(f, v, n);
	for (size_t i = 0; i < n; i++)
		if (!v[i].kdf && strcmp(v[i].alg, NULL_CIPHER))
			marks += fastest_row(f, &v[i], lg);
	fastest_notes(f, v, n, marks);
	free(v);
	return marks;
}

/* The key derivations: their cost and a figure in their own unit. */
static void sum_kdf(FILE *f, const struct rpt *r, size_t src)
{
	struct rpt_sum *v;
	size_t n = rpt_summary(r, src, &v);
	int head = 0;

	for (size_t i = 0; i < n; i++) {
		char cost[64], fig[64], ci[64];
		const struct rpt_pt *b = v[i].best[0];

		if (!v[i].kdf || !b)
			continue;
		if (!head++)
			fprintf(f, "\nKey derivation, the fastest backend (one "
			        "derivation at the cost shown; 95 %% CI):\n%-*s %-24s "
			        "%-8s %s\n", ALGW, "algorithm", "cost", "backend",
			        "figure");
		rpt_kdf_text(b, cost, fig, ci, sizeof cost);
		fprintf(f, "%-*s %-24s %-8.8s %s %s\n", ALGW, v[i].alg, cost,
		        b->backend, fig, ci);
	}
	free(v);
}

/* The backends of src with dd rows, at most 4 (the columns that fit). */
static size_t dd_backends(const struct rpt *r, size_t src, const char **be)
{
	size_t n = 0;

	for (size_t b = 0; b < r->srcs[src].nbe && n < 4; b++)
		if (rpt_find(r, src, "dd", r->srcs[src].be[b].name, NULL, UINT_MAX,
		             UINT64_MAX, NULL, UINT64_MAX, NULL))
			be[n++] = r->srcs[src].be[b].name;
	return n;
}

static void sum_geli(FILE *f, const struct rpt *r, size_t src,
                     struct cb_legend *lg)
{
	const char *be[4];
	size_t nb = dd_backends(r, src, be);
	char label[300], buf[64];

	if (!nb || !r->nseed)
		return;
	fprintf(f, "\ngeli matrix through dd, MB/s (encrypt, 4096-byte sectors; "
	        "the seed was bound by its disks):\n%-*s %8s", GELIW, "configuration",
	        "seed");
	for (size_t b = 0; b < nb; b++)
		fprintf(f, " %10.10s", be[b]);
	fputc('\n', f);
	for (size_t c = 0; c < r->nseed; c++) {
		const struct rpt_pt *s = &r->seed[c];

		report_geli_label(s, label, sizeof label);
		fprintf(f, "%-*s %8.1f", GELIW, cb_shorten(lg, label, GELIW, buf,
		        sizeof buf),
		        s->bps / 1e6);
		for (size_t b = 0; b < nb; b++) {
			const struct rpt_pt *p = rpt_find(r, src, "dd", be[b], s->alg,
			        s->key_bits, UINT64_MAX, "encrypt", s->sector, s->auth);

			if (p)
				fprintf(f, " %10.1f", p->bps / 1e6);
			else
				fprintf(f, " %10s", "-");
		}
		fputc('\n', f);
	}
}

static void sum_dm(FILE *f, const struct rpt *r, size_t src)
{
	static const uint64_t sectors[] = { 512, 4096 };
	static const char *const dirs[] = { "encrypt", "decrypt" };
	int head = 0;

	for (size_t b = 0; b < r->srcs[src].nbe; b++)
		for (int k = 0; k < 2; k++)
			for (int d = 0; d < 2; d++) {
				const struct rpt_pt *x, *e;

				if (!rpt_dm_pair(r, src, r->srcs[src].be[b].name,
				                 sectors[k], dirs[d], &x, &e) || !x || !e)
					continue;
				if (!head++)
					fprintf(f, "\ndm-crypt: aes-xts-plain64 vs "
					        "aes-cbc-essiv:sha256 (GB/s; ratio xts/essiv "
					        "[95 %% CI]):\n%-8s %6s %-6s %8s %8s  %s\n",
					        "backend", "sector", "", "xts", "essiv", "ratio");
				fprintf(f, "%-8.8s %6llu %-6s %8.3f %8.3f  %5.2f",
				        r->srcs[src].be[b].name,
				        (unsigned long long)sectors[k], d ? "read" : "write",
				        x->bps / 1e9, e->bps / 1e9, x->bps / e->bps);
				if (!isnan(x->lo) && !isnan(e->hi) && e->lo > 0)
					fprintf(f, " [%.2f, %.2f]", x->lo / e->hi,
					        x->hi / e->lo);
				fputc('\n', f);
			}
}

size_t bench_summary(FILE *f, const struct rpt *r, int width)
{
	struct cb_legend lg = { .name = NULL };
	char label[300];
	size_t marks = 0;

	if (width > 100)
		width = 100;
	for (size_t s = 0; s < r->nsrcs; s++) {
		if (r->nsrcs > 1)
			fprintf(f, "== %s ==\n", rpt_src_label(r, s, label, sizeof label));
		marks += sum_fastest(f, r, s, &lg);
		sum_kdf(f, r, s);
		sum_geli(f, r, s, &lg);
		sum_dm(f, r, s);
	}
	cb_legend_print(f, &lg, width - 1);
	cb_legend_free(&lg);
	return marks;
}

/* ---- bench --ct ----------------------------------------------------- */

static int ct_same(const struct rpt_ct *a, const struct rpt_ct *b)
{
	return !strcmp(a->backend, b->backend) &&
	       !strcmp(a->driver, b->driver) && !strcmp(a->alg, b->alg) &&
	       !strcmp(a->level, b->level);
}

/* Row i's implementation at its level, the worst of its rows; NULL when
 * an earlier row had it. */
static const struct rpt_ct *ct_first(const struct rpt *r, size_t i)
{
	const struct rpt_ct *w = &r->ct[i];

	for (size_t j = 0; j < r->nct; j++) {
		if (!ct_same(&r->ct[j], &r->ct[i]))
			continue;
		if (j < i)
			return NULL;
		if (r->ct[j].v < w->v)
			w = &r->ct[j];
	}
	return w;
}

/* "N implementations: N verdict, N verdict, ..." wrapped within width. */
static void ct_counts(FILE *f, const struct rpt *r, int width)
{
	size_t n[16] = { 0 }, total = 0, last = 0;
	int col;

	for (size_t i = 0; i < r->nct; i++) {
		const struct rpt_ct *w = ct_first(r, i);

		if (w && (size_t)w->v < 16) {
			n[w->v]++;
			total++;
			last = (size_t)w->v > last ? (size_t)w->v : last;
		}
	}
	col = fprintf(f, "%zu implementation%s:", total, total == 1 ? "" : "s");
	for (size_t v = 0; v < cb_nct_verdicts && v < 16; v++) {
		int len;

		if (!n[v])
			continue;
		len = snprintf(NULL, 0, " %zu %s,", n[v],
		               cb_ct_verdicts[v].name);
		if (col + len > width) {
			fputs("\n ", f);
			col = 1;
		}
		fprintf(f, " %zu %s%s", n[v], cb_ct_verdicts[v].name,
		        v < last ? "," : "");
		col += len;
	}
	fputc('\n', f);
}

/* "memory index" of "secret-dependent memory index". */
static const char *leak_what(const char *verdict)
{
	static const char pre[] = "secret-dependent ";

	return strncmp(verdict, pre, sizeof pre - 1) ? verdict
	       : verdict + sizeof pre - 1;
}

void bench_summary_ct(FILE *f, const struct rpt *r, const char *from,
                      int width)
{
	struct cb_legend lg = { .name = NULL };
	const char *base = strrchr(from, '/');
	char line[512], buf[64], what[48];
	int head = 0;

	if (width > 100)
		width = 100;
	if ((int)strlen(from) + 25 > width && base)
		from = base + 1;
	fprintf(f, "\nConstant time (from %.*s):\n", width - 22, from);
	ct_counts(f, r, width);
	for (size_t i = 0; i < r->nct; i++) {
		const struct rpt_ct *w = ct_first(r, i);

		if (!w || cb_ct_verdicts[w->v].cls != CB_CT_LEAK)
			continue;
		if (!head++)
			fprintf(f, "Secret-dependent (docs/ct.md; where: the "
			        "CSV's ct_places; *: only while the key was set):"
			        "\n  %-8s %-*s %-10s %-13s %s\n",
			        "backend", ALGW, "algorithm", "--cpu", "what",
			        "method");
		snprintf(what, sizeof what, "%s%s", leak_what(w->verdict),
		         w->note && strstr(w->note, "in setting the key only")
		         ? "*" : "");
		snprintf(line, sizeof line, "  %-8.8s %-*s %-10.10s %-13s %s",
		         w->backend, ALGW,
		         cb_shorten(&lg, w->alg, ALGW, buf, sizeof buf), w->level,
		         what, w->method);
		fprintf(f, "%.*s\n", width, line);
	}
	if (!head)
		fputs("No secret-dependent verdict.\n", f);
	cb_legend_print(f, &lg, width - 1);
	cb_legend_free(&lg);
}
