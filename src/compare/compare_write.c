/*
 * compare_write.c - what `compare` prints (compare.h): the regression
 * table, the constant-time verdicts that changed, their CSV form, the
 * summary line, and the --dump view that scripts/plot reads.  A text
 * table fits 120 columns (fit_names; cmp_fitted breaks longer lines).
 * docs/compare.md shows each.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "compare/compare.h"
#include "foundation/csv.h"
#include "foundation/util.h"
#include "output/output.h"
#include "output/result.h"

#define CMP_COLS 120           /* the widest line of a text table      */

/* Tab-separated values: tabs and line breaks inside become spaces. */
static void print_tsv_field(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

/* The key and provenance columns of a point, by column name. */
static const struct {
	const char *name;
	size_t off;
	int num;                 /* a uint64_t member, else a const char *      */
} point_cols[] = {
#define S(m) { #m, offsetof(struct cmp_point, m), 0 }
#define N(m) { #m, offsetof(struct cmp_point, m), 1 }
	S(group), S(host), S(cpu_model), S(tool), S(backend),
	S(backend_version), S(driver), S(alg), N(key_bits), N(block_bytes),
	S(direction), S(iv_mode), N(sector_bytes), N(threads), S(auth),
#undef S
#undef N
};

/* The columns --format csv and --dump start a point's line with. */
static const char *const csv_key_cols[] = {
	"group", "tool", "backend", "driver", "alg", "key_bits", "block_bytes",
	"direction", "iv_mode", "sector_bytes", "threads", "auth", NULL,
};
static const char *const dump_key_cols[] = {
	"host", "cpu_model", "tool", "backend", "backend_version", "driver",
	"alg", "key_bits", "block_bytes", "direction", "iv_mode",
	"sector_bytes", "threads", "auth", NULL,
};

static const char *point_field(const struct cmp_point *p, const char *col,
                               char *num, size_t len)
{
	for (size_t i = 0; i < sizeof point_cols / sizeof point_cols[0]; i++) {
		const char *base = (const char *)p + point_cols[i].off;

		if (strcmp(point_cols[i].name, col))
			continue;
		if (!point_cols[i].num)
			return *(const char *const *)(const void *)base;
		snprintf(num, len, "%llu", (unsigned long long)
		         *(const uint64_t *)(const void *)base);
		return num;
	}
	return "";
}

/* The key columns of p: CSV (RFC 4180) or TSV (empty as '-'). */
static void put_key(FILE *f, const struct cmp_point *p,
                    const char *const *cols, int tsv)
{
	char num[24];

	for (size_t i = 0; cols[i]; i++) {
		const char *v = point_field(p, cols[i], num, sizeof num);

		if (i)
			fputc(tsv ? '\t' : ',', f);
		if (tsv)
			print_tsv_field(f, *v ? v : "-");
		else
			cb_csv_write_field(f, v);
	}
}

static const char *fmt_mbs(char *buf, size_t len, const struct cmp_point *p)
{
	double mb;

	if (!p || strcmp(p->status, "ok")) {
		snprintf(buf, len, "%s", p ? p->status : "-");
		return buf;
	}
	mb = p->median / 1e6;
	snprintf(buf, len, mb >= 1 || mb == 0 ? "%.1f" : "%.3g", mb);
	return buf;
}

/* Which optional key columns differ from their defaults somewhere. */
struct extras {
	int tool, iv, sector, threads, auth, note;
};

static void scan_extras(const struct cmp_side *s, struct extras *e)
{
	for (size_t i = 0; i < s->npts; i++) {
		const struct cmp_point *p = &s->pts[i];

		e->tool |= strcmp(p->tool, cmp_kd_tool.dflt) != 0;
		e->iv |= strcmp(p->iv_mode, cmp_kd_iv.dflt) != 0;
		e->sector |= p->sector_bytes != 0;
		e->threads |= p->threads != 1;
		e->auth |= *p->auth != 0;
	}
}

/* Column widths of the table; computed over every row printed. */
struct widths {
	int group, alg, backend, driver, tool, iv, auth, block, sector;
};

static int imax(int a, int b)
{
	return a > b ? a : b;
}

static void widen(struct widths *w, const struct cmp_side *s)
{
	for (size_t i = 0; i < s->npts; i++) {
		const struct cmp_point *p = &s->pts[i];

		w->group = imax(w->group, (int)strlen(p->group));
		w->alg = imax(w->alg, (int)strlen(p->alg));
		w->backend = imax(w->backend, (int)strlen(p->backend));
		w->driver = imax(w->driver, (int)strlen(p->driver));
		w->tool = imax(w->tool, (int)strlen(p->tool));
		w->iv = imax(w->iv, (int)strlen(p->iv_mode));
		w->auth = imax(w->auth, (int)strlen(p->auth));
		w->block = imax(w->block, snprintf(NULL, 0, "%llu",
		                (unsigned long long)p->block_bytes));
		w->sector = imax(w->sector, snprintf(NULL, 0, "%llu",
		                 (unsigned long long)p->sector_bytes));
	}
}

/* What fit_names leaves out or folds, in the order it tries them. */
enum { D_SPREAD = 1, D_P = 2, D_RATIO = 4, D_VAR = 8, D_CI = 16, D_CUT = 32 };

/* The table's layout: widths, optional columns, the grouping column. */
struct layout {
	struct widths w;
	struct extras e;
	const char *bycol;
	size_t ntested;          /* pairs judged by the statistical rule       */
	int drop;                /* D_*: what fit_names left out, folded, cut   */
	int notew;               /* the note's column, names cut (D_CUT)        */
	int varw;                /* D_VAR: the optional columns' one column     */
	struct cb_legend lg;     /* the names cut, whole                        */
};

/* s in a column of w: whole, or cut and keyed in l's legend. */
static const char *cut(struct layout *l, const char *s, int w, char *buf,
                       size_t len)
{
	return l->drop & D_CUT ? cb_shorten(&l->lg, s, w, buf, len) : s;
}

/* D_VAR: the optional key columns of p in one, their values other than
 * the default joined by '/' ("dd/per-sector/512/hmac(sha256)"). */
static const char *variant(const struct cmp_point *p, const struct extras *e,
                           char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
#define ADD(cond, ...) \
	if ((cond) && o < len) \
		o += (size_t)snprintf(buf + o, len - o, __VA_ARGS__)
	ADD(e->tool && strcmp(p->tool, cmp_kd_tool.dflt), "%s", p->tool);
	ADD(e->iv && strcmp(p->iv_mode, cmp_kd_iv.dflt), "%s%s", o ? "/" : "",
	    p->iv_mode);
	ADD(e->sector && p->sector_bytes, "%s%llu", o ? "/" : "",
	    (unsigned long long)p->sector_bytes);
	ADD(e->threads && p->threads != 1, "%sx%llu", o ? "/" : "",
	    (unsigned long long)p->threads);
	ADD(e->auth && *p->auth, "%s%s", o ? "/" : "", p->auth);
#undef ADD
	return *buf ? buf : "-";
}

/* The optional key columns after the driver: one each, or one (D_VAR). */
static void print_extras(FILE *f, const struct cmp_point *p,
                         struct layout *l)
{
	const struct widths *w = &l->w;
	const struct extras *e = &l->e;
	char num[24], vb[200], cb[200];

	if ((l->drop & D_VAR) && l->varw) {
		fprintf(f, "  %-*s", l->varw, p ? cut(l, variant(p, e, vb,
		        sizeof vb), l->varw, cb, sizeof cb) : "variant");
		return;
	}
	if (l->drop & D_VAR)
		return;
	if (e->iv)
		fprintf(f, "  %-*s", w->iv, p ? p->iv_mode : cmp_kd_iv.label);
	if (p)
		snprintf(num, sizeof num, "%llu",
		         (unsigned long long)p->sector_bytes);
	if (e->sector)
		fprintf(f, "  %*s", w->sector, p ? num : cmp_kd_sector.label);
	if (p)
		snprintf(num, sizeof num, "%llu", (unsigned long long)p->threads);
	if (e->threads)
		fprintf(f, "  %3s", p ? num : cmp_kd_thr.label);
	if (e->auth)
		fprintf(f, "  %-*s", w->auth, p ? p->auth : cmp_kd_auth.label);
}

/* The key columns of a table row; p == NULL prints the headings. */
static void print_key(FILE *f, const struct cmp_point *p,
                      struct layout *l)
{
	const struct widths *w = &l->w;
	char bits[24], block[24], cb[4][200];
	const char *grp = l->bycol, *alg = "alg", *be = "backend";
	const char *drv = "driver";

	if (p) {
		snprintf(bits, sizeof bits, "%llu", (unsigned long long)p->key_bits);
		snprintf(block, sizeof block, "%llu",
		         (unsigned long long)p->block_bytes);
		grp = cut(l, p->group, w->group, cb[0], sizeof cb[0]);
		alg = cut(l, p->alg, w->alg, cb[1], sizeof cb[1]);
		be = cut(l, p->backend, w->backend, cb[2], sizeof cb[2]);
		drv = cut(l, p->driver, w->driver, cb[3], sizeof cb[3]);
	}
	if (l->bycol)
		fprintf(f, "%-*s  ", w->group, grp);
	if (l->e.tool && !(l->drop & D_VAR))
		fprintf(f, "%-*s  ", w->tool, p ? p->tool : cmp_kd_tool.label);
	fprintf(f, "%-*s  %5s  %*s  %-7s  %-*s  %-*s", w->alg, alg,
	        p ? bits : "bits", w->block, p ? block : "block",
	        p ? p->direction : "dir", w->backend, be, w->driver, drv);
	print_extras(f, p, l);
}

static void describe_side(FILE *f, const struct cmp_side *s)
{
	fprintf(f, "%-4s %s: %zu point%s from %zu row%s, ", s->label,
	        s->paths[0], s->npts, s->npts == 1 ? "" : "s", s->nrows,
	        s->nrows == 1 ? "" : "s");
	if (s->nctrows)
		fprintf(f, "%zu ct verdict%s, ", s->nctrows,
		        s->nctrows == 1 ? "" : "s");
	if (s->nhosts == 1)
		fprintf(f, "host %s\n", s->hosts[0]);
	else
		fprintf(f, "%zu hosts\n", s->nhosts);
}

/* The ratio's CI and the adjusted p of a tested pair, else "-". */
static void fmt_test(const struct cmp *x, char *ci, size_t cilen, char *p,
                     size_t plen)
{
	snprintf(ci, cilen, "-");
	snprintf(p, plen, "-");
	if (!x->tested)
		return;
	if (!isnan(x->ci_lo))
		snprintf(ci, cilen, "%.3f-%.3f", x->ci_lo, x->ci_hi);
	snprintf(p, plen, "%.2g", x->p_adj);
}

/* The note of a pair of two implementations (--ignore, native's code
 * paths): "native path aesni -> vaes256", "openssl -> native (fastest
 * of 3 -> 2)"; 0 when both sides are one implementation, the same. */
static int impl_note(const struct cmp *x, char *buf, size_t len)
{
	const struct cmp_point *b = x->b, *n = x->n;
	char pb[64], pn[64], bb[128], nb[128];
	size_t o = 0;

	if (!strcmp(b->driver, n->driver) && b->nimpl == 1 && n->nimpl == 1)
		return 0;
	cmp_impl_path(b->driver, pb, sizeof pb);
	cmp_impl_path(n->driver, pn, sizeof pn);
	buf[0] = 0;
	if (!strcmp(b->backend, n->backend) && *pb && *pn &&
	    !strcmp(cmp_impl_name(b->driver, bb, sizeof bb),
	            cmp_impl_name(n->driver, nb, sizeof nb)))
		o = (size_t)snprintf(buf, len, "%s path %s -> %s", b->backend,
		                     pb, pn);
	else if (strcmp(b->driver, n->driver))
		o = (size_t)snprintf(buf, len, "%s %s -> %s %s", b->backend,
		                     b->driver, n->backend, n->driver);
	if (o < len && b->nimpl == n->nimpl && b->nimpl > 1)
		snprintf(buf + o, len - o, "%s(each side's fastest of %zu)",
		         o ? " " : "", b->nimpl);
	else if (o < len && (b->nimpl > 1 || n->nimpl > 1))
		snprintf(buf + o, len - o, "%s(the fastest of %zu -> of %zu)",
		         o ? " " : "", b->nimpl, n->nimpl);
	return 1;
}

/* The note after a pair's verdict, if any, into buf: 0 when none. */
static int row_note(const struct cmp *x, char *buf, size_t len)
{
	if (impl_note(x, buf, len))
		return 1;
	if (strcmp(x->b->backend_version, x->n->backend_version))
		snprintf(buf, len, "%s %s -> %s", x->b->backend,
		         x->b->backend_version, x->n->backend_version);
	else if ((x->v == V_FAILED || x->v == V_SKIPPED) && *x->n->why)
		snprintf(buf, len, "%s", x->n->why);
	else if (x->v == V_RECOVERED && *x->b->why)
		snprintf(buf, len, "was: %s", x->b->why);
	else
		return 0;
	return 1;
}

/* compare --holm: the p-values are Holm's, not Benjamini-Hochberg's. */
static int holm(void)
{
	return !strcmp(cmp_adjust_name(), "Holm");
}

/* The number columns of a row, or their headings (x == NULL). */
static void print_nums(FILE *f, const struct cmp *x, const struct layout *l)
{
	char ratio[16] = "-", change[16] = "-", noise[16] = "-";
	char sb[32], sn[32], ci[40] = "95% CI", p[16];
	const char *bm = "base MB/s", *nm = "new MB/s";
	int mb = 10 - !!(l->drop & D_CUT), t = l->ntested != 0;

	snprintf(p, sizeof p, "%s", !x ? (holm() ? "p(Holm)" : "p(BH)") : "");
	if (x && !isnan(x->ratio)) {
		snprintf(ratio, sizeof ratio, "%.3f", x->ratio);
		snprintf(change, sizeof change, "%+.1f%%", x->change);
	}
	if (x && !isnan(x->noise))
		snprintf(noise, sizeof noise, "%.1f%%", x->noise);
	if (x) {
		fmt_test(x, ci, sizeof ci, p, sizeof p);
		bm = fmt_mbs(sb, sizeof sb, x->b);
		nm = fmt_mbs(sn, sizeof sn, x->n);
	}
	fprintf(f, "  %*s  %*s", mb, bm, mb, nm);
	if (!(l->drop & D_RATIO))
		fprintf(f, "  %6s", x ? ratio : "ratio");
	if (t && !(l->drop & D_CI))
		fprintf(f, "  %11s", ci);
	fprintf(f, "  %8s", x ? change : "change");
	if (!(l->drop & D_SPREAD))
		fprintf(f, "  %7s", x ? noise : "spread");
	if (t && !(l->drop & D_P))
		fprintf(f, "  %7s", p);
}

/* One matched pair's row of the table. */
static void print_row(FILE *f, const struct cmp *x, struct layout *l)
{
	char note[320], nb[64];
	const char *v = cmp_verdict_table[x->v];
	int pad = (l->ntested ? 13 : 12) - (int)strlen(v);

	print_key(f, x->b, l);
	print_nums(f, x, l);
	fprintf(f, "  %s", v);
	if (row_note(x, note, sizeof note))
		fprintf(f, "%*s%s", pad, "", l->drop & D_CUT ? cb_shorten(&l->lg,
		        note, l->notew, nb, sizeof nb) : note);
	fputc('\n', f);
}

/* The width of a row up to its note (the verdict column padded). */
static int row_width(const struct layout *l)
{
	const struct widths *w = &l->w;
	const struct extras *e = &l->e;
	int t = l->ntested != 0, d = l->drop;
	int n = w->alg + 2 + 5 + 2 + w->block + 2 + 7 + 2 + w->backend + 2 +
	        w->driver;

	n += l->bycol ? w->group + 2 : 0;
	if (d & D_VAR)
		n += l->varw ? l->varw + 2 : 0;
	else
		n += (e->tool ? w->tool + 2 : 0) + (e->iv ? w->iv + 2 : 0) +
		     (e->sector ? w->sector + 2 : 0) + (e->threads ? 5 : 0) +
		     (e->auth ? w->auth + 2 : 0);
	n += 2 * (12 - !!(d & D_CUT)) + 10 + (d & D_RATIO ? 0 : 8);
	n += (d & D_SPREAD ? 0 : 9) + (t && !(d & D_CI) ? 13 : 0);
	n += t && !(d & D_P) ? 9 : 0;
	return n + 2 + 12 + t;
}

static int imin(int a, int b)
{
	return a < b ? a : b;
}

/* The widest variant (D_VAR) of the points of both sides, 0 for none. */
static int variant_width(const struct layout *l,
                         const struct cmp_side *const side[2])
{
	const struct extras *e = &l->e;
	char buf[200];
	int w = 0;

	if (!e->tool && !e->iv && !e->sector && !e->threads && !e->auth)
		return 0;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < side[k]->npts; i++)
			w = imax(w, (int)strlen(variant(&side[k]->pts[i], e,
			         buf, sizeof buf)));
	return imin(imax(w, 7), 14);         /* "variant"; longer ones cut */
}

