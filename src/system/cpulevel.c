/*
 * cpulevel.c - `--cpu LEVEL` / CRYPTOBENCH_CPU (cpulevel.h, docs/cpu.md):
 * the levels, the check that the CPU has what a level needs, and applying
 * the cap through each backend's switch, re-executing once when a switch
 * must be in the environment before its library loads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cb.h"
#include "foundation/cpu.h"
#include "system/cpulevel.h"
#include "foundation/util.h"

#define AESNI_HW (CB_HW_AES | CB_HW_PCLMUL | CB_HW_AVX)
#define CE_HW    (CB_HW_NEON | CB_HW_AES | CB_HW_PMULL)

/* Lowest first; each allows the groups of the one before.  SHA-NI (on
 * AArch64 the SHA-1/SHA-256 instructions) is allowed at every level
 * (where the CPU has it) unless "-nosha". */
static const struct {
	const char *name;
	unsigned hw;
} levels[] = {
#if defined(__aarch64__)
	{ "generic", 0 },                         /* no ASIMD, no CE    */
	{ "neon", CB_HW_NEON },                   /* ASIMD, no CE       */
	{ "ce", CE_HW },                          /* + AES, PMULL       */
	{ "ce-sha512", CE_HW | CB_HW_SHA3 },      /* + ARMv8.2 SHA-512, SHA-3 */
	{ "max", CB_HW_ALL & ~CB_HW_SHA },
#else
	{ "generic", 0 },
	{ "aesni", AESNI_HW },
	{ "avx2", AESNI_HW | CB_HW_AVX2 },
	{ "vaes256", AESNI_HW | CB_HW_AVX2 | CB_HW_VAES },
	{ "vaes512", AESNI_HW | CB_HW_AVX2 | CB_HW_VAES | CB_HW_AVX512 },
	{ "max", CB_HW_ALL & ~CB_HW_SHA },
#endif
};
#define NLEVELS (sizeof levels / sizeof levels[0])
#if defined(__aarch64__)
#define LEVEL_LIST "generic, neon, ce, ce-sha512 or max"
#else
#define LEVEL_LIST "generic, aesni, avx2, vaes256, vaes512 or max"
#endif

/* The CPU flags each group needs (/proc/cpuinfo's names; on AArch64
 * cpu_arm64.c's, from AT_HWCAP). */
static const struct {
	unsigned hw;
	const char *flag;
} needs[] = {
#if defined(__aarch64__)
	{ CB_HW_NEON, "asimd" }, { CB_HW_AES, "aes" }, { CB_HW_PMULL, "pmull" },
	{ CB_HW_SHA3, "sha512" }, { CB_HW_SHA3, "sha3" },
#else
	{ CB_HW_AES, "aes" }, { CB_HW_PCLMUL, "pclmulqdq" },
	{ CB_HW_AVX, "avx" }, { CB_HW_AVX2, "avx2" },
	{ CB_HW_VAES, "vaes" }, { CB_HW_VAES, "vpclmulqdq" },
	{ CB_HW_AVX512, "avx512f" }, { CB_HW_AVX512, "avx512vl" },
#endif
};

static char level_name[48] = "max";

int cb_cpu_level_parse(const char *s, unsigned *hw, unsigned *need,
                       char *err, size_t n)
{
	size_t len = strlen(s), sfx = strlen("-nosha");
	int nosha = 0;

	if (len > sfx && (!strcmp(s + len - sfx, "-nosha") ||
	                  !strcmp(s + len - sfx, ",nosha"))) {
		nosha = 1;
		len -= sfx;
	}
	for (size_t i = 0; i < NLEVELS; i++)
		if (strlen(levels[i].name) == len &&
		    !strncmp(s, levels[i].name, len)) {
			*hw = levels[i].hw | (nosha ? 0 : CB_HW_SHA);
			*need = i == NLEVELS - 1 ? 0 : levels[i].hw;
			return 0;
		}
	snprintf(err, n, "not a level (" LEVEL_LIST ", optionally with "
	         "-nosha)");
	return -EINVAL;
}

