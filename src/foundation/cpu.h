/*
 * cpu.h - what the CPU is and which crypto features it has, read from
 * /proc/cpuinfo (model, family/model/stepping, flags).
 */
#ifndef CB_CPU_H
#define CB_CPU_H

struct cb_cpu {
	char model[128];
	char vendor[32];
	int family, model_no, stepping;
	double mhz;            /* as /proc/cpuinfo says (not the real clock) */
	char flags[256];       /* crypto-relevant flags present, space-separated */
};

/* Filled once; never fails (fields "unknown" when unreadable). */
const struct cb_cpu *cb_cpu(void);
/* AArch64 (cpu_arm64.c): the features from AT_HWCAP and the core from
 * MIDR_EL1 over what /proc/cpuinfo said. */
void cb_cpu_arm64(struct cb_cpu *cpu);
/* 1 if w is a whole word of the space-separated list. */
int cb_has_word(const char *list, const char *w);

#endif
