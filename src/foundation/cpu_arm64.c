/*
 * cpu_arm64.c - the CPU's identity and crypto features on AArch64 (cpu.h):
 * the core from its MIDR_EL1 (implementer, part, variant, revision; read
 * with MRS, which Linux emulates for user space where HWCAP_CPUID says so,
 * else from /proc/cpuinfo's "CPU implementer"/"CPU part"), the features
 * from getauxval(AT_HWCAP) in /proc/cpuinfo's words.  The auxiliary vector
 * is the kernel's word on what this process may use; /proc/cpuinfo under
 * qemu-user is the host's (an x86 file), so the features never come from
 * it, and the MIDR comes from it only when MRS cannot run.
 */
#if defined(__aarch64__)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "foundation/cpu.h"

#ifndef HWCAP_CPUID
#define HWCAP_CPUID (1UL << 11)
#endif

/* The AT_HWCAP bits that matter here, in display order (asm/hwcap.h). */
static const struct { unsigned long bit; const char *name; } hwcaps[] = {
	{ 1UL << 1, "asimd" }, { 1UL << 3, "aes" }, { 1UL << 4, "pmull" },
	{ 1UL << 5, "sha1" }, { 1UL << 6, "sha2" }, { 1UL << 21, "sha512" },
	{ 1UL << 17, "sha3" }, { 1UL << 18, "sm3" }, { 1UL << 19, "sm4" },
	{ 1UL << 22, "sve" },
};

/* Cores by implementer and part (Arm's and others' TRMs, the kernel's
 * arch/arm64/include/asm/cputype.h). */
static const struct { unsigned impl, part; const char *name; } cores[] = {
	{ 0x41, 0xd03, "ARM Cortex-A53" }, { 0x41, 0xd04, "ARM Cortex-A35" },
	{ 0x41, 0xd05, "ARM Cortex-A55" }, { 0x41, 0xd07, "ARM Cortex-A57" },
	{ 0x41, 0xd08, "ARM Cortex-A72" }, { 0x41, 0xd09, "ARM Cortex-A73" },
	{ 0x41, 0xd0a, "ARM Cortex-A75" }, { 0x41, 0xd0b, "ARM Cortex-A76" },
	{ 0x41, 0xd0c, "ARM Neoverse N1" }, { 0x41, 0xd0d, "ARM Cortex-A77" },
	{ 0x41, 0xd40, "ARM Neoverse V1" }, { 0x41, 0xd41, "ARM Cortex-A78" },
	{ 0x41, 0xd44, "ARM Cortex-X1" }, { 0x41, 0xd46, "ARM Cortex-A510" },
	{ 0x41, 0xd47, "ARM Cortex-A710" }, { 0x41, 0xd48, "ARM Cortex-X2" },
	{ 0x41, 0xd49, "ARM Neoverse N2" }, { 0x41, 0xd4f, "ARM Neoverse V2" },
	{ 0x41, 0xd8e, "ARM Neoverse N3" }, { 0x41, 0xd84, "ARM Neoverse V3" },
	{ 0x42, 0x516, "Broadcom Vulcan" }, { 0x43, 0x0af, "Cavium ThunderX2" },
	{ 0x48, 0xd01, "HiSilicon TaiShan v110" },
	{ 0x51, 0xc00, "Qualcomm Falkor" }, { 0x61, 0x022, "Apple M1 Icestorm" },
	{ 0x61, 0x023, "Apple M1 Firestorm" }, { 0xc0, 0xac3, "Ampere-1" },
	{ 0x00, 0x051, "QEMU max (emulated)" },
};

static const char *implementer(unsigned impl)
{
	switch (impl) {
	case 0x41: return "ARM";
	case 0x42: return "Broadcom";
	case 0x43: return "Cavium";
	case 0x48: return "HiSilicon";
	case 0x4e: return "NVIDIA";
	case 0x51: return "Qualcomm";
	case 0x61: return "Apple";
	case 0xc0: return "Ampere";
	case 0x00: return "QEMU";
	}
	return "unknown";
}

/* MIDR_EL1 by MRS (trapped and emulated by Linux); 0 when not allowed. */
static unsigned long midr(void)
{
	unsigned long v = 0;

	if (getauxval(AT_HWCAP) & HWCAP_CPUID)
		__asm__ volatile("mrs %0, MIDR_EL1" : "=r"(v));
	return v;
}

void cb_cpu_arm64(struct cb_cpu *cpu)
{
	unsigned long hw = getauxval(AT_HWCAP), m = midr();
	unsigned impl = (unsigned)(m >> 24 & 0xff), part = (unsigned)(m >> 4 & 0xfff);
	const char *name = NULL;

	cpu->flags[0] = 0;
	for (size_t i = 0; i < sizeof hwcaps / sizeof hwcaps[0]; i++)
		if (hw & hwcaps[i].bit)
			snprintf(cpu->flags + strlen(cpu->flags),
			         sizeof cpu->flags - strlen(cpu->flags), "%s%s",
			         cpu->flags[0] ? " " : "", hwcaps[i].name);
	if (!m)
		return;                 /* /proc/cpuinfo's, if any (cpu.c) */
	for (size_t i = 0; i < sizeof cores / sizeof cores[0]; i++)
		if (cores[i].impl == impl && cores[i].part == part)
			name = cores[i].name;
	snprintf(cpu->vendor, sizeof cpu->vendor, "%s", implementer(impl));
	if (name)
		snprintf(cpu->model, sizeof cpu->model, "%s r%up%u", name,
		         (unsigned)(m >> 20 & 0xf), (unsigned)(m & 0xf));
	else
		snprintf(cpu->model, sizeof cpu->model, "%s part 0x%03x r%up%u",
		         implementer(impl), part, (unsigned)(m >> 20 & 0xf),
		         (unsigned)(m & 0xf));
	cpu->family = (int)impl;
	cpu->model_no = (int)part;
	cpu->stepping = (int)(m & 0xf);
}
#endif