/* The names cut to fit the room the rest of the row leaves (D_CUT). */
static void cut_names(struct layout *l, int maxnote, int tail)
{
	struct widths *w = &l->w;
	int room, a, least;

	if (l->bycol)
		w->group = imin(w->group, 12);
	w->backend = imin(w->backend, 8);
	room = CMP_COLS - row_width(l) + w->alg + w->driver;
	least = imin(w->alg, 14) + imin(w->driver, 12);
	/* the note gets what whole names leave, if 12 or more */
	if (room - w->alg - w->driver >= 12)
		least = w->alg + w->driver;
	l->notew = maxnote ? imin(maxnote, imax(12, room - least)) : tail;
	room -= l->notew;
	if (w->alg + w->driver <= room)
		return;
	a = imin(w->alg, imax(room * 3 / 5, 12));
	if (room - a > w->driver)
		a = room - w->driver;
	w->driver = imax(room - a, 6);
	w->alg = imax(a, 3);
}

/* Over CMP_COLS: leave number columns out, fold the optional key
 * columns into one, and at last cut the names with a key. */
static void fit_names(struct layout *l, const struct cmp *c, size_t nc,
                      const struct cmp_side *const side[2])
{
	static const int tested[] = { D_SPREAD, D_P, D_RATIO, D_VAR, D_CI, 0 };
	static const int spread[] = { D_RATIO, D_VAR, D_SPREAD, 0 };
	const int *step = l->ntested ? tested : spread;
	int maxnote = 0, tail = 0;
	char note[320];

	l->varw = variant_width(l, side);
	for (size_t i = 0; i < nc; i++) {
		if (row_note(&c[i], note, sizeof note))
			maxnote = imax(maxnote, (int)strlen(note));
		tail = imax(tail, (int)strlen(cmp_verdict_table[c[i].v]));
	}
	tail -= 12 + (l->ntested != 0);   /* padded only before a note */
	l->e.note = maxnote > 0;          /* a row has one: the heading */
	for (; row_width(l) + (maxnote ? maxnote : tail) > CMP_COLS; step++) {
		if (!*step) {
			l->drop |= D_CUT;
			cut_names(l, maxnote, tail);
			return;
		}
		l->drop |= *step;
	}
}

