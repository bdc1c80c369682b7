/* fuzz_kat_opts.c - kat's options (src/commands/cmd_kat.c parse_opts).  The parser
 * is static: cmd_kat.c is included (build/src/commands/cmd_kat.o left out).  Its
 * PATH operands would load vector files (that parser is fuzz_vec's): here
 * kat_load, kat_default_dir and kat_validate are stubs that load nothing. */
#include "fuzz.h"

#define kat_load fuzz_kat_load
#define kat_default_dir fuzz_kat_default_dir
#define kat_validate fuzz_kat_validate
#include "../../src/commands/cmd_kat.c"

int fuzz_kat_load(const char *path, struct vec_file **files, size_t *nfiles)
{
	return path[0] == 'x' ? -EINVAL : 0;  /* both outcomes reached */
}

const char *fuzz_kat_default_dir(void)
{
	return "vectors";
}

int fuzz_kat_validate(const struct vec_file *files, size_t nfiles)
{
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_argv fa;
	struct kat_opts o;

	fuzz_argv(&fa, "kat", data, size);
	memset(&o, 0, sizeof o);
	(void)parse_opts(fa.argc, fa.argv, &o);
	cb_sel_free(&o.sel);
	fuzz_argv_free(&fa);
	return 0;
}
