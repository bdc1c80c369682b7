/* fuzz_tcrypt_log.c - the tcrypt kernel-log parser (src/tcrypt/tcrypt_log.c
 * tc_parse): the input is a kernel log, with and without an algorithm to
 * keep and a clock. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tcrypt/tcrypt_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct cb_result *res = NULL;
	size_t n = 0;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = 0;
	if (tc_parse(text, NULL, 0, &res, &n) < 0 ||
	    tc_parse(text, "xts(aes)", 3.5, &res, &n) < 0)
		abort();
	for (size_t i = 0; i < n; i++)
		if (!res[i].driver || !res[i].alg_label)
			abort();
	tc_free(res, n);
	free(text);
	return 0;
}
