/*
 * summary.c - bench's summary, one screen of at most 100 columns: the
 * fastest backend per algorithm and key size (rpt_summary), the geli
 * matrix beside the seed report, and dm-crypt's aes-xts-plain64 against
 * aes-cbc-essiv:sha256; with bench --ct, the constant-time verdicts.
 * Names longer than their column are cut and numbered, with a legend
 * giving them whole.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "output/result.h"
#include "report/rpt.h"
#include "foundation/util.h"

#define ALGW 26

struct legend {
	const char *name[64];
	size_t n;
};

/* name in a column of w: whole, or cut with "~N" and put in the legend. */
static const char *shorten(struct legend *lg, const char *name, int w,
                           char *buf, size_t len)
{
	size_t k;

	if ((int)strlen(name) <= w)
		return name;
	for (k = 0; k < lg->n && strcmp(lg->name[k], name); k++)
		;
	if (k == lg->n && lg->n < 64)
		lg->name[lg->n++] = name;
	snprintf(buf, len, "%.*s~%zu", w - 4, name, k + 1);
	return buf;
}

static void legend_print(FILE *f, const struct legend *lg, int width)
{
	for (size_t k = 0; k < lg->n; k++)
		fprintf(f, "  ~%zu = %.*s\n", k + 1, width - 8, lg->name[k]);
}

static void best_cells(FILE *f, const struct rpt_sum *s, int d)
{
	const struct rpt_pt *b = s->best[d];

	if (!b) {
		fprintf(f, "  %-8s %7s %6s", "-", "", "");
		return;
	}
	fprintf(f, "  %-8.8s %7.3f ", b->backend, b->bps / 1e9);
	if (isnan(b->cpb))
		fprintf(f, "%6s", "-");
	else
		fprintf(f, "%6.2f", b->cpb);
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

static void sum_fastest(FILE *f, const struct rpt *r, size_t src,
                        struct legend *lg)
{
	struct rpt_sum *v;
	size_t n = rpt_summary(r, src, &v);
	char buf[64], bits[16];

	if (n == 0 || (n == 1 && v[0].kdf)) {
		free(v);
		return;
	}
	fastest_head(f, v, n);
	for (size_t i = 0; i < n; i++) {
		double nr = v[i].native_ratio[0];

		if (v[i].kdf)
			continue;
		if (v[i].ndir == 2 && !isnan(v[i].native_ratio[1]))
			nr = isnan(nr) ? v[i].native_ratio[1]
			     : fmin(nr, v[i].native_ratio[1]);
		snprintf(bits, sizeof bits, v[i].bits ? "%u" : "-", v[i].bits);
		fprintf(f, "%-*s %4s %5llu", ALGW,
		        shorten(lg, v[i].alg, ALGW, buf, sizeof buf), bits,
		        (unsigned long long)v[i].block);
		best_cells(f, &v[i], 0);
		if (v[i].ndir == 2)
			best_cells(f, &v[i], 1);
		else
			fprintf(f, "  %-24s", "");
		if (!isnan(nr))
			fprintf(f, "  %5.2fx", nr);
		fputc('\n', f);
	}
	fprintf(f, "(nat/lib: native's GB/s over the best library's, the lower "
	        "of the two directions)\n");
	free(v);
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

static void sum_geli(FILE *f, const struct rpt *r, size_t src)
{
	const char *be[4];
	size_t nb = dd_backends(r, src, be);
	char label[300];

	if (!nb || !r->nseed)
		return;
	fprintf(f, "\ngeli matrix through dd, MB/s (encrypt, 4096-byte sectors; "
	        "the seed was bound by its disks):\n%-28s %8s", "configuration",
	        "seed");
	for (size_t b = 0; b < nb; b++)
		fprintf(f, " %10.10s", be[b]);
	fputc('\n', f);
	for (size_t c = 0; c < r->nseed; c++) {
		const struct rpt_pt *s = &r->seed[c];

		fprintf(f, "%-28.28s %8.1f", report_geli_label(s, label, sizeof label),
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

void bench_summary(FILE *f, const struct rpt *r, int width)
{
	struct legend lg = { { 0 }, 0 };
	char label[300];

	if (width > 100)
		width = 100;
	for (size_t s = 0; s < r->nsrcs; s++) {
		if (r->nsrcs > 1)
			fprintf(f, "== %s ==\n", rpt_src_label(r, s, label, sizeof label));
		sum_fastest(f, r, s, &lg);
		sum_kdf(f, r, s);
		sum_geli(f, r, s);
		sum_dm(f, r, s);
	}
	legend_print(f, &lg, width);
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
	struct legend lg = { { 0 }, 0 };
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
		         shorten(&lg, w->alg, ALGW, buf, sizeof buf), w->level,
		         what, w->method);
		fprintf(f, "%.*s\n", width, line);
	}
	if (!head)
		fputs("No secret-dependent verdict.\n", f);
	legend_print(f, &lg, width);
}
