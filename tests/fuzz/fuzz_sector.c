/* fuzz_sector.c - the dm-crypt/geli cipher specs (src/sector/sector.c
 * sector_parse, parse_dmcrypt).  Input lines: -e spec, -a (empty: none),
 * -l bits (empty: not given), -s sector size, --iv-large-sectors (1). */
#include "fuzz.h"
#include "sector/sector.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_argv a;
	struct sector_cfg c;
	const char *e, *aalg, *l, *s, *large;

	fuzz_argv(&a, "sector", data, size);
	e = a.argc > 1 ? a.argv[1] : "";
	aalg = a.argc > 2 && a.argv[2][0] ? a.argv[2] : NULL;
	l = a.argc > 3 ? a.argv[3] : "";
	s = a.argc > 4 ? a.argv[4] : "0";
	large = a.argc > 5 ? a.argv[5] : "0";
	(void)sector_parse(&c, e, (unsigned)strtoul(l, NULL, 10), l[0] != 0,
	                   aalg, (unsigned)strtoul(s, NULL, 10),
	                   large[0] == '1');
	fuzz_argv_free(&a);
	return 0;
}
