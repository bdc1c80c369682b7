/*
 * compare_match.c - what a point is, for `compare` and `report` alike
 * (compare.h): the key two points match by, with an implementation's
 * identity in place of its driver name (native names its code path -
 * xts-aes-native-aesni, -vaes256 - and a path is where it runs, not what
 * it is: comparing two --cpu levels or two CPUs compares native with
 * native); the fastest per side when one key stands for several
 * implementations (--ignore, or two paths in one file), never a median
 * over them; and what is said of the points that matched nothing.
 * docs/compare.md ("Points and matching") is the rule.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "foundation/util.h"

/* "native-PATH" at s, PATH a run of [a-z0-9] ending the name or one part
 * of a composition: the length of "-PATH", else 0. */
static size_t path_at(const char *s)
{
	size_t k = 0;

	if (strncmp(s, "native-", 7))
		return 0;
	while (islower((unsigned char)s[7 + k]) || isdigit((unsigned char)s[7 + k]))
		k++;
	if (!k || (s[7 + k] && s[7 + k] != ',' && s[7 + k] != ')'))
		return 0;
	return 1 + k;
}

/* driver with native's path(s) left out (keep = 0) or the paths alone,
 * space-separated (keep = 1), into buf. */
static const char *split_path(const char *d, int keep, char *buf, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; d[i] && o + 1 < len;) {
		size_t k = path_at(d + i);

		if (k && keep) {
			o += (size_t)snprintf(buf + o, len - o, "%s%.*s",
			                      o ? " " : "", (int)k - 1, d + i + 7);
			o = o < len ? o : len - 1;
		} else if (k) {
			memcpy(buf + o, "native", o + 7 < len ? 6 : 0);
			o += o + 7 < len ? 6 : 0;
		}
		if (k) {
			i += 6 + k;
			continue;
		}
		if (!keep)
			buf[o++] = d[i];
		i++;
	}
	buf[o < len ? o : len - 1] = 0;
	return buf;
}

const char *cmp_impl_name(const char *driver, char *buf, size_t len)
{
	return split_path(driver, 0, buf, len);
}

const char *cmp_impl_path(const char *driver, char *buf, size_t len)
{
	return split_path(driver, 1, buf, len);
}

/* --ignore: key columns left out of the match (bit i of ignored). */
const char *const cmp_ignorable[] = {
	"backend", "driver", "iv_mode", "auth", NULL,
};

