/* fuzz_dd_opts.c - dd's options and operands (src/commands/cmd_dd.c parse_opts,
 * parse_operand, parse_numopt), then the cipher spec they name through
 * sector_parse as dd does.  The parser is static: cmd_dd.c is included here
 * (and build/src/commands/cmd_dd.o left out of this target's link). */
#include "fuzz.h"
#include "../../src/commands/cmd_dd.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_argv a;
	struct dd_opts o;
	struct sector_cfg cfg;

	fuzz_argv(&a, "dd", data, size);
	if (parse_opts(a.argc, a.argv, &o) == 0)
		(void)sector_parse(&cfg, o.ealg, o.key_bits, o.key_bits_given,
		                   o.aalg, o.sector, o.iv_large);
	fuzz_argv_free(&a);
	return 0;
}
