/*
 * cpulevel.h - `--cpu LEVEL` / CRYPTOBENCH_CPU: cap every backend's code
 * path to one CPU generation's instruction sets (docs/cpu.md).
 *
 * Levels, each adding to the one before: generic (no AES-NI), aesni
 * (AES-NI, PCLMULQDQ, AVX), avx2 (+ AVX2, BMI), vaes256 (+ VAES,
 * VPCLMULQDQ), vaes512 (+ AVX-512), max (no cap).  A "-nosha" (or
 * ",nosha") suffix also switches SHA-NI off.  Each backend applies the
 * cap with its library's own switch (struct cb_backend cap); those read
 * when the library loads are set in the environment and the process
 * re-executes itself once.
 */
#ifndef CB_CPULEVEL_H
#define CB_CPULEVEL_H

#include <stddef.h>

/*
 * Parse a level ("aesni", "vaes512-nosha"): 0, *hw = the CB_HW_* groups
 * it allows and *need = those the CPU must have (none for max); -EINVAL
 * with a message in err otherwise.
 */
int cb_cpu_level_parse(const char *s, unsigned *hw, unsigned *need,
                       char *err, size_t n);

/*
 * The CPU flags (as /proc/cpuinfo names them) of the groups need that the
 * CPU (flags: space-separated) lacks, space-separated into missing; ""
 * if none.
 */
void cb_cpu_level_missing(unsigned need, const char *flags, char *missing,
                          size_t n);

/*
 * Take "--cpu LEVEL" / "--cpu=LEVEL" out of argv (anywhere before "--"),
 * else read CRYPTOBENCH_CPU; check the CPU (CRYPTOBENCH_CPU_FLAGS, if set,
 * stands for its flags: tests); cap every backend; re-execute
 * when a library's switch must be in the environment before it loads
 * (does not return then).  0, or CB_EXIT_USAGE after a message.
 */
int cb_cpu_level_apply(int *argc, char **argv);

/* The level in force ("max" when none), as given ("aesni-nosha"). */
const char *cb_cpu_level_name(void);

#endif