/* The rule for points of one measurement (if any), and the blank line. */
static void print_once(FILE *f, size_t once)
{
	if (once)
		fprintf(f, "%zu point%s of one measurement (dd rows, seeds): no "
		        "spread known, a change past the threshold is unsure\n",
		        once, once == 1 ? "" : "s");
	fputc('\n', f);
}

/* The lines above the table: what was matched, and by which rule. */
static void print_method(FILE *f, const struct cmp *c, size_t nc,
                         const struct layout *l, double threshold)
{
	size_t spread = 0, once = 0, procs = 0, several = 0;

	for (size_t i = 0; i < nc; i++) {
		several += c[i].b->nimpl > 1 || c[i].n->nimpl > 1;
		procs += c[i].tested && c[i].by_process;
		spread += !c[i].tested && !isnan(c[i].noise);
		once += !c[i].tested && isnan(c[i].noise) && !isnan(c[i].ratio);
	}
	fprintf(f, "matching by %s; threshold %g%%",
	        l->bycol ? l->bycol : "point (hosts ignored)", threshold);
	if (!nc) {
		fputs("; no speed point in common\n", f);
		return;
	}
	if (several)
		fprintf(f, "; %zu point%s where one side has several "
		        "implementations (--ignore, or native's code paths in one "
		        "file): each side's fastest, never a median of them",
		        several, several == 1 ? "" : "s");
	if (!l->ntested) {
		fputs("; a change within the two points' combined spread is "
		      "noise (no raw samples: the spread rule)\n", f);
		print_once(f, once);
		return;
	}
	fprintf(f, "\n%zu point%s with raw samples: Mann-Whitney U, "
	        "%s over %zu, %s %g; ratio of medians with its bootstrap 95%% "
	        "CI\n", l->ntested, l->ntested == 1 ? "" : "s",
	        cmp_adjust_name(), l->ntested, holm() ? "alpha" : "FDR",
	        CMP_ALPHA);
	if (procs)
		fprintf(f, "%zu of them from several processes (or runs) on both "
		        "sides: tested process by process, the largest p of every "
		        "pair (a change must show in each)\n", procs);
	if (spread)
		fprintf(f, "%zu point%s without raw samples (version 1 files, "
		        "seeds): the spread rule, a change within the two "
		        "points' combined spread is noise\n", spread,
		        spread == 1 ? "" : "s");
	print_once(f, once);
}

