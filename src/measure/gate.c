/*
 * gate.c - the correctness gate: nothing is timed before its series has
 * passed its known-answer vectors and a cross-check of the exact timed
 * request sequence against another backend's implementation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cb.h"
#include "measure/gate.h"
#include "kat/kat.h"
#include "measure/plan.h"
#include "measure/runner.h"
#include "foundation/util.h"

/* A random key of key_bits for alg; authenc: the kernel's rtattr blob
 * with a 32-byte HMAC key.  Returns the key length. */
size_t gate_make_key(const struct cb_alg *alg, unsigned key_bits,
                uint8_t *key)
{
	size_t ek = key_bits / 8;

	if (alg->flags & CB_F_NOKEY)
		return 0;
	if (!(alg->flags & CB_F_AUTHENC)) {
		cb_random(key, ek);
		if ((alg->flags & CB_F_XTS) && ek >= 2 &&
		    !memcmp(key, key + ek / 2, ek / 2))
			key[0] ^= 1;     /* OpenSSL refuses equal halves */
		return ek;
	}
	key[0] = 8, key[1] = 0, key[2] = 1, key[3] = 0;     /* rta_len, type */
	key[4] = 0, key[5] = 0, key[6] = (uint8_t)(ek >> 8), key[7] = (uint8_t)ek;
	cb_random(key + 8, 32 + ek);
	return 8 + 32 + ek;
}

/* Another backend's implementation of alg with this key size: openssl
 * first (unless impl is openssl's), then the others in table order. */
const struct cb_impl *gate_pick_ref(const struct cb_impl *impl,
                               const struct cb_alg *alg,
                               unsigned key_bits)
{
	const struct cb_backend *mine = cb_impl_backend(impl);
	const struct cb_backend *order[CB_MAX_BACKENDS];
	size_t n = 0;
	const struct cb_backend *ossl = cb_backend_find("openssl");

	if (ossl && ossl != mine)
		order[n++] = ossl;
	for (int i = 0; cb_backends[i] && n < CB_MAX_BACKENDS; i++)
		if (cb_backends[i] != mine && cb_backends[i] != ossl)
			order[n++] = cb_backends[i];
	for (size_t i = 0; i < n; i++) {
		const struct cb_impl *c;

		if (cb_backend_status(order[i], NULL) < 0)
			continue;
		for (int k = 0; (c = cb_impl_find(order[i], alg->name, k)); k++)
			if (cb_impl_status(c, NULL) == 0 &&
			    cb_impl_key_ok(c, alg, key_bits))
				return c;
	}
	return NULL;
}

/*
 * Cross-check: run the same two requests of len bytes (the timed request
 * model exactly) on impl and on ref, keyed alike from the same buffer,
 * and compare every output byte.  NULL if they agree, else the reason.
 */
char *gate_cross_check(struct cb_inst *mine, const struct cb_impl *ref,
                  const uint8_t *key, size_t keylen, int dir,
                  const struct speed_opts *o, struct bufs *bf,
                  size_t len)
{
	struct cb_inst other = {0};
	struct runner ra, rb;
	int rc;
	char *why = NULL;
	const struct cb_alg *alg = mine->alg;
	/* --mb: two whole submissions, the second into the next slots */
	uint64_t nreq = alg->kind == CB_CIPHER && o->mb ? 2 * o->mb : 2;

	if ((rc = cb_inst_new(&other, ref, key, keylen)) < 0) {
		cb_clear_error();
		return NULL;   /* the reference cannot take this key: unchecked */
	}
	cb_random(bf->a, runner_ring_bytes(len, o->mb));
	memcpy(bf->b, bf->a, runner_ring_bytes(len, o->mb));
	memset(bf->a2, 0, len);
	memset(bf->b2, 0, len);
	if ((rc = runner_prep(&ra, mine, dir, o->iv_once, o->sector, o->mb,
	                      bf->a, bf->a2, len)) < 0 ||
	    (rc = runner_fn(&ra)(&ra, nreq)) < 0) {
		why = runner_err("error in the check run", rc);
		goto out;
	}
	if ((rc = runner_prep(&rb, &other, dir, o->iv_once, o->sector, o->mb,
	                      bf->b, bf->b2, len)) < 0 ||
	    (rc = runner_fn(&rb)(&rb, nreq)) < 0) {
		cb_clear_error();
		goto out;      /* the reference failed: nothing to compare */
	}
	if (memcmp(bf->a, bf->b, runner_ring_bytes(len, o->mb)) ||
	    (alg->kind == CB_AEAD && (memcmp(ra.tag, rb.tag, alg->digest_len) ||
	                              memcmp(bf->a2, bf->b2, len))) ||
	    ((alg->kind == CB_HASH || alg->kind == CB_MAC || alg->kind == CB_KDF) &&
	     memcmp(ra.digest, rb.digest, alg->digest_len))) {
		char buf[300];

		snprintf(buf, sizeof buf, "output of a %zu-byte request differs "
		         "from %s (%s)", len, ref->driver,
		         cb_impl_backend(ref)->name);
		why = cb_xstrdup(buf);
	}
out:
	cb_inst_free(&other);
	return why;
}