static int u64_cmp(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

static int impl_cmp(const char *a, const char *b)
{
	char x[256], y[256];

	if (!strstr(a, "native-") && !strstr(b, "native-"))
		return strcmp(a, b);
	return strcmp(cmp_impl_name(a, x, sizeof x),
	              cmp_impl_name(b, y, sizeof y));
}

int cmp_key_cmp(const struct cmp_point *a, const struct cmp_point *b,
                unsigned ig)
{
	int c;

	if ((c = strcmp(a->group, b->group)) || (c = strcmp(a->tool, b->tool)) ||
	    (c = strcmp(a->alg, b->alg)) ||
	    (c = u64_cmp(a->key_bits, b->key_bits)) ||
	    (c = u64_cmp(a->block_bytes, b->block_bytes)) ||
	    (c = strcmp(a->direction, b->direction)) ||
	    (!(ig & 1) && (c = strcmp(a->backend, b->backend))) ||
	    (!(ig & 2) && (c = ig & CMP_KEY_EXACT ? strcmp(a->driver, b->driver)
	                              : impl_cmp(a->driver, b->driver))) ||
	    (!(ig & 4) && (c = strcmp(a->iv_mode, b->iv_mode))) ||
	    (!(ig & 8) && (c = strcmp(a->auth, b->auth))) ||
	    (c = u64_cmp(a->sector_bytes, b->sector_bytes)))
		return c;
	return u64_cmp(a->threads, b->threads);
}

/* ---- the fastest per side ------------------------------------------- */

static int qcmp_ident(const void *pa, const void *pb)
{
	const struct cmp_point *a = pa, *b = pb;
	int c = cmp_key_cmp(a, b, a->ignored);

	return c ? c : (a->first > b->first) - (a->first < b->first);
}

static int qcmp_order(const void *pa, const void *pb)
{
	const struct cmp_point *a = pa, *b = pb;

	return (a->first > b->first) - (a->first < b->first);
}

/* a beats b: measured, and faster. */
static int faster(const struct cmp_point *a, const struct cmp_point *b)
{
	int am = !strcmp(a->status, "ok"), bm = !strcmp(b->status, "ok");

	return am != bm ? am : am && a->median > b->median;
}

static void drop(struct cmp_point *p)
{
	free(p->bps);
	free(p->spread);
	free(p->samples);
}

void cmp_keep_fastest(struct cmp_side *s)
{
	size_t out = 0;

	qsort(s->pts, s->npts, sizeof *s->pts, qcmp_ident);
	for (size_t i = 0; i < s->npts; i++) {
		struct cmp_point *k = out ? &s->pts[out - 1] : NULL;

		s->pts[i].nimpl = 1;
		if (!k || cmp_key_cmp(k, &s->pts[i], k->ignored)) {
			s->pts[out++] = s->pts[i];
			continue;
		}
		if (faster(&s->pts[i], k)) {
			size_t n = k->nimpl, first = k->first;

			drop(k);
			*k = s->pts[i];
			k->nimpl = n;
			k->first = first;
		} else {
			drop(&s->pts[i]);
		}
		k->nimpl++;
	}
	s->npts = out;
	qsort(s->pts, s->npts, sizeof *s->pts, qcmp_order);
}

/* ---- what matched nothing ------------------------------------------- */

/* The points of s that matched nothing, as pointers (free() them). */
static struct cmp_point **unmatched(const struct cmp_side *s, size_t *n)
{
	struct cmp_point **v = cb_xcalloc(s->npts + 1, sizeof *v);

	*n = 0;
	for (size_t i = 0; i < s->npts; i++)
		if (!s->pts[i].match)
			v[(*n)++] = &s->pts[i];
	return v;
}

/* The point q has p's group, backend (unless ignored) and, with alg,
 * algorithm. */
static int same_impl(const struct cmp_point *p, const struct cmp_point *q,
                     int alg)
{
	return !strcmp(q->group, p->group) &&
	       ((p->ignored & 1) || !strcmp(q->backend, p->backend)) &&
	       (!alg || !strcmp(q->alg, p->alg));
}

/* Points of s like p (same_impl); only = unmatched ones only. */
static size_t count_like(const struct cmp_side *s, const struct cmp_point *p,
                         int alg, int only)
{
	size_t n = 0;

	for (size_t k = 0; k < s->npts; k++)
		n += same_impl(p, &s->pts[k], alg) && (!only || !s->pts[k].match);
	return n;
}

/* "MISSING from NEW: backend gcrypt (218 points)" or "... algorithm
 * cbc(aes) of openssl (12 points)", for each backend and algorithm of
 * v[0..nv) (BASE's unmatched points) that NEW lacks; returns how many. */
static size_t missing_lines(FILE *f, const struct cmp_side *b,
                            const struct cmp_side *n,
                            struct cmp_point *const *v, size_t nv)
{
	size_t found = 0;

	for (size_t i = 0; i < nv; i++) {
		const struct cmp_point *p = v[i];
		int alg = count_like(n, p, 0, 0) != 0, dup = 0;

		if (!alg && (p->ignored & 1))
			continue;         /* every backend is one: algs below */
		for (size_t k = 0; k < i && !dup; k++)
			dup = same_impl(p, v[k], alg);
		if (dup || (alg && count_like(n, p, 1, 0)))
			continue;
		fprintf(f, "%sMISSING from %s: ", found ? "" : "\n", n->label);
		if (*p->group)
			fprintf(f, "%s ", p->group);
		if (alg && (p->ignored & 1))
			fprintf(f, "algorithm %s", p->alg);
		else if (alg)
			fprintf(f, "algorithm %s of %s", p->alg, p->backend);
		else
			fprintf(f, "backend %s", p->backend);
		fprintf(f, " (%zu point%s of %s)\n", count_like(b, p, alg, 1),
		        count_like(b, p, alg, 1) == 1 ? "" : "s", b->label);
		found++;
	}
	return found;
}

static unsigned hint_mask;         /* the mask qcmp_masked sorts by */

static int qcmp_masked(const void *pa, const void *pb)
{
	return cmp_key_cmp(*(struct cmp_point *const *)pa,
	                   *(struct cmp_point *const *)pb, hint_mask);
}

/* How many of vb[0..nb) match one of vn[0..nn) when the columns of mask
 * are left out too; distinct: count the points of one key once (they
 * would be one point, the fastest).  Sorts both by the mask. */
static size_t would_match(struct cmp_point **vb, size_t nb,
                          struct cmp_point **vn, size_t nn, unsigned mask,
                          int distinct)
{
	size_t hits = 0;

	hint_mask = mask;
	qsort(vb, nb, sizeof *vb, qcmp_masked);
	qsort(vn, nn, sizeof *vn, qcmp_masked);
	for (size_t i = 0; i < nb; i++)
		if (!distinct || !i || qcmp_masked(&vb[i - 1], &vb[i]))
			hits += bsearch(&vb[i], vn, nn, sizeof *vn,
			                qcmp_masked) != NULL;
	return hits;
}

/* The smallest set of --ignore's columns that would match the most of
 * BASE's unmatched points with NEW's: "--ignore backend,driver" */
static void print_hint(FILE *f, const struct cmp_side *n,
                       struct cmp_point **vb, size_t nb,
                       struct cmp_point **vn, size_t nn, int first)
{
	unsigned best = 0, had = nb ? vb[0]->ignored : 0;
	size_t most = 0;
	char cols[64] = "";

	for (unsigned m = 1; m < 16; m++) {
		size_t h;

		if (m & had)
			continue;
		h = would_match(vb, nb, vn, nn, m | had, 1);
		if (h > most || (h == most && h && __builtin_popcount(m) <
		                 __builtin_popcount(best)))
			most = h, best = m;
	}
	if (!most)
		return;
	most = would_match(vb, nb, vn, nn, best | had, 0);
	for (int i = 0; cmp_ignorable[i]; i++)
		if (best & (1u << i))
			snprintf(cols + strlen(cols), sizeof cols - strlen(cols),
			         "%s%s", *cols ? "," : "", cmp_ignorable[i]);
	fprintf(f, "%s%zu of BASE's %zu unmatched point%s differ from one of "
	        "%s's only in %s: "
	        "--ignore %s%s compares them (each side's fastest "
	        "implementation per point, never a median of several)\n",
	        first ? "\n" : "", most, nb, nb == 1 ? "" : "s", n->label, cols,
	        cols,
	        had ? " (with the columns already ignored)" : "");
}

size_t cmp_print_missing(FILE *f, const struct cmp_side *b,
                         const struct cmp_side *n,
                         const struct cmp_select *sel)
{
	size_t nb, nn, found;
	struct cmp_point **vb = unmatched(b, &nb), **vn = unmatched(n, &nn);

	found = nb ? missing_lines(f, b, n, vb, nb) : 0;
	if (nb && nn)
		print_hint(f, n, vb, nb, vn, nn, !found);
	if (found)
		fprintf(f, "%zu finding%s: what BASE measured and NEW did not%s\n",
		        found, found == 1 ? "" : "s", sel->allow_missing ?
		        " (allowed: --allow-missing)" : nb == b->npts ?
		        " (and nothing matched)" : " (exit 1; --allow-missing "
		        "allows it)");
	free(vb);
	free(vn);
	return sel->allow_missing ? 0 : found;
}