/* The "only in BASE" and "only in NEW" lists. */
#define CMP_LIST_MAX 20           /* lines of an "only in" list shown */

static void print_unmatched(FILE *f, const struct cmp_side *s,
                            struct layout *l)
{
	char sb[32];
	size_t cnt = 0;

	for (size_t i = 0; i < s->npts; i++)
		cnt += !s->pts[i].match;
	if (!cnt)
		return;
	fprintf(f, "\nonly in %s (%zu):\n", s->label, cnt);
	for (size_t i = 0, shown = 0; i < s->npts; i++) {
		if (s->pts[i].match)
			continue;
		if (shown++ == CMP_LIST_MAX && cnt > CMP_LIST_MAX + 1) {
			fprintf(f, "  ... and %zu more (--format csv lists every "
			        "one)\n", cnt - CMP_LIST_MAX);
			break;
		}
		fputs("  ", f);
		print_key(f, &s->pts[i], l);
		fprintf(f, "  %10s\n", fmt_mbs(sb, sizeof sb, &s->pts[i]));
	}
}

/* The headings of the table's columns (print_row's). */
static void print_head(FILE *f, struct layout *l)
{
	print_key(f, NULL, l);
	print_nums(f, NULL, l);
	fprintf(f, "  %s\n", !l->e.note ? "verdict" : l->ntested ?
	        "verdict      note" : "verdict     note");
}

