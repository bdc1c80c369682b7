/* fuzz_csv.c - compare's CSV reader (src/foundation/csv.c): parse, then the typed
 * checks compare makes and the lookups its readers use. */
#include "foundation/csv.h"
#include "fuzz.h"

static const struct cb_csv_col cols[] = {
	{ "alg", CB_CSV_REQUIRED | CB_CSV_NONEMPTY },
	{ "block_bytes", CB_CSV_UINT },
	{ "mb_per_s", CB_CSV_NUMBER | CB_CSV_NONNEG | CB_CSV_EMPTY_OK },
	{ "rel_spread", CB_CSV_NUMBER | CB_CSV_EMPTY_OK },
	{ NULL, 0 },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cb_csv csv;

	memset(&csv, 0, sizeof csv);
	if (cb_csv_parse(&csv, "fuzz.csv", (const char *)data, size) == 0) {
		for (size_t i = 0; i < csv.nrows; i++) {
			(void)cb_csv_get(&csv, &csv.rows[i], "host");
			(void)cb_csv_iv_key(&csv, &csv.rows[i], "random");
		}
		(void)cb_csv_has(&csv, "sample_ops");
		(void)cb_csv_check(&csv, cols);
	}
	cb_csv_free(&csv);
	return 0;
}
