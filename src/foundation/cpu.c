/*
 * cpu.c - the CPU's identity and crypto-relevant flags from /proc/cpuinfo
 * (x86's model name, family/model/stepping, flags; AArch64's "CPU
 * implementer"/"CPU part"), with AArch64's features and core read by
 * cpu_arm64.c instead (AT_HWCAP, MIDR_EL1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "foundation/cpu.h"

/* The flags that matter for these ciphers and hashes, in display order. */
static const char *const crypto_flags[] = {
	"aes", "pclmulqdq", "vaes", "vpclmulqdq", "sha_ni", "ssse3", "avx",
	"avx2", "avx512f", "avx512vl", "avx512bw", "bmi2", "adx", NULL,
};

int cb_has_word(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; (p = strstr(p, w)); p += n)
		if ((p == list || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[n] == ' ' || p[n] == '\n' || p[n] == 0))
			return 1;
	return 0;
}

static void value(const char *line, char *out, size_t n)
{
	const char *c = strchr(line, ':');
	size_t len;

	if (!c)
		return;
	c++;
	while (*c == ' ')
		c++;
	snprintf(out, n, "%s", c);
	len = strlen(out);
	if (len && out[len - 1] == '\n')
		out[len - 1] = 0;
}

const struct cb_cpu *cb_cpu(void)
{
	static struct cb_cpu cpu;
	static int done;
	char line[4096], buf[64];
	FILE *f;

	if (done)
		return &cpu;
	done = 1;
	strcpy(cpu.model, "unknown");
	strcpy(cpu.vendor, "unknown");
	cpu.family = cpu.model_no = cpu.stepping = -1;
	if (!(f = fopen("/proc/cpuinfo", "r"))) {
#if defined(__aarch64__)
		cb_cpu_arm64(&cpu);
#endif
		return &cpu;
	}
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, "model name", 10))
			value(line, cpu.model, sizeof cpu.model);
		else if (!strncmp(line, "vendor_id", 9))
			value(line, cpu.vendor, sizeof cpu.vendor);
		else if (!strncmp(line, "cpu family", 10))
			value(line, buf, sizeof buf), cpu.family = atoi(buf);
		else if (!strncmp(line, "model\t", 6) || !strncmp(line, "model ", 6))
			value(line, buf, sizeof buf), cpu.model_no = atoi(buf);
		else if (!strncmp(line, "stepping", 8))
			value(line, buf, sizeof buf), cpu.stepping = atoi(buf);
		else if (!strncmp(line, "cpu MHz", 7))
			value(line, buf, sizeof buf), cpu.mhz = atof(buf);
		else if (!strncmp(line, "flags", 5)) {
			for (int i = 0; crypto_flags[i]; i++)
				if (cb_has_word(line, crypto_flags[i])) {
					if (cpu.flags[0])
						strcat(cpu.flags, " ");
					strcat(cpu.flags, crypto_flags[i]);
				}
		} else if (!strncmp(line, "CPU implementer", 15)) {
			value(line, buf, sizeof buf), cpu.family = (int)strtol(buf, NULL, 0);
		} else if (!strncmp(line, "CPU part", 8)) {
			value(line, buf, sizeof buf), cpu.model_no = (int)strtol(buf, NULL, 0);
		} else if (line[0] == '\n' && (cpu.flags[0] || cpu.family >= 0))
			break;   /* first processor is enough */
	}
	fclose(f);
#if defined(__aarch64__)
	cb_cpu_arm64(&cpu);
#endif
	return &cpu;
}
