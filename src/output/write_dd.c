/*
 * write_dd.c - the writers of `dd`'s lines (output.h, docs/dd.md): the
 * emulated tool's command line (geli, dd; cryptsetup's is in
 * write_cryptsetup.c), dd's records and FreeBSD dd's summary.
 */
#include <stdint.h>
#include <stdio.h>

#include "output/output.h"
#include "output/result.h"
#include "output/writer.h"

void cb_dd_records(FILE *f, const struct cb_dd_run *d)
{
	fprintf(f, "%llu+%llu records in\n%llu+%llu records out\n",
	        (unsigned long long)d->full_in, (unsigned long long)d->part_in,
	        (unsigned long long)d->full_out,
	        (unsigned long long)d->part_out);
}

/* FreeBSD dd's summary (bin/dd/misc.c). */
static void dd_summary(FILE *f, const struct cb_result *r)
{
	double secs = r->seconds > 0 ? r->seconds : 1e-9;

	fprintf(f, "%llu bytes transferred in %.6f secs (%.0f bytes/sec)\n",
	        (unsigned long long)r->bytes_total, r->seconds,
	        (double)r->bytes_total / secs);
}

int cb_out_dd_lines(FILE *f, const struct cb_report *rep,
                    void (*line)(FILE *f, const struct cb_dd_run *d),
                    FILE *records)
{
	const struct cb_dd_run *d = rep->dd;

	if (!d) {                        /* another command's results */
		for (size_t i = 0; i < rep->n; i++)
			dd_summary(f, &rep->res[i]);
		return cb_out_finish(f);
	}
	line(f, d);
	cb_dd_records(records ? records : f, d);
	if (rep->n)
		dd_summary(f, &rep->res[0]);
	return cb_out_finish(f);
}

static void geli_line(FILE *f, const struct cb_dd_run *d)
{
	fprintf(f, "geli init -P -e %s", d->ealg);
	if (d->key_bits_given)
		fprintf(f, " -l %u", d->key_bits);
	if (d->aalg)
		fprintf(f, " -a %s", d->aalg);
	fprintf(f, " -s %u -K %s %s\n", d->sector_size,
	        d->keyfile ? d->keyfile : "key", d->provider);
}

static void dd_line(FILE *f, const struct cb_dd_run *d)
{
	fprintf(f, "dd if=%s of=%s bs=%s", d->in, d->out, d->bs_text);
	if (d->count != UINT64_MAX)
		fprintf(f, " count=%llu", (unsigned long long)d->count);
	fputc('\n', f);
}

int cb_write_geli(FILE *f, const struct cb_report *rep)
{
	return cb_out_dd_lines(f, rep, geli_line,
	                       rep->dd ? rep->dd->records : NULL);
}

/* The baseline: FreeBSD dd's records go with its lines, as in the seed. */
int cb_write_dd(FILE *f, const struct cb_report *rep)
{
	return cb_out_dd_lines(f, rep, dd_line, NULL);
}