/* After the table: the columns left out, the names cut, whole. */
static void print_legend(FILE *f, struct layout *l)
{
	static const char *const what[] = { "spread", "p", "ratio", "", "95% CI" };
	int first = 1;

	if (l->drop & ~(D_VAR | D_CUT))
		fputs("\nleft out to fit 120 columns:", f);
	for (int i = 0; i < 5; i++)
		if ((l->drop & (1 << i)) && *what[i])
			fprintf(f, "%s %s", first ? "" : ",", what[i]), first = 0;
	if (!first)
		fputs(" (--format csv has every column)\n", f);
	if (l->lg.n)
		fprintf(f, "\nnames cut above, whole:\n");
	cb_legend_print(f, &l->lg, 0);
	cb_legend_free(&l->lg);
}

void cmp_print_table(FILE *f, const struct cmp_side *b,
                     const struct cmp_side *n, const struct cmp *c, size_t nc,
                     const char *bycol, double threshold)
{
	struct layout l = { .w = { 5, 3, 7, 6, 4, 2, 4, 5, 6 }, .bycol = bycol };

	if (bycol)
		l.w.group = (int)strlen(bycol);
	scan_extras(b, &l.e);
	scan_extras(n, &l.e);
	widen(&l.w, b);
	widen(&l.w, n);
	for (size_t i = 0; i < nc; i++)
		l.ntested += c[i].tested != 0;
	fit_names(&l, c, nc, (const struct cmp_side *const[2]){ b, n });

	describe_side(f, b);
	describe_side(f, n);
	print_method(f, c, nc, &l, threshold);
	if (nc)
		print_head(f, &l);
	for (size_t i = 0; i < nc; i++)
		print_row(f, &c[i], &l);
	print_unmatched(f, b, &l);
	print_unmatched(f, n, &l);
	print_legend(f, &l);
}

