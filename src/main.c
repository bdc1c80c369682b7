/*
 * main.c - command-line entry: the subcommand table and global help.
 * Each subcommand parses its own options and returns an exit code.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb.h"
#include "cmd.h"
#include "cpulevel.h"
#include "util.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
};

/* Sorted by name; tests/test_tables checks it. */
static const struct command commands[] = {
	{ "bench", cmd_bench,
	  "bench [--quick] [--out DIR] [--sec S]\n"
	  "      the whole matrix; results into results/" },
	{ "compare", cmd_compare,
	  "compare BASE NEW [--threshold PCT] [--host H] [--format table|csv]\n"
	  "      regression table between two result files" },
	{ "dd", cmd_dd,
	  "dd -e EALG [-l KEYBITS] [-a AALG] [-s SECTOR] [-K KEYFILE] [if=F] [of=F]\n"
	  "      [bs=N] [count=N] [--backend B] [-j THREADS] [--decrypt] [--force]\n"
	  "      [--format geli|csv|json] [--csv FILE]\n"
	  "      geli/dm-crypt sector encryption (-e none: baseline), timed" },
	{ "help", NULL, "help      this text" },
	{ "kat", cmd_kat,
	  "kat [--backend B]... [--alg A] [-v] [--format text|tap|junit] [PATH...]\n"
	  "      known-answer tests (default PATH: vectors/); tap/junit for CI" },
	{ "list", cmd_list,
	  "list [backends|algs]\n"
	  "      backends, versions, CPU features; algorithms and drivers" },
	{ "report", cmd_report,
	  "report FILE.csv... -o DIR [--force] [--seed FILE|none]\n"
	  "      index.html: summary, plots (gnuplot SVG), geli matrix, verdicts" },
	{ "speed", cmd_speed,
	  "speed [--backend B]... [--alg A]... [--key-bits N,..] [--sizes 16,64,..|kernel]\n"
	  "      [--sec S] [--encrypt|--decrypt] [--iv per-request|once]\n"
	  "      [--sector-size S] [--format tcrypt|table|csv|json] [-o FILE]" },
	{ "sysinfo", cmd_sysinfo,
	  "sysinfo   the provenance block every result carries" },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
	fprintf(f, "cryptobench %s - measure and verify disk and network "
	        "ciphers and MACs\n\nusage: cryptobench [--cpu LEVEL] COMMAND "
	        "[ARGS]\n\n", CB_VERSION);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %s\n", commands[i].usage);
	fprintf(f, "\nExit: 0 ok, 1 a test failed or a regression, "
	        "2 usage/parse/I-O error, 77 nothing to run.\n"
	        "--cpu LEVEL (or CRYPTOBENCH_CPU=LEVEL) caps every backend to one "
	        "CPU generation:\n  generic, aesni, avx2, vaes256, vaes512 or "
	        "max, with -nosha to drop SHA-NI\n  (docs/cpu.md).  "
	        "CRYPTOBENCH_ISA=none|aesni|vaes256|vaes512 caps native only.\n");
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
	int rc = cb_cpu_level_apply(&argc, argv);

	if (rc)
		return rc;
	if (argc < 2) {
		usage(stderr);
		return CB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h")) {
		usage(stdout);
		return CB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("cryptobench %s\n", CB_VERSION);
		return CB_EXIT_OK;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (commands[i].run && !strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	cb_err("unknown command '%s' (try 'cryptobench help')", argv[1]);
	return CB_EXIT_USAGE;
}
