/*
 * cmd_sysinfo.c - `cryptobench sysinfo`: the provenance block every result
 * carries (system/sysinfo.c), with the core clock measured first; as text,
 * or with --format json as one JSON object (output/output.c).
 */
#include <stdio.h>
#include <string.h>

#include "core/cb.h"
#include "commands/cmd.h"
#include "output/output.h"
#include "system/sysinfo.h"
#include "foundation/util.h"

enum { O_FORMAT = 1 };

static const struct cb_opt sysinfo_options[] = {
	{ "--format", 1, O_FORMAT, "text|json",
	  "the output format (default text; json: the same fields, the limits "
	  "as numbers too)" },
	{ NULL, 0, 0, NULL, NULL },
};

const struct cb_command cb_cmd_sysinfo = {
	.name = "sysinfo", .run = cmd_sysinfo, .opts = sysinfo_options,
	.synopsis = "sysinfo [--format text|json]",
	.summary = "the provenance block every result carries (host, CPU, "
	           "clock, libraries)",
};

int cmd_sysinfo(int argc, char **argv)
{
	const char *arg, *format = "text";
	int i = 1, id;

	while ((id = cb_getopt(argc, argv, &i, sysinfo_options, &arg)) != -1) {
		if (id == -2)
			return CB_EXIT_USAGE;
		if (id != O_FORMAT) {
			cb_err("sysinfo: unexpected argument '%s'", arg);
			return CB_EXIT_USAGE;
		}
		if (strcmp(arg, "text") && strcmp(arg, "json")) {
			cb_err("sysinfo: --format '%s': text or json", arg);
			return CB_EXIT_USAGE;
		}
		format = arg;
	}
	cb_prov_measure_ghz();
	if (!strcmp(format, "json") && cb_sysinfo_json(stdout, cb_prov())) {
		cb_err("sysinfo: cannot write standard output");
		return CB_EXIT_USAGE;
	}
	if (!strcmp(format, "json"))
		return CB_EXIT_OK;
	cb_prov_print(stdout);
	return CB_EXIT_OK;
}