static void csv_side(FILE *f, const struct cmp_point *p)
{
	if (p && !strcmp(p->status, "ok") && isnan(p->rel_spread))
		fprintf(f, ",%.0f,,%zu,", p->median, p->n);
	else if (p && !strcmp(p->status, "ok"))
		fprintf(f, ",%.0f,%.5g,%zu,", p->median, p->rel_spread, p->n);
	else
		fputs(",,,0,", f);
	cb_csv_write_field(f, p ? p->backend_version : "");
}

/* The columns after the verdict: the rule and the test's numbers. */
static void csv_test(FILE *f, const struct cmp *x)
{
	fputs(x->tested ? ",mann-whitney" : isnan(x->ratio) ? "," : ",spread", f);
	if (x->tested && !isnan(x->ci_lo))
		fprintf(f, ",%.4f,%.4f", x->ci_lo, x->ci_hi);
	else
		fputs(",,", f);
	if (x->tested)
		fprintf(f, ",%.3g,%.3g", x->p, x->p_adj);
	else
		fputs(",,", f);
	fprintf(f, ",%zu,%zu,,,\n", x->b->nsamples, x->n->nsamples);
}

void cmp_print_csv_header(FILE *f, const char *bycol)
{
	cb_csv_write_field(f, bycol ? bycol : csv_key_cols[0]);
	for (size_t i = 1; csv_key_cols[i]; i++)
		fprintf(f, ",%s", csv_key_cols[i]);
	fputs(",base_bytes_per_sec,base_rel_spread,base_runs,"
	      "base_backend_version,new_bytes_per_sec,new_rel_spread,new_runs,"
	      "new_backend_version,ratio,change_pct,verdict,method,"
	      "ratio_ci_low,ratio_ci_high,p_value,p_adj,base_samples,"
	      "new_samples,ct_cpu_level,base_ct_verdict,new_ct_verdict\n", f);
}

