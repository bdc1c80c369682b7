/*
 * test_tables.c - the const tables are sorted and unique, every alias and
 * implementation names a registered algorithm, every implementation has
 * the operations its kind needs, and driver names are unique across
 * backends.
 */
#include <stdio.h>
#include <string.h>

#include "core/cb.h"
#include "ct/ct.h"
#include "foundation/vec.h"
#include "output/result.h"

#include "check.h"

/* The one table of ct verdicts (output/verdicts.c) is in ct.h's order,
 * each the name docs/ct.md gives it, and every name is found back. */
static void check_ct_verdicts(void)
{
	static const char *const doc[] = {
		[CT_BRANCH] = "secret-dependent branch",
		[CT_INDEX] = "secret-dependent memory index",
		[CT_TIMING] = "secret-dependent timing",
		[CT_CLEAN] = "constant-time",
		[CT_NO_LEAK] = "no timing leak found",
		[CT_NOT_CHECKED] = "not checked",
	};

	check(cb_nct_verdicts == CT_NOT_CHECKED + 1,
	      "ct verdicts: the readers' table has ct.h's six");
	for (int v = 0; v <= CT_NOT_CHECKED && (size_t)v < cb_nct_verdicts; v++) {
		checkf(!strcmp(ct_verdict_name(v), doc[v]),
		       "ct verdict %d: '%s' is ct.h's '%s'", v,
		       ct_verdict_name(v), doc[v]);
		checkf(cb_ct_verdict_find(ct_verdict_name(v)) == v,
		       "ct verdict '%s' found back", ct_verdict_name(v));
	}
	check(cb_ct_verdicts[CT_BRANCH].cls == CB_CT_LEAK &&
	      cb_ct_verdicts[CT_INDEX].cls == CB_CT_LEAK &&
	      cb_ct_verdicts[CT_TIMING].cls == CB_CT_LEAK &&
	      cb_ct_verdicts[CT_CLEAN].cls == CB_CT_CLEAN &&
	      cb_ct_verdicts[CT_NO_LEAK].cls == CB_CT_TIMING_ONLY &&
	      cb_ct_verdicts[CT_NOT_CHECKED].cls == CB_CT_UNCHECKED,
	      "ct verdicts: each in its class");
	check(cb_ct_verdict_find("constant time") < 0 &&
	      cb_ct_verdict_find("") < 0 && cb_ct_verdict_find(NULL) < 0,
	      "ct verdicts: a garbled name is none");
}

/* One table property of one named entry. */
static void check_entry(int ok, const char *what, const char *name)
{
	checkf(ok, "%s: %s", what, name);
}

int main(void)
{
	const struct cb_impl *seen[512];
	size_t nseen = 0;

	for (size_t i = 0; i < cb_nalgs; i++) {
		const struct cb_alg *a = &cb_algs[i];

		if (i)
			check_entry(strcmp(cb_algs[i - 1].name, a->name) < 0,
			            "algorithms sorted and unique", a->name);
		check_entry(cb_alg_find(a->name, NULL) == a, "algorithm found", a->name);
		check_entry(a->kind != CB_CIPHER || a->block, "cipher has a block",
		            a->name);
		check_entry((a->kind != CB_HASH && a->kind != CB_MAC) ||
		            (a->digest_len && a->digest_len <= CB_MAX_DIGEST),
		            "digest length", a->name);
		check_entry(a->iv_len <= CB_MAX_BLOCK, "iv length", a->name);
	}
	for (size_t i = 0; i < cb_naliases; i++) {
		const struct cb_alias *al = &cb_aliases[i];
		unsigned mult;

		if (i)
			check_entry(strcmp(cb_aliases[i - 1].alias, al->alias) < 0,
			            "aliases sorted and unique", al->alias);
		check_entry(cb_alg_find(al->alias, &mult) &&
		            !strcmp(cb_alg_find(al->alias, NULL)->name, al->canonical),
		            "alias resolves", al->alias);
		check_entry(!cb_alg_find(al->alias, NULL) ||
		            strcmp(al->alias, al->canonical) != 0,
		            "alias differs from its name", al->alias);
	}
	check_entry(cb_alg_find("nonsense", NULL) == NULL, "unknown name", "nonsense");
	for (size_t i = 1; i < vec_nfields; i++)
		check_entry(strcmp(vec_fields[i - 1].name, vec_fields[i].name) < 0,
		            "vector fields sorted", vec_fields[i].name);

	for (int b = 0; cb_backends[b]; b++) {
		for (int c = 0; c < b; c++)
			check_entry(strcmp(cb_backends[b]->name, cb_backends[c]->name),
			            "backend names unique", cb_backends[b]->name);
		for (const struct cb_impl *const *p =
		         cb_backend_impls(cb_backends[b]); *p; p++) {
			const struct cb_impl *im = *p;
			const struct cb_alg *a = cb_alg_find(im->alg, NULL);
			int ops = 0;

			check_entry(a && !strcmp(a->name, im->alg),
			            "implementation of a canonical algorithm", im->driver);
			if (!a)
				continue;
			switch (a->kind) {
			case CB_CIPHER: ops = im->encrypt && im->decrypt; break;
			case CB_HASH:
			case CB_MAC: ops = im->init && im->update && im->final; break;
			case CB_AEAD: ops = im->aead_encrypt && im->aead_decrypt; break;
			case CB_KDF: ops = im->derive != NULL; break;
			}
			check_entry(ops, "operations for its kind", im->driver);
			{
				int dup = 0;

				for (size_t k = 0; k < nseen; k++)
					dup |= !strcmp(seen[k]->driver, im->driver);
				check_entry(!dup, "driver names unique", im->driver);
			}
			if (nseen < sizeof seen / sizeof seen[0])
				seen[nseen++] = im;
		}
	}
	check_ct_verdicts();
	return finish();
}
