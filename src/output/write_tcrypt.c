/*
 * write_tcrypt.c - the tcrypt writer (output.h): the kernel's tcrypt
 * speed lines, pinned to the ESSIV report in docs/speed.md.  A section
 * is sized from what it will print (the byte field's width).
 */
#include <math.h>
#include <stdio.h>

#include "output/output.h"
#include "output/result.h"
#include "output/writer.h"

static unsigned long long ops_of(const struct cb_result *r)
{
	return (unsigned long long)llround(r->ops_per_sec);
}

static unsigned ndigits(unsigned long long v)
{
	unsigned n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

const char *cb_tcrypt_pad(unsigned long long bytes, unsigned long long widest)
{
	return ndigits(bytes) < ndigits(widest) ? " " : "";
}

static void tcrypt_row(FILE *f, const struct cb_report *rep,
                       const struct cb_result *r, unsigned idx,
                       unsigned long long widest)
{
	unsigned long long ops = ops_of(r), n = r->block_bytes;
	double cyc_op = r->ghz > 0 && r->ops_per_sec > 0
	                ? r->ghz * 1e9 / r->ops_per_sec : NAN;

	if (cb_out_is_digest(r))
		fprintf(f, "tcrypt: test%3u (%5llu byte blocks,%5llu bytes per "
		        "update,%4u updates): ", idx, n, n, 1u);
	else
		fprintf(f, "tcrypt: test %u (%u bit key, %llu byte blocks): ", idx,
		        r->key_bits, n);
	if (r->status != CB_RES_OK) {
		fprintf(f, "%s: %s\n", r->status == CB_RES_SKIP ? "skipped"
		                                                 : "failed",
		        r->why ? r->why : "");
		return;
	}
	if (rep->cycles && isnan(cyc_op)) {
		fprintf(f, "no cycle count: the core clock is unknown here\n");
	} else if (rep->cycles && cb_out_is_digest(r)) {
		fprintf(f, "%6llu cycles/operation, %4llu cycles/byte\n",
		        (unsigned long long)llround(cyc_op),
		        (unsigned long long)llround(cyc_op) / (n ? n : 1));
	} else if (rep->cycles) {
		fprintf(f, "1 operation in %llu cycles (%llu bytes)\n",
		        (unsigned long long)llround(cyc_op), n);
	} else if (r->mb) {
		/* test_mb_acipher_jiffies: the requests of all submissions in
		 * the time box; ours is the rate, the requests in one second */
		fprintf(f, "%llu operations in 1 seconds (%llu bytes)\n", ops,
		        ops * n);
	} else if (cb_out_is_digest(r)) {
		fprintf(f, "%6llu opers/sec, %9llu bytes/sec\n", ops, ops * n);
	} else {
		fprintf(f, "%llu ops/s (%s%llu bytes)\n", ops,
		        cb_tcrypt_pad(ops * n, widest), ops * n);
	}
}

int cb_write_tcrypt(FILE *f, const struct cb_report *rep)
{
	size_t i = 0;

	while (i < rep->n) {
		const struct cb_result *s = &rep->res[i];
		unsigned long long widest = 0;
		size_t end = i;

		while (end < rep->n && cb_out_same_section(s, &rep->res[end])) {
			const struct cb_result *r = &rep->res[end];

			if (r->status == CB_RES_OK &&
			    ops_of(r) * r->block_bytes > widest)
				widest = ops_of(r) * r->block_bytes;
			end++;
		}
		if (s->mb)              /* tcrypt's test_mb_skcipher_speed */
			fprintf(f, "testing speed of multibuffer %s (%s) %s\n",
			        s->alg_label ? s->alg_label : s->alg, s->driver,
			        cb_out_streq(s->direction, "decrypt") ? "decryption"
			                                       : "encryption");
		else if (cb_out_is_digest(s))
			fprintf(f, "testing speed of async %s (%s)\n",
			        s->alg_label ? s->alg_label : s->alg, s->driver);
		else
			fprintf(f, "testing speed of async %s (%s) %s\n",
			        s->alg_label ? s->alg_label : s->alg, s->driver,
			        cb_out_streq(s->direction, "decrypt") ? "decryption"
			                                       : "encryption");
		for (size_t k = i; k < end; k++)
			tcrypt_row(f, rep, &rep->res[k], (unsigned)(k - i), widest);
		i = end;
	}
	return cb_out_finish(f);
}
