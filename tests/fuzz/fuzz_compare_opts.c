/* fuzz_compare_opts.c - compare's options (src/commands/cmd_compare.c parse_args,
 * take_opt, parse_threshold; cmp_parse_where, cmp_parse_ignore of
 * src/compare/).  The parser is static: cmd_compare.c is included (build/src/commands/cmd_compare.o left out). */
#include "fuzz.h"
#include "../../src/commands/cmd_compare.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_argv fa;
	struct args a = { .by = "auto", .threshold = 5.0 };

	fuzz_argv(&fa, "compare", data, size);
	(void)parse_args(fa.argc, fa.argv, &a);
	free_args(&a);
	fuzz_argv_free(&fa);
	return 0;
}
