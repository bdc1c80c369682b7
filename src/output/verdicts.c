/*
 * verdicts.c - the vocabulary of ct rows (tool "ct", cryptobench-csv-5,
 * docs/csv.md): the six verdicts `cryptobench ct` writes, worst first,
 * each with its class.  The readers of result files (compare, report,
 * list --ct, bench --ct) check a row's ct_verdict against this table and
 * colour, count or judge it by its class; tests/test_tables checks that
 * it names ct.h's verdicts in ct.h's order.
 */
#include <stdio.h>
#include <string.h>

#include "core/cb.h"
#include "output/result.h"
#include "foundation/util.h"

const struct cb_ct_verdict cb_ct_verdicts[] = {
	{ "secret-dependent branch",       CB_CT_LEAK },
	{ "secret-dependent memory index", CB_CT_LEAK },
	{ "secret-dependent timing",       CB_CT_LEAK },
	{ "constant-time",                 CB_CT_CLEAN },
	{ "no timing leak found",          CB_CT_TIMING_ONLY },
	{ "not checked",                   CB_CT_UNCHECKED },
};
const size_t cb_nct_verdicts = sizeof cb_ct_verdicts / sizeof cb_ct_verdicts[0];

const char *cb_ct_class_name(enum cb_ct_class c)
{
	static const char *const names[] = {
		[CB_CT_LEAK] = "leak", [CB_CT_CLEAN] = "clean",
		[CB_CT_TIMING_ONLY] = "timing-only",
		[CB_CT_UNCHECKED] = "not checked",
	};
	return names[c];
}

int cb_ct_verdict_find(const char *verdict)
{
	for (size_t i = 0; verdict && i < cb_nct_verdicts; i++)
		if (!strcmp(cb_ct_verdicts[i].name, verdict))
			return (int)i;
	return -1;
}

int cb_ct_verdict_row(const char *file, unsigned long line, const char *verdict)
{
	char names[256];
	size_t off = 0;
	int v = cb_ct_verdict_find(verdict);

	if (v >= 0)
		return v;
	for (size_t i = 0; i < cb_nct_verdicts && off < sizeof names; i++)
		off += (size_t)snprintf(names + off, sizeof names - off, "%s%s",
		                        i ? ", " : "", cb_ct_verdicts[i].name);
	cb_err("%s:%lu: column 'ct_verdict': '%s' is not a ct verdict (%s)",
	       file, line, verdict ? verdict : "", names);
	return -1;
}
