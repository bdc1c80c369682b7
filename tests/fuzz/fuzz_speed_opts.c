/* fuzz_speed_opts.c - speed's and bench's shared options (src/measure/speed_opts.c
 * speed_parse, then speed_opts_finish for the defaults and cross-checks).  The
 * first line picks the command: "bench" or anything else for speed. */
#include "fuzz.h"
#include "measure/speed_opts.h"

static const char *const algs[] = { "cbc(aes)", NULL };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_argv a;
	struct speed_opts o;
	struct speed_cli c;
	unsigned cmd;

	fuzz_argv(&a, "speed", data, size);
	cmd = a.argc > 1 && !strcmp(a.argv[1], "bench") ? CMD_BENCH : CMD_SPEED;
	speed_opts_init(&o);
	memset(&c, 0, sizeof c);
	if (a.argc > 1) {           /* the command line after the first line */
		a.argv[1] = a.argv[0];
		if (speed_parse(cmd, a.argc - 1, a.argv + 1, &o, &c) == 0)
			(void)speed_opts_finish(&o, algs);
	}
	speed_free_opts(&o);
	fuzz_argv_free(&a);
	return 0;
}
