/*
 * sysinfo.h - provenance: what every result carries so that numbers from
 * different hosts, CPUs, kernels, library versions and builds can be told
 * apart.  `cryptobench sysinfo` prints it; the CSV writer puts it in every
 * row and the JSON writer in its header.  Library versions and the code
 * path each chose come from the backends (struct cb_backend version() and
 * details()).
 */
#ifndef CB_SYSINFO_H
#define CB_SYSINFO_H

#include <stdio.h>

struct cb_prov {
	const char *tool_version;   /* CB_VERSION                                 */
	char host[128];             /* gethostname()                              */
	char kernel[320];           /* uname: sysname release version machine     */
	char cpu_model[128];        /* /proc/cpuinfo "model name"                 */
	char cpu_vendor[32];
	int cpu_family, cpu_model_no, cpu_stepping;   /* -1 if unknown          */
	char cpu_flags[256];        /* crypto-relevant flags present              */
	double cpu_mhz;             /* as /proc/cpuinfo says (often not true)     */
	char compiler[128];         /* "gcc 12.2.0" from __VERSION__              */
	const char *cflags;         /* CFLAGS the binary was built with           */
	char governor[64];          /* cpufreq scaling_governor, or "unknown"     */
	char boost[64];             /* "on"/"off" (cpufreq boost or no_turbo),
	                               or "unknown"                               */
	char clocksource[64];       /* kernel clocksource (tsc, kvm-clock ...)    */
	const char *clock;          /* the timer: "CLOCK_MONOTONIC_RAW"           */
	const char *cpu_level;      /* --cpu / CRYPTOBENCH_CPU level every backend
	                               is capped to (docs/cpu.md); "max" = none   */
	/* Core clock from the dependent-add loop: each cb_prov_measure_ghz()
	 * call adds a sample; ghz is their mean, 0 until measured or where the
	 * loop does not exist for this architecture. */
	double ghz, ghz_first, ghz_last;
	unsigned ghz_samples;
	char started[32];           /* ISO 8601 UTC, first cb_prov() call         */
};

/* Filled on the first call (never fails: fields say "unknown"). */
const struct cb_prov *cb_prov(void);
/* Measure the core clock now (~30 ms) and fold it into cb_prov()->ghz;
 * returns the value measured. */
double cb_prov_measure_ghz(void);
/* ISO 8601 UTC time "2024-05-01T12:00:00Z" into buf (>= 21 bytes). */
void cb_iso_time(char *buf, size_t n);
/* A one-line statement of where cycles come from, for human formats:
 * "cycles from a dependent-add loop at 3.60 GHz" (or that none are). */
const char *cb_prov_cycles_note(void);
/* The provenance block as `sysinfo` prints it. */
void cb_prov_print(FILE *f);
/* A plug-in's file as 64 hex digits of its SHA-256 (through the first
 * backend here that has sha256), or "unknown" with no such backend or an
 * unreadable file.  Computed once per backend. */
struct cb_backend;
const char *cb_prov_plugin_sha256(const struct cb_backend *b);

#endif
