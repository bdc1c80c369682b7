/*
 * cmd_sysinfo.c - `cryptobench sysinfo`: the provenance block every result
 * carries (system/sysinfo.c), with the core clock measured first.
 */
#include <stdio.h>

#include "core/cb.h"
#include "commands/cmd.h"
#include "system/sysinfo.h"
#include "foundation/util.h"

static const struct cb_opt sysinfo_options[] = { { NULL, 0, 0, NULL, NULL } };

const struct cb_command cb_cmd_sysinfo = {
	.name = "sysinfo", .run = cmd_sysinfo, .opts = sysinfo_options,
	.synopsis = "sysinfo",
	.summary = "the provenance block every result carries (host, CPU, "
	           "clock, libraries)",
};

int cmd_sysinfo(int argc, char **argv)
{
	const char *arg;
	int i = 1, id;

	while ((id = cb_getopt(argc, argv, &i, sysinfo_options, &arg)) != -1) {
		if (id == -2)
			return CB_EXIT_USAGE;
		cb_err("sysinfo: unexpected argument '%s'", arg);
		return CB_EXIT_USAGE;
	}
	cb_prov_measure_ghz();
	cb_prov_print(stdout);
	return CB_EXIT_OK;
}
