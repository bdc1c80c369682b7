/* fuzz_report_opts.c - report's options (src/commands/cmd_report.c report_args).  The
 * parser is static: cmd_report.c is included (build/src/commands/cmd_report.o left out). */
#include "fuzz.h"
#include "../../src/commands/cmd_report.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_argv fa;
	struct report_args ra = { .seed = "" };

	fuzz_argv(&fa, "report", data, size);
	(void)report_args(fa.argc, fa.argv, &ra);
	free(ra.files);
	fuzz_argv_free(&fa);
	return 0;
}