struct gate_cache {
	const struct cb_impl *impl;
	int rc;
	unsigned nrun;
};

/* kat_gate, run once per implementation. */
static int kat_once(struct gate *g, const struct cb_impl *impl,
                    unsigned *nrun)
{
	struct gate_cache *c;

	for (size_t i = 0; i < g->ngc; i++)
		if (g->gc[i].impl == impl) {
			*nrun = g->gc[i].nrun;
			return g->gc[i].rc;
		}
	g->gc = cb_xrealloc(g->gc, (g->ngc + 1) * sizeof *g->gc);
	c = &g->gc[g->ngc++];
	c->impl = impl;
	c->rc = kat_gate(impl, &c->nrun);
	*nrun = c->nrun;
	return c->rc;
}

/* Say once per driver that only its vectors check it (nothing does,
 * under --no-gate). */
static void warn_unchecked(struct gate *g, const struct plan *q,
                           unsigned nrun, int no_gate)
{
	for (size_t w = 0; w < g->nwarned; w++)
		if (g->warned[w] == q->impl->driver)
			return;
	char key[32] = "";

	if (q->key_bits)               /* a key-less algorithm has no size */
		snprintf(key, sizeof key, " with a %u-bit key", q->key_bits);
	if (no_gate)
		cb_warn("%s: no other backend has %s%s, and --no-gate: its "
		        "results are not checked", q->impl->driver,
		        q->sel->alg->name, key);
	else
		cb_warn("%s: no other backend has %s%s: checked by %u "
		        "known-answer vectors only", q->impl->driver,
		        q->sel->alg->name, key, nrun);
	g->warned = cb_xrealloc(g->warned, (g->nwarned + 1) * sizeof *g->warned);
	g->warned[g->nwarned++] = q->impl->driver;
}


int gate_ready(const struct speed_opts *o)
{
	if (!o->no_gate)
		return kat_gate_load(NULL, NULL);
	cb_warn("--no-gate: timing without the known-answer vectors; only the "
	        "cross-check between backends checks the results");
	return 0;
}

/* Key the series starting at plan i and put it through the gate. */
void gate_series(struct gate *g, struct series *s, const struct plan *p,
                 size_t n, size_t i, const struct speed_opts *o,
                 struct bufs *bf)
{
	const struct plan *q = &p[i];
	const struct cb_alg *alg = q->sel->alg;
	const struct cb_impl *ref;
	unsigned nrun = 0;
	size_t big = 0;
	int rc;

	for (size_t k = i; k < n && plan_same_series(q, &p[k]); k++)
		if (!p[k].skip && p[k].size > big)
			big = p[k].size;
	if (!big)
		return;                          /* nothing runs in it */
	if (!o->no_gate && kat_once(g, q->impl, &nrun) < 0) {
		s->fail = cb_xstrdup("failed its known-answer tests (FAIL lines "
		                     "on stderr)");
		goto out;
	}
	s->keylen = gate_make_key(alg, q->key_bits, s->key);
	if ((rc = cb_inst_new(&s->inst, q->impl, s->keylen ? s->key : NULL,
	                      s->keylen)) < 0) {
		s->fail = runner_err("setting the key", rc);
		goto out;
	}
	if ((ref = gate_pick_ref(q->impl, alg, q->key_bits)))
		s->fail = gate_cross_check(&s->inst, ref, s->key, s->keylen, q->dir, o,
		                      bf, big);
	else
		warn_unchecked(g, q, nrun, o->no_gate);
out:
	if (s->fail)
		cb_err("%s %s %u-bit %s: %s", q->backend->name, q->impl->driver,
		       q->key_bits, plan_dir_name(q->dir), s->fail);
}

void gate_free(struct gate *g)
{
	free(g->gc);
	free(g->warned);
	memset(g, 0, sizeof *g);
}

void gate_series_free(struct series *s)
{
	cb_inst_free(&s->inst);
	cb_wipe(s->key, sizeof s->key);
	free(s->fail);
	s->fail = NULL;
}