void cb_cpu_level_missing(unsigned need, const char *flags, char *missing,
                          size_t n)
{
	size_t off = 0;

	missing[0] = 0;
	for (size_t i = 0; i < sizeof needs / sizeof needs[0]; i++)
		if (need & needs[i].hw && !cb_has_word(flags, needs[i].flag) &&
		    off < n)
			off += (size_t)snprintf(missing + off, n - off, "%s%s",
			                        off ? " " : "", needs[i].flag);
}

const char *cb_cpu_level_name(void)
{
	return level_name;
}

/* The last "--cpu LEVEL" / "--cpu=LEVEL" before "--", removed from argv;
 * NULL if none; *bad set when --cpu has no value. */
static const char *take_option(int *argc, char **argv, int *bad)
{
	const char *v = NULL;
	int i = 1;

	while (i < *argc && strcmp(argv[i], "--")) {
		int k = 0;

		if (!strcmp(argv[i], "--cpu")) {
			if (i + 1 >= *argc) {
				*bad = 1;
				return NULL;
			}
			v = argv[i + 1];
			k = 2;
		} else if (!strncmp(argv[i], "--cpu=", 6)) {
			v = argv[i] + 6;
			k = 1;
		}
		if (!k) {
			i++;
			continue;
		}
		memmove(argv + i, argv + i + k,
		        (size_t)(*argc - i - k + 1) * sizeof *argv);
		*argc -= k;
	}
	return v;
}

/* Each backend's switch; 1 if the environment changed (re-execute). */
static int cap_backends(unsigned hw)
{
	int changed = 0;

	for (int i = 0; cb_backends[i]; i++) {
		char env[256], *eq;
		const char *cur;

		if (!cb_backends[i]->cap ||
		    cb_backends[i]->cap(hw, env, sizeof env) != 1 ||
		    !(eq = strchr(env, '=')))
			continue;
		*eq = 0;
		cur = getenv(env);
		if (cur && !strcmp(cur, eq + 1))
			continue;
		setenv(env, eq + 1, 1);
		changed = 1;
	}
	return changed;
}

int cb_cpu_level_apply(int *argc, char **argv)
{
	const char *s, *flags, *guard;
	char err[160], missing[96];
	unsigned hw, need;
	int bad = 0;

	s = take_option(argc, argv, &bad);
	if (bad) {
		cb_err("--cpu needs a level (" LEVEL_LIST ")");
		return CB_EXIT_USAGE;
	}
	if (!s && (!(s = getenv("CRYPTOBENCH_CPU")) || !*s))
		return 0;
	if (cb_cpu_level_parse(s, &hw, &need, err, sizeof err) < 0) {
		cb_err("--cpu '%s': %s", s, err);
		return CB_EXIT_USAGE;
	}
	if (!(flags = getenv("CRYPTOBENCH_CPU_FLAGS")))
		flags = cb_cpu()->flags;
	cb_cpu_level_missing(need, flags, missing, sizeof missing);
	if (missing[0]) {
		cb_err("--cpu %s: this CPU lacks %s", s, missing);
		return CB_EXIT_USAGE;
	}
	snprintf(level_name, sizeof level_name, "%s", s);
	setenv("CRYPTOBENCH_CPU", level_name, 1);
	if (hw == CB_HW_ALL || !cap_backends(hw))
		return 0;
	/* ct's memcheck child runs under valgrind, which cannot re-execute
	 * /proc/self/exe; its parent's environment holds the switches */
	if (getenv("CRYPTOBENCH_CPU_NOEXEC"))
		return 0;
	guard = getenv("CRYPTOBENCH_CPU_EXEC");
	if (guard && !strcmp(guard, level_name)) {
		cb_err("--cpu %s: the libraries' switches did not survive "
		       "re-executing", level_name);
		return CB_EXIT_USAGE;
	}
	setenv("CRYPTOBENCH_CPU_EXEC", level_name, 1);
	execv("/proc/self/exe", argv);
	cb_err("--cpu %s: cannot re-execute /proc/self/exe: %s", level_name,
	       strerror(errno));
	return CB_EXIT_USAGE;
}
