/*
 * native.h - what the native backend exposes beyond its struct cb_backend:
 * the code paths (ISA levels), how one is chosen from the CPU and
 * CRYPTOBENCH_ISA, and each path's implementation table, so a test can
 * run every path the CPU has side by side in one process.
 */
#ifndef CB_NATIVE_H
#define CB_NATIVE_H

#include "core/cb.h"

/* Code paths, lowest first; each needs the ones below it. */
#if defined(__aarch64__)
enum cb_native_isa {
	CB_NATIVE_CE,        /* ARMv8 Crypto Extensions: AESE/AESMC/AESD/AESIMC */
	CB_NATIVE_NISA
};
#else
enum cb_native_isa {
	CB_NATIVE_AESNI,     /* AES-NI, SSE encoding                           */
	CB_NATIVE_VAES256,   /* + VAES, AVX2, OS-saved YMM state               */
	CB_NATIVE_VAES512,   /* + AVX512F/VL, OS-saved opmask/ZMM state        */
	CB_NATIVE_NISA
};
#endif

/* "aesni", "vaes256", "vaes512" ("ce" on AArch64; NULL if out of
 * range). */
const char *cb_native_isa_name(int isa);

/* The best path this CPU can run, or -ENOTSUP when it has no AES-NI. */
int cb_native_cpu_isa(void);

/*
 * The path to use for a CRYPTOBENCH_ISA value (NULL or "" for none) on a
 * CPU whose best path is cpu_isa (negative: no AES-NI): the lower of the
 * cap and cpu_isa; -EINVAL for a value that is not a path name,
 * -ENOTSUP when cpu_isa < 0 or the cap is "none" (no AES-NI allowed:
 * --cpu generic).
 */
int cb_native_choose(const char *cap, int cpu_isa);

/*
 * The NULL-terminated implementation table of one path, whatever path
 * the backend itself chose; NULL with *why set when this CPU cannot run
 * it.  Its driver names end in the path ("cbc-aes-native-vaes256").
 */
const struct cb_impl *const *cb_native_isa_impls(int isa, const char **why);

#endif
