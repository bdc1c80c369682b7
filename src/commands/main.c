/*
 * main.c - command-line entry: the subcommand table and global help.
 * Each subcommand parses its own options and returns an exit code.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cb.h"
#include "commands/cmd.h"
#include "system/cpulevel.h"
#include "foundation/util.h"

/* Sorted by name; tests/test_tables checks it. */
static const struct cb_command *const commands[] = {
	&cb_cmd_bench, &cb_cmd_compare, &cb_cmd_ct, &cb_cmd_dd, &cb_cmd_import, &cb_cmd_kat, &cb_cmd_list,
	&cb_cmd_report, &cb_cmd_speed, &cb_cmd_sysinfo, &cb_cmd_tcrypt,
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const char exit_env_text[] =
	"Exit: 0 ok; 1 a known-answer test failed, data failed authentication\n"
	"or compare found a regression; 2 usage, parse or I/O error; 77 nothing\n"
	"available to run.\n"
	"--cpu LEVEL (or CRYPTOBENCH_CPU=LEVEL) caps every backend to one CPU\n"
	"generation: generic, aesni, avx2, vaes256, vaes512 or max, with -nosha\n"
	"to drop SHA-NI (docs/cpu.md).  CRYPTOBENCH_ISA=none|aesni|vaes256|vaes512\n"
	"caps native only.  --plugin FILE.so (repeatable) and\n"
	"CRYPTOBENCH_PLUGIN_PATH (files or directories) load more backends\n"
	"(docs/plugins.md).\n";

/* Where the manual is: a build tree's docs/cryptobench.1 (next to the
 * binary; man reads it by its path), else the installed page. */
static void manual_line(FILE *f)
{
	char exe[4096], cwd[4096], page[4200];

	if (cb_exe_dir(exe, sizeof exe) == 0 &&
	    (size_t)snprintf(page, sizeof page, "%s/docs/cryptobench.1", exe) <
	    sizeof page && access(page, R_OK) == 0) {
		if (getcwd(cwd, sizeof cwd) && !strcmp(cwd, exe))
			snprintf(page, sizeof page, "./docs/cryptobench.1");
		fprintf(f, "The manual: man %s (a build tree: `make install` puts "
		        "it where man finds it).\n", page);
	} else {
		fputs("The manual: man cryptobench.\n", f);
	}
}

static void usage(FILE *f)
{
	fprintf(f, "cryptobench %s - measure and verify disk and network "
	        "ciphers and MACs\n\nusage: cryptobench [--cpu LEVEL] "
	        "[--plugin FILE.so]... COMMAND [ARGS]\n"
	        "       cryptobench help [COMMAND]    (or COMMAND --help)\n\n",
	        CB_VERSION);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "\n%s", exit_env_text);
	manual_line(f);
}

static const struct cb_command *command_find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i]->name))
			return commands[i];
	return NULL;
}

static const struct cb_opt *opts_of(const struct cb_command *c)
{
	return c->opts_fn ? c->opts_fn() : c->opts;
}

static int has_opt(const struct cb_opt *opts, const char *name)
{
	for (const struct cb_opt *o = opts; o && o->name; o++)
		if (!strcmp(o->name, name))
			return 1;
	return 0;
}

/* `cryptobench help CMD`: generated from the command's option table. */
static void command_help(FILE *f, const struct cb_command *c)
{
	fprintf(f, "usage: cryptobench %s\n\n%s\n", c->synopsis, c->summary);
	fprintf(f, "\noptions:\n");
	if (opts_of(c))
		cb_opt_help(f, opts_of(c));
	if (!has_opt(opts_of(c), "--help"))
		fprintf(f, "  -h, --help\n        this help\n");
	if (c->more)
		fprintf(f, "\n%s", c->more);
	fprintf(f, "\n%s", exit_env_text);
	manual_line(f);
}

/* `help --options CMD`: every option name of CMD's table, one a line. */
static void command_options(FILE *f, const struct cb_command *c)
{
	for (const struct cb_opt *o = opts_of(c); o && o->name; o++)
		fprintf(f, "%s\n", o->name);
}

/*
 * Does argv ask for help (-h or --help as an option, not as the value of
 * another option and not after "--")?
 */