void cmp_print_csv(FILE *f, const struct cmp_side *b, const struct cmp_side *n,
                   const struct cmp *c, size_t nc)
{
	for (size_t i = 0; i < nc; i++) {
		put_key(f, c[i].b, csv_key_cols, 0);
		csv_side(f, c[i].b);
		csv_side(f, c[i].n);
		if (isnan(c[i].ratio))
			fputs(",,", f);
		else
			fprintf(f, ",%.4f,%.2f", c[i].ratio, c[i].change);
		fprintf(f, ",%s", cmp_verdict_csv[c[i].v]);
		csv_test(f, &c[i]);
	}
	for (int side = 0; side < 2; side++) {
		const struct cmp_side *s = side ? n : b;

		for (size_t i = 0; i < s->npts; i++) {
			if (s->pts[i].match)
				continue;
			put_key(f, &s->pts[i], csv_key_cols, 0);
			csv_side(f, side ? NULL : &s->pts[i]);
			csv_side(f, side ? &s->pts[i] : NULL);
			fprintf(f, ",,,%s,,,,,,%zu,%zu,,,\n", side ? "only-new" :
			        "only-base", side ? 0 : s->pts[i].nsamples,
			        side ? s->pts[i].nsamples : 0);
		}
	}
}

/* Another pair of ct rows names the same backend, algorithm and level
 * (another driver or key size): the line names its driver too. */
static int ct_ambiguous(const struct cmp_ctpair *ct, size_t nct, size_t i)
{
	const struct cmp_ct *a = ct[i].b;

	for (size_t k = 0; k < nct; k++) {
		const struct cmp_ct *o = ct[k].b;

		if (k != i && !strcmp(o->group, a->group) &&
		    !strcmp(o->backend, a->backend) && !strcmp(o->alg, a->alg) &&
		    !strcmp(o->level, a->level))
			return 1;
	}
	return 0;
}

/* "ct: [GROUP ]BACKEND ALG[ (DRIVER, N-bit)] at --cpu L: OLD -> NEW  V" */
static void ct_line(FILE *f, const struct cmp_ctpair *ct, size_t nct,
                    size_t i, int group)
{
	const struct cmp_ct *b = ct[i].b;

	fprintf(f, "ct: %s%s%s %s", group ? b->group : "",
	        group && *b->group ? " " : "", b->backend, b->alg);
	if (ct_ambiguous(ct, nct, i))
		fprintf(f, " (%s, %llu-bit)", b->driver,
		        (unsigned long long)b->key_bits);
	fprintf(f, " at --cpu %s: %s -> %s  %s\n", b->level,
	        cb_ct_verdicts[b->v].name, cb_ct_verdicts[ct[i].n->v].name,
	        cmp_ct_change_table[ct[i].v]);
}

void cmp_print_ct(FILE *f, const struct cmp_side *b, const struct cmp_side *n,
                  const struct cmp_ctpair *ct, size_t nct, const char *bycol)
{
	size_t changed = 0, only[2] = { b->nct - nct, n->nct - nct };

	if (!b->nct && !n->nct)
		return;
	for (size_t i = 0; i < nct; i++)
		changed += ct[i].v != CMP_CT_SAME;
	if (nct)
		fprintf(f, "\nconstant time: %zu implementation%s in both at "
		        "one CPU level, %zu verdict%s changed", nct,
		        nct == 1 ? "" : "s", changed, changed == 1 ? "" : "s");
	else
		fputs("\nconstant time: no implementation in both at one CPU "
		      "level", f);
	if (only[0] || only[1])
		fprintf(f, " (%zu ct verdict%s only in BASE, %zu only in NEW)",
		        only[0], only[0] == 1 ? "" : "s", only[1]);
	fputs(changed ? ":\n" : "\n", f);
	for (size_t i = 0; i < nct; i++)
		if (ct[i].v != CMP_CT_SAME)
			ct_line(f, ct, nct, i, bycol != NULL);
}

void cmp_print_ct_csv(FILE *f, const struct cmp_ctpair *ct, size_t nct)
{
	for (size_t i = 0; i < nct; i++) {
		const struct cmp_ct *b = ct[i].b;

		if (ct[i].v == CMP_CT_SAME)
			continue;
		cb_csv_write_field(f, b->group);
		fputs(",ct,", f);
		cb_csv_write_field(f, b->backend);
		fputc(',', f);
		cb_csv_write_field(f, b->driver);
		fputc(',', f);
		cb_csv_write_field(f, b->alg);
		fprintf(f, ",%llu,0,-,,0,1,,,,0,,,,0,,,,%s,ct,,,,,0,0,",
		        (unsigned long long)b->key_bits,
		        cmp_ct_change_csv[ct[i].v]);
		cb_csv_write_field(f, b->level);
		fputc(',', f);
		cb_csv_write_field(f, cb_ct_verdicts[b->v].name);
		fputc(',', f);
		cb_csv_write_field(f, cb_ct_verdicts[ct[i].n->v].name);
		fputs("\n", f);
	}
}

/* "; ct: N matched: 1 WORSE, ..." when there are ct pairs. */
static void ct_summary(FILE *f, const struct cmp_ctpair *ct, size_t nct)
{
	size_t counts[CMP_CT_NCHANGES] = { 0 };

	if (!nct)
		return;
	for (size_t i = 0; i < nct; i++)
		counts[ct[i].v]++;
	fprintf(f, "; ct: %zu matched: %zu WORSE, %zu better, %zu changed, "
	        "%zu same", nct, counts[CMP_CT_WORSE], counts[CMP_CT_BETTER],
	        counts[CMP_CT_CHANGED], counts[CMP_CT_SAME]);
}

void cmp_print_summary(FILE *f, const char *lead, const struct cmp *c,
                       size_t nc, const struct cmp_ctpair *ct, size_t nct,
                       const size_t only[2], double threshold)
{
	size_t counts[V_NVERDICTS] = { 0 }, tested = 0;

	for (size_t i = 0; i < nc; i++) {
		counts[c[i].v]++;
		tested += c[i].tested != 0;
	}
	fprintf(f, "%s: %zu matched: ", lead, nc);
	if (tested)
		fprintf(f, "%zu slower, %zu faster, %zu same, %zu inconclusive",
		        counts[V_SLOWER], counts[V_FASTER], counts[V_SAME],
		        counts[V_INCONCLUSIVE]);
	if (tested && tested < nc)
		fputs("; spread rule: ", f);
	if (!tested || tested < nc)
		fprintf(f, "%zu regression%s, %zu improved, ", counts[V_REGRESSION],
		        counts[V_REGRESSION] == 1 ? "" : "s", counts[V_IMPROVED]);
	if (!tested)
		fprintf(f, "%zu same, ", counts[V_SAME]);
	if (!tested || tested < nc)
		fprintf(f, "%zu noise", counts[V_NOISE]);
	if (counts[V_UNSURE])
		fprintf(f, ", %zu unsure (one measurement, spread unknown)",
		        counts[V_UNSURE]);
	if (counts[V_FAILED])
		fprintf(f, ", %zu FAILED", counts[V_FAILED]);
	if (counts[V_SKIPPED] + counts[V_RECOVERED] + counts[V_UNMEASURED])
		fprintf(f, ", %zu not measured", counts[V_SKIPPED] +
		        counts[V_RECOVERED] + counts[V_UNMEASURED]);
	fprintf(f, "; %zu only in BASE, %zu only in NEW (threshold %g%%)",
	        only[0], only[1], threshold);
	ct_summary(f, ct, nct);
	fputc('\n', f);
}

void cmp_print_dump(FILE *f, const struct cmp_side *s)
{
	for (size_t i = 0; dump_key_cols[i]; i++)
		fprintf(f, "%s%s", i ? "\t" : "", dump_key_cols[i]);
	fputs("\tmb_per_sec\trel_spread\truns\n", f);
	for (size_t i = 0; i < s->npts; i++) {
		const struct cmp_point *p = &s->pts[i];

		if (strcmp(p->status, "ok"))
			continue;
		put_key(f, p, dump_key_cols, 1);
		fprintf(f, "\t%.6g\t%.4g\t%zu\n", p->median / 1e6, p->rel_spread,
		        p->n);
	}
}

int cmp_fitted(const struct cmp_job *j, int (*fn)(const struct cmp_job *))
{
	struct cmp_job t = *j;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if (j->csv_out || !(t.out = open_memstream(&buf, &len)))
		return fn(j);
	rc = fn(&t);
	if (fclose(t.out) != 0) {
		free(buf);
		cb_err("compare: out of memory");
		return CB_EXIT_USAGE;
	}
	/* a summary line stays one line, for scripts ("N matched: ") */
	cb_fit_lines(j->out, buf, len, CMP_COLS, " matched: ");
	free(buf);
	if (fflush(j->out) != 0 || ferror(j->out)) {
		cb_err("compare: write error on standard output");
		return CB_EXIT_USAGE;
	}
	return rc;
}