static int wants_help(int argc, char **argv, const struct cb_opt *opts)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--"))
			return 0;
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return 1;
		for (const struct cb_opt *o = opts; o && o->name; o++)
			if (o->has_arg && !strcmp(o->name, a))
				i++;       /* its value follows */
	}
	return 0;
}

static int help(int argc, char **argv)
{
	const struct cb_command *c;
	int opts_only = argc > 1 && !strcmp(argv[1], "--options");

	if (argc < 2) {
		usage(stdout);
		return CB_EXIT_OK;
	}
	if (argc != 2 + opts_only) {
		cb_err("help: one command name, e.g. 'cryptobench help speed'");
		return CB_EXIT_USAGE;
	}
	if (!(c = command_find(argv[1 + opts_only]))) {
		cb_err("help: unknown command '%s' (try 'cryptobench help')",
		       argv[1 + opts_only]);
		return CB_EXIT_USAGE;
	}
	if (opts_only)
		command_options(stdout, c);
	else
		command_help(stdout, c);
	return CB_EXIT_OK;
}

/*
 * Linux places the stack at a random offset within its page.  Timed code
 * runs below main(), and whether its stack traffic falsely aliases (4 KiB
 * aliasing) the libraries' heap data then changed per process: the same
 * 16-byte OpenSSL run measured 62M or 36M ops/s.  So main() first moves
 * the stack to one fixed offset in its page, making runs repeatable.
 */
#define CB_STACK_PAGE_OFFSET 0x800

static int run(int argc, char **argv);

/*
 * --plugin FILE (or --plugin=FILE), anywhere before "--", repeatable:
 * loaded with CRYPTOBENCH_PLUGIN_PATH's before anything else runs (the
 * --cpu switch asks every backend).  strip: take them out of argv
 * afterwards (they stay in it until --cpu has re-executed).
 */
static int plugin_options(int *argc, char **argv, int strip)
{
	const char *files[CB_MAX_BACKENDS];
	size_t n = 0;
	char err[1200];

	for (int i = 1; i < *argc && strcmp(argv[i], "--"); ) {
		int k = !strcmp(argv[i], "--plugin") ? 2
		        : !strncmp(argv[i], "--plugin=", 9) ? 1 : 0;

		if (!k) {
			i++;
			continue;
		}
		if (i + k > *argc || n == CB_MAX_BACKENDS) {
			cb_err("--plugin needs a file (a shared object; at most "
			       "%d)", CB_MAX_BACKENDS);
			return CB_EXIT_USAGE;
		}
		files[n++] = k == 2 ? argv[i + 1] : argv[i] + 9;
		if (!strip) {
			i += k;
			continue;
		}
		memmove(argv + i, argv + i + k,
		        (size_t)(*argc - i - k + 1) * sizeof *argv);
		*argc -= k;
	}
	if (!strip && cb_plugins_load(files, n, err, sizeof err) < 0) {
		cb_err("plug-in refused: %s", err);
		return CB_EXIT_USAGE;
	}
	return 0;
}

int main(int argc, char **argv)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	size_t pad = (size_t)((sp - CB_STACK_PAGE_OFFSET) & 4095);
	volatile char *p = __builtin_alloca(pad + 1);

	p[0] = 0;
	return run(argc, argv);
}

static int __attribute__((noinline)) run(int argc, char **argv)
{
	const struct cb_command *c;
	int rc;

	/* Results on stdout whole lines at a time: with `make bench > log
	 * 2>&1` a fully buffered stdout was cut where its buffer filled, and
	 * a progress line from stderr landed inside a table's header. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!(rc = plugin_options(&argc, argv, 0)))
		rc = cb_cpu_level_apply(&argc, argv);
	if (!rc)
		plugin_options(&argc, argv, 1);

	if (rc)
		return rc;
	if (argc < 2) {
		usage(stderr);
		return CB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help"))
		return help(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return CB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("cryptobench %s\n", CB_VERSION);
		return CB_EXIT_OK;
	}
	if (!(c = command_find(argv[1]))) {
		cb_err("unknown command '%s' (try 'cryptobench help')", argv[1]);
		return CB_EXIT_USAGE;
	}
	if (wants_help(argc - 1, argv + 1, opts_of(c))) {
		command_help(stdout, c);
		return CB_EXIT_OK;
	}
	return c->run(argc - 1, argv + 1);
}
